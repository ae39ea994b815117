"""What `referee intrigue` reads from its command line and prints as written: the game time
of ``--at``, the faces of ``--dice``, the ``--seed``, the names in the odds shown, and the command
group itself."""

from __future__ import annotations

from pathlib import Path

from .test_cli import _lines, evening, game, run, table_run

__all__ = ["evening", "game"]  # the fixtures of test_cli.py, shared


def test_at_more_than_twelve_hours_after_the_last_event_is_refused_as_a_slip(
    evening: Path,
) -> None:
    """Game time cannot go back, and a wall-clock time earlier than the start reads as the next
    day: ``--at`` more than twelve hours after the last event is almost always such a slip,
    refused in one line saying how long after it is; twelve hours exactly is taken."""
    e = str(evening)

    def roll(at: str) -> tuple[int, str]:
        code, _, err = run(
            "roll", e, "krockin", "Medicine", "--target", "14", "--dice", "1,1,1",
            "--as", "referee", "--at", at,
        )  # fmt: skip
        return code, err

    code, err = roll("43201")  # seconds of game time: 12 hours and a second after 21:30
    assert code == 2 and "that is 12:00:01 after the last event (21:30)" in err
    assert roll("03:30") == (0, "")  # six hours on
    code, err = roll("16:00")  # 12 hours 30 minutes after 03:30
    assert code == 2 and err == (
        "referee: error: --at 16:00: that is 12:30 after the last event (03:30); "
        "game time cannot go back\n"
    )
    assert roll("09:30") == (0, "")  # six hours after 03:30, twelve after the start
    assert roll("86400") == (0, "")  # twelve hours after 09:30, to the second


def test_the_faces_given_to_roll_may_be_spaced_after_their_commas(evening: Path) -> None:
    """``--dice 6, 6, 1``: the faces to roll, in order, the spaces a referee types ignored."""
    code, out, err = run(
        "roll", str(evening), "krockin", "Medicine", "--target", "14", "--dice", " 6, 6 ,1 ",
        "--as", "referee",
    )  # fmt: skip
    assert code == 0, err
    assert "The Amazing Krockin rolls Medicine: 14 against 14: succeeds" in out


def test_the_intrigue_group_holds_its_eight_commands_by_name_and_says_what_it_is_for() -> None:
    """``referee intrigue`` (with no command, its help): the commands the module's doc lists,
    in that order, each name calling its own command."""
    import typer.main

    from referee.cli import build_app
    from referee.systems.intrigue import commands

    top = typer.main.get_command(build_app(("intrigue",)))
    assert isinstance(top, typer.core.TyperGroup)
    group = top.commands["intrigue"]
    assert isinstance(group, typer.core.TyperGroup) and group.no_args_is_help
    assert group.help == (
        "Intrigue in the Clouds: the cast, odds calculators, perception checks, skill rolls "
        "and combat at the table (play with 'referee table')."
    )
    assert [(n, getattr(c.callback, "__wrapped__", None)) for n, c in group.commands.items()] == [
        ("check", commands.check_command),
        ("envelopes", commands.envelopes_command),
        ("skill-odds", commands.skill_odds_command),
        ("attack-odds", commands.attack_odds_command),
        ("perceive", commands.perceive_command),
        ("roll", commands.roll_command),
        ("combat", commands.combat_command),
        ("status", commands.status_command),
    ]


def test_the_odds_print_an_envelopes_id_as_written_not_as_emoji(tmp_path: Path) -> None:
    """Audit F4, for the odds: an envelope the game file calls ":skull:" is named so, in the
    planner and in the odds the referee is shown before a Perception Check."""
    game = tmp_path / "g.yaml"
    game.write_text(
        "characters:\n  a: {number: 11}\n  b:\n    number: 12\n"
        '    perception_envelopes: [{id: ":skull:", to: ALL, target: 3, contents: x}]\n'
    )
    assert _lines("envelopes", str(game), "a", "b") == [
        "odds :skull: (Give to ALL with a Roll of 3 or more): 3d6+0 ≥ 3: 100.0% (1)"
    ]


def test_a_seed_that_is_no_whole_number_is_refused_naming_the_option(evening: Path) -> None:
    code, _, err = run("perceive", str(evening), "07", "15", "--as", "referee", "--seed", "x")
    assert (code, err) == (
        2,
        "referee: error: --seed: a whole number (at most six digits), not 'x'\n",
    )


def test_an_events_roll_cards_follow_it_each_whole_and_as_written(tmp_path: Path) -> None:
    """Audit F4, for the roll cards: under each event it caused, the action shows each roll
    (dice, faces, total, outcome) on one line however long, names and envelopes as written —
    "[red]" no markup, ":smile:" and ":skull:" no emoji."""
    game = tmp_path / "g.yaml"
    game.write_text(
        'characters:\n  a: {number: 11, name: "Ödön [red] of the Lower Clouds"}\n'
        '  b:\n    number: 12\n    name: ":smile:"\n'
        '    perception_envelopes: [{id: ":skull:", to: ALL, target: 3, contents: x}]\n'
    )
    record = tmp_path / "t.json"
    assert table_run("new", "intrigue", str(game), "--out", str(record))[0] == 0
    who = "Ödön [red] of the Lower Clouds"
    assert _lines("perceive", str(record), "a", "b", "--as", "referee", "--dice", "3,3,3") == [
        "odds a is given :skull: (Give to ALL with a Roll of 3 or more): 3d6+0 ≥ 3: 100.0% (1)",
        f"#2 00:00 {who} makes a Perception Check on :smile:: total 9; hands over :skull: "
        "(Give to ALL with a Roll of 3 or more). :skull: reads: x",
        f"   {who} perceives :smile:: 3d6: 3d6 (3, 3, 3) = 9 → rolled",
        f"   {who} perceives :smile:: :skull:: 3d6 ≥ 3: 3d6 (3, 3, 3) = 9 → success (margin +6)",
        f"#3 00:00 {who} may perceive :smile: again at 00:15.",
    ]


def test_a_seeded_roll_rolls_the_same_dice_every_time(game: Path) -> None:
    """``--seed N``: the dice are reproducible — the same roll on two copies of the evening,
    seeded alike, comes out alike, and the record is written."""
    shown = []
    for copy in ("one.json", "two.json"):
        record = game.parent / copy
        assert table_run("new", "intrigue", str(game), "--out", str(record))[0] == 0
        code, out, err = run(
            "roll", str(record), "krockin", "Medicine", "--target", "12", "--seed", "7",
            "--as", "referee",
        )  # fmt: skip
        assert code == 0, err
        assert "rolls Medicine" in out
        shown.append(out)
        code, log, _ = table_run("log", str(record), "--as", "referee")
        assert code == 0 and "rolls Medicine" in log
    assert shown[0] == shown[1]


def test_faces_given_but_not_rolled_are_named_and_nothing_is_written(evening: Path) -> None:
    """Audit B5: ``--dice`` with faces the roll never used is a slip: refused, naming them."""
    code, _, err = run(
        "roll", str(evening), "krockin", "Medicine", "--target", "10", "--dice", "1,2,3,4,5",
        "--as", "referee",
    )  # fmt: skip
    assert (code, err) == (
        2,
        "referee: error: --dice: 2 face(s) left unrolled (4, 5); nothing written\n",
    )
    code, log, _ = table_run("log", str(evening), "--as", "referee")
    assert code == 0 and "rolls Medicine" not in log


def test_a_roll_is_of_a_skill_or_with_ability_of_a_special_ability(tmp_path: Path) -> None:
    """``roll WHO SKILL --target N``; ``--ability``: SKILL names a Special Ability, rolled with
    its own value (a skill of that name K does not have would add nothing)."""
    game = tmp_path / "g.yaml"
    game.write_text(
        'characters:\n  k: {number: 17, abilities: {"Second Sight": {value: 2}}}\n'
        "  s: {number: 15}\n"
    )
    record = tmp_path / "t.json"
    assert table_run("new", "intrigue", str(game), "--out", str(record))[0] == 0
    lines = _lines(
        "roll", str(record), "k", "Second Sight", "--ability", "--target", "12",
        "--dice", "6,6,4", "--as", "referee",
    )  # fmt: skip
    assert lines == [
        "odds k Second Sight: 3d6+2 ≥ 12: 62.5% (5/8)",
        "#2 00:00 k rolls Second Sight: 18 against 12: succeeds.",
        "   k's Second Sight ≥ 12: 3d6+2 ≥ 12: 3d6 (6, 6, 4) + 2 = 18 → success (margin +6)",
    ]


def test_a_roll_against_another_character_is_opposed_by_their_roll_and_skill(
    evening: Path,
) -> None:
    """``--against WHO``: the other character rolls 3d6 + the same skill ("Skill Rolls")."""
    lines = _lines(
        "roll", str(evening), "krockin", "Medicine", "--against", "scarface",
        "--dice", "6,6,4,1,1,1", "--as", "referee",
    )  # fmt: skip
    assert lines[0] == "odds krockin Medicine: 3d6+1 ≥ scarface's 3d6+0: 63.7% (9905/15552)"
    assert lines[1].endswith(
        " The Amazing Krockin rolls Medicine: 17 against ScarFace's Medicine 3: succeeds."
    )


def test_a_roll_takes_exactly_one_of_a_target_number_and_an_opponent(evening: Path) -> None:
    e = str(evening)
    assert run("roll", e, "07", "Medicine", "--as", "referee")[::2] == (
        2,
        "referee: error: give exactly one of --target and --against\n",
    )
    assert run("roll", e, "07", "Medicine", "--as", "referee", "--target", "abc")[::2] == (
        2,
        "referee: error: --target: a whole number (at most six digits), not 'abc'\n",
    )


def test_a_dry_run_shows_the_referee_the_odds_and_rolls_nothing(evening: Path) -> None:
    """``--dry-run``: a Perception Check's or a skill roll's odds only; the record unchanged."""
    e = str(evening)
    assert _lines("perceive", e, "07", "15", "--as", "referee", "--dry-run") == [
        "odds krockin is given scarface-p1 (Give to ALL with a Roll of 12 or more): "
        "3d6+2 ≥ 12: 62.5% (5/8)"
    ]
    assert _lines(
        "roll", e, "07", "Medicine", "--target", "14", "--as", "referee", "--dry-run"
    ) == ["odds krockin Medicine: 3d6+1 ≥ 14: 25.9% (7/27)"]
    code, log, _ = table_run("log", e, "--as", "referee")
    assert code == 0 and "Perception Check" not in log and "rolls Medicine" not in log

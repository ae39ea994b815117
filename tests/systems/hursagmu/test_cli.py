"""`referee hursagmu ...`: the round planner, encounters, odds and range; bad input exits 2."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.cli.table import read_table
from referee.core import observe
from referee.systems.hursagmu.state import on_turn

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "hursagmu"
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["hursagmu", *args])
    return result.exit_code, result.stdout, result.stderr


def test_plan_shows_initiatives_penalty_and_odds() -> None:
    code, out, _ = run(
        "plan",
        "defend",
        "attack:fred",
        "attack:fred",
        "--initiative",
        "12",
        "--dex",
        "2",
        "--skill",
        "striking=5",
        "--skill",
        "defense=6",
        "--against",
        "6",
    )
    assert code == 0
    assert "skill penalty -4" in out
    for initiative in ("12", "10", "8"):
        assert f"│ {initiative} " in out
    assert "2d6+3" in out and "2d6+4" in out
    assert "155/648" in out  # exact odds: 2d6+3 against 2d6+6, ties to the attacker


def test_plan_movement_and_haste() -> None:
    code, out, _ = run(
        "plan",
        "move:stand",
        "move:foot:16",
        "move:leap",
        "attack:foe",
        "defend",
        "--initiative",
        "11",
    )
    assert code == 0 and "movement actions 4" in out and "skill penalty -2" in out
    assert "│ 3 " in out
    code, out, _ = run("plan", "haste", "haste", "haste", "attack:x", "--initiative", "11")
    assert code == 0 and "│ 17 " in out and "skill penalty -6" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("plan", "fly"), "step 'fly': not a step"),
        (("plan", "move:foot:lots"), "expected a whole number"),
        (("plan", "move:foot:60"), "up to 4"),
        (("plan", "attack:x", "--stance", "dance"), "--stance 'dance'"),
        (("plan", "task:mahasu:9"), "cannot use the Intelligence skill"),
        (("plan", "attack:x", "--skill", "luck"), "expected NAME=LEVEL"),
        (("plan", "attack:x", "--skill", "juggling=3"), "no skill 'juggling'"),
        (("odds", "5"), "exactly one of"),
        (("range", "25", "sling"), "no range increment for 'sling'"),
        (("range", "-5", "missile weapon"), "a distance cannot be negative"),
        (("plan", "move:foot:10:9:extra"), "1 field(s) too many"),
        (("plan", "haste:3"), "1 field(s) too many"),
        (("standing", "/nonexistent.json", "--as", "bob"), "/nonexistent.json"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    code, _, err = run(*args)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_odds_and_range() -> None:
    code, out, _ = run("odds", "7", "--challenge", "14")
    assert code == 0 and "7/12" in out
    code, out, _ = run("odds", "2", "--against", "2")
    assert code == 0 and "721/1296" in out
    code, out, _ = run("odds", "-1", "--challenge", "7")  # a bonus below 0 is the bonus
    assert code == 0 and "2d6-1 ≥ 7" in out and "5/12" in out
    code, out, _ = run("range", "25", "missile weapon")
    assert code == 0 and "challenge +2" in out


def new_table(tmp_path: Path, scenario: str = "bob-against-fred") -> Path:
    record = tmp_path / "table.json"
    result = runner.invoke(
        app, ["table", "new", "hursagmu", str(EXAMPLES / f"{scenario}.yaml"), "--out", str(record)]
    )
    assert result.exit_code == 0, result.stderr
    return record


def table_act(record: Path, seat: str, *words: str) -> None:
    result = runner.invoke(app, ["table", "act", str(record), "--as", seat, *words])
    assert result.exit_code == 0, result.stderr


def test_standing_of_a_table_record(tmp_path: Path) -> None:
    record = new_table(tmp_path)
    table_act(record, "bob", "initiative", "stance=maneuver")
    table_act(record, "fred", "initiative", "stance=maneuver")
    table_act(record, "fred", "declare", 'actions=[{"attack": "bob"}, {"defend": true}]')
    code, out, _ = run("standing", str(record), "--as", "bob")
    assert code == 0, out
    assert "Round 1, action phase" in out and "20/20" in out and "25/25" in out
    # fred's two major actions: -2 to each skill, the defence two Initiatives after the attack
    assert "-2" in out and "attack@" in out and "defend@" in out
    assert "Fred declares: attack bob (striking); defend (defense)" in out
    table_act(record, "bob", "declare", 'actions=[{"attack": "fred"}, {"defend": true}]')
    first = on_turn(read_table(record).state)[0]  # the Initiatives were rolled at random
    other = "fred" if first == "bob" else "bob"
    table_act(record, first, "act")
    code, out, _ = run("standing", str(record), "--as", other)
    assert f"pending: {first}'s striking attack on {other}, who defends or takes it" in out
    assert "✓attack@" in out and f"to move: {other}" in out


def test_standing_keeps_a_sneak_from_the_other_seats(tmp_path: Path) -> None:
    record = new_table(tmp_path, "thief-and-sleeper")
    table_act(record, "alice", "sneak", "perceiver=guard", "skill=stealth")
    _, as_alice, _ = run("standing", str(record), "--as", "alice")
    _, as_bruno, _ = run("standing", str(record), "--as", "bruno")
    assert "Thief uses stealth on Guard" in as_alice
    assert "stealth" not in as_bruno and "guard:" not in as_bruno


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe not text", "not UTF-8"),
        (b"[" * 5000 + b"]" * 5000, "deep"),
        (b'{"version": ' + b"9" * 5000 + b"}", "digits"),
        (
            b'{"system": "hursagmu", "format": "referee.table/1", "setup": {"characters": '
            b'{"bob": {"dexterty": 2}}}, "seats": [], "start": "00:00", "actions": [], '
            b'"events": []}',
            "dexterty",
        ),
        (
            b'{"system": "hursagmu", "format": "referee.table/1", "setup": {"characters": '
            b'{"bob": {"dexterity": "two"}}}, "seats": [], "start": "00:00", "actions": [], '
            b'"events": []}',
            "dexterity",
        ),
        (b'{"system": "hursagmu"}', "format"),
        (b'{"system": "this.x"}', "no game system 'this.x'"),
        (b"[1, 2]", "a table record is a mapping"),
    ],
)
def test_standing_refuses_a_bad_record_in_one_line(
    tmp_path: Path, content: bytes, message: str
) -> None:
    record = tmp_path / "bad.json"
    record.write_bytes(content)
    code, out, err = run("standing", str(record), "--as", "bob")
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "args",
    [
        ("plan", "attack:x", "--initiative", "lots"),
        ("odds", "9" * 5000, "--challenge", "3"),
        ("range", "ten", "vision"),
        ("standing", "table.json"),
    ],
)
def test_usage_errors_are_one_line_from_the_command_line(args: tuple[str, ...]) -> None:
    referee = Path(sys.executable).with_name("referee")
    done = subprocess.run(
        [str(referee), "hursagmu", *args], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_standing_refuses_a_table_of_another_game(tmp_path: Path) -> None:
    record = tmp_path / "intrigue.json"
    result = runner.invoke(
        app,
        [
            "table",
            "new",
            "intrigue",
            str(EXAMPLES.parent / "intrigue" / "lady-rich.yaml"),
            "--out",
            str(record),
        ],
    )
    if result.exit_code != 0:
        pytest.skip(f"no intrigue example to start a table from: {result.stderr}")
    code, _, err = run("standing", str(record), "--as", "referee")
    assert code == 2 and "not 'hursagmu'" in err


def test_plan_shows_the_odds_of_a_required_acrobatics_roll() -> None:
    code, out, _ = run(
        "plan", "move:foot:16:9", "attack:x", "--dex", "2", "--skill", "acrobatics=1"
    )
    assert code == 0 and "acrobatics ≥ 9" in out and "13/18" in out


def test_plan_refuses_a_leap_beyond_maximum_lift() -> None:
    # "a standing long jump for a number of yards equal to his Maximum lift / 50": 2 yards.
    code, out, err = run("plan", "move:leap:9", "--max-lift", "100")
    assert code == 2 and out == ""
    assert "long jump reaches 2 yards" in err and len(err.strip().splitlines()) == 1
    code, _, _ = run("plan", "move:foot:6", "move:leap:4", "--max-lift", "100")
    assert code == 0  # a running start doubles it


def test_plan_checks_a_ranged_attacks_range_table_entry() -> None:
    code, out, err = run("plan", "attack:fred::30:bow")
    assert code == 2 and out == "" and "no range increment for 'bow'" in err
    # Without an opponent the attack is an unopposed roll against the range challenge.
    code, out, _ = run("plan", "attack:fred:missile:25:missile weapon", "--dex", "1")
    assert code == 0 and "2d6+1" in out and "≥ 2" in out and "100.0%" in out


@pytest.mark.parametrize("step", ["defend:striking", "attack:fred:luck", "task:luck:9"])
def test_plan_refuses_unknown_skills_and_non_defences(step: str) -> None:
    code, out, err = run("plan", step)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert f"step {step!r}" in err


def test_plan_reads_a_weapon_type_and_a_separate_attacker() -> None:
    # A missile attack names no range table entry: the weapon type gives it (audit F4).
    code, out, _ = run("plan", "attack:fred:missile:25", "--weapon-type", "missile weapon")
    assert code == 0 and "≥ 2" in out
    code, _, err = run("plan", "attack:fred:missile:25")
    assert code == 2 and "names its range table entry" in err
    code, _, err = run("plan", "attack:x", "--weapon-type", "sling")
    assert code == 2 and "--weapon-type 'sling'" in err
    # The defence holds against the attacker's own bonus, the attack against --against.
    code, out, _ = run(
        "plan",
        "defend",
        "attack:fred",
        "--against",
        "6",
        "--attacker",
        "9",
        "--dex",
        "2",
        "--skill",
        "defense=6",
        "--skill",
        "striking=5",
    )
    assert code == 0 and "103/648" in out and "575/1296" in out


def test_plan_applies_each_range_challenge_to_the_step_typed_at_that_place() -> None:
    """Range, Haste (issue 28's suspected bug): the planner looks a step's range challenge up
    by the place it was typed and shows it on that same step. Haste first (no Initiative of
    its own), a melee strike, then an arrow at 25 yards ("Between twenty and thirty yards, it
    is 2"): the strike is ≥ 0, the arrow ≥ 2 — the rows are in the order typed, which is the
    Initiative order (Initiatives never rise: "each action after the first happens at an
    Initiative two lower")."""
    code, out, _ = run(
        "plan",
        "haste",
        "attack:fred",
        "attack:fred:missile:25:missile weapon",
        "--initiative",
        "10",
        "--weapon-type",
        "missile weapon",
    )
    assert code == 0, out
    rows = [line for line in out.splitlines() if line.startswith("│ 2 ") or line.startswith("│ 3 ")]
    strike, arrow = rows
    assert "attack fred (striking)" in strike and "│ 12 " in strike and "≥ 0" in strike
    assert "attack fred (missile)" in arrow and "│ 10 " in arrow and "≥ 2" in arrow


def cells(out: str, first: str) -> list[str]:
    """The cells of the table row whose first cell is ``first`` (its first line)."""
    row = next(line for line in out.splitlines() if line.startswith(f"│ {first} "))
    return [cell.strip() for cell in row.strip("│").split("│")]


def test_plan_is_titled_by_stance_and_initiative_and_names_its_columns() -> None:
    code, out, _ = run("plan", "attack:fred", "--initiative", "12", "--stance", "maneuver")
    assert code == 0, out
    assert "Round plan (maneuver, Initiative 12)" in out
    header = next(line for line in out.splitlines() if line.startswith("┃"))
    assert [cell.strip() for cell in header.strip("┃").split("┃")] == [
        "#",
        "action",
        "Initiative",
        "roll",
        "odds",
    ]


def test_range_names_the_increment_of_its_table_entry() -> None:
    # "Range": a missile weapon's increment is ten yards; 25 yards is the third: +2.
    code, out, _ = run("range", "25", "missile weapon")
    assert code == 0
    assert "missile weapon at 25 yards (increment 10): challenge +2" in out


def test_standing_shows_a_dash_for_an_initiative_not_yet_rolled(tmp_path: Path) -> None:
    record = new_table(tmp_path)
    table_act(record, "bob", "initiative", "stance=maneuver")
    code, out, _ = run("standing", str(record), "--as", "bob")
    assert code == 0, out
    rolled = read_table(record).state.fighters["bob"].initiative
    assert cells(out, "bob")[3] == str(rolled)
    assert cells(out, "fred")[2:4] == ["—", "—"]  # no stance, no Initiative yet


DEFENDER = ("--dex", "2", "--skill", "defense=6", "--skill", "striking=5")


def test_plan_shows_no_odds_for_a_defence_when_no_attacker_is_named() -> None:
    code, out, _ = run("plan", "defend", *DEFENDER)
    assert code == 0, out
    assert cells(out, "1") == ["1", "defend (defense)", "10", "2d6+8", ""]


def test_a_defence_holds_against_the_opponents_bonus_or_the_attackers_own() -> None:
    # The attacker acts and wins ties: the defence holds only on a higher total.
    code, out, _ = run("plan", "defend", *DEFENDER, "--attacker", "9")
    assert code == 0 and cells(out, "1")[4] == "holds:  33.6%  (145/432)"
    code, out, _ = run("plan", "defend", *DEFENDER, "--against", "7")
    assert code == 0 and cells(out, "1")[4] == "holds:  55.6%  (721/1296)"
    # An attacker of bonus 0 is named: his 0, not the opponent's 7.
    code, out, _ = run("plan", "defend", *DEFENDER, "--against", "7", "--attacker", "0")
    assert code == 0 and cells(out, "1")[4] == "holds:  98.8%  (427/432)"


def test_an_opponent_of_bonus_zero_is_an_opponent() -> None:
    code, out, _ = run("plan", "defend", "attack:fred", *DEFENDER, "--against", "0")
    assert code == 0, out
    assert cells(out, "1")[4] == "holds:  94.6%  (613/648)"  # 2d6+6 against 2d6+0
    assert cells(out, "2")[4] == "hits:  94.6%  (613/648)"  # 2d6+5 against 2d6+0


def test_a_required_roll_of_a_movement_bears_the_rounds_skill_penalty() -> None:
    # Two attacks after the move: -2 to every skill, the Acrobatics roll too (2d6+3-2 ≥ 9).
    code, out, _ = run(
        "plan", "move:foot:16:9", "attack:x", "attack:x", "--dex", "2", "--skill", "acrobatics=1"
    )
    assert code == 0, out
    assert cells(out, "1")[3:] == ["2d6+1", "acrobatics ≥ 9:"]
    assert "41.7%  (5/12)" in out


def test_haste_has_no_initiative_of_its_own_in_the_plan() -> None:
    # "Haste": it raises the Initiative of what follows (+2), and is placed at none itself.
    code, out, _ = run("plan", "haste", "attack:x", "--initiative", "10")
    assert code == 0, out
    assert cells(out, "1") == ["1", "haste", "—", "", ""]  # no roll of its own
    assert cells(out, "2")[:3] == ["2", "attack x (striking)", "12"]


def test_a_movements_row_counts_its_movement_actions_beside_its_initiative() -> None:
    # "Movement": 16 yards on foot is two movement actions, at the round's Initiative 12.
    code, out, _ = run("plan", "move:foot:16", "attack:fred", "--initiative", "12")
    assert code == 0, out
    assert cells(out, "1")[2] == "12  (2 movement)"


def rows(out: str) -> dict[str, list[str]]:
    """A table's rows by their first cell (the header's too), each cell's wrapped lines joined."""
    shown: dict[str, list[str]] = {}
    last: list[str] = []
    for line in out.splitlines():
        if line[:1] not in ("│", "┃"):
            continue
        first, *rest = (cell.strip() for cell in line[1:-1].split(line[0]))
        if first:
            last = shown.setdefault(first, rest)
        else:
            last[:] = [f"{a} {b}".strip() for a, b in zip(last, rest, strict=True)]
    return shown


def seen_as(state: dict[str, Any], narration: tuple[str, ...], to_move: tuple[str, ...]) -> Any:
    """``observe`` as a seat that sees ``state``, ``narration`` and ``to_move`` (the standing
    renders what it is shown; the game's own views are tested with the rules)."""
    real = observe

    def seen(table: Any, seat: str) -> Any:
        return dataclasses.replace(
            real(table, seat), state=state, narration=narration, to_move=to_move
        )

    return seen


def character(**fields: Any) -> dict[str, Any]:
    """A character as a seat's view shows him: up, no stance, no Initiative, no plan."""
    shown: dict[str, Any] = {"hits": 10, "stamina": 10, "conscious": True, "penalty": 0}
    return shown | fields


def test_standing_shows_each_characters_round_as_the_seat_sees_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = new_table(tmp_path)
    plan = [{"kind": "move", "initiative": 14}, {"kind": "defend", "initiative": 12}]
    state = {
        "round": 3,
        "phase": "action",
        "characters": {
            "ann": character(hits=0, conscious=False, prone=True, asleep=True),
            "bea": character(stance="maneuver", initiative=14, rank=2, plan=plan, next_step=1),
            "cy": character(initiative=9, rank=1, waiting=True, holding=True, penalty=-2),
            "dag": character(initiative=7, rank=0, mounted=True, injured=True),
            "eve": character(rank=2),  # first, but no Initiative yet: a dash alone
        },
        "pending": {"attacker": "bea", "skill": "striking", "target": "dag", "defence": "abort"},
    }
    told = tuple(f"line {n}" for n in range(1, 8))
    monkeypatch.setattr("referee.core.observe", seen_as(state, told, ()))
    code, out, _ = run("standing", str(record), "--as", "bob")
    assert code == 0, out
    assert "Round 3, action phase (as bob)" in out
    shown = rows(out)
    assert shown["ann"] == ["0/10 (down)", "—", "—", "+0", "", "prone, asleep"]
    assert shown["bea"][:5] == ["10/10", "maneuver", "14 (first)", "+0", "✓move@14, defend@12"]
    assert shown["cy"][2:] == ["9 (waiting game)", "-2", "", "waiting, holding"]
    assert shown["dag"][2:] == ["7", "+0", "", "mounted, injured"]
    assert shown["eve"][2] == "—"
    assert "pending: bea's striking attack on dag, who may abort his turn to defend" in out
    # The last five lines told, in order; nobody to move.
    assert [line.strip() for line in out.splitlines() if line.startswith("  line")] == [
        f"line {n}" for n in range(3, 8)
    ]
    assert out.splitlines()[-1] == "to move: nobody"


@pytest.mark.parametrize(
    ("defence", "answer"), [("defend", "defends or takes it"), ("none", "takes it")]
)
def test_standing_says_how_the_target_may_answer_a_pending_attack(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, defence: str, answer: str
) -> None:
    record = new_table(tmp_path)
    pending = {"attacker": "bob", "skill": "missile", "target": "fred", "defence": defence}
    state = {"round": 1, "phase": "action", "characters": {}, "pending": pending}
    monkeypatch.setattr("referee.core.observe", seen_as(state, (), ("fred", "bob")))
    code, out, _ = run("standing", str(record), "--as", "fred")
    assert code == 0, out
    assert f"pending: bob's missile attack on fred, who {answer}\n" in out
    header = ["hits", "stance", "Initiative", "penalty", "plan", "state"]
    assert rows(out) == {"character": header}
    assert out.splitlines()[-1] == "to move: fred, bob"


def test_under_the_cinematic_option_the_plans_defences_count_once() -> None:
    # Two defences and a strike: each defence an action (-4, Initiatives 10, 8, 6), or under
    # the Master's cinematic option the defences together one (-2, both at 10, the strike at 8).
    code, out, _ = run("plan", "defend", "defend", "attack:x", "--cinematic")
    assert code == 0, out
    assert [cells(out, n)[2] for n in "123"] == ["10", "10", "8"]
    assert "skill penalty -2" in out and "defences count once a round" in out
    code, out, _ = run("plan", "defend", "defend", "attack:x")
    assert code == 0, out
    assert [cells(out, n)[2] for n in "123"] == ["10", "8", "6"]
    assert "skill penalty -4" in out and "defences count one each" in out


def test_a_heavy_load_slows_the_plans_movement() -> None:
    # "Encumbrance": at 60 of a maximum lift of 100 the 16 yards take four movement actions.
    code, out, _ = run("plan", "move:foot:16", "--max-lift", "100", "--load", "60")
    assert code == 0 and cells(out, "1")[2] == "10  (4 movement)"
    code, out, _ = run("plan", "move:foot:16", "--max-lift", "100")
    assert code == 0 and cells(out, "1")[2] == "10  (2 movement)"


def test_riding_goes_the_mounts_yards_each_movement_action() -> None:
    code, out, _ = run("plan", "move:ride:30", "--mount", "20")
    assert code == 0 and cells(out, "1")[2] == "10  (2 movement)"
    code, out, _ = run("plan", "move:ride:30", "--mount", "30")
    assert code == 0 and cells(out, "1")[2] == "10  (1 movement)"


def test_the_group_named_alone_shows_its_help_and_its_four_commands() -> None:
    _, out, _ = run()
    assert "Usage: referee hursagmu" in out
    assert "Hursagmu's encounter rules: round planner, odds, range, a table's standing." in out
    for command in ("plan", "odds", "range", "standing"):
        assert f"│ {command} " in out, command


def test_a_tasks_odds_are_its_roll_against_its_challenge_level() -> None:
    # A concentrating character's Perception task and a defence: -2 each, 2d6+2+3-2 ≥ 9.
    code, out, _ = run(
        "plan",
        "task:perception:9",
        "defend:defiance",
        "--stance",
        "concentrate",
        "--int",
        "2",
        "--skill",
        "perception=3",
        "--skill",
        "defiance=2",
    )
    assert code == 0, out
    assert cells(out, "1")[3:] == ["2d6+3", "≥ 9:  72.2%  (13/18)"]


def test_a_task_of_a_bare_attribute_rolls_the_planners_strength_or_willpower() -> None:
    # A task may roll an attribute alone (the door held open by Strength, the portal by
    # Willpower, "Pushing Power"): 2d6 + what --str or --wil gives, the other unread.
    door, portal = "task:strength:9:hold the door", "task:willpower:10:hold the portal"
    for strength, willpower in (("3", "1"), ("1", "3")):
        given = ("--str", strength, "--wil", willpower)
        code, out, _ = run("plan", door, *given)
        assert code == 0, out
        assert cells(out, "1")[3] == f"2d6+{strength}"
        code, out, _ = run("plan", portal, *given)
        assert code == 0, out
        assert cells(out, "1")[3] == f"2d6+{willpower}"
    code, out, _ = run("plan", door, "--str", "3")
    assert cells(out, "1")[4] == "≥ 9:  72.2%  (13/18)"
    code, out, _ = run("plan", portal, "--wil", "3")
    assert cells(out, "1")[4] == "≥ 10:  58.3%  (7/12)"


def test_an_opposed_ranged_attack_carries_the_range_challenge() -> None:
    # "Range": at 25 yards a missile weapon adds 2 to the defender's side (2d6+7 against
    # 2d6+6+2), none at point blank.
    shooter = ("--dex", "2", "--skill", "missile=5", "--against", "6")
    code, out, _ = run("plan", "attack:fred:missile:25:missile weapon", *shooter)
    assert code == 0 and cells(out, "1")[4] == "hits:  44.4%  (575/1296)"
    code, out, _ = run("plan", "attack:fred:missile", *shooter)
    assert code == 0 and cells(out, "1")[4] == "hits:  66.4%  (287/432)"


def test_a_heavy_load_shortens_the_plans_leap() -> None:
    # "Encumbrance": 2 yards of standing long jump at a maximum lift of 100, 0.8 at a load of 60.
    code, _, _ = run("plan", "move:leap:2", "--max-lift", "100")
    assert code == 0
    code, out, err = run("plan", "move:leap:2", "--max-lift", "100", "--load", "60")
    assert code == 2 and out == "" and "long jump reaches 0.8 yards" in err

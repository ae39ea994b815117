"""Tests that kill the mutants mutmut left alive in round 6 of issue 13 (docs/systems/kingdoms.md,
"Mutation testing", "Round 6: `procedure.py`"): what the procedure's events say to every seat —
sessions, sealed slips, passes, tie-breakers, the end of a maneuver and of the chronicle."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, Event, RuleError, Table, Viewer, view
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.dice import BurningPool, versus_odds

from .test_mutants import PLAYERS, _kingdom
from .test_mutants_fold import _two_kingdoms
from .test_procedure import act, all_pass, sealed, setup, start

EVERY_SEAT = Viewer("someone")


def _act(
    table: Table[Any], faction: str, action: str, dice: list[int] | None = None, **params: Any
) -> Table[Any]:
    return table.act(Action(faction, action, params), ScriptedSource(dice or []))


def _pass_all(table: Table[Any]) -> Table[Any]:
    for f in table.state.standing():
        if f not in table.state.passed:
            table = _act(table, f, "pass")
    return table


def _new(table: Table[Any], before: int) -> list[Event]:
    """The events logged since the log held ``before`` of them."""
    return list(table.log.events[before:])


def _said(events: list[Event]) -> list[str]:
    """Each event as every seat reads it."""
    return [PROCEDURE.describe(e, EVERY_SEAT) for e in events]


# ------------------------------------------------------------------- sessions, slips, passes


def test_a_new_session_says_at_which_maneuver_play_resumes() -> None:
    """Structure of Play: sessions are days of play; the record says which maneuver the new
    session starts at (the chronicle set up at its third maneuver)."""
    table = Table.start(PROCEDURE, {**_kingdom({}), "maneuver": 3}, players=PLAYERS)
    table = _act(table, "elves", "new_session")
    event = table.log.events[-1]
    assert event.payload == {"session": 2, "maneuver_number": 3}
    assert _said([event]) == ["Session 2 begins (maneuver 3)"]


def test_every_seat_sees_for_which_maneuver_a_slip_was_sealed() -> None:
    """Maneuver: the slips are declared privately; every seat sees that a faction sealed its
    slip for this maneuver (the commitment names it), not what the slip says."""
    table = Table.start(PROCEDURE, {**_kingdom({}), "maneuver": 2}, players=PLAYERS)
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    seen = view(table.log, EVERY_SEAT)[-1]
    assert (seen.data["faction"], seen.data["maneuver_number"]) == ("orcs", 2)
    assert "slip" in seen.redacted


def test_a_faction_that_passes_has_not_spent_its_scenes() -> None:
    """Spending Scenes: a faction may pass its remaining scenes; the log says it passed, not
    that it spent every scene."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    for f in ("elves", "orcs"):
        table = _act(table, f, "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(table, "elves", "pass")
    event = table.log.events[-1]
    assert event.payload == {"faction": "elves", "spent": False}
    assert _said([event]) == ["elves passes its remaining scenes"]


# ----------------------------------------------------------------------------- tie-breakers


def _tied_with_a_second() -> Table[Any]:
    """The elves (Aeluin: Will B4, Perception B3 open-ended) Fortify on Logistics B4; the orcs'
    2iC Ugluk (Will B2, Perception G3 open-ended; his leader Gorbash has Perception G4
    open-ended) Assaults them with Tactics B4 and directs the conflict scene himself. Each
    side rolls 4, 4, 1, 1: 2 successes each, a tied versus test."""
    setup = _kingdom(
        {},
        stats={"Will": "B4", "Perception": {"shade": "B", "exponent": 3, "open_ended": True}},
    )
    orcs = setup["factions"]["orcs"]
    orcs["assessed"] = ["elves"]
    orcs["second"] = {
        "name": "Ugluk",
        "lifepaths": 8,
        "stats": {"Will": "B2", "Perception": {"shade": "G", "exponent": 3, "open_ended": True}},
        "skills": {"Tactics": "B4"},
    }
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(
        table,
        "orcs",
        "write_slip",
        maneuver="Assault",
        skill="Tactics",
        target="elves",
        roller="second",
    )
    table = _act(table, "orcs", "scene", kind="conflict", target="elves", by="second")
    table = _act(_pass_all(table), "elves", "reveal", [4, 4, 1, 1] * 2)
    assert {f: t.successes for f, t in table.state.rolls.items()} == {"elves": 2, "orcs": 2}
    return table


def test_a_tie_breaker_rolls_the_rollers_root_stat_open_ended_as_its_sheet_says() -> None:
    """Independent and Versus Maneuvers: a tied versus test may be broken by testing root
    stats, "extra successes count as if they were extra successes for the maneuver skill".
    The root stat is the one of the character who rolled the maneuver (the orcs' 2iC Ugluk,
    not their leader), and an open-ended stat rolls its 6s again: the elves' B3 rolls 6, 1, 1
    and the 6 again, a 4 (2 successes); Ugluk's G3 rolls 6, 1, 1 and a 3 (2 at Grey). Each
    roll is carded under its side's name and the rule; every seat reads the extras."""
    table = _tied_with_a_second()
    table = _act(table, "orcs", "tie_break", opponent="elves", root="Perception")
    before = len(table.log.events)
    table = _act(
        table, "elves", "tie_break", [6, 1, 1, 4, 6, 1, 1, 3], opponent="orcs", root="Perception"
    )
    offered, rolled = _new(table, before)
    data: Any = rolled.payload
    assert data["factions"] == ["elves", "orcs"]
    assert data["extra"] == {"elves": 2, "orcs": 2}
    cards = [(c["label"], c["rule"], c["dice"], c["value"]) for c in data["rolls"]]
    assert cards == [
        (
            "elves: tie-breaker on Perception",
            "Independent and Versus Maneuvers",
            "3d6 open-ended",
            2,
        ),
        (
            "orcs: tie-breaker on Perception",
            "Independent and Versus Maneuvers",
            "3d6 grey open-ended",
            2,
        ),
    ]
    pools = {
        f: (p["dice"], p["shade"], p["open_ended"], p["successes"])
        for f, p in data["pool_rolls"].items()
    }
    assert pools == {"elves": (3, "B", True, 2), "orcs": (3, "G", True, 2)}
    assert _said([offered, rolled]) == [
        "elves agrees to break the tie with orcs on Perception",
        "Tie-breaker between elves and orcs: elves +2, orcs +2",
    ]
    assert {f: t.successes for f, t in table.state.rolls.items()} == {"elves": 4, "orcs": 4}
    orcs = _rolled(table, "orcs")
    assert (orcs["roller"], orcs["character"]) == ("second", "Ugluk")


# ------------------------------------------------------------- the end of a maneuver, of all


def test_a_faction_finished_off_by_one_attack_is_conquered_by_it_and_the_last_one_wins() -> None:
    """Consequences: the faction that wiped out another is its conqueror ("the attack that
    finished it off"); Winning the Chronicle: the last faction in contention wins — the
    chronicle is won, not ended unwon. Every seat reads the maneuver resolved and ended."""
    table = _two_kingdoms(orcs_disposition=2)
    table = _act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Tactics", substitute=True)
    table = _act(table, "elves", "scene", kind="conflict", target="orcs")
    table = _act(_pass_all(table), "elves", "reveal", [4] * 5 + [1] * 4)
    before = len(table.log.events)
    table = _act(table, "elves", "resolve")
    events = _new(table, before)
    kinds = [e.kind for e in events]
    assert "chronicle.ended" not in kinds
    named = next(e for e in events if e.kind == "conqueror.named")
    assert named.payload == {
        "defeated": "orcs",
        "conqueror": "elves",
        "why": "the attack that finished it off",
    }
    said = _said(events)
    assert said[0].startswith("Maneuver 1 resolved in seat order — the narrator is elves")
    assert "elves conquers orcs (the attack that finished it off)" in said
    assert "elves stands alone and wins the chronicle" in said
    assert said[-1] == "Maneuver 1 ends"


def test_of_two_attackers_the_one_with_more_successes_conquers() -> None:
    """Consequences: of the factions that damaged the defeated one this maneuver, the one with
    more successes on its maneuver roll is the conqueror. The elves (4 successes) and the
    dwarves (2) both Assault the orcs (disposition 5, no success on their Fortify): the
    elves take 4, the dwarves' attack finishes them off, and the elves conquer. The dwarves
    still stand, so nobody has won and the chronicle has not ended."""
    setup = _kingdom({"assessed": ["orcs"]}, skills={"Logistics": "B4", "Tactics": "B4"})
    setup["factions"]["orcs"]["disposition"] = 5
    setup["factions"]["dwarves"] = {
        "disposition": 9,
        "assessed": ["orcs"],
        "leader": {
            "name": "Durin",
            "lifepaths": 6,
            "stats": {"Will": "B4"},
            "skills": {"Tactics": "B4"},
        },
    }
    table = Table.start(PROCEDURE, setup, players={**PLAYERS, "cy": ["dwarves"]})
    for f in ("elves", "dwarves"):
        table = _act(table, f, "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    for f in ("elves", "dwarves"):
        table = _act(table, f, "scene", kind="conflict", target="orcs")
    table = _act(_pass_all(table), "elves", "reveal", [4] * 4 + [1] * 4 + [4, 4, 1, 1])
    for f in table.state.rolls:
        if not table.state.rolls[f].decided:
            table = _act(table, f, "keep")
    before = len(table.log.events)
    table = _act(table, "elves", "resolve")
    events = _new(table, before)
    assert [e.kind for e in events if e.kind.startswith("chronicle.")] == []
    named = next(e for e in events if e.kind == "conqueror.named")
    assert named.payload == {
        "defeated": "orcs",
        "conqueror": "elves",
        "why": "the attacker with more successes",
    }
    assert "elves conquers orcs (the attacker with more successes)" in _said(events)


def test_when_the_last_two_wipe_each_other_out_the_chronicle_ends_unwon() -> None:
    """Winning the Chronicle: the last two kingdoms Assault each other to 0 — nobody is left
    standing, nobody wins: every seat reads that the chronicle ends unwon."""
    table = _two_kingdoms(orcs_disposition=2, elves_disposition=2)
    table = _act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = _act(table, "orcs", "write_slip", maneuver="Assault", skill="Tactics", target="elves")
    table = _act(table, "elves", "scene", kind="conflict", target="orcs")
    table = _act(_pass_all(table), "elves", "reveal", [4] * 9)
    before = len(table.log.events)
    table = _act(table, "elves", "resolve")
    events = _new(table, before)
    ended = [e for e in events if e.kind.startswith("chronicle.")]
    assert [(e.kind, e.payload) for e in ended] == [("chronicle.ended", {"winner": None})]
    assert _said(ended) == ["Nobody is left standing: the chronicle ends unwon"]


def test_an_infiltrate_of_a_faction_that_cannot_act_is_tested_at_its_leaders_circles() -> None:
    """Infiltrate: an independent test against the target's base Circles (RULINGS: a maneuver
    against a faction that cannot act is independent). The orcs cannot act; their leader's
    Circles are 3; the elves' Infiltrate rolls 4 successes: the orcs are Infiltrated by the
    margin, 1."""
    setup = _kingdom({})
    orcs = setup["factions"]["orcs"]
    orcs["cannot_act"] = True
    orcs["leader"]["circles"] = 3
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    table = _act(
        table,
        "elves",
        "write_slip",
        maneuver="Infiltrate",
        skill="Logistics",
        target="orcs",
        substitute=True,
    )
    table = _act(table, "elves", "scene", kind="conflict", target="orcs")
    table = _act(_pass_all(table), "elves", "reveal", [4] * 4)
    table = _act(table, "elves", "keep")
    table = _act(table, "elves", "resolve")
    assert table.state.factions["elves"].infiltrated == {"orcs": 1}


# ------------------------------------------------------------------------------- the reveal


def test_the_reveal_waits_for_every_faction_under_maneuver_resolution() -> None:
    """Maneuver Resolution: the maneuver ends when every faction has spent or passed its
    scenes; a reveal before is refused under that rule."""
    table = sealed(start())
    with pytest.raises(RuleError, match="waiting for") as refused:
        act(table, "elves", "reveal")
    assert refused.value.rule == "Maneuver Resolution"
    table = all_pass(table)
    table = act(table, "elves", "reveal", [4] * 20)
    revealed = next(e for e in table.log if e.kind == "slips.revealed")
    assert (revealed.payload["maneuver_number"], revealed.payload["reader"]) == (1, "elves")


def test_a_maneuver_without_its_conflict_scene_is_void_behind_one_that_cannot_act() -> None:
    """Maneuvers: a Ploy requires a conflict scene at its targets; without one it is void,
    wherever it sits in the seat order — here after the elves, who cannot act and wrote no
    slip. The dwarves' help to the void Ploy is refused: there is no maneuver to help."""
    data = setup()
    data["factions"]["elves"]["cannot_act"] = True
    data["factions"]["orcs"]["infiltrated"] = {"elves": 0, "dwarves": 0}
    table = Table.start(PROCEDURE, data)
    table = act(
        table, "orcs", "write_slip", maneuver="Ploy", skill="Tactics", targets=["elves", "dwarves"]
    )
    table = act(
        table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications", helps="orcs"
    )
    table = act(all_pass(table), "elves", "reveal", [4] * 20)
    revealed = next(e for e in table.log if e.kind == "slips.revealed")
    why = "Ploy requires a conflict scene directed at elves, dwarves; none was"
    assert revealed.payload["void"] == {"orcs": why}
    assert revealed.payload["help_refused"] == {"dwarves": "orcs has no maneuver to help"}
    assert f"  orcs' maneuver is void: {why}" in PROCEDURE.describe(revealed, EVERY_SEAT)
    assert "orcs" in table.state.void and "orcs" not in table.state.rolls


def test_help_refused_at_the_reveal_says_why() -> None:
    """Help: factions' leaders help only if they lent each other helping dice in a scene this
    maneuver, and only with the skill the helped maneuver rolls. The dwarves help the elves'
    Fortify on Logistics: refused without such a scene; with it, refused because Grannir has
    no Logistics."""
    table = act(start(), "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = act(
        table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications", helps="elves"
    )
    table = sealed(table)
    unlent = act(all_pass(table), "elves", "reveal", [4] * 20)
    revealed = next(e for e in unlent.log if e.kind == "slips.revealed")
    assert revealed.payload["help_refused"] == {
        "dwarves": "dwarves and elves lent each other no helping dice in a scene this maneuver"
    }
    table = act(
        table, "elves", "scene", [4] * 4, kind="building", skill="Logistics", helpers=["dwarves"]
    )
    lent = act(all_pass(table), "elves", "reveal", [4] * 20)
    revealed = next(e for e in lent.log if e.kind == "slips.revealed")
    assert revealed.payload["help_refused"] == {
        "dwarves": "dwarves' leader has no Logistics to help with"
    }


def test_fate_after_the_roll_is_carded_as_the_factions_artha_on_its_roll() -> None:
    """Artha: Fate after the roll; every seat receives the roll card of the spend, named for
    the faction and the pool it was spent on."""
    data = setup()
    data["factions"]["elves"]["leader"]["artha"] = {"fate": 1, "persona": 0, "deeds": 0}
    table = sealed(Table.start(PROCEDURE, data))
    table = act(all_pass(table), "elves", "reveal", [6, 1, 1, 1] + [4] * 9)
    table = act(table, "elves", "spend_artha", [6, 5], fate=True)
    spent = table.log.events[-1]
    assert spent.payload["roll"]["label"] == "elves spends artha on its defence roll"  # type: ignore[index,call-overload]
    assert spent.payload["successes"] == 3


def _rolled(table: Table[Any], faction: str) -> dict[str, Any]:
    """The payload of ``faction``'s ``test.rolled`` event."""
    return dict(
        next(
            e for e in table.log if e.kind == "test.rolled" and e.payload["faction"] == faction
        ).payload
    )


def test_a_gambit_sacrifices_its_disposition_at_the_reveal_behind_one_that_cannot_act() -> None:
    """Gambit: "sacrifice 3 points of disposition" to announce it, at the reveal — whatever
    sits before it in the seat order (here the elves, who cannot act: the reveal lists them).
    Every seat reads the sacrifice; the orcs' roll spent no artha before it."""
    data = setup()
    data["factions"]["elves"]["cannot_act"] = True
    data["factions"]["orcs"]["assessed"] = ["dwarves"]
    table = Table.start(PROCEDURE, data)
    table = act(
        table,
        "orcs",
        "write_slip",
        maneuver="Gambit",
        skill="Tactics",
        target="dwarves",
        substitute=True,
    )
    table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
    table = act(table, "orcs", "scene", kind="conflict", target="dwarves")
    table = act(all_pass(table), "elves", "reveal", [4] * 20)
    revealed = next(e for e in table.log if e.kind == "slips.revealed")
    assert revealed.payload["cannot_act"] == ["elves"]
    sacrifice = next(e for e in table.log if e.kind == "effect.applied")
    assert sacrifice.payload == {
        "faction": "orcs",
        "kind": "disposition",
        "by": "orcs",
        "amount": -3,
        "value": 7,
        "target": None,
        "text": "orcs sacrifices 3 disposition to announce its Gambit",
    }
    assert _said([sacrifice]) == ["orcs sacrifices 3 disposition to announce its Gambit"]
    assert table.state.factions["orcs"].disposition == 7
    orcs = _rolled(table, "orcs")
    assert (orcs["roller"], orcs["character"]) == ("leader", "Gorbash")
    assert orcs["artha"] == {"persona": 0, "deeds": 0}


def test_a_sapped_conserve_not_rolled_is_noted_as_unopposed_not_as_sapped() -> None:
    """Conserve is "only rolled against a versus maneuver": unopposed, it is not rolled and
    the roll says so — the Sap on the faction (2, below its exponent) takes its dice, but
    is not the reason it is not rolled."""
    data = setup()
    data["factions"]["orcs"]["leader"]["skills"]["Foraging"] = "B4"
    data["factions"]["orcs"]["sapped"] = 2
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = act(table, "orcs", "write_slip", maneuver="Conserve", skill="Foraging")
    table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
    table = act(all_pass(table), "elves", "reveal", [4] * 20)
    orcs = _rolled(table, "orcs")
    assert (orcs["dice"], orcs["notes"]) == (
        0,
        ["-2D Sapped", "Conserve is only rolled against a versus maneuver: not rolled"],
    )


def test_a_faction_sapped_out_of_its_roll_is_noted_as_sapped() -> None:
    """Sap: a faction Sapped at or above its exponent "may not roll" this maneuver; its roll
    says so."""
    data = setup()
    data["factions"]["dwarves"]["sapped"] = 5
    table = sealed(Table.start(PROCEDURE, data))
    table = act(all_pass(table), "elves", "reveal", [4] * 20)
    dwarves = _rolled(table, "dwarves")
    assert (dwarves["dice"], dwarves["notes"]) == (0, ["-5D Sapped", "Sapped: may not roll"])


def test_a_leader_whose_wounds_take_every_die_rolls_nothing_and_is_not_sapped() -> None:
    """Wounds: each wound die comes off the pool; a leader with 4 wound dice and Logistics B4
    rolls nothing — the roll notes the wounds, not a Sap the faction never suffered."""
    data = setup()
    data["factions"]["elves"]["leader"]["wound_dice"] = 4
    table = sealed(Table.start(PROCEDURE, data))
    table = act(all_pass(table), "elves", "reveal", [4] * 20)
    elves = _rolled(table, "elves")
    assert (elves["dice"], elves["notes"], elves["artha"]) == (
        0,
        ["-4D wounds"],
        {"persona": 0, "deeds": 0},
    )


# ------------------------------------------------------------------------------- the scenes


def _sealed_kingdom() -> Table[Any]:
    """The elves and the orcs of ``_kingdom``, both Fortifying with Logistics."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    for f in ("elves", "orcs"):
        table = _act(table, f, "write_slip", maneuver="Fortify", skill="Logistics")
    return table


def test_a_building_scene_may_roll_a_stat_open_ended_with_a_helpers_die() -> None:
    """Building Scenes: one roll of a skill or a stat against the Ob, helpers' dice added (an
    exponent of 1 lends +1D). Gorbash's Perception G4 open-ended, helped by an exponent 1:
    5 dice, 6, 1, 1, 1, 1 and the 6 again, a 3 — 2 successes at Grey, Ob 2 passed. Every seat
    receives the roll card, under the rule."""
    table = _act(
        _sealed_kingdom(),
        "orcs",
        "scene",
        [6, 1, 1, 1, 1, 3],
        kind="building",
        skill="Perception",
        ob=2,
        helpers=["elves"],
        help_exponents=[1],
    )
    data: Any = table.log.events[-1].payload
    assert (data["skill"], data["ob"], data["dice"], data["successes"], data["passed"]) == (
        "Perception",
        2,
        5,
        2,
        True,
    )
    assert (data["roll"]["label"], data["roll"]["rule"], data["roll"]["dice"]) == (
        "Gorbash's building scene: Perception",
        "Building Scenes",
        "5d6 grey open-ended vs Ob 2",
    )


def test_scenes_are_refused_under_the_scene_economy() -> None:
    """Scene Economy: no rolls in color scenes (a skill named is a roll); a helper is another
    faction; an interstitial scene's partner is a faction; a faction that passed plays no
    more scenes — each refused under the Scene Economy."""
    table = _sealed_kingdom()
    refusals: list[dict[str, Any]] = [
        {"kind": "color", "skill": "Logistics"},
        {"kind": "building", "skill": "Logistics", "helpers": ["orcs"]},
        {"kind": "interstitial", "with": "goblins"},
    ]
    for params in refusals:
        with pytest.raises(RuleError) as refused:
            _act(table, "orcs", "scene", [4] * 6, **params)
        assert refused.value.rule == "Scene Economy"
    passed = _act(table, "orcs", "pass")
    with pytest.raises(RuleError, match="has passed its scenes") as refused:
        _act(passed, "orcs", "scene", kind="color")
    assert refused.value.rule == "Scene Economy"


def test_an_interstitial_scene_names_the_faction_it_is_played_with() -> None:
    """Scene Economy: an interstitial scene, played with another faction, rolls nothing; every
    seat reads with whom."""
    scene = Action("orcs", "scene", {"kind": "interstitial", "with": "elves"})
    table = _sealed_kingdom().act(scene, ScriptedSource([]))
    event = table.log.events[-1]
    assert event.payload["with"] == "elves"
    assert _said([event]) == ["orcs (Gorbash) plays an interstitial scene with elves"]


def test_in_a_two_player_faction_the_conflicts_player_makes_no_building_roll() -> None:
    """Step Seven: in a two-player faction one player makes the building rolls, the other runs
    the conflict scene. Amy ran the elves' conflict: her building scene is refused; Ann makes
    two building rolls."""
    data = setup(players=6)
    data["factions"]["elves"]["players"] = ["ann", "amy"]
    data["factions"]["elves"]["assessed"] = ["orcs"]
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = sealed(table)
    table = act(table, "elves", "scene", kind="conflict", target="orcs", player="amy")
    with pytest.raises(RuleError, match="the other player plays its building scene"):
        act(table, "elves", "scene", [4] * 5, kind="building", skill="Tactics", player="amy")
    for _ in range(2):
        table = act(
            table, "elves", "scene", [4] * 5, kind="building", skill="Tactics", player="ann"
        )
    assert [s.player for s in table.state.scenes] == ["amy", "ann", "ann"]


def test_a_harry_rolls_its_defence_and_attack_dice_apart_as_every_seat_sees() -> None:
    """Harry: the dice split between defence and attack, each part rolled on its own and
    carded under the maneuver's resolution. The dwarves (Infiltrated into the elves: the
    advantage, +1D, is used against them) Harry the elves with Law B5, 6 dice, 2 to defence:
    6, 1 and then 4, 4, 1, 1 — 1 success of defence, an attack of 2. The elves' Fortify rolls
    4, 1, 1, 1."""
    sheet = {"lifepaths": 10, "stats": {"Will": "B4"}}
    table = Table.start(
        PROCEDURE,
        {
            "factions": {
                "elves": {"disposition": 10, "leader": {**sheet, "skills": {"Logistics": "B4"}}},
                "dwarves": {
                    "disposition": 12,
                    "infiltrated": {"elves": 1},
                    "leader": {**sheet, "name": "Durin", "skills": {"Law": "B5"}},
                },
            }
        },
    )
    table = act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = act(
        table, "dwarves", "write_slip", maneuver="Harry", skill="Law", defence=2, target="elves"
    )
    table = act(all_pass(table), "elves", "reveal", [4, 1, 1, 1, 6, 1, 4, 4, 1, 1])
    elves, dwarves = _rolled(table, "elves"), _rolled(table, "dwarves")
    assert [(c["label"], c["rule"], c["dice"]) for c in dwarves.pop("rolls")] == [
        ("dwarves: Harry with Law: defence dice", "Maneuver Resolution", "2d6"),
        ("dwarves: Harry with Law: attack dice", "Maneuver Resolution", "4d6"),
    ]
    assert dwarves == {
        "faction": "dwarves",
        "roller": "leader",
        "character": "Durin",
        "maneuver": "Harry",
        "skill": "Law",
        "exponent": 5,
        "pool": {
            "exponent": 5,
            "shade": "B",
            "forks": 0,
            "helping": 0,
            "bonus": 1,
            "penalty": 0,
            "open_ended": False,
        },
        "dice": 6,
        "notes": ["+1D advantage from Infiltrating"],
        "artha": {"persona": 0, "deeds": 0},
        "advantage_used": ["elves"],
        "successes": 1,
        "attack": 2,
        "pool_roll": {
            "dice": 2,
            "shade": "B",
            "open_ended": False,
            "successes": 1,
            "stages": {"pool": [6, 1]},
        },
        "attack_pool_roll": {
            "dice": 4,
            "shade": "B",
            "open_ended": False,
            "successes": 2,
            "stages": {"pool": [4, 4, 1, 1]},
        },
        "defence_dice": 2,
        "attack_dice": 4,
    }
    card = elves.pop("roll")
    assert (card["label"], card["rule"], card["dice"]) == (
        "elves: Fortify with Logistics",
        "Maneuver Resolution",
        "4d6",
    )
    assert (elves["successes"], elves["advantage_used"], elves["pool_roll"]["dice"]) == (1, [], 4)
    assert {f: (t.successes, t.attack) for f, t in table.state.rolls.items()} == {
        "elves": (1, 0),
        "dwarves": (1, 2),
    }


def test_the_reveal_odds_meet_a_harrys_defence_and_attack_dice_as_rolled() -> None:
    """Harry: its defence dice meet the maneuvers against it, its attack dice the one it
    targets; the odds at the reveal count the dice each part rolled (the advantage's +1D is
    in the roll, not added again). The elves Assault the dwarves (no advantage over them) with
    Tactics B4; the dwarves Harry the elves with 6 dice, 2 to defence: the elves' 4 dice
    meet those 2, and the Harry's 4 attack dice are tested against the Assault on their own
    (an independent test: no opposing dice)."""
    sheet = {"lifepaths": 10, "stats": {"Will": "B4"}}
    table = Table.start(
        PROCEDURE,
        {
            "factions": {
                "elves": {
                    "disposition": 10,
                    "assessed": ["dwarves"],
                    "leader": {**sheet, "skills": {"Tactics": "B4"}},
                },
                "dwarves": {
                    "disposition": 12,
                    "infiltrated": {"elves": 1},
                    "leader": {**sheet, "name": "Durin", "skills": {"Law": "B5"}},
                },
            }
        },
    )
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="dwarves")
    table = act(
        table, "dwarves", "write_slip", maneuver="Harry", skill="Law", defence=2, target="elves"
    )
    table = act(table, "elves", "scene", kind="conflict", target="dwarves")
    table = act(all_pass(table), "elves", "reveal", [4, 1, 1, 1, 6, 1, 4, 4, 1, 1])
    revealed = next(e for e in table.log if e.kind == "slips.revealed")
    rows: Any = revealed.payload["odds"]
    assert {(r["attacker"], r["target"]): (r["dice"], r.get("against_dice")) for r in rows} == {
        ("elves", "dwarves"): (4, 2),
        ("dwarves", "elves"): (4, None),
    }
    assault = next(r for r in rows if r["attacker"] == "elves")
    assert assault["chance"] == {"no artha": str(versus_odds(BurningPool(4), BurningPool(2)))}
    assert _rolled(table, "elves")["advantage_used"] == []


def test_the_reveal_odds_count_a_fork_die_and_a_wound_once() -> None:
    """FoRKs add dice to the maneuver's roll, wounds take dice off it; the odds at the reveal
    count the dice rolled, each FoRK and wound once. The elves Assault the dwarves with
    Tactics B4 and a FoRK of Strategy (5 dice); Durin (1 wound die) Harries them with Law B5,
    a FoRK of Tactics and the +1D advantage (6 dice), 2 to defence: the Assault's 5 dice meet
    those 2."""
    sheet = {"lifepaths": 10, "stats": {"Will": "B4"}}
    table = Table.start(
        PROCEDURE,
        {
            "factions": {
                "elves": {
                    "disposition": 10,
                    "assessed": ["dwarves"],
                    "leader": {**sheet, "skills": {"Tactics": "B4", "Strategy": "B4"}},
                },
                "dwarves": {
                    "disposition": 12,
                    "infiltrated": {"elves": 1},
                    "leader": {
                        **sheet,
                        "name": "Durin",
                        "skills": {"Law": "B5", "Tactics": "B4"},
                        "wound_dice": 1,
                    },
                },
            }
        },
    )
    table = act(
        table,
        "elves",
        "write_slip",
        maneuver="Assault",
        skill="Tactics",
        target="dwarves",
        forks=["Strategy"],
    )
    table = act(
        table,
        "dwarves",
        "write_slip",
        maneuver="Harry",
        skill="Law",
        defence=2,
        target="elves",
        forks=["Tactics"],
    )
    table = act(table, "elves", "scene", kind="conflict", target="dwarves")
    table = act(all_pass(table), "elves", "reveal", [4, 1, 1, 1, 1, 6, 1, 4, 4, 1, 1])
    assert (_rolled(table, "elves")["dice"], _rolled(table, "dwarves")["dice"]) == (5, 6)
    rows: Any = next(e for e in table.log if e.kind == "slips.revealed").payload["odds"]
    assault = next(r for r in rows if r["attacker"] == "elves")
    assert (assault["dice"], assault["against_dice"]) == (5, 2)
    assert assault["chance"] == {"no artha": str(versus_odds(BurningPool(5), BurningPool(2)))}

"""Tests that kill the mutants mutmut left alive in round 6 of issue 13 (docs/systems/kingdoms.md,
"Mutation testing", "Round 6, part D: `events.py`"): the log line a player reads for each kind of
event — which faction, which number, which verb — and that a sealed slip stays sealed in it."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Event, Secret, Viewer, only
from referee.systems.kingdoms import events as E

NARRATION: list[tuple[str, dict[str, Any], str]] = [
    (
        E.CHRONICLE_BEGAN,
        {
            "territory": "the Marches",
            "factions": {
                "orcs": {"leader": "Grol", "disposition": 5},
                "elves": {"leader": "Ael", "disposition": 4},
            },
        },
        "The chronicle of the Marches begins: orcs (led by Grol, disposition 5); "
        "elves (led by Ael, disposition 4)",
    ),
    (
        E.CHRONICLE_BEGAN,
        {"territory": "", "factions": {"orcs": {"leader": "Grol", "disposition": 3}}},
        "The chronicle of the territory begins: orcs (led by Grol, disposition 3)",
    ),
    (
        E.PROLOGUE_ROLLED,
        {"faction": "orcs", "skill": "Command", "successes": 1},
        "orcs tests Command for its prologue: 1 success added to disposition",
    ),
    (
        E.PROLOGUE_ROLLED,
        {"faction": "elves", "skill": "Oratory", "successes": 3},
        "elves tests Oratory for its prologue: 3 successes added to disposition",
    ),
    (
        E.PROLOGUE_ROLLED,
        {"faction": "elves", "skill": "Oratory", "successes": 0},
        "elves tests Oratory for its prologue: 0 successes added to disposition",
    ),
    (
        E.PROLOGUE_ENDED,
        {"narration_order": ["elves", "orcs"], "cap": 7},
        "The prologue is over: narration order elves, orcs; no disposition rises above 7",
    ),
    (
        E.PROLOGUE_ENDED,
        {"narration_order": [], "cap": 2},
        "The prologue is over: narration order nobody; no disposition rises above 2",
    ),
    (
        E.SESSION_STARTED,
        {"session": 2, "maneuver_number": 4},
        "Session 2 begins (maneuver 4)",
    ),
    (
        E.OBJECTIVE_SET,
        {"faction": "orcs", "objective": "Burn the forest"},
        "orcs' Chronicle Objective: Burn the forest",
    ),
    (
        E.SLIP_WRITTEN,
        {"faction": "orcs", "maneuver_number": 1, "rewritten": False},
        "orcs seals its maneuver slip (sealed until the reveal)",
    ),
    (
        E.SLIP_WRITTEN,
        {"faction": "orcs", "maneuver_number": 1, "rewritten": True},
        "orcs rewrites its maneuver slip (sealed until the reveal)",
    ),
    (
        E.SLIP_WRITTEN,
        {
            "faction": "orcs",
            "maneuver_number": 1,
            "rewritten": False,
            "slip": {"maneuver": "Sap", "skill": "Firebombs", "targets": ["elves", "dwarves"]},
        },
        "orcs seals its maneuver slip: Sap with Firebombs against elves and dwarves",
    ),
    (
        E.SLIP_WRITTEN,
        {
            "faction": "elves",
            "maneuver_number": 2,
            "rewritten": True,
            "slip": {"maneuver": "Fortify", "skill": "Fortifications", "targets": []},
        },
        "elves rewrites its maneuver slip: Fortify with Fortifications",
    ),
    (
        E.SCENE_PLAYED,
        {
            "faction": "orcs",
            "character": "Grol",
            "kind": "building",
            "skill": "Forge",
            "ob": 3,
            "passed": True,
        },
        "orcs (Grol) plays a building scene: Forge against Ob 3 passes",
    ),
    (
        E.SCENE_PLAYED,
        {
            "faction": "orcs",
            "character": "Grol",
            "kind": "building",
            "skill": "Forge",
            "ob": 4,
            "passed": False,
        },
        "orcs (Grol) plays a building scene: Forge against Ob 4 fails",
    ),
    (
        E.SCENE_PLAYED,
        {
            "faction": "orcs",
            "character": "Grol",
            "kind": "conflict",
            "target": "elves",
            "outcome": "Grol takes the bridge",
            "wounds": {"Ael": "Mortal", "Bri": "Light"},
        },
        "orcs (Grol) directs a conflict scene at elves: Grol takes the bridge; "
        "wounds: Ael Mortal, Bri Light",
    ),
    (
        E.SCENE_PLAYED,
        {"faction": "orcs", "character": "Grol", "kind": "conflict", "target": "elves"},
        "orcs (Grol) directs a conflict scene at elves",
    ),
    (
        E.SCENE_PLAYED,
        {"faction": "orcs", "character": "Grol", "kind": "interstitial", "with": "elves"},
        "orcs (Grol) plays an interstitial scene with elves",
    ),
    (
        E.SCENE_PLAYED,
        {"faction": "orcs", "character": "Grol", "kind": "interstitial", "with": None},
        "orcs (Grol) plays an interstitial scene",
    ),
    (
        E.SCENE_PLAYED,
        {"faction": "orcs", "character": "Grol", "kind": "color"},
        "orcs (Grol) plays a color scene",
    ),
    (
        E.SCENES_PASSED,
        {"faction": "orcs", "spent": True},
        "orcs has spent its scenes this maneuver",
    ),
    (
        E.SCENES_PASSED,
        {"faction": "elves", "spent": False},
        "elves passes its remaining scenes",
    ),
    (
        E.HEALTH_TESTED,
        {"faction": "orcs", "character": "Grol", "ob": 2, "passed": True},
        "orcs' Grol tests Health against Ob 2 and recovers 1D",
    ),
    (
        E.HEALTH_TESTED,
        {"faction": "orcs", "character": "Grol", "ob": 3, "passed": False},
        "orcs' Grol tests Health against Ob 3 and does not recover",
    ),
    (
        E.SLIPS_REVEALED,
        {
            "maneuver_number": 1,
            "reader": "elves",
            "order": ["elves", "orcs"],
            "slips": {
                "orcs": {
                    "maneuver": "Assault",
                    "skill": "Command",
                    "targets": ["elves", "dwarves"],
                },
                "elves": {"maneuver": "Fortify", "skill": "Fortifications", "targets": []},
            },
            "void": {"dwarves": "its leader cannot act"},
            "odds": [
                {
                    "attacker": "orcs",
                    "target": "elves",
                    "kind": "versus",
                    "cell": "B",
                    "chance": {"orcs": "60%", "elves": "30%"},
                },
                {
                    "attacker": "elves",
                    "target": None,
                    "kind": "independent",
                    "cell": "-",
                    "chance": {"pass": "50%"},
                },
            ],
        },
        "Slips revealed, read by elves; seat order elves, orcs\n"
        "  orcs: Assault with Command → elves and dwarves\n"
        "  elves: Fortify with Fortifications → -\n"
        "  dwarves' maneuver is void: its leader cannot act\n"
        "  odds orcs → elves (versus, cell B): orcs: 60%, elves: 30%\n"
        "  odds elves → itself (independent, cell -): pass: 50%",
    ),
    (
        E.SLIPS_REVEALED,
        {"maneuver_number": 1, "reader": "orcs", "order": []},
        "Slips revealed, read by orcs; seat order nobody",
    ),
    (
        E.EFFECT_APPLIED,
        {
            "faction": "elves",
            "kind": "disposition",
            "by": "orcs",
            "amount": -2,
            "value": 3,
            "target": "elves",
            "text": "orcs' Assault: elves loses 2 disposition (3)",
        },
        "orcs' Assault: elves loses 2 disposition (3)",
    ),
    (E.EFFECT_APPLIED, {"faction": "elves"}, ""),
    (
        E.TEST_ROLLED,
        {
            "faction": "orcs",
            "maneuver": "Assault",
            "skill": "Command",
            "dice": 5,
            "notes": ["+1D help from dwarves", "Ob +1"],
            "successes": 3,
        },
        "orcs: Assault with Command, 5D (+1D help from dwarves; Ob +1): 3 successes",
    ),
    (
        E.TEST_ROLLED,
        {
            "faction": "elves",
            "maneuver": "Harry",
            "skill": "Riding",
            "dice": 4,
            "notes": [],
            "successes": 1,
            "attack": 2,
            "attack_pool_roll": {"dice": 2},
        },
        "elves: Harry with Riding, 4D: 1 success, attack 2",
    ),
    (
        E.ARTHA_SPENT,
        {"faction": "orcs", "fate": True, "deeds": False, "pool": "maneuver", "successes": 4},
        "orcs spends Fate after the roll: 4 successes",
    ),
    (
        E.ARTHA_SPENT,
        {"faction": "orcs", "fate": False, "deeds": True, "pool": "maneuver", "successes": 1},
        "orcs spends Deeds after the roll: 1 success",
    ),
    (
        E.ARTHA_SPENT,
        {
            "faction": "elves",
            "fate": True,
            "deeds": True,
            "pool": "attack",
            "successes": 3,
            "attack": 1,
        },
        "elves spends Fate and Deeds after the roll: 1 success",
    ),
    (
        E.ARTHA_SPENT,
        {
            "faction": "elves",
            "fate": True,
            "deeds": False,
            "pool": "defence",
            "successes": 2,
            "attack": 5,
        },
        "elves spends Fate after the roll: 2 successes",
    ),
    (E.ROLL_KEPT, {"faction": "orcs"}, "orcs keeps its roll"),
    (
        E.TIE_BREAK_OFFERED,
        {"faction": "orcs", "opponent": "elves", "root": "Will"},
        "orcs agrees to break the tie with elves on Will",
    ),
    (
        E.TIE_BREAK_ROLLED,
        {"factions": ["orcs", "elves"], "extra": {"orcs": 2, "elves": 0}},
        "Tie-breaker between orcs and elves: orcs +2, elves +0",
    ),
    (
        E.MANEUVER_RESOLVED,
        {
            "maneuver_number": 3,
            "narrator": "orcs",
            "dispositions": {"orcs": 6, "elves": 0},
            "out": ["elves"],
        },
        "Maneuver 3 resolved in seat order — the narrator is orcs (most successes); "
        "dispositions: orcs 6, elves 0; out: elves",
    ),
    (
        E.MANEUVER_RESOLVED,
        {
            "maneuver_number": 2,
            "narrator": "elves",
            "dispositions": {"orcs": 4, "elves": 5},
            "out": [],
        },
        "Maneuver 2 resolved in seat order — the narrator is elves (most successes); "
        "dispositions: orcs 4, elves 5",
    ),
    (
        E.MANEUVER_RESOLVED,
        {"maneuver_number": 5, "narrator": None, "dispositions": {"orcs": 4}, "out": []},
        "Maneuver 5 resolved in seat order — no faction acted; dispositions: orcs 4",
    ),
    (
        E.CONQUEROR_NAMED,
        {"defeated": "elves", "conqueror": "orcs", "why": "most successes against it"},
        "orcs conquers elves (most successes against it)",
    ),
    (E.CHRONICLE_WON, {"faction": "orcs"}, "orcs stands alone and wins the chronicle"),
    (
        E.CHRONICLE_ENDED,
        {"winner": None},
        "Nobody is left standing: the chronicle ends unwon",
    ),
    (
        E.MANEUVER_ENDED,
        {"maneuver_number": 3, "pending_conquest": {"elves": ["orcs", "dwarves"]}},
        "Maneuver 3 ends; a conqueror is still to be chosen for elves",
    ),
    (E.MANEUVER_ENDED, {"maneuver_number": 3, "pending_conquest": {}}, "Maneuver 3 ends"),
    (
        E.LEADER_JOINED,
        {"defeated": "elves", "leader": "Ael", "faction": "orcs", "conqueror": "orcs"},
        "Ael of the defeated elves joins orcs",
    ),
    (
        E.LEADER_JOINED,
        {
            "defeated": "elves",
            "leader": "Ael",
            "faction": "dwarves",
            "conqueror": "orcs",
            "resources_lost": 2,
            "affiliation_lost": "Silver Court",
            "affiliation_dice": 1,
            "cash_on_hand_to": "orcs",
        },
        "Ael of the defeated elves joins dwarves, losing 2 Resources (Cash on Hand to orcs) "
        "and the affiliation Silver Court",
    ),
    (
        E.AFFILIATION_BOUGHT,
        {
            "faction": "orcs",
            "from": "elves",
            "affiliation": "Silver Court",
            "dice": 1,
            "cash_spent": 2,
        },
        "orcs spends 2 Cash on Hand on elves' lost affiliation Silver Court (1D)",
    ),
    (
        E.MAINTENANCE_TESTED,
        {"faction": "orcs", "ob": 2, "passed": True, "tax": 0, "resources": 5},
        "orcs makes a Resources maintenance test against Ob 2 and passes; Resources 5",
    ),
    (
        E.MAINTENANCE_TESTED,
        {"faction": "elves", "ob": 3, "passed": False, "tax": 1, "resources": 4},
        "elves makes a Resources maintenance test against Ob 3 and fails: taxed 1; Resources 4",
    ),
    (
        E.MANEUVER_STARTED,
        {"maneuver_number": 4, "healed": ["Grol", "Ael"]},
        "Maneuver 4 begins; downtime heals Grol, Ael",
    ),
    (E.MANEUVER_STARTED, {"maneuver_number": 4, "healed": []}, "Maneuver 4 begins"),
    ("other.kind", {"a": 1, "b": "x"}, "other.kind: a=1, b='x'"),
    ("other.kind", {}, "other.kind"),
]


@pytest.mark.parametrize(
    ("kind", "data", "text"), NARRATION, ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(NARRATION)]
)
def test_each_logged_event_reads_as_the_table_would_say_it(
    kind: str, data: dict[str, Any], text: str
) -> None:
    """The log line a player reads for each kind of event: which faction, which number, which
    verb, the verdict of each roll."""
    assert E.describe(Event(kind, data), Viewer("orcs")) == text


def test_every_kind_a_chronicle_logs_has_its_own_words() -> None:
    """No kind of the vocabulary falls through to the raw fallback, and each is told here."""
    told = {kind for kind, _, _ in NARRATION}
    assert set(E.KINDS) <= told
    for kind in E.KINDS:
        data = next(d for k, d, _ in NARRATION if k == kind)
        assert not E.describe(Event(kind, data), Viewer("orcs")).startswith(f"{kind}:")


def test_a_sealed_slip_is_told_to_its_writer_and_stays_sealed_for_every_other_seat() -> None:
    """ "Maneuver slips" are secret until the reveal: the writer reads its own maneuver, every
    other seat only that a slip was sealed (or rewritten)."""
    slip = Event(
        E.SLIP_WRITTEN,
        {"faction": "orcs", "maneuver_number": 1, "rewritten": True},
        secrets=(
            Secret(
                "slip",
                {"maneuver": "Assault", "skill": "Command", "targets": ["elves"]},
                only("orcs"),
            ),
        ),
    )
    seen_by_writer, seen_by_other = slip.seen_by(Viewer("orcs")), slip.seen_by(Viewer("elves"))
    assert seen_by_writer is not None and seen_by_other is not None
    mine = E.describe(seen_by_writer, Viewer("orcs"))
    theirs = E.describe(seen_by_other, Viewer("elves"))
    assert mine == "orcs rewrites its maneuver slip: Assault with Command against elves"
    assert theirs == "orcs rewrites its maneuver slip (sealed until the reveal)"
    assert "Assault" not in theirs and "Command" not in theirs


def test_an_interstitial_scene_between_two_of_one_factions_characters_reads_as_one() -> None:
    """Scene Economy: "an interstitial ... focuses on interaction between two characters" — they
    may both be of the faction playing it, so no other faction is named; the log still reads
    "an interstitial scene", with no partner and no article error."""
    from referee.systems.kingdoms import PROCEDURE

    from .test_procedure import act, sealed, start

    table = act(sealed(start()), "orcs", "scene", kind="interstitial")
    event = table.log.events[-1]
    assert event.kind == E.SCENE_PLAYED and event.payload.get("with") is None
    leader = table.state.factions["orcs"].leader.name
    assert PROCEDURE.describe(event, Viewer("elves")) == (
        f"orcs ({leader}) plays an interstitial scene"
    )

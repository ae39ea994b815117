"""The log in words (issue 26): a faction is named as the set-up names it ("the Elves"), its id
as given where it has no name, and a possessive reads "the Elves'" and "Mordor's", never
"elves's"."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, Event, Table, Viewer, view
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms import events as E

SETUP: dict[str, Any] = {
    "territory": "the Greenway",
    "strict_sheets": False,  # quick play: no 2iC or rivals needed here
    "factions": {
        "elves": {
            "name": "the Elves",
            "disposition": 10,
            "leader": {"name": "Aeluin", "stats": {"Will": "B4"}, "skills": {"Logistics": "B4"}},
        },
        "orcs": {
            "disposition": 12,
            "leader": {
                "name": "Gorbash",
                "stats": {"Will": "B3"},
                "skills": {"Inconspicuous": "B5", "Logistics": "B3"},
            },
        },
    },
}


def _act(
    table: Table[Any], actor: str, kind: str, dice: tuple[int, ...] = (), **params: Any
) -> Any:
    return table.act(Action(actor, kind, params), ScriptedSource(dice))


def _words(table: Table[Any], viewer: str = "referee") -> list[str]:
    return [PROCEDURE.describe(e, Viewer(viewer)) for e in view(table.log, viewer)]


def test_the_chronicle_begins_with_each_factions_name() -> None:
    """A faction is named by its set-up's ``name``, else as the text names factions: ``orcs``
    is "the Orcs" (Rulings: "Names in the log"); a quick table says what it plays without."""
    table = Table.start(PROCEDURE, SETUP)
    assert _words(table)[0] == (
        "The chronicle of the Greenway begins: the Elves (led by Aeluin, disposition 10); "
        "the Orcs (led by Gorbash, disposition 12). Quick play (strict_sheets: false): the "
        "Seconds in Command and rival relationships the text requires are not enforced — "
        "the Elves: no Second in Command, 0 of 2 rival relationships; the Orcs: no Second "
        "in Command, 0 of 2 rival relationships"
    )


def test_a_sealed_slip_names_its_target_only_to_its_writer() -> None:
    table = Table.start(PROCEDURE, SETUP)
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="elves"
    )
    assert _words(table, "orcs")[-1] == (
        "The Orcs' maneuver slip is sealed: Infiltrate with Inconspicuous against the Elves"
    )
    assert _words(table, "elves")[-1] == (
        "The Orcs' maneuver slip is sealed (hidden until the reveal)"
    )
    assert _words(table, "elves")[-2] == (
        "The Elves' maneuver slip is sealed: Fortify with Logistics"
    )
    slip = [e for e in view(table.log, "elves") if e.kind == "slip.written"][-1]
    assert "the Elves" not in str(slip.to_json())  # the target's name stays sealed too


def test_effects_use_names_and_possessives() -> None:
    table = Table.start(PROCEDURE, SETUP)
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(table, "elves", "pass")
    table = _act(table, "orcs", "pass")
    table = _act(table, "elves", "reveal", (6, 6, 6, 6, 1, 1, 1))
    table = _act(table, "elves", "resolve")
    words = "\n".join(_words(table))
    assert "The Elves' Fortify adds" in words
    assert "elves's" not in words and "orcs's" not in words
    card = next(e for e in table.log if e.kind == "test.rolled").data["roll"]
    assert card["label"] == "the Elves' Fortify with Logistics"  # type: ignore[index]
    assert card["margin"] is None  # type: ignore[index]  # successes before the obstacle is known


NARRATION: list[tuple[str, dict[str, Any], str]] = [
    (
        E.CHRONICLE_BEGAN,
        {
            "territory": "the Marches",
            "strict_sheets": False,  # quick play: no 2iC or rivals needed here
            "factions": {
                "orcs": {"leader": "Grol", "disposition": 5},
                "elves": {"leader": "Ael", "disposition": 4},
            },
        },
        "The chronicle of the Marches begins: the Orcs (led by Grol, disposition 5); "
        "the Elves (led by Ael, disposition 4)",
    ),
    (
        E.CHRONICLE_BEGAN,
        {"territory": "", "factions": {"orcs": {"leader": "Grol", "disposition": 3}}},
        "The chronicle of the territory begins: the Orcs (led by Grol, disposition 3)",
    ),
    (
        E.CHRONICLE_BEGAN,
        {
            "territory": "the Marches",
            "factions": {"orcs": {"leader": "Grol", "disposition": 3}},
            "quick_play": [],
        },
        "The chronicle of the Marches begins: the Orcs (led by Grol, disposition 3). Quick "
        "play (strict_sheets: false): the Seconds in Command and rival relationships the text "
        "requires are not enforced — none is missing",
    ),
    (
        E.PROLOGUE_ROLLED,
        {"faction": "orcs", "skill": "Command", "successes": 1},
        "The Orcs' prologue: Command tested, 1 success added to disposition",
    ),
    (
        E.PROLOGUE_ROLLED,
        {"faction": "elves", "skill": "Oratory", "successes": 3},
        "The Elves' prologue: Oratory tested, 3 successes added to disposition",
    ),
    (
        E.PROLOGUE_ROLLED,
        {"faction": "elves", "skill": "Oratory", "successes": 0},
        "The Elves' prologue: Oratory tested, 0 successes added to disposition",
    ),
    (
        E.PROLOGUE_ENDED,
        {"narration_order": ["elves", "orcs"], "cap": 7},
        "The prologue is over: narration order the Elves, the Orcs; no disposition rises above 7",
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
        "The Orcs' Chronicle Objective: Burn the forest",
    ),
    (
        E.SLIP_WRITTEN,
        {"faction": "orcs", "maneuver_number": 1, "rewritten": False},
        "The Orcs' maneuver slip is sealed (hidden until the reveal)",
    ),
    (
        E.SLIP_WRITTEN,
        {"faction": "orcs", "maneuver_number": 1, "rewritten": True},
        "The Orcs' maneuver slip is rewritten (hidden until the reveal)",
    ),
    (
        E.SLIP_WRITTEN,
        {
            "faction": "orcs",
            "maneuver_number": 1,
            "rewritten": False,
            "slip": {"maneuver": "Sap", "skill": "Firebombs", "targets": ["elves", "dwarves"]},
        },
        "The Orcs' maneuver slip is sealed: Sap with Firebombs against the Elves and the Dwarves",
    ),
    (
        E.SLIP_WRITTEN,
        {
            "faction": "elves",
            "maneuver_number": 2,
            "rewritten": True,
            "slip": {"maneuver": "Fortify", "skill": "Fortifications", "targets": []},
        },
        "The Elves' maneuver slip is rewritten: Fortify with Fortifications",
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
        "Grol of the Orcs plays a building scene: Forge against Ob 3 passes",
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
        "Grol of the Orcs plays a building scene: Forge against Ob 4 fails",
    ),
    (
        E.SCENE_PLAYED,
        {
            "faction": "orcs",
            "character": "Grol",
            "kind": "conflict",
            "target": "elves",
            "outcome": "Grol takes the bridge",
            "wounds": {"elves.leader": "Mortal", "dwarves.second": "Light"},
        },
        "Grol of the Orcs directs a conflict scene at the Elves: Grol takes the bridge; "
        "wounds: the Elves' leader Mortal, the Dwarves' 2iC Light",
    ),
    (
        E.SCENE_PLAYED,
        {"faction": "orcs", "character": "Grol", "kind": "conflict", "target": "elves"},
        "Grol of the Orcs directs a conflict scene at the Elves",
    ),
    (
        E.SCENE_PLAYED,
        {"faction": "orcs", "character": "Grol", "kind": "interstitial", "with": "elves"},
        "Grol of the Orcs plays an interstitial scene with the Elves",
    ),
    (
        E.SCENE_PLAYED,
        {"faction": "orcs", "character": "Grol", "kind": "interstitial", "with": None},
        "Grol of the Orcs plays an interstitial scene",
    ),
    (
        E.SCENE_PLAYED,
        {"faction": "orcs", "character": "Grol", "kind": "color"},
        "Grol of the Orcs plays a color scene",
    ),
    (
        E.SCENES_PASSED,
        {"faction": "orcs", "spent": True},
        "Every scene of the Orcs is spent this maneuver",
    ),
    (
        E.SCENES_PASSED,
        {"faction": "elves", "spent": False},
        "The Elves' remaining scenes are passed",
    ),
    (
        E.HEALTH_TESTED,
        {"faction": "orcs", "character": "Grol", "ob": 2, "passed": True},
        "The Orcs' Grol tests Health against Ob 2 and recovers 1D",
    ),
    (
        E.HEALTH_TESTED,
        {"faction": "orcs", "character": "Grol", "ob": 3, "passed": False},
        "The Orcs' Grol tests Health against Ob 3 and does not recover",
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
                    "chance": {"no artha": "3/5", "Fate": "3/10"},
                },
                {
                    "attacker": "elves",
                    "target": None,
                    "kind": "independent",
                    "cell": "-",
                    "chance": {"no artha": "1/2"},
                },
            ],
        },
        "Slips revealed, read by the Elves; seat order the Elves, the Orcs\n"
        "  the Orcs' Assault with Command against the Elves and the Dwarves\n"
        "  the Elves' Fortify with Fortifications\n"
        "  the Dwarves' maneuver is void: its leader cannot act\n"
        "  chance that the Orcs' maneuver succeeds against the Elves (versus): "
        "no artha 60.0%, Fate 30.0%\n"
        "  chance that the Elves' maneuver succeeds (independent): no artha 50.0%",
    ),
    (
        E.SLIPS_REVEALED,
        {"maneuver_number": 1, "reader": "orcs", "order": []},
        "Slips revealed, read by the Orcs; seat order nobody",
    ),
    (
        E.SLIPS_REVEALED,
        {
            "maneuver_number": 1,
            "reader": "orcs",
            "order": ["orcs"],
            # a chance that is no fraction (a hand-written record's) is written as it stands
            "odds": [
                {"attacker": "orcs", "kind": "independent", "chance": {"a": "1/0", "b": "even"}}
            ],
        },
        "Slips revealed, read by the Orcs; seat order the Orcs\n"
        "  chance that the Orcs' maneuver succeeds (independent): a 1/0, b even",
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
            "text": "the Orcs' Assault takes 2 disposition from the Elves (margin)",
        },
        "The Orcs' Assault takes 2 disposition from the Elves (margin)",
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
        "The Orcs' Assault with Command, 5D (+1D help from dwarves; Ob +1): 3 successes",
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
        "The Elves' Harry with Riding, 4D: 1 success, attack 2",
    ),
    (
        E.ARTHA_SPENT,
        {"faction": "orcs", "fate": True, "deeds": False, "pool": "maneuver", "successes": 4},
        "Fate spent on the Orcs' roll: 4 successes",
    ),
    (
        E.ARTHA_SPENT,
        {"faction": "orcs", "fate": False, "deeds": True, "pool": "maneuver", "successes": 1},
        "Deeds spent on the Orcs' roll: 1 success",
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
        "Fate and Deeds spent on the Elves' roll: 1 success",
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
        "Fate spent on the Elves' roll: 2 successes",
    ),
    (E.ROLL_KEPT, {"faction": "orcs"}, "The Orcs' roll is kept as it stands"),
    (
        E.TIE_BREAK_OFFERED,
        {"faction": "orcs", "opponent": "elves", "root": "Will"},
        "A tie-breaker with the Elves on Will: agreed by the Orcs",
    ),
    (
        E.TIE_BREAK_ROLLED,
        {"factions": ["orcs", "elves"], "extra": {"orcs": 2, "elves": 0}},
        "Tie-breaker between the Orcs and the Elves: the Orcs +2, the Elves +0",
    ),
    (
        E.MANEUVER_RESOLVED,
        {
            "maneuver_number": 3,
            "narrator": "orcs",
            "dispositions": {"orcs": 6, "elves": 0},
            "out": ["elves"],
        },
        "Maneuver 3 resolved in seat order — the narrator is the Orcs (most successes); "
        "dispositions: the Orcs 6, the Elves 0; out: the Elves",
    ),
    (
        E.MANEUVER_RESOLVED,
        {
            "maneuver_number": 2,
            "narrator": "elves",
            "dispositions": {"orcs": 4, "elves": 5},
            "out": [],
        },
        "Maneuver 2 resolved in seat order — the narrator is the Elves (most successes); "
        "dispositions: the Orcs 4, the Elves 5",
    ),
    (
        E.MANEUVER_RESOLVED,
        {"maneuver_number": 5, "narrator": None, "dispositions": {"orcs": 4}, "out": []},
        "Maneuver 5 resolved in seat order — no faction acted; dispositions: the Orcs 4",
    ),
    (
        E.CONQUEROR_NAMED,
        {"defeated": "elves", "conqueror": "orcs", "why": "most successes against it"},
        "The conqueror of the Elves: the Orcs (most successes against it)",
    ),
    (
        E.CHRONICLE_WON,
        {"faction": "orcs"},
        "The chronicle is won by the Orcs, the last faction standing",
    ),
    (
        E.CHRONICLE_ENDED,
        {"winner": None},
        "Nobody is left standing: the chronicle ends unwon",
    ),
    (
        E.MANEUVER_ENDED,
        {"maneuver_number": 3, "pending_conquest": {"elves": ["orcs", "dwarves"]}},
        "Maneuver 3 ends; a conqueror is still to be chosen for the Elves",
    ),
    (E.MANEUVER_ENDED, {"maneuver_number": 3, "pending_conquest": {}}, "Maneuver 3 ends"),
    (
        E.LEADER_JOINED,
        {"defeated": "elves", "leader": "Ael", "faction": "orcs", "conqueror": "orcs"},
        "Ael of the Elves, defeated, joins the Orcs",
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
        "Ael of the Elves, defeated, joins the Dwarves, losing 2 Resources (Cash on Hand to "
        "the Orcs) and the affiliation Silver Court",
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
        "2 of the Orcs' Cash on Hand spent on the Elves' lost affiliation Silver Court (1D)",
    ),
    (
        E.MAINTENANCE_TESTED,
        {"faction": "orcs", "ob": 2, "passed": True, "tax": 0, "resources": 5},
        "The Orcs' Resources maintenance test against Ob 2 passes; Resources 5",
    ),
    (
        E.MAINTENANCE_TESTED,
        {"faction": "elves", "ob": 3, "passed": False, "tax": 1, "resources": 4},
        "The Elves' Resources maintenance test against Ob 3 fails: taxed 1; Resources 4",
    ),
    (
        E.MANEUVER_STARTED,
        {"maneuver_number": 4, "healed": ["orcs", "elves"]},
        "Maneuver 4 begins; downtime heals the Orcs, the Elves",
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

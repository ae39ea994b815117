"""Tests that kill the mutants of ``resolution.py`` mutmut left alive in round 4 (issue 13;
docs/systems/kingdoms.md, "Mutation testing", "Round 4, second wave"): the resolution each
seat receives in the ``maneuver.resolved`` event, and the text of each effect it lists."""

from __future__ import annotations

from referee.systems.kingdoms.resolution import Effect, Entry, resolve

from .test_resolution import board


def test_an_ensnare_resolution_as_every_seat_receives_it() -> None:
    """Ensnare: "In a successful versus test, the enemy's successes hurt their disposition and
    the ensnaring side must sacrifice disposition equal to the margin of success." a's Assault
    (3) meets b's Ensnare (5): a loses its own 3, b sacrifices the margin 2. The whole
    resolution, as the ``maneuver.resolved`` event carries it: each engagement with its margin,
    success and net successes, each effect with the text the seats read."""
    r = resolve(
        {"a": Entry("a", "Assault", ("b",), 3), "b": Entry("b", "Ensnare", ("a",), 5)}, board()
    )
    versus = {"cell": "V", "kind": "versus", "obstacle": None}
    assert r.to_json() == {
        "engagements": [
            {
                "attacker": "a",
                "target": "b",
                "maneuver": "Assault",
                **versus,
                "role": "attack",
                "successes": 3,
                "defence": 5,
                "margin": -2,
                "success": False,
                "net": 0,
            },
            {
                "attacker": "b",
                "target": "a",
                "maneuver": "Ensnare",
                **versus,
                "role": "ensnare",
                "successes": 5,
                "defence": 3,
                "margin": 2,
                "success": True,
                "net": 2,
            },
        ],
        "effects": [
            {
                "faction": "a",
                "kind": "disposition",
                "by": "b",
                "amount": -3,
                "value": 7,
                "target": None,
                "text": "b's Ensnare turns a's 3 successes against it",
            },
            {
                "faction": "b",
                "kind": "disposition",
                "by": "b",
                "amount": -2,
                "value": 8,
                "target": None,
                "text": "b sacrifices 2 disposition (the margin) to spring its Ensnare",
            },
        ],
        "dispositions": {"a": 7, "b": 8, "c": 10, "d": 10},
        "out": [],
        "conquerors": {},
        "narrator": "b",
        "sapped": {},
        "cannot_act": [],
        "attackers": {},
    }


def test_a_resolution_lists_the_faction_out_its_conqueror_and_its_attackers() -> None:
    """Conquest: a's Assault (independent against b's Assess) takes b's last 4: b is out, a its
    conqueror; the resolution's ``out``, ``conquerors`` and ``attackers`` say so; c's Sap (3,
    independent against d's Assess) takes 3 dice off d's next maneuver, in ``sapped``."""
    r = resolve(
        {
            "a": Entry("a", "Assault", ("b",), 4),
            "b": Entry("b", "Assess", ("c",), 1),
            "c": Entry("c", "Sap", ("d",), 3),
            "d": Entry("d", "Assess", ("a",), 0),
        },
        board(b=4),
    )
    got = r.to_json()
    assert (got["out"], got["conquerors"], got["attackers"]) == (
        ["b"],
        {"b": ["a"]},
        {"b": {"a": 4}},
    )
    assert got["sapped"] == {"d": 3}
    assert got["cannot_act"] == []


def test_an_onslaught_that_does_not_wipe_out_its_target_hesitates() -> None:
    """Onslaught: "If an Onslaught fails to completely deplete the targets disposition, the
    side performing the onslaught hesitates for the next maneuver and cannot act." a's 6 leave
    b at 4: a cannot act, and the effect says why."""
    r = resolve(
        {"a": Entry("a", "Onslaught", ("b",), 6), "b": Entry("b", "Assess", ("c",), 0)}, board()
    )
    assert r.effects[-1] == Effect(
        "a",
        "cannot_act",
        "a",
        "a's Onslaught did not wipe out b: it hesitates and cannot act next maneuver",
    )
    assert r.to_json()["cannot_act"] == ["a"]


def test_a_ploy_says_by_how_much_it_beats_each_target() -> None:
    """Ploy: "Any target you beat loses a number of disposition points equal to your margin of
    success": 5 against two Assessing targets (Ob 0) beats each by 5."""
    r = resolve(
        {
            "a": Entry("a", "Ploy", ("b", "c"), 5),
            "b": Entry("b", "Assess", ("c",), 0),
            "c": Entry("c", "Assess", ("d",), 0),
        },
        board(),
    )
    assert [(e.faction, e.amount, e.text) for e in r.effects] == [
        ("b", -5, "a's Ploy beats b by 5"),
        ("c", -5, "a's Ploy beats c by 5"),
    ]


def test_a_conserve_with_one_success_to_spare_buys_downtime() -> None:
    """Conserve: "If the successes from a conserve reduce all opposing actions to zero, the
    action is stopped. Extra successes can be allocated to increasing your disposition or
    generating downtime." b's Conserve (4) stops a's Assault (3) with one success to spare,
    which the slip puts into downtime: 3 months; the others owe one maintenance test each."""
    r = resolve(
        {"a": Entry("a", "Assault", ("b",), 3), "b": Entry("b", "Conserve", (), 4, downtime=1)},
        board(),
    )
    assert r.effects[0] == Effect(
        "b",
        "downtime",
        "b",
        "b's Conserve: 1 successes buy 3 months of downtime "
        "(successes beyond every opposing action)",
        amount=3,
    )
    assert [(e.faction, e.kind, e.value) for e in r.effects[1:]] == [
        ("a", "maintenance", 1),
        ("c", "maintenance", 1),
        ("d", "maintenance", 1),
    ]

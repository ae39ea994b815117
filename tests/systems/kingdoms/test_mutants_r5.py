"""Tests that kill the mutants mutmut left alive in round 5 of issue 13 (docs/systems/kingdoms.md,
"Mutation testing", "Round 5"): the rest of ``resolution.py``, then ``scripting.py``."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from referee.core import Table
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.resolution import Effect, Engagement, Entry, resolve

from .test_mutants import PLAYERS, _kingdom
from .test_mutants_fold import _act
from .test_resolution import board


def test_an_infiltrate_marks_its_target_with_the_margin_as_advantage() -> None:
    """Infiltrate: "you gain an advantage to your next maneuver against that opponent equal to
    your margin of success." a's 6 against b's base Circles 4 (independent: b Assaults c): a
    has Infiltrated b, +2D, and the effect says so to every seat."""
    r = resolve(
        {
            "a": Entry("a", "Infiltrate", ("b",), 6),
            "b": Entry("b", "Assault", ("c",), 1),
            "c": Entry("c", "Fortify", (), 0),
        },
        board(),
    )
    assert [e for e in r.effects if e.kind == "infiltrated"] == [
        Effect(
            "a",
            "infiltrated",
            "a",
            "a has Infiltrated b: +2D to its next maneuver against them",
            amount=2,
            target="b",
        )
    ]


def test_a_sap_takes_dice_costs_disposition_past_the_skill_and_buys_downtime() -> None:
    """Sap: "The margin of success is subtracted from the target's next maneuver" (independent:
    every success, RULINGS); past the target's skill the extra successes hurt its disposition;
    the Sapper earns one free maintenance cycle and the target owes a Resources maintenance
    test at +margin Ob. a's 3 against b's Assess of exponent 1 (Ob 1): 3D off b, 2 past its
    skill, margin 2. Every effect, as the seats read them."""
    r = resolve(
        {
            "a": Entry("a", "Sap", ("b",), 3),
            "b": Entry("b", "Assess", ("c",), 0, exponent=1),
        },
        board(),
    )
    assert r.effects == (
        Effect("b", "sapped", "a", "a's Sap takes 3D from b's next maneuver", amount=3),
        Effect("b", "disposition", "a", "a's Sap reduces b's skill (1) below 0: 2 damage", -2, 8),
        Effect("a", "downtime", "a", "a's Sap earns one free maintenance cycle", amount=3),
        Effect(
            "b",
            "maintenance",
            "a",
            "b must make a Resources maintenance test at +2 Ob",
            amount=2,
            value=1,
        ),
    )
    assert r.sapped == {"b": 3}


def test_an_unopposed_fortify_buys_downtime_then_disposition_and_an_assess_marks_it() -> None:
    """Fortify: "In an independent test when no other side is attacking, test vs. ob 2"; its
    spare successes go to downtime as the slip says, then disposition; "the rest of the players
    are required to make resource maintenance checks" ("Downtime"). Assess: a success marks the
    target Assessed. a Fortifies with 4 (margin 2: 1 to downtime, 3 months; 1 to disposition);
    b's Assess (independent against a Fortify, Ob 2) succeeds with 2. Every effect, in order."""
    r = resolve(
        {"a": Entry("a", "Fortify", (), 4, downtime=1), "b": Entry("b", "Assess", ("a",), 2)},
        board(),
    )
    why = "(margin against Ob 2, unopposed)"
    owed = "a bought 1 maintenance cycles of downtime: {} must make 1 Resources maintenance tests"
    assert r.effects == (
        Effect("a", "downtime", "a", f"a's Fortify: 1 successes buy 3 months of downtime {why}", 3),
        Effect("a", "disposition", "a", f"a's Fortify adds 1 disposition {why}", 1, 11),
        *(Effect(f, "maintenance", "a", owed.format(f), 0, 1) for f in "bcd"),
        Effect("b", "assessed", "b", "b has Assessed a", target="a"),
    )


def test_a_fortify_against_an_assault_adds_its_margin_over_the_attacker() -> None:
    """Fortify: versus, the disposition goes up by the smallest margin over every attacker.
    b's 4 against a's Assault of 2 (versus: the Assault fails): b adds 2, and says why."""
    r = resolve({"a": Entry("a", "Assault", ("b",), 2), "b": Entry("b", "Fortify", (), 4)}, board())
    assert r.effects == (
        Effect(
            "b",
            "disposition",
            "b",
            "b's Fortify adds 2 disposition (smallest margin over its attackers)",
            2,
            12,
        ),
    )


def test_net_successes_taken_say_whose_dice_took_them_and_how() -> None:
    """Net successes come off the target's disposition (Assault, Harry): versus, the margin;
    independent, every success; a Harry's are its attack dice's ("your attack margin of
    success"). a Harries b's Fortify (attack dice versus, 3 against 1: margin 2); c Assaults d,
    who Assesses (independent: all 3). Each effect says which dice took how much, and how."""
    r = resolve(
        {
            "a": Entry("a", "Harry", ("b",), 1, attack=3),
            "b": Entry("b", "Fortify", (), 1),
            "c": Entry("c", "Assault", ("d",), 3),
            "d": Entry("d", "Assess", ("c",), 0),
        },
        board(),
    )
    assert r.effects == (
        Effect(
            "b",
            "disposition",
            "a",
            "a's Harry attack dice take 2 disposition from b (margin)",
            -2,
            8,
        ),
        Effect(
            "d", "disposition", "c", "c's Assault takes 3 disposition from d (successes)", -3, 7
        ),
    )


def test_factions_out_of_contention_each_with_its_conqueror_or_none() -> None:
    """Ensnare's sacrifice and an Assault in one maneuver, seat a unable to act: b springs its
    Ensnare on c (5 against 3: c loses its 3, b sacrifices the margin 2 and, at 2, is out with
    no attacker); c's Assault takes d's last 3 (independent against an Assess): d is out, c its
    conqueror ("Consequences"). Each faction out is an effect by whoever put it there."""
    r = resolve(
        {
            "b": Entry("b", "Ensnare", ("c",), 5),
            "c": Entry("c", "Assault", ("d",), 3),
            "d": Entry("d", "Assess", ("a",), 0),
        },
        board(b=2, d=3),
    )
    assert [e for e in r.effects if e.kind == "out"] == [
        Effect("b", "out", "b", "b is reduced to 0 and out of contention"),
        Effect("d", "out", "c", "d is reduced to 0 and out of contention"),
    ]
    assert r.dispositions == {"a": 10, "b": 0, "c": 7, "d": 0}
    assert (r.out, r.conquerors) == (("b", "d"), {"b": (), "d": ("c",)})


def test_a_gain_past_the_cap_says_it_is_held_there() -> None:
    """A disposition "can never be increased beyond the highest starting disposition of all
    the factions": a, at the cap of 12, Fortifies unopposed with a margin of 1; it stays at 12
    and the effect says why."""
    r = resolve({"a": Entry("a", "Fortify", (), 3)}, board(a=12))
    assert r.effects == (
        Effect(
            "a",
            "disposition",
            "a",
            "a's Fortify adds 1 disposition (margin against Ob 2, unopposed) (held at the cap of "
            "12, the highest starting disposition)",
            0,
            12,
        ),
    )


def test_a_ploy_against_a_faction_that_cannot_act_counts_every_success() -> None:
    """RULINGS: a faction that cannot act is met independently, every success counting; it
    has no exponent for a Ploy to overcome. a's Ploy of 1 beats b, who cannot act, by 1."""
    r = resolve({"a": Entry("a", "Ploy", ("b",), 1)}, board())
    assert r.engagements[0].obstacle == 0
    assert r.dispositions["b"] == 9 and r.cannot_act == ()


def test_a_maneuver_in_which_nobody_acts_has_no_narrator() -> None:
    """Every faction unable to act: nothing happens, and nobody narrates."""
    r = resolve({}, board())
    assert (r.effects, r.narrator, r.dispositions["a"]) == ((), None, 10)


def test_every_engagement_against_a_faction_that_cannot_act_is_independent() -> None:
    """RULINGS: a faction that "cannot act" scripts no maneuver; "attacks against it are
    independent". b cannot act. a's Infiltrate meets it at its own independent Ob, b's base
    Circles (4); c's Ploy meets it with no exponent to overcome (Ob 0) and still meets its
    second target d (versus d's Assault: d's 2 successes); d's Assault on a is independent
    (the matrix's I). Every engagement, with the matrix cell read ("-": none)."""
    r = resolve(
        {
            "a": Entry("a", "Infiltrate", ("b",), 5),
            "c": Entry("c", "Ploy", ("b", "d"), 3),
            "d": Entry("d", "Assault", ("a",), 2, exponent=2),
        },
        board(),
    )
    assert r.engagements == (
        Engagement("a", "b", "Infiltrate", "-", "independent", 5, obstacle=4),
        Engagement("c", "b", "Ploy", "-", "independent", 3, obstacle=0),
        Engagement("c", "d", "Ploy", "V", "versus", 3, defence=2),
        Engagement("d", "a", "Assault", "I", "independent", 2, obstacle=0),
    )
    assert r.dispositions == {"a": 8, "b": 7, "c": 10, "d": 9}


def test_a_harry_and_an_ensnare_name_their_engagements_roles() -> None:
    """A Harry's attack dice meet its named target and every attacker ("harry"); an Ensnare
    meets its declared target as an "ensnare"; whichever the matrix says, versus or
    independent. a Harries b's Fortify (aV: its attack dice versus b's 1) and meets c's Ploy
    (Harry against Ploy: I); d Ensnares b (Ensnare against Fortify: I). Alone, a's Harry of b,
    who cannot act, is independent and still its attack dice's."""
    r = resolve(
        {
            "a": Entry("a", "Harry", ("b",), 1, attack=3),
            "b": Entry("b", "Fortify", (), 1),
            "c": Entry("c", "Ploy", ("a", "d"), 2),
            "d": Entry("d", "Ensnare", ("b",), 2),
        },
        board(),
    )
    assert [(e.attacker, e.target, e.cell, e.kind, e.role) for e in r.engagements] == [
        ("a", "b", "aV", "versus", "harry"),
        ("a", "c", "I", "independent", "harry"),
        ("c", "a", "I", "independent", "attack"),
        ("c", "d", "V", "versus", "attack"),
        ("d", "b", "I", "independent", "ensnare"),
    ]
    alone = resolve({"a": Entry("a", "Harry", ("b",), 1, attack=2)}, board())
    assert alone.engagements == (
        Engagement("a", "b", "Harry", "-", "independent", 2, obstacle=0, role="harry"),
    )


def test_a_health_test_rolls_the_characters_own_health_and_heals_one_wound() -> None:
    """Wound Recovery: a wounded character tests its Health (its shade, its exponent, open-ended
    if the sheet says so); a pass takes off one wound die, and a Superficial wound goes only
    once no wound die is left. Aeluin (Health G2 open-ended, 1 wound die, Superficial: Ob 2)
    rolls 6, 3 and the 6's extra die 6, then 1: 3 successes, the die goes, the Superficial
    wound stays. Thalion, the 2iC (Health B3, 1 wound die, no Superficial wound), passes and
    has no Superficial wound after."""
    second = {"name": "Thalion", "lifepaths": 5, "stats": {"Health": "B3"}, "wound_dice": 1}
    health = {"shade": "G", "exponent": 2, "open_ended": True}
    elves = _kingdom(
        {"second": second},
        stats={"Will": "B4", "Health": health},
        superficial=True,
        wound_dice=1,
    )
    table = Table.start(PROCEDURE, elves, players=PLAYERS)
    table = _act(table, "elves", "health_test", [6, 3, 6, 1], character="leader")
    tested: Any = table.log.events[-1].payload
    card = tested["roll"]
    assert tested == {
        "faction": "elves",
        "character": "leader",
        "ob": 2,
        "odds": card["odds"]["success"],
        "successes": 3,
        "passed": True,
        "wound_dice": 0,
        "superficial": True,
        "roll": card,
    }
    assert 0 < float(Fraction(tested["odds"])) < 1
    assert (card["label"], card["rule"], card["dice"]) == (
        "Aeluin tests Health",
        "Wound Recovery",
        "2d6 grey open-ended vs Ob 2",
    )
    assert (card["faces"], card["value"], card["outcome"]) == ([6, 6, 1, 3], 3, "success")
    table = _act(table, "elves", "health_test", [6, 6, 6], character="second")
    tested = table.log.events[-1].payload
    assert (tested["passed"], tested["wound_dice"], tested["superficial"]) == (True, 0, False)

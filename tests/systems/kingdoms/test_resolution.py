"""Maneuver resolution, maneuver by maneuver ("Conquest Maneuvers"; RULINGS.md)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.systems.kingdoms.resolution import (
    Board,
    Effect,
    Engagement,
    Entry,
    directed_targets,
    resolve,
)
from referee.systems.kingdoms.tables import MANEUVERS, maneuver, matrix

from .helpers import small_board

ORDER = ("a", "b", "c", "d")


def board(**dispo: int) -> Board:
    values = {"a": 10, "b": 10, "c": 10, "d": 10, **dispo}
    return Board(
        order=ORDER,
        disposition=values,
        cap=max(12, *values.values()),
        circles={"a": 3, "b": 4, "c": 2, "d": 3},
    )


def changes(result, faction):  # type: ignore[no-untyped-def]
    return [
        (e.by, e.amount) for e in result.effects if e.faction == faction and e.kind == "disposition"
    ]


def test_assault_independent_all_successes_count() -> None:
    """Assault: independent → net successes are all successes, off the target's disposition."""
    r = resolve(
        {"a": Entry("a", "Assault", ("b",), 4), "b": Entry("b", "Assess", ("c",), 1)}, board()
    )
    assert r.engagements[0].kind == "independent"
    assert r.dispositions["b"] == 6


def test_assault_versus_net_successes_defender_wins_ties() -> None:
    """Assault vs Fortify is versus: net = attacker − defender; a tie goes to the defender."""
    r = resolve({"a": Entry("a", "Assault", ("b",), 5), "b": Entry("b", "Fortify", (), 3)}, board())
    assert r.dispositions["b"] == 8
    tie = resolve(
        {"a": Entry("a", "Assault", ("b",), 3), "b": Entry("b", "Fortify", (), 3)}, board()
    )
    assert tie.dispositions["b"] == 10
    assert not tie.engagements[0].is_success


def test_mutual_versus_tie_fails_both() -> None:
    """Two maneuvers each versus the other: a tie is a stand-off (each is the other's defender)."""
    r = resolve(
        {
            "a": Entry("a", "Assault", ("b",), 3),
            "b": Entry("b", "Ploy", ("a", "c"), 3),
            "c": Entry("c", "Fortify", (), 0),
        },
        board(),
    )
    assert r.dispositions["b"] == 10 and r.dispositions["a"] == 10


def test_assess_ob_2_when_independent() -> None:
    """Assess: Ob 2 when scripted against an independent maneuver; success marks Assessed."""
    r = resolve({"a": Entry("a", "Assess", ("b",), 2), "b": Entry("b", "Fortify", (), 0)}, board())
    assert [(e.kind, e.target) for e in r.effects if e.kind == "assessed"] == [("assessed", "b")]
    r = resolve({"a": Entry("a", "Assess", ("b",), 1), "b": Entry("b", "Fortify", (), 0)}, board())
    assert not [e for e in r.effects if e.kind == "assessed"]


def test_assess_versus_must_win() -> None:
    """Assess against a Harry is versus the Harry's defence dice."""
    r = resolve(
        {"a": Entry("a", "Assess", ("b",), 2), "b": Entry("b", "Harry", (), 2, attack=0)}, board()
    )
    assert r.engagements[0].kind == "versus"
    assert not [e for e in r.effects if e.kind == "assessed"]


def test_conserve_stops_all_and_spends_extra() -> None:
    """Conserve: successes subtract from every versus action; if all are stopped, the extra
    (beyond the largest) goes to downtime as the slip says, then disposition."""
    entries = {
        "a": Entry("a", "Assault", ("c",), 2),
        "b": Entry("b", "Sap", ("c",), 3),
        "c": Entry("c", "Conserve", (), 6, exponent=4, downtime=1),
        "d": Entry("d", "Fortify", (), 0),
    }
    r = resolve(entries, board(c=5))
    assert r.dispositions["c"] == 7  # 3 spare: 1 to downtime, 2 to disposition
    assert [e.amount for e in r.effects if e.kind == "downtime"] == [3]
    owed = [(e.faction, e.value) for e in r.effects if e.kind == "maintenance"]
    assert owed == [("a", 1), ("b", 1), ("d", 1)]


def test_conserve_overrun_gives_nothing() -> None:
    """Conserve that fails to stop one attack gains nothing; the attack's net gets through."""
    r = resolve(
        {"a": Entry("a", "Assault", ("b",), 5), "b": Entry("b", "Conserve", (), 3)}, board()
    )
    assert r.dispositions["b"] == 8
    assert not [e for e in r.effects if e.kind == "downtime"]


def test_conserve_unattacked_is_not_rolled() -> None:
    """Conserve is rolled only against a versus maneuver: against Assess it does nothing."""
    r = resolve({"a": Entry("a", "Assess", ("b",), 2), "b": Entry("b", "Conserve", (), 5)}, board())
    assert r.dispositions["b"] == 10


def test_fortify_independent_ob_2() -> None:
    """Fortify unattacked: Ob 2, disposition up by the margin."""
    r = resolve({"a": Entry("a", "Fortify", (), 5)}, board())
    assert r.dispositions["a"] == 12  # margin 3, held at the cap 12


def test_fortify_smallest_margin_against_several() -> None:
    """Fortify against several attackers must overcome all and uses the smallest margin."""
    entries = {
        "a": Entry("a", "Assault", ("c",), 2),
        "b": Entry("b", "Infiltrate", ("c",), 4),
        "c": Entry("c", "Fortify", (), 6),
    }
    r = resolve(entries, board(c=5))
    assert r.dispositions["c"] == 7
    failed = resolve({**entries, "c": Entry("c", "Fortify", (), 4)}, board(c=5))
    assert failed.dispositions["c"] == 5


def test_fortify_buys_downtime_at_three_months_a_success() -> None:
    """Fortify may spend successes on downtime: 3 months each."""
    r = resolve({"a": Entry("a", "Fortify", (), 5, downtime=2)}, board())
    assert [e.amount for e in r.effects if e.kind == "downtime"] == [6]
    assert r.dispositions["a"] == 11


def test_gambit_independent_of_fortify() -> None:
    """Gambit: independent of Ensnare, Fortify and Harry: every success comes off."""
    r = resolve({"a": Entry("a", "Gambit", ("b",), 3), "b": Entry("b", "Fortify", (), 2)}, board())
    assert r.engagements[0].kind == "independent"
    assert r.dispositions["b"] == 7


def test_harry_defends_and_attacks_all_attackers() -> None:
    """Harry: defence dice reduce versus attackers (dV); attack dice go unopposed against every
    attacker (Assault, Assess, Infiltrate, Onslaught, Sap)."""
    entries = {
        "a": Entry("a", "Assault", ("c",), 3),
        "b": Entry("b", "Assess", ("c",), 2),
        "c": Entry("c", "Harry", (), 2, attack=2),
        "d": Entry("d", "Fortify", (), 0),
    }
    assert directed_targets(entries)["c"] == ("a", "b")
    r = resolve(entries, board())
    assert r.dispositions["c"] == 9  # 3 − 2 defence
    assert r.dispositions["a"] == 8 and r.dispositions["b"] == 8
    assert not [e for e in r.effects if e.kind == "assessed"]  # 2 does not beat 2


def test_harry_attack_versus_fortify_and_ensnare() -> None:
    """Harry's attack dice are countered by Fortify (aV); tested versus an Ensnare (aV)."""
    r = resolve(
        {"a": Entry("a", "Harry", ("b",), 2, attack=4), "b": Entry("b", "Fortify", (), 3)}, board()
    )
    assert r.engagements[0].kind == "versus" and r.engagements[0].defence == 3
    assert r.dispositions["b"] == 9


def test_harry_not_tested_against_gambit() -> None:
    """Harry's defence is not tested against a Gambit: its successes all land."""
    r = resolve(
        {"a": Entry("a", "Gambit", ("b",), 3), "b": Entry("b", "Harry", (), 5, attack=2)}, board()
    )
    assert r.dispositions["b"] == 7
    assert r.dispositions["a"] == 8  # the Harry's attack dice still go against the Gambit


def test_ensnare_turns_attackers_successes_against_them() -> None:
    """Ensnare: in a won versus test the enemy's successes hurt their own disposition and the
    ensnarer sacrifices the margin."""
    r = resolve(
        {"a": Entry("a", "Assault", ("b",), 3), "b": Entry("b", "Ensnare", ("a",), 5)}, board()
    )
    assert r.dispositions["a"] == 7
    assert r.dispositions["b"] == 8


def test_ensnare_against_another_is_only_defence() -> None:
    """Ensnare successes against a faction it did not declare only defend."""
    entries = {
        "a": Entry("a", "Assault", ("b",), 3),
        "b": Entry("b", "Ensnare", ("c",), 5),
        "c": Entry("c", "Fortify", (), 1),
    }
    r = resolve(entries, board())
    assert r.dispositions["a"] == 10 and r.dispositions["b"] == 10


def test_infiltrate_independent_against_circles() -> None:
    """Infiltrate: independent against the target's base Circles; advantage = margin."""
    r = resolve(
        {"a": Entry("a", "Infiltrate", ("b",), 6), "b": Entry("b", "Fortify", (), 9)}, board()
    )
    # Infiltrate vs Fortify is V in the matrix: against the Fortify's successes
    assert r.engagements[0].kind == "versus"
    r = resolve(
        {
            "a": Entry("a", "Infiltrate", ("b",), 6),
            "b": Entry("b", "Assault", ("c",), 1),
            "c": Entry("c", "Fortify", (), 0),
        },
        board(),
    )
    inf = [e for e in r.effects if e.kind == "infiltrated"]
    assert r.engagements[0].obstacle == 4 and inf[0].amount == 2


def test_onslaught_hesitates_unless_wiped_out() -> None:
    """Onslaught: if it does not deplete the target, the attacker cannot act next maneuver."""
    r = resolve(
        {"a": Entry("a", "Onslaught", ("b",), 6), "b": Entry("b", "Assess", ("c",), 0)}, board()
    )
    assert r.dispositions["b"] == 4 and r.cannot_act == ("a",)
    r = resolve(
        {"a": Entry("a", "Onslaught", ("b",), 10), "b": Entry("b", "Assess", ("c",), 0)}, board()
    )
    assert r.out == ("b",) and r.cannot_act == ()


def test_ploy_two_targets_and_failure() -> None:
    """Ploy: each target beaten loses the margin; damaging neither means no action next time."""
    entries = {
        "a": Entry("a", "Ploy", ("b", "c"), 5),
        "b": Entry("b", "Assault", ("c",), 3, exponent=4),
        "c": Entry("c", "Fortify", (), 1, exponent=5),
    }
    r = resolve(entries, board())
    assert r.dispositions["b"] == 8  # versus Assault: 5 − 3
    # Ploy vs Fortify is independent: 5 does not overcome the exponent 5; b's Assault nets 2
    assert changes(r, "c") == [("b", -2)]
    assert r.cannot_act == ()
    r = resolve({**entries, "a": Entry("a", "Ploy", ("b", "c"), 3)}, board())
    assert r.cannot_act == ("a",)


def test_sap_worked_example() -> None:
    """Sap (the example): 8 successes against Logistics B6 sap 8 dice and do 2 damage; the
    Orcs earn a free cycle; the Elves owe a maintenance test at +2 Ob."""
    r = resolve(
        {
            "a": Entry("a", "Sap", ("b",), 8),
            "b": Entry("b", "Assess", ("c",), 2, exponent=6),
            "c": Entry("c", "Fortify", (), 0),
        },
        board(),
    )
    assert r.sapped == {"b": 8}
    assert changes(r, "b") == [("a", -2)]
    assert [(e.faction, e.amount, e.value) for e in r.effects if e.kind == "maintenance"] == [
        ("b", 2, 1)
    ]


def test_sap_versus_saps_the_margin() -> None:
    """Sap in a versus test saps the margin of success."""
    r = resolve(
        {"a": Entry("a", "Sap", ("b",), 5), "b": Entry("b", "Fortify", (), 2, exponent=4)}, board()
    )
    assert r.sapped == {"b": 3} and changes(r, "b") == []


def test_against_a_faction_that_cannot_act_every_success_counts() -> None:
    """RULINGS: attacks on a faction that cannot act are independent, every success counting."""
    r = resolve({"a": Entry("a", "Assault", ("b",), 3)}, board())
    assert r.engagements[0].kind == "independent" and r.dispositions["b"] == 7


def test_seat_order_and_the_conqueror() -> None:
    """Effects apply in seat order from the reader; joint conquest goes to the attacker with
    more successes, a tie is left to the defeated player."""
    entries = {
        "a": Entry("a", "Assault", ("c",), 6),
        "b": Entry("b", "Assault", ("c",), 7),
        "c": Entry("c", "Assess", ("d",), 0),
        "d": Entry("d", "Fortify", (), 0),
    }
    r = resolve(entries, board(c=13))
    assert [e.by for e in r.effects if e.faction == "c" and e.kind == "disposition"] == ["a", "b"]
    assert r.conquerors == {"c": ("b",)}
    tie = resolve({**entries, "b": Entry("b", "Assault", ("c",), 6)}, board(c=12))
    assert tie.conquerors == {"c": ("a", "b")}


def test_narrator_has_most_successes() -> None:
    """Consequences: the faction with the most successes narrates (first in seat order on a tie)."""
    r = resolve(
        {
            "a": Entry("a", "Fortify", (), 3),
            "b": Entry("b", "Fortify", (), 4),
            "c": Entry("c", "Harry", (), 2, attack=3),
        },
        board(),
    )
    assert r.narrator == "c"


@settings(max_examples=200, deadline=None)
@given(
    maneuvers=st.lists(st.sampled_from(MANEUVERS), min_size=4, max_size=4),
    successes=st.lists(st.integers(0, 9), min_size=8, max_size=8),
    dispo=st.lists(st.integers(1, 15), min_size=4, max_size=4),
    picks=st.lists(st.integers(0, 3), min_size=8, max_size=8),
)
def test_disposition_stays_between_zero_and_the_cap(
    maneuvers: list[str], successes: list[int], dispo: list[int], picks: list[int]
) -> None:
    """Disposition never rises above the cap nor falls below zero, whatever meets whatever."""
    entries = {}
    for i, (f, m) in enumerate(zip(ORDER, maneuvers, strict=True)):
        others = [o for o in ORDER if o != f]
        n = maneuver(m).targets
        targets = tuple(dict.fromkeys(others[p % 3] for p in picks[2 * i : 2 * i + 2]))[:n]
        if m == "Ploy" and len(targets) < 2:
            targets = tuple(others[:2])
        entries[f] = Entry(
            f,
            m,
            targets,
            successes[2 * i],
            attack=successes[2 * i + 1],
            exponent=successes[2 * i + 1] % 7,
        )
    b = Board(order=ORDER, disposition=dict(zip(ORDER, dispo, strict=True)), cap=15)
    r = resolve(entries, b)
    assert all(0 <= v <= 15 for v in r.dispositions.values())
    assert set(r.out) == {f for f, v in r.dispositions.items() if v == 0} - {
        f for f in ORDER if b.disposition[f] == 0
    }
    for e in r.engagements:
        cell = matrix().cell(e.maneuver, entries[e.target].maneuver)
        assert (e.kind == "versus") == (cell in ("V", "aV"))


def test_superficial_wound_adds_one_to_stated_obstacles() -> None:
    """A Superficial wound: +1 Ob to the roller's independent tests with a stated obstacle
    (Assess's 2, Fortify's 2, Circles, an exponent); not to every-success-counts damage."""
    r = resolve(
        {
            "a": Entry("a", "Assess", ("b",), 2, ob_penalty=1),
            "b": Entry("b", "Fortify", (), 4, ob_penalty=1),
        },
        board(b=5),
    )
    assert r.engagements[0].obstacle == 3 and not r.engagements[0].is_success
    assert r.dispositions["b"] == 6  # 4 against Ob 3: margin 1
    r = resolve(
        {"a": Entry("a", "Assault", ("b",), 3, ob_penalty=1), "b": Entry("b", "Assess", ("c",), 0)},
        board(),
    )
    assert r.dispositions["b"] == 7


def test_ensnare_harms_its_declared_target_aiming_elsewhere() -> None:
    """Ruling: an Ensnare meets its declared target's maneuver by the matrix, wherever that
    maneuver is aimed; a won versus test turns the target's successes against it."""
    r = resolve(
        {
            "a": Entry("a", "Ensnare", ("b",), 4),
            "b": Entry("b", "Assault", ("c",), 2),
            "c": Entry("c", "Fortify", (), 0),
        },
        board(),
    )
    assert changes(r, "b") == [("a", -2)]
    assert changes(r, "a") == [("a", -2)]


def test_a_faction_at_zero_is_out_at_once_but_its_dice_still_land() -> None:
    """Ruling: a faction reduced to 0 is out at once: later gains do not revive it, but its own
    maneuver, already rolled, still takes effect in its seat."""
    entries = {
        "a": Entry("a", "Assault", ("b",), 5),
        "b": Entry("b", "Gambit", ("a",), 3),
        "c": Entry("c", "Fortify", (), 0),
    }
    r = resolve(entries, board(b=5))
    assert r.out == ("b",)
    assert r.dispositions["a"] == 7  # b's Gambit still lands


def test_wiped_out_by_its_own_sacrifice_has_no_conqueror() -> None:
    """Ruling: a faction that spends itself to 0 (an Ensnare's sacrifice) has no conqueror."""
    r = resolve(
        {
            "a": Entry("a", "Ensnare", ("b",), 6),
            "b": Entry("b", "Assault", ("c",), 1),
            "c": Entry("c", "Fortify", (), 0),
        },
        board(a=5),
    )
    assert "a" in r.out and r.conquerors["a"] == ()


def test_narrator_tie_goes_to_the_first_in_seat_order() -> None:
    """Ruling: equal successes: the first of them in seat order from the reader narrates."""
    r = resolve({"b": Entry("b", "Fortify", (), 4), "c": Entry("c", "Fortify", (), 4)}, board())
    assert r.narrator == "b"


def test_no_successes_never_succeed_even_against_ob_0() -> None:
    """Sap / Infiltrate: an independent test met with no successes at all is no success, even
    where the obstacle is 0 (a faction that cannot act; a leader with no Circles): no Sapped
    dice, no downtime, no maintenance test, no Infiltrated status."""
    r = resolve({"a": Entry("a", "Sap", ("b",), successes=0, exponent=4)}, board())
    assert not r.engagements[0].is_success
    assert [e.kind for e in r.effects] == []
    assert r.sapped == {}
    no_circles = Board(order=ORDER, disposition=board().disposition, cap=12, circles={})
    r = resolve(
        {
            "a": Entry("a", "Infiltrate", ("b",), successes=0, exponent=4),
            "b": Entry("b", "Assault", ("c",), successes=2, exponent=4),
        },
        no_circles,
    )
    assert r.engagements[0].kind == "independent" and r.engagements[0].obstacle == 0
    assert not r.engagements[0].is_success
    assert not [e for e in r.effects if e.kind == "infiltrated"]
    # one success against Ob 0 still succeeds, as the odds shown ("needs 1") say
    r = resolve({"a": Entry("a", "Sap", ("b",), successes=1, exponent=4)}, board())
    assert r.engagements[0].is_success and r.engagements[0].needed == 1
    assert r.sapped == {"b": 1}


def test_harry_attack_dice_meet_an_ensnare() -> None:
    """Harry: "Test your attack dice versus an Ensnare" (aV; audit U10): an Ensnare of 3
    against a Harry's 4 attack successes fails, though its defence dice rolled only 1."""
    board = Board(order=("orcs", "dwarves"), disposition={"orcs": 10, "dwarves": 10}, cap=12)
    entries = {
        "orcs": Entry("orcs", "Ensnare", ("dwarves",), successes=3),
        "dwarves": Entry("dwarves", "Harry", (), successes=1, attack=4),
    }
    result = resolve(entries, board)
    assert result.dispositions["dwarves"] == 10
    assert result.dispositions["orcs"] == 9  # the Harry's attack margin of 1


def test_a_faction_out_of_contention_takes_no_more_damage_from_later_attacks() -> None:
    """Assault: net successes come off the target's disposition, and a faction reduced to 0 is
    out of contention: b's Assault after a's has put c out changes nothing, and a alone is
    recorded as c's attacker (the conquest is decided among those who damaged it)."""
    assaults = {"a": Entry("a", "Assault", ("c",), 3), "b": Entry("b", "Assault", ("c",), 2)}
    result = resolve(assaults, small_board(c=1))
    assert (result.out, result.attackers, result.dispositions["c"]) == (
        ("c",),
        {"c": {"a": 3}},
        0,
    )
    assert [(e.faction, e.kind, e.by, e.amount) for e in result.effects] == [
        ("c", "disposition", "a", -1),
        ("c", "out", "a", 0),
    ]


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
        Effect("b", "out", "b", "b: reduced to 0, out of contention"),
        Effect("d", "out", "c", "d: reduced to 0, out of contention"),
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

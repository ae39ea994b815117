"""The exact Intrigue duel against brute-force enumeration through the real procedure.

The brute force plays the duel with ``Table.act`` on the game's own procedure: at each place it
reads the rolls about to be made (the odds previews) and branches on every hit and miss,
forcing each with scripted dice, weighting each branch by the game's own odds. Up to ``R``
rounds that is every way the duel can go, so the chance of ending within ``R`` rounds must be
exactly the chain's, and each final chance must lie between the enumerated part and the
enumerated part plus what is still going on.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from referee.core import Action, Table, Viewer, system
from referee.dice import ScriptedSource
from referee.systems.intrigue.exact import Duel, DuelError, Duelist, duel_from_table, duel_odds
from tests.sim.duels import intrigue_duel as setup

REFEREE = Viewer("referee")


def combat_of(table: Table[Any]) -> dict[str, Any]:
    combats = table.procedure.state_json(table.state)["combats"]
    return list(combats.values())[-1]  # type: ignore[no-any-return]


def declare_all(table: Table[Any]) -> Table[Any]:
    waiting = ["ann", "bob"]
    while True:
        who = next(
            (w for w in waiting if any(c.kind == "declare" for c in table.legal_actions(w))), None
        )
        if who is None:
            return table
        waiting.remove(who)
        other = "bob" if who == "ann" else "ann"
        table = table.act(Action(who, "declare", {"action": "attack", "target": other}), None)


def brute_force(
    table: Table[Any], rounds: int
) -> tuple[dict[tuple[str, int, int], Fraction], dict[str, Fraction], Fraction]:
    """Every way the duel ends within ``rounds`` rounds (winner, damage to ann, to bob), the
    chance each dies within them, and the chance it is still going after them."""
    ended: dict[tuple[str, int, int], Fraction] = {}
    dead: dict[str, Fraction] = {}
    going = Fraction(0)

    def walk(t: Table[Any], weight: Fraction) -> None:
        nonlocal going
        combat = combat_of(t)
        if combat["ended"]:
            sheets = t.procedure.state_json(t.state)["characters"]
            up = [
                c for c in ("ann", "bob") if not sheets[c]["knocked_out"] and not sheets[c]["dead"]
            ]
            taken = {"ann": 0, "bob": 0}
            for event in t.log.events:
                if event.kind == "damage.taken":
                    taken[event.data["character"]] += event.data["amount"]
            key = (up[0] if len(up) == 1 else "none", taken["ann"], taken["bob"])
            ended[key] = ended.get(key, Fraction(0)) + weight
            for who in ("ann", "bob"):
                if sheets[who]["dead"]:
                    dead[who] = dead.get(who, Fraction(0)) + weight
            return
        if not combat["in_round"] and combat["round"] >= rounds:
            going += weight
            return
        t = declare_all(t)
        chances = [Fraction(p.odds["success"]) for p in t.procedure.previews(t.state, REFEREE)]
        if not chances:  # nothing left to roll this round: end it
            walk(t.act(Action("referee", "resolve", {}), None), weight)
            return
        for hits in product((True, False), repeat=len(chances)):
            w = weight
            faces: list[int] = []
            for hit, p in zip(hits, chances, strict=True):
                w *= p if hit else 1 - p
                faces += [6, 6, 6] if hit else [1, 1, 1]
            if w:
                walk(t.act(Action("referee", "resolve", {}), ScriptedSource(faces)), w)

    start = table.act(Action("ann", "start_combat", {"targets": ["bob"]}), None)
    walk(start, Fraction(1))
    return ended, dead, going


CASES = [
    # (stamina, strength, combat): sequential, simultaneous, one-hit knock-outs, deaths
    ((1, 2), (1, 1), (1, 0)),
    ((2, 3), (1, 2), (1, 1)),
    ((3, 3), (2, 1), (2, 1)),
    ((3, 1), (1, 3), (0, 2)),
    ((2, 2), (2, 2), (1, 1)),
    ((1, 3), (1, 2), (0, 1)),  # ann dies of a knock-out: 2 damage on Stamina 1
]


@pytest.mark.parametrize(("stamina", "strength", "combat"), CASES)
def test_exact_duel_matches_enumeration_through_the_procedure(
    stamina: tuple[int, int], strength: tuple[int, int], combat: tuple[int, int]
) -> None:
    table = system("intrigue").new_table(setup(stamina, strength, combat))
    odds = duel_odds(duel_from_table(table, "ann", "bob"))
    rounds = 4
    ended, dead, going = brute_force(table, rounds)
    assert odds.ended_within(rounds) == sum(ended.values())
    assert going == 1 - sum(ended.values())
    wins = {"ann": odds.wins["ann"], "bob": odds.wins["bob"], "none": odds.both_out}
    for who, exact in wins.items():
        seen = sum((p for (w, _, _), p in ended.items() if w == who), Fraction(0))
        assert seen <= exact <= seen + going, who
    for who, index in (("ann", 1), ("bob", 2)):
        for amount, exact in odds.damage[who].items():
            seen = sum((p for k, p in ended.items() if k[index] == amount), Fraction(0))
            assert seen <= exact <= seen + going, (who, amount)
    for who in ("ann", "bob"):
        seen = dead.get(who, Fraction(0))
        assert seen <= odds.deaths[who] <= seen + going, who
    assert any(dead.values()) or all(v == 0 for v in odds.deaths.values())


def test_probabilities_sum_to_one_and_a_tie_is_simultaneous() -> None:
    a = Duelist("a", Fraction(1, 2), damage=3, knock_out=1, dies=True, rank=1)
    b = Duelist("b", Fraction(1, 2), damage=3, knock_out=1, dies=False, rank=1)
    odds = duel_odds(Duel(a, b))
    assert sum(odds.outcomes.values()) == 1
    # round 1: a first (1/2 a wins; else b strikes: 1/4 b wins); then rounds of both at once
    # from 1/4: each round 1/4 a, 1/4 b, 1/4 both, 1/4 again
    assert odds.wins["a"] == Fraction(1, 2) + Fraction(1, 4) * Fraction(1, 3)
    assert odds.both_out == Fraction(1, 4) * Fraction(1, 3)
    assert odds.deaths == {"a": odds.wins["b"] + odds.both_out, "b": 0}
    assert odds.expected_rounds == 1 + Fraction(1, 4) * Fraction(4, 3)


def test_a_duel_nobody_can_win_is_a_stalemate() -> None:
    never = Duelist("x", Fraction(0), damage=1, knock_out=2, dies=False, rank=1)
    odds = duel_odds(Duel(never, never))
    assert odds.stalemate == 1 and odds.expected_rounds is None


def test_exact_odds_of_the_bench_duel_solve_each_state_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bench's duel (``bench/intrigue_duel.py`` times it) is solved by working out each
    state's round once for the answer and at most once more for the rounds' chances: the work
    is counted, never timed."""
    from referee.systems.intrigue import exact as intrigue

    rounds: list[tuple[int, int]] = []
    one_round = intrigue._round

    def counted(duel: Duel, state: tuple[int, int], order: str) -> Any:
        rounds.append(state)
        return one_round(duel, state, order)

    monkeypatch.setattr(intrigue, "_round", counted)
    table = system("intrigue").new_table(setup((12, 12), (1, 1), (1, 1)))
    duel = duel_from_table(table, "ann", "bob")
    odds = duel_odds(duel)
    assert sum(odds.outcomes.values()) == 1
    states = duel.a.knock_out * duel.b.knock_out
    assert states > 1 and len(rounds) <= 2 * states + 1


def test_the_exact_odds_as_json_give_each_chance_as_a_fraction_and_a_float() -> None:
    """Round 1: Ann first (1/2 she wins; else Bob strikes, 1/4); then both at once (a tie in
    Combat Stat): of each round's 3/4 that end it, a third each to Ann, Bob, and both."""
    a = Duelist("ann", Fraction(1, 2), damage=4, knock_out=1, dies=False, rank=1)
    b = Duelist("bob", Fraction(1, 2), damage=5, knock_out=1, dies=True, rank=1)
    odds = duel_odds(Duel(a, b), 3)

    def both(p: Fraction) -> dict[str, Any]:
        return {"exact": str(p), "value": float(p)}

    f = Fraction
    data = odds.to_json()
    assert data == {
        "exact": True,
        "characters": ["ann", "bob"],
        "wins": {"ann": both(f(7, 12)), "bob": both(f(1, 3))},
        "both_out": both(f(1, 12)),
        "stalemate": both(f(0)),
        "deaths": {"ann": both(f(0)), "bob": both(f(2, 3))},
        "damage": {
            "ann": {"0": both(f(7, 12)), "4": both(f(5, 12))},
            "bob": {"0": both(f(1, 3)), "5": both(f(2, 3))},
        },
        "expected_rounds": both(f(4, 3)),
        "by_round": [both(f(3, 4)), both(f(3, 16)), both(f(3, 64))],
    }
    assert [list(data["damage"][who]) for who in ("ann", "bob")] == [["0", "4"], ["0", "5"]]
    assert odds.ended_within(2) == f(15, 16) and odds.ended_within(0) == 0


def test_a_stalemates_json_has_no_expected_rounds() -> None:
    never = Duelist("x", Fraction(0), damage=1, knock_out=2, dies=False, rank=1)
    data = duel_odds(Duel(never, never)).to_json()
    assert data["expected_rounds"] is None and data["stalemate"] == {"exact": "1", "value": 1.0}


def test_a_duel_is_read_only_from_an_intrigue_table() -> None:
    """The exact duel is an Intrigue in the Clouds combat; another game's table is refused,
    with the rule that refuses it."""
    moll = {
        "side": "society",
        "weapon": "sword",
        "skills": {"Weapons": 2, "Agility": 1, "Alertness": 1},
    }
    jack = {
        "side": "bravoes",
        "weapon": "sword",
        "skills": {"Weapons": 2, "Agility": 1, "Alertness": 1},
    }
    table = system("ginlane").new_table({"characters": {"moll": moll, "jack": jack}})
    with pytest.raises(DuelError) as refused:
        duel_from_table(table, "moll", "jack")
    assert refused.value.rule == "Whole-encounter odds (Intrigue duel)"
    assert refused.value.reason == (
        "a duel of Attacks is an Intrigue in the Clouds combat, not ginlane"
    )


def test_the_combat_offered_to_the_simulator_is_solved_as_the_duel_its_seat_begins() -> None:
    """``referee simulate --as SEAT``: the seat's character starts the combat (and so strikes
    first in round 1), the exact odds are that duel's; with no seat the first character starts;
    a table with nobody to fight has no duel to solve."""
    from referee.systems.intrigue.simulation import COMBAT, NotADuel

    assert COMBAT.exact is not None
    table = system("intrigue").new_table(setup((2, 3), (1, 2), (1, 1)))
    bob_first = COMBAT.exact(table, "bob", None)
    assert bob_first == duel_odds(duel_from_table(table, "bob", "ann")).to_json()
    assert bob_first["characters"] == ["bob", "ann"]
    assert (
        COMBAT.exact(table, None, None) == duel_odds(duel_from_table(table, "ann", "bob")).to_json()
    )
    alone = system("intrigue").new_table(
        {"characters": {"ann": {"name": "Ann", "number": 10, "combat": 1, "stamina": 2}}}
    )
    with pytest.raises(NotADuel):
        COMBAT.exact(alone, None, None)


def test_a_duel_whose_attack_chance_changes_between_rounds_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The exact duel gives each side one chance to hit, the same every round ("Attacking":
    3d6 plus the Attacker's Combat Stat against the Target's + 10, neither changing while both
    stand). Were the game's own preview to show another chance in a later round, the table
    is not that duel: it is refused, naming both chances, not solved with the first."""
    procedure = system("intrigue").procedure
    shown = type(procedure).previews

    def worn_down(self: Any, state: Any, viewer: Viewer) -> Any:
        previews = shown(self, state, viewer)
        if any(combat.round > 1 for combat in state.running):
            return tuple(replace(p, odds={**p.odds, "success": "1/216"}) for p in previews)
        return previews

    monkeypatch.setattr(type(procedure), "previews", worn_down)
    table = system("intrigue").new_table(setup((3, 3), (1, 1), (1, 1)))  # four hits Knock Out
    with pytest.raises(DuelError) as refused:
        duel_from_table(table, "ann", "bob")
    assert refused.value.reason == "ann's chance to hit changes from 1/2 to 1/216"

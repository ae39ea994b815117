"""The exact Hursagmu melee, its work as numbers (``exact``, ``exact_states``, ``exact_rounds``):
the solver's keys, the rounds' whole numbers, and what a set of rounds leads to outside.

The model's doc (:mod:`referee.systems.hursagmu.exact`): the solver keys a state by the number
of its state less its hits, and its hits apart; a plan or an attack pending is a number in the
key, equal for equal ones. A round is played over whole numbers over one denominator, and keeps
them (``RoundStep.whole``) for the chain run forward and solved; a set of rounds is solved with
the values of the sets it leads to as whole numbers over each one's denominator.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from referee.core import Table, system
from referee.core.loader import load_file
from referee.sim.conflicts import conflict_of
from referee.systems.hursagmu.exact import RoundStep, _Solver, canonical, duel_odds, round_odds
from referee.systems.hursagmu.exact_rounds import _scaled, absorb, forward
from referee.systems.hursagmu.exact_states import StateKeys
from referee.systems.hursagmu.simulation import MELEE

EXAMPLES = Path(__file__).parents[2] / "examples" / "hursagmu"


def _example(name: str) -> Table[Any]:
    return system("hursagmu").new_table(load_file(EXAMPLES / name)["setup"])


def _table(**options: Any) -> Table[Any]:
    def sheet(stamina: int) -> dict[str, Any]:
        skills = {"quickness": 1, "striking": 3, "defense": 3}
        return {"dexterity": 2, "strength": 1, "weapon": 1, "stamina": stamina, "skills": skills}

    setup = {"characters": {"bob": sheet(6), "fred": sheet(3)}, "options": options}
    return system("hursagmu").new_table(setup)


def _copied(state: Any, **hits: int) -> Any:
    """``state`` with each plan and the attack pending a new, equal object, and those hits."""
    fighters = {
        who: replace(
            f,
            hits=hits.get(who, f.hits),
            plan=None if f.plan is None else tuple(replace(s) for s in f.plan),
        )
        for who, f in state.fighters.items()
    }
    pending = None if state.pending is None else replace(state.pending)
    return replace(state, fighters=fighters, pending=pending)


def test_the_solvers_key_is_the_canonical_key_its_hits_apart() -> None:
    """Every state of the first round (the solver's own, one for each of its keys), each also
    with its plans and its attack pending copied and its hits moved: two have one numbered key
    exactly where they have one canonical key; the key moved to other hits is the key of the
    state with those hits, and the state less its hits read from the key is one exactly where
    the states less their hits are one."""
    table = _table(damage_roll="1d6")
    solver = _Solver(conflict_of(table), canonical)
    solver.round(table)
    keys = StateKeys()
    states = list(solver.states)
    assert len(states) > 40 and any(s.pending is not None for s in states)
    states += [_copied(s, bob=s.fighters["bob"].hits - 1) for s in states]
    numbered = [keys.canonical(s) for s in states]
    whole = [canonical(s) for s in states]
    less = [keys.less_hits(k) for k in numbered]
    hitless = [keys.hitless(s) for s in states]
    pairs = 0
    for a, b in combinations(range(len(states)), 2):
        assert (numbered[a] == numbered[b]) == (whole[a] == whole[b])
        assert (less[a] == less[b]) == (hitless[a] == hitless[b])
        pairs += numbered[a] == numbered[b]
    assert pairs > 0  # copies with the hits of another state are that state
    for state in states:
        hits = {"bob": 2, "fred": -1}
        moved = keys.moved(keys.canonical(state), list(hits.values()))
        assert moved == keys.canonical(_copied(state, **hits))


def test_a_rounds_whole_numbers_are_its_chances_over_their_least_denominator() -> None:
    """Bob against Fred's first round, played over whole numbers, keeps them: each over the
    denominator is the chance it gives, they add up to 1, and the denominator is the least (the
    same as the fractions give; the actions' own, multiplied, are not) — also where what would
    go on is stuck (``never``) — so the chain run forward and solved is the same from either."""
    table = _example("bob-against-fred.yaml")
    played = round_odds(table)
    stuck = _Solver(replace(MELEE, kinds=MELEE.kinds - {"end_round"}), canonical).round(table)
    assert stuck.never > 0 and played.whole is not None and stuck.whole is not None
    for play in (played, stuck):
        chances = [*play.ends.values(), *(p for p, _ in play.next.values()), play.never]
        assert sum(chances) == 1
        assert _scaled(play) == _scaled(replace(play, whole=None))
    plays = {"A": played}
    plays.update({k: RoundStep({("bob", 1): Fraction(1)}, {}) for k in played.next})
    fractions = {k: replace(p, whole=None) for k, p in plays.items()}
    assert forward("A", plays, 2) == forward("A", fractions, 2)
    assert absorb("A", plays) == absorb("A", fractions)


def test_a_set_is_solved_with_the_values_it_leads_to_over_their_own_denominators() -> None:
    """A round that comes back to itself a quarter of the time and leads to two rounds solved
    before it: one ends at once (Bob 1/3, Fred 2/3: its values over 3), one comes back to itself
    until Fred wins (after 5 rounds on average: over 1). By hand: Bob's chance is
    (1/2 + 1/8 · 1/3) / (3/4) = 13/18, the expected rounds (1 + 1/8 + 1/8 · 5) / (3/4) = 7/3."""
    table = _table()
    plays = {
        "A": RoundStep(
            {("bob", 1): Fraction(1, 2)},
            {
                "A": (Fraction(1, 4), table),
                "C": (Fraction(1, 8), table),
                "D": (Fraction(1, 8), table),
            },
        ),
        "C": RoundStep({("bob", 1): Fraction(1, 3), ("fred", 1): Fraction(2, 3)}, {}),
        "D": RoundStep({("fred", 1): Fraction(1, 5)}, {"D": (Fraction(4, 5), table)}),
    }
    wins, expected, never = absorb("A", plays)
    assert wins == {"bob": Fraction(13, 18), "fred": Fraction(5, 18)}
    assert (expected, never) == (Fraction(7, 3), 0)


@pytest.mark.slow
def test_bob_attack_and_defend_takes_few_procedure_steps() -> None:
    """Bob and Fred of the "Action" example to the end: 362 canonical rounds, 9,654 states and
    1,093 procedure steps (it was 2,115 with at most eight sets of branches kept for a state
    less its hits: now up to 16 branches for each face sequence, only those taken again)."""
    odds = duel_odds(_example("bob-attack-and-defend.yaml"))
    assert (odds.rounds, odds.states, odds.acts) == (362, 9_654, 1_093)
    assert float(odds.wins["bob"]) == pytest.approx(0.8726, abs=1e-4)

"""A conflict solved exactly as a Markov chain (``referee.core.markov``), on a shoot-out small
enough to solve by hand: Ann then Bob fire once a round, a d6 each, and a 5 or 6 drops the
other (Ann's 3 or 4 grazes, which the round forgets; Bob's 6 rolls a die more for the
ricochet, which nothing reads). Ann wins in round n with (4/9)ⁿ⁻¹ · 1/3, Bob with (4/9)ⁿ⁻¹ · 2/9;
what is still standing after the horizon is unfinished, exactly (4/9)ᴴ."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import pytest

from referee.core import Action, Choice, Event, Procedure, Result, System, Table
from referee.core.markov import ChainError, ChainOdds, branches, solve, too_large
from referee.core.registry import _REGISTERED
from referee.core.simulation import EncounterOutcome, SimulatedConflict


@dataclass(frozen=True)
class _Standoff:
    round: int = 1
    turn: str = "ann"
    down: str = ""
    shots: int = 0
    grazed: bool = False


OTHER = {"ann": "bob", "bob": "ann"}


class _Shootout(Procedure[_Standoff]):
    def initial_state(self, setup: Mapping[str, Any]) -> _Standoff:
        return _Standoff()

    def actors(self, state: _Standoff) -> Sequence[str]:
        return () if state.down or state.turn == "nobody" else (state.turn,)

    def legal_actions(self, state: _Standoff, actor: str) -> Sequence[Choice]:
        return (Choice(actor, "shoot"),) if actor in self.actors(state) else ()

    def decide(self, state: _Standoff, action: Action, dice: Any) -> Sequence[Event]:
        if action.kind == "wait":  # no die
            return (Event("waited"),)
        if action.kind == "volley":  # a 6 then 4–6 on a d6, or a 4–5 then a 4 on a d4: a hit
            first = dice.roll(6)
            second = dice.roll(6) if first == 6 else dice.roll(4) if first >= 4 else 0
            hit = second >= 4
            return (Event("shot", {"by": action.actor, "face": 6 if hit else 1}),)
        if action.kind == "snap":  # a 1–4 jams the gun (a 3–4 after grazing), a 5–6 hits
            return (Event("snapped", {"face": dice.roll(6)}),)
        face = dice.roll(6)
        ricochet = dice.roll(6) if action.actor == "bob" and face == 6 else 0
        return (Event("shot", {"by": action.actor, "face": face, "ricochet": ricochet}),)

    def evolve(self, state: _Standoff, event: Event) -> _Standoff:
        if event.kind == "jam":
            return replace(state, turn="nobody")
        if event.kind == "waited":
            return state
        if event.kind == "snapped":
            face = int(event.payload["face"])
            if face >= 5:
                return replace(state, down="bob", turn="bob")
            return replace(state, turn="nobody", grazed=face >= 3)
        if state.down:  # a shot after the end changes nothing
            return state
        by, face = str(event.payload["by"]), int(event.payload["face"])
        after = replace(state, shots=state.shots + 1, turn=OTHER[by])
        if face >= 5:
            return replace(after, down=OTHER[by])
        if by == "bob":
            return replace(after, round=state.round + 1, grazed=False)
        return replace(after, grazed=face >= 3)

    def conflict(self, state: _Standoff) -> Result | None:
        winner = OTHER.get(state.down)
        return Result("the shoot-out", bool(state.down), (winner,) if winner else ())


def _outcome(start: Table[Any], table: Table[Any]) -> EncounterOutcome:
    """The rounds counted from the start's (a conflict may be solved from one under way)."""
    state, rounds = table.state, table.state.round - start.state.round + 1
    return EncounterOutcome(OTHER.get(state.down, "unfinished"), rounds, {}, bool(state.down))


SHOOTOUT = SimulatedConflict(
    "a shoot-out",
    frozenset({"shoot"}),
    ("shoot",),
    lambda table, seat: [],
    lambda start, table: bool(table.state.down) and not start.state.down,
    _outcome,
)


class _Game(System):
    def simulated_conflicts(self) -> tuple[SimulatedConflict, ...]:
        return (self.conflict,)  # type: ignore[attr-defined, no-any-return]


@pytest.fixture
def shootout(monkeypatch: pytest.MonkeyPatch) -> Table[_Standoff]:
    return _table(monkeypatch, SHOOTOUT)


def _table(monkeypatch: pytest.MonkeyPatch, conflict: SimulatedConflict) -> Table[_Standoff]:
    game = _Game("shootout_chain", "Shoot-out", _Shootout())
    object.__setattr__(game, "conflict", conflict)
    monkeypatch.setitem(_REGISTERED, "shootout_chain", game)
    return Table.start(game.procedure, {}, system="shootout_chain")


def _key(table: Table[_Standoff]) -> Any:
    s = table.state
    return (s.round, s.turn, s.down, s.grazed)  # the shots fired: never read by the rules


ROUND = Fraction(4, 9)


def test_an_action_leads_to_each_table_its_faces_make_merged_by_the_key(
    shootout: Table[_Standoff],
) -> None:
    """Ann's shot: faces 1–2 are one branch (a miss), 3–4 another (a graze), 5–6 a third (Bob
    down). Bob's 6 asks for a die more, which changes nothing: one branch with his 5."""
    found = branches(shootout, Action("ann", "shoot"), _key)
    assert {k: p for k, (p, _) in found.items()} == {
        (1, "bob", "", False): Fraction(1, 3),
        (1, "bob", "", True): Fraction(1, 3),
        (1, "bob", "bob", False): Fraction(1, 3),
    }
    assert found[(1, "bob", "bob", False)][1].state.down == "bob"
    bobs_turn = found[(1, "bob", "", True)][1]
    bob = branches(bobs_turn, Action("bob", "shoot"), _key)
    assert {k: p for k, (p, _) in bob.items()} == {
        (2, "ann", "", False): Fraction(2, 3),
        (1, "ann", "ann", True): Fraction(1, 3),
    }
    every_face = branches(shootout, Action("ann", "shoot"), lambda t: t.state.shots)
    assert {k: p for k, (p, _) in every_face.items()} == {1: Fraction(1)}


def test_an_action_with_no_die_leads_to_one_table(shootout: Table[_Standoff]) -> None:
    (only,) = branches(shootout, Action("ann", "wait"), _key).values()
    assert only[0] == 1 and only[1].log[-1].kind == "waited"


def test_a_second_die_is_branched_on_for_each_first_face_that_asks_for_it(
    shootout: Table[_Standoff],
) -> None:
    """Ann's volley hits on a 6 then 4–6 on a d6, or a 4 or 5 then a 4 on a d4: 1/12 + 1/12.
    The 4 and the 5 are one branch (weighed as two faces); the 6 asks for a die of another
    size, so it is never theirs."""
    found = branches(shootout, Action("ann", "volley"), _key)
    assert {k: p for k, (p, _) in found.items()} == {
        (1, "bob", "", False): Fraction(5, 6),
        (1, "bob", "bob", False): Fraction(1, 6),
    }


def test_the_chain_gives_each_winner_and_round_its_exact_chance(
    shootout: Table[_Standoff],
) -> None:
    odds = solve(shootout, key=_key, horizon=3)
    assert odds.outcomes == {("ann", n): ROUND ** (n - 1) * Fraction(1, 3) for n in (1, 2, 3)} | {
        ("bob", n): ROUND ** (n - 1) * Fraction(2, 9) for n in (1, 2, 3)
    }
    assert odds.unfinished == ROUND**3
    assert sum(odds.outcomes.values()) + odds.unfinished == 1
    assert odds.wins == {
        "ann": Fraction(1, 3) * (1 + ROUND + ROUND**2),
        "bob": Fraction(2, 9) * (1 + ROUND + ROUND**2),
    }
    assert odds.by_round() == tuple(ROUND ** (n - 1) * Fraction(5, 9) for n in (1, 2, 3))
    assert odds.by_round("bob") == tuple(ROUND ** (n - 1) * Fraction(2, 9) for n in (1, 2, 3))
    assert odds.within(2) == Fraction(5, 9) * (1 + ROUND)
    assert odds.within(1, "ann") == Fraction(1, 3)
    assert odds.expected_rounds is None  # something is left unfinished
    # each round expands Ann's turn (7 acts: a try, then each face) and Bob's after a miss and
    # after a graze (14 each: his 6 tried again with each face of the ricochet die)
    assert (odds.horizon, odds.states, odds.acts) == (3, 9, 3 * (7 + 14 + 14))
    assert odds.endings == {}


def test_the_expected_rounds_are_given_when_nothing_is_left_unfinished() -> None:
    sure = ChainOdds(
        {("ann", 1): Fraction(1, 4), ("bob", 3): Fraction(3, 4)}, {}, Fraction(0), 3, 1, 1
    )
    assert sure.expected_rounds == Fraction(1, 4) + 3 * Fraction(3, 4)
    assert sure.wins == {"ann": Fraction(1, 4), "bob": Fraction(3, 4)}


def test_each_ending_is_described_with_its_chance(shootout: Table[_Standoff]) -> None:
    odds = solve(shootout, key=_key, horizon=1, describe=lambda t: f"{t.state.down} down")
    assert odds.endings == {"bob down": Fraction(1, 3), "ann down": Fraction(2, 9)}


def test_the_rounds_may_be_counted_the_callers_way(shootout: Table[_Standoff]) -> None:
    """Counted in shots, two rounds of the shoot-out are four of the caller's."""

    def shots(start: Table[_Standoff], t: Table[_Standoff]) -> int:
        return t.state.shots - start.state.shots + 1

    odds = solve(shootout, key=_key, horizon=2, rounds=shots)
    assert odds.unfinished == Fraction(2, 3) ** 2
    assert odds.outcomes[("ann", 1)] == Fraction(1, 3)
    # past a horizon of one shot: Ann's miss and her graze, each unfinished
    assert solve(shootout, key=_key, horizon=1, rounds=shots).unfinished == Fraction(2, 3)


def test_the_conflict_begins_with_its_own_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """A conflict that begins with Ann's shot: the chain starts from its every face."""

    def first_shot(table: Table[_Standoff], seat: str | None) -> list[Action]:
        return [Action(table.state.turn, "shoot")] if seat == "ann" else []

    begun = replace(SHOOTOUT, begin=first_shot)
    odds = solve(_table(monkeypatch, begun), key=_key, horizon=1, seat="ann")
    assert odds.outcomes == {("ann", 1): Fraction(1, 3), ("bob", 1): Fraction(2, 9)}
    assert (odds.states, odds.acts) == (2, 7 + 14 + 14)  # Ann's shot begun, then Bob's two
    twice = replace(SHOOTOUT, begin=lambda t, s: [Action("ann", "shoot"), Action("bob", "shoot")])
    odds = solve(_table(monkeypatch, twice), key=_key, horizon=2)
    assert odds.outcomes == {
        ("ann", 1): Fraction(1, 3),
        ("bob", 1): Fraction(2, 9),
        ("ann", 2): Fraction(4, 9) * Fraction(1, 3),
        ("bob", 2): Fraction(4, 9) * Fraction(2, 9),
    }
    assert odds.states == 3  # round 2's turns only: the misses and grazes merged


def test_a_conflict_nobody_may_move_in_never_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not over, and nobody has a choice (a jammed gun each): unfinished, whatever the horizon."""
    table = _table(monkeypatch, SHOOTOUT)
    jammed = replace(
        Table.replay(table.procedure, {}, table.log.append(Event("jam"))), system="shootout_chain"
    )
    assert jammed.state.turn == "nobody"
    odds = solve(jammed, key=_key, horizon=5)
    assert (odds.outcomes, odds.unfinished, odds.states) == ({}, 1, 1)
    snapped = replace(SHOOTOUT, begin=lambda table, seat: [Action("ann", "snap")])
    odds = solve(_table(monkeypatch, snapped), key=_key, horizon=5)
    assert odds.unfinished == Fraction(2, 3)  # jammed, and jammed after a graze
    assert odds.outcomes == {("ann", 1): Fraction(1, 3)}


def test_a_chain_past_its_states_or_time_is_refused(shootout: Table[_Standoff]) -> None:
    with pytest.raises(ChainError, match="more than 5 states to expand"):
        solve(shootout, key=_key, horizon=2, max_states=5)
    assert solve(shootout, key=_key, horizon=2, max_states=6).states == 6
    assert solve(shootout, key=_key, horizon=2, time_limit=60).states == 6
    assert solve(shootout, key=_key, horizon=1, estimate=10, time_limit=5).states == 3
    assert solve(shootout, key=_key, horizon=1, estimate=5, seconds_per_state=0.01).states == 3
    with pytest.raises(ChainError, match="some 120 s at 20 ms a state"):
        solve(shootout, key=_key, horizon=1, estimate=6_000, seconds_per_state=0.02, time_limit=60)
    with pytest.raises(ChainError, match="about 7 states to expand, more than 6"):
        solve(shootout, key=_key, horizon=3, estimate=7, max_states=6)
    with pytest.raises(ChainError, match="in 0 s and more to go"):
        solve(shootout, key=_key, horizon=3, time_limit=0)


def test_a_chain_too_large_is_refused_before_anything_is_expanded() -> None:
    too_large(None, 1.0, max_states=1, time_limit=0)
    too_large(10, 0.5, max_states=10, time_limit=5)
    with pytest.raises(ChainError) as states:
        too_large(11, 0.0, max_states=10)
    assert str(states.value) == (
        "Whole-encounter odds (exact chain): about 11 states to expand, more than 10: "
        "too large to solve exactly"
    )
    with pytest.raises(ChainError) as seconds:
        too_large(6_000, 0.02, time_limit=60)
    assert "some 120 s at 20 ms a state, more than the 60 s given" in str(seconds.value)
    too_large(6_000, 0.02)

"""A conflict as the simulator drives it (``referee.core.simulation``): who may move, whether
it is over and who won — the game's own word through ``procedure.conflict(state)`` — and the
conflict of a game that offers none of its own but reports one (``docs/new-game.md``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from referee.core import (
    REFEREE,
    Action,
    ActionSpec,
    Catalogue,
    Choice,
    Event,
    NoParams,
    Procedure,
    Result,
    System,
    Table,
    system,
)
from referee.core.actions import Between, OneOf, SomeOf
from referee.core.prompts import Prompt
from referee.core.registry import _REGISTERED
from referee.core.simulation import (
    FIRST,
    SimulatedConflict,
    conflict_of,
    conflict_over,
    conflict_result,
    first_of_choice,
    procedures_conflict,
    sole_winner,
    why_not_main,
)

SPECS = [ActionSpec(kind, NoParams, section="Duel", record="everyone") for kind in ("cut", "yield")]


class _Duel(Procedure[int]):
    """A duel whose conflict is told by the test; the state counts the actions."""

    catalogue = Catalogue(SPECS)

    def __init__(
        self,
        told: Result | None,
        referee: bool = False,
        movers: Sequence[str] = ("ann", "bob"),
        asked: Sequence[Prompt] = (),
    ) -> None:
        self.told = told
        self.has_referee = referee
        self.movers = tuple(movers)
        self.asked = tuple(asked)

    def initial_state(self, setup: Mapping[str, Any]) -> int:
        return 0

    def actors(self, state: int) -> Sequence[str]:
        return self.movers

    def prompts(self, state: int) -> Sequence[Prompt]:
        return self.asked

    def legal_actions(self, state: int, actor: str) -> Sequence[Choice]:
        return (Choice(actor, "cut"),)

    def decide(self, state: int, action: Action, dice: Any) -> Sequence[Event]:
        return (Event("cut", {"by": action.actor}),)

    def evolve(self, state: int, event: Event) -> int:
        return state + 1

    def conflict(self, state: int) -> Result | None:
        return self.told


def _table(told: Result | None, **more: Any) -> Table[int]:
    return Table.start(_Duel(told, **more), {})


def test_a_conflict_is_over_when_the_game_says_so_or_when_there_is_none() -> None:
    assert conflict_over(_table(Result("the duel", over=True)))
    assert not conflict_over(_table(Result("the duel", over=False)))
    assert conflict_over(_table(None))
    assert conflict_result(_table(None)) is None
    assert conflict_result(_table(Result("the duel"))) == Result("the duel")


def test_the_sole_winner_is_the_one_the_game_names() -> None:
    assert sole_winner(_table(Result("the duel", True, ("ann",)))) == "ann"
    assert sole_winner(_table(Result("the duel", True, ()))) == "none"
    assert sole_winner(_table(None)) == "none"
    assert sole_winner(_table(Result("the duel", True, ("ann", "bob")))) == "unfinished"


def test_a_game_reporting_its_conflict_is_simulated_through_its_whole_catalogue() -> None:
    procedure = _Duel(None)
    conflict = procedures_conflict(procedure)
    assert conflict.name == "the conflict the game reports"
    assert conflict.kinds == frozenset({"cut", "yield"})
    assert conflict.preference == ("cut", "yield")
    assert conflict.first_mover
    assert conflict.exact is None and conflict.why_not_exact == "the game offers no exact model"
    table = Table.start(procedure, {})
    assert conflict.begin(table, None) == [] and conflict.begin(table, "ann") == []
    assert conflict.why_not(table) is None


def test_the_reported_conflict_ends_when_the_game_says_and_names_its_winners() -> None:
    """Over: the winners joined in order (``"none"`` for none); not over, or no conflict:
    unfinished. The actions taken since the start are counted, and each one's return."""
    told = Result("the duel", True, ("bob", "ann"), returns=(("ann", 1), ("bob", -1)))
    start = _table(told).act(Action("ann", "cut"), None)  # begun one action in
    conflict = procedures_conflict(start.procedure)
    later = start.act(Action("ann", "cut"), None).act(Action("bob", "cut"), None)
    assert conflict.is_over(start, later)
    outcome = conflict.outcome(start, later)
    assert (outcome.winner, outcome.rounds, dict(outcome.damage)) == ("ann,bob", 0, {})
    assert outcome.finished
    assert dict(outcome.extra) == {"actions": 2, "return:ann": 1, "return:bob": -1}
    nobody = _table(Result("the duel", True))
    assert procedures_conflict(nobody.procedure).outcome(nobody, nobody).winner == "none"
    for going_on in (_table(Result("the duel", False, ("ann",))), _table(None)):
        conflict = procedures_conflict(going_on.procedure)
        assert not conflict.is_over(going_on, going_on)
        outcome = conflict.outcome(going_on, going_on)
        assert (outcome.winner, outcome.finished) == ("unfinished", False)
        assert dict(outcome.extra) == {"actions": 0}


def test_the_reported_conflict_moves_whoever_the_table_waits_for_and_the_referee() -> None:
    """Prompts first (the table waits for them), then the game's movers; the referee too in a
    game that has one, once."""
    prompted = Prompt("bob", ("yield",), "Duel", "yield or not")
    table = _table(None, referee=True, asked=(prompted,))
    assert procedures_conflict(table.procedure).movers(table) == ["bob", REFEREE]
    plain = _table(None, movers=("ann", REFEREE), referee=True)
    assert procedures_conflict(plain.procedure).movers(plain) == ["ann", REFEREE]
    alone = _table(None)
    assert procedures_conflict(alone.procedure).movers(alone) == ["ann", "bob"]


def test_a_conflicts_movers_are_its_own_else_the_games_and_the_referee() -> None:
    def conflict(**more: Any) -> SimulatedConflict:
        return SimulatedConflict(
            "a duel",
            frozenset({"cut"}),
            ("cut",),
            lambda t, s: [],
            lambda s, t: False,
            lambda s, t: conflict_result(t),  # type: ignore[arg-type, return-value]
            **more,
        )

    refereed = _table(None, referee=True)
    assert conflict().movers(refereed) == ["ann", "bob", REFEREE]
    assert conflict().movers(_table(None)) == ["ann", "bob"]
    assert conflict().movers(_table(None, movers=(REFEREE,), referee=True)) == [REFEREE]
    assert conflict(actors=lambda t: ["bob"]).movers(refereed) == ["bob"]
    assert conflict().why_not(refereed) is None
    assert conflict(cannot_play=lambda t: "nobody armed").why_not(refereed) == "nobody armed"


def test_the_first_of_everything_is_the_least_of_each_domain() -> None:
    assert (FIRST.randrange(6), FIRST.randint(3, 9), FIRST.random()) == (0, 3, 0.0)
    assert FIRST.sample(["a", "b", "c"], 2) == ["a", "b"]
    choice = Choice(
        "ann",
        "cut",
        {"at": OneOf(("bob", "cat")), "force": Between(2, 5), "feints": SomeOf(("x", "y"))},
    )
    assert first_of_choice(choice) == Action("ann", "cut", {"at": "bob", "force": 2, "feints": []})
    assert choice.sample(random.Random(3)).actor == "ann"


def test_a_game_whose_main_conflict_cannot_be_played_says_why_and_plays_the_next() -> None:
    """Zweihänder's main conflict is a chase; two talkers cannot chase, so the simulation
    plays its Complex Exchange and says why; two runners chase."""
    talker = {"bonuses": {"WB": 4}, "skills": {"Charm": 50}}
    talkers = system("zweihander").new_table({"characters": {"a": talker, "b": talker}})
    chase, _ = system("zweihander").simulated_conflicts()
    reason = chase.why_not(talkers)
    assert reason and why_not_main(talkers) == reason
    assert conflict_of(talkers).name == "a Complex Exchange"
    runner = {"bonuses": {"AB": 4, "BB": 3, "PB": 2}, "skills": {"Coordination": 50}}
    runners = system("zweihander").new_table({"characters": {"a": runner, "b": runner}})
    assert why_not_main(runners) is None
    assert conflict_of(runners).name == "a chase"


def test_a_game_offering_no_conflict_has_none_to_play(monkeypatch: pytest.MonkeyPatch) -> None:
    class _Unreported(_Duel):
        conflict = Procedure.conflict  # type: ignore[assignment]

    monkeypatch.setitem(
        _REGISTERED, "unreported_duel", System("unreported_duel", "U", _Unreported(None))
    )
    table = Table.start(_Unreported(None), {}, system="unreported_duel")
    assert why_not_main(table) is None
    with pytest.raises(KeyError, match="unreported_duel"):
        conflict_of(table)

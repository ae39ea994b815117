"""How a simulated player chooses (``referee.core.policies``): only among the choices the game
offers for the conflict's action kinds; the random player draws one uniformly, the sensible one
takes the conflict's own pick or its preferred kind with the first value of each domain, and a
choice the game refuses is dropped and the choice made again."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from referee.core import Action, Choice, Event, Procedure, RuleError, Table
from referee.core.actions import AnyOf, Between, Depends, OneOf, Record, SomeOf, Steps, Text
from referee.core.policies import (
    POLICIES,
    default_policy,
    default_taken,
    first_value,
    legal_choices,
    offers,
    random_policy,
)
from referee.core.simulation import SimulatedConflict

TARGETS = OneOf(("bob", "cat"))


class _Brawl(Procedure[int]):
    """Ann, Bob and Cat brawl; the state counts the blows. What each may do is set per test;
    a parley is refused."""

    def __init__(self, offered: Mapping[str, Sequence[Choice]]) -> None:
        self.offered = offered

    def initial_state(self, setup: Mapping[str, Any]) -> int:
        return 0

    def actors(self, state: int) -> Sequence[str]:
        return tuple(self.offered)

    def legal_actions(self, state: int, actor: str) -> Sequence[Choice]:
        return tuple(self.offered.get(actor, ()))

    def decide(self, state: int, action: Action, dice: Any) -> Sequence[Event]:
        if action.kind == "parley":
            raise RuleError("Brawling", "nobody parleys in a brawl")
        return (Event("struck", {"by": action.actor, **action.params}),)

    def evolve(self, state: int, event: Event) -> int:
        return state + 1


def _table(offered: Mapping[str, Sequence[Choice]]) -> Table[int]:
    return Table.start(_Brawl(offered), {})


def _conflict(
    kinds: Sequence[str] = ("strike", "shove", "parley"),
    preference: Sequence[str] = ("strike", "shove", "parley"),
    **more: Any,
) -> SimulatedConflict:
    return SimulatedConflict(
        "a brawl",
        frozenset(kinds),
        tuple(preference),
        lambda table, seat: [],
        lambda start, table: False,
        lambda start, table: pytest.fail("not asked"),
        **more,
    )


STRIKE = Choice("ann", "strike", {"target": TARGETS})
SHOVE = Choice("ann", "shove")
BOWS = Choice("ann", "bow")  # not a kind of the brawl


def test_the_legal_choices_are_the_conflicts_kinds_offered_to_every_mover() -> None:
    table = _table({"ann": [STRIKE, BOWS], "bob": [Choice("bob", "shove")], "cat": []})
    assert legal_choices(table, _conflict()) == [STRIKE, Choice("bob", "shove")]


def test_a_conflict_moved_one_at_a_time_offers_only_the_first_mover_with_a_choice() -> None:
    """``first_mover``: the first in order who has a choice of the conflict's kinds moves; one
    with none (or only other kinds) is passed over."""
    table = _table(
        {"cat": [Choice("cat", "bow")], "ann": [STRIKE, SHOVE], "bob": [Choice("bob", "shove")]}
    )
    assert legal_choices(table, _conflict(first_mover=True)) == [STRIKE, SHOVE]
    nobody = _table({"cat": [Choice("cat", "bow")]})
    assert legal_choices(nobody, _conflict(first_mover=True)) == []


def test_the_movers_are_the_conflicts_own_where_it_names_them() -> None:
    table = _table({"ann": [STRIKE], "bob": [Choice("bob", "shove")]})
    assert legal_choices(table, _conflict(actors=lambda t: ["bob"])) == [Choice("bob", "shove")]


def test_the_random_player_draws_a_choice_uniformly_and_its_parameters_from_their_domains() -> None:
    choices = [STRIKE, SHOVE, Choice("ann", "parley")]
    drawn = [random_policy(_table({}), _conflict(), choices, random.Random(s)) for s in range(60)]
    assert {a.kind for a in drawn} == {"strike", "shove", "parley"}
    assert {a.params.get("target") for a in drawn if a.kind == "strike"} == {"bob", "cat"}
    assert all(a.actor == "ann" for a in drawn)
    assert {"default": default_policy, "random": random_policy} == POLICIES


def test_the_sensible_player_takes_the_preferred_kind_with_the_first_of_each_domain() -> None:
    table = _table({})
    choices = [SHOVE, Choice("ann", "dance"), STRIKE]
    taken = default_policy(table, _conflict(), choices, random.Random(0))
    assert taken == Action("ann", "strike", {"target": "bob"})
    later = default_policy(table, _conflict(preference=("shove",)), choices, random.Random(0))
    assert later == Action("ann", "shove", {})
    unranked = [Choice("ann", "dance"), Choice("ann", "bow")]
    assert default_policy(table, _conflict(), unranked, random.Random(0)).kind == "dance"
    last = [Choice("ann", "dance"), Choice("ann", "parley")]
    assert default_policy(table, _conflict(), last, random.Random(0)).kind == "parley"


def test_the_sensible_player_takes_the_conflicts_own_pick_where_it_makes_one() -> None:
    table = _table({})
    choices = [STRIKE, SHOVE]
    picked = Action("ann", "shove", {"hard": True})
    seen: list[Sequence[Choice]] = []

    def pick(t: Table[Any], offered: Sequence[Choice]) -> Action | None:
        seen.append(offered)
        return picked

    assert default_policy(table, _conflict(pick=pick), choices, random.Random(0)) is picked
    assert seen == [choices]
    no_pick = _conflict(pick=lambda t, c: None)
    assert default_policy(table, no_pick, choices, random.Random(0)).kind == "strike"


def test_a_choice_the_game_refuses_is_dropped_and_the_next_taken() -> None:
    """A parley (preferred here) is refused: the sensible player strikes instead; with nothing
    left that the game takes, there is no action."""
    table = _table({"ann": [Choice("ann", "parley"), STRIKE]})
    conflict = _conflict(preference=("parley", "strike"))
    tried: list[Action] = []

    def take(action: Action) -> int:
        tried.append(action)
        return table.act(action, None).state

    assert default_taken(table, conflict, take) == (Action("ann", "strike", {"target": "bob"}), 1)
    assert [a.kind for a in tried] == ["parley", "strike"]
    only_parley = _table({"ann": [Choice("ann", "parley")]})
    assert default_taken(only_parley, conflict, lambda a: only_parley.act(a, None)) is None
    assert default_taken(_table({}), conflict, take) is None


def test_the_action_taken_is_the_conflicts_own_pick_from_the_table_it_is_taken_on() -> None:
    table = _table({"ann": [STRIKE, SHOVE]}).act(Action("ann", "strike"), None)

    def pick(t: Table[Any], offered: Sequence[Choice]) -> Action:
        return Action("ann", "strike", {"target": ("bob", "cat")[t.state]})

    taken = default_taken(table, _conflict(pick=pick), lambda a: a.params["target"])
    assert taken == (Action("ann", "strike", {"target": "cat"}), "cat")


def test_an_error_the_caller_owns_is_raised_not_taken_for_a_refusal() -> None:
    class _TooLarge(RuleError):
        """An exact model's own refusal: the caller's to raise, not the table's to refuse."""

    def too_large(action: Action) -> int:
        raise _TooLarge("Exact odds", "too large")

    table = _table({"ann": [STRIKE, SHOVE]})
    with pytest.raises(_TooLarge):
        default_taken(table, _conflict(), too_large, own=_TooLarge)
    assert default_taken(table, _conflict(), too_large) is None


def test_a_choice_offers_an_action_of_its_actor_kind_and_domains() -> None:
    assert offers(STRIKE, Action("ann", "strike", {"target": "cat"}))
    assert not offers(STRIKE, Action("ann", "strike", {"target": "dan"}))
    assert not offers(STRIKE, Action("bob", "strike", {"target": "cat"}))
    assert not offers(STRIKE, Action("ann", "shove", {"target": "cat"}))


def test_the_first_value_of_a_domain_is_its_first_of_everything() -> None:
    assert first_value(OneOf(("cat", "bob"))) == "cat"
    assert first_value(Between(2, 5)) == 2
    assert first_value(SomeOf(("a", "b", "c"), least=2)) == ["a", "b"]
    assert first_value(SomeOf(("a", "b", "c"))) == ["a"]  # at least one
    assert first_value(Text(example="a toast")) == "a toast"
    assert first_value(object()) == ""
    step = Record({"attack": TARGETS, "hard": OneOf((True, False))}, optional=frozenset({"hard"}))
    assert first_value(step) == {"attack": "bob"}
    assert first_value(Steps(step, least=2, most=3)) == [{"attack": "bob"}] * 2
    assert first_value(AnyOf({"rest": OneOf(("sit",)), "hit": TARGETS})) == "sit"
    assert first_value(Depends("on", (("x", Between(7, 9)),))) == 7

"""How a simulated player chooses: only ever among the choices ``legal_actions`` offers for the
conflict's action kinds, so a policy cannot take an action the rules do not list.

- :func:`random_policy`: a choice drawn uniformly, its parameters drawn from their domains;
- :func:`default_policy`: what a sensible player does (the conflict's own pick where the game
  gives one, else its preferred kinds with the first value of each domain).

The exact models solve the conflict as the default policy plays it (:mod:`referee.core.markov`),
so the policy lives here, beside the conflicts the games offer, not in the simulator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from referee.core.actions import AnyOf, Choice, Depends, Record, Steps
from referee.core.errors import RefereeError
from referee.core.procedures import Action
from referee.core.simulation import FIRST, SimulatedConflict
from referee.core.table import Table

__all__ = [
    "POLICIES",
    "Policy",
    "default_policy",
    "default_taken",
    "first_value",
    "legal_choices",
    "offers",
    "random_policy",
]

T = TypeVar("T")


class Policy(Protocol):
    """Chooses the next action from the legal choices (never empty)."""

    def __call__(
        self,
        table: Table[Any],
        conflict: SimulatedConflict,
        choices: Sequence[Choice],
        rng: random.Random,
    ) -> Action: ...


def legal_choices(table: Table[Any], conflict: SimulatedConflict) -> list[Choice]:
    """The choices open now to whoever may move, of the conflict's action kinds (only the
    first mover's, where the conflict moves one at a time)."""
    found: list[Choice] = []
    for actor in conflict.movers(table):
        found += [c for c in table.legal_actions(actor) if c.kind in conflict.kinds]
        if found and conflict.first_mover:
            break
    return found


def random_policy(
    table: Table[Any], conflict: SimulatedConflict, choices: Sequence[Choice], rng: random.Random
) -> Action:
    """A legal choice drawn uniformly, each parameter drawn from its domain."""
    return choices[rng.randrange(len(choices))].sample(rng)  # type: ignore[no-any-return]


def default_policy(
    table: Table[Any], conflict: SimulatedConflict, choices: Sequence[Choice], rng: random.Random
) -> Action:
    """The game's sensible default: the conflict's own pick if it has one, else the first
    choice of the most preferred kind with the first value of each domain."""
    if conflict.pick is not None:
        picked = conflict.pick(table, choices)
        if picked is not None:
            return picked
    rank = {kind: i for i, kind in enumerate(conflict.preference)}
    best = min(choices, key=lambda c: rank.get(c.kind, len(rank)))
    return Action(best.actor, best.kind, {k: first_value(d) for k, d in best.params.items()})


def default_taken(
    table: Table[Any],
    conflict: SimulatedConflict,
    take: Callable[[Action], T],
    *,
    own: type[Exception] | tuple[type[Exception], ...] = (),
) -> tuple[Action, T] | None:
    """The default policy's action from ``table`` and what ``take`` makes of it; a choice the
    game refuses (``take`` raises a :class:`RefereeError`) is dropped and the policy chooses
    again, as the simulator's ``play`` does. ``None`` if nobody has a choice left. Errors of
    the types in ``own`` are the caller's (an exact model's limits), raised, not taken for a
    refusal."""
    choices = legal_choices(table, conflict)
    while choices:
        action = default_policy(table, conflict, choices, random.Random(0))
        try:
            return action, take(action)
        except own:
            raise
        except RefereeError:
            choices = [c for c in choices if not offers(c, action)]
    return None


def offers(choice: Choice, action: Action) -> bool:
    """True if ``action`` is one ``choice`` offers."""
    return (
        choice.actor == action.actor and choice.kind == action.kind and choice.allows(action.params)
    )


def first_value(domain: Any) -> Any:
    """The first value of ``domain`` (a structured one: the first of everything, as few steps
    as allowed, no optional field; a set of choices: as few as allowed, at least one)."""
    if isinstance(domain, Record | AnyOf | Steps | Depends):
        return domain.sample(FIRST)  # type: ignore[arg-type]
    values = getattr(domain, "values", None)
    if values is not None and hasattr(domain, "least"):
        return list(values[: max(1, domain.least)])
    if values is not None:
        return values[0]
    if hasattr(domain, "low"):
        return domain.low
    return getattr(domain, "example", "")


POLICIES: dict[str, Policy] = {"default": default_policy, "random": random_policy}
"""The policies by name (``referee simulate --policy``)."""

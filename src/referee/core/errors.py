"""Errors of the kernel: an illegal action, a bad scenario file.

``RefereeError`` lives in :mod:`referee.dice.errors` (the lowest layer) and is re-exported here.

>>> str(RuleError("Perception cooldown", "scarface checked krockin 5 minutes ago"))
'Perception cooldown: scarface checked krockin 5 minutes ago'
>>> str(ScenarioError("expected an integer", ("dice", "seed")))
'dice.seed: expected an integer'
>>> str(ActionError("perceive", ("modifer",), "not a parameter of this action"))
'perceive.modifer: not a parameter of this action'
>>> str(StaleTableError(expected=3, current=5))
'stale table: you read version 3, but the table is at version 5 (someone else acted first)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.dice.errors import RefereeError

__all__ = [
    "ActionError",
    "RefereeError",
    "RuleError",
    "ScenarioError",
    "SeatError",
    "StaleTableError",
]


class RuleError(RefereeError):
    """An action the rules refuse; the message names the rule that refused it.

    ``rule`` is the rule's own name (quote the rules text where you can, e.g.
    ``"Perception (Intrigue, 'Perception Skill')"``); ``reason`` says why, quoting the input.
    """

    def __init__(self, rule: str, reason: str) -> None:
        self.rule = rule
        self.reason = reason
        super().__init__(f"{rule}: {reason}")


class ScenarioError(RefereeError):
    """A scenario file (or a procedure's setup) that is malformed; names the path to the bad field.

    ``path`` is a sequence of keys and list indices from the top of the file, shown dotted:
    ``("actions", 2, "at")`` is shown ``actions.2.at``.
    """

    def __init__(self, message: str, path: Sequence[str | int] = ()) -> None:
        self.reason = message
        self.path: tuple[str | int, ...] = tuple(path)
        where = ".".join(str(part) for part in self.path)
        super().__init__(f"{where}: {message}" if where else message)


class ActionError(RefereeError):
    """An action that is malformed: an unknown kind, a missing, misspelt or ill-typed parameter.

    ``kind`` is the action's kind, ``path`` the path to the bad parameter inside its parameters
    (empty for the kind itself). A well-formed action the rules forbid is a :class:`RuleError`.
    ``problem`` names what kind of wrong it is where the parameter model says (pydantic's error
    type: ``"int_parsing"``, ``"less_than_equal"``…) and ``limits`` the bounds it broke
    (``{"le": 3}``), so an interface can say it in a person's words.
    """

    def __init__(
        self,
        kind: str,
        path: Sequence[str | int],
        message: str,
        *,
        problem: str = "",
        limits: Mapping[str, str | int | float] | None = None,
    ) -> None:
        self.kind = kind
        self.path: tuple[str | int, ...] = tuple(path)
        self.reason = message
        self.problem = problem
        self.limits: dict[str, str | int | float] = dict(limits or {})
        where = ".".join(str(part) for part in (kind, *self.path))
        super().__init__(f"{where}: {message}")


class SeatError(RefereeError):
    """A seat that may not do what it asked: act as another's character, take the referee's
    action, undo another's action, or a seat the table does not have."""


class StaleTableError(RefereeError):
    """An action that was decided on an older version of the table than the one now."""

    def __init__(self, expected: int, current: int) -> None:
        self.expected = expected
        self.current = current
        super().__init__(
            f"stale table: you read version {expected}, but the table is at version {current} "
            "(someone else acted first)"
        )

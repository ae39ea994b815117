"""Errors of the kernel: an illegal action, a bad scenario file.

``RefereeError`` lives in :mod:`referee.dice.errors` (the lowest layer) and is re-exported here.

>>> str(RuleError("Perception cooldown", "scarface checked krockin 5 minutes ago"))
'Perception cooldown: scarface checked krockin 5 minutes ago'
>>> str(ScenarioError("expected an integer", ("dice", "seed")))
'dice.seed: expected an integer'
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.dice.errors import RefereeError

__all__ = ["RefereeError", "RuleError", "ScenarioError"]


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

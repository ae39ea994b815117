"""Errors of the dice layer, and the one base class every Referee error shares.

``RefereeError`` lives here, in the lowest layer, so that ``referee.dice`` imports nothing of
Referee above it; ``referee.core.errors`` re-exports it.
"""

from __future__ import annotations


class RefereeError(Exception):
    """Base of every error Referee raises on purpose (bad input, illegal action, bad file)."""


class NotationError(RefereeError):
    """A dice expression that cannot be parsed, is out of bounds, or cannot be evaluated.

    >>> str(NotationError("unexpected end of expression", "3d", 2))
    "unexpected end of expression at position 3 in '3d'"
    """

    def __init__(self, message: str, expression: str = "", position: int | None = None) -> None:
        self.reason = message
        self.expression = expression
        self.position = position
        where = ""
        if position is not None:
            where = f" at position {position + 1}"
        if expression:
            where += f" in {expression!r}"
        super().__init__(message + where)


class DiceSourceError(RefereeError):
    """A dice source that cannot give the die asked of it (a script run out, a face off the die)."""


class FairnessError(RefereeError):
    """A seed, salt or table id that cannot be used to derive dice or commit a choice."""

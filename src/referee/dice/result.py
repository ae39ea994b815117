"""The result tree of a roll: every die, what became of it, and the total.

Rolling (:mod:`referee.dice.rolling`) builds these values; showing them
(:mod:`referee.dice.render`) reads them. This module imports neither, so the dice package's
modules form layers: ``notation`` → ``render`` → ``result`` → ``rolling`` → ``probability``.

>>> from referee.dice.notation import parse
>>> expression = parse("2d6")
>>> dice = (RolledDie(6, 3, order=1), RolledDie(6, 5, order=2))
>>> roll = Roll(expression, 8, Rolled(expression.root, 8, (), dice))
>>> roll.describe(), roll.faces
('2d6 (3, 5) = 8', (3, 5))
"""

from __future__ import annotations

from typing import Any, NamedTuple

from referee.dice.notation import Dice, Expression, Node, Number
from referee.dice.render import render_plain

__all__ = ["Roll", "Rolled", "RolledDie", "final_total", "format_total"]


class RolledDie:
    """One die as it was rolled, and what became of it.

    ``rolled`` is the face that came up; ``face`` the value it counts for (``mi``/``ma`` may
    change it). ``kept`` is False for a die dropped by ``k``/``p`` or replaced by a reroll
    (then ``rerolled`` is True). ``exploded``: this die made another roll; ``added``: this die
    was added by an explosion or ``ra``. ``success`` is set when the dice are being counted.
    ``order`` is its place (from 1) among the faces drawn from the dice source.
    Read-only once the roll is made.

    >>> RolledDie(20, 17)
    RolledDie(d20=17, kept)
    """

    __slots__ = (
        "added",
        "exploded",
        "face",
        "kept",
        "order",
        "rerolled",
        "rolled",
        "sides",
        "success",
    )

    def __init__(self, sides: int, face: int, added: bool = False, order: int = 0) -> None:
        self.order = order
        self.sides = sides
        self.rolled = face
        self.face = face
        self.kept = True
        self.rerolled = False
        self.exploded = False
        self.added = added
        self.success: bool | None = None

    @property
    def status(self) -> str:
        """``kept``, ``dropped`` or ``rerolled``."""
        if self.kept:
            return "kept"
        return "rerolled" if self.rerolled else "dropped"

    def to_json(self) -> dict[str, Any]:
        """The die as a JSON object."""
        out: dict[str, Any] = {
            "sides": self.sides,
            "face": self.face,
            "status": self.status,
            "exploded": self.exploded,
            "added": self.added,
        }
        if self.rolled != self.face:
            out["rolled"] = self.rolled
        if self.success is not None:
            out["success"] = self.success
        return out

    def __repr__(self) -> str:
        return f"RolledDie(d{self.sides}={self.face}, {self.status})"


class Rolled(NamedTuple):
    """A node of the result tree: the parsed node, its value, and what it was made of.

    (A named tuple rather than a frozen dataclass: rolls are made by the hundred thousand.)
    """

    node: Node
    value: Number
    children: tuple[Rolled, ...] = ()
    dice: tuple[RolledDie, ...] = ()
    kept: bool = True


class Roll(NamedTuple):
    """The outcome of rolling an expression: its total (a whole number, or true/false for a
    comparison) and the result tree with every die."""

    expression: Expression
    total: int | bool
    tree: Rolled

    @property
    def dice(self) -> tuple[RolledDie, ...]:
        """Every die rolled, left to right, including dropped, rerolled and exploded ones."""
        out: list[RolledDie] = []
        stack = [self.tree]
        while stack:
            node = stack.pop()
            out.extend(node.dice)
            stack.extend(reversed(node.children))
        return tuple(out)

    @property
    def faces(self) -> tuple[int, ...]:
        """The faces as they came from the dice source, in the order they were asked for:
        a :class:`~referee.dice.sources.ScriptedSource` of these replays the roll exactly."""
        return tuple(d.rolled for d in sorted(self.dice, key=lambda d: d.order))

    @property
    def crit(self) -> str | None:
        """d20's natural results: ``"crit"`` when the first d20 term's first kept die shows 20,
        ``"fail"`` when it shows 1, otherwise None."""
        stack = [self.tree]
        while stack:
            node = stack.pop()
            if isinstance(node.node, Dice) and node.node.sides == 20:
                kept = [d for d in node.dice if d.kept]
                if kept:
                    return {20: "crit", 1: "fail"}.get(kept[0].face)
                return None
            stack.extend(reversed(node.children))
        return None

    def describe(self) -> str:
        """The roll in plain text: dropped dice ``~~struck~~``, explosions ``6!``, successes
        ``5*``."""
        return f"{render_plain(self.tree)} = {format_total(self.total)}"

    def _dice_json(self) -> list[dict[str, Any]]:
        # A die inside a set item that the set's k/p dropped counts for nothing: "dropped".
        out: list[dict[str, Any]] = []
        stack: list[tuple[Rolled, bool]] = [(self.tree, True)]
        while stack:
            node, counts = stack.pop()
            for die in node.dice:
                data = die.to_json()
                if not counts and data["status"] == "kept":
                    data["status"] = "dropped"
                out.append(data)
            stack.extend((child, counts and child.kept) for child in reversed(node.children))
        return out

    def to_json(self) -> dict[str, Any]:
        """``{"expression", "total", "dice", "text"}`` as plain JSON values; a die in a set item
        dropped by the set's ``k``/``p`` has the status ``dropped``."""
        return {
            "expression": self.expression.text,
            "total": self.total,
            "dice": self._dice_json(),
            "text": self.describe(),
        }


def format_total(total: Number) -> str:
    """A total as a person reads it: ``true``/``false`` or the number.

    >>> format_total(True), format_total(7)
    ('true', '7')
    """
    if isinstance(total, bool):
        return "true" if total else "false"
    return str(total)


def final_total(value: Number) -> int | bool:
    """The total of an expression: true/false stays, anything else truncates toward zero.

    >>> from fractions import Fraction
    >>> final_total(Fraction(-7, 2)), final_total(False)
    (-3, False)
    """
    if isinstance(value, bool):
        return value
    return int(value)

"""Rolling a parsed expression: the total and a result tree with every die marked.

Every die comes from the :class:`~referee.dice.sources.DiceSource` passed in. The operators'
meanings live here once; :mod:`referee.dice.probability` enumerates this same code where it has no
faster exact path, so a roll and its odds cannot disagree.

>>> from referee.dice.sources import ScriptedSource
>>> r = roll("4d6kh3", ScriptedSource([1, 3, 5, 6]))
>>> r.total, r.describe()
(14, '4d6kh3 (~~1~~, 3, 5, 6) = 14')
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from referee.dice.errors import NotationError
from referee.dice.notation import (
    MAX_DICE,
    Annotated,
    Binary,
    Compare,
    Dice,
    Expression,
    Function,
    Literal_,
    Node,
    Number,
    Op,
    Selector,
    Set_,
    SuccessCount,
    Unary,
    parse,
)
from referee.dice.sources import DiceSource, RandomSource

COMPARATORS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
}


class RolledDie:
    """One die as it was rolled, and what became of it.

    ``rolled`` is the face that came up; ``face`` the value it counts for (``mi``/``ma`` may
    change it). ``kept`` is False for a die dropped by ``k``/``p`` or replaced by a reroll
    (then ``rerolled`` is True). ``exploded``: this die made another roll; ``added``: this die
    was added by an explosion or ``ra``. ``success`` is set when the dice are being counted.
    Read-only once the roll is made.
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
        a :class:`~referee.dice.sources.ScriptedSource` of these replays the roll exactly.

        >>> from referee.dice.sources import ScriptedSource
        >>> roll("2d6r1", ScriptedSource([1, 4, 5])).faces
        (1, 4, 5)
        """
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
        from referee.dice.render import render_plain

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
    """A total as a person reads it: ``true``/``false`` or the number."""
    if isinstance(total, bool):
        return "true" if total else "false"
    return str(total)


def final_total(value: Number) -> int | bool:
    """The total of an expression: true/false stays, anything else truncates toward zero."""
    if isinstance(value, bool):
        return value
    return int(value)


def normalise(value: Number) -> Number:
    """A Fraction that is whole becomes an int."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def select(selectors: Sequence[Selector], values: Sequence[Number]) -> set[int]:
    """Indices (into ``values``) picked by any of ``selectors``: ``h n`` the n highest, ``l n``
    the n lowest (ties: the later of equal values counts as higher), or by value.

    >>> sorted(select([Selector("h", 1), Selector("l", 1)], [3, 1, 5, 4]))
    [1, 2]
    """
    picked: set[int] = set()
    order: list[int] | None = None
    for sel in selectors:
        if sel.kind in ("h", "l"):
            if order is None:
                order = sorted(range(len(values)), key=values.__getitem__)
            if sel.value > 0:
                picked.update(order[-sel.value :] if sel.kind == "h" else order[: sel.value])
        else:
            picked.update(i for i, v in enumerate(values) if sel.matches(v))
    return picked


def compute(op: str, left: Number, right: Number) -> Number:
    """Arithmetic with exact division; raises :class:`NotationError` on division by zero."""
    if op == "+":
        return normalise(left + right)
    if op == "-":
        return normalise(left - right)
    if op == "*":
        return normalise(left * right)
    if right == 0:
        raise NotationError(f"division by zero ({op} 0)")
    if op == "/":
        return normalise(Fraction(left) / right)
    if op == "//":
        return normalise(left // right)
    return normalise(left % right)


FUNCTIONS: dict[str, Callable[..., Number]] = {"abs": abs, "max": max, "min": min}


class Roller:
    """Rolls nodes with dice from ``source``, counting every die against :data:`MAX_DICE`."""

    __slots__ = ("rolled", "source")

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.rolled = 0

    def die(self, sides: int, added: bool = False) -> RolledDie:
        """Roll one die."""
        self.rolled += 1
        if self.rolled > MAX_DICE:
            raise NotationError(f"more than {MAX_DICE} dice rolled (rerolls and explosions count)")
        return RolledDie(sides, self.source.roll(sides), added, self.rolled)

    def dice(self, node: Dice) -> list[RolledDie]:
        """Roll a dice term and apply its operators in order."""
        dice = [self.die(node.sides) for _ in range(node.count)]
        for op in node.ops:
            self.apply(op, dice, node.sides)
        return dice

    def apply(self, op: Op, dice: list[RolledDie], sides: int) -> None:
        """Apply one operator to ``dice`` (only kept dice are looked at)."""
        kept = [d for d in dice if d.kept]
        chosen = [kept[i] for i in sorted(select(op.selectors, [d.face for d in kept]))]
        name = op.name
        if name == "k":
            ids = {id(d) for d in chosen}
            for d in kept:
                if id(d) not in ids:
                    d.kept = False
        elif name == "p":
            for d in chosen:
                d.kept = False
        elif name in ("rr", "ro"):
            while chosen:
                fresh = []
                for d in chosen:
                    d.kept = False
                    d.rerolled = True
                    new = self.die(sides)
                    dice.insert(dice.index(d) + 1, new)
                    fresh.append(new)
                if name == "ro":
                    break
                chosen = [fresh[i] for i in select(op.selectors, [d.face for d in fresh])]
        elif name in ("ra", "e"):
            done: set[int] = set()
            while chosen:
                fresh = []
                for d in chosen:
                    d.exploded = True
                    done.add(id(d))
                    new = self.die(sides, added=True)
                    dice.insert(dice.index(d) + 1, new)
                    fresh.append(new)
                if name == "ra":
                    break
                chosen = [
                    fresh[i]
                    for i in sorted(select(op.selectors, [d.face for d in fresh]))
                    if id(fresh[i]) not in done
                ]
        elif name == "mi":
            floor = op.selectors[0].value
            for d in kept:
                if d.face < floor:
                    d.face = floor
        elif name == "ma":
            ceiling = op.selectors[0].value
            for d in kept:
                if d.face > ceiling:
                    d.face = ceiling

    def roll(self, node: Node) -> Rolled:
        """Roll ``node`` and everything under it."""
        return compiled(node)(self)


Step = Callable[[Roller], Rolled]


@functools.lru_cache(maxsize=4096)
def compiled(node: Node) -> Step:
    """``node`` as a function of a roller, with the dispatch on node kinds done once."""
    match node:
        case Dice(count=count, sides=sides, ops=()):

            def plain_dice(r: Roller) -> Rolled:
                if r.rolled + count > MAX_DICE:
                    raise NotationError(
                        f"more than {MAX_DICE} dice rolled (rerolls and explosions count)"
                    )
                face = r.source.roll
                first = r.rolled + 1
                r.rolled += count
                dice = tuple(
                    [RolledDie(sides, face(sides), False, first + i) for i in range(count)]
                )
                return Rolled(node, sum([d.face for d in dice]), (), dice)

            return plain_dice
        case Dice():

            def dice_with_ops(r: Roller) -> Rolled:
                dice = r.dice(node)
                return Rolled(node, sum(d.face for d in dice if d.kept), (), tuple(dice))

            return dice_with_ops
        case SuccessCount():
            target, meets = node.target, COMPARATORS[node.comparator]

            def success_count(r: Roller) -> Rolled:
                dice = r.dice(node.dice)
                count = 0
                for d in dice:
                    if d.kept:
                        d.success = meets(d.face, target)
                        count += d.success
                return Rolled(node, count, (), tuple(dice))

            return success_count
        case Literal_(value=value):
            constant = Rolled(node, value)
            return lambda r: constant
        case Annotated():
            inner = compiled(node.inner)

            def annotated(r: Roller) -> Rolled:
                rolled = inner(r)
                return Rolled(node, rolled.value, (rolled,))

            return annotated
        case Unary():
            operand = compiled(node.operand)
            negate = node.op == "-"

            def unary(r: Roller) -> Rolled:
                rolled = operand(r)
                return Rolled(node, -rolled.value if negate else +rolled.value, (rolled,))

            return unary
        case Binary(op=op):
            left, right = compiled(node.left), compiled(node.right)

            def binary(r: Roller) -> Rolled:
                a, b = left(r), right(r)
                return Rolled(node, compute(op, a.value, b.value), (a, b))

            return binary
        case Compare():
            left, right = compiled(node.left), compiled(node.right)
            test = COMPARATORS[node.op]

            def compare(r: Roller) -> Rolled:
                a, b = left(r), right(r)
                return Rolled(node, test(a.value, b.value), (a, b))

            return compare
        case Function():
            args, fn = tuple(compiled(a) for a in node.args), FUNCTIONS[node.name]

            def function(r: Roller) -> Rolled:
                rolled = tuple(a(r) for a in args)
                return Rolled(node, fn(*(a.value for a in rolled)), rolled)

            return function
        case Set_():
            items = tuple(compiled(i) for i in node.items)
            return lambda r: _roll_set(node, [i(r) for i in items])
    raise NotationError(f"cannot roll {node!r}")  # pragma: no cover


def _roll_set(node: Set_, items: list[Rolled]) -> Rolled:
    keep = set(range(len(items)))
    for op in node.ops:
        live = sorted(keep)
        chosen = {live[i] for i in select(op.selectors, [items[i].value for i in live])}
        keep = keep & chosen if op.name == "k" else keep - chosen
    if node.ops:
        items = [
            Rolled(r.node, r.value, r.children, r.dice, i in keep) for i, r in enumerate(items)
        ]
    total = sum((items[i].value for i in sorted(keep)), start=0)
    return Rolled(node, normalise(total), tuple(items))


def roll(expression: str | Expression, source: DiceSource | None = None) -> Roll:
    """Roll ``expression`` with dice from ``source`` (the system's CSPRNG when omitted).

    >>> from referee.dice.sources import ScriptedSource
    >>> roll("8d6>=4", ScriptedSource([1, 4, 6, 3, 5, 2, 4, 6])).total
    5
    >>> roll("3d6+2>=14", ScriptedSource([6, 5, 1])).total
    True
    """
    if isinstance(expression, str):
        ready = _READY.get(expression)
        if ready is None:
            parsed = parse(expression)
            if len(_READY) >= 4096:
                _READY.clear()
            ready = _READY[expression] = (parsed, compiled(parsed.root))
        parsed, step = ready
    else:
        parsed, step = expression, compiled(expression.root)
    tree = step(Roller(source if source is not None else RandomSource()))
    return Roll(parsed, final_total(tree.value), tree)


#: Parsed and compiled expressions by their text (bounded by :func:`parse`'s own cache size).
_READY: dict[str, tuple[Expression, Step]] = {}

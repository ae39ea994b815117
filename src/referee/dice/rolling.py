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
from typing import Any

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
from referee.dice.result import Roll, Rolled, RolledDie, final_total, format_total
from referee.dice.sources import DiceSource, SystemSource

__all__ = [
    "COMPARATORS",
    "FUNCTIONS",
    "MAX_LOOKS",
    "Roll",
    "Rolled",
    "RolledDie",
    "Roller",
    "compiled",
    "compute",
    "final_total",
    "format_total",
    "normalise",
    "roll",
    "select",
]

#: Most looks operators may take at dice in one roll: an operator looks at each die of its
#: term once, and once more for each of its choices (``k1k2k3`` has three). With at most
#: :data:`MAX_DICE` dice, this bounds a roll's time (some 40 ms on the reference machine).
MAX_LOOKS = 250_000

COMPARATORS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
}


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
    """Rolls nodes with dice from ``source``, counting every die against :data:`MAX_DICE` and
    every look an operator takes at a die against :data:`MAX_LOOKS`."""

    __slots__ = ("looks", "rolled", "source")

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.rolled = 0
        self.looks = 0

    def die(self, sides: int, added: bool = False) -> RolledDie:
        """Roll one die."""
        self.rolled += 1
        if self.rolled > MAX_DICE:
            raise NotationError(f"more than {MAX_DICE} dice rolled (rerolls and explosions count)")
        return RolledDie(sides, self.source.roll(sides), added, self.rolled)

    def dice(self, node: Dice) -> list[RolledDie]:
        """Roll a dice term and apply its operators in order."""
        count, sides = node.count, node.sides
        if self.rolled + count > MAX_DICE:
            raise NotationError(f"more than {MAX_DICE} dice rolled (rerolls and explosions count)")
        first = self.rolled + 1
        self.rolled += count
        face = self.source.roll
        dice = [RolledDie(sides, face(sides), False, first + i) for i in range(count)]
        for op in node.ops:
            self.apply(op, dice, node.sides)
        return dice

    def apply(self, op: Op, dice: list[RolledDie], sides: int) -> None:
        """Apply one operator to ``dice`` (only kept dice are looked at)."""
        self.looks += len(dice) * (len(op.selectors) + 1)
        if self.looks > MAX_LOOKS:
            raise NotationError(
                f"more than {MAX_LOOKS:,} looks at dice by operators (dice times operators and "
                "their choices): too much work for one roll"
            )
        kept = [d for d in dice if d.kept]
        picked = select(op.selectors, [d.face for d in kept])
        name = op.name
        if name == "k":
            for i, d in enumerate(kept):
                if i not in picked:
                    d.kept = False
            return
        if name == "p":
            for i in picked:
                kept[i].kept = False
            return
        chosen = [kept[i] for i in sorted(picked)]
        if name in ("rr", "ro"):
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

# Result nodes are made by the million: ``tuple.__new__`` skips the named tuple's Python-level
# constructor (every field is given, so nothing else differs).
_new = tuple.__new__
# Operators whose result is exact in whole numbers (``/`` is not); normalise() is the same.
_RING: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
}


@functools.lru_cache(maxsize=4096)
def compiled(node: Node) -> Step:
    """``node`` as a function of a roller, with the dispatch on node kinds done once."""
    match node:
        case Dice() | SuccessCount():
            return _dice_step(node)
        case Literal_(value=value):
            constant = Rolled(node, value)
            return lambda r: constant
        case Annotated():
            inner = compiled(node.inner)

            def annotated(r: Roller) -> Rolled:
                rolled = inner(r)
                return Rolled(node, rolled.value, (rolled,))

            return annotated
        case Unary() | Binary() | Compare():
            return _operator_step(node)
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


def _dice_step(node: Dice | SuccessCount) -> Step:
    """Dice rolled: plain (the hot path), with their operations, or counted as successes."""
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
                if count == 1:
                    die = RolledDie(sides, face(sides), False, first)
                    return _new(Rolled, (node, die.face, (), (die,), True))
                dice = tuple(
                    [RolledDie(sides, face(sides), False, first + i) for i in range(count)]
                )
                return _new(Rolled, (node, sum([d.face for d in dice]), (), dice, True))

            return plain_dice
        case Dice():

            def dice_with_ops(r: Roller) -> Rolled:
                dice = r.dice(node)
                total = sum([d.face for d in dice if d.kept])
                return _new(Rolled, (node, total, (), tuple(dice), True))

            return dice_with_ops
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


def _operator_step(node: Unary | Binary | Compare) -> Step:
    """A sign, an arithmetic operator or a comparison over the steps of its operands."""
    if isinstance(node, Unary):
        operand = compiled(node.operand)
        negate = node.op == "-"

        def unary(r: Roller) -> Rolled:
            rolled = operand(r)
            return Rolled(node, -rolled.value if negate else +rolled.value, (rolled,))

        return unary
    left, right = compiled(node.left), compiled(node.right)
    if isinstance(node, Compare):
        test = COMPARATORS[node.op]

        def compare(r: Roller) -> Rolled:
            a, b = left(r), right(r)
            return Rolled(node, test(a.value, b.value), (a, b))

        return compare
    op = node.op
    if op in _RING:
        fn = _RING[op]

        def ring(r: Roller) -> Rolled:
            a, b = left(r), right(r)
            value = fn(a.value, b.value)
            if type(value) is not int:
                value = normalise(value)
            return _new(Rolled, (node, value, (a, b), (), True))

        return ring

    def binary(r: Roller) -> Rolled:
        a, b = left(r), right(r)
        return Rolled(node, compute(op, a.value, b.value), (a, b))

    return binary


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
    """Roll ``expression`` with dice from ``source`` (when omitted, a
    :class:`~referee.dice.sources.SystemSource`: the system's CSPRNG, read 4 KiB at a time).

    Refused with :class:`NotationError` past :data:`MAX_DICE` dice rolled or
    :data:`MAX_LOOKS` looks at dice, which keep a roll well under a tenth of a second.

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
    tree = step(Roller(source if source is not None else _SYSTEM))
    value = tree.value
    return _new(Roll, (parsed, value if type(value) is int else final_total(value), tree))


#: The default source: the operating system's CSPRNG, read 4 KiB at a time.
_SYSTEM = SystemSource()

#: Parsed and compiled expressions by their text (bounded by :func:`parse`'s own cache size).
_READY: dict[str, tuple[Expression, Step]] = {}

"""The parsed form of a dice expression: the grammar (``grammar.lark``), its tree, and its bounds.

A parsed :class:`Expression` is a value. Rolling it (:mod:`referee.dice.rolling`) gives a
result tree with every die; its odds (:mod:`referee.dice.probability`) give the exact
distribution of the same tree. See ``docs/dice.md`` for the notation.

>>> parse("4d6kh3").root
Dice(count=4, sides=6, ops=(Op(name='k', selectors=(Selector(kind='h', value=3),)),), text='4d6kh3')
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from referee.dice.errors import NotationError

if TYPE_CHECKING:
    from lark import Lark

#: Most dice one expression may roll, counting rerolls and explosions (as d20 does).
MAX_DICE = 1000
#: Most faces a die may have.
MAX_SIDES = 10_000
#: Deepest nesting of parentheses and function calls.
MAX_DEPTH = 50
#: Longest expression, in characters.
MAX_LENGTH = 1000
#: Most operations nested or chained in one expression (signs, operators, functions,
#: parentheses): rolls, odds and their display walk the tree recursively.
MAX_TREE_DEPTH = 100

SelectorKind: TypeAlias = Literal["h", "l", ">", "<", "="]
Comparator: TypeAlias = Literal["==", "!=", ">=", "<=", ">", "<"]
Number: TypeAlias = int | Fraction | bool


@dataclass(frozen=True, slots=True)
class Selector:
    """Which dice (or set items) an operator acts on: ``h3`` the three highest, ``l1`` the
    lowest, ``>4`` those above 4, ``<2`` those below 2, ``6`` (kind ``=``) those showing 6."""

    kind: SelectorKind
    value: int

    def is_by_value(self) -> bool:
        """True when the selector looks at each die's own value, not at its rank in the set."""
        return self.kind not in ("h", "l")

    def matches(self, value: Number) -> bool:
        """Whether a value-selector picks ``value`` (rank selectors pick by position instead)."""
        if self.kind == ">":
            return value > self.value
        if self.kind == "<":
            return value < self.value
        return value == self.value

    def __str__(self) -> str:
        return f"{'' if self.kind == '=' else self.kind}{self.value}"


OpName: TypeAlias = Literal["k", "p", "rr", "ro", "ra", "e", "mi", "ma"]


@dataclass(frozen=True, slots=True)
class Op:
    """One operator on a set of dice: keep ``k``, drop ``p``, reroll ``rr`` (until no die
    matches), reroll once ``ro``, reroll and add ``ra``, explode ``e``, minimum ``mi``, maximum
    ``ma``. Consecutive operators of the same name act as one with all their selectors (the
    union), as in d20: ``k1k2`` keeps the 1s and the 2s."""

    name: OpName
    selectors: tuple[Selector, ...]

    def is_by_value(self) -> bool:
        """True when every selector looks at each die's value alone."""
        return all(s.is_by_value() for s in self.selectors)

    def __str__(self) -> str:
        return "".join(f"{self.name}{s}" for s in self.selectors)


@dataclass(frozen=True, slots=True)
class Literal_:
    """A number written in the expression: ``2``, ``1.5``."""

    value: int | Fraction
    text: str


@dataclass(frozen=True, slots=True)
class Dice:
    """``NdS`` with its operators: ``4d6kh3``, ``6d6!``, ``d%`` (a d100)."""

    count: int
    sides: int
    ops: tuple[Op, ...]
    text: str


@dataclass(frozen=True, slots=True)
class SuccessCount:
    """A comparison written directly after a dice term counts the dice meeting it:
    ``8d6>=4`` is how many of the eight dice show 4 or more (Roll20's success counting)."""

    dice: Dice
    comparator: Comparator
    target: int


@dataclass(frozen=True, slots=True)
class Set_:
    """A parenthesised list ``(1d4, 2+2, 3d6kl1)`` with keep/drop operators on its items."""

    items: tuple[Node, ...]
    ops: tuple[Op, ...]
    is_parenthetical: bool


@dataclass(frozen=True, slots=True)
class Unary:
    """``-x`` or ``+x``."""

    op: Literal["+", "-"]
    operand: Node


@dataclass(frozen=True, slots=True)
class Binary:
    """Arithmetic: ``+ - * / // %``. ``/`` is exact division; the final total is truncated
    toward zero to a whole number, as in d20."""

    op: Literal["+", "-", "*", "/", "//", "%"]
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Compare:
    """A comparison of two totals; true or false (1 or 0 inside arithmetic)."""

    op: Comparator
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Function:
    """``abs(x)``, ``max(x, y, ...)``, ``min(x, y, ...)``."""

    name: Literal["abs", "max", "min"]
    args: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Annotated:
    """A term with labels that do not change its value: ``9[fire]``."""

    inner: Node
    annotations: tuple[str, ...]


Node: TypeAlias = (
    Literal_ | Dice | SuccessCount | Set_ | Unary | Binary | Compare | Function | Annotated
)


@dataclass(frozen=True, slots=True)
class Expression:
    """A parsed dice expression. ``roll`` and ``odds`` in :mod:`referee.dice` take one."""

    text: str
    root: Node

    @property
    def dice_count(self) -> int:
        """How many dice the expression rolls before any reroll or explosion."""
        return sum(d.count for d in dice_terms(self.root))

    def __str__(self) -> str:
        return self.text


def dice_terms(node: Node) -> list[Dice]:
    """Every dice term in ``node``, left to right."""
    match node:
        case Dice():
            return [node]
        case SuccessCount():
            return [node.dice]
        case Set_():
            return [d for item in node.items for d in dice_terms(item)]
        case Unary():
            return dice_terms(node.operand)
        case Binary() | Compare():
            return dice_terms(node.left) + dice_terms(node.right)
        case Function():
            return [d for arg in node.args for d in dice_terms(arg)]
        case Annotated():
            return dice_terms(node.inner)
        case _:
            return []


# --- parsing -------------------------------------------------------------------------------

_FRIENDLY = {
    "SIDES": "the number of sides",
    "INTEGER": "a number",
    "DECIMAL": "a number",
    "SELTYPE": "h, l, > or <",
    "LPAR": "'('",
    "RPAR": "')'",
    "COMMA": "','",
    "COMP": "a comparison",
    "SUM_OP": "'+' or '-'",
    "MUL_OP": "'*', '/', '//' or '%'",
    "UNARY_OP": "'+' or '-'",
    "FUNC": "abs, max or min",
    "D": "'d'",
    "DICE_OP": "a dice operator",
    "KEEP_OP": "k or p",
    "MINMAX": "mi or ma",
    "EXPLODE": "'!'",
    "ANNOTATION": "a [label]",
    "$END": "the end",
}


@functools.cache
def _parser() -> Lark:
    from lark import Lark

    grammar = Path(__file__).with_name("grammar.lark").read_text("utf-8")
    return Lark(
        grammar, parser="lalr", maybe_placeholders=True, propagate_positions=True, cache=True
    )


def _expected(names: Any) -> str:
    words = sorted({_FRIENDLY.get(str(n), str(n).lower()) for n in names})
    if not words:
        return ""
    if len(words) > 4:
        return " (expected a number, dice or '(')" if "a number" in words else ""
    return " (expected " + ", ".join(words) + ")"


def _check_shape(text: str) -> None:
    if not text.strip():
        raise NotationError("empty dice expression", text)
    depth = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
            if depth > MAX_DEPTH:
                raise NotationError(
                    f"parentheses nested more than {MAX_DEPTH} deep", _clip(text), i
                )
        elif ch == ")":
            depth -= 1
    if len(text) > MAX_LENGTH:
        raise NotationError(f"expression longer than {MAX_LENGTH} characters", _clip(text))


def _clip(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


@functools.lru_cache(maxsize=4096)
def parse(text: str) -> Expression:
    """Parse ``text`` into an :class:`Expression`, checking its bounds; parses are cached.

    >>> parse("3d6+2").dice_count
    3
    >>> try:
    ...     parse("3d")
    ... except NotationError as error:
    ...     print(error)
    unexpected end of expression (expected the number of sides) at position 3 in '3d'
    """
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, VisitError

    _check_shape(text)
    try:
        tree = _parser().parse(text)
    except UnexpectedEOF as e:
        raise NotationError(
            "unexpected end of expression" + _expected(e.expected), text, len(text.rstrip())
        ) from None
    except UnexpectedCharacters as e:
        raise NotationError(
            f"unexpected {text[e.pos_in_stream or 0]!r}" + _expected(e.allowed),
            _clip(text),
            e.pos_in_stream,
        ) from None
    except UnexpectedInput as e:
        token = getattr(e, "token", None)
        pos = getattr(e, "pos_in_stream", None)
        if token is not None and getattr(token, "type", "") == "$END":
            raise NotationError(
                "unexpected end of expression" + _expected(getattr(e, "expected", set())),
                text,
                len(text.rstrip()),
            ) from None
        shown = repr(str(token)) if token is not None else "input"
        raise NotationError(
            f"unexpected {shown}" + _expected(getattr(e, "expected", set())), _clip(text), pos
        ) from None
    try:
        root = _Build(text).build(tree)
    except VisitError as e:  # pragma: no cover - _Build raises NotationError directly
        raise NotationError(str(e.orig_exc), text) from None
    expression = Expression(text, root)
    if expression.dice_count > MAX_DICE:
        raise NotationError(
            f"{expression.dice_count} dice is more than the {MAX_DICE} one expression may roll",
            _clip(text),
        )
    return expression


_ALIASES: dict[str, tuple[str, SelectorKind | None]] = {
    "dl": ("p", "l"),
    "dh": ("p", "h"),
    "r": ("rr", None),
}


class _Build:
    """Turns Lark's tree into :data:`Node` values, checking each term's bounds."""

    def __init__(self, text: str) -> None:
        self.text = text

    def fail(self, message: str, meta: Any = None) -> NotationError:
        pos = getattr(meta, "start_pos", None) if meta is not None else None
        return NotationError(message, _clip(self.text), pos)

    def build(self, tree: Any, depth: int = 0) -> Node:
        """The node for Lark's ``tree``, which sits ``depth`` operations deep in the result."""
        from lark import Token, Tree

        if depth > MAX_TREE_DEPTH:
            raise self.fail(
                f"more than {MAX_TREE_DEPTH} operations nested or chained in one expression",
                getattr(tree, "meta", None) if not isinstance(tree, Token) else None,
            )
        if isinstance(tree, Token):  # pragma: no cover - grammar never yields a bare token
            raise self.fail(f"unexpected {tree!s}")
        assert isinstance(tree, Tree)
        kind = str(tree.data)
        ch = tree.children
        if kind == "annotated":
            inner = self.build(ch[0], depth + 1 if len(ch) > 1 else depth)
            notes = tuple(str(c.children[0])[1:-1] for c in ch[1:])
            return Annotated(inner, notes) if notes else inner
        if kind == "literal":
            raw = str(ch[0])
            value: int | Fraction = int(raw) if raw.isdigit() else Fraction(raw)
            return Literal_(value, raw)
        if kind == "dice":
            return self.dice(ch)
        if kind == "set":
            return self.set_(ch, tree.meta, depth)
        if kind == "unary":
            return Unary("-" if str(ch[0]) == "-" else "+", self.build(ch[1], depth + 1))
        if kind in ("sum", "product"):
            # a chain of n operators nests its first operand n deep (a - b - c is (a - b) - c)
            deeper = depth + len(ch) // 2
            node = self.build(ch[0], deeper)
            for op, right in zip(ch[1::2], ch[2::2], strict=True):
                node = Binary(str(op), node, self.build(right, deeper))  # type: ignore[arg-type]
            return node
        if kind == "comparison":
            deeper = depth + len(ch) // 2
            node = self.build(ch[0], deeper)
            for op, right in zip(ch[1::2], ch[2::2], strict=True):
                rnode = self.build(right, deeper)
                if isinstance(node, Dice) and isinstance(rnode, Literal_):
                    if isinstance(rnode.value, Fraction):
                        raise self.fail("a success count compares dice with a whole number")
                    node = SuccessCount(node, str(op), rnode.value)  # type: ignore[arg-type]
                else:
                    node = Compare(str(op), node, rnode)  # type: ignore[arg-type]
            return node
        if kind == "function":
            name = str(ch[0])
            args = tuple(self.build(a, depth + 1) for a in ch[1:])
            if name == "abs" and len(args) != 1:
                raise self.fail(f"abs takes one argument, not {len(args)}")
            if name != "abs" and len(args) < 2:
                raise self.fail(f"{name} takes two or more arguments, not {len(args)}")
            return Function(name, args)  # type: ignore[arg-type]
        raise self.fail(f"unknown form {kind}")  # pragma: no cover

    def ops(self, trees: list[Any], sides: int | None) -> tuple[Op, ...]:
        flat: list[tuple[str, Selector]] = []
        for t in trees:
            kind = str(t.data)
            if kind == "explode_op":
                if sides is None:
                    raise self.fail("'!' explodes dice and cannot follow a set")
                flat.append(("e", Selector("=", sides)))
                continue
            if kind == "minmax_op":
                flat.append((str(t.children[0]), Selector("=", int(t.children[1]))))
                continue
            name = str(t.children[0])
            seltree = t.children[1]
            selkind_tok, value_tok = seltree.children
            selkind: SelectorKind = str(selkind_tok) if selkind_tok is not None else "="  # type: ignore[assignment]
            if name in _ALIASES:
                name, forced = _ALIASES[name]
                if forced is not None:
                    if selkind_tok is not None:
                        raise NotationError(
                            f"'d{forced}' takes a count only, like d{forced}1",
                            _clip(self.text),
                            t.children[0].start_pos,
                        )
                    selkind = forced
            flat.append((name, Selector(selkind, int(value_tok))))
        grouped: list[Op] = []
        for name, sel in flat:
            if grouped and grouped[-1].name == name:
                grouped[-1] = Op(grouped[-1].name, (*grouped[-1].selectors, sel))
            else:
                grouped.append(Op(name, (sel,)))  # type: ignore[arg-type]
        return tuple(grouped)

    def dice(self, ch: list[Any]) -> Dice:
        count_tok, sides_tok, *op_trees = ch
        count = 1 if count_tok is None else int(count_tok)
        raw_sides = str(sides_tok)
        sides = 100 if raw_sides == "%" else int(raw_sides)
        text = f"{'' if count_tok is None else count}d{raw_sides}"
        pos = getattr(sides_tok, "start_pos", None)
        if count > MAX_DICE:
            raise NotationError(
                f"{count} dice is more than the {MAX_DICE} one expression may roll",
                _clip(self.text),
                getattr(count_tok, "start_pos", None),
            )
        if sides < 1:
            raise NotationError(f"a die needs at least one side: {text!r}", _clip(self.text), pos)
        if sides > MAX_SIDES:
            raise NotationError(
                f"a d{sides} has more than the {MAX_SIDES} sides a die may have",
                _clip(self.text),
                pos,
            )
        ops = self.ops(op_trees, sides)
        for op in ops:
            if op.name in ("rr", "e") and op.is_by_value():
                faces = [f for f in range(1, sides + 1) if any(s.matches(f) for s in op.selectors)]
                if len(faces) == sides:
                    verb = "rerolls" if op.name == "rr" else "explodes"
                    raise NotationError(
                        f"{op} {verb} every face of a d{sides}, so the roll never ends",
                        _clip(self.text),
                        pos,
                    )
            elif op.name in ("rr", "e"):
                raise NotationError(
                    f"{op} would {'reroll' if op.name == 'rr' else 'explode'} the highest or "
                    "lowest die forever; use a value such as rr1 or e6",
                    _clip(self.text),
                    pos,
                )
        if op_trees:
            start = sides_tok.start_pos - 1 if count_tok is None else count_tok.start_pos
            text = self.text[start : op_trees[-1].meta.end_pos]
        return Dice(count, sides, ops, text)

    def set_(self, ch: list[Any], meta: Any, depth: int) -> Set_ | Dice:
        items_tree, *op_trees = ch
        items: list[Node] = []
        has_comma = False
        if items_tree is not None:
            for c in items_tree.children:
                if c is None:
                    continue
                if getattr(c, "type", None) == "COMMA":
                    has_comma = True
                    continue
                items.append(self.build(c, depth + 1))
        ops = self.ops(op_trees, None)
        for op in ops:
            if op.name not in ("k", "p"):  # pragma: no cover - grammar allows only k and p
                raise self.fail(f"a set takes only k and p, not {op.name}")
        inner = items[0] if len(items) == 1 and not has_comma else None
        while isinstance(inner, Set_) and inner.is_parenthetical:
            inner = inner.items[0]
        if ops and isinstance(inner, Dice):
            # d20: keep/drop after a parenthesised dice term acts on its dice: (4d6)kh3.
            text = self.text[meta.start_pos : meta.end_pos]
            return Dice(inner.count, inner.sides, inner.ops + ops, text)
        return Set_(tuple(items), ops, len(items) == 1 and not has_comma and not ops)


def _warm() -> None:
    """Load the parser (from Lark's cache of the grammar's tables) and make its lexers now:
    every use of the notation parses, and a first roll or odds should not wait for it."""
    parse("1d6kh1+(2,3)kh1>=max(1,2)")


_warm()

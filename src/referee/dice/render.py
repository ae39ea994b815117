"""Showing a rolled result tree to a person, die by die, in d20's style.

A renderer takes a ``mark`` function that decorates one die's face; plain text strikes dropped
dice with ``~~``, marks explosions with ``!`` and successes with ``*``.

The renderer reads a result tree by its shape (:class:`ShownTree`, :class:`ShownDie`), so it
imports nothing of :mod:`referee.dice.result`, which imports it.

>>> from referee.dice import ScriptedSource, roll
>>> render_plain(roll("4d6kh3", ScriptedSource([1, 6, 5, 2])).tree)
'4d6kh3 (~~1~~, 6, 5, 2)'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from referee.dice.notation import (
    Annotated,
    Binary,
    Compare,
    Dice,
    Function,
    Literal_,
    Node,
    Number,
    Set_,
    SuccessCount,
    Unary,
)


class ShownDie(Protocol):
    """What a renderer reads of one die (:class:`referee.dice.result.RolledDie`)."""

    @property
    def face(self) -> int: ...
    @property
    def rolled(self) -> int: ...
    @property
    def exploded(self) -> bool: ...
    @property
    def success(self) -> bool | None: ...
    @property
    def kept(self) -> bool: ...


D = TypeVar("D", covariant=True)
Die = TypeVar("Die")


class ShownTree(Protocol[D]):
    """What a renderer reads of a result node (:class:`referee.dice.result.Rolled`)."""

    @property
    def node(self) -> Node: ...
    @property
    def value(self) -> Number: ...
    @property
    def children(self) -> Sequence[ShownTree[D]]: ...
    @property
    def dice(self) -> Sequence[D]: ...
    @property
    def kept(self) -> bool: ...


def mark_plain(die: ShownDie) -> str:
    """A die's face in plain text."""
    text = str(die.face)
    if die.rolled != die.face:
        text = f"{die.rolled}→{die.face}"
    if die.exploded:
        text += "!"
    if die.success:
        text += "*"
    return text if die.kept else strike(text)


def render(
    tree: ShownTree[Die],
    mark: Callable[[Die], str],
    text: Callable[[str], str] = str,
    drop: Callable[[str], str] | None = None,
) -> str:
    """The expression with each dice term followed by its dice in parentheses; ``text``
    escapes the expression's own words for the output format (Rich markup, say), ``drop``
    marks a dropped set item (struck with ``~~`` by default)."""
    drop = drop or strike
    node = tree.node
    match node:
        case Dice():
            return f"{text(node.text)} ({', '.join([mark(d) for d in tree.dice])})"
        case SuccessCount():
            dice = ", ".join([mark(d) for d in tree.dice])
            return f"{text(node.dice.text + node.comparator + str(node.target))} ({dice})"
        case Literal_():
            return node.text
        case Annotated():
            notes = " ".join([text(f"[{a}]") for a in node.annotations])
            return f"{render(tree.children[0], mark, text, drop)} {notes}"
        case Unary():
            return f"{node.op}{render(tree.children[0], mark, text, drop)}"
        case Binary() | Compare():
            left = render(tree.children[0], mark, text, drop)
            right = render(tree.children[1], mark, text, drop)
            return f"{left} {text(node.op)} {right}"
        case Function():
            args = [render(c, mark, text, drop) for c in tree.children]
            return f"{node.name}({', '.join(args)})"
        case Set_():
            parts = []
            for item in tree.children:
                shown = render(item, mark, text, drop)
                parts.append(shown if item.kept else drop(shown))
            inner = ", ".join(parts)
            if len(tree.children) == 1 and not node.is_parenthetical:
                inner += ","
            return f"({inner}){''.join(str(op) for op in node.ops)}"
    return str(tree.value)  # pragma: no cover


def strike(text: str) -> str:
    """Plain text's mark for something dropped.

    >>> strike("1")
    '~~1~~'
    """
    return f"~~{text}~~"


def render_plain(tree: ShownTree[ShownDie]) -> str:
    """The result tree in plain text."""
    return render(tree, mark_plain)

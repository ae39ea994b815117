"""Showing a rolled result tree to a person, die by die, in d20's style.

A renderer takes a ``mark`` function that decorates one die's face; plain text strikes dropped
dice with ``~~``, marks explosions with ``!`` and successes with ``*``.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.dice.notation import (
    Annotated,
    Binary,
    Compare,
    Dice,
    Function,
    Literal_,
    Set_,
    SuccessCount,
    Unary,
)
from referee.dice.rolling import Rolled, RolledDie


def mark_plain(die: RolledDie) -> str:
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
    tree: Rolled,
    mark: Callable[[RolledDie], str],
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
            return f"{text(node.text)} ({', '.join(mark(d) for d in tree.dice)})"
        case SuccessCount():
            dice = ", ".join(mark(d) for d in tree.dice)
            return f"{text(node.dice.text + node.comparator + str(node.target))} ({dice})"
        case Literal_():
            return node.text
        case Annotated():
            notes = " ".join(text(f"[{a}]") for a in node.annotations)
            return f"{render(tree.children[0], mark, text, drop)} {notes}"
        case Unary():
            return f"{node.op}{render(tree.children[0], mark, text, drop)}"
        case Binary() | Compare():
            left, right = (render(c, mark, text, drop) for c in tree.children)
            return f"{left} {text(node.op)} {right}"
        case Function():
            return f"{node.name}({', '.join(render(c, mark, text, drop) for c in tree.children)})"
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
    """Plain text's mark for something dropped."""
    return f"~~{text}~~"


def render_plain(tree: Rolled) -> str:
    """The result tree in plain text."""
    return render(tree, mark_plain)

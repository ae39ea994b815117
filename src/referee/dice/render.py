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
    return text if die.kept else f"~~{text}~~"


def render(tree: Rolled, mark: Callable[[RolledDie], str]) -> str:
    """The expression with each dice term followed by its dice in parentheses."""
    node = tree.node
    match node:
        case Dice():
            return f"{node.text} ({', '.join(mark(d) for d in tree.dice)})"
        case SuccessCount():
            dice = ", ".join(mark(d) for d in tree.dice)
            return f"{node.dice.text}{node.comparator}{node.target} ({dice})"
        case Literal_():
            return node.text
        case Annotated():
            notes = " ".join(f"[{a}]" for a in node.annotations)
            return f"{render(tree.children[0], mark)} {notes}"
        case Unary():
            return f"{node.op}{render(tree.children[0], mark)}"
        case Binary() | Compare():
            left, right = (render(c, mark) for c in tree.children)
            return f"{left} {node.op} {right}"
        case Function():
            return f"{node.name}({', '.join(render(c, mark) for c in tree.children)})"
        case Set_():
            parts = []
            for item in tree.children:
                text = render(item, mark)
                parts.append(text if item.kept else f"~~{text}~~")
            inner = ", ".join(parts)
            if len(tree.children) == 1 and not node.is_parenthetical:
                inner += ","
            return f"({inner}){''.join(str(op) for op in node.ops)}"
    return str(tree.value)  # pragma: no cover


def render_plain(tree: Rolled) -> str:
    """The result tree in plain text."""
    return render(tree, mark_plain)

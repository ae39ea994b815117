"""Every wait in the browser tests polls a function, never a bare expression.

Playwright polls a bare expression (``"window.x === 1"``) by handing the string to the page's
``eval`` on each poll after the first, and the table's Content-Security-Policy (``script-src
'self'``) refuses ``eval``: such a wait passes when its condition already holds and fails with an
``EvalError`` when it has to wait, which is to say on a loaded machine. A function
(``"() => window.x === 1"``) is compiled once by the browser's debugger and polls freely.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WAITERS = [*sorted((ROOT / "tests").rglob("*.py")), *sorted((ROOT / "bench").rglob("*.py"))]
A_FUNCTION = re.compile(r"\s*(\(|async\b|function\b|[A-Za-z_$][\w$]*\s*=>)")


def _leading_text(node: ast.expr) -> str | None:
    """The literal text a string argument starts with, or None when it is not a literal."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        first = node.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
    return None


def bare_waits(source: str) -> list[int]:
    """The lines of ``source`` whose ``wait_for_function`` is given a bare expression."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "wait_for_function"
            and node.args
        ):
            continue
        text = _leading_text(node.args[0])
        if text is not None and not A_FUNCTION.match(text):
            found.append(node.lineno)
    return found


def test_the_check_finds_a_bare_expression() -> None:
    assert bare_waits('page.wait_for_function("window.x === 1")') == [1]
    assert bare_waits('page.wait_for_function(f"document.x > {n}")') == [1]
    assert bare_waits('page.wait_for_function("() => window.x === 1")') == []
    assert bare_waits('page.wait_for_function("([s, t]) => s === t", arg=[1, 2])') == []


def test_every_wait_polls_a_function() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in WAITERS
        for line in bare_waits(path.read_text(encoding="utf-8"))
    ]
    assert found == []

"""The house the code lives in (``docs/architecture.md``, "Rooms" and "The contract").

- No module over 600 lines and no function over 80, unless the function says why in a comment
  ``# long: <the reason the rules text gives>`` among its first lines.
- No interface names a game: the command line, the store, the server, the web table, the
  handouts' own machinery and the simulator reach the games through the registry only, so a
  sixth game needs no change to any of them (``docs/new-game.md``). Import-linter keeps them
  from importing a game; this keeps them from naming one (a list of games, a branch on the
  system's name).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [
    *sorted((ROOT / "src" / "referee").rglob("*.py")),
    *sorted((ROOT / "examples").rglob("*.py")),
]
MOST_LINES = 600
MOST_FUNCTION_LINES = 80
REASON = "# long:"

GAMES = ("intrigue", "kingdoms", "zweihander", "ginlane", "hursagmu")
INTERFACES = ("cli", "store", "server", "web", "sim")
"""The interface packages under ``referee``; ``handouts`` too, but for its per-game layouts."""
HANDOUT_MACHINERY = ("__init__.py", "common.py", "pdf.py", "generic.py")


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_no_module_is_over_600_lines() -> None:
    long = [
        f"{_name(p)}: {n} lines"
        for p in SOURCES
        if (n := p.read_text(encoding="utf-8").count("\n")) > MOST_LINES
    ]
    assert long == []


def _long_functions(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    found = []
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        length = (node.end_lineno or node.lineno) - node.lineno + 1
        if length <= MOST_FUNCTION_LINES:
            continue
        head = lines[node.lineno - 1 : node.lineno + 12]
        if not any(line.strip().startswith(REASON) for line in head):
            found.append(f"{_name(path)}:{node.lineno} {node.name}: {length} lines")
    return found


def test_no_function_is_over_80_lines_without_a_reason() -> None:
    assert [f for p in SOURCES for f in _long_functions(p)] == []


def _interface_modules() -> list[Path]:
    base = ROOT / "src" / "referee"
    found = [p for package in INTERFACES for p in sorted((base / package).rglob("*.py"))]
    found += [base / "handouts" / name for name in HANDOUT_MACHINERY]
    return [p for p in found if p.exists()]


def _strings(tree: ast.AST) -> list[ast.Constant]:
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if id(node) not in docstrings
    ]


@pytest.mark.parametrize("path", _interface_modules(), ids=_name)
def test_no_interface_names_a_game(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    named = [
        f"line {node.lineno}: {node.value!r}"
        for node in _strings(tree)
        if node.value in GAMES or node.value.startswith("referee.systems.")
    ]
    assert named == [], f"{_name(path)} names a game instead of asking the registry"

"""The dice package's modules form layers: no two of them import each other (issue 11).

Every import counts, at the top of a module or inside a function, including those only for
type checkers: a cycle through a function-level import is still a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import referee.dice

PACKAGE = Path(referee.dice.__file__).parent


def imports(path: Path) -> set[str]:
    """The sibling modules of the dice package that ``path`` imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            is_sibling = len(parts) > 2 and (PACKAGE / f"{parts[2]}.py").exists()
            if parts[:2] == ["referee", "dice"] and is_sibling:
                found.add(parts[2])
    return found - {path.stem}


def graph() -> dict[str, set[str]]:
    return {p.stem: imports(p) for p in PACKAGE.glob("*.py") if p.stem != "__init__"}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """A cycle in ``edges``, as the list of modules on it, or None."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = "open"
        path.append(module)
        for nxt in sorted(edges.get(module, ())):
            if state.get(nxt) == "open":
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[module] = "done"
        path.pop()
        return None

    for module in sorted(edges):
        if module not in state and (found := visit(module)):
            return found
    return None


def test_no_two_dice_modules_import_each_other() -> None:
    edges = graph()
    assert {"result", "render", "rolling", "probability", "terms"} <= set(edges)
    assert cycle(edges) is None, f"import cycle: {' -> '.join(cycle(edges) or [])}"


def test_the_result_tree_has_a_module_of_its_own() -> None:
    edges = graph()
    assert edges["result"] <= {"notation", "render"}
    assert edges["render"] <= {"notation"}  # render reads the result tree by its shape
    assert "result" in edges["rolling"]


def test_the_cycle_finder_finds_a_cycle() -> None:
    # the check can fail: a function-level import back from render to result is a cycle
    edges = graph()
    edges["render"] = edges["render"] | {"result"}
    found = cycle(edges)
    assert found is not None and found[0] == found[-1] and set(found) == {"render", "result"}

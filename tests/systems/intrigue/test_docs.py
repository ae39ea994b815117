"""docs/systems/intrigue.md: every test and example its coverage table and rulings name exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "systems" / "intrigue.md"
TESTS = Path(__file__).resolve().parent


def _known() -> set[str]:
    """Every test function and test module here."""
    names: set[str] = set()
    for path in TESTS.glob("test_*.py"):
        names.add(path.stem)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names |= {
            node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
        }
    return names


def test_every_test_the_doc_names_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    named = set(re.findall(r"\btest_[a-z0-9_]+\b", text))
    assert named, "the coverage table names no tests"
    known = _known()
    assert sorted(named - known) == []


def test_every_example_the_doc_names_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    for example in re.findall(r"examples/intrigue/[a-z0-9-]+\.yaml", text):
        assert (ROOT / example).exists(), example


def test_every_section_of_the_rules_text_is_in_the_coverage_table() -> None:
    text = DOC.read_text(encoding="utf-8")
    for section in (
        "Skill Rolls",
        "Character Badges",
        "Perception Envelopes",
        "Contingency Envelopes",
        "Languages",
        "Other Skills and Special Abilities",
        "Statistics",
        "Starting Combat",
        "Initiative",
        "Surprise",
        "Combat Actions",
        "Escaping Combat",
        "Multiple Attackers",
        "Doing Damage",
        "Taking Damage",
        "Mental Combat",
        "Mixing Mental and Normal Combat",
    ):
        assert f"| {section}" in text, section

"""The coverage table in docs/systems/zweihander.md names only tests and examples that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[3]
DOC = ROOT / "docs" / "systems" / "zweihander.md"
TESTS = Path(__file__).parent


def test_every_test_named_in_the_docs_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    defined = set()
    for path in TESTS.glob("test_*.py"):
        defined |= set(re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    named = re.findall(r"`(?:[\w/]+\.py::)?(test_\w+?)(…)?`", text)
    assert named, "the docs name no tests"
    missing = [
        name
        for name, ellipsis in named
        if not (any(d.startswith(name) for d in defined) if ellipsis else name in defined)
    ]
    assert missing == []


def test_every_example_named_in_the_docs_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name in re.findall(r"`examples/([\w/.-]+\.yaml)`", text):
        assert (ROOT / "examples" / "zweihander" / name).exists(), name


def test_every_section_of_the_text_is_in_the_coverage_table() -> None:
    text = DOC.read_text(encoding="utf-8")
    for section in (
        "Narrative considerations",
        "Morale checks",
        "Chase",
        "Overland",
        "Wilderness",
        "Reputation",
        "Requisitions",
        "Social",
        "Madness",
        "Corruption",
        "Disorders",
        "Character stable",
    ):
        assert f"| {section}" in text, section

"""docs/systems/ginlane.md names only tests and examples that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "systems" / "ginlane.md"
TESTS = Path(__file__).resolve().parent


def test_every_test_named_in_the_doc_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    defined = set()
    for path in TESTS.glob("test_*.py"):
        defined |= set(re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    named = set(re.findall(r"\b(test_\w+?)(?:`|\b)", text)) - {"test_"}
    named = {n for n in named if not n.endswith(".py") and n not in {"test_tables", "test_rolls"}}
    missing = sorted(n for n in named if n not in defined and not (TESTS / f"{n}.py").exists())
    assert not missing, missing


def test_every_example_named_in_the_doc_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name in set(re.findall(r"examples/([\w/]+\.yaml)", text)):
        assert (ROOT / "examples" / "ginlane" / name).exists() or (
            ROOT / "examples" / name
        ).exists(), name

"""docs/systems/hursagmu.md names only tests and scenarios that exist, and every scenario."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "systems" / "hursagmu.md"
TESTS = ROOT / "tests" / "systems" / "hursagmu"
EXAMPLES = ROOT / "examples" / "hursagmu"


def test_every_named_test_exists() -> None:
    text = DOC.read_text()
    sources = "\n".join(p.read_text() for p in TESTS.glob("test_*.py"))
    names = set(re.findall(r"::(test_[a-z0-9_]+)", text))
    assert names
    for name in names:
        assert f"def {name}" in sources, name
    for star in re.findall(r"::(test_[a-z0-9_]+)\*", text):
        assert f"def {star}" in sources, star


def test_every_scenario_is_in_the_coverage_page_and_exists() -> None:
    text = DOC.read_text()
    for path in EXAMPLES.glob("*.yaml"):
        assert path.name in text, path.name
    for name in re.findall(r"`([a-z0-9-]+\.yaml)`", text):
        assert (EXAMPLES / name).exists() or name in ("ranges.yaml", "skills.yaml"), name

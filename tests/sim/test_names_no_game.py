"""The simulator names no game (issue 27): each game offers its conflicts in its own package
(``System.simulations``), so a sixth game is simulated with no change to ``referee.sim``."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from referee.core import system, systems
from referee.sim.conflicts import CONFLICTS

SIM = Path(__file__).resolve().parents[2] / "src" / "referee" / "sim"


def plain(text: str) -> str:
    """``text`` lower-cased, its accents dropped (Zweihänder is zweihander)."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def test_the_source_of_referee_sim_mentions_no_registered_game() -> None:
    names = {plain(name) for name in systems()}
    names |= {plain(system(name).title) for name in systems()}
    found = []
    for path in sorted(SIM.rglob("*.py")):
        text = plain(path.read_text(encoding="utf-8"))
        found += [
            f"{path.name}: {name}"
            for name in sorted(names)
            if re.search(rf"\b{re.escape(name)}\b", text)
        ]
    assert not found


def test_every_game_offers_its_conflicts_through_the_registry() -> None:
    offered = [name for name in systems() if system(name).simulated_conflicts()]
    assert {"ginlane", "hursagmu", "intrigue", "kingdoms", "zweihander"} <= set(offered)
    assert CONFLICTS["intrigue"].name == "a combat to a knock-out"
    assert set(CONFLICTS) == set(offered)

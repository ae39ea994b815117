"""The tables of Hursagmu's encounter rules, read from data files and validated on load.

- ``data/ranges.yaml``: the three range increment tables of hursagmu-encounters.txt, "Range"
  (attack types, sorcery types, senses), in yards per increment.
- ``data/skills.yaml``: each skill and the attribute it rolls with (a reading, see its header).

>>> RANGE_INCREMENTS["missile weapon"], RANGE_INCREMENTS["Nekelmu"], RANGE_INCREMENTS["vision"]
(10, 2, 100)
>>> SKILL_ATTRIBUTES["defiance"]
'intelligence'
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from importlib import resources
from types import MappingProxyType
from typing import Any

from referee.core import ScenarioError

__all__ = [
    "ATTACK_TYPES",
    "ATTRIBUTES",
    "RANGE_INCREMENTS",
    "SENSES",
    "SKILL_ATTRIBUTES",
    "SORCERY_TYPES",
    "load_ranges",
    "load_skills",
]

ATTRIBUTES = ("dexterity", "intelligence", "strength", "willpower")
"""The attributes the text names: Dex and Int (the two kinds of skill), Strength, Willpower."""


def _read(name: str) -> Any:
    import yaml

    text = resources.files("referee.systems.hursagmu").joinpath("data", name).read_text("utf-8")
    return yaml.safe_load(text)


def _increments(data: Any, key: str, file: str) -> Mapping[str, int]:
    table = data.get(key) if isinstance(data, Mapping) else None
    if not isinstance(table, Mapping) or not table:
        raise ScenarioError(f"{file}: missing table {key!r}", (key,))
    out: dict[str, int] = {}
    for name, yards in table.items():
        if not isinstance(name, str) or isinstance(yards, bool) or not isinstance(yards, int):
            raise ScenarioError(f"{file}: a range increment is a whole number of yards", (key,))
        if yards <= 0:
            raise ScenarioError(f"{file}: range increment {yards} is not positive", (key, name))
        out[name] = yards
    return MappingProxyType(out)


@functools.cache
def load_ranges() -> tuple[Mapping[str, int], Mapping[str, int], Mapping[str, int]]:
    """The attack-type, sorcery-type and sense range increments ("Range"), validated."""
    data = _read("ranges.yaml")
    return (
        _increments(data, "attack_types", "ranges.yaml"),
        _increments(data, "sorcery_types", "ranges.yaml"),
        _increments(data, "senses", "ranges.yaml"),
    )


@functools.cache
def load_skills() -> Mapping[str, str]:
    """Each skill's attribute (``dexterity`` or ``intelligence``), validated."""
    data = _read("skills.yaml")
    table = data.get("skills") if isinstance(data, Mapping) else None
    if not isinstance(table, Mapping) or not table:
        raise ScenarioError("skills.yaml: missing table 'skills'", ("skills",))
    out: dict[str, str] = {}
    for name, attribute in table.items():
        if attribute not in ("dexterity", "intelligence"):
            raise ScenarioError(
                f"skills.yaml: skill {name!r} rolls with {attribute!r}, "
                "not 'dexterity' or 'intelligence'",
                ("skills", str(name)),
            )
        out[str(name)] = str(attribute)
    return MappingProxyType(out)


ATTACK_TYPES, SORCERY_TYPES, SENSES = load_ranges()
RANGE_INCREMENTS: Mapping[str, int] = MappingProxyType({**ATTACK_TYPES, **SORCERY_TYPES, **SENSES})
"""Every ranged ability's increment in yards, from the three tables of "Range"."""
SKILL_ATTRIBUTES: Mapping[str, str] = load_skills()
"""Each skill's attribute: ``dexterity`` (physical) or ``intelligence`` (mental)."""

"""What every game's handouts share: whose sheets a seat prints, and titles.

>>> own_ids({"viewer": "referee", "plays": []}, ["a", "b"])
['a', 'b']
>>> own_ids({"viewer": "ann", "plays": ["b"]}, ["a", "b"])
['b']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from referee.core.events import REFEREE

__all__ = ["is_referee", "own_ids", "title_of"]


def is_referee(observation: Mapping[str, Any]) -> bool:
    """Whether the observation is the referee seat's (it sees, and prints, everything)."""
    return bool(observation["viewer"] == REFEREE)


def own_ids(observation: Mapping[str, Any], ids: Iterable[str]) -> list[str]:
    """Of ``ids``, those whose sheet this seat prints: all for the referee, else its own."""
    if is_referee(observation):
        return list(ids)
    plays = set(observation.get("plays", []))
    return [i for i in ids if i in plays]


def title_of(identifier: str) -> str:
    """A name for a sheet when the state gives only an id.

    >>> title_of("moll_cutpurse")
    'Moll Cutpurse'
    """
    return identifier.replace("_", " ").replace("-", " ").title()

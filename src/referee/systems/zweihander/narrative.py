"""Narrative considerations (house rules, "Combat rules / Narrative considerations").

- Piecemeal armor: its Encumbrance is the Encumbrance of a full armor of the heaviest piece worn.
- Fog, mist & smoke: charging or running may necessitate a Coordination Test to avoid falling.

>>> piecemeal_encumbrance({"leather": 1, "mail": 2, "plate": 3}, ["leather", "plate"])
3
>>> needs_coordination_test("charge", "fog"), needs_coordination_test("walk", "fog")
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.core import RuleError

__all__ = ["OBSCURING", "RUSHING", "needs_coordination_test", "piecemeal_encumbrance"]

OBSCURING = ("fog", "mist", "smoke")
"""What obscures the way: "Fog, mist & smoke"."""
RUSHING = ("charge", "run")
"""The movements the text names: "charging or running"."""


def piecemeal_encumbrance(full_armor: Mapping[str, int], pieces: Sequence[str]) -> int:
    """The Encumbrance of piecemeal armor: that of the full armor of its heaviest piece.

    ``full_armor`` gives each armor type's full-suit Encumbrance (the core book's numbers, as
    entered); ``pieces`` the armor type of each piece worn. No pieces: 0.
    """
    for piece in pieces:
        if piece not in full_armor:
            raise RuleError("Piecemeal armor", f"no full armor {piece!r} to compare with")
    return max((full_armor[p] for p in pieces), default=0)


def needs_coordination_test(movement: str, conditions: str | Sequence[str]) -> bool:
    """True when charging or running through fog, mist or smoke ("may necessitate": the GM may
    waive it)."""
    present = {conditions} if isinstance(conditions, str) else set(conditions)
    return movement.lower() in RUSHING and bool(present & set(OBSCURING))

"""Folding events into the chronicle's state: the procedure's ``evolve`` (DESIGN.md,
"Procedures": the state is a fold over the log, so replaying a log gives the same state).

Each event kind is folded by the rules section that emits it (:data:`FOLDS`); a kind no
section folds (``chronicle.began``, ``chronicle.ended``) leaves the state as it is.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.core import Event
from referee.systems.kingdoms import (
    artha,
    consequences,
    downtime,
    prologue,
    reveal,
    scenes,
    slips,
    structure,
    tie_breaker,
    wound_recovery,
)
from referee.systems.kingdoms.reveal import apply_effect
from referee.systems.kingdoms.state import KingdomsState
from referee.systems.kingdoms.structure import Fold

__all__ = ["FOLDS", "apply_effect", "fold"]

FOLDS: Mapping[str, Fold] = {
    **structure.FOLDS,
    **prologue.FOLDS,
    **slips.FOLDS,
    **scenes.FOLDS,
    **wound_recovery.FOLDS,
    **reveal.FOLDS,
    **artha.FOLDS,
    **tie_breaker.FOLDS,
    **consequences.FOLDS,
    **downtime.FOLDS,
}
"""How each kind of event changes the chronicle, by kind."""


def fold(state: KingdomsState, event: Event) -> KingdomsState:
    """The state after ``event`` (the procedure's ``evolve``): never rolls, never refuses."""
    folding = FOLDS.get(event.kind)
    return state if folding is None else folding(state, event)

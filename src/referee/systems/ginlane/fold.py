"""The fold: the scene after each event (never rolls, never refuses).

Each event kind is folded by the module of the rules section that emits it (its ``FOLDS``);
:func:`evolve` looks the kind up here. An event of a kind the scene does not change (a roll
that misses, a narration) leaves the state as it is.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.core import Event
from referee.systems.ginlane import (
    aspects,
    between_scenes,
    blocks,
    consequences,
    defence,
    grapple,
    grenades,
    manoeuvres,
    turns,
    zones,
)
from referee.systems.ginlane.scene import SceneFold, SceneState

__all__ = ["FOLDS", "SECTIONS", "evolve"]

SECTIONS: Mapping[str, Mapping[str, SceneFold]] = {
    "turns": turns.FOLDS,
    "zones": zones.FOLDS,
    "defence": defence.FOLDS,
    "manoeuvres": manoeuvres.FOLDS,
    "blocks": blocks.FOLDS,
    "grapple": grapple.FOLDS,
    "grenades": grenades.FOLDS,
    "consequences": consequences.FOLDS,
    "aspects": aspects.FOLDS,
    "between_scenes": between_scenes.FOLDS,
}
"""Each section's folds, by the module of the section."""

FOLDS: Mapping[str, SceneFold] = {
    kind: fold for folds in SECTIONS.values() for kind, fold in folds.items()
}
"""The fold of every event kind that changes the scene (each kind folded in one section)."""


def evolve(state: SceneState, event: Event) -> SceneState:
    """The scene after ``event``: the fold of its kind, or the scene as it was."""
    fold = FOLDS.get(event.kind)
    return state if fold is None else fold(state, event.data)

"""Stress and consequences in play: a hit marked on a track, less the consequences taken.

Gin Lane, "Stress Tracks", "Taken Out", "Consequences". The tracks themselves are
:mod:`referee.systems.ginlane.stress`.
Each function takes a :class:`~referee.core.Builder` (the events so far,
folded), the action and the dice; it emits events or raises :class:`~referee.core.RuleError`.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.core import (
    Builder,
    RuleError,
)
from referee.systems.ginlane import actions as acts
from referee.systems.ginlane import events as ev
from referee.systems.ginlane.scene import (
    Combatant,
    SceneState,
)
from referee.systems.ginlane.stress import (
    TakenConsequence,
)
from referee.systems.ginlane.tables import consequence as consequence_row


def take_stress(
    b: Builder[SceneState],
    attacker: Combatant,
    target: Combatant,
    stress: int,
    track: str,
    chosen: Sequence[acts.Consequence],
) -> None:
    """Stress on a track, less any consequences the target takes ("Consequences")."""
    if stress <= 0:
        if chosen:
            raise RuleError("Consequences", "a consequence is taken against a stress hit")
        return
    left = stress
    for item in chosen:
        now = b.state.get(target.id)
        taken = TakenConsequence(
            severity=item.severity,
            aspect=item.aspect,
            track=track,
            inflicted_by=attacker.side,
            replaces=item.replaces,
        )
        now.consequences.take(taken)  # refuses a full slot
        if taken.replaces and str(taken.replaces).lower() not in (
            a.lower() for a in now.sheet.aspects
        ):
            raise RuleError("Consequences", f"{now.id} has no Aspect {taken.replaces!r} to replace")
        left = max(0, left - consequence_row(taken.severity).mitigates)
        b.emit(
            ev.CONSEQUENCE_TAKEN,
            {
                "character": target.id,
                "severity": taken.severity,
                "aspect": taken.aspect,
                "track": track,
                "mitigates": consequence_row(taken.severity).mitigates,
                "inflicted_by": attacker.side,
                "replaces": taken.replaces,
            },
        )
    if left <= 0:
        return
    now = b.state.get(target.id)
    _, hit = now.track(track).hit(left)
    b.emit(
        ev.STRESS_TAKEN,
        {"character": target.id, "track": track, **hit.to_json()},
    )
    if hit.taken_out:
        b.emit(ev.TAKEN_OUT, {"character": target.id, "by": attacker.id})

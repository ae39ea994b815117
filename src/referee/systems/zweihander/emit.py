"""Building a step's events while folding them, so later rules in the step see earlier effects.

A rule such as "when Pursuit Value ≥ Escape Value, immediately lower it" needs the state after
the move that caused it; :class:`Emitter` keeps the state folded as events are emitted.

>>> from referee.systems.zweihander.state import ZweihanderState
>>> e = Emitter(ZweihanderState(fortune_points=1), lambda s, ev: s)
>>> e.emit("party.noted", {"why": "example"}).kind
'party.noted'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

from referee.core import EVERYONE, Audience, CheckResult, Event, Secret
from referee.systems.zweihander.character import Character
from referee.systems.zweihander.percentile import SkillTest, difficulty_name
from referee.systems.zweihander.state import ZweihanderState, character_changes

__all__ = ["Emitter", "odds_json", "test_json"]


def odds_json(test: SkillTest) -> dict[str, str]:
    """The exact odds of a test before it is rolled: each outcome's probability, as "n/d"."""
    odds = test.odds()
    out = {o.value: str(p) for o, p in odds.outcomes.items()}
    out["success (any)"] = str(odds.success)
    return out


def test_json(test: SkillTest, result: CheckResult, skill: str = "") -> dict[str, Any]:
    """A rolled test as an event payload: the test, its odds, the dice and the outcome."""
    return {
        "skill": skill,
        "base_chance": test.base_chance,
        "difficulty": test.difficulty,
        "difficulty_rating": _rating(test.difficulty),
        "total_chance": test.total_chance,
        "assist": test.assist,
        "odds": odds_json(test),
        "faces": list(result.faces),
        "face": result.value,
        "margin": result.margin,
        "outcome": result.outcome.value,
    }


def _rating(modifier: int) -> str:
    try:
        return difficulty_name(modifier)
    except Exception:
        return f"{modifier:+d}"


def percent(p: Fraction) -> str:
    """A probability as a percentage, for people."""
    return f"{float(p) * 100:.1f}%"


class Emitter:
    """Events of one step, with the state folded after each."""

    def __init__(
        self,
        state: ZweihanderState,
        evolve: Callable[[ZweihanderState, Event], ZweihanderState],
    ) -> None:
        self.state = state
        self._evolve = evolve
        self.events: list[Event] = []

    def emit(
        self,
        kind: str,
        payload: Mapping[str, Any] | None = None,
        *,
        characters: Iterable[Character] = (),
        secrets: tuple[Secret, ...] = (),
        audience: Audience = EVERYONE,
    ) -> Event:
        """Emit an event; ``characters`` are the new versions of characters it changes."""
        data = dict(payload or {})
        changes = {}
        for after in characters:
            diff = character_changes(self.state.character(after.id), after)
            if diff:
                changes[after.id] = diff
        if changes:
            data["characters"] = changes
        event = Event(kind, data, audience=audience, secrets=secrets)
        self.events.append(event)
        self.state = self._evolve(self.state, event)
        return event

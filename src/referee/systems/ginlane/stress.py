"""Stress tracks, Taken Out, and Consequences (Gin Lane, "Stress Tracks", "Consequences").

*Hit for N stress? So tick off the Nth Stress box. If the Nth box is already used then the
damage rolls up to the next free box. If N is greater than the length of the Stress track, or
has rolled past the end of the track the character is Taken Out.*

>>> track = StressTrack.empty("Health", 5)
>>> track, hit = track.hit(2)
>>> track, hit = track.hit(2)
>>> hit.box, track.marked
(3, (2, 3))
>>> track.hit(6)[1].taken_out
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from referee.core import RuleError
from referee.core.values import evolved
from referee.systems.ginlane.tables import consequence as consequence_row
from referee.systems.ginlane.tables import consequences as consequence_rows

__all__ = [
    "MAX_CONSEQUENCES",
    "TRACKS",
    "Consequences",
    "StressHit",
    "StressTrack",
    "TakenConsequence",
    "mitigation",
]

TRACKS = ("Health", "Composure", "Wealth")
"""The three stress tracks: Health (physical), Composure (mental), Wealth."""

MAX_CONSEQUENCES = 3
"""Characters have three consequence slots (RULINGS.md: at most one of each severity)."""


@dataclass(frozen=True)
class StressHit:
    """What a hit did: the box ticked (1-based, ``None`` if none), and whether Taken Out."""

    stress: int
    box: int | None
    taken_out: bool

    def to_json(self) -> dict[str, Any]:
        """Plain JSON."""
        return {"stress": self.stress, "box": self.box, "taken_out": self.taken_out}


@dataclass(frozen=True)
class StressTrack:
    """A track of boxes: ``boxes[i]`` is True when box ``i + 1`` is ticked."""

    name: str
    boxes: tuple[bool, ...]

    @classmethod
    def empty(cls, name: str, length: int) -> StressTrack:
        """A clear track of ``length`` boxes."""
        if name not in TRACKS:
            raise RuleError("Stress Tracks", f"no track {name!r} ({', '.join(TRACKS)})")
        return cls(name, (False,) * length)

    @property
    def length(self) -> int:
        """Number of boxes."""
        return len(self.boxes)

    @property
    def marked(self) -> tuple[int, ...]:
        """The ticked boxes, 1-based."""
        return tuple(i + 1 for i, ticked in enumerate(self.boxes) if ticked)

    def hit(self, stress: int) -> tuple[StressTrack, StressHit]:
        """Tick box ``stress`` (only that box), rolling up to the next free one.

        A hit of 0 or less ticks nothing. Past the end: Taken Out, and nothing is ticked.
        """
        if stress <= 0:
            return self, StressHit(stress, None, False)
        for box in range(stress, self.length + 1):
            if not self.boxes[box - 1]:
                boxes = tuple(t or i == box - 1 for i, t in enumerate(self.boxes))
                return evolved(self, boxes=boxes), StressHit(stress, box, False)
        return self, StressHit(stress, None, True)

    def cleared(self) -> StressTrack:
        """The track with every box clear ("Stress Recovery")."""
        return evolved(self, boxes=(False,) * self.length)

    def to_json(self) -> dict[str, Any]:
        """``{"length", "marked"}``."""
        return {"length": self.length, "marked": list(self.marked)}


@dataclass(frozen=True)
class TakenConsequence:
    """A consequence taken: a taggable temporary Aspect of a severity.

    ``track`` the kind of stress it absorbed; ``inflicted_by`` whose side may tag it once for
    free (Fate 3, parent-games.md); ``recovered_days`` days of recovery so far under the
    circumstances it needs; ``replaces`` for an extreme one, the character Aspect it replaces.
    """

    severity: str
    aspect: str
    track: str = "Health"
    inflicted_by: str | None = None
    recovered_days: int = 0
    replaces: str | None = None

    @property
    def mitigates(self) -> int:
        """Stress it absorbs: slight 2, moderate 4, heavy 6, extreme 8."""
        return consequence_row(self.severity).mitigates

    @property
    def days(self) -> int | None:
        """Days of recovery it needs (``None``: permanent)."""
        return consequence_row(self.severity).days

    @property
    def is_permanent(self) -> bool:
        """True for an extreme consequence."""
        return self.days is None


def mitigation(severities: Iterable[str]) -> int:
    """Stress absorbed by taking these consequences.

    >>> mitigation(["slight", "moderate"])
    6
    """
    return sum(consequence_row(s).mitigates for s in severities)


@dataclass(frozen=True)
class Consequences:
    """A character's consequence slots: at most three, at most one of each severity."""

    taken: tuple[TakenConsequence, ...] = ()

    def take(self, consequence: TakenConsequence) -> Consequences:
        """Fill a slot; :class:`RuleError` if the slots or that severity are used."""
        consequence_row(consequence.severity)
        if len(self.taken) >= MAX_CONSEQUENCES:
            raise RuleError("Consequences", "all three consequence slots are full")
        if any(c.severity == consequence.severity for c in self.taken):
            raise RuleError("Consequences", f"already has a {consequence.severity} consequence")
        if consequence.severity == "extreme" and not consequence.replaces:
            raise RuleError("Consequences", "an extreme consequence replaces a character Aspect")
        return evolved(self, taken=(*self.taken, consequence))

    def free_severities(self) -> tuple[str, ...]:
        """Severities still open."""
        if len(self.taken) >= MAX_CONSEQUENCES:
            return ()
        used = {c.severity for c in self.taken}
        return tuple(c.severity for c in consequence_rows() if c.severity not in used)

    def recover(self, days: int, *, aspect: str | None = None) -> Consequences:
        """``days`` of recovery under the needed circumstances (rest, treatment...).

        Only the consequence named by ``aspect`` recovers (all, if ``None``); one whose days
        are done is removed; an extreme one never goes. Days without the circumstances are not
        recovery: do not count them.
        """
        kept = []
        for c in self.taken:
            if aspect is None or c.aspect.lower() == aspect.lower():
                c = evolved(c, recovered_days=c.recovered_days + days)
            if c.days is not None and c.recovered_days >= c.days:
                continue
            kept.append(c)
        return evolved(self, taken=tuple(kept))

    def aspects(self) -> tuple[str, ...]:
        """The consequences' Aspects (they are taggable)."""
        return tuple(c.aspect for c in self.taken)

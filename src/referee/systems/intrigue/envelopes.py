"""Perception Envelopes and Contingency Envelopes, as values and pure functions.

Rules text (Intrigue in the Clouds), "Perception Envelopes" and "Contingency Envelopes".

The text's example: two envelopes, "Give to ALL with a Roll of 16 or more" and "Give to
Character 12, 20 or 32, if they Roll 14 or more".

>>> to_all = PerceptionEnvelope("a", "holder", ALL, 16, "secret A")
>>> to_some = PerceptionEnvelope("b", "holder", ("12", "20", "32"), 14, "secret B")
>>> [e.id for e in envelopes_handed_over((to_all, to_some), "15", 18)]
['a']
>>> [e.id for e in envelopes_handed_over((to_all, to_some), "12", 18)]
['a', 'b']
>>> envelopes_handed_over((to_all, to_some), "12", 13)
()
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeAlias

from referee.core import GameTime
from referee.systems.intrigue.characters import CharacterId

__all__ = [
    "ALL",
    "ENCOUNTER_STRENGTH",
    "Condition",
    "ConditionKind",
    "ContingencyEnvelope",
    "EnvelopeId",
    "PerceptionEnvelope",
    "encounter_meets",
    "envelopes_handed_over",
    "is_for",
]

EnvelopeId: TypeAlias = str
"""An envelope's id in the game file."""

ALL: tuple[str, ...] = ("ALL",)
"""The envelope marked "ALL": given to every character whose roll is high enough."""


@dataclass(frozen=True)
class PerceptionEnvelope:
    """A sealed Perception Envelope carried by ``holder``.

    ``given_to`` is :data:`ALL` or the Character Numbers written on it; ``target`` its Target
    Number; ``contents`` what the perceiver reads; ``directions`` any directions inside "which
    you must follow". Contents and directions are inside the envelope: only a perceiver who
    qualifies (and the referee) ever sees them — never the holder.
    """

    id: EnvelopeId
    holder: CharacterId
    given_to: tuple[str, ...]
    target: int
    contents: str
    directions: str = ""

    @property
    def label(self) -> str:
        """What is written on the outside, in the text's words."""
        if self.given_to == ALL:
            return f"Give to ALL with a Roll of {self.target} or more"
        return f"Give to Character {', '.join(self.given_to)}, if they Roll {self.target} or more"


def is_for(envelope: PerceptionEnvelope, number: str) -> bool:
    """True if the envelope "has your Character Number ... on it or is marked ALL"."""
    return envelope.given_to == ALL or number in envelope.given_to


def envelopes_handed_over(
    envelopes: Iterable[PerceptionEnvelope], number: str, total: int
) -> tuple[PerceptionEnvelope, ...]:
    """The envelopes a perceiver with Character Number ``number`` and ``total`` is given.

    "The character must give you any envelope that has your Character Number ... on it or is
    marked ALL, provided that you have matched or exceeded the Target Number" (≥).
    """
    return tuple(e for e in envelopes if is_for(e, number) and total >= e.target)


class ConditionKind(enum.Enum):
    """What opens a Contingency Envelope ("Contingency Envelopes").

    ``AT``: "Open at nine o'clock"; ``EVENT``: "Open if shot" (an event the holder reports);
    ``SEE``, ``MEET``, ``TALK``: "Open if you see / meet / talk to character 53" — three different
    conditions.
    """

    AT = "at"
    EVENT = "event"
    SEE = "see"
    MEET = "meet"
    TALK = "talk"


ENCOUNTER_STRENGTH = {ConditionKind.SEE: 1, ConditionKind.MEET: 2, ConditionKind.TALK: 3}
"""Ruling: talking to a character is also meeting and seeing them; meeting is also seeing."""


def encounter_meets(condition: ConditionKind, reported: ConditionKind) -> bool:
    """True if an encounter reported as ``reported`` meets an envelope's ``condition``.

    >>> encounter_meets(ConditionKind.SEE, ConditionKind.TALK)
    True
    >>> encounter_meets(ConditionKind.TALK, ConditionKind.SEE)
    False
    """
    if condition not in ENCOUNTER_STRENGTH or reported not in ENCOUNTER_STRENGTH:
        return False
    return ENCOUNTER_STRENGTH[reported] >= ENCOUNTER_STRENGTH[condition]


@dataclass(frozen=True)
class Condition:
    """The condition on the front of a Contingency Envelope.

    ``at`` (game time) for :attr:`ConditionKind.AT`; ``event`` ("shot") for ``EVENT``;
    ``character`` (a Character Number) for ``SEE``, ``MEET``, ``TALK``.
    """

    kind: ConditionKind
    at: GameTime | None = None
    event: str = ""
    character: str = ""
    clock: str = ""
    """For ``AT``: the time as the envelope's front reads it ("21:00"), if known."""

    @property
    def label(self) -> str:
        """The condition as written on the envelope."""
        if self.kind is ConditionKind.AT:
            return f"Open at {self.clock}" if self.clock else f"Open at game time {self.at}s"
        if self.kind is ConditionKind.EVENT:
            return f"Open if {self.event}"
        verb = {"see": "see", "meet": "meet", "talk": "talk to"}[self.kind.value]
        return f"Open if you {verb} character {self.character}"

    def met_by_event(self, event: str) -> bool:
        """True if the holder's report of ``event`` ("shot") meets this condition."""
        return self.kind is ConditionKind.EVENT and event.casefold() == self.event.casefold()

    def met_by_encounter(self, number: str, how: ConditionKind) -> bool:
        """True if the holder's ``how`` (see/meet/talk) of character ``number`` meets it."""
        return number == self.character and encounter_meets(self.kind, how)


@dataclass(frozen=True)
class ContingencyEnvelope:
    """A sealed Contingency Envelope: "only to be opened when the condition on the front of
    them is met". The holder reads ``contents`` on opening, not before."""

    id: EnvelopeId
    holder: CharacterId
    condition: Condition
    contents: str

"""The state of a Zweihänder table: characters, the party's pools, and the scene in play.

Immutable values only. The state is a fold of events (see :mod:`.procedure`); every event that
changes a character carries the changed fields under ``"characters"`` (:func:`character_changes`),
which :func:`apply_character_changes` folds in, whatever the event's kind.

>>> from referee.systems.zweihander.character import Character
>>> s = ZweihanderState(characters=(Character("anna"),))
>>> s.character("anna").peril
0
>>> apply_character_changes(s, {"anna": {"peril": 2}}).character("anna").peril_condition
'Ignore 1 Skill Rank'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from referee.core import RuleError
from referee.core.values import evolved
from referee.systems.zweihander.character import Character

__all__ = [
    "ChaseState",
    "ExchangeState",
    "JourneyState",
    "Participant",
    "Stretch",
    "ZweihanderState",
    "apply_character_changes",
    "character_changes",
]

_FIELDS = tuple(f.name for f in fields(Character) if f.name != "id")
"""A character's fields but its id, in the order the class gives them."""


def character_changes(before: Character, after: Character) -> dict[str, Any]:
    """The fields that differ between two versions of a character (JSON values).

    >>> character_changes(Character("a", peril=1), Character("a", peril=3, corruption=2))
    {'peril': 3, 'corruption': 2}
    """
    out: dict[str, Any] = {}
    for name in _FIELDS:
        old, new = getattr(before, name), getattr(after, name)
        if old != new:
            out[name] = list(new) if isinstance(new, tuple) else new
    return out


@dataclass(frozen=True)
class Participant:
    """A participant in a chase: side, mode of transport, Movement, Escape/Pursuit Value, status.

    ``status`` is "in", "taken down", "exhausted", "slain", "escaped" or "gave up"; ``caught``
    the escapee a pursuer has caught up with (and may attempt a Takedown on); ``tackled`` the
    escapee a pursuer attempted a Takedown on this Round.
    """

    id: str
    side: str
    mode: str
    movement: int
    value: int = 0
    initiative: int | None = None
    moved: bool = False
    acted: bool = False
    status: str = "in"
    caught: str | None = None
    tackled: str | None = None

    @property
    def is_in(self) -> bool:
        """True while the participant is still in the chase."""
        return self.status == "in"


@dataclass(frozen=True)
class ChaseState:
    """A chase in play (house rules, "Chase scene rules"): the ladder, the round, the ending,
    and the Complications that arose in it (``(round, escapee)`` each: the GM describes them)."""

    participants: tuple[Participant, ...]
    escape_rounds: int
    takedown_difficulty: int = 0
    head_start: str | None = None
    round: int = 1
    current: str | None = None
    ended: str | None = None
    complications: tuple[tuple[int, str], ...] = ()

    def participant(self, pid: str) -> Participant:
        """The participant ``pid``; :class:`RuleError` if not in this chase."""
        for p in self.participants:
            if p.id == pid:
                return p
        raise RuleError("Chase scene", f"{pid!r} is not in the chase")

    def with_participant(self, new: Participant) -> ChaseState:
        """This chase with one participant replaced."""
        return evolved(
            self, participants=tuple(new if p.id == new.id else p for p in self.participants)
        )

    def side(self, side: str) -> tuple[Participant, ...]:
        """The participants of one side ("escapee" or "pursuer"), in ladder order."""
        return tuple(p for p in self.participants if p.side == side)


@dataclass(frozen=True)
class Stretch:
    """A Stretch of a journey as the route gives it (house rules, "Wilderness travel rules").

    ``terrain`` is a Difficulty Rating modifier (bad weather already counted when started);
    ``threat`` the number of Chaos Dice (0–3); ``days`` the days of travel; ``conveyed`` True
    when the party does not go on foot (an Assist Die on Toughness Tests).
    """

    name: str
    length: str
    terrain: int
    threat: int
    days: int
    conveyed: bool = False
    bad_weather: bool = False


@dataclass(frozen=True)
class JourneyState:
    """A journey in play: the stretches, where the party is, and what the Role Checks set."""

    travellers: tuple[str, ...]
    stretches: tuple[Stretch, ...]
    index: int = 0
    phase: str = "roles"
    terrain: int = 0
    threat: int = 0
    provisions_per_day: int = 1
    toughness_tests_left: int = 0
    camp_recovery: str = "Imperiled"
    unhindered_at_camp: tuple[str, ...] = ()
    surprise: str | None = None
    days: int = 0
    provisions: int = 0
    encounters: int = 0
    ended: bool = False

    @property
    def stretch(self) -> Stretch:
        """The Stretch being travelled."""
        return self.stretches[self.index]


@dataclass(frozen=True)
class ExchangeState:
    """A Complex Exchange in play. ``favourable``/``unfavourable`` are the GM's secret Skills:
    they reach this state only from the secret parts of events (the referee's view)."""

    npc: str
    disposition: str
    npc_alignment: str
    npc_class: str
    participants: tuple[str, ...]
    objectives: str = ""
    stakes: str = ""
    favourable: str | None = None
    unfavourable: str | None = None
    tested: tuple[str, ...] = ()
    results: tuple[tuple[str, str], ...] = ()
    ended: bool = False


@dataclass(frozen=True)
class ZweihanderState:
    """A whole table: characters, Fortune Points, stables, requisitions pending, scenes.

    ``travel_hours`` counts the hours journeys have taken (camps, Stretches); ``waits`` are the
    periods still running in that count (:mod:`.waits`)."""

    characters: tuple[Character, ...] = ()
    fortune_points: int = 0
    stables: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    requisitions_pending: tuple[str, ...] = ()
    no_recovery: tuple[str, ...] = ()
    chase: ChaseState | None = None
    journey: JourneyState | None = None
    exchange: ExchangeState | None = None
    session: int = 1
    travel_hours: int = 0
    waits: tuple[tuple[str, int], ...] = ()

    def character(self, cid: str) -> Character:
        """The character ``cid``; :class:`RuleError` if there is none."""
        for c in self.characters:
            if c.id == cid:
                return c
        known = ", ".join(c.id for c in self.characters) or "none"
        raise RuleError("Characters", f"no character {cid!r} (known: {known})")

    def with_character(self, new: Character) -> ZweihanderState:
        """This state with one character replaced."""
        return evolved(
            self, characters=tuple(new if c.id == new.id else c for c in self.characters)
        )


def apply_character_changes(state: ZweihanderState, changes: Any) -> ZweihanderState:
    """Fold an event's ``"characters"`` part: ``{id: {field: new value}}``.

    A field a character does not have is refused, naming it (a log written by another version
    of the rules, or by hand): folding on without it would give a state the log never said.

    >>> from referee.systems.zweihander.character import Character
    >>> s = ZweihanderState(characters=(Character("anna"),))
    >>> apply_character_changes(s, {"anna": {"sanity": 3}})
    Traceback (most recent call last):
    ...
    referee.core.errors.RuleError: Characters: an event changes anna's 'sanity', which is no \
field of a character (fields: ...)
    """
    if not isinstance(changes, Mapping):
        return state
    for cid, fields_ in changes.items():
        if not isinstance(fields_, Mapping):
            continue
        c = state.character(str(cid))
        unknown = sorted(str(k) for k in fields_ if k not in _FIELDS)
        if unknown:
            raise RuleError(
                "Characters",
                f"an event changes {cid}'s {', '.join(map(repr, unknown))}, which is no field "
                f"of a character (fields: {', '.join(sorted(_FIELDS))})",
            )
        updates: dict[str, Any] = {
            k: tuple(v) if isinstance(v, list | tuple) else v for k, v in fields_.items()
        }
        state = state.with_character(evolved(c, **updates))
    return state

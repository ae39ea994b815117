"""The state of an encounter and its turn order (hursagmu-encounters.txt, "Conflict",
"Initiative", "Action", "Waiting").

An :class:`Encounter` holds the Master's :class:`Options`, each character as a :class:`Fighter`
(the sheet, hits left, and the round's record), the round and its phase, and any attack waiting
for its target's answer (:class:`Pending`). :func:`on_turn` says who may act now: the highest
(rank, Initiative) of the next declared step among those not waiting.

>>> state = Encounter(Options(), {"bob": Fighter(Character("bob"), 10, initiative=7)},
...                   phase="action")
>>> on_turn(state)
('bob',)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from referee.core import RuleError
from referee.core.remembered import by_identity
from referee.core.values import evolved
from referee.systems.hursagmu.movement import movement_rate
from referee.systems.hursagmu.rounds import (
    DefenceMode,
    DefenceResponse,
    RoundPlan,
    ScheduledStep,
    Step,
    StepKind,
    schedule,
    skill_penalty,
)
from referee.systems.hursagmu.sheet import Character, SkillRoll, Stance

__all__ = [
    "HELD",
    "ROUND_SECONDS",
    "WAITED",
    "Encounter",
    "Fighter",
    "Options",
    "Pending",
    "can_take_turn",
    "next_index",
    "next_key",
    "on_turn",
]

ROUND_SECONDS = 6
""""Time is measured in rounds, with each round being equal to about six seconds." """

HELD = 2
"""Order rank of a character who holds his action over or opens round zero: first."""
WAITED = 1
"""Order rank of the waiting game's players: "the initiative over characters who acted"."""


@dataclass(frozen=True)
class Options:
    """The Master's options: how defences count ("Action": each, or cinematic), the damage roll
    (RULINGS.md: 2d6 or 1d6) and charge momentum ("Movement", an optional rule; off by default).

    >>> Options().defence.value, Options().damage_roll, Options().charge_momentum
    ('each', '2d6', False)
    """

    defence: DefenceMode = DefenceMode.EACH
    damage_roll: str = "2d6"
    charge_momentum: bool = False


_WORKED_OUT = frozenset({"_scheduled", "_penalty"})
"""What a :class:`Fighter` remembers beside its fields (:meth:`Fighter.penalty`)."""


@dataclass(frozen=True)
class Fighter:
    """A character in the encounter: the sheet, the hits left, and this round's record ("Conflict").

    ``stance`` and ``initiative`` come from the Initiative phase; ``rank`` orders before the
    Initiative (2: holding over or opening round zero, 1: the waiting game); ``plan`` is the
    round's declared steps and ``next_step`` the next one to take; ``acted``/``injured`` decide
    Recovery; ``pushed`` is pushing power this round; ``task`` a multi-round action under way;
    ``held_over`` and ``held_initiative``: he held his action over from last round, at that
    Initiative.
    """

    sheet: Character
    hits: int
    conscious: bool = True
    health_ok: bool = True
    sanity_ok: bool = True
    stance: Stance | None = None
    initiative: int | None = None
    rank: int = 0
    plan: tuple[Step, ...] | None = None
    next_step: int = 0
    defences_used: int = 0
    acted: bool = False
    injured: bool = False
    waiting: bool = False
    holding: bool = False
    held_over: bool = False
    held_initiative: int = 0
    waited_game: bool = False
    surprised: bool = False
    pushed: int = 0
    yards_moved: int = 0
    task: str | None = None
    task_rounds: int = 0
    task_engrossing: bool = False
    asleep: bool = False
    prone: bool = False
    mounted: bool = False

    @property
    def rate(self) -> Fraction:
        """Yards per movement action on foot (encumbrance)."""
        return movement_rate(self.sheet.max_lift, self.sheet.load)

    def round_plan(self, mode: DefenceMode) -> RoundPlan | None:
        """The declared plan as a :class:`RoundPlan`."""
        if self.plan is None:
            return None
        return RoundPlan(
            self.plan,
            rate=self.rate,
            mount=self.sheet.mount,
            mode=mode,
            max_lift=self.sheet.max_lift,
            load=self.sheet.load,
        )

    def scheduled(self, mode: DefenceMode) -> tuple[ScheduledStep, ...]:
        """The plan's steps with their Initiatives."""
        known = self.__dict__.get("_scheduled")
        if known is None or known[0] is not mode:
            plan = self.round_plan(mode)
            known = (mode, () if plan is None else schedule(plan, self.initiative or 0))
            self.__dict__["_scheduled"] = known  # see :meth:`penalty`
        steps: tuple[ScheduledStep, ...] = known[1]
        return steps

    def penalty(self, mode: DefenceMode) -> int:
        """This round's skill penalty.

        It and :meth:`scheduled` are worked out once per fighter and mode, and kept beside the
        frozen fields: whose turn it is, every roll and every choice read them, many times a
        step, and a fighter is a new value whenever anything of his changes (``replace``
        builds it afresh, without what the old one remembered)."""
        known = self.__dict__.get("_penalty")
        if known is None or known[0] is not mode:
            plan = self.round_plan(mode)
            known = (mode, 0 if plan is None else skill_penalty(plan))
            self.__dict__["_penalty"] = known
        penalty: int = known[1]
        return penalty

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle (a store's snapshot, a copy) keeps: the fields, not the schedule and
        penalty worked out from them (:meth:`penalty`), so that a snapshot is the same bytes
        whether or not they were asked for."""
        return {k: v for k, v in self.__dict__.items() if k not in _WORKED_OUT}

    @property
    def strength(self) -> int:
        """Strength with pushed power."""
        return self.sheet.strength + self.pushed

    @property
    def willpower(self) -> int:
        """Willpower with pushed power."""
        return self.sheet.willpower + self.pushed

    def roll_of(self, skill: str, mode: DefenceMode, extra: int = 0) -> SkillRoll:
        """The roll of ``skill`` this round: penalty included, pushed power for Str and Wil."""
        roll = self.sheet.skill_roll(skill, self.penalty(mode) + extra)
        if skill.lower() in ("strength", "willpower"):
            roll = evolved(roll, attribute=roll.attribute + self.pushed)
        return roll


@dataclass(frozen=True)
class Pending:
    """An attack waiting for its target to defend or take the hit ("If a character is attacked
    before his turn, he may choose to make a defensive action regardless of Initiative")."""

    attacker: str
    target: str
    skill: str
    challenge: int
    response: DefenceResponse


@dataclass(frozen=True)
class Encounter:
    """The state of an encounter: options, characters, the round and its phase ("Conflict").

    >>> Encounter(Options(), {"bob": Fighter(Character("bob"), 10)}).phase
    'initiative'
    """

    options: Options
    fighters: Mapping[str, Fighter]
    round: int = 1
    phase: str = "initiative"
    pending: Pending | None = None
    started: bool = False
    clock: tuple[int, int] | None = None
    """The (rank, Initiative) the round has reached: the last step taken in turn."""
    round_zero: bool = False
    """Whether the conflict began with a round zero (which counts its six seconds too)."""

    @property
    def elapsed_seconds(self) -> int:
        """Six seconds a round ("Conflict"), round zero included, up to this round's start.

        >>> Encounter(Options(), {}, round=3).elapsed_seconds
        12
        """
        played = self.round - 1 + (1 if self.round_zero else 0)
        return max(0, played) * ROUND_SECONDS

    def fighter(self, who: str) -> Fighter:
        """The fighter ``who``, or a :class:`RuleError`."""
        if who not in self.fighters:
            known = ", ".join(self.fighters)
            raise RuleError("Encounter", f"no character {who!r} (known: {known})")
        return self.fighters[who]

    def with_fighter(self, who: str, **changes: Any) -> Encounter:
        """A copy with ``who`` changed."""
        fighters = dict(self.fighters)
        fighters[who] = evolved(fighters[who], **changes)
        return evolved(self, fighters=fighters)


# ------------------------------------------------------------------------------- turn order


def next_key(state: Encounter, who: str) -> tuple[int, int] | None:
    """The (rank, Initiative) of ``who``'s next turn this round, or ``None`` if nothing is left.

    Defences happen when attacked and Haste has no place, so neither makes a turn.
    """
    f = state.fighters[who]
    if state.phase != "action" or not f.conscious or f.holding or f.initiative is None:
        return None
    if state.round == 0 and f.rank != HELD:
        return None  # "the opponents may take no actions" but defences on round zero
    if f.plan is None:
        return (f.rank, f.initiative)
    for index, item in enumerate(f.scheduled(state.options.defence)):
        if index < f.next_step or item.initiative is None:
            continue
        if item.step.kind in (StepKind.DEFEND, StepKind.HASTE):
            continue
        return (f.rank, item.initiative)
    return None


def next_index(f: Fighter) -> int | None:
    """The index of the next step ``f`` performs on his turn."""
    if f.plan is None:
        return None
    for index in range(f.next_step, len(f.plan)):
        if f.plan[index].kind not in (StepKind.DEFEND, StepKind.HASTE):
            return index
    return None


@by_identity(4)
def on_turn(state: Encounter) -> tuple[str, ...]:
    """Who may act now: the highest next turn among those not waiting (ties: all of them);
    worked out once per state (whose move it is, every fighter's choices and turn read it)."""
    keys = {
        who: key
        for who in state.fighters
        if not state.fighters[who].waiting and (key := next_key(state, who)) is not None
    }
    if not keys:
        return ()
    best = max(keys.values())
    return tuple(who for who, key in keys.items() if key == best)


def can_take_turn(state: Encounter, who: str) -> bool:
    """True if ``who`` may take a step now: on turn, or waiting with something left to do."""
    f = state.fighters[who]
    if f.waiting:
        return next_key(state, who) is not None
    return who in on_turn(state)

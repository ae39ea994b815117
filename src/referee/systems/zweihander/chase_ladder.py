"""Setting up a chase (house rules, "Chase scene rules"): the Initiative Ladder, Movement by
mode of transport, the Head Start, the Escape Condition (``chase.start``).

"Escapees are always placed on the top in decreasing Agility Bonus. Pursuers are placed below
them in decreasing Initiative result as usual (that is, based on 1D10 + Initiative)."
Movement is the mode of transport's row ("on foot: [AB] + 3"), Encumbrance Overage off; a Head
Start is "+3 Escape or Pursuit Value on the first round".

>>> from referee.systems.zweihander.character import Character
>>> movement(Character("anna", bonuses={"AB": 4, "BB": 2}), "climbing")
1
>>> movement(Character("anna", bonuses={"AB": 4}), "palfrey horse")
10
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator

from referee.core import (
    REFEREE,
    Action,
    ActionSpec,
    Builder,
    Choice,
    Event,
    OneOf,
    Params,
    Record,
    RuleError,
    Steps,
    Who,
)
from referee.core.naming import title_of
from referee.core.values import evolved
from referee.dice import DiceSource, roll
from referee.systems.zweihander.character import Character
from referee.systems.zweihander.chase_scene import (
    ESCAPE_CONDITIONS,
    SECTION,
    SideName,
    end_if_over,
)
from referee.systems.zweihander.events import CHASE_STARTED
from referee.systems.zweihander.percentile import DIFFICULTY_NAMES
from referee.systems.zweihander.state import ChaseState, Participant, ZweihanderState
from referee.systems.zweihander.tables import movement_modes
from referee.systems.zweihander.takedown import takedown_difficulty

__all__ = [
    "CHASE_START",
    "HEAD_START",
    "ChaseStart",
    "Mode",
    "Runner",
    "fold_started",
    "ladder",
    "movement",
    "start_chase",
    "start_choices",
]

HEAD_START = 3
"""A Head Start: +3 Escape or Pursuit Value on the first round."""

Mode = Literal[
    "climbing",
    "sneaking",
    "swimming",
    "on foot",
    "dog sled",
    "dray horse",
    "stagecoach or wagon",
    "palfrey horse",
    "fancy coach",
    "rouncey horse",
    "carriage",
    "couser horse",
    "chariot",
    "destrier horse or flying",
]
"""The modes of transport of the Movement table (checked against its data file by the tests)."""
ModeWords = Annotated[
    Mode, BeforeValidator(lambda v: "couser horse" if v == "courser horse" else v)
]
"""A mode as a parameter: the table prints "couser horse"; "courser horse" reads as it."""


class Runner(Params):
    """One participant of a side: the ``character`` and their ``mode`` of transport."""

    character: str
    mode: ModeWords = "on foot"


class ChaseStart(Params):
    """``chase.start`` (the GM): the ``escapees`` and ``pursuers`` (each a list of runners, a
    character with their mode of transport; or a list of characters on foot; or character →
    mode), who has a ``head_start``, the ``escape_condition`` in Rounds, and the ``takedown``
    condition (words of the Takedown table, or a Difficulty Rating)."""

    escapees: list[Runner] | dict[str, ModeWords] | list[str]
    pursuers: list[Runner] | dict[str, ModeWords] | list[str]
    head_start: SideName | None = None
    escape_condition: Literal[3, 6, 9] = 3
    takedown: str | int = "Standard"


CHASE_START = ActionSpec(
    "chase.start",
    ChaseStart,
    section=SECTION,
    who=Who.REFEREE,
    summary="set the Initiative Ladder and start the chase",
    record="everyone",
)


def movement(character: Character, mode: str) -> int:
    """Movement for a mode of transport: [AB] or [BB] + the table's modifier, less Encumbrance
    Overage; at least 1 where the table says "(minimum 1)", else at least 0 (Referee's ruling)."""
    modes = movement_modes()
    if mode not in modes:
        raise RuleError("Chase scene (Movement)", f"no mode {mode!r} (known: {', '.join(modes)})")
    row = modes[mode]
    value = character.bonus(row.bonus) + row.modifier - character.encumbrance_overage
    return max(row.minimum if row.minimum is not None else 0, value)


def ladder(
    escapees: Sequence[tuple[str, int]], pursuers: Sequence[tuple[str, int]]
) -> tuple[str, ...]:
    """The Initiative Ladder: escapees by decreasing [AB], then pursuers by decreasing 1D10 +
    Initiative; ties keep the order given (Referee's ruling).

    >>> ladder([("a", 3), ("b", 5)], [("x", 9), ("y", 12)])
    ('b', 'a', 'y', 'x')
    """
    top = sorted(escapees, key=lambda e: -e[1])
    below = sorted(pursuers, key=lambda p: -p[1])
    return tuple(i for i, _ in top) + tuple(i for i, _ in below)


def _modes(value: Mapping[str, str] | Sequence[str | Runner]) -> list[tuple[str, str]]:
    """A side's characters with their modes of transport (a list of names: all on foot)."""
    if isinstance(value, Mapping):
        return [(str(k), str(v)) for k, v in value.items()]
    return [(v, "on foot") if isinstance(v, str) else (v.character, v.mode) for v in value]


def start_chase(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``chase.start``: the pursuers roll 1D10 + Initiative; the ladder is set."""
    p = CHASE_START.of(action)
    if b.state.chase is not None and b.state.chase.ended is None:
        raise RuleError("chase.start", "a chase is already under way")
    head_side = None if p.head_start is None else p.head_start.rstrip("s")
    tk = takedown_difficulty(p.takedown)
    escapees = _modes(p.escapees)
    pursuers = _modes(p.pursuers)
    _check_participants(b.state, escapees, pursuers, p.escape_condition)
    people: dict[str, Participant] = {}
    for cid, mode in escapees:
        c = b.state.character(cid)
        people[cid] = Participant(cid, "escapee", mode, movement(c, mode))
    rolls: dict[str, Any] = {}
    for cid, mode in pursuers:
        c = b.state.character(cid)
        r = roll("1d10", dice)
        total = int(r.total) + c.initiative
        rolls[cid] = {"d10": int(r.total), "initiative": c.initiative, "total": total}
        people[cid] = Participant(cid, "pursuer", mode, movement(c, mode), initiative=total)
    order = ladder(
        [(i, b.state.character(i).bonus("AB")) for i, _ in escapees],
        [(i, people[i].initiative or 0) for i, _ in pursuers],
    )
    participants = [
        evolved(people[pid], value=HEAD_START if head_side == people[pid].side else 0)
        for pid in order
    ]
    fields = ("id", "side", "mode", "movement", "value")
    b.emit(
        CHASE_STARTED,
        {
            "ladder": list(order),
            "participants": [{f: getattr(x, f) for f in fields} for x in participants],
            "initiative_rolls": rolls,
            "escape_condition": p.escape_condition,
            "head_start": head_side,
            "takedown_difficulty": tk,
        },
    )
    end_if_over(b)


def _check_participants(
    state: ZweihanderState,
    escapees: list[tuple[str, str]],
    pursuers: list[tuple[str, str]],
    rounds: int,
) -> None:
    """Refuse a chase without both sides, with someone twice or unable to run, or with someone
    missing a Skill the chase will test (Coordination on foot, Toughness past their [BB])."""
    if not escapees or not pursuers:
        raise RuleError("chase.start", "a chase needs at least one escapee and one pursuer")
    ids = [i for i, _ in escapees + pursuers]
    for cid in dict.fromkeys(ids):
        if ids.count(cid) > 1:
            raise RuleError(
                "chase.start",
                f"{title_of(cid)} is named twice: each character runs once, on one side",
            )
    for cid in ids:
        c = state.character(cid)
        if c.is_incapacitated or c.is_slain:
            raise RuleError(
                "chase.start",
                f"{title_of(cid)} is {'Slain!' if c.is_slain else c.peril_condition} "
                "and cannot take part",
            )
    for cid, mode in escapees + pursuers:
        c = state.character(cid)
        if mode == "on foot" and "Coordination" not in c.skills:
            raise RuleError(
                "chase.start (Takedown)",
                f"{title_of(cid)} has no Base Chance entered for Coordination, which a "
                "Takedown on foot tests: mount them, or enter it on the sheet",
            )
        if rounds > c.bonus("BB") and "Toughness" not in c.skills:
            raise RuleError(
                "chase.start (fatigue)",
                f"{title_of(cid)} has no Base Chance entered for Toughness, which fatigue "
                f"tests past their Brawn Bonus of {c.bonus('BB')} in Rounds",
            )


def fold_started(state: ZweihanderState, event: Event) -> ZweihanderState:
    """``chase.started``: the chase, its ladder in order."""
    d = event.data
    rolls = d.get("initiative_rolls")
    listed = d["participants"]
    parts = tuple(
        Participant(
            str(x["id"]),
            str(x["side"]),
            str(x["mode"]),
            int(x["movement"]),
            int(x["value"]),
            _initiative(rolls, str(x["id"])),
        )
        for x in (listed if isinstance(listed, list | tuple) else [])
    )
    head = d.get("head_start")
    return evolved(
        state,
        chase=ChaseState(
            participants=parts,
            escape_rounds=int(str(d["escape_condition"])),
            takedown_difficulty=int(str(d["takedown_difficulty"])),
            head_start=None if head is None else str(head),
        ),
    )


def _initiative(rolls: Any, pid: str) -> int | None:
    if isinstance(rolls, Mapping) and pid in rolls:
        return int(rolls[pid]["total"])
    return None


def start_choices(state: ZweihanderState, actor: str) -> list[Choice]:
    """No chase under way: the GM may start one, composing each side at the table — any able
    character (neither Incapacitated! nor Slain!) with any mode of transport of the Movement
    table; a side of several runners is a list of steps (a character and their mode)."""
    able = tuple(c.id for c in state.characters if not (c.is_incapacitated or c.is_slain))
    if actor != REFEREE or len(able) < 2:
        return []
    runner = Record({"character": OneOf(able), "mode": OneOf(tuple(movement_modes()))})
    return [
        Choice(
            actor,
            CHASE_START.kind,
            {
                "escapees": Steps(runner, least=1, most=len(able) - 1),
                "pursuers": Steps(runner, least=1, most=len(able) - 1),
                "head_start": OneOf((None, "escapees", "pursuers")),
                "escape_condition": OneOf(ESCAPE_CONDITIONS),
                "takedown": OneOf(DIFFICULTY_NAMES),
            },
            label="start a chase: who runs, who pursues, and how",
        )
    ]

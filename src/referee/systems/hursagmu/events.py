"""Hursagmu's event vocabulary: every kind an encounter logs, its payload, and its narration.

DESIGN.md, "The table contract": one constant per kind, one payload shape per kind (the
``TypedDict`` s below; a rolled check carries its roll card under ``"roll"``), and one
:func:`describe` that tells each kind in words as a viewer sees it. The event handed to
:func:`describe` is already redacted for the viewer: a secret part they may not see is absent
from its data, and the narration never mentions it.

>>> from referee.core import Event, Viewer
>>> describe(Event(ROUND_ENDED, {"round": 2, "waiting_game": []}), Viewer("bruno"))
'Round 2 ends.'
>>> secret = Event(PERCEPTION_ROLLED, {"character": "sleeper", "skill": "perception",
...                                    "noticed": True})
>>> describe(secret, Viewer("bruno"))
'Sleeper rolls perception in secret: noticed.'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from referee.core import Event, Viewer
from referee.core.naming import possessive, title_of, titled

__all__ = [
    "ACTIONS_BEGAN",
    "ACTION_HELD",
    "ATTACK_MADE",
    "ATTACK_RESOLVED",
    "CHARACTER_COLLAPSED",
    "CHARACTER_MOVED",
    "CHARACTER_STUMBLED",
    "CHARACTER_WAITED",
    "CONDITION_SET",
    "DAMAGE_TAKEN",
    "ENCOUNTER_BEGAN",
    "HIT_RECOVERED",
    "INITIATIVE_ROLLED",
    "KINDS",
    "MINOR_DONE",
    "PERCEPTION_ROLLED",
    "PLAN_DECLARED",
    "POWER_PUSHED",
    "RACE_ROLLED",
    "ROUND_ENDED",
    "ROUND_ZERO_BEGAN",
    "SNEAK_NOTICED",
    "STEALTH_ROLLED",
    "TASK_CONTINUED",
    "TASK_FAILED",
    "TASK_ROLLED",
    "TURN_ABORTED",
    "describe",
]

# -- Conflict ------------------------------------------------------------------------------
ENCOUNTER_BEGAN = "encounter.began"
# -- Round Zero and Initiative ------------------------------------------------------------
ROUND_ZERO_BEGAN = "round_zero.began"
INITIATIVE_ROLLED = "initiative.rolled"
ACTIONS_BEGAN = "actions.began"
# -- Action: declared steps ---------------------------------------------------------------
PLAN_DECLARED = "plan.declared"
TURN_ABORTED = "turn.aborted"
CHARACTER_MOVED = "character.moved"
CHARACTER_STUMBLED = "character.stumbled"
MINOR_DONE = "minor.done"
TASK_CONTINUED = "task.continued"
TASK_ROLLED = "task.rolled"
TASK_FAILED = "task.failed"
# -- Action: attack and defence -----------------------------------------------------------
ATTACK_MADE = "attack.made"
ATTACK_RESOLVED = "attack.resolved"
DAMAGE_TAKEN = "damage.taken"
CHARACTER_COLLAPSED = "character.collapsed"
# -- Waiting, Pushing Power, Recovery -------------------------------------------------------
CHARACTER_WAITED = "character.waited"
ACTION_HELD = "action.held"
POWER_PUSHED = "power.pushed"
CONDITION_SET = "condition.set"
HIT_RECOVERED = "hit.recovered"
ROUND_ENDED = "round.ended"
# -- Movement (races), Perception and Observation -------------------------------------------
RACE_ROLLED = "race.rolled"
PERCEPTION_ROLLED = "perception.rolled"
STEALTH_ROLLED = "stealth.rolled"
SNEAK_NOTICED = "sneak.noticed"

KINDS: frozenset[str] = frozenset(
    {
        ENCOUNTER_BEGAN,
        ROUND_ZERO_BEGAN,
        INITIATIVE_ROLLED,
        ACTIONS_BEGAN,
        PLAN_DECLARED,
        TURN_ABORTED,
        CHARACTER_MOVED,
        CHARACTER_STUMBLED,
        MINOR_DONE,
        TASK_CONTINUED,
        TASK_ROLLED,
        TASK_FAILED,
        ATTACK_MADE,
        ATTACK_RESOLVED,
        DAMAGE_TAKEN,
        CHARACTER_COLLAPSED,
        CHARACTER_WAITED,
        ACTION_HELD,
        POWER_PUSHED,
        CONDITION_SET,
        HIT_RECOVERED,
        ROUND_ENDED,
        RACE_ROLLED,
        PERCEPTION_ROLLED,
        STEALTH_ROLLED,
        SNEAK_NOTICED,
    }
)
"""Every kind an encounter logs."""


# ------------------------------------------------------------------------- payload shapes


class EncounterBegan(TypedDict):
    """Conflict: who takes part, and the Master's options (logged when play starts)."""

    characters: list[str]
    options: dict[str, Any]


class RoundZeroBegan(TypedDict):
    """Round Zero: the initiators act first; the surprised may not even defend."""

    initiators: list[str]
    surprised: list[str]
    stance: str


class InitiativeRolled(TypedDict, total=False):
    """Initiative: the stance chosen and the Quickness or Command roll (none when held over)."""

    character: str
    stance: str
    skill: str
    initiative: int
    rank: int
    held: bool
    modifier: int
    faces: list[int]
    expression: str
    roll: dict[str, Any]


class ActionsBegan(TypedDict):
    """Every conscious character has an Initiative: the Action phase begins."""

    round: int


class PlanDeclared(TypedDict):
    """Action: "declare all of his actions for the round", each step with its Initiative."""

    character: str
    steps: list[dict[str, Any]]
    initiatives: list[int | None]
    penalty: int
    skills: dict[str, int]
    movement_actions: int


class TurnAborted(TypedDict):
    """Action: "must abort the rest of his turn if he wants to make a defensive action"."""

    character: str
    dropped: int
    stance: str
    reason: str


class StepTaken(TypedDict, total=False):
    """A declared step performed (``character.moved``, ``character.stumbled``, ``minor.done``,
    ``task.continued``, ``task.rolled``, ``attack.made``): who, which step, at which Initiative;
    a rolled step adds its skill, challenge, odds, faces and roll card."""

    character: str
    step: int
    initiative: int | None
    after_waiting: bool
    movement: str
    yards: int
    movement_actions: int
    name: str
    task: str
    round_of_task: int
    rounds: int
    engrossing: bool
    skill: str
    challenge: int
    expression: str
    odds: str
    outcome: str
    success: bool
    target: str
    range_challenge: int
    defence: str
    reason: str
    roll: dict[str, Any]


class AttackResolved(TypedDict, total=False):
    """An attack rolled: against the target's defence (opposed, the attacker wins ties) or,
    undefended, against the range challenge."""

    attacker: str
    target: str
    skill: str
    defended: bool
    defence_skill: str
    expression: str
    odds: str
    hit: bool
    roll: dict[str, Any]


class DamageTaken(TypedDict):
    """Damage: weapon + Strength (pushed power included) + the damage roll (RULINGS.md)."""

    character: str
    by: str
    damage: int
    weapon: int
    strength: int
    damage_roll: int
    momentum: int
    faces: list[int]
    hits_left: int


class TaskFailed(TypedDict):
    """Action: injured during a multi-round action, "the action fails"."""

    character: str
    task: str
    reason: str


class CharacterCollapsed(TypedDict):
    """Out of hits: from injury, or from exhaustion (Pushing Power)."""

    character: str
    cause: str


class CharacterNamed(TypedDict):
    """``character.waited``: waiting upon reaching his Initiative."""

    character: str


class ActionHeld(TypedDict):
    """Waiting: the action held over into the next round."""

    character: str
    round: int


class PowerPushed(TypedDict):
    """Pushing Power: hits of Stamina spent for Strength and Willpower this round."""

    character: str
    hits: int
    hits_left: int
    strength: int
    willpower: int
    exhausted: bool


class ConditionSet(TypedDict):
    """The Master says whether a character is OK on Health and Sanity (Recovery), and, where
    he says it, whether he is asleep (Perception and Observation)."""

    character: str
    health_ok: bool
    sanity_ok: bool
    asleep: NotRequired[bool]


class HitRecovered(TypedDict):
    """Recovery: one hit back at the end of a round without actions or injury."""

    character: str
    hits: int


class RoundEnded(TypedDict):
    """The end of a round; ``waiting_game`` are those who waited for each other."""

    round: int
    waiting_game: list[str]


class RaceRolled(TypedDict, total=False):
    """Movement: both roll Quickness; the winner gains a yard per point."""

    character: str
    against: str
    odds: dict[str, str]
    leader: str | None
    yards: int
    roll: dict[str, Any]


class PerceptionRolled(TypedDict, total=False):
    """The Master's secret roll for a character: the character learns only ``noticed``;
    ``challenge`` and ``roll`` are the referee's alone."""

    character: str
    skill: str
    noticed: bool
    challenge: int
    roll: dict[str, Any]


class StealthRolled(TypedDict, total=False):
    """Stealth against Perception (Shadowing against Observation), seen by the sneak alone;
    the ``roll`` (which tells the perceiver's skill) is the referee's alone."""

    character: str
    perceiver: str
    skill: str
    against: str
    noticed: bool
    reason: str
    roll: dict[str, Any]


class SneakNoticed(TypedDict):
    """The perceiver notices the sneak (seen by both)."""

    character: str
    noticed: str
    skill: str


# ------------------------------------------------------------------------------- narration


_PEOPLE = frozenset(
    {
        "character",
        "target",
        "attacker",
        "initiators",
        "surprised",
        "characters",
        "against",
        "perceiver",
        "noticed",
        "leader",
        "waiting_game",
        "by",
    }
)
"""The fields that name characters: a character's id is its name, written capitalised
("sleeper" reads "Sleeper")."""


def _named(data: Mapping[str, Any]) -> dict[str, Any]:
    return titled(data, _PEOPLE)


def _who(data: Mapping[str, Any]) -> str:
    return str(data.get("character", "someone"))


def _step_taken(kind: str, d: Mapping[str, Any]) -> str:
    who = _who(d)
    at = "" if d.get("initiative") is None else f" at Initiative {d['initiative']}"
    if d.get("after_waiting"):
        at = " after waiting"
    if kind == CHARACTER_MOVED:
        yards = f" {d['yards']} yards" if d.get("yards") else ""
        return f"{who} moves ({d.get('movement')}{yards}){at}."
    if kind == CHARACTER_STUMBLED:
        return f"{who} fails the {d.get('skill')} roll and gets nowhere{at}."
    if kind == MINOR_DONE:
        name = d.get("name") or "a minor action"
        return f"{who} does {name}{at}."
    if kind == TASK_CONTINUED:
        return (
            f"{who} carries on with {d.get('task')} (round {d.get('round_of_task')} of "
            f"{d.get('rounds')}){at}."
        )
    if kind == TASK_ROLLED:
        verdict = "succeeds" if d.get("success") else "fails"
        return f"{who} {verdict} at {d.get('task')}{at}."
    answer = {
        "defend": "may defend",
        "abort": "may abort his turn to defend",
        "none": "cannot defend",
    }.get(str(d.get("defence")), "")
    why = f" ({d['reason']})" if d.get("reason") else ""
    return (
        f"{who} attacks {d.get('target')} with {d.get('skill')}{at}: {d.get('target')} "
        f"{answer}{why}."
    )


def describe(event: Event, viewer: Viewer) -> str:
    """``event`` in words, as ``viewer`` sees it (already redacted for them).

    >>> describe(Event(POWER_PUSHED, {"character": "bob", "hits": 2, "hits_left": 8,
    ...     "strength": 4, "willpower": 3, "exhausted": False}), Viewer("x"))
    'Bob pushes his power: 2 hits of Stamina for Strength 4 and Willpower 3 (8 left).'
    """
    d = _named(event.data)
    kind = event.kind
    line = _conflict_line(kind, d) or _round_line(kind, d)
    if line is not None:
        return line
    data = ", ".join(f"{k}={v!r}" for k, v in d.items())
    return f"{kind}: {data}" if data else kind


def _conflict_line(kind: str, d: Mapping[str, Any]) -> str | None:
    """Conflict, Round Zero, Initiative and the Action phase's steps, attacks and damage."""
    who = _who(d)
    if kind == ENCOUNTER_BEGAN:
        names = ", ".join(d.get("characters") or [])
        return f"The encounter begins: {names}."
    if kind == ROUND_ZERO_BEGAN:
        surprised = ", ".join(d.get("surprised") or []) or "nobody"
        return (
            f"Round zero: {', '.join(d.get('initiators') or [])} open the conflict "
            f"({d.get('stance')}); surprised: {surprised}."
        )
    if kind == INITIATIVE_ROLLED:
        if d.get("held"):
            return f"{who} acts first, having held his action over ({d.get('stance')})."
        return (
            f"{who} chooses to {d.get('stance')} and rolls {d.get('skill')}: Initiative "
            f"{d.get('initiative')}."
        )
    if kind == ACTIONS_BEGAN:
        held = d.get("held") or {}
        first = "".join(
            f" {title_of(str(w))} held his action over: Initiative {i}, first."
            for w, i in (held.items() if isinstance(held, Mapping) else ())
        )
        return f"Round {d.get('round')}: the Action phase begins.{first}"
    if kind == PLAN_DECLARED:
        from referee.systems.hursagmu.steps import Step

        raw = d.get("steps") or []
        steps = [Step.from_json(s).describe() for s in raw if isinstance(s, Mapping)]
        return f"{who} declares: {'; '.join(steps)} (skill penalty {d.get('penalty'):+d})."
    if kind == TURN_ABORTED:
        return f"{who} aborts the rest of his turn to defend ({d.get('stance')})."
    if kind in (
        CHARACTER_MOVED,
        CHARACTER_STUMBLED,
        MINOR_DONE,
        TASK_CONTINUED,
        TASK_ROLLED,
        ATTACK_MADE,
    ):
        return _step_taken(kind, d)
    if kind == ATTACK_RESOLVED:
        verdict = "hits" if d.get("hit") else "misses"
        how = f" against {d.get('defence_skill')}" if d.get("defended") else ", undefended"
        return f"{possessive(str(d.get('attacker')))} attack{how}: {verdict} {d.get('target')}."
    if kind == DAMAGE_TAKEN:
        return (
            f"{who} takes {d.get('damage')} damage from {d.get('by')} "
            f"({d.get('hits_left')} hits left)."
        )
    if kind == TASK_FAILED:
        return f"{possessive(who)} {d.get('task')} fails: {d.get('reason')}."
    if kind == CHARACTER_COLLAPSED:
        return f"{who} collapses ({d.get('cause')})."
    return None


def _round_line(kind: str, d: Mapping[str, Any]) -> str | None:
    """Waiting, Pushing Power, the Master's rulings, Recovery, races and the senses."""
    who = _who(d)
    if kind == CHARACTER_WAITED:
        return f"{who} waits."
    if kind == ACTION_HELD:
        return f"{who} holds his action over into round {d.get('round')}."
    if kind == POWER_PUSHED:
        return (
            f"{who} pushes his power: {d.get('hits')} hits of Stamina for Strength "
            f"{d.get('strength')} and Willpower {d.get('willpower')} "
            f"({d.get('hits_left')} left)."
        )
    if kind == CONDITION_SET:
        health = "OK" if d.get("health_ok") else "not OK"
        sanity = "OK" if d.get("sanity_ok") else "not OK"
        sleep = ""
        if "asleep" in d:
            sleep = ", asleep" if d["asleep"] else ", awake"
        return f"The Master rules {who} {health} on Health, {sanity} on Sanity{sleep}."
    if kind == HIT_RECOVERED:
        return f"{who} recovers a hit ({d.get('hits')})."
    if kind == ROUND_ENDED:
        waiters = d.get("waiting_game") or []
        game = f" Waiting game: {', '.join(waiters)}." if waiters else ""
        return f"Round {d.get('round')} ends.{game}"
    if kind == RACE_ROLLED:
        leader = d.get("leader")
        gain = f"{leader} gains {d.get('yards')} yards" if leader else "neither gains"
        return f"{who} races {d.get('against')}: {gain}."
    if kind == PERCEPTION_ROLLED:
        verdict = "noticed" if d.get("noticed") else "noticed nothing"
        challenge = f" against {d['challenge']}" if "challenge" in d else ""
        return f"{who} rolls {d.get('skill')} in secret{challenge}: {verdict}."
    if kind == STEALTH_ROLLED:
        verdict = "noticed" if d.get("noticed") else "unnoticed"
        why = f" ({d['reason']})" if d.get("reason") else ""
        return f"{who} uses {d.get('skill')} on {d.get('perceiver')}: {verdict}{why}."
    if kind == SNEAK_NOTICED:
        return f"{who} notices {d.get('noticed')} ({d.get('skill')})."
    return None

"""Attack and defence (hursagmu-encounters.txt, "Action", "Range", "Movement", "Round Zero").

- An attack is a declared step taken in turn; its target answers before the roll: "If a
  character is attacked before his turn, he may choose to make a defensive action regardless
  of Initiative" (``defend``), or takes it undefended (``take``). Who may defend, and how, is
  :func:`response`: the same kind as declared keeps the turn; the other kind "must abort the
  rest of his turn"; the surprised on round zero, the engrossed and those out of declared
  defences cannot.
- The roll (:func:`resolve`): the attacker's skill against the defence (opposed, the attacker
  wins ties; the range challenge added to the defence), or undefended against the range
  challenge alone. A hit deals weapon + Strength + the damage roll (RULINGS.md), with charge
  momentum where the Master uses it.

>>> from referee.systems.hursagmu.state import Encounter, Fighter, Options
>>> from referee.systems.hursagmu.sheet import Character
>>> state = Encounter(Options(), {"bob": Fighter(Character("bob"), 10),
...                               "fred": Fighter(Character("fred"), 0, conscious=False)})
>>> response(state, "fred", "striking")
(<DefenceResponse.NONE: 'none'>, 'unconscious')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import (
    Action,
    Builder,
    Event,
    OpposedCheck,
    Prompt,
    RollCard,
    RuleError,
    TargetCheck,
)
from referee.core.naming import possessive_of as _own
from referee.core.naming import title_of
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.hursagmu.action_phase import (
    declare_plan,
    fold_plan_declared,
    fold_step_taken,
    fold_turn_aborted,
    ranged_ability,
    used_a_skill,
)
from referee.systems.hursagmu.catalogue import DEFEND, step_json
from referee.systems.hursagmu.events import (
    ATTACK_MADE,
    ATTACK_RESOLVED,
    CHARACTER_COLLAPSED,
    DAMAGE_TAKEN,
    TASK_FAILED,
    TURN_ABORTED,
)
from referee.systems.hursagmu.movement import (
    DamageRoll,
    charge_momentum,
    damage_base,
    range_challenge,
)
from referee.systems.hursagmu.rounds import (
    DefenceMode,
    DefenceResponse,
    Step,
    StepKind,
    defence_response,
    defence_skill,
)
from referee.systems.hursagmu.sheet import Stance
from referee.systems.hursagmu.state import Encounter, Fighter, Pending

__all__ = [
    "FOLDS",
    "attack_check",
    "decide_defend",
    "decide_take",
    "defence_declarations",
    "defence_declared",
    "defence_prompt",
    "fold_attack_made",
    "fold_attack_resolved",
    "fold_collapsed",
    "fold_damage_taken",
    "fold_task_failed",
    "resolve",
    "response",
    "take_attack",
]


def take_attack(
    state: Encounter, who: str, f: Fighter, step: Step, base: dict[str, Any], dice: DiceSource
) -> list[Event]:
    """An attack step taken: ``attack.made``, and the roll at once if the target cannot
    defend."""
    assert step.skill is not None and step.target is not None
    target = state.fighter(step.target)
    challenge = 0
    if step.yards:
        challenge = range_challenge(step.yards, ranged_ability(f, step))
    answer, reason = response(state, step.target, step.skill)
    made = Event(
        ATTACK_MADE,
        base
        | {
            "target": step.target,
            "skill": step.skill,
            "range_challenge": challenge,
            "defence": answer.value,
            **({"reason": reason} if reason else {}),
        },
    )
    if answer is DefenceResponse.NONE or not target.conscious:
        pending = Pending(who, step.target, step.skill, challenge, answer)
        return [made, *resolve(state, pending, defended=False, dice=dice)]
    return [made]


def response(state: Encounter, target: str, skill: str) -> tuple[DefenceResponse, str]:
    """How ``target`` may answer an attack with ``skill``, and why not when he cannot."""
    t = state.fighters[target]
    if not t.conscious:
        return DefenceResponse.NONE, "unconscious"
    if t.surprised and state.round == 0:
        return DefenceResponse.NONE, "surprised on round zero: not even defensive actions"
    if t.task is not None and t.task_engrossing:
        return DefenceResponse.NONE, f"engrossed in {t.task}: no defensive actions at all"
    if t.plan is not None:
        plan = t.round_plan(state.options.defence)
        assert plan is not None
        if plan.is_engrossing:
            return DefenceResponse.NONE, "engrossed: no defensive actions at all"
    answer = defence_response(t.stance, skill)
    if answer is DefenceResponse.ABORT and used_a_skill(t):
        # "A character cannot use both Dex and Int skills during the same round": what he
        # has already rolled cannot be aborted, so the other kind's defence is out of reach.
        kind = "a Dexterity" if t.stance is Stance.MANEUVER else "an Intelligence"
        return DefenceResponse.NONE, (
            f"already used {kind} skill this round: cannot use both Dex and Int skills "
            "during the same round"
        )
    if answer is DefenceResponse.DEFEND and t.plan is not None:
        needed = defence_skill(skill)
        left = [s for s in t.plan if s.kind is StepKind.DEFEND and s.skill == needed]
        if state.options.defence is DefenceMode.EACH:
            if len(left) <= t.defences_used:
                return DefenceResponse.NONE, "no declared defence left"
        elif not left:
            return DefenceResponse.NONE, "no defence declared"
    return answer, ""


def defence_prompt(state: Encounter) -> Prompt | None:
    """The attack pending asks its target ("Action"): "If a character is attacked before his
    turn, he may choose to make a defensive action regardless of Initiative" (``defend``), or
    take it (``take``). A defence of the kind he declared at Initiative keeps his turn; of the
    other kind "the character must abort the rest of his turn if he wants to make a defensive
    action. That, or take the hit and hope to survive to his Initiative."

    The table waits for his answer (``blocking``). Declining takes the hit — the text's other
    branch — unless his declared actions already hold a defence for it, which he then makes
    (ruling 32).
    """
    p = state.pending
    if p is None:
        return None
    who, needed = p.target, defence_skill(p.skill)
    attack = f"{title_of(p.attacker)} attacks {title_of(who)} with {p.skill}"
    if p.response is DefenceResponse.ABORT:
        stance = state.fighters[who].stance
        chose = "concentrate" if stance is Stance.CONCENTRATE else "maneuver"
        reason = (
            f"{attack}: he chose to {chose}, so defending with {needed} aborts the rest of his "
            "turn; abort and defend, or take the hit and hope to survive to his Initiative"
        )
    else:
        reason = f"{attack}: defend with {needed}, or take the hit"
    f = state.fighters[who]
    declared = f.plan is not None and p.response is DefenceResponse.DEFEND
    default = Action(who, "defend" if declared else "take", {})
    return Prompt(who, ("defend", "take"), "Action", reason, default=default)


def decide_take(b: Builder[Encounter], action: Action, dice: DiceSource) -> None:
    """The target of the pending attack takes it undefended."""
    state = b.state
    p = state.pending
    if p is None or p.target != action.actor:
        raise RuleError("Action", f"{action.actor} is not the target of a pending attack")
    b.extend(resolve(state, p, defended=False, dice=dice))


def decide_defend(b: Builder[Encounter], action: Action, dice: DiceSource) -> None:
    """The target of the pending attack defends: "declare all of his actions for the round
    and then make his defensive skill roll", aborting his turn if the defence is of the
    other kind."""
    p = b.state.pending
    who = action.actor
    if p is None or p.target != who:
        raise RuleError("Action", f"{who} is not the target of a pending attack")
    raw = DEFEND.of(action).actions
    b.extend(defence_declarations(b.state, None if raw is None else [step_json(s) for s in raw]))
    # the defensive roll is made with the actions just declared
    b.extend(resolve(b.state, p, defended=True, dice=dice))


def defence_declared(
    state: Encounter, raw: list[dict[str, Any]] | None
) -> tuple[list[Event], Encounter]:
    """What the target of the pending attack declares before his defensive roll, and the state
    he would roll in (for the odds and the choices, before he declares)."""
    events = defence_declarations(state, raw)
    state_now = state
    for event in events:
        fold = fold_turn_aborted if event.kind == TURN_ABORTED else fold_plan_declared
        state_now = fold(state_now, event.data)
    return events, state_now


def defence_declarations(state: Encounter, raw: list[dict[str, Any]] | None) -> list[Event]:
    """What the target of the pending attack declares before his defensive roll (``raw``: his
    declared actions, if he has declared none yet): a turn aborted and declared anew, a plan,
    or nothing."""
    p = state.pending
    assert p is not None
    who = p.target
    f = state.fighter(who)
    needed = defence_skill(p.skill)
    events: list[Event] = []
    if p.response is DefenceResponse.ABORT:
        # What he has done stays (no skill was rolled, or there would be no abort); a
        # declared step not yet taken goes with the rest of his turn. He then declares "all of
        # his actions for the round" anew, of the defence's kind (given, or the defence alone).
        kept = [s for s in (f.plan or ())[: f.next_step] if s.kind is not StepKind.DEFEND]
        stance = Stance.MANEUVER if needed == "defense" else Stance.CONCENTRATE
        rest = raw if raw is not None else [Step.defend(needed).to_json()]
        new_plan = [*(s.to_json() for s in kept), *rest]
        dropped = len(f.plan or ()) - len(kept)
        events.append(
            Event(
                TURN_ABORTED,
                {
                    "character": who,
                    "dropped": dropped,
                    "stance": stance.value,
                    "reason": "the defence needed is not the kind declared at Initiative",
                },
            )
        )
        tmp = state.with_fighter(who, plan=None, stance=stance)
        plan, declared = declare_plan(
            tmp, who, new_plan, check_stance=raw is not None, performed=len(kept)
        )
        if not any(s.kind is StepKind.DEFEND and s.skill == needed for s in plan.steps):
            raise RuleError("Action", f"{who}'s declared actions include no {needed} defence")
        events.append(declared)
    elif f.plan is None:
        if raw is None:
            raise RuleError(
                "Action",
                f"{who} must declare all of his actions for the round before his defensive "
                "roll: declare them with the defence",
            )
        plan, declared = declare_plan(state, who, raw)
        if not any(s.kind is StepKind.DEFEND and s.skill == needed for s in plan.steps):
            raise RuleError("Action", f"{who}'s declared actions include no {needed} defence")
        events.append(declared)
    return events


def attack_check(state: Encounter, p: Pending, *, defended: bool) -> TargetCheck | OpposedCheck:
    """The roll of a pending attack: against the defence, or undefended against the range
    challenge."""
    attacker = state.fighters[p.attacker]
    mode = state.options.defence
    roll = attacker.roll_of(p.skill, mode)
    if defended:
        theirs = state.fighters[p.target].roll_of(defence_skill(p.skill), mode)
        return roll.versus(theirs, p.challenge)
    return roll.against(p.challenge)


def resolve(state: Encounter, p: Pending, *, defended: bool, dice: DiceSource) -> list[Event]:
    """The attack rolled, and its damage on a hit."""
    attacker = state.fighters[p.attacker]
    target = state.fighters[p.target]
    mode = state.options.defence
    roll = attacker.roll_of(p.skill, mode)
    payload: dict[str, Any] = {
        "attacker": p.attacker,
        "target": p.target,
        "skill": p.skill,
        "defended": defended,
    }
    check = attack_check(state, p, defended=defended)
    if defended:
        needed = defence_skill(p.skill)
        theirs = target.roll_of(needed, mode)
        payload |= {
            "defence_skill": needed,
            "expression": f"{roll.side.expression} vs {theirs.side.expression}"
            + (f"+{p.challenge}" if p.challenge else ""),
        }
        label = f"{_own(p.attacker)} {p.skill} against {_own(p.target)} {needed}"
    else:
        payload |= {"expression": f"{roll.side.expression} vs {p.challenge}"}
        label = f"{_own(p.attacker)} {p.skill} against {title_of(p.target)}, undefended"
    result = check.roll(dice)
    card = RollCard.of(check, result, label, rule="Action")
    payload |= {
        "odds": str(check.odds().success),
        **result.to_json(),
        "hit": result.is_success,
        "roll": card.to_json(),
    }
    events = [Event(ATTACK_RESOLVED, payload)]
    if not result.is_success:
        return events
    momentum = 0
    melee = p.skill == "striking" and attacker.sheet.weapon_type == "melee"
    if state.options.charge_momentum and melee:
        momentum = charge_momentum(attacker.yards_moved) + charge_momentum(target.yards_moved)
    damage = DamageRoll(
        damage_base(attacker.sheet.weapon, attacker.strength), momentum, state.options.damage_roll
    )
    amount, rolled = damage.roll(dice)
    amount = max(0, amount)  # a feeble blow does no damage; it never heals
    left = target.hits - amount
    events.append(
        Event(
            DAMAGE_TAKEN,
            {
                "character": p.target,
                "by": p.attacker,
                "damage": amount,
                "weapon": attacker.sheet.weapon,
                "strength": attacker.strength,
                "damage_roll": int(rolled.total),
                "momentum": momentum,
                "faces": list(rolled.faces),
                "hits_left": left,
            },
        )
    )
    if amount > 0 and target.task is not None and target.task_rounds > 0:
        events.append(
            Event(
                TASK_FAILED,
                {
                    "character": p.target,
                    "task": target.task,
                    "reason": "injured during a multi-round action",
                },
            )
        )
    if left <= 0 < target.hits:
        events.append(Event(CHARACTER_COLLAPSED, {"character": p.target, "cause": "injury"}))
    return events


# ---------------------------------------------------------------------------------- folds


def fold_attack_made(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """The attack step taken; it waits for its target's answer unless he has none."""
    new = fold_step_taken(state, d)
    if d["defence"] != DefenceResponse.NONE.value:
        new = evolved(
            new,
            pending=Pending(
                str(d["character"]),
                str(d["target"]),
                str(d["skill"]),
                int(d["range_challenge"]),
                DefenceResponse(str(d["defence"])),
            ),
        )
    return new


def fold_attack_resolved(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """No attack pending; a defence is an action (Recovery) and counts against those left."""
    new = evolved(state, pending=None)
    if d["defended"]:
        who = str(d["target"])
        f = new.fighters[who]
        new = new.with_fighter(who, defences_used=f.defences_used + 1, acted=True)
    return new


def fold_damage_taken(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """Hits lost; "If a character is injured during the round (takes even 1 point of
    damage)" he gets no recovery."""
    who = str(d["character"])
    injured = state.fighters[who].injured or int(d["damage"]) > 0
    return state.with_fighter(who, hits=int(d["hits_left"]), injured=injured)


def fold_task_failed(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """The multi-round action fails and "must be attempted again"."""
    return state.with_fighter(str(d["character"]), task=None, task_rounds=0, task_engrossing=False)


def fold_collapsed(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """Out of the fight."""
    return state.with_fighter(str(d["character"]), conscious=False, waiting=False)


FOLDS = {
    ATTACK_MADE: fold_attack_made,
    ATTACK_RESOLVED: fold_attack_resolved,
    DAMAGE_TAKEN: fold_damage_taken,
    TASK_FAILED: fold_task_failed,
    CHARACTER_COLLAPSED: fold_collapsed,
}
"""This module's event kinds and their folds."""

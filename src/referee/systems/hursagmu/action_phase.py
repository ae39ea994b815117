"""The Action phase: declared actions and the steps taken in turn (hursagmu-encounters.txt,
"Action", "Movement", "Haste", "Waiting", "Pushing Power").

- "each character must declare all of his actions for the round" (:func:`declare_plan`);
  "characters carry out their actions in the order of their Initiative rolls" (``act``);
- a movement may need the Master's Acrobatics or Riding roll; a minor action rolls nothing;
  a task rolls its skill against a challenge level, over several rounds if need be ("the
  action fails and must be attempted again" when the character is injured meanwhile);
- Waiting: "A character may choose to wait upon reaching his Initiative ... and may take his
  action at any time"; a waiting character who has not acted may hold his action over;
- Pushing Power: hits of Stamina for +1 Strength and Willpower each, this round.

Attacks are :mod:`~referee.systems.hursagmu.combat`'s.

>>> from referee.systems.hursagmu.state import Encounter, Fighter, Options
>>> from referee.systems.hursagmu.sheet import Character
>>> state = Encounter(Options(), {"bob": Fighter(Character("bob"), 10, initiative=9)},
...                   phase="action")
>>> declare_plan(state, "bob", [{"minor": "draw sword"}])[1].data["initiatives"]
[9]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.core import Action, Builder, Event, RollCard, RuleError
from referee.core.naming import possessive_of as _own
from referee.core.naming import title_of
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.hursagmu.catalogue import DECLARE, PUSH, step_json
from referee.systems.hursagmu.events import (
    ACTION_HELD,
    CHARACTER_MOVED,
    CHARACTER_STUMBLED,
    CHARACTER_WAITED,
    MINOR_DONE,
    PLAN_DECLARED,
    POWER_PUSHED,
    TASK_CONTINUED,
    TASK_ROLLED,
    TURN_ABORTED,
)
from referee.systems.hursagmu.movement import Movement, range_challenge
from referee.systems.hursagmu.rounds import (
    RoundPlan,
    Step,
    StepKind,
    plan_from_json,
    push_power,
    schedule,
    skill_penalty,
    validate_plan,
)
from referee.systems.hursagmu.sheet import Stance, skill_stance
from referee.systems.hursagmu.state import (
    HELD,
    Encounter,
    Fighter,
    can_take_turn,
    next_index,
    on_turn,
)
from referee.systems.hursagmu.tables import SORCERY_TYPES
from referee.systems.hursagmu.turn_order import waiting

__all__ = [
    "decide_act",
    "decide_declare",
    "decide_hold",
    "decide_push",
    "decide_wait",
    "declare_plan",
    "fold_action_held",
    "fold_plan_declared",
    "fold_power_pushed",
    "fold_step_taken",
    "fold_turn_aborted",
    "fold_waited",
    "posture_after",
    "ranged_ability",
    "step_base",
    "used_a_skill",
]

AttackStep = Callable[[Encounter, str, Fighter, Step, dict[str, Any], DiceSource], list[Event]]


def ranged_ability(f: Fighter, step: Step) -> str:
    """The range table entry of a ranged attack: as declared, the sorcery type rolled, or the
    character's thrown or missile weapon ("Range")."""
    if step.ability is not None:
        return step.ability
    if step.skill is not None and step.skill.capitalize() in SORCERY_TYPES:
        return step.skill
    if f.sheet.weapon_type != "melee":
        return f.sheet.weapon_type
    raise RuleError(
        "Range",
        "a ranged attack names its range table entry "
        "(ability: missile weapon, thrown weapon, Mahasu...)",
    )


def used_a_skill(f: Fighter) -> bool:
    """True once ``f`` has rolled a Dexterity or Intelligence skill this round (a defence, or a
    step already performed: an attack, a task, a movement's Acrobatics or Riding roll). The
    Initiative roll does not count ("These skill checks do not count as actions")."""
    if f.defences_used:
        return True
    for step in (f.plan or ())[: f.next_step]:
        skill = step.roll_skill if step.kind is StepKind.MOVE else step.skill
        if step.kind is not StepKind.DEFEND and skill is not None and skill_stance(skill):
            return True
    return False


def posture_after(f: Fighter, steps: Sequence[Step]) -> tuple[bool, bool]:
    """Whether ``f`` is prone and mounted after ``steps``, or a :class:`RuleError` for a
    movement his posture does not allow ("Movement"): one stands "from a prone position", falls
    prone only standing on the ground, mounts a horse he has and is not on, dismounts or rides
    only on it, and moves on foot or leaps only standing on the ground.

    >>> from referee.systems.hursagmu.sheet import Character
    >>> fred = Fighter(Character("fred"), 10, prone=True)
    >>> posture_after(fred, [Step.move("stand"), Step.move("foot", 16)])
    (False, False)
    >>> posture_after(fred, [Step.move("foot", 16)])
    Traceback (most recent call last):
    ...
    referee.core.errors.RuleError: Movement: fred is lying prone: he stands up before moving on \
foot
    """
    prone, mounted = f.prone, f.mounted
    who = f.sheet.name
    for step in steps:
        if step.kind is not StepKind.MOVE or step.movement is None:
            continue
        move = step.movement
        if move is Movement.STAND:
            if not prone:
                raise RuleError("Movement", f"{who} is not prone: nothing to stand up from")
            prone = False
        elif move is Movement.PRONE:
            if prone or mounted:
                where = "already prone" if prone else "on horseback: he dismounts first"
                raise RuleError("Movement", f"{who} is {where}")
            prone = True
        elif move is Movement.MOUNT:
            if not f.sheet.mount:
                raise RuleError("Movement", f"{who} has no horse to mount")
            if mounted or prone:
                where = "already mounted" if mounted else "lying prone: he stands up first"
                raise RuleError("Movement", f"{who} is {where}")
            mounted = True
        elif move in (Movement.DISMOUNT, Movement.RIDE):
            if not mounted:
                raise RuleError("Movement", f"{who} is not on a horse: he cannot {move.value}")
            mounted = move is Movement.RIDE
        else:
            if prone:
                what = "moving on foot" if move is Movement.FOOT else "leaping"
                raise RuleError("Movement", f"{who} is lying prone: he stands up before {what}")
            if mounted:
                raise RuleError(
                    "Movement",
                    f'{who} is mounted: he rides ("use the movement rate of the mount") or '
                    "dismounts first",
                )
    return prone, mounted


def _plan_payload(who: str, f: Fighter, plan: RoundPlan) -> dict[str, Any]:
    items = schedule(plan, f.initiative or 0)
    penalty = skill_penalty(plan)
    return {
        "character": who,
        "steps": [s.to_json() for s in plan.steps],
        "initiatives": [i.initiative for i in items],
        "penalty": penalty,
        "skills": {s: f.sheet.skill(s) + penalty for s in plan.skills()},
        "movement_actions": plan.movement_actions(),
    }


def declare_plan(
    state: Encounter,
    who: str,
    raw: Sequence[Mapping[str, Any]] | None,
    *,
    check_stance: bool = True,
    performed: int = 0,
) -> tuple[RoundPlan, Event]:
    """``who``'s declaration of the round: the plan and its ``plan.declared`` event, or a
    :class:`RuleError` naming the rule it breaks. ``performed``: how many of the steps were
    taken already (an aborted turn's), so his posture is checked from there."""
    f = state.fighter(who)
    if f.plan is not None:
        raise RuleError("Action", f"{who} has declared this round's actions already")
    if state.phase != "action":
        raise RuleError("Action", "actions are declared in the Action phase")
    plan = plan_from_json(
        raw if raw is not None else [],
        rate=f.rate,
        mount=f.sheet.mount,
        mode=state.options.defence,
        max_lift=f.sheet.max_lift,
        load=f.sheet.load,
    )
    if not plan.steps:
        raise RuleError("Action", "declare at least one action (or wait)")
    if sum(1 for s in plan.steps if s.rounds > 1) > 1:
        raise RuleError(
            "Action",
            "one multi-round action at a time: a second would leave the first (ruling 27)",
        )
    validate_plan(plan, f.stance if check_stance else None)
    # An aborted turn's steps already taken were declared in time: only a bonus among the
    # steps still to come can be a late one.
    fresh = RoundPlan(plan.steps[performed:]).initiative_bonus
    if fresh > 0 and state.clock is not None and f.initiative is not None:
        hasted = f.initiative + plan.initiative_bonus
        if (f.rank, hasted) > state.clock:
            what = "Haste" if plan.haste else "a minor action's bonus"
            raise RuleError(
                "Haste" if plan.haste else "Initiative",
                f"the round has passed Initiative {hasted}; {what} must be declared before "
                f"it comes (the last action was at {state.clock[1]})",
            )
    posture_after(f, plan.steps[performed:])
    for step in plan.steps:
        if step.kind is StepKind.ATTACK:
            state.fighter(step.target or "")
            if step.target == who:
                raise RuleError("Action", f"{who} cannot attack himself")
            if step.yards:
                range_challenge(step.yards, ranged_ability(f, step))
    if (
        state.round == 0
        and f.rank != HELD
        and any(s.kind is not StepKind.DEFEND for s in plan.steps)
    ):
        raise RuleError(
            "Round Zero", "only the initiators act on round zero; their opponents may only defend"
        )
    return plan, Event(PLAN_DECLARED, _plan_payload(who, f, plan))


def decide_declare(b: Builder[Encounter], action: Action, dice: DiceSource) -> None:
    """ "each character must declare all of his actions for the round"."""
    state = b.state
    who = action.actor
    if state.phase == "action" and state.round == 0 and state.fighter(who).rank != HELD:
        raise RuleError(
            "Round Zero", f"{who} is not an initiator: only the initiators act on round zero"
        )
    steps = [step_json(s) for s in DECLARE.of(action).actions]
    _, event = declare_plan(state, who, steps)
    b.add(event)


def step_base(state: Encounter, who: str, f: Fighter, index: int) -> dict[str, Any]:
    """What every step taken records: who, which step, at which Initiative."""
    initiative = f.scheduled(state.options.defence)[index].initiative
    base: dict[str, Any] = {"character": who, "step": index, "initiative": initiative}
    if f.waiting:
        # "A waiting character may take his action at any time, even within the action of
        # another character": the step happens now, at the round's current moment.
        base["after_waiting"] = True
    return base


def decide_act(attack: AttackStep) -> Callable[[Builder[Encounter], Action, DiceSource], None]:
    """The ``act`` step's handler: perform the next declared step; attacks go to ``attack``
    (:func:`~referee.systems.hursagmu.combat.take_attack`: combat builds on this module)."""

    def act(b: Builder[Encounter], action: Action, dice: DiceSource) -> None:
        state = b.state
        who = action.actor
        f = state.fighter(who)
        if state.phase != "action":
            raise RuleError("Action", f"round {state.round} is in its {state.phase} phase")
        if not can_take_turn(state, who):
            turn = ", ".join(on_turn(state)) or "nobody"
            raise RuleError("Action", f"it is not {who}'s turn (on turn: {turn})")
        if f.plan is None:
            raise RuleError(
                "Action",
                f"{who} must declare all of his actions for the round first, so that he knows "
                "how much to penalize his skills",
            )
        index = next_index(f)
        if index is None:
            raise RuleError("Action", f"{who} has no declared action left this round")
        step = f.plan[index]
        base = step_base(state, who, f, index)
        if step.kind is StepKind.MOVE:
            b.extend(_move(state, who, f, step, index, base, dice))
            return
        if step.kind is StepKind.MINOR:
            b.add(Event(MINOR_DONE, base | {"name": step.name}))
            return
        if step.kind is StepKind.TASK:
            b.extend(_task(state, who, f, step, base, dice))
            return
        b.extend(attack(state, who, f, step, base, dice))

    return act


def _move(
    state: Encounter,
    who: str,
    f: Fighter,
    step: Step,
    index: int,
    base: dict[str, Any],
    dice: DiceSource,
) -> list[Event]:
    assert step.movement is not None
    n = f.scheduled(state.options.defence)[index].movement_actions
    moved = base | {"movement": step.movement.value, "yards": step.yards, "movement_actions": n}
    if step.roll_skill is not None:
        # "the master may require an Acrobatics roll (base Dex for those without the skill)";
        # "a Riding roll may be necessary in difficult circumstances".
        roll = f.roll_of(step.roll_skill, state.options.defence)
        check = roll.against(step.challenge)
        result = check.roll(dice)
        card = RollCard.of(
            check, result, f"{_own(who)} {step.roll_skill} ({step.movement.value})", rule="Movement"
        )
        moved |= {
            "skill": step.roll_skill,
            "challenge": step.challenge,
            "expression": roll.side.expression,
            "odds": str(check.odds().success),
            **result.to_json(),
            "roll": card.to_json(),
        }
        if not result.is_success:
            return [Event(CHARACTER_STUMBLED, moved | {"yards": 0})]
    return [Event(CHARACTER_MOVED, moved)]


def _task(
    state: Encounter, who: str, f: Fighter, step: Step, base: dict[str, Any], dice: DiceSource
) -> list[Event]:
    assert step.skill is not None
    name = step.name or step.skill
    done = f.task_rounds if f.task == name else 0
    if step.rounds > 1 and done + 1 < step.rounds:
        return [
            Event(
                TASK_CONTINUED,
                base
                | {
                    "task": name,
                    "round_of_task": done + 1,
                    "rounds": step.rounds,
                    "engrossing": step.engrossing,
                },
            )
        ]
    roll = f.roll_of(step.skill, state.options.defence)
    check = roll.against(step.challenge)
    result = check.roll(dice)
    card = RollCard.of(check, result, f"{title_of(who)}: {name} ({step.skill})", rule="Action")
    return [
        Event(
            TASK_ROLLED,
            base
            | {
                "task": name,
                "skill": step.skill,
                "challenge": step.challenge,
                "expression": roll.side.expression,
                "odds": str(check.odds().success),
                **result.to_json(),
                "success": result.is_success,
                "roll": card.to_json(),
            },
        )
    ]


def decide_wait(b: Builder[Encounter], action: Action, dice: DiceSource) -> None:
    """ "A character may choose to wait upon reaching his Initiative"."""
    state = b.state
    who = action.actor
    f = state.fighter(who)
    if f.waiting:
        raise RuleError("Waiting", f"{who} is already waiting")
    if who not in on_turn(state):
        said = waiting(state, who)
        why = f": {said.reason}" if said is not None else ""
        raise RuleError("Waiting", f"{who} may wait only upon reaching his Initiative{why}")
    b.add(Event(CHARACTER_WAITED, {"character": who}))


def decide_hold(b: Builder[Encounter], action: Action, dice: DiceSource) -> None:
    """A waiting character holds his action over into the next round."""
    state = b.state
    who = action.actor
    f = state.fighter(who)
    if not f.waiting or f.acted:
        why = f"{who} has acted this round" if f.acted else f"{who} is not waiting"
        raise RuleError(
            "Waiting",
            "only a waiting character who has not acted may hold his action over into the "
            f"next round: {why}",
        )
    if f.holding:
        raise RuleError("Waiting", f"{who} already holds his action over into the next round")
    b.add(Event(ACTION_HELD, {"character": who, "round": state.round + 1}))


def decide_push(b: Builder[Encounter], action: Action, dice: DiceSource) -> None:
    """Pushing Power: +1 Strength and Willpower per hit of Stamina spent, for the round."""
    state = b.state
    who = action.actor
    f = state.fighter(who)
    spend = PUSH.of(action).hits
    left, exhausted = push_power(f.hits, spend)
    b.add(
        Event(
            POWER_PUSHED,
            {
                "character": who,
                "hits": spend,
                "hits_left": left,
                "strength": f.strength + spend,
                "willpower": f.willpower + spend,
                "exhausted": exhausted,
            },
        )
    )


# ---------------------------------------------------------------------------------- folds


def _tick(state: Encounter, who: str, d: Mapping[str, Any]) -> Encounter:
    """Move the round's clock to a step taken in turn (a waiting character's step is "now")."""
    f = state.fighters[who]
    if f.waiting or d.get("initiative") is None:
        return state
    key = (f.rank, int(d["initiative"]))
    if state.clock is not None and key > state.clock:
        # A step taken later than its Initiative (a waiter's second step): the round does
        # not go back to it.
        return state
    return evolved(state, clock=key)


def fold_plan_declared(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """The declared steps; a multi-round action not carried on this round is abandoned."""
    who = str(d["character"])
    steps = tuple(Step.from_json(s) for s in d["steps"] if isinstance(s, Mapping))
    f = state.fighters[who]
    if f.task is not None and not any(
        s.kind is StepKind.TASK and (s.name or s.skill) == f.task for s in steps
    ):
        return state.with_fighter(who, plan=steps, task=None, task_rounds=0, task_engrossing=False)
    return state.with_fighter(who, plan=steps)


def fold_turn_aborted(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """The rest of the turn dropped; the stance turned to the defence's."""
    who = str(d["character"])
    f = state.fighters[who]
    return state.with_fighter(
        who, plan=None, stance=Stance(str(d["stance"])), next_step=f.next_step, waiting=False
    )


def fold_moved(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """A movement step taken (``character.moved``; ``character.stumbled`` gets nowhere and
    changes nothing of his posture)."""
    who = str(d["character"])
    f = state.fighters[who]
    if "skill" not in d or d.get("outcome") != "failure":
        move = Movement(str(d["movement"]))
        if move in (Movement.STAND, Movement.PRONE):
            state = state.with_fighter(who, prone=move is Movement.PRONE)
        elif move in (Movement.MOUNT, Movement.DISMOUNT):
            state = state.with_fighter(who, mounted=move is Movement.MOUNT)
    state = _tick(state, who, d)
    return state.with_fighter(
        who,
        next_step=int(d["step"]) + 1,
        # "Falling to a prone position on the ground is a free action": not an action that
        # keeps him from Recovery (ruling 29).
        acted=f.acted or d["movement"] != Movement.PRONE.value,
        waiting=False,
        yards_moved=f.yards_moved + int(d["yards"]),
    )


def fold_step_taken(state: Encounter, d: Mapping[str, Any], **changes: Any) -> Encounter:
    """A step taken in turn (or after waiting): the next step, and the character has acted."""
    who = str(d["character"])
    state = _tick(state, who, d)
    return state.with_fighter(
        who, next_step=int(d["step"]) + 1, acted=True, waiting=False, **changes
    )


def fold_minor_done(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """A minor action done."""
    return fold_step_taken(state, d)


def fold_task_continued(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """A round of a multi-round action."""
    return fold_step_taken(
        state,
        d,
        task=str(d["task"]),
        task_rounds=int(d["round_of_task"]),
        task_engrossing=bool(d["engrossing"]),
    )


def fold_task_rolled(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """A task rolled: if it was the multi-round action under way, that is over (a one-round
    task beside it leaves it be)."""
    if state.fighters[str(d["character"])].task != d["task"]:
        return fold_step_taken(state, d)
    return fold_step_taken(state, d, task=None, task_rounds=0, task_engrossing=False)


def fold_waited(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """Waiting."""
    return state.with_fighter(str(d["character"]), waiting=True)


def fold_action_held(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """Holding the action over."""
    return state.with_fighter(str(d["character"]), holding=True)


def fold_power_pushed(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """Hits spent; Strength and Willpower up for the round."""
    who = str(d["character"])
    f = state.fighters[who]
    return state.with_fighter(who, hits=int(d["hits_left"]), pushed=f.pushed + int(d["hits"]))


FOLDS = {
    PLAN_DECLARED: fold_plan_declared,
    TURN_ABORTED: fold_turn_aborted,
    CHARACTER_MOVED: fold_moved,
    CHARACTER_STUMBLED: fold_moved,
    MINOR_DONE: fold_minor_done,
    TASK_CONTINUED: fold_task_continued,
    TASK_ROLLED: fold_task_rolled,
    CHARACTER_WAITED: fold_waited,
    ACTION_HELD: fold_action_held,
    POWER_PUSHED: fold_power_pushed,
}
"""This module's event kinds and their folds."""

"""An encounter played round by round: the ``hursagmu`` procedure (hursagmu-encounters.txt).

Each round has three phases ("Conflict"): Initiative (each character chooses to maneuver or
concentrate and rolls Quickness or Command), Action (characters carry out their declared steps
in Initiative order) and Recovery (at ``end_round``).

Actions (``Action(actor, kind, params)``):

=============  =================================================================================
``round_zero`` the initiator opens the conflict: ``{stance, with: [ids], surprised: [ids]}``
``initiative`` ``{stance: maneuver|concentrate, modifier: 0}``: roll Quickness or Command
``declare``    ``{actions: [steps]}``: everything the character will do this round
``act``        perform the next declared step (a movement, a minor action, an attack, a task)
``defend``     the target of a pending attack defends (``{actions: [...]}`` if not yet declared)
``take``       the target of a pending attack takes the hit
``wait``       on one's turn, wait; act later at any time
``hold``       a waiting character holds his action over into the next round
``push``       ``{hits: n}``: pushing power, +n Strength and Willpower for the round
``end_round``  (referee) Recovery, then the next round
``condition``  (referee) ``{character, health_ok, sanity_ok}``
``perceive``   (referee) ``{character, skill, challenge, sense, yards, factors, asleep, soft}``
``sneak``      ``{perceiver, skill: stealth|shadowing, modifier}``: an opposed roll, in secret
``race``       ``{against}``: both roll Quickness; the winner gains a yard per point
=============  =================================================================================

Scenario ``setup``: ``characters: {id: sheet}`` (see :func:`character_from_json`) and
``options: {defence: each|cinematic, damage_roll: 2d6|1d6, charge_momentum: false}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from referee.core import (
    REFEREE_ONLY,
    Action,
    ActorId,
    Event,
    Outcome,
    Procedure,
    RuleError,
    ScenarioError,
    Secret,
    Viewer,
    only,
)
from referee.core.values import JsonObject
from referee.dice import DiceSource
from referee.systems.hursagmu.movement import (
    DamageRoll,
    charge_momentum,
    damage_base,
    race_check,
    race_gain,
    range_challenge,
)
from referee.systems.hursagmu.perception import (
    Awareness,
    divination_check,
    observation_check,
    perception_check,
)
from referee.systems.hursagmu.rounds import (
    HASTE_BONUS,
    DefenceMode,
    DefenceResponse,
    RoundPlan,
    Step,
    StepKind,
    can_recover,
    defence_response,
    defence_skill,
    plan_from_json,
    push_power,
    schedule,
    skill_penalty,
    validate_plan,
)
from referee.systems.hursagmu.sheet import Stance, character_from_json, skill_stance
from referee.systems.hursagmu.state import (
    HELD,
    REFEREE_ACTOR,
    ROUND_SECONDS,
    WAITED,
    Encounter,
    Fighter,
    Options,
    Pending,
    can_take_turn,
    next_index,
    next_key,
    on_turn,
)
from referee.systems.hursagmu.tables import SORCERY_TYPES

__all__ = [
    "REFEREE_ACTOR",
    "ROUND_SECONDS",
    "Encounter",
    "EncounterProcedure",
    "Fighter",
    "Options",
    "Pending",
]

# ------------------------------------------------------------------------------- set-up


def _options(data: Any) -> Options:
    if data is None:
        return Options()
    if not isinstance(data, Mapping):
        raise ScenarioError("options is a mapping", ("options",))
    unknown = set(data) - {"defence", "damage_roll", "charge_momentum"}
    if unknown:
        raise ScenarioError(f"unknown option {sorted(unknown)[0]!r}", ("options",))
    try:
        mode = DefenceMode(data.get("defence", "each"))
    except ValueError:
        raise ScenarioError("defence is 'each' or 'cinematic'", ("options", "defence")) from None
    dice = data.get("damage_roll", "2d6")
    if dice not in ("2d6", "1d6"):
        raise ScenarioError("damage_roll is '2d6' or '1d6'", ("options", "damage_roll"))
    momentum = data.get("charge_momentum", False)
    if not isinstance(momentum, bool):
        raise ScenarioError("charge_momentum is true or false", ("options", "charge_momentum"))
    return Options(mode, dice, momentum)


# ------------------------------------------------------------------------------- helpers


def _int(params: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = params.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("Encounter", f"{key} must be a whole number, not {value!r}")
    return value


def _flag(params: Mapping[str, Any], key: str) -> bool:
    value = params.get(key, False)
    if not isinstance(value, bool):
        raise RuleError("Encounter", f"{key} is true or false, not {value!r}")
    return value


def _stance(value: Any) -> Stance:
    try:
        return Stance(value)
    except ValueError:
        raise RuleError(
            "Initiative", f"choose to 'maneuver' or 'concentrate', not {value!r}"
        ) from None


def _i(d: Mapping[str, Any], key: str) -> int:
    return int(d[key])


def _strs(d: Mapping[str, Any], key: str) -> list[str]:
    value = d.get(key) or []
    if not isinstance(value, list | tuple):
        raise RuleError("Encounter", f"{key} is a list of characters, not {value!r}")
    return [str(v) for v in value]


def _factors(value: Any) -> dict[str, int]:
    if not isinstance(value, Mapping) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value.values()
    ):
        raise RuleError("Perception and Observation", "factors is a mapping of name to size")
    return {str(k): int(v) for k, v in value.items()}


def _ranged_ability(f: Fighter, step: Step) -> str:
    """The range table entry of a ranged attack: as declared, the sorcery type rolled, or the
    character's thrown or missile weapon ("Range")."""
    if step.ability is not None:
        return step.ability
    if step.skill is not None and step.skill.capitalize() in SORCERY_TYPES:
        return step.skill
    if f.sheet.weapon_type != "melee":
        return f.sheet.weapon_type
    raise RuleError("Range", "a ranged attack names its range table entry "
                    "(ability: missile weapon, thrown weapon, Mahasu...)")


def _used_a_skill(f: Fighter) -> bool:
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


def _tick(state: Encounter, who: str, d: Mapping[str, Any]) -> Encounter:
    """Move the round's clock to a step taken in turn (a waiting character's step is "now")."""
    f = state.fighters[who]
    if f.waiting or d.get("initiative") is None:
        return state
    return replace(state, clock=(f.rank, int(d["initiative"])))


def _odds(check: Any) -> str:
    return str(check.odds().success)


def _plan_payload(state: Encounter, who: str, f: Fighter, plan: RoundPlan) -> dict[str, Any]:
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


class EncounterProcedure(Procedure[Encounter]):
    """Hursagmu's encounter rules as a kernel :class:`Procedure` (``system: hursagmu``)."""

    # -- set-up ----------------------------------------------------------------------------

    def initial_state(self, setup: Mapping[str, Any]) -> Encounter:
        """Characters and options from the scenario's setup."""
        characters = setup.get("characters")
        if not isinstance(characters, Mapping) or not characters:
            raise ScenarioError("an encounter needs characters", ("characters",))
        fighters: dict[str, Fighter] = {}
        for name, data in characters.items():
            if name == REFEREE_ACTOR:
                raise ScenarioError("'referee' is the Master, not a character",
                                    ("characters", name))
            sheet = character_from_json(str(name), data, ("characters", str(name)))
            hits = sheet.hits if sheet.hits is not None else sheet.stamina
            fighters[str(name)] = Fighter(sheet, hits, conscious=hits > 0,
                                          health_ok=sheet.health_ok, sanity_ok=sheet.sanity_ok)
        unknown = set(setup) - {"characters", "options"}
        if unknown:
            raise ScenarioError(f"unknown field {sorted(unknown)[0]!r}", ())
        return Encounter(_options(setup.get("options")), fighters)

    def actors(self, state: Encounter) -> Sequence[ActorId]:
        """The characters and the Master."""
        return (*state.fighters, REFEREE_ACTOR)

    def legal_actions(self, state: Encounter, actor: ActorId) -> Sequence[Action]:
        """What ``actor`` may do now (representative parameters)."""
        if actor == REFEREE_ACTOR:
            acts: list[Action] = [Action(actor, "condition", {})]
            if state.phase == "action" and state.pending is None and self._round_done(state):
                acts.insert(0, Action(actor, "end_round"))
            return acts
        if actor not in state.fighters or not state.fighters[actor].conscious:
            return ()
        f = state.fighters[actor]
        if state.pending is not None:
            if state.pending.target == actor:
                return (Action(actor, "defend"), Action(actor, "take"))
            return ()
        acts = []
        if not state.started and state.round == 1:
            acts.append(Action(actor, "round_zero", {"stance": "maneuver"}))
        if state.phase == "initiative" and f.initiative is None:
            acts += [Action(actor, "initiative", {"stance": s.value}) for s in Stance]
        if state.phase == "action" and can_take_turn(state, actor):
            if f.plan is None:
                acts.append(Action(actor, "declare", {"actions": []}))
            else:
                acts.append(Action(actor, "act"))
            if not f.waiting:
                acts.append(Action(actor, "wait"))
        if f.waiting and not f.acted:
            acts.append(Action(actor, "hold"))
        if f.hits > 0:
            acts.append(Action(actor, "push", {"hits": 1}))
        return acts

    # -- decide ----------------------------------------------------------------------------

    def decide(self, state: Encounter, action: Action, dice: DiceSource) -> Sequence[Event]:
        """The events of ``action``; :class:`RuleError` if the rules refuse it."""
        handler = getattr(self, f"_do_{action.kind}", None)
        if handler is None:
            kinds = ("round_zero initiative declare act defend take wait hold push end_round "
                     "condition perceive sneak race")
            raise RuleError("Encounter", f"no action {action.kind!r} (known: {kinds})")
        if action.actor != REFEREE_ACTOR:
            f = state.fighter(action.actor)
            if not f.conscious and action.kind not in ("condition",):
                raise RuleError(
                    "Action", f"{action.actor} is unconscious: "
                    '"If a character is knocked out or killed before his turn, he gets no action"'
                )
        if state.pending is not None and action.kind not in ("defend", "take", "condition",
                                                             "perceive"):
            p = state.pending
            raise RuleError("Action", f"{p.target} must first defend against or take "
                            f"{p.attacker}'s attack")
        events: list[Event] = handler(state, action, dice)
        return events

    def _referee_only(self, action: Action) -> None:
        if action.actor != REFEREE_ACTOR:
            raise RuleError("Encounter", f"{action.kind!r} is the Master's action, not "
                            f"{action.actor}'s")

    def _do_round_zero(self, state: Encounter, action: Action, dice: DiceSource) -> list[Event]:
        if state.started or state.round != 1:
            raise RuleError("Round Zero", "round zero marks the beginning of a conflict; "
                            "this one has begun")
        group = [action.actor, *_strs(action.params, "with")]
        surprised = _strs(action.params, "surprised")
        for who in (*group, *surprised):
            state.fighter(who)
        if set(group) & set(surprised):
            raise RuleError("Round Zero", "an initiator cannot be surprised")
        stance = _stance(action.params.get("stance", "maneuver"))
        return [Event("round_zero.began", {"initiators": group, "surprised": surprised,
                                           "stance": stance.value})]

    def _do_initiative(self, state: Encounter, action: Action, dice: DiceSource) -> list[Event]:
        who = action.actor
        f = state.fighter(who)
        if state.phase != "initiative":
            raise RuleError("Initiative", f"round {state.round} is past its Initiative phase")
        if f.initiative is not None:
            raise RuleError("Initiative", f"{who} already has Initiative {f.initiative}")
        stance = _stance(action.params.get("stance"))
        modifier = _int(action.params, "modifier", 0)
        payload: dict[str, Any] = {"character": who, "stance": stance.value,
                                   "skill": stance.initiative_skill}
        if f.held_over:
            payload |= {"initiative": 0, "rank": HELD, "held": True}
        else:
            roll = f.sheet.skill_roll(stance.initiative_skill, modifier)
            check = roll.against(0)
            result = check.roll(dice)
            payload |= {"initiative": result.value, "rank": WAITED if f.waited_game else 0,
                        "modifier": modifier, "faces": list(result.faces),
                        "expression": roll.side.expression}
        events = [Event("initiative.rolled", payload)]
        missing = [w for w, g in state.fighters.items()
                   if g.conscious and g.initiative is None and w != who]
        if not missing:
            events.append(Event("actions.began", {"round": state.round}))
        return events

    def _declare(
        self, state: Encounter, who: str, raw: Any, *, check_stance: bool = True
    ) -> tuple[RoundPlan, Event]:
        f = state.fighter(who)
        if f.plan is not None:
            raise RuleError("Action", f"{who} has declared this round's actions already")
        if state.phase != "action":
            raise RuleError("Action", "actions are declared in the Action phase")
        plan = plan_from_json(raw if raw is not None else [], rate=f.rate,
                              mount=f.sheet.mount, mode=state.options.defence,
                              max_lift=f.sheet.max_lift, load=f.sheet.load)
        if not plan.steps:
            raise RuleError("Action", "declare at least one action (or wait)")
        validate_plan(plan, f.stance if check_stance else None)
        if plan.haste and state.clock is not None and f.initiative is not None:
            hasted = f.initiative + HASTE_BONUS * plan.haste
            if (f.rank, hasted) > state.clock:
                raise RuleError(
                    "Haste",
                    f"the round has passed Initiative {hasted}; Haste must be declared before "
                    f"it comes (the last action was at {state.clock[1]})",
                )
        for step in plan.steps:
            if step.kind is StepKind.ATTACK:
                state.fighter(step.target or "")
                if step.target == who:
                    raise RuleError("Action", f"{who} cannot attack himself")
                if step.yards:
                    range_challenge(step.yards, _ranged_ability(f, step))
        if state.round == 0 and f.rank != HELD and any(
            s.kind is not StepKind.DEFEND for s in plan.steps
        ):
            raise RuleError("Round Zero", "only the initiators act on round zero; their "
                            "opponents may only defend")
        return plan, Event("plan.declared", _plan_payload(state, who, f, plan))

    def _do_declare(self, state: Encounter, action: Action, dice: DiceSource) -> list[Event]:
        who = action.actor
        if state.phase == "action" and state.round == 0 and state.fighter(who).rank != HELD:
            raise RuleError("Round Zero", f"{who} is not an initiator: only the initiators act "
                            "on round zero")
        _, event = self._declare(state, who, action.params.get("actions"))
        return [event]

    def _do_wait(self, state: Encounter, action: Action, dice: DiceSource) -> list[Event]:
        who = action.actor
        f = state.fighter(who)
        if f.waiting:
            raise RuleError("Waiting", f"{who} is already waiting")
        if who not in on_turn(state):
            raise RuleError("Waiting", f"{who} may wait only upon reaching his Initiative")
        return [Event("character.waited", {"character": who})]

    def _do_hold(self, state: Encounter, action: Action, dice: DiceSource) -> list[Event]:
        who = action.actor
        f = state.fighter(who)
        if not f.waiting or f.acted:
            raise RuleError("Waiting", f"only a waiting character who has not acted may hold "
                            f"his action over into the next round ({who})")
        return [Event("action.held", {"character": who, "round": state.round + 1})]

    def _do_push(self, state: Encounter, action: Action, dice: DiceSource) -> list[Event]:
        who = action.actor
        f = state.fighter(who)
        spend = _int(action.params, "hits", 1)
        left, exhausted = push_power(f.hits, spend)
        return [Event("power.pushed", {
            "character": who, "hits": spend, "hits_left": left,
            "strength": f.strength + spend, "willpower": f.willpower + spend,
            "exhausted": exhausted,
        })]

    def _do_condition(self, state: Encounter, action: Action, dice: DiceSource) -> list[Event]:
        self._referee_only(action)
        who = str(action.params.get("character", ""))
        f = state.fighter(who)
        payload: dict[str, Any] = {"character": who}
        for key in ("health_ok", "sanity_ok"):
            value = action.params.get(key, getattr(f, key))
            if not isinstance(value, bool):
                raise RuleError("Recovery", f"{key} is true or false, not {value!r}")
            payload[key] = value
        return [Event("condition.set", payload)]

    # -- steps -----------------------------------------------------------------------------

    def _do_act(self, state: Encounter, action: Action, dice: DiceSource) -> list[Event]:
        who = action.actor
        f = state.fighter(who)
        if state.phase != "action":
            raise RuleError("Action", f"round {state.round} is in its {state.phase} phase")
        if not can_take_turn(state, who):
            turn = ", ".join(on_turn(state)) or "nobody"
            raise RuleError("Action", f"it is not {who}'s turn (on turn: {turn})")
        if f.plan is None:
            raise RuleError("Action", f"{who} must declare all of his actions for the round "
                            "first (declare)")
        index = next_index(f)
        if index is None:
            raise RuleError("Action", f"{who} has no declared action left this round")
        step = f.plan[index]
        initiative = f.scheduled(state.options.defence)[index].initiative
        base: dict[str, Any] = {"character": who, "step": index, "initiative": initiative}
        if f.waiting:
            # "A waiting character may take his action at any time, even within the action of
            # another character": the step happens now, at the round's current moment.
            base["after_waiting"] = True
        if step.kind is StepKind.MOVE:
            assert step.movement is not None
            n = f.scheduled(state.options.defence)[index].movement_actions
            moved = base | {"movement": step.movement.value, "yards": step.yards,
                            "movement_actions": n}
            if step.roll_skill is not None:
                # "the master may require an Acrobatics roll (base Dex for those without the
                # skill)"; "a Riding roll may be necessary in difficult circumstances".
                roll = f.roll_of(step.roll_skill, state.options.defence)
                check = roll.against(step.challenge)
                odds = _odds(check)
                result = check.roll(dice)
                moved |= {"skill": step.roll_skill, "challenge": step.challenge,
                          "expression": roll.side.expression, "odds": odds,
                          **result.to_json()}
                if not result.is_success:
                    return [Event("character.stumbled", moved | {"yards": 0})]
            return [Event("character.moved", moved)]
        if step.kind is StepKind.MINOR:
            return [Event("minor.done", base | {"name": step.name})]
        if step.kind is StepKind.TASK:
            return self._task(state, who, f, step, base, dice)
        return self._attack(state, who, f, step, base, dice)

    def _task(self, state: Encounter, who: str, f: Fighter, step: Step,
              base: dict[str, Any], dice: DiceSource) -> list[Event]:
        assert step.skill is not None
        name = step.name or step.skill
        done = f.task_rounds if f.task == name else 0
        if step.rounds > 1 and done + 1 < step.rounds:
            return [Event("task.continued", base | {"task": name, "round_of_task": done + 1,
                                                    "rounds": step.rounds,
                                                    "engrossing": step.engrossing})]
        roll = f.roll_of(step.skill, state.options.defence)
        check = roll.against(step.challenge)
        odds = _odds(check)
        result = check.roll(dice)
        return [Event("task.rolled", base | {
            "task": name, "skill": step.skill, "challenge": step.challenge,
            "expression": roll.side.expression, "odds": odds, **result.to_json(),
            "success": result.is_success,
        })]

    def _attack(self, state: Encounter, who: str, f: Fighter, step: Step,
                base: dict[str, Any], dice: DiceSource) -> list[Event]:
        assert step.skill is not None and step.target is not None
        target = state.fighter(step.target)
        challenge = 0
        if step.yards:
            challenge = range_challenge(step.yards, _ranged_ability(f, step))
        response, reason = self._response(state, step.target, step.skill)
        made = Event("attack.made", base | {
            "target": step.target, "skill": step.skill, "range_challenge": challenge,
            "defence": response.value, **({"reason": reason} if reason else {}),
        })
        if response is DefenceResponse.NONE or not target.conscious:
            pending = Pending(who, step.target, step.skill, challenge, response)
            return [made, *self._resolve(state, pending, defended=False, dice=dice,
)]
        return [made]

    def _response(self, state: Encounter, target: str, skill: str) -> tuple[DefenceResponse, str]:
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
        response = defence_response(t.stance, skill)
        if response is DefenceResponse.ABORT and _used_a_skill(t):
            # "A character cannot use both Dex and Int skills during the same round": what he
            # has already rolled cannot be aborted, so the other kind's defence is out of reach.
            kind = "Dexterity" if t.stance is Stance.MANEUVER else "Intelligence"
            return DefenceResponse.NONE, (
                f"already used a {kind} skill this round: cannot use both Dex and Int skills "
                "during the same round"
            )
        if response is DefenceResponse.DEFEND and t.plan is not None:
            needed = defence_skill(skill)
            left = [s for s in t.plan if s.kind is StepKind.DEFEND and s.skill == needed]
            if state.options.defence is DefenceMode.EACH:
                if len(left) <= t.defences_used:
                    return DefenceResponse.NONE, "no declared defence left"
            elif not left:
                return DefenceResponse.NONE, "no defence declared"
        return response, ""

    def _do_take(self, state: Encounter, action: Action, dice: DiceSource) -> list[Event]:
        p = state.pending
        if p is None or p.target != action.actor:
            raise RuleError("Action", f"{action.actor} is not the target of a pending attack")
        return self._resolve(state, p, defended=False, dice=dice)

    def _do_defend(self, state: Encounter, action: Action, dice: DiceSource) -> list[Event]:
        p = state.pending
        who = action.actor
        if p is None or p.target != who:
            raise RuleError("Action", f"{who} is not the target of a pending attack")
        f = state.fighter(who)
        needed = defence_skill(p.skill)
        events: list[Event] = []
        if p.response is DefenceResponse.ABORT:
            # What he has done stays (no skill was rolled, or there would be no abort); a
            # declared defence not yet rolled goes with the rest of his turn.
            kept = [s for s in (f.plan or ())[: f.next_step] if s.kind is not StepKind.DEFEND]
            new_plan = [s.to_json() for s in (*kept, Step.defend(needed))]
            stance = Stance.MANEUVER if needed == "defense" else Stance.CONCENTRATE
            dropped = len(f.plan or ()) - len(kept)
            events.append(Event("turn.aborted", {
                "character": who, "dropped": dropped, "stance": stance.value,
                "reason": "the defence needed is not the kind declared at Initiative",
            }))
            tmp = state.with_fighter(who, plan=None, stance=stance)
            _, declared = self._declare(tmp, who, new_plan, check_stance=False)
            events.append(declared)
        elif f.plan is None:
            raw = action.params.get("actions")
            if raw is None:
                raise RuleError("Action", f"{who} must declare all of his actions for the round "
                                "before the defensive roll (defend with actions: [...])")
            plan, declared = self._declare(state, who, raw)
            if not any(s.kind is StepKind.DEFEND and s.skill == needed for s in plan.steps):
                raise RuleError("Action", f"{who}'s declared actions include no {needed} "
                                "defence")
            events.append(declared)
        state_now = state
        for event in events:
            state_now = self.evolve(state_now, event)
        return events + self._resolve(state_now, p, defended=True, dice=dice)

    def _resolve(
        self, state: Encounter, p: Pending, *, defended: bool, dice: DiceSource
    ) -> list[Event]:
        attacker = state.fighters[p.attacker]
        target = state.fighters[p.target]
        mode = state.options.defence
        roll = attacker.roll_of(p.skill, mode)
        payload: dict[str, Any] = {"attacker": p.attacker, "target": p.target,
                                   "skill": p.skill, "defended": defended}
        if defended:
            needed = defence_skill(p.skill)
            theirs = target.roll_of(needed, mode)
            check = roll.versus(theirs, p.challenge)
            payload |= {"defence_skill": needed,
                        "expression": f"{roll.side.expression} vs "
                                      f"{theirs.side.expression}"
                                      + (f"+{p.challenge}" if p.challenge else "")}
            odds = _odds(check)
            result = check.roll(dice)
        else:
            target_check = roll.against(p.challenge)
            payload |= {"expression": f"{roll.side.expression} vs {p.challenge}"}
            odds = _odds(target_check)
            result = target_check.roll(dice)
        payload |= {"odds": odds, **result.to_json(), "hit": result.is_success}
        events = [Event("attack.resolved", payload)]
        if not result.is_success:
            return events
        momentum = 0
        melee = p.skill == "striking" and attacker.sheet.weapon_type == "melee"
        if state.options.charge_momentum and melee:
            momentum = charge_momentum(attacker.yards_moved) + charge_momentum(target.yards_moved)
        damage = DamageRoll(damage_base(attacker.sheet.weapon, attacker.strength), momentum,
                            state.options.damage_roll)
        amount, rolled = damage.roll(dice)
        amount = max(0, amount)  # a feeble blow does no damage; it never heals
        left = target.hits - amount
        events.append(Event("damage.taken", {
            "character": p.target, "by": p.attacker, "damage": amount,
            "weapon": attacker.sheet.weapon, "strength": attacker.strength,
            "damage_roll": int(rolled.total), "momentum": momentum,
            "faces": list(rolled.faces),
            "hits_left": left,
        }))
        if amount > 0 and target.task is not None and target.task_rounds > 0:
            events.append(Event("task.failed", {"character": p.target, "task": target.task,
                                                "reason": "injured during a multi-round action"}))
        if left <= 0 < target.hits:
            events.append(Event("character.collapsed", {"character": p.target,
                                                        "cause": "injury"}))
        return events

    # -- the end of a round ----------------------------------------------------------------

    def _round_done(self, state: Encounter) -> bool:
        return not any(
            next_key(state, w) is not None and not f.waiting for w, f in state.fighters.items()
        )

    def _do_end_round(self, state: Encounter, action: Action, dice: DiceSource) -> list[Event]:
        self._referee_only(action)
        if state.phase != "action":
            missing = [w for w, f in state.fighters.items() if f.conscious and f.initiative is None]
            raise RuleError("Initiative", f"the round has not begun: Initiative still to roll "
                            f"for {', '.join(missing)}")
        left = [w for w, f in state.fighters.items()
                if next_key(state, w) is not None and not f.waiting]
        if left:
            raise RuleError("Action", f"{', '.join(left)} still to act or wait this round")
        waiters = [w for w, f in state.fighters.items()
                   if f.conscious and f.waiting and not f.acted and not f.holding]
        if len(waiters) < 2:
            # "If two characters both decide to wait for the other to act": a lone waiter
            # waits for nobody, and plays no waiting game.
            waiters = []
        events: list[Event] = []
        for w, f in state.fighters.items():
            if f.conscious and f.hits <= 0:
                events.append(Event("character.collapsed", {"character": w,
                                                            "cause": "exhaustion"}))
            elif f.conscious and f.hits < f.sheet.stamina and can_recover(
                acted=f.acted, injured=f.injured, health_ok=f.health_ok, sanity_ok=f.sanity_ok
            ):
                events.append(Event("hit.recovered", {"character": w, "hits": f.hits + 1}))
        events.append(Event("round.ended", {"round": state.round, "waiting_game": waiters}))
        return events

    # -- races ------------------------------------------------------------------------------

    def _do_race(self, state: Encounter, action: Action, dice: DiceSource) -> list[Event]:
        """"participants should roll their Quickness each round. For every point by which one
        character's roll beats another's, that character gains one yard of distance."
        """
        who = action.actor
        f = state.fighter(who)
        other = str(action.params.get("against", ""))
        g = state.fighter(other)
        if other == who:
            raise RuleError("Movement", f"{who} cannot race himself")
        mine = f.sheet.skill_roll("quickness")
        theirs = g.sheet.skill_roll("quickness")
        check = race_check(mine.bonus, theirs.bonus)
        chances = check.odds()
        odds = {"ahead": str(chances.success), "tie": str(chances.outcomes.get(Outcome.TIE, 0)),
                "behind": str(chances.failure)}
        result = check.roll(dice)
        gain = race_gain(result)
        leader = who if gain > 0 else other if gain < 0 else None
        return [Event("race.rolled", {
            "character": who, "against": other, "odds": odds, **result.to_json(),
            "leader": leader, "yards": abs(gain),
        })]

    # -- perception (secret rolls) ---------------------------------------------------------

    def _do_perceive(self, state: Encounter, action: Action, dice: DiceSource) -> list[Event]:
        self._referee_only(action)
        params = action.params
        who = str(params.get("character", ""))
        f = state.fighter(who)
        skill = str(params.get("skill", "perception"))
        challenge = _int(params, "challenge", 0)
        yards = _int(params, "yards", 0)
        factors = _factors(params.get("factors", {}))
        if not f.conscious:
            raise RuleError("Perception", f"{who} is unconscious: no perception rolls for "
                            "anything")
        if skill == "perception":
            awareness = Awareness.ASLEEP if _flag(params, "asleep") else Awareness.AWAKE
            check = perception_check(f.sheet, challenge, sense=str(params.get("sense", "vision")),
                                     yards=yards, factors=factors, awareness=awareness,
                                     soft_noise=_flag(params, "soft"))
        elif skill == "observation":
            check = observation_check(f.sheet, challenge, factors=factors)
        elif skill == "divination":
            check = divination_check(f.sheet, challenge, yards=yards)
        else:
            raise RuleError("Perception and Observation",
                            f"perceive with perception, observation or divination, not {skill!r}")
        odds = _odds(check)
        result = check.roll(dice)
        return [Event(
            "perception.rolled",
            {"character": who, "skill": skill, "noticed": result.is_success},
            audience=only(who),
            secrets=(
                Secret("challenge", check.target, REFEREE_ONLY),
                Secret("roll", {**result.to_json(), "odds": odds}, REFEREE_ONLY),
            ),
        )]

    def _do_sneak(self, state: Encounter, action: Action, dice: DiceSource) -> list[Event]:
        who = action.actor
        f = state.fighter(who)
        perceiver = str(action.params.get("perceiver", ""))
        p = state.fighter(perceiver)
        skill = str(action.params.get("skill", "stealth"))
        against = {"stealth": "perception", "shadowing": "observation"}.get(skill)
        if against is None:
            raise RuleError("Perception and Observation",
                            f"sneak with stealth or shadowing, not {skill!r}")
        mine = f.sheet.skill_roll(skill, _int(action.params, "modifier", 0))
        theirs = p.sheet.skill_roll(against) if p.conscious else None
        if theirs is None:
            return [Event("stealth.rolled", {"character": who, "perceiver": perceiver,
                                             "skill": skill, "noticed": False,
                                             "reason": "unconscious: senseless"},
                          audience=only(who))]
        check = mine.versus(theirs)
        odds = _odds(check)
        result = check.roll(dice)
        noticed = not result.is_success
        events = [Event("stealth.rolled", {
            "character": who, "perceiver": perceiver, "skill": skill, "against": against,
            "noticed": noticed, "odds": odds, **result.to_json(),
        }, audience=only(who))]
        if noticed:
            events.append(Event("sneak.noticed", {"character": perceiver, "noticed": who,
                                                  "skill": against},
                                audience=only(perceiver, who)))
        return events

    # -- evolve ----------------------------------------------------------------------------

    def evolve(self, state: Encounter, event: Event) -> Encounter:
        """The state after ``event``."""
        d = event.data
        kind = event.kind
        if kind == "round_zero.began":
            stance = Stance(str(d["stance"]))
            fighters = dict(state.fighters)
            for who in _strs(d, "initiators"):
                fighters[str(who)] = replace(fighters[str(who)], rank=HELD, initiative=0,
                                             stance=stance)
            for who in _strs(d, "surprised"):
                fighters[str(who)] = replace(fighters[str(who)], surprised=True)
            for who, f in fighters.items():
                if f.initiative is None:
                    fighters[who] = replace(f, initiative=0, rank=-1)
            return replace(state, fighters=fighters, round=0, phase="action", started=True)
        if kind == "initiative.rolled":
            who = str(d["character"])
            return replace(state.with_fighter(
                who, stance=Stance(str(d["stance"])), initiative=_i(d, "initiative"),
                rank=_i(d, "rank"),
            ), started=True)
        if kind == "actions.began":
            return replace(state, phase="action")
        if kind == "plan.declared":
            who = str(d["character"])
            raw = d["steps"]
            assert isinstance(raw, list | tuple)
            steps = tuple(Step.from_json(s) for s in raw if isinstance(s, Mapping))
            f = state.fighters[who]
            if f.task is not None and not any(
                s.kind is StepKind.TASK and (s.name or s.skill) == f.task for s in steps
            ):
                # A multi-round action not carried on this round is abandoned.
                return state.with_fighter(who, plan=steps, task=None, task_rounds=0,
                                          task_engrossing=False)
            return state.with_fighter(who, plan=steps)
        if kind == "turn.aborted":
            who = str(d["character"])
            f = state.fighters[who]
            return state.with_fighter(who, plan=None, stance=Stance(str(d["stance"])),
                                      next_step=f.next_step, waiting=False)
        if kind in ("character.moved", "character.stumbled"):
            who = str(d["character"])
            f = state.fighters[who]
            state = _tick(state, who, d)
            return state.with_fighter(who, next_step=_i(d, "step") + 1, acted=True,
                                      waiting=False,
                                      yards_moved=f.yards_moved + _i(d, "yards"))
        if kind in ("minor.done", "task.rolled", "task.continued", "attack.made"):
            who = str(d["character"])
            state = _tick(state, who, d)
            changes: dict[str, Any] = {"next_step": _i(d, "step") + 1,
                                       "acted": True, "waiting": False}
            if kind == "task.continued":
                changes |= {"task": str(d["task"]), "task_rounds": _i(d, "round_of_task"),
                            "task_engrossing": bool(d["engrossing"])}
            elif kind == "task.rolled":
                changes |= {"task": None, "task_rounds": 0, "task_engrossing": False}
            new = state.with_fighter(who, **changes)
            if kind == "attack.made" and d["defence"] != DefenceResponse.NONE.value:
                new = replace(new, pending=Pending(
                    who, str(d["target"]), str(d["skill"]), _i(d, "range_challenge"),
                    DefenceResponse(str(d["defence"])),
                ))
            return new
        if kind == "attack.resolved":
            new = replace(state, pending=None)
            if d["defended"]:
                who = str(d["target"])
                f = new.fighters[who]
                new = new.with_fighter(who, defences_used=f.defences_used + 1, acted=True)
            return new
        if kind == "damage.taken":
            who = str(d["character"])
            # "If a character is injured during the round (takes even 1 point of damage)"
            injured = state.fighters[who].injured or _i(d, "damage") > 0
            return state.with_fighter(who, hits=_i(d, "hits_left"), injured=injured)
        if kind == "task.failed":
            return state.with_fighter(str(d["character"]), task=None, task_rounds=0,
                                      task_engrossing=False)
        if kind == "character.collapsed":
            who = str(d["character"])
            return state.with_fighter(who, conscious=False, waiting=False)
        if kind == "character.waited":
            return state.with_fighter(str(d["character"]), waiting=True)
        if kind == "action.held":
            return state.with_fighter(str(d["character"]), holding=True)
        if kind == "power.pushed":
            who = str(d["character"])
            f = state.fighters[who]
            return state.with_fighter(who, hits=_i(d, "hits_left"),
                                      pushed=f.pushed + _i(d, "hits"))
        if kind == "condition.set":
            return state.with_fighter(str(d["character"]), health_ok=bool(d["health_ok"]),
                                      sanity_ok=bool(d["sanity_ok"]))
        if kind == "hit.recovered":
            return state.with_fighter(str(d["character"]), hits=_i(d, "hits"))
        if kind == "round.ended":
            waiters = set(_strs(d, "waiting_game"))
            fighters = {
                who: Fighter(
                    f.sheet, f.hits, conscious=f.conscious, health_ok=f.health_ok,
                    sanity_ok=f.sanity_ok, held_over=f.holding, waited_game=who in waiters,
                    task=f.task, task_rounds=f.task_rounds, task_engrossing=f.task_engrossing,
                )
                for who, f in state.fighters.items()
            }
            return replace(state, fighters=fighters, round=state.round + 1, phase="initiative",
                           pending=None, clock=None)
        return state

    # -- views -----------------------------------------------------------------------------

    def state_json(self, state: Encounter) -> JsonObject:
        """The encounter as JSON: what ``expect: path`` reads."""
        mode = state.options.defence
        characters: dict[str, Any] = {}
        for who, f in state.fighters.items():
            plan = f.round_plan(mode)
            characters[who] = {
                "hits": f.hits, "stamina": f.sheet.stamina, "conscious": f.conscious,
                "stance": None if f.stance is None else f.stance.value,
                "initiative": f.initiative, "rank": f.rank,
                "plan": [
                    {**i.step.to_json(), "initiative": i.initiative}
                    for i in f.scheduled(mode)
                ],
                "penalty": f.penalty(mode),
                "skills": {} if plan is None else {
                    s: f.sheet.skill(s) + skill_penalty(plan) for s in plan.skills()
                },
                "next_step": f.next_step, "acted": f.acted, "injured": f.injured,
                "waiting": f.waiting, "holding": f.holding, "pushed": f.pushed,
                "strength": f.strength, "willpower": f.willpower,
                "yards_moved": f.yards_moved, "surprised": f.surprised,
                "task": f.task, "task_rounds": f.task_rounds,
                "health_ok": f.health_ok, "sanity_ok": f.sanity_ok,
            }
        pending = state.pending
        return {
            "round": state.round, "phase": state.phase,
            "elapsed_seconds": max(0, state.round - 1) * ROUND_SECONDS,
            "options": {"defence": mode.value, "damage_roll": state.options.damage_roll,
                        "charge_momentum": state.options.charge_momentum},
            "on_turn": list(on_turn(state)),
            "pending": None if pending is None else {
                "attacker": pending.attacker, "target": pending.target,
                "skill": pending.skill, "defence": pending.response.value},
            "characters": characters,
        }

    def visible_state(self, state: Encounter, viewer: Viewer) -> JsonObject | None:
        """The encounter is played in the open: everyone sees the whole state (it holds no
        perception results; those are only in events, with their audiences)."""
        return self.state_json(state)


"""An encounter played round by round: the ``hursagmu`` procedure (hursagmu-encounters.txt).

Each round has three phases ("Conflict"): Initiative (each character chooses to maneuver or
concentrate and rolls Quickness or Command), Action (characters carry out their declared steps
in Initiative order) and Recovery (at ``end_round``). This module only names: each action kind
is decided by a handler (:data:`HANDLERS`), and each event kind folded (:data:`FOLD`), in the
module of its section of the text —

- :mod:`~referee.systems.hursagmu.initiative`: Round Zero, Initiative;
- :mod:`~referee.systems.hursagmu.action_phase`: declared actions, steps, Waiting, Haste,
  Pushing Power;
- :mod:`~referee.systems.hursagmu.combat`: attack and defence, damage;
- :mod:`~referee.systems.hursagmu.recovery`: the end of a round, Recovery;
- :mod:`~referee.systems.hursagmu.senses`: Perception and Observation, Stealth, Shadowing;
- :mod:`~referee.systems.hursagmu.races`: races (Movement);
- :mod:`~referee.systems.hursagmu.choices`: what each seat may do now;
- :mod:`~referee.systems.hursagmu.catalogue` and :mod:`~referee.systems.hursagmu.events`: the
  action kinds and the event vocabulary.

Scenario ``setup``: ``characters: {id: sheet}`` and ``options: {defence: each|cinematic,
damage_roll: 2d6|1d6, charge_momentum: false}`` (:mod:`~referee.systems.hursagmu.setup`).

>>> from referee.core import Action, Table
>>> from referee.dice import ScriptedSource
>>> table = Table.start(EncounterProcedure(), {"characters": {"bob": {"dexterity": 2}}})
>>> table = table.act(Action("bob", "initiative", {"stance": "maneuver"}), ScriptedSource([3, 4]))
>>> [e.kind for e in table.log], table.state.fighters["bob"].initiative
(['encounter.began', 'initiative.rolled', 'actions.began'], 9)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.core import (
    REFEREE,
    Action,
    ActorId,
    Builder,
    Choice,
    Event,
    Handlers,
    Procedure,
    Prompt,
    Result,
    RuleError,
    Viewer,
    Waiting,
)
from referee.core.values import JsonObject
from referee.dice import DiceSource
from referee.systems.hursagmu import (
    action_phase,
    choices,
    combat,
    events,
    recovery,
    round_plan,
    senses,
    turn_order,
)
from referee.systems.hursagmu.catalogue import CATALOGUE, DECLARE, DEFEND, step_json
from referee.systems.hursagmu.initiative import (
    decide_initiative,
    decide_round_zero,
    fold_actions_began,
    fold_initiative_rolled,
    fold_round_zero_began,
)
from referee.systems.hursagmu.races import decide_race
from referee.systems.hursagmu.senses import decide_perceive, decide_sneak
from referee.systems.hursagmu.setup import encounter_from_setup
from referee.systems.hursagmu.state import (
    ROUND_SECONDS,
    Encounter,
    Fighter,
    Options,
    Pending,
    on_turn,
)

__all__ = [
    "FOLD",
    "HANDLERS",
    "ROUND_SECONDS",
    "Encounter",
    "EncounterProcedure",
    "Fighter",
    "Options",
    "Pending",
]

Fold = Callable[[Encounter, Mapping[str, Any]], Encounter]

HANDLERS = Handlers(
    {
        "round_zero": decide_round_zero,
        "initiative": decide_initiative,
        "declare": action_phase.decide_declare,
        "act": action_phase.decide_act(combat.take_attack),
        "defend": combat.decide_defend,
        "take": combat.decide_take,
        "wait": action_phase.decide_wait,
        "hold": action_phase.decide_hold,
        "push": action_phase.decide_push,
        "end_round": recovery.decide_end_round,
        "condition": recovery.decide_condition,
        "perceive": decide_perceive,
        "sneak": decide_sneak,
        "race": decide_race,
    },
    rule="Encounter",
)
"""Each action kind's handler, by kind (the catalogue's kinds, one for one)."""

FOLD: dict[str, Fold] = {
    events.ROUND_ZERO_BEGAN: fold_round_zero_began,
    events.INITIATIVE_ROLLED: fold_initiative_rolled,
    events.ACTIONS_BEGAN: fold_actions_began,
    **action_phase.FOLDS,
    **combat.FOLDS,
    **recovery.FOLDS,
    **senses.FOLDS,
}
"""Each event kind that changes the state, and how (the other kinds change nothing)."""

MASTER_ONLY = {
    "end_round": "ending the round",
    "condition": "ruling on Health and Sanity",
    "perceive": "a secret roll of the senses",
}
"""The Master's own actions, in words."""
WHILE_PENDING = frozenset({"defend", "take", "condition", "perceive"})
"""What may happen while an attack waits for its target's answer."""


class EncounterProcedure(Procedure[Encounter]):
    """Hursagmu's encounter rules as a kernel :class:`Procedure` (``system: hursagmu``)."""

    catalogue = CATALOGUE
    has_referee = True
    handlers = HANDLERS
    players_see_alike = True  # the encounter is played in the open (visible_state)

    def initial_state(self, setup: Mapping[str, Any]) -> Encounter:
        """Characters and options from the scenario's setup."""
        return encounter_from_setup(setup)

    def initial_events(self, state: Encounter) -> Sequence[Event]:
        """``encounter.began``: who takes part (every seat may know the others are there)."""
        options = {
            "defence": state.options.defence.value,
            "damage_roll": state.options.damage_roll,
            "charge_momentum": state.options.charge_momentum,
        }
        return (
            Event(events.ENCOUNTER_BEGAN, {"characters": list(state.fighters), "options": options}),
        )

    def actors(self, state: Encounter) -> Sequence[ActorId]:
        """Whose move it is (:func:`~referee.systems.hursagmu.choices.actors`)."""
        return choices.actors(state)

    def characters(self, state: Encounter) -> Sequence[ActorId]:
        """Every character of the encounter: a seat each by default."""
        return tuple(state.fighters)

    def prompts(self, state: Encounter) -> Sequence[Prompt]:
        """The attack pending asks its target to defend (aborting his turn, where the defence
        is of the other kind) or take the hit (:func:`~.combat.defence_prompt`)."""
        prompt = combat.defence_prompt(state)
        return () if prompt is None else (prompt,)

    def waiting(self, state: Encounter, actor: ActorId) -> Waiting | None:
        """Why ``actor`` cannot act now and until when (:func:`~.turn_order.waiting`)."""
        return turn_order.waiting(state, actor)

    def legal_actions(self, state: Encounter, actor: ActorId) -> Sequence[Choice]:
        """What ``actor`` may do now (:func:`~referee.systems.hursagmu.choices.legal_actions`)."""
        return choices.legal_actions(state, actor)

    def previews(self, state: Encounter, viewer: Viewer) -> Sequence[Any]:
        """The odds of the attack pending, for the referee and its target."""
        if state.pending is None:
            return ()
        target = state.pending.target
        plays = target in viewer.identities
        return choices.previews(state, target if plays else viewer.id, is_referee=viewer.is_referee)

    def odds_of(self, state: Encounter, action: Action, viewer: Viewer) -> Sequence[Any]:
        """The Master's secret rolls with their parameters as given, for him alone
        (:func:`~referee.systems.hursagmu.senses.odds_of`); a plan as it stands, each step that
        rolls with the round's penalty (:func:`~referee.systems.hursagmu.round_plan.plan_odds`,
        and :func:`~.round_plan.defence_odds` for the defence declared with it); other kinds:
        their choice's odds."""
        if action.kind in ("perceive", "sneak", "declare", "defend"):
            try:
                self._permitted(state, action)
            except RuleError:
                return ()
        if action.kind in ("perceive", "sneak"):
            return senses.odds_of(state, action, viewer)
        if action.kind == "declare":
            steps = [step_json(s) for s in DECLARE.of(action).actions]
            return round_plan.plan_odds(state, action.actor, steps)
        given = DEFEND.of(action).actions if action.kind == "defend" else None
        if given is not None:
            steps = [step_json(s) for s in given]
            return round_plan.defence_odds(state, action.actor, steps)
        return super().odds_of(state, action, viewer)

    def build(self, state: Encounter, action: Action, dice: DiceSource) -> Builder[Encounter]:
        """The events of ``action``, from its handler; :class:`RuleError` if the rules refuse
        it — first who takes it, or when (:meth:`_permitted`), then its handler."""
        HANDLERS.handler(action.kind)
        self._permitted(state, action)
        return super().build(state, action, dice)

    def _permitted(self, state: Encounter, action: Action) -> None:
        """:class:`RuleError` if who takes ``action``, or when, is against the rules."""
        if action.kind in MASTER_ONLY and action.actor != REFEREE:
            raise RuleError(
                "Encounter",
                f"{MASTER_ONLY[action.kind]} is the Master's action, not {action.actor}'s",
            )
        if action.actor != REFEREE:
            f = state.fighter(action.actor)
            if not f.conscious:
                raise RuleError(
                    "Action",
                    f"{action.actor} is unconscious: "
                    '"If a character is knocked out or killed before his turn, he gets no action"',
                )
        elif action.kind not in MASTER_ONLY:
            raise RuleError(
                "Encounter",
                f"the Master takes {action.kind!r} for a character: act as that character",
            )
        if state.pending is not None and action.kind not in WHILE_PENDING:
            p = state.pending
            raise RuleError(
                "Action", f"{p.target} must first defend against or take {p.attacker}'s attack"
            )

    def evolve(self, state: Encounter, event: Event) -> Encounter:
        """The state after ``event``."""
        fold = FOLD.get(event.kind)
        return state if fold is None else fold(state, event.data)

    def describe(self, event: Event, viewer: Viewer) -> str:
        """The event in words (:func:`~referee.systems.hursagmu.events.describe`)."""
        return events.describe(event, viewer)

    def conflict(self, state: Encounter) -> Result | None:
        """The melee ("Conflict"), from the encounter's start: the rules know no sides, so
        each character fights for himself; over when no more than one is still conscious, who
        wins it (none if all are down). ``returns``: +1 the winner, -1 the fallen. The
        encounter rules have no end of their own beyond it: the game is never over
        (:meth:`result` keeps the kernel's default).
        """
        up = tuple(who for who, f in state.fighters.items() if f.conscious)
        names = [state.fighters[who].sheet.name for who in up]
        if len(up) > 1:
            return Result("the melee", summary=f"round {state.round}: {', '.join(names)} still up")
        returns = tuple((who, 1 if who in up else -1) for who in state.fighters)
        words = f"{names[0]} is the last one conscious" if up else "nobody is left conscious"
        return Result("the melee", True, up, f"{words} (round {state.round})", returns)

    # -- views -----------------------------------------------------------------------------

    def state_json(self, state: Encounter) -> JsonObject:
        """The encounter as JSON: what ``expect: path`` reads."""
        mode = state.options.defence
        characters: dict[str, Any] = {}
        for who, f in state.fighters.items():
            plan = f.round_plan(mode)
            sheet = f.sheet
            characters[who] = {
                "sheet": {
                    "dexterity": sheet.dexterity,
                    "intelligence": sheet.intelligence,
                    "strength": sheet.strength,
                    "willpower": sheet.willpower,
                    "skills": dict(sorted(sheet.skills.items())),
                    "weapon": sheet.weapon,
                    "weapon_type": sheet.weapon_type,
                },
                "hits": f.hits,
                "stamina": f.sheet.stamina,
                "conscious": f.conscious,
                "stance": None if f.stance is None else f.stance.value,
                "initiative": f.initiative,
                "rank": f.rank,
                "plan": [
                    {**i.step.to_json(), "initiative": i.initiative} for i in f.scheduled(mode)
                ],
                "penalty": f.penalty(mode),
                "skills": {}
                if plan is None
                else {s: f.sheet.skill(s) + f.penalty(mode) for s in plan.skills()},
                "next_step": f.next_step,
                "acted": f.acted,
                "injured": f.injured,
                "waiting": f.waiting,
                "holding": f.holding,
                "pushed": f.pushed,
                "strength": f.strength,
                "willpower": f.willpower,
                "yards_moved": f.yards_moved,
                "surprised": f.surprised,
                "task": f.task,
                "task_rounds": f.task_rounds,
                "health_ok": f.health_ok,
                "sanity_ok": f.sanity_ok,
                "asleep": f.asleep,
                "prone": f.prone,
                "mounted": f.mounted,
            }
        pending = state.pending
        return {
            "round": state.round,
            "phase": state.phase,
            "elapsed_seconds": state.elapsed_seconds,
            "options": {
                "defence": mode.value,
                "damage_roll": state.options.damage_roll,
                "charge_momentum": state.options.charge_momentum,
            },
            "on_turn": list(on_turn(state)),
            "pending": None
            if pending is None
            else {
                "attacker": pending.attacker,
                "target": pending.target,
                "skill": pending.skill,
                "defence": pending.response.value,
            },
            "characters": characters,
        }

    def visible_state(self, state: Encounter, viewer: Viewer) -> JsonObject | None:
        """The encounter is played in the open: everyone sees the whole state (it holds no
        perception results; those are only in events, with their audiences)."""
        return self.state_json(state)

"""A small procedure that exercises every kernel feature; a test fixture, not a shipped game.

Two characters at a table (``scarface`` and ``krockin`` by default):

- ``attack {target}``: an opposed check, 2d6 + skill each, the attacker wins ties; a hit is a wound.
- ``perceive {target}``: 3d6 + skill ≥ 10 (a target check); on success the target's envelope is a
  secret part of the event that only the perceiver sees; a 15-minute cooldown per pair (a timer).
- ``write_slip {maneuver}``: a slip whose maneuver is secret to its writer until every character
  has written one; then all are revealed at once.
- ``rally {dice, obstacle}``: an open-ended pool of d6 (Grey shade) against an obstacle.
- ``recall {chance}``: a d100 roll-under check with criticals.
- ``note {text}``: a note the referee alone sees.
- The alarm: a timer set at the start that rings at ``setup.alarm`` (seconds since the start).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from referee.core import (
    EVERYONE,
    GREY,
    MINUTE,
    REFEREE_ONLY,
    Action,
    ActionSpec,
    ActorId,
    Between,
    Catalogue,
    Choice,
    Event,
    ObstacleCheck,
    OddsPreview,
    OneOf,
    OpposedCheck,
    Params,
    PercentileCheck,
    Procedure,
    RollCard,
    RuleError,
    ScenarioError,
    Secret,
    TargetCheck,
    Text,
    TieRule,
    Total,
    Viewer,
    Who,
    only,
    register_system,
    set_timer,
)
from referee.dice import DiceSource

MANEUVERS = ("assault", "feint", "hold")
PERCEPTION_TARGET = 10
COOLDOWN = 15 * MINUTE


class Target(Params):
    target: str


class WriteSlip(Params):
    maneuver: Literal["assault", "feint", "hold"]


class Rally(Params):
    dice: int = 2
    obstacle: int = 1


class Recall(Params):
    chance: int = 50


class Note(Params):
    text: str = ""


ATTACK = ActionSpec("attack", Target, section="Toy: attack", record="everyone")
PERCEIVE = ActionSpec("perceive", Target, section="Toy: perception")
WRITE_SLIP = ActionSpec("write_slip", WriteSlip, section="Toy: slips")
RALLY = ActionSpec("rally", Rally, section="Toy: rally", record="everyone")
RECALL = ActionSpec("recall", Recall, section="Toy: recall")
NOTE = ActionSpec("note", Note, section="Toy: notes", who=Who.ANYONE)


@dataclass(frozen=True)
class Character:
    skill: int
    stamina: int
    envelope: str
    wounds: int = 0


@dataclass(frozen=True)
class ToyState:
    characters: tuple[tuple[str, Character], ...]
    cooldowns: frozenset[tuple[str, str]] = frozenset()
    slips: tuple[tuple[str, str], ...] = ()
    revealed: tuple[tuple[str, str], ...] = ()
    alarm_rang: bool = False
    notes: int = 0

    def character(self, name: str) -> Character:
        return dict(self.characters)[name]

    def with_character(self, name: str, character: Character) -> ToyState:
        chars = tuple((n, character if n == name else c) for n, c in self.characters)
        return replace(self, characters=chars)


class Toy(Procedure[ToyState]):
    catalogue = Catalogue([ATTACK, PERCEIVE, WRITE_SLIP, RALLY, RECALL, NOTE])

    def initial_state(self, setup: Mapping[str, Any]) -> ToyState:
        chars = setup.get("characters", {"scarface": {}, "krockin": {}})
        if not isinstance(chars, Mapping) or len(chars) < 2:
            raise ScenarioError("give at least two characters", ("characters",))
        built = []
        for name, sheet in chars.items():
            skill = sheet.get("skill", 0)
            if not isinstance(skill, int):
                raise ScenarioError(
                    f"a skill is a whole number, not {skill!r}", ("characters", name, "skill")
                )
            built.append(
                (
                    name,
                    Character(
                        skill,
                        int(sheet.get("stamina", 3)),
                        str(sheet.get("envelope", f"{name}'s secret")),
                    ),
                )
            )
        return ToyState(characters=tuple(built))

    def initial_events(self, state: ToyState) -> Sequence[Event]:
        return (
            set_timer(
                "alarm",
                Event("alarm.rang", {"says": "nine o'clock"}),
                at=2 * 3600,
                audience=EVERYONE,
            ),
        )

    def actors(self, state: ToyState) -> Sequence[ActorId]:
        return tuple(name for name, _ in state.characters)

    def legal_actions(self, state: ToyState, actor: ActorId) -> Sequence[Choice]:
        if actor not in dict(state.characters):
            return ()
        others = tuple(n for n, _ in state.characters if n != actor)
        me = state.character(actor)
        choices = [
            Choice(
                actor,
                "attack",
                {"target": OneOf(others)},
                odds=tuple(
                    OddsPreview.of(self._attack(state, actor, t), f"{actor} attacks {t}")
                    for t in others
                ),
            )
        ]
        fresh = tuple(t for t in others if (actor, t) not in state.cooldowns)
        if fresh:
            check = TargetCheck("3d6", PERCEPTION_TARGET, me.skill)
            choices.append(
                Choice(
                    actor,
                    "perceive",
                    {"target": OneOf(fresh)},
                    odds=(OddsPreview.of(check, f"{actor} perceives"),),
                )
            )
        if actor not in dict(state.slips):
            choices.append(Choice(actor, "write_slip", {"maneuver": OneOf(MANEUVERS)}))
        choices += [
            Choice(actor, "rally", {"dice": Between(1, 4), "obstacle": Between(1, 3)}),
            Choice(actor, "recall", {"chance": Between(1, 99)}),
            Choice(actor, "note", {"text": Text("hmm")}),
        ]
        return tuple(choices)

    def odds_of(self, state: ToyState, action: Action, viewer: Viewer) -> Sequence[OddsPreview]:
        if action.kind == "attack" and action.params.get("target") in dict(state.characters):
            target = str(action.params["target"])
            check = self._attack(state, action.actor, target)
            return (OddsPreview.of(check, f"{action.actor} attacks {target}"),)
        if action.kind == "rally":
            return (OddsPreview.of(self._rally(action), f"{action.actor} rallies"),)
        return super().odds_of(state, action, viewer)

    def _rally(self, action: Action) -> ObstacleCheck:
        return ObstacleCheck(
            RALLY.of(action).dice, RALLY.of(action).obstacle, shade=GREY, open_ended=True
        )

    def _attack(self, state: ToyState, actor: str, target: str) -> OpposedCheck:
        return OpposedCheck(
            Total("2d6", state.character(actor).skill),
            Total("2d6", state.character(target).skill),
            TieRule.ACTOR_WINS,
        )

    def _target(self, state: ToyState, action: Action) -> str:
        target = action.params.get("target")
        names = dict(state.characters)
        if target not in names or target == action.actor:
            raise RuleError(
                f"Toy: {action.kind}", f"no other character {target!r} to {action.kind}"
            )
        return str(target)

    def decide(self, state: ToyState, action: Action, dice: DiceSource) -> Sequence[Event]:
        if action.actor not in dict(state.characters):
            raise RuleError("Toy: who acts", f"{action.actor!r} is not at the table")
        me = state.character(action.actor)
        if action.kind == "attack":
            target = self._target(state, action)
            check = self._attack(state, action.actor, target)
            result = check.roll(dice)
            card = RollCard.of(check, result, f"{action.actor} attacks {target}", rule="attack")
            events = [
                Event(
                    "attack.rolled",
                    {
                        "attacker": action.actor,
                        "target": target,
                        **result.to_json(),
                        "roll": card.to_json(),
                    },
                )
            ]
            if result.is_success:
                events.append(Event("wound.taken", {"character": target}))
            return events
        if action.kind == "perceive":
            target = self._target(state, action)
            if (action.actor, target) in state.cooldowns:
                raise RuleError(
                    "Toy: perception cooldown",
                    f"{action.actor} perceived {target} less than 15 minutes ago",
                )
            result = TargetCheck("3d6", PERCEPTION_TARGET, me.skill).roll(dice)
            secrets = ()
            if result.is_success:
                secrets = (
                    Secret("envelope", state.character(target).envelope, only(action.actor)),
                )
            return (
                Event(
                    "perception.made",
                    {"perceiver": action.actor, "target": target, **result.to_json()},
                    audience=EVERYONE,
                    secrets=secrets,
                ),
                set_timer(
                    f"cooldown:{action.actor}:{target}",
                    Event(
                        "perception.ready",
                        {"perceiver": action.actor, "target": target},
                        audience=only(action.actor),
                    ),
                    after=COOLDOWN,
                ),
            )
        if action.kind == "write_slip":
            maneuver = action.params.get("maneuver")
            if maneuver not in MANEUVERS:
                raise RuleError("Toy: slips", f"no maneuver {maneuver!r}")
            if action.actor in dict(state.slips):
                raise RuleError("Toy: slips", f"{action.actor} has already written a slip")
            events = [
                Event(
                    "slip.written",
                    {"writer": action.actor},
                    secrets=(Secret("maneuver", maneuver, only(action.actor)),),
                )
            ]
            slips = dict(state.slips) | {action.actor: str(maneuver)}
            if len(slips) == len(state.characters):
                events.append(Event("slips.revealed", {"maneuvers": slips}))
            return events
        if action.kind == "rally":
            check = self._rally(action)
            return (Event("rally.rolled", {"actor": action.actor, **check.roll(dice).to_json()}),)
        if action.kind == "recall":
            check = PercentileCheck(RECALL.of(action).chance)
            return (
                Event(
                    "recall.rolled",
                    {"actor": action.actor, **check.roll(dice).to_json()},
                    audience=only(action.actor),
                ),
            )
        if action.kind == "note":
            return (
                Event(
                    "note.made",
                    {"by": action.actor, "text": action.params.get("text", "")},
                    audience=REFEREE_ONLY,
                ),
            )
        raise RuleError("Toy: actions", f"no action {action.kind!r}")

    def describe(self, event: Event, viewer: Viewer) -> str:
        data = event.data
        if event.kind == "attack.rolled":
            hit = "hits" if data["outcome"] == "success" else "misses"
            return f"{data['attacker']} attacks {data['target']} and {hit}"
        if event.kind == "wound.taken":
            return f"{data['character']} takes a wound"
        return super().describe(event, viewer)

    def evolve(self, state: ToyState, event: Event) -> ToyState:
        data = event.data
        if event.kind == "wound.taken":
            name = str(data["character"])
            c = state.character(name)
            return state.with_character(name, replace(c, wounds=c.wounds + 1))
        if event.kind == "perception.made":
            pair = (str(data["perceiver"]), str(data["target"]))
            return replace(state, cooldowns=state.cooldowns | {pair})
        if event.kind == "perception.ready":
            pair = (str(data["perceiver"]), str(data["target"]))
            return replace(state, cooldowns=state.cooldowns - {pair})
        if event.kind == "slip.written":
            return replace(
                state, slips=(*state.slips, (str(data["writer"]), str(data["maneuver"])))
            )
        if event.kind == "slips.revealed":
            return replace(state, revealed=state.slips, slips=())
        if event.kind == "alarm.rang":
            return replace(state, alarm_rang=True)
        if event.kind == "note.made":
            return replace(state, notes=state.notes + 1)
        return state

    def state_json(self, state: ToyState) -> dict[str, Any]:
        return {
            "characters": {
                n: {
                    "skill": c.skill,
                    "stamina": c.stamina,
                    "wounds": c.wounds,
                    "envelope": c.envelope,
                }
                for n, c in state.characters
            },
            "cooldowns": sorted(f"{a}->{b}" for a, b in state.cooldowns),
            "slips": dict(state.slips),
            "revealed": dict(state.revealed),
            "alarm_rang": state.alarm_rang,
            "notes": state.notes,
        }

    def visible_state(self, state: ToyState, viewer: Viewer) -> dict[str, Any] | None:
        full = self.state_json(state)
        if viewer.is_referee:
            return full
        mine = viewer.identities
        return {
            "characters": {
                n: {k: v for k, v in c.items() if k != "envelope"}
                for n, c in full["characters"].items()
            },
            "cooldowns": [c for c in full["cooldowns"] if c.split("->")[0] in mine],
            "slips": {w: m for w, m in full["slips"].items() if w in mine},
            "revealed": full["revealed"],
            "alarm_rang": full["alarm_rang"],
        }


PROCEDURE = Toy()
register_system("kernel_toy", PROCEDURE)

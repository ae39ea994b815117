"""A duel that stops to ask the defender: the kernel's prompts, structured choices and result.

A test fixture, not a shipped game. Two or more duellists take turns:

- ``declare {plan}``: on your turn, a plan of one to three steps, each an attack (a target and a
  weapon), a guard (high or low) or a move (one to three paces) — a structured choice.
- Each attack in the plan stops the duel and asks its target (a secret, blocking prompt):
  ``defend {defence, skill}``, where the skills offered depend on the defence (a parry with a
  blade, a dodge with agility). Declining takes the default: a dodge with agility.
- The defence is an opposed roll, 2d6 + skill, the defender winning ties; a miss is a wound.
- ``concede``: on your turn, give up the duel.
- The duel is over when one duellist is left standing (wounds below stamina) or one concedes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import Field

from referee.core import (
    Action,
    ActionSpec,
    ActorId,
    AnyOf,
    Between,
    Catalogue,
    Choice,
    Depends,
    Event,
    NoParams,
    OddsPreview,
    OneOf,
    OpposedCheck,
    Params,
    Procedure,
    Prompt,
    Record,
    Result,
    RollCard,
    RuleError,
    ScenarioError,
    Steps,
    TieRule,
    Total,
    Viewer,
    register_system,
)
from referee.dice import DiceSource

WEAPONS = ("sabre", "dagger")
PARRIES = ("sabre", "dagger")
DEFENCE_SKILLS: dict[str, tuple[str, ...]] = {"parry": PARRIES, "dodge": ("agility",)}
MOST_STEPS = 3
SECTION_DEFEND = "Duel: defending"


class Step(Params):
    attack: str | None = None
    weapon: Literal["sabre", "dagger"] | None = None
    guard: Literal["high", "low"] | None = None
    move: int | None = Field(None, ge=1, le=3)


class Declare(Params):
    plan: list[Step] = Field(min_length=1, max_length=MOST_STEPS)


class Defend(Params):
    defence: Literal["parry", "dodge"]
    skill: str


CATALOGUE = Catalogue(
    [
        ActionSpec("declare", Declare, section="Duel: your turn", record="everyone"),
        ActionSpec("defend", Defend, section=SECTION_DEFEND, record="everyone"),
        ActionSpec("concede", NoParams, section="Duel: conceding", record="everyone"),
    ]
)


@dataclass(frozen=True)
class Duellist:
    skills: tuple[tuple[str, int], ...]
    stamina: int
    wounds: int = 0

    def skill(self, name: str) -> int:
        return dict(self.skills).get(name, 0)

    @property
    def standing(self) -> bool:
        return self.wounds < self.stamina


@dataclass(frozen=True)
class Pending:
    attacker: str
    target: str
    weapon: str
    cause: int


@dataclass(frozen=True)
class DuelState:
    duellists: tuple[tuple[str, Duellist], ...]
    turn: int = 0
    pending: tuple[Pending, ...] = ()
    conceded: str | None = None
    events: int = 0

    def duellist(self, name: str) -> Duellist:
        return dict(self.duellists)[name]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self.duellists)

    @property
    def standing(self) -> tuple[str, ...]:
        return tuple(n for n, d in self.duellists if d.standing)

    @property
    def is_over(self) -> bool:
        return self.conceded is not None or len(self.standing) <= 1

    @property
    def on_turn(self) -> str:
        return self.names[self.turn % len(self.names)]


class Duel(Procedure[DuelState]):
    catalogue = CATALOGUE

    def initial_state(self, setup: Mapping[str, Any]) -> DuelState:
        sheets = setup.get("duellists", {"ann": {}, "bob": {}})
        if not isinstance(sheets, Mapping) or len(sheets) < 2:
            raise ScenarioError("give at least two duellists", ("duellists",))
        built = []
        for name, sheet in sheets.items():
            skills = {"sabre": 1, "dagger": 0, "agility": 1, **dict(sheet.get("skills", {}))}
            built.append((str(name), Duellist(tuple(skills.items()), int(sheet.get("stamina", 2)))))
        return DuelState(tuple(built))

    def actors(self, state: DuelState) -> Sequence[ActorId]:
        return () if state.is_over else (state.on_turn,)

    def prompts(self, state: DuelState) -> Sequence[Prompt]:
        if not state.pending or state.is_over:
            return ()
        first = state.pending[0]
        return (
            Prompt(
                first.target,
                ("defend",),
                SECTION_DEFEND,
                f"{first.attacker} attacks {first.target} with the {first.weapon}: parry or dodge",
                cause=first.cause,
                default=Action(first.target, "defend", {"defence": "dodge", "skill": "agility"}),
                secret=True,
            ),
        )

    def result(self, state: DuelState) -> Result:
        if not state.is_over:
            return Result("the duel")
        winners = tuple(n for n in state.standing if n != state.conceded)
        return Result(
            "the duel",
            over=True,
            winners=winners,
            summary=f"{' and '.join(winners) or 'nobody'} stands",
            returns=tuple((n, 1 if n in winners else -1) for n in state.names),
        )

    def conflict(self, state: DuelState) -> Result | None:
        return self.result(state)

    def legal_actions(self, state: DuelState, actor: ActorId) -> Sequence[Choice]:
        if state.is_over or actor not in state.names:
            return ()
        if state.pending and state.pending[0].target == actor:
            attack = state.pending[0]
            return (
                Choice(
                    actor,
                    "defend",
                    {
                        "defence": OneOf(tuple(DEFENCE_SKILLS)),
                        "skill": Depends(
                            "defence",
                            tuple((d, OneOf(s)) for d, s in DEFENCE_SKILLS.items()),
                        ),
                    },
                    odds=tuple(
                        OddsPreview.of(
                            self._check(state, attack, skill), f"{actor} defends with {skill}"
                        )
                        for skill in ("sabre", "agility")
                    ),
                    label="defend",
                ),
            )
        if actor != state.on_turn or state.pending:
            return ()
        others = tuple(n for n in state.standing if n != actor)
        step = AnyOf(
            {
                "attack": Record({"attack": OneOf(others), "weapon": OneOf(WEAPONS)}),
                "guard": Record({"guard": OneOf(("high", "low"))}),
                "move": Record({"move": Between(1, 3)}),
            }
        )
        return (
            Choice(actor, "declare", {"plan": Steps(step, least=1, most=MOST_STEPS)}),
            Choice(actor, "concede"),
        )

    def _check(self, state: DuelState, attack: Pending, skill: str) -> OpposedCheck:
        return OpposedCheck(
            Total("2d6", state.duellist(attack.attacker).skill(attack.weapon)),
            Total("2d6", state.duellist(attack.target).skill(skill)),
            TieRule.OPPONENT_WINS,
        )

    def decide(self, state: DuelState, action: Action, dice: DiceSource) -> Sequence[Event]:
        if state.is_over:
            raise RuleError("Duel: the end", "the duel is over")
        if action.kind == "defend":
            return self._defend(state, action, dice)
        if action.actor != state.on_turn:
            raise RuleError("Duel: your turn", f"it is {state.on_turn}'s turn")
        if action.kind == "concede":
            return (Event("duel.conceded", {"by": action.actor}),)
        plan = CATALOGUE["declare"].of(action).plan
        events = [Event("plan.declared", {"by": action.actor, "plan": action.params["plan"]})]
        for step in plan:
            if step.attack is not None:
                if step.attack not in state.standing or step.attack == action.actor:
                    raise RuleError("Duel: your turn", f"no one standing called {step.attack!r}")
                events.append(
                    Event(
                        "attack.declared",
                        {
                            "attacker": action.actor,
                            "target": step.attack,
                            "weapon": step.weapon or "sabre",
                        },
                    )
                )
        if len(events) == 1:
            events.append(Event("turn.passed", {"from": action.actor}))
        return events

    def _defend(self, state: DuelState, action: Action, dice: DiceSource) -> Sequence[Event]:
        if not state.pending or state.pending[0].target != action.actor:
            raise RuleError(SECTION_DEFEND, f"nothing for {action.actor} to defend against")
        params = CATALOGUE["defend"].of(action)
        if params.skill not in DEFENCE_SKILLS[params.defence]:
            raise RuleError(SECTION_DEFEND, f"a {params.defence} is not made with {params.skill}")
        attack = state.pending[0]
        check = self._check(state, attack, params.skill)
        result = check.roll(dice)
        card = RollCard.of(check, result, f"{attack.attacker} attacks", rule="defence")
        events = [
            Event(
                "defence.rolled",
                {
                    "attacker": attack.attacker,
                    "target": attack.target,
                    "defence": params.defence,
                    "roll": card.to_json(),
                },
            )
        ]
        remaining = state.pending[1:]
        if result.is_success:
            events.append(Event("wound.taken", {"duellist": attack.target}))
            target = state.duellist(attack.target)
            if target.wounds + 1 >= target.stamina:  # down: his other attacks lapse
                remaining = tuple(p for p in remaining if p.target != attack.target)
        if not remaining:
            events.append(Event("turn.passed", {"from": attack.attacker}))
        return events

    def evolve(self, state: DuelState, event: Event) -> DuelState:
        state = replace(state, events=state.events + 1)
        data = event.data
        if event.kind == "attack.declared":
            pending = Pending(
                str(data["attacker"]), str(data["target"]), str(data["weapon"]), state.events
            )
            return replace(state, pending=(*state.pending, pending))
        if event.kind == "defence.rolled":
            return replace(state, pending=state.pending[1:])
        if event.kind == "wound.taken":
            name = str(data["duellist"])
            hurt = replace(state.duellist(name), wounds=state.duellist(name).wounds + 1)
            state = replace(
                state, duellists=tuple((n, hurt if n == name else d) for n, d in state.duellists)
            )
            return replace(
                state, pending=tuple(p for p in state.pending if p.target in state.standing)
            )
        if event.kind == "turn.passed":
            turn = state.turn + 1
            while state.names[turn % len(state.names)] not in state.standing and turn < 99:
                turn += 1
            return replace(state, turn=turn, pending=())
        if event.kind == "duel.conceded":
            return replace(state, conceded=str(data["by"]))
        return state

    def describe(self, event: Event, viewer: Viewer) -> str:
        data = event.data
        if event.kind == "attack.declared":
            return f"{data['attacker']} attacks {data['target']} with the {data['weapon']}"
        if event.kind == "wound.taken":
            return f"{data['duellist']} is wounded"
        return super().describe(event, viewer)

    def state_json(self, state: DuelState) -> dict[str, Any]:
        return {
            "duellists": {
                n: {"wounds": d.wounds, "stamina": d.stamina} for n, d in state.duellists
            },
            "turn": state.on_turn,
            "pending": [
                {"attacker": p.attacker, "target": p.target, "weapon": p.weapon}
                for p in state.pending
            ],
            "conceded": state.conceded,
        }

    def visible_state(self, state: DuelState, viewer: Viewer) -> dict[str, Any] | None:
        return self.state_json(state)


PROCEDURE = Duel()
register_system("kernel_duel", PROCEDURE)

"""The duel's rules: turns, plans, defences, wounds, conceding.

- **Your turn**: declare a plan of one to three steps, each an attack (a target and a weapon), a
  guard (high or low) or a move (one to three paces): a structured choice.
- **Defending**: each attack in the plan stops the duel and asks its target (a secret, blocking
  prompt) to parry (with a blade) or dodge (with agility); declining takes the default, a dodge
  with agility. The defence is an opposed roll, 2d6 + skill, the defender winning ties; a miss
  is a wound.
- **Conceding**: on your turn, give up the duel.
- **The end**: one duellist is left standing (wounds below stamina), or one concedes.

Each action kind has one handler (:data:`HANDLERS`), which emits the rules' events into the
kernel's :class:`~referee.core.Builder`; :func:`evolve` folds each event into the state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from referee.core import (
    Action,
    ActionSpec,
    ActorId,
    AnyOf,
    Between,
    Builder,
    Catalogue,
    Choice,
    Depends,
    Event,
    Handlers,
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
    Steps,
    TieRule,
    Total,
    Viewer,
)
from referee.dice import DiceSource

__all__ = ["CATALOGUE", "HANDLERS", "Duel", "DuelSetup", "DuelState", "evolve"]

WEAPONS = ("sabre", "dagger")
"""What an attack is made with."""
DEFENCE_SKILLS: dict[str, tuple[str, ...]] = {"parry": WEAPONS, "dodge": ("agility",)}
"""The skills each defence is made with."""
MOST_STEPS = 3
"""The longest plan."""
YOUR_TURN = "Duel: your turn"
DEFENDING = "Duel: defending"
CONCEDING = "Duel: conceding"
THE_END = "Duel: the end"


# -- the setup and the state -------------------------------------------------------------------


class Sheet(BaseModel):
    """A duellist's sheet: skills (sabre 1, dagger 0, agility 1 unless given) and stamina."""

    model_config = ConfigDict(extra="forbid")
    skills: dict[str, int] = Field(default_factory=dict)
    stamina: int = Field(2, ge=1, le=9)


class DuelSetup(BaseModel):
    """The setup: two or more duellists by name."""

    model_config = ConfigDict(extra="forbid")
    duellists: dict[str, Sheet] = Field(min_length=2)


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
class Attack:
    """An attack declared and not yet defended: its target is asked."""

    attacker: str
    target: str
    weapon: str
    cause: int


@dataclass(frozen=True)
class DuelState:
    duellists: tuple[tuple[str, Duellist], ...]
    turn: int = 0
    attacks: tuple[Attack, ...] = ()
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


# -- the actions -------------------------------------------------------------------------------


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
        ActionSpec("declare", Declare, section=YOUR_TURN, record="everyone"),
        ActionSpec("defend", Defend, section=DEFENDING, record="everyone"),
        ActionSpec("concede", NoParams, section=CONCEDING, record="everyone"),
    ]
)


def defence_check(state: DuelState, attack: Attack, skill: str) -> OpposedCheck:
    """Defending: 2d6 + the weapon's skill against 2d6 + the defence's skill; ties to the
    defender."""
    return OpposedCheck(
        Total("2d6", state.duellist(attack.attacker).skill(attack.weapon)),
        Total("2d6", state.duellist(attack.target).skill(skill)),
        TieRule.OPPONENT_WINS,
    )


def declare(b: Builder[DuelState], action: Action, dice: DiceSource) -> None:
    """Your turn: the plan, then an attack declared for each attack step (each to be defended)."""
    state = b.state
    if action.actor != state.on_turn or state.attacks:
        raise RuleError(YOUR_TURN, f"it is {state.on_turn}'s turn")
    plan: Declare = action.args
    targets = [step.attack for step in plan.plan if step.attack is not None]
    for target in targets:
        if target not in state.standing or target == action.actor:
            raise RuleError(YOUR_TURN, f"no one standing called {target!r}")
    b.emit("plan.declared", {"by": action.actor, "plan": action.params["plan"]})
    for step in plan.plan:
        if step.attack is not None:
            b.emit(
                "attack.declared",
                {"attacker": action.actor, "target": step.attack, "weapon": step.weapon or "sabre"},
            )
    if not targets:
        b.emit("turn.passed", {"from": action.actor})


def defend(b: Builder[DuelState], action: Action, dice: DiceSource) -> None:
    """Defending: the opposed roll; a miss is a wound; the turn passes when no attack is left."""
    state = b.state
    if not state.attacks or state.attacks[0].target != action.actor:
        raise RuleError(DEFENDING, f"nothing for {action.actor} to defend against")
    chosen: Defend = action.args
    if chosen.skill not in DEFENCE_SKILLS[chosen.defence]:
        raise RuleError(DEFENDING, f"a {chosen.defence} is not made with {chosen.skill}")
    attack = state.attacks[0]
    check = defence_check(state, attack, chosen.skill)
    result = check.roll(dice)
    card = RollCard.of(check, result, f"{attack.attacker} attacks", rule="defence")
    b.emit(
        "defence.rolled",
        {
            "attacker": attack.attacker,
            "target": attack.target,
            "defence": chosen.defence,
            "roll": card.to_json(),
        },
    )
    if result.is_success:
        b.emit("wound.taken", {"duellist": attack.target})
    if not b.state.attacks:  # a wound that downs the target lapses his other attacks
        b.emit("turn.passed", {"from": attack.attacker})


def concede(b: Builder[DuelState], action: Action, dice: DiceSource) -> None:
    """Conceding: on your turn, give up the duel."""
    if action.actor != b.state.on_turn:
        raise RuleError(CONCEDING, f"it is {b.state.on_turn}'s turn")
    b.emit("duel.conceded", {"by": action.actor})


def _over(handler: Any) -> Any:
    def when_not_over(b: Builder[DuelState], action: Action, dice: DiceSource) -> None:
        if b.state.is_over:
            raise RuleError(THE_END, "the duel is over")
        handler(b, action, dice)

    when_not_over.__doc__ = handler.__doc__
    return when_not_over


HANDLERS = Handlers(
    {"declare": _over(declare), "defend": _over(defend), "concede": _over(concede)},
    rule=YOUR_TURN,
)
"""The one handler of each action kind."""


# -- the fold ----------------------------------------------------------------------------------


def evolve(state: DuelState, event: Event) -> DuelState:
    """The duel after ``event``."""
    state = replace(state, events=state.events + 1)
    data = event.data
    if event.kind == "attack.declared":
        attack = Attack(
            str(data["attacker"]), str(data["target"]), str(data["weapon"]), state.events
        )
        return replace(state, attacks=(*state.attacks, attack))
    if event.kind == "defence.rolled":
        return replace(state, attacks=state.attacks[1:])
    if event.kind == "wound.taken":
        name = str(data["duellist"])
        hurt = replace(state.duellist(name), wounds=state.duellist(name).wounds + 1)
        state = replace(
            state, duellists=tuple((n, hurt if n == name else d) for n, d in state.duellists)
        )
        return replace(state, attacks=tuple(a for a in state.attacks if a.target in state.standing))
    if event.kind == "turn.passed":
        turn = state.turn + 1
        while state.names[turn % len(state.names)] not in state.standing and turn < 99:
            turn += 1
        return replace(state, turn=turn, attacks=())
    if event.kind == "duel.conceded":
        return replace(state, conceded=str(data["by"]))
    return state


# -- the procedure -----------------------------------------------------------------------------


class Duel(Procedure[DuelState]):
    """The duel: what the kernel asks of a game, and nothing else."""

    catalogue = CATALOGUE
    handlers = HANDLERS

    def initial_state(self, setup: Mapping[str, Any]) -> DuelState:
        sheets = DuelSetup.model_validate(setup).duellists
        return DuelState(
            tuple(
                (name, Duellist(tuple({**BASE_SKILLS, **sheet.skills}.items()), sheet.stamina))
                for name, sheet in sheets.items()
            )
        )

    def evolve(self, state: DuelState, event: Event) -> DuelState:
        return evolve(state, event)

    def actors(self, state: DuelState) -> Sequence[ActorId]:
        return () if state.is_over else (state.on_turn,)

    def characters(self, state: DuelState) -> Sequence[ActorId]:
        return state.names

    def prompts(self, state: DuelState) -> Sequence[Prompt]:
        if not state.attacks or state.is_over:
            return ()
        first = state.attacks[0]
        return (
            Prompt(
                first.target,
                ("defend",),
                DEFENDING,
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
        if state.attacks and state.attacks[0].target == actor:
            return (self._defence(state, actor),)
        if actor != state.on_turn or state.attacks:
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

    def _defence(self, state: DuelState, actor: ActorId) -> Choice:
        attack = state.attacks[0]
        return Choice(
            actor,
            "defend",
            {
                "defence": OneOf(tuple(DEFENCE_SKILLS)),
                "skill": Depends(
                    "defence", tuple((d, OneOf(s)) for d, s in DEFENCE_SKILLS.items())
                ),
            },
            odds=tuple(
                OddsPreview.of(
                    defence_check(state, attack, skill),
                    f"{attack.attacker}'s attack against {actor}'s {skill}",
                )
                for skill in ("sabre", "agility")
            ),
            label="defend",
        )

    def describe(self, event: Event, viewer: Viewer) -> str:
        data = event.data
        if event.kind == "plan.declared":
            steps = data["plan"]
            count = len(steps) if isinstance(steps, list) else 0
            return f"{data['by']} declares a plan of {count} step{'s' if count != 1 else ''}"
        if event.kind == "attack.declared":
            return f"{data['attacker']} attacks {data['target']} with the {data['weapon']}"
        if event.kind == "defence.rolled":
            return f"{data['target']} tries a {data['defence']} against {data['attacker']}"
        if event.kind == "wound.taken":
            return f"{data['duellist']} is wounded"
        if event.kind == "turn.passed":
            return f"{data['from']}'s turn is over"
        if event.kind == "duel.conceded":
            return f"{data['by']} concedes the duel"
        return super().describe(event, viewer)

    def visible_state(self, state: DuelState, viewer: Viewer) -> dict[str, Any] | None:
        """Nothing in a duel is hidden but the prompt's words: everyone sees the whole state."""
        return self.state_json(state)

    def state_json(self, state: DuelState) -> dict[str, Any]:
        return {
            "duellists": {
                n: {"wounds": d.wounds, "stamina": d.stamina, "standing": d.standing}
                for n, d in state.duellists
            },
            "turn": state.on_turn,
            "attacks": [
                {"attacker": a.attacker, "target": a.target, "weapon": a.weapon}
                for a in state.attacks
            ],
            "conceded": state.conceded,
        }


BASE_SKILLS = {"sabre": 1, "dagger": 0, "agility": 1}
"""Every duellist's skills unless the sheet says otherwise."""

"""Combat: starting one, joining it, ending it; and the combat modules, under one name.

Rules text (Intrigue in the Clouds), "Combat rules" and "Starting Combat". The rest of combat
is in modules along the text's sections, all re-exported here:

- :mod:`~referee.systems.intrigue.rounds`: "Initiative", "Surprise" (who declares when);
- :mod:`~referee.systems.intrigue.combat_actions`: "Combat Actions", "Multiple Attackers"
  (declaring and resolving);
- :mod:`~referee.systems.intrigue.escape`: "Escaping Combat";
- :mod:`~referee.systems.intrigue.damage`: "Taking Damage" (damage, knock-out, wounds).

Each action's handler reads the state from its builder and emits the events the action causes
(or raises :class:`~referee.core.RuleError`); the builder folds each one as it is emitted
(:mod:`~referee.systems.intrigue.evolve`).
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.core import Action, Builder, Event, RuleError
from referee.dice import DiceSource
from referee.systems.intrigue.acting import (
    acting_character,
    by_the_referee,
    no_such_action,
    tell,
)
from referee.systems.intrigue.actions import ADMIT, DRAW, END_COMBAT, JOIN, START_COMBAT
from referee.systems.intrigue.attacking import PlannedAttack, plan_attack, rolls_of
from referee.systems.intrigue.characters import CharacterId
from referee.systems.intrigue.combat_actions import declare, validate
from referee.systems.intrigue.damage import aftermath
from referee.systems.intrigue.escape import escape, escape_plan
from referee.systems.intrigue.events import COMBAT_JOINED, COMBAT_STARTED, ITEM_DRAWN
from referee.systems.intrigue.resolution import preview, resolve
from referee.systems.intrigue.rounds import (
    FIRST,
    can_declare,
    combat_acted_on,
    initiative_rank,
    next_round,
    pending_declarers,
    refuse,
    round_start,
    use_mind,
)
from referee.systems.intrigue.state import Combat, IntrigueState

__all__ = [
    "FIRST",
    "PlannedAttack",
    "admit",
    "aftermath",
    "can_declare",
    "declare",
    "draw",
    "end_combat",
    "escape",
    "escape_plan",
    "initiative_rank",
    "join",
    "next_round",
    "pending_declarers",
    "plan_attack",
    "preview",
    "resolve",
    "rolls_of",
    "round_start",
    "start_combat",
    "use_mind",
    "validate",
]


def draw(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """Draw a weapon or item outside combat (in a combat it is the Combat Action, "Draw a
    Weapon or Item")."""
    me = acting_character(b.state, action)
    if b.state.combat_of(me.id) is not None:
        raise RuleError("Combat Actions", "in combat, Draw a Weapon or Item is your Action")
    item = DRAW.of(action).item
    if me.item(item) is None:
        raise RuleError("Draw a Weapon or Item", f"{me.id} has no item card {item!r}")
    tell(b, Event(ITEM_DRAWN, {"character": me.id, "item": item}))


def start_combat(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """ "point at the character, or characters, your character is attacking, and shout Combat"
    ("Starting Combat"). ``surprised``: the targets who agree they are surprised ("The
    surprised character is the judge")."""
    state = b.state
    starter = acting_character(state, action).id
    args = START_COMBAT.of(action)
    targets = [state.character(str(t)).id for t in args.targets]
    surprised = [state.character(str(t)).id for t in args.surprised]
    _may_start(state, starter, targets, surprised)
    number = state.combats_begun + 1
    tell(
        b,
        Event(
            COMBAT_STARTED,
            {
                "combat": f"combat-{number}",
                "starter": starter,
                "targets": list(targets),
                "surprised": list(surprised),
            },
        ),
    )


def _may_start(
    state: IntrigueState,
    starter: CharacterId,
    targets: Sequence[CharacterId],
    surprised: Sequence[CharacterId],
) -> None:
    if not state.status(starter).can_act:
        raise refuse("Starting Combat", f"{starter} is out of action")
    if state.combat_of(starter) is not None:
        raise refuse("Starting Combat", f"{starter} is already in a combat")
    if not targets:
        raise refuse("Starting Combat", "point at the character, or characters, you attack")
    if len(set(targets)) != len(targets) or starter in targets:
        raise refuse("Starting Combat", f"targets must be other characters, once: {targets!r}")
    for target in targets:
        status = state.status(target)
        if status.dead or status.knocked_out:
            raise refuse("Starting Combat", f"{target} is out of action")
        if state.combat_of(target) is not None:
            raise refuse("Starting Combat", f"{target} is already in a combat")
    for who in surprised:
        if who not in targets:
            raise refuse("Surprise", f"only a target can be surprised, not {who}")


def _side_with(state: IntrigueState, combat: Combat, ally: CharacterId) -> int:
    side = combat.side_of(ally)
    if side is None:
        raise refuse("Starting Combat", f"{ally} is not in {combat.id}")
    return side


def join(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """ "When you shout Start, anyone in the reasonable vicinity can declare that they are part
    of the combat, unless ... you have surprised your target(s)"; they join ``ally``'s side.
    "No-one else may join the combat until it has been resolved" (:func:`admit` for the referee).
    """
    state = b.state
    character = acting_character(state, action).id
    ally = state.character(str(JOIN.of(action).with_)).id
    combat = state.combat_of(ally)
    if combat is None:
        raise refuse("Starting Combat", f"{ally} is not in a combat")
    if combat.is_surprise:
        raise refuse(
            "Starting Combat", f"{combat.id} is a surprise: only the attacker and targets take part"
        )
    if combat.round > 0:
        raise refuse(
            "Starting Combat",
            f"{combat.id} is under way: no-one else may join unless a referee rules otherwise",
        )
    tell(b, _joined(state, combat, character, _side_with(state, combat, ally)))


def admit(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """The referee lets ``character`` into a running combat on ``ally``'s side ("unless a
    referee rules otherwise")."""
    state = b.state
    if not by_the_referee(action):
        raise no_such_action(state, action)
    args = ADMIT.of(action)
    character, ally = state.character(str(args.character)).id, state.character(str(args.with_)).id
    combat = state.combat_of(ally)
    if combat is None:
        raise refuse("Starting Combat", f"{ally} is not in a combat")
    tell(b, _joined(state, combat, character, _side_with(state, combat, ally)))


def _joined(state: IntrigueState, combat: Combat, who: CharacterId, side: int) -> Event:
    if not state.status(who).can_act:
        raise refuse("Starting Combat", f"{who} is out of action")
    if who in combat.escaped:
        raise refuse("Escaping Combat", f"{who} escaped and may not rejoin until it is resolved")
    if state.combat_of(who) is not None:
        raise refuse("Starting Combat", f"{who} is already in a combat")
    return Event(COMBAT_JOINED, {"combat": combat.id, "character": who, "side": side})


def end_combat(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """The referee ends a combat (the players agree its outcome, or it is stopped)."""
    state = b.state
    if not by_the_referee(action):
        raise no_such_action(state, action)
    ended = END_COMBAT.of(action)
    combat = combat_acted_on(state, action, ended.combat)
    if combat.ended:
        raise refuse("Combat rules", f"{combat.id} is already over")
    tell(b, *aftermath(state, combat, ended.reason))

"""Initiative and rounds: who declares when, and what ranks a character by Mind.

Rules text (Intrigue in the Clouds), "Initiative", "Surprise", "Mixing Mental and Normal
Combat"; RULINGS.md: a round has two phases, every participant declares in initiative order,
then the declarations resolve place by place, ties simultaneously.
"""

from __future__ import annotations

from referee.core import Action, Builder, Event, RuleError
from referee.dice import DiceSource
from referee.systems.intrigue.acting import acting_character, by_the_referee, tell
from referee.systems.intrigue.actions import NEXT_ROUND
from referee.systems.intrigue.characters import CharacterId
from referee.systems.intrigue.events import COMBAT_MIND_USED, COMBAT_ROUND_STARTED
from referee.systems.intrigue.evolve import evolve
from referee.systems.intrigue.state import Combat, IntrigueState

__all__ = [
    "FIRST",
    "begin_round",
    "can_declare",
    "combat_acted_on",
    "initiative_rank",
    "my_combat",
    "next_round",
    "pending_declarers",
    "refuse",
    "round_start",
    "use_mind",
]

RULE = "Combat rules"
FIRST = 1000
"""The rank of the character who started the combat, in round 1: "goes first" ("Initiative")."""


def refuse(rule: str, reason: str) -> RuleError:
    """A refusal under the combat rules, naming the section."""
    return RuleError(f"{RULE}: {rule}", reason)


def can_declare(state: IntrigueState, combat: Combat, who: CharacterId) -> bool:
    """True if ``who`` gets an action this round ("The character who was surprised does not get
    an action during this first turn")."""
    surprised_now = combat.round == 1 and who in combat.surprised
    return state.is_active(combat, who) and not surprised_now


def initiative_rank(state: IntrigueState, combat: Combat, who: CharacterId) -> int:
    """Where ``who`` acts this round: the starter first in round 1, then by Combat Stat (halved
    while Holding or Held), or by Mind for a character using a mental ability ("Initiative",
    "Mixing Mental and Normal Combat")."""
    if combat.round == 1 and who == combat.starter:
        return FIRST
    if who in combat.by_mind:
        return state.character(who).mind
    return state.effective_combat(combat, who)


def pending_declarers(state: IntrigueState, combat: Combat) -> tuple[CharacterId, ...]:
    """Who has still to declare this round, highest rank first (ties in joining order)."""
    declared = {d.actor for d in combat.declarations}
    waiting = [
        c for c in combat.participants if c not in declared and can_declare(state, combat, c)
    ]
    if len(waiting) < 2:
        return tuple(waiting)
    return tuple(sorted(waiting, key=lambda c: -initiative_rank(state, combat, c)))


def begin_round(b: Builder[IntrigueState], combat: Combat) -> Combat:
    """``combat`` with a round under way: the next round begun now if none is."""
    if combat.in_round:
        return combat
    tell(b, Event(COMBAT_ROUND_STARTED, {"combat": combat.id, "round": combat.round + 1}))
    return b.state.combat(combat.id)


def round_start(state: IntrigueState, combat: Combat) -> tuple[IntrigueState, Combat, list[Event]]:
    """The state, the combat and the events once a round is under way (begun if need be): what
    the choices and the odds read before anyone acts."""
    if combat.in_round:
        return state, combat, []
    b = Builder(state, evolve)
    combat = begin_round(b, combat)
    return b.state, combat, list(b.events)


def my_combat(state: IntrigueState, who: CharacterId) -> Combat:
    """The combat ``who`` is in; :class:`RuleError` if none."""
    combat = state.combat_of(who)
    if combat is None:
        raise refuse("Combat Actions", f"{who} is not in a combat")
    return combat


def combat_acted_on(state: IntrigueState, action: Action, combat_id: str | None) -> Combat:
    """The combat a ``resolve`` or ``next_round`` is for: the one named, or the only one running,
    for the referee; a character's own (even Knocked Out: the round goes on around them)."""
    if by_the_referee(action):
        if combat_id is not None:
            return state.combat(combat_id)
        running = state.running
        if len(running) != 1:
            raise RuleError("Combat rules", f"name the combat: {len(running)} are running")
        return running[0]
    me = acting_character(state, action, knocked_out_may=True)
    combat = state.combat_of(me.id)
    if combat is None:
        raise RuleError("Combat rules", f"{me.id} is not in a combat")
    if combat_id is not None and combat_id != combat.id:
        raise RuleError("Combat rules", f"{me.id} is in {combat.id}, not {combat_id}")
    return combat


def next_round(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """Begin the next round (a declaration or ``use_mind`` also begins it)."""
    combat = combat_acted_on(b.state, action, NEXT_ROUND.of(action).combat)
    if combat.ended:
        raise refuse("Initiative", f"{combat.id} is over")
    if combat.in_round:
        raise refuse("Initiative", f"round {combat.round} of {combat.id} is not over")
    begin_round(b, combat)


def use_mind(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """ "When using a mental combat ability in a normal combat, the Attacker determines
    initiative using the Mental Stat instead of the Combat Stat": said before the round's first
    declaration; the character's action that round must then be a mental ability."""
    who = acting_character(b.state, action).id
    combat = my_combat(b.state, who)
    character = b.state.character(who)
    if not any(a.mental and a.in_combat for a in character.abilities):
        raise refuse(
            "Mixing Mental and Normal Combat", f"{who} has no mental ability usable in combat"
        )
    combat = begin_round(b, combat)
    state = b.state
    if combat.declarations:
        raise refuse(
            "Initiative", f"declarations have begun in round {combat.round}: initiative is set"
        )
    if not can_declare(state, combat, who):
        raise refuse("Surprise", f"{who} has no action this round")
    if who in combat.held_at_start or who in combat.holding_at_start:
        raise refuse("Break Free", f"{who} is Holding or Held: no mental ability this round")
    if who in combat.by_mind:
        raise refuse("Initiative", f"{who} already ranks by Mind this round")
    tell(b, Event(COMBAT_MIND_USED, {"combat": combat.id, "character": who}))

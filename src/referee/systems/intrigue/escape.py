"""Escaping Combat: two unhit Defensive Actions, then 3d6 + Combat against the attacker's.

Rules text (Intrigue in the Clouds), "Escaping Combat"; RULINGS.md: the escape roll is against
the strongest character who attacked the escaper in those two rounds, and strictly greater
escapes.
"""

from __future__ import annotations

from referee.core import Action, Builder, Event, Json, OpposedCheck, RollCard
from referee.dice import DiceSource
from referee.systems.intrigue.acting import acting_character, tell
from referee.systems.intrigue.characters import CharacterId
from referee.systems.intrigue.damage import aftermath
from referee.systems.intrigue.events import ESCAPE_ROLLED
from referee.systems.intrigue.resolution import active_sides
from referee.systems.intrigue.rounds import my_combat, refuse
from referee.systems.intrigue.rules import ESCAPE_DEFENSIVE_ACTIONS, escape_check
from referee.systems.intrigue.state import Combat, IntrigueState

__all__ = ["escape", "escape_plan"]


def escape(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """ "To escape a character must first succeed in two consecutive Defensive Actions ... and
    then beat their attacker with a 3d6 + Combat roll ... made at the end of the second
    consecutive turn" ("Escaping Combat"; RULINGS: the strongest who attacked in those rounds).
    """
    state = b.state
    who = acting_character(state, action).id
    combat = my_combat(state, who)
    if combat.in_round or combat.round == 0:
        raise refuse("Escaping Combat", "the escape roll is made at the end of a round")
    if who in combat.escape_tried:
        raise refuse("Escaping Combat", f"{who} has already tried to escape this round")
    if combat.streak(who) < ESCAPE_DEFENSIVE_ACTIONS:
        raise refuse(
            "Escaping Combat",
            f"{who} has {combat.streak(who)} consecutive unhit Defensive Action(s), "
            f"not {ESCAPE_DEFENSIVE_ACTIONS}",
        )
    payload: dict[str, Json] = {"combat": combat.id, "character": who}
    plan = escape_plan(state, combat, who)
    if plan is None:
        tell(b, Event(ESCAPE_ROLLED, {**payload, "against": None, "escaped": True}))
    else:
        strongest, check = plan
        result = check.roll(dice)
        tell(
            b,
            Event(
                ESCAPE_ROLLED,
                {
                    **payload,
                    "against": strongest,
                    "total": result.value,
                    "opponent_total": result.opponent_value,
                    "chance": str(check.odds().success),
                    "faces": list(result.faces),
                    "escaped": result.is_success,
                    "roll": RollCard.of(
                        check,
                        result,
                        f"{state.name(who)} escapes {state.name(strongest)}",
                        rule="Escaping Combat",
                    ).to_json(),
                },
            ),
        )
    after = b.state
    combat = after.combat(combat.id)
    if len(active_sides(after, combat)) < 2:
        tell(b, *aftermath(after, combat, f"{state.name(who)} escaped"))


def escape_plan(
    state: IntrigueState, combat: Combat, who: CharacterId
) -> tuple[CharacterId, OpposedCheck] | None:
    """Whom ``who`` must beat to escape, and the roll: the strongest (highest Combat Stat) still
    fighting of those who attacked them in the last two rounds; ``None`` if nobody did (ruling:
    then there is nobody to beat)."""
    recent = {
        a
        for attack in combat.attacks
        if attack.target == who and attack.round >= combat.round - 1
        for a in attack.attackers
        if state.is_active(combat, a)
    }
    if not recent:
        return None
    ordered = [c for c in combat.participants if c in recent]
    strongest = max(ordered, key=lambda c: state.character(c).combat)
    check = escape_check(
        state.effective_combat(combat, who), state.effective_combat(combat, strongest)
    )
    return strongest, check

"""Skill Rolls and Languages: 3d6 + a skill, and who hears a conversation.

Rules text (Intrigue in the Clouds), "Skill Rolls", "Languages", "Other Skills and Special
Abilities". A skill roll's odds are the referee's (ruling): the roller sees their own value and
dice; each side of an opposed roll the outcome and their own dice and total, the winner the
loser's total too, the loser nothing of the winner's (ruling 3).
"""

from __future__ import annotations

from referee.core import (
    EVERYONE,
    REFEREE_ONLY,
    Action,
    Builder,
    CheckResult,
    Event,
    Json,
    RollCard,
    RuleError,
    Secret,
    only,
)
from referee.core.cards import odds_of
from referee.core.naming import possessive
from referee.dice import DiceSource
from referee.systems.intrigue.acting import acting_character, tell
from referee.systems.intrigue.actions import ROLL, SPEAK
from referee.systems.intrigue.characters import CharacterId
from referee.systems.intrigue.events import CONVERSATION_HELD, SKILL_ROLLED
from referee.systems.intrigue.rules import opposed_skill_check, skill_check
from referee.systems.intrigue.state import IntrigueState

__all__ = ["roll", "speak"]

RULE = "Skill Rolls"


def roll(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """ "roll 3d6 and add their sum to your skill value" against a Target Number that "may be
    a fixed number or a roll + skill value from another character" ("Skill Rolls")."""
    state = b.state
    me = acting_character(state, action)
    args = ROLL.of(action)
    if (args.skill is None) == (args.ability is None):
        raise RuleError(RULE, "give exactly one of 'skill' and 'ability'")
    if args.skill is not None:
        name = args.skill
        value = me.skill(name)
    else:
        ability = me.ability(str(args.ability))
        if ability is None:
            raise RuleError(RULE, f"{me.id} has no special ability {args.ability!r}")
        name = ability.name
        value = ability.value or 0
    if (args.target is None) == (args.against is None):
        raise RuleError(RULE, "give exactly one of 'target' and 'against'")
    if args.against_skill is not None and args.against is None:
        raise RuleError(RULE, "against_skill names the skill of the character rolled 'against'")
    payload: dict[str, Json] = {"character": me.id, "skill": name}
    secrets = [Secret("value", value, only(me.id))]
    label = f"{possessive(me.name)} {name}"
    if args.target is not None:
        check = skill_check(value, args.target)
        result = check.roll(dice)
        payload["target"] = args.target
        audience = only(me.id)
        chance = check.odds().success
        card = RollCard.of(
            check, result, f"{label} ≥ {args.target}", rule=RULE, show_odds=False
        ).to_json()
        payload["roll"] = card
        secrets.append(Secret("odds", odds_of(check.odds()), REFEREE_ONLY))
    else:
        other = state.character(str(args.against))
        if other.id == me.id:
            raise RuleError(RULE, "a roll against another character, not oneself")
        their = args.against_skill or name
        their_value = other.skill(their)
        opposed = opposed_skill_check(value, their_value)
        result = opposed.roll(dice)
        payload |= {"against": other.id, "against_skill": their, "success": result.is_success}
        audience = only(me.id, other.id)
        chance = opposed.odds().success
        card = RollCard.of(
            opposed, result, f"{label} vs {possessive(other.name)} {their}", rule=RULE
        ).to_json()
        secrets += _opposed_sides(result, me.id, other.id, their_value)
        secrets.append(Secret("roll", card, REFEREE_ONLY))
        secrets.append(Secret("chance", str(chance), REFEREE_ONLY))
        tell(b, Event(SKILL_ROLLED, payload, audience=audience, secrets=tuple(secrets)))
        return
    secrets.append(Secret("chance", str(chance), REFEREE_ONLY))
    payload |= {"total": result.value, "faces": list(result.faces)}
    payload["success"] = result.is_success
    tell(b, Event(SKILL_ROLLED, payload, audience=audience, secrets=tuple(secrets)))


def _opposed_sides(
    result: CheckResult, me: CharacterId, other: CharacterId, their_value: int
) -> list[Secret]:
    """What each side of a roll against another character is told (ruling 3): both the
    outcome (the payload); each their own dice and total; the winner the loser's total too (the
    Target Number met, or held off) — never the loser the winner's dice or total, which with
    the faces would give away the winner's skill (16 − 6 − 6 − 2 is a Perception of 2)."""
    mine, theirs = (tuple(d.face for d in r.dice) for r in result.rolls)
    winner = me if result.is_success else other
    return [
        Secret("total", result.value, only(me, *((other,) if winner == other else ()))),
        Secret("faces", list(mine), only(me)),
        Secret(
            "against_total", result.opponent_value, only(other, *((me,) if winner == me else ()))
        ),
        Secret("against_faces", list(theirs), only(other)),
        Secret("against_value", their_value, only(other)),
    ]


def speak(b: Builder[IntrigueState], action: Action, dice: DiceSource) -> None:
    """ "Only people who also understand that language may approach you to hear what you are
    saying" ("Languages"): the content reaches only those who follow it."""
    state = b.state
    me = acting_character(state, action)
    args = SPEAK.of(action)
    language = args.language
    if not me.can_follow(language):
        raise RuleError("Languages", f"{me.id} does not speak {language!r}")
    listeners = [state.character(str(x)) for x in args.listeners]
    followers = [c.id for c in listeners if c.can_follow(language) and c.id != me.id]
    audience = only(me.id, *followers)
    tell(
        b,
        Event(
            CONVERSATION_HELD,
            {"speaker": me.id, "language": language, "listeners": [c.id for c in listeners]},
            audience=EVERYONE,
            secrets=(
                Secret("followed_by", followers, audience),
                Secret("content", args.content, audience),
            ),
        ),
    )

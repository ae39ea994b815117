"""Races (hursagmu-encounters.txt, "Movement").

"participants should roll their Quickness each round. For every point by which one character's
roll beats another's, that character gains one yard of distance." The racer who asks rolls
first (the acting side: a tie is nobody's gain, so the tie rule never moves a yard).

>>> from referee.systems.hursagmu.sheet import Character
>>> race_odds(Character("a", dexterity=2), Character("b"))["ahead"]
'287/432'
"""

from __future__ import annotations

from referee.core import Action, Builder, Event, Outcome, RollCard, RuleError
from referee.core.naming import title_of
from referee.dice import DiceSource
from referee.systems.hursagmu.catalogue import RACE
from referee.systems.hursagmu.events import RACE_ROLLED
from referee.systems.hursagmu.movement import race_check, race_gain
from referee.systems.hursagmu.sheet import Character
from referee.systems.hursagmu.state import Encounter

__all__ = ["decide_race", "race_odds"]


def race_odds(mine: Character, theirs: Character) -> dict[str, str]:
    """The exact odds of a race round: ahead, tie, behind."""
    check = race_check(mine.skill_roll("quickness").bonus, theirs.skill_roll("quickness").bonus)
    chances = check.odds()
    return {
        "ahead": str(chances.success),
        "tie": str(chances.outcomes.get(Outcome.TIE, 0)),
        "behind": str(chances.failure),
    }


def decide_race(b: Builder[Encounter], action: Action, dice: DiceSource) -> None:
    """A round of a race: both roll Quickness; the leader gains a yard per point."""
    state = b.state
    who = action.actor
    f = state.fighter(who)
    other = RACE.of(action).against
    g = state.fighter(other)
    if other == who:
        raise RuleError("Movement", f"{who} cannot race himself")
    check = race_check(f.sheet.skill_roll("quickness").bonus, g.sheet.skill_roll("quickness").bonus)
    result = check.roll(dice)
    gain = race_gain(result)
    leader = who if gain > 0 else other if gain < 0 else None
    card = RollCard.of(
        check, result, f"{title_of(who)} races {title_of(other)} (Quickness)", rule="Movement"
    )
    b.add(
        Event(
            RACE_ROLLED,
            {
                "character": who,
                "against": other,
                "odds": race_odds(f.sheet, g.sheet),
                **result.to_json(),
                "leader": leader,
                "yards": abs(gain),
                "roll": card.to_json(),
            },
        )
    )

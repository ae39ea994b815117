"""Round Zero and the Initiative phase (hursagmu-encounters.txt, "Round Zero", "Initiative").

- Round Zero: "the initiator(s) may make an action before any of the opponents ... the
  opponents may take no actions"; the "totally surprised" may not even defend.
- Initiative: "players must decide whether the character will manuever (for physical actions)
  or concentrate (for mental actions)", rolling Quickness or Command; "These skill checks do not
  count as actions". A character who held his action over acts first, without a roll.

Each step is a ``decide_*`` (state, action, dice → events) and each event kind a ``fold_*``
(state, event data → state); :mod:`~referee.systems.hursagmu.encounter` dispatches to them.

>>> from referee.systems.hursagmu.state import Encounter, Fighter, Options
>>> from referee.systems.hursagmu.sheet import Character
>>> state = Encounter(Options(), {"bob": Fighter(Character("bob"), 10)})
>>> fold_initiative_rolled(state, {"character": "bob", "stance": "maneuver",
...                                "initiative": 9, "rank": 0}).fighters["bob"].initiative
9
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import Action, Builder, Event, RollCard, RuleError, TargetCheck
from referee.core.naming import possessive_of as _own
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.hursagmu.catalogue import INITIATIVE, ROUND_ZERO
from referee.systems.hursagmu.events import ACTIONS_BEGAN, INITIATIVE_ROLLED, ROUND_ZERO_BEGAN
from referee.systems.hursagmu.sheet import SkillRoll, Stance
from referee.systems.hursagmu.state import HELD, WAITED, Encounter

__all__ = [
    "decide_initiative",
    "decide_round_zero",
    "fold_actions_began",
    "fold_initiative_rolled",
    "fold_round_zero_began",
    "held_initiatives",
    "initiative_check",
]


def decide_round_zero(b: Builder[Encounter], action: Action, dice: DiceSource) -> None:
    """ "Round zero marks the beginning of any conflict": the initiators and the surprised."""
    state = b.state
    if state.started or state.round != 1:
        raise RuleError(
            "Round Zero", "round zero marks the beginning of a conflict; this one has begun"
        )
    params = ROUND_ZERO.of(action)
    group = [action.actor, *params.with_]
    surprised = list(params.surprised)
    for who in (*group, *surprised):
        state.fighter(who)
    if set(group) & set(surprised):
        raise RuleError("Round Zero", "an initiator cannot be surprised")
    b.add(
        Event(
            ROUND_ZERO_BEGAN, {"initiators": group, "surprised": surprised, "stance": params.stance}
        )
    )


def initiative_check(
    state: Encounter, who: str, stance: Stance, modifier: int = 0
) -> tuple[SkillRoll, TargetCheck]:
    """The Initiative roll of ``who``: Quickness or Command (a check against 0, it only
    counts the total)."""
    roll = state.fighters[who].sheet.skill_roll(stance.initiative_skill, modifier)
    return roll, roll.against(0)


def decide_initiative(b: Builder[Encounter], action: Action, dice: DiceSource) -> None:
    """Choose to maneuver or concentrate and roll Quickness or Command."""
    state = b.state
    who = action.actor
    f = state.fighter(who)
    if state.phase != "initiative":
        raise RuleError("Initiative", f"round {state.round} is past its Initiative phase")
    if f.initiative is not None:
        raise RuleError("Initiative", f"{who} already has Initiative {f.initiative}")
    params = INITIATIVE.of(action)
    stance = Stance(params.stance)
    payload: dict[str, Any] = {
        "character": who,
        "stance": stance.value,
        "skill": stance.initiative_skill,
    }
    if f.held_over:
        # Until the others have rolled, the Initiative he held over (raised with theirs below).
        payload |= {"initiative": f.held_initiative, "rank": HELD, "held": True}
    else:
        roll, check = initiative_check(state, who, stance, params.modifier)
        result = check.roll(dice)
        # An Initiative roll has no success or failure, only a total: no odds to show.
        card = RollCard.of(
            check,
            result,
            f"{_own(who)} Initiative ({stance.initiative_skill})",
            rule="Initiative",
            show_odds=False,
            has_margin=False,
        )
        payload |= {
            "initiative": result.value,
            "rank": WAITED if f.waited_game else 0,
            "modifier": params.modifier,
            "faces": list(result.faces),
            "expression": roll.side.expression,
            "roll": card.to_json(),
        }
    events = [Event(INITIATIVE_ROLLED, payload)]
    missing = [
        w for w, g in state.fighters.items() if g.conscious and g.initiative is None and w != who
    ]
    if not missing:
        began: dict[str, Any] = {"round": state.round}
        held = held_initiatives(state, who, payload)
        if held:
            began["held"] = held
        events.append(Event(ACTIONS_BEGAN, began))
    b.extend(events)


def held_initiatives(state: Encounter, who: str, rolled: Mapping[str, Any]) -> dict[str, int]:
    """The Initiative of each character who held his action over, once everyone has rolled
    (``who`` last, ``rolled`` his ``initiative.rolled``): "he automatically gets the Initiative
    for that round without needing to roll" — the round's highest Initiative (his rank puts him
    before a tie), or the one he held over if nobody rolled higher (ruling 33)."""
    ranks = {w: (g.rank, g.initiative) for w, g in state.fighters.items() if g.conscious}
    ranks[who] = (int(rolled["rank"]), int(rolled["initiative"]))
    top = max((i for r, i in ranks.values() if r != HELD and i is not None), default=None)
    held = {}
    for w, (r, i) in ranks.items():
        if r == HELD and i is not None and state.fighters[w].held_over:
            held[w] = i if top is None else max(i, top)
    return held


def fold_round_zero_began(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """The initiators rank first at Initiative 0; everyone else has no turn on round zero."""
    stance = Stance(str(d["stance"]))
    fighters = dict(state.fighters)
    for who in d["initiators"]:
        fighters[str(who)] = evolved(fighters[str(who)], rank=HELD, initiative=0, stance=stance)
    for who in d["surprised"]:
        fighters[str(who)] = evolved(fighters[str(who)], surprised=True)
    for who, f in fighters.items():
        if f.initiative is None:
            fighters[who] = evolved(f, initiative=0, rank=-1)
    return evolved(state, fighters=fighters, round=0, phase="action", started=True, round_zero=True)


def fold_initiative_rolled(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """The stance and Initiative of the round."""
    who = str(d["character"])
    return evolved(
        state.with_fighter(
            who,
            stance=Stance(str(d["stance"])),
            initiative=int(d["initiative"]),
            rank=int(d["rank"]),
        ),
        started=True,
    )


def fold_actions_began(state: Encounter, d: Mapping[str, Any]) -> Encounter:
    """The Action phase; a held-over action's Initiative, the round's top."""
    for w, initiative in dict(d.get("held") or {}).items():
        state = state.with_fighter(str(w), initiative=int(initiative))
    return evolved(state, phase="action")

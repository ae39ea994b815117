"""The tie-breaker ("Independent and Versus Maneuvers": a tied versus test may be broken if
both sides agree, "testing the root stats for the skills used"; the extra successes count for
the maneuver).

Each side tests a root stat of the skill its maneuver test used (RULINGS.md, Round 3): the
parent game's roots, kept with their source in ``data/skill_roots.yaml``; where the skill has
two roots, the side picks one of them its roller has. A skill with no root known (one
substituted from off the text's lists) has no tie-breaker (ruling 35).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import Action, Builder, Event, OddsPreview
from referee.core.naming import possessive
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.kingdoms.actions import TIE_BREAK, TieBreak
from referee.systems.kingdoms.cards import pool_card
from referee.systems.kingdoms.dice import (
    BurningPool,
    BurningVersus,
    PoolRoll,
    roll_before,
    versus_odds,
)
from referee.systems.kingdoms.events import TIE_BREAK_OFFERED, TIE_BREAK_ROLLED
from referee.systems.kingdoms.scripting import tied_pools, ties_of
from referee.systems.kingdoms.sheets import Ability
from referee.systems.kingdoms.state import Faction, KingdomsState
from referee.systems.kingdoms.structure import (
    Fold,
    acting_faction,
    faction_name,
    refuse,
    require_phase,
    tell,
)
from referee.systems.kingdoms.tables import skill_roots

__all__ = [
    "FOLDS",
    "roll_both",
    "roots_for",
    "tie_break",
    "tie_break_odds",
    "tie_break_offer",
]

RULE = "Independent and Versus Maneuvers"


def roots_for(state: KingdomsState, fid: str) -> tuple[str, ...]:
    """The root stats ``fid`` may test to break a tie: the roots of the skill its maneuver test
    used that its roller has on its sheet (none if it rolled no test)."""
    test = state.rolls.get(fid)
    if test is None:
        return ()
    roller = state.factions[fid].character(test.roller)
    return tuple(r for r in skill_roots(test.skill) if roller.stat(r) is not None)


def tie_break_offer(state: KingdomsState, actor: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The tie-breakers ``actor`` may agree to: the opponents its versus test is tied with
    (sorted; none it has agreed with already, none without a root stat to test) and its own
    root stats (:func:`roots_for`); nothing offered unless both are there."""
    if actor not in state.rolls:
        return (), ()
    agreed = {b for a, (b, _) in state.tie_offers.items() if a == actor}
    opponents = tuple(
        sorted(
            o
            for pair in ties_of(state)
            if actor in pair
            for o in pair
            if o != actor and o not in agreed  # agreed once: not offered again
        )
    )
    opponents = tuple(o for o in opponents if roots_for(state, o))
    roots = roots_for(state, actor)  # the roots of the skill it used, on its roller's sheet
    return (opponents, roots) if opponents and roots else ((), ())


def tie_break(b: Builder[KingdomsState], action: Action, dice: DiceSource) -> None:
    """``tie_break``: this side agrees to break its tie with ``opponent`` on a root stat; when
    the opponent has agreed to break it with this side, both roll."""
    faction = acting_faction(b, action)
    params = TIE_BREAK.of(action)
    state = b.state
    require_phase(state, "rolled")
    opponent, root = params.opponent, params.root
    if frozenset((faction.id, opponent)) not in ties_of(state):
        raise refuse(RULE, f"{faction.id} and {opponent!r} have no tied versus test")
    test = state.rolls[faction.id]
    roller = state.factions[faction.id].character(test.roller)
    roots = skill_roots(test.skill)
    if root.casefold() not in {r.casefold() for r in roots}:
        known = "/".join(roots) if roots else "none known (a skill off the text's lists)"
        raise refuse(
            RULE,
            "the tie-breaker tests the root stats for the skills used: "
            f"{possessive(test.skill)} roots are {known}, not {root!r}",
        )
    stat = roller.stat(root)
    if stat is None:
        raise refuse(RULE, f"{roller.name} has no {root} to test for the tie-breaker")
    if not roots_for(state, opponent):
        raise refuse(
            RULE,
            f"{faction_name(state, opponent)} have no root stat of "
            f"{state.rolls[opponent].skill} to test",
        )
    if (faction.id, opponent) in {(who, whom) for who, (whom, _) in state.tie_offers.items()}:
        raise refuse(RULE, f"{faction.id} has already agreed to the tie-breaker")
    tell(b, TIE_BREAK_OFFERED, {"faction": faction.id, "opponent": opponent, "root": root})
    theirs = state.tie_offers.get(opponent)
    if theirs is not None and theirs[0] == faction.id:
        sides = (faction.id, root, stat), (opponent, theirs[1])
        tell(b, TIE_BREAK_ROLLED, _both_roll(state, *sides, dice))


def _both_roll(
    state: KingdomsState,
    mine: tuple[str, str, Ability],
    theirs: tuple[str, str],
    dice: DiceSource,
) -> dict[str, Any]:
    """Both sides agreed: each tests its root stat (this side first), with each side's odds.

    ``mine``: this faction, its root and that stat on its roller; ``theirs``: the opponent and
    the root it agreed on."""
    me, root, stat = mine
    opponent, their_root = theirs
    other = state.factions[opponent].character(state.rolls[opponent].roller).stat(their_root)
    assert other is not None
    mine_pool = BurningPool(stat.exponent, stat.shade, open_ended=stat.open_ended)
    their_pool = BurningPool(other.exponent, other.shade, open_ended=other.open_ended)
    odds = {
        me: str(versus_odds(mine_pool, their_pool)),
        opponent: str(versus_odds(their_pool, mine_pool)),
    }
    mine_roll, their_roll = roll_both(stat, other, dice)
    return {
        "factions": [me, opponent],
        "odds": odds,
        "extra": {me: mine_roll.successes, opponent: their_roll.successes},
        "pools": tied_pools(state, me, opponent),
        "rolls": [
            pool_card(
                mine_roll, f"{faction_name(state, me)}: tie-breaker on {root}", RULE
            ).to_json(),
            pool_card(
                their_roll, f"{faction_name(state, opponent)}: tie-breaker on {their_root}", RULE
            ).to_json(),
        ],
        "pool_rolls": {me: mine_roll.to_json(), opponent: their_roll.to_json()},
    }


def roll_both(mine: Ability, theirs: Ability, dice: DiceSource) -> tuple[PoolRoll, PoolRoll]:
    """Both sides' root stats rolled for the tie-breaker: the side that agreed last first."""
    mine_roll = roll_before(mine.exponent, mine.shade, mine.open_ended, dice)
    return mine_roll, roll_before(theirs.exponent, theirs.shade, theirs.open_ended, dice)


def tie_break_odds(
    state: KingdomsState, faction: Faction, params: TieBreak
) -> tuple[OddsPreview, ...]:
    """The tie-breaker's odds: this root stat against the root the opponent agreed to — or,
    before the opponent has agreed (nothing is rolled until both do), against each root stat
    it may choose (:func:`roots_for`), one preview each: the very versus test ``tie_break``
    rolls."""
    test = state.rolls.get(faction.id)
    other_test = state.rolls.get(params.opponent)
    if test is None or other_test is None:
        return ()
    if params.root not in roots_for(state, faction.id):
        return ()
    stat = faction.character(test.roller).stat(params.root)
    if stat is None:
        return ()
    theirs = state.tie_offers.get(params.opponent)
    agreed = theirs is not None and theirs[0] == faction.id
    roller = state.factions[params.opponent].character(other_test.roller)
    roots = (theirs[1],) if agreed and theirs is not None else roots_for(state, params.opponent)
    mine = BurningPool(stat.exponent, stat.shade, open_ended=stat.open_ended)
    name, opponent = faction_name(state, faction.id), faction_name(state, params.opponent)
    out: list[OddsPreview] = []
    for root in roots:
        other = roller.stat(root)
        if other is None:
            continue
        check = BurningVersus(
            mine, BurningPool(other.exponent, other.shade, open_ended=other.open_ended)
        )
        label = f"{name}: tie-breaker on {params.root} against {possessive(opponent)} {root}"
        if not agreed:
            label += f", if {opponent} agree on {root}"
        out.append(OddsPreview.of(check.kernel or check, label, rule=RULE))
    return tuple(out)


# ------------------------------------------------------------------------------------ folds


def tie_break_offered(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`TIE_BREAK_OFFERED`: this side's offer, waiting for the other's."""
    data: dict[str, Any] = dict(event.data)
    offer = (str(data["opponent"]), str(data["root"]))
    return evolved(state, tie_offers={**state.tie_offers, str(data["faction"]): offer})


def tie_break_rolled(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`TIE_BREAK_ROLLED`: each side's extra successes added to the pool that tied (a
    Harry's attack dice where they tied, audit W3); the offers are settled."""
    data: dict[str, Any] = dict(event.data)
    extra = data["extra"]
    assert isinstance(extra, Mapping)
    pools = data.get("pools") or {}
    assert isinstance(pools, Mapping)
    rolls = dict(state.rolls)
    for fid, n in extra.items():
        test = rolls[fid]
        marked = {**test.tie_break, "extra": int(n)}
        if pools.get(fid) == "attack":
            rolls[fid] = evolved(test, attack=test.attack + int(n), tie_break=marked)
        else:
            rolls[fid] = evolved(test, successes=test.successes + int(n), tie_break=marked)
    offers = {k: v for k, v in state.tie_offers.items() if k not in extra}
    return evolved(state, rolls=rolls, tie_offers=offers)


FOLDS: Mapping[str, Fold] = {
    TIE_BREAK_OFFERED: tie_break_offered,
    TIE_BREAK_ROLLED: tie_break_rolled,
}
"""This section's folds, by event kind."""

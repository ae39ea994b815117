"""The maneuver tests ("Conquest Maneuvers", "Maneuver Resolution"): the seat order from the
reader, each faction's pool and the dice it rolls, the rolled tests as resolution's entries,
the versus tests tied, and the odds of every engagement shown before the dice.

The slip's rules are :mod:`.slips`', the scene conditions the reveal reads :mod:`.scenes`',
the refusals :mod:`.structure`'s; they are named here too, where they were first written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.core.values import evolved
from referee.systems.kingdoms.dice import (
    Artha,
    BurningPool,
    PoolRoll,
    Shade,
    fork_dice,
    obstacle_odds,
    versus_odds,
)
from referee.systems.kingdoms.resolution import (
    Board,
    Engagement,
    Entry,
    engagements,
)
from referee.systems.kingdoms.scenes import (
    conflict_fulfilled,
    lent_help,
    scenes_of,
    second_may_roll,
)
from referee.systems.kingdoms.sheets import Character
from referee.systems.kingdoms.slips import base_dice, check_conflicts_against, no_skill, slip_from
from referee.systems.kingdoms.state import KingdomsState, Slip
from referee.systems.kingdoms.structure import faction_of, refuse, require_phase
from referee.systems.kingdoms.tables import maneuver, matrix

__all__ = [
    "base_dice",
    "can_spend_after",
    "check_conflicts_against",
    "conflict_fulfilled",
    "dice_rolled",
    "entries_of",
    "faction_of",
    "lent_help",
    "no_skill",
    "order_from",
    "pool_for",
    "pool_roll_from",
    "refuse",
    "require_phase",
    "reveal_odds",
    "scenes_of",
    "second_may_roll",
    "slip_from",
    "tied_pools",
    "ties_of",
    "versus_targets",
]


# ---------------------------------------------------------------------------------- seat order


def order_from(state: KingdomsState, reader: str) -> tuple[str, ...]:
    """Seat order clockwise from ``reader``, factions out of contention left out."""
    seats = state.seats
    at = seats.index(reader)
    return tuple(f for f in seats[at:] + seats[:at] if not state.factions[f].out)


# ---------------------------------------------------------------------------------- the pool


def pool_for(
    state: KingdomsState, slip: Slip, helpers: Mapping[str, int]
) -> tuple[BurningPool, Character, int, list[str]]:
    """The maneuver test's pool before artha: (pool, roller, exponent, notes)."""
    faction = state.factions[slip.faction]
    who = faction.character(slip.roller)
    ability = who.skill(slip.skill)
    assert ability is not None
    notes: list[str] = []
    forks = sum(fork_dice((who.skill(f) or no_skill()).exponent) for f in slip.forks)
    helping = sum(helpers.values())
    bonus = maneuver(slip.maneuver).bonus
    advantage = max((faction.infiltrated.get(t, 0) for t in slip.targets), default=0)
    if advantage:
        notes.append(f"+{advantage}D advantage from Infiltrating")
    if bonus:
        notes.append(f"+{bonus}D {slip.maneuver}")
    exponent = ability.exponent
    if faction.sapped:
        notes.append(f"-{faction.sapped}D Sapped")
    if who.wound_dice:
        notes.append(f"-{who.wound_dice}D wounds")
    pool = BurningPool(
        exponent=exponent,
        shade=ability.shade,
        forks=forks,
        helping=helping,
        bonus=bonus + advantage,
        penalty=who.wound_dice + faction.sapped,
        open_ended=ability.open_ended,
    )
    return pool, who, exponent, notes


def dice_rolled(state: KingdomsState, slip: Slip, pool: BurningPool) -> int:
    """Dice actually rolled: none if Sapped down to nothing (exponent not above the Sap)."""
    faction = state.factions[slip.faction]
    if faction.sapped and pool.exponent <= faction.sapped:
        return 0
    return pool.dice_with(Artha(persona=slip.persona, deeds_before=slip.deeds_before))


def can_spend_after(who: Character) -> bool:
    """True if ``who`` has Fate or Deeds left to spend after a roll."""
    return who.artha.get("fate", 0) > 0 or who.artha.get("deeds", 0) > 0


def pool_roll_from(data: Mapping[str, Any]) -> PoolRoll:
    """A :class:`PoolRoll` back from its JSON in a ``test.rolled`` event."""
    stages = {str(k): tuple(int(f) for f in v) for k, v in data["stages"].items()}
    shade = int(Shade.parse(str(data["shade"])))
    faces = stages.get("pool", ())
    return PoolRoll(
        dice=int(data["dice"]),
        shade=shade,
        open_ended=bool(data["open_ended"]),
        successes=int(data["successes"]),
        stages=stages,
        failed=sum(1 for f in faces if f < shade),
        sixes=sum(1 for f in faces if f == 6),
    )


def entries_of(state: KingdomsState) -> dict[str, Entry]:
    """The rolled maneuvers as resolution :class:`Entry` values."""
    out: dict[str, Entry] = {}
    for fid, test in state.rolls.items():
        slip = state.slips[fid]
        who = state.factions[fid].character(test.roller)
        out[fid] = Entry(
            fid,
            slip.maneuver,
            slip.targets,
            test.successes,
            test.attack,
            test.exponent,
            slip.downtime,
            ob_penalty=1 if who.superficial else 0,
        )
    return out


def ties_of(state: KingdomsState) -> set[frozenset[str]]:
    """Pairs of factions whose versus test is tied (for the tie-breaker)."""
    entries = entries_of(state)
    board = Board(
        order=state.order,
        disposition={f: x.disposition for f, x in state.factions.items()},
        cap=state.cap,
    )
    return {
        frozenset((e.attacker, e.target))
        for e in engagements(entries, board)
        if e.kind == "versus" and e.successes == e.defence
    }


def versus_targets(state: KingdomsState, order: Sequence[str], void: Mapping[str, str]) -> set[str]:
    """The factions that some revealed maneuver meets in a versus test (the matrix's V, dV or
    aV): what a Conserve needs before it is rolled."""
    entries = {
        f: Entry(f, state.slips[f].maneuver, state.slips[f].targets)
        for f in order
        if f in state.slips and f not in void
    }
    board = Board(
        order=tuple(order),
        disposition={f: x.disposition for f, x in state.factions.items()},
        cap=state.cap,
    )
    return {e.target for e in engagements(entries, board) if e.kind == "versus"}


def tied_pools(state: KingdomsState, a: str, b: str) -> dict[str, str]:
    """Which pool of each side tied in the versus test between ``a`` and ``b``: a Harry's
    ``attack`` dice where they met the other side (its attack against any maneuver it engages;
    aV against an Assault, Ensnare...), otherwise the maneuver's ``successes``."""
    entries = entries_of(state)
    board = Board(
        order=state.order,
        disposition={f: x.disposition for f, x in state.factions.items()},
        cap=state.cap,
    )
    for e in engagements(entries, board):
        if e.kind != "versus" or {e.attacker, e.target} != {a, b} or e.successes != e.defence:
            continue
        mine = "attack" if e.role == "harry" else "successes"
        defender = entries[e.target]
        theirs = "successes"
        if defender.maneuver == "Harry" and matrix().cell("Harry", e.maneuver) == "aV":
            theirs = "attack"
        return {e.attacker: mine, e.target: theirs}
    return {a: "successes", b: "successes"}


def reveal_odds(
    state: KingdomsState,
    order: Sequence[str],
    void: Mapping[str, str],
    pools: Mapping[str, tuple[BurningPool, int]],
) -> list[dict[str, Any]]:
    """Each engagement's chance of success before the roll, with each after-the-roll artha;
    and an unopposed Fortify's chance of adding disposition.

    ``pools``: each faction's dice as rolled (a Harry's defence dice) and a Harry's attack
    dice."""
    entries = _entries_before_the_roll(state, order, void)
    board = Board(
        order=tuple(order),
        disposition={f: x.disposition for f, x in state.factions.items()},
        cap=state.cap,
        circles={f: x.leader.circles for f, x in state.factions.items()},
    )
    found = engagements(entries, board)
    out = [_engagement_odds(state, e, entries, pools) for e in found]
    opposed = {e.target for e in found if e.kind == "versus"}
    for fid, entry in entries.items():
        if entry.maneuver == "Fortify" and fid not in opposed:
            out.append(_unopposed_fortify_odds(entry, pools[fid][0]))
    return out


def _entries_before_the_roll(
    state: KingdomsState, order: Sequence[str], void: Mapping[str, str]
) -> dict[str, Entry]:
    """The revealed maneuvers not void, as resolution entries before any success is rolled:
    the skill's exponent (a Ploy's Ob) and a Superficial wound's +1 Ob."""
    entries: dict[str, Entry] = {}
    for fid in order:
        slip = state.slips.get(fid)
        if slip is None or fid in void:
            continue
        who = state.factions[fid].character(slip.roller)
        exponent = (who.skill(slip.skill) or no_skill()).exponent
        penalty = 1 if who.superficial else 0
        entries[fid] = Entry(
            fid, slip.maneuver, slip.targets, exponent=exponent, ob_penalty=penalty
        )
    return entries


def _engagement_odds(
    state: KingdomsState,
    engagement: Engagement,
    entries: Mapping[str, Entry],
    pools: Mapping[str, tuple[BurningPool, int]],
) -> dict[str, Any]:
    """One engagement's chance of success with no artha, and with each after-the-roll artha
    the attacker's roller has (Fate, Deeds): against the target's dice that meet it (a
    Harry's attack dice where the matrix says aV), or against the Ob."""
    e = engagement
    mine, attack_dice = pools[e.attacker]
    attacker = evolved(mine, exponent=attack_dice) if e.role == "harry" else mine
    who = state.factions[e.attacker].character(state.slips[e.attacker].roller)
    choices = [Artha()]
    if who.artha.get("fate", 0):
        choices.append(Artha(fate=True))
    if who.artha.get("deeds", 0):
        choices.append(Artha(deeds_after=True))
    row: dict[str, Any] = {
        "needed": e.needed if e.kind == "independent" else None,
        "attacker": e.attacker,
        "target": e.target,
        "kind": e.kind,
        "cell": e.cell,
        "dice": attacker.exponent,
    }
    if e.kind == "versus":
        defender, defender_attack = pools[e.target]
        harried = entries[e.target].maneuver == "Harry" and e.cell != "-"
        if harried and matrix().cell("Harry", e.maneuver) == "aV":  # its attack dice meet it
            defender = evolved(defender, exponent=defender_attack)
        row["against_dice"] = defender.exponent
        chances = {a.label(): str(versus_odds(attacker, defender, a)) for a in choices}
    else:
        row["obstacle"] = e.obstacle
        chances = {a.label(): str(obstacle_odds(attacker, a, e.needed)) for a in choices}
    row["chance"] = chances
    return row


def _unopposed_fortify_odds(entry: Entry, pool: BurningPool) -> dict[str, Any]:
    """An unopposed Fortify: its independent Ob (2; +1 for a Superficial wound), and a margin
    (one success more) to add disposition."""
    stated = maneuver("Fortify").independent_ob
    ob = (stated if isinstance(stated, int) else 0) + entry.ob_penalty
    return {
        "needed": ob + 1,
        "attacker": entry.faction,
        "target": None,
        "kind": "independent",
        "cell": "-",
        "dice": pool.exponent,
        "obstacle": ob,
        "chance": {Artha().label(): str(obstacle_odds(pool, Artha(), ob + 1))},
    }

"""Scripting a maneuver and building its tests ("Maneuvering in the Chronicle", "Scene Economy",
"Conquest Maneuvers", "Maneuver Resolution").

Slip validation (prerequisites, skills, FoRKs, targets, Harry's split), the scene conditions the
reveal checks (required conflicts, the 2iC's substitution, help between factions), each
faction's pool, and the odds of every engagement shown before the dice."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from referee.core import (
    ActorId,
    RuleError,
)
from referee.systems.kingdoms.actions import WriteSlip
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
    Entry,
    engagements,
)
from referee.systems.kingdoms.sheets import Character
from referee.systems.kingdoms.state import (
    Faction,
    KingdomsState,
    SceneRecord,
    Slip,
)
from referee.systems.kingdoms.tables import maneuver

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


# ---------------------------------------------------------------------------------- helpers


def refuse(rule: str, reason: str) -> RuleError:
    """A :class:`RuleError` naming the rule."""
    return RuleError(rule, reason)


def faction_of(state: KingdomsState, actor: ActorId) -> Faction:
    """The faction ``actor`` plays, or a refusal."""
    if actor not in state.factions:
        raise refuse("Factions", f"{actor!r} is not a faction at this table")
    return state.factions[actor]


def require_phase(state: KingdomsState, *phases: str) -> None:
    """Refuse an action out of its phase."""
    if state.phase not in phases:
        raise refuse("Structure of Play", f"not now: the chronicle is in its {state.phase} phase")


def order_from(state: KingdomsState, reader: str) -> tuple[str, ...]:
    """Seat order clockwise from ``reader``, factions out of contention left out."""
    seats = state.seats
    i = seats.index(reader)
    return tuple(f for f in seats[i:] + seats[:i] if not state.factions[f].out)


def scenes_of(state: KingdomsState, fid: str, kind: str | None = None) -> list[SceneRecord]:
    """The scenes ``fid`` played this maneuver (of ``kind``)."""
    return [s for s in state.scenes if s.faction == fid and (kind is None or s.kind == kind)]


def lent_help(state: KingdomsState, a: str, b: str) -> bool:
    """ "Those Faction's Leaders lent each other helping dice in a scene during the Maneuver"."""
    return any(
        (s.faction == a and b in s.helpers) or (s.faction == b and a in s.helpers)
        for s in state.scenes
    )


def conflict_fulfilled(state: KingdomsState, slip: Slip) -> bool:
    """The slip's required conflict scene was directed at its target (or, by the optional rule, the
    target directed one at it first).
    """
    targets = set(slip.targets)
    own = any(s.target in targets for s in scenes_of(state, slip.faction, "conflict"))
    if own:
        return True
    if state.attacked_first_fulfils:
        return any(
            s.kind == "conflict" and s.faction in targets and s.target == slip.faction
            for s in state.scenes
        )
    return False


def second_may_roll(state: KingdomsState, fid: str) -> bool:
    """The 2iC made two thirds of the faction's building rolls, or initiated its conflict."""
    builds = scenes_of(state, fid, "building")
    by_second = sum(1 for s in builds if s.by == "second")
    conflict = any(s.by == "second" for s in scenes_of(state, fid, "conflict"))
    return conflict or (bool(builds) and 3 * by_second >= 2 * len(builds))


def slip_from(state: KingdomsState, faction: Faction, params: WriteSlip) -> Slip:
    """A validated slip from ``write_slip`` parameters; refuses what the rules forbid."""
    name = params.maneuver
    info = maneuver(name)
    targets = params.named_targets
    wanted = info.targets
    if name == "Harry":
        if len(targets) > 1:
            raise refuse(name, "a Harry names at most one target")
    elif len(targets) != wanted:
        raise refuse(
            name, f"the slip names {wanted} target{'s' if wanted != 1 else ''}, not {len(targets)}"
        )
    for t in targets:
        if t not in state.factions or t == faction.id:
            raise refuse(name, f"{t!r} is not an opposing faction")
        if state.factions[t].out:
            raise refuse(name, f"{t} is out of contention")
    if len(set(targets)) != len(targets):
        raise refuse(name, "the two targets of a Ploy are two different factions")
    if info.requires == "assessed" and targets[0] not in faction.assessed:
        raise refuse(
            name, f"{faction.id} must first successfully Assess {targets[0]} in a previous maneuver"
        )
    if info.requires == "infiltrated":
        if name == "Ploy" and not any(t in faction.infiltrated for t in targets):
            raise refuse(
                name,
                f"{faction.id} must first successfully Infiltrate one of "
                f"{' and '.join(targets)} in a previous maneuver",
            )
        if name == "Sap" and targets[0] not in faction.infiltrated:
            raise refuse(
                name,
                f"{faction.id} must first successfully Infiltrate {targets[0]} "
                "in a previous maneuver",
            )
    if info.cost and faction.disposition <= info.cost:
        raise refuse(
            name,
            f"{faction.id} has {faction.disposition} disposition and cannot "
            f"sacrifice {info.cost} without wiping itself out",
        )
    roller = params.roller
    skill = params.skill
    substitute = params.substitute
    if not substitute and not info.has_skill(skill):
        raise refuse(name, f"{skill!r} is not one of {name}'s skills ({', '.join(info.skills)})")
    character = faction.character(roller)
    ability = character.skill(skill)
    if ability is None:
        # Beginner's Luck is the parent game's, not in the text: "Seconds in Command" lets
        # the 2iC roll a skill the leader lacks instead (issue 13)
        raise refuse(
            name,
            f"{character.name} has no {skill!r} skill (Beginner's Luck is not in the text; "
            "under Seconds in Command a 2iC who has the skill may roll instead)",
        )
    if roller == "second":
        second = faction.second
        assert second is not None
        if not second.burned_up:
            raise refuse("Seconds in Command", "a 2iC benefits the leader only if burned up")
        if faction.leader.skill(skill) is not None:
            raise refuse(
                "Seconds in Command",
                f"the 2iC substitutes only for a skill the leader lacks; {faction.leader.name} "
                f"has {skill}",
            )
    forks = tuple(params.forks)
    for fork in forks:
        if not info.has_skill(fork) or fork.casefold() == skill.casefold():
            raise refuse(
                "Conquest Maneuvers",
                f"FoRKs come only from other skills in {name}'s list, not {fork!r}",
            )
        if character.skill(fork) is None:
            raise refuse("Conquest Maneuvers", f"{character.name} has no {fork!r} to FoRK")
    persona = params.persona
    deeds_before = params.deeds_before
    Artha(persona=persona, deeds_before=deeds_before)  # the per-test limits
    character.spend({"persona": persona, "deeds": int(deeds_before)})
    defence = params.defence
    if name == "Harry":
        dice = base_dice(faction, character, ability.exponent, forks, persona, deeds_before)
        if defence < 2 or dice - defence < 2:
            raise refuse(
                "Harry",
                f"divide the Harry dice with at least 2 in each pool: {dice} dice, "
                f"{defence} to defence",
            )
    downtime = params.downtime
    if downtime < 0:
        raise refuse("Downtime", f"successes put into downtime are 0 or more, not {downtime}")
    helps = params.helps
    if helps is not None and (helps not in state.factions or helps == faction.id):
        raise refuse("Conquest Maneuvers", f"{helps!r} is not another faction to help")
    slip = Slip(
        faction=faction.id,
        maneuver=name,
        skill=skill,
        targets=targets,
        roller=roller,
        forks=forks,
        persona=persona,
        deeds_before=deeds_before,
        defence=defence,
        helps=None if helps is None else str(helps),
        downtime=downtime,
        substitute=substitute,
    )
    check_conflicts_against(state, slip)
    return slip


def check_conflicts_against(state: KingdomsState, slip: Slip) -> None:
    """A slip cannot contradict a conflict scene the faction already directed."""
    conflicts = scenes_of(state, slip.faction, "conflict")
    if not conflicts:
        return
    info = maneuver(slip.maneuver)
    if info.conflict == "forbidden":
        raise refuse(
            slip.maneuver,
            f"a conflict scene cannot be used with {slip.maneuver}, and "
            f"{slip.faction} has directed one",
        )


def base_dice(
    faction: Faction,
    who: Character,
    exponent: int,
    forks: Sequence[str],
    persona: int,
    deeds_before: bool,
) -> int:
    """The dice a slip rolls before help and bonuses (for Harry's split)."""
    fork = sum(fork_dice((who.skill(f) or no_skill()).exponent) for f in forks)
    pool = BurningPool(exponent, forks=fork, penalty=who.wound_dice + faction.sapped)
    return pool.dice_with(Artha(persona=persona, deeds_before=deeds_before))


def no_skill() -> Any:
    """An exponent-0 ability, for a skill the sheet lacks."""
    from referee.systems.kingdoms.sheets import Ability

    return Ability(Shade.BLACK, 0)


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
        if defender.maneuver == "Harry":
            from referee.systems.kingdoms.tables import matrix

            if matrix().cell("Harry", e.maneuver) == "aV":
                theirs = "attack"
        return {e.attacker: mine, e.target: theirs}
    return {a: "successes", b: "successes"}


def reveal_odds(
    state: KingdomsState,
    order: Sequence[str],
    void: Mapping[str, str],
    pools: Mapping[str, tuple[BurningPool, int]],
) -> list[dict[str, Any]]:
    """Each engagement's chance of success before the roll, with each after-the-roll artha."""
    entries = {
        f: Entry(
            f,
            state.slips[f].maneuver,
            state.slips[f].targets,
            exponent=(
                state.factions[f].character(state.slips[f].roller).skill(state.slips[f].skill)
                or no_skill()
            ).exponent,
            ob_penalty=1 if state.factions[f].character(state.slips[f].roller).superficial else 0,
        )
        for f in order
        if f in state.slips and f not in void
    }
    board = Board(
        order=tuple(order),
        disposition={f: x.disposition for f, x in state.factions.items()},
        cap=state.cap,
        circles={f: x.leader.circles for f, x in state.factions.items()},
    )
    out: list[dict[str, Any]] = []
    for e in engagements(entries, board):
        mine, attack_dice = pools[e.attacker]
        attacker = replace(mine, exponent=attack_dice) if e.role == "harry" else mine
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
        chances: dict[str, str] = {}
        for artha in choices:
            if e.kind == "versus":
                defender_pool, defender_attack = pools[e.target]
                target_entry = entries[e.target]
                if target_entry.maneuver == "Harry" and e.cell != "-":
                    from referee.systems.kingdoms.tables import matrix

                    if matrix().cell("Harry", e.maneuver) == "aV":
                        defender_pool = replace(defender_pool, exponent=defender_attack)
                p: Fraction = versus_odds(attacker, defender_pool, artha)
                row["against_dice"] = defender_pool.exponent
            else:
                p = obstacle_odds(attacker, artha, e.needed)
                row["obstacle"] = e.obstacle
            chances[artha.label()] = str(p)
        row["chance"] = chances
        out.append(row)
    versus_targets = {e.target for e in engagements(entries, board) if e.kind == "versus"}
    for fid, entry in entries.items():
        if entry.maneuver == "Fortify" and fid not in versus_targets:
            pool, _ = pools[fid]
            # unopposed Fortify: its independent Ob (2; +1 for a Superficial wound), and a
            # margin (one success more) to add disposition
            stated = maneuver("Fortify").independent_ob
            ob = (stated if isinstance(stated, int) else 0) + entry.ob_penalty
            out.append(
                {
                    "needed": ob + 1,
                    "attacker": fid,
                    "target": None,
                    "kind": "independent",
                    "cell": "-",
                    "dice": pool.exponent,
                    "obstacle": ob,
                    "chance": {Artha().label(): str(obstacle_odds(pool, Artha(), ob + 1))},
                }
            )
    return out

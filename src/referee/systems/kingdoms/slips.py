"""Maneuver slips at the table ("Maneuvering in the Chronicle": "At the beginning of each
Maneuver, players decide their faction's intent, declare it privately"): writing a slip, sealed
for its faction alone until the reveal, and the odds of its test as the faction writes it.

A slip names a maneuver, a skill from its list (or one substituted), its targets, FoRKs,
artha before the roll, Harry's split, help for another faction and successes put into
downtime; :func:`slip_from` refuses what the rules forbid.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.core import Action, Builder, Event, Secret, only
from referee.core.fairness import SALT, seal
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.kingdoms.actions import WRITE_SLIP, WriteSlip
from referee.systems.kingdoms.dice import Artha, BurningPool, Shade, fork_dice
from referee.systems.kingdoms.events import SLIP_WRITTEN
from referee.systems.kingdoms.scenes import scenes_of
from referee.systems.kingdoms.sheets import Ability, Character
from referee.systems.kingdoms.state import Faction, KingdomsState, Slip
from referee.systems.kingdoms.structure import Fold, acting_faction, refuse, require_phase, tell
from referee.systems.kingdoms.tables import maneuver

__all__ = [
    "FOLDS",
    "base_dice",
    "check_conflicts_against",
    "no_skill",
    "slip_choice",
    "slip_from",
    "slip_to_write",
    "write_slip",
]


def slip_from(state: KingdomsState, faction: Faction, params: WriteSlip) -> Slip:
    """A validated slip from ``write_slip`` parameters; refuses what the rules forbid, in the
    order the slip is read: its targets, the maneuver's prerequisites and cost, the skill and
    who rolls it, FoRKs, artha before the roll, Harry's split, downtime and help."""
    name = params.maneuver
    info = maneuver(name)
    targets = params.named_targets
    _check_targets(state, faction, name, targets)
    _check_prerequisites(faction, name, targets)
    if info.cost and faction.disposition <= info.cost:
        raise refuse(
            name,
            f"{faction.id} has {faction.disposition} disposition and cannot "
            f"sacrifice {info.cost} without wiping itself out",
        )
    character, ability = _roller(faction, params)
    forks = tuple(params.forks)
    for fork in forks:
        if not info.has_skill(fork) or fork.casefold() == params.skill.casefold():
            raise refuse(
                "Conquest Maneuvers",
                f"FoRKs come only from other skills in {name}'s list, not {fork!r}",
            )
        if character.skill(fork) is None:
            raise refuse("Conquest Maneuvers", f"{character.name} has no {fork!r} to FoRK")
    persona, deeds_before = params.persona, params.deeds_before
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
    if params.downtime < 0:
        raise refuse(
            "Downtime", f"successes put into downtime are 0 or more, not {params.downtime}"
        )
    helps = params.helps
    if helps is not None and (helps not in state.factions or helps == faction.id):
        raise refuse("Conquest Maneuvers", f"{helps!r} is not another faction to help")
    slip = Slip(
        faction=faction.id,
        maneuver=name,
        skill=params.skill,
        targets=targets,
        roller=params.roller,
        forks=forks,
        persona=persona,
        deeds_before=deeds_before,
        defence=defence,
        helps=None if helps is None else str(helps),
        downtime=params.downtime,
        substitute=params.substitute,
    )
    check_conflicts_against(state, slip)
    return slip


def _check_targets(
    state: KingdomsState, faction: Faction, name: str, targets: tuple[str, ...]
) -> None:
    """As many targets as the maneuver names (a Harry: at most one), each an opposing faction
    still in contention, no faction twice."""
    wanted = maneuver(name).targets
    if name == "Harry":
        if len(targets) > 1:
            raise refuse(name, "a Harry names at most one target")
    elif len(targets) != wanted:
        raise refuse(
            name, f"the slip names {wanted} target{'s' if wanted != 1 else ''}, not {len(targets)}"
        )
    for target in targets:
        if target not in state.factions or target == faction.id:
            raise refuse(name, f"{target!r} is not an opposing faction")
        if state.factions[target].out:
            raise refuse(name, f"{target} is out of contention")
    if len(set(targets)) != len(targets):
        raise refuse(name, "the two targets of a Ploy are two different factions")


def _check_prerequisites(faction: Faction, name: str, targets: tuple[str, ...]) -> None:
    """Assess before an Assault, Gambit or Onslaught; Infiltrate before a Ploy (one of its
    targets) or a Sap, in a previous maneuver."""
    requires = maneuver(name).requires
    if requires == "assessed" and targets[0] not in faction.assessed:
        raise refuse(
            name, f"{faction.id} must first successfully Assess {targets[0]} in a previous maneuver"
        )
    if requires != "infiltrated":
        return
    if name == "Ploy" and not any(t in faction.infiltrated for t in targets):
        raise refuse(
            name,
            f"{faction.id} must first successfully Infiltrate one of "
            f"{' and '.join(targets)} in a previous maneuver",
        )
    if name == "Sap" and targets[0] not in faction.infiltrated:
        raise refuse(
            name,
            f"{faction.id} must first successfully Infiltrate {targets[0]} in a previous maneuver",
        )


def _roller(faction: Faction, params: WriteSlip) -> tuple[Character, Ability]:
    """Who rolls the maneuver and the skill they roll: one of the maneuver's skills (unless
    substituted), on the roller's sheet; a 2iC only burned up, for a skill the leader lacks
    ("Seconds in Command")."""
    name, skill, roller = params.maneuver, params.skill, params.roller
    info = maneuver(name)
    if not params.substitute and not info.has_skill(skill):
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
    return character, ability


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


def no_skill() -> Ability:
    """An exponent-0 ability, for a skill the sheet lacks."""
    return Ability(Shade.BLACK, 0)


def slip_choice(maneuver_number: int, faction: str) -> str:
    """The name a faction's slip is sealed under: one per faction and maneuver."""
    return f"maneuver {maneuver_number}: the slip of {faction}"


def slip_to_write(state: KingdomsState, faction: Faction, params: WriteSlip) -> Slip:
    """The slip ``faction`` would seal with ``params`` now, or the rule that refuses it."""
    require_phase(state, "maneuver")
    if faction.out:
        raise refuse("Consequences", f"{faction.id} is out of contention")
    if faction.cannot_act:
        raise refuse("Maneuvers", f"{faction.id} cannot act this maneuver and scripts nothing")
    if state.scenes:
        # "Maneuver": "At the beginning of each Maneuver, players decide their faction's
        # intent, declare it privately" (audit W1)
        raise refuse(
            "Maneuver",
            f"the slips are fixed once the maneuver's first scene is played; {faction.id} "
            "declares its intent at the beginning of the maneuver",
        )
    return slip_from(state, faction, params)


def write_slip(b: Builder[KingdomsState], action: Action, dice: DiceSource) -> None:
    """``write_slip``: the slip sealed: every seat sees the commitment, the faction alone its
    slip and salt (issue 12; checked against the slip when the reveal publishes both)."""
    faction = acting_faction(b, action)
    state = b.state
    slip = slip_to_write(state, faction, WRITE_SLIP.of(action))
    content = slip.to_json()
    sealed, salt = seal(slip_choice(state.maneuver, faction.id), content, dice, only(faction.id))
    tell(
        b,
        SLIP_WRITTEN,
        {"faction": faction.id, "maneuver_number": state.maneuver, "sealed": sealed},
        secrets=(Secret("slip", content, only(faction.id)), salt),
    )


def slip_written(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`SLIP_WRITTEN`: the slip (and its salt), where the event holds it (a log read by
    another seat has neither)."""
    data: dict[str, Any] = dict(event.data)
    raw = data.get("slip")
    if not isinstance(raw, Mapping):
        return state
    slip = Slip.from_json(raw)
    salts = dict(state.salts)
    if isinstance(data.get(SALT), str):
        salts[slip.faction] = str(data[SALT])
    return evolved(state, slips={**state.slips, slip.faction: slip}, salts=salts)


FOLDS: Mapping[str, Fold] = {SLIP_WRITTEN: slip_written}
"""This section's folds, by event kind."""

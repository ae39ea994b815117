"""Attacking, Grabbing, Multiple Attackers: the roll an Attack or a Grab makes, before it is made.

Rules text (Intrigue in the Clouds), "Attacking" ("The Attacker rolls 3d6 and adds their Combat
Stat. If the total is greater than the Target's Combat Stat + 10, the attack succeeds"),
"Grabbing", "Defensive Action", "Screaming in Terror", "Multiple Attackers", "Surprise", "Doing
Damage" (a weapon's damage, else Strength) and "Mental Combat" (a mental ability in a combat).
The odds shown (:func:`rolls_of`) and the roll made
(:mod:`~referee.systems.intrigue.resolution`) are the same :class:`PlannedAttack`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.core import TargetCheck
from referee.systems.intrigue.characters import Ability, CharacterId
from referee.systems.intrigue.rules import (
    DEFENSIVE_BONUS,
    SURPRISE_BONUS,
    attack_check,
    attack_target_number,
    break_free_check,
    group_attack,
)
from referee.systems.intrigue.state import Combat, Declaration, IntrigueState

__all__ = ["PlannedAttack", "plan_attack", "rolls_of"]


@dataclass(frozen=True)
class PlannedAttack:
    """An Attack or Grab about to be rolled: who rolls, against what, and its check."""

    attackers: tuple[CharacterId, ...]
    leader: CharacterId
    target: CharacterId
    kind: str
    ability: Ability | None
    modifier: int
    target_number: int
    damage: int
    names: Mapping[CharacterId, str] = field(default_factory=dict, compare=False)
    """The badge names of the characters, by id: what the card's label says."""

    @property
    def check(self) -> TargetCheck:
        """The kernel check: 3d6 + modifier > Target Number."""
        return attack_check(self.modifier, self.target_number)

    @property
    def label(self) -> str:
        """Who does what to whom, by name: ``ScarFace+Cat attack Krockin``."""
        what = self.ability.name if self.ability is not None else self.kind
        return f"{'+'.join(map(self._name, self.attackers))} {what} {self._name(self.target)}"

    def _name(self, who: CharacterId) -> str:
        return self.names.get(who, who)

    @property
    def rule(self) -> str:
        """The section of the text the roll follows."""
        if self.ability is not None:
            return "Mental Combat"
        if len(self.attackers) > 1:
            return "Multiple Attackers"
        return "Grabbing" if self.kind == "grab" else "Attacking"

    def describe(self) -> str:
        """One line: who rolls what against what."""
        return f"{self.label}: 3d6{self.modifier:+d} > {self.target_number}"


def plan_attack(state: IntrigueState, combat: Combat, decl: Declaration) -> PlannedAttack:
    """The roll for an Attack, a Grab, a group's single roll or a mental attack ("Attacking",
    "Grabbing", "Multiple Attackers", "Mental Combat"), from the state before its place."""
    assert decl.target is not None
    target = decl.target
    defence = combat.declaration(target)
    defensive = defence is not None and defence.kind == "defend"
    scream = defence.bonus if defence is not None and defence.kind == "scream" else 0
    ability = state.character(decl.actor).ability(decl.ability) if decl.ability else None
    if ability is not None:
        mind = state.character(decl.actor).mind
        dodge = defensive and ability.can_be_dodged
        if ability.target is not None:
            # "adding his Mind Stat and subtracting three for ScarFace's dodge"
            modifier = mind - (DEFENSIVE_BONUS if dodge else 0)
            number = ability.target
        else:
            modifier = mind
            number = attack_target_number(state.character(target).mind, defensive=dodge)
        return PlannedAttack(
            (decl.actor,),
            decl.actor,
            target,
            "attack",
            ability,
            modifier,
            number,
            ability.damage,
            names=state.names(),
        )
    attackers = (decl.actor, *(m for m in decl.group if state.is_active(combat, m)))
    stats = [state.effective_combat(combat, m) for m in attackers]
    best, helpers = group_attack(stats)
    leader = attackers[stats.index(best)]
    surprise = (
        SURPRISE_BONUS
        if combat.round == 1 and combat.is_surprise and combat.starter in attackers
        else 0
    )
    number = attack_target_number(
        state.effective_combat(combat, target),
        grab=decl.kind == "grab",
        defensive=defensive,
        scream_bonus=scream,
    )
    drawn = state.status(leader).drawn
    weapon = state.character(leader).item(drawn) if drawn else None
    damage = (
        weapon.damage
        if weapon is not None and weapon.damage is not None
        else state.character(leader).strength
    )
    return PlannedAttack(
        attackers,
        leader,
        target,
        decl.kind,
        None,
        best + helpers + surprise,
        number,
        damage,
        names=state.names(),
    )


def rolls_of(
    state: IntrigueState, combat: Combat, decls: Sequence[Declaration]
) -> list[tuple[str, Any]]:
    """The rolls resolving ``decls`` makes, each described, with its check."""
    rolls: list[tuple[str, Any]] = []
    for decl in decls:
        if decl.kind in ("attack", "grab") and decl.target is not None:
            if state.is_active(combat, decl.target) and state.is_active(combat, decl.actor):
                plan = plan_attack(state, combat, decl)
                rolls.append((plan.describe(), plan.check))
        elif decl.kind == "break_free":
            holder = combat.holder_of(decl.actor)
            if holder is not None:
                check = break_free_check(
                    state.character(decl.actor).strength, state.character(holder).strength
                )
                words = f"{state.name(decl.actor)} breaks free of {state.name(holder)}"
                rolls.append((f"{words}: 3d6+Str vs 3d6+Str", check))
    return rolls

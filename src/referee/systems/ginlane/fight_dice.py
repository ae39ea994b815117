"""The simulated duel played on the same dice as the procedure, without the procedure's steps.

The simulator's default policy (:mod:`referee.systems.ginlane.simulation`) plays a Gin Lane
fight of two characters in one zone as the duel :mod:`referee.systems.ginlane.exact` solves:
the referee rolls Initiative; then on each turn the one whose turn it is Attacks the other
with the weapon in hand, tagging nothing; she defends with her best allowed skill, tagging
nothing, and takes any hit on the track ("Stress Tracks"), never a Consequence. Where the
table's fight is that duel (:func:`fight_on_dice`), each encounter is played here step by step
as the simulator would take it, drawing every 2d6 from the same dice in the same order as the
procedure does. So a seeded simulation gives the same encounters, outcome for outcome and
action for action, as the one through ``Table.act`` (``tests/sim/test_fight_dice.py`` plays
both and compares), for a small part of the cost.

What the rules read is read once, from the table, by the game's own functions: each side's
Alertness for Initiative, the attack's skill and the defence's (:func:`~.aspects.roll_spec`,
:func:`~.defence.best_skill`), the weapon's damage bonus in the zone (:func:`~.fighting.at_range`).
None of it changes as the duel goes: "Stress has no effect itself on rolls or abilities", the
spin a defence gets is a free tag nobody takes, and no Consequence is ever taken. Then:

- "Initiative": each character rolls 2d6 + Alertness, in the scene's order; a tie for the
  highest is rolled again by the tied, until one is highest; she goes first, then around the
  table (with two, the other);
- "Action: Attack": the attack (a step), then the defence (a step): the attacker's 2d6, then
  the defender's; "Resolving attacks" (:func:`~.conflict.attack_stress`): the stress is the
  margin + the damage bonus, a Match the bonus alone;
- a hit of some stress waits for its target to take it (a step) where she has a Consequence
  slot free (:func:`~.consequences.take_stress`), else it is taken at once; it lands on the
  Health track through the game's own :meth:`~.stress.StressTrack.hit` (past the end: Taken
  Out, and the fight is over);
- the turn passes after the last step of the attack; the round goes on when the order comes
  round again.

>>> from referee.core import system
>>> sword = {"weapon": "sword", "skills": {"Weapons": 2, "Alertness": 1, "Agility": 1}}
>>> table = system("ginlane").new_table(
...     {"characters": {"moll": {**sword, "side": "society"}, "jack": {**sword, "side": "bravoes"}}}
... )
>>> from referee.dice import RandomSource
>>> outcome, steps = fight_on_dice(table)(RandomSource(1), 2_000)
>>> outcome.winner in ("society", "bravoes"), outcome.extra, steps >= 2
(True, {'taken_out': 1}, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.core import RefereeError, Table, system
from referee.core.simulation import EncounterOutcome
from referee.dice import DiceSource
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane.aspects import roll_spec
from referee.systems.ginlane.defence import best_skill
from referee.systems.ginlane.fighting import at_range, attack_check
from referee.systems.ginlane.scene import Combatant, SceneState
from referee.systems.ginlane.stress import StressTrack
from referee.systems.ginlane.tables import skill as skill_entry
from referee.systems.ginlane.tables import weapon as weapon_entry

__all__ = ["Duellist", "FightOnDice", "fight_on_dice"]

HEALTH = "Health"
"""The track an attack with a weapon (or fists) marks ("Stress Tracks")."""


@dataclass(frozen=True)
class Duellist:
    """One side of the duel as the rules read it at the start: who, on which side, what is
    added to the 2d6 of her Initiative, of her attack and of the other's defence against it
    (her best allowed skill), her weapon's damage bonus, her Health track, and whether a hit
    waits for her to take it (a Consequence slot free)."""

    id: str
    side: str
    initiative: int
    attack: int
    met_by: int
    damage_bonus: int
    health: StressTrack
    asked: bool


@dataclass(frozen=True)
class FightOnDice:
    """A duel's encounters played on the dice (see the module's doc): call it with the dice and
    the most actions an encounter may take; it answers the outcome and the actions taken.
    ``a`` and ``b`` are the two in the scene's order (Initiative is rolled in it)."""

    a: Duellist
    b: Duellist

    def __call__(self, dice: DiceSource, max_steps: int) -> tuple[EncounterOutcome, int]:
        order = self._initiative(dice)
        health = {self.a.id: self.a.health, self.b.id: self.b.health}
        taken_out = ""
        steps, turn, round_ = 0, 0, 1
        while not taken_out and steps < max_steps:
            me = order[turn]
            target = order[1 - turn]
            steps += 1  # the attack, declared: it waits for her defence
            if steps == max_steps:
                break
            steps += 1  # her defence: the attacker's 2d6, then hers
            attack = dice.roll(6) + dice.roll(6) + me.attack
            defence = dice.roll(6) + dice.roll(6) + me.met_by
            stress = rules.attack_stress(attack, defence, me.damage_bonus)
            if stress > 0 and target.asked:
                if steps == max_steps:  # the hit waits for her to take it
                    break
                steps += 1  # she takes it on the track
            if stress > 0:
                health[target.id], hit = health[target.id].hit(stress)
                if hit.taken_out:
                    taken_out = target.id
                    break
            turn = 1 - turn  # the turn passes
            if turn == 0:
                round_ += 1
        return self._outcome(health, taken_out, round_), steps

    def _initiative(self, dice: DiceSource) -> tuple[Duellist, Duellist]:
        """ "Initiative": both roll, the scene's order; a tie is rolled again."""
        while True:
            a = dice.roll(6) + dice.roll(6) + self.a.initiative
            b = dice.roll(6) + dice.roll(6) + self.b.initiative
            if a != b:
                return (self.a, self.b) if a > b else (self.b, self.a)

    def _outcome(
        self, health: dict[str, StressTrack], taken_out: str, rounds: int
    ) -> EncounterOutcome:
        standing = [d.side for d in (self.a, self.b) if d.id != taken_out]
        winner = standing[0] if taken_out else "unfinished"
        damage = {d.id: sum(health[d.id].marked) for d in (self.a, self.b)}
        return EncounterOutcome(
            winner, rounds, damage, bool(taken_out), {"taken_out": 1 if taken_out else 0}
        )


def _still(c: Combatant) -> bool:
    """Nothing of hers carried from before the fight: standing, no Full defence, no Wait, no
    Block or grapple, no defence on the table, one Health track."""
    return (
        not c.taken_out
        and not c.full_defence
        and not c.waiting
        and c.block is None
        and not c.defences
        and sum(1 for t in c.tracks if t.name == HEALTH) == 1
    )


def _duellist(state: SceneState, me: Combatant, foe: Combatant) -> Duellist | None:
    """``me`` as the duel reads her (:class:`Duellist`), attacking ``foe``; ``None`` where her
    attack is not one with the weapon in hand on the Health track, at no long range, that
    the choices offer."""
    weapon = weapon_entry(me.weapon)
    skill = skill_entry(weapon.skill).name
    if skill in rules.SOCIAL_ATTACKS or attack_check(state, me, foe) is None:
        return None
    bonus, long_range = at_range(state.distance(me.zone, foe.zone), foe, weapon, skill)
    if long_range:  # the defence would take a free tag: more dice
        return None
    defence = best_skill(foe, skill, weapon.small, HEALTH)
    return Duellist(
        me.id,
        me.side,
        roll_spec(state, me, "Alertness", [], 0).bonus,
        roll_spec(state, me, skill, [], 0).bonus,
        roll_spec(state, foe, defence, [], 0).bonus,
        bonus,
        me.track(HEALTH),
        bool(me.consequences.free_severities()),
    )


def fight_on_dice(table: Table[Any]) -> FightOnDice | None:
    """The encounters of the fight the default policy plays from ``table``, played on the dice,
    where it is the duel of the module's doc: Initiative still to roll, two characters of two
    sides in one zone, each in reach of the other, nothing under way; ``None`` where it is not
    (the simulator then plays it through the procedure)."""
    if table.procedure is not system("ginlane").procedure:
        return None
    state: SceneState = table.state
    under_way = state.pending or state.hit or state.blast or state.fizzles or state.plans
    if state.order or state.over or under_way or len(state.combatants) != 2:
        return None
    a, b = state.combatants
    if a.side == b.side or a.zone != b.zone or not (_still(a) and _still(b)):
        return None
    try:
        one, other = _duellist(state, a, b), _duellist(state, b, a)
    except RefereeError:  # out of reach, a skill no one may roll
        return None
    return None if one is None or other is None else FightOnDice(one, other)

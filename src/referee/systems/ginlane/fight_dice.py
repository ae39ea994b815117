"""The simulated fight played on the same dice as the procedure, without the procedure's steps.

The simulator's default policy (:mod:`referee.systems.ginlane.simulation`) plays a Gin Lane
fight whose characters come to blows with the weapons in hand as the exact model
(:mod:`referee.systems.ginlane.exact`) reads it: the referee rolls Initiative; then on each turn
the one whose turn it is Attacks the first foe offered in her zone, tagging nothing, or, with
no foe in her zone, Moves into the zone that holds one; the foe defends with her best allowed
skill, tagging nothing, and takes any hit on the track ("Stress Tracks"), never a Consequence.
Where the table's fight is one of those (:func:`fight_on_dice`: in one zone, or in two a clear
step apart with weapons that reach no further than their own), each encounter is played here
step by step as the simulator would take it, drawing every 2d6 from the same dice in the same
order as the procedure does. So a seeded simulation gives the same encounters, outcome for
outcome and action for action, as the one through ``Table.act``
(``tests/sim/test_fight_dice.py`` plays both and compares), for a small part of the cost.

What the rules read is read once, from the table, by the game's own functions: each one's
Alertness for Initiative, each blow's skill and the defence's (:func:`~.aspects.roll_spec`,
:func:`~.defence.best_skill`), the weapon's damage bonus in the zone
(:func:`~.fighting.at_range`), the clear steps between the zones (:func:`~.zones.clear_steps`).
None of it changes as the fight goes: "Stress has no effect itself on rolls or abilities", the
spin a defence gets is a free tag nobody takes, and no Consequence is ever taken. Then:

- "Initiative": each character rolls 2d6 + Alertness, in the scene's order; a tie for the
  highest is rolled again by the tied, until one is highest; she goes first, then around the
  table;
- "Action: Attack" on the first foe in the scene's order in her zone ("Zones": you can only
  attack someone in your zone): the attack (a step), then the defence (a step): the attacker's
  2d6, then the defender's; "Resolving attacks" (:func:`~.conflict.attack_stress`): the stress
  is the margin + the damage bonus, a Match the bonus alone; or, with no foe there, a Move (a
  step, no dice: nobody holds a doorway);
- a hit of some stress waits for its target to take it (a step) where she has a Consequence
  slot free (:func:`~.consequences.take_stress`), else it is taken at once; it lands on the
  Health track through the game's own :meth:`~.stress.StressTrack.hit` (past the end: Taken
  Out; the fight is over when no more than one side stands);
- the turn passes after the last step of the action, to the next in the order not Taken Out;
  the round goes on each time the order comes round again.

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

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.core import RefereeError, Table, system
from referee.core.simulation import EncounterOutcome
from referee.dice import DiceSource
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane.aspects import roll_spec
from referee.systems.ginlane.defence import best_skill
from referee.systems.ginlane.fighting import at_range
from referee.systems.ginlane.scene import Combatant, SceneState
from referee.systems.ginlane.stress import StressTrack
from referee.systems.ginlane.tables import skill as skill_entry
from referee.systems.ginlane.tables import weapon as weapon_entry
from referee.systems.ginlane.zones import clear_steps

__all__ = ["Blow", "FightOnDice", "Fighter", "fight_on_dice"]

HEALTH = "Health"
"""The track an attack with a weapon (or fists) marks ("Stress Tracks")."""


@dataclass(frozen=True)
class Fighter:
    """One character as the fight reads her at the start: who, on which side, where, what is
    added to the 2d6 of her Initiative, her Health track, and whether a hit waits for her to
    take it (a Consequence slot free)."""

    id: str
    side: str
    zone: str
    initiative: int
    health: StressTrack
    asked: bool


@dataclass(frozen=True)
class Blow:
    """One character's attack on a foe in her zone: what is added to her 2d6, what is added to
    the 2d6 of the defence that meets it (the foe's best allowed skill), the damage bonus."""

    attack: int
    met_by: int
    damage_bonus: int


@dataclass(frozen=True)
class FightOnDice:
    """A fight's encounters played on the dice (see the module's doc): call it with the dice
    and the most actions an encounter may take; it answers the outcome and the actions taken.
    ``fighters`` in the scene's order (Initiative is rolled in it, a foe is offered in it);
    ``blows`` each attack on a foe, by (attacker, target); ``next_door`` the zone a character
    with no foe in hers moves to (the other of two)."""

    fighters: tuple[Fighter, ...]
    blows: Mapping[tuple[str, str], Blow]
    next_door: Mapping[str, str]

    def __call__(self, dice: DiceSource, max_steps: int) -> tuple[EncounterOutcome, int]:
        order = self._initiative(dice)
        who = {f.id: f for f in self.fighters}
        foes = {  # each one's foes, in the scene's order (the first in her zone is attacked)
            f.id: [g for g in self.fighters if g.side != f.side] for f in self.fighters
        }
        zone = {f.id: f.zone for f in self.fighters}
        health = {f.id: f.health for f in self.fighters}
        roll = dice.roll
        out: set[str] = set()
        over = False
        steps, turn, round_ = 0, 0, 1
        while not over and steps < max_steps:
            me = who[order[turn]]
            here = zone[me.id]
            target = None
            for f in foes[me.id]:
                if f.id not in out and zone[f.id] == here:
                    target = f
                    break
            steps += 1  # the attack, declared (it waits for her defence); or the move
            if target is None:  # no foe in reach: into the zone that holds one
                zone[me.id] = self.next_door[here]
            else:
                if steps == max_steps:
                    break
                steps += 1  # her defence: the attacker's 2d6, then hers
                blow = self.blows[me.id, target.id]
                attack = roll(6) + roll(6) + blow.attack
                defence = roll(6) + roll(6) + blow.met_by
                stress = rules.attack_stress(attack, defence, blow.damage_bonus)
                if stress > 0 and target.asked:
                    if steps == max_steps:  # the hit waits for her to take it
                        break
                    steps += 1  # she takes it on the track
                if stress > 0:
                    health[target.id], hit = health[target.id].hit(stress)
                    if hit.taken_out:
                        out.add(target.id)
                        standing = {f.side for f in self.fighters if f.id not in out}
                        over = len(standing) <= 1
            if not over:
                turn, round_ = _next_turn(order, out, turn, round_)
        return self._outcome(health, out, over, round_), steps

    def _initiative(self, dice: DiceSource) -> tuple[str, ...]:
        """ "Initiative": everyone rolls, in the scene's order; a tie for the highest is
        rolled again by the tied, until one is highest: she goes first, then around the table."""
        contenders = list(self.fighters)
        while len(contenders) > 1:
            rolls = [dice.roll(6) + dice.roll(6) + f.initiative for f in contenders]
            best = max(rolls)
            contenders = [f for f, r in zip(contenders, rolls, strict=True) if r == best]
        seats = [f.id for f in self.fighters]
        start = seats.index(contenders[0].id)
        return tuple(seats[start:] + seats[:start])

    def _outcome(
        self, health: dict[str, StressTrack], out: set[str], over: bool, rounds: int
    ) -> EncounterOutcome:
        standing = list(dict.fromkeys(f.side for f in self.fighters if f.id not in out))
        winner = (standing[0] if standing else "none") if over else "unfinished"
        damage = {f.id: sum(health[f.id].marked) for f in self.fighters}
        return EncounterOutcome(winner, rounds, damage, over, {"taken_out": len(out)})


def _next_turn(order: tuple[str, ...], out: set[str], turn: int, round_: int) -> tuple[int, int]:
    """The turn passes to the next in the order not Taken Out; the round goes on each time
    the order comes round."""
    last = len(order) - 1
    for _ in order:
        if turn < last:
            turn += 1
        else:
            turn, round_ = 0, round_ + 1
        if order[turn] not in out:
            break
    return turn, round_


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


def _blow(state: SceneState, me: Combatant, foe: Combatant) -> Blow | None:
    """``me``'s attack on ``foe`` in her zone, with the weapon in hand on the Health track;
    ``None`` where it is words, not a blow."""
    weapon = weapon_entry(me.weapon)
    skill = skill_entry(weapon.skill).name
    if skill in rules.SOCIAL_ATTACKS:
        return None
    bonus, _ = at_range(0, foe, weapon, skill)  # in one zone: never at long range
    defence = best_skill(foe, skill, weapon.small, HEALTH)
    return Blow(
        roll_spec(state, me, skill, [], 0).bonus,
        roll_spec(state, foe, defence, [], 0).bonus,
        bonus,
    )


def _next_door(state: SceneState, people: tuple[Combatant, ...]) -> dict[str, str] | None:
    """Where a character with no foe in her zone moves: all in one zone, nowhere; in two
    zones a clear step apart, each other's, where no weapon reaches past its own zone (no
    attack across the two); ``None`` otherwise."""
    zones = sorted({c.zone for c in people})
    if len(zones) == 1:
        return {}
    reach = {weapon_entry(c.weapon).range for c in people}
    if len(zones) != 2 or reach != {0}:
        return None
    here, there = zones
    if there not in clear_steps(state, here) or here not in clear_steps(state, there):
        return None
    return {here: there, there: here}


def fight_on_dice(table: Table[Any]) -> FightOnDice | None:
    """The encounters of the fight the default policy plays from ``table``, played on the dice,
    where it is the fight of the module's doc: Initiative still to roll, nothing under way,
    everyone of two sides or more in reach of every foe in her zone with a blow, in one zone or
    in two a clear step apart with weapons that reach no further; ``None`` where it is not (the
    simulator then plays it through the procedure)."""
    if table.procedure is not system("ginlane").procedure:
        return None
    state: SceneState = table.state
    people = state.combatants
    under_way = state.pending or state.hit or state.blast or state.fizzles or state.plans
    if state.order or state.over or under_way or len({c.side for c in people}) < 2:
        return None
    if not all(_still(c) for c in people):
        return None
    try:
        next_door = _next_door(state, people)
        blows = {
            (me.id, foe.id): _blow(state, me, foe)
            for me in people
            for foe in people
            if foe.side != me.side
        }
        fighters = tuple(
            Fighter(
                c.id,
                c.side,
                c.zone,
                roll_spec(state, c, "Alertness", [], 0).bonus,
                c.track(HEALTH),
                bool(c.consequences.free_severities()),
            )
            for c in people
        )
    except RefereeError:  # a skill no one may roll
        return None
    if next_door is None or any(blow is None for blow in blows.values()):
        return None
    return FightOnDice(fighters, {k: b for k, b in blows.items() if b is not None}, next_door)

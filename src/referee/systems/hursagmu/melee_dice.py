"""The simulated melee played on the same dice as the procedure, without the procedure's steps.

The simulator's default policy plays a Hursagmu melee the same way every round (the
``simulation`` module; :mod:`referee.systems.hursagmu.exact` solves the duel of it):

- **Initiative**: everyone still conscious, in the table's order, maneuvers and rolls
  Quickness, 2d6 + Dexterity + Quickness ("Initiative");
- **Action**: whoever is on turn — the highest Initiative; a tie is on turn together, and
  declares before anyone acts — declares one Striking attack on the first other character still
  conscious, then makes it. A target who has declared nothing yet "may choose to make a
  defensive action regardless of Initiative": he declares his Defense alone and rolls it
  against the attack (the attacker wins ties, RULINGS.md), and has no turn left. A target who
  has declared already (an attack, or the one defence he has used: defences count one each)
  takes the attack undefended, 2d6 + Striking against 0. A hit deals weapon + Strength + the
  damage roll (a feeble blow does none, and never heals); one left at 0 hits or less
  collapses;
- **Recovery**: the Master ends the round when nobody has a step left. It changes nothing
  here: everyone still conscious has acted (attacked, or defended), so nobody gets a hit
  back, and a blow that leaves one at 0 hits or less fells him at once, so nobody is left
  conscious to collapse from exhaustion.

It is over when no more than one character is still conscious (``Encounter``'s conflict).
Where the table is at the start of such a melee (:func:`read_melee`: a round's Initiative
phase, two characters or more, nobody down, holding, waiting, surprised, asleep, pushing,
moving or at a task, defences counted one each, every plan the default policy declares the one
above), each encounter is played
here action by action as the simulator takes it, each die drawn from the same dice in the same
order as the procedure draws it: two for each Initiative; for a defended attack the attack's
two, then the defence's two; for one undefended its two; for a hit, the damage roll's. The
numbers are the game's own, read from its rules on the table's fighters (the rolls with the
round's penalty of the plan declared, the damage base and momentum). So a seeded simulation
gives the same encounters, outcome for outcome and action for action, as the one through
``Table.act`` (``tests/sim/test_melee_dice.py`` plays both and compares), for a small part of
the cost.

>>> from referee.core import system
>>> one = {"dexterity": 2, "strength": 2, "weapon": 5, "stamina": 20,
...        "skills": {"quickness": 2, "striking": 5, "defense": 6}}
>>> table = system("hursagmu").new_table({"characters": {"bob": one, "fred": one}})
>>> from referee.dice import RandomSource
>>> outcome, steps = melee_on_dice(table)(RandomSource(1), 2_000)
>>> outcome.winner in ("bob", "fred"), steps >= 6
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.core import Table, system
from referee.core.policies import first_value
from referee.core.simulation import EncounterOutcome
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.hursagmu.initiative import initiative_check
from referee.systems.hursagmu.movement import DamageRoll, charge_momentum, damage_base
from referee.systems.hursagmu.round_plan import plan_domain
from referee.systems.hursagmu.rounds import (
    DefenceMode,
    DefenceResponse,
    defence_response,
    defence_skill,
)
from referee.systems.hursagmu.sheet import Stance
from referee.systems.hursagmu.state import Encounter, Fighter
from referee.systems.hursagmu.steps import Step

__all__ = ["MeleeOnDice", "melee_on_dice"]

SKILL = "striking"
"""The attack the default policy declares: the first of a maneuvering fighter's skills."""
DAMAGE_DICE = {"2d6": 2, "1d6": 1}
"""The damage roll's d6s (RULINGS.md: 2d6, option 1d6)."""


@dataclass(frozen=True)
class Melee:
    """A melee as the default policy fights it, read from the table (:func:`read_melee`): each
    character's name, hits, Initiative's bonus, Striking with one attack declared, Defense with
    the defence declared alone, and damage less the roll; the damage roll's d6s."""

    names: tuple[str, ...]
    hits: tuple[int, ...]
    quickness: tuple[int, ...]
    striking: tuple[int, ...]
    defense: tuple[int, ...]
    damage: tuple[int, ...]
    damage_dice: int


class _Cut(Exception):
    """The encounter reached its most actions."""


class _Over(Exception):
    """No more than one character is still conscious."""


@dataclass(frozen=True)
class MeleeOnDice:
    """A melee's encounters played on the dice (see the module's doc): call it with the dice
    and the most actions an encounter may take; it answers the outcome and the actions taken."""

    melee: Melee

    def __call__(self, dice: DiceSource, max_steps: int) -> tuple[EncounterOutcome, int]:
        m = self.melee
        hits = list(m.hits)
        up = [True] * len(hits)
        played = _Played(dice, max_steps)
        rounds = 1
        try:
            while True:
                self._round(played, hits, up)
                rounds += 1  # the round ended: the next one is begun
                if sum(up) <= 1:
                    break
        except _Over:  # (no more than one still conscious, mid-round)
            return self._outcome(hits, up, rounds, over=True), played.steps
        except _Cut:
            return self._outcome(hits, up, rounds, over=False), played.steps
        return self._outcome(hits, up, rounds, over=True), played.steps

    def _round(self, played: _Played, hits: list[int], up: list[bool]) -> None:
        """One round, to the Master's end of it (:class:`_Over` where someone's fall ends the
        melee within it)."""
        m = self.melee
        roll = played.dice.roll
        everyone = range(len(hits))
        initiative = [0] * len(hits)
        for i in everyone:  # "Initiative": in the table's order, everyone still conscious
            if up[i]:
                played.step()
                initiative[i] = roll(6) + roll(6) + m.quickness[i]
        plan: list[str | None] = [None] * len(hits)  # "attack", "done" or "defend"
        target = [0] * len(hits)
        while True:
            turns = [i for i in everyone if up[i] and plan[i] in (None, "attack")]
            if not turns:
                break
            top = max(initiative[i] for i in turns)
            on_turn = [i for i in turns if initiative[i] == top]
            declaring = [i for i in on_turn if plan[i] is None]
            played.step()
            if declaring:  # a tie declares before anyone acts
                i = declaring[0]
                plan[i] = "attack"
                target[i] = next(t for t in everyone if t != i and up[t])
                continue
            i = on_turn[0]
            t = target[i]
            plan[i] = "done"
            if up[t] and plan[t] is None:  # he defends: his Defense declared alone
                played.step()
                plan[t] = "defend"
                mine = roll(6) + roll(6) + m.striking[i]
                hit = mine >= roll(6) + roll(6) + m.defense[t]
            else:  # declared already (or down): taken undefended, against 0
                hit = roll(6) + roll(6) + m.striking[i] >= 0
            if hit:
                amount = m.damage[i] + sum(roll(6) for _ in range(m.damage_dice))
                amount = max(0, amount)  # a feeble blow does no damage; it never heals
                left = hits[t] - amount
                if left <= 0 < hits[t]:
                    up[t] = False
                hits[t] = left
                if sum(up) <= 1:
                    raise _Over
        played.step()  # the Master ends the round: Recovery, which changes nothing here

    def _outcome(
        self, hits: list[int], up: list[bool], rounds: int, over: bool
    ) -> EncounterOutcome:
        m = self.melee
        standing = [who for who, ok in zip(m.names, up, strict=True) if ok]
        winner = (standing[0] if len(standing) == 1 else "none") if over else "unfinished"
        damage = {
            who: max(0, before - after)
            for who, before, after in zip(m.names, m.hits, hits, strict=True)
        }
        return EncounterOutcome(winner, rounds, damage, over)


class _Played:
    """The dice, and the actions taken so far against the most allowed."""

    def __init__(self, dice: DiceSource, max_steps: int) -> None:
        self.dice = dice
        self.max_steps = max_steps
        self.steps = 0

    def step(self) -> None:
        """One more action, if the encounter may take it."""
        if self.steps >= self.max_steps:
            raise _Cut
        self.steps += 1


# -- reading the melee from the table ------------------------------------------------------


def _fresh(f: Fighter) -> bool:
    """True if ``f`` is conscious at a round's start with nothing carried over that changes
    what the default policy's round does: nothing held, waited, surprised, pushed, moved, no
    task, not asleep."""
    return (
        f.conscious
        and f.hits > 0
        and f.stance is None
        and f.initiative is None
        and f.rank == 0
        and f.plan is None
        and f.next_step == 0
        and f.defences_used == 0
        and not (f.acted or f.injured or f.waiting or f.holding or f.held_over)
        and not (f.waited_game or f.surprised or f.asleep)
        and f.pushed == 0
        and f.yards_moved == 0
        and f.task is None
        and f.task_rounds == 0
        and not f.task_engrossing
    )


def _declared(state: Encounter, who: str, **domain: Any) -> Any:
    """The plan the default policy declares for ``who`` (the first of the game's domain)."""
    return first_value(plan_domain(state, who, **domain))


def read_melee(table: Table[Any]) -> Melee | None:
    """The melee of the module's doc from ``table``, its numbers the game's own; ``None``
    where the table is not at the start of one."""
    if table.procedure is not system("hursagmu").procedure:
        return None
    state: Encounter = table.state
    fighters = state.fighters
    options = state.options
    if (
        len(fighters) < 2
        or state.phase != "initiative"
        or state.round < 1
        or state.pending is not None
        or state.clock is not None
        or options.defence is not DefenceMode.EACH
        or options.damage_roll not in DAMAGE_DICE
        or not all(_fresh(f) for f in fighters.values())
    ):
        return None
    mode = options.defence
    names = tuple(fighters)
    # the round as it stands once everyone has rolled: each one's plan is read from there
    rolled = evolved(
        state,
        fighters={w: evolved(f, stance=Stance.MANEUVER, initiative=0) for w, f in fighters.items()},
        phase="action",
        started=True,
    )
    needed = defence_skill(SKILL)
    if defence_response(Stance.MANEUVER, SKILL) is not DefenceResponse.DEFEND:
        return None
    striking, defense, damage, quickness = [], [], [], []
    for who in names:
        f = rolled.fighters[who]
        first_foe = next(w for w in names if w != who)
        if _declared(rolled, who) != [{"attack": first_foe, "skill": SKILL}]:
            return None
        if _declared(rolled, who, defence=needed) != [{"defend": needed}]:
            return None
        attack = evolved(f, plan=(Step.attack(first_foe, SKILL),))
        if attack.scheduled(mode)[0].initiative != f.initiative:
            return None
        striking.append(attack.roll_of(SKILL, mode).bonus)
        defence = evolved(f, plan=(Step.defend(needed),))
        defense.append(defence.roll_of(needed, mode).bonus)
        momentum = 0
        if options.charge_momentum and f.sheet.weapon_type == "melee":
            momentum = charge_momentum(0) + charge_momentum(0)  # nobody moves
        roll = DamageRoll(damage_base(f.sheet.weapon, f.strength), momentum, options.damage_roll)
        damage.append(roll.base + roll.momentum)
        quickness.append(initiative_check(state, who, Stance.MANEUVER)[0].bonus)
    return Melee(
        names,
        tuple(f.hits for f in fighters.values()),
        tuple(quickness),
        tuple(striking),
        tuple(defense),
        tuple(damage),
        DAMAGE_DICE[options.damage_roll],
    )


def melee_on_dice(table: Table[Any]) -> MeleeOnDice | None:
    """The encounters of the melee at ``table`` played on the dice, where it is the melee of
    the module's doc; ``None`` where it is not (the simulator then plays it through the
    procedure)."""
    melee = read_melee(table)
    return None if melee is None else MeleeOnDice(melee)

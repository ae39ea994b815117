"""Hursagmu: a melee's exact odds, round by round, to its end (docs/simulate.md).

Rules text (hursagmu-encounters.txt): "Conflict" (the round and its three phases),
"Initiative", "Action" (declared actions, attack and defence), "Recovery"; RULINGS.md: the
core roll (2d6 + attribute + skill, the acting side wins ties) and the damage roll.

The melee is the one the simulation's default policy plays (its ``simulation`` module):
everyone maneuvers; whoever is on turn declares an attack on the first foe still up and makes
it; whoever is attacked before declaring anything defends, declaring that defence alone; the
Master ends the round when nobody has a step left. No transition is written here: each step is
the policy's action, decided and folded by the game's own procedure as ``Table.act`` does.

**Round by round.** "Recovery" ends a round, and its fold (``recovery.fold_round_ended``)
rebuilds every character from hits, consciousness, the Master's conditions, a held action, the
waiting game, a multi-round task and posture alone: the round's stances, Initiatives, declared
plans, defences used, pushed power, movement, the attack pending and the clock are gone. What
else the new round keeps is its number, which the rules read only as "round zero" and "the
first round, not yet begun" (``round == 0``, ``round != 1``, ``started``; ``elapsed_seconds``
is for people). So the state at a round's start, its number read as the rules read it, is a
**canonical round**, and the melee is a Markov chain over them: each is played once, to the
end of its round, and the chain is solved exactly (:func:`duel_odds`) — a round in which
nobody is hurt comes back to itself, and that loop is divided out, never unrolled.

**Within a round** the state is kept whole (:func:`canonical`) but for two things:

- the round's number, as above;
- the Initiatives, once everyone up has rolled. From then on the rules only compare them:
  who is on turn (``state.on_turn``: the highest (rank, Initiative) of each next step), the
  clock (``action_phase._tick``) and a Haste declared after the clock passed it; and the
  default policy's plans (the first of ``round_plan.plan_domain``: one attack, at his own
  Initiative, or a defence alone) add no step at another one. So each (rank, Initiative) —
  everyone's, their declared steps' and the clock's — is replaced by its place in their order,
  ties kept. Before everyone has rolled the totals are kept: the rolls to come are compared
  with them.

The sheets and the Master's options are left out: no fold changes them.

**Dice.** Each action is taken with every face of every die it asks for, and the states merged
where their keys agree — faces are never merged before the dice after them are known (an
Initiative's first die says nothing until the second is rolled) —, but for one roll, the
attack's (``attack.resolved``). An attack reaches the state only through whether it hit
(``combat.fold_attack_resolved`` reads whether it was defended; ``combat.resolve`` rolls the
damage from the attacker's weapon and Strength, never from the attack's faces), so its chance
is the game's own — the event's ``odds``, the exact odds of the check it rolled — and it is
forced once each way, from the extreme faces of its dice, before every face of the damage roll
after a hit.

**Replayed.** No roll reads the hits (Initiative, attack and damage are rolled from the sheets,
the round's penalties and pushed power; the hits are only what the damage is taken from), nor
does the default policy's choice (``choices.py``: only Pushing Power's domain does, and the
melee does not push). So the action chosen in a state, and the faces of each of its branches
with its chance, are remembered by the state less its hits; from another state that differs
only there, the action is taken once with each branch's faces — through the procedure, so a
blow that fells one character and not another falls as the game says — rather than with every
face again. A branch whose faces ask for other dice there is enumerated afresh.

**Hits moved.** Taking each branch again is not needed either where the hits cannot change what
it does: the procedure reads them only against 0 (``combat.resolve``: a blow that leaves 0 or
less fells him; ``recovery.decide_end_round``: 0 or less at the round's end fells him) and
against his Stamina (a hit back at the round's end only below it). So each branch keeps the
values it took each character's hits through, and from a state less the same hits, whose hits
are on the same sides of 0 and of Stamina, a branch with the same faces is the state it led
to with the hits moved (:func:`.exact_states.shifted`), where every value moved stays on the
same sides; otherwise it is taken again, and kept by its faces (up to :data:`LIKES` for each:
a branch moved covers no hits its own does not). Bob against Fred: 1,062 procedure steps, not
23,762; Bob attacking and defending: 1,093, not 2,115.

**Numbers.** The solver numbers each state once by its key — the state less its hits by its
number, and the hits apart (``StateKeys(numbered=True)``; a plan or an attack pending is a
number in it too), so a key hashes at once and a branch moved takes its key without a copy —
and works out once whether it ends the melee, whether a round starts at it, and its step, the
branches' chances as whole numbers over one denominator. A round is played over the numbers,
and keeps its answer as whole numbers (``RoundStep.whole``) for the chain run forward and
solved (:mod:`.exact_rounds`): fractions only where a round ends, and once a round solved.

``tests/sim/test_exact_hursagmu.py`` checks the attack's odds and the replay against every
face of every die through the procedure, the key against the whole state, the hits moved
against the branches taken again, and the answer against the seeded simulation;
``tests/sim/test_exact_hursagmu_numbers.py`` the numbered key against the canonical key and a
round's whole numbers against its fractions.

>>> from referee.core import system
>>> one = {"dexterity": 2, "strength": 2, "weapon": 5, "stamina": 4,
...        "skills": {"quickness": 2, "striking": 5, "defense": 6}}
>>> table = system("hursagmu").new_table({"characters": {"bob": one, "fred": one}})
>>> odds = duel_odds(table, rounds=1)
>>> sum(odds.wins.values()) + odds.unfinished == 1
True
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import gcd, lcm
from typing import Any

from referee.core import Action, RefereeError, Table, system
from referee.core.markov import collector_paused
from referee.core.policies import default_taken
from referee.core.simulation import SimulatedConflict, conflict_of
from referee.systems.hursagmu.exact_rounds import RoundStep, absorb, forward
from referee.systems.hursagmu.exact_states import (
    BY_ROUND,
    MAX_STEPS,
    Branch,
    Like,
    MeleeError,
    StateKey,
    StateKeys,
    Work,
    action_branches,
    canonical,
    is_round_start,
    like,
    replay_branches,
    sides,
    whole,
)

__all__ = [
    "MeleeError",
    "MeleeOdds",
    "RoundStep",
    "canonical",
    "duel_odds",
    "round_odds",
    "whole",
]

# -- a round ------------------------------------------------------------------------------


LIKES = 16
"""The most branches kept for a state less its hits, on the same sides of 0 and of Stamina, and
their faces (each moved as far as it may be: a blow that fells a character and one that does
not are two)."""


class _OutOfTime(Exception):
    pass


_Known = tuple[Action, tuple[Branch, ...]] | None
_Step = tuple[int, list[tuple[int, int]]]
"""A state's branches as whole numbers over one denominator: that denominator, and each
branch's state (its number, :meth:`_Solver.number`) and number."""


@dataclass
class _Solver:
    """The melee's states, each numbered once by its key (:meth:`number`) and worked out once:
    whether it ends the melee (and who wins), whether it is a round's start, and the default
    policy's step from it, its branches over one denominator. A round is then played over the
    states' numbers alone, whole numbers over one denominator, made fractions where it ends."""

    conflict: SimulatedConflict
    key: StateKey
    deadline: float | None = None
    replay: bool = True
    shift: bool = True
    count: Work = field(default_factory=Work)
    numbers: dict[Hashable, int] = field(default_factory=dict)
    names: list[Hashable] = field(default_factory=list)
    """Each state's key, by its number."""
    states: list[Any] = field(default_factory=list)
    """Each state, by its number: the first found with its key."""
    tables: dict[int, Table[Any]] = field(default_factory=dict)
    nodes: list[tuple[str | None, bool] | None] = field(default_factory=list)
    """Each state's winner (``None`` while the melee goes on) and whether a round starts at it,
    by its number (``None`` until worked out)."""
    steps: dict[int, _Step | None] = field(default_factory=dict)
    known: dict[Hashable, _Known] = field(default_factory=dict)
    near: dict[Hashable, dict[tuple[int, ...], list[Like]]] = field(default_factory=dict)
    """Branches of an action from a state less its hits, by their faces (at most
    :data:`LIKES` for each), kept by the state less its hits and which side of 0 and of his
    Stamina each character's hits are on: from a state on the same sides, a branch is the
    state one of them led to, its hits moved, where that may be
    (:func:`.exact_states.shifted`)."""
    over: dict[Hashable, bool] = field(default_factory=dict)
    won: dict[Hashable, str] = field(default_factory=dict)
    keys: StateKeys = field(default_factory=StateKeys)

    def __post_init__(self) -> None:
        if self.key is canonical:  # the same key, remembering the plans' Initiatives
            self.key = self.keys.canonical

    def number(self, k: Hashable, state: Any) -> int:
        """The number of the state keyed ``k`` (``state``, if it is the first with that key)."""
        i = self.numbers.get(k)
        if i is None:
            i = self.numbers[k] = len(self.names)
            self.names.append(k)
            self.states.append(state)
            self.nodes.append(None)
        return i

    def table(self, i: int, begin: Table[Any]) -> Table[Any]:
        """A table in state ``i``: ``begin``'s, with that state (made once)."""
        made = self.tables.get(i)
        if made is None:
            state = self.states[i]
            made = self.tables[i] = begin if begin.state is state else replace(begin, state=state)
        return made

    def node(self, i: int, begin: Table[Any]) -> tuple[str | None, bool]:
        """Who wins if state ``i`` ends the melee (``None`` if it goes on), and whether a round
        starts at it (worked out once)."""
        found = self.nodes[i]
        if found is None:
            state = self.states[i]
            up = tuple(f.conscious for f in state.fighters.values())
            if self.is_over(begin, i, up):
                found = (self.winner(begin, i, up), is_round_start(state))
            else:
                found = (None, is_round_start(state))
            self.nodes[i] = found
        return found

    def step(self, i: int, begin: Table[Any]) -> _Step | None:
        """The default policy's next action from state ``i``, its branches over one
        denominator (``None`` if nobody has a choice). The action and the faces of its
        branches are remembered by the state less its hits: from another state that differs
        only there, the same action is taken with those faces alone (see the module's doc)."""
        if i in self.steps:
            return self.steps[i]
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _OutOfTime
        k, state = self.names[i], self.states[i]
        keyed = self.key == self.keys.canonical  # the key's own hits: read from it
        mine = self.keys.less_hits(k) if keyed else self.keys.hitless(state)
        likes = self.near.setdefault((mine, sides(state)), {}) if self.shift else {}
        found: dict[Hashable, Branch] | None = None
        ran: list[tuple[int, ...]] | None = [] if self.shift else None
        taken = Work()
        if self.replay and mine in self.known:
            known = self.known[mine]
            if known is None:
                self.steps[i] = None
                return None
            try:
                found = replay_branches(
                    state,
                    lambda: self.table(i, begin),
                    known[0],
                    known[1],
                    self.key,
                    taken,
                    likes,
                    self.keys.moved if keyed else None,
                    self.have,
                    ran,
                )
            except MeleeError:
                raise
            except RefereeError:
                found = None
            finally:
                self.count.acts += taken.acts
        if found is None:
            action, found = self._choose(self.table(i, begin))
            if action is None or found is None:
                self.known[mine] = None
            else:
                self.known[mine] = (action, tuple(found.values()))
                ran = None if ran is None else [b.faces for b in found.values()]
        if found is not None and ran:  # what was taken again kept to be moved
            fresh = set(ran)
            for k2, b in found.items():
                if b.trail and b.faces in fresh:
                    kept = likes.setdefault(b.faces, [])
                    if len(kept) < LIKES:
                        kept.append(like(k2, b))
        if found is None:
            self.steps[i] = None
            return None
        below = lcm(*(b.chance.denominator for b in found.values()))
        made = self.steps[i] = (
            below,
            [
                (self.number(k2, b.state), b.chance.numerator * (below // b.chance.denominator))
                for k2, b in found.items()
            ],
        )
        return made

    def have(self, k: Hashable) -> Any:
        """The state keyed ``k``, if one is numbered (else ``None``)."""
        i = self.numbers.get(k)
        return None if i is None else self.states[i]

    def _choose(self, table: Table[Any]) -> tuple[Action | None, dict[Hashable, Branch] | None]:
        """The default policy's action, as the simulator's ``play`` takes it: a
        choice the game refuses is dropped and the policy chooses again."""
        taken = default_taken(
            table,
            self.conflict,
            lambda action: action_branches(table, action, self.key, self.count),
            own=MeleeError,
        )
        return (None, None) if taken is None else taken

    def is_over(self, begin: Table[Any], i: int, up: tuple[bool, ...]) -> bool:
        """The conflict's own test, remembered by who is conscious (``up``): all it reads
        (``conflicts._hursagmu_over``, the game's ``conflict``: who is still conscious)."""
        if up not in self.over:
            self.over[up] = self.conflict.is_over(begin, self.table(i, begin))
        return self.over[up]

    def winner(self, begin: Table[Any], i: int, up: tuple[bool, ...]) -> str:
        """The conflict's own winner, remembered by who is conscious (``up``): all it reads
        (``conflicts._hursagmu_outcome``, the game's ``conflict``: the one still conscious)."""
        if up not in self.won:
            self.won[up] = self.conflict.outcome(begin, self.table(i, begin)).winner
        return self.won[up]

    def round(self, begin: Table[Any]) -> RoundStep:
        """Play the round from ``begin`` (a round's start, or a table within one) to its end.
        The chances within it are whole numbers over one denominator, the product of those of
        the actions taken (each state's branches over theirs, :meth:`step`), made fractions
        only where the round ends (exact, and far quicker than a fraction each)."""
        frontier = {self.number(self.key(begin.state), begin.state): 1}
        over = 1
        ends: dict[tuple[str, int], int] = {}
        nxt: dict[int, int] = {}
        never = 0
        nodes, steps = self.nodes, self.steps
        # up to MAX_STEPS actions, then a look at where the last led: every state ended
        for taken in range(MAX_STEPS + 2):
            if not frontier:
                g = gcd(over, never, *ends.values(), *nxt.values())
                over, never = over // g, never // g
                ends = {where: n // g for where, n in ends.items()}
                nxt = {i: n // g for i, n in nxt.items()}
                return RoundStep(
                    {where: Fraction(n, over) for where, n in ends.items()},
                    {i: (Fraction(n, over), self.table(i, begin)) for i, n in nxt.items()},
                    Fraction(never, over),
                    (
                        over,
                        [(w, adds, n) for (w, adds), n in ends.items()],
                        list(nxt.items()),
                        never,
                    ),
                )
            going: list[tuple[int, _Step]] = []
            for i, n in frontier.items():
                winner, starts = nodes[i] or self.node(i, begin)
                begun = starts and taken > 0  # the next round's start
                if winner is not None:
                    where = (winner, 2 if begun else 1)
                    ends[where] = ends.get(where, 0) + n
                elif begun:
                    nxt[i] = nxt.get(i, 0) + n
                else:
                    step = steps[i] if i in steps else self.step(i, begin)
                    if step is None:
                        never += n
                    else:
                        going.append((n, step))
            common = lcm(*(below for _, (below, _) in going))
            if common != 1:  # what has ended so far, over the new denominator
                over *= common
                never *= common
                ends = {where: n * common for where, n in ends.items()}
                nxt = {i: n * common for i, n in nxt.items()}
            grown: dict[int, int] = {}
            for n, (below, moves) in going:
                n *= common // below
                for i2, m in moves:
                    grown[i2] = grown.get(i2, 0) + n * m
            frontier = grown
        raise MeleeError(f"a round still going after {MAX_STEPS:,} actions")


# -- the melee ----------------------------------------------------------------------------


@dataclass(frozen=True)
class MeleeOdds:
    """The exact answer. ``wins``: each winner's chance, as the conflict's outcome names it
    (a character, or ``"none"`` if everyone is down), to the end or within ``horizon`` rounds;
    ``unfinished``: the chance it is still going after ``horizon`` rounds (to the end: the
    chance it never ends); ``by_round[r - 1]``: the chance it ends in round ``r``;
    ``expected_rounds`` (``None`` within a horizon, or if it may never end). ``rounds``: the
    canonical rounds played; ``states``: the canonical states expanded within them; ``acts``:
    the actions the procedure took; ``seconds``: how long it took."""

    wins: Mapping[str, Fraction]
    by_round: tuple[Fraction, ...]
    unfinished: Fraction
    expected_rounds: Fraction | None
    horizon: int | None
    rounds: int
    states: int
    acts: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """Every probability as a fraction string and a float (``referee simulate --json``,
        the web table's answer)."""

        def both(p: Fraction) -> dict[str, Any]:
            return {"exact": str(p), "value": float(p)}

        expected = self.expected_rounds
        return {
            "exact": True,
            "model": "hursagmu melee",
            "wins": {w: both(p) for w, p in sorted(self.wins.items())},
            "by_round": [both(p) for p in self.by_round],
            "unfinished": both(self.unfinished),
            "horizon": self.horizon,
            "expected_rounds": None if expected is None else both(expected),
            "rounds": self.rounds,
            "states": self.states,
            "procedure_steps": self.acts,
        }


FIGHTERS = 2
"""The most characters a melee solved exactly may have (docs/simulate.md)."""


def duel_odds(
    table: Table[Any],
    seat: str | None = None,
    *,
    rounds: int | None = None,
    time_limit: float | None = None,
    key: StateKey = canonical,
    replay: bool = True,
    shift: bool = True,
) -> MeleeOdds:
    """The exact odds of the melee the default policy plays from ``table`` (see the module's
    doc): to its end, or (``rounds``) within that many rounds. Past ``time_limit`` seconds the
    answer is that of as many rounds as were played out by then, what is still going
    ``unfinished`` (refused if not even the first was). ``seat`` is taken for the answer's
    sake: nobody starts a Hursagmu melee. ``key``, ``replay`` and ``shift``: the canonical
    key, whether actions are replayed from a state less its hits, and whether a replayed
    branch is one taken before with the hits moved (the tests check each against finer
    ways)."""
    del seat
    with collector_paused():  # the solver's states let go within it, the answer kept
        return _duel_odds(table, rounds, time_limit, key, replay, shift)


def _duel_odds(
    table: Table[Any],
    rounds: int | None,
    time_limit: float | None,
    key: StateKey,
    replay: bool,
    shift: bool,
) -> MeleeOdds:
    """:func:`duel_odds`'s work, its collector paused."""
    if table.procedure is not system("hursagmu").procedure:
        raise MeleeError(f"a melee is a Hursagmu conflict, not {table.system}")
    if rounds is not None and rounds < 1:
        raise MeleeError(f"rounds must be at least 1, not {rounds}")
    fighters = table.procedure.characters(table.state)
    if len(fighters) > FIGHTERS:
        # measured: a third character (the thief, the sleeper and the guard) does not finish
        # its first rounds in 60 s; refused at once, not after the time allowed
        raise MeleeError(
            f"the exact model is a duel of {FIGHTERS} characters; this melee has "
            f"{len(fighters)} ({', '.join(fighters)}): estimates only"
        )
    began = time.monotonic()
    deadline = None if time_limit is None else began + time_limit
    solver = _Solver(conflict_of(table), key, deadline, replay, shift)
    first = solver.number(solver.key(table.state), table.state)
    plays: dict[Hashable, RoundStep] = {}
    level: dict[Hashable, Table[Any]] = {first: table}
    played = 0  # rounds every canonical round of which has been played
    try:
        while level and (rounds is None or played < rounds):
            found: dict[Hashable, Table[Any]] = {}
            for k, t in level.items():
                plays[k] = solver.round(t)
                found.update((k2, t2) for k2, (_, t2) in plays[k].next.items())
            level = {k: t for k, t in found.items() if k not in plays}
            played += 1
    except _OutOfTime:
        if played == 0:
            raise MeleeError(
                f"the first round is not played out in {time_limit:g} s: too large to solve "
                "exactly within the time given"
            ) from None
        rounds = played
    horizon = rounds if rounds is not None else BY_ROUND
    wins, by_round, unfinished = forward(first, plays, horizon)
    expected: Fraction | None = None
    if rounds is None:
        wins, expected, unfinished = absorb(first, plays)
    return MeleeOdds(
        wins,
        tuple(by_round),
        unfinished,
        expected,
        rounds,
        len(plays),
        len(solver.steps),
        solver.count.acts,
        time.monotonic() - began,
    )


def round_odds(
    table: Table[Any], key: StateKey = canonical, replay: bool = True, shift: bool = True
) -> RoundStep:
    """The round from ``table`` (its start, or a table within it) played to its end by the
    default policy, exactly: how it may end the melee, and the rounds it may lead to."""
    if table.procedure is not system("hursagmu").procedure:
        raise MeleeError(f"a melee is a Hursagmu conflict, not {table.system}")
    return _Solver(conflict_of(table), key, replay=replay, shift=shift).round(table)

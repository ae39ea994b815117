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

``tests/sim/test_exact_hursagmu.py`` checks the attack's odds and the replay against every
face of every die through the procedure, the key against the whole state, and the answer
against the seeded simulation.

>>> from referee.core import system
>>> one = {"dexterity": 2, "strength": 2, "weapon": 5, "stamina": 4,
...        "skills": {"quickness": 2, "striking": 5, "defense": 6}}
>>> table = system("hursagmu").new_table({"characters": {"bob": one, "fred": one}})
>>> odds = duel_odds(table, rounds=1)
>>> sum(odds.wins.values()) + odds.unfinished == 1
True
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from referee.core import Action, Event, RefereeError, Table, system
from referee.core.markov import ChainError
from referee.core.policies import default_taken
from referee.core.simulation import SimulatedConflict, conflict_of

__all__ = [
    "MeleeError",
    "MeleeOdds",
    "RoundStep",
    "canonical",
    "duel_odds",
    "round_odds",
    "whole",
]

RULE = "Whole-encounter odds (Hursagmu melee)"
ZERO = Fraction(0)
ONE = Fraction(1)
MAX_STEPS = 2_000
"""Actions one round may take before it is refused (the simulation's limit for a whole one)."""
BY_ROUND = 10
"""Rounds for which a whole melee's answer gives the chance it ends in each."""
ATTACK = "attack.resolved"
"""An attack's roll ("Action"): its chance read from the event's odds, its faces forced."""

StateKey = Callable[[Any], Hashable]
"""A key of the game's state (:func:`canonical`'s, or a finer one for the tests)."""


class MeleeError(ChainError):
    """The table's melee cannot be solved exactly (the reason says why)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason, RULE)


# -- keys ---------------------------------------------------------------------------------


def whole(state: Any) -> Hashable:
    """The game's whole state: two states merge only where everything is equal."""
    return repr(state)


def _round_number(state: Any) -> Any:
    """The round's number as the rules read it ("Round Zero": ``round == 0``, ``round != 1``,
    ``started``): round zero, the first round not yet begun, or a round under way."""
    if state.round == 0 or not state.started:
        return state.round
    return "begun"


_STEPS: dict[Hashable, tuple[int | None, ...]] = {}
"""Declared steps' Initiatives, remembered by all ``Fighter.scheduled`` reads."""


def _steps(f: Any, mode: Any) -> tuple[int | None, ...]:
    """The Initiative of each step ``f`` declared (``Fighter.scheduled``: the plan, the
    round's Initiative, and the rate and mount his sheet gives)."""
    if f.plan is None:
        return ()
    sheet = f.sheet
    k = (f.plan, f.initiative, mode, sheet.max_lift, sheet.load, sheet.mount)
    found = _STEPS.get(k)
    if found is None:
        if len(_STEPS) >= 4096:
            _STEPS.clear()
        found = _STEPS[k] = tuple(s.initiative for s in f.scheduled(mode))
    return found


def _order(state: Any) -> dict[tuple[int, int], int] | None:
    """Each (rank, Initiative) the round may compare — everyone's, their declared steps' and
    the clock — by its place in their order; ``None`` until everyone up has rolled."""
    fighters = state.fighters.values()
    if state.phase != "action" or any(f.conscious and f.initiative is None for f in fighters):
        return None
    mode = state.options.defence
    seen: set[tuple[int, int]] = set()
    for f in fighters:
        if f.initiative is None:
            continue
        seen.add((f.rank, f.initiative))
        seen.update((f.rank, i) for i in _steps(f, mode) if i is not None)
    if state.clock is not None:
        seen.add(tuple(state.clock))
    return {value: place for place, value in enumerate(sorted(seen))}


def _fighter(f: Any, order: Mapping[tuple[int, int], int] | None, mode: Any, hits: bool) -> Any:
    """A character's part of a key: everything but the sheet; the Initiatives as places in
    ``order`` where it is given; the hits unless ``hits`` is false."""
    initiative: Any = f.initiative
    if order is not None and f.initiative is not None:
        initiative = (
            order[(f.rank, f.initiative)],
            tuple(None if i is None else order[(f.rank, i)] for i in _steps(f, mode)),
        )
    return (
        f.hits if hits else None,
        f.conscious,
        f.health_ok,
        f.sanity_ok,
        f.stance,
        f.rank,
        initiative,
        f.plan,
        f.next_step,
        f.defences_used,
        f.acted,
        f.injured,
        f.waiting,
        f.holding,
        f.held_over,
        f.waited_game,
        f.surprised,
        f.pushed,
        f.yards_moved,
        f.task,
        f.task_rounds,
        f.task_engrossing,
        f.asleep,
        f.prone,
        f.mounted,
    )


def _key(state: Any, *, ordered: bool, hits: bool = True) -> Hashable:
    order = _order(state) if ordered else None
    mode = state.options.defence
    clock: Any = state.clock
    if order is not None and clock is not None:
        clock = order[tuple(clock)]
    return (
        _round_number(state),
        state.phase,
        state.started,
        state.round_zero,
        state.pending,
        clock,
        tuple((who, _fighter(f, order, mode, hits)) for who, f in state.fighters.items()),
    )


def canonical(state: Any) -> Hashable:
    """The melee's canonical state (see the module's doc): everything the rules read, the
    round's number as they read it and, once everyone has rolled, the Initiatives' order."""
    return _key(state, ordered=True)


def _hitless(state: Any) -> Hashable:
    """:func:`canonical` less the hits: what the default policy's choice, and the faces of each
    branch of the action it chooses, are remembered by (see the module's doc)."""
    return _key(state, ordered=True, hits=False)


def _is_round_start(state: Any) -> bool:
    """True at a round's Initiative phase, before anyone has rolled."""
    return state.phase == "initiative" and all(
        f.initiative is None for f in state.fighters.values()
    )


# -- dice ---------------------------------------------------------------------------------


class _Need(Exception):
    """The faces given ran out: the action asks for a die of ``sides`` faces."""

    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class _Faces:
    """The faces given; after them (``fill``) faces counting up, else a :class:`_Need`. Every
    die asked for is noted: its sides (``asked``) and its face (``shown``)."""

    def __init__(self, faces: Sequence[int], fill: bool) -> None:
        self.faces, self.fill = faces, fill
        self.asked: list[int] = []
        self.shown: list[int] = []

    def roll(self, sides: int) -> int:
        n = len(self.asked)
        if n < len(self.faces):
            face = self.faces[n]
        elif self.fill:
            face = n % sides + 1
        else:
            raise _Need(sides)
        self.asked.append(sides)
        self.shown.append(face)
        return face


@dataclass(frozen=True)
class _Run:
    """One taking of an action: the state it leads to, its events, the dice it asked for."""

    state: Any
    events: tuple[Event, ...]
    asked: tuple[int, ...]
    shown: tuple[int, ...]


@dataclass
class _Count:
    acts: int = 0


class _Act:
    """``action`` at ``table`` as ``Table.act`` takes it — its parameters parsed by the
    catalogue, then the game's ``decide`` and ``evolve`` — with the faces given."""

    def __init__(self, table: Table[Any], action: Action, count: _Count) -> None:
        spec = table.spec(action.kind)
        args, params = (None, action.params) if spec is None else spec.normalise(action.params)
        self.taken = Action(action.actor, action.kind, params, at=table.now, args=args)
        self.procedure = table.procedure
        self.state = table.state
        self.count = count

    def run(self, faces: Sequence[int], fill: bool = True) -> _Run:
        source = _Faces(faces, fill)
        self.count.acts += 1
        events = tuple(self.procedure.decide(self.state, self.taken, source))
        state = self.state
        for event in events:
            state = self.procedure.evolve(state, event)
        return _Run(state, events, tuple(source.asked), tuple(source.shown))


def _attack(run: _Run, at: int) -> tuple[Event, int] | None:
    """The attack rolled from die ``at`` on, if there is one, and its number of dice: an
    attack's roll is its action's first dice (``combat.resolve``, from ``act`` or ``defend``),
    which its event gives."""
    for event in run.events:
        if event.kind != ATTACK:
            continue
        faces = event.data.get("faces")
        if not isinstance(faces, list) or list(run.shown[: len(faces)]) != faces:
            raise MeleeError("an attack's faces are not the first dice of its action")
        return (event, len(faces)) if at == 0 else None
    return None


@dataclass(frozen=True)
class _Branch:
    """A state an action leads to, its chance, and faces that lead there."""

    chance: Fraction
    state: Any
    faces: tuple[int, ...]


def _enumerate(
    table: Table[Any], action: Action, key: StateKey, count: _Count
) -> dict[Hashable, _Branch]:
    """Every state ``action`` may lead to from ``table``, merged by ``key``: every face of
    every die, but an attack's roll by its outcome (see the module's doc)."""
    act = _Act(table, action, count)
    out: dict[Hashable, _Branch] = {}

    def go(prefix: list[int], weight: Fraction, run: _Run | None = None) -> None:
        run = run or act.run(prefix)
        at = len(prefix)
        if len(run.asked) == at:
            k = key(run.state)
            held = out.get(k)
            out[k] = (
                _Branch(weight, run.state, tuple(prefix))
                if held is None
                else _Branch(held.chance + weight, held.state, held.faces)
            )
            return
        attack = _attack(run, at)
        if attack is None:
            sides = run.asked[at]
            for face in range(1, sides + 1):
                go([*prefix, face], weight / sides)
            return
        event, size = attack
        chance = Fraction(str(event.data["odds"]))
        for forced, p in _forced(act, prefix, run.asked[at : at + size], chance):
            go([*prefix, *forced.shown[at : at + size]], weight * p, forced)

    go([], ONE)
    return out


def _forced(
    act: _Act, prefix: list[int], sides: Sequence[int], chance: Fraction
) -> list[tuple[_Run, Fraction]]:
    """The attack forced to hit (if it may) and to miss (if it may), from the extreme faces
    of its dice, each with the game's chance of it."""
    wanted = {True: chance, False: 1 - chance}
    found: dict[bool, _Run] = {}
    for extremes in itertools.product(*((s, 1) for s in sides)):
        if all(hit in found for hit, p in wanted.items() if p):
            break
        run = act.run([*prefix, *extremes])
        attack = _attack(run, len(prefix))
        if attack is None or Fraction(str(attack[0].data["odds"])) != chance:
            raise MeleeError("the attack's roll changes with its own faces")
        hit = bool(attack[0].data["hit"])
        if wanted[hit] and hit not in found:
            found[hit] = run
    missing = [hit for hit, p in wanted.items() if p and hit not in found]
    if missing:
        raise MeleeError(f"no faces make the attack {'hit' if missing[0] else 'miss'}")
    return [(found[hit], p) for hit, p in wanted.items() if p]


def _replay(
    table: Table[Any], action: Action, known: Sequence[_Branch], key: StateKey, count: _Count
) -> dict[Hashable, _Branch] | None:
    """``action`` from ``table`` taken once with the faces of each branch it had from a state
    that differs only in hits, each with that branch's chance (``None`` if it asks for other
    dice there: then it is enumerated again)."""
    act = _Act(table, action, count)
    out: dict[Hashable, _Branch] = {}
    for branch in known:
        try:
            run = act.run(branch.faces, fill=False)
        except _Need:
            return None
        if len(run.asked) != len(branch.faces):
            return None
        k = key(run.state)
        held = out.get(k)
        out[k] = (
            _Branch(branch.chance, run.state, branch.faces)
            if held is None
            else _Branch(held.chance + branch.chance, held.state, held.faces)
        )
    return out


# -- a round ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundStep:
    """One canonical round played to its end: ``ends`` the chance of each (winner, rounds it
    adds) — the winner as the conflict's outcome names it; 1 round, or 2 when the melee ends as
    the next round begins —, ``next`` each canonical round it leads to, with its chance and a
    table in it (the state the procedure made; the table's log is not kept), and ``never`` the
    chance nobody can move and it is not over."""

    ends: Mapping[tuple[str, int], Fraction]
    next: Mapping[Hashable, tuple[Fraction, Table[Any]]]
    never: Fraction = ZERO


class _OutOfTime(Exception):
    pass


_Known = tuple[Action, tuple[_Branch, ...]] | None


@dataclass
class _Solver:
    conflict: SimulatedConflict
    key: StateKey
    deadline: float | None = None
    replay: bool = True
    count: _Count = field(default_factory=_Count)
    steps: dict[Hashable, dict[Hashable, _Branch] | None] = field(default_factory=dict)
    known: dict[Hashable, _Known] = field(default_factory=dict)
    over: dict[Hashable, bool] = field(default_factory=dict)
    won: dict[Hashable, str] = field(default_factory=dict)

    def step(self, table: Table[Any], k: Hashable) -> dict[Hashable, _Branch] | None:
        """The default policy's next action from ``table`` and its branches (``None`` if
        nobody has a choice). The action and the faces of its branches are remembered by the
        state less its hits: from another state that differs only there, the same action is
        taken with those faces alone (see the module's doc)."""
        if k in self.steps:
            return self.steps[k]
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _OutOfTime
        mine = _hitless(table.state)
        found: dict[Hashable, _Branch] | None = None
        if self.replay and mine in self.known:
            known = self.known[mine]
            if known is None:
                self.steps[k] = None
                return None
            try:
                found = _replay(table, known[0], known[1], self.key, self.count)
            except MeleeError:
                raise
            except RefereeError:
                found = None
        if found is None:
            action, found = self._choose(table)
            if action is None or found is None:
                self.known[mine] = None
            else:
                self.known[mine] = (action, tuple(found.values()))
        self.steps[k] = found
        return found

    def _choose(self, table: Table[Any]) -> tuple[Action | None, dict[Hashable, _Branch] | None]:
        """The default policy's action, as the simulator's ``play`` takes it: a
        choice the game refuses is dropped and the policy chooses again."""
        taken = default_taken(
            table,
            self.conflict,
            lambda action: _enumerate(table, action, self.key, self.count),
            own=MeleeError,
        )
        return (None, None) if taken is None else taken

    def is_over(self, begin: Table[Any], table: Table[Any]) -> bool:
        """The conflict's own test, remembered by who is conscious: all it reads
        (``conflicts._hursagmu_over``, the game's ``conflict``: who is still conscious)."""
        up = tuple(f.conscious for f in table.state.fighters.values())
        if up not in self.over:
            self.over[up] = self.conflict.is_over(begin, table)
        return self.over[up]

    def winner(self, begin: Table[Any], table: Table[Any]) -> str:
        """The conflict's own winner, remembered by who is conscious: all it reads
        (``conflicts._hursagmu_outcome``, the game's ``conflict``: the one still conscious)."""
        up = tuple(f.conscious for f in table.state.fighters.values())
        if up not in self.won:
            self.won[up] = self.conflict.outcome(begin, table).winner
        return self.won[up]

    def round(self, begin: Table[Any]) -> RoundStep:
        """Play the round from ``begin`` (a round's start, or a table within one) to its end."""
        frontier: dict[Hashable, tuple[Fraction, Table[Any]]] = {
            self.key(begin.state): (ONE, begin)
        }
        ends: dict[tuple[str, int], Fraction] = {}
        nxt: dict[Hashable, tuple[Fraction, Table[Any]]] = {}
        never = ZERO
        for taken in range(MAX_STEPS + 1):
            if not frontier:
                return RoundStep(ends, nxt, never)
            grown: dict[Hashable, tuple[Fraction, Table[Any]]] = {}
            for k, (p, t) in frontier.items():
                begun = taken > 0 and _is_round_start(t.state)  # the next round's start
                if self.is_over(begin, t):
                    where = (self.winner(begin, t), 2 if begun else 1)
                    ends[where] = ends.get(where, ZERO) + p
                    continue
                if begun:
                    held = nxt.get(k)
                    nxt[k] = (p, t) if held is None else (held[0] + p, held[1])
                    continue
                step = self.step(t, k)
                if step is None:
                    never += p
                    continue
                for k2, branch in step.items():
                    held = grown.get(k2)
                    q = p * branch.chance
                    if held is None:
                        grown[k2] = (q, replace(t, state=branch.state))
                    else:
                        grown[k2] = (held[0] + q, held[1])
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
) -> MeleeOdds:
    """The exact odds of the melee the default policy plays from ``table`` (see the module's
    doc): to its end, or (``rounds``) within that many rounds. Past ``time_limit`` seconds the
    answer is that of as many rounds as were played out by then, what is still going
    ``unfinished`` (refused if not even the first was). ``seat`` is taken for the answer's
    sake: nobody starts a Hursagmu melee. ``key`` and ``replay``: the canonical key, and
    whether actions are replayed from a state less its hits (the tests check both against
    finer ways)."""
    del seat
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
    solver = _Solver(conflict_of(table), key, deadline, replay)
    first = key(table.state)
    plays: dict[Hashable, RoundStep] = {}
    level = {first: table}
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
    wins, by_round, unfinished = _forward(first, plays, horizon)
    expected: Fraction | None = None
    if rounds is None:
        wins, expected, unfinished = _absorb(first, plays)
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


def round_odds(table: Table[Any], key: StateKey = canonical, replay: bool = True) -> RoundStep:
    """The round from ``table`` (its start, or a table within it) played to its end by the
    default policy, exactly: how it may end the melee, and the rounds it may lead to."""
    if table.procedure is not system("hursagmu").procedure:
        raise MeleeError(f"a melee is a Hursagmu conflict, not {table.system}")
    return _Solver(conflict_of(table), key, replay=replay).round(table)


def _forward(
    first: Hashable, plays: Mapping[Hashable, RoundStep], horizon: int
) -> tuple[dict[str, Fraction], list[Fraction], Fraction]:
    """The first ``horizon`` rounds run forward: each winner's chance, the chance it ends in
    each round, and the chance it is still going after them (or never ends)."""
    wins: dict[str, Fraction] = {}
    by_round = [ZERO] * (horizon + 1)
    frontier: dict[Hashable, Fraction] = {first: ONE}
    never = ZERO
    for r in range(1, horizon + 1):
        grown: dict[Hashable, Fraction] = {}
        for k, p in frontier.items():
            play = plays.get(k)
            if play is None:  # not played: the rounds beyond what the time allowed
                grown[k] = grown.get(k, ZERO) + p
                continue
            never += p * play.never
            for (winner, adds), q in play.ends.items():
                wins[winner] = wins.get(winner, ZERO) + p * q
                by_round[r + adds - 2] += p * q
            for k2, (q, _) in play.next.items():
                grown[k2] = grown.get(k2, ZERO) + p * q
        frontier = grown
    return wins, by_round[:horizon], sum(frontier.values(), ZERO) + never


def _absorb(
    first: Hashable, plays: Mapping[Hashable, RoundStep]
) -> tuple[dict[str, Fraction], Fraction | None, Fraction]:
    """The melee to its end from ``first``: each winner's chance, the expected rounds
    (``None`` if it may never end) and the chance it never ends. The canonical rounds are an
    absorbing chain, solved one strongly connected set at a time, those it leads to first; a
    set from which no round ends the melee never ends."""
    winners = sorted({w for play in plays.values() for (w, _) in play.ends})
    column = {w: i for i, w in enumerate(winners)}
    rounds, never = len(winners), len(winners) + 1  # the other two columns
    value: dict[Hashable, list[Fraction]] = {}
    for group in _components(plays):
        inside = {k: i for i, k in enumerate(group)}
        matrix = [[ZERO] * len(group) for _ in group]
        rhs = [[ZERO] * (never + 1) for _ in group]
        for k, i in inside.items():
            play, row = plays[k], rhs[i]
            matrix[i][i] += ONE
            row[never] += play.never
            for (winner, adds), q in play.ends.items():
                row[column[winner]] += q
                row[rounds] += q * adds
            for k2, (q, _) in play.next.items():
                row[rounds] += q
                if k2 in inside:
                    matrix[i][inside[k2]] -= q
                else:
                    row[:] = [x + q * y for x, y in zip(row, value[k2], strict=True)]
        solved = _solve(matrix, rhs)
        if solved is None:  # nothing leaves the set: from it the melee never ends
            solved = [[ZERO] * never + [ONE] for _ in group]
        for k, i in inside.items():
            value[k] = solved[i]
    row = value[first]
    wins = {w: row[column[w]] for w in winners}
    return wins, (row[rounds] if row[never] == 0 else None), row[never]


def _components(plays: Mapping[Hashable, RoundStep]) -> list[list[Hashable]]:
    """The canonical rounds' strongly connected sets, each after every set it leads to
    (Tarjan's algorithm, without recursion)."""
    index: dict[Hashable, int] = {}
    low: dict[Hashable, int] = {}
    on: set[Hashable] = set()
    stack: list[Hashable] = []
    out: list[list[Hashable]] = []
    for root in plays:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        work = [(root, iter(plays[root].next))]
        while work:
            k, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on.add(child)
                    work.append((child, iter(plays[child].next)))
                    break
                if child in on:
                    low[k] = min(low[k], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[k])
                if low[k] == index[k]:
                    group: list[Hashable] = []
                    while not group or group[-1] != k:
                        group.append(stack.pop())
                        on.discard(group[-1])
                    out.append(group)
    return out


def _solve(matrix: list[list[Fraction]], rhs: list[list[Fraction]]) -> list[list[Fraction]] | None:
    """``matrix · x = rhs`` for every column of ``rhs``, exactly (Gauss–Jordan on Fractions);
    ``None`` if ``matrix`` is singular."""
    n = len(matrix)
    a = [row[:] + rest[:] for row, rest in zip(matrix, rhs, strict=True)]
    for c in range(n):
        pivot = next((r for r in range(c, n) if a[r][c] != 0), None)
        if pivot is None:
            return None
        a[c], a[pivot] = a[pivot], a[c]
        inv = 1 / a[c][c]
        a[c] = [x * inv for x in a[c]]
        for r in range(n):
            if r != c and a[r][c] != 0:
                f = a[r][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c], strict=True)]
    return [row[n:] for row in a]

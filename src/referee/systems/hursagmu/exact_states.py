"""Hursagmu's exact melee, its states: the canonical keys of a state and the branches of an
action, every face of every die but an attack's roll by its outcome
(:mod:`referee.systems.hursagmu.exact` explains the model).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from referee.core import Action, Event, Table
from referee.core.markov import ChainError

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


def round_number(state: Any) -> Any:
    """The round's number as the rules read it ("Round Zero": ``round == 0``, ``round != 1``,
    ``started``): round zero, the first round not yet begun, or a round under way."""
    if state.round == 0 or not state.started:
        return state.round
    return "begun"


class StateKeys:
    """The keys of a melee's states, remembering the Initiatives of each plan declared (one
    answer's memo: many states share a plan). :func:`canonical` is a fresh one's."""

    def __init__(self) -> None:
        self.initiatives: dict[Hashable, tuple[int | None, ...]] = {}

    def steps(self, f: Any, mode: Any) -> tuple[int | None, ...]:
        """The Initiative of each step ``f`` declared (``Fighter.scheduled``: the plan, the
        round's Initiative, and the rate and mount his sheet gives)."""
        if f.plan is None:
            return ()
        sheet = f.sheet
        k = (f.plan, f.initiative, mode, sheet.max_lift, sheet.load, sheet.mount)
        found = self.initiatives.get(k)
        if found is None:
            if len(self.initiatives) >= 4096:
                self.initiatives.clear()
            found = self.initiatives[k] = tuple(s.initiative for s in f.scheduled(mode))
        return found

    def order(self, state: Any) -> dict[tuple[int, int], int] | None:
        """Each (rank, Initiative) the round may compare — everyone's, their declared steps'
        and the clock — by its place in their order; ``None`` until everyone up has rolled."""
        fighters = state.fighters.values()
        if state.phase != "action" or any(f.conscious and f.initiative is None for f in fighters):
            return None
        mode = state.options.defence
        seen: set[tuple[int, int]] = set()
        for f in fighters:
            if f.initiative is None:
                continue
            seen.add((f.rank, f.initiative))
            seen.update((f.rank, i) for i in self.steps(f, mode) if i is not None)
        if state.clock is not None:
            seen.add(tuple(state.clock))
        return {value: place for place, value in enumerate(sorted(seen))}

    def fighter(
        self, f: Any, order: Mapping[tuple[int, int], int] | None, mode: Any, hits: bool
    ) -> Any:
        """A character's part of a key: everything but the sheet; the Initiatives as places
        in ``order`` where it is given; the hits unless ``hits`` is false."""
        initiative: Any = f.initiative
        if order is not None and f.initiative is not None:
            initiative = (
                order[(f.rank, f.initiative)],
                tuple(None if i is None else order[(f.rank, i)] for i in self.steps(f, mode)),
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
            f.held_initiative,
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

    def key(self, state: Any, *, ordered: bool, hits: bool = True) -> Hashable:
        order = self.order(state) if ordered else None
        mode = state.options.defence
        clock: Any = state.clock
        if order is not None and clock is not None:
            clock = order[tuple(clock)]
        return (
            round_number(state),
            state.phase,
            state.started,
            state.round_zero,
            state.pending,
            clock,
            tuple((who, self.fighter(f, order, mode, hits)) for who, f in state.fighters.items()),
        )

    def canonical(self, state: Any) -> Hashable:
        """:func:`canonical`, remembering the plans' Initiatives."""
        return self.key(state, ordered=True)

    def hitless(self, state: Any) -> Hashable:
        """:func:`canonical` less the hits: what the default policy's choice, and the faces of
        each branch of the action it chooses, are remembered by (see the module's doc)."""
        return self.key(state, ordered=True, hits=False)


def canonical(state: Any) -> Hashable:
    """The melee's canonical state (see the module's doc): everything the rules read, the
    round's number as they read it and, once everyone has rolled, the Initiatives' order."""
    return StateKeys().canonical(state)


def is_round_start(state: Any) -> bool:
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
class Work:
    acts: int = 0


class _Act:
    """``action`` at ``table`` as ``Table.act`` takes it — its parameters parsed by the
    catalogue, then the game's ``decide`` and ``evolve`` — with the faces given."""

    def __init__(self, table: Table[Any], action: Action, count: Work) -> None:
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
class Branch:
    """A state an action leads to, its chance, and faces that lead there."""

    chance: Fraction
    state: Any
    faces: tuple[int, ...]


def action_branches(
    table: Table[Any], action: Action, key: StateKey, count: Work
) -> dict[Hashable, Branch]:
    """Every state ``action`` may lead to from ``table``, merged by ``key``: every face of
    every die, but an attack's roll by its outcome (see the module's doc)."""
    act = _Act(table, action, count)
    out: dict[Hashable, Branch] = {}

    def go(prefix: list[int], weight: Fraction, run: _Run | None = None) -> None:
        run = run or act.run(prefix)
        at = len(prefix)
        if len(run.asked) == at:
            k = key(run.state)
            held = out.get(k)
            out[k] = (
                Branch(weight, run.state, tuple(prefix))
                if held is None
                else Branch(held.chance + weight, held.state, held.faces)
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


def replay_branches(
    table: Table[Any], action: Action, known: Sequence[Branch], key: StateKey, count: Work
) -> dict[Hashable, Branch] | None:
    """``action`` from ``table`` taken once with the faces of each branch it had from a state
    that differs only in hits, each with that branch's chance (``None`` if it asks for other
    dice there: then it is enumerated again)."""
    act = _Act(table, action, count)
    out: dict[Hashable, Branch] = {}
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
            Branch(branch.chance, run.state, branch.faces)
            if held is None
            else Branch(held.chance + branch.chance, held.state, held.faces)
        )
    return out

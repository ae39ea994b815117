"""Hursagmu's exact melee, its states: the canonical keys of a state and the branches of an
action, every face of every die but an attack's roll by its outcome
(:mod:`referee.systems.hursagmu.exact` explains the model).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from referee.core import Action, Event, Table
from referee.core.markov import ChainError
from referee.core.values import evolved

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

    def __init__(self, numbered: bool = True) -> None:
        self.initiatives: dict[Hashable, tuple[int | None, ...]] = {}
        self.numbered = numbered
        self.hitless_numbers: dict[Hashable, int] = {}
        self.numbers: dict[Hashable, int] = {}
        self.seen: dict[int, tuple[Any, int]] = {}

    def number(self, value: Hashable) -> Hashable:
        """A plan or an attack pending as this memo's number for it (``None`` for none), equal
        for equal ones: in a key in their place, it hashes at C's speed, not through their
        dataclasses' ``__hash__`` (each value hashed once, then known by its identity: a fold
        keeps them). Not ``numbered``: the value itself (keys compared across memos)."""
        if value is None or not self.numbered:
            return value
        seen = self.seen.get(id(value))
        if seen is not None and seen[0] is value:
            return seen[1]
        if len(self.seen) >= 65536:
            self.seen.clear()
        n = self.numbers.setdefault(value, len(self.numbers))
        self.seen[id(value)] = (value, n)
        return n

    def steps(self, f: Any, mode: Any) -> tuple[int | None, ...]:
        """The Initiative of each step ``f`` declared (``Fighter.scheduled``: the plan, the
        round's Initiative, and the rate and mount his sheet gives)."""
        if f.plan is None:
            return ()
        sheet = f.sheet
        k = (self.number(f.plan), f.initiative, mode, sheet.max_lift, sheet.load, sheet.mount)
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
            None if f.stance is None else f.stance.value,  # a string hashes in C, an Enum in Python
            f.rank,
            initiative,
            self.number(f.plan),
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
            self.number(state.pending),
            clock,
            tuple((who, self.fighter(f, order, mode, hits)) for who, f in state.fighters.items()),
        )

    def canonical(self, state: Any) -> Hashable:
        """:func:`canonical`, remembering the plans' Initiatives. ``numbered``: the state less
        its hits (:meth:`hitless`) as its number in this memo, and the hits apart — the same
        states equal, a key that hashes at once and whose hits are moved without a copy
        (:meth:`moved`, :meth:`less_hits`)."""
        if not self.numbered:
            return self.key(state, ordered=True)
        hitless = self.key(state, ordered=True, hits=False)
        n = self.hitless_numbers.setdefault(hitless, len(self.hitless_numbers))
        return n, tuple([f.hits for f in state.fighters.values()])

    @staticmethod
    def moved(key: Any, hits: Sequence[int]) -> Hashable:
        """The ``numbered`` :meth:`canonical` key ``key`` of a state, with each character's
        hits ``hits`` (in the fighters' order)."""
        return key[0], tuple(hits)

    @staticmethod
    def less_hits(key: Any) -> Hashable:
        """What :meth:`hitless` is for, of a state whose ``numbered`` :meth:`canonical` key is
        ``key``: the number of the state less its hits, read from the key."""
        number: int = key[0]
        return number

    def hitless(self, state: Any) -> Hashable:
        """:func:`canonical` less the hits: what the default policy's choice, and the faces of
        each branch of the action it chooses, are remembered by (see the module's doc)."""
        return self.key(state, ordered=True, hits=False)


def canonical(state: Any) -> Hashable:
    """The melee's canonical state (see the module's doc): everything the rules read, the
    round's number as they read it and, once everyone has rolled, the Initiatives' order."""
    return StateKeys(numbered=False).canonical(state)


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
    """One taking of an action: the state it leads to, its events, the dice it asked for, and
    each character's hits through it (:data:`Trail`)."""

    state: Any
    events: tuple[Event, ...]
    asked: tuple[int, ...]
    shown: tuple[int, ...]
    trail: Trail = ()


Trail = tuple[tuple[int, ...], ...]
"""Each character's hits through an action, in the fighters' order: before it, then each
value an event left them at."""


def _hits(state: Any) -> tuple[int, ...]:
    return tuple(f.hits for f in state.fighters.values())


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
        trail = [[h] for h in _hits(state)]
        for event in events:
            state = self.procedure.evolve(state, event)
            for held, h in zip(trail, _hits(state), strict=True):
                if h != held[-1]:
                    held.append(h)
        return _Run(
            state, events, tuple(source.asked), tuple(source.shown), tuple(map(tuple, trail))
        )


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


class Branch(NamedTuple):
    """A state an action leads to, its chance, faces that lead there, and each character's
    hits through it (:data:`Trail`; empty where branches were merged). A named tuple: tens of
    thousands are made a melee, and a frozen dataclass sets each field through
    ``object.__setattr__``."""

    chance: Fraction
    state: Any
    faces: tuple[int, ...]
    trail: Trail = ()


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
            if held is None:
                out[k] = Branch(weight, run.state, tuple(prefix), run.trail)
            else:
                trail = held.trail if held.trail == run.trail else ()
                out[k] = Branch(held.chance + weight, held.state, held.faces, trail)
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


Like = tuple[Hashable, Branch, tuple[tuple[float, float], ...]]
"""A branch kept to be moved (:func:`shifted`): the key of the state it led to, the branch, and
the least and the most each character's hits may be moved by (:func:`_room`), worked out once."""


def like(k: Hashable, branch: Branch) -> Like:
    """``branch`` (its state keyed ``k``) kept to be moved, its room worked out."""
    staminas = (f.sheet.stamina for f in branch.state.fighters.values())
    return k, branch, tuple(map(_room, branch.trail, staminas))


def replay_branches(
    state: Any,
    table: Callable[[], Table[Any]],
    action: Action,
    known: Sequence[Branch],
    key: StateKey,
    count: Work,
    likes: Mapping[tuple[int, ...], Sequence[Like]] | None = None,
    moved_key: Callable[[Hashable, Sequence[int]], Hashable] | None = None,
    have: Callable[[Hashable], Any] | None = None,
    ran: list[tuple[int, ...]] | None = None,
) -> dict[Hashable, Branch] | None:
    """``action`` from ``state`` (``table()`` a table in it) taken once with the faces of each
    branch it had from a state that differs only in hits, each with that branch's chance
    (``None`` if it asks for other dice there: then it is enumerated again) — or, where one of
    ``likes`` (branches of the same action from a state less the same hits, by their faces) led
    there with the same faces, the state it led to with the hits moved, where :func:`shifted`
    allows it. Where ``moved_key`` is given, a moved branch's key is the key it had with the
    hits moved (not worked out again), and its state, where ``have`` knows one with that key,
    that one (not made again). The faces of each branch taken again are added to ``ran``."""
    act: _Act | None = None
    out: dict[Hashable, Branch] = {}
    hits = _hits(state)
    for branch in known:
        moved, k = None, None
        for k0, same, rooms in likes.get(branch.faces, ()) if likes else ():
            moves = _moves(hits, same.trail, rooms)
            if moves is None:
                continue
            trail = _moved_trail(same.trail, moves)
            if moved_key is not None:
                k = moved_key(k0, [t[-1] for t in trail])
                after = None if have is None else have(k)
                moved = (_moved_state(same.state, moves) if after is None else after, trail)
            else:
                moved = (_moved_state(same.state, moves), trail)
            break
        if moved is None:
            act = act or _Act(table(), action, count)
            try:
                run = act.run(branch.faces, fill=False)
            except _Need:
                return None
            if len(run.asked) != len(branch.faces):
                return None
            moved = (run.state, run.trail)
            if ran is not None:
                ran.append(branch.faces)
        after, trail = moved
        k = key(after) if k is None else k
        held = out.get(k)
        out[k] = (
            Branch(branch.chance, after, branch.faces, trail)
            if held is None
            else Branch(held.chance + branch.chance, held.state, held.faces)
        )
    return out


def sides(state: Any) -> tuple[tuple[bool, bool], ...]:
    """Which side of 0 and of his Stamina each character's hits are on (:func:`shifted`)."""
    return tuple((f.hits <= 0, f.hits >= f.sheet.stamina) for f in state.fighters.values())


def shifted(branch: Branch, state: Any) -> tuple[Any, Trail] | None:
    """The state ``branch`` leads to from ``state`` — a state that differs from the one it was
    taken from only in hits — without taking it again: the branch's own state, each
    character's hits moved by as many as his hits differ, and its trail moved (``None`` where
    that is not sure).

    No roll and no choice reads the hits (the module's doc); the procedure reads them only
    against 0 and the character's Stamina: an attack's damage fells him where it leaves 0 or
    less of hits he had (``combat.resolve``), and the round's end fells one at 0 or less and
    gives one below his Stamina a hit back (``recovery.decide_end_round``). So where every
    value the branch took a character's hits through (its :data:`Trail`) falls, moved, on the
    same side of 0 and of his Stamina as before, the action makes the same events, their hits
    moved, and the same state but for the hits; otherwise it is taken again."""
    if not branch.trail:
        return None
    _, _, rooms = like(None, branch)
    moves = _moves(_hits(state), branch.trail, rooms)
    if moves is None:
        return None
    return _moved_state(branch.state, moves), _moved_trail(branch.trail, moves)


def _moves(
    hits: tuple[int, ...], trail: Trail, rooms: tuple[tuple[float, float], ...]
) -> tuple[int, ...] | None:
    """How far each character's hits (``hits``) are from where ``trail`` began, if each may be
    moved that far (within its room, :func:`_room`); else ``None``."""
    moves = []
    for h, values, (low, high) in zip(hits, trail, rooms, strict=True):
        m = h - values[0]
        if m and not low <= m <= high:
            return None
        moves.append(m)
    return tuple(moves)


def _moved_trail(trail: Trail, moves: tuple[int, ...]) -> Trail:
    return tuple(
        [
            tuple([v + m for v in values]) if m else values
            for values, m in zip(trail, moves, strict=True)
        ]
    )


def _moved_state(state: Any, moves: tuple[int, ...]) -> Any:
    """``state``, each character's hits moved by his move."""
    if not any(moves):
        return state
    fighters = dict(state.fighters)
    for (who, f), moved in zip(state.fighters.items(), moves, strict=True):
        if moved:
            fighters[who] = evolved(f, hits=f.hits + moved)
    return evolved(state, fighters=fighters)


@functools.lru_cache(maxsize=4096)
def _room(trail: tuple[int, ...], top: int) -> tuple[float, float]:
    """The least and the most a character's hits may be moved by and leave every value of
    ``trail`` on the same side of 0 and of his Stamina ``top`` (:func:`shifted`): a value at 0
    or less stays there (``v + m <= 0``), one above 0 above it, one at ``top`` or more stays
    there, one below it below (remembered: a melee's trails are few, its states many).

    >>> _room((5, 2), 4)  # 5 stays at 4 or more, 2 above 0 and below 4
    (-1, 1)
    """
    low, high = -math.inf, math.inf
    for v in trail:
        low, high = (low, min(high, -v)) if v <= 0 else (max(low, 1 - v), high)
        low, high = (max(low, top - v), high) if v >= top else (low, min(high, top - 1 - v))
    return low, high

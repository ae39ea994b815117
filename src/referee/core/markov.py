"""A conflict played by the default policy, solved exactly as a Markov chain over canonical states.

The chain's transitions are not written here: they are the game's own procedure. From each
state the default policy (:func:`referee.core.policies.default_policy`, the simulation's own)
chooses the next action, and the action is taken on the table with every face of every die it
asks for (a die at a time, each face weighted ``1/sides``: a die is fair). The tables reached
are merged by a **canonical key** the caller gives — a function of the state that drops what
the rules never look at (a game's absolute Values where only their differences count, say) —
so each canonical state is expanded once, not once per path: memoisation, not a blind tree.

**Faces that do the same thing.** A percentile test asks for a d100, but its hundred faces
fall in a handful of outcomes. Before branching on a die, each face is tried once with the
dice after it filled with 1s; faces whose tables then have the same canonical key and ask for
the same further dice are one branch, weighted by how many faces they are. Where a face needs
no further die its table is a leaf at once. This is exact wherever faces that agree under one
continuation agree under all (a test's outcome is read from its face alone); the models' tests
check it against the enumeration of every face (``tests/sim/test_exact_*.py``).

The chain is run forward, one action per step, to the end of the conflict or past a horizon
of rounds: what is still going on then is ``unfinished``, exactly. Exact
:class:`~fractions.Fraction` answers throughout.

**Too large, said first.** A model may give :func:`solve` its ``estimate`` of the canonical
states to expand, read from the table before anything is expanded, and what a state costs
(``seconds_per_state``): a chain whose estimate is past ``max_states``, or whose estimated cost
is past the time given, is refused at once — no state expanded — rather than after spending
the time given and then refusing. The deadline still holds for an estimate that falls short.

For example, a Zweihänder chase of two for one round (``tests/sim/test_exact_zweihander.py``
holds the chain to the enumeration of every face of a chase like it)::

    table = system("zweihander").new_table({"characters": {"a": sheet, "b": sheet}})
    odds = solve(table, key=lambda t: repr(t.state), horizon=1)
    assert sum(odds.outcomes.values()) + odds.unfinished == 1
"""

from __future__ import annotations

import contextlib
import gc
import threading
import time
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from referee.core.errors import RuleError
from referee.core.policies import default_taken
from referee.core.procedures import Action
from referee.core.simulation import SimulatedConflict, conflict_of
from referee.core.table import Table

__all__ = ["ChainError", "ChainOdds", "branches", "collector_paused", "solve", "too_large"]

ZERO = Fraction(0)
ONE = Fraction(1)
MAX_STATES = 200_000
"""The most canonical states one answer may expand before it is refused."""
FILLER = 1
"""The face every die after the one being branched on shows, when faces are compared."""

Key = Callable[[Table[Any]], Hashable]


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while an exact model works, and set going
    again after (where it was going). An exact model keeps thousands of states and makes
    millions of small objects (fractions, keys, states), none of them in a cycle that must be
    broken while it works; each full collection walks every one it keeps, again and again —
    a third of Bob against Fred's time (docs/performance.md, "simulate (issue 31)"). A context
    (``with collector_paused():``), not a decorator: mutation testing reaches no decorated
    function (docs/mutation.md).

    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    _pause_collector()
    try:
        yield
    finally:
        _resume_collector()


class _Pauses:
    """How many solves have the collector paused, and whether it was going before the first:
    solves in several threads at once (a server's) pause it once and the last to end sets it
    going again, so none leaves it paused for good."""

    lock = threading.Lock()
    count = 0
    was_going = False


def _pause_collector() -> None:
    with _Pauses.lock:
        if _Pauses.count == 0:
            _Pauses.was_going = gc.isenabled()
            gc.disable()
        _Pauses.count += 1


def _resume_collector() -> None:
    with _Pauses.lock:
        _Pauses.count -= 1
        if _Pauses.count == 0 and _Pauses.was_going:
            gc.enable()


class ChainError(RuleError):
    """The conflict cannot be solved exactly from this table (the reason says why)."""

    def __init__(self, reason: str, rule: str = "Whole-encounter odds (exact chain)") -> None:
        super().__init__(rule, reason)


class _Need(Exception):
    """The scripted faces ran out: the action asks for a die of ``sides`` faces."""

    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class _Faces:
    """Faces given, then either a :class:`_Need` or (``fill``) :data:`FILLER` faces, noted."""

    def __init__(self, faces: list[int], fill: bool = False) -> None:
        self.faces, self.used = faces, 0
        self.filled: list[int] | None = [] if fill else None

    def roll(self, sides: int) -> int:
        if self.used < len(self.faces):
            self.used += 1
            return self.faces[self.used - 1]
        if self.filled is None:
            raise _Need(sides)
        self.filled.append(sides)
        return FILLER


@dataclass
class _Count:
    acts: int = 0


def branches(
    table: Table[Any], action: Action, key: Key, count: _Count | None = None
) -> dict[Hashable, tuple[Fraction, Table[Any]]]:
    """Every table ``action`` may lead to from ``table``, merged by ``key``, each with its
    chance (faces that do the same thing are one branch: see the module's doc). A
    :class:`~referee.core.RefereeError` from the game (the action refused) is raised as is."""
    count = count or _Count()
    out: dict[Hashable, tuple[Fraction, Table[Any]]] = {}

    def leaf(after: Table[Any], weight: Fraction) -> None:
        k = key(after)
        held = out.get(k)
        out[k] = (weight, after) if held is None else (held[0] + weight, held[1])

    def go(prefix: list[int], weight: Fraction) -> None:
        count.acts += 1
        try:
            leaf(table.act(action, _Faces(prefix)), weight)
            return
        except _Need as need:
            sides = need.sides
        share = weight / sides
        groups: dict[Hashable, list[int]] = {}
        for face in range(1, sides + 1):
            faces = _Faces([*prefix, face], fill=True)
            count.acts += 1
            after = table.act(action, faces)
            if not faces.filled:
                leaf(after, share)
            else:
                groups.setdefault((key(after), tuple(faces.filled)), []).append(face)
        for same in groups.values():
            go([*prefix, same[0]], share * len(same))

    go([], ONE)
    return out


@dataclass(frozen=True)
class ChainOdds:
    """The exact answer: ``outcomes`` maps ``(winner, rounds)`` — as the conflict's own
    ``outcome`` names them, what the simulation counts — to its chance; ``endings`` the
    chance of each final state's description (``describe``); ``unfinished`` the chance the
    conflict is still going after ``horizon`` rounds; ``states`` the canonical states expanded
    and ``acts`` the actions the procedure took to find the transitions."""

    outcomes: Mapping[tuple[str, int], Fraction]
    endings: Mapping[str, Fraction]
    unfinished: Fraction
    horizon: int
    states: int
    acts: int

    @property
    def wins(self) -> dict[str, Fraction]:
        """Each winner's chance (within the horizon)."""
        found: dict[str, Fraction] = {}
        for (winner, _), p in sorted(self.outcomes.items()):
            found[winner] = found.get(winner, ZERO) + p
        return found

    def by_round(self, winner: str | None = None) -> tuple[Fraction, ...]:
        """The chance it ends (won by ``winner``, or at all) in each round 1…horizon."""
        return tuple(
            sum(
                (p for (w, r), p in self.outcomes.items() if r == n and winner in (None, w)),
                ZERO,
            )
            for n in range(1, self.horizon + 1)
        )

    def within(self, rounds: int, winner: str | None = None) -> Fraction:
        """The chance it has ended (won by ``winner``, or at all) by the end of ``rounds``."""
        return sum(self.by_round(winner)[:rounds], ZERO)

    @property
    def expected_rounds(self) -> Fraction | None:
        """The expected number of rounds, if nothing is left unfinished."""
        if self.unfinished:
            return None
        return sum((r * p for (_, r), p in self.outcomes.items()), ZERO)


def _policy_branches(
    table: Table[Any], conflict: SimulatedConflict, key: Key, count: _Count
) -> dict[Hashable, tuple[Fraction, Table[Any]]] | None:
    """The default policy's next action from ``table`` and its branches; a choice the game
    refuses is dropped and the policy chooses again, as the simulator's ``play``
    does. ``None`` if nobody has a choice."""
    taken = default_taken(table, conflict, lambda action: branches(table, action, key, count))
    return None if taken is None else taken[1]


def too_large(
    estimate: int | None,
    seconds_per_state: float,
    max_states: int = MAX_STATES,
    time_limit: float | None = None,
) -> None:
    """Refuse (:class:`ChainError`) a chain whose ``estimate`` of canonical states is past
    ``max_states``, or whose estimated cost (``estimate × seconds_per_state``) is past
    ``time_limit`` seconds; nothing if there is no estimate.

    >>> try:
    ...     too_large(6_000, 0.02, time_limit=60)
    ... except ChainError as error:
    ...     print(*str(error).split(", ")[1:], sep="\\n")
    some 120 s at 20 ms a state
    more than the 60 s given: too large to solve exactly within the time given
    >>> too_large(6_000, 0.02, time_limit=600)
    """
    if estimate is None:
        return
    if estimate > max_states:
        raise ChainError(
            f"about {estimate:,} states to expand, more than {max_states:,}: "
            "too large to solve exactly"
        )
    cost = estimate * seconds_per_state
    if time_limit is not None and cost > time_limit:
        raise ChainError(
            f"about {estimate:,} states to expand, some {cost:.0f} s at "
            f"{1000 * seconds_per_state:g} ms a state, more than the {time_limit:g} s given: "
            "too large to solve exactly within the time given"
        )


def solve(
    table: Table[Any],
    *,
    key: Key,
    horizon: int,
    seat: str | None = None,
    rounds: Callable[[Table[Any], Table[Any]], int] | None = None,
    describe: Callable[[Table[Any]], str] | None = None,
    max_states: int = MAX_STATES,
    time_limit: float | None = None,
    estimate: int | None = None,
    seconds_per_state: float = 0.0,
) -> ChainOdds:
    """Solve ``table``'s main conflict as the default policy plays it (see the module's doc):
    its beginning (``conflict.begin(table, seat)``), then one action per step until it is
    over or ``rounds(start, table)`` (default: the conflict's outcome's) passes ``horizon``.
    Refused (:class:`ChainError`) past ``max_states`` canonical states or ``time_limit``
    seconds — at once, before any state is expanded, where the model's ``estimate`` of the
    states is past ``max_states`` or, at ``seconds_per_state``, past ``time_limit``."""
    with collector_paused():
        too_large(estimate, seconds_per_state, max_states, time_limit)
        conflict = conflict_of(table)
        deadline = None if time_limit is None else time.monotonic() + time_limit
        start = table
        count = _Count()

        def rounds_of(t: Table[Any]) -> int:
            if rounds is not None:
                return rounds(start, t)
            return conflict.outcome(start, t).rounds

        frontier: dict[Hashable, tuple[Fraction, Table[Any]]] = {key(table): (ONE, table)}
        for action in conflict.begin(table, seat):
            nxt: dict[Hashable, tuple[Fraction, Table[Any]]] = {}
            for p, t in frontier.values():
                for k, (q, after) in branches(t, action, key, count).items():
                    held = nxt.get(k)
                    nxt[k] = (p * q, after) if held is None else (held[0] + p * q, held[1])
            frontier = nxt
        outcomes: dict[tuple[str, int], Fraction] = {}
        endings: dict[str, Fraction] = {}
        unfinished = ZERO
        cache: dict[Hashable, dict[Hashable, tuple[Fraction, Table[Any]]] | None] = {}
        while frontier:
            nxt = {}
            for k, (p, t) in frontier.items():
                if conflict.is_over(start, t):
                    outcome = conflict.outcome(start, t)
                    where = (outcome.winner, outcome.rounds)
                    outcomes[where] = outcomes.get(where, ZERO) + p
                    if describe is not None:
                        words = describe(t)
                        endings[words] = endings.get(words, ZERO) + p
                    continue
                if rounds_of(t) > horizon:
                    unfinished += p
                    continue
                if k not in cache:
                    if len(cache) >= max_states:
                        raise ChainError(
                            f"more than {max_states:,} states to expand: too large to solve exactly"
                        )
                    if deadline is not None and time.monotonic() > deadline:
                        raise ChainError(
                            f"{len(cache):,} states expanded in {time_limit:g} s and more to go: "
                            "too large to solve exactly within the time given"
                        )
                    cache[k] = _policy_branches(t, conflict, key, count)
                step = cache[k]
                if step is None:  # nobody may move, and it is not over: it never ends
                    unfinished += p
                    continue
                for k2, (q, after) in step.items():
                    held = nxt.get(k2)
                    nxt[k2] = (p * q, after) if held is None else (held[0] + p * q, held[1])
            frontier = nxt
        return ChainOdds(outcomes, endings, unfinished, horizon, len(cache), count.acts)

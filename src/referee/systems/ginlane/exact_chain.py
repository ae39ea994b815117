"""Gin Lane's exact fight, its chain: the Initiative's tie loop summed, each canonical state's
step, and the chain's components solved over fractions (:mod:`referee.systems.ginlane.exact`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from math import gcd, lcm
from typing import Any

from referee.core import Action, Event, Table
from referee.core.policies import default_taken
from referee.core.simulation import SimulatedConflict
from referee.dice import roll
from referee.systems.ginlane.exact_branches import (
    INITIATIVE,
    ONE,
    ZERO,
    Branch,
    Faces,
    FightError,
    Json,
    Key,
    MarginFaces,
    NeedsDie,
    ScriptedFaces,
    Tracks,
    Work,
    act_with,
    action_branches,
    canonical,
    canonical_json,
    damage_of,
    event_data,
    every_margin,
    key_of,
    new_events,
    round_of,
    winner_of,
)
from referee.systems.ginlane.exact_hits import Attack, attack_of

# -- Initiative: the tie loop summed --------------------------------------------------------

Leaves = dict[Hashable, tuple[Fraction, Table[Any], Faces]]


def _add(into: Leaves, key: Hashable, p: Fraction, table: Table[Any], faces: Faces) -> None:
    held = into.get(key)
    into[key] = (p, table, faces) if held is None else (held[0] + p, held[1], held[2])


def _totals(notation: str) -> dict[int, tuple[Fraction, Faces]]:
    """Each total of a roll card's dice (e.g. ``2d6+2``), with its chance and faces giving it:
    every face rolled through the dice library, as the game rolls it."""
    out: dict[int, tuple[Fraction, Faces]] = {}
    stack: list[tuple[Faces, Fraction]] = [((), ONE)]
    while stack:
        faces, weight = stack.pop()
        source = ScriptedFaces(faces)
        try:
            total = int(roll(notation, source).total)
        except NeedsDie as need:
            stack.extend(((*faces, f), weight / need.sides) for f in range(need.sides, 0, -1))
            continue
        held = out.get(total)
        out[total] = (weight, faces) if held is None else (held[0] + weight, held[1])
    return out


@dataclass
class InitiativeContest:
    """The Initiative action, taken through the procedure round of rolls by round of rolls."""

    table: Table[Any]
    action: Action
    count: Work
    seats: tuple[str, ...] = ()
    notations: dict[str, str] = field(default_factory=dict)
    values: dict[tuple[frozenset[str], tuple[str, ...]], Leaves] = field(default_factory=dict)

    def solve(self) -> Leaves:
        """Every order of turns the Initiative may give, with its chance."""
        event = event_data(self._event(self._probe()))
        self.seats = tuple(event["totals"])
        cards = list(event["rolls"])[: len(self.seats)]
        self.notations = {c: str(card["dice"]) for c, card in zip(self.seats, cards, strict=True)}
        decisive, ties = self._contest((), self.seats, tuple(self.notations.values()))
        out = dict(decisive)
        for tied, (p, prefix) in ties.items():
            for k, (q, t, f) in self._value(prefix, tied).items():
                _add(out, k, p * q, t, f)
        return out

    def _event(self, after: Table[Any]) -> Event:
        found = [e for e in new_events(self.table, after) if e.kind == INITIATIVE]
        if len(found) != 1:
            raise FightError("the Initiative action wrote no initiative event")
        return found[0]

    def _probe(self) -> Table[Any]:
        """The Initiative completed once, to read its roll cards: each contender in turn rolls
        high (6s) and the rest low (1s)."""
        for high in range(16):
            source = ScriptedFaces([1, 1] * high + [6, 6], fill=1, cap=64)
            self.count.tick()
            try:
                return self.table.act(self.action, source)
            except NeedsDie:
                continue
        raise FightError("no roll of the dice completes the Initiative here")

    def _contest(
        self, prefix: Faces, who: Sequence[str], notations: Sequence[str]
    ) -> tuple[Leaves, dict[frozenset[str], tuple[Fraction, Faces]]]:
        """One round of rolls by ``who`` after ``prefix``: every combination of their totals
        through the procedure. Returns the orders it completes (with their chances) and the
        ties, each named by who rolled the highest total (confirmed by :meth:`_value`), with
        its chance and faces that give it."""
        dists = [sorted(_totals(n).items()) for n in notations]
        decisive: Leaves = {}
        ties: dict[frozenset[str], tuple[Fraction, Faces]] = {}
        for combo in product(*dists):
            p = ONE
            faces: Faces = prefix
            for _, (w, f) in combo:
                p *= w
                faces = (*faces, *f)
            try:
                after = act_with(self.table, self.action, faces, self.count)
            except NeedsDie:
                best = max(total for total, _ in combo)
                tied = frozenset(
                    c for c, (total, _) in zip(who, combo, strict=True) if total == best
                )
                held = ties.get(tied)
                ties[tied] = (p, faces) if held is None else (held[0] + p, held[1])
                continue
            totals = event_data(self._event(after))["totals"]
            if [totals[c][-1] for c in who] != [total for total, _ in combo]:
                raise FightError("the Initiative did not roll the totals its dice were given")
            _add(decisive, canonical(after), p, after, faces)
        return decisive, ties

    def _rerolled(self, prefix: Faces, tied: frozenset[str]) -> tuple[str, ...]:
        """The roll cards of the round after the tie ``prefix``, read from the procedure: one
        of the tied rolls high and the rest low, and the round must complete with exactly
        ``tied`` having rolled again. Returns their dice, in the order they roll."""
        who = [s for s in self.seats if s in tied]
        for high in who:
            faces: Faces = prefix
            for c in who:
                dist = _totals(self.notations[c])
                faces = (*faces, *dist[max(dist) if c == high else min(dist)][1])
            try:
                after = act_with(self.table, self.action, faces, self.count)
            except NeedsDie:
                continue
            event = event_data(self._event(after))
            totals: Mapping[str, list[int]] = event["totals"]
            rounds = max(len(t) for t in totals.values())
            again = [c for c, t in totals.items() if len(t) == rounds]
            if again != who:
                raise FightError(
                    f"a tie between {', '.join(who)} is re-rolled by {', '.join(again)}"
                )
            cards = list(event["rolls"])
            return tuple(str(card["dice"]) for card in cards[len(cards) - len(who) :])
        raise FightError(f"no re-roll of the tie between {', '.join(who)} completes it")

    def _value(self, prefix: Faces, tied: frozenset[str]) -> Leaves:
        """The orders a tie among ``tied`` (reached by ``prefix``) leads to, with their chances:
        the re-roll's own ties summed (the same tie again: a geometric series)."""
        notations = self._rerolled(prefix, tied)
        memo = (tied, notations)
        if memo in self.values:
            return self.values[memo]
        who = tuple(s for s in self.seats if s in tied)
        decisive, ties = self._contest(prefix, who, notations)
        again = ties.pop(tied, (ZERO, ()))[0]
        if again == ONE:
            raise FightError("a tie that is always tied again: the Initiative never ends")
        out = dict(decisive)
        for smaller, (p, faces) in ties.items():
            for k, (q, t, f) in self._value(faces, smaller).items():
                _add(out, k, p * q, t, f)
        scale = 1 / (1 - again)
        value = {k: (p * scale, t, f) for k, (p, t, f) in out.items()}
        self.values[memo] = value
        return value


# -- the chain ------------------------------------------------------------------------------


@dataclass
class ChainStep:
    """A state's transitions, ``scaled``: one denominator, and each (next state's number,
    chance as a whole number over it, rounds added) — the chain is run and solved on whole
    numbers, a fraction made only where a sum is done."""

    scaled: tuple[int, list[tuple[int, int, int]]]

    @classmethod
    def of(cls, moves: Sequence[tuple[int, Fraction, int]]) -> ChainStep:
        """The step whose chances are ``moves``' fractions."""
        over = lcm(*(q.denominator for _, q, _ in moves))
        return cls((over, [(k, q.numerator * (over // q.denominator), dr) for k, q, dr in moves]))


Worked = tuple[str, Tracks, Fraction, int, Faces]


@dataclass
class Explorer:
    """The canonical states the default policy's fight reaches, and their transitions."""

    start: Table[Any]
    conflict: SimulatedConflict
    count: Work
    max_states: int
    tables: dict[Key, Table[Any]] = field(default_factory=dict)
    index: dict[Key, int] = field(default_factory=dict)
    """Each canonical state's number: the chain is solved over the numbers (a key is a string
    and nested tuples, hashed again at every look-up; a number is hashed at once)."""
    keys: list[Key] = field(default_factory=list)
    over: list[bool] = field(default_factory=list)
    rests: dict[str, Json] = field(default_factory=dict)
    parents: dict[Key, tuple[Key, Action, Faces]] = field(default_factory=dict)
    steps: dict[int, ChainStep | None] = field(default_factory=dict)
    memo: dict[Key, tuple[str, Action, list[Worked]]] = field(default_factory=dict)
    classes: dict[Hashable, dict[int, MarginFaces]] = field(default_factory=dict)
    attacks: dict[str, Attack | None] = field(default_factory=dict)
    winners: dict[str, str] = field(default_factory=dict)
    """Each final state's winner, by its state less the tracks (:func:`winner_of`)."""
    landing: bool = True
    """Whether attacks are landed on the tracks from a state less its tracks (the tests
    compare the answer without)."""

    def know(self, table: Table[Any]) -> Key:
        state = canonical_json(table)
        k = key_of(state)
        self.rests.setdefault(k[0], state)
        self.number(k)
        self.tables.setdefault(k, table)
        return k

    def number(self, k: Key) -> int:
        """State ``k``'s number (a new state is numbered: refused past ``max_states``)."""
        i = self.index.get(k)
        if i is None:
            if len(self.keys) >= self.max_states:
                raise FightError(
                    f"more than {self.max_states:,} states to expand: too large to solve exactly"
                )
            i = self.index[k] = len(self.keys)
            self.keys.append(k)
            self.over.append(bool(self.rests[k[0]].get("over")))
        return i

    def rest(self, k: Key) -> Json:
        """State ``k``'s JSON, its tracks left out."""
        return self.rests[k[0]]

    def is_over(self, i: int) -> bool:
        """True if state number ``i`` is a fight that is over."""
        return self.over[i]

    def table(self, k: Key) -> Table[Any]:
        """The table of state ``k``, made by acting from its parent where it was worked out
        rather than played (its state JSON must be the one worked out)."""
        path = []
        while k not in self.tables:
            path.append(k)
            k = self.parents[k][0]
        table = self.tables[k]
        for k in reversed(path):
            _, action, faces = self.parents[k]
            table = act_with(table, action, faces, self.count)
            if canonical(table) != k:
                raise FightError(
                    f"{action.actor}'s {action.kind} read their own stress: the states do not "
                    "factor (the rules text says stress affects no roll)"
                )
            self.tables[k] = table
        return table

    def ending(self, k: Key) -> tuple[str, dict[str, int]]:
        """The winner and the damage of final state ``k`` (:func:`.exact_branches.ending_of` a
        part at a time: the winner once per state less its tracks), checked against the
        simulation's outcome where ``k``'s table has been played."""
        winner = self.winners.get(k[0])
        if winner is None:  # who is Taken Out is in the state less its tracks
            winner = self.winners[k[0]] = winner_of(self.rest(k)["characters"])
        damage = {c: damage_of(dict(tracks)) for c, tracks in k[1]}
        table = self.tables.get(k)
        if table is not None:
            outcome = self.conflict.outcome(self.start, table)
            if (outcome.winner, dict(outcome.damage)) != (winner, damage):
                raise FightError(
                    f"the fight's end is read as {winner} winning, damage {damage}; the "
                    f"simulation reads {outcome.winner}, {dict(outcome.damage)}"
                )
        return winner, damage

    def step(self, i: int) -> ChainStep | None:
        """The transitions of state number ``i`` (``None`` if nobody may move and it is not
        over): an attack from a state less its tracks landed on its tracks
        (:mod:`.exact_hits`), else a step worked out for the state less the actor's own
        tracks, else played."""
        if i in self.steps:
            return self.steps[i]
        k = self.keys[i]
        attack = self.attacks.get(k[0])
        if attack is not None:
            landed = attack.branches(k, self.rests)
            if landed is not None:
                return self._record(k, attack.action, landed, attack.below)
        actor = self.rest(k).get("turn")
        mine = [n for n, (c, _) in enumerate(k[1]) if c == actor]
        reduced = None
        if mine:  # the state less the acting character's own tracks ("Stress Tracks")
            at = mine[0]
            reduced = (k[0], (*k[1][:at], (str(actor), ()), *k[1][at + 1 :]))
        if reduced is not None and reduced in self.memo:
            who, action, moves = self.memo[reduced]
            own = k[1][mine[0]]
            return self._record(
                k,
                action,
                [
                    ((rest, tuple(own if c == who else (c, t) for c, t in tracks)), p, dr, faces)
                    for rest, tracks, p, dr, faces in moves
                ],
            )
        table = self.table(k)
        chosen = self._choose(table)
        if chosen is None:
            self.steps[i] = None
            return None
        action, (branches, every) = chosen
        before = round_of(table)
        merged: dict[Key, tuple[Fraction, int, Faces]] = {}
        for faces, p, after in branches:
            k2 = self.know(after)
            held = merged.get(k2)
            dr = round_of(after) - before
            merged[k2] = (p, dr, faces) if held is None else (held[0] + p, held[1], held[2])
        if every:
            self._remember(k, attack_of(k, table, action, branches, self.rests))
        if reduced is not None and action.actor == actor:
            self.memo[reduced] = (
                str(actor),
                action,
                [(k2[0], k2[1], p, dr, faces) for k2, (p, dr, faces) in merged.items()],
            )
        return self._record(k, action, [(k2, p, dr, f) for k2, (p, dr, f) in merged.items()])

    def _record(
        self,
        k: Key,
        action: Action,
        moves: Sequence[tuple[Key, Fraction | int, int, Faces]],
        below: int | None = None,
    ) -> ChainStep:
        """State ``k``'s step: each state it leads to (worked out: made real from ``k`` by
        ``action`` with its faces, if it must be), its chance (a fraction, or with ``below`` a
        whole number over it) and the rounds it adds."""
        found: dict[int, tuple[int, Any, int]] = {}  # a state led to twice: its chances summed
        index = self.index
        for k2, p, dr, faces in moves:
            j = index.get(k2)
            if j is None:
                self.parents[k2] = (k, action, faces)
                j = self.number(k2)
            held = found.get(j)
            found[j] = (j, p, dr) if held is None else (j, held[1] + p, held[2])
        merged = list(found.values())
        step = ChainStep.of(merged) if below is None else ChainStep((below, merged))
        self.steps[self.index[k]] = step
        return step

    def _remember(self, k: Key, attack: Attack | None) -> None:
        """Keep an attack from ``k`` less its tracks, or take in the kinds of hit it adds; a
        state whose attacks do not hold (:func:`.exact_hits.attack_of`) or disagree is never
        landed from again (``None``)."""
        if k[0] not in self.attacks:
            self.attacks[k[0]] = attack
            return
        held = self.attacks[k[0]]
        if held is not None and (attack is None or not held.merge(attack)):
            self.attacks[k[0]] = None

    def _choose(self, table: Table[Any]) -> tuple[Action, tuple[list[Branch], bool]] | None:
        """The default policy's action and its branches — every margin apart where the
        attacks are landed on the tracks (:func:`every_margin`), else merged — and whether
        they are every margin's; a choice the game refuses is dropped and the policy chooses
        again, as the simulator's ``play`` does."""

        def take(action: Action) -> tuple[list[Branch], bool]:
            every = every_margin(table, action, self.count, self.classes) if self.landing else None
            if every is not None:
                return every, True
            return action_branches(table, action, self.count, self.classes), False

        return default_taken(table, self.conflict, take, own=FightError)


def strongly_connected(nodes: Sequence[int], edges: Callable[[int], list[int]]) -> list[list[int]]:
    """The strongly connected components, successors first (Tarjan's, without recursion)."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on: set[int] = set()
    stack: list[int] = []
    out: list[list[int]] = []
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[int, Iterator[int]]] = [(root, iter(edges(root)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(edges(nxt))))
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = []
                    while True:
                        x = stack.pop()
                        on.discard(x)
                        part.append(x)
                        if x == node:
                            break
                    out.append(part)
    return out


Entries = tuple[tuple[int, int, int, int], ...]
"""A component's chances among its own states: (from, to, numerator, denominator), whole
numbers (hashed at once: a fraction is hashed in Python)."""
Inverse = tuple[int, list[list[int]]]
"""``(I - Q)^-1`` as whole numbers over one denominator: the denominator, and the rows."""
Inverses = dict[tuple[int, Entries], Inverse]
"""The inverses worked out in one answer, by component (many components are alike)."""


def inverse(n: int, entries: Entries, known: Inverses) -> Inverse:
    """``(I - Q)^-1`` for the ``n`` states of a component, ``Q`` given by its entries, by
    Gauss-Jordan elimination over fractions, then put over one denominator (remembered in
    ``known``: many components are alike)."""
    held = known.get((n, entries))
    if held is not None:
        return held
    rows = [[ONE if i == j else ZERO for j in range(2 * n)] for i in range(n)]
    for i in range(n):
        rows[i][n + i] = ONE
    for i, j, q, below in entries:
        rows[i][j] -= Fraction(q, below)
    for c in range(n):
        pivot = next(r for r in range(c, n) if rows[r][c] != 0)
        rows[c], rows[pivot] = rows[pivot], rows[c]
        lead = rows[c][c]
        rows[c] = [x / lead for x in rows[c]]
        for r in range(n):
            if r != c and rows[r][c] != 0:
                f = rows[r][c]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[c], strict=True)]
    over = lcm(*(x.denominator for row in rows for x in row[n:]))
    found = (over, [[x.numerator * (over // x.denominator) for x in row[n:]] for row in rows])
    if len(known) < 10_000:
        known[(n, entries)] = found
    return found


Share = tuple[int, int]
"""A chance as a whole number over another, not reduced where made (a fraction is reduced in
Python at every sum: :func:`share_sum` reduces once, in C)."""


def expected_visits(
    part: list[int],
    inflow: Mapping[int, Share],
    inner: Mapping[int, tuple[int, Mapping[int, int]]],
    known: Inverses,
) -> tuple[int, dict[int, int]]:
    """Expected visits to each state of a component, from the mass flowing into it:
    ``v = inflow (I - Q)^-1``, ``Q`` each state's chances to the others (``inner``: a
    denominator, and each state's numerator over it). Whole numbers over one denominator
    (returned first): the mass flowing in put over one, times the inverse's."""
    at = {s: i for i, s in enumerate(part)}
    entries = tuple(
        sorted(
            (i, at[t], q, inner[s][0]) for i, s in enumerate(part) for t, q in inner[s][1].items()
        )
    )
    below, inverted = inverse(len(part), entries, known)
    come = [(at[s], n, d) for s, (n, d) in inflow.items() if n]
    over = lcm(*(d for _, _, d in come))
    scaled = [(inverted[i], n * (over // d)) for i, n, d in come]
    return over * below, {s: sum(row[j] * n for row, n in scaled) for j, s in enumerate(part)}


def share_sum(parts: Sequence[Share]) -> Share:
    """``parts`` summed over one denominator, and reduced."""
    if len(parts) == 1:
        n, over = parts[0]
    else:
        over = lcm(*(d for _, d in parts))
        n = sum(m * (over // d) for m, d in parts)
    g = gcd(n, over)
    return n // g, over // g

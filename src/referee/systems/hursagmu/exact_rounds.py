"""Hursagmu's exact melee, its chain of canonical rounds: each round's step, run forward for the
first rounds and solved to the end (:mod:`referee.systems.hursagmu.exact` explains the model).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Any

from referee.core import Table
from referee.systems.hursagmu.exact_states import ONE, ZERO

__all__ = ["RoundStep", "absorb", "forward"]


Scaled = tuple[int, list[tuple[str, int, int]], list[tuple[Hashable, int]], int]
"""A round's :class:`RoundStep` as whole numbers over one denominator: the denominator, each
(winner, rounds added, number) it ends in, each (next round, number), and ``never``'s number."""


@dataclass(frozen=True)
class RoundStep:
    """One canonical round played to its end: ``ends`` the chance of each (winner, rounds it
    adds) — the winner as the conflict's outcome names it; 1 round, or 2 when the melee ends as
    the next round begins —, ``next`` each canonical round it leads to, with its chance and a
    table in it (the state the procedure made; the table's log is not kept), and ``never`` the
    chance nobody can move and it is not over. ``whole``: the same as whole numbers over one
    denominator (:data:`Scaled`), where the round was played so (else worked out from the
    fractions)."""

    ends: Mapping[tuple[str, int], Fraction]
    next: Mapping[Hashable, tuple[Fraction, Table[Any]]]
    never: Fraction = ZERO
    whole: Scaled | None = field(default=None, compare=False, repr=False)


def _scaled(play: RoundStep) -> Scaled:
    if play.whole is not None:
        return play.whole
    below = lcm(
        play.never.denominator,
        *(q.denominator for q in play.ends.values()),
        *(q.denominator for q, _ in play.next.values()),
    )
    return (
        below,
        [(w, adds, q.numerator * (below // q.denominator)) for (w, adds), q in play.ends.items()],
        [(k, q.numerator * (below // q.denominator)) for k, (q, _) in play.next.items()],
        play.never.numerator * (below // play.never.denominator),
    )


def forward(
    first: Hashable, plays: Mapping[Hashable, RoundStep], horizon: int
) -> tuple[dict[str, Fraction], list[Fraction], Fraction]:
    """The first ``horizon`` rounds run forward: each winner's chance, the chance it ends in
    each round, and the chance it is still going after them (or never ends). A melee that ends
    as the round after the last begins (its round adds 2) ends beyond them: still going after
    them, as the simulation counts its rounds. The chances are whole numbers over one
    denominator a round, made fractions once at the end."""
    scaled: dict[Hashable, Scaled] = {}
    wins: dict[str, int] = {}
    by_round = [0] * horizon
    frontier: dict[Hashable, int] = {first: 1}
    never, beyond, over = 0, 0, 1
    for r in range(1, horizon + 1):
        for k in frontier:
            if k in plays and k not in scaled:
                scaled[k] = _scaled(plays[k])
        common = lcm(*(scaled[k][0] for k in frontier if k in plays))
        wins = {w: n * common for w, n in wins.items()}
        by_round = [n * common for n in by_round]
        never *= common
        beyond *= common
        over *= common
        grown: dict[Hashable, int] = {}
        for k, n in frontier.items():
            if k not in plays:  # not played: the rounds beyond what the time allowed
                grown[k] = grown.get(k, 0) + n * common
                continue
            below, ends, nexts, stuck = scaled[k]
            n *= common // below
            never += n * stuck
            for winner, adds, m in ends:
                if r + adds - 1 > horizon:  # ends in round horizon + 1
                    beyond += n * m
                    continue
                wins[winner] = wins.get(winner, 0) + n * m
                by_round[r + adds - 2] += n * m
            for k2, m in nexts:
                grown[k2] = grown.get(k2, 0) + n * m
        frontier = grown
    return (
        {w: Fraction(n, over) for w, n in wins.items()},
        [Fraction(n, over) for n in by_round],
        Fraction(sum(frontier.values()) + never + beyond, over),
    )


def absorb(
    first: Hashable, plays: Mapping[Hashable, RoundStep]
) -> tuple[dict[str, Fraction], Fraction | None, Fraction]:
    """The melee to its end from ``first``: each winner's chance, the expected rounds
    (``None`` if it may never end) and the chance it never ends. The canonical rounds are an
    absorbing chain, solved one strongly connected set at a time, those it leads to first; a
    set from which no round ends the melee never ends.

    Only a set's own rounds are eliminated (Gauss–Jordan); what it leads to outside is already
    solved and goes in as whole numbers over one denominator (each round's ``next`` scaled to
    theirs, each solved value's columns over theirs), a fraction only once per round: a melee's
    sets are mostly a round alone, looping on itself, and its values' denominators large."""
    winners = sorted({w for play in plays.values() for (w, _) in play.ends})
    column = {w: i for i, w in enumerate(winners)}
    rounds, never = len(winners), len(winners) + 1  # the other two columns
    value: dict[Hashable, tuple[int, list[int]]] = {}  # each column's number, over the first
    for group in _components(plays):
        inside = {k: i for i, k in enumerate(group)}
        matrix = [[ZERO] * len(group) for _ in group]
        rhs: list[list[Fraction]] = []
        for k, i in inside.items():
            below, ends, nexts, stuck = _scaled(plays[k])
            matrix[i][i] += ONE
            outside = [(value[k2], m) for k2, m in nexts if k2 not in inside]
            over = lcm(*{v[0] for v, _ in outside})  # the outside values' denominator
            row = [0] * (never + 1)
            row[never] = stuck
            for winner, adds, m in ends:
                row[column[winner]] += m
                row[rounds] += m * adds
            row[rounds] += sum(m for _, m in nexts)
            row = [x * over for x in row]
            for k2, m in nexts:
                if k2 in inside:
                    matrix[i][inside[k2]] -= Fraction(m, below)
            scaled = [(m * (over // d), numbers) for (d, numbers), m in outside]
            for c in range(never + 1):
                row[c] += sum(m * numbers[c] for m, numbers in scaled)
            rhs.append([Fraction(x, below * over) for x in row])
        solved = _solve(matrix, rhs)
        if solved is None:  # nothing leaves the set: from it the melee never ends
            solved = [[ZERO] * never + [ONE] for _ in group]
        for k, i in inside.items():
            d = lcm(*(x.denominator for x in solved[i]))
            value[k] = (d, [x.numerator * (d // x.denominator) for x in solved[i]])
    d, numbers = value[first]
    answer = [Fraction(x, d) for x in numbers]
    wins = {w: answer[column[w]] for w in winners}
    return wins, (answer[rounds] if answer[never] == 0 else None), answer[never]


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

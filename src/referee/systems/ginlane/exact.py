"""Gin Lane: a fight to Taken Out, solved exactly as an absorbing Markov chain.

Rules text (Gin Lane), "Fighting": "Initiative", "Action: Attack", "Resolving attacks",
"Defence", "Spin", "Stress Tracks", "Taken Out"; RULINGS.md (Gin Lane): a Match deals only the
weapon's damage bonus. The fight is the one the simulation's default policy plays
(its ``simulation`` module): the referee rolls Initiative, then on each turn the character
whose turn it is Attacks the first foe in reach with the weapon in hand, tagging no Aspect (so
no free tag and no Experience point is ever spent on a roll), taking no Consequence and never
conceding; where nobody is in reach it Moves (else Sprints) towards a foe. The fight ends when
one side is left standing.

Nothing of the rules is copied here: every transition is the game's own procedure, taken on
the table with the dice scripted (``Table.act``), and read back from its state JSON and its
roll cards. Three things keep it exact and small:

- **the Initiative's tie loop, summed.** "Initiative" is a 2d6 + Alertness check; the game
  re-rolls a tie among the tied, again and again, so the dice it asks for are unbounded and
  enumerating faces never ends. Each contender's roll is read from the roll card the procedure
  writes (its dice, e.g. ``2d6+2``, and so each total's chance); every combination of totals
  of one round of rolls is played through the procedure. A combination the procedure
  completes is an order of turns; one it does not (it asks for more dice) is a tie among the
  highest, and the procedure is asked to confirm who re-rolls (a round of re-rolls completed
  after it shows exactly who rolled again). A tie among the same contenders starts the same
  contest again, so its value is a geometric series: ``V = (D + Σ T[S'] V(S')) / (1 - T[S])``
  — the contest's odds conditioned on the roll not being that tie — and smaller ties recurse.
- **canonical states.** Tables are merged by the game's state JSON without the round (a
  counter the rules read for nothing else: the rounds are counted on the transitions), and,
  once the fight is over, without the defence totals left standing (no turn follows to read
  them). Each canonical state is expanded once; a round of misses returns to a state already
  seen, so the chain has cycles, solved below.
- **an attack's dice by its margin.** An attack is a check whose roll card gives its margin
  (attack less defence) and the defence's total. Each kind of check (the card's dice and
  odds: ``2d6+3 vs 2d6+2``) is read through the procedure once, a side at a time: every face
  of the attacker's dice, then of the defender's (:func:`_classes`), so the chance of every
  margin is the game's own. From each state the attack is then taken once per margin that
  matters: where no defence total stands on the table, the state after it is a step function
  of the margin ("Resolving attacks": stress is the margin + the damage bonus; "Stress
  Tracks": it rolls up to the next free box, and past the end is Taken Out; "Spin": a failure
  by 4 or more), so the margins are bisected, the check taken only where the states at the
  ends of a run of margins differ (:func:`_by_margin`); where a defence total stands, every
  margin and defence total is taken. Every act checks that the procedure's card shows the
  margin asked for.
- **the acting character's own stress.** "Stress has no effect itself on rolls or
  abilities" ("Stress Tracks"): a character's action does not read their own tracks, so a
  step is worked out once for all the states that differ only in them. A state reached that
  way is made real (by acting from its parent) only when it must be, and its state JSON must
  then be the one worked out, or the answer is refused; a final state's winner and damage are
  checked against the simulation's own outcome wherever its table has been played.

The chain (each canonical state and its transitions, with the rounds each adds) is solved
exactly: its strongly connected components (a state and the rounds of misses that come back to
it) in topological order, each by Gaussian elimination over :class:`~fractions.Fraction`\\ s —
the expected visits from the mass flowing in — so the chance of each way the fight ends and
the expected number of rounds are exact; ``by_round`` runs the same chain forward round by
round. A component nobody leaves (nobody can ever hurt anybody) is a ``stalemate``. With
``rounds=N`` only the first N rounds are solved and ``unfinished`` is exact.

>>> from referee.core import system
>>> sword = {"weapon": "sword", "skills": {"Weapons": 1}}
>>> people = {"moll": {**sword, "side": "society"}, "jack": {**sword, "side": "bravoes"}}
>>> odds = fight_odds(system("ginlane").new_table({"characters": people}), rounds=1)
>>> sum(odds.wins.values()) + odds.unfinished == 1
True
>>> odds.initiative  # equal Alertness: every tie re-rolled, so a fair contest
{'jack': Fraction(1, 2), 'moll': Fraction(1, 2)}
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from math import lcm
from typing import Any

from referee.core import Action, Event, Table, system
from referee.core.markov import ChainError
from referee.core.policies import default_taken
from referee.core.simulation import SimulatedConflict, conflict_of
from referee.dice import roll

__all__ = ["FightError", "FightOdds", "canonical", "fight_odds"]

RULE = "Whole-encounter odds (Gin Lane fight)"
ZERO = Fraction(0)
ONE = Fraction(1)
MAX_STATES = 50_000
"""The most canonical states one answer may reach before it is refused."""
MAX_ACTS = 200_000
"""The most procedure steps one answer may take before it is refused."""
BY_ROUND = 10
"""Rounds shown in ``by_round`` when the whole fight is solved."""
INITIATIVE = "initiative.rolled"
"""The event the game writes when Initiative is decided (its totals and roll cards)."""

Faces = tuple[int, ...]
Json = dict[str, Any]


class FightError(ChainError):
    """The table's fight cannot be solved exactly (the reason says why)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason, RULE)


# -- dice ---------------------------------------------------------------------------------


class _Need(Exception):
    """The scripted faces ran out: the action asks for a die of ``sides`` faces."""

    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class _Script:
    """Faces given in order; then (``fill``) that face for at most ``cap`` more dice, or a
    :class:`_Need`. ``used`` counts the faces handed out."""

    def __init__(self, faces: Sequence[int], fill: int | None = None, cap: int = 64) -> None:
        self.faces, self.fill, self.cap, self.used = tuple(faces), fill, cap, 0
        self.sides: list[int] = []

    def roll(self, sides: int) -> int:
        self.used += 1
        self.sides.append(sides)
        if self.used <= len(self.faces):
            return self.faces[self.used - 1]
        if self.fill is None or self.used > len(self.faces) + self.cap:
            raise _Need(sides)
        return min(self.fill, sides)


@dataclass
class _Count:
    acts: int = 0
    deadline: float | None = None
    time_limit: float | None = None

    def tick(self) -> None:
        self.acts += 1
        if self.acts > MAX_ACTS:
            raise FightError(f"more than {MAX_ACTS:,} procedure steps: too large to solve exactly")
        if self.deadline is not None and self.acts % 256 == 0 and time.monotonic() > self.deadline:
            raise FightError(
                f"{self.acts:,} procedure steps in {self.time_limit:g} s and more to go: "
                "too large to solve exactly within the time given"
            )


def _act(table: Table[Any], action: Action, faces: Sequence[int], count: _Count) -> Table[Any]:
    count.tick()
    return table.act(action, _Script(faces))


def _new_events(before: Table[Any], after: Table[Any]) -> list[Event]:
    return [after.log[i] for i in range(before.version, after.version)]


def _check_cards(before: Table[Any], after: Table[Any]) -> list[Mapping[str, Any]]:
    """The roll cards of the checks (a margin against a defence or a difficulty) an action
    made, in order."""
    cards = []
    for event in _new_events(before, after):
        card = _data(event).get("roll")
        if isinstance(card, Mapping) and card.get("odds") and card.get("margin") is not None:
            cards.append(card)
    return cards


def _data(event: Event) -> dict[str, Any]:
    return dict(event.data)


# -- canonical states ---------------------------------------------------------------------


def _json(table: Table[Any]) -> Json:
    state: Json = dict(table.procedure.state_json(table.state))
    state.pop("round", None)
    if state.get("over"):  # no turn follows: a defence left standing is never read again
        state["characters"] = {c: {**s, "defences": {}} for c, s in state["characters"].items()}
    return state


def _round(table: Table[Any]) -> int:
    state: dict[str, Any] = dict(table.procedure.state_json(table.state))
    return int(state.get("round", 0))


def _dump(state: Json) -> str:
    return json.dumps(state, sort_keys=True, default=str)


Tracks = tuple[tuple[str, tuple[tuple[str, tuple[int, ...]], ...]], ...]
Key = tuple[str, Tracks]
"""A canonical state: the state JSON without the stress tracks (a string), and the boxes
ticked on each character's tracks (kept apart, so that a state differing only in them is made
without writing the whole state again)."""


def _key(state: Json) -> Key:
    chars = state["characters"]
    tracks = tuple(
        (c, tuple((name, tuple(boxes)) for name, boxes in sorted(s["tracks"].items())))
        for c, s in chars.items()
    )
    rest = {**state, "characters": {c: {**s, "tracks": None} for c, s in chars.items()}}
    return _dump(rest), tracks


def canonical(table: Table[Any]) -> Hashable:
    """The fight's canonical state: the game's state JSON without the round (see the module's
    doc), its stress tracks kept apart."""
    return _key(_json(table))


# -- an attack's dice, by margin -----------------------------------------------------------


@dataclass(frozen=True)
class _Class:
    """The faces of one kind of check that give one margin: the chance of each defence total
    (``opponent``) with faces that give it."""

    weight: Fraction
    by_opponent: tuple[tuple[int | None, Fraction, Faces], ...]


def _every_face(
    table: Table[Any], action: Action, count: _Count
) -> Iterator[tuple[Faces, Fraction, Table[Any]]]:
    """Every sequence of faces the action may ask for, with its chance and the table it makes
    (a die at a time, each face ``1/sides``)."""
    stack: list[tuple[Faces, Fraction]] = [((), ONE)]
    while stack:
        faces, weight = stack.pop()
        try:
            after = _act(table, action, faces, count)
        except _Need as need:
            share = weight / need.sides
            stack.extend(((*faces, f), share) for f in range(need.sides, 0, -1))
            continue
        yield faces, weight, after


def _signature(card: Mapping[str, Any], dice: int) -> Hashable:
    odds = card.get("odds") or {}
    return (card.get("rule"), card.get("dice"), tuple(sorted(odds.items())), dice)


def _grouped(found: Mapping[int, Mapping[int | None, tuple[Fraction, Faces]]]) -> dict[int, _Class]:
    return {
        m: _Class(
            sum((w for w, _ in by.values()), ZERO),
            tuple((o, w, f) for o, (w, f) in sorted(by.items(), key=lambda x: x[0] or 0)),
        )
        for m, by in sorted(found.items())
    }


def _classes_by_face(table: Table[Any], action: Action, count: _Count) -> dict[int, _Class]:
    """The check the action makes, every face through the procedure, grouped by margin."""
    found: dict[int, dict[int | None, tuple[Fraction, Faces]]] = {}
    for faces, weight, after in _every_face(table, action, count):
        cards = _check_cards(table, after)
        if len(cards) != 1:
            raise FightError(f"{action.kind} made {len(cards)} checks, not one")
        margin, opponent = int(cards[0]["margin"]), cards[0].get("opponent")
        held = found.setdefault(margin, {}).get(opponent)
        found[margin][opponent] = (weight, faces) if held is None else (held[0] + weight, held[1])
    return _grouped(found)


def _classes(
    table: Table[Any], action: Action, count: _Count, sides: Sequence[int]
) -> dict[int, _Class]:
    """The check the action makes (its dice ``sides``), grouped by margin, read a side at a
    time through the procedure: which dice move the roller's total (the card's ``value``) and
    which the opposition's (``opponent``); every face of the roller's dice with the others at
    1, and every face of the opposition's with the roller's at 1 — the margin is the roller's
    total less what it had to beat, read from the card for each opposing total (a Block's
    strength included). Where the dice do not split so (a die moving both), every face of
    every die is taken (:func:`_classes_by_face`)."""
    n = len(sides)

    def card(faces: Sequence[int]) -> tuple[int, int | None, int]:
        after = _act(table, action, faces, count)
        cards = _check_cards(table, after)
        if len(cards) != 1:
            raise FightError(f"{action.kind} made {len(cards)} checks, not one")
        c = cards[0]
        return int(c["value"]), c.get("opponent"), int(c["margin"])

    base = card([1] * n)
    mine: list[int] = []
    theirs: list[int] = []
    for j in range(n):
        moved = {
            (v != base[0], o != base[1])
            for f in range(2, sides[j] + 1)
            for v, o, _ in [card([f if i == j else 1 for i in range(n)])]
        }
        if any(a and b for a, b in moved) or moved == {(False, False)}:
            return _classes_by_face(table, action, count)
        (mine if any(a for a, _ in moved) else theirs).append(j)

    def each(where: list[int]) -> Iterator[tuple[Faces, Fraction]]:
        for chosen in product(*(range(1, sides[j] + 1) for j in where)):
            faces = [1] * n
            for j, f in zip(where, chosen, strict=True):
                faces[j] = f
            weight = ONE
            for j in where:
                weight /= sides[j]
            yield tuple(faces), weight

    values: dict[int, tuple[Fraction, Faces]] = {}
    for faces, weight in each(mine):
        v, o, _ = card(faces)
        if o != base[1]:
            return _classes_by_face(table, action, count)
        held = values.get(v)
        values[v] = (weight, faces) if held is None else (held[0] + weight, held[1])
    against: dict[int | None, tuple[Fraction, Faces, int]] = {}
    for faces, weight in each(theirs):
        v, o, m = card(faces)
        if v != base[0] or (o in against and against[o][2] != v - m):
            return _classes_by_face(table, action, count)
        held2 = against.get(o)
        against[o] = (
            (weight, faces, v - m) if held2 is None else (held2[0] + weight, held2[1], v - m)
        )
    found: dict[int, dict[int | None, tuple[Fraction, Faces]]] = {}
    for v, (wv, fv) in values.items():
        for o, (wo, fo, beat) in against.items():
            faces = tuple(fv[j] if j in mine else fo[j] for j in range(n))
            by = found.setdefault(v - beat, {})
            held = by.get(o)
            by[o] = (wv * wo, faces) if held is None else (held[0] + wv * wo, held[1])
    return _grouped(found)


def _stands(state: Json) -> bool:
    """True if a defence total stands on the table, or a Block or a grapple is in force: the
    state then reads more of the dice than the margin."""
    return any(c.get("defences") or c.get("block") for c in state["characters"].values())


Branch = tuple[Faces, Fraction, Table[Any]]


def _branches(
    table: Table[Any],
    action: Action,
    count: _Count,
    classes: dict[Hashable, dict[int, _Class]],
) -> list[Branch]:
    """Every table ``action`` may lead to from ``table``, with its chance and faces that give
    it; tables with the same canonical state merged. A check is taken by margin
    (:func:`_by_margin`); any other roll, every face of every die."""
    probe = _Script((), fill=1)
    count.tick()
    first = table.act(action, probe)  # a refusal (RefereeError) is raised as is
    if probe.used == 0:
        return [((), ONE, first)]
    cards = _check_cards(table, first)
    if len(cards) == 1 and len(cards[0].get("faces") or ()) == probe.used:
        mode = _json(table).get("mode")
        sig = (_signature(cards[0], probe.used), mode)
        if sig not in classes:
            classes[sig] = (
                _classes(table, action, count, probe.sides)
                if mode == "a"  # option b re-rolls: the two sides' dice interact
                else _classes_by_face(table, action, count)
            )
        out = _by_margin(table, action, count, classes[sig], first)
    else:
        out = list(_every_face(table, action, count))
    merged: dict[Hashable, Branch] = {}
    for faces, weight, after in out:
        k = canonical(after)
        held = merged.get(k)
        merged[k] = (faces, weight, after) if held is None else (held[0], held[1] + weight, held[2])
    return list(merged.values())


def _by_margin(
    table: Table[Any],
    action: Action,
    count: _Count,
    classes: Mapping[int, _Class],
    probe: Table[Any],
) -> list[Branch]:
    """A check's branches by margin. Where no defence total stands on the table, before or
    after (:func:`_stands`), the state after it is read from the margin alone, and it is a
    step function of the margin ("Resolving attacks": stress is the margin + the damage bonus,
    a Match the bonus, a failure nothing; "Stress Tracks": a hit rolls up to the next free box,
    and past the end is Taken Out — so a bigger margin lands no lower; "Spin": a failure by
    more spins if one by less does): margins between two that give the same state give it too.
    So the margins are bisected — the check taken at both ends of a run, and in its middle only
    where the ends differ. Otherwise every margin and defence total is taken. ``probe``: the
    check taken already (its dice all 1s), used for its margin where it fits."""
    margins = sorted(classes)
    found: dict[int, Table[Any]] = {}
    card = _check_cards(table, probe)[0]  # the check already taken (its dice all 1s)
    if card.get("opponent") == classes[int(card["margin"])].by_opponent[0][0]:
        found[int(card["margin"])] = probe

    def at(m: int) -> Table[Any]:
        if m not in found:
            opponent, _, faces = classes[m].by_opponent[0]
            found[m] = _act(table, action, faces, count)
            _expect(table, found[m], m, opponent)
        return found[m]

    def key(m: int) -> Hashable | None:
        """The state after margin ``m``, or ``None`` if a defence total stands after it."""
        after = _json(at(m))
        return None if _stands(after) else _key(after)

    same: dict[int, int] = {}  # each margin → a margin of its run
    runs = [(0, len(margins) - 1)] if not _stands(_json(table)) else []
    while runs:
        i, j = runs.pop()
        low, high = key(margins[i]), key(margins[j])
        if low is None or high is None:
            same = {}
            break
        if low == high:
            same.update({margins[x]: margins[i] for x in range(i, j + 1)})
        elif j - i == 1:
            same.update({margins[i]: margins[i], margins[j]: margins[j]})
        else:
            runs += [(i, (i + j) // 2), ((i + j) // 2, j)]
    if len(same) == len(margins):
        return [(classes[r].by_opponent[0][2], classes[m].weight, at(r)) for m, r in same.items()]
    out: list[Branch] = []
    for m in margins:
        group = classes[m]
        out.append((group.by_opponent[0][2], group.by_opponent[0][1], at(m)))
        for opponent, weight, faces in group.by_opponent[1:]:
            after = _act(table, action, faces, count)
            _expect(table, after, m, opponent)
            out.append((faces, weight, after))
    return out


def _expect(before: Table[Any], after: Table[Any], margin: int, opponent: int | None) -> None:
    cards = _check_cards(before, after)
    if len(cards) != 1 or cards[0]["margin"] != margin or cards[0].get("opponent") != opponent:
        raise FightError(f"the check did not give the margin {margin} its faces gave before")


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
        source = _Script(faces)
        try:
            total = int(roll(notation, source).total)
        except _Need as need:
            stack.extend(((*faces, f), weight / need.sides) for f in range(need.sides, 0, -1))
            continue
        held = out.get(total)
        out[total] = (weight, faces) if held is None else (held[0] + weight, held[1])
    return out


@dataclass
class _Initiative:
    """The Initiative action, taken through the procedure round of rolls by round of rolls."""

    table: Table[Any]
    action: Action
    count: _Count
    seats: tuple[str, ...] = ()
    notations: dict[str, str] = field(default_factory=dict)
    values: dict[tuple[frozenset[str], tuple[str, ...]], Leaves] = field(default_factory=dict)

    def solve(self) -> Leaves:
        """Every order of turns the Initiative may give, with its chance."""
        event = _data(self._event(self._probe()))
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
        found = [e for e in _new_events(self.table, after) if e.kind == INITIATIVE]
        if len(found) != 1:
            raise FightError("the Initiative action wrote no initiative event")
        return found[0]

    def _probe(self) -> Table[Any]:
        """The Initiative completed once, to read its roll cards: each contender in turn rolls
        high (6s) and the rest low (1s)."""
        for high in range(16):
            source = _Script([1, 1] * high + [6, 6], fill=1, cap=64)
            self.count.tick()
            try:
                return self.table.act(self.action, source)
            except _Need:
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
                after = _act(self.table, self.action, faces, self.count)
            except _Need:
                best = max(total for total, _ in combo)
                tied = frozenset(
                    c for c, (total, _) in zip(who, combo, strict=True) if total == best
                )
                held = ties.get(tied)
                ties[tied] = (p, faces) if held is None else (held[0] + p, held[1])
                continue
            totals = _data(self._event(after))["totals"]
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
                after = _act(self.table, self.action, faces, self.count)
            except _Need:
                continue
            event = _data(self._event(after))
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
class _Step:
    """A state's transitions: (next state, chance, rounds added); ``scaled`` the same chances
    as whole numbers over one denominator (for running the chain forward)."""

    moves: list[tuple[Key, Fraction, int]]
    scaled: tuple[int, list[tuple[Key, int, int]]] = (1, [])

    def __post_init__(self) -> None:
        over = lcm(*(q.denominator for _, q, _ in self.moves))
        self.scaled = (
            over,
            [(k, q.numerator * (over // q.denominator), dr) for k, q, dr in self.moves],
        )


Template = tuple[str, Tracks, Fraction, int, Faces]


@dataclass
class _Explorer:
    """The canonical states the default policy's fight reaches, and their transitions."""

    start: Table[Any]
    conflict: SimulatedConflict
    count: _Count
    max_states: int
    tables: dict[Key, Table[Any]] = field(default_factory=dict)
    states: set[Key] = field(default_factory=set)
    rests: dict[str, Json] = field(default_factory=dict)
    parents: dict[Key, tuple[Key, Action, Faces]] = field(default_factory=dict)
    steps: dict[Key, _Step | None] = field(default_factory=dict)
    memo: dict[Key, tuple[str, Action, list[Template]]] = field(default_factory=dict)
    classes: dict[Hashable, dict[int, _Class]] = field(default_factory=dict)

    def know(self, table: Table[Any]) -> Key:
        state = _json(table)
        k = _key(state)
        self._add(k)
        self.rests.setdefault(k[0], state)
        self.tables.setdefault(k, table)
        return k

    def _add(self, k: Key) -> None:
        if k not in self.states:
            if len(self.states) >= self.max_states:
                raise FightError(
                    f"more than {self.max_states:,} states to expand: too large to solve exactly"
                )
            self.states.add(k)

    def rest(self, k: Key) -> Json:
        """State ``k``'s JSON, its tracks left out."""
        return self.rests[k[0]]

    def is_over(self, k: Key) -> bool:
        return bool(self.rests[k[0]].get("over"))

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
            table = _act(table, action, faces, self.count)
            if canonical(table) != k:
                raise FightError(
                    f"{action.actor}'s {action.kind} read their own stress: the states do not "
                    "factor (the rules text says stress affects no roll)"
                )
            self.tables[k] = table
        return table

    def ending(self, k: Key) -> tuple[str, dict[str, int]]:
        """The winner and the damage of final state ``k`` (:func:`_ending`), checked against
        the simulation's outcome where ``k``'s table has been played."""
        tracks = dict(k[1])
        chars = {
            c: {**s, "tracks": {name: list(boxes) for name, boxes in tracks[c]}}
            for c, s in self.rest(k)["characters"].items()
        }
        winner, damage = _ending({"characters": chars})
        table = self.tables.get(k)
        if table is not None:
            outcome = self.conflict.outcome(self.start, table)
            if (outcome.winner, dict(outcome.damage)) != (winner, damage):
                raise FightError(
                    f"the fight's end is read as {winner} winning, damage {damage}; the "
                    f"simulation reads {outcome.winner}, {dict(outcome.damage)}"
                )
        return winner, damage

    def step(self, k: Key) -> _Step | None:
        """The transitions of state ``k`` (``None`` if nobody may move and it is not over)."""
        if k in self.steps:
            return self.steps[k]
        actor = self.rest(k).get("turn")
        mine = [i for i, (c, _) in enumerate(k[1]) if c == actor]
        reduced = None
        if mine:  # the state less the acting character's own tracks ("Stress Tracks")
            i = mine[0]
            reduced = (k[0], (*k[1][:i], (str(actor), ()), *k[1][i + 1 :]))
        if reduced is not None and reduced in self.memo:
            who, action, moves = self.memo[reduced]
            own = k[1][mine[0]]
            found: list[tuple[Key, Fraction, int]] = []
            for rest, tracks, p, dr, faces in moves:
                k2 = (rest, tuple(own if c == who else (c, t) for c, t in tracks))
                if k2 not in self.states:
                    self._add(k2)
                    self.parents[k2] = (k, action, faces)
                found.append((k2, p, dr))
            self.steps[k] = _Step(found)
            return self.steps[k]
        table = self.table(k)
        chosen = self._choose(table)
        if chosen is None:
            self.steps[k] = None
            return None
        action, branches = chosen
        before = _round(table)
        templates: list[Template] = []
        out = []
        for faces, p, after in branches:
            k2 = self.know(after)
            dr = _round(after) - before
            out.append((k2, p, dr))
            templates.append((k2[0], k2[1], p, dr, faces))
        if reduced is not None and action.actor == actor:
            self.memo[reduced] = (str(actor), action, templates)
        self.steps[k] = _Step(out)
        return self.steps[k]

    def _choose(self, table: Table[Any]) -> tuple[Action, list[Branch]] | None:
        """The default policy's action and its branches; a choice the game refuses is dropped
        and the policy chooses again, as the simulator's ``play`` does."""
        return default_taken(
            table,
            self.conflict,
            lambda action: _branches(table, action, self.count, self.classes),
            own=FightError,
        )


def _components(nodes: Sequence[Key], edges: Callable[[Key], list[Key]]) -> list[list[Key]]:
    """The strongly connected components, successors first (Tarjan's, without recursion)."""
    index: dict[Key, int] = {}
    low: dict[Key, int] = {}
    on: set[Key] = set()
    stack: list[Key] = []
    out: list[list[Key]] = []
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[Key, Iterator[Key]]] = [(root, iter(edges(root)))]
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


def _inverse(n: int, entries: tuple[tuple[int, int, Fraction], ...]) -> list[list[Fraction]]:
    """``(I - Q)^-1`` for the ``n`` states of a component, ``Q`` given by its entries, by
    Gauss-Jordan elimination over fractions (memoised: many components are alike)."""
    held = _INVERSES.get((n, entries))
    if held is not None:
        return held
    rows = [[ONE if i == j else ZERO for j in range(2 * n)] for i in range(n)]
    for i in range(n):
        rows[i][n + i] = ONE
    for i, j, q in entries:
        rows[i][j] -= q
    for c in range(n):
        pivot = next(r for r in range(c, n) if rows[r][c] != 0)
        rows[c], rows[pivot] = rows[pivot], rows[c]
        lead = rows[c][c]
        rows[c] = [x / lead for x in rows[c]]
        for r in range(n):
            if r != c and rows[r][c] != 0:
                f = rows[r][c]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[c], strict=True)]
    inverse = [row[n:] for row in rows]
    if len(_INVERSES) < 10_000:
        _INVERSES[(n, entries)] = inverse
    return inverse


_INVERSES: dict[tuple[int, tuple[tuple[int, int, Fraction], ...]], list[list[Fraction]]] = {}


def _visits(
    part: list[Key], inflow: Mapping[Key, Fraction], inner: Mapping[Key, Mapping[Key, Fraction]]
) -> dict[Key, Fraction]:
    """Expected visits to each state of a component, from the mass flowing into it:
    ``v = inflow (I - Q)^-1`` (the component's own chances are small fractions; the mass
    flowing in is multiplied in last)."""
    at = {s: i for i, s in enumerate(part)}
    entries = tuple(sorted((i, at[t], q) for i, s in enumerate(part) for t, q in inner[s].items()))
    inverse = _inverse(len(part), entries)
    come = [(at[s], p) for s, p in inflow.items() if p]
    return {s: sum((p * inverse[i][j] for i, p in come), ZERO) for j, s in enumerate(part)}


# -- the answer -----------------------------------------------------------------------------


def _both(p: Fraction) -> dict[str, Any]:
    return {"exact": str(p), "value": float(p)}


@dataclass(frozen=True)
class FightOdds:
    """The exact answer: ``wins`` each side's chance to be the one left standing (as the
    simulation names its winners: the side's name, ``"none"`` if nobody is left), within the
    ``horizon`` if one was given, with ``stalemate`` the chance the fight can never end and
    ``unfinished`` the chance it is still going after the horizon; ``taken_out`` each
    character's chance to be Taken Out; ``damage`` the distribution of each character's Health
    stress when it ends (the simulation's damage: the boxes ticked); ``expected_rounds`` (``None``
    if the fight may not end); ``by_round[r - 1]`` the chance it ends in round ``r`` (for the
    horizon, else the first :data:`BY_ROUND` rounds); ``initiative`` each character's chance
    to take the first turn (the Initiative's tie loop summed; a fight under way: whose turn it
    is); ``states`` the canonical states reached, ``acts`` the procedure steps taken."""

    characters: tuple[str, ...]
    wins: Mapping[str, Fraction]
    taken_out: Mapping[str, Fraction]
    damage: Mapping[str, Mapping[int, Fraction]]
    expected_rounds: Fraction | None
    by_round: tuple[Fraction, ...]
    stalemate: Fraction
    unfinished: Fraction
    horizon: int | None
    initiative: Mapping[str, Fraction]
    states: int
    acts: int

    def ended_within(self, rounds: int) -> Fraction:
        """The chance the fight is over after at most ``rounds`` rounds (within ``by_round``)."""
        return sum(self.by_round[:rounds], ZERO)

    @property
    def expected_damage(self) -> dict[str, Fraction]:
        """Each character's expected Health stress at the end (where the fight ends)."""
        return {c: sum((d * p for d, p in dist.items()), ZERO) for c, dist in self.damage.items()}

    def to_json(self) -> dict[str, Any]:
        """Every probability as a fraction string and a float (``referee simulate --json``,
        the web table's answer)."""
        done = not self.unfinished and not self.stalemate
        return {
            "exact": True,
            "model": "gin lane fight",
            "characters": list(self.characters),
            "wins": {k: _both(v) for k, v in self.wins.items()},
            "taken_out": {k: _both(v) for k, v in self.taken_out.items()},
            "damage": {
                c: {str(d): _both(p) for d, p in sorted(dist.items())}
                for c, dist in self.damage.items()
            },
            "expected_damage": (
                {c: _both(v) for c, v in self.expected_damage.items()} if done else None
            ),
            "expected_rounds": None
            if self.expected_rounds is None
            else _both(self.expected_rounds),
            "by_round": [_both(p) for p in self.by_round],
            "stalemate": _both(self.stalemate),
            "unfinished": _both(self.unfinished),
            "horizon": self.horizon,
            "first_turn": {k: _both(v) for k, v in self.initiative.items()},
            "states": self.states,
            "procedure_steps": self.acts,
        }


def _start(
    table: Table[Any], conflict: SimulatedConflict, seat: str | None, explorer: _Explorer
) -> dict[Key, Fraction]:
    """The states the fight begins in, with their chances: the Initiative's tie loop summed."""
    frontier: dict[Key, Fraction] = {explorer.know(table): ONE}
    for action in conflict.begin(table, seat):
        nxt: dict[Key, Fraction] = {}
        for k, p in frontier.items():
            t = explorer.table(k)
            if action.kind == "initiative":
                leaves = [
                    (q, after)
                    for q, after, _ in _Initiative(t, action, explorer.count).solve().values()
                ]
            else:
                leaves = [
                    (q, after)
                    for _, q, after in _branches(t, action, explorer.count, explorer.classes)
                ]
            for q, after in leaves:
                k2 = explorer.know(after)
                nxt[k2] = nxt.get(k2, ZERO) + p * q
        frontier = nxt
    return frontier


FIGHTERS = 2
"""The most characters a fight solved exactly may have (a third multiplies the states past
what an answer's time allows: docs/simulate.md)."""


def fight_odds(
    table: Table[Any],
    seat: str | None = None,
    *,
    rounds: int | None = None,
    time_limit: float | None = None,
    by_round: int = BY_ROUND,
    max_states: int = MAX_STATES,
) -> FightOdds:
    """The exact odds of the fight the default policy plays from ``table`` (the one under way,
    else the simulation's: Initiative first): the whole fight, or (``rounds=N``) its first N
    rounds with what is still going on ``unfinished``. Refused (:class:`FightError`) past
    ``time_limit`` seconds or ``max_states`` canonical states."""
    if table.procedure is not system("ginlane").procedure:
        raise FightError(f"a fight to Taken Out is a Gin Lane conflict, not {table.system}")
    if rounds is not None and rounds < 1:
        raise FightError(f"rounds must be at least 1, not {rounds}")
    fighters = table.procedure.characters(table.state)
    if len(fighters) > FIGHTERS:
        # measured: the three-character examples pass 60 s; refused at once, not after it
        raise FightError(
            f"the exact model is a fight of {FIGHTERS} characters; this one has "
            f"{len(fighters)} ({', '.join(fighters)}): estimates only"
        )
    conflict = conflict_of(table)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    count = _Count(deadline=deadline, time_limit=time_limit)
    explorer = _Explorer(table, conflict, count, max_states)
    start = _start(table, conflict, seat, explorer)
    first: dict[str, Fraction] = {}
    for k, p in start.items():
        turn = str(explorer.rest(k).get("turn"))
        first[turn] = first.get(turn, ZERO) + p
    round0 = {k: _round(explorer.table(k)) for k in start}
    horizon = rounds if rounds is not None else by_round
    ended, ends_by_round, unfinished = _forward(explorer, start, round0, horizon)
    if rounds is None:
        ended, expected, stalemate = _solve(explorer, start, round0)
        unfinished = ZERO
    else:
        expected = None if unfinished else _expected(explorer, ended)
        stalemate = ZERO
    return _summary(explorer, ended, expected, ends_by_round, stalemate, unfinished, rounds, first)


def _forward(
    explorer: _Explorer, start: Mapping[Key, Fraction], round0: Mapping[Key, int], horizon: int
) -> tuple[dict[tuple[Key, int], Fraction], tuple[Fraction, ...], Fraction]:
    """The chain run forward an action at a time for ``horizon`` rounds: the final states
    reached (with the round they ended in), the chance it ends in each round, and the chance
    it is still going after the horizon. The chances are whole numbers over one denominator
    per step, made fractions once at the end (exact, and far quicker than a fraction each)."""
    over = lcm(*(p.denominator for p in start.values()))
    frontier = {(k, round0[k]): p.numerator * (over // p.denominator) for k, p in start.items()}
    steps: list[tuple[int, dict[tuple[Key, int], int], int]] = []  # (denominator, ended, left)
    while frontier:
        going: list[tuple[int, int, _Step]] = []
        ended: dict[tuple[Key, int], int] = {}
        left = 0
        for (k, r), n in frontier.items():
            if explorer.is_over(k):
                ended[(k, r)] = ended.get((k, r), 0) + n
                continue
            step = explorer.step(k) if r <= horizon else None
            if step is None:  # past the horizon, or nobody may move
                left += n
                continue
            going.append((r, n, step))
        steps.append((over, ended, left))
        common = lcm(*{step.scaled[0] for *_, step in going})
        nxt: dict[tuple[Key, int], int] = {}
        for r, n, step in going:
            below, moves = step.scaled
            n *= common // below
            for k2, m, dr in moves:
                where = (k2, r + dr)
                nxt[where] = nxt.get(where, 0) + n * m
        over *= common
        frontier = nxt
    total: dict[tuple[Key, int], int] = {}
    unfinished = 0
    for below, ended, left in steps:
        scale = over // below
        unfinished += left * scale
        for where, n in ended.items():
            total[where] = total.get(where, 0) + n * scale
    finals = {where: Fraction(n, over) for where, n in total.items()}
    by_round = [0] * horizon
    for (_, r), n in total.items():
        if 1 <= r <= horizon:
            by_round[r - 1] += n
    return finals, tuple(Fraction(n, over) for n in by_round), Fraction(unfinished, over)


def _expected(explorer: _Explorer, ended: Mapping[tuple[Key, int], Fraction]) -> Fraction:
    return sum((r * p for (_, r), p in ended.items()), ZERO)


def _solve(
    explorer: _Explorer, start: Mapping[Key, Fraction], round0: Mapping[Key, int]
) -> tuple[dict[tuple[Key, int], Fraction], Fraction | None, Fraction]:
    """The whole fight: every state reached, then its components in topological order, the
    mass flowing in solved for its expected visits. Returns each final state's chance (with
    round 0: the rounds are in the expectation), the expected final round (``None`` if it may
    never end) and the chance of a stalemate."""
    seen = set(start)
    todo = list(start)
    while todo:
        k = todo.pop()
        if explorer.is_over(k):
            continue
        step = explorer.step(k)
        for k2, _, _ in step.moves if step else ():
            if k2 not in seen:
                seen.add(k2)
                todo.append(k2)
    live = sorted(k for k in seen if not explorer.is_over(k))

    def succ(k: Key) -> list[Key]:
        step = explorer.steps[k]
        return [k2 for k2, _, _ in step.moves if not explorer.is_over(k2)] if step else []

    parts = _components(live, succ)
    mass: dict[Key, Fraction] = dict(start)
    ended: dict[tuple[Key, int], Fraction] = {}
    expected: Fraction | None = sum((p * round0[k] for k, p in start.items()), ZERO)
    stalemate = ZERO
    for part in reversed(parts):
        inside = set(part)
        inflow = {s: mass.pop(s) for s in part if s in mass}
        if not inflow:
            continue
        inner: dict[Key, dict[Key, Fraction]] = {}
        leaving = False
        for s in part:
            step = explorer.steps[s]
            inner[s] = {}
            for k2, q, _ in step.moves if step else ():
                if k2 in inside:
                    inner[s][k2] = inner[s].get(k2, ZERO) + q
                else:
                    leaving = True
        if not leaving:  # nobody ever leaves: the fight never ends from here
            stalemate += sum(inflow.values(), ZERO)
            expected = None
            continue
        visits = _visits(part, inflow, inner)
        for s, v in visits.items():
            step = explorer.steps[s]
            for k2, q, dr in step.moves if step else ():
                flow = v * q
                if dr and expected is not None:
                    expected += flow * dr
                if k2 in inside:
                    continue
                if explorer.is_over(k2):
                    ended[(k2, 0)] = ended.get((k2, 0), ZERO) + flow
                else:
                    mass[k2] = mass.get(k2, ZERO) + flow
    for k, p in mass.items():  # begun over (or only final states left)
        if explorer.is_over(k):
            ended[(k, 0)] = ended.get((k, 0), ZERO) + p
    return ended, expected, stalemate


def _ending(state: Json) -> tuple[str, dict[str, int]]:
    """What the simulation counts of a fight that is over (``conflicts._ginlane_outcome``):
    the side left standing (``"none"`` if nobody is) and each character's Health stress, the
    boxes ticked. Checked against the simulation's own outcome wherever the state's table has
    been played (:meth:`_Explorer.ending`)."""
    chars = state["characters"]
    left = sorted({str(s.get("side", c)) for c, s in chars.items() if not s.get("taken_out")})
    winner = ",".join(left) if len(left) == 1 else ("none" if not left else "unfinished")
    damage = {c: sum(int(x) for x in s["tracks"].get("Health", [])) for c, s in chars.items()}
    return winner, damage


def _summary(
    explorer: _Explorer,
    ended: Mapping[tuple[Key, int], Fraction],
    expected: Fraction | None,
    by_round: tuple[Fraction, ...],
    stalemate: Fraction,
    unfinished: Fraction,
    horizon: int | None,
    first: Mapping[str, Fraction],
) -> FightOdds:
    begun = _json(explorer.start)["characters"]
    chars = tuple(begun)
    wins: dict[str, Fraction] = dict.fromkeys(
        sorted({str(s.get("side", c)) for c, s in begun.items()}), ZERO
    )
    taken = dict.fromkeys(chars, ZERO)
    damage: dict[str, dict[int, Fraction]] = {c: {} for c in chars}
    for (k, _), p in ended.items():
        winner, hurt = explorer.ending(k)
        wins[winner] = wins.get(winner, ZERO) + p
        state = explorer.rest(k)["characters"]
        for c in chars:
            if state[c].get("taken_out"):
                taken[c] += p
            damage[c][hurt[c]] = damage[c].get(hurt[c], ZERO) + p
    return FightOdds(
        chars,
        dict(sorted(wins.items())),
        taken,
        damage,
        expected,
        by_round,
        stalemate,
        unfinished,
        horizon,
        dict(sorted(first.items())),
        len(explorer.states),
        explorer.count.acts,
    )

"""Intrigue in the Clouds: a duel to a knock-out, solved exactly as an absorbing Markov chain.

Rules text (Intrigue in the Clouds), "Initiative", "Combat Actions" (Attacking), "Doing Damage"
and "Taking Damage"; RULINGS.md: ties in initiative resolve simultaneously.

The duel is two characters who Attack each other every round until one side is Knocked Out.
Each attack hits with a fixed chance and does a fixed damage, so the state of the duel is the
number of hits each side has taken: a chain over ``(hits on A, hits on B)`` with at most
(hits to knock A out) × (hits to knock B out) states. A round moves it forward or leaves it
where it was (both miss), so each state is solved once, in order of total hits, with the
self-loop summed as a geometric series: exact :class:`~fractions.Fraction` answers, no tree.

Nothing of the rules is copied here. :func:`duel_from_table` asks the game's own procedure,
through the table contract, for every number the chain needs:

- the chance of each Attack is the odds preview of the game's own check before it is rolled;
- the damage of a hit, how many hits knock a character out and whether that kills them are
  read from the events the procedure produces when a hit is forced (scripted dice);
- who goes first: "the character who started the combat goes first" in round 1, then the
  Combat Stats from the state (highest first, ties simultaneous).

So the chain and the rules cannot disagree (``tests/sim`` checks it against enumeration through
the procedure). What it does not model: Defensive Actions, Grabs, escapes, groups, surprise and
mental abilities — the duel's policy is "Attack the other every round".

>>> a = Duelist("ann", hit=Fraction(1, 2), damage=4, knock_out=1, dies=False, rank=1)
>>> b = Duelist("bob", hit=Fraction(1, 2), damage=4, knock_out=1, dies=False, rank=1)
>>> odds = duel_odds(Duel(a, b))
>>> odds.wins["ann"] + odds.wins["bob"] + odds.both_out == 1
True
>>> odds.wins["ann"] > odds.wins["bob"]        # ann starts: she strikes first in round 1
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

from referee.core import Action, RuleError, Table, Viewer, system
from referee.dice import ScriptedSource

__all__ = [
    "Duel",
    "DuelOdds",
    "Duelist",
    "duel_from_table",
    "duel_odds",
]

ZERO = Fraction(0)
ONE = Fraction(1)
STALEMATE = "stalemate"
"""The outcome of a duel in which neither side can ever hit."""

_State = tuple[int, int]


@dataclass(frozen=True)
class Duelist:
    """One side of a duel: ``hit`` is the chance their Attack hits the other, ``damage`` what
    each hit *they take* does, ``knock_out`` how many such hits Knock them Out, ``dies`` whether
    that knock-out kills them when the combat ends, ``rank`` their initiative after round 1."""

    id: str
    hit: Fraction
    damage: int
    knock_out: int
    dies: bool
    rank: int


@dataclass(frozen=True)
class Duel:
    """Two duelists; ``a`` started the combat (and so goes first in round 1)."""

    a: Duelist
    b: Duelist

    @property
    def later_order(self) -> str:
        """Who acts first from round 2: ``"a"``, ``"b"`` or ``"both"`` (a tie: simultaneous)."""
        if self.a.rank == self.b.rank:
            return "both"
        return "a" if self.a.rank > self.b.rank else "b"


@dataclass(frozen=True)
class DuelOdds:
    """The exact answer: each way the duel ends, with its probability.

    ``outcomes`` maps ``(hits on a, hits on b)`` at the end to its probability (plus
    ``"stalemate"`` if nobody can ever hit); ``wins`` each side's chance to be the one left
    standing; ``both_out`` both Knocked Out in the same place (a tie in initiative);
    ``deaths`` each side's chance to die of it; ``damage`` the distribution of damage each side
    takes; ``expected_rounds`` (``None`` if the duel may never end); ``by_round[r - 1]`` the
    chance it ends in round ``r``.
    """

    duel: Duel
    outcomes: Mapping[_State | str, Fraction]
    wins: Mapping[str, Fraction]
    both_out: Fraction
    stalemate: Fraction
    deaths: Mapping[str, Fraction]
    damage: Mapping[str, Mapping[int, Fraction]]
    expected_rounds: Fraction | None
    by_round: tuple[Fraction, ...] = field(default=())

    def ended_within(self, rounds: int) -> Fraction:
        """The chance the duel is over after at most ``rounds`` rounds (within the horizon)."""
        return sum(self.by_round[:rounds], ZERO)

    def to_json(self) -> dict[str, Any]:
        """Every probability as a fraction string and a float, for ``--json``."""

        def both(p: Fraction) -> dict[str, Any]:
            return {"exact": str(p), "value": float(p)}

        return {
            "exact": True,
            "characters": [self.duel.a.id, self.duel.b.id],
            "wins": {k: both(v) for k, v in self.wins.items()},
            "both_out": both(self.both_out),
            "stalemate": both(self.stalemate),
            "deaths": {k: both(v) for k, v in self.deaths.items()},
            "damage": {
                k: {str(d): both(p) for d, p in sorted(dist.items())}
                for k, dist in self.damage.items()
            },
            "expected_rounds": None if self.expected_rounds is None else both(self.expected_rounds),
            "by_round": [both(p) for p in self.by_round],
        }


# -- the chain ----------------------------------------------------------------------------


def _attack(
    out: dict[_State, Fraction], state: _State, p: Fraction, target: int, limit: int, w: Fraction
) -> list[tuple[_State, Fraction]]:
    """One attack on side ``target`` (0 = a, 1 = b): the branches still going on."""
    going = []
    if p:
        hit = (state[0] + 1, state[1]) if target == 0 else (state[0], state[1] + 1)
        if hit[target] >= limit:
            out[hit] = out.get(hit, ZERO) + w * p
        else:
            going.append((hit, w * p))
    if p != ONE:
        going.append((state, w * (1 - p)))
    return going


def _round(duel: Duel, state: _State, order: str) -> dict[_State, Fraction]:
    """The states after one round from ``state`` (both sides Attack), with their chances."""
    a, b = duel.a, duel.b
    out: dict[_State, Fraction] = {}
    if order == "both":  # simultaneous: both attacks against the state before them
        for hit_b, pb in ((1, a.hit), (0, 1 - a.hit)):
            for hit_a, pa in ((1, b.hit), (0, 1 - b.hit)):
                w = pa * pb
                if w:
                    nxt = (min(state[0] + hit_a, a.knock_out), min(state[1] + hit_b, b.knock_out))
                    out[nxt] = out.get(nxt, ZERO) + w
        return out
    first, second = (0, 1) if order == "a" else (1, 0)
    sides = (a, b)
    # the first attacks the second; a Knocked Out second's action lapses
    for mid, w in _attack(out, state, sides[first].hit, second, sides[second].knock_out, ONE):
        for end, v in _attack(out, mid, sides[second].hit, first, sides[first].knock_out, w):
            out[end] = out.get(end, ZERO) + v
    return out


def _is_over(duel: Duel, state: _State) -> bool:
    return state[0] >= duel.a.knock_out or state[1] >= duel.b.knock_out


@cache
def duel_odds(duel: Duel, horizon: int = 30) -> DuelOdds:
    """The exact odds of ``duel``, with ``by_round`` for the first ``horizon`` rounds.

    >>> sure = Duelist("x", hit=Fraction(1), damage=5, knock_out=1, dies=False, rank=2)
    >>> odds = duel_odds(Duel(sure, sure))
    >>> odds.wins["x"], odds.expected_rounds, odds.by_round[:2]
    (Fraction(1, 1), Fraction(1, 1), (Fraction(1, 1), Fraction(0, 1)))
    """
    later = duel.later_order
    value: dict[_State, dict[_State | str, Fraction]] = {}
    rounds: dict[_State, Fraction | None] = {}
    states = [(x, y) for x in range(duel.a.knock_out) for y in range(duel.b.knock_out)]
    for state in sorted(states, key=lambda s: -(s[0] + s[1])):
        step = _round(duel, state, later)
        stay = step.pop(state, ZERO)
        if stay == ONE:
            value[state], rounds[state] = {STALEMATE: ONE}, None
            continue
        dist: dict[_State | str, Fraction] = {}
        expected: Fraction | None = ONE
        for nxt, p in step.items():
            for end, q in value.get(nxt, {nxt: ONE}).items():
                dist[end] = dist.get(end, ZERO) + p * q
            after = rounds.get(nxt, ZERO)
            expected = None if after is None or expected is None else expected + p * after
        scale = 1 / (1 - stay)
        value[state] = {k: v * scale for k, v in dist.items()}
        rounds[state] = None if expected is None else expected * scale
    # round 1: the starter (a) goes first
    first = _round(duel, (0, 0), "a")
    outcomes: dict[_State | str, Fraction] = {}
    expected_rounds: Fraction | None = ONE
    for nxt, p in first.items():
        for end, q in value.get(nxt, {nxt: ONE}).items():
            outcomes[end] = outcomes.get(end, ZERO) + p * q
        after = rounds.get(nxt, ZERO)
        expected_rounds = (
            None if after is None or expected_rounds is None else expected_rounds + p * after
        )
    return _summary(duel, outcomes, expected_rounds, _by_round(duel, first, later, horizon))


def _by_round(
    duel: Duel, first: dict[_State, Fraction], later: str, horizon: int
) -> tuple[Fraction, ...]:
    """The chance the duel ends in each round 1…horizon: the chain run forward."""
    ended = [sum((p for s, p in first.items() if _is_over(duel, s)), ZERO)]
    alive = {s: p for s, p in first.items() if not _is_over(duel, s)}
    steps: dict[_State, dict[_State, Fraction]] = {}
    while len(ended) < horizon:
        nxt: dict[_State, Fraction] = {}
        done = ZERO
        for state, p in alive.items():
            step = steps.get(state)
            if step is None:
                step = steps[state] = _round(duel, state, later)
            for s, q in step.items():
                if _is_over(duel, s):
                    done += p * q
                else:
                    nxt[s] = nxt.get(s, ZERO) + p * q
        ended.append(done)
        alive = nxt
    return tuple(ended)


def _summary(
    duel: Duel,
    outcomes: dict[_State | str, Fraction],
    expected_rounds: Fraction | None,
    by_round: tuple[Fraction, ...],
) -> DuelOdds:
    a, b = duel.a, duel.b
    wins = {a.id: ZERO, b.id: ZERO}
    deaths = {a.id: ZERO, b.id: ZERO}
    damage: dict[str, dict[int, Fraction]] = {a.id: {}, b.id: {}}
    both_out = stalemate = ZERO
    for end, p in outcomes.items():
        if isinstance(end, str):
            stalemate += p
            continue
        a_out, b_out = end[0] >= a.knock_out, end[1] >= b.knock_out
        if a_out and b_out:
            both_out += p
        elif b_out:
            wins[a.id] += p
        else:
            wins[b.id] += p
        for side, hits, out in ((a, end[0], a_out), (b, end[1], b_out)):
            taken = hits * side.damage
            damage[side.id][taken] = damage[side.id].get(taken, ZERO) + p
            if out and side.dies:
                deaths[side.id] += p
    return DuelOdds(
        duel, outcomes, wins, both_out, stalemate, deaths, damage, expected_rounds, by_round
    )


# -- reading the duel from a table, through the procedure --------------------------------

_REFEREE = Viewer("referee")
_ALWAYS_HIT = (6, 6, 6)


class DuelError(RuleError):
    """The table cannot be read as a two-character duel of Attacks."""

    def __init__(self, reason: str) -> None:
        super().__init__("Whole-encounter odds (Intrigue duel)", reason)


def _sheets(table: Table[Any]) -> dict[str, Any]:
    state: dict[str, Any] = dict(table.procedure.state_json(table.state))
    characters: dict[str, Any] = state["characters"]
    return characters


def _new_events(before: Table[Any], after: Table[Any]) -> list[Any]:
    return [after.log[i] for i in range(before.version, after.version)]


def _declarer(table: Table[Any], who: list[str]) -> str | None:
    for c in who:
        if any(choice.kind == "declare" for choice in table.legal_actions(c)):
            return c
    return None


def _probe(table: Table[Any], attacker: str, defender: str) -> tuple[Fraction, int, int, bool]:
    """``attacker`` starts a combat on ``defender`` and Attacks every round while
    ``defender`` holds; each hit forced by the dice. Returns the chance of the Attack (the
    game's own odds preview), the damage of a hit, the hits to Knock the defender Out, and
    whether that kills them."""
    t = table.act(Action(attacker, "start_combat", {"targets": [defender]}), None)
    chance: Fraction | None = None
    hits = damage = 0
    for _ in range(200):
        waiting = [attacker, defender]
        while (who := _declarer(t, waiting)) is not None:
            waiting.remove(who)
            params = (
                {"action": "attack", "target": defender} if who == attacker else {"action": "hold"}
            )
            t = t.act(Action(who, "declare", params), None)
        previews = t.procedure.previews(t.state, _REFEREE)
        if len(previews) != 1:
            raise DuelError(f"expected one Attack to preview, found {len(previews)}")
        p = Fraction(previews[0].odds.get("success", "0"))
        if chance is not None and p != chance:
            raise DuelError(f"{attacker}'s chance to hit changes from {chance} to {p}")
        chance = p
        if p == 0:
            return p, 0, 1, False
        after = t.act(Action("referee", "resolve", {}), ScriptedSource(_ALWAYS_HIT))
        for event in _new_events(t, after):
            if event.kind == "damage.taken":
                hits += 1
                damage = int(event.data["amount"])
        t = after
        knocked = _sheets(t)[defender]
        if knocked["knocked_out"] or knocked["dead"]:  # the dead are no longer Knocked Out
            return p, damage, hits, bool(knocked["dead"])
        t = t.act(Action("referee", "resolve", {}), None)  # the held action lapses
    raise DuelError(f"{defender} is never Knocked Out by {attacker}'s Attacks")


def duel_from_table(table: Table[Any], starter: str, target: str) -> Duel:
    """The duel that ``starter`` would start on ``target`` at ``table``, read from the game's
    own procedure (see the module's doc). The table must be one of Intrigue in the Clouds with
    neither character in a combat."""
    if table.procedure is not system("intrigue").procedure:
        raise DuelError(
            f"a duel of Attacks is an Intrigue in the Clouds combat, not {table.system}"
        )
    hit_a, damage_b, knock_b, dies_b = _probe(table, starter, target)
    hit_b, damage_a, knock_a, dies_a = _probe(table, target, starter)
    sheets = _sheets(table)
    return Duel(
        Duelist(starter, hit_a, damage_a, knock_a, dies_a, int(sheets[starter]["combat"])),
        Duelist(target, hit_b, damage_b, knock_b, dies_b, int(sheets[target]["combat"])),
    )

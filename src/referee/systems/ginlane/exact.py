"""Gin Lane: a fight to Taken Out, solved exactly as an absorbing Markov chain.

Rules text (Gin Lane), "Fighting": "Initiative", "Action: Attack", "Resolving attacks",
"Defence", "Spin", "Stress Tracks", "Taken Out"; RULINGS.md (Gin Lane): a Match deals only the
weapon's damage bonus. The fight is the one the simulation's default policy plays
(its ``simulation`` module): the referee rolls Initiative, then on each turn the character
whose turn it is Attacks the first foe in reach with the weapon in hand, tagging no Aspect (so
no free tag and no Experience point is ever spent on a roll), taking no Consequence and never
conceding; where nobody is in reach it Moves (else Sprints) towards a foe. The fight ends when
one side is left standing. What an action waits for (the target's defence, her hit) is
answered within the same step, as the policy answers it: each prompt's default.

Nothing of the rules is copied here: every transition is the game's own procedure, taken on
the table with the dice scripted (``Table.act``), and read back from its state JSON and its
roll cards. These keep it exact and small:

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
  counter the rules read for nothing else: the rounds are counted on the transitions), without
  the Aspects a spin leaves (below), and, once the fight is over, without the defence totals
  left standing (no turn follows to read them). Each canonical state is expanded once; a
  round of misses returns to a state already seen, so the chain has cycles, solved below.
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
- **an attack landed on the tracks.** Nor does an attack read its target's tracks: they only
  take what lands. So an attack is played once per state less every track, at every margin
  (:func:`.exact_branches.every_margin`), each branch remembered as the stress it dealt (its
  ``stress.taken`` event) and the rest of the state after it; from a state that differs only
  in the tracks its hits land through the game's own ``StressTrack.hit``
  (:mod:`.exact_hits`, checked against the procedure wherever an attack is played). The duel
  at the Crown's 8,193 states (as they were then) took 606 procedure steps (2,772 before, an
  attack played from each state less the actor's own tracks).
- **the spin's free tag.** "Spin": a defence better by 4 or more leaves the attacker a
  temporary disadvantage Aspect (Over-Extended, :func:`.defence.spin`) the defender's side may
  free-tag once, until the attacker's next turn, when it lapses by itself
  (:func:`.turns.after_turn_started`). The default policy's fight never reads it. The Aspects
  in play are read by :func:`.aspects.resolve_tags` (only those an action tags: the policy's
  attack and the defence prompt's default tag none) and :func:`.aspects.taggable` (the
  ``tags`` an attack or a defence offers, a domain the policy takes nothing of); and, "Aspects
  as Enablers", an Aspect makes choices legal — a grapple needs one on its target to lay
  hands on (:func:`.grapple.grapple_choices`), a manoeuvre may remove one from oneself
  (:func:`.manoeuvres.manoeuvre_choices`) — of kinds the policy never takes while it may
  attack, close with a foe or take a kind it prefers (:func:`.simulation.pick`, the
  conflict's ``preference``: an action is chosen by its kind, then the first target). So the
  spin's Aspects, and their names in ``aspect_names``, are left out of the canonical state:
  only the spin's own (:func:`.exact_branches.is_spin_aspect`: Over-Extended lapsing at its
  bearer's turn; a manoeuvre's Aspect may bear the name, but lasts the scene, and is kept).
  ``tests/sim/test_exact_ginlane_spin.py`` plays the policy's step from states of every
  example's chain with the Aspect and without: the same action, faces, chances and states
  after. It halves the states (the duel at the Crown's 8,193 to 4,097, with 606 steps to 518).
- **the acting character's own stress.** "Stress has no effect itself on rolls or
  abilities" ("Stress Tracks"): a character's action does not read their own tracks, so a
  step is worked out once for all the states that differ only in them. A state reached that
  way is made real (by acting from its parent) only when it must be, and its state JSON must
  then be the one worked out, or the answer is refused; a final state's winner and damage are
  checked against the simulation's own outcome wherever its table has been played.

**Too large, said first.** Before anything is played, a fight of more than two characters is
refused, and a fight of two whose sets of Health boxes (each a state of its own) are more
states than allowed, or than the time given allows at 0.13 ms a state (:func:`_too_large`).

The chain (each canonical state, numbered once, and its transitions, with the rounds each
adds) is solved
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

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any

from referee.core import Table, system
from referee.core.markov import collector_paused
from referee.core.simulation import SimulatedConflict, conflict_of
from referee.systems.ginlane.exact_branches import (
    BY_ROUND,
    MAX_STATES,
    ONE,
    ZERO,
    FightError,
    Work,
    action_branches,
    canonical,
    canonical_json,
    round_of,
)
from referee.systems.ginlane.exact_chain import (
    ChainStep,
    Explorer,
    InitiativeContest,
    Inverses,
    Share,
    expected_visits,
    share_sum,
    strongly_connected,
)

__all__ = ["FightError", "FightOdds", "canonical", "fight_odds"]

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
    table: Table[Any], conflict: SimulatedConflict, seat: str | None, explorer: Explorer
) -> dict[int, Fraction]:
    """The states the fight begins in (their numbers), with their chances: the Initiative's
    tie loop summed."""
    frontier: dict[int, Fraction] = {explorer.number(explorer.know(table)): ONE}
    for action in conflict.begin(table, seat):
        nxt: dict[int, Fraction] = {}
        for k, p in frontier.items():
            t = explorer.table(explorer.keys[k])
            if action.kind == "initiative":
                leaves = [
                    (q, after)
                    for q, after, _ in InitiativeContest(t, action, explorer.count).solve().values()
                ]
            else:
                leaves = [
                    (q, after)
                    for _, q, after in action_branches(t, action, explorer.count, explorer.classes)
                ]
            for q, after in leaves:
                k2 = explorer.number(explorer.know(after))
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
    landing: bool = True,
) -> FightOdds:
    """The exact odds of the fight the default policy plays from ``table`` (the one under way,
    else the simulation's: Initiative first): the whole fight, or (``rounds=N``) its first N
    rounds with what is still going on ``unfinished``. Refused (:class:`FightError`) past
    ``time_limit`` seconds or ``max_states`` canonical states. ``landing``: whether an attack
    is landed on the tracks from a state less them (:mod:`.exact_hits`; the tests compare the
    answer without)."""
    with collector_paused():  # the explorer's states let go within it, the answer kept
        return _fight_odds(table, seat, rounds, time_limit, by_round, max_states, landing)


def _fight_odds(
    table: Table[Any],
    seat: str | None,
    rounds: int | None,
    time_limit: float | None,
    by_round: int,
    max_states: int,
    landing: bool,
) -> FightOdds:
    """:func:`fight_odds`'s work, its collector paused."""
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
    _too_large(table, fighters, max_states, time_limit)
    conflict = conflict_of(table)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    count = Work(deadline=deadline, time_limit=time_limit)
    explorer = Explorer(table, conflict, count, max_states, landing=landing)
    start = _start(table, conflict, seat, explorer)
    first: dict[str, Fraction] = {}
    for k, p in start.items():
        turn = str(explorer.rest(explorer.keys[k]).get("turn"))
        first[turn] = first.get(turn, ZERO) + p
    round0 = {k: round_of(explorer.table(explorer.keys[k])) for k in start}
    horizon = rounds if rounds is not None else by_round
    ended, ends_by_round, unfinished = _forward(
        explorer, start, round0, horizon, finals=rounds is not None
    )
    if rounds is None:
        ended, expected, stalemate = _solve(explorer, start, round0)
        unfinished = ZERO
    else:
        expected = None if unfinished else _expected(explorer, ended)
        stalemate = ZERO
    return _summary(explorer, ended, expected, ends_by_round, stalemate, unfinished, rounds, first)


SECONDS_PER_STATE = 0.00013
"""CPU seconds a canonical state costs, measured: the duel at the Crown's 8,193 in 1.1 s, the
fists' 32,769 in 3.7 s (docs/performance.md, "simulate (issue 31)")."""


def _too_large(
    table: Table[Any], fighters: Sequence[str], max_states: int, time_limit: float | None
) -> None:
    """Refuse a fight at once, before anything is played, where its estimated states are more
    than ``max_states``, or than ``time_limit`` allows at :data:`SECONDS_PER_STATE`. The
    estimate is the sets of Health boxes its fighters may have ticked (a hit rolls up to the
    next free box, "Stress Tracks", so each set is a state of its own): the examples' states
    are 2 to 8 times as many (whose turn, the defences standing), so it refuses only a
    fight that is too large, but it is not a bound (a weapon's bonus leaves the first boxes
    to roll-ups alone) — the count and the deadline still hold as the fight is solved."""
    people = canonical_json(table)["characters"]
    boxes = sum(int(people[c]["track_lengths"].get("Health", 0)) for c in fighters)
    about = 2**boxes
    if about > max_states:
        raise FightError(
            f"about {about:,} states (the sets of the {boxes} Health boxes), more than "
            f"{max_states:,}: too large to solve exactly"
        )
    cost = about * SECONDS_PER_STATE
    if time_limit is not None and cost > time_limit:
        raise FightError(
            f"about {about:,} states (the sets of the {boxes} Health boxes), some {cost:.1f} s "
            f"at {1000 * SECONDS_PER_STATE:g} ms a state, more than the {time_limit:g} s "
            "given: too large to solve exactly within the time given"
        )


def _forward(
    explorer: Explorer,
    start: Mapping[int, Fraction],
    round0: Mapping[int, int],
    horizon: int,
    *,
    finals: bool = True,
) -> tuple[dict[tuple[int, int], Fraction], tuple[Fraction, ...], Fraction]:
    """The chain run forward an action at a time for ``horizon`` rounds: the final states
    reached (with the round they ended in; only with ``finals`` — the whole fight's are
    :func:`_solve`'s), the chance it ends in each round, and the chance it is still going after
    the horizon. The chances are whole numbers over one denominator per step, made fractions
    once at the end (exact, and far quicker than a fraction each)."""
    over = lcm(*(p.denominator for p in start.values()))
    width = max(horizon, *round0.values()) + 2  # (state, round) as one number: k × width + r
    frontier = {
        k * width + round0[k]: p.numerator * (over // p.denominator) for k, p in start.items()
    }
    steps: list[tuple[int, dict[tuple[int, int], int], int]] = []  # (denominator, ended, left)
    over_at = explorer.over
    # each state's step as its denominator and each move's (next state × width + rounds added,
    # chance): an entry's next place is then its own round added (None: nobody may move)
    moving: dict[int, tuple[int, list[tuple[int, int]]] | None] = {}
    while frontier:
        going: list[tuple[int, int, tuple[int, list[tuple[int, int]]]]] = []
        ended: dict[tuple[int, int], int] = {}
        left = 0
        for kr, n in frontier.items():
            k, r = divmod(kr, width)
            if k < 0:  # ended, its final states not told apart (no ``finals``)
                ended[-1, r] = ended.get((-1, r), 0) + n
                continue
            if over_at[k]:
                where = (k, r) if finals else (-1, r)
                ended[where] = ended.get(where, 0) + n
                continue
            if r > horizon:  # past the horizon
                left += n
                continue
            if k in moving:
                moves = moving[k]
            else:
                step = explorer.step(k)
                moves = moving[k] = None if step is None else _placed(step, width, over_at, finals)
            if moves is None:  # nobody may move
                left += n
                continue
            going.append((r, n, moves))
        steps.append((over, ended, left))
        common = lcm(*{moves[0] for *_, moves in going})
        nxt: dict[int, int] = {}
        get = nxt.get
        for r, n, (below, placed) in going:
            n *= common // below
            for off, m in placed:
                at = off + r
                nxt[at] = get(at, 0) + n * m
        over *= common
        frontier = nxt
    total: dict[tuple[int, int], int] = {}
    unfinished = 0
    for below, ended, left in steps:
        scale = over // below
        unfinished += left * scale
        for where, n in ended.items():
            total[where] = total.get(where, 0) + n * scale
    by_round = [0] * horizon
    for (_, r), n in total.items():
        if 1 <= r <= horizon:
            by_round[r - 1] += n
    return (
        {where: Fraction(n, over) for where, n in total.items()} if finals else {},
        tuple(Fraction(n, over) for n in by_round),
        Fraction(unfinished, over),
    )


def _placed(
    step: ChainStep, width: int, over: Sequence[bool], finals: bool
) -> tuple[int, list[tuple[int, int]]]:
    """``step``'s moves placed for :func:`_forward`: its denominator, and each move's next
    state × ``width`` + the rounds it adds, with its chance over the denominator; without
    ``finals``, the moves into final states (``over``) summed by the rounds they add, as one
    move to state -1 (ended)."""
    below, moves = step.scaled
    placed: list[tuple[int, int]] = []
    ends: dict[int, int] = {}
    for k2, m, dr in moves:
        if finals or not over[k2]:
            placed.append((k2 * width + dr, m))
        else:
            ends[dr] = ends.get(dr, 0) + m
    placed += [(dr - width, m) for dr, m in ends.items()]
    return below, placed


def _expected(explorer: Explorer, ended: Mapping[tuple[int, int], Fraction]) -> Fraction:
    return sum((r * p for (_, r), p in ended.items()), ZERO)


def _solve(
    explorer: Explorer, start: Mapping[int, Fraction], round0: Mapping[int, int]
) -> tuple[dict[tuple[int, int], Fraction], Fraction | None, Fraction]:
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
        for k2, _, _ in step.scaled[1] if step else ():
            if k2 not in seen:
                seen.add(k2)
                todo.append(k2)
    live = sorted(k for k in seen if not explorer.is_over(k))

    def succ(k: int) -> list[int]:
        step = explorer.steps[k]
        return [k2 for k2, _, _ in step.scaled[1] if not explorer.is_over(k2)] if step else []

    parts = strongly_connected(live, succ)
    # the chances flowing into each state, and to each ending, kept as the shares that flow
    # in (whole numbers over others, not reduced) and summed once where they are read
    mass: dict[int, list[Share]] = {k: [(p.numerator, p.denominator)] for k, p in start.items()}
    ending: dict[int, list[Share]] = {}
    begun = sum((p * round0[k] for k, p in start.items()), ZERO)
    rounds: list[Share] | None = [(begun.numerator, begun.denominator)]
    stalemate = ZERO
    known: Inverses = {}
    for part in reversed(parts):
        inside = set(part)
        inflow = {s: share_sum(mass.pop(s)) for s in part if s in mass}
        if not inflow:
            continue
        inner: dict[int, tuple[int, dict[int, int]]] = {}
        leaving = False
        for s in part:
            step = explorer.steps[s]
            row: dict[int, int] = {}
            below, moves = step.scaled if step else (1, [])
            for k2, n, _ in moves:
                if k2 in inside:
                    row[k2] = row.get(k2, 0) + n
                else:
                    leaving = True
            inner[s] = (below, row)
        if not leaving:  # nobody ever leaves: the fight never ends from here
            stalemate += sum((Fraction(*p) for p in inflow.values()), ZERO)
            rounds = None
            continue
        added, flows = _outflows(explorer, inside, *expected_visits(part, inflow, inner, known))
        if rounds is not None:
            rounds.append(added)
        for k2, flow in flows.items():
            into = ending if explorer.is_over(k2) else mass
            into.setdefault(k2, []).append(flow)
    for k, ps in mass.items():  # begun over (or only final states left)
        if explorer.is_over(k):
            ending.setdefault(k, []).extend(ps)
    ended = {(k, 0): Fraction(*share_sum(ps)) for k, ps in ending.items()}
    return ended, None if rounds is None else Fraction(*share_sum(rounds)), stalemate


def _outflows(
    explorer: Explorer, inside: set[int], over: int, visits: Mapping[int, int]
) -> tuple[Share, dict[int, Share]]:
    """A component's expected visits (``visits``, whole numbers over ``over``) carried out of
    it: the expected rounds its moves add, and the chance flowing to each state outside it,
    whole numbers over one denominator (each visit's over its step's)."""
    flowing = [(v, explorer.steps[s]) for s, v in visits.items() if v]
    common = lcm(*(step.scaled[0] for _, step in flowing if step))
    rounds = 0
    out: dict[int, int] = {}
    for v, step in flowing:
        below, moves = step.scaled if step else (1, [])
        scale = v * (common // below)
        for k2, n, dr in moves:
            rounds += scale * n * dr
            if k2 not in inside:
                out[k2] = out.get(k2, 0) + scale * n
    over *= common
    return (rounds, over), {k2: (n, over) for k2, n in out.items()}


def _summary(
    explorer: Explorer,
    ended: Mapping[tuple[int, int], Fraction],
    expected: Fraction | None,
    by_round: tuple[Fraction, ...],
    stalemate: Fraction,
    unfinished: Fraction,
    horizon: int | None,
    first: Mapping[str, Fraction],
) -> FightOdds:
    """The answer from each final state's chance (summed as whole numbers over one
    denominator, made fractions once at the end)."""
    begun = canonical_json(explorer.start)["characters"]
    chars = tuple(begun)
    over = lcm(*(p.denominator for p in ended.values()))
    wins = dict.fromkeys(sorted({str(s.get("side", c)) for c, s in begun.items()}), 0)
    taken = dict.fromkeys(chars, 0)
    damage: dict[str, dict[int, int]] = {c: {} for c in chars}
    for (i, _), p in ended.items():
        n = p.numerator * (over // p.denominator)
        k = explorer.keys[i]
        winner, hurt = explorer.ending(k)
        wins[winner] = wins.get(winner, 0) + n
        state = explorer.rest(k)["characters"]
        for c in chars:
            if state[c].get("taken_out"):
                taken[c] += n
            damage[c][hurt[c]] = damage[c].get(hurt[c], 0) + n
    return FightOdds(
        chars,
        {w: Fraction(n, over) for w, n in sorted(wins.items())},
        {c: Fraction(n, over) for c, n in taken.items()},
        {c: {d: Fraction(n, over) for d, n in dist.items()} for c, dist in damage.items()},
        expected,
        by_round,
        stalemate,
        unfinished,
        horizon,
        dict(sorted(first.items())),
        len(explorer.keys),
        explorer.count.acts,
    )

"""Gin Lane's exact fight, its steps: the dice scripted, the canonical states, an attack's dice by
its margin (:mod:`referee.systems.ginlane.exact` explains the model).
"""

from __future__ import annotations

import json
import time
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any

from referee.core import Action, Event, Table
from referee.core.markov import ChainError
from referee.systems.ginlane.scene import SPIN_ASPECT, SceneAspect

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


class NeedsDie(Exception):
    """The scripted faces ran out: the action asks for a die of ``sides`` faces."""

    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class ScriptedFaces:
    """Faces given in order; then (``fill``) that face for at most ``cap`` more dice, or a
    :class:`NeedsDie`. ``used`` counts the faces handed out."""

    def __init__(self, faces: Sequence[int], fill: int | None = None, cap: int = 64) -> None:
        self.faces, self.fill, self.cap, self.used = tuple(faces), fill, cap, 0
        self.sides: list[int] = []

    def roll(self, sides: int) -> int:
        self.used += 1
        self.sides.append(sides)
        if self.used <= len(self.faces):
            return self.faces[self.used - 1]
        if self.fill is None or self.used > len(self.faces) + self.cap:
            raise NeedsDie(sides)
        return min(self.fill, sides)


@dataclass
class Work:
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


def act_answered(table: Table[Any], action: Action, source: ScriptedFaces) -> Table[Any]:
    """``action`` taken, and what it waits for answered as the default policy answers it —
    each prompt's default (a defence: her best allowed skill, no Aspect tagged; a hit: on the
    track) — with the same dice: one step of the chain, as an attack was before its target
    answered it herself."""
    after = table.act(action, source)
    while (asked := after.prompts()) and asked[0].default is not None:
        after = after.act(asked[0].default, source)
    return after


def act_with(table: Table[Any], action: Action, faces: Sequence[int], count: Work) -> Table[Any]:
    count.tick()
    return act_answered(table, action, ScriptedFaces(faces))


def new_events(before: Table[Any], after: Table[Any]) -> list[Event]:
    return [after.log[i] for i in range(before.version, after.version)]


def _check_cards(before: Table[Any], after: Table[Any]) -> list[Mapping[str, Any]]:
    """The roll cards of the checks (a margin against a defence or a difficulty) an action
    made, in order."""
    cards = []
    for event in new_events(before, after):
        card = event_data(event).get("roll")
        if isinstance(card, Mapping) and card.get("odds") and card.get("margin") is not None:
            cards.append(card)
    return cards


def event_data(event: Event) -> dict[str, Any]:
    return dict(event.data)


# -- canonical states ---------------------------------------------------------------------


def is_spin_aspect(aspect: SceneAspect) -> bool:
    """True if ``aspect`` is the one a spin leaves ("Spin"; :func:`.defence.spin`): Over-Extended
    on the attacker, lapsing when the attacker's next turn starts. A manoeuvre's Aspect in the
    player's own words may be named so too, but lasts the scene (no ``until_turn_of``)."""
    return aspect.name == SPIN_ASPECT and aspect.until_turn_of == aspect.on


def canonical_json(table: Table[Any]) -> Json:
    """The game's state JSON less what the default policy's fight never reads (see
    :mod:`referee.systems.ginlane.exact`): the round; the Aspects a spin leaves (and their
    ``aspect_names``); once the fight is over, the defence totals left standing."""
    state: Json = dict(table.procedure.state_json(table.state))
    state.pop("round", None)
    aspects: tuple[SceneAspect, ...] = table.state.aspects
    if any(is_spin_aspect(a) for a in aspects):  # the policy never takes the spin's free tag
        both = zip(aspects, state["aspects"], strict=True)  # listed in the scene's order
        kept = [(a, j) for a, j in both if not is_spin_aspect(a)]
        state["aspects"] = [j for _, j in kept]
        state["aspect_names"] = sorted({a.name for a, _ in kept})
    if state.get("over"):  # no turn follows: a defence left standing is never read again
        state["characters"] = {c: {**s, "defences": {}} for c, s in state["characters"].items()}
    return state


def round_of(table: Table[Any]) -> int:
    state: dict[str, Any] = dict(table.procedure.state_json(table.state))
    return int(state.get("round", 0))


def _dump(state: Json) -> str:
    return json.dumps(state, sort_keys=True, default=str)


Tracks = tuple[tuple[str, tuple[tuple[str, tuple[int, ...]], ...]], ...]
Key = tuple[str, Tracks]
"""A canonical state: the state JSON without the stress tracks (a string), and the boxes
ticked on each character's tracks (kept apart, so that a state differing only in them is made
without writing the whole state again)."""


def key_of(state: Json) -> Key:
    chars = state["characters"]
    tracks = tuple(
        (c, tuple((name, tuple(boxes)) for name, boxes in sorted(s["tracks"].items())))
        for c, s in chars.items()
    )
    rest = {**state, "characters": {c: {**s, "tracks": None} for c, s in chars.items()}}
    return _dump(rest), tracks


def canonical(table: Table[Any]) -> Hashable:
    """The fight's canonical state: the game's state JSON without the round and the spin's
    Aspects (see the module's doc), its stress tracks kept apart."""
    return key_of(canonical_json(table))


def ending_of(state: Json) -> tuple[str, dict[str, int]]:
    """What the simulation counts of a fight that is over (the simulation module's ``outcome``):
    the side left standing (``"none"`` if nobody is) and each character's Health stress, the
    boxes ticked. Checked against the simulation's own outcome wherever the state's table has
    been played (:meth:`.exact_chain.Explorer.ending`)."""
    chars = state["characters"]
    return winner_of(chars), {c: damage_of(s["tracks"]) for c, s in chars.items()}


def winner_of(chars: Mapping[str, Json]) -> str:
    """The side left standing among ``chars`` (the state JSON's characters), ``"none"`` if
    nobody is: read from who is Taken Out, never from the tracks."""
    left = sorted({str(s.get("side", c)) for c, s in chars.items() if not s.get("taken_out")})
    return ",".join(left) if len(left) == 1 else ("none" if not left else "unfinished")


def damage_of(tracks: Mapping[str, Sequence[int]]) -> int:
    """A character's Health stress: the boxes ticked on her Health track."""
    return sum(int(x) for x in tracks.get("Health", []))


# -- an attack's dice, by margin -----------------------------------------------------------


@dataclass(frozen=True)
class MarginFaces:
    """The faces of one kind of check that give one margin: the chance of each defence total
    (``opponent``) with faces that give it."""

    weight: Fraction
    by_opponent: tuple[tuple[int | None, Fraction, Faces], ...]


def _every_face(
    table: Table[Any], action: Action, count: Work
) -> Iterator[tuple[Faces, Fraction, Table[Any]]]:
    """Every sequence of faces the action may ask for, with its chance and the table it makes
    (a die at a time, each face ``1/sides``)."""
    stack: list[tuple[Faces, Fraction]] = [((), ONE)]
    while stack:
        faces, weight = stack.pop()
        try:
            after = act_with(table, action, faces, count)
        except NeedsDie as need:
            share = weight / need.sides
            stack.extend(((*faces, f), share) for f in range(need.sides, 0, -1))
            continue
        yield faces, weight, after


def _signature(card: Mapping[str, Any], dice: int) -> Hashable:
    odds = card.get("odds") or {}
    return (card.get("rule"), card.get("dice"), tuple(sorted(odds.items())), dice)


def _grouped(
    found: Mapping[int, Mapping[int | None, tuple[Fraction, Faces]]],
) -> dict[int, MarginFaces]:
    return {
        m: MarginFaces(
            sum((w for w, _ in by.values()), ZERO),
            tuple((o, w, f) for o, (w, f) in sorted(by.items(), key=lambda x: x[0] or 0)),
        )
        for m, by in sorted(found.items())
    }


def _classes_by_face(table: Table[Any], action: Action, count: Work) -> dict[int, MarginFaces]:
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
    table: Table[Any], action: Action, count: Work, sides: Sequence[int]
) -> dict[int, MarginFaces]:
    """The check the action makes (its dice ``sides``), grouped by margin, read a side at a
    time through the procedure: which dice move the roller's total (the card's ``value``) and
    which the opposition's (``opponent``); every face of the roller's dice with the others at
    1, and every face of the opposition's with the roller's at 1 — the margin is the roller's
    total less what it had to beat, read from the card for each opposing total (a Block's
    strength included). Where the dice do not split so (a die moving both), every face of
    every die is taken (:func:`_classes_by_face`)."""
    n = len(sides)

    def card(faces: Sequence[int]) -> tuple[int, int | None, int]:
        after = act_with(table, action, faces, count)
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


def _margin_classes(
    table: Table[Any],
    action: Action,
    count: Work,
    probe: ScriptedFaces,
    card: Mapping[str, Any],
    classes: dict[Hashable, dict[int, MarginFaces]],
) -> dict[int, MarginFaces]:
    """The margins a check like ``card`` may give, with their faces: worked out once per kind
    of check (its dice and the table's Initiative mode) and kept in ``classes``."""
    mode = canonical_json(table).get("mode")
    sig = (_signature(card, probe.used), mode)
    if sig not in classes:
        classes[sig] = (
            _classes(table, action, count, probe.sides)
            if mode == "a"  # option b re-rolls: the two sides' dice interact
            else _classes_by_face(table, action, count)
        )
    return classes[sig]


Branch = tuple[Faces, Fraction, Table[Any]]


def action_branches(
    table: Table[Any],
    action: Action,
    count: Work,
    classes: dict[Hashable, dict[int, MarginFaces]],
) -> list[Branch]:
    """Every table ``action`` may lead to from ``table``, with its chance and faces that give
    it; tables with the same canonical state merged. A check is taken by margin
    (:func:`_by_margin`); any other roll, every face of every die."""
    probe = ScriptedFaces((), fill=1)
    count.tick()
    first = act_answered(table, action, probe)  # a refusal (RefereeError) is raised as is
    if probe.used == 0:
        return [((), ONE, first)]
    cards = _check_cards(table, first)
    if len(cards) == 1 and len(cards[0].get("faces") or ()) == probe.used:
        margins = _margin_classes(table, action, count, probe, cards[0], classes)
        out = _by_margin(table, action, count, margins, first)
    else:
        out = list(_every_face(table, action, count))
    merged: dict[Hashable, Branch] = {}
    for faces, weight, after in out:
        k = canonical(after)
        held = merged.get(k)
        merged[k] = (faces, weight, after) if held is None else (held[0], held[1] + weight, held[2])
    return list(merged.values())


def every_margin(
    table: Table[Any],
    action: Action,
    count: Work,
    classes: dict[Hashable, dict[int, MarginFaces]],
) -> list[Branch] | None:
    """``action``'s branches one per margin, unmerged — the check taken once at every margin
    its dice may give (with the first defence total that gives it), each with the margin's
    whole chance — where it is a check with no defence total standing before it or after any
    margin (:func:`_stands`: the state after it is then read from the margin alone, as
    :func:`_by_margin` says); ``None`` otherwise. What a hit does to a stress track is read
    from each branch's events (:meth:`.exact_chain.Explorer.step` keeps it apart from the
    tracks)."""
    if _stands(canonical_json(table)):
        return None
    probe = ScriptedFaces((), fill=1)
    count.tick()
    first = act_answered(table, action, probe)  # a refusal (RefereeError) is raised as is
    cards = _check_cards(table, first)
    if probe.used == 0 or len(cards) != 1 or len(cards[0].get("faces") or ()) != probe.used:
        return None
    margins = _margin_classes(table, action, count, probe, cards[0], classes)
    out: list[Branch] = []
    for m, group in margins.items():
        opponent, _, faces = group.by_opponent[0]
        after = act_with(table, action, faces, count)
        _expect(table, after, m, opponent)
        if _stands(canonical_json(after)):
            return None
        out.append((faces, group.weight, after))
    return out


def _by_margin(
    table: Table[Any],
    action: Action,
    count: Work,
    classes: Mapping[int, MarginFaces],
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
            found[m] = act_with(table, action, faces, count)
            _expect(table, found[m], m, opponent)
        return found[m]

    def key(m: int) -> Hashable | None:
        """The state after margin ``m``, or ``None`` if a defence total stands after it."""
        after = canonical_json(at(m))
        return None if _stands(after) else key_of(after)

    same: dict[int, int] = {}  # each margin → a margin of its run
    runs = [(0, len(margins) - 1)] if not _stands(canonical_json(table)) else []
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
            after = act_with(table, action, faces, count)
            _expect(table, after, m, opponent)
            out.append((faces, weight, after))
    return out


def _expect(before: Table[Any], after: Table[Any], margin: int, opponent: int | None) -> None:
    cards = _check_cards(before, after)
    if len(cards) != 1 or cards[0]["margin"] != margin or cards[0].get("opponent") != opponent:
        raise FightError(f"the check did not give the margin {margin} its faces gave before")

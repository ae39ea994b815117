"""Gin Lane's exact fight: an attack's branches with the hit kept apart from the stress tracks
(:mod:`referee.systems.ginlane.exact` explains the model).

"Stress has no effect itself on rolls or abilities" ("Stress Tracks"): an attack's roll, its
margin, the stress it deals and the spin it may give read nobody's tracks — the tracks only
take what lands ("Hit for N stress? So tick off the Nth Stress box. If the Nth box is already
used then the damage rolls up to the next free box. If N is greater than the length of the
Stress track, or has rolled past the end of the track the character is Taken Out."). So an
attack from a state is taken through the procedure once at every margin (an
:class:`Attack`, kept by the state less every track), and each branch is remembered as what
it did apart from the tracks: the stress it dealt to whom on which track (the
``stress.taken`` event), and the rest of the state after it. From another state that differs
only in the tracks the same branches land on that state's tracks through the game's own
:meth:`StressTrack.hit <referee.systems.ginlane.stress.StressTrack.hit>`; the rest of the state
after a hit is the one the procedure made after a hit of the same kind — one that ticks a box,
or one that Takes the character Out — and where no hit of that kind has been played from
such a state yet, the state is played for real.

Every template is checked where it is made: each hit's box and Taken Out as the procedure
wrote them are the ones :meth:`StressTrack.hit` gives, only the target's track changed, and
every hit of a kind left the same rest of the state (else the state's attacks are never
templated and each is taken as before). A state reached through a template is made real only
when it must be (:meth:`.exact_chain.Explorer.table`), and its state must then be the one
worked out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Any

from referee.core import Action, Table
from referee.systems.ginlane.exact_branches import (
    Branch,
    Faces,
    Json,
    Key,
    canonical,
    new_events,
    round_of,
)
from referee.systems.ginlane.stress import StressTrack

__all__ = ["Attack", "Landing", "attack_of", "land"]

STRESS = "stress.taken"
"""The event a hit on a track writes: its character, track, stress, box and Taken Out."""

Hit = tuple[str, str, int]
"""A hit as the procedure dealt it: (character, track, stress)."""
Track = tuple[str, tuple[tuple[str, tuple[int, ...]], ...]]
"""One character's part of :data:`.exact_branches.Tracks`: its name and each track's boxes."""


@dataclass(frozen=True)
class Landing:
    """One margin's branch of an attack: its faces and chance, and what it did apart from the
    tracks — ``hit`` the stress it dealt (``None``: none), and where it dealt none, the rest of
    the state after it (``rest``) and the rounds it added (``rounds``)."""

    faces: Faces
    chance: Fraction
    hit: Hit | None
    rest: str = ""
    rounds: int = 0


@dataclass
class Attack:
    """An attack from a state less its tracks: the action, its branches by margin, and the rest
    of the state after a hit that ticks a box (``after[False]``) or Takes Out
    (``after[True]``), each with the rounds it added, as far as they have been played."""

    action: Action
    landings: tuple[Landing, ...]
    after: dict[bool, tuple[str, int]] = field(default_factory=dict)
    below: int = field(init=False)
    misses: dict[tuple[str, int], tuple[int, Faces]] = field(init=False)
    hits: dict[Hit, tuple[int, Faces]] = field(init=False)
    runs: list[tuple[str, list[tuple[Hit, int, Faces]]]] = field(init=False)
    landed: dict[tuple[int, Track], list[tuple[Track, bool, int, Faces]]] = field(
        init=False, compare=False
    )

    def __post_init__(self) -> None:
        """The margins summed by what they do apart from the tracks (the same rest of the state
        and rounds where no stress is dealt; the same stress to the same track), each with the
        faces of its first margin, their chances whole numbers over one denominator
        (``below``: summed as numbers, a fraction made once a branch); the hits in runs by the
        character struck; what each run does to the tracks it has been landed on, remembered."""
        self.below = lcm(*(landing.chance.denominator for landing in self.landings))
        self.misses, self.hits, self.landed = {}, {}, {}
        for landing in self.landings:
            n = landing.chance.numerator * (self.below // landing.chance.denominator)
            into: dict[Any, tuple[int, Faces]] = self.hits
            at: Any = landing.hit
            if landing.hit is None:
                into, at = self.misses, (landing.rest, landing.rounds)
            held = into.get(at)
            into[at] = (n, landing.faces) if held is None else (held[0] + n, held[1])
        self.runs = []
        for hit, (n, faces) in self.hits.items():
            if not self.runs or self.runs[-1][0] != hit[0]:
                self.runs.append((hit[0], []))
            self.runs[-1][1].append((hit, n, faces))

    def merge(self, other: Attack) -> bool:
        """Take ``other``'s kinds of hit in (a template of the same state, played from other
        tracks); False if they disagree (then neither is used)."""
        if other.action != self.action or other.landings != self.landings:
            return False
        return all(self.after.setdefault(kind, rest) == rest for kind, rest in other.after.items())

    def branches(
        self, k: Key, rests: Mapping[str, Json]
    ) -> list[tuple[Key, int, int, Faces]] | None:
        """The branches from state ``k`` (the template's, less the tracks): each margin landed
        on ``k``'s tracks, those that leave the same tracks summed, with its chance (a whole
        number over :attr:`below`), the rounds it adds and the faces of its first margin (the
        same state may still come twice: the step sums it); ``None`` if a hit of a kind not
        played yet from this template's state is needed."""
        tracks = k[1]
        found = [
            ((rest, tracks), p, rounds, faces) for (rest, rounds), (p, faces) in self.misses.items()
        ]
        after = self.after
        for r, (who, hits) in enumerate(self.runs):  # the target's tracks, and what lands on them
            at = 0
            while tracks[at][0] != who:
                at += 1
            outcomes = self.landed.get((r, tracks[at]))
            if outcomes is None:
                outcomes = self.landed[r, tracks[at]] = _outcomes(tracks[at], rests[k[0]], hits)
            for track, out, p, faces in outcomes:
                if out not in after:
                    return None
                rest, rounds = after[out]
                found.append(((rest, (*tracks[:at], track, *tracks[at + 1 :])), p, rounds, faces))
        return found


def _outcomes(
    tracks: Track, state: Json, hits: list[tuple[Hit, int, Faces]]
) -> list[tuple[Track, bool, int, Faces]]:
    """A run of ``hits`` on one character's ``tracks`` (:func:`land`), summed by what they
    leave: the tracks after, whether she is Taken Out, the chance (a whole number) and the
    faces of the first hit that leaves them, in the order first left (the hits that leave the
    same tracks lead to the same state: :meth:`Attack.branches`)."""
    found: dict[tuple[Track, bool], tuple[int, Faces]] = {}
    for hit, n, faces in hits:
        landed = land(tracks, state, hit)
        held = found.get(landed)
        found[landed] = (n, faces) if held is None else (held[0] + n, held[1])
    return [(track, out, n, faces) for (track, out), (n, faces) in found.items()]


def land(tracks: Track, state: Json, hit: Hit) -> tuple[Track, bool]:
    """``hit`` on a character's ``tracks`` (the state's JSON ``state`` giving each track's
    length), through the game's own stress track: the tracks after it, and whether it Takes the
    character Out."""
    who, name, stress = tracks[0], hit[1], hit[2]
    length = int(state["characters"][who]["track_lengths"][name])
    marked = dict(tracks[1])
    boxes = tuple(i + 1 in marked.get(name, ()) for i in range(length))
    track, struck = StressTrack(name, boxes).hit(stress)
    marked[name] = track.marked
    return (who, tuple(sorted(marked.items()))), struck.taken_out


def attack_of(
    k: Key, table: Table[Any], action: Action, branches: list[Branch], rests: Mapping[str, Json]
) -> Attack | None:
    """The template of ``action`` from state ``k`` (its ``table``), from its branches taken at
    every margin (:func:`.exact_branches.every_margin`), checked against what the procedure did
    (see the module's doc); ``None`` where it does not hold."""
    before = round_of(table)
    landings: list[Landing] = []
    after: dict[bool, tuple[str, int]] = {}
    for faces, p, played in branches:
        k2 = canonical(played)
        assert isinstance(k2, tuple)
        rounds = round_of(played) - before
        struck = [e.data for e in new_events(table, played) if e.kind == STRESS]
        if not struck:
            if k2[1] != k[1]:
                return None
            landings.append(Landing(faces, p, None, k2[0], rounds))
            continue
        if len(struck) > 1:
            return None
        data: Mapping[str, Any] = struck[0]
        hit: Hit = (str(data["character"]), str(data["track"]), int(data["stress"]))
        at = next((i for i, (c, _) in enumerate(k[1]) if c == hit[0]), None)
        if at is None:
            return None
        track, out = land(k[1][at], rests[k[0]], hit)
        if ((*k[1][:at], track, *k[1][at + 1 :]), out) != (k2[1], bool(data["taken_out"])):
            return None
        if after.setdefault(out, (k2[0], rounds)) != (k2[0], rounds):
            return None
        landings.append(Landing(faces, p, hit))
    return Attack(action, tuple(landings), after)

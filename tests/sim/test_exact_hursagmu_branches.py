"""The exact Hursagmu melee, an action's branches (``exact_states``): an attack read by its
outcome, the hits each branch went through, and a branch with its hits moved.

The model's doc (:mod:`referee.systems.hursagmu.exact`): an attack reaches the state only
through whether it hit, so it is forced once each way from the extreme faces of its dice, its
chance the event's odds — and refused where that cannot be read so. No roll reads the hits,
and the procedure reads them only against 0 and Stamina, so a branch keeps the values it took
each character's hits through (its trail), and from a state less the same hits on the same
sides, it is the state it led to with the hits moved, its trail moved too — what a later
state's move is reckoned from. Branches merged by the key keep a trail only where each face
sequence went through the same values; else the merged branch is taken again.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from referee.core import Action, Event, Table, system
from referee.dice import ScriptedSource
from referee.sim.conflicts import conflict_of
from referee.sim.simulate import default_policy, legal_choices
from referee.systems.hursagmu.exact import MeleeError, canonical
from referee.systems.hursagmu.exact_states import (
    ATTACK,
    Work,
    _forced,
    _Run,
    action_branches,
    replay_branches,
    shifted,
)


def _sheet(stamina: int) -> dict[str, Any]:
    return {
        "dexterity": 2,
        "strength": 1,
        "weapon": 1,
        "stamina": stamina,
        "skills": {"quickness": 1, "striking": 3, "defense": 3},
    }


def _blow(stamina: int = 6) -> tuple[Table[Any], Action]:
    """Bob's blow at Fred: equal Initiatives, both declared an attack, Bob first."""
    setup = {
        "characters": {"bob": _sheet(stamina), "fred": _sheet(stamina)},
        "options": {"damage_roll": "1d6"},
    }
    table = system("hursagmu").new_table(setup)
    for who, faces in (("bob", [3, 4]), ("fred", [4, 3])):
        table = table.act(Action(who, "initiative", {"stance": "maneuver"}), ScriptedSource(faces))
    conflict = conflict_of(table)
    while True:
        action = default_policy(table, conflict, legal_choices(table, conflict), random.Random(0))
        if action.kind == "act":
            return table, action
        table = table.act(action, ScriptedSource([]))


def _hits(table: Table[Any], **hits: int) -> Table[Any]:
    """``table`` with those characters' hits, nothing else changed."""
    fighters = dict(table.state.fighters)
    for who, h in hits.items():
        fighters[who] = replace(fighters[who], hits=h)
    return replace(table, state=replace(table.state, fighters=fighters))


class _Scripted:
    """An action that is one attack of two d6, its odds and hit as ``odds`` and ``hit`` say
    for the faces given (the game's own attack never reads its odds from its faces)."""

    def __init__(self, odds: Callable[[list[int]], str], hit: Callable[[list[int]], bool]):
        self.odds, self.hit = odds, hit

    def run(self, faces: list[int], fill: bool = True) -> _Run:
        data = {"faces": list(faces), "odds": self.odds(faces), "hit": self.hit(faces)}
        return _Run(None, (Event(ATTACK, data),), (6, 6), tuple(faces))


def test_an_attack_is_forced_from_its_extreme_faces_or_refused_where_that_cannot_read_it() -> None:
    """Forced each way from the extremes in their order, with the game's chance of each (two
    d6 that hit on 7 or more: the hit from double 6, the first, the miss from double 1, though
    6 and 1 hit too); refused — with the reason, not a crash — where the odds change with the
    attack's own faces, or where no extreme faces give an outcome its chance says may come."""
    half = Fraction(1, 2)
    fair = _Scripted(lambda f: "1/2", lambda f: sum(f) >= 7)
    forced = _forced(fair, [], [6, 6], half)  # type: ignore[arg-type]
    assert [(run.shown, p) for run, p in forced] == [((6, 6), half), ((1, 1), half)]
    shifty = _Scripted(lambda f: "1/2" if f == [6, 6] else "1/3", lambda f: sum(f) >= 7)
    with pytest.raises(MeleeError, match="the attack's roll changes with its own faces"):
        _forced(shifty, [], [6, 6], half)  # type: ignore[arg-type]
    sure = _Scripted(lambda f: "1/2", lambda f: True)
    with pytest.raises(MeleeError, match="no faces make the attack miss"):
        _forced(sure, [], [6, 6], half)  # type: ignore[arg-type]


def test_a_branch_with_its_hits_moved_is_the_branch_taken_again_its_trail_too() -> None:
    """Bob's blow at Fred (Stamina 12; it always hits, for 3 to 8 on the 1d6 + 2) from Fred
    at 11 hits, then at 9: each branch, its hits moved by -2 (every value of its trail stays
    above 0 and below Stamina), is the branch taken again from 9 hits — its state and its
    trail, the values it took Fred's hits through, moved too; from 5 hits, only the blows that
    leave him above 0 are moved, the others (he falls) taken again."""
    table, action = _blow(stamina=12)
    at11, at9, at5 = _hits(table, fred=11), _hits(table, fred=9), _hits(table, fred=5)
    branches = action_branches(at11, action, canonical, Work()).values()
    assert sorted(b.trail for b in branches) == [((12,), (11, 11 - d)) for d in range(8, 2, -1)]
    for at, up in ((at9, 6), (at5, 2)):
        moved = 0
        for branch in branches:
            out = shifted(branch, at.state)
            (taken,) = replay_branches(
                at.state, lambda at=at: at, action, [branch], canonical, Work()
            ).values()
            if out is None:
                assert not taken.state.fighters["fred"].conscious
                continue
            assert (canonical(out[0]), out[1]) == (canonical(taken.state), taken.trail)
            assert out[1][1][0] == at.state.fighters["fred"].hits
            moved += 1
        assert moved == up


def test_branches_merged_keep_the_hits_they_went_through_only_where_each_went_through_them() -> (
    None
):
    """Fred's Initiative against Bob's (both down to 5 hits of 6): its 36 faces merged by the
    key into three branches (below Bob's, tied, above), every face through the same hits
    (nobody's change): each keeps them, and moves with the hits, as far as just below Stamina
    (from 4 and 2 hits up to 5 and 5). Bob's blow under a key that makes every state one: its
    faces went through each damage, so the one branch keeps none, and is taken again from
    other hits, not moved."""
    setup = {"characters": {"bob": _sheet(6), "fred": _sheet(6)}, "options": {"damage_roll": "1d6"}}
    table = _hits(system("hursagmu").new_table(setup), bob=5, fred=5)
    table = table.act(Action("bob", "initiative", {"stance": "maneuver"}), ScriptedSource([3, 4]))
    fred = Action("fred", "initiative", {"stance": "maneuver"})
    merged = action_branches(table, fred, canonical, Work()).values()
    assert sorted(b.chance for b in merged) == [Fraction(1, 6), Fraction(5, 12), Fraction(5, 12)]
    assert [b.trail for b in merged] == [((5,), (5,))] * 3
    lower = _hits(table, bob=4, fred=2)
    for branch in merged:
        out = shifted(branch, lower.state)
        assert out is not None and out[1] == ((4,), (2,))
        assert canonical(out[0]) == canonical(
            _hits(replace(table, state=branch.state), bob=4, fred=2).state
        )
    # and back up, from 4 and 2 to 5 and 5 hits: the most each may be moved, still below 6
    for branch in action_branches(lower, fred, canonical, Work()).values():
        out = shifted(branch, table.state)
        assert out is not None and out[1] == ((5,), (5,))

    table, blow = _blow()
    (one,) = action_branches(table, blow, lambda s: 0, Work()).values()
    assert one.chance == 1 and one.trail == ()
    assert shifted(one, _hits(table, fred=5).state) is None

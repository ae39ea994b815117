"""The spin's free tag left out of the exact Gin Lane fight's canonical state
(:mod:`referee.systems.ginlane.exact`, "the spin's free tag"), checked against the procedure.

Rules text (Gin Lane), "Spin": "the attacker is over-extended [...] and suffers a temporary
disadvantage Aspect which can be free-tagged (once) by the defender or allies. Spin lasts until
the attacker's next turn". "Aspects as Enablers": an Aspect may make other actions legal. So
from the states the exact model plays, the default policy's step is played from the state with
the spin's Aspect and without it: the same action, the same branches (faces, chances) and the
same states after, less the spin's Aspect.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from referee.core import Action, Table, system
from referee.core.loader import load_file
from referee.core.policies import default_taken
from referee.core.simulation import conflict_of
from referee.systems.ginlane.exact import _solve, _start
from referee.systems.ginlane.exact_branches import (
    MarginFaces,
    Work,
    action_branches,
    canonical,
    canonical_json,
    every_margin,
    is_spin_aspect,
    round_of,
)
from referee.systems.ginlane.exact_chain import Explorer
from referee.systems.ginlane.scene import SITTING_DUCK, SPIN_ASPECT, SceneAspect, SceneState

EXAMPLES = Path(__file__).parents[2] / "examples" / "ginlane"
EXACT = ("duel", "consequence", "grapple", "hold")
"""The Gin Lane examples with a fight to solve exactly (two fighters; ``pyramid`` and ``ritual``
have one, their answer from the first state, and the rest three: refused)."""
SAMPLE = 40
"""The states of each example's chain played with and without the spin's Aspect (every one
would take minutes: most of the chain's states are worked out, not played)."""


def _setup(name: str) -> Table[Any]:
    return system("ginlane").new_table(load_file(EXAMPLES / f"{name}.yaml")["setup"])


def _played(name: str) -> list[Table[Any]]:
    """The chain's states, solved as ``fight_odds`` solves it: its first states and then
    ``SAMPLE`` more spread over it, made real (played from their parents), the fight begun and
    not over."""
    table = _setup(name)
    conflict = conflict_of(table)
    explorer = Explorer(table, conflict, Work(), 50_000)
    start = _start(table, conflict, None, explorer)
    _solve(explorer, start, {k: round_of(explorer.table(explorer.keys[k])) for k in start})
    live = [k for i, k in enumerate(explorer.keys) if not explorer.is_over(i)]
    chosen = live[:8] + live[8 :: max(1, len(live) // SAMPLE)]
    return [t for t in map(explorer.table, chosen) if t.state.order]  # Initiative rolled


def _spun(table: Table[Any], aspects: tuple[SceneAspect, ...]) -> Table[Any]:
    state: SceneState = table.state
    return replace(table, state=replace(state, aspects=aspects))


def _pair(table: Table[Any]) -> tuple[Table[Any], Table[Any]]:
    """The state with the spin's Aspect and without: its own, or one placed as a spin places it
    (on the fighter whose turn it is not, free for the side of the one whose turn it is)."""
    state: SceneState = table.state
    without = tuple(a for a in state.aspects if not is_spin_aspect(a))
    if len(without) < len(state.aspects):
        return table, _spun(table, without)
    me = state.get(str(state.current))
    extra = tuple(
        SceneAspect(state.next_aspect + n, SPIN_ASPECT, c.id, me.id, me.side, until_turn_of=c.id)
        for n, c in enumerate(c for c in state.combatants if c.id != me.id)
    )
    return _spun(table, (*state.aspects, *extra)), table


Step = tuple[Action, list[tuple[Any, ...]], list[tuple[Any, ...]] | None]
Classes = dict[Hashable, dict[int, MarginFaces]]


def _step(table: Table[Any], classes: Classes) -> Step | None:
    """The default policy's action from ``table``, its branches merged (faces, chance and the
    canonical state after) and one per margin (``None`` where the attack is not so taken);
    each kind of check read through the procedure once, and kept in ``classes``."""

    def take(action: Action) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]] | None]:
        merged = action_branches(table, action, Work(), classes)
        every = every_margin(table, action, Work(), classes)
        return (
            sorted((repr(canonical(a)), w, f) for f, w, a in merged),
            None if every is None else [(f, w, canonical(a)) for f, w, a in every],
        )

    chosen = default_taken(table, conflict_of(table), take)
    return None if chosen is None else (chosen[0], *chosen[1])


@pytest.mark.slow
@pytest.mark.parametrize("name", EXACT)
def test_the_policy_plays_alike_with_the_spins_aspect_and_without(name: str) -> None:
    """Every sampled state of the chain: the policy's action, its faces, chances and the states
    after (less the spin's Aspect) are the same with the spin's Aspect on the table and
    without; the pair share one canonical state."""
    tables = _played(name)
    assert len(tables) > SAMPLE // 2
    spun = 0
    classes: tuple[Classes, Classes] = ({}, {})  # read apart: with the Aspect, and without
    for table in tables:
        with_it, without = _pair(table)
        assert canonical(with_it) == canonical(without)
        assert canonical_json(with_it) == canonical_json(without)
        assert any(is_spin_aspect(a) for a in with_it.state.aspects)
        spun += table is with_it
        assert _step(with_it, classes[0]) == _step(without, classes[1])
    assert spun > 0  # the chain keeps some states as a spin left them


def test_only_the_spins_own_aspect_is_left_out_of_the_canonical_state() -> None:
    """The spin's Aspect (Over-Extended until the attacker's next turn) is left out, with its
    name in ``aspect_names``; a manoeuvre's Aspect in the player's own words named so too (it
    lasts the scene), a Sitting Duck (until one's own turn) and any other are kept."""
    table = _setup("duel")
    state: SceneState = table.state
    moll, jack = (c.id for c in state.combatants)

    def placed(*aspects: SceneAspect) -> Table[Any]:
        return _spun(table, aspects)

    spin = SceneAspect(1, SPIN_ASPECT, jack, moll, "society", until_turn_of=jack)
    worded = SceneAspect(2, SPIN_ASPECT, jack, moll, "society")
    duck = SceneAspect(3, SITTING_DUCK, moll, moll, "!society", until_turn_of=moll)
    assert canonical(placed(spin)) == canonical(table)
    assert canonical(placed(spin, replace(spin, id=4, free_tags=0))) == canonical(table)
    for kept in (worded, duck):
        assert canonical(placed(kept)) != canonical(table)
        assert canonical(placed(kept, spin)) == canonical(placed(kept))
        assert canonical_json(placed(spin, kept))["aspect_names"] == [kept.name]
    assert canonical_json(placed(spin, worded))["aspects"] == [
        {"name": SPIN_ASPECT, "on": jack, "free_tags": 1, "setter": moll}
    ]

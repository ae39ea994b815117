"""The exact Zweihänder chase: a participant out of it weighs nothing on it.

Rules text (Zweihänder house rules), "Chase scene rules": a Takedown takes the Pursuer and
the Escapee "out of the chase"; of fatigue, "Once Incapacitated, they cannot continue". The
rules compare the Values of those still in only (who is caught up, the rearmost Escapee's
Chaos Die), so the chain's canonical key drops the Value of one who is out: the chase goes on
as that of those still in, state for state.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from referee.core import REFEREE, Action, Table, system
from referee.dice import ScriptedSource
from referee.sim.conflicts import conflict_of
from referee.sim.simulate import default_policy, legal_choices
from referee.systems.zweihander.exact import canonical, chase_odds


def _runner() -> dict[str, Any]:
    """A character who can chase, fatigued only past his third Round."""
    return {"bonuses": {"AB": 3, "BB": 3}, "skills": {"Coordination": 40, "Toughness": 40}}


def _second_round() -> Table[Any]:
    """b flees a and c, escaping 3 Rounds ahead; its first Round played: b at 15, a at 10,
    c at 8 (1D10 + Movement 6: faces 9, 4, 2), nobody caught up."""
    table = system("zweihander").new_table({"characters": {k: _runner() for k in "abc"}})
    start = {
        "escapees": {"b": "on foot"},
        "pursuers": {"a": "on foot", "c": "on foot"},
        "escape_condition": 3,
    }
    table = table.act(Action(REFEREE, "chase.start", start), ScriptedSource([5] * 10))
    conflict, dice = conflict_of(table), ScriptedSource([9, 4, 2, 5] * 20)
    while table.state.chase.round < 2:
        choices = legal_choices(table, conflict)
        table = table.act(default_policy(table, conflict, choices, random.Random(0)), dice)
    return table


def _with(table: Table[Any], pid: str, **fields: Any) -> Table[Any]:
    chase = table.state.chase
    one = replace(chase.participant(pid), **fields)
    return replace(table, state=replace(table.state, chase=chase.with_participant(one)))


def test_a_pursuer_out_of_the_chase_weighs_nothing_the_rest_is_the_chase_of_those_still_in() -> (
    None
):
    """c exhausted after the first Round (set by hand: how he went out does not matter) —
    the chase over its last two Rounds is the chase of b and a alone, c left out of it: the
    same chances, the same 95 canonical states, the same procedure steps. Keeping c's Value
    in the key (less the lowest of those in, as theirs) would keep apart states the rules
    play alike: 698 states."""
    table = _second_round()
    assert [(p.id, p.value, p.status) for p in table.state.chase.participants] == [
        ("b", 15, "in"),
        ("a", 10, "in"),
        ("c", 8, "in"),
    ]
    out = _with(table, "c", status="exhausted")
    chase = table.state.chase
    alone = replace(chase, participants=tuple(p for p in chase.participants if p.id != "c"))
    two = replace(table, state=replace(table.state, chase=alone))

    with_c, without = chase_odds(out, rounds=3).chain, chase_odds(two, rounds=3).chain
    assert with_c.outcomes == without.outcomes
    assert with_c.endings == without.endings
    assert with_c.unfinished == without.unfinished == 0
    assert (with_c.states, with_c.acts) == (without.states, without.acts)
    assert with_c.states == 95

    # The key itself: c's Value, once he is out, is nobody's concern; a's, in, is.
    assert canonical(_with(out, "c", value=3)) == canonical(out)
    assert canonical(_with(out, "a", value=12)) != canonical(out)

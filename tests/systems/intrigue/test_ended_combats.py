"""Combat rules, "Once you have played out the result": an ended combat leaves the live state
for the log (issue 29) — the state keeps the running combats and the last one begun, and what a
rule later reads of an ended one (its victors, "Taking Damage"); replaying the log gives the
same state.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import RuleError, Table
from referee.systems.intrigue import PROCEDURE
from referee.systems.intrigue.damage import victors

from .helpers import T, act, cast, character, last, start


def _evening() -> dict[str, Any]:
    return cast(
        alf=character("Alf", 11, combat=3, stamina=9),
        bob=character("Bob", 12, combat=1, stamina=9),
        cat=character("Cat", 13, combat=1, stamina=9, items={"axe": {"damage": 7}}),
        dan=character("Dan", 14, combat=1, stamina=6),
    )


def _parted(table: T) -> T:
    """Alf and Bob fight a round (both defend), and the referee ends their combat."""
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = act(act(table, "alf", "declare", action="defend"), "bob", "declare", action="defend")
    table = act(act(table, "referee", "resolve"), "referee", "resolve")
    return act(table, "referee", "end_combat", reason="they part")


def _sizes(table: T) -> tuple[int, int]:
    """The combats in the state, and in the referee's observation of it."""
    shown = table.visible_state("referee")["combats"]  # type: ignore[index]
    return len(table.state.combats), len(shown)


@pytest.mark.parametrize("fought", [1, 3, 8])
def test_the_state_does_not_grow_with_the_combats_ended(fought: int) -> None:
    """After any number of ended combats the live state holds one: the last begun (the
    evening's conflict, still read by the result); the next combat is numbered on."""
    table = start(_evening())
    for _ in range(fought):
        table = _parted(table)
    assert _sizes(table) == (1, 1)
    assert table.state.combats[0].id == f"combat-{fought}" and table.state.combats[0].ended
    conflict = table.procedure.conflict(table.state)
    assert conflict is not None and conflict.over
    table = act(table, "alf", "start_combat", targets=["bob"])
    assert [c.id for c in table.state.combats] == [f"combat-{fought + 1}"]


def test_a_running_combat_stays_while_others_end() -> None:
    """Two combats at once: the one still running stays in the state when the other ends,
    whichever began first."""
    table = act(start(_evening()), "cat", "start_combat", targets=["dan"])
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = act(table, "referee", "end_combat", combat="combat-2", reason="they part")
    assert [(c.id, c.ended) for c in table.state.combats] == [
        ("combat-1", False),
        ("combat-2", True),
    ]
    table = _parted(act(table, "referee", "end_combat", combat="combat-1", reason="stopped"))
    assert [(c.id, c.ended) for c in table.state.combats] == [("combat-3", True)]
    with pytest.raises(RuleError, match="combat-1 is over"):
        act(table, "referee", "resolve", combat="combat-1")


def test_the_victor_keeps_their_way_after_the_combat_leaves_the_state() -> None:
    """Taking Damage, "the victor can have his or her way with them": Cat fells Dan; the
    combat leaves the state once Alf and Bob fight another, and Cat is still Dan's victor —
    Alf is not."""
    table = act(start(_evening()), "cat", "draw", item="axe")
    table = act(table, "cat", "start_combat", targets=["dan"])
    table = act(table, "cat", "declare", action="attack", target="dan")
    table = act(act(table, "dan", "declare", action="defend"), "referee", "resolve", [6, 6, 6])
    table = _parted(table)
    assert [c.id for c in table.state.combats] == ["combat-2"]
    assert victors(table.state, "dan") == ("cat",)
    with pytest.raises(RuleError, match="only the victor"):
        act(table, "alf", "search", target="dan")
    assert last(act(table, "cat", "search", target="dan"), "character.searched")["target"] == "dan"


def test_replaying_the_log_gives_the_same_state_without_the_ended_combats() -> None:
    """The ended combats remain in the log: a replay of it, and the table's record, give the
    same live state."""
    table = act(Table.start(PROCEDURE, _evening(), system="intrigue"), "cat", "draw", item="axe")
    table = act(table, "cat", "start_combat", targets=["dan"])
    table = act(table, "cat", "declare", action="attack", target="dan")
    table = act(act(table, "dan", "declare", action="defend"), "referee", "resolve", [6, 6, 6])
    for _ in range(3):
        table = _parted(table)
    assert Table.replay(PROCEDURE, _evening(), table.log).state == table.state
    assert Table.from_record(table.to_record(), PROCEDURE).state == table.state
    assert sum(e.kind == "combat.ended" for e in table.log) == 4


def test_a_combat_ended_is_over_and_one_never_begun_is_no_combat() -> None:
    """Combat rules: of two combats begun and ended, the first has gone to the log ("over");
    a number never begun (0, or past the last), or a name that is no combat's, is no combat."""
    state = _parted(_parted(start(_evening()))).state
    assert state.combat("combat-2").ended
    with pytest.raises(RuleError, match="combat-1 is over"):
        state.combat("combat-1")
    for never in ("combat-0", "combat-3", "melee"):
        with pytest.raises(RuleError, match=f"no combat '{never}'"):
            state.combat(never)

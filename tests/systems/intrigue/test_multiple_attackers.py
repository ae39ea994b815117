"""Multiple Attackers (rules text, "Multiple Attackers"): groups of up to four, who may join one,
and what each seat sees of a group's attack.
"""

from __future__ import annotations

import pytest

from referee.core import RuleError

from .helpers import _armed, _round, act, last, start
from .test_combat import declare, fight
from .test_grappling import _cat_holds_bob


def test_a_seat_sees_a_group_members_part_and_the_round_over() -> None:
    """Groups / Combat rules: Dan helps Alf's Attack on Cat; every seat sees Dan's part named
    with its target, and, once the round is resolved, that it is over."""
    table = act(start(_armed()), "alf", "start_combat", targets=["cat"])
    table = act(table, "dan", "join", **{"with": "alf"})
    table = act(table, "alf", "declare", action="attack", target="cat", group=["dan"])
    table = act(table, "cat", "declare", action="defend")
    shown = table.visible_state("public")["combats"]["combat-1"]  # type: ignore[index]
    assert shown["declarations"]["dan"] == {"action": "group", "target": "cat", "resolved": False}
    assert shown["in_round"] is True
    table = act(table, "referee", "resolve", [1, 1, 1])
    while table.state.combats[-1].in_round:
        table = act(table, "referee", "resolve")
    shown = table.visible_state("public")["combats"]["combat-1"]  # type: ignore[index]
    assert shown["in_round"] is False and shown["pending"] == []


def test_a_holder_may_not_join_a_group() -> None:
    """Multiple Attackers: a character Holding another Squeezes, Throws or Releases; they may not
    lend a hand to a group's Attack."""
    with pytest.raises(RuleError, match="cat is Holding or Held"):
        declare(_cat_holds_bob(), "alf", "attack", target="bob", group=["cat"])


def test_a_group_member_is_another_fighter_named_once() -> None:
    """Multiple Attackers: the leader is not one of their own helpers."""
    table = act(fight("alf", "bob"), "cat", "join", **{"with": "alf"})
    with pytest.raises(RuleError, match="each member once"):
        declare(table, "alf", "attack", target="bob", group=["alf"])
    with pytest.raises(RuleError, match="each member once"):
        declare(table, "alf", "attack", target="bob", group=["cat", "cat"])


def test_a_group_of_four_attacks_together() -> None:
    """Multiple Attackers: "up to 4 characters" may attack one target together."""
    table = fight("alf", "bob")
    for who in ("cat", "dan", "eve"):
        table = act(table, who, "join", **{"with": "alf"})
    table = declare(table, "alf", "attack", target="bob", group=["cat", "dan", "eve"])
    assert last(table, "combat.declared")["group"] == ["cat", "dan", "eve"]


def test_a_fighter_who_has_declared_may_not_join_a_later_group() -> None:
    """Multiple Attackers: a helper gives their own action to the group; one who has already
    declared theirs this round cannot join another's."""
    table = act(fight("alf", "bob"), "cat", "join", **{"with": "alf"})
    table, _ = _round(
        table,
        [
            ("alf", {"action": "defend"}),
            ("cat", {"action": "defend"}),
            ("bob", {"action": "defend"}),
        ],
    )
    table = declare(table, "cat", "defend")  # Combat 3 declares before Alf's 2
    with pytest.raises(RuleError, match="cat cannot join alf's action now"):
        declare(table, "alf", "attack", target="bob", group=["cat"])

"""A combat's rounds (rules text, "Combat rules"): who may resolve a round and begin the next,
the referee ending a combat, and a combat ending when one side is out.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import RuleError

from .helpers import C1, _armed, _cast, _rolled, act, character, last, start
from .test_combat import T, declare, fight, knock_out_bob
from .test_combat_actions import two_combats


def test_a_combat_the_referee_ends_mid_round_is_over_with_nobody_held_or_pending() -> None:
    """Combat rules: the referee ends a combat in the middle of a round (Cat had declared a
    Squeeze of the Bob she holds): everyone's view shows it over, out of its round, with no
    hold left and nobody still to declare."""
    table = act(start(_armed()), "cat", "start_combat", targets=["bob"])
    table = act(table, "cat", "declare", action="grab", target="bob")
    table = act(table, "bob", "declare", action="defend")
    table = act(act(table, "referee", "resolve", [6, 6, 6]), "referee", "resolve")
    table = act(table, "cat", "declare", action="squeeze")
    table = act(table, "referee", "end_combat", combat="combat-1", reason="stopped")
    shown = table.visible_state("public")["combats"]["combat-1"]  # type: ignore[index]
    assert (shown["ended"], shown["in_round"], shown["holds"], shown["pending"]) == (
        True,
        False,
        {},
        [],
    )
    assert table.state.combats[-1].holder_of("bob") is None


def test_a_combat_ends_when_one_side_is_out_and_the_log_says_so() -> None:
    """Combat rules: with Bob, the only one on his side, knocked out by Alf's cannon, the combat
    is over, "one side is out"."""
    table = act(start(_cast()), "alf", "draw", item="cannon")
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = act(table, "alf", "declare", action="attack", target="bob")
    table = act(table, "bob", "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    assert _rolled(table, "combat.ended") == {"combat": C1, "reason": "one side is out"}


def _referee_menu(table: T) -> list[tuple[Any, ...]]:
    return [
        (
            c.actor,
            c.kind,
            c.label,
            {k: getattr(v, "values", None) for k, v in c.params.items()},
            [(o.label, o.rule) for o in c.odds],
        )
        for c in table.legal_actions("referee")
    ]


def test_the_referee_resolves_a_round_once_all_have_declared_and_may_admit_the_able() -> None:
    """The referee resolves a round once everyone has declared, seeing its odds; may end a
    running combat; and may admit into it ("unless a referee rules otherwise") anyone able who
    is in no combat: not those fighting, nor the Knocked Out."""
    c1 = {"combat": ("combat-1",)}
    admit = (
        "referee",
        "admit",
        "",
        {"character": ("cat", "dan", "eve", "kro"), "with": ("alf", "bob")},
        [],
    )
    table = act(fight("alf", "bob"), "referee", "next_round")
    assert _referee_menu(table) == [("referee", "end_combat", "", c1, []), admit]
    table = declare(declare(table, "alf", "attack", target="bob"), "bob", "defend")
    assert _referee_menu(table) == [
        ("referee", "resolve", "resolve", c1, [("Alf attack Bob", "Combat Actions")]),
        ("referee", "end_combat", "", c1, []),
        admit,
    ]
    table = act(knock_out_bob(), "cat", "start_combat", targets=["dan"])
    c2 = {"combat": ("combat-2",)}
    assert _referee_menu(table) == [
        ("referee", "next_round", "", c2, []),
        ("referee", "end_combat", "", c2, []),
        ("referee", "admit", "", {"character": ("alf", "eve", "kro"), "with": ("cat", "dan")}, []),
    ]


def test_a_fighter_resolves_only_the_combat_they_are_in() -> None:
    """Combat rules: a fighter may move their own combat on; one not fighting, or naming
    another combat, is refused."""
    table = act(fight("alf", "bob"), "cat", "start_combat", targets=["dan"])
    table = declare(declare(table, "alf", "defend"), "bob", "defend")
    with pytest.raises(RuleError, match="alf is in combat-1, not combat-2"):
        act(table, "alf", "resolve", combat="combat-2")
    table = act(table, "alf", "resolve", combat="combat-1")
    assert last(table, "combat.place_resolved")["characters"] == ["alf"]
    with pytest.raises(RuleError, match="eve is not in a combat"):
        act(table, "eve", "resolve")


def test_a_fighter_resolves_and_begins_the_rounds_of_their_own_combat_alone() -> None:
    """Initiative, Combat Actions: a fighter may resolve the round of the combat they are in
    (its rolls are made) and begin its next round, but not another combat's."""
    table = two_combats()
    table = act(table, "bob", "resolve", [1, 1, 1], combat="combat-1")
    assert last(table, "attack.rolled")["attackers"] == ["alf"]
    table = act(table, "bob", "resolve", combat="combat-1")  # Bob's defence: the round ends
    assert not table.state.combat("combat-1").in_round
    with pytest.raises(RuleError, match="alf is in combat-1, not combat-2"):
        act(table, "alf", "next_round", combat="combat-2")
    table = act(table, "alf", "next_round", combat="combat-1")
    assert last(table, "combat.round_started") | {"combat": "combat-1", "round": 2} == last(
        table, "combat.round_started"
    )
    assert table.state.combat("combat-1").in_round


def test_a_knocked_out_fighter_may_still_move_their_combat_on() -> None:
    """Combat rules, Initiative: the round goes on around the Knocked Out. Alf's cosh knocks Bob
    out while Cat fights on; Bob, out, may still resolve his combat's next place (his own
    defence, which lapses)."""
    sheets = {
        "alf": character("Alf", 11, combat=3, stamina=6, items={"cosh": {"damage": 4}}),
        "bob": character("Bob", 12, combat=1, stamina=6),
        "cat": character("Cat", 13, combat=0, stamina=6),
    }
    table = act(start({"start": "19:30", "characters": sheets}), "alf", "draw", item="cosh")
    table = act(table, "alf", "start_combat", targets=["bob", "cat"])
    table = act(table, "alf", "declare", action="attack", target="bob")
    table = act(act(table, "bob", "declare", action="defend"), "cat", "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    assert table.state.status("bob").knocked_out and table.state.running
    table = act(table, "bob", "resolve")
    assert last(table, "combat.place_resolved")["characters"] == ["bob"]

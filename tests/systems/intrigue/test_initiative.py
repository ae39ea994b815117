"""Initiative (rules text, "Initiative"): the order of declaring, ties, and holding an action
until a later time.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, RuleError
from referee.systems.intrigue.odds import upcoming
from referee.systems.intrigue.rounds import pending_declarers

from .helpers import _ARMS, _RESOLVE, _SCREAM, _armed, _cast, _d, _menu, act, last, start
from .test_combat import combat, declare, fight, resolve


def _holding(alf: str) -> Any:
    """Alf against Bob and Dan, round 1: Alf (the starter) declares ``alf``, Bob holds his
    action, Dan (Combat 1, Bob's rank) attacks Alf."""
    table = act(start(_armed()), "alf", "start_combat", targets=["bob"])
    table = act(table, "dan", "join", **{"with": "bob"})
    table = act(table, "alf", "declare", action=alf)
    table = act(table, "bob", "declare", action="hold")
    return act(table, "dan", "declare", action="attack", target="alf")


def test_a_held_action_comes_after_a_tied_place_but_not_after_another_holder() -> None:
    """Initiative: "Ties act simultaneously. A character can choose to 'hold' their action until
    a later time" — after the holder's own place. Bob, who holds, waits for Dan's place (Dan's
    Combat 1 ties his) to resolve; he does not wait for Alf, who holds too."""
    table = act(_holding("defend"), "referee", "resolve")  # Alf's Defensive Action
    with pytest.raises(RuleError, match="dan acts first"):
        act(table, "bob", "declare", [6, 6, 6], action="attack", target="alf")
    table = act(table, "referee", "resolve", [1, 1, 1])  # Dan's attack misses
    table = act(table, "bob", "declare", [6, 6, 6], action="attack", target="alf")
    assert last(table, "attack.rolled")["attackers"] == ["bob"]
    table = act(_holding("hold"), "referee", "resolve", [1, 1, 1])  # Dan's place
    table = act(table, "bob", "declare", [6, 6, 6], action="attack", target="alf")
    assert last(table, "attack.rolled")["attackers"] == ["bob"]


def _knife_fight_round_two() -> Any:
    """Bob and Dan (audit round 3, I-N1): both Combat 2, knives of 5, Stamina 5, in round 2."""
    knife = {"knife": {"damage": 5}}
    table = start(
        {
            "start": "20:00",
            "characters": {
                who: {
                    "name": who.capitalize(),
                    "number": n,
                    "combat": 2,
                    "stamina": 5,
                    "items": knife,
                }
                for who, n in (("bob", 12), ("dan", 14))
            },
        }
    )
    table = act(act(table, "bob", "draw", item="knife"), "dan", "draw", item="knife")
    table = act(table, "bob", "start_combat", targets=["dan"])
    table = act(act(table, "bob", "declare", action="defend"), "dan", "declare", action="defend")
    return act(act(table, "referee", "resolve"), "referee", "resolve")


def test_holding_never_lets_a_tied_character_strike_first() -> None:
    """Initiative: "Ties act simultaneously. A character can choose to 'hold' their action until
    a later time": a held action comes after every place ranked at or above the holder's. Bob
    holds in round 2; Dan, tied with him, attacks: Bob may not strike before Dan's place, which
    knocks him out (audit round 3, I-N1: Bob stood and Dan fell)."""
    table = act(_knife_fight_round_two(), "bob", "declare", action="hold")
    table = act(table, "dan", "declare", action="attack", target="bob")
    with pytest.raises(RuleError, match="dan acts first"):
        act(table, "bob", "declare", [6, 6, 6], action="attack", target="dan")
    assert _menu(table, "bob") == [_RESOLVE]
    assert (
        upcoming(table.state, Action("bob", "declare", {"action": "attack", "target": "dan"})) == []
    )
    table = act(table, "referee", "resolve", [6, 6, 6])
    assert table.state.status("bob").knocked_out and not table.state.status("dan").knocked_out
    assert not table.state.running


def test_tied_knives_without_a_hold_knock_each_other_out() -> None:
    """Initiative: "Ties act simultaneously": Bob and Dan, tied, each knife the other in round
    2; both attacks land and both are Knocked Out."""
    table = act(_knife_fight_round_two(), "bob", "declare", action="attack", target="dan")
    table = act(table, "dan", "declare", action="attack", target="bob")
    table = act(table, "referee", "resolve", [6, 6, 6, 6, 6, 6])
    assert table.state.status("bob").knocked_out and table.state.status("dan").knocked_out


def test_every_seat_sees_who_has_still_to_declare() -> None:
    """Combat rules, Initiative (combat is fought in the open): once Alf has declared, every
    seat sees that Cat is still to declare."""
    table = act(start(_armed()), "alf", "start_combat", targets=["cat"])
    table = act(table, "alf", "declare", action="defend")
    shown = table.visible_state("public")["combats"]["combat-1"]  # type: ignore[index]
    assert (shown["in_round"], shown["pending"]) == (True, ["cat"])


def test_nothing_is_resolved_until_everyone_has_declared() -> None:
    """Initiative: every character declares before the round is resolved — the referee may not
    resolve while Bob has still to declare."""
    table = act(start(_cast()), "alf", "start_combat", targets=["bob"])
    table = act(table, "alf", "declare", action="defend")
    with pytest.raises(RuleError, match="bob must declare first"):
        act(table, "referee", "resolve")


def test_a_held_action_is_declared_once_and_keeps_its_place() -> None:
    """Initiative: "A character can choose to hold their action until a later time": they may
    not hold it again; the action they then take (here drawing their cosh) is their own and is
    declared at the rank they held."""
    table = resolve(declare(declare(fight("alf", "bob"), "alf", "hold"), "bob", "defend"))
    with pytest.raises(RuleError, match="alf is already holding their action"):
        declare(table, "alf", "hold")
    table = declare(table, "alf", "draw", item="cosh")
    assert last(table, "item.drawn") == {"combat": "combat-1", "character": "alf", "item": "cosh"}
    declared = [
        (e.data["character"], e.data["action"], e.data["rank"])
        for e in table.log
        if e.kind == "combat.declared"
    ]
    assert declared[-1][:2] == ("alf", "draw") and declared[-1][2] == declared[0][2]


def test_after_round_one_the_higher_combat_stat_declares_first() -> None:
    """Initiative: "the character with the highest Combat Stat goes first": Bob started the
    fight, but in round 2 Cat (Combat 3) declares before him (Combat 1), and a refusal names
    the rule."""
    table = declare(declare(fight("bob", "cat"), "bob", "defend"), "cat", "defend")
    table = act(resolve(resolve(table)), "referee", "next_round")
    assert pending_declarers(table.state, combat(table)) == ("cat", "bob")
    with pytest.raises(RuleError) as error:
        declare(table, "bob", "defend")
    assert error.value.rule == "Combat rules: Initiative"


def test_a_held_action_is_offered_once_those_ranked_above_have_acted() -> None:
    """Initiative: "hold their action until a later time": Alf (Combat 2) holds; while Cat
    (Combat 3) has still to act he may only see the round resolved; once her place is resolved
    he may take his action, before Bob (Combat 1)."""
    table = act(fight("cat", "bob"), "alf", "join", **{"with": "cat"})
    table = declare(declare(declare(table, "cat", "defend"), "alf", "hold"), "bob", "defend")
    assert _menu(table, "alf") == [_RESOLVE]
    assert _menu(resolve(table), "alf") == [
        _d("defend"),
        _SCREAM,
        _d("attack", target=("bob",)),
        _d("grab", target=("bob",)),
        _ARMS,
        _RESOLVE,
    ]


def test_a_held_action_shows_its_roll_only_when_it_may_be_taken() -> None:
    """Initiative: a held action "until a later time" resolves at once when taken, so its roll
    is previewed then — not while Cat, ranked above, has still to act; an ordinary declaration,
    a second one, or one by a character in no combat rolls nothing."""
    attack = Action("alf", "declare", {"action": "attack", "target": "bob"})
    table = act(act(fight("cat", "bob"), "alf", "join", **{"with": "cat"}), "referee", "next_round")
    assert upcoming(table.state, Action("bob", "declare", {"action": "defend"})) == []
    table = declare(declare(table, "cat", "defend"), "alf", "hold")
    assert upcoming(table.state, attack) == []  # Bob has still to declare
    table = declare(table, "bob", "defend")
    assert upcoming(table.state, attack) == []
    table = resolve(table)
    assert [
        (words, check.target, check.modifier) for words, check in upcoming(table.state, attack)
    ] == [("Alf attack Bob: 3d6+2 > 14", 14, 2)]
    assert upcoming(table.state, Action("dan", "declare", {"action": "defend"})) == []
    table = act(fight("alf", "bob"), "referee", "next_round")
    table = declare(declare(table, "alf", "attack", target="bob"), "bob", "defend")
    assert upcoming(table.state, attack) == []

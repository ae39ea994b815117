"""Grabbing, Squeeze, Throw or Release, and Break Free (rules text, "Combat Actions"): the holder's
and the held's actions, their odds, and how a hold ends.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import RuleError
from referee.systems.intrigue.state import Hold

from .helpers import (
    _ARMS,
    _NEXT,
    _SCREAM,
    C1,
    T,
    _armed,
    _cast,
    _d,
    _menu,
    _previews,
    _rolled,
    _round,
    act,
    last,
    start,
)
from .test_combat import combat, declare, fight, resolve


def test_a_release_ends_that_hold_only() -> None:
    """Squeeze, Throw or Release: a released character "is considered to have been released at
    the start of the next turn"; another hold in the same combat goes on. Cat grabs Bob and Alf
    grabs Dan; then Cat releases Bob while Alf squeezes Dan: at the next round only Bob is
    free."""
    table = act(start(_armed()), "cat", "start_combat", targets=["bob"])
    table = act(table, "alf", "join", **{"with": "cat"})
    table = act(table, "dan", "join", **{"with": "bob"})
    table = act(table, "cat", "declare", action="grab", target="bob")
    table = act(table, "alf", "declare", action="grab", target="dan")
    table = act(table, "bob", "declare", action="defend")
    table = act(table, "dan", "declare", action="defend")
    table = act(act(table, "referee", "resolve", [6, 6, 6]), "referee", "resolve", [6, 6, 6])
    table = act(table, "referee", "resolve")
    for who, action in (("alf", "squeeze"), ("cat", "release"), ("bob", "scream")):
        table = act(table, who, "declare", action=action)
    table = act(table, "dan", "declare", action="scream")
    while table.state.combats[-1].in_round:
        table = act(table, "referee", "resolve")
    assert table.state.combats[-1].holds == (Hold("cat", "bob", ending=True), Hold("alf", "dan"))
    table = act(table, "referee", "next_round")
    combat = table.state.combats[-1]
    assert (combat.holder_of("bob"), combat.holder_of("dan")) == (None, "alf")


def _bob_held_and_felled(*, alf_grabs_dan: bool) -> Any:
    """Cat, Alf and Eve against Bob and Dan. Round 1: Cat grabs Bob (and Alf grabs Dan, or
    defends); Eve's club (7) then knocks the Held Bob out."""
    table = act(start(_armed(eve={"items": {"club": {"damage": 7}}})), "eve", "draw", item="club")
    table = act(table, "cat", "start_combat", targets=["bob"])
    for who, side in (("alf", "cat"), ("eve", "cat"), ("dan", "bob")):
        table = act(table, who, "join", **{"with": side})
    table = act(table, "cat", "declare", action="grab", target="bob")
    if alf_grabs_dan:
        table = act(table, "alf", "declare", action="grab", target="dan")
    else:
        table = act(table, "alf", "declare", action="defend")
    table = act(table, "bob", "declare", action="defend")
    table = act(table, "dan", "declare", action="defend")
    table = act(table, "eve", "declare", action="attack", target="bob")
    table = act(table, "referee", "resolve", [6, 6, 6])
    table = act(table, "referee", "resolve", [6, 6, 6] if alf_grabs_dan else [])
    table = act(act(table, "referee", "resolve"), "referee", "resolve", [6, 6, 6])
    assert table.state.status("bob").knocked_out and not table.state.combats[-1].in_round
    return table


def test_a_held_character_knocked_out_is_released_at_the_next_turn() -> None:
    """Grabbing / Taking Damage (the module's reading): a Knocked Out character holds nobody and
    is held by nobody — Cat's hold on Bob ends, released at the start of the next turn like a
    Release; Alf's hold on Dan goes on."""
    alone = _bob_held_and_felled(alf_grabs_dan=False)
    assert alone.state.combats[-1].holds == (Hold("cat", "bob", ending=True),)
    assert act(alone, "referee", "next_round").state.combats[-1].holds == ()
    both = _bob_held_and_felled(alf_grabs_dan=True)
    assert both.state.combats[-1].holds == (Hold("cat", "bob", ending=True), Hold("alf", "dan"))
    after = act(both, "referee", "next_round").state.combats[-1]
    assert after.holds == (Hold("alf", "dan"),)


def test_the_odds_of_a_grab_and_a_break_free_are_shown_once_all_have_declared() -> None:
    """Combat Actions (combat is fought in the open): the next resolution's rolls are previewed
    to every seat only once everyone has declared — a Grab (+11, on the defending Bob) and a
    Break Free (3d6 + Strength each side); a Squeeze rolls nothing."""
    table = act(start(_armed()), "cat", "start_combat", targets=["bob"])
    table = act(table, "cat", "declare", action="grab", target="bob")
    assert _previews(table) == []  # Bob has still to declare
    table = act(table, "bob", "declare", action="defend")
    assert _previews(table) == [
        ("Cat grab Bob", "Combat Actions", "3d6+1 > 15", {"failure": "49/54", "success": "5/54"})
    ]
    table = act(act(table, "referee", "resolve", [6, 6, 6]), "referee", "resolve")
    assert _previews(table) == []  # between rounds
    table = act(table, "cat", "declare", action="squeeze")
    table = act(table, "bob", "declare", action="break_free")
    assert _previews(table) == [
        (
            "Bob breaks free of Cat",
            "Combat Actions",
            "3d6+1 vs 3d6+1",
            {"failure": "4249/7776", "success": "3527/7776"},
        )
    ]


def test_a_fighter_grabbed_before_their_turn_loses_their_action() -> None:
    """Grabbing: a character grabbed before their turn "can take no further Actions that turn":
    Bob's attack lapses, and the log says why."""
    table = act(start(_cast()), "alf", "start_combat", targets=["bob"])
    _, told = _round(
        table,
        [
            ("alf", {"action": "grab", "target": "bob"}),
            ("bob", {"action": "attack", "target": "alf"}),
        ],
        [6, 6, 6],
    )
    assert told == [
        ("character.grabbed", {"combat": C1, "holder": "alf", "held": "bob"}),
        (
            "combat.action_lapsed",
            {
                "combat": C1,
                "character": "bob",
                "reason": "Bob was grabbed: no further Actions that turn",
            },
        ),
    ]


def _alf_holds_bob(**changes: dict[str, Any]) -> T:
    table = act(start(_cast(**changes)), "alf", "start_combat", targets=["bob"])
    table, _ = _round(
        table,
        [("alf", {"action": "grab", "target": "bob"}), ("bob", {"action": "defend"})],
        [6, 6, 6],
    )
    assert table.state.combats[-1].holder_of("bob") == "alf"
    return table


def test_a_squeeze_hurts_the_held_and_a_throw_hurts_them_and_ends_the_hold() -> None:
    """Squeeze, Throw or Release: a Squeeze does damage by the holder's Strength (Alf's 2: 1) and
    the hold goes on; a Throw does the holder's Strength in damage (2) and ends the hold. The
    log names the hand: "squeeze", "throw"."""
    table, squeezed = _round(
        _alf_holds_bob(), [("alf", {"action": "squeeze"}), ("bob", {"action": "scream"})]
    )
    assert squeezed == [
        (
            "damage.taken",
            {
                "character": "bob",
                "amount": 1,
                "total": 1,
                "by": "squeeze",
                "knocked_out": False,
                "stamina": 5,
            },
        ),
        ("combat.action_taken", {"combat": C1, "character": "bob", "action": "scream"}),
    ]
    _, thrown = _round(table, [("alf", {"action": "throw"}), ("bob", {"action": "scream"})])
    assert thrown == [
        (
            "damage.taken",
            {
                "character": "bob",
                "amount": 2,
                "total": 3,
                "by": "throw",
                "knocked_out": False,
                "stamina": 5,
            },
        ),
        ("hold.ends", {"combat": C1, "holder": "alf", "held": "bob", "how": "thrown"}),
        ("combat.action_taken", {"combat": C1, "character": "bob", "action": "scream"}),
    ]


def test_a_release_ends_the_hold_with_no_damage() -> None:
    """Squeeze, Throw or Release: a Release does no damage; the hold ends "released"."""
    _, told = _round(
        _alf_holds_bob(), [("alf", {"action": "release"}), ("bob", {"action": "scream"})]
    )
    assert told == [
        ("hold.ends", {"combat": C1, "holder": "alf", "held": "bob", "how": "released"}),
        ("combat.action_taken", {"combat": C1, "character": "bob", "action": "scream"}),
    ]


def test_breaking_free_is_strength_against_strength_and_ends_the_hold() -> None:
    """Breaking Free: "an opposed roll of 3d6 plus Strength" — Bob's 6+6+6 + Strength 3 = 21
    against Alf's 1+1+1 + 2 = 5: the hold ends "broke free"."""
    table, told = _round(
        _alf_holds_bob(),
        [("alf", {"action": "squeeze"}), ("bob", {"action": "break_free"})],
        [6, 6, 6, 1, 1, 1],
    )
    rolled = _rolled(table, "hold.break_free_rolled")
    card = rolled.pop("roll")
    assert (card["label"], card["rule"]) == ("Bob breaks free of Alf", "Break Free")
    assert rolled == {
        "combat": C1,
        "character": "bob",
        "holder": "alf",
        "total": 21,
        "holder_total": 5,
        "chance": "4249/7776",
        "faces": [6, 6, 6, 1, 1, 1],
        "broke_free": True,
    }
    assert told[-1] == (
        "hold.ends",
        {"combat": C1, "holder": "alf", "held": "bob", "how": "broke free"},
    )


def _cat_holds_bob() -> T:
    """Cat grabs Bob in round 1 with Alf on her side; Alf defends and Bob's attack lapses."""
    table = act(fight("cat", "bob"), "alf", "join", **{"with": "cat"})
    table, _ = _round(
        table,
        [
            ("cat", {"action": "grab", "target": "bob"}),
            ("alf", {"action": "defend"}),
            ("bob", {"action": "attack", "target": "cat"}),
        ],
        [6, 6, 6],
    )
    assert combat(table).holder_of("bob") == "cat"
    return table


def test_the_held_may_be_attacked_but_not_grabbed_again() -> None:
    """Grabbing: a Held character may be hit by others ("other characters may attack the Held
    character"), but cannot be grabbed a second time."""
    table = _cat_holds_bob()
    with pytest.raises(RuleError, match="bob is already Held"):
        declare(table, "alf", "grab", target="bob")
    table = declare(table, "alf", "attack", target="bob")
    assert last(table, "combat.declared")["target"] == "bob"


def test_only_the_holder_throws_or_releases_and_each_declaration_names_the_other() -> None:
    """Squeeze, Throw, Release and Break Free are the holder's and the held's: another fighter
    may not Throw or Release; the holder's declaration names the held, the held's Break Free
    names the holder."""
    table = _cat_holds_bob()
    for kind in ("throw", "release", "squeeze"):
        with pytest.raises(RuleError, match="alf did not start the turn Holding a character"):
            declare(table, "alf", kind)
    for kind in ("throw", "release", "squeeze"):
        assert last(declare(table, "cat", kind), "combat.declared")["target"] == "bob"
    table = declare(declare(table, "cat", "squeeze"), "alf", "defend")
    table = declare(table, "bob", "break_free")
    assert last(table, "combat.declared")["target"] == "cat"


def test_a_held_fighter_may_not_rank_by_mind() -> None:
    """Grabbing: a Held character may only Break Free or Scream; they cannot turn to a mental
    ability the next round."""
    table = declare(declare(fight("cat", "kro"), "cat", "grab", target="kro"), "kro", "defend")
    table = resolve(resolve(table, (6, 6, 6)))
    assert combat(table).holder_of("kro") == "cat"
    assert "use_mind" not in {c.kind for c in table.legal_actions("kro")}
    with pytest.raises(RuleError, match="kro is Holding or Held"):
        act(table, "kro", "use_mind")


def test_the_holder_and_the_held_are_offered_only_their_own_actions() -> None:
    """Grabbing: Cat, Holding Bob, may Squeeze, Throw or Release; Alf may not Grab the Held
    Bob; Bob, Held and ranked last, may then only Break Free or Scream. Between rounds the
    first to declare may begin the next round by declaring."""
    table = _cat_holds_bob()
    cat = [_d("squeeze"), _d("throw"), _d("release")]
    alf = [_d("defend"), _SCREAM, _d("hold"), _d("attack", target=("bob",)), _ARMS]
    assert _menu(table, "cat") == [_NEXT, *cat]
    assert _menu(table, "alf") == [_NEXT, *alf]
    assert _menu(table, "bob") == [_NEXT]
    table = act(table, "referee", "next_round")
    assert (_menu(table, "cat"), _menu(table, "alf"), _menu(table, "bob")) == (cat, alf, [])
    table = declare(declare(table, "cat", "squeeze"), "alf", "defend")
    assert _menu(table, "bob") == [_d("break_free"), _SCREAM]

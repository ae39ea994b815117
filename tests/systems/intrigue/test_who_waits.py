"""A character with nothing open to them is told why and until when ("Taking Damage":
Knocked Out until they recover, dead; "Initiative": those of higher Combat declare first;
"Surprise": no action in the first turn) — in words their own seat may know."""

from __future__ import annotations

from referee.core import Waiting, observe
from referee.systems.intrigue.waiting import why_waiting

from .helpers import act, character, start


def cast() -> dict[str, object]:
    return {
        "start": "19:30",
        "characters": {
            "alf": character("Alf", 11, combat=3, stamina=6, items={"cosh": {"damage": 4}}),
            "bob": character("Bob", 12, combat=1, stamina=6),
            "cat": character("Cat", 13, combat=0, stamina=6),
        },
    }


def _waiting(table: object, who: str) -> list[Waiting]:
    return list(observe(table, who).waiting)  # type: ignore[arg-type]


def test_a_knocked_out_character_waits_until_the_time_she_wakes() -> None:
    """ "Otherwise they will recover 5 minutes after the combat ends": Bob, knocked out at 19:35
    in a combat that ends then, is told he waits until 19:40."""
    table = act(start(cast()), "alf", "draw", item="cosh")
    table = act(table, "alf", "start_combat", targets=["bob"], at=300)
    table = act(table, "alf", "declare", action="attack", target="bob")
    table = act(table, "bob", "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    assert table.state.status("bob").knocked_out and not table.state.running
    assert _waiting(table, "bob") == [
        Waiting("bob", "Bob is knocked out", "until 19:40", "Taking Damage")
    ]
    assert _waiting(table, "alf") == []  # on his feet, with things to do
    table = table.advance(table.now + 5 * 60)
    assert _waiting(table, "bob") == []


def test_knocked_out_while_the_combat_goes_on_waits_for_its_end() -> None:
    """Knocked out in a combat still running (Cat fights on): the waking time is not known yet."""
    table = act(start(cast()), "alf", "draw", item="cosh")
    table = act(table, "alf", "start_combat", targets=["bob", "cat"])
    table = act(table, "alf", "declare", action="attack", target="bob")
    table = act(table, "bob", "declare", action="defend")
    table = act(table, "cat", "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    assert table.state.running and table.state.status("bob").knocked_out
    [waiting] = _waiting(table, "bob")
    assert waiting.reason == "Bob is knocked out"
    assert waiting.until == (
        "until 5 minutes after the combat ends (or a Medicine roll of 14 or more)"
    )


def test_those_of_higher_initiative_declare_first() -> None:
    """ "all characters act in the order of their Combat stat, highest to lowest": in round 2
    Cat (Combat 0) waits for Alf (3) and Bob (1) to declare."""
    table = act(start(cast()), "alf", "start_combat", targets=["bob", "cat"])
    for who in ("alf", "bob", "cat"):
        table = act(table, who, "declare", action="defend")
    for _ in range(3):
        table = act(table, "referee", "resolve")
    table = act(table, "referee", "next_round")
    assert _waiting(table, "cat") == [
        Waiting(
            "cat",
            "Alf, Bob declare first in combat-1 (higher initiative)",
            "until they have declared",
            "Initiative",
        )
    ]
    table = act(table, "alf", "declare", action="defend")
    assert _waiting(table, "cat")[0].reason == "Bob declares first in combat-1 (higher initiative)"
    table = act(table, "bob", "declare", action="defend")
    assert _waiting(table, "cat") == []


def test_the_surprised_wait_out_the_first_turn() -> None:
    """ "The character who was surprised does not get an action during this first turn"."""
    table = act(start(cast()), "alf", "start_combat", targets=["bob"], surprised=["bob"])
    table = act(table, "referee", "next_round")  # round 1 under way: Alf has yet to declare
    assert _waiting(table, "bob") == [
        Waiting("bob", "Bob was surprised: no action this first turn", "until round 2", "Surprise")
    ]


def test_the_dead_are_told_so() -> None:
    """ "When all of the Wounds are marked off, the character is dead"; the victor's knife."""
    table = act(start(cast()), "alf", "draw", item="cosh")
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = act(table, "alf", "declare", action="attack", target="bob")
    table = act(table, "bob", "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    table = act(table, "alf", "slay", target="bob")
    assert _waiting(table, "bob") == [Waiting("bob", "Bob is dead", None, "Taking Damage")]


def test_only_the_surprised_wait_for_surprise_and_none_outside_a_combat() -> None:
    """ "The character who was surprised does not get an action during this first turn": Alf,
    who surprised Bob, is not held back by it; Cat, in no combat at all, waits for nothing."""
    table = act(start(cast()), "alf", "start_combat", targets=["bob"], surprised=["bob"])
    table = act(table, "referee", "next_round")
    assert why_waiting(table.state, "bob") is not None
    assert why_waiting(table.state, "alf") is None
    assert why_waiting(table.state, "cat") is None

"""Contingency Envelopes whose condition the engine sees ("Open if shot", knocked out, robbed,
searched): raised as a prompt to the holder the moment it happens, even Knocked Out, secret to
the holder and the referee (rulings 28, 29)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.core import RuleError, Viewer, observe, view

from .helpers import act, character, last, start


def evening(**more: Any) -> dict[str, Any]:
    """Alf carries a pistol (a gun's Item Card) and a cosh; the Countess carries envelopes to
    open if shot, if knocked out, if robbed, if searched, and one if stabbed (nothing the
    engine sees)."""
    sheets = {
        "alf": character(
            "Alf",
            11,
            combat=2,
            stamina=6,
            items={"pistol": {"damage": 5, "gun": True}, "cosh": {"damage": 5}},
        ),
        "countess": character(
            "The Countess",
            40,
            combat=0,
            stamina=6,
            items={"locket": {}},
            contingency_envelopes=[
                {"id": "shot", "event": "shot", "contents": "The locket stopped the bullet."},
                {"id": "out", "event": "knocked out", "contents": "You dream of Vienna."},
                {"id": "robbed", "event": "robbed", "contents": "The locket was a fake."},
                {"id": "searched", "event": "searched", "contents": "They found the letter."},
                {"id": "stabbed", "event": "stabbed", "contents": "Not today."},
            ],
        ),
        "maid": character("The Maid", 51),
    }
    sheets.update(more)
    return {"start": "19:00", "characters": sheets}


def _countess_falls(weapon: str) -> Any:
    """Alf draws ``weapon`` and hits the Countess for 5 (over half her Stamina 6): Knocked Out,
    and the combat ends with her down."""
    table = act(start(evening()), "alf", "draw", item=weapon)
    table = act(table, "alf", "start_combat", targets=["countess"])
    table = act(table, "alf", "declare", action="attack", target="countess")
    table = act(table, "countess", "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])  # 18 + 2 > 0 + 10 + 3
    assert table.state.status("countess").knocked_out and not table.state.running
    return table


def test_open_if_shot_is_raised_to_the_holder_the_moment_a_gun_hits_her() -> None:
    """ "Open if shot" (Contingency Envelopes): a hit with a gun's Item Card is being shot
    ("Guns are treated in exactly the same way", Doing Damage); the engine sees it and the
    envelope may be opened at once — and so may "knocked out", which the same hit did."""
    table = _countess_falls("pistol")
    assert last(table, "contingency.openable") == {
        "holder": "countess",
        "envelopes": ["out"],
        "why": "event: knocked out",
    }
    told = [e.data["envelopes"] for e in table.log.events if e.kind == "contingency.openable"]
    assert told == [["shot"], ["out"]]  # shot as the bullet strikes, then she falls
    assert table.state.openable == {"shot", "out"}
    [prompt] = table.prompts()  # one prompt to her, naming both
    assert (prompt.actor, prompt.kinds, prompt.secret, prompt.blocking) == (
        "countess",
        ("open",),
        True,
        False,
    )
    assert (prompt.section, prompt.default) == ("Contingency Envelopes", None)
    assert prompt.reason == (
        "your envelopes “Open if shot” (shot) and “Open if knocked out” (out) may be opened now"
    )


def test_a_knocked_out_holder_is_offered_her_envelope_and_opens_it() -> None:
    """Ruling 29: the prompt reaches its holder even Knocked Out — the player still reads the
    paper — and opening is all she may do; the contents are hers alone."""
    table = _countess_falls("pistol")
    offers = table.legal_actions("countess")
    assert [(c.kind, c.params["envelope"].values) for c in offers] == [("open", ("shot", "out"))]
    seen = observe(table, "countess")
    assert [c.kind for c in seen.choices] == ["open"] and seen.choices[0].prompt
    assert not seen.waiting  # she has something to do
    with pytest.raises(RuleError, match="Knocked Out"):
        act(table, "countess", "perceive", target="alf")
    table = act(table, "countess", "open", envelope="shot")
    assert last(table, "envelope.opened")["contents"] == "The locket stopped the bullet."
    assert [p.reason for p in table.prompts()] == [
        "your envelope “Open if knocked out” (out) may be opened now"
    ]
    for other in ("alf", "maid", "public"):
        said = json.dumps([e.to_json() for e in view(table.log, Viewer(other))])
        assert "locket stopped" not in said and "Vienna" not in said


def test_the_prompt_is_the_holders_and_the_referees_alone() -> None:
    """Ruling 28: nobody else learns that an envelope of hers may be opened, nor that she has
    one (its event is told to her alone)."""
    table = _countess_falls("pistol")
    assert [p.actor for p in observe(table, "referee").prompts] == ["countess"]
    assert [p.actor for p in observe(table, "countess").prompts] == ["countess"]
    assert "countess" in observe(table, "referee").to_move
    for other in ("alf", "maid"):
        seen = observe(table, other)
        assert not seen.prompts
        assert "countess" not in seen.to_move  # knocked out: to move only for her envelope
        said = json.dumps(seen.to_json())
        assert "Open if shot" not in said and "contingency.openable" not in said


def test_a_cosh_is_not_a_gun_and_a_stab_is_not_seen() -> None:
    """A hit with a weapon that is not a gun is not being shot; "stabbed" is nothing the engine
    sees (the holder reports it, as before)."""
    table = _countess_falls("cosh")
    assert table.state.openable == {"out"}
    table = act(table, "countess", "open", envelope="out")
    assert not table.prompts()


def test_robbed_and_searched_are_seen_as_the_victor_does_them() -> None:
    """ "search them, rob them" (Taking Damage): the victor's search and robbery open the
    envelopes that wait for them, at that moment."""
    table = _countess_falls("cosh")
    table = act(table, "alf", "search", target="countess")
    assert last(table, "contingency.openable")["envelopes"] == ["searched"]
    table = act(table, "alf", "rob", target="countess", item="locket")
    assert last(table, "contingency.openable")["envelopes"] == ["robbed"]
    assert table.state.openable == {"out", "searched", "robbed"}
    [prompt] = table.prompts()
    assert prompt.reason == (
        "your envelopes “Open if knocked out” (out), “Open if robbed” (robbed) and "
        "“Open if searched” (searched) may be opened now"
    )


def test_a_shot_in_the_middle_of_a_combat_is_answered_in_it() -> None:
    """Shot but on her feet (3 damage of her Stamina 6): the prompt comes at once, in the
    combat; opening it is offered beside her Combat Actions and does not end her turn."""
    low = {"pistol": {"damage": 3, "gun": True}}
    table = act(
        start(evening(alf=character("Alf", 11, combat=2, stamina=6, items=low))),
        "alf",
        "draw",
        item="pistol",
    )
    table = act(table, "alf", "start_combat", targets=["countess", "maid"])
    table = act(table, "alf", "declare", action="attack", target="countess")
    table = act(table, "maid", "declare", action="defend")
    table = act(table, "countess", "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    assert not table.state.status("countess").knocked_out and table.state.running
    assert table.state.openable == {"shot"}
    kinds = [c.kind for c in table.legal_actions("countess")]
    assert "open" in kinds and "resolve" in kinds
    table = act(table, "countess", "open", envelope="shot")
    assert table.state.running and "open" not in [c.kind for c in table.legal_actions("countess")]


def test_the_dead_are_not_prompted() -> None:
    """Ruling 29: a holder who dies before opening it is asked nothing."""
    table = _countess_falls("cosh")
    table = act(table, "alf", "slay", target="countess")
    assert not table.prompts() and not table.legal_actions("countess")


def test_open_if_knocked_out_is_raised_when_an_unnoticed_mental_attack_fells_her() -> None:
    """An unobvious mental attack's damage is "taken as from any attack" (RULINGS.md, Round 3):
    Krockin's Whisper of Pain (4 of her Stamina 6) fells the Countess with no combat around it,
    and her envelope "Open if knocked out" may be opened at once, as after a blow."""
    whisper = {"mental": True, "obvious": False, "damage": 4}
    kro = character("Krockin", 33, mind=3, abilities={"Whisper of Pain": whisper})
    table = act(
        start(evening(kro=kro)),
        "kro",
        "mental_attack",
        [6, 6, 6],
        target="countess",
        ability="Whisper of Pain",
    )
    assert table.state.status("countess").knocked_out and not table.state.combats
    assert last(table, "contingency.openable") == {
        "holder": "countess",
        "envelopes": ["out"],
        "why": "event: knocked out",
    }
    assert table.state.openable == {"out"}

"""Audit M1, "Taking Damage": the victor may search and rob the Knocked Out (rulings 24–26).

"In the meantime, the victor can have his or her way with them (search them, rob them, slit
their throats…)": only the victor, only while the victim is Knocked Out after the combat, not
from inside another combat. A search shows the searcher the victim's Item Cards and the outsides
of their envelopes, never an envelope's contents; a robbery moves one Item Card.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.core import Event, RuleError, Table, Viewer, observe
from referee.systems.intrigue import PROCEDURE, IntrigueState
from referee.systems.intrigue.events import CHARACTER_SEARCHED, ITEM_ROBBED

from .helpers import act, character, last, start

T = Table[IntrigueState]

LETTER = "A letter from the Countess, unsigned."
PERCEIVED = "His accent slips: he is from Leeds."
CONTINGENT = "The bullet hit your hip flask."

CAST: dict[str, Any] = {
    "start": "20:00",
    "characters": {
        "alf": character("Alf", 11, combat=2, stamina=9, items={"knife": {"damage": 5}}),
        "bob": character(
            "Bob",
            12,
            combat=1,
            stamina=5,
            items={"pistol": {"damage": 5}, "letter": {"description": LETTER}},
            perception_envelopes=[
                {"id": "b-all", "to": "ALL", "target": 16, "contents": PERCEIVED}
            ],
            contingency_envelopes=[{"id": "b-shot", "event": "shot", "contents": CONTINGENT}],
        ),
        "passer": character("Passer", 14),
    },
}


def knocked_out(table: T, *, bob_draws: bool = True) -> T:
    """alf knocks bob out (a knife of 5 > half of bob's Stamina 5); the combat ends."""
    if bob_draws:
        table = act(table, "bob", "draw", item="pistol")
    table = act(table, "alf", "draw", item="knife")
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = act(table, "alf", "declare", action="attack", target="bob")
    table = act(table, "bob", "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    assert table.state.status("bob").knocked_out and not table.state.running
    return table


def seen(table: T, viewer: str) -> tuple[Event, str]:
    """The last event as ``viewer`` sees it, and its narration for them."""
    event = table.view(viewer)[-1]
    return event, PROCEDURE.describe(event, Viewer(viewer))


# -- search ----------------------------------------------------------------------------------


def test_the_victor_searches_and_sees_the_items_and_the_envelopes_outsides() -> None:
    """Ruling 25: the searcher is shown each Item Card and each envelope's outside."""
    table = act(knocked_out(start(CAST)), "alf", "search", target="bob")
    found = last(table, CHARACTER_SEARCHED)
    assert found["items"] == [
        {"name": "pistol", "damage": 5, "description": ""},
        {"name": "letter", "damage": None, "description": LETTER},
    ]
    assert found["envelopes"] == [
        {"id": "b-all", "kind": "perception", "label": "Give to ALL with a Roll of 16 or more"},
        {"id": "b-shot", "kind": "contingency", "label": "Open if shot"},
    ]
    _, words = seen(table, "alf")
    assert words == (
        "Alf searches Bob: finds pistol (damage 5), letter, envelope b-all (Give to ALL with a "
        "Roll of 16 or more), envelope b-shot (Open if shot)."
    )


def test_a_search_never_shows_an_envelopes_contents() -> None:
    """Ruling 25: "Perception Envelopes" are read by a perceiver they are handed to, a
    Contingency Envelope by its holder once its condition is met — a search is neither."""
    table = act(knocked_out(start(CAST)), "alf", "search", target="bob")
    for viewer in ("alf", "bob", "passer", "referee"):
        text = json.dumps([e.to_json() for e in table.view(viewer)])
        assert PERCEIVED not in text and CONTINGENT not in text
    searcher = json.dumps(observe(table, Viewer("alf", frozenset({"alf"}))).to_json())
    assert PERCEIVED not in searcher and CONTINGENT not in searcher


@pytest.mark.parametrize("viewer", ["bob", "passer"])
def test_everyone_else_sees_only_that_a_search_happened(viewer: str) -> None:
    """Ruling 25: the victim and the bystanders learn that alf searched bob, not what he found."""
    table = act(knocked_out(start(CAST)), "alf", "search", target="bob")
    event, words = seen(table, viewer)
    assert event.kind == CHARACTER_SEARCHED and set(event.redacted) == {"items", "envelopes"}
    assert words == "Alf searches Bob."
    assert LETTER not in json.dumps(observe(table, Viewer(viewer, frozenset({viewer}))).to_json())


# -- rob -----------------------------------------------------------------------------------


def test_the_victor_robs_an_item_card_from_the_knocked_out() -> None:
    """Ruling 26: the Item Card passes from the victim to the victor."""
    table = act(
        knocked_out(start(CAST), bob_draws=False), "alf", "rob", target="bob", item="letter"
    )
    assert [i.name for i in table.state.character("alf").items] == ["knife", "letter"]
    assert [i.name for i in table.state.character("bob").items] == ["pistol"]
    assert table.state.character("alf").item("letter").description == LETTER  # type: ignore[union-attr]
    assert last(table, ITEM_ROBBED) == {"character": "alf", "target": "bob", "item": "letter"}
    assert table.visible_state("alf")["characters"]["alf"]["items"] == ["knife", "letter"]  # type: ignore[index]


def test_what_was_taken_is_the_robbers_and_the_robbeds_alone() -> None:
    """Ruling 26: everyone sees the robbery; the card taken is known to the two characters."""
    table = act(knocked_out(start(CAST)), "alf", "rob", target="bob", item="letter")
    assert seen(table, "alf")[1] == "Alf robs Bob of letter."
    assert seen(table, "bob")[1] == "Alf robs Bob of letter."
    event, words = seen(table, "passer")
    assert words == "Alf robs Bob." and event.redacted == ("item",)


def test_a_drawn_weapon_may_be_robbed_and_the_robber_holds_it_undrawn() -> None:
    """Ruling 26: the Knocked Out no longer hold their drawn weapon; the robber must Draw it."""
    table = knocked_out(start(CAST))
    assert table.state.status("bob").drawn == "pistol"
    table = act(table, "alf", "rob", target="bob", item="Pistol")  # Item Cards: any case
    assert table.state.status("bob").drawn is None
    assert table.state.status("alf").drawn == "knife"
    assert table.state.character("alf").item("pistol") is not None


def test_an_item_the_victim_does_not_hold_is_refused_by_name() -> None:
    table = knocked_out(start(CAST))
    with pytest.raises(RuleError, match="bob holds no Item Card 'ruby'"):
        act(table, "alf", "rob", target="bob", item="ruby")
    table = act(table, "alf", "rob", target="bob", item="letter")
    with pytest.raises(RuleError, match="bob holds no Item Card 'letter'"):
        act(table, "alf", "rob", target="bob", item="letter")


def test_a_card_of_a_name_the_victor_already_holds_is_refused() -> None:
    """Two Item Cards of one name could not be told apart (drawn, robbed, used)."""
    both = {**CAST, "characters": {**CAST["characters"]}}
    both["characters"]["alf"] = character(
        "Alf", 11, combat=2, stamina=9, items={"knife": {"damage": 5}, "letter": {}}
    )
    table = knocked_out(start(both))
    with pytest.raises(RuleError, match="alf already holds an Item Card called 'letter'"):
        act(table, "alf", "rob", target="bob", item="letter")
    rob = [c for c in table.legal_actions("alf") if c.kind == "rob"]
    assert [c.params["item"].values for c in rob] == [("pistol",)]  # type: ignore[attr-defined]


# -- who, and when -----------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "params"), [("search", {}), ("rob", {"item": "letter"})])
def test_only_the_victor_searches_or_robs(kind: str, params: dict[str, Any]) -> None:
    """Ruling 24 (audit R2): a passer-by who never fought may do neither."""
    table = knocked_out(start(CAST))
    with pytest.raises(RuleError, match="only the victor has their way with bob"):
        act(table, "passer", kind, target="bob", **params)
    assert not {"search", "rob"} & {c.kind for c in table.legal_actions("passer")}


@pytest.mark.parametrize(("kind", "params"), [("search", {}), ("rob", {"item": "letter"})])
def test_only_while_the_victim_is_knocked_out(kind: str, params: dict[str, Any]) -> None:
    """ "In the meantime": once bob comes round (5 minutes after the combat), it is over."""
    table = knocked_out(start(CAST))
    table = table.advance(table.now + 5 * 60)
    with pytest.raises(RuleError, match="Knocked Out"):
        act(table, "alf", kind, target="bob", **params)


def test_not_during_the_combat_the_victim_fell_in() -> None:
    """While the combat goes on the Knocked Out are out of the fight, not yet at anyone's mercy
    (ruling 16): they are not yet "Knocked Out after a combat"."""
    setup = {**CAST, "characters": {**CAST["characters"], "cal": character("Cal", 15, stamina=9)}}
    table = act(start(setup), "alf", "draw", item="knife")
    table = act(table, "alf", "start_combat", targets=["bob", "cal"])
    table = act(table, "alf", "declare", action="attack", target="bob")
    table = act(table, "bob", "declare", action="defend")
    table = act(table, "cal", "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    assert table.state.status("bob").knocked_out and table.state.running
    with pytest.raises(RuleError, match="not Knocked Out after a combat"):
        act(table, "alf", "search", target="bob")


def test_the_victors_choices_list_the_victims_items() -> None:
    """The choices' domains are real: the victim's Item Cards, one rob choice a victim."""
    table = knocked_out(start(CAST))
    choices = {c.kind: c for c in table.legal_actions("alf")}
    assert choices["search"].params["target"].values == ("bob",)  # type: ignore[attr-defined]
    assert choices["rob"].params["item"].values == ("pistol", "letter")  # type: ignore[attr-defined]
    table = act(table, "alf", "rob", target="bob", item="pistol")
    table = act(table, "alf", "rob", target="bob", item="letter")
    assert "rob" not in {c.kind for c in table.legal_actions("alf")}
    assert "search" in {c.kind for c in table.legal_actions("alf")}


def test_a_victor_who_wants_the_envelopes_contents_makes_a_perception_check() -> None:
    """Ruling 25: the contents come the text's way, by a Perception Check that qualifies."""
    table = act(knocked_out(start(CAST)), "alf", "perceive", [6, 6, 6], target="bob")
    assert PERCEIVED in json.dumps([e.to_json() for e in table.view("alf")])
    assert PERCEIVED not in json.dumps([e.to_json() for e in table.view("passer")])

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
from referee.systems.intrigue.damage import victors
from referee.systems.intrigue.events import CHARACTER_SEARCHED, ITEM_ROBBED, describe

from .helpers import (
    HOW,
    SAY,
    _armed,
    _bob_out_with_two_wounds,
    _line,
    _two_against_one,
    act,
    character,
    last,
    menu,
    odds,
    one_of,
    some_of,
    start,
)
from .test_combat import declare, resolve

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


def test_the_log_says_what_a_search_finds() -> None:
    """Searching a character: what the searcher finds, items and envelopes, or nothing."""
    assert _line(CHARACTER_SEARCHED, character="a", target="b") == "a searches b."
    assert (
        _line(CHARACTER_SEARCHED, character="a", target="b", items=[])
        == "a searches b: finds nothing."
    )
    assert (
        _line(
            CHARACTER_SEARCHED,
            character="a",
            target="b",
            envelopes=[{"id": "p1", "label": "a letter"}],
        )
        == "a searches b: finds envelope p1 (a letter)."
    )
    assert (
        _line(
            CHARACTER_SEARCHED,
            character="a",
            target="b",
            items=[{"name": "knife", "damage": 2}, {"name": "ring"}],
        )
        == "a searches b: finds knife (damage 2), ring."
    )


def test_the_victor_slits_the_throat_of_the_knocked_out_and_the_log_names_the_hand() -> None:
    """Taking Damage: "the victor can have his or her way with them (... slit their
    throats...)": Bob dies at Alf's hand, the five-minute timer is cancelled, and everyone
    reads who did it."""
    table = _bob_out_with_two_wounds()
    before = len(table.log.events)
    table = act(table, "alf", "slay", target="bob")
    cancelled, died = (e.to_json() for e in table.log.events[before:])
    assert (cancelled["kind"], cancelled["payload"]) == (
        "timer.cancelled",
        {"name": "wake:bob", "label": "Bob wakes"},
    )
    assert (died["kind"], died["audience"], died["payload"]) == (
        "character.died",
        "everyone",
        {"character": "bob", "by": "alf", "names": {"bob": "Bob", "alf": "Alf"}},
    )
    assert describe(table.log.events[-1], Viewer("public")) == "Bob is dead at Alf's hand."
    assert table.state.status("bob").dead


def _one_blow(table: Any, attacker: str, weapon: str, target: str) -> Any:
    """``attacker`` draws ``weapon``, starts a combat with ``target`` and knocks them out in
    round one (6+6+6 hits; 7 damage is over half of any Stamina here)."""
    table = act(table, attacker, "draw", item=weapon)
    table = act(table, attacker, "start_combat", targets=[target])
    table = act(table, attacker, "declare", action="attack", target=target)
    table = act(table, target, "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    assert table.state.status(target).knocked_out and table.state.combats[-1].ended
    return table


def test_the_victor_is_of_the_fallens_own_combat_not_a_later_one() -> None:
    """Taking Damage, "the victor can have his or her way with them" (audit R2, reading (a)):
    Alf knocks Bob out; then Cat knocks Dan out in a combat of their own. Alf is Bob's victor,
    not Cat: Cat may not search Bob, Alf may."""
    table = _one_blow(start(_armed()), "alf", "cannon", "bob")
    table = _one_blow(table, "cat", "axe", "dan")
    assert victors(table.state, "bob") == ("alf",)
    assert victors(table.state, "dan") == ("cat",)
    with pytest.raises(RuleError, match="only the victor has their way with bob, and cat is not"):
        act(table, "cat", "search", target="bob")
    assert last(act(table, "alf", "search", target="bob"), "character.searched")["target"] == "bob"


def test_a_victor_in_a_new_combat_may_not_have_their_way_meanwhile() -> None:
    """Taking Damage: the victor has their way "in the meantime" — not while fighting again:
    Alf, who knocked Bob out, starts a combat with Eve and may not search Bob during it."""
    table = _one_blow(start(_armed()), "alf", "cannon", "bob")
    table = act(table, "alf", "start_combat", targets=["eve"])
    with pytest.raises(RuleError, match=r"^Combat Actions: alf is in a combat$"):
        act(table, "alf", "search", target="bob")


def test_only_the_knocked_out_are_at_the_victors_mercy_and_the_refusal_says_so() -> None:
    """Taking Damage: the victor has their way with those Knocked Out after the combat; Bob on
    his feet cannot be searched."""
    with pytest.raises(
        RuleError,
        match=r"^Taking Damage: bob is not Knocked Out after a combat "
        r"\(only the Knocked Out are at the victor's mercy\)$",
    ):
        act(start(_armed()), "alf", "search", target="bob")


def test_a_fallen_ally_is_no_victor() -> None:
    """Taking Damage (audit R2, reading (a)): the victors are those of the other side still on
    their feet at the end. Dan fell on Alf's side before Alf felled Bob: only Alf is Bob's
    victor, and Dan (whose foe Bob fell too) has none."""
    table = _two_against_one()
    assert victors(table.state, "bob") == ("alf",)
    assert victors(table.state, "dan") == ()


def test_a_robbed_card_passes_to_the_robber_alone() -> None:
    """Taking Damage: the victor may "rob them": Bob's gun passes to Alf; Cat, who looked on,
    gains nothing."""
    table = _one_blow(start(_armed()), "alf", "cannon", "bob")
    table = act(table, "alf", "rob", target="bob", item="gun")
    held = {c.id: [i.name for i in c.items] for c in table.state.characters}
    assert held == {"alf": ["cannon", "gun"], "bob": [], "cat": ["axe"], "dan": [], "eve": []}


def test_the_log_says_a_search_finds_a_weapon_doing_no_damage_and_envelopes_with_items() -> None:
    """Searching a character: an item card of damage 0 is still a weapon; envelopes found are
    listed after the items; an empty list of envelopes finds nothing."""
    assert (
        _line(
            CHARACTER_SEARCHED,
            character="a",
            target="b",
            items=[{"name": "cosh", "damage": 0}],
            envelopes=[{"id": "b-p1", "label": "for ALL"}],
        )
        == "a searches b: finds cosh (damage 0), envelope b-p1 (for ALL)."
    )
    assert (
        _line(CHARACTER_SEARCHED, character="a", target="b", envelopes=[])
        == "a searches b: finds nothing."
    )


def after_a_fight() -> T:
    """Alf has perceived Cyd, then knocked Bob out in a combat that is over; Cyd's "Open if
    shot" envelope may open; Dan has just started a combat on Eve."""
    setup = {
        "start": "20:00",
        "characters": {
            "alf": character(
                "Alf",
                11,
                combat=2,
                stamina=9,
                skills={"Medicine": 1},
                items={"knife": {"damage": 5}, "locket": {}},
            ),
            "bob": character(
                "Bob", 12, combat=1, stamina=5, items={"locket": {}, "ring": {}, "pipe": {}}
            ),
            "cyd": character(
                "Cyd",
                13,
                contingency_envelopes=[
                    {"event": "shot", "contents": "x"},
                    {"event": "stabbed", "contents": "y"},
                ],
            ),
            "dan": character("Dan", 14),
            "eve": character("Eve", 15),
        },
    }
    table = act(start(setup), "alf", "perceive", [1, 1, 1], target="cyd")
    table = act(table, "alf", "draw", item="knife")
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = resolve(
        declare(declare(table, "alf", "attack", target="bob"), "bob", "defend"), (6,) * 3
    )
    table = act(table, "cyd", "report", event="shot")
    return act(table, "dan", "start_combat", targets=["eve"])


def test_after_a_combat_the_victor_may_wake_slay_search_or_rob_the_knocked_out() -> None:
    """Taking Damage: "Knocked Out Characters can be awakened with a Medicine roll of 14 or
    more ... the victor can have his or her way with them (search them, rob them, slit their
    throats…)". The victor, with Medicine, is offered the roll (with its odds), slaying,
    searching, and robbing each Item Card whose name they do not already hold; no second
    Perception Check on the one perceived within 15 minutes; no combat on the Knocked Out or
    those already fighting, but joining the new combat before its first round."""
    table = after_a_fight()
    assert table.state.status("bob").knocked_out
    others = one_of("bob", "cyd", "dan", "eve")
    bob = one_of("bob")
    assert menu(table, "alf") == [
        ("perceive", "perceive", {"target": one_of("bob", "dan", "eve")}),
        (
            "roll",
            "skill roll against a Target Number",
            {"skill": one_of("Perception", "Medicine"), "target": {"between": [3, 24]}},
        ),
        (
            "roll",
            "skill roll against another character",
            {"skill": one_of("Perception", "Medicine"), "against": others},
        ),
        ("report", "", {"event": {"text": "shot"}}),
        ("encounter", "", {"character": others, "how": HOW}),
        (
            "speak",
            "",
            {
                "language": one_of("English"),
                "listeners": some_of("bob", "cyd", "dan", "eve"),
                "content": SAY,
            },
        ),
        ("draw", "", {"item": one_of("knife", "locket")}),
        ("start_combat", "start a combat", {"targets": some_of("cyd", most=1)}),
        (
            "start_combat",
            "start a combat, surprising cyd",
            {"targets": one_of(["cyd"]), "surprised": one_of(["cyd"])},
        ),
        ("join", "", {"with": one_of("dan", "eve")}),
        ("revive", "", {"target": bob}),
        ("slay", "", {"target": bob}),
        ("search", "", {"target": bob}),
        ("rob", "rob bob", {"target": bob, "item": one_of("ring", "pipe")}),
    ]
    assert odds(table, "alf", "revive") == [
        (
            "alf wakes the Knocked Out",
            "Taking Damage",
            "3d6+1 \u2265 14",
            {"failure": "20/27", "success": "7/27"},
        )
    ]
    # Cyd never fought: nothing to do with Bob. Her "shot" envelope may open (the prompt's
    # answer comes first, ruling 28), "stabbed" waits.
    assert menu(table, "cyd")[0] == ("open", "", {"envelope": one_of("cyd-c1")})
    assert menu(table, "cyd")[4:6] == [
        ("report", "", {"event": one_of("stabbed")}),
        ("encounter", "", {"character": one_of("alf", "bob", "dan", "eve"), "how": HOW}),
    ]
    assert not {"revive", "slay", "search", "rob"} & {k for k, _, _ in menu(table, "cyd")}
    table = act(table, "cyd", "open", envelope="cyd-c1")
    assert "open" not in {k for k, _, _ in menu(table, "cyd")}
    # the Knocked Out are offered nothing
    assert menu(table, "bob") == []

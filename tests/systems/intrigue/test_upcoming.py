"""The odds shown before a roll are those of the check the procedure then rolls."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from referee.core import Action
from referee.systems.intrigue.odds import upcoming

from .helpers import act, character, last, start
from .test_combat import brawl, knock_out_bob, two_dodges
from .test_envelopes import evening

SETUP = {
    "characters": {
        "ann": character(
            "Ann",
            15,
            combat=2,
            mind=3,
            skills={"Perception": 3, "Medicine": 2},
            abilities={"Read Mind": {"mental": True}},
        ),
        "bea": character(
            "Bea",
            40,
            mind=2,
            perception_envelopes=[
                {"to": "ALL", "target": 16, "contents": "x"},
                {"to": [12], "target": 10, "contents": "y"},
            ],
        ),
    }
}


def chances(actor: str, kind: str, **params: object) -> list[Fraction]:
    table = start(SETUP)
    return [check.odds().success for _, check in upcoming(table.state, Action(actor, kind, params))]


def test_perception_odds_are_for_the_envelopes_the_perceiver_could_be_given() -> None:
    shown = chances("ann", "perceive", target="bea")
    table = act(start(SETUP), "ann", "perceive", [1, 1, 1], target="bea")
    assert shown == [Fraction(last(table, "perception.made")["chances"]["bea-p1"])]
    assert len(shown) == 1  # the envelope for character 12 is not ann's to win


def test_skill_mental_and_roll_odds_match_the_rolled_events() -> None:
    [shown] = chances("ann", "roll", skill="Perception", target=14)
    table = act(start(SETUP), "ann", "roll", [1, 1, 1], skill="Perception", target=14)
    assert shown == Fraction(last(table, "skill.rolled")["chance"])
    [shown] = chances("ann", "roll", skill="Perception", against="bea")
    table = act(start(SETUP), "ann", "roll", [1, 1, 1, 1, 1, 1], skill="Perception", against="bea")
    assert shown == Fraction(last(table, "skill.rolled")["chance"])
    [shown] = chances("ann", "mental_attack", target="bea", ability="Read Mind")
    table = act(start(SETUP), "ann", "mental_attack", [1, 1, 1], target="bea", ability="Read Mind")
    assert shown == Fraction(last(table, "mental.attacked")["chance"])


def test_no_odds_for_actions_that_roll_nothing_or_name_nobody() -> None:
    assert chances("ann", "speak", language="English") == []
    assert chances("ann", "perceive", target="nobody") == []
    assert chances("nobody", "perceive", target="bea") == []
    assert chances("referee", "resolve") == []
    assert chances("ann", "escape") == []


def test_a_held_action_shows_its_odds_before_it_is_rolled() -> None:
    """Initiative ("hold their action until a later time") and exact odds before every roll: a
    held attack declared during the round rolls at once, so its odds come first."""
    cast = {
        "cat": character("Cat", 13, combat=3, strength=1),
        "bob": character("Bob", 12, combat=1, strength=3),
    }
    table = act(start({"characters": cast}), "cat", "start_combat", targets=["bob"])
    table = act(table, "cat", "declare", action="hold")
    table = act(table, "bob", "declare", action="defend")
    table = act(table, "referee", "resolve")  # bob's defence; cat still holds
    taken = Action("cat", "declare", {"action": "attack", "target": "bob"})
    [(words, check)] = upcoming(table.state, taken)
    assert "3d6+3 > 14" in words
    after = act(table, "cat", "declare", [6, 6, 6], action="attack", target="bob")
    assert check.odds().success == Fraction(last(after, "attack.rolled")["chance"])
    # an ordinary declaration rolls nothing at once: its odds are those of the roll it makes
    # when the round resolves, whether or not the round is begun yet (issue 28)
    fresh = act(start({"characters": cast}), "cat", "start_combat", targets=["bob"])
    begun = act(fresh, "referee", "next_round")
    attack = Action("cat", "declare", {"action": "attack", "target": "bob"})
    assert upcoming(fresh.state, attack) == upcoming(begun.state, attack) != []


def test_the_odds_shown_are_those_of_the_roll_the_action_would_make() -> None:
    """Each roll previewed before it is made: an escape against the strongest attacker, a
    Medicine roll to wake (14 or more), an opposed Skill Roll against the other's named skill,
    a mental attack against its set number or Mind + 10, and only the envelopes meant for the
    perceiver."""

    def words(state: Any, actor: str, kind: str, **params: Any) -> list[str]:
        return [w for w, _ in upcoming(state, Action(actor, kind, params))]

    assert words(two_dodges().state, "bob", "escape") == [
        "bob escapes alf: 3d6+Combat > 3d6+Combat"
    ]
    assert words(knock_out_bob().state, "cat", "revive", target="bob") == [
        "cat wakes bob: 3d6+2 ≥ 14"
    ]
    evening_ = start(evening()).state
    assert words(evening_, "fifteen", "roll", skill="Perception", against="twelve") == [
        "fifteen Perception: 3d6+3 ≥ twelve's 3d6+3"
    ]
    assert words(
        evening_, "fifteen", "roll", skill="Perception", against="twelve", against_skill="Medicine"
    ) == ["fifteen Perception: 3d6+3 ≥ twelve's 3d6+0"]
    assert words(evening_, "fifteen", "perceive", target="countess") == [
        "fifteen is given to-all (Give to ALL with a Roll of 16 or more): 3d6+3 ≥ 16"
    ]
    assert words(evening_, "twelve", "perceive", target="countess") == [
        "twelve is given to-all (Give to ALL with a Roll of 16 or more): 3d6+3 ≥ 16",
        "twelve is given to-some (Give to Character 12, 20, 32, if they Roll 14 or more):"
        " 3d6+3 ≥ 14",
    ]
    assert words(evening_, "fifteen", "resolve") == []  # in no combat
    brawl_ = start(brawl()).state
    assert words(brawl_, "kro", "mental_attack", target="alf", ability="Energy Bolt") == [
        "kro Energy Bolt alf: 3d6+3 > 16"
    ]
    assert words(brawl_, "kro", "mental_attack", target="alf", ability="Befuddle") == [
        "kro Befuddle alf: 3d6+3 > 11"
    ]
    assert words(brawl_, "kro", "mental_attack", target="alf", ability="Nope") == []


def test_an_attack_declared_between_rounds_shows_its_odds_before_it_is_declared() -> None:
    """Initiative: a declaration made before anyone has begun the round begins it (as the
    choice is offered): the Attack's odds are those of the round it begins, 3d6+2 > 1 + 10."""
    table = act(start(brawl()), "alf", "start_combat", targets=["bob"])
    assert not table.state.combats[-1].in_round
    attack = Action("alf", "declare", {"action": "attack", "target": "bob"})
    [(words, check)] = upcoming(table.state, attack)
    assert words == "Alf attack Bob (if bob takes no Defensive Action): 3d6+2 > 11"
    table = act(table, "alf", "declare", action="attack", target="bob")
    table = act(table, "bob", "declare", action="scream", bonus=0)
    table = act(table, "referee", "resolve", [6, 2, 1])
    assert last(table, "attack.rolled")["chance"] == str(check.odds().success)


def test_a_grab_shows_its_odds_and_a_target_who_has_declared_is_read_as_declared() -> None:
    """Grabbing, "resolved in the same way as an Attack, only the Target Number is increased by
    1": Alf's Grab of Bob, still to declare, is 3d6+2 > 1 + 11 unless Bob defends; once Alf
    has declared a Defensive Action (+3), Bob's Attack is 3d6+1 > 2 + 10 + 3 and his Grab
    3d6+1 > 2 + 11 + 3, with no "unless"."""
    table = act(start(brawl()), "alf", "start_combat", targets=["bob"])

    def words(state: Any, actor: str, **params: Any) -> list[str]:
        return [w for w, _ in upcoming(state, Action(actor, "declare", params))]

    assert words(table.state, "alf", action="grab", target="bob") == [
        "Alf grab Bob (if bob takes no Defensive Action): 3d6+2 > 12"
    ]
    table = act(table, "alf", "declare", action="defend")
    assert words(table.state, "bob", action="attack", target="alf") == [
        "Bob attack Alf: 3d6+1 > 15"
    ]
    assert words(table.state, "bob", action="grab", target="alf") == ["Bob grab Alf: 3d6+1 > 16"]


def test_the_unless_of_an_attack_follows_the_attackers_whole_name() -> None:
    """A name may hold ": " ("Alf: the Bold"): the words "if … takes no Defensive Action" go
    after the whole of who attacks whom, before the dice."""
    table = start(brawl(alf=character("Alf: the Bold", 11, combat=2)))
    table = act(table, "alf", "start_combat", targets=["bob"])
    attack = Action("alf", "declare", {"action": "attack", "target": "bob"})
    assert [w for w, _ in upcoming(table.state, attack)] == [
        "Alf: the Bold attack Bob (if bob takes no Defensive Action): 3d6+2 > 11"
    ]


def test_the_odds_shown_of_waking_the_knocked_out_are_those_of_the_medicine_roll_made() -> None:
    """Taking Damage: waking a Knocked Out character is a Medicine roll of 14 or more — Cat's
    Medicine 2 makes it 3d6+2 ≥ 14 (the shown chance, 3/8, is the one her roll then logs)."""
    table = knock_out_bob()
    [(_, check)] = upcoming(table.state, Action("cat", "revive", {"target": "bob"}))
    rolled = act(table, "cat", "revive", [1, 1, 1], target="bob")
    assert check.odds().success == Fraction(last(rolled, "medicine.rolled")["chance"])
    assert check.odds().success == Fraction(3, 8)

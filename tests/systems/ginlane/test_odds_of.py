"""The odds of a Gin Lane attack or manoeuvre with its parameters as given (``odds_of``,
through ``preview``): the check the rule rolls, one set of odds per tagging choice, none for
what the rules refuse; and the roll card and preview that show those odds in words."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from referee.core import Action, Table
from referee.core.table import preview
from referee.dice import ScriptedSource
from referee.systems.ginlane import SYSTEM
from referee.systems.ginlane.cards import check_card, odds_json
from referee.systems.ginlane.cards import odds_json as card_odds
from referee.systems.ginlane.choices import attack_check
from referee.systems.ginlane.rolls import DifficultyCheck, GinLaneRoll, OpposedRoll

SETUP = {
    "zones": ["room", "hall"],
    "links": [["room", "hall"]],
    "characters": {
        "moll": {
            "side": "society",
            "weapon": "sword",
            "pool": 3,
            "skills": {
                "Weapons": 3,
                "Agility": 2,
                "Alertness": 2,
                "Endurance": 1,
                "Resolve": 1,
                "Brawl": 1,
            },
            "aspects": ["Quick Hands", "Stubborn"],
        },
        "jack": {
            "side": "bravoes",
            "weapon": "sword",
            "skills": {"Weapons": 2, "Agility": 1, "Alertness": 1},
        },
    },
}


def fight() -> Table[Any]:
    table = SYSTEM.new_table(SETUP, players={"alice": ["moll"], "bob": ["jack"]})
    return table.act(Action("referee", "initiative"), ScriptedSource([6, 6, 1, 1]))


def odds(t: Table[Any], **params: Any) -> dict[str, str]:
    shown = preview(t, "alice", Action("moll", "attack", params))
    assert len(shown) == 1, shown
    return dict(shown[0].odds)


def test_an_untagged_attack_has_the_odds_of_its_check() -> None:
    t = fight()
    state = t.state
    check = attack_check(state, state.get("moll"), state.get("jack"))
    assert check is not None
    assert odds(t, target="jack") == card_odds(check.odds())
    # the same odds the choice carries for it
    choice = next(c for c in t.legal_actions("moll") if c.kind == "attack")
    assert dict(choice.odds[0].odds) == odds(t, target="jack")


def test_each_tagging_choice_has_odds_of_its_own() -> None:
    t = fight()
    state = t.state
    check = attack_check(state, state.get("moll"), state.get("jack"))
    assert isinstance(check, OpposedRoll)
    none = odds(t, target="jack")
    one = odds(t, target="jack", tags=["Quick Hands"])
    two = odds(t, target="jack", tags=["Quick Hands", "Stubborn"])
    assert one == card_odds(replace(check, actor=replace(check.actor, tags=1)).odds())
    assert two == card_odds(replace(check, actor=replace(check.actor, tags=2)).odds())
    # each tag is one more die, the best two kept: better odds each time
    assert Fraction(none["success"]) < Fraction(one["success"]) < Fraction(two["success"])
    label = preview(t, "alice", Action("moll", "attack", {"target": "jack", "tags": ["Stubborn"]}))
    assert "tagging Stubborn" in label[0].label


def test_what_the_rules_refuse_has_no_odds() -> None:
    t = fight()
    # an Aspect moll does not have
    assert (
        preview(t, "alice", Action("moll", "attack", {"target": "jack", "tags": ["Drunk"]})) == ()
    )
    # more tags than the pool pays for
    poor = SYSTEM.new_table(
        {
            **SETUP,
            "characters": {
                **SETUP["characters"],
                "moll": {**SETUP["characters"]["moll"], "pool": 0},
            },
        },
        players={"alice": ["moll"]},
    ).act(Action("referee", "initiative"), ScriptedSource([6, 6, 1, 1]))
    assert (
        preview(poor, "alice", Action("moll", "attack", {"target": "jack", "tags": ["Stubborn"]}))
        == ()
    )
    # not moll's turn before initiative
    before = SYSTEM.new_table(SETUP, players={"alice": ["moll"]})
    assert preview(before, "alice", Action("moll", "attack", {"target": "jack"})) == ()


def test_the_odds_are_worked_out_without_touching_the_table() -> None:
    t = fight()
    version = t.version
    odds(t, target="jack", tags=["Quick Hands"])
    assert t.version == version and t.state == fight().state


def test_an_attack_and_a_manoeuvre_preview_their_check_and_tags_in_words() -> None:
    """The odds shown before a roll (issue 11's previews): the check the rule rolls, its label
    naming the Aspects tagged (or none), the rule, the dice as written and the exact odds."""
    table = fight()
    plain = preview(table, "alice", Action("moll", "attack", {"target": "jack"}))
    assert [(p.label, p.rule, p.dice, dict(p.odds)) for p in plain] == [
        (
            "Moll attacks Jack (Weapons against Weapons), no Aspect tagged",
            "Action: Attack",
            "2d6+3 vs 2d6+2",
            {"success": "721/1296", "match": "35/324", "failure": "145/432"},
        )
    ]
    tagged = preview(
        table,
        "alice",
        Action("moll", "attack", {"target": "jack", "tags": ["Quick Hands", "Stubborn"]}),
    )
    assert [(p.label, p.dice, dict(p.odds)) for p in tagged] == [
        (
            "Moll attacks Jack (Weapons against Weapons), tagging Quick Hands, Stubborn",
            "4d6kh2+3 vs 2d6+2",
            {"success": "38141/46656", "match": "1643/23328", "failure": "581/5184"},
        )
    ]
    unbalance = preview(
        table, "alice", Action("moll", "manoeuvre", {"target": "jack", "named": "unbalance"})
    )
    assert [(p.label, p.rule, p.dice) for p in unbalance] == [
        (
            "Moll manoeuvres for Off-Balance on jack (Brawl against Weapons of jack), "
            "no Aspect tagged",
            "Action: Manoeuvre",
            "2d6+1 vs 2d6+2",
        )
    ]
    assert preview(table, "alice", Action("moll", "full_defence", {})) == ()


def test_the_card_of_an_attack_on_one_behind_a_block_shows_the_block_and_its_odds() -> None:
    """One roll card: the dice as written, with the protecting Block's floor ("Protect"), and
    the exact odds of the roll worked out when none are given."""
    check = OpposedRoll(GinLaneRoll(3, tags=1), GinLaneRoll(2), floor=9)
    card = check_card(
        check, check.roll(ScriptedSource([6, 5, 1, 3, 3])), "jack cuts at moll", rule="Attack"
    )
    assert card["dice"] == "3d6kh2+3 vs 2d6+2 (and a Block of 9)"
    assert card["odds"] == odds_json(check.odds())
    assert (card["value"], card["opponent"], card["margin"]) == (14, 8, 5)


def test_odds_with_no_match_possible_show_a_match_of_nothing() -> None:
    """A check with no Match among its outcomes (the kernel's check behind a difficulty, "to
    beat") shows a Match's odds as 0."""
    odds = DifficultyCheck(GinLaneRoll(skill=1), difficulty=7).kernel_check().odds()
    assert odds_json(odds) == {"success": "7/12", "match": "0", "failure": "5/12"}


def test_a_manoeuvre_against_a_difficulty_previews_its_check_with_no_defence_asked() -> None:
    """Action: Manoeuvre against a difficulty: rolled at once, no one asked for a defence; its
    odds are those of its check, moll's Agility 2 against Fair (7)."""
    table = fight()
    cover = preview(
        table, "alice", Action("moll", "manoeuvre", {"named": "take cover", "difficulty": 7})
    )
    assert [(p.label, p.rule, p.dice, dict(p.odds)) for p in cover] == [
        (
            "Moll manoeuvres for Under Cover on moll (Agility against a difficulty), "
            "no Aspect tagged",
            "Action: Manoeuvre",
            "2d6+2 > 7",
            {"success": "13/18", "match": "1/9", "failure": "1/6"},
        )
    ]

"""Skill Rolls (rules text, "Skill Rolls"; "Other Skills and Special Abilities"): 3d6 plus a
skill value against a Target Number or another character's roll, what each side is told, and
the log's line.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.core import Action, RuleError, Viewer, view
from referee.systems.intrigue.events import SKILL_ROLLED, describe
from referee.systems.intrigue.odds import upcoming

from .helpers import _line, act, cast, character, last, start, without_names
from .test_combat import brawl

ROLLERS = cast(
    a=character(
        "Ann",
        11,
        skills={"Medicine": 1, "Stealth": 2},
        abilities={"Lockpicking": {"value": 4}},
    ),
    b=character("Bob", 12, skills={"Medicine": 3, "Perception": 5}),
)


def seen(table: Any, who: str, kind: str) -> dict[str, Any] | None:
    """The data of the last event of ``kind`` that ``who`` sees, or None."""
    events = [e for e in view(table.log, Viewer(who)) if e.kind == kind]
    return without_names(events[-1].data) if events else None


def test_a_skill_roll_against_a_target_number_tells_the_roller_only() -> None:
    """Skill Rolls: "roll 3d6 and add their sum to your skill value": 6+6+1 + Medicine 1 = 14
    meets a Target Number of 14. The roller sees their own value and dice; the odds stay the
    referee's (module ruling)."""
    table = act(start(ROLLERS), "a", "roll", [6, 6, 1], skill="Medicine", target=14)
    data = last(table, "skill.rolled")
    assert (data["character"], data["skill"], data["target"]) == ("a", "Medicine", 14)
    assert (data["total"], data["faces"], data["success"]) == (14, [6, 6, 1], True)
    assert data["value"] == 1
    card = data["roll"]
    assert (card["label"], card["rule"], card["odds"]) == (
        "Ann's Medicine ≥ 14",
        "Skill Rolls",
        None,
    )
    assert (card["dice"], card["margin"]) == ("3d6+1 ≥ 14", 0)
    mine = seen(table, "a", "skill.rolled")
    assert mine is not None and mine["value"] == 1 and "odds" not in mine
    assert "chance" not in mine
    assert seen(table, "b", "skill.rolled") is None
    assert seen(table, "public", "skill.rolled") is None


def test_a_skill_roll_one_short_of_the_target_fails() -> None:
    """Skill Rolls: 13 does not meet a Target Number of 14."""
    table = act(start(ROLLERS), "a", "roll", [6, 5, 1], skill="Medicine", target=14)
    assert last(table, "skill.rolled")["success"] is False


def test_a_special_ability_rolls_with_its_own_value_and_name() -> None:
    """Skill Rolls: a special ability with a skill value adds it to 3d6 (4 + 1+1+1 = 7)."""
    table = act(start(ROLLERS), "a", "roll", [1, 1, 1], ability="lockpicking", target=7)
    data = last(table, "skill.rolled")
    assert (data["skill"], data["value"], data["total"], data["success"]) == (
        "Lockpicking",
        4,
        7,
        True,
    )


def _stealth_against_perception() -> Any:
    """Ann's Stealth 2 + 6+6+6 = 20 against Bob's Perception 5 + 1+1+1 = 8."""
    return act(
        start(ROLLERS),
        "a",
        "roll",
        [6, 6, 6, 1, 1, 1],
        skill="Stealth",
        against="b",
        against_skill="Perception",
    )


def test_an_opposed_roll_tells_the_winner_the_losers_total_and_the_loser_only_the_outcome() -> None:
    """Skill Rolls: the Target Number "may be a roll + skill value from another character":
    Ann's Stealth 2 + 6+6+6 = 20 against Bob's Perception 5 + 1+1+1 = 8. Both are told the
    outcome and their own dice and total; Ann, the winner, Bob's total too (the Target Number she
    beat); Bob, the loser, never Ann's dice or total, which would give away her Stealth (20 − 18
    = 2; ruling 3). Bob alone sees his own skill value; the roll card is the referee's."""
    table = _stealth_against_perception()
    data = last(table, "skill.rolled")
    assert (data["against"], data["against_skill"], data["against_total"]) == ("b", "Perception", 8)
    assert (data["total"], data["success"], data["faces"]) == (20, True, [6, 6, 6])
    assert data["against_faces"] == [1, 1, 1]
    assert data["against_value"] == 5 and data["value"] == 2
    card = data["roll"]
    assert (card["label"], card["rule"]) == ("Ann's Stealth vs Bob's Perception", "Skill Rolls")
    ann, bob = seen(table, "a", "skill.rolled"), seen(table, "b", "skill.rolled")
    assert ann is not None and bob is not None
    assert (ann["total"], ann["faces"], ann["against_total"], ann["success"]) == (
        20,
        [6, 6, 6],
        8,
        True,
    )
    assert "against_faces" not in ann and "against_value" not in ann and "roll" not in ann
    assert (bob["against_total"], bob["against_faces"], bob["against_value"]) == (8, [1, 1, 1], 5)
    assert bob["success"] is True  # Ann succeeded: Bob lost
    assert not {"total", "faces", "value", "roll", "chance"} & bob.keys()
    assert seen(table, "public", "skill.rolled") is None


def test_the_loser_of_an_opposed_roll_never_receives_the_winners_dice_or_total() -> None:
    """Skill Rolls, ruling 3: Ann's Stealth 2 + 1+1+1 = 5 loses to Bob's Perception 5 + 6+6+2 =
    19. Ann's view of the log — every byte of it — holds neither Bob's 19 nor his faces; Bob's
    holds Ann's 5, the total he held off."""
    table = act(
        start(ROLLERS),
        "a",
        "roll",
        [1, 1, 1, 6, 6, 2],
        skill="Stealth",
        against="b",
        against_skill="Perception",
    )
    [ann] = [e for e in view(table.log, Viewer("a")) if e.kind == "skill.rolled"]
    [bob] = [e for e in view(table.log, Viewer("b")) if e.kind == "skill.rolled"]
    said = json.dumps(ann.to_json())
    assert ann.data["success"] is False and ann.data["total"] == 5
    assert "19" not in said and "[6, 6, 2]" not in said
    assert {x["name"] for x in ann.to_json()["secrets"]} == {"value", "total", "faces"}
    assert {"against_total", "against_faces"} <= set(ann.redacted)  # named withheld, not shown
    assert (bob.data["against_total"], bob.data["total"]) == (19, 5)
    assert "faces" not in bob.data and bob.data["against_faces"] == [6, 6, 2]


def test_against_skill_needs_a_character_to_roll_against() -> None:
    """Skill Rolls: ``against_skill`` names the other character's skill; without ``against`` it
    is refused."""
    with pytest.raises(RuleError, match="against_skill"):
        act(start(ROLLERS), "a", "roll", skill="Medicine", target=10, against_skill="Perception")


def test_the_log_says_whether_a_skill_roll_succeeds_and_against_what() -> None:
    """Skill Rolls: the log line names the total, the Target Number or the other roller's
    total, and the verdict the rules reached."""
    assert (
        _line(SKILL_ROLLED, character="a", skill="Stealth", total=9, target=8, success=True)
        == "a rolls Stealth: 9 against 8: succeeds."
    )
    assert (
        _line(
            SKILL_ROLLED,
            character="a",
            skill="Stealth",
            total=7,
            against="b",
            against_total=11,
            success=False,
        )
        == "a rolls Stealth: 7 against b's Stealth 11: fails."
    )
    # the loser of a roll against another character is not told the winner's total (ruling 3)
    assert (
        _line(SKILL_ROLLED, character="a", skill="Stealth", against="b", success=False)
        == "a rolls Stealth against b's Stealth: fails."
    )


def test_a_special_abilitys_roll_adds_its_value_or_nothing() -> None:
    """Skill Rolls: "some special abilities do not have a skill value, so you simply roll 3d6";
    one with a value adds it."""
    kro = brawl()["characters"]["kro"]
    abilities = {**kro["abilities"], "Fast Talk": {"value": 2}, "Luck": {}}
    state = start(brawl(kro={"abilities": abilities, "skills": {"Luck": 1}})).state
    rolls = [
        (words, check.modifier)
        for param, name in (("ability", "Fast Talk"), ("ability", "Luck"), ("skill", "Luck"))
        for words, check in upcoming(state, Action("kro", "roll", {param: name, "target": 10}))
    ]
    assert rolls == [
        ("kro Fast Talk: 3d6+2 ≥ 10", 2),
        ("kro Luck: 3d6+0 ≥ 10", 0),
        ("kro Luck: 3d6+1 ≥ 10", 1),  # the skill of that name, not the ability
    ]


def test_the_log_names_the_skill_the_other_character_rolled_against() -> None:
    """Skill Rolls: "a roll + skill value from another character" — Ann's Stealth 2 + 6+6+6 =
    20 against Bob's Perception 5 + 1+1+1 = 8: the line names Bob's Perception, the skill he
    rolled, not Ann's Stealth."""
    table = _stealth_against_perception()
    [event] = [e for e in view(table.log, Viewer("a")) if e.kind == SKILL_ROLLED]
    assert (
        describe(event, Viewer("a"))
        == "Ann rolls Stealth: 20 against Bob's Perception 8: succeeds."
    )

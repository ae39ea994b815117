"""Languages, skill rolls and Mental Combat outside a fight."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import RuleError, view
from referee.systems.intrigue.events import MENTAL_ATTACKED

from .helpers import _armed, _line, act, cast, character, last, start


def salon() -> dict[str, Any]:
    return {
        "characters": {
            "lady_rich": character("Lady Rich", 21, mind=2, languages=["French"]),
            "krockin": character(
                "The Amazing Krockin",
                33,
                mind=3,
                skills={"Perception": 1},
                abilities={
                    "Read Mind": {"mental": True, "effect": "She answers one question."},
                    "Stare": {"mental": True, "target": 15},
                    "Energy Bolt": {"mental": True, "obvious": True, "target": 16, "damage": 3},
                    "Fortune Telling": {"value": 2},
                },
            ),
            "butler": character("The Butler", 50, languages=["French"]),
            "maid": character("The Maid", 51),
            "ivan": character("Ivan", 52, speaks_english=False, languages=["Russian"]),
        }
    }


# -- languages -------------------------------------------------------------------------


def test_only_those_who_understand_the_language_follow_the_conversation() -> None:
    """Languages: "Only people who also understand that language may approach you to hear"."""
    table = act(
        start(salon()),
        "lady_rich",
        "speak",
        language="French",
        listeners=["butler", "maid", "krockin"],
        content="Le coffre est derrière le tableau.",
    )
    for follower in ("butler", "lady_rich", "referee"):
        [held] = [e for e in view(table.log, follower) if e.kind == "conversation.held"]
        assert held.data["content"] == "Le coffre est derrière le tableau."
    for outsider in ("maid", "krockin", "public", "ivan"):
        [held] = [e for e in view(table.log, outsider) if e.kind == "conversation.held"]
        assert "content" not in held.data and "followed_by" not in held.data
        assert "tableau" not in str(held.to_json())
        assert held.data["language"] == "French"  # the card held up is seen by all


def test_english_is_everyones_unless_told_otherwise() -> None:
    table = act(
        start(salon()),
        "maid",
        "speak",
        language="English",
        listeners=["butler", "ivan"],
        content="Tea?",
    )
    assert last(table, "conversation.held")["followed_by"] == ["butler"]


def test_you_cannot_speak_a_language_you_do_not_know() -> None:
    with pytest.raises(RuleError, match="does not speak"):
        act(start(salon()), "maid", "speak", language="French", listeners=[], content="?")


# -- skill rolls -------------------------------------------------------------------------


def test_a_skill_roll_against_a_fixed_target_number() -> None:
    """Skill Rolls: 3d6 + skill ≥ Target Number."""
    table = act(start(salon()), "krockin", "roll", [4, 4, 4], skill="Perception", target=13)
    rolled = last(table, "skill.rolled")
    assert rolled["total"] == 13 and rolled["success"] is True and rolled["chance"] == "3/8"
    table = act(table, "krockin", "roll", [4, 4, 3], skill="Perception", target=13)
    assert last(table, "skill.rolled")["success"] is False


def test_a_skill_roll_against_another_characters_roll_wins_ties() -> None:
    table = act(
        start(salon()), "krockin", "roll", [3, 3, 3, 4, 3, 3], skill="Perception", against="maid"
    )
    rolled = last(table, "skill.rolled")
    assert (rolled["total"], rolled["against_total"], rolled["success"]) == (10, 10, True)
    # each is told the outcome and their own total; the winner the loser's total, the loser
    # nothing of the winner's (ruling 3); skill values and the odds stay private
    [mine] = [e for e in view(table.log, "krockin") if e.kind == "skill.rolled"]
    [theirs] = [e for e in view(table.log, "maid") if e.kind == "skill.rolled"]
    assert "value" in mine.data and "against_value" not in mine.data and "chance" not in mine.data
    assert (mine.data["total"], mine.data["against_total"], mine.data["success"]) == (10, 10, True)
    assert "against_value" in theirs.data and "value" not in theirs.data
    assert theirs.data["against_total"] == 10 and theirs.data["success"] is True
    assert "total" not in theirs.data and "faces" not in theirs.data
    assert {e.kind for e in view(table.log, "maid")} >= {"skill.rolled"}
    assert not [e for e in view(table.log, "butler") if e.kind == "skill.rolled"]


def test_an_ability_without_a_skill_value_rolls_3d6_alone() -> None:
    """ "some special abilities do not have a skill value, so you simply roll 3d6"."""
    table = act(start(salon()), "krockin", "roll", [5, 5, 5], ability="Read Mind", target=15)
    assert last(table, "skill.rolled")["total"] == 15
    table = act(table, "krockin", "roll", [5, 5, 5], ability="Fortune Telling", target=15)
    assert last(table, "skill.rolled")["total"] == 17


# -- mental combat ----------------------------------------------------------------------


def test_an_unnoticed_mental_attack_is_seen_by_the_two_characters_alone() -> None:
    """Mental Combat: "not noticeable by anyone ... no need to declare combat"."""
    table = act(
        start(salon()),
        "krockin",
        "mental_attack",
        [4, 4, 3],
        target="lady_rich",
        ability="Read Mind",
    )
    attacked = last(table, "mental.attacked")
    assert attacked["target_number"] == 12 and attacked["total"] == 14 and attacked["hit"]
    assert attacked["effect"] == "She answers one question."
    for seer in ("krockin", "lady_rich", "referee"):
        assert [e for e in view(table.log, seer) if e.kind == "mental.attacked"]
    for other in ("butler", "maid", "public"):
        assert view(table.log, other) == ()


def test_a_mental_attack_must_exceed_mind_plus_ten_or_the_set_number() -> None:
    table = act(
        start(salon()),
        "krockin",
        "mental_attack",
        [3, 3, 3],
        target="lady_rich",
        ability="Read Mind",
    )
    assert last(table, "mental.attacked")["hit"] is False  # 12 is not over 12
    assert "effect" not in last(table, "mental.attacked")
    table = act(table, "krockin", "mental_attack", [4, 4, 4], target="lady_rich", ability="Stare")
    assert last(table, "mental.attacked")["target_number"] == 15
    assert last(table, "mental.attacked")["hit"] is False  # 15 is not over 15


def test_an_obvious_mental_attack_must_be_declared_as_combat() -> None:
    """ "If the Attacker is using an obvious mental attack ... must declare combat"."""
    with pytest.raises(RuleError, match="declare combat"):
        act(start(salon()), "krockin", "mental_attack", target="maid", ability="Energy Bolt")


def test_no_mental_combat_without_a_special_ability() -> None:
    """ "No character can attack with Mental Combat unless they have a Special Ability"."""
    with pytest.raises(RuleError, match="no Special Ability"):
        act(start(salon()), "maid", "mental_attack", target="krockin", ability="Read Mind")


def test_a_skill_not_on_the_sheet_rolls_at_zero() -> None:
    """Ruling: "Don't assume that just because a skill's not on your character sheet that you
    can't do it" — it is rolled with a skill value of 0."""
    table = act(start(salon()), "maid", "roll", [5, 5, 5], skill="Lockpicking", target=15)
    assert last(table, "skill.rolled")["value"] == 0 and last(table, "skill.rolled")["success"]


def _minds() -> dict[str, Any]:
    read_mind = {"mental": True, "effect": "She answers one question."}
    return cast(
        krockin=character("Krockin", 33, mind=3, abilities={"Read Mind": read_mind}),
        maid=character("The Maid", 51, mind=1, abilities={"Read Mind": read_mind}),
        butler=character("The Butler", 50),
        lady=character("Lady Rich", 21, mind=2),
    )


def test_an_unnoticed_mental_attack_is_refused_if_either_side_is_in_a_combat() -> None:
    """Mental Combat: "no need to declare combat ... Simply take the target character to one
    side" — out of a combat only; in one, it is a Combat Action ("Mixing Mental and Normal
    Combat"). Krockin fights the Butler: he may not attack the Lady unnoticed, nor the Maid
    him; the Maid may still attack the Lady (Mind 1 + 4+4+4 = 13, over her Mind 2 + 10)."""
    table = act(start(_minds()), "krockin", "start_combat", targets=["butler"])
    with pytest.raises(RuleError, match="in a combat, declare it as a Combat Action"):
        act(table, "krockin", "mental_attack", target="lady", ability="Read Mind")
    with pytest.raises(RuleError, match="in a combat, declare it as a Combat Action"):
        act(table, "maid", "mental_attack", target="krockin", ability="Read Mind")
    after = act(table, "maid", "mental_attack", [4, 4, 4], target="lady", ability="Read Mind")
    data = last(after, "mental.attacked")
    assert (data["attacker"], data["target"], data["total"], data["hit"]) == (
        "maid",
        "lady",
        13,
        True,
    )


def test_a_sheet_lists_english_only_for_those_who_speak_it() -> None:
    """Languages: "Every player in the game speaks English, unless they are told otherwise" —
    Eve, told otherwise, sees French alone on her sheet."""
    table = start(_armed(eve={"speaks_english": False, "languages": ["French"]}))
    sheet = table.visible_state("eve")["characters"]["eve"]  # type: ignore[index]
    assert sheet["languages"] == ["French"]
    assert table.visible_state("dan")["characters"]["dan"]["languages"] == ["English"]  # type: ignore[index]


def test_the_log_says_who_spoke_in_which_language_and_who_understood() -> None:
    """Languages: the line names the speaker, the language, the listeners and, with what was
    said, those who followed it."""
    said = {"speaker": "a", "language": "French"}
    assert (
        _line(
            "conversation.held", listeners=["b", "c"], content="Bonjour", followed_by=["b"], **said
        )
        == 'a speaks in French to b, c (understood by b): "Bonjour"'
    )
    assert (
        _line("conversation.held", listeners=["b"], content="Oui", followed_by=[], **said)
        == 'a speaks in French to b (understood by nobody): "Oui"'
    )
    assert _line("conversation.held", listeners=[], **said) == "a speaks in French to nobody."
    assert _line("conversation.held", **said) == "a speaks in French to nobody."
    assert (
        _line("conversation.held", listeners=["b"], content="Oui", **said)
        == 'a speaks in French to b (understood by nobody): "Oui"'
    )


def test_the_log_says_whether_a_mental_attack_works() -> None:
    """Mental Combat: the attacker's total against the Target Number, the verdict, and the
    effect only when there is one."""
    base = {"attacker": "a", "ability": "Read Mind", "target": "b", "target_number": 12}
    assert (
        _line(MENTAL_ATTACKED, **base, total=14, hit=True, effect="reads a secret")
        == "a uses Read Mind on b: 14 against 12: works — reads a secret."
    )
    assert (
        _line(MENTAL_ATTACKED, **base, total=9, hit=False)
        == "a uses Read Mind on b: 9 against 12: fails."
    )

"""Character Badges, stats, skills, abilities, languages, and the game file that holds them."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import ScenarioError
from referee.systems.intrigue import load_game
from referee.systems.intrigue.characters import Character, is_character_number
from referee.systems.intrigue.envelopes import ALL, ConditionKind

from .helpers import character


def game(**characters: Any) -> dict[str, Any]:
    return {"characters": characters}


def test_a_character_number_is_two_digits() -> None:
    """Character Badges: "A two digit number, unique to the character"."""
    assert is_character_number("07") and is_character_number("99")
    assert not is_character_number("7") and not is_character_number("100")
    state = load_game(game(a=character("A", 15), b=character("B", "07")))
    assert [c.number for c in state.characters] == ["15", "07"]


@pytest.mark.parametrize("bad", [7, 100, "7", "abc", True, None, 3.5])
def test_numbers_that_are_not_two_digits_are_rejected(bad: object) -> None:
    with pytest.raises(ScenarioError) as error:
        load_game(game(a={"number": bad}))
    assert error.value.path == ("characters", "a", "number")


def test_two_characters_with_one_number_are_rejected() -> None:
    with pytest.raises(ScenarioError, match="already a's") as error:
        load_game(game(a=character("A", 15), b=character("B", 15)))
    assert error.value.path == ("characters", "b", "number")


def test_a_character_needs_a_number() -> None:
    with pytest.raises(ScenarioError, match="two-digit number"):
        load_game(game(a={"name": "A"}))


def test_wounds_start_equal_to_stamina() -> None:
    """Statistics: "All characters start with the same number of wounds as their Stamina Stat"."""
    state = load_game(game(a=character("A", 15, stamina=7)))
    assert state.character("a").wounds == 7
    assert Character("x", "X", "10", stamina=5).wounds == 5
    with pytest.raises(ScenarioError) as error:
        load_game(game(a=character("A", 15, stamina=5, wounds=9)))
    assert error.value.path == ("characters", "a", "wounds")
    assert load_game(game(a=character("A", 15, stamina=5, wounds=5))).character("a").wounds == 5


def test_the_name_may_be_an_alias_and_the_number_finds_the_character() -> None:
    """Name: "not necessarily their real name"; the number is unique."""
    state = load_game(game(spy=character("Lord Smith", 44)))
    assert state.character("44").id == "spy"
    assert state.character("spy").badge == "Lord Smith [44]"


def test_skills_abilities_items_and_languages() -> None:
    state = load_game(
        game(
            k=character(
                "K",
                33,
                mind=3,
                skills={"Perception": 2, "Medicine": 1},
                abilities={"Energy Bolt": {"mental": True, "target": 16, "damage": 3}},
                items={"knife": {"damage": 3}, "letter": None},
                languages=["French"],
            )
        )
    )
    k = state.character("k")
    assert k.skill("perception") == 2 and k.skill("Lockpicking") == 0
    bolt = k.ability("energy bolt")
    assert bolt is not None and bolt.can_be_dodged and bolt.target == 16
    assert k.item("knife") is not None and k.item("letter") is not None
    assert k.can_follow("French") and k.can_follow("English") and not k.can_follow("German")


def test_everyone_speaks_english_unless_told_otherwise() -> None:
    """Languages: "Every player in the game speaks English, unless they are told otherwise"."""
    state = load_game(game(m=character("M", 12, speaks_english=False, languages=["Russian"])))
    assert not state.character("m").can_follow("English")


def test_envelopes_in_the_game_file() -> None:
    state = load_game(
        {
            "start": "19:00",
            "characters": {
                "a": character(
                    "A",
                    15,
                    perception_envelopes=[
                        {"to": "ALL", "target": 16, "contents": "x"},
                        {"to": [12, "20"], "target": 14, "contents": "y", "directions": "d"},
                    ],
                    contingency_envelopes=[
                        {"at": "21:00", "contents": "p"},
                        {"event": "shot", "contents": "q"},
                        {"see": 53, "contents": "r"},
                        {"talk": "53", "contents": "s"},
                    ],
                )
            },
        }
    )
    to_all, to_some = state.perception_envelopes
    assert to_all.given_to == ALL and to_some.given_to == ("12", "20")
    at, shot, see, talk = state.contingency_envelopes
    assert at.condition.at == 2 * 3600
    assert shot.condition.kind is ConditionKind.EVENT and shot.condition.event == "shot"
    assert see.condition.kind is ConditionKind.SEE and talk.condition.character == "53"


@pytest.mark.parametrize(
    ("sheet", "path"),
    [
        ({"number": 15, "stamina": 0}, ("characters", "a", "stamina")),
        ({"number": 15, "combat": "two"}, ("characters", "a", "combat")),
        ({"number": 15, "strenght": 2}, ("characters", "a", "strenght")),
        (
            {"number": 15, "skills": {"Perception": "high"}},
            ("characters", "a", "skills", "Perception"),
        ),
        (
            {"number": 15, "perception_envelopes": [{"to": [7], "target": 14, "contents": "x"}]},
            ("characters", "a", "perception_envelopes", 0, "to"),
        ),
        (
            {"number": 15, "contingency_envelopes": [{"contents": "x"}]},
            ("characters", "a", "contingency_envelopes", 0),
        ),
        (
            {"number": 15, "contingency_envelopes": [{"at": "nine", "contents": "x"}]},
            ("characters", "a", "contingency_envelopes", 0, "at"),
        ),
        (
            {"number": 15, "contingency_envelopes": [{"at": "25:00", "contents": "x"}]},
            ("characters", "a", "contingency_envelopes", 0, "at"),
        ),
        (
            {"number": 15, "contingency_envelopes": [{"at": -5, "contents": "x"}]},
            ("characters", "a", "contingency_envelopes", 0, "at"),
        ),
    ],
)
def test_bad_sheets_name_the_bad_field(sheet: dict[str, Any], path: tuple[object, ...]) -> None:
    with pytest.raises(ScenarioError) as error:
        load_game(game(a=sheet))
    assert error.value.path == path


def test_envelope_ids_are_unique() -> None:
    envelope = {"id": "e", "to": "ALL", "target": 10, "contents": "x"}
    with pytest.raises(ScenarioError, match="used twice"):
        load_game(
            game(
                a=character("A", 15, perception_envelopes=[envelope]),
                b=character("B", 16, perception_envelopes=[envelope]),
            )
        )


def test_a_start_that_is_no_time_of_day_is_refused() -> None:
    """ "Open at nine o'clock": times are of a day's clock, 00:00 to 23:59."""
    with pytest.raises(ScenarioError) as error:
        load_game({"start": "24:30", "characters": {"a": character("A", 15)}})
    assert error.value.path == ("start",)

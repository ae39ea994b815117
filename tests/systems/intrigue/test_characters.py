"""Character Badges, stats, skills, abilities, languages, and the game file that holds them."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import ScenarioError
from referee.systems.intrigue import load_game
from referee.systems.intrigue.characters import Character, is_character_number
from referee.systems.intrigue.envelopes import ALL, ConditionKind
from referee.systems.intrigue.game import unworn_numbers

from .helpers import _countess, character


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


def test_a_bad_envelope_in_a_game_file_is_refused_by_its_path() -> None:
    """A game file's errors name the bad field: an envelope that is not a mapping, and an
    unknown field of the second envelope."""
    with pytest.raises(
        ScenarioError,
        match=r"^characters\.countess\.contingency_envelopes\.0: "
        r"an envelope is a mapping, not str$",
    ):
        load_game(_countess("open me"))
    with pytest.raises(
        ScenarioError,
        match=r"^characters\.countess\.contingency_envelopes\.1\.colour: unknown field 'colour'",
    ):
        load_game(
            _countess({"at": 0, "contents": "x"}, {"at": 0, "contents": "y", "colour": "red"})
        )


def test_abilities_in_a_game_file_are_a_mapping_by_name() -> None:
    """A game file's abilities are a mapping of name to card; a list is refused by its path."""
    cast_ = {"characters": {"kro": character("Krockin", 33, abilities=["Energy Bolt"])}}
    with pytest.raises(
        ScenarioError, match=r"^characters\.kro\.abilities: abilities is a mapping, not list$"
    ):
        load_game(cast_)


def test_items_in_a_game_file_are_a_mapping_of_item_cards() -> None:
    """Items: a character's items are cards by name; anything else is refused at its path."""
    for items, path, words in (
        (["knife"], ("characters", "a", "items"), "items is a mapping, not list"),
        (
            {"knife": 3},
            ("characters", "a", "items", "knife"),
            "an item card is a mapping, not int",
        ),
    ):
        with pytest.raises(ScenarioError) as error:
            load_game({"characters": {"a": character("A", 15, items=items)}})
        assert error.value.path == path
        assert str(error.value).endswith(words)


def test_envelopes_for_a_number_nobody_wears_are_pointed_out() -> None:
    """Character Badges: an envelope for a number no character wears is likely a slip in the
    game file; every such number is named, and a worn one is not."""
    state = load_game(
        {
            "characters": {
                "a": character(
                    "A",
                    15,
                    perception_envelopes=[{"to": [12, 53, 54], "target": 14, "contents": "x"}],
                    contingency_envelopes=[
                        {"see": 53, "contents": "y"},
                        {"talk": 12, "contents": "z"},
                    ],
                ),
                "b": character("B", 12),
            }
        }
    )
    assert unworn_numbers(state) == [
        "a-p1 (Give to Character 12, 53, 54, if they Roll 14 or more): nobody wears 53, 54",
        "a-c1 (Open if you see character 53): nobody wears 53",
    ]


@pytest.mark.parametrize(
    ("sheet", "path", "words"),
    [
        (
            {"items": {"knife": {"damge": 3}}},
            ("items", "knife", "damge"),
            "unknown field 'damge' (known: damage, description, gun)",
        ),
        *(
            (
                {"items": {"knife": {"damage": bad}}},
                ("items", "knife", "damage"),
                f"damage is a whole number, not {bad!r}",
            )
            for bad in (-1, "big", True)
        ),
        (
            {"items": {"knife": {"description": 5}}},
            ("items", "knife", "description"),
            "description is text, not 5",
        ),
        ({"languages": "French"}, ("languages",), "languages is a list of language names"),
        ({"languages": [1]}, ("languages",), "languages is a list of language names"),
        (
            {"perception_envelopes": [3]},
            ("perception_envelopes", 0),
            "an envelope is a mapping, not int",
        ),
        (
            {"perception_envelopes": [{"to": "ALL", "target": 14, "contents": "x", "hue": 1}]},
            ("perception_envelopes", 0, "hue"),
            "unknown field 'hue' (known: contents, directions, id, target, to)",
        ),
    ],
)
def test_a_bad_item_language_or_envelope_is_refused_at_its_path(
    sheet: dict[str, Any], path: tuple[object, ...], words: str
) -> None:
    """The game file: an item card, a language list or a Perception Envelope that is not as the
    rules write it is refused, naming the field."""
    with pytest.raises(ScenarioError) as error:
        load_game({"characters": {"a": character("A", 15, **sheet)}})
    assert error.value.path == ("characters", "a", *path)
    assert str(error.value).endswith(words)


def test_an_item_card_may_do_no_damage_and_carry_a_description() -> None:
    """Items: a card's damage may be 0 and its description is kept (none: empty); an envelope
    may be for a single Character Number."""
    state = load_game(
        {
            "characters": {
                "a": character(
                    "A",
                    15,
                    items={"knife": {"damage": 0, "description": "a blade"}, "note": {}},
                    perception_envelopes=[{"to": 12, "target": 14, "contents": "x"}],
                )
            }
        }
    )
    knife, note = state.character("a").items
    assert (knife.damage, knife.description) == (0, "a blade")
    assert (note.damage, note.description) == (None, "")
    assert state.perception_envelopes[0].given_to == ("12",)


_A = {"number": 15}

_ALL_14 = {"to": "ALL", "target": 14, "contents": "x"}


def _envelope(**fields: Any) -> dict[str, Any]:
    """A game whose one character holds one Perception Envelope of ``fields``."""
    return {"characters": {"a": {"number": 15, "perception_envelopes": [fields]}}}


@pytest.mark.parametrize(
    ("setup", "refusal"),
    [
        ({"characters": [1]}, "characters: characters is a mapping, not list"),
        ({}, "characters: a game has characters"),
        (
            {"characters": {"a": _A}, "title": "x"},
            "title: unknown field 'title' (known: characters, start)",
        ),
        ({"characters": {"a": 3}}, "characters.a: a character is a mapping, not int"),
        *(
            ({"characters": {cid: _A}}, f"characters.{cid}: a character id is a name, not {cid!r}")
            for cid in ("15", "referee", "public", "ALL")
        ),
        (
            {"characters": {"a": {"number": 15, "skills": ["Perception"]}}},
            "characters.a.skills: skills is a mapping, not list",
        ),
        (
            {"characters": {"a": {"number": 7}}},
            "characters.a.number: a character number has two digits, not 7 "
            "(write numbers below 10 in quotes, like '07')",
        ),
        (
            {"characters": {"a": {"number": "abc"}}},
            "characters.a.number: a character number has two digits, not 'abc'",
        ),
        (
            _envelope(to="ALL", target="high", contents="x"),
            "characters.a.perception_envelopes.0.target: target is a whole number, at least 0, "
            "not 'high'",
        ),
        (
            _envelope(to="ALL", target=14),
            "characters.a.perception_envelopes.0.contents: contents is text, not None",
        ),
        (
            _envelope(to="ALL", target=14, contents="x", directions=5),
            "characters.a.perception_envelopes.0.directions: directions is text, not 5",
        ),
        (
            _envelope(to="ALL", target=14, contents="x", id=5),
            "characters.a.perception_envelopes.0.id: id is text, not 5",
        ),
        *(
            ({"characters": {"a": {"number": 15, **sheet}}}, f"characters.a.{refusal}")
            for sheet, refusal in (
                ({"name": 5}, "name: name is text, not 5"),
                ({"strength": "x"}, "strength: strength is a whole number, at least 0, not 'x'"),
                ({"mind": "x"}, "mind: mind is a whole number, at least 0, not 'x'"),
                (
                    {"speaks_english": "yes"},
                    "speaks_english: speaks_english is true or false, not 'yes'",
                ),
                ({"wounds": 0}, "wounds: wounds is a whole number, at least 1, not 0"),
                ({"wounds": "x"}, "wounds: wounds is a whole number, at least 1, not 'x'"),
            )
        ),
        *(
            (
                {"start": clock, "characters": {"a": _A}},
                f"start: a clock time runs from 00:00 to 23:59, not {clock!r}",
            )
            for clock in ("24:00", "25:00:00")
        ),
    ],
)
def test_a_bad_game_file_is_refused_by_the_field_at_fault(
    setup: dict[str, Any], refusal: str
) -> None:
    """The game file: what is not as the rules write it (a character id that is a number or a
    seat's name, a number not of two digits, a clock time past 23:59, ...) is refused by its
    path, in words."""
    with pytest.raises(ScenarioError) as error:
        load_game(setup)
    assert str(error.value) == refusal


def test_ten_and_ninety_nine_are_badge_numbers_and_the_evening_may_start_at_23_59() -> None:
    """Character Badges: "A two digit number": 10 to 99. A game may start at 23:59; envelopes
    with no id are numbered from 1, with no directions."""
    state = load_game(
        {
            "start": "23:59",
            "characters": {
                "a": {"number": 10},
                "b": {"number": 99},
                "c": {"number": 15, "perception_envelopes": [_ALL_14, _ALL_14]},
            },
        }
    )
    assert [c.number for c in state.characters] == ["10", "99", "15"]
    assert [(p.id, p.directions) for p in state.perception_envelopes] == [
        ("c-p1", ""),
        ("c-p2", ""),
    ]


def test_a_sheet_without_statistics_has_the_games_defaults() -> None:
    """Statistics: a sheet that gives none has Combat, Strength and Mind 1 and Stamina 6, and
    as many wounds; a Stamina of 1 is allowed."""
    state = load_game({"characters": {"a": {"number": 15}, "b": {"number": 16, "stamina": 1}}})
    a, b = state.characters
    assert (a.combat, a.strength, a.mind, a.stamina, a.wounds) == (1, 1, 1, 6, 6)
    assert (b.stamina, b.wounds) == (1, 1)


def test_a_special_ability_keeps_every_mechanic_its_sheet_writes() -> None:
    """Other Skills and Special Abilities, Mental Combat: an ability's description, whether it
    is mental, its set Target Number, damage, obviousness, use in combat, dodgeability, skill
    value and effect are as written; an ability with nothing written has the defaults."""
    written = {
        "description": "a stare",
        "mental": True,
        "target": 12,
        "damage": 2,
        "obvious": True,
        "in_combat": False,
        "dodgeable": True,
        "value": 4,
        "effect": "the target sleeps",
    }
    state = load_game(
        {"characters": {"a": character("A", 15, abilities={"Glare": written, "Luck": None})}}
    )
    glare, luck = state.character("a").abilities
    assert glare.name == "Glare"
    assert {key: getattr(glare, key) for key in written} == written
    assert (luck.name, luck.description, luck.mental, luck.target, luck.damage) == (
        "Luck",
        "",
        False,
        None,
        0,
    )
    assert (luck.is_obvious, luck.in_combat, luck.dodgeable, luck.value, luck.effect) == (
        False,
        True,
        None,
        None,
        "",
    )


@pytest.mark.parametrize(
    ("ability", "field", "words"),
    [
        ({"target": True}, ("target",), "target is a whole number, not True"),
        ({"target": "12"}, ("target",), "target is a whole number, not '12'"),
        ({"value": False}, ("value",), "value is a whole number, not False"),
        ({"value": 2.5}, ("value",), "value is a whole number, not 2.5"),
        ({"dodgeable": 1}, ("dodgeable",), "dodgeable is true or false, not 1"),
        ({"mental": "yes"}, ("mental",), "mental is true or false, not 'yes'"),
        ({"obvious": "yes"}, ("obvious",), "obvious is true or false, not 'yes'"),
        ({"in_combat": "no"}, ("in_combat",), "in_combat is true or false, not 'no'"),
        ({"damage": "x"}, ("damage",), "damage is a whole number, at least 0, not 'x'"),
        ({"description": 5}, ("description",), "description is text, not 5"),
        ({"effect": 3}, ("effect",), "effect is text, not 3"),
        ({"colour": "red"}, ("colour",), "unknown field 'colour'"),
        (3, (), "Glare: an ability is a mapping, not int"),
    ],
)
def test_a_special_abilitys_mechanic_not_as_written_is_refused_at_its_field(
    ability: Any, field: tuple[str, ...], words: str
) -> None:
    """Mental Combat: a set Target Number and a skill value are whole numbers, dodgeability is
    true or false; a sheet that writes otherwise is refused at the ability's field."""
    with pytest.raises(ScenarioError) as error:
        load_game({"characters": {"a": character("A", 15, abilities={"Glare": ability})}})
    assert error.value.path == ("characters", "a", "abilities", "Glare", *field)
    assert words in str(error.value)


def test_an_item_card_is_a_gun_only_by_true_or_false_refused_at_its_field() -> None:
    """Items, "Open if shot": whether an Item Card is a gun is true or false; a card that
    writes otherwise is refused at the card's ``gun`` field, and one that writes it is a gun."""
    with pytest.raises(ScenarioError) as error:
        load_game({"characters": {"a": character("A", 15, items={"Pistol": {"gun": "yes"}})}})
    assert error.value.path == ("characters", "a", "items", "Pistol", "gun")
    assert str(error.value).endswith("gun is true or false, not 'yes'")
    state = load_game({"characters": {"a": character("A", 15, items={"Pistol": {"gun": True}})}})
    assert [(i.name, i.gun) for i in state.character("a").items] == [("Pistol", True)]

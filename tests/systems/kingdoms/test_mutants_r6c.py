"""Round 6, part C of issue 13's mutation testing: the modules no round had run (the set-up's
shape, the sheets, the printed tables, the state, the chronicle's set-up, the actions' parameters
and the roll cards). Each test pins a rule or what a player reads, through the public API."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import RollCard, RuleError, ScenarioError
from referee.dice import ScriptedSource
from referee.systems.kingdoms import tables
from referee.systems.kingdoms.cards import (
    after_card,
    count_odds,
    pool_card,
    pool_dice,
    shade_letter,
)
from referee.systems.kingdoms.chronicle import check_sheets, faction_from
from referee.systems.kingdoms.dice import (
    Artha,
    PoolRoll,
    Shade,
    roll_before,
    spend_after,
)
from referee.systems.kingdoms.setup import check_disposition_file, check_setup
from referee.systems.kingdoms.sheets import (
    Ability,
    Character,
    Relationship,
    check_leader,
    check_rivals,
    check_second,
    starting_artha,
)
from referee.systems.kingdoms.state import Faction, KingdomsState, Slip
from referee.systems.kingdoms.tables import MANEUVERS, TableError, maneuver, matrix

BLACK, GREY, WHITE = Shade.BLACK, Shade.GREY, Shade.WHITE

ANSWERS: dict[str, Any] = {
    "territorial_relation": "native",
    "lifepath_settings": 1,
    "mechanical_aptitude": "no tools",
    "population_density": "rural",
    "population_growth": "slow",
    "political_placement": "outcast",
}


def _setup(leader: dict[str, Any] | None = None, **faction: Any) -> dict[str, Any]:
    elves: dict[str, Any] = {"disposition": 9, "leader": {"name": "Aeluin", **(leader or {})}}
    elves.update(faction)
    return {"factions": {"elves": elves}}


def _refusal(check: Any, data: Any) -> str:
    with pytest.raises(ScenarioError) as error:
        check(data)
    return str(error.value)


# ------------------------------------------------------------------------------ setup.py


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        ({**_setup(), "teritory": "x"}, "teritory: Extra inputs are not permitted"),
        (
            {**_setup(disposition="ten"), "teritory": "x"},
            "teritory: Extra inputs are not permitted",
        ),
        (
            _setup({"skills": {"Tactics": [5]}}),
            "factions.elves.leader.skills.Tactics: [5] is not an ability like 'B6'",
        ),
        (
            _setup({"stats": {"Will": 5}}),
            "factions.elves.leader.stats.Will: 5 is not an ability like 'B6'",
        ),
        (
            _setup({"skills": {"Tactics": {"ability": "B5", "open_ended": "yes"}}}),
            "factions.elves.leader.skills.Tactics.open_ended: Input should be a valid boolean",
        ),
        (
            _setup({"skills": {"Tactics": {"ability": "B5", "exponent": 3}}}),
            "factions.elves.leader.skills.Tactics.exponent: Extra inputs are not permitted",
        ),
        (
            _setup(
                {
                    "skills": {
                        "Tactics": {"ability": "B5", "open_ended": "yes"},
                        "Law": {"ability": "B5", "x": 1},
                    }
                }
            ),
            "factions.elves.leader.skills.Tactics.open_ended: Input should be a valid boolean",
        ),
        (
            _setup({"skills": {"Tactics": {"shade": "B", "exponent": 5, "x": 1}}}),
            "factions.elves.leader.skills.Tactics.x: Extra inputs are not permitted",
        ),
        (
            _setup({"skills": {"Tactics": {"shade": "B", "exponent": 25}}}),
            "factions.elves.leader.skills.Tactics.exponent: Input should be less than or equal"
            " to 20",
        ),
        (
            _setup({"stats": {"Will": {"shade": "B"}}}),
            "factions.elves.leader.stats.Will.exponent: Field required",
        ),
        (
            _setup(disposition="ten"),
            "factions.elves.disposition: a disposition: a number or the builder's answers",
        ),
        (
            _setup(disposition={k: v for k, v in ANSWERS.items() if k != "population_growth"}),
            "factions.elves.disposition.population_growth: Field required",
        ),
        (
            _setup(disposition={**ANSWERS, "lifepath_settings": "x"}),
            "factions.elves.disposition.lifepath_settings: Input should be a valid integer",
        ),
        (
            _setup({"relationships": [{"name": "Orin", "faction": "orcs"}, {"name": "Barlim"}]}),
            "factions.elves.leader.relationships.1.faction: Field required",
        ),
        (
            _setup({"artha": {"fate": -1}}),
            "factions.elves.leader.artha.fate: Input should be greater than or equal to 0",
        ),
    ],
)
def test_a_setup_of_the_wrong_shape_is_refused_naming_its_path_and_what_is_wrong(
    setup: dict[str, Any], words: str
) -> None:
    """ "Territorial Conquest", "Faction Leaders": a set-up is refused with the path of the bad
    field and what is wrong with it; inside an ability or a disposition, in the words of the
    shape the value has (an ability written out, the builder's answers)."""
    assert _refusal(check_setup, setup) == words


def test_a_good_setup_is_taken() -> None:
    """An ability as a string, written out or as a record shows an open-ended one; a
    disposition as a number or as the builder's answers."""
    check_setup(
        _setup(
            {
                "skills": {
                    "Tactics": "B5",
                    "Law": {"shade": "G", "exponent": 4},
                    "Oratory": {"ability": "B5", "open_ended": True},
                }
            },
            disposition=ANSWERS,
        )
    )


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (3, "needs 'factions:' with each faction's answers"),
        ({"factions": {"elves": ANSWERS}, "x": 1}, "x: Extra inputs are not permitted"),
        (
            {"factions": {"elves": {**ANSWERS, "lifepath_settings": -1}}, "x": 1},
            "x: Extra inputs are not permitted",
        ),
        (
            {"factions": {"elves": {**ANSWERS, "lifepath_settings": -1}}},
            "factions.elves.lifepath_settings: Input should be greater than or equal to 0",
        ),
        (
            {"factions": {"elves": {**ANSWERS, "population_density": 2}}},
            "factions.elves.population_density: Input should be a valid string",
        ),
        (
            {"factions": {"elves": {**ANSWERS, "mystical_abilities": {"songs": 1}}}},
            "factions.elves.mystical_abilities: Input should be a valid integer",
        ),
        (
            {"factions": {}},
            "factions: Dictionary should have at least 1 item after validation, not 0",
        ),
    ],
)
def test_a_disposition_file_of_the_wrong_shape_is_refused_naming_its_path(
    data: Any, words: str
) -> None:
    """The builder's file of answers ("Territorial Conquest", Steps One to Seven): refused with
    the first bad path; a file of good answers is taken."""
    assert _refusal(check_disposition_file, data) == words
    check_disposition_file({"factions": {"elves": ANSWERS}, "players": 3})


# ------------------------------------------------------------------------------ cards.py


def _rolled(dice: int, shade: int, open_ended: bool, faces: list[int]) -> PoolRoll:
    return roll_before(dice, shade, open_ended, ScriptedSource(faces))


def test_fate_on_a_closed_roll_shows_the_odds_of_its_sixes_exploding() -> None:
    """Fate after a closed roll makes its 6s open-ended: 3 black dice showing 6, 4, 1 have 2
    successes; the one 6 rerolled open-ended adds none 1/2 (1-3), one 5/12 (4, 5, or a 6 then
    a miss), two 5/72 … The card names the pool and the artha, every face and the final count."""
    before = _rolled(3, BLACK, False, [6, 4, 1])
    after = spend_after(before, Artha(fate=True), ScriptedSource([5]))
    card = after_card(before, after, Artha(fate=True), "elves' Fate")
    assert card.odds is not None
    assert list(card.odds.items())[:4] == [
        ("2", "1/2"),
        ("3", "5/12"),
        ("4", "5/72"),
        ("5", "5/432"),
    ]
    assert (card.label, card.rule, card.dice) == (
        "elves' Fate",
        "Independent and Versus Maneuvers",
        "3d6 + Fate",
    )
    assert (card.faces, card.outcome, card.margin, card.value) == ((6, 4, 1, 5), "3", None, 3)
    assert card.shown == "pool [6, 4, 1], fate [5]"


def test_fate_on_an_open_ended_roll_rerolls_one_failed_die_open_ended() -> None:
    """Fate after an open-ended roll rerolls one failed die, open-ended: 3 grey dice showing
    6, 1, 2 and the 6's 1 have 1 success; the rerolled die adds none 1/3 (1-2), one 5/9 …"""
    before = _rolled(3, GREY, True, [6, 2, 1, 1])
    after = spend_after(before, Artha(fate=True), ScriptedSource([3]))
    card = after_card(before, after, Artha(fate=True), "orcs' Fate")
    assert card.odds is not None
    assert list(card.odds.items())[:3] == [("1", "1/3"), ("2", "5/9"), ("3", "5/54")]
    assert card.dice == "3d6 grey open-ended + Fate"
    assert (card.outcome, card.shown) == ("2", "pool [6, 1, 2, 1], fate [3]")


def test_fate_on_an_open_ended_roll_without_a_failed_die_can_change_nothing() -> None:
    """Nothing failed: the count stands, certain."""
    before = _rolled(2, BLACK, True, [4, 5])
    after = spend_after(before, Artha(fate=True), ScriptedSource([]))
    card = after_card(before, after, Artha(fate=True), "elves' Fate")
    assert card.odds == {"2": "1"}
    assert (card.outcome, card.shown) == ("2", "pool [4, 5]")


def test_deeds_after_the_roll_shows_the_odds_of_every_failed_die_rerolled() -> None:
    """Deeds after the roll rerolls every failed die, open-ended if the pool is: 2 white dice
    both failed reroll closed (none 1/36, one 5/18, two 25/36); 3 grey open-ended dice with 3
    failed reroll open-ended (none 1/27, the top beyond three dice)."""
    before = _rolled(2, WHITE, False, [1, 1])
    after = spend_after(before, Artha(deeds_after=True), ScriptedSource([6, 1]))
    card = after_card(before, after, Artha(deeds_after=True), "dwarves' Deeds")
    assert card == RollCard(
        label="dwarves' Deeds",
        rule="Independent and Versus Maneuvers",
        dice="2d6 white + Deeds (reroll)",
        odds={"0": "1/36", "1": "5/18", "2": "25/36"},
        faces=(1, 1, 6, 1),
        outcome="1",
        margin=None,
        value=1,
        shown="pool [1, 1], deeds [6, 1]",
    )
    before = _rolled(3, GREY, True, [6, 2, 1, 1])
    after = spend_after(before, Artha(deeds_after=True), ScriptedSource([3, 6, 2, 2]))
    card = after_card(before, after, Artha(deeds_after=True), "orcs' Deeds")
    assert card.odds is not None
    assert list(card.odds.items())[:3] == [("1", "1/27"), ("2", "5/27"), ("3", "55/162")]
    assert "5" in card.odds


def test_fate_and_deeds_together_show_no_odds() -> None:
    """Both after one roll: the card gives the faces and the count, not the odds."""
    before = _rolled(3, BLACK, False, [6, 4, 1])
    artha = Artha(fate=True, deeds_after=True)
    after = spend_after(before, artha, ScriptedSource([5, 1, 1, 1]))
    card = after_card(before, after, artha, "elves' artha")
    assert card.odds is None
    assert (card.dice, card.outcome) == ("3d6 + Fate + Deeds (reroll)", "3")


def test_a_maneuver_tests_card_counts_successes_and_tops_an_open_ended_pool() -> None:
    """A maneuver test is rolled before its obstacle is known: its card gives the chance of each
    number of successes; an open-ended pool's list stops three past its dice, "or more"."""
    card = pool_card(_rolled(3, GREY, True, [6, 2, 1, 1]), "orcs' Assault", "Maneuver Resolution")
    assert card == RollCard(
        label="orcs' Assault",
        rule="Maneuver Resolution",
        dice="3d6 grey open-ended",
        odds={
            "0": "1/27",
            "1": "5/27",
            "2": "55/162",
            "3": "815/2916",
            "4": "655/5832",
            "5": "1205/34992",
            "6+": "421/34992",
        },
        faces=(6, 1, 2, 1),
        outcome="1",
        margin=None,
        value=1,
        shown="pool [6, 1, 2, 1]",
    )
    lucky = _rolled(1, BLACK, True, [6, 6, 6, 6, 6, 1])
    card = pool_card(lucky, "elves' Assess", "Maneuver Resolution")
    assert (card.outcome, card.margin, card.value) == ("4+", None, 5)
    assert card.odds == {"0": "1/2", "1": "5/12", "2": "5/72", "3": "5/432", "4+": "1/432"}


def test_a_card_shows_the_odds_it_is_given_and_buckets_the_count_among_them() -> None:
    """Odds given (a tie-breaker's, a pool's own) are shown as given; a count past the top
    bucket is that bucket, one listed is itself."""
    rolled = _rolled(2, BLACK, False, [6, 5])
    card = pool_card(rolled, "x", "y", odds={"0": "1/4", "1+": "3/4"})
    assert (card.odds, card.outcome) == ({"0": "1/4", "1+": "3/4"}, "1+")
    card = pool_card(rolled, "x", "y", odds={"1": "1/2", "2": "1/4"})
    assert card.outcome == "2"
    card = pool_card(rolled, "x", "y", odds={"0": "1/2", "12+": "1/2"})
    assert card.outcome == "2"
    four = _rolled(1, BLACK, True, [6, 6, 6, 4])
    assert pool_card(four, "x", "y").outcome == "4+"
    assert pool_card(rolled, "x", "y").odds == {"0": "1/4", "1": "1/2", "2": "1/4"}
    before = _rolled(3, BLACK, False, [6, 4, 1])
    after = spend_after(before, Artha(fate=True), ScriptedSource([5]))
    assert pool_card(after, "x", "y").shown == "pool [6, 4, 1], fate [5]"


@pytest.mark.parametrize(
    ("dice", "shade", "open_ended", "text"),
    [
        (5, BLACK, False, "5d6"),
        (4, GREY, True, "4d6 grey open-ended"),
        (2, WHITE, False, "2d6 white"),
        (3, 5, False, "3d6 shade 5"),
    ],
)
def test_a_pool_is_written_as_a_person_writes_it(
    dice: int, shade: int, open_ended: bool, text: str
) -> None:
    """Black is the plain d6; grey and white are named; open-ended is said."""
    assert pool_dice(dice, shade, open_ended) == text


def test_the_odds_of_no_dice_are_no_successes_certain() -> None:
    """A pool of no dice has 0 successes, certain; 2 black open-ended dice count to 5 or more."""
    assert count_odds(0, BLACK, False) == {"0": "1"}
    assert count_odds(2, BLACK, True) == {
        "0": "1/4",
        "1": "5/12",
        "2": "35/144",
        "3": "5/72",
        "4": "85/5184",
        "5+": "23/5184",
    }
    assert shade_letter(GREY) == "G"


# ------------------------------------------------------------------------------ sheets.py


def test_a_sheet_holds_everything_the_setup_gives() -> None:
    """ "Faction Leaders": a sheet is entered, not burned; every number, ability, affiliation,
    wound and relationship given is what the maneuvers use."""
    leader = Character.from_json(
        "grannir",
        {
            "name": "Grannir",
            "lifepaths": 6,
            "stats": {"Will": "B5", "Health": {"shade": "G", "exponent": 4}},
            "skills": {"Tactics": {"ability": "B5", "open_ended": True}, "Law": "W3"},
            "artha": {"fate": 2, "persona": 3, "deeds": 1},
            "resources": 4,
            "circles": 3,
            "cash_on_hand": 2,
            "affiliations": {"Guild": 2, "Temple": 1},
            "wound_dice": 2,
            "superficial": True,
            "relationships": [
                {"name": "Barlim", "faction": "raddrim", "inimical": False},
                {"name": "Orin", "faction": "raddrim"},
            ],
            "burned_up": False,
        },
    )
    assert leader == Character(
        name="Grannir",
        lifepaths=6,
        stats={"Will": Ability(Shade.BLACK, 5), "Health": Ability(Shade.GREY, 4)},
        skills={"Tactics": Ability(Shade.BLACK, 5, True), "Law": Ability(Shade.WHITE, 3)},
        artha={"fate": 2, "persona": 3, "deeds": 1},
        resources=4,
        circles=3,
        cash_on_hand=2,
        affiliations={"Guild": 2, "Temple": 1},
        wound_dice=2,
        superficial=True,
        relationships=(
            Relationship("Barlim", "raddrim", False),
            Relationship("Orin", "raddrim", True),
        ),
        burned_up=False,
    )


def test_a_sheet_left_blank_is_a_ten_lifepath_leader_or_an_eight_lifepath_second() -> None:
    """A leader's lifepaths default to 10 (no starting artha), a 2iC's to 8 (10 less two, and no
    artha of its own); nothing else is assumed: no wounds, no Resources, burned up."""
    leader = Character.from_json("grannir", {})
    assert leader == Character(
        name="grannir", lifepaths=10, artha={"fate": 0, "persona": 0, "deeds": 0}
    )
    second = Character.from_json("dorin", {}, leader=False)
    assert second == Character(
        name="dorin", lifepaths=8, artha={"fate": 0, "persona": 0, "deeds": 0}
    )
    five = Character.from_json("raddrim", {"lifepaths": 5})
    assert five.artha == {"fate": 3, "persona": 2, "deeds": 1}
    assert Character.from_json("dorin", {"lifepaths": 5}, leader=False).artha == {
        "fate": 0,
        "persona": 0,
        "deeds": 0,
    }
    assert Character.from_json("x", {"artha": {"fate": 1}}).artha == {
        "fate": 1,
        "persona": 0,
        "deeds": 0,
    }
    assert (leader.superficial, leader.burned_up, leader.relationships) == (False, True, ())


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("artha", {"fate": -3}, "Sheets: Grannir's artha.fate is 0 or more, not -3"),
        ("artha", {"persona": -1}, "Sheets: Grannir's artha.persona is 0 or more, not -1"),
        ("artha", {"deeds": -2}, "Sheets: Grannir's artha.deeds is 0 or more, not -2"),
        ("resources", -1, "Sheets: Grannir's resources is 0 or more, not -1"),
        ("circles", -2, "Sheets: Grannir's circles is 0 or more, not -2"),
        ("cash_on_hand", -1, "Sheets: Grannir's cash_on_hand is 0 or more, not -1"),
        ("wound_dice", -1, "Sheets: Grannir's wound_dice is 0 or more, not -1"),
        (
            "affiliations",
            {"Guild": -1},
            "Sheets: Grannir's affiliations.Guild is 0 or more, not -1",
        ),
    ],
)
def test_a_sheets_numbers_are_zero_or_more_and_the_refusal_names_which(
    field: str, value: Any, words: str
) -> None:
    """Artha, Resources, Circles, Cash on Hand, wound dice and affiliations are never below 0."""
    with pytest.raises(RuleError) as error:
        Character.from_json("Grannir", {field: value})
    assert str(error.value) == words
    zero = {"affiliations": {"Guild": 0}, "artha": {"fate": 0}}.get(field, 0)
    Character.from_json("Grannir", {field: zero})


def test_an_ability_is_a_shade_and_an_exponent() -> None:
    """ "B6", "G10", or written out (black unless a shade is given, closed unless open-ended);
    anything else is refused naming what was given."""
    assert Ability.parse("B6") == Ability(Shade.BLACK, 6)
    assert Ability.parse("G10") == Ability(Shade.GREY, 10)
    assert Ability.parse("W0") == Ability(Shade.WHITE, 0)
    assert Ability.parse({"exponent": 4}) == Ability(Shade.BLACK, 4)
    assert Ability.parse({"shade": "G", "exponent": 0}) == Ability(Shade.GREY, 0)
    assert Ability.parse({"ability": "G4"}) == Ability(Shade.GREY, 4, False)
    assert Ability.parse({"ability": "W2", "open_ended": True}) == Ability(Shade.WHITE, 2, True)
    assert Ability.parse({"shade": "W", "exponent": 3, "open_ended": True}).open_ended
    for bad in ("B", "6", "B6x", "Bx", 6, None):
        with pytest.raises(RuleError) as error:
            Ability.parse(bad)
        assert str(error.value).startswith(("Abilities: ", "Shade")) or "B6" in str(error.value)
    with pytest.raises(RuleError) as error:
        Ability.parse("B")
    assert str(error.value) == "Abilities: 'B' is not an ability like 'B6'"
    with pytest.raises(RuleError) as error:
        Ability.parse({"exponent": -1})
    assert str(error.value) == "Abilities: an exponent is 0 or more, not -1"
    assert Ability.parse("G5").to_json() == "G5"
    assert Ability(Shade.BLACK, 5, True).to_json() == {"ability": "B5", "open_ended": True}


def test_a_bad_ability_on_a_sheet_is_refused_with_its_path() -> None:
    """The refusal names the character, stats or skills, and the ability."""
    with pytest.raises(ScenarioError) as error:
        Character.from_json("grannir", {"skills": {"Law": "X9"}})
    assert error.value.path == ("grannir", "skills", "Law")
    with pytest.raises(ScenarioError) as error:
        Character.from_json("grannir", {"stats": {"Will": {"shade": "B"}}})
    assert error.value.path == ("grannir", "stats", "Will")
    with pytest.raises(ScenarioError) as error:
        Character.from_json("grannir", {"stats": ["Will"]})
    assert str(error.value) == "grannir.stats: a mapping of name to ability ('B6')"
    assert Character.from_json("grannir", {"skills": None}).skills == {}


def test_skills_and_stats_are_found_whatever_their_case() -> None:
    """ "logistics" is the sheet's Logistics; an ability the sheet lacks is None."""
    c = Character.from_json("x", {"skills": {"Logistics": "B6"}, "stats": {"Will": "B4"}})
    assert c.skill("LOGISTICS") == Ability(Shade.BLACK, 6)
    assert c.stat("will") == Ability(Shade.BLACK, 4)
    assert c.skill("Law") is None and c.stat("Perception") is None
    two = Character.from_json("x", {"skills": {"Law": "B2", "Logistics": "B6"}})
    assert two.skill("logistics") == Ability(Shade.BLACK, 6)


def test_artha_spent_is_taken_from_the_sheet_and_never_more_than_it_holds() -> None:
    """Spending takes each kind away; a kind the sheet lacks (or has too few of) is refused,
    saying what the character has."""
    c = Character.from_json("Raddrim", {"lifepaths": 5})
    spent = c.spend({"fate": 2, "persona": 1, "deeds": 1})
    assert spent.artha == {"fate": 1, "persona": 1, "deeds": 0}
    assert c.artha == {"fate": 3, "persona": 2, "deeds": 1}
    assert c.spend({"persona": 2}).artha == {"fate": 3, "persona": 0, "deeds": 1}
    with pytest.raises(RuleError) as error:
        c.spend({"fate": 4})
    assert str(error.value) == "Artha: Raddrim has 3 fate, cannot spend 4"
    with pytest.raises(RuleError) as error:
        c.spend({"glory": 1})
    assert str(error.value) == "Artha: Raddrim has 0 glory, cannot spend 1"
    assert c.spend({"glory": 0}).artha["glory"] == 0


@pytest.mark.parametrize(("lifepaths", "ok"), [(4, False), (5, True), (10, True), (11, False)])
def test_a_faction_leader_has_five_to_ten_lifepaths(lifepaths: int, ok: bool) -> None:
    """ "This Faction Leader is built with anywhere from 5 to 10 Lifepaths"."""
    leader = Character("Grannir", lifepaths)
    if ok:
        check_leader(leader)
        return
    with pytest.raises(RuleError) as error:
        check_leader(leader)
    assert str(error.value) == (
        f"Faction Leaders: Grannir has {lifepaths} lifepaths; a leader has 5 to 10"
    )
    with pytest.raises(RuleError) as error:
        starting_artha(lifepaths)
    assert str(error.value) == (
        f"Faction Leaders: a Faction Leader has 5 to 10 lifepaths, not {lifepaths}"
    )


def test_a_leaders_stats_are_at_most_seven_and_skills_at_most_six() -> None:
    """ "Your maximum exponent in any stat is 7; your maximum exponent in any skill is 6"."""
    check_leader(Character.from_json("G", {"stats": {"Will": "B7"}, "skills": {"Law": "B6"}}))
    with pytest.raises(RuleError) as error:
        check_leader(Character.from_json("G", {"stats": {"Will": "B8"}}))
    assert str(error.value) == "Faction Leaders: G's Will 8 is over the cap 7"
    with pytest.raises(RuleError) as error:
        check_leader(Character.from_json("G", {"skills": {"Law": "B7"}}))
    assert str(error.value) == "Faction Leaders: G's Law 7 is over the cap 6"


def test_a_second_in_command_has_two_fewer_lifepaths_and_caps_one_lower() -> None:
    """ "two fewer Lifepaths than their faction's Leader, and a skill and stat exponent cap one
    lower": stats at most 6, skills at most 5."""
    leader = Character("Grannir", 8)
    check_second(leader, Character.from_json("Dorin", {"lifepaths": 6, "stats": {"Will": "B6"}}))
    with pytest.raises(RuleError) as error:
        check_second(
            leader, Character.from_json("Dorin", {"lifepaths": 6, "stats": {"Will": "B7"}})
        )
    assert str(error.value) == "Seconds in Command: Dorin's Will 7 is over the cap 6"
    with pytest.raises(RuleError) as error:
        check_second(
            leader, Character.from_json("Dorin", {"lifepaths": 6, "skills": {"Law": "B6"}})
        )
    assert str(error.value) == "Seconds in Command: Dorin's Law 6 is over the cap 5"
    with pytest.raises(RuleError) as error:
        check_second(leader, Character("Dorin", 5))
    assert str(error.value) == "Seconds in Command: Dorin has 5 lifepaths; Grannir's 2iC has 6"


def test_a_leader_needs_two_rivals_in_opposing_factions_who_are_not_player_characters() -> None:
    """ "two relationships with members of opposing factions … must be with NPC's"."""
    rivals = {"relationships": [{"name": "Barlim", "faction": "raddrim"}]}
    with pytest.raises(RuleError) as error:
        check_rivals(Character.from_json("Grannir", rivals), "grannir", frozenset())
    assert str(error.value) == (
        "Rival Relationships: Grannir needs 2 relationships with members of opposing "
        "factions, has 1"
    )
    two = {"relationships": [*rivals["relationships"], {"name": "Raddrim", "faction": "raddrim"}]}
    with pytest.raises(RuleError) as error:
        check_rivals(Character.from_json("Grannir", two), "grannir", frozenset({"Raddrim"}))
    assert str(error.value) == (
        "Rival Relationships: Grannir's rival Raddrim is a player character; rivals must be NPCs"
    )
    check_rivals(Character.from_json("Grannir", two), "grannir", frozenset({"Grannir"}))


# ------------------------------------------------------------------------------ state.py


def test_a_slip_is_recorded_with_every_field_and_read_back_the_same() -> None:
    """A sealed slip ("your faction name, the attempted maneuver and your intended target")
    with everything the procedure needs: it survives the record as it was written."""
    slip = Slip(
        faction="elves",
        maneuver="Ploy",
        skill="Strategy",
        targets=("orcs", "dwarves"),
        roller="second",
        forks=("Tactics", "Law"),
        persona=2,
        deeds_before=True,
        defence=3,
        helps="dwarves",
        downtime=1,
        substitute=True,
    )
    record = slip.to_json()
    assert record == {
        "faction": "elves",
        "maneuver": "Ploy",
        "skill": "Strategy",
        "targets": ["orcs", "dwarves"],
        "roller": "second",
        "forks": ["Tactics", "Law"],
        "persona": 2,
        "deeds_before": True,
        "defence": 3,
        "helps": "dwarves",
        "downtime": 1,
        "substitute": True,
    }
    assert Slip.from_json(record) == slip


def test_a_slip_without_its_options_is_the_leaders_plain_test() -> None:
    """Only faction, maneuver and skill are needed: the leader rolls, no artha, no help."""
    slip = Slip.from_json({"faction": "elves", "maneuver": "Fortify", "skill": "Logistics"})
    assert slip == Slip("elves", "Fortify", "Logistics")
    assert slip.to_json()["helps"] is None
    assert (slip.roller, slip.helps, slip.persona, slip.deeds_before) == ("leader", None, 0, False)


def test_a_factions_second_in_command_is_there_or_refused() -> None:
    """ "leader" is the Faction Leader, "second" the 2iC; a faction without one is refused."""
    leader, second = Character("Grannir", 8), Character("Dorin", 6)
    with_second = Faction("dwarves", "Dwarves", leader, second)
    assert with_second.character("second") is second
    assert with_second.character("leader") is leader
    alone = Faction("orcs", "Orcs", leader)
    assert alone.character("leader") is leader
    with pytest.raises(RuleError) as error:
        alone.character("second")
    assert str(error.value) == "Seconds in Command: orcs has no Second in Command"


# ------------------------------------------------------------------------------ chronicle.py


def test_a_faction_is_set_up_with_its_leader_second_players_and_statuses() -> None:
    """A faction from its set-up: name, leader and 2iC (named for the faction when unnamed),
    players, disposition (also its starting disposition), objective and earlier statuses."""
    faction = faction_from(
        "dwarves",
        {
            "name": "The Dwarves",
            "leader": {"name": "Grannir", "lifepaths": 8},
            "second": {"lifepaths": 6},
            "players": ["ann", "bob"],
            "disposition": 12,
            "objective": "hold the pass",
            "assessed": ["orcs"],
            "infiltrated": {"elves": 2},
            "sapped": 1,
            "cannot_act": True,
        },
        3,
        6,
    )
    assert faction.leader == Character.from_json("Grannir", {"lifepaths": 8})
    assert faction.second == Character.from_json("dwarves 2iC", {"lifepaths": 6}, leader=False)
    assert faction == Faction(
        id="dwarves",
        name="The Dwarves",
        leader=faction.leader,
        second=faction.second,
        players=("ann", "bob"),
        disposition=12,
        starting_disposition=12,
        objective="hold the pass",
        assessed=frozenset({"orcs"}),
        infiltrated={"elves": 2},
        sapped=1,
        cannot_act=True,
    )
    named = faction_from(
        "elves", {"leader": {}, "second": {"name": "Lith"}, "disposition": 0}, 2, None
    )
    assert (named.name, named.leader.name, named.leader.lifepaths) == ("elves", "elves", 10)
    assert (named.second is not None) and named.second.name == "Lith"
    assert named.second.lifepaths == 8
    assert (named.players, named.objective, named.assessed, named.infiltrated) == (
        (),
        "",
        frozenset(),
        {},
    )
    assert (named.sapped, named.cannot_act, named.disposition) == (0, False, 0)
    assert (
        faction_from("orcs", {"leader": {}, "disposition": 3, "second": "x"}, 2, None).second
        is None
    )


def test_a_bad_number_on_a_leaders_or_seconds_sheet_names_the_character() -> None:
    """The refusal says whose sheet: the leader's or the 2iC's name, or the faction's 2iC."""
    for data, words in (
        ({"leader": {"name": "Grannir", "resources": -1}}, "Sheets: Grannir's resources"),
        ({"leader": {}, "second": {"name": "Dorin", "circles": -1}}, "Sheets: Dorin's circles"),
        ({"leader": {}, "second": {"circles": -1}}, "Sheets: dwarves 2iC's circles"),
    ):
        with pytest.raises(RuleError) as error:
            faction_from("dwarves", {**data, "disposition": 1}, 2, None)
        assert str(error.value).startswith(words)


def test_a_disposition_from_the_builders_answers_counts_the_factions_and_players() -> None:
    """Steps One to Seven: native 3 + one setting 2 + outcast 1 = 6, less 1 for three factions;
    the answers are checked against the text (six players need three factions)."""
    assert faction_from("elves", {"leader": {}, "disposition": ANSWERS}, 2, None).disposition == 6
    three = faction_from("elves", {"leader": {}, "disposition": ANSWERS}, 3, 6)
    assert (three.disposition, three.starting_disposition) == (5, 5)
    with pytest.raises(ScenarioError) as error:
        faction_from("elves", {"leader": {}, "disposition": ANSWERS}, 5, 6)
    assert error.value.path == ("factions", "elves", "disposition")
    assert "Step Seven" in str(error.value)
    for bad in (
        {**ANSWERS, "territorial_relation": "x"},
        {k: v for k, v in ANSWERS.items() if k != "population_growth"},
        {**ANSWERS, "lifepath_settings": "x"},
    ):
        with pytest.raises(ScenarioError) as error:
            faction_from("elves", {"leader": {}, "disposition": bad}, 3, None)
        assert error.value.path == ("factions", "elves", "disposition")


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (3, "factions.elves: a faction is a mapping"),
        ({"disposition": 3}, "factions.elves.leader: every faction needs a leader"),
        ({"disposition": 3, "leader": "x"}, "factions.elves.leader: every faction needs a leader"),
        (
            {"disposition": -1, "leader": {}},
            "factions.elves.disposition: a disposition is 0 or more (RULINGS: never below zero),"
            " not -1",
        ),
        (
            {"disposition": True, "leader": {}},
            "factions.elves.disposition: a disposition: a number or the builder's answers",
        ),
        (
            {"disposition": [3], "leader": {}},
            "factions.elves.disposition: a disposition: a number or the builder's answers",
        ),
        (
            {"disposition": None, "leader": {}},
            "factions.elves.disposition: a disposition: a number or the builder's answers",
        ),
    ],
)
def test_a_faction_without_a_leader_or_a_disposition_is_refused(data: Any, words: str) -> None:
    """Every faction has a leader and a disposition of 0 or more (a number, not a yes)."""
    with pytest.raises(ScenarioError) as error:
        faction_from("elves", data, 2, None)
    assert str(error.value) == words


def _state(**factions: dict[str, Any]) -> KingdomsState:
    return KingdomsState(
        "the mountain",
        {fid: faction_from(fid, data, len(factions), None) for fid, data in factions.items()},
    )


def _rivals(*names: tuple[str, str]) -> list[dict[str, str]]:
    return [{"name": n, "faction": f} for n, f in names]


def test_the_sheets_are_checked_and_strictly_with_seconds_and_rivals() -> None:
    """Every leader is checked ("Faction Leaders"); a 2iC given is checked even when not
    strict; strict sheets need a 2iC and two rivals who are not the other leaders."""
    ok = {"disposition": 3, "leader": {"name": "Grannir", "lifepaths": 8}}
    check_sheets(_state(dwarves=ok), False)
    with pytest.raises(ScenarioError) as error:
        check_sheets(_state(dwarves={**ok, "leader": {"lifepaths": 4, "artha": {}}}), False)
    assert str(error.value) == (
        "factions.dwarves: Faction Leaders: dwarves has 4 lifepaths; a leader has 5 to 10"
    )
    with pytest.raises(ScenarioError) as error:
        check_sheets(_state(dwarves={**ok, "second": {"lifepaths": 7}}), False)
    assert str(error.value).startswith("factions.dwarves: Seconds in Command: dwarves 2iC has 7")
    with pytest.raises(ScenarioError) as error:
        check_sheets(_state(dwarves=ok), True)
    assert str(error.value) == (
        "factions.dwarves: Seconds in Command: dwarves needs a Second in Command"
    )
    strict = {
        "disposition": 3,
        "leader": {
            "name": "Grannir",
            "lifepaths": 8,
            "relationships": _rivals(("Barlim", "orcs"), ("Orin", "orcs")),
        },
        "second": {"lifepaths": 6},
    }
    orcs = {
        "disposition": 3,
        "leader": {
            "name": "Gorbash",
            "relationships": _rivals(("Dorin", "dwarves"), ("Thrain", "dwarves")),
        },
        "second": {"lifepaths": 8},
    }
    check_sheets(_state(dwarves=strict, orcs=orcs), True)
    with pytest.raises(ScenarioError) as error:
        check_sheets(_state(dwarves={**strict, "second": {"lifepaths": 5}}, orcs=orcs), True)
    assert "Seconds in Command" in str(error.value)
    with pytest.raises(ScenarioError) as error:
        check_sheets(_state(dwarves={**strict, "leader": {"lifepaths": 8}}, orcs=orcs), True)
    assert str(error.value).startswith("factions.dwarves: Rival Relationships: dwarves needs 2")
    own = {
        **strict,
        "leader": {
            "name": "Grannir",
            "lifepaths": 8,
            "relationships": _rivals(("Barlim", "orcs"), ("Dorin", "dwarves")),
        },
    }
    with pytest.raises(ScenarioError) as error:
        check_sheets(_state(dwarves=own, orcs=orcs), True)
    assert str(error.value).startswith("factions.dwarves: Rival Relationships: Grannir needs 2")
    pc = {
        **strict,
        "leader": {
            "name": "Grannir",
            "lifepaths": 8,
            "relationships": _rivals(("Barlim", "orcs"), ("Gorbash", "orcs")),
        },
    }
    with pytest.raises(ScenarioError) as error:
        check_sheets(_state(dwarves=pc, orcs=orcs), True)
    assert "Gorbash is a player character" in str(error.value)
    check_sheets(_state(dwarves=pc, orcs=orcs), False)


# ------------------------------------------------------------------------------ tables.py


def test_a_malformed_setup_table_is_refused_when_read() -> None:
    """A missing entry, a gap in the starting artha table or an artha row without one of
    fate, persona and deeds is refused naming setup.yaml."""
    good = tables.load_yaml("setup.yaml")
    missing = {k: v for k, v in good.items() if k != "scenes"}
    with pytest.raises(TableError, match=r"^setup\.yaml: KeyError\('scenes'\)"):
        tables._setup_from(missing)
    gap = {**good, "starting_artha": {k: v for k, v in good["starting_artha"].items() if k != 7}}
    with pytest.raises(TableError, match=r"^setup\.yaml: starting_artha needs every lifepath"):
        tables._setup_from(gap)
    row = {**good, "starting_artha": {**good["starting_artha"], 7: {"fate": 2, "persona": 1}}}
    with pytest.raises(TableError, match=r"^setup\.yaml: starting_artha\.7: needs fate"):
        tables._setup_from(row)
    with pytest.raises(TableError, match=r"^setup\.yaml: "):
        tables._setup_from(None)


def test_the_maneuvers_are_read_from_their_file_with_their_costs_bonuses_and_obs() -> None:
    """ "Conquest Maneuvers": Gambit and Ploy cost 3 disposition, Onslaught grants 3 dice,
    Assess and Fortify are Ob 2 independent, Infiltrate the target's Circles, Ploy and Sap
    the target's exponent; read afresh from the file, the same as the game uses."""
    fresh = tables._maneuvers_from(tables.load_yaml("maneuvers.yaml"))
    assert list(fresh) == list(MANEUVERS)
    assert all(fresh[n] == maneuver(n) for n in MANEUVERS)
    summary = {
        n: (i.name, i.targets, i.conflict, i.offensive, i.requires, i.cost, i.bonus)
        for n, i in fresh.items()
    }
    assert summary["Gambit"] == ("Gambit", 1, "required", True, "assessed", 3, 0)
    assert summary["Ploy"] == ("Ploy", 2, "required", True, "infiltrated", 3, 0)
    assert summary["Onslaught"] == ("Onslaught", 1, "required", True, "assessed", 0, 3)
    assert summary["Harry"] == ("Harry", 0, "optional", False, None, 0, 0)
    assert summary["Conserve"] == ("Conserve", 0, "forbidden", False, None, 0, 0)
    obs = {n: i.independent_ob for n, i in fresh.items() if i.independent_ob != "none"}
    assert obs == {
        "Assess": 2,
        "Fortify": 2,
        "Infiltrate": "circles",
        "Ploy": "exponent",
        "Sap": "exponent",
    }
    assert fresh["Assault"].skills[0] == "Artillerist"
    assert fresh["Assault"].has_skill("siege engineer")
    assert not fresh["Assault"].has_skill("Logistics")


def test_a_maneuver_without_a_cost_bonus_or_ob_has_none() -> None:
    """An entry that states no cost, bonus or independent Ob costs nothing, grants nothing and
    takes all successes; a malformed entry is refused naming maneuvers.yaml."""
    data = tables.load_yaml("maneuvers.yaml")
    for key in ("cost", "bonus", "independent_ob"):
        data["Gambit"].pop(key, None)
    gambit = tables._maneuvers_from(data)["Gambit"]
    assert (gambit.cost, gambit.bonus, gambit.independent_ob) == (0, 0, "none")
    with pytest.raises(TableError, match=r"^maneuvers\.yaml: needs the eleven"):
        tables._maneuvers_from([])
    with pytest.raises(TableError, match=r"^maneuvers\.yaml: needs the eleven"):
        tables._maneuvers_from({"Sap": data["Sap"]})
    data = tables.load_yaml("maneuvers.yaml")
    del data["Sap"]["targets"]
    with pytest.raises(TableError, match=r"^maneuvers\.yaml: Sap: 'targets'"):
        tables._maneuvers_from(data)
    data = tables.load_yaml("maneuvers.yaml")
    data["Sap"]["conflict"] = "sometimes"
    with pytest.raises(TableError, match=r"^maneuvers\.yaml: Sap\.conflict"):
        tables._maneuvers_from(data)
    data = tables.load_yaml("maneuvers.yaml")
    data["Sap"]["independent_ob"] = "half"
    with pytest.raises(TableError, match=r"^maneuvers\.yaml: Sap\.independent_ob"):
        tables._maneuvers_from(data)
    data = tables.load_yaml("maneuvers.yaml")
    data["Sap"]["skills"] = []
    with pytest.raises(TableError, match=r"^maneuvers\.yaml: Sap\.skills: empty"):
        tables._maneuvers_from(data)


def test_the_matrix_is_read_from_its_file_and_a_malformed_one_is_refused() -> None:
    """The matrix read afresh is the game's; columns and rows are the eleven maneuvers in order,
    each row eleven cells, only Harry's row splits (dV, aV); refused naming matrix.yaml."""
    data = tables.load_yaml("matrix.yaml")
    assert tables._matrix_from(data) == matrix()
    assert matrix().is_versus("Sap", "Harry") and not matrix().is_versus("Sap", "Assault")
    assert matrix().is_versus("Harry", "Ensnare")  # aV
    for bad, words in (
        ([], "columns must be"),
        ({**data, "columns": list(reversed(MANEUVERS))}, "columns must be"),
        ({"rows": data["rows"]}, "columns must be"),
        ({**data, "rows": list(data["rows"])}, "rows must be"),
        ({**data, "rows": {k: data["rows"][k] for k in reversed(MANEUVERS)}}, "rows must be"),
        ({**data, "rows": {**data["rows"], "Sap": data["rows"]["Sap"][:10]}}, "rows.Sap: needs 11"),
        ({**data, "rows": {**data["rows"], "Sap": "IIIIIIIIIII"}}, "rows.Sap: needs 11"),
        ({**data, "rows": {**data["rows"], "Sap": ["aV"] * 11}}, "rows.Sap.Assault: only Harry"),
    ):
        with pytest.raises(TableError) as error:
            tables._matrix_from(bad)
        assert str(error.value).startswith(f"matrix.yaml: {words}")

"""Setting up the chronicle ("Territorial Conquest", "Step Seven: Factions", "Faction Leaders",
"Mandatory Relationships"): the set-up's shape, each faction from its set-up, its disposition
from the builder's answers, and the sheets checked.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import RuleError, ScenarioError, Table
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.chronicle import check_sheets, faction_from
from referee.systems.kingdoms.setup import check_setup
from referee.systems.kingdoms.sheets import Character
from referee.systems.kingdoms.state import Faction, KingdomsState

from .helpers import ANSWERS, _leader, _refusal
from .test_procedure import setup


def _setup(leader: dict[str, Any] | None = None, **faction: Any) -> dict[str, Any]:
    elves: dict[str, Any] = {"disposition": 9, "leader": {"name": "Aeluin", **(leader or {})}}
    elves.update(faction)
    return {"factions": {"elves": elves}}


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
    assert (named.name, named.leader.name, named.leader.lifepaths) == ("the Elves", "elves", 10)
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
    assert check_sheets(_state(dwarves=ok), False) == (
        "the Dwarves: no Second in Command, 0 of 2 rival relationships",
    )
    with pytest.raises(ScenarioError) as error:
        check_sheets(_state(dwarves={**ok, "leader": {"lifepaths": 4, "artha": {}}}), False)
    assert str(error.value) == (
        "factions.dwarves: Faction Leaders: dwarves has 4 lifepaths; a leader has 5 to 10"
    )
    with pytest.raises(ScenarioError) as error:
        check_sheets(_state(dwarves={**ok, "second": {"lifepaths": 7}}), False)
    assert str(error.value).startswith(
        "factions.dwarves.second: Seconds in Command: dwarves 2iC has 7"
    )
    with pytest.raises(ScenarioError) as error:
        check_sheets(_state(dwarves=ok), True)
    assert str(error.value) == (
        "factions.dwarves.second: Seconds in Command: the Dwarves need a Second in Command: "
        '"Faction Leaders are required to purchase" one (strict_sheets: false lets a quick '
        "table play without it)"
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
    assert check_sheets(_state(dwarves=strict, orcs=orcs), True) == ()
    with pytest.raises(ScenarioError) as error:
        check_sheets(_state(dwarves={**strict, "second": {"lifepaths": 5}}, orcs=orcs), True)
    assert "Seconds in Command" in str(error.value)
    with pytest.raises(ScenarioError) as error:
        check_sheets(_state(dwarves={**strict, "leader": {"lifepaths": 8}}, orcs=orcs), True)
    assert str(error.value).startswith(
        "factions.dwarves.leader.relationships: Rival Relationships: dwarves needs 2"
    )
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
    assert str(error.value).startswith(
        "factions.dwarves.leader.relationships: Rival Relationships: Grannir needs 2"
    )
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
    assert check_sheets(_state(dwarves=pc, orcs=orcs), False) == (
        "the Dwarves: Grannir's rival Gorbash is a player character; rivals must be NPCs",
    )


def _answers(relation: str) -> dict[str, Any]:
    """Disposition built from the questionnaire (Steps One to Six)."""
    return {
        "territorial_relation": relation,
        "lifepath_settings": 3,
        "mechanical_aptitude": "simple tool users",
        "mystical_abilities": 0,
        "population_density": "villages",
        "population_growth": "fast",
        "political_placement": "rival faction",
    }


def test_the_number_of_players_is_the_set_ups_or_one_a_faction() -> None:
    """Step Seven: six or more players play three two-player factions; without ``players``
    each faction has a player of its own; one player may run them all."""
    assert Table.start(PROCEDURE, setup()).state.players == 3
    assert Table.start(PROCEDURE, setup(players=1)).state.players == 1
    assert Table.start(PROCEDURE, setup(players=6)).state.players == 6
    data = setup(players=6)
    for fid, f in data["factions"].items():
        f["disposition"] = _answers("native" if fid == "elves" else "hostile")
    data["factions"]["goblins"] = {**data["factions"]["orcs"], "leader": _leader("Snaga")}
    with pytest.raises(ScenarioError, match="three two-player factions"):
        Table.start(PROCEDURE, data)

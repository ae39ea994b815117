"""Zones (Gin Lane, "Zones", "Difficult terrain", "Action: Sprint"): distances, the cost of a
step, a clear way for a move, and the paths of a Sprint.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import RuleError, ScenarioError, Table
from referee.systems.ginlane import PROCEDURE
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane.scene import SceneState
from referee.systems.ginlane.zones import step

from .helpers import _menu, _setup
from .test_procedure import act, scene, start

STREET = SceneState(
    combatants=(),
    zones=("alley", "yard", "roof"),
    links=(("alley", "yard", 1), ("yard", "roof", 1)),
    zone_costs=(("roof", 3), ("yard", 2)),
)


def test_difficult_terrain_adds_the_zone_cost_above_one() -> None:
    """Zones, "Difficult terrain": a step into a zone of cost 3 costs 1 + (3 − 1) = 3, into a
    zone of cost 2 costs 2, back into a plain zone 1; neither is a clear way."""
    assert step(STREET, "yard", "roof", clear=False) == 3
    assert step(STREET, "alley", "yard", clear=False) == 2
    assert step(STREET, "yard", "alley", clear=False) == 1
    assert step(STREET, "yard", "alley", clear=True) == 1
    for here, there in (("yard", "roof"), ("alley", "yard")):
        with pytest.raises(RuleError, match="no clear way"):
            step(STREET, here, there, clear=True)


def test_a_supplemental_move_needs_a_clear_way() -> None:
    """Zones, "Difficult terrain": a supplemental move of one zone is a move, and needs a clear
    way — into zone c (cost 2) it is refused, "Sprint" instead; into a plain zone it is taken."""
    setup = scene(
        kit={"side": "s", "zone": "b", "skills": {"Agility": 1}},
        bob={"side": "m", "zone": "d", "skills": {"Agility": 1}},
    )
    table = start(setup, 6, 6, 1, 1)
    for params in ({"move_to": "c"}, {"move_to": "c", "past": "Agility"}):
        with pytest.raises(RuleError, match="Zones: no clear way from 'b' to 'c': Sprint"):
            act(
                table,
                "kit",
                "manoeuvre",
                [4, 3],
                aspect="Ready",
                scene=True,
                skill="Agility",
                **params,
            )
    moved = act(
        table, "kit", "manoeuvre", [4, 3], aspect="Ready", scene=True, skill="Agility", move_to="a"
    )
    assert moved.state.get("kit").zone == "a"


def test_a_zone_with_no_way_out_is_no_distance_from_anywhere_else() -> None:
    """Zones: a zone no link reaches is at no distance (``None``) from the others, and 0 from
    itself."""
    links = [("a", "b")]
    assert rules.zone_distance(links, "cellar", "a") is None
    assert rules.zone_distance(links, "cellar", "cellar") == 0
    assert rules.zone_distance(links, "b", "a") == 1


def test_a_sprint_goes_four_zones_and_either_way_along_a_link() -> None:
    """Action: Sprint: "The maximum distance in actual Zones that can moved in a Turn is 4" — four
    zones are a Sprint, five are not; a link is crossed either way."""
    links = {("a", "b"): 1, ("b", "c"): 1, ("c", "d"): 1, ("d", "e"): 1, ("e", "f"): 1}
    assert rules.sprint_route(["b", "c", "d", "e"], "a", 9, links, {}) == ("b", "c", "d", "e")
    assert rules.sprint_route(["d", "c", "b", "a"], "e", 9, links, {}) == ("d", "c", "b", "a")
    assert rules.sprint_route(["a"], "b", 1, {("a", "b"): 1}, {}) == ("a",)
    with pytest.raises(RuleError, match="at most 4 zones, not 5"):
        rules.sprint_route(["b", "c", "d", "e", "f"], "a", 9, links, {})


@pytest.mark.parametrize(
    ("fields", "where"),
    [
        ({"links": [["a", "b", True]]}, r"links\.0: a barrier's cost is a whole number"),
        ({"links": [["a", "b", 2.0]]}, r"links\.0: a barrier's cost is a whole number"),
        ({"costs": {"a": True}}, r"costs\.a: a zone's cost is a whole number"),
        ({"characters": {"moll": {"pool": True}}}, r"characters\.moll\.pool: the pool is a whole"),
        ({"characters": {"moll": {"pool": 3.0}}}, r"characters\.moll\.pool: the pool is a whole"),
        ({"characters": {"moll": {"pool": "3"}}}, r"characters\.moll\.pool: the pool is a whole"),
    ],
)
def test_a_cost_or_a_pool_is_a_whole_number_not_true_or_a_float(
    fields: dict[str, Any], where: str
) -> None:
    """Difficult terrain (a cost of 2, 3, 4, &c) and The Free Experience Pool (points): whole
    numbers; ``true`` and ``2.0`` are refused with the field's path."""
    with pytest.raises(ScenarioError, match=where):
        Table.start(PROCEDURE, _setup(**fields))


def test_a_cost_of_one_is_a_clear_way() -> None:
    """Difficult terrain: a barrier or a zone may be given the plain cost of 1."""
    table = Table.start(PROCEDURE, _setup(links=[["a", "b", 1]], costs={"b": 1}))
    assert (table.state.links, table.state.zone_costs) == ((("a", "b", 1),), (("b", 1),))


def test_a_sprint_menu_offers_the_forty_shortest_paths_and_none_from_a_lone_zone() -> None:
    """Action: Sprint: kit stands in s, linked to seven zones that are all linked to each
    other: 7 paths of one zone and 42 of two. The menu offers the 40 shortest, in order (all
    seven single zones, then the pairs from h1 on). bob, in a zone linked to nothing, may
    neither step nor sprint nor hold a doorway; no one is in reach or in sight of him."""
    hub = ["h1", "h2", "h3", "h4", "h5", "h6", "h7"]
    links = [["s", h] for h in hub] + [[a, b] for i, a in enumerate(hub) for b in hub[i + 1 :]]
    setup = {
        "zones": ["s", *hub, "lone"],
        "links": links,
        "characters": {
            "kit": {"side": "s", "zone": "s", "skills": {"Agility": 1}},
            "bob": {"side": "m", "zone": "lone"},
        },
    }
    table = start(setup, 6, 6, 1, 1)
    (sprint,) = [params for kind, _, params in _menu(table, "kit") if kind == "sprint"]
    pairs = [[a, b] for a in hub for b in hub if a != b]
    assert sprint["path"]["one_of"] == [[h] for h in hub] + pairs[:33]
    table = act(table, "kit", "full_defence")
    assert [kind for kind, _, _ in _menu(table, "bob")] == [
        "manoeuvre",
        "block",
        "throw_grenade",
        "wait",
        "full_defence",
        "something_else",
    ]

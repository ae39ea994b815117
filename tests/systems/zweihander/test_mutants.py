"""Tests that kill the mutants mutmut left alive (issue 13, docs/systems/zweihander.md,
"Mutation testing"): each asserts an outcome of the house rules text.
"""

from __future__ import annotations

import pytest

from referee.core import DAY, Action, RuleError, ScenarioError
from referee.core.cards import odds_of as card_odds
from referee.core.table import preview
from referee.systems.zweihander.overland import Route, miles_per_day, transport_row
from referee.systems.zweihander.percentile import SkillTest
from referee.systems.zweihander.reputation import can_requisition

from .helpers import act, last
from .helpers import table as social_table
from .test_odds_of import exchange, table
from .test_social import CHARS


def test_a_requisition_waits_from_the_last_one_not_from_the_start() -> None:
    """Reputation, Requisition: a minor requisition once a day, counted from the last one (on
    day 5, the next on day 6, not before)."""
    last = 5 * DAY
    assert not can_requisition("minor", last=last, now=last + DAY - 1)
    assert can_requisition("minor", last=last, now=last + DAY)
    assert not can_requisition("middling", last=last, now=last + 7 * DAY - 1)


def test_a_transport_named_alone_finds_its_row() -> None:
    """Distance table: "dwarf, halfling, gnome (on foot)" — a gnome walks 10 miles a day by
    road; a row may be named whole, in any case."""
    assert transport_row("gnome").road == 10
    assert transport_row("Ogre").road == 15
    assert transport_row("Chariot, Wagon").path == 8


def test_currents_on_sea_and_no_forced_march_on_water() -> None:
    """Waterways: a current or good winds apply on river or sea (+5 at sea: 35); a forced
    march is made on road or path, never on river or sea."""
    assert miles_per_day("longship", "sea", current=5) == 35
    assert miles_per_day("longship", "river", current=-5) == 10
    for route in ("river", "sea"):
        with pytest.raises(RuleError, match="Forced march"):
            miles_per_day("longship", route, forced_march=True)
    assert miles_per_day("horse", "road", forced_march=True) == 50


def test_a_route_from_a_file_defaults_to_a_human_walking_by_road() -> None:
    """Overland exploration: a leg names its distance; transport, route and flags default to
    a human on foot, by road, no forced march, fair weather (15 miles a day)."""
    route = Route.from_data({"legs": [{"distance": 30}, {"distance": 0}]})
    first = route.legs[0]
    assert (first.transport, first.route, first.forced_march, first.bad_weather) == (
        "human",
        "road",
        False,
        False,
    )
    assert (first.days, route.legs[1].days) == (2, 0)


@pytest.mark.parametrize(
    "data",
    [
        [{"distance": 30}],
        {"legs": []},
        {"legs": [{"distance": "thirty"}]},
        {"legs": [{"distance": 30, "bad_weather": "yes"}]},
        {"legs": [{"distance": 30, "forced_march": 1}]},
    ],
    ids=["not-a-mapping", "no-legs", "distance-not-a-number", "weather-not-a-flag", "march-int"],
)
def test_a_bad_route_is_refused_by_name(data: object) -> None:
    """A route file's errors are ScenarioErrors naming the field, never a traceback."""
    with pytest.raises(ScenarioError):
        Route.from_data(data)


def test_the_gm_previews_an_unfavourable_tactic_with_its_bump() -> None:
    """Social Tactics: the GM's Unfavourable Skill turns the Test's failures critical; the GM's
    preview shows the odds as they will be read and names the bump; a player's does not."""
    t = exchange("Guile", "Charm")
    gm = preview(t, "referee", Action("anna", "exchange.tactic", {"tactic": "Charm"}))
    assert [(p.label, p.rule) for p in gm] == [
        ("anna uses Charm (your Unfavourable Skill)", "Complex Exchange")
    ]
    assert dict(gm[0].odds) == card_odds(SkillTest(50, 20, unfavourable=True).odds())
    theirs = preview(t, "alice", Action("anna", "exchange.tactic", {"tactic": "Charm"}))
    assert [(p.label, p.rule) for p in theirs] == [("anna uses Charm", "Complex Exchange")]
    fav = preview(
        exchange("Charm", "Guile"),
        "referee",
        Action("anna", "exchange.tactic", {"tactic": "Charm"}),
    )
    assert fav[0].label == "anna uses Charm (your Favourable Skill)"


def test_a_simple_exchange_and_a_skill_test_preview_name_their_rule() -> None:
    """Simple Exchange and Skill Tests: the preview names the roller, the Skill and the rule."""
    t = table()
    simple = preview(
        t, "alice", Action("anna", "social.simple", {"skill": "Charm", "npc_alignment": "order"})
    )
    assert [(p.label, p.rule) for p in simple] == [("anna tests Charm", "Simple Exchange")]
    chance = preview(t, "alice", Action("anna", "test", {"chance": 40}))
    assert [(p.label, p.rule) for p in chance] == [("anna tests a chance", "Skill Test")]


def test_a_simple_exchange_records_who_tested_which_skill() -> None:
    """Simple Exchange: one Test of the Skill; its event names the character and the Skill, and
    its roll card the rule."""
    t = act(
        social_table(CHARS),
        "anna",
        "social.simple",
        [40],
        skill="Charm",
        npc_alignment="order",
        npc_class="burgher",
    )
    data = last(t, "social.simple_exchange")
    assert (data["character"], data["test"]["skill"], data["test"]["outcome"]) == (
        "anna",
        "Charm",
        "success",
    )
    card = data["roll"]
    assert (card["label"], card["rule"]) == (
        "anna tests Charm (Simple Exchange)",
        "Simple Exchange",
    )

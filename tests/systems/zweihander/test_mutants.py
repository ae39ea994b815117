"""Tests that kill the mutants mutmut left alive (issue 13, docs/systems/zweihander.md,
"Mutation testing"): each asserts an outcome of the house rules text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from referee.core import DAY, Action, RuleError, ScenarioError, Table
from referee.core.cards import odds_of as card_odds
from referee.core.table import preview
from referee.dice import RandomSource, ScriptedSource
from referee.systems.zweihander import SYSTEM
from referee.systems.zweihander.chase import play_out
from referee.systems.zweihander.events import (
    CHASE_CAUGHT_UP,
    CHASE_ENDED,
    CHASE_ROUND_ENDED,
    CHASE_TAKEDOWN,
    JOURNEY_CAMP,
    JOURNEY_ENDED,
    JOURNEY_ROLE_CHECK,
    JOURNEY_STRETCH_ENDED,
)
from referee.systems.zweihander.overland import Route, miles_per_day, transport_row
from referee.systems.zweihander.percentile import SkillTest
from referee.systems.zweihander.reputation import can_requisition
from referee.systems.zweihander.state import ZweihanderState
from referee.systems.zweihander.wilderness import travel_on

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


# -- the GM's default play of a chase and a journey (issue 13, round 2) -------------------------

CLI_FILES = Path(__file__).parents[3] / "examples" / "zweihander" / "cli"


def _chase(seed: int, escape_condition: int = 9) -> Table[ZweihanderState]:
    setup = yaml.safe_load((CLI_FILES / "chase.yaml").read_text(encoding="utf-8"))
    table = SYSTEM.new_table(setup)
    start: dict[str, Any] = {
        "escapees": ["cutpurse"],
        "pursuers": ["watchman", "hound"],
        "escape_condition": escape_condition,
    }
    return table.act(Action("referee", "chase.start", start), RandomSource(seed))


@pytest.mark.parametrize("seed", [1, 5, 9, 12])
def test_a_chase_played_out_ends_and_every_pursuer_who_catches_up_attempts_a_takedown(
    seed: int,
) -> None:
    """Chases ("Takedown": a Pursuer who catches up with an Escapee may attempt one): played
    out as the GM would by default, every catch-up is followed by that Pursuer's Takedown,
    the chase ends, and nothing is played after its end."""
    done = play_out(_chase(seed), RandomSource(seed))
    assert done.state.chase is not None and done.state.chase.ended is not None
    kinds = [e.kind for e in done.log.events]
    caught = [i for i, k in enumerate(kinds) if k == CHASE_CAUGHT_UP]
    assert caught, "each of these seeds has a pursuer catch up"
    for i in caught:
        who = done.log.events[i].data["participant"]
        takedown = next(e for e in done.log.events[i:] if e.kind == CHASE_TAKEDOWN)
        assert takedown.data["participant"] == who
    assert kinds.count(CHASE_TAKEDOWN) == len(caught)
    assert kinds[-1] == CHASE_ENDED


def test_a_chase_played_out_stops_at_its_escape_condition() -> None:
    """Chases, the Escape Condition: "3, 6 or 9 Rounds have passed" — a chase set to end after
    3 Rounds is played out to no more than 3."""
    done = play_out(_chase(15, escape_condition=3), RandomSource(15))
    kinds = [e.kind for e in done.log.events]
    assert kinds.count(CHASE_ROUND_ENDED) <= 3 and kinds[-1] == CHASE_ENDED


def _journey() -> Table[ZweihanderState]:
    setup = yaml.safe_load((CLI_FILES / "route.yaml").read_text(encoding="utf-8"))
    return SYSTEM.new_table(setup)


def test_a_journey_travelled_on_by_default_makes_no_camp_and_awards_no_fortune() -> None:
    """Wilderness travel: Strike Camp and the Fortune Points at journey's end are the GM's to
    give; travelled on by default, each Stretch gets its Roles and Toughness Tests, no camp, and
    the journey ends with no Fortune awarded — the same journey, with the same dice, each time."""
    done = travel_on(_journey(), RandomSource(3))
    kinds = [e.kind for e in done.log.events]
    assert kinds.count(JOURNEY_STRETCH_ENDED) == 2 and JOURNEY_CAMP not in kinds
    roles = {e.data["role"]: e.data["character"] for e in done.log if e.kind == JOURNEY_ROLE_CHECK}
    assert roles == {"Guide": "anna", "Survivalist": "bert", "Scout": "cora"}  # each by Skill
    assert kinds[-1] == JOURNEY_ENDED and done.log.events[-1].data["fortune_points"] == 0
    assert travel_on(_journey(), RandomSource(3)).log.events == done.log.events
    with pytest.raises(RuleError, match="no journey is under way"):
        travel_on(done, RandomSource(3))


def test_a_journey_travelled_on_at_a_seated_table_is_the_referees_doing() -> None:
    """The table record: at a table with seats, every step of the GM's default play is taken
    from the referee's seat and recorded as his."""
    setup = yaml.safe_load((CLI_FILES / "route.yaml").read_text(encoding="utf-8"))
    table = SYSTEM.new_table(setup, players={"pat": ["anna"]})
    done = travel_on(table, RandomSource(3), camp=True)
    taken = list(done.actions)[len(table.actions) :]
    assert taken and {(a.seat, a.actor) for a in taken} == {("referee", "referee")}
    assert [e.kind for e in done.log.events].count(JOURNEY_CAMP) == 2


def _faces(table: Table[ZweihanderState]) -> set[int]:
    found: set[int] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in ("faces", "peril_faces") and isinstance(item, list):
                    found.update(int(f) for f in item)
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for event in table.log.events:
        walk(dict(event.data))
    return found


def test_the_gms_default_play_rolls_the_dice_it_is_given() -> None:
    """The table record: a chase played out and a journey travelled on roll the dice they are
    handed, every step of the way (here every die shows 5)."""
    fives = ScriptedSource([5] * 2000)
    journey = travel_on(_journey(), fives, camp=True)
    assert _faces(journey) == {5}
    chase = play_out(_chase(1), ScriptedSource([5] * 2000))
    assert _faces(chase) <= {5} | _faces(_chase(1))


def test_a_chase_played_out_at_a_seated_table_is_the_referees_doing() -> None:
    """The table record: the GM's default play of a chase is taken from the referee's seat
    when the table has seats; with no chase under way there is nothing to play out."""
    setup = yaml.safe_load((CLI_FILES / "chase.yaml").read_text(encoding="utf-8"))
    table = SYSTEM.new_table(setup, players={"pat": ["cutpurse"]})
    with pytest.raises(RuleError, match="no chase is under way"):
        play_out(table, RandomSource(1))
    start = {"escapees": ["cutpurse"], "pursuers": ["watchman", "hound"]}
    table = table.act(Action("referee", "chase.start", start), RandomSource(5), seat="referee")
    done = play_out(table, RandomSource(5))
    taken = list(done.actions)[len(table.actions) :]
    assert taken and {a.seat for a in taken} == {"referee"}
    assert {a.kind for a in taken} >= {"chase.move", "chase.end_round"}

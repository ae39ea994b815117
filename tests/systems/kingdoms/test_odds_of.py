"""``odds_of``: the odds a faction's form shows as its fields change are the odds of the very
pools the rules roll with those parameters (docs/kernel.md, "One read path: observe").

Each case compares the preview with the rules' own checks (:mod:`referee.systems.kingdoms.dice`),
shows that other parameters give other odds, that an action the rules would refuse has none,
and that nothing sealed is read: a slip's odds are its own faction's pool alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from referee.core import Action, OddsPreview, Table, preview
from referee.core.cards import odds_of
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.dice import (
    BLACK,
    BurningPool,
    BurningTest,
    success_distribution,
    versus_odds,
)

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "kingdoms"
EXAMPLE = yaml.safe_load((EXAMPLES / "artha-and-the-tie-breaker.yaml").read_text("utf-8"))


def _table() -> Table[Any]:
    return Table.start(PROCEDURE, EXAMPLE["setup"], players=EXAMPLE["players"])


def _slip(table: Table[Any], **params: Any) -> tuple[Any, ...]:
    return preview(table, "ann", Action("elves", "write_slip", params))


def _by_label(previews: tuple[Any, ...]) -> dict[str, dict[str, str]]:
    assert all(isinstance(p, OddsPreview) for p in previews)
    return {p.label: dict(p.odds) for p in previews}


def test_a_slips_odds_are_its_own_pool_against_the_maneuvers_stated_ob() -> None:
    table = _table()
    fortify = _by_label(_slip(table, maneuver="Fortify", skill="Logistics"))
    # Logistics B4 against Fortify's Ob 2, if nobody attacks
    assert fortify["elves: Fortify with Logistics, if nobody attacks"] == odds_of(
        BurningTest(BurningPool(4), 2).odds()
    )
    # and each number of successes the four dice may show
    spread = {
        f"{k} success{'' if k == 1 else 'es'}": str(p)
        for k, p in success_distribution(4, BLACK, False).items()
    }
    assert fortify["elves: Fortify with Logistics"] == spread
    # a point of Persona is a die more: other odds
    persona = _by_label(_slip(table, maneuver="Fortify", skill="Logistics", persona=1))
    assert persona["elves: Fortify with Logistics, if nobody attacks"] == odds_of(
        BurningTest(BurningPool(5), 2).odds()
    )
    assert persona != fortify


def test_a_versus_slips_odds_never_read_the_other_factions_slip() -> None:
    table = _table()
    before = _by_label(preview(table, "bob", Action("orcs", "write_slip", _infiltrate())))
    sealed = table.act(
        Action("elves", "write_slip", {"maneuver": "Fortify", "skill": "Logistics"}),
        ScriptedSource([]),
    )
    after = _by_label(preview(sealed, "bob", Action("orcs", "write_slip", _infiltrate())))
    # the orcs' odds are their own five dice's successes, whatever the elves sealed
    assert before == after
    assert list(after.values()) == [
        {
            f"{k} success{'' if k == 1 else 'es'}": str(p)
            for k, p in success_distribution(5, BLACK, False).items()
        }
    ]


def _infiltrate() -> dict[str, Any]:
    return {"maneuver": "Infiltrate", "skill": "Inconspicuous", "target": "elves"}


def test_a_refused_slip_has_no_odds() -> None:
    table = _table()
    assert _slip(table, maneuver="Fortify", skill="Sorcery") == ()  # not the leader's skill
    assert _slip(table, maneuver="Assess", skill="Logistics", target="elves") == ()  # itself
    assert _slip(table, maneuver="Fortify", skill="Logistics", persona=3) == ()  # 1 Persona left
    assert _slip(table, maneuver="Onslaught", skill="Logistics", target="orcs") == ()


def test_a_tie_breakers_odds_are_the_two_root_stats_once_both_agree() -> None:
    source = ScriptedSource(EXAMPLE["dice"]["script"])
    table = _table()
    for step in EXAMPLE["actions"][:8]:  # up to the orcs' offer of a tie-breaker on Will
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), source)
    offer = Action("elves", "tie_break", {"opponent": "orcs", "root": "Will"})
    shown = preview(table, "ann", offer)
    # the elves' Will B4 against the orcs' Will B3: as the tie-breaker's event records it
    assert _by_label(shown) == {
        "elves: tie-breaker on Will against orcs' Will": {
            "success": str(versus_odds(BurningPool(4), BurningPool(3))),
            "failure": str(1 - versus_odds(BurningPool(4), BurningPool(3))),
        }
    }
    rolled = table.act(offer, source)
    recorded = [e for e in rolled.log.events if e.kind == "tie_break.rolled"][-1]
    assert recorded.payload["odds"]["elves"] == shown[0].odds["success"]
    # before the opponent agrees nothing is rolled: no odds; nor for a tie that is not there
    first = _table()
    source = ScriptedSource(EXAMPLE["dice"]["script"])
    for step in EXAMPLE["actions"][:7]:
        first = first.act(Action(step["actor"], step["action"], step.get("params", {})), source)
    assert (
        preview(first, "bob", Action("orcs", "tie_break", {"opponent": "elves", "root": "Will"}))
        == ()
    )


def test_a_building_scenes_odds_follow_its_skill_and_ob() -> None:
    source = ScriptedSource([])
    table = _table()
    for step in EXAMPLE["actions"][:2]:  # both slips sealed: the scenes may begin
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), source)

    def building(**params: Any) -> tuple[Any, ...]:
        return preview(table, "ann", Action("elves", "scene", {"kind": "building", **params}))

    ob1 = building(skill="Logistics", ob=1)
    ob3 = building(skill="Logistics", ob=3)
    assert [dict(p.odds) for p in ob1] == [odds_of(BurningTest(BurningPool(4), 1).odds())]
    assert [dict(p.odds) for p in ob3] == [odds_of(BurningTest(BurningPool(4), 3).odds())]
    assert building(skill="Will", ob=1)[0].odds == odds_of(BurningTest(BurningPool(4), 1).odds())
    assert building(skill="Sorcery", ob=1) == ()  # no such skill or stat

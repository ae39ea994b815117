"""``odds_of``: the odds a faction's form shows as its fields change are the odds of the very
pools the rules roll with those parameters (docs/kernel.md, "One read path: observe").

Each case compares the preview with the rules' own checks (:mod:`referee.systems.kingdoms.dice`),
shows that other parameters give other odds, that an action the rules would refuse has none,
and that nothing sealed is read: a slip's odds are its own faction's pool alone.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from referee.core import Action, OddsPreview, Table, observe, preview
from referee.core.cards import odds_of
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.dice import (
    BLACK,
    Artha,
    BurningPool,
    BurningTest,
    after_distribution,
    roll_before,
    spend_after,
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
    # before the opponent agrees, the offer shows its odds against each root stat the
    # opponent may choose (the orcs' Will B3 against the elves' Will B4): what will be rolled
    first = _table()
    source = ScriptedSource(EXAMPLE["dice"]["script"])
    for step in EXAMPLE["actions"][:7]:
        first = first.act(Action(step["actor"], step["action"], step.get("params", {})), source)
    orcs = Action("orcs", "tie_break", {"opponent": "elves", "root": "Will"})
    assert _by_label(preview(first, "bob", orcs)) == {
        "orcs: tie-breaker on Will against elves's Will, if elves agree on Will": {
            "success": str(versus_odds(BurningPool(3), BurningPool(4))),
            "failure": str(1 - versus_odds(BurningPool(3), BurningPool(4))),
        }
    }
    # and the odds ride on the choice offered to both factions, before either sends it
    for seat, actor in (("ann", "elves"), ("bob", "orcs")):
        offered = [c for c in observe(first, seat).choices if c.kind == "tie_break"]
        assert [c.actor for c in offered] == [actor]
        params = {k: d.values[0] for k, d in offered[0].params.items()}
        assert preview(first, seat, Action(actor, "tie_break", params))
    # nor any odds for a tie that is not there
    assert preview(_table(), "bob", orcs) == ()


def _rolled(upto: int) -> Table[Any]:
    source = ScriptedSource(EXAMPLE["dice"]["script"])
    table = _table()
    for step in EXAMPLE["actions"][:upto]:
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), source)
    return table


def test_spending_fate_shows_the_odds_the_artha_card_records() -> None:
    """After the reveal the elves rolled 2 successes on 6, 4, 1, 1, 1: keeping shows the roll
    as it stands, Fate the chance of each count once its 6 is open-ended — the odds the card
    of ``spend_artha`` records when the Fate is spent (its outcomes of 0.1% or more)."""
    table = _rolled(6)
    offered = {c.label or c.kind for c in observe(table, "ann").choices}
    assert offered >= {"spend Fate", "keep"}
    kept = preview(table, "ann", Action("elves", "keep", {}))
    assert [dict(p.odds) for p in kept] == [{"2 successes": "1"}]
    fate = preview(table, "ann", Action("elves", "spend_artha", {"fate": True, "deeds": False}))
    assert fate == preview(table, "ann", Action("elves", "spend_artha", {"fate": True}))
    assert preview(table, "ann", Action("elves", "spend_artha", {"deeds": True})) == ()  # none
    shown = dict(fate[0].odds)
    spent = table.act(Action("elves", "spend_artha", {"fate": True}), ScriptedSource([6, 5]))
    card = [e for e in spent.log.events if e.kind == "artha.spent"][-1].payload["roll"]
    recorded = {k: Fraction(v) for k, v in card["odds"].items()}
    rows = list(shown)
    for row in rows[:-1]:  # every row but the last is one count, exactly as recorded
        assert Fraction(shown[row]) == recorded[row.split()[0]]
    top = int(rows[-1].split("+")[0])  # the last: that many or more, the rest of the chance
    assert rows[-1] == f"{top}+ successes"
    assert Fraction(shown[rows[-1]]) == sum(p for k, p in recorded.items() if int(k) >= top)
    assert sum(p for k, p in recorded.items() if int(k) > top) < Fraction(1, 1000)
    assert len(rows) < 6 < len(recorded)  # not a row for each of 60 counts
    assert sum(Fraction(v) for v in shown.values()) == 1


def test_after_the_roll_artha_odds_equal_the_rolls_spend_after_makes() -> None:
    """Every face sequence ``spend_after`` may draw for Fate, Deeds, and both (closed and
    open-ended rolls), enumerated: the odds shown are those of the rule's own steps."""
    cases = [
        (
            roll_before(3, BLACK, False, ScriptedSource([6, 3, 1])),
            Artha(fate=True, deeds_after=True),
        ),
        (
            roll_before(3, BLACK, False, ScriptedSource([6, 6, 2])),
            Artha(fate=True, deeds_after=True),
        ),
        (roll_before(2, BLACK, False, ScriptedSource([6, 2])), Artha(fate=True)),
        (roll_before(3, BLACK, False, ScriptedSource([5, 2, 1])), Artha(deeds_after=True)),
        (
            roll_before(2, BLACK, True, ScriptedSource([6, 4, 2])),
            Artha(fate=True, deeds_after=True),
        ),
    ]
    for rolled, artha in cases:
        exact = after_distribution(rolled, artha, cap=6)
        enumerated, lost = _enumerate(rolled, artha, depth=7)
        for k, p in enumerated.items():  # below the cap, the enumeration misses only long runs
            if k - rolled.successes < 6:
                assert p <= exact[k] <= p + lost, (artha, k)
        assert sum(exact.values()) == 1


def _enumerate(rolled: Any, artha: Artha, depth: int) -> tuple[dict[int, Fraction], Fraction]:
    """The chance of each count ``spend_after`` ends with, over every face sequence of at most
    ``depth`` dice; and the chance of the longer sequences left out."""
    out: dict[int, Fraction] = {}
    lost = Fraction(0)
    todo: list[tuple[int, ...]] = [()]
    while todo:
        faces = todo.pop()
        try:
            done = spend_after(rolled, artha, ScriptedSource(list(faces)))
        except Exception:  # the script ran out: one die more
            if len(faces) == depth:
                lost += Fraction(1, 6 ** len(faces))
                continue
            todo.extend((*faces, f) for f in range(1, 7))
            continue
        out[done.successes] = out.get(done.successes, Fraction(0)) + Fraction(1, 6 ** len(faces))
    return out, lost


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

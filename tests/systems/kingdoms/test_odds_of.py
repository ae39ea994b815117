"""``odds_of``: the odds a faction's form shows as its fields change are the odds of the very
pools the rules roll with those parameters (docs/kernel.md, "One read path: observe").

Each case compares the preview with the rules' own checks (:mod:`referee.systems.kingdoms.dice`),
shows that other parameters give other odds, that an action the rules would refuse has none,
and that nothing sealed is read: a slip's odds are its own faction's pool alone.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from referee.core import Action, OddsPreview, RuleError, Table, observe, preview
from referee.core.cards import odds_of
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.dice import (
    BLACK,
    Artha,
    BurningPool,
    BurningTest,
    BurningVersus,
    Shade,
    after_distribution,
    roll_before,
    spend_after,
    success_distribution,
    versus_odds,
)
from referee.systems.kingdoms.scripting import pool_roll_from

from .helpers import PLAYERS, _kingdom, _odds
from .test_artha import _after_the_roll

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
    assert fortify["the Elves' Fortify with Logistics, if nobody attacks"] == odds_of(
        BurningTest(BurningPool(4), 2).odds()
    )
    # and each number of successes the four dice may show
    spread = {
        f"{k} success{'' if k == 1 else 'es'}": str(p)
        for k, p in success_distribution(4, BLACK, False).items()
    }
    assert fortify["the Elves' Fortify with Logistics"] == spread
    # a point of Persona is a die more: other odds
    persona = _by_label(_slip(table, maneuver="Fortify", skill="Logistics", persona=1))
    assert persona["the Elves' Fortify with Logistics, if nobody attacks"] == odds_of(
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
    offer = Action("elves", "tie_break", {"opponent": "orcs", "root": "Perception"})
    shown = preview(table, "ann", offer)
    # the elves' Perception B4 (the root of their Logistics) against the orcs' Will B3 (of
    # their Inconspicuous): as the tie-breaker's event records it
    assert _by_label(shown) == {
        "the Elves: tie-breaker on Perception against the Orcs' Will": {
            "success": str(versus_odds(BurningPool(4), BurningPool(3))),
            "failure": str(1 - versus_odds(BurningPool(4), BurningPool(3))),
        }
    }
    rolled = table.act(offer, source)
    recorded = [e for e in rolled.log.events if e.kind == "tie_break.rolled"][-1]
    assert recorded.payload["odds"]["elves"] == shown[0].odds["success"]
    # before the opponent agrees, the offer shows its odds against each root stat the
    # opponent may choose (the orcs' Will B3 against the elves' Perception B4): what will be
    # rolled
    first = _table()
    source = ScriptedSource(EXAMPLE["dice"]["script"])
    for step in EXAMPLE["actions"][:7]:
        first = first.act(Action(step["actor"], step["action"], step.get("params", {})), source)
    orcs = Action("orcs", "tie_break", {"opponent": "elves", "root": "Will"})
    assert _by_label(preview(first, "bob", orcs)) == {
        "the Orcs: tie-breaker on Will against the Elves' Perception, "
        "if the Elves agree on Perception": {
            "success": str(versus_odds(BurningPool(3), BurningPool(4))),
            "failure": str(1 - versus_odds(BurningPool(3), BurningPool(4))),
        }
    }
    # and the odds ride on the choice offered to both factions, before either sends it
    for seat, actor in (("ann", "elves"), ("bob", "orcs")):
        offered = [c for c in observe(first, seat).choices if c.kind == "tie_break"]
        assert [c.actor for c in offered] == [actor]
        params = {k: d.values[0] for k, d in offered[0].params.items()}
        shown = preview(first, seat, Action(actor, "tie_break", params))
        assert shown and offered[0].odds == shown  # on the form before it is touched
    # nor any odds for a tie that is not there
    assert preview(_table(), "bob", orcs) == ()


def _rolled(upto: int, setup: Mapping[str, Any] | None = None) -> Table[Any]:
    source = ScriptedSource(EXAMPLE["dice"]["script"])
    table = _table() if setup is None else Table.start(PROCEDURE, setup, players=EXAMPLE["players"])
    for step in EXAMPLE["actions"][:upto]:
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), source)
    return table


def test_spending_fate_shows_the_odds_the_artha_card_records() -> None:
    """After the reveal the elves rolled 2 successes on 6, 4, 1, 1, 1: keeping shows the roll
    as it stands, Fate the chance of each count once its 6 is open-ended — the odds the card
    of ``spend_artha`` records when the Fate is spent (its outcomes of 0.1% or more)."""
    table = _rolled(6)
    offered = {c.label or c.kind for c in observe(table, "ann").choices}
    assert offered >= {"spend Fate", "keep the roll"}
    kept = preview(table, "ann", Action("elves", "keep", {}))
    assert [dict(p.odds) for p in kept][-1] == {"2 successes": "1"}
    fate = preview(table, "ann", Action("elves", "spend_artha", {"fate": True, "deeds": False}))
    assert fate == preview(table, "ann", Action("elves", "spend_artha", {"fate": True}))
    assert preview(table, "ann", Action("elves", "spend_artha", {"deeds": True})) == ()  # none
    shown = dict(fate[-1].odds)
    spent = table.act(Action("elves", "spend_artha", {"fate": True}), ScriptedSource([6, 5]))
    card = [e for e in spent.log.events if e.kind == "artha.spent"][-1].payload["roll"]
    rows = list(shown)
    # the card records the very rows shown: one per count, the last "that many or more"
    assert {row.split()[0]: chance for row, chance in shown.items()} == card["odds"]
    assert rows[-1].endswith("+ successes")
    assert len(rows) < 6  # not a row for each of 60 counts
    assert sum(Fraction(v) for v in shown.values()) == 1


@pytest.mark.slow
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


def _counts(odds: Mapping[str, str]) -> list[tuple[int, Fraction]]:
    """A preview's or a roll card's odds as (successes, chance): "3+ successes" and "3+" are 3."""
    return [(int(k.split()[0].rstrip("+")), Fraction(p)) for k, p in odds.items()]


def _revealed(table: Table[Any], slip: dict[str, Any]) -> Table[Any]:
    """The elves seal ``slip``, the orcs a Fortify; both pass; the elves read the slips. Every
    die shows 3 (no 6 rolls again)."""
    source = ScriptedSource([3] * 60)
    table = table.act(Action("elves", "write_slip", slip), source)
    table = table.act(
        Action("orcs", "write_slip", {"maneuver": "Fortify", "skill": "Logistics"}), source
    )
    for f in ("elves", "orcs"):
        table = table.act(Action(f, "pass", {}), source)
    return table.act(Action("elves", "reveal", {}), source)


def _check_against_the_roll(
    table: Table[Any], slip: dict[str, Any]
) -> tuple[tuple[OddsPreview, ...], Table[Any]]:
    """The previews of ``slip``, and each "successes" preview checked against the roll card the
    reveal then makes of the same dice (label, rule, dice, the chance of each count)."""
    shown = preview(table, "ann", Action("elves", "write_slip", slip))
    after = _revealed(table, slip)
    rolled: Any = next(
        e.payload
        for e in after.log.events
        if e.kind == "test.rolled" and e.payload["faction"] == "elves"
    )
    cards = rolled["rolls"] if "rolls" in rolled else [rolled["roll"]]
    counts = [p for p in shown if p.rule == "Maneuver Resolution"]
    assert [p.label for p in counts] == [c["label"] for c in cards]
    assert [_counts(p.odds) for p in counts] == [_counts(c["odds"]) for c in cards]
    for p, c in zip(counts, cards, strict=True):
        assert p.dice.split()[0] == c["dice"].split()[0]  # "4d6"
        assert ("open-ended" in p.dice) == ("open-ended" in c["dice"])
    return shown, after


def test_a_slips_preview_counts_the_dice_the_reveal_rolls() -> None:
    """Conquest Maneuvers; Sap ("-1D"); Infiltrate ("+D advantage"); wounds; Persona (+1D
    before the roll). Observation G3, +1 Persona, +2D of advantage on the Infiltrated orcs,
    -1D Sapped, -1D of wounds: 4 grey dice, the very dice the reveal rolls; an Assess is
    independent against a Fortify: Ob 2, +1 for the Superficial wound = Ob 3, the chance the
    reveal records (4 grey dice, 3 or more successes: 4·(2/3)³(1/3) + (2/3)⁴ = 16/27)."""
    setup = _kingdom(
        {"sapped": 1, "infiltrated": {"orcs": 2}},
        skills={"Logistics": "B4", "Observation": "G3"},
        wound_dice=1,
        superficial=True,
    )
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    slip = {"maneuver": "Assess", "skill": "Observation", "target": "orcs", "persona": 1}
    shown, after = _check_against_the_roll(table, slip)
    independent, counts = shown
    assert (independent.label, independent.rule, independent.dice) == (
        "the Elves' Assess with Observation, if independent",
        "Assess",
        "4d6 grey vs Ob 3",
    )
    assert dict(independent.odds) == {"failure": "11/27", "success": "16/27"}
    assert (counts.label, counts.dice) == ("the Elves' Assess with Observation", "4d6 G")
    revealed: Any = next(e for e in after.log.events if e.kind == "slips.revealed").payload
    row = next(r for r in revealed["odds"] if r["attacker"] == "elves")
    assert (row["kind"], row["needed"], row["chance"]["no artha"]) == ("independent", 3, "16/27")


def test_a_fortify_preview_with_a_fork_by_an_unwounded_leader() -> None:
    """Fortify: "In an independent test when no other side is attacking, test vs. ob 2"
    (no wound: Ob 2); FoRKs: Administration B3 adds 1D — Logistics B4 + 1 = 5 dice."""
    setup = _kingdom({}, skills={"Logistics": "B4", "Administration": "B3"})
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    slip = {"maneuver": "Fortify", "skill": "Logistics", "forks": ["Administration"]}
    shown, _ = _check_against_the_roll(table, slip)
    assert [p.label for p in shown] == [
        "the Elves' Fortify with Logistics, if nobody attacks",
        "the Elves' Fortify with Logistics",
    ]
    assert shown[0].dice == "5d6 vs Ob 2"
    assert dict(shown[0].odds) == odds_of(BurningTest(BurningPool(5), 2).odds())
    assert Fraction(shown[0].odds["success"]) == Fraction(26, 32)  # 1 - (1 + 5) / 32


def test_a_building_scene_by_the_second_in_command_previews_the_2ics_own_test() -> None:
    """Building Scenes; Seconds in Command: a scene played by the 2iC rolls the 2iC's skill
    (Logistics G3, 1 wound die: 2 grey dice) against its Ob, +1 for the 2iC's own Superficial
    wound (Ob 1 + 1 = 2): (2/3)² = 4/9 — the odds of the roll card the scene then makes."""
    second = {
        "name": "Thalion",
        "lifepaths": 5,
        "stats": {"Will": "B3"},
        "skills": {"Logistics": "G3"},
        "superficial": True,
        "wound_dice": 1,
    }
    table = Table.start(PROCEDURE, _kingdom({"second": second}), players=PLAYERS)
    for f in ("elves", "orcs"):
        slip = {"maneuver": "Fortify", "skill": "Logistics"}
        table = table.act(Action(f, "write_slip", slip), ScriptedSource([]))
    scene = Action("elves", "scene", {"kind": "building", "by": "second", "skill": "Logistics"})
    (shown,) = preview(table, "ann", scene)
    assert (shown.label, shown.rule, shown.dice) == (
        "Thalion's building scene: Logistics",
        "Building Scenes",
        "2d6 grey vs Ob 2",
    )
    assert dict(shown.odds) == {"failure": "5/9", "success": "4/9"}
    card: Any = table.act(scene, ScriptedSource([3, 3])).log.events[-1].payload["roll"]
    assert (card["label"], card["dice"], card["odds"]) == (shown.label, shown.dice, shown.odds)
    # the leader's own scene: Logistics B4, unwounded, Ob 1
    (mine,) = preview(table, "ann", replace(scene, params={**scene.params, "by": "leader"}))
    assert (mine.label, mine.dice) == ("Aeluin's building scene: Logistics", "4d6 vs Ob 1")
    # anyone else (no such character) has no test to preview
    assert preview(table, "ann", replace(scene, params={**scene.params, "by": "Gorbash"})) == ()


def test_a_harrys_preview_splits_the_dice_as_the_reveal_rolls_them() -> None:
    """Harry: "divide the Harry dice" into defence and attack — Tactics B5 open-ended and an
    Onslaught-free slip: 2 to defence, 3 to attack, each pool open-ended, as the two roll cards
    of the reveal; no independent obstacle."""
    setup = _kingdom(
        {}, skills={"Logistics": "B4", "Tactics": {"shade": "B", "exponent": 5, "open_ended": True}}
    )
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    slip = {"maneuver": "Harry", "skill": "Tactics", "defence": 2}
    shown, _ = _check_against_the_roll(table, slip)
    assert [(p.label, p.dice) for p in shown] == [
        ("the Elves' Harry with Tactics: defence dice", "2d6 B open-ended"),
        ("the Elves' Harry with Tactics: attack dice", "3d6 B open-ended"),
    ]
    assert _counts(shown[0].odds)[0] == (0, Fraction(1, 4))
    assert _counts(shown[1].odds)[0] == (0, Fraction(1, 8))


def test_a_tie_breakers_preview_is_the_two_root_stats_the_tie_breaker_rolls() -> None:
    """Independent and Versus Maneuvers: a tied versus test is broken on root stats both sides
    agree to, each a root of the skill it used. The elves' Perception G4 open-ended (the root
    of their Logistics) against the orcs' Will W3 open-ended (of their Inconspicuous): the
    preview's chance is the one the tie-breaker then records, the versus odds of those two
    pools (each side's exponent, shade and open-endedness), to the kernel's precision."""
    example = yaml.safe_load((EXAMPLES / "artha-and-the-tie-breaker.yaml").read_text("utf-8"))
    setup = example["setup"]
    setup["factions"]["elves"]["leader"]["stats"]["Perception"] = {
        "shade": "G",
        "exponent": 4,
        "open_ended": True,
    }
    setup["factions"]["orcs"]["leader"]["stats"]["Will"] = {
        "shade": "W",
        "exponent": 3,
        "open_ended": True,
    }
    setup["factions"]["orcs"]["leader"]["stats"]["Perception"] = "B5"  # no root of Inconspicuous
    table = Table.start(PROCEDURE, setup, players=example["players"])
    source = ScriptedSource(example["dice"]["script"])
    for step in example["actions"][:7]:  # the tie, after the elves' Fate
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), source)
    offer = Action("elves", "tie_break", {"opponent": "orcs", "root": "Perception"})
    # the orcs have not agreed yet: the odds against each root stat they may choose — their
    # Inconspicuous has one, Will (their Perception is no root of it)
    before = preview(table, "ann", offer)
    assert [p.label.rsplit(" on ", 1)[-1] for p in before] == ["Will"]
    theirs = Action("orcs", "tie_break", {"opponent": "elves", "root": "Will"})
    table = table.act(theirs, source)
    (shown,) = preview(table, "ann", offer)
    mine = BurningPool(4, Shade.GREY, open_ended=True)
    other = BurningPool(3, Shade.WHITE, open_ended=True)
    chance = versus_odds(mine, other)
    assert (shown.label, shown.rule, shown.dice) == (
        "the Elves: tie-breaker on Perception against the Orcs' Will",
        "Independent and Versus Maneuvers",
        "4d6 grey open-ended vs 3d6 white open-ended",
    )
    assert dict(shown.odds) == odds_of(BurningVersus(mine, other).odds())
    # the tie-breaker records versus_odds (60 successes counted); the preview is the kernel's
    # own opposed check, which cuts explosion chains below 10⁻¹² (docs, "Exact odds of
    # open-ended pools"): the two agree to that precision
    assert abs(Fraction(shown.odds["success"]) - chance) < Fraction(1, 10**12)
    rolled = table.act(offer, ScriptedSource([3] * 7))
    recorded: Any = [e.payload for e in rolled.log.events if e.kind == "tie_break.rolled"][-1]
    assert recorded["odds"]["elves"] == str(chance)


def test_a_prologue_preview_is_the_chosen_skills_roll_alone() -> None:
    """Prologues: the leader tests one skill from the list, open-ended. The preview for
    Logistics G3 is that test alone (not Tactics B5's), and its dice and odds are those the
    prologue's roll then records — grey dice written as grey."""
    setup = _kingdom({}, skills={"Logistics": "G3", "Tactics": "B5", "Law": "B2"})
    table = Table.start(PROCEDURE, {**setup, "prologue": True}, players=PLAYERS)
    for skill, dice in (("Logistics", "3d6 grey open-ended"), ("Tactics", "5d6 open-ended")):
        action = Action("elves", "prologue", {"skill": skill})
        (shown,) = preview(table, "ann", action)
        assert (shown.label, shown.rule, shown.dice) == (
            f"Aeluin tests {skill} for the prologue",
            "Prologues",
            dice,
        )
        rolled: Any = table.act(action, ScriptedSource([3] * 5)).log.events[-1].payload
        assert dict(shown.odds) == rolled["odds"]
        assert (shown.dice, shown.odds) == (rolled["roll"]["dice"], rolled["roll"]["odds"])
    assert preview(table, "ann", Action("elves", "prologue", {"skill": "Oratory"})) == ()


def test_a_building_scene_the_rules_refuse_has_no_odds() -> None:
    """Scene Economy: a faction that has passed plays no more scenes this maneuver, so a
    building scene it could otherwise roll (Logistics B4, Ob 1) shows no odds — though
    another kind of action is open to it."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    for f in ("elves", "orcs"):
        slip = {"maneuver": "Fortify", "skill": "Logistics"}
        table = table.act(Action(f, "write_slip", slip), ScriptedSource([]))
    scene = Action("elves", "scene", {"kind": "building", "skill": "Logistics", "ob": 1})
    assert len(preview(table, "ann", scene)) == 1
    passed = table.act(Action("elves", "pass", {}), ScriptedSource([]))
    passed = passed.act(Action("orcs", "pass", {}), ScriptedSource([]))
    with pytest.raises(RuleError, match="passed their scenes"):
        passed.act(scene, ScriptedSource([4] * 4))
    # the elves may read the slips now (a choice with no parameters), but not play a scene
    kinds = [c.kind for c in PROCEDURE.legal_actions(passed.state, "elves")]
    assert "reveal" in kinds and "scene" not in kinds
    assert preview(passed, "ann", scene) == ()


def test_a_tie_breaker_rolled_by_a_second_in_command_previews_the_2ics_root_stat() -> None:
    """Seconds in Command; Independent and Versus Maneuvers: the orcs' 2iC rolled their
    Infiltrate with Streetwise (a skill the leader lacks, after initiating the conflict
    scene), so their side of the tie-breaker is the 2iC's root stat of it (Perception G3),
    which the leader does not have: each side's preview is its own root against the
    other's (the elves' Perception B4, the root of their Logistics)."""
    example = yaml.safe_load((EXAMPLES / "artha-and-the-tie-breaker.yaml").read_text("utf-8"))
    setup = example["setup"]
    orcs = setup["factions"]["orcs"]
    orcs["second"] = {
        "name": "Ugluk",
        "lifepaths": 8,
        "stats": {"Perception": "G3"},
        "skills": {"Streetwise": "B5"},
    }
    del orcs["leader"]["skills"]["Inconspicuous"]
    orcs["leader"]["skills"]["Tactics"] = "B3"
    actions = example["actions"][:7]
    actions[1]["params"].update(roller="second", skill="Streetwise")
    actions[2]["params"]["by"] = "second"
    table = Table.start(PROCEDURE, setup, players=example["players"])
    source = ScriptedSource(example["dice"]["script"])
    for step in actions:  # the tie, after the elves' Fate
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), source)
    assert table.state.rolls["orcs"].roller == "second"
    will = Action("elves", "tie_break", {"opponent": "orcs", "root": "Perception"})
    perception = Action("orcs", "tie_break", {"opponent": "elves", "root": "Perception"})
    elves, orcs_ = BurningPool(4), BurningPool(3, Shade.GREY)
    (mine,) = preview(table.act(perception, ScriptedSource([])), "ann", will)
    assert mine.label == "the Elves: tie-breaker on Perception against the Orcs' Perception"
    assert dict(mine.odds) == odds_of(BurningVersus(elves, orcs_).odds())
    (theirs,) = preview(table.act(will, ScriptedSource([])), "bob", perception)
    assert theirs.label == "the Orcs: tie-breaker on Perception against the Elves' Perception"
    assert dict(theirs.odds) == odds_of(BurningVersus(orcs_, elves).odds())


def test_an_open_ended_ability_is_previewed_open_ended() -> None:
    """Open-ended abilities roll open-ended: the elves' Assess with an open-ended Logistics B4
    and their Health test with an open-ended Health B3 are previewed so."""
    open_b4 = {"shade": "B", "exponent": 4, "open_ended": True}
    open_b3 = {"shade": "B", "exponent": 3, "open_ended": True}
    setup = _kingdom({}, skills={"Logistics": open_b4}, stats={"Health": open_b3}, wound_dice=1)
    state = PROCEDURE.initial_state(setup)
    dice = [(label, shown) for label, _, shown, _ in _odds(state, "elves")]
    assert dice == [
        ("the Elves' Assess with Logistics, if independent", "3d6 open-ended vs Ob 2"),
        ("the Elves' Fortify with Logistics, if nobody attacks", "3d6 open-ended vs Ob 2"),
        ("Aeluin tests Health", "3d6 open-ended vs Ob 2"),
    ]


def _outcomes(final: Mapping[int, Fraction], against: int) -> dict[str, Fraction]:
    """Brute force: a versus test's outcomes for a final count of ``final`` against
    ``against`` successes showing (more wins; as many ties, the defender holding)."""
    out = {"win": Fraction(0), "tie": Fraction(0), "lose": Fraction(0)}
    for count, chance in final.items():
        out["win" if count > against else "tie" if count == against else "lose"] += chance
    return {k: p for k, p in out.items() if p}


def test_each_spending_choice_after_the_roll_shows_the_engagement_it_buys() -> None:
    """Independent and Versus Maneuvers: after the roll the elves' Fortify (2 successes on
    6, 4, 1, 1, 1) defends against the orcs' Infiltrate (4 successes; the orcs have no artha
    left to change them). Each choice offered carries, first, the chance of winning, tying or
    losing that versus test — keeping the roll loses it; Fate opens the 6 — then the chance
    of each count: the odds ``spend_artha`` would roll, offered before either is sent."""
    table = _rolled(6)
    offered = {c.label: c for c in observe(table, "ann").choices if c.actor == "elves"}
    keep, fate = offered["keep the roll"], offered["spend Fate"]
    assert keep.kind == "keep" and fate.kind == "spend_artha"
    kept, spent = keep.odds[0], fate.odds[0]
    assert kept.label == (
        "the Elves defending against the Orcs' Infiltrate (4 successes), with the roll kept"
    )
    assert {k: Fraction(v) for k, v in kept.odds.items()} == {"lose": 1}
    rolled = pool_roll_from(table.state.rolls["elves"].pool)
    final = after_distribution(rolled, Artha(fate=True))
    assert {k: Fraction(v) for k, v in spent.odds.items()} == _outcomes(final, 4)
    # 2 or 3 successes lose, 4 ties (the Infiltrate fails: the defender wins ties), 5+ wins
    assert spent.odds == {"win": "1/72", "tie": "5/72", "lose": "11/12"}
    # the choice's odds are the odds ``odds_of`` gives for the action as sent
    assert fate.odds == preview(table, "ann", Action("elves", "spend_artha", {"fate": True}))
    assert keep.odds == preview(table, "ann", Action("elves", "keep", {}))


def test_an_attackers_spending_choice_names_a_defender_who_may_still_spend() -> None:
    """Independent and Versus Maneuvers: the attacker's side of the same versus test. With
    Fate of their own, the orcs (4 successes on 4, 4, 4, 4, 1) attack the elves' Fortify (2
    showing, the elves still free to spend Fate): keeping wins as the roll stands; the preview
    says the elves' count may still change."""
    setup = copy.deepcopy(EXAMPLE["setup"])
    setup["factions"]["orcs"]["leader"]["artha"] = {"fate": 1, "persona": 0, "deeds": 1}
    table = _rolled(6, setup)
    offered = {c.label: c for c in observe(table, "bob").choices if c.actor == "orcs"}
    kept = offered["keep the roll"].odds[0]
    assert kept.label == (
        "the Orcs attacking the Elves' Fortify (2 successes, as it stands (they may still "
        "spend artha)), with the roll kept"
    )
    assert kept.odds == {"win": "1"}
    assert "spend Fate" not in offered  # no 6 showing: Fate could change no die
    assert offered["spend Deeds"].odds[0].odds == {"win": "1"}  # 4 or 5 against 2
    # and the defender's side names the attackers' count as standing, theirs still to spend
    defending = {c.label: c for c in observe(table, "ann").choices if c.actor == "elves"}
    assert defending["keep the roll"].odds[0].label == (
        "the Elves defending against the Orcs' Infiltrate (4 successes, as it stands (they "
        "may still spend artha)), with the roll kept"
    )
    # once the orcs keep their roll, their Fate unspent, their count is settled
    kept_by_orcs = table.act(Action("orcs", "keep", {}), ScriptedSource([]))
    defending = {c.label: c for c in observe(kept_by_orcs, "ann").choices if c.actor == "elves"}
    assert defending["keep the roll"].odds[0].label == (
        "the Elves defending against the Orcs' Infiltrate (4 successes), with the roll kept"
    )


def test_an_attack_rolled_by_a_second_in_command_stands_while_the_2ic_may_still_spend() -> None:
    """Seconds in Command; Independent and Versus Maneuvers: the orcs' 2iC Ugluk rolled their
    Infiltrate of the elves (Streetwise, a skill the leader lacks) and holds Fate and Deeds,
    their leader none: the elves' preview says the orcs' 4 successes stand only as the roll
    stands, since the one who rolled may still spend artha on it."""
    example = copy.deepcopy(EXAMPLE)
    orcs = example["setup"]["factions"]["orcs"]
    orcs["second"] = {
        "name": "Ugluk",
        "lifepaths": 8,
        "stats": {"Perception": "G3"},
        "skills": {"Streetwise": "B5"},
        "artha": {"fate": 1, "persona": 0, "deeds": 1},
    }
    orcs["leader"]["artha"] = {"fate": 0, "persona": 0, "deeds": 0}
    del orcs["leader"]["skills"]["Inconspicuous"]
    actions = example["actions"][:6]  # up to the reveal
    actions[1]["params"].update(roller="second", skill="Streetwise")
    actions[2]["params"]["by"] = "second"
    table = Table.start(PROCEDURE, example["setup"], players=example["players"])
    source = ScriptedSource(example["dice"]["script"])
    for step in actions:
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), source)
    assert table.state.rolls["orcs"].roller == "second"
    (keep,) = [c for c in observe(table, "ann").choices if c.label == "keep the roll"]
    assert keep.odds[0].label == (
        "the Elves defending against the Orcs' Infiltrate (4 successes, as it stands (they "
        "may still spend artha)), with the roll kept"
    )


def test_a_tie_breakers_preview_is_of_the_root_stat_chosen_of_the_skills_two() -> None:
    """A tied versus test is broken on a root stat of the skill each side used: the orcs'
    Smuggling has two (Will, Perception), both on their leader's sheet, so their offer carries
    the odds of each; the form's preview is of the root chosen alone — Will B3 or Perception B5
    against the elves' Perception B4."""
    example = copy.deepcopy(EXAMPLE)
    orcs = example["setup"]["factions"]["orcs"]["leader"]
    orcs["stats"] = {"Will": "B3", "Perception": "B5"}
    orcs["skills"] = {"Smuggling": "B5"}
    actions = example["actions"][:7]  # the tie, after the elves' Fate
    actions[1]["params"]["skill"] = "Smuggling"
    table = Table.start(PROCEDURE, example["setup"], players=example["players"])
    source = ScriptedSource(example["dice"]["script"])
    for step in actions:
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), source)
    (offer,) = [c for c in observe(table, "bob").choices if c.kind == "tie_break"]
    assert len(offer.odds) == 2
    for root, dice in (("Will", 3), ("Perception", 5)):
        chosen = Action("orcs", "tie_break", {"opponent": "elves", "root": root})
        chance = versus_odds(BurningPool(dice), BurningPool(4))
        assert _by_label(preview(table, "bob", chosen)) == {
            f"the Orcs: tie-breaker on {root} against the Elves' Perception, "
            "if the Elves agree on Perception": {
                "success": str(chance),
                "failure": str(1 - chance),
            }
        }


def test_keeping_a_harrys_roll_previews_its_defence_and_its_attack_dice() -> None:
    """Harry splits its dice into defence and attack: keeping the roll previews each pool as
    it stands — the defence dice (6, 4: 2 successes, which nothing attacks), then the attack
    dice (6, 3, 3: 1 success) winning against the orcs' Fortify (0 successes)."""
    fate = {"fate": 1, "persona": 0, "deeds": 0}
    harry = {"maneuver": "Harry", "skill": "Tactics", "defence": 2, "target": "orcs"}
    split = _after_the_roll(fate, harry, [6, 4, 6, 3, 3] + [3] * 4)
    assert _by_label(preview(split, "ann", Action("elves", "keep", {}))) == {
        "the Elves: no artha: the roll kept on the defence roll": {"2 successes": "1"},
        "the Elves attacking the Orcs' Fortify (0 successes), with the roll kept": {"win": "1"},
        "the Elves: no artha: the roll kept on the attack roll": {"1 success": "1"},
    }


def test_spending_deeds_on_a_harrys_attack_dice_previews_those_dice_rerolled() -> None:
    """Deeds after the roll rerolls every failed die of the pool it is spent on: on the
    Harry's attack dice (6, 3, 3 in black: 1 success, 2 failed) it is 1 success more with
    chance 1/2 for each, against the orcs' Fortify (0 successes) still won."""
    artha = {"fate": 0, "persona": 0, "deeds": 1}
    harry = {"maneuver": "Harry", "skill": "Tactics", "defence": 2, "target": "orcs"}
    split = _after_the_roll(artha, harry, [6, 4, 6, 3, 3] + [3] * 4)
    deeds = Action("elves", "spend_artha", {"fate": False, "deeds": True, "pool": "attack"})
    assert _by_label(preview(split, "ann", deeds)) == {
        "the Elves attacking the Orcs' Fortify (0 successes), with Deeds (reroll)": {"win": "1"},
        "the Elves: Deeds (reroll) on the attack roll": {
            "1 success": "1/4",
            "2 successes": "1/2",
            "3 successes": "1/4",
        },
    }


def test_a_health_tests_preview_is_the_chance_its_roll_records() -> None:
    """Wound Recovery: the form of a wounded leader's Health test (Aeluin, Health G2
    open-ended, a Superficial wound: Ob 2) previews the test the roll then makes, with the
    chance of success its event records; a choice that rolls nothing (passing) has none."""
    health = {"shade": "G", "exponent": 2, "open_ended": True}
    elves = _kingdom({}, stats={"Will": "B4", "Health": health}, superficial=True, wound_dice=1)
    table = Table.start(PROCEDURE, elves, players=PLAYERS)
    test = Action("elves", "health_test", {"character": "leader"})
    (shown,) = preview(table, "ann", test)
    assert (shown.label, shown.rule, shown.dice) == (
        "Aeluin tests Health",
        "Wound Recovery",
        "2d6 grey open-ended vs Ob 2",
    )
    rolled = table.act(test, ScriptedSource([6, 3, 6, 1]))
    assert shown.odds["success"] == rolled.log.events[-1].payload["odds"]
    assert preview(table, "ann", Action("elves", "pass", {})) == ()

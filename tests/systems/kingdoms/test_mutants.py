"""Tests that kill the mutants mutmut left alive (issue 13, docs/systems/kingdoms.md, "Mutation
testing"): each asserts an outcome of the rules (parent-games.md, "Burning Wheel"; "Territorial
Conquest") with scripted dice or exact odds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from referee.core import Action, OddsPreview, Outcome, RuleError, Table, preview
from referee.core.cards import odds_of
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.dice import (
    Artha,
    BurningPool,
    BurningTest,
    BurningVersus,
    Shade,
    artha_choices,
    success_distribution,
    versus_odds,
)
from referee.systems.kingdoms.disposition import (
    FAR_APART,
    DispositionAnswers,
    DispositionStep,
    DispositionTotal,
    build_disposition,
    disposition_warning,
)
from referee.systems.kingdoms.procedure import successes_preview
from referee.systems.kingdoms.resolution import Board, Entry, resolve

# -- artha ---------------------------------------------------------------------------------


def test_no_artha_on_the_sheet_means_only_the_plain_roll() -> None:
    """Artha is spent from what the sheet holds: a sheet naming none offers only "no artha"."""
    assert artha_choices(BurningPool(3), {}) == [Artha()]


def test_two_deeds_offer_before_after_and_both() -> None:
    """Deeds: "before: double the base exponent; after: reroll every failed die; at most 2, one
    of each use" — with 2 Deeds and nothing else, exactly the four uses, in order."""
    assert artha_choices(BurningPool(3), {"deeds": 2}) == [
        Artha(),
        Artha(deeds_after=True),
        Artha(deeds_before=True),
        Artha(deeds_before=True, deeds_after=True),
    ]


def test_one_deed_and_one_fate() -> None:
    """One Deeds point buys one use, before or after; one Fate point is one Fate."""
    assert artha_choices(BurningPool(3), {"deeds": 1, "fate": 1, "persona": 1}) == [
        Artha(persona=p, deeds_before=b, fate=f, deeds_after=a)
        for p in (0, 1)
        for b, a in ((False, False), (False, True), (True, False))
        for f in (False, True)
    ]


# -- exact odds with artha after the roll -------------------------------------------------


def test_a_fated_test_gives_every_margin_and_the_failure() -> None:
    """Fate after the roll: the odds split into pass and fail (summing to 1), each margin is the
    successes less the Ob, and the successes are the roller's distribution."""
    odds = BurningTest(BurningPool(2), 2, Artha(fate=True)).odds()
    dist = success_distribution(2, Shade.BLACK, False, Artha(fate=True))
    assert odds.successes == dist
    assert odds.outcomes[Outcome.SUCCESS] == sum(p for k, p in dist.items() if k >= 2)
    assert odds.outcomes[Outcome.FAILURE] == sum(p for k, p in dist.items() if k < 2)
    assert odds.margins == {k - 2: p for k, p in sorted(dist.items())}
    assert sum(odds.margins.values()) == 1


@pytest.mark.parametrize("open_ended", [False, True], ids=["closed", "open-ended"])
def test_a_versus_test_with_artha_after_the_roll_keeps_each_pools_nature(
    open_ended: bool,
) -> None:
    """A versus test with Fate (attacker) and Deeds after (defender): each side's pool keeps its
    open-endedness ("Fate: make 6s open-ended, or reroll one failed die if the test is
    open-ended already"); the defender wins ties."""
    attacker = BurningPool(2, open_ended=open_ended)
    defender = BurningPool(2, Shade.GREY, open_ended=not open_ended)
    fate, deeds = Artha(fate=True), Artha(deeds_after=True)
    odds = BurningVersus(attacker, defender, fate, deeds).odds()
    assert odds.success == versus_odds(attacker, defender, fate, deeds)
    assert odds.outcomes[Outcome.FAILURE] == 1 - odds.success
    assert odds.successes == success_distribution(2, Shade.BLACK, open_ended, fate)


# -- versus rolls -----------------------------------------------------------------------------


def test_the_attacker_who_beats_the_defenders_successes_wins_by_the_difference() -> None:
    """Versus: "each side's successes are the other's Ob": 4,4,1 (2 successes, Black) beat
    3,1 (1 success, Grey), margin 1."""
    versus = BurningVersus(BurningPool(3), BurningPool(2, Shade.GREY))
    result = versus.roll(ScriptedSource([4, 4, 1, 3, 1]))
    assert (result.outcome, result.value, result.opponent_value) == (Outcome.SUCCESS, 2, 1)
    assert (result.margin, result.faces) == (1, (4, 4, 1, 3, 1))


def test_open_ended_pools_explode_in_a_versus_roll() -> None:
    """Open-ended: a 6 rolls another die. 6 then 4 is 2 successes; 6 then 1 is 1."""
    pool = BurningPool(1, open_ended=True)
    source = ScriptedSource([6, 4, 6, 1])
    result = BurningVersus(pool, pool).roll(source)
    assert source.remaining == ()
    assert (result.value, result.opponent_value, result.is_success) == (2, 1, True)


# -- disposition ------------------------------------------------------------------------------


def totals(*points: int) -> list[DispositionTotal]:
    return [DispositionTotal(f"f{i}", (DispositionStep("x", "", p),)) for i, p in enumerate(points)]


def test_totals_exactly_far_apart_draw_no_warning() -> None:
    """ "Disposition Total" (ruling): totals more than FAR_APART (5) apart draw the warning; 5
    apart do not, 6 apart do."""
    assert disposition_warning(totals(12, 12 + FAR_APART)) is None
    assert disposition_warning(totals(12, 13 + FAR_APART)) == (
        "dispositions are far apart (f0 12, f1 18): consider a different concept for a faction"
    )


def test_a_disposition_total_as_json() -> None:
    """The breakdown a table shows: each step's answer and points, and the total."""
    total = DispositionTotal("orcs", (DispositionStep("x", "a", 3), DispositionStep("y", "b", 4)))
    assert total.to_json() == {
        "faction": "orcs",
        "steps": [
            {"step": "x", "answer": "a", "points": 3},
            {"step": "y", "answer": "b", "points": 4},
        ],
        "total": 7,
    }


BASE = {
    "territorial_relation": "native",
    "lifepath_settings": 1,
    "mechanical_aptitude": "no tools",
    "population_density": "rural",
    "population_growth": "slow",
    "political_placement": "highly-placed",
}


def test_answers_from_a_file_default_to_no_sub_settings_and_no_mystical_ability() -> None:
    """Steps Two and Four from a file: no sub-settings and no mystical ability unless written;
    a count of 0 types is no type; a count names its types 1, 2 …"""
    a = DispositionAnswers.from_json("elves", BASE)
    assert (a.sub_settings, a.mystical_abilities) == (0, ())
    assert DispositionAnswers.from_json("elves", {**BASE, "mystical_abilities": 0}) == a
    b = DispositionAnswers.from_json("elves", {**BASE, "mystical_abilities": None})
    assert b.mystical_abilities == ()
    c = DispositionAnswers.from_json("elves", {**BASE, "mystical_abilities": 2, "sub_settings": 3})
    assert (c.mystical_abilities, c.sub_settings) == (("type 1", "type 2"), 3)


def test_fractions_are_exact() -> None:
    """Odds are Fractions, never floats (STYLE: probabilities are Fractions)."""
    odds = BurningVersus(BurningPool(1), BurningPool(1), Artha(fate=True)).odds()
    assert all(isinstance(p, Fraction) for p in odds.outcomes.values())


# -- resolution -------------------------------------------------------------------------------


def test_an_onslaught_that_leaves_one_point_hesitates() -> None:
    """Onslaught: "If an Onslaught fails to completely deplete the targets disposition, the side
    performing the onslaught hesitates for the next maneuver": 9 off 10 leaves 1, and it
    hesitates."""
    values = {"a": 10, "b": 10, "c": 10, "d": 10}
    board = Board(
        order=("a", "b", "c", "d"), disposition=values, cap=12, circles=dict.fromkeys(values, 3)
    )
    r = resolve(
        {"a": Entry("a", "Onslaught", ("b",), 9), "b": Entry("b", "Assess", ("c",), 0)}, board
    )
    assert r.dispositions["b"] == 1 and r.cannot_act == ("a",)


ORCS = DispositionAnswers(
    faction="orcs",
    territorial_relation="hostile",
    lifepath_settings=3,
    sub_settings=1,
    mechanical_aptitude="simple tool users",
    mystical_abilities=("Hatred", "Rituals of Blood"),
    population_density="villages",
    population_growth="fast",
    political_placement="rival faction",
)


def test_the_breakdown_names_each_answer() -> None:
    """Steps One to Seven: the breakdown shows the answer behind each step's points."""
    answers = [s.answer for s in build_disposition(ORCS, factions=4).steps]
    assert answers == [
        "hostile",
        "3 settings, 1 sub-settings",
        "simple tool users",
        "Hatred, Rituals of Blood",
        "villages",
        "fast",
        "rival faction",
        "4 factions",
    ]
    magicless = build_disposition(replace(ORCS, mystical_abilities=()), factions=4)
    assert magicless.steps[3].answer == "no magic"


def test_six_players_in_four_factions_is_refused_by_step_seven() -> None:
    """Step Seven: "six or more players divide into three two-player factions"."""
    with pytest.raises(RuleError, match="Step Seven"):
        build_disposition(ORCS, factions=4, players=6)


def small_board(**dispo: int) -> Board:
    values = {"a": 10, "b": 10, "c": 10, "d": 10, **dispo}
    return Board(
        order=("a", "b", "c", "d"), disposition=values, cap=12, circles=dict.fromkeys(values, 3)
    )


def test_a_ploy_that_overcomes_by_one_costs_one_point_and_acts_next_maneuver() -> None:
    """Ploy: "Any target you beat loses a number of disposition points equal to your margin of
    success": 6 against an exponent of 5 beats it by 1; having damaged it, the Ployer acts."""
    r = resolve(
        {"a": Entry("a", "Ploy", ("c",), 6), "c": Entry("c", "Fortify", (), 1, exponent=5)},
        small_board(),
    )
    assert r.dispositions["c"] == 9 and r.cannot_act == ()


def test_a_ploy_that_wipes_out_its_target_is_its_conqueror_with_its_successes() -> None:
    """Ploy: the target brought to 0 is out; the attacker that did it is recorded with the
    successes of its attack (which name the conqueror)."""
    r = resolve(
        {"a": Entry("a", "Ploy", ("c",), 9), "c": Entry("c", "Fortify", (), 1, exponent=5)},
        small_board(c=2),
    )
    assert r.out == ("c",) and r.attackers == {"c": {"a": 9}} and r.conquerors == {"c": ("a",)}


def test_an_ensnare_against_no_successes_hurts_the_target_nothing() -> None:
    """Ensnare: "the enemy's successes hurt their disposition and the ensnaring side must
    sacrifice disposition equal to the margin of success": 0 successes hurt 0; the margin 5
    costs the Ensnarer 5."""
    r = resolve(
        {"a": Entry("a", "Ensnare", ("b",), 5), "b": Entry("b", "Assault", ("c",), 0)},
        small_board(),
    )
    assert (r.dispositions["a"], r.dispositions["b"]) == (5, 10)


def test_an_ensnare_that_wipes_out_its_target_records_its_successes() -> None:
    """Ensnare: b's 2 successes take b's last 2 points; a, with 5 successes, conquers b."""
    r = resolve(
        {"a": Entry("a", "Ensnare", ("b",), 5), "b": Entry("b", "Assault", ("c",), 2)},
        small_board(b=2, c=2),
    )
    assert r.attackers["b"] == {"a": 5} and r.conquerors["b"] == ("a",)


def test_a_ploy_that_damages_neither_target_says_so() -> None:
    """Ploy: "damaging neither, the Ployer's faction cannot act next maneuver": 5 does not
    overcome an exponent of 5; the effect names the Ployer."""
    r = resolve(
        {"a": Entry("a", "Ploy", ("c",), 5), "c": Entry("c", "Fortify", (), 1, exponent=5)},
        small_board(),
    )
    assert r.cannot_act == ("a",)
    assert [(e.faction, e.by, e.text) for e in r.effects if e.kind == "cannot_act"] == [
        ("a", "a", "a's Ploy damaged neither target: it cannot act next maneuver")
    ]


def test_a_versus_pools_preview_counts_successes_open_ended_to_a_top_bucket() -> None:
    """Dice (a versus test's odds before the opponent is known): 2D black succeed on 4–6 —
    0, 1, 2 successes at 1/4, 1/2, 1/4. Open-ended, a 6 is rolled again: 1 success is one die
    failing and the other a 4 or 5, or a 6 whose re-roll fails (2·½·⅓ + 2·½·⅙·½ = 5/12), and the
    last bucket, three above the dice, is "5+"."""
    plain = successes_preview(BurningPool(exponent=2), "jack's pool", "Versus")
    assert (plain.label, plain.rule, plain.dice) == ("jack's pool", "Versus", "2d6 B")
    assert dict(plain.odds) == {"0 successes": "1/4", "1 success": "1/2", "2 successes": "1/4"}
    wild = successes_preview(BurningPool(exponent=2, open_ended=True), "jack's pool", "Versus")
    assert wild.dice == "2d6 B open-ended"
    odds = {k: Fraction(v) for k, v in wild.odds.items()}
    assert list(odds) == [
        "0 successes",
        "1 success",
        "2 successes",
        "3 successes",
        "4 successes",
        "5+ successes",
    ]
    assert (odds["0 successes"], odds["1 success"], sum(odds.values())) == (
        Fraction(1, 4),
        Fraction(5, 12),
        1,
    )


# -- odds previews: the odds a form shows are the odds of the roll the rules make ------------

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "kingdoms"
PLAYERS = {"ann": ["elves"], "bob": ["orcs"]}


def _kingdom(elves: dict[str, Any], **leader: Any) -> dict[str, Any]:
    """Two factions: the elves as given (their leader's sheet merged with ``leader``), the orcs
    plain (Logistics B4, Will B3, Perception G4 open-ended)."""
    elf = {
        "name": "Aeluin",
        "lifepaths": 7,
        "stats": {"Will": "B4"},
        "skills": {"Logistics": "B4"},
        "circles": 3,
        **leader,
    }
    orc = {
        "name": "Gorbash",
        "lifepaths": 10,
        "stats": {"Will": "B3", "Perception": {"shade": "G", "exponent": 4, "open_ended": True}},
        "skills": {"Logistics": "B4", "Inconspicuous": "B5"},
    }
    return {
        "factions": {
            "elves": {"disposition": 10, "leader": elf, **elves},
            "orcs": {"disposition": 12, "leader": orc},
        }
    }


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
        "elves: Assess with Observation, if independent",
        "Assess",
        "4d6 grey vs Ob 3",
    )
    assert dict(independent.odds) == {"failure": "11/27", "success": "16/27"}
    assert (counts.label, counts.dice) == ("elves: Assess with Observation", "4d6 G")
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
        "elves: Fortify with Logistics, if nobody attacks",
        "elves: Fortify with Logistics",
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
        ("elves: Harry with Tactics: defence dice", "2d6 B open-ended"),
        ("elves: Harry with Tactics: attack dice", "3d6 B open-ended"),
    ]
    assert _counts(shown[0].odds)[0] == (0, Fraction(1, 4))
    assert _counts(shown[1].odds)[0] == (0, Fraction(1, 8))


def test_a_tie_breakers_preview_is_the_two_root_stats_the_tie_breaker_rolls() -> None:
    """Independent and Versus Maneuvers: a tied versus test is broken on root stats both sides
    agree to. The elves' Will G4 open-ended against the orcs' Perception W3 open-ended: the
    preview's chance is the one the tie-breaker then records, the versus odds of
    those two pools (each side's exponent, shade and open-endedness), to the kernel's
    precision."""
    example = yaml.safe_load((EXAMPLES / "artha-and-the-tie-breaker.yaml").read_text("utf-8"))
    setup = example["setup"]
    setup["factions"]["elves"]["leader"]["stats"]["Will"] = {
        "shade": "G",
        "exponent": 4,
        "open_ended": True,
    }
    setup["factions"]["orcs"]["leader"]["stats"]["Perception"] = {
        "shade": "W",
        "exponent": 3,
        "open_ended": True,
    }
    table = Table.start(PROCEDURE, setup, players=example["players"])
    source = ScriptedSource(example["dice"]["script"])
    for step in example["actions"][:7]:  # the tie, after the elves' Fate
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), source)
    offer = Action("elves", "tie_break", {"opponent": "orcs", "root": "Will"})
    # the orcs have not agreed yet: the odds against each root stat they may choose
    before = preview(table, "ann", offer)
    assert [p.label.rsplit(" on ", 1)[-1] for p in before] == ["Will", "Perception"]
    theirs = Action("orcs", "tie_break", {"opponent": "elves", "root": "Perception"})
    table = table.act(theirs, source)
    (shown,) = preview(table, "ann", offer)
    mine = BurningPool(4, Shade.GREY, open_ended=True)
    other = BurningPool(3, Shade.WHITE, open_ended=True)
    chance = versus_odds(mine, other)
    assert (shown.label, shown.rule, shown.dice) == (
        "elves: tie-breaker on Will against orcs' Perception",
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
    with pytest.raises(RuleError, match="passed its scenes"):
        passed.act(scene, ScriptedSource([4] * 4))
    # the elves may read the slips now (a choice with no parameters), but not play a scene
    kinds = [c.kind for c in PROCEDURE.legal_actions(passed.state, "elves")]
    assert "reveal" in kinds and "scene" not in kinds
    assert preview(passed, "ann", scene) == ()


def test_a_tied_conquest_is_named_by_the_defeated_player_and_says_so() -> None:
    """Consequences: two attackers with equal successes wipe a faction out together; "the
    defeated player decides" which is its conqueror, and the record says why."""
    sheet = {"lifepaths": 10, "stats": {"Will": "B4"}, "circles": 3}
    setup: dict[str, Any] = {
        "factions": {
            "elves": {
                "disposition": 10,
                "assessed": ["orcs"],
                "leader": {**sheet, "name": "A", "skills": {"Tactics": "B4"}},
            },
            "orcs": {
                "disposition": 6,
                "leader": {**sheet, "name": "G", "skills": {"Inconspicuous": "B4"}},
            },
            "dwarves": {
                "disposition": 12,
                "assessed": ["orcs"],
                "leader": {**sheet, "name": "D", "skills": {"Tactics": "B4"}},
            },
        }
    }
    table = Table.start(PROCEDURE, setup)
    none = ScriptedSource([])
    for f in ("elves", "dwarves"):
        assault = {"maneuver": "Assault", "skill": "Tactics", "target": "orcs"}
        table = table.act(Action(f, "write_slip", assault), none)
    infiltrate = {"maneuver": "Infiltrate", "skill": "Inconspicuous", "target": "elves"}
    table = table.act(Action("orcs", "write_slip", infiltrate), none)
    for f in ("elves", "dwarves"):
        table = table.act(Action(f, "scene", {"kind": "conflict", "target": "orcs"}), none)
    for f in ("elves", "orcs", "dwarves"):
        table = table.act(Action(f, "pass", {}), none)
    table = table.act(Action("elves", "reveal", {}), ScriptedSource([4] * 4 + [1] * 4 + [4] * 4))
    table = table.act(Action("elves", "resolve", {}), none)
    assert table.state.pending_conquest == {"orcs": ("elves", "dwarves")}
    table = table.act(Action("orcs", "choose_conqueror", {"conqueror": "dwarves"}), none)
    assert table.log.events[-1].kind == "conqueror.named"
    assert table.log.events[-1].payload == {
        "defeated": "orcs",
        "conqueror": "dwarves",
        "why": "chosen by the defeated player",
    }


def test_a_tie_breaker_rolled_by_a_second_in_command_previews_the_2ics_root_stat() -> None:
    """Seconds in Command; Independent and Versus Maneuvers: the orcs' 2iC rolled their
    Infiltrate (a skill the leader lacks, after initiating the conflict scene), so their side
    of the tie-breaker is the 2iC's root stat (Perception G3), which the leader does not have:
    each side's preview is its own root against the other's."""
    example = yaml.safe_load((EXAMPLES / "artha-and-the-tie-breaker.yaml").read_text("utf-8"))
    setup = example["setup"]
    orcs = setup["factions"]["orcs"]
    orcs["second"] = {
        "name": "Ugluk",
        "lifepaths": 8,
        "stats": {"Perception": "G3"},
        "skills": {"Inconspicuous": "B5"},
    }
    del orcs["leader"]["skills"]["Inconspicuous"]
    orcs["leader"]["skills"]["Tactics"] = "B3"
    actions = example["actions"][:7]
    actions[1]["params"]["roller"] = "second"
    actions[2]["params"]["by"] = "second"
    table = Table.start(PROCEDURE, setup, players=example["players"])
    source = ScriptedSource(example["dice"]["script"])
    for step in actions:  # the tie, after the elves' Fate
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), source)
    assert table.state.rolls["orcs"].roller == "second"
    will = Action("elves", "tie_break", {"opponent": "orcs", "root": "Will"})
    perception = Action("orcs", "tie_break", {"opponent": "elves", "root": "Perception"})
    elves, orcs_ = BurningPool(4), BurningPool(3, Shade.GREY)
    (mine,) = preview(table.act(perception, ScriptedSource([])), "ann", will)
    assert mine.label == "elves: tie-breaker on Will against orcs' Perception"
    assert dict(mine.odds) == odds_of(BurningVersus(elves, orcs_).odds())
    (theirs,) = preview(table.act(will, ScriptedSource([])), "bob", perception)
    assert theirs.label == "orcs: tie-breaker on Perception against elves' Will"
    assert dict(theirs.odds) == odds_of(BurningVersus(orcs_, elves).odds())


def test_downtime_bought_with_two_successes_owes_the_others_two_maintenance_tests() -> None:
    """Downtime: "In a succesful Conserve or Fortify, the winner gets one 3-month resource
    maintenance cycle for free per success allocated to downtime and the rest of the players
    are required to make resource maintenance checks": the elves' unopposed Fortify rolls 4
    successes against Ob 2 and puts both spare successes into downtime (6 months); the orcs
    owe two maintenance tests, the elves none."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    none = ScriptedSource([])
    mine: dict[str, Any] = {"maneuver": "Fortify", "skill": "Logistics", "downtime": 2}
    table = table.act(Action("elves", "write_slip", mine), none)
    theirs = {"maneuver": "Fortify", "skill": "Logistics"}
    table = table.act(Action("orcs", "write_slip", theirs), none)
    for f in ("elves", "orcs"):
        table = table.act(Action(f, "pass", {}), none)
    table = table.act(Action("elves", "reveal", {}), ScriptedSource([4] * 4 + [1] * 4))
    table = table.act(Action("elves", "keep", {}), none)  # the leader's Fate is not spent
    table = table.act(Action("elves", "resolve", {}), none)
    elves, orcs = table.state.factions["elves"], table.state.factions["orcs"]
    assert (elves.downtime_months, elves.maintenance) == (6, ())
    assert orcs.maintenance == (0, 0)
    bought: Any = [
        e.payload["text"]
        for e in table.log.events
        if e.kind == "effect.applied" and e.payload["kind"] == "downtime"
    ]
    assert bought == [
        "elves' Fortify: 2 successes buy 6 months of downtime (margin against Ob 2, unopposed)"
    ]


def test_a_sap_past_the_targets_skill_costs_disposition_by_the_excess() -> None:
    """Sap: "reducing the skill below 0" costs the target the extra successes in disposition.
    A margin of 3 against a skill of 3 costs nothing; a margin of 4 costs 1 (and, taking the
    last point, a's 5 successes are its attack); against a faction that rolled nothing (skill
    0) every one of 3 successes costs a point."""
    fortify = Entry("c", "Fortify", (), 1, exponent=3)
    exact = resolve({"a": Entry("a", "Sap", ("c",), 4), "c": fortify}, small_board())
    assert exact.dispositions["c"] == 10
    assert [e.kind for e in exact.effects] == ["sapped", "downtime", "maintenance"]
    past = resolve({"a": Entry("a", "Sap", ("c",), 5), "c": fortify}, small_board(c=1))
    assert (past.dispositions["c"], past.out, past.attackers) == (0, ("c",), {"c": {"a": 5}})
    idle = resolve({"a": Entry("a", "Sap", ("c",), 3)}, small_board())
    assert idle.dispositions["c"] == 7


def test_a_faction_sapped_twice_loses_the_larger_sap_not_the_last() -> None:
    """Sap: "The margin of success is subtracted from the target's next maneuver": two Saps on
    one target take the larger of their dice (the game's Rulings, 8: they do not add),
    whichever is resolved last."""
    for order in (("a", "b"), ("b", "a")):
        saps = {"a": Entry("a", "Sap", ("c",), 4), "b": Entry("b", "Sap", ("c",), 2)}
        result = resolve({f: saps[f] for f in order}, small_board())
        assert result.sapped == {"c": 4}


def test_a_faction_out_of_contention_takes_no_more_damage_from_later_attacks() -> None:
    """Assault: net successes come off the target's disposition, and a faction reduced to 0 is
    out of contention: b's Assault after a's has put c out changes nothing, and a alone is
    recorded as c's attacker (the conquest is decided among those who damaged it)."""
    assaults = {"a": Entry("a", "Assault", ("c",), 3), "b": Entry("b", "Assault", ("c",), 2)}
    result = resolve(assaults, small_board(c=1))
    assert (result.out, result.attackers, result.dispositions["c"]) == (
        ("c",),
        {"c": {"a": 3}},
        0,
    )
    assert [(e.faction, e.kind, e.by, e.amount) for e in result.effects] == [
        ("c", "disposition", "a", -1),
        ("c", "out", "a", 0),
    ]

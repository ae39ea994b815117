"""The tie-breaker ("Independent and Versus Maneuvers"): a tied versus test may be broken on root
stats "if both agree"; "extra successes count as if they were extra successes for the maneuver
skill".
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
import yaml

from referee.core import Action, OneOf, RuleError, Table
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.actions import TieBreak
from referee.systems.kingdoms.dice import Shade
from referee.systems.kingdoms.scripting import tied_pools, ties_of
from referee.systems.kingdoms.sheets import Ability
from referee.systems.kingdoms.state import KingdomsState
from referee.systems.kingdoms.tie_breaker import tie_break_odds

from .helpers import (
    EXAMPLES,
    PLAYERS,
    _act,
    _kinds,
    _kingdom,
    _menu,
    _new,
    _pass_all,
    _revealed,
    _rolled,
    _said,
    _with_second,
)


def test_a_tie_breaker_marks_each_sides_extra_successes_and_closes_the_offer() -> None:
    """Independent and Versus Maneuvers: a tied versus test broken on root stats both sides
    agree to — the extra successes count. examples/kingdoms/artha-and-the-tie-breaker.yaml:
    the elves' Fate (their pool as rolled with the Fate die recorded), then both agree, the
    orcs on Will (the root of their Inconspicuous), the elves on Perception (of their
    Logistics): the elves' 4 + 2 = 6, the orcs' 4 + 1 = 5, each roll marked with its extra
    successes, and no offer left open."""
    example = yaml.safe_load((EXAMPLES / "artha-and-the-tie-breaker.yaml").read_text("utf-8"))
    table = Table.start(PROCEDURE, example["setup"], players=example["players"])
    source = ScriptedSource(example["dice"]["script"])
    for step in example["actions"][:9]:  # up to both sides' tie_break
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), source)
        if step["action"] == "spend_artha":
            spent: Any = table.log.events[-1].payload
            assert table.state.rolls["elves"].pool == spent["pool_roll"]
            assert "fate" in spent["pool_roll"]["stages"]
        if step["actor"] == "orcs" and step["action"] == "tie_break":
            assert table.state.tie_offers == {"orcs": ("elves", "Will")}
    rolls = table.state.rolls
    assert (rolls["elves"].successes, rolls["elves"].tie_break) == (6, {"extra": 2})
    assert (rolls["orcs"].successes, rolls["orcs"].tie_break) == (5, {"extra": 1})
    assert table.state.tie_offers == {}


def test_a_tie_broken_on_a_harrys_attack_dice_marks_the_extra_successes() -> None:
    """Independent and Versus Maneuvers (the tie-breaker: "Extra successes count as if they
    were extra successes for the maneuver skill"): the dwarves' Harry's attack dice (1) tie the
    elves' Fortify (1); both break it on Perception (the root of Law and of Logistics): the
    elves roll 1, 1, 1, 1 (no extra), the
    dwarves 4, 4, 4, 4 (4 extra, to the attack). Each roll is marked with its extra
    successes."""
    from .test_procedure import act, all_pass, harry_on_a_fortify

    table = harry_on_a_fortify()
    table = act(all_pass(table), "elves", "reveal", [4, 1, 1, 1, 1, 1, 4, 1])
    table = act(table, "dwarves", "tie_break", opponent="elves", root="Perception")
    table = act(
        table, "elves", "tie_break", [1, 1, 1, 1, 4, 4, 4, 4], opponent="dwarves", root="Perception"
    )
    rolls = table.state.rolls
    assert (rolls["dwarves"].successes, rolls["dwarves"].attack) == (0, 5)
    assert (rolls["dwarves"].tie_break, rolls["elves"].tie_break) == ({"extra": 4}, {"extra": 0})
    assert (rolls["elves"].successes, table.state.tie_offers) == (1, {})


def test_a_tie_break_offer_left_open_is_gone_at_the_next_maneuver() -> None:
    """Independent and Versus Maneuvers (the tie-breaker on root stats happens only "if both
    agree"); Maneuvers ("At the beginning of each Maneuver, players decide their faction's
    intent"): examples/kingdoms/artha-and-the-tie-breaker.yaml up to the orcs' offer to break
    the tie on Will; the elves never agree and resolve the maneuver as tied. The offer is
    still open in downtime, but maneuver 2 starts with none: it cannot be taken up against a
    tie of the new maneuver."""
    example = yaml.safe_load((EXAMPLES / "artha-and-the-tie-breaker.yaml").read_text("utf-8"))
    table = Table.start(PROCEDURE, example["setup"], players=example["players"])
    source = ScriptedSource(example["dice"]["script"])
    for step in example["actions"][:8]:  # up to the orcs' offer alone
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), source)
    assert table.state.tie_offers == {"orcs": ("elves", "Will")}
    table = _act(table, "elves", "resolve")
    assert (table.state.phase, table.state.tie_offers) == ("downtime", {"orcs": ("elves", "Will")})
    table = _act(table, "elves", "next_maneuver")
    assert (table.state.phase, table.state.maneuver, table.state.tie_offers) == (
        "maneuver",
        2,
        {},
    )
    seen: Any = PROCEDURE.visible_state(table.state, table.viewer("ann"))
    assert seen["tie_offers"] == {}
    # the same two tie again in maneuver 2: the elves' offer alone rolls nothing yet
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    infiltrate = {"maneuver": "Infiltrate", "skill": "Inconspicuous", "target": "elves"}
    table = _act(table, "orcs", "write_slip", **infiltrate)
    table = _act(table, "orcs", "scene", kind="conflict", target="elves")
    for f in ("elves", "orcs"):
        table = _act(table, f, "pass")
    table = _act(table, "elves", "reveal", [4, 4, 1, 1, 4, 4, 1, 1, 1])
    assert {f: t.successes for f, t in table.state.rolls.items()} == {"elves": 2, "orcs": 2}
    table = _act(table, "elves", "tie_break", opponent="orcs", root="Perception")
    assert [e.kind for e in table.log.events[-1:]] == ["tie_break.offered"]
    assert table.state.tie_offers == {"elves": ("orcs", "Perception")}


def test_a_tie_against_a_harry_that_meets_an_ensnare_is_on_the_harrys_attack_dice() -> None:
    """Harry: its attack dice meet an Ensnare (the matrix's aV). The elves' Ensnare of the
    orcs, 3, ties the orcs' Harry attack of 3 (its own successes 1): the tie-breaker's extra
    successes go to the elves' successes and the orcs' attack."""
    state = _revealed(
        elves=("Ensnare", ("orcs",), 3, 0),
        orcs=("Harry", ("elves",), 1, 3),
    )
    assert tied_pools(state, "elves", "orcs") == {"elves": "successes", "orcs": "attack"}
    assert tied_pools(state, "orcs", "elves") == {"elves": "successes", "orcs": "attack"}


def test_a_tie_of_a_harrys_attack_against_a_fortify_is_on_the_attack_dice() -> None:
    """Harry: its attack dice meet the Fortify it engages (aV). The orcs' Harry of the elves,
    attack 3, ties the elves' Fortify of 3: the orcs' attack against the elves' successes."""
    state = _revealed(
        elves=("Fortify", (), 3, 0),
        orcs=("Harry", ("elves",), 1, 3),
    )
    assert tied_pools(state, "orcs", "elves") == {"orcs": "attack", "elves": "successes"}


def test_an_ensnare_tied_with_a_maneuver_other_than_a_harry_ties_on_its_successes() -> None:
    """Only a Harry's attack dice meet an Ensnare (aV): the elves' Ensnare of the orcs, 3,
    ties the orcs' Assess of the elves, 3, on each side's successes."""
    state = _revealed(elves=("Ensnare", ("orcs",), 3, 0), orcs=("Assess", ("elves",), 3, 0))
    assert tied_pools(state, "elves", "orcs") == {"elves": "successes", "orcs": "successes"}


def test_a_harry_against_a_harry_ties_on_its_successes() -> None:
    """Harry against Harry is a plain versus test (V): each side's maneuver successes, not
    its attack dice, tie."""
    state = _revealed(
        elves=("Harry", ("orcs",), 2, 5),
        orcs=("Harry", ("elves",), 2, 1),
    )
    assert tied_pools(state, "elves", "orcs") == {"elves": "successes", "orcs": "successes"}


def test_a_tie_between_two_factions_is_not_another_pairs_tie() -> None:
    """Independent and Versus Maneuvers: the tie-breaker's pools are those of the two factions
    whose versus test tied, not another pair's. The dwarves' Harry of the orcs ties the orcs'
    Ensnare of the dwarves on its attack dice (3 to 3); the elves' Assault of the dwarves,
    met first, is not tied (2 to 1); the elves and the orcs meet in no versus test: their
    pools are their successes."""
    state = _revealed(
        elves=("Assault", ("dwarves",), 2, 0),
        dwarves=("Harry", ("orcs",), 1, 3),
        orcs=("Ensnare", ("dwarves",), 3, 0),
    )
    assert tied_pools(state, "orcs", "dwarves") == {"orcs": "successes", "dwarves": "attack"}
    assert tied_pools(state, "elves", "orcs") == {"elves": "successes", "orcs": "successes"}


def test_only_a_versus_test_with_equal_successes_is_tied() -> None:
    """Independent and Versus Maneuvers: a tie-breaker is offered for a versus test whose two
    sides have equal successes. The elves' Assault of 3 against the orcs' Fortify of 2 is no
    tie; of 3 against 3, it is."""
    beaten = _revealed(elves=("Assault", ("orcs",), 3, 0), orcs=("Fortify", (), 2, 0))
    assert ties_of(beaten) == set()
    tied = _revealed(elves=("Assault", ("orcs",), 3, 0), orcs=("Fortify", (), 3, 0))
    assert ties_of(tied) == {frozenset({"elves", "orcs"})}


def _tied_with_a_second() -> Table[Any]:
    """The elves (Aeluin: Will B4, Perception B3 open-ended) Fortify on Logistics B4; the orcs'
    2iC Ugluk (Will B2, Perception G3 open-ended; his leader Gorbash has Perception G4
    open-ended) Assaults them with Tactics B4 and directs the conflict scene himself. Each
    side rolls 4, 4, 1, 1: 2 successes each, a tied versus test."""
    setup = _kingdom(
        {},
        stats={"Will": "B4", "Perception": {"shade": "B", "exponent": 3, "open_ended": True}},
    )
    orcs = setup["factions"]["orcs"]
    orcs["assessed"] = ["elves"]
    orcs["second"] = {
        "name": "Ugluk",
        "lifepaths": 8,
        "stats": {"Will": "B2", "Perception": {"shade": "G", "exponent": 3, "open_ended": True}},
        "skills": {"Tactics": "B4"},
    }
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(
        table,
        "orcs",
        "write_slip",
        maneuver="Assault",
        skill="Tactics",
        target="elves",
        roller="second",
    )
    table = _act(table, "orcs", "scene", kind="conflict", target="elves", by="second")
    table = _act(_pass_all(table), "elves", "reveal", [4, 4, 1, 1] * 2)
    assert {f: t.successes for f, t in table.state.rolls.items()} == {"elves": 2, "orcs": 2}
    return table


def test_a_tie_breaker_rolls_the_rollers_root_stat_open_ended_as_its_sheet_says() -> None:
    """Independent and Versus Maneuvers: a tied versus test may be broken by testing root
    stats, "extra successes count as if they were extra successes for the maneuver skill".
    The root stat is the one of the character who rolled the maneuver (the orcs' 2iC Ugluk,
    not their leader), and an open-ended stat rolls its 6s again: the elves' B3 rolls 6, 1, 1
    and the 6 again, a 4 (2 successes); Ugluk's G3 rolls 6, 1, 1 and a 3 (2 at Grey). Each
    roll is carded under its side's name and the rule; every seat reads the extras."""
    table = _tied_with_a_second()
    table = _act(table, "orcs", "tie_break", opponent="elves", root="Perception")
    before = len(table.log.events)
    table = _act(
        table, "elves", "tie_break", [6, 1, 1, 4, 6, 1, 1, 3], opponent="orcs", root="Perception"
    )
    offered, rolled = _new(table, before)
    data: Any = rolled.payload
    assert data["factions"] == ["elves", "orcs"]
    assert data["extra"] == {"elves": 2, "orcs": 2}
    cards = [(c["label"], c["rule"], c["dice"], c["value"]) for c in data["rolls"]]
    assert cards == [
        (
            "the Elves: tie-breaker on Perception",
            "Independent and Versus Maneuvers",
            "3d6 open-ended",
            2,
        ),
        (
            "the Orcs: tie-breaker on Perception",
            "Independent and Versus Maneuvers",
            "3d6 grey open-ended",
            2,
        ),
    ]
    pools = {
        f: (p["dice"], p["shade"], p["open_ended"], p["successes"])
        for f, p in data["pool_rolls"].items()
    }
    assert pools == {"elves": (3, "B", True, 2), "orcs": (3, "G", True, 2)}
    assert _said([offered, rolled]) == [
        "A tie-breaker with the Orcs on Perception: agreed by the Elves",
        "Tie-breaker between the Elves and the Orcs: the Elves +2, the Orcs +2",
    ]
    assert {f: t.successes for f, t in table.state.rolls.items()} == {"elves": 4, "orcs": 4}
    orcs = _rolled(table, "orcs")
    assert (orcs["roller"], orcs["character"]) == ("second", "Ugluk")


def test_a_tied_versus_test_offers_a_tie_breaker_on_a_root_stat_to_each_side() -> None:
    """Ties (RULINGS, Round 3): each side of a tied versus test may agree to a tie-breaker on
    a root stat of the skill it used that its roller has, once against each opponent; the
    reader resolves once every roll is settled. Every roll is on Tactics (Will/Perception):
    the elves' leader has Will alone, the orcs' and the dwarves' both. The elves' and the
    dwarves' Assaults of 3 both tie the orcs' Fortify of 3; the orcs agreed to break the tie
    with the elves."""
    state = _revealed(
        "Tactics",
        elves=("Assault", ("orcs",), 3, 0),
        orcs=("Fortify", (), 3, 0),
        dwarves=("Assault", ("orcs",), 3, 0),
    )
    settled = {f: replace(t, decided=True) for f, t in state.rolls.items()}
    state = replace(state, phase="rolled", reader="elves", rolls=settled)
    will = OneOf(("Will",))
    both = OneOf(("Will", "Perception"))
    assert _kinds(state, "elves") == [
        ("tie_break", {"opponent": OneOf(("orcs",)), "root": will}),
        ("resolve", {}),
    ]
    assert [c[1] for c in _menu(state, "elves") if c[0] == "tie_break"] == [
        "agree to a tie-breaker"
    ]
    assert _kinds(state, "orcs") == [
        ("tie_break", {"opponent": OneOf(("dwarves", "elves")), "root": both})
    ]
    agreed = replace(state, tie_offers={"orcs": ("elves", "Will")})
    assert _kinds(agreed, "orcs") == [
        ("tie_break", {"opponent": OneOf(("dwarves",)), "root": both})
    ]
    assert _kinds(agreed, "dwarves") == [
        ("tie_break", {"opponent": OneOf(("orcs",)), "root": both})
    ]


def test_a_tie_broken_by_a_second_in_command_is_on_its_own_root_stats() -> None:
    """Ties, Seconds in Command: the tie-breaker is rolled by the character who rolled the
    tied test. The orcs' 2iC (Perception alone) rolled their Fortify on Tactics
    (Will/Perception), tied by the elves' Assault: the orcs' tie-breaker is on Perception."""
    state = _revealed("Tactics", elves=("Assault", ("orcs",), 3, 0), orcs=("Fortify", (), 3, 0))
    state = _with_second(state, "orcs", name="Ugluk", stats={"Perception": Ability(Shade.BLACK, 3)})
    settled = {f: replace(t, decided=True) for f, t in state.rolls.items()}
    settled["orcs"] = replace(settled["orcs"], roller="second")
    state = replace(state, phase="rolled", reader="elves", rolls=settled)
    assert _kinds(state, "orcs") == [
        ("tie_break", {"opponent": OneOf(("elves",)), "root": OneOf(("Perception",))})
    ]


def _tied_example() -> Table[Any]:
    """examples/kingdoms/artha-and-the-tie-breaker.yaml up to the tie (after the elves' Fate):
    the elves' Logistics (root Perception) against the orcs' Inconspicuous (root Will); each
    leader has Will, the elves Perception too."""
    example = yaml.safe_load((EXAMPLES / "artha-and-the-tie-breaker.yaml").read_text("utf-8"))
    table = Table.start(PROCEDURE, example["setup"], players=example["players"])
    source = ScriptedSource(example["dice"]["script"])
    for step in example["actions"][:7]:
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), source)
    return table


def test_each_side_tests_a_root_stat_of_the_skill_it_used() -> None:
    """Independent and Versus Maneuvers: "a tie-breaker roll may be made by testing the root
    stats for the skills used" (RULINGS.md, Round 3: a root stat of the skill the faction used
    in that test, not any stat on its sheet). The elves used Logistics (Perception): they are
    offered Perception alone, though their leader has Will too, and Will is refused naming
    Logistics' roots; the orcs used Inconspicuous (Will)."""
    table = _tied_example()
    offered = {
        f: [
            c.params["root"]
            for c in PROCEDURE.legal_actions(table.state, f)
            if c.kind == "tie_break"
        ]
        for f in ("elves", "orcs")
    }
    assert offered == {"elves": [OneOf(("Perception",))], "orcs": [OneOf(("Will",))]}
    with pytest.raises(RuleError, match="Logistics' roots are Perception, not 'Will'"):
        _act(table, "elves", "tie_break", opponent="orcs", root="Will")
    with pytest.raises(RuleError, match="Inconspicuous' roots are Will, not 'Perception'"):
        _act(table, "orcs", "tie_break", opponent="elves", root="Perception")


def test_a_side_whose_roller_has_no_root_of_its_skill_cannot_break_the_tie() -> None:
    """Ruling 35: a tie-breaker tests a root of the skill used; a side whose roller has none
    of them on its sheet (the elves without Perception, for Logistics) is offered no
    tie-breaker, and neither is its opponent against it; an offer is refused."""
    example = yaml.safe_load((EXAMPLES / "artha-and-the-tie-breaker.yaml").read_text("utf-8"))
    setup = example["setup"]
    del setup["factions"]["elves"]["leader"]["stats"]["Perception"]
    table = Table.start(PROCEDURE, setup, players=example["players"])
    source = ScriptedSource(example["dice"]["script"])
    for step in example["actions"][:7]:
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), source)
    assert ties_of(table.state) == {frozenset({"elves", "orcs"})}
    for f in ("elves", "orcs"):
        assert "tie_break" not in [c.kind for c in PROCEDURE.legal_actions(table.state, f)]
    with pytest.raises(RuleError, match="the Elves have no root stat of Logistics to test"):
        _act(table, "orcs", "tie_break", opponent="elves", root="Will")


def test_where_the_skill_has_two_roots_the_side_picks_one() -> None:
    """RULINGS.md, Round 3: "where a skill has two roots, the faction picks one of them".
    Tactics (Will/Perception): the orcs, with both, may break a tie on either."""
    state = _revealed("Tactics", elves=("Assault", ("orcs",), 3, 0), orcs=("Fortify", (), 3, 0))
    settled = {f: replace(t, decided=True) for f, t in state.rolls.items()}
    state = replace(state, phase="rolled", reader="elves", rolls=settled)
    (choice,) = [c for c in PROCEDURE.legal_actions(state, "orcs") if c.kind == "tie_break"]
    assert choice.params["root"] == OneOf(("Will", "Perception"))


def _tied_on(skill: str) -> KingdomsState:
    """The elves' Assault of 3 ties the orcs' Fortify of 3, both rolled on ``skill`` and
    settled: the tie-breaker waits."""
    state = _revealed(skill, elves=("Assault", ("orcs",), 3, 0), orcs=("Fortify", (), 3, 0))
    settled = {f: replace(t, decided=True) for f, t in state.rolls.items()}
    return replace(state, phase="rolled", reader="elves", rolls=settled)


def test_a_root_that_is_not_the_skills_is_refused_naming_the_roots_there_are() -> None:
    """Independent and Versus Maneuvers: the tie-breaker tests "the root stats for the skills
    used". Agility is no root of Tactics: refused, naming both of its roots; a skill off the
    text's lists has no root known (ruling 35), and the refusal says so."""
    tie_break = Action("elves", "tie_break", {"opponent": "orcs", "root": "Agility"})
    refusals = []
    for skill in ("Tactics", "Juggling"):
        with pytest.raises(RuleError) as refused:
            PROCEDURE.decide(_tied_on(skill), tie_break, ScriptedSource([]))
        refusals.append(str(refused.value).rsplit(": ", 1)[-1])
    assert refusals == [
        "Tactics' roots are Will/Perception, not 'Agility'",
        "Juggling's roots are none known (a skill off the text's lists), not 'Agility'",
    ]


def _tie_break_labels(state: KingdomsState, faction: str, opponent: str, root: str) -> list[str]:
    params = TieBreak(opponent=opponent, root=root)
    return [p.label for p in tie_break_odds(state, state.factions[faction], params)]


def test_a_tie_breakers_odds_are_against_the_root_the_opponent_agreed_to_or_else_each() -> None:
    """Independent and Versus Maneuvers: the tie-breaker is rolled once both sides agree,
    each on a root of the skill it used. The orcs (Will and Perception, the roots of Tactics)
    tie both the elves and the dwarves. Once the orcs agree with the dwarves on Perception,
    the dwarves' odds are against that root alone; while the orcs' only offer is to the
    elves, the dwarves' odds are against each root the orcs may still choose."""
    state = _revealed(
        "Tactics",
        elves=("Assault", ("orcs",), 3, 0),
        orcs=("Fortify", (), 3, 0),
        dwarves=("Assault", ("orcs",), 3, 0),
    )
    dwarves = replace(state.factions["dwarves"], name="the Dwarves")
    state = replace(state, factions={**state.factions, "dwarves": dwarves}, phase="rolled")
    agreed = replace(state, tie_offers={"orcs": ("dwarves", "Perception")})
    assert _tie_break_labels(agreed, "dwarves", "orcs", "Will") == [
        "the Dwarves: tie-breaker on Will against the Orcs' Perception"
    ]
    elsewhere = replace(state, tie_offers={"orcs": ("elves", "Will")})
    assert _tie_break_labels(elsewhere, "dwarves", "orcs", "Will") == [
        f"the Dwarves: tie-breaker on Will against the Orcs' {root}, if the Orcs agree on {root}"
        for root in ("Will", "Perception")
    ]


def test_no_tie_breaker_odds_against_a_side_that_rolled_no_test() -> None:
    """Independent and Versus Maneuvers: only a tied versus test is broken; against a faction
    that rolled no maneuver test there is nothing to break, and no odds."""
    state = _tied_on("Tactics")
    unrolled = replace(state, rolls={"elves": state.rolls["elves"]})
    assert _tie_break_labels(unrolled, "elves", "orcs", "Will") == []
    assert _tie_break_labels(state, "elves", "orcs", "Will") != []

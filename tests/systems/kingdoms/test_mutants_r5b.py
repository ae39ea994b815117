"""Tests that kill the mutants mutmut left alive in round 5 of issue 13, second wave
(docs/systems/kingdoms.md, "Mutation testing", "Round 5, second wave"): ``scripting.py``'s
tie-breaker pools."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.core import Action, RuleError, Table
from referee.core.checks import BLACK
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.dice import roll_before
from referee.systems.kingdoms.resolution import Entry
from referee.systems.kingdoms.scripting import (
    base_dice,
    entries_of,
    lent_help,
    pool_roll_from,
    second_may_roll,
    tied_pools,
    ties_of,
)
from referee.systems.kingdoms.state import KingdomsState, RolledTest, SceneRecord, Slip

from .test_mutants import PLAYERS, _kingdom
from .test_mutants_fold import _act


def _revealed(**maneuvers: tuple[str, tuple[str, ...], int, int]) -> KingdomsState:
    """The elves, the orcs and the dwarves (the orcs' twin) with their slips revealed and
    rolled: each faction's maneuver, targets, successes and Harry attack dice."""
    state: KingdomsState = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS).state
    factions = {**state.factions, "dwarves": replace(state.factions["orcs"], id="dwarves")}
    slips = {
        f: Slip(f, maneuver, "Logistics", targets)
        for f, (maneuver, targets, _, _) in maneuvers.items()
    }
    rolls = {
        f: RolledTest(f, "leader", "Logistics", 4, successes, attack)
        for f, (_, _, successes, attack) in maneuvers.items()
    }
    return replace(
        state, factions=factions, slips=slips, rolls=rolls, order=tuple(maneuvers), phase="resolve"
    )


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


def test_the_roll_artha_is_spent_on_is_the_roll_as_it_was_rolled() -> None:
    """Artha: Fate and Deeds after the roll work on the roll as rolled — its dice, shade,
    open-endedness, successes and failed dice (a 4 at Black is a success, a 3 fails). An
    open-ended B4 rolls 6, 4, 3, 1 and its 6 again, a 2: 2 successes, 3 failed dice; read back
    from the event every seat receives, it is the same roll."""
    rolled = roll_before(4, BLACK, True, ScriptedSource([6, 4, 3, 1, 2]))
    assert (rolled.successes, rolled.failed, rolled.sixes) == (2, 3, 1)
    assert pool_roll_from(rolled.to_json()) == rolled


def test_leaders_lent_each_other_help_only_in_a_scene_of_one_helped_by_the_other() -> None:
    """Help: "Those Faction's Leaders lent each other helping dice in a scene during the
    Maneuver". The elves and the orcs each helped by the dwarves, the dwarves helped by both:
    the elves and the orcs lent each other nothing; the orcs' scene helped by the elves is
    help lent between them, whichever is named first."""
    state = _revealed()
    others = replace(
        state,
        scenes=(
            SceneRecord("elves", "building", helpers=("dwarves",)),
            SceneRecord("orcs", "building", helpers=("dwarves",)),
            SceneRecord("dwarves", "building", helpers=("elves", "orcs")),
        ),
    )
    assert not lent_help(others, "elves", "orcs")
    lent = replace(state, scenes=(SceneRecord("orcs", "building", helpers=("elves",)),))
    assert lent_help(lent, "elves", "orcs")
    assert lent_help(lent, "orcs", "elves")


def test_a_second_may_roll_after_two_thirds_of_the_building_rolls_not_counting_conflicts() -> None:
    """Seconds in Command: the 2iC may roll the maneuver test if it made two thirds of the
    faction's building rolls. The elves' only building roll, made by the 2iC, and a conflict
    the leader initiated: the 2iC made every building roll and may roll."""
    state = replace(
        _revealed(),
        scenes=(
            SceneRecord("elves", "building", by="second"),
            SceneRecord("elves", "conflict", by="leader", target="orcs"),
        ),
    )
    assert second_may_roll(state, "elves")


def test_a_fork_adds_a_die_before_the_split() -> None:
    """FoRKs: +1D for a FoRKed skill of exponent 6 or less (a leader's skills are capped at
    6). The elves' Logistics B4 FoRKing Inconspicuous B6 rolls 5 dice before Harry's split."""
    skills = {"Logistics": "B4", "Inconspicuous": "B6"}
    table = Table.start(PROCEDURE, _kingdom({}, skills=skills), players=PLAYERS)
    elves = table.state.factions["elves"]
    assert base_dice(elves, elves.leader, 4, ("Inconspicuous",), 0, False) == 5


def test_a_second_in_commands_superficial_wound_adds_one_to_its_maneuvers_ob() -> None:
    """Wounds: a Superficial wound is +1 Ob — the wound of the character who rolled. The
    elves' 2iC (Superficial) rolled their Assault with its skill of exponent 5: the Assault
    is resolved at +1 Ob with the 2iC's exponent; the orcs' unwounded leader at +0."""
    state = _revealed(elves=("Assault", ("orcs",), 3, 0), orcs=("Fortify", (), 2, 0))
    elves = state.factions["elves"]
    second = replace(elves.leader, name="Thalion", superficial=True)
    state = replace(
        state,
        factions={**state.factions, "elves": replace(elves, second=second)},
        rolls={**state.rolls, "elves": RolledTest("elves", "second", "Logistics", 5, 3)},
    )
    entries = entries_of(state)
    assert entries["elves"] == Entry("elves", "Assault", ("orcs",), 3, 0, 5, 0, ob_penalty=1)
    assert entries["orcs"] == Entry("orcs", "Fortify", (), 2, 0, 4, 0, ob_penalty=0)


def test_only_a_versus_test_with_equal_successes_is_tied() -> None:
    """Independent and Versus Maneuvers: a tie-breaker is offered for a versus test whose two
    sides have equal successes. The elves' Assault of 3 against the orcs' Fortify of 2 is no
    tie; of 3 against 3, it is."""
    beaten = _revealed(elves=("Assault", ("orcs",), 3, 0), orcs=("Fortify", (), 2, 0))
    assert ties_of(beaten) == set()
    tied = _revealed(elves=("Assault", ("orcs",), 3, 0), orcs=("Fortify", (), 3, 0))
    assert ties_of(tied) == {frozenset({"elves", "orcs"})}


def test_a_refused_slip_names_the_maneuvers_rule() -> None:
    """A refusal names the rule that refuses it: a Harry names at most one target (Harry)."""
    table = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS)
    with pytest.raises(RuleError) as refused:
        _act(
            table,
            "orcs",
            "write_slip",
            maneuver="Harry",
            skill="Logistics",
            targets=["elves", "elves"],
        )
    assert refused.value.rule == "Harry"


def test_a_sapped_faction_owes_maintenance_at_the_margin_over_the_ob_even_in_consequences() -> None:
    """Sap; Downtime: the Sapped target owes a Resources maintenance test at +margin Ob, and
    may take it while a defeated faction's consequences are pending. The elves (Resources B3)
    owe one at +2: Ob 3, rolled 4, 4, 1 — 2 successes, failed."""
    state = Table.start(PROCEDURE, _kingdom({}, resources=3), players=PLAYERS).state
    elves = replace(state.factions["elves"], maintenance=(2,))
    state = replace(state, phase="consequences", factions={**state.factions, "elves": elves})
    (tested,) = PROCEDURE.decide(
        state, Action("elves", "maintenance", {}), ScriptedSource([4, 4, 1])
    )
    assert {k: tested.payload[k] for k in ("ob", "extra_ob", "dice", "successes", "passed")} == {
        "ob": 3,
        "extra_ob": 2,
        "dice": 3,
        "successes": 2,
        "passed": False,
    }


def test_a_roll_already_settled_or_never_rolled_cannot_be_kept() -> None:
    """Artha: a faction keeps its roll once, while it waits for after-the-roll artha. The
    elves' roll is settled, the orcs rolled nothing: keeping either is refused."""
    state = _revealed(elves=("Fortify", (), 3, 0))
    settled = replace(state.rolls["elves"], decided=True)
    state = replace(state, phase="rolled", rolls={"elves": settled})
    for faction in ("elves", "orcs"):
        with pytest.raises(RuleError):
            PROCEDURE.decide(state, Action(faction, "keep", {}), ScriptedSource([]))

"""Gin Lane's fight played on the dice gives the same encounters, outcome for outcome and action
for action, as the fight played through the procedure with the same seed
(``referee.systems.ginlane.fight_dice``): every setup below (duels, melees, a move before the
first blow), either side winning, cut short at every step of the first turns; a fight that is
not one it plays goes through the procedure."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from referee.core import REFEREE, Action, Table, system
from referee.core.loader import load_file
from referee.core.policies import default_policy
from referee.core.simulation import conflict_of
from referee.dice import RandomSource, ScriptedSource
from referee.sim.simulate import play, simulate
from referee.systems.ginlane.fight_dice import FightOnDice, fight_on_dice
from referee.systems.ginlane.scene import SceneState
from referee.systems.ginlane.stress import Consequences, TakenConsequence
from tests.sim.duels import ginlane_duel as duel
from tests.sim.procedure import both_ways, cut_alike

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "ginlane"

STRONG = {"Weapons": 3, "Agility": 2, "Alertness": 2, "Endurance": 1, "Resolve": 1, "Brawl": 1}
FAIR = {"Weapons": 2, "Agility": 1, "Alertness": 1}
BRAWLER = {"Brawl": 2, "Agility": 1, "Alertness": 1}


def _no_slot_free(state: SceneState) -> SceneState:
    """Jack's three Consequence slots full (from an earlier scene): a hit on him is taken at
    once, with nothing asked."""
    taken = tuple(
        TakenConsequence(severity, f"Hurt {severity}", "Health")
        for severity in ("slight", "moderate", "heavy")
    )
    jack = state.get("jack")
    return state.put(dataclasses.replace(jack, consequences=Consequences(taken)))


def _marked(state: SceneState) -> SceneState:
    """Moll's Health boxes 2 and 3 and Jack's 1 ticked before the fight (counted as damage)."""
    for cid, boxes in (("moll", (2, 3)), ("jack", (1,))):
        me = state.get(cid)
        health = me.track("Health")
        health = dataclasses.replace(
            health, boxes=tuple(i + 1 in boxes for i in range(health.length))
        )
        tracks = tuple(health if t.name == "Health" else t for t in me.tracks)
        state = state.put(dataclasses.replace(me, tracks=tracks))
    return state


def _melee(zones: tuple[str, ...]) -> dict[str, Any]:
    """Kit (a cosh) and, with four, Ann (fists) of the society against Bob and Sal (fists) of
    the mob, each in the zone given, the parlour and the hall a clear step apart."""
    people = {
        "kit": {"side": "society", "weapon": "cosh", "skills": FAIR},
        "bob": {"side": "mob", "skills": {"Agility": 1, "Alertness": 1}},
        "sal": {"side": "mob", "skills": {"Agility": 1}},
        "ann": {"side": "society", "skills": BRAWLER},
    }
    chosen = dict(zip(people, zones, strict=False))
    return {
        "zones": sorted(set(zones)),
        "links": [["hall", "parlour"]] if len(set(zones)) > 1 else [],
        "characters": {cid: {**people[cid], "zone": zone} for cid, zone in chosen.items()},
    }


SETUPS: dict[str, tuple[dict[str, Any], Any]] = {
    "the duel at the Crown": (load_file(EXAMPLES / "duel.yaml")["setup"], None),
    "equal Alertness: Initiative often tied": (duel(FAIR, FAIR), None),
    "the second in the order the stronger": (
        duel({"Agility": 1}, STRONG, ("knife", "sword")),
        None,
    ),
    "fists: a Match deals nothing": (duel(BRAWLER, {"Brawl": 1}, ("fists", "fists")), None),
    "a pistol against a cudgel": (
        duel({"Firearms": 2, "Agility": 1, "Alertness": 1}, FAIR, ("pistol", "cudgel")),
        None,
    ),
    "a thrown knife against a blunderbuss at no range": (
        duel(
            {"Agility": 2, "Alertness": 1, "Brawl": 1},
            FAIR | {"Firearms": 1},
            ("thrown knife", "blunderbuss"),
        ),
        None,
    ),
    "two against one in one zone": (_melee(("taproom", "taproom", "taproom")), None),
    "two zones: a move before the first blow": (_melee(("parlour", "hall", "hall")), None),
    "two zones, two sides of two: one falls, the fight goes on": (
        _melee(("parlour", "hall", "hall", "parlour")),
        None,
    ),
    "option b (nothing tagged, nothing re-rolled)": ({**duel(STRONG, FAIR), "mode": "b"}, None),
    "no Consequence slot free: every hit taken at once": (duel(FAIR, FAIR), _no_slot_free),
    "Health boxes ticked before the fight": (duel(STRONG, FAIR), _marked),
}


def _table(name: str) -> Table[SceneState]:
    setup, change = SETUPS[name]
    table: Table[SceneState] = system("ginlane").new_table(setup)
    return table if change is None else dataclasses.replace(table, state=change(table.state))


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_the_same_encounters_as_through_the_procedure(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = _table(name)
    procedure, on_dice = both_ways(table, monkeypatch, runs=40, seed=5)
    assert on_dice.outcomes == procedure.outcomes
    assert on_dice.to_json() == procedure.to_json()
    assert on_dice.actions == procedure.actions


def test_the_setups_see_every_side_win_and_a_fight_go_on_past_a_fall() -> None:
    """What the comparisons above cover: each side winning, and a fight of four where one is
    Taken Out and the others fight on (her turns passed over)."""
    winners: set[str] = set()
    for name in SETUPS:
        winners |= set(simulate(_table(name), runs=40, seed=5).wins)
    assert winners == {"society", "bravoes", "mob"}
    four = simulate(_table("two zones, two sides of two: one falls, the fight goes on"), runs=40)
    assert any(o.extra["taken_out"] >= 2 for o in four.outcomes)


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_cut_short_at_every_step_of_the_first_turns(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cut_alike(_table(name), monkeypatch, most=12, runs=8)


def test_an_initiative_tie_rolled_again() -> None:
    """Equal Alertness: 3 + 3 each, a tie, rolled again by both (1 + 1 against 6 + 6): Jack
    goes first. The same faces through the procedure and on the dice."""
    table = _table("equal Alertness: Initiative often tied")
    faces = [3, 3, 3, 3, 1, 1, 6, 6] + [6, 6, 1, 1, 2, 2, 5, 5, 4, 1, 1, 4] * 8
    conflict = conflict_of(table)
    through, steps = play(table, conflict, default_policy, ScriptedSource(faces), random.Random(0))[
        :2
    ]
    alike = fight_on_dice(table)
    assert alike is not None
    assert alike(ScriptedSource(faces), 2_000) == (through, steps)
    started = table.act(Action(REFEREE, "initiative", {}), ScriptedSource(faces[:8]))
    assert started.state.order == ("jack", "moll")


EXAMPLE_FIGHTS = ("ambush", "consequence", "duel", "grapple", "grenade", "hold")


@pytest.mark.parametrize("example", EXAMPLE_FIGHTS)
def test_the_examples_the_same_and_played_on_the_dice(
    example: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = system("ginlane").new_table(load_file(EXAMPLES / f"{example}.yaml")["setup"])
    procedure, on_dice = both_ways(table, monkeypatch, runs=30, seed=0)
    assert on_dice.to_json() == procedure.to_json()
    acted: list[int] = []
    original = type(table).act
    monkeypatch.setattr(type(table), "act", lambda t, *a: acted.append(1) or original(t, *a))
    simulate(table, runs=30, seed=0)
    assert acted == []  # no encounter through the procedure


@pytest.mark.parametrize("example", ["pyramid", "ritual"])
def test_the_other_examples_through_the_procedure(example: str) -> None:
    table = system("ginlane").new_table(load_file(EXAMPLES / f"{example}.yaml")["setup"])
    assert fight_on_dice(table) is None


def test_not_such_a_fight_through_the_procedure() -> None:
    table = _table("equal Alertness: Initiative often tied")
    assert isinstance(fight_on_dice(table), FightOnDice)
    started = table.act(Action(REFEREE, "initiative", {}), RandomSource(0))
    assert fight_on_dice(started) is None  # a fight under way
    friends = duel(FAIR, FAIR)
    friends["characters"]["jack"]["side"] = "society"
    assert fight_on_dice(system("ginlane").new_table(friends)) is None  # one side
    apart = {**duel(FAIR, FAIR), "zones": ["taproom", "yard"], "links": [["taproom", "yard"]]}
    apart["characters"]["jack"]["zone"] = "yard"
    assert fight_on_dice(system("ginlane").new_table(apart)) is not None  # a step apart
    shot = {**apart, "characters": {**apart["characters"]}}
    shot["characters"]["moll"] = {**shot["characters"]["moll"], "weapon": "pistol"}
    assert fight_on_dice(system("ginlane").new_table(shot)) is None  # a shot across the two
    unlinked = {**apart, "links": []}
    assert fight_on_dice(system("ginlane").new_table(unlinked)) is None  # no way between
    rough = {**apart, "links": [["taproom", "yard", 2]]}
    assert fight_on_dice(system("ginlane").new_table(rough)) is None  # no clear way: Sprint
    three = _melee(("parlour", "hall", "hall"))
    three["zones"].append("cellar")
    three["characters"]["sal"]["zone"] = "cellar"
    three["links"].append(["hall", "cellar"])
    assert fight_on_dice(system("ginlane").new_table(three)) is None  # three zones


def test_the_random_policy_through_the_procedure(monkeypatch: pytest.MonkeyPatch) -> None:
    table = _table("equal Alertness: Initiative often tied")
    played = []
    monkeypatch.setattr(FightOnDice, "__call__", lambda *a: played.append(1))
    simulate(table, runs=3, seed=0, policy="random")
    assert played == []

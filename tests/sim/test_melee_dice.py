"""The Hursagmu melee played on the dice gives the same encounters, outcome for outcome, as the
melee played through the procedure with the same seed (``referee.systems.hursagmu.melee_dice``):
every example it plays, ties at Initiative, a blow on one already down, a 1d6 damage roll, cut
short at every step of the first rounds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.core import Action, system
from referee.core.loader import load_file
from referee.core.simulation import conflict_of
from referee.dice import RandomSource, ScriptedSource
from referee.sim.simulate import simulate
from referee.systems.hursagmu.melee_dice import MeleeOnDice
from tests.sim.procedure import both_ways, cut_alike

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "hursagmu"
ALONE = ("insane-wizard-pushes", "mighty-warrior-pushes")
"""The examples of one character: no melee to play."""
PLAYED = sorted(p.stem for p in EXAMPLES.glob("*.yaml") if p.stem not in ALONE)


def twin(**sheet: Any) -> dict[str, Any]:
    """A plain fighter: the same Quickness as his twin (ties at Initiative are common)."""
    return {
        "dexterity": 1,
        "strength": 1,
        "weapon": 2,
        "stamina": 8,
        "skills": {"quickness": 0, "striking": 2, "defense": 2},
        **sheet,
    }


SETUPS = {
    "twins: ties at Initiative": {"characters": {"ann": twin(), "bob": twin()}},
    "three who fall at a blow: blows on one already down": {
        "characters": {"ann": twin(stamina=2), "bob": twin(stamina=2), "cid": twin(stamina=2)}
    },
    "a 1d6 damage roll, hits below Stamina": {
        "options": {"damage_roll": "1d6"},
        "characters": {"ann": twin(hits=5), "bob": twin(weapon=0, strength=0)},
    },
}


def table_of(name: str) -> Any:
    if name in SETUPS:
        return system("hursagmu").new_table(SETUPS[name])
    data = load_file(EXAMPLES / f"{name}.yaml")
    return system("hursagmu").new_table(data["setup"], players=data.get("players"))


@pytest.mark.parametrize("name", [*PLAYED, *sorted(SETUPS)])
def test_the_same_encounters_as_through_the_procedure(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    procedure, on_dice = both_ways(table_of(name), monkeypatch, runs=30, seed=5)
    assert on_dice.outcomes == procedure.outcomes
    assert on_dice.to_json() == procedure.to_json()


def test_from_a_later_rounds_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bob against Fred's scripted first round (three steps declared, hits lost), then the
    melee from round 2's start: its rounds and damage counted from there."""
    data = load_file(EXAMPLES / "bob-against-fred.yaml")
    table = table_of("bob-against-fred")
    dice = ScriptedSource(data["dice"]["script"])
    for step in data["actions"]:
        table = table.act(Action(step["actor"], step["action"], step.get("params", {})), dice)
    assert table.state.round == 2 and table.state.fighters["fred"].hits == 4
    procedure, on_dice = both_ways(table, monkeypatch, runs=30, seed=3)
    assert on_dice.outcomes == procedure.outcomes
    assert on_dice.to_json() == procedure.to_json()


def test_feeble_blows_never_end_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Strength -13 and no weapon: a hit does no damage (it never heals), and every encounter is
    unfinished at the step limit."""
    feeble = twin(strength=-13, weapon=0)
    table = system("hursagmu").new_table({"characters": {"ann": feeble, "bob": feeble}})
    procedure, on_dice = both_ways(table, monkeypatch, runs=4, seed=1, max_steps=300)
    assert on_dice.outcomes == procedure.outcomes
    assert on_dice.unfinished == 4 and on_dice.actions == 4 * 300


def test_a_feeble_blow_does_no_damage_and_never_heals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Strength -8 and no weapon: a hit deals -6 to 4, most of them nothing."""
    feeble = twin(strength=-8, weapon=0, stamina=3)
    table = system("hursagmu").new_table({"characters": {"ann": feeble, "bob": feeble}})
    procedure, on_dice = both_ways(table, monkeypatch, runs=12, seed=4, max_steps=400)
    assert on_dice.outcomes == procedure.outcomes
    assert on_dice.unfinished < 12


def test_either_side_wins_and_ties_are_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the comparisons cover: both fighters win some encounters, and melees of five
    rounds and more are played."""
    procedure, on_dice = both_ways(table_of("bob-against-fred"), monkeypatch, runs=60, seed=1)
    assert on_dice.outcomes == procedure.outcomes
    assert set(on_dice.wins) == {"bob", "fred"}
    assert max(on_dice.rounds_seen) >= 5


@pytest.mark.parametrize(
    "name", ["bob-against-fred", "waiting-game", *sorted(SETUPS)], ids=lambda n: n[:20]
)
def test_cut_short_at_every_step_of_the_first_rounds(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cut_alike(table_of(name), monkeypatch, most=14, runs=6)


def test_the_example_played_on_the_dice_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    table = table_of("bob-against-fred")
    acted: list[int] = []
    original = type(table).act
    monkeypatch.setattr(type(table), "act", lambda t, *a: acted.append(1) or original(t, *a))
    report = simulate(table, runs=50, seed=0)
    assert acted == []  # no encounter through the procedure
    assert report.actions > 50 * 6


def test_not_the_melee_through_the_procedure() -> None:
    table = table_of("bob-against-fred")
    conflict = conflict_of(table)
    assert conflict.played_alike is not None
    assert isinstance(conflict.played_alike(table, None), MeleeOnDice)
    rolled = table.act(Action("bob", "initiative", {"stance": "maneuver"}), RandomSource(0))
    assert conflict.played_alike(rolled, None) is None  # a round under way
    cinematic = system("hursagmu").new_table(
        {"options": {"defence": "cinematic"}, "characters": {"ann": twin(), "bob": twin()}}
    )
    assert conflict.played_alike(cinematic, None) is None  # a defence counts once a round
    alone = system("hursagmu").new_table({"characters": {"ann": twin()}})
    assert conflict.played_alike(alone, None) is None  # nobody to fight
    down = system("hursagmu").new_table({"characters": {"ann": twin(), "bob": twin(hits=0)}})
    assert conflict.played_alike(down, None) is None  # over before it begins


def test_the_random_policy_through_the_procedure(monkeypatch: pytest.MonkeyPatch) -> None:
    table = table_of("bob-against-fred")
    played = []
    monkeypatch.setattr(MeleeOnDice, "__call__", lambda *a: played.append(1))
    simulate(table, runs=3, seed=0, policy="random", max_steps=40)
    assert played == []

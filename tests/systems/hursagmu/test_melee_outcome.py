"""What the simulator counts of a melee ("Action"): the hits each fighter lost, the rounds
played since the start, and no winner named while both are still conscious."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.core import system
from referee.core.loader import load_file
from referee.core.scenario import load_scenario, run_scenario
from referee.core.simulation import EncounterOutcome
from referee.systems.hursagmu.simulation import outcome

SCENARIO = Path(__file__).resolve().parents[3] / "examples" / "hursagmu" / "bob-against-fred.yaml"


def _start() -> Any:
    return system("hursagmu").new_table(load_file(SCENARIO)["setup"])


def test_a_melee_not_yet_over_counts_the_hits_lost_and_names_no_winner() -> None:
    # bob-against-fred.yaml: after its two rounds bob has 9 of 20 hits, fred 4 of 25.
    played = run_scenario(load_scenario(SCENARIO)).table
    assert outcome(_start(), played) == EncounterOutcome(
        "unfinished", 2, {"bob": 11, "fred": 21}, finished=False
    )


def test_a_melee_at_its_start_has_cost_nobody_a_hit_in_its_one_round() -> None:
    start = _start()
    assert outcome(start, start) == EncounterOutcome(
        "unfinished", 1, {"bob": 0, "fred": 0}, finished=False
    )

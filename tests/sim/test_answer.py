"""One answer for an interface (``referee.sim.answer``): the simulation and, beside it, the
exact odds of the game's own model (what was the module's example)."""

from __future__ import annotations

from referee.core import system
from referee.sim.answer import answer, why_not_exact
from referee.sim.simulate import simulate

SETUP = {
    "characters": {
        "ann": {"name": "Ann", "number": 11, "combat": 2, "strength": 3, "stamina": 4},
        "bob": {"name": "Bob", "number": 12, "combat": 1, "strength": 2, "stamina": 4},
    }
}


def test_an_answer_holds_the_simulation_and_the_exact_odds() -> None:
    result = answer(system("intrigue").new_table(SETUP), runs=50, seed=1)
    assert (result["exact"]["exact"], result["simulation"]["runs"]) == (True, 50)


def test_a_duel_has_an_exact_answer() -> None:
    ann = {"name": "Ann", "number": 11, "combat": 2, "strength": 3, "stamina": 4}
    bob = {**ann, "name": "Bob", "number": 12}
    duel = system("intrigue").new_table({"characters": {"ann": ann, "bob": bob}})
    assert why_not_exact(duel) is None


def test_every_encounter_simulated_has_a_winner() -> None:
    report = simulate(system("intrigue").new_table(SETUP), runs=20, seed=1)
    assert (report.runs, sum(report.wins.values())) == (20, 20)

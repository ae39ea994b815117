"""An exact model's solve pauses Python's cycle collector while it works
(``referee.core.markov.collector_paused``), and solves in several threads at once — a server's —
keep it paused while any of them works and set it going when the last ends."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from referee.core.markov import collector_paused


@pytest.fixture(autouse=True)
def _collector_going() -> Iterator[None]:
    gc.enable()
    yield
    gc.enable()


def test_a_solve_pauses_the_collector_and_sets_it_going_after() -> None:
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_paused_before_stays_paused() -> None:
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_overlapping_solves_keep_it_paused_until_the_last_ends() -> None:
    """The first solve ends while the second still works: the second is still paused, and the
    collector goes again once it ends."""
    second_started, first_ended = threading.Event(), threading.Event()
    seen: dict[str, bool] = {}

    def first() -> None:
        with collector_paused():
            second_started.wait(10)

    def second() -> None:
        with collector_paused():
            second_started.set()
            first_ended.wait(10)
            seen["second, after the first ended"] = gc.isenabled()

    one = threading.Thread(target=first)
    one.start()
    while gc.isenabled():  # the first has paused it
        threading.Event().wait(0.001)
    two = threading.Thread(target=second)
    two.start()
    one.join(10)
    first_ended.set()
    two.join(10)
    assert seen == {"second, after the first ended": False}
    assert gc.isenabled()


def test_a_simulation_pauses_it_while_each_encounter_is_played() -> None:
    """Paused through every encounter's actions, going between encounters and after."""
    from referee.core import system
    from referee.sim.simulate import simulate

    table = system("intrigue").new_table(
        {
            "characters": {
                "ann": {"name": "Ann", "number": 11, "combat": 2, "strength": 2, "stamina": 5},
                "bob": {"name": "Bob", "number": 12, "combat": 1, "strength": 2, "stamina": 6},
            }
        }
    )
    acting: list[bool] = []
    between: list[bool] = []
    original = type(table).act

    def act(t: object, *args: object) -> object:
        acting.append(gc.isenabled())
        return original(t, *args)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(type(table), "act", act)
        simulate(
            table,
            runs=3,
            seed=0,
            policy="random",
            progress=lambda _: between.append(gc.isenabled()),
        )
    assert acting and not any(acting)
    assert between == [True, True, True]
    assert gc.isenabled()

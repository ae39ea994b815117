"""Procedures and tables (docs/kernel.md, "Procedures"): replay gives the same state, undo is a
shorter replay, rules refuse; what a procedure gives by default."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import (
    MINUTE,
    REFEREE,
    Action,
    ActionError,
    ActorId,
    Event,
    Log,
    RuleError,
    ScenarioError,
    Table,
    Viewer,
    get_system,
    register_system,
    systems,
)
from referee.core.fairness import DiceSeeds
from referee.dice import DiceSourceError, RandomSource, ScriptedSource

from .helpers import _Count, _Counter, _Shade
from .toy_procedure import PROCEDURE, ToyState

SETUP: dict[str, Any] = {
    "characters": {
        "scarface": {"skill": 2, "envelope": "owes the Guild"},
        "krockin": {"skill": 1, "envelope": "a Guild spy"},
        "edith": {"skill": 0},
    }
}

steps = st.lists(
    st.tuples(
        st.integers(0, 50), st.integers(0, 50), st.sampled_from([0, 0, 60, 7 * MINUTE, 3600])
    ),
    max_size=25,
)


def play(seed: int, plan: list[tuple[int, int, int]]) -> list[Table[ToyState]]:
    dice = RandomSource(seed)
    rng = random.Random(seed)
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy")
    tables = [table]
    for who, which, wait in plan:
        actors = PROCEDURE.actors(table.state)
        actor = actors[who % len(actors)]
        legal = table.legal_actions(actor)
        action = legal[which % len(legal)].sample(rng)
        table = table.act(action, dice, at=table.now + wait)
        tables.append(table)
    return tables


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), steps)
def test_replay_of_a_random_legal_play_gives_the_same_table(
    seed: int, plan: list[tuple[int, int, int]]
) -> None:
    tables = play(seed, plan)
    final = tables[-1]
    replayed = Table.replay(PROCEDURE, SETUP, final.log)
    assert (replayed.state, replayed.log, replayed.clock) == (final.state, final.log, final.clock)
    # the log survives JSON and still replays, without any dice source
    log = Log.from_json(json.loads(json.dumps(final.log.to_json())))
    assert Table.replay(PROCEDURE, SETUP, log).state == final.state
    # the whole record survives JSON and is re-decided with its recorded dice
    record = json.loads(json.dumps(final.to_record()))
    assert Table.from_record(record, PROCEDURE) == final
    # undo takes actions back: it goes back to each earlier table
    for earlier in tables:
        assert final.undo(len(final.actions) - len(earlier.actions)) == earlier


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), steps)
def test_apply_agrees_with_the_table(seed: int, plan: list[tuple[int, int, int]]) -> None:
    tables = play(seed, plan[:5])
    table = tables[-1]
    action = table.legal_actions("scarface")[0].sample(random.Random(seed))
    state, events = PROCEDURE.apply(table.state, action, RandomSource(seed))
    again = table.act(action, RandomSource(seed))
    assert again.state == state
    assert [e.kind for e in events] == [e.kind for e in again.log.events[len(table.log) :]]


def test_events_are_numbered_and_stamped_with_game_time() -> None:
    table = Table.start(PROCEDURE, SETUP)
    table = table.act(
        Action("scarface", "perceive", {"target": "krockin"}), ScriptedSource([6, 6, 6])
    )
    table = table.act(Action("krockin", "note", {"text": "x"}), None, at=5 * MINUTE)
    assert [(e.number, e.at, e.kind) for e in table.log] == [
        (1, 0, "timer.set"),
        (2, 0, "perception.made"),
        (3, 0, "timer.set"),
        (4, 300, "clock.advanced"),
        (5, 300, "note.made"),
    ]
    assert table.log.events[1].data["faces"] == [6, 6, 6]
    assert table.now == 300


def test_timers_fire_as_game_time_passes_them() -> None:
    table = Table.start(PROCEDURE, SETUP)
    table = table.act(
        Action("scarface", "perceive", {"target": "krockin"}), ScriptedSource([1, 1, 1])
    )
    assert ("scarface", "krockin") in table.state.cooldowns
    assert not any(
        c.kind == "perceive" and c.params["target"].contains("krockin")
        for c in table.legal_actions("scarface")
    )
    table = table.advance(14 * MINUTE)
    assert ("scarface", "krockin") in table.state.cooldowns
    table = table.advance(15 * MINUTE)
    assert ("scarface", "krockin") not in table.state.cooldowns
    assert table.log.events[-2].kind == "perception.ready"
    assert table.log.events[-2].at == 15 * MINUTE
    assert not table.state.alarm_rang
    table = table.advance(3 * 3600)
    assert table.state.alarm_rang
    assert table.clock.timers == ()
    assert table.advance(3 * 3600) is table


def test_an_illegal_action_raises_rule_error_naming_the_rule() -> None:
    table = Table.start(PROCEDURE, SETUP)
    table = table.act(
        Action("scarface", "perceive", {"target": "krockin"}), ScriptedSource([1, 1, 1])
    )
    with pytest.raises(
        RuleError, match=r"^Toy: perception cooldown: scarface perceived krockin"
    ) as info:
        table.act(Action("scarface", "perceive", {"target": "krockin"}), ScriptedSource([1, 1, 1]))
    assert info.value.rule == "Toy: perception cooldown"
    with pytest.raises(ActionError, match=r"^dance: no such action \(actions: attack, "):
        table.act(Action("scarface", "dance"), None)
    with pytest.raises(RuleError, match="Clock"):
        table.advance(100).advance(50)


def test_a_scripted_source_that_runs_out_fails_loudly_and_changes_nothing() -> None:
    table = Table.start(PROCEDURE, SETUP)
    with pytest.raises(DiceSourceError, match="ran out"):
        table.act(Action("scarface", "attack", {"target": "krockin"}), ScriptedSource([3, 3, 3]))
    with pytest.raises(DiceSourceError, match="without dice"):
        table.act(Action("scarface", "attack", {"target": "krockin"}), None)
    assert len(table.log) == 1


def test_setup_errors_name_the_field() -> None:
    with pytest.raises(ScenarioError, match=r"^characters\.a\.skill: "):
        Table.start(PROCEDURE, {"characters": {"a": {"skill": "x"}, "b": {}}})


def test_registry_finds_registered_systems_and_refuses_unknown_ones() -> None:
    assert get_system("kernel_toy") is PROCEDURE
    assert "kernel_toy" in systems()
    with pytest.raises(ScenarioError, match=r"^system: no game system 'no_such_game'"):
        get_system("no_such_game")
    with pytest.raises(ScenarioError, match=r"^system: no game system 'Bad Name'"):
        get_system("Bad Name")
    with pytest.raises(ValueError):
        register_system("Bad Name", PROCEDURE)
    with pytest.raises(TypeError):
        register_system("nothing", object())  # type: ignore[arg-type]


def test_the_registry_lists_every_game_without_importing_it_and_imports_nothing_else() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from referee.core import systems, system\n"
        "names = systems()\n"
        "games = ('referee.systems.', 'referee_toy')\n"
        "print(sorted(names), [m for m in sys.modules if m.startswith(games)])\n"
        "try:\n"
        "    system('json.decoder')\n"
        "except Exception as e:\n"
        "    print(type(e).__name__, 'json.decoder' in sys.modules and 'imported' or 'no')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    # the five games and the example installed as a package of its own (docs/new-game.md)
    assert out[0] == "['ginlane', 'hursagmu', 'intrigue', 'kingdoms', 'toy', 'zweihander'] []"
    assert out[1].startswith("ScenarioError")


def test_kernel_events_never_reach_evolve() -> None:
    class Strict(type(PROCEDURE)):  # type: ignore[misc]
        def evolve(self, state: ToyState, event: Event) -> ToyState:
            assert not event.kind.startswith(("timer.", "clock."))
            return super().evolve(state, event)

    table = Table.start(Strict(), SETUP).advance(3 * 3600)
    assert table.state.alarm_rang


def test_decide_reads_the_game_time_from_the_action() -> None:
    seen: list[int | None] = []

    class Clocked(type(PROCEDURE)):  # type: ignore[misc]
        def decide(self, state: ToyState, action: Action, dice: Any) -> Any:
            seen.append(action.at)
            return super().decide(state, action, dice)

    table = Table.start(Clocked(), SETUP).act(Action("scarface", "note"), None, at=90)
    table.act(Action("scarface", "note"), None)
    assert seen == [90, 90]
    assert Action("a", "b", at=5) == Action("a", "b")
    assert Action("a", "b", at=5).to_json()["at"] == 5


# -- what a procedure gives by default -----------------------------------------------------------


def test_an_action_in_json_is_its_actor_kind_and_parameters_and_its_time_when_set() -> None:
    """Procedures (docs/kernel.md): an action is ``{"actor", "kind", "params"}``, with ``"at"``
    once the table has set its time."""
    perceive = Action("scarface", "perceive", {"target": "krockin"})
    assert perceive.to_json() == {
        "actor": "scarface",
        "kind": "perceive",
        "params": {"target": "krockin"},
    }
    timed = Action("scarface", "rally", {"shade": _Shade.GREY}, at=600)
    assert timed.to_json() == {
        "actor": "scarface",
        "kind": "rally",
        "params": {"shade": "grey"},
        "at": 600,
    }


def test_by_default_the_state_is_exported_whole_and_shown_to_the_referee_alone() -> None:
    """Procedures (``state_json``, ``visible_state`` by default): the state as JSON — an
    object as it is, anything else under ``"state"`` — for the referee; nothing for a
    player."""
    counter = _Counter()
    assert counter.state_json(3) == {"state": 3}
    assert counter.state_json(_Count(3)) == {"value": 3}
    assert counter.visible_state(_Count(3), Viewer(REFEREE)) == {"value": 3}
    assert counter.visible_state(_Count(3), Viewer("alice", frozenset({"ann"}))) is None


def test_the_referee_is_no_character_a_player_may_play() -> None:
    """Procedures (``characters``, by default): the actors of the state, but never the
    referee — a seat each for the others."""

    class _Refereed(_Counter):
        def actors(self, state: Any) -> Sequence[ActorId]:
            return ("ann", REFEREE, "bob")

    assert tuple(_Refereed().characters(0)) == ("ann", "bob")


def test_the_state_is_the_fold_of_every_event_the_fair_dice_ones_too() -> None:
    """The table (docs/kernel.md): the state is the fold of the whole log from the initial
    state; the fair-dice events are folded into the game's state as well as the dice ledger."""
    counted = Table.start(_Counter(), {"start": 0}, dice=DiceSeeds("t-1", (bytes([1]) * 32,)))
    assert [e.kind for e in counted.log] == ["dice.committed"]
    assert counted.state == 1
    assert counted.ledger != Table.start(_Counter(), {"start": 0}).ledger


# -- a refusal -----------------------------------------------------------------------------------


def test_a_refusal_carries_its_rule_reason_kind_and_path() -> None:
    """A refused action names the rule and the reason apart (a scenario matches on them), and a
    malformed one its kind and the dotted path to the bad parameter."""
    from referee.core import ActionError, RuleError

    rule = RuleError("Perception cooldown", "checked 5 minutes ago")
    assert (rule.rule, rule.reason) == ("Perception cooldown", "checked 5 minutes ago")
    bad = ActionError("perceive", ("target", 0), "not a character")
    assert (bad.kind, bad.path, bad.reason) == ("perceive", ("target", 0), "not a character")
    assert str(bad) == "perceive.target.0: not a character"
    assert str(ScenarioError("expected an integer", ("dice", "seed"))) == (
        "dice.seed: expected an integer"
    )


def test_a_procedure_with_neither_handlers_nor_decide_says_so_when_asked_to_act() -> None:
    """The kernel's guard (``Procedure.build``): a game must name its handlers or write its own
    ``decide``; one that does neither is told which, instead of recursing forever."""
    from referee.core import Choice, Procedure

    class Undecided(Procedure[int]):
        def initial_state(self, setup: Any) -> int:
            return 0

        def legal_actions(self, state: int, actor: str) -> Sequence[Choice]:
            return ()

        def evolve(self, state: int, event: Event) -> int:
            return state

    with pytest.raises(NotImplementedError, match="Undecided has neither handlers nor decide"):
        Undecided().apply(0, Action("ann", "wave"), None)  # type: ignore[arg-type]

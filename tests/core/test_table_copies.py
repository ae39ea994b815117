"""The table records an action's events in one copy of itself (issue 31): the game decided and
folded them already, so stamping them into the log needs no copy of the table per event — but
an event that sets a timer or touches the dice ledger is still folded into the clock or the
ledger, and the log, the clock and the state are what they were."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, Catalogue, Choice, Event, NoParams, Procedure, Table
from referee.core.actions import ActionSpec
from referee.core.clock import set_timer


class Volley(Procedure[int]):
    """Each ``shoot`` is three shots (three events); ``wait`` also sets a timer."""

    catalogue = Catalogue(
        [
            ActionSpec("shoot", NoParams, section="Volley", record="everyone"),
            ActionSpec("wait", NoParams, section="Volley", record="everyone"),
        ]
    )

    def initial_state(self, setup: Any) -> int:
        return 0

    def legal_actions(self, state: int, actor: str) -> tuple[Choice, ...]:
        return (Choice(actor, "shoot"), Choice(actor, "wait"))

    def decide(self, state: int, action: Action, dice: Any) -> tuple[Event, ...]:
        shots = tuple(Event("shot", {"n": state + i}) for i in range(3))
        if action.kind == "wait":
            return (*shots, set_timer("reload", Event("reloaded"), after=60))
        return shots

    def evolve(self, state: int, event: Event) -> int:
        return state + 1 if event.kind == "shot" else state

    def actors(self, state: int) -> tuple[str, ...]:
        return ("ann",)


def _copies(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    made: list[int] = []
    real = Table._with

    def counted(self: Table[Any], **changes: Any) -> Table[Any]:
        made.append(1)
        return real(self, **changes)

    monkeypatch.setattr(Table, "_with", counted)
    return made


def test_an_actions_events_are_stamped_into_the_log_in_one_copy_of_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = Table.start(Volley(), {}).act(Action("ann", "shoot"), None)
    made = _copies(monkeypatch)
    after = table.act(Action("ann", "shoot"), None, at=0)
    assert len(made) == 2  # the events stamped; the action recorded
    assert after.state == 6 and after.version == 6
    assert [(e.number, e.cause, e.at, e.payload["n"]) for e in after.log] == [
        (1, 1, 0, 0), (2, 1, 0, 1), (3, 1, 0, 2), (4, 2, 0, 3), (5, 2, 0, 4), (6, 2, 0, 5)
    ]  # fmt: skip
    assert after.clock == table.clock and after.actions[-1].events == (4, 6)


def test_a_timer_among_an_actions_events_is_still_folded_into_the_clock() -> None:
    table = Table.start(Volley(), {}).act(Action("ann", "wait"), None)
    assert table.state == 3 and table.version == 4
    assert [t.name for t in table.clock.timers] == ["reload"]
    later = table.advance(60)
    assert [e.kind for e in later.log][-2:] == ["reloaded", "clock.advanced"]

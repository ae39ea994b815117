"""The game's vocabulary at the kernel: a handler for every action kind, a payload shape and a
fold for every event kind, and each event folded once as the action is decided."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Event
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.actions import CATALOGUE
from referee.systems.kingdoms.events import CHRONICLE_BEGAN, CHRONICLE_ENDED, KINDS
from referee.systems.kingdoms.fold import FOLDS, fold
from referee.systems.kingdoms.payloads import PAYLOADS
from referee.systems.kingdoms.state import KingdomsState

from .helpers import _act, _three_kingdoms


def test_every_action_kind_has_its_handler() -> None:
    """The catalogue and the handlers name the same kinds: nothing unhandled, nothing more."""
    assert PROCEDURE.handlers is not None
    PROCEDURE.handlers.check(CATALOGUE)


def test_every_event_kind_has_its_payload_and_its_fold() -> None:
    """One container of kinds (a frozenset), each with its payload's shape; each folded by the
    rules section that emits it, but the two that change nothing of the state."""
    assert isinstance(KINDS, frozenset)
    assert set(PAYLOADS) == KINDS
    assert set(FOLDS) == KINDS - {CHRONICLE_BEGAN, CHRONICLE_ENDED}


def test_each_event_is_folded_once_as_the_action_is_decided(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table keeps the state the handler's builder folded: an action's events reach the
    fold once each (the reveal: the slips, the sacrifices and every test rolled)."""
    table = _three_kingdoms()
    for f in ("elves", "orcs", "dwarves"):
        table = _act(table, f, "write_slip", maneuver="Fortify", skill="Logistics")
    for f in ("elves", "orcs", "dwarves"):
        table = _act(table, f, "pass")
    folded: list[str] = []

    def counting(state: KingdomsState, event: Event) -> Any:
        folded.append(event.kind)
        return fold(state, event)

    monkeypatch.setattr(PROCEDURE, "evolve", counting)
    before = len(table.log.events)
    table = _act(table, "elves", "reveal", [3] * 40)
    logged = [e.kind for e in table.log.events[before:]]
    assert len(logged) == 4  # the slips revealed, and three tests rolled
    assert folded == logged

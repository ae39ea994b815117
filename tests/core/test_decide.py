"""Deciding an action (``referee.core.decide``): one handler per action kind, and a builder
that folds each event into the state as it is emitted, so a later rule of the same step sees
what an earlier one did; kernel events (timers, the clock) are kept but left to the table."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core.clock import CLOCK_ADVANCED, TIMER_CANCELLED, TIMER_SET
from referee.core.decide import KERNEL_KINDS, Builder, Handlers
from referee.core.errors import RuleError
from referee.core.events import Event, Secret, only
from referee.core.procedures import Action
from referee.dice import DiceSource, ScriptedSource


def _count(state: list[tuple[str, int]], event: Event) -> list[tuple[str, int]]:
    """A fold that remembers each event's kind and the time it was stamped with."""
    return [*state, (event.kind, event.at)]


def test_an_event_emitted_keeps_its_audience_and_its_secret_parts() -> None:
    """A handler's event reaches the table as it was emitted: who may see it, and its parts
    for narrower audiences."""
    b: Builder[list[tuple[str, int]]] = Builder([], _count)
    secret = Secret("target", "krockin", only("alice"))
    event = b.emit("aim.taken", {"by": "scarface"}, audience=only("alice"), secrets=(secret,))
    assert event.audience == only("alice")
    assert event.secrets == (secret,)
    assert b.events == [event]
    assert event.data == {"by": "scarface", "target": "krockin"}


def test_each_event_is_folded_as_it_is_emitted_and_stamped_with_the_actions_time() -> None:
    """A fold that reads the time reads, while deciding, the time the table will stamp: the
    action's own."""
    b: Builder[list[tuple[str, int]]] = Builder([], _count, at=300)
    b.emit("first")
    assert b.state == [("first", 300)]
    b.extend([Event("second"), Event("third", at=300)])
    assert b.state == [("first", 300), ("second", 300), ("third", 300)]
    assert [e.at for e in b.events] == [300, 300, 300]


def test_an_action_at_no_time_leaves_its_events_as_they_were_made() -> None:
    b: Builder[list[tuple[str, int]]] = Builder([], _count)
    b.add(Event("made", at=0))
    b.add(Event("timed", at=45))
    assert b.state == [("made", 0), ("timed", 45)]


def test_kernel_events_are_kept_but_left_to_the_tables_clock() -> None:
    """Timers and the clock's moves never reach a game's ``evolve``."""
    assert {TIMER_SET, TIMER_CANCELLED, CLOCK_ADVANCED} == KERNEL_KINDS
    b: Builder[list[tuple[str, int]]] = Builder([], _count)
    b.extend([Event(TIMER_SET), Event("rule.applied"), Event(TIMER_CANCELLED)])
    b.add(Event(CLOCK_ADVANCED))
    assert b.state == [("rule.applied", 0)]
    assert [e.kind for e in b.events] == [
        TIMER_SET,
        "rule.applied",
        TIMER_CANCELLED,
        CLOCK_ADVANCED,
    ]


def _rally(b: Builder[Any], action: Action, dice: DiceSource) -> None:
    b.emit("rallied", {"by": action.actor, "rolled": dice.roll(6)})


def test_an_action_is_built_by_its_kinds_handler_at_the_actions_time() -> None:
    handlers = Handlers({"rally": _rally})
    built = handlers.build([], Action("scarface", "rally", at=120), ScriptedSource([4]), _count)
    assert built.state == [("rallied", 120)]
    assert [(e.kind, e.payload, e.at) for e in built.events] == [
        ("rallied", {"by": "scarface", "rolled": 4}, 120)
    ]


def test_an_unknown_kind_is_refused_naming_the_rule_and_the_kinds_there_are() -> None:
    with pytest.raises(RuleError) as refused:
        Handlers({"rally": _rally, "flee": _rally}, rule="Combat: Actions").handler("fly")
    assert str(refused.value) == "Combat: Actions: no action 'fly' (actions: rally, flee)"
    with pytest.raises(RuleError) as none:
        Handlers({}).handler("fly")
    assert str(none.value) == "Actions: no action 'fly' (actions: none)"


def test_handlers_are_a_mapping_of_the_kinds_they_decide() -> None:
    handlers = Handlers({"rally": _rally, "flee": _rally})
    assert list(handlers) == ["rally", "flee"]
    assert len(handlers) == 2
    assert handlers["rally"] is _rally
    assert handlers.rule == "Actions"


def test_handlers_held_to_a_catalogue_handle_every_kind_and_nothing_else() -> None:
    handlers = Handlers({"rally": _rally, "flee": _rally})
    handlers.check(["flee", "rally"])
    with pytest.raises(ValueError) as missing:
        handlers.check(["rally", "flee", "parley", "bribe"])
    assert str(missing.value) == (
        "handlers: not handled ['bribe', 'parley'], not in the catalogue []"
    )
    with pytest.raises(ValueError) as extra:
        handlers.check(["rally"])
    assert str(extra.value) == "handlers: not handled [], not in the catalogue ['flee']"


def test_a_procedure_with_handlers_decides_by_them_without_a_decide_of_its_own() -> None:
    """``Procedure.decide``'s default: the events the handler of the action's kind builds from
    the state given, at the action's time, with the dice given — as a tuple, what ``apply``
    folds."""
    from collections.abc import Sequence

    from referee.core import Choice, Procedure

    class Rallying(Procedure[list[tuple[str, int]]]):
        handlers = Handlers({"rally": _rally})

        def initial_state(self, setup: Any) -> list[tuple[str, int]]:
            return []

        def legal_actions(self, state: list[tuple[str, int]], actor: str) -> Sequence[Choice]:
            return ()

        def evolve(self, state: list[tuple[str, int]], event: Event) -> list[tuple[str, int]]:
            return _count(state, event)

    decided = Rallying().decide(
        [("begun", 0)], Action("scarface", "rally", at=120), ScriptedSource([4])
    )
    assert isinstance(decided, tuple)
    assert [(e.kind, e.payload, e.at) for e in decided] == [
        ("rallied", {"by": "scarface", "rolled": 4}, 120)
    ]


def test_a_procedure_that_decides_for_itself_has_its_events_folded_at_the_actions_time() -> None:
    """``Procedure.build`` for a game with its own ``decide`` (no handlers): its events are
    stamped with the action's time as they are folded, so ``evolve`` reads the time the table
    will record."""
    from collections.abc import Iterable, Sequence

    from referee.core import Choice, Procedure

    class Waving(Procedure[list[tuple[str, int]]]):
        def initial_state(self, setup: Any) -> list[tuple[str, int]]:
            return []

        def legal_actions(self, state: list[tuple[str, int]], actor: str) -> Sequence[Choice]:
            return ()

        def decide(
            self, state: list[tuple[str, int]], action: Action, dice: DiceSource
        ) -> Iterable[Event]:
            return [Event("waved", {"by": action.actor})]

        def evolve(self, state: list[tuple[str, int]], event: Event) -> list[tuple[str, int]]:
            return _count(state, event)

    state, events = Waving().apply([], Action("ann", "wave", at=300), ScriptedSource([]))
    assert state == [("waved", 300)]
    assert [(e.kind, e.at) for e in events] == [("waved", 300)]

"""Tests that kill the mutants mutmut left alive in the kernel, round 4 (issue 13,
docs/kernel.md, "Mutation testing", "Round 4"): the read path of ``table.py`` (``observe`` and
what it calls), and ``values.py``, ``procedures.py``, ``record.py``, ``registry.py``,
``chunked.py``, run for the first time."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from referee.core import (
    GREY,
    REFEREE,
    Action,
    ActionSpec,
    ActorId,
    Catalogue,
    Choice,
    Event,
    ObstacleCheck,
    OddsPreview,
    Params,
    Table,
    Viewer,
    Who,
    observe,
)
from referee.core.clock import cancel_timer
from referee.core.fairness import DiceSeeds, reveal_params
from referee.core.table import narrate
from referee.core.values import to_json
from referee.dice import ScriptedSource
from referee.dice.fairness import commitment

from .test_table import SETUP
from .toy_procedure import (
    ATTACK,
    NOTE,
    PERCEIVE,
    PROCEDURE,
    RALLY,
    RECALL,
    WRITE_SLIP,
    Toy,
    ToyState,
)


class _Shade(enum.Enum):
    GREY = "grey"
    WHITE = "white"


@dataclass(frozen=True)
class _Card:
    """A value that says its own JSON, as a roll card or a check result does."""

    shown: str

    def to_json(self) -> dict[str, Any]:
        return {"card": self.shown}


def test_an_enum_is_written_as_its_value() -> None:
    """An event payload names a shade, a stance or a rating by its value (DESIGN.md: one JSON
    shape for every event payload and state export)."""
    assert to_json(_Shade.GREY) == "grey"
    assert to_json({"shade": _Shade.WHITE}) == {"shade": "white"}


def test_a_value_that_says_its_own_json_is_asked_for_it() -> None:
    """A dataclass with a ``to_json`` method is written as that method says, not field by
    field."""
    assert to_json(_Card("6, 6")) == {"card": "6, 6"}
    assert to_json([_Card("1")]) == [{"card": "1"}]


def test_a_set_is_written_as_a_list_in_the_order_of_its_members_reprs() -> None:
    """Sets have no order; their JSON is sorted by each member's ``repr``, so one state gives
    one export (``10`` before ``2``: ``'10' < '2'``), and a set of mixed kinds is written too."""
    assert to_json(frozenset({2, 10, 3})) == [10, 2, 3]
    assert to_json({"b", "a"}) == ["a", "b"]
    assert to_json(frozenset({1, "one"})) == ["one", 1]  # repr: "'one'" < "1"
    assert to_json(frozenset({Fraction(1, 3), Fraction(1, 2)})) == ["1/2", "1/3"]


# -- the one read path: observe, what each seat may see and choose (table.py) -----------------


class _Nothing(Params):
    pass


JUDGE = ActionSpec("judge", _Nothing, section="Toy: judging", who=Who.REFEREE)


def _rally(dice: int, obstacle: int) -> ObstacleCheck:
    return ObstacleCheck(dice, obstacle, shade=GREY, open_ended=True)


class _Watched(Toy):
    """The toy game where the referee may *judge* any character (a kind only the referee
    takes), any character may *shrug* (a kind the catalogue does not list, so the table has no
    spec for it), a wound is told to its own player in the second person, and each player sees
    the odds of their own characters' next rally (one die fewer per wound)."""

    catalogue = Catalogue([ATTACK, PERCEIVE, WRITE_SLIP, RALLY, RECALL, NOTE, JUDGE])

    def legal_actions(self, state: ToyState, actor: ActorId) -> Sequence[Choice]:
        if actor not in dict(state.characters):
            return ()
        return (Choice(actor, "judge"), Choice(actor, "shrug"))

    def describe(self, event: Event, viewer: Viewer) -> str:
        if event.kind == "wound.taken" and event.data["character"] in viewer.identities:
            return "You take a wound"
        return super().describe(event, viewer)

    def previews(self, state: ToyState, viewer: Viewer) -> Sequence[OddsPreview]:
        return tuple(
            OddsPreview.of(_rally(3 - c.wounds, 1), f"{name} rallies")
            for name, c in state.characters
            if name in viewer.identities
        )


def _watched() -> Table[ToyState]:
    return Table.start(
        _Watched(), SETUP, system="kernel_toy", players={"alice": ["scarface"]}, start="19:00"
    )


def test_a_player_is_never_offered_what_only_the_referee_may_do() -> None:
    """The table contract (docs/kernel.md, "One read path: observe"): the choices open to a
    seat are those of the actors it plays that it may take — a kind only the referee takes is
    the referee's choice alone, for every actor; a kind the catalogue does not list is open to
    the actor's own player."""
    table = _watched()
    mine = observe(table, "alice").choices
    assert [(c.actor, c.kind) for c in mine] == [("scarface", "shrug")]
    everyone = observe(table, REFEREE).choices
    assert [(c.actor, c.kind) for c in everyone] == [
        (actor, kind) for actor in ("scarface", "krockin", "edith") for kind in ("judge", "shrug")
    ]


def test_an_observation_is_of_this_table_now_as_its_seat_sees_it() -> None:
    """One read path (``observe``): the system, the version, the time and the wall clock's
    start, the seat observed, the state and the odds as that seat may see them, and the
    narration told to that seat."""
    table = _watched().advance(600)
    hit = Action("scarface", "attack", {"target": "krockin"})
    table = table.act(hit, ScriptedSource([6, 6, 1, 1]))
    hurt = table.act(
        Action("krockin", "attack", {"target": "scarface"}), ScriptedSource([6, 6, 1, 1])
    )
    seen = observe(hurt, "alice", since=table.version)
    assert (seen.system, seen.version, seen.since, seen.now, seen.start) == (
        "kernel_toy",
        hurt.version,
        table.version,
        600,
        "19:00",
    )
    assert seen.seat == hurt.seat("alice")
    assert seen.narration == ("krockin attacks scarface and hits", "You take a wound")
    assert seen.state == _Watched().visible_state(hurt.state, hurt.viewer("alice"))
    assert seen.state is not None and seen.state["characters"]["scarface"]["wounds"] == 1
    assert seen.previews == (OddsPreview.of(_rally(2, 1), "scarface rallies"),)
    referee = observe(hurt, REFEREE, since=table.version)
    assert referee.narration == ("krockin attacks scarface and hits", "scarface takes a wound")
    assert referee.state is not None and "envelope" in referee.state["characters"]["krockin"]
    assert referee.seat == hurt.seat(REFEREE)


def test_an_onlooker_with_no_seat_observes_as_everyone() -> None:
    """A viewer with no seat at a table without seats (a library table) is observed with no
    seat: ``seat`` is ``None``, never another's."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy")
    seen = observe(table, Viewer("passer-by"))
    assert seen.seat is None
    assert seen.choices == ()


def test_the_actions_observed_since_a_version_are_those_that_made_an_event_after_it() -> None:
    """``observe(since=n)`` keeps the action records with an event after ``n``: not the one
    whose last event is ``n`` itself, and every one after it, none skipped."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]})
    for dice in ([1], [2], [3], [4]):
        table = table.act(Action("scarface", "rally", {"dice": 1}), ScriptedSource(dice))
    first = table.actions[0].events[1]
    numbers = [r["number"] for r in observe(table, REFEREE, since=first).actions]
    assert numbers == [2, 3, 4]
    assert [r["number"] for r in observe(table, REFEREE).actions] == [1, 2, 3, 4]


def test_the_kernels_own_events_are_narrated_in_words() -> None:
    """Events and the log (docs/kernel.md): the kernel narrates its own kinds — a timer set
    (due at the time it was set plus its delay, on the wall clock), a timer cancelled, the dice
    sealed (the first 16 digits of the commitment), a seat's own seed, a seed revealed."""
    table = Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, start="19:00"
    ).advance(600)
    perceived = table.act(
        Action("scarface", "perceive", {"target": "krockin"}), ScriptedSource([6, 6, 6])
    )
    timer = next(e for e in perceived.view(REFEREE) if e.kind == "timer.set" and e.at == 600)
    referee = perceived.viewer(REFEREE)
    assert narrate(perceived, timer, referee) == "Timer cooldown:scarface:krockin is set for 19:25."
    assert narrate(table, cancel_timer("alarm"), referee) == "Timer alarm is cancelled."

    seeds = DiceSeeds("t-1", (bytes([1]) * 32,))
    fair = Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, dice=seeds
    )
    fair = fair.act(Action("alice", "seed_dice", {"seed": "lucky"}), None, seat="alice")
    params, after = reveal_params(seeds)
    fair = fair.act(Action(REFEREE, "reveal_dice", params), None, seat=REFEREE)
    said = observe(fair, "alice").narration
    assert (
        "The dice are sealed: every face of epoch 0 comes from a seed whose SHA-256 is "
        f"{commitment(bytes([1]) * 32)[:16]}…"
    ) in said
    assert "alice mixes a seed of their own into the dice." in said
    assert (
        "The dice seed of epoch 0 is revealed: every face rolled with it can now be checked "
        "('referee verify')."
    ) in said
    assert (
        "The dice are sealed: every face of epoch 1 comes from a seed whose SHA-256 is "
        f"{commitment(after.current)[:16]}…"
    ) == said[-1]

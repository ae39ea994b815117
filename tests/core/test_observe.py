"""One read path: ``observe`` and ``preview`` (docs/kernel.md, "One read path: observe"): what
each seat may see of a table — its state, the events and their narration, the action records —
what it may choose, and the odds of an action as that seat may see them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from referee.core import (
    REFEREE,
    Action,
    OddsPreview,
    SeatError,
    Table,
    Viewer,
    observe,
    preview,
)
from referee.dice import ScriptedSource
from referee.systems.intrigue import PROCEDURE as INTRIGUE

from .helpers import HOUR, UNDECIDED, _AfterDark, _Judged, _rally, _Unlisted, _Watched
from .test_table import PLAYERS, SETUP, new_table
from .toy_procedure import PROCEDURE, ToyState

# -- the odds of an action: preview --------------------------------------------------------------


COUNTESS: dict[str, Any] = {
    "start": "19:00",
    "characters": {
        "countess": {
            "name": "The Countess",
            "number": 40,
            "perception_envelopes": [{"id": "to-all", "to": "ALL", "target": 16, "contents": "x"}],
        },
        "twelve": {"name": "Miss Twelve", "number": 12, "skills": {"Perception": 3}},
    },
}


def test_a_preview_is_refused_to_a_seat_that_may_not_take_the_action() -> None:
    """One read path ("A seat that may not take it learns nothing of its odds"): a player's
    seat may not preview an action only the referee takes, even for the character it plays."""
    table = Table.start(INTRIGUE, COUNTESS, players={"ann": ["twelve"]})
    with pytest.raises(SeatError, match="only the referee may take 'admit'"):
        preview(
            table, "ann", Action("twelve", "admit", {"character": "twelve", "with": "countess"})
        )


def test_a_preview_is_the_odds_its_viewer_may_see() -> None:
    """One read path, ``preview``: the odds "as ``who`` may see them" — a Perception Check's
    odds per envelope are the referee's alone in Intrigue (they tell which envelopes a
    character carries; the player is shown her own total's chances); an onlooker with no seat
    is shown what the game shows everyone."""
    table = Table.start(INTRIGUE, COUNTESS, players={"ann": ["twelve"]})
    perceive = Action("twelve", "perceive", {"target": "countess"})
    assert preview(table, "referee", perceive)
    assert preview(table, "ann", perceive) != preview(table, "referee", perceive)
    toy = new_table()
    attack = Action("scarface", "attack", {"target": "krockin"})
    (shown,) = preview(toy, Viewer("onlooker"), attack)
    assert shown == preview(toy, REFEREE, attack)[0] and shown.label == "scarface attacks krockin"


def test_a_preview_is_of_the_action_as_given_and_at_the_tables_time() -> None:
    """One read path, ``preview``: the odds of the action "would roll now" — in a game with no
    catalogue its parameters as given, and the table's time now (after dark, Ob 3 for Ob 2)."""
    table = Table.start(_AfterDark(), SETUP, system="kernel_toy", players={"ann": ["scarface"]})
    rally = Action("scarface", "rally", {"dice": 2, "obstacle": 2})
    assert preview(table, "ann", rally) == (OddsPreview.of(_rally(2, 2), "a rally"),)
    dark = table.advance(HOUR)
    (shown,) = preview(dark, "ann", rally)
    assert shown == OddsPreview.of(_rally(2, 3), "a rally")
    assert shown.odds != OddsPreview.of(_rally(2, 2), "a rally").odds


def test_a_preview_hands_the_game_the_parameters_as_its_spec_checked_them() -> None:
    """One read path, ``preview``: the parameters "parsed as ``Table.act`` parses them" — the
    game's ``odds_of`` is handed the checked model of the kind's spec (``action.args``), as its
    ``decide`` is; in a game without a catalogue, nothing."""
    table = Table.start(_Judged(), SETUP, system="kernel_toy", players=PLAYERS)
    (judged,) = preview(table, REFEREE, Action("scarface", "judge", {}))
    assert judged.label == "judged on _Nothing"
    bare = Table.start(_Unlisted(), SETUP, system="kernel_toy", players=PLAYERS)
    (shrugged,) = preview(bare, "alice", Action("scarface", "shrug", {}))
    assert shrugged.label == "judged on None"


def test_the_default_odds_of_an_action_are_those_of_its_own_choice_for_those_parameters() -> None:
    """The table contract (``odds_of``, by default): the odds of the choice of the action's own
    kind, open to its own actor, whose domains allow its parameters — not another kind's odds
    that would allow them too; none for a target the domain does not hold."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    referee = Viewer(REFEREE)
    perceive = Action("scarface", "perceive", {"target": "krockin"})
    (own,) = [c for c in table.legal_actions("scarface") if c.kind == "perceive"]
    assert own.odds
    assert tuple(PROCEDURE.odds_of(table.state, perceive, referee)) == own.odds
    nobody = Action("scarface", "perceive", {"target": "nobody"})
    assert tuple(PROCEDURE.odds_of(table.state, nobody, referee)) == ()


# -- what a seat may see and choose: observe -----------------------------------------------------


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


def test_an_observation_in_json_is_what_the_seats_screen_is_built_from() -> None:
    """One read path (``Observation.to_json``): every field a seat's screen or a response
    reads — the viewer and what it plays, the numbers, each event with its narration, the
    records, the state, the choices, whose move it is and the odds — as that seat may see
    them."""
    table = _watched().act(
        Action("krockin", "attack", {"target": "scarface"}), ScriptedSource([6, 6, 1, 1])
    )
    seen = observe(table, "alice", since=1)
    rolled, wounded = table.view(table.viewer("alice"))[1:]
    assert seen.to_json() == {
        "system": "kernel_toy",
        "viewer": "alice",
        "plays": ["scarface"],
        "version": 3,
        "since": 1,
        "now": 0,
        "start": "19:00",
        "events": [
            {**rolled.to_json(), "text": "krockin attacks scarface and hits"},
            {**wounded.to_json(), "text": "You take a wound"},
        ],
        "actions": [
            {
                "number": 1,
                "seat": None,
                "actor": "krockin",
                "kind": "attack",
                "params": {"target": "scarface"},
                "at": 0,
                "asked_at": None,
                "events": [2, 3],
            }
        ],
        "state": _Watched().visible_state(table.state, table.viewer("alice")),
        "choices": [
            {
                "actor": "scarface",
                "kind": "shrug",
                "label": "",
                "odds": [],
                "params": {},
                "prompt": False,
            }
        ],
        "to_move": ["scarface", "krockin", "edith"],
        "previews": [OddsPreview.of(_rally(2, 1), "scarface rallies").to_json()],
        "prompts": [],
        "waiting": [],  # scarface, the one character alice plays, has a choice
        "result": UNDECIDED,
    }
    assert rolled.kind == "attack.rolled" and wounded.kind == "wound.taken"


def test_an_observation_without_a_result_is_of_the_game_never_over_and_tells_every_event() -> None:
    """``Observation.to_json``: an observation made without a result (the dataclass's default)
    writes the game's default result — "the game", never over, no conflict; and each event
    is written with its own narration: one whose narration is short of its events is refused,
    never written with an event untold."""
    table = _watched().act(
        Action("krockin", "attack", {"target": "scarface"}), ScriptedSource([6, 6, 1, 1])
    )
    seen = observe(table, REFEREE)
    assert replace(seen, result=None).to_json()["result"] == UNDECIDED
    assert len(seen.events) == len(seen.narration) == 3
    with pytest.raises(ValueError, match="zip"):
        replace(seen, narration=seen.narration[:2]).to_json()


def test_a_seat_sees_the_state_the_procedure_shows_it_and_the_referee_sees_it_whole() -> None:
    """``Table.visible_state`` (docs/kernel.md, "One read path: observe"): the state of this
    table as the procedure shows it to the viewer — a bare id is a viewer with no characters,
    and only the referee's seat sees the envelopes and everyone's slips."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    table = table.act(Action("scarface", "write_slip", {"maneuver": "feint"}), None)
    full = PROCEDURE.state_json(table.state)
    assert full["slips"] == {"scarface": "feint"}
    assert table.visible_state(REFEREE) == full
    assert table.visible_state(Viewer(REFEREE)) == full
    alice = table.visible_state(table.viewer("alice"))
    assert alice == PROCEDURE.visible_state(table.state, table.viewer("alice"))
    assert alice is not None and alice["slips"] == {"scarface": "feint"}
    assert "envelope" not in alice["characters"]["scarface"]
    bob = table.visible_state("bob")
    assert bob is not None and bob["slips"] == {}
    assert table.visible_state("scarface") == alice

"""Tests that kill the mutants mutmut left alive in the kernel, round 4 (issue 13,
docs/kernel.md, "Mutation testing", "Round 4"): the read path of ``table.py`` (``observe`` and
what it calls), and ``values.py``, ``procedures.py``, ``record.py``, ``registry.py``,
``chunked.py``, run for the first time."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

import pytest
from pydantic import AfterValidator, BaseModel, ConfigDict

from referee.core import (
    GREY,
    REFEREE,
    Action,
    ActionError,
    ActionSpec,
    ActorId,
    Catalogue,
    Choice,
    Event,
    ObstacleCheck,
    OddsPreview,
    Params,
    SeatError,
    Table,
    Viewer,
    Who,
    observe,
    only,
    registry,
)
from referee.core.chunked import CHUNK, Chunks
from referee.core.clock import cancel_timer
from referee.core.errors import ScenarioError
from referee.core.fairness import DiceSeeds, reveal_params
from referee.core.procedures import Procedure
from referee.core.registry import System, register_system, system, systems
from referee.core.table import Chain, Seat, narrate
from referee.core.values import to_json
from referee.dice import ScriptedSource
from referee.dice.fairness import commitment

from .test_table import PLAYERS, SETUP
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
    assert narrate(perceived, timer, referee) == "Something is due at 19:25."
    assert narrate(table, cancel_timer("alarm"), referee) == "A timer is cancelled."

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


# -- what a procedure gives by default (procedures.py) ----------------------------------------


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


def test_an_event_a_game_does_not_narrate_is_told_by_its_kind_and_data() -> None:
    """Events and the log: a game narrates each kind of its vocabulary; one it does not is told
    as its kind and its data, or its kind alone when it has none."""
    viewer = Viewer(REFEREE)
    said = PROCEDURE.describe(Event("alarm.rang", {"says": "nine o'clock", "loud": 2}), viewer)
    assert said == 'alarm.rang: says="nine o\'clock", loud=2'
    assert PROCEDURE.describe(Event("alarm.rang"), viewer) == "alarm.rang"


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


@dataclass(frozen=True)
class _Count:
    value: int


class _Counter(Procedure[Any]):
    """A procedure that writes only the four methods: every other one is the kernel's."""

    def initial_state(self, setup: Any) -> Any:
        return setup.get("start", 0) if "boxed" not in setup else _Count(setup["start"])

    def legal_actions(self, state: Any, actor: ActorId) -> Sequence[Choice]:
        return (Choice(actor, "add"),)

    def decide(self, state: Any, action: Action, dice: Any) -> Sequence[Event]:
        return (Event("added"),)

    def evolve(self, state: Any, event: Event) -> Any:
        return state + 1


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


# -- the registry of games (registry.py) --------------------------------------------------------


def _clock(text: str) -> str:
    if ":" not in text:
        raise ValueError("a time is hh:mm")
    return text


class _CounterSetup(BaseModel):
    model_config = ConfigDict(extra="forbid")
    start: int = 0
    alarm: Annotated[str, AfterValidator(_clock)] | int = 0


COUNTER = System(
    "counter",
    "The Counter",
    _Counter(),
    rules="counter.md",
    setup_model=_CounterSetup,
    summary="Count to ten.",
)


def test_a_setup_is_checked_by_its_model_and_a_bad_field_named_by_its_path() -> None:
    """The registry (docs/kernel.md): a setup is checked with the game's model before play; the
    first bad field is named by its path in the setup (no pydantic ``function-…`` part), with
    the validator's own words."""
    assert COUNTER.check_setup({"start": 2, "alarm": "21:00"}) == {"start": 2, "alarm": "21:00"}
    with pytest.raises(ScenarioError) as bad:
        COUNTER.check_setup({"alarm": "nine"})
    assert (bad.value.reason, bad.value.path) == ("a time is hh:mm", ("alarm",))
    with pytest.raises(ScenarioError) as extra:
        COUNTER.check_setup({"bell": 1})
    assert (extra.value.reason, extra.value.path) == ("Extra inputs are not permitted", ("bell",))
    with pytest.raises(ScenarioError) as not_int:
        COUNTER.check_setup({"start": "x"})
    assert not_int.value.path == ("start",)
    assert not_int.value.reason.startswith("Input should be a valid integer")


def test_a_new_table_of_a_game_is_of_that_game_with_its_seats_and_start() -> None:
    """The registry: ``System.new_table`` starts a table of this game, with the players' seats
    and the wall clock's start as given (00:00 unless told)."""
    table = COUNTER.new_table({"start": 1}, players={"alice": ["ann"]}, start="19:00")
    assert (table.system, table.start_time, table.state) == ("counter", "19:00", 1)
    assert [s.id for s in table.seats] == [REFEREE, "alice"]
    plain = COUNTER.new_table({})
    assert (plain.system, plain.start_time) == ("counter", "00:00")
    assert [s.id for s in plain.seats] == [REFEREE]
    seated = COUNTER.new_table({}, seats=table.seats)
    assert seated.seats == table.seats


def test_a_game_in_json_is_its_names_rules_referee_setup_schema_and_actions() -> None:
    """The registry: what a client is told of a game."""
    assert COUNTER.setup_schema() == _CounterSetup.model_json_schema()
    assert COUNTER.to_json() == {
        "name": "counter",
        "title": "The Counter",
        "rules": "counter.md",
        "summary": "Count to ten.",
        "has_referee": True,
        "setup_schema": _CounterSetup.model_json_schema(),
        "actions": [],
    }
    assert System("toy", "Toy", PROCEDURE).setup_schema() == {}


def test_a_record_is_loaded_only_by_its_own_game_with_its_setup_checked() -> None:
    """The registry (``System.load``): a record of another game is refused, naming
    ``system``; a bad setup is named under ``setup``; a good record is the table again."""
    table = COUNTER.new_table({"start": 1}).act(Action("ann", "add"), None)
    record = table.to_record()
    loaded = COUNTER.load(record)
    assert (loaded.state, loaded.version) == (2, table.version)
    with pytest.raises(ScenarioError) as other:
        COUNTER.load({**record, "system": "kernel_toy"})
    assert other.value.path == ("system",)
    assert other.value.reason == "this record is of system 'kernel_toy', not 'counter'"
    with pytest.raises(ScenarioError) as bad:
        COUNTER.load({**record, "setup": {"alarm": "nine"}})
    assert (bad.value.reason, bad.value.path) == ("a time is hh:mm", ("setup", "alarm"))


def test_an_installed_game_is_loaded_once_by_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry: ``system: intrigue`` loads the installed game through its entry point,
    keeps it, and gives the same game the next time."""
    monkeypatch.delitem(registry._REGISTERED, "intrigue", raising=False)
    game = system("intrigue")
    assert isinstance(game, System) and game.title == "Intrigue in the Clouds"
    assert system("intrigue") is game
    assert registry._REGISTERED["intrigue"] is game


def test_a_procedure_registered_by_name_is_a_game_of_that_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The registry (``register_system``): a procedure registered by name is the game of that
    name, titled by it; a whole :class:`System` is registered as it is."""
    monkeypatch.setattr(registry, "_REGISTERED", dict(registry._REGISTERED))
    counter = _Counter()
    register_system("counter_proc", counter)
    game = system("counter_proc")
    assert (game.name, game.title, game.procedure) == ("counter_proc", "counter_proc", counter)
    register_system("counter", COUNTER)
    assert system("counter") is COUNTER


def test_a_record_that_is_not_a_mapping_is_refused_as_a_record() -> None:
    """The registry (``System.load``): a record read from a file is hostile input — a list is
    refused in words, as a record, not with a crash."""
    with pytest.raises(ScenarioError, match="a table record is a mapping of fields, not list"):
        COUNTER.load(["not", "a", "record"])


def test_an_unknown_game_is_refused_naming_every_known_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry: ``system:`` names a known game; the refusal lists them, or says none is
    installed."""
    with pytest.raises(ScenarioError) as unknown:
        system("no_such_game")
    assert unknown.value.reason == f"no game system 'no_such_game' (known: {', '.join(systems())})"
    monkeypatch.setattr(registry, "_REGISTERED", {})
    monkeypatch.setattr(registry, "_installed", dict)
    with pytest.raises(ScenarioError) as none:
        system("intrigue")
    assert none.value.reason == "no game system 'intrigue' (known: none installed)"


# -- paged storage (chunked.py) -----------------------------------------------------------------


def test_a_paged_storage_fetches_each_chunk_once_and_only_when_read() -> None:
    """Storage (chunked.py): a table loaded from a snapshot holds its old log as pages fetched
    on demand — each chunk the first time one of its items is read, and never again."""
    calls: list[tuple[int, int]] = []

    def fetch(start: int, stop: int) -> list[int]:
        calls.append((start, stop))
        return list(range(start, stop))

    store = Chunks.paged(3 * CHUNK, fetch, then=["new"])
    assert (store.unread(), calls) == (3, [])
    assert store.get(3 * CHUNK) == "new"
    assert store.get(CHUNK + 1) == CHUNK + 1
    assert (store.unread(), calls) == (2, [(CHUNK, 2 * CHUNK)])
    assert store.get(CHUNK + 2) == CHUNK + 2
    assert calls == [(CHUNK, 2 * CHUNK)]
    assert list(store.iterate(3 * CHUNK + 1)) == [*range(3 * CHUNK), "new"]
    assert store.unread() == 0
    assert calls == [(CHUNK, 2 * CHUNK), (0, CHUNK), (2 * CHUNK, 3 * CHUNK)]


def test_a_storage_made_from_items_reads_each_item_at_its_place() -> None:
    """Storage: a storage made from more than a chunk of items holds each at its own index;
    appending to the newest version extends it in place, to an older one branches."""
    items = list(range(2 * CHUNK + 5))
    store = Chunks(items)
    assert [store.get(i) for i in (0, CHUNK - 1, CHUNK, 2 * CHUNK + 4)] == [
        0,
        CHUNK - 1,
        CHUNK,
        2 * CHUNK + 4,
    ]
    assert store.slice(0, len(items)) == items
    grown = store.append(len(items), "a", "b")
    assert grown is store
    assert grown.append(len(items) + 2, "c") is store
    branch = store.append(len(items), "x")
    assert branch is not store
    assert branch.slice(len(items) - 1, len(items) + 1) == [2 * CHUNK + 4, "x"]
    assert store.slice(len(items), len(items) + 3) == ["a", "b", "c"]


def test_a_paged_storage_holds_whole_chunks_and_each_page_is_a_whole_chunk() -> None:
    """Storage: the paged part is whole chunks; a fetch that gives a short chunk is refused."""
    with pytest.raises(ValueError, match="whole chunks"):
        Chunks.paged(CHUNK + 1, lambda start, stop: [])
    assert Chunks.paged(0, lambda start, stop: [], then=[1, 2]).slice(0, 2) == [1, 2]
    short = Chunks.paged(CHUNK, lambda start, stop: list(range(start, stop - 1)))
    with pytest.raises(ValueError, match=f"fetched {CHUNK - 1} items from 0"):
        short.get(0)


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
        "result": {
            "name": "the game",
            "over": False,
            "winners": [],
            "summary": "",
            "returns": {},
            "conflict": None,
        },
    }
    assert rolled.kind == "attack.rolled" and wounded.kind == "wound.taken"


class _NoReferee(Toy):
    has_referee = False


def test_in_a_game_without_a_referee_a_seat_undoes_only_its_own_actions() -> None:
    """Undo (docs/kernel.md, "The table record"): in a game without a referee a seat may undo
    the last actions only if it took every one of them itself."""
    table = Table.start(_NoReferee(), SETUP, system="kernel_toy", players=PLAYERS)
    table = table.act(Action("krockin", "rally", {"dice": 1}), ScriptedSource([3]), seat="bob")
    table = table.act(Action("scarface", "rally", {"dice": 1}), ScriptedSource([4]), seat="alice")
    undone = table.undo(1, seat="alice")
    assert [r.actor for r in undone.actions] == ["krockin"]
    for seat, count in (("bob", 1), ("alice", 2)):
        with pytest.raises(SeatError, match=f"seat '{seat}' may not undo"):
            table.undo(count, seat=seat)


def test_a_seat_acts_for_what_it_plays_and_as_itself_the_referee_for_anyone() -> None:
    """Seats (docs/kernel.md): a seat acts for the characters it plays and as itself; the
    referee's seat acts for anyone."""
    alice = Seat("alice", ("scarface",))
    assert alice.may_play("scarface") and alice.may_play("alice")
    assert not alice.may_play("krockin")
    assert Seat(REFEREE).may_play("krockin")


def test_an_undo_takes_back_one_action_unless_told() -> None:
    """Undo: ``undo_to`` with no count is of the last action alone — it keeps the events
    before that action's first."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    for face in (3, 4):
        table = table.act(Action("scarface", "rally", {"dice": 1}), ScriptedSource([face]))
    assert table.undo_to() == table.actions[-1].events[0] - 1
    assert table.undo_to() != table.actions[-2].events[0] - 1


def test_a_seat_is_found_by_its_id_and_an_unknown_one_refused_naming_the_seats_there_are() -> None:
    """Seats (docs/kernel.md): a seat is looked up by its own id; an id the table has no seat
    for is refused with the seats it has, in order, or "none" at a table without seats."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    assert table.seat("bob") == Seat("bob", ("krockin",))
    with pytest.raises(SeatError, match=r"no seat 'zed' \(seats: referee, alice, bob, edith\)$"):
        table.seat("zed")
    seatless = Table.start(PROCEDURE, SETUP, seats=())
    with pytest.raises(SeatError, match=r"no seat 'zed' \(seats: none\)$"):
        seatless.seat("zed")


def test_a_table_without_seats_reads_any_id_as_that_viewer() -> None:
    """A table played through the library has no seats: any id is a bare viewer of that id."""
    seatless = Table.start(PROCEDURE, SETUP, seats=())
    assert seatless.viewer("alice") == Viewer("alice")


def test_two_chains_are_equal_only_when_they_hold_the_same_records() -> None:
    """A table's action records (``Chain``): equal when their items are, whatever their
    storage; one action is taken back unless told otherwise."""
    assert Chain([1, 2]) == Chain([1, 2])
    assert Chain([1, 2]) != Chain([1, 3])
    assert Chain([1, 2, 3]).without_last() == Chain([1, 2])
    assert Chain([1, 2, 3]).without_last(2) == Chain([1])


def test_a_replayed_table_keeps_the_setup_it_was_replayed_from() -> None:
    """``Table.replay`` folds a log from a setup: the table it gives is of that setup, at the
    state the log leads to."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    table = table.act(Action("scarface", "rally", {"dice": 1}), ScriptedSource([4]))
    replayed = Table.replay(PROCEDURE, SETUP, table.log)
    assert replayed.setup == SETUP
    assert replayed.state == table.state
    assert list(replayed.log) == list(table.log)


# -- round 4, second wave: the write path (``Table.act``, ``Table._fold``) ------------------


def test_the_referee_moves_the_clock_by_an_advance_action_recorded_as_theirs() -> None:
    """Game time (docs/kernel.md, "The clock"): an *advance* action moves the clock to its
    ``to``, or to the ``at`` it is taken at when it names none; it is recorded as an action of
    the seat that took it."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    moved = table.act(Action(REFEREE, "advance", {"to": 60}), None, seat=REFEREE)
    assert moved.now == 60
    [record] = moved.actions
    assert (record.kind, record.seat, record.params, record.at) == (
        "advance",
        REFEREE,
        {"to": 60},
        60,
    )
    by_at = table.act(Action(REFEREE, "advance", {}), None, at=90)
    assert by_at.now == 90
    assert by_at.actions[-1].params == {"to": 90}


def test_an_advance_needs_a_time_in_seconds_and_only_the_referee_takes_it() -> None:
    """An *advance* without a time, with a time that is not a number of seconds (a flag, a
    text, a list of parameters), or taken by a player's seat in a game with a referee, is
    refused; the table is unchanged."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    for params in ({}, {"to": True}, {"to": "60"}, [60]):
        with pytest.raises(ActionError, match="a game time in seconds is needed"):
            table.act(Action(REFEREE, "advance", params), None)  # type: ignore[arg-type]
    with pytest.raises(SeatError, match="only the referee moves the game clock, not seat 'alice'"):
        table.act(Action("scarface", "advance", {"to": 60}), None, seat="alice")
    assert table.now == 0 and len(table.actions) == 0


class _Judged(_Watched):
    """The watched toy, where a *judge* or a *shrug* is told by the parameters the game was
    handed: the checked model of its spec, or nothing for a kind with no spec."""

    def decide(self, state: ToyState, action: Action, dice: Any) -> Sequence[Event]:
        if action.kind in ("judge", "shrug"):
            handed = None if action.args is None else type(action.args).__name__
            return (Event("judged", {"by": action.actor, "args": handed}),)
        return super().decide(state, action, dice)


class _Unlisted(_Judged):
    """The judged toy with an empty catalogue: no kind has a spec."""

    catalogue = Catalogue([])


def test_the_game_decides_on_the_checked_parameters_of_a_kind_it_has_a_spec_for() -> None:
    """Actions (docs/kernel.md, "Action specs"): the game decides on the parameters as its
    spec's model checked them; in a game without a catalogue it is handed none."""
    table = Table.start(_Judged(), SETUP, system="kernel_toy", players=PLAYERS)
    judged = table.act(Action("scarface", "judge", {}), None, seat=REFEREE)
    assert judged.log[-1].data == {"by": "scarface", "args": "_Nothing"}
    bare = Table.start(_Unlisted(), SETUP, system="kernel_toy", players=PLAYERS)
    shrugged = bare.act(Action("scarface", "shrug", {}), None, seat="alice")
    assert shrugged.log[-1].data == {"by": "scarface", "args": None}


def test_a_player_may_not_take_what_only_the_referee_takes_even_for_their_own_character() -> None:
    """Who may act (docs/kernel.md, "Seats"): a kind only the referee takes is refused to a
    player's seat, even for the character that seat plays."""
    table = Table.start(_Judged(), SETUP, system="kernel_toy", players=PLAYERS)
    with pytest.raises(SeatError, match=r"only the referee may take 'judge' \(Toy: judging\)"):
        table.act(Action("scarface", "judge", {}), None, seat="alice")


def test_a_secret_action_is_recorded_for_its_actor_and_the_seat_that_took_it() -> None:
    """The table record (docs/kernel.md): an action whose spec keeps its record secret is seen
    by its actor and by the seat that took it, no one else; one taken with no seat, by its
    actor alone."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    slip = Action("scarface", "perceive", {"target": "krockin"})
    by_alice = table.act(slip, ScriptedSource([6, 6, 6]), seat="alice")
    assert by_alice.actions[-1].audience == only("alice", "scarface")
    by_referee = table.act(slip, ScriptedSource([6, 6, 6]), seat=REFEREE)
    assert by_referee.actions[-1].audience == only(REFEREE, "scarface")
    seatless = table.act(slip, ScriptedSource([6, 6, 6]))
    assert seatless.actions[-1].audience == only("scarface")


class _Hushed(_Unlisted):
    """The toy without a catalogue, where any character may *hush* the alarm: its timer is
    cancelled."""

    def decide(self, state: ToyState, action: Action, dice: Any) -> Sequence[Event]:
        if action.kind == "hush":
            return (cancel_timer("alarm"),)
        return super().decide(state, action, dice)


def test_a_cancelled_timer_never_fires_and_its_cancelling_is_logged() -> None:
    """Timers (docs/kernel.md, "The clock"): a timer cancelled before it is due does not fire
    when the clock passes its time; the cancelling is an event of the log like any other."""
    table = Table.start(_Hushed(), SETUP, system="kernel_toy", players=PLAYERS)
    assert [t.name for t in table.clock.timers] == ["alarm"]
    hushed = table.act(Action("scarface", "hush", {}), None)
    assert hushed.version == table.version + 1
    assert hushed.log[-1].kind == "timer.cancelled"
    assert hushed.clock.timers == ()
    later = hushed.advance(3 * 3600)
    assert [e.kind for e in later.log][hushed.version :] == ["clock.advanced"]
    assert not later.state.alarm_rang


def test_a_timer_due_at_the_very_time_the_clock_reaches_fires_once() -> None:
    """Timers: moving the clock to exactly a timer's time fires it, and it is gone: moving the
    clock on does not fire it again."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    table = table.advance(2 * 3600).advance(3 * 3600)
    assert [e.kind for e in table.log].count("alarm.rang") == 1
    assert table.clock.timers == ()


def test_the_state_is_the_fold_of_every_event_the_fair_dice_ones_too() -> None:
    """The table (docs/kernel.md): the state is the fold of the whole log from the initial
    state; the fair-dice events are folded into the game's state as well as the dice ledger."""
    counted = Table.start(_Counter(), {"start": 0}, dice=DiceSeeds("t-1", (bytes([1]) * 32,)))
    assert [e.kind for e in counted.log] == ["dice.committed"]
    assert counted.state == 1
    assert counted.ledger != Table.start(_Counter(), {"start": 0}).ledger


def test_a_log_replayed_up_to_a_timer_that_fired_is_at_that_timers_time() -> None:
    """Timers: an event a timer fires happens at the timer's time, so a log replayed up to it
    (before the clock's own move that follows it) stands at that time."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    table = table.advance(3 * 3600)
    kinds = [e.kind for e in table.log]
    assert kinds[-2:] == ["alarm.rang", "clock.advanced"]
    cut = Table.replay(PROCEDURE, SETUP, table.log.without_last(1))
    assert cut.now == 2 * 3600
    assert cut.state.alarm_rang
    assert Table.replay(PROCEDURE, SETUP, table.log).now == 3 * 3600


def test_an_action_record_read_from_json_takes_its_defaults_for_what_it_leaves_out() -> None:
    """The table record (docs/kernel.md): an action record names its number, actor, kind, time
    and events; left out, its seat and asked time are none, its parameters and dice empty, and
    everyone may see it."""
    from referee.core.events import EVERYONE
    from referee.core.table import ActionRecord

    minimal = {"number": 3, "actor": "scarface", "kind": "rally", "at": 60, "events": [4, 5]}
    record = ActionRecord.from_json(minimal)
    assert record == ActionRecord(
        number=3,
        seat=None,
        actor="scarface",
        kind="rally",
        params={},
        at=60,
        asked_at=None,
        dice=(),
        events=(4, 5),
        audience=EVERYONE,
    )
    assert ActionRecord.from_json(record.to_json()) == record


def test_a_record_with_a_clock_move_replays_to_the_same_table() -> None:
    """The table record (docs/kernel.md): a record replays action by action, the referee's
    moves of the clock too, to the table it was written from."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    table = table.advance(600, seat=REFEREE).advance(3 * 3600)
    loaded = Table.from_record(table.to_record(), PROCEDURE)
    assert loaded.now == 3 * 3600
    assert list(loaded.log) == list(table.log)
    assert list(loaded.actions) == list(table.actions)
    record = table.to_record()
    del record["actions"][0]["params"]["to"]
    with pytest.raises(ScenarioError, match=r"action 1 \(advance\) is refused on replay"):
        Table.from_record(record, PROCEDURE)


def test_a_record_whose_first_events_are_not_the_games_start_is_refused_naming_the_start() -> None:
    """A record whose events before any action are not what the game logs at its start is
    refused, naming the start of play and the first event that differs."""
    record = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS).to_record()
    record["events"][0]["payload"]["name"] = "bell"
    with pytest.raises(
        ScenarioError,
        match=r"^events\.0: event 1 \(timer\.set\) is not what the start of play produces",
    ):
        Table.from_record(record, PROCEDURE)


class _Planned(_Hushed):
    """The hushed toy where a character may seal a *plan* (a choice sealed with a salt)."""

    def decide(self, state: ToyState, action: Action, dice: Any) -> Sequence[Event]:
        if action.kind == "plan":
            from referee.core.fairness import seal

            public, salt = seal(f"plan of {action.actor}", {"strike": "door"}, dice, only("x"))
            return (Event("planned", {"sealed": public}, secrets=(salt,)),)
        return super().decide(state, action, dice)


def test_a_record_with_a_sealed_choice_replays_with_the_salt_it_recorded() -> None:
    """Sealed choices (docs/kernel.md, "Fair dice"): a record replays a sealed choice with the
    salt its event recorded, so a record with a seal loads to the same table."""
    from referee.dice import RandomSource

    table = Table.start(_Planned(), SETUP, system="kernel_toy", players=PLAYERS)
    table = table.act(Action("scarface", "plan", {}), RandomSource(7))
    loaded = Table.from_record(table.to_record(), _Planned())
    assert list(loaded.log) == list(table.log)


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


def test_a_chain_read_page_by_page_holds_the_stored_records_then_the_new_ones() -> None:
    """``Chain.paged`` (the store's lazy read of a table's records): ``count`` records fetched
    when first looked at, then ``then``."""
    fetched: list[tuple[int, int]] = []

    def fetch(start: int, stop: int) -> list[int]:
        fetched.append((start, stop))
        return list(range(start, stop))

    chain = Chain.paged(CHUNK, fetch, then=[-1, -2])
    assert type(chain) is Chain
    assert len(chain) == CHUNK + 2
    assert fetched == []
    assert chain[CHUNK + 1] == -2
    assert fetched == []
    assert chain[3] == 3
    assert fetched == [(0, CHUNK)]
    assert list(chain) == [*range(CHUNK), -1, -2]
    assert list(chain.append(-3))[-3:] == [-1, -2, -3]
    assert list(Chain.paged(0, fetch)) == []


def test_a_chain_hashes_and_reads_as_the_tuple_of_its_items() -> None:
    """A chain of records is a value: equal chains hash alike, and its repr lists its items."""
    assert hash(Chain([1, 2])) == hash((1, 2))
    assert hash(Chain([1, 2, 3]).without_last()) == hash(Chain([1, 2]))
    assert repr(Chain([1, 2])) == "Chain([1, 2])"
    assert repr(Chain(["a"]).append("b")) == "Chain(['a', 'b'])"


def test_a_seal_made_without_dice_gets_the_zero_salt_and_with_dice_the_sources_salt() -> None:
    """Sealed choices (docs/kernel.md, "Fair dice"): the table's recording source hands a seal
    the salt of the dice it wraps — a replayed action's recorded salt, the zero salt for an
    action played without dice (as for scripted dice), a fresh one from a real source."""
    from referee.core.fairness import SALT_BYTES, ZERO_SALT
    from referee.core.table import _NoDice, _Recording, _Replaying
    from referee.dice import RandomSource

    recorded = bytes(range(SALT_BYTES))
    assert _Recording(_Replaying([], [recorded])).salt() == recorded
    assert _Recording(_NoDice()).salt() == ZERO_SALT  # type: ignore[arg-type]
    assert _Recording(ScriptedSource([1])).salt() == ZERO_SALT
    fresh = _Recording(RandomSource(7)).salt()
    assert len(fresh) == SALT_BYTES and fresh != ZERO_SALT


def test_a_replayed_action_gets_its_recorded_salts_in_order_and_no_more() -> None:
    """Sealed choices on replay: the salts come back in the order the action drew them; one
    more than the record holds is an error."""
    from referee.core.table import _Replaying
    from referee.dice import DiceSourceError

    replaying = _Replaying([], [b"first", b"second", b"third"])
    assert [replaying.salt(), replaying.salt(), replaying.salt()] == [
        b"first",
        b"second",
        b"third",
    ]
    with pytest.raises(DiceSourceError, match=r"^the record holds no salt for a choice this"):
        replaying.salt()

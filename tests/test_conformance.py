"""The table contract, held by every registered game (issue 11): one suite, five games.

From the setup of each of a game's example scenarios, random legal play is drawn from the
choices ``observe`` offers each seat (the parameters sampled from their domains), thousands of
steps per game under CI. Every step is either taken or refused with a rule's reason — never
another exception. Then: the state is the fold of the log; the record round-trips through JSON
and re-decides to the same table; undoing the last action equals the record without it; and no
seat's ``observe`` holds a secret it may not see (every secret value searched for in the raw
JSON of every other seat).
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core import (
    PUBLIC,
    Action,
    ActionError,
    Outcome,
    RuleError,
    SeatError,
    Table,
    Viewer,
    observe,
    system,
    systems,
)
from referee.core.clock import TIMER_CANCELLED, TIMER_SET
from referee.core.loader import load_file
from referee.core.observe import narrate
from referee.dice import RandomSource, ScriptedSource

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
GAMES = ("intrigue", "kingdoms", "zweihander", "ginlane", "hursagmu")
PLUG_INS = {"toy": EXAMPLES / "toy-game"}
"""Games installed as packages of their own (``docs/new-game.md``), with their example folders."""
STEPS = 60 if os.environ.get("CI") else 25
RUNS = 30 if os.environ.get("CI") else 6


def test_every_game_is_registered_by_entry_point() -> None:
    assert {*GAMES, *PLUG_INS} <= set(systems())
    for name in GAMES:
        game = system(name)
        assert game.name == name and game.title and game.rules
        assert len(game.catalogue) > 0, f"{name} has no action catalogue"
        for spec in game.catalogue.values():
            assert spec.section, f"{name}: {spec.kind} names no section of the text"
            assert spec.schema()["type"] == "object"


def setups(name: str) -> list[tuple[str, dict[str, Any]]]:
    """The setups (and players) of a game's example scenarios."""
    found = []
    for file in sorted(PLUG_INS.get(name, EXAMPLES / name).glob("*.yaml")):
        data = load_file(file)
        if isinstance(data, dict) and data.get("system") == name and "setup" in data:
            found.append((file.stem, data))
    return found


CASES = [(name, stem, data) for name in (*GAMES, *PLUG_INS) for stem, data in setups(name)]


def test_every_game_has_example_setups() -> None:
    assert {name for name, _, _ in CASES} == {*GAMES, *PLUG_INS}


def new_table(name: str, data: dict[str, Any]) -> Table[Any]:
    return system(name).new_table(
        data["setup"], players=data.get("players") or None, start=data.get("start", "00:00")
    )


def random_play(table: Table[Any], seed: int, steps: int) -> Table[Any]:
    rng = random.Random(seed)
    dice = RandomSource(seed)
    for _ in range(steps):
        seat = rng.choice(table.seats)
        choices = observe(table, seat.id, since=table.version).choices
        if not choices:
            continue
        action = rng.choice(choices).sample(rng)
        try:
            table = table.act(action, dice, seat=seat.id, expect_version=table.version)
        except (RuleError, ActionError):
            continue  # a refusal with the rule's reason: the table is unchanged
        except SeatError as error:  # a choice offered to a seat it may not take
            raise AssertionError(f"{seat.id} was offered {action}, then refused: {error}") from None
        check_prompts(table)
    return table


def check_prompts(table: Table[Any]) -> None:
    """While a blocking prompt waits, only its actors move and only their seats (and the
    referee) are offered anything; a secret prompt reaches no other seat, not even in words."""
    prompts = table.prompts()
    if not prompts:
        return
    blocking = {p.actor for p in prompts if p.blocking}
    if blocking:
        assert set(table.to_move()) == blocking
    for seat in table.seats:
        seen = observe(table, seat.id)
        raw = json.dumps(seen.to_json(), ensure_ascii=False)
        for prompt in prompts:
            entitled = (
                seat.is_referee or not prompt.secret or prompt.actor in seat.viewer.identities
            )
            assert (prompt in seen.prompts) is entitled, (seat.id, prompt)
            if not entitled:
                assert prompt.reason not in raw, (seat.id, prompt.reason)
        if blocking and not seat.is_referee:
            assert all(c.actor in blocking and c.prompt for c in seen.choices), seat.id


_WORD = re.compile(r"^[A-Za-z0-9_.:/\-]*$")


def _leaves(value: Any) -> Iterator[str]:
    """The texts of a secret worth searching for: sentences and names of some length, not
    identifiers, field names or numbers, which every seat reads in its own part of the game."""
    if isinstance(value, str):
        if len(value) >= 8 and not _WORD.match(value):
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _leaves(item)


def _own(value: Any, identities: frozenset[str]) -> Iterator[str]:
    """The texts of the parts of a view that are one of ``identities``' own: an entry keyed by
    one of them (a character's sheet), or a record naming one as its ``holder``."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in identities or (isinstance(item, dict) and item.get("holder") in identities):
                yield from _leaves(item)
            else:
                yield from _own(item, identities)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _own(item, identities)


def hidden_from(table: Table[Any], viewer: Viewer) -> set[str]:
    """Every secret text of the table that this seat may not see, and sees nowhere else.

    Worked out from the whole log and the audiences the game gave each part, not from what
    ``observe`` returns: a text counts as hidden when it stands only in parts the seat is not
    entitled to (a word also said in a part the seat may read is no secret from it).
    """
    seat_identities = viewer.identities
    hidden: set[str] = set()
    entitled: set[str] = {event.kind for event in table.log} | {o.value for o in Outcome}
    # what the seat was shown of its own before anyone acted (its characters' sheets, the
    # outsides of the envelopes they carry) is no secret from it when another's event says it
    # again (Intrigue: a search shows the searcher the labels of the victim's envelopes)
    opening = table.procedure.initial_state(table.setup)
    entitled.update(_own(table.procedure.visible_state(opening, viewer), seat_identities))
    for event in table.log:
        sees_event = event.audience.everyone or bool(event.audience.viewers & seat_identities)
        payload = dict(event.payload)
        if event.kind == TIMER_SET and "label" in payload:
            # a timer's label says what its event will mean when it fires: the words are no
            # secret from a seat that will see that event (its narration says them then)
            fired = next((s for s in event.secrets if s.name == "event"), None)
            if fired is not None and (
                fired.audience.everyone or bool(fired.audience.viewers & seat_identities)
            ):
                entitled.update(_leaves(payload.pop("label")))
        (entitled if sees_event else hidden).update(_leaves(payload))
        for secret in event.secrets:
            sees_part = secret.audience.everyone or bool(secret.audience.viewers & seat_identities)
            (entitled if sees_event and sees_part else hidden).update(_leaves(secret.value))
    for record in table.actions:
        sees_record = record.audience.includes(viewer)
        (entitled if sees_record else hidden).update(_leaves(dict(record.params)))
    return hidden - entitled


def check_secrets(table: Table[Any]) -> None:
    vocabulary = json.dumps(system(table.system).catalogue.to_json(), ensure_ascii=False)
    # what anyone at the table may read: the public log, and the state as the game shows it to
    # the public (Intrigue's badges: every character's name and number, worn in plain sight)
    shown = table.procedure.visible_state(table.state, Viewer(PUBLIC))
    public = json.dumps([[e.to_json() for e in table.view(PUBLIC)], shown], ensure_ascii=False)
    # a referee-only timer's label ("The Countess wakes") is no secret once a public event says
    # the same in words (the Medicine roll that wakes her): the narration of public events,
    # for timer labels alone
    told = " ".join(narrate(table, e, Viewer(PUBLIC)) for e in table.view(PUBLIC))
    labels = {
        str(e.payload["label"])
        for e in table.log
        if e.kind in (TIMER_SET, TIMER_CANCELLED) and "label" in e.payload
    }
    for seat in table.seats:
        if seat.is_referee:
            continue
        seen = observe(table, seat.id)
        raw = json.dumps(seen.to_json(), ensure_ascii=False)
        offered = json.dumps(
            [c.to_json() for c in seen.choices] + [p.to_json() for p in seen.previews],
            ensure_ascii=False,
        )
        for secret in hidden_from(table, seat.viewer):
            if secret in vocabulary or secret in offered or secret in public:
                continue  # a word every seat may read (a maneuver's name, a target's id)
            if secret in labels and secret in told:
                continue
            assert secret not in raw, f"{table.system}: seat {seat.id} sees {secret!r}"


def check_players_see_alike(table: Table[Any]) -> None:
    """A game that says its players see alike (``players_see_alike``: every seat's observation
    then shares one copy of the state) shows every viewer but the referee the same state."""
    if not table.procedure.players_see_alike:
        return
    shown = [
        table.procedure.visible_state(table.state, seat.viewer)
        for seat in table.seats
        if not seat.is_referee
    ]
    shown.append(table.procedure.visible_state(table.state, Viewer(PUBLIC)))
    assert all(s == shown[0] for s in shown), f"{table.system}: players are shown different states"


@pytest.mark.parametrize(("name", "stem", "data"), CASES, ids=[f"{n}-{s}" for n, s, _ in CASES])
@settings(
    max_examples=RUNS, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32))
def test_random_legal_play_keeps_the_contract(
    name: str, stem: str, data: dict[str, Any], seed: int
) -> None:
    table = random_play(new_table(name, data), seed, STEPS)
    # the state is the fold of the log
    replayed = Table.replay(table.procedure, table.setup, table.log)
    assert replayed.state == table.state
    # the record round-trips through JSON and re-decides to the same table
    record = json.loads(json.dumps(table.to_record()))
    assert system(name).load(record) == table
    # undoing the last action equals the record without it
    if table.actions:
        last = record["actions"][-1]
        first_event = last["events"][0]
        shorter = {
            **record,
            "actions": record["actions"][:-1],
            "events": record["events"][: first_event - 1],
            "version": first_event - 1,
        }
        assert table.undo() == system(name).load(shorter)
    check_secrets(table)
    check_players_see_alike(table)


def test_the_outsides_of_ones_own_envelopes_are_no_secret_from_oneself() -> None:
    """ScarFace knocks Krockin out and searches him: the search shows ScarFace the labels of
    Krockin's envelopes, a part for him alone. Krockin's player has read those labels on his
    own envelopes from the start, so the check of secrets does not count them hidden from him;
    from a seat that holds none of it they are still hidden."""
    data = load_file(ROOT / "examples" / "intrigue" / "the-victors-way.yaml")
    table = new_table("intrigue", data)
    dice = ScriptedSource([6, 6, 5])
    for actor, kind, params in [
        ("scarface", "draw", {"item": "knife"}),
        ("scarface", "start_combat", {"targets": ["krockin"]}),
        ("scarface", "declare", {"action": "attack", "target": "krockin"}),
        ("krockin", "declare", {"action": "defend"}),
        ("referee", "resolve", {}),
        ("scarface", "search", {"target": "krockin"}),
    ]:
        table = table.act(Action(actor, kind, params), dice)
    label = "Give to ALL with a Roll of 16 or more"
    assert label in json.dumps(observe(table, "kim").to_json(), ensure_ascii=False)
    assert label not in hidden_from(table, table.viewer("kim"))
    assert label in hidden_from(table, Viewer("stranger"))
    check_secrets(table)


def test_a_timer_label_said_by_a_public_event_is_no_secret() -> None:
    """The Gorilla shoots the Countess out; Dr Ambrose wakes her with Medicine. The wake timer
    was the referee's ("The Countess wakes"), but the Medicine roll says so to everyone: the
    check of secrets takes the label as said, and still finds a label no public event says."""
    data = load_file(ROOT / "examples" / "intrigue" / "open-if-shot.yaml")
    table = new_table("intrigue", data)
    dice = RandomSource(seed=2)
    for seat, actor, kind, params in [
        ("gus", "gorilla", "draw", {"item": "pistol"}),
        ("gus", "gorilla", "start_combat", {"targets": ["countess"], "surprised": ["countess"]}),
        ("gus", "gorilla", "declare", {"action": "attack", "target": "countess"}),
        ("gus", "gorilla", "resolve", {"combat": "combat-1"}),
        ("referee", "doctor", "revive", {"target": "countess"}),
    ]:
        table = table.act(Action(actor, kind, params), dice, seat=seat)
    assert [e.kind for e in table.log][-3:] == [
        "medicine.rolled",
        "timer.cancelled",
        "character.woke",
    ]
    check_secrets(table)

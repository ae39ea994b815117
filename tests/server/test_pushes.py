"""Pushes as deltas (docs/server.md, "Live updates"): a socket's first message is a full
observation; each push after it carries the events since the version the socket was last sent
and a JSON Patch of the rest of its observation against what it was last sent, so a push costs
the same bytes at any age of the table, and applied to what came before it gives exactly the
observation a seat would read."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketTestSession

from referee.core import (
    Action,
    ActionSpec,
    Catalogue,
    Choice,
    Event,
    NoParams,
    Procedure,
    register_system,
)
from referee.core.scenario import load_scenario
from referee.core.table import Table
from referee.server import patches
from referee.server.live import PAGE_EVENTS, Feed, Hub, Subscriber
from referee.server.state import state_of
from referee.server.views import ObservationCache
from tests.server.conftest import Seated, Server
from tests.server.test_games import EXAMPLES, GAMES, draw
from tests.server.test_secrets import receive

LOG_FIELDS = ("events", "actions", "since", "version", "tag", "reset", "table", "type", "earlier")


def base_of(message: Mapping[str, Any]) -> dict[str, Any]:
    """A message's observation less the log: what the next patch applies to."""
    return {k: v for k, v in message.items() if k not in LOG_FIELDS}


def text(value: Any) -> str:
    """JSON as a client reads it (``true`` is not ``1``), in one key order."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


# -- the patch itself ---------------------------------------------------------------------

SCALARS = (
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([0.5, 1.0, "", "a/b", "~"])
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.sampled_from(["a", "b", "c/d", "e~f", "0", ""]), inner, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(JSON, JSON)
def test_a_patch_turns_the_old_document_into_the_new(old: Any, new: Any) -> None:
    patch = patches.diff(old, new)
    assert text(patches.apply(old, patch)) == text(new)
    # and in the new document's own key order
    assert json.dumps(patches.apply(old, patch)) == json.dumps(new)
    assert {op["op"] for op in patch} <= {"add", "remove", "replace"}
    if json.dumps(old) == json.dumps(new):  # the same, key order too: nothing to send
        assert patch == []


def test_a_list_grown_at_its_end_costs_only_what_it_gained() -> None:
    old: dict[str, Any] = {
        "combats": [{"round": n, "blows": [n, n + 1]} for n in range(500)],
        "turn": 3,
    }
    new = {"combats": [*old["combats"], {"round": 500, "blows": []}], "turn": 4}
    assert patches.diff(old, new) == [
        {"op": "add", "path": "/combats/500", "value": {"round": 500, "blows": []}},
        {"op": "replace", "path": "/turn", "value": 4},
    ]


def test_a_patch_keeps_the_new_documents_key_order() -> None:
    """A domain's cases come in the game's order (the first is its form's default): a key that
    comes back ahead of the others is not appended at the end by an ``add``."""
    old = {"any_of": {"defend": 1, "move": 2}}
    new = {"any_of": {"attack": 0, "defend": 1, "move": 2}}
    patched = patches.apply(old, patches.diff(old, new))
    assert list(patched["any_of"]) == ["attack", "defend", "move"]
    assert patches.diff({"a": 1}, {"a": 1, "b": 2}) == [{"op": "add", "path": "/b", "value": 2}]


def test_true_is_not_one() -> None:
    assert patches.diff({"a": [1, True]}, {"a": [True, 1]}) == [
        {"op": "replace", "path": "/a/0", "value": True},
        {"op": "replace", "path": "/a/1", "value": 1},
    ]


def test_a_patch_that_does_not_fit_is_refused() -> None:
    with pytest.raises(patches.PatchError):
        patches.apply({"a": []}, [{"op": "remove", "path": "/a/0"}])
    with pytest.raises(patches.PatchError):
        patches.apply({"a": 1}, [{"op": "move", "from": "/a", "path": "/b"}])


# -- a table whose state keeps its whole history ------------------------------------------


class Chronicle(Procedure[tuple[int, ...]]):
    """A game whose state keeps every entry ever written (as Intrigue keeps every combat)."""

    catalogue = Catalogue([ActionSpec("write", NoParams, section="Chronicle", record="everyone")])

    def initial_state(self, setup: Mapping[str, Any]) -> tuple[int, ...]:
        return ()

    def legal_actions(self, state: tuple[int, ...], actor: str) -> Sequence[Choice]:
        return (Choice(actor, "write"),)

    def decide(self, state: tuple[int, ...], action: Action, dice: Any) -> Sequence[Event]:
        return (Event("written", {"by": action.actor, "entry": len(state)}),)

    def evolve(self, state: tuple[int, ...], event: Event) -> tuple[int, ...]:
        return (*state, len(state))

    def actors(self, state: tuple[int, ...]) -> Sequence[str]:
        return ("ann", "bob")

    def state_json(self, state: tuple[int, ...]) -> dict[str, Any]:
        return {"entries": [{"entry": n, "words": f"entry number {n}"} for n in state]}


register_system("chronicle", Chronicle())


def aged(server: Server, events: int) -> Seated:
    """A chronicle of ``events`` events, stored."""
    return server.grown(Chronicle(), "chronicle", "write", events)


def ann_writes(server: Server, table: Seated, version: int) -> None:
    """ann writes once at ``version``, and the table takes it."""
    acted = server.client.post(
        f"/api/tables/{table.id}/actions",
        headers=table.auth("ann"),
        json={"kind": "write", "version": version},
    )
    assert acted.status_code == 200, acted.text


def push_bytes(server: Server, table: Seated) -> tuple[int, dict[str, Any]]:
    """The bytes of the push ``bob`` is sent after one action of ``ann``."""
    url = f"/api/tables/{table.id}/live?since={table.version}"
    ws: WebSocketTestSession
    with server.client.websocket_connect(url, headers=table.auth("bob")) as ws:
        assert json.loads(receive(ws)["text"])["type"] == "observation"
        ann_writes(server, table, table.version)
        raw = receive(ws)["text"]
    return len(raw.encode()), json.loads(raw)


def test_a_push_costs_the_same_bytes_on_an_old_table_as_on_a_young_one(
    sqlite_server: Server,
) -> None:
    young, young_push = push_bytes(sqlite_server, aged(sqlite_server, 100))
    old, old_push = push_bytes(sqlite_server, aged(sqlite_server, 10_000))
    assert young_push["type"] == old_push["type"] == "patch"
    assert [e["kind"] for e in old_push["events"]] == ["written"]
    assert old <= young * 1.1, (young, old)


# -- every game's random play: each push applied gives the observation read ---------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_push_applied_to_the_last_is_the_observation_a_seat_reads(
    sqlite_server: Server, game: str
) -> None:
    server = sqlite_server
    scenario = load_scenario(EXAMPLES / game / f"{GAMES[game]}.yaml")
    table = server.create(
        game, scenario.setup, players=scenario.players or None, start=scenario.start
    )
    seats = list(table.tokens)
    rng = random.Random(29)
    url = f"/api/tables/{table.id}/live"
    contexts = [server.client.websocket_connect(url, headers=table.auth(s)) for s in seats]
    sockets = {seat: c.__enter__() for seat, c in zip(seats, contexts, strict=True)}
    try:
        bases: dict[str, dict[str, Any]] = {}
        versions: dict[str, int] = {}
        for seat, ws in sockets.items():
            first = json.loads(receive(ws)["text"])
            assert first["type"] == "observation"
            bases[seat], versions[seat] = base_of(first), first["version"]
        patched = 0
        for turn in range(30):
            seat = seats[turn % len(seats)]
            offered = server.client.get(f"{url[:-5]}/actions", headers=table.auth(seat)).json()
            if not offered["choices"]:
                continue
            choice = rng.choice(offered["choices"])
            body = {
                "kind": choice["kind"],
                "actor": choice["actor"],
                "params": {name: draw(d, rng) for name, d in choice["params"].items()},
                "version": offered["version"],
            }
            answer = server.client.post(f"{url[:-5]}/actions", headers=table.auth(seat), json=body)
            assert answer.status_code in (200, 422), answer.text
            if answer.status_code != 200:
                continue
            version = answer.json()["version"]
            for each, ws in sockets.items():
                while versions[each] < version:
                    pushed = json.loads(receive(ws)["text"])
                    if pushed["type"] == "patch":
                        assert pushed["since"] == versions[each]
                        bases[each] = patches.apply(bases[each], pushed["patch"])
                        patched += 1
                    else:
                        bases[each] = base_of(pushed)
                    versions[each] = pushed["version"]
                read = server.client.get(f"{url[:-5]}", headers=table.auth(each)).json()
                assert read["version"] == versions[each] == version
                assert text(bases[each]) == text(base_of(read)), (game, each, version)
        assert patched > 0, f"no push of {game} was a patch"
    finally:
        for context in reversed(contexts):
            context.__exit__(None, None, None)


# -- one hand-off per change ---------------------------------------------------------------


def test_every_seats_message_for_an_action_is_built_in_the_routes_own_worker_thread(
    sqlite_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An action over HTTP is one hand-off to a worker thread (issue 29): its route's, where
    the store takes it and every seat's message is built after it; the hub's builder hands
    nothing to a worker thread of its own, and waits for them (each change reaches the event
    loop as soon as the store took it, in the order taken)."""
    import threading
    import time

    handed: list[int] = []
    built_in: list[int] = []
    acted_in: list[int] = []
    messages, message, prepare = Hub._messages, Hub._message, Hub._prepare

    def counted(self: Hub, feed: Any, asks: Any, table: Any, epoch: int) -> Any:
        handed.append(len(asks))
        return messages(self, feed, asks, table, epoch)

    def traced(self: Hub, *args: Any) -> Any:
        built_in.append(threading.get_ident())
        return message(self, *args)

    def slow(self: Hub, *args: Any) -> Any:  # the loop has the change long before its messages
        time.sleep(0.2)
        return prepare(self, *args)

    monkeypatch.setattr(Hub, "_messages", counted)
    monkeypatch.setattr(Hub, "_message", traced)
    monkeypatch.setattr(Hub, "_prepare", slow)
    table = aged(sqlite_server, 10)
    store_act = sqlite_server.store.act

    def act(*args: Any, **kwargs: Any) -> Any:
        acted_in.append(threading.get_ident())
        return store_act(*args, **kwargs)

    monkeypatch.setattr(sqlite_server.store, "act", act)
    url = f"/api/tables/{table.id}/live?since={table.version}"
    with (
        sqlite_server.client.websocket_connect(url, headers=table.auth("ann")) as ann,
        sqlite_server.client.websocket_connect(url, headers=table.auth("bob")) as bob,
        sqlite_server.client.websocket_connect(url, headers=table.auth("referee")) as referee,
    ):
        for ws in (ann, bob, referee):
            receive(ws)
        handed.clear()
        built_in.clear()
        ann_writes(sqlite_server, table, table.version)
        for ws in (ann, bob, referee):
            assert json.loads(receive(ws)["text"])["version"] == table.version + 1
    assert handed == []
    assert len(acted_in) == 1 and built_in == acted_in * 3


def hashes_counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on, every token the server hashes, in order (what costs a SHA-256)."""
    from referee.server import auth

    hashes: list[str] = []
    token_key = auth.token_key

    def counted(token: str) -> str:
        hashes.append(token)
        return token_key(token)

    monkeypatch.setattr(auth, "token_key", counted)
    return hashes


def test_a_socket_hashes_its_token_once_not_before_each_push(
    sqlite_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before each push the socket's token is checked again (a revoked seat is closed), from
    the hash it took when it opened: the only hashes while ann acts are her requests' own."""
    table = aged(sqlite_server, 10)
    url = f"/api/tables/{table.id}/live?since={table.version}"
    with sqlite_server.client.websocket_connect(url, headers=table.auth("bob")) as bob:
        receive(bob)
        hashes = hashes_counted(monkeypatch)
        version = table.version
        for _ in range(5):
            ann_writes(sqlite_server, table, version)
            version += 1
            assert json.loads(receive(bob)["text"])["version"] == version
    assert hashes and set(hashes) == {table.tokens["ann"]}  # bob's, never again


def test_a_request_hashes_its_token_once(
    sqlite_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A token not remembered is hashed once a request (issue 29: at most one hash a request),
    whether the request is an action or a socket opening, and not again when the store is
    asked which seat it opens."""
    table = aged(sqlite_server, 3)
    resolver = state_of(sqlite_server.client.app).resolver
    hashes = hashes_counted(monkeypatch)
    resolver.forget_all()
    ann_writes(sqlite_server, table, table.version)
    assert hashes == [table.tokens["ann"]]
    resolver.forget_all()
    url = f"/api/tables/{table.id}/live?since={table.version + 1}"
    with sqlite_server.client.websocket_connect(url, headers=table.auth("bob")) as bob:
        receive(bob)
    assert hashes == [table.tokens["ann"], table.tokens["bob"]]


def test_sockets_due_the_same_bytes_share_one_message() -> None:
    table = Table.start(Chronicle(), {}, system="chronicle")
    cache = ObservationCache()
    hub = Hub(store=None, observations=cache)  # type: ignore[arg-type]
    subs = [Subscriber("t", "bob", None, 0, None, lambda: True) for _ in range(3)]  # type: ignore[arg-type]
    made = hub._messages(Feed("t"), [(s, None) for s in subs], table, 0)
    assert made[0] is made[1] is made[2]


# -- a long catch-up in pages ---------------------------------------------------------------


def test_a_long_catch_up_comes_in_pages_of_events_before_the_observation(
    sqlite_server: Server,
) -> None:
    table = aged(sqlite_server, 3 * PAGE_EVENTS + 11)
    url = f"/api/tables/{table.id}/live?since=1"  # back after missing all but the first
    with sqlite_server.client.websocket_connect(url, headers=table.auth("bob")) as ws:
        messages = []
        while not messages or messages[-1]["type"] != "observation":
            messages.append(json.loads(receive(ws)["text"]))
    read = sqlite_server.client.get(
        f"/api/tables/{table.id}", params={"since": 1}, headers=table.auth("bob")
    ).json()
    pages, last = messages[:-1], messages[-1]
    assert [m["type"] for m in pages] == ["events"] * 3
    assert all(len(m["events"]) == PAGE_EVENTS for m in pages)
    assert [m["since"] for m in messages] == [1, *(m["through"] for m in pages)]
    assert [e for m in messages for e in m["events"]] == read["events"]
    assert [a for m in messages for a in m["actions"]] == read["actions"]
    assert base_of(last) == base_of(read) and last["version"] == read["version"]
    assert not any(m["reset"] for m in messages)


def test_a_socket_opened_without_since_is_sent_what_an_open_answers(sqlite_server: Server) -> None:
    sizes = {}
    for events in (100, 10_000):
        table = aged(sqlite_server, events)
        url = f"/api/tables/{table.id}/live"
        with sqlite_server.client.websocket_connect(url, headers=table.auth("bob")) as ws:
            first = receive(ws)["text"]
        read = sqlite_server.client.get(f"/api/tables/{table.id}", headers=table.auth("bob"))
        message = json.loads(first)
        assert message["type"] == "observation" and not message["reset"]
        assert message["events"] == read.json()["events"]
        assert message["earlier"] == read.json()["earlier"]
        assert base_of(message) == base_of(read.json())
        sizes[events] = len(first.encode())
    assert sizes[10_000] <= sizes[100] * 1.1, sizes  # the latest events, not the log


def test_a_client_that_asks_for_a_full_observation_is_sent_one(sqlite_server: Server) -> None:
    table = aged(sqlite_server, 20)
    url = f"/api/tables/{table.id}/live?since={table.version}"
    with sqlite_server.client.websocket_connect(url, headers=table.auth("bob")) as ws:
        assert json.loads(receive(ws)["text"])["events"] == []
        ws.send_text('{"type": "full", "since": "x"}')  # not a version: ignored
        ws.send_text("hello")  # ignored
        ws.send_text(json.dumps({"type": "full", "since": 10, "tag": None}))
        again = json.loads(receive(ws)["text"])
    read = sqlite_server.client.get(f"/api/tables/{table.id}", headers=table.auth("bob")).json()
    assert again["type"] == "observation" and again["since"] == 10 and not again["reset"]
    assert again["events"] == [e for e in read["events"] if e["number"] > 10]
    assert base_of(again) == base_of(read)

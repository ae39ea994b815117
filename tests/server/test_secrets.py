"""The authorization matrix: every route × every caller × every secret kind, raw bytes searched.

Callers: each seat of a table, the referee's seat of another table, no token, a revoked token.
Secrets: the kernel toy's (a perception envelope and who holds it, a sealed slip before the
reveal, a referee-only note, a private roll, a timer's future event), with values unique enough
to search for anywhere; and each real game's, from its worked examples (perception and
contingency envelopes, sealed slips, the GM's secret skills, private rolls, plans), cut just
after each action whose record is private, so a slip is checked while still sealed. Every
response — status line, headers and body — and every WebSocket message is searched.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse, WebSocketTestSession

from referee.core.errors import RuleError
from referee.core.procedures import Action
from referee.core.scenario import Scenario, load_scenario, start_table
from referee.core.table import Table
from referee.dice import DiceSourceError
from referee.server.live import MESSAGES_PER_MINUTE
from tests.server.conftest import Seated, Server
from tests.server.secrets_search import find_leaks, forbidden_for

EXAMPLES = Path(__file__).parents[2] / "examples"

Body = tuple[str, bytes]


def raw(where: str, response: Any) -> Body:
    """A response as bytes: status, headers and body."""
    head = f"{response.status_code}\n" + "\n".join(f"{k}: {v}" for k, v in response.headers.items())
    return where, head.encode() + b"\n\n" + response.content


def next_message(ws: WebSocketTestSession, seconds: float = 5.0) -> dict[str, Any]:
    """The next message of a test socket (a send or a close), or a failure after ``seconds``
    (never a hang)."""

    async def wait() -> Any:
        with anyio.fail_after(seconds):
            return await ws._send_rx.receive()

    return dict(ws.portal.call(wait))


def receive(ws: WebSocketTestSession, seconds: float = 5.0) -> dict[str, Any]:
    """The next message a test socket was sent."""
    message = next_message(ws, seconds)
    assert message["type"] == "websocket.send", message
    return message


ANSWER_FRAGMENTS = (b'"simulation"', b'"win_rates"', b'"exact_reason"', b'"by_round"')
"""Pieces of a ``/simulate`` answer that no refusal may hold."""


def read_everything(
    client: TestClient,
    table_id: str,
    headers: dict[str, str],
    token: str | None,
    version: int,
    simulate: bool = True,
) -> list[Body]:
    """Every route about a table, as one caller, without changing the table (``/simulate``
    too, unless ``simulate`` is false: the referee's own answer is whole encounters played)."""
    url = f"/api/tables/{table_id}"
    bodies = [
        raw("observe", client.get(url, headers=headers)),
        raw("observe since", client.get(url, params={"since": 1}, headers=headers)),
        raw("actions", client.get(f"{url}/actions", headers=headers)),
        raw("seat", client.get(f"{url}/seat", headers=headers)),
        raw("seats", client.get(f"{url}/seats", headers=headers)),
        raw(
            "stale act",
            client.post(f"{url}/actions", headers=headers, json={"kind": "x", "version": 0}),
        ),
        raw(
            "unknown act",
            client.post(
                f"{url}/actions", headers=headers, json={"kind": "fly", "version": version}
            ),
        ),
        raw("stale undo", client.post(f"{url}/undo", headers=headers, json={"version": 0})),
        raw("join", client.post(f"{url}/join", json={"token": token or "no-such-token"})),
        raw("verify", client.get(f"{url}/verify", headers=headers)),
        raw("odds of nothing", client.post(f"{url}/odds", headers=headers, json={"kind": "fly"})),
    ]
    # the odds of every action this seat may take, with its parameters' first values
    offered = client.get(f"{url}/actions", headers=headers)
    for choice in offered.json().get("choices", []) if offered.status_code == 200 else []:
        params = {
            name: (domain.get("one_of") or [None])[0]
            for name, domain in choice.get("params", {}).items()
            if domain.get("one_of")
        }
        ask = {"kind": choice["kind"], "actor": choice["actor"], "params": params}
        bodies.append(
            raw(f"odds {choice['kind']}", client.post(f"{url}/odds", headers=headers, json=ask))
        )
    if simulate:
        asked = client.get(f"{url}/simulate", params={"runs": 1}, headers=headers)
        bodies.append(raw("simulate", asked))
    client.cookies.clear()
    cookie = {"Cookie": f"referee_seat_{table_id}={token}"} if token else {}
    bodies.append(raw("my tables", client.get("/api/tables", headers=cookie)))
    bodies.append(raw("observe by cookie", client.get(url, headers=cookie)))
    try:
        with client.websocket_connect(f"{url}/live", headers=headers) as ws:
            bodies.append(("live", receive(ws)["text"].encode()))
    except WebSocketDenialResponse as denied:
        bodies.append(raw("live denied", denied))
    return bodies


def read_as_referee_only(client: TestClient, table_id: str, headers: dict[str, str]) -> list[Body]:
    """The routes whose answer differs for the referee: the record, and mint/revoke refused."""
    url = f"/api/tables/{table_id}"
    return [
        raw("record", client.get(f"{url}/record", headers=headers)),
        raw("mint", client.post(f"{url}/seats/nobody/token", headers=headers)),
        raw("revoke", client.delete(f"{url}/seats/nobody/token", headers=headers)),
        raw("simulate (referee)", client.get(f"{url}/simulate", headers=headers)),
    ]


# ----------------------------------------------------------------------- the kernel toy

ENVELOPES = {
    "scarface": "Scarface-envelope: the ledger is under the floorboards",
    "krockin": "Krockin-envelope: owes the Baron forty crowns",
    "lady": "Lady-envelope: is the Baron's sister",
}
NOTE = "Referee-note: the butler did it"
SLIPS = {"scarface": "feint", "krockin": "hold"}


def toy_secrets() -> dict[str, tuple[set[str], list[str]]]:
    """Each secret: the seats that may see it by the end, and its byte patterns."""
    slip = {
        writer: [
            f'"name":"maneuver","value":"{m}"',
            f'"maneuver":"{m}"',
            f"maneuver='{m}'",
            f'"{writer}":"{m}"',
        ]
        for writer, m in SLIPS.items()
    }
    return {
        "scarface's envelope": ({"referee", "lady"}, [ENVELOPES["scarface"]]),
        "krockin's envelope, held by scarface": ({"referee", "scarface"}, [ENVELOPES["krockin"]]),
        "lady's envelope": ({"referee"}, [ENVELOPES["lady"]]),
        "the referee's note": ({"referee", "scarface"}, [NOTE, "note.made"]),
        "scarface's sealed slip": ({"referee", "scarface"}, slip["scarface"]),
        "krockin's sealed slip": ({"referee", "krockin"}, slip["krockin"]),
        "lady's private roll": ({"referee", "lady"}, ["recall.rolled"]),
        "a cooldown timer's future event": (
            {"referee"},
            ["perception.ready", "cooldown:scarface:krockin", "cooldown:lady:scarface"],
        ),
    }


def toy_leaks(seat: str, bodies: list[Body]) -> list[str]:
    """The toy's secrets found in ``bodies`` sent to ``seat`` (``"-"``: no seat here)."""
    leaks = []
    for name, (allowed, patterns) in toy_secrets().items():
        if seat in allowed:
            continue
        for where, body in bodies:
            for pattern in patterns:
                if pattern.encode() in body:
                    leaks.append(f"{name} ({pattern!r}) sent to {seat} by {where}")
    return leaks


def act(server: Server, table: Seated, seat: str, kind: str, **params: Any) -> dict[str, Any]:
    """An action through the API, at the version now."""
    version = server.store.version(table.id)
    response = server.client.post(
        f"/api/tables/{table.id}/actions",
        headers=table.auth(seat),
        json={"kind": kind, "params": params, "version": version},
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


@pytest.fixture
def toy(server: Server) -> Seated:
    """A toy table with every secret kind in play, and a table beside it."""
    setup = {
        "characters": {
            name: {"skill": 10, "envelope": envelope} for name, envelope in ENVELOPES.items()
        }
    }
    players = {"scarface": ["scarface"], "krockin": ["krockin"], "lady": ["lady"], "extra": []}
    table = server.create(setup=setup, players=players)
    act(server, table, "scarface", "perceive", target="krockin")  # skill 10: always succeeds
    act(server, table, "scarface", "write_slip", maneuver=SLIPS["scarface"])
    act(server, table, "scarface", "note", text=NOTE)
    act(server, table, "lady", "recall", chance=50)
    return table


def callers(server: Server, table: Seated) -> Iterator[tuple[str, dict[str, str], str | None]]:
    """``(who, headers, token)``: each seat, another table's referee, no token, a revoked one."""
    for seat, token in table.tokens.items():
        if seat != "extra":
            yield seat, {"Authorization": f"Bearer {token}"}, token
    other = server.create(name="other")
    yield "-", other.auth("referee"), other.tokens["referee"]
    yield "-", {}, None
    revoked = table.tokens["extra"]
    gone = server.client.delete(
        f"/api/tables/{table.id}/seats/extra/token", headers=table.auth("referee")
    )
    assert gone.status_code == 204
    yield "-", {"Authorization": f"Bearer {revoked}"}, revoked


def test_no_route_sends_a_seat_a_toy_secret(server: Server, toy: Seated) -> None:
    leaks: list[str] = []
    version = server.store.version(toy.id)
    for seat, headers, token in callers(server, toy):
        bodies = read_everything(server.client, toy.id, headers, token, version)
        bodies += read_as_referee_only(server.client, toy.id, headers)
        leaks += toy_leaks(seat, bodies)
        if seat != "referee":
            statuses = {where: body.split(b"\n", 1)[0] for where, body in bodies}
            assert statuses["record"] in (b"401", b"403"), statuses
            assert statuses["simulate"] in (b"401", b"403"), statuses
        if seat == "-":
            refused = {w: b[:3] for w, b in bodies if w not in ("join", "my tables")}
            assert set(refused.values()) == {b"401"}, refused
            mine = dict(bodies)["my tables"]
            assert mine.startswith(b"200") and mine.endswith(b'{"tables":[]}'), mine
    assert not leaks, "\n".join(leaks)
    # the test can see a secret where one is: the referee's record holds every one
    record = read_as_referee_only(server.client, toy.id, toy.auth("referee"))[0][1]
    for name, (_, patterns) in toy_secrets().items():
        if name != "krockin's sealed slip":  # written in the live test
            assert any(p.encode() in record for p in patterns), name


def test_no_live_message_sends_a_seat_a_toy_secret(server: Server, toy: Seated) -> None:
    """Each seat's socket, open while more secrets are made, is pushed only its own."""
    client = server.client
    leaks: list[str] = []
    seats = [s for s in toy.tokens if s != "extra"]
    sockets = {}
    stack = []
    for seat in seats:
        cm = client.websocket_connect(f"/api/tables/{toy.id}/live", headers=toy.auth(seat))
        sockets[seat] = cm.__enter__()
        stack.append(cm)
    try:
        messages: dict[str, list[bytes]] = {seat: [] for seat in seats}
        for seat, ws in sockets.items():
            messages[seat].append(receive(ws)["text"].encode())
        act(server, toy, "krockin", "write_slip", maneuver=SLIPS["krockin"])
        final = act(server, toy, "lady", "perceive", target="scarface")["version"]
        for seat, ws in sockets.items():
            version = 0
            while version < final:
                text = receive(ws)["text"]
                messages[seat].append(text.encode())
                version = json.loads(text)["version"]
        for seat in seats:
            leaks += toy_leaks(seat, [(f"live {i}", m) for i, m in enumerate(messages[seat])])
        # lady was pushed scarface's envelope when she perceived him: secrets do arrive
        assert any(ENVELOPES["scarface"].encode() in m for m in messages["lady"])
    finally:
        for cm in reversed(stack):
            cm.__exit__(None, None, None)
    assert not leaks, "\n".join(leaks)


def test_a_revoked_seat_is_cut_off_its_socket(server: Server, toy: Seated) -> None:
    client = server.client
    with client.websocket_connect(f"/api/tables/{toy.id}/live", headers=toy.auth("lady")) as ws:
        receive(ws)
        gone = client.delete(f"/api/tables/{toy.id}/seats/lady/token", headers=toy.auth("referee"))
        assert gone.status_code == 204
        closing = next_message(ws)
        assert closing["type"] == "websocket.close" and closing["code"] == 4401
    url = f"/api/tables/{toy.id}/live"
    with (
        pytest.raises(WebSocketDenialResponse) as denied,
        client.websocket_connect(url, headers=toy.auth("lady")),
    ):
        pass
    assert denied.value.status_code == 401


def test_a_socket_answers_pings_and_is_closed_when_it_floods(server: Server, toy: Seated) -> None:
    with server.client.websocket_connect(
        f"/api/tables/{toy.id}/live", headers=toy.auth("lady")
    ) as ws:
        receive(ws)  # the first observation
        ws.send_text("ping")
        assert json.loads(receive(ws)["text"]) == {"type": "pong"}
        for _ in range(MESSAGES_PER_MINUTE):
            ws.send_text("hello")  # ignored, but counted
        closing = next_message(ws)
        assert closing["type"] == "websocket.close" and closing["code"] == 1008


# -------------------------------------------------------------------------- the five games

SCENARIOS = {
    "intrigue": ["perception-envelopes", "contingency-envelopes", "lady-rich"],
    "kingdoms": ["four-factions-every-maneuver", "artha-and-the-tie-breaker"],
    "zweihander": ["complex-exchange", "morale-tests-requisitions"],
    "ginlane": ["ambush"],
    "hursagmu": ["thief-and-sleeper", "chuck-waits-for-mace"],
}


def _play(scenario: Scenario) -> Iterator[Table[Any]]:
    """The tables a scenario passes through: after each action whose record is private (at
    most three of them, spread out) and at the end."""
    table = start_table(scenario)
    dice = scenario.dice.source()
    tables = []
    for step in scenario.actions:
        at = scenario.time_of(step, table.now)
        if step.action is None:
            table = table.advance(at if at is not None else table.now)
            continue
        action = Action(step.actor or "", step.action, step.params)
        try:
            after = table.act(action, dice, at=at)
        except (RuleError, DiceSourceError):
            if step.refused is None:
                raise
            continue
        if after.actions and after.actions[-1].audience.to_json() != "everyone":
            tables.append(after)
        table = after
    if len(tables) > 3:
        tables = [tables[0], tables[len(tables) // 2], tables[-1]]
    yield from tables
    yield table


@pytest.mark.slow  # every worked example of every game, through every route
@pytest.mark.parametrize(
    "example", [f"{game}/{name}" for game, names in SCENARIOS.items() for name in names]
)
def test_no_route_sends_a_seat_a_secret_of_a_real_game(sqlite_server: Server, example: str) -> None:
    server = sqlite_server
    scenario = load_scenario(EXAMPLES / f"{example}.yaml")
    checked = 0
    for table in _play(scenario):
        created = server.store.import_record(table.to_record(), name=example)
        outsider = {"Authorization": "Bearer nobody"}
        for seat, token in [*created.tokens.items(), (None, None)]:
            headers = {"Authorization": f"Bearer {token}"} if token else outsider
            forbidden = forbidden_for(table, seat)
            checked += len(forbidden)
            bodies = read_everything(
                server.client, created.id, headers, token, table.version, seat != "referee"
            )
            leaks = find_leaks(bodies, forbidden)
            for where, body in bodies:
                if where == "simulate":  # a player's (or nobody's) refusal: none of the answer
                    assert body[:3] in (b"401", b"403"), (seat, body[:200])
                    leaks += [f"simulate: {f!r}" for f in ANSWER_FRAGMENTS if f in body]
            assert not leaks, f"{example} at version {table.version}, seat {seat}:\n" + "\n".join(
                leaks[:20]
            )
    assert checked > 0  # there were secrets to look for

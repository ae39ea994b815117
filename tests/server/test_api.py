"""The JSON API, route by route, on SQLite and PostgreSQL: what each returns, and the one error
body for each way a request can be wrong, with nothing stored after a refused one."""

from __future__ import annotations

import contextlib
import logging
from fractions import Fraction
from typing import Any

import pytest

from referee.server import Settings
from tests.server.conftest import Seated, Server, running

V = object()
"""In a body below: the version the table was created at."""


def error(response: Any, status: int, code: str) -> dict[str, Any]:
    """The error of a response, checked for its status, code and the one body shape."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    detail = body["error"]
    assert set(detail) == {"status", "code", "message", "where", "rule", "reason", "version"}
    assert detail["status"] == status and detail["code"] == code, detail
    assert detail["message"]
    return dict(detail)


def record(server: Server, table: Seated) -> dict[str, Any]:
    """The table's whole record, read straight from the store."""
    return server.store.export(table.id)


# ---------------------------------------------------------------------------------- games


def test_games_are_listed_with_setup_schema_and_catalogue(server: Server) -> None:
    games = server.client.get("/api/games").json()
    names = {g["name"] for g in games}
    assert {"intrigue", "kingdoms", "zweihander", "ginlane", "hursagmu", "kernel_toy"} <= names
    toy = server.client.get("/api/games/kernel_toy").json()
    kinds = {a["kind"] for a in toy["actions"]}
    assert {"attack", "perceive", "write_slip", "note"} <= kinds
    assert all("schema" in a for a in toy["actions"])
    error(server.client.get("/api/games/nonesuch"), 404, "not_found")


# --------------------------------------------------------------------------------- tables


def test_a_table_is_created_with_a_token_and_join_link_per_seat(server: Server) -> None:
    table = server.create(name="Winter war")
    assert set(table.tokens) == {"referee", "scarface", "krockin"}
    for seat in table.created["seats"]:
        assert seat["join"] == f"/join/{table.id}#{seat['token']}"
    assert server.store.tables()[0].name == "Winter war"


def test_a_bad_setup_is_422_with_its_path_and_nothing_is_stored(server: Server) -> None:
    setup = {"characters": {"a": {"skill": "x"}, "b": {}}}
    body = {"system": "kernel_toy", "setup": setup, "name": "t"}
    detail = error(server.client.post("/api/tables", json=body), 422, "setup")
    assert detail["where"] == ["body", "setup", "characters", "a", "skill"]
    detail = error(
        server.client.post("/api/tables", json={**body, "system": "chess"}), 422, "setup"
    )
    assert detail["where"] == ["body", "system"]
    detail = error(server.client.post("/api/tables", json={"system": "kernel_toy"}), 422, "invalid")
    assert detail["where"] == ["body", "name"]
    assert server.store.tables() == []


def test_join_sets_an_httponly_samesite_cookie_and_lists_my_tables(server: Server) -> None:
    one, two = server.create(name="one"), server.create(name="two")
    response = server.client.post(
        f"/api/tables/{one.id}/join", json={"token": one.tokens["krockin"]}
    )
    assert response.json()["seat"] == "krockin"
    cookie = response.headers["set-cookie"]
    assert f"referee_seat_{one.id}=" in cookie
    assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower()
    server.client.post(f"/api/tables/{two.id}/join", json={"token": two.tokens["referee"]})
    mine = server.client.get("/api/tables").json()["tables"]
    assert {(t["name"], t["seat"]) for t in mine} == {("one", "krockin"), ("two", "referee")}
    # the cookie opens the table for its seat
    assert server.client.get(f"/api/tables/{one.id}").json()["viewer"] == "krockin"
    server.client.post(f"/api/tables/{one.id}/leave")
    assert [t["name"] for t in server.client.get("/api/tables").json()["tables"]] == ["two"]
    error(server.client.get(f"/api/tables/{one.id}"), 401, "unauthorized")


def test_join_with_a_wrong_token_is_401(server: Server) -> None:
    table = server.create()
    response = server.client.post(f"/api/tables/{table.id}/join", json={"token": "guess"})
    error(response, 401, "unauthorized")
    assert "set-cookie" not in response.headers


# ------------------------------------------------------------------------------ observing


def test_a_seat_observes_the_table_since_a_version(server: Server) -> None:
    table = server.create()
    whole = server.client.get(f"/api/tables/{table.id}", headers=table.auth("scarface")).json()
    v = table.version
    assert whole["viewer"] == "scarface" and whole["version"] == v and not whole["reset"]
    act = {"kind": "rally", "params": {"dice": 2}, "version": v}
    after = server.client.post(
        f"/api/tables/{table.id}/actions", headers=table.auth("scarface"), json=act
    ).json()
    assert after["since"] == v and [e["number"] for e in after["events"]] == [v + 1]
    delta = server.client.get(
        f"/api/tables/{table.id}",
        params={"since": v, "tag": whole["tag"]},
        headers=table.auth("krockin"),
    ).json()
    assert [e["kind"] for e in delta["events"]] == ["rally.rolled"] and not delta["reset"]
    assert delta["events"][0]["text"]


def test_the_actions_open_to_a_seat_carry_schemas_and_odds(server: Server) -> None:
    table = server.create()
    seen = server.client.get(
        f"/api/tables/{table.id}/actions", headers=table.auth("scarface")
    ).json()
    assert {c["actor"] for c in seen["choices"]} == {"scarface"}
    attack = next(c for c in seen["choices"] if c["kind"] == "attack")
    assert attack["params"] == {"target": {"one_of": ["krockin"]}}
    assert attack["odds"] and attack["parameters"]["properties"]["target"]
    referee = server.client.get(
        f"/api/tables/{table.id}/actions", headers=table.auth("referee")
    ).json()
    assert {c["actor"] for c in referee["choices"]} == {"scarface", "krockin"}


def test_whoami_and_seats(server: Server) -> None:
    table = server.create(name="Winter war")
    me = server.client.get(f"/api/tables/{table.id}/seat", headers=table.auth("krockin")).json()
    assert me == {
        "table": table.id,
        "name": "Winter war",
        "title": "kernel_toy",
        "system": "kernel_toy",
        "seat": "krockin",
        "plays": ["krockin"],
        "is_referee": False,
        "version": table.version,
    }
    error(
        server.client.get(f"/api/tables/{table.id}/seats", headers=table.auth("krockin")),
        403,
        "forbidden",
    )
    seats = server.client.get(f"/api/tables/{table.id}/seats", headers=table.auth("referee"))
    assert [s["id"] for s in seats.json()] == ["referee", "scarface", "krockin"]


# -------------------------------------------------------------------------------- acting


def test_acting_on_a_stale_version_is_409_with_the_version_now(server: Server) -> None:
    table = server.create()
    url = f"/api/tables/{table.id}/actions"
    ok = server.client.post(
        url, headers=table.auth("scarface"), json={"kind": "rally", "version": table.version}
    )
    assert ok.status_code == 200
    before = record(server, table)
    stale = server.client.post(
        url, headers=table.auth("krockin"), json={"kind": "rally", "version": table.version}
    )
    assert error(stale, 409, "stale")["version"] == table.version + 1
    assert record(server, table) == before


@pytest.mark.parametrize(
    ("body", "status", "code", "where"),
    [
        ({"kind": "fly", "version": V}, 422, "action", ["kind"]),
        (
            {"kind": "attack", "params": {"target": 5}, "version": V},
            422,
            "action",
            ["params", "target"],
        ),
        (
            {"kind": "attack", "params": {"targte": "krockin"}, "version": V},
            422,
            "action",
            ["params", "targte"],
        ),
        ({"kind": "attack", "params": {"target": "scarface"}, "version": V}, 422, "rule", None),
        ({"kind": "attack", "params": {"target": "krockin"}}, 422, "invalid", ["body", "version"]),
        ({"kind": "attack", "version": "1"}, 422, "invalid", ["body", "version"]),
        ({"kind": "attack", "version": V, "dice": [6, 6]}, 422, "invalid", ["body", "dice"]),
        ({"kind": "note", "actor": "krockin", "version": V}, 403, "forbidden", None),
        ({"kind": "note", "version": V, "at": 3600}, 403, "forbidden", ["at"]),
        ([1, 2], 422, "invalid", ["body"]),
    ],
)
def test_a_bad_action_is_the_documented_4xx_and_nothing_is_stored(
    server: Server, body: Any, status: int, code: str, where: list[Any] | None
) -> None:
    table = server.create()
    before = record(server, table)
    if isinstance(body, dict) and body.get("version") is V:
        body = {**body, "version": table.version}
    response = server.client.post(
        f"/api/tables/{table.id}/actions", headers=table.auth("scarface"), json=body
    )
    detail = error(response, status, code)
    assert detail["where"] == where
    if code == "rule":
        assert detail["rule"] == "Toy: attack" and detail["reason"]
    assert record(server, table) == before


def test_a_malformed_huge_or_non_json_body_is_refused_and_nothing_is_stored(
    server: Server,
) -> None:
    table = server.create()
    url = f"/api/tables/{table.id}/actions"
    before = record(server, table)
    headers = {**table.auth("scarface"), "content-type": "application/json"}
    error(server.client.post(url, headers=headers, content=b'{"kind": '), 422, "invalid")
    huge = b'{"kind": "note", "version": 1, "params": {"text": "' + b"x" * 300_000 + b'"}}'
    error(server.client.post(url, headers=headers, content=huge), 413, "too_large")
    plain = {**table.auth("scarface"), "content-type": "text/plain"}
    error(
        server.client.post(url, headers=plain, content=b'{"kind":"rally","version":1}'),
        415,
        "unsupported",
    )
    form = {**table.auth("scarface"), "content-type": "application/x-www-form-urlencoded"}
    error(
        server.client.post(url, headers=form, content=b"kind=rally&version=1"), 415, "unsupported"
    )
    assert record(server, table) == before


def test_a_body_without_a_length_is_capped_as_it_arrives(server: Server) -> None:
    table = server.create()

    def chunks() -> Any:
        yield b'{"kind": "note", "version": 1, "params": {"text": "'
        for _ in range(40):
            yield b"y" * 10_000
        yield b'"}}'

    response = server.client.post(
        f"/api/tables/{table.id}/actions",
        headers={**table.auth("scarface"), "content-type": "application/json"},
        content=chunks(),
    )
    error(response, 413, "too_large")
    assert server.store.version(table.id) == table.version


def test_undo_is_the_referees_and_answers_from_the_first_event(server: Server) -> None:
    table = server.create()
    url = f"/api/tables/{table.id}"
    server.client.post(
        f"{url}/actions",
        headers=table.auth("scarface"),
        json={"kind": "rally", "version": table.version},
    )
    error(server.client.post(f"{url}/undo", headers=table.auth("scarface")), 403, "forbidden")
    assert (
        error(
            server.client.post(
                f"{url}/undo", headers=table.auth("referee"), json={"version": table.version}
            ),
            409,
            "stale",
        )["version"]
        == table.version + 1
    )
    undone = server.client.post(
        f"{url}/undo", headers=table.auth("referee"), json={"version": table.version + 1}
    )
    assert undone.json()["reset"] and undone.json()["version"] == table.version
    assert server.store.version(table.id) == table.version


def test_a_tag_from_before_an_undo_resets_the_events(server: Server) -> None:
    table = server.create()
    url = f"/api/tables/{table.id}"
    referee = table.auth("referee")
    act = {"kind": "rally", "actor": "scarface", "version": table.version}
    seen = server.client.post(f"{url}/actions", headers=referee, json=act).json()
    server.client.post(f"{url}/undo", headers=referee)
    # another action to the same version: a client holding the old one must start again
    again = {"kind": "rally", "actor": "krockin", "params": {"dice": 3}, "version": table.version}
    assert server.client.post(f"{url}/actions", headers=referee, json=again).status_code == 200
    again = server.client.get(
        url, params={"since": table.version + 1, "tag": seen["tag"]}, headers=table.auth("scarface")
    ).json()
    assert again["reset"] and again["since"] == 0
    assert [e["number"] for e in again["events"]] == list(range(1, table.version + 2))
    same = server.client.get(
        url,
        params={"since": table.version + 1, "tag": again["tag"]},
        headers=table.auth("scarface"),
    ).json()
    assert not same["reset"] and same["events"] == []


def test_export_is_the_referees_alone(server: Server) -> None:
    table = server.create()
    for seat in ("scarface", "krockin"):
        error(
            server.client.get(f"/api/tables/{table.id}/record", headers=table.auth(seat)),
            403,
            "forbidden",
        )
    whole = server.client.get(f"/api/tables/{table.id}/record", headers=table.auth("referee"))
    assert whole.json() == record(server, table)


# ---------------------------------------------------------------------------------- seats


def test_mint_and_revoke_are_the_referees(server: Server) -> None:
    table = server.create()
    url = f"/api/tables/{table.id}"
    error(
        server.client.post(f"{url}/seats/krockin/token", headers=table.auth("scarface")),
        403,
        "forbidden",
    )
    error(
        server.client.post(f"{url}/seats/nobody/token", headers=table.auth("referee")),
        404,
        "not_found",
    )
    minted = server.client.post(f"{url}/seats/krockin/token", headers=table.auth("referee"))
    assert minted.status_code == 201
    new = minted.json()["token"]
    error(server.client.get(url, headers=table.auth("krockin")), 401, "unauthorized")
    assert server.client.get(url, headers={"Authorization": f"Bearer {new}"}).status_code == 200
    server.client.post(f"{url}/join", json={"token": new})
    assert server.client.get(url).json()["viewer"] == "krockin"
    revoked = server.client.delete(f"{url}/seats/krockin/token", headers=table.auth("referee"))
    assert revoked.status_code == 204
    error(server.client.get(url), 401, "unauthorized")  # the cookie
    error(server.client.get(url, headers={"Authorization": f"Bearer {new}"}), 401, "unauthorized")


def test_401_says_nothing_of_whether_a_table_exists(server: Server) -> None:
    table = server.create()
    other = server.create()
    answers = []
    for table_id, headers in [
        (table.id, {}),
        (table.id, {"Authorization": "Bearer guess"}),
        (table.id, other.auth("referee")),
        ("nosuchtable", {}),
        ("nosuchtable", table.auth("referee")),
    ]:
        response = server.client.get(f"/api/tables/{table_id}", headers=headers)
        answers.append(error(response, 401, "unauthorized"))
    assert all(a == answers[0] for a in answers)


# ---------------------------------------------------------------------------------- limits


def test_a_seat_is_rate_limited_and_told_when_to_retry(sqlite_url: str) -> None:
    with running(sqlite_url, Settings(rate=1, burst=3, anonymous_rate=1, anonymous_burst=5)) as s:
        table = s.create()
        url = f"/api/tables/{table.id}"
        codes = [s.client.get(url, headers=table.auth("scarface")).status_code for _ in range(5)]
        assert codes == [200, 200, 200, 429, 429]
        detail = error(s.client.get(url, headers=table.auth("scarface")), 429, "rate_limited")
        assert detail["message"]
        # another seat has a bucket of its own
        assert s.client.get(url, headers=table.auth("krockin")).status_code == 200
        # failed sign-ins are limited per address
        guesses = [
            s.client.get(url, headers={"Authorization": "Bearer x"}).status_code for _ in range(8)
        ]
        assert 429 in guesses


def test_a_flood_of_made_up_seat_cookies_costs_a_hash_or_two_not_one_each(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``GET /api/tables`` reads every ``referee_seat_*`` cookie: a token checked a moment ago
    costs nothing, the first unknown one a hash, and each further one the address's anonymous
    allowance (here 5), so made-up cookies for ten tables cost at most 6 hashes, then a 429."""
    from referee.store import tokens

    hashes = []
    real = tokens.hash_token

    def counted(token: str, salt: bytes) -> bytes:
        hashes.append(token)
        return real(token, salt)

    with running(sqlite_url, Settings(anonymous_rate=0.001, anonymous_burst=5)) as s:
        tables = [s.store.create_table("kernel_toy", {}, name=f"t{n}") for n in range(10)]
        joined = s.create()
        s.client.post(f"/api/tables/{joined.id}/join", json={"token": joined.tokens["krockin"]})
        assert [t["id"] for t in s.client.get("/api/tables").json()["tables"]] == [joined.id]
        monkeypatch.setattr(tokens, "hash_token", counted)
        # the joined table's token is remembered: listing it again costs no hash
        assert s.client.get("/api/tables").json()["tables"][0]["seat"] == "krockin"
        assert hashes == []
        cookies = {f"referee_seat_{table.id}": f"made-up-{n}" for n, table in enumerate(tables)}
        s.client.cookies.clear()
        for name, value in cookies.items():
            s.client.cookies.set(name, value)
        flood = s.client.get("/api/tables")
        error(flood, 429, "rate_limited")
        assert 1 <= len(hashes) <= 6


def test_a_seat_and_an_address_hold_a_bounded_number_of_live_sockets(sqlite_url: str) -> None:
    """One seat's token cannot open sockets without end (each holds what it is sent): past
    ``sockets_per_seat`` a socket is refused with a 429, and so past ``sockets_per_address``
    from one address; a socket closed makes room again."""
    from starlette.testclient import WebSocketDenialResponse

    settings = Settings(sockets_per_seat=2, sockets_per_address=3)
    with running(sqlite_url, settings) as s, contextlib.ExitStack() as open_sockets:
        table = s.create()
        url = f"/api/tables/{table.id}/live"

        def connect(seat: str) -> Any:
            socket = open_sockets.enter_context(
                s.client.websocket_connect(url, headers=table.auth(seat))
            )
            assert socket.receive_json()["type"] == "observation"
            return socket

        def refused(seat: str) -> dict[str, Any]:
            with (
                pytest.raises(WebSocketDenialResponse) as denied,
                s.client.websocket_connect(url, headers=table.auth(seat)),
            ):
                pass
            assert denied.value.status_code == 429
            return dict(denied.value.json()["error"])

        first = connect("scarface")
        connect("scarface")
        assert refused("scarface")["code"] == "too_many_sockets"
        connect("krockin")  # another seat: its own count, the address's third
        assert "address" in refused("referee")["message"]
        first.close()
        connect("referee")  # room again once one is closed


def test_no_token_is_ever_logged(server: Server, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    table = server.create()
    url = f"/api/tables/{table.id}"
    for seat in table.tokens:
        server.client.get(url, headers=table.auth(seat))
        server.client.post(f"{url}/join", json={"token": table.tokens[seat]})
        server.client.post(
            f"{url}/actions", headers=table.auth(seat), json={"kind": "x", "version": 1}
        )
    server.client.post(f"{url}/join", json={"token": 7})
    minted = server.client.post(f"{url}/seats/krockin/token", headers=table.auth("referee")).json()
    assert any(r.name == "referee.server.access" for r in caplog.records)
    text = "\n".join(r.getMessage() for r in caplog.records)
    for token in [*table.tokens.values(), minted["token"]]:
        assert token not in text


def test_openapi_describes_every_route(server: Server) -> None:
    document = server.client.get("/openapi.json").json()
    paths = document["paths"]
    for path in (
        "/api/games",
        "/api/games/{name}",
        "/api/tables",
        "/api/tables/{table_id}",
        "/api/tables/{table_id}/join",
        "/api/tables/{table_id}/actions",
        "/api/tables/{table_id}/undo",
        "/api/tables/{table_id}/record",
        "/api/tables/{table_id}/seats/{seat}/token",
    ):
        assert path in paths, path
    assert "ErrorBody" in document["components"]["schemas"]


def test_a_failing_database_is_503_and_its_message_stays_in_the_log(
    sqlite_server: Server, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from referee.store import StoreError

    table = sqlite_server.create()

    def gone(table_id: str) -> Any:
        raise StoreError("database 'postgresql://admin:hunter2@db.internal/referee': gone away")

    monkeypatch.setattr(sqlite_server.store, "load", gone)
    response = sqlite_server.client.get(f"/api/tables/{table.id}", headers=table.auth("krockin"))
    error(response, 503, "unavailable")
    assert b"hunter2" not in response.content and b"db.internal" not in response.content
    assert "db.internal" in caplog.text


def test_odds_of_an_action_follow_its_parameters_and_store_nothing(server: Server) -> None:
    table = server.create()
    url = f"/api/tables/{table.id}/odds"
    before = record(server, table)
    seen = server.client.post(
        url, headers=table.auth("scarface"), json={"kind": "rally", "params": {"dice": 4}}
    )
    assert seen.status_code == 200, seen.text
    body = seen.json()
    assert body["actor"] == "scarface" and body["version"] == table.version
    [four] = body["odds"]
    assert four["label"] == "scarface rallies" and set(four["odds"]) == {"success", "failure"}
    one = server.client.post(
        url, headers=table.auth("scarface"), json={"kind": "rally", "params": {"dice": 1}}
    ).json()["odds"][0]
    assert Fraction(four["odds"]["success"]) > Fraction(one["odds"]["success"])
    # malformed, another seat's actor, no seat: the documented errors
    bad = server.client.post(
        url, headers=table.auth("scarface"), json={"kind": "rally", "params": {"dise": 4}}
    )
    assert error(bad, 422, "action")["where"] == ["params", "dise"]
    other = {"kind": "attack", "actor": "krockin", "params": {"target": "scarface"}}
    error(server.client.post(url, headers=table.auth("scarface"), json=other), 403, "forbidden")
    error(server.client.post(url, json=other), 401, "unauthorized")
    assert record(server, table) == before


def test_fair_dice_a_seat_seed_the_reveal_and_every_die_checked(server: Server) -> None:
    """Issue 12 over HTTP: a seat mixes in a seed of its own, the referee reveals the table's
    seed, and any seat has every die checked against it."""
    table = server.create()
    url = f"/api/tables/{table.id}"
    mine = {"kind": "seed_dice", "params": {"seed": "lucky 7"}, "version": table.version}
    seeded = server.client.post(f"{url}/actions", headers=table.auth("scarface"), json=mine)
    assert seeded.status_code == 200, seeded.text
    version = seeded.json()["version"]
    rally = {"kind": "rally", "params": {"dice": 4}, "version": version}
    version = server.client.post(
        f"{url}/actions", headers=table.auth("scarface"), json=rally
    ).json()["version"]
    before = server.client.get(f"{url}/verify", headers=table.auth("krockin")).json()
    assert before["ok"] and before["checked"] == 0 and before["sealed"] == 1
    # a player may not reveal the seed in a game with a referee; the referee may
    reveal = {"kind": "reveal_dice", "version": version}
    error(
        server.client.post(f"{url}/actions", headers=table.auth("scarface"), json=reveal),
        403,
        "forbidden",
    )
    shown = server.client.post(f"{url}/actions", headers=table.auth("referee"), json=reveal)
    assert shown.status_code == 200, shown.text
    assert any(e["kind"] == "dice.revealed" for e in shown.json()["events"])
    after = server.client.get(f"{url}/verify", headers=table.auth("krockin")).json()
    assert after["ok"] and after["checked"] == 1 and after["dice"] >= 4 and not after["problems"]
    error(server.client.get(f"{url}/verify"), 401, "unauthorized")

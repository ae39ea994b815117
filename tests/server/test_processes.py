"""Real server processes (``referee serve``) on loopback: two on one PostgreSQL database tell
each other of every change, and the command line refuses what it cannot do."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

#: Real server processes, seconds each to start: `make check` leaves them to `make test`.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
HOST = "127.0.0.1"  # loopback only


def free_port() -> int:
    """A port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def command(*args: str) -> list[str]:
    """``referee ARGS`` with this Python."""
    return [sys.executable, "-c", "from referee.cli import main; main()", *args]


@contextmanager
def serving(
    url: str, *, workers: int = 1, args: tuple[str, ...] = (), **settings: str
) -> Iterator[str]:
    """``referee serve`` on a free loopback port, with the kernel toy registered; its base URL.
    ``settings``: more ``REFEREE_SERVER_<NAME>`` variables, by name.

    A port is free when chosen, but another process (another xdist worker) may take it before
    the server binds it: a server that could not bind is started again on another port."""
    for attempt in range(3):
        try:
            with _serving(url, workers, settings, args) as base:
                yield base
                return
        except PortTaken:
            if attempt == 2:
                raise


class PortTaken(AssertionError):
    """The chosen port was taken by the time ``referee serve`` bound it."""


@contextmanager
def _serving(
    url: str, workers: int, settings: dict[str, str], extra: tuple[str, ...] = ()
) -> Iterator[str]:
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        "REFEREE_SERVER_IMPORT": "tests.core.toy_procedure",
        "REFEREE_SERVER_RATE": "1000",
        "REFEREE_SERVER_BURST": "1000",
        "REFEREE_SERVER_ANONYMOUS_RATE": "1000",
        "REFEREE_SERVER_ANONYMOUS_BURST": "1000",
        **{f"REFEREE_SERVER_{name.upper()}": value for name, value in settings.items()},
    }
    args = ["serve", "--host", HOST, "--port", str(port), "--database", url]
    args += ["--workers", str(workers), "--log-level", "warning", *extra]
    process = subprocess.Popen(command(*args), env=env, cwd=ROOT, stderr=subprocess.PIPE)
    base = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/api/games", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                if process.poll() is None:
                    process.kill()
                error = process.stderr.read().decode() if process.stderr else ""
                if "address already in use" in error.lower():
                    raise PortTaken(f"port {port} was taken: {error[-500:]}")
                raise AssertionError(f"referee serve did not start: {error[-2000:]}")
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def live(base: str, table_id: str, token: str) -> ClientConnection:
    """A seat's socket on a server."""
    url = base.replace("http://", "ws://") + f"/api/tables/{table_id}/live"
    return connect(url, additional_headers={"Authorization": f"Bearer {token}"}, open_timeout=5)


def message(ws: ClientConnection, timeout: float) -> dict[str, Any]:
    """The next message, within ``timeout`` seconds."""
    return dict(json.loads(ws.recv(timeout=timeout)))


#: How long to wait for a message before giving up: a deadline, not a verdict on speed (under
#: load a push may take seconds; what it came through is what the tests check).
PATIENCE = 30.0


def test_an_action_through_one_process_is_pushed_by_another_through_postgresql(
    postgres_url: str,
) -> None:
    """Two processes on one PostgreSQL database: what one does, the other pushes. Neither polls
    (``poll_seconds`` 0), so a push can only come from PostgreSQL's notification."""
    with (
        serving(postgres_url, poll_seconds="0") as one,
        serving(postgres_url, poll_seconds="0") as two,
    ):
        created = httpx.post(
            f"{one}/api/tables", json={"system": "kernel_toy", "setup": {}, "name": "two"}
        ).json()
        table_id = created["id"]
        tokens = {s["id"]: s["token"] for s in created["seats"]}
        with live(two, table_id, tokens["krockin"]) as krockin:
            first = message(krockin, PATIENCE)
            v = created["version"]
            assert first["version"] == v and first["viewer"] == "krockin"
            for version in (v, v + 1, v + 2):
                acted = httpx.post(
                    f"{one}/api/tables/{table_id}/actions",
                    headers={"Authorization": f"Bearer {tokens['scarface']}"},
                    json={"kind": "rally", "version": version},
                )
                assert acted.status_code == 200, acted.text
                pushed = message(krockin, PATIENCE)
                assert pushed["version"] == version + 1 and pushed["since"] == version
                assert [e["kind"] for e in pushed["events"]] == ["rally.rolled"]
                # and the other process reads the table as it is now, not as it last read it
                read = httpx.get(
                    f"{two}/api/tables/{table_id}",
                    headers={"Authorization": f"Bearer {tokens['krockin']}"},
                )
                assert read.json()["version"] == version + 1
            # an undo through the first reaches the second as a fresh start
            undone = httpx.post(
                f"{one}/api/tables/{table_id}/undo",
                headers={"Authorization": f"Bearer {tokens['referee']}"},
            )
            assert undone.status_code == 200
            reset = message(krockin, PATIENCE)
            assert reset["reset"] and reset["version"] == v + 2 and reset["since"] == 0
            # a revocation through the first closes the seat's socket on the second
            revoked = httpx.delete(
                f"{one}/api/tables/{table_id}/seats/krockin/token",
                headers={"Authorization": f"Bearer {tokens['referee']}"},
            )
            assert revoked.status_code == 204
            try:
                message(krockin, PATIENCE)
                raise AssertionError("the revoked seat's socket stayed open")
            except ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == 4401
        refused = httpx.get(
            f"{two}/api/tables/{table_id}", headers={"Authorization": f"Bearer {tokens['krockin']}"}
        )
        assert refused.status_code == 401


def test_sqlite_is_served_by_one_process_and_sees_the_command_line_act(sqlite_url: str) -> None:
    from referee.core import Action
    from referee.store import open_store

    many = subprocess.run(
        command("serve", "--workers", "2", "--database", sqlite_url),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert many.returncode == 2 and "PostgreSQL" in many.stderr
    assert len(many.stderr.strip().splitlines()) == 1
    with serving(sqlite_url) as base:
        created = httpx.post(
            f"{base}/api/tables", json={"system": "kernel_toy", "setup": {}, "name": "one"}
        ).json()
        tokens = {s["id"]: s["token"] for s in created["seats"]}
        with live(base, created["id"], tokens["scarface"]) as scarface:
            v = created["version"]
            assert message(scarface, PATIENCE)["version"] == v
            # another program (the command line) acts on the same file: polled, then pushed
            store = open_store(sqlite_url)
            try:
                store.act(
                    created["id"], Action("krockin", "rally", {}), seat="krockin", expect_version=v
                )
            finally:
                store.close()
            assert message(scarface, PATIENCE)["version"] == v + 1


def _joins(base: str, addresses: list[str]) -> list[int]:
    """A wrong token sent to join a table from each address in turn (as a proxy would say it
    in ``X-Forwarded-For``): the status codes."""
    return [
        httpx.post(
            f"{base}/api/tables/nosuchtable/join",
            json={"token": "wrong"},
            headers={"X-Forwarded-For": address},
            timeout=10,
        ).status_code
        for address in addresses
    ]


@pytest.mark.parametrize("behind_a_proxy", [False, True])
def test_behind_a_trusted_proxy_each_player_has_an_allowance_of_their_own(
    sqlite_url: str, behind_a_proxy: bool
) -> None:
    """A venue's proxy (or one NAT) sends every player from one address. With
    ``--forwarded-allow-ips`` naming the proxy, each player's address (its ``X-Forwarded-For``)
    has its own allowance of anonymous requests; without it, the header is not believed (a
    client could claim any address) and everyone shares the proxy's."""
    args = ("--forwarded-allow-ips", HOST) if behind_a_proxy else ()
    limits = {"anonymous_rate": "0.001", "anonymous_burst": "2"}
    with serving(sqlite_url, args=args, **limits) as base:
        first = _joins(base, ["10.0.0.1"] * 3)
        other = _joins(base, ["10.0.0.2"])
    assert first[-1] == 429  # one player's third try
    assert (other[0] == 429) is not behind_a_proxy

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
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

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
def serving(url: str, *, workers: int = 1) -> Iterator[str]:
    """``referee serve`` on a free loopback port, with the kernel toy registered; its base URL."""
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        "REFEREE_SERVER_IMPORT": "tests.core.toy_procedure",
        "REFEREE_SERVER_RATE": "1000",
        "REFEREE_SERVER_BURST": "1000",
        "REFEREE_SERVER_ANONYMOUS_RATE": "1000",
        "REFEREE_SERVER_ANONYMOUS_BURST": "1000",
    }
    args = ["serve", "--host", HOST, "--port", str(port), "--database", url]
    args += ["--workers", str(workers), "--log-level", "warning"]
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
                error = process.stderr.read().decode() if process.stderr else ""
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


def test_an_action_through_one_process_is_pushed_by_another_within_a_second(
    postgres_url: str,
) -> None:
    with serving(postgres_url) as one, serving(postgres_url) as two:
        created = httpx.post(
            f"{one}/api/tables", json={"system": "kernel_toy", "setup": {}, "name": "two"}
        ).json()
        table_id = created["id"]
        tokens = {s["id"]: s["token"] for s in created["seats"]}
        with live(two, table_id, tokens["krockin"]) as krockin:
            first = message(krockin, 5)
            v = created["version"]
            assert first["version"] == v and first["viewer"] == "krockin"
            for version in (v, v + 1, v + 2):
                started = time.monotonic()
                acted = httpx.post(
                    f"{one}/api/tables/{table_id}/actions",
                    headers={"Authorization": f"Bearer {tokens['scarface']}"},
                    json={"kind": "rally", "version": version},
                )
                assert acted.status_code == 200, acted.text
                pushed = message(krockin, 1.0)
                assert time.monotonic() - started < 1.0
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
            reset = message(krockin, 1.0)
            assert reset["reset"] and reset["version"] == v + 2 and reset["since"] == 0
            # a revocation through the first closes the seat's socket on the second
            revoked = httpx.delete(
                f"{one}/api/tables/{table_id}/seats/krockin/token",
                headers={"Authorization": f"Bearer {tokens['referee']}"},
            )
            assert revoked.status_code == 204
            try:
                message(krockin, 2.0)
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
            assert message(scarface, 5)["version"] == v
            # another program (the command line) acts on the same file: polled, then pushed
            store = open_store(sqlite_url)
            try:
                store.act(
                    created["id"], Action("krockin", "rally", {}), seat="krockin", expect_version=v
                )
            finally:
                store.close()
            assert message(scarface, 3.0)["version"] == v + 1

"""Writer processes for the store's durability and concurrency tests.

``python -m tests.store.workers zygote URL TABLE ACKS`` imports everything once, then forks a
writer for each ``fork`` line on its standard input. The writer says ``ready PID`` once it has
loaded the table; when it has died (the test kills it with SIGKILL) the zygote says ``done``.
A writer appends actions in a loop and, after each one the store acknowledged, writes
``number version`` to ACKS (``write(2)`` survives SIGKILL).

``python -m tests.store.workers concurrent URL TABLE ACKS WORKERS EACH`` forks WORKERS writers
that each store EACH notes, retrying on a stale table; each acknowledged note's text goes to
``ACKS.<worker>``.

``python -m tests.store.workers threads URL TABLE,TABLE,… ACKS`` appends notes on each table
from a thread of its own, all on one store (their writes queue and share commits), each
acknowledged as ``table number version commits`` in ACKS.
"""

from __future__ import annotations

import itertools
import os
import sys
import threading

import tests.core.toy_procedure  # noqa: F401  (registers kernel_toy)
from referee.core import Action, StaleTableError
from referee.dice import RandomSource
from referee.store import open_store


def _write(fd: int, line: str) -> None:
    os.write(fd, (line + "\n").encode())


#: The name a writer's PostgreSQL sessions carry, so the test can wait until the server has
#: finished with a killed writer (a COMMIT it had sent still lands after the client is gone).
WRITER_APPLICATION = "referee-durability-writer"


def writer_url(url: str) -> str:
    """``url`` with the writers' application name, on PostgreSQL."""
    if not url.startswith("postgresql"):
        return url
    return f"{url}{'&' if '?' in url else '?'}application_name={WRITER_APPLICATION}"


def writer(url: str, table_id: str, acks: str, run: int) -> None:
    """Append actions forever, acknowledging each (a multi-event action: the clock moved on,
    then a note or an attack with dice)."""
    fd = os.open(acks, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    store = open_store(writer_url(url), snapshot_every=25)
    table = store.load(table_id)
    print(f"ready {os.getpid()}", flush=True)
    step = 0
    while True:
        if step % 2:
            action = Action("scarface", "attack", {"target": "krockin"})
        else:
            action = Action("scarface", "note", {"text": f"w{run}-{step}"})
        table = store.act(
            table_id,
            action,
            seat="scarface",
            expect_version=table.version,
            at=table.now + 60,
            dice=RandomSource(),
        )
        _write(fd, f"{len(table.actions)} {table.version}")
        step += 1


def warm_up() -> None:
    """Do once, before forking, what a writer's first action would do slowly (import the odds
    library, hash the code for snapshots), so each writer starts writing at once."""
    from referee.core.registry import system
    from referee.store import snapshots

    game = system("kernel_toy")
    table = game.new_table({})
    table = table.act(Action("scarface", "attack", {"target": "krockin"}), RandomSource())
    table.act(Action("scarface", "note", {"text": "warm"}), None, at=table.now + 60)
    snapshots.fingerprint(game.procedure)


def zygote(url: str, table_id: str, acks: str) -> None:
    """Fork a writer per ``fork`` line; report its death."""
    warm_up()
    for run, line in enumerate(sys.stdin, start=1):
        if line.strip() != "fork":
            break
        pid = os.fork()
        if pid == 0:
            try:
                writer(url, table_id, acks, run)
            finally:
                os._exit(1)
        os.waitpid(pid, 0)
        print("done", flush=True)


def concurrent(url: str, table_id: str, acks: str, workers: int, each: int) -> None:
    """Fork ``workers`` writers of ``each`` notes each, retrying on stale; wait for all."""
    warm_up()
    pids = []
    for worker in range(workers):
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                store = open_store(url)
                fd = os.open(f"{acks}.{worker}", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                stale = 0
                version = store.version(table_id)
                for k in range(each):
                    label = f"c{worker}-{k}"
                    while True:
                        try:
                            version = store.act(
                                table_id,
                                Action("scarface", "note", {"text": label}),
                                seat="referee",
                                expect_version=version,
                            ).version
                        except StaleTableError as error:
                            stale += 1
                            version = error.current  # read again, as a player would
                            continue
                        break
                    _write(fd, label)
                _write(fd, f"stale {stale}")
                code = 0
            finally:
                os._exit(code)
        pids.append(pid)
    failed = 0
    for pid in pids:
        _, status = os.waitpid(pid, 0)
        failed += status != 0
    sys.exit(1 if failed else 0)


def threads(url: str, table_ids: str, acks: str) -> None:
    """A thread a table, each appending notes forever on one store, so that their writes queue
    behind each other and share commits (SQLite's group commit); each acknowledged as
    ``<table> <actions> <version> <commits so far>``."""
    from sqlalchemy import event

    warm_up()
    store = open_store(url)
    commits = [0]
    event.listen(store.engine, "commit", lambda _conn: commits.__setitem__(0, commits[0] + 1))
    fd = os.open(acks, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def append(table_id: str) -> None:
        version = store.version(table_id)
        for step in itertools.count():
            table = store.act(
                table_id,
                Action("scarface", "note", {"text": f"t{step}"}),
                seat="scarface",
                expect_version=version,
            )
            version = table.version
            _write(fd, f"{table_id} {len(table.actions)} {version} {commits[0]}")

    writers = [threading.Thread(target=append, args=(t,)) for t in table_ids.split(",")]
    for writer in writers:
        writer.start()
    print(f"ready {os.getpid()}", flush=True)
    for writer in writers:
        writer.join()


if __name__ == "__main__":
    mode, url, table_id, acks, *rest = sys.argv[1:]
    if mode == "zygote":
        zygote(url, table_id, acks)
    elif mode == "threads":
        threads(url, table_id, acks)
    else:
        concurrent(url, table_id, acks, int(rest[0]), int(rest[1]))

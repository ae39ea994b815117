"""A live table's reload (another process's change, heard through LISTEN or a poll) never takes
the seats back: a load that this process's own change overtook is loaded again, not taken for an
undo (docs/server.md, "Live updates")."""

from __future__ import annotations

import asyncio
from typing import Any

from referee.core import Action
from referee.core.table import Table
from referee.dice.sources import RandomSource
from referee.server.live import Hub, Subscriber
from referee.server.views import ObservationCache
from tests.core.toy_procedure import PROCEDURE
from tests.server.test_send_bound import DeafClient


class SlowStore:
    """A store whose next load answers with the table as it was when the load began, once
    released (a reload that a change of this process overtakes), then as it stands."""

    def __init__(self, table: Table[Any]) -> None:
        self.table = table
        self.loads = 0
        self.release = asyncio.Event()
        self.loop: asyncio.AbstractEventLoop | None = None

    def load(self, table_id: str) -> Table[Any]:
        self.loads += 1
        began = self.table
        if self.loads == 1:
            assert self.loop is not None
            asyncio.run_coroutine_threadsafe(self.release.wait(), self.loop).result(30)
        return began


def test_a_reload_overtaken_by_this_processs_own_change_never_takes_the_seats_back() -> None:
    """Another process's notification starts a reload; while it runs this process acts twice;
    the load (begun before) comes back one version behind. The hub loads again rather than
    treat it as an undo: the feed stays at the newest version, no seat is sent a reset."""
    dice = RandomSource(seed=29)
    v1 = Table.start(PROCEDURE, {}, system="kernel_toy")
    v2 = v1.act(Action("krockin", "rally", {}), dice, seat="krockin")
    v3 = v2.act(Action("krockin", "rally", {}), dice, seat="krockin")
    store = SlowStore(v2)
    hub = Hub(store=store, observations=ObservationCache())  # type: ignore[arg-type]
    client = DeafClient()

    async def play() -> tuple[int, int]:
        store.loop = asyncio.get_running_loop()
        sub = Subscriber("t", "krockin", client, 0, None, lambda: True)  # type: ignore[arg-type]
        serving = asyncio.create_task(hub.serve(sub, v1))
        while not client.sent:
            await asyncio.sleep(0.01)
        epoch = hub._feeds["t"].epoch
        hub.notified("t", v2.version)  # another process says v2: the load begins at v2
        while store.loads == 0:
            await asyncio.sleep(0.01)
        hub.changed("t", v2)  # this process's own action, then another
        hub.changed("t", v3)
        store.table = v3
        store.release.set()
        while hub._feeds["t"].loading:
            await asyncio.sleep(0.01)
        version, epochs = hub.version_of("t") or -1, hub._feeds["t"].epoch - epoch
        serving.cancel()
        return version, epochs

    version, epochs = asyncio.run(play())
    assert (version, epochs) == (v3.version, 0)
    assert store.loads == 2


def test_a_poll_outlived_by_its_feed_asks_nothing_of_it() -> None:
    """The poll asks the store for a live table's version in a worker thread; the table's last
    socket closes meanwhile and the hub lets its table go. The answer is dropped, not read
    against a table no longer held."""
    table = Table.start(PROCEDURE, {}, system="kernel_toy")
    hub: Hub

    class LeavingStore:
        def version(self, table_id: str) -> int:
            hub._feeds[table_id].table = None  # the last socket gone while the store answered
            return table.version + 1

    hub = Hub(store=LeavingStore(), observations=ObservationCache())  # type: ignore[arg-type]
    client = DeafClient()

    async def play() -> None:
        sub = Subscriber("t", "krockin", client, 0, None, lambda: True)  # type: ignore[arg-type]
        serving = asyncio.create_task(hub.serve(sub, table))
        while not client.sent:
            await asyncio.sleep(0.01)
        await hub.poll()
        serving.cancel()

    asyncio.run(play())

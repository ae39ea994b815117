"""What the hub does for each change of a live table (issue 29): one hand-off to a worker
thread builds every seat's message, and a socket that has sent its message wakes the builder
again only if it is due another. Counted, never timed."""

from __future__ import annotations

import asyncio
import functools
import json
from typing import Any, Literal

import pytest
from starlette.websockets import WebSocketState

from referee.core import Action
from referee.core.table import Table
from referee.dice.sources import RandomSource
from referee.server import live, patches
from referee.server.live import Feed, Hub, Subscriber
from tests.core.toy_procedure import PROCEDURE

SEATS = ("scarface", "krockin")
CHANGES = 10


class ReadingClient:
    """A socket whose client reads everything at once."""

    def __init__(self) -> None:
        self.application_state = WebSocketState.CONNECTED
        self.versions: list[int] = []
        self._gone = asyncio.Event()

    async def send_text(self, text: str) -> None:
        self.versions.append(int(json.loads(text)["version"]))

    async def receive(self) -> dict[str, Any]:
        await self._gone.wait()
        return {"type": "websocket.disconnect", "code": 1000}

    async def close(self, code: int = 1000) -> None:
        self.application_state = WebSocketState.DISCONNECTED
        self._gone.set()


class CountedWake(asyncio.Event):
    """A feed's wake that counts the builder's passes (each wait that returns)."""

    passes = 0

    async def wait(self) -> Literal[True]:
        await super().wait()
        CountedWake.passes += 1
        return True


def _play_changes(clients: list[ReadingClient], counting: Any = None, kind: str = "rally") -> None:
    """Serve the toy table to ``clients`` (seats in turn), then take :data:`CHANGES` rallies,
    each waited for on every socket; ``counting()`` is called once the first messages are in,
    before the changes (to start counting there)."""
    table = Table.start(PROCEDURE, {}, system="kernel_toy")
    dice = RandomSource(seed=29)
    hub = Hub(store=None)  # type: ignore[arg-type]

    async def play() -> None:
        nonlocal table
        subs = [
            Subscriber("t", SEATS[n % 2], client, 0, None, lambda: True)  # type: ignore[arg-type]
            for n, client in enumerate(clients)
        ]
        serving = [asyncio.create_task(hub.serve(sub, table)) for sub in subs]
        await _until(lambda: all(c.versions for c in clients))
        if counting is not None:
            counting()
        for step in range(CHANGES):
            seat = SEATS[step % 2]
            table = table.act(Action(seat, kind, {}), dice, seat=seat)
            hub.changed("t", table)
            version = table.version
            await _until(lambda v=version: all(c.versions[-1] == v for c in clients))
        for client in clients:
            await client.close()
        await asyncio.wait_for(asyncio.gather(*serving), 10)

    asyncio.run(play())


def test_each_change_is_one_hand_off_and_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    hand_offs: list[int] = []
    messages = Hub._messages

    def counted_messages(self: Hub, feed: Any, asks: Any, table: Any, epoch: int) -> Any:
        hand_offs.append(len(asks))
        return messages(self, feed, asks, table, epoch)

    monkeypatch.setattr(Hub, "_messages", counted_messages)
    monkeypatch.setattr(live, "Feed", functools.partial(Feed, wake=CountedWake()))

    def counting() -> None:
        hand_offs.clear()
        CountedWake.passes = 0

    _play_changes([ReadingClient() for _ in range(6)], counting)
    assert hand_offs == [6] * CHANGES  # every seat's message of a change in one worker call
    # the builder wakes once a change, not again as each of the six sockets finishes its send
    assert CountedWake.passes == CHANGES


def test_each_patch_is_against_the_marks_kept_from_the_last_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A socket's next patch compares the marks of its last message's observation, kept with
    it, with the new one's: the old side is not written again (``test_patch_cost.py``). (Notes,
    each a new state: a change that leaves the state as it was has no diff to find at all,
    ``test_changes_observed_once.py``.)"""
    diffs: list[bool] = []
    diff = patches.diff

    def counted(old: Any, new: Any, path: str = "", marked: Any = None) -> Any:
        diffs.append(marked is not None and marked[0] == patches.marks(old))
        return diff(old, new, path, marked)

    monkeypatch.setattr(patches, "diff", counted)
    _play_changes([ReadingClient() for _ in range(4)], kind="note")
    assert len(diffs) == CHANGES * len(SEATS)  # a patch a seat a change (shared by its tabs)
    assert all(diffs)


async def _until(done: Any) -> None:
    for _ in range(2000):
        if done():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the sockets were not sent the change")


def test_a_message_built_in_the_routes_thread_is_handed_only_to_a_socket_that_holds_the_same() -> (
    None
):
    """A message built after an action, in its route's worker thread, from what a socket held
    then, is that socket's only while it holds the same, for the same table and epoch, and its
    client asked for nothing else; otherwise the builder makes it again."""
    from referee.server.prepared import Prepared, Sent
    from referee.server.pushes import Message

    table = Table.start(PROCEDURE, {}, system="kernel_toy")
    later = table.act(Action("scarface", "rally", {}), RandomSource(seed=29), seat="scarface")
    sub = Subscriber("t", "scarface", ReadingClient(), 1, "a", lambda: True)  # type: ignore[arg-type]
    sub.first, sub.epoch, sub.base, sub.marks = False, 0, {}, {}
    message = Message("{}", (), later.version, "b", {}, 0, {})
    prepared = Prepared(later, 0, {sub: (Sent.of(sub), message)})
    assert prepared.take(sub, later, 0) is message
    assert prepared.take(sub, table, 0) is None  # another table
    assert prepared.take(sub, later, 1) is None  # an undo since
    for name, value in (
        ("version", 2),
        ("epoch", 1),
        ("tag", "c"),
        ("base", {}),
        ("marks", {}),
        ("first", True),
    ):
        held = getattr(sub, name)
        setattr(sub, name, value)  # the socket was sent something else since
        assert prepared.take(sub, later, 0) is None, name
        setattr(sub, name, held)
    sub.full = (0, None)
    assert prepared.take(sub, later, 0) is None  # its client asked for a full observation

"""A change that leaves a table's state as it was is observed once for what it adds (issue 29):
each seat's held observation keeps everything but its log (the same objects), only the new
events are observed, and each socket's push is an empty patch found without writing a mark or
diffing. Yet every byte a seat is sent is what its own ``observe`` gives: checked here for every
seat of every game's demo table over a played sequence, and for the toy's every kind of step.
Work is counted, never timed."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest

from referee.cli.demo_tables import DEMOS, EXAMPLES
from referee.core import Action, ActionError, RuleError, observe, system
from referee.core.events import Event
from referee.core.loader import load_file
from referee.core.recording import ActionRecord
from referee.core.table import Table
from referee.dice import RandomSource, ScriptedSource
from referee.server import patches, pushes, views
from referee.server.live import Feed, Hub, Subscriber
from referee.server.prepared import Sent
from referee.server.pushes import Message
from tests.server.test_observe_age import STEPS, toy

STEPS_PLAYED = 24


def demo(game: str) -> Table[Any]:
    """``game``'s demo table (``referee play``), as its scenario file seats it."""
    import tests.core.toy_procedure  # noqa: F401  (the toy, registered for the toy's case)

    data = load_file(EXAMPLES / DEMOS[game])
    assert isinstance(data, dict)
    return system(game).new_table(
        data["setup"], players=data.get("players") or None, start=data.get("start", "00:00")
    )


def played(table: Table[Any], seed: int) -> list[Table[Any]]:
    """``table``, then after each of :data:`STEPS_PLAYED` steps: a seat drawn at random takes a
    choice its own ``observe`` offers it (parameters drawn from their domains); a refusal
    leaves the table as it was, and so the step repeats it (no change: nothing to push)."""
    rng, dice = random.Random(seed), RandomSource(seed)
    tables = [table]
    for _ in range(STEPS_PLAYED):
        seat = rng.choice(table.seats)
        offered = observe(table, seat.id, since=table.version).choices
        if offered:
            with contextlib.suppress(RuleError, ActionError):  # refused: as it was
                table = table.act(rng.choice(offered).sample(rng), dice, seat=seat.id)
        tables.append(table)
    return tables


def expected_patch(before: dict[str, Any], after: dict[str, Any], table_id: str) -> str:
    """The patch message a socket that was sent ``before`` is due for ``after`` (both its
    seat's own :func:`views.observation`, ``observe`` and nothing else), as the hub writes it."""
    old = {k: v for k, v in before.items() if k not in pushes.LOG_FIELDS}
    new = {k: v for k, v in after.items() if k not in pushes.LOG_FIELDS}
    return pushes.text(
        {
            "type": "patch",
            "table": table_id,
            "version": after["version"],
            "since": after["since"],
            "tag": after["tag"],
            "events": after["events"],
            "actions": after["actions"],
            "patch": patches.diff(old, new),
        }
    )


def pushed(tables: list[Table[Any]]) -> tuple[dict[str, list[str]], dict[str, list[str]], Hub]:
    """Each seat's pushes over ``tables`` (one socket a seat, each sent its message before the
    next change, as the hub's route thread builds them), and what its own ``observe`` gives."""
    hub, first = Hub(store=None), tables[0]  # type: ignore[arg-type]
    feed = Feed("t", first)
    subs = [Subscriber("t", s.id, None, 0, None, lambda: True) for s in first.seats]  # type: ignore[arg-type]
    got: dict[str, list[str]] = {sub.seat: [] for sub in subs}
    want: dict[str, list[str]] = {sub.seat: [] for sub in subs}
    seen = {sub.seat: views.observation(first, "t", sub.seat) for sub in subs}
    for number, table in enumerate(tables):
        if number and table is tables[number - 1]:
            continue  # a refused step: the table did not change
        made: dict[tuple[Any, ...], Message] = {}
        feed.table = table
        for sub in subs:
            message = hub._message(sub, Sent.of(sub), table, 0, None, feed, made)
            assert isinstance(message, Message)
            sub.first, sub.epoch, sub.version = False, message.epoch, message.version
            sub.tag, sub.base, sub.marks = message.tag, message.base, message.marks
            if number:
                now = views.observation(table, "t", sub.seat, seen[sub.seat]["version"])
                got[sub.seat].append(message.text)
                want[sub.seat].append(expected_patch(seen[sub.seat], now, "t"))
                seen[sub.seat] = now
    return got, want, hub


@pytest.mark.parametrize("game", sorted(DEMOS))
def test_every_seats_pushes_are_its_own_observe_over_a_demo_tables_play(game: str) -> None:
    for seed in (1, 2):
        got, want, _ = pushed(played(demo(game), seed))
        for seat in got:
            assert got[seat] == want[seat], (game, seed, seat)


def test_every_toy_seats_pushes_are_its_own_observe_through_every_kind_of_step() -> None:
    """The toy's steps (:data:`STEPS`): public, a seat's own and the referee's alone; slips
    sealed then revealed; rallies that leave the state as it was between them."""
    tables = [toy(3)]
    for _ in range(3 * len(STEPS)):
        action, faces = STEPS[len(tables[-1].actions) % len(STEPS)]
        tables.append(tables[-1].act(action, ScriptedSource(faces), at=tables[-1].now + 1_000))
        tables.append(tables[-1].act(Action("krockin", "rally", {"dice": 2}), RandomSource(3)))
    got, want, hub = pushed(tables)
    for seat in got:
        assert got[seat] == want[seat], seat
    assert hub._observations.heads_kept >= 3 * len(STEPS) * len(got)  # (rallies at least)


def _counting(function: Any, counts: dict[str, int], kind: str) -> Any:
    def count(*args: Any, **kwargs: Any) -> Any:
        counts[kind] += 1
        return function(*args, **kwargs)

    return count


def test_a_change_that_leaves_the_state_as_it_was_observes_no_seats_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rallies on the bench's table (six seats): after the first messages, no seat's
    ``observe`` is asked again and no mark is written nor diff found: each change is the new
    event's ``seen_since`` a seat, and an empty patch. A perception (a cooldown the perceiver
    sees) is each seat's ``observe`` again. A rally's event, public, is written as JSON once
    for every seat, and its record once for the players and once for the referee."""
    players = {f"p{n}": [c] for n, c in enumerate(("scarface", "krockin", "lady"), 1)}
    setup = {"characters": {"scarface": {"skill": 10}, "krockin": {}, "lady": {}}}
    table = system("kernel_toy").new_table(setup, players=players)
    counts = {"observe": 0, "seen_since": 0, "marks": 0, "diff": 0}
    written = {"event": 0, "record": 0}

    def counted(name: str, module: Any) -> None:
        function = getattr(module, name)

        def count(*args: Any, **kwargs: Any) -> Any:
            counts[name] += 1
            return function(*args, **kwargs)

        monkeypatch.setattr(module, name, count)

    tables = [table]
    for step in range(5):
        seat = f"p{step % 3 + 1}"
        tables.append(tables[-1].act(Action(players[seat][0], "rally", {}), RandomSource(step)))
    opened = len(table.seats)
    hub = Hub(store=None)  # type: ignore[arg-type]
    feed = Feed("t", table)
    subs = [Subscriber("t", s.id, None, 0, None, lambda: True) for s in table.seats]  # type: ignore[arg-type]
    for name, module in (("observe", views), ("seen_since", views), ("marks", patches)):
        counted(name, module)
    counted("diff", patches)
    for kind, cls in (("event", Event), ("record", ActionRecord)):
        monkeypatch.setattr(cls, "to_json", _counting(cls.to_json, written, kind))

    def push(to: Table[Any]) -> list[str]:
        made: dict[tuple[Any, ...], Message] = {}
        feed.table, texts = to, []
        for sub in subs:
            message = hub._message(sub, Sent.of(sub), to, 0, None, feed, made)
            assert isinstance(message, Message)
            sub.first, sub.epoch, sub.version = False, message.epoch, message.version
            sub.tag, sub.base, sub.marks = message.tag, message.base, message.marks
            texts.append(message.text)
        return texts

    push(tables[0])
    assert counts == {"observe": opened, "seen_since": 0, "marks": opened, "diff": 0}
    written.update(event=0, record=0)
    for later in tables[1:]:
        assert all('"patch":[]' in text for text in push(later))
    rallies = len(tables) - 1
    assert counts == {"observe": opened, "seen_since": rallies * opened, "marks": opened, "diff": 0}
    # each rally's event written once for the four seats; its record once for the players'
    # three and once for the referee's (who sees its dice)
    assert written == {"event": rallies, "record": 2 * rallies}
    perceived = tables[-1].act(
        Action("scarface", "perceive", {"target": "krockin"}), RandomSource(6), seat="p1"
    )
    texts = push(perceived)
    assert counts["observe"] == 2 * opened and counts["diff"] == opened
    assert any('"patch":[]' not in text for text in texts)  # the perceiver's view moved

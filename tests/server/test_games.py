"""Every game's table, played through the API by several seats at once, each seat's socket live.

Each game's table is created from one of its worked examples' setups; the seats take turns
choosing among the actions the API offers them (a choice drawn from the domains it gives, with a
fixed seed). The rules may refuse a drawn choice (422); nothing may fail (5xx), and every seat's
socket must be pushed the table's last version.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from referee.core.scenario import load_scenario
from tests.server.conftest import Server
from tests.server.test_secrets import receive

EXAMPLES = Path(__file__).parents[2] / "examples"

GAMES = {
    "intrigue": "perception-envelopes",
    "kingdoms": "grannir-and-raddrim",
    "zweihander": "journey",
    "ginlane": "duel",
    "hursagmu": "bob-against-fred",
}


def draw(domain: dict[str, Any], rng: random.Random) -> Any:
    """A value from a parameter's domain as the API gives it."""
    if "one_of" in domain:
        return rng.choice(domain["one_of"])
    if "between" in domain:
        low, high = domain["between"]
        return rng.randint(low, high)
    if "some_of" in domain:
        values = domain["some_of"]
        most = len(values) if domain["most"] is None else min(domain["most"], len(values))
        return rng.sample(values, rng.randint(min(domain["least"], most), most))
    return domain.get("text", "")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_game_is_played_live_by_every_seat(sqlite_server: Server, game: str) -> None:
    server = sqlite_server
    scenario = load_scenario(EXAMPLES / game / f"{GAMES[game]}.yaml")
    table = server.create(
        game, scenario.setup, players=scenario.players or None, start=scenario.start
    )
    seats = list(table.tokens)
    assert len(seats) >= 2
    rng = random.Random(15)
    sockets: dict[str, Any] = {}
    contexts = []
    try:
        for seat in seats:
            context = server.client.websocket_connect(
                f"/api/tables/{table.id}/live", headers=table.auth(seat)
            )
            sockets[seat] = context.__enter__()
            contexts.append(context)
            assert receive(sockets[seat])["text"]
        taken = 0
        for turn in range(24):
            seat = seats[turn % len(seats)]
            offered = server.client.get(
                f"/api/tables/{table.id}/actions", headers=table.auth(seat)
            ).json()
            if not offered["choices"]:
                continue
            choice = rng.choice(offered["choices"])
            body = {
                "kind": choice["kind"],
                "actor": choice["actor"],
                "params": {name: draw(d, rng) for name, d in choice["params"].items()},
                "version": offered["version"],
            }
            answer = server.client.post(
                f"/api/tables/{table.id}/actions", headers=table.auth(seat), json=body
            )
            assert answer.status_code in (200, 422), answer.text
            taken += answer.status_code == 200
        assert taken > 0, f"no seat of {game} could take any action offered"
        final = server.store.version(table.id)
        for seat, ws in sockets.items():
            version = 0
            while version < final:
                version = json.loads(receive(ws)["text"])["version"]
            assert version == final, seat
    finally:
        for context in reversed(contexts):
            context.__exit__(None, None, None)

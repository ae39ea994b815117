"""``GET /api/tables/{id}/simulate``: how deadly is this, for the referee's seat alone.

The referee gets ``referee.sim.answer``'s JSON for the table as stored (estimates with their
intervals, the exact odds where a model gives them); every other seat a 403 whose bytes hold
nothing of the answer; no seat a 401; a bad ``runs`` the one JSON error body (422).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from referee.core import system
from referee.server import play_routes
from referee.sim.answer import answer
from tests.server.conftest import Seated, Server

EXAMPLES = Path(__file__).parents[2] / "examples"


def _create(server: Server, example: str) -> Seated:
    data = yaml.safe_load((EXAMPLES / example).read_text("utf-8"))
    return server.create(data["system"], data["setup"], players=data.get("players"))


def test_the_referee_is_told_how_deadly_a_duel_is(sqlite_server: Server) -> None:
    seated = _create(sqlite_server, "intrigue/scarface-and-krockin.yaml")
    url = f"/api/tables/{seated.id}/simulate"
    got = sqlite_server.client.get(url, params={"runs": 40}, headers=seated.auth("referee"))
    assert got.status_code == 200, got.text
    data = got.json()
    assert data["table"] == seated.id and data["system"] == "intrigue"
    assert data["runs_asked"] == 40 and data["simulation"]["runs"] == 40
    wins = data["simulation"]["win_rates"]
    assert sum(data["simulation"]["wins"].values()) == 40
    assert all(w["low"] <= w["value"] <= w["high"] for w in wins.values())
    exact = data["exact"]
    assert exact["exact"] is True and set(exact["wins"]) == {"scarface", "krockin"}
    assert abs(sum(v["value"] for v in exact["wins"].values()) - 1) < 1e-9
    # the answer of the table as stored: the library's, for the same seed
    table = sqlite_server.store.load(seated.id)
    expected = answer(table, runs=40, seed=0)
    assert {k: data[k] for k in expected} == expected
    # a seed of its own: the same seed, the same answer
    again = sqlite_server.client.get(
        url, params={"runs": 40, "seed": 0}, headers=seated.auth("referee")
    )
    assert again.json()["simulation"] == data["simulation"]


def _answer_fragments(data: dict[str, Any]) -> set[str]:
    """Pieces of an answer that a refusal must not hold."""
    found = {'"simulation"', '"win_rates"', '"exact"', '"by_round"'}
    for exact in (data.get("exact") or {}).get("wins", {}).values():
        found.add(str(exact["exact"]))
    return found


@pytest.mark.parametrize(
    "example",
    ["intrigue/scarface-and-krockin.yaml", "kingdoms/sap-against-logistics.yaml"],
)
def test_no_other_seat_is_told(sqlite_server: Server, example: str) -> None:
    seated = _create(sqlite_server, example)
    url = f"/api/tables/{seated.id}/simulate"
    table = sqlite_server.store.load(seated.id)
    shown = answer(table, runs=5, seed=0)
    players = [seat for seat in seated.tokens if seat != "referee"]
    assert players
    for seat in players:
        got = sqlite_server.client.get(url, params={"runs": 5}, headers=seated.auth(seat))
        assert got.status_code == 403, (seat, got.text)
        assert got.json()["error"]["code"] == "forbidden"
        for fragment in _answer_fragments(shown):
            assert fragment not in got.text, (seat, fragment)
    if system(table.system).procedure.has_referee:
        assert "referee" in seated.tokens
    else:  # Burning Kingdoms: no seat may ask (a maneuver's odds would tell of sealed slips)
        assert "referee" not in seated.tokens


@pytest.mark.parametrize("runs", ["0", "2001", "-3", "many", "1.5"])
def test_bad_runs_are_the_one_error_body(sqlite_server: Server, runs: str) -> None:
    seated = _create(sqlite_server, "intrigue/scarface-and-krockin.yaml")
    got = sqlite_server.client.get(
        f"/api/tables/{seated.id}/simulate", params={"runs": runs}, headers=seated.auth("referee")
    )
    assert got.status_code == 422, got.text
    error = got.json()["error"]
    assert error["code"] == "invalid" and error["where"] == ["query", "runs"]


def test_the_referee_may_ask_for_a_precision(
    sqlite_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``precision``: the server stops once every interval is narrower, and says so. (The time
    the server gives a simulation is lifted: on a loaded machine its 20 s could run out first,
    and time is not what this asks.)"""
    monkeypatch.setattr(play_routes, "SIMULATION_SECONDS", 600.0)
    seated = _create(sqlite_server, "intrigue/scarface-and-krockin.yaml")
    got = sqlite_server.client.get(
        f"/api/tables/{seated.id}/simulate",
        params={"runs": 2000, "precision": 0.1},
        headers=seated.auth("referee"),
    )
    assert got.status_code == 200, got.text
    sim = got.json()["simulation"]
    assert sim["stopped"] == "precision" and sim["precision"] == 0.1
    assert sim["runs"] < 2000
    for estimate in sim["win_rates"].values():
        assert estimate["high"] - estimate["low"] < 0.1


@pytest.mark.parametrize("precision", ["0", "-0.1", "1.5", "fine"])
def test_a_bad_precision_is_the_one_error_body(sqlite_server: Server, precision: str) -> None:
    seated = _create(sqlite_server, "intrigue/scarface-and-krockin.yaml")
    got = sqlite_server.client.get(
        f"/api/tables/{seated.id}/simulate",
        params={"runs": 5, "precision": precision},
        headers=seated.auth("referee"),
    )
    assert got.status_code == 422, got.text
    error = got.json()["error"]
    assert error["code"] == "invalid" and error["where"] == ["query", "precision"]


def test_no_seat_is_401(sqlite_server: Server) -> None:
    seated = _create(sqlite_server, "intrigue/scarface-and-krockin.yaml")
    url = f"/api/tables/{seated.id}/simulate"
    assert sqlite_server.client.get(url).status_code == 401
    bad = {"Authorization": "Bearer not-a-token"}
    got = sqlite_server.client.get(url, headers=bad)
    assert got.status_code == 401 and got.json()["error"]["code"] == "unauthorized"


@pytest.mark.slow  # a whole-encounter simulation of each demo table
@pytest.mark.parametrize("game", ["intrigue", "zweihander", "ginlane", "hursagmu"])
def test_every_demo_table_with_the_button_is_answered(sqlite_server: Server, game: str) -> None:
    """The demo tables (``referee play``): the referee is answered for each, never a 422 — the
    Zweihänder demo, whose characters can chase (issue 28), is answered for its chase; the Gin
    Lane ambush's fights end."""
    from referee.cli.demo_tables import DEMOS

    seated = _create(sqlite_server, DEMOS[game])
    got = sqlite_server.client.get(
        f"/api/tables/{seated.id}/simulate",
        params={"runs": 20},
        headers=seated.auth("referee"),
    )
    assert got.status_code == 200, got.text
    data = got.json()
    assert data["simulation"]["runs"] == 20 and data["simulation"]["unfinished"] == 0
    if game == "zweihander":
        assert data["conflict"] == "a chase"
    assert data["conflict_reason"] is None


def test_a_game_without_a_simulation_is_422(sqlite_server: Server) -> None:
    seated = sqlite_server.create()  # the kernel's toy game
    got = sqlite_server.client.get(
        f"/api/tables/{seated.id}/simulate", headers=seated.auth("referee")
    )
    assert got.status_code == 422 and got.json()["error"]["code"] == "no_simulation"

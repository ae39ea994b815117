"""What opening a table costs as it ages (issue 29, "open ... on a 10,000-event table within
1.5x a fresh one"; issue 31, "the log paged in on demand"), per game, through the server. Run
by hand:

    .venv/bin/python bench/table_open.py [GAME ...]

Each game's demo table grown to about 100 and about 10,000 events (``bench/table_age.py``,
kept in ``build/bench/tables/``) is imported into a SQLite store and opened by every seat with
``GET /api/tables/{id}`` (a test client, no network): the **bytes** of the answers (summed over
the seats), the **cold** wall time of the seats' opens (a new server: each first open builds
that seat's whole observation) and the **warm** one (a refresh: the observation already kept),
medians of repeats.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent))

from referee.server.app import create_app
from referee.server.settings import Settings
from referee.store import open_store
from table_age import AGES, GAMES, table_of

SETTINGS = Settings(rate=0, anonymous_rate=0)


def opened(table: Any, repeats: int) -> dict[str, float]:
    """Bytes, cold ms and warm ms of every seat's open of ``table``."""
    sizes: list[int] = []
    cold: list[float] = []
    warm: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(f"sqlite:///{folder}/tables.sqlite3")
        created = store.import_record(table.to_record(), name="aged")
        for _ in range(repeats):
            with TestClient(create_app(store, SETTINGS)) as client:
                for ask in (cold, warm, warm):
                    total, started = 0, time.perf_counter()
                    for token in created.tokens.values():
                        answer = client.get(
                            f"/api/tables/{created.id}",
                            headers={"Authorization": f"Bearer {token}"},
                        )
                        assert answer.status_code == 200, answer.text
                        total += len(answer.content)
                    ask.append((time.perf_counter() - started) * 1000)
                    sizes.append(total)
        store.close()
    return {
        "bytes": statistics.median(sizes),
        "cold ms": statistics.median(cold),
        "warm ms": statistics.median(warm),
    }


def main() -> None:
    games = sys.argv[1:] or list(GAMES)
    print("| game | all seats' open | ~100 | ~10,000 | ratio |")
    print("|---|---|---:|---:|---:|")
    for game in games:
        young, old = (opened(table_of(game, age), 5) for age in AGES)
        for figure, value in young.items():
            ratio = old[figure] / value if value else float("nan")
            print(f"| {game} | {figure} | {value:,.1f} | {old[figure]:,.1f} | {ratio:.2f}× |")


if __name__ == "__main__":
    main()

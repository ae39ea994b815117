"""A server process's cycle collector is set for serving (issue 29, ``steady_collector``): what
start-up built is frozen out of the collector's passes, and a push's short-lived dicts do not
set off a pass each. Run in a process of its own: the collector is the whole process's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = """
import gc, json, sys
import tests.core.toy_procedure  # noqa: F401
from referee.server.app import app_from_env
from referee.server.views import observation
from tests.server.test_views import toy_table

app_from_env()
frozen = gc.get_freeze_count()
passes = []
gc.callbacks.append(lambda phase, info: phase == "stop" and passes.append(phase))
table = toy_table()
for _ in range(300):
    for seat in ("referee", "scarface", "krockin", "lady"):
        observation(table, "t", seat)
print(json.dumps({"frozen": frozen, "passes": len(passes)}))
"""


def test_start_up_is_frozen_and_observing_seldom_collects(tmp_path: Path) -> None:
    env = {
        "REFEREE_DATABASE_URL": f"sqlite:///{tmp_path}/t.sqlite3",
        "PATH": "/usr/bin:/bin",
    }
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        env=env,
        cwd=Path(__file__).parents[2],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    counts = json.loads(done.stdout.splitlines()[-1])
    assert counts["frozen"] > 50_000  # the games, the app, its routes
    # 1,200 observations of a small table, a few hundred short-lived dicts each: 25 passes of
    # the collector under Python's default, none now
    assert counts["passes"] <= 5, counts

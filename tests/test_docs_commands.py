"""Every ``referee`` command the README and ``docs/`` show in a ```sh block runs.

Each page's commands run in the order the page shows them, in one temporary folder per page
(a copy of ``examples/`` and ``docs/setups/``, a fresh SQLite database in
``REFEREE_DATABASE_URL``), so a later command may use the record an earlier one wrote — as a
reader following the page would. Each must exit 0.

Skipped, and why:

- ``referee serve …`` and ``referee play …`` start a server and never return
  (``docs/server.md`` and ``docs/web.md``; ``tests/server/`` and ``tests/web/`` serve tables).
- ``referee simulate TABLE_OR_SETUP [--as SEAT] …`` (``docs/simulate.md``) is the command's
  synopsis, not a command: the page's real ``simulate`` commands below it run.

Only ```sh blocks are read. Transcripts (```console, or a bare ``` block of ``$ referee …``
lines with their output, some showing a refusal on purpose) and the bare blocks that still
hold placeholders (``docs/store.md``'s ``setup.yaml`` and table ids) are not run here.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "docs" / "systems").glob("*.md")),
]
SERVERS = ("serve", "play")
SYNOPSIS = re.compile(r"\b[A-Z][A-Z_]{2,}\b|\[--")  # TABLE_OR_SETUP, [--as SEAT]: a synopsis
# the pages whose commands take seconds: seven simulations of 500 runs each (simulate.md), the
# README's simulation and handouts, a dozen commands each on the game pages, the example game
SLOW_PAGES = {
    "simulate.md",
    "README.md",
    "ginlane.md",
    "zweihander.md",
    "intrigue.md",
    "kingdoms.md",
    "kernel.md",
    "new-game.md",
}


def commands(page: Path) -> list[list[str]]:
    """The ``referee`` commands of ``page``'s ```sh blocks, as argument lists (comments cut)."""
    found = []
    text = page.read_text(encoding="utf-8")
    for block in re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M):
        for line in block.splitlines():
            if not line.startswith(("referee ", ".venv/bin/referee ")):
                continue
            words = shlex.split(line, comments=True)
            if words[1] in SERVERS or SYNOPSIS.search(line.split("#")[0]):
                continue
            found.append(words[1:])
    return found


def _params() -> list[object]:
    params = []
    for page in PAGES:
        if not commands(page):
            continue
        marks = [pytest.mark.slow] if page.name in SLOW_PAGES else []
        params.append(pytest.param(page, marks=marks, id=str(page.relative_to(ROOT))))
    return params


def _referee() -> list[str]:
    """The ``referee`` script beside this Python, or the same entry point through ``-c``."""
    script = Path(sys.executable).with_name("referee")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from referee.cli import main; sys.exit(main())"]


def test_the_pages_show_commands() -> None:
    shown = {page.name: len(commands(page)) for page in PAGES}
    assert shown["README.md"] >= 10 and shown["kernel.md"] >= 5 and shown["simulate.md"] >= 7
    assert shown["ginlane.md"] >= 7 and shown["zweihander.md"] >= 13
    assert shown["intrigue.md"] >= 9 and shown["kingdoms.md"] >= 7


@pytest.mark.parametrize("page", _params())
def test_every_command_on_the_page_runs(page: Path, tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    shutil.copytree(ROOT / "docs" / "setups", tmp_path / "docs" / "setups")
    (tmp_path / "docs" / "img").mkdir()
    env = dict(os.environ)
    env["REFEREE_DATABASE_URL"] = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    env["COLUMNS"] = "120"
    failed = []
    for args in commands(page):
        done = subprocess.run(
            [*_referee(), *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if done.returncode != 0:
            failed.append(f"referee {shlex.join(args)} → {done.returncode}: {done.stderr.strip()}")
    assert failed == []

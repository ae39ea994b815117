"""``referee handouts``: a seat's PDFs written to a folder; bad input is one line, exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.handouts.conftest import EXAMPLES
from tests.handouts.pdftext import all_text


def _referee(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from referee.cli import main; main()", *args],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.slow
def test_handouts_from_a_scenario_file(tmp_path: Path) -> None:
    scenario = str(EXAMPLES / "intrigue/perception-envelopes.yaml")
    done = _referee("handouts", scenario, "--as", "referee", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        "badges.pdf",
        "character-sheets.pdf",
        "contingency-envelopes.pdf",
        "perception-envelopes.pdf",
    ]
    assert "Give to ALL with a Roll of 16 or more" in all_text(
        (tmp_path / "perception-envelopes.pdf").read_bytes()
    )


@pytest.mark.slow
def test_handouts_from_a_record_file_on_letter(tmp_path: Path) -> None:
    scenario = str(EXAMPLES / "intrigue/lady-rich.yaml")
    record = tmp_path / "table.json"
    made = _referee("table", "new", "intrigue", scenario, "--out", str(record))
    assert made.returncode == 0, made.stderr
    out = tmp_path / "out"
    done = _referee(
        "handouts", str(record), "--as", "krockin", "--out", str(out), "--paper", "letter"
    )
    assert done.returncode == 0, done.stderr
    sheets = (out / "character-sheets.pdf").read_bytes()
    assert "The Amazing Krockin" in all_text(sheets) and "Read Mind" in all_text(sheets)
    assert b"/MediaBox [0 0 612" in sheets or b"612.00" in sheets


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    scenario = str(EXAMPLES / "intrigue/lady-rich.yaml")
    done = _referee("handouts", scenario, "--as", "nobody", "--out", str(tmp_path))
    assert done.returncode == 2
    assert "no seat 'nobody'" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    done = _referee(
        "handouts", scenario, "--as", "referee", "--out", str(tmp_path), "--paper", "a5"
    )
    assert done.returncode == 2 and "a4, letter" in done.stderr


@pytest.mark.slow
def test_handouts_from_a_table_in_the_database(tmp_path: Path) -> None:
    import os

    scenario = str(EXAMPLES / "intrigue/lady-rich.yaml")
    env = {**os.environ, "REFEREE_DATABASE_URL": f"sqlite:///{tmp_path / 'tables.db'}"}
    run = [sys.executable, "-c", "from referee.cli import main; main()"]
    made = subprocess.run(
        [*run, "table", "new", "intrigue", scenario], capture_output=True, text=True, env=env
    )
    assert made.returncode == 0, made.stderr
    table_id = made.stdout.split("in the database: ")[1].split()[0]
    out = tmp_path / "out"
    done = subprocess.run(
        [*run, "handouts", table_id, "--as", "referee", "--out", str(out)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "Lady Rich" in all_text((out / "badges.pdf").read_bytes())

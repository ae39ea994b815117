"""The README's promises: its Quick start is exactly two commands, and its examples run."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_quick_start_is_make_run_and_make_test() -> None:
    text = README.read_text("utf-8")
    section = text.split("## Quick start", 1)[1].split("##", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines()]
    assert [c for c in commands if c] == ["make run", "make test"]


def test_readme_examples_run() -> None:
    failures, tried = doctest.testfile(
        str(README), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert tried > 0 and failures == 0


def test_ci_runs_the_readme_test_command() -> None:
    ci = (README.parent / ".ci" / "run").read_text("utf-8")
    assert "make test" in ci.splitlines()[-1]

"""Suite-wide rules: in CI no check may be skipped, and property tests are repeatable.

Some tests compare our data files with the rules texts in ``../shared/rules/``, which CI always
has beside the checkout; on a machine without them they skip. Under CI (``CI`` set) a skip is a
failure, so a check can never quietly stop running.
"""

from __future__ import annotations

import os
from collections.abc import Generator

import pytest
from hypothesis import settings

# Under CI, hypothesis draws the same examples every run (a fixed seed per test, no example
# database), so CI's verdict on a commit is repeatable; elsewhere it keeps exploring. No profile
# has a deadline: how long an example takes is the machine's load, not a verdict on the code
# (speed is measured by `make bench`, never asserted here).
settings.register_profile("ci", derandomize=True, database=None, deadline=None)
settings.register_profile("local", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "local")

#: The variables that make golden tests write their files again (each game's test says which).
GOLDEN_VARIABLES = ("REFEREE_UPDATE_GOLDEN", "REGENERATE_GOLDEN")


def pytest_configure(config: pytest.Config) -> None:
    """Golden files are written again in one process only: under pytest-xdist one worker could
    read a golden file (some tests read another test's) while another is rewriting it."""
    regenerating = [name for name in GOLDEN_VARIABLES if os.environ.get(name)]
    workers = getattr(config.option, "numprocesses", None)
    if regenerating and workers and not hasattr(config, "workerinput"):
        raise pytest.UsageError(
            f"{regenerating[0]} rewrites golden files: run it in one process (-n 0), "
            f"not -n {workers}"
        )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("CI"):
        report.outcome = "failed"
        report.longrepr = f"skipped under CI, where every check must run: {report.longrepr}"


@pytest.fixture(autouse=True)
def _a_fresh_console() -> None:
    """Each test's command line prints through a console made in that test: the process keeps
    one console (``referee.cli.output.console`` is cached), made as wide as ``COLUMNS`` said
    when it was made, so a test that sets ``COLUMNS`` would otherwise get whatever width an
    earlier test on the same worker left."""
    from referee.cli.output import console

    console.cache_clear()

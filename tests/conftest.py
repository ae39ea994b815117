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


#: The slowest tests outside the browser, server and store folders (which mark their own), by
#: the test's name, which survives the moves between files going on in ``tests/core`` and
#: ``tests/systems``; each took 10 s to 7 min under ``-n 2`` on a loaded machine (issue 27).
#: ``make check`` leaves them out; ``make test`` runs them.
SLOW = {
    # exact solvers checked against enumerating every face
    "test_the_initiatives_order_is_all_the_round_reads_of_them",
    "test_an_attack_and_its_defence_are_every_face_of_every_die",
    "test_rounds_merged_across_their_numbers_are_the_same_melee",
    "test_the_seeded_simulation_holds_the_exact_melee_in_its_intervals",
    "test_the_first_round_is_exactly_the_enumeration_of_every_face",
    "test_a_tiny_chase_is_exactly_the_enumeration_of_every_face",
    # big hypothesis runs
    "test_random_fights_refuse_only_by_the_rules_and_replay",
    "test_knock_out_agrees_with_taking_damage",
    "test_the_dead_and_the_knocked_out_do_nothing",
    "test_wounds_never_exceed_the_wounds_stat_of_the_living",
    "test_a_million_derived_faces_pass_chi_square",
    # every page of every seat's handouts, rendered
    "test_every_page_of_every_seat_renders",
    "test_handouts_from_a_table_in_the_database",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests named in :data:`SLOW` ``slow``."""
    for item in items:
        if getattr(item, "originalname", item.name) in SLOW:
            item.add_marker(pytest.mark.slow)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("CI"):
        report.outcome = "failed"
        report.longrepr = f"skipped under CI, where every check must run: {report.longrepr}"

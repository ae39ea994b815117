"""Mutation round 10's harness: mutmut 3.8.1's own mutants, switched on one at a time in one pytest
session (docs/mutation.md, Zweihänder's and Gin Lane's round 10), for when mutmut's runner is too
slow on a loaded machine. Not part of `make test`; mutmut is never a dependency.

    HARNESS_MUTANTS=names.txt HARNESS_OUT=verdicts.txt \\
    PYTHONPATH=$MUTATION_DIR/<copy>/mutants/src:tools $MUTATION_DIR/venv/bin/python -m pytest \\
      -p mutation_harness -p no:cacheprovider -o addopts= -q tests/systems/<game>/test_cli.py

The copy is one `tools/mutation.sh` made (its `mutants/src` holds mutmut's trampolines); the tests
are the work tree's. A baseline pass runs every selected test once with no mutant and notes which
of the mutated modules' functions it calls (their ``x_<name>__mutmut_orig``); then, for each mutant
named in $HARNESS_MUTANTS (one a line), MUTANT_UNDER_TEST is set to it (the trampoline reads it at
every call) and the tests that call its function run, in the session's order (quickest first with
HARNESS_SORT=1), until one fails (killed) or none does (survived). Verdicts go to $HARNESS_OUT.
A test that fails in the baseline pass judges no mutant (it is listed "FAILED (left out)"), and
property tests draw the same 10 examples in every run (hypothesis' profile "mutation").
Every cache of the project's (each `functools` cache and `by_identity` memo, each with a
`cache_clear`, and the kernel's parameter memo) is emptied before each mutant, so an answer kept
from the clean run, or from the mutant before, never hides a mutant nor kills the next one.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from _pytest.runner import runtestprotocol

LIMIT = int(os.environ.get("HARNESS_ITEM_SECONDS", "180"))
ORIGINAL = "__mutmut_orig"


class ItemTimeout(Exception):
    """A test ran over LIMIT seconds under a mutant."""


def _alarm(signum: int, frame: Any) -> None:
    raise ItemTimeout(f"over {LIMIT}s")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Any:
    """No alarm while a phase's report is written: one going off inside pytest's formatting of
    a failure (an AST recursion error then) ended the whole session, as rounds 13 and 14 saw
    on a loaded machine; the time left is given back for the phases after it."""
    left = signal.alarm(0)
    yield
    if left:
        signal.alarm(left)


def _run(item: Any) -> tuple[bool, bool]:
    """Run one test: (failed, timed out)."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(LIMIT)
    try:
        reports = runtestprotocol(item, nextitem=None, log=False)
    finally:
        signal.alarm(0)
    failed = [r for r in reports if r.failed]
    return bool(failed), any("ItemTimeout" in str(r.longrepr) for r in failed)


def _baseline(
    items: list[Any], out: Any, clearers: list[Any]
) -> tuple[dict[str, set[str]], dict[str, float]]:
    """Each test run once with no mutant, the caches emptied first (one filled by the test
    before would hide calls from this one): the mutated functions it calls, and its time."""
    cover: dict[str, set[str]] = {}
    took: dict[str, float] = {}
    for item in items:
        for clear in clearers:
            clear()
        called: set[str] = set()

        def profile(frame: Any, event: str, arg: Any, called: set[str] = called) -> None:
            if event == "call" and frame.f_code.co_name.endswith(ORIGINAL):
                called.add(frame.f_code.co_name[: -len(ORIGINAL)])

        started = time.time()
        sys.setprofile(profile)
        try:
            failed, _ = _run(item)
        finally:
            sys.setprofile(None)
        took[item.nodeid] = time.time() - started
        # a test failing with no mutant (the load past its time limit, a test being edited)
        # judges none: it would call every mutant reaching it killed
        cover[item.nodeid] = set() if failed else called
        state = "FAILED (left out)" if failed else "ok"
        out.write(f"# baseline {item.nodeid}: {state} {took[item.nodeid]:.1f}s {sorted(called)}\n")
        out.flush()
    return cover, took


MODULE_CACHES = (
    ("referee.core.actions", "_NORMALISED"),
    ("referee.systems.ginlane.manoeuvres", "_built"),
    ("referee.systems.zweihander.procedure", "_asked_aside"),
)
"""The project's caches that are plain dicts of a module (no ``cache_clear`` to be found by):
the kernel's parameter memo, Gin Lane's manoeuvre choices, Zweihänder's choices beside the
chase (round 13 found the last one missing: a value kept from the clean run could hide a
mutant, or one kept from the mutant before fake a kill)."""


def _caches() -> list[Any]:
    """Every cache-clearing callable of the project's caches now alive."""
    clearers = []
    for thing in gc.get_objects():
        clear = getattr(thing, "cache_clear", None) if callable(thing) else None
        if callable(clear) and str(getattr(thing, "__module__", "")).startswith("referee"):
            clearers.append(clear)
    for module, name in MODULE_CACHES:
        if module in sys.modules:
            clearers.append(getattr(sys.modules[module], name).clear)
    return clearers


def pytest_runtestloop(session: Any) -> bool:
    # property tests draw the same 10 examples in every run, as under mutation.sh: a verdict
    # is repeatable, and a property test costs a mutant no more than the others
    from hypothesis import settings

    settings.register_profile("mutation", max_examples=10, derandomize=True, database=None)
    settings.load_profile("mutation")
    names = [n.strip() for n in Path(os.environ["HARNESS_MUTANTS"]).read_text().split("\n")]
    with Path(os.environ["HARNESS_OUT"]).open("a", encoding="utf-8") as out:
        os.environ["MUTANT_UNDER_TEST"] = ""
        clearers = _caches()
        cover, took = _baseline(session.items, out, clearers)
        out.write(f"# {len(clearers)} caches emptied before each mutant\n")
        for name in filter(None, names):
            function = name.rpartition(".")[2].split("__mutmut_")[0]
            relevant = [i for i in session.items if function in cover[i.nodeid]]
            if os.environ.get("HARNESS_SORT"):
                relevant.sort(key=lambda i: took[i.nodeid])
            verdict = "survived" if relevant else "no tests"
            started = time.time()
            for clear in clearers:
                clear()
            os.environ["MUTANT_UNDER_TEST"] = name
            try:
                for item in relevant:
                    failed, timed = _run(item)
                    if failed:
                        verdict = ("timeout " if timed else "killed ") + item.nodeid
                        break
            finally:
                os.environ["MUTANT_UNDER_TEST"] = ""
            spent = time.time() - started
            out.write(f"{name}: {verdict} ({len(relevant)} tests, {spent:.1f}s)\n")
            out.flush()
    return True

"""The examples in the kernel's docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "referee.core.checks",
    "referee.core.clock",
    "referee.core.errors",
    "referee.core.events",
    "referee.core.procedures",
    "referee.core.registry",
    "referee.core.scenario",
    "referee.core.values",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0

"""The examples in Gin Lane's docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "referee.systems.ginlane.tables",
    "referee.systems.ginlane.rolls",
    "referee.systems.ginlane.character",
    "referee.systems.ginlane.stress",
    "referee.systems.ginlane.conflict",
    "referee.systems.ginlane.magia",
    "referee.systems.ginlane.procedure",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0

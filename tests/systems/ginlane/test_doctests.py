"""The examples in Gin Lane's docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "referee.systems.ginlane.tables",
    "referee.systems.ginlane.rolls",
    "referee.systems.ginlane.rerolls",
    "referee.systems.ginlane.character",
    "referee.systems.ginlane.stress",
    "referee.systems.ginlane.conflict",
    "referee.systems.ginlane.magia",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples to run"
    assert result.failed == 0

"""Referee's YAML: only plain decimal numbers are integers."""

from __future__ import annotations

import yaml

from referee.core.scenario import yaml_loader


def test_times_and_two_digit_numbers_stay_text() -> None:
    data = yaml.load("a: 21:00\nb: 07\nc: 12\nd: -3\ne: 0x1f\nf: 0\n", Loader=yaml_loader())
    assert data == {"a": "21:00", "b": "07", "c": 12, "d": -3, "e": "0x1f", "f": 0}

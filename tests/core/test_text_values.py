"""Values read from text: YAML numbers and clock times."""

from __future__ import annotations

import yaml

from referee.core.scenario import yaml_loader


def test_times_and_two_digit_numbers_stay_text() -> None:
    data = yaml.load("a: 21:00\nb: 07\nc: 12\nd: -3\ne: 0x1f\nf: 0\n", Loader=yaml_loader())
    assert data == {"a": "21:00", "b": "07", "c": 12, "d": -3, "e": "0x1f", "f": 0}


def test_a_clock_time_must_be_a_time_of_day() -> None:
    import pytest

    from referee.core import clock_time

    assert clock_time("23:59:59") == 86399
    for bad in ("25:00", "99:59"):
        with pytest.raises(ValueError, match="not a time of day"):
            clock_time(bad, start="19:00")
    for bad in ("12:60", "12:00:60", "9pm"):
        with pytest.raises(ValueError):
            clock_time(bad)

"""``evolved``: ``dataclasses.replace`` for a game's frozen state without passing every field
through ``__init__`` again (issue 31: the folds copy a state at every event)."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest

from referee.core.values import evolved


@dataclass(frozen=True)
class Track:
    boxes: int
    marked: tuple[int, ...] = ()
    value: int = 0  # a field named like the function's own argument
    notes: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Checked:
    boxes: int

    def __post_init__(self) -> None:
        if self.boxes < 0:
            raise ValueError("no negative boxes")


def test_the_copy_is_what_replace_gives() -> None:
    track = Track(4, (1,), notes={"a": "b"})
    every = {"boxes": 2, "marked": (2,), "value": 1, "notes": {}}  # every field at once
    for changes in ({}, {"marked": (1, 2)}, {"value": 3}, {"boxes": 5, "notes": {}}, every):
        copy = evolved(track, **changes)
        assert copy == dataclasses.replace(track, **changes)
        assert type(copy) is Track and copy is not track
    assert track == Track(4, (1,), notes={"a": "b"})  # the original untouched
    assert pickle.loads(pickle.dumps(evolved(track, value=2))) == Track(4, (1,), 2, {"a": "b"})


def test_what_a_value_worked_out_beside_its_fields_is_not_copied() -> None:
    track = Track(4)
    track.__dict__["_worked_out"] = "of the old value"
    copy = evolved(track, boxes=6)
    assert "_worked_out" not in copy.__dict__ and copy == Track(6)
    assert evolved(Track(4), boxes=6).__dict__.keys() == Track(6).__dict__.keys()


def test_a_post_init_still_runs() -> None:
    assert evolved(Checked(1), boxes=2) == Checked(2)
    with pytest.raises(ValueError, match="no negative boxes"):
        evolved(Checked(1), boxes=-1)


def test_a_name_that_is_no_field_is_refused() -> None:
    with pytest.raises(TypeError, match=r"Track has no field \['mark'\]"):
        evolved(Track(4), mark=2)

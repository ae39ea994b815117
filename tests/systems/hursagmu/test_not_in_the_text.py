"""What the encounter rules only name from the parent book, or not at all (issue 13): a sheet
that gives it is refused with the reason, not read as if the rule were there."""

from __future__ import annotations

import pytest

from referee.core import ScenarioError, Table
from referee.systems.hursagmu import PROCEDURE


@pytest.mark.parametrize("field", ["armour", "armor"])
def test_armour_is_refused_as_not_in_the_text(field: str) -> None:
    with pytest.raises(ScenarioError, match="armour is not in the text") as caught:
        Table.start(PROCEDURE, {"characters": {"bob": {"stamina": 20, field: 3}}})
    assert caught.value.path == ("characters", "bob", field)


@pytest.mark.parametrize("field", ["health", "sanity"])
def test_health_and_sanity_damage_is_refused_naming_the_masters_flags(field: str) -> None:
    """Recovery names "the chapter on pain and suffering" and gives nothing of it: Health and
    Sanity are the Master's OK or not (``health_ok``, ``sanity_ok``), never a track."""
    with pytest.raises(ScenarioError, match=r"not in the text.*health_ok / sanity_ok"):
        Table.start(PROCEDURE, {"characters": {"bob": {"stamina": 20, field: 12}}})
    table = Table.start(PROCEDURE, {"characters": {"bob": {"stamina": 20, "sanity_ok": False}}})
    assert table.state.fighter("bob").sanity_ok is False

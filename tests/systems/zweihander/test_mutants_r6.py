"""Mutation testing, round 6: the survivors of `wilderness.py`'s terrain, Threat Level, Stretch
lengths, route and journey menu, of `procedure.py`'s state, and of `character.py` and
`state.py` — each test names the rule it pins."""

from __future__ import annotations

import pytest

from referee.core import RuleError
from referee.systems.zweihander import PROCEDURE
from referee.systems.zweihander.wilderness import (
    stretch_length_and_days,
    terrain_difficulty,
    threat_level,
)

from .helpers import table
from .test_chase import start

# ------------------------------------------------------------------------------ the route


def test_an_unknown_terrain_is_refused_naming_the_terrains_the_text_lists() -> None:
    """Wilderness travel rules (Terrain): a terrain is one the text lists or a Difficulty
    Rating; the refusal lists the text's terrains, one after the other."""
    with pytest.raises(RuleError) as refused:
        terrain_difficulty("lava")
    reason = refused.value.reason
    assert "rough seas and oceans, river rapids, blighted areas" in reason
    assert "paved roads, gravelled paths, signed and patrolled roadways" in reason
    assert "XX" not in reason


def test_there_are_four_threat_levels_and_no_fifth() -> None:
    """Wilderness travel rules (Threat Level): No Danger, Mildly, Moderately and Highly
    Dangerous — 0 to 3 Chaos Dice; a fifth level is refused, naming the four."""
    assert [threat_level(n) for n in range(4)] == [0, 1, 2, 3]
    for bad in (4, -1):
        with pytest.raises(RuleError) as refused:
            threat_level(bad)
        assert refused.value.reason == (
            f"{bad} is not a Threat Level (No Danger, Mildly Dangerous, Moderately Dangerous, "
            "Highly Dangerous, or 0-3)"
        )


@pytest.mark.parametrize(
    ("days", "length"),
    [(1, "short"), (7, "short"), (8, "medium"), (20, "medium"), (21, "long"), (60, "long")],
)
def test_a_stretchs_length_follows_its_days_of_travel(days: int, length: str) -> None:
    """Wilderness travel rules (Stretches): a Short Stretch is a day to a week's travel, a
    Medium one a week or two (up to the Long's three weeks), a Long one three weeks or more."""
    assert stretch_length_and_days(None, days) == (length, days)


@pytest.mark.parametrize(
    ("length", "days", "span"),
    [("short", 8, "1 to 7"), ("medium", 6, "7 to 20"), ("long", 20, "21 or more")],
)
def test_days_that_do_not_fit_a_stretchs_length_are_refused(
    length: str, days: int, span: str
) -> None:
    """Wilderness travel rules (Stretches): the days of travel must fit the Stretch's length;
    the refusal gives the length's span (a Long Stretch has no upper bound)."""
    with pytest.raises(RuleError) as refused:
        stretch_length_and_days(length, days)
    assert refused.value.reason == f"a {length} Stretch is {span} days of travel, not {days}"


# ------------------------------------------------------------------------------ procedure.py


def test_the_state_names_each_characters_steps_on_the_condition_tracks() -> None:
    """Peril and Damage Condition Tracks (parent-games.md): the state a scenario's ``expect``
    reads keys the characters by id and names each one's step on both tracks."""
    t = table(
        {
            "anna": {"peril": 2, "damage": 3},
            "bert": {"peril": "Incapacitated!", "damage": "Slain!"},
            "cleo": {},
        }
    )
    chars = PROCEDURE.state_json(t.state)["characters"]
    assert list(chars) == ["anna", "bert", "cleo"]
    assert {cid: (c["peril_condition"], c["damage_condition"]) for cid, c in chars.items()} == {
        "anna": ("Ignore 1 Skill Rank", "Seriously Wounded"),
        "bert": ("Incapacitated!", "Slain!"),
        "cleo": ("Unhindered", "Unharmed"),
    }
    assert PROCEDURE.characters(t.state) == ("anna", "bert", "cleo")


def test_the_state_shows_a_chases_participants_by_id_and_its_ladder_in_order() -> None:
    """Chase scene rules (Initiative Ladder): the state shows each participant by id and the
    ladder in its order, Escapees first."""
    t = start()
    chase = PROCEDURE.state_json(t.state)["chase"]
    assert chase["ladder"] == ["runner", "chaser"]
    assert sorted(chase["participants"]) == ["chaser", "runner"]
    assert chase["participants"]["runner"]["side"] == "escapee"
    assert chase["participants"]["chaser"]["side"] == "pursuer"

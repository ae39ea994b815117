"""What Burning Kingdoms only names from Burning Wheel, with no procedure (issue 13): refused
with the reason, or offered by no action at all."""

from __future__ import annotations

import pytest

from referee.core import ActionError, RuleError
from referee.systems.kingdoms.actions import CATALOGUE

from .test_procedure import act, start


def test_beginners_luck_is_refused_naming_the_2ic_instead() -> None:
    """Beginner's Luck is not in the text; "Seconds in Command" has the 2iC roll a skill the
    leader lacks. A slip on a skill neither has is refused, saying so."""
    with pytest.raises(RuleError, match="Beginner's Luck is not in the text"):
        act(start(), "elves", "write_slip", maneuver="Fortify", skill="Administration")


@pytest.mark.parametrize("kind", ["practice", "job", "recover_resources", "instinct"])
def test_downtime_jobs_practice_and_instincts_have_no_action(kind: str) -> None:
    """Downtime names jobs, recovering taxed Resources and practice; Building Scenes names
    Instincts that allow more rolls: the text gives no procedure for any, so no action takes
    them (a building scene is one roll) and the kind is refused as unknown."""
    assert kind not in CATALOGUE
    with pytest.raises(ActionError, match="no such action"):
        act(start(), "elves", kind)

"""Chase scene rules, Takedown: catching up (Pursuit Value >= Escape Value), the Pursuer's
Coordination Test at the Condition's difficulty ("Coordination Test difficulty" table), the
Escapee's test, and the GM's default play of the Takedowns."""

from __future__ import annotations

import pytest

from referee.dice import RandomSource
from referee.systems.zweihander.chase import play_out
from referee.systems.zweihander.events import CHASE_CAUGHT_UP, CHASE_ENDED, CHASE_TAKEDOWN

from .helpers import _chase


@pytest.mark.parametrize("seed", [1, 5, 9, 12])
def test_a_chase_played_out_ends_and_every_pursuer_who_catches_up_attempts_a_takedown(
    seed: int,
) -> None:
    """Chases ("Takedown": a Pursuer who catches up with an Escapee may attempt one): played
    out as the GM would by default, every catch-up is followed by that Pursuer's Takedown,
    the chase ends, and nothing is played after its end."""
    done = play_out(_chase(seed), RandomSource(seed))
    assert done.state.chase is not None and done.state.chase.ended is not None
    kinds = [e.kind for e in done.log.events]
    caught = [i for i, k in enumerate(kinds) if k == CHASE_CAUGHT_UP]
    assert caught, "each of these seeds has a pursuer catch up"
    for i in caught:
        who = done.log.events[i].data["participant"]
        takedown = next(e for e in done.log.events[i:] if e.kind == CHASE_TAKEDOWN)
        assert takedown.data["participant"] == who
    assert kinds.count(CHASE_TAKEDOWN) == len(caught)
    assert kinds[-1] == CHASE_ENDED

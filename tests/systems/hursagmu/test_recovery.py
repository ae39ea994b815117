"""Recovery (hursagmu-encounters.txt, "Recovery": "If a character has taken no actions during the
round and is OK on both Health and Sanity"): the Master's ruling of Health and Sanity, and what
the end of the round carries into the next."""

from __future__ import annotations

from typing import Any

from referee.systems.hursagmu.recovery import fold_round_ended

from .test_encounter import FIGHTER, play, start, two_fighters


def test_the_master_rules_health_and_sanity_and_keeps_what_he_does_not_say() -> None:
    """ "Perception and Observation": the Master rules a character OK or not on Health and on
    Sanity; what he does not say is unchanged."""

    def rule(table: Any, **condition: bool) -> tuple[Any, tuple[bool, bool]]:
        after = play(table, [("referee", "condition", {"character": "bob", **condition})])
        bob = after.state.fighters["bob"]
        return after, (bob.health_ok, bob.sanity_ok)

    table, now = rule(start({"bob": FIGHTER}), health_ok=False)
    assert now == (False, True)
    table, now = rule(table, health_ok=True, sanity_ok=True)
    assert now == (True, True)
    table, now = rule(table, sanity_ok=False)
    assert now == (True, False)


def test_the_next_round_keeps_the_masters_conditions_and_each_characters_posture() -> None:
    """ "Perception and Observation": the Master's ruling of Health or Sanity stands until he
    says otherwise; a sleeper sleeps on and a rider stays on his horse when the round ends."""
    state = two_fighters().state
    state = state.with_fighter("bob", health_ok=False, asleep=True, mounted=True)
    state = state.with_fighter("fred", sanity_ok=False)
    after = fold_round_ended(state, {"waiting_game": []})
    bob, fred = after.fighters["bob"], after.fighters["fred"]
    assert (bob.health_ok, bob.sanity_ok, bob.asleep, bob.mounted) == (False, True, True, True)
    assert (fred.health_ok, fred.sanity_ok, fred.asleep, fred.mounted) == (
        True,
        False,
        False,
        False,
    )

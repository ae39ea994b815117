"""Chase scene rules, Actions and Ranged or Magick Attacks: the Action a participant describes
right after their move (+1 to +3, −3 on a Critical Failure), and an Attack's cost (3, 1 on a
Critical Success, 6 on a Critical Failure) and its Damage (3 Value per rank of Damage Threshold)."""

from __future__ import annotations

from referee.systems.zweihander.events import CHASE_ATTACKED

from .helpers import _card, _line


def test_the_log_says_whether_a_chase_attack_hits_and_what_it_costs() -> None:
    """Chases, Ranged and Magick Attacks: the attacker pays Value for the attack; a hit deals
    Damage ranks and the target loses Value (and may be Slain!); a miss deals nothing."""
    attack = {"participant": "watchman", "target": "cutpurse", "cost": 2}
    assert (
        _line(
            CHASE_ATTACKED,
            **attack,
            hit=True,
            damage_ranks=2,
            target_loss=3,
            target_slain=False,
            roll=_card(34),
        )
        == "Watchman attacks Cutpurse — d100 34: success; hits: 2 Damage ranks, Cutpurse "
        "loses 3; the attack costs 2 Value."
    )
    assert (
        _line(
            CHASE_ATTACKED,
            **attack,
            hit=True,
            damage_ranks=4,
            target_loss=5,
            target_slain=True,
            roll=_card(12),
        )
        == "Watchman attacks Cutpurse — d100 12: success; hits: 4 Damage ranks, Cutpurse "
        "loses 5; Cutpurse is Slain!; the attack costs 2 Value."
    )
    assert (
        _line(
            CHASE_ATTACKED,
            **attack,
            hit=False,
            damage_ranks=0,
            target_loss=0,
            target_slain=False,
            roll=_card(78),
        )
        == "Watchman attacks Cutpurse — d100 78: failure; misses; the attack costs 2 Value."
    )

"""Chase scene rules, Actions and Ranged or Magick Attacks: the Action a participant describes
right after their move (+1 to +3, −3 on a Critical Failure), and an Attack's cost (3, 1 on a
Critical Success, 6 on a Critical Failure) and its Damage (3 Value per rank of Damage Threshold)."""

from __future__ import annotations

import pytest

from referee.core import Between, OneOf, RuleError
from referee.systems.zweihander import chase
from referee.systems.zweihander.events import CHASE_ATTACKED

from .helpers import _card, _ladder, _line, act, last
from .test_chase import CHASER, TWO_RUNNERS, start


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


def test_a_chase_action_is_recorded_with_its_test_at_its_difficulty_and_its_card() -> None:
    """Chase scene rules (Actions): the described Action's Skill Test at the Difficulty the GM
    sets, its roll card, and the Value it changes."""
    t = act(start(), "runner", "chase.move", [4])  # 11
    t = act(
        t,
        "runner",
        "chase.action",
        [20],
        skill="Athletics",
        gain=2,
        difficulty="Hard",
        description="vaults a cart",
    )
    data = last(t, "chase.action_taken")
    assert data["description"] == "vaults a cart"
    assert data["test"]["skill"] == "Athletics"
    assert (data["test"]["difficulty_rating"], data["test"]["total_chance"]) == ("Hard", 30)
    assert data["test"]["outcome"] == "success"
    assert (data["roll"]["label"], data["roll"]["rule"], data["roll"]["dice"]) == (
        "Runner tests Athletics (a chase Action)",
        "Chase scene rules",
        "d100 ≤ 30",
    )
    assert (data["change"], data["value"]) == (2, 13)


def test_a_chase_attack_is_recorded_with_its_test_cost_and_what_it_does_to_the_target() -> None:
    """Chase scene rules (Ranged and Magick Attacks): the attack's Skill Test at its Difficulty
    and roll card; a hit costs the victim 3 per rank of Damage, a miss costs them nothing."""
    t = act(start(head_start="pursuers"), "runner", "chase.move", [9])  # runner 16, chaser 3
    hit = act(t, "runner", "chase.attack", [60], target="chaser", skill="Bows", difficulty="Easy")
    data = last(hit, "chase.attacked")
    assert data["test"]["skill"] == "Bows"
    assert (data["test"]["difficulty_rating"], data["test"]["total_chance"]) == ("Easy", 70)
    assert (data["roll"]["label"], data["roll"]["rule"], data["roll"]["dice"]) == (
        "Runner attacks Chaser",
        "Chase scene rules",
        "d100 ≤ 70",
    )
    assert (data["cost"], data["value"], data["hit"]) == (3, 13, True)
    ranks = act(t, "runner", "chase.attack", [20], target="chaser", skill="Bows", damage_ranks=2)
    data = last(ranks, "chase.attacked")
    assert (data["damage_ranks"], data["target_loss"], data["target_value"]) == (2, 6, -3)
    miss = act(t, "runner", "chase.attack", [70], target="chaser", skill="Bows", damage_ranks=2)
    data = last(miss, "chase.attacked")
    assert (data["hit"], data["damage_ranks"], data["target_loss"]) == (False, 0, 0)
    assert data["target_value"] == 3


def test_an_attack_is_only_on_an_opponent() -> None:
    """Chase scene rules (Ranged and Magick Attacks): an Escapee attacks a Pursuer, not another
    Escapee."""
    t = start(escapees={"runner": "on foot", "second": "on foot"}, chars=TWO_RUNNERS)
    t = act(t, "runner", "chase.move", [9])
    with pytest.raises(RuleError, match="Second is not an opponent still in the chase"):
        act(t, "runner", "chase.attack", [20], target="second", skill="Bows")


def test_only_the_one_who_moved_last_may_act_not_one_who_moved_earlier() -> None:
    """Chase scene rules (Actions): an Action is taken right after one's own move; once the next
    on the ladder has moved, the first may no longer act or attack."""
    t = act(start(), "runner", "chase.move", [9])  # 16
    t = act(t, "chaser", "chase.move", [1])  # 7: nobody caught
    for kind, extra in (("chase.action", {}), ("chase.attack", {"target": "chaser"})):
        with pytest.raises(RuleError, match="right after their own move") as refused:
            act(t, "runner", kind, [20], skill="Bows", **extra)
        assert refused.value.rule == kind


def test_an_action_or_attack_once_the_chase_has_ended_is_refused_under_its_own_name() -> None:
    t = act(start(), "referee", "chase.give_up", side="pursuers")
    for kind, extra in (("chase.action", {}), ("chase.attack", {"target": "chaser"})):
        with pytest.raises(RuleError, match="the chase has ended") as refused:
            act(t, "runner", kind, [20], skill="Bows", **extra)
        assert refused.value.rule == kind


def test_an_attack_is_offered_on_the_opponents_still_in_the_chase() -> None:
    """Chase scene rules (Ranged and Magick Attacks): the targets offered are the other side's
    participants still in the chase (not one taken down); one out of the chase, or at the table
    but not in it, is offered nothing."""
    chars = {**TWO_RUNNERS, "guard": CHASER, "bystander": CHASER}
    t = start(
        escapees={"runner": "on foot", "second": "on foot"},
        pursuers={"chaser": "on foot", "guard": "on foot"},
        chars=chars,
        dice=[9, 1],
    )
    t = act(t, "runner", "chase.move", [9])  # 16
    t = act(t, "second", "chase.move", [1])  # 7
    t = act(t, "chaser", "chase.move", [9])  # caught up with second
    t = act(t, "chaser", "chase.takedown", [20, 60])  # second and chaser are taken down
    t = act(t, "guard", "chase.move", [1])  # 7: nobody caught
    [attack] = [c for c in chase.choices(t.state, "guard") if c.kind == "chase.attack"]
    assert attack.params == {
        "target": OneOf(("runner",)),
        "skill": OneOf(("Bows", "Coordination", "Toughness")),
        "damage_ranks": Between(0, 5),
    }
    assert attack.label == "a Ranged or Magick Attack"
    assert chase.choices(t.state, "second") == []
    assert chase.choices(t.state, "bystander") == []


def test_a_participant_takes_one_action_after_their_move_and_its_value_stands() -> None:
    """Chase scene rules (Actions): after their move a participant may take one Action (the
    state shows they have not acted yet); the Action's new Value stands, and a second Action
    in the same turn is refused."""
    t = act(start(), "runner", "chase.move", [4])  # 11
    assert (_ladder(t)["runner"]["value"], _ladder(t)["runner"]["acted"]) == (11, False)
    t = act(t, "runner", "chase.action", [20], skill="Athletics", gain=2)
    assert (_ladder(t)["runner"]["value"], _ladder(t)["runner"]["acted"]) == (13, True)
    with pytest.raises(RuleError, match="already taken an Action"):
        act(t, "runner", "chase.action", [20], skill="Athletics")
    with pytest.raises(RuleError, match="already taken an Action"):
        act(t, "runner", "chase.attack", [20], target="chaser", skill="Bows")


def test_an_attack_that_does_not_slay_leaves_its_target_in_the_chase() -> None:
    """Chase scene rules (Ranged and Magick Attacks): a miss, or a hit that does not slay, costs
    the target Value but leaves them in the chase; the attacker has acted."""
    t = act(start(head_start="pursuers"), "runner", "chase.move", [9])  # runner 16, chaser 3
    for dice in ([70], [20]):
        shot = act(t, "runner", "chase.attack", dice, target="chaser", skill="Bows")
        assert _ladder(shot)["chaser"]["status"] == "in"
        assert _ladder(shot)["runner"]["acted"] is True
    hit = act(t, "runner", "chase.attack", [20], target="chaser", skill="Bows", damage_ranks=2)
    assert (_ladder(hit)["chaser"]["value"], _ladder(hit)["runner"]["value"]) == (-3, 13)

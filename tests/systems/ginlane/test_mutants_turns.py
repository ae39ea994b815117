"""Tests that kill the mutants of ``turns.py`` mutmut left alive in round 4 of issue 13
(docs/systems/ginlane.md, "Mutation testing", "Round 4"): each asserts an outcome of the rules
text ("Initiative", "Action: Wait", "Action: Full defence", "Action: Something Else ?")."""

from __future__ import annotations

import pytest

from referee.core import Action, RuleError, Viewer
from referee.core.fairness import ZERO_SALT, commit_choice, sealed_choices
from referee.dice import ScriptedSource
from referee.systems.ginlane import SYSTEM
from referee.systems.ginlane.events import describe

from .test_odds_of import SETUP
from .test_procedure import act, duel


def test_something_else_is_logged_and_makes_a_sitting_duck_until_the_next_turn() -> None:
    """Action: Something Else: "The Distraction element is probably worth a free-taggable Aspect
    of 'Sitting Duck'" — set by the actor on themselves, free for the other side only, lasting
    until the actor's next turn."""
    table = duel()
    done = act(table, "moll", "something_else", what="loads her pistol")
    new = [(e.kind, dict(e.data)) for e in done.log.events[len(table.log.events) :]]
    assert new == [
        ("something_else", {"character": "moll", "what": "loads her pistol"}),
        (
            "aspect.placed",
            {
                "id": 1,
                "name": "Sitting Duck",
                "on": "moll",
                "setter": "moll",
                "free_side": "!society",
                "until_turn_of": "moll",
                "unique_to": None,
                "consequence": False,
            },
        ),
        ("turn.started", {"character": "jack", "turn": 1, "round": 1}),
    ]
    said = [describe(e, Viewer("referee")) for e in done.log.events[len(table.log.events) :]]
    assert said[:2] == [
        "Moll does something else: loads her pistol",
        "the Aspect Sitting Duck is placed on moll by Moll",
    ]
    assert [a.name for a in done.state.aspects] == ["Sitting Duck"]
    assert act(done, "jack", "full_defence").state.aspects == ()


def test_a_wait_without_a_plan_lets_the_waiter_act_later_in_the_round() -> None:
    """Action: Wait: the waiter forgoes the turn and may act later, out of turn."""
    table = duel()
    waited = act(table, "moll", "wait")
    (first, *_) = waited.log.events[len(table.log.events) :]
    assert (first.kind, dict(first.data)) == ("waiting", {"character": "moll"})
    assert waited.state.get("moll").waiting
    acted = act(waited, "moll", "full_defence")
    assert acted.state.order == ("moll", "jack")


def test_a_waits_plan_is_sealed_by_its_name_and_salt_and_checks_when_acted_on() -> None:
    """Action: Wait (issue 12): the plan is sealed under a name for the round and turn, with a
    salt drawn from the table's dice (a scripted source draws the zero salt), and the reveal
    when the waiter acts is checked against the commitment."""
    waited = act(duel(), "moll", "wait", plan="strike when he turns")
    (sealed,) = [dict(e.data)["sealed"] for e in waited.log.events if e.kind == "waiting"]
    assert sealed == {
        "choice": "round 1, turn 0: the plan of moll",
        "commitment": commit_choice("strike when he turns", ZERO_SALT),
    }
    acted = act(waited, "moll", "full_defence")
    assert sealed_choices(acted.log.events) == (1, ())


class _SaltingDice:
    """A table's dice source that hands out salts (as the table's own source does)."""

    def roll(self, sides: int) -> int:
        return 1

    def salt(self) -> bytes:
        return bytes(range(32))


def test_a_waits_plan_is_sealed_with_the_salt_the_tables_dice_hand_out() -> None:
    """Issue 12: the salt of a sealed plan comes from the dice the action is given (recorded,
    so the record replays), not from anywhere else."""
    waited = duel().act(Action("moll", "wait", {"plan": "strike"}), _SaltingDice())
    (data,) = [dict(e.data) for e in waited.log.events if e.kind == "waiting"]
    assert data["sealed"]["commitment"] == commit_choice("strike", bytes(range(32)))
    assert data["salt"] == bytes(range(32)).hex()


def test_the_fight_is_over_when_one_side_stands_and_says_which() -> None:
    """Taken Out: when the last of the other side is Taken Out, the fight is over, and the log
    says which side is left standing."""
    table = duel()
    done = act(table, "moll", "attack", [6, 6, 1, 1], target="jack")
    last = done.log.events[-1]
    assert (last.kind, dict(last.data)) == ("fight.over", {"standing": ["society"]})
    assert describe(last, Viewer("referee")) == "the fight is over: society standing"
    assert done.state.over


def test_an_aspect_tagged_for_initiative_adds_a_die_and_is_paid_and_carded() -> None:
    """Initiative, and "Almost any 2d6 roll may be affected by invoking, 'tagging', a relevant
    Aspect": moll tags Quick Hands (a point) for 3d6, the best two kept, + Alertness 2 = 9 against
    jack's 2 + 2 + 1 = 5; each roll's card names the roller and the rule."""
    table = SYSTEM.new_table(SETUP, players={"alice": ["moll"], "bob": ["jack"]})
    table = table.act(
        Action("referee", "initiative", {"tags": {"moll": ["Quick Hands"]}}),
        ScriptedSource([1, 1, 6, 2, 2]),
    )
    got = [(e.kind, dict(e.data)) for e in table.log.events]
    assert got[:2] == [
        (
            "aspect.tagged",
            {"character": "moll", "aspect": "Quick Hands", "free": False, "id": None},
        ),
        ("pool.spent", {"character": "moll", "points": 1, "for": "tags"}),
    ]
    rolled = got[2][1]
    assert (rolled["totals"], rolled["order"], rolled["winner"]) == (
        {"moll": [9], "jack": [5]},
        ["moll", "jack"],
        "moll",
    )
    assert [(c["label"], c["rule"], c["dice"]) for c in rolled["rolls"]] == [
        ("Moll rolls initiative (Alertness)", "Initiative", "3d6kh2+2"),
        ("Jack rolls initiative (Alertness)", "Initiative", "2d6+1"),
    ]
    assert table.state.get("moll").pool.points == 2


def test_a_grappler_who_takes_an_action_without_a_release_keeps_the_grapple_or_is_refused() -> None:
    """Releasing the Grapple: "release a grapple at will and perform a normal action" — an action
    that cannot say ``release`` (Full defence) is refused to a grappler, who keeps the grapple."""
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="unbalance")
    table = act(table, "jack", "full_defence")
    table = act(table, "moll", "grapple", [5, 5, 5], target="jack", tag="Off-Balance")
    table = act(table, "jack", "full_defence")
    with pytest.raises(RuleError, match="Grapple: moll is grappling jack: keep the grapple"):
        act(table, "moll", "full_defence")

"""Turns (Gin Lane, "Initiative", "Action: Wait", "Action: Full defence",
"Action: Something Else ?", "Taken Out"): who acts when, a Wait's sealed plan, the Sitting Duck,
and the end of a fight.
"""

from __future__ import annotations

import pytest

from referee.core import Action, RuleError, Table, Viewer, Waiting
from referee.core.fairness import ZERO_SALT, commit_choice, sealed_choices
from referee.dice import ScriptedSource
from referee.systems.ginlane import PROCEDURE, SYSTEM
from referee.systems.ginlane.events import describe

from .helpers import _menu
from .test_odds_of import SETUP
from .test_procedure import BRAVO, act, duel, events


class _SaltingDice:
    """A table's dice source that hands out salts (as the table's own source does)."""

    def roll(self, sides: int) -> int:
        return 1

    def salt(self) -> bytes:
        return bytes(range(32))


def test_a_sitting_duck_is_not_free_for_its_own_side() -> None:
    """Action: Something Else: the Sitting Duck is free-taggable by the other side only; moll,
    tagging her own Sitting Duck to parry jack, pays a point for it."""
    table = act(duel(), "moll", "something_else", what="loads her pistol")
    (duck,) = table.state.aspects
    assert table.state.aspect(duck.id) == duck
    defence = {"skill": "Weapons", "tags": ["Sitting Duck"]}
    done = act(table, "jack", "attack", [1, 1, 6, 6, 1], target="moll", defence=defence)
    tagged = [e for e in events(done, "aspect.tagged") if e["character"] == "moll"]
    assert tagged == [{"character": "moll", "aspect": "Sitting Duck", "free": False, "id": duck.id}]
    assert done.state.get("moll").pool.points == table.state.get("moll").pool.points - 1


def test_a_waiter_who_acts_is_no_longer_waiting_and_the_plan_is_spent() -> None:
    """Action: Wait: moll waits with a sealed plan and acts on it out of turn; then she is no
    longer waiting (every seat sees ``false``) and the plan, revealed, is no longer held."""
    waited = act(duel(), "moll", "wait", plan="strike when he turns")
    assert [p[0] for p in waited.state.plans] == ["moll"]
    acted = act(waited, "moll", "full_defence")
    assert acted.state.plans == ()
    assert PROCEDURE.state_json(acted.state)["characters"]["moll"]["waiting"] is False


def test_a_fight_that_is_over_is_no_longer_over_once_its_scene_ends() -> None:
    """Taken Out ends the fight; the end of its scene leaves no fight over for the next."""
    won = act(duel(), "moll", "attack", [6, 6, 1, 1], target="jack")
    assert won.state.over
    assert act(won, "referee", "end_scene").state.over is False


def test_a_waiting_character_may_act_on_anothers_turn() -> None:
    """Action: Wait: moll waits; on jack's turn, jack and moll (who may act out of turn) are
    the seats that may move."""
    table = act(duel(), "moll", "wait", plan="stab whoever comes through the door")
    assert tuple(PROCEDURE.actors(table.state)) == ("jack", "moll")


def test_no_odds_are_shown_once_the_fight_is_over() -> None:
    """Taken Out: moll takes jack out and the fight is over; no attack's odds are shown."""
    done = act(duel(), "moll", "attack", [6, 6, 1, 1], target="jack")
    assert done.state.over
    assert tuple(PROCEDURE.previews(done.state, Viewer("referee"))) == ()


def test_a_wait_reveals_only_the_plan_sealed_last_and_it_checks() -> None:
    """Action: Wait (issue 12): moll waits with a plan and does not act on it; next round she
    waits again with another. Acting out of turn reveals the plan she sealed last, with its
    salt, and it checks against its commitment; the old plan is never revealed."""
    table = act(duel(), "moll", "wait", plan="stab whoever comes through the door")
    table = act(table, "jack", "full_defence")
    table = act(table, "moll", "wait", plan="cut the rope")
    table = act(table, "moll", "full_defence")
    [acted] = events(table, "wait.acted")
    assert [(u["choice"], u["content"]) for u in acted["unsealed"]] == [
        ("round 2, turn 0: the plan of moll", "cut the rope")
    ]
    assert sealed_choices(table.log.events) == (1, ())
    assert table.state.plans == ()


def test_before_initiative_the_referee_rolls_it_and_the_characters_act_only_at_any_time() -> None:
    """Fighting: before the first turn the referee rolls Initiative; he may also award
    Experience (1 to 5 points, to one character or more), end the scene, give everyone a
    night's rest or end the session. A character may only declare or pay Maintenance; someone
    not in the scene is offered nothing."""
    table = Table.start(PROCEDURE, {"characters": {"moll": {"pool": 1}, "jack": {"side": "x"}}})
    assert _menu(table, "referee") == [
        ("initiative", "roll initiative", {}),
        (
            "award",
            "",
            {
                "points": {"between": [1, 5]},
                "characters": {"some_of": ["moll", "jack"], "least": 1, "most": None},
            },
        ),
        ("end_scene", "the end of the scene", {}),
        ("rest", "a night's rest for everyone", {}),
        ("end_session", "the end of the session", {}),
        ("check_sheet", "check a character sheet", _menu(table, "referee")[-1][2]),
    ]
    sheet = _menu(table, "referee")[-1][2]
    assert set(sheet) == {"name", "skills", "aspects", "experience"}
    assert "Agility" in sheet["skills"]["record"] and "Rapport" not in sheet["skills"]["record"]
    assert [kind for kind, _, _ in _menu(table, "moll")] == ["declare", "maintain"]
    assert _menu(table, "jack") == []
    assert _menu(table, "nobody") == []
    # out of a fight anyone may act: the referee and each character (at any time)
    assert table.to_move() == ("referee", "moll", "jack")


def test_once_the_fight_is_over_no_one_takes_a_turn_and_the_taken_out_do_nothing() -> None:
    """Fighting and Taken Out: moll's 5 + 5 + 3 = 13 against jack's 3 + 3 + 2 = 8 deals 5 + 2
    = 7 stress, past the end of his track: he is Taken Out, and the fight is over. jack is
    offered nothing (his pool notwithstanding); moll only her any-time actions; the referee no
    longer rolls initiative."""
    table = act(duel(), "moll", "attack", [5, 5, 3, 3], target="jack")
    assert table.state.over and table.state.get("jack").taken_out
    assert table.state.get("jack").pool.points > 0
    assert _menu(table, "jack") == []
    assert [kind for kind, _, _ in _menu(table, "moll")] == ["declare", "maintain"]
    assert [kind for kind, _, _ in _menu(table, "referee")] == [
        "award",
        "end_scene",
        "rest",
        "end_session",
        "check_sheet",
    ]


def test_a_waiting_character_is_offered_every_full_action_out_of_turn() -> None:
    """Action: Wait: moll waits; on jack's turn she may act now, taking his place: she is
    offered her Full Actions (an attack on jack first), not only her any-time ones."""
    table = act(duel(), "moll", "wait", plan="strike whoever comes")
    assert table.state.current == "jack"
    kinds_offered = [kind for kind, _, _ in _menu(table, "moll")]
    assert kinds_offered[0] == "attack" and "full_defence" in kinds_offered


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


def test_a_seat_that_cannot_act_is_told_why_and_until_when() -> None:
    """Fighting ("Characters take Turns to act in order of Initiative"), Defence, Taken Out:
    ann, whose turn it is not, is told whose Turn it is; while moll's attack waits for jack's
    defence she is told the table waits for him; jack, conceding, is Taken Out for good (the
    text names no return)."""
    ann = {"side": "society", "weapon": "sword", "skills": BRAVO}
    table = duel(others={"ann": ann})
    said = PROCEDURE.waiting(table.state, "ann")
    assert said is not None and (said.reason, said.until) == (
        "it is Moll's Turn",
        "until your Turn",
    )
    table = act(table, "moll", "attack", [], target="jack", answer=False)
    said = PROCEDURE.waiting(table.state, "ann")
    assert said is not None and said.section == "Defence"
    assert said.reason == "Moll attacks Jack: the table waits for Jack to choose a defence"
    assert PROCEDURE.waiting(table.state, "jack") is None  # he has a choice: he is not waiting
    table = act(table, "jack", "concede", answer=False)
    said = PROCEDURE.waiting(table.state, "jack")
    assert said is not None and said.section == "Taken Out"
    assert "Taken Out" in said.reason and "the text names no return" in str(said.until)


def test_no_initiative_when_no_one_is_left_standing() -> None:
    """Initiative is rolled by those in the fight: with every character Taken Out (a blast can
    take out both sides) it is neither offered nor rolled, refused by its rule's name."""
    from dataclasses import replace

    import pytest

    from referee.core.errors import RuleError

    table = act(act(duel(), "moll", "attack", [6, 6, 1, 1], target="jack"), "referee", "end_scene")
    fallen = tuple(replace(c, taken_out=True) for c in table.state.combatants)
    table = replace(table, state=replace(table.state, combatants=fallen))
    assert "initiative" not in [kind for kind, _, _ in _menu(table, "referee")]
    with pytest.raises(RuleError, match="Initiative"):
        act(table, "referee", "initiative", [6, 6, 6, 6])


def test_no_full_action_is_taken_while_an_attack_or_a_hit_waits_for_its_answer() -> None:
    """Defence and Consequences: while moll's attack waits for jack's defence, and then her hit
    of 7 for him to take it, no Full Action is taken, by her whose turn it is or by him: the
    rule refuses it, naming whom the table waits for."""
    attacked = act(duel(), "moll", "attack", [], target="jack", answer=False)
    hit = act(attacked, "jack", "defend", [4, 4, 2, 2], answer=False, skill="Weapons")
    assert attacked.state.pending is not None and hit.state.hit is not None
    for table in (attacked, hit):
        for who in ("moll", "jack"):
            with pytest.raises(RuleError, match="Defence: the table waits for Jack to answer"):
                PROCEDURE.decide(table.state, Action(who, "full_defence", {}), ScriptedSource([]))


def test_a_seat_is_told_whom_a_hit_waits_for_and_when_the_fight_is_over() -> None:
    """Consequences, Taken Out, Initiative: while moll's hit of 7 waits for jack, ann is told the
    table waits for him to take it, and jack, who has his answer to give, is not waiting; taken
    on the track it takes him out, and with one side standing ann is told the fight is over
    until the referee ends the scene and rolls Initiative again (before any fight, that
    initiative has not been rolled)."""
    ann = {"side": "society", "weapon": "sword", "skills": BRAVO}
    table = act(duel(others={"ann": ann}), "moll", "attack", [], target="jack", answer=False)
    table = act(table, "jack", "defend", [4, 4, 2, 2], answer=False, skill="Weapons")
    assert PROCEDURE.waiting(table.state, "ann") == Waiting(
        "ann", "the table waits for Jack to take Moll's hit", "until the hit is taken",
        "Consequences",
    )  # fmt: skip
    assert PROCEDURE.waiting(table.state, "jack") is None
    (asked,) = PROCEDURE.prompts(table.state)
    assert asked.default is not None
    table = table.act(asked.default, ScriptedSource([]))
    assert table.state.over
    assert PROCEDURE.waiting(table.state, "ann") == Waiting(
        "ann", "the fight is over", "until the referee ends the scene and rolls initiative again",
        "Initiative",
    )  # fmt: skip
    unrolled = Table.start(PROCEDURE, table.setup)
    said = PROCEDURE.waiting(unrolled.state, "ann")
    assert said is not None and said.reason == "the referee has not rolled initiative"

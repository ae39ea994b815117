"""Chase scene rules: the start of a chase, the Initiative Ladder (Escapees by [AB], Pursuers
by 1D10 + Initiative), each Round's moves (1D10 + Movement) in ladder order, whose turn it is."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import (
    REFEREE,
    Between,
    Choice,
    Event,
    OneOf,
    Record,
    RuleError,
    Steps,
    Viewer,
    Waiting,
    observe,
)
from referee.systems.zweihander import PROCEDURE, chase
from referee.systems.zweihander.chase_ladder import fold_started
from referee.systems.zweihander.percentile import DIFFICULTY_NAMES
from referee.systems.zweihander.state import ZweihanderState

from .helpers import _incapacitated, _ladder, _lines, act, last, table
from .test_chase import CHASER, RUNNER, start


def test_the_gm_composes_a_chase_of_able_characters_each_with_a_mode_of_transport() -> None:
    """Chase scene rules: the GM starts a chase among characters neither Incapacitated! nor
    Slain!: each side is a list of runners, any able character with any mode of transport of
    the Movement table (several escapees, several pursuers); players start none. What a chase
    will test is checked when it starts (ruling 34), not by leaving characters off the menu."""
    both = {"Coordination": 40, "Toughness": 40}
    t = table(
        {
            "anna": {"skills": both},
            "bert": {"skills": {**both, "Bows": 30}},
            "carl": {"skills": both, "peril": "Incapacitated!"},
            "dora": {"skills": {"Coordination": 40}},
        }
    )
    runner = Record(
        {
            "character": OneOf(("anna", "bert", "dora")),
            "mode": OneOf(tuple(chase.Mode.__args__)),
        }
    )
    assert chase.choices(t.state, REFEREE) == [
        Choice(
            REFEREE,
            "chase.start",
            {
                "escapees": Steps(runner, least=1, most=2),
                "pursuers": Steps(runner, least=1, most=2),
                "head_start": OneOf((None, "escapees", "pursuers")),
                "escape_condition": OneOf((3, 6, 9)),
                "takedown": OneOf(DIFFICULTY_NAMES),
            },
            label="start a chase: who runs, who pursues, and how",
        )
    ]
    assert chase.choices(t.state, "anna") == []
    alone = table({"anna": {"skills": both}, "carl": {"skills": both, "peril": "Incapacitated!"}})
    assert chase.choices(alone.state, REFEREE) == []


def test_two_escapees_on_horseback_and_two_pursuers_take_the_ladder() -> None:
    """Chase scene rules: Escapees on top by decreasing [AB], Pursuers below by 1D10 +
    Initiative, each with the Movement of their mode of transport ("palfrey horse: [AB] + 6");
    the log shows each Pursuer's Initiative with its die."""
    sheet = {"skills": {"Coordination": 40, "Toughness": 40, "Ride": 50}}
    t = table(
        {
            "anna": {**sheet, "bonuses": {"AB": 3, "BB": 3}},
            "bert": {**sheet, "bonuses": {"AB": 5, "BB": 3}},
            "otto": {**sheet, "bonuses": {"AB": 4, "BB": 3}, "initiative": 6},
            "pia": {**sheet, "bonuses": {"AB": 2, "BB": 3}, "initiative": 7},
        }
    )
    t = act(
        t,
        REFEREE,
        "chase.start",
        [9, 2],
        escapees=[
            {"character": "anna", "mode": "palfrey horse"},
            {"character": "bert", "mode": "rouncey horse"},
        ],
        pursuers=[{"character": "otto", "mode": "courser horse"}, {"character": "pia"}],
    )
    parts = t.state.chase.participants
    assert [(p.id, p.mode, p.movement) for p in parts] == [
        ("bert", "rouncey horse", 12),
        ("anna", "palfrey horse", 9),
        ("otto", "couser horse", 12),
        ("pia", "on foot", 5),
    ]
    assert [p.initiative for p in parts[2:]] == [15, 9]
    assert (
        "Pursuers' Initiative: Otto 1D10 9 + Initiative 6 = 15; Pia 1D10 2 + Initiative 7 = 9."
        in _lines(t, "chase.started")[-1]
    )


def test_a_character_named_twice_is_refused_in_words() -> None:
    """Chase scene rules: each character runs once, on one side."""
    sheet = {"skills": {"Coordination": 40, "Toughness": 40}, "bonuses": {"BB": 3}}
    t = table({"anna": sheet, "bert": sheet})
    with pytest.raises(RuleError, match="Anna is named twice: each character runs once"):
        act(t, REFEREE, "chase.start", escapees=[{"character": "anna"}], pursuers=["anna"])


SKILLS = OneOf(("Athletics", "Bows", "Coordination", "Toughness"))


def _give_up(who: str, side: str) -> Choice:
    return Choice(who, "chase.give_up", {"side": OneOf((side,))}, label="give up")


GIVE_UP_ESCAPEES = _give_up("runner", "escapees")


GIVE_UP_PURSUERS = _give_up("chaser", "pursuers")


GM_GIVE_UP = Choice(
    REFEREE, "chase.give_up", {"side": OneOf(("escapees", "pursuers"))}, label="a side gives up"
)


def test_each_participants_menu_follows_the_ladder_through_a_round() -> None:
    """Chase scene rules: in ladder order each participant moves; right after their move they may
    describe an Action or attack an opponent (once); a Pursuer who caught up may attempt a
    Takedown; on their turn they may give up for their side (out of turn they wait: ruling
    35); the GM ends the Round once all have moved."""
    t = start()
    assert chase.choices(t.state, REFEREE) == [GM_GIVE_UP]
    assert chase.choices(t.state, "runner") == [
        Choice("runner", "chase.move", label="move: 1D10 + Movement"),
        GIVE_UP_ESCAPEES,
    ]
    assert chase.choices(t.state, "chaser") == []
    t = act(t, "runner", "chase.move", [1])  # 8
    assert chase.choices(t.state, "runner") == [
        Choice(
            "runner",
            "chase.action",
            {"skill": SKILLS, "gain": Between(1, 3)},
            label="describe an Action",
        ),
        Choice(
            "runner",
            "chase.attack",
            {"target": OneOf(("chaser",)), "skill": SKILLS, "damage_ranks": Between(0, 5)},
            label="a Ranged or Magick Attack",
        ),
        GIVE_UP_ESCAPEES,
    ]
    acted = act(t, "runner", "chase.action", [20], skill="Athletics")
    assert chase.choices(acted.state, "runner") == [GIVE_UP_ESCAPEES]
    assert chase.choices(_incapacitated(t.state, "runner"), "runner") == [GIVE_UP_ESCAPEES]
    t = act(t, "chaser", "chase.move", [9])  # caught up with the runner
    assert chase.choices(t.state, "runner") == []
    takedown = chase.choices(t.state, "chaser")
    assert [c.kind for c in takedown] == [
        "chase.action",
        "chase.attack",
        "chase.takedown",
        "chase.give_up",
    ]
    assert takedown[1].params["target"] == OneOf(("runner",))
    assert takedown[2].label == "attempt a Takedown on Runner"
    assert chase.choices(t.state, REFEREE) == [
        Choice(REFEREE, "chase.end_round", label="end the Round"),
        GM_GIVE_UP,
    ]


def test_a_chase_start_is_recorded_whole_and_folded_into_the_state() -> None:
    """Chase scene rules: the Initiative Ladder, each participant's side, mode, Movement and
    Value (a Head Start +3), the Pursuers' Initiative rolls, the Escape Condition, the Head
    Start's side and the Takedown's difficulty (a Condition of the table, "busy tavern": -10)."""
    t = start(
        escapees={"runner": "palfrey horse"},
        pursuers=["chaser"],
        head_start="escapees",
        escape_condition=6,
        takedown="busy tavern",
        dice=[4],
    )
    assert last(t, "chase.started") == {
        "ladder": ["runner", "chaser"],
        "participants": [
            dict(id="runner", side="escapee", mode="palfrey horse", movement=10, value=3),
            dict(id="chaser", side="pursuer", mode="on foot", movement=6, value=0),
        ],
        "initiative_rolls": {"chaser": {"d10": 4, "initiative": 7, "total": 11}},
        "escape_condition": 6,
        "head_start": "escapee",
        "takedown_difficulty": -10,
    }
    started = t.state.chase
    assert started is not None
    assert [
        (x.id, x.side, x.mode, x.movement, x.value, x.initiative, x.status)
        for x in started.participants
    ] == [
        ("runner", "escapee", "palfrey horse", 10, 3, None, "in"),
        ("chaser", "pursuer", "on foot", 6, 0, 11, "in"),
    ]
    assert (started.escape_rounds, started.takedown_difficulty, started.head_start) == (
        6,
        -10,
        "escapee",
    )
    assert (started.round, started.current, started.ended) == (1, None, None)


def test_one_chase_at_a_time_and_a_new_one_once_it_has_ended() -> None:
    t = start()
    assert t.state.chase is not None and t.state.chase.head_start is None
    with pytest.raises(RuleError, match="already under way"):
        act(t, "referee", "chase.start", [5], escapees=["runner"], pursuers=["chaser"])
    t = act(t, "referee", "chase.give_up", side="escapees")
    assert last(t, "chase.gave_up") == {"side": "escapee", "round": 1}
    again = act(t, "referee", "chase.start", [5], escapees=["chaser"], pursuers=["runner"])
    assert again.state.chase is not None and again.state.chase.ended is None
    assert again.state.chase.participant("chaser").side == "escapee"


@pytest.mark.parametrize(
    ("escapees", "pursuers", "refusal"),
    [
        (["runner"], ["runner"], "Runner is named twice: each character runs once"),
        (["runner", "runner"], ["chaser"], "Runner is named twice"),
        (["runner"], ["dead"], "Dead is Slain! and cannot take part"),
        ([], ["chaser"], "at least one escapee and one pursuer"),
    ],
)
def test_a_chase_start_is_refused_for_who_cannot_take_part(
    escapees: list[str], pursuers: list[str], refusal: str
) -> None:
    """Chase scene rules: each participant once, on one side, neither Slain! nor
    Incapacitated!, at least one on each side."""
    chars = {"runner": RUNNER, "chaser": CHASER, "dead": {**CHASER, "damage": "Slain!"}}
    with pytest.raises(RuleError, match=refusal):
        act(table(chars), "referee", "chase.start", escapees=escapees, pursuers=pursuers)


def test_a_mounted_participant_needs_no_coordination_and_a_sturdy_one_no_toughness() -> None:
    """Audit B4: Coordination is asked only of a participant on foot (a Takedown tests it), and
    Toughness only of one whose Brawn Bonus is below the Escape Condition's Rounds."""
    rider = {"bonuses": {"AB": 4, "BB": 3}, "skills": {"Toughness": 50}}
    sturdy = {"bonuses": {"AB": 3, "BB": 3}, "skills": {"Coordination": 45}}
    t = start(
        escapees={"runner": "palfrey horse"},
        pursuers={"chaser": "on foot"},
        chars={"runner": rider, "chaser": sturdy},
        escape_condition=3,
    )
    assert t.state.chase is not None and t.state.chase.ended is None
    # a Pursuer on foot who catches a rider with no Coordination: no Takedown test to offer
    t = act(act(t, "runner", "chase.move", [1]), "chaser", "chase.move", [9])
    assert t.state.chase.participant("chaser").caught == "runner"
    assert [c.kind for c in chase.choices(t.state, "chaser")][-2:] == [
        "chase.attack",
        "chase.give_up",
    ]


def test_the_log_tells_a_chase_round_as_it_was_played() -> None:
    """What a person reads of a chase: the ladder with each side, mode, Movement and Value; each
    move's d10; an Action's description, roll and change; a catch; a Takedown's roll and result;
    the Complication die; the end of the Round."""
    t = start(head_start="pursuers")
    t = act(t, "runner", "chase.move", [1])
    t = act(t, "runner", "chase.action", [20], skill="Athletics", description="vaults a cart")
    t = act(t, "chaser", "chase.move", [9])
    t = act(t, "chaser", "chase.takedown", [60])
    t = act(t, "referee", "chase.end_round", [6])
    assert _lines(t, "chase.") == [
        "A chase begins (Escape Condition 3 Rounds). Ladder: Runner (escapee, on foot, "
        "Movement 7, Value 0), Chaser (pursuer, on foot, Movement 6, Value 3). "
        "Pursuers' Initiative: Chaser 1D10 5 + Initiative 7 = 12.",
        "Runner rolls 1 + Movement 7: Value 8.",
        "Runner takes an Action (vaults a cart) — d100 20: success; Value +1 → 9.",
        "Chaser rolls 9 + Movement 6: Value 18.",
        "Chaser catches up with Runner: Pursuit Value 18 → 9.",
        "Chaser attempts a Takedown on Runner — Chaser's Takedown (Coordination): d100 60: "
        "failure; the Pursuer reduces their Pursuit Value by 1.",
        "Runner's Chaos Die shows [6]: a Complication!",
        "End of Round 1.",
    ]
    quiet = act(
        act(start(), "runner", "chase.move", [1]), "runner", "chase.action", [70], skill="Athletics"
    )
    quiet = act(act(quiet, "chaser", "chase.move", [1]), "referee", "chase.end_round", [3])
    assert _lines(quiet, "chase.")[2:4] == [
        "Runner takes an Action — d100 70: failure; Value +0 → 8.",
        "Chaser rolls 1 + Movement 6: Value 7.",
    ]
    assert _lines(quiet, "chase.complication") == ["Runner's Chaos Die shows [3]: no Complication"]


def test_whose_move_it_is_follows_the_chase_ladder_and_otherwise_every_living_character() -> None:
    """Outside a chase the GM and every character not Slain! may act; in a chase, the GM, the
    one who just moved (their Action), a Pursuer who caught up (their Takedown) and the next on
    the ladder; once the chase has ended, everyone again."""
    chars = {"runner": RUNNER, "chaser": CHASER, "dead": {**CHASER, "damage": "Slain!"}}
    t = start(chars=chars)
    assert PROCEDURE.actors(table(chars).state) == (REFEREE, "runner", "chaser")
    assert PROCEDURE.actors(t.state) == (REFEREE, "runner")
    t = act(t, "runner", "chase.move", [1])
    assert PROCEDURE.actors(t.state) == (REFEREE, "runner", "chaser")
    t = act(t, "chaser", "chase.move", [9])  # caught up; nobody left to move
    assert PROCEDURE.actors(t.state) == (REFEREE, "chaser")
    t = act(t, "referee", "chase.give_up", side="escapees")
    assert PROCEDURE.actors(t.state) == (REFEREE, "runner", "chaser")


def test_a_character_not_running_in_the_chase_acts_beside_it_and_waits_for_no_turn() -> None:
    """Chase scene rules: the ladder orders the participants alone (ruling 35); a character
    not running in the chase is among those who may act, is offered the other sections' steps
    (a Skill Test) and waits for no turn on the ladder, while a participant waits for theirs."""
    chars = {"runner": RUNNER, "chaser": CHASER, "smith": RUNNER}
    t = start(chars=chars)
    assert PROCEDURE.actors(t.state) == (REFEREE, "runner", "smith")
    assert "test" in [c.kind for c in PROCEDURE.legal_actions(t.state, "smith")]
    assert [c.kind for c in PROCEDURE.legal_actions(t.state, "runner")] == [
        "chase.move",
        "chase.give_up",
    ]
    assert PROCEDURE.waiting(t.state, "smith") is None
    assert PROCEDURE.waiting(t.state, "chaser") is not None


def test_the_end_of_a_round_clears_every_turn_for_the_next_round() -> None:
    """Chase scene rules: at the end of a Round nobody has moved or acted, no Pursuer still holds
    the Escapee they caught up with or tackled, and nobody's turn is running; in the next Round
    each moves and may take an Action again."""
    t = start(head_start="pursuers")
    t = act(t, "runner", "chase.move", [1])
    t = act(t, "runner", "chase.action", [20], skill="Athletics")
    t = act(t, "chaser", "chase.move", [9])  # catches up with the runner
    t = act(t, "chaser", "chase.takedown", [60])  # fails: the runner stays in
    assert (_ladder(t)["chaser"]["caught"], _ladder(t)["chaser"]["tackled"]) == (None, "runner")
    t = act(t, "referee", "chase.end_round", [6])
    state = PROCEDURE.state_json(t.state)["chase"]
    assert (state["round"], state["current"]) == (2, None)
    for who in ("runner", "chaser"):
        turn = {k: state["participants"][who][k] for k in ("moved", "acted", "caught", "tackled")}
        assert turn == {"moved": False, "acted": False, "caught": None, "tackled": None}
    t = act(t, "runner", "chase.move", [1])
    t = act(t, "runner", "chase.action", [20], skill="Athletics")
    assert _ladder(t)["runner"]["acted"] is True
    held = act(
        act(start(head_start="pursuers"), "runner", "chase.move", [1]), "chaser", "chase.move", [9]
    )
    assert _ladder(held)["chaser"]["caught"] == "runner"  # no Takedown tried this Round
    held = act(held, "referee", "chase.end_round", [6])
    assert _ladder(held)["chaser"]["caught"] is None


def test_the_state_shows_a_chases_participants_by_id_and_its_ladder_in_order() -> None:
    """Chase scene rules (Initiative Ladder): the state shows each participant by id and the
    ladder in its order, Escapees first."""
    t = start()
    chase: Any = PROCEDURE.state_json(t.state)["chase"]
    assert chase["ladder"] == ["runner", "chaser"]
    assert sorted(chase["participants"]) == ["chaser", "runner"]
    assert chase["participants"]["runner"]["side"] == "escapee"
    assert chase["participants"]["chaser"]["side"] == "pursuer"


def test_a_move_records_its_d10_movement_and_gain_and_refuses_a_move_out_of_turn() -> None:
    """Chase scene rules (Pursuit/Escape Value): 1D10 + Movement on one's turn of the Initiative
    Ladder; out of turn the refusal names whose turn it is, or that the Round must end; with no
    chase under way the move is refused as a move."""
    t = act(start(), "runner", "chase.move", [4])
    assert last(t, "chase.moved") == {
        "participant": "runner",
        "d10": 4,
        "movement": 7,
        "gained": 11,
        "value": 11,
        "round": 1,
    }
    with pytest.raises(RuleError, match="it is Chaser's move, not Runner's"):
        act(t, "runner", "chase.move", [4])
    t = act(t, "chaser", "chase.move", [1])
    with pytest.raises(RuleError, match="everyone has moved this Round, Runner too"):
        act(t, "runner", "chase.move", [4])
    with pytest.raises(RuleError, match=r"^chase\.move: no chase is under way"):
        act(table({"runner": RUNNER}), "runner", "chase.move", [4])


def _seat(who: str) -> Viewer:
    """The seat of the player who plays ``who``."""
    return Viewer(f"player of {who}", frozenset({who}))


def test_a_participant_out_of_turn_waits_told_whose_move_and_until_when() -> None:
    """Chase scene rules (Initiative Ladder): while the chase runs its participants act in it,
    in ladder order (ruling 35): one whose turn it is not has nothing to do, and their seat is
    told whose move it is and until when; once all have moved, that the GM ends the Round."""
    t = start(
        pursuers={"chaser": "on foot", "hound": "on foot"},
        chars={"runner": RUNNER, "chaser": CHASER, "hound": CHASER},
        dice=[5, 3],
    )
    assert observe(t, _seat("hound")).choices == ()
    assert t.legal_actions("hound") == ()  # no Skill Test aside: the chase is all they do
    [waiting] = observe(t, _seat("hound")).waiting
    assert (waiting.reason, waiting.until) == (
        "the chase, Round 1: it is Runner's move on the Initiative Ladder",
        "until your turn, after Runner, Chaser",
    )
    assert observe(t, _seat("runner")).waiting == ()
    t = act(t, "runner", "chase.move", [1])
    [waiting] = observe(t, _seat("hound")).waiting
    assert (waiting.reason, waiting.until) == (
        "the chase, Round 1: Runner has moved and may take an Action",
        "until your turn, after Chaser",
    )
    t = act(act(t, "chaser", "chase.move", [1]), "hound", "chase.move", [1])  # 7 and 7: no catch
    [waiting] = observe(t, _seat("runner")).waiting
    assert waiting == Waiting(
        "runner",
        "the chase, Round 1: everyone has moved; the GM rolls the Complication and fatigue",
        "until the next Round",
        "Chase scene rules (Complications, fatigue)",
    )
    t = act(t, "referee", "chase.end_round", [1])
    t = act(t, "referee", "chase.give_up", side="pursuers")
    # the chase over, the chaser's seat has its other steps again (a Skill Test ...)
    assert observe(t, _seat("chaser")).waiting == ()
    assert "test" in {c.kind for c in observe(t, _seat("chaser")).choices}


def test_one_who_has_moved_waits_for_the_next_round_and_then_for_the_takedowns() -> None:
    """Chase scene rules (Initiative Ladder, Takedown): an Escapee who has moved waits until the
    next Round while the others move; once all have, for the Pursuers who caught up with them
    to attempt their Takedowns, until the GM ends the Round."""
    t = start(
        pursuers={"chaser": "on foot", "hound": "on foot"},
        chars={"runner": RUNNER, "chaser": CHASER, "hound": CHASER},
        dice=[5, 3],
    )
    t = act(act(t, "runner", "chase.move", [1]), "chaser", "chase.move", [9])  # caught up
    assert observe(t, _seat("runner")).waiting == (
        Waiting(
            "runner",
            "the chase, Round 1: Chaser has moved and may take an Action",
            "until the next Round (you have moved)",
            "Chase scene rules (Initiative Ladder)",
        ),
    )
    t = act(t, "hound", "chase.move", [9])  # caught up too
    assert observe(t, _seat("runner")).waiting == (
        Waiting(
            "runner",
            "the chase, Round 1: Chaser, Hound may attempt a Takedown",
            "until the GM ends the Round",
            "Chase scene rules (Takedown)",
        ),
    )


def test_a_chase_started_folds_its_ladder_from_a_list_and_nothing_else() -> None:
    """Chase scene rules (the Initiative Ladder): the chase's participants are folded from the
    record's list in ladder order; a record whose participants are not a list places no one."""
    runner = {"id": "runner", "side": "escapee", "mode": "on foot", "movement": 6, "value": 3}
    started = {"escape_condition": 3, "takedown_difficulty": 0, "head_start": "escapee"}
    listed = fold_started(
        ZweihanderState(), Event("chase.started", {**started, "participants": [runner]})
    )
    assert listed.chase is not None
    assert [(x.id, x.value, x.initiative) for x in listed.chase.participants] == [
        ("runner", 3, None)
    ]
    keyed = {**started, "participants": {"runner": runner}}
    unlisted = fold_started(ZweihanderState(), Event("chase.started", keyed))
    assert unlisted.chase is not None and unlisted.chase.participants == ()

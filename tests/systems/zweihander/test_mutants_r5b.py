"""Mutation testing, round 5, second wave (issue 13): what the referee's log says.

Each case is an event as the procedure records it, cut to the fields its line reads, and the
line a person reads in the log: every number and name in it is the event's.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import REFEREE, Event, RuleError, Viewer
from referee.systems.zweihander import PROCEDURE
from referee.systems.zweihander import events as ev
from referee.systems.zweihander.events import describe

from .helpers import act, table
from .test_chase import CHASER, RUNNER, play_round, start


def _card(label: str, shown: str, outcome: str) -> dict[str, Any]:
    return {
        "card": "roll",
        "label": label,
        "dice": "d100",
        "faces": [],
        "outcome": outcome,
        "margin": 0,
        "value": 0,
        "shown": shown,
    }


ROLL = _card("anna tests", "d100 12", "success")
TACTIC = {
    "character": "bert",
    "tactic": "Intimidate",
    "roll": _card("bert uses Intimidate", "d100 60", "failure"),
    "outcome": "failure",
    "disposition_read_as": "Hostile",
    "result": "Aggressive",
}

LINES: list[tuple[str, dict[str, Any], str]] = [
    (
        ev.TEST_ROLLED,
        {"character": "anna", "skill": "Stealth", "total_chance": 25, "roll": ROLL},
        "Anna tests Stealth at 25% — d100 12: success.",
    ),
    (
        ev.TEST_ROLLED,
        {"character": "anna", "skill": None, "total_chance": 37, "roll": ROLL},
        "Anna tests a chance of 37 at 37% — d100 12: success.",
    ),
    (
        ev.TEST_ROLLED,
        {"character": "anna", "total_chance": 63, "roll": ROLL},
        "Anna tests a chance of 63 at 63% — d100 12: success.",
    ),
    (
        ev.MORALE_CHECKED,
        {
            "foes": "the bandits",
            "rolls": [
                _card("the bandits test Resolve", "d100 45", "failure"),
                {**ROLL, "card": "chaos"},
                "not a card",
                _card("their leader tests Leadership", "d100 9", "success"),
            ],
            "result": "they hold",
        },
        "Morale check for the bandits: the bandits test Resolve: d100 45: failure; their leader "
        "tests Leadership: d100 9: success. Result: they hold.",
    ),
    (
        ev.MORALE_CHECKED,
        {"foes": "the wolves", "roll": ROLL, "result": "they flee"},
        "Morale check for the wolves: d100 12: success. Result: they flee.",
    ),
    (
        ev.EXCHANGE_STARTED,
        {
            "npc": "Vollmer",
            "disposition": "Unfriendly",
            "participants": ["anna", "bert"],
            "favourable": "Charm",
            "unfavourable": "Intimidate",
        },
        "A Complex Exchange with Vollmer (Unfriendly) begins: Anna, Bert take part. "
        "[GM's secret: Favourable Charm, Unfavourable Intimidate]",
    ),
    (
        ev.EXCHANGE_STARTED,
        {"npc": "Vollmer", "disposition": "Neutral", "participants": ["cora"]},
        "A Complex Exchange with Vollmer (Neutral) begins: Cora take part.",
    ),
    (
        ev.EXCHANGE_TACTIC_TESTED,
        TACTIC,
        "Bert uses Intimidate — d100 60: failure; read as failure at Hostile: Aggressive.",
    ),
    (
        ev.EXCHANGE_TACTIC_TESTED,
        {
            **TACTIC,
            "mental_peril": 9,
            "characters": {"bert": {"peril": 2}, "anna": {"peril": 5}},
            "burned_reputation": True,
            "fortune_points": 2,
            "bumped_by": "unfavourable",
        },
        "Bert uses Intimidate — d100 60: failure; read as failure at Hostile: Aggressive; "
        "9 mental Peril → Ignore 1 Skill Rank; a Reputation Point burnt for the Assist Die; "
        "the party gains 2 Fortune Point. [GM's secret: bumped by the unfavourable Skill]",
    ),
    (
        ev.EXCHANGE_TACTIC_TESTED,
        {**TACTIC, "mental_peril": 3, "burned_reputation": False, "fortune_points": 0},
        "Bert uses Intimidate — d100 60: failure; read as failure at Hostile: Aggressive; "
        "3 mental Peril.",
    ),
    (
        ev.EXCHANGE_ENDED,
        {"npc": "Vollmer", "favourable": "Charm", "unfavourable": "Intimidate"},
        "The exchange with Vollmer ends. Favourable Skill: Charm; Unfavourable Skill: Intimidate.",
    ),
    (
        ev.MADNESS_WITHSTOOD,
        {
            "character": "cora",
            "situation": "Fear",
            "roll": ROLL,
            "corruption": 6,
            "mental_peril": 12,
        },
        "Cora withstands Fear — d100 12: success; 12 mental Peril and 6 Corruption.",
    ),
    (
        ev.MADNESS_WITHSTOOD,
        {"character": "cora", "situation": "Terror", "roll": ROLL, "corruption": 0},
        "Cora withstands Terror — d100 12: success.",
    ),
    (
        ev.CORRUPTION_GAINED,
        {"character": "dave", "points": 5, "weight": "middling", "offence": "Arson"},
        "Dave gains 5 Corruption for a middling offence (Arson).",
    ),
    (
        ev.CORRUPTION_GAINED,
        {"character": "dave", "points": 3, "weight": "minor"},
        "Dave gains 3 Corruption for a minor offence.",
    ),
    (
        ev.CORRUPTION_RESOLVED,
        {"character": "anna", "corruption": 0, "order_gained": 1, "chaos_gained": 0},
        "Anna: Corruption 0 (no roll) → +1 Order, +0 Chaos.",
    ),
    (
        ev.CORRUPTION_RESOLVED,
        {
            "character": "anna",
            "corruption": 3,
            "corruption_die": 0,
            "order_gained": 2,
            "chaos_gained": 0,
            "fate_point": True,
        },
        "Anna: Corruption 3 (d10 0) → +2 Order, +0 Chaos; ten ranks of Order: a Fate Point, "
        "ranks erased.",
    ),
    (
        ev.CORRUPTION_RESOLVED,
        {
            "character": "bert",
            "corruption": 14,
            "corruption_die": 4,
            "order_gained": 0,
            "chaos_gained": 2,
            "disorder": "Pyromania",
        },
        "Bert: Corruption 14 (d10 4) → +0 Order, +2 Chaos; ten ranks of Chaos: the Disorder "
        "Pyromania, ranks erased.",
    ),
    (
        ev.REPUTATION_AWARDED,
        {"character": "anna", "story_arc": 2},
        "Anna earns 2 Reputation for a story arc.",
    ),
    (
        ev.REQUISITION_MADE,
        {"character": "anna", "weight": "minor", "cost": 2, "what": "a barber surgeon"},
        "Anna makes a minor requisition for 2 Reputation: a barber surgeon.",
    ),
    (
        ev.REQUISITION_MADE,
        {"character": "anna", "weight": "major", "cost": 4},
        "Anna makes a major requisition for 4 Reputation.",
    ),
    (
        ev.REQUISITION_AVAILABLE,
        {"character": "bert", "weight": "major"},
        "Bert may make a major requisition again.",
    ),
    (
        ev.STABLE_REWARDED,
        {"player": "alice", "rewards": {"anna": 3, "hugo": 2}},
        "Alice's stable earns Reward Points: Anna +3, Hugo +2.",
    ),
]


@pytest.mark.parametrize(
    ("kind", "data", "line"), LINES, ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(LINES)]
)
def test_the_log_line_names_every_number_and_name_of_the_event(
    kind: str, data: dict[str, Any], line: str
) -> None:
    assert describe(Event(kind, data), Viewer(REFEREE)) == line


# ------------------------------------------------------------------ chase.py's evolve and decide


def _ladder(t: Any) -> dict[str, Any]:
    """The chase's participants as the table's state shows them."""
    return PROCEDURE.state_json(t.state)["chase"]["participants"]


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


def test_at_the_escape_condition_the_escapees_still_in_escape_and_the_pursuers_do_not() -> None:
    """Chase scene rules (Escape Condition): once its Rounds have passed, every Escapee still in
    the chase has escaped; a Pursuer is not an escapee and stays as they were."""
    sturdy = {**CHASER, "bonuses": {"AB": 3, "BB": 5, "PB": 4}}
    t = start(escape_condition=3, chars={"runner": RUNNER, "chaser": sturdy})
    for _ in range(3):
        t = play_round(t, [9, 1], [1])
    assert {who: x["status"] for who, x in _ladder(t).items()} == {
        "runner": "escaped",
        "chaser": "in",
    }


def test_giving_up_with_no_chase_under_way_or_after_it_ended_is_refused_under_its_own_name() -> (
    None
):
    """Chase scene rules: a side gives up a chase under way; the refusal names chase.give_up."""
    gave_up = act(start(), "referee", "chase.give_up", side="pursuers")
    for t, why in ((table({"runner": RUNNER}), "no chase"), (gave_up, "has ended")):
        with pytest.raises(RuleError, match=why) as refused:
            act(t, "referee", "chase.give_up", side="escapees")
        assert refused.value.rule == "chase.give_up"

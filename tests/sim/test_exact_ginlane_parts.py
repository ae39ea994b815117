"""The parts of the exact Gin Lane fight (:mod:`referee.systems.ginlane.exact`), each against the
procedure it reads: the Initiative's tie loop, the chain's states and steps, an attack's
branches by margin.

Rules text (Gin Lane), "Initiative": "First turn in the round starts with the winner of a 2d6 +
Alertness initiative check. Turns then proceed in order around the table."
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import pytest

from referee.core import Action, Table, system
from referee.core.simulation import EncounterOutcome, conflict_of
from referee.dice import ScriptedSource
from referee.systems.ginlane import exact, exact_branches
from referee.systems.ginlane.exact import (
    SECONDS_PER_STATE,
    FightError,
    _forward,
    _placed,
    _solve,
    _start,
    fight_odds,
)
from referee.systems.ginlane.exact_branches import ScriptedFaces, Work, act_with, canonical
from referee.systems.ginlane.exact_chain import ChainStep, Explorer, InitiativeContest, share_sum
from referee.systems.ginlane.exact_hits import Attack, Landing
from tests.sim.test_exact_ginlane import EVEN, SKILLED, _bruised, _strike

INITIATIVE = Action("referee", "initiative", {})


def _table(people: dict[str, dict[str, Any]]) -> Table[Any]:
    return system("ginlane").new_table({"characters": people})


def test_a_three_way_initiative_sums_the_ties_of_two_and_of_three_re_rolled() -> None:
    """Three of equal Alertness: every tie is re-rolled among the tied (all three, or the two
    highest), so each is first with a third of the chance, turns then going round the table;
    each order's faces, played through the procedure, give it."""
    sword = {"weapon": "sword", "skills": {"Alertness": 1}}
    people = {"moll": {**sword, "side": "society"}, "jack": sword, "kit": sword}
    table = _table(people)
    contest = InitiativeContest(table, INITIATIVE, Work())
    leaves = contest.solve()
    firsts: dict[str, Fraction] = {}
    for k, (p, after, faces) in leaves.items():
        assert canonical(after) == k
        assert canonical(table.act(INITIATIVE, ScriptedFaces(faces))) == k
        state = dict(after.procedure.state_json(after.state))
        firsts[state["turn"]] = firsts.get(state["turn"], Fraction(0)) + p
    assert firsts == dict.fromkeys(("moll", "jack", "kit"), Fraction(1, 3))
    assert len(leaves) == 3
    # the ties summed: all three, and each two of them, re-rolled on 2d6+1 each
    assert sorted(len(tied) for tied, _ in contest.values) == [2, 2, 2, 3]


def _two_d6() -> dict[int, Fraction]:
    totals: dict[int, Fraction] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            totals[a + b] = totals.get(a + b, Fraction(0)) + Fraction(1, 36)
    return totals


def test_who_goes_first_is_the_higher_initiative_check_its_ties_re_rolled() -> None:
    """Moll's 2d6 + Alertness 1 against Jack's 2d6 - 2 (no Alertness: "No Relevant Skill"):
    she is first with the chance her total is higher, given it is not a tie (a tie re-rolls
    the same contest) — 493 in 596; the fight from there is solved whole."""
    dice = _two_d6()
    higher = sum((p * q for x, p in dice.items() for y, q in dice.items() if x + 1 > y - 2))
    tie = sum((p * q for x, p in dice.items() for y, q in dice.items() if x + 1 == y - 2))
    odds = fight_odds(_bruised())
    assert odds.initiative == {"jack": 1 - higher / (1 - tie), "moll": higher / (1 - tie)}
    assert odds.initiative["moll"] == Fraction(493, 596)
    assert (odds.states, odds.acts) == (17, 518)
    assert odds.wins == {
        "bravoes": Fraction(235707188155, 26090872628492),
        "society": Fraction(25855165440337, 26090872628492),
    }
    assert odds.expected_rounds == Fraction(354875240448, 306436423489)


def _begun() -> Table[Any]:
    """Moll first (Initiative scripted), Jack's Health boxes 2 to 4 ticked and Moll's 2 to 5."""
    return _bruised("even").act(INITIATIVE, ScriptedSource([6, 6, 1, 1]))


JACK_WINS = Fraction(97090037425, 207322676929)
MOLL_WINS = Fraction(110232639504, 207322676929)
JACK_HURT = {9: Fraction(217295, 455327), 14: Fraction(238032, 455327)}
FIRST_ROUNDS = (Fraction(484355, 839808), Fraction(282161999567, 940369969152))


def test_a_fight_under_way_is_solved_whole_its_attacks_landed_on_the_tracks() -> None:
    """The whole fight's fractions (within one round: the brute force's, every face of every
    die, in ``test_exact_ginlane.py``): 8 states from 230 procedure steps."""
    odds = fight_odds(_begun())
    assert odds.wins == {"bravoes": JACK_WINS, "society": MOLL_WINS}
    assert odds.taken_out == {"moll": JACK_WINS, "jack": MOLL_WINS}
    assert odds.damage == {"moll": {14: 1}, "jack": JACK_HURT}
    assert odds.expected_rounds == Fraction(329065141248, 207322676929)
    assert odds.by_round[:2] == FIRST_ROUNDS and len(odds.by_round) == 10
    assert odds.stalemate == odds.unfinished == 0
    assert (odds.initiative, odds.horizon, odds.states, odds.acts) == ({"moll": 1}, None, 8, 230)


def test_a_fight_under_way_played_from_every_state_answers_alike() -> None:
    """Each attack played from every state (less the actor's own tracks), not landed on the
    tracks: the same fractions, in 209 steps."""
    odds = fight_odds(_begun(), landing=False)
    assert odds.wins == {"bravoes": JACK_WINS, "society": MOLL_WINS}
    assert odds.damage == {"moll": {14: 1}, "jack": JACK_HURT}
    assert odds.expected_rounds == Fraction(329065141248, 207322676929)
    assert odds.by_round[:2] == FIRST_ROUNDS
    assert (odds.states, odds.acts) == (8, 209)


def test_a_fight_under_way_within_two_rounds_leaves_the_rest_unfinished() -> None:
    within = fight_odds(_begun(), rounds=2)
    assert within.by_round == FIRST_ROUNDS and within.horizon == 2
    assert within.unfinished == Fraction(115854364465, 940369969152)
    assert within.wins == {
        "bravoes": Fraction(409813687775, 940369969152),
        "society": Fraction(319986047, 725594112),
    }
    assert within.damage["jack"] == {
        9: Fraction(144374492015, 313456656384),
        14: Fraction(195696064321, 470184984576),
    }
    assert within.expected_rounds is None and within.stalemate == 0


def test_a_fight_opening_with_an_action_begins_in_its_branches_with_their_chances() -> None:
    """A conflict that opens with an action other than the Initiative (here Moll's attack, her
    turn in the fight under way) begins in each state that action leads to, with its chance:
    the chain's own step for that attack from the state it opens on."""
    begun = _begun()
    swing = Action("moll", "attack", {"target": "jack", "tags": []})
    fight = replace(conflict_of(begun), begin=lambda table, seat: [swing])
    explorer = Explorer(begun, fight, Work(), max_states=100)
    start = _start(begun, fight, None, explorer)
    chain = Explorer(begun, fight, Work(), max_states=100)
    step = chain.step(chain.number(chain.know(begun)))
    assert step is not None and len(start) > 2
    below, moves = step.scaled
    assert {explorer.keys[k]: p for k, p in start.items()} == {
        chain.keys[k]: Fraction(n, below) for k, n, _ in moves
    }
    assert sum(start.values()) == 1


def test_two_ways_into_one_opening_state_add_their_chances() -> None:
    """A conflict that opens with the Initiative (Moll first, or Jack), then the scene ended
    by the referee (the order of turns cleared): both ways lead to one state, whose chance is
    their sum."""
    table = _table({"moll": EVEN, "jack": SKILLED})
    end_scene = Action("referee", "end_scene", {})
    fight = replace(conflict_of(table), begin=lambda t, seat: [INITIATIVE, end_scene])
    explorer = Explorer(table, fight, Work(), max_states=10)
    start = _start(table, fight, None, explorer)
    ended = table.act(INITIATIVE, ScriptedSource([6, 6, 1, 1])).act(end_scene, None)
    assert start == {explorer.index[canonical(ended)]: 1}


def test_an_answer_past_its_most_steps_within_a_turn_is_refused_not_taken_for_a_refused_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The work's limit reached while a turn's action is worked out is the answer's refusal,
    not the game refusing that action (the policy would choose another, and the fight would
    seem to stall)."""
    begun = _begun()
    monkeypatch.setattr(exact_branches, "MAX_ACTS", 3)
    with pytest.raises(FightError, match="more than 3 procedure steps"):
        fight_odds(begun)


def test_the_states_are_numbered_once_each_and_refused_past_the_most_allowed() -> None:
    """Each canonical state is numbered once, in the order first met; one state more than
    ``max_states`` is refused."""
    table = _table({"moll": {**SKILLED, "side": "society"}, "jack": SKILLED})
    moll_first = table.act(INITIATIVE, ScriptedSource([6, 6, 1, 1]))
    jack_first = table.act(INITIATIVE, ScriptedSource([1, 1, 6, 6]))
    explorer = Explorer(table, conflict_of(table), Work(), max_states=2)
    numbers = [explorer.number(explorer.know(t)) for t in (table, moll_first, table)]
    assert numbers == [0, 1, 0] and explorer.keys == [canonical(table), canonical(moll_first)]
    assert explorer.over == [False, False]
    with pytest.raises(FightError, match="more than 2 states to expand"):
        explorer.know(jack_first)


@pytest.mark.parametrize(
    ("first_dice", "hit", "miss"),
    [
        ([6, 6, 1, 1], ("moll", "jack", [3, 3, 3, 4]), ("jack", "moll", [3, 3, 4, 4])),
        ([1, 1, 6, 6], ("jack", "moll", [3, 4, 3, 3]), ("moll", "jack", [3, 3, 4, 4])),
    ],
    ids=["moll-strikes-jack", "jack-strikes-moll"],
)
def test_a_state_reached_by_a_landed_attack_is_made_real_from_its_parent_when_needed(
    first_dice: list[int], hit: tuple[str, str, list[int]], miss: tuple[str, str, list[int]]
) -> None:
    """The first one's attack is played from the fight's first state, then landed on the
    tracks of a state that differs only in them (a Match dealt 2, the other missed) — whoever
    is struck, the first character or the second: each state it leads to is made real, when
    asked for, by acting from that state with its faces — the state worked out; a parent whose
    faces give another state is refused."""
    people = {"moll": EVEN, "jack": SKILLED}
    begun = _table(people).act(INITIATIVE, ScriptedSource(first_dice))
    later = _strike(_strike(begun, *hit, 2), *miss, 0)
    first, second = canonical(begun), canonical(later)
    assert first[0] == second[0] and first[1] != second[1]
    explorer = Explorer(begun, conflict_of(begun), Work(), max_states=100)
    explorer.step(explorer.number(explorer.know(begun)))
    assert explorer.attacks[first[0]] is not None
    explorer.know(later)
    acts = explorer.count.acts
    step = explorer.step(explorer.index[second])
    assert step is not None and explorer.count.acts == acts  # landed, not played
    made = 0
    for n, _, _ in step.scaled[1]:
        k = explorer.keys[n]
        if k in explorer.tables:
            continue
        parent, action, faces = explorer.parents[k]
        assert parent == second and action == explorer.attacks[first[0]].action
        table = explorer.table(k)
        assert canonical(table) == k and explorer.tables[k] is table
        assert canonical(act_with(later, action, faces, Work())) == k  # the defence answered
        made += 1
    assert made == explorer.count.acts - acts > 1
    wrong = explorer.keys[step.scaled[1][0][0]]
    explorer.parents[("elsewhere", wrong[1])] = (second, action, faces)
    with pytest.raises(FightError, match="read their own stress"):
        explorer.table(("elsewhere", wrong[1]))


def test_an_attack_is_kept_per_state_less_its_tracks_and_dropped_where_plays_disagree() -> None:
    """The first play of an attack from a state less its tracks is kept; another play adds
    the kinds of hit it found; one that does not hold (``None``) or disagrees drops the
    template for good."""
    table = _table({"moll": EVEN, "jack": SKILLED})
    explorer = Explorer(table, conflict_of(table), Work(), max_states=10)
    swing = Action("moll", "attack", {"target": "jack", "tags": []})
    margins = (
        Landing((6, 6), Fraction(1, 4), ("jack", "Health", 2)),
        Landing((1, 1), Fraction(3, 4), None, "missed", 0),
    )
    here, there = ("rest", (("jack", ()),)), ("rest", (("jack", (("Health", (2,)),)),))
    ticks = Attack(swing, margins, {False: ("ticked", 0)})
    explorer._remember(here, ticks)
    assert explorer.attacks == {"rest": ticks}
    explorer._remember(there, Attack(swing, margins, {True: ("out", 1)}))
    assert explorer.attacks == {"rest": ticks}
    assert ticks.after == {False: ("ticked", 0), True: ("out", 1)}
    explorer._remember(there, Attack(swing, margins, {True: ("elsewhere", 1)}))
    assert explorer.attacks == {"rest": None}
    explorer._remember(here, ticks)
    assert explorer.attacks == {"rest": None}
    explorer._remember(("other", here[1]), ticks)
    explorer._remember(("other", there[1]), None)
    assert explorer.attacks == {"rest": None, "other": None}


def test_an_attacks_hits_that_leave_the_same_track_are_one_branch_their_chances_summed() -> None:
    """A hit of 1 and a hit of 2 on Jack's Health track ("If the Nth box is already used then
    the damage rolls up to the next free box"): with box 1 free they tick boxes 1 and 2, two
    branches; with box 1 ticked both tick box 2, one branch, their chances summed (over the
    template's denominator, 8) with the first hit's faces — after the miss, as the margins
    come."""
    swing = Action("moll", "attack", {"target": "jack", "tags": []})
    margins = (
        Landing((6, 6), Fraction(1, 4), ("jack", "Health", 2)),
        Landing((1, 1), Fraction(5, 8), None, "missed", 0),
        Landing((5, 5), Fraction(1, 8), ("jack", "Health", 1)),
    )
    attack = Attack(swing, margins, {False: ("ticked", 0)})
    rests = {"rest": {"characters": {"jack": {"track_lengths": {"Health": 3}}}}}
    fresh = (("jack", (("Health", ()),)),)
    bruised = (("jack", (("Health", (1,)),)),)
    assert attack.branches(("rest", fresh), rests) == [
        (("missed", fresh), 5, 0, (1, 1)),
        (("ticked", (("jack", (("Health", (2,)),)),)), 2, 0, (6, 6)),
        (("ticked", (("jack", (("Health", (1,)),)),)), 1, 0, (5, 5)),
    ]
    assert attack.branches(("rest", bruised), rests) == [
        (("missed", bruised), 5, 0, (1, 1)),
        (("ticked", (("jack", (("Health", (1, 2)),)),)), 3, 0, (6, 6)),
    ]


def test_a_state_led_to_twice_is_one_move_of_the_step_its_chances_summed() -> None:
    """A step's moves to the same state (its number) are one, their chances summed, with the
    rounds and the faces (the parent's) of the first; a new state is numbered as it comes."""
    table = _table({"moll": EVEN, "jack": SKILLED})
    explorer = Explorer(table, conflict_of(table), Work(), max_states=10)
    here = explorer.know(table)
    there = (here[0], (("moll", ()), ("jack", (("Health", (2,)),))))
    swing = Action("moll", "attack", {"target": "jack", "tags": []})
    step = explorer._record(
        here,
        swing,
        [(there, 1, 0, (6, 6)), (here, 2, 1, (1, 1)), (there, 3, 1, (5, 5))],
        below=6,
    )
    far = explorer.index[there]
    assert (far, explorer.keys[far]) == (1, there)
    assert step.scaled == (6, [(1, 4, 0), (0, 2, 1)])
    assert explorer.parents[there] == (here, swing, (6, 6))
    assert explorer.steps[0] is step


def test_shares_are_summed_over_one_denominator_and_reduced() -> None:
    """Chances kept as whole numbers over others (not reduced where made) sum to the fraction
    they make, reduced: 1/4 + 2/8 + 1/6 is 2/3; one share alone is reduced too."""
    assert share_sum([(1, 4), (2, 8), (1, 6)]) == (2, 3)
    assert share_sum([(6, 8)]) == (3, 4)
    assert share_sum([(0, 36), (0, 6)]) == (0, 1)


def test_a_final_states_ending_is_checked_against_the_simulations_where_it_was_played() -> None:
    """The winner and damage read from a final state's JSON must be the simulation's own
    outcome wherever the state's table was played: a disagreement is refused."""
    begun = _table({"moll": EVEN, "jack": SKILLED}).act(INITIATIVE, ScriptedSource([6, 6, 1, 1]))
    over = _strike(begun, "moll", "jack", [6, 6, 1, 1], 13)
    fight = conflict_of(begun)
    explorer = Explorer(begun, fight, Work(), max_states=10)
    k = explorer.know(over)
    assert explorer.ending(k) == ("society", {"moll": 0, "jack": 0})
    told = replace(fight, outcome=lambda start, table: EncounterOutcome("bravoes", 1, {}))
    wrong = Explorer(begun, told, Work(), max_states=10)
    with pytest.raises(FightError, match="the simulation reads bravoes"):
        wrong.ending(wrong.know(over))
    wrong.tables.clear()  # worked out, never played: read from the state alone
    assert wrong.ending(k) == ("society", {"moll": 0, "jack": 0})


class _Clock:
    """A monotonic clock that reads what it is set to."""

    def __init__(self, now: float) -> None:
        self.now = now

    def monotonic(self) -> float:
        return self.now


def test_a_fight_of_more_sets_of_health_boxes_than_the_states_or_the_time_allow_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Moll's and Jack's 10 Health boxes are 1,024 sets, each a state of its own: with 1,024
    states allowed, or 1,024 x 0.13 ms given (the clock stopped), the fight is solved; with
    one state fewer, or a little less time, it is refused before anything is played."""
    begun = _begun()
    whole = fight_odds(begun)
    monkeypatch.setattr(exact, "time", _Clock(0.0))
    monkeypatch.setattr(exact_branches, "time", _Clock(0.0))
    assert fight_odds(begun, max_states=1_024) == whole
    assert fight_odds(begun, time_limit=1_024 * SECONDS_PER_STATE) == whole
    with pytest.raises(FightError, match=r": about 1,024 states .* more than 1,023: too large"):
        fight_odds(begun, max_states=1_023)
    with pytest.raises(FightError, match=r": about 1,024 states .* more than the 0\.13299 s"):
        fight_odds(begun, time_limit=1_023 * SECONDS_PER_STATE)


def test_an_answer_is_given_within_its_time_and_refused_once_the_clock_passes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fight from its Initiative takes 518 procedure steps, the clock read at the 256th: a
    minute given, it is answered as with no time given; the clock past the deadline then,
    refused."""
    begun = _bruised()
    assert fight_odds(begun, time_limit=60) == fight_odds(begun)
    monkeypatch.setattr(exact, "time", _Clock(100.0))
    monkeypatch.setattr(exact_branches, "time", _Clock(160.5))
    with pytest.raises(FightError, match=r": 256 procedure steps in 60 s and more to go"):
        fight_odds(begun, time_limit=60)


def test_a_horizon_of_no_rounds_is_refused() -> None:
    with pytest.raises(FightError, match="rounds must be at least 1, not 0"):
        fight_odds(_begun(), rounds=0)


@dataclass
class _Chain:
    """A chain made by hand, as the solver reads an explorer's: each state's step (``None``:
    nobody may move) and the states where the fight is over."""

    steps: dict[int, ChainStep | None]
    final: set[int]

    @property
    def over(self) -> dict[int, bool]:
        return {k: k in self.final for k in (*self.steps, *self.final)}

    def is_over(self, k: int) -> bool:
        return k in self.final

    def step(self, k: int) -> ChainStep | None:
        return self.steps[k]


def _moves(*moves: tuple[int, Fraction, int]) -> ChainStep:
    return ChainStep.of(moves)


def test_the_whole_chain_is_solved_component_by_component_its_endings_summed() -> None:
    """Begun in state 0 (3 in 4, round 1) or already over (4 or 5: 1 in 8 each, round 2);
    from 0 to 1 or 2, a round of misses (1 stays with 1 in 3; 2 stays with 1 in 2, listed as
    two chances of 1 in 4 that add) before each ends: in 3, reached from both, or (from 2) in
    5. The expected visits: 1's 3/8 x 3/2, 2's 3/8 x 2, each adding its round; each ending
    the sum of what flows to it from every component, and of the chance it began in."""
    half, third, quarter = Fraction(1, 2), Fraction(1, 3), Fraction(1, 4)
    chain = _Chain(
        {
            0: _moves((1, half, 0), (2, half, 0)),
            1: _moves((1, third, 1), (3, 2 * third, 1)),
            2: _moves((2, quarter, 1), (2, quarter, 1), (3, quarter, 1), (5, quarter, 1)),
        },
        {3, 4, 5},
    )
    start = {0: 3 * quarter, 4: quarter / 2, 5: quarter / 2}
    ended, expected, stalemate = _solve(chain, start, {0: 1, 4: 2, 5: 2})
    assert ended == {
        (3, 0): Fraction(3, 8) + Fraction(3, 16),
        (4, 0): quarter / 2,
        (5, 0): Fraction(3, 16) + quarter / 2,
    }
    assert expected == 3 * quarter + 2 * quarter + Fraction(9, 16) + Fraction(3, 4)
    assert stalemate == 0


def test_a_chain_whose_components_nobody_leaves_is_a_stalemate_their_chances_summed() -> None:
    """From 0: to 1 (it ends from there), to 6 (where nobody may move) or into 7 and 8, a
    cycle nobody leaves: the fight never ends from either, so the chance of a stalemate is
    the two's, and no round count is expected."""
    quarter = Fraction(1, 4)
    chain = _Chain(
        {
            0: _moves((1, quarter, 0), (6, quarter, 0), (7, 2 * quarter, 0)),
            1: _moves((1, Fraction(1, 3), 1), (3, Fraction(2, 3), 1)),
            6: None,
            7: _moves((8, Fraction(1), 1)),
            8: _moves((7, Fraction(1), 0)),
        },
        {3},
    )
    ended, expected, stalemate = _solve(chain, {0: Fraction(1)}, {0: 1})
    assert (ended, expected, stalemate) == ({(3, 0): quarter}, None, 3 * quarter)


def test_the_chain_run_forward_counts_what_is_still_going_whenever_it_passes_the_horizon() -> None:
    """From 0 (round 1): to 1 in round 2 (1 in 2), or to 2 still in round 1; from 2: over (3)
    in round 1, or to 1 in round 2; from 1, round after round of misses. Within one round:
    half passes the horizon at the first step, a quarter at the second, each counted as still
    going; a quarter ends in round 1."""
    half = Fraction(1, 2)
    chain = _Chain(
        {
            0: _moves((1, half, 1), (2, half, 0)),
            1: _moves((1, Fraction(1), 1)),
            2: _moves((3, half, 0), (1, half, 1)),
        },
        {3},
    )
    ended, by_round, unfinished = _forward(chain, {0: Fraction(1)}, {0: 1}, 1)
    assert (ended, by_round, unfinished) == ({(3, 1): half / 2}, (half / 2,), 3 * half / 2)


def test_the_chain_run_forward_without_finals_ends_as_with_them_round_by_round() -> None:
    """Without the final states told apart (the whole fight's by_round), the moves into final
    states are summed by the rounds they add: from 0, to 3 (ends in round 1), to 4 (ends in
    round 2) or to 1; from 1 to 5 (ends in round 2) or back: the same chance ends in each round
    as with each final state kept, and the same is still going past the horizon."""
    quarter = Fraction(1, 4)
    chain = _Chain(
        {
            0: _moves((3, quarter, 0), (4, quarter, 1), (1, 2 * quarter, 1)),
            1: _moves((5, quarter, 0), (1, 3 * quarter, 1)),
        },
        {3, 4, 5},
    )
    kept = _forward(chain, {0: Fraction(1)}, {0: 1}, 2)
    summed = _forward(chain, {0: Fraction(1)}, {0: 1}, 2, finals=False)
    assert kept[0] == {(3, 1): quarter, (4, 2): quarter, (5, 2): quarter / 2}
    assert summed == ({}, (quarter, quarter + quarter / 2), Fraction(3, 8)) == ({}, *kept[1:])
    # placed at width 4: state x 4 + rounds added; into 3 and 5 in the same round, one move
    both = _moves((3, quarter, 0), (5, quarter, 0), (1, 2 * quarter, 1))
    assert _placed(both, 4, chain.over, finals=True) == (4, [(12, 1), (20, 1), (5, 2)])
    assert _placed(both, 4, chain.over, finals=False) == (4, [(5, 2), (-4, 2)])


def test_a_state_nobody_may_move_from_is_that_state_stuck_and_no_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A state from which the default policy has no action (nobody may move, the fight not
    over) is marked stuck itself; the steps already worked out, and the state numbered as the
    actor's place among the characters, are left as they were."""
    begun = _table({"moll": EVEN, "jack": SKILLED}).act(INITIATIVE, ScriptedSource([6, 6, 1, 1]))
    jack_first = _table({"moll": EVEN, "jack": SKILLED}).act(
        INITIATIVE, ScriptedSource([1, 1, 6, 6])
    )
    explorer = Explorer(begun, conflict_of(begun), Work(), max_states=100)
    first = explorer.step(explorer.number(explorer.know(begun)))
    assert first is not None
    j = explorer.number(explorer.know(jack_first))
    assert j > 1  # not the number of Jack's place among the characters
    monkeypatch.setattr(explorer, "_choose", lambda table: None)
    assert explorer.step(j) is None
    assert explorer.steps == {0: first, j: None}

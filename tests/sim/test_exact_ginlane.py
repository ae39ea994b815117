"""The exact Gin Lane fight against brute-force enumeration through the real procedure, and
against the seeded simulation's intervals.

The brute force takes every action the default policy chooses with **every face of every die**
(tables merged only where the game's whole state, round included, is the same). Its Initiative
is cut off after ``k`` rounds of rolls: what is still tied then is left out, so every chance it
finds is the exact chance times ``1 - u`` (``u`` the mass cut off) — an identity that holds only
if the exact model sums the tie loop rightly (a tie re-rolls the same contest) — and the exact
chance lies between the brute force's and that plus ``u``.
"""

from __future__ import annotations

import json
import random
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from referee.core import Action, RefereeError, Table, system
from referee.core.loader import load_file
from referee.core.markov import ChainError
from referee.dice import ScriptedSource
from referee.sim.conflicts import conflict_of
from referee.sim.simulate import default_policy, legal_choices, simulate
from referee.systems.ginlane.exact import FightError, fight_odds
from referee.systems.ginlane.exact_branches import MAX_ACTS, NeedsDie, ScriptedFaces, Work
from referee.systems.ginlane.exact_chain import strongly_connected
from tests.sim.faces import Faces as _Faces
from tests.sim.faces import OutOfFaces as _Out

EXAMPLES = Path(__file__).parents[2] / "examples" / "ginlane"
ZERO = Fraction(0)


def _every_face(
    table: Table[Any], action: Action, cut: int | None = None
) -> tuple[list[tuple[Fraction, Table[Any]]], Fraction]:
    """``action`` taken with every sequence of faces it may ask for, each with its chance; with
    ``cut``, a sequence that asks for more than ``cut`` dice is left out (its chance returned)."""
    found: list[tuple[Fraction, Table[Any]]] = []
    left = [ZERO]

    def go(prefix: list[int], weight: Fraction) -> None:
        try:
            found.append((weight, table.act(action, _Faces(prefix))))
        except _Out as need:
            if cut is not None and len(prefix) >= cut:
                left[0] += weight
                return
            sides = int(need.args[0])
            for face in range(1, sides + 1):
                go([*prefix, face], weight / sides)

    go([], Fraction(1))
    return found, left[0]


def _whole(table: Table[Any]) -> str:
    return json.dumps(table.procedure.state_json(table.state), sort_keys=True, default=str)


def _state(table: Table[Any]) -> dict[str, Any]:
    return dict(table.procedure.state_json(table.state))


def brute_force(table: Table[Any], horizon: int, tie_rounds: int = 1) -> dict[str, Any]:
    """The fight within ``horizon`` rounds, every face of every die; where it begins with
    Initiative, its dice are cut after ``tie_rounds`` rounds of 2d6 for both. Returns who goes
    first, how it ends (winner, Health stress of Moll and of Jack), the chance still going after
    the horizon, and the chance cut off."""
    conflict = conflict_of(table)
    start = table
    rolled: list[tuple[Fraction, Table[Any]]] = [(Fraction(1), table)]
    cut = ZERO
    for begin in conflict.begin(table, None):
        rolled, cut = _every_face(table, begin, cut=4 * tie_rounds)
    frontier: dict[str, tuple[Fraction, Table[Any]]] = {}
    first: dict[str, Fraction] = {}
    for p, t in rolled:
        who = _state(t)["turn"]
        first[who] = first.get(who, ZERO) + p
        held = frontier.get(_whole(t))
        frontier[_whole(t)] = (p, t) if held is None else (held[0] + p, held[1])
    ends: dict[tuple[str, int, int], Fraction] = {}
    unfinished = ZERO
    while frontier:
        nxt: dict[str, tuple[Fraction, Table[Any]]] = {}
        for p, t in frontier.values():
            if conflict.is_over(start, t):
                o = conflict.outcome(start, t)
                where = (o.winner, o.damage["moll"], o.damage["jack"])
                ends[where] = ends.get(where, ZERO) + p
                continue
            if conflict.outcome(start, t).rounds > horizon:
                unfinished += p
                continue
            action = default_policy(t, conflict, legal_choices(t, conflict), random.Random(0))
            for q, after in _every_face(t, action)[0]:
                k = _whole(after)
                held = nxt.get(k)
                nxt[k] = (p * q, after) if held is None else (held[0] + p * q, held[1])
        frontier = nxt
    return {"first": first, "ends": ends, "unfinished": unfinished, "cut": cut}


def _strike(
    table: Table[Any], actor: str, target: str, faces: list[int], stress: int
) -> Table[Any]:
    """``actor`` attacks ``target`` with scripted dice that deal ``stress`` (0: a miss); the
    target answers the attack and the hit with the prompts' defaults (her best skill; the
    stress on the track)."""
    dice = ScriptedSource(faces)
    after = table.act(Action(actor, "attack", {"target": target}), dice)
    while asked := after.procedure.prompts(after.state):
        assert asked[0].default is not None
        after = after.act(asked[0].default, dice)
    events = [after.log[i] for i in range(table.version, after.version)]
    assert [dict(e.data)["stress"] for e in events if e.kind == "stress.taken"] == (
        [stress] if stress else []
    )
    assert not any(e.kind == "spin" for e in events)
    return after


STRONG = {
    "side": "society",
    "weapon": "sword",
    "experience": 35,
    "skills": {
        "Weapons": 5,
        **dict.fromkeys(["Agility", "Brawl"], 4),
        **dict.fromkeys(["Strength", "Stealth", "Burglary"], 3),
        **dict.fromkeys(["Gambling", "Drive", "Charm", "Empathy"], 2),
        **dict.fromkeys(["Alertness", "Deceive", "Oratory", "Investigation", "Ride"], 1),
    },
}
"""Moll, Weapons 5 (2d6+5 against Jack's Agility 2d6-2): Jack's defence never beats her
attack by 4, so she is never spun — a fight of few states, for the brute force."""
EVEN = {
    "side": "society",
    "weapon": "sword",
    "skills": {"Weapons": 2, "Alertness": 1, "Agility": 1},
}
"""Moll, Weapons 2 (2d6+2 against Jack's Weapons 2d6+1): an even fight."""
UNSKILLED = {"side": "bravoes", "weapon": "sword", "skills": {}}
SKILLED = {"side": "bravoes", "weapon": "sword", "skills": {"Weapons": 1}}
# the dice of the first scene: Moll deals Jack 2, 3, 4 and a miss; Jack deals her 2, 3, 4, 5
# (a sword deals the margin + 2, a Match 2: RULINGS.md)
SCRIPTS = {
    "strong": (
        ([1, 1, 4, 5], [1, 2, 4, 5], [2, 2, 4, 5], [1, 1, 5, 5]),
        ([6, 6, 2, 3], [6, 6, 2, 2], [6, 6, 1, 2], [6, 6, 1, 1]),
    ),
    "even": (
        ([3, 3, 3, 4], [3, 4, 3, 4], [4, 4, 3, 4], [3, 3, 4, 4]),
        ([4, 4, 3, 4], [4, 5, 3, 4], [5, 5, 3, 4], [5, 6, 3, 4]),
    ),
}


def _bruised(which: str = "strong") -> Table[Any]:
    """Moll and Jack (swords) after a first scene: Jack's Health boxes 2, 3 and 4 ticked (a
    hit of 2 to 5 lands on box 5, more Takes him Out), Moll's 2 to 5 (any hit Takes her Out);
    the scene ended, so the fight begins with Initiative (Moll's Alertness 1 against Jack's
    none, -2: ties happen, and are re-rolled)."""
    moll, jack = (STRONG, UNSKILLED) if which == "strong" else (EVEN, SKILLED)
    table = system("ginlane").new_table({"characters": {"moll": moll, "jack": jack}})
    table = table.act(Action("referee", "initiative"), ScriptedSource([6, 6, 1, 1]))
    hers, his = SCRIPTS[which]
    for mine, theirs, stress in zip(hers, his, (2, 3, 4, 0), strict=True):
        table = _strike(table, "moll", "jack", mine, stress)
        table = _strike(table, "jack", "moll", theirs, stress or 5)
    table = table.act(Action("referee", "end_scene"), None)
    chars = _state(table)["characters"]
    assert chars["jack"]["tracks"]["Health"] == [2, 3, 4]
    assert chars["moll"]["tracks"]["Health"] == [2, 3, 4, 5]
    assert not _state(table)["order"]
    return table


def _damage(ends: dict[tuple[str, int, int], Fraction], index: int) -> dict[int, Fraction]:
    found: dict[int, Fraction] = {}
    for key, p in ends.items():
        amount = int(key[index])
        found[amount] = found.get(amount, ZERO) + p
    return found


def test_the_initiative_is_the_enumeration_of_every_face_less_the_ties_cut_off() -> None:
    """Initiative with every face of both 2d6, the ties (re-rolled without end) cut after one
    round: who goes first is the exact chance times (1 - u), and lies within the cut-off."""
    table = _bruised()
    odds = fight_odds(table, rounds=1)
    brute = brute_force(table, horizon=0, tie_rounds=1)
    kept = 1 - brute["cut"]
    assert 0 < brute["cut"] < Fraction(1, 5)  # ties happen, and were cut off
    assert {w: kept * p for w, p in odds.initiative.items()} == brute["first"]
    for who, p in odds.initiative.items():
        assert brute["first"][who] <= p <= brute["first"][who] + brute["cut"]
    assert sum(odds.initiative.values()) == 1 and len(odds.initiative) == 2


@pytest.mark.slow
def test_the_first_round_is_exactly_the_enumeration_of_every_face() -> None:
    """Moll first (Initiative scripted), one round of the fight, every face of every die
    through the procedure: equal fractions for every ending (who wins, the Health stress of
    each) and for the fight still going."""
    table = _bruised().act(Action("referee", "initiative"), ScriptedSource([6, 6, 1, 1]))
    odds = fight_odds(table, rounds=1)
    brute = brute_force(table, horizon=1)
    assert brute["cut"] == 0 and brute["first"] == {"moll": 1} == odds.initiative
    for side in ("society", "bravoes"):
        seen = sum((p for (w, _, _), p in brute["ends"].items() if w == side), ZERO)
        assert seen == odds.wins[side] > 0, side
    assert brute["unfinished"] == odds.unfinished > 0
    assert _damage(brute["ends"], 1) == {d: p for d, p in odds.damage["moll"].items() if p}
    assert _damage(brute["ends"], 2) == {d: p for d, p in odds.damage["jack"].items() if p}
    # Jack's track is read: a hit of 2 to 5 ticks his box 5, and then Moll may be Taken Out
    assert len(odds.damage["jack"]) > 1
    assert sum(odds.wins.values()) + odds.unfinished == 1
    assert odds.acts < 1_000  # an attack's dice by margin: far fewer steps than every face


def test_the_first_round_from_initiative_is_the_enumeration_less_the_ties_cut_off() -> None:
    """The same round from before Initiative: each chance is the sum over who goes first."""
    table = _bruised()
    odds = fight_odds(table, rounds=1)
    moll_first = fight_odds(
        table.act(Action("referee", "initiative"), ScriptedSource([6, 6, 1, 1])), rounds=1
    )
    jack_first = fight_odds(
        table.act(Action("referee", "initiative"), ScriptedSource([1, 1, 6, 6])), rounds=1
    )
    p = odds.initiative["moll"]
    for side in ("society", "bravoes"):
        assert odds.wins[side] == p * moll_first.wins[side] + (1 - p) * jack_first.wins[side]
    assert odds.unfinished == p * moll_first.unfinished + (1 - p) * jack_first.unfinished


def test_the_whole_fight_is_solved_and_agrees_with_the_seeded_simulation() -> None:
    table = _bruised("even")
    odds = fight_odds(table)
    assert odds.unfinished == 0 and odds.stalemate == 0
    assert sum(odds.wins.values()) == 1
    assert odds.taken_out == {"moll": odds.wins["bravoes"], "jack": odds.wins["society"]}
    within = fight_odds(table, rounds=3)
    assert within.by_round == odds.by_round[:3]
    assert within.wins["society"] + within.wins["bravoes"] == odds.ended_within(3)
    assert within.wins["society"] < odds.wins["society"]
    report = simulate(table, runs=300, seed=0)
    for side, p in odds.wins.items():
        estimate = report.win_rates[side]
        assert estimate.low <= p <= estimate.high, (side, float(p), estimate)
    assert odds.expected_rounds is not None
    assert report.rounds.low <= odds.expected_rounds <= report.rounds.high
    for who, mean in odds.expected_damage.items():
        estimate = report.damage[who]
        assert estimate.low <= mean <= estimate.high, (who, float(mean), estimate)
    data = odds.to_json()
    assert data["exact"] is True and set(data["wins"]) == {"society", "bravoes"}
    assert data["wins"]["society"]["exact"] == str(odds.wins["society"])
    assert data["expected_rounds"]["value"] == float(odds.expected_rounds)


def test_the_whole_fight_is_solved_alike_whatever_rounds_its_answer_shows() -> None:
    """``by_round``: how many rounds' chances the answer shows. The fight is solved whole
    either way: every state reached from the start is explored, not only those the rounds
    shown reach."""
    table = _bruised("even")
    whole = fight_odds(table)
    shown = fight_odds(table, by_round=1)
    assert shown.by_round == whole.by_round[:1]
    assert (shown.wins, shown.damage, shown.expected_rounds, shown.states) == (
        whole.wins,
        whole.damage,
        whole.expected_rounds,
        whole.states,
    )


def test_a_fight_under_way_counts_the_rounds_already_played() -> None:
    """A round of misses (Moll's 8 against Jack's 9, Jack's 7 against her 9) brings the fight
    back to the state it began in, but in round 2: the same odds, one round more expected."""
    begun = _bruised("even").act(Action("referee", "initiative"), ScriptedSource([6, 6, 1, 1]))
    missed = _strike(begun, "moll", "jack", [3, 3, 4, 4], 0)
    later = _strike(missed, "jack", "moll", [3, 3, 4, 4], 0)
    first, second = fight_odds(begun), fight_odds(later)
    assert second.wins == first.wins and second.damage == first.damage
    assert first.expected_rounds is not None
    assert second.expected_rounds == first.expected_rounds + 1


def test_a_fight_too_large_for_the_time_or_the_states_given_is_refused() -> None:
    setup = load_file(EXAMPLES / "duel.yaml")["setup"]
    table = system("ginlane").new_table(setup)
    with pytest.raises(ChainError, match="too large"):
        fight_odds(table, time_limit=0.01)
    with pytest.raises(FightError, match="too large") as refused:
        fight_odds(table, max_states=50)
    assert refused.value.rule == "Whole-encounter odds (Gin Lane fight)"
    ambush = system("ginlane").new_table(load_file(EXAMPLES / "ambush.yaml")["setup"])
    with pytest.raises(FightError, match="a fight of 2 characters; this one has 3"):
        fight_odds(ambush)  # refused for its size, not after a time allowed
    ann = {"name": "Ann", "number": 11, "combat": 2, "strength": 3, "stamina": 4}
    duel = system("intrigue").new_table({"characters": {"ann": ann}})
    with pytest.raises(RefereeError, match="not intrigue"):
        fight_odds(duel)


def test_the_answer_in_json_gives_every_chance_as_a_fraction_and_a_float() -> None:
    """``to_json`` (``referee simulate --json``, the web table): each figure exact and as a
    float, the expected damage only where the fight surely ends (none within a horizon)."""
    odds = fight_odds(_bruised())
    data = odds.to_json()
    assert (data["exact"], data["model"], data["characters"]) == (
        True,
        "gin lane fight",
        ["moll", "jack"],
    )
    both = {k: {"exact": str(p), "value": float(p)} for k, p in odds.wins.items()}
    assert data["wins"] == both
    moll_out = odds.taken_out["moll"]
    assert data["taken_out"]["moll"] == {"exact": str(moll_out), "value": float(moll_out)}
    assert data["damage"]["jack"] == {
        str(d): {"exact": str(p), "value": float(p)} for d, p in sorted(odds.damage["jack"].items())
    }
    mean = odds.expected_damage["jack"]
    assert data["expected_damage"]["jack"] == {"exact": str(mean), "value": float(mean)}
    assert [r["exact"] for r in data["by_round"]] == [str(p) for p in odds.by_round]
    assert data["stalemate"] == data["unfinished"] == {"exact": "0", "value": 0.0}
    first = {k: {"exact": str(p), "value": float(p)} for k, p in odds.initiative.items()}
    assert (data["horizon"], data["first_turn"]) == (None, first)
    assert (data["states"], data["procedure_steps"]) == (odds.states, odds.acts)
    within = fight_odds(_bruised(), rounds=1).to_json()
    assert within["horizon"] == 1 and within["unfinished"]["value"] > 0
    assert within["expected_damage"] is None


def test_a_fight_of_one_side_is_over_in_its_first_round() -> None:
    """Nobody of another side to fight: the side is left standing once Initiative is rolled,
    in the first round, whoever rolled higher — within a horizon as in the whole fight."""
    people = {"moll": {**SKILLED, "side": "society"}, "jack": {**SKILLED, "side": "society"}}
    table = system("ginlane").new_table({"characters": people})
    for odds in (fight_odds(table, rounds=1), fight_odds(table)):
        assert odds.wins == {"society": 1} and odds.taken_out == {"moll": 0, "jack": 0}
        assert odds.expected_rounds == 1 and odds.by_round[0] == 1 == odds.ended_within(1)
        assert odds.unfinished == 0 and odds.initiative == {
            "jack": Fraction(1, 2),
            "moll": Fraction(1, 2),
        }


def test_a_fight_nobody_tags_in_has_the_same_odds_under_either_tagging_option() -> None:
    """Option b spends a tag only when the roll falls short ("Tagging"); here nobody tags, so
    the first round's odds are option a's — read every face at a time (under option b the two
    sides' dice may interact), in more procedure steps."""
    people = {"moll": EVEN, "jack": SKILLED}
    a, b = (
        fight_odds(system("ginlane").new_table({"mode": m, "characters": people}), rounds=1)
        for m in ("a", "b")
    )
    assert a.wins == b.wins and a.damage == b.damage and a.taken_out == b.taken_out
    assert a.unfinished == b.unfinished > 0 and a.states == b.states
    assert b.acts > a.acts


def test_a_fight_nobody_can_reach_is_a_stalemate() -> None:
    """Two zones with no way between them ("Zones"): nobody can attack or move, so the default
    policy takes Full Defence for ever — a component nobody leaves."""
    moll = {**SKILLED, "side": "society", "zone": "yard"}
    jack = {**SKILLED, "zone": "street"}
    setup = {"zones": ["yard", "street"], "characters": {"moll": moll, "jack": jack}}
    table = system("ginlane").new_table(setup)
    odds = fight_odds(table)
    assert odds.stalemate == 1 and odds.expected_rounds is None
    assert odds.wins == {"bravoes": 0, "society": 0}
    assert fight_odds(table, rounds=2).unfinished == 1
    assert odds.to_json()["expected_damage"] is None


def test_an_attack_landed_on_the_tracks_answers_as_one_played_from_each_state() -> None:
    """An attack played once from a state less its tracks, its hits landed on each state's
    tracks by the game's own stress track, gives the same fractions as the attack played from
    every state (less the actor's own tracks): every ending, Health stress included — the duel
    at the Crown over two rounds (705 states), in fewer procedure steps."""
    table = system("ginlane").new_table(load_file(EXAMPLES / "duel.yaml")["setup"])
    landed = fight_odds(table, rounds=2)
    played = fight_odds(table, rounds=2, landing=False)
    assert landed.wins == played.wins and landed.taken_out == played.taken_out
    assert landed.damage == played.damage and landed.by_round == played.by_round
    assert landed.unfinished == played.unfinished > 0
    assert landed.initiative == played.initiative and landed.states == played.states
    assert len(landed.damage["jack"]) > 3  # hits landed on many tracks
    assert landed.acts < played.acts
    # played: each attack's check bisected by margin, the check already taken with its dice
    # all 1s (margin 1 or -1, the middle of its margins) not taken again
    assert (landed.acts, played.acts) == (518, 668)


def test_the_duel_at_the_crown_takes_few_procedure_steps() -> None:
    """The duel at the Crown, the whole fight: its 4,097 states (8,193 and 606 steps before the
    spin's Aspect was left out of them) from a few hundred procedure steps (the Initiative's tie
    loop, each kind of attack read once a side at a time, and each attack played once per state
    less the tracks) — it was 2,772, an attack played from each state less the actor's own
    tracks."""
    table = system("ginlane").new_table(load_file(EXAMPLES / "duel.yaml")["setup"])
    odds = fight_odds(table)
    assert odds.states == 4_097
    # the steps the answer reports (``procedure_steps``), each one saved counted: e.g. a check
    # already taken with its dice all 1s is not taken again for its margin
    assert odds.acts == 518
    assert odds.wins["society"] == 1 - odds.wins["bravoes"]


class TooMuchWork(Exception):
    """The fight took more procedure steps than a refusal may."""


def test_a_fight_too_large_is_refused_before_anything_is_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The duel at the Crown's 11 Health boxes are 2,048 sets: past a limit of 1,000 states,
    or past 0.1 s at 0.13 ms a state, it is refused without one procedure step (counted, not
    timed); given the states and the time, it sets to work."""
    table = system("ginlane").new_table(load_file(EXAMPLES / "duel.yaml")["setup"])
    steps: list[int] = []
    act = Table.act

    def counted(self: Table[Any], *args: Any, **kwargs: Any) -> Table[Any]:
        steps.append(1)
        if len(steps) > 5:
            raise TooMuchWork("the fight was played before it was refused")
        return act(self, *args, **kwargs)

    monkeypatch.setattr(Table, "act", counted)
    with pytest.raises(FightError, match=r"about 2,048 states .* more than 1,000: too large"):
        fight_odds(table, max_states=1_000)
    with pytest.raises(FightError, match=r"some 0\.3 s .* more than the 0\.1 s given"):
        fight_odds(table, time_limit=0.1)
    assert steps == []
    with pytest.raises(TooMuchWork):
        fight_odds(table, max_states=8_193, time_limit=60)


def test_the_chain_is_cut_into_whole_components_successors_first() -> None:
    """The fight's states are solved component by component (``strongly_connected``): a cycle
    that runs back past its parent (0 → 1 → 2 → 0) is one component, found after the state it
    leads out to (3); a state no earlier one reaches (4, which reaches 1) is found too."""
    edges = {0: [1], 1: [2], 2: [0, 3], 3: [], 4: [1]}
    parts = strongly_connected([0, 1, 2, 3, 4], lambda k: edges[k])
    assert [sorted(part) for part in parts] == [[3], [0, 1, 2], [4]]


def test_the_fight_offered_to_the_simulator_is_solved_by_the_exact_model() -> None:
    """``referee simulate``'s exact odds of Gin Lane's fight are :func:`fight_odds`' answer as
    JSON, within the time the simulator allows (the duel at the Crown wants some 0.3 s)."""
    from referee.systems.ginlane.simulation import FIGHT

    assert FIGHT.exact is not None
    moll = {**SKILLED, "side": "society", "zone": "yard"}
    jack = {**SKILLED, "zone": "street"}
    setup = {"zones": ["yard", "street"], "characters": {"moll": moll, "jack": jack}}
    apart = system("ginlane").new_table(setup)
    assert FIGHT.exact(apart, None, None) == fight_odds(apart).to_json()
    duel = system("ginlane").new_table(load_file(EXAMPLES / "duel.yaml")["setup"])
    with pytest.raises(FightError, match=r"more than the 0\.1 s given"):
        FIGHT.exact(duel, None, 0.1)


def test_an_attacks_kinds_of_hit_played_from_other_tracks_are_taken_in_where_they_agree() -> None:
    """An attack templated from a state less its tracks learns the rest of the state after a
    hit that ticks a box, or Takes Out, as each is played; another play of the same attack
    adds the kinds it found, unless the two disagree (then the template is not used)."""
    from referee.systems.ginlane.exact_hits import Attack, Landing

    swing = Action("moll", "attack", {"target": "jack", "tags": []})
    margins = (
        Landing((6, 6), Fraction(1, 4), ("jack", "Health", 2)),
        Landing((1, 1), Fraction(3, 4), None, "missed", 0),
    )
    ticks = Attack(swing, margins, {False: ("ticked", 0)})
    assert ticks.merge(Attack(swing, margins, {True: ("out", 1)}))
    assert ticks.after == {False: ("ticked", 0), True: ("out", 1)}
    assert ticks.merge(Attack(swing, margins, {False: ("ticked", 0)}))
    assert not ticks.merge(Attack(swing, margins, {True: ("elsewhere", 1)}))
    other = Action("jack", "attack", {"target": "moll", "tags": []})
    assert not ticks.merge(Attack(other, margins, {}))
    assert not ticks.merge(Attack(swing, margins[:1], {}))
    assert ticks.after == {False: ("ticked", 0), True: ("out", 1)}


def test_an_answer_is_refused_past_its_most_steps_and_its_time_is_read_every_256_steps() -> None:
    """The work an answer may take: :data:`MAX_ACTS` procedure steps and not one more; and,
    given a time, the clock read every 256 steps (a deadline already past: refused at the
    256th, not before)."""
    count = Work()
    for _ in range(MAX_ACTS):
        count.tick()
    assert count.acts == MAX_ACTS
    with pytest.raises(FightError, match="more than 200,000 procedure steps"):
        count.tick()
    late = Work(deadline=time.monotonic() - 1, time_limit=0.5)
    for _ in range(255):
        late.tick()
    with pytest.raises(FightError, match=r"^.*: 256 procedure steps in 0\.5 s and more to go"):
        late.tick()


def test_scripted_faces_are_handed_in_order_then_the_fill_up_to_its_cap_then_asked_for() -> None:
    """The dice an exact step scripts: its faces in order, then (a probe) the fill face, no
    higher than the die, for ``cap`` dice more; past them, or with no fill, the die it needs."""
    dice = ScriptedFaces([3, 5], fill=6, cap=2)
    assert [dice.roll(6), dice.roll(6), dice.roll(4), dice.roll(6)] == [3, 5, 4, 6]
    with pytest.raises(NeedsDie) as need:
        dice.roll(8)
    assert (need.value.sides, need.value.args) == (8, (8,))
    assert dice.used == 5 and dice.sides == [6, 6, 4, 6, 8]
    bare = ScriptedFaces([2])
    assert bare.roll(6) == 2
    with pytest.raises(NeedsDie):
        bare.roll(6)

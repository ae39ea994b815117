"""Round Zero (hursagmu-encounters.txt, "Round Zero"): it happens once, its initiators act and
keep the stance they chose, the surprised take no actions at all, and one who did not open the
conflict rolls no Initiative and may only defend."""

from __future__ import annotations

import pytest

from referee.core import AnyOf, OneOf, Record, RuleError, Steps
from referee.systems.hursagmu import PROCEDURE
from referee.systems.hursagmu.choices import previews
from referee.systems.hursagmu.round_plan import DEFEND, plan_domain
from referee.systems.hursagmu.sheet import Stance
from referee.systems.hursagmu.state import HELD, on_turn

from .helpers import _bob_casts_mahasu_at_fred, _kinds, _odds
from .test_encounter import FIGHTER, SORCERER, play, start


def test_round_zero_happens_once_and_round_one_rolls_initiative() -> None:
    """Round Zero: "Round zero marks the beginning of any conflict ... After the initial round
    zero activity, conflict progresses to round 1, and participants roll initiative as
    normal": once round zero is played, nobody may open another, in round 1 or later, even
    before anyone has rolled."""
    table = play(
        start({"ann": FIGHTER, "bob": FIGHTER}),
        [
            ("ann", "round_zero", {"surprised": ["bob"]}),
            ("ann", "declare", {"actions": [{"minor": "draw"}]}),
            ("ann", "act", {}),
            ("referee", "end_round", {}),
        ],
    )
    assert (table.state.round, table.state.phase) == (1, "initiative")
    assert {f.initiative for f in table.state.fighters.values()} == {None}
    for who in ("ann", "bob"):
        with pytest.raises(RuleError, match="has begun"):
            play(table, [(who, "round_zero", {})])
        assert "round_zero" not in {a.kind for a in table.legal_actions(who)}


def test_round_zero_keeps_the_stance_its_initiators_chose() -> None:
    """Round Zero and Initiative ("A character cannot use both Dex and Int skills during the
    same round"): who opens the conflict maneuvering may not cast on round zero; who opens it
    concentrating may."""
    sorcerers = {"ann": SORCERER, "bob": FIGHTER}
    spell = {"actions": [{"task": "curse", "skill": "mahasu", "challenge": 5}]}
    maneuvering = play(start(sorcerers), [("ann", "round_zero", {"surprised": ["bob"]})])
    assert maneuvering.state.fighters["ann"].stance is Stance.MANEUVER
    with pytest.raises(RuleError, match="cannot use the Intelligence skill 'mahasu'"):
        play(maneuvering, [("ann", "declare", spell)])
    concentrating = play(
        start(sorcerers), [("ann", "round_zero", {"surprised": ["bob"], "stance": "concentrate"})]
    )
    assert concentrating.state.fighters["ann"].stance is Stance.CONCENTRATE
    play(concentrating, [("ann", "declare", spell)])


def test_round_zero_bystanders_have_no_turn_but_may_defend() -> None:
    """Round Zero: only the initiators act; one who is not "completely by surprise" is not
    barred from defending ("The only defense against such sneak attacks is to not be caught
    off-guard")."""
    table = play(
        start({"ann": FIGHTER, "bob": FIGHTER, "cy": FIGHTER}),
        [("ann", "round_zero", {"surprised": ["bob"]})],
    )
    fighters = table.state.fighters
    assert (fighters["ann"].initiative, fighters["ann"].rank) == (0, HELD)
    # the others have no turn: Initiative 0 at a rank below every turn's (the view shows it)
    view = PROCEDURE.state_json(table.state)["characters"]
    assert [(view[w]["initiative"], view[w]["rank"]) for w in ("bob", "cy")] == [(0, -1)] * 2
    assert {who: fighters[who].surprised for who in fighters} == {
        "ann": False,
        "bob": True,
        "cy": False,
    }
    assert on_turn(table.state) == ("ann",)
    table = play(table, [("ann", "declare", {"actions": [{"attack": "cy"}]}), ("ann", "act", {})])
    assert table.state.pending is not None and table.state.pending.target == "cy"
    assert "defend" in {a.kind for a in table.legal_actions("cy")}
    defended = play(table, [("cy", "defend", {"actions": [{"defend": True}]})], [1, 1, 6, 6])
    assert [e.data["defended"] for e in defended.log if e.kind == "attack.resolved"] == [True]


def test_on_round_zero_one_who_did_not_open_the_conflict_rolls_no_initiative() -> None:
    """Round zero comes before Initiative: fred, no initiator, has nothing to roll or declare."""
    table = start({"bob": FIGHTER, "fred": FIGHTER})
    table = play(table, [("bob", "round_zero", {"stance": "maneuver"})])
    assert set(_kinds(table, "fred")) == {"push", "race", "sneak"}


def test_on_round_zero_the_initiator_may_attack_and_the_others_only_defend() -> None:
    """Round zero: the initiator declares anything (an attack among his plans); one who did
    not open the conflict may only defend."""
    table = start({"bob": FIGHTER, "fred": FIGHTER})
    table = play(table, [("bob", "round_zero", {"stance": "maneuver"})])
    offered = _kinds(table, "bob")["declare"].params["actions"]
    assert isinstance(offered, Steps) and isinstance(offered.step, AnyOf)
    assert offered.contains([{"attack": "fred", "skill": "striking"}])
    assert len(offered.step.options) == 6
    only_defence = AnyOf({DEFEND: Record({"defend": OneOf(("defense",))})})
    assert plan_domain(table.state, "fred").step == only_defence
    assert not plan_domain(table.state, "fred").contains([{"attack": "bob", "skill": "striking"}])
    assert plan_domain(table.state, "fred", defence="defiance").contains([{"defend": "defiance"}])


def test_on_round_zero_one_attacked_by_sorcery_may_declare_only_defiance() -> None:
    """Round zero: fred, no initiator, attacked with Mahasu, may declare only Defiance, and
    sees its odds declared alone."""
    table = start({"bob": SORCERER, "fred": FIGHTER})
    table = play(table, [("bob", "round_zero", {"stance": "concentrate"})])
    table = _bob_casts_mahasu_at_fred(table)
    defend = _kinds(table, "fred")["defend"]
    only_defiance = AnyOf({DEFEND: Record({"defend": OneOf(("defiance",))})})
    assert defend.params["actions"].step == only_defiance
    assert _odds(defend) == [
        ("Bob's mahasu against Fred's defiance, declared alone", "2d6+7 vs 2d6", "Action")
    ]
    assert [(p.label, p.dice) for p in previews(table.state, "fred", is_referee=False)] == [
        ("Bob's mahasu against Fred's defiance, declared alone", "2d6+7 vs 2d6"),
        ("Bob's mahasu against Fred, undefended", "2d6+7 ≥ 0"),
    ]


def test_an_initiator_who_holds_over_from_round_zero_shows_its_initiative_of_zero() -> None:
    """Round Zero's initiators act at Initiative 0; "Waiting": one who waits and holds his
    action over "automatically gets the Initiative for that round without needing to roll" —
    until the others have rolled he shows the one he held over, 0 (ruling 33)."""
    table = play(
        start({"bob": FIGHTER, "fred": FIGHTER}),
        [
            ("bob", "round_zero", {}),
            ("bob", "wait", {}),
            ("bob", "hold", {}),
            ("referee", "end_round", {}),
            ("bob", "initiative", {"stance": "maneuver"}),
        ],
    )
    rolled = table.log[-1]
    assert (rolled.kind, rolled.data["initiative"], rolled.data["held"]) == (
        "initiative.rolled",
        0,
        True,
    )

"""Haste (hursagmu-encounters.txt, "Haste"; ruling 25 of docs/systems/hursagmu.md): an action
spent for +2 to Initiative must be declared before the round passes that Initiative, judged
against this round's Initiatives, and leaves the abort to defend open."""

from __future__ import annotations

import pytest

from referee.core import Action, RuleError, Table
from referee.systems.hursagmu import events as E
from referee.systems.hursagmu.state import Encounter

from .helpers import _bob_casts_mahasu_at_fred, _kinds, _odds
from .test_encounter import FIGHTER, SORCERER, initiative, play, start, two_fighters


def _ann_has_acted_at_16() -> Table[Encounter]:
    table = start({"ann": FIGHTER, "bob": FIGHTER})
    table = initiative(table, {"ann": ("maneuver", 6, 6), "bob": ("maneuver", 4, 4)})  # 16, 12
    return play(table, [("ann", "declare", {"actions": [{"minor": "draw"}]}), ("ann", "act", {})])


def test_haste_past_the_rounds_initiative_is_refused_naming_haste() -> None:
    """ "Haste" (ruling 25): bob's three Haste actions would put him at 18, which the round has
    passed (ann acted at 16)."""
    haste = [{"haste": True}, {"haste": True}, {"haste": True}, {"attack": "ann"}]
    with pytest.raises(RuleError) as refused:
        _ann_has_acted_at_16().act(Action("bob", "declare", {"actions": haste}), None)
    assert str(refused.value) == (
        "Haste: the round has passed Initiative 18; Haste must be declared before it comes "
        "(the last action was at 16)"
    )


def test_haste_up_to_the_rounds_current_initiative_is_allowed() -> None:
    """ "Haste": two Haste actions put bob at 16, where the round is now: not passed."""
    haste = [{"haste": True}, {"haste": True}, {"attack": "ann"}]
    table = _ann_has_acted_at_16().act(Action("bob", "declare", {"actions": haste}), None)
    assert table.log[-1].data["initiatives"] == [None, None, 16]


def test_haste_is_judged_against_the_new_rounds_initiatives_not_the_last_rounds() -> None:
    """ "Haste" must come before the round passes its Initiative; a new round has passed none:
    fred acted at 6 last round, and bob, at 6 this round, hastes to 8 before anyone acts."""
    table = two_fighters()
    draw = {"actions": [{"minor": "draw"}]}
    table = play(
        table,
        [
            ("bob", "declare", draw),
            ("bob", "act", {}),
            ("fred", "declare", draw),
            ("fred", "act", {}),
            ("referee", "end_round", {}),
        ],
    )
    table = initiative(table, {"bob": ("maneuver", 1, 1), "fred": ("maneuver", 1, 2)})
    haste = {"actions": [{"haste": True}, {"attack": "fred"}]}
    table = table.act(Action("bob", "declare", haste), None)
    assert table.log[-1].data["initiatives"] == [None, 8]


def test_a_character_who_spent_haste_may_still_abort_the_rest_of_his_turn_to_defend() -> None:
    """fred spent an action on Haste (declared in time) and took his first movement; bob's
    Mahasu, at Initiative 17, needs the other kind of defence: fred may abort the rest of his
    turn to roll Defiance ("must abort the rest of his turn if he wants to make a defensive
    action"). The Haste he spent is not a late Haste: the abort is offered, previewed with the
    round's penalty (Haste and the defence: -2), and allowed."""
    table = start({"bob": SORCERER, "fred": FIGHTER})
    table = initiative(table, {"bob": ("concentrate", 6, 6), "fred": ("maneuver", 6, 6)})
    plan = [
        {"haste": True},
        {"move": "foot", "yards": 5},
        {"move": "foot", "yards": 5},
        {"attack": "bob"},
    ]
    table = play(table, [("fred", "declare", {"actions": plan}), ("fred", "act", {})])
    table = _bob_casts_mahasu_at_fred(table)
    defend = _kinds(table, "fred")["defend"]
    assert _odds(defend) == [
        ("Bob's mahasu against Fred's defiance, aborting his turn", "2d6+7 vs 2d6-2", "Action")
    ]
    table = play(table, [("fred", "defend", {})], [1, 1, 1, 1, 1, 1])
    kinds = [e.kind for e in table.log]
    assert E.TURN_ABORTED in kinds
    assert kinds[-1] != E.TURN_ABORTED
    assert table.state.pending is None

"""Damage and what it does (hursagmu-encounters.txt, "Recovery": "If a character is injured
during the round (takes even 1 point of damage), the character gets no recovery"; "Action": "If a
character is knocked out or killed before his turn, he gets no action"; ruling 14 of
docs/systems/hursagmu.md: a character brought to 0 hits by injury collapses at once)."""

from __future__ import annotations

from .test_encounter import FIGHTER, initiative, play, start


def test_one_point_of_damage_is_an_injury_and_costs_the_rounds_recovery() -> None:
    """Recovery: "If a character is injured during the round (takes even 1 point of damage),
    the character gets no recovery." A bare-handed weakling's blow (weapon 0, Strength 0,
    a 1 on the 1d6 damage roll) does 1: fred, hurt to 10 hits, ends the round on 9; ann, as
    hurt and idle, recovers to 11."""
    weakling = {**FIGHTER, "strength": 0, "weapon": 0}
    hurt = {**FIGHTER, "hits": 10}
    table = start({"bob": weakling, "fred": hurt, "ann": hurt}, damage_roll="1d6")
    table = initiative(
        table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1), "ann": ("maneuver", 5, 5)}
    )
    table = play(
        table,
        [
            ("bob", "declare", {"actions": [{"attack": "fred"}]}),
            ("bob", "act", {}),
            ("fred", "take", {}),
            ("ann", "wait", {}),
            ("fred", "wait", {}),
        ],
        [3, 3, 1],
    )
    (dealt,) = [e.data for e in table.log if e.kind == "damage.taken"]
    assert (dealt["damage"], dealt["hits_left"]) == (1, 9)
    assert table.state.fighters["fred"].injured is True
    table = play(table, [("referee", "end_round", {})])
    assert (table.state.fighters["fred"].hits, table.state.fighters["ann"].hits) == (9, 11)


def test_a_character_collapses_once_when_his_hits_reach_zero() -> None:
    """Damage and collapse (ruling 14 of docs/systems/hursagmu.md): "a character brought to 0
    hits by injury collapses at once"; struck again where he lies (at 0, and then below), he
    does not collapse a second time — one ``character.collapsed``, the first blow's."""
    bob = {**FIGHTER, "strength": 0, "weapon": 0}
    table = start({"bob": bob, "fred": {**FIGHTER, "hits": 1}}, damage_roll="1d6")
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    table = play(
        table,
        [
            ("bob", "declare", {"actions": [{"attack": "fred"}, {"attack": "fred"}]}),
            ("bob", "act", {}),
            ("fred", "take", {}),
            ("bob", "act", {}),
        ],
        [6, 6, 1, 6, 6, 1],
    )
    dealt = [(e.data["damage"], e.data["hits_left"]) for e in table.log if e.kind == "damage.taken"]
    assert dealt == [(1, 0), (1, -1)]
    reasons = [e.data.get("reason") for e in table.log if e.kind == "attack.made"]
    assert reasons == [None, "unconscious"]
    collapsed = [dict(e.data) for e in table.log if e.kind == "character.collapsed"]
    assert collapsed == [{"character": "fred", "cause": "injury"}]
    assert table.state.fighters["fred"].conscious is False

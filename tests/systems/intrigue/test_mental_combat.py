"""Mental Combat in a fight (rules text, "Mental Combat", "Mixing Mental and Normal Combat"):
ranking by Mind, mental attacks and their Target Numbers, effects and damage, and their odds.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, RuleError, view
from referee.systems.intrigue.odds import upcoming

from .helpers import (
    _ARMS,
    _NEXT,
    _SCREAM,
    C1,
    T,
    _cast,
    _d,
    _menu,
    _previews,
    _rolled,
    _round,
    act,
    cast,
    character,
    last,
    start,
)
from .test_combat import brawl, combat, declare, fight, resolve


def _krockin_in_round_two(alf: str, *, use_mind: bool = True) -> Any:
    """Alf against Krockin (Mind 3); round 1 both defend; in round 2 Krockin uses his mind and
    Alf then declares ``alf`` (a Defensive Action or an Attack on Krockin)."""
    bolt = {"mental": True, "obvious": True, "target": 16, "damage": 3}
    blast = {"mental": True, "obvious": True, "damage": 2}
    fighters = cast(
        alf=character("Alf", 11, combat=2, stamina=6),
        kro=character(
            "Krockin",
            33,
            combat=1,
            mind=3,
            stamina=6,
            abilities={"Energy Bolt": bolt, "Mind Blast": blast},
        ),
    )
    table = act(start(fighters), "alf", "start_combat", targets=["kro"])
    table = act(act(table, "alf", "declare", action="defend"), "kro", "declare", action="defend")
    table = act(act(table, "referee", "resolve"), "referee", "resolve")
    return (act(table, "kro", "use_mind") if use_mind else table), alf


def _bolt(ability: str, alf: str) -> dict[str, Any]:
    table, alf_does = _krockin_in_round_two(alf)
    table = act(table, "kro", "declare", action="attack", target="alf", ability=ability)
    if alf_does == "attack":
        table = act(table, "alf", "declare", action="attack", target="kro")
    else:
        table = act(table, "alf", "declare", action=alf_does)
    table = act(table, "referee", "resolve", [1, 1, 1])
    return last(table, "attack.rolled")


def test_a_mental_attack_in_combat_rolls_mind_against_its_number_less_three_if_dodged() -> None:
    """Mental Combat / Mixing Mental and Normal Combat: Krockin's Energy Bolt (a set Target
    Number of 16) adds his Mind 3, less three only when Alf dodges a bolt that does physical
    damage ("adding his Mind Stat and subtracting three for ScarFace's dodge"); a damaging
    ability with no set number is against Alf's Mind + 10, + 3 when dodged. Each is logged as
    an Attack."""
    undodged = _bolt("Energy Bolt", "attack")
    assert (undodged["action"], undodged["modifier"], undodged["target_number"]) == (
        "attack",
        3,
        16,
    )
    blasted = _bolt("Mind Blast", "defend")
    assert (blasted["action"], blasted["modifier"], blasted["target_number"]) == (
        "attack",
        3,
        1 + 10 + 3,
    )


def test_a_mind_user_may_still_strike_with_a_fist() -> None:
    """Attacking: Krockin, who has mental abilities, does not use his mind in round 2 and
    attacks Alf with no ability named — an ordinary Attack, his Combat 1 against Alf's
    Combat 2 + 10 + 3 for the dodge."""
    table, _ = _krockin_in_round_two("defend", use_mind=False)
    table = act(table, "alf", "declare", action="defend")
    table = act(table, "kro", "declare", action="attack", target="alf")
    table = act(table, "referee", "resolve")
    table = act(table, "referee", "resolve", [1, 1, 1])
    data = last(table, "attack.rolled")
    assert (data["ability"], data["modifier"], data["target_number"]) == (None, 1, 15)


def test_a_mental_attacks_preview_names_the_ability() -> None:
    """Mental Combat (combat is fought in the open): the preview of Krockin's Energy Bolt names
    the ability, not a bare Attack."""
    table, _ = _krockin_in_round_two("attack")
    table = act(table, "kro", "declare", action="attack", target="alf", ability="Energy Bolt")
    table = act(table, "alf", "declare", action="attack", target="kro")
    assert [label for label, *_ in _previews(table)] == ["Krockin Energy Bolt Alf"]


def _krockin(ability: str) -> T:
    """Alf against Krockin (Mind 3); round 1 both defend; in round 2 Krockin uses his mind and
    ``ability`` on Alf, who defends, and hits (6+6+6)."""
    abilities = {
        "Energy Bolt": {"mental": True, "obvious": True, "target": 16, "damage": 3},
        "Befuddle": {"mental": True, "obvious": True, "effect": "Dazed: drop what you hold."},
    }
    kro = character("Krockin", 33, combat=1, mind=3, stamina=6, abilities=abilities)
    table = act(
        start({"start": "20:00", "characters": {**_cast()["characters"], "kro": kro}}),
        "alf",
        "start_combat",
        targets=["kro"],
    )
    table, _ = _round(table, [("alf", {"action": "defend"}), ("kro", {"action": "defend"})])
    table = act(table, "referee", "next_round")
    table = act(table, "kro", "use_mind")
    table, told = _round(
        table,
        [
            ("kro", {"action": "attack", "target": "alf", "ability": ability}),
            ("alf", {"action": "defend"}),
        ],
        [6, 6, 6],
    )
    assert _rolled(table, "attack.rolled")["hit"] is True
    return told


def test_a_mental_attack_with_no_damage_logs_its_effect_and_no_damage() -> None:
    """Mental Combat: "others can have more subtle effects when an Attack is successful" —
    Krockin's Befuddle hits Alf: its effect is logged, and no damage (not even 0)."""
    told = _krockin("Befuddle")
    assert told == [
        (
            "mental.effect",
            {
                "combat": C1,
                "attacker": "kro",
                "target": "alf",
                "ability": "Befuddle",
                "effect": "Dazed: drop what you hold.",
            },
        ),
        ("combat.action_taken", {"combat": C1, "character": "alf", "action": "defend"}),
    ]


def test_a_damaging_mental_attacks_harm_is_logged_by_the_ability() -> None:
    """Mental Combat: "Some Mental Combat skills cause damage as normal" — Krockin's Energy Bolt
    does its 3 and the log names the ability, not his hand."""
    told = _krockin("Energy Bolt")
    assert told[0] == (
        "damage.taken",
        {
            "character": "alf",
            "amount": 3,
            "total": 3,
            "by": "Energy Bolt",
            "knocked_out": False,
            "stamina": 6,
        },
    )


def _krockin_uses_mind(**changes: Any) -> T:
    """Alf and Krockin each defend in round 1; Krockin ranks by Mind in round 2."""
    table = declare(declare(fight("alf", "kro", **changes), "alf", "defend"), "kro", "defend")
    return act(resolve(resolve(table)), "kro", "use_mind")


def test_a_fighter_who_ranks_by_mind_may_still_hold_their_action() -> None:
    """Mixing Mental and Normal Combat: one who ranks by Mind uses a mental ability, or holds
    their action ("A character can choose to hold their action")."""
    table = declare(_krockin_uses_mind(), "kro", "hold")
    assert combat(table).declaration("kro").kind == "hold"


def test_only_a_mental_ability_on_the_sheet_makes_a_mental_attack() -> None:
    """Mental Combat: an Attack may name a mental ability the attacker has; an ability that is
    not mental, or one not on the sheet, is refused by that rule."""
    kro = brawl()["characters"]["kro"]
    abilities = {**kro["abilities"], "Fast Talk": {"value": 2}}
    table = fight("kro", "alf", kro={"abilities": abilities})
    for name in ("Fast Talk", "Fireball"):
        with pytest.raises(RuleError, match=f"kro has no mental ability '{name}'"):
            declare(table, "kro", "attack", target="alf", ability=name)


def test_only_a_mental_ability_usable_in_combat_lets_a_fighter_rank_by_mind() -> None:
    """Mixing Mental and Normal Combat: Krockin, whose only mental ability (Sleep) "cannot be
    used during normal combat", may not rank by Mind."""
    sleep = brawl()["characters"]["kro"]["abilities"]["Sleep"]
    table = fight("alf", "kro", kro={"abilities": {"Sleep": sleep}})
    assert "use_mind" not in {c.kind for c in table.legal_actions("kro")}
    with pytest.raises(RuleError, match="kro has no mental ability usable in combat"):
        act(table, "kro", "use_mind")


def test_ranking_by_mind_is_offered_before_the_rounds_first_declaration() -> None:
    """Mixing Mental and Normal Combat: Krockin may rank by Mind until the round's first
    declaration; then he may use a mental ability usable in combat, or hold, and declares
    before Alf (Mind 3 against Combat 2)."""
    table = declare(declare(fight("alf", "kro"), "alf", "defend"), "kro", "defend")
    table = resolve(resolve(table))
    alf = [
        _d("defend"),
        _SCREAM,
        _d("hold"),
        _d("attack", target=("kro",)),
        _d("grab", target=("kro",)),
        _ARMS,
    ]
    assert _menu(table, "kro") == [_NEXT, ("use_mind", "", {})]
    assert _menu(table, "alf") == [_NEXT, *alf]
    in_round = act(table, "referee", "next_round")
    assert _menu(in_round, "kro") == [("use_mind", "", {})]
    assert _menu(in_round, "alf") == alf
    assert _menu(declare(in_round, "alf", "defend"), "kro") == [
        _d("defend"),
        _SCREAM,
        _d("hold"),
        _d("attack", target=("alf",)),
        _d("grab", target=("alf",)),
    ]
    by_mind = act(table, "kro", "use_mind")
    assert _menu(by_mind, "alf") == []
    assert _menu(by_mind, "kro") == [
        _d("attack", "mental attack", target=("alf",), ability=("Energy Bolt", "Befuddle")),
        _d("hold"),
    ]


def test_one_who_ranks_by_mind_and_holds_is_shown_the_odds_of_a_mental_attack_alone() -> None:
    """Mixing Mental and Normal Combat, Initiative: Krockin ranks by Mind and holds his action;
    once it may be taken, the odds of his Energy Bolt are shown, and none for an ordinary
    Attack, which one ranking by Mind may not make."""
    table = fight("alf", "kro")
    table = resolve(declare(declare(table, "alf", "defend"), "kro", "defend"))
    table = resolve(table)
    table = act(table, "kro", "use_mind")
    table = resolve(declare(declare(table, "kro", "hold"), "alf", "defend"))
    bolt = {"action": "attack", "target": "alf", "ability": "Energy Bolt"}
    shown = upcoming(table.state, Action("kro", "declare", bolt))
    assert [words for words, _ in shown] == ["Krockin Energy Bolt Alf: 3d6+0 > 16"]
    plain = {"action": "attack", "target": "alf"}
    assert upcoming(table.state, Action("kro", "declare", plain)) == []


# -- an unobvious damaging ability, resolved aside (RULINGS.md, Round 3) ----------------------


def _whisper(damage: int, stamina: int = 6) -> T:
    """Krockin's Whisper of Pain (``obvious: false``, ``damage``) against Alf's Mind 1 (Target
    Number 11), with the Butler looking on."""
    whisper = {"mental": True, "obvious": False, "damage": damage}
    return start(
        cast(
            alf=character("Alf", 11, combat=2, mind=1, stamina=stamina),
            kro=character("Krockin", 33, mind=3, abilities={"Whisper of Pain": whisper}),
            butler=character("The Butler", 50),
        )
    )


def _whispers(table: T, dice: tuple[int, int, int] = (6, 6, 6)) -> T:
    return act(table, "kro", "mental_attack", list(dice), target="alf", ability="Whisper of Pain")


def test_an_unobvious_damaging_ability_is_resolved_aside_without_declaring_combat() -> None:
    """Mental Combat: "Unless the Special Ability states otherwise, Mental Combat requires no
    movement and is not noticeable by anyone. There is therefore no need to declare combat":
    a damaging ability whose card says ``obvious: false`` is resolved aside (RULINGS.md, Round
    3) — no combat begins, and only the two characters see the attack and its damage."""
    table = _whispers(_whisper(2))
    assert last(table, "mental.attacked")["hit"] is True
    assert not table.state.combats and "combat.started" not in [e.kind for e in table.log]
    butler = [e.kind for e in view(table.log, "butler")]
    assert "mental.attacked" not in butler and "damage.taken" not in butler
    for who in ("alf", "kro"):
        assert "damage.taken" in [e.kind for e in view(table.log, who)]


def test_its_damage_is_taken_as_from_any_attack() -> None:
    """Taking Damage: "If a Character takes greater than half the Character's Stamina Stat in
    damage from a single attack, the character is Knocked Out" — the damage of an unobvious
    mental attack is taken as from any attack (RULINGS.md, Round 3): 4 of Stamina 6 knocks Alf
    out (everyone sees him fall), 3 does not."""
    table = _whispers(_whisper(4))
    assert last(table, "damage.taken") == {
        "character": "alf",
        "amount": 4,
        "total": 4,
        "by": "Whisper of Pain",
        "knocked_out": True,
        "aside": "kro",
        "stamina": 6,
    }
    assert table.state.status("alf").knocked_out
    assert "character.knocked_out" in [e.kind for e in view(table.log, "butler")]
    assert not _whispers(_whisper(3)).state.status("alf").knocked_out


def test_the_knocked_out_come_round_five_minutes_later_with_their_wounds() -> None:
    """Taking Damage: "Otherwise they will recover 5 minutes after the combat ends ... One Wound
    is taken for each point of damage taken in the combat in excess of their Stamina Stat" —
    resolved aside, the attack is over as it lands (ruling 32): 8 damage of Stamina 6 wakes Alf
    five minutes later with two Wounds; a miss does nothing."""
    table = _whispers(_whisper(8))
    assert table.state.status("alf").wake_due == 5 * 60
    table = table.advance(5 * 60)
    status = table.state.status("alf")
    assert (status.knocked_out, status.wounds_marked, status.damage) == (False, 2, 0)
    missed = _whispers(_whisper(8), (1, 1, 1))
    assert "damage.taken" not in [e.kind for e in missed.log]


def test_damage_taken_aside_is_carried_into_no_later_combat() -> None:
    """Taking Damage: "If the total damage taken by a Character during a combat exceeds the
    Stamina Stat, the character is also Knocked Out" — the total of a combat: Alf, whispered 3
    of his Stamina 6 and still standing, starts a later combat with nothing taken (ruling 32)."""
    table = _whispers(_whisper(3))
    assert table.state.status("alf").damage == 0
    table = act(table, "alf", "start_combat", targets=["kro"])
    assert table.state.status("alf").damage == 0


def test_an_unobvious_damaging_ability_is_offered_against_those_on_their_feet() -> None:
    """Mental Combat: Krockin is offered his Whisper of Pain, with its odds, against each
    character out of a combat and on their feet; knocked out, Alf is no target."""
    table = _whisper(4)
    offered = [c for c in table.legal_actions("kro") if c.kind == "mental_attack"]
    assert [c.params["target"].values for c in offered] == [("alf", "butler")]
    table = _whispers(table)
    offered = [c for c in table.legal_actions("kro") if c.kind == "mental_attack"]
    assert [c.params["target"].values for c in offered] == [("butler",)]
    with pytest.raises(RuleError, match="alf is out of action"):
        _whispers(table)


def test_the_attacker_is_the_victor_of_one_felled_unnoticed() -> None:
    """Taking Damage, "In the meantime, the victor can have his or her way with them": Alf,
    felled by Krockin's unnoticed Whisper of Pain, is Krockin's to search (ruling 32); the
    Butler, who only saw him fall, is no victor."""
    table = _whispers(_whisper(4))
    with pytest.raises(RuleError, match="only the victor"):
        act(table, "butler", "search", target="alf")
    searched = act(table, "kro", "search", target="alf")
    assert last(searched, "character.searched")["target"] == "alf"


@pytest.mark.parametrize(
    ("kind", "params"), [("defend", {}), ("scream", {"bonus": 2}), ("draw", {"item": "cosh"})]
)
def test_one_who_ranks_by_mind_may_take_no_normal_combat_action(
    kind: str, params: dict[str, Any]
) -> None:
    """Mixing Mental and Normal Combat: Krockin, ranking by Mind this round, uses a mental
    ability or holds; a Defensive Action, a scream or drawing a weapon is refused by that rule,
    and nothing is declared (he carries a cosh, so the draw is refused for his Mind alone)."""
    table = _krockin_uses_mind(kro={"items": {"cosh": {"damage": 4}}})
    with pytest.raises(
        RuleError,
        match=r"^Combat rules: Mixing Mental and Normal Combat: kro ranks by Mind this round: "
        r"use a mental ability$",
    ):
        declare(table, "kro", kind, **params)
    assert combat(table).declaration("kro") is None


def test_one_felled_unnoticed_carries_the_damage_and_the_wounds_to_come_on_their_sheet() -> None:
    """Taking Damage, "One Wound is taken for each point of damage taken in the combat in excess
    of their Stamina Stat": Alf, felled by an unnoticed Whisper of Pain of 8 (Stamina 6), lies
    with 8 damage on his sheet and two Wounds to mark when he comes round at 20:05 (ruling 32)."""
    table = _whispers(_whisper(8))
    sheet = table.procedure.state_json(table.state)["characters"]["alf"]
    assert (sheet["damage"], sheet["pending_wounds"]) == (8, 2)
    assert (sheet["knocked_out"], sheet["wakes_at"]) == (True, "20:05")

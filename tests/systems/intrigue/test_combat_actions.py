"""Combat Actions (rules text, "Combat Actions": Attacking, Draw a Weapon or Item, Defensive
Action, Scream in Terror): what a declaration may name, what each fighter is offered, the odds
previewed before a round is resolved, and the log's lines.
"""

from __future__ import annotations

import pytest

from referee.core import Action, ActionError, RuleError, Viewer, observe, preview
from referee.systems.intrigue.choices import who_does_what
from referee.systems.intrigue.odds import upcoming

from .helpers import (
    _ARMS,
    _RESOLVE,
    _SCREAM,
    C1,
    T,
    _armed,
    _cast,
    _d,
    _line,
    _menu,
    _previews,
    _round,
    act,
    cast,
    character,
    start,
)
from .test_combat import brawl, declare, fight, resolve


def test_a_combat_rounds_odds_are_shown_under_combat_actions() -> None:
    """Combat Actions: the referee's preview of a round's resolution names the section that
    rolls it."""
    fighters = cast(
        alf=character("Alf", 11, combat=2, strength=2, stamina=6),
        cat=character("Cat", 13, combat=3, strength=1, stamina=6),
    )
    table = act(start(fighters), "alf", "start_combat", targets=["cat"])
    table = act(table, "alf", "declare", action="attack", target="cat")
    table = act(table, "cat", "declare", action="defend")
    shown = preview(table, "referee", Action("referee", "resolve", {"combat": "combat-1"}))
    assert shown and {p.rule for p in shown} == {"Combat Actions"}


def test_no_roll_is_previewed_for_a_fighter_knocked_out_before_their_turn() -> None:
    """Taking Damage / Combat Actions: Alf's cannon knocks Bob out before Bob's Attack on Alf
    is reached; that Attack lapses, so the next resolution previews no roll for it."""
    table = act(act(start(_armed()), "alf", "draw", item="cannon"), "bob", "draw", item="gun")
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = act(table, "dan", "join", **{"with": "bob"})
    table = act(table, "alf", "declare", action="attack", target="bob")
    table = act(table, "bob", "declare", action="attack", target="alf")
    table = act(table, "dan", "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    assert table.state.status("bob").knocked_out and table.state.combats[-1].in_round
    assert _previews(table) == []


def test_a_drawn_weapon_and_a_scream_are_actions_taken_not_lapses() -> None:
    """Combat Actions: "Draw a Weapon or Item" and "Scream in Terror" are Actions taken in their
    place; neither lapses."""
    table = act(start(_cast()), "alf", "start_combat", targets=["bob"])
    _, told = _round(
        table, [("alf", {"action": "draw", "item": "cannon"}), ("bob", {"action": "scream"})]
    )
    assert told == [
        ("item.drawn", {"combat": C1, "character": "alf", "item": "cannon"}),
        ("combat.action_taken", {"combat": C1, "character": "bob", "action": "scream"}),
    ]


def test_a_combat_action_takes_only_its_own_parameters() -> None:
    """Combat Actions: a Defensive Action names nobody; an Attack names a target, an ability or
    a group, never an item. The refusal says what the action takes."""
    table = fight("alf", "bob")
    with pytest.raises(ActionError, match=r"defend takes no target \(it takes: nothing else\)"):
        declare(table, "alf", "defend", target="bob")
    with pytest.raises(
        ActionError, match=r"attack takes no item \(it takes: ability, group, target\)"
    ):
        declare(table, "alf", "attack", target="bob", item="cosh")


def test_each_fighter_is_offered_the_combat_actions_open_to_them_in_their_turn() -> None:
    """Initiative and Combat Actions: Alf (first in round 1) may Defend, Scream, hold, Attack
    or Grab Bob, or draw; Bob waits until Alf has declared; once all have, the round may be
    resolved, and Alf's held action is offered again, without holding a second time."""
    table = act(fight("alf", "bob"), "referee", "next_round")
    alf_full = [
        _d("defend"),
        _SCREAM,
        _d("hold"),
        _d("attack", target=("bob",)),
        _d("grab", target=("bob",)),
        _ARMS,
    ]
    assert (_menu(table, "alf"), _menu(table, "bob")) == (alf_full, [])
    table = declare(table, "alf", "hold")
    assert _menu(table, "alf") == []
    assert _menu(table, "bob") == [
        _d("defend"),
        _SCREAM,
        _d("hold"),
        _d("attack", target=("alf",)),
        _d("grab", target=("alf",)),
    ]
    table = resolve(declare(table, "bob", "defend"))
    assert _menu(table, "alf") == [*alf_full[:2], *alf_full[3:], _RESOLVE]
    assert _menu(table, "bob") == [_RESOLVE]


def test_the_log_says_who_attacked_whom_with_what_and_whether_it_hit() -> None:
    """Attacking, Multiple Attackers, Mental Combat: the attack line names every attacker, the
    action or the mental ability, the total against the Target Number, and hit or miss."""
    attack = {"target": "bob", "total": 14, "target_number": 12}
    assert (
        _line("attack.rolled", attackers=["alf", "dan"], action="attack", hit=True, **attack)
        == "alf+dan attack bob: 14 against 12: hit."
    )
    assert (
        _line("attack.rolled", attackers=["cat"], action="grab", hit=False, **attack)
        == "cat grab bob: 14 against 12: miss."
    )
    assert (
        _line("attack.rolled", attackers=["kro"], ability="Befuddle", hit=True, **attack)
        == "kro Befuddle bob: 14 against 12: hit."
    )
    assert (
        _line("attack.rolled", attackers=["kro"], hit=False, **attack)
        == "kro attack bob: 14 against 12: miss."
    )


def test_the_log_says_what_each_fighter_declared() -> None:
    """Combat Actions: a declaration's line names the action, its target, ability, item and
    group, and the initiative it acts at."""
    assert (
        _line(
            "combat.declared", character="alf", action="attack", target="bob", group=["dan"], rank=2
        )
        == "alf declares attack on bob, with dan (initiative 2)."
    )
    assert (
        _line(
            "combat.declared",
            character="kro",
            action="attack",
            target="alf",
            ability="Befuddle",
            rank=3,
        )
        == "kro declares attack on alf with Befuddle (initiative 3)."
    )
    assert (
        _line("combat.declared", character="alf", action="draw", item="cosh", rank=2)
        == "alf declares draw (cosh) (initiative 2)."
    )


def test_the_rounds_odds_are_previewed_for_its_own_combat() -> None:
    """Combat Actions: the round's rolls are previewed before it is resolved — for the referee
    when one combat runs or the combat is named (not when two run and none is named), and for
    a fighter, their own combat."""
    table = declare(declare(fight("alf", "bob"), "alf", "attack", target="bob"), "bob", "defend")
    two = act(table, "cat", "start_combat", targets=["dan"])
    roll = ["Alf attack Bob: 3d6+2 > 14"]
    for state, action, words in (
        (table.state, Action("referee", "resolve", {}), roll),
        (two.state, Action("referee", "resolve", {}), []),
        (two.state, Action("referee", "resolve", {"combat": "combat-1"}), roll),
        (two.state, Action("alf", "resolve", {}), roll),
    ):
        assert [w for w, _ in upcoming(state, action)] == words


def test_in_combat_drawing_a_weapon_is_the_fighters_combat_action() -> None:
    """Draw a Weapon or Item: outside combat a character draws at once; in a combat, drawing is
    their declared Combat Action, not a free action."""
    with pytest.raises(RuleError, match="in combat, Draw a Weapon or Item is your Action"):
        act(fight("alf", "bob"), "alf", "draw", item="cosh")


def two_combats() -> T:
    """Alf fights Bob (combat-1) and Cat fights Dan (combat-2); everyone has declared."""
    table = act(start(brawl()), "alf", "start_combat", targets=["bob"])
    table = declare(declare(table, "alf", "attack", target="bob"), "bob", "defend")
    table = act(table, "cat", "start_combat", targets=["dan"])
    return declare(declare(table, "cat", "grab", target="dan"), "dan", "attack", target="cat")


def test_every_viewer_sees_the_odds_of_each_running_combats_next_rolls() -> None:
    """Combat is fought in the open: anyone watching is shown the odds of the rolls the next
    resolution of each combat makes, under "Combat Actions"."""
    table = two_combats()
    shown = observe(table, Viewer("stranger")).to_json()["previews"]
    assert [(p["label"], p["rule"], p["dice"]) for p in shown] == [
        ("Alf attack Bob", "Combat Actions", "3d6+2 > 14"),
        ("Cat grab Dan", "Combat Actions", "3d6+3 > 12"),
    ]
    assert shown[0]["odds"] == {"failure": "20/27", "success": "7/27"}
    assert observe(start(brawl()), Viewer("stranger")).to_json()["previews"] == []


def test_an_odds_label_is_who_does_what_without_the_dice() -> None:
    """The label of a roll's odds is who does what to whom: the dice after the last ": " are
    the card's own (a skill's name may hold one); words without dice are kept whole."""
    assert who_does_what("Alf attack Bob: 3d6+2 > 14") == "Alf attack Bob"
    assert who_does_what("Ann Lore: Egypt: 3d6+2 ≥ 12") == "Ann Lore: Egypt"
    assert who_does_what("Alf attack Bob") == "Alf attack Bob"


def test_the_odds_a_fighter_is_shown_before_resolving_are_under_combat_actions() -> None:
    """Combat Actions: a fighter about to resolve their round is shown the odds of its rolls,
    under that rule's name."""
    table = two_combats()
    resolving = Action("bob", "resolve", {"combat": "combat-1"})
    (shown,) = preview(table, "bob", resolving)
    assert (shown.rule, shown.label) == ("Combat Actions", "Alf attack Bob")

"""Escaping Combat (rules text, "Escaping Combat"): two consecutive Defensive Actions, the escape
roll against the strongest attacker, a failed escape, and the log's line.
"""

from __future__ import annotations

from typing import Any

from referee.core import Viewer
from referee.systems.intrigue.events import ESCAPE_ROLLED, describe

from .helpers import (
    _NEXT,
    _armed,
    _fighters,
    _line,
    _menu,
    _round3,
    act,
    last,
    start,
    without_names,
)
from .test_combat import declare, fight, resolve, two_dodges


def test_the_log_says_whether_an_escape_succeeds() -> None:
    """Escaping Combat: with nobody attacking the escaper, the escape needs no roll; else the
    escaper's total against the attacker's, and the verdict."""
    assert (
        _line(ESCAPE_ROLLED, character="a", against=None)
        == "a escapes: nobody attacked them to beat."
    )
    assert (
        _line(ESCAPE_ROLLED, character="a", against="b", escaped=False, total=6, opponent_total=9)
        == "a fails to escape: 6 against b's 9."
    )
    assert (
        _line(ESCAPE_ROLLED, character="a", against="b", escaped=True, total=10, opponent_total=9)
        == "a escapes: 10 against b's 9."
    )


def _round(table: Any, alf: str, bob: str, dice: list[int]) -> Any:
    """One round of Alf against Bob: each declares, the referee resolves (Alf acts first)."""
    if alf == "attack":
        table = act(table, "alf", "declare", action="attack", target="bob")
    else:
        table = act(table, "alf", "declare", action=alf)
    table = act(table, "bob", "declare", action=bob)
    table = act(table, "referee", "resolve", dice)
    return act(table, "referee", "resolve")


def test_an_escape_with_nobody_to_beat_is_logged_against_nobody() -> None:
    """Escaping Combat, ruling: nobody attacked Bob in his two Defensive Actions, so he escapes
    with no roll; the event says whom he beat: nobody (``against`` is ``None``)."""
    table = act(start(_fighters()), "alf", "start_combat", targets=["bob"])
    table = _round(_round(table, "defend", "defend", []), "defend", "defend", [])
    before = len(table.log.events)
    table = act(table, "bob", "escape")
    escaped = table.log.events[before].to_json()
    assert (escaped["kind"], without_names(escaped["payload"])) == (
        "escape.rolled",
        {"combat": "combat-1", "character": "bob", "against": None, "escaped": True},
    )


def test_an_attack_in_the_round_before_the_escape_roll_still_counts() -> None:
    """Escaping Combat, ruling: the escape roll is against the strongest who attacked the
    escaper "in those two rounds" — Alf attacked Bob in round 1 and missed, then defended in
    round 2: at the end of round 2 Bob must still beat Alf (Combat 1 + 3d6 against Combat 2 +
    3d6)."""
    table = act(start(_fighters()), "alf", "start_combat", targets=["bob"])
    table = _round(table, "attack", "defend", [1, 1, 1])
    table = _round(table, "defend", "defend", [])
    assert table.state.combats[-1].streak("bob") == 2
    table = act(table, "bob", "escape", [3, 3, 3, 3, 3, 2])
    data = last(table, "escape.rolled")
    assert (data["against"], data["total"], data["opponent_total"], data["escaped"]) == (
        "alf",
        10,
        10,
        False,
    )


def _standoff() -> Any:
    """Alf and Cat against Bob and Dan; nobody attacks for two rounds: Bob and Dan each have
    two unhit Defensive Actions."""
    table = act(start(_armed()), "alf", "start_combat", targets=["bob"])
    table = act(act(table, "cat", "join", **{"with": "alf"}), "dan", "join", **{"with": "bob"})
    for _ in range(2):
        for who in ("alf", "cat", "bob", "dan"):
            table = act(table, who, "declare", action="defend")
        while table.state.combats[-1].in_round:
            table = act(table, "referee", "resolve")
    return table


def test_two_may_escape_at_the_end_of_one_round() -> None:
    """Escaping Combat: each escape roll is "made at the end of the second consecutive turn":
    Bob and Dan both escape at the end of round 2 (nobody attacked them: no roll), and the
    combat ends with their side gone."""
    table = act(_standoff(), "bob", "escape")
    table = act(table, "dan", "escape")
    combat = table.state.combats[-1]
    assert combat.escaped == frozenset({"bob", "dan"}) and combat.ended


def test_a_failed_escape_resets_the_escapers_streak_only() -> None:
    """Escaping Combat (ruling: a failed escape needs two more Defensive Actions): Bob fails
    against Alf; Dan's two unhit Defensive Actions still count."""
    table = act(start(_armed()), "alf", "start_combat", targets=["bob"])
    table = act(table, "dan", "join", **{"with": "bob"})
    table = _round3(table, "attack", [1, 1, 1])
    table = _round3(table, "defend", [])
    table = act(table, "bob", "escape", [1, 1, 1, 6, 6, 6])
    assert last(table, "escape.rolled")["escaped"] is False
    combat = table.state.combats[-1]
    assert (combat.streak("bob"), combat.streak("dan")) == (0, 2)


def test_an_escaper_keeps_their_drawn_weapon_and_sheet() -> None:
    """Escaping Combat: an escaper leaves the combat with its damage gone ("Taking Damage"
    counts a combat's damage) but keeps the rest of their sheet: Bob's drawn gun."""
    table = act(start(_armed()), "bob", "draw", item="gun")
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = act(table, "dan", "join", **{"with": "bob"})
    table = _round3(_round3(table, "defend", []), "defend", [])
    table = act(table, "bob", "escape")
    status = table.state.status("bob")
    assert (status.drawn, status.damage, status.knocked_out) == ("gun", 0, False)


def test_after_an_escape_the_others_streaks_still_count_and_the_log_names_the_round() -> None:
    """Escaping Combat: "two consecutive Defensive Actions" are counted for everyone still in
    the combat, the escaped Bob (earlier among the fighters) aside: Dan's third unhit
    Defensive Action makes three. The log names the round that ended."""
    table = act(_standoff(), "bob", "escape")
    for who in ("alf", "cat", "dan"):
        table = act(table, who, "declare", action="defend")
    while table.state.combats[-1].in_round:
        table = act(table, "referee", "resolve")
    assert table.state.combats[-1].streak("dan") == 3
    ended = table.log.events[-1]
    assert ended.kind == "combat.round_ended"
    assert describe(ended, Viewer("public")) == "combat-1: round 3 ends."


def test_after_a_failed_escape_two_more_unhit_defences_earn_another_try() -> None:
    """Escaping Combat (ruling: a failed escape needs two more Defensive Actions): one try a
    round; Bob fails against Alf, defends two more rounds unhit, and may try again (nobody
    attacked him in those rounds: nobody to beat)."""
    table = act(start(_armed()), "alf", "start_combat", targets=["bob"])
    table = act(table, "dan", "join", **{"with": "bob"})
    table = _round3(_round3(table, "attack", [1, 1, 1]), "defend", [])
    table = act(table, "bob", "escape", [1, 1, 1, 6, 6, 6])
    assert last(table, "escape.rolled")["escaped"] is False
    assert "escape" not in {c.kind for c in table.legal_actions("bob")}
    table = _round3(_round3(table, "defend", []), "defend", [])
    offers = [c for c in table.legal_actions("bob") if c.kind == "escape"]
    assert [(c.actor, c.odds) for c in offers] == [("bob", ())]  # nobody to beat: no roll
    table = act(table, "bob", "escape")
    assert last(table, "escape.rolled")["escaped"] is True


def test_escape_is_offered_after_two_unhit_defences_with_the_odds_of_beating_the_attacker() -> None:
    """Escaping Combat: after one unhit Defensive Action Bob may not escape; after two he is
    offered it, with the odds of his 3d6 + Combat beating Alf's."""
    table = declare(declare(fight("alf", "bob"), "alf", "attack", target="bob"), "bob", "defend")
    table = resolve(resolve(table, (1, 1, 1)))
    assert "escape" not in {c.kind for c in table.legal_actions("bob")}
    table = two_dodges()
    assert _menu(table, "bob") == [_NEXT, ("escape", "", {})]
    (offer,) = [c for c in table.legal_actions("bob") if c.kind == "escape"]
    ((label, dice, odds),) = [(o.label, o.dice, o.odds) for o in offer.odds]
    assert (label, dice) == ("bob escapes alf", "3d6+1 vs 3d6+2")
    assert odds == {"failure": "9905/15552", "success": "5647/15552"}

"""The log in words (issue 26): a Gin Lane character has no name but its id, so the log writes
the id capitalised ("moll_cutpurse" reads "Moll Cutpurse"), a possessive reads "Moll's", and
zones and Aspects are written as given; a roll with nothing to beat has no margin."""

from __future__ import annotations

from referee.core import Event, Viewer
from referee.systems.ginlane.events import (
    ATTACK_MATCH,
    BLOCK_SET,
    BLOCK_TESTED,
    INITIATIVE_ROLLED,
    MOVED,
    describe,
)

from .test_procedure import act, duel


def _said(event_kind: str, **data: object) -> str:
    return describe(Event(event_kind, dict(data)), Viewer("referee"))  # type: ignore[arg-type]


def test_characters_are_named_by_their_ids_capitalised() -> None:
    assert _said(INITIATIVE_ROLLED, winner="moll_cutpurse", order=["moll_cutpurse", "jack"]) == (
        "Initiative: Moll Cutpurse wins and goes first; the order is Moll Cutpurse, Jack"
    )
    assert _said(MOVED, character="jack", by="moll", **{"from": "the bar", "to": "the yard"}) == (
        "Jack moves from the bar to the yard, pushed by Moll"
    )


def test_possessives_read_as_english() -> None:
    assert _said(ATTACK_MATCH, character="jack", stress=2) == (
        "a Match: Jack's attack deals only its weapon's bonus (2)"
    )
    assert _said(BLOCK_TESTED, blocker="moll", strength=5, total=4) == (
        "Moll's Block (5) is tested by 4"
    )


def test_a_thing_held_is_not_taken_for_a_character() -> None:
    assert _said(
        BLOCK_SET, character="moll", kind="hold", target="the casket", skill="Might", strength=7
    ) == ("Moll blocks (hold the casket) with Might: strength 7")
    assert _said(
        BLOCK_SET, character="moll", kind="protect", target="ann", skill="Might", strength=7
    ) == ("Moll blocks (protect Ann) with Might: strength 7")


def test_a_played_duel_reads_with_names_and_the_initiative_card_has_no_margin() -> None:
    table = duel()
    rolled = next(e for e in table.log if e.kind == INITIATIVE_ROLLED)
    assert describe(rolled, Viewer("referee")).startswith("Initiative: Moll wins")
    cards = rolled.data["rolls"]
    assert isinstance(cards, list) and all(c["margin"] is None for c in cards)  # type: ignore[index]
    table = act(table, "moll", "attack", [6, 6, 1, 1], target="jack")
    words = [describe(e, Viewer("referee")) for e in table.log.events]
    assert any(w.startswith("Moll attacks Jack with Weapons") for w in words)


def test_the_log_says_each_outcome_move_consequence_and_sheet_in_words() -> None:
    """What a seat reads in the log (events.py's narration): a roll's outcome with its level and
    margin, an Aspect placed, a move (pushed or not), a Sprint's route, a consequence and what it
    replaces, a recovery, a sheet checked."""
    seize = {"character": "jack", "thing": "the casket", "against": 4}
    assert _said("seize.rolled", **seize, outcome="success", success_level="Solid", margin=3) == (
        "Jack tries to seize the casket against a Block of 4 and succeeds (Solid, by 3)"
    )
    assert _said("seize.rolled", **seize, outcome="match", margin=0) == (
        "Jack tries to seize the casket against a Block of 4 and is a Match"
    )
    assert _said("seize.rolled", **seize, outcome="failure", margin=-2) == (
        "Jack tries to seize the casket against a Block of 4 and fails (by 2)"
    )
    placed = {"name": "Smoke", "setter": "kit"}
    assert _said("aspect.placed", **placed, on="scene", unique_to=None) == (
        "the Aspect Smoke is placed on the scene by Kit"
    )
    assert _said("aspect.placed", **placed, on="bob", unique_to="kit") == (
        "the Aspect Smoke is placed on bob by Kit, unique to Kit"
    )
    assert _said("moved", character="jack", **{"from": "room", "to": "hall"}) == (
        "Jack moves from room to hall"
    )
    assert _said("moved", character="jack", by="moll", **{"from": "room", "to": "hall"}) == (
        "Jack moves from room to hall, pushed by Moll"
    )
    assert _said("sprint.rolled", character="kit", points=4, route=["b", "c"]) == (
        "Kit sprints with 4 points of movement: b → c"
    )
    assert _said("sprint.rolled", character="kit", points=0, route=[]) == (
        "Kit sprints with 0 points of movement: nowhere"
    )
    consequence = {"character": "jack", "aspect": "Scarred Face", "track": "Health"}
    assert _said(
        "consequence.taken", **consequence, severity="extreme", mitigates=8, replaces="Handsome"
    ) == (
        "Jack takes an extreme consequence, Scarred Face (mitigates 8 Health stress, "
        "replacing Handsome)"
    )
    assert _said("consequence.taken", **consequence, severity="slight", mitigates=2) == (
        "Jack takes a slight consequence, Scarred Face (mitigates 2 Health stress)"
    )
    assert _said("consequence.recovering", character="jack", days=7, recovered=["Cut", "Bump"]) == (
        "Jack recovers for 7 days: Cut, Bump recovered"
    )
    assert _said("consequence.recovering", character="jack", days=1, recovered=[]) == (
        "Jack recovers for 1 day: nothing yet recovered"
    )
    assert _said("sheet.checked", name="Moll", valid=True) == "the sheet of Moll is legal"
    assert _said("sheet.checked", name="Moll", valid=False, problems=["a", "b"]) == (
        "the sheet of Moll breaks the rules: a; b"
    )

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

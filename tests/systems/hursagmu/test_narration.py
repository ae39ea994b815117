"""The log in words (issue 26): a Hursagmu character's id is its name, so the log writes it
capitalised ("sleeper" reads "Sleeper"), a possessive reads "Marcos'" and "Bob's", and an
Initiative roll, which has nothing to beat, has no margin."""

from __future__ import annotations

from referee.core import Event, Viewer
from referee.systems.hursagmu import events as E


def _said(event_kind: str, data: dict[str, object]) -> str:
    return E.describe(Event(event_kind, data), Viewer("bob"))  # type: ignore[arg-type]


def test_characters_are_named_with_a_capital() -> None:
    assert _said(E.ENCOUNTER_BEGAN, {"characters": ["bob", "first_swordsman"]}) == (
        "The encounter begins: Bob, First Swordsman."
    )
    assert _said(
        E.DAMAGE_TAKEN, {"character": "fred", "damage": 7, "by": "mace", "hits_left": 3}
    ) == ("Fred takes 7 damage from Mace (3 hits left).")


def test_possessives_read_as_english() -> None:
    resolved = {"attacker": "marcos", "target": "bob", "hit": True, "defended": False}
    assert _said(E.ATTACK_RESOLVED, resolved) == "Marcos' attack, undefended: hits Bob."
    failed = {"character": "bob", "task": "search", "reason": "injured"}
    assert _said(E.TASK_FAILED, failed) == "Bob's search fails: injured."


def test_a_noticed_flag_is_not_taken_for_a_name() -> None:
    rolled = {"character": "sleeper", "skill": "perception", "noticed": True}
    assert _said(E.PERCEPTION_ROLLED, rolled) == "Sleeper rolls perception in secret: noticed."

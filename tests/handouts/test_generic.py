"""A game with no layout of its own prints the generic handout: its sheets as ``observe`` shows
them and a card of the actions its catalogue offers, with no change to ``referee.handouts``.

Played on the example game installed as a package of its own (``examples/toy-game``, the game
``toy``: ``docs/new-game.md``), and on a sealed variant whose duellists each carry a note only
they and the referee may read: the secret search of ``test_secrets.py`` holds for it.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, Table, Viewer, observe, register_system, system
from referee.handouts import layout, render_handouts
from referee_toy.duel import Duel, DuelState
from tests.handouts.pdftext import all_text, pages_text, render_pngs
from tests.handouts.test_secrets import secrets_kept_off_players_handouts

PLAYERS = {"ann": ["ann"], "bob": ["bob"]}
SETUP: dict[str, Any] = {"duellists": {"ann": {"stamina": 3}, "bob": {}}}


class SealedDuel(Duel):
    """The toy duel with a sealed note per duellist: only its duellist and the referee read it."""

    def state_json(self, state: DuelState) -> dict[str, Any]:
        out = super().state_json(state)
        for name, sheet in out["duellists"].items():
            sheet["note"] = f"{name} fears the left-handed dagger"
        return out

    def visible_state(self, state: DuelState, viewer: Viewer) -> dict[str, Any] | None:
        out = self.state_json(state)
        if not viewer.is_referee:
            for name, sheet in out["duellists"].items():
                if name not in viewer.identities:
                    del sheet["note"]
        return out


register_system("kernel_sealed_duel", SealedDuel())


def _duel(name: str = "toy") -> Table[Any]:
    table = system(name).new_table(SETUP, players=PLAYERS)
    plan = [{"attack": "bob", "weapon": "sabre"}]
    return table.act(Action("ann", "declare", {"plan": plan}), None, seat="ann")


def test_a_game_without_a_layout_gets_the_generic_one() -> None:
    assert layout("toy").__module__ == "referee.handouts.generic"
    assert layout("pdf").__module__ == "referee.handouts.generic"  # a module, not a layout
    assert layout("ginlane").__module__ == "referee.handouts.ginlane"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_seat_of_the_toy_duel_prints_its_sheets_and_actions(paper: str) -> None:
    table = _duel()
    for seat in table.seats:
        files = render_handouts(table, seat.id, paper)
        assert sorted(files) == ["actions.pdf", "sheets.pdf"]
        for name, pdf in files.items():
            assert pdf.startswith(b"%PDF-") and b"/FontFile2" in pdf, name
            assert render_pngs(pdf), name


def test_a_player_prints_their_own_sheet_as_observe_shows_it() -> None:
    table = _duel()
    sheets = pages_text(render_handouts(table, "ann")["sheets.pdf"])
    assert len(sheets) == 1
    text = " ".join(sheets[0].split())
    for words in [
        "A DUEL (THE EXAMPLE GAME) · DUELLISTS",
        "Ann",
        "Wounds",
        "Stamina 3",
        "Standing yes",
    ]:
        assert words in text, words
    assert "Bob" not in text
    everyone = pages_text(render_handouts(table, "referee")["sheets.pdf"])
    assert len(everyone) == 2 and "Bob" in everyone[1]


def test_the_action_card_is_the_catalogue() -> None:
    table = _duel()
    card = all_text(render_handouts(table, "bob")["actions.pdf"])
    for words in [
        "A duel (the example game): actions",
        "declare",
        "Duel: your turn",
        "defend",
        "Duel: defending",
        "defence (parry | dodge), skill",
        "concede",
        "Parameters: none",
    ]:
        assert words in card, words


def test_the_sealed_duels_notes_stay_off_the_other_players_handouts() -> None:
    table = _duel("kernel_sealed_duel")
    assert secrets_kept_off_players_handouts(table) == 2  # each player: the other's note
    ann = all_text(render_handouts(table, "ann")["sheets.pdf"])
    assert "ann fears the left-handed dagger" in ann
    assert "bob fears" not in ann
    referee = all_text(render_handouts(table, "referee")["sheets.pdf"])
    assert "ann fears" in referee and "bob fears" in referee
    assert "note" not in observe(table, "bob").to_json()["state"]["duellists"]["ann"]

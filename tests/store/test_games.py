"""Every game through the store (issue 14, "Done when"): a table made from the game's first
example, played a few steps with choices drawn from its own ``legal_actions`` domains, loaded
cold from its snapshots (the game's state pickled and read back), undone, exported and imported
— on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.core import Action, ActionError, RuleError
from referee.core.loader import load_file
from referee.core.registry import systems
from referee.core.scenario import parse_scenario
from referee.core.table import observe
from referee.store import open_store

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GAMES = [name for name in systems() if (EXAMPLES / name).is_dir()]


def _value(domain: Any) -> Any:
    data = domain.to_json()
    if "one_of" in data:
        return data["one_of"][0]
    if "between" in data:
        return data["between"][0]
    if "some_of" in data:
        return data["some_of"][:1]
    return "a note"


def test_every_game_has_examples() -> None:
    assert set(GAMES) >= {"intrigue", "kingdoms", "zweihander", "ginlane", "hursagmu"}


@pytest.mark.parametrize("game", GAMES)
def test_a_game_is_made_played_undone_exported_and_imported(game: str, url: str) -> None:
    example = sorted((EXAMPLES / game).glob("*.yaml"))[0]
    scenario = parse_scenario(load_file(example))
    store = open_store(url, snapshot_every=2)
    created = store.create_table(
        game,
        scenario.setup,
        name=example.stem,
        players=scenario.players or None,
        start=scenario.start,
    )
    table = created.table
    seat = table.seats[0].id
    played = 0
    for _ in range(4):
        for choice in observe(table, seat).choices:
            params = {name: _value(domain) for name, domain in choice.params.items()}
            try:
                table = store.act(
                    created.id,
                    Action(choice.actor, choice.kind, params),
                    seat=seat,
                    expect_version=table.version,
                )
            except (RuleError, ActionError):
                continue
            played += 1
            break
    assert played, f"{game}: no legal action could be taken from {example.name}"
    assert store.snapshot_count(created.id) >= 1
    assert open_store(url).load(created.id) == table  # cold, from the snapshots
    record = store.export(created.id)
    undone = store.undo(created.id, seat=seat)
    assert len(undone.actions) == played - 1
    copy = store.import_record(record, name="copy")
    assert store.export(copy.id) == record

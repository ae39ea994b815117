"""Sealed choices (docs/fairness.md, "Sealed choices"; docs/kernel.md, "Fair dice"): a choice
sealed with a fresh secret salt, its reveal checked against its commitment by ``referee
verify``, and a record that replays each seal with the salt it recorded."""

from __future__ import annotations

import pytest

from referee.core import Action, ScenarioError, Table
from referee.core.events import Event
from referee.core.fairness import (
    ZERO_SALT,
)
from referee.dice import RandomSource, ScriptedSource

from .helpers import _Planned
from .test_table import PLAYERS, SETUP

# -- the salt of a seal --------------------------------------------------------------------------


def test_a_seal_made_without_dice_gets_the_zero_salt_and_with_dice_the_sources_salt() -> None:
    """Sealed choices (docs/kernel.md, "Fair dice"): the table's recording source hands a seal
    the salt of the dice it wraps — a replayed action's recorded salt, the zero salt for an
    action played without dice (as for scripted dice), a fresh one from a real source."""
    from referee.core.fairness import SALT_BYTES
    from referee.core.table import _NoDice, _Recording, _Replaying
    from referee.dice import RandomSource

    recorded = bytes(range(SALT_BYTES))
    assert _Recording(_Replaying([], [recorded])).salt() == recorded
    assert _Recording(_NoDice()).salt() == ZERO_SALT  # type: ignore[arg-type]
    assert _Recording(ScriptedSource([1])).salt() == ZERO_SALT
    fresh = _Recording(RandomSource(7)).salt()
    assert len(fresh) == SALT_BYTES and fresh != ZERO_SALT


# -- a record replays each seal with its recorded salt -------------------------------------------


def test_a_record_with_a_sealed_choice_replays_with_the_salt_it_recorded() -> None:
    """Sealed choices (docs/kernel.md, "Fair dice"): a record replays a sealed choice with the
    salt its event recorded, so a record with a seal loads to the same table."""
    from referee.dice import RandomSource

    table = Table.start(_Planned(), SETUP, system="kernel_toy", players=PLAYERS)
    table = table.act(Action("scarface", "plan", {}), RandomSource(7))
    loaded = Table.from_record(table.to_record(), _Planned())
    assert list(loaded.log) == list(table.log)


def test_a_replayed_action_gets_its_recorded_salts_in_order_and_no_more() -> None:
    """Sealed choices on replay: the salts come back in the order the action drew them; one
    more than the record holds is an error."""
    from referee.core.table import _Replaying
    from referee.dice import DiceSourceError

    replaying = _Replaying([], [b"first", b"second", b"third"])
    assert [replaying.salt(), replaying.salt(), replaying.salt()] == [
        b"first",
        b"second",
        b"third",
    ]
    with pytest.raises(DiceSourceError, match=r"^the record holds no salt for a choice this"):
        replaying.salt()


class _Schemed(_Planned):
    """The planning toy whose plan is sealed in one event and noted in a second."""

    def decide(self, state, action, dice):  # type: ignore[no-untyped-def]
        events = super().decide(state, action, dice)
        if action.kind == "plan":
            return (*events, Event("plan.noted", {"by": action.actor}))
        return events


@pytest.mark.parametrize("game", [_Planned(), _Schemed()], ids=["sealed last", "sealed first"])
def test_each_sealed_choice_replays_with_the_salt_of_its_own_actions_events(game: _Planned) -> None:
    """Sealed choices (docs/kernel.md, "Fair dice"): each action's seal replays with the salt
    recorded in its own events — wherever among them it is, and never the salt of the action
    before it."""
    table = Table.start(game, SETUP, system="kernel_toy", players=PLAYERS)
    table = table.act(Action("scarface", "plan", {}), RandomSource(7))
    table = table.act(Action("krockin", "plan", {}), RandomSource(8))
    loaded = Table.from_record(table.to_record(), game)
    assert list(loaded.log) == list(table.log)


def test_a_record_whose_salt_is_not_hexadecimal_is_refused_as_a_record() -> None:
    table = Table.start(_Planned(), SETUP, system="kernel_toy", players=PLAYERS)
    record = table.act(Action("scarface", "plan", {}), RandomSource(7)).to_record()
    salt = record["events"][-1]["secrets"][0]
    assert salt["name"] == "salt"
    salt["value"] = "not hex"
    with pytest.raises(ScenarioError, match=r"^actions\.0: action 1 \(plan\) is refused"):
        Table.from_record(record, _Planned())

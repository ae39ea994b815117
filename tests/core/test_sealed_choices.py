"""Sealed choices (docs/fairness.md, "Sealed choices"; docs/kernel.md, "Fair dice"): a choice
sealed with a fresh secret salt, its reveal checked against its commitment by ``referee
verify``, and a record that replays each seal with the salt it recorded."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import REFEREE, Action, ScenarioError, Table
from referee.core.events import Event, Log, only
from referee.core.fairness import (
    ZERO_SALT,
    DiceSeeds,
    Verification,
    draw_salt,
    fair_dice,
    reveal_params,
    seal,
    sealed_choices,
    unseal,
    verify,
)
from referee.dice import RandomSource, ScriptedSource
from referee.dice.fairness import DerivedSource, commit_choice

from .helpers import _Planned
from .test_table import PLAYERS, SETUP
from .toy_procedure import PROCEDURE

# -- a reveal checked against its commitment (fairness.sealed_choices) ---------------------------


SLIP: dict[str, Any] = {"maneuver": "Assault", "target": "orcs"}
"""The content of a sealed maneuver slip (docs/fairness.md, "Sealed choices")."""


def _sealed(choice: str, content: Any, salt: bytes = ZERO_SALT) -> Event:
    """The public event of a slip sealed in play, its salt the sealer's secret part."""
    public, secret = seal(choice, content, ScriptedSource([]), only("elves"))
    assert public["commitment"] == commit_choice(content, ZERO_SALT)
    if salt != ZERO_SALT:
        public = {"choice": choice, "commitment": commit_choice(content, salt)}
    return Event("slip.sealed", {"faction": "elves", "sealed": public}, secrets=(secret,))


def _revealed(*entries: Any) -> Event:
    return Event("slips.revealed", {"unsealed": list(entries)})


def _checked(*events: Event) -> tuple[int, tuple[str, ...]]:
    """``sealed_choices`` over these events as a log numbers them (from 1)."""
    return sealed_choices(tuple(Log().append(*events)))


def test_an_honest_reveal_matches_its_commitment() -> None:
    """Sealed choices (docs/fairness.md): the slip and salt revealed are the ones committed
    when it was sealed — each reveal is checked once, and none is a problem; an event between
    them that seals or reveals nothing changes nothing."""
    salt = ZERO_SALT.hex()
    found = _checked(
        _sealed("maneuver 1: elves", SLIP),
        Event("clock.advanced", {"to": 60}),
        _sealed("maneuver 1: orcs", {"maneuver": "Feint"}),
        _revealed(
            unseal("maneuver 1: elves", SLIP, salt),
            unseal("maneuver 1: orcs", {"maneuver": "Feint"}, salt),
        ),
    )
    assert found == (2, ())


def test_every_reveal_in_every_event_is_counted() -> None:
    """Sealed choices: two reveals in two events are two choices checked, not one."""
    salt = ZERO_SALT.hex()
    found = _checked(
        _sealed("plan a", SLIP),
        _sealed("plan b", [1, 2]),
        _revealed(unseal("plan a", SLIP, salt)),
        _revealed(unseal("plan b", [1, 2], salt)),
    )
    assert found == (2, ())


def test_a_choice_revealed_with_other_content_is_not_the_one_sealed() -> None:
    """Sealed choices: "an order changed after sealing would not match" — a slip revealed
    with another maneuver is named as not the choice that was sealed."""
    found = _checked(
        _sealed("maneuver 1: elves", SLIP),
        _revealed(unseal("maneuver 1: elves", {**SLIP, "maneuver": "Feint"}, ZERO_SALT.hex())),
    )
    assert found == (
        1,
        (
            "event 2: 'maneuver 1: elves' is not the choice that was sealed "
            "(its content or salt differs from the commitment)",
        ),
    )


def test_a_choice_revealed_with_another_salt_is_not_the_one_sealed() -> None:
    """Sealed choices: the commitment binds the salt too — the same slip revealed with
    another salt, or with a salt that is not hexadecimal, does not match."""
    other = bytes([7]) * 32
    for salt in (ZERO_SALT.hex(), "not hex"):
        found = _checked(_sealed("slip", SLIP, salt=other), _revealed(unseal("slip", SLIP, salt)))
        assert found == (
            1,
            (
                "event 2: 'slip' is not the choice that was sealed "
                "(its content or salt differs from the commitment)",
            ),
        )
    honest = _revealed(unseal("slip", SLIP, other.hex()))
    assert _checked(_sealed("slip", SLIP, salt=other), honest) == (1, ())


def test_a_choice_revealed_but_never_sealed_is_named_and_the_rest_still_checked() -> None:
    """Sealed choices: a reveal of a choice nobody sealed is a problem of its own, and the
    reveals after it in the same event are still checked (here one honest, one forged)."""
    found = _checked(
        _sealed("plan", SLIP),
        Event("noise", {"sealed": "not a mapping"}),
        _revealed(
            unseal("ghost", SLIP, ZERO_SALT.hex()),
            unseal("plan", SLIP, ZERO_SALT.hex()),
            unseal("plan", {"maneuver": "Feint"}, ZERO_SALT.hex()),
        ),
    )
    assert found == (
        3,
        (
            "event 3: 'ghost' is revealed but was never sealed",
            "event 3: 'plan' is not the choice that was sealed "
            "(its content or salt differs from the commitment)",
        ),
    )


def test_a_reveal_that_is_not_a_choice_is_skipped_and_the_rest_still_checked() -> None:
    """Sealed choices: an entry of a reveal that is not a choice at all (a bare word) is not
    counted, and the choices after it in that event are checked; a reveal that is one text
    rather than a list is no reveal."""
    found = _checked(
        _sealed("plan", SLIP),
        _revealed("junk", unseal("plan", {"maneuver": "Feint"}, ZERO_SALT.hex())),
        Event("slips.revealed", {"unsealed": "plan"}),
    )
    assert found == (
        1,
        (
            "event 2: 'plan' is not the choice that was sealed "
            "(its content or salt differs from the commitment)",
        ),
    )


def test_a_choice_sealed_again_is_checked_against_its_last_commitment() -> None:
    """Sealed choices: "the last, if it was sealed again" — a slip rewritten before the
    reveal is checked against its new commitment, not the first."""
    first = _sealed("plan", SLIP)
    again = _sealed("plan", {"maneuver": "Feint"})
    assert (
        _checked(first, again, _revealed(unseal("plan", {"maneuver": "Feint"}, ZERO_SALT.hex())))[1]
        == ()
    )
    assert _checked(first, again, _revealed(unseal("plan", SLIP, ZERO_SALT.hex())))[1] != ()


def test_a_choice_whose_content_is_null_is_checked_like_any_other() -> None:
    """Sealed choices: a sealed ``null`` (a plan of nothing) is revealed as ``null`` and
    matches; revealed as something else it does not."""
    assert _checked(_sealed("plan", None), _revealed(unseal("plan", None, ZERO_SALT.hex()))) == (
        1,
        (),
    )
    assert _checked(_sealed("plan", None), _revealed(unseal("plan", SLIP, ZERO_SALT.hex())))[1]


def test_verification_counts_the_sealed_choices_it_checked() -> None:
    """Fair play (docs/fairness.md): ``referee verify`` checks the revealed sealed choices as
    well as the dice — on a committed table, two choices revealed honestly are two checked, and
    the attack's four faces are checked after the seed's reveal."""
    seeds = DiceSeeds("t-1", (bytes([1]) * 32,))
    salt = ZERO_SALT.hex()
    preamble = [
        seeds.commitment_event(),
        _sealed("plan a", SLIP),
        _sealed("plan b", [1, 2]),
        _revealed(unseal("plan a", SLIP, salt), unseal("plan b", [1, 2], salt)),
    ]
    table = Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, preamble=preamble
    )
    attack = Action("scarface", "attack", {"target": "krockin"})
    table = table.act(attack, fair_dice(table, seeds))
    params, _ = reveal_params(seeds)
    table = table.act(Action(REFEREE, "reveal_dice", params), None, seat=REFEREE)
    assert verify(table) == Verification(1, 0, 4, (), 2)


# -- the salt of a seal --------------------------------------------------------------------------


def test_a_choice_sealed_with_real_dice_has_a_fresh_secret_salt() -> None:
    """Sealed choices (docs/fairness.md, "a fresh salt for every sealed choice keeps two equal
    choices from having equal" commitments): with a real table's dice (fair or random) the salt
    is 32 bytes from the CSPRNG — never the zero salt of scripted dice, which would let anyone
    find one of five maneuvers by trying each — and only the sealer (and the referee) sees it."""
    for dice in (RandomSource(1), DerivedSource(bytes(32), "t-1", 1)):
        public, secret = seal("plan", SLIP, dice, only("moll"))
        salt = bytes.fromhex(str(secret.value))
        assert len(salt) == 32 and salt != ZERO_SALT
        assert public == {"choice": "plan", "commitment": commit_choice(SLIP, salt)}
        assert (secret.name, secret.audience) == ("salt", only("moll"))
    assert draw_salt(RandomSource(1)) != draw_salt(RandomSource(1))
    assert draw_salt(None) == draw_salt(ScriptedSource([])) == ZERO_SALT


def test_a_seal_made_without_dice_gets_the_zero_salt_and_with_dice_the_sources_salt() -> None:
    """Sealed choices (docs/kernel.md, "Fair dice"): the table's recording source hands a seal
    the salt of the dice it wraps — a replayed action's recorded salt, the zero salt for an
    action played without dice (as for scripted dice), a fresh one from a real source."""
    from referee.core.fairness import SALT_BYTES, ZERO_SALT
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

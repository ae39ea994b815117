"""Maneuver Resolution at the table: the reveal ("all the maneuver tests are rolled at once",
in seat order clockwise from the reader) and resolving the slips, each taking effect in turn
(:func:`referee.systems.kingdoms.resolution.resolve` says what they come to).

At the reveal a slip may be void (a required conflict scene not played, a 2iC who may not
substitute), help between factions is settled, each maneuver's cost is sacrificed, and every
test is rolled; the odds of each engagement are shown with the slips, before the dice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.core import Action, Builder, Event, OddsPreview
from referee.core.fairness import unseal
from referee.core.naming import possessive
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.kingdoms.actions import RESOLVE, REVEAL
from referee.systems.kingdoms.cards import pool_card, successes_preview
from referee.systems.kingdoms.dice import (
    BurningPool,
    BurningTest,
    PoolRoll,
    help_dice,
    roll_before,
)
from referee.systems.kingdoms.events import (
    CHRONICLE_ENDED,
    CHRONICLE_WON,
    CONQUEROR_NAMED,
    EFFECT_APPLIED,
    MANEUVER_ENDED,
    MANEUVER_RESOLVED,
    SLIPS_REVEALED,
    TEST_ROLLED,
)
from referee.systems.kingdoms.resolution import Board, resolve
from referee.systems.kingdoms.scenes import conflict_fulfilled, lent_help, second_may_roll
from referee.systems.kingdoms.scripting import (
    can_spend_after,
    dice_rolled,
    entries_of,
    order_from,
    pool_for,
    reveal_odds,
    versus_targets,
)
from referee.systems.kingdoms.sheets import Character
from referee.systems.kingdoms.slips import slip_choice
from referee.systems.kingdoms.state import Faction, KingdomsState, RolledTest, Slip
from referee.systems.kingdoms.structure import (
    Fold,
    acting_faction,
    faction_name,
    names_of,
    names_of_ids,
    refuse,
    require_phase,
    tell,
)
from referee.systems.kingdoms.tables import maneuver

__all__ = [
    "FOLDS",
    "ManeuverTest",
    "apply_effect",
    "board_of",
    "read_slips",
    "resolve_slips",
    "reveal",
    "roll_test",
    "slip_odds",
]

RESOLUTION = "Maneuver Resolution"


# ---------------------------------------------------------------------------------- the reveal


@dataclass(frozen=True)
class ManeuverTest:
    """A faction's maneuver test as the reveal makes it, before the dice: its pool, roller,
    exponent, the notes on its dice, how many are rolled and the artha spent before the roll."""

    slip: Slip
    pool: BurningPool
    who: Character
    exponent: int
    notes: tuple[str, ...]
    dice: int
    artha: Mapping[str, int]

    @property
    def rolled(self) -> tuple[BurningPool, int]:
        """The dice rolled (a Harry's defence dice) as a plain pool, and a Harry's attack dice."""
        plain = evolved(self.pool, forks=0, helping=0, bonus=0, penalty=0)
        if self.slip.maneuver == "Harry":
            defence = min(self.slip.defence, self.dice)
            return evolved(plain, exponent=defence), self.dice - defence
        return evolved(plain, exponent=self.dice), 0


def reveal(b: Builder[KingdomsState], action: Action, dice: DiceSource) -> None:
    """``reveal``: the reader reads every slip; each maneuver's cost is sacrificed and every
    test rolled, in seat order from the reader. Every test is made from the chronicle as the
    slips are read (a sacrifice changes no pool)."""
    faction = acting_faction(b, action)
    REVEAL.of(action)
    state = b.state
    _check_the_maneuver_ends(state, faction)
    order = order_from(state, faction.id)
    void, help_given, help_refused, tests = read_slips(state, order)
    slips = {f: state.slips[f].to_json() for f in order if f in state.slips}
    payload = {
        "maneuver_number": state.maneuver,
        "reader": faction.id,
        "order": list(order),
        "slips": slips,
        "unsealed": [
            unseal(slip_choice(state.maneuver, f), slips[f], state.salts.get(f, "")) for f in slips
        ],
        "cannot_act": [f for f in order if state.factions[f].cannot_act],
        "void": void,
        "help": help_given,
        "help_refused": help_refused,
        "odds": reveal_odds(state, order, void, {f: t.rolled for f, t in tests.items()}),
    }
    tell(b, SLIPS_REVEALED, payload)
    for fid, test in tests.items():
        cost = maneuver(test.slip.maneuver).cost
        if cost:
            tell(b, EFFECT_APPLIED, _sacrifice(state, fid, test.slip, cost))
    for fid, test in tests.items():
        tell(b, TEST_ROLLED, _roll(state, fid, test, dice))


def read_slips(
    state: KingdomsState, order: Sequence[str]
) -> tuple[dict[str, str], dict[str, dict[str, int]], dict[str, str], dict[str, ManeuverTest]]:
    """What the reader reads in the slips, in seat ``order``: the slips void (with why), the
    help given (by helped faction, then helper) and refused (with why), and each maneuver
    test the slips not void make (:func:`maneuver_test`), in the order they are rolled."""
    void = void_slips(state, order)
    help_given, help_refused = help_between(state, order, void)
    opposed = versus_targets(state, order, void)
    tests = {
        fid: maneuver_test(state, state.slips[fid], help_given.get(fid, {}), fid in opposed)
        for fid in order
        if fid in state.slips and fid not in void
    }
    return void, help_given, help_refused, tests


def _check_the_maneuver_ends(state: KingdomsState, reader: Faction) -> None:
    """The slips are read once every faction has spent or passed its scenes and written its
    slip, by a faction in contention."""
    require_phase(state, "maneuver")
    waiting = [f for f in state.standing() if f not in state.passed]
    if waiting:
        raise refuse(
            RESOLUTION,
            f"the maneuver ends when every faction has spent or passed its "
            f"scenes; waiting for {', '.join(names_of_ids(state, waiting))}",
        )
    missing = [f for f in state.acting() if f not in state.slips]
    if missing:
        raise refuse(RESOLUTION, f"no slip yet from {', '.join(names_of_ids(state, missing))}")
    if reader.out:
        raise refuse(RESOLUTION, f"{reader.name} are out of contention and cannot read the slips")


def void_slips(state: KingdomsState, order: Sequence[str]) -> dict[str, str]:
    """The slips void at the reveal, with why: a required conflict scene not directed at the
    target, or a 2iC rolling who may not substitute yet."""
    void: dict[str, str] = {}
    for fid in order:
        slip = state.slips.get(fid)
        if slip is None:
            continue
        if maneuver(slip.maneuver).conflict == "required" and not conflict_fulfilled(state, slip):
            void[fid] = (
                f"{slip.maneuver} requires a conflict scene directed at "
                f"{' or '.join(names_of_ids(state, slip.targets))}; none was"
            )
        elif slip.roller == "second" and not second_may_roll(state, fid):
            void[fid] = (
                "the 2iC substitutes only after making two thirds of the building "
                "rolls or initiating the conflict scene"
            )
    return void


def help_between(
    state: KingdomsState, order: Sequence[str], void: Mapping[str, str]
) -> tuple[dict[str, dict[str, int]], dict[str, str]]:
    """Help between factions: the dice each helped faction gets, by helper, and the help
    refused, with why (no maneuver to help, no help lent in a scene, no skill to help with)."""
    given: dict[str, dict[str, int]] = {}
    refused: dict[str, str] = {}
    for fid in order:
        slip = state.slips.get(fid)
        if slip is None or slip.helps is None:
            continue
        helped = state.slips.get(slip.helps)
        name, helped_name = faction_name(state, fid), faction_name(state, slip.helps)
        if helped is None or slip.helps in void:
            refused[fid] = f"{helped_name}: no maneuver to help"
        elif not lent_help(state, fid, slip.helps):
            refused[fid] = (
                f"{name} and {helped_name} lent each other no helping dice in a scene this maneuver"
            )
        else:
            ability = state.factions[fid].leader.skill(helped.skill)
            if ability is None:
                refused[fid] = f"{possessive(name)} leader has no {helped.skill} to help with"
            else:
                given.setdefault(slip.helps, {})[fid] = help_dice(ability.exponent)
    return given, refused


def maneuver_test(
    state: KingdomsState, slip: Slip, helpers: Mapping[str, int], opposed: bool
) -> ManeuverTest:
    """The test ``slip``'s faction makes: none rolled if Sapped down to nothing, or for a
    Conserve no versus maneuver meets (and then no artha spent on it)."""
    pool, who, exponent, notes = pool_for(state, slip, helpers)
    n = dice_rolled(state, slip, pool)
    spent = {"persona": slip.persona, "deeds": int(slip.deeds_before)}
    if slip.maneuver == "Conserve" and not opposed:
        # "Conserve": "only rolled against a versus maneuver" (audit W4)
        notes.append("Conserve is only rolled against a versus maneuver: not rolled")
        n = 0
    if n == 0:
        if state.factions[slip.faction].sapped and slip.maneuver != "Conserve":
            notes.append("Sapped: may not roll")
        spent = {"persona": 0, "deeds": 0}  # no artha on a roll not made
    return ManeuverTest(slip, pool, who, exponent, tuple(notes), n, spent)


def _sacrifice(state: KingdomsState, fid: str, slip: Slip, cost: int) -> dict[str, Any]:
    """The disposition a maneuver costs, sacrificed as it is announced."""
    return {
        "faction": fid,
        "kind": "disposition",
        "by": fid,
        "amount": -cost,
        "value": max(0, state.factions[fid].disposition - cost),
        "target": None,
        "text": f"{possessive(faction_name(state, fid))} {slip.maneuver} announced at the cost "
        f"of {cost} disposition",
    }


def roll_test(test: ManeuverTest, dice: DiceSource) -> tuple[PoolRoll, PoolRoll | None]:
    """The maneuver test's dice rolled: the pool, or a Harry's defence dice then its attack
    dice (the attack's roll second, ``None`` for any other maneuver)."""
    pool = test.pool
    if test.slip.maneuver != "Harry":
        return roll_before(test.dice, pool.shade, pool.open_ended, dice), None
    defence = min(test.slip.defence, test.dice)
    first = roll_before(defence, pool.shade, pool.open_ended, dice)
    return first, roll_before(test.dice - defence, pool.shade, pool.open_ended, dice)


def _roll(state: KingdomsState, fid: str, test: ManeuverTest, dice: DiceSource) -> dict[str, Any]:
    """Roll the maneuver test (a Harry's defence dice, then its attack dice), with its cards."""
    slip, pool = test.slip, test.pool
    payload: dict[str, Any] = {
        "faction": fid,
        "roller": slip.roller,
        "character": test.who.name,
        "maneuver": slip.maneuver,
        "skill": slip.skill,
        "exponent": test.exponent,
        "pool": pool.to_json(),
        "dice": test.dice,
        "notes": list(test.notes),
        "artha": dict(test.artha),
        "advantage_used": [t for t in slip.targets if state.factions[fid].infiltrated.get(t, 0)],
    }
    first, second = roll_test(test, dice)
    if second is None:
        words = f"{possessive(faction_name(state, fid))} {slip.maneuver} with {slip.skill}"
        card = pool_card(first, words, RESOLUTION)
        payload.update(
            {"successes": first.successes, "roll": card.to_json(), "pool_roll": first.to_json()}
        )
        return payload
    defence = min(slip.defence, test.dice)
    label = f"{possessive(faction_name(state, fid))} Harry with {slip.skill}"
    payload.update(
        {
            "successes": first.successes,
            "attack": second.successes,
            "rolls": [
                pool_card(first, f"{label}: defence dice", RESOLUTION).to_json(),
                pool_card(second, f"{label}: attack dice", RESOLUTION).to_json(),
            ],
            "pool_roll": first.to_json(),
            "attack_pool_roll": second.to_json(),
            "defence_dice": defence,
            "attack_dice": test.dice - defence,
        }
    )
    return payload


def slip_odds(state: KingdomsState, slip: Slip) -> tuple[OddsPreview, ...]:
    """The odds of ``slip``'s maneuver test as the reveal rolls it (before any help)."""
    pool, _, _, _ = pool_for(state, slip, {})
    n = dice_rolled(state, slip, pool)
    rolled = evolved(pool, exponent=n, forks=0, helping=0, bonus=0, penalty=0)
    label = f"{possessive(faction_name(state, slip.faction))} {slip.maneuver} with {slip.skill}"
    info = maneuver(slip.maneuver)
    if slip.maneuver == "Harry":
        defence = min(slip.defence, n)
        return (
            successes_preview(
                evolved(rolled, exponent=defence), f"{label}: defence dice", RESOLUTION
            ),
            successes_preview(
                evolved(rolled, exponent=n - defence), f"{label}: attack dice", RESOLUTION
            ),
        )
    out = [successes_preview(rolled, label, RESOLUTION)]
    if isinstance(info.independent_ob, int):
        who = state.factions[slip.faction].character(slip.roller)
        test = BurningTest(rolled, info.independent_ob + (1 if who.superficial else 0))
        when = "if nobody attacks" if slip.maneuver == "Fortify" else "if independent"
        out.insert(0, OddsPreview.of(test.kernel or test, f"{label}, {when}", rule=slip.maneuver))
    return tuple(out)


# -------------------------------------------------------------------------- resolving the slips


def board_of(state: KingdomsState) -> Board:
    """What a maneuver is resolved against ("Maneuver Resolution"): the order of play, each
    faction's disposition, the cap, each leader's circles and the factions' names."""
    return Board(
        order=state.order,
        disposition={f: x.disposition for f, x in state.factions.items()},
        cap=state.cap,
        circles={f: x.leader.circles for f, x in state.factions.items()},
        names=names_of(state),
    )


def resolve_slips(b: Builder[KingdomsState], action: Action, dice: DiceSource) -> None:
    """``resolve``: the reader resolves the slips once every roll is settled: what the
    maneuver came to, each effect in seat order, the conquerors named (a tie left to the
    defeated), and the chronicle won or ended when one faction or none stands."""
    faction = acting_faction(b, action)
    RESOLVE.of(action)
    state = b.state  # the maneuver as rolled: every effect below is resolved from it
    require_phase(state, "rolled")
    if faction.id != state.reader:
        raise refuse(
            RESOLUTION, f"the reader, {faction_name(state, state.reader or '')}, resolves the slips"
        )
    open_rolls = [f for f, t in state.rolls.items() if not t.decided]
    if open_rolls:
        raise refuse(
            "Artha",
            f"waiting for {', '.join(names_of_ids(state, open_rolls))} "
            "to keep their roll or spend artha",
        )
    result = resolve(entries_of(state), board_of(state))
    tell(b, MANEUVER_RESOLVED, {"maneuver_number": state.maneuver, **result.to_json()})
    for effect in result.effects:
        tell(b, EFFECT_APPLIED, effect.to_json())
    pending: dict[str, list[str]] = {}
    for defeated, candidates in result.conquerors.items():
        if len(candidates) == 1:
            attackers = result.attackers.get(defeated, {})
            why = (
                "the attack that finished it off"
                if len(attackers) == 1
                else "the attacker with more successes"
            )
            named = {"defeated": defeated, "conqueror": candidates[0], "why": why}
            tell(b, CONQUEROR_NAMED, named)
        elif candidates:
            pending[defeated] = list(candidates)
    standing = [f for f in state.standing() if f not in result.out]
    if len(standing) == 1:
        tell(b, CHRONICLE_WON, {"faction": standing[0]})
    elif not standing:  # the last factions wiped each other out: nobody wins
        tell(b, CHRONICLE_ENDED, {"winner": None})
    ended = {"maneuver_number": state.maneuver, "pending_conquest": pending}
    tell(b, MANEUVER_ENDED, ended)


# ------------------------------------------------------------------------------------ folds


def slips_revealed(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`SLIPS_REVEALED`: the rolls begin; the reader, the seat order and the void."""
    data: dict[str, Any] = dict(event.data)
    order = tuple(str(f) for f in data["order"])
    void = {str(k): str(v) for k, v in data["void"].items()}
    return evolved(state, phase="rolled", reader=str(data["reader"]), order=order, void=void)


def maneuver_test_rolled(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`TEST_ROLLED`: the artha spent before the roll, an Infiltrate's advantage used,
    and the roll, settled already if nothing can be spent on it after."""
    data: dict[str, Any] = dict(event.data)
    fid = str(data["faction"])
    slip = state.slips[fid]
    spent = data.get("artha")
    if not isinstance(spent, Mapping):
        spent = {"persona": slip.persona, "deeds": int(slip.deeds_before)}
    who = state.factions[fid].character(slip.roller)
    who = who.spend({"persona": int(spent["persona"]), "deeds": int(spent["deeds"])})
    state = state.with_faction(fid, **{slip.roller: who})
    used = [str(t) for t in data.get("advantage_used", ()) or ()]
    if used:
        infiltrated = state.factions[fid].infiltrated
        state = state.with_faction(
            fid, infiltrated={k: (0 if k in used else v) for k, v in infiltrated.items()}
        )
    test = RolledTest(
        faction=fid,
        roller=slip.roller,
        skill=slip.skill,
        exponent=int(data["exponent"]),
        successes=int(data["successes"]),
        attack=int(data.get("attack", 0) or 0),
        pool=dict(data["pool_roll"]),
        attack_pool=dict(data["attack_pool_roll"]) if data.get("attack_pool_roll") else None,
        # no roll made (Sapped to nothing, an unopposed Conserve): no artha to spend on it
        decided=int(data["dice"]) == 0
        or not can_spend_after(state.factions[fid].character(slip.roller)),
    )
    return evolved(state, rolls={**state.rolls, fid: test})


def apply_effect(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`EFFECT_APPLIED`: one effect of a maneuver on a faction."""
    data: dict[str, Any] = dict(event.data)
    fid = str(data["faction"])
    kind = str(data["kind"])
    faction = state.factions[fid]
    if kind == "disposition":
        return state.with_faction(fid, disposition=int(data["value"]))
    if kind == "out":
        return state.with_faction(fid, out=True)
    if kind == "assessed":
        return state.with_faction(fid, assessed=faction.assessed | {str(data["target"])})
    if kind == "infiltrated":
        infiltrated = {**faction.infiltrated, str(data["target"]): int(data["amount"])}
        return state.with_faction(fid, infiltrated=infiltrated)
    if kind == "sapped":
        return state.with_faction(fid, next_sapped=max(faction.next_sapped, int(data["amount"])))
    if kind == "cannot_act":
        return state.with_faction(fid, next_cannot_act=True)
    if kind == "downtime":
        months = faction.downtime_months + int(data["amount"])
        return state.with_faction(fid, downtime_months=months, earned_downtime=True)
    if kind == "maintenance":
        tests = int(data.get("value") or 1)
        owed = faction.maintenance + (int(data["amount"]),) * tests
        return state.with_faction(fid, maintenance=owed)
    return state


def maneuver_resolved(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`MANEUVER_RESOLVED`: the maneuver's summary in the record."""
    data: dict[str, Any] = dict(event.data)
    summary = {
        "maneuver": state.maneuver,
        "narrator": data.get("narrator"),
        "dispositions": data.get("dispositions"),
        "slips": {f: s.to_json() for f, s in state.slips.items()},
        "scenes": len(state.scenes),
    }
    return evolved(state, history=(*state.history, summary))


def chronicle_won(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`CHRONICLE_WON`: the winner."""
    return evolved(state, winner=str(event.data["faction"]))


def maneuver_ended(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`MANEUVER_ENDED`: the consequences to settle (a conqueror to choose, a leader to
    join a faction), else downtime; over once won or nobody is left."""
    data: dict[str, Any] = dict(event.data)
    pending_raw = data.get("pending_conquest") or {}
    assert isinstance(pending_raw, Mapping)
    pending = {str(k): tuple(str(c) for c in v) for k, v in pending_raw.items()}
    factions = state.factions.values()
    needs_join = any(f.out and f.joined is None for f in factions) or pending
    nobody_left = all(f.out for f in factions)
    if state.winner or nobody_left:
        return evolved(state, phase="over", pending_conquest=pending)
    phase = "consequences" if needs_join else "downtime"
    return evolved(state, phase=phase, pending_conquest=pending)


FOLDS: Mapping[str, Fold] = {
    SLIPS_REVEALED: slips_revealed,
    EFFECT_APPLIED: apply_effect,
    TEST_ROLLED: maneuver_test_rolled,
    MANEUVER_RESOLVED: maneuver_resolved,
    CHRONICLE_WON: chronicle_won,
    MANEUVER_ENDED: maneuver_ended,
}
"""This section's folds, by event kind (``chronicle.ended`` changes nothing but the phase,
which ``maneuver.ended`` sets)."""

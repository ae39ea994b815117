"""Playing a whole scene from a file's data: a chase round by round, a journey stretch by stretch,
a Complex Exchange. Pure: parsed data and a dice source in, a :class:`~referee.core.Table` out
(the command line reads the files and prints the log).

Each player here follows the rules' own order and takes the default choices a GM would at the
table unless the file says otherwise: in a chase everyone moves in ladder order, a pursuer who
catches up attempts a Takedown, and the round ends; on a journey, the file gives each Stretch's
Roles and whether the party Strikes Camp after it.

>>> from referee.dice import ScriptedSource
>>> data = {"characters": {"a": {"skills": {"Charm": 50}}}, "exchange": {
...     "npc": "Countess", "disposition": "Polite", "npc_alignment": "order",
...     "participants": ["a"], "favourable": "Guile", "unfavourable": "Bargain"},
...     "tactics": [{"character": "a", "tactic": "Charm"}]}
>>> t = play_exchange(data, ScriptedSource([40]))
>>> t.log.events[-1].data["favourable"], t.log.events[-2].data["result"]
('Guile', 'Favorable')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import REFEREE, Action, RuleError, ScenarioError, Table
from referee.dice import DiceSource
from referee.systems.zweihander.procedure import ZweihanderProcedure
from referee.systems.zweihander.state import ZweihanderState

__all__ = ["MAX_ROUNDS", "play_chase", "play_exchange", "play_journey"]

MAX_ROUNDS = 9
"""The longest Escape Condition: a chase never runs past 9 Rounds."""

_PROCEDURE = ZweihanderProcedure()


def _setup(data: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise ScenarioError("the file is a mapping with 'characters' and the scene")
    return {k: data[k] for k in ("characters", "fortune_points", *keys) if k in data}


def _act(
    table: Table[ZweihanderState], action: Action, dice: DiceSource, where: tuple[str | int, ...]
) -> Table[ZweihanderState]:
    try:
        return table.act(action, dice)
    except RuleError as error:
        raise ScenarioError(str(error), where) from None


def play_chase(data: Mapping[str, Any], dice: DiceSource) -> Table[ZweihanderState]:
    """Play the chase in ``data["chase"]`` (the ``chase.start`` parameters) to its end."""
    table = Table.start(_PROCEDURE, _setup(data))
    params = data.get("chase")
    if not isinstance(params, Mapping):
        raise ScenarioError("the chase.start parameters: escapees, pursuers …", ("chase",))
    table = _act(table, Action(REFEREE, "chase.start", dict(params)), dice, ("chase",))
    started = table.state.chase
    steps = 0 if started is None else 2 * len(started.participants) + 1  # moves, takedowns, end
    for _ in range((MAX_ROUNDS + 1) * steps):
        chase = table.state.chase
        if chase is None or chase.ended is not None:
            break
        nxt = next((x for x in chase.participants if x.is_in and not x.moved), None)
        if nxt is None:
            table = _act(table, Action(REFEREE, "chase.end_round"), dice, ("chase",))
            continue
        table = _act(table, Action(nxt.id, "chase.move"), dice, ("chase",))
        after = table.state.chase
        if after is not None and after.ended is None:
            me = after.participant(nxt.id)
            if me.caught is not None and me.is_in:
                table = _act(table, Action(me.id, "chase.takedown"), dice, ("chase",))
    return table


def play_journey(data: Mapping[str, Any], dice: DiceSource) -> Table[ZweihanderState]:
    """Play the journey in ``data["journey"]`` stretch by stretch.

    Each Stretch may name its ``roles`` (guide, survivalist, scout, assists) and ``camp: true``
    to Strike Camp after it; ``award_fortune`` on the journey ends it with Fortune Points.
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("journey"), Mapping):
        raise ScenarioError("a route: travellers and stretches", ("journey",))
    table = Table.start(_PROCEDURE, _setup(data, "journey"))
    journey = data["journey"]
    stretches = journey["stretches"]
    for index, stretch in enumerate(stretches):
        where: tuple[str | int, ...] = ("journey", "stretches", index)
        roles = stretch.get("roles", {}) if isinstance(stretch, Mapping) else {}
        if not isinstance(roles, Mapping):
            raise ScenarioError("roles: guide, survivalist, scout (and assists)", (*where, "roles"))
        table = _act(table, Action(REFEREE, "journey.roles", dict(roles)), dice, (*where, "roles"))
        state = table.state.journey
        while state is not None and state.toughness_tests_left > 0:
            table = _act(table, Action(REFEREE, "journey.toughness"), dice, where)
            state = table.state.journey
        if stretch.get("camp"):
            table = _act(table, Action(REFEREE, "journey.camp"), dice, (*where, "camp"))
        table = _act(table, Action(REFEREE, "journey.end_stretch"), dice, where)
    award = journey.get("award_fortune", False)
    if not isinstance(award, bool):
        raise ScenarioError(f"true or false, not {award!r}", ("journey", "award_fortune"))
    return _act(table, Action(REFEREE, "journey.end", {"award_fortune": award}), dice, ("journey",))


def play_exchange(data: Mapping[str, Any], dice: DiceSource) -> Table[ZweihanderState]:
    """Play the Complex Exchange in ``data["exchange"]`` with each of ``data["tactics"]``."""
    table = Table.start(_PROCEDURE, _setup(data))
    params = data.get("exchange")
    if not isinstance(params, Mapping):
        raise ScenarioError("the exchange.start parameters", ("exchange",))
    table = _act(table, Action(REFEREE, "exchange.start", dict(params)), dice, ("exchange",))
    tactics = data.get("tactics", [])
    if not isinstance(tactics, list):
        raise ScenarioError("a list of {character, tactic, burn_reputation}", ("tactics",))
    for i, t in enumerate(tactics):
        if not isinstance(t, Mapping) or "character" not in t:
            raise ScenarioError("{character, tactic, burn_reputation}", ("tactics", i))
        params_i = {k: v for k, v in t.items() if k != "character"}
        table = _act(
            table, Action(str(t["character"]), "exchange.tactic", params_i), dice, ("tactics", i)
        )
    return _act(table, Action(REFEREE, "exchange.end"), dice, ("exchange",))

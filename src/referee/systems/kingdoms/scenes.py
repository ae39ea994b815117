"""Scenes at the table ("Scene Economy": color, interstitial, building and conflict scenes,
"Spending Scenes"): who may play a scene, a building scene's one roll, a conflict scene's
reported outcome and wounds, and passing the scenes left.

A maneuver's scenes come after every slip is sealed and before the reveal, which reads
conditions from them: a required conflict scene played, the 2iC's substitution earned, help
lent between factions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import Action, Builder, Event, RollCard
from referee.core.naming import possessive
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.kingdoms.actions import PASS, SCENE, Scene
from referee.systems.kingdoms.dice import WOUND_DICE, BurningPool, BurningTest, help_dice
from referee.systems.kingdoms.events import SCENE_PLAYED, SCENES_PASSED
from referee.systems.kingdoms.sheets import Character
from referee.systems.kingdoms.state import Faction, KingdomsState, SceneRecord, Slip
from referee.systems.kingdoms.structure import (
    Fold,
    acting_faction,
    faction_name,
    names_of_ids,
    refuse,
    require_phase,
    tell,
)
from referee.systems.kingdoms.tables import maneuver, setup_tables

__all__ = [
    "FOLDS",
    "building_test",
    "conflict_fulfilled",
    "lent_help",
    "pass_scenes",
    "scene",
    "scenes_allowed",
    "scenes_of",
    "second_may_roll",
]

RULE = "Scene Economy"


def scenes_of(state: KingdomsState, fid: str, kind: str | None = None) -> list[SceneRecord]:
    """The scenes ``fid`` played this maneuver (of ``kind``)."""
    return [s for s in state.scenes if s.faction == fid and (kind is None or s.kind == kind)]


def scenes_allowed(state: KingdomsState, faction: Faction) -> dict[str, int]:
    """The scenes of each kind ``faction``'s slip allows this maneuver ("Scene Economy"): one
    color, one interstitial and three building scenes; the conflict scene only where the slip
    may direct one — not with Assess, Conserve or Fortify ("A conflict scene cannot be used"),
    nor for a faction that cannot act (it writes no slip: ruling 12). A Harry's slip allows
    its optional retaliation."""
    allowed = dict(setup_tables().scenes)
    slip = state.slips.get(faction.id)
    if slip is None or faction.cannot_act or maneuver(slip.maneuver).conflict == "forbidden":
        allowed["conflict"] = 0
    return allowed


def lent_help(state: KingdomsState, a: str, b: str) -> bool:
    """ "Those Faction's Leaders lent each other helping dice in a scene during the Maneuver"."""
    return any(
        (s.faction == a and b in s.helpers) or (s.faction == b and a in s.helpers)
        for s in state.scenes
    )


def conflict_fulfilled(state: KingdomsState, slip: Slip) -> bool:
    """The slip's required conflict scene was directed at its target (or, by the optional rule, the
    target directed one at it first).
    """
    targets = set(slip.targets)
    own = any(s.target in targets for s in scenes_of(state, slip.faction, "conflict"))
    if own:
        return True
    if state.attacked_first_fulfils:
        return any(
            s.kind == "conflict" and s.faction in targets and s.target == slip.faction
            for s in state.scenes
        )
    return False


def second_may_roll(state: KingdomsState, fid: str) -> bool:
    """The 2iC made two thirds of the faction's building rolls, or initiated its conflict."""
    builds = scenes_of(state, fid, "building")
    by_second = sum(1 for s in builds if s.by == "second")
    conflict = any(s.by == "second" for s in scenes_of(state, fid, "conflict"))
    return conflict or (bool(builds) and 3 * by_second >= 2 * len(builds))


def building_test(who: Character, params: Scene) -> BurningTest:
    """A building scene's one roll: ``skill`` (or a stat) against ``ob`` (1 unless said; +1
    for a Superficial wound), helpers' dice added, wound dice taken away ("Scene Economy")."""
    skill = params.skill or ""
    ability = who.skill(skill) or who.stat(skill)
    if ability is None:
        raise refuse("Building Scenes", f"{who.name} has no {skill!r}")
    stated = 1 if params.ob is None else params.ob
    if stated < 1:
        raise refuse("Building Scenes", f"an obstacle is 1 or more, not Ob {stated}")
    ob = stated + (1 if who.superficial else 0)
    exponents = list(params.help_exponents)
    if any(n < 1 for n in exponents):
        raise refuse("Building Scenes", f"a helper's exponent is 1 or more: {exponents}")
    pool = BurningPool(
        ability.exponent,
        ability.shade,
        helping=sum(help_dice(n) for n in exponents),
        penalty=who.wound_dice,
        open_ended=ability.open_ended,
    )
    return BurningTest(pool, ob)


def scene(b: Builder[KingdomsState], action: Action, dice: DiceSource) -> None:
    """``scene``: one scene of the faction's scene economy; the last of them spends its
    scenes for the maneuver."""
    faction = acting_faction(b, action)
    params = SCENE.of(action)
    state = b.state
    who = _who_plays(state, faction, params)
    payload: dict[str, Any] = {
        "player": None if params.player is None else str(params.player),
        "faction": faction.id,
        "kind": params.kind,
        "by": params.by,
        "character": who.name,
        "helpers": list(params.helpers),
    }
    if params.kind in ("color", "interstitial"):
        payload.update(_quiet_scene(state, params))
    elif params.kind == "building":
        payload.update(_building_scene(who, params, dice))
    else:
        payload.update(_conflict_scene(state, faction, params))
    tell(b, SCENE_PLAYED, payload)
    # "The maneuver ends when all the players have spent their scenes": every scene its slip
    # allows (five where the slip forbids a conflict scene, six where it may direct one)
    allowed = scenes_allowed(b.state, faction)
    if all(len(scenes_of(b.state, faction.id, k)) >= n for k, n in allowed.items()):
        tell(b, SCENES_PASSED, {"faction": faction.id, "spent": True})


def _who_plays(state: KingdomsState, faction: Faction, params: Scene) -> Character:
    """Who plays the scene (the leader, the 2iC or a leader who joined), once the scene economy
    allows it: the maneuver's slips sealed, a scene of that kind left, the right player of a
    two-player faction, helpers from other factions."""
    require_phase(state, "maneuver")
    if faction.out:
        raise refuse(
            "Consequences",
            f"{faction.name} are out of contention: their leader plays in the scenes of "
            "the faction joined",
        )
    if faction.id in state.passed:
        raise refuse(RULE, f"{faction.name} passed their scenes this maneuver")
    unsealed = [f for f in state.acting() if f not in state.slips]
    if unsealed:
        raise refuse(
            "Maneuver",
            "every faction seals its slip before the first scene; waiting for "
            + ", ".join(names_of_ids(state, unsealed)),
        )
    kind = params.kind
    allowed = setup_tables().scenes
    if kind not in allowed:
        raise refuse(RULE, f"{kind!r} is not a scene (color, interstitial, building, conflict)")
    if len(scenes_of(state, faction.id, kind)) >= allowed[kind]:
        raise refuse(
            RULE,
            f"{faction.name} have spent their {allowed[kind]} {kind} scene"
            f"{'s' if allowed[kind] != 1 else ''} this maneuver",
        )
    by = params.by
    if by not in ("leader", "second") and by not in faction.allies:
        raise refuse(
            RULE,
            f"a scene is played by the leader, the second or a leader who joined "
            f"{faction.id}, not {by!r}",
        )
    # "Consequences": a defeated leader who joined shares this faction's scene economy
    who = state.factions[by].leader if by in faction.allies else faction.character(by)
    _check_step_seven(state, faction, params)
    for helper in params.helpers:
        if helper not in state.factions or helper == faction.id:
            raise refuse(RULE, f"{helper!r} is not another faction to lend helping dice")
    return who


def _check_step_seven(state: KingdomsState, faction: Faction, params: Scene) -> None:
    """ "Step Seven": in a two-player faction one player makes the building rolls and the
    other runs the conflict scene that maneuver."""
    kind, player = params.kind, params.player
    if len(faction.players) < 2 or kind not in ("building", "conflict"):
        return
    if player not in faction.players:
        raise refuse(
            "Step Seven", f"say which of {', '.join(faction.players)} plays this {kind} scene"
        )
    other = "conflict" if kind == "building" else "building"
    if any(s.player == player for s in scenes_of(state, faction.id, other)):
        raise refuse(
            "Step Seven",
            f"{player} played {possessive(faction.name)} {other} scenes this "
            f"maneuver; the other player plays its {kind} scene",
        )


def _quiet_scene(state: KingdomsState, params: Scene) -> dict[str, Any]:
    """A color or interstitial scene: no rolls (an interstitial scene may name a partner)."""
    if params.skill or params.ob:
        raise refuse(RULE, f"no rolls may be made during {params.kind} scenes")
    if params.kind != "interstitial":
        return {}
    partner = params.partner
    if partner is not None and partner not in state.factions:
        raise refuse(RULE, f"{partner!r} is not a faction")
    return {"with": partner}


def _building_scene(who: Character, params: Scene, dice: DiceSource) -> dict[str, Any]:
    """A building scene's one roll ("Building Scenes"), with its odds and roll card."""
    skill = params.skill or ""
    test = building_test(who, params)
    result = test.roll(dice)
    label = f"{who.name}'s building scene: {skill}"
    card = RollCard.of(test.kernel or test, result, label, rule="Building Scenes")
    return {
        "skill": skill,
        "ob": test.obstacle,
        "dice": test.pool.dice,
        "odds": str(test.odds().success),
        "successes": result.value,
        "passed": result.is_success,
        "roll": card.to_json(),
    }


def _conflict_scene(state: KingdomsState, faction: Faction, params: Scene) -> dict[str, Any]:
    """A conflict scene ("Conflict Scenes"): directed at the faction the slip targets (a
    Harry's retaliation at one that targeted it), its outcome and wounds as reported."""
    if faction.cannot_act:
        raise refuse(
            "Conflict Scenes",
            f"{faction.name} cannot act this maneuver: they "
            "take part in others' conflicts but direct none",
        )
    slip = state.slips.get(faction.id)
    if slip is None:
        raise refuse(
            "Conflict Scenes", f"{faction.name} write their slip before directing a conflict scene"
        )
    target = params.target or ""
    if maneuver(slip.maneuver).conflict == "forbidden":
        raise refuse(slip.maneuver, f"a conflict scene cannot be used with {slip.maneuver}")
    if slip.maneuver == "Harry":
        attacked = any(
            s.kind == "conflict" and s.faction == target and s.target == faction.id
            for s in state.scenes
        )
        if not attacked and target not in slip.targets:
            raise refuse(
                "Harry",
                f"a Harry's retaliatory conflict goes against an enemy "
                f"that targeted {faction.name} with a conflict; "
                f"{faction_name(state, target)} did not",
            )
    elif target not in slip.targets:
        raise refuse(
            "Conflict Scenes",
            f"{possessive(faction.name)} conflict scene is directed at "
            f"the faction its maneuver targets, not {target!r}",
        )
    wounds = dict(params.wounds)
    for who_ref, severity in wounds.items():
        if str(severity) not in WOUND_DICE:
            raise refuse("Wounds", f"{severity!r} is not a wound ({', '.join(WOUND_DICE)})")
        if str(who_ref).split(".")[0] not in state.factions:
            raise refuse("Wounds", f"{who_ref!r} is not a faction's leader or 2iC")
    return {
        "target": target,
        "outcome": params.outcome,
        "wounds": {str(k): str(v) for k, v in wounds.items()},
    }


def pass_scenes(b: Builder[KingdomsState], action: Action, dice: DiceSource) -> None:
    """``pass``: the faction passes the scenes it has left ("Spending Scenes")."""
    faction = acting_faction(b, action)
    PASS.of(action)
    require_phase(b.state, "maneuver")
    if faction.id in b.state.passed:
        raise refuse("Spending Scenes", f"{faction.name} already passed their scenes")
    tell(b, SCENES_PASSED, {"faction": faction.id, "spent": False})


# ------------------------------------------------------------------------------------ folds


def scene_played(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`SCENE_PLAYED`: the scene on the record, and the wounds its conflict dealt."""
    data: dict[str, Any] = dict(event.data)
    record = SceneRecord(
        faction=str(data["faction"]),
        kind=str(data["kind"]),
        by=str(data["by"]),
        target=None if data.get("target") is None else str(data["target"]),
        helpers=tuple(str(h) for h in data.get("helpers", ()) or ()),
        skill=None if data.get("skill") is None else str(data["skill"]),
        obstacle=None if data.get("ob") is None else int(data["ob"]),
        successes=None if data.get("successes") is None else int(data["successes"]),
        outcome=str(data.get("outcome", "")),
        player=None if data.get("player") is None else str(data["player"]),
    )
    wounds = data.get("wounds") or {}
    assert isinstance(wounds, Mapping)
    for ref, severity in wounds.items():
        fid, _, role = str(ref).partition(".")
        key = "second" if role == "second" else "leader"
        hurt = state.factions[fid].character(key)
        if str(severity) == "superficial":
            hurt = evolved(hurt, superficial=True)
        else:
            hurt = evolved(hurt, wound_dice=hurt.wound_dice + WOUND_DICE[str(severity)])
        state = state.with_faction(fid, **{key: hurt})
    wounded = frozenset(
        f"{str(ref).partition('.')[0]}.{'second' if str(ref).endswith('.second') else 'leader'}"
        for ref in wounds
    )
    return evolved(state, scenes=(*state.scenes, record), wounded=state.wounded | wounded)


def scenes_passed(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`SCENES_PASSED`: the faction has spent or passed its scenes."""
    return evolved(state, passed=state.passed | {str(event.data["faction"])})


FOLDS: Mapping[str, Fold] = {SCENE_PLAYED: scene_played, SCENES_PASSED: scenes_passed}
"""This section's folds, by event kind."""

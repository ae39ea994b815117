"""Burning Kingdoms at the table: the chronicle as a kernel :class:`~referee.core.Procedure`.

Actions (``actor`` is a faction id unless said otherwise):

=====================  ===============================================================  =========
action                 params                                                           phase
=====================  ===============================================================  =========
``prologue``           ``skill``                                                        prologue
``objective``          ``text``                                                         any
``new_session``        — (a new day of play; the record keeps sessions)                 any
``write_slip``         ``maneuver skill target|targets roller forks persona``           maneuver
                       ``deeds_before defence helps downtime substitute``
``scene``              ``kind`` (color, interstitial, building, conflict) ``by target``  maneuver
                       ``with helpers skill ob outcome wounds``
``health_test``        ``character`` (leader, second)                                   maneuver
``pass``               —                                                                maneuver
``reveal``             — (the actor reads the slips; seat order starts from them)       maneuver
``spend_artha``        ``fate deeds`` (after the roll) ``pool`` (Harry: defence/attack)  rolled
``keep``               —                                                                rolled
``tie_break``          ``opponent root``                                                rolled
``resolve``            —                                                                rolled
``choose_conqueror``   ``conqueror`` (by the defeated faction, on a tie)                consequences
``join``               ``faction`` (by the defeated faction)                            consequences
``buy_affiliation``    — (by the conqueror)                                             any
``maintenance``        —                                                                downtime
``next_maneuver``      —                                                                downtime
=====================  ===============================================================  =========

Slips are events whose content is a :class:`~referee.core.Secret` seen by the writing faction
alone until ``slips.revealed`` publishes them all at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from referee.core import (
    EVERYONE,
    Action,
    ActorId,
    Event,
    Procedure,
    RuleError,
    ScenarioError,
    Secret,
    Viewer,
    only,
    to_json,
)
from referee.core.values import JsonObject
from referee.dice import DiceSource
from referee.systems.kingdoms.dice import (
    WOUND_DICE,
    Artha,
    BurningPool,
    PoolRoll,
    Shade,
    difficulty,
    fork_dice,
    help_dice,
    obstacle_odds,
    roll_before,
    spend_after,
    versus_odds,
)
from referee.systems.kingdoms.disposition import DispositionAnswers, build_disposition
from referee.systems.kingdoms.resolution import (
    Board,
    Entry,
    engagements,
    resolve,
)
from referee.systems.kingdoms.sheets import (
    Character,
    check_leader,
    check_rivals,
    check_second,
)
from referee.systems.kingdoms.state import (
    Faction,
    KingdomsState,
    RolledTest,
    SceneRecord,
    Slip,
)
from referee.systems.kingdoms.tables import MANEUVERS, maneuver, setup_tables

__all__ = ["PROCEDURE", "KingdomsProcedure"]


# ---------------------------------------------------------------------------------- set-up


def _faction_from(fid: str, data: Mapping[str, Any], count: int, players: int | None) -> Faction:
    path = ("factions", fid)
    if not isinstance(data, Mapping):
        raise ScenarioError("a faction is a mapping", path)
    leader_data = data.get("leader")
    if not isinstance(leader_data, Mapping):
        raise ScenarioError("every faction needs a leader", (*path, "leader"))
    leader = Character.from_json(str(leader_data.get("name", fid)), leader_data)
    second = None
    if isinstance(data.get("second"), Mapping):
        second = Character.from_json(
            str(data["second"].get("name", f"{fid} 2iC")), data["second"], leader=False
        )
    disposition = data.get("disposition")
    if isinstance(disposition, Mapping):
        try:
            built = build_disposition(
                DispositionAnswers.from_json(fid, disposition), count, players
            )
        except (KeyError, ValueError) as error:
            raise ScenarioError(f"disposition answers: {error!r}", (*path, "disposition")) from None
        except RuleError as error:
            raise ScenarioError(str(error), (*path, "disposition")) from None
        value = built.total
    elif isinstance(disposition, int):
        value = disposition
    else:
        raise ScenarioError(
            "a disposition: a number or the builder's answers", (*path, "disposition")
        )
    return Faction(
        id=fid,
        name=str(data.get("name", fid)),
        leader=leader,
        second=second,
        players=tuple(str(p) for p in data.get("players", ())),
        disposition=value,
        starting_disposition=value,
        objective=str(data.get("objective", "")),
        assessed=frozenset(str(t) for t in data.get("assessed", ())),
        infiltrated={str(k): int(v) for k, v in (data.get("infiltrated") or {}).items()},
        sapped=int(data.get("sapped", 0)),
        cannot_act=bool(data.get("cannot_act", False)),
    )


def _check_sheets(state: KingdomsState, strict: bool) -> None:
    pcs = frozenset(f.leader.name for f in state.factions.values())
    for fid, faction in state.factions.items():
        try:
            check_leader(faction.leader)
            if strict:
                if faction.second is None:
                    raise RuleError("Seconds in Command", f"{fid} needs a Second in Command")
                check_second(faction.leader, faction.second)
                check_rivals(faction.leader, fid, pcs)
            elif faction.second is not None:
                check_second(faction.leader, faction.second)
        except RuleError as error:
            raise ScenarioError(str(error), ("factions", fid)) from None


# ---------------------------------------------------------------------------------- helpers


def _refuse(rule: str, reason: str) -> RuleError:
    return RuleError(rule, reason)


def _faction(state: KingdomsState, actor: ActorId) -> Faction:
    if actor not in state.factions:
        raise _refuse("Factions", f"{actor!r} is not a faction at this table")
    return state.factions[actor]


def _phase(state: KingdomsState, *phases: str) -> None:
    if state.phase not in phases:
        raise _refuse("Structure of Play", f"not now: the chronicle is in its {state.phase} phase")


def _order_from(state: KingdomsState, reader: str) -> tuple[str, ...]:
    seats = state.seats
    i = seats.index(reader)
    return tuple(f for f in seats[i:] + seats[:i] if not state.factions[f].out)


def _scenes_of(state: KingdomsState, fid: str, kind: str | None = None) -> list[SceneRecord]:
    return [s for s in state.scenes if s.faction == fid and (kind is None or s.kind == kind)]


def _lent_help(state: KingdomsState, a: str, b: str) -> bool:
    """ "Those Faction's Leaders lent each other helping dice in a scene during the Maneuver"."""
    return any(
        (s.faction == a and b in s.helpers) or (s.faction == b and a in s.helpers)
        for s in state.scenes
    )


def _conflict_fulfilled(state: KingdomsState, slip: Slip) -> bool:
    targets = set(slip.targets)
    own = any(s.target in targets for s in _scenes_of(state, slip.faction, "conflict"))
    if own:
        return True
    if state.attacked_first_fulfils:
        return any(
            s.kind == "conflict" and s.faction in targets and s.target == slip.faction
            for s in state.scenes
        )
    return False


def _second_may_roll(state: KingdomsState, fid: str) -> bool:
    """The 2iC made two thirds of the faction's building rolls, or initiated its conflict."""
    builds = _scenes_of(state, fid, "building")
    by_second = sum(1 for s in builds if s.by == "second")
    conflict = any(s.by == "second" for s in _scenes_of(state, fid, "conflict"))
    return conflict or (bool(builds) and 3 * by_second >= 2 * len(builds))


def _slip_from(state: KingdomsState, faction: Faction, params: Mapping[str, Any]) -> Slip:
    rule = "Maneuvering in the Chronicle"
    name = str(params.get("maneuver", "")).strip().capitalize()
    if name not in MANEUVERS:
        raise _refuse(
            rule, f"{params.get('maneuver')!r} is not a maneuver ({', '.join(MANEUVERS)})"
        )
    info = maneuver(name)
    raw_targets = params.get("targets", params.get("target"))
    if raw_targets is None:
        targets: tuple[str, ...] = ()
    elif isinstance(raw_targets, str):
        targets = (raw_targets,)
    else:
        targets = tuple(str(t) for t in raw_targets)
    wanted = info.targets
    if name == "Harry":
        if len(targets) > 1:
            raise _refuse(name, "a Harry names at most one target")
    elif len(targets) != wanted:
        raise _refuse(
            name, f"the slip names {wanted} target{'s' if wanted != 1 else ''}, not {len(targets)}"
        )
    for t in targets:
        if t not in state.factions or t == faction.id:
            raise _refuse(name, f"{t!r} is not an opposing faction")
        if state.factions[t].out:
            raise _refuse(name, f"{t} is out of contention")
    if len(set(targets)) != len(targets):
        raise _refuse(name, "the two targets of a Ploy are two different factions")
    if info.requires == "assessed" and targets[0] not in faction.assessed:
        raise _refuse(
            name, f"{faction.id} must first successfully Assess {targets[0]} in a previous maneuver"
        )
    if info.requires == "infiltrated":
        if name == "Ploy" and not any(t in faction.infiltrated for t in targets):
            raise _refuse(
                name,
                f"{faction.id} must first successfully Infiltrate one of "
                f"{' and '.join(targets)} in a previous maneuver",
            )
        if name == "Sap" and targets[0] not in faction.infiltrated:
            raise _refuse(
                name,
                f"{faction.id} must first successfully Infiltrate {targets[0]} "
                "in a previous maneuver",
            )
    if info.cost and faction.disposition <= info.cost:
        raise _refuse(
            name,
            f"{faction.id} has {faction.disposition} disposition and cannot "
            f"sacrifice {info.cost} without wiping itself out",
        )
    roller = str(params.get("roller", "leader"))
    if roller not in ("leader", "second"):
        raise _refuse(rule, f"the roller is 'leader' or 'second', not {roller!r}")
    skill = str(params.get("skill", ""))
    substitute = bool(params.get("substitute", False))
    if not substitute and not info.has_skill(skill):
        raise _refuse(name, f"{skill!r} is not one of {name}'s skills ({', '.join(info.skills)})")
    character = faction.character(roller)
    ability = character.skill(skill)
    if ability is None:
        raise _refuse(name, f"{character.name} has no {skill!r} skill")
    if roller == "second":
        second = faction.second
        assert second is not None
        if not second.burned_up:
            raise _refuse("Seconds in Command", "a 2iC benefits the leader only if burned up")
        if faction.leader.skill(skill) is not None:
            raise _refuse(
                "Seconds in Command",
                f"the 2iC substitutes only for a skill the leader lacks; {faction.leader.name} "
                f"has {skill}",
            )
    forks = tuple(str(f) for f in params.get("forks", ()))
    for fork in forks:
        if not info.has_skill(fork) or fork.casefold() == skill.casefold():
            raise _refuse(
                "Conquest Maneuvers",
                f"FoRKs come only from other skills in {name}'s list, not {fork!r}",
            )
        if character.skill(fork) is None:
            raise _refuse("Conquest Maneuvers", f"{character.name} has no {fork!r} to FoRK")
    persona = int(params.get("persona", 0))
    deeds_before = bool(params.get("deeds_before", False))
    Artha(persona=persona, deeds_before=deeds_before)  # the per-test limits
    character.spend({"persona": persona, "deeds": int(deeds_before)})
    defence = int(params.get("defence", 0))
    if name == "Harry":
        dice = _base_dice(faction, character, ability.exponent, forks, persona, deeds_before)
        if defence < 2 or dice - defence < 2:
            raise _refuse(
                "Harry",
                f"divide the Harry dice with at least 2 in each pool: {dice} dice, "
                f"{defence} to defence",
            )
    helps = params.get("helps")
    if helps is not None and (helps not in state.factions or helps == faction.id):
        raise _refuse("Conquest Maneuvers", f"{helps!r} is not another faction to help")
    slip = Slip(
        faction=faction.id,
        maneuver=name,
        skill=skill,
        targets=targets,
        roller=roller,
        forks=forks,
        persona=persona,
        deeds_before=deeds_before,
        defence=defence,
        helps=None if helps is None else str(helps),
        downtime=int(params.get("downtime", 0)),
        substitute=substitute,
    )
    _check_conflicts_against(state, slip)
    return slip


def _check_conflicts_against(state: KingdomsState, slip: Slip) -> None:
    """A slip cannot contradict a conflict scene the faction already directed."""
    conflicts = _scenes_of(state, slip.faction, "conflict")
    if not conflicts:
        return
    info = maneuver(slip.maneuver)
    if info.conflict == "forbidden":
        raise _refuse(
            slip.maneuver,
            f"a conflict scene cannot be used with {slip.maneuver}, and "
            f"{slip.faction} has directed one",
        )


def _base_dice(
    faction: Faction,
    who: Character,
    exponent: int,
    forks: Sequence[str],
    persona: int,
    deeds_before: bool,
) -> int:
    fork = sum(fork_dice((who.skill(f) or _zero()).exponent) for f in forks)
    pool = BurningPool(exponent, forks=fork, penalty=who.wound_dice + faction.sapped)
    return pool.dice_with(Artha(persona=persona, deeds_before=deeds_before))


def _zero() -> Any:
    from referee.systems.kingdoms.sheets import Ability

    return Ability(Shade.BLACK, 0)


# ---------------------------------------------------------------------------------- the pool


def _pool_for(
    state: KingdomsState, slip: Slip, helpers: Mapping[str, int]
) -> tuple[BurningPool, Character, int, list[str]]:
    """The maneuver test's pool before artha: (pool, roller, exponent, notes)."""
    faction = state.factions[slip.faction]
    who = faction.character(slip.roller)
    ability = who.skill(slip.skill)
    assert ability is not None
    notes: list[str] = []
    forks = sum(fork_dice((who.skill(f) or _zero()).exponent) for f in slip.forks)
    helping = sum(helpers.values())
    bonus = maneuver(slip.maneuver).bonus
    advantage = max((faction.infiltrated.get(t, 0) for t in slip.targets), default=0)
    if advantage:
        notes.append(f"+{advantage}D advantage from Infiltrating")
    if bonus:
        notes.append(f"+{bonus}D {slip.maneuver}")
    exponent = ability.exponent
    if faction.sapped:
        notes.append(f"-{faction.sapped}D Sapped")
    if who.wound_dice:
        notes.append(f"-{who.wound_dice}D wounds")
    pool = BurningPool(
        exponent=exponent,
        shade=ability.shade,
        forks=forks,
        helping=helping,
        bonus=bonus + advantage,
        penalty=who.wound_dice + faction.sapped,
        open_ended=ability.open_ended,
    )
    return pool, who, exponent, notes


def _dice(state: KingdomsState, slip: Slip, pool: BurningPool) -> int:
    """Dice actually rolled: none if Sapped down to nothing (exponent not above the Sap)."""
    faction = state.factions[slip.faction]
    if faction.sapped and pool.exponent <= faction.sapped:
        return 0
    return pool.dice_with(Artha(persona=slip.persona, deeds_before=slip.deeds_before))


# ---------------------------------------------------------------------------------- procedure


class KingdomsProcedure(Procedure[KingdomsState]):
    """Burning Kingdoms: prologue, maneuvers (slips, scenes, reveal, resolution), consequences
    and downtime (burning-kingdoms.txt; RULINGS.md, Burning Kingdoms)."""

    # -- set-up --------------------------------------------------------------------------

    def initial_state(self, setup: Mapping[str, Any]) -> KingdomsState:
        """From ``setup``: ``territory``, ``factions`` (in seat order), ``prologue`` (true to
        play it), ``players``, ``maneuver``, ``cap``, ``maintenance_ob``, ``strict_sheets``,
        ``attacked_first_fulfils`` (the optional conflict rule, on by default)."""
        factions_data = setup.get("factions")
        if not isinstance(factions_data, Mapping) or not factions_data:
            raise ScenarioError("a chronicle needs factions", ("factions",))
        players = setup.get("players")
        count = len(factions_data)
        factions: dict[str, Faction] = {}
        for fid, data in factions_data.items():
            try:
                factions[str(fid)] = _faction_from(
                    str(fid), data, count, None if players is None else int(players)
                )
            except (RuleError, KeyError, TypeError, ValueError) as error:
                if isinstance(error, ScenarioError):
                    raise
                raise ScenarioError(str(error), ("factions", str(fid))) from None
        prologue = bool(setup.get("prologue", False))
        top = max(f.disposition for f in factions.values())
        state = KingdomsState(
            territory=str(setup.get("territory", "")),
            factions=factions,
            phase="prologue" if prologue else "maneuver",
            maneuver=int(setup.get("maneuver", 1)),
            cap=0 if prologue else int(setup.get("cap", top)),
            players=int(players) if players is not None else count,
            maintenance_ob=int(setup.get("maintenance_ob", 1)),
            attacked_first_fulfils=bool(setup.get("attacked_first_fulfils", True)),
        )
        _check_sheets(state, bool(setup.get("strict_sheets", False)))
        return state

    def actors(self, state: KingdomsState) -> Sequence[ActorId]:
        """The factions still in contention."""
        return state.standing()

    def legal_actions(self, state: KingdomsState, actor: ActorId) -> Sequence[Action]:
        """What ``actor`` may do now (free parameters shown with representative values)."""
        if actor not in state.factions:
            return ()
        faction = state.factions[actor]
        out: list[Action] = [Action(actor, "objective", {"text": "..."})]
        if state.phase == "prologue" and faction.prologue is None:
            out.append(Action(actor, "prologue", {"skill": "Strategy"}))
        if state.phase == "maneuver" and not faction.out:
            if not faction.cannot_act:
                out.append(Action(actor, "write_slip", {"maneuver": "Fortify", "skill": "..."}))
            out.append(Action(actor, "scene", {"kind": "color"}))
            if actor not in state.passed:
                out.append(Action(actor, "pass"))
            out.append(Action(actor, "reveal"))
        if state.phase == "rolled" and actor in state.rolls and not state.rolls[actor].decided:
            out += [Action(actor, "spend_artha", {"fate": True}), Action(actor, "keep")]
        if state.phase == "rolled" and actor == state.reader:
            out.append(Action(actor, "resolve"))
        if state.phase == "consequences" and faction.out and faction.joined is None:
            out.append(Action(actor, "join", {"faction": "..."}))
        if state.phase == "downtime":
            if faction.maintenance:
                out.append(Action(actor, "maintenance"))
            out.append(Action(actor, "next_maneuver"))
        return out

    def visible_state(self, state: KingdomsState, viewer: Viewer) -> JsonObject | None:
        """The whole state for the referee; for anyone else, everything but other factions'
        sealed slips (before the reveal, each faction sees its own slip alone)."""
        data = dict(self.state_json(state))
        if viewer.is_referee:
            return data
        slips = data.get("slips")
        if isinstance(slips, Mapping) and state.phase == "maneuver":
            data["slips"] = {f: s for f, s in slips.items() if f in viewer.identities}
        return data

    def state_json(self, state: KingdomsState) -> JsonObject:
        """The state as JSON (what scenario ``expect: path`` reads)."""
        data = to_json(state)
        assert isinstance(data, dict)
        return data

    # -- decide ----------------------------------------------------------------------------

    def decide(self, state: KingdomsState, action: Action, dice: DiceSource) -> Sequence[Event]:
        """The events of ``action``; refuses illegal ones with the rule's reason."""
        handler = getattr(self, f"_do_{action.kind}", None)
        if handler is None:
            raise _refuse("Burning Kingdoms", f"no such action {action.kind!r}")
        faction = _faction(state, action.actor)
        events: Sequence[Event] = handler(state, faction, action.params, dice)
        return events

    # prologue

    def _do_prologue(
        self, state: KingdomsState, faction: Faction, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        _phase(state, "prologue")
        if faction.prologue is not None:
            raise _refuse("Prologues", f"{faction.id} has tested its prologue skill")
        skill = str(params.get("skill", ""))
        if skill.casefold() not in {
            s.casefold() for s in setup_tables().prologue_skills
        } and not params.get("substitute", False):
            raise _refuse("Prologues", f"{skill!r} is not on the prologue list")
        ability = faction.leader.skill(skill)
        if ability is None:
            raise _refuse("Prologues", f"{faction.leader.name} has no {skill!r} skill")
        rolled = roll_before(ability.exponent, ability.shade, True, dice)
        events = [
            Event(
                "prologue.rolled",
                {
                    "faction": faction.id,
                    "skill": skill,
                    "successes": rolled.successes,
                    "roll": rolled.to_json(),
                },
            )
        ]
        done = {f: x.prologue for f, x in state.factions.items()}
        done[faction.id] = rolled.successes
        if all(v is not None for v in done.values()):
            order = sorted(state.seats, key=lambda f: -(done[f] or 0))
            cap = max(
                state.factions[f].disposition + (rolled.successes if f == faction.id else 0)
                for f in state.seats
            )
            events.append(Event("prologue.ended", {"narration_order": order, "cap": cap}))
        return events

    def _do_new_session(
        self, state: KingdomsState, faction: Faction, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        return [
            Event(
                "session.started", {"session": state.session + 1, "maneuver_number": state.maneuver}
            )
        ]

    def _do_objective(
        self, state: KingdomsState, faction: Faction, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        text = str(params.get("text", "")).strip()
        if not text:
            raise _refuse("Chronicle Objective", "an objective needs words")
        return [Event("objective.set", {"faction": faction.id, "objective": text})]

    # scripting and scenes

    def _do_write_slip(
        self, state: KingdomsState, faction: Faction, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        _phase(state, "maneuver")
        if faction.out:
            raise _refuse("Consequences", f"{faction.id} is out of contention")
        if faction.cannot_act:
            raise _refuse("Maneuvers", f"{faction.id} cannot act this maneuver and scripts nothing")
        slip = _slip_from(state, faction, params)
        rewrite = faction.id in state.slips
        return [
            Event(
                "slip.written",
                {"faction": faction.id, "maneuver_number": state.maneuver, "rewritten": rewrite},
                audience=EVERYONE,
                secrets=(Secret("slip", slip.to_json(), only(faction.id)),),
            )
        ]

    def _do_scene(
        self, state: KingdomsState, faction: Faction, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        _phase(state, "maneuver")
        rule = "Scene Economy"
        if faction.out:
            raise _refuse(
                "Consequences", f"{faction.id} is out; its leader plays in its new faction's scenes"
            )
        if faction.id in state.passed:
            raise _refuse(rule, f"{faction.id} has passed its scenes this maneuver")
        kind = str(params.get("kind", ""))
        allowed = setup_tables().scenes
        if kind not in allowed:
            raise _refuse(
                rule, f"{kind!r} is not a scene (color, interstitial, building, conflict)"
            )
        used = len(_scenes_of(state, faction.id, kind))
        if used >= allowed[kind]:
            raise _refuse(
                rule,
                f"{faction.id} has spent its {allowed[kind]} {kind} scene"
                f"{'s' if allowed[kind] != 1 else ''} this maneuver",
            )
        by = str(params.get("by", "leader"))
        # "Consequences": a defeated leader who joined shares this faction's scene economy
        who = state.factions[by].leader if by in faction.allies else faction.character(by)
        player = params.get("player")
        if len(faction.players) >= 2 and kind in ("building", "conflict"):
            # "Step Seven": in a two-player faction one player makes the building rolls and the
            # other runs the conflict scene that maneuver.
            if player not in faction.players:
                raise _refuse(
                    "Step Seven",
                    f"say which of {', '.join(faction.players)} plays this {kind} scene",
                )
            other = "conflict" if kind == "building" else "building"
            if any(s.player == player for s in _scenes_of(state, faction.id, other)):
                raise _refuse(
                    "Step Seven",
                    f"{player} played {faction.id}'s {other} scenes this "
                    f"maneuver; the other player plays its {kind} scene",
                )
        helpers = tuple(str(h) for h in params.get("helpers", ()))
        for h in helpers:
            if h not in state.factions or h == faction.id:
                raise _refuse(rule, f"{h!r} is not another faction to lend helping dice")
        payload: dict[str, Any] = {
            "player": None if player is None else str(player),
            "faction": faction.id,
            "kind": kind,
            "by": by,
            "character": who.name,
            "helpers": list(helpers),
        }
        if kind in ("color", "interstitial"):
            if params.get("skill") or params.get("ob"):
                raise _refuse(rule, f"no rolls may be made during {kind} scenes")
            if kind == "interstitial":
                partner = params.get("with")
                if partner is not None and partner not in state.factions:
                    raise _refuse(rule, f"{partner!r} is not a faction")
                payload["with"] = partner
        elif kind == "building":
            skill = str(params.get("skill", ""))
            ability = who.skill(skill) or who.stat(skill)
            if ability is None:
                raise _refuse("Building Scenes", f"{who.name} has no {skill!r}")
            ob = int(params.get("ob", 1)) + (1 if who.superficial else 0)
            helping = sum(help_dice(int(n)) for n in params.get("help_exponents", ()))
            pool = BurningPool(
                ability.exponent,
                ability.shade,
                helping=helping,
                penalty=who.wound_dice,
                open_ended=ability.open_ended,
            )
            rolled = roll_before(pool.dice, pool.shade, pool.open_ended, dice)
            payload.update(
                {
                    "skill": skill,
                    "ob": ob,
                    "dice": pool.dice,
                    "odds": str(obstacle_odds(pool, Artha(), ob)),
                    "successes": rolled.successes,
                    "passed": rolled.successes >= ob,
                    "roll": rolled.to_json(),
                }
            )
        else:  # conflict
            if faction.cannot_act:
                raise _refuse(
                    "Conflict Scenes",
                    f"{faction.id} cannot act this maneuver; it "
                    "takes part in others' conflicts but directs none",
                )
            slip = state.slips.get(faction.id)
            if slip is None:
                raise _refuse(
                    "Conflict Scenes",
                    f"{faction.id} writes its slip before it directs a conflict scene",
                )
            target = str(params.get("target", ""))
            info = maneuver(slip.maneuver)
            if info.conflict == "forbidden":
                raise _refuse(
                    slip.maneuver, f"a conflict scene cannot be used with {slip.maneuver}"
                )
            if slip.maneuver == "Harry":
                attacked = any(
                    s.kind == "conflict" and s.faction == target and s.target == faction.id
                    for s in state.scenes
                )
                if not attacked and target not in slip.targets:
                    raise _refuse(
                        "Harry",
                        f"a Harry's retaliatory conflict goes against an enemy "
                        f"that targeted {faction.id} with a conflict; {target} did not",
                    )
            elif target not in slip.targets:
                raise _refuse(
                    "Conflict Scenes",
                    f"{faction.id}'s conflict scene is directed at "
                    f"the faction its maneuver targets, not {target!r}",
                )
            wounds = params.get("wounds") or {}
            for who_ref, severity in wounds.items():
                if str(severity) not in WOUND_DICE:
                    raise _refuse(
                        "Wounds", f"{severity!r} is not a wound ({', '.join(WOUND_DICE)})"
                    )
                fid = str(who_ref).split(".")[0]
                if fid not in state.factions:
                    raise _refuse("Wounds", f"{who_ref!r} is not a faction's leader or 2iC")
            payload.update(
                {
                    "target": target,
                    "outcome": str(params.get("outcome", "")),
                    "wounds": {str(k): str(v) for k, v in wounds.items()},
                }
            )
        events = [Event("scene.played", payload)]
        spent = sum(len(_scenes_of(state, faction.id, k)) for k in allowed) + 1
        if spent >= sum(allowed.values()):
            events.append(Event("scenes.passed", {"faction": faction.id, "spent": True}))
        return events

    def _do_health_test(
        self, state: KingdomsState, faction: Faction, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        _phase(state, "maneuver")
        who_key = str(params.get("character", "leader"))
        who = faction.character(who_key)
        key = f"{faction.id}.{who_key}"
        if key in state.wounded:
            raise _refuse(
                "Wound Recovery",
                f"{who.name} was wounded this maneuver and acts at the penalty until the next",
            )
        if key in state.health_tested:
            raise _refuse("Wound Recovery", f"{who.name} has made a Health test this maneuver")
        if not who.wound_dice and not who.superficial:
            raise _refuse("Wound Recovery", f"{who.name} has no wound to recover from")
        health = who.stat("Health")
        if health is None:
            raise _refuse("Wound Recovery", f"{who.name}'s sheet has no Health")
        ob = who.health_ob
        rolled = roll_before(health.exponent, health.shade, health.open_ended, dice)
        passed = rolled.successes >= ob
        after = who.wound_dice - 1 if passed and who.wound_dice else who.wound_dice
        superficial = who.superficial and not (passed and not who.wound_dice)
        return [
            Event(
                "health.tested",
                {
                    "faction": faction.id,
                    "character": who_key,
                    "ob": ob,
                    "odds": str(
                        obstacle_odds(BurningPool(health.exponent, health.shade), Artha(), ob)
                    ),
                    "successes": rolled.successes,
                    "passed": passed,
                    "wound_dice": after,
                    "superficial": superficial,
                    "roll": rolled.to_json(),
                },
            )
        ]

    def _do_pass(
        self, state: KingdomsState, faction: Faction, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        _phase(state, "maneuver")
        if faction.id in state.passed:
            raise _refuse("Spending Scenes", f"{faction.id} has already passed")
        return [Event("scenes.passed", {"faction": faction.id, "spent": False})]

    # the reveal

    def _do_reveal(
        self, state: KingdomsState, faction: Faction, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        _phase(state, "maneuver")
        rule = "Maneuver Resolution"
        waiting = [f for f in state.standing() if f not in state.passed]
        if waiting:
            raise _refuse(
                rule,
                f"the maneuver ends when every faction has spent or passed its "
                f"scenes; waiting for {', '.join(waiting)}",
            )
        missing = [f for f in state.acting() if f not in state.slips]
        if missing:
            raise _refuse(rule, f"no slip yet from {', '.join(missing)}")
        if faction.out:
            raise _refuse(rule, f"{faction.id} is out and cannot read the slips")
        order = _order_from(state, faction.id)
        void: dict[str, str] = {}
        for fid in order:
            slip = state.slips.get(fid)
            if slip is None:
                continue
            info = maneuver(slip.maneuver)
            if info.conflict == "required" and not _conflict_fulfilled(state, slip):
                void[fid] = (
                    f"{slip.maneuver} requires a conflict scene directed at "
                    f"{', '.join(slip.targets)}; none was"
                )
            elif slip.roller == "second" and not _second_may_roll(state, fid):
                void[fid] = (
                    "the 2iC substitutes only after making two thirds of the building "
                    "rolls or initiating the conflict scene"
                )
        help_given: dict[str, dict[str, int]] = {}
        help_refused: dict[str, str] = {}
        for fid in order:
            slip = state.slips.get(fid)
            if slip is None or slip.helps is None:
                continue
            helped = state.slips.get(slip.helps)
            if helped is None or slip.helps in void:
                help_refused[fid] = f"{slip.helps} has no maneuver to help"
            elif not _lent_help(state, fid, slip.helps):
                help_refused[fid] = (
                    f"{fid} and {slip.helps} lent each other no helping dice in "
                    "a scene this maneuver"
                )
            else:
                ability = state.factions[fid].leader.skill(helped.skill)
                if ability is None:
                    help_refused[fid] = f"{fid}'s leader has no {helped.skill} to help with"
                else:
                    help_given.setdefault(slip.helps, {})[fid] = help_dice(ability.exponent)
        events: list[Event] = [
            Event(
                "slips.revealed",
                {
                    "maneuver_number": state.maneuver,
                    "reader": faction.id,
                    "order": list(order),
                    "slips": {f: state.slips[f].to_json() for f in order if f in state.slips},
                    "cannot_act": [f for f in order if state.factions[f].cannot_act],
                    "void": void,
                    "help": help_given,
                    "help_refused": help_refused,
                },
            )
        ]
        for fid in order:
            slip = state.slips.get(fid)
            if slip is None or fid in void:
                continue
            cost = maneuver(slip.maneuver).cost
            if cost:
                value = max(0, state.factions[fid].disposition - cost)
                events.append(
                    Event(
                        "effect.applied",
                        {
                            "faction": fid,
                            "kind": "disposition",
                            "by": fid,
                            "amount": -cost,
                            "value": value,
                            "target": None,
                            "text": f"{fid} sacrifices {cost} disposition to announce "
                            f"its {slip.maneuver}",
                        },
                    )
                )
        pools: dict[str, tuple[BurningPool, int]] = {}
        rolled_events: list[Event] = []
        for fid in order:
            slip = state.slips.get(fid)
            if slip is None or fid in void:
                continue
            pool, who, exponent, notes = _pool_for(state, slip, help_given.get(fid, {}))
            n = _dice(state, slip, pool)
            if state.factions[fid].sapped and n == 0:
                notes.append("Sapped: may not roll")
            spent = {"persona": slip.persona, "deeds": int(slip.deeds_before)}
            payload: dict[str, Any] = {
                "faction": fid,
                "roller": slip.roller,
                "character": who.name,
                "maneuver": slip.maneuver,
                "skill": slip.skill,
                "exponent": exponent,
                "pool": pool.to_json(),
                "dice": n,
                "notes": notes,
                "artha": spent,
                "advantage_used": [
                    t for t in slip.targets if state.factions[fid].infiltrated.get(t, 0)
                ],
            }
            if slip.maneuver == "Harry":
                defence = min(slip.defence, n)
                first = roll_before(defence, pool.shade, pool.open_ended, dice)
                second = roll_before(n - defence, pool.shade, pool.open_ended, dice)
                payload.update(
                    {
                        "successes": first.successes,
                        "attack": second.successes,
                        "roll": first.to_json(),
                        "attack_roll": second.to_json(),
                        "defence_dice": defence,
                        "attack_dice": n - defence,
                    }
                )
                pools[fid] = (
                    replace(pool, exponent=defence, forks=0, helping=0, bonus=0, penalty=0),
                    n - defence,
                )
            else:
                first = roll_before(n, pool.shade, pool.open_ended, dice)
                payload.update({"successes": first.successes, "roll": first.to_json()})
                pools[fid] = (replace(pool, exponent=n, forks=0, helping=0, bonus=0, penalty=0), 0)
            rolled_events.append(Event("test.rolled", payload))
        odds = _odds(state, order, void, pools)
        events[0] = replace(events[0], payload={**events[0].payload, "odds": odds})
        return events + rolled_events

    # after the roll

    def _do_spend_artha(
        self, state: KingdomsState, faction: Faction, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        _phase(state, "rolled")
        test = state.rolls.get(faction.id)
        if test is None:
            raise _refuse("Artha", f"{faction.id} rolled no maneuver test")
        if test.decided:
            raise _refuse("Artha", f"{faction.id} has settled its roll")
        fate = bool(params.get("fate", False))
        deeds = bool(params.get("deeds", False))
        if not fate and not deeds:
            raise _refuse("Artha", "spend fate, deeds or both (or keep the roll)")
        who = state.factions[faction.id].character(test.roller)
        who.spend({"fate": int(fate), "deeds": int(deeds)})
        which = str(params.get("pool", "defence"))
        source = test.attack_pool if which == "attack" else test.pool
        if source is None:
            raise _refuse("Artha", "only a Harry has an attack pool")
        base = _pool_roll(source)
        after = spend_after(base, Artha(fate=fate, deeds_after=deeds), dice)
        key = "attack" if which == "attack" else "successes"
        return [
            Event(
                "artha.spent",
                {
                    "faction": faction.id,
                    "fate": fate,
                    "deeds": deeds,
                    "pool": which,
                    key: after.successes,
                    "roll": after.to_json(),
                },
            )
        ]

    def _do_keep(
        self, state: KingdomsState, faction: Faction, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        _phase(state, "rolled")
        test = state.rolls.get(faction.id)
        if test is None or test.decided:
            raise _refuse("Artha", f"{faction.id} has no roll waiting")
        return [Event("roll.kept", {"faction": faction.id})]

    def _do_tie_break(
        self, state: KingdomsState, faction: Faction, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        _phase(state, "rolled")
        rule = "Independent and Versus Maneuvers"
        opponent = str(params.get("opponent", ""))
        root = str(params.get("root", ""))
        ties = _ties(state)
        if frozenset((faction.id, opponent)) not in ties:
            raise _refuse(rule, f"{faction.id} and {opponent!r} have no tied versus test")
        test = state.rolls[faction.id]
        stat = state.factions[faction.id].character(test.roller).stat(root)
        if stat is None:
            raise _refuse(rule, f"no root stat {root!r} on {faction.id}'s roller")
        if (faction.id, opponent) in {(a, b) for a, (b, _) in state.tie_offers.items()}:
            raise _refuse(rule, f"{faction.id} has already agreed to the tie-breaker")
        events = [
            Event("tie_break.offered", {"faction": faction.id, "opponent": opponent, "root": root})
        ]
        theirs = state.tie_offers.get(opponent)
        if theirs is not None and theirs[0] == faction.id:
            other = state.factions[opponent].character(state.rolls[opponent].roller).stat(theirs[1])
            assert other is not None
            mine_roll = roll_before(stat.exponent, stat.shade, stat.open_ended, dice)
            their_roll = roll_before(other.exponent, other.shade, other.open_ended, dice)
            events.append(
                Event(
                    "tie_break.rolled",
                    {
                        "factions": [faction.id, opponent],
                        "extra": {faction.id: mine_roll.successes, opponent: their_roll.successes},
                        "rolls": {faction.id: mine_roll.to_json(), opponent: their_roll.to_json()},
                    },
                )
            )
        return events

    def _do_resolve(
        self, state: KingdomsState, faction: Faction, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        _phase(state, "rolled")
        if faction.id != state.reader:
            raise _refuse("Maneuver Resolution", f"the reader ({state.reader}) resolves the slips")
        open_rolls = [f for f, t in state.rolls.items() if not t.decided]
        if open_rolls:
            raise _refuse("Artha", f"waiting for {', '.join(open_rolls)} to keep or spend artha")
        entries = _entries(state)
        board = Board(
            order=state.order,
            disposition={f: x.disposition for f, x in state.factions.items()},
            cap=state.cap,
            circles={f: x.leader.circles for f, x in state.factions.items()},
        )
        result = resolve(entries, board)
        events = [
            Event("maneuver.resolved", {"maneuver_number": state.maneuver, **result.to_json()})
        ]
        events += [Event("effect.applied", e.to_json()) for e in result.effects]
        pending: dict[str, list[str]] = {}
        for defeated, candidates in result.conquerors.items():
            if len(candidates) == 1:
                attackers = result.attackers.get(defeated, {})
                why = (
                    "the attack that finished it off"
                    if len(attackers) == 1
                    else "the attacker with more successes"
                )
                events.append(
                    Event(
                        "conqueror.named",
                        {"defeated": defeated, "conqueror": candidates[0], "why": why},
                    )
                )
            elif candidates:
                pending[defeated] = list(candidates)
        standing = [f for f in state.standing() if f not in result.out]
        if len(standing) == 1:
            events.append(Event("chronicle.won", {"faction": standing[0]}))
        events.append(
            Event(
                "maneuver.ended", {"maneuver_number": state.maneuver, "pending_conquest": pending}
            )
        )
        return events

    # consequences

    def _do_choose_conqueror(
        self, state: KingdomsState, faction: Faction, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        _phase(state, "consequences")
        candidates = state.pending_conquest.get(faction.id)
        if candidates is None:
            raise _refuse("Consequences", f"{faction.id} has no tied conquerors to choose from")
        chosen = str(params.get("conqueror", ""))
        if chosen not in candidates:
            raise _refuse("Consequences", f"the conqueror is one of {', '.join(candidates)}")
        return [
            Event(
                "conqueror.named",
                {
                    "defeated": faction.id,
                    "conqueror": chosen,
                    "why": "chosen by the defeated player",
                },
            )
        ]

    def _do_join(
        self, state: KingdomsState, faction: Faction, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        if not faction.out:
            raise _refuse("Consequences", f"{faction.id} is still in contention")
        if faction.joined is not None:
            raise _refuse("Consequences", f"{faction.leader.name} has joined {faction.joined}")
        if faction.id in state.pending_conquest:
            raise _refuse("Consequences", "first choose who counts as the conqueror")
        new = str(params.get("faction", ""))
        if new not in state.factions or state.factions[new].out:
            raise _refuse("Consequences", f"{new!r} is not a faction still in contention")
        payload: dict[str, Any] = {
            "defeated": faction.id,
            "leader": faction.leader.name,
            "faction": new,
            "conqueror": faction.conqueror,
        }
        if faction.conqueror is not None and new != faction.conqueror:
            affiliations = dict(faction.leader.affiliations)
            highest = max(affiliations, key=lambda a: affiliations[a]) if affiliations else None
            payload.update(
                {
                    "resources_lost": faction.leader.resources,
                    "affiliation_lost": highest,
                    "affiliation_dice": affiliations.get(highest, 0) if highest else 0,
                    "cash_on_hand_to": faction.conqueror,
                }
            )
        return [Event("leader.joined", payload)]

    def _do_buy_affiliation(
        self, state: KingdomsState, faction: Faction, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        for other in state.factions.values():
            if (
                other.conqueror == faction.id
                and other.lost_affiliation is not None
                and not other.affiliation_bought
            ):
                return [
                    Event(
                        "affiliation.bought",
                        {
                            "faction": faction.id,
                            "from": other.id,
                            "affiliation": other.lost_affiliation,
                            "dice": other.lost_affiliation_dice,
                            "cash_spent": other.lost_resources,
                        },
                    )
                ]
        raise _refuse("Consequences", f"{faction.id} has no defeated foe's affiliation to buy")

    # downtime

    def _do_maintenance(
        self, state: KingdomsState, faction: Faction, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        _phase(state, "downtime", "consequences")
        if not faction.maintenance:
            raise _refuse("Downtime", f"{faction.id} owes no Resources maintenance test")
        extra = faction.maintenance[0]
        ob = state.maintenance_ob + extra
        exponent = faction.leader.resources
        rolled = roll_before(exponent, Shade.BLACK, False, dice)
        passed = rolled.successes >= ob
        kind = difficulty(exponent, ob)
        tax = 0
        if not passed:
            tax = {"routine": 1, "difficult": 2}.get(kind, ob - rolled.successes)
        return [
            Event(
                "maintenance.tested",
                {
                    "faction": faction.id,
                    "ob": ob,
                    "extra_ob": extra,
                    "dice": exponent,
                    "odds": str(obstacle_odds(BurningPool(exponent), Artha(), ob)),
                    "successes": rolled.successes,
                    "passed": passed,
                    "difficulty": kind,
                    "tax": tax,
                    "resources": max(0, exponent - tax),
                    "roll": rolled.to_json(),
                },
            )
        ]

    def _do_next_maneuver(
        self, state: KingdomsState, faction: Faction, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        _phase(state, "downtime")
        owing = [f for f in state.standing() if state.factions[f].maintenance]
        if owing:
            raise _refuse("Downtime", f"maintenance tests owed by {', '.join(owing)}")
        healed = [f for f in state.standing() if state.factions[f].earned_downtime]
        return [
            Event("maneuver.started", {"maneuver_number": state.maneuver + 1, "healed": healed})
        ]

    # -- evolve ----------------------------------------------------------------------------

    def evolve(self, state: KingdomsState, event: Event) -> KingdomsState:
        """Fold one event into the state."""
        data: dict[str, Any] = dict(event.data)
        kind = event.kind
        factions = dict(state.factions)

        def put(fid: str, **changes: Any) -> None:
            factions[fid] = replace(factions[fid], **changes)

        if kind == "prologue.rolled":
            fid = str(data["faction"])
            n = int(data["successes"])
            f = factions[fid]
            put(
                fid,
                prologue=n,
                disposition=f.disposition + n,
                starting_disposition=f.starting_disposition + n,
            )
            return replace(state, factions=factions)
        if kind == "prologue.ended":
            return replace(state, phase="maneuver", cap=int(data["cap"]))
        if kind == "session.started":
            return replace(state, session=int(data["session"]))
        if kind == "objective.set":
            put(str(data["faction"]), objective=str(data["objective"]))
            return replace(state, factions=factions)
        if kind == "slip.written":
            raw = data.get("slip")
            if not isinstance(raw, Mapping):
                return state
            slip = Slip.from_json(raw)
            return replace(state, slips={**state.slips, slip.faction: slip})
        if kind == "scene.played":
            scene = SceneRecord(
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
                f = factions[fid]
                ch = f.character(key)
                sev = str(severity)
                if sev == "superficial":
                    ch = replace(ch, superficial=True)
                else:
                    ch = replace(ch, wound_dice=ch.wound_dice + WOUND_DICE[sev])
                put(fid, **{key: ch})
            hurt = frozenset(
                f"{str(ref).partition('.')[0]}."
                f"{'second' if str(ref).endswith('.second') else 'leader'}"
                for ref in wounds
            )
            return replace(
                state,
                factions=factions,
                scenes=(*state.scenes, scene),
                wounded=state.wounded | hurt,
            )
        if kind == "scenes.passed":
            return replace(state, passed=state.passed | {str(data["faction"])})
        if kind == "health.tested":
            fid = str(data["faction"])
            key = str(data["character"])
            ch = replace(
                factions[fid].character(key),
                wound_dice=int(data["wound_dice"]),
                superficial=bool(data["superficial"]),
            )
            put(fid, **{key: ch})
            return replace(
                state, factions=factions, health_tested=state.health_tested | {f"{fid}.{key}"}
            )
        if kind == "slips.revealed":
            order = tuple(str(f) for f in data["order"])
            void = {str(k): str(v) for k, v in data["void"].items()}
            return replace(
                state, phase="rolled", reader=str(data["reader"]), order=order, void=void
            )
        if kind == "effect.applied":
            return _apply_effect(state, factions, data)
        if kind == "test.rolled":
            fid = str(data["faction"])
            slip = state.slips[fid]
            who = factions[fid].character(slip.roller)
            who = who.spend({"persona": slip.persona, "deeds": int(slip.deeds_before)})
            put(fid, **{slip.roller: who})
            used = [str(t) for t in data.get("advantage_used", ()) or ()]
            if used:
                put(
                    fid,
                    infiltrated={
                        k: (0 if k in used else v) for k, v in factions[fid].infiltrated.items()
                    },
                )
            test = RolledTest(
                faction=fid,
                roller=slip.roller,
                skill=slip.skill,
                exponent=int(data["exponent"]),
                successes=int(data["successes"]),
                attack=int(data.get("attack", 0) or 0),
                pool=dict(data["roll"]),
                attack_pool=dict(data["attack_roll"]) if data.get("attack_roll") else None,
                decided=not _can_spend_after(factions[fid].character(slip.roller)),
            )
            return replace(state, factions=factions, rolls={**state.rolls, fid: test})
        if kind == "artha.spent":
            fid = str(data["faction"])
            test = state.rolls[fid]
            who = (
                factions[fid]
                .character(test.roller)
                .spend({"fate": int(bool(data["fate"])), "deeds": int(bool(data["deeds"]))})
            )
            put(fid, **{test.roller: who})
            if data["pool"] == "attack":
                test = replace(test, attack=int(data["attack"]), attack_pool=dict(data["roll"]))
            else:
                test = replace(test, successes=int(data["successes"]), pool=dict(data["roll"]))
            test = replace(test, decided=True)  # after-the-roll artha settles the whole test
            return replace(state, factions=factions, rolls={**state.rolls, fid: test})
        if kind == "roll.kept":
            fid = str(data["faction"])
            return replace(
                state, rolls={**state.rolls, fid: replace(state.rolls[fid], decided=True)}
            )
        if kind == "tie_break.offered":
            return replace(
                state,
                tie_offers={
                    **state.tie_offers,
                    str(data["faction"]): (str(data["opponent"]), str(data["root"])),
                },
            )
        if kind == "tie_break.rolled":
            extra = data["extra"]
            assert isinstance(extra, Mapping)
            rolls = dict(state.rolls)
            for fid, n in extra.items():
                t = rolls[fid]
                rolls[fid] = replace(
                    t, successes=t.successes + int(n), tie_break={**t.tie_break, "extra": int(n)}
                )
            offers = {k: v for k, v in state.tie_offers.items() if k not in extra}
            return replace(state, rolls=rolls, tie_offers=offers)
        if kind == "maneuver.resolved":
            summary = {
                "maneuver": state.maneuver,
                "narrator": data.get("narrator"),
                "dispositions": data.get("dispositions"),
                "slips": {f: s.to_json() for f, s in state.slips.items()},
                "scenes": len(state.scenes),
            }
            return replace(state, history=(*state.history, summary))
        if kind == "conqueror.named":
            fid = str(data["defeated"])
            put(fid, conqueror=str(data["conqueror"]))
            pending = {k: v for k, v in state.pending_conquest.items() if k != fid}
            return replace(state, factions=factions, pending_conquest=pending)
        if kind == "chronicle.won":
            return replace(state, winner=str(data["faction"]))
        if kind == "maneuver.ended":
            pending_raw = data.get("pending_conquest") or {}
            assert isinstance(pending_raw, Mapping)
            pending = {str(k): tuple(str(c) for c in v) for k, v in pending_raw.items()}
            needs_join = any(f.out and f.joined is None for f in factions.values()) or pending
            phase = "over" if state.winner else "consequences" if needs_join else "downtime"
            return replace(state, phase=phase, pending_conquest=pending)
        if kind == "leader.joined":
            fid = str(data["defeated"])
            new = str(data["faction"])
            put(fid, joined=new)
            put(new, allies=(*factions[new].allies, fid))
            if data.get("resources_lost") is not None:
                lost = str(data["affiliation_lost"]) if data.get("affiliation_lost") else None
                leader = factions[fid].leader
                put(
                    fid,
                    lost_resources=int(data["resources_lost"]),
                    lost_affiliation=lost,
                    lost_affiliation_dice=int(data.get("affiliation_dice") or 0),
                )
                put(
                    fid,
                    leader=replace(
                        leader,
                        resources=0,
                        affiliations={k: v for k, v in leader.affiliations.items() if k != lost},
                    ),
                )
                heir = str(data["cash_on_hand_to"])
                hl = factions[heir].leader
                put(
                    heir,
                    leader=replace(hl, cash_on_hand=hl.cash_on_hand + int(data["resources_lost"])),
                )
            still = any(f.out and f.joined is None for f in factions.values())
            phase = state.phase
            if phase == "consequences" and not still and not state.pending_conquest:
                phase = "over" if state.winner else "downtime"
            return replace(state, factions=factions, phase=phase)
        if kind == "affiliation.bought":
            fid = str(data["faction"])
            leader = factions[fid].leader
            put(
                fid,
                leader=replace(
                    leader,
                    affiliations={
                        **leader.affiliations,
                        str(data["affiliation"]): int(data["dice"]),
                    },
                    cash_on_hand=max(0, leader.cash_on_hand - int(data["cash_spent"])),
                ),
            )
            put(str(data["from"]), affiliation_bought=True)
            return replace(state, factions=factions)
        if kind == "maintenance.tested":
            fid = str(data["faction"])
            f = factions[fid]
            put(
                fid,
                maintenance=f.maintenance[1:],
                leader=replace(f.leader, resources=int(data["resources"])),
            )
            return replace(state, factions=factions)
        if kind == "maneuver.started":
            healed = {str(h) for h in data.get("healed", ()) or ()}
            for fid, f in list(factions.items()):
                changes: dict[str, Any] = {
                    "sapped": f.next_sapped,
                    "cannot_act": f.next_cannot_act,
                    "next_sapped": 0,
                    "next_cannot_act": False,
                    "earned_downtime": False,
                }
                if fid in healed:
                    changes["leader"] = replace(f.leader, wound_dice=0, superficial=False)
                    if f.second is not None:
                        changes["second"] = replace(f.second, wound_dice=0, superficial=False)
                put(fid, **changes)
            return replace(
                state,
                factions=factions,
                phase="maneuver",
                maneuver=int(data["maneuver_number"]),
                slips={},
                scenes=(),
                passed=frozenset(),
                health_tested=frozenset(),
                wounded=frozenset(),
                reader=None,
                order=(),
                void={},
                rolls={},
                tie_offers={},
            )
        return state


def _can_spend_after(who: Character) -> bool:
    return who.artha.get("fate", 0) > 0 or who.artha.get("deeds", 0) > 0


def _pool_roll(data: Mapping[str, Any]) -> PoolRoll:
    stages = {str(k): tuple(int(f) for f in v) for k, v in data["stages"].items()}
    shade = int(Shade.parse(str(data["shade"])))
    faces = stages.get("pool", ())
    return PoolRoll(
        dice=int(data["dice"]),
        shade=shade,
        open_ended=bool(data["open_ended"]),
        successes=int(data["successes"]),
        stages=stages,
        failed=sum(1 for f in faces if f < shade),
        sixes=sum(1 for f in faces if f == 6),
    )


def _apply_effect(
    state: KingdomsState, factions: dict[str, Faction], data: Mapping[str, Any]
) -> KingdomsState:
    fid = str(data["faction"])
    kind = str(data["kind"])
    f = factions[fid]
    if kind == "disposition":
        factions[fid] = replace(f, disposition=int(data["value"]))
    elif kind == "out":
        factions[fid] = replace(f, out=True)
    elif kind == "assessed":
        factions[fid] = replace(f, assessed=f.assessed | {str(data["target"])})
    elif kind == "infiltrated":
        factions[fid] = replace(
            f, infiltrated={**f.infiltrated, str(data["target"]): int(data["amount"])}
        )
    elif kind == "sapped":
        factions[fid] = replace(f, next_sapped=max(f.next_sapped, int(data["amount"])))
    elif kind == "cannot_act":
        factions[fid] = replace(f, next_cannot_act=True)
    elif kind == "downtime":
        factions[fid] = replace(
            f, downtime_months=f.downtime_months + int(data["amount"]), earned_downtime=True
        )
    elif kind == "maintenance":
        tests = int(data.get("value") or 1)
        factions[fid] = replace(f, maintenance=f.maintenance + (int(data["amount"]),) * tests)
    return replace(state, factions=factions)


def _entries(state: KingdomsState) -> dict[str, Entry]:
    out: dict[str, Entry] = {}
    for fid, test in state.rolls.items():
        slip = state.slips[fid]
        who = state.factions[fid].character(test.roller)
        out[fid] = Entry(
            fid,
            slip.maneuver,
            slip.targets,
            test.successes,
            test.attack,
            test.exponent,
            slip.downtime,
            ob_penalty=1 if who.superficial else 0,
        )
    return out


def _ties(state: KingdomsState) -> set[frozenset[str]]:
    entries = _entries(state)
    board = Board(
        order=state.order,
        disposition={f: x.disposition for f, x in state.factions.items()},
        cap=state.cap,
    )
    return {
        frozenset((e.attacker, e.target))
        for e in engagements(entries, board)
        if e.kind == "versus" and e.successes == e.defence
    }


def _odds(
    state: KingdomsState,
    order: Sequence[str],
    void: Mapping[str, str],
    pools: Mapping[str, tuple[BurningPool, int]],
) -> list[dict[str, Any]]:
    """Each engagement's chance of success before the roll, with each after-the-roll artha."""
    entries = {
        f: Entry(
            f,
            state.slips[f].maneuver,
            state.slips[f].targets,
            exponent=(
                state.factions[f].character(state.slips[f].roller).skill(state.slips[f].skill)
                or _zero()
            ).exponent,
        )
        for f in order
        if f in state.slips and f not in void
    }
    board = Board(
        order=tuple(order),
        disposition={f: x.disposition for f, x in state.factions.items()},
        cap=state.cap,
        circles={f: x.leader.circles for f, x in state.factions.items()},
    )
    out: list[dict[str, Any]] = []
    for e in engagements(entries, board):
        mine, attack_dice = pools[e.attacker]
        attacker = replace(mine, exponent=attack_dice) if e.role == "harry" else mine
        who = state.factions[e.attacker].character(state.slips[e.attacker].roller)
        choices = [Artha()]
        if who.artha.get("fate", 0):
            choices.append(Artha(fate=True))
        if who.artha.get("deeds", 0):
            choices.append(Artha(deeds_after=True))
        row: dict[str, Any] = {
            "needed": e.needed if e.kind == "independent" else None,
            "attacker": e.attacker,
            "target": e.target,
            "kind": e.kind,
            "cell": e.cell,
            "dice": attacker.exponent,
        }
        chances: dict[str, str] = {}
        for artha in choices:
            if e.kind == "versus":
                defender_pool, defender_attack = pools[e.target]
                target_entry = entries[e.target]
                if target_entry.maneuver == "Harry" and e.cell != "-":
                    from referee.systems.kingdoms.tables import matrix

                    if matrix().cell("Harry", e.maneuver) == "aV":
                        defender_pool = replace(defender_pool, exponent=defender_attack)
                p: Fraction = versus_odds(attacker, defender_pool, artha)
                row["against_dice"] = defender_pool.exponent
            else:
                p = obstacle_odds(attacker, artha, e.needed)
                row["obstacle"] = e.obstacle
            chances[artha.label()] = str(p)
        row["chance"] = chances
        out.append(row)
    versus_targets = {e.target for e in engagements(entries, board) if e.kind == "versus"}
    for fid, entry in entries.items():
        if entry.maneuver == "Fortify" and fid not in versus_targets:
            pool, _ = pools[fid]
            # unopposed Fortify: Ob 2, and a margin (3 or more successes) to add disposition
            out.append(
                {
                    "needed": 3,
                    "attacker": fid,
                    "target": None,
                    "kind": "independent",
                    "cell": "-",
                    "dice": pool.exponent,
                    "obstacle": 2,
                    "chance": {Artha().label(): str(obstacle_odds(pool, Artha(), 3))},
                }
            )
    return out


PROCEDURE = KingdomsProcedure()
"""The procedure scenario files with ``system: kingdoms`` play."""

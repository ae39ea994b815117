"""The Zweihänder house rules at a table: one :class:`~referee.core.Procedure` for scenario files.

``system: zweihander``. The setup names the characters (see
:meth:`~referee.systems.zweihander.character.Character.from_setup`), the party's
``fortune_points``, the players' ``stables``, and optionally a ``journey`` (a route: travellers
and stretches). Actions, by kind:

==========================  ================================================================
``test``                    a Skill Test: ``skill`` (or ``chance``), ``difficulty``, ``assist``
``morale``                  ``resolve``, ``conditions``, ``leader_leadership`` (referee)
``chase.*``                 :mod:`.chase`
``journey.*``               :mod:`.wilderness`
``social.simple``           a Simple Exchange: ``skill``, ``npc_alignment``, ``npc_class``
``exchange.start``          a Complex Exchange: ``npc``, ``disposition``, ``npc_alignment``,
                            ``npc_class``, ``participants``, ``objectives``, ``stakes``,
                            ``favourable``, ``unfavourable`` (the last two secret; referee)
``exchange.tactic``         a Social Tactic Test: ``tactic``, ``burn_reputation``
``exchange.end``            reveals the Favourable and Unfavourable Skills (referee)
``madness``                 Resolve against ``situation`` (Stress, Fear, Terror)
``corruption``              ``character``, ``weight`` (minor/middling/major), ``points``
``session.end``             the end-of-session Corruption roll for every character
                            (``disorders``: the GM's choice per character, if needed)
``reputation.award``        ``character``, ``story_arc`` (1–3) (referee)
``requisition``             ``weight``, ``cost``, ``what``: once a day/week/month (timers)
``stable.reward``           ``player``, ``played``, ``reward``: half to the others
``travel.forced_march``     ``characters``: Hard Toughness, or Incapacitated! and no
                            recovery for 24 hours (a timer) (referee)
==========================  ================================================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from referee.core import (
    HOUR,
    REFEREE,
    REFEREE_ONLY,
    Action,
    ActorId,
    Event,
    Outcome,
    Procedure,
    RuleError,
    ScenarioError,
    Secret,
    Viewer,
    set_timer,
)
from referee.core.values import JsonObject
from referee.dice import DiceSource
from referee.systems.zweihander import chase as chase_rules
from referee.systems.zweihander import params as P
from referee.systems.zweihander import wilderness
from referee.systems.zweihander.character import INCAPACITATED, Character
from referee.systems.zweihander.emit import Emitter, test_json
from referee.systems.zweihander.madness import end_of_session, offence, withstand, withstand_test
from referee.systems.zweihander.morale import morale_check, morale_test
from referee.systems.zweihander.overland import forced_march_test
from referee.systems.zweihander.percentile import SkillTest, bump, difficulty, roll_peril
from referee.systems.zweihander.reputation import (
    THRESHOLDS,
    requisition,
    requisition_cost,
    story_arc_reward,
)
from referee.systems.zweihander.social import (
    disposition,
    exchange_outcome,
    simple_exchange_difficulty,
    tactic,
)
from referee.systems.zweihander.stable import check_stable, stable_rewards
from referee.systems.zweihander.state import (
    ExchangeState,
    ZweihanderState,
    apply_character_changes,
)
from referee.systems.zweihander.tables import overland_rules, social_table

__all__ = ["ZweihanderProcedure"]

REFEREE_ACTIONS = frozenset(
    {
        "morale",
        "chase.start",
        "chase.end_round",
        "journey.start",
        "journey.roles",
        "journey.toughness",
        "journey.camp",
        "journey.end_stretch",
        "journey.end",
        "exchange.start",
        "exchange.end",
        "session.end",
        "reputation.award",
        "corruption",
        "stable.reward",
        "travel.forced_march",
    }
)
"""Actions only the referee (the GM) takes."""


PARAMETERS: Mapping[str, frozenset[str]] = {
    kind: frozenset(names.split())
    for kind, names in {
        "test": "skill chance difficulty assist",
        "morale": "resolve conditions leader_leadership foes",
        "chase.start": "escapees pursuers head_start escape_condition takedown",
        "chase.move": "",
        "chase.action": "skill difficulty gain loss description",
        "chase.attack": "target skill difficulty damage_ranks",
        "chase.takedown": "condition",
        "chase.end_round": "",
        "chase.give_up": "side",
        "journey.start": "travellers stretches",
        "journey.roles": "guide survivalist scout assists",
        "journey.toughness": "",
        "journey.camp": "",
        "journey.end_stretch": "",
        "journey.end": "award_fortune",
        "travel.forced_march": "characters",
        "social.simple": "skill npc_alignment npc_class",
        "exchange.start": (
            "npc disposition npc_alignment npc_class participants objectives stakes "
            "favourable unfavourable"
        ),
        "exchange.tactic": "tactic burn_reputation",
        "exchange.end": "",
        "madness": "situation",
        "corruption": "character weight points offence",
        "session.end": "disorders characters",
        "reputation.award": "character story_arc",
        "requisition": "weight cost what",
        "stable.reward": "player played reward",
    }.items()
}
"""The parameters each action takes; any other is refused (a misspelt one is not ignored)."""


class ZweihanderProcedure(Procedure[ZweihanderState]):
    """The house rules as one state machine: tests, morale, chases, journeys, intrigue, madness."""

    # -- setup ------------------------------------------------------------------------------

    def initial_state(self, setup: Mapping[str, Any]) -> ZweihanderState:
        """Characters, Fortune Points and stables from ``setup``."""
        known = {"characters", "fortune_points", "stables", "journey"}
        for key in setup:
            if key not in known:
                raise ScenarioError(
                    f"unknown setup field (known: {', '.join(sorted(known))})", (key,)
                )
        chars = setup.get("characters", {})
        if not isinstance(chars, Mapping):
            raise ScenarioError("a mapping of character id to their sheet", ("characters",))
        characters = tuple(Character.from_setup(str(k), v or {}) for k, v in chars.items())
        fortune = setup.get("fortune_points", 0)
        if not isinstance(fortune, int) or isinstance(fortune, bool) or fortune < 0:
            raise ScenarioError(
                f"a whole number of at least 0, not {fortune!r}", ("fortune_points",)
            )
        state = ZweihanderState(characters=characters, fortune_points=fortune)
        stables_in = setup.get("stables", {})
        if not isinstance(stables_in, Mapping):
            raise ScenarioError("a mapping of player to their characters", ("stables",))
        stables: dict[str, tuple[str, ...]] = {}
        for player, members in stables_in.items():
            if not isinstance(members, list) or not all(isinstance(m, str) for m in members):
                raise ScenarioError("a list of character ids", ("stables", str(player)))
            try:
                check_stable(members)
                for m in members:
                    state.character(m)
            except RuleError as error:
                raise ScenarioError(error.reason, ("stables", str(player))) from None
            stables[str(player)] = tuple(members)
        state = replace(state, stables=stables)
        if "journey" in setup:
            route = setup["journey"]
            if not isinstance(route, Mapping):
                raise ScenarioError("a route: travellers and stretches", ("journey",))
            payload = wilderness.start_payload(state, route, ("journey",))
            state = wilderness.evolve(state, Event("journey.started", payload))
        return state

    def actors(self, state: ZweihanderState) -> Sequence[ActorId]:
        """The referee and every character."""
        return (REFEREE, *(c.id for c in state.characters))

    # -- actions ----------------------------------------------------------------------------

    def legal_actions(self, state: ZweihanderState, actor: ActorId) -> Sequence[Action]:
        """Representative actions for menus: the chase's next move, the journey's next step."""
        out: list[Action] = []
        chase = state.chase
        if chase is not None and chase.ended is None:
            nxt = next((x for x in chase.participants if x.is_in and not x.moved), None)
            if nxt is not None and nxt.id == actor:
                out.append(Action(actor, "chase.move"))
            if nxt is None and actor == REFEREE:
                out.append(Action(actor, "chase.end_round"))
            mine = [x for x in chase.participants if x.id == actor and x.is_in]
            if mine and mine[0].caught is not None:
                out.append(Action(actor, "chase.takedown"))
        j = state.journey
        if j is not None and not j.ended and actor == REFEREE:
            if j.phase == "roles":
                out.append(Action(actor, "journey.roles"))
            elif j.phase == "toughness" and j.toughness_tests_left > 0:
                out.append(Action(actor, "journey.toughness"))
            elif j.phase == "toughness":
                out.append(Action(actor, "journey.end_stretch"))
            else:
                out.append(Action(actor, "journey.end"))
        if actor != REFEREE and any(c.id == actor for c in state.characters):
            c = state.character(actor)
            out.extend(Action(actor, "test", {"skill": s}) for s in sorted(c.skills))
        return tuple(out)

    def decide(self, state: ZweihanderState, action: Action, dice: DiceSource) -> Sequence[Event]:
        """The events of ``action``; :class:`RuleError` when the rules refuse it."""
        kind = action.kind
        if kind not in PARAMETERS:
            raise RuleError("Zweihänder", f"no action {kind!r}")
        unknown = sorted(str(k) for k in action.params if k not in PARAMETERS[kind])
        if unknown:
            known = ", ".join(sorted(PARAMETERS[kind])) or "none"
            raise RuleError(kind, f"unknown parameter {unknown[0]!r} (known: {known})")
        if kind in REFEREE_ACTIONS and action.actor != REFEREE:
            raise RuleError(
                kind, f"only the referee (the GM) takes this action, not {action.actor!r}"
            )
        if kind.startswith("chase."):
            return chase_rules.decide(state, action, dice, self.evolve)
        if kind.startswith("journey."):
            return wilderness.decide(state, action, dice, self.evolve)
        handler = {
            "test": self._test,
            "morale": self._morale,
            "social.simple": self._simple,
            "exchange.start": self._exchange_start,
            "exchange.tactic": self._exchange_tactic,
            "exchange.end": self._exchange_end,
            "madness": self._madness,
            "corruption": self._corruption,
            "session.end": self._session_end,
            "reputation.award": self._reputation,
            "requisition": self._requisition,
            "stable.reward": self._stable,
            "travel.forced_march": self._forced_march,
        }.get(kind)
        if handler is None:
            raise RuleError("Zweihänder", f"no action {kind!r}")
        out = Emitter(state, self.evolve)
        handler(out, action, dice)
        return out.events

    def _test(self, out: Emitter, action: Action, dice: DiceSource) -> None:
        p: Mapping[str, Any] = action.params
        skill = str(p.get("skill", ""))
        if "chance" in p:
            chance = P.integer(p, "chance", "test", low=0)
        else:
            chance = out.state.character(action.actor).chance(P.text(p, "skill", "test"))
        test = SkillTest(
            chance, difficulty(p.get("difficulty", 0)), assist=P.boolean(p, "assist", "test")
        )
        result = test.roll(dice)
        out.emit("test.rolled", {"character": action.actor, **test_json(test, result, skill)})

    def _morale(self, out: Emitter, action: Action, dice: DiceSource) -> None:
        p: Mapping[str, Any] = action.params
        resolve = P.integer(p, "resolve", "morale", low=0)
        conditions = P.strings(p, "conditions", "morale")
        leader = p.get("leader_leadership")
        if leader is not None:
            leader = P.integer(p, "leader_leadership", "morale", low=0)
        test = morale_test(resolve, conditions)
        result = morale_check(resolve, conditions, dice, leader_leadership=leader)
        payload: dict[str, Any] = {
            "foes": str(p.get("foes", "the foes")),
            "conditions": list(conditions),
            "test": test_json(test, result.resolve, "Resolve"),
            "result": result.result,
            "gives_up": result.gives_up,
            "flees": result.flees,
            "inspired": result.inspired,
        }
        if result.leadership is not None:
            payload["leadership"] = test_json(
                SkillTest(leader or 0), result.leadership, "Leadership"
            )
        out.emit("morale.checked", payload)

    # -- social -----------------------------------------------------------------------------

    def _difficulty(self, c: Character, alignment: str, npc_class: str) -> int:
        return simple_exchange_difficulty(
            alignment,
            pc_order_ranks=c.order_ranks,
            pc_chaos_ranks=c.chaos_ranks,
            same_class=c.social_class.lower() == npc_class.lower(),
        )

    def _simple(self, out: Emitter, action: Action, dice: DiceSource) -> None:
        p: Mapping[str, Any] = action.params
        c = out.state.character(action.actor)
        skill = P.text(p, "skill", "social.simple")
        dr = self._difficulty(
            c,
            P.text(p, "npc_alignment", "social.simple"),
            P.text(p, "npc_class", "social.simple", ""),
        )
        test = SkillTest(c.chance(skill), dr)
        result = test.roll(dice)
        payload: dict[str, Any] = {"character": c.id, "test": test_json(test, result, skill)}
        after = c
        if result.outcome is Outcome.CRITICAL_FAILURE:
            peril, faces = roll_peril(str(social_table()["critical_failure_peril"]), dice)
            after = c.suffer_peril(peril)
            payload.update(mental_peril=peril, peril_faces=list(faces))
        out.emit("social.simple_exchange", payload, characters=[after])

    def _exchange_start(self, out: Emitter, action: Action, dice: DiceSource) -> None:
        p: Mapping[str, Any] = action.params
        if out.state.exchange is not None and not out.state.exchange.ended:
            raise RuleError("exchange.start", "a Complex Exchange is already under way")
        participants = P.strings(p, "participants", "exchange.start")
        if not participants:
            raise RuleError("exchange.start", "name the participating characters")
        for who in participants:
            out.state.character(who)
        fav = tactic(P.text(p, "favourable", "exchange.start"))
        unfav = tactic(P.text(p, "unfavourable", "exchange.start"))
        if fav == unfav:
            raise RuleError("exchange.start", "the Favourable and Unfavourable Skills differ")
        alignment = P.text(p, "npc_alignment", "exchange.start")
        simple_exchange_difficulty(alignment, pc_order_ranks=0, pc_chaos_ranks=0, same_class=True)
        out.emit(
            "exchange.started",
            {
                "npc": P.text(p, "npc", "exchange.start"),
                "disposition": disposition(P.text(p, "disposition", "exchange.start")),
                "npc_alignment": alignment,
                "npc_class": P.text(p, "npc_class", "exchange.start", ""),
                "participants": list(participants),
                "objectives": str(p.get("objectives", "")),
                "stakes": str(p.get("stakes", "")),
            },
            secrets=(
                Secret("favourable", fav, REFEREE_ONLY),
                Secret("unfavourable", unfav, REFEREE_ONLY),
            ),
        )

    def _exchange_tactic(self, out: Emitter, action: Action, dice: DiceSource) -> None:
        ex = out.state.exchange
        if ex is None or ex.ended:
            raise RuleError("exchange.tactic", "no Complex Exchange is under way")
        who = action.actor
        if who not in ex.participants:
            raise RuleError("exchange.tactic", f"{who} is not taking part in the exchange")
        if who in ex.tested:
            raise RuleError("exchange.tactic", f"{who} has already made their Social Tactic Test")
        p: Mapping[str, Any] = action.params
        chosen = tactic(P.text(p, "tactic", "exchange.tactic"))
        c = out.state.character(who)
        burn = P.boolean(p, "burn_reputation", "exchange.tactic")
        if burn and c.reputation < 1:
            raise RuleError(
                "exchange.tactic (Reputation)", f"{who} has no Reputation Point to burn"
            )
        skill = "Rumor" if chosen == "Rumour" and "Rumor" in c.skills else chosen
        chance = c.chance(skill)
        test = SkillTest(chance, self._difficulty(c, ex.npc_alignment, ex.npc_class), assist=burn)
        result = test.roll(dice)
        outcome = bump(
            result.outcome,
            favourable=chosen == ex.favourable,
            unfavourable=chosen == ex.unfavourable,
        )
        read_as, words = exchange_outcome(chosen, ex.disposition, outcome)
        after = replace(c, reputation=c.reputation - 1) if burn else c
        payload: dict[str, Any] = {
            "character": who,
            "tactic": chosen,
            "test": test_json(test, result, chosen),
            "outcome": outcome.value,
            "disposition_read_as": read_as,
            "result": words,
            "burned_reputation": burn,
        }
        fortune = 0
        if outcome is Outcome.CRITICAL_SUCCESS:
            fortune = 1
        if outcome is Outcome.CRITICAL_FAILURE:
            peril, faces = roll_peril(str(social_table()["critical_failure_peril"]), dice)
            after = after.suffer_peril(peril)
            payload.update(mental_peril=peril, peril_faces=list(faces))
        payload["fortune_points"] = fortune
        # Always a secret part, null when nothing bumped the result: that a part is hidden
        # must not itself tell a player that this Skill was one of the GM's.
        bumped_by = None
        if outcome is not result.outcome:
            bumped_by = "favourable" if outcome.is_success else "unfavourable"
        secrets = (Secret("bumped_by", bumped_by, REFEREE_ONLY),)
        out.emit("exchange.tactic_tested", payload, characters=[after], secrets=secrets)

    def _exchange_end(self, out: Emitter, action: Action, dice: DiceSource) -> None:
        ex = out.state.exchange
        if ex is None or ex.ended:
            raise RuleError("exchange.end", "no Complex Exchange is under way")
        out.emit(
            "exchange.ended",
            {
                "npc": ex.npc,
                "favourable": ex.favourable,
                "unfavourable": ex.unfavourable,
                "results": {k: v for k, v in ex.results},
            },
        )

    # -- madness, corruption, reputation ---------------------------------------------------------

    def _madness(self, out: Emitter, action: Action, dice: DiceSource) -> None:
        c = out.state.character(action.actor)
        situation = P.text(action.params, "situation", "madness")
        r = withstand(c, situation, dice)
        test = withstand_test(c.chance("Resolve"), situation)
        out.emit(
            "madness.withstood",
            {
                "character": c.id,
                "situation": r.situation,
                "test": test_json(test, r.test, "Resolve"),
                "mental_peril": r.mental_peril,
                "peril_faces": list(r.peril_faces),
                "corruption": r.corruption,
            },
            characters=[r.character],
        )

    def _corruption(self, out: Emitter, action: Action, dice: DiceSource) -> None:
        p: Mapping[str, Any] = action.params
        c = out.state.character(P.text(p, "character", "corruption"))
        weight = P.text(p, "weight", "corruption")
        given = P.integer(p, "points", "corruption") if "points" in p else None
        pts = offence(weight, given)
        out.emit(
            "corruption.gained",
            {
                "character": c.id,
                "offence": str(p.get("offence", "")),
                "weight": weight,
                "points": pts,
            },
            characters=[replace(c, corruption=c.corruption + pts)],
        )

    def _session_end(self, out: Emitter, action: Action, dice: DiceSource) -> None:
        chosen = P.mapping(action.params, "disorders", "session.end")
        only = P.strings(action.params, "characters", "session.end")
        for cid in (*chosen, *only):
            out.state.character(str(cid))  # refuses a character nobody plays
        for c in out.state.characters:
            if only and c.id not in only:
                continue
            name = chosen.get(c.id)
            end = end_of_session(c, dice, None if name is None else str(name))
            out.emit(
                "corruption.resolved",
                {
                    "character": c.id,
                    "corruption": end.corruption,
                    "corruption_die": end.corruption_die,
                    "order_gained": end.order_gained,
                    "chaos_gained": end.chaos_gained,
                    "fate_point": end.fate_point,
                    "disorder": end.disorder,
                },
                characters=[end.character],
            )

    def _reputation(self, out: Emitter, action: Action, dice: DiceSource) -> None:
        p: Mapping[str, Any] = action.params
        c = out.state.character(P.text(p, "character", "reputation.award"))
        pts = story_arc_reward(P.integer(p, "story_arc", "reputation.award"))
        out.emit(
            "reputation.awarded",
            {"character": c.id, "story_arc": pts},
            characters=[replace(c, reputation=c.reputation + pts)],
        )

    def _requisition(self, out: Emitter, action: Action, dice: DiceSource) -> None:
        p: Mapping[str, Any] = action.params
        c = out.state.character(action.actor)
        weight = P.text(p, "weight", "requisition")
        row = requisition(weight)
        given = P.integer(p, "cost", "requisition") if "cost" in p else None
        cost = requisition_cost(weight, given)
        key = f"{c.id}:{weight}"
        if key in out.state.requisitions_pending:
            raise RuleError(
                "Requisitions (threshold)",
                f"{c.id} may make a {weight} requisition once a {row.threshold}",
            )
        if c.reputation < cost:
            raise RuleError("Requisitions", f"{c.id} has {c.reputation} Reputation, needs {cost}")
        out.emit(
            "requisition.made",
            {
                "character": c.id,
                "weight": weight,
                "cost": cost,
                "what": str(p.get("what", "")),
            },
            characters=[replace(c, reputation=c.reputation - cost)],
        )
        timer = set_timer(
            f"requisition:{key}",
            Event("requisition.available", {"character": c.id, "weight": weight}),
            after=THRESHOLDS[row.threshold],
        )
        out.events.append(timer)

    def _stable(self, out: Emitter, action: Action, dice: DiceSource) -> None:
        p: Mapping[str, Any] = action.params
        player = P.text(p, "player", "stable.reward")
        if player not in out.state.stables:
            raise RuleError("Character stable", f"no stable for player {player!r}")
        members = out.state.stables[player]
        rewards = stable_rewards(
            members,
            P.text(p, "played", "stable.reward"),
            P.integer(p, "reward", "stable.reward", low=0),
        )
        changed = [
            replace(out.state.character(m), reward_points=out.state.character(m).reward_points + r)
            for m, r in rewards.items()
        ]
        out.emit("stable.rewarded", {"player": player, "rewards": rewards}, characters=changed)

    def _forced_march(self, out: Emitter, action: Action, dice: DiceSource) -> None:
        who = P.strings(action.params, "characters", "travel.forced_march")
        if not who:
            raise RuleError("travel.forced_march", "name the marching characters")
        hours = overland_rules()["forced_march_recovery_hours"]
        for cid in who:
            c = out.state.character(cid)
            test = forced_march_test(c.chance("Toughness"))
            result = test.roll(dice)
            after = c if result.is_success else replace(c, peril=INCAPACITATED)
            out.emit(
                "travel.forced_march",
                {
                    "character": cid,
                    "test": test_json(test, result, "Toughness"),
                    "incapacitated": not result.is_success,
                    "extra_miles": overland_rules()["forced_march"],
                },
                characters=[after],
            )
            if not result.is_success:
                out.events.append(
                    set_timer(
                        f"forced-march:{cid}",
                        Event("travel.recovery_allowed", {"character": cid}),
                        after=hours * HOUR,
                    )
                )

    # -- the fold ---------------------------------------------------------------------------

    def evolve(self, state: ZweihanderState, event: Event) -> ZweihanderState:
        """Fold any event: character changes first, then the scene's own state."""
        d = event.data
        if "characters" in d:
            state = apply_character_changes(state, d["characters"])
        kind = event.kind
        if kind in chase_rules.KINDS:
            return chase_rules.evolve(state, event)
        if kind in wilderness.KINDS:
            return wilderness.evolve(state, event)
        if kind == "exchange.started":
            fav, unfav = d.get("favourable"), d.get("unfavourable")
            return replace(
                state,
                exchange=ExchangeState(
                    npc=str(d["npc"]),
                    disposition=str(d["disposition"]),
                    npc_alignment=str(d["npc_alignment"]),
                    npc_class=str(d["npc_class"]),
                    participants=tuple(str(x) for x in _items(d["participants"])),
                    objectives=str(d.get("objectives", "")),
                    stakes=str(d.get("stakes", "")),
                    favourable=None if fav is None else str(fav),
                    unfavourable=None if unfav is None else str(unfav),
                ),
            )
        if kind == "exchange.tactic_tested" and state.exchange is not None:
            ex = state.exchange
            who = str(d["character"])
            state = replace(
                state,
                exchange=replace(
                    ex, tested=(*ex.tested, who), results=(*ex.results, (who, str(d["result"])))
                ),
            )
            return replace(
                state, fortune_points=state.fortune_points + int(str(d["fortune_points"]))
            )
        if kind == "exchange.ended" and state.exchange is not None:
            return replace(state, exchange=replace(state.exchange, ended=True))
        if kind == "travel.forced_march" and d.get("incapacitated"):
            return replace(state, no_recovery=(*state.no_recovery, str(d["character"])))
        if kind == "travel.recovery_allowed":
            who = str(d["character"])
            return replace(state, no_recovery=tuple(c for c in state.no_recovery if c != who))
        if kind == "requisition.made":
            key = f"{d['character']}:{d['weight']}"
            return replace(state, requisitions_pending=(*state.requisitions_pending, key))
        if kind == "requisition.available":
            key = f"{d['character']}:{d['weight']}"
            return replace(
                state, requisitions_pending=tuple(k for k in state.requisitions_pending if k != key)
            )
        return state

    # -- views ------------------------------------------------------------------------------

    def state_json(self, state: ZweihanderState) -> JsonObject:
        """The whole state, characters keyed by id (what ``expect: path`` reads)."""
        from referee.core.values import to_json

        data = to_json(state)
        data["characters"] = {c["id"]: c for c in data["characters"]}
        for c in data["characters"].values():
            c["peril_condition"] = _track_name("peril", c["peril"])
            c["damage_condition"] = _track_name("damage", c["damage"])
        if state.chase is not None:
            data["chase"]["participants"] = {x["id"]: x for x in data["chase"]["participants"]}
            data["chase"]["ladder"] = [x.id for x in state.chase.participants]
        return data  # type: ignore[no-any-return]

    def visible_state(self, state: ZweihanderState, viewer: Viewer) -> JsonObject | None:
        """The whole state for the referee; for others, everything but the GM's secret Skills
        (before the exchange ends)."""
        data = dict(self.state_json(state))
        if viewer.is_referee:
            return data
        ex = data.get("exchange")
        if isinstance(ex, Mapping) and not ex.get("ended"):
            data["exchange"] = {
                k: v for k, v in ex.items() if k not in ("favourable", "unfavourable")
            }
        return data


def _items(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def _track_name(track: str, step: Any) -> str:
    from referee.systems.zweihander.character import DAMAGE_TRACK, PERIL_TRACK

    names = PERIL_TRACK if track == "peril" else DAMAGE_TRACK
    return names[int(step)]

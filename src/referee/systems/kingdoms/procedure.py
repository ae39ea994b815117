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
from typing import Any

from referee.core import (
    EVERYONE,
    Action,
    ActorId,
    Choice,
    Event,
    NoParams,
    OddsPreview,
    Procedure,
    Result,
    RollCard,
    RuleError,
    ScenarioError,
    Secret,
    Viewer,
    only,
    to_json,
)
from referee.core.fairness import seal, unseal
from referee.core.naming import possessive, with_names
from referee.core.values import JsonObject
from referee.dice import DiceSource
from referee.systems.kingdoms.actions import (
    CATALOGUE,
    ChooseConqueror,
    HealthTest,
    Join,
    Objective,
    Prologue,
    Scene,
    SpendArtha,
    TieBreak,
    WriteSlip,
)
from referee.systems.kingdoms.cards import after_card, pool_card
from referee.systems.kingdoms.choices import after_preview, choices_for, has_a_move
from referee.systems.kingdoms.chronicle import check_sheets, faction_from
from referee.systems.kingdoms.dice import (
    WOUND_DICE,
    Artha,
    BurningPool,
    BurningTest,
    BurningVersus,
    artha_buys_nothing,
    difficulty,
    help_dice,
    roll_before,
    spend_after,
    success_distribution,
    versus_odds,
)
from referee.systems.kingdoms.events import (
    AFFILIATION_BOUGHT,
    ARTHA_SPENT,
    CHRONICLE_BEGAN,
    CHRONICLE_ENDED,
    CHRONICLE_WON,
    CONQUEROR_NAMED,
    EFFECT_APPLIED,
    HEALTH_TESTED,
    LEADER_JOINED,
    MAINTENANCE_TESTED,
    MANEUVER_ENDED,
    MANEUVER_RESOLVED,
    MANEUVER_STARTED,
    OBJECTIVE_SET,
    PROLOGUE_ENDED,
    PROLOGUE_ROLLED,
    ROLL_KEPT,
    SCENE_PLAYED,
    SCENES_PASSED,
    SESSION_STARTED,
    SLIP_WRITTEN,
    SLIPS_REVEALED,
    TEST_ROLLED,
    TIE_BREAK_OFFERED,
    TIE_BREAK_ROLLED,
    describe,
)
from referee.systems.kingdoms.fold import fold
from referee.systems.kingdoms.resolution import (
    Board,
    resolve,
)
from referee.systems.kingdoms.scripting import (
    conflict_fulfilled,
    dice_rolled,
    entries_of,
    faction_of,
    lent_help,
    order_from,
    pool_for,
    pool_roll_from,
    refuse,
    require_phase,
    reveal_odds,
    scenes_of,
    second_may_roll,
    slip_from,
    tied_pools,
    ties_of,
    versus_targets,
)
from referee.systems.kingdoms.setup import check_setup
from referee.systems.kingdoms.sheets import Character
from referee.systems.kingdoms.state import (
    Faction,
    KingdomsState,
    Slip,
)
from referee.systems.kingdoms.tables import maneuver, setup_tables

__all__ = ["PROCEDURE", "KingdomsProcedure", "opening"]

RESOLUTION = "Maneuver Resolution"


# ---------------------------------------------------------------------------------- procedure


def names_of(state: KingdomsState) -> dict[str, str]:
    """Each faction's name from the set-up, by id, where it has one of its own ("the Elves"):
    what the log says (an event carries the names of the factions it mentions)."""
    return {fid: f.name for fid, f in state.factions.items() if f.name != fid}


def _name(state: KingdomsState, fid: str) -> str:
    """The faction ``fid`` by its name from the set-up (its id where it has none)."""
    faction = state.factions.get(fid)
    return faction.name if faction is not None else fid


def opening(state: KingdomsState) -> dict[str, Any]:
    """The public set-up of the chronicle: the territory and, for each faction in seat order,
    its leader (and 2iC), their sheets' abilities, and its disposition."""

    def sheet(who: Any) -> dict[str, Any]:
        return {"name": who.name, "skills": sorted(who.skills), "stats": sorted(who.stats)}

    return {
        "territory": state.territory,
        "factions": {
            fid: {
                "name": f.name,
                "leader": f.leader.name,
                "disposition": f.disposition,
                "sheets": [sheet(f.leader)] + ([sheet(f.second)] if f.second else []),
            }
            for fid, f in state.factions.items()
        },
    }


def _whole(setup: Mapping[str, Any], key: str, default: int | None, least: int) -> int | None:
    """A set-up's whole number ``key`` (at least ``least``), or a ScenarioError naming it."""
    value = setup.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ScenarioError(f"a whole number of {least} or more, not {value!r}", (key,))
    return value


def slip_choice(maneuver_number: int, faction: str) -> str:
    """The name a faction's slip is sealed under: one per faction and maneuver."""
    return f"maneuver {maneuver_number}: the slip of {faction}"


def _slip_to_write(state: KingdomsState, faction: Faction, params: WriteSlip) -> Slip:
    """The slip ``faction`` would seal with ``params`` now, or the rule that refuses it."""
    require_phase(state, "maneuver")
    if faction.out:
        raise refuse("Consequences", f"{faction.id} is out of contention")
    if faction.cannot_act:
        raise refuse("Maneuvers", f"{faction.id} cannot act this maneuver and scripts nothing")
    if state.scenes:
        # "Maneuver": "At the beginning of each Maneuver, players decide their faction's
        # intent, declare it privately" (audit W1)
        raise refuse(
            "Maneuver",
            f"the slips are fixed once the maneuver's first scene is played; {faction.id} "
            "declares its intent at the beginning of the maneuver",
        )
    return slip_from(state, faction, params)


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


def successes_preview(pool: BurningPool, label: str, rule: str) -> OddsPreview:
    """The chance of each number of successes ``pool`` rolls (open-ended: the top bucket is
    that many or more): a test whose obstacle is not known yet (a versus test's opponent)."""
    top = pool.dice + 3 if pool.open_ended else pool.dice
    chances = success_distribution(pool.dice, pool.shade, pool.open_ended, cap=max(top, 0))
    plus = "+" if pool.open_ended else ""
    return OddsPreview(
        label,
        rule,
        f"{pool.dice}d6 {pool.shade.letter}{' open-ended' if pool.open_ended else ''}",
        {
            f"{k}{plus if k == top else ''} success{'' if k == 1 else 'es'}": str(p)
            for k, p in chances.items()
        },
    )


def _offered(choices: Sequence[Choice], kind: str, params: Mapping[str, Any]) -> bool:
    """True if a choice of ``kind`` allows every parameter given (a parameter left out takes
    its default; the rules, not the domains, judge the whole)."""
    return any(
        c.kind == kind
        and all(name not in params or d.contains(params[name]) for name, d in c.params.items())
        for c in choices
    )


def _slip_odds(state: KingdomsState, slip: Slip) -> tuple[OddsPreview, ...]:
    """The odds of ``slip``'s maneuver test as the reveal rolls it (before any help)."""
    pool, _, _, _ = pool_for(state, slip, {})
    n = dice_rolled(state, slip, pool)
    rolled = replace(pool, exponent=n, forks=0, helping=0, bonus=0, penalty=0)
    label = f"{_name(state, slip.faction)}: {slip.maneuver} with {slip.skill}"
    info = maneuver(slip.maneuver)
    if slip.maneuver == "Harry":
        defence = min(slip.defence, n)
        return (
            successes_preview(
                replace(rolled, exponent=defence), f"{label}: defence dice", RESOLUTION
            ),
            successes_preview(
                replace(rolled, exponent=n - defence), f"{label}: attack dice", RESOLUTION
            ),
        )
    out = [successes_preview(rolled, label, RESOLUTION)]
    if isinstance(info.independent_ob, int):
        who = state.factions[slip.faction].character(slip.roller)
        test = BurningTest(rolled, info.independent_ob + (1 if who.superficial else 0))
        when = "if nobody attacks" if slip.maneuver == "Fortify" else "if independent"
        out.insert(0, OddsPreview.of(test.kernel or test, f"{label}, {when}", rule=slip.maneuver))
    return tuple(out)


def _tie_break_odds(
    state: KingdomsState, faction: Faction, params: TieBreak
) -> tuple[OddsPreview, ...]:
    """The tie-breaker's odds: this root stat against the root the opponent agreed to — or,
    before the opponent has agreed (nothing is rolled until both do), against each root stat
    its roller may choose, one preview each: the very versus test ``tie_break`` rolls."""
    test = state.rolls.get(faction.id)
    other_test = state.rolls.get(params.opponent)
    if test is None or other_test is None:
        return ()
    stat = faction.character(test.roller).stat(params.root)
    if stat is None:
        return ()
    theirs = state.tie_offers.get(params.opponent)
    agreed = theirs is not None and theirs[0] == faction.id
    roller = state.factions[params.opponent].character(other_test.roller)
    roots = (theirs[1],) if agreed and theirs is not None else tuple(roller.stats)
    mine = BurningPool(stat.exponent, stat.shade, open_ended=stat.open_ended)
    out: list[OddsPreview] = []
    for root in roots:
        other = roller.stat(root)
        if other is None:
            continue
        check = BurningVersus(
            mine, BurningPool(other.exponent, other.shade, open_ended=other.open_ended)
        )
        label = (
            f"{_name(state, faction.id)}: tie-breaker on {params.root} against "
            f"{possessive(_name(state, params.opponent))} {root}"
        )
        if not agreed:
            label += f", if {_name(state, params.opponent)} agree on {root}"
        out.append(
            OddsPreview.of(check.kernel or check, label, rule="Independent and Versus Maneuvers")
        )
    return tuple(out)


class KingdomsProcedure(Procedure[KingdomsState]):
    """Burning Kingdoms: prologue, maneuvers (slips, scenes, reveal, resolution), consequences
    and downtime (burning-kingdoms.txt; RULINGS.md, Burning Kingdoms)."""

    catalogue = CATALOGUE
    has_referee = False

    # -- set-up --------------------------------------------------------------------------

    def initial_state(self, setup: Mapping[str, Any]) -> KingdomsState:
        """From ``setup``: ``territory``, ``factions`` (in seat order), ``prologue`` (true to
        play it), ``players``, ``maneuver``, ``cap``, ``maintenance_ob``, ``strict_sheets``,
        ``attacked_first_fulfils`` (the optional conflict rule, on by default)."""
        check_setup(setup)
        factions_data = setup.get("factions")
        if not isinstance(factions_data, Mapping) or not factions_data:
            raise ScenarioError("a chronicle needs factions", ("factions",))
        players = _whole(setup, "players", None, 1)
        count = len(factions_data)
        factions: dict[str, Faction] = {}
        for fid, data in factions_data.items():
            try:
                factions[str(fid)] = faction_from(str(fid), data, count, players)
            except (RuleError, KeyError, TypeError, ValueError, AttributeError) as error:
                if isinstance(error, ScenarioError):
                    raise
                raise ScenarioError(str(error), ("factions", str(fid))) from None
        prologue = bool(setup.get("prologue", False))
        top = max(f.disposition for f in factions.values())
        state = KingdomsState(
            territory=str(setup.get("territory", "")),
            factions=factions,
            phase="prologue" if prologue else "maneuver",
            maneuver=_whole(setup, "maneuver", 1, 1) or 1,
            cap=0 if prologue else _whole(setup, "cap", top, 0) or 0,
            players=players if players is not None else count,
            maintenance_ob=_whole(setup, "maintenance_ob", 1, 0) or 0,
            attacked_first_fulfils=bool(setup.get("attacked_first_fulfils", True)),
        )
        check_sheets(state, bool(setup.get("strict_sheets", False)))
        return state

    def actors(self, state: KingdomsState) -> Sequence[ActorId]:
        """Whose move it is: the factions with something to do now (a slip or scenes to play,
        a roll to settle, the slips to resolve, a conqueror to name, a faction to join, a
        maintenance test owed...), in seat order."""
        return tuple(f for f in state.factions if has_a_move(state, f))

    def characters(self, state: KingdomsState) -> Sequence[ActorId]:
        """Every faction at the table, in seat order: a seat each unless ``players:`` says."""
        return tuple(state.factions)

    def legal_actions(self, state: KingdomsState, actor: ActorId) -> Sequence[Choice]:
        """What ``actor`` may do now, each parameter with its domain (:mod:`.choices`)."""
        return choices_for(state, actor)

    def odds_of(self, state: KingdomsState, action: Action, viewer: Viewer) -> Sequence[Any]:
        """The odds of what ``action`` would roll with its parameters as given, from the very
        pools :meth:`decide` rolls:

        - ``write_slip``: the maneuver test's pool with this skill, FoRKs, Persona and Deeds
          (no helpers yet: help is settled at the reveal) — against its stated Ob where the
          maneuver has one (Assess, Fortify), and the chance of each number of successes (a
          versus test's opponent stays sealed until the reveal, so no slip but the faction's
          own is read);
        - ``scene`` (building): this skill or stat against this Ob;
        - ``tie_break``: this root stat against the root the opponent agreed to, or, before
          it has agreed, against each root stat it may choose;
        - ``spend_artha`` and ``keep``: the successes the roll ends with, from the faces
          showing (after this Fate and/or Deeds; kept, as it stands);
        - ``prologue``: the chance of each number of successes with this skill.

        An action the rules would refuse has none. Other kinds: the odds their choice carries.
        """
        faction = state.factions.get(action.actor)
        params = dict(action.params)
        if faction is None or not _offered(
            self.legal_actions(state, action.actor), action.kind, params
        ):
            return ()
        kind = action.kind
        if kind == "write_slip":
            return _slip_odds(state, _slip_to_write(state, faction, CATALOGUE[kind].of(action)))
        if kind == "scene":
            scene = CATALOGUE[kind].of(action)
            if scene.kind != "building":
                return ()
            who = faction.character(scene.by) if scene.by in ("leader", "second") else None
            if who is None:
                return ()
            test = building_test(who, scene)
            label = f"{who.name}'s building scene: {scene.skill}"
            return (OddsPreview.of(test.kernel or test, label, rule="Building Scenes"),)
        if kind == "tie_break":
            return _tie_break_odds(state, faction, CATALOGUE[kind].of(action))
        if kind in ("spend_artha", "keep"):
            roll = state.rolls.get(faction.id)
            if roll is None or roll.decided:
                return ()
            if kind == "keep":
                pools = ("defence", "attack") if roll.attack_pool is not None else ("defence",)
                return tuple(
                    after_preview(faction.id, roll, fate=False, deeds=False, pool=p) for p in pools
                )
            spend = CATALOGUE[kind].of(action)
            fate, deeds = spend.fate, spend.deeds
            return (after_preview(faction.id, roll, fate=fate, deeds=deeds, pool=spend.pool),)
        if kind == "prologue":
            skill = CATALOGUE[kind].of(action).skill
            return tuple(
                p for p in super().odds_of(state, action, viewer) if f" tests {skill} " in p.label
            )
        return super().odds_of(state, action, viewer)

    def visible_state(self, state: KingdomsState, viewer: Viewer) -> JsonObject | None:
        """The whole state for the referee; for anyone else, everything but other factions'
        sealed slips (before the reveal, each faction sees its own slip alone)."""
        data = dict(self.state_json(state))
        if viewer.is_referee:
            return data
        if state.phase == "maneuver":
            for part in ("slips", "salts"):
                sealed = data.get(part)
                if isinstance(sealed, Mapping):
                    data[part] = {f: s for f, s in sealed.items() if f in viewer.identities}
        return data

    def state_json(self, state: KingdomsState) -> JsonObject:
        """The state as JSON (what scenario ``expect: path`` reads)."""
        data = to_json(state)
        assert isinstance(data, dict)
        return data

    def initial_events(self, state: KingdomsState) -> Sequence[Event]:
        """The chronicle begins: the territory and each faction's leader, sheet and
        disposition, as every player at the table knows them."""
        return (with_names(Event(CHRONICLE_BEGAN, opening(state)), names_of(state)),)

    def describe(self, event: Event, viewer: Viewer) -> str:
        """``event`` in words as ``viewer`` sees it (:func:`.events.describe`)."""
        return describe(event, viewer)

    # -- the result ------------------------------------------------------------------------

    def result(self, state: KingdomsState) -> Result:
        """The chronicle: "the last Faction standing has rulership over the territory"
        ("Structure of Play"). Over when one faction stands (``chronicle.won``: it is the
        winner, ``returns`` +1, every other faction -1) or none does (``chronicle.ended``,
        unwon: no winner, every faction -1).
        """
        name = f"the chronicle of {state.territory}" if state.territory else "the chronicle"
        if state.phase != "over":  # the phase after chronicle.won or chronicle.ended
            standing = [state.factions[f].name for f in state.standing()]
            return Result(
                name, summary=f"maneuver {state.maneuver}: {_listed(standing)} still standing"
            )
        winners = () if state.winner is None else (state.winner,)
        returns = tuple((f, 1 if f in winners else -1) for f in state.factions)
        if state.winner is None:
            return Result(name, True, (), "nobody is left standing: it ends unwon", returns)
        winner = state.factions[state.winner].name
        return Result(name, True, winners, f"{winner} stands alone and wins it", returns)

    def conflict(self, state: KingdomsState) -> Result | None:
        """The maneuver under way, or the last one ended ("Structure of Play": slips, scenes,
        the reveal and resolution); ``None`` in the Prologue. Over once resolved (its
        consequences, downtime, or the chronicle's end follow). Its winners: the factions that
        gained the most disposition in it (all of them if tied); ``returns``: each faction's
        change of disposition in it (the slips' sacrifices included).
        """
        if state.phase == "prologue":
            return None
        before = _dispositions_before(state)
        change = {
            f: x.disposition - before.get(f, x.disposition) for f, x in state.factions.items()
        }
        best = max(change.values(), default=0)
        top = tuple(f for f, c in change.items() if c == best)
        returns = tuple(change.items())
        name = f"maneuver {state.maneuver}"
        if state.phase in ("maneuver", "rolled"):
            doing = "the slips are written" if state.phase == "maneuver" else "the slips are rolled"
            return Result(name, summary=f"{doing}; not yet resolved", returns=returns)
        names = [state.factions[f].name for f in top]
        if len(top) == 1:
            words = f"{names[0]} gained the most disposition ({best:+d})"
        else:
            words = f"{_listed(names)} tie for the most disposition gained ({best:+d})"
        return Result(name, True, top, words, returns)

    # -- decide ----------------------------------------------------------------------------

    def decide(self, state: KingdomsState, action: Action, dice: DiceSource) -> Sequence[Event]:
        """The events of ``action``; refuses illegal ones with the rule's reason.

        The parameters are typed already (:mod:`.actions`): each handler reads its model.
        """
        handler = getattr(self, f"_do_{action.kind}", None)
        if handler is None or action.kind not in CATALOGUE:
            raise refuse("Burning Kingdoms", f"no such action {action.kind!r}")
        faction = faction_of(state, action.actor)
        args = CATALOGUE[action.kind].of(action)
        events: Sequence[Event] = handler(state, faction, args, dice)
        roster = names_of(state)
        return [with_names(e, roster) for e in events] if roster else events

    # prologue

    def _do_prologue(
        self, state: KingdomsState, faction: Faction, params: Prologue, dice: DiceSource
    ) -> list[Event]:
        require_phase(state, "prologue")
        if faction.prologue is not None:
            raise refuse("Prologues", f"{faction.id} has tested its prologue skill")
        skill = params.skill
        if (
            skill.casefold() not in {s.casefold() for s in setup_tables().prologue_skills}
            and not params.substitute
        ):
            raise refuse("Prologues", f"{skill!r} is not on the prologue list")
        ability = faction.leader.skill(skill)
        if ability is None:
            raise refuse("Prologues", f"{faction.leader.name} has no {skill!r} skill")
        # the odds before the roll: the chance of each number of successes (open-ended; the top
        # bucket is that many or more)
        top = ability.exponent + 3
        chances = success_distribution(ability.exponent, ability.shade, True, cap=top)
        odds = {(f"{k}+" if k == top else str(k)): str(p) for k, p in chances.items()}
        rolled = roll_before(ability.exponent, ability.shade, True, dice)
        card = pool_card(
            rolled, f"{faction.leader.name} tests {skill} for the prologue", "Prologues", odds=odds
        )
        events = [
            Event(
                PROLOGUE_ROLLED,
                {
                    "faction": faction.id,
                    "skill": skill,
                    "odds": odds,
                    "successes": rolled.successes,
                    "roll": card.to_json(),
                    "pool_roll": rolled.to_json(),
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
            events.append(Event(PROLOGUE_ENDED, {"narration_order": order, "cap": cap}))
        return events

    def _do_new_session(
        self, state: KingdomsState, faction: Faction, params: NoParams, dice: DiceSource
    ) -> list[Event]:
        return [
            Event(
                SESSION_STARTED, {"session": state.session + 1, "maneuver_number": state.maneuver}
            )
        ]

    def _do_objective(
        self, state: KingdomsState, faction: Faction, params: Objective, dice: DiceSource
    ) -> list[Event]:
        text = params.text.strip()
        if not text:
            raise refuse("Chronicle Objective", "an objective needs words")
        return [Event(OBJECTIVE_SET, {"faction": faction.id, "objective": text})]

    # scripting and scenes

    def _do_write_slip(
        self, state: KingdomsState, faction: Faction, params: WriteSlip, dice: DiceSource
    ) -> list[Event]:
        slip = _slip_to_write(state, faction, params)
        # sealed: every seat sees the commitment, the faction alone its slip and salt
        # (issue 12; checked against the slip when the reveal publishes both)
        content = slip.to_json()
        sealed, salt = seal(
            slip_choice(state.maneuver, faction.id), content, dice, only(faction.id)
        )
        return [
            Event(
                SLIP_WRITTEN,
                {"faction": faction.id, "maneuver_number": state.maneuver, "sealed": sealed},
                audience=EVERYONE,
                secrets=(Secret("slip", content, only(faction.id)), salt),
            )
        ]

    def _do_scene(
        self, state: KingdomsState, faction: Faction, params: Scene, dice: DiceSource
    ) -> list[Event]:
        require_phase(state, "maneuver")
        rule = "Scene Economy"
        if faction.out:
            raise refuse(
                "Consequences", f"{faction.id} is out; its leader plays in its new faction's scenes"
            )
        if faction.id in state.passed:
            raise refuse(rule, f"{faction.id} has passed its scenes this maneuver")
        unsealed = [f for f in state.acting() if f not in state.slips]
        if unsealed:
            raise refuse(
                "Maneuver",
                "every faction seals its slip before the first scene; waiting for "
                + ", ".join(unsealed),
            )
        kind = params.kind
        allowed = setup_tables().scenes
        if kind not in allowed:
            raise refuse(rule, f"{kind!r} is not a scene (color, interstitial, building, conflict)")
        used = len(scenes_of(state, faction.id, kind))
        if used >= allowed[kind]:
            raise refuse(
                rule,
                f"{faction.id} has spent its {allowed[kind]} {kind} scene"
                f"{'s' if allowed[kind] != 1 else ''} this maneuver",
            )
        by = params.by
        if by not in ("leader", "second") and by not in faction.allies:
            raise refuse(
                rule,
                f"a scene is played by the leader, the second or a leader who joined "
                f"{faction.id}, not {by!r}",
            )
        # "Consequences": a defeated leader who joined shares this faction's scene economy
        who = state.factions[by].leader if by in faction.allies else faction.character(by)
        player = params.player
        if len(faction.players) >= 2 and kind in ("building", "conflict"):
            # "Step Seven": in a two-player faction one player makes the building rolls and the
            # other runs the conflict scene that maneuver.
            if player not in faction.players:
                raise refuse(
                    "Step Seven",
                    f"say which of {', '.join(faction.players)} plays this {kind} scene",
                )
            other = "conflict" if kind == "building" else "building"
            if any(s.player == player for s in scenes_of(state, faction.id, other)):
                raise refuse(
                    "Step Seven",
                    f"{player} played {faction.id}'s {other} scenes this "
                    f"maneuver; the other player plays its {kind} scene",
                )
        helpers = tuple(params.helpers)
        for h in helpers:
            if h not in state.factions or h == faction.id:
                raise refuse(rule, f"{h!r} is not another faction to lend helping dice")
        payload: dict[str, Any] = {
            "player": None if player is None else str(player),
            "faction": faction.id,
            "kind": kind,
            "by": by,
            "character": who.name,
            "helpers": list(helpers),
        }
        if kind in ("color", "interstitial"):
            if params.skill or params.ob:
                raise refuse(rule, f"no rolls may be made during {kind} scenes")
            if kind == "interstitial":
                partner = params.partner
                if partner is not None and partner not in state.factions:
                    raise refuse(rule, f"{partner!r} is not a faction")
                payload["with"] = partner
        elif kind == "building":
            skill = params.skill or ""
            test = building_test(who, params)
            pool, ob = test.pool, test.obstacle
            result = test.roll(dice)
            card = RollCard.of(
                test.kernel or test,
                result,
                f"{who.name}'s building scene: {skill}",
                rule="Building Scenes",
            )
            payload.update(
                {
                    "skill": skill,
                    "ob": ob,
                    "dice": pool.dice,
                    "odds": str(test.odds().success),
                    "successes": result.value,
                    "passed": result.is_success,
                    "roll": card.to_json(),
                }
            )
        else:  # conflict
            if faction.cannot_act:
                raise refuse(
                    "Conflict Scenes",
                    f"{faction.id} cannot act this maneuver; it "
                    "takes part in others' conflicts but directs none",
                )
            slip = state.slips.get(faction.id)
            if slip is None:
                raise refuse(
                    "Conflict Scenes",
                    f"{faction.id} writes its slip before it directs a conflict scene",
                )
            target = params.target or ""
            info = maneuver(slip.maneuver)
            if info.conflict == "forbidden":
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
                        f"that targeted {faction.id} with a conflict; {target} did not",
                    )
            elif target not in slip.targets:
                raise refuse(
                    "Conflict Scenes",
                    f"{faction.id}'s conflict scene is directed at "
                    f"the faction its maneuver targets, not {target!r}",
                )
            wounds = dict(params.wounds)
            for who_ref, severity in wounds.items():
                if str(severity) not in WOUND_DICE:
                    raise refuse("Wounds", f"{severity!r} is not a wound ({', '.join(WOUND_DICE)})")
                fid = str(who_ref).split(".")[0]
                if fid not in state.factions:
                    raise refuse("Wounds", f"{who_ref!r} is not a faction's leader or 2iC")
            payload.update(
                {
                    "target": target,
                    "outcome": params.outcome,
                    "wounds": {str(k): str(v) for k, v in wounds.items()},
                }
            )
        events = [Event(SCENE_PLAYED, payload)]
        spent = sum(len(scenes_of(state, faction.id, k)) for k in allowed) + 1
        if spent >= sum(allowed.values()):
            events.append(Event(SCENES_PASSED, {"faction": faction.id, "spent": True}))
        return events

    def _do_health_test(
        self, state: KingdomsState, faction: Faction, params: HealthTest, dice: DiceSource
    ) -> list[Event]:
        require_phase(state, "maneuver")
        who_key = params.character
        who = faction.character(who_key)
        key = f"{faction.id}.{who_key}"
        if key in state.wounded:
            raise refuse(
                "Wound Recovery",
                f"{who.name} was wounded this maneuver and acts at the penalty until the next",
            )
        if key in state.health_tested:
            raise refuse("Wound Recovery", f"{who.name} has made a Health test this maneuver")
        if not who.wound_dice and not who.superficial:
            raise refuse("Wound Recovery", f"{who.name} has no wound to recover from")
        health = who.stat("Health")
        if health is None:
            raise refuse("Wound Recovery", f"{who.name}'s sheet has no Health")
        ob = who.health_ob
        test = BurningTest(
            BurningPool(health.exponent, health.shade, open_ended=health.open_ended), ob
        )
        result = test.roll(dice)
        passed = result.is_success
        after = who.wound_dice - 1 if passed and who.wound_dice else who.wound_dice
        superficial = who.superficial and not (passed and not who.wound_dice)
        return [
            Event(
                HEALTH_TESTED,
                {
                    "faction": faction.id,
                    "character": who_key,
                    "ob": ob,
                    "odds": str(test.odds().success),
                    "successes": result.value,
                    "passed": passed,
                    "wound_dice": after,
                    "superficial": superficial,
                    "roll": RollCard.of(
                        test.kernel or test,
                        result,
                        f"{who.name} tests Health",
                        rule="Wound Recovery",
                    ).to_json(),
                },
            )
        ]

    def _do_pass(
        self, state: KingdomsState, faction: Faction, params: NoParams, dice: DiceSource
    ) -> list[Event]:
        require_phase(state, "maneuver")
        if faction.id in state.passed:
            raise refuse("Spending Scenes", f"{faction.id} has already passed")
        return [Event(SCENES_PASSED, {"faction": faction.id, "spent": False})]

    # the reveal

    def _do_reveal(
        self, state: KingdomsState, faction: Faction, params: NoParams, dice: DiceSource
    ) -> list[Event]:
        require_phase(state, "maneuver")
        rule = "Maneuver Resolution"
        waiting = [f for f in state.standing() if f not in state.passed]
        if waiting:
            raise refuse(
                rule,
                f"the maneuver ends when every faction has spent or passed its "
                f"scenes; waiting for {', '.join(waiting)}",
            )
        missing = [f for f in state.acting() if f not in state.slips]
        if missing:
            raise refuse(rule, f"no slip yet from {', '.join(missing)}")
        if faction.out:
            raise refuse(rule, f"{faction.id} is out and cannot read the slips")
        order = order_from(state, faction.id)
        void: dict[str, str] = {}
        for fid in order:
            slip = state.slips.get(fid)
            if slip is None:
                continue
            info = maneuver(slip.maneuver)
            if info.conflict == "required" and not conflict_fulfilled(state, slip):
                void[fid] = (
                    f"{slip.maneuver} requires a conflict scene directed at "
                    f"{', '.join(slip.targets)}; none was"
                )
            elif slip.roller == "second" and not second_may_roll(state, fid):
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
                help_refused[fid] = f"{_name(state, slip.helps)} has no maneuver to help"
            elif not lent_help(state, fid, slip.helps):
                help_refused[fid] = (
                    f"{_name(state, fid)} and {_name(state, slip.helps)} lent each other no "
                    "helping dice in a scene this maneuver"
                )
            else:
                ability = state.factions[fid].leader.skill(helped.skill)
                if ability is None:
                    help_refused[fid] = (
                        f"{possessive(_name(state, fid))} leader has no {helped.skill} to help with"
                    )
                else:
                    help_given.setdefault(slip.helps, {})[fid] = help_dice(ability.exponent)
        events: list[Event] = [
            Event(
                SLIPS_REVEALED,
                {
                    "maneuver_number": state.maneuver,
                    "reader": faction.id,
                    "order": list(order),
                    "slips": {f: state.slips[f].to_json() for f in order if f in state.slips},
                    "unsealed": [
                        unseal(
                            slip_choice(state.maneuver, f),
                            state.slips[f].to_json(),
                            state.salts.get(f, ""),
                        )
                        for f in order
                        if f in state.slips
                    ],
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
                        EFFECT_APPLIED,
                        {
                            "faction": fid,
                            "kind": "disposition",
                            "by": fid,
                            "amount": -cost,
                            "value": value,
                            "target": None,
                            "text": f"{_name(state, fid)} sacrifices {cost} disposition to "
                            f"announce its {slip.maneuver}",
                        },
                    )
                )
        pools: dict[str, tuple[BurningPool, int]] = {}
        rolled_events: list[Event] = []
        opposed = versus_targets(state, order, void)
        for fid in order:
            slip = state.slips.get(fid)
            if slip is None or fid in void:
                continue
            pool, who, exponent, notes = pool_for(state, slip, help_given.get(fid, {}))
            n = dice_rolled(state, slip, pool)
            spent = {"persona": slip.persona, "deeds": int(slip.deeds_before)}
            if slip.maneuver == "Conserve" and fid not in opposed:
                # "Conserve": "only rolled against a versus maneuver" (audit W4)
                notes.append("Conserve is only rolled against a versus maneuver: not rolled")
                n = 0
            if n == 0:
                if state.factions[fid].sapped and slip.maneuver != "Conserve":
                    notes.append("Sapped: may not roll")
                spent = {"persona": 0, "deeds": 0}  # no artha on a roll not made
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
                label = f"{_name(state, fid)}: Harry with {slip.skill}"
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
                        "attack_dice": n - defence,
                    }
                )
                pools[fid] = (
                    replace(pool, exponent=defence, forks=0, helping=0, bonus=0, penalty=0),
                    n - defence,
                )
            else:
                first = roll_before(n, pool.shade, pool.open_ended, dice)
                words = f"{_name(state, fid)}: {slip.maneuver} with {slip.skill}"
                card = pool_card(first, words, RESOLUTION)
                payload.update(
                    {
                        "successes": first.successes,
                        "roll": card.to_json(),
                        "pool_roll": first.to_json(),
                    }
                )
                pools[fid] = (replace(pool, exponent=n, forks=0, helping=0, bonus=0, penalty=0), 0)
            rolled_events.append(Event(TEST_ROLLED, payload))
        odds = reveal_odds(state, order, void, pools)
        events[0] = replace(events[0], payload={**events[0].payload, "odds": odds})
        return events + rolled_events

    # after the roll

    def _do_spend_artha(
        self, state: KingdomsState, faction: Faction, params: SpendArtha, dice: DiceSource
    ) -> list[Event]:
        require_phase(state, "rolled")
        test = state.rolls.get(faction.id)
        if test is None:
            raise refuse("Artha", f"{faction.id} rolled no maneuver test")
        if test.decided:
            raise refuse("Artha", f"{faction.id} has settled its roll")
        fate = params.fate
        deeds = params.deeds
        if not fate and not deeds:
            raise refuse("Artha", "spend fate, deeds or both (or keep the roll)")
        who = state.factions[faction.id].character(test.roller)
        who.spend({"fate": int(fate), "deeds": int(deeds)})
        which = params.pool
        source = test.attack_pool if which == "attack" else test.pool
        if source is None:
            raise refuse("Artha", "only a Harry has an attack pool")
        base = pool_roll_from(source)
        wasted = artha_buys_nothing(base, fate=bool(fate), deeds=bool(deeds))
        if wasted is not None:
            raise refuse("Artha", wasted)
        artha = Artha(fate=fate, deeds_after=deeds)
        after = spend_after(base, artha, dice)
        key = "attack" if which == "attack" else "successes"
        words = f"{_name(state, faction.id)} spends artha on its {which} roll"
        card = after_card(base, after, artha, words)
        return [
            Event(
                ARTHA_SPENT,
                {
                    "faction": faction.id,
                    "fate": fate,
                    "deeds": deeds,
                    "pool": which,
                    key: after.successes,
                    "roll": card.to_json(),
                    "pool_roll": after.to_json(),
                },
            )
        ]

    def _do_keep(
        self, state: KingdomsState, faction: Faction, params: NoParams, dice: DiceSource
    ) -> list[Event]:
        require_phase(state, "rolled")
        test = state.rolls.get(faction.id)
        if test is None or test.decided:
            raise refuse("Artha", f"{faction.id} has no roll waiting")
        return [Event(ROLL_KEPT, {"faction": faction.id})]

    def _do_tie_break(
        self, state: KingdomsState, faction: Faction, params: TieBreak, dice: DiceSource
    ) -> list[Event]:
        require_phase(state, "rolled")
        rule = "Independent and Versus Maneuvers"
        opponent = params.opponent
        root = params.root
        ties = ties_of(state)
        if frozenset((faction.id, opponent)) not in ties:
            raise refuse(rule, f"{faction.id} and {opponent!r} have no tied versus test")
        test = state.rolls[faction.id]
        stat = state.factions[faction.id].character(test.roller).stat(root)
        if stat is None:
            raise refuse(rule, f"no root stat {root!r} on {faction.id}'s roller")
        if (faction.id, opponent) in {(a, b) for a, (b, _) in state.tie_offers.items()}:
            raise refuse(rule, f"{faction.id} has already agreed to the tie-breaker")
        events = [
            Event(TIE_BREAK_OFFERED, {"faction": faction.id, "opponent": opponent, "root": root})
        ]
        theirs = state.tie_offers.get(opponent)
        if theirs is not None and theirs[0] == faction.id:
            other = state.factions[opponent].character(state.rolls[opponent].roller).stat(theirs[1])
            assert other is not None
            mine_pool = BurningPool(stat.exponent, stat.shade, open_ended=stat.open_ended)
            their_pool = BurningPool(other.exponent, other.shade, open_ended=other.open_ended)
            odds = {
                faction.id: str(versus_odds(mine_pool, their_pool)),
                opponent: str(versus_odds(their_pool, mine_pool)),
            }
            mine_roll = roll_before(stat.exponent, stat.shade, stat.open_ended, dice)
            their_roll = roll_before(other.exponent, other.shade, other.open_ended, dice)
            events.append(
                Event(
                    TIE_BREAK_ROLLED,
                    {
                        "factions": [faction.id, opponent],
                        "odds": odds,
                        "extra": {faction.id: mine_roll.successes, opponent: their_roll.successes},
                        "pools": tied_pools(state, faction.id, opponent),
                        "rolls": [
                            pool_card(
                                mine_roll,
                                f"{_name(state, faction.id)}: tie-breaker on {root}",
                                rule,
                            ).to_json(),
                            pool_card(
                                their_roll,
                                f"{_name(state, opponent)}: tie-breaker on {theirs[1]}",
                                rule,
                            ).to_json(),
                        ],
                        "pool_rolls": {
                            faction.id: mine_roll.to_json(),
                            opponent: their_roll.to_json(),
                        },
                    },
                )
            )
        return events

    def _do_resolve(
        self, state: KingdomsState, faction: Faction, params: NoParams, dice: DiceSource
    ) -> list[Event]:
        require_phase(state, "rolled")
        if faction.id != state.reader:
            raise refuse("Maneuver Resolution", f"the reader ({state.reader}) resolves the slips")
        open_rolls = [f for f, t in state.rolls.items() if not t.decided]
        if open_rolls:
            raise refuse("Artha", f"waiting for {', '.join(open_rolls)} to keep or spend artha")
        entries = entries_of(state)
        board = Board(
            order=state.order,
            disposition={f: x.disposition for f, x in state.factions.items()},
            cap=state.cap,
            circles={f: x.leader.circles for f, x in state.factions.items()},
            names=names_of(state),
        )
        result = resolve(entries, board)
        events = [Event(MANEUVER_RESOLVED, {"maneuver_number": state.maneuver, **result.to_json()})]
        events += [Event(EFFECT_APPLIED, e.to_json()) for e in result.effects]
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
                        CONQUEROR_NAMED,
                        {"defeated": defeated, "conqueror": candidates[0], "why": why},
                    )
                )
            elif candidates:
                pending[defeated] = list(candidates)
        standing = [f for f in state.standing() if f not in result.out]
        if len(standing) == 1:
            events.append(Event(CHRONICLE_WON, {"faction": standing[0]}))
        elif not standing:  # the last factions wiped each other out: nobody wins
            events.append(Event(CHRONICLE_ENDED, {"winner": None}))
        events.append(
            Event(MANEUVER_ENDED, {"maneuver_number": state.maneuver, "pending_conquest": pending})
        )
        return events

    # consequences

    def _do_choose_conqueror(
        self, state: KingdomsState, faction: Faction, params: ChooseConqueror, dice: DiceSource
    ) -> list[Event]:
        require_phase(state, "consequences")
        candidates = state.pending_conquest.get(faction.id)
        if candidates is None:
            raise refuse("Consequences", f"{faction.id} has no tied conquerors to choose from")
        chosen = params.conqueror
        if chosen not in candidates:
            raise refuse("Consequences", f"the conqueror is one of {', '.join(candidates)}")
        return [
            Event(
                CONQUEROR_NAMED,
                {
                    "defeated": faction.id,
                    "conqueror": chosen,
                    "why": "chosen by the defeated player",
                },
            )
        ]

    def _do_join(
        self, state: KingdomsState, faction: Faction, params: Join, dice: DiceSource
    ) -> list[Event]:
        if not faction.out:
            raise refuse("Consequences", f"{faction.id} is still in contention")
        if faction.joined is not None:
            raise refuse("Consequences", f"{faction.leader.name} has joined {faction.joined}")
        if faction.id in state.pending_conquest:
            raise refuse("Consequences", "first choose who counts as the conqueror")
        new = params.faction
        if new not in state.factions or state.factions[new].out:
            raise refuse("Consequences", f"{new!r} is not a faction still in contention")
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
        return [Event(LEADER_JOINED, payload)]

    def _do_buy_affiliation(
        self, state: KingdomsState, faction: Faction, params: NoParams, dice: DiceSource
    ) -> list[Event]:
        for other in state.factions.values():
            if (
                other.conqueror == faction.id
                and other.lost_affiliation is not None
                and not other.affiliation_bought
            ):
                return [
                    Event(
                        AFFILIATION_BOUGHT,
                        {
                            "faction": faction.id,
                            "from": other.id,
                            "affiliation": other.lost_affiliation,
                            "dice": other.lost_affiliation_dice,
                            "cash_spent": other.lost_resources,
                        },
                    )
                ]
        raise refuse("Consequences", f"{faction.id} has no defeated foe's affiliation to buy")

    # downtime

    def _do_maintenance(
        self, state: KingdomsState, faction: Faction, params: NoParams, dice: DiceSource
    ) -> list[Event]:
        require_phase(state, "downtime", "consequences")
        if not faction.maintenance:
            raise refuse("Downtime", f"{faction.id} owes no Resources maintenance test")
        extra = faction.maintenance[0]
        ob = state.maintenance_ob + extra
        exponent = faction.leader.resources
        test = BurningTest(BurningPool(exponent), ob)
        result = test.roll(dice)
        passed = result.is_success
        kind = difficulty(exponent, ob)
        tax = 0
        if not passed:
            tax = {"routine": 1, "difficult": 2}.get(kind, ob - result.value)
        return [
            Event(
                MAINTENANCE_TESTED,
                {
                    "faction": faction.id,
                    "ob": ob,
                    "extra_ob": extra,
                    "dice": exponent,
                    "odds": str(test.odds().success),
                    "successes": result.value,
                    "passed": passed,
                    "difficulty": kind,
                    "tax": tax,
                    "resources": max(0, exponent - tax),
                    "roll": RollCard.of(
                        test.kernel or test,
                        result,
                        f"{faction.leader.name}'s Resources maintenance test",
                        rule="Downtime",
                    ).to_json(),
                },
            )
        ]

    def _do_next_maneuver(
        self, state: KingdomsState, faction: Faction, params: NoParams, dice: DiceSource
    ) -> list[Event]:
        require_phase(state, "downtime")
        owing = [f for f in state.standing() if state.factions[f].maintenance]
        if owing:
            raise refuse("Downtime", f"maintenance tests owed by {', '.join(owing)}")
        healed = [f for f in state.standing() if state.factions[f].earned_downtime]
        return [Event(MANEUVER_STARTED, {"maneuver_number": state.maneuver + 1, "healed": healed})]

    # -- evolve ----------------------------------------------------------------------------

    def evolve(self, state: KingdomsState, event: Event) -> KingdomsState:
        """Fold one event into the state (:func:`referee.systems.kingdoms.fold.fold`)."""
        return fold(state, event)


PROCEDURE = KingdomsProcedure()
"""The procedure scenario files with ``system: kingdoms`` play."""


def _dispositions_before(state: KingdomsState) -> Mapping[str, int]:
    """Each faction's disposition as the maneuver under way (or last ended) began: as the one
    before it left them (its record in ``history``), else as the chronicle began (after the
    Prologue)."""
    for record in reversed(state.history):
        if record.get("maneuver") != state.maneuver and isinstance(
            record.get("dispositions"), Mapping
        ):
            return {str(f): int(v) for f, v in record["dispositions"].items()}
    return {f: x.starting_disposition for f, x in state.factions.items()}


def _listed(names: Sequence[str]) -> str:
    """``"A"``, ``"A and B"``, ``"A, B and C"``; ``"nobody"`` for none."""
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

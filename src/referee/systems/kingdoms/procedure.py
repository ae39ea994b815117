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
from typing import Any

from referee.core import (
    Action,
    ActorId,
    Builder,
    Choice,
    Event,
    Handlers,
    OddsPreview,
    Procedure,
    Result,
    RuleError,
    ScenarioError,
    Viewer,
    Waiting,
)
from referee.core.naming import with_names
from referee.core.values import JsonObject, evolved
from referee.dice import DiceSource
from referee.systems.kingdoms import views
from referee.systems.kingdoms.actions import CATALOGUE
from referee.systems.kingdoms.artha import keep, spend_artha
from referee.systems.kingdoms.cards import successes_preview
from referee.systems.kingdoms.choices import artha_odds, choices_for, has_a_move
from referee.systems.kingdoms.chronicle import check_sheets, faction_from
from referee.systems.kingdoms.consequences import buy_affiliation, choose_conqueror, join
from referee.systems.kingdoms.downtime import maintenance, next_maneuver
from referee.systems.kingdoms.events import CHRONICLE_BEGAN, describe
from referee.systems.kingdoms.fold import fold
from referee.systems.kingdoms.prologue import objective, prologue
from referee.systems.kingdoms.reveal import resolve_slips, reveal, slip_odds
from referee.systems.kingdoms.scenes import building_test, pass_scenes, scene
from referee.systems.kingdoms.setup import check_setup
from referee.systems.kingdoms.slips import slip_choice, slip_to_write, write_slip
from referee.systems.kingdoms.state import Faction, KingdomsState
from referee.systems.kingdoms.structure import names_of, new_session, refuse
from referee.systems.kingdoms.tie_breaker import tie_break, tie_break_odds
from referee.systems.kingdoms.waiting import waiting_for
from referee.systems.kingdoms.wound_recovery import health_test

__all__ = [
    "HANDLERS",
    "PROCEDURE",
    "KingdomsProcedure",
    "building_test",
    "dispositions_before",
    "names_of",
    "opening",
    "slip_choice",
    "successes_preview",
]

HANDLERS = Handlers(
    {
        "prologue": prologue,
        "objective": objective,
        "new_session": new_session,
        "write_slip": write_slip,
        "scene": scene,
        "health_test": health_test,
        "pass": pass_scenes,
        "reveal": reveal,
        "spend_artha": spend_artha,
        "keep": keep,
        "tie_break": tie_break,
        "resolve": resolve_slips,
        "choose_conqueror": choose_conqueror,
        "join": join,
        "buy_affiliation": buy_affiliation,
        "maintenance": maintenance,
        "next_maneuver": next_maneuver,
    },
    rule="Burning Kingdoms",
)
"""The handler of each action kind, each in the module of its rules section."""


def opening(state: KingdomsState) -> dict[str, Any]:
    """The public set-up of the chronicle: the territory and, for each faction in seat order,
    its leader (and 2iC), their sheets' abilities, and its disposition; for a quick table
    (``strict_sheets: false``), ``quick_play``: the 2iCs and rivals it plays without."""

    def sheet(who: Any) -> dict[str, Any]:
        return {"name": who.name, "skills": sorted(who.skills), "stats": sorted(who.stats)}

    quick = {} if state.quick_play is None else {"quick_play": list(state.quick_play)}
    return {
        **quick,
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


def _offered(choices: Sequence[Choice], kind: str, params: Mapping[str, Any]) -> bool:
    """True if a choice of ``kind`` allows every parameter given (a parameter left out takes
    its default; the rules, not the domains, judge the whole)."""
    return any(
        c.kind == kind
        and all(name not in params or d.contains(params[name]) for name, d in c.params.items())
        for c in choices
    )


class KingdomsProcedure(Procedure[KingdomsState]):
    """Burning Kingdoms: prologue, maneuvers (slips, scenes, reveal, resolution), consequences
    and downtime (burning-kingdoms.txt; RULINGS.md, Burning Kingdoms)."""

    catalogue = CATALOGUE
    handlers = HANDLERS
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
        strict = bool(setup.get("strict_sheets", True))
        skipped = check_sheets(state, strict)
        return state if strict else evolved(state, quick_play=skipped)

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
        - ``spend_artha`` and ``keep``: the chance of winning, tying or losing each engagement
          the roll takes part in, against the other counts as they stand, then the successes
          the roll ends with, from the faces showing (after this Fate and/or Deeds; kept);
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
            return slip_odds(state, slip_to_write(state, faction, CATALOGUE[kind].of(action)))
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
            return tie_break_odds(state, faction, CATALOGUE[kind].of(action))
        if kind in ("spend_artha", "keep"):
            roll = state.rolls.get(faction.id)
            if roll is None or roll.decided:
                return ()
            if kind == "keep":
                pools = ("defence", "attack") if roll.attack_pool is not None else ("defence",)
                return tuple(
                    o
                    for p in pools
                    for o in artha_odds(state, faction.id, fate=False, deeds=False, pool=p)
                )
            spend = CATALOGUE[kind].of(action)
            fate, deeds = spend.fate, spend.deeds
            return artha_odds(state, faction.id, fate=fate, deeds=deeds, pool=spend.pool)
        if kind == "prologue":
            skill = CATALOGUE[kind].of(action).skill
            return tuple(
                p for p in super().odds_of(state, action, viewer) if f" tests {skill} " in p.label
            )
        return super().odds_of(state, action, viewer)

    def waiting(self, state: KingdomsState, actor: ActorId) -> Waiting | None:
        """Why faction ``actor`` cannot act now and until when (:mod:`.waiting`): its slip
        sealed while others write theirs, its scenes passed, its roll settled, unable to act
        this maneuver (a failed Onslaught or Ploy), out of contention."""
        return waiting_for(state, actor)

    def visible_state(self, state: KingdomsState, viewer: Viewer) -> JsonObject | None:
        """The whole state for the referee; for anyone else, everything but other factions'
        sealed slips (before the reveal, each faction sees its own slip alone; :mod:`.views`)."""
        return views.visible_state(state, viewer)

    def state_json(self, state: KingdomsState) -> JsonObject:
        """The state as JSON (what scenario ``expect: path`` reads; :mod:`.views`)."""
        return views.state_json(state)

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
        before = dispositions_before(state)
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

    def build(
        self, state: KingdomsState, action: Action, dice: DiceSource
    ) -> Builder[KingdomsState]:
        """The events of ``action`` from its handler (:data:`HANDLERS`), each folded as it is
        emitted; refuses illegal ones with the rule's reason, an action the game does not have
        as "no such action"."""
        if action.kind not in HANDLERS:
            raise refuse("Burning Kingdoms", f"no such action {action.kind!r}")
        return super().build(state, action, dice)

    # -- evolve ----------------------------------------------------------------------------

    def evolve(self, state: KingdomsState, event: Event) -> KingdomsState:
        """Fold one event into the state (:func:`referee.systems.kingdoms.fold.fold`)."""
        return fold(state, event)


PROCEDURE = KingdomsProcedure()
"""The procedure scenario files with ``system: kingdoms`` play."""


def dispositions_before(state: KingdomsState) -> Mapping[str, int]:
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

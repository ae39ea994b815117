"""What a faction may do now, with the domain of each parameter (DESIGN.md, "The table
contract": ``legal_actions`` returns real choices).

Domains hold only values the rules allow as far as the state tells: the maneuvers a faction may
script (prerequisites met, disposition to sacrifice, a skill on the maneuver's list), the
factions it may target, the scenes it has left, the wounded who may test Health, the opponents
of a tied versus test, the factions a defeated leader may join. The procedure's ``decide`` stays
the authority: a combination the domains allow may still be refused by a rule (a Ploy's two
targets of which neither is Infiltrated).

Nothing here reads another faction's sealed slip: a faction's choices depend on its own slip
and on what every faction can see.

>>> from referee.systems.kingdoms import PROCEDURE
>>> state = PROCEDURE.initial_state({"strict_sheets": False, "factions": {
...     "elves": {"disposition": 10, "leader": {"skills": {"Logistics": "B4"}}},
...     "orcs": {"disposition": 9, "leader": {"skills": {"Tactics": "B4"}}}}})
>>> [c.kind for c in choices_for(state, "elves")][:4]
['objective', 'new_session', 'write_slip', 'write_slip']
>>> [c.params["maneuver"].values for c in choices_for(state, "elves") if c.kind == "write_slip"]
[('Assess',), ('Conserve',), ('Fortify',)]
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from fractions import Fraction

from referee.core import (
    Between,
    Choice,
    Domain,
    OddsPreview,
    OneOf,
    SomeOf,
    Text,
)
from referee.core.actions import Later
from referee.core.naming import possessive
from referee.core.remembered import by_identity
from referee.systems.kingdoms.actions import TieBreak
from referee.systems.kingdoms.artha import meets_nothing
from referee.systems.kingdoms.cards import pool_dice
from referee.systems.kingdoms.dice import (
    MAX_PERSONA,
    Artha,
    BurningPool,
    BurningTest,
    after_distribution,
    artha_buys_nothing,
    success_distribution,
)
from referee.systems.kingdoms.outcomes import outcome_previews
from referee.systems.kingdoms.scenes import scenes_of
from referee.systems.kingdoms.scripting import pool_roll_from
from referee.systems.kingdoms.sheets import Ability, Character
from referee.systems.kingdoms.slips import base_dice
from referee.systems.kingdoms.state import Faction, KingdomsState, RolledTest
from referee.systems.kingdoms.tables import MANEUVERS, maneuver, setup_tables
from referee.systems.kingdoms.tie_breaker import tie_break_odds, tie_break_offer

__all__ = [
    "after_preview",
    "artha_odds",
    "choices_for",
    "has_a_move",
    "prologue_preview",
    "test_preview",
]

SHOWN = Fraction(1, 1000)
"""The rows of an odds chart: the highest counts, each less likely than this together, are
one row ("N+ successes"), so a chart shows the outcomes that matter (0.1%)."""

ALWAYS = frozenset({"objective", "new_session"})
"""Kinds open at any time, which do not make it a faction's move."""


def _pool(ability: Ability, penalty: int = 0) -> BurningPool:
    return BurningPool(
        ability.exponent, ability.shade, penalty=penalty, open_ended=ability.open_ended
    )


def test_preview(pool: BurningPool, ob: int, label: str, rule: str) -> OddsPreview:
    """The odds of ``pool`` against Ob ``ob``, before the roll."""
    test = BurningTest(pool, ob)
    return OddsPreview.of(test.kernel or test, label, rule=rule)


def prologue_preview(faction: Faction, skill: str, ability: Ability) -> OddsPreview:
    """The chance of each number of successes on a prologue test (open-ended: the top bucket
    is that many or more)."""
    top = ability.exponent + 3
    chances = success_distribution(ability.exponent, ability.shade, True, cap=top)
    return OddsPreview(
        f"{faction.leader.name} tests {skill} for the prologue",
        "Prologues",
        pool_dice(ability.exponent, ability.shade, True),
        {(f"{k}+" if k == top else str(k)): str(p) for k, p in chances.items()},
    )


def _successes(n: int, more: bool = False) -> str:
    return f"{n}{'+' if more else ''} success{'' if n == 1 and not more else 'es'}"


def after_preview(
    faction: str,
    test: RolledTest,
    *,
    fate: bool,
    deeds: bool,
    pool: str = "defence",
    dist: Mapping[int, Fraction] | None = None,
) -> OddsPreview:
    """The chance of each number of successes ``test``'s roll ends with if ``faction`` spends
    Fate and/or Deeds on it now (neither: the roll kept), from the faces already showing —
    :func:`~referee.systems.kingdoms.dice.after_distribution`, the steps ``spend_artha``
    rolls. The highest counts, less likely than 0.1% together, are one row ("N+").

    >>> rolled = {"dice": 2, "shade": "B", "open_ended": False, "successes": 1,
    ...           "stages": {"pool": [6, 1]}}
    >>> test = RolledTest("elves", "leader", "Logistics", 2, 1, pool=rolled)
    >>> after_preview("elves", test, fate=False, deeds=True).odds
    {'1 success': '1/2', '2 successes': '1/2'}
    >>> list(after_preview("elves", test, fate=True, deeds=False).odds)
    ['1 success', '2 successes', '3 successes', '4 successes', '5+ successes']
    """
    data = test.attack_pool if pool == "attack" and test.attack_pool is not None else test.pool
    rolled = pool_roll_from(data)
    artha = Artha(fate=fate, deeds_after=deeds)
    if dist is None:
        dist = after_distribution(rolled, artha)
    rows = sorted(dist.items())
    top = len(rows)
    tail = Fraction(0)
    while top > 1 and tail + rows[top - 1][1] < SHOWN:
        tail += rows[top - 1][1]
        top -= 1
    odds: dict[str, str] = {}
    for row, (count, chance) in enumerate(rows[:top]):
        last = row == top - 1 and top < len(rows)
        odds[_successes(count, last)] = str(chance + tail if last else chance)
    on = f" on the {pool} roll" if test.attack_pool is not None else ""
    words = artha.label() if (fate or deeds) else "no artha: the roll kept"
    return OddsPreview(
        f"{faction}: {words}{on}",
        "Independent and Versus Maneuvers",
        f"{pool_dice(rolled.dice, rolled.shade, rolled.open_ended)}, {rolled.successes} showing",
        odds,
    )


def _skills_for(who: Character, allowed: Sequence[str]) -> tuple[str, ...]:
    """The skills of ``who`` on the list ``allowed``, in the sheet's spelling."""
    return _skills_among(tuple(who.skills), tuple(allowed))


@functools.lru_cache(maxsize=4096)
def _skills_among(names: tuple[str, ...], allowed: tuple[str, ...]) -> tuple[str, ...]:
    """``names`` on the list ``allowed`` (any case), in order. Remembered: a faction's slip
    choices ask it for each of the maneuvers at every step, of the same few sheets."""
    wanted = {s.casefold() for s in allowed}
    return tuple(name for name in names if name.casefold() in wanted)


@by_identity(64)
def _scripts_of(faction: Faction) -> dict[tuple[tuple[str, ...], bool], tuple[Choice, ...]]:
    """The slips ``faction`` may script, remembered for this value of the faction by its
    rivals still standing and whether a conflict scene directs it: nothing else of the state
    changes them, and they were built anew at every step of the maneuver."""
    return {}


def _slip_choices(state: KingdomsState, faction: Faction) -> tuple[Choice, ...]:
    others = tuple(f for f in state.standing() if f != faction.id)
    directed = bool(scenes_of(state, faction.id, "conflict"))
    kept = _scripts_of(faction)
    found = kept.get((others, directed))
    if found is None:
        found = kept[others, directed] = tuple(_scripts(faction, others, directed))
    return found


def _scripts(faction: Faction, others: tuple[str, ...], directed: bool) -> list[Choice]:
    """The slips ``faction`` may script against ``others`` (each maneuver its leader has a
    skill for, that its disposition can pay and a directed conflict allows)."""
    out: list[Choice] = []
    leader = faction.leader
    for name in MANEUVERS:
        info = maneuver(name)
        if info.cost and faction.disposition <= info.cost:
            continue
        if directed and info.conflict == "forbidden":
            continue
        skills = _skills_for(leader, info.skills)
        if not skills:
            continue
        targets: tuple[str, ...] = others
        if info.requires == "assessed":
            targets = tuple(t for t in others if t in faction.assessed)
        elif info.requires == "infiltrated" and name == "Sap":
            targets = tuple(t for t in others if t in faction.infiltrated)
        elif name == "Ploy" and not any(t in faction.infiltrated for t in others):
            targets = ()
        params: dict[str, Domain] = {"maneuver": OneOf((name,)), "skill": OneOf(skills)}
        if name == "Ploy":
            if len(targets) < 2:
                continue
            params["targets"] = SomeOf(targets, least=2, most=2)
        elif info.targets == 1:
            if not targets:
                continue
            params["target"] = OneOf(targets)
        forks = tuple(s for s in skills if len(skills) > 1)
        if forks:
            params["forks"] = SomeOf(forks, least=0, most=1)
        persona = min(MAX_PERSONA, leader.artha.get("persona", 0))
        if persona:
            params["persona"] = Between(0, persona)
        if leader.artha.get("deeds", 0):  # Deeds before the roll doubles the exponent
            params["deeds_before"] = OneOf((False, True))
        if name in ("Conserve", "Fortify"):
            params["downtime"] = Between(0, 2)
        odds: tuple[OddsPreview, ...] = ()
        if name == "Harry":
            least = min(
                base_dice(faction, leader, (leader.skill(s) or _none()).exponent, (), 0, False)
                for s in skills
            )
            if least < 4:
                continue
            params["defence"] = Between(2, least - 2)
        elif isinstance(info.independent_ob, int):
            odds = Later(
                functools.partial(_stated_ob_odds, faction, name, info.independent_ob, skills)
            )
        out.append(Choice(faction.id, "write_slip", params, odds=odds, label=f"script {name}"))
    return out


def _stated_ob_odds(
    faction: Faction, name: str, ob: int, skills: Sequence[str]
) -> tuple[OddsPreview, ...]:
    """The odds of a maneuver with a stated Ob (Assess, Fortify: 2), +1 for a Superficial
    wound, with each skill: worked out when the slip's choice is read (:class:`Later`)."""
    leader = faction.leader
    when = "if nobody attacks" if name == "Fortify" else "if independent"
    return tuple(
        test_preview(
            _pool(leader.skill(s) or _none(), leader.wound_dice + faction.sapped),
            ob + (1 if leader.superficial else 0),
            f"{possessive(faction.name)} {name} with {s}, {when}",
            name,
        )
        for s in skills
    )


def _none() -> Ability:
    from referee.systems.kingdoms.slips import no_skill

    ability: Ability = no_skill()
    return ability


def _scene_choices(state: KingdomsState, faction: Faction) -> list[Choice]:
    out: list[Choice] = []
    allowed = setup_tables().scenes
    others = tuple(f for f in state.factions if f != faction.id)
    two_players = len(faction.players) >= 2
    for kind, most in allowed.items():
        if len(scenes_of(state, faction.id, kind)) >= most:
            continue
        params: dict[str, Domain] = {"kind": OneOf((kind,))}
        if kind == "interstitial" and others:
            params["with"] = OneOf(others)
        elif kind == "building":
            leader = faction.leader
            names = tuple(leader.skills) + tuple(leader.stats)
            if not names:
                continue
            params["skill"] = OneOf(names)
            params["ob"] = Between(1, 5)
        elif kind == "conflict":
            slip = state.slips.get(faction.id)
            if (
                slip is None
                or faction.cannot_act
                or maneuver(slip.maneuver).conflict == "forbidden"
            ):
                continue
            targets = slip.targets
            if slip.maneuver == "Harry":
                attackers = tuple(
                    s.faction
                    for s in state.scenes
                    if s.kind == "conflict" and s.target == faction.id
                )
                targets = tuple(dict.fromkeys((*slip.targets, *attackers)))
            if not targets:
                continue
            params["target"] = OneOf(targets)
            params["outcome"] = Text("the players report the conflict's outcome")
        if two_players and kind in ("building", "conflict"):
            params["player"] = OneOf(faction.players)
        out.append(
            Choice(
                faction.id,
                "scene",
                params,
                label=f"play {'an' if kind[0] in 'aeiou' else 'a'} {kind} scene",
            )
        )
    return out


def _health_choices(state: KingdomsState, faction: Faction) -> list[Choice]:
    out: list[Choice] = []
    for key in ("leader", "second"):
        who = faction.leader if key == "leader" else faction.second
        if who is None or (not who.wound_dice and not who.superficial):
            continue
        mark = f"{faction.id}.{key}"
        health = who.stat("Health")
        if mark in state.wounded or mark in state.health_tested or health is None:
            continue
        preview = test_preview(
            _pool(health), who.health_ob, f"{who.name} tests Health", "Wound Recovery"
        )
        out.append(Choice(faction.id, "health_test", {"character": OneOf((key,))}, odds=(preview,)))
    return out


def artha_odds(
    state: KingdomsState, faction: str, *, fate: bool, deeds: bool, pool: str = "defence"
) -> tuple[OddsPreview, ...]:
    """What keeping the roll (neither) or spending Fate and/or Deeds on ``pool`` buys: the
    chance of winning, tying or losing each engagement that pool takes part in
    (:func:`~referee.systems.kingdoms.outcomes.outcome_previews`), then the chance of each
    number of successes it ends with (:func:`after_preview`)."""
    test = state.rolls.get(faction)
    if test is None:
        return ()
    data = test.attack_pool if pool == "attack" and test.attack_pool is not None else test.pool
    artha = Artha(fate=fate, deeds_after=deeds)
    dist = after_distribution(pool_roll_from(data), artha)
    choice = artha.label() if (fate or deeds) else "the roll kept"
    return (
        *outcome_previews(state, faction, dist, choice, pool),
        after_preview(
            state.factions[faction].name, test, fate=fate, deeds=deeds, pool=pool, dist=dist
        ),
    )


def _artha_choices(state: KingdomsState, actor: str, faction: Faction) -> list[Choice]:
    """Keep the roll, or Fate, Deeds or both after it: one choice for each way of spending
    that the roller can afford and that could change a die (``artha_buys_nothing``), on each
    pool, each with the odds of what it buys (:func:`artha_odds`, worked out when read: a
    simulated player never reads them)."""
    test = state.rolls[actor]
    artha = faction.character(test.roller).artha
    pools = [("defence", test.pool)]
    if test.attack_pool is not None:
        pools.append(("attack", test.attack_pool))
    ways = ((True, False, "Fate"), (False, True, "Deeds"), (True, True, "Fate and Deeds"))
    out: list[Choice] = []
    for name, pool in pools:
        rolled = pool_roll_from(pool)
        if meets_nothing(state, actor, name) is not None:
            continue  # a pool that meets nothing rolled: artha on it changes no result
        for fate, deeds, words in ways:
            if (fate and not artha.get("fate", 0)) or (deeds and not artha.get("deeds", 0)):
                continue
            if artha_buys_nothing(rolled, fate=fate, deeds=deeds) is not None:
                continue
            params: dict[str, Domain] = {"fate": OneOf((fate,)), "deeds": OneOf((deeds,))}
            label = f"spend {words}"
            if test.attack_pool is not None:
                params["pool"] = OneOf((name,))
                label += f" on the {name} roll"
            odds = Later(
                functools.partial(artha_odds, state, actor, fate=fate, deeds=deeds, pool=name)
            )
            out.append(Choice(actor, "spend_artha", params, odds=odds, label=label))
    kept = Later(functools.partial(_kept_odds, state, actor, tuple(name for name, _ in pools)))
    out.append(Choice(actor, "keep", odds=kept, label="keep the roll"))
    return out


def _kept_odds(state: KingdomsState, actor: str, pools: tuple[str, ...]) -> tuple[OddsPreview, ...]:
    """What keeping the roll of each pool buys (:func:`artha_odds`, no artha)."""
    return tuple(
        o for name in pools for o in artha_odds(state, actor, fate=False, deeds=False, pool=name)
    )


def _tie_choices(state: KingdomsState, actor: str, faction: Faction) -> list[Choice]:
    """A tied versus test's tie-breaker, offered to each side with its odds against each root
    stat the opponent may choose (or the one it agreed to): one choice, or none. Each side
    tests a root stat of the skill it used (:func:`.tie_breaker.roots_for`); a side with none
    on its roller's sheet cannot break the tie."""
    opponents, roots = tie_break_offer(state, actor)
    if not opponents:
        return []
    odds = Later(functools.partial(_tie_odds, state, faction, opponents, roots))
    params: dict[str, Domain] = {"opponent": OneOf(opponents), "root": OneOf(roots)}
    return [Choice(actor, "tie_break", params, odds=odds, label="agree to a tie-breaker")]


def _tie_odds(
    state: KingdomsState, faction: Faction, opponents: tuple[str, ...], roots: tuple[str, ...]
) -> tuple[OddsPreview, ...]:
    """The tie-breaker's odds against each opponent and root stat, worked out when read."""
    return tuple(
        preview
        for o in opponents
        for r in roots
        for preview in tie_break_odds(state, faction, TieBreak(opponent=o, root=r))
    )


def choices_for(state: KingdomsState, actor: str) -> tuple[Choice, ...]:
    """Every action kind open to ``actor`` now, each parameter with its domain."""
    faction = state.factions.get(actor)
    if faction is None or state.phase == "over":
        return ()  # the chronicle is over: its record, export and handouts remain
    out: list[Choice] = [
        Choice(actor, "objective", {"text": Text("Hold the high throne")}),
        Choice(actor, "new_session"),
    ]
    phase = state.phase
    if phase == "prologue" and faction.prologue is None:
        listed = _skills_for(faction.leader, setup_tables().prologue_skills)
        skills = listed or tuple(faction.leader.skills)
        if skills:
            params: dict[str, Domain] = {"skill": OneOf(skills)}
            if not listed:
                params["substitute"] = OneOf((True,))
            odds = tuple(
                prologue_preview(faction, s, faction.leader.skill(s) or _none()) for s in skills
            )
            out.append(Choice(actor, "prologue", params, odds=odds))
    if phase == "maneuver" and not faction.out:
        if not faction.cannot_act and not state.scenes:
            out += _slip_choices(state, faction)
        sealed = all(f in state.slips for f in state.acting())
        if actor not in state.passed and sealed:
            out += _scene_choices(state, faction)
        out += _health_choices(state, faction)
        if actor not in state.passed:
            out.append(Choice(actor, "pass"))
        waiting = [f for f in state.standing() if f not in state.passed]
        missing = [f for f in state.acting() if f not in state.slips]
        if not waiting and not missing:
            out.append(Choice(actor, "reveal", label="read the slips"))
    if phase == "rolled":
        test = state.rolls.get(actor)
        if test is not None and not test.decided:
            out += _artha_choices(state, actor, faction)
        out += _tie_choices(state, actor, faction)
        if actor == state.reader and all(t.decided for t in state.rolls.values()):
            out.append(Choice(actor, "resolve"))
    if phase == "consequences":
        candidates = state.pending_conquest.get(actor)
        if candidates:
            out.append(Choice(actor, "choose_conqueror", {"conqueror": OneOf(candidates)}))
        elif faction.out and faction.joined is None and state.standing():
            out.append(Choice(actor, "join", {"faction": OneOf(state.standing())}))
    if phase in ("consequences", "downtime") and faction.maintenance and not faction.out:
        out.append(Choice(actor, "maintenance"))
    owing = any(state.factions[f].maintenance for f in state.standing())
    if phase == "downtime" and not faction.out and not owing:
        out.append(Choice(actor, "next_maneuver"))
    if any(
        o.conqueror == actor and o.lost_affiliation is not None and not o.affiliation_bought
        for o in state.factions.values()
    ):
        out.append(Choice(actor, "buy_affiliation"))
    return tuple(out)


def has_a_move(state: KingdomsState, actor: str) -> bool:
    """True if ``actor`` has something to do now beyond what is open at any time."""
    return any(c.kind not in ALWAYS for c in choices_for(state, actor))

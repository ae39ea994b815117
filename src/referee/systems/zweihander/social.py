"""Social Intrigue (house rules, "Social Intrigue").

A Simple Exchange is one Test of the appropriate Skill; its Difficulty comes from the NPC's
Alignment, which of the PC's Ranks (Order or Chaos) is higher, and whether they share a Social
Class. A Critical Failure imposes 2D10+2 mental Peril.

A Complex Exchange: each character picks a Social Tactic (a Skill); the GM secretly picks a
Favourable Skill (Successes become Critical Successes) and an Unfavourable one (Failures become
Critical Failures); burning 1 Reputation Point grants an Assist Die; the NPC's Disposition and
the Test's result give the outcome from the success and failure tables. A Critical Success
treats the Disposition as Helpful and awards the party 1 Fortune Point; a Critical Failure treats
it as Hostile and imposes 2D10+2 mental Peril.

>>> simple_exchange_difficulty("order", pc_order_ranks=3, pc_chaos_ranks=1, same_class=True)
20
>>> tactic_outcome("Charm", "Indifferent", success=True)
'Favorable'
>>> from referee.core import Outcome
>>> exchange_outcome("Guile", "Unfriendly", Outcome.CRITICAL_SUCCESS)
('Helpful', 'Gullible')
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from referee.core import (
    REFEREE,
    REFEREE_ONLY,
    Action,
    ActionSpec,
    Builder,
    Choice,
    Event,
    NoParams,
    OddsPreview,
    OneOf,
    Outcome,
    Params,
    RuleError,
    Secret,
    SomeOf,
    Text,
    Viewer,
    Who,
)
from referee.core.naming import title_of
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.zweihander.character import Character
from referee.systems.zweihander.emit import (
    character_payload,
    test_card,
    test_json,
    test_preview,
)
from referee.systems.zweihander.events import (
    EXCHANGE_ENDED,
    EXCHANGE_STARTED,
    EXCHANGE_TACTIC_TESTED,
    SIMPLE_EXCHANGE,
)
from referee.systems.zweihander.percentile import SkillTest, bump, canonical, difficulty, roll_peril
from referee.systems.zweihander.state import ExchangeState, ZweihanderState
from referee.systems.zweihander.tables import social_table

__all__ = [
    "ALIGNMENTS",
    "DISPOSITIONS",
    "EXCHANGE_END",
    "EXCHANGE_START",
    "EXCHANGE_TACTIC",
    "KINDS",
    "SIMPLE",
    "SPECS",
    "TACTICS",
    "choices",
    "decide_exchange_end",
    "decide_exchange_start",
    "decide_exchange_tactic",
    "decide_simple",
    "disposition",
    "evolve",
    "exchange_outcome",
    "odds_of",
    "rank_standing",
    "simple_exchange_difficulty",
    "tactic",
    "tactic_outcome",
]

ALIGNMENTS = ("order", "chaos")
"""An NPC is Order-aligned or Chaos-aligned."""

TACTICS = ("Bargain", "Charm", "Guile", "Interrogation", "Intimidate", "Leadership", "Rumour")
"""The Social Tactics, each a Skill."""

DISPOSITIONS = ("Helpful", "Friendly", "Polite", "Indifferent", "Impolite", "Unfriendly", "Hostile")
"""An NPC's Disposition toward the characters, best first."""


SECTION = "Social Intrigue"

Alignment = Annotated[
    Literal["order", "chaos"],
    BeforeValidator(
        lambda v: v.strip().lower().removesuffix("-aligned") if isinstance(v, str) else v
    ),
]
"""An NPC's Alignment: order or chaos ("Order-aligned" reads as order)."""
Tactic = Annotated[
    Literal["Bargain", "Charm", "Guile", "Interrogation", "Intimidate", "Leadership", "Rumour"],
    BeforeValidator(lambda v: canonical((*TACTICS, "Rumour"))(v) if v != "Rumor" else "Rumour"),
]
"""A Social Tactic (any case; "Rumor" reads as "Rumour", as the tables spell it)."""
Disposition = Annotated[
    Literal["Helpful", "Friendly", "Polite", "Indifferent", "Impolite", "Unfriendly", "Hostile"],
    BeforeValidator(canonical(DISPOSITIONS)),
]
"""An NPC's Disposition (any case)."""


class SimpleExchangeParams(Params):
    """``social.simple``: the ``skill`` tested, the NPC's Alignment and Social Class."""

    skill: str
    npc_alignment: Alignment
    npc_class: str = ""


class ExchangeStart(Params):
    """``exchange.start`` (the GM): the NPC, their Disposition, Alignment and Social Class, who
    takes part, the objectives and stakes, and the GM's secret Favourable and Unfavourable
    Skills."""

    npc: str
    disposition: Disposition
    npc_alignment: Alignment
    npc_class: str = ""
    participants: list[str] = Field(min_length=1)
    objectives: str = ""
    stakes: str = ""
    favourable: Tactic
    unfavourable: Tactic


class ExchangeTactic(Params):
    """``exchange.tactic``: the Social Tactic used, and whether a Reputation Point is burnt for
    an Assist Die."""

    tactic: Tactic
    burn_reputation: bool = False


SIMPLE = ActionSpec(
    "social.simple",
    SimpleExchangeParams,
    section="Social Intrigue / Simple Exchange",
    who=Who.CHARACTER,
    summary="one Test of the Skill; Difficulty from the NPC's Alignment and the PC's ranks",
    record="everyone",
)
EXCHANGE_START = ActionSpec(
    "exchange.start",
    ExchangeStart,
    section="Social Intrigue / Complex Exchange",
    who=Who.REFEREE,
    summary="begin a Complex Exchange; the Favourable and Unfavourable Skills stay secret",
    record="actor",
)
EXCHANGE_TACTIC = ActionSpec(
    "exchange.tactic",
    ExchangeTactic,
    section="Social Intrigue / Complex Exchange (Social Tactics)",
    who=Who.CHARACTER,
    summary="a Social Tactic Test, read on the NPC's Disposition",
    record="everyone",
)
EXCHANGE_END = ActionSpec(
    "exchange.end",
    NoParams,
    section="Social Intrigue / Complex Exchange",
    who=Who.REFEREE,
    summary="end the exchange and reveal the GM's Skills",
    record="everyone",
)
SPECS = (SIMPLE, EXCHANGE_START, EXCHANGE_TACTIC, EXCHANGE_END)
"""The actions of Social Intrigue."""
KINDS = frozenset({SIMPLE_EXCHANGE, EXCHANGE_STARTED, EXCHANGE_TACTIC_TESTED, EXCHANGE_ENDED})
"""The events of Social Intrigue."""


def rank_standing(pc_order_ranks: int, pc_chaos_ranks: int) -> str:
    """Which of the PC's Ranks is higher: "order higher", "chaos higher" or "equal"."""
    if pc_order_ranks > pc_chaos_ranks:
        return "order higher"
    if pc_chaos_ranks > pc_order_ranks:
        return "chaos higher"
    return "equal"


def simple_exchange_difficulty(
    npc_alignment: str, *, pc_order_ranks: int, pc_chaos_ranks: int, same_class: bool
) -> int:
    """The Difficulty Rating of a Simple Exchange (and of a Social Tactic Test), from the tables."""
    alignment = npc_alignment.lower().removesuffix("-aligned")
    if alignment not in ALIGNMENTS:
        raise RuleError(
            "Simple Exchange", f"an NPC is order or chaos aligned, not {npc_alignment!r}"
        )
    standing = rank_standing(pc_order_ranks, pc_chaos_ranks)
    cls = "same class" if same_class else "different class"
    return difficulty(social_table()["simple_exchange"][alignment][standing][cls])


def tactic(name: str) -> str:
    """The Social Tactic by name ("Rumor" is read as "Rumour", as the tables spell it)."""
    for t in TACTICS:
        if t.lower() == name.strip().lower() or (t == "Rumour" and name.strip().lower() == "rumor"):
            return t
    raise RuleError(
        "Complex Exchange", f"a Social Tactic is one of {', '.join(TACTICS)}, not {name!r}"
    )


def disposition(name: str) -> str:
    """The Disposition by name."""
    for d in DISPOSITIONS:
        if d.lower() == name.strip().lower():
            return d
    raise RuleError(
        "Complex Exchange", f"a Disposition is one of {', '.join(DISPOSITIONS)}, not {name!r}"
    )


def tactic_outcome(tactic_name: str, disposition_name: str, *, success: bool) -> str:
    """The cell of the SUCCESSFUL or FAILED SOCIAL TACTICS CHECK table."""
    row = social_table()["success" if success else "failure"][tactic(tactic_name)]
    return str(row[DISPOSITIONS.index(disposition(disposition_name))])


def exchange_outcome(tactic_name: str, disposition_name: str, outcome: Outcome) -> tuple[str, str]:
    """The Disposition the result is read at, and the outcome: a Critical Success reads as
    Helpful, a Critical Failure as Hostile."""
    read_as = disposition(disposition_name)
    if outcome is Outcome.CRITICAL_SUCCESS:
        read_as = "Helpful"
    elif outcome is Outcome.CRITICAL_FAILURE:
        read_as = "Hostile"
    return read_as, tactic_outcome(tactic_name, read_as, success=outcome.is_success)


# ------------------------------------------------------------------------------ at the table


def _difficulty(c: Character, alignment: str, npc_class: str) -> int:
    return simple_exchange_difficulty(
        alignment,
        pc_order_ranks=c.order_ranks,
        pc_chaos_ranks=c.chaos_ranks,
        same_class=c.social_class.lower() == npc_class.lower(),
    )


def _tactic_skill(c: Character, chosen: str) -> str:
    return "Rumor" if chosen == "Rumour" and "Rumor" in c.skills else chosen


def decide_simple(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``social.simple``: one Test; a Critical Failure imposes mental Peril."""
    p = SIMPLE.of(action)
    c = b.state.character(action.actor)
    test = SkillTest(c.chance(p.skill), _difficulty(c, p.npc_alignment, p.npc_class))
    result = test.roll(dice)
    payload: dict[str, Any] = {
        "character": c.id,
        "test": test_json(test, result, p.skill),
        "roll": test_card(
            test, result, f"{title_of(c.id)} tests {p.skill} (Simple Exchange)", "Simple Exchange"
        ),
    }
    after = c
    if result.outcome is Outcome.CRITICAL_FAILURE:
        peril, faces = roll_peril(str(social_table()["critical_failure_peril"]), dice)
        after = c.suffer_peril(peril)
        payload.update(mental_peril=peril, peril_faces=list(faces))
    b.emit(SIMPLE_EXCHANGE, character_payload(b.state, payload, [after]))


def decide_exchange_start(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``exchange.start``: the GM's Favourable and Unfavourable Skills are secret parts."""
    p = EXCHANGE_START.of(action)
    if b.state.exchange is not None and not b.state.exchange.ended:
        raise RuleError("exchange.start", "a Complex Exchange is already under way")
    for who in p.participants:
        b.state.character(who)
    if len(set(p.participants)) != len(p.participants):
        raise RuleError("exchange.start", f"a participant is named twice: {p.participants}")
    if p.favourable == p.unfavourable:
        raise RuleError("exchange.start", "the Favourable and Unfavourable Skills differ")
    b.emit(
        EXCHANGE_STARTED,
        {
            "npc": p.npc,
            "disposition": p.disposition,
            "npc_alignment": p.npc_alignment,
            "npc_class": p.npc_class,
            "participants": list(p.participants),
            "objectives": p.objectives,
            "stakes": p.stakes,
        },
        secrets=(
            Secret("favourable", p.favourable, REFEREE_ONLY),
            Secret("unfavourable", p.unfavourable, REFEREE_ONLY),
        ),
    )


def tactic_test(state: ZweihanderState, action: Action) -> SkillTest:
    """The Social Tactic Test an ``exchange.tactic`` rolls, as rolled: before the GM's secret
    Favourable or Unfavourable Skill bumps its outcome (:class:`RuleError` where the rules
    refuse the action)."""
    ex = state.exchange
    if ex is None or ex.ended:
        raise RuleError("exchange.tactic", "no Complex Exchange is under way")
    who = action.actor
    if who not in ex.participants:
        raise RuleError("exchange.tactic", f"{who} is not taking part in the exchange")
    if who in ex.tested:
        raise RuleError("exchange.tactic", f"{who} has already made their Social Tactic Test")
    p = EXCHANGE_TACTIC.of(action)
    c = state.character(who)
    if p.burn_reputation and c.reputation < 1:
        raise RuleError("exchange.tactic (Reputation)", f"{who} has no Reputation Point to burn")
    chance = c.chance(_tactic_skill(c, tactic(p.tactic)))
    dr = _difficulty(c, ex.npc_alignment, ex.npc_class)
    return SkillTest(chance, dr, assist=p.burn_reputation)


def decide_exchange_tactic(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``exchange.tactic``: the Test, bumped by the GM's Skills; the bump is a secret part."""
    test = tactic_test(b.state, action)  # refuses what the rules refuse
    ex = b.state.exchange
    assert ex is not None
    who = action.actor
    p = EXCHANGE_TACTIC.of(action)
    chosen = tactic(p.tactic)
    c = b.state.character(who)
    burn = p.burn_reputation
    result = test.roll(dice)
    outcome = bump(
        result.outcome,
        favourable=chosen == ex.favourable,
        unfavourable=chosen == ex.unfavourable,
    )
    read_as, words = exchange_outcome(chosen, ex.disposition, outcome)
    after = evolved(c, reputation=c.reputation - 1) if burn else c
    payload: dict[str, Any] = {
        "character": who,
        "tactic": chosen,
        "test": test_json(test, result, chosen),
        # the card is the roll as rolled: its odds and outcome know nothing of the GM's Skills
        "roll": test_card(test, result, f"{title_of(who)} uses {chosen}", "Complex Exchange"),
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
    b.emit(EXCHANGE_TACTIC_TESTED, character_payload(b.state, payload, [after]), secrets=secrets)


def decide_exchange_end(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``exchange.end``: the GM's Skills are revealed to everyone."""
    ex = b.state.exchange
    if ex is None or ex.ended:
        raise RuleError("exchange.end", "no Complex Exchange is under way")
    b.emit(
        EXCHANGE_ENDED,
        {
            "npc": ex.npc,
            "favourable": ex.favourable,
            "unfavourable": ex.unfavourable,
            "results": {k: v for k, v in ex.results},
        },
    )


def odds_of(state: ZweihanderState, action: Action, viewer: Viewer) -> tuple[OddsPreview, ...]:
    """The exact odds of ``social.simple`` or ``exchange.tactic`` with its parameters as given,
    or none where the rules would refuse it.

    A Social Tactic's odds are those of the Test as rolled (its roll card's) for everyone but
    the GM: the Favourable and Unfavourable Skills are the GM's secret until the exchange ends,
    and odds with the bump in them would name them. The GM sees the odds of the outcome as it
    will be read, bump included.
    """
    try:
        if action.kind == SIMPLE.kind:
            p = SIMPLE.of(action)
            c = state.character(action.actor)
            test = SkillTest(c.chance(p.skill), _difficulty(c, p.npc_alignment, p.npc_class))
            return (test_preview(test, f"{title_of(c.id)} tests {p.skill}", "Simple Exchange"),)
        if action.kind == EXCHANGE_TACTIC.kind:
            test = tactic_test(state, action)
            chosen = tactic(EXCHANGE_TACTIC.of(action).tactic)
            label = f"{title_of(action.actor)} uses {chosen}"
            ex = state.exchange
            if viewer.is_referee and ex is not None:
                bumped = evolved(
                    test, favourable=chosen == ex.favourable, unfavourable=chosen == ex.unfavourable
                )
                if bumped != test:
                    which = "Favourable" if bumped.favourable else "Unfavourable"
                    label += f" (your {which} Skill)"
                return (test_preview(bumped, label, "Complex Exchange"),)
            return (test_preview(test, label, "Complex Exchange"),)
    except RuleError:
        return ()
    return ()


def evolve(state: ZweihanderState, event: Event) -> ZweihanderState:
    """Fold an exchange event (character changes are folded by the procedure)."""
    d = event.data
    if event.kind == EXCHANGE_STARTED:
        fav, unfav = d.get("favourable"), d.get("unfavourable")
        participants = d["participants"]
        return evolved(
            state,
            exchange=ExchangeState(
                npc=str(d["npc"]),
                disposition=str(d["disposition"]),
                npc_alignment=str(d["npc_alignment"]),
                npc_class=str(d["npc_class"]),
                participants=tuple(
                    str(x) for x in (participants if isinstance(participants, list) else [])
                ),
                objectives=str(d.get("objectives", "")),
                stakes=str(d.get("stakes", "")),
                favourable=None if fav is None else str(fav),
                unfavourable=None if unfav is None else str(unfav),
            ),
        )
    if event.kind == EXCHANGE_TACTIC_TESTED and state.exchange is not None:
        ex = state.exchange
        who = str(d["character"])
        state = evolved(
            state,
            exchange=evolved(
                ex, tested=(*ex.tested, who), results=(*ex.results, (who, str(d["result"])))
            ),
        )
        return evolved(state, fortune_points=state.fortune_points + int(str(d["fortune_points"])))
    if event.kind == EXCHANGE_ENDED and state.exchange is not None:
        return evolved(state, exchange=evolved(state.exchange, ended=True))
    return state


def _able(c: Character) -> bool:
    return not (c.is_incapacitated or c.is_slain)


def choices(state: ZweihanderState, actor: str) -> list[Choice]:
    """The exchange steps open to ``actor``: the GM starts and ends one; each participant
    who has not tested picks a Tactic they have a Base Chance for (the odds shown know nothing
    of the GM's secret Skills); anyone able may try a Simple Exchange."""
    ex = state.exchange
    under_way = ex is not None and not ex.ended
    out: list[Choice] = []
    if actor == REFEREE:
        if under_way:
            out.append(Choice(actor, EXCHANGE_END.kind, label="end the Complex Exchange"))
        elif any(_able(c) for c in state.characters):
            out.append(
                Choice(
                    actor,
                    EXCHANGE_START.kind,
                    {
                        "npc": Text("the magistrate"),
                        "disposition": OneOf(DISPOSITIONS),
                        "npc_alignment": OneOf(ALIGNMENTS),
                        "participants": SomeOf(
                            tuple(c.id for c in state.characters if _able(c)), least=1
                        ),
                        "favourable": OneOf(TACTICS),
                        "unfavourable": OneOf(TACTICS),
                    },
                    label="begin a Complex Exchange",
                )
            )
        return out
    mine = [c for c in state.characters if c.id == actor and _able(c)]
    if not mine:
        return out
    c = mine[0]
    if ex is not None and under_way and actor in ex.participants and actor not in ex.tested:
        usable = [t for t in TACTICS if _tactic_skill(c, t) in c.skills]
        if usable:
            dr = _difficulty(c, ex.npc_alignment, ex.npc_class)
            out.append(
                Choice(
                    actor,
                    EXCHANGE_TACTIC.kind,
                    {
                        "tactic": OneOf(tuple(usable)),
                        "burn_reputation": OneOf((False, True) if c.reputation >= 1 else (False,)),
                    },
                    odds=tuple(
                        test_preview(
                            SkillTest(c.chance(_tactic_skill(c, t)), dr),
                            f"{actor} uses {t}",
                            "Complex Exchange",
                        )
                        for t in usable
                    ),
                    label="make your Social Tactic Test",
                )
            )
    if c.skills:
        out.append(
            Choice(
                actor,
                SIMPLE.kind,
                {"skill": OneOf(tuple(sorted(c.skills))), "npc_alignment": OneOf(ALIGNMENTS)},
                label="try a Simple Exchange",
            )
        )
    return out

"""The choices: what each seat may do now, with the values the rules allow (``legal_actions``).

Out of combat, section by section of the text (:func:`evening_choices`); in a combat, the
Combat Actions in initiative order and what may be done between rounds (:func:`combat_choices`);
the referee's own (:func:`referee_choices`). The procedure (:meth:`decide`) is still the
authority on any action: a choice offers only what the state says the rules allow.
"""

from __future__ import annotations

from referee.core import REFEREE, Between, Choice, Domain, OddsPreview, OneOf, SomeOf, Text
from referee.core.actions import Later
from referee.systems.intrigue import combat as fight
from referee.systems.intrigue import damage
from referee.systems.intrigue.characters import ENGLISH, MEDICINE, Character
from referee.systems.intrigue.combat_actions import ranked_above
from referee.systems.intrigue.envelopes import ConditionKind
from referee.systems.intrigue.rules import (
    ESCAPE_DEFENSIVE_ACTIONS,
    SCREAM_BONUS_LIMIT,
    attack_check,
    attack_target_number,
    medicine_check,
)
from referee.systems.intrigue.state import Combat, IntrigueState

__all__ = [
    "combat_choices",
    "evening_choices",
    "opening_choices",
    "referee_choices",
    "who_does_what",
]


def who_does_what(words: str) -> str:
    """``scarface attack krockin`` of ``scarface attack krockin: 3d6+2 > 14`` (the preview's
    dice are the card's own). The dice follow the last ``": "``: a skill's name may hold one
    (``ann Lore: Egypt: 3d6+2 ≥ 12``)."""
    who, colon, _ = words.rpartition(": ")
    return who if colon else words


def referee_choices(state: IntrigueState) -> tuple[Choice, ...]:
    choices: list[Choice] = []
    running = state.running
    if not running:
        return ()
    ready = [c.id for c in running if c.in_round and not fight.pending_declarers(state, c)]
    if ready:
        odds = Later(  # the checks of the next place, planned only when someone reads them
            lambda: [
                OddsPreview.of(check, who_does_what(words), rule="Combat Actions")
                for cid in ready
                for words, check in fight.preview(state, cid)
            ]
        )
        choices.append(
            Choice(REFEREE, "resolve", {"combat": OneOf(tuple(ready))}, odds=odds, label="resolve")
        )
    between = [c.id for c in running if not c.in_round]
    if between:
        choices.append(Choice(REFEREE, "next_round", {"combat": OneOf(tuple(between))}))
    choices.append(Choice(REFEREE, "end_combat", {"combat": OneOf(tuple(c.id for c in running))}))
    fighting = tuple(p for c in running for p in c.participants if state.is_active(c, p))
    free = tuple(
        c.id
        for c in state.characters
        if state.status(c.id).can_act
        and state.combat_of(c.id) is None
        and not any(c.id in r.escaped for r in running)
    )
    if fighting and free:
        choices.append(
            Choice(REFEREE, "admit", {"character": OneOf(free), "with": OneOf(fighting)})
        )
    return tuple(choices)


def _others(state: IntrigueState, me: Character) -> tuple[str, ...]:
    return tuple(c.id for c in state.characters if c.id != me.id)


def _knocked_out_after_combat(state: IntrigueState) -> tuple[str, ...]:
    return tuple(
        c.id
        for c in state.characters
        if state.status(c.id).knocked_out and state.status(c.id).wake_due is not None
    )


def evening_choices(state: IntrigueState, me: Character) -> tuple[Choice, ...]:
    """What ``me`` may do out of combat, section by section of the text."""
    return (
        *_perception_choices(state, me),
        *_roll_choices(state, me),
        *_contingency_choices(state, me),
        *_language_choices(state, me),
        *_starting_choices(state, me),
        *_mental_choices(state, me),
        *_victors_choices(state, me),
    )


def _perception_choices(state: IntrigueState, me: Character) -> list[Choice]:
    """Perception Envelopes: a check on whom the 15 minutes allow."""
    fresh = tuple(o for o in _others(state, me) if state.cooldown_until(me.id, o) is None)
    return [Choice(me.id, "perceive", {"target": OneOf(fresh)}, label="perceive")] if fresh else []


def _contingency_choices(state: IntrigueState, me: Character) -> list[Choice]:
    """Contingency Envelopes: report a happening, an encounter; open what may be opened."""
    others = _others(state, me)
    choices: list[Choice] = []
    mine = [e for e in state.contingency_envelopes if e.holder == me.id]
    happenings = tuple(
        dict.fromkeys(
            e.condition.event
            for e in mine
            if e.condition.kind is ConditionKind.EVENT and e.id not in state.openable
        )
    )
    report: Domain = OneOf(happenings) if happenings else Text("shot")
    choices.append(Choice(me.id, "report", {"event": report}))
    if others:
        choices.append(
            Choice(
                me.id,
                "encounter",
                {"character": OneOf(others), "how": OneOf(("see", "meet", "talk"))},
            )
        )
    return [*choices, *opening_choices(state, me)]


def opening_choices(state: IntrigueState, me: Character) -> tuple[Choice, ...]:
    """Contingency Envelopes: open one whose condition is met — in a combat, or Knocked Out,
    too (ruling 29: the prompt reaches its holder at that moment)."""
    openable = tuple(
        e.id
        for e in state.contingency_envelopes
        if e.holder == me.id and e.id in state.openable and e.id not in state.opened
    )
    return (Choice(me.id, "open", {"envelope": OneOf(openable)}),) if openable else ()


def _roll_choices(state: IntrigueState, me: Character) -> list[Choice]:
    """Skill Rolls: against a Target Number, or another character."""
    others = _others(state, me)
    skills = tuple(dict.fromkeys(("Perception", *(name for name, _ in me.skills))))
    choices = [
        Choice(
            me.id,
            "roll",
            {"skill": OneOf(skills), "target": Between(3, 24)},
            label="skill roll against a Target Number",
        )
    ]
    if others:
        choices.append(
            Choice(
                me.id,
                "roll",
                {"skill": OneOf(skills), "against": OneOf(others)},
                label="skill roll against another character",
            )
        )
    return choices


def _language_choices(state: IntrigueState, me: Character) -> list[Choice]:
    """Languages: speak one the character knows, to listeners."""
    others = _others(state, me)
    choices: list[Choice] = []
    languages = tuple(dict.fromkeys(([ENGLISH] if me.speaks_english else []) + list(me.languages)))
    if languages:
        choices.append(
            Choice(
                me.id,
                "speak",
                {
                    "language": OneOf(languages),
                    "listeners": SomeOf(others, least=1),
                    "content": Text("Hm."),
                },
            )
        )
    return choices


def _starting_choices(state: IntrigueState, me: Character) -> list[Choice]:
    """Draw a Weapon or Item, and Starting Combat (shout it, perhaps surprising one; join one
    just shouted)."""
    others = _others(state, me)
    choices: list[Choice] = []
    if me.items:
        choices.append(Choice(me.id, "draw", {"item": OneOf(tuple(i.name for i in me.items))}))
    ready = tuple(o for o in others if state.status(o).can_act and state.combat_of(o) is None)
    if ready:
        choices.append(
            Choice(
                me.id,
                "start_combat",
                {"targets": SomeOf(ready, least=1, most=min(3, len(ready)))},
                label="start a combat",
            )
        )
        choices.extend(
            Choice(
                me.id,
                "start_combat",
                {"targets": OneOf(([o],)), "surprised": OneOf(([o],))},
                label=f"start a combat, surprising {o}",
            )
            for o in ready
        )
    joinable = tuple(
        p
        for c in state.running
        if c.round == 0 and not c.is_surprise and me.id not in c.escaped
        for p in c.participants
    )
    if joinable:
        choices.append(Choice(me.id, "join", {"with": OneOf(joinable)}))
    return choices


def _mental_choices(state: IntrigueState, me: Character) -> list[Choice]:
    """Mental Combat: an unnoticed mental attack on one not in a combat, with its odds — a
    damaging one (``obvious: false``, RULINGS.md Round 3) on one still on their feet."""
    unnoticed = [a for a in me.abilities if a.mental and not a.is_obvious]
    quiet = tuple(o for o in _others(state, me) if state.combat_of(o) is None)
    standing = tuple(o for o in quiet if state.status(o).can_act)
    groups = (
        ([a for a in unnoticed if not a.damage], quiet),
        ([a for a in unnoticed if a.damage], standing),
    )
    return [
        Choice(
            me.id,
            "mental_attack",
            {"target": OneOf(targets), "ability": OneOf(tuple(a.name for a in abilities))},
            odds=tuple(
                OddsPreview.of(
                    attack_check(
                        me.mind,
                        a.target
                        if a.target is not None
                        else attack_target_number(state.character(o).mind),
                    ),
                    f"{me.id} {a.name} {o}",
                    rule="Mental Combat",
                )
                for a in abilities
                for o in targets
            ),
        )
        for abilities, targets in groups
        if abilities and targets
    ]


def _victors_choices(state: IntrigueState, me: Character) -> list[Choice]:
    """Taking Damage: Medicine wakes the Knocked Out; the victor has their way with them
    (slay, search, rob)."""
    fallen = _knocked_out_after_combat(state)
    if not fallen:
        return []
    choices: list[Choice] = []
    if me.has_skill(MEDICINE):
        choices.append(
            Choice(
                me.id,
                "revive",
                {"target": OneOf(fallen)},
                odds=(
                    OddsPreview.of(
                        medicine_check(me.skill(MEDICINE)),
                        f"{me.id} wakes the Knocked Out",
                        rule="Taking Damage",
                    ),
                ),
            )
        )
    beaten = tuple(f for f in fallen if me.id in damage.victors(state, f))
    if beaten:
        choices.append(Choice(me.id, "slay", {"target": OneOf(beaten)}))
        choices.append(Choice(me.id, "search", {"target": OneOf(beaten)}))
        # one choice a victim: the items are that victim's (the victor may search first)
        choices.extend(
            Choice(
                me.id,
                "rob",
                {"target": OneOf((f,)), "item": OneOf(robbable)},
                label=f"rob {f}",
            )
            for f in beaten
            if (robbable := _robbable(me, state.character(f)))
        )
    return choices


def _robbable(me: Character, victim: Character) -> tuple[str, ...]:
    """The Item Cards ``me`` may take from ``victim``: those whose name ``me`` does not hold."""
    return tuple(i.name for i in victim.items if me.item(i.name) is None)


def _declaration_choices(
    state: IntrigueState, me: Character, combat: Combat, *, held_over: bool
) -> list[Choice]:
    """The Combat Actions ``me`` may declare now (``held_over``: a held action taken now)."""
    who = me.id

    def choice(action: str, label: str = "", **params: Domain) -> Choice:
        return Choice(who, "declare", {"action": OneOf((action,)), **params}, label=label or action)

    targets = tuple(
        p
        for p in combat.participants
        if p != who and state.is_active(combat, p) and combat.side_of(p) != combat.side_of(who)
    )
    scream = choice("scream", bonus=Between(0, SCREAM_BONUS_LIMIT))
    if who in combat.held_at_start:
        return [choice("break_free"), scream]
    if who in combat.holding_at_start and combat.held_by(who) is not None:
        return [choice("squeeze"), choice("throw"), choice("release")]
    hold = [] if held_over else [choice("hold")]
    if who in combat.by_mind:
        mental = tuple(a.name for a in me.abilities if a.mental and a.in_combat)
        attack = (
            [choice("attack", "mental attack", target=OneOf(targets), ability=OneOf(mental))]
            if targets and mental
            else []
        )
        return attack + hold
    choices = [choice("defend"), scream, *hold]
    if targets:
        choices.append(choice("attack", target=OneOf(targets)))
        free = tuple(t for t in targets if combat.holder_of(t) is None)
        if free:
            choices.append(choice("grab", target=OneOf(free)))
    if me.items:
        choices.append(choice("draw", item=OneOf(tuple(i.name for i in me.items))))
    return choices


def combat_choices(state: IntrigueState, me: Character, combat: Combat) -> tuple[Choice, ...]:
    who = me.id
    choices: list[Choice] = []
    which = {"combat": OneOf((combat.id,))}
    if combat.in_round:
        waiting = fight.pending_declarers(state, combat)
        mine = combat.declaration(who)
        if who in waiting:
            rank = fight.initiative_rank(state, combat, who)
            if not any(fight.initiative_rank(state, combat, c) > rank for c in waiting):
                choices += _declaration_choices(state, me, combat, held_over=False)
        elif (
            not waiting
            and mine is not None
            and mine.kind == "hold"
            and not mine.resolved
            and not ranked_above(combat, mine)
        ):
            choices += _declaration_choices(state, me, combat, held_over=True)
        if not waiting:
            choices.append(Choice(who, "resolve", which))
        if not combat.declarations and _may_use_mind(state, me, combat):
            choices.append(Choice(who, "use_mind"))
        return tuple(choices)
    choices.append(Choice(who, "next_round", which))
    choices += _declaration_choices_next(state, me, combat)
    if (
        combat.round > 0
        and combat.streak(who) >= ESCAPE_DEFENSIVE_ACTIONS
        and who not in combat.escape_tried
    ):
        plan = fight.escape_plan(state, combat, who)
        odds = () if plan is None else (OddsPreview.of(plan[1], f"{who} escapes {plan[0]}"),)
        choices.append(Choice(who, "escape", odds=odds))
    if _may_use_mind(state, me, combat):
        choices.append(Choice(who, "use_mind"))
    return tuple(choices)


def _declaration_choices_next(state: IntrigueState, me: Character, combat: Combat) -> list[Choice]:
    """Between rounds a declaration begins the next round: offered to whoever declares first."""
    after = fight.round_start(state, combat)
    state2, combat2 = after[0], after[1]
    waiting = fight.pending_declarers(state2, combat2)
    if not waiting or me.id not in waiting:
        return []
    rank = fight.initiative_rank(state2, combat2, me.id)
    if any(fight.initiative_rank(state2, combat2, c) > rank for c in waiting):
        return []
    return _declaration_choices(state2, me, combat2, held_over=False)


def _may_use_mind(state: IntrigueState, me: Character, combat: Combat) -> bool:
    if not any(a.mental and a.in_combat for a in me.abilities):
        return False
    state2, combat2, _ = fight.round_start(state, combat)
    return (
        not combat2.declarations
        and fight.can_declare(state2, combat2, me.id)
        and me.id not in combat2.held_at_start
        and me.id not in combat2.holding_at_start
        and me.id not in combat2.by_mind
    )

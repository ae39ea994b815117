"""`referee hursagmu ...`: Hursagmu's encounter rules at the table.

- ``plan``: a round planner — each declared action's Initiative, the skill penalty, and the exact
  odds of each roll.
- ``standing``: a table record's round at a glance (hits, stances, Initiatives, penalties), as
  one seat may see it; play the table itself with ``referee table``.
- ``odds``: the exact odds of one skill roll (2d6 + bonus) against a challenge or an opponent.
- ``range``: the range challenge of a distance for an attack type, sorcery type or sense.

The rules live in :mod:`referee.systems.hursagmu`; this module only parses, calls and renders.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.cli.output import BAD_INPUT, console, read_table

if TYPE_CHECKING:
    from fractions import Fraction

    from referee.systems.hursagmu.rounds import ScheduledStep, Step
    from referee.systems.hursagmu.sheet import Character

STEP_HELP = (
    "steps in order: attack:TARGET[:SKILL[:YARDS[:ABILITY]]], defend[:SKILL], move:stand, "
    "move:foot:YARDS[:CHALLENGE], move:ride:YARDS, move:leap, move:mount, move:dismount, "
    "move:prone, haste, "
    "minor[:NAME[:INITIATIVE_PENALTY]], task:SKILL:CHALLENGE[:NAME]"
)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"referee: error: {message}", err=True)
    return typer.Exit(BAD_INPUT)


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise _fail(f"{what}: expected a whole number, not {text!r}") from None


def parse_step(text: str) -> Step:
    """A step from the planner's spelling (see ``STEP_HELP``).

    >>> parse_step("move:foot:16").describe(), parse_step("attack:fred").describe()
    ('move foot 16 yards', 'attack fred (striking)')
    """
    from referee.core import RuleError
    from referee.systems.hursagmu.rounds import Step

    where = f"step {text!r}"
    step = _parse_step(text, where)
    try:
        # The scenario files' checks: known skills, range entries, defences of Defense/Defiance.
        return Step.from_json(step.to_json())
    except RuleError as error:
        raise _fail(f"{where}: {error}") from None


def _parse_step(text: str, where: str) -> Step:
    from referee.core import RuleError
    from referee.systems.hursagmu.rounds import Step

    head, *rest = text.split(":")
    most = {"attack": 4, "defend": 1, "move": 3, "haste": 0, "minor": 2}.get(head)
    if most is not None and len(rest) > most:
        raise _fail(f"{where}: {len(rest) - most} field(s) too many ({STEP_HELP})")
    try:
        if head == "attack" and rest:
            skill = rest[1] if len(rest) > 1 and rest[1] else "striking"
            yards = _int(rest[2], where) if len(rest) > 2 else 0
            ability = rest[3] if len(rest) > 3 else None
            return Step.attack(rest[0], skill, yards=yards, ability=ability)
        if head == "defend":
            return Step.defend(rest[0] if rest else "defense")
        if head == "move" and rest:
            yards = _int(rest[1], where) if len(rest) > 1 and rest[1] else 0
            challenge = _int(rest[2], where) if len(rest) > 2 else 0
            return Step.move(rest[0], yards, challenge=challenge)
        if head == "haste" and not rest:
            return Step.haste()
        if head == "minor":
            penalty = _int(rest[1], where) if len(rest) > 1 else 0
            return Step.minor(rest[0] if rest else "", penalty)
        if head == "task" and len(rest) >= 2:
            return Step.task(rest[0], _int(rest[1], where), name=":".join(rest[2:]))
    except (RuleError, ValueError) as error:
        raise _fail(f"{where}: {error}") from None
    raise _fail(f"{where}: not a step ({STEP_HELP})")


def _or_dash(value: object) -> str:
    return "—" if value is None else str(value)


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:5.1f}%  ({p})"


# The help ends with an ANSI reset, so Rich reads it as ANSI text, not markup: markup would turn
# "move:foot:YARDS" into an emoji (Rich's ":foot:").
StepsArgument = Annotated[list[str], typer.Argument(help=STEP_HELP + "\x1b[0m")]
AgainstOption = Annotated[
    int | None,
    typer.Option(
        help="the opponent's bonus (attribute + skill + penalty) for attacks and defences"
    ),
]
WeaponTypeOption = Annotated[
    str,
    typer.Option(
        help="melee, thrown weapon or missile weapon: a ranged attack's range table "
        "entry when the step names none"
    ),
]
AttackerOption = Annotated[
    int | None,
    typer.Option(help="the attacker's bonus against the plan's defences (default: --against)"),
]


def plan_command(
    steps: StepsArgument,
    initiative: Annotated[int, typer.Option(help="the Initiative roll")] = 10,
    stance: Annotated[str, typer.Option(help="maneuver or concentrate")] = "maneuver",
    dexterity: Annotated[int, typer.Option("--dex", help="Dexterity")] = 0,
    intelligence: Annotated[int, typer.Option("--int", help="Intelligence")] = 0,
    strength: Annotated[int, typer.Option("--str", help="Strength")] = 0,
    willpower: Annotated[int, typer.Option("--wil", help="Willpower")] = 0,
    skill: Annotated[
        list[str] | None, typer.Option(help="a skill level, NAME=LEVEL (repeatable)")
    ] = None,
    against: AgainstOption = None,
    cinematic: Annotated[
        bool, typer.Option(help="the Master's cinematic option: defences count once")
    ] = False,
    max_lift: Annotated[int, typer.Option(help="maximum lift (encumbrance)")] = 100,
    load: Annotated[int, typer.Option(help="current load (encumbrance)")] = 0,
    mount: Annotated[int, typer.Option(help="yards per riding action (20-40)")] = 0,
    weapon_type: WeaponTypeOption = "melee",
    attacker: AttackerOption = None,
) -> None:
    """Plan a round: each action's Initiative, the skill penalty and each roll's odds."""
    from referee.core import RefereeError
    from referee.systems.hursagmu.movement import movement_rate
    from referee.systems.hursagmu.rounds import (
        DefenceMode,
        RoundPlan,
        schedule,
        skill_penalty,
        validate_plan,
    )
    from referee.systems.hursagmu.sheet import Character, Stance

    levels = _skill_levels(skill or [])
    parsed = [parse_step(s) for s in steps]
    try:
        chosen = Stance(stance)
    except ValueError:
        raise _fail(f"--stance {stance!r}: choose maneuver or concentrate") from None
    mode = DefenceMode.CINEMATIC if cinematic else DefenceMode.EACH
    try:
        sheet = Character(
            "planner",
            dexterity,
            intelligence,
            strength,
            willpower,
            skills=levels,
            max_lift=max_lift,
            load=load,
            mount=mount,
            weapon_type=weapon_type,
        )
        _check_planner_sheet(sheet, weapon_type, levels)
        round_plan = RoundPlan(
            tuple(parsed),
            rate=movement_rate(max_lift, load),
            mount=mount,
            mode=mode,
            max_lift=max_lift,
            load=load,
        )
        validate_plan(round_plan, chosen)
        items = schedule(round_plan, initiative)
        penalty = skill_penalty(round_plan)
    except RefereeError as error:
        raise _fail(str(error)) from None
    ranges = _range_challenges(steps, parsed, sheet)
    out = console()
    title = f"Round plan ({chosen.value}, Initiative {initiative})"
    out.print(_plan_table(title, items, ranges, sheet, penalty, against, attacker))
    out.print(
        f"skill penalty {penalty:+d} (every skill this round); movement actions "
        f"{round_plan.movement_actions()} (at most 4); defences count "
        f"{'once a round' if cinematic else 'one each'}"
    )


def _plan_table(
    title: str,
    items: tuple[ScheduledStep, ...],
    ranges: dict[int, int],
    sheet: Character,
    penalty: int,
    against: int | None,
    attacker: int | None,
) -> Any:
    """The round plan as a table: each action in Initiative order, its Initiative, its roll
    and its odds (an attack's against the range challenge of the step of its number)."""
    from rich.table import Table as RichTable

    table = RichTable(title=title)
    for column in ("#", "action", "Initiative", "roll", "odds"):
        table.add_column(column)
    for index, item in enumerate(items, start=1):
        init = "—" if item.initiative is None else str(item.initiative)
        if item.movement_actions:
            init += f"  ({item.movement_actions} movement)"
        roll_text, odds_text = _roll_and_odds(
            item.step, ranges.get(index, 0), sheet, penalty, against, attacker
        )
        table.add_row(str(index), item.step.describe(), init, roll_text, odds_text)
    return table


def _check_planner_sheet(sheet: Character, weapon_type: str, levels: dict[str, int]) -> None:
    """The planner's weapon type is one the range table knows, and its skills are known."""
    if weapon_type not in ("melee", "thrown weapon", "missile weapon"):
        raise _fail(f"--weapon-type {weapon_type!r}: melee, thrown weapon or missile weapon")
    for name in levels:
        sheet.skill_roll(name)


def _skill_levels(given: list[str]) -> dict[str, int]:
    """The planner's ``--skill NAME=LEVEL`` options, by skill name in lower case."""
    levels: dict[str, int] = {}
    for each in given:
        name, sep, level = each.partition("=")
        if not sep or not name:
            raise _fail(f"--skill {each!r}: expected NAME=LEVEL")
        levels[name.lower()] = _int(level, f"--skill {each!r}")
    return levels


def _range_challenges(steps: list[str], parsed: list[Step], sheet: Character) -> dict[int, int]:
    """The range challenge of each attack step at a distance, by the step's number."""
    from referee.core import RefereeError
    from referee.systems.hursagmu.action_phase import ranged_ability
    from referee.systems.hursagmu.movement import range_challenge
    from referee.systems.hursagmu.rounds import StepKind
    from referee.systems.hursagmu.state import Fighter

    ranges: dict[int, int] = {}
    shooter = Fighter(sheet, sheet.stamina)
    for index, (text, step) in enumerate(zip(steps, parsed, strict=True), start=1):
        if step.kind is StepKind.ATTACK and step.yards:
            try:
                ranges[index] = range_challenge(step.yards, ranged_ability(shooter, step))
            except RefereeError as error:
                raise _fail(f"step {index} {text!r}: {error}") from None
    return ranges


def _roll_and_odds(
    step: Step,
    range_extra: int,
    sheet: Character,
    penalty: int,
    against: int | None,
    attacker: int | None,
) -> tuple[str, str]:
    """A planned step's roll (2d6 + bonus) and the odds the planner shows for it."""
    from referee.systems.hursagmu.rounds import StepKind
    from referee.systems.hursagmu.sheet import SkillRoll

    roll_text, odds_text = "", ""
    if step.roll_skill is not None:
        roll = sheet.skill_roll(step.roll_skill, penalty)
        roll_text = roll.side.expression
        odds_text = f"{step.roll_skill} ≥ {step.challenge}: " + _percent(
            roll.against(step.challenge).odds().success
        )
    if step.skill is None or step.kind not in (StepKind.ATTACK, StepKind.DEFEND, StepKind.TASK):
        return roll_text, odds_text
    roll = sheet.skill_roll(step.skill, penalty)
    roll_text = roll.side.expression
    if step.kind is StepKind.TASK:
        odds_text = f"≥ {step.challenge}: " + _percent(roll.against(step.challenge).odds().success)
    elif against is None and step.kind is StepKind.ATTACK:
        # No opponent named: an undefended target, an unopposed roll against the range
        # challenge ("Range"; 0 at point blank).
        odds_text = f"undefended, ≥ {range_extra}: " + _percent(
            roll.against(range_extra).odds().success
        )
    elif against is not None or (attacker is not None and step.kind is StepKind.DEFEND):
        other = SkillRoll(against or 0, 0)
        if step.kind is StepKind.ATTACK:
            odds_text = "hits: " + _percent(roll.versus(other, range_extra).odds().success)
        else:
            striker = SkillRoll(attacker if attacker is not None else against or 0, 0)
            odds_text = "holds: " + _percent(striker.versus(roll).odds().failure)
    return roll_text, odds_text


def odds_command(
    bonus: Annotated[int, typer.Argument(help="attribute + skill + modifiers")],
    challenge: Annotated[int | None, typer.Option(help="an unopposed challenge level")] = None,
    against: Annotated[
        int | None, typer.Option(help="the opponent's bonus (the roller acts: wins ties)")
    ] = None,
) -> None:
    """Exact odds of one skill roll, 2d6 + BONUS."""
    from referee.systems.hursagmu.sheet import SkillRoll

    if (challenge is None) == (against is None):
        raise _fail("give exactly one of --challenge and --against")
    roll = SkillRoll(bonus, 0)
    if challenge is not None:
        p = roll.against(challenge).odds().success
        console().print(f"{roll.side.expression} ≥ {challenge}: {_percent(p)}")
    else:
        assert against is not None
        p = roll.versus(SkillRoll(against, 0)).odds().success
        console().print(
            f"{roll.side.expression} vs 2d6{against:+d} (ties to the actor): {_percent(p)}"
        )


def range_command(
    yards: Annotated[int, typer.Argument(help="the distance in yards")],
    ability: Annotated[
        str, typer.Argument(help="thrown weapon, missile weapon, a sorcery type or a sense")
    ],
) -> None:
    """The range challenge: 0 within one increment, +1 per further increment or part."""
    from referee.core import RefereeError
    from referee.systems.hursagmu.movement import range_challenge, range_increment

    try:
        challenge = range_challenge(yards, ability)
        increment = range_increment(ability)
    except RefereeError as error:
        raise _fail(str(error)) from None
    console().print(f"{ability} at {yards} yards (increment {increment}): challenge +{challenge}")


def standing_command(
    file: Annotated[Path, typer.Argument(help="a table record (referee table new hursagmu)")],
    seat: Annotated[str, typer.Option("--as", help="the seat to see it as")],
) -> None:
    """The round's standing of a table: hits, stance, Initiative, penalty and each declared
    step's Initiative, as SEAT may see it (play it with `referee table act`)."""
    from rich.markup import escape
    from rich.table import Table as RichTable

    from referee.core import RefereeError, observe

    table = read_table(file)
    if table.system != "hursagmu":
        raise _fail(f"{file}: this table is of system {table.system!r}, not 'hursagmu'")
    try:
        seen = observe(table, seat)
    except RefereeError as error:
        raise _fail(f"{file}: {error}") from None
    state: dict[str, Any] = dict(seen.state or {})
    out = console()
    rows = RichTable(
        title=f"Round {state.get('round')}, {state.get('phase')} phase (as {escape(seat)})"
    )
    for column in ("character", "hits", "stance", "Initiative", "penalty", "plan", "state"):
        rows.add_column(column)
    for who, character in (state.get("characters") or {}).items():
        done = int(character.get("next_step", 0))
        plan = ", ".join(
            f"{'✓' if number < done else ''}{step.get('kind')}@{_or_dash(step.get('initiative'))}"
            for number, step in enumerate(character.get("plan", []))
        )
        hits = f"{character['hits']}/{character['stamina']}" + (
            "" if character["conscious"] else " (down)"
        )
        initiative = _or_dash(character.get("initiative"))
        if character.get("rank") == 2 and character.get("initiative") is not None:
            initiative += " (first)"  # held over, or opening round zero
        elif character.get("rank") == 1:
            initiative += " (waiting game)"
        flags = [
            name
            for name in ("waiting", "holding", "prone", "mounted", "asleep", "injured")
            if character.get(name)
        ]
        rows.add_row(
            escape(who),
            hits,
            character.get("stance") or "—",
            initiative,
            f"{character['penalty']:+d}",
            escape(plan),
            ", ".join(flags),
        )
    out.print(rows)
    pending = state.get("pending")
    if isinstance(pending, dict):
        answer = {"defend": "defends or takes it", "abort": "may abort his turn to defend"}
        out.print(
            escape(
                f"pending: {pending['attacker']}'s {pending['skill']} attack on "
                f"{pending['target']}, who {answer.get(pending['defence'], 'takes it')}"
            ),
            highlight=False,
        )
    for text in seen.narration[-5:]:
        out.print(f"  {escape(text)}", highlight=False)
    moving = ", ".join(seen.to_move) or "nobody"
    out.print(f"to move: {escape(moving)}", highlight=False)


def register(app: typer.Typer) -> None:
    """Add the `hursagmu` command group to ``app``."""
    sub = typer.Typer(
        name="hursagmu",
        help="Hursagmu's encounter rules: round planner, odds, range, a table's standing.",
        no_args_is_help=True,
    )
    sub.command("plan")(plan_command)
    # a bonus may be below 0 (attribute + skill + modifiers): "-1" is the bonus, not an option
    sub.command("odds", context_settings={"ignore_unknown_options": True})(odds_command)
    sub.command("range", context_settings={"ignore_unknown_options": True})(range_command)
    sub.command("standing")(standing_command)
    app.add_typer(sub, name="hursagmu")

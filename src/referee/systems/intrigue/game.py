"""A game file: the characters and envelopes of a whole evening, validated into the state.

The same mapping is a scenario's ``setup:``. Errors are :class:`ScenarioError` with the path to
the bad field (``characters.scarface.number``).

>>> state = load_game({"characters": {
...     "scarface": {"name": "ScarFace", "number": 15, "stamina": 5,
...                  "perception_envelopes": [{"to": "ALL", "target": 16, "contents": "x"}]},
...     "krockin": {"name": "The Amazing Krockin", "number": "07"}}})
>>> state.character("07").id, state.character("scarface").wounds
('krockin', 5)
>>> state.perception_envelopes[0].label
'Give to ALL with a Roll of 16 or more'
>>> load_game({"characters": {"a": {"number": 15}, "b": {"number": 15}}})
Traceback (most recent call last):
...
referee.core.errors.ScenarioError: characters.b.number: character number '15' is already a's
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import DAY, PUBLIC, REFEREE, ScenarioError, clock_time, format_time
from referee.systems.intrigue.characters import Ability, Character, Item, is_character_number
from referee.systems.intrigue.envelopes import (
    ALL,
    Condition,
    ConditionKind,
    ContingencyEnvelope,
    PerceptionEnvelope,
)
from referee.systems.intrigue.state import IntrigueState

__all__ = ["load_game", "next_day_envelopes", "parse_number", "unworn_numbers", "wall_clock"]

Path = tuple[str | int, ...]

_CHARACTER_KEYS = {
    "name",
    "number",
    "combat",
    "strength",
    "stamina",
    "wounds",
    "mind",
    "skills",
    "abilities",
    "languages",
    "speaks_english",
    "items",
    "perception_envelopes",
    "contingency_envelopes",
}
_ABILITY_KEYS = {
    "description",
    "mental",
    "target",
    "damage",
    "obvious",
    "in_combat",
    "dodgeable",
    "value",
    "effect",
}


def _fail(message: str, path: Path) -> ScenarioError:
    return ScenarioError(message, path)


def parse_number(value: Any, path: Path = ()) -> str:
    """A Character Number: "A two digit number" ("Character Badges"); ``"07"`` or ``15``.

    >>> parse_number(15), parse_number("07")
    ('15', '07')
    """
    if isinstance(value, bool):
        raise _fail(f"a character number has two digits, not {value!r}", path)
    if isinstance(value, int) and 10 <= value <= 99:
        return str(value)
    if isinstance(value, str) and is_character_number(value.strip()):
        return value.strip()
    hint = " (write numbers below 10 in quotes, like '07')" if isinstance(value, int) else ""
    raise _fail(f"a character number has two digits, not {value!r}{hint}", path)


def _int(data: Mapping[str, Any], key: str, default: int, path: Path, least: int = 0) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise _fail(f"{key} is a whole number, at least {least}, not {value!r}", (*path, key))
    return value


def _bool(data: Mapping[str, Any], key: str, default: bool, path: Path) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise _fail(f"{key} is true or false, not {value!r}", (*path, key))
    return value


def _text(data: Mapping[str, Any], key: str, path: Path, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise _fail(f"{key} is text, not {value!r}", (*path, key))
    return value


def _mapping(value: Any, path: Path, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(f"{what} is a mapping, not {type(value).__name__}", path)
    return value


def _extra(data: Mapping[str, Any], allowed: set[str], path: Path) -> None:
    for key in data:
        if key not in allowed:
            raise _fail(
                f"unknown field {key!r} (known: {', '.join(sorted(allowed))})", (*path, key)
            )


def _skills(value: Any, path: Path) -> tuple[tuple[str, int], ...]:
    data = _mapping(value, path, "skills")
    skills = []
    for name, level in data.items():
        if isinstance(level, bool) or not isinstance(level, int):
            raise _fail(f"a skill value is a whole number, not {level!r}", (*path, name))
        skills.append((str(name), level))
    return tuple(skills)


def _abilities(value: Any, path: Path) -> tuple[Ability, ...]:
    data = _mapping(value, path, "abilities")
    abilities = []
    for name, raw in data.items():
        where = (*path, name)
        spec = _mapping(raw if raw is not None else {}, where, "an ability")
        _extra(spec, _ABILITY_KEYS, where)
        target = spec.get("target")
        if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
            raise _fail(f"target is a whole number, not {target!r}", (*where, "target"))
        value_ = spec.get("value")
        if value_ is not None and (isinstance(value_, bool) or not isinstance(value_, int)):
            raise _fail(f"value is a whole number, not {value_!r}", (*where, "value"))
        dodgeable = spec.get("dodgeable")
        if dodgeable is not None and not isinstance(dodgeable, bool):
            raise _fail(f"dodgeable is true or false, not {dodgeable!r}", (*where, "dodgeable"))
        obvious = spec.get("obvious")
        if obvious is not None and not isinstance(obvious, bool):
            raise _fail(f"obvious is true or false, not {obvious!r}", (*where, "obvious"))
        abilities.append(
            Ability(
                name=str(name),
                description=_text(spec, "description", where, ""),
                mental=_bool(spec, "mental", False, where),
                target=target,
                damage=_int(spec, "damage", 0, where),
                obvious=obvious,
                in_combat=_bool(spec, "in_combat", True, where),
                dodgeable=dodgeable,
                value=value_,
                effect=_text(spec, "effect", where, ""),
            )
        )
    return tuple(abilities)


def _items(value: Any, path: Path) -> tuple[Item, ...]:
    data = _mapping(value, path, "items")
    items = []
    for name, raw in data.items():
        where = (*path, name)
        spec = _mapping(raw if raw is not None else {}, where, "an item card")
        _extra(spec, {"damage", "description", "gun"}, where)
        damage = spec.get("damage")
        if damage is not None and (
            isinstance(damage, bool) or not isinstance(damage, int) or damage < 0
        ):
            raise _fail(f"damage is a whole number, not {damage!r}", (*where, "damage"))
        items.append(
            Item(
                str(name),
                damage,
                _text(spec, "description", where, ""),
                gun=_bool(spec, "gun", False, where),
            )
        )
    return tuple(items)


def _languages(value: Any, path: Path) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail("languages is a list of language names", path)
    return tuple(value)


def _perception(value: Any, holder: str, path: Path) -> tuple[PerceptionEnvelope, ...]:
    if not isinstance(value, list):
        raise _fail("perception_envelopes is a list", path)
    envelopes = []
    for index, raw in enumerate(value):
        where = (*path, index)
        spec = _mapping(raw, where, "an envelope")
        _extra(spec, {"id", "to", "target", "contents", "directions"}, where)
        for needed in ("to", "target"):  # "one or more Character Numbers and a Target Number"
            if needed not in spec:
                raise _fail(
                    "Each will have one or more Character Numbers and a Target Number on them: "
                    f"give {needed!r}",
                    (*where, needed),
                )
        to = spec["to"]
        if to == "ALL":
            given: tuple[str, ...] = ALL
        else:
            numbers = to if isinstance(to, list) else [to]
            if not numbers:
                raise _fail("an envelope is for ALL or for character numbers", (*where, "to"))
            given = tuple(parse_number(n, (*where, "to")) for n in numbers)
        envelopes.append(
            PerceptionEnvelope(
                id=_text(spec, "id", where, f"{holder}-p{index + 1}"),
                holder=holder,
                given_to=given,
                target=_int(spec, "target", 0, where),
                contents=_text(spec, "contents", where),
                directions=_text(spec, "directions", where, ""),
            )
        )
    return tuple(envelopes)


def _contingency(
    value: Any, holder: str, start: str, path: Path
) -> tuple[ContingencyEnvelope, ...]:
    if not isinstance(value, list):
        raise _fail("contingency_envelopes is a list", path)
    envelopes = []
    kinds = [k.value for k in ConditionKind]
    for index, raw in enumerate(value):
        where = (*path, index)
        spec = _mapping(raw, where, "an envelope")
        _extra(spec, {"id", "contents", *kinds}, where)
        given = [k for k in kinds if k in spec]
        if len(given) != 1:
            raise _fail(f"give exactly one condition: {', '.join(kinds)}", where)
        kind = ConditionKind(given[0])
        raw_condition = spec[kind.value]
        if kind is ConditionKind.AT:
            if isinstance(raw_condition, int) and not isinstance(raw_condition, bool):
                if raw_condition < 0:
                    raise _fail(
                        f"a game time is seconds from the start, at least 0, not {raw_condition}",
                        (*where, "at"),
                    )
                at = raw_condition
            else:
                try:
                    at = wall_clock(str(raw_condition), start=start)
                except ValueError as error:
                    raise _fail(str(error), (*where, "at")) from None
            condition = Condition(kind, at=at, clock=format_time(at, start))
        elif kind is ConditionKind.EVENT:
            condition = Condition(kind, event=_text(spec, "event", where))
        else:
            condition = Condition(kind, character=parse_number(raw_condition, (*where, kind.value)))
        envelopes.append(
            ContingencyEnvelope(
                id=_text(spec, "id", where, f"{holder}-c{index + 1}"),
                holder=holder,
                condition=condition,
                contents=_text(spec, "contents", where),
            )
        )
    return tuple(envelopes)


def wall_clock(text: str, start: str = "00:00") -> int:
    """:func:`clock_time`, refusing an hour past 23 (the kernel reads "25:00" as 01:00 the next
    day; on an envelope it is a slip)."""
    hours = text.strip().split(":", 1)[0]
    if hours.isdigit() and int(hours) > 23:
        raise ValueError(f"a clock time runs from 00:00 to 23:59, not {text!r}")
    return clock_time(text, start=start)


def load_game(setup: Mapping[str, Any]) -> IntrigueState:
    """The evening's state from a game file's mapping (a scenario's ``setup``)."""
    if not isinstance(setup, Mapping):
        raise _fail(
            f"a game file is a mapping of start and characters, not {type(setup).__name__}", ()
        )
    _extra(setup, {"start", "characters"}, ())
    start = setup.get("start", "00:00")
    if not isinstance(start, str):
        raise _fail(f"start is a wall-clock time like '19:00', not {start!r}", ("start",))
    try:
        wall_clock(start)
    except ValueError as error:
        raise _fail(str(error), ("start",)) from None
    cast_ = _mapping(setup.get("characters", {}), ("characters",), "characters")
    if not cast_:
        raise _fail("a game has characters", ("characters",))
    characters: list[Character] = []
    perception: list[PerceptionEnvelope] = []
    contingency: list[ContingencyEnvelope] = []
    numbers: dict[str, str] = {}
    for cid, raw in cast_.items():
        path: Path = ("characters", str(cid))
        cid = str(cid)
        if is_character_number(cid) or cid in (REFEREE, PUBLIC, *ALL):
            raise _fail(f"a character id is a name, not {cid!r}", path)
        sheet = _mapping(raw, path, "a character")
        _extra(sheet, _CHARACTER_KEYS, path)
        if "number" not in sheet:
            raise _fail("every character has a two-digit number", (*path, "number"))
        number = parse_number(sheet["number"], (*path, "number"))
        if number in numbers:
            raise _fail(
                f"character number {number!r} is already {numbers[number]}'s", (*path, "number")
            )
        numbers[number] = cid
        stamina = _int(sheet, "stamina", 6, path, least=1)
        if _int(sheet, "wounds", stamina, path, least=1) != stamina:
            raise _fail(
                "All characters start with the same number of wounds as their Stamina Stat "
                f"({stamina}), not {sheet['wounds']!r}",
                (*path, "wounds"),
            )
        characters.append(
            Character(
                id=cid,
                name=_text(sheet, "name", path, cid),
                number=number,
                combat=_int(sheet, "combat", 1, path),
                strength=_int(sheet, "strength", 1, path),
                stamina=stamina,
                mind=_int(sheet, "mind", 1, path),
                wounds=stamina,
                skills=_skills(sheet.get("skills", {}), (*path, "skills")),
                abilities=_abilities(sheet.get("abilities", {}), (*path, "abilities")),
                languages=_languages(sheet.get("languages", []), (*path, "languages")),
                speaks_english=_bool(sheet, "speaks_english", True, path),
                items=_items(sheet.get("items", {}), (*path, "items")),
            )
        )
        perception += _perception(
            sheet.get("perception_envelopes", []), cid, (*path, "perception_envelopes")
        )
        contingency += _contingency(
            sheet.get("contingency_envelopes", []), cid, start, (*path, "contingency_envelopes")
        )
    ids = [e.id for e in perception] + [e.id for e in contingency]
    for envelope_id in ids:
        if ids.count(envelope_id) > 1:
            raise _fail(f"envelope id {envelope_id!r} is used twice", ("characters",))
    return IntrigueState(
        characters=tuple(characters),
        perception_envelopes=tuple(perception),
        contingency_envelopes=tuple(contingency),
        start=start,
    )


def unworn_numbers(state: IntrigueState) -> list[str]:
    """Envelopes that name a Character Number nobody wears: a likely slip in the game file.

    >>> state = load_game({"characters": {"a": {"number": 15, "contingency_envelopes": [
    ...     {"see": 53, "contents": "x"}]}}})
    >>> unworn_numbers(state)
    ['a-c1 (Open if you see character 53): nobody wears 53']
    """
    worn = {c.number for c in state.characters}
    notes = []
    for p in state.perception_envelopes:
        if p.given_to != ALL:
            missing = [n for n in p.given_to if n not in worn]
            if missing:
                notes.append(f"{p.id} ({p.label}): nobody wears {', '.join(missing)}")
    for e in state.contingency_envelopes:
        number = e.condition.character
        if number and number not in worn:
            notes.append(f"{e.id} ({e.condition.label}): nobody wears {number}")
    return notes


def next_day_envelopes(state: IntrigueState) -> list[str]:
    """Envelopes "Open at" a time of day earlier than the evening's start, which is read as that
    time the next day ("Open at nine o'clock" with a start of 19:00 means 09:00 tomorrow): a
    likely slip in the game file.

    >>> state = load_game({"start": "19:00", "characters": {"a": {"number": 15,
    ...     "contingency_envelopes": [{"at": "09:00", "contents": "x"}]}}})
    >>> next_day_envelopes(state)
    ['a-c1 (Open at 09:00): 09:00 is earlier than the start (19:00): read as 09:00 the next day']
    """
    origin = wall_clock(state.start)
    notes = []
    for e in state.contingency_envelopes:
        at = e.condition.at
        if at is not None and origin + at >= DAY:
            when = format_time(at, state.start)
            notes.append(
                f"{e.id} ({e.condition.label}): {when} is earlier than the start "
                f"({state.start}): read as {when} the next day"
            )
    return notes

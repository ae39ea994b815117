"""Every table in the house rules, checked cell by cell: against a transcription of the text made
for this test, and (where the text's layout allows) against the rules text itself; a malformed
data file is refused naming the file and the field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.systems.zweihander import tables

RULES = Path(__file__).parents[4] / "shared" / "rules" / "zweihander-house-rules.txt"


@pytest.fixture(scope="module")
def text() -> str:
    if not RULES.exists():
        pytest.skip("the rules text is not beside the repository")
    return RULES.read_text(encoding="utf-8")


def cells(text: str, start: str, end: str) -> list[str]:
    """The '|'-separated cells of a table printed between two markers, whitespace collapsed."""
    body = text.split(start, 1)[1].split(end, 1)[0]
    return [" ".join(c.split()) for c in body.split("|") if c.strip()]


def test_every_table_loads_and_validates() -> None:
    assert len(tables._all()) == 18


def test_difficulty_ladder() -> None:
    assert [(r.name, r.modifier) for r in tables.difficulty_ladder()] == [
        ("Trivial", 30),
        ("Easy", 20),
        ("Routine", 10),
        ("Standard", 0),
        ("Challenging", -10),
        ("Hard", -20),
        ("Arduous", -30),
    ]


MORALE = [
    ("one ally suffers a Moderate Injury", 30),
    ("one ally suffers a Serious Injury", 20),
    ("one ally suffers a Grievous Injury", 10),
    ("one ally is Slain!", 0),
    ("outnumbered by 3:1", -10),
    ("outnumbered by 6:1", -20),
    ("the leader is Slain!", -30),
]


def test_morale_conditions_transcribed() -> None:
    rows = [(r.condition, r.modifier) for r in tables.morale_conditions().values()]
    assert rows == MORALE


def test_morale_table_against_the_text(text: str) -> None:
    found = cells(text, "Test Difficulty Rating", "Resolve\nTest result")
    pairs = list(zip(found[::2], found[1::2], strict=True))
    expected = [(c, "0" if m == 0 else f"{m:+d}%") for c, m in MORALE]
    assert pairs == expected
    rows = [(r.condition, r.modifier) for r in tables.morale_conditions().values()]
    assert [(c, "0" if m == 0 else f"{m:+d}%") for c, m in rows] == pairs


def test_morale_results_against_the_text(text: str) -> None:
    found = cells(text, "Test result", "Chase scene rules")
    pairs = dict(zip(found[::2], found[1::2], strict=True))
    results = tables.morale_results()
    assert pairs == {k.title(): v for k, v in results.items()}


MOVEMENT = {
    "climbing": ("BB", -3, 1),
    "sneaking": ("AB", -1, 1),
    "swimming": ("BB", -1, 1),
    "on foot": ("AB", 3, None),
    "dog sled": ("AB", 4, None),
    "dray horse": ("AB", 5, None),
    "stagecoach or wagon": ("BB", 5, None),
    "palfrey horse": ("AB", 6, None),
    "fancy coach": ("BB", 6, None),
    "rouncey horse": ("AB", 7, None),
    "carriage": ("BB", 7, None),
    "couser horse": ("AB", 8, None),
    "chariot": ("BB", 8, None),
    "destrier horse or flying": ("AB", 9, None),
}


def test_movement_transcribed() -> None:
    got = {m: (r.bonus, r.modifier, r.minimum) for m, r in tables.movement_modes().items()}
    assert got == MOVEMENT


def test_movement_against_the_text(text: str) -> None:
    rx = re.compile(r"^- ([a-z ]+): \[(AB|BB)\] ([+-]) (\d+)( \(minimum 1\))?", re.M)
    found = {
        m[1]: (m[2], int(m[4]) * (1 if m[3] == "+" else -1), 1 if m[5] else None)
        for m in rx.finditer(text)
    }
    assert found == MOVEMENT


TAKEDOWN = [
    ("Trivial", 30, "cornered"),
    ("Easy", 20, "out in the open"),
    ("Routine", 10, "crowd"),
    ("Standard", 0, "alleyway"),
    ("Challenging", -10, "busy tavern"),
    ("Hard", -20, "darkness of night"),
    ("Arduous", -30, "busy thoroughfare"),
]


def test_takedown_table_transcribed_and_against_the_text(text: str) -> None:
    rows = tables.takedown_conditions()
    for row, (name, mod, words) in zip(rows, TAKEDOWN, strict=True):
        assert (row.difficulty, row.modifier) == (name, mod)
        assert words in row.condition
    found = cells(text, "Coordination Test difficulty\n|\nCondition", "- Participants")
    pairs = list(zip(found[::2], found[1::2], strict=True))
    assert pairs == [
        (f"{r.difficulty} {'+/-0' if r.modifier == 0 else f'{r.modifier:+d}'}%", r.condition)
        for r in rows
    ]


OVERLAND = [
    ("dwarf, halfling, gnome (on foot)", 10, 5, None, None),
    ("elf, human, ogre (on foot)", 15, 8, None, None),
    ("chariot, wagon", 15, 8, None, None),
    ("dog sled, stage coach", 25, 13, None, None),
    ("dray horse", 30, 15, None, None),
    ("carriage, fancy coach", 30, None, None, None),
    ("horse", 40, 20, None, None),
    ("fishing boat, raft, river barge, rowboat, skiff", None, None, 20, None),
    ("knorr, longship", None, None, 15, 30),
    ("drakkar", None, None, 15, 30),
    ("cog, merchant coaster", None, None, None, 35),
    ("galley warship", None, None, None, 40),
]


def test_overland_transcribed() -> None:
    got = [(r.transport, r.road, r.path, r.river, r.sea) for r in tables.miles_per_day_table()]
    assert got == OVERLAND


def test_overland_against_the_text(text: str) -> None:
    found = cells(text, "Sea\n(mpd) |", "Forced march:")
    rows = [found[i : i + 5] for i in range(0, len(found), 5)]
    as_text = [[t, *("-" if v is None else str(v) for v in vals)] for t, *vals in OVERLAND]
    assert rows == as_text


def test_overland_adjustments() -> None:
    assert tables.overland_rules() == {
        "forced_march": 10,
        "forced_march_recovery_hours": 24,
        "downstream": 10,
        "upstream": -10,
        "bad_weather": -10,
    }


TERRAIN = {
    "Arduous": (
        -30,
        "rough seas and oceans, river rapids, blighted areas, impenetrable "
        "forests, mountains, and deserts",
    ),
    "Hard": (-20, "high hills, deep caves, badlands, tundra, and taiga"),
    "Challenging": (
        -10,
        "trackless forests, caverns, fast rivers, open seas, wastelands, foothills",
    ),
    "Standard": (0, "paths around lakes, slow rivers, marshes, forests with little undergrowth"),
    "Routine": (10, "rolling hills, trails, upriver, and open badlands"),
    "Easy": (20, "well-worn paths, open plains, meadows, navigable rivers"),
    "Trivial": (30, "paved roads, gravelled paths, signed and patrolled roadways"),
}


def _terms(words: str) -> list[str]:
    return [t.strip().removeprefix("and ") for t in words.split(",")]


def test_terrain_transcribed() -> None:
    got = {s.difficulty: (s.modifier, list(s.terrains)) for s in tables.terrain_steps()}
    assert got == {k: (m, _terms(w)) for k, (m, w) in TERRAIN.items()}


def test_terrain_against_the_text(text: str) -> None:
    flat = " ".join(text.split())
    for name, (mod, words) in TERRAIN.items():
        assert f"{name} ({mod if mod <= 0 else f'+{mod}'}); {words}." in flat


def test_wilderness_tables() -> None:
    assert {k: v.toughness_tests for k, v in tables.stretch_lengths().items()} == {
        "short": 1,
        "medium": 2,
        "long": 3,
    }
    assert [(t.level, t.chaos_dice) for t in tables.threat_levels()] == [
        ("No Danger", 0),
        ("Mildly Dangerous", 1),
        ("Moderately Dangerous", 2),
        ("Highly Dangerous", 3),
    ]
    assert [(r.role, r.skill) for r in tables.role_tables()] == [
        ("Guide", "Navigation"),
        ("Survivalist", "Survival"),
        ("Scout", "Stealth"),
    ]


def test_role_results_against_the_text(text: str) -> None:
    flat = " ".join(text.split())
    for role in tables.role_tables():
        for outcome, words in role.results.items():
            assert f"{outcome.title()}; {words}" in flat
    for outcome, words in tables.toughness_results().items():
        if "peril" not in outcome:
            assert f"{outcome.title()}; {words}" in flat


def test_lists_against_the_text(text: str) -> None:
    lines = [" ".join(line.split()) for line in text.splitlines()]
    for weight in tables.requisition_weights().values():
        for example in weight.examples:
            assert example in lines
    assert list(tables.madness_situations()) == [ln for ln in lines if ln.startswith("A Character")]
    for kind, names in tables.disorders().items():
        for name in names:
            assert f"- {name}" in lines, (kind, name)
    for weight in tables.offence_weights().values():
        for o in weight.examples:
            printed = o.offence
            if o.points is not None:
                lo, hi = o.points
                amount = str(lo) if lo == hi else f"{lo}-{hi}"
                printed += f" ({amount}/{o.per})" if o.per else f" ({amount})"
            assert printed in lines, printed


def test_requisitions_and_offences_shape() -> None:
    weights = tables.requisition_weights()
    assert [(w.weight, w.cost, w.threshold, len(w.examples)) for w in weights.values()] == [
        ("minor", (1, 3), "day", 9),
        ("middling", (4, 6), "week", 9),
        ("major", (7, 9), "month", 9),
    ]
    offences = tables.offence_weights()
    assert [(w.weight, w.points, len(w.examples)) for w in offences.values()] == [
        ("minor", (1, 3), 16),
        ("middling", (4, 6), 11),
        ("major", (7, 9), 11),
    ]
    assert [len(v) for v in tables.disorders().values()] == [7, 6, 7]


def test_withstanding_table() -> None:
    got = {
        k: (w.resolve_modifier, w.mental_peril, w.corruption)
        for k, w in tables.withstanding_table().items()
    }
    assert got == {
        "Stress": (20, "1d10+1", 3),
        "Fear": (0, "2d10+2", 6),
        "Terror": (-20, "3d10+3", 9),
    }


def test_withstanding_against_the_text(text: str) -> None:
    found = cells(text, "Corruption\n|", "Corruption\nMinor")
    rows = [found[i : i + 4] for i in range(0, len(found), 4)]
    assert rows == [
        ["Stress", "+20%", "1D10+1", "3"],
        ["Fear", "no modifier", "2D10+2", "6"],
        ["Terror", "-20%", "3D10+3", "9"],
    ]


SIMPLE = {
    ("order", "order higher"): ("Easy", "Routine"),
    ("order", "chaos higher"): ("Standard", "Hard"),
    ("order", "equal"): ("Routine", "Standard"),
    ("chaos", "order higher"): ("Standard", "Hard"),
    ("chaos", "chaos higher"): ("Easy", "Routine"),
    ("chaos", "equal"): ("Routine", "Standard"),
}


def test_simple_exchange_transcribed() -> None:
    data = tables.social_table()["simple_exchange"]
    for (npc, ranks), (same, different) in SIMPLE.items():
        assert data[npc][ranks] == {"same class": same, "different class": different}


def test_simple_exchange_against_the_text(text: str) -> None:
    for npc, marker in (("order", "NPC IS ORDER ALIGNED"), ("chaos", "NPC IS CHAOS-ALIGNED")):
        line = text.split(marker, 1)[1].split("NPC IS", 1)[0].split("\n", 1)[0]
        names = re.findall(r"\((\w+) [+-/0-9%]+\)", line)
        expected = [n for r in ("order higher", "chaos higher", "equal") for n in SIMPLE[(npc, r)]]
        assert names == expected


def _tactics_table(text: str, start: str, end: str) -> dict[str, list[str]]:
    found = cells(text, start, end)
    found = [c for c in found if c]
    header = found[:8]
    assert header == [
        "SKILL",
        "HELPFUL",
        "FRIENDLY",
        "POLITE",
        "INDIFFERENT",
        "IMPOLITE",
        "UNFRIENDLY",
        "HOSTILE",
    ]
    body = found[8:]
    return {body[i]: body[i + 1 : i + 8] for i in range(0, len(body), 8)}


def test_tactics_tables_against_the_text(text: str) -> None:
    social = tables.social_table()
    success = _tactics_table(
        text, "SUCCESSFUL SOCIAL TACTICS CHECK\n| |||||||", "FAILED SOCIAL TACTICS CHECK"
    )
    failure = _tactics_table(text, "FAILED SOCIAL TACTICS CHECK\n| |||||||", "Madness\n")
    for printed, data in ((success, social["success"]), (failure, social["failure"])):
        renamed = {("Rumour" if k == "Rumor" else k): v for k, v in printed.items()}
        assert renamed == data


def test_tactics_tables_transcribed() -> None:
    social = tables.social_table()
    assert social["success"]["Interrogation"] == [
        "Subdued",
        "Subdued",
        "Broken",
        "Broken",
        "Broken",
        "Demoralized",
        "Demoralized",
    ]
    assert social["failure"]["Rumour"] == [
        "Cautious",
        "Cautious",
        "Mistrustful",
        "Mistrustful",
        "Mistrustful",
        "Suspicious",
        "Suspicious",
    ]
    assert social["dispositions"] == [
        "Helpful",
        "Friendly",
        "Polite",
        "Indifferent",
        "Impolite",
        "Unfriendly",
        "Hostile",
    ]


def test_a_malformed_table_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    bad = {"ratings": [{"name": "Trivial", "modifier": "thirty"}]}
    monkeypatch.setattr(tables, "load", lambda name: bad)
    tables.difficulty_ladder.cache_clear()
    try:
        with pytest.raises(tables.TableError, match="modifier"):
            tables.difficulty_ladder()
    finally:
        monkeypatch.undo()
        tables.difficulty_ladder.cache_clear()


def test_threat_levels_and_stretches_against_the_text(text: str) -> None:
    flat = " ".join(text.split())
    for t in tables.threat_levels():
        if t.chaos_dice == 0:
            assert f"- {t.level} -" in flat
        else:
            dice = "Chaos Die" if t.chaos_dice == 1 else "Chaos Dice"
            assert f"{t.level} ({t.chaos_dice} {dice})" in flat
    said = {
        "short": "a Toughness Test is made after Role Checks.",
        "medium": "a Toughness Test is made after Role Checks, and another near the end.",
        "long": "a Toughness Test is made after Role Checks, a second in the middle, and a third",
    }
    for length, row in tables.stretch_lengths().items():
        assert f"A {length.title()} Stretch is {row.duration}; {said[length]}" in flat
    assert [len(s.split(",")) for s in said.values()] == [1, 2, 3]


def test_requisition_thresholds_and_minor_cost_against_the_text(text: str) -> None:
    flat = " ".join(text.split())
    weights = tables.requisition_weights()
    printed = "; ".join(f"once/{w.threshold} for {w.weight} requisition" for w in weights.values())
    assert f"Threshold: {printed}" in flat
    low, high = weights["minor"].cost
    assert f"Minor requisitions ({low}-{high} points)" in flat
    for w in tables.offence_weights().values():
        low, high = w.points
        assert f"{w.weight.title()} offenses ({low}-{high} points)" in flat


def test_a_table_cell_range_is_low_then_high_and_may_be_one_value() -> None:
    """The data files' ranges (a requisition's cost, an offence's Corruption points) are
    [low, high] with low ≤ high; anything else names the field."""
    assert tables._range([1, 3], "w") == (1, 3)
    assert tables._range([2, 2], "w") == (2, 2)
    for bad in ((1, 3), [1], [1, 2, 3], [1, "3"], ["1", 3], [3, 1], None):
        with pytest.raises(tables.TableError, match=r"w: expected \[low, high\]"):
            tables._range(bad, "w")


def test_a_table_list_of_texts_has_only_non_empty_texts() -> None:
    assert tables._strings(["Stress", "Fear"], "w") == ("Stress", "Fear")
    for bad in ("Stress", ["Stress", ""], ["Stress", 3], None):
        with pytest.raises(tables.TableError, match="w: expected a list of texts"):
            tables._strings(bad, "w")


def test_a_table_field_of_the_wrong_type_is_refused_a_flag_is_no_number() -> None:
    """A data file's field must have its type: ``true`` is no modifier, but a flag may be a
    flag."""
    assert tables._get({"forced": True}, "forced", "w", bool) is True
    assert tables._get({"modifier": -20}, "modifier", "w", int) == -20
    with pytest.raises(tables.TableError, match=r"w\.modifier: expected"):
        tables._get({"modifier": True}, "modifier", "w", int)
    with pytest.raises(tables.TableError, match="w: missing 'modifier'"):
        tables._get({}, "modifier", "w", int)


def test_a_tables_rows_are_read_from_its_file_and_named_by_file_list_and_index(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A malformed data file raises TableError naming the file and the field."""
    rows = list(tables._rows("difficulty", "ratings"))
    assert [where for where, _ in rows][:2] == [
        "difficulty.yaml.ratings.0",
        "difficulty.yaml.ratings.1",
    ]
    assert rows[0][1] == {"name": "Trivial", "modifier": 30}
    monkeypatch.setattr(tables, "load", lambda name: {"other": []})
    with pytest.raises(tables.TableError, match=r"^difficulty\.yaml: missing 'ratings'$"):
        list(tables._rows("difficulty", "ratings"))

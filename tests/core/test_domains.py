"""Structured domains: what a person builds (a record of fields, one of several shapes, a list
of steps, a field that depends on another), checked, drawn and written as JSON.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import AnyOf, Between, Choice, Depends, OneOf, Record, SomeOf, Steps, Text

SKILLS = Depends("defence", (("parry", OneOf(("sabre", "dagger"))), ("dodge", OneOf(("agility",)))))
DEFENCE = Record({"defence": OneOf(("parry", "dodge", "brace")), "skill": SKILLS})
STEP = AnyOf(
    {
        "attack": Record(
            {"attack": OneOf(("ogre", "troll")), "yards": Between(0, 30)},
            optional=frozenset({"yards"}),
        ),
        "defend": DEFENCE,
        "shout": Record({"shout": Text("halt!")}),
        "aim": Record({"aim": SomeOf(("eyes", "legs"), least=1)}),
    }
)
PLAN = Steps(STEP, least=1, most=4)


def test_a_record_takes_its_fields_each_in_its_domain_and_no_other() -> None:
    assert DEFENCE.contains({"defence": "parry", "skill": "dagger"})
    assert not DEFENCE.contains({"defence": "parry"})  # the skill the parry opens is required
    assert not DEFENCE.contains({"defence": "parry", "skill": "agility"})
    assert not DEFENCE.contains({"defence": "parry", "skill": "sabre", "extra": 1})
    assert not DEFENCE.contains(["defence", "parry"])
    # a defence whose kind opens no skill takes none
    assert DEFENCE.contains({"defence": "brace"})
    assert not DEFENCE.contains({"defence": "brace", "skill": "sabre"})


def test_an_optional_field_may_be_left_out_but_not_given_wrong() -> None:
    attack = STEP.options["attack"]
    assert attack.contains({"attack": "ogre"})
    assert attack.contains({"attack": "ogre", "yards": 30})
    assert not attack.contains({"attack": "ogre", "yards": 31})


def test_a_dependent_value_is_matched_by_value_and_type() -> None:
    flags = Depends("armed", ((True, OneOf(("sword",))), (1, OneOf(("club",)))))
    assert flags.given({"armed": True}) == OneOf(("sword",))
    assert flags.given({"armed": 1}) == OneOf(("club",))
    assert flags.given({"armed": False}) is None and flags.given({}) is None


def test_steps_keep_their_limits() -> None:
    one = {"shout": "halt!"}
    assert PLAN.contains([one]) and PLAN.contains([one] * 4)
    assert not PLAN.contains([]) and not PLAN.contains([one] * 5)
    assert not PLAN.contains([{"shout": 3}])
    assert not PLAN.contains("shout")
    with pytest.raises(ValueError, match="not a range"):
        Steps(STEP, least=3, most=2)


def test_the_json_says_what_to_build() -> None:
    data = PLAN.to_json()
    assert (data["least"], data["most"]) == (1, 4)
    shapes = data["steps"]["any_of"]
    assert list(shapes) == ["attack", "defend", "shout", "aim"]
    assert shapes["attack"] == {
        "record": {"attack": {"one_of": ["ogre", "troll"]}, "yards": {"between": [0, 30]}},
        "optional": ["yards"],
    }
    assert shapes["defend"]["record"]["skill"] == {
        "depends": "defence",
        "cases": [
            ["parry", {"one_of": ["sabre", "dagger"]}],
            ["dodge", {"one_of": ["agility"]}],
        ],
    }


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_every_drawn_value_is_in_its_domain(seed: int) -> None:
    rng = random.Random(seed)
    for domain in (PLAN, STEP, DEFENCE):
        value: Any = domain.sample(rng)
        assert domain.contains(value), value


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_choice_draws_a_dependent_parameter_after_the_one_it_depends_on(seed: int) -> None:
    choice = Choice("bob", "defend", {"skill": SKILLS, "defence": OneOf(("parry", "dodge"))})
    action = choice.sample(random.Random(seed))
    assert choice.allows(dict(action.params))
    assert (
        action.params["skill"]
        in {"parry": ("sabre", "dagger"), "dodge": ("agility",)}[action.params["defence"]]
    )


def test_a_record_is_checked_past_a_field_left_out() -> None:
    """A field left out — optional, or dependent with no case for its sibling's value — does not
    end the check: the fields after it must still be given and in their domains."""
    aimed = Record(
        {"yards": Between(0, 30), "attack": OneOf(("ogre",))}, optional=frozenset({"yards"})
    )
    assert aimed.contains({"attack": "ogre"})
    assert not aimed.contains({}) and not aimed.contains({"attack": "troll"})
    braced = Record(
        {"defence": OneOf(("parry", "brace")), "skill": SKILLS, "cry": OneOf(("halt",))}
    )
    assert braced.contains({"defence": "brace", "cry": "halt"})
    assert not braced.contains({"defence": "brace"})


def test_a_drawn_record_gives_an_optional_field_about_half_the_time() -> None:
    rng = random.Random(7)
    aimed = Record(
        {"yards": Between(0, 30), "attack": OneOf(("ogre",))}, optional=frozenset({"yards"})
    )
    parried = Record(
        {"defence": OneOf(("parry", "dodge")), "skill": SKILLS}, optional=frozenset({"skill"})
    )
    for record, field in ((aimed, "yards"), (parried, "skill")):
        drawn = [record.sample(rng) for _ in range(200)]
        assert all(record.contains(d) for d in drawn)
        given = sum(field in d for d in drawn)  # type: ignore[operator]
        assert 60 < given < 140, (field, given)


def test_drawn_steps_run_from_the_least_to_the_most() -> None:
    """Each step past the least is half as likely as the one before, up to the most."""
    rng = random.Random(3)
    steps = Steps(OneOf(("attack",)), least=2, most=4)
    lengths = [len(steps.sample(rng)) for _ in range(400)]  # type: ignore[arg-type]
    assert set(lengths) == {2, 3, 4}
    assert lengths.count(2) > max(lengths.count(3), lengths.count(4))  # the most: the rest


def test_a_dependent_field_alone_takes_and_draws_the_values_of_every_case() -> None:
    assert SKILLS.contains("sabre") and SKILLS.contains("agility")
    assert not SKILLS.contains("axe")
    rng = random.Random(5)
    assert {SKILLS.sample(rng) for _ in range(100)} == {"sabre", "dagger", "agility"}

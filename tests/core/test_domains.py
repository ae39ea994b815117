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

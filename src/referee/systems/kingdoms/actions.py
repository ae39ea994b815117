"""The actions of a Burning Kingdoms table: each kind's parameters in the text's words, the
section it implements and who may take it (DESIGN.md, "The table contract").

Every action is a faction's (Burning Kingdoms is GM-less): the seat playing the faction takes
it. The kernel parses parameters with these models before the procedure decides, so a misspelt
or ill-typed parameter is an :class:`~referee.core.ActionError` naming its path:

>>> WRITE_SLIP.parse({"maneuver": "Fortify", "skill": "Logistics", "persona": 1}).persona
1
>>> from referee.core import ActionError
>>> def refusal(params):
...     try:
...         WRITE_SLIP.parse(params)
...     except ActionError as error:
...         return str(error).split(":")[0]
>>> refusal({"maneuver": "Fortify", "skils": "Logistics"})
'write_slip.skils'
>>> refusal({"maneuver": "Charge", "skill": "Tactics"})
'write_slip.maneuver'
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from referee.core import ActionSpec, Catalogue, NoParams, Params, Who
from referee.systems.kingdoms.dice import MAX_PERSONA

__all__ = [
    "BUY_AFFILIATION",
    "CATALOGUE",
    "CHOOSE_CONQUEROR",
    "HEALTH_TEST",
    "JOIN",
    "KEEP",
    "MAINTENANCE",
    "NEW_SESSION",
    "NEXT_MANEUVER",
    "OBJECTIVE",
    "PASS",
    "PROLOGUE",
    "RESOLVE",
    "REVEAL",
    "SCENE",
    "SPEND_ARTHA",
    "TIE_BREAK",
    "WRITE_SLIP",
    "ChooseConqueror",
    "HealthTest",
    "Join",
    "ManeuverName",
    "Objective",
    "Prologue",
    "Scene",
    "SpendArtha",
    "TieBreak",
    "WriteSlip",
]

ManeuverName = Literal[
    "Assault",
    "Assess",
    "Conserve",
    "Ensnare",
    "Fortify",
    "Gambit",
    "Harry",
    "Infiltrate",
    "Onslaught",
    "Ploy",
    "Sap",
]
"""The eleven maneuvers ("Maneuvering in the Chronicle"), as :data:`.tables.MANEUVERS`."""

Roller = Literal["leader", "second"]
"""Who rolls: the Faction Leader or the Second in Command ("Seconds in Command")."""

SceneKind = Literal["color", "interstitial", "building", "conflict"]
"""The four types of scenes ("Scene Economy")."""

Wound = Literal["superficial", "light", "midi", "severe", "traumatic"]
"""Wound severities (parent-games.md), as :data:`.dice.WOUND_DICE`."""


class Prologue(Params):
    """``prologue``: the Faction Leader tests a prologue skill ("Prologues")."""

    skill: str = Field(min_length=1, max_length=80)
    substitute: bool = False


class Objective(Params):
    """``objective``: the faction's Chronicle Objective, in words ("Chronicle Objective")."""

    text: str = Field(max_length=2000)


class WriteSlip(Params):
    """``write_slip``: the sealed maneuver slip ("Maneuvering in the Chronicle": "your faction
    name, the attempted maneuver and your intended target").

    ``target`` (one faction) or ``targets`` (a Ploy's two); ``roller`` the leader or a burned-up
    2iC; ``forks`` skills from the maneuver's list; ``persona`` and ``deeds_before`` artha
    before the roll; ``defence`` a Harry's defence dice ("at least 2 dice in each pool");
    ``helps`` a faction whose maneuver this leader helps; ``downtime`` spare Conserve or
    Fortify successes to buy downtime; ``substitute`` a racial skill or spell song in place of
    a listed skill. The maneuver's case is forgiven (``fortify`` is Fortify).
    """

    maneuver: ManeuverName
    skill: str = Field(min_length=1, max_length=80)
    target: str | None = None
    targets: list[str] | None = Field(default=None, max_length=2)
    roller: Roller = "leader"
    forks: list[str] = Field(default_factory=list, max_length=20)
    persona: int = Field(default=0, ge=0, le=MAX_PERSONA)
    deeds_before: bool = False
    defence: int = Field(default=0, ge=0, le=99)
    helps: str | None = None
    downtime: int = Field(default=0, ge=0, le=99)
    substitute: bool = False

    @field_validator("maneuver", mode="before")
    @classmethod
    def _case(cls, value: Any) -> Any:
        return value.strip().capitalize() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _one_target_field(self) -> WriteSlip:
        if self.target is not None and self.targets is not None:
            raise ValueError("give target (one faction) or targets (a list), not both")
        return self

    @property
    def named_targets(self) -> tuple[str, ...]:
        """The targets the slip names, from ``target`` or ``targets``."""
        if self.targets is not None:
            return tuple(self.targets)
        return () if self.target is None else (self.target,)


class Scene(Params):
    """``scene``: a scene of the faction's scene economy ("Scene Economy").

    Color and interstitial scenes roll nothing (``with``: an interstitial's other faction);
    a building scene rolls ``skill`` once against ``ob`` (``help_exponents``: helpers'
    exponents); a conflict scene is directed at ``target`` and records the ``outcome`` the
    players report and the ``wounds`` taken (``faction`` or ``faction.second`` → severity).
    ``by`` is the leader, the 2iC or a defeated leader who joined; ``player`` which player of a
    two-player faction plays it; ``helpers`` factions lending helping dice.
    """

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        strict=True,
        serialize_by_alias=True,
    )

    kind: SceneKind
    by: str = "leader"
    target: str | None = None
    partner: str | None = Field(default=None, alias="with")
    helpers: list[str] = Field(default_factory=list, max_length=20)
    skill: str | None = Field(default=None, max_length=80)
    ob: int | None = Field(default=None, ge=1, le=99)
    help_exponents: list[Annotated[int, Field(ge=1, le=99)]] = Field(
        default_factory=list, max_length=20
    )
    outcome: str = Field(default="", max_length=2000)
    wounds: dict[str, Wound] = Field(default_factory=dict, max_length=20)
    player: str | None = None


class HealthTest(Params):
    """``health_test``: a wounded character tests Health ("Wound Recovery")."""

    character: Roller = "leader"


class SpendArtha(Params):
    """``spend_artha``: Fate and/or Deeds after the maneuver test; ``pool`` for a Harry: its
    ``defence`` or ``attack`` dice."""

    fate: bool = False
    deeds: bool = False
    pool: Literal["defence", "attack"] = "defence"


class TieBreak(Params):
    """``tie_break``: agree to break a tied versus test against ``opponent`` on the ``root``
    stat of the skill used ("Independent and Versus Maneuvers")."""

    opponent: str
    root: str = Field(min_length=1, max_length=40)


class ChooseConqueror(Params):
    """``choose_conqueror``: a defeated faction names its conqueror among tied attackers
    ("Consequences")."""

    conqueror: str


class Join(Params):
    """``join``: a defeated Faction Leader joins a faction still in contention
    ("Consequences")."""

    faction: str


def _spec(kind: str, params: type[Params], section: str, summary: str, record: str) -> Any:
    return ActionSpec(
        kind, params, section=section, who=Who.FACTION, summary=summary, record=record
    )


PROLOGUE = _spec(
    "prologue",
    Prologue,
    "Prologues",
    "test a prologue skill; successes add disposition",
    "everyone",
)
OBJECTIVE = _spec(
    "objective", Objective, "Chronicle Objective", "declare the faction's objective", "everyone"
)
NEW_SESSION = _spec(
    "new_session", NoParams, "Structure of Play", "a new session of the chronicle", "everyone"
)
WRITE_SLIP = _spec(
    "write_slip",
    WriteSlip,
    "Maneuvering in the Chronicle",
    "write (or rewrite) the sealed maneuver slip",
    "actor",
)
SCENE = _spec(
    "scene",
    Scene,
    "Scene Economy",
    "play a color, interstitial, building or conflict scene",
    "everyone",
)
HEALTH_TEST = _spec(
    "health_test", HealthTest, "Wound Recovery", "test Health to recover 1D of wounds", "everyone"
)
PASS = _spec("pass", NoParams, "Spending Scenes", "pass the scenes left this maneuver", "everyone")
REVEAL = _spec(
    "reveal", NoParams, "Maneuver Resolution", "read the slips and roll every test", "everyone"
)
SPEND_ARTHA = _spec(
    "spend_artha",
    SpendArtha,
    "Independent and Versus Maneuvers",
    "spend Fate and/or Deeds after the roll",
    "everyone",
)
KEEP = _spec(
    "keep", NoParams, "Independent and Versus Maneuvers", "keep the roll as it is", "everyone"
)
TIE_BREAK = _spec(
    "tie_break",
    TieBreak,
    "Independent and Versus Maneuvers",
    "agree to a tie-breaker on root stats",
    "everyone",
)
RESOLVE = _spec(
    "resolve", NoParams, "Maneuver Resolution", "resolve every maneuver in seat order", "everyone"
)
CHOOSE_CONQUEROR = _spec(
    "choose_conqueror",
    ChooseConqueror,
    "Consequences",
    "name the conqueror among tied attackers",
    "everyone",
)
JOIN = _spec("join", Join, "Consequences", "the defeated leader joins a faction", "everyone")
BUY_AFFILIATION = _spec(
    "buy_affiliation",
    NoParams,
    "Consequences",
    "the conqueror buys the defeated leader's affiliation",
    "everyone",
)
MAINTENANCE = _spec(
    "maintenance", NoParams, "Downtime", "make a Resources maintenance test owed", "everyone"
)
NEXT_MANEUVER = _spec("next_maneuver", NoParams, "Downtime", "begin the next maneuver", "everyone")

CATALOGUE = Catalogue(
    [
        PROLOGUE,
        OBJECTIVE,
        NEW_SESSION,
        WRITE_SLIP,
        SCENE,
        HEALTH_TEST,
        PASS,
        REVEAL,
        SPEND_ARTHA,
        KEEP,
        TIE_BREAK,
        RESOLVE,
        CHOOSE_CONQUEROR,
        JOIN,
        BUY_AFFILIATION,
        MAINTENANCE,
        NEXT_MANEUVER,
    ]
)
"""Every action kind of a Burning Kingdoms table, in the order of play."""

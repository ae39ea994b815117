"""The rules kernel every game shares (DESIGN.md, "The kernel"; docs/kernel.md).

- :mod:`~referee.core.checks`: one test of the dice as a value, with exact odds and a roll;
  :mod:`~referee.core.sides`: what it rolls (a total, a pool of d6).
- :mod:`~referee.core.actions`: action kinds as specs (a catalogue per game), choices with domains.
- :mod:`~referee.core.procedures`: multi-step rules as state machines.
- :mod:`~referee.core.prompts`: a game stops to ask a seat (:class:`Prompt`); when a game or a
  conflict is over and who won (:class:`Result`).
- :mod:`~referee.core.table`: a :class:`Table` in play; its rooms :mod:`~referee.core.seats`,
  :mod:`~referee.core.recording` (actions recorded, with their dice), :mod:`~referee.core.record`
  (a record read back) and :mod:`~referee.core.observe` (the one read path).
- :mod:`~referee.core.cards`: the roll card every rolled check lands in.
- :mod:`~referee.core.events`: typed, numbered events, the append-only log, visibility.
- :mod:`~referee.core.clock`: game time in seconds and timers that fire events.
- :mod:`~referee.core.registry`: the games, listed by entry point without importing them.
- :mod:`~referee.core.loader`: the one reader of files, with limits against hostile input.
- :mod:`~referee.core.scenario` (imported on its own: it needs YAML): scenario files.
"""

from referee.core.actions import (
    ActionSpec,
    AnyOf,
    Between,
    Catalogue,
    Choice,
    Depends,
    Domain,
    NoParams,
    OneOf,
    Params,
    Record,
    SomeOf,
    Steps,
    Text,
    Who,
)
from referee.core.cards import OddsPreview, RollCard
from referee.core.checks import (
    BLACK,
    GREY,
    WHITE,
    Check,
    CheckOdds,
    CheckResult,
    Comparison,
    ObstacleCheck,
    OpposedCheck,
    Outcome,
    PercentileCheck,
    Pool,
    Side,
    TargetCheck,
    TieRule,
    Total,
)
from referee.core.clock import (
    DAY,
    HOUR,
    MINUTE,
    SECOND,
    Clock,
    GameTime,
    Timer,
    cancel_timer,
    clock_time,
    format_time,
    parse_duration,
    set_timer,
)
from referee.core.decide import Builder, Handler, Handlers
from referee.core.errors import (
    ActionError,
    RefereeError,
    RuleError,
    ScenarioError,
    SeatError,
    StaleTableError,
)
from referee.core.events import (
    EVERYONE,
    PUBLIC,
    REFEREE,
    REFEREE_ONLY,
    Audience,
    Event,
    Log,
    Secret,
    Viewer,
    ViewerId,
    only,
    view,
)
from referee.core.procedures import KERNEL_KINDS, Action, ActorId, Procedure
from referee.core.prompts import Prompt, Result, Waiting
from referee.core.registry import System, get_system, register_system, system, systems
from referee.core.table import ActionRecord, Observation, Seat, Table, observe, preview
from referee.core.values import Json, JsonObject, to_json

__all__ = [
    "BLACK",
    "DAY",
    "EVERYONE",
    "GREY",
    "HOUR",
    "KERNEL_KINDS",
    "MINUTE",
    "PUBLIC",
    "REFEREE",
    "REFEREE_ONLY",
    "SECOND",
    "WHITE",
    "Action",
    "ActionError",
    "ActionRecord",
    "ActionSpec",
    "ActorId",
    "AnyOf",
    "Audience",
    "Between",
    "Builder",
    "Catalogue",
    "Check",
    "CheckOdds",
    "CheckResult",
    "Choice",
    "Clock",
    "Comparison",
    "Depends",
    "Domain",
    "Event",
    "GameTime",
    "Handler",
    "Handlers",
    "Json",
    "JsonObject",
    "Log",
    "NoParams",
    "Observation",
    "ObstacleCheck",
    "OddsPreview",
    "OneOf",
    "OpposedCheck",
    "Outcome",
    "Params",
    "PercentileCheck",
    "Pool",
    "Procedure",
    "Prompt",
    "Record",
    "RefereeError",
    "Result",
    "RollCard",
    "RuleError",
    "ScenarioError",
    "Seat",
    "SeatError",
    "Secret",
    "Side",
    "SomeOf",
    "StaleTableError",
    "Steps",
    "System",
    "Table",
    "TargetCheck",
    "Text",
    "TieRule",
    "Timer",
    "Total",
    "Viewer",
    "ViewerId",
    "Waiting",
    "Who",
    "cancel_timer",
    "clock_time",
    "format_time",
    "get_system",
    "observe",
    "only",
    "parse_duration",
    "preview",
    "register_system",
    "set_timer",
    "system",
    "systems",
    "to_json",
    "view",
]

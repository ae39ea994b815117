"""The rules kernel every game shares (DESIGN.md, "The kernel"; docs/kernel.md).

- :mod:`~referee.core.checks`: one test of the dice as a value, with exact odds and a roll.
- :mod:`~referee.core.procedures`: multi-step rules as state machines; a :class:`Table` in play.
- :mod:`~referee.core.events`: typed, numbered events, the append-only log, visibility.
- :mod:`~referee.core.clock`: game time in seconds and timers that fire events.
- :mod:`~referee.core.registry`: how ``system:`` names find a game's procedure.
- :mod:`~referee.core.scenario` (imported on its own: it needs pydantic and YAML): scenario files.
"""

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
from referee.core.errors import RefereeError, RuleError, ScenarioError
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
from referee.core.procedures import KERNEL_KINDS, Action, ActorId, Procedure, Table
from referee.core.registry import get_system, register_system, systems
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
    "ActorId",
    "Audience",
    "Check",
    "CheckOdds",
    "CheckResult",
    "Clock",
    "Comparison",
    "Event",
    "GameTime",
    "Json",
    "JsonObject",
    "Log",
    "ObstacleCheck",
    "OpposedCheck",
    "Outcome",
    "PercentileCheck",
    "Pool",
    "Procedure",
    "RefereeError",
    "RuleError",
    "ScenarioError",
    "Secret",
    "Side",
    "Table",
    "TargetCheck",
    "TieRule",
    "Timer",
    "Total",
    "Viewer",
    "ViewerId",
    "cancel_timer",
    "clock_time",
    "format_time",
    "get_system",
    "only",
    "parse_duration",
    "register_system",
    "set_timer",
    "systems",
    "to_json",
    "view",
]

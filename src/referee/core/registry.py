"""The registry of games: listed without importing them, loaded by name when asked.

Each game is a :class:`System`: its name (what ``system:`` says), title, rules text, procedure,
setup model, what its handouts print from its own tables (:meth:`System.load_handout_data`)
and, through the procedure, its action catalogue. Installed games are found through
the ``referee.systems`` entry points (``pyproject.toml``), so :func:`systems` lists them without
importing any; :func:`system` imports the one asked for. A test or a plug-in may also
:func:`register_system` a procedure by name. ``system:`` only ever names a registered game: no
other module is ever imported from a file.

>>> "intrigue" in systems()
True
>>> system("intrigue").title
'Intrigue in the Clouds'
>>> system("os.path")
Traceback (most recent call last):
...
referee.core.errors.ScenarioError: system: no game system 'os.path' (known: ...)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from referee.core.actions import Catalogue
from referee.core.errors import ScenarioError
from referee.core.procedures import Procedure
from referee.core.table import Seat, Table

if TYPE_CHECKING:
    from referee.core.simulation import SimulatedConflict

__all__ = ["ENTRY_POINTS", "System", "get_system", "register_system", "system", "systems"]

ENTRY_POINTS = "referee.systems"
"""The entry point group games are installed under: ``name = "package.module:SYSTEM"``."""


@dataclass(frozen=True)
class System:
    """A game: what the registry knows of it.

    ``rules`` is the file name of its rules text; ``setup_model`` the pydantic model its setup
    is checked with (unknown keys refused with their path) before ``initial_state`` reads it.
    ``handout_data`` is what a seat's handout prints from the game's own catalogue and tables
    (its maneuvers, its condition tracks …): a mapping, or ``"module:function"`` naming a
    function of no arguments that returns one, imported only when a handout is printed.
    ``commands`` is where its own commands are (``"package.module:register"``, a function
    ``register(app)`` adding the game's command group to the ``referee`` command line; ``""``
    for none): named, not imported, so that the command line imports a game's commands only
    when one of them is run.
    """

    name: str
    title: str
    procedure: Procedure[Any]
    rules: str = ""
    setup_model: type[BaseModel] | None = None
    summary: str = ""
    handout_data: str | Mapping[str, Any] = field(default_factory=dict)
    commands: str = ""
    simulations: str = ""
    """The conflicts the game offers for simulation, main one first: ``"module:attr"`` naming a
    tuple of :class:`~referee.core.simulation.SimulatedConflict`, imported only when asked for
    (:meth:`simulated_conflicts`); empty if it offers none."""

    @property
    def catalogue(self) -> Catalogue:
        """The game's action kinds."""
        return self.procedure.catalogue

    def load_handout_data(self) -> Mapping[str, Any]:
        """The game's printed tables and lists for its handouts (``{}`` when it gives none).

        >>> system("kingdoms").load_handout_data()["maneuvers"][:2]
        ('Assault', 'Assess')
        """
        if not isinstance(self.handout_data, str):
            return self.handout_data
        module, _, function = self.handout_data.partition(":")
        data = getattr(import_module(module), function)()
        if not isinstance(data, Mapping):
            raise TypeError(
                f"handout data {self.handout_data!r} of system {self.name!r} is not a mapping"
            )
        return data

    def simulated_conflicts(self) -> tuple[SimulatedConflict, ...]:
        """The conflicts the game offers for simulation (``simulations``, imported now); a
        game that names none but reports its conflicts (its procedure's own ``conflict``) is
        simulated through its procedure alone; otherwise none."""
        from referee.core.simulation import SimulatedConflict, procedures_conflict

        if not self.simulations:
            reports = type(self.procedure).conflict is not Procedure.conflict
            return (procedures_conflict(self.procedure),) if reports else ()
        module, _, attr = self.simulations.partition(":")
        found = tuple(getattr(import_module(module), attr))
        if not found or not all(isinstance(c, SimulatedConflict) for c in found):
            raise TypeError(f"{self.simulations!r} is not a tuple of SimulatedConflict")
        return found

    def setup_schema(self) -> dict[str, Any]:
        """The JSON Schema of a setup (``{}`` when the game gives no model)."""
        return {} if self.setup_model is None else self.setup_model.model_json_schema()

    def check_setup(self, setup: Any) -> Mapping[str, Any]:
        """``setup`` if it is well formed; :class:`ScenarioError` with the path otherwise."""
        if not isinstance(setup, Mapping):
            raise ScenarioError(f"a setup is a mapping of fields, not {type(setup).__name__}")
        if self.setup_model is not None:
            try:
                self.setup_model.model_validate(setup)
            except ValidationError as error:
                first = error.errors()[0]
                message = str(first["msg"]).removeprefix("Value error, ")
                loc = tuple(p for p in first["loc"] if not str(p).startswith("function-"))
                raise ScenarioError(message, loc) from None
        return setup

    def new_table(
        self,
        setup: Mapping[str, Any],
        *,
        players: Mapping[str, Sequence[str]] | None = None,
        seats: Sequence[Seat] | None = None,
        start: str = "00:00",
    ) -> Table[Any]:
        """A new table of this game (the setup checked first)."""
        return Table.start(
            self.procedure,
            self.check_setup(setup),
            system=self.name,
            players=players,
            seats=seats,
            start=start,
        )

    def load(self, record: Any) -> Table[Any]:
        """A table from its record, verified (:meth:`Table.from_record`)."""
        if isinstance(record, Mapping) and record.get("system") != self.name:
            raise ScenarioError(
                f"this record is of system {record.get('system')!r}, not {self.name!r}",
                ("system",),
            )
        if isinstance(record, Mapping) and isinstance(record.get("setup"), Mapping):
            try:
                self.check_setup(record["setup"])
            except ScenarioError as error:
                raise ScenarioError(error.reason, ("setup", *error.path)) from None
        return Table.from_record(record, self.procedure)

    def to_json(self) -> dict[str, Any]:
        """``{"name", "title", "rules", "summary", "has_referee", "setup_schema", "actions"}``."""
        return {
            "name": self.name,
            "title": self.title,
            "rules": self.rules,
            "summary": self.summary,
            "has_referee": self.procedure.has_referee,
            "setup_schema": self.setup_schema(),
            "actions": self.catalogue.to_json(),
        }


_REGISTERED: dict[str, System] = {}


@cache
def _installed() -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINTS)}


def register_system(name: str, procedure: Procedure[Any] | System) -> None:
    """Make ``procedure`` (or a whole :class:`System`) the game ``system: name`` plays."""
    import re

    if not re.match(r"^[a-z_][a-z0-9_]*$", name):
        raise ValueError(f"a system name is a lower-case Python name, not {name!r}")
    if isinstance(procedure, System):
        _REGISTERED[name] = procedure
        return
    if not isinstance(procedure, Procedure):
        raise TypeError(f"system {name!r}: {procedure!r} is not a Procedure")
    _REGISTERED[name] = System(name, name, procedure)


def systems() -> tuple[str, ...]:
    """The names of every game: installed (listed without importing) and registered."""
    return tuple(sorted(set(_installed()) | set(_REGISTERED)))


def system(name: str) -> System:
    """The game ``name``; :class:`ScenarioError` (path ``system``) if there is none such."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    point = _installed().get(name) if isinstance(name, str) else None
    if point is None:
        known = ", ".join(systems()) or "none installed"
        raise ScenarioError(f"no game system {name!r} (known: {known})", ("system",))
    loaded = point.load()
    if not isinstance(loaded, System):
        raise TypeError(f"entry point {name!r} is not a System: {loaded!r}")
    _REGISTERED[name] = loaded
    return loaded


def get_system(name: str) -> Procedure[Any]:
    """The procedure of the game ``name`` (:func:`system`'s)."""
    return system(name).procedure

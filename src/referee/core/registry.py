"""Where the scenario runner finds a game's procedure by its ``system:`` name.

The kernel never imports a game. :func:`get_system` looks ``name`` up among the procedures
registered with :func:`register_system`; failing that it imports ``referee.systems.<name>``
(which may call :func:`register_system` when imported, or define a module attribute
``PROCEDURE``), and failing that, if ``name`` is a dotted module path (``tests.core.toy``), that
module, read the same way.

>>> from referee.core.procedures import Procedure
>>> sorted(systems()) == sorted(_SYSTEMS)
True
"""

from __future__ import annotations

import importlib
import re
from typing import Any

from referee.core.errors import ScenarioError
from referee.core.procedures import Procedure

__all__ = ["get_system", "register_system", "systems"]

_SYSTEMS: dict[str, Procedure[Any]] = {}
_NAME = re.compile(r"^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$")


def register_system(name: str, procedure: Procedure[Any]) -> None:
    """Make ``procedure`` the one scenarios with ``system: name`` play (replacing any before)."""
    if not _NAME.match(name):
        raise ValueError(f"a system name is a lower-case Python name, not {name!r}")
    if not isinstance(procedure, Procedure):
        raise TypeError(f"system {name!r}: {procedure!r} is not a Procedure")
    _SYSTEMS[name] = procedure


def systems() -> tuple[str, ...]:
    """The names registered so far (games register when first imported)."""
    return tuple(sorted(_SYSTEMS))


def _from_module(module_name: str, name: str) -> Procedure[Any] | None:
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name is not None and (
            module_name == error.name or module_name.startswith(error.name + ".")
        ):
            return None
        raise
    if name in _SYSTEMS:
        return _SYSTEMS[name]
    procedure = getattr(module, "PROCEDURE", None)
    if isinstance(procedure, Procedure):
        _SYSTEMS[name] = procedure
        return procedure
    return None


def get_system(name: str) -> Procedure[Any]:
    """The procedure for ``system: name``; :class:`ScenarioError` (path ``system``) if none."""
    if name in _SYSTEMS:
        return _SYSTEMS[name]
    if not _NAME.match(name):
        raise ScenarioError(f"not a system name: {name!r}", ("system",))
    candidates = [f"referee.systems.{name}"] + ([name] if "." in name else [])
    for module_name in candidates:
        found = _from_module(module_name, name)
        if found is not None:
            return found
    known = ", ".join(systems()) or "none registered"
    raise ScenarioError(f"no game system {name!r} (known: {known})", ("system",))

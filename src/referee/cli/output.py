"""Where the command line writes: one Rich console, and one way to refuse bad input."""

from __future__ import annotations

import functools
import sys
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from rich.console import Console

#: Exit status for bad input: a malformed expression, a bad file, an illegal action.
BAD_INPUT = 2


@functools.cache
def console() -> Console:
    """The console for normal output."""
    from rich.console import Console

    return Console()


def fail(message: str, status: int = BAD_INPUT) -> NoReturn:
    """Print one line naming the problem on standard error and exit (status 2 by default)."""
    sys.stderr.write(f"referee: error: {message}\n")
    raise SystemExit(status)

"""schemathesis against ``/openapi.json``: no 5xx, and every response matches its schema.

Requests are generated from the document itself, valid and invalid, for every operation, with
the referee's token of a real table and that table's id in the path (so they reach past the
401), and a few without. Driven through hypothesis directly (schemathesis's pytest plugin does not
follow pytest 9). Bounded: a fixed number of examples per operation, no deadline.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from referee.server import create_app
from referee.store import open_store
from tests.server.conftest import TEST_SETTINGS, Seated

EXAMPLES = 25

#: Thousands of generated requests: `make check` leaves them to `make test`.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def seated_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Seated]]:
    """An app over a fresh SQLite store, with one toy table in it."""
    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('openapi') / 'tables.sqlite3'}")
    created = store.create_table("kernel_toy", {}, name="schema")
    app = create_app(store, TEST_SETTINGS)
    yield app, Seated(created.id, dict(created.tokens))
    store.close()


# What the issue asks: no 5xx, and every status, content type, header and body as documented.
# (Whether a body the document allows is accepted is the game's to judge: the rules refuse
# many well-formed actions, with a documented 422.)
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


def operations(app: Any) -> list[Any]:
    """Every operation of the app's own OpenAPI document, loaded by schemathesis."""
    document = schemathesis.openapi.from_asgi("/openapi.json", app)
    return [result.ok() for result in document.get_all_operations()]


def exercise(operation: Any, mode: GenerationMode, examples: int, table: Seated | None) -> int:
    """Send ``examples`` generated requests to ``operation`` and check each answer; how many
    were sent. With ``table``: its id in the path, its referee's token in the header."""
    sent = []

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def run(case: Any) -> None:
        headers = None
        if table is not None:
            if "table_id" in (case.path_parameters or {}):
                case.path_parameters["table_id"] = table.id
            if (case.path_parameters or {}).get("seat") == "referee":
                case.path_parameters["seat"] = "krockin"  # never lock the test out
            headers = table.auth("referee")
        case.call_and_validate(headers=headers, checks=CHECKS)
        sent.append(1)

    try:
        run()
    except Unsatisfiable:
        if mode is GenerationMode.POSITIVE:
            raise
        # an operation with nothing to get wrong (no parameters, no body): nothing to send
    return len(sent)


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_the_api_matches_its_document(seated_app: tuple[Any, Seated], mode: GenerationMode) -> None:
    app, table = seated_app
    found = operations(app)
    assert len(found) >= 14
    sent = {}
    for operation in found:
        sent[operation.label] = exercise(operation, mode, EXAMPLES, table)
        exercise(operation, mode, 3, None)
    if mode is GenerationMode.POSITIVE:
        assert all(sent.values()), sent
    else:  # every operation that takes input was sent some that is wrong (three take none:
        # GET /api/games, /api/tables and /api/health)
        assert sum(1 for n in sent.values() if n) >= len(found) - 3, sent

"""A refused action's error body (issue 28; docs/web.md, "Refusals at the field"): a malformed
parameter is a 422 naming its path (``where``) with a message in a person's words naming the
field as the page labels it; a rule's refusal names the rule's section. Never a 500: every
action kind of every demo table, each parameter sent with a value of the wrong shape, is a 4xx
in the one body, its message free of the parameter model's words.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from referee.cli.demo_tables import DEMOS, EXAMPLES
from referee.server.refusals import PLAIN, in_words
from tests.server.conftest import Seated, Server
from tests.server.test_api import error

DUEL = {"duellists": {"ann": {}, "bob": {}}}
"""The example game's duel (``examples/toy-game``): Ann's turn first."""
MODEL_WORDS = ("Input should", "Field required", "should have", "Extra inputs")
"""Pydantic's phrases: never in a message for a person."""


def _duel(server: Server) -> Seated:
    return server.create("toy", DUEL, players={"ann": ["ann"], "bob": ["bob"]})


def _act(server: Server, table: Seated, seat: str, kind: str, params: Any) -> Any:
    return server.client.post(
        f"/api/tables/{table.id}/actions",
        headers=table.auth(seat),
        json={"kind": kind, "params": params, "version": table.version},
    )


@pytest.mark.parametrize(
    ("params", "where", "message"),
    [
        (
            {"plan": [{"move": 7}]},
            ["params", "plan", 0, "move"],
            "‘move’ (plan, step 1) must be 3 or less.",
        ),
        (
            {"plan": [{"guard": "high"}, {"move": "far"}]},
            ["params", "plan", 1, "move"],
            "‘move’ (plan, step 2) must be a whole number.",
        ),
        ({"plan": []}, ["params", "plan"], "‘plan’ needs at least 1."),
        ({}, ["params", "plan"], "‘plan’ is needed."),
        (
            {"plan": [{"guard": "middle"}]},
            ["params", "plan", 0, "guard"],
            "‘guard’ (plan, step 1) must be 'high' or 'low'.",
        ),
    ],
)
def test_a_malformed_parameter_is_refused_at_its_path_in_a_persons_words(
    sqlite_server: Server, params: Any, where: list[Any], message: str
) -> None:
    table = _duel(sqlite_server)
    detail = error(_act(sqlite_server, table, "ann", "declare", params), 422, "action")
    assert detail["where"] == where
    assert detail["message"] == message
    assert detail["reason"] and detail["reason"] != message  # the model's own words, kept


def test_a_misspelt_parameter_is_named_with_its_likely_spelling(sqlite_server: Server) -> None:
    table = _duel(sqlite_server)
    answer = _act(sqlite_server, table, "ann", "declare", {"plna": [{"move": 1}]})
    detail = error(answer, 422, "action")
    assert detail["where"] == ["params", "plna"]
    assert detail["message"].startswith("‘plna’: not a parameter of this action")
    assert "did you mean 'plan'?" in detail["message"]


def test_a_rule_refusal_names_its_section(sqlite_server: Server) -> None:
    table = _duel(sqlite_server)
    detail = error(_act(sqlite_server, table, "bob", "concede", {}), 422, "rule")
    assert detail["rule"] == "Duel: conceding"
    assert detail["reason"] == "it is ann's turn"
    assert detail["where"] is None


def test_the_odds_while_typing_are_refused_in_the_same_words(sqlite_server: Server) -> None:
    table = _duel(sqlite_server)
    answer = sqlite_server.client.post(
        f"/api/tables/{table.id}/odds",
        headers=table.auth("ann"),
        json={"kind": "declare", "params": {"plan": [{"move": 0}]}},
    )
    detail = error(answer, 422, "action")
    assert detail["where"] == ["params", "plan", 0, "move"]
    assert detail["message"] == "‘move’ (plan, step 1) must be 1 or more."


def test_every_problem_in_words_names_its_field() -> None:
    limits = {
        "ge": 1,
        "gt": 1,
        "le": 3,
        "lt": 3,
        "min_length": 1,
        "max_length": 3,
        "multiple_of": 2,
        "expected": "'a' or 'b'",
        "expected_tags": "'a', 'b'",
    }
    for problem in PLAIN:
        said = in_words(problem, limits, ("skill",), "Input should be something")
        assert said.startswith("‘skill’ ") and said.endswith("."), (problem, said)
        assert not any(words in said for words in MODEL_WORDS), (problem, said)


def test_the_values_a_field_may_take_read_in_one_order_whatever_order_the_model_gave() -> None:
    """Pydantic lists a ``Literal``'s values in the order of the one typing's cache holds: a
    ``Literal`` equal to one built before in another order (the same values) is that one. The
    sentence lists them alphabetically, so a refusal reads the same in every process."""
    for expected in ("'low' or 'high'", "'high' or 'low'"):
        said = in_words("literal_error", {"expected": expected}, ("guard",), "Input should be")
        assert said == "‘guard’ must be 'high' or 'low'."
    three = in_words("enum", {"expected": "'hold', 'feint' or 'assault'"}, ("maneuver",), "")
    assert three == "‘maneuver’ must be 'assault', 'feint' or 'hold'."
    assert (
        in_words("literal_error", {"expected": "9, 3 or 6"}, ("n",), "") == "‘n’ must be 9, 3 or 6."
    )


#: Values of the wrong shape for any parameter: a number where words are asked, words where a
#: number is, a list, a mapping, nothing, a number too large for any rule.
WRONG = ["x" * 3, 10**12, [1, "a"], {"z": 1}, None, -1, True]


def _demo(server: Server, game: str) -> Seated:
    data = yaml.safe_load((EXAMPLES / DEMOS[game]).read_text("utf-8"))
    return server.create(game, data["setup"], players=data.get("players"))


@pytest.mark.slow  # every action kind of every demo table, each parameter wrong seven ways
@pytest.mark.parametrize("game", sorted(DEMOS))
def test_no_malformed_action_of_any_game_is_a_server_error(
    sqlite_server: Server, game: str
) -> None:
    table = _demo(sqlite_server, game)
    seat = "referee" if "referee" in table.tokens else sorted(table.tokens)[0]
    catalogue = sqlite_server.client.get(f"/api/games/{game}").json()["actions"]
    refused = 0
    for spec in catalogue:
        fields = sorted((spec["schema"].get("properties") or {}).keys()) or ["nothing"]
        for name in fields:
            for value in WRONG:
                answer = _act(sqlite_server, table, seat, spec["kind"], {name: value})
                assert answer.status_code < 500, (spec["kind"], name, value, answer.text)
                if answer.status_code == 200:  # taken (a note, say): the table moved on
                    table = Seated(table.id, table.tokens, answer.json())
                    continue
                detail = error(answer, answer.status_code, answer.json()["error"]["code"])
                assert not any(w in detail["message"] for w in MODEL_WORDS), detail
                if detail["code"] == "action" and detail["where"] != ["kind"]:
                    assert detail["where"][0] == "params", detail
                    assert detail["where"][1] in fields, detail  # a parameter of the kind
                refused += 1
    assert refused > 0, f"{game}: nothing was refused: the test proves nothing"

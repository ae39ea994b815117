"""The home page's setup file (``POST /web/yaml``): a pasted or chosen file is read by the
project's one loader (``referee.core.loader``), with its limits, before it fills the form.

Anyone may call it without a seat, so hostile text is refused at once as a 422 with the JSON
error body, never expanded, never a 500 (issue 29).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from referee.server import Settings, create_app
from referee.store import open_store
from referee.web import mount


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path = Path(tmp_path_factory.mktemp("yaml")) / "tables.sqlite3"
    store = open_store(f"sqlite:///{path}")
    settings = Settings(rate=0, anonymous_rate=0)
    with TestClient(create_app(store, settings, mount=mount)) as test_client:
        yield test_client
    store.close()


def refused(client: TestClient, text: str) -> str:
    response = client.post("/web/yaml", json={"text": text})
    assert response.status_code == 422, response.text[:200]
    error = response.json()["error"]
    assert error["code"] == "setup"
    return str(error["message"])


def test_a_setup_file_fills_the_form() -> None:
    """(No server needed for the shape: ``read_setup`` is the page's reader.)"""
    from referee.web.pages import read_setup

    text = "system: toy\nsetup: {a: &x [1, 2], b: *x}\nplayers: {ann: [a]}\nactions: []"
    assert read_setup(text) == {
        "system": "toy",
        "setup": {"a": [1, 2], "b": [1, 2]},
        "players": {"ann": ["a"]},
    }
    assert read_setup("start: 21:00") == {"setup": {"start": "21:00"}}  # a time stays text


def test_a_few_hundred_bytes_of_aliases_are_refused_not_expanded(client: TestClient) -> None:
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]']
    for n in range(1, 7):
        previous = chr(ord("a") + n - 1)
        name = chr(ord("a") + n)
        lines.append(f"{name}: &{name} [{', '.join(['*' + previous] * 10)}]")
    text = "\n".join(lines)
    assert len(text) < 400
    response = client.post("/web/yaml", json={"text": text})
    assert response.status_code == 422 and len(response.content) < 1000
    assert "values once its aliases are expanded" in response.json()["error"]["message"]


def test_a_list_nested_thousands_deep_is_refused_in_a_line(client: TestClient) -> None:
    message = refused(client, "a: " + "[" * 2000 + "]" * 2000)
    assert "nested more than 100 levels deep" in message


def test_text_that_is_not_a_mapping_is_refused(client: TestClient) -> None:
    assert refused(client, "- 1\n- 2") == "setup file: a setup is a mapping of names to values"
    assert refused(client, "a: [1, 2").startswith("setup file: line 2, column 1: ")


def test_a_good_file_comes_back_as_its_data(client: TestClient) -> None:
    response = client.post("/web/yaml", json={"text": "system: ginlane\nsetup: {x: 1}"})
    assert response.status_code == 200
    assert response.json() == {"system": "ginlane", "setup": {"x": 1}}

"""Handouts from the web table: a seat downloads its own PDFs, printed from its own observe."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from pypdf import PdfReader

from referee.core.scenario import load_scenario
from tests.server.conftest import Server

EXAMPLE = Path(__file__).parents[2] / "examples" / "intrigue" / "perception-envelopes.yaml"
SECRETS = ("Her pearls are paste.", "You recognise her: she was a cook in Vienna.")


def texts(zipped: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(zipped)) as archive:
        return {
            name: " ".join(
                page.extract_text() or ""
                for page in PdfReader(io.BytesIO(archive.read(name))).pages
            )
            for name in archive.namelist()
        }


@pytest.mark.slow
def test_each_seat_downloads_its_own_handouts(sqlite_server: Server) -> None:
    scenario = load_scenario(EXAMPLE)
    table = sqlite_server.create(
        "intrigue", scenario.setup, players=scenario.players or None, start=scenario.start
    )
    url = f"/api/tables/{table.id}/handouts"
    referee = sqlite_server.client.get(url, headers=table.auth("referee"))
    assert referee.status_code == 200
    assert referee.headers["content-type"] == "application/zip"
    everything = " ".join(texts(referee.content).values())
    assert all(" ".join(secret.split()) in " ".join(everything.split()) for secret in SECRETS)
    for seat in table.tokens:
        if seat == "referee":
            continue
        answer = sqlite_server.client.get(url, params={"paper": "letter"}, headers=table.auth(seat))
        assert answer.status_code == 200, answer.text
        printed = " ".join(" ".join(texts(answer.content).values()).split())
        for secret in SECRETS:
            assert secret not in printed, seat
        assert secret.encode() not in answer.content
    assert sqlite_server.client.get(url).status_code == 401
    bad = sqlite_server.client.get(url, params={"paper": "a5"}, headers=table.auth("referee"))
    assert bad.status_code == 422

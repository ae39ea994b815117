"""Helpers for the handouts' tests: text out of a PDF (pypdf), by page and by place."""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
from pathlib import Path

from pypdf import PdfReader

MM = 72 / 25.4


def pages_text(pdf: bytes) -> list[str]:
    """The text of each page."""
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def all_text(pdf: bytes) -> str:
    """The text of every page, with line breaks and hyphen-free wrapping joined by spaces."""
    return " ".join(" ".join(pages_text(pdf)).split())


def placed_text(pdf: bytes) -> list[list[tuple[float, float, str]]]:
    """Each page's text runs with where they start: (x mm, y mm from the page's top, text)."""
    pages = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        height = float(page.mediabox.height)
        runs: list[tuple[float, float, str]] = []

        def visit(text: str, cm: list[float], tm: list[float], *_: object) -> None:
            if not text.strip():
                return
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            runs.append((x / MM, (height - y) / MM, text))  # noqa: B023

        page.extract_text(visitor_text=visit)
        pages.append(runs)
    return pages


def render_pngs(pdf: bytes, out: Path | None = None) -> list[Path]:
    """Every page rendered to PNG by Debian's pdftoppm; fails if pdftoppm reports an error."""
    exe = shutil.which("pdftoppm")
    assert exe is not None, "pdftoppm is missing: apt-get install -y poppler-utils"
    folder = out or Path(tempfile.mkdtemp(prefix="handouts-"))
    source = folder / "handout.pdf"
    source.write_bytes(pdf)
    done = subprocess.run(
        [exe, "-r", "40", "-png", str(source), str(folder / "page")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Error" not in done.stderr, done.stderr
    return sorted(folder.glob("page*.png"))

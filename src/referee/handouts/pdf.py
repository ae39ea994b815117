"""The page kit every handout is drawn with: paper sizes, the embedded font, and a few shapes.

Built on fpdf2 (pure Python, TrueType fonts embedded as subsets). The font is DejaVu Sans, from
Debian's ``fonts-dejavu-core`` (``/usr/share/fonts/truetype/dejavu``): it covers the texts'
accented names (Zweihänder) and prints well small.

>>> doc = Document("a4", title="Test")
>>> doc.add_page()
>>> doc.heading(15, 15, "Hello")
>>> doc.to_bytes()[:5]
b'%PDF-'
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from fpdf import FPDF

__all__ = ["FONT_DIR", "PAPERS", "Document", "Paper"]

Paper = Literal["a4", "letter"]

#: Page sizes in millimetres (width, height), portrait.
PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}

#: Where Debian's ``fonts-dejavu-core`` puts DejaVu Sans.
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")

FONT = "DejaVu"
#: The faces of DejaVu Sans by fpdf2 style.
FACES = {"": "DejaVuSans.ttf", "B": "DejaVuSans-Bold.ttf", "I": "DejaVuSans-Oblique.ttf"}
MARGIN = 12.0


class Document(FPDF):
    """An fpdf2 document on ``paper`` with DejaVu Sans embedded and millimetre units."""

    def __init__(self, paper: str = "a4", *, title: str = "") -> None:
        if paper not in PAPERS:
            raise ValueError(f"paper {paper!r} is not one of {', '.join(PAPERS)}")
        super().__init__(unit="mm", format=PAPERS[paper])
        self.paper = paper
        self.set_auto_page_break(False)
        self.set_margins(MARGIN, MARGIN, MARGIN)
        self.set_creator("Referee")
        self.set_title(title)
        self.set_compression(True)
        self._styles: set[str] = set()
        self.font(10)
        self.set_draw_color(0)
        self.set_text_color(0)

    @property
    def width(self) -> float:
        """The page width (mm)."""
        return float(self.w)

    @property
    def height(self) -> float:
        """The page height (mm)."""
        return float(self.h)

    def font(self, size: float, style: str = "") -> None:
        """Set DejaVu Sans at ``size`` points, ``style`` one of ``""``, ``"B"``, ``"I"`` (each
        face is read and embedded only when first used)."""
        if style not in self._styles:
            self.add_font(FONT, style, str(FONT_DIR / FACES[style]))
            self._styles.add(style)
        self.set_font(FONT, style, size)

    def text_at(self, x: float, y: float, text: str, size: float = 10, style: str = "") -> None:
        """One line of ``text`` with its baseline at (``x``, ``y``)."""
        self.font(size, style)
        self.text(x, y, text)

    def right_at(self, x: float, y: float, text: str, size: float = 10, style: str = "") -> None:
        """One line of ``text`` ending at ``x``, baseline ``y``."""
        self.font(size, style)
        self.text(x - self.get_string_width(text), y, text)

    def centred_at(self, x: float, y: float, text: str, size: float = 10, style: str = "") -> None:
        """One line of ``text`` centred on ``x``, baseline ``y``."""
        self.font(size, style)
        self.text(x - self.get_string_width(text) / 2, y, text)

    def heading(self, x: float, y: float, text: str, size: float = 16) -> None:
        """A bold heading with a rule under it, across the page."""
        self.text_at(x, y, text, size, "B")
        self.set_line_width(0.4)
        self.line(x, y + 2, self.width - MARGIN, y + 2)

    def paragraph(
        self, x: float, y: float, width: float, text: str, size: float = 10, style: str = ""
    ) -> float:
        """``text`` wrapped to ``width`` from top ``y``; returns the y below it."""
        self.font(size, style)
        self.set_xy(x, y)
        self.multi_cell(width, size * 0.45, text, new_x="LMARGIN", new_y="NEXT")
        return float(self.get_y())

    def fitted(self, x: float, y: float, width: float, text: str, size: float, style: str) -> None:
        """One line of ``text`` centred on ``x``, shrunk until it fits ``width``."""
        self.font(size, style)
        while size > 6 and self.get_string_width(text) > width:
            size -= 0.5
            self.font(size, style)
        self.text(x - self.get_string_width(text) / 2, y, text)

    def boxes(self, x: float, y: float, count: int, size: float = 4.5, filled: int = 0) -> float:
        """A track of ``count`` tick boxes (the first ``filled`` shaded); returns the x after."""
        self.set_line_width(0.25)
        for i in range(count):
            style = "DF" if i < filled else "D"
            self.set_fill_color(150)
            self.rect(x + i * (size + 1), y, size, size, style=style)
        return x + count * (size + 1)

    def field(self, x: float, y: float, width: float, label: str, value: str = "") -> None:
        """A labelled line to write on (``value`` printed on it if given)."""
        self.text_at(x, y, label, 7, "B")
        self.set_line_width(0.2)
        self.line(x, y + 6, x + width, y + 6)
        if value:
            self.text_at(x + 1, y + 5, value, 10)

    def grid(
        self,
        x: float,
        y: float,
        widths: Sequence[float],
        header: Sequence[str],
        rows: Sequence[Sequence[str]],
        row_height: float = 6.5,
    ) -> float:
        """A ruled table (``rows`` may hold blanks to fill in); returns the y below it."""
        self.set_line_width(0.2)
        self.set_fill_color(225)
        cx = x
        for w, head in zip(widths, header, strict=True):
            self.rect(cx, y, w, row_height, style="DF")
            self.text_at(cx + 1.2, y + row_height - 2, head, 7.5, "B")
            cx += w
        y += row_height
        for row in rows:
            cx = x
            for w, cell in zip(widths, row, strict=True):
                self.rect(cx, y, w, row_height)
                if cell:
                    self.text_at(cx + 1.2, y + row_height - 2, cell, 8.5)
                cx += w
            y += row_height
        return y

    def cut_guide(self, x: float, y: float, w: float, h: float) -> None:
        """Crop marks at the four corners of a card, outside it, to cut along."""
        self.set_line_width(0.2)
        self.set_draw_color(0)
        mark = 3.0
        for cx, cy in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)):
            sx = -1 if cx == x else 1
            sy = -1 if cy == y else 1
            self.line(cx + sx * 1, cy, cx + sx * (1 + mark), cy)
            self.line(cx, cy + sy * 1, cx, cy + sy * (1 + mark))

    def dashed(self, x1: float, y1: float, x2: float, y2: float) -> None:
        """A dashed line (a fold)."""
        self.set_line_width(0.2)
        self.set_dash_pattern(dash=1.5, gap=1.2)
        self.line(x1, y1, x2, y2)
        self.set_dash_pattern()

    def footer_note(self, text: str) -> None:
        """A small line at the foot of the page."""
        self.set_text_color(90)
        self.text_at(MARGIN, self.height - 6, text, 6.5)
        self.set_text_color(0)

    def to_bytes(self) -> bytes:
        """The finished PDF."""
        return bytes(self.output())

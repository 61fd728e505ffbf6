"""A page's text layer: words with positions (``Word``) grouped into visual lines (``PageText``).

The text stage and OCR make it (engine/ingest/pdftext.py, engine/ingest/ocr_pages.py), the catalogue stores and
rebuilds it (engine/library/store.py), and the stages share its line grouping."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

Word = tuple[float, float, float, float, str]
"""(x0, top, x1, bottom, text) in PDF points, origin top-left."""


@dataclass
class PageText:
    """The text layer of one page."""

    page: int
    """1-based."""
    width: float
    height: float
    words: list[Word] = field(default_factory=list)
    lines: list[list[int]] = field(default_factory=list)
    """Indexes into ``words``, one list per visual line, top to bottom."""
    error: str = ""

    @property
    def has_text(self) -> bool:
        return len(self.words) >= 3

    @property
    def text(self) -> str:
        return "\n".join(" ".join(self.words[i][4] for i in line) for line in self.lines)

    def to_row(self) -> dict[str, Any]:
        return {
            "page": self.page,
            "width": self.width,
            "height": self.height,
            "has_text": self.has_text,
            "text": self.text,
            "words": [[round(w[0], 1), round(w[1], 1), round(w[2], 1), round(w[3], 1), w[4]] for w in self.words],
        }


TEXT_LINE_OVERLAP = 0.5
"""Share of the smaller word's height two words must overlap vertically to sit on one line of running text."""


TABLE_LINE_OVERLAP = 0.45
"""The same for a table row: its cells are often set a little off one baseline (superscripts, mixed fonts)."""


def line_groups(words: Sequence[Word], overlap: float = TEXT_LINE_OVERLAP) -> list[list[int]]:
    """Indexes of words grouped into visual lines by vertical overlap, lines top to bottom, each left to right.
    The one line grouping of the engine: page text, OCR boxes, table rows and figure labels."""
    order = sorted(range(len(words)), key=lambda i: ((words[i][1] + words[i][3]) / 2, words[i][0]))
    lines: list[list[int]] = []
    cur: list[int] = []
    cur_top = cur_bottom = 0.0
    for i in order:
        _, top, _, bottom, _ = words[i]
        if cur:
            shared = min(bottom, cur_bottom) - max(top, cur_top)
            height = max(1.0, min(bottom - top, cur_bottom - cur_top))
            if shared >= overlap * height:
                cur.append(i)
                cur_top, cur_bottom = min(cur_top, top), max(cur_bottom, bottom)
                continue
            lines.append(sorted(cur, key=lambda j: words[j][0]))
        cur, cur_top, cur_bottom = [i], top, bottom
    if cur:
        lines.append(sorted(cur, key=lambda j: words[j][0]))
    return lines


def group_lines(words: Sequence[Word], overlap: float = TEXT_LINE_OVERLAP) -> list[list[Word]]:
    """The words themselves, grouped as ``line_groups`` groups them."""
    return [[words[i] for i in g] for g in line_groups(words, overlap)]

"""Figures: decoration filter, text read from a chart (text layer or OCR) grouped by position, summaries.

Without a vision model a chart is described from its words: the title (top lines), the axis labels (numbers in
a column at the left or a row at the bottom), the legend (short labels) and the data labels (other numbers).
The text LLM, when allowed, turns that into a 3-5 sentence summary that states the values.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.numbers import parse_cell
from engine.pagetext import TABLE_LINE_OVERLAP, Word, group_lines

BBox = tuple[float, float, float, float]


def is_decoration(box: BBox, page_w: float, page_h: float, n_words: int | None = None) -> bool:
    """Logos, rules and ornaments: tiny, extremely thin, or small with no text at all."""
    w, h = box[2] - box[0], box[3] - box[1]
    if w < 40 or h < 30:
        return True
    if w / max(h, 1.0) > 10 or h / max(w, 1.0) > 10:
        return True
    if w * h < 0.012 * page_w * page_h:
        return True
    return n_words is not None and n_words < 2 and w * h < 0.2 * page_w * page_h


@dataclass
class FigureText:
    """A figure's words grouped by role."""

    title: list[str] = field(default_factory=list)
    y_axis: list[str] = field(default_factory=list)
    x_axis: list[str] = field(default_factory=list)
    legend: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        """True when no words were read."""
        return not self.lines

    def numbers(self) -> list[str]:
        """Every number shown in the figure, as printed."""
        return [t for ln in self.lines for t in ln.split() if parse_cell(t.strip(",;:")) is not None]


def group_figure_words(words: Sequence[Word], box: BBox) -> FigureText:
    """Sort a figure's words (PDF points) into title, axis labels, legend entries and data labels."""
    ft = FigureText()
    if not words:
        return ft
    x0, y0, x1, y1 = box
    w, h = max(1.0, x1 - x0), max(1.0, y1 - y0)
    lines = group_lines(words, TABLE_LINE_OVERLAP)
    ft.lines = [" ".join(t[4] for t in ln) for ln in lines]
    for ln in lines:
        text = " ".join(t[4] for t in ln)
        top = min(t[1] for t in ln)
        left = min(t[0] for t in ln)
        right = max(t[2] for t in ln)
        numeric = all(parse_cell(t[4].strip(",;:")) is not None for t in ln)
        if top < y0 + 0.15 * h and not numeric and len(text) > 3:
            ft.title.append(text)
        elif numeric and len(ln) == 1 and right < x0 + 0.18 * w:
            ft.y_axis.append(text)
        elif top > y0 + 0.82 * h and (numeric or len(ln) >= 2):
            ft.x_axis.append(text)
        elif not numeric and len(text) <= 40:
            ft.legend.append(text)
        else:
            ft.labels.append(text)
        _ = left
    return ft


def figure_text_summary(ft: FigureText, title: str = "", max_chars: int = 700) -> str:
    """A deterministic description of a figure from its grouped words."""
    parts: list[str] = []
    head = title or " ".join(ft.title[:2])
    parts.append(f"Figure: {head}." if head else "Figure.")
    if ft.legend:
        parts.append("Labels: " + "; ".join(_uniq(ft.legend)[:12]) + ".")
    if ft.labels:
        parts.append("Values shown: " + "; ".join(ft.labels[:15]) + ".")
    if ft.x_axis:
        parts.append("Horizontal axis: " + "; ".join(ft.x_axis[:6]) + ".")
    if ft.y_axis:
        parts.append("Vertical axis: " + ", ".join(ft.y_axis[:10]) + ".")
    text = " ".join(parts)
    return re.sub(r"\s+", " ", text)[:max_chars]


def _uniq(items: Sequence[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for i in items:
        if i not in seen:
            seen.add(i)
            out.append(i)
    return out


FIGURE_SYSTEM = (
    "You summarise charts from financial filings for an analyst. Use only the text given. State the values "
    "shown with their labels and periods. If the text is not a chart, say what it shows in one sentence."
)


def figure_llm_prompt(ft: FigureText, title: str, page_context: str = "") -> str:
    """The prompt asking the text LLM for a 3-5 sentence summary of a chart's words."""
    body = "\n".join(ft.lines[:40])
    ctx = f"\nNearby text on the page: {page_context[:300]}" if page_context else ""
    return (
        f"Chart title: {title or ' '.join(ft.title[:2]) or '(none)'}\n"
        f"Words read from the chart, line by line (top to bottom):\n{body[:1500]}{ctx}\n\n"
        "Write 3-5 sentences summarising what the chart shows, stating the numbers with their labels."
    )

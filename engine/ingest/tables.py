"""Tables: cells from words with positions (the PDF text layer or OCR boxes), descriptions, number checks.

Financial tables are mostly unruled: row labels on the left, period columns of right-aligned numbers. Columns
are found by clustering the x-extents of numeric tokens over the rows; header lines above the first data row
name the columns (a phrase spanning several columns, e.g. "Years ended December 31", prefixes each of them).
Parentheses are negatives, dashes are empty cells, ``$``/``%``/``pp`` and footnote marks are kept in the shown
value and dropped from the number. The scale comes from the units line ("in millions, except per share").

Text layers and OCR cut cells into pieces: a currency sign or a parenthesis set apart from its digits, a number
broken into abutting runs ("2" "4,020"), a unit ("pts") or a note mark ("#") after the value. The pieces are
glued back per line, and a number counts as part of a row label only where it is set inside the label's words
(no wide gap), so a stray word or mark at the end of a line does not swallow the row's values.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.numbers import is_year, parse_cell, scale_of
from engine.pagetext import TABLE_LINE_OVERLAP, Word, group_lines

Box = tuple[float, float, float, float]

_CURRENCY = "$€£¥"
_DASHES = {
    "—",
    "–",
    "-",
    "−",
    "--",
    "---",
    "—%",
    "-%",
    "–%",
    "n/a",
    "N/A",
    "NA",
    "NM",
    "nm",
    "n.m.",
    "*",
    "—(a)",
    "n.a.",
    "n.a",
    "na",
    "N.A.",
    "n/m",
    "N/M",
    "#",
    "##",
    "#%",
    "—pp",
    "–pp",
}
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan\\.?|feb\\.?|mar\\.?|apr\\.?|jun\\.?|jul\\.?|aug\\.?|sep\\.?|sept\\.?|oct\\.?|nov\\.?|dec\\.?"
)
_PERIOD_WORD = re.compile(
    rf"^(?:{_MONTHS}|year|years|quarter|quarters|ended|ending|months|weeks|fiscal|q[1-4]|h[12]|fy\d*|as|of|at|"
    r"three|six|nine|twelve|change|%|\$|actual|budget|restated|unaudited|audited|total)[,:]?$",
    re.I,
)
UNITS_RE = re.compile(
    r"\(?\s*(?:(?:amounts?|dollars?|figures|\$|€|£|us\s*\$|usd|eur|euros?)\s+)?(?:in|expressed\s+in)\s+"
    r"(?:(?:u\.s\.\s+)?(?:dollars?|\$|€|£|euros?|usd|eur)\s+)?"
    r"(?:millions?|thousands?|billions?|000s|000'?s|mn|bn|m)\b[^)\n]{0,80}\)?"
    r"|\(\s*(?:\$|€|£)?\s*(?:millions?|thousands?|billions?)\b[^)\n]{0,60}\)"
    r"|\((?:\$|€|£)\s*(?:in\s+)?(?:000s|000'?s|mm|mn|m)\)",
    re.I,
)


_UNIT_END = re.compile(
    r"^(.*?\b(?:millions?|thousands?|billions?|000s|000'?s|mn|bn|mm|m)\b"
    r"(?:,?\s*except\s+(?:for\s+)?(?:per[\s-]+share|share|unit|percentages?|ratios?|where)[\w\s,/'-]{0,40}?"
    r"(?:amounts?|data|figures|information|values|noted|indicated|stated|ratios?|percentages?)\b)?)",
    re.I,
)


def find_units(text: str) -> str:
    """The units phrase in a piece of text (e.g. "(In millions, except per share amounts)"), or ""."""
    m = UNITS_RE.search(text)
    if not m:
        return ""
    found = m.group(0).strip()
    if found.startswith("(") and found.endswith(")"):
        return found
    cut = _UNIT_END.match(found)
    out = cut.group(1).strip() if cut else found
    return out + ")" if out.startswith("(") else out


def is_empty_cell(token: str) -> bool:
    """True for the dashes and markers financial tables print for "nothing"."""
    return token.strip() in _DASHES


_FOOTNOTE = re.compile(r"^\(?[0-9a-z]\)$|^\*+$|^[†‡]$")


@dataclass
class Item:
    """A piece of one line: a number, an empty-cell marker or text."""

    x0: float
    x1: float
    top: float
    bottom: float
    text: str
    kind: str  # "num" | "empty" | "text"
    number: float | None = None
    lead: float | None = None
    """Where a currency sign set apart from the digits starts (the item's extent is the digits')."""


@dataclass
class Line:
    """One visual line of a table: its vertical extent and its items, left to right."""

    top: float
    bottom: float
    items: list[Item] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The line's text."""
        return " ".join(i.text for i in self.items)

    def nums(self) -> list[Item]:
        """The numbers and empty-cell markers of the line."""
        return [i for i in self.items if i.kind in {"num", "empty"}]


_NUM_HEAD = re.compile(r"^[($€£¥+\-–−]*\d[\d,.]*$")
_NUM_TAIL = re.compile(r"^[,.]?\d[\d,.]*\)?%?$|^[,.]\d")
_UNIT_WORDS = {"pts.", "bp", "pp", "pp)", "ppt", "ppts", "#"}


def _join_fragments(raw: list[Item]) -> list[Item]:
    """Runs of one number that the text layer split with no gap between them ("2" "4,020", "7" ",919", "6" ".4")."""
    out: list[Item] = []
    for it in raw:
        prev = out[-1] if out else None
        if (
            prev is not None
            and -0.5 <= it.x0 - prev.x1 < 1.0
            and _NUM_HEAD.match(prev.text)
            and _NUM_TAIL.match(it.text)
            and not (is_year(prev.text) and is_year(it.text))
            and parse_cell(prev.text + it.text) is not None
        ):
            prev.text += it.text
            prev.x1, prev.bottom = it.x1, max(prev.bottom, it.bottom)
            continue
        out.append(it)
    return out


def _is_word(text: str) -> bool:
    """A word of a label: two letters or more (not a lone OCR letter, a mark like "#%" or garbled digits)."""
    return sum(ch.isalpha() for ch in text) >= 2 and not _FOOTNOTE.match(text)


def _items(words: list[Word]) -> list[Item]:
    """Classify a line's words, gluing currency signs, lone parentheses, units and percent signs to their number."""
    raw = _join_fragments([Item(w[0], w[2], w[1], w[3], w[4].strip(), "text") for w in words if w[4].strip()])
    glued: list[Item] = []
    i = 0
    while i < len(raw):
        it = raw[i]
        nxt = raw[i + 1] if i + 1 < len(raw) else None
        if it.text in {*_CURRENCY, "(", "($", "$(", "US$", "€(", "(€"} and nxt is not None and nxt.x0 - it.x1 < 90:
            if parse_cell(it.text + nxt.text) is not None or it.text in _CURRENCY:
                nxt.text = (it.text if it.text != "US$" else "$") + nxt.text
                if nxt.x0 - it.x1 < 3.5:
                    nxt.x0 = it.x0
                else:
                    # a sign set apart ("$      1,234"): the cell keeps the digits' extent, so columns of
                    # right-aligned numbers are not widened into their neighbours by the signs
                    nxt.lead = it.x0
                i += 1
                continue
        if (
            it.text in {"–", "-", "−", "—", "+"}
            and nxt is not None
            and 0 <= nxt.x0 - it.x1 < 3.5
            and parse_cell(nxt.text) is not None
            and not nxt.text.startswith(("(", "-", "–", "+"))
        ):
            nxt.text = ("+" if it.text == "+" else "-") + nxt.text  # a sign set as its own glyph run
            nxt.x0 = it.x0
            i += 1
            continue
        if (
            glued
            and it.x0 - glued[-1].x1 < 6
            and (
                it.text in {")", "%", ")%", "%)", "pts", "bps", "x"}
                or (it.text in _UNIT_WORDS and parse_cell(glued[-1].text) is not None)
            )
        ):
            glued[-1].text += it.text
            glued[-1].x1 = it.x1
            i += 1
            continue
        glued.append(it)
        i += 1
    for it in glued:
        n = parse_cell(it.text.rstrip("x") if it.text.endswith("x") and len(it.text) > 1 else it.text)
        if n is not None:
            it.kind, it.number = "num", n
        elif is_empty_cell(it.text) or it.text in {"$—", "$-", "$–", "€—", "$ —"}:
            it.kind = "empty"
    # Numbers and dashes set among the words of the label belong to it ("Other — net", "maturities greater
    # than 90 days", "2.50% Notes due 2026"); so do footnote marks glued to a label word ("Revenue (1)"). A
    # number before the line's last word but set apart by wide gaps is a value: a text column follows it
    # ("$ 2,277   Other current assets   $ 74") or a stray word ends the line ("0.9 pts", OCR noise).
    heights = sorted(it.bottom - it.top for it in glued)
    wide = max(6.0, 0.8 * heights[len(heights) // 2]) if heights else 6.0
    segment: list[int] = []
    for k, it in enumerate(glued):
        segment.append(0 if k == 0 else segment[-1] + int(it.x0 - glued[k - 1].x1 > wide))
    worded = {segment[k] for k, it in enumerate(glued) if it.kind == "text" and _is_word(it.text)}
    # the last piece of label text: a word, or a mark set among words ("31,", "[12]"); not a lone mark or
    # garbled digits set apart at the end of the line ("#%", "1'124")
    last_text = max(
        (
            k
            for k, it in enumerate(glued)
            if it.kind == "text"
            and segment[k] in worded
            and (len(it.text) > 1 or _is_word(it.text))
            and not _FOOTNOTE.match(it.text)
        ),
        default=-1,
    )
    for k, it in enumerate(glued):
        if it.kind != "text" and k < last_text and segment[k] in worded:
            it.kind, it.number = "text", None
        elif (
            it.kind == "num"
            and k > 0
            and _FOOTNOTE.match(it.text)
            and (glued[k - 1].kind == "text" or (glued[k - 1].kind == "num" and is_year(glued[k - 1].text)))
            and it.x0 - glued[k - 1].x1 < 4
        ):
            # a footnote mark set on a label word ("Revenue (1)") or on a period heading ("2019   2018 (1)"): the
            # label's or the heading's, not a value of -1
            it.kind, it.number = "text", None
        elif (
            it.kind == "num"
            and k > 0
            and is_year(it.text)
            and glued[k - 1].kind == "text"
            and segment[k] == segment[k - 1]
            and segment[k] in worded
            and any(o.kind == "num" and not is_year(o.text) and segment[m] > segment[k] for m, o in enumerate(glued))
        ):
            # the year of a date in a row's label ("Balances as of December 31, 2015   (722)   (1)"); a heading's
            # dates ("May 31, 2020   May 26, 2019") keep their years
            it.kind, it.number = "text", None
    return glued


def _header_like(line: Line) -> bool:
    """A line naming periods: only years / month words / period words, e.g. "2018 2017 2016"."""
    nums = [i for i in line.items if i.kind == "num"]
    if nums and not all(is_year(i.text) for i in nums):
        # a day number next to a month ("June 30") is fine, so is a short year in a comparison ("22 vs. 21")
        words = [i.text for i in line.items]
        has_month = any(re.match(rf"^(?:{_MONTHS})$", w, re.I) for w in words)
        has_vs = any(w.lower().strip(".'’") in {"vs", "versus"} for w in words)
        top = 31 if has_month else 99 if has_vs else 0
        if any(
            not is_year(i.text) and not (0 < (i.number or 0) <= top and i.text.lstrip("'’").isdigit()) for i in nums
        ):
            return False
    texts = [i for i in line.items if i.kind == "text"]
    if not nums and not texts:
        return False
    if not nums:
        return all(_PERIOD_WORD.match(t.text) or is_year(t.text) for t in texts) and len(texts) <= 12
    return True


def _cluster(intervals: list[tuple[float, float]]) -> list[list[float]]:
    """Merge overlapping x-intervals into column spans ``[x0, x1, support]``."""
    spans: list[list[float]] = []
    for x0, x1 in sorted(intervals):
        if spans:
            s = spans[-1]
            ov = min(s[1], x1) - max(s[0], x0)
            if ov >= 0.25 * min(x1 - x0, s[1] - s[0]) or ov > 2.0:
                s[0], s[1], s[2] = min(s[0], x0), max(s[1], x1), s[2] + 1
                continue
        spans.append([x0, x1, 1.0])
    return spans


def _assign(item: Item, spans: list[list[float]], slack: float = 4.0) -> int | None:
    best, best_ov = None, 0.0
    for j, (a, b, _) in enumerate(spans):
        ov = min(b + slack, item.x1) - max(a - slack, item.x0)
        if ov > best_ov:
            best, best_ov = j, ov
    if best is not None:
        return best
    cx = (item.x0 + item.x1) / 2
    dists = [(abs(cx - (a + b) / 2), j) for j, (a, b, _) in enumerate(spans)]
    if dists:
        d, j = min(dists)
        a, b, _ = spans[j]
        if d < max(12.0, (b - a)):
            return j
    return None


def parse_words(
    words: Sequence[Word], box: Box | None = None, title: str = "", units: str = "", source: str = "textlayer"
) -> dict[str, Any] | None:
    """Read a table from words (PDF points) inside ``box``; None when there is no numeric column at all."""
    every = words
    if box is not None:
        x0, y0, x1, y1 = box
        words = [w for w in words if x0 - 1 <= (w[0] + w[2]) / 2 <= x1 + 1 and y0 - 1 <= (w[1] + w[3]) / 2 <= y1 + 1]
    if not words:
        return None
    lines = [Line(min(w[1] for w in ws), max(w[3] for w in ws), _items(ws))
             for ws in group_lines(words, TABLE_LINE_OVERLAP)]
    units = units or next((u for ln in lines[:8] if (u := find_units(ln.text))), "")
    data_idx = [k for k, ln in enumerate(lines) if ln.nums() and not _header_like(ln)]
    if not data_idx:
        return None
    first_data = data_idx[0]
    # columns are where the numbers stand; a dash for "nothing" is set wherever the typesetter put it (centred, or
    # right of a right-aligned column's digits) and only makes a column of its own where no number is
    spans = _cluster([(i.x0, i.x1) for k in data_idx for i in lines[k].nums() if i.kind == "num"])
    dashes = [(i.x0, i.x1) for k in data_idx for i in lines[k].nums() if i.kind != "num"]
    for x0, x1 in dashes:
        if (j := _assign(Item(x0, x1, 0.0, 0.0, "-", "empty"), spans)) is not None and \
                min(spans[j][1], x1) - max(spans[j][0], x0) > -4.0:
            spans[j][2] += 1
    spans = sorted(spans + _cluster([d for d in dashes if not any(
        min(b, d[1]) - max(a, d[0]) > -4.0 for a, b, _ in spans)]))
    n_rows = len(data_idx)
    min_support = max(2, math.ceil(0.15 * n_rows)) if n_rows >= 3 else 1
    strong = [s for s in spans if s[2] >= min_support]
    # A numeric token left of every strong column belongs to its row label ("2.50% Notes due 2026").
    if not strong:
        return None
    # Labels end where the first column starts, or at its currency signs where they are set apart from the
    # digits; headings are matched to a column's extent with its signs ("$      1,234" under "December 31, 2023")
    heads = [list(s) for s in strong]
    for k in data_idx:
        for i in lines[k].nums():
            if i.lead is not None and (j := _assign(i, strong)) is not None and i.lead > heads[j][0] - 90:
                heads[j][0] = min(heads[j][0], i.lead)
    label_edge = min(h[0] for h in heads)
    # where the row labels end: a heading that starts left of the first column but right of every label is the
    # first column's, printed wider than its numbers ("Total Stores at / Beginning of / Second Quarter")
    labels_end = max((i.x1 for k in data_idx for i in lines[k].items if i.kind == "text" and i.x1 < label_edge),
                     default=label_edge - 12)
    first_row = first_data - 1 if _first_block_heading(lines, first_data, label_edge) else first_data
    columns = _column_heads(lines[:first_row], heads, label_edge - 12, min(label_edge - 12, labels_end + 6))
    if box is not None and not any(columns):
        columns = _headings_above(every, box, heads, label_edge) or columns
    rows: list[dict[str, Any]] = []
    pending_label: dict[str, Any] | None = None
    for ln in lines[first_row:]:
        label_parts: list[str] = []
        values: list[str | None] = [None] * len(strong)
        numbers: list[float | None] = [None] * len(strong)
        for it in ln.items:
            if it.kind == "text" or it.x1 <= label_edge - 1:
                if it.x1 <= label_edge + 2 or it.kind == "text":
                    label_parts.append(it.text)
                continue
            j = _assign(it, strong)
            if j is None:
                label_parts.append(it.text)
                continue
            if values[j] is None:
                values[j] = it.text
                numbers[j] = it.number if it.kind == "num" else None
        label = _clean_label(" ".join(label_parts))
        if _header_like(ln):
            if not label:
                continue
            if all(is_year(i.text) for i in ln.items if i.kind == "num"):
                # period headings repeated inside the table ("2022 2021 Change"): not values
                values, numbers = [None] * len(strong), [None] * len(strong)
        has_values = any(v is not None for v in values)
        # a label wrapped over two lines continues the one above in lower case (a heading's colon ends it: "Net
        # sales by category:" over "iPhone")
        wraps = pending_label is not None and label[:1].islower() and not pending_label["label"].endswith(":")
        if not has_values:
            if not label:
                continue
            if pending_label is not None and wraps:  # wrapped with no values yet
                pending_label["label"] += " " + label
                continue
            pending_label = {"label": label, "values": values, "numbers": numbers}
            rows.append(pending_label)
            continue
        if pending_label is not None and (not label or wraps):
            rows.remove(pending_label)
            label = (pending_label["label"] + " " + label).strip()
        pending_label = None
        rows.append({"label": label, "values": values, "numbers": numbers})
    if not any(any(v is not None for v in r["numbers"]) for r in rows):
        return None
    return {
        "title": title,
        "units": units,
        "scale": scale_of(units),
        "columns": columns,
        "rows": rows,
        "source": source,
    }


def _first_block_heading(lines: Sequence[Line], first_data: int, label_edge: float) -> bool:
    """Whether the line just above the first row with figures is the heading of the rows' first block, not a column
    heading ("Americas:" over its "Net sales" and "Operating income", under the dates): words only, all in the
    labels' column left of every figure, neither periods nor units, below a line of column headings."""
    if first_data < 2:
        return False
    ln = lines[first_data - 1]
    text = ln.text.strip()
    if _period_heading(ln, label_edge) and any(_period_heading(later, label_edge) for later in lines[first_data:]):
        return True  # "Three Months Ended October 30, 2022" over the rows, as the later blocks are headed by theirs
    return (bool(ln.items) and not ln.nums() and all(i.kind == "text" and i.x1 < label_edge - 1 for i in ln.items)
            and not _header_like(ln) and not _names_periods(ln) and not find_units(text)
            and not re.fullmatch(r"\(.*\)", text) and text[:1].isupper()
            and any(i.x0 >= label_edge - 12 for above in lines[:first_data - 1] for i in above.items))


def _period_heading(line: Line, label_edge: float) -> bool:
    """Whether a line names a period and nothing else, in the labels' column left of every figure: the heading of
    a block of rows in a table whose periods head blocks, not columns ("Three Months Ended October 31, 2021" over a
    segment note's "Revenue" and "Operating income" rows)."""
    return (any(i.kind == "text" for i in line.items) and all(i.x1 < label_edge - 1 for i in line.items)
            and _header_like(line))


def _column_heads(header_lines: Sequence[Line], heads: list[list[float]], start: float,
                  first_from: float | None = None) -> list[str]:
    """Each column's heading: the phrases of the lines above the first row that lie over its extent. Phrases that
    start left of ``start`` are the labels' own ("(in millions)", "Year Ended June 30,"), except, from
    ``first_from`` on, the first column's heading printed wider than its numbers: one of several headings on its
    line that ends before the second column's ("Total Number / of Shares / Purchased"). A heading line above
    another whose phrases each stand centred over a run of columns heads the whole run ("Fiscal 2024 | Fiscal
    2023" over four columns each; "Three Months Ended | Six Months Ended" over two dates each)."""
    columns_raw: list[list[str]] = [[] for _ in heads]
    first_from = start if first_from is None else first_from
    first_end = (heads[0][1] + heads[1][0]) / 2 if len(heads) > 1 else heads[0][1] + 12
    lines = []
    for ln in header_lines:
        phrases = _phrases(ln.items)
        lines.append([p for p in phrases if p.x0 >= start or (
            p.x0 >= first_from and p.x1 <= first_end and len(phrases) > 1)])
    for k, phrases in enumerate(lines):
        below = next((ln for ln in lines[k + 1:] if ln), None)
        groups = _groups(phrases, heads, below, [b for ln in lines[k + 1:] for b in ln]) if below else None
        for n, phrase in enumerate(phrases):
            if groups is not None:
                hits = groups[n]
            else:
                hits = [j for j, (a, b, _) in enumerate(heads) if min(b + 3, phrase.x1) - max(a - 3, phrase.x0) > 0]
            if not hits:
                j = _assign(phrase, heads, slack=10.0)
                hits = [j] if j is not None else []
            for j in hits:
                columns_raw[j].append(phrase.text)
    return [" ".join(parts).strip() for parts in columns_raw]


def _groups(phrases: Sequence[Item], heads: list[list[float]], below: Sequence[Item],
            under: Sequence[Item]) -> list[list[int]] | None:
    """The run of columns each phrase of a spanning heading line heads, or None where the line is not one: fewer
    phrases than columns, the columns shared out at the middle of the gaps between phrases, every phrase centred
    over its run (within a sixth of the run's width; one heading over a single column of several is not), a lone
    phrase naming a year or a month (a word centred over a whole table heads only the columns it covers), two
    heading phrases or more ``under`` each, and none of the next line's (``below``) centred under one of its
    phrases (that is one column's heading wrapped over two lines: "Weighted- / Average", "% CHANGE / EXCLUDING")."""
    if not phrases or len(phrases) >= len(heads):
        return None
    if len(phrases) == 1 and not any(is_year(w) or re.fullmatch(rf"(?:{_MONTHS})", w, re.I)
                                     for w in phrases[0].text.split()):
        return None  # one heading over all the columns is a period ("Year ended December 31, 2018"), not a word
    if any(abs((p.x0 + p.x1) / 2 - (b.x0 + b.x1) / 2) <= 0.25 * (p.x1 - p.x0) + 2 for p in phrases for b in below):
        return None
    cuts = [(a.x1 + b.x0) / 2 for a, b in zip(phrases, phrases[1:], strict=False)]
    out: list[list[int]] = []
    for n, phrase in enumerate(phrases):
        lo = cuts[n - 1] if n else -math.inf
        hi = cuts[n] if n < len(cuts) else math.inf
        run = [j for j, (a, b, _) in enumerate(heads) if lo <= (a + b) / 2 < hi]
        if not run or sum(1 for b in under if lo <= (b.x0 + b.x1) / 2 < hi) < 2:
            return None  # a heading over a run has the run's own headings below it, two at least
        left, right = heads[run[0]][0], heads[run[-1]][1]
        if abs((phrase.x0 + phrase.x1) / 2 - (left + right) / 2) > 0.15 * (right - left) + 6:
            return None
        out.append(run)
    return out if any(len(run) > 1 for run in out) else None


HEADINGS_ABOVE = 40.0
"""How far above a table's box (PDF points, about three lines) its column headings are looked for when none are
inside it: a layout box that starts at the first row leaves "December 2, / 2022" printed just above it."""


def _headings_above(words: Sequence[Word], box: Box, heads: list[list[float]], label_edge: float) -> list[str] | None:
    """The column headings printed just above ``box``: the lines nearest it, upwards, while they are headings only
    (``_names_periods``: period words, years, a month's day); None when they name no year or month."""
    x1, y0 = box[2], box[1]
    band = [w for w in words if y0 - HEADINGS_ABOVE <= (w[1] + w[3]) / 2 < y0
            and (w[0] + w[2]) / 2 >= label_edge - 12 and w[0] <= x1 + 24]
    lines = [Line(min(w[1] for w in ws), max(w[3] for w in ws), _items(ws))
             for ws in group_lines(band, TABLE_LINE_OVERLAP)]
    taken: list[Line] = []
    for ln in sorted(lines, key=lambda ln: -ln.top):
        # outside the box a line must be headings only: periods, with no word of a sentence ("International segment
        # stores at the end of fiscal 2017:" names a year and is the table's lead-in)
        if not _names_periods(ln):
            break
        taken.insert(0, ln)
    columns = _column_heads(taken, heads, label_edge - 12)
    named = any(is_year(w) or re.fullmatch(rf"(?:{_MONTHS})", w, re.I) for c in columns for w in c.split())
    return columns if named else None  # a year or a month: not a contents page's numbers ("1 11 24 25")


def _names_periods(line: Line) -> bool:
    """Whether a line is headings only: period words and years, or a month's day ("December 2,")."""
    return bool(line.items) and all(
        _PERIOD_WORD.match(i.text) or is_year(i.text) or re.fullmatch(r"(?:[1-9]|[12]\d|3[01]),?", i.text)
        for i in line.items)


def _phrases(items: list[Item]) -> list[Item]:
    """Adjacent items of a header line joined into phrases (a small gap joins words, a wide one splits)."""
    out: list[Item] = []
    for it in items:
        if out and it.x0 - out[-1].x1 < 4.5 and not (is_year(it.text) and is_year(out[-1].text)):
            prev = out[-1]
            out[-1] = Item(prev.x0, it.x1, prev.top, max(prev.bottom, it.bottom), f"{prev.text} {it.text}", "text")
        else:
            out.append(Item(it.x0, it.x1, it.top, it.bottom, it.text, "text"))
    return out


def _clean_label(label: str) -> str:
    label = re.sub(r"\s+", " ", label).strip()
    label = re.sub(r"[\s.]{3,}$", "", label)  # dot leaders
    return label.strip(" .:") if label.endswith("...") else label


def table_numbers(table: dict[str, Any] | None) -> list[float]:
    """Every number in a table's cells."""
    if not table:
        return []
    out: list[float] = []
    for row in table.get("rows", []):
        if not isinstance(row, dict):
            continue
        nums = row.get("numbers")
        if nums is None:
            nums = [parse_cell(str(v)) if v is not None else None for v in row.get("values", [])]
        out.extend(float(n) for n in nums if isinstance(n, int | float))
    return out


def numeric_grid_blocks(words: Sequence[Word], page_width: float, min_rows: int = 3) -> list[Box]:
    """Unruled tables found from words alone: runs of lines with aligned numeric columns.

    Used as the geometric cross-check of a detector and as the table finder on pages without one (and on
    scanned pages, from OCR words). Prose with numbers is rejected because its numbers sit between words.
    """
    glines = group_lines(words, TABLE_LINE_OVERLAP)
    lines = [Line(min(w[1] for w in ws), max(w[3] for w in ws), _items(ws)) for ws in glines]
    flags: list[bool] = []
    for ln in lines:
        nums = [i for i in ln.items if i.kind in {"num", "empty"}]
        ok = False
        if len(nums) >= 2 or (len(nums) == 1 and nums[0].x0 > page_width * 0.45):
            first = min(i.x0 for i in nums)
            text_after = [i for i in ln.items if i.kind == "text" and i.x0 > first and len(i.text) > 2]
            # text columns between the numbers ("$ 2,277  Other current assets  $ 74  Other liabilities  $ 12")
            # are runs of words each followed by a number; prose keeps its numbers among its words
            after = {id(i) for i in text_after}
            runs = sum(1 for k, i in enumerate(ln.items) if id(i) in after and ln.items[k - 1].kind != "text")
            ok = len(text_after) <= 1 or sum(not is_year(i.text) for i in nums) > runs
        flags.append(ok)
    blocks: list[tuple[int, int]] = []
    start = None
    gap = end = 0
    heights = sorted(ln.bottom - ln.top for ln in lines)
    far = max(72.0, 6 * heights[len(heights) // 2]) if heights else 72.0
    for k, ok in enumerate(flags):
        if ok:
            if start is not None and lines[k].top - lines[end].bottom > far:
                blocks.append((start, end))  # a numeric line far above (a page number) is not this table's row
                start = None
            if start is None:
                start = k
            gap = 0
            end = k
        elif start is not None:
            gap += 1
            if gap > 3:
                blocks.append((start, end))
                start, gap = None, 0
    if start is not None:
        blocks.append((start, end))
    out: list[Box] = []
    for a, b in blocks:
        data = [lines[k] for k in range(a, b + 1) if flags[k]]
        if len(data) < min_rows:
            continue
        spans = _cluster([(i.x0, i.x1) for ln in data for i in ln.items if i.kind in {"num", "empty"}])
        strong = [s for s in spans if s[2] >= max(2, 0.3 * len(data))]
        if len(strong) < 1 or (len(strong) == 1 and len(data) < 5):
            continue
        k0 = a
        # take the header lines (periods) and a label line or two just above the first numeric row
        for k in range(a - 1, max(-1, a - 5), -1):
            if lines[k + 1].top - lines[k].bottom > 18:
                break
            if _header_like(lines[k]) or not lines[k].nums():
                k0 = k
            else:
                break
        seg = [w for k in range(k0, b + 1) for w in glines[k]]
        out.append((min(w[0] for w in seg), min(w[1] for w in seg), max(w[2] for w in seg), max(w[3] for w in seg)))
    return out


# --- descriptions --------------------------------------------------------------------------------------


def describe_table(table: dict[str, Any], title: str = "", units: str = "", max_rows: int = 6) -> str:
    """A deterministic description from the structure: title, units, periods, first rows with a value."""
    title = title or str(table.get("title") or "")
    units = units or str(table.get("units") or "")
    cols = [c for c in table.get("columns", []) if c]
    rows = [r for r in table.get("rows", []) if isinstance(r, dict) and r.get("label")]
    parts = [f"Table: {title}" if title else "Table"]
    if units:
        parts[0] += f" ({units})"
    if cols:
        parts.append("Columns: " + ", ".join(cols[:8]) + ".")
    shown = []
    for r in rows:
        vals = [v for v in r.get("values", []) if v]
        if not vals:
            continue
        cells = ", ".join(
            f"{c}: {v}" if c else str(v)
            for c, v in zip(cols or [""] * len(vals), r.get("values", []), strict=False)
            if v
        )
        shown.append(f"{r['label']}: {cells}")
        if len(shown) >= max_rows:
            break
    if shown:
        parts.append("Rows: " + "; ".join(shown) + ".")
    n = len(rows)
    if n > len(shown):
        parts.append(f"{n} rows in all.")
    return " ".join(parts)[:1500]


def table_markdown(table: dict[str, Any], max_rows: int = 60) -> str:
    """The table as a compact markdown grid (for prompts and previews)."""
    cols = table.get("columns") or []
    rows = table.get("rows") or []
    width = max([len(cols)] + [len(r.get("values", [])) for r in rows if isinstance(r, dict)])
    head = ["", *[(cols[i] if i < len(cols) else "") for i in range(width)]]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * (width + 1)]
    for r in rows[:max_rows]:
        if not isinstance(r, dict):
            continue
        vals = [str(v) if v is not None else "" for v in r.get("values", [])]
        vals += [""] * (width - len(vals))
        out.append("| " + " | ".join([str(r.get("label", "")), *vals]) + " |")
    return "\n".join(out)


# --- checking a vision model's table against the text layer ----------------------------------------------


def check_table_numbers(
    model_table: dict[str, Any], reference: Sequence[float], tol: float = 0.0005
) -> list[dict[str, Any]]:
    """Numbers in the model's JSON that the text layer does not show (sign-insensitive, rounding tolerant)."""
    ref = [abs(x) for x in reference]
    out: list[dict[str, Any]] = []
    for row in model_table.get("rows", []):
        if not isinstance(row, dict):
            continue
        for v in row.get("values", []) or []:
            n = v if isinstance(v, int | float) else parse_cell(str(v)) if v is not None else None
            if n is None:
                continue
            a = abs(float(n))
            if not any(abs(a - r) <= max(tol * max(a, r), 0.0051) for r in ref):
                out.append({"check": "number_not_in_text_layer", "label": str(row.get("label", "")), "value": v})
    return out


def normalise_model_table(obj: Any) -> dict[str, Any] | None:
    """A vision model's JSON table coerced to {"title", "units", "columns", "rows": [{label, values, numbers}]}."""
    if not isinstance(obj, dict):
        return None
    rows_in = obj.get("rows")
    if not isinstance(rows_in, list):
        return None
    cols = obj.get("columns") or obj.get("header") or obj.get("headers") or []
    if not isinstance(cols, list):
        cols = []
    rows: list[dict[str, Any]] = []
    for r in rows_in:
        if isinstance(r, dict):
            label = str(r.get("label", r.get("name", "")))
            vals = r.get("values", r.get("cells", []))
        elif isinstance(r, list) and r:
            label, vals = str(r[0]), r[1:]
        else:
            continue
        if not isinstance(vals, list):
            vals = [vals]
        values = [None if v is None else str(v) for v in vals]
        numbers = [
            float(v)
            if isinstance(v, int | float) and not isinstance(v, bool)
            else parse_cell(str(v))
            if v is not None
            else None
            for v in vals
        ]
        rows.append({"label": label, "values": values, "numbers": numbers})
    units = str(obj.get("units", "") or "")
    return {
        "title": str(obj.get("title", "") or ""),
        "units": units,
        "scale": scale_of(units),
        "columns": [str(c) for c in cols],
        "rows": rows,
        "source": "vlm",
    }

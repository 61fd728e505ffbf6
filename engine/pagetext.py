"""A page's text layer: words with positions (``Word``) grouped into visual lines (``PageText``).

The text stage and OCR make it (engine/ingest/pdftext.py, engine/ingest/ocr_pages.py), the catalogue stores and
rebuilds it (engine/library/store.py), and the stages share its line grouping."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.periods import period_heading
from engine.sentences import ABBREVIATIONS

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
    """Indexes into ``words``, one list per visual line, in reading order (``text_lines``): top to bottom, a
    two-column block's left column before its right."""
    error: str = ""

    @property
    def has_text(self) -> bool:
        return len(self.words) >= 3

    @property
    def text(self) -> str:
        return "\n".join(" ".join(self.words[i][4] for i in line) for line in self.lines)

    @classmethod
    def from_row(cls, r: dict[str, Any]) -> PageText:
        """A page back from its catalogue row (``to_row``'s form, ``words`` decoded): its words and their lines."""
        words = [(float(w[0]), float(w[1]), float(w[2]), float(w[3]), str(w[4])) for w in r.get("words", [])]
        return cls(page=r["page"], width=r["width"], height=r["height"], words=words, lines=text_lines(words))

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


GUTTER_HALF = 4.0
"""Half the width (points) of the empty band a gutter between two columns of text leaves on every line it splits."""
COLUMN_SHARE = 0.6
"""A line's piece on one side of a gutter fills at least this share of its column's width in running text."""
WORD_GAP = 12.0
"""The widest space (points) between two words of one column's line of running text; a row of a table of text
(a signature block, an exhibit list, a list of properties) leaves wider ones between its cells."""
BALANCE = 0.6
"""The narrower of two columns of running text is at least this share of the wider's width (a table's narrow
label column beside its descriptions is no page column)."""
MIN_SPLIT_LINES = 5
"""Lines of running text a gutter must split, on both of its sides, to make columns of a page."""
_LETTERS = 2
"""Words with letters each side of a gutter needs on a line it splits (a table's numbers are not running text)."""


def _texty(ws: Sequence[Word]) -> bool:
    return sum(1 for w in ws if any(ch.isalpha() for ch in w[4])) >= _LETTERS


def _running(ws: Sequence[Word], start: float, end: float) -> bool:
    """Whether words (left to right) are a line of running text in the column from ``start`` to ``end``: letters,
    no space wider than ``WORD_GAP``, the column's width filled to ``COLUMN_SHARE``."""
    return (_texty(ws) and all(b[0] - a[2] < WORD_GAP for a, b in zip(ws, ws[1:], strict=False))
            and ws[-1][2] - ws[0][0] >= COLUMN_SHARE * (end - start))


def _bridges(ws: Sequence[Word], x: float, left: float, right: float) -> bool:
    """Whether a line (words left to right) that leaves ``x`` empty bridges it with running text on both sides, in
    columns from ``left`` to ``x`` and from ``x`` to ``right``."""
    a = [w for w in ws if w[2] <= x]
    b = [w for w in ws if w[0] >= x]
    return bool(a and b and _running(a, left, x) and _running(b, x, right))


def _gutter(rows: Sequence[Sequence[Word]], lo: float, hi: float) -> float | None:
    """The x of the gap between two columns of running text within [lo, hi], if the lines (``rows``, each left to
    right) have one: an empty band (``GUTTER_HALF`` each side) that at least ``MIN_SPLIT_LINES`` lines bridge with
    running text on both sides (``_running``), more than any word crosses, the two columns of comparable width
    (``BALANCE``)."""
    if len(rows) < MIN_SPLIT_LINES or hi - lo < 4 * GUTTER_HALF:
        return None
    left = min(ws[0][0] for ws in rows)
    right = max(ws[-1][2] for ws in rows)
    best: tuple[int, float] | None = None
    for x in _steps(lo, hi):
        if min(x - left, right - x) >= BALANCE * max(x - left, right - x):
            split = crossed = 0
            for ws in rows:
                if _in_band(ws, x):
                    crossed += _crosses(ws, x)
                    continue
                split += _bridges(ws, x, left, right)
            if split >= MIN_SPLIT_LINES and split > crossed and (best is None or split > best[0]):
                best = (split, x)
    return None if best is None else best[1]


def _steps(lo: float, hi: float) -> list[float]:
    """The x a gutter is looked for at: every 2 points from ``lo`` to ``hi``."""
    out: list[float] = []
    x = lo
    while x <= hi:
        out.append(x)
        x += 2.0
    return out


def _in_band(ws: Sequence[Word], x: float) -> bool:
    """Whether a word of a line reaches into the band a gutter at ``x`` leaves empty (``GUTTER_HALF`` each side)."""
    return any(w[0] < x + GUTTER_HALF and w[2] > x - GUTTER_HALF for w in ws)


def _crosses(ws: Sequence[Word], x: float) -> bool:
    """Whether a word of a line runs across ``x``."""
    return any(w[0] < x < w[2] for w in ws)


def _ends_in_word(ws: Sequence[Word]) -> bool:
    """Whether a line (words left to right) ends in a word, not a figure."""
    return any(ch.isalpha() for ch in ws[-1][4])


def _notes_right(x: float, left: float, right: float) -> bool:
    """Whether ``x`` leaves the narrow side (the side notes') on its right."""
    return right - x < x - left


SIDE_SHARE = (0.1, 0.35)
"""The share of a block's width a column of side notes takes (an annual report's margin notes beside two columns
of running text): narrower than a page column, too narrow to balance the rest (``BALANCE``)."""
SIDE_RUN = 0.3
"""The share of the rest's width a run of running text beside a side note spans on the lines that bridge the gutter
(a column of the main text; a table's label or a signature's name is shorter)."""


def _long_run(ws: Sequence[Word], width: float, first: bool) -> bool:
    """Whether the run of running text (word spaces under ``WORD_GAP``, letters) nearest the gutter (the ``first``
    of the words, left to right, else the last) spans ``SIDE_RUN`` of ``width``: the text beside a side note runs up
    to it (a table beside a column of text has its figures there)."""
    runs: list[list[Word]] = [[ws[0]]]
    for a, b in zip(ws, ws[1:], strict=False):
        if b[0] - a[2] >= WORD_GAP:
            runs.append([])
        runs[-1].append(b)
    run = runs[0] if first else runs[-1]
    return _texty(run) and run[-1][2] - run[0][0] >= SIDE_RUN * width


def _side_bridges(ws: Sequence[Word], x: float, left: float, right: float) -> bool:
    """Whether a line that leaves ``x`` empty has a side note's running text on its narrow side of ``x`` and a long
    run of running text (``_long_run``) on the other."""
    a = [w for w in ws if w[2] <= x]
    b = [w for w in ws if w[0] >= x]
    if not a or not b:
        return False
    if _notes_right(x, left, right):
        return _prose(b, x, right) and _long_run(a, x - left, first=False)
    return _prose(a, left, x) and _long_run(b, right - x, first=True)


def _prose(ws: Sequence[Word], start: float, end: float) -> bool:
    """Whether a side note's line is running text (``_running``) that ends in a word (a table's row, label and
    figure, ends in its figure)."""
    return _running(ws, start, end) and _ends_in_word(ws)


def _side_gutter(rows: Sequence[Sequence[Word]], left: float, right: float) -> float | None:
    """The x of the gap before a column of side notes at either edge (``SIDE_SHARE`` of the width), if at least
    ``MIN_SPLIT_LINES`` lines bridge it (``_side_bridges``), at most ``MIN_BLOCK`` lines cross it (a margin is
    crossed by the running head and foot at most; a table's label column by its headings), the notes set in smaller
    type (``_smaller_type``: a table of text, names beside positions, is set in one size), and lines of the notes
    standing alone (``MIN_BLOCK``: their baselines are their own)."""
    span = right - left
    if len(rows) < MIN_SPLIT_LINES or span <= 0:
        return None
    best: tuple[int, float] | None = None
    lo, hi = SIDE_SHARE
    for x in (*_steps(left + lo * span, left + hi * span), *_steps(right - hi * span, right - lo * span)):
        split = crossed = alone = 0
        for ws in rows:
            if _in_band(ws, x):
                crossed += _crosses(ws, x)
                if crossed > MIN_BLOCK:
                    break  # no margin: a column of text (most pages' only one) runs across it
                continue
            split += _side_bridges(ws, x, left, right)
            alone += (_texty(ws) and _ends_in_word(ws)
                      and (ws[0][0] >= x if _notes_right(x, left, right) else ws[-1][2] <= x))
        if (split >= MIN_SPLIT_LINES and alone >= MIN_BLOCK and crossed <= MIN_BLOCK
                and _smaller_type(rows, x, left, right) and (best is None or split > best[0])):
            best = (split, x)
    return None if best is None else best[1]


NOTE_TYPE = 0.85
"""The most a side note's median word height is of the text beside it: notes are set smaller (a table of text, names
beside positions, is set in one size)."""


def _smaller_type(rows: Sequence[Sequence[Word]], x: float, left: float, right: float) -> bool:
    """Whether the words on the narrow side of ``x`` are set smaller (``NOTE_TYPE``) than those on the other."""
    narrow_right = _notes_right(x, left, right)
    narrow = sorted(w[3] - w[1] for ws in rows for w in ws if (w[0] >= x if narrow_right else w[2] <= x))
    wide = sorted(w[3] - w[1] for ws in rows for w in ws if (w[2] <= x if narrow_right else w[0] >= x))
    return bool(narrow and wide) and narrow[len(narrow) // 2] <= NOTE_TYPE * wide[len(wide) // 2]


MAX_COLUMNS_DEPTH = 2
"""A column found may itself hold two (a page of three columns: two of text and one of margin notes)."""
MIN_BLOCK = 2
"""Lines of running text split by the gutter a block between two lines across it needs to be read as columns (a
line of a single-column paragraph whose word spaces happen to leave the gutter empty is no column)."""


def reading_order(words: Sequence[Word], lines: Sequence[Sequence[int]],
                  depth: int = MAX_COLUMNS_DEPTH) -> list[list[int]]:
    """Visual lines (``line_groups``) in reading order: a page set in columns of running text (an annual report, a
    proxy statement, a bank's 10-K) is read down its left column, then down its right, instead of across both
    ("Provision for credit losses was $1.14 billion for 2023, Balance Sheet Planning. We prepare ..."). The lines
    between two that cross the gutter (a heading, a table or a paragraph across the page) are one block; a block
    with ``MIN_BLOCK`` lines of running text split by the gutter, or ``MIN_SPLIT_LINES`` lines on each side of it
    (columns whose baselines differ), is read left side first, each side read again for a gutter of its own
    (``depth``); any other block, and a line across the gutter, stays as it is. Lines without such a gutter stay
    as they are."""
    own = [list(line) for line in lines if line]
    if depth <= 0 or len(own) < MIN_SPLIT_LINES:
        return own
    rows = [sorted((words[i] for i in line), key=lambda w: w[0]) for line in own]
    left = min(ws[0][0] for ws in rows)
    right = max(ws[-1][2] for ws in rows)
    span = right - left
    x = _gutter(rows, left + 0.25 * span, right - 0.25 * span)
    bridges = _bridges
    if x is None:
        x, bridges = _side_gutter(rows, left, right), _side_bridges
    if x is None:
        return own
    out: list[list[int]] = []
    block: list[tuple[list[int], list[int]]] = []  # each line's pieces left and right of the gutter
    running = 0

    def close() -> None:
        nonlocal running
        a = [pa for pa, _ in block if pa]
        b = [pb for _, pb in block if pb]
        if running >= MIN_BLOCK or min(len(a), len(b)) >= MIN_SPLIT_LINES:
            out.extend(reading_order(words, a, depth - 1))
            out.extend(reading_order(words, b, depth - 1))
        else:
            out.extend(sorted(pa + pb, key=lambda i: words[i][0]) for pa, pb in block)
        block.clear()
        running = 0

    for line, ws in zip(own, rows, strict=True):
        if _crosses(ws, x):
            close()
            out.append(line)
            continue
        pa = [i for i in line if words[i][2] <= x]
        pb = [i for i in line if words[i][0] >= x]
        block.append((pa, pb))
        running += bridges(ws, x, left, right)
    close()
    return out


INITIAL_HEIGHT = 3.0
"""How many times the page's median word height a drop cap (a paragraph's enlarged first letter, "T" of "The") is
at least: it spans several lines of the paragraph and, grouped by overlap, would join them into one."""
INITIAL_CHARS = 2
"""The most characters a drop cap has ("T", "In")."""
INITIAL_GAP = 20.0
"""The widest space (points) between a drop cap and the first word of the line it begins."""


def _initials(words: Sequence[Word]) -> dict[int, list[int]]:
    """Drop caps and the words right of them on their first line: a word of at most ``INITIAL_CHARS`` letters,
    ``INITIAL_HEIGHT`` times the median height, with words of ordinary height starting within ``INITIAL_GAP``
    right of it inside its height (a heading's large words have no such neighbours)."""
    if len(words) < MIN_SPLIT_LINES:
        return {}
    heights = sorted(w[3] - w[1] for w in words)
    median = heights[len(heights) // 2]
    out: dict[int, list[int]] = {}
    for i, (_, top, x1, bottom, text) in enumerate(words):
        if len(text) > INITIAL_CHARS or not text.isalpha() or bottom - top < INITIAL_HEIGHT * median:
            continue
        beside = [j for j, w in enumerate(words) if j != i and w[3] - w[1] < INITIAL_HEIGHT * median
                  and x1 - 2.0 <= w[0] <= x1 + INITIAL_GAP and top - 2.0 <= w[1] and w[3] <= bottom + 2.0]
        if beside:
            out[i] = beside
    return out


def text_lines(words: Sequence[Word]) -> list[list[int]]:
    """A page's lines of text as ``PageText.lines`` holds them: grouped (``line_groups``), in reading order (the
    columns are found from the words' own extent). A drop cap is set aside while the lines are grouped (its height
    would join the lines it spans) and begins the topmost line right of it."""
    initials = _initials(words)
    if not initials:
        return reading_order(words, line_groups(words))
    rest = [i for i in range(len(words)) if i not in initials]
    lines = [[rest[j] for j in line] for line in line_groups([words[i] for i in rest])]
    for i, beside in initials.items():
        first = min(beside, key=lambda j: words[j][1])
        line = next(line for line in lines if first in line)
        line.insert(0, i)
    return reading_order(words, lines)


HEADING_WORDS = 10
"""The most words a section heading's line holds ("Walmart International Segment", "Missiles and Fire Control")."""
HEADING_INSIDE = 40.0
"""Points below a passage's top within which a heading of its own first lines heads it ("Table of Contents" link,
then "Europe, Middle East & Africa", then the section's text, all one passage)."""
HEADING_MARGIN = 0.04
"""The share of a page's height at its top and at its bottom where running heads and footers sit, not headings."""
LOWER_IN_TITLES = frozenset({"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to",
                             "vs", "vs.", "with", "&", "-", "\u2013", "\u2014"})
"""Words a title leaves lower case ("Results of Operations", "Missiles and Fire Control")."""
NOT_LAST = LOWER_IN_TITLES | {"our", "its", "their", "your"}
"""Words no title ends with: a heading set over two lines ("Risks Related to Our / Business"), a lead-in to a list
("Revenues by:")."""
_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*$|,$")
_FIGURE = re.compile(r"^[(\-$\u20ac\u00a3]*\d[\d.,]*%?\)?$")
_YEAR_WORD = re.compile(r"^(?:19|20)\d{2}[,:]?$")
_FOLIO = re.compile(r"^(?:table of contents|index|page \d+|\d+|[ivxlc]+)$", re.I)


def _ends_sentence(token: str) -> bool:
    """Whether a line's last word ends a sentence (or a clause: a comma), an abbreviation's stop aside ("U.S.")."""
    low = token.lower()
    return bool(_SENTENCE_END.search(token)) and low not in ABBREVIATIONS and not re.fullmatch(
        r"(?:[a-z]\.){1,3}", low)


def _titled(ws: Sequence[Word]) -> bool:
    """Whether a line's words read as a title: letters in some, no figure but a year, and every word capitalised
    (or all capitals) but the few a title leaves lower case."""
    texts = [w[4] for w in ws]
    if not 1 <= len(texts) <= HEADING_WORDS or sum(ch.isalpha() for t in texts for ch in t) < 3:
        return False
    for t in texts:
        core = t.strip("\"'\u201c\u201d\u2018\u2019()[]:;")
        if not core or core.lower() in LOWER_IN_TITLES or _YEAR_WORD.match(core):
            continue
        if _FIGURE.match(core) or not (core[0].isupper() or core[0].isdigit()):
            return False
    return not _FOLIO.match(" ".join(texts))


def section_headings(page: PageText) -> list[tuple[float, float, float, str]]:
    """The section headings of a page, in reading order, each with its line's top, left and right: lines of a title's
    words (``_titled``: "Walmart U.S. Segment", "Gross Profit Rate", "Liquidity and Capital Resources"; or one year
    compared with another in any case, "Fiscal year 2015 compared with fiscal year 2014", or a span's section,
    "Year-to-date results": ``periods.period_heading``) that stand
    alone, after a line that ends a sentence (or a gap of a line's height, or none) and before one that starts with a
    capital (or a gap, or none), outside the page's running head and footer (``HEADING_MARGIN``). A filing's
    sentences are told under them: a section's sentence that names no segment is about the segment its heading names.
    """
    rows = [[page.words[i] for i in line] for line in page.lines]
    rows = [ws for ws in rows if ws]
    out: list[tuple[float, float, float, str]] = []
    for k, ws in enumerate(rows):
        top = min(w[1] for w in ws)
        bottom = max(w[3] for w in ws)
        if top < HEADING_MARGIN * page.height or bottom > (1 - HEADING_MARGIN) * page.height:
            continue
        period = period_heading(" ".join(w[4] for w in ws))  # "Fiscal year 2015 compared with fiscal year 2014"
        if not (_titled(ws) or period) or _ends_sentence(ws[-1][4]) or ws[-1][4].lower().rstrip(":") in NOT_LAST:
            continue  # not a title, or one going on past its line ("Asia Pacific, Australia and New Zealand and")
        if any(b[0] - a[2] >= WORD_GAP for a, b in zip(ws, ws[1:], strict=False)):
            continue  # a table's column headings: wide gaps between them
        height = max(1.0, bottom - top)
        if k > 0:
            prev = rows[k - 1]
            gap = top - max(w[3] for w in prev)
            last = prev[-1][4]
            if gap < height and not (_ends_sentence(last) or _FIGURE.match(last) or last.endswith(":")) and not (
                    out and out[-1][0] == min(w[1] for w in prev)):
                continue  # a title-like run inside a paragraph
        if k + 1 < len(rows):
            nxt = rows[k + 1]
            gap = min(w[1] for w in nxt) - bottom
            first = nxt[0][4].lstrip("\"'\u201c(\u2022")
            if gap < height and first and not (first[0].isupper() or first[0].isdigit() or first[0] in "$%(\u2022"):
                continue  # a sentence going on after a title-like line (not a table's header: "% CHANGE", "(Dollars")
        out.append((top, ws[0][0], ws[-1][2], " ".join(w[4] for w in ws).strip().rstrip(":").strip()))
    return out


def headings_above(pages: Sequence[PageText], box: tuple[float, float, float, float], most: int = 3
                   ) -> tuple[str, ...]:
    """The section headings a passage in ``box`` on the last of ``pages`` is told under, nearest first (at most
    ``most``): the page's headings above it in its column, or in its first lines (``HEADING_INSIDE``; a heading over
    the other column of a two-column page is not its), then the earlier pages' from their ends; and after them the
    nearest period heading further up (``periods.period_heading``: "Fiscal year 2015 compared with fiscal year
    2014" over its segments' headings), which dates the passage."""
    found: list[str] = []
    for k, page in enumerate(reversed(pages)):
        heads = section_headings(page)
        if k == 0:
            heads = [h for h in heads if h[0] < box[1] + HEADING_INSIDE and h[1] < box[2] and h[2] > box[0]]
        found += [text for *_, text in reversed(heads)]
    out = found[:most]
    if not any(period_heading(h) for h in out):
        out += next(([h] for h in found[most:] if period_heading(h)), [])
    return tuple(out)

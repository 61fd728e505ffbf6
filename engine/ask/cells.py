"""Cell resolution: the question's measure (row) and period (column) found in the candidate tables.

A question asks for a line item ("net sales", "capex", a ratio's terms) in a period ("fiscal 2022", "Q2
FY2023", "as of December 31, 2021"). Retrieval brings the right pages; this module picks the cells: the row
whose label names the measure (through the vocabulary's line items, or the question's own words for a line
item the vocabulary does not know), and the column whose header is the period asked, read with the filing's
fiscal calendar ("fiscal 2022" may be the 52 weeks ended January 28, 2023; a "13 Weeks Ended" column is a
quarter, not the year). Each cell keeps its full row and column headers, the table's scale and units, its
page and region, so answers, computed metrics and number checks all speak about the same cells.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.ask.formulas import Lookup, Term, as_spent
from engine.ask.question import Intent, Measure, Question, measure_of, phrase
from engine.ask.question import phrase as phrase_of
from engine.ask.statements import statement_of, stems
from engine.library.lexical import STOPWORDS
from engine.numbers import Quantity, same_number, show
from engine.periods import PERIOD_WORDS, Asked, Calendar, Period, column_period, matches, what_it_is
from engine.types import Evidence, Region
from engine.vocabulary import item as named_item
from engine.vocabulary import label_score

ROW_MIN = 0.75
"""A row label must fit the measure at least this well to be resolved."""
CONFIDENT_ROW = 0.9
"""Row fit above which (with an exact period) the resolver is confident enough to show the cell at once."""
_ONE_SEGMENT = re.compile(r"\b(?!(?i:by|our|the|each|one|reportable|operating|business|total|other)\b)"
                          r"([A-Z][a-z]+)\s+[Ss]egment\b(?!s| information| data| reporting)")
_PER_SHARE = re.compile(r"per (?:common )?share|\beps\b|\bdiluted\b|\bbasic\b|%|\bpercent|\bratios?\b|\bmargins?\b",
                        re.I)
_MARK = re.compile(r"\s*(?:\((?:[a-z]|[ivx]{1,4}|\d{1,2})\)|\[\d{1,2}\]|\*+|"
                   r"\((?:see\s+)?notes?\s+\d{1,2}(?:\s*(?:,|and|&)\s*\d{1,2})*\))\s*$", re.I)
"""A footnote mark or a note reference at a row label's end: "(a)", "(1)", "(iv)", "[2]", "*", "(Notes 1 and 2)",
"(Note 4)"."""
_SHARE_OF = re.compile(r"(?<!\w)(?:as\s+a\s+)?(?:percent(?:age)?|%)\s+(?:of|to)\b|\bshare\s+of\b", re.I)
"""A row label that is a ratio of a line item, not the item ("As a percent of revenue", "% of net sales")."""
_CHANGE_COL = re.compile(r"%|change|\bvs\.?\b|versus|variance|increase|decrease", re.I)


TITLE_WORDS = 8
"""A heading line of more words than this is a sentence about the table, not its title."""


@dataclass
class TableSource:
    """A table offered to the resolver: its source number in the prompt, its parsed cells and where it is."""

    marker: int
    table: dict[str, Any]
    doc: str = ""
    page: int = 0
    region_id: int | None = None
    heading: str = ""
    """The page heading and title above the table (the statement's name, "Years ended December 31")."""
    calendar: Calendar | None = None
    """The fiscal calendar of the filing the table is in."""

    @classmethod
    def of(cls, marker: int, evidence: Evidence, region: Region, calendar: Calendar | None = None) -> TableSource:
        """A retrieved table: its index text starts with the page heading and title."""
        head = " ".join(evidence.text.split("\n", 3)[:3])
        return cls(marker, region.table or {}, evidence.doc, evidence.page, region.id,
                   " ".join([head, region.title, region.units]), calendar)

    @property
    def context(self) -> str:
        """What the table says about its periods and units outside the column headers."""
        return " ".join([self.heading, str(self.table.get("title", "")), str(self.table.get("units", ""))])

    @property
    def titles(self) -> str:
        """What names the table: the heading's short lines ("International", "Segment Information") and the table's
        title, not a paragraph about it ("The International segment primarily consists of amounts earned from retail
        sales ... through internationally-focused online stores" names no part called "online retail services")."""
        lines = [x for x in re.split(r"\s+/\s+|\n", self.heading) if 0 < len(x.split()) <= TITLE_WORDS]
        return " ".join([*lines, str(self.table.get("title", ""))])

    @property
    def common_size(self) -> bool:
        """Whether every figure of the table is a percent of one line: its heading says so ("... expressed as a
        percentage of revenue") and one row is 100 in every column (the line the others are percents of). Filers
        print the % sign on that row only."""
        if not _PERCENT_OF.search(self.context):
            return False
        return any((nums := [x for x in (row.get("numbers") or []) if isinstance(x, int | float)])
                   and all(abs(x - 100.0) < 1e-9 for x in nums)
                   for row in self.table.get("rows", []) if isinstance(row, dict))

    @property
    def statement(self) -> str:
        """The primary statement the table is, or ''."""
        return statement_of(self.heading + " " + str(self.table.get("title", ""))) or ""

    @property
    def segment(self) -> str:
        """The one segment a table reports ("International Segment" -> "international"), or '' (a consolidated
        table, or one that lists every segment: "Segment information", "by segment")."""
        m = _ONE_SEGMENT.search(self.heading + " " + str(self.table.get("title", "")))
        return m.group(1).lower() if m else ""

    def other_segment(self, words: frozenset[str]) -> bool:
        """Whether the table reports one segment that the question (its lower-case ``words``) does not name
        (figures of a part of the company, where the question asks about all of it)."""
        seg = self.segment
        return bool(seg) and seg not in words


def one_segment_tables(sources: Sequence[TableSource], words: frozenset[str]) -> set[int]:
    """The source numbers of tables that report one segment the question (its ``words``) does not name: ranked
    after the others when row and period fit tie."""
    return {s.marker for s in sources if s.other_segment(words)}


def words_of(text: str) -> frozenset[str]:
    """Lower-case words of a phrase (what ``one_segment_tables`` compares a table's segment with)."""
    return frozenset(re.findall(r"[a-z0-9&]+", text.lower()))


@dataclass
class Cell:
    """One resolved table cell, with everything needed to show and check it."""

    marker: int
    doc: str
    page: int
    region_id: int | None
    row: str
    """The row label as printed."""
    column: str
    """The column header as the table parser joined it."""
    raw: str
    """The cell as printed (``$ 10,208.6``, ``(431)``)."""
    value: float
    """The number as printed, sign applied, table scale not applied."""
    scale: float
    """The table's scale (1e6 for "in millions"); 1 for per-share amounts and percents."""
    percent: bool
    period: Period | None
    item: str
    """What the question called it (the vocabulary's canonical name, or the question's words)."""
    row_fit: float
    period_fit: float
    part: str = ""
    """The part of the company the row reports, as the table names it, when the question asks for one ("iPhone®"
    for "revenue from iPhone sales"; "AWS" for a "Net sales" row under an "AWS" heading)."""

    @property
    def label(self) -> str:
        """The row as a reader needs it: with the part it belongs to when the row label alone does not say it
        ("AWS: Net sales")."""
        return self.row if not self.part or self.part.lower() in self.row.lower() else f"{self.part}: {self.row}"

    @property
    def amount(self) -> float:
        """The value with the table's scale applied."""
        return self.value * self.scale

    @property
    def shown(self) -> str:
        """The value as an analyst writes it (``$10,208.6 million``)."""
        return show(self.value, self.scale, self.percent, self.currency)

    @property
    def currency(self) -> str:
        """The currency sign the cell is printed with, or ''."""
        return "$" if "$" in self.raw else "€" if "€" in self.raw else "£" if "£" in self.raw else ""

    def shown_in(self, scale: float | None) -> str:
        """The value written in ``scale`` (``$8,630.9 million`` for a cell of a table in thousands, when the answer
        states its figures in millions); as printed for percents, per-share amounts and ``None``."""
        if scale is None or self.percent or self.scale == 1.0 or scale == self.scale:
            return self.shown
        return show(round(self.amount / scale, 4), scale, False, self.currency)

    def period_name(self, calendar: Calendar | None) -> str:
        """The column's period in words, with the fiscal year it belongs to when the calendar says."""
        if self.period is None:
            return self.column
        return what_it_is(self.period, calendar) or self.column

    def line(self, calendar: Calendar | None = None) -> str:
        """The cell as one prompt line: ``[3] Net sales | 52 weeks ended January 28, 2023 (fiscal 2022) | $10,208.6
        million``."""
        name = self.period_name(calendar)
        column = self.column if name == self.column else f"{self.column} ({name})"
        return f"[{self.marker}] {self.label} | {column} | {self.shown}"

    def to_json(self) -> dict[str, Any]:
        return {
            "marker": self.marker,
            "doc": self.doc,
            "page": self.page,
            "region_id": self.region_id,
            "row": self.row,
            "part": self.part,
            "column": self.column,
            "raw": self.raw,
            "value": self.value,
            "scale": self.scale,
            "shown": self.shown,
            "item": self.item,
            "row_fit": round(self.row_fit, 3),
            "period_fit": round(self.period_fit, 3),
        }


@dataclass
class Resolution:
    """What the resolver found for a question."""

    asked: Asked
    cells: list[Cell] = field(default_factory=list)
    """The best cell for each (measure, asked year), best first."""
    candidates: list[Cell] = field(default_factory=list)
    """Every cell of the resolved rows and of rows that fit the measure, in any period: what a number of the
    answer may have been taken from instead."""
    measures: list[str] = field(default_factory=list)
    confident: bool = False
    """One measure, an exact period and a row that fits it well: the cell can be shown before the model speaks."""
    scale: float | None = None
    """The one scale the cells are stated in: the question's ("in USD millions"), else the first cell's table's."""

    def lines(self, calendar: Calendar | None = None) -> list[str]:
        return [c.line(calendar) for c in self.cells]

    def shown(self, c: Cell) -> str:
        """A cell's value in the resolution's one scale."""
        return c.shown_in(self.scale)


# --- measures -----------------------------------------------------------------------------------------------


NAMED_ROW = 2.5
"""Row fit of a label the question writes out word for word (three words or more): "Net earnings applicable to
common shareholders" beats the vocabulary's "Net earnings" (2.0) for net income when the question names it."""


def row_fit(measure: Measure, label: str, asked_stems: set[str], named: str = "") -> float:
    """How well a row label reports a measure: ``NAMED_ROW`` for a label of three words or more that the question
    (``named``: its ``phrase``) writes out, 2 for a label the vocabulary lists for it, else the best label
    score against its names; a measure the vocabulary does not know fits a label by the share of the label's
    content words the question holds, the label that holds more of them ahead (``SPECIFIC_ROW``): "deferred
    revenue, non-current" asks for "Deferred revenue, non-current", not "Deferred revenue" or "Revenues"."""
    label = _MARK.sub("", label)  # "Research and development expenses(a)": the footnote mark is not the label
    low = label.lower().strip(" :")
    if measure.item is not None:
        if measure.item.excludes(label) or _SHARE_OF.search(label):
            return 0.0  # another item, or a share of one ("As a percent of revenue")
        if (other := named_item(label)) is not None and other.name != measure.item.name and not (
                low in measure.item.labels or low == measure.name):
            return 0.0  # the vocabulary's label of another item ("Net cash provided by operating activities" is
            # no financing measure, however many of its words it shares; "Purchases of property and equipment",
            # which "Did cash from operations cover its purchases of property and equipment?" writes out, is the
            # capex row, not the cash from operations one)
        written = phrase(label)
        if named and len(written.split()) >= 3 and f" {written} " in f" {named} ":
            return NAMED_ROW
        if low in measure.item.labels or low == measure.name:
            return 2.0
        # the names a filing prints, not what a question may call the item ("profit" asks for net income, but
        # a row "Gross profit" is not net income)
        return max(label_score(n, label) for n in (measure.item.name, *measure.item.labels))
    words = stems(label)
    if not words:
        return 0.0
    hit = len(words & asked_stems)
    return hit / len(words) + SPECIFIC_ROW * (hit - 1) if hit >= min(2, len(words)) else 0.0


SPECIFIC_ROW = 0.05
"""Added to a free-worded measure's row fit for each further question word the label holds: of two labels whose
words the question holds all of, the longer one is what it names."""


_PERCENT_OF = re.compile(r"\bas\s+(?:a\s+)?percent(?:age)?s?\s+of\b|\bpercent(?:age)?s?\s+of\s+(?:total\s+|net\s+)*"
                         r"(?:revenues?|sales)\b", re.I)
"""A table's heading saying its figures are percents of one line ("expressed as a percentage of revenue")."""


def _cell_percent(label: str, raw: str, units: str) -> bool:
    return "%" in raw or bool(re.search(r"\bpercent|%", label, re.I)) and "%" not in units


def _scale(table: dict[str, Any], label: str, raw: str) -> float:
    scale = float(table.get("scale") or 1.0)
    if "%" in raw or _PER_SHARE.search(label):
        return 1.0
    return scale


_BESIDE_PARTS = (["other"], ["all"], ["less"], ["excluding"])
"""A row label's first word that makes it a line beside a breakdown's parts ("Other Health Care"), not a part."""
PART_ROW, PART_WIDER, PART_TITLE, PART_NEAR = 2.0, 1.9, 1.5, 1.2
"""Row fit of a part's row: its label is the part's name ("iPhone®" for "iPhone"), holds it ("Subscription services"
for "services"), or the part is only the table's title (the rows under it fit the measure); or, when no row names
it, the one row that holds a word of it no other row of the measure's block holds ("Online stores" for "online
retail services")."""


BY_TITLE = 0.1
"""Taken off a part's row fit when only the table's title says the rows are the measure (no total row, no header
says it); none when a column is a change: a table of the changes in sales by segment has the title, not the
amounts."""


def part_rows(source: TableSource, m: Measure, part: str, asked_stems: set[str],
              named: str = "") -> dict[int, tuple[str, float]]:
    """The rows of a table that report the part ``part`` of the measure ``m``: row index -> (the part as the table
    names it, row fit). Filings lay a breakdown out two ways. The part is a row of a block of the measure ("iPhone",
    "Mac", ... "Total net sales"): a block is the rows between two headers (a header is a row with no figures), and
    it is the measure's when its header fits the measure ("Net sales:"), or it has none and a later row fits the
    measure (its total) or the table's title names the measure ("Net sales by groups of similar products"); a
    block under another header ("Cost of sales:", "Year-over-year growth:") is not. Or the part heads a block whose
    rows fit the measure ("AWS" then "Net sales", "Operating income"), or is the table's title."""
    want = stems(part)
    if not want:
        return {}

    def fits(label: str) -> bool:
        return row_fit(m, label, asked_stems, named) >= ROW_MIN

    def names_part(label: str) -> float:
        if label.lower().split()[:1] in _BESIDE_PARTS:
            return 0.0  # "Other Health Care": a line beside the part, not the part
        have = stems(label)
        return PART_ROW if have == want else PART_WIDER if want <= have else 0.0

    context = source.context.lower()
    title_measure = any(re.search(rf"(?<![a-z]){re.escape(n)}(?![a-z])", context) for n in m.names if n)
    title_part = want <= stems(source.titles)
    blocks: list[tuple[str | None, list[tuple[int, str]]]] = [(None, [])]
    for i, row in enumerate(source.table.get("rows", [])):
        if not isinstance(row, dict):
            continue
        label = str(row.get("label", "")).strip()
        if not any(isinstance(x, int | float) for x in row.get("numbers") or []):
            blocks.append((label, []))
        else:
            blocks[-1][1].append((i, label))
    if any(header and names_part(header) for header, _ in blocks):
        title_part = False  # the part heads its own block: the rows before it are another part's

    def kind(header: str | None) -> str:
        """A block's header: of the measure ("Net sales:"), of another item or of a change ("Cost of sales:",
        "Year-over-year growth:"), or neither (none, a therapeutic area, an indication)."""
        if not header:
            return "neutral"
        if _CHANGE_HEAD.search(header):
            return "other"  # "Net sales mix:", "Net sales growth:": shares or rates of the measure, not amounts
        if fits(header):
            return "measure"
        other = measure_of(header).item
        return "other" if other is not None and other.name != m.name else "neutral"

    kinds = [kind(header) for header, _ in blocks]
    # a table of the changes in the measure ("Acquisitions", "Divestitures", "Translation", "Total sales change"):
    # its columns are changes only; one with a period's amounts beside its changes ("Three Months Ended October 30,
    # 2022", "$ Change", "% Change") reports the measure's parts
    columns = [str(c) for c in source.table.get("columns", [])]
    changes = any(_CHANGE_HEAD.search(c) for c in columns) and not any(
        not _CHANGE_HEAD.search(c) and section_period(c, source.context) is not None for c in columns)
    out: dict[int, tuple[str, float]] = {}
    for b, (header, rows) in enumerate(blocks):
        for k, (i, label) in enumerate(rows):
            if fit := names_part(label):
                if kinds[b] == "measure" or kinds[b] == "neutral" and _total_follows(
                        [other for _, other in rows[k + 1:]], blocks[b + 1:], kinds[b + 1:], fits):
                    out[i] = (label, fit)
                elif kinds[b] == "neutral" and title_measure and not changes:
                    out[i] = (label, fit - BY_TITLE)
            elif fits(label):
                if header and (fit := names_part(header)):
                    out[i] = (header, fit)
                elif header is None and title_part:
                    out[i] = (part, PART_TITLE)
    if not out:
        # no row names the part: the one row of the measure's block that holds a word of the part no other row of
        # the block holds ("Online stores" for "online retail services", beside "Subscription services",
        # "Advertising services", "Third-party seller services": "services" tells none of them apart)
        near = [(i, label, 0.0 if kinds[b] == "measure" else BY_TITLE) for b, (_, rows) in enumerate(blocks)
                if kinds[b] == "measure" or kinds[b] == "neutral" and title_measure and not changes
                for i, label in _by_own_word(rows, want)]
        if len(near) == 1:
            out[near[0][0]] = (near[0][1], PART_NEAR - near[0][2])
    return out


def _by_own_word(rows: Sequence[tuple[int, str]], want: set[str]) -> list[tuple[int, str]]:
    """The rows of one block that hold a word of ``want`` that no other row of the block holds (not a line beside
    the parts: "Other", "Total ...")."""
    have = [(i, label, stems(label)) for i, label in rows
            if label.lower().split()[:1] not in [*_BESIDE_PARTS, ["total"]]]
    own = {w for w in want if sum(1 for _, _, h in have if w in h) == 1}
    return [(i, label) for i, label, h in have if h & own]


_CHANGE_HEAD = re.compile(r"%|\bpercent|\bchange|\bgrowth|\bincrease|\bdecrease|\bvs\.?\b|\bversus|\bvariance|"
                          r"\bmix\b|\bshare\b", re.I)
"""A header whose rows are changes, rates or shares, not amounts ("Year-over-year Percentage Growth (Decline):",
"Net sales mix:")."""


def _total_follows(rest: Sequence[str], blocks: Sequence[tuple[str | None, list[tuple[int, str]]]],
                   kinds: Sequence[str], fits: Callable[[str], bool]) -> bool:
    """Whether a row fitting the measure (its total) follows in the block (``rest``) or in the blocks after it,
    before a header of another item or of the measure."""
    if any(fits(label) for label in rest):
        return True
    for (_, rows), k in zip(blocks, kinds, strict=True):
        if k != "neutral":
            return False
        if any(fits(label) for _, label in rows):
            return True
    return False


NIL = re.compile(r"\s*\$?\s*[—–-]{1,3}\s*%?\s*")
"""A statement's cell printed as a dash ("—", "$ —"): nil that period, in a row that has figures in other columns. Only
in a primary statement: a note's dash may mean "not applicable" to its column ("Carrying Amount of Hedged
Liabilities")."""


def table_cells(source: TableSource, question_measures: Sequence[Measure], asked: Asked,
                calendar: Calendar | None, asked_stems: set[str], named: str = "", part: str = "") -> list[Cell]:
    """Every cell of a table whose row fits one of the measures, each with its row and period fit (read with the
    table's own filing calendar when it has one, else ``calendar``). With a ``part`` asked, only the rows that
    report that part of the measure (``part_rows``)."""
    table = source.table
    calendar = source.calendar or calendar
    columns = [str(c) for c in table.get("columns", [])]
    periods = [column_period(c, source.context) for c in columns]  # None for a change column ("% Change")
    out: list[Cell] = []
    statement = source.statement
    parts = {m.name: part_rows(source, m, part, asked_stems, named) for m in question_measures} if part else {}
    # a part no row names may head a column of its own ("Compute & Networking | Graphics | All Other | Consolidated"
    # of a segment note): the measure's rows in that column are the part's
    part_columns = {i for i, c in enumerate(columns) if stems(part) <= stems(c)} if part else set()
    common = source.common_size
    section: Period | None = None  # the period a row without figures names for the rows below it
    for r, row in enumerate(table.get("rows", [])):
        if not isinstance(row, dict):
            continue
        label = str(row.get("label", "")).strip()
        numbers = row.get("numbers") or []
        values = row.get("values") or []
        if not any(isinstance(x, int | float) for x in numbers):
            section = section_period(label, source.context) or section if label else section
            continue
        if not label:
            continue
        for m in question_measures:
            of_part = parts[m.name].get(r) if part else None
            by_column = bool(part) and of_part is None and not parts[m.name] and bool(part_columns)
            if part and of_part is None and not by_column:
                continue
            fit = of_part[1] if of_part else row_fit(m, label, asked_stems, named)
            if fit < ROW_MIN:
                continue
            if m.item is not None and m.item.balance and statement == "cash_flow":
                continue  # a balance is never read from a cash flow statement's changes
            if m.item is not None and statement and m.item.statement == statement:
                fit += 0.25
            for i, x in enumerate(numbers):
                if x is None and statement and i < len(values) and NIL.fullmatch(str(values[i] or "")):
                    x = 0.0  # "Marketable securities — 235": none that year, a zero in a sum, not a missing term
                if not isinstance(x, int | float) or i >= len(columns):
                    continue
                if _CHANGE_COL.search(columns[i]) and periods[i] is None:
                    continue
                if by_column and i not in part_columns:
                    continue
                p = periods[i] or section
                cell = _cell(source, label, values, i, x, columns[i], p, m.name, fit,
                             matches(asked, p, calendar) if p is not None else 0.0,
                             of_part[0] if of_part else part if by_column else "")
                if common and not cell.percent:
                    cell = replace(cell, percent=True)
                if (of_part or by_column) and (cell.percent or _CHANGE_HEAD.search(columns[i])):
                    continue  # a part's growth rate or share ("-12%", "% of Total") is not its amount
                if m.item is not None and common:
                    continue  # a line item's amount: "Revenue 100.0%" of a table in percent of revenue is none
                out.append(cell)
    return out


_SECTION_GLUE = frozenset({"as", "of", "at", "for", "the", "on", "and", "in"})


def section_period(label: str, context: str = "") -> Period | None:
    """The period a row without figures names for the rows below it, in a table whose periods head blocks of rows
    rather than columns ("Three Months Ended October 30, 2022" over "Revenue" and "Operating income" of each segment's
    column; "As of December 31, 2022:" over a fair-value table's rows): None unless its words name a period and
    nothing else ("2022 Restructuring Plan:" names a plan; a units note aside: "($ in millions)"). A column heading
    read this way is a period's amounts, not a change ("2022 Divestitures")."""
    words = re.findall(r"[a-z]+", re.sub(r"\([^)]*\)", " ", label).lower())
    if any(w not in PERIOD_WORDS and w not in _SECTION_GLUE for w in words):
        return None
    return column_period(label, context)


def _cell(source: TableSource, label: str, values: Sequence[Any], i: int, number: int | float, column: str,
          period: Period | None, item: str, row_fit: float, period_fit: float, part: str = "") -> Cell:
    """The cell of row ``label`` in column ``i`` (``number`` as parsed, ``values`` the row as printed)."""
    raw = str(values[i]) if i < len(values) and values[i] is not None else str(number)
    return Cell(marker=source.marker, doc=source.doc, page=source.page, region_id=source.region_id, row=label,
                column=column, raw=raw, value=float(number), scale=_scale(source.table, label, raw),
                percent=_cell_percent(label, raw, str(source.table.get("units", ""))), period=period, item=item,
                row_fit=row_fit, period_fit=period_fit, part=part)


def _every_period(best: Cell, cells: Sequence[Cell]) -> list[Cell]:
    """The best row's cell in each of its table's columns that names a period, once per period ("revenues for every
    period shown": 2023, 2022 and 2021 of the income statement), in the table's order."""
    row = [c for c in cells if c.marker == best.marker and c.row == best.row and c.period is not None]
    seen: set[tuple[object, ...]] = set()
    out: list[Cell] = []
    for c in row:
        p = c.period
        assert p is not None
        key = (p.end, p.year, p.months, p.instant, p.fiscal_year, p.quarter)  # a column's own label aside
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out or [best]


def _heading_named(column: str, words: frozenset[str]) -> int:
    """How many words of a column heading, besides its period's, the question says: of one period's columns
    ("Gross Carrying Amount", "Accumulated Amortization", "Net Carrying Value"), "intangible assets, net" asks the
    net one."""
    return len({w for w in re.findall(r"[a-z]+", column.lower()) if w not in PERIOD_WORDS and w not in STOPWORDS}
               & words)


_WHOLE = r"total|consolidated|worldwide"
_RECONCILING = r"eliminat|intersegment|inter-segment|unallocated|reconcil"
TOTAL_ROW = re.compile(r"\s*(?:total|consolidated)\b", re.I)
"""A row that totals a breakdown's parts ("Total", "Consolidated")."""
NOT_A_PART = re.compile(rf"\s*(?:{_WHOLE}|less\b|plus\b|add\b|deduct|{_RECONCILING}|corporate|hedging|"
                        r"other\b.*\b(?:items?|adjustments?)\b)", re.I)
"""A row of a breakdown that sums its parts or reconciles them to the total, not a part ("Total", "Less: Expenses
not allocated to segments", "Eliminations", "Corporate and other adjustments", "Hedging gains (losses)" beside the
regions)."""
_WHOLE_COLUMN = re.compile(rf"\b(?:{_WHOLE})\b", re.I)
_RECONCILING_COLUMN = re.compile(rf"\b(?:{_RECONCILING})", re.I)
_SHARE_COLUMN = re.compile(r"%|\bpercent|\bof\s+total\b|\bshare\b", re.I)


def whole_column(column: str) -> int:
    """How a column heading stands among the columns its table splits one period into: 1 when it names the whole
    ("Year Ended December 31, 2019 Total" beside its segments' columns, "Worldwide" beside "U.S." and
    "International"; a share of a total, "% of Total", is not), -1 when it reconciles the parts to the whole
    ("Elimination of intersegment revenues"), else 0."""
    if _RECONCILING_COLUMN.search(column):
        return -1
    return 1 if _WHOLE_COLUMN.search(column) and not _SHARE_COLUMN.search(column) else 0


def unmarked(label: str) -> str:
    """A row label without its footnote mark ("Pharmaceutical(3)" -> "Pharmaceutical")."""
    return _MARK.sub("", label)


def column_of(source: TableSource, asked: Asked, calendar: Calendar | None, flow: bool = False,
              names: Sequence[str] = (), near: int | None = None) -> int | None:
    """The column of a table whose period is the one asked (read with the table's filing calendar when it has one;
    a duration when the figures asked are a ``flow``; the best fitting, at least as a bare year fits a fiscal
    year): of those whose header holds one of ``names`` (a table of
    "Income Before Tax 2022" and "Segment Sales 2022" columns, asked for sales), else of all, the first, or the
    nearest to column ``near`` (the year before of the same figures: "Segment Sales 2022 | 2021"; on a tie, the one
    right of it); None when no column is that period."""
    calendar = source.calendar or calendar
    fits = {i: matches(asked, p, calendar) for i, col in enumerate(source.table.get("columns", []))
            if (p := column_period(str(col), source.context)) is not None and not (flow and p.instant)}
    best = max(fits.values(), default=0.0)  # a bare "2022" fits fiscal 2022 less than a dated year does
    found = [i for i, fit in fits.items() if fit > 0.5 and fit == best]
    if names:  # amounts asked: a column of shares or changes ("Percent of Segment Sales 2021") is none of them
        found = [i for i in found if not _CHANGE_HEAD.search(str(source.table["columns"][i]))]
    named = [i for i in found if header_names(str(source.table["columns"][i]), names)]
    pool = named or found
    if not pool:
        return None
    return pool[0] if near is None else min(pool, key=lambda i: (abs(i - near), i < near))


STATED_CHANGE = re.compile(r"%\s*change|percent(?:age)?\s+change|\bgrowth\b|\bincrease\s*\(decrease\)|"
                           r"\bcomparable(?:\s+store)?\s+sales\b|\bsame[- ]store\s+sales\b|\borganic\b", re.I)
"""A column heading whose figures are each row's change over a period, in percent, as the filer states it ("%
Change", "Comparable Sales Three Months Ended July 29, 2023", "Organic growth"): same-store and comparable sales
are changes by definition."""


def change_columns(source: TableSource, asked: Asked, calendar: Calendar | None) -> list[int]:
    """The columns of a table that state a change (``STATED_CHANGE``) for the period asked, named in their heading
    (best fitting first); a change column with no period of its own is read for none."""
    calendar = source.calendar or calendar
    fits = [(matches(asked, p, calendar), i) for i, col in enumerate(source.table.get("columns", []))
            if STATED_CHANGE.search(str(col)) and (p := _change_period(str(col), source.context)) is not None]
    return [i for fit, i in sorted(fits, key=lambda t: (-t[0], t[1])) if fit > 0.5]


_AGAINST = re.compile(r"\b(?:vs\.?|versus|compared\s+(?:to|with)|over|from)\b.*", re.I | re.S)


def _change_period(heading: str, context: str) -> Period | None:
    """The period a change column states its change for: its heading's period, or the period before "vs." ("% Change
    2023 vs. 2022" is 2023's change)."""
    return column_period(heading, context) or column_period(_AGAINST.sub("", STATED_CHANGE.sub(" ", heading)), context)


def header_names(header: str, names: Sequence[str]) -> bool:
    """Whether a column header or title holds one of ``names`` as words ("Segment Sales 2022" holds "sales")."""
    return any(re.search(rf"(?<![a-z]){re.escape(n)}(?![a-z])", header, re.I) for n in names)


def column_cells(source: TableSource, i: int, item: str) -> list[Cell]:
    """One cell per row of column ``i`` that states a number there (what a question ranks the rows of a breakdown
    by: the regions of "Geographic Information"), each named by its row; ``item`` is what the question calls the
    figures."""
    return [c for _, c in column_cells_at(source, i, item)]


def column_cells_at(source: TableSource, i: int, item: str) -> list[tuple[int, Cell]]:
    """``column_cells`` with each cell's row index in the table's rows (a section of a statement is told by where
    its rows stand, not by their labels alone)."""
    columns = [str(c) for c in source.table.get("columns", [])]
    if i >= len(columns):
        return []
    period = column_period(columns[i], source.context)
    out: list[tuple[int, Cell]] = []
    block = ""  # the label of the row without figures that heads the rows below it ("Net sales mix:")
    for j, row in enumerate(source.table.get("rows", [])):
        if not isinstance(row, dict):
            continue
        label, numbers = str(row.get("label", "")).strip(), row.get("numbers") or []
        if label and not any(isinstance(x, int | float) for x in numbers):
            block = label
        if not label or i >= len(numbers) or not isinstance(numbers[i], int | float):
            continue
        cell = _cell(source, label, row.get("values") or [], i, numbers[i], columns[i], period, item, 0.0, 1.0)
        out.append((j, replace(cell, percent=True) if _PERCENT_BLOCK.search(block) else cell))
    return out


_PERCENT_BLOCK = re.compile(r"\bpercent(?:age)?s?\b|%|\bmix\b", re.I)
"""A block heading whose rows are percents, whatever their figures print ("Year-over-year Percentage Growth
(Decline):", "Net sales mix:", "As a percentage of revenue:"): the rows after a block's first lose the % sign."""


def _asked_years(asked: Asked) -> list[int | None]:
    if asked.fiscal_year is None:
        return [None]  # a period named by its date ("the six months ended July 29, 2023"): asked as it is
    years: list[int | None] = list(dict.fromkeys(asked.years)) if asked.years else []
    if asked.fiscal_year is not None and asked.fiscal_year not in years:
        years.insert(0, asked.fiscal_year)
    return years or [None]


def _wants(asked: Asked, every_quarter: bool) -> list[Asked]:
    """The periods to resolve a cell for, one each: every balance date a question names when it names two or more
    ("from January 28, 2023 to July 29, 2023"), else each year it asks about (``_for_year``)."""
    if len(asked.instants) >= 2:
        return [replace(asked, instant=d, years=(d.year,), fiscal_year=None, quarter=None, months=None, end=None,
                        fiscal_named=(), instants=(d,)) for d in asked.instants]
    return [_for_year(asked, year, every_quarter) for year in _asked_years(asked)]


def _for_year(asked: Asked, year: int | None, every_quarter: bool) -> Asked:
    """The asked period for one of the years a question names. A quarter goes with the year it is named with
    ("between FY2023 and Q2 of FY2024": the year 2023, the second quarter of 2024) unless the question names a
    quarter for each year ("Q2 2023 vs Q2 2022", "the same quarter")."""
    if year is None or year == asked.fiscal_year:
        return asked
    if asked.quarter is not None and not every_quarter:
        return Asked(fiscal_year=year, quarter=None, months=12 if asked.months is not None else None, instant=None,
                     years=(year,), text=asked.text)
    return Asked(fiscal_year=year, quarter=asked.quarter, months=asked.months, instant=None, years=(year,),
                 text=asked.text)


def resolve(
    question: Question, sources: Sequence[TableSource], calendar: Calendar | None = None, max_cells: int = 6
) -> Resolution:
    """The cells a question asks for, from the candidate tables (best-ranked sources first).

    For each measure the question names and each year it asks about, the cell with the best row fit, then
    the best period fit, then the earliest source. With no period asked, the first column (filings put the
    current period first) of the best row."""
    asked = question.asked
    # a measure the vocabulary does not know is the question's own words, less the company's name where it names
    # one of the library ("the number of Best Buy stores" is no "Best Buy" row of a store-count table)
    names = " ".join(question.text[start:end] for _, start, end, _ in question.mentions)
    company = stems(names)
    # a column heading the question names, the company's name aside ("Activision" of Activision Blizzard's
    # segment columns is not asked by "Activision Blizzard's net revenues")
    heading_words = question.words - words_of(names)
    ms = list(question.measures) or [Measure(" ".join(sorted(stems(question.text) - company)), ())]
    asked_stems = set(question.stems)
    named = question.named
    for alias in {a for names in question.companies.values() for a in names}:
        # the company's own name is no line item the question writes out (a performance graph's "Johnson &
        # Johnson" row)
        named = re.sub(rf"(?<![a-z0-9&]){re.escape(phrase(alias))}(?![a-z0-9&])", " | ", named)
    # a part asked ("revenue from iPhone sales"): its rows where the tables break the measure down, else the rows
    # of the measure (which the answer then says are not of the part)
    all_cells = [c for s in sources for c in table_cells(s, ms, asked, calendar, asked_stems, named,
                                                         question.segment)] if question.segment else []
    part_missing = bool(question.segment) and not all_cells
    all_cells = all_cells or [c for s in sources for c in table_cells(s, ms, asked, calendar, asked_stems, named)]
    res = Resolution(asked=asked, measures=[m.name for m in ms], candidates=all_cells)
    if not all_cells:
        return res
    order = {s.marker: k for k, s in enumerate(sources)}
    part = one_segment_tables(sources, question.words)
    chosen: list[Cell] = []
    among_parts = False
    for m in ms:
        mine = [c for c in all_cells if c.item == m.name]
        if not mine:
            continue
        for want in _wants(asked, question.every_quarter):
            if want.fiscal_year is None and want.instant is None and want.end is None and (
                    want.months is None or question.every_period):
                # no period asked: the first column of each row, the best row first
                firsts: dict[tuple[int, str], Cell] = {}
                for c in mine:
                    firsts.setdefault((c.marker, c.row), c)
                pool = list(firsts.values())
                best = max(pool, key=lambda c: (round(c.row_fit, 2), c.marker not in part, -order.get(c.marker, 99)))
                chosen += _every_period(best, mine) if question.every_period else [best]
                continue
            scored = [(c, matches(want, c.period, calendar) if c.period else 0.0) for c in mine]
            scored = [(c, f) for c, f in scored if f > 0]
            if not scored:
                continue
            c, f = max(scored, key=lambda cf: (round(cf[0].row_fit, 2), round(cf[1], 2), cf[0].marker not in part,
                                               -order.get(cf[0].marker, 99),
                                               whole_column(cf[0].column) >= 0,
                                               _heading_named(cf[0].column, heading_words),
                                               whole_column(cf[0].column)))
            c.period_fit = f
            chosen.append(c)
            if not (_heading_named(c.column, heading_words) or whole_column(c.column) > 0) and any(
                    o.marker == c.marker and o.row == c.row and o.column != c.column and abs(o.amount - c.amount) > 1e-9
                    and round(g, 2) == round(f, 2) for o, g in scored):
                among_parts = True  # one of several columns of the period (a segment's, a region's), none asked
    res.cells = chosen[:max_cells]
    if res.cells:
        top = res.cells[0]
        res.scale = question.scale or next((c.scale for c in res.cells if not c.percent and c.scale != 1.0), None)
        rivals = [c for c in all_cells if c.item == top.item and c.row_fit >= top.row_fit - 1e-9
                  and c.period_fit >= 0.99 and c.row != top.row and abs(c.amount - top.amount) > 1e-9]
        res.confident = (
            not part_missing  # the company's total where a part of it was asked: not stated as the answer
            and not among_parts
            and question.asks_value
            # "By how much did its revenue fall in 2019?": a level is not the change asked (a change is computed);
            # "What is the sales and use tax assessment about?" asks in words, whatever line its words name
            and question.intent not in (Intent.CHANGE, Intent.PROSE)
            # "What share of total revenue came from online revenue?": the whole, or the part, is not the share
            and question.pair is None
            and len(ms) == 1
            and ms[0].item is not None
            and top.row_fit >= CONFIDENT_ROW
            and (top.period_fit >= 0.99 or (asked.fiscal_year is None and not asked.years and asked.instant is None))
            and not rivals
        )
    return res


# --- checks ---------------------------------------------------------------------------------------------------


@dataclass
class Verdict:
    """What a number of the answer is, judged against the resolved cells."""

    status: str
    """``verified`` (the asked row and period), ``other_period``, ``other_row``, ``computed``, ``in_text``,
    ``missing``."""
    cell: Cell | None = None
    note: str = ""


def judge(q: Quantity, res: Resolution, calendar: Calendar | None, computed: Sequence[float] = ()) -> Verdict:
    """Whether an answer's number is the cell the question asked for, a cell of another period or row, or none.

    Matched against the amounts (scale applied) and the values as printed, so "$3.2 billion" meets a table in
    millions; an amount in a currency never meets a percent cell."""
    def hit(c: Cell) -> bool:
        if q.currency and c.percent:
            return False  # "$33 million" is no 33% of the table, whatever its period
        return same_number(q, c.value) or (q.scale != 1.0 and same_number(q, c.amount / q.scale)) or same_number(
            q, c.amount)

    if any(same_number(q, v) for v in computed):
        return Verdict("computed", note="computed from the cited cells")
    for c in res.cells:
        if hit(c):
            return Verdict("verified", c, f"{c.row}, {c.period_name(calendar)}, p. {c.page}")
    for c in res.candidates:
        if hit(c) and c.row_fit >= CONFIDENT_ROW and c.period_fit < 0.99 and any(r.item == c.item for r in res.cells):
            asked = res.cells[0].period_name(calendar) if res.cells else ""
            return Verdict("other_period", c, f"is {c.row}, {c.period_name(calendar)} (p. {c.page})"
                           + (f", not {asked}" if asked else ""))
    top = res.cells[0] if res.cells else None
    for c in res.candidates:
        if hit(c):
            # another item, or a row that fits the item less than the asked one ("Deferred revenue" where
            # "Deferred revenue, non-current" was asked)
            other = top is not None and (c.item != top.item or (c.row != top.row and c.row_fit < top.row_fit - 1e-9))
            if other or c.period_fit < 0.99:
                return Verdict("other_row", c, f"is {c.row}, {c.period_name(calendar)} (p. {c.page})")
            return Verdict("verified", c, f"{c.row}, {c.period_name(calendar)}, p. {c.page}")
    return Verdict("missing")


# --- lookups for computed metrics -------------------------------------------------------------------------------


def year_asked(year: int | None, like: Asked, calendar: Calendar | None) -> Asked:
    """The period of ``year`` asked the way ``like`` asks its own (its quarter and duration). Where the question
    names its period by the date it ends and no fiscal year ("the quarter ended December 31, 2022"), its years are
    the years of that date: each is read as the fiscal year the filer's calendar puts that date in, shifted alike
    (a September filer's quarter ended December 31, 2022 is its fiscal 2023's, the year before's its fiscal
    2022's), not as the fiscal year of the date's own year, which is the filer's previous one. A balance date named
    alone ("as of January 1, 2023") is read alike: the year a filer closes on January 1, 2023 is its fiscal 2022."""
    ended = like.end or like.instant
    if year is not None and ended is not None and like.fiscal_year is None and calendar is not None:
        fiscal = calendar.fiscal_year_of(Period(end=ended, year=ended.year, months=like.months if like.end else None,
                                                instant=like.end is None))
        if fiscal is not None:
            year += fiscal - ended.year
    return Asked(fiscal_year=year, quarter=like.quarter, months=like.months if year is not None else None,
                 instant=None, years=(year,) if year is not None else (), text=like.text)


def best_cell(
    phrase: str, year: int | None, sources: Sequence[TableSource], calendar: Calendar | None, like: Asked,
    words: frozenset[str] = frozenset(), part: str = "",
) -> Cell | None:
    """The cell of ``phrase`` for fiscal ``year`` (the duration and quarter as the question asks, ``like``),
    from the best-fitting row, then the best-fitting period, then the best-ranked source; None when no row fits
    or no column is that year. A table of one segment the question (its ``words``) does not name comes after the
    others. With a ``part`` asked ("Services" of "Services gross margin percentage"), only a row of that part of
    the item (``part_rows``: "Services" under "Net sales:"): the whole company's figure is not the part's."""
    m = measure_of(phrase)
    want = year_asked(year, like, calendar)
    # the term's own words are what it names: a row that writes them all out ("Research and development expense,
    # net") is that term, ahead of a shorter label of the same item ("Research and development" of a segment table)
    cells = [c for s in sources for c in table_cells(s, [m], want, calendar, stems(phrase), f" {phrase_of(phrase)} ",
                                                     part=part)]
    order = {s.marker: k for k, s in enumerate(sources)}
    if year is None:
        firsts: dict[tuple[int, str], Cell] = {}
        for c in cells:
            firsts.setdefault((c.marker, c.row), c)
        cells = list(firsts.values())
    else:
        cells = [c for c in cells if c.period_fit > 0.5]
    if not cells:
        return None
    others = one_segment_tables(sources, words or words_of(phrase))
    # of rows that fit alike, a primary statement's: it holds the line itself, a note's table a component of it
    # (a restructuring note's "Selling, informational and administrative expenses 176" beside the statement's 12,726)
    statements = {s.marker for s in sources if s.statement}
    return max(cells, key=lambda c: (round(c.row_fit, 2), round(c.period_fit, 2), c.marker not in others,
                                     c.marker in statements, -order.get(c.marker, 99)))


def cell_lookup(sources: Sequence[TableSource], calendar: Calendar | None, like: Asked,
                words: frozenset[str] = frozenset(), part: str = "") -> Lookup:
    """The lookup computed metrics use (``formulas.solve``): an item for a fiscal year, as a term with its row,
    column and source number; outflows ("purchases of property" printed as (131)) as positive amounts. With a
    ``part`` asked, the part's rows alone: a part's margin is its gross margin over its net sales, and where the
    tables do not break an item down by the part, there is no term (not the whole company's)."""

    def lookup(phrase: str, year: str) -> Term | None:
        c = best_cell(phrase, int(year) if year else None, sources, calendar, like, words, part)
        if c is None:
            return None
        return Term(phrase.strip(), c.row, c.column, as_spent(phrase, c.row, c.value), c.marker, c.scale)

    return lookup

"""Answers across filings: each filing of the scope searched and resolved on its own, then combined in code.

The scope (``scope.filing_scope``) names the filings. For each one the question is searched within that filing
only and its measure resolved with the single-filing resolver (``cells.resolve``) for the period that filing
reports (its quarter, or its year; a balance at its end date). A period reported by several filings (a 10-Q's
prior-year column, a later 10-K's comparative year) takes the newest filing's figure, and a different figure in an
older filing is flagged as a restatement. The series is stated as a small table in one scale, filing | period |
value | page, with the changes worked out in code; two companies stand side by side, each period named with its
own company's fiscal calendar. The model then writes from the cells and from every filing's passages, newest
first, and its sentence is checked like any other answer (``compose.one_voice``, ``checks``).
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from statistics import median
from typing import TYPE_CHECKING, Any

from engine.ask.cells import CONFIDENT_ROW, Cell, Resolution, TableSource, resolve
from engine.ask.checks import refuses
from engine.ask.compose import CellWork, one_voice, refusal_text, with_stated
from engine.ask.computations import compute
from engine.ask.decisions import Computation, Decision
from engine.ask.faithful import check_summary, preceding
from engine.ask.formulas import Term, spent_sign
from engine.ask.narrative import absence, quotes_each, quotes_text, summarise
from engine.ask.question import Intent, Measure, Question, parse
from engine.ask.scope import Filing, Scope
from engine.ask.statements import SPOKEN
from engine.ask.verdicts import SIGNIFICANT_CHANGE, series_decision
from engine.errors import Cancelled
from engine.models.protocols import Embedder
from engine.numbers import show
from engine.periods import Asked, Calendar, column_period, same_end, what_it_is
from engine.types import (
    Answer,
    AnswerEvent,
    AnswerFinished,
    CellsResolved,
    Evidence,
    Quote,
    QuotesFound,
    Region,
    Retrieval,
    RetrievalDone,
    TokenStreamed,
)

if TYPE_CHECKING:
    from engine.ask.answer import Answerer, Searcher

MAX_MEASURES = 4
"""Series for at most this many of the measures a question names (the cash balance and the three cash flows of
"its liquidity position or cash flows")."""
QUOTES_EACH = 2
"""Sentences quoted from each filing for a question told in words (four 10-Qs: at most eight)."""


@dataclass
class Point:
    """One period of a series: the figure used (the newest filing's that reports it) and where it is."""

    filing: Filing
    """The filing whose period this is."""
    cell: Cell
    """The figure used for the period."""
    source: Filing
    """The filing the figure is read from (a later one, when it reports the period again)."""
    period: str
    """The period in words, with its dates ("third quarter (three months ended June 25, 2022)")."""
    restated: list[tuple[Filing, Cell]] = field(default_factory=list)
    """Other filings' different figures for the same period: a restatement, flagged."""
    how: str = ""
    """For a metric, how the figure was computed from the filing's cells."""


@dataclass
class Series:
    """One measure of one company over the scope's periods, oldest first."""

    company: str
    who: str
    measure: str
    points: list[Point]
    missing: list[Filing] = field(default_factory=list)
    """Filings of the scope in which the measure was not resolved for their period."""


@dataclass
class FilingFound:
    """What one filing gave: its retrieval, the regions of its evidence and its resolution."""

    filing: Filing
    retrieval: Retrieval
    regions: dict[int, Region]
    calendar: Calendar | None
    cells: dict[str, Cell] = field(default_factory=dict)
    """Measure -> the cell of the filing's own period."""
    others: dict[str, list[Cell]] = field(default_factory=dict)
    """Measure -> the same row's cells of other periods of the same length (comparatives), for de-duplication."""
    how: dict[str, str] = field(default_factory=dict)
    """Metric -> how the filing's figure was computed ("(143,083 - 75,022) / 143,083 * 100 = 47.57%")."""


def asked_in(filing: Filing, balance: bool) -> Asked:
    """The period a filing reports, as a question would ask it: the quarter or year ended on its end date (a
    balance: at that date); its fiscal year and quarter where the end is unknown."""
    text = filing.period
    if filing.end is not None:
        if balance:
            return Asked(fiscal_year=None, quarter=None, months=None, instant=filing.end, years=(), text=text)
        return Asked(fiscal_year=None, quarter=None, months=filing.months, instant=None, years=(), text=text,
                     end=filing.end)
    return _fiscal(filing, balance)


def _fiscal(filing: Filing, balance: bool) -> Asked:
    """The period a filing reports as its fiscal quarter or year ("Q3 FY2023"), as a question names one."""
    fy = filing.fiscal_year
    years = (fy,) if fy is not None else ()
    return Asked(fiscal_year=fy, quarter=filing.quarter, months=None if balance else filing.months, instant=None,
                 years=years, text=filing.period, fiscal_named=years)


def within_one(q: Question, scope: Scope) -> Question | None:
    """A metric asked of the one filing a scope picked ("What was the gross margin in the most recent 10-Q?"): the
    question as if it named that filing's fiscal quarter or year, for the single-filing path to compute within that
    filing (a margin from its revenue and cost of sales, a current ratio from its balance sheet); None otherwise (a
    figure of one filing is read as a series of one, for the period the filing reports)."""
    if scope.across or len(scope.filings) != 1 or q.intent is not Intent.RATIO:
        return None
    return as_of(q, scope.filings[0])


def as_of(q: Question, filing: Filing) -> Question:
    """``q`` as if it named the period ``filing`` reports, its fiscal quarter or year; its metric's definition
    worked for that year too (a definition carries the year it is worked for: "fiscal 2018 to fiscal 2023" reads
    its metric for 2023)."""
    fy = filing.fiscal_year
    formula = (q.formula[0], str(fy)) if q.formula is not None and fy is not None else q.formula
    return replace(q, asked=_fiscal(filing, balance=False), formula=formula)


def _of_segment(cell: Cell, segment: str, sources: Sequence[TableSource]) -> bool:
    """Whether a cell reports the named part of the company: the resolver read it as the part's row, or its row or
    its table names it."""
    if cell.part:
        return True
    name = segment.lower()
    table = next((s for s in sources if s.marker == cell.marker), None)
    return name in cell.row.lower() or (table is not None and name in (table.heading + " " + table.segment).lower())


def _sources(found: FilingFound) -> list[TableSource]:
    """The tables of one filing's evidence, numbered as its evidence is."""
    return [TableSource.of(i + 1, e, found.regions[e.region_id], found.calendar)
            for i, e in enumerate(found.retrieval.evidence)
            if e.region_id in found.regions and found.regions[e.region_id].table]


def metric_in(q: Question, found: FilingFound) -> None:
    """The metric ``q`` names (``q.ratio``: a margin, a tax rate, a turnover) for the period ``found.filing``
    reports: as the filing reports it in a row of its own, else computed from its cells, as a question naming that
    period would be answered within the filing (``computations.compute``). Kept as a cell of the metric, placed
    where its first term is, with how it was computed."""
    assert q.ratio is not None
    name, template = q.ratio
    sources = _sources(found)
    # the metric itself for the one period, whatever the question asks of the series (its change, a comparison)
    one = replace(as_of(q, found.filing), parts=(), intent=Intent.RATIO, changed=False, cagr=False, growth=False)
    comp = compute(one, sources, found.calendar, resolve(one, sources, found.calendar))
    if comp is None or comp.kind not in {"formula", "ratio"} or not comp.cells:
        return
    first = comp.cells[0]
    src = next((x for x in sources if x.marker == first.marker), None)
    if src is None:
        return
    percent = "* 100" in template
    # a quotient is a pure number; a sum or difference of line items (free cash flow) is in their table's unit
    scale = 1.0 if "/" in template else float(src.table.get("scale") or 1.0)
    found.cells[name] = Cell(first.marker, src.doc, src.page, src.region_id, name[:1].upper() + name[1:],
                             first.column, f"{comp.result:,.2f}{'%' if percent else ''}",
                             comp.result, scale, percent, column_period(first.column, src.context), name, 1.0, 1.0)
    if len(comp.cells) > 1:  # worked out from several cells; a row of its own is shown as the cell it is
        found.how[name] = re.sub(r"\s*\(cells from [^)]*\)\s*$|\s*\[\d+\]", "", comp.text)


def measured(q: Question, found: Sequence[FilingFound]) -> list[str]:
    """What the series are of: the metric the question names when any filing gave it (a margin over four quarters
    is the margin, not its numerator's amounts), else each measure asked."""
    if q.ratio is not None and any(q.ratio[0] in f.cells for f in found):
        return [q.ratio[0]]
    return [m.name for m in q.measures[:MAX_MEASURES]]


def resolve_in(q: Question, found: FilingFound) -> None:
    """Resolve each measure of ``q`` for the period ``found.filing`` reports, from that filing's tables only."""
    sources = _sources(found)
    for m in q.measures[:MAX_MEASURES]:
        balance = bool(m.item is not None and m.item.balance)
        one = replace(q, measures=(m,), asked=asked_in(found.filing, balance), parts=())
        res = resolve(one, sources, found.calendar)
        cell = next((c for c in res.cells if c.period_fit >= 0.99), None)
        if cell is None and m.item is None:  # a free-worded measure may be a balance: try its end date
            one = replace(one, asked=asked_in(found.filing, True))
            res = resolve(one, sources, found.calendar)
            cell = next((c for c in res.cells if c.period_fit >= 0.99), None)
        if cell is None or (q.segment and not _of_segment(cell, q.segment, sources)):
            continue  # a part of the company asked ("Services segment revenue"): the consolidated row is not it
        found.cells[m.name] = cell
        length = cell.period.months if cell.period is not None else None
        found.others[m.name] = [
            c for c in res.candidates
            if c.region_id == cell.region_id and c.row == cell.row and c.period is not None
            and c.period.end is not None and c.period.months == length and c.period.instant == cell.period.instant
            and not (cell.period.end is not None and same_end(c.period.end, cell.period.end))
        ] if cell.period is not None else []


QUARTER_DAYS = (80, 100)
"""Days between the ends of two consecutive quarters (13 weeks, or a calendar quarter)."""


def quarter_from_year_to_date(q: Question, found: FilingFound, every: Sequence[FilingFound]) -> None:
    """A flow that a 10-Q states only year to date (NVIDIA's and Apple's cash flows: "Nine Months Ended October
    29, 2023"), worked out for the filing's quarter as analysts do: the year to date less the year to date of the
    quarter before, read from any of the company's filings in the scope (the earlier 10-Q, or a later one's
    comparative column). Kept as the filing's cell, with how it was computed; nothing where either figure is not
    found (a six- or nine-month figure is never set beside a quarter's)."""
    filing = found.filing
    if filing.end is None or filing.months != 3 or not filing.quarter or filing.quarter < 2:
        return
    months = 3 * filing.quarter
    asked = Asked(fiscal_year=None, quarter=None, months=months, instant=None, years=(), text=filing.period,
                  end=filing.end)
    sources = _sources(found)
    for m in q.measures[:MAX_MEASURES]:
        if m.name in found.cells or m.item is None or m.item.balance:
            continue
        res = resolve(replace(q, measures=(m,), asked=asked, parts=()), sources, found.calendar)
        ytd = next((c for c in res.cells if c.period_fit >= 0.99 and c.period is not None
                    and c.period.months == months), None)
        if ytd is None or (q.segment and not _of_segment(ytd, q.segment, sources)):
            continue
        before = _year_to_date_before(q, m, filing, months - 3, ytd, every)
        if before is None:
            continue
        value = ytd.amount - before.amount
        assert ytd.period is not None
        period = replace(ytd.period, months=3, label=f"three months ended {filing.end:%B %-d, %Y}")
        found.cells[m.name] = replace(ytd, value=value / ytd.scale, raw=f"{value / ytd.scale:,.0f}", period=period,
                                      column=period.label)
        less = f"({before.shown})" if before.amount < 0 else before.shown
        found.how[m.name] = (f"{ytd.shown} ({ytd.column}, {ytd.doc} p. {ytd.page}) - {less} "
                             f"({before.column}, {before.doc} p. {before.page})")


def _year_to_date_before(q: Question, m: Measure, filing: Filing, months: int, like: Cell,
                         every: Sequence[FilingFound]) -> Cell | None:
    """The same row's figure for the ``months`` to the end of the quarter before ``filing``'s, from any filing of
    the same company in the scope (its own table first)."""
    assert filing.end is not None
    mine = sorted((f for f in every if f.filing.company == filing.company), key=lambda f: f.filing is not filing)
    for f in mine:
        res = resolve(replace(q, measures=(m,), parts=()), _sources(f), f.calendar)
        fits = [c for c in res.candidates if c.period is not None and c.period.end is not None
                and c.period.months == months and not c.period.instant and c.scale == like.scale
                and QUARTER_DAYS[0] <= (filing.end - c.period.end).days <= QUARTER_DAYS[1]]
        # the same row, else the row that fits the measure best ("Net cash used in" one year, "provided by" the
        # next; not the operating row of a statement that fits the financing one less well)
        best = max(fits, key=lambda c: (c.row == like.row, c.row_fit), default=None)
        if best is not None and (best.row == like.row or best.row_fit >= CONFIDENT_ROW):
            return best
    return None


SCALE_SPREAD = 10.0
"""A figure of a table that states no unit is in its measure's unit when it lies within this factor of the
figures whose tables state one: a line item does not move a million-fold from one quarter to the next."""


def one_unit(q: Question, found: Sequence[FilingFound]) -> None:
    """Read each measure's cells from tables that state no unit (an MD&A table whose "(in millions)" sits in the
    sentence above it) in the unit of the measure's other cells, where their figures are of the same size; so a
    series is not set against itself in two units and a figure is not taken for a restatement of itself."""
    for m in q.measures[:MAX_MEASURES]:
        cells = [c for f in found for c in [*([f.cells[m.name]] if m.name in f.cells else []),
                                             *f.others.get(m.name, [])]]
        scales = Counter(c.scale for c in cells if not c.percent and c.scale > 1.0)
        if not scales:
            continue
        scale = scales.most_common(1)[0][0]
        typical = median(abs(c.value) for c in cells if not c.percent and c.scale == scale)
        for f in found:
            if m.name in f.cells:
                f.cells[m.name] = _in_unit(f.cells[m.name], scale, typical)
            f.others[m.name] = [_in_unit(c, scale, typical) for c in f.others.get(m.name, [])]


def _in_unit(c: Cell, scale: float, typical: float) -> Cell:
    """``c`` read in ``scale`` when its table states no unit and its figure is of the ``typical`` size."""
    sized = bool(typical) and typical / SCALE_SPREAD <= abs(c.value) <= typical * SCALE_SPREAD
    if c.percent or c.scale != 1.0 or not sized:
        return c
    return replace(c, scale=scale)


def series_of(q: Question, scope: Scope, found: Sequence[FilingFound]) -> list[Series]:
    """Each measure's series for each company, oldest period first: a period's figure is the newest filing's that
    reports it; a different figure of another filing for the same period is kept as a restatement."""
    out: list[Series] = []
    for name in measured(q, found):
        for company in scope.companies:
            mine = [f for f in found if f.filing.company == company]
            points: list[Point] = []
            missing: list[Filing] = []
            for f in mine:
                cell = f.cells.get(name)
                if cell is None:
                    missing.append(f.filing)
                    continue
                end = cell.period.end if cell.period is not None else None
                reports = [(g.filing, c) for g in mine if g is not f for c in g.others.get(name, [])
                           if c.period is not None and same_end(c.period.end, end)]
                newer = [(g, c) for g, c in reports if g.order > f.filing.order]
                source, used = max(newer, key=lambda gc: gc[0].order) if newer else (f.filing, cell)
                restated = [(g, c) for g, c in [(f.filing, cell), *reports]
                            if g is not source and abs(c.amount - used.amount) > 0.5 * max(1.0, used.scale)]
                period = what_it_is(used.period, f.calendar) if used.period is not None else used.column
                points.append(Point(f.filing, used, source, period, restated, f.how.get(name, "")))
            if points:
                out.append(Series(company, mine[0].filing.who if mine else company, name, points, missing))
    return out


def _pct(a: float, b: float) -> str:
    return f"{(b - a) / abs(a) * 100:+.1f}%" if a else "n/a"


def _said(amount: float, like: Cell, scale: float | None) -> str:
    """An amount written as the cell ``like`` is, in the answer's one ``scale``."""
    if like.percent or like.scale == 1.0 or scale is None:
        return show(amount / (like.scale or 1.0), like.scale, like.percent, like.currency)
    return show(round(amount / scale, 4), scale, False, like.currency)


def computation_of(series: Sequence[Series], scale: float | None) -> Computation | None:
    """The changes worked out in code: each series' change from its first to its last period (and in percent),
    its highest and lowest period; every value and change kept as a step the checks accept."""
    texts: list[str] = []
    steps: list[float] = []
    terms: list[Term] = []
    ends: tuple[float, float] | None = None
    result = 0.0
    for s in series:
        # an outflow printed as negative ("Interest expense (617)") is quoted as the amount spent: its highest
        # period is the one it was largest in
        sign = spent_sign(s.measure, [p.cell.amount for p in s.points])
        vals = [sign * p.cell.amount for p in s.points]
        for p in s.points:
            terms.append(Term(s.measure, p.cell.row, p.cell.column, p.cell.value, p.cell.marker))
        steps += vals + [b - a for a, b in zip(vals, vals[1:], strict=False)]
        steps += [(b - a) / abs(a) * 100 for a, b in zip(vals, vals[1:], strict=False) if a]
        if len(vals) < 2:
            continue
        first, last = s.points[0], s.points[-1]

        def said(v: float, cell: Cell = first.cell) -> str:
            return _said(v, cell, scale)

        change = vals[-1] - vals[0]
        hi = max(s.points, key=lambda p: sign * p.cell.amount)
        lo = min(s.points, key=lambda p: sign * p.cell.amount)
        high, low = sign * hi.cell.amount, sign * lo.cell.amount
        # the first-to-last change and the highest over the lowest, in percent, as the answer states them
        steps += [change] + ([change / abs(vals[0]) * 100] if vals[0] else [])
        steps += [(high - low) / abs(low) * 100] if low else []
        who = f"{s.who} " if len({x.company for x in series}) > 1 else ""
        moved = (f"{change:+.2f} percentage points" if first.cell.percent  # a margin moves in points
                 else f"{said(change)} ({_pct(vals[0], vals[-1])})")
        texts.append(f"{who}{first.cell.label} from {first.filing.period} to {last.filing.period}: "
                     f"{moved}; highest {hi.filing.period} "
                     f"({said(high)}), lowest {lo.filing.period} ({said(low)})")
        if ends is None:
            ends, result = (vals[0], vals[-1]), change
    for measure in dict.fromkeys(s.measure for s in series):
        latest = [(s, s.points[-1]) for s in series if s.measure == measure]
        if len(latest) < 2:
            continue
        (sa, a), (sb, b) = latest[0], latest[1]
        gap = a.cell.amount - b.cell.amount
        steps += [gap, abs(gap)] + ([gap / abs(b.cell.amount) * 100] if b.cell.amount else [])
        (more, hi), (_, lo) = ((sa, a), (sb, b)) if gap >= 0 else ((sb, b), (sa, a))
        steps.append(abs(gap) / abs(lo.cell.amount) * 100 if lo.cell.amount else 0.0)
        texts.append(f"{a.cell.label}: {sa.who} {a.filing.period} {_said(a.cell.amount, a.cell, scale)} against "
                     f"{sb.who} {b.filing.period} {_said(b.cell.amount, b.cell, scale)}; {more.who}'s is higher by "
                     + (f"{abs(gap):.2f} percentage points" if a.cell.percent
                        else f"{_said(abs(gap), a.cell, scale)} ({_pct(lo.cell.amount, hi.cell.amount)})"))
        if ends is None:
            result = gap
    if not texts:
        return None
    return Computation("series", result, "; ".join(texts), terms, steps=steps, ends=ends)


def numbered(found: Sequence[FilingFound], series: Sequence[Series], k: int) -> list[Evidence]:
    """The evidence the model reads, numbered once: the source of each figure of the series first, then each
    filing's passages in turn, newest filing first, up to ``k`` beyond the figures' sources."""
    out: list[Evidence] = []
    seen: set[int] = set()
    by_doc = {f.filing.doc_id: f for f in found}
    for s in series:
        for p in reversed(s.points):
            f = by_doc.get(p.source.doc_id)
            if f is None:
                continue
            e = f.retrieval.evidence[p.cell.marker - 1]
            if e.chunk_id not in seen:
                seen.add(e.chunk_id)
                out.append(e)
    newest_first = sorted(found, key=lambda f: f.filing.order, reverse=True)
    depth = max((len(f.retrieval.evidence) for f in found), default=0)
    extra = 0
    for i in range(depth):
        for f in newest_first:
            if i < len(f.retrieval.evidence) and extra < k:
                e = f.retrieval.evidence[i]
                if e.chunk_id not in seen:
                    seen.add(e.chunk_id)
                    out.append(e)
                    extra += 1
    return out


def renumbered(series: Sequence[Series], found: Sequence[FilingFound], used: Sequence[Evidence]) -> None:
    """Point each figure's ``marker`` at its source's number in ``used``."""
    index = {e.chunk_id: i + 1 for i, e in enumerate(used)}
    by_doc = {f.filing.doc_id: f for f in found}
    for s in series:
        for p in s.points:
            f = by_doc[p.source.doc_id]
            chunk = f.retrieval.evidence[p.cell.marker - 1].chunk_id
            p.cell = replace(p.cell, marker=index.get(chunk, p.cell.marker))


def naming_note(scope: Scope, found: Sequence[FilingFound]) -> str:
    """For two companies or more: each one's fiscal year end, when they differ, so a "fiscal 2023" of one is not
    silently paired with another's."""
    if len(scope.companies) < 2:
        return ""
    ends: dict[str, str] = {}
    for f in found:
        cal = f.calendar
        if cal is not None and cal.year_end_month is not None and f.filing.who not in ends:
            ends[f.filing.who] = date(2000, cal.year_end_month, 1).strftime("%B")
    if len(set(ends.values())) < 2:
        return ""
    said = ", ".join(f"{who}'s in {month}" for who, month in ends.items())
    return (f"Fiscal years differ ({said}): each period above is its own company's, named with its own calendar "
            "and dated.")


def table_text(scope: Scope, series: Sequence[Series], scale: float | None, found: Sequence[FilingFound]) -> str:
    """The scope's header, then each series as lines "filing | period | value | page [n]" in one scale, then any
    restatement, the filings a measure was not found in, and the calendars' note."""
    lines = [scope.header()]
    several = len(scope.companies) > 1
    measure = ""
    for s in series:
        if s.measure != measure:
            measure = s.measure
            rows = list(dict.fromkeys(x.points[0].cell.label for x in series if x.measure == measure))
            lines.append(f"{' / '.join(rows)}:")
            lines.append("filing | period | value | page")
        elif not several:
            lines.append("filing | period | value | page")
        for p in s.points:
            src = "" if p.source is p.filing else f" (as reported in {p.source.label})"
            lines.append(f"{p.filing.label} | {p.period} | {p.cell.shown_in(scale)} | "
                         f"{p.cell.doc} p. {p.cell.page}{src} [{p.cell.marker}]")
            if p.how:
                lines.append(f"  computed: {p.how}")
            for g, c in p.restated:
                lines.append(f"  restated: {g.label} reports {c.shown_in(scale)} for this period ({c.doc} p. "
                             f"{c.page}); the newer figure is used")
        if s.missing:
            lines.append(f"  not found for {', '.join(f.label for f in s.missing)}")
    if note := naming_note(scope, found):
        lines.append(note)
    return "\n".join(lines)


def search_each(q: Question, scope: Scope, retriever: Searcher, calendar_of: Callable[[str], Calendar | None],
                regions_of: Callable[[Any, Sequence[Evidence]], dict[int, Region]], cancelled: Callable[[], bool],
                k: int | None = None) -> list[FilingFound]:
    """Each filing of the scope searched on its own (the question within that one filing), oldest first."""
    out: list[FilingFound] = []
    for f in scope.filings:
        if cancelled():
            raise Cancelled("Answer cancelled.")
        r = retriever.retrieve(q, scope=[f.doc_id], k=k)
        out.append(FilingFound(f, r, regions_of(retriever.store, r.evidence), calendar_of(f.doc_id)))
    return out


def search_statements(q: Question, f: FilingFound, missing: Sequence[Measure], retriever: Searcher,
                      regions_of: Callable[[Any, Sequence[Evidence]], dict[int, Region]]) -> None:
    """A filing in which a measure was not found: search it again for the item in its primary statement ("operating
    income in the income statement"), add what that finds to the filing's evidence and resolve again."""
    seen = {e.chunk_id for e in f.retrieval.evidence}
    extra: list[Evidence] = []
    for m in missing:
        assert m.item is not None
        r = retriever.retrieve(parse(f"{m.item.name} in the {SPOKEN[m.item.statement]}"), scope=[f.filing.doc_id])
        for e in r.evidence:
            if e.chunk_id not in seen:
                seen.add(e.chunk_id)
                extra.append(e)
    if not extra:
        return
    f.retrieval = replace(f.retrieval, evidence=[*f.retrieval.evidence, *extra])
    f.regions.update(regions_of(retriever.store, extra))
    resolve_in(replace(q, measures=tuple(missing)), f)


def combined(scope: Scope, found: Sequence[FilingFound], evidence: list[Evidence]) -> Retrieval:
    """One Retrieval for the answer: the numbered evidence, every filing of the scope searched."""
    first = found[0].retrieval
    timings: dict[str, float] = {}
    for f in found:
        for key, v in f.retrieval.timings.items():
            timings[key] = timings.get(key, 0.0) + v
    return Retrieval(question=first.question, evidence=evidence, tier=first.tier, scope=scope.doc_ids,
                     routed=False, thresholds=first.thresholds, timings=timings,
                     route=f"filings={len(scope.filings)} ({scope.reason})", query_terms=first.query_terms)


_HEAD = re.compile(r"^\d+ filings?: ")
_SUPERSEDED = re.compile(r"^.+ used, not .+ \(.+\)$")


def without_header(text: str) -> str:
    """An answer's text without the scope's header ("4 filings: AAPL 10-Q Q3 FY2022, ..." and its superseded-filing
    lines): what the answer says, for a reader (or a scorer) that wants its first words."""
    lines = text.split("\n")
    if not lines or not _HEAD.match(lines[0]):
        return text
    k = 1
    while k < len(lines) and _SUPERSEDED.match(lines[k]):
        k += 1
    return "\n".join(lines[k:]).lstrip()


@dataclass
class Across:
    """What the code finds across the scope's filings before the model runs."""

    scope: Scope
    found: list[FilingFound]
    series: list[Series]
    used: list[Evidence]
    """The evidence the model reads, numbered once (``numbered``)."""
    retrieval: Retrieval
    regions: dict[int, Region]
    resolution: Resolution
    computation: Computation | None
    calendar: Calendar | None
    stated: str
    """The header, the verdict, the table and the computation: what the answer states before the model's
    sentence."""
    decision: Decision | None = None
    """Yes or No on the series, when the question asks it."""

    @property
    def scale(self) -> float | None:
        return self.resolution.scale


def work_across(answerer: Answerer, q: Question, retriever: Searcher, scope: Scope,
                cancelled: Callable[[], bool]) -> Across:
    """Each filing searched and resolved, the series, the evidence numbered, the table and the computation."""
    store = retriever.store
    found = search_each(q, scope, retriever, lambda d: answerer.calendar(store, d), answerer.regions_of, cancelled)
    for f in found:
        if q.ratio is not None:
            metric_in(q, f)
    if q.ratio is None or measured(q, found) != [q.ratio[0]]:  # no filing gave the metric: its line items
        for f in found:
            resolve_in(q, f)
            if missing := [m for m in q.measures[:MAX_MEASURES] if m.name not in f.cells and m.item is not None
                           and m.item.statement in SPOKEN]:
                search_statements(q, f, missing, retriever, answerer.regions_of)
    for f in found:
        quarter_from_year_to_date(q, f, found)
    one_unit(q, found)
    series = series_of(q, scope, found)
    used = numbered(found, series, answerer.settings.top_k)
    renumbered(series, found, used)
    regions: dict[int, Region] = {}
    for f in found:
        regions.update(f.regions)
    cells = [p.cell for s in series for p in s.points]
    scale = q.scale or next((c.scale for c in cells if not c.percent and c.scale != 1.0), None)
    res = Resolution(asked=q.asked, cells=cells, measures=[s.measure for s in series], confident=bool(cells),
                     scale=scale, candidates=[c for f in found for cs in f.others.values() for c in cs])
    computation = computation_of(series, scale)
    stated = table_text(scope, series, scale, found) if series else scope.header()
    if computation is not None:
        stated += f"\nComputed from the cited cells: {computation.text}"
    decision = verdict_of(q, series)
    if decision is not None:  # the verdict first, under the header; the table it rests on after it
        head, _, rest = stated.partition("\n")
        stated = f"{head}\n{decision.text}\n{rest}".rstrip()
    return Across(scope, found, series, used, combined(scope, found, used), regions, res, computation,
                  found[-1].calendar if found else None, stated, decision)


def verdict_of(q: Question, series: Sequence[Series]) -> Decision | None:
    """Yes or No on how the measure moved over the filings' periods ("Has there been any significant change in
    operating expenses over the reported quarters?"), decided from one company's series as within one filing
    (``verdicts.series_decision``). Of several measures of one company ("Are there any notable changes in Amazon's
    liquidity position or cash flows?": its cash and its three cash flow totals), a change in any one is a Yes,
    each measure's own verdict said; No only when every one of them is decided No. A trend asked of several
    measures (one trend of all, or of each?) is left to the model, their series shown."""
    if not (q.yes_no and (q.over_periods or q.across) and q.trend != q.shift) or not series:
        return None
    if len({s.company for s in series}) != 1 or len(series) > 1 and q.trend:
        return None
    decided = []
    for s in series:
        cells = [p.cell for p in s.points]
        decided.append(series_decision("series", q, cells[-1], cells, [p.filing.period for p in s.points]))
    if len(decided) == 1:
        return decided[0]
    yes = any(d is not None and d.verdict for d in decided)
    if not yes and any(d is None for d in decided):
        return None
    said = ("a notable change", "no notable change") if q.notable else ("changed", "unchanged")
    each = []
    for d in decided:
        if d is not None:  # "Yes. Total net sales: 83,000 (Q1), ...": the row, its own verdict, then its series
            label, _, rest = d.text.split(". ", 1)[1].partition(":")
            each.append(f"{label} ({said[0] if d.verdict else said[1]}):{rest}")
    moved = sum(1 for d in decided if d is not None and d.verdict)
    by = f" by {SIGNIFICANT_CHANGE:.0%} or more between two of the periods" if q.notable else ""
    lead = (f"Yes: {moved} of the {len(series)} measures moved{by}." if yes
            else f"No: none of the {len(series)} measures moved{by}.")
    return Decision("series", " ".join([lead, *each]), yes,
                    tuple(f for d in decided if d is not None for f in d.figures),
                    dated=tuple(x for d in decided if d is not None for x in d.dated))


def answer_across(answerer: Answerer, q: Question, retriever: Searcher, scope: Scope, cancelled: Callable[[], bool],
                  t0: float) -> Iterator[AnswerEvent]:
    """The events of an answer across the scope's filings (see the module's docstring)."""
    w = work_across(answerer, q, retriever, scope, cancelled)
    series, used, retrieval, regions, res = w.series, w.used, w.retrieval, w.regions, w.resolution
    computation, calendar, stated = w.computation, w.calendar, w.stated
    yield RetrievalDone(retrieval)
    t_ret = time.perf_counter()
    if not used:
        text = refusal_text(retrieval, f"{scope.header()}\nInsufficient information: no evidence was found.")
        yield TokenStreamed(text)
        yield AnswerFinished(answerer.finish(q, text, retrieval, [], regions, None, t0, t_ret, 0))
        return
    quotes: list[Quote] = []
    if series:
        yield CellsResolved([c.to_json() for c in res.cells], stated)
    # told in words: the whole question, or a part of it under a series ("Has there been any significant change in
    # operating expenses over the reported quarters? If so, what are the key drivers?")
    part = q.told
    if not series or part is not None:
        found = w.found
        if series and part is not None and part is not q:
            # "If so, what are the key drivers?": the filings searched again for that part (the question's search
            # found the statement's table, not the discussion of it)
            found = search_each(part, scope, retriever, lambda d: answerer.calendar(retriever.store, d),
                                answerer.regions_of, cancelled)
        summarised, quotes = yield from told_across(answerer, q, w, cancelled, t0, t_ret, found, retriever.store)
        if summarised is not None:
            yield AnswerFinished(summarised)
            return
    work = CellWork(res, computation, calendar, "", stated, w.decision)
    llm = answerer.models.llm()
    written = yield from answerer.generate(q, llm, used, regions, work, cancelled)
    text, tokens, asked = written.text, written.tokens, written.asked
    if cancelled():
        raise Cancelled("Answer cancelled.")
    voiced = one_voice(text, q, w.decision, computation, res, calendar, bool(series))
    text = voiced.text
    refused = refuses(text)
    if refused and quotes:  # a refusal never replaces the quotes: they answer, each with its filing and page
        text = f"{stated}\n\n{quotes_text(quotes, _labels(w))}"
    elif refused:
        said = "did not answer from these sources" if not voiced.folded else (
            "contradicted what the code found; its sentences are shown apart, marked")
        text = f"{stated}\n\n(The model {said}.)" if series else f"{stated}\n\n{text}".strip()
    else:
        text = f"{stated}\n\n{text}"
    answer = answerer.finish(q, text, retrieval, used, regions, computation, t0, t_ret, tokens, parts=asked,
                             resolution=res if series else None, calendar=calendar,
                             extractive=stated if series else "", folded=voiced.folded, quotes=quotes,
                             unsupported=check_summary(voiced.text, stated, quotes, q, used,
                                                       preceding(retriever.store, quotes)))  # beside the quotes
    answer.filings = [f.label for f in scope.filings]
    answer.series = [point_json(s, p, w.scale) for s in series for p in s.points]
    if refused and quotes and answer.refused:  # a quoted sentence may read like a refusal ("does not include")
        answer.text, answer.refused, answer.searched = text, False, {}
    if refuses(voiced.text) and series:
        answer.refused = False  # the table answers; the model only failed to add a sentence
    yield AnswerFinished(answer)


def quotes_across(q: Question, w: Across, embedder: Embedder, found: Sequence[FilingFound] = ()) -> list[Quote]:
    """The quotes of a narrative question, found in each filing's own evidence (``found``, else the question's
    search, ``w.found``; ``narrative.quotes_each``), newest filing first, each numbered as the answer's evidence (a
    quoted passage beyond ``w.used`` is added to it)."""
    newest = sorted(found or w.found, key=lambda f: f.filing.order, reverse=True)
    each = quotes_each(q, [(f.retrieval.evidence, f.regions) for f in newest], embedder, QUOTES_EACH)
    index = {e.chunk_id: i + 1 for i, e in enumerate(w.used)}
    out: list[Quote] = []
    for f, quotes in zip(newest, each, strict=True):
        for x in quotes:
            e = f.retrieval.evidence[x.source - 1]
            if e.chunk_id not in index:
                w.used.append(e)
                index[e.chunk_id] = len(w.used)
            out.append(replace(x, source=index[e.chunk_id]))
    return out


def told_across(answerer: Answerer, q: Question, w: Across, cancelled: Callable[[], bool], t0: float,
                t_ret: float, found: Sequence[FilingFound] = (), store: Any = None
                ) -> Generator[AnswerEvent, None, tuple[Answer | None, list[Quote]]]:
    """A question told in words across filings, answered from each filing's own sentences: the quotes shown at
    once, newest filing first, then the model's summary of them alone, checked for what they do not say. Returns
    the answer when the model summarised them (else None: the passages are answered as for any question, and the
    quotes answer if that refuses too) and the quotes ([] when no filing's passages hold a sentence to quote)."""
    t = time.perf_counter()
    quotes = quotes_across(q, w, answerer.models.embedder(), found)
    if not quotes:
        return None, []
    w.retrieval.timings["quotes"] = time.perf_counter() - t
    yield QuotesFound(quotes)
    if cancelled():
        raise Cancelled("Answer cancelled.")
    # with a series stated (a question that also asks in words), the summary may repeat its figures
    said_no = absence(q, quotes) if w.decision is None else None  # a filing says nothing of it happened
    summary = summarise(answerer.models.llm(), q, quotes, w.stated if w.series else "",
                        answerer.settings.max_answer_tokens, cancelled, _labels(w), said_no)
    if cancelled():
        raise Cancelled("Answer cancelled.")
    if summary is None and said_no is None:
        return None, quotes
    voiced = one_voice(summary.text.strip() if summary else "", q, w.decision or said_no, w.computation,
                       w.resolution, w.calendar, bool(w.series), quotes)
    said = with_stated(voiced.text, said_no.text, True, True, bool(voiced.folded)) if said_no else voiced.text
    if not said:
        return None, quotes  # all of it contradicted the series: the passages answer, the quotes if they refuse
    yield TokenStreamed(said)
    answer = answerer.finish(q, f"{w.stated}\n\n{said}", w.retrieval, w.used, w.regions, w.computation, t0, t_ret,
                             summary.completion_tokens if summary else 0, resolution=w.resolution if w.series else None,
                             calendar=w.calendar, extractive=w.stated if w.series else "", folded=voiced.folded,
                             quotes=quotes, unsupported=check_summary(voiced.text, w.stated, quotes, q, w.used,
                                                                      preceding(store, quotes)),
                             summarised=True)
    answer.filings = [f.label for f in w.scope.filings]
    answer.series = [point_json(s, p, w.scale) for s in w.series for p in s.points]
    return answer, quotes


def _labels(w: Across) -> dict[str, str]:
    """Each filing's label by its document id ("AMZN 10-Q Q3 FY2023")."""
    return {f.filing.doc_id: f.filing.label for f in w.found}


def point_json(s: Series, p: Point, scale: float | None) -> dict[str, Any]:
    """One cell of the compare view: company, measure, filing, period, value in the answer's scale, page."""
    return {
        "company": s.who,
        "measure": s.measure,
        "row": p.cell.label,
        "filing": p.filing.label,
        "doc": p.cell.doc,
        "doc_id": p.source.doc_id,
        "period": p.filing.period,
        "period_words": p.period,
        "end": p.filing.end.isoformat() if p.filing.end else "",
        "value": p.cell.amount,
        "shown": p.cell.shown_in(scale),
        "page": p.cell.page,
        "region_id": p.cell.region_id,
        "marker": p.cell.marker,
        "restated": [f"{g.label}: {c.shown_in(scale)}" for g, c in p.restated],
        "how": p.how,
    }


def stream_header(events: Iterator[AnswerEvent], header: str) -> Generator[AnswerEvent, None, None]:
    """The events of an answer from one filing the scope picked ("the most recent"), its header said first."""
    for e in events:
        if isinstance(e, AnswerFinished) and not _HEAD.match(e.answer.text):
            e.answer.text = f"{header}\n\n{e.answer.text}"
        yield e
        if isinstance(e, RetrievalDone):
            yield TokenStreamed(header + "\n\n")

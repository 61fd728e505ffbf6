"""Computations in code: a metric's change between two years, compound growth, a metric the question defines or
names, a ratio of two line items, growth or difference of one line item.

Each is a small class with ``applies(question)`` and ``decide(work)``; ``kinds.COMPUTATIONS`` is their order. The
first that decides is the answer's computation, rounded as the question asks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import date

from engine.ask.cells import (
    Cell,
    Resolution,
    TableSource,
    best_cell,
    cell_lookup,
    column_cells_at,
    column_of,
    resolve,
    year_asked,
)
from engine.ask.decisions import Computation, Decision, Work
from engine.ask.formulas import Lookup, Result, Term, fmt, in_scale_of, solve
from engine.ask.question import Question
from engine.ask.statements import stems
from engine.periods import Asked, Calendar, Period, column_period
from engine.vocabulary import canonical, label_score, vocabulary


def newest_year(sources: Sequence[TableSource], calendar: Calendar | None, res: Resolution) -> str:
    """The fiscal year of the first resolved cell, else the newest of the best table's period columns (some
    filings print the older year first: "Three Months Ended March 31, 2022 2023"); for a question naming its period
    by the date it ends, that date's year (``cells.year_asked`` reads it so)."""

    def fiscal_year(p: Period, cal: Calendar | None) -> int | None:
        return p.fiscal_year or (cal.fiscal_year_of(p) if cal else None) or p.year

    if res.asked.end is not None and res.asked.fiscal_year is None:
        return str(res.asked.end.year)  # a period named by its end date: its years are that date's (``year_asked``)
    for c in res.cells:
        if c.period is not None and (fy := fiscal_year(c.period, calendar)):
            return str(fy)
    for s in sources:
        cal = s.calendar or calendar
        years = [fy for col in s.table.get("columns", []) if (p := column_period(str(col), s.context)) is not None
                 and (fy := fiscal_year(p, cal))]
        if years:
            return str(max(years))
    return ""


def reported(question: Question, sources: Sequence[TableSource], calendar: Calendar | None, like: Asked,
             year: int | None) -> Result | None:
    """A standard ratio the question names, as the filing reports it in a row of its own ("Effective tax rate |
    2022 | 23%"): the filing's figure comes before the code's computation of it. None when no row is that
    ratio for the year (``year``, else the one asked)."""
    named = question.ratio
    year = year or like.fiscal_year
    if named is None or year is None:
        return None
    name, template = named
    # the row may carry any name of the ratio ("Effective tax rate" for "effective income tax rate")
    names = [name] + [n for n, t in vocabulary().ratios.items() if t == template and n != name]
    if question.segment and (part := _reported_part(question, sources, calendar, like, year, names, template)):
        return part
    found = [(c, n) for n in names
             if (c := best_cell(n, year, sources, calendar, like, question.words, question.segment)) is not None
             and label_score(n, c.row) >= 0.85 and c.period_fit >= 0.6 and ("* 100" in template) == c.percent]
    if not found:
        return None  # the row must be the ratio itself ("Effective tax rate"), not a label sharing a word
    c, name = max(found, key=lambda f: (label_score(f[1], f[0].row), f[0].period_fit))
    shown = f"{c.value:.2f}{'%' if c.percent else ''}"
    term = Term(name, c.row, c.column, c.value, c.marker)
    return Result(c.value, f"{c.row} ({c.column}) {c.raw} [{c.marker}], as reported = {shown}", [term], c.percent)


def _reported_part(question: Question, sources: Sequence[TableSource], calendar: Calendar | None, like: Asked,
                   year: int, names: Sequence[str], template: str) -> Result | None:
    """The ratio of the part the question names, as the filing reports it: the part's row under a heading that names
    the ratio ("Gross margin percentage:" over "Products 35.4%", "Services 70.5%"), in the column of the year (the
    quarter and duration as asked). None when no table reports it so."""
    want = replace(year_asked(year, like, calendar), months=like.months)
    part = stems(question.segment)
    for s in sources:
        head, at = "", None
        for j, row in enumerate(s.table.get("rows", [])):
            label = str(row.get("label", "")).strip() if isinstance(row, dict) else ""
            if label and not any(isinstance(x, int | float) for x in row.get("numbers") or []):
                head = label
            elif head and stems(label) == part and any(label_score(n, head.rstrip(":")) >= 0.85 for n in names):
                at = j
                break
        i = column_of(s, want, calendar, True) if at is not None else None
        cell = next((c for j, c in column_cells_at(s, i, names[0]) if j == at), None) if i is not None else None
        if cell is not None and ("* 100" in template) == cell.percent:
            shown = f"{cell.value:.2f}{'%' if cell.percent else ''}"
            return Result(cell.value, f"{head.rstrip(':')}, {cell.row} ({cell.column}) {cell.raw} [{cell.marker}], "
                          f"as reported = {shown}", [Term(names[0], cell.row, cell.column, cell.value, cell.marker)],
                          cell.percent)
    return None


def metric_at(work: Work, year: int) -> Result | None:
    """The metric the question names or defines, for one fiscal year: as the filing reports it, else computed."""
    q = work.question
    return (reported(q, work.sources, work.calendar, work.resolution.asked, year)
            or solve(q, work.lookup, year=str(year)))


def _compound(q: Question) -> bool:
    """A compound annual growth rate asked between named years: answered by ``Cagr`` alone."""
    return q.cagr and q.changed and bool(q.asked.years) and not q.averaged


def _computed(kind: str, comp: Computation | None) -> Decision | None:
    if comp is None:
        return None
    return Decision(kind, comp.text, figures=(comp.result,), computation=comp)


class MetricChange:
    """How much a metric the question defines or names changed between two fiscal years ("How much has the
    effective tax rate changed between FY2021 and FY2022?"; "... change as of FY2022": from the year before),
    in percentage points for a percentage."""

    name = "change"

    def applies(self, q: Question) -> bool:
        # a definition with years of its own is one metric, not one computed for two years
        return (bool(q.asked.years) and q.changed and not q.averaged and not q.cagr and q.formula is not None
                and not q.formula_dated)

    def decide(self, work: Work) -> Decision | None:
        years = sorted(set(work.resolution.asked.years))
        old, new = (years[-2], years[-1]) if len(years) >= 2 else (years[0] - 1, years[0])
        ends = []
        for y in (old, new):
            r = metric_at(work, y)
            if r is None:
                return None
            ends.append(r)
        a, b = ends
        diff = b.value - a.value
        unit = " percentage points" if a.percent else (f" ({diff / abs(a.value) * 100:+.1f}%)" if a.value else "")
        asked = work.resolution.asked
        quarter = asked.quarter
        # six or nine months to a quarter's end are named as such, not as that quarter
        span = {6: "first half of ", 9: "nine months of "}.get(asked.months or 0, "")
        named = ((lambda y: f"{span}FY{y}") if span else (lambda y: f"Q{quarter} FY{y}") if quarter
                 else (lambda y: f"FY{y}"))
        # a period named by its end date is named by its columns ("Three Months Ended December 31, 2022"), not as a
        # fiscal year its date's year may not be
        dated = asked.end is not None and asked.fiscal_year is None and a.terms and b.terms
        old_name, new_name = (a.terms[0].column, b.terms[0].column) if dated else (named(old), named(new))
        text = f"{old_name}: {a.text}; {new_name}: {b.text}; change = {diff:+.2f}{unit}"
        markers = " ".join(f"[{m}]" for m in sorted({t.marker for t in a.terms + b.terms}))
        return _computed(self.name, Computation("change", round(diff, 4), f"{text} (cells from {markers})",
                                                a.terms + b.terms, steps=[a.value, b.value], ends=(a.value, b.value),
                                                percent=a.percent))


class Cagr:
    """Compound annual growth of the question's line item between the first and last fiscal years it names."""

    name = "cagr"

    def applies(self, q: Question) -> bool:
        return _compound(q) and len(set(q.asked.years)) >= 2

    def decide(self, work: Work) -> Decision | None:
        res = work.resolution
        years = sorted(set(res.asked.years))
        old, new = years[0], years[-1]
        if not res.measures or new <= old:
            return None
        lookup: Lookup = work.lookup
        a, b = lookup(res.measures[0], str(old)), lookup(res.measures[0], str(new))
        if a is None or b is None or a.label != b.label or a.value <= 0 or b.value <= 0:
            return None
        n = new - old
        rate = ((b.value / a.value) ** (1 / n) - 1) * 100
        text = (f"({fmt(b.value)} [{b.marker}] / {fmt(a.value)} [{a.marker}])^(1/{n}) - 1 = {rate:.2f}% a year "
                f"({b.label}, {b.column} vs {a.column})")
        return _computed(self.name, Computation("cagr", round(rate, 4), text, [b, a]))


class Formula:
    """A metric the question defines or names (``formulas.solve``: "defined as: FY2019 revenue / (average PP&E
    between FY2018 and FY2019)", working capital ratio, margins, 3-year averages), as the filing reports it when
    a row is that ratio, else computed; a question without a year gets the newest year the tables show."""

    name = "formula"

    def applies(self, q: Question) -> bool:
        return q.formula is not None and not _compound(q)

    def decide(self, work: Work) -> Decision | None:
        q, res = work.question, work.resolution
        solved = (None if q.averaged else reported(q, work.sources, work.calendar, res.asked, None)) or solve(
            q, work.lookup, newest_year(work.sources, work.calendar, res))
        if solved is None:
            return None
        shown = " ".join(f"[{m}]" for m in sorted({t.marker for t in solved.terms}))
        note = ""
        if solved.year_end is not None:
            averaged = next((t for t in solved.terms if t not in solved.year_end.terms), None)
            what = f"average {averaged.label}" if averaged else "average balances"
            alt = solved.year_end
            value = (f"{alt.value:.2f}%" if alt.percent else f"{alt.value:.4f}" if abs(alt.value) < 1
                     else f"{alt.value:.2f}")
            note = (f"one of two common definitions: this divides by the {what} (opening and closing); on the "
                    f"year-end balance it is {value} ({alt.text.rsplit(' = ', 1)[0]}): the question does not say "
                    "which")
        return _computed(self.name, Computation("formula", solved.value, f"{solved.text} (cells from {shown})",
                                                solved.terms, note, solved.steps, percent=solved.percent))


class PairRatio:
    """"X as a % of Y", "ratio of X to Y", "X divided by Y" of two line items, for the year asked (the newest the
    tables show when none)."""

    name = "ratio"

    def applies(self, q: Question) -> bool:
        return q.pair is not None and not _compound(q)

    def decide(self, work: Work) -> Decision | None:
        q, res = work.question, work.resolution
        assert q.pair is not None
        like = res.asked
        year = str(like.fiscal_year) if like.fiscal_year else newest_year(work.sources, work.calendar, res)
        of_part = _segment_share(q)
        if of_part:  # "what share of worldwide sales came from the MedTech segment": the whole's item, the part's over
            # the company's
            whole = cell_lookup(work.sources, work.calendar, like, q.words, "")
            num, den = work.lookup(q.pair[1], year), whole(q.pair[1], year)
        else:
            num, den = work.lookup(q.pair[0], year), work.lookup(q.pair[1], year)
        if num is None or den is None or den.value == 0:
            return None
        part = in_scale_of(num, den)  # the part in the whole's scale
        ratio = part / den.value
        if num.label == den.label and abs(ratio - 1) < 1e-3:
            return None  # a figure over itself: the part asked was not found apart from the whole
        if not of_part and not _names_part(q.pair[0], q.pair[1], num):
            return None  # "Domestic online revenue" is not the row "Total Domestic revenue"
        pct = q.pair_percent
        result = ratio * 100 if pct else ratio
        shown = f"{result:.2f}%" if pct else f"{result:.2f}"
        text = (f"{num.label} ({num.column}) {fmt(part)} [{num.marker}] / {den.label} "
                f"({den.column}) {fmt(den.value)} [{den.marker}]" + (" x 100" if pct else "") + f" = {shown}")
        return _computed(self.name, Computation("ratio", round(result, 4), text, [num, den], percent=pct))


_PART_WORDS = 6
_PART_GENERIC = frozenset({"segment", "segments", "business", "worldwide", "consolidated", "company", "group"})
_PART_GENERIC_STEMS = frozenset(stems(" ".join(_PART_GENERIC)))


def _segment_share(q: Question) -> bool:
    """Whether a pair's part is the part of the company the question names and nothing else ("the MedTech segment",
    "its Cloud business"): the share is the whole's item for that part over the company's."""
    if not q.segment or q.pair is None:
        return False
    named = stems(q.segment)
    return bool(named) and not (stems(q.pair[0]) - named - _PART_GENERIC_STEMS) and not (
        named & stems(q.pair[1]))


def _names_part(part: str, whole: str, found: Term) -> bool:
    """Whether the cell found for the part of a share is that part: a part the vocabulary does not know as a line
    item of its own ("Domestic online revenue", "net service sales") is told from its whole by its other words, and
    each of them must be in the cell's row or column ("Net service sales"; not "Total Domestic revenue"). A part
    read as a long run of the question's words (more than ``_PART_WORDS``) is not a name to hold a row to."""
    if canonical(part) in vocabulary().items or len(part.split()) > _PART_WORDS:
        return True
    told = {w for w in stems(part) - stems(whole) if w not in _PART_GENERIC}
    return told <= stems(f"{found.label} {found.column}")


class Growth:
    """Growth (a percentage) or difference of one line item between the two newest years the question names (or,
    asked year over year, its one year and the year before). Not for a ratio of two items, a metric the question
    defines (its change is ``MetricChange``'s: one of its terms is not it) or a compound rate: those are their own
    kinds."""

    name = "growth"

    def applies(self, q: Question) -> bool:
        return (q.growth and q.pair is None and q.formula is None and not _compound(q)
                and (len(set(q.asked.years)) >= 2 or len(q.asked.instants) >= 2
                     or (q.year_over_year and len(set(q.asked.years)) == 1 and not q.asked.instants
                         and q.ranking is None)))  # "which region had the biggest drop year over year" ranks parts

    def decide(self, work: Work) -> Decision | None:
        q, res = work.question, work.resolution
        if not res.measures:
            return None
        if len(res.asked.instants) >= 2:
            ends = _balances(res)
            if ends is None:
                return None
            old, new = ends
        else:
            years = sorted(set(res.asked.years))
            if len(years) == 1:  # year over year: the same period a year before
                years = [years[0] - 1, years[0]]
            new_y, old_y = years[-1], years[-2]
            found_new, found_old = work.lookup(res.measures[0], str(new_y)), work.lookup(res.measures[0], str(old_y))
            if found_new is None or found_old is None:
                return None
            new, old = found_new, found_old
        if new.label != old.label:
            return None
        diff = new.value - old.value
        if q.growth_percent:
            if old.value == 0:
                return None
            growth = diff / abs(old.value) * 100
            text = (f"({fmt(new.value)} [{new.marker}] - {fmt(old.value)} [{old.marker}]) / {fmt(abs(old.value))} "
                    f"x 100 = {growth:.2f}% ({new.label}, {new.column} vs {old.column})")
            return _computed(self.name, Computation("growth", round(growth, 4), text, [new, old],
                                                    ends=(old.value, new.value)))
        text = (f"{fmt(new.value)} [{new.marker}] - {fmt(old.value)} [{old.marker}] = {fmt(diff)} "
                f"({new.label}, {new.column} vs {old.column})")
        return _computed(self.name, Computation("difference", round(diff, 4), text, [new, old],
                                                ends=(old.value, new.value)))


def _balances(res: Resolution) -> tuple[Term, Term] | None:
    """(oldest, newest) of the resolved balances at the first and last dates a question names ("from January 28,
    2023 to July 29, 2023"), as terms; None unless both dates have a cell of the first measure."""
    first, last = min(res.asked.instants), max(res.asked.instants)
    cells = [c for c in res.cells if c.item == res.measures[0] and c.period is not None and c.period_fit >= 0.99]

    def at(d: date) -> Cell | None:  # its column's date, or a bare year's column the resolver fitted to the date
        return next((c for c in cells if c.period is not None and (
            abs((c.period.end - d).days) <= 7 if c.period.end is not None else c.period.year == d.year)), None)

    a, b = at(first), at(last)
    if a is None or b is None or a is b:
        return None
    return Term(a.item, a.row, a.column, a.value, a.marker), Term(b.item, b.row, b.column, b.value, b.marker)


def rounded(comp: Computation, places: int) -> Computation:
    """The computation with its result also shown rounded as the question asks ("round to one decimal place")."""
    percent = f"{comp.result:.2f}%" in comp.text
    shown = f"{comp.result:,.{places}f}{'%' if percent else ''}"
    return Computation(comp.kind, comp.result, f"{comp.text}; rounded to {places} decimal place"
                       f"{'s' if places != 1 else ''}: {shown}", comp.cells, comp.definition_note, comp.steps,
                       comp.ends, comp.percent)


def compute(question: Question, sources: Sequence[TableSource], calendar: Calendar | None = None,
            resolution: Resolution | None = None) -> Computation | None:
    """The computation the question asks for: the first of ``kinds.COMPUTATIONS`` that decides, rounded as the
    question asks; None when no kind applies or the cells are not all found."""
    from engine.ask.decisions import first_decision
    from engine.ask.kinds import COMPUTATIONS

    if not sources:
        return None
    res = resolution or resolve(question, sources, calendar)
    decision = first_decision(COMPUTATIONS, Work(question, sources, calendar, res))
    comp = decision.computation if decision is not None else None
    if comp is None or question.rounding is None:
        return comp
    return rounded(comp, question.rounding)

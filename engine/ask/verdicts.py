"""Verdicts decided in code from resolved cells: Yes or No on a change, a sign, a series, a trend or a tolerance;
which of several items ranks first; that a metric does not suit the company.

Each is a small class with ``applies(question)`` and ``decide(work)``; ``kinds.VERDICTS`` is their order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import date

from engine.ask.cells import (
    CONFIDENT_ROW,
    NOT_A_PART,
    STATED_CHANGE,
    TOTAL_ROW,
    Cell,
    TableSource,
    best_cell,
    change_columns,
    column_cells,
    column_cells_at,
    column_of,
    header_names,
    row_fit,
    table_cells,
    unmarked,
)
from engine.ask.computations import compute, metric_at, newest_year
from engine.ask.decisions import Computation, Decision, Work
from engine.ask.formulas import Lookup, Result, Term, as_spent, evaluate, formula_items, shown_value, spent_sign
from engine.ask.question import Measure, Question, measure_of, phrase
from engine.ask.statements import stems
from engine.periods import Asked, Calendar, column_period, fiscal_year_period, matches
from engine.vocabulary import Section, breakdown_title, judgements, names_place, narrative, sections, unusual_items
from engine.vocabulary import item as vocabulary_item

SIGNIFICANT_CHANGE = 0.05
"""A move between two of the periods reported that a yes/no question about a "significant change" counts as one:
5% of the lower amount (the rule of thumb for a quantitatively material amount, SEC Staff Accounting Bulletin
No. 99)."""
_STATEMENT_NAMES = {"income": "income statement", "balance": "balance sheet", "cash_flow": "cash flow statement"}


def _yes(yes: bool) -> str:
    return "Yes" if yes else "No"


class ChangeVerdict:
    """Yes or No on a change of one line item between two periods whose cells were resolved ("Was there any drop
    in cash between FY2023 and Q2 of FY2024?")."""

    name = "change"

    def applies(self, q: Question) -> bool:
        # a metric the question defines or names ("net earnings as a percent of sales") is the trend's to decide
        return q.yes_no and bool(q.direction) and q.formula is None

    def decide(self, work: Work) -> Decision | None:
        res, calendar, q = work.resolution, work.calendar, work.question
        if len(res.cells) < 2 or res.cells[0].item != res.cells[1].item:
            return None
        a, b = res.cells[0], res.cells[1]
        if a.period is None or b.period is None or a.row_fit < CONFIDENT_ROW or b.row_fit < CONFIDENT_ROW:
            return None
        if min(a.period_fit, b.period_fit) < 0.99:
            return None

        def when(c: Cell) -> tuple[int, int, int]:
            p = c.period
            assert p is not None
            return (p.end.year, p.end.month, p.end.day) if p.end else (p.year or 0, 12, 31)

        old, new = sorted((a, b), key=when)
        if when(old) == when(new):
            return None
        went_down, went_up = new.amount < old.amount, new.amount > old.amount
        yes = {"down": went_down, "up": went_up, "any": went_down or went_up}[q.direction]
        change = f", {(new.amount - old.amount) / abs(old.amount) * 100:+.1f}%" if old.amount else ""
        text = (f"{_yes(yes)}. {new.row} went from {old.shown} ({old.period_name(calendar)}) to {new.shown} "
                f"({new.period_name(calendar)}){change} [{new.marker}].")
        return Decision(self.name, text, yes, (old.amount, new.amount), ends=(old.value, new.value))


class SignVerdict:
    """Yes or No on whether an amount is positive or negative ("Does Corning have positive working capital based
    on FY2022 data?"): the metric computed from cells, else the resolved cell of the period asked."""

    name = "sign"

    def applies(self, q: Question) -> bool:
        return q.yes_no and bool(q.sign)

    def decide(self, work: Work) -> Decision | None:
        res, comp = work.resolution, work.computation
        if comp is not None and comp.kind == "formula":
            value, what = comp.result, comp.text
        elif res.cells and res.cells[0].row_fit >= CONFIDENT_ROW and res.cells[0].period_fit >= 0.99:
            c = res.cells[0]
            value, what = c.amount, f"{c.row}: {c.shown} ({c.period_name(work.calendar)}) [{c.marker}]"
        else:
            return None
        sign = "positive" if value > 0 else "negative" if value < 0 else "zero"
        yes = sign == work.question.sign
        return Decision(self.name, f"{_yes(yes)}. {what}: {sign}.", yes, (value,))


class ThresholdVerdict:
    """Yes or No on whether a figure is above or below an amount the question states ("Did net sales exceed $10
    billion in FY2022?", "Was capex under $500 million?"): the resolved cell of the period asked, compared in
    code with the amount, scale applied."""

    name = "threshold"

    def applies(self, q: Question) -> bool:
        return q.yes_no and q.threshold is not None

    def decide(self, work: Work) -> Decision | None:
        res, q, comp = work.resolution, work.question, work.computation
        assert q.threshold is not None
        side, amount, said = q.threshold
        if comp is not None and (comp.kind in ("ratio", "formula") or comp.kind == "growth" and comp.percent):
            value, percent = comp.result, comp.percent or "%" in said
            if not comp.percent and percent:
                value *= 100  # a ratio of 0.556 set against "50%" or "half"
            named = q.ratio[0] if q.ratio else "the ratio"
            yes = _beyond(value, side, amount)
            return Decision(self.name, f"{_yes(yes)}. {named[:1].upper()}{named[1:]}: {value:.2f}"
                            f"{'%' if percent else ''}, {_relation(value, amount)} {said}.", yes, (comp.result,))
        if not res.cells:
            return None
        c = res.cells[0]
        if c.row_fit < CONFIDENT_ROW or c.period_fit < 0.99 or c.percent:
            return None
        value = as_spent(c.item, c.row, c.amount)
        yes = _beyond(value, side, amount)
        text = (f"{_yes(yes)}. {c.row}: {c.shown} ({c.period_name(work.calendar)}) [{c.marker}], "
                f"{_relation(value, amount)} {said}.")
        return Decision(self.name, text, yes, (c.amount,))


def _beyond(value: float, side: str, amount: float) -> bool:
    """Whether ``value`` is on the ``side`` of ``amount`` a question asks ("at least" and "at most" take it equal)."""
    return {"above": value > amount, "below": value < amount, "at least": value >= amount,
            "at most": value <= amount}[side]


def _relation(value: float, amount: float) -> str:
    return "above" if value > amount else "below" if value < amount else "equal to"


class SeriesVerdict:
    """Yes or No on how one line item moved over the periods a filing reports ("Has there been any significant
    change in operating expenses over the reported quarters?", "Can any consistent trends be identified in Data
    Center revenue across the reported periods?"): the resolved row's cells for every period of the same length,
    oldest first. A trend is every step in one direction; a significant change is ``SIGNIFICANT_CHANGE`` or more
    from the first period to the last."""

    name = "series"

    def applies(self, q: Question) -> bool:
        return q.yes_no and q.over_periods and q.trend != q.shift

    def decide(self, work: Work) -> Decision | None:
        res, q, calendar = work.resolution, work.question, work.calendar
        if not res.cells:
            return None
        top = res.cells[0]
        if top.row_fit < CONFIDENT_ROW or top.period is None:
            return None
        if q.segment and not top.part and not all(re.search(rf"\b{re.escape(w)}", top.row, re.I)
                                                  for w in q.segment.split()):
            return None  # "Data Center segment revenue" resolved to the company's total revenue: not what is asked
        months = top.period.months
        row = {c.period.end or date(c.period.year or 1, 12, 31): c for c in res.candidates
               if c.marker == top.marker and c.row == top.row and c.period is not None
               and c.period.months == months and (c.period.end is not None or c.period.year)}
        points = [row[k] for k in sorted(row)]
        return series_decision(self.name, q, top, points, [c.period_name(calendar) for c in points])


def series_decision(name: str, q: Question, top: Cell, points: Sequence[Cell],
                    periods: Sequence[str]) -> Decision | None:
    """Yes or No on how one line item moved over its ``points`` (oldest first, each period named in ``periods``):
    a trend is every step in one direction; a significant change is a move of ``SIGNIFICANT_CHANGE`` or more
    between any two of the periods (from the lowest to the highest: a rise that later eases is still a change
    over the periods); any change, without "significant"."""
    if len(points) < 2 or points[0].amount == 0:
        return None
    sign = spent_sign(top.item, [c.amount for c in points])  # expenses printed (472)
    amounts = [sign * c.amount for c in points]
    steps = [b - a for a, b in zip(amounts, amounts[1:], strict=False)]
    total = (amounts[-1] - amounts[0]) / abs(amounts[0])
    low = min(amounts, key=abs)
    spread = (max(amounts) - min(amounts)) / abs(low) if low else float("inf")
    if q.trend:
        yes = len(steps) >= 2 and (all(x > 0 for x in steps) or all(x < 0 for x in steps)) or (
            len(steps) == 1 and not q.notable and not q.consistent and steps[0] != 0)
    else:
        yes = spread >= SIGNIFICANT_CHANGE if q.notable else any(x != 0 for x in steps)
    series = ", ".join(f"{c.shown} ({when})" for c, when in zip(points, periods, strict=True))
    moved = f"; the highest {spread * 100:.1f}% above the lowest" if q.notable and not q.trend and low else ""
    text = (f"{_yes(yes)}. {top.label}: {series}; {total * 100:+.1f}% from the first to the last{moved} "
            f"[{top.marker}].")
    return Decision(name, text, yes, tuple(c.amount for c in points),
                    dated=tuple((c.period, c.amount) for c in points if c.period is not None))


class RankingVerdict:
    """Which of the line items a question lists is the largest or smallest ("Among operations, investing, and
    financing activities, which brought in the most (or lost the least) cash flow in FY2023?"): each item's cell
    for the year asked (the newest the tables show when none), all of them or no verdict. An item the list
    names by a word of its own ("investing") is the vocabulary's "cash from investing" when the question is
    about cash; "lost the most" ranks the other way."""

    name = "ranking"

    def applies(self, q: Question) -> bool:
        return q.ranking is not None and bool(q.ranking.names)

    def decide(self, work: Work) -> Decision | None:
        q, res, calendar, sources = work.question, work.resolution, work.calendar, work.sources
        ranking = q.ranking
        assert ranking is not None
        names = ranking.names
        tail = " ".join(names[-1].split()[1:]) if len(names[-1].split()) > 1 else ""
        found: list[tuple[str, Cell]] = []
        year = res.asked.fiscal_year or (int(y) if (y := newest_year(sources, calendar, res)) else None)
        # a period named by its date ("the six months ended July 29, 2023"): that column or none
        dated = res.asked.end is not None or res.asked.instant is not None
        for name in names:
            bare = name[: -len(tail)].strip() if tail and name.endswith(tail) else name
            tries = [name, f"{bare} {tail}".strip()] + ([f"cash from {bare}", f"cash from {bare} {tail}".strip()]
                                                        if ranking.cash else [])
            it = next((i for t in tries if (i := vocabulary_item(t)) is not None), None)
            if it is None:
                return None
            c = best_cell(it.name, year, sources, calendar, res.asked, q.words)
            if c is None or c.row_fit < CONFIDENT_ROW:
                return None  # (best_cell keeps only columns of the year asked)
            if dated and (c.period is None or matches(res.asked, c.period, calendar) < 0.99):
                return None
            found.append((name, c))
        if len(found) < 2 or len({c.row for _, c in found}) < len(found):
            return None
        pick = max if ranking.highest else min
        name, top = pick(found, key=lambda nc: nc[1].amount)
        others = "; ".join(f"{n}: {c.shown} ({c.row}) [{c.marker}]" for n, c in found if c is not top)
        text = (f"{name[:1].upper()}{name[1:]}: {top.shown} ({top.row}, {top.period_name(calendar)}) [{top.marker}], "
                f"the {'highest' if ranking.highest else 'lowest'} of the {len(found)}; {others}.")
        return Decision(self.name, text, None, tuple(c.amount for _, c in found), choice=name)


class BreakdownRankingVerdict:
    """Which part of a kind ranks first where the question lists none ("Which geographic region had the biggest drop
    in Q2 2023 revenues?", "Which segment grew the most in fiscal 2023?"): the first retrieved table whose title
    names a breakdown of that kind (the vocabulary's ``[breakdowns]``) and whose total row, or title, is the
    question's measure; its other rows ranked by the amount of the period asked, or by their change from the same
    period a year before (in percent; the change in amount is shown beside it). No table of that kind with the
    period asked (and the year before, for a change) and two parts or more: no verdict."""

    name = "breakdown ranking"

    def applies(self, q: Question) -> bool:
        return (q.ranking is not None and not q.ranking.names and not q.ranking.section
                and (bool(q.measures) or q.ranking.by_change))

    def decide(self, work: Work) -> Decision | None:
        q, asked = work.question, work.resolution.asked
        ranking = q.ranking
        assert ranking is not None
        if asked.fiscal_year is None and asked.end is None:
            return None  # no period asked: a breakdown ranks one period's parts
        before = q.shifted(-1).asked  # the same period a year before
        measure = _ranked_measure(q)
        flow = measure.item is not None and not measure.item.balance
        # the title says what the rows are ("Geographic Information", "Net sales by segment"); of several, the one
        # sharing more of the question's words ("domestic") first
        titles = [str(s.table.get("title", "")) for s in work.sources]
        # no title names the kind ("Operating Income (Loss)" over North America, International, AWS and
        # Consolidated): the one table titled by the measure itself, its total among its rows, breaks the measure
        # down; two such tables (net sales by segment and by product line) are breakdowns the kind cannot tell apart
        measured = [i for i, t in enumerate(titles) if header_names(t, measure.names)
                    and any(TOTAL_ROW.match(str(r.get("label", ""))) for r in work.sources[i].table.get("rows", []))]
        # no title names the regions: the tables whose rows name places ("Americas", "EMEA", "Asia")
        placed = [i for i, s in enumerate(work.sources) if _placed(s)] if ranking.breakdown == "region" else []
        order = q.breakdown_order(titles) or placed or (measured if len(measured) == 1 else [])
        for i in order:
            s = work.sources[i]
            found = self._by_amounts(s, work, asked, before, flow)
            if found is None and ranking.by_change:
                found = self._by_stated_change(s, work, asked)
            if found is not None:
                return found
        return None

    def _parts(self, s: TableSource, work: Work, i: int) -> list[Cell] | None:
        """The parts of column ``i`` of a breakdown of the question's measure (its total row, or the title or the
        column heading, names it); None when the table breaks down another measure."""
        q = work.question
        measure = _ranked_measure(q)
        at = column_cells_at(s, i, measure.name)
        cells = [c for _, c in at]
        totals = [c for c in cells if row_fit(measure, c.row, set(q.stems)) >= CONFIDENT_ROW]
        title = str(s.table.get("title", ""))
        if not totals and not header_names(title + " " + cells[0].column if cells else title, measure.names):
            return None  # a breakdown of another measure (segment earnings, not sales)
        if len({c.row for c in totals}) < len(totals):  # the measure's line in each part's block
            return [c for c in _blocks(s, i, measure, q) if not NOT_A_PART.match(c.row)]
        block = {j for j, _ in _block_of(at, [(j, c) for j, c in at if c in totals or TOTAL_ROW.match(c.row)],
                                         measure, q)}
        return [c for j, c in at if j in block and c not in totals and not NOT_A_PART.match(c.row)
                and vocabulary_item(c.row) is None]

    def _by_amounts(self, s: TableSource, work: Work, asked: Asked, before: Asked, flow: bool) -> Decision | None:
        """The parts ranked by their amounts in the period asked, or by their change from the year before."""
        ranking, measure = work.question.ranking, _ranked_measure(work.question)
        assert ranking is not None
        now = column_of(s, asked, work.calendar, flow, measure.names)
        then = column_of(s, before, work.calendar, flow, measure.names, now) if ranking.by_change else None
        if now is None or (ranking.by_change and then is None):
            return None
        found = self._parts(s, work, now)
        if found is None:
            return None
        # the year before of each row (its amount: the first, not a later block's growth rate or mix), and of each
        # block of a table in blocks (named by its heading)
        old: dict[str, Cell] = {}
        q = work.question
        earlier = [*column_cells(s, then, measure.name), *_blocks(s, then, measure, q)] if then is not None else []
        for c in earlier:
            if not c.percent:
                old.setdefault(c.row, c)
        parts = [c for c in found if not c.percent and (then is None or c.row in old)]
        # a subtotal of the others ("Segment earnings before tax") is not a part
        parts = [c for c in parts if not _sums(c, [o for o in parts if o is not c])]
        if len(parts) < 2 or len({c.row for c in parts}) < len(parts):
            return None  # a label twice: blocks of several breakdowns ("U.S.", "International" under each product)
        if ranking.turned:
            return _turned(self.name, ranking.turned, parts, old, ranking.breakdown, work)
        return _ranked(self.name, ranking.highest, parts, old, ranking.breakdown, work, in_amount=ranking.in_amount)

    def _by_stated_change(self, s: TableSource, work: Work, asked: Asked) -> Decision | None:
        """The parts ranked by the change the table itself states for the period asked, in percent: a column
        whose heading says it is a change and names the period ("Comparable Sales Three Months Ended July 29,
        2023" beside the revenue mix; "% Change 2023"), where the table gives no amounts of the year before."""
        ranking = work.question.ranking
        assert ranking is not None
        for i in change_columns(s, asked, work.calendar):
            found = self._parts(s, work, i)
            parts = [c for c in found or [] if c.percent]
            stated = STATED_CHANGE.search(str(s.table["columns"][i]))  # what ``change_columns`` found it by
            if stated and len(parts) >= 2 and len({c.row for c in parts}) == len(parts):
                return _ranked(self.name, ranking.highest, parts, {}, ranking.breakdown, work,
                               stated=stated.group(0).lower())
        return None


class SectionRankingVerdict:
    """The largest or smallest line of a class of a statement's lines ("What was the largest liability on Amazon's
    balance sheet as of June 30, 2023?"): the first retrieved table that is the class's statement (the vocabulary's
    ``[sections]``), its column of the date asked (the newest when none is asked), and the lines of the section in it
    (current and long-term alike; the totals and subtotals are none), ranked by amount. A line named twice (a
    current and a non-current "Debt securities") is told with the block it sits in. Fewer than two lines, or no
    column of the date asked: no verdict."""

    name = "section ranking"

    def applies(self, q: Question) -> bool:
        return q.ranking is not None and bool(q.ranking.section)

    def decide(self, work: Work) -> Decision | None:
        ranking, asked = work.question.ranking, work.resolution.asked
        assert ranking is not None
        section = sections()[ranking.section]
        for s in work.sources:
            if s.statement != section.statement:
                continue
            i = _asked_column(s, asked, work.calendar)
            if i is None:
                continue
            rows = [r if isinstance(r, dict) else {} for r in s.table.get("rows", [])]
            labels = [str(r.get("label", "")).strip() for r in rows]
            totals = [any(isinstance(n, int | float) for n in r.get("numbers") or []) for r in rows]
            lines = set(section.rows(labels, totals))
            if ranking.current:
                lines = _in_block(section, labels, totals, lines, ranking.current == "current")
            found = [(j, c) for j, c in column_cells_at(s, i, section.name) if j in lines and not c.percent]
            closes = _subtotals(found)  # "Non-current assets" under its lines: no line of its own
            found = [(j, c) for j, c in found if j not in closes]
            twice = {x for x in labels if sum(labels[j] == x for j, _ in found) > 1}
            # a line named twice is told with its block: its heading or subtotal the section names, else the
            # subtotal that closes it
            blocks = {j: section.block(labels, totals, j) or next((labels[k] for k in sorted(closes) if k > j),
                                                                  "").strip(" :") for j, c in found if c.row in twice}
            parts = [replace(c, row=f"{c.row} ({blocks[j]})") if blocks.get(j) else c for j, c in found]
            if len(parts) >= 2:
                kind = f"{ranking.current} {section.asked[0]}".strip()  # "current liability"
                return _ranked(self.name, ranking.highest, parts, {}, kind, work)
        return None


class BreakdownListing:
    """The parts of a breakdown a question asks to be listed, none ranked ("What geographic regions does Alphabet
    break its revenue into, and how much came from each in 2021?", "What are the geographies it operates in?"):
    the first retrieved table whose title names a breakdown of that kind (the vocabulary's ``[breakdowns]``) and,
    where the question names a measure, whose total row or title is that measure; its rows in the column of the
    period asked (the newest when none is asked), each with its share of the total row where the table has one.
    A question asking in words about the parts (what each offers, what was acquired, what a filer describes as
    regulated) is no listing: its quotes answer it; nor is a kind as loose as "business"."""

    name = "listing"
    KINDS = ("region", "segment", "category")
    """The kinds of part a listing names: a "business" is as often a product line or an acquisition as a part."""

    def applies(self, q: Question) -> bool:
        return q.listing in self.KINDS and q.ranking is None and not q.narrative

    def decide(self, work: Work) -> Decision | None:
        q, asked = work.question, work.resolution.asked
        measure = q.measures[0] if q.measures else None
        flow = measure is not None and measure.item is not None and not measure.item.balance
        kind = breakdown_title(q.listing)
        # titled by the kind first, then those whose lead-in names it ("revenues disaggregated by geography"); a
        # primary statement is no breakdown, whatever the text above it says ("... by segment" before the income
        # statement's taxes and equity-method lines)
        titled = [s for s in work.sources if kind.search(s.titles)]
        led = [s for s in work.sources if s not in titled and kind.search(s.heading) and not s.statement]
        placed = [s for s in work.sources if s not in titled and s not in led and q.listing == "region" and _placed(s)]
        best: tuple[float, Decision] | None = None
        asked_measure = measure
        for s in [*titled, *led, *placed]:
            i = _asked_column(s, asked, work.calendar, flow)
            if i is None:
                continue
            # no measure asked ("What are its reportable segments?") of a table in blocks: the parts are the blocks'
            # headings, each with its first line ("North America" over "Net sales", "Operating expenses", ...)
            measure = asked_measure or _block_line(s, i)
            every = column_cells_at(s, i, measure.name if measure else q.listing)
            # amounts, else the shares a table gives instead ("Revenues by Geography": 47%, 29%, ...)
            cells = [jc for jc in every if not jc[1].percent] or every
            totals = [(j, c) for j, c in cells if TOTAL_ROW.match(c.row)
                      or (measure is not None and row_fit(measure, c.row, set(q.stems)) >= CONFIDENT_ROW)]
            if measure is not None and not totals and not header_names(s.titles, measure.names):
                continue  # a breakdown of another measure
            if measure is not None and len({c.row for _, c in totals}) < len(totals):
                # the measure's line under each part's heading: the parts are the blocks, not the rows
                blocks = _blocks(s, i, measure, q)
                totals = [(-1, c) for c in blocks if TOTAL_ROW.match(c.row)]
                parts = [c for c in blocks if not NOT_A_PART.match(c.row)]
            else:
                cells = _block_of(cells, totals, measure, q)
                totals = [jc for jc in totals if jc in cells]
                parts = [c for jc in cells if jc not in totals and not NOT_A_PART.match((c := jc[1]).row)
                         and vocabulary_item(c.row) is None]
            if len(parts) < 2 or len({c.row for c in parts}) < len(parts):
                continue
            total = totals[0][1] if totals and totals[0][1].value and not totals[0][1].percent else None
            said = [f"{unmarked(c.row)} {c.shown}" + (f" ({c.value / total.value * 100:.0f}% of "
                                                      f"{unmarked(total.row)})" if total else "") for c in parts]
            by = f", by {measure.name}" if measure is not None and asked_measure is None else ""
            text = (f"The {len(parts)} {_plural(q.listing)} in the table [{parts[0].marker}] "
                    f"({parts[0].period_name(work.calendar)}{by}): " + "; ".join(said) + ".")
            decision = Decision(self.name, text, None, tuple(c.amount for c in parts),
                                among=tuple(unmarked(c.row) for c in parts))
            # of the breakdowns found, the one whose total is the measure itself ("Total revenue") before one of a
            # qualified measure that also fits it ("Total subscription revenue"); else the first retrieved
            fit = max((row_fit(measure, c.row, set(q.stems)) for _, c in totals), default=0.0) if measure else 0.0
            if best is None or fit > best[0]:
                best = (fit, decision)
        return best[1] if best is not None else None


def _in_block(section: Section, labels: Sequence[str], totals: Sequence[bool], lines: set[int],
              current: bool) -> set[int]:
    """The ``lines`` of a statement's section in its current block (``current``), or in the rest: a line is current
    above the statement's "Total current ..." row where it prints one (US GAAP), else where the block its heading or
    subtotal names is current ("Current liabilities" under an IFRS block)."""
    low = [" ".join(x.lower().split()) for x in labels]
    total = next((k for k, x in enumerate(low) if x.startswith("total current") and any(a in x for a in section.asked)),
                 None)

    def is_current(j: int) -> bool:
        return j < total if total is not None else section.block(labels, totals, j).lower().startswith("current")

    return {j for j in lines if is_current(j) == current}


def _subtotals(lines: Sequence[tuple[int, Cell]]) -> set[int]:
    """The rows (indexes) among a section's lines, in the statement's order, that sum the lines since the last such
    row (two at least, to half a percent): the subtotal a statement prints under its block ("Non-current assets"
    under receivables and derivative assets in an IFRS balance sheet)."""
    out: set[int] = set()
    block: list[Cell] = []
    for j, c in lines:
        if _sums(c, block):
            out.add(j)
            block = []
        else:
            block.append(c)
    return out


def _placed(s: TableSource) -> bool:
    """Whether a table's rows name two places or more (the vocabulary's ``[places]``): a breakdown by region whatever
    its title ("in millions" over "Americas", "EMEA", "Asia")."""
    return sum(1 for r in s.table.get("rows", []) if isinstance(r, dict)
               and names_place(str(r.get("label", "")))) >= 2


def _block_line(s: TableSource, i: int) -> Measure | None:
    """Of a table in blocks (two or more headings without figures, each over lines the vocabulary knows: "North
    America" over "Net sales" and "Operating income"), the line item first under the first heading, with a figure in
    column ``i``; None for a table of another layout."""
    heads, first = 0, None
    head = False
    for row in s.table.get("rows", []):
        if not isinstance(row, dict):
            continue
        label = str(row.get("label", "")).strip()
        numbers = row.get("numbers") or []
        if label and not any(isinstance(x, int | float) for x in numbers):
            head = True
            continue
        if head and i < len(numbers) and isinstance(numbers[i], int | float) and (
                m := measure_of(label)).item is not None:
            heads += 1
            first = first or m
        head = False
    return first if heads >= 2 else None


def _blocks(s: TableSource, i: int, measure: Measure, q: Question) -> list[Cell]:
    """Of a table in blocks, each part's heading over its lines ("Americas:" over "Net sales" and "Operating income";
    "Asset & Wealth Management" over its net revenues and pre-tax earnings), the measure's line of each block in
    column ``i``, named by the block's heading; [] where fewer than two blocks give it."""
    cells = dict(column_cells_at(s, i, measure.name))
    head, out = "", list[Cell]()
    for j, row in enumerate(s.table.get("rows", [])):
        if not isinstance(row, dict):
            continue
        label = str(row.get("label", "")).strip()
        if label and not any(isinstance(x, int | float) for x in row.get("numbers") or []):
            head = label.rstrip(":").strip()
            continue
        c = cells.get(j)
        if c is not None and head and all(o.row != head for o in out) and not c.percent \
                and row_fit(measure, c.row, set(q.stems)) >= CONFIDENT_ROW:
            out.append(replace(c, row=head))
    return out if len(out) >= 2 else []


def _block_of(cells: list[tuple[int, Cell]], totals: list[tuple[int, Cell]], measure: Measure | None,
              q: Question) -> list[tuple[int, Cell]]:
    """Of a table of breakdowns stacked one under another, each closed by its total ("Americas", "EMEA", "Asia",
    "Total net revenues", then the same places and "Total pre-tax earnings"), the rows of the block the measure's
    total closes (from the row after the total before it); the whole table where its parts are named once."""
    labels = [c.row for j, c in cells if (j, c) not in totals]
    if len(set(labels)) == len(labels) or measure is None:
        return cells
    closing = next((j for j, c in totals if row_fit(measure, c.row, set(q.stems)) >= CONFIDENT_ROW), None)
    if closing is None:
        return cells
    start = max((j for j, _ in totals if j < closing), default=-1)
    return [(j, c) for j, c in cells if start < j <= closing]


def _asked_column(s: TableSource, asked: Asked, calendar: Calendar | None, flow: bool = False) -> int | None:
    """The column of the period asked (``column_of``); where the question asks none, the one whose period ends last
    (a balance sheet's newest; of a 10-Q's, the quarter before its year to date)."""
    if asked.fiscal_year is not None or asked.instant is not None or asked.end is not None:
        return column_of(s, asked, calendar, flow)
    dated = [(p.end, -(p.months or 0), -i) for i, col in enumerate(s.table.get("columns", []))
             if (p := column_period(str(col), s.context)) is not None and p.end is not None]
    return -max(dated)[2] if dated else None  # of those ending last, the shortest period, the first


def _ranked_measure(q: Question) -> Measure:
    """What a breakdown ranking ranks the parts by: the measure the question names, else, for a part that "grew the
    fastest", its revenue (what a segment, region or market grows by when nothing else is said), and for one that
    "turned profitable", its operating income (what a segment's profit is)."""
    if q.measures:
        return q.measures[0]
    return measure_of("operating income" if q.ranking is not None and q.ranking.turned else "revenue")


def _turned(name: str, to: str, parts: Sequence[Cell], old: dict[str, Cell], kind: str, work: Work) -> Decision | None:
    """The parts whose figure changed sign to ``to`` ("profit": from below zero to zero or above; "loss": the other
    way) between the year before and the period asked, the largest swing first; None where none did."""
    def swung(c: Cell) -> bool:
        was = old[c.row].value
        return was < 0 <= c.value if to == "profit" else was >= 0 > c.value

    turned = sorted((c for c in parts if swung(c)), key=lambda c: abs(c.value - old[c.row].value), reverse=True)
    if not turned:
        return None
    top = turned[0]
    said = "; ".join(f"{unmarked(c.row)} {old[c.row].shown} to {c.shown}" for c in parts)
    first, then = ("a loss", "a profit") if to == "profit" else ("a profit", "a loss")
    whom = (f"{unmarked(top.row)} is the one" if len(turned) == 1 else
            f"{' and '.join(unmarked(c.row) for c in turned)} are the {len(turned)}")
    text = (f"{whom} of the {len(parts)} {_plural(kind)} in the table [{top.marker}] that went from {first} "
            f"({old[top.row].period_name(work.calendar)}) to {then} ({top.period_name(work.calendar)}): {said}.")
    return Decision(name, text, None, tuple(c.amount for c in parts), choice=unmarked(top.row),
                    among=tuple(unmarked(c.row) for c in parts))


def _plural(word: str) -> str:
    return word[:-1] + "ies" if word.endswith("y") else word + ("es" if word.endswith("s") else "s")


def _sums(c: Cell, others: Sequence[Cell]) -> bool:
    """Whether a cell is the sum of the others (to half a percent): their total, not one of them."""
    total = sum(o.value for o in others)
    return len(others) >= 2 and abs(c.value - total) <= 0.005 * max(abs(c.value), 1.0)


def _ranked(name: str, highest: bool, parts: Sequence[Cell], old: dict[str, Cell], kind: str,
            work: Work, stated: str = "", in_amount: bool = False) -> Decision:
    """The decision of a breakdown ranking: the parts by amount, or (``old``: the same period a year before) by
    their change in percent (``in_amount``: in money), or (``stated``: the change column's heading word) by the
    change the table states, the pick first."""
    def change(c: Cell) -> float:
        if stated:
            return c.value
        o = old[c.row].value
        if in_amount:
            return c.value - o
        return (c.value - o) / abs(o) * 100 if o else float("inf") * (1 if c.value > o else -1)

    moves = bool(old) or bool(stated)
    key = change if moves else (lambda c: c.value)
    ranked = sorted(parts, key=key, reverse=highest)
    top = ranked[0]

    def said(c: Cell) -> str:
        row = unmarked(c.row)
        if stated:
            return f"{row} {change(c):+.1f}%"
        if not old:
            return f"{row} {c.shown}"
        if in_amount:
            moved = replace(c, value=c.value - old[c.row].value).shown
            return f"{row} {'' if moved.startswith('-') else '+'}{moved} ({old[c.row].shown} to {c.shown})"
        return f"{row} {change(c):+.1f}% ({old[c.row].shown} to {c.shown})"

    what = ("largest rise" if highest else "largest drop") if moves else ("highest" if highest else "lowest")
    if moves and highest and change(top) < 0:
        what = "smallest drop"
    elif moves and not highest and change(top) > 0:
        what = "smallest rise"
    when = top.period_name(work.calendar) + (f", against {old[top.row].period_name(work.calendar)}" if old else "")
    when += f", {stated} as the table states it" if stated else ""
    text = (f"{unmarked(top.row)}: the {what} of the {len(parts)} {_plural(kind)} in the table [{top.marker}] "
            f"({when}): " + "; ".join(said(c) for c in ranked) + ".")
    before, percents = _moves(parts, old)
    return Decision(name, text, None, tuple(c.amount for c in parts), choice=unmarked(top.row),
                    among=tuple(unmarked(c.row) for c in ranked), stated=before, percents=percents)


def _moves(parts: Sequence[Cell], old: dict[str, Cell]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """What a ranking against the year before states of each part besides its amount: the amount before and the
    change in money (``Decision.stated``), the change in percent, as computed and to 0 and 1 decimals
    (``Decision.percents``)."""
    stated: list[float] = []
    percents: list[float] = []
    for c in parts:
        if (o := old.get(c.row)) is None:
            continue
        stated += [o.amount, c.amount - o.amount]
        if o.value:
            pct = (c.value - o.value) / abs(o.value) * 100
            percents += [pct, round(pct), round(pct, 1)]
    return tuple(stated), tuple(percents)


class ConsistencyVerdict:
    """Yes or No on whether a metric is consistent within a stated tolerance ("Are gross margins historically
    consistent (not fluctuating more than roughly 2% each year)?"): the metric for each year the tables report,
    newest three, and the largest change from one year to the next."""

    name = "consistency"

    def applies(self, q: Question) -> bool:
        return q.yes_no and q.steady and q.formula is not None and q.tolerance is not None

    def decide(self, work: Work) -> Decision | None:
        q = work.question
        assert q.tolerance is not None
        newest = newest_year(work.sources, work.calendar, work.resolution)
        if not newest:
            return None
        limit, said = q.tolerance
        series: list[tuple[int, Result]] = []
        for y in range(int(newest), int(newest) - 3, -1):
            r = metric_at(work, y)
            if r is not None:
                series.append((y, r))
        series.reverse()
        if len(series) < 2 or any(b[0] - a[0] != 1 for a, b in zip(series, series[1:], strict=False)):
            return None
        steps = [b[1].value - a[1].value for a, b in zip(series, series[1:], strict=False)]
        widest = max(steps, key=abs)
        unit = " percentage points" if series[0][1].percent else ""
        steady = abs(widest) <= limit
        values = "; ".join(f"FY{y}: {r.text}" for y, r in series)
        text = (f"{_yes(steady)}. The largest change from one year to the next is {widest:+.2f}{unit}, "
                f"{'within' if steady else 'more than'} {said} ({values}).")
        return Decision(self.name, text, steady, tuple(r.value for _, r in series),
                        dated=tuple((fiscal_year_period(y), r.value) for y, r in series))


class TrendVerdict:
    """Yes or No on the trend of a computed metric ("Does the company have an improving operating margin profile
    as of FY2022?"): the metric for the year asked and, computed the same way, for the year before, or for every
    year of a span the question names ("improving over 2021-2023": Yes only when each year's step goes that way);
    or, where the question names both periods ("Did net earnings as a percent of sales increase in Q2 of FY2023
    compared to Q2 of FY2022?"), the metric's change between them."""

    name = "trend"

    def applies(self, q: Question) -> bool:
        return q.yes_no and q.direction in {"up", "down"} and q.asked.fiscal_year is not None

    def decide(self, work: Work) -> Decision | None:
        comp, q = work.computation, work.question
        if comp is not None and comp.kind == "change" and comp.ends is not None and comp.ends[0] != comp.ends[1]:
            # the metric was computed for both periods the question names ("in Q2 of FY2023 compared to Q2 of
            # FY2022"): the trend is its change
            old, new = comp.ends
            yes = new > old if q.direction == "up" else new < old
            return Decision(self.name, f"{_yes(yes)}. It went from {old:,.2f} to {new:,.2f} ({comp.text}).", yes,
                            (old, new), ends=(old, new))
        if comp is None or comp.kind != "formula":
            return None
        year = work.resolution.asked.fiscal_year
        assert year is not None
        # "improving over 2021-2023": every year of the span the question names, each step; else the year before
        first = min(q.asked.years) if len(set(q.asked.years)) >= 2 and min(q.asked.years) < year else year - 1
        series: list[tuple[int, Computation]] = []
        for y in range(first, year):
            earlier = compute(q.shifted(y - year), work.sources, work.calendar)
            if earlier is None or earlier.kind != "formula":
                return None  # a year of the span the tables do not give: no verdict on part of it
            series.append((y, earlier))
        series.append((year, comp))
        values = [c.result for _, c in series]
        if any(a == b for a, b in zip(values, values[1:], strict=False)):
            return None
        steps = [b > a if q.direction == "up" else b < a for a, b in zip(values, values[1:], strict=False)]
        yes = all(steps)
        went = " to ".join(f"{c.result:,.2f} for fiscal {y}" for y, c in series)
        text = f"{_yes(yes)}. It went from {went} ({'; '.join(c.text for _, c in series)})."
        return Decision(self.name, text, yes, tuple(values), ends=(values[0], values[-1]),
                        dated=tuple((fiscal_year_period(y), c.result) for y, c in series))


def statement_lookup(work: Work) -> Lookup:
    """A line item's cell for a fiscal year from the tables of the statement that reports it (capex from the cash
    flow statement, never a balance sheet row that shares its words); of the rows the vocabulary lists for it, the
    one listed first ("Property, plant and equipment — net" before the gross "Property, plant and equipment" of the
    same balance sheet). None when no such table has a confident row for the year."""

    def lookup(item: str, year: str) -> Term | None:
        m = measure_of(item)
        if m.item is None:
            return None
        labels = [phrase(x) for x in m.item.labels]
        want = Asked(fiscal_year=int(year), quarter=None, months=None, instant=None, years=(int(year),), text=year)
        found = [c for s in work.sources if s.statement == m.item.statement
                 for c in table_cells(s, [m], want, s.calendar or work.calendar, stems(item))
                 if c.row_fit >= CONFIDENT_ROW and c.period_fit > 0.5]
        if not found:
            return None
        rank = {k: i for i, k in reversed(list(enumerate(labels)))}
        c = min(found, key=lambda c: (rank.get(phrase(c.row), len(labels)), -c.row_fit, -c.period_fit))
        return Term(item, c.row, c.column, as_spent(item, c.row, c.value), c.marker)

    return lookup


class JudgementVerdict:
    """Yes or No on a quality the vocabulary's ``[judgements]`` decide from standard ratios ("Is 3M a
    capital-intensive business based on FY2022 data?": capex / revenue and net PP&E / total assets; "healthy
    liquidity": the current and quick ratios), each computed from the cells of the year asked (the newest the
    tables show when none); the majority of the ratios found decides. A tie decides no Yes or No, and says so with
    the ratios ("capex 6.0% of revenue, below 8%; net PP&E 32% of total assets, above 30%"): the analyst weighs them,
    and the model has them before it. The thresholds and their source are the vocabulary's and are said with the
    verdict."""

    name = "judgement"

    def applies(self, q: Question) -> bool:
        return q.yes_no and bool(q.judgement)

    def decide(self, work: Work) -> Decision | None:
        judged = judgements()[work.question.judgement]
        year = work.resolution.asked.fiscal_year or (int(y) if (y := newest_year(work.sources, work.calendar,
                                                                                  work.resolution)) else None)
        if year is None:
            return None
        said, votes, values = [], [], []
        for ratio in judged.ratios:
            formula = ratio.formula.replace("{year}", f"FY{year}").replace("{prev}", f"FY{year - 1}")
            try:
                value, shown, terms = evaluate(formula, str(year), statement_lookup(work))
            except (LookupError, ValueError, ZeroDivisionError):
                continue
            percent = "* 100" in ratio.formula
            side = "above" if ratio.yes_above else "below"
            markers = "".join(f"[{m}]" for m in dict.fromkeys(t.marker for t in terms))
            said.append(f"{ratio.name} FY{year}: {shown} = {shown_value(value, percent)} {markers} (Yes {side} "
                        f"{ratio.threshold:g}{'%' if percent else ''})")
            votes.append(ratio.says_yes(value))
            values.append(value)
        if not votes:
            return None
        if votes.count(True) * 2 == len(votes):  # a tie decides nothing; the ratios are still the evidence
            return Decision(self.name, f"The {len(votes)} standard ratios disagree: {'; '.join(said)}. Thresholds: "
                            f"{judged.source}.", None, tuple(values))
        yes = votes.count(True) * 2 > len(votes)
        text = f"{_yes(yes)}, by {len(votes)} standard ratio{'s' if len(votes) > 1 else ''}: {'; '.join(said)}. " \
               f"Thresholds: {judged.source}."
        return Decision(self.name, text, yes, tuple(values))


class UnusualItemsVerdict:
    """Yes, with the rows, on whether items outside the ordinary course of business moved a year's income ("Were
    there any events not in its standard business operations that substantially increased net income in 2019?"):
    the income statement's rows of the year asked whose labels report such an item (the vocabulary's
    ``[unusual]``: a gain on a transaction, an impairment, restructuring, discontinued operations), each with its
    effect on income (a gain or a discontinued operation's income raises it; a charge, or a gain printed as a
    negative expense, the other way), in the direction asked. A question about substantial items counts those of
    ``material`` of net income at least. No such row in the direction asked: no verdict (the notes may still name
    one; the model answers from the evidence)."""

    name = "unusual items"

    def applies(self, q: Question) -> bool:
        return q.yes_no and q.unusual

    def decide(self, work: Work) -> Decision | None:
        q, asked = work.question, work.resolution.asked
        spec = unusual_items()
        substantial = bool(q.words & narrative().material)  # "substantially increased": material items only
        material = spec.material if substantial else 0.01
        for s in work.sources:
            if s.statement != "income" or "comprehensive" in s.titles.lower():
                continue  # other comprehensive income's gains and losses are not the year's income
            i = column_of(s, asked, work.calendar, flow=True)
            if i is None:
                continue
            cells = column_cells(s, i, "unusual items")
            fits = [(row_fit(measure_of("net income"), c.row, set()), -k, c) for k, c in enumerate(cells)]
            fit, _, net = max(fits, key=lambda t: t[:2], default=(0.0, 0, None))
            if net is None or fit < CONFIDENT_ROW or not net.value:
                continue
            found = []
            for c in cells:
                low = c.row.lower()
                if c.percent or not any(r in low for r in spec.rows) or any(r in low for r in spec.not_rows):
                    continue
                effect = _effect(low, c.value)
                share = abs(effect) / abs(net.value)
                if effect and share >= material and {"up": effect > 0, "down": effect < 0}.get(q.direction, True):
                    found.append((c, effect, share))
            if not found:
                continue
            moved = {"up": "raised", "down": "lowered"}.get(q.direction, "moved")
            said = "; ".join(f"{unmarked(c.row)} {c.shown} as printed ({'raised' if e > 0 else 'lowered'} income "
                             f"by {abs(e):,.0f}, {share * 100:.0f}% of net income)" for c, e, share in found)
            text = (f"Yes. The income statement [{s.marker}] ({net.period_name(work.calendar)}) reports items "
                    f"outside the ordinary course of business that {moved} income: {said}; net income "
                    f"{net.shown}.")
            if substantial:
                text += f" Counted: items of {spec.source}."
            return Decision(self.name, text, True, tuple(c.amount for c, _, _ in found))
        return None


def _effect(label: str, value: float) -> float:
    """What a row of an unusual item did to income, from its label (lower case) and its value as printed: a gain
    raised it and a charge lowered it whichever sign the statement prints them with (a gain shown as a negative
    expense, "(547)"); a row of either ("gain (loss)") by its sign, read the way its label is set ("(gain)/loss" is
    an expense line: a positive value lowered income); a discontinued operation's line as printed, unless its label
    calls it a loss."""
    gain, loss = "gain" in label, any(w in label for w in ("loss", "charge", "cost", "impairment", "write"))
    if "discontinued" in label:  # "Discontinued operations, net of tax", "Income (loss) from ...": as printed
        return -abs(value) if loss and not any(w in label for w in ("income", "gain", "earning")) else value
    if gain and loss:
        return -value if "(gain" in label else value
    return abs(value) if gain else -abs(value)


class Unsuited:
    """When a question allows that its metric may not suit the company ("If gross margin is not a useful metric
    for a company like this, state that and explain why") and a line item the metric needs is not in the
    statement that would report it, among the sources (a card issuer's income statement has no cost of sales):
    say so, with the statement. Nothing when every item is found or that statement is not among the sources.
    Tried only when nothing was computed and no other verdict was reached."""

    name = "unsuited"

    def applies(self, q: Question) -> bool:
        return q.ratio is not None and q.escape

    def decide(self, work: Work) -> Decision | None:
        if work.computation is not None:
            return None
        q = work.question
        assert q.ratio is not None
        name, template = q.ratio
        for it in formula_items(template):
            term = it.name
            tables = [s for s in work.sources if s.statement == it.statement]
            if not tables:
                return None  # the statement was not retrieved: nothing can be said of it
            found = best_cell(term, None, tables, work.calendar, work.resolution.asked, q.words)
            if found is not None and found.row_fit >= CONFIDENT_ROW:
                continue
            src = tables[0]
            text = (f"{name[:1].upper()}{name[1:]} is not a useful measure of this company's performance: its "
                    f"{_STATEMENT_NAMES[it.statement]} ({src.doc}, p. {src.page}) [{src.marker}] reports no {term} "
                    f"line, so the metric cannot be computed from its statements.")
            return Decision(self.name, text, lead=True)
        return None


_EXCHANGE = re.compile(r"(?:The\s+)?(?:New\s+York\s+Stock\s+Exchange(?:\s+LLC)?(?:\s*\(NYSE\))?|"
                       r"NYSE(?:\s+(?:American|Arca|Chicago|Texas))?(?:\s+LLC)?|"
                       r"Nasdaq(?:\s+Stock\s+Market|\s+(?:Global\s+Select|Global|Capital)\s+Market)?(?:\s+LLC)?|"
                       r"Chicago\s+Stock\s+Exchange|Cboe\s+[A-Z]\w+(?:\s+Exchange)?)", re.I)
"""The exchanges a cover page names for each class registered."""
_COVER_START = re.compile(r"12\s*\(b\)[^:]{0,40}:?|Title\s+of\s+(?:each\s+)?class|Trading\s+Symbol", re.I)
_COVER_END = re.compile(r"Securities\s+registered\s+pursuant\s+to\s+Section\s+12\s*\(g\)|"
                        r"Indicate\s+by\s+check\s+mark", re.I)
_COVER_HEADERS = re.compile(r"\(?Title\s+of\s+(?:each\s+)?class\)?|\(?Trading\s+Symbols?\s*(?:\(s\))?\)?|"
                            r"\(?Name\s+of\s+(?:each\s+)?exchange\s+on\s+which\s+registered\)?|"
                            r"Table:\s*[^.]{0,80}\.\s", re.I)
_SYMBOL = re.compile(r"[A-Z]{1,5}[A-Z0-9.]{0,6}")
_DEBT_CLASS = re.compile(r"\b(?:notes?|debentures?|bonds?)\b|\d%", re.I)
COVER_PAGES = 3
"""A filing's cover page is among its first pages."""


def registered_classes(text: str) -> list[tuple[str, str, str]]:
    """(class, trading symbol or '', exchange) of each security a cover page lists as registered under Section 12(b)
    ("0.250% Notes due 2022 PFE22 New York Stock Exchange"); [] when the text lists none."""
    start = _COVER_START.search(text)
    if start is None:
        return []
    rest = text[start.end():]
    end = _COVER_END.search(rest)
    rest = _COVER_HEADERS.sub(" ", rest[:end.start()] if end else rest[:2000])
    out: list[tuple[str, str, str]] = []
    pos = 0
    for x in _EXCHANGE.finditer(rest):
        words = rest[pos:x.start()].split()
        pos = x.end()
        if not words:
            continue
        symbol = words[-1] if len(words) > 1 and _SYMBOL.fullmatch(words[-1]) else ""
        name = " ".join(words[:-1] if symbol else words).strip(" ,;—–")  # "—": no trading symbol
        if name:
            out.append((name, symbol, " ".join(x.group(0).split())))
    return out


class RegisteredSecurities:
    """Which securities are registered on an exchange (Section 12(b)), from the cover page the evidence holds: each
    class with its trading symbol and exchange, the debt ones where debt is asked ("Which debt securities are
    registered to trade on a national securities exchange under Pfizer's name?": its two note issues; none where
    the cover page lists only common stock). No cover page in the evidence: no verdict."""

    name = "registered securities"

    def applies(self, q: Question) -> bool:
        return bool(q.registered)

    def decide(self, work: Work) -> Decision | None:
        q = work.question
        best: tuple[int, list[tuple[str, str, str]]] | None = None
        for i, e in enumerate(work.evidence):
            if e.page > COVER_PAGES:
                continue
            found = registered_classes(e.text)
            if found and (best is None or len(found) > len(best[1])):
                best = (i + 1, found)
        if best is None:
            return None
        marker, found = best

        def said(c: tuple[str, str, str]) -> str:
            return f"{c[0]} ({c[1] + ', ' if c[1] else ''}{c[2]})"

        debt = [c for c in found if is_debt_class(c[0])]
        if q.registered == "debt":
            if debt:
                text = (f"{len(debt)} debt {'security is' if len(debt) == 1 else 'securities are'} registered under "
                        f"Section 12(b), per the cover page [{marker}]: " + "; ".join(said(c) for c in debt) + ".")
            else:
                text = (f"None: the cover page [{marker}] registers no debt security under Section 12(b), only "
                        + "; ".join(said(c) for c in found) + ".")
            return Decision(self.name, text, bool(debt) if q.yes_no else None, among=tuple(c[0] for c in found))
        text = (f"Registered under Section 12(b), per the cover page [{marker}]: "
                + "; ".join(said(c) for c in found) + ".")
        return Decision(self.name, text, True if q.yes_no else None, among=tuple(c[0] for c in found))


def is_debt_class(name: str) -> bool:
    """Whether a registered class is debt (notes, debentures, bonds, a coupon rate), not stock."""
    return _DEBT_CLASS.search(name) is not None

"""Refusals decided in code: the question is about another company, quotes words the filing never states, or asks
for a period the searched filings do not report.

Each is a small class with ``applies(question)`` and ``decide(work)``; ``kinds.EVIDENCE_GUARDS`` run on the
retrieved evidence before anything is resolved, ``kinds.CELL_GUARDS`` after the cells are resolved.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from engine.ask.cells import CONFIDENT_ROW, Resolution
from engine.ask.decisions import Decision, Work
from engine.ask.question import Question
from engine.periods import Asked, Calendar

UNQUOTED_MAX_DOCS = 20
"""Filings in scope up to which every one is read for a question's quoted words (beyond it, a library-wide
question: the filings the evidence came from)."""
LATER_DATE_GRACE_DAYS = 120
"""A filing states some figures as of dates after its last period (shares outstanding on the cover, a credit
agreement in an 8-K, subsequent events): a date within this many days of its last period end is not refused."""
PERIOD_END_DAYS = 10
"""A period the question names by its end date ("the year ended January 28, 2023") is one the filing reports when
one of its dated periods ends within this many days (52/53-week years move their end by a few days)."""


def _refusal(kind: str, reason: str) -> Decision:
    return Decision(kind, reason, refusal=True)


class OtherCompany:
    """The question names a company of the library and none of the searched filings is that company's (a small
    model answers such questions from the wrong filing); or it names, in the possessive, a company no searched
    filing mentions ("Apple's plants")."""

    name = "other_company"

    def applies(self, q: Question) -> bool:
        return bool(q.companies) or bool(q.possessives)

    def decide(self, work: Work) -> Decision | None:
        q, retrieval = work.question, work.retrieval
        if retrieval is None:
            return None
        scope = set(retrieval.scope)
        searched = sorted(d.name for d in work.documents if d.id in scope)
        if q.companies and not set(q.companies) & scope:
            names = sorted({max(a, key=len) for a in q.companies.values()})
            return _refusal(self.name, f"Insufficient information: the question is about {', '.join(names)}, but "
                            f"the searched filings ({', '.join(searched[:4])}) are another company's.")
        if q.companies or not scope or work.store is None:
            return None
        for name in q.possessives:
            if not any(work.store.mentions(d, name) for d in scope):
                return _refusal(self.name, f"Insufficient information: the question is about {name}, which the "
                                f"searched filings ({', '.join(searched[:4])}) do not mention.")
        return None


class Unquoted:
    """The question quotes words or a long figure that none of the searched filings states ("how many charts show
    the "no lean" group", "Population: 251,160,124"): it describes another document. A quoted phrase whose
    content words the filing does hold, apart, is not refused (a chart's label, a paraphrase); a figure must be
    there as written. With more than ``UNQUOTED_MAX_DOCS`` filings searched, the evidence's filings are read."""

    name = "unquoted"

    def applies(self, q: Question) -> bool:
        return bool(q.quoted)

    def decide(self, work: Work) -> Decision | None:
        store, retrieval = work.store, work.retrieval
        if store is None or retrieval is None:
            return None
        scope = list(retrieval.scope)
        if len(scope) > UNQUOTED_MAX_DOCS:
            scope = list(dict.fromkeys(e.doc_id for e in retrieval.evidence))
        if not scope:
            return None
        for phrase, figure in work.question.quoted:
            words = re.findall(r"\w+", phrase.lower())
            if not words or any(store.mentions_words(d, words) for d in scope):
                continue
            content = [] if figure else [w for w in words if len(w) >= 4]
            held = [w for w in content if any(store.mentions_words(d, [w]) for d in scope)]
            if content and 2 * len(held) >= len(content):
                continue
            what = f"the figure {phrase}" if figure else f"\u201c{phrase}\u201d"
            return _refusal(self.name, f"Insufficient information: the question quotes {what}, which the searched "
                            "document never states.")
        return None


class PeriodGap:
    """A fiscal year none of the searched filings reports, with what they cover and the nearest value offered as
    such; or a date after every period they report.

    For a figure the tables report (the measure resolved to rows) in a year outside every filing's range, and
    for any question about a fiscal year later than every filing's last ("FY2026" of a FY2023 report: no filing
    reports a year that had not ended), whatever it asks. A question about plans or guidance for a later year
    is not refused here; nor is a bare later year ("in 2024", events after the balance sheet date). A date the
    question names ("as of December 31, 2023", "the fiscal year ending January 28, 2026") more than
    ``LATER_DATE_GRACE_DAYS`` after every period the filings report is refused too."""

    name = "period_gap"

    def applies(self, q: Question) -> bool:
        return not q.forward

    def decide(self, work: Work) -> Decision | None:
        reason = period_gap(work.resolution, work.calendars, work.calendar, told=work.question.told_in_words)
        return _refusal(self.name, reason) if reason else None


class UndatedGap:
    """The question names a day ("the fiscal year ending January 28, 2023", "as of December 31, 2022"; not a month)
    and the searched documents report no dated period at all (a slide deck, a survey) and never write that
    date."""

    name = "undated_gap"

    def applies(self, q: Question) -> bool:
        return q.full_date and (q.asked.end or q.asked.instant) is not None

    def decide(self, work: Work) -> Decision | None:
        if work.store is None or not work.doc_ids or any(c.periods for c in work.calendars):
            return None
        day = work.question.asked.end or work.question.asked.instant
        assert day is not None
        forms = [f"{day:%B} {day.day} {day.year}", f"{day.day} {day:%B} {day.year}", f"{day:%b} {day.day} {day.year}",
                 f"{day.year} {day.month:02d} {day.day:02d}", f"{day.month} {day.day} {day.year}"]
        if any(work.store.mentions_words(d, form.split()) for d in work.doc_ids for form in forms):
            return None
        return _refusal(self.name, f"Insufficient information: the question asks about {day:%B %-d, %Y}, but the "
                        "document reports no dated periods and never mentions that date.")


def period_gap(res: Resolution, calendars: Sequence[Calendar], calendar: Calendar | None, told: bool = False) -> str:
    """The reason ``PeriodGap`` refuses with ('' when the asked year is covered, or cannot be told). ``told``: the
    question is answered by the filing's sentences (``Question.told_in_words``), and a filing tells of the year after
    its last, the one it is written in (events after the balance sheet date, the next year's priorities): that year
    is not refused ("What chemical supply problem did it disclose in early 2023?" of a 2022 10-K); a later one is."""
    asked = res.asked
    if not calendars:
        return ""
    if (dated := _date_gap(asked, calendars, calendar)):
        return dated
    if asked.fiscal_year is None or asked.instant is not None:
        return ""
    covered: set[int] = set()
    for cal in calendars:
        for p in cal.periods:
            fy = cal.fiscal_year_of(p)
            if fy is not None:
                covered.add(fy)
    if not covered:
        return ""
    missing = [y for y in (asked.years or (asked.fiscal_year,)) if y not in covered]
    if not missing or min(covered) <= min(missing) <= max(covered):
        return ""
    if told and min(missing) > max(covered) and max(missing) == max(covered) + 1:
        return ""
    if not res.candidates and not (set(missing) <= set(asked.fiscal_named) and min(missing) > max(covered)):
        return ""
    span = f"fiscal {min(covered)}" if len(covered) == 1 else f"fiscal {min(covered)}-{max(covered)}"
    described = calendar.describe() if calendar is not None else span
    head = (f"Insufficient information: the filing does not report fiscal {', '.join(map(str, missing))}; it covers "
            f"{span} ({described}).")
    nearest_year = min(covered, key=lambda y: abs(y - missing[0]))
    near = [c for c in res.candidates if c.row_fit >= CONFIDENT_ROW and c.period is not None
            and (c.period.fiscal_year or (calendar.fiscal_year_of(c.period) if calendar else c.period.year))
            == nearest_year]
    if near:
        best = max(near, key=lambda c: (c.row_fit, c.period.months == asked.months if c.period else False))
        head += (f" Nearest: {best.row}, {best.period_name(calendar)}: {best.shown} ({best.doc}, p. {best.page}) "
                 f"[{best.marker}], offered as fiscal {nearest_year}, not the year asked.")
    return head


def _date_gap(asked: Asked, calendars: Sequence[Calendar], calendar: Calendar | None) -> str:
    """A refusal reason when the question names a balance date or a period end later than every period the
    searched filings report, by more than ``LATER_DATE_GRACE_DAYS``, or a period end none of their dated periods
    has (``PERIOD_END_DAYS``); '' otherwise (or when no filing's periods carry dates)."""
    day = asked.end or asked.instant
    # a column named by its year alone ("2022") may end as late as that year's last day
    ends = [p.end or date(y, 12, 31) for cal in calendars for p in cal.periods
            if p.end is not None or (y := p.fiscal_year or p.year or 0) > 0]
    if day is None or not ends:
        return ""
    last = max(ends)
    described = calendar.describe() if calendar is not None else f"periods up to {last:%B %-d, %Y}"
    if (day - last).days > LATER_DATE_GRACE_DAYS:
        return (f"Insufficient information: the question asks about {day:%B %-d, %Y}, after every period the "
                f"filing reports (the last ends {last:%B %-d, %Y}; it covers {described}).")
    dated = [p.end for cal in calendars for p in cal.periods if p.end is not None]
    if asked.end is not None and dated and not any(abs((asked.end - d).days) <= PERIOD_END_DAYS for d in dated):
        # "the fiscal year ending January 28, 2023" asked of a filer whose years end on December 31
        return (f"Insufficient information: the filing reports no period ending {asked.end:%B %-d, %Y} (it covers "
                f"{described}).")
    return ""

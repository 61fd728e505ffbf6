"""A scope made of filings: which of the library's filings a question across filings is about, newest last.

"How has net sales changed over the last four quarters?", "the most recent 10-Q compared to the previous
quarters", "Apple's gross margin against Amazon's in Q1 2023": such a question is answered from a set of filings,
not from whichever filing's page ranks first. The set is read from the parsed question (companies, years,
quarter, form, ``latest``, ``last``, ``across``, ``versus``) and the documents' metadata (company, form, the period
a filing reports, read with its own fiscal calendar), and it is named in the answer ("4 filings: AAPL 10-Q Q3
FY2022, Q1 FY2023, Q2 FY2023, Q3 FY2023"). Where two filings report the same period for one company (a 10-K/A
and its 10-K, a filing ingested twice), the amendment, else the later filed, is used and the choice is said.

A question without a cue for several filings gets no scope (``None``): it is answered as before, from the filing
routing picks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

from engine.ask.question import Question
from engine.ask.routing import (
    REPORTED_BALANCES,
    REPORTED_QUARTERLY,
    REPORTED_YEARS,
    company_key,
    doc_form,
    is_annual,
    is_periodic,
    name_forms,
)
from engine.periods import Calendar, Period, same_end
from engine.types import Document

_ISO = re.compile(r"^((?:19|20)\d{2})-(\d{2})-(\d{2})$")
_FY = re.compile(r"^FY((?:19|20)\d{2})$", re.I)
_YQ = re.compile(r"^((?:19|20)\d{2})Q([1-4])$", re.I)


@dataclass(frozen=True)
class Filing:
    """One filing of a scope: the document and the period it reports, named with its own fiscal calendar."""

    doc_id: str
    name: str
    """The document's name (its file name without extension)."""
    company: str
    """The company's key (its CIK, else its name's shortest form): filings of one company share it."""
    who: str
    """What the answer calls the company: its first ticker, else its name."""
    form: str
    """10-K, 10-Q, 10-K/A, ..."""
    end: date | None
    """The last day of the period it reports (the quarter of a 10-Q, the year of a 10-K); None when unknown."""
    months: int
    """12 for an annual report, 3 for a quarterly one."""
    fiscal_year: int | None
    quarter: int | None
    """The fiscal quarter of a quarterly report (1-3; a 10-K's fourth quarter is its year); None for a year."""
    filed: str = ""
    """Filing date (ISO) when the filing states it."""

    @property
    def period(self) -> str:
        """The period in the filer's own naming: "Q3 FY2022", "FY2022" ('' when unknown)."""
        if self.fiscal_year is None:
            return self.end.isoformat() if self.end else ""
        return f"Q{self.quarter} FY{self.fiscal_year}" if self.quarter else f"FY{self.fiscal_year}"

    @property
    def label(self) -> str:
        """"AAPL 10-Q Q3 FY2022"."""
        return " ".join(p for p in (self.who, self.form, self.period) if p)

    @property
    def order(self) -> tuple[date, int, int]:
        """Sort key, oldest first: the period's end, else its fiscal year and quarter."""
        return (self.end or date(self.fiscal_year or 1900, 12, 31), self.fiscal_year or 0, self.quarter or 4)

    @property
    def base_form(self) -> str:
        """The form without its amendment mark: "10-K" for a 10-K/A."""
        return self.form.split("/")[0]

    @property
    def amended(self) -> bool:
        return self.form.endswith("/A")


@dataclass(frozen=True)
class Superseded:
    """A filing left out because another reports the same period for the same company."""

    dropped: Filing
    used: Filing
    why: str


@dataclass(frozen=True)
class Scope:
    """The filings a question is about, grouped by company, each company's oldest first."""

    filings: tuple[Filing, ...]
    """Every filing of the scope: companies in the order the question names them, each company's newest last."""
    superseded: tuple[Superseded, ...] = ()
    reason: str = ""
    """What picked them ("latest", "last 4", "across", "versus")."""

    @property
    def companies(self) -> tuple[str, ...]:
        """The companies' keys, in order."""
        return tuple(dict.fromkeys(f.company for f in self.filings))

    @property
    def doc_ids(self) -> list[str]:
        return [f.doc_id for f in self.filings]

    def of(self, company: str) -> list[Filing]:
        """One company's filings, oldest first."""
        return [f for f in self.filings if f.company == company]

    @property
    def across(self) -> bool:
        """More than one filing: answered filing by filing, then combined in code."""
        return len(self.filings) > 1

    def header(self) -> str:
        """"4 filings: AAPL 10-Q Q3 FY2022, Q1 FY2023, Q2 FY2023, Q3 FY2023", one company's later filings named by
        period only; then a line for each superseded filing."""
        groups = []
        for company in self.companies:
            mine = self.of(company)
            head = mine[0].label
            groups.append(", ".join([head, *[f.period if f.form == mine[0].form and f.period else f.label
                                             for f in mine[1:]]]))
        n = len(self.filings)
        line = f"{n} filing{'s' if n != 1 else ''}: {'; '.join(groups)}"
        if self.reason == "latest":
            line += " (the most recent)"
        notes = [f"{s.used.label} used, not {s.dropped.name} ({s.why})" for s in self.superseded]
        return "\n".join([line, *notes])


def filing_of(doc: Document, calendar: Calendar | None) -> Filing | None:
    """The filing a periodic report is (its company, form and the period it reports, named with ``calendar``);
    None for a document that reports no period of its own (an 8-K, a proxy, a deck)."""
    if not is_periodic(doc):
        return None
    form = doc_form(doc)
    annual = is_annual(doc)
    months = 12 if annual and not form.startswith("10-Q") else 3
    end: date | None = None
    fy: int | None = None
    quarter: int | None = None
    text = (doc.fiscal_period or "").strip()
    if m := _ISO.match(text):
        end = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    elif m := _FY.match(text):
        fy = int(m.group(1))
    elif m := _YQ.match(text):
        fy, quarter = int(m.group(1)), int(m.group(2))
    if end is None and fy is not None and calendar is not None and months == 12:
        # the annual report's own year: the newest twelve-month column ending at its fiscal year end
        ends = [p.end for p in calendar.periods if p.months == 12 and p.end is not None and not p.instant
                and calendar.at_year_end(p.end) and p.end.year in (fy, fy + 1)]
        end = max(ends, default=None)
    if end is not None and calendar is not None and calendar.year_end_month is not None:
        p = Period(end=end, year=end.year, months=months)
        fy = calendar.fiscal_year_of(p)
        quarter = calendar.quarter_of(p) if months == 3 else None
    elif end is not None and fy is None:
        fy = end.year
    if quarter == 4 and months == 3:
        quarter = None  # no 10-Q reports a fourth quarter; a misread year end
    who = doc.tickers[0] if doc.tickers else (min(name_forms(doc.company), key=len).title()
                                              if name_forms(doc.company) else doc.name)
    return Filing(doc.id, doc.name, company_key(doc.company, doc.cik), who, form or ("10-K" if annual else ""),
                  end, months, fy, quarter if months == 3 else None, doc.filing_date)


def _dedupe(filings: list[Filing]) -> tuple[list[Filing], list[Superseded]]:
    """One filing per (company, period): an amendment over the original, else the later filed, else the later
    in the list."""
    best: dict[tuple[str, object, int], Filing] = {}
    dropped: list[Superseded] = []
    for f in filings:
        key = (f.company, f.end or (f.fiscal_year, f.quarter), f.months)
        old = best.get(key)
        if old is None:
            best[key] = f
            continue
        newer = (f.amended, f.filed) > (old.amended, old.filed) or (f.amended, f.filed) == (old.amended, old.filed)
        used, left = (f, old) if newer else (old, f)
        why = "an amendment" if used.amended and not left.amended else (
            f"filed later ({used.filed})" if used.filed and used.filed != left.filed
            else "the same period, ingested again")
        best[key] = used
        dropped.append(Superseded(left, used, why))
    kept = list(best.values())
    return kept, [d for d in dropped if d.used in kept]


def _form_wanted(q: Question, filings: Sequence[Filing]) -> str:
    """The form a series is read from: the one the question names, else quarters' or years' by its words, else
    the form most of the filings are ("10-Q" or "10-K")."""
    bases = [f.base_form for f in filings]
    named = [f for f in q.forms if f in bases]
    if named:
        return named[0]
    if q.span == "quarter" and "10-Q" in bases:
        return "10-Q"
    if q.span == "year" and any(b != "10-Q" for b in bases):
        return next(b for b in bases if b != "10-Q")
    quarterly = bases.count("10-Q")
    return "10-Q" if quarterly > len(bases) - quarterly else next((b for b in bases if b != "10-Q"), "10-Q")




def _years_apart(q: Question, filings: Sequence[Filing]) -> bool:
    """Whether no one report of the library states every year a question names, and it holds reports of more than
    one of them ("from fiscal 2018 to fiscal 2023": the 2018 and the 2023 10-Ks; inventories at the end of 2017 and
    of 2019: the 2017 and 2019 balance sheets; debt at December 31, 2021 and at July 2, 2023: the 2021 10-K and the
    2023 10-Q, whose balance sheet goes back only to the end of 2022)."""
    years = set(q.asked.years)
    if len(years) < 2:
        return False
    balance = any(m.item is not None and m.item.balance for m in q.measures)
    back = REPORTED_BALANCES if balance else REPORTED_YEARS
    for f in filings:
        if f.fiscal_year is not None and years <= set(
                range(f.fiscal_year - (back if f.months == 12 else REPORTED_QUARTERLY), f.fiscal_year + 1)):
            return False
    return len({f.fiscal_year for f in filings if f.fiscal_year in years}) >= 2


def _of_years(q: Question, mine: Sequence[Filing], form: str) -> list[Filing]:
    """One company's filings for the years a question names, oldest first: for a year written with a quarter
    ("Q2 2023"; every year when the quarter names none) the report of that quarter; for each year, the filings of
    the form the series is read from, else whichever report that year (the balance at the end of 2021 is in the
    2021 10-K when the other year asked is a 10-Q's)."""
    out: list[Filing] = []
    quarter, quartered = q.asked.quarter, set(q.asked.quarter_years)
    years = set(q.asked.years)
    for day in q.asked.instants:  # a balance date is the filing whose period ends on it ("July 29, 2023": Q2 FY2024)
        ending = [f for f in mine if same_end(f.end, day)]
        if ending:
            out += [f for f in ending if f.base_form == form] or ending
            years.discard(day.year)
    for year in sorted(years):
        of_year = [f for f in mine if f.fiscal_year == year]
        if quarter is not None and (not quartered or year in quartered):
            of_year = [f for f in of_year if f.quarter == quarter]
        out += [f for f in of_year if f.base_form == form] or of_year
    return sorted(dict.fromkeys(out), key=lambda f: f.order)


def filing_scope(q: Question, documents: Sequence[Document],
                 calendar_of: Callable[[str], Calendar | None]) -> Scope | None:
    """The filings ``q`` is about among ``documents`` (the search scope: given, routed, or the library), or None
    when it is not a question across filings (no cue for several, or one filing to choose from)."""
    docs = list(documents)
    named = [d for d in docs if d.id in q.companies] if q.companies else docs
    filings = [f for d in named if (f := filing_of(d, calendar_of(d.id))) is not None]
    companies = list(dict.fromkeys(f.company for f in filings))
    if q.companies:  # the order the question names them in
        first = {d.id: min((q.text.lower().find(a.lower()) for a in q.companies[d.id]), default=0) for d in named}
        at = {f.company: first.get(f.doc_id, 0) for f in filings}
        companies.sort(key=lambda c: at[c])
    two = len(companies) >= 2 and len(q.companies) >= 2
    spread = not two and len(companies) == 1 and _years_apart(q, filings)
    if not filings or not (q.latest or q.last or q.across or two or spread) or (len(companies) > 1 and not two):
        return None
    if q.asked.years and not (two or q.latest or q.last or spread):
        return None  # one company's named years: its filing for the latest of them reports them (routing)
    reason = "versus" if two else "latest" if q.latest and not (q.across or q.last) else (
        f"last {q.last}" if q.last else "across")
    form = _form_wanted(q, filings)
    if not q.asked.years:
        filings = [f for f in filings if f.base_form == form]
    filings, superseded = _dedupe(filings)
    chosen: list[Filing] = []
    for company in companies:
        mine = sorted((f for f in filings if f.company == company), key=lambda f: f.order)
        if q.asked.years:
            mine = _of_years(q, mine, form) or [f for f in mine if f.base_form == form]
        if q.last:
            mine = mine[-q.last:]
        elif reason == "latest" or (two and not (q.across or q.last) and not q.asked.years):
            mine = mine[-1:]
        chosen += mine
    if not chosen or (len(chosen) == 1 and len(filings) <= 1 and not q.latest):
        return None
    used = {f.doc_id for f in chosen}
    return Scope(tuple(chosen), tuple(s for s in superseded if s.used.doc_id in used), reason)

"""Fiscal periods: what a table column reports, what a question asks, how a filing names its years.

One home for period knowledge. A column header ("13 Weeks Ended Jan. 28, 2023", "Year ended 31 March 2023",
"FY2019", a bare "2018" under "Years ended December 31") becomes a ``Period``; a question ("revenue in Q2 FY24",
"total assets as of December 31, 2022") becomes an ``Asked``; a filing's cover and headers give its ``Calendar``
(the month its fiscal year ends, and whether its "fiscal 2022" ends in 2022 or 2023). ``matches`` scores a column
against a question; ``what_it_is`` names a column for a user ("fourth quarter (13 weeks ended January 28, 2023)").

Rules are general for 10-Ks, 10-Qs, earnings releases and non-US annual reports; nothing here knows a company.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

__all__ = [
    "Asked",
    "Calendar",
    "Period",
    "asked_period",
    "column_period",
    "matches",
    "read_calendar",
    "what_it_is",
]

# ---------------------------------------------------------------------------------------------------------------
# Words and dates

_MONTH_NUM = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}
_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December")
_MON = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?(?![a-z])"
)
_YEAR4 = r"(?:19[5-9]\d|20\d\d)"
_MDY = re.compile(rf"\b(?P<mon>{_MON})\s*(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?!\d)(?:\s*,\s*|\s+)(?P<y>{_YEAR4})\b", re.I)
_DMY = re.compile(rf"(?<![\d.])(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<mon>{_MON})\s*,?\s*(?P<y>{_YEAR4})\b", re.I)
_NUMERIC = re.compile(rf"(?<![\d.])(?P<a>\d{{1,2}})(?P<sep>[./-])(?P<b>\d{{1,2}})(?P=sep)(?P<y>{_YEAR4})\b")
_MY = re.compile(rf"\b(?P<mon>{_MON})\s*,?\s*(?P<y>{_YEAR4})\b", re.I)
_MD = re.compile(rf"\b(?P<mon>{_MON})\s*(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?!\d)", re.I)
_DM = re.compile(rf"(?<![\d.])(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<mon>{_MON})", re.I)

_SMALL = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19,
}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}
_NUMWORD = (
    r"(?:(?:twenty|thirty|forty|fifty)(?:[\s-]+(?:one|two|three|four|five|six|seven|eight|nine))?|"
    r"nineteen|eighteen|seventeen|sixteen|fifteen|fourteen|thirteen|twelve|eleven|ten|"
    r"one|two|three|four|five|six|seven|eight|nine)"
)
# "13 weeks", "three months", "52/53 weeks", "52- or 53-week", "fifty-two weeks"
_DURATION = re.compile(
    rf"\b(?P<n>\d{{1,2}}|{_NUMWORD})(?:\s*-?\s*(?:/|or|and)\s*(?:\d{{1,2}}|{_NUMWORD}))?[\s-]*(?P<unit>weeks?|months?)\b",
    re.I,
)
_HALF = re.compile(r"\b(?:(?:first|second|1st|2nd)\s+half|half[\s-]years?|semi-?annual|interim\s+period|H[12]|[12]H)\b",
                   re.I)
_YTD = re.compile(r"\b(?:year[\s-]to[\s-]date|ytd)\b", re.I)
_YEAR_WORD = re.compile(r"\b(?:years?|annual|annually|full[\s-]year)\b", re.I)
_QUARTER_WORD = re.compile(r"\bquarters?\b", re.I)
_ORDINAL = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_ORD_QUARTER = re.compile(r"\b(?P<o>first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+quarter\b", re.I)
# "Q4", "Q4 2022", "Q4'22", "Q4FY22", "Q4 FY2022"; "4Q22", "4Q 2022"
_Q_TOKEN = re.compile(
    r"\bQ(?P<q>[1-4])(?:\s*[-'’]?\s*(?:FY|F)?\s*['’]?(?P<y>\d{4}|\d{2})\b)?(?![a-z])"
    r"|\b(?P<q2>[1-4])Q\s*['’]?(?P<y2>\d{4}|\d{2})?\b",
    re.I,
)
# "FY2022", "FY 22", "FY '21", "Fiscal 2022", "fiscal year 2019", "FY 2022-23", "FY2022/23"
_FISCAL = re.compile(
    rf"\b(?:FY|F/Y|fiscal(?:\s+years?)?)\s*['’]?(?P<y>{_YEAR4}|\d{{2}})(?![\d%])"
    rf"(?:\s*[-–/]\s*(?P<y2>{_YEAR4}|\d{{2}})(?!\d))?",
    re.I,
)
# "2022/23", "2022-23": a fiscal year spanning two calendar years, named by the year it ends in
_SPAN = re.compile(rf"(?<![\d$.,])(?P<y>{_YEAR4})\s*[/–-]\s*(?P<y2>\d{{2}})(?![\d%])")
_BARE_YEAR = re.compile(rf"(?<![\d$.,/])(?P<y>{_YEAR4})(?![\d%]|\.\d|,\d)")
_CHANGE = re.compile(
    r"%|\b(?:change|changes|vs\.?|versus|variance|increase|decrease|increase\s*/\s*\(?decrease|compared|growth|"
    r"difference|favou?rable|unfavou?rable|better|worse|inc\s*/\s*\(?dec)\b",
    re.I,
)
_INSTANT_HEAD = re.compile(r"\b(?:as\s+(?:of|at)|at|balance\s+(?:at|as\s+of))\b\s*$", re.I)
_INSTANT_CONTEXT = re.compile(
    r"\bbalance\s+sheets?\b|\bfinancial\s+(?:position|condition)\b|\bas\s+(?:of|at)\b|\bstatements?\s+of\s+"
    r"(?:financial\s+position|condition)\b",
    re.I,
)
_WEEKS = re.compile(
    r"\b(?:5[23]|fifty[\s-](?:two|three))[\s-]*(?:(?:or|/|and)\s*(?:5[23])[\s-]*)?weeks?\b"
    r"|\b(?:saturday|sunday|friday)\s+(?:nearest|closest)\b|\blast\s+(?:saturday|sunday|friday)\s+(?:of|in)\b"
    r"|\b1[2-7][\s-]*weeks?\s+ended\b",
    re.I,
)


def _month(token: str) -> int:
    return _MONTH_NUM[token.lower().rstrip(".")[:3]]


def _number(token: str) -> int:
    t = token.lower().replace("-", " ").split()
    if t[0].isdigit():
        return int(t[0])
    if t[0] in _TENS:
        return _TENS[t[0]] + (_SMALL.get(t[1], 0) if len(t) > 1 else 0)
    return _SMALL[t[0]]


def _year2(token: str, near: int | None = None) -> int:
    """A four-digit year from "2022" or "22" (two digits are 20xx below 50, else 19xx; or next to ``near``)."""
    if len(token) == 4:
        return int(token)
    y = int(token)
    if near is not None:
        return near // 100 * 100 + y if near % 100 <= y else (near // 100 + 1) * 100 + y
    return 2000 + y if y < 50 else 1900 + y


def _safe_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _last_day(y: int, m: int) -> date:
    return (date(y + m // 12, m % 12 + 1, 1)) - timedelta(days=1)


def _months_of(n: int, unit: str) -> int:
    """Months in a duration; weeks snap to the quarter grid (13 -> 3, 16 -> 3, 26 -> 6, 39 -> 9, 52/53 -> 12)."""
    if unit.lower().startswith("month"):
        return n
    if n <= 17:
        return 3
    if n <= 30:
        return 6
    if n <= 44:
        return 9
    return 12


@dataclass(frozen=True)
class _Found:
    """A date found in text, with its span."""

    day: date
    start: int
    end: int


def _find_dates(text: str) -> list[_Found]:
    """Full dates in ``text`` in order: "January 28, 2023", "Jan. 28 2023", "28 January 2023", "31.03.2023",
    "March 2023" (its last day). Numeric dates are day-first when the first number cannot be a month or the
    separator is a dot; month-first otherwise (US filings)."""
    found: list[_Found] = []
    taken: list[tuple[int, int]] = []  # sorted and disjoint: only the neighbours of a new span can overlap it

    def free(a: int, b: int) -> bool:
        i = bisect.bisect_left(taken, (a, b))
        return (i == 0 or taken[i - 1][1] <= a) and (i == len(taken) or taken[i][0] >= b)

    def add(d: date | None, m: re.Match[str]) -> None:
        if d is not None and free(m.start(), m.end()):
            found.append(_Found(d, m.start(), m.end()))
            bisect.insort(taken, (m.start(), m.end()))

    for m in _MDY.finditer(text):
        add(_safe_date(int(m["y"]), _month(m["mon"]), int(m["d"])), m)
    for m in _DMY.finditer(text):
        add(_safe_date(int(m["y"]), _month(m["mon"]), int(m["d"])), m)
    for m in _NUMERIC.finditer(text):
        a, b, y = int(m["a"]), int(m["b"]), int(m["y"])
        day_first = a > 12 or (m["sep"] == "." and b <= 12)
        add(_safe_date(y, b, a) if day_first else _safe_date(y, a, b), m)
    for m in _MY.finditer(text):
        add(_last_day(int(m["y"]), _month(m["mon"])), m)
    return sorted(found, key=lambda f: f.start)


DATE_PATTERN = rf"((?:{_MON})\s*\d{{1,2}}(?:st|nd|rd|th)?\s*,?\s*{_YEAR4}|\d{{1,2}}\s+(?:{_MON})\s*,?\s*{_YEAR4})"
"""A full date as filings print it in words ("January 28, 2023", "Jan. 28 2023", "28 January 2023"), one group."""


def parse_date(text: str) -> date | None:
    """The first full date in ``text`` ("December 31, 2018" -> ``date(2018, 12, 31)``), None when there is none.
    The one date reader of the engine: covers, column headers and questions."""
    found = _find_dates(text)
    return found[0].day if found else None


def _month_days(text: str) -> list[tuple[int, int]]:
    """(month, day) pairs named without a year: "June 30", "31 March"."""
    out: list[tuple[int, int]] = []
    for rx in (_MD, _DM):
        for m in rx.finditer(text):
            mo, d = _month(m["mon"]), int(m["d"])
            if _safe_date(2000, mo, d) and (mo, d) not in out:
                out.append((mo, d))
    return out


def _blank(text: str, spans: Sequence[tuple[int, int]]) -> str:
    chars = list(text)
    for a, b in spans:
        chars[a:b] = " " * (b - a)
    return "".join(chars)


def _fmt_date(d: date, short: bool = False) -> str:
    name = _MONTH_NAMES[d.month - 1]
    return f"{name[:3] if short else name} {d.day}, {d.year}"


# ---------------------------------------------------------------------------------------------------------------
# Periods (table columns)


@dataclass(frozen=True)
class Period:
    """A reporting period as a table column or a question names it."""

    end: date | None
    """Last day ("52 Weeks Ended January 28, 2023" -> 2023-01-28); None when only a year is known."""
    year: int | None
    """Calendar year of ``end``, or the bare year a column shows ("2018" -> 2018)."""
    months: int | None
    """3, 6, 9 or 12 for durations (weeks snap: 13 -> 3, 26 -> 6, 39 -> 9, 52/53 -> 12); None when not stated."""
    instant: bool = False
    """A balance date ("As of December 31, 2022", or a date under a balance sheet)."""
    fiscal_year: int | None = None
    """The fiscal year the text names ("Fiscal 2022", "FY22", "FY 2022-23" -> 2023)."""
    quarter: int | None = None
    """The quarter the text names ("Q4", "fourth quarter")."""
    label: str = ""
    """The text it was read from."""


@dataclass
class _Parts:
    """What one piece of text says about a period, before it becomes a Period or an Asked."""

    dates: list[_Found] = field(default_factory=list)
    fiscal_years: list[tuple[int, int]] = field(default_factory=list)  # (year, position)
    bare_years: list[tuple[int, int]] = field(default_factory=list)
    quarter: int | None = None
    half: bool = False
    months: list[int] = field(default_factory=list)
    weeks: int | None = None
    year_word: bool = False
    quarter_word: bool = False
    ytd: bool = False
    pieces: list[tuple[int, str]] = field(default_factory=list)  # (position, matched text)


def _parts(text: str) -> _Parts:
    """Dates, fiscal-year labels, bare years, quarters and durations named in ``text``."""
    p = _Parts()
    p.dates = _find_dates(text)
    for f in p.dates:
        p.pieces.append((f.start, text[f.start:f.end]))
    rest = _blank(text, [(f.start, f.end) for f in p.dates])
    spans: list[tuple[int, int]] = []
    for m in _Q_TOKEN.finditer(rest):
        q = int(m["q"] or m["q2"])
        if p.quarter is None:
            p.quarter = q
        y = m["y"] or m["y2"]
        if y:
            p.fiscal_years.append((_year2(y), m.start()))
        p.pieces.append((m.start(), m.group(0)))
        spans.append((m.start(), m.end()))
    rest = _blank(rest, spans)
    for m in _ORD_QUARTER.finditer(rest):
        if p.quarter is None:
            p.quarter = _ORDINAL[m["o"].lower()]
        p.pieces.append((m.start(), m.group(0)))
    spans = []
    for m in _FISCAL.finditer(rest):
        y = _year2(m["y"])
        if m["y2"]:
            y2 = _year2(m["y2"], near=y)
            if y2 != y + 1:
                continue  # "FY2022-2024": not one fiscal year
            y = y2
        p.fiscal_years.append((y, m.start()))
        p.pieces.append((m.start(), m.group(0)))
        spans.append((m.start(), m.end()))
    rest = _blank(rest, spans)
    spans = []
    for m in _SPAN.finditer(rest):
        y, y2 = int(m["y"]), _year2(m["y2"], near=int(m["y"]))
        if y2 == y + 1:
            p.fiscal_years.append((y2, m.start()))
            p.pieces.append((m.start(), m.group(0)))
            spans.append((m.start(), m.end()))
    rest = _blank(rest, spans)
    for m in _BARE_YEAR.finditer(rest):
        p.bare_years.append((int(m["y"]), m.start()))
        p.pieces.append((m.start(), m.group(0)))
    for m in _DURATION.finditer(rest):
        n, unit = _number(m["n"]), m["unit"]
        if unit.lower().startswith("week"):
            p.weeks = n
        p.months.append(_months_of(n, unit))
        p.pieces.append((m.start(), m.group(0)))
    if half := _HALF.search(rest):
        p.half = True
        p.pieces.append((half.start(), half.group(0)))
    if ytd := _YTD.search(rest):
        p.ytd = True
        p.pieces.append((ytd.start(), ytd.group(0)))
    rest_no_ytd = _YTD.sub(" ", rest)
    p.year_word = bool(_YEAR_WORD.search(rest_no_ytd)) or bool(re.search(r"\btwelve\s+months\b", rest, re.I))
    p.quarter_word = bool(_QUARTER_WORD.search(rest))
    return p


def _duration_of(text: str) -> int | None:
    """The one duration a piece of text states (None when it states none, or several)."""
    p = _parts(text)
    found = set(p.months)
    if p.half:
        found.add(6)
    if p.quarter is not None or p.quarter_word:
        found.add(3)
    if not found and (p.year_word or p.fiscal_years):
        found.add(12)
    return found.pop() if len(found) == 1 else None


_MENDED = ("january", "february", "march", "april", "june", "july", "august", "september", "october", "november",
           "december", "months", "month", "weeks", "ended", "ending", "three", "twelve", "quarter", "fiscal", "years")
_BROKEN = re.compile(r"(?<![A-Za-z])(" + "|".join(r"\s?".join(w) for w in sorted(_MENDED, key=len, reverse=True))
                     + r")(?![A-Za-z])", re.I)


def mend(text: str) -> str:
    """Period words a PDF text layer cut into pieces joined again ("Three M on t hs Ended" -> "Three Months
    Ended"), so headers read the same however the filing was typeset."""
    return _BROKEN.sub(lambda m: m.group(0).replace(" ", ""), text) if " " in text else text


def column_period(header: str, context: str = "") -> Period | None:
    """The period a table column header names, e.g. "Three Months Ended June 30 2023", "52 Weeks Ended January 28,
    2023", "Year ended 31 March 2023", "FY2019", "Q4 2022", "December 31, 2022", "2018".

    ``context`` is the table's title, units and heading text: it fills what a bare header leaves out ("Years ended
    December 31" gives a "2018" column its duration and end; "Balance Sheets" or "As of" makes it a balance date).
    Returns None for change columns ("2023 vs. 2022", "% Change") and headers that name no period.
    """
    text = mend(" ".join(header.split()))
    context = mend(context)
    if not text or _CHANGE.search(text):
        return None
    p = _parts(text)
    if len(p.dates) > 1:
        return None  # two dates in one header: a range or two columns joined
    years_named = {y for y, _ in p.bare_years}
    fiscal = {y for y, _ in p.fiscal_years}
    if len(fiscal) > 1:
        return None
    end: date | None = p.dates[0].day if p.dates else None
    fiscal_year = next(iter(fiscal)) if fiscal else None
    year: int | None = None
    if end is not None:
        year = end.year
        if years_named - {end.year}:
            return None  # "June 30, 2023 and 2022"
    elif len(years_named) > 1:
        return None  # "2023 2022": a change or two columns joined
    elif years_named:
        year = years_named.pop()
    quarter = p.quarter
    if fiscal_year is None and (quarter is not None or p.half) and year is not None and end is None:
        fiscal_year = year  # "Q4 2022", "H1 2023": quarters and halves are counted in fiscal years
    if fiscal_year is not None and year is None and end is None and p.fiscal_years and p.quarter is not None:
        year = fiscal_year  # "Q4'22" shows its year too

    months = _duration_of(_blank(text, [(f.start, f.end) for f in p.dates]))
    instant = False
    if end is not None and _INSTANT_HEAD.search(text[: p.dates[0].start]):
        instant = True
    # a date with no year ("June 30") takes the one year the header or context shows
    if end is None:
        mds = _month_days(text)
        ctx_years = {y for y, _ in _parts(context).bare_years} if context else set()
        y_for_md = year if year is not None else (next(iter(ctx_years)) if len(ctx_years) == 1 else None)
        if len(mds) == 1 and y_for_md is not None:
            end = _safe_date(y_for_md, *mds[0])
            year = y_for_md
            if _INSTANT_HEAD.search(text[: text.lower().find(_MONTH_NAMES[mds[0][0] - 1][:3].lower())]):
                instant = True
    if context and months is None and not instant:
        ctx = " ".join(context.split())
        ctx_months = _duration_of(_CHANGE_FREE.sub(" ", ctx))
        balance = bool(_INSTANT_CONTEXT.search(ctx))
        if ctx_months is not None and not balance:
            months = ctx_months
        elif balance and ctx_months is None and (p.quarter is None and not p.fiscal_years):
            instant = True
        if end is None and year is not None and fiscal_year is None and quarter is None:
            mds = _month_days(ctx) or [(f.day.month, f.day.day) for f in _find_dates(ctx)]
            if len(set(mds)) == 1:
                end = _safe_date(year, *mds[0])
    if instant:
        months = None
    if end is None and year is None and fiscal_year is None and quarter is None:
        return None
    return Period(end=end, year=year, months=months, instant=instant, fiscal_year=fiscal_year, quarter=quarter,
                  label=text)


_CHANGE_FREE = re.compile(r"\b(?:percent(?:age)?|change|vs\.?|versus)\b", re.I)


# ---------------------------------------------------------------------------------------------------------------
# Questions


@dataclass(frozen=True)
class Asked:
    """The period a question asks about."""

    fiscal_year: int | None
    """The fiscal year it names ("FY2018", "fiscal 2022", "FY '21", "in 2019"); the newest when it names several.
    None when only a date names the period (see ``end``)."""
    quarter: int | None
    """The quarter it names ("Q2 2023", "second quarter of fiscal 2024")."""
    months: int | None
    """12 for a year, 3 for a quarter, 6 for a half / six months, 9 for nine months (or year to date at Q3)."""
    instant: date | None
    """A balance date ("as of December 31, 2022", "at March 31, 2025")."""
    years: tuple[int, ...]
    """Every year it names, in order, once each ("from FY2021 to FY2022" -> (2021, 2022))."""
    text: str
    """What was matched, pieces joined by "; "."""
    end: date | None = None
    """The end of a duration it names by date ("for the year ended December 31, 2022", "the quarter ended July 29,
    2023"): matched against column end dates, because the fiscal year such a date belongs to depends on the filer."""
    fiscal_named: tuple[int, ...] = ()
    """The years it names as fiscal years ("FY2025", "fiscal 2025", "Q1 FY24"), not bare ("in 2025")."""


_ENDED_BEFORE = re.compile(r"\b(?:end(?:ed|ing|s)?|through|thru)\s*(?:on\s+)?$", re.I)
_BALANCE_WORDS = re.compile(r"\b(?:end\s+of|year[\s-]end|as\s+(?:of|at)|at\s+the\s+close\s+of)\b", re.I)


def asked_period(question: str) -> Asked:
    """The period ``question`` asks about: fiscal year, quarter, duration, balance date and every year named."""
    text = " ".join(question.split())
    p = _parts(text)
    instant: date | None = None
    end: date | None = None
    for f in p.dates:
        before = text[max(0, f.start - 40): f.start]
        if _ENDED_BEFORE.search(before):
            end = end or f.day
        elif instant is None:
            instant = f.day
    named = sorted(p.fiscal_years + p.bare_years, key=lambda t: t[1])
    years: list[int] = []
    for y, _ in sorted(named + [(f.day.year, f.start) for f in p.dates], key=lambda t: t[1]):
        if y not in years:
            years.append(y)
    fiscal_year = max((y for y, _ in named), default=None)

    months: int | None = None
    if p.months:
        months = p.months[0]
    elif p.half:
        months = 6
    elif p.ytd and p.quarter is not None:
        months = 3 * p.quarter
    elif p.quarter is not None or (p.quarter_word and not p.year_word):
        months = 3
    elif p.ytd:
        months = None
    elif instant is not None and end is None:
        months = None
    elif _BALANCE_WORDS.search(text) and end is None:
        months = None
    elif p.year_word or fiscal_year is not None or end is not None:
        months = 12 if (p.year_word or fiscal_year is not None) else None
    pieces = [s for _, s in sorted(p.pieces)]
    fiscal_named = tuple(sorted({y for y, _ in p.fiscal_years}))
    return Asked(fiscal_year=fiscal_year, quarter=p.quarter, months=months, instant=instant, years=tuple(years),
                 text="; ".join(pieces), end=end, fiscal_named=fiscal_named)


# ---------------------------------------------------------------------------------------------------------------
# A filing's calendar


_SLACK = timedelta(days=10)  # 52/53-week years end within a week of their nominal day


@dataclass(frozen=True)
class Calendar:
    """How one filing names its periods."""

    year_end_month: int | None
    """Month its fiscal year ends (1-12)."""
    year_end_day: int | None
    """Day its fiscal year ends (the latest year's, for 52/53-week filers)."""
    shift: int = 0
    """Fiscal year N ends in calendar year N + shift (0 for most; 1 where "fiscal 2022" ends in January 2023)."""
    weeks: bool = False
    """52/53-week years."""
    periods: tuple[Period, ...] = ()
    """The distinct periods the filing reports (its tables' columns and its cover), newest first."""
    source: str = ""
    """The phrase the year end was read from ("fiscal year ended January 28, 2023")."""

    def _anchor(self, year: int) -> date | None:
        if self.year_end_month is None:
            return None
        day = self.year_end_day or _last_day(year, self.year_end_month).day
        return _safe_date(year, self.year_end_month, day) or _last_day(year, self.year_end_month)

    def _year_end_year(self, d: date) -> int:
        """The calendar year of the fiscal year end on or after ``d`` (a date within ten days of one is that one)."""
        anchors = [a for a in (self._anchor(y) for y in (d.year - 1, d.year, d.year + 1)) if a is not None]
        if not anchors:
            return d.year
        near = [a for a in anchors if abs(a - d) <= _SLACK]
        if near:
            return near[0].year
        return min(a for a in anchors if a > d).year

    def fiscal_year_of(self, p: Period) -> int | None:
        """The fiscal year ``p`` belongs to: a named fiscal year first, else that of its end date (the fiscal year
        whose end is the first on or after it, minus ``shift``), else its bare year (a bare "2022" column is read as
        the filing's own label for the year)."""
        if p.fiscal_year is not None:
            return p.fiscal_year
        if p.end is not None:
            return self._year_end_year(p.end) - self.shift
        return p.year

    def end_year(self, fiscal_year: int) -> int:
        """The calendar year in which fiscal year ``fiscal_year`` ends."""
        return fiscal_year + self.shift

    def quarter_of(self, p: Period) -> int | None:
        """The fiscal quarter a period ends in (a named quarter first; from its end date and the year end)."""
        if p.quarter is not None:
            return p.quarter
        if p.end is None or self.year_end_month is None:
            return None
        start = self._anchor(self._year_end_year(p.end) - 1)
        if start is None:
            return None
        return min(4, max(1, round((p.end - start).days / 91.3)))

    def at_year_end(self, d: date) -> bool:
        """Whether ``d`` is a fiscal year end (within ten days of the nominal one)."""
        anchor = self._anchor(self._year_end_year(d))
        return anchor is not None and abs(anchor - d) <= _SLACK

    def describe(self) -> str:
        """One line for a UI detail line, e.g. "FY ends late Jan/early Feb (52/53 weeks); fiscal 2022 = year ended
        Jan 28, 2023; covers FY2020-FY2022, Q4 FY2022"."""
        parts: list[str] = []
        if self.year_end_month is None:
            parts.append("FY end unknown")
        else:
            mon = _MONTH_NAMES[self.year_end_month - 1][:3]
            day = self.year_end_day
            if self.weeks and day is not None and day >= 22:
                parts.append(f"FY ends late {mon}/early {_MONTH_NAMES[self.year_end_month % 12][:3]} (52/53 weeks)")
            elif self.weeks and day is not None and day <= 7:
                parts.append(f"FY ends late {_MONTH_NAMES[(self.year_end_month - 2) % 12][:3]}/early {mon} "
                             "(52/53 weeks)")
            elif self.weeks:
                parts.append(f"FY ends around {mon} {day or ''}".rstrip() + " (52/53 weeks)")
            else:
                parts.append(f"FY ends {mon} {day}" if day else f"FY ends {mon}")
        annual = [p for p in self.periods if p.months == 12 and p.end is not None]
        if annual:
            fy = self.fiscal_year_of(annual[0])
            parts.append(f"fiscal {fy} = year ended {_fmt_date(annual[0].end, short=True)}")  # type: ignore[arg-type]
        elif self.year_end_month is not None and self.shift:
            parts.append(f"fiscal N ends in {_MONTH_NAMES[self.year_end_month - 1][:3]} of N+{self.shift}")
        covers: list[str] = []
        fys = sorted({fy for p in self.periods if (p.months == 12 or (p.fiscal_year is not None and p.quarter is None
                                                                      and p.months in (None, 12)))
                      and not p.instant and (fy := self.fiscal_year_of(p)) is not None})
        if fys:
            contiguous = fys == list(range(fys[0], fys[-1] + 1))
            if len(fys) == 1:
                covers.append(f"FY{fys[0]}")
            elif contiguous:
                covers.append(f"FY{fys[0]}-FY{fys[-1]}")
            else:
                covers.append(", ".join(f"FY{y}" for y in fys))
        interim: list[str] = []
        for p in self.periods:
            if p.instant or p.months not in (3, 6, 9):
                continue
            fy = self.fiscal_year_of(p)
            if fy is None:
                continue
            q = self.quarter_of(p)
            ended = f" ended {_fmt_date(p.end, short=True)}" if p.end is not None else f" of FY{fy}"
            name = f"Q{q} FY{fy}" if p.months == 3 and q else f"{p.months} months{ended}"
            if name not in interim:
                interim.append(name)
        covers.extend(interim[:4])
        if covers:
            parts.append("covers " + ", ".join(covers))
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (dates as ISO strings), with ``summary``: ``describe()``, for the library pane."""
        return {
            "year_end_month": self.year_end_month,
            "year_end_day": self.year_end_day,
            "shift": self.shift,
            "weeks": self.weeks,
            "periods": [_period_json(p) for p in self.periods],
            "source": self.source,
            "summary": self.describe(),
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> Calendar:
        """The Calendar ``to_json`` wrote."""
        return Calendar(
            year_end_month=d.get("year_end_month"),
            year_end_day=d.get("year_end_day"),
            shift=int(d.get("shift", 0)),
            weeks=bool(d.get("weeks", False)),
            periods=tuple(_period_from_json(p) for p in d.get("periods", ())),
            source=str(d.get("source", "")),
        )


def _period_json(p: Period) -> dict[str, Any]:
    return {"end": p.end.isoformat() if p.end else None, "year": p.year, "months": p.months, "instant": p.instant,
            "fiscal_year": p.fiscal_year, "quarter": p.quarter, "label": p.label}


def _period_from_json(d: dict[str, Any]) -> Period:
    end = d.get("end")
    return Period(end=date.fromisoformat(end) if end else None, year=d.get("year"), months=d.get("months"),
                  instant=bool(d.get("instant", False)), fiscal_year=d.get("fiscal_year"), quarter=d.get("quarter"),
                  label=str(d.get("label", "")))


# a date as a regex group named "date" (validated by _find_dates afterwards)
_DATE_TAIL = (
    r"(?P<date>(?:[A-Za-z]{3,9}\.?\s*\d{1,2}(?:st|nd|rd|th)?\s*,?\s*|\d{1,2}(?:st|nd|rd|th)?\s+[A-Za-z]{3,9}\.?\s*,?\s*)"
    rf"{_YEAR4}|\d{{1,2}}[./-]\d{{1,2}}[./-]{_YEAR4})"
)
_COVER_YEAR = re.compile(r"for\s+the\s+(?:fiscal\s+)?year\s+ended:?\s*(?:on\s+)?" + _DATE_TAIL, re.I)
_COVER_QUARTER = re.compile(r"for\s+the\s+(?:quarterly\s+)?period\s+ended:?\s*(?:on\s+)?" + _DATE_TAIL, re.I)
_FY_ENDS = re.compile(r"fiscal\s+years?\s+end(?:ed|ing|s)?\s*(?:on\s+)?" + _DATE_TAIL, re.I)
_WEEKS_YEAR = re.compile(r"\b(?:5[23]|fifty[\s-](?:two|three))[\s-]+weeks?\s+ended\s*" + _DATE_TAIL, re.I)
_NEAREST = re.compile(
    rf"(?:saturday|sunday|friday)\s+(?:nearest|closest)(?:\s+to)?\s+(?:the\s+(?:last\s+day\s+of|end\s+of)\s+)?"
    rf"(?P<mon>{_MON})(?:\s+(?P<d>\d{{1,2}}))?"
    rf"|last\s+(?:saturday|sunday|friday)\s+(?:of|in)\s+(?P<mon2>{_MON})",
    re.I,
)
_YEARS_ENDED = re.compile(r"\b(?:fiscal\s+)?years?\s+ended\s*" + _DATE_TAIL, re.I)
_LABEL = r"(?:fiscal(?:\s+year)?|FY)\s*['’]?(?P<fy>" + _YEAR4 + r")(?!\d)"
_INTERIM = re.compile(r"\b(?:quarters?|half|months|(?:1\d|2\d|3\d|4[0-4])\s*[-\s]weeks?)\b", re.I)
_PAIR_LABEL_FIRST = re.compile(
    _LABEL + r"[^.;\d]{0,60}?(?:\d{2}\s*[-\s]weeks?\s+)?end(?:ed|ing|s)?\s*(?:on\s+)?" + _DATE_TAIL, re.I)
_PAIR_DATE_FIRST = re.compile(
    r"(?:year|weeks|period)\s+ended\s*" + _DATE_TAIL + r"\s*\(?\s*[(“\"']{0,2}\s*" + _LABEL, re.I)


def _date_in(s: str) -> date | None:
    found = _find_dates(s)
    return found[0].day if found else None


def read_calendar(page_texts: Sequence[str], column_headers: Sequence[tuple[str, str]] = ()) -> Calendar:
    """A filing's calendar from its page texts (cover first) and its tables' (header, context) pairs.

    Year end: the cover's "For the fiscal year ended ...", else "fiscal year ends/ending ...", "52 weeks ended ...",
    "the Saturday nearest January 31", else the most common month of "years ended ..." phrases. Shift: a majority
    vote of (fiscal year end - label) over phrases that pair a fiscal-year label with a date ("fiscal 2022 ended
    January 28, 2023", "the year ended January 28, 2023 ("fiscal 2022")", "Fiscal 2022 (52 Weeks Ended ...)").
    """
    pages = [p or "" for p in page_texts]
    cover = " ".join(" ".join(pages[:2]).split())
    full = " ".join(" ".join(pages).split())
    month: int | None = None
    day: int | None = None
    source = ""
    cover_period: Period | None = None
    if m := _COVER_YEAR.search(cover):
        d = _date_in(m.group(0))
        if d is not None:
            month, day, source = d.month, d.day, m.group(0)
            cover_period = Period(end=d, year=d.year, months=12, label=m.group(0))
    if cover_period is None and (m := _COVER_QUARTER.search(cover)):
        d = _date_in(m.group(0))
        if d is not None:
            cover_period = Period(end=d, year=d.year, months=3, label=m.group(0))
    if month is None:
        for rx in (_FY_ENDS, _WEEKS_YEAR):
            if m := rx.search(full):
                d = _date_in(m.group(0))
                if d is not None:
                    month, day, source = d.month, d.day, m.group(0)
                    break
    if month is None and (m := _NEAREST.search(full)):
        month = _month(m["mon"] or m["mon2"])
        day = int(m["d"]) if m["d"] else _last_day(2001, month).day
        source = m.group(0)
    if month is None:
        votes = Counter[tuple[int, int]]()
        for m in _YEARS_ENDED.finditer(full):
            if d := _date_in(m.group(0)):
                votes[(d.month, d.day)] += 1
        if votes:
            (month, day), _ = votes.most_common(1)[0]
            source = f"years ended {_MONTH_NAMES[month - 1]} {day}"
    weeks = bool(_WEEKS.search(full)) or any(re.search(r"\bweeks?\b", h, re.I) for h, _ in column_headers)

    periods: list[Period] = []
    for header, context in column_headers:
        p = column_period(header, context)
        if p is not None:
            periods.append(p)
    if cover_period is not None:
        periods.append(cover_period)  # after the headers, so a column's own label is kept for the same period

    pairs: list[tuple[int, date, str]] = []
    for rx in (_PAIR_LABEL_FIRST, _PAIR_DATE_FIRST):
        for m in rx.finditer(full):
            d = _date_in(m["date"])
            if d is not None and not _INTERIM.search(m.group(0)):
                pairs.append((int(m["fy"]), d, m.group(0)))
    if month is None and pairs:
        # no stated year end: the dates that fiscal-year labels end on are year ends (the newest of the most named)
        named = Counter((d.month, d.day) for _, d, _ in pairs)
        top = max(named.values())
        _, when, source = max((p for p in pairs if named[(p[1].month, p[1].day)] == top), key=lambda p: p[1])
        month, day = when.month, when.day
    base = Calendar(year_end_month=month, year_end_day=day, shift=0, weeks=weeks)
    votes_shift = Counter[int]()
    for fy, d, _ in pairs:
        votes_shift[base._year_end_year(d) - fy] += 1
    for p in periods:
        if p.fiscal_year is not None and p.end is not None and p.quarter is None:
            votes_shift[base._year_end_year(p.end) - p.fiscal_year] += 1
    shift = 0
    if votes_shift:
        best = max(votes_shift.values())
        shift = min((s for s, n in votes_shift.items() if n == best), key=abs)
    cal = Calendar(year_end_month=month, year_end_day=day, shift=shift, weeks=weeks, source=source)

    distinct: dict[tuple[Any, ...], Period] = {}
    for p in periods:
        key = (p.end, p.year, p.months, p.instant, p.fiscal_year, p.quarter)
        if key not in distinct and (p.end is not None or p.year is not None or p.fiscal_year is not None):
            distinct[key] = p

    def newest(p: Period) -> tuple[date, int]:
        if p.end is not None:
            when = p.end
        elif p.fiscal_year is not None:
            when = cal._anchor(cal.end_year(p.fiscal_year)) or date(cal.end_year(p.fiscal_year), 12, 31)
        else:
            when = date(p.year or 1, 12, 31)
        return when, p.months or 0

    reported = list(distinct.values())
    if cover_period is not None and cover_period.end is not None:
        # a column after the period the cover reports is a schedule (debt maturities, lease payments by year,
        # a forecast), not a period the filing reports
        last = cover_period.end + _SLACK
        reported = [p for p in reported if newest(p)[0] <= last]
    ordered = tuple(sorted(reported, key=newest, reverse=True))
    return Calendar(year_end_month=month, year_end_day=day, shift=shift, weeks=weeks, periods=ordered, source=source)


# ---------------------------------------------------------------------------------------------------------------
# Matching a column to a question


def _fy(p: Period, cal: Calendar | None) -> int | None:
    if cal is not None:
        return cal.fiscal_year_of(p)
    if p.fiscal_year is not None:
        return p.fiscal_year
    return p.end.year if p.end is not None else p.year


def _quarter(p: Period, cal: Calendar | None) -> int | None:
    return cal.quarter_of(p) if cal is not None else p.quarter


def matches(asked: Asked, p: Period, cal: Calendar | None) -> float:
    """How well column period ``p`` fits what the question asks: 1.0 exact, lower for partial fits, 0 a mismatch.

    1.0: fiscal year and duration agree, or the balance date agrees, or (for a balance column) the fiscal year asked
    ends on that date. Partial: right year, duration unknown (0.6); a balance column in the asked year with no
    calendar to confirm it is the year end (0.8). 0: a different year, a different duration (a quarter column when
    a year is asked), a balance column when a flow is asked and its date is not the period's end. A question that
    names no period scores every column 0.5.
    """
    if asked.instant is not None:
        if p.end is not None:
            gap = abs(p.end - asked.instant)
            if gap.days == 0:
                return 1.0 if (p.instant or p.months is None) else 0.5
            if gap <= _SLACK and (cal is None or cal.weeks):
                return 0.8 if (p.instant or p.months is None) else 0.4
            return 0.0
        return 0.4 if p.year == asked.instant.year and p.months is None else 0.0

    if asked.end is not None:
        if p.end is None:
            return 0.4 if p.year == asked.end.year and p.months in (None, asked.months) else 0.0
        if abs(p.end - asked.end) > _SLACK:
            return 0.0
        if p.instant:
            return 0.5
        if asked.months is None or p.months == asked.months:
            return 1.0
        return 0.6 if p.months is None else 0.0

    fy = asked.fiscal_year
    if fy is None and asked.quarter is None and asked.months is None:
        return 0.5
    pfy = _fy(p, cal)
    if fy is not None and pfy != fy:
        return 0.0

    if p.instant:
        if p.end is None:
            return 0.6
        if asked.quarter is not None:
            q = _quarter(p, cal)
            if cal is not None and cal.at_year_end(p.end):
                q = 4
            return 1.0 if q == asked.quarter else 0.0
        if cal is not None and cal.year_end_month is not None:
            return 1.0 if cal.at_year_end(p.end) else 0.3
        return 0.8

    if asked.quarter is not None:
        want = asked.months or 3
        if p.months is not None and p.months != want:
            return 0.0
        q = _quarter(p, cal)
        if want != 3 and q is None and p.end is not None and cal is not None:
            q = cal.quarter_of(p)
        if q is not None and q != asked.quarter:
            return 0.0
        if p.months is None:
            return 0.5 if q is not None else 0.3
        return 1.0 if q is not None else 0.5

    if asked.months is not None:
        if p.months == asked.months:
            return 1.0
        return 0.6 if p.months is None else 0.0
    return 0.7


# ---------------------------------------------------------------------------------------------------------------
# Naming a period for a user


_QUARTER_NAMES = {1: "first", 2: "second", 3: "third", 4: "fourth"}
_MONTH_WORDS = {3: "three", 6: "six", 9: "nine", 12: "twelve"}


def what_it_is(p: Period, cal: Calendar | None) -> str:
    """A short name for a period, to flag a number taken from the wrong column: "fourth quarter (13 weeks ended
    January 28, 2023)", "fiscal 2021 (year ended January 29, 2022)", "balance at December 31, 2021"."""
    fy = _fy(p, cal)
    if p.instant:
        if p.end is not None:
            return f"balance at {_fmt_date(p.end)}"
        return f"balance at the end of fiscal {fy}" if fy is not None else "a balance"
    weeks = re.search(r"\b(\d{1,2})[\s-]*weeks?\b", p.label, re.I)
    if p.end is not None:
        ended = _fmt_date(p.end)
        if p.months == 12:
            long_year = weeks is not None and weeks.group(1) == "53"
            span = f"53 weeks ended {ended}" if long_year else f"year ended {ended}"
            return f"fiscal {fy} ({span})" if fy is not None else span
        if p.months is not None:
            span = (f"{weeks.group(1)} weeks ended {ended}" if weeks
                    else f"{_MONTH_WORDS.get(p.months, str(p.months))} months ended {ended}")
            q = _quarter(p, cal)
            if p.months == 3 and q is not None:
                return f"{_QUARTER_NAMES[q]} quarter ({span})"
            return span
        return f"period ended {ended}"
    if p.quarter is not None:
        return f"{_QUARTER_NAMES[p.quarter]} quarter of fiscal {fy}" if fy is not None else \
            f"{_QUARTER_NAMES[p.quarter]} quarter"
    if p.months in (6, 9) and fy is not None:
        return f"{_MONTH_WORDS[p.months]} months of fiscal {fy}"
    if fy is not None:
        return f"fiscal {fy}"
    return p.label or "unknown period"

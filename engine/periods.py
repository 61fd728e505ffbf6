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
    "last_periods",
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
_YEAR_ENDED = re.compile(r"\b(?:fiscal\s+)?years?\s+end(?:ed|ing)\s*$", re.I)
"""Words before a date that make it a year's end ("Year Ended December 31, 2017"), whatever else the heading names."""
_ORDINAL = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_ORD_QUARTER = re.compile(r"\b(?P<o>first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+quarter\b", re.I)
# the year a quarter is written with when the quarter's own token does not hold it: after it ("second quarter of
# fiscal 2024", "Q2 of 2023", "third quarter 2022") or before it ("2023 Q2", "FY24 Q1", "fiscal 2023 first quarter")
_QUARTER_YEAR_AFTER = re.compile(
    r"^\s*(?:of\s+|in\s+)?(?:(?:the\s+)?(?:fiscal\s+(?:year\s+)?|FY\s*)['’]?(?P<y2>\d{4}|\d{2})(?!\d)"
    r"|(?P<y>(?:19|20)\d{2})(?!\d))", re.I)
_QUARTER_YEAR_BEFORE = re.compile(
    r"(?:(?:fiscal\s+(?:year\s+)?|FY\s*)['’]?(?P<y2>\d{4}|\d{2})|(?<![\d$.,])(?P<y>(?:19|20)\d{2}))\s*$", re.I)
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
    starts: list[int] = []  # spans taken by the earlier patterns, in order (they never overlap)
    ends: list[int] = []

    def free(a: int, b: int) -> bool:
        i = bisect.bisect_left(starts, b)  # only the last span starting before b can reach past a
        return i == 0 or ends[i - 1] <= a

    def add(d: date | None, m: re.Match[str]) -> None:
        if d is not None and free(m.start(), m.end()):
            found.append(_Found(d, m.start(), m.end()))

    def taken() -> None:  # one pattern's matches never overlap one another: check each against the earlier ones
        spans = sorted((f.start, f.end) for f in found)
        starts[:], ends[:] = [a for a, _ in spans], [b for _, b in spans]

    for m in _MDY.finditer(text):
        add(_safe_date(int(m["y"]), _month(m["mon"]), int(m["d"])), m)
    taken()
    for m in _DMY.finditer(text):
        add(_safe_date(int(m["y"]), _month(m["mon"]), int(m["d"])), m)
    taken()
    for m in _NUMERIC.finditer(text):
        a, b, y = int(m["a"]), int(m["b"]), int(m["y"])
        day_first = a > 12 or (m["sep"] == "." and b <= 12)
        add(_safe_date(y, b, a) if day_first else _safe_date(y, a, b), m)
    taken()
    for m in _MY.finditer(text):
        add(_last_day(int(m["y"]), _month(m["mon"])), m)
    return sorted(found, key=lambda f: f.start)


_MONTH_YEAR = re.compile(rf"\b({_MON})\.?\s+(?:\d{{1,2}},?\s+)?((?:19|20)\d{{2}})\b", re.I)
"""A month and its year as a date names them ("September 2022", "Sept. 30, 2022")."""


def months_named(text: str) -> set[tuple[str, str]]:
    """The (month, year) pairs a text's dates name, the month by its first three letters ("In September 2022, ..."
    and "as of Sept. 30, 2022" both name ('sep', '2022'))."""
    return {(m.group(1)[:3].lower(), m.group(2)) for m in _MONTH_YEAR.finditer(text)}


def years_named(text: str) -> list[tuple[int, bool, str]]:
    """The years a text names as years, in order, each as (year, whether a fiscal label names it, as written):
    fiscal labels ("FY2022", "fiscal 2022", "FY'22", "Q4 FY22", "2022/23" -> 2023) and bare years ("in 2021"); the
    year of a date ("June 30, 2022") is the date's, not a year named."""
    return [(y, fiscal, written) for _, y, fiscal, written in years_at(text)]


def years_at(text: str) -> list[tuple[int, int, bool, str]]:
    """``years_named`` with where each is written: (position, year, fiscal, as written), in order."""
    p = _parts(text)
    written = dict(p.pieces)
    named = [(pos, y, True) for y, pos in p.fiscal_years] + [(pos, y, False) for y, pos in p.bare_years]
    return [(pos, y, fiscal, written.get(pos, "").strip()) for pos, y, fiscal in sorted(named)]


MONTH_PATTERN = _MON
"""A month's name as filings and questions write it ("Jan.", "January", "Sept"), no group."""


def names_day(text: str) -> bool:
    """Whether ``text`` names a day ("January 28, 2023", "28 Jan 2023", "1/28/2023"), not only a month ("July
    2020")."""
    return any(rx.search(text) for rx in (_MDY, _DMY, _NUMERIC))


def number_word(n: int) -> str:
    """A small whole number in words ("three"); '' beyond nineteen."""
    return "zero" if n == 0 else next((w for w, v in _SMALL.items() if v == n), "")


_LAST_N = re.compile(
    rf"\b(?:last|past|previous|prior|trailing|recent|latest)\s+(?P<n>\d{{1,2}}|{_NUMWORD})\s+(?:fiscal\s+)?"
    r"(?P<unit>quarters|years|10-?qs|10-?ks|quarterly\s+reports|annual\s+reports|filings|reports)\b",
    re.I,
)


def last_periods(text: str) -> tuple[int, str] | None:
    """(N, "quarter" or "year" or "") of "over the last four quarters", "the past 3 years", "the last two
    10-Qs" (a filing form or "reports" names no length); None when the text names no such run of periods."""
    m = _LAST_N.search(text)
    if m is None:
        return None
    unit = m.group("unit").lower()
    span = "quarter" if unit.startswith(("quarter", "10")) and "k" not in unit else "year" if unit.startswith(
        ("year", "annual")) or "k" in unit else ""
    return _number(m.group("n")), span


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


def fiscal_year_period(fiscal_year: int) -> Period:
    """The filer's fiscal year ``fiscal_year`` as a period, when only its name is known (a verdict's "FY2021")."""
    return Period(end=None, year=None, months=12, fiscal_year=fiscal_year, label=f"FY{fiscal_year}")


@dataclass
class _Parts:
    """What one piece of text says about a period, before it becomes a Period or an Asked."""

    dates: list[_Found] = field(default_factory=list)
    fiscal_years: list[tuple[int, int]] = field(default_factory=list)  # (year, position)
    bare_years: list[tuple[int, int]] = field(default_factory=list)
    quarter: int | None = None
    quarter_years: list[int] = field(default_factory=list)  # the years a quarter is written with
    half: bool = False
    months: list[int] = field(default_factory=list)
    weeks: int | None = None
    year_word: bool = False
    quarter_word: bool = False
    ytd: bool = False
    pieces: list[tuple[int, str]] = field(default_factory=list)  # (position, matched text)


def _quarter_year(text: str, start: int, end: int, p: _Parts) -> None:
    """The year written next to a quarter that names none itself (``_QUARTER_YEAR_AFTER``/``_BEFORE``), if any."""
    m = _QUARTER_YEAR_AFTER.match(text[end:end + 24]) or _QUARTER_YEAR_BEFORE.search(text[max(0, start - 20):start])
    if m:
        p.quarter_years.append(_year2(m["y"] or m["y2"]))


_INSTRUMENT_YEAR = re.compile(rf"(?<![\d$.,/]){_YEAR4}\s+(?:(?:senior|convertible|subordinated|unsecured|secured|"
                              r"exchangeable|green|fixed[- ]rate|floating[- ]rate)\s+)*(?:notes|debentures|bonds)\b|"
                              rf"\b(?:notes|debentures|bonds)\s+due\s+(?:in\s+)?{_YEAR4}(?!\d)", re.I)
"""A debt instrument named by its year ("the 2030 Notes", "its 2028 senior notes", "notes due 2031"): a name, not
a period asked."""


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
            p.quarter_years.append(_year2(y))
        else:
            _quarter_year(rest, m.start(), m.end(), p)
        p.pieces.append((m.start(), m.group(0)))
        spans.append((m.start(), m.end()))
    rest = _blank(rest, spans)
    for m in _ORD_QUARTER.finditer(rest):
        if p.quarter is None:
            p.quarter = _ORDINAL[m["o"].lower()]
        _quarter_year(rest, m.start(), m.end(), p)
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
    rest = _blank(rest, [(m.start(), m.end()) for m in _INSTRUMENT_YEAR.finditer(rest)])
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


_BOUND = re.compile(r"\b(?P<b>beginning|start|end)\s+of\s+(?:the\s+)?(?:fiscal\s+)?"
                    r"(?:(?:first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter|year|period|(?:fy\s*)?(?:19|20)\d{2})\b",
                    re.I)
"""A column counted at a bound of the period it names ("Total Stores at Beginning of Second Quarter", "Balance at End
of Year"): a balance, not a flow over the period."""


def _at_bound(text: str, quarter: int | None, fiscal_year: int | None, year: int | None
              ) -> tuple[int | None, int | None, int | None] | None:
    """(quarter, fiscal year, year) of the balance a header counts at a bound of its period (``_BOUND``), None when it
    names no bound. The end of a period is that period's; its beginning is the end of the period before: the
    beginning of the second quarter is the end of the first, of the first quarter the end of the fiscal year before,
    of a year the end of the year before."""
    m = _BOUND.search(text)
    if m is None:
        return None
    if m.group("b").lower() == "end":
        return quarter, fiscal_year, year
    before = lambda y: y - 1 if y is not None else None  # noqa: E731
    if quarter is not None and quarter > 1:
        return quarter - 1, fiscal_year, year
    if quarter == 1:
        return 4, before(fiscal_year), before(year)
    return None, before(fiscal_year), before(year)


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
    year_of_quarter = False
    if quarter is not None and end is not None and _YEAR_ENDED.search(text[: p.dates[0].start]):
        # "Year Ended December 31, 2017 ... Third Quarter": the date ends the year the quarter is of, not the quarter
        fiscal_year, end, year_of_quarter = end.year, None, True
    if fiscal_year is None and (quarter is not None or p.half) and year is not None and end is None:
        fiscal_year = year  # "Q4 2022", "H1 2023": quarters and halves are counted in fiscal years
    if fiscal_year is not None and year is None and end is None and p.fiscal_years and p.quarter is not None:
        year = fiscal_year  # "Q4'22" shows its year too

    months = _duration_of(_blank(text, [(f.start, f.end) for f in p.dates]))
    instant = False
    if end is not None and _INSTANT_HEAD.search(text[: p.dates[0].start]):
        instant = True
    if end is None and (bound := _at_bound(text, quarter, fiscal_year, year)) is not None:
        (quarter, fiscal_year, year), instant = bound, True
    # a date with no year ("June 30") takes the one year the header or context shows
    if end is None and not year_of_quarter:
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
            ctx_quarter = _parts(ctx).quarter if ctx_months == 3 else None
            if quarter is None and ctx_quarter is not None and end is None and not _OTHER_DURATION.search(ctx):
                # "SECOND QUARTER" over columns "2023 Amount", "2022 Amount": each year's second quarter
                quarter = ctx_quarter
                fiscal_year = fiscal_year if fiscal_year is not None else year
        elif balance and ctx_months is None and (p.quarter is None and not p.fiscal_years):
            instant = True
        if end is None and year is not None and fiscal_year is None and quarter is None:
            mds = _month_days(ctx) or [(f.day.month, f.day.day) for f in _find_dates(ctx)]
            if len(set(mds)) == 1:
                # a year that ends in the first week of January (a 52/53-week calendar year) is labelled by the
                # year it covers: "2022" over "January 1, 2023" ends on January 1, 2023
                month, day = mds[0]
                end = _safe_date(year + 1 if (month, day) <= (1, _FIRST_WEEK) else year, month, day)
    if instant:
        months = None
    if end is None and year is None and fiscal_year is None and quarter is None:
        return None
    return Period(end=end, year=year, months=months, instant=instant, fiscal_year=fiscal_year, quarter=quarter,
                  label=text)


PERIOD_NOUNS = frozenset({"quarter", "quarters", "month", "months", "week", "weeks", "year", "years", "half", "fiscal",
                          "annual", "period", "periods", "interim", "ended", "ending", "end", "full"})
"""The words that frame a period whichever it is ("the quarter ended", "fiscal year", "at the end of 2020"): no month,
no number."""
PERIOD_WORDS = frozenset({*(m.lower() for m in _MONTH_NAMES), *_ORDINAL, *_SMALL, *_TENS, *PERIOD_NOUNS})
"""The words that name a period and nothing else ("the first nine months", "fourth quarter"): no subject of a
question is matched by them."""
RELATIVE_WORDS = frozenset({"most", "recent", "latest", "last", "prior", "previous", "preceding", "past", "trailing"})
"""The words that place a period against another ("the most recent 10-Q", "the prior quarter"): what a question
asks about is no more named by them than by a period's own words ("Were there changes to its accounting policies
in the most recent 10-Q?" is not about "the most recent fiscal quarter"'s internal control)."""
_FIRST_WEEK = 7
"""Days of January in which a fiscal year that ends there is the year before's (a 52/53-week calendar year)."""
_OTHER_DURATION = re.compile(
    r"\b(?:full[\s-]year|years?\s+ended|twelve|six|nine|fiscal\s+year|year[\s-]to[\s-]date|ytd)\b", re.I)
"""Words of a table's context that name a duration besides a quarter ("Fourth Quarter and Full Year")."""
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
    instants: tuple[date, ...] = ()
    """Every balance date it names, in order ("from January 28, 2023 to July 29, 2023": both); ``instant`` is the
    first."""
    quarter_years: tuple[int, ...] = ()
    """The years a quarter is written with ("Q2 2023", "second quarter of fiscal 2024", "FY24 Q1"), in order: the
    quarter asked is of those years; a year named without one ("from year-end 2021 to the end of Q2 2023": 2021) is a
    year. Empty when the quarter names no year ("Q2", "the second quarter"): it is of every year named."""


_ENDED_BEFORE = re.compile(r"\b(?:end(?:ed|ing|s)?|through|thru)\s*(?:on\s+)?$", re.I)
_BALANCE_WORDS = re.compile(r"\b(?:end\s+of|year[\s-]end|as\s+(?:of|at)|at\s+the\s+close\s+of)\b", re.I)


def asked_period(question: str) -> Asked:
    """The period ``question`` asks about: fiscal year, quarter, duration, balance date and every year named."""
    text = " ".join(question.split())
    p = _parts(text)
    instant: date | None = None
    end: date | None = None
    instants: list[date] = []
    for f in p.dates:
        before = text[max(0, f.start - 40): f.start]
        if _ENDED_BEFORE.search(before):
            end = end or f.day
        elif f.day not in instants:
            instants.append(f.day)
            instant = instant or f.day
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
                 text="; ".join(pieces), end=end, fiscal_named=fiscal_named, instants=tuple(instants),
                 quarter_years=tuple(dict.fromkeys(p.quarter_years)))


# ---------------------------------------------------------------------------------------------------------------
# A filing's calendar


SLACK = timedelta(days=10)
"""Two period ends this close are one (52/53-week years end within a week of their nominal day)."""


def same_end(a: date | None, b: date | None) -> bool:
    """Whether two period ends are one (within ``SLACK``)."""
    return a is not None and b is not None and abs(a - b) <= SLACK


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
    naming_stated: bool = False
    """Whether the filing's own words pair a fiscal-year label with a date, so ``shift`` is the filer's naming;
    False where ``shift`` is the usual reading for the year end, assumed (``other_reading`` gives the other)."""
    naming_evidence: tuple[str, ...] = ()
    """The filing's phrases ``shift`` was read from, first found first ("Fourth Quarter Fiscal 2022 Results ...
    ended January 28, 2023"); empty when assumed."""

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
        near = [a for a in anchors if abs(a - d) <= SLACK]
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
        return anchor is not None and abs(anchor - d) <= SLACK

    def other_reading(self, fiscal_year: int) -> int | None:
        """The filer's label for the year that "fiscal ``fiscal_year``" names under the other naming, or None where
        the year end leaves no other.

        A fiscal year that ends from January to March lies mostly in the calendar year before, and filers differ in
        which year names it: "fiscal 2022" is the year ended January 28, 2023 for one retailer and the year ended
        January 29, 2022 for another. Where this filer names years by the year they end in (``shift`` 0), a
        reader who names them by the year they start in means the filer's ``fiscal_year + 1``; where it names them
        by the year they start in (``shift`` 1), the other reading is its ``fiscal_year - 1``. Years ending April
        to December, or in the first week of January (a 52/53-week calendar year), have one naming in use: None.
        """
        if not _two_namings(self.year_end_month, self.year_end_day):
            return None
        return fiscal_year - 1 if self.shift else fiscal_year + 1

    def naming_rule(self) -> str:
        """How the filing's years are named, without the why: "fiscal 2022 = 52 weeks ended Jan 28, 2023" (its
        newest year), "fiscal N ends in Feb of N+1" where it reports no full year; "" when the year end is
        unknown."""
        if self.year_end_month is None:
            return ""
        annual = [p for p in self.periods if p.months == 12 and p.end is not None and not p.instant
                  and self.at_year_end(p.end)]  # twelve months to a quarter's end are not a fiscal year
        if annual:
            p = annual[0]
            weeks = re.search(r"\b(5[23])[\s-]*weeks?\b", p.label, re.I)
            span = f"{weeks.group(1)} weeks" if weeks else "year"
            rule = f"fiscal {self.fiscal_year_of(p)} = {span} ended {_fmt_date(p.end, short=True)}"  # type: ignore[arg-type]
        else:
            mon = _MONTH_NAMES[self.year_end_month - 1][:3]
            rule = f"fiscal N ends in {mon} of N+{self.shift}" if self.shift else f"fiscal N ends in {mon} of N"
            if self.weeks and self.year_end_month == 1 and (self.year_end_day or 31) <= 7 and self.shift:
                rule = "fiscal N ends in late Dec of N or early Jan of N+1"
        return rule

    def naming_why(self) -> str:
        """Why ``naming_rule`` holds: 'the filing: "Fourth Quarter Fiscal 2022 Results ... quarter ended January 28,
        2023"', or "assumed: the filing does not name its fiscal years", with what filers who name years the other
        way call the year where two namings are in use ("; others call the year ended Jan 28, 2023 fiscal 2023")."""
        if self.naming_stated and self.naming_evidence:
            return f'the filing: "{self.naming_evidence[0]}"'
        why = "assumed: the filing does not name its fiscal years"
        annual = [p for p in self.periods if p.months == 12 and p.end is not None and not p.instant
                  and self.at_year_end(p.end)]
        if annual and (fy := self.fiscal_year_of(annual[0])) is not None and self.other_reading(fy) is not None:
            other = fy + 1 if self.shift else fy - 1
            why += f"; others call the year ended {_fmt_date(annual[0].end, short=True)} fiscal {other}"  # type: ignore[arg-type]
        return why

    def naming(self) -> str:
        """``naming_rule`` and ``naming_why``: "fiscal 2022 = 52 weeks ended Jan 28, 2023 (the filing: "Fourth
        Quarter Fiscal 2022 Results ... quarter ended January 28, 2023")", "fiscal 2023 = year ended Dec 31, 2023
        (assumed: the filing does not name its fiscal years)"; "" when the year end is unknown."""
        rule = self.naming_rule()
        return f"{rule} ({self.naming_why()})" if rule else ""

    def describe(self, naming: bool = True) -> str:
        """One line for a UI detail line, e.g. "FY ends late Jan/early Feb (52/53 weeks); fiscal 2022 = 52 weeks
        ended Jan 28, 2023 (the filing: "..."); covers FY2020-FY2022, Q4 FY2022"; without the naming part
        (``naming()``) when ``naming`` is False."""
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
        if naming and (named := self.naming()):
            parts.append(named)
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
            "periods_summary": self.describe(naming=False),
            "naming": {"stated": self.naming_stated, "evidence": list(self.naming_evidence),
                       "rule": self.naming_rule(), "why": self.naming_why(), "summary": self.naming()},
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> Calendar:
        """The Calendar ``to_json`` wrote; one stored before the naming was read loads as assumed."""
        naming = d.get("naming")
        naming = naming if isinstance(naming, dict) else {}
        return Calendar(
            year_end_month=d.get("year_end_month"),
            year_end_day=d.get("year_end_day"),
            shift=int(d.get("shift", 0)),
            weeks=bool(d.get("weeks", False)),
            periods=tuple(_period_from_json(p) for p in d.get("periods", ())),
            source=str(d.get("source", "")),
            naming_stated=bool(naming.get("stated", False)),
            naming_evidence=tuple(str(e) for e in naming.get("evidence", ())),
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
# a two-column cover sets other words between "ended" and its date ("For the quarterly period ended Commission file
# June 30, 2022 number 1-5805"), as engine/metadata.py reads it too
_COVER_YEAR = re.compile(r"for\s+the\s+(?:fiscal\s+)?year\s+ended:?[^0-9]{0,40}?" + _DATE_TAIL, re.I)
_COVER_QUARTER = re.compile(r"for\s+the\s+(?:quarterly\s+)?period\s+ended:?[^0-9]{0,40}?" + _DATE_TAIL, re.I)
_FY_ENDS = re.compile(r"fiscal\s+years?\s+end(?:ed|ing|s)?\s*(?:on\s+)?" + _DATE_TAIL, re.I)
_WEEKS_YEAR = re.compile(r"\b(?:5[23]|fifty[\s-](?:two|three))[\s-]+weeks?\s+ended\s*" + _DATE_TAIL, re.I)
_NEAREST = re.compile(
    rf"(?:saturday|sunday|friday)\s+(?:nearest|closest)(?:\s+to)?\s+(?:the\s+(?:last\s+day\s+of|end\s+of)\s+)?"
    rf"(?P<mon>{_MON})(?:\s+(?P<d>\d{{1,2}}))?"
    rf"|last\s+(?:saturday|sunday|friday)\s+(?:of|in)\s+(?P<mon2>{_MON})",
    re.I,
)
_YEARS_ENDED = re.compile(r"\b(?:fiscal\s+)?years?\s+ended\s*" + _DATE_TAIL, re.I)
_INTERIM = re.compile(r"\b(?:quarters?|half|months|(?:1\d|2\d|3\d|4[0-4])\s*[-\s]weeks?)\b", re.I)

# How a filing names its fiscal years. A label ("fiscal 2022", "Fourth Quarter Fiscal 2022", "FY23", "2022/23")
# is paired with a period-end date where the filing's words tie them: the label, then the date it ends on ("fiscal
# 2022 ended January 28, 2023", "Fiscal 2022 (52 weeks ended ...)"); the date, then the label in apposition ("the
# year ended January 28, 2023 ("fiscal 2022")"); a list of labels, then as many dates in the same order ("fiscal
# 2022 and 2021 were 52-week years ended January 28, 2023 and January 29, 2022"; a statement header's "Fiscal 2022
# Fiscal 2021" over its dates). Failing those, the first pages' title, where they title one fiscal year and report
# periods ending in one ("Fourth Quarter Fiscal 2022 Results" over "the quarter ended January 28, 2023"); failing
# that, the fiscal year a report names clearly most for the period its cover reports. A label and a date a naming
# cannot join (fiscal 2021 ending in December 2022) are not evidence.
_ORD = r"first|second|third|fourth|1st|2nd|3rd|4th"
_YEAR_NAME = re.compile(
    rf"(?:\b(?P<o>{_ORD})[\s-]+quarter(?:\s+of)?(?:\s+the)?\s+|\bQ(?P<q>[1-4])\s*)?"
    rf"(?:\b(?:fiscal(?:\s+years?)?|financial\s+years?|FY)\s*['’]?(?P<fy>{_YEAR4})(?![\d%])"
    rf"|(?<![\d$.,/])(?P<fyb>{_YEAR4})\s+(?:fiscal|financial)\s+year\b"
    rf"|\b(?:fiscal(?:\s+years?)?\s*['’]|FY\s*['’]?)(?P<fy2>\d{{2}})(?![\d%,.]\d|\d)"
    rf"|(?<![\d$.,/])(?P<sy>{_YEAR4})(?=\s*[/–-]\s*\d))"
    rf"(?:\s*[/–-]\s*(?P<end>{_YEAR4}|\d{{2}})(?![\d%]))?"
    rf"(?:[\s,-]+(?P<o2>{_ORD})[\s-]+quarter\b|\s*[-\s]\s*Q(?P<q2>[1-4])\b)?",
    re.I,
)
"""A fiscal-year label ("fiscal 2022", "FY23", "financial year 2022", "the 2022 fiscal year") with its quarter if it
names one; a bare "2022/23" only as a span."""
_MORE_YEARS = re.compile(rf"\s*(?:,\s*(?:and\s+|&\s*)?|and\s+|&\s*)(?:fiscal(?:\s+years?)?\s*|FY\s*)?['’]?"
                         rf"(?P<fy>{_YEAR4})(?![\d%/])", re.I)
"""A list continued: "fiscal 2022, 2021 and 2020"."""
_WEEK_COUNT = re.compile(rf"\b(?:\d{{1,2}}|{_NUMWORD})(?:\s*(?:/|or)\s*(?:\d{{1,2}}|{_NUMWORD}))?[\s-]*weeks?\b", re.I)
_LABEL_SEP = re.compile(r"[\s,“”\"'‘’()&]*(?:(?:and|or|fiscal|years?|FY)\b[\s,“”\"'‘’()&]*)*", re.I)
_DATE_SEP = re.compile(
    r"[\s,;()]*(?:and\b[\s,()]*)?(?:(?:years?|weeks?|months?|periods?)\s+)?(?:end(?:ed|ing)\b)?[\s,()]*", re.I)
_PUNCT = r"[\s,;:()\-–—“”\"'‘’]*"
_PERIOD_TALK = re.compile(
    _PUNCT + r"(?:(?:fiscal|years?|periods?|weeks?|ended|ending|ends?|on|was|is|were|are|will|be|been|each|both|"
    r"consisted|consists?|included|includes?|comprised|comprises?|contained|contains?|of|a|an|the|which|that|and|or|"
    r"through|as|its|our|full)\b" + _PUNCT + r")*",
    re.I,
)
"""Words between a label and the date it ends on say only that it is a period that ends: "fiscal 2022 ended",
"Fiscal 2023 was a 53-week year ending", "Fiscal 2022 and 2021 each consisted of 52 weeks ended"."""
_ENDS_AFTER = re.compile(r"\b(?:end(?:ed|ing|s)?|through)(?:\s+on)?[\s(“\"']*$", re.I)
_HEADER_GAP = re.compile(r"[\s()]*(?:(?:fiscal|years?|weeks?|ended|ending|the)\b[\s()]*)*", re.I)
_APPOSITION = re.compile(
    r"[\s,(\[“”\"'‘’]*(?:(?:or|the|also|herein(?:after)?|hereafter|referred|refer|to|as|known|collectively|"
    r"respectively|which|we|call|called|is|are|being|each)\b[\s,(\[“”\"'‘’]*)*",
    re.I,
)
_COMPARED = re.compile(
    r"\b(?:compar\w*|versus|vs\.?|from|than|over|prior|previous|preceding|last|earlier)\b", re.I)
_YEAR_LABEL = r"(?:(?:fiscal|calendar)\s+(?:year\s+)?|(?:the\s+)?year\s+)?(?:19|20)\d{2}"
PERIOD_COMPARISON = re.compile(rf"^\W*{_YEAR_LABEL}\s+(?:compared\s+(?:with|to)|versus|vs\.?|v\.)\s+{_YEAR_LABEL}\W*$",
                               re.I)
"""A line that is one year compared with another, whole: a results section's period heading, in any case
("Fiscal 2018 Compared to Fiscal 2017", "Fiscal year 2015 compared with fiscal year 2014", "2021 vs. 2020"). Every
sentence under it is told of its first year."""
SPAN_SECTION = re.compile(r"(?P<quarter>Quarterly [Rr]esults|Three [Mm]onths [Ee]nded|Quarter [Ee]nded)|"
                          r"(?P<ytd>Year-to-[Dd]ate [Rr]esults|Six [Mm]onths [Ee]nded|Nine [Mm]onths [Ee]nded|"
                          r"First [Hh]alf)")
"""A section's span as its heading or run-in line names it, a capital first ("Quarterly results", "Year-to-date
results", "Six Months Ended June 30"; "for the six months ended" inside a sentence is that sentence's): an interim
report tells the quarter, then the year to date, in sections alike."""
SPAN_HEADING = re.compile(r"^\W*(?:Quarterly|Year-to-[Dd]ate)\s+[Rr]esults\W*$")
"""A line that is a span section's heading whole ("Quarterly results", "Year-to-date results")."""


def period_heading(line: str) -> bool:
    """Whether a line is a period's section heading whole: one year compared with another (``PERIOD_COMPARISON``)
    or a span's section (``SPAN_HEADING``). It dates the sentences under it and names no part."""
    return bool(PERIOD_COMPARISON.match(line) or SPAN_HEADING.match(line))


_FORWARD = re.compile(
    r"\b(?:outlook|guidance|expects?|expected|expecting|forecasts?|will|plans?|planned|targets?|anticipates?|"
    r"anticipated|projects?|projected|estimates?|intends?|goals?)\b",
    re.I,
)
_SENTENCE_END = re.compile(r"(?<=[A-Za-z0-9)\]”\"’%])[.!?;]\s+(?=[A-Z“\"(])")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_FRONT_TEXTS = 3
"""The first page texts, read for a title's label ("Fourth Quarter Fiscal 2022 Results")."""


@dataclass(frozen=True)
class _Token:
    """A fiscal-year label or a full date in a piece of text."""

    start: int
    end: int
    fiscal_year: int | None = None
    quarter: int | None = None
    day: date | None = None


@dataclass(frozen=True)
class _Named:
    """A fiscal-year label the filing ties to a date: evidence of how it names its years."""

    fiscal_year: int
    quarter: int | None
    day: date
    phrase: str
    annual: bool
    """The date ends the labelled year itself (not a quarter or months of it)."""


def _two_namings(month: int | None, day: int | None) -> bool:
    """Whether filers name a fiscal year ending on (``month``, ``day``) in two ways, by the calendar year it ends
    in or by the one it starts in: a year ending January to March (retailers' January years, Japanese filers'
    March years), not one ending in the first week of January (a 52/53-week calendar year). A year ending April to
    December is named by the year it ends in."""
    if month is None:
        return False
    return 1 <= month <= 3 and not (month == 1 and (day or 31) <= _FIRST_WEEK)


def _usual_shift(month: int | None, day: int | None, weeks: bool) -> int:
    """The shift assumed where the filing does not say: a 52/53-week year ending in January or the first week of
    February is named by the year it starts in (the retail calendar: "fiscal 2022" ends January 28, 2023, and a
    year ending January 1, 2022 is fiscal 2021); any other year by the year it ends in."""
    if month is None or not weeks:
        return 0
    return 1 if month == 1 or (month == 2 and (day or 31) <= 7) else 0


def _date_in(s: str) -> date | None:
    found = _find_dates(s)
    return found[0].day if found else None


def _clean_phrase(text: str, limit: int = 120) -> str:
    """A filing's phrase as evidence: one line, no control characters, at most ``limit`` characters."""
    s = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    if len(s) > limit:
        s = s[: limit // 2 - 2].rstrip() + " … " + s[-(limit // 2 - 2):].lstrip()
    return s


def _full_dates(text: str) -> list[_Found]:
    """Dates with a day ("January 28, 2023", "31 March 2023", "31.03.2023"), not "March 2023"."""
    return [f for f in _find_dates(text) if not _MY.fullmatch(text[f.start:f.end])]


def _tokens(text: str) -> list[_Token]:
    """Fiscal-year labels and full dates in ``text``, in order."""
    dates = _full_dates(text)
    out = [_Token(f.start, f.end, day=f.day) for f in dates]
    starts = [f.start for f in dates]

    def free(a: int, b: int) -> bool:
        i = bisect.bisect_left(starts, b)  # the dates that start before b, in order; only the last can reach a
        return i == 0 or dates[i - 1].end <= a

    pos = 0
    while m := _YEAR_NAME.search(text, pos):
        pos = max(m.end(), m.start() + 1)
        if not free(m.start(), m.end()):
            continue
        if m["sy"] is not None or m["end"] is not None:
            first = int(m["sy"] or m["fy"] or _year2(m["fy2"]))
            if m["end"] is None or _year2(m["end"], near=first) != first + 1:
                continue  # a span names consecutive years ("2022/23"); "2021-2023" is a range
            fy = first + 1
        else:
            fy = int(m["fy"] or m["fyb"]) if (m["fy"] or m["fyb"]) else _year2(m["fy2"])
        o = m["o"] or m["o2"]
        q = _ORDINAL[o.lower()] if o else (int(m["q"] or m["q2"]) if (m["q"] or m["q2"]) else None)
        out.append(_Token(m.start(), m.end(), fiscal_year=fy, quarter=q))
        last = fy
        while more := _MORE_YEARS.match(text, pos):
            y = int(more["fy"])
            if abs(y - last) != 1 or not free(more.start("fy"), more.end("fy")):
                break  # a list of fiscal years runs year by year
            out.append(_Token(more.start("fy"), more.end("fy"), fiscal_year=y))
            last, pos = y, more.end()
    return sorted(out, key=lambda t: t.start)


def _runs(text: str, tokens: list[_Token]) -> list[list[_Token]]:
    """Tokens grouped into lists of one kind: "fiscal 2022, 2021 and 2020", "January 28, 2023 and January 29,
    2022", a header's "52 Weeks Ended January 28, 2023 52 Weeks Ended January 29, 2022"."""
    runs: list[list[_Token]] = []
    for t in tokens:
        if runs:
            prev = runs[-1][-1]
            same = (prev.day is None) == (t.day is None)
            sep = _LABEL_SEP if t.day is None else _DATE_SEP
            if same and sep.fullmatch(_WEEK_COUNT.sub(" ", text[prev.end:t.start])):
                runs[-1].append(t)
                continue
        runs.append([t])
    return runs


def _pairs_in(text: str) -> list[tuple[_Token, _Token, str]]:
    """(label, date, phrase) the words of ``text`` (one sentence or header) tie together."""
    runs = _runs(text, _tokens(text))
    out: list[tuple[_Token, _Token, str]] = []
    for a, b in zip(runs, runs[1:], strict=False):
        if len(a) != len(b) or (a[0].day is None) == (b[0].day is None):
            continue
        gap = text[a[-1].end:b[0].start]
        bare = _WEEK_COUNT.sub(" ", gap)
        if a[0].day is None:  # labels, then the dates they end on
            if len(bare) > 70 or not _PERIOD_TALK.fullmatch(bare):
                continue
            if not (_ENDS_AFTER.search(bare) or (len(a) > 1 and _HEADER_GAP.fullmatch(bare))):
                continue
            labels, dates = a, b
        else:  # dates, then their labels in apposition
            if len(bare) > 40 or not _APPOSITION.fullmatch(bare):
                continue
            before = _WEEK_COUNT.sub(" ", text[max(0, a[0].start - 40):a[0].start])
            if not (_ENDS_AFTER.search(before) or (len(a) > 1 and not bare.strip())):
                continue
            labels, dates = b, a
        phrase = _clean_phrase(_phrase(text, min(a[0].start, b[0].start), max(a[-1].end, b[-1].end)))
        out.extend((lab, d, phrase) for lab, d in zip(labels, dates, strict=True))
    return out


_ENDED_BEFORE_DATE = re.compile(
    rf"(?:\b(?:fiscal\s+)?(?:years?|(?:\d{{1,2}}|{_NUMWORD})[\s-]*weeks?|periods?|quarters?|months)\s+)?"
    r"\bend(?:ed|ing)(?:\s+on)?\s*$",
    re.I,
)


def _phrase(text: str, start: int, end: int) -> str:
    """``text[start:end]`` widened to read as a phrase: "the year ended" before a date that opens it, the closing
    quote or parenthesis after a label that ends it."""
    if m := _ENDED_BEFORE_DATE.search(text[max(0, start - 40):start]):
        start -= len(m.group(0))
    if m := re.match(r"[”\"'’)\]]+", text[end:]):
        end += m.end()
    return text[start:end]


def _around(text: str, token: _Token, width: int = 70) -> str:
    """The words around ``token`` in ``text``, at most about ``width`` characters, the token kept whole."""
    if len(text) <= width:
        return _clean_phrase(text, width)
    spare = max(0, width - (token.end - token.start)) // 2
    a, b = max(0, token.start - spare), min(len(text), token.end + spare)
    a = a if a == 0 else text.find(" ", a) + 1 or token.start
    b = b if b == len(text) else max(text.rfind(" ", token.end, b), token.end)
    return _clean_phrase(text[min(a, token.start):b].rstrip(" .,;:"), width + 10)


def _sentences(page: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(" ".join(page.split())) if s]


_MONTH_WORD = re.compile(rf"{_MON}", re.I)


def _clauses(page: str) -> list[str]:
    """A page's sentences, a heading on a line of its own counted as one: a line ending in a capitalised word
    ("Fourth Quarter Fiscal 2022 Results") ends its clause, as a full stop does."""
    out: list[str] = []
    block: list[str] = []
    for line in page.splitlines():
        words = line.split()
        if not words:
            continue
        block.append(line)
        last = words[-1].strip("\"”’)")
        if last[:1].isupper() and not _MONTH_WORD.fullmatch(last):
            out += _sentences(" ".join(block))
            block = []
    return out + _sentences(" ".join(block))


def _stated_names(pages: Sequence[str], headers: Sequence[Period]) -> list[_Named]:
    """Labels the filing's phrases and statement headers tie to dates, in the order found."""
    found: list[_Named] = []
    for page in pages:
        for sentence in _sentences(page):
            for label, d, phrase in _pairs_in(sentence):
                interim = label.quarter not in (None, 4) or bool(_INTERIM.search(_WEEK_COUNT.sub(
                    lambda m: m.group(0) if re.match(r"(?:1\d|2\d|3\d|4[0-4])\b", m.group(0)) else " ", phrase)))
                found.append(_Named(label.fiscal_year or 0, label.quarter, d.day or date.min, phrase,
                                    annual=not interim))
    for p in headers:
        if p.fiscal_year is not None and p.end is not None and p.quarter is None and not p.instant:
            found.append(_Named(p.fiscal_year, None, p.end, _clean_phrase(p.label), annual=p.months in (None, 12)))
    return found


def _period_ends(sentence: str) -> list[tuple[date, str]]:
    """Dates a sentence reports a period to ("ended January 28, 2023", and the dates listed after it), not the
    ones it compares with ("compared to the quarter ended January 29, 2022")."""
    out: list[tuple[date, str]] = []
    compared = _COMPARED.search(sentence)
    cut = compared.start() if compared else len(sentence)
    for run in _runs(sentence, [t for t in _tokens(sentence) if t.day is not None]):
        head = run[0]
        if head.start >= cut or not _ENDS_AFTER.search(_WEEK_COUNT.sub(" ", sentence[max(0, head.start - 40):
                                                                                        head.start])):
            continue
        said = _clean_phrase(_phrase(sentence, head.start, head.end), 60)
        for t in run:
            if t.start < cut and t.day is not None:
                out.append((t.day, said if t is head else f"{said} … {sentence[t.start:t.end]}"))
    return out


_MINOR_WORDS = {"a", "an", "and", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with", "vs", "versus"}


def _heading(line: str) -> bool:
    """Whether a line is a title: short, no sentence in it, its words capitalised ("Fourth Quarter Fiscal 2022
    Results", "FISCAL 2022 ANNUAL REPORT", "Annual Report 2022/23")."""
    text = " ".join(line.split())
    if not text or len(text) > 100 or re.search(r"[.;,]$|[.!?;]\s", text):
        return False
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'’&-]*", text) if w.lower() not in _MINOR_WORDS]
    return bool(words) and sum(w[0].isupper() for w in words) >= 0.75 * len(words)


def _titled_names(pages: Sequence[str], base: Calendar) -> list[_Named]:
    """A filing whose first pages title one fiscal year (not a forecast's) and report periods ending in one fiscal
    year: the title's label names that year ("Fourth Quarter Fiscal 2022 Results" over "the quarter ended January
    28, 2023"; "Annual Report 2022/23" over "the year ended 31 March 2023")."""
    labels: list[tuple[_Token, str]] = []
    ends: list[tuple[date, str]] = []
    for page in pages[:_FRONT_TEXTS]:
        for line in page.splitlines():
            title = " ".join(line.split())
            if _heading(title) and not _FORWARD.search(title):
                labels += [(t, title) for t in _tokens(title) if t.day is None]
        for clause in _clauses(page):
            ends += _period_ends(clause)
    if len({t.fiscal_year for t, _ in labels}) != 1 or not ends:
        return []
    label, title = labels[0]
    quarters = {t.quarter for t, _ in labels} - {None}
    q = quarters.pop() if len(quarters) == 1 else None
    if base.year_end_month is not None:
        if len({base._year_end_year(d) for d, _ in ends}) != 1:
            return []
        day, said = max(ends, key=lambda e: e[0])
        annual = base.at_year_end(day)
        if q is not None and (4 if annual else base.quarter_of(Period(day, day.year, 3))) != q:
            return []  # the quarter titled is not the quarter reported
    elif q == 4 and len({d for d, _ in ends}) == 1:
        (day, said), annual = ends[0], True  # a fourth quarter ends on its year's last day
    else:
        return []
    return [_Named(label.fiscal_year or 0, q, day, f"{_around(title, label)} … {said}", annual=annual)]


def _most_named(pages: Sequence[str], base: Calendar, reported: Period | None) -> list[_Named]:
    """The fiscal year a report names most, for the period its cover says it reports: a quarterly report speaks of
    its quarter ("the third quarter of fiscal year 2024", again and again, over "For the quarterly period ended
    October 29, 2023"), an annual report of its year. Counted only where one label leads (at least three mentions,
    a fifth more than the next: an annual report names its prior year almost as often as its own)."""
    if reported is None or reported.end is None or base.year_end_month is None:
        return []
    d = reported.end
    quarter = None if reported.months == 12 else base.quarter_of(Period(d, d.year, 3))
    counts: Counter[int] = Counter()
    said: dict[int, Counter[str]] = {}
    for page in pages:
        for sentence in _sentences(page):
            if _FORWARD.search(sentence):
                continue
            for t in _tokens(sentence):
                if t.day is None and t.fiscal_year is not None and t.quarter == quarter:
                    counts[t.fiscal_year] += 1
                    said.setdefault(t.fiscal_year, Counter())[" ".join(sentence[t.start:t.end].split())] += 1
    if not counts:
        return []
    (fy, n), *rest = counts.most_common(2)
    if n < 3 or (rest and n < 1.2 * rest[0][1]):
        return []
    words = said[fy].most_common(1)[0][0]
    return [_Named(fy, quarter, d, f"{words} (named {n} times) … {_clean_phrase(reported.label, 60)}",
                   annual=reported.months == 12)]


def read_calendar(page_texts: Sequence[str], column_headers: Sequence[tuple[str, str]] = ()) -> Calendar:
    """A filing's calendar from its page texts (cover first) and its tables' (header, context) pairs.

    Year end: the cover's "For the fiscal year ended ...", else "fiscal year ends/ending ...", "52 weeks ended ...",
    "the Saturday nearest January 31", else the most common month of "years ended ..." phrases, else the date that
    fiscal-year labels end on. Shift (how it names its years): a majority vote of (fiscal year end - label) over
    the labels its phrases and statement headers tie to dates ("fiscal 2022 ended January 28, 2023", "the year
    ended January 28, 2023 ("fiscal 2022")", "Fiscal 2022 (52 Weeks Ended ...)"), else the first pages' title label
    and the periods they report, else the fiscal year the report names most for the period its cover reports;
    where none says, the usual naming for the year end, marked as assumed.
    """
    pages = [_CONTROL.sub(" ", p or "") for p in page_texts]
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
        for m in _YEARS_ENDED.finditer(" ".join([full, *(h for h, _ in column_headers)])):
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

    named = _stated_names(pages, periods)
    if month is None:
        # no stated year end: the dates that fiscal-year labels end on are year ends (the newest of the most named)
        annual = [n for n in named if n.annual] or [
            n for n in _titled_names(pages, Calendar(None, None)) if n.annual]
        if annual:
            counts = Counter((n.day.month, n.day.day) for n in annual)
            top = max(counts.values())
            when = max((n for n in annual if counts[(n.day.month, n.day.day)] == top), key=lambda n: n.day)
            month, day, source = when.day.month, when.day.day, when.phrase
    if month is None and cover_period is not None and cover_period.months == 3 and cover_period.end is not None:
        # a quarterly report's balance sheet sets the quarter's end beside the last fiscal year's end (and at times
        # beside the same quarter a year before)
        q_end = cover_period.end
        earlier = Counter((p.end.month, p.end.day) for p in periods if p.instant and p.end is not None
                          and timedelta(days=40) < q_end - p.end < timedelta(days=365) - SLACK)
        if earlier:
            (month, day), _ = earlier.most_common(1)[0]
            source = f"balance sheet at {_MONTH_NAMES[month - 1]} {day}, beside {_fmt_date(q_end)}"
    weeks = weeks or (month == 1 and (day or 31) <= _FIRST_WEEK)  # a year ending in January's first days is 52/53 weeks
    base = Calendar(year_end_month=month, year_end_day=day, shift=0, weeks=weeks)
    shift, stated, evidence = _usual_shift(month, day, weeks), False, tuple[str, ...]()
    if month is not None:
        allowed = {0, 1} if _two_namings(month, day) or month == 1 else {0}
        tiers = (lambda: named, lambda: _titled_names(pages, base), lambda: _most_named(pages, base, cover_period))
        for tier in tiers:  # a title only where no phrase says; the most named year only where neither does
            said: dict[int, list[str]] = {}
            for n in tier():
                s = base._year_end_year(n.day) - n.fiscal_year
                if s not in allowed:
                    continue  # a label and a date that do not belong together
                if n.quarter is not None and base.quarter_of(Period(n.day, n.day.year, 3)) != n.quarter:
                    continue  # the quarter named is not the one that ends on the date
                said.setdefault(s, []).append(n.phrase)
            if said:
                best = max(len(v) for v in said.values())
                tied = [s for s, v in said.items() if len(v) == best]
                shift = shift if shift in tied else min(tied)
                stated, evidence = True, tuple(dict.fromkeys(said[shift]))[:3]
                break
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
        last = cover_period.end + SLACK
        reported = [p for p in reported if newest(p)[0] <= last]
    ordered = tuple(sorted(reported, key=newest, reverse=True))
    return Calendar(year_end_month=month, year_end_day=day, shift=shift, weeks=weeks, periods=ordered, source=source,
                    naming_stated=stated, naming_evidence=evidence)


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
    ends on that date, or a balance column names only the fiscal year asked and the calendar says when it ends.
    Partial: right year, duration unknown (0.6); a balance column in the asked year with no calendar to confirm it
    is the year end (0.8). 0: a different year, a different duration (a quarter column when
    a year is asked), a balance column when a flow is asked and its date is not the period's end. A question that
    names no period scores every column 0.5.
    """
    if asked.instant is not None:
        if p.end is not None:
            gap = abs(p.end - asked.instant)
            if gap.days == 0:
                return 1.0 if (p.instant or p.months is None) else 0.5
            if gap <= SLACK and (cal is None or cal.weeks):
                return 0.8 if (p.instant or p.months is None) else 0.4
            return 0.0
        if (p.months is None and p.year is not None and cal is not None and cal.year_end_month is not None
                and cal.at_year_end(asked.instant)):
            # a balance sheet's bare year is the filer's label for the fiscal year it ends ("2019": December 31)
            return 1.0 if cal.end_year(p.year) == asked.instant.year else 0.0
        return 0.4 if p.year == asked.instant.year and p.months is None else 0.0

    if asked.end is not None:
        if p.end is None:
            if (asked.months == 12 and p.months in (None, 12) and p.year is not None and cal is not None
                    and cal.year_end_month is not None and cal.at_year_end(asked.end)):
                # a bare year over an annual statement's column is the filer's label for its fiscal year
                # ("2016" in a June filer's 10-K: the year ended June 30, 2016)
                return 1.0 if cal.end_year(p.year) == asked.end.year else 0.0
            return 0.4 if p.year == asked.end.year and p.months in (None, asked.months) else 0.0
        if abs(p.end - asked.end) > SLACK:
            return 0.0
        if p.instant:
            return 0.5
        if asked.months is None or p.months == asked.months:
            return 1.0
        if p.months is None and asked.months == 12 and cal is not None and cal.at_year_end(p.end):
            return 1.0  # an annual statement's column dated at the fiscal year end ("January 28, 2017") is the year
        return 0.6 if p.months is None else 0.0

    fy = asked.fiscal_year
    if fy is None and asked.quarter is None and asked.months is None:
        return 0.5
    pfy = _fy(p, cal)
    if fy is not None and pfy != fy:
        return 0.0

    if p.instant:
        if p.end is None and p.quarter is not None:
            # a balance at the end of a quarter it names ("Total Stores at End of Second Quarter"): the asked
            # quarter's, or the year's when it is the fourth
            return 1.0 if p.quarter == (asked.quarter or 4) else 0.0
        if p.end is None:
            # a balance sheet's bare year ("2018") is the balance at the end of the fiscal year it names, when the
            # filer's calendar is known
            return 1.0 if cal is not None and cal.year_end_month is not None and asked.quarter is None else 0.6
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
        if p.quarter is not None:
            return (f"balance at the end of the {_QUARTER_NAMES[p.quarter]} quarter of fiscal {fy}" if fy is not None
                    else f"balance at the end of the {_QUARTER_NAMES[p.quarter]} quarter")
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

"""Numbers as filings print them: one home for reading a quantity and for deciding that two are the same.

A table cell (``(1,234)``, ``$5.2``, ``12.5%``, ``3.1 pts``), a number in running text with its currency,
scale word and percent (``$4.6B``, ``(12.5%)``, ``36.8 percent``, ``€ 4,978 million``) and a units line
(``(In millions, except per share amounts)``) are read here and nowhere else: tables, answers, number checks,
evaluation scoring and the UI all use these functions (the UI through the engine's output).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

SCALES: dict[str, float] = {
    "k": 1e3,
    "thousand": 1e3,
    "thousands": 1e3,
    "000s": 1e3,
    "m": 1e6,
    "mm": 1e6,
    "mn": 1e6,
    "mln": 1e6,
    "million": 1e6,
    "millions": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "billion": 1e9,
    "billions": 1e9,
    "t": 1e12,
    "tn": 1e12,
    "trillion": 1e12,
    "trillions": 1e12,
}
"""Scale words that may follow a number."""

FRACTIONS: dict[str, float] = {
    "half": 0.5, "a half": 0.5, "one half": 0.5, "a third": 1 / 3, "one third": 1 / 3, "two thirds": 2 / 3,
    "a quarter": 0.25, "one quarter": 0.25, "three quarters": 0.75, "a fifth": 0.2, "one fifth": 0.2,
}
"""A share written as a word ("more than half of its earnings"), as a fraction of one."""
FRACTION_WORDS = "|".join(sorted((re.escape(k) for k in FRACTIONS), key=len, reverse=True))

SCALE_NAMES: dict[float, str] = {1e3: "thousand", 1e6: "million", 1e9: "billion", 1e12: "trillion"}
"""A scale as a word, for showing values."""

CURRENCY = r"(?:US\$|USD|EUR|GBP|CHF|JPY|RMB|INR|₹|[$€£¥])"
"""A currency sign or code before an amount."""

SCALE_WORDS = "|".join(sorted((re.escape(k) for k in SCALES), key=len, reverse=True))
"""The scale words as one regular-expression alternation, longest first."""
_QTY = re.compile(
    # each optional prefix brings its own following space: four bare ``\s*`` in a row split a run of spaces in
    # cubic many ways before failing
    rf"(?:(?P<open>\()\s*)?(?:(?P<sign>[-−–])\s*)?(?:(?P<cur>{CURRENCY})\s*)?(?:(?P<sign2>[-−–])\s*)?"
    rf"(?P<num>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    rf"(?:\s*(?P<scale>{SCALE_WORDS})\b)?"
    rf"(?:\s*(?P<pct>%|percent\b|per\s?cent\b|pct\b))?"
    rf"\s*(?P<close>\))?",
    re.I,
)
_CELL = re.compile(
    r"^(?P<lp>\()?(?P<sign>[-–−+])?(?P<cur>[$€£¥])?(?P<lp2>\()?(?P<sign2>[-–−+])?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?P<pct>%)?(?P<unit>pp|ppt|pts?|bps?|bp)?(?P<rp>\))?(?P<pct2>%)?(?P<unit2>pp|ppt|pts?|bps?|bp)?"
    r"(?P<note>\*+|†|‡|#|\([a-z0-9]\)|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)?(?P<mult>[xX])?$"
)
_YEAR = re.compile(r"^(?:FY|Fiscal\s*)?'?(19[5-9]\d|20\d\d)[A-Za-z]?$")
_BARE_YEAR = re.compile(r"^(?:19|20)\d{2}$")
_CITATION = re.compile(r"\[\d+(?:\s*[,;-]\s*\d+)*\]")
POINTS = re.compile(r"^\s*(?:percentage\s+points?|basis\s+points?|points?|bps|pp)\b", re.I)
"""The unit words of a change in a rate after its number ("0.8 percentage point", "35 basis points")."""


@dataclass(frozen=True)
class Quantity:
    """A number read from text, with the sign, currency, scale word and percent sign that came with it."""

    value: float
    """The number as written, sign applied, scale word not applied (``$4.6B`` -> 4.6)."""
    scale: float = 1.0
    """The scale word's factor (``billion`` -> 1e9), 1 when none."""
    percent: bool = False
    decimals: int = 0
    """Digits after the decimal point as written."""
    currency: str = ""
    raw: str = ""
    """The text it was read from."""
    start: int = 0
    end: int = 0
    """Where ``raw`` sits in the text it was read from."""

    @property
    def magnitude(self) -> float:
        """The absolute value with the scale word applied (``$4.6B`` -> 4.6e9)."""
        return abs(self.value) * self.scale

    def candidates(self, context_scale: float = 1.0) -> set[float]:
        """Magnitudes this quantity may stand for: as written, scaled, and (for percents) as a fraction."""
        v = abs(self.value)
        out = {v, v * self.scale}
        if self.scale == 1.0 and context_scale != 1.0:
            out.add(v * context_scale)
        if self.percent:
            out.add(v / 100.0)
        return out


def quantities(text: str) -> list[Quantity]:
    """Every number in running text with its scale word, percent sign and sign (``(1,234)`` and ``-1,234`` are
    negative). Citation markers (``[2]``) are not numbers; neither is a number glued to letters (``Q3``,
    ``10-K``, ``FY2021``)."""
    text = _CITATION.sub(lambda m: " " * len(m.group(0)), text or "")
    out: list[Quantity] = []
    for m in _QTY.finditer(text):
        num = m.group("num")
        try:
            value = float(num.replace(",", ""))
        except ValueError:
            continue
        start, end = m.start("num"), m.end("num")
        before = text[start - 1] if start > 0 else " "
        after = text[end] if end < len(text) else " "
        glued_after = after.isalpha() and not m.group("scale") and not m.group("pct")
        if before.isalpha() or (glued_after and not re.match(r"x\b", text[end : end + 2], re.I)):
            continue
        negative = bool(m.group("sign") or m.group("sign2")) or bool(m.group("open") and m.group("close"))
        scale_word = (m.group("scale") or "").lower()
        # "m"/"b"/"k"/"t" alone are scale words only right after a currency amount ("$4.6B"), not "5 m of road"
        if scale_word in {"k", "m", "b", "t"} and not m.group("cur"):
            if text[end : end + 1].isalpha():
                continue  # a letter glued to the digits is a label ("10K", "5G"), not a scale
            scale_word = ""
        raw = m.group(0).strip()
        if not scale_word and m.group("scale"):
            raw = raw[: raw.lower().rfind(m.group("scale").lower())].strip()
        lead = len(m.group(0)) - len(m.group(0).lstrip())
        out.append(
            Quantity(
                value=-value if negative else value,
                scale=SCALES.get(scale_word, 1.0),
                percent=bool(m.group("pct")),
                decimals=len(num.split(".", 1)[1]) if "." in num else 0,
                currency=(m.group("cur") or "").strip(),
                raw=raw,
                start=m.start() + lead,
                end=m.start() + lead + len(raw),
            )
        )
    return out


def parse_cell(token: str) -> float | None:
    """The number a table cell shows: ``(1,234)`` -> -1234, ``$5.2`` -> 5.2, ``12.5%`` -> 12.5, ``3.1pts`` ->
    3.1; None for anything else (a word, a dash, a lone ``2)`` that belongs to a label)."""
    t = token.strip().replace("\u2009", "").replace("\xa0", "").replace(" ", "")
    m = _CELL.match(t)
    if not m:
        return None
    if bool(m.group("lp") or m.group("lp2")) != bool(m.group("rp")) and not m.group("note"):
        if m.group("rp") and not (m.group("lp") or m.group("lp2")):
            return None  # a lone ")" belongs to a label fragment like "2)"
    try:
        value = float(m.group("num").replace(",", ""))
    except ValueError:
        return None
    signs = (m.group("sign") or "") + (m.group("sign2") or "")
    negative = bool(m.group("lp") or m.group("lp2")) or any(c in signs for c in "-–−")
    return -value if negative else value


def is_year(token: str) -> bool:
    """True for a year heading like ``2018``, ``FY2019`` or ``2020A``."""
    return bool(_YEAR.match(token.strip().rstrip(",")))


def scale_of(units: str) -> float:
    """1e3 / 1e6 / 1e9 from a units line ("(In millions, except per share data)"), else 1."""
    u = units.lower()
    if "billion" in u or re.search(r"\bbn\b", u):
        return 1e9
    if "million" in u or re.search(r"\b(mn|mm|m)\b", u):
        return 1e6
    if "thousand" in u or "000" in u:
        return 1e3
    return 1.0


def checkable(q: Quantity) -> bool:
    """Whether a number of an answer is a figure to look up: not a year, not a small count or list number."""
    if abs(q.value) < 10 and not q.decimals and not q.percent:
        return False
    return not (_BARE_YEAR.match(f"{abs(q.value):.0f}") and not q.decimals and not q.currency and "," not in q.raw)


def same_number(q: Quantity, ref: float) -> bool:
    """True when ``ref`` is ``q`` as written: equal, or equal at the written precision after a change of scale
    (an answer in billions against a table in millions, a percent against a fraction). Signs are not compared:
    prose says "used $431 million" where a statement prints (431)."""
    v, r = abs(q.value), abs(ref)
    if abs(v - r) <= 1e-6 * max(1.0, v):
        return True
    d = q.decimals
    for scale in (1.0, 1e3, 1e-3, 1e6, 1e-6, 100.0, 0.01):
        x = r / scale
        if x == 0:
            continue
        if d and abs(round(x, d) - v) < 0.5 * 10 ** (-d) + 1e-9:
            return True
        if not d and scale != 1.0 and abs(x - v) <= 1e-6 * max(1.0, v):
            return True
    return False


def derived_from(q: Quantity, inputs: Sequence[Quantity]) -> str:
    """How ``q`` follows from two of ``inputs`` (the other figures of the same answer, each found in the cited
    evidence) by one step an answer spells out: their difference, sum, ratio, share in percent or percent
    change, equal at ``q``'s written precision ("$236 million ... $173 million ... a difference of $63 million");
    '' when it does not. Inputs of another scale word than ``q`` are not combined with it."""
    v = abs(q.value)
    tol = 0.5 * 10 ** (-q.decimals) + 1e-9
    usable = [x for x in inputs if x is not q and x.raw != q.raw and (x.scale == q.scale or x.percent or q.percent)]
    for i, a in enumerate(usable):
        for b in usable[i + 1:]:
            x, y = a.value, b.value
            options = [(abs(x - y), f"{a.raw} - {b.raw}"), (abs(x + y), f"{a.raw} + {b.raw}")]
            for p, r in ((x, y), (y, x)):
                if r:
                    first, second = (a, b) if p is x else (b, a)
                    options += [(abs(p / r), f"{first.raw} / {second.raw}"),
                                (abs(p / r * 100), f"{first.raw} / {second.raw} x 100"),
                                (abs((p - r) / r * 100), f"({first.raw} - {second.raw}) / {second.raw} x 100")]
            for value, shown in options:
                if abs(value - v) <= tol:
                    return shown
    return ""


def close(a: float, b: float, decimals: int = 0, rel_tol: float = 0.01) -> bool:
    """Equal within ``rel_tol``, or equal once ``b`` is rounded to ``decimals`` places."""
    if a == b or math.isclose(a, b, rel_tol=rel_tol, abs_tol=1e-9):
        return True
    return decimals > 0 and round(b, decimals) == round(a, decimals)


def show(value: float, scale: float = 1.0, percent: bool = False, currency: str = "") -> str:
    """A value as an analyst writes it: ``$10,208.6 million``, ``(431)``-style negatives as ``-431``,
    ``24.3%``; at most the decimals needed (two for small numbers)."""
    if percent:
        return f"{value:,.2f}".rstrip("0").rstrip(".") + "%"
    if float(value).is_integer():
        body = f"{abs(value):,.0f}"
    else:
        body = f"{abs(value):,.2f}".rstrip("0").rstrip(".") if abs(value) < 1000 else f"{abs(value):,.1f}"
    word = SCALE_NAMES.get(scale, "")
    sign = "-" if value < 0 else ""
    return f"{sign}{currency}{body}{' ' + word if word else ''}"

"""Routing: pick the filings a question is about from the company, year or period and form it names.

Matches the documents' metadata (company, form type, fiscal period, filing date) and their file names
("3M_2018_10K", "2023 Q1 AAPL"), with tickers mapped to names. Nothing matched means no routing: the caller
searches the whole library.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.expansion import expand
from engine.types import Document

TICKERS: dict[str, tuple[str, ...]] = {
    "aapl": ("apple",), "amzn": ("amazon",), "nvda": ("nvidia",), "goog": ("alphabet", "google"),
    "googl": ("alphabet", "google"), "msft": ("microsoft",), "meta": ("meta platforms", "facebook"),
    "intc": ("intel",), "amd": ("advanced micro devices",), "jpm": ("jpmorgan", "jp morgan", "jpmorgan chase"),
    "mmm": ("3m",), "bby": ("best buy",), "nke": ("nike",), "atvi": ("activision blizzard", "activision"),
    "pep": ("pepsico", "pepsi"), "jnj": ("johnson & johnson", "johnson and johnson"), "pfe": ("pfizer",),
    "ko": ("coca-cola", "coca cola"), "wmt": ("walmart",), "ba": ("boeing",), "cvs": ("cvs health",),
    "axp": ("american express", "amex"), "lmt": ("lockheed martin", "lockheed"), "glw": ("corning",),
    "adbe": ("adobe",), "gis": ("general mills",), "mgm": ("mgm resorts",), "awk": ("american water works",),
    "tsla": ("tesla",), "db": ("deutsche bank",), "dte": ("deutsche telekom",),
}
"""Ticker -> company names a question may use instead."""

_SUFFIXES = {
    "inc", "incorporated", "corp", "corporation", "company", "co", "ltd", "limited", "plc", "group", "holdings",
    "holding", "the", "com", "nv", "n.v", "ag", "se", "sa", "llc", "lp", "and", "subsidiaries", "consolidated",
}
_NAME_NOISE = {
    "10k", "10q", "8k", "10", "k", "q", "report", "annual", "bericht", "en", "de", "filing", "earnings",
    "statements", "statement", "financial", "dated", "final", "q1", "q2", "q3", "q4", "fy", "selected", "data",
    "of", "the", "for", "results", "quarterly", "form",
}
_FORMS = [
    (re.compile(r"\b10-?k\b|\bannual report\b", re.I), "10-K"),
    (re.compile(r"\b10-?q\b|\bquarterly report\b", re.I), "10-Q"),
    (re.compile(r"\b8-?k\b|\bpress release\b|\bearnings release\b", re.I), "8-K"),
]
_QUARTER = re.compile(r"\bQ([1-4])\b|\b(first|second|third|fourth) quarter\b", re.I)
_QWORD = {"first": "1", "second": "2", "third": "3", "fourth": "4"}


@dataclass
class Route:
    """Where routing sent a question."""

    doc_ids: list[str]
    """The documents picked; empty when nothing in the question matched (search the library)."""
    reason: str = ""
    """What matched, e.g. ``company=3M year=2018 form=10-K``."""
    matched: dict[str, list[str]] = field(default_factory=dict)


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9&]+", " ", text.lower()).strip()


def company_aliases(doc: Document) -> set[str]:
    """Lower-case names a question may use for the document's company (metadata, file name, ticker)."""
    aliases: set[str] = set()
    if doc.company:
        words = [w for w in _norm(doc.company).split() if w not in _SUFFIXES]
        if words:
            aliases.add(" ".join(words))
    tokens = re.split(r"[\s_\-.]+", doc.name.lower())
    name_words = [t for t in tokens if t and not t.isdigit() and t not in _NAME_NOISE and not re.fullmatch(
        r"(?:19|20)\d{2}(?:q[1-4])?|q[1-4]|\d+", t)]
    if name_words:
        aliases.add(name_words[0])
        joined = " ".join(name_words[:2])
        if len(name_words) > 1:
            aliases.add(joined)
    for a in list(aliases):
        for t in a.split():
            aliases.update(TICKERS.get(t, ()))
        for ticker, names in TICKERS.items():
            if a in names:
                aliases.add(ticker)
    return {a for a in aliases if a}


def is_annual(doc: Document) -> bool:
    """An annual report (10-K or a fiscal-year report), whose figures cover the years before its own."""
    return doc.form_type.upper() == "10-K" or "10k" in doc.name.lower().replace("-", "") or (
        doc.fiscal_period or "").startswith("FY")


def doc_years(doc: Document) -> tuple[set[int], set[int]]:
    """(fiscal years the filing is for, years its figures cover: up to two before an annual report's).

    Years come from the fiscal period and the file name, a year standing alone: a date run together in a
    name is a filing date ("20220202-alphabet-10k" is the FY2021 report)."""
    exact: set[int] = set()
    for text in (doc.fiscal_period, doc.name):
        exact.update(int(y) for y in re.findall(r"(?<!\d)(?:19|20)\d{2}(?!\d)", text or ""))
    if not exact and doc.filing_date:
        m = re.match(r"((?:19|20)\d{2})", doc.filing_date)
        if m:
            exact.add(int(m.group(1)))
    covered = set(exact)
    annual = is_annual(doc)
    for y in exact:
        covered.update({y - 1, y - 2} if annual else {y - 1})
    return exact, covered


def doc_quarter(doc: Document) -> str:
    m = re.search(r"q([1-4])", f"{doc.fiscal_period} {doc.name}".lower())
    return m.group(1) if m else ""


def doc_form(doc: Document) -> str:
    if doc.form_type:
        return doc.form_type.upper()
    compact = doc.name.lower().replace("-", "").replace("_", " ")
    for key, form in (("10k", "10-K"), ("10q", "10-Q"), ("8k", "8-K")):
        if key in compact:
            return form
    return ""


def _mentions(question_norm: str, question_compact: str, alias: str) -> bool:
    if len(alias.replace(" ", "")) <= 4:
        return re.search(rf"(?<![a-z0-9]){re.escape(alias)}(?![a-z0-9])", question_norm) is not None
    return alias.replace(" ", "") in question_compact


def companies_named(question: str, documents: Sequence[Document]) -> dict[str, list[str]]:
    """Document id -> the aliases of its company that the question mentions (documents not named are absent)."""
    qn = _norm(question)
    qc = qn.replace(" ", "")
    companies: dict[str, list[str]] = {}
    for d in documents:
        hits = sorted(a for a in company_aliases(d) if _mentions(qn, qc, a))
        if hits:
            companies[d.id] = hits
    return companies


def route(question: str, documents: Sequence[Document]) -> Route:
    """The documents a question names by company, narrowed by year/period and form when those match too."""
    companies = companies_named(question, documents)
    if not companies:
        return Route([], "")
    picked = [d for d in documents if d.id in companies]
    matched: dict[str, list[str]] = {"company": sorted({max(h, key=len) for h in companies.values()})}
    years = [int(y) for y in expand(question).years]
    if years:
        exact = [d for d in picked if doc_years(d)[0] & set(years)]
        if exact:
            latest = max(max(doc_years(d)[0] & set(years)) for d in exact)
            # "FY2022 vs FY2021" names two years: the filing for the later one covers both.
            exact = [d for d in exact if latest in doc_years(d)[0]] if len(years) > 1 else exact
            # the next year's annual report restates the year as its comparative column
            restating = [d for d in picked if d not in exact and latest + 1 in doc_years(d)[0]
                         and set(years) <= doc_years(d)[1] and is_annual(d)]
            picked = exact + restating
            matched["year"] = [str(y) for y in sorted(set(years))]
        else:
            covering = [d for d in picked if set(years) <= doc_years(d)[1]]
            if covering:
                picked = covering
                matched["year"] = [str(y) for y in sorted(set(years))]
    quarters = {m.group(1) or _QWORD[m.group(2).lower()] for m in _QUARTER.finditer(question)}
    if quarters:
        narrowed = [d for d in picked if doc_quarter(d) in quarters]
        if narrowed:
            picked = narrowed
            matched["quarter"] = sorted(f"Q{q}" for q in quarters)
    forms = {form for rx, form in _FORMS if rx.search(question)}
    if forms:
        narrowed = [d for d in picked if doc_form(d) in forms]
        if narrowed:
            picked = narrowed
            matched["form"] = sorted(forms)
    reason = " ".join(f"{k}={','.join(v)}" for k, v in matched.items())
    return Route([d.id for d in picked], reason, matched)

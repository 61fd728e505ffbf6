"""Routing: pick the filings a question is about from the company, year or period and form it names.

A question names a company as its filings say it is called: the registrant's name or a short form of it
("Goldvale Sachs" for The Goldvale Sachs Group, Inc.; "Tokay" for Tokay Resorts International), a ticker the filing
lists ("AAPL", "$aapl"), or a former name. The identities come from the documents' metadata, which the metadata
stage reads from the filings (engine/metadata.py); years, quarters and forms from their periods and file names.
Nothing matched means no routing: the caller searches the whole library.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from typing import TYPE_CHECKING

from engine.periods import Calendar, Period
from engine.types import Document

if TYPE_CHECKING:
    from engine.ask.question import Question

LEGAL_FORMS = {
    "inc", "incorporated", "corp", "corporation", "company", "co", "ltd", "limited", "plc", "llc", "lp", "llp",
    "nv", "bv", "sa", "spa", "ag", "se", "gmbh", "kgaa", "asa", "ab", "oyj", "com", "the", "&", "and",
    "holding", "holdings", "group",
}
"""Words at the end of a registered name that a question leaves out (its legal form, ``.com``, the ``Group`` or
``Holdings`` it heads: "Acme Group" and "Acme" are one company to a question)."""
_DESCRIPTORS = {
    "international", "worldwide", "global", "systems", "technologies", "technology", "industries", "enterprises",
    "resorts", "entertainment", "health", "healthcare", "brands", "stores", "finance", "financial",
}
"""Words describing a business that end a name and that a question often drops ("Tokay Resorts International" is
asked about as "Tokay", "Orchard Systems Incorporated" as "Orchard", a group's financing arm "Acme Finance N.V." as
"Acme"). Where two companies' names both match ("Acme Finance" and "Acme"), the longer wins."""
_GENERIC_LEAD = {
    "american", "general", "united", "national", "first", "international", "global", "new", "royal", "standard",
    "universal", "advanced", "applied", "digital", "central", "capital", "public", "federal", "bank", "best",
    "home", "great", "north", "south", "east", "west", "northern", "southern", "eastern", "western", "pacific",
    "atlantic", "deutsche", "china", "british", "canadian", "european", "old", "big", "premier", "integrated",
}
"""Words that lead many names and mean something else alone: never a short form by themselves ("American" is
not American Widgets, "General" is not General Millers)."""
@dataclass
class Route:
    """Where routing sent a question."""

    doc_ids: list[str]
    """The documents picked; empty when nothing in the question matched (search the library)."""
    reason: str = ""
    """What matched, e.g. ``company=acme year=2018 form=10-K``."""
    matched: dict[str, list[str]] = field(default_factory=dict)


def _words(name: str) -> list[str]:
    """A name's lower-case words; initials run together (``N.V.`` -> ``nv``), ``and`` spelled ``&``."""
    text = re.sub(r"\b((?:[a-z]\.){2,})", lambda m: m.group(1).replace(".", ""), name.lower())
    text = re.sub(r"\band\b", "&", text)
    return re.sub(r"[^a-z0-9&]+", " ", text).split()


def name_forms(name: str) -> set[str]:
    """The ways a question may write a company's name: without its legal form and article, then without the
    words that describe its business (``The Goldvale Sachs Group, Inc.`` -> ``goldvale sachs``; ``Tokay Resorts
    International`` -> ``tokay resorts international``, ``tokay resorts``, ``tokay``)."""
    words = _words(name)
    while words and words[0] == "the":
        words.pop(0)
    while words and words[-1] in LEGAL_FORMS:
        words.pop()
    forms: set[str] = set()
    while words:
        if len("".join(words)) >= 2:
            forms.add(" ".join(words))
        if words[-1] not in _DESCRIPTORS or len(words) == 1:
            break
        words.pop()
        while words and words[-1] in LEGAL_FORMS:
            words.pop()
    return forms


def short_form(name: str) -> str:
    """The first word of a name of several (``Lockwood Marten Corporation`` -> ``lockwood``), as questions often
    shorten it; where that word is generic (``American ...``, ``General ...``), the first two of a name of three or
    more (``American Water Works Company, Inc.`` -> ``american water``); '' when it is shorter than three letters, or
    generic in a name of two. It is weaker evidence than the full name: ``mentions`` ignores it where two companies
    share it."""
    forms = name_forms(name)
    if not forms:
        return ""
    words = min(forms, key=len).split()
    if len(words) < 2 or len(words[0]) < 3 or not words[0].isalpha():
        return ""
    if words[0] not in _GENERIC_LEAD:
        return words[0]
    if len(words) >= 3 and words[1].isalpha() and len(words[1]) >= 3 and words[1] not in LEGAL_FORMS | {"and", "the"}:
        return " ".join(words[:2])
    return ""


def company_aliases(doc: Document) -> set[str]:
    """What a question may call the document's company: its name's forms, short form and former names' (lower
    case), and its tickers (upper case, as a question must write them)."""
    aliases: set[str] = set()
    for name in [doc.company, *doc.former_names]:
        if name:
            aliases |= name_forms(name)
    if short := short_form(doc.company):
        aliases.add(short)
    aliases.update(t.upper() for t in doc.tickers if t)
    aliases.update(contractions(doc.company))
    return aliases


def contractions(name: str) -> set[str]:
    """Brand contractions of a two-word name, the first two or three letters of each word run together
    (``American Express`` -> ``AMEX``, ``Federal Express`` -> ``FEDEX``). Upper case: a question must write them
    as a ticker is written, in capitals or with a capital inside (``AMEX``, ``AmEx``; see ``_spans``)."""
    forms = name_forms(name)
    if not forms:
        return set()
    words = min(forms, key=len).split()
    if len(words) != 2 or not all(w.isalpha() and len(w) >= 3 for w in words):
        return set()
    return {(a[:i] + b[:j]).upper() for a, b in [words] for i in (2, 3) for j in (2, 3)}


@lru_cache(maxsize=4096)
def _pattern(alias: str) -> re.Pattern[str]:
    """A ticker as a whole token (``_spans`` checks its case) or after ``$``; a name's words in order, any
    punctuation or none between them (``Best Buy's``, ``BestBuy``, ``Johnson and Johnson``)."""
    if alias.isupper():
        return re.compile(rf"(?:\$|(?<![A-Za-z0-9$])){re.escape(alias)}(?![A-Za-z0-9])", re.I)
    parts = [r"(?:&|and)" if w == "&" else re.escape(w) for w in alias.split()]
    return re.compile(r"(?<![A-Za-z0-9])" + r"[\W_]*".join(parts) + r"(?![A-Za-z0-9])", re.I)


def _spans(question: str, alias: str, lower_name: bool = False) -> list[tuple[int, int]]:
    """Where the question names the alias. A ticker counts after ``$`` or written in capitals (``AAPL``, or
    ``JnJ`` with a capital inside; never ``all`` or ``All`` for ALL); a one-letter ticker only after ``$``. A
    one-word name counts only when capitalised, as a name is ("Block's revenue", not "a block of shares"),
    unless the whole question is in lower case or the company writes its own name in lower case ("adidas")."""
    spans = []
    ticker = alias.isupper()
    single = " " not in alias and not ticker
    for m in _pattern(alias).finditer(question):
        text = m.group(0)
        if ticker and not text.startswith("$") and (len(alias) == 1 or not any(c.isupper() for c in text[1:])):
            continue
        if single and text[:1].islower() and not question.islower() and not lower_name:
            continue
        spans.append(m.span())
    return spans


def mentions(question: str, documents: Sequence[Document]) -> dict[str, list[tuple[str, tuple[int, int]]]]:
    """Document id -> each alias of its company that the question mentions, with where (documents not named are
    absent).

    When one company's name contains another's ("Vetra Finance" and "Vetra"), the longer name wins where both match.
    A short form (``short_form``) counts only when no other company of the library has it and, at the start of
    the question, only as a possessive ("Lockwood's backlog", not "Best practices ...")."""
    owners: dict[str, set[str]] = {}
    for d in documents:
        if short := short_form(d.company):
            owners.setdefault(short, set()).add(min(name_forms(d.company), key=len))
    found: dict[str, list[tuple[str, tuple[int, int]]]] = {}
    for d in documents:
        short = short_form(d.company)
        full = company_aliases(d) - ({short} if short else set())
        lower_name = bool(d.company.strip()) and d.company.strip() == d.company.strip().lower()
        hits = [(a, span) for a in full for span in _spans(question, a, lower_name)]
        if short and len(owners[short]) == 1 and short not in full:
            hits += [(short, span) for span in _spans(question, short)
                     if question[: span[0]].strip() or re.match(r"['’]s\b", question[span[1]:])]
        if hits:
            found[d.id] = hits
    spans = {span for hits in found.values() for _, span in hits}
    covered: set[tuple[int, int]] = set()
    reach = -1  # the furthest end of a span starting at or before this one (sorted: O(n log n), not pairwise)
    for span in sorted(spans, key=lambda sp: (sp[0], -sp[1])):
        if reach >= span[1]:
            covered.add(span)
        reach = max(reach, span[1])

    named = {doc_id: sorted({(a, span) for a, span in hits if span not in covered}) for doc_id, hits in found.items()}
    return {doc_id: hits for doc_id, hits in named.items() if hits}


def without_company(question: Question, documents: Sequence[Document]) -> str:
    """The question's text without the name of the one company whose filings are the search scope ("What drove
    PepsiCo's gross margin?" -> "What drove gross margin?"). Inside that company's filings its name is on every
    page, mostly in statement headers ("PepsiCo, Inc. and Subsidiaries") and exhibit lists, so the name only
    pulls those pages ahead of the passage that answers. Unchanged when the scope holds several companies or
    the question does not name the scope's company. Where the name is was read once, by ``parse``
    (``Question.mentions``)."""
    text = question.text
    companies = {min(name_forms(d.company), key=len, default="") for d in documents}
    if len(companies) != 1 or not next(iter(companies)):
        return text
    scope = {d.id for d in documents}
    spans = sorted({(start, end, possessive) for doc_id, start, end, possessive in question.mentions
                    if doc_id in scope})
    if not spans:
        return text
    out, at = [], 0
    for start, end, possessive in spans:
        if start < at:
            continue
        out.append(text[at:start])
        at = end + possessive
    out.append(text[at:])
    stripped = re.sub(r"\s{2,}", " ", "".join(out)).strip()
    stripped = re.sub(r"\s+([?.,;:!])", r"\1", stripped)
    return stripped if len(stripped.split()) >= 2 else text


def is_annual(doc: Document) -> bool:
    """An annual report (10-K or a fiscal-year report), whose figures cover the years before its own."""
    return doc.form_type.upper() == "10-K" or "10k" in doc.name.lower().replace("-", "") or (
        doc.fiscal_period or "").startswith("FY")


REPORTED_YEARS, REPORTED_BALANCES = 2, 1
"""The fiscal years an annual report states besides its own: three years of income and cash flows, two balance
sheets, in a 10-K. Years further apart than that are in no one report."""
REPORTED_QUARTERLY = 1
"""The fiscal year a quarterly report states besides its own: the same quarter a year before, and the balance
sheet at the end of the year before."""


def doc_years(doc: Document) -> tuple[set[int], set[int]]:
    """(fiscal years the filing is for, years its figures cover: ``REPORTED_YEARS`` before an annual report's,
    ``REPORTED_QUARTERLY`` before a quarterly one's).

    Years come from the fiscal period and the file name, a year standing alone: a date run together in a
    name is a filing date ("20220202-alphabet-10k" is the FY2021 report). A fiscal period that is the date the
    period ends gives the fiscal year its calendar names it by (``fiscal_year_of``: a 10-Q for the quarter ended
    July 29, 2023 is "the second quarter of fiscal 2024" to a filer whose fiscal 2024 ends in January 2025), not
    that date's calendar year."""
    exact: set[int] = set()
    named = _fiscal_year_ended(doc)
    for text in ((doc.name,) if named is not None else (doc.fiscal_period, doc.name)):
        exact.update(int(y) for y in re.findall(r"(?<!\d)(?:19|20)\d{2}(?!\d)", text or ""))
    if named is not None:
        exact.add(named)
    if not exact and doc.filing_date:
        m = re.match(r"((?:19|20)\d{2})", doc.filing_date)
        if m:
            exact.add(int(m.group(1)))
    covered = set(exact)
    annual = is_annual(doc)
    back = REPORTED_YEARS if annual else REPORTED_QUARTERLY
    for y in exact:
        covered.update(range(y - back, y))
    return exact, covered


def period_end(doc: Document) -> date | None:
    """The date a filing's period ends where its fiscal period is that date ("2023-07-29"); None for one named
    otherwise ("FY2023", "2023Q1")."""
    try:
        return date.fromisoformat(doc.fiscal_period or "")
    except ValueError:
        return None


def _fiscal_year_ended(doc: Document) -> int | None:
    """The fiscal year of a filing's period end (``period_end``) by its stored calendar; None without either."""
    end = period_end(doc)
    if end is None or not doc.calendar:
        return None
    return Calendar.from_json(doc.calendar).fiscal_year_of(Period(end=end, year=end.year, months=None))


def company_key(doc_company: str, cik: str) -> str:
    """One company's key: its CIK where printed, else its name's shortest form ("apple")."""
    if cik:
        return cik.lstrip("0") or cik
    forms = name_forms(doc_company)
    return min(forms, key=len) if forms else doc_company.strip().lower()


def registrant_key(doc: Document) -> str:
    """One registrant's key: its CIK where printed, else its name's longest form (a group and its financing arm,
    "vetra" and "vetra finance", are two registrants, where ``company_key`` makes them one company)."""
    if doc.cik:
        return company_key(doc.company, doc.cik)
    return max(name_forms(doc.company), key=len, default=doc.company)


CURRENT_REPORTS = ("8-K", "DEF", "S-", "424")
"""Forms that report an event, a vote or an offering, never a period's statements."""


def is_periodic(doc: Document) -> bool:
    """A report of a period's statements (10-K, 10-Q, 20-F, 40-F, a fiscal-year report), not of an event, a vote
    or an offering (an 8-K dated in a fiscal year, "FY2023", still reports no period of its own)."""
    form = doc_form(doc)
    return not form.startswith(CURRENT_REPORTS) and (form.startswith(("10-K", "10-Q", "20-F", "40-F"))
                                                      or is_annual(doc))


def _recency(doc: Document) -> tuple[int, int, str]:
    """Sort key of a periodic report, oldest first: the latest year it is for, its quarter (a year's report after
    its third quarter), its filing date."""
    exact, _ = doc_years(doc)
    return (max(exact, default=0), 4 if is_annual(doc) else int(doc_quarter(doc) or 0), doc.filing_date or "")


def current_filings(documents: Sequence[Document]) -> list[Document]:
    """A company's current reports among ``documents``: its newest periodic report and the annual report that one
    updates (the newest annual report for the year before the newest report's, or the same year). A question that
    names no period is about the company as it stands now: an older report is superseded by these (a 10-K of
    2017 beside the 2023 10-K and a 10-Q of fiscal 2024 keeps the last two; a 10-K of 2021 beside a 10-Q of 2023
    leaves the 10-Q alone). Documents that report no period (an 8-K, a proxy, a deck) are all kept."""
    by_company: dict[str, list[Document]] = {}
    kept: list[Document] = []
    for d in documents:
        if is_periodic(d):
            by_company.setdefault(registrant_key(d), []).append(d)
        else:
            kept.append(d)
    for reports in by_company.values():
        newest = max(reports, key=_recency)
        year = _recency(newest)[0]
        annual = [d for d in reports if d is not newest and is_annual(d) and _recency(d)[0] >= year - 1]
        kept += [newest, *([max(annual, key=_recency)] if annual and not is_annual(newest) else [])]
    ids = {d.id for d in kept}
    return [d for d in documents if d.id in ids]


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


def route(question: Question | str, documents: Sequence[Document]) -> Route:
    """The documents a question names by company, narrowed by year/period and form when those match too (a
    company's current reports when it names no period: ``current_filings``); with no company named, the
    documents for the period or form it names, if that narrows the library. The years and quarter are the parsed
    question's (``Question.asked``: the one period grammar the resolver uses)."""
    from engine.ask.question import parse

    q = question if not isinstance(question, str) else parse(question, documents)
    companies = dict(q.companies)
    years = list(q.asked.years)
    if not companies and not (years or q.asked.quarter is not None or q.forms):
        return Route([], "")
    # no company named: the filings that report the period or form asked (a library of one company's filings is
    # asked without its name)
    picked = [d for d in documents if d.id in companies] if companies else list(documents)
    matched: dict[str, list[str]] = (
        {"company": sorted({max(h, key=len) for h in companies.values()})} if companies else {})
    # a date the question names is that of a filing whose period ends on it ("as of December 31, 2022": the 10-Q
    # for the quarter ended then, whatever fiscal year its filer names it by)
    dated = {x for x in (q.asked.end, *q.asked.instants) if x is not None}
    if years:
        exact = [d for d in picked if doc_years(d)[0] & set(years) or period_end(d) in dated]
        if exact:
            latest = max((y for d in exact for y in doc_years(d)[0] & set(years)), default=max(years))
            if len(years) > 1:
                # "FY2022 vs FY2021" names two years: the filing for the later one covers both; a year it does not
                # cover (December 2021 beside a 2023 10-Q, which goes back to December 2022) keeps its own filing
                later = [d for d in exact if latest in doc_years(d)[0]]
                uncovered = set(years) - set().union(*(doc_years(d)[1] for d in later))
                ids = {d.id for d in later}
                exact = later + [d for d in exact if d.id not in ids and doc_years(d)[0] & uncovered]
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
    if q.asked.quarter is not None:
        # the quarter is of the years written with it ("year-end 2021 ... Q2 2023": 2023), else of every year
        of = set(q.asked.quarter_years)
        quartered = [d for d in picked if not of or doc_years(d)[0] & of or not doc_years(d)[0]]
        narrowed = [d for d in quartered if doc_quarter(d) == str(q.asked.quarter)]
        if narrowed:
            ids = {d.id for d in quartered} - {d.id for d in narrowed}
            picked = [d for d in picked if d.id not in ids]
            matched["quarter"] = [f"Q{q.asked.quarter}"]
    if q.forms:
        narrowed = [d for d in picked if doc_form(d) in q.forms]
        if narrowed:
            picked = narrowed
            matched["form"] = sorted(q.forms)
    if not companies:  # what a period cannot be read of (an 8-K, a deck, a survey) stays in
        ids = {d.id for d in picked}
        picked = [d for d in documents if d.id in ids or not is_periodic(d) or not doc_years(d)[0]]
        if len(picked) == len(documents):
            return Route([], "")
    if companies and not years and q.asked.quarter is None and not (q.across or q.last):
        current = current_filings(picked)
        if len(current) < len(picked):
            picked = current
            matched["current"] = ["newest"]
    reason = " ".join(f"{k}={','.join(v)}" for k, v in matched.items())
    return Route([d.id for d in picked], reason, matched)

"""Filing metadata for routing: who filed it (name, tickers, CIK, former names), form type, period, filing date.

Everything is read from the filing itself. The SEC cover of a 10-K/10-Q/8-K is regular: "FORM 10-K", "For the
fiscal year ended December 31, 2018", the registrant's name above "(Exact name of registrant as specified in its
charter)", its trading symbols in the "Securities registered pursuant to Section 12(b)" table, a former name above
"(Former name ..., if changed since last report)". A press release names its company beside its listing
("Acme Corp. (NYSE: ACME)"); an annual report outside the SEC system names it on its first pages with a legal form
("... AG", "... plc", "... N.V.", "... Limited"), in large type or on every page's header. The file name fills
only what the pages do not say, read with a grammar of how file names commonly spell a company, a year, a
quarter and a form.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from statistics import median
from typing import Any

from engine.periods import DATE_PATTERN, Calendar, Period, parse_date

FRONT_PAGES = 5
"""Pages at the front of a filing read for its cover and its company's name (the SEC cover is page 1 or 2; a
report's title page, contents and first pages follow)."""

CATALOGUE_FIELDS = ("title", "company", "form_type", "fiscal_period", "filing_date", "tickers", "cik",
                    "former_names")
"""The metadata stage's results that the catalogue keeps on the document (``Store.update_document`` fields)."""

_DATE = DATE_PATTERN
_FORM = re.compile(
    r"\bFORM\s+(10-K(?:/A)?|10-Q(?:/A)?|8-K(?:/A)?|20-F|40-F|6-K|S-1|10-KT|DEF\s*14A|11-K)\b"
    r"|\bSCHEDULE\s+(14A)\b",
    re.I,
)
_FISCAL_YEAR = re.compile(r"for\s+the\s+(?:fiscal\s+)?year\s+ended:?[^0-9]{0,40}?" + _DATE, re.I)
_QUARTER = re.compile(r"for\s+the\s+(?:quarterly\s+)?period\s+ended:?[^0-9]{0,40}?" + _DATE, re.I)
_REPORT_DATE = re.compile(r"Date\s+of\s+Report\s*\(Date\s+of\s+earliest\s+event\s+reported\)\s*:?\s*" + _DATE, re.I)
_SIGNED = re.compile(r"\bDated?\s*:?\s*" + _DATE, re.I)
_REGISTRANT = re.compile(r"\(\s*Exact\s+name\s+of\s+(?:the\s+)?registrant", re.I)
_NOT_NAME = re.compile(
    r"commission|file\s+number|^\(|^\d|securities|exchange|act\s+of|washington|form\s|annual|quarterly|report|"
    r"transition|pursuant|^or$|^☐|^☒|^x$|for\s+the\s",
    re.I,
)

# --- company identity -------------------------------------------------------------------------------------------
_LEGAL_FORM = re.compile(
    r"(?:Inc|INC|Incorporated|INCORPORATED|Corp|CORP|Corporation|CORPORATION|Company|COMPANY|Co|CO|Ltd|LTD|"
    r"Limited|LIMITED|LLC|L\.L\.C|LP|L\.P|PLC|plc|Plc|AG|SE|N\.\s?V|NV|B\.\s?V|BV|S\.\s?A|SA|S\.p\.A|SpA|GmbH|"
    r"KGaA|ASA|AB|Oyj|Group|GROUP|Holdings?|HOLDINGS?)\.?,?"
)
"""A word that ends a company's name: its legal form, or the group / holding it heads."""
_CONNECTOR = {"&", "and", "of", "de", "der", "du", "des", "la", "le", "del", "y", "et", "und", "für"}
_FUNCTION_WORDS = {"for", "in", "on", "to", "by", "at", "with", "from", "as", "per", "than", "into", "over",
                   "under", "about", "is", "are", "was", "were", "has", "have", "its", "or", "not", "all"}
_DETERMINER = {"the", "this", "that", "our", "its", "their", "each", "such", "a", "an", "any", "whole", "entire",
               "parent", "peer", "reporting", "consolidated"}
_EXCHANGE = re.compile(
    r"(?:The\s+)?(?:New\s+York\s+Stock\s+Exchange|NYSE(?:\s+(?:American|Arca))?|Nasdaq|NASDAQ|"
    r"(?:[A-Z][a-z]+\s+){1,2}Stock\s+Exchange|Cboe|CBOE)"
)
_LISTING = re.compile(
    r"\b(?:NYSE(?:\s+(?:American|Arca))?|NASDAQ|Nasdaq(?:\s+[A-Z][a-z]+){0,2}|AMEX|TSXV?|LSE|ASX|NSE|BSE|SIX|"
    r"Euronext(?:\s+[A-Z][a-z]+)?|XETRA|Xetra)\s*:\s*([A-Z]{1,5}(?:\.[A-Z]{1,2})?)(?![\w])"
)
"""A listing as press releases and decks print it: ``(NYSE: ACME)``, ``Nasdaq: ACME``."""
_UNDER_SYMBOL = re.compile(
    r"under\s+the\s+(?:ticker\s+|trading\s+|stock\s+)?symbols?\s+[\"“'‘]?([A-Z]{1,5}(?:\.[A-Z]{1,2})?)(?![A-Za-z])"
    r"[\"”'’.,]*(?:\s*(?:,|and|&)\s*[\"“'‘]?([A-Z]{1,5}(?:\.[A-Z]{1,2})?)(?![A-Za-z]))?"
)
_TICKER = re.compile(r"[A-Z]{1,5}(?:\.[A-Z]{1,2})?")
_SERIES = re.compile(r"PR[A-Z]?|Pr[A-Z]?|p[A-Z]?|[A-Z]|[A-Z0-9]*\d[A-Z0-9]*|[/.\-]\S*|—|–|-")
"""Tokens a symbol cell may carry after the ticker: a preferred series (``GS PrA``, ``JPM PR D``), a note's code."""
_CIK = re.compile(r"\b(?:CIK|Central\s+Index\s+Key)(?:\s+(?:No\.?|Number|Code|#))?\s*[:#]?\s*(\d{1,10})\b", re.I)
_FORMER_LABEL = re.compile(r"\(\s*Former\s+name", re.I)
_FORMERLY = re.compile(r"\b(?:formerly(?:\s+known\s+as|\s+named|\s+called)?|f/k/a|previously\s+known\s+as)\s+", re.I)
_NONE = re.compile(r"^\W*(?:n/?a|none|not\s+applicable|no\s+change|unchanged)\W*$", re.I)


@dataclass
class Identity:
    """Who filed a document, as the document says."""

    company: str = ""
    """The registrant's name as printed (``Acme Widgets Corporation``), else the name the pages give."""
    tickers: list[str] = field(default_factory=list)
    """Trading symbols, the common stock's first (``["GOOGL", "GOOG"]``)."""
    cik: str = ""
    """The SEC Central Index Key, ten digits, where the filing prints it."""
    former_names: list[str] = field(default_factory=list)
    """Names the company had before (``Square, Inc.`` for Block)."""


def _page_text(page: Any) -> str:
    return str(getattr(page, "text", "") or "")


def _lines(page: Any) -> list[tuple[str, float]]:
    """The page's lines with the height of their tallest word relative to the page's median word (1.0 when the
    page has no word boxes)."""
    words = getattr(page, "words", None)
    lines = getattr(page, "lines", None)
    if not words or not lines:
        return [(ln, 1.0) for ln in _page_text(page).splitlines()]
    med = median(w[3] - w[1] for w in words) or 1.0
    return [(" ".join(str(words[i][4]) for i in line), max(words[i][3] - words[i][1] for i in line) / med)
            for line in lines if line]


def extract_metadata(pages: Sequence[Any], file_name: str = "") -> dict[str, Any]:
    """Company identity, form type, fiscal period, filing date and a title, from the pages, else the file name.

    ``fiscal_period`` is ``FY2018`` for annual reports and the period end date (``2023-03-31``) for quarterly
    ones; ``filing_date`` is ISO (``2019-02-07``) when a cover, signature or report date says it. ``tickers`` and
    ``former_names`` are lists, present only when the filing gives some; ``cik`` only where it is printed.
    """
    front = pages[:FRONT_PAGES]
    cover = "\n".join(_page_text(p) for p in pages[:3])
    out: dict[str, Any] = {}
    if m := _FORM.search(cover):
        form = (m.group(1) or m.group(2) or "").upper()
        form = "DEF 14A" if form in {"14A", "DEF14A"} or form.startswith("DEF") else re.sub(r"\s+", " ", form)
        out["form_type"] = form
    fy = _FISCAL_YEAR.search(cover)
    qp = _QUARTER.search(cover)
    form = out.get("form_type", "")
    if fy and not form.startswith("10-Q"):
        d = parse_date(fy.group(1))
        if d:
            out["fiscal_period"] = f"FY{d.year}"  # the calendar names it the filer's way (``fiscal_period_named``)
            out["year_end"] = d.isoformat()
    elif qp:
        d = parse_date(qp.group(1))
        if d:
            out["fiscal_period"] = d.isoformat()
    if m := _REPORT_DATE.search(cover):
        d = parse_date(m.group(1))
        if d:
            out["filing_date"] = d.isoformat()
    identity = read_identity(pages)
    out.update(company=identity.company, tickers=identity.tickers, cik=identity.cik,
               former_names=identity.former_names)
    if "filing_date" not in out and front:
        out.update(_signature_date(pages))
    for key, value in from_file_name(file_name).items():
        if not out.get(key):
            out[key] = value
    if out.get("form_type") == "8-K" and not out.get("fiscal_period") and out.get("filing_date"):
        out["fiscal_period"] = out["filing_date"]
    parts = [out.get("company", ""), out.get("form_type", ""), out.get("fiscal_period", "")]
    out["title"] = " ".join(p for p in parts if p) or Path(file_name).stem
    return {k: v for k, v in out.items() if v}


def fiscal_period_named(meta: dict[str, Any], calendar: Calendar) -> str:
    """An annual report's ``fiscal_period`` as the filer names its years: the fiscal year the calendar gives the
    year end on the cover ("For the fiscal year ended January 1, 2023" is fiscal 2022 for a filer whose 52/53-week
    years end early in January, fiscal 2023 for one that names a year by its end); the cover's year when the
    calendar knows no year end."""
    period = meta.get("fiscal_period", "")
    end = meta.get("year_end")
    if not end or not period.startswith("FY") or calendar.year_end_month is None:
        return period
    d = date.fromisoformat(end)
    fy = calendar.fiscal_year_of(Period(end=d, year=d.year, months=12))
    return f"FY{fy}" if fy else period


def read_identity(pages: Sequence[Any]) -> Identity:
    """The company a filing is from: the registrant on an SEC cover, else the company a press release lists
    (``Acme Corp. (NYSE: ACME)``), else the most prominent name with a legal form on the first pages; its
    trading symbols (cover table, listings, "under the symbol" anywhere in the filing), CIK and former names."""
    front = pages[:FRONT_PAGES]
    listed_name, listed = _listings(front)
    company = _registrant(pages[:3]) or listed_name or _name_line(front[:1]) or _prominent_name(front)
    tickers = _unique(_cover_tickers(front) + listed + _symbol_mentions(pages))
    text = "\n".join(_page_text(p) for p in front)
    cik = m.group(1).zfill(10) if (m := _CIK.search(text)) and int(m.group(1)) > 0 else ""
    former = [n for n in _unique(_former_names(front, company)) if _core(n) != _core(company)]
    return Identity(company=company, tickers=tickers[:8], cik=cik, former_names=former[:4])


def _unique(items: Sequence[str]) -> list[str]:
    seen: dict[str, str] = {}
    for item in items:
        seen.setdefault(_key(item), item)
    return list(seen.values())


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9&]+", "", name.lower())


def _core(name: str) -> str:
    """A name without its legal form and articles, for comparing two spellings of one company."""
    words = [w for w in name.split() if not _LEGAL_FORM.fullmatch(w.strip("()“”\"'’;:")) and w.lower() != "the"]
    return _key(" ".join(words))


def _registrant(pages: Sequence[Any]) -> str:
    """The line above "(Exact name of registrant as specified in its charter)" on the cover."""
    for page in pages:
        lines = [ln.strip() for ln in _page_text(page).splitlines()]
        for i, line in enumerate(lines):
            if not (m := _REGISTRANT.search(line)):
                continue
            before = line[: m.start()].strip()
            if len(before) >= 2 and not _NOT_NAME.search(before):
                return _tidy_name(before)
            for j in range(i - 1, max(-1, i - 4), -1):
                cand = lines[j]
                if cand and len(cand) >= 2 and not _NOT_NAME.search(cand) and any(c.isalpha() for c in cand):
                    return _tidy_name(cand)
    return ""


def _name_line(pages: Sequence[Any]) -> str:
    """A line of the first page's top that is a name with a legal form and nothing else (a cover without the
    "Exact name of registrant" label: ``9Q COMPANY``; a report's title page: ``ACME FINANCE N.V.``)."""
    for page in pages:
        for line in _page_text(page).splitlines()[:30]:
            line = line.strip()
            names = _names_with_form(line)
            if names and _key(names[0]) == _key(line) and not _EXCHANGE.search(line) and not _NOT_NAME.search(line):
                return _tidy_name(line)
    return ""


def _is_name_word(token: str) -> bool:
    core = token.strip(",;:()“”\"'’")
    return bool(core) and (core[0].isupper() or core[0].isdigit()) and any(c.isalpha() for c in core)


def _name_before(text: str) -> str:
    """The capitalised name that ends ``text`` (``"... 2023 - Acme Widgets, Inc."`` -> ``Acme Widgets, Inc.``).

    The name stops at a lower-case word, a function word of a heading in capitals (``INCOME STATEMENT FOR``), or
    where capitals give way to title case (``SELECTED FINANCIAL INFORMATION Acme Post Group``)."""
    words: list[str] = []
    titled = False
    for token in reversed(text.split()):
        core = token.strip(",;:()“”\"'’")
        if core.lower() in _FUNCTION_WORDS and core.lower() not in _CONNECTOR:
            break
        shouting = core.isupper() and len(core) > 3 and not any(c in core for c in ".&")
        if titled and shouting:
            break
        if _is_name_word(token) or (core.lower() in _CONNECTOR and words):
            words.insert(0, token)
            titled = titled or (core[:1].isupper() and not core.isupper())
            if len(words) >= 7:
                break
            continue
        break
    while words and (words[0] in _CONNECTOR or words[0].lower() in _DETERMINER):
        words.pop(0)
    return _tidy_name(" ".join(words)) if words else ""


def _listings(pages: Sequence[Any]) -> tuple[str, list[str]]:
    """The company a press release or deck lists (``Acme Corp. (NYSE: ACME)``) and the tickers so listed."""
    name, tickers = "", []
    for page in pages:
        for line in _page_text(page).splitlines():
            for m in _LISTING.finditer(line):
                tickers.append(m.group(1))
                before = line[: m.start()].rstrip()
                if not name and before.endswith("("):
                    name = _name_before(before[:-1])
    return name, tickers


def _cover_tickers(pages: Sequence[Any]) -> list[str]:
    """The symbols of the cover's "Securities registered pursuant to Section 12(b)" table, read from the cell
    before each row's exchange (or after it, when the table puts the exchange first)."""
    out: list[str] = []
    for page in pages:
        lines = _page_text(page).splitlines()
        start = next((i for i, ln in enumerate(lines) if re.search(r"section\s+12\s*\(\s*b\s*\)", ln, re.I)), None)
        if start is None:
            continue
        section = []
        for ln in lines[start + 1 : start + 40]:
            if re.search(r"section\s+12\s*\(\s*g\s*\)|indicate\s+by\s+check\s+mark", ln, re.I):
                break
            section.append(ln)
        head = " ".join(section[:4] + section[-3:])
        if not re.search(r"trading", head, re.I) or not re.search(r"symbol", head, re.I):
            continue  # covers before 2019 have no symbol column: a word before the exchange is not a ticker
        header = next((ln for ln in section if re.search(r"symbol", ln, re.I)), "")
        exchange_first = re.search(r"exchange.*symbol", header, re.I) is not None
        for ln in section:
            for m in _EXCHANGE.finditer(ln):
                ticker = _symbol_after(ln[m.end():]) if exchange_first else _symbol_before(ln[: m.start()])
                if ticker:
                    out.append(ticker)
                    break
    return out


def _symbol_before(cell_text: str) -> str:
    """The ticker at the end of a row's text before its exchange; series and note codes after it are skipped."""
    run: list[str] = []
    for token in reversed(cell_text.split()):
        base = token.split("/")[0] if "/" in token[1:] else token
        if _TICKER.fullmatch(base) or _SERIES.fullmatch(token):
            run.append(base if _TICKER.fullmatch(base) else token)
            continue
        break
    for token in run:
        if _TICKER.fullmatch(token) and len(token) >= 2 and not re.fullmatch(r"PR[A-Z]?", token):
            return token
    return run[0] if len(run) == 1 and re.fullmatch(r"[A-Z]", run[0]) else ""


def _symbol_after(cell_text: str) -> str:
    tokens = cell_text.split()
    return tokens[0] if tokens and _TICKER.fullmatch(tokens[0]) else ""


def _symbol_mentions(pages: Sequence[Any]) -> list[str]:
    """Tickers the filing states in prose: "listed on the Nasdaq ... under the symbol “ACME”" (Item 5 of a
    10-K, anywhere in the filing)."""
    out: list[str] = []
    for page in pages:
        text = _page_text(page)
        if "symbol" not in text:
            continue
        for m in _UNDER_SYMBOL.finditer(text):
            out.extend(t for t in m.groups() if t)
        if len(out) >= 4:
            break
    return out


def _former_names(pages: Sequence[Any], company: str) -> list[str]:
    """The cover's "(Former name ... if changed since last report)" entry, and "formerly known as ..." said of the
    company itself (``Acme, Inc. (formerly known as Widgets, Inc.)``; a subsidiary's former name is not one)."""
    out: list[str] = []
    for page in pages:
        lines = [ln.strip() for ln in _page_text(page).splitlines()]
        for i, line in enumerate(lines):
            if (m := _FORMER_LABEL.search(line)) is None:
                continue
            cand = line[: m.start()].strip() or (lines[i - 1] if i else "")
            cand = re.split(r",\s*\d", cand)[0].strip(" ,")
            legal = any(_LEGAL_FORM.fullmatch(t.strip("()“”\"'’;:")) for t in cand.split()[1:])
            if cand and legal and not _NONE.match(cand) and not _NOT_NAME.search(cand) and len(cand) <= 100:
                out.append(_tidy_name(cand))
        text = re.sub(r"\s+", " ", _page_text(page))
        for m in _FORMERLY.finditer(text):
            said_of = _name_before(text[: m.start()].rstrip(" (,"))
            if _core(said_of) not in {_core(company), "company", "registrant"} or not _core(said_of):
                continue
            name = _name_with_form_after(text[m.end():m.end() + 120])
            if name:
                out.append(name)
    return out


def _name_with_form_after(text: str) -> str:
    """A company name that starts ``text`` and ends in a legal form within a few words; '' otherwise (a product
    "formerly codenamed ..." has no legal form)."""
    words: list[str] = []
    for token in text.split()[:8]:
        if not (_is_name_word(token) or token in _CONNECTOR):
            break
        words.append(token)
        if _LEGAL_FORM.fullmatch(token.strip("()“”\"'’;:")) and len(words) > 1:
            return _tidy_name(" ".join(words).strip("()“”\"'’;:,"))
    return ""


def _prominent_name(pages: Sequence[Any]) -> str:
    """The company a report without an SEC cover is about: the name with a legal form ("... AG", "... plc",
    "... Group") printed largest and most often on its first pages. A name printed once in body type is not
    enough (it may be a subsidiary or a customer)."""
    scores: dict[str, float] = {}
    shown: dict[str, str] = {}
    for n, page in enumerate(pages):
        for line, height in _lines(page):
            for name in _names_with_form(line):
                if _EXCHANGE.search(name):
                    continue
                k = _key(name)
                scores[k] = scores.get(k, 0.0) + min(height, 4.0) * (1.5 if n == 0 else 1.0)
                if k not in shown or (shown[k].isupper() and not name.isupper()):
                    shown[k] = name
    if not scores:
        return ""
    best = max(scores, key=lambda k: scores[k])
    return _tidy_name(shown[best]) if scores[best] >= 2.0 else ""


def _names_with_form(line: str) -> list[str]:
    """Every ``Name ... <legal form>`` in a line: capitalised words ending in a legal form or group word."""
    tokens = line.split()
    out = []
    legal = [bool(_LEGAL_FORM.fullmatch(t.strip("()“”\"'’;:"))) for t in tokens]
    for i, token in enumerate(tokens):
        if i == 0 or not legal[i]:
            continue
        if i + 1 < len(tokens) and legal[i + 1] and tokens[i + 1].lower() != token.lower():
            continue  # "Holdings, Inc.": the name ends at the last form
        if legal[i - 1] and tokens[i - 1].lower().strip(",") == token.lower().strip(","):
            continue  # "Acme Group Group Financial Statements": a header run into a title
        name = _name_before(" ".join(tokens[:i]))
        words = name.split()
        if words and not (len(words) == 1 and _LEGAL_FORM.fullmatch(words[0])):
            out.append(f"{name} {token.strip('()“”;:,')}")
    return out


def _tidy_name(name: str) -> str:
    """Spaces and stray punctuation tidied; a name in capitals set in title case, keeping short acronyms
    (``VTR FINANCE N.V.`` -> ``VTR Finance N.V.``, ``9Q COMPANY`` -> ``9Q Company``)."""
    name = re.sub(r"\s+\.", ".", re.sub(r"\s+", " ", name)).strip(" ,:;")
    if name.isupper() and len(name) > 4:
        name = re.sub(r"\b([A-Z]) (?=[A-Z]{3,})", r"\1", name)  # small capitals read as "R ESORTS"
        words = name.split()
        name = " ".join(w if _keeps_capitals(w, i == 0) else w.capitalize() for i, w in enumerate(words))
    else:
        name = " ".join(w.capitalize() if w.isupper() and _LEGAL_FORM.fullmatch(w) and len(w) > 3 else w
                        for w in name.split())
    return name[:120]


def _keeps_capitals(word: str, first: bool) -> bool:
    """Whether a word of a name in capitals stays so: initials (N.V., S.A.), a word with digits (9Q), a short
    acronym leading the name (VTR)."""
    core = word.strip(".,;:()")
    if any(c.isdigit() for c in core) or ("." in core and all(len(p) <= 2 for p in core.split("."))):
        return True
    return first and len(core) <= 3 and core.lower() not in _DETERMINER | _CONNECTOR


def _signature_date(pages: Sequence[Any]) -> dict[str, str]:
    """A filing date from the signature page ("Date: February 7, 2019"), searched from the end."""
    tail = list(pages[-25:]) if len(pages) > 25 else list(pages)
    for page in reversed(tail):
        text = _page_text(page)
        if "SIGNATURE" not in text.upper():
            continue
        dates = [d for m in _SIGNED.finditer(text) if (d := parse_date(m.group(1))) is not None]
        if dates:
            return {"filing_date": max(dates).isoformat()}
    return {}


# --- the file name, for files whose pages say nothing -----------------------------------------------------------
_NAME_FORMS = {"10K": "10-K", "10Q": "10-Q", "8K": "8-K", "20F": "20-F", "40F": "40-F", "6K": "6-K",
               "DEF14A": "DEF 14A", "S1": "S-1"}
_DOC_WORDS = {
    "annual", "quarterly", "interim", "half", "year", "report", "reports", "results", "earnings", "release",
    "press", "presentation", "slides", "deck", "statement", "statements", "financial", "financials", "filing",
    "form", "final", "draft", "copy", "full", "document", "dated", "investor", "transcript", "call", "proxy",
    "fy", "fiscal", "h1", "h2", "ye", "10", "k", "q",
}
"""Words file names use for the kind of document, not the company (English; a file name in another language
keeps its words in the company, which then only matters when nothing else names it)."""
_LANGS = {"en", "eng", "english", "de", "fr", "es", "it", "nl", "pt", "ja", "zh"}


def _name_token_kind(token: str) -> str:
    t = token.upper()
    if re.fullmatch(r"(?:19|20)\d\d(?:Q[1-4]|H[12])?|Q[1-4](?:FY)?(?:19|20)?\d\d|[1-4]Q(?:19|20)?\d\d|Q[1-4]|"
                    r"FY(?:19|20)?\d\d|(?:19|20)\d{6}|\d{1,2}", t):
        return "period"
    if t.replace("-", "") in _NAME_FORMS:
        return "form"
    if re.fullmatch(r"[0-9A-F]{12,}|V\d+|\d+", t) or re.search(r"\d{3,}", t):
        return "noise"
    if token.lower() in _DOC_WORDS:
        return "doc"
    return "name"


def from_file_name(file_name: str) -> dict[str, str]:
    """What a file name says, for files whose pages do not: ``acme_2018_10K`` -> company acme, FY2018, 10-K;
    ``2023 Q1 ACME`` -> 2023Q1, ACME; ``acme-report-2022`` -> FY2022; a date (``2023-05-05``, ``2023.05.05``,
    ``20230505-...``) -> the filing date.

    The company is the first run of words that are not a period, a form, a language code or a word for the kind
    of document (report, results, earnings, statements ...)."""
    stem = Path(file_name).stem
    out: dict[str, str] = {}
    iso = re.search(r"(?<!\d)((?:19|20)\d\d)([-.])(\d\d)\2(\d\d)(?!\d)", stem)
    run_together = re.match(r"^((?:19|20)\d\d)(\d\d)(\d\d)(?=[-_ ]|$)", stem)
    if iso and 1 <= int(iso.group(3)) <= 12:
        out["filing_date"] = f"{iso.group(1)}-{iso.group(3)}-{iso.group(4)}"
    elif run_together and 1 <= int(run_together.group(2)) <= 12:
        out["filing_date"] = f"{run_together.group(1)}-{run_together.group(2)}-{run_together.group(3)}"
    head = stem[: iso.start()] if iso else stem
    spaced = re.sub(r"[_\s.]+", " ", head)
    if m := re.search(r"(?<![A-Za-z0-9])(10-?K|10-?Q|8-?K|20-?F|40-?F|6-?K|DEF-?14A)(?![A-Za-z0-9])", spaced, re.I):
        out["form_type"] = _NAME_FORMS.get(m.group(1).upper().replace("-", ""), m.group(1).upper())
    q = re.search(r"(?<!\d)((?:19|20)\d\d)\s*[-_ ]?\s*Q([1-4])(?![A-Za-z0-9])", spaced, re.I) or re.search(
        r"(?<![A-Za-z0-9])Q([1-4])\s*[-_ ]?\s*((?:19|20)\d\d)(?!\d)", spaced, re.I)
    years = re.findall(r"(?<!\d)((?:19|20)\d\d)(?!\d)", spaced)
    if q:
        year, quarter = (q.group(1), q.group(2)) if len(q.group(1)) == 4 else (q.group(2), q.group(1))
        out["fiscal_period"] = f"{year}Q{quarter}"
    elif years:
        out["fiscal_period"] = f"FY{years[0]}"
    tokens = [t for t in re.split(r"[\s_\-.]+", spaced) if t]
    if tokens and tokens[-1].lower() in _LANGS:
        tokens.pop()
    runs: list[list[str]] = [[]]
    for t in tokens:
        if _name_token_kind(t) == "name":
            runs[-1].append(t)
        elif runs[-1]:
            runs.append([])
    name = next((r for r in runs if r), [])
    if name:
        out["company"] = " ".join(name[:4])
    return out

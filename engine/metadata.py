"""Filing metadata for routing (company, form type, fiscal period, filing date) from the cover page.

Cover-page patterns come first (the SEC cover of a 10-K/10-Q/8-K is regular: "FORM 10-K", "For the fiscal year
ended December 31, 2018", the registrant's name above "(Exact name of registrant as specified in its
charter)"); the file name fills what the cover does not say ("3M_2018_10K", "2023 Q1 AAPL",
"PEPSICO_2023_8K_dated-2023-05-05").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
         "november", "december"]
    )
}
_DATE = (
    r"((?:January|February|March|April|May|June|July|August|September|October|November|December)"
    r"\s+\d{1,2}\s*,?\s*\d{4})"
)
_FORM = re.compile(
    r"\bFORM\s+(10-K(?:/A)?|10-Q(?:/A)?|8-K(?:/A)?|20-F|40-F|6-K|S-1|10-KT|DEF\s*14A|11-K)\b"
    r"|\bSCHEDULE\s+(14A)\b",
    re.I,
)
_FISCAL_YEAR = re.compile(r"for\s+the\s+(?:fiscal\s+)?year\s+ended:?[^0-9]{0,40}?" + _DATE, re.I)
_QUARTER = re.compile(r"for\s+the\s+(?:quarterly\s+)?period\s+ended:?[^0-9]{0,40}?" + _DATE, re.I)
_CORPORATE = re.compile(
    r"^[A-Z0-9][\w.,&'’ -]{1,80}\b(?:COMPANY|CORPORATION|CORP\.?|INC\.?|INCORPORATED|LTD\.?|PLC|GROUP|CO\.|"
    r"Company|Corporation|Inc\.?|Ltd\.?|plc|Group|Holdings|HOLDINGS|N\.V\.|S\.A\.|AG|SE)$"
)
_REPORT_DATE = re.compile(r"Date\s+of\s+Report\s*\(Date\s+of\s+earliest\s+event\s+reported\)\s*:?\s*" + _DATE, re.I)
_SIGNED = re.compile(r"\bDated?\s*:?\s*" + _DATE, re.I)
_REGISTRANT = re.compile(r"\(\s*Exact\s+name\s+of\s+(?:the\s+)?registrant", re.I)
_NOT_NAME = re.compile(
    r"commission|file\s+number|^\(|^\d|securities|exchange|act\s+of|washington|form\s|annual|quarterly|report|"
    r"transition|pursuant|^or$|^☐|^☒|^x$|for\s+the\s",
    re.I,
)
_FORM_FROM_NAME = re.compile(r"(?<![A-Za-z0-9])(10-?K|10-?Q|8-?K|20-?F|DEF-?14A)(?![A-Za-z0-9])", re.I)


def parse_date(text: str) -> date | None:
    """``"December 31, 2018"`` -> ``date(2018, 12, 31)``; None if it is not such a date."""
    m = re.match(r"([A-Za-z]+)\s+(\d{1,2})\s*,?\s*(\d{4})", text.strip())
    if not m or m.group(1).lower() not in _MONTHS:
        return None
    try:
        return date(int(m.group(3)), _MONTHS[m.group(1).lower()], int(m.group(2)))
    except ValueError:
        return None


def _page_text(page: Any) -> str:
    return str(getattr(page, "text", "") or "")


def extract_metadata(pages: Sequence[Any], file_name: str = "") -> dict[str, str]:
    """Company, form type, fiscal period, filing date and a title, from the cover page, else the file name.

    ``fiscal_period`` is ``FY2018`` for annual reports and the period end date (``2023-03-31``) for quarterly
    ones; ``filing_date`` is ISO (``2019-02-07``) when a cover, signature or report date says it.
    """
    cover = "\n".join(_page_text(p) for p in pages[:3])
    out: dict[str, str] = {}
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
            out["fiscal_period"] = f"FY{d.year}"
            out["period_end"] = d.isoformat()
    elif qp:
        d = parse_date(qp.group(1))
        if d:
            out["fiscal_period"] = d.isoformat()
            out["period_end"] = d.isoformat()
    if m := _REPORT_DATE.search(cover):
        d = parse_date(m.group(1))
        if d:
            out["filing_date"] = d.isoformat()
    company = _registrant(pages[:3])
    if company:
        out["company"] = company
    if "filing_date" not in out and pages:
        out.update(_signature_date(pages))
    for key, value in from_file_name(file_name).items():
        out.setdefault(key, value)
    if out.get("form_type") == "8-K" and "fiscal_period" not in out and out.get("filing_date"):
        out["fiscal_period"] = out["filing_date"]
    parts = [out.get("company", ""), out.get("form_type", ""), out.get("fiscal_period", "")]
    out["title"] = " ".join(p for p in parts if p) or Path(file_name).stem
    out.pop("period_end", None)
    return {k: v for k, v in out.items() if v}


def _registrant(pages: Sequence[Any]) -> str:
    """The line above "(Exact name of registrant as specified in its charter)" on the cover."""
    for page in pages:
        lines = [ln.strip() for ln in _page_text(page).splitlines()]
        for i, line in enumerate(lines):
            if not _REGISTRANT.search(line):
                continue
            before = line[: _REGISTRANT.search(line).start()].strip()  # type: ignore[union-attr]
            if len(before) >= 2 and not _NOT_NAME.search(before):
                return _tidy_name(before)
            for j in range(i - 1, max(-1, i - 4), -1):
                cand = lines[j]
                if cand and len(cand) >= 2 and not _NOT_NAME.search(cand) and any(c.isalpha() for c in cand):
                    return _tidy_name(cand)
    for page in pages[:1]:
        for line in _page_text(page).splitlines()[:30]:
            line = line.strip()
            if _CORPORATE.match(line) and not _NOT_NAME.search(line.lstrip("0123456789")):
                return _tidy_name(line)
    return ""


def _tidy_name(name: str) -> str:
    name = re.sub(r"\s+\.", ".", re.sub(r"\s+", " ", name)).strip(" ,:;")
    if name.isupper() and len(name) > 4:
        name = " ".join(w if (len(w) <= 3 and w.isalnum() and any(c.isdigit() for c in w)) else w.capitalize()
                        for w in name.split())
        name = re.sub(r"\b(Inc|Corp|Co|Ltd|Plc|Llc|N\.v|S\.a)\b", lambda m: m.group(1), name)
    return name[:120]


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


def from_file_name(file_name: str) -> dict[str, str]:
    """What a file name says: ``3M_2018_10K`` -> company 3M, FY2018, 10-K; ``2023 Q1 AAPL`` -> 2023Q1, AAPL."""
    stem = Path(file_name).stem
    out: dict[str, str] = {}
    if m := re.search(r"dated[-_ ](\d{4})-(\d{2})-(\d{2})", stem, re.I):
        out["filing_date"] = f"{m.group(1)}-{m.group(2)}-{m.group(3)}"
    elif m := re.match(r"^(20\d\d|19\d\d)(\d\d)(\d\d)(?=[-_ ])", stem):
        out["filing_date"] = f"{m.group(1)}-{m.group(2)}-{m.group(3)}"
    if m := _FORM_FROM_NAME.search(stem.replace("_", " ")):
        raw = m.group(1).upper().replace("-", "")
        out["form_type"] = {"10K": "10-K", "10Q": "10-Q", "8K": "8-K", "20F": "20-F", "DEF14A": "DEF 14A"}.get(
            raw, raw
        )
    q = re.search(r"(?<!\d)((?:19|20)\d\d)\s*[-_ ]?\s*(Q[1-4])(?![A-Za-z0-9])", stem, re.I)
    if q:
        out["fiscal_period"] = f"{q.group(1)}{q.group(2).upper()}"
    else:
        years = [y for y in re.findall(r"(?<!\d)((?:19|20)\d\d)(?!\d)", re.sub(r"dated.*$", "", stem))]
        if years:
            out["fiscal_period"] = f"FY{years[0]}"
    tokens = [t for t in re.split(r"[\s_\-]+", re.sub(r"dated.*$", "", stem, flags=re.I)) if t]
    name_tokens = []
    for t in tokens:
        if re.fullmatch(r"\d+|(?:19|20)\d\d(?:Q[1-4])?|Q[1-4]|10K|10Q|8K|20F|K|Q|10|EARNINGS|REPORT|ANNUAL|en|"
                        r"EN|de|final|FINAL|Group|GROUP|Bericht|Report|report|annual", t, re.I):
            continue
        name_tokens.append(t)
    if name_tokens and not re.fullmatch(r"[0-9a-f]{12,}", name_tokens[0]):
        out["company"] = " ".join(name_tokens[:3])
    return out

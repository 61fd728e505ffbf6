"""Query expansion for financial questions: abbreviations and line-item synonyms, fiscal-year spellings.

Expansion feeds the lexical (BM25) channel, where an exact line item ("Purchases of property, plant and
equipment") must be reachable from how an analyst asks ("capex"). The dense query gets only the short
spelled-out forms, because long synonym lists drag an embedding away from the question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

SYNONYMS: dict[str, tuple[str, ...]] = {
    "capex": ("capital expenditures", "purchases of property, plant and equipment",
              "additions to property and equipment"),
    "capital expenditure": ("capex", "purchases of property, plant and equipment",
                            "additions to property and equipment"),
    "ebitda": ("earnings before interest, taxes, depreciation and amortization", "operating income",
               "depreciation and amortization"),
    "ebit": ("earnings before interest and taxes", "operating income"),
    "d&a": ("depreciation and amortization",),
    "da": ("depreciation and amortization",),
    "cogs": ("cost of goods sold", "cost of sales", "cost of revenue"),
    "cost of goods sold": ("cost of sales", "cost of revenue"),
    "sg&a": ("selling, general and administrative expenses",),
    "sga": ("selling, general and administrative expenses",),
    "r&d": ("research and development",),
    "eps": ("earnings per share", "net income per share"),
    "dps": ("dividends per share", "dividends declared per share"),
    "fcf": ("free cash flow", "cash flow from operations", "capital expenditures"),
    "free cash flow": ("net cash provided by operating activities", "purchases of property and equipment"),
    "cfo": ("cash flow from operations", "net cash provided by operating activities"),
    "operating cash flow": ("net cash provided by operating activities",),
    "cash from operations": ("net cash provided by operating activities",),
    "ppe": ("property, plant and equipment",),
    "pp&e": ("property, plant and equipment",),
    "revenue": ("net sales", "total revenues", "net revenues"),
    "revenues": ("net sales", "total revenues", "net revenues"),
    "sales": ("net sales", "revenue"),
    "top line": ("revenue", "net sales"),
    "net income": ("net earnings", "profit attributable"),
    "net profit": ("net income", "net earnings"),
    "bottom line": ("net income",),
    "gross margin": ("gross profit", "net sales", "cost of sales"),
    "operating margin": ("operating income", "net sales"),
    "net margin": ("net income", "net sales"),
    "ar": ("accounts receivable",),
    "ap": ("accounts payable",),
    "dso": ("days sales outstanding", "accounts receivable", "revenue"),
    "dpo": ("days payable outstanding", "accounts payable", "cost of sales"),
    "inventory turnover": ("cost of sales", "inventories"),
    "roa": ("return on assets", "net income", "total assets"),
    "roe": ("return on equity", "net income", "shareholders equity"),
    "roic": ("return on invested capital",),
    "current ratio": ("total current assets", "total current liabilities"),
    "quick ratio": ("cash and cash equivalents", "accounts receivable", "total current liabilities"),
    "debt to equity": ("total debt", "long-term debt", "total shareholders equity"),
    "leverage": ("total debt", "long-term debt"),
    "working capital": ("total current assets", "total current liabilities"),
    "buyback": ("repurchases of common stock", "share repurchases"),
    "buybacks": ("repurchases of common stock", "share repurchases"),
    "dividends": ("cash dividends paid", "dividends declared"),
    "opex": ("operating expenses",),
    "yoy": ("year over year", "change", "compared to prior year"),
    "headcount": ("employees",),
    "m&a": ("acquisitions", "mergers and acquisitions"),
    "goodwill": ("goodwill impairment", "intangible assets"),
    "restricted cash": ("cash, cash equivalents and restricted cash",),
    "effective tax rate": ("provision for income taxes", "income before income taxes"),
    "interest coverage": ("operating income", "interest expense"),
}
"""Lower-case phrase -> phrases an SEC filing uses for the same thing."""

_YEAR = re.compile(r"\b(?:FY|fiscal(?:\s+year)?\s*)'?(\d{2}|\d{4})\b", re.I)
_QUARTER = re.compile(r"\b(?:Q([1-4])\s*(?:FY)?'?(\d{2,4})|(\d{4})\s*Q([1-4]))\b", re.I)
_WORD = re.compile(r"[a-z0-9&]+(?:[.'][a-z0-9]+)*", re.I)


@dataclass
class Expansion:
    """A question with the terms added for the lexical and dense channels."""

    question: str
    terms: list[str] = field(default_factory=list)
    """Added phrases (synonyms and year spellings), in order of discovery, without duplicates."""
    years: list[str] = field(default_factory=list)
    """Four-digit years named in the question (from ``FY2022``, ``fiscal 22``, ``2023 Q1``...)."""

    @property
    def lexical(self) -> str:
        """The text the BM25 channel searches with: the question and every added term."""
        return " ".join([self.question, *self.terms])

    @property
    def dense(self) -> str:
        """The text the dense channel embeds: the question without instructions about the answer's form
        (``focus``), plus the first spelling of each abbreviation."""
        short = [t for t in self.terms[:3] if len(t) < 60]
        q = focus(self.question)
        return q if not short else f"{q} ({'; '.join(short)})"


_INSTRUCTION = re.compile(
    r"^(assume|answer|give|round|please|base your|calculate|respond|provide|express|show your|report|"
    r"use (the|only)|using (the|only)|address the question|the answer should|if .{0,80}\bthen\b)",
    re.I,
)


def focus(question: str) -> str:
    """The question without the sentences that only instruct how to answer ("Assume that you are an
    analyst.", "Round your answer to two decimal places.", "Answer in USD millions."): they pull a short
    embedding away from the filing's words. A question made only of instructions is kept whole."""
    sentences = re.split(r"(?<=[.?!])\s+", question.strip())
    out: list[str] = []
    for sentence in sentences:
        if not _INSTRUCTION.match(sentence):
            out.append(sentence)
        elif ":" in sentence and sentence.split(":", 1)[1].strip():
            # "Answer the following question using the balance sheet: what is X?" keeps "what is X?"
            out.append(sentence.split(":", 1)[1].strip())
    return " ".join(out) if out else question


def _full_year(y: str) -> str:
    return y if len(y) == 4 else ("20" + y if int(y) < 70 else "19" + y)


def expand(question: str) -> Expansion:
    """Expand a question with financial synonyms and fiscal-year spellings (see ``SYNONYMS``)."""
    q = question.lower()
    out = Expansion(question=question)
    seen: set[str] = set()

    def add(term: str, force: bool = False) -> None:
        key = term.lower()
        if key not in seen and (force or key not in q):
            seen.add(key)
            out.terms.append(term)

    words = set(_WORD.findall(q))
    for phrase, alts in SYNONYMS.items():
        hit = phrase in words if " " not in phrase and "&" not in phrase else phrase in q
        if not hit and "&" in phrase:
            hit = re.search(rf"(?<![a-z]){re.escape(phrase)}(?![a-z])", q) is not None
        if hit:
            for alt in alts:
                add(alt)
    for m in _YEAR.finditer(question):
        y = _full_year(m.group(1))
        if y not in out.years:
            out.years.append(y)
        add(y, force=True)
        add(f"fiscal {y}")
    for m in _QUARTER.finditer(question):
        qn, y = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        y = _full_year(y)
        if y not in out.years:
            out.years.append(y)
        add(y, force=True)
        add({"1": "first quarter", "2": "second quarter", "3": "third quarter", "4": "fourth quarter"}[qn])
    for y in re.findall(r"\b((?:19|20)\d{2})\b", question):
        if y not in out.years:
            out.years.append(y)
    return out

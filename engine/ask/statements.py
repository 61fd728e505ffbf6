"""Primary financial statements: which ones a question needs, and which tables of a filing are them.

Analysts ask for line items ("capex", "net PP&E", "operating income") or name a statement ("using the cash
flow statement"); the answer sits in the consolidated income statement, balance sheet or cash flow statement,
pages whose words rarely match the question's phrasing. Retrieval adds those statements' tables as one more
ranking for fusion (``Settings.statement_channel``).
"""

from __future__ import annotations

import re

from engine.library.lexical import tokenize

INCOME, BALANCE, CASH, EQUITY = "income", "balance", "cash_flow", "equity"

TITLE_PATTERNS: dict[str, re.Pattern[str]] = {
    INCOME: re.compile(
        r"statements?of(consolidated)?(comprehensive)?(income|operations|earnings|\(loss\)income|"
        r"income\(loss\)|loss)|incomestatements?|statements?ofprofit(or|and)loss|profitandloss(account|statement)"
    ),
    BALANCE: re.compile(r"balancesheets?|statements?of(consolidated)?financial(position|condition)"),
    CASH: re.compile(r"statements?of(consolidated)?cashflows?|cashflows?statements?"),
    EQUITY: re.compile(
        r"statements?of(consolidated)?(changesin)?(stockholders|shareholders|shareowners)(equity|deficit)|"
        r"statements?ofchangesin(equity|netassets)|statements?ofequity"
    ),
}
"""A statement's name as printed in the heading of its page, matched with spaces and apostrophes removed
(text layers split words: "Balance Shee t", "Cash Flow s")."""

NAMED: dict[str, re.Pattern[str]] = {
    INCOME: re.compile(r"income statements?|statements? of (income|operations|earnings)|\bp&l\b|"
                       r"profit and loss|statements? of comprehensive income", re.I),
    BALANCE: re.compile(r"balance sheets?|statements? of financial position", re.I),
    CASH: re.compile(r"cash ?flows? statements?|statements? of cash ?flows?", re.I),
    EQUITY: re.compile(r"statements? of (stockholders|shareholders)['’]? equity|equity statements?", re.I),
}
"""How a question names a statement."""
SPOKEN: dict[str, str] = {INCOME: "income statement", BALANCE: "balance sheet", CASH: "cash flow statement",
                          EQUITY: "statement of stockholders' equity"}
"""A statement's usual name, as ``NAMED`` reads it (a search for an item within its statement says it)."""

def statement_of(title: str) -> str | None:
    """The primary statement a table heading names, if any (notes, schedules and "selected ... data" extracts
    such as the MD&A's "Consolidated Statements of Operations Data" are not statements, nor is Item 8's index,
    which names every statement with its page: "Consolidated Balance Sheets F-2 Consolidated Statements of
    Operations F-3 ...")."""
    # Item 8's own title ("Financial Statements and Supplementary Data") heads the first statement's page
    head = re.sub(r"financial statements and supplementa\w* (data|information)", " ", title[:300], flags=re.I)
    if re.search(r"\bnotes? to\b|\bschedule\b|\bsupplementa|\bselected\b|\bsummary\b|\bhighlights\b|"
                 r"(?:statements?|sheets?)(?: of [a-z ]{2,30}?)? data\b|discussion and analysis|\banalysis\b|"
                 r"\bmd&a\b|off-balance", head, re.I):
        return None
    squashed = re.sub(r"[\s'’]+", "", head.lower())
    named = [kind for kind, pattern in TITLE_PATTERNS.items() if pattern.search(squashed)]
    if not named:
        return None
    listed = re.sub(r"[\s'’]+", "", title[:INDEX_CHARS].lower())
    return named[0] if sum(1 for p in TITLE_PATTERNS.values() if p.search(listed)) < INDEX_KINDS else None


INDEX_KINDS, INDEX_CHARS = 3, 1000
"""A heading naming this many kinds of statement in its first ``INDEX_CHARS`` characters lists them (an index of
the financial statements)."""


_ROW_SIGNATURES: dict[str, tuple[re.Pattern[str], ...]] = {
    BALANCE: (re.compile(r"\btotal (current )?assets\b"), re.compile(r"\btotal (current )?liabilities\b|"
                                                                 r"\baccounts payable\b")),
    CASH: (re.compile(r"\boperating activities\b"), re.compile(r"\binvesting activities\b")),
    INCOME: (re.compile(r"\b(net sales|revenues?|total revenues?)\b"),
             re.compile(r"\bnet (income|earnings|loss)\b"),
             re.compile(r"\bper (common )?share\b|\bincome before (income )?taxes\b|\boperating income\b")),
}
"""Rows that only a primary statement has all of: a balance sheet's total assets and liabilities, a cash flow
statement's operating and investing activities, an income statement's revenue, net income and per-share or
pre-tax lines."""


def statement_by_rows(index_text: str) -> str | None:
    """The primary statement a table is by its rows (its index entry's "Rows:" line), for a statement whose title
    the page's text layer lost (a title drawn as a page header): used only for a statement a filing has no titled
    table of."""
    rows = index_text.split("\nRows:", 1)[1].lower() if "\nRows:" in index_text else ""
    for kind, needed in _ROW_SIGNATURES.items():
        if rows and all(p.search(rows) for p in needed):
            return kind
    return None


def heading(index_text: str) -> str:
    """The heading a table's index entry starts with: its first two lines (page heading and title)."""
    return " ".join(index_text.split("\n", 2)[:2])


def statement_priority(title: str) -> int:
    """Order among the tables of one statement: the consolidated statement itself first (0, condensed in a
    10-Q too), then one not called consolidated (1: Microsoft's "INCOME STATEMENTS"; a parent company's
    "Balance Sheets"), then comprehensive income and the parent company's own statements (2), then a table
    whose heading names the statement only inside a sentence (3: the MD&A's "Cash flows ... are provided in the
    tables that follow. Individual amounts in the Consolidated Statement of Cash Flows exclude ..."; a note's
    "... recognized in our consolidated comprehensive income statements were as follows"): it is about the
    statement, not the statement."""
    titles = " ".join(part for part in re.split(r" / |\n", title[:300]) if not _PROSE.search(part))
    head = re.sub(r"\s+", " ", titles.lower())
    if statement_of(titles) is None:
        return 3
    if re.search(r"comprehensive|parent", head):
        return 2
    return 0 if re.search(r"(consolidated|group|combined) (statements?|balance|income|cash)", head) else 1


_PROSE = re.compile(r"\b(?:is|are|was|were|has|have|had|should|would|may|can|will|must|provides?|provided|"
                    r"includes?|included|excludes?|excluded|reflect(?:s|ed|ing)?|recogni[sz]ed|follows?|"
                    r"following)\b", re.I)
"""Verbs of a heading line that is a sentence, not a title."""




_LABEL_STOP = frozenset("total other net amount amounts year years ended ending end beginning balance".split())


def stems(text: str) -> set[str]:
    """Content stems of a phrase for label matching: the lexical tokens, past tense, -ing and a final e cut (one
    stem for "acquire", "acquired" and "acquiring"), numbers and generic statement words dropped."""
    out = set()
    for tok in tokenize(text):
        if not tok[0].isalpha() or tok in _LABEL_STOP:
            continue
        if len(tok) > 5 and tok.endswith("ed"):
            tok = tok[:-2]
        elif len(tok) > 6 and tok.endswith("ing"):
            tok = tok[:-3]
        elif len(tok) > 5 and tok.endswith("e"):
            tok = tok[:-1]  # "acquire" as "acquired" and "acquiring" are cut: "acquir"; "increase": "increas"
        out.add(tok)
    return out


def label_match(question: set[str], labels: list[str]) -> float:
    """How well a question names one of a table's row labels: for the best label, the words of the question
    it holds plus the share of its words the question holds, counted only when at least two of its words
    and half of them are in the question ("cash paid for interest" names "Cash payments for interest, net of
    capitalized interest" weakly, "net increase in cash and cash equivalents" names its row outright); 0 when
    none is named."""
    best = 0.0
    for label in labels:
        words = stems(label)
        if len(words) < 2:
            continue
        hit = len(words & question)
        share = hit / len(words)
        if hit >= 2 and share >= 0.5:
            best = max(best, hit + share)
    return best

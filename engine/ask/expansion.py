"""Query expansion for financial questions: abbreviations and line-item synonyms, fiscal-year spellings.

Expansion feeds the lexical (BM25) channel, where an exact line item ("Purchases of property, plant and
equipment") must be reachable from how an analyst asks ("capex"). The dense query gets only the short
spelled-out forms, because long synonym lists drag an embedding away from the question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from engine.periods import asked_period
from engine.vocabulary import vocabulary

_QUARTER_WORDS = {1: "first quarter", 2: "second quarter", 3: "third quarter", 4: "fourth quarter"}
_WORD = re.compile(r"[a-z0-9&]+(?:[.'][a-z0-9]+)*", re.I)


@dataclass
class Expansion:
    """A question with the terms added for the lexical and dense channels."""

    question: str
    terms: list[str] = field(default_factory=list)
    """Added phrases (synonyms and year spellings), in order of discovery, without duplicates."""
    years: list[str] = field(default_factory=list)
    """Four-digit years named in the question (``periods.asked_period``: ``FY2022``, ``fiscal 22``, ``4Q22``,
    ``FY 2022-23`` (2023), a date's year), in order."""

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


SENTENCE_BREAK = re.compile(r"(?<=[.?!])(?<!\b[A-Z]\.)(?<!\bInc\.)(?<!\bCorp\.)(?<!\bCo\.)(?<!\bLtd\.)(?<!\bNo\.)"
                            r"(?<!\bvs\.)(?<!\bSt\.)\s+")
"""Where a question's sentence ends: after . ? or !, not after an abbreviation (a registered name's "N.V.", "S.A.",
"Inc.", "U.S.", "No.")."""


def instructions(question: str) -> list[str]:
    """The sentences of a question that only instruct how to answer (those ``focus`` leaves out): "Answer in
    units of percents and round to two decimal places.", "Give the answer in USD millions."."""
    return [s for s in SENTENCE_BREAK.split(question.strip()) if _INSTRUCTION.match(s)]


def focus(question: str) -> str:
    """The question without the sentences that only instruct how to answer ("Assume that you are an
    analyst.", "Round your answer to two decimal places.", "Answer in USD millions."): they pull a short
    embedding away from the filing's words. A question made only of instructions is kept whole."""
    sentences = SENTENCE_BREAK.split(question.strip())
    out: list[str] = []
    for sentence in sentences:
        if not _INSTRUCTION.match(sentence):
            out.append(sentence)
        elif ":" in sentence and sentence.split(":", 1)[1].strip():
            # "Answer the following question using the balance sheet: what is X?" keeps "what is X?"
            out.append(sentence.split(":", 1)[1].strip())
    return " ".join(out) if out else question


@lru_cache(maxsize=256)
def expand(question: str) -> Expansion:
    """Expand a question with financial synonyms and fiscal-year spellings (the vocabulary's ``expansion`` table).

    Cached: routing and retrieval both expand the question they are given, and the work is done once. The
    result is shared: read it, do not change it."""
    q = question.lower()
    out = Expansion(question=question)
    seen: set[str] = set()

    def add(term: str, force: bool = False) -> None:
        key = term.lower()
        if key not in seen and (force or key not in q):
            seen.add(key)
            out.terms.append(term)

    words = set(_WORD.findall(q))
    for phrase, alts in vocabulary().expansion.items():
        hit = phrase in words if " " not in phrase and "&" not in phrase else phrase in q
        if not hit and "&" in phrase:
            hit = re.search(rf"(?<![a-z]){re.escape(phrase)}(?![a-z])", q) is not None
        if hit:
            for alt in alts:
                add(alt)
    asked = asked_period(question)  # the one period grammar: routing and the resolver read the same years
    for y in asked.fiscal_named:
        add(str(y), force=True)
        add(f"fiscal {y}")
    if asked.quarter is not None and asked.years:
        add(_QUARTER_WORDS[asked.quarter])
    out.years.extend(str(y) for y in asked.years)
    return out

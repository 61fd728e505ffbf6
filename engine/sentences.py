"""Sentences of running text: the one splitter for text already read off a page (a chunk, a passage).

Ingestion splits a page's words into sentences with their boxes (``ingest.chunking.page_sentences``) using the
same abbreviations; this splits a chunk's text back into sentences for quoting (``ask.narrative``). One pass of a
regular expression with no nested repetition: linear in the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

ABBREVIATIONS = frozenset({
    "inc.", "corp.", "co.", "ltd.", "no.", "nos.", "u.s.", "u.k.", "mr.", "mrs.", "ms.", "dr.", "st.", "vs.",
    "e.g.", "i.e.", "etc.", "approx.", "jan.", "feb.", "mar.", "apr.", "jun.", "jul.", "aug.", "sep.", "sept.",
    "oct.", "nov.", "dec.", "fig.", "est.", "l.p.", "n.a.", "s.a.", "plc.", "llc.", "dept.", "avg.", "yr.",
})
"""Words ending in a full stop that do not end a sentence (lower case)."""

_BULLETS = "•●▪·"
"""The characters a filing's bullets are read off the page as ("·", a middle dot, in some filings)."""
_END = re.compile(rf"[.!?][\"'”’)\]]*(?=\s+(?:[\"“(]?[A-Z0-9${_BULLETS}-]|[a-z][A-Z]|[<#\[]|\([a-z]{{1,3}}\)\s))|"
                  r"[.!?][\"'”’)\]]*$")
_BREAK = re.compile(rf"\n\s*\n|(?<!\s)\s*[{_BULLETS}]\s+|[{_BULLETS}]\s+")
"""A paragraph gap or a bullet ends a sentence whatever precedes it. A run of whitespace before a bullet is taken
from its start only (the lookbehind): tried from every space of a long run, it was quadratic."""
_TABLE_LEAD = re.compile(r"\b(?:following\s+tables?\b[^.:]{0,200}|tables?\s+below\b[^.:]{0,200}|"
                         r"(?:is|are|was|were)\s+as\s+follows\s*\([^()]{0,60}\)\s*):(?=\s+[\"“(]?[A-Z])", re.I)
"""A table's lead-in ("The following table presents provision for income taxes (in millions, ...):", "The table
below presents ...:", "Operating expenses ... were as follows (dollars in millions):", the units saying a table
follows, not a list): the table stood after its colon and is read apart, so the words after it are the next
paragraph's, a sentence of their own."""
_LAST_WORD = re.compile(r"(\S+)$")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Where each sentence of a passage starts and ends in ``text`` (surrounding whitespace left out): a sentence
    ends at ``.``, ``!`` or ``?`` (a closing quote or bracket kept) before a capital, a digit, an opening mark, a
    name written with its second letter a capital ("iPad", "eBay") or a footnote's letter ("(j) Increase reflects
    ..."),
    unless the word is an abbreviation ("Inc.", "U.S.") or a single capital ("J."); a paragraph gap, a bullet or a
    table's lead-in (``_TABLE_LEAD``) always ends one."""
    out: list[tuple[int, int]] = []

    def add(a: int, b: int) -> None:
        piece = text[a:b]
        stripped = piece.lstrip()
        a += len(piece) - len(stripped)
        b = a + len(stripped.rstrip())
        if b > a:
            out.append((a, b))

    bounds = [0]
    gaps = [(m.start(), m.end()) for m in _BREAK.finditer(text)]
    gaps += [(m.end(), m.end()) for m in _TABLE_LEAD.finditer(text)]
    for a, b in sorted(gaps):
        if a >= bounds[-1]:
            bounds += [a, b]
    bounds.append(len(text))
    for lo, hi in zip(bounds[::2], bounds[1::2], strict=True):
        block = text[lo:hi]
        start = 0
        for m in _END.finditer(block):
            word = _LAST_WORD.search(block, max(start, m.start() - 12), m.end())
            token = word.group(1).lower() if word else ""
            if token in ABBREVIATIONS or re.fullmatch(r"[a-z]\.", token):
                continue
            add(lo + start, lo + m.end())
            start = m.end()
        add(lo + start, hi)
    return out


def split_sentences(text: str) -> list[str]:
    """The sentences of a passage (``sentence_spans``), whitespace folded."""
    return [" ".join(text[a:b].split()) for a, b in sentence_spans(text)]


_BULLET = re.compile(f"[{_BULLETS}]")


def with_lists(text: str, limit: int) -> list[str]:
    """``split_sentences``, where a sentence introducing a bulleted list ("... was primarily driven by the
    following:") is followed by the list's items, joined to it with their bullets, as many whole items as fit in
    ``limit`` characters: alone, the lead-in says nothing. The items stay sentences of their own too."""
    spans = sentence_spans(text)
    pieces = [" ".join(text[a:b].split()) for a, b in spans]
    out: list[str] = []
    for k, piece in enumerate(pieces):
        # an item of a list that opens a list of its own ("• Currency impacts partially offset by: • ...") is the
        # outer list's: its lead-in holds the whole, and the item alone is no lead-in of another subject
        item = k > 0 and bool(_BULLET.search(text[spans[k - 1][1]:spans[k][0]]))
        if piece.endswith(":") and not item:
            joined = piece
            for j in range(k + 1, len(spans)):
                if not _BULLET.search(text[spans[j - 1][1]:spans[j][0]]):
                    break
                longer = f"{joined} • {pieces[j]}"
                if len(longer) > limit:
                    break
                joined = longer
            piece = joined
        out.append(piece)
    return out


_DEFINED = re.compile(r"((?:[A-Za-z][\w-]*\s+){1,6})\(\s*[“\"'‘]?([A-Z][A-Za-z]{1,7})[”\"'’]?\s*\)")
"""A short form a filing defines where it first uses it: "Our effective tax rate (“ETR”)", "free cash flow (FCF)"."""


def defined_short_forms(texts: Iterable[str]) -> dict[str, str]:
    """Each short form ``texts`` define (``_DEFINED``) whose capitals are the initials of the words before it, by
    that short form: {"ETR": "effective tax rate"}."""
    out: dict[str, str] = {}
    for text in texts:
        for m in _DEFINED.finditer(text):
            short = m.group(2)
            capitals = [c for c in short if c.isupper()]
            words = m.group(1).split()[-len(capitals):]
            if len(words) == len(capitals) >= 2 and all(
                    w[0].lower() == c.lower() for w, c in zip(words, capitals, strict=True)):
                out.setdefault(short, " ".join(words))
    return out


def spell_short_forms(text: str, forms: dict[str, str]) -> str:
    """The text with each of ``forms``' short forms written out, the definition itself ("(“ETR”)") left as it is."""
    for short, long in forms.items():
        text = re.sub(rf"(?<![\w“\"'‘(])(?<!\(\s){re.escape(short)}(?![\w”\"'’])(?!\s*\))", long, text)
    return text

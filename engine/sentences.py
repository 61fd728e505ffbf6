"""Sentences of running text: the one splitter for text already read off a page (a chunk, a passage).

Ingestion splits a page's words into sentences with their boxes (``ingest.chunking.page_sentences``) using the
same abbreviations; this splits a chunk's text back into sentences for quoting (``ask.narrative``). One pass of a
regular expression with no nested repetition: linear in the text.
"""

from __future__ import annotations

import re

ABBREVIATIONS = frozenset({
    "inc.", "corp.", "co.", "ltd.", "no.", "nos.", "u.s.", "u.k.", "mr.", "mrs.", "ms.", "dr.", "st.", "vs.",
    "e.g.", "i.e.", "etc.", "approx.", "jan.", "feb.", "mar.", "apr.", "jun.", "jul.", "aug.", "sep.", "sept.",
    "oct.", "nov.", "dec.", "fig.", "est.", "l.p.", "n.a.", "s.a.", "plc.", "llc.", "dept.", "avg.", "yr.",
})
"""Words ending in a full stop that do not end a sentence (lower case)."""

_END = re.compile(r"[.!?][\"'”’)\]]*(?=\s+[\"“(]?[A-Z0-9$•●▪-])|[.!?][\"'”’)\]]*$")
_BREAK = re.compile(r"\n\s*\n|\s*[•●▪]\s+")
"""A paragraph gap or a bullet ends a sentence whatever precedes it."""
_LAST_WORD = re.compile(r"(\S+)$")


def split_sentences(text: str) -> list[str]:
    """The sentences of a passage, whitespace folded: a sentence ends at ``.``, ``!`` or ``?`` (a closing quote or
    bracket kept) before a capital, a digit or an opening mark, unless the word is an abbreviation ("Inc.",
    "U.S.") or a single capital ("J."); a paragraph gap or a bullet always ends one."""
    out: list[str] = []
    for block in _BREAK.split(text):
        start = 0
        for m in _END.finditer(block):
            word = _LAST_WORD.search(block, max(start, m.start() - 12), m.end())
            token = word.group(1).lower() if word else ""
            if token in ABBREVIATIONS or re.fullmatch(r"[a-z]\.", token):
                continue
            piece = " ".join(block[start:m.end()].split())
            if piece:
                out.append(piece)
            start = m.end()
        rest = " ".join(block[start:].split())
        if rest:
            out.append(rest)
    return out

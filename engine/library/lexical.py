"""The lexical channel: BM25 over text chunks, table chunks with their cells, and figure summaries.

The catalogue holds each chunk's terms (``chunk_terms``: this module's tokens, space-joined) in an FTS5 table
written in the same transaction as the chunk and deleted with it (``engine.library.store``), so the index is
never built at query time and a crash never leaves it out of step with the chunks. Numbers are normalised
("$1,577" and "(1,577)" both become ``1577``) so a figure quoted in a question matches its table cell.

A search scoped to some documents reads only their chunks' terms and ranks them by BM25 with the statistics
of the scope itself: it costs, and ranks, what it would in a library holding only those documents. A search of
the whole library (or of a scope too large to read) is ranked by FTS5's ``bm25()``.
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from engine.sentences import split_sentences

if TYPE_CHECKING:
    from engine.library.store import Store

STOPWORDS = frozenset(
    "a an and are as at be by for from has have how in is it its of on or that the this to was were what which "
    "who will with did does do than then there their they these those during per based give response question "
    "relying details shown answer round using please".split()
)
_TOKEN = re.compile(r"\$?\(?-?\d[\d,]*(?:\.\d+)?%?\)?|[a-z][a-z0-9&]*(?:'[a-z]+)?", re.I)

_PERIOD = re.compile(r"^(fy|q[1-4])(\d{2,4})$")

K1 = 1.5
"""BM25 term-frequency saturation of the scoped ranking (Lucene's and bm25s' default)."""
B = 0.75
"""BM25 document-length normalisation of the scoped ranking."""
SCOPE_LIMIT = 50_000
"""Chunks a scoped search reads and ranks itself; a larger scope is ranked by FTS5 with a document filter."""
COMMON_FRACTION = 0.05
"""A library-wide search leaves out of the FTS5 query the terms found in more than this share of the chunks
(when the question has rarer ones): ranking every chunk that says "revenue" or "million" costs time in
proportion to the library and moves little, as such terms carry almost no weight in BM25."""


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokenize(text: str) -> list[str]:
    """Lower-case words (light plural stemming, stopwords dropped) and normalised numbers."""
    out: list[str] = []
    for m in _TOKEN.finditer(text):
        tok = m.group(0)
        if tok[0].isalpha():
            w = tok.lower().replace("'s", "")
            if w in STOPWORDS or len(w) < 2:
                continue
            split = _PERIOD.match(w)
            if split:
                out.extend([split.group(1), split.group(2)])
                continue
            out.append(_stem(w))
        else:
            digits = re.sub(r"[^\d.]", "", tok).rstrip(".")
            if not digits:
                continue
            if "." in digits:
                digits = digits.rstrip("0").rstrip(".") or "0"
            out.append(digits)
    return out


def table_text(table: dict[str, Any] | None) -> str:
    """A table's cells as text lines (``label value value``) for the lexical index."""
    if not table:
        return ""
    lines = []
    cols = table.get("columns") or []
    if cols:
        lines.append(" ".join(str(c) for c in cols if c))
    for row in table.get("rows", []):
        if not isinstance(row, dict):
            continue
        vals = " ".join(str(v) for v in row.get("values", []) if v not in (None, ""))
        lines.append(f"{row.get('label', '')} {vals}".strip())
    return "\n".join(lines)


def chunk_terms(text: str, table: dict[str, Any] | None = None) -> str:
    """What the lexical index holds for a chunk: the tokens of its text and of its table's cells, space-joined
    (the catalogue's FTS5 table splits on spaces only, so a query tokenized by ``tokenize`` matches them)."""
    extra = table_text(table)
    return " ".join(tokenize(text + ("\n" + extra if extra else "")))


def match_expression(terms: Sequence[str]) -> str:
    """An FTS5 query matching any of ``terms`` (tokens of ``tokenize``, quoted so none reads as an operator)."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in dict.fromkeys(terms))


@dataclass
class LexicalHit:
    """A chunk found by BM25."""

    chunk_id: int
    score: float
    modality: str


@dataclass
class ScopeTerms:
    """The chunks of a scope as BM25 reads them: ids, modalities, term counts and lengths."""

    ids: list[int]
    modalities: list[str]
    counts: list[Counter[str]]
    lengths: list[int]

    @classmethod
    def of(cls, rows: Sequence[tuple[int, str, str]]) -> ScopeTerms:
        """From (chunk id, modality, terms) rows."""
        counts = [Counter(terms.split()) for _, _, terms in rows]
        return cls([r[0] for r in rows], [r[1] for r in rows], counts, [sum(c.values()) for c in counts])


def bm25_rank(
    query: Sequence[str],
    rows: Sequence[tuple[int, str, str]] | ScopeTerms,
    k: int,
    modalities: Sequence[str] | None = None,
    k1: float = K1,
    b: float = B,
) -> list[LexicalHit]:
    """Top-k of ``rows`` (chunk id, modality, terms) of some modalities for the query tokens by BM25 (Lucene's
    idf; a query token given twice counts twice), with the statistics of all ``rows`` alone."""
    scope = rows if isinstance(rows, ScopeTerms) else ScopeTerms.of(rows)
    n = len(scope.ids)
    if not n or not query:
        return []
    wanted = set(query)
    df = {w: sum(1 for c in scope.counts if w in c) for w in wanted}
    avgdl = max(1.0, sum(scope.lengths) / n)
    idf = {w: math.log(1 + (n - d + 0.5) / (d + 0.5)) for w, d in df.items() if d}
    scored: list[tuple[float, int]] = []
    for i, tf in enumerate(scope.counts):
        if modalities is not None and scope.modalities[i] not in modalities:
            continue
        found = [w for w in query if w in tf]
        if not found:
            continue
        norm = k1 * (1 - b + b * scope.lengths[i] / avgdl)
        scored.append((-sum(idf[w] * tf[w] / (tf[w] + norm) for w in found), i))
    scored.sort()
    return [LexicalHit(scope.ids[i], -neg, scope.modalities[i]) for neg, i in scored[:k]]


@dataclass(frozen=True)
class SentenceHit:
    """A sentence of a passage found by BM25 over the sentences of a scope."""

    chunk_id: int
    score: float
    sentence: str


@dataclass
class ScopeSentences:
    """The sentences of a scope's passages (text chunks) as BM25 reads them, with the chunk each is in."""

    chunk_ids: list[int]
    sentences: list[str]
    terms: ScopeTerms

    @classmethod
    def of(cls, chunks: Sequence[tuple[int, str]]) -> ScopeSentences:
        """From (chunk id, text) of passages."""
        ids: list[int] = []
        said: list[str] = []
        for cid, text in chunks:
            for s in split_sentences(text):
                ids.append(cid)
                said.append(s)
        return cls(ids, said, ScopeTerms.of([(i, "text", " ".join(tokenize(s))) for i, s in enumerate(said)]))


_ScopeKey = tuple[tuple[str, ...], tuple[int, int]]
"""A scope's documents (sorted) and chunk signature: re-ingesting a filing gives its chunks new ids, so a scope changed
by another process is read again."""
_T = TypeVar("_T")

SCOPES_KEPT = 8
"""Scopes whose parsed terms a ``LexicalIndex`` keeps: a question's text and table searches, and the next
questions about the same filings, parse them once."""


class LexicalIndex:
    """BM25 over the catalogue's chunk terms; thread-safe; nothing to build or load."""

    def __init__(self, store: Store, scope_limit: int = SCOPE_LIMIT, common_fraction: float = COMMON_FRACTION) -> None:
        self.store = store
        self.scope_limit = scope_limit
        self.common_fraction = common_fraction
        self._lock = threading.Lock()
        self._total: int | None = None
        self._scopes: OrderedDict[_ScopeKey, ScopeTerms] = OrderedDict()
        self._sentences: OrderedDict[_ScopeKey, ScopeSentences] = OrderedDict()

    def invalidate(self) -> None:
        """Forget the library's chunk count and parsed scopes (after ingest or remove); the index itself is
        always current."""
        with self._lock:
            self._total = None
            self._scopes.clear()
            self._sentences.clear()

    def _scope_terms(self, doc_ids: Sequence[str], signature: tuple[int, int]) -> ScopeTerms:
        # Keyed by the scope's chunk count and highest chunk id: re-ingesting a filing gives its chunks new ids,
        # so a scope changed by another process is parsed again.
        return self._kept(self._scopes, (tuple(sorted(doc_ids)), signature),
                          lambda: ScopeTerms.of(self.store.lexical_rows(doc_ids)))

    def _scope_sentences(self, doc_ids: Sequence[str], signature: tuple[int, int]) -> ScopeSentences:
        return self._kept(self._sentences, (tuple(sorted(doc_ids)), signature), lambda: ScopeSentences.of(
            [(c.id, c.text) for c in self.store.chunks(doc_ids=doc_ids, modality="text")]))

    def _kept(self, kept: OrderedDict[_ScopeKey, _T], key: _ScopeKey, build: Callable[[], _T]) -> _T:
        """``kept[key]``, built (outside the lock) when absent; the ``SCOPES_KEPT`` most recently used are kept."""
        with self._lock:
            found = kept.get(key)
            if found is not None:
                kept.move_to_end(key)
                return found
        found = build()
        with self._lock:
            kept[key] = found
            while len(kept) > SCOPES_KEPT:
                kept.popitem(last=False)
        return found

    def sentences(self, query: str, k: int, doc_ids: Sequence[str]) -> list[SentenceHit]:
        """Top-k sentences of the documents' passages by BM25 for ``query``, with the statistics of those sentences
        alone: a sentence is short, so one that says most of what is asked ranks first, where in a chunk's ranking
        it is outweighed by passages that repeat one word of it. A scope of more than ``scope_limit`` chunks is
        not read (no hits): sentences are split at query time."""
        tokens = tokenize(query)
        if not tokens or not doc_ids:
            return []
        signature = self.store.chunk_signature(doc_ids)
        if signature[0] > self.scope_limit:
            return []
        scope = self._scope_sentences(doc_ids, signature)
        return [SentenceHit(scope.chunk_ids[h.chunk_id], h.score, scope.sentences[h.chunk_id])
                for h in bm25_rank(tokens, scope.terms, k)]

    def _chunk_total(self) -> int:
        with self._lock:
            total = self._total
        if total is None:
            total = self.store.chunk_count()
            with self._lock:
                self._total = total
        return total

    def search(
        self,
        query: str,
        k: int,
        doc_ids: Sequence[str] | None = None,
        modalities: Sequence[str] | None = None,
    ) -> list[LexicalHit]:
        """Top-k chunks by BM25 for ``query``, restricted to some documents and modalities."""
        tokens = tokenize(query)
        if not tokens:
            return []
        if doc_ids is not None:
            if not doc_ids:
                return []
            signature = self.store.chunk_signature(doc_ids)
            if signature[0] <= self.scope_limit:
                # Statistics over every chunk of the scope, whatever the modalities ranked: as BM25 over a
                # library holding only these documents would have them.
                return bm25_rank(tokens, self._scope_terms(doc_ids, signature), k, modalities)
        terms = list(dict.fromkeys(tokens))
        if len(terms) > 1 and self.common_fraction < 1:
            df = self.store.lexical_df(terms)
            bar = self.common_fraction * self._chunk_total()
            rare = [t for t in terms if 0 < df.get(t, 0) <= bar]
            terms = rare or terms
        found = self.store.lexical_search(match_expression(terms), k, doc_ids, modalities)
        return [LexicalHit(cid, score, modality) for cid, score, modality in found]

"""Retrieval per question (DESIGN.md, "Retrieval, per question"):

1. scope: the caller's documents, else routed by the company / year / form the question names, else the library;
2. tiers: text chunks with cosine >= theta_text; when fewer than n pass, the top m tables >= theta_table and the
   top p figures >= theta_image join (thresholds calibrated per embedder, ``mfr-tui calibrate``);
3. hybrid: a BM25 channel over chunks and table cells, with the question expanded by financial synonyms, fused
   with the dense ranking by reciprocal rank;
4. optional reranking of the fused candidates by the ``reranker`` role;
5. places: at most ``max_per_page`` items of one page; a question told in words (``Question.told_in_words``) gets
   ``narrative_passages`` passages, with the tables of their pages, right behind the fused first (``passages_lead``),
   any other at least ``min_passages`` passages; a statement it needs keeps the last place.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import numpy as np

from engine.ask.expansion import Expansion, expand
from engine.ask.narrative import subject_stems
from engine.ask.question import Question, parse, without_self_reference
from engine.ask.routing import Route, route, without_company
from engine.ask.statements import (
    heading,
    label_match,
    statement_by_rows,
    statement_of,
    statement_priority,
    stems,
)
from engine.errors import AnswerError, EngineError
from engine.library.index import Indexes
from engine.library.lexical import LexicalIndex, SentenceHit
from engine.library.store import Store, check_embedder
from engine.models.provider import ModelProvider
from engine.pagetext import PageText, headings_above
from engine.settings import Settings
from engine.types import CONTINUED, SENTENCE, Chunk, Document, Evidence, Modality, Retrieval
from engine.untrusted import clean_text, withhold_instructions
from engine.vocabulary import narrative

_TIER = {"text": 1, "table": 2, "image": 3}
RRF_K = 60
"""The constant of reciprocal-rank fusion: 1 / (RRF_K + rank)."""
SENTENCE_HITS = 40
"""The best sentences read for the passages a question told in words brings by a sentence (``by_sentence``)."""
SENTENCE_SHARE = 0.4
"""The share of the words naming a question's subject (``narrative.subject_stems``) a sentence holds to bring its
passage (``by_sentence``)."""
FIGURE_TABLES = 2
"""The first tables of a question asking a figure and why it moved whose pages' passages are read for the why."""


@dataclass
class Candidate:
    """A chunk in a ranking: its id, modality, tier and the score that ranked it."""

    chunk_id: int
    modality: Modality
    score: float
    tier: int = 1
    channel: str = "dense"


def select_tiers(
    text: Sequence[tuple[int, float]],
    tables: Sequence[tuple[int, float]],
    images: Sequence[tuple[int, float]],
    theta: dict[str, float],
    n: int,
    m: int,
    p: int,
    k: int,
    tiers: bool = True,
    escalation: str = "count",
    figures_named: bool = False,
) -> tuple[list[Candidate], str]:
    """The dense tiered selection, shared by retrieval and calibration.

    Tier 1 answers from text alone when at least ``n`` text hits reach ``theta['text']``. Otherwise the top
    ``m`` tables and ``p`` figures above their thresholds join the text hits. With ``escalation="margin"``
    they also join when one of them clears its threshold by more than the n-th text hit clears
    ``theta['text']`` (text is plentiful but a table matches the question better than the text would).
    Candidates are ranked by their margin over their modality's threshold, so modalities with different score
    scales compare fairly. A question that names a chart, figure or slide (``figures_named``) always reaches
    the figures, and its top ``p`` figures join whatever their score (a figure's summary rarely repeats the
    question's words). Returns up to ``max(k, len(text))`` candidates and the tier name.
    """
    if not tiers:
        flat = [Candidate(c, "text", s, 1) for c, s in text]
        flat += [Candidate(c, "table", s, 2) for c, s in tables[:k]]
        flat += [Candidate(c, "image", s, 3) for c, s in images[:k]]
        flat.sort(key=lambda c: -(c.score - theta[c.modality]))
        return flat, "flat"
    passing = sorted((s for _, s in text if s >= theta["text"]), reverse=True)
    thin = len(passing) < n or figures_named
    if not thin and escalation == "margin" and n > 0:
        bar = passing[n - 1] - theta["text"]
        others = [s - theta["table"] for _, s in tables[:m]] + [s - theta["image"] for _, s in images[:p]]
        thin = bool(others) and max(others) > bar
    if not thin:
        return [Candidate(c, "text", s, 1) for c, s in text], "text"
    out = [Candidate(c, "text", s, 1) for c, s in text]
    out += [Candidate(c, "table", s, 2) for c, s in tables if s >= theta["table"]][:m]
    out += [Candidate(c, "image", s, 3) for c, s in images if figures_named or s >= theta["image"]][:p]
    out.sort(key=lambda c: -(c.score - theta[c.modality]))
    return out, "text+tables+figures"


def rrf(rankings: Sequence[Sequence[Candidate]], weights: Sequence[float] | None = None) -> list[Candidate]:
    """Reciprocal-rank fusion of several rankings; a chunk found by several channels keeps every channel name
    and its dense score (the one users can compare across questions)."""
    fused: dict[int, float] = {}
    best: dict[int, Candidate] = {}
    for i, ranking in enumerate(rankings):
        w = weights[i] if weights else 1.0
        for rank, c in enumerate(ranking, start=1):
            fused[c.chunk_id] = fused.get(c.chunk_id, 0.0) + w / (RRF_K + rank)
            prev = best.get(c.chunk_id)
            if prev is None:
                best[c.chunk_id] = Candidate(c.chunk_id, c.modality, c.score, c.tier, c.channel)
            elif c.channel not in prev.channel.split("+"):
                prev.channel = f"{prev.channel}+{c.channel}"
                if c.channel == "dense":
                    prev.score, prev.tier = c.score, c.tier
    order = sorted(fused, key=lambda cid: -fused[cid])
    return [best[cid] for cid in order]


STATEMENT_PIN = 3.0
"""``statements.label_match`` score from which a statement table's row is named outright by the question: at
least two words of the label, all of them in the question."""

PIN_FROM_K = 5
"""The pin needs this many places at least: with fewer, the last place is too dear to give up."""


def fuse(
    dense: dict[str, list[tuple[int, float]]],
    lexical: Sequence[Sequence[Candidate]],
    theta: dict[str, float],
    s: Settings,
    k: int,
    figures: bool = False,
) -> tuple[list[Candidate], str]:
    """The tiered dense selection, fused by reciprocal rank with the lexical rankings (if any); the tier name.
    ``figures``: the question is about a chart or figure (``Question.figures``), which always reaches figures.

    Shared by retrieval and calibration, so thresholds are calibrated for the pipeline that uses them.
    """
    ranked, tier = select_tiers(
        dense["text"], dense["table"], dense["image"], theta, s.min_text_hits, s.top_tables, s.top_images, k,
        s.tiers, s.tier_escalation, figures_named=figures,
    )
    if lexical:
        ranked = rrf([ranked, *lexical], [1.0] + [s.lexical_weight] * len(lexical))
    return ranked, tier


def spread_pages(
    ranked: Sequence[Candidate], pages: dict[int, tuple[str, int]], per_page: int
) -> list[Candidate]:
    """At most ``per_page`` candidates of one page keep their rank; the others move behind, in order.

    Several chunks of one page say little more than one; the slots they free bring other pages in.
    """
    if per_page <= 0:
        return list(ranked)
    seen: dict[tuple[str, int], int] = {}
    head: list[Candidate] = []
    tail: list[Candidate] = []
    for c in ranked:
        key = pages.get(c.chunk_id, ("", c.chunk_id))
        seen[key] = seen.get(key, 0) + 1
        (head if seen[key] <= per_page else tail).append(c)
    return head + tail


def with_passages(ranked: Sequence[Candidate], k: int, quota: int) -> list[Candidate]:
    """The first ``k`` candidates, with at least ``quota`` passages among them (a third of them at most) when
    ``ranked`` has them: the best passages behind the ``k`` take the places of the last tables and figures, and
    the order is kept."""
    head = list(ranked[:k])
    short = min(quota, k // 3) - sum(c.modality == "text" for c in head)
    if short <= 0:
        return head
    extra = [c for c in ranked[k:] if c.modality == "text"][:short]
    if not extra:
        return head
    drop = {id(c) for c in [c for c in head if c.modality != "text"][-len(extra):]}
    kept = [c for c in head if id(c) not in drop]
    return kept + extra


def passages_lead(
    ranked: Sequence[Candidate], pages: dict[int, tuple[str, int]], n: int, firsts: Collection[int] = (),
) -> list[Candidate]:
    """The order for a question told in words. Fused by margin over thresholds, tables and figures would take the
    places ahead of the passage that answers it, so the first ``n`` passages (text chunks) lead; but a page is one
    hit, whatever the chunk that found it: the tables and figures of those passages' pages lead with them (the
    table on the MD&A page that tells the change), all in their fused order; the other candidates follow in theirs.
    A candidate that is first somewhere keeps its fused place, or a better one: the fused first, and the chunks in
    ``firsts`` (the first of each lexical channel: the best match of a ranking of its own is strong evidence, of any
    modality)."""
    if n <= 0 or not ranked:
        return list(ranked)
    page = lambda c: pages.get(c.chunk_id, ("", c.chunk_id))  # noqa: E731 - an unknown chunk is a page of its own
    head = {id(c) for c in [c for c in ranked[1:] if c.modality == "text"][:n]}
    told = {page(c) for c in ranked[1:] if id(c) in head}
    lead = [c for c in ranked[1:] if id(c) in head or (c.modality != "text" and page(c) in told)]
    led = {id(c) for c in lead}
    order = [ranked[0], *lead, *[c for c in ranked[1:] if id(c) not in led]]
    where = {id(c): i for i, c in enumerate(order)}
    held = {i: c for i, c in enumerate(ranked) if c.chunk_id in firsts and i < where[id(c)]}
    kept = {id(c) for c in held.values()}
    others = iter(c for c in order if id(c) not in kept)
    return [held[i] if i in held else next(others) for i in range(len(order))]


def telling_why(ranked: Sequence[Candidate], pages: dict[int, tuple[str, int]], texts: dict[int, str],
                cues: Sequence[str], tables: int = FIGURE_TABLES) -> list[Candidate]:
    """The order for a question that asks a figure and, in a part of its own, why it moved ("How did the effective
    tax rate change from 2021 to 2022, and what explains the move?"): the table that gives the figure ranks first,
    and the filing tells why on the table's page (an MD&A table and the sentences that discuss it), in a passage that
    may rank well below it, since a passage runs on over several sections' sentences. The passages on the pages of
    the first ``tables`` tables that hold one of the ``cues`` of the kind asked ("driven by") move up right behind
    their table; the rest keep their order."""
    if not cues:
        return list(ranked)
    low = [c.lower() for c in cues]
    first = {id(c) for c in [c for c in ranked if c.modality == "table"][:tables]}
    why = {id(t): [p for p in ranked if p.modality == "text" and pages.get(p.chunk_id) == pages.get(t.chunk_id)
                   and any(cue in texts.get(p.chunk_id, "").lower() for cue in low)]
           for t in ranked if id(t) in first}
    out: list[Candidate] = []
    placed: set[int] = set()
    for c in ranked:
        for p in [c, *why.get(id(c), ())]:
            if id(p) not in placed:
                out.append(p)
                placed.add(id(p))
    return out


def continued(ranked: Sequence[Candidate], chunks: dict[int, Chunk], cues: Sequence[str], n: int,
              after: Callable[[Chunk], Chunk | None],
              before: Callable[[Chunk], Chunk | None] | None = None,
              about: Sequence[str] = ()) -> list[tuple[Candidate, Chunk]]:
    """The passages that carry on the ``n`` passages of ``ranked`` that hold most of the ``cues`` (``chunks``: the
    ranked chunks by id; ties in rank order; one cue at least): for each, the text chunk after it in its filing
    (``after``; None where there is none), when not ranked already, as a candidate with its predecessor's score and
    tier, beside its chunk. The passage saying most of what is asked ("we acquired", "acquired") is the one whose
    section runs on, not a risk factor that names acquisitions once. With ``before`` (``Store.earlier``), the
    best-ranked passage holding a cue and a word of what is asked about (``about``: the line item's or ratio's
    words) brings the chunk before it on its page too: it may open inside the section whose first sentences the
    chunk before holds ("Income tax expense was relatively unchanged in the first six months ..." after "Our
    effective tax rate increased to 26.1% in the second quarter ...")."""
    if n <= 0 or not cues:
        return []
    low = [c.lower() for c in cues]
    have = {c.chunk_id for c in ranked}
    out: list[tuple[Candidate, Chunk]] = []
    said = {c.chunk_id: sum(x in chunks[c.chunk_id].text.lower() for x in low) for c in ranked
            if c.modality == "text" and c.chunk_id in chunks}
    leads = sorted((c for c in ranked if said.get(c.chunk_id)), key=lambda c: -said[c.chunk_id])
    pairs = [(c, after) for c in leads[:n]]
    if before is not None:
        words = [w.lower() for w in about]
        first = next((c for c in ranked if said.get(c.chunk_id) and any(
            w in chunks[c.chunk_id].text.lower() for w in words)), None)
        if first is not None:
            pairs.append((first, before))
    for c, near in pairs:
        nxt = near(chunks[c.chunk_id])
        if nxt is not None and nxt.id not in have:
            have.add(nxt.id)
            out.append((Candidate(nxt.id, "text", c.score, c.tier, CONTINUED), nxt))
    return out


def by_sentence(ranked: Sequence[Candidate], hits: Sequence[SentenceHit], n: int,
                asked: Collection[str] = ()) -> list[Candidate]:
    """The passages of the best sentences (``hits``, best first) that are not ``ranked`` already, at most ``n``, each
    once, with its best sentence's score: candidates after the ranked evidence (``Settings.sentence_passages``).
    With ``asked`` (the stems that tell what the question is about, ``statements.stems``), only a sentence holding
    at least ``SENTENCE_SHARE`` of them, and two when there are two or more, brings its passage: one that says
    much of what is asked, not a short sentence that says one rare word of it ("These contracts are used to offset
    economic currency risks.", "sales" alone for "product sales")."""
    have = {c.chunk_id for c in ranked}
    wanted = set(asked)
    need = max(SENTENCE_SHARE * len(wanted), min(2, len(wanted)))  # two words of a subject of two: "product sales"
    out: list[Candidate] = []
    for h in hits:
        if len(out) >= n:
            break
        if len(wanted & stems(h.sentence)) < need:
            continue
        if h.chunk_id not in have:
            have.add(h.chunk_id)
            out.append(Candidate(h.chunk_id, "text", h.score, _TIER["text"], SENTENCE))
    return out


class Retriever:
    """Tiered dense retrieval, BM25, fusion, routing and reranking. Thread-safe; caches per library state."""

    def __init__(self, settings: Settings, store: Store, indexes: Indexes, models: ModelProvider) -> None:
        self.settings = settings
        self.store = store
        self.indexes = indexes
        self.models = models
        self._lock = threading.Lock()
        self._scope_ids: dict[tuple[str, tuple[str, ...]], set[int]] = {}
        self._names: dict[str, str] = {}
        self._docs: list[Document] | None = None
        self._statements: dict[str, dict[str, list[int]]] = {}
        self._labels: dict[int, list[str]] = {}
        self._vectors_checked = ""
        self.lexical = LexicalIndex(store)

    def invalidate(self) -> None:
        """Forget everything derived from the library (after ingest or remove)."""
        with self._lock:
            self._scope_ids.clear()
            self._names.clear()
            self._docs = None
            self._statements.clear()
            self._labels.clear()
            self._vectors_checked = ""
        self.lexical.invalidate()

    # --- scope ---------------------------------------------------------------------------------------
    def ready_documents(self) -> list[Document]:
        with self._lock:
            docs = self._docs
        if docs is None:
            docs = [d for d in self.store.documents() if d.status in {"ready", "partial"}]
            with self._lock:
                self._docs = docs
        return docs

    def resolve_scope(self, scope: Sequence[str] | None) -> list[str]:
        """Document ids for explicit refs (ids or names); all ready documents when None."""
        if scope:
            return [self.store.document(ref).id for ref in scope]
        return [d.id for d in self.ready_documents()]

    def route(self, question: Question) -> Route:
        """The documents the question names (empty when it names none)."""
        return route(question, self.ready_documents())

    def without_company(self, question: Question, doc_ids: Sequence[str]) -> str:
        """The question as searched within ``doc_ids``: without their company's name when they are one company's
        filings (``routing.without_company``)."""
        if not self.settings.drop_scope_company:
            return question.text
        wanted = set(doc_ids)
        return without_company(question, [d for d in self.ready_documents() if d.id in wanted])

    def doc_name(self, doc_id: str) -> str:
        with self._lock:
            if doc_id not in self._names:
                self._names = {d.id: d.name for d in self.store.documents()}
            return self._names.get(doc_id, doc_id)

    def _allowed(self, modality: str, doc_ids: Sequence[str], everything: bool) -> set[int] | None:
        if everything:
            return None
        key = (modality, tuple(sorted(doc_ids)))
        with self._lock:
            ids = self._scope_ids.get(key)
        if ids is None:
            ids = set(self.store.chunk_ids(modality, doc_ids=list(doc_ids)))
            with self._lock:
                self._scope_ids[key] = ids
        return ids

    # --- search --------------------------------------------------------------------------------------
    def thresholds(self) -> dict[str, float]:
        """theta per modality: calibrated values stored for this embedder, else the settings."""
        s = self.settings
        base = {"text": s.theta_text, "table": s.theta_table, "image": s.theta_image}
        if not s.calibrated:
            return base
        try:
            name = self.models.embedder().name
        except EngineError:
            return base
        stored = self.store.get_setting(f"thresholds:{name}")
        if isinstance(stored, dict):
            base.update({k: float(v) for k, v in stored.items() if k in base})
        return base

    def dense(
        self, query_vec: np.ndarray, modality: Modality, doc_ids: Sequence[str], everything: bool, k: int
    ) -> list[tuple[int, float]]:
        """Top-k (chunk id, cosine) of one modality within the documents."""
        allowed = self._allowed(modality, doc_ids, everything)
        if allowed is not None and not allowed:
            return []
        return self.indexes[modality].search(query_vec, k, allowed)

    def expansion(self, question: str) -> Expansion:
        return expand(question) if self.settings.expansion else Expansion(question)

    def dense_lists(
        self, question: str, doc_ids: Sequence[str], everything: bool, k: int, passages: str | None = None
    ) -> tuple[dict[str, list[tuple[int, float]]], Expansion]:
        """Dense hits per modality for a question (``k`` text hits; as many tables and figures). ``passages``:
        the question as the text modality searches it (without the scope's company name), when it differs."""
        exp = self.expansion(question)
        embedder = self.models.embedder()
        if self._vectors_checked != embedder.name:
            check_embedder(self.store.vectors_embedder(), embedder.name)
            self._vectors_checked = embedder.name
        self.indexes.open(embedder.dim)
        text_query = self.expansion(passages).dense if passages and passages != question else exp.dense
        vecs = embedder.embed([exp.dense] if text_query == exp.dense else [exp.dense, text_query])
        qvec = vecs[0]
        s = self.settings
        lists = {"text": self.dense(vecs[-1], "text", doc_ids, everything, k)}
        lists["table"] = self.dense(qvec, "table", doc_ids, everything, k) if s.use_tables else []
        lists["image"] = self.dense(qvec, "image", doc_ids, everything, k) if s.use_images else []
        return lists, exp

    def channels(
        self, question: str, doc_ids: Sequence[str], everything: bool, depth: int, passages: str | None = None,
        statements: Sequence[str] = (), cues: Sequence[str] = (), names: Sequence[tuple[str, str]] = (),
    ) -> tuple[dict[str, list[tuple[int, float]]], list[list[Candidate]], Expansion]:
        """The rankings fusion starts from: dense hits per modality and (hybrid) the lexical rankings. Passages
        are searched with ``passages`` when given (the question without the scope's company name: the name is
        in every statement's header, where it helps a table question, and pulls those pages ahead of the
        passage a narrative question needs), their lexical search with ``cues`` too (``Question.searched_cues``:
        the words that mark the kind of passage asked for, "due to", "driven by", whatever its subject). ``names``:
        the labels the asked measures go by (``Question.measure_labels``), for the statement channel."""
        s = self.settings
        lists, exp = self.dense_lists(question, doc_ids, everything, depth, passages)
        text_terms = " ".join([self.expansion(passages).lexical if passages else exp.lexical, *cues])
        lexical: list[list[Candidate]] = []
        if s.hybrid:
            # Passages and tables/figures can be ranked apart, so a statement's line items compete for a top
            # rank of their own instead of against every sentence that repeats the question's words.
            regions = (["table"] if s.use_tables else []) + (["image"] if s.use_images else [])
            groups = (["text"], regions) if s.lexical_split else (["text", *regions], [])
            for mods in groups:
                if mods:
                    terms = text_terms if mods == ["text"] else exp.lexical
                    hits = self.lexical.search(terms, depth, None if everything else doc_ids, mods)
                    lexical.append([Candidate(h.chunk_id, h.modality, h.score, _TIER[h.modality], "bm25")  # type: ignore[arg-type]
                                    for h in hits])
        if s.statement_channel and s.use_tables:
            stated = self.statement_ranking(question, doc_ids, lists, statements, names)
            if stated:
                lexical.append(stated)
        return lists, lexical, exp

    def statement_tables(self, doc_id: str) -> dict[str, list[int]]:
        """Table chunk ids of a document's primary statements, by statement: the consolidated statement first
        (``statements.statement_priority``), then in page order."""
        with self._lock:
            found = self._statements.get(doc_id)
        if found is None:
            ranked: dict[str, list[tuple[int, int, int]]] = {}
            by_rows: dict[str, list[tuple[int, int, int]]] = {}
            for c in self.store.chunks(doc_ids=[doc_id], modality="table"):
                head = heading(c.text)
                kind = statement_of(head)
                if kind is not None:
                    ranked.setdefault(kind, []).append((statement_priority(head), c.page, c.id))
                elif not re.search(r"\bnotes? to\b|\bnote \d", head, re.I) and (kind := statement_by_rows(c.text)):
                    by_rows.setdefault(kind, []).append((3, c.page, c.id))
            for kind, rows in by_rows.items():  # a statement whose title the text layer lost, known by its rows
                ranked.setdefault(kind, rows)
            found = {kind: [cid for _, _, cid in sorted(rows)] for kind, rows in ranked.items()}
            with self._lock:
                self._statements[doc_id] = found
        return found

    def row_labels(self, chunk_id: int) -> list[str]:
        """Row labels of a table chunk's parsed table (cached)."""
        with self._lock:
            labels = self._labels.get(chunk_id)
        if labels is None:
            found = self.store.chunks(ids=[chunk_id])
            region = self.store.region(found[0].region_id) if found and found[0].region_id else None
            rows = (region.table or {}).get("rows", []) if region is not None else []
            labels = [str(r.get("label") or "") for r in rows if isinstance(r, dict)]
            with self._lock:
                self._labels[chunk_id] = labels
        return labels

    def statement_ranking(
        self, question: str, doc_ids: Sequence[str], lists: dict[str, list[tuple[int, float]]],
        kinds: Sequence[str] = (), names: Sequence[tuple[str, str]] = (),
    ) -> list[Candidate]:
        """Primary-statement tables a question needs, from each document in scope (with many in scope, from the
        documents of the best dense hits): first the statement tables with a row the question names, in its own
        words or by a label its measure goes by in the statement that reports it (``names``, label and statement:
        "income from operations" asks for the income statement's row "Operating income", and net PP&E no cash flow
        statement's "Purchases of property, plant and equipment") (``statements.label_match``, best match first),
        then the tables of the statements it names or whose line items it asks about (``kinds``:
        ``Question.statements``), interleaved by statement: the first table of each, then the second, and so on."""
        docs = list(doc_ids)
        limit = self.settings.statement_docs
        if len(docs) > limit:
            top = [cid for m in ("table", "text") for cid, _ in lists.get(m, [])[:10]]
            seen: list[str] = []
            for c in self.store.chunks(ids=top):
                if c.doc_id not in seen:
                    seen.append(c.doc_id)
            docs = seen[:limit]
        own = stems(question)
        labelled = [(stems(n), statement) for n, statement in names]
        named: list[tuple[float, int, int]] = []
        for d in docs:
            for kind, ids in self.statement_tables(d).items():
                # the measure's labels name rows of the statement itself (its first table), not of a table that
                # only refers to it (an MD&A table of expenses as a percent of revenue)
                mine = [own, *(words for words, statement in labelled if statement in ("", kind))]
                for rank, cid in enumerate(ids[:3]):
                    labels = self.row_labels(cid)
                    score = max(label_match(words, labels) for words in (mine if rank == 0 else [own]))
                    if score > 0:
                        named.append((-score, rank, cid))
        out = [Candidate(cid, "table", -neg, 2, "statement") for neg, _, cid in sorted(named)]
        per_kind = [[cid for d in docs for cid in self.statement_tables(d).get(kind, [])[:3]] for kind in kinds]
        seen_ids = {c.chunk_id for c in out}
        for i in range(max((len(ids) for ids in per_kind), default=0)):
            for ids in per_kind:
                if i < len(ids) and ids[i] not in seen_ids:
                    seen_ids.add(ids[i])
                    out.append(Candidate(ids[i], "table", 0.0, 2, "statement"))
        return out

    def retrieve(self, question: str | Question, scope: Sequence[str] | None = None,
                 k: int | None = None) -> Retrieval:
        """Evidence for a question (parsed here when given as text), best first, with the tier, scope and
        thresholds used."""
        t0 = time.perf_counter()
        q = question if isinstance(question, Question) else parse(question, self.ready_documents())
        question = q.text
        s = self.settings
        k = k or s.top_k
        doc_ids = self.resolve_scope(scope)
        if not doc_ids:
            raise AnswerError(
                "The library has no ingested documents to search. Add filings first (`mfr-tui ingest PATH`).",
                title="Nothing to search",
            )
        routed, reason = False, ""
        if not scope and s.routing:
            r = self.route(q)
            if r.doc_ids:
                doc_ids, routed, reason = r.doc_ids, True, r.reason
        everything = not scope and not routed and len(doc_ids) == self.store.document_count()
        depth = max(k, s.min_text_hits) * s.candidate_factor
        passages = question if everything else self.without_company(q, doc_ids)
        # "... mentioned in this 10K report" points at the document, not at the answer: not searched
        query, passages = (without_self_reference(t, q) for t in (question, passages))
        # The company's name is in every statement's header: it helps a question for a statement's line item
        # find that statement, and only pulls statement pages ahead of the passage for any other question.
        searched = query if q.statements else passages
        # a question one part of which is told in words ("How did the rate change, and what explains the move?")
        # needs that part's passages as a narrative question does
        worded = q.told is not None and q.told.told_in_words
        cues = q.told.searched_cues if q.told is not None else ()
        lists, lexical, exp = self.channels(searched, doc_ids, everything, depth, passages, q.statements,
                                            cues, q.measure_labels if s.expansion else ())
        t_search = time.perf_counter()
        theta = self.thresholds()
        ranked, tier = fuse(lists, lexical, theta, s, k, q.figures)
        timings = {"search": t_search - t0}
        if s.rerank:
            ranked = self.rerank(question, ranked, timings)
        chunks = {c.id: c for c in self.store.chunks(ids=[c.chunk_id for c in ranked[: k * 4]])}
        pages = {cid: (c.doc_id, c.page) for cid, c in chunks.items()}
        fused = ranked[: k * 4]
        ranked = spread_pages(fused, pages, s.max_per_page)
        if worded:
            firsts = {lst[0].chunk_id for lst in lexical if lst}
            ranked = passages_lead(ranked, pages, min(s.narrative_passages, k), firsts)
            if any(not p.narrative for p in q.parts):  # a part asks a figure: its table's page tells why
                ranked = telling_why(ranked, pages, {i: c.text for i, c in chunks.items()}, cues)
        ranked = with_passages(ranked, k, s.min_passages)
        ranked = self.pin_statement(ranked, lexical, chunks, k, q.statements)
        ranked = self.pin_breakdown(ranked, fused, chunks, k, q)
        if worded:  # after the ranked evidence: its numbering and what ranked in the k stay
            more = continued(ranked, chunks, cues, s.continued_passages, self.store.following,
                             self.store.earlier if s.earlier_passages else None,
                             q.told.subject_words if q.told is not None else ())
            chunks.update((c.id, c) for _, c in more)
            ranked = [*ranked, *(c for c, _ in more)]
        if worded and s.sentence_passages > 0 and s.hybrid:
            words = self.expansion(passages).lexical
            hits = self.lexical.sentences(" ".join([words, *cues]), SENTENCE_HITS, doc_ids)
            found = by_sentence(ranked, hits, s.sentence_passages, subject_stems(q))
            chunks.update((c.id, c) for c in self.store.chunks(ids=[c.chunk_id for c in found]))
            ranked = [*ranked, *found]
        runs: dict[tuple[str, int], list[str]] = {}
        # the section headings a passage is told under are read for a question told in words: its quotes' summary is
        # checked against them (faithful.check_summary)
        texts: dict[tuple[str, int], PageText | None] | None = {} if worded else None
        evidence = [self._evidence(chunks[c.chunk_id], c, runs, texts) for c in ranked if c.chunk_id in chunks]
        timings["retrieve"] = time.perf_counter() - t0
        return Retrieval(
            question=question,
            evidence=evidence,
            tier=tier,
            scope=list(doc_ids),
            routed=routed,
            thresholds=theta,
            timings=timings,
            route=reason,
            query_terms=list(exp.terms),
        )

    def pin_statement(self, ranked: list[Candidate], lexical: Sequence[Sequence[Candidate]],
                      chunks: dict[int, Chunk], k: int, kinds: Sequence[str] = ()) -> list[Candidate]:
        """The primary statements the question needs keep a place among the ``k``: the statement channel's first
        table when it has a row the question names outright ("operating income" and the income statement's
        "Operating income"), or when none of that channel's tables made it in (a margin asked of a company whose
        income statement has no such line: the statement shows it); and, for a question that needs several
        statements (``kinds``: capital intensity reads capex in the cash flow statement, revenue in the income
        statement and fixed assets in the balance sheet), each statement's own table that did not make it in.
        Fusion alone can rank them out behind passages that repeat the question's words. They take the last
        places, at most one place in ``PIN_FROM_K``."""
        stated = next((lst for lst in lexical if lst and lst[0].channel == "statement"), None)
        if not stated or k < PIN_FROM_K:
            return ranked
        have = {c.chunk_id for c in ranked[:k]}
        pins: list[int] = []
        top = stated[0]
        # each statement's own table (the consolidated statement), not a summary of it in the MD&A nor the statement
        # of comprehensive income beside the income statement: only it stands for its statement among the k (read
        # only where it decides something: a weakly named statement not in, or several statements needed)
        kind_of: dict[int, str] = {}
        if len(kinds) > 1 or (top.chunk_id not in have and top.score < STATEMENT_PIN):
            kind_of = {ids[0]: kind for d in {c.doc_id for c in self.store.chunks(ids=[c.chunk_id for c in stated])}
                       for kind, ids in self.statement_tables(d).items() if ids}
        if not (top.chunk_id in have or (top.score < STATEMENT_PIN
                                         and any(c.chunk_id in have and c.chunk_id in kind_of for c in stated))):
            pins.append(top.chunk_id)
        if len(kinds) > 1:
            shown = {kind_of.get(cid) for cid in [*have, *pins]}
            for kind in kinds:
                first = next((c.chunk_id for c in stated if kind_of.get(c.chunk_id) == kind), None)
                if kind not in shown and first is not None:
                    pins.append(first)
                    shown.add(kind)
        pins = pins[: k // PIN_FROM_K]
        if not pins:
            return ranked
        missing = [cid for cid in pins if cid not in chunks]
        if missing:
            chunks.update({c.id: c for c in self.store.chunks(ids=missing)})
        pinned = [Candidate(cid, "table", 0.0, 2, "statement") for cid in pins]  # no similarity score was measured
        kept = [c for c in ranked if c.chunk_id not in pins]
        return [*kept[: k - len(pinned)], *pinned] if len(kept) >= k - len(pinned) else [*kept, *pinned]

    def pin_breakdown(self, ranked: list[Candidate], fused: Sequence[Candidate], chunks: dict[int, Chunk], k: int,
                      q: Question) -> list[Candidate]:
        """A question that ranks the parts of a breakdown it does not list ("Which product category performed the
        best in the domestic market?"), or asks them listed ("Break down its revenue by segment"), is decided from
        the table whose title names that kind of part (``BreakdownRankingVerdict``, ``BreakdownListing``;
        ``Question.breakdown_order`` picks among several): the fused ranking's best such table keeps a place among
        the ``k`` (the last) where the places one page may take pushed it out (a 10-Q page of segment tables: the
        segment's results, its stores, its revenue mix by category)."""
        if k < PIN_FROM_K or not (q.ranking is not None and q.ranking.breakdown or q.listing):
            return ranked
        tables = []
        for c in fused:
            chunk = chunks.get(c.chunk_id) if c.modality == "table" else None  # only a table's region is read
            region = self.store.region(chunk.region_id) if chunk is not None and chunk.region_id else None
            if region is not None:
                tables.append((c, region.title or ""))
        order = q.breakdown_order([t for _, t in tables])
        if not order:
            return ranked
        best = tables[order[0]][0]
        pins = [best, *self.commentary(chunks[best.chunk_id])]
        have = {x.chunk_id for x in ranked[:k]}
        missing = [p for p in pins if p.chunk_id not in have]
        if not missing:
            return ranked
        for p in missing:
            if p.chunk_id not in chunks:
                chunks.update({c.id: c for c in self.store.chunks(ids=[p.chunk_id])})
        pinned = {p.chunk_id for p in missing}
        return [*[x for x in ranked if x.chunk_id not in pinned][: k - len(missing)], *missing]

    def commentary(self, table: Chunk) -> list[Candidate]:
        """The passage that tells a breakdown's parts one by one ("Notable comparable sales changes by revenue
        category were as follows: Computing and Mobile Phones: The 6.4% comparable sales decline was driven ...")
        on the table's page or the next: the text chunk there that says what drove a change (the vocabulary's driver
        cues) and names the most of the table's parts, half of them and two at least. It says why the
        part a ranking picks moved; [] when no passage does."""
        region = self.store.region(table.region_id) if table.region_id else None
        parts = [str(r.get("label") or "").strip() for r in (region.table or {}).get("rows", [])] if region else []
        parts = [p.lower() for p in parts if len(p) > 2 and not p.lower().startswith("total")]
        if len(parts) < 2:
            return []
        kind = narrative().kind("drivers")
        drivers = kind.cues if kind is not None else ()
        best, named = None, max(1, (len(parts) - 1) // 2)
        for c in self.store.chunks(doc_ids=[table.doc_id], modality="text", pages=[table.page, table.page + 1]):
            text = c.text.lower()
            if any(cue in text for cue in drivers):
                n = sum(1 for p in parts if re.search(rf"(?<!\w){re.escape(p)}(?!\w)", text))
                if n > named:
                    best, named = c, n
        return [Candidate(best.id, "text", 0.0, 2, "breakdown")] if best is not None else []

    def rerank(self, question: str, ranked: list[Candidate], timings: dict[str, float]) -> list[Candidate]:
        """Reorder the top ``rerank_candidates`` with the reranker role (no-op when the role is off)."""
        reranker = self.models.reranker()
        if reranker is None or not ranked:
            return ranked
        t = time.perf_counter()
        head = ranked[: self.settings.rerank_candidates]
        chunks = {c.id: c for c in self.store.chunks(ids=[c.chunk_id for c in head])}
        texts = [chunks[c.chunk_id].text if c.chunk_id in chunks else "" for c in head]
        scores = reranker.score(question, texts)
        order = sorted(range(len(head)), key=lambda i: -scores[i])
        out = [head[i] for i in order]
        for c in out:
            c.channel += "+rerank"
        timings["rerank"] = time.perf_counter() - t
        return out + ranked[len(head) :]

    def _evidence(self, c: Chunk, cand: Candidate, runs: dict[tuple[str, int], list[str]],
                  texts: dict[tuple[str, int], PageText | None] | None = None) -> Evidence:
        """The evidence of a chunk, its sentences addressed to a language model withheld (filing text is data):
        those it holds, and those of a run its page holds (``runs`` keeps each page's, read once per question); a
        passage of running text with the section headings it is told under where ``texts`` is given (it keeps the
        pages' words)."""
        if (c.doc_id, c.page) not in runs:
            page = self.store.page(c.doc_id, c.page)
            runs[c.doc_id, c.page] = withhold_instructions(str(page.get("text") or ""))[1] if page else []
        text, withheld = withhold_instructions(c.text, runs[c.doc_id, c.page])
        headings: tuple[str, ...] = ()
        if texts is not None and cand.modality == "text" and c.bbox is not None:
            pages = []
            for n in (c.page - 1, c.page):
                if (c.doc_id, n) not in texts:
                    texts[c.doc_id, n] = self.store.page_words(c.doc_id, n) if n >= 1 else None
                if (got := texts[c.doc_id, n]) is not None:
                    pages.append(got)
            if pages and pages[-1].page == c.page:
                headings = tuple(clean_text(h) for h in headings_above(pages, c.bbox))
        return Evidence(
            chunk_id=c.id,
            doc_id=c.doc_id,
            doc=self.doc_name(c.doc_id),
            page=c.page,
            modality=cand.modality,
            score=float(cand.score),
            text=text,
            channel=cand.channel,
            tier=cand.tier,
            bbox=c.bbox,
            region_id=c.region_id,
            withheld=tuple(withheld),
            headings=headings,
        )

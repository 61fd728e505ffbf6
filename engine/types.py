"""The engine's public data: plain dataclasses the UI and the CLI read; no behaviour beyond small helpers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Modality = Literal["text", "table", "image"]
MODALITIES: tuple[Modality, ...] = ("text", "table", "image")
BBox = tuple[float, float, float, float]
"""A box in PDF points: (x0, top, x1, bottom), origin at the top-left of the page."""

STAGES: tuple[str, ...] = ("text", "render", "detect", "tables", "figures", "metadata", "embed")
"""Ingestion stages, in order. Each is recorded per document in the catalogue."""


@dataclass
class Document:
    """A filing in the library."""

    id: str
    """Short stable id: the first 12 hex digits of the file's sha256."""
    sha256: str
    path: str
    name: str
    """File name without extension."""
    pages: int
    status: str
    """``ingesting``, ``ready``, ``partial`` (some stage recorded errors), ``failed`` or ``cancelled`` (stopped
    by the user; ingesting the file again resumes it)."""
    title: str = ""
    company: str = ""
    """The company's name as the filing prints it (the registrant on an SEC cover); else from the file name."""
    tickers: list[str] = field(default_factory=list)
    """Trading symbols the filing lists (cover table, ``(NYSE: XXX)``, "under the symbol"), common stock first."""
    cik: str = ""
    """The SEC Central Index Key (ten digits) where the filing prints it; '' otherwise."""
    former_names: list[str] = field(default_factory=list)
    """Names the company had before, as the filing states them ("formerly known as", the cover's former name)."""
    calendar: dict[str, Any] = field(default_factory=dict)
    """How the filing names its periods (``engine.periods.Calendar`` as JSON), read at ingest; ``summary`` is one
    line for the library pane ("FY ends late Jan/early Feb (52/53 weeks); covers FY2020-FY2022")."""
    form_type: str = ""
    fiscal_period: str = ""
    filing_date: str = ""
    tables: int = 0
    figures: int = 0
    chunks: int = 0
    error: str = ""
    added_at: float = 0.0
    stages: dict[str, str] = field(default_factory=dict)
    """Stage name -> ``done`` / ``error: ...`` / ``pending``."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Region:
    """A table, figure, caption or title found on a page."""

    id: int
    doc_id: str
    page: int
    """1-based page number."""
    kind: str
    """``table``, ``figure``, ``caption`` or ``title``."""
    bbox: BBox
    method: str
    """How it was found and parsed, e.g. ``yolo+textlayer``, ``geometry+ocr``, ``vlm``."""
    title: str = ""
    units: str = ""
    summary: str = ""
    summary_method: str = ""
    table: dict[str, Any] | None = None
    crop_path: str = ""
    checks: list[dict[str, Any]] = field(default_factory=list)
    score: float = 1.0

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["bbox"] = list(self.bbox)
        return d


@dataclass
class Chunk:
    """A unit of retrieval: a text passage, a table or a figure, with where it came from."""

    id: int
    doc_id: str
    modality: Modality
    page: int
    """1-based page the chunk starts on."""
    text: str
    pages: list[int] = field(default_factory=list)
    bbox: BBox | None = None
    region_id: int | None = None


CONTINUED = "continued"
"""The channel of a passage brought in as the one after a lead passage of a question told in words."""
SENTENCE = "sentence"
"""The channel of a passage brought in by one of its sentences (``LexicalIndex.sentences``) for a question told in
words."""


@dataclass
class Evidence:
    """A retrieved chunk with its score and the place to check it."""

    chunk_id: int
    doc_id: str
    doc: str
    """Document name (file name without extension)."""
    page: int
    modality: Modality
    score: float
    text: str
    channel: str = "dense"
    """Which channel found it: ``dense``, ``bm25`` or ``dense+bm25``; ``CONTINUED`` for the passage after a lead
    passage, brought in by no search (``retrieve.continued``); ``SENTENCE`` for a passage found by a sentence of it
    (``retrieve.by_sentence``)."""
    tier: int = 1
    bbox: BBox | None = None
    region_id: int | None = None
    withheld: tuple[str, ...] = ()
    """Sentences of the chunk addressed to a language model (``untrusted.withhold_instructions``): not in
    ``text``, which has a marker in their place; shown to the user, flagged."""
    headings: tuple[str, ...] = ()
    """The section headings a passage is told under, nearest first (``pagetext.headings_above``: "Sam's Club
    Segment", then "Segment Results"): whose its sentences are where they name no one."""

    def to_json(self) -> dict[str, Any]:
        return {
            "doc": self.doc,
            "doc_id": self.doc_id,
            "page": self.page,
            "modality": self.modality,
            "score": round(float(self.score), 4),
            "text": self.text,
            "channel": self.channel,
            "tier": self.tier,
            "bbox": list(self.bbox) if self.bbox else None,
            "region_id": self.region_id,
            "chunk_id": self.chunk_id,
            "withheld": list(self.withheld),
            "headings": list(self.headings),
        }


@dataclass
class Retrieval:
    """What retrieval found for one question, and how."""

    question: str
    evidence: list[Evidence]
    tier: str
    """``text`` (tier 1 sufficed), ``text+tables+figures`` (fallback used) or ``flat``."""
    scope: list[str]
    """Document ids searched."""
    routed: bool = False
    """True when the scope came from routing rather than the caller."""
    thresholds: dict[str, float] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    route: str = ""
    """What routing matched (``company=3m year=2018``); empty when the scope was given or not routed."""
    query_terms: list[str] = field(default_factory=list)
    """Terms query expansion added (synonyms, fiscal-year spellings)."""


@dataclass
class Citation:
    """A ``[n]`` marker in the answer and the evidence it points to."""

    marker: int
    doc: str
    page: int
    modality: Modality
    region_id: int | None = None
    chunk_id: int | None = None
    inferred: bool = False
    """True when the answer gave no ``[n]`` markers and this source was matched by a number the answer quotes
    (``answer.inferred_citations``)."""


@dataclass
class Check:
    """A number from the answer, judged against the cells the question asked for."""

    value: str
    found: bool
    """True only when the number is the asked row and period's cell (or the code's computation from cells), or,
    for a question no table cell answers, a number the cited text states."""
    where: str = ""
    note: str = ""
    status: str = ""
    """``verified``, ``computed``, ``in_text``, ``derived`` (a difference, sum, ratio or change of the answer's
    found figures) (found), or ``other_period``, ``other_row``, ``missing`` (flagged: ``note`` says what the
    number is instead), ``level_as_change`` (flagged: a level cell given as a change, "fell by" a year's
    figure), ``definition`` (flagged: the code's computation by one of two common definitions of the
    metric; ``note`` gives the other's value)."""
    number: float | None = None
    """The number as the answer writes it (sign applied, scale word not applied): the UI highlights cells by it and
    never parses the answer again."""


@dataclass(frozen=True)
class Quote:
    """A sentence of a filing quoted as the answer to a narrative question, with the place to check it."""

    text: str
    """The sentence as the filing writes it (whitespace folded)."""
    doc: str
    doc_id: str
    page: int
    source: int
    """The number of the evidence it was read from (``[n]``: ``Answer.evidence[n - 1]``)."""
    chunk_id: int
    region_id: int | None = None
    bbox: BBox | None = None
    """The box of the passage it was read from, on its page."""
    score: float = 0.0
    """How well it answers the question (embedder, lexical and cue scores together)."""

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "doc": self.doc, "doc_id": self.doc_id, "page": self.page, "source": self.source,
                "chunk_id": self.chunk_id, "region_id": self.region_id,
                "bbox": list(self.bbox) if self.bbox else None, "score": round(float(self.score), 4)}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Quote:
        """A quote from ``to_json``'s form (an answer read back from history)."""
        box = raw.get("bbox")
        return cls(text=str(raw.get("text", "")), doc=str(raw.get("doc", "")), doc_id=str(raw.get("doc_id", "")),
                   page=int(raw.get("page", 0)), source=int(raw.get("source", 0)),
                   chunk_id=int(raw.get("chunk_id", 0)), region_id=raw.get("region_id"),
                   bbox=(box[0], box[1], box[2], box[3]) if box and len(box) == 4 else None,
                   score=float(raw.get("score", 0.0)))


@dataclass
class Answer:
    """A finished answer."""

    question: str
    text: str
    evidence: list[Evidence]
    tier: str
    citations: list[Citation] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    refused: bool = False
    searched: dict[str, Any] = field(default_factory=dict)
    computation: str = ""
    timings: dict[str, float] = field(default_factory=dict)
    tokens: int = 0
    id: int | None = None
    cells: list[dict[str, Any]] = field(default_factory=list)
    """The table cells resolved for the question (row, column, value, page, source number)."""
    extractive: str = ""
    """The resolved value stated before the model's sentence, when the resolver was confident."""
    contradicted: list[str] = field(default_factory=list)
    """The model's sentences that contradict what the code decided (a verdict, a computed or stated figure), each
    with why: not part of ``text``; shown folded, marked as contradicting."""
    quotes: list[Quote] = field(default_factory=list)
    """For a narrative question: the filing's sentences that answer it, shown before ``text`` (which is then the
    model's summary of them)."""
    unsupported: list[str] = field(default_factory=list)
    """Words and numbers of the model's text beside ``quotes`` (its summary of them, or its answer from the whole
    evidence where it found none in them) that the quotes and the question do not contain: flagged."""
    summarised: bool = False
    """The model's text is its summary of ``quotes`` alone (else it wrote from the whole evidence)."""
    draft: str = ""
    """The model's first summary of ``quotes``, where the summary check flagged it and the summary asked once more
    (``text``) is flagged less: shown folded, with ``draft_flags``, for the reader to see what was replaced."""
    draft_flags: list[str] = field(default_factory=list)
    """What the summary check flagged in ``draft``."""
    reading: str = ""
    """How the question was read (kind, measure, periods, companies, parts), for the reader to check."""
    filings: list[str] = field(default_factory=list)
    """For an answer across filings: the filings it read, oldest first ("AAPL 10-Q Q3 FY2022")."""
    series: list[dict[str, Any]] = field(default_factory=list)
    """For an answer across filings: one entry per company, measure and period (filing, period, value in the
    answer's scale, page, region): the compare view's cells."""

    def unsupported_words(self, most: int = 15) -> str:
        """``unsupported`` as a reader scans it: the first ``most`` words flagged, then how many more (an answer the
        model wrote from the whole evidence beside poor quotes may have fifty)."""
        shown = ", ".join(self.unsupported[:most])
        more = len(self.unsupported) - most
        return f"{shown} and {more} more" if more > 0 else shown

    @property
    def unsupported_note(self) -> str:
        """What a reader should make of ``unsupported``: the summary may add what the filing does not say, or the
        model answered from the whole evidence, not the quotes, and each word flagged is to be checked on the
        pages."""
        if self.summarised:
            return "the model's summary may add what the filing does not say"
        return "the model answered from the whole evidence, not from these sentences: check these on the pages"

    def withheld(self) -> list[tuple[str, int, str]]:
        """(document, page, sentence) of each sentence of the evidence withheld from the model as addressed to it."""
        seen: dict[tuple[str, int, str], None] = {}
        for e in self.evidence:
            for sentence in e.withheld:
                seen.setdefault((e.doc, e.page, sentence))
        return list(seen)

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "answer": self.text,
            "evidence": [e.to_json() for e in self.evidence],
            "tier": self.tier,
            "citations": [asdict(c) for c in self.citations],
            "checks": [asdict(c) for c in self.checks],
            "refused": self.refused,
            "searched": self.searched,
            "computation": self.computation,
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
            "tokens": self.tokens,
            "id": self.id,
            "cells": self.cells,
            "extractive": self.extractive,
            "contradicted": self.contradicted,
            "quotes": [q.to_json() for q in self.quotes],
            "unsupported": self.unsupported,
            "summarised": self.summarised,
            "draft": self.draft,
            "draft_flags": self.draft_flags,
            "reading": self.reading,
            "filings": self.filings,
            "series": self.series,
        }


# --- streaming answer events -------------------------------------------------------------------------


@dataclass
class RetrievalDone:
    """The evidence is known; generation starts next."""

    retrieval: Retrieval


@dataclass
class CellsResolved:
    """The table cells the question asks for were found before generation: the value, its row, period and page
    can be shown at once (``text``), the model's sentence follows."""

    cells: list[dict[str, Any]]
    text: str


@dataclass
class TokenStreamed:
    """A piece of the answer text."""

    text: str


@dataclass
class AnswerFinished:
    """The answer with its citations and number checks."""

    answer: Answer


@dataclass
class QuotesFound:
    """The filing's sentences that answer a narrative question were found before generation: they can be shown
    at once, quoted with document and page; the model's summary of them follows."""

    quotes: list[Quote]


AnswerEvent = RetrievalDone | CellsResolved | QuotesFound | TokenStreamed | AnswerFinished


# --- ingestion progress -----------------------------------------------------------------------------


@dataclass
class IngestProgress:
    """Progress of one stage of one document."""

    path: str
    doc_id: str
    stage: str
    done: int
    total: int
    message: str = ""
    warning: str = ""
    file_index: int = 0
    file_count: int = 1


@dataclass
class IngestResult:
    """Outcome of ingesting one path."""

    path: str
    ok: bool
    doc_id: str = ""
    name: str = ""
    status: str = ""
    """``ingested``, ``unchanged`` (already in the library), ``resumed``, ``failed`` or ``cancelled``."""
    error: str = ""
    error_title: str = ""
    paused_seconds: float = 0.0
    """Time this file waited for answers to finish (``Settings.answers_first``); part of ``seconds``."""
    pages: int = 0
    seconds: float = 0.0
    stage_seconds: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


ProgressCallback = Callable[[IngestProgress], None]
CancelCheck = Callable[[], bool]


def never_cancelled() -> bool:
    return False


def ignore_progress(_: IngestProgress) -> None:
    return None

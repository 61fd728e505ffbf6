"""Messages of the app, named as facts. The app's thread workers post them and handlers update the UI on the
main thread; screens post them to ask the app for work (they bubble up to it), so no screen imports the app."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from textual.message import Message
from textual.screen import Screen

from engine.types import Answer, Document, IngestProgress, IngestResult, Quote, Region, Retrieval


@dataclass
class IngestStarted(Message):
    """An ingestion batch started on these paths."""

    paths: list[str]
    files: list[str]
    """The PDFs the paths expand to (folders listed recursively), in ingestion order."""
    at: float


@dataclass
class IngestProgressed(Message):
    """One progress report of the engine; consecutive reports of the same stage of a file coalesce."""

    progress: IngestProgress
    at: float
    """``time.monotonic()`` when the report was made (drives counts per second and the ETA)."""

    def can_replace(self, message: Message) -> bool:
        if not isinstance(message, IngestProgressed):
            return False
        old = message.progress
        new = self.progress
        plain = {"open", "warning", "done", "failed", "cancelled"}
        return (
            old.path == new.path
            and old.stage == new.stage
            and old.stage not in plain
            and new.stage not in plain
            and new.done != new.total
        )


@dataclass
class IngestFinished(Message):
    """An ingestion batch ended (finished, failed per file, or cancelled)."""

    results: list[IngestResult]
    cancelled: bool
    at: float


@dataclass
class LibraryLoaded(Message):
    """The library's documents were (re)read."""

    documents: list[Document]


@dataclass
class DocumentRemoved(Message):
    """A document was removed from the library."""

    document: Document


@dataclass
class RetrievalFound(Message):
    """Retrieval for the current question finished; generation starts."""

    retrieval: Retrieval
    ticket: int = 0
    """Which question this belongs to; messages of an abandoned question are ignored."""


@dataclass
class CellsFound(Message):
    """The table cells the question asks for were resolved before the model runs: their values, rows, periods
    and pages can be stated at once, above the model's sentence that follows."""

    cells: list[dict[str, Any]]
    """The resolved cells as the engine gives them (marker, doc, page, region_id, row, column, raw, value, ...)."""
    text: str
    """The value(s) stated from the cells, one line each, as the final answer's text begins (or ends)."""
    ticket: int = 0


@dataclass
class QuotesReady(Message):
    """The filing's sentences that answer a narrative question were found before the model runs: they are shown
    at once, quoted with document and page, above the model's summary that follows."""

    quotes: list[Quote]
    ticket: int = 0


@dataclass
class AnswerStreamed(Message):
    """A piece of the answer text arrived."""

    text: str
    ticket: int = 0


@dataclass
class AnswerCompleted(Message):
    """The answer finished, with citations and number checks."""

    answer: Answer
    ticket: int = 0


@dataclass
class AnswerStopped(Message):
    """Generation ended without an answer (cancelled by the user, or it failed)."""

    reason: str
    ticket: int = 0


@dataclass
class HistoryLoaded(Message):
    """Past answers, newest first, for a search string."""

    search: str
    rows: list[dict[str, Any]]


@dataclass
class EvidenceLoaded(Message):
    """What the evidence preview shows: the page's regions and text."""

    key: tuple[str, int]
    regions: list[Region]
    page: dict[str, Any] = field(default_factory=dict)


@dataclass
class EvidenceSelected(Message):
    """The evidence preview moved to a piece of evidence (opened, or stepped to the previous or next one); the
    app loads that page's regions and text and posts them to ``screen`` as ``EvidenceLoaded``."""

    screen: Screen[Any]
    key: tuple[str, int]
    """(document id, 1-based page)."""


@dataclass
class HistorySearched(Message):
    """The history screen opened (search ``""``) or its search text changed; the app reads the matching
    answers and posts them to ``screen`` as ``HistoryLoaded``."""

    screen: Screen[Any]
    search: str


@dataclass
class IngestCancelRequested(Message):
    """The user asked to cancel the running ingestion (from its progress screen)."""


@dataclass
class CompareExportRequested(Message):
    """The compare view asked for its table written out (``kind`` "csv" or "md"); the app writes it in a worker
    and posts ``CompareExported`` to ``screen``."""

    screen: Screen[Any]
    grid: Any
    """The table as shown (``mfr_tui.compare.Grid``, in its current sort order)."""
    question: str
    kind: str


@dataclass
class CompareExported(Message):
    """The compare table was written to ``path`` (or failed: ``error``)."""

    path: str
    kind: str
    error: str = ""

"""The Engine: the one public entry point the TUI and the CLI use. Synchronous and thread-safe to call."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import AnswerError, ConfigError
from engine.ingest.pipeline import Ingestor
from engine.library.index import Indexes
from engine.library.lock import AnswerSignal, WriterLock
from engine.library.store import Store
from engine.models.protocols import RoleStatus
from engine.models.provider import ModelProvider
from engine.settings import Settings, force_offline
from engine.types import (
    MODALITIES,
    Answer,
    AnswerEvent,
    AnswerFinished,
    CancelCheck,
    Document,
    IngestResult,
    ProgressCallback,
    Quote,
    QuotesFound,
    Region,
    Retrieval,
    TokenStreamed,
)
from engine.untrusted import check_question

if TYPE_CHECKING:
    from engine.ask.retrieve import Retriever
    from engine.library.doctor import DoctorReport


class Engine:
    """Ingest filings, list and remove them, retrieve evidence and answer questions with citations.

    Heavy models load lazily on first use. Long calls take ``on_progress=`` and ``cancelled=`` callables.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        models: ModelProvider | None = None,
        *,
        overrides: dict[str, Any] | None = None,
    ) -> None:
        force_offline()
        self.settings = settings or Settings()
        self._prepare_data_dir(self.settings.data_dir)
        self.models = models or ModelProvider(self.settings, overrides=overrides)
        self.store = Store(self.settings.catalogue_path)
        self.indexes = Indexes(self.settings.index_dir)
        self.writer = WriterLock(self.settings.data_dir)
        self.answers = AnswerSignal(self.settings.data_dir)
        self._ingestor = Ingestor(self.settings, self.store, self.indexes, self.models, self.answers)
        self._retriever: Retriever | None = None
        self._lock = threading.RLock()

    @staticmethod
    def _prepare_data_dir(path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        try:
            os.chmod(path, 0o700)  # filings and answers are private to the user
        except OSError:
            pass

    # --- library -------------------------------------------------------------------------------------
    def ingest(
        self,
        paths: Sequence[str | Path],
        on_progress: ProgressCallback | None = None,
        cancelled: CancelCheck | None = None,
        password: str | None = None,
        force: bool = False,
        text_layer_from: str | Path | None = None,
    ) -> list[IngestResult]:
        """Ingest files or folders of PDFs; one result per file; a failing file never stops the batch.

        ``text_layer_from``: another library's data dir; the text layer of a file it has read (same content) is
        copied from there instead of read again, e.g. for a library that differs only in later stages."""
        src = Path(text_layer_from).expanduser() if text_layer_from is not None else None
        with self.writer:
            results = self._ingestor.ingest(paths, on_progress, cancelled, password, force, src)
        self._invalidate()
        return results

    def documents(self) -> list[Document]:
        """All documents in the library, oldest first."""
        return self.store.documents()

    def document(self, ref: str) -> Document:
        """A document by id, id prefix, name or path."""
        return self.store.document(ref)

    def remove(self, ref: str) -> Document:
        """Remove a document and everything derived from it."""
        doc = self.store.document(ref)
        with self.writer:
            self._ingestor.remove(doc.id)
        self._invalidate()
        return doc

    def reindex_regions(
        self, refs: Sequence[str] | None = None, cancelled: CancelCheck | None = None
    ) -> dict[str, dict[str, int]]:
        """Embed the tables and figures of ingested documents (all, or ``refs``) again from their stored
        regions, e.g. after an upgrade changed what the table index embeds; nothing is re-read from the PDFs.
        Returns index entries per modality, by document name."""
        docs = [self.store.document(r) for r in refs] if refs else self.store.documents()
        out: dict[str, dict[str, int]] = {}
        with self.writer:
            for doc in docs:
                if doc.status not in {"ready", "partial"}:
                    continue
                out[doc.name] = self._ingestor.reindex_regions(doc.id, cancelled)
        self._invalidate()
        return out

    def regions(self, ref: str, page: int | None = None, kind: str | None = None) -> list[Region]:
        """Tables, figures, captions and titles found in a document (optionally one page or kind)."""
        doc = self.store.document(ref)
        return self.store.regions(doc.id, page=page, kind=kind)

    def page_text(self, ref: str, page: int) -> dict[str, Any]:
        """The stored text (and words with boxes) of one page, for evidence previews."""
        doc = self.store.document(ref)
        row = self.store.page(doc.id, page, with_words=True)
        if row is None:
            raise AnswerError(f"{doc.name} has no page {page}.", title="No such page")
        return row

    # --- questions -----------------------------------------------------------------------------------
    def _invalidate(self) -> None:
        with self._lock:
            if self._retriever is not None:
                self._retriever.invalidate()

    def retriever(self) -> Retriever:
        """The library's retriever (built on first use; ``retrieve`` goes through it). For tools that need its
        parts, such as the threshold calibration of ``mfr_eval``."""
        with self._lock:
            if self._retriever is None:
                from engine.ask.retrieve import Retriever

                self._retriever = Retriever(self.settings, self.store, self.indexes, self.models)
            return self._retriever

    def retrieve(self, question: str, scope: Sequence[str] | None = None, k: int | None = None) -> Retrieval:
        """Evidence for a question: scope (ids or names) if given, else routed or library-wide. An empty or
        too long question is refused (``AnswerError``, see ``check_question``)."""
        return self.retriever().retrieve(check_question(question), scope=scope, k=k)

    def answer(
        self,
        question: str,
        scope: Sequence[str] | None = None,
        cancelled: CancelCheck | None = None,
        save: bool = True,
    ) -> Iterator[AnswerEvent]:
        """Stream an answer: ``RetrievalDone``, then ``TokenStreamed`` pieces, then ``AnswerFinished``. An empty
        or too long question is refused at once (``AnswerError``, see ``check_question``), before retrieval.

        While it runs, ingestion on this data dir (in any process) pauses between pages, unless the model runs
        on another machine (``AnswerSignal``, ``ThreadBudget.llm_local``)."""
        from engine.ask.answer import Answerer

        question = check_question(question)

        answerer = Answerer(self.settings, self.models)
        priority = self.answers.answering() if self.models.budget.llm_local else contextlib.nullcontext()
        with priority:
            for event in answerer.answer(question, self.retriever(), scope=scope, cancelled=cancelled):
                if isinstance(event, AnswerFinished) and save:
                    a = event.answer
                    a.id = self.store.add_answer(
                        a.question, a.text, [e.doc_id for e in a.evidence], a.to_json()
                    )
                yield event

    def ask(
        self,
        question: str,
        scope: Sequence[str] | None = None,
        on_token: Callable[[str], None] | None = None,
        cancelled: CancelCheck | None = None,
        save: bool = True,
        on_quotes: Callable[[list[Quote]], None] | None = None,
    ) -> Answer:
        """``answer`` consumed to its end; ``on_quotes`` gets a narrative answer's quoted sentences as soon as
        they are found, before the model's text streams to ``on_token``."""
        final: Answer | None = None
        for event in self.answer(question, scope=scope, cancelled=cancelled, save=save):
            if isinstance(event, QuotesFound) and on_quotes is not None:
                on_quotes(event.quotes)
            elif isinstance(event, TokenStreamed) and on_token is not None:
                on_token(event.text)
            elif isinstance(event, AnswerFinished):
                final = event.answer
        if final is None:
            raise AnswerError("The answer was cancelled before it finished.", title="Cancelled")
        return final

    def set_thresholds(self, thresholds: Mapping[str, float], **note: Any) -> str:
        """Store retrieval thresholds (theta per modality: ``text``, ``table``, ``image``) for the embedder in use,
        as a calibration finds them; retrieval uses them while ``Settings.calibrated`` is on. ``note`` (the recall
        they reached, the question file) is kept beside them. Returns the embedder's name."""
        unknown = sorted(set(thresholds) - set(MODALITIES))
        if unknown:
            raise ConfigError(f"No modality named {', '.join(unknown)}; thresholds are set for "
                              f"{', '.join(MODALITIES)}.", title="Bad thresholds")
        name = self.models.embedder().name
        self.store.put_setting(f"thresholds:{name}", {**thresholds, **note})
        return name

    def history(self, search: str = "", limit: int = 200) -> list[dict[str, Any]]:
        """Past answers, newest first, optionally filtered by a search string."""
        return self.store.answers(search, limit)

    # --- maintenance ---------------------------------------------------------------------------------
    def doctor(self, repair: bool = False, on_progress: Callable[[str], None] | None = None) -> DoctorReport:
        """Check the catalogue against the index files (``repair`` fixes what it can); a ``DoctorReport``."""
        from engine.library.doctor import Doctor

        doc = Doctor(self.settings, self.models, store=self.store, indexes=self.indexes, writer=self.writer)
        report = doc.run(repair=repair, on_progress=on_progress)
        self._invalidate()
        return report

    # --- models --------------------------------------------------------------------------------------
    def models_status(self, load: bool = True) -> dict[str, RoleStatus]:
        """Check every role of models.toml (``load`` really loads and exercises each model)."""
        return self.models.check_all(load=load)

    def close(self) -> None:
        self.models.close()
        self.store.close()

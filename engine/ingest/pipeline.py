"""Ingestion as stages over pages. Each stage records its result, so a crash or cancel resumes where it
stopped and a bad page becomes a recorded error, not a lost document."""

from __future__ import annotations

import errno
import logging
import re
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import Cancelled, ConfigError, EngineError, IngestError, StoreError
from engine.ingest.chunking import fixed_chunks, page_sentences, semantic_chunks
from engine.ingest.pdftext import extract_pages, pdf_info
from engine.library.index import Indexes
from engine.library.lock import AnswerSignal
from engine.library.store import Store
from engine.models.packaged import sha256_file
from engine.models.provider import ModelProvider
from engine.pagetext import PageText
from engine.settings import Settings
from engine.types import (
    CancelCheck,
    Chunk,
    IngestProgress,
    IngestResult,
    Modality,
    ProgressCallback,
    Region,
    ignore_progress,
    never_cancelled,
)
from engine.untrusted import visible_text

log = logging.getLogger(__name__)


def file_sha256(path: Path) -> str:
    """Hex sha256 of a file: a document's identity in the library."""
    return sha256_file(path)


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given; folders expanded to the PDFs inside them (recursively, sorted)."""
    out: list[Path] = []
    for p in paths:
        path = Path(p).expanduser()
        if path.is_dir():
            out.extend(sorted(q for q in path.rglob("*") if q.is_file() and q.suffix.lower() == ".pdf"))
        else:
            out.append(path)
    return out


@dataclass
class IngestContext:
    """What a stage sees of the document being ingested."""

    doc_id: str
    path: Path
    settings: Settings
    store: Store
    models: ModelProvider
    pages: list[PageText]
    report: Callable[[str, int, int, str], None]
    cancelled: CancelCheck
    warnings: list[str] = field(default_factory=list)
    stage_seconds: dict[str, float] = field(default_factory=dict)
    password: str | None = None
    text_layer_from: Path | None = None
    """Another library's data dir to copy this file's text layer from (see ``Engine.ingest``)."""

    def check_cancelled(self) -> None:
        if self.cancelled():
            raise Cancelled("Ingestion was cancelled; finished stages are kept and resume next time.")

    def warn(self, message: str) -> None:
        self.warnings.append(message)
        self.report("warning", 0, 0, message)

    def stage_done(self, stage: str) -> bool:
        return self.store.stages(self.doc_id).get(stage, {}).get("status") in {"done", "error", "skipped"}

    def record(self, stage: str, status: str, detail: str = "", seconds: float = 0.0) -> None:
        self.stage_seconds[stage] = self.stage_seconds.get(stage, 0.0) + seconds
        self.store.set_stage(self.doc_id, stage, status, detail, seconds)


class Ingestor:
    """Runs the stages for each path; one document's failure never stops the batch."""

    def __init__(self, settings: Settings, store: Store, indexes: Indexes, models: ModelProvider,
                 answers: AnswerSignal | None = None) -> None:
        self.settings = settings
        self.store = store
        self.indexes = indexes
        self.models = models
        self.answers = answers if settings.answers_first else None
        """Answers in progress on this data dir; ingestion waits for them between pages."""
        self._reconciled = False

    def ingest(
        self,
        paths: Sequence[str | Path],
        on_progress: ProgressCallback | None = None,
        cancelled: CancelCheck | None = None,
        password: str | None = None,
        force: bool = False,
        text_layer_from: Path | None = None,
    ) -> list[IngestResult]:
        on_progress = on_progress or ignore_progress
        cancelled = cancelled or never_cancelled
        files = expand_paths(paths)
        self._reconciled = False
        results: list[IngestResult] = []
        # With cores for two streams, a file's embedding runs on its own thread while the next file is read
        # and detected (``overlap_stages``; ``ThreadBudget.overlap``); one embedding at a time, in file order.
        embedding: ThreadPoolExecutor | None = None
        if len(files) > 1 and self.overlap():
            embedding = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mfr-embed")
        pending: Future[None] | None = None
        try:
            for i, path in enumerate(files):
                if cancelled():
                    results.append(IngestResult(path=str(path), ok=False, status="cancelled", error="cancelled"))
                    continue
                result, finish = self._begin(path, on_progress, cancelled, i, len(files), password, force,
                                             text_layer_from)
                results.append(result)
                if embedding is None:
                    finish()
                    continue
                if pending is not None:
                    pending.result()  # keeps at most one file waiting for the embedder (memory stays bounded)
                pending = embedding.submit(finish)
            if pending is not None:
                pending.result()
        finally:
            if embedding is not None:
                embedding.shutdown(wait=True)
        return results

    def overlap(self) -> bool:
        """Whether consecutive files overlap (``Settings.overlap_stages``; ``auto``: the thread budget's say)."""
        mode = self.settings.overlap_stages
        if mode not in {"auto", "on", "off"}:
            raise ConfigError(f"overlap_stages is {mode!r}; it takes auto, on or off.", title="Bad setting value")
        return mode == "on" or (mode == "auto" and self.models.budget.overlap)

    def ingest_one(
        self,
        path: Path,
        on_progress: ProgressCallback,
        cancelled: CancelCheck,
        file_index: int = 0,
        file_count: int = 1,
        password: str | None = None,
        force: bool = False,
        text_layer_from: Path | None = None,
    ) -> IngestResult:
        result, finish = self._begin(path, on_progress, cancelled, file_index, file_count, password, force,
                                     text_layer_from)
        finish()
        return result

    def _begin(
        self,
        path: Path,
        on_progress: ProgressCallback,
        cancelled: CancelCheck,
        file_index: int,
        file_count: int,
        password: str | None,
        force: bool,
        text_layer_from: Path | None,
    ) -> tuple[IngestResult, Callable[[], None]]:
        """Run every stage of one file but the embedding; returns its result (filled in as it goes) and the call
        that embeds it and records the outcome (on this thread, or on the embedding thread when files overlap).
        A failure in either half is recorded against the file, never raised (``KeyboardInterrupt`` aside)."""
        t0 = time.perf_counter()
        result = IngestResult(path=str(path), ok=False, name=visible_text(path.stem))
        doc_id = ""
        ctx: IngestContext | None = None

        def report(stage: str, done: int, total: int, message: str = "") -> None:
            on_progress(
                IngestProgress(
                    path=str(path),
                    doc_id=doc_id,
                    stage=stage,
                    done=done,
                    total=total,
                    message=message if stage != "warning" else "",
                    warning=message if stage == "warning" else "",
                    file_index=file_index,
                    file_count=file_count,
                )
            )

        cancelled = self._yielding(cancelled, report, result)

        def front() -> None:
            nonlocal doc_id, ctx
            report("open", 0, 1, "checking file")
            read_path, repaired = path, ""
            try:
                n_pages = pdf_info(path, password)
            except IngestError as exc:
                if exc.title != "Damaged PDF":
                    raise
                read_path, n_pages, repaired = self._repaired_copy(path, password, exc)
            if n_pages > self.settings.max_pages:
                raise IngestError(
                    f"{path} has {n_pages} pages, more than the limit of {self.settings.max_pages}. Raise "
                    "max_pages (--max-pages) if this is intended.",
                    title="Too many pages",
                )
            sha = file_sha256(path)
            doc_id = sha[:12]
            existing = self.store.find_by_sha(sha)
            if existing is not None and force:
                self.remove(existing.id)
                existing = None
            if existing is not None and existing.status in {"ready", "partial"}:
                result.ok, result.status, result.doc_id = True, "unchanged", existing.id
                result.name, result.pages = existing.name, existing.pages
                report("done", 1, 1, "already in the library")
                return
            if existing is None:
                self.store.add_document(doc_id, sha, str(path.resolve()), path.stem, n_pages)
                result.status = "ingested"
            else:
                self.store.update_document(doc_id, status="ingesting", path=str(path.resolve()))
                result.status = "resumed"
            result.doc_id, result.pages = doc_id, n_pages
            ctx = IngestContext(
                doc_id=doc_id,
                path=read_path,
                settings=self.settings,
                store=self.store,
                models=self.models,
                pages=[],
                report=report,
                cancelled=cancelled,
                password=password,
                text_layer_from=text_layer_from,
            )
            if repaired:
                ctx.warn(repaired)
            self._run_stages(ctx, n_pages)

        def back(ctx: IngestContext) -> None:
            ctx.check_cancelled()
            self._stage_embed(ctx)
            errors = [
                f"{s}: {v['detail']}" for s, v in self.store.stages(doc_id).items() if v["status"] == "error"
            ]
            bad_pages = [p.page for p in ctx.pages if p.error]
            status = "partial" if errors or bad_pages else "ready"
            self.store.update_document(doc_id, status=status, error="; ".join(errors)[:2000])
            result.ok = True
            result.warnings = ctx.warnings
            result.stage_seconds = ctx.stage_seconds
            report("done", 1, 1, status)

        def guarded(step: Callable[[], None]) -> bool:
            try:
                step()
                return True
            except Cancelled as exc:
                result.status, result.error, result.error_title = "cancelled", exc.message, exc.title
                self._mark_failed(doc_id, exc.message, status="cancelled")
                report("cancelled", 0, 1, exc.message)
            except KeyboardInterrupt:  # a second ctrl+c: stop now, but never leave the document "ingesting"
                self._mark_failed(doc_id, "Ingestion was interrupted; ingest the file again to resume.", "cancelled")
                raise
            except EngineError as exc:
                result.status, result.error, result.error_title = "failed", exc.message, exc.title
                self._mark_failed(doc_id, exc.message)
                report("failed", 0, 1, exc.message)
            except Exception as exc:  # unexpected: record it against this file, keep the batch going
                full = disk_full_error(exc, self.settings.data_dir)
                if full is not None:
                    result.status, result.error, result.error_title = "failed", full.message, full.title
                else:
                    log.exception("ingest of %s failed", path)
                    result.status, result.error = "failed", f"{type(exc).__name__}: {exc}"
                    result.error_title = "Unexpected ingestion failure"
                self._mark_failed(doc_id, result.error)
                report("failed", 0, 1, result.error)
            return False

        went_on = guarded(front)

        def finish() -> None:
            if went_on and ctx is not None:
                guarded(lambda: back(ctx))
            result.seconds = time.perf_counter() - t0

        return result, finish

    def _yielding(self, cancelled: CancelCheck, report: Callable[[str, int, int, str], None],
                  result: IngestResult) -> CancelCheck:
        """``cancelled`` that first waits while a question is answered: every stage checks it between pages
        and batches, so the page in hand is finished and the next waits. The wait is reported (``paused``, then
        ``resumed``) and added to ``result.paused_seconds``."""
        answers = self.answers
        if answers is None:
            return cancelled

        def check() -> bool:
            if cancelled():
                return True
            waited = answers.wait(cancelled, lambda: report("paused", 0, 0, "paused while a question is answered"))
            if waited:
                result.paused_seconds += waited
                report("resumed", 0, 0, f"resumed after {waited:.0f} s")
            return cancelled()

        return check

    def _repaired_copy(self, path: Path, password: str | None, exc: IngestError) -> tuple[Path, int, str]:
        """A damaged PDF rebuilt from its complete objects into the data dir, or the original error."""
        from engine.ingest.safety import repair_pdf

        name = file_sha256(path)[:24] + ".pdf"
        fixed = repair_pdf(path, self.settings.data_dir / "repaired", name, password)
        if fixed is None and re.search(rb"/Count\s+0\b", path.read_bytes()[:1 << 20]):
            raise IngestError(f"{path} has no pages.", title="Empty PDF") from exc
        if fixed is None:
            raise IngestError(
                exc.message + " An automatic rebuild from its complete objects found no readable pages either.",
                title="Damaged PDF",
            ) from exc
        copy, pages = fixed
        return copy, pages, (
            f"{path.name} is damaged (often a truncated download); ingested a rebuilt copy with {pages} readable "
            "pages. Pages cut off in the file are missing or blank: re-download it for a complete library."
        )

    def _mark_failed(self, doc_id: str, message: str, status: str = "failed") -> None:
        """Record a failure (or, ``status="cancelled"``, a cancel) on the document; a catalogue that cannot be
        written (full disk) must not stop the batch, and the document then simply stays resumable."""
        if not doc_id:
            return
        try:
            if self.store.conn().execute("SELECT 1 FROM documents WHERE id = ?", (doc_id,)).fetchone():
                self.store.update_document(doc_id, status=status, error=message[:2000])
        except Exception as exc:  # noqa: BLE001 - already failing; the original error is what the user sees
            log.warning("could not record the failure of %s: %s", doc_id, exc)

    # --- stages --------------------------------------------------------------------------------------
    def _run_stages(self, ctx: IngestContext, n_pages: int) -> None:
        """Every stage before the embedding (which ``_begin``'s second half runs)."""
        self._stage_text(ctx, n_pages)
        ctx.check_cancelled()
        if self.settings.regions:
            from engine.ingest import regions as multimodal

            try:
                multimodal.analyse(ctx)
            except EngineError:
                raise
            except Exception as exc:  # a library choking on a broken file: keep the text, record the stages
                if disk_full_error(exc, self.settings.data_dir) is not None:
                    raise
                log.exception("region analysis of %s failed", ctx.path)
                detail = f"region analysis failed: {type(exc).__name__}: {exc}"[:500]
                for stage in multimodal.REGION_STAGES:
                    if not ctx.stage_done(stage):
                        ctx.record(stage, "error", detail)
                ctx.warn(f"tables and figures skipped: {detail}")
        ctx.check_cancelled()
        if not ctx.stage_done("metadata"):
            t = time.perf_counter()
            from engine.metadata import CATALOGUE_FIELDS, extract_metadata, fiscal_period_named
            from engine.periods import read_calendar

            try:
                meta = extract_metadata(ctx.pages, ctx.path.name)
                fields = {k: v for k, v in meta.items() if k in CATALOGUE_FIELDS and v}
                self.store.update_document(ctx.doc_id, **fields)
                calendar = read_calendar(*self.store.calendar_inputs(ctx.doc_id))
                self.store.update_document(ctx.doc_id, calendar=calendar.to_json())
                if (named := fiscal_period_named(meta, calendar)) != fields.get("fiscal_period", named):
                    title = str(fields.get("title", "")).replace(str(fields["fiscal_period"]), named)
                    fields.update(fiscal_period=named, title=title)  # the year named the filer's way
                    self.store.update_document(ctx.doc_id, fiscal_period=named, title=title)
                fields["calendar"] = calendar.describe()
                detail = ", ".join(f"{k}={'/'.join(v) if isinstance(v, list) else v}" for k, v in fields.items())
                ctx.record("metadata", "done", detail, time.perf_counter() - t)
            except EngineError as exc:
                ctx.record("metadata", "error", exc.message, time.perf_counter() - t)

    def _stage_text(self, ctx: IngestContext, n_pages: int) -> None:
        if ctx.stage_done("text"):
            rows = self.store.pages(ctx.doc_id, with_words=True)
            ctx.pages = [PageText.from_row(r) for r in rows]
            return
        t = time.perf_counter()
        if self._copy_text_layer(ctx, n_pages, t):
            return
        done = 0

        def on_page(_: PageText) -> None:
            nonlocal done
            done += 1
            ctx.report("text", done, n_pages, "reading the text layer")

        ctx.report("text", 0, n_pages, "reading the text layer")
        pages = extract_pages(
            ctx.path,
            range(1, n_pages + 1),
            workers=self.settings.extract_workers or self.models.budget.extract,
            password=ctx.password,
            on_page=on_page,
            cancelled=ctx.cancelled,
        )
        ctx.check_cancelled()
        for p in pages:
            if p.error:
                ctx.warn(f"page {p.page}: {p.error}")
        self.store.put_pages(ctx.doc_id, [p.to_row() for p in pages])
        ctx.pages = pages
        with_text = sum(1 for p in pages if p.has_text)
        ctx.record("text", "done", f"{with_text}/{n_pages} pages with a text layer", time.perf_counter() - t)

    def _copy_text_layer(self, ctx: IngestContext, n_pages: int, t: float) -> bool:
        """Copy the text layer of the identical file from the library at ``ctx.text_layer_from`` instead of
        reading the PDF again (an ablation's own library re-reads nothing). Pages that library filled by OCR
        are copied empty: OCR belongs to the region stages, not to the text layer. False when there is nothing
        to copy; the PDF is then read as usual."""
        src_dir = ctx.text_layer_from
        if src_dir is None:
            return False
        db = Path(src_dir) / "catalogue.sqlite3"
        if not db.is_file() or db.resolve() == Path(self.store.path).resolve():
            return False
        try:
            sha = self.store.document(ctx.doc_id).sha256
            src = Store(db)
            try:
                doc = src.find_by_sha(sha)
                if doc is None or src.stages(doc.id).get("text", {}).get("status") != "done":
                    return False
                rows = src.pages(doc.id, with_words=True)
            finally:
                src.close()
        except (EngineError, sqlite3.Error) as exc:
            log.warning("could not copy the text layer from %s: %s", src_dir, exc)
            return False
        if len(rows) != n_pages:
            return False
        for r in rows:
            if r.get("ocr"):
                r.update(has_text=0, text="", words=[], ocr=0)
        self.store.put_pages(ctx.doc_id, rows)
        ctx.pages = [PageText.from_row(r) for r in rows]
        with_text = sum(1 for r in rows if r["has_text"])
        ctx.report("text", n_pages, n_pages, "text layer copied")
        ctx.record("text", "done", f"{with_text}/{n_pages} pages with a text layer (copied from {src_dir})",
                   time.perf_counter() - t)
        return True

    def _stage_embed(self, ctx: IngestContext) -> None:
        if ctx.stage_done("embed"):
            return
        t = time.perf_counter()
        embedder = self.models.embedder()
        self.store.claim_vectors(embedder.name)
        self.indexes.open(embedder.dim)
        s = self.settings
        regions = self.store.regions(ctx.doc_id)
        table_boxes: dict[int, list[tuple[float, float, float, float]]] = {}
        for r in regions:
            if r.kind == "table":
                table_boxes.setdefault(r.page, []).append(r.bbox)
        sentences = []
        for p in ctx.pages:
            ctx.check_cancelled()
            sentences.extend(page_sentences(p, table_boxes.get(p.page, ())))
        # Work estimate for progress: every sentence once, then the chunks (about a fifth as many) and regions.
        total = max(1, len(sentences) + len(sentences) // 5 + len(regions))
        embedded = 0

        def progress(n: int) -> None:
            nonlocal embedded
            embedded += n
            ctx.report("embed", min(embedded, total), total, "embedding")

        def embed(texts: Sequence[str]) -> np.ndarray:
            return embed_in_batches(embedder, texts, s.embed_batch, ctx.check_cancelled, progress)

        if s.chunker == "fixed":
            text_chunks = fixed_chunks(sentences, s.fixed_chunk_chars)
            text_vecs = embed([c.text for c in text_chunks])
        else:
            text_chunks, text_vecs = semantic_chunks(
                sentences,
                embed,
                window=s.chunk_window,
                overlap=s.chunk_overlap,
                percentile=s.breakpoint_percentile,
                merge_similarity=s.merge_similarity,
                max_chars=s.max_chunk_chars,
                min_chars=s.min_chunk_chars,
            )
        chunks = [
            Chunk(id=0, doc_id=ctx.doc_id, modality="text", page=c.page, text=c.text, pages=[c.page], bbox=c.bbox)
            for c in text_chunks
        ]
        region_chunks = self._region_chunks(ctx.doc_id, ctx.pages, regions)
        region_vecs = {m: embed([c.text for c in cs]) for m, cs in region_chunks.items()}
        ctx.check_cancelled()
        # Catalogue first, then the indexes; the stage is marked done only after both are on disk, so a crash
        # in between redoes this stage and the replaced chunk ids are dropped from the indexes.
        dropped: list[int] = []
        dropped += self.store.replace_chunks(ctx.doc_id, "text", chunks)
        for m, cs in region_chunks.items():
            dropped += self.store.replace_chunks(ctx.doc_id, m, cs)
        self.indexes.remove(dropped)
        if not self._reconciled:
            # Vectors of chunks replaced or removed by a process that died before saving its index.
            ids = {m: set(self.store.chunk_ids(m)) for m in ("text", "table", "image")}
            for m, cs in region_chunks.items():
                ids[m].update(c.id for c in cs)
            ids["text"].update(c.id for c in chunks)
            self.indexes.drop_orphans(ids)
            self._reconciled = True
        if chunks:
            self.indexes["text"].add([c.id for c in chunks], text_vecs)
        for m, cs in region_chunks.items():
            if cs:
                self.indexes[m].add([c.id for c in cs], region_vecs[m])
        self.indexes.save()
        all_ids = [c.id for c in chunks] + [c.id for cs in region_chunks.values() for c in cs]
        self.store.mark_indexed(all_ids)
        ctx.report("embed", total, total, "indexed")
        ctx.record(
            "embed",
            "done",
            f"{len(chunks)} text, {len(region_chunks['table'])} table, {len(region_chunks['image'])} figure chunks",
            time.perf_counter() - t,
        )

    def _region_chunks(
        self, doc_id: str, pages: Sequence[PageText], regions: Sequence[Region]
    ) -> dict[str, list[Chunk]]:
        """The table and image index entries of a document's regions (text from ``region_index_text``)."""
        out: dict[str, list[Chunk]] = {"table": [], "image": []}
        pages_by_no = {p.page: p for p in pages}
        for r in regions:
            if r.kind not in {"table", "figure"}:
                continue
            page = pages_by_no.get(r.page)
            text = region_index_text(r, page_heading(page, r.bbox[1]) if page is not None else "")
            if not text.strip():
                continue
            modality: Modality = "table" if r.kind == "table" else "image"
            out[modality].append(
                Chunk(id=0, doc_id=doc_id, modality=modality, page=r.page, text=text, pages=[r.page],
                      bbox=r.bbox, region_id=r.id)
            )
        return out

    def reindex_regions(self, doc_id: str, cancelled: CancelCheck | None = None) -> dict[str, int]:
        """Embed a ready document's tables and figures again from the stored regions (after an upgrade changed
        what the table and image indexes embed); its text chunks are kept. Returns entries per modality."""
        stages = self.store.stages(doc_id)
        if stages.get("embed", {}).get("status") != "done":
            return {"table": 0, "image": 0}
        embedder = self.models.embedder()
        self.store.claim_vectors(embedder.name)
        self.indexes.open(embedder.dim)
        pages = [PageText.from_row(r) for r in self.store.pages(doc_id, with_words=True)]
        region_chunks = self._region_chunks(doc_id, pages, self.store.regions(doc_id))
        vecs: dict[str, np.ndarray] = {}
        for m, cs in region_chunks.items():
            if cancelled is not None and cancelled():
                raise Cancelled("Re-indexing cancelled; the document keeps its previous entries.")
            vecs[m] = embed_in_batches(embedder, [c.text for c in cs], self.settings.embed_batch)
        # As in the embed stage: catalogue first, then the indexes; a crash in between leaves orphan vectors
        # that the next ingestion drops, and chunks not marked indexed that `doctor` reports.
        dropped: list[int] = []
        for m, cs in region_chunks.items():
            dropped += self.store.replace_chunks(doc_id, m, cs)
        self.indexes.remove(dropped)
        for m, cs in region_chunks.items():
            if cs:
                self.indexes[m].add([c.id for c in cs], vecs[m])
        self.indexes.save()
        self.store.mark_indexed([c.id for cs in region_chunks.values() for c in cs])
        return {m: len(cs) for m, cs in region_chunks.items()}

    def remove(self, doc_id: str) -> list[int]:
        row = self.store.conn().execute("SELECT sha256 FROM documents WHERE id = ?", (doc_id,)).fetchone()
        ids = self.store.delete_document(doc_id)
        if row is not None:  # the rebuilt copy of a damaged PDF, if there was one, and the region crops
            (self.settings.data_dir / "repaired" / f"{row[0][:24]}.pdf").unlink(missing_ok=True)
            shutil.rmtree(self.settings.crops_dir / doc_id, ignore_errors=True)
        if ids:
            if self.indexes.ndim is None:
                self.indexes.open(self.models.embedder().dim)
            self.indexes.remove(ids)
            self.indexes.save()
        return ids


_FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


def disk_full_error(exc: BaseException, data_dir: Path) -> StoreError | None:
    """A clear StoreError when ``exc`` means the disk (or a quota, or a file size limit) is full, else None."""
    full = isinstance(exc, OSError) and exc.errno in _FULL_ERRNOS
    full = full or (isinstance(exc, sqlite3.OperationalError) and "full" in str(exc).lower())
    if isinstance(exc, StoreError) and exc.title == "Disk full":
        return exc
    if not full:
        return None
    return StoreError(
        f"The disk holding the library ({data_dir}) is full ({exc}). Nothing already in the library was "
        "changed; free some space and run the ingest again: it resumes from the last finished stage.",
        title="Disk full",
    )


def embed_in_batches(
    embedder: Any,
    texts: Sequence[str],
    batch: int,
    before_batch: Callable[[], None] = lambda: None,
    after_batch: Callable[[int], None] = lambda n: None,
) -> np.ndarray:
    """Vectors for ``texts`` in input order, embedded in batches of similar length (no compute wasted on
    padding). Each distinct text is embedded once and its vector copied to its repeats (a filing repeats its
    running headers on every page). ``before_batch`` runs before each batch (a cancel check), ``after_batch``
    gets the number of ``texts`` it covered, repeats included."""
    if not texts:
        return np.zeros((0, embedder.dim), dtype=np.float32)
    slot: dict[str, int] = {}
    where = np.fromiter((slot.setdefault(t, len(slot)) for t in texts), dtype=np.intp, count=len(texts))
    distinct = list(slot)
    repeats = np.bincount(where, minlength=len(distinct))
    order = sorted(range(len(distinct)), key=lambda i: len(distinct[i]))
    out = np.zeros((len(distinct), embedder.dim), dtype=np.float32)
    for i in range(0, len(order), batch):
        before_batch()
        idx = order[i : i + batch]
        out[idx] = embedder.embed([distinct[j] for j in idx])
        after_batch(int(repeats[idx].sum()))
    return out if len(distinct) == len(texts) else out[where]


def region_index_text(r: Region, heading: str = "") -> str:
    """What the table and image indexes embed: the page's heading (a statement's name) and the region's title
    (unless the heading already says it), units, period headers and row labels first, then the description.
    Titles found next to a table are often only its column caption ("Years ended December 31"), so the
    heading is never dropped for them.

    Order matters: the embedder reads only its first ~256 tokens, so the words a question uses ("cash flow
    statement", "purchases of property, plant and equipment") must come before the long list of values.
    """
    parts = [heading]
    if r.title and r.title.lower() not in heading.lower():
        parts.append(r.title)
    parts.append(r.units)
    table: dict[str, Any] | None = r.table
    if table:
        headers = table.get("columns") or table.get("header") or []
        if headers:
            parts.append("Columns: " + " | ".join(str(h) for h in headers if h))
        labels = [str(row.get("label", "")) for row in table.get("rows", []) if isinstance(row, dict)]
        if labels:
            parts.append("Rows: " + "; ".join(lab for lab in labels if lab))
    parts.append(r.summary)
    return "\n".join(p for p in parts if p).strip()


_BOILERPLATE = re.compile(r"^(table of contents|index|page \d+|\d+)$", re.I)


def page_heading(page: PageText, above: float, max_lines: int = 3) -> str:
    """The first lines of text above a region in the top part of the page (a statement's name, e.g.
    "Consolidated Statement of Cash Flows"), skipping running boilerplate and number-only lines."""
    out: list[str] = []
    for line in page.lines:
        words = [page.words[i] for i in line]
        if not words or words[0][1] >= above or words[0][1] > page.height * 0.4:
            break
        text = " ".join(w[4] for w in words).strip()
        letters = sum(ch.isalpha() for ch in text)
        if _BOILERPLATE.match(text) or letters < max(3, len(text) // 3):
            continue
        out.append(text)
        if len(out) >= max_lines:
            break
    return " / ".join(out)

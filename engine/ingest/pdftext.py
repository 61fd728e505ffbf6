"""Words with positions from a PDF's text layer (pdfplumber), grouped into lines, in parallel over pages."""

from __future__ import annotations

import itertools
import math
import os
import stat
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from engine.errors import IngestError
from engine.pagetext import PageText, Word, text_lines
from engine.untrusted import clean_text


def pdf_info(path: Path, password: str | None = None) -> int:
    """Page count of a PDF; IngestError with a clear reason for anything that is not a readable PDF."""
    if not path.exists():
        raise IngestError(f"{path} does not exist.", title="File not found")
    if path.is_dir():
        raise IngestError(f"{path} is a folder, not a PDF.", title="Not a PDF")
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        raise IngestError(f"{path} cannot be read: {exc.strerror}.", title="File unreadable") from exc
    if not stat.S_ISREG(mode):
        # reading a FIFO blocks until a writer comes, a device never ends: only regular files are opened
        raise IngestError(f"{path} is not a regular file (a pipe, socket or device); give the PDF file itself.",
                          title="Not a file")
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            head = fh.read(1024)
    except PermissionError:
        raise IngestError(f"{path} cannot be read (permission denied).", title="File unreadable") from None
    except OSError as exc:
        raise IngestError(f"{path} cannot be read: {exc.strerror}.", title="File unreadable") from exc
    if size == 0:
        raise IngestError(f"{path} is empty (0 bytes).", title="Empty file")
    if b"%PDF-" not in head:
        raise IngestError(
            f"{path} is not a PDF (no %PDF- header). Convert it to PDF first.", title="Not a PDF"
        )
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(str(path), password=password)
    except pdfium.PdfiumError as exc:
        msg = str(exc)
        # PDFium's last-error code can be stale from an earlier document: only trust "password" when the file
        # really carries an /Encrypt dictionary.
        if "password" in msg.lower() and _has_encrypt_dict(path):
            raise IngestError(
                f"{path} is encrypted. Give its password with --password (or decrypt it with qpdf).",
                title="Encrypted PDF",
            ) from exc
        raise IngestError(
            f"{path} is damaged and cannot be opened ({msg}). Try repairing it (e.g. `qpdf damaged.pdf fixed.pdf` or "
            "re-saving from a viewer) and ingest again.",
            title="Damaged PDF",
        ) from exc
    try:
        n = len(pdf)
    finally:
        pdf.close()
    if n == 0:
        raise IngestError(f"{path} has no pages.", title="Empty PDF")
    return n


def _has_encrypt_dict(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            prev = b""
            while block := fh.read(1 << 20):
                if b"/Encrypt" in prev[-16:] + block:
                    return True
                prev = block
    except OSError:
        return False
    return False


def _open_text_layer(path: str, password: str | None) -> Any:
    """A pdfplumber document (pdfminer's logging quietened)."""
    import logging

    import pdfplumber

    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    return pdfplumber.open(path, password=password or "")


def _unreadable(numbers: Sequence[int], exc: Exception) -> list[PageText]:
    # pdfminer refuses a file PDFium opened: no text layer, pages can still be OCR'd
    reason = f"text layer unreadable: {type(exc).__name__}: {exc}"[:300]
    return [PageText(page=n, width=612.0, height=792.0, error=reason) for n in numbers]


def _close_quietly(pdf: Any) -> None:
    try:
        pdf.close()
    except Exception:  # noqa: BLE001 - closing walks the page tree again; a broken tree must not lose the pages read
        pass


def _read_pages(pdf: Any, numbers: Sequence[int]) -> list[PageText]:
    """The words of the given pages (1-based numbers) of an open pdfplumber document."""
    out: list[PageText] = []
    for n in numbers:
        try:
            page = pdf.pages[n - 1]
            raw = page.extract_words(keep_blank_chars=False, use_text_flow=False, x_tolerance=1.5)
            # the text layer is untrusted: escape sequences and bidi overrides never enter the library
            cleaned = ((w, clean_text(str(w["text"]))) for w in raw)
            words: list[Word] = [
                (float(w["x0"]), float(w["top"]), float(w["x1"]), float(w["bottom"]), text)
                for w, text in cleaned
                if text.strip()
            ]
            pt = PageText(page=n, width=float(page.width), height=float(page.height), words=words)
            pt.lines = text_lines(words)
            page.flush_cache()
        except Exception as exc:  # a bad page is a recorded partial failure, not a lost document
            pt = PageText(page=n, width=612.0, height=792.0, error=f"{type(exc).__name__}: {exc}")
        out.append(pt)
    return out


_worker_pdf: list[tuple[tuple[str, str | None], Any]] = []
"""In a pool worker process: the document it has open, kept from one batch to the next. pdfplumber walks the
whole page tree on first access to ``pages`` (2 s for 2,000 pages), so opening it per batch of 8 pages made a
long file quadratic; the worker's file closes when the pool ends."""


def _extract_range(args: tuple[str, list[int], str | None]) -> list[PageText]:
    """Worker: read a range of pages (1-based numbers), the PDF opened once per worker process."""
    path, numbers, password = args
    key = (path, password)
    if not _worker_pdf or _worker_pdf[0][0] != key:
        while _worker_pdf:
            _close_quietly(_worker_pdf.pop()[1])
        try:
            _worker_pdf.append((key, _open_text_layer(path, password)))
        except Exception as exc:
            return _unreadable(numbers, exc)
    return _read_pages(_worker_pdf[0][1], numbers)


def extract_pages(
    path: Path,
    numbers: Sequence[int],
    workers: int = 1,
    password: str | None = None,
    on_page: Callable[[PageText], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> list[PageText]:
    """Read the words of the given pages, ``workers`` processes in parallel; results in page order."""
    numbers = list(numbers)
    if not numbers:
        return []
    batches = list(_batches(numbers, workers))
    results: list[PageText] = []
    if workers <= 1 or len(numbers) < 8:
        try:
            pdf = _open_text_layer(str(path), password)
        except Exception as exc:
            pdf, results = None, _unreadable(numbers, exc)
            for pt in results:
                if on_page:
                    on_page(pt)
        try:
            for batch in batches if pdf is not None else []:
                if cancelled is not None and cancelled():
                    break
                for pt in _read_pages(pdf, batch):
                    results.append(pt)
                    if on_page:
                        on_page(pt)
        finally:
            if pdf is not None:
                _close_quietly(pdf)
    else:
        ctx = _mp_context()
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
            # At most one batch per worker and one more in flight, so a pause or cancel (both come through
            # ``cancelled``) stops the workers after the pages in hand instead of after the whole file.
            todo = iter(batches)
            futures = deque(pool.submit(_extract_range, (str(path), b, password))
                            for b in itertools.islice(todo, workers + 1))
            while futures:
                if cancelled is not None and cancelled():
                    for f in futures:
                        f.cancel()
                    break
                fut = futures.popleft()
                for pt in fut.result():
                    results.append(pt)
                    if on_page:
                        on_page(pt)
                nxt = next(todo, None)
                if nxt is not None:
                    futures.append(pool.submit(_extract_range, (str(path), nxt, password)))
    results.sort(key=lambda p: p.page)
    return results


def _batches(numbers: list[int], workers: int) -> Iterator[list[int]]:
    """Contiguous batches of ~8 pages so every process reads nearby pages and progress stays fine-grained."""
    size = max(1, min(8, math.ceil(len(numbers) / max(1, workers))))
    for i in range(0, len(numbers), size):
        yield numbers[i : i + size]


def _mp_context() -> Any:
    import multiprocessing as mp

    # fork is fastest, but forking a process that already runs torch/llama threads can deadlock; forkserver
    # starts clean workers once.
    method = os.environ.get("MFR_MP_START", "forkserver")
    try:
        ctx = mp.get_context(method)
    except ValueError:
        return mp.get_context("spawn")
    if method == "forkserver":
        # Workers fork from a server that has imported the reader and pdfplumber once, instead of importing them
        # in every worker of every file (half a second a file on two cores). Takes effect when the server starts.
        ctx.set_forkserver_preload(["engine.ingest.pdftext", "pdfplumber"])
    return ctx


def bbox_union(words: Sequence[Word]) -> tuple[float, float, float, float]:
    return (
        min(w[0] for w in words),
        min(w[1] for w in words),
        max(w[2] for w in words),
        max(w[3] for w in words),
    )


def inside(word: Word, box: tuple[float, float, float, float], tol: float = 0.5) -> bool:
    """True when the word's centre lies in the box (boxes in PDF points)."""
    cx, cy = (word[0] + word[2]) / 2, (word[1] + word[3]) / 2
    return box[0] - tol <= cx <= box[2] + tol and box[1] - tol <= cy <= box[3] + tol

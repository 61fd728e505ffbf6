"""Regions: the render, detect, tables and figures stages of ingestion (DESIGN.md, "The method", steps 2-4).

- render: pages without a text layer are rendered and OCR'd; their words become the page's text layer.
- detect: pages rendered at ``render_dpi`` go through the layout detector in batches; the PDF's geometry is the
  fallback and the cross-check; every region gets its caption/title and units line.
- tables: crops to PNG; cells from the text layer (or OCR words); with a vision model, batched descriptions and
  JSON tables checked against the text layer; without one, a description from the structure.
- figures: decoration skipped; with a vision model, batched summaries; else the figure's words (text layer or
  OCR) grouped by position and summarised by the text LLM (bounded) or deterministically.

Each stage is recorded; a finished stage is skipped on resume, and regions already parsed are not redone.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import Cancelled, EngineError
from engine.ingest import figures as fig
from engine.ingest import layout, ocr_pages
from engine.ingest import tables as tab
from engine.models.llama_backend import VisionOverflow
from engine.models.protocols import ChatMessage, VisionModel, VisionRequest
from engine.numbers import parse_cell
from engine.types import Region

if TYPE_CHECKING:
    from engine.ingest.pipeline import IngestContext

log = logging.getLogger(__name__)

REGION_STAGES = ("render", "detect", "tables", "figures")
DETECT_BATCH = 8
"""Pages the layout detector gets per call (its streams share them out): pages of prose, which it does not look
at, do not count, so each call has work for every stream."""
_Launched = tuple[list[Any], list[Any], "Future[list[list[Any]]] | None"]
"""A detector call under way: its pages, those of them rendered for the detector, and the detections to come."""
MAX_PENDING_PAGES = 32
"""Pages read ahead of the detector at most (a long run of prose still reports progress and stores regions)."""
FIGURE_DPI = 200
"""Figures are cropped at this resolution for OCR and the vision model (small chart labels need it)."""


def analyse(ctx: IngestContext) -> None:
    """Run the region stages for a document, recording each in the catalogue."""
    if all(ctx.stage_done(s) for s in REGION_STAGES):
        return
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(ctx.path), password=ctx.password)
    try:
        if not ctx.stage_done("render"):
            stage_render(ctx, pdf)
        ctx.check_cancelled()
        if ctx.stage_done("detect"):
            regions = ctx.store.regions(ctx.doc_id)
        else:
            regions = stage_detect(ctx, pdf)
        ctx.check_cancelled()
        if not ctx.stage_done("tables"):
            stage_tables(ctx, pdf, [r for r in regions if r.kind == "table"])
        ctx.check_cancelled()
        if not ctx.stage_done("figures"):
            stage_figures(ctx, pdf, [r for r in regions if r.kind == "figure"])
    finally:
        _close_quietly(pdf, "the PDF (pdfium)")


# --- render: OCR of scanned pages ----------------------------------------------------------------------


def stage_render(ctx: IngestContext, pdf: Any) -> None:
    """OCR every page without a text layer and store its words as the page's text."""
    t0 = time.perf_counter()
    todo = [p for p in ctx.pages if ocr_pages.needs_ocr(p)]
    total = len(ctx.pages)
    ctx.report("render", 0, total, f"{len(todo)} pages without a text layer" if todo else "pages have text")
    if not todo:
        ctx.record("render", "done", f"{total} pages, all with a text layer", time.perf_counter() - t0)
        return
    try:
        ocr = ctx.models.ocr()
    except EngineError as exc:
        ctx.warn(f"OCR unavailable, {len(todo)} scanned pages stay without text: {exc.message}")
        ctx.record("render", "error", f"OCR unavailable: {exc.message}", time.perf_counter() - t0)
        return
    if ocr is None:
        ctx.warn(f"{len(todo)} pages have no text layer and no OCR model is configured.")
        ctx.record("render", "done", f"{len(todo)} pages without text (OCR off)", time.perf_counter() - t0)
        return
    done_ocr = blank = 0
    started = time.perf_counter()
    for k, page in enumerate(todo):
        ctx.check_cancelled()
        try:
            if ocr_pages.blank_page(pdf, page.page):
                blank += 1
                ctx.report("render", k + 1, len(todo), f"page {page.page} is blank")
                continue
            image = layout.render_page(pdf, page.page, ocr_pages.OCR_DPI)
            words = ocr_pages.ocr_words_to_points(ocr.read([image])[0], ocr_pages.OCR_DPI / 72.0)
            ocr_pages.apply_ocr(page, words)
            ctx.store.update_page(
                ctx.doc_id, page.page, text=page.text, words=ocr_pages.page_row_words(words),
                has_text=int(page.has_text), ocr=1,
            )
            done_ocr += 1
        except Cancelled:
            raise
        except Exception as exc:  # a bad page is a recorded warning, not a lost document
            ctx.warn(f"page {page.page}: OCR failed ({type(exc).__name__}: {exc})")
        pace = (time.perf_counter() - started) / max(1, done_ocr)
        ctx.report("render", k + 1, len(todo), f"OCR page {page.page} ({pace:.1f} s a page)")
    skipped = f", {blank} blank pages skipped" if blank else ""
    ctx.record("render", "done", f"{done_ocr}/{len(todo)} scanned pages read by OCR{skipped}",
               time.perf_counter() - t0)


# --- detect ----------------------------------------------------------------------------------------------


def stage_detect(ctx: IngestContext, pdf: Any) -> list[Region]:
    """Find tables, figures, captions and titles on every page; store them (replacing earlier ones). The PDF's
    geometry is read on every page; the detector looks only at pages where it can add something
    (``layout.needs_detector``), unless ``Settings.detect_all_pages``."""
    t0 = time.perf_counter()
    detector = None
    try:
        detector = ctx.models.detector()
    except EngineError as exc:
        ctx.warn(f"layout detector unavailable, using the PDF's geometry: {exc.message}")
    dpi = ctx.settings.render_dpi
    scale = dpi / 72.0
    pages = [p for p in ctx.pages if not p.error]
    total = len(pages)
    plumber = None
    if detector is None:
        plumber = _open_plumber(ctx)
    regions: list[Region] = []
    done = looked = 0
    ocr_set = {row["page"] for row in ctx.store.pages(ctx.doc_id) if row.get("ocr")}
    pending: list[Any] = []
    """Pages whose geometry is read, in page order, waiting for the detector's next call."""
    geometry: dict[int, PageGeometry] = {}

    def wants_detector(p: Any) -> bool:
        return p.page in geometry and (ctx.settings.detect_all_pages or geometry[p.page].needs_detector)

    # The detector works on one call's pages on its own threads while this thread reads the geometry of the next
    # pages and renders them (PDFium stays on this thread: it is not thread-safe).
    background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mfr-detect") if detector is not None else None

    def launch() -> _Launched:
        """Render the pending pages that need the detector and start detecting them, in one call (the detector's
        streams share its pages); the pages leave ``pending``."""
        batch, rendered, images = list(pending), [], []  # type: list[Any], list[Any], list[Any]
        pending.clear()
        if detector is None or background is None:
            return batch, rendered, None
        for p in batch:
            if not wants_detector(p):
                continue
            try:
                images.append(layout.render_page(pdf, p.page, dpi))
                rendered.append(p)
            except Exception as exc:
                ctx.warn(f"page {p.page}: rendering failed ({type(exc).__name__}: {exc})")
        ctx.report("render", done + len(batch), total, "rendering pages")
        return batch, rendered, background.submit(detector.detect, images) if images else None

    def finish(launched: _Launched) -> None:
        """Wait for a launched call's detections and make its pages' regions, in page order."""
        nonlocal done, looked
        batch, rendered, detecting = launched
        dets: dict[int, list[Any]] = {}
        if detecting is not None:
            try:
                dets = {p.page: d for p, d in zip(rendered, detecting.result(), strict=True)}
            except Exception as exc:
                ctx.warn(f"pages {batch[0].page}-{batch[-1].page}: detector failed ({exc}); geometry used")
        looked += len(dets)
        for p in batch:
            if p.page not in geometry:
                continue
            try:
                regions.extend(_page_regions(p, geometry.pop(p.page), dets.get(p.page), scale))
            except Cancelled:
                raise
            except Exception as exc:
                ctx.warn(f"page {p.page}: layout failed ({type(exc).__name__}: {exc})")
        done += len(batch)
        ctx.report("detect", done, total, f"{sum(r.kind == 'table' for r in regions)} tables, "
                   f"{sum(r.kind == 'figure' for r in regions)} figures")

    ctx.report("detect", 0, total, "finding tables and figures")
    in_flight: _Launched | None = None
    try:
        wanted = 0
        for p in pages:
            ctx.check_cancelled()
            try:
                geometry[p.page] = _page_geometry(ctx, pdf, p, plumber, ocr_set)
            except Cancelled:
                raise
            except Exception as exc:
                ctx.warn(f"page {p.page}: layout failed ({type(exc).__name__}: {exc})")
            pending.append(p)
            wanted += detector is not None and wants_detector(p)
            if wanted >= DETECT_BATCH or len(pending) >= MAX_PENDING_PAGES:
                launched = launch()
                if in_flight is not None:
                    finish(in_flight)
                in_flight, wanted = launched, 0
        if in_flight is not None:
            finish(in_flight)
        if pending:
            finish(launch())
    finally:
        if background is not None:  # a cancel: the call in hand finishes, nothing queued starts
            background.shutdown(wait=True, cancel_futures=True)
        if plumber is not None:
            _close_quietly(plumber, "pdfplumber")
    ctx.store.replace_regions(ctx.doc_id, regions)
    n_t = sum(r.kind == "table" for r in regions)
    n_f = sum(r.kind == "figure" for r in regions)
    how = (f"detector {getattr(detector, 'name', '')} on {looked} of {total} pages" if detector is not None
           else "PDF geometry")
    ctx.record("detect", "done", f"{n_t} tables, {n_f} figures ({how})", time.perf_counter() - t0)
    return regions


def _close_quietly(handle: Any, what: str) -> None:
    """Close a PDF handle in a ``finally``: a failing close must neither mask the error being raised nor fail
    a stage that succeeded, so it is logged at warning."""
    try:
        handle.close()
    except Exception as exc:  # noqa: BLE001 - closing walks the file again; a broken file must not cost the stage
        log.warning("closing %s failed: %s: %s", what, type(exc).__name__, exc)


def _open_plumber(ctx: IngestContext) -> Any:
    try:
        import pdfplumber

        return pdfplumber.open(str(ctx.path), password=ctx.password or "")
    except Exception as exc:
        ctx.warn(f"pdfplumber could not open the file for ruled tables: {exc}")
        return None


@dataclass
class PageGeometry:
    """What the PDF itself says of a page's layout: its geometric regions and whether the detector can add."""

    regions: list[Region]
    needs_detector: bool


def _page_geometry(ctx: IngestContext, pdf: Any, page: Any, plumber: Any, ocr_set: set[int]) -> PageGeometry:
    scanned = page.page in ocr_set
    images, paths = layout.pdf_objects(pdf, page.page)
    ruled: list[tuple[float, float, float, float]] = []
    if plumber is not None and page.has_text and not scanned:
        try:
            pp = plumber.pages[page.page - 1]
            ruled = [tuple(t.bbox) for t in pp.find_tables()]  # type: ignore[misc]
            pp.flush_cache()
        except Exception as exc:
            ctx.warn(f"page {page.page}: ruled-table search failed ({exc})")
    geo = layout.geometry_regions(
        page.page, page.words, page.width, page.height, images, paths, ruled, scanned=scanned
    )
    return PageGeometry(geo, layout.needs_detector(geo, images, paths, page.width, page.height, scanned))


def _page_regions(page: Any, geometry: PageGeometry, dets: Sequence[Any] | None, scale: float) -> list[Region]:
    """A page's regions: the detector's, confirmed and completed by the geometry's, where it looked
    (``dets`` not None); else the geometry's alone."""
    if dets is not None:
        found = layout.detections_to_regions(dets, page.page, scale, page.width, page.height)
        regions = layout.cross_check(found, geometry.regions)
    else:
        regions = geometry.regions
    regions = [
        r for r in regions
        if r.kind != "figure" or not fig.is_decoration(r.bbox, page.width, page.height)
    ]
    layout.attach_context(regions, page.words, page.height)
    return regions


# --- crops -----------------------------------------------------------------------------------------------


class PageImages:
    """Renders pages on demand, keeping the last one (regions are visited in page order)."""

    def __init__(self, pdf: Any, dpi: int) -> None:
        self.pdf = pdf
        self.dpi = dpi
        self._page = -1
        self._image: Any = None

    def get(self, page: int) -> Any:
        """The image of a 1-based page (rendered once while the page stays the same)."""
        if page != self._page:
            self._image = layout.render_page(self.pdf, page, self.dpi)
            self._page = page
        return self._image

    def crop(self, region: Region, padding_px: int, out: Path) -> Path:
        """Crop a region with padding and save it as PNG."""
        image = self.get(region.page)
        s = self.dpi / 72.0
        x0, y0, x1, y1 = region.bbox
        box = (
            max(0, int(x0 * s) - padding_px),
            max(0, int(y0 * s) - padding_px),
            min(image.width, int(x1 * s) + padding_px),
            min(image.height, int(y1 * s) + padding_px),
        )
        out.parent.mkdir(parents=True, exist_ok=True)
        # A temp file in the same folder, then a rename: a kill mid-write never leaves a torn PNG at ``out``
        # (the doctor clears the ``.tmp`` left behind).
        tmp = out.with_name(f"{out.name}.{os.getpid()}-{threading.get_ident()}.tmp")
        try:
            image.crop(box).save(tmp, format="PNG", compress_level=1)
            os.replace(tmp, out)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        return out


def crop_complete(path: Path) -> bool:
    """Whether a crop file is a whole, readable PNG (a torn or unreadable one is rendered again)."""
    from PIL import Image

    try:
        with Image.open(path) as im:
            im.verify()
        return True
    except Exception:  # noqa: BLE001 - PIL raises many types for a damaged file; all mean "render it again"
        return False


def _repair_crop(ctx: IngestContext, images: PageImages, r: Region, crops: Path) -> None:
    """On resume, render a finished region's crop again (into ``crops``) when its file is missing, torn or
    unreadable."""
    if not r.crop_path or crop_complete(Path(r.crop_path)):
        return
    try:
        r.crop_path = str(images.crop(r, ctx.settings.crop_padding, crops / Path(r.crop_path).name))
        ctx.store.update_region(r)
    except Cancelled:
        raise
    except Exception as exc:
        ctx.warn(f"page {r.page}: {r.kind} crop could not be rendered again ({type(exc).__name__}: {exc})")


def crop_name(region: Region, index: int) -> str:
    """A crop's file name: page, kind and a per-document index (stable across resumes)."""
    return f"p{region.page:04d}-{region.kind}-{index:03d}.png"


# --- vision batches --------------------------------------------------------------------------------------


@dataclass
class VisionItem:
    """One image to send to the vision model, known by its file name."""

    name: str
    path: Path


OVERFLOW_ALONE = "too large for the vision model's context even alone"
"""Starts the failure reason of an image that overflowed the vision model in a prompt of its own."""


def run_vision(
    vision: VisionModel,
    items: Sequence[VisionItem],
    prompt: Callable[[list[str]], str],
    parse: Callable[[str, list[str]], dict[str, Any]],
    batch: int,
    system: str = "",
    max_tokens: int = 1024,
    check_cancelled: Callable[[], None] = lambda: None,
    on_batch: Callable[[int, int], None] = lambda done, total: None,
    warn: Callable[[str], None] = lambda msg: None,
    on_shrink: Callable[[int], None] = lambda size: None,
) -> tuple[dict[str, Any], dict[str, str]]:
    """Send images in batches of ``batch`` per prompt naming the files; retry each missing one alone.

    When a batch raises ``VisionOverflow`` the batch size is halved (down to 1) for the rest of the items, the
    same images are sent again in the smaller batches, and ``warn`` and ``on_shrink`` get the new size. An image
    that overflows alone fails with a reason starting with ``OVERFLOW_ALONE``.

    ``parse(reply, names)`` returns results by file name (names absent or invalid are left out). Returns the
    results and, for files that failed even alone, the reason.
    """
    results: dict[str, Any] = {}
    failed: dict[str, str] = {}
    size = max(1, batch)
    pos = 0
    while pos < len(items):
        check_cancelled()
        chunk = list(items[pos : pos + size])
        names = [i.name for i in chunk]
        try:
            reply = vision.describe(
                [VisionRequest(images=[i.path for i in chunk], prompt=prompt(names), system=system,
                               max_tokens=max_tokens * len(chunk))]
            )[0]
            got = parse(reply, names)
            results.update({k: v for k, v in got.items() if k in names})
            if len(chunk) == 1 and names[0] not in got:
                failed[names[0]] = "no valid answer for this file, even alone"
        except Cancelled:
            raise
        except VisionOverflow as exc:
            if len(chunk) > 1:
                size = max(1, min(size // 2, len(chunk) - 1))
                warn(f"vision model overflowed on {len(chunk)} images in one prompt; sending {size} per prompt "
                     f"for the rest of this document ({type(exc).__name__}: {exc})")
                on_shrink(size)
                continue  # the same images again, in smaller batches
            failed[names[0]] = f"{OVERFLOW_ALONE}: {exc}"
        except Exception as exc:
            warn(f"vision model failed on {', '.join(names)}: {type(exc).__name__}: {exc}")
        pos += len(chunk)
        on_batch(pos, len(items))
    for item in items:
        if item.name in results or item.name in failed:
            continue
        check_cancelled()
        try:
            reply = vision.describe(
                [VisionRequest(images=[item.path], prompt=prompt([item.name]), system=system,
                               max_tokens=max_tokens)]
            )[0]
            got = parse(reply, [item.name])
            if item.name in got:
                results[item.name] = got[item.name]
            else:
                failed[item.name] = "no valid answer for this file, even alone"
        except Cancelled:
            raise
        except VisionOverflow as exc:
            failed[item.name] = f"{OVERFLOW_ALONE}: {exc}"
        except Exception as exc:
            failed[item.name] = f"{type(exc).__name__}: {exc}"
    return results, failed


_FILE_MARK = re.compile(
    r"^[#*\s]*(?:FILE|File|file|IMAGE|Image)\s*(?:name)?\s*\**\s*[:=]\**\s*[`\"']?([^\s`\"'*]+)", re.M
)


def split_by_file(reply: str, names: Sequence[str]) -> dict[str, str]:
    """Sections of a reply by the file names it announces (``### FILE: name``); one image: the whole reply."""
    marks = [(m.start(), m.end(), m.group(1).strip().rstrip(":")) for m in _FILE_MARK.finditer(reply)]
    out: dict[str, str] = {}
    for k, (_, end, name) in enumerate(marks):
        stop = marks[k + 1][0] if k + 1 < len(marks) else len(reply)
        match = next((n for n in names if n == name or Path(n).stem == Path(name).stem), None)
        if match is not None and match not in out:
            out[match] = reply[end:stop].strip()
    if not marks and len(names) == 1 and reply.strip():
        out[names[0]] = reply.strip()
    return out


def first_json(text: str) -> Any:
    """The first balanced JSON object in a text, or None."""
    start = text.find("{")
    while start != -1:
        depth, in_str, esc = 0, False, False
        for i in range(start, len(text)):
            ch = text[i]
            if in_str:
                if esc:
                    esc = False
                elif ch == "\\":
                    esc = True
                elif ch == '"':
                    in_str = False
            elif ch == '"':
                in_str = True
            elif ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    try:
                        return json.loads(text[start : i + 1])
                    except ValueError:
                        break
        start = text.find("{", start + 1)
    return None


TABLE_SYSTEM = (
    "You read tables from financial filings exactly. Copy numbers as printed; never compute or guess."
)


def table_prompt(names: list[str]) -> str:
    """The table prompt: lists the exact file names and the answer format per file."""
    listing = "\n".join(f"- {n}" for n in names)
    return (
        f"You are given {len(names)} table image(s), in this order:\n{listing}\n\n"
        "For EACH file, answer exactly in this format:\n"
        "### FILE: <file name>\n"
        "DESCRIPTION: <2-3 sentences: what the table reports, its periods and units, notable values>\n"
        'JSON: {"title": "...", "units": "...", "columns": ["<period>", ...], '
        '"rows": [{"label": "...", "values": ["<cell as printed>", ...]}]}\n'
        "Use parentheses for negatives as printed. Do not skip any file."
    )


def parse_table_reply(reply: str, names: list[str]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Per file: (description, normalised table); a file without valid JSON is left out (it is retried)."""
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for name, section in split_by_file(reply, names).items():
        table = tab.normalise_model_table(first_json(section))
        if table is None:
            continue
        m = re.search(r"DESCRIPTION\s*:\s*(.+?)(?:\n\s*JSON\s*:|\{)", section, re.S | re.I)
        desc = m.group(1).strip() if m else ""
        out[name] = (desc, table)
    return out


FIGURE_SYSTEM_VLM = (
    "You summarise charts and figures from financial filings for an analyst. State the values shown with "
    "their labels, units and periods. Never invent numbers."
)


def figure_prompt(names: list[str]) -> str:
    """The figure prompt: lists the exact file names; 3-6 sentences each, or SKIP for decoration."""
    listing = "\n".join(f"- {n}" for n in names)
    return (
        f"You are given {len(names)} figure image(s), in this order:\n{listing}\n\n"
        "For EACH file, answer exactly in this format:\n"
        "### FILE: <file name>\n"
        "SUMMARY: <3-6 sentences stating what is shown and the values, with labels, units and periods>\n"
        "If an image is only a logo, photo or decoration with no information, write SUMMARY: SKIP"
    )


def parse_figure_reply(reply: str, names: list[str]) -> dict[str, str]:
    """Per file: the summary text ("SKIP" for decoration); empty answers are left out (retried)."""
    out: dict[str, str] = {}
    for name, section in split_by_file(reply, names).items():
        m = re.search(r"SUMMARY\s*:\s*(.+)", section, re.S | re.I)
        text = (m.group(1) if m else section).strip()
        if text:
            out[name] = "SKIP" if text.upper().startswith("SKIP") else text
    return out


# --- tables ----------------------------------------------------------------------------------------------


def stage_tables(ctx: IngestContext, pdf: Any, regions: list[Region]) -> None:
    """Crop, parse and describe every table; the table index is never left without text for a table."""
    t0 = time.perf_counter()
    s = ctx.settings
    crops = s.crops_dir / ctx.doc_id
    images = PageImages(pdf, s.render_dpi)
    vision = _optional_model(ctx, "vision")
    regions = sorted(regions, key=lambda r: (r.page, r.bbox[1]))
    total = len(regions)
    pages = {p.page: p for p in ctx.pages}
    ocr_pages_set = {row["page"] for row in ctx.store.pages(ctx.doc_id) if row.get("ocr")}
    parsed = 0
    pending: list[tuple[Region, VisionItem]] = []
    ctx.report("tables", 0, total, "reading table cells")
    for k, r in enumerate(regions):
        ctx.check_cancelled()
        if r.summary_method:
            _repair_crop(ctx, images, r, crops)
            continue  # done before a resume
        try:
            name = crop_name(r, k)
            path = images.crop(r, s.crop_padding, crops / name)
            r.crop_path = str(path)
            page = pages.get(r.page)
            words = page.words if page is not None else []
            source = "ocr" if r.page in ocr_pages_set else "textlayer"
            pad = 2.0
            box = (r.bbox[0] - pad, r.bbox[1] - pad, r.bbox[2] + pad, r.bbox[3] + pad)
            table = tab.parse_words(words, box, title=r.title, units=r.units, source=source)
            if table is not None:
                parsed += 1
                r.table = table
                r.units = r.units or table.get("units", "")
                if source not in r.method.split("+"):
                    r.method = f"{r.method}+{source}"
            if vision is not None:
                pending.append((r, VisionItem(name, path)))
                continue
            _describe_without_vision(ctx, r, words)
            ctx.store.update_region(r)
        except Cancelled:
            raise
        except Exception as exc:
            ctx.warn(f"page {r.page}: table failed ({type(exc).__name__}: {exc})")
            if not r.summary:
                r.summary, r.summary_method = f"Table on page {r.page}. {r.title}".strip(), "fallback"
                ctx.store.update_region(r)
        ctx.report("tables", k + 1, total, f"page {r.page}")
    if vision is not None and pending:
        _tables_with_vision(ctx, vision, pending, pages)
    ctx.record("tables", "done", f"{total} tables, {parsed} with cells from the text layer/OCR"
               + (", described by the vision model" if vision is not None else "") + _shrunk_note(ctx),
               time.perf_counter() - t0)


def _describe_without_vision(ctx: IngestContext, r: Region, words: Sequence[tab.Word]) -> None:
    if r.table is not None:
        r.summary = tab.describe_table(r.table, r.title, r.units)
        r.summary_method = "structure"
        if getattr(ctx.settings, "table_llm", False):
            text = _llm_summary(
                ctx,
                "You describe tables from financial filings in 2-3 sentences, naming periods, units and key rows.",
                f"Title: {r.title}\nUnits: {r.units}\n{tab.table_markdown(r.table, 25)}\n\nDescribe this table.",
            )
            if text:
                r.summary, r.summary_method = f"{text}\n{r.summary}", "structure+llm"
    else:
        inner = layout.text_in(words, r.bbox)
        r.summary = (f"Table: {r.title}. " if r.title else "Table. ") + re.sub(r"\s+", " ", inner)[:800]
        r.summary_method = "text"


def _tables_with_vision(
    ctx: IngestContext, vision: VisionModel, pending: list[tuple[Region, VisionItem]], pages: dict[int, Any]
) -> None:
    items = [it for _, it in pending]
    by_name = {it.name: r for r, it in pending}
    results, failed = run_vision(
        vision, items, table_prompt, parse_table_reply, _vision_batch(ctx), system=TABLE_SYSTEM,
        max_tokens=1024, check_cancelled=ctx.check_cancelled,
        on_batch=lambda d, t: ctx.report("tables", d, t, "vision model"), warn=ctx.warn,
        on_shrink=lambda n: _shrink_vision_batch(ctx, n),
    )
    for name, r in by_name.items():
        page = pages.get(r.page)
        words = page.words if page is not None else []
        if name in results:
            desc, model_table = results[name]
            reference = tab.table_numbers(r.table) if r.table else [
                n for w in layout.words_in(words, r.bbox) if (n := parse_cell(w[4])) is not None
            ]
            if reference:
                r.checks = tab.check_table_numbers(model_table, reference)
            if r.table is None:
                model_table["title"] = model_table.get("title") or r.title
                r.table = model_table
            r.method = f"{r.method}+vlm"
            r.summary = desc or tab.describe_table(r.table or model_table, r.title, r.units)
            r.summary_method = "vlm"
        else:
            _vision_failed(ctx, r, failed.get(name, "missing"))
            _describe_without_vision(ctx, r, words)
        ctx.store.update_region(r)


# --- figures ---------------------------------------------------------------------------------------------


def stage_figures(ctx: IngestContext, pdf: Any, regions: list[Region]) -> None:
    """Summarise every figure; decoration is dropped from the catalogue."""
    t0 = time.perf_counter()
    s = ctx.settings
    crops = s.crops_dir / ctx.doc_id
    images = PageImages(pdf, max(FIGURE_DPI, s.render_dpi))
    vision = _optional_model(ctx, "vision")
    regions = sorted(regions, key=lambda r: (r.page, r.bbox[1]))
    pages = {p.page: p for p in ctx.pages}
    total = len(regions)
    keep: list[Region] = []
    pending: list[tuple[Region, VisionItem]] = []
    ocr = None
    ocr_tried = False
    llm_budget = int(getattr(s, "figure_llm_max", 40)) if getattr(s, "figure_llm", True) else 0
    methods: dict[str, int] = {}
    ctx.report("figures", 0, total, "summarising figures")
    for k, r in enumerate(regions):
        ctx.check_cancelled()
        page = pages.get(r.page)
        if r.summary_method:
            _repair_crop(ctx, images, r, crops)
            keep.append(r)
            continue
        try:
            name = crop_name(r, k)
            path = images.crop(r, s.crop_padding, crops / name)
            r.crop_path = str(path)
            if vision is not None:
                keep.append(r)
                pending.append((r, VisionItem(name, path)))
                continue
            near = (r.bbox[0] - 24, r.bbox[1] - 6, r.bbox[2] + 12, r.bbox[3] + 18)  # axis labels sit just outside
            words = layout.words_in(page.words, near) if page is not None and page.has_text else []
            method = "textlayer"
            if len(words) < 3:
                if not ocr_tried:
                    ocr_tried = True
                    ocr = _optional_model(ctx, "ocr")
                if ocr is not None:
                    scale = images.dpi / 72.0
                    image = images.get(r.page)
                    pad = s.crop_padding
                    x0, y0 = max(0, int(r.bbox[0] * scale) - pad), max(0, int(r.bbox[1] * scale) - pad)
                    crop = image.crop((x0, y0, min(image.width, int(r.bbox[2] * scale) + pad),
                                       min(image.height, int(r.bbox[3] * scale) + pad)))
                    words = ocr_pages.ocr_words_to_points(ocr.read([crop])[0], scale, (x0 / scale, y0 / scale))
                    method = "ocr"
            page_w = page.width if page is not None else 612.0
            page_h = page.height if page is not None else 792.0
            if fig.is_decoration(r.bbox, page_w, page_h, n_words=len(words)):
                _remove_crop(path)
                continue
            ft = fig.group_figure_words(words, r.bbox)
            if not r.title and ft.title:
                r.title = " ".join(ft.title[:2])[:300]
            base = fig.figure_text_summary(ft, r.title)
            summary, summary_method = base, method
            if llm_budget > 0 and len(ft.lines) >= 2:
                llm_budget -= 1
                text = _llm_summary(ctx, fig.FIGURE_SYSTEM, fig.figure_llm_prompt(ft, r.title), max_tokens=120)
                if text:
                    summary, summary_method = f"{text}\n{base}", f"{method}+llm"
            r.summary, r.summary_method = summary, summary_method
            methods[summary_method] = methods.get(summary_method, 0) + 1
            keep.append(r)
            ctx.store.update_region(r)
        except Cancelled:
            raise
        except Exception as exc:
            ctx.warn(f"page {r.page}: figure failed ({type(exc).__name__}: {exc})")
            keep.append(r)
        ctx.report("figures", k + 1, total, f"page {r.page}")
    if vision is not None and pending:
        items = [it for _, it in pending]
        results, failed = run_vision(
            vision, items, figure_prompt, parse_figure_reply, _vision_batch(ctx), system=FIGURE_SYSTEM_VLM,
            max_tokens=300, check_cancelled=ctx.check_cancelled,
            on_batch=lambda d, t: ctx.report("figures", d, t, "vision model"), warn=ctx.warn,
            on_shrink=lambda n: _shrink_vision_batch(ctx, n),
        )
        for r, it in pending:
            if results.get(it.name) == "SKIP":
                keep.remove(r)
                _remove_crop(it.path)
                continue
            if it.name in results:
                r.summary, r.summary_method = results[it.name], "vlm"
            else:
                page = pages.get(r.page)
                words = layout.words_in(page.words, r.bbox) if page is not None else []
                r.summary = fig.figure_text_summary(fig.group_figure_words(words, r.bbox), r.title)
                r.summary_method = "textlayer"
                _vision_failed(ctx, r, failed.get(it.name, "missing"))
            methods[r.summary_method] = methods.get(r.summary_method, 0) + 1
    if len(keep) != len(regions) or pending:
        ctx.store.replace_regions(ctx.doc_id, keep, kinds=["figure"])
    dropped = len(regions) - len(keep)
    detail = f"{len(keep)} figures ({', '.join(f'{v} {k}' for k, v in sorted(methods.items()))})"
    if dropped:
        detail += f", {dropped} decorations skipped"
    if vision is not None and pending:
        detail += _shrunk_note(ctx)
    ctx.record("figures", "done", detail, time.perf_counter() - t0)


def _remove_crop(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


# --- models ----------------------------------------------------------------------------------------------


def _vision_batch(ctx: IngestContext) -> int:
    """Images per vision prompt for this document: ``Settings.vision_batch``, or less after an overflow."""
    return int(getattr(ctx, "_vision_batch_size", ctx.settings.vision_batch))


def _shrink_vision_batch(ctx: IngestContext, size: int) -> None:
    ctx._vision_batch_size = size  # type: ignore[attr-defined]


def _shrunk_note(ctx: IngestContext) -> str:
    """For a stage's record: the batch size in effect when an overflow made it smaller than the setting."""
    size = _vision_batch(ctx)
    return f", vision batch reduced to {size} after an overflow" if size < ctx.settings.vision_batch else ""


def _vision_failed(ctx: IngestContext, r: Region, reason: str) -> None:
    """Record why the vision model gave no answer for a region; an image too large even alone is an error
    on the region (``+vlm_overflow`` in its method) and a warning, and the stage goes on."""
    r.checks = [*r.checks, {"check": "vlm_failed", "reason": reason}]
    if reason.startswith(OVERFLOW_ALONE):
        r.method = f"{r.method}+vlm_overflow"
        ctx.warn(f"page {r.page}: {r.kind} image is {OVERFLOW_ALONE}; described without the vision model")


def _optional_model(ctx: IngestContext, role: str) -> Any:
    """A role's model, or None (with a warning) when it is off or fails to load."""
    try:
        return ctx.models.get(role)
    except EngineError as exc:
        ctx.warn(f"{role} model unavailable: {exc.message}")
        return None


def _llm_summary(ctx: IngestContext, system: str, prompt: str, max_tokens: int = 120) -> str:
    """A short completion from the text LLM; "" when no LLM is usable (remembered for the document)."""
    if getattr(ctx, "_no_llm", False):
        return ""
    try:
        llm = ctx.models.llm()
        gen = llm.chat(
            [ChatMessage("system", system), ChatMessage("user", prompt)],
            max_tokens=max_tokens,
            temperature=0.0,
            cancelled=ctx.cancelled,
        )
        return gen.text.strip()
    except Cancelled:
        raise
    except EngineError as exc:
        ctx.warn(f"text LLM unavailable for summaries: {exc.message}")
        ctx._no_llm = True  # type: ignore[attr-defined]
        return ""
    except Exception as exc:
        ctx.warn(f"text LLM failed on a summary: {type(exc).__name__}: {exc}")
        ctx._no_llm = True  # type: ignore[attr-defined]
        return ""

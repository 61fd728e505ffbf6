"""Reliability of the tables and figures stages: vision batches that shrink on overflow, crops written
atomically (and torn ones rendered again on resume), and a failing pdfplumber ``close()`` that never masks
the stage's own outcome."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from test_multimodal import FakeEmbedder, FakeLLM, FakeOcr, FakeVision, write_filing

from engine import Engine, Settings
from engine.ingest import regions as mm
from engine.ingest.pipeline import IngestContext
from engine.ingest.regions import OVERFLOW_ALONE, VisionItem, crop_complete, parse_table_reply, run_vision, table_prompt
from engine.models.llama_backend import VisionOverflow
from engine.models.protocols import VisionRequest
from engine.types import Region

# --- fakes ---------------------------------------------------------------------------------------------------


class OverflowingVision(FakeVision):
    """Answers like FakeVision, but overflows above ``fits`` images per prompt, or whenever a ``poison`` file
    is in the prompt (an image too large for the context even alone)."""

    def __init__(self, fits: int, poison: Sequence[str] = ()) -> None:
        super().__init__()
        self.fits = fits
        self.poison = set(poison)
        self.sizes: list[int] = []

    def describe(self, requests: Sequence[VisionRequest]) -> list[str]:
        images = requests[0].images
        self.sizes.append(len(images))
        if len(images) > self.fits or any(Path(p).name in self.poison for p in images):
            raise VisionOverflow(f"{len(images)} image(s) do not fit", images=len(images))
        return super().describe(requests)


def _items(tmp_path: Path, n: int) -> list[VisionItem]:
    out = []
    for i in range(n):
        p = tmp_path / f"p{i + 1:04d}-table-{i:03d}.png"
        p.write_bytes(b"png")
        out.append(VisionItem(p.name, p))
    return out


# --- run_vision: adaptive batch size ---------------------------------------------------------------------------


def test_overflow_halves_the_batch_for_the_rest_and_every_image_is_parsed(tmp_path: Path) -> None:
    items = _items(tmp_path, 9)
    vision = OverflowingVision(fits=2)
    warnings: list[str] = []
    shrunk: list[int] = []
    results, failed = run_vision(
        vision, items, table_prompt, parse_table_reply, batch=8, warn=warnings.append, on_shrink=shrunk.append
    )
    assert set(results) == {i.name for i in items} and not failed
    # 8 overflows -> 4, 4 overflows -> 2; the rest goes 2 at a time, never back to full size
    assert vision.sizes == [8, 4, 2, 2, 2, 2, 1]
    assert shrunk == [4, 2]
    assert len(warnings) == 2 and "sending 4 per prompt" in warnings[0] and "sending 2 per prompt" in warnings[1]


def test_a_short_last_batch_that_overflows_is_split_not_resent_whole(tmp_path: Path) -> None:
    items = _items(tmp_path, 3)
    vision = OverflowingVision(fits=1)
    results, failed = run_vision(vision, items, table_prompt, parse_table_reply, batch=4)
    assert set(results) == {i.name for i in items} and not failed
    assert vision.sizes == [3, 2, 1, 1, 1]


def test_an_image_that_overflows_alone_fails_with_a_reason_and_the_rest_go_on(tmp_path: Path) -> None:
    items = _items(tmp_path, 5)
    poison = items[1].name
    vision = OverflowingVision(fits=2, poison=[poison])
    results, failed = run_vision(vision, items, table_prompt, parse_table_reply, batch=4)
    assert set(results) == {i.name for i in items} - {poison}
    assert list(failed) == [poison] and failed[poison].startswith(OVERFLOW_ALONE)
    assert vision.sizes == [4, 2, 1, 1, 1, 1, 1]
    assert sum(1 for n in vision.sizes if n == 1) == 5  # each image alone once: no retry of the one that failed


# --- the stages with a vision model that overflows -------------------------------------------------------------


@pytest.fixture
def ingested(tmp_path: Path) -> Iterator[tuple[Engine, str, Path, OverflowingVision]]:
    """A filing ingested with a vision model that takes up to 4 images; yields (engine, doc_id, pdf, vision)."""
    pdf = write_filing(tmp_path / "f.pdf")
    settings = Settings(data_dir=tmp_path / "data", extract_workers=1, vision_batch=4)
    vision = OverflowingVision(fits=4)
    engine = Engine(
        settings,
        overrides={
            "embedder": FakeEmbedder(),
            "detector": None,
            "ocr": FakeOcr(),
            "llm": FakeLLM(),
            "vision": vision,
            "reranker": None,
        },
    )
    res = engine.ingest([pdf])[0]
    assert res.ok, res.error
    yield engine, res.doc_id, pdf, vision
    engine.close()


def _context(engine: Engine, doc_id: str, pdf: Path) -> IngestContext:
    return IngestContext(
        doc_id=doc_id,
        path=pdf,
        settings=engine.settings,
        store=engine.store,
        models=engine.models,
        pages=[],
        report=lambda *a: None,
        cancelled=lambda: False,
    )


def _boxes(engine: Engine, doc_id: str, kind: str, n: int) -> list[Region]:
    regions = [
        Region(
            id=0,
            doc_id=doc_id,
            page=1,
            kind=kind,
            bbox=(60.0, 60.0 + 110 * k, 520.0, 150.0 + 110 * k),
            method="test",
            title=f"{kind} {k}",
        )
        for k in range(n)
    ]
    engine.store.replace_regions(doc_id, regions, kinds=[kind])
    return regions


def test_stages_shrink_the_batch_per_document_and_record_an_image_too_large_alone(
    ingested: tuple[Engine, str, Path, OverflowingVision],
) -> None:
    engine, doc_id, pdf, vision = ingested
    poison = "p0001-table-002.png"
    vision.fits, vision.poison = 2, {poison}
    vision.sizes.clear()
    ctx = _context(engine, doc_id, pdf)
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        mm.stage_tables(ctx, doc, _boxes(engine, doc_id, "table", 5))
        assert vision.sizes == [4, 2, 2, 1, 1, 1]
        tables = engine.regions(doc_id, kind="table")
        assert len(tables) == 5
        ok = [t for t in tables if t.summary_method == "vlm"]
        assert len(ok) == 4 and all(t.table is not None for t in ok)
        bad = next(t for t in tables if Path(t.crop_path).name == poison)
        assert bad.method.endswith("+vlm_overflow") and bad.summary  # described without the vision model
        assert bad.checks[-1]["check"] == "vlm_failed" and bad.checks[-1]["reason"].startswith(OVERFLOW_ALONE)
        assert any("sending 2 per prompt" in w for w in ctx.warnings)
        assert any("sending 1 per prompt" in w for w in ctx.warnings)
        assert any(w.startswith("page 1: table image is too large") for w in ctx.warnings)
        assert "vision batch reduced to 1" in engine.store.stages(doc_id)["tables"]["detail"]

        # the rest of the document starts at the smaller size
        vision.sizes.clear()
        mm.stage_figures(ctx, doc, _boxes(engine, doc_id, "figure", 3))
        assert vision.sizes == [1, 1, 1]
        assert all(f.summary_method == "vlm" for f in engine.regions(doc_id, kind="figure"))
    finally:
        doc.close()


# --- crops -------------------------------------------------------------------------------------------------------


def test_crop_is_written_through_a_temp_file_and_a_failed_write_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PIL import Image

    page = Image.new("RGB", (200, 200), "white")
    images = mm.PageImages(pdf=None, dpi=72)
    monkeypatch.setattr(images, "get", lambda n: page)
    region = Region(id=1, doc_id="d", page=1, kind="table", bbox=(10.0, 10.0, 100.0, 100.0), method="test")
    out = tmp_path / "crops" / "p0001-table-000.png"
    images.crop(region, 4, out)
    assert crop_complete(out) and list(out.parent.iterdir()) == [out]
    good = out.read_bytes()

    def torn_save(self: Image.Image, fp: Any, *args: Any, **kwargs: Any) -> None:
        Path(fp).write_bytes(good[:20])  # killed mid-write
        raise OSError("No space left on device")

    monkeypatch.setattr(Image.Image, "save", torn_save)
    with pytest.raises(OSError):
        images.crop(region, 4, out)
    assert out.read_bytes() == good and list(out.parent.iterdir()) == [out]


def test_a_torn_crop_is_rendered_again_on_the_next_run(
    ingested: tuple[Engine, str, Path, OverflowingVision],
) -> None:
    engine, doc_id, pdf, _ = ingested
    ctx = _context(engine, doc_id, pdf)
    import pypdfium2 as pdfium

    table = engine.regions(doc_id, kind="table")[0]
    figure = engine.regions(doc_id, kind="figure")[0]
    for r in (table, figure):
        path = Path(r.crop_path)
        assert r.summary_method and crop_complete(path)
        path.write_bytes(path.read_bytes()[:40])  # a crop torn by a kill (or by an older, non-atomic write)
        assert not crop_complete(path)
    doc = pdfium.PdfDocument(str(pdf))
    try:
        # resume: finished regions keep their answers, and their torn crops are rendered again
        mm.stage_tables(ctx, doc, engine.regions(doc_id, kind="table"))
        mm.stage_figures(ctx, doc, engine.regions(doc_id, kind="figure"))
        for r in (table, figure):
            assert crop_complete(Path(r.crop_path))
        assert engine.regions(doc_id, kind="table")[0].summary == table.summary
        # a region not finished yet: the torn file at its crop path is replaced too
        redo = engine.regions(doc_id, kind="table")
        Path(redo[0].crop_path).write_bytes(b"\x89PNG\r\n\x1a\n")
        redo[0].summary_method = ""
        mm.stage_tables(ctx, doc, redo)
        assert crop_complete(Path(engine.regions(doc_id, kind="table")[0].crop_path))
    finally:
        doc.close()
    crops = Path(table.crop_path).parent
    assert not [p for p in crops.iterdir() if p.name.endswith(".tmp")]


# --- a pdfplumber close() that raises ------------------------------------------------------------------------------


class ClosingBadly:
    """A pdfplumber document with no pages whose ``close()`` raises."""

    pages: list[Any] = []

    def __init__(self) -> None:
        self.closed = 0

    def close(self) -> None:
        self.closed += 1
        raise RuntimeError("page tree walked again and broke")


def _engine_without_detector(tmp_path: Path) -> Engine:
    settings = Settings(data_dir=tmp_path / "data", extract_workers=1)
    return Engine(
        settings,
        overrides={
            "embedder": FakeEmbedder(),
            "detector": None,
            "ocr": FakeOcr(),
            "llm": FakeLLM(),
            "vision": None,
            "reranker": None,
        },
    )


def test_a_failing_plumber_close_does_not_fail_a_detect_that_succeeded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    plumber = ClosingBadly()
    monkeypatch.setattr(mm, "_open_plumber", lambda ctx: plumber)
    engine = _engine_without_detector(tmp_path)
    with caplog.at_level(logging.WARNING, logger="engine.ingest.regions"):
        res = engine.ingest([write_filing(tmp_path / "f.pdf")])[0]
    assert res.ok and res.status == "ingested", res.error
    assert plumber.closed == 1
    assert engine.document(res.doc_id).stages["detect"].startswith("done")
    assert engine.regions(res.doc_id, kind="table")  # found from the PDF's geometry
    assert any("closing pdfplumber failed" in r.getMessage() and r.levelno == logging.WARNING for r in caplog.records)
    engine.close()


def test_a_failing_plumber_close_does_not_mask_the_original_exception(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plumber = ClosingBadly()
    monkeypatch.setattr(mm, "_open_plumber", lambda ctx: plumber)
    engine = _engine_without_detector(tmp_path)
    seen: list[str] = []
    res = engine.ingest(
        [write_filing(tmp_path / "f.pdf")],
        on_progress=lambda p: seen.append(p.stage),
        cancelled=lambda: "detect" in seen,
    )[0]
    assert plumber.closed == 1
    assert res.status == "cancelled", (res.status, res.error)  # not the RuntimeError raised by close()
    assert not engine.store.stages(res.doc_id).get("detect")
    engine.close()

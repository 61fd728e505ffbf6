"""The region stages with the packaged real models (DocLayNet YOLO ONNX, RapidOCR), kept to a few pages.

Marked ``real_models``; the ones reading real filings are also ``eval_data`` and skip where
``../shared/data/eval`` is absent. The embedder and text LLM are fakes here (they have their own tests), and
the network is blocked to prove that ultralytics and rapidocr never reach for it.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_multimodal import FakeEmbedder, FakeLLM, write_filing

from engine import Engine, Settings
from engine.ingest.tables import table_numbers

EVAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "eval"

pytestmark = pytest.mark.real_models


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Any attempt to open a network connection fails the test."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"network access attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    yield


def real_engine(tmp_path: Path, **changes: Any) -> Engine:
    settings = Settings(data_dir=tmp_path / "data", extract_workers=1, **changes)
    return Engine(settings, overrides={"embedder": FakeEmbedder(), "llm": FakeLLM(), "vision": None,
                                       "reranker": None})


def subset(src: Path, pages0: list[int], dst: Path) -> Path:
    """Copy some pages (0-indexed) of a PDF into a new small PDF."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(src))
    out = pdfium.PdfDocument.new()
    out.import_pages(pdf, pages0)
    out.save(str(dst))
    out.close()
    pdf.close()
    return dst


def test_yolo_finds_the_generated_statement(tmp_path: Path) -> None:
    pdf = write_filing(tmp_path / "ACME_2023_10K.pdf")
    engine = real_engine(tmp_path)
    res = engine.ingest([pdf])[0]
    assert res.ok, res.error
    assert "yolov8n-doclaynet" in engine.document(res.doc_id).stages["detect"]
    tables = engine.regions(res.doc_id, kind="table")
    assert tables and any(t.method.startswith("yolo") for t in tables)
    assert any(1234 in table_numbers(t.table) for t in tables)
    assert engine.regions(res.doc_id, kind="figure")
    engine.close()


@pytest.mark.eval_data
@pytest.mark.skipif(not (EVAL / "financebench" / "pdfs" / "3M_2018_10K.pdf").exists(),
                    reason="needs ../shared/data/eval")
def test_real_10k_cash_flow_statement(tmp_path: Path) -> None:
    pdf = subset(EVAL / "financebench" / "pdfs" / "3M_2018_10K.pdf", [0, 59], tmp_path / "3m.pdf")
    engine = real_engine(tmp_path)
    res = engine.ingest([pdf])[0]
    assert res.ok, res.error
    tables = engine.regions(res.doc_id, page=2, kind="table")
    assert len(tables) == 1
    t = tables[0]
    assert "yolo" in t.method and "textlayer" in t.method
    assert t.table is not None and t.table["columns"] == ["2018", "2017", "2016"]
    assert t.table["scale"] == 1e6
    rows = {r["label"]: r["numbers"] for r in t.table["rows"]}
    assert rows["Purchases of property, plant and equipment (PP&E)"] == [-1577, -1373, -1420]
    meta = engine.document(res.doc_id)
    assert meta.form_type == "10-K" and meta.fiscal_period == "FY2018"
    engine.close()


def _parsee_case() -> tuple[Path, list[float]] | None:
    dev = EVAL / "dev.jsonl"
    if not dev.exists():
        return None
    for line in dev.read_text().splitlines():
        rec = json.loads(line)
        if rec.get("source") == "parsee_finrag_image" and rec.get("evidence"):
            answers = json.loads(rec["answer"]).get("answers", [])
            values = [float(a["main_question"]) for a in answers if a.get("main_question")]
            return EVAL / rec["evidence"][0]["doc"], values
    return None


@pytest.mark.eval_data
@pytest.mark.skipif(_parsee_case() is None, reason="needs ../shared/data/eval with parsee image PDFs")
def test_scanned_statement_through_rapidocr(tmp_path: Path) -> None:
    case = _parsee_case()
    assert case is not None
    path, values = case
    pdf = subset(path, [0], tmp_path / "scan.pdf")
    engine = real_engine(tmp_path)
    res = engine.ingest([pdf])[0]
    assert res.ok, res.error
    page = engine.page_text(res.doc_id, 1)
    assert page["ocr"] == 1 and len(page["words"]) > 50
    tables = engine.regions(res.doc_id, kind="table")
    assert tables and all("ocr" in t.method for t in tables)
    numbers = [abs(n) for t in tables for n in table_numbers(t.table)]
    assert any(abs(v) in numbers for v in values), (values, numbers[:40])
    engine.close()


@pytest.mark.eval_data
@pytest.mark.skipif(not (EVAL / "mmlongbench_doc" / "documents_chart").exists(), reason="needs chart PDFs")
def test_chart_pages_get_figure_summaries(tmp_path: Path) -> None:
    src = EVAL / "mmlongbench_doc" / "documents_chart" / "PIP_Seniors-and-Tech-Use_040314.pdf"
    if not src.exists():
        pytest.skip("chart PDF not present")
    pdf = subset(src, [3, 15], tmp_path / "charts.pdf")
    engine = real_engine(tmp_path)
    res = engine.ingest([pdf])[0]
    assert res.ok, res.error
    figures = engine.regions(res.doc_id, kind="figure")
    assert figures
    assert all(f.summary and f.summary_method for f in figures)
    assert any(any(ch.isdigit() for ch in f.summary) for f in figures)
    engine.close()


def test_packaged_models_load_offline_and_handle_blank_images(tmp_path: Path) -> None:
    from PIL import Image

    engine = real_engine(tmp_path)
    detector = engine.models.detector()
    ocr = engine.models.ocr()
    assert detector is not None and ocr is not None
    assert detector.detect([Image.new("RGB", (600, 800), "white")]) == [[]]
    assert ocr.read([Image.new("RGB", (64, 32), "white")]) == [[]]
    engine.close()

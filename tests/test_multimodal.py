"""The region stages end to end through ``Engine.ingest`` with fake models, and the vision batching logic."""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine import Engine, Settings
from engine.ask.question import parse
from engine.ingest.regions import (
    VisionItem,
    first_json,
    parse_figure_reply,
    parse_table_reply,
    run_vision,
    split_by_file,
    table_prompt,
)
from engine.ingest.tables import table_numbers
from engine.models.protocols import ChatMessage, Detection, Generation, OcrWord, VisionRequest

# --- a small born-digital filing page, drawn with matplotlib (real text layer, vector chart) ----------------

TABLE_BOX = (60.0, 70.0, 520.0, 200.0)
"""Where the statement sits on page 1, in PDF points."""


def write_filing(path: Path, scanned_page: bool = False) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages

    matplotlib.rcParams["pdf.fonttype"] = 42

    def at(fig: Any, x: float, y: float, text: str, **kw: Any) -> None:
        fig.text(x / 612, 1 - y / 792, text, fontsize=9, va="top", **kw)

    with PdfPages(path) as pdf:
        fig = plt.figure(figsize=(8.5, 11))
        at(fig, 60, 50, "Consolidated Statements of Operations")
        at(fig, 60, 64, "(In millions, except per share amounts)")
        at(fig, 420, 84, "2023", ha="right")
        at(fig, 500, 84, "2022", ha="right")
        rows = [("Revenue", "$ 1,234", "$ 1,100"), ("Cost of sales", "(456)", "(400)"),
                ("Gross profit", "778", "700"), ("Other income, net", "—", "12"),
                ("Net income", "$ 790", "$ 712")]
        for k, (label, a, b) in enumerate(rows):
            y = 100 + 16 * k
            at(fig, 60, y, label)
            at(fig, 420, y, a, ha="right")
            at(fig, 500, y, b, ha="right")
        at(fig, 60, 240, "Revenue by segment")
        ax = fig.add_axes((100 / 612, 1 - 520 / 792, 400 / 612, 250 / 792))
        ax.bar(["Cloud", "Devices", "Services"], [620, 380, 234], color=["#336", "#669", "#99c"])
        for i, v in enumerate([620, 380, 234]):
            ax.text(i, v + 10, f"{v}", ha="center", fontsize=8)
        ax.set_ylabel("$ millions")
        pdf.savefig(fig)
        plt.close(fig)
        fig = plt.figure(figsize=(8.5, 11))
        if scanned_page:
            img = np.full((792, 612), 0.95)  # a full-page scan at 72 dpi: no text layer
            img[200:210, 60:400] = 0.1
            fig.figimage(img, xo=0, yo=0)
        else:
            at(fig, 60, 60, "Notes to the statements. Revenue is recognised when control passes.")
        pdf.savefig(fig)
        plt.close(fig)
    return path


# --- fakes ---------------------------------------------------------------------------------------------------


class FakeEmbedder:
    """crc32-hashed words, unit length."""

    name = "fake-embedder"
    dim = 64

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in re.findall(r"\w+", t.lower()):
                out[i, zlib.crc32(w.encode()) % self.dim] += 1.0
            out[i] /= max(1e-6, float(np.linalg.norm(out[i])))
            if not out[i].any():
                out[i, 0] = 1.0
        return out


class FakeDetector:
    """Finds the statement on page 1 (pixel boxes at the settings' render dpi)."""

    name = "fake-detector"

    def __init__(self, dpi: int) -> None:
        self.scale = dpi / 72.0
        self.calls: list[int] = []

    def detect(self, images: Sequence[Any]) -> list[list[Detection]]:
        self.calls.append(len(images))
        out: list[list[Detection]] = [[] for _ in images]
        s = self.scale
        out[0] = [
            Detection("table", tuple(v * s for v in TABLE_BOX), 0.9, "Table"),  # type: ignore[arg-type]
            Detection("title", (58 * s, 48 * s, 300 * s, 62 * s), 0.8, "Section-header"),
        ]
        return out


class FakeOcr:
    name = "fake-ocr"

    def __init__(self) -> None:
        self.calls = 0

    def read(self, images: Sequence[Any]) -> list[list[OcrWord]]:
        self.calls += 1
        out = []
        for _ in images:
            words = []
            for k, (label, value) in enumerate([("Revenue", "5,000"), ("Expenses", "(1,200)"), ("Profit", "3,800")]):
                y = 200 + 30 * k
                words.append(OcrWord(label, (100, y, 220, y + 20), 0.99))
                words.append(OcrWord(value, (600, y, 700, y + 20), 0.99))
                words.append(OcrWord(value, (800, y, 900, y + 20), 0.99))
            out.append(words)
        return out


class FakeLLM:
    name = "fake-llm"
    context_tokens = 4096

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def chat(self, messages: Sequence[ChatMessage], *, max_tokens: int = 256, temperature: float = 0.0,
             on_token: Any = None, cancelled: Any = None) -> Generation:
        self.prompts.append(messages[-1].content)
        return Generation(text="The chart shows revenue by segment: Cloud 620, Devices 380, Services 234.")

    def count_tokens(self, text: str) -> int:
        return len(text.split())


class FakeVision:
    """Answers in the requested format, except for files listed in ``drop`` (left out of batch answers)."""

    name = "fake-vision"

    def __init__(self, drop: Sequence[str] = (), garbage: bool = False) -> None:
        self.requests: list[VisionRequest] = []
        self.drop = set(drop)
        self.garbage = garbage

    def describe(self, requests: Sequence[VisionRequest]) -> list[str]:
        out = []
        for req in requests:
            self.requests.append(req)
            if self.garbage:
                out.append("I cannot see any images, sorry.")
                continue
            parts = []
            for img in req.images:
                if img.name in self.drop and len(req.images) > 1:
                    continue
                if "-table-" in img.name:
                    parts.append(
                        f"### FILE: {img.name}\nDESCRIPTION: Income statement for 2023 and 2022.\n"
                        'JSON: {"title": "Operations", "units": "millions", "columns": ["2023", "2022"], '
                        '"rows": [{"label": "Revenue", "values": ["1,234", "1,100"]}, '
                        '{"label": "Net income", "values": ["791", "712"]}]}'
                    )
                else:
                    parts.append(f"### FILE: {img.name}\nSUMMARY: Bars: Cloud 620, Devices 380, Services 234.")
            out.append("\n\n".join(parts))
        return out


def make_engine(tmp_path: Path, settings_changes: dict[str, Any] | None = None, **overrides: Any) -> Engine:
    settings = Settings(data_dir=tmp_path / "data", extract_workers=1, figure_llm=True, **(settings_changes or {}))
    base: dict[str, Any] = {
        "embedder": FakeEmbedder(),
        "detector": FakeDetector(settings.render_dpi),
        "ocr": FakeOcr(),
        "llm": FakeLLM(),
        "vision": None,
        "reranker": None,
    }
    base.update(overrides)
    return Engine(settings, overrides=base)


# --- ingestion with fakes ------------------------------------------------------------------------------------


def test_ingest_finds_parses_and_describes_without_vision(tmp_path: Path) -> None:
    pdf = write_filing(tmp_path / "ACME_2023_10K.pdf")
    engine = make_engine(tmp_path)
    events: list[tuple[str, int, int]] = []
    res = engine.ingest([pdf], on_progress=lambda p: events.append((p.stage, p.done, p.total)))[0]
    assert res.ok, res.error
    stages = {e[0] for e in events}
    assert {"render", "detect", "tables", "figures"} <= stages
    doc = engine.document(res.doc_id)
    for stage in ("render", "detect", "tables", "figures"):
        assert doc.stages[stage].startswith("done"), doc.stages
    tables = engine.regions(res.doc_id, kind="table")
    assert len(tables) == 1
    t = tables[0]
    assert t.page == 1 and t.method.startswith("yolo") and "textgrid" in t.method and "textlayer" in t.method
    assert t.title == "Consolidated Statements of Operations"
    assert "millions" in t.units
    assert t.table is not None and t.table["columns"] == ["2023", "2022"]
    rows = {r["label"]: r["numbers"] for r in t.table["rows"]}
    assert rows["Revenue"] == [1234, 1100]
    assert rows["Cost of sales"] == [-456, -400]
    assert rows["Other income, net"] == [None, 12]
    assert t.summary_method == "structure" and "Revenue" in t.summary
    assert Path(t.crop_path).is_file() and Path(t.crop_path).parent.name == res.doc_id
    figures = engine.regions(res.doc_id, kind="figure")
    assert len(figures) == 1, [(f.method, f.bbox) for f in figures]
    f = figures[0]
    assert f.method == "drawing" and f.summary_method == "textlayer+llm"
    assert "620" in f.summary and "Cloud" in f.summary
    assert res.stage_seconds.get("detect", 0) > 0
    assert engine.document(res.doc_id).form_type == "10-K"
    engine.close()


def test_detector_looks_only_at_pages_the_text_layer_cannot_explain(tmp_path: Path) -> None:
    pdf = write_filing(tmp_path / "ACME_2023_10K.pdf")  # page 1: a statement and a chart; page 2: one line of prose
    detector = FakeDetector(110)
    engine = make_engine(tmp_path, detector=detector)
    res = engine.ingest([pdf])[0]
    assert res.ok, res.error
    assert detector.calls == [1]  # page 1 only
    assert "on 1 of 2 pages" in engine.document(res.doc_id).stages["detect"]
    assert [t.method.split("+")[0] for t in engine.regions(res.doc_id, kind="table")] == ["yolo"]
    engine.close()
    every = FakeDetector(110)
    engine = make_engine(tmp_path / "all", {"detect_all_pages": True}, detector=every)
    assert engine.ingest([pdf])[0].ok
    assert every.calls == [2]
    engine.close()


def test_each_detector_call_gets_a_full_batch_of_pages_that_need_it(tmp_path: Path) -> None:
    """Prose pages between statements do not cut the detector's calls short: its streams share out full calls
    of DETECT_BATCH pages, made while the next pages are read, and every statement page still gets its table in
    page order."""
    import pypdfium2 as pdfium

    from engine.ingest.regions import DETECT_BATCH

    one = write_filing(tmp_path / "one.pdf")  # page 1: a statement and a chart; page 2: one line of prose
    src, book = pdfium.PdfDocument(str(one)), pdfium.PdfDocument.new()
    for _ in range(DETECT_BATCH + 2):
        book.import_pages(src)
    book.save(str(tmp_path / "ACME_2023_10K.pdf"))
    book.close()
    src.close()
    import threading

    class Recording(FakeDetector):
        def detect(self, images: Sequence[Any]) -> list[list[Detection]]:
            threads.append(threading.get_ident())
            return super().detect(images)

    threads: list[int] = []
    detector = Recording(110)
    engine = make_engine(tmp_path, detector=detector)
    res = engine.ingest([tmp_path / "ACME_2023_10K.pdf"])[0]
    assert res.ok, res.error
    assert detector.calls == [DETECT_BATCH, 2]  # not 4, 4, 2: half of every 8 pages is prose
    # it detects on a thread of its own while the ingesting thread reads and renders the next pages
    assert threading.get_ident() not in threads
    tables = engine.regions(res.doc_id, kind="table")
    assert [t.page for t in tables] == list(range(1, 2 * (DETECT_BATCH + 2), 2))
    engine.close()


def test_region_stages_resume_without_redoing_work(tmp_path: Path) -> None:
    pdf = write_filing(tmp_path / "f.pdf")
    detector = FakeDetector(110)
    engine = make_engine(tmp_path, detector=detector)
    res = engine.ingest([pdf])[0]
    before = [(r.id, r.summary) for r in engine.regions(res.doc_id)]
    calls = len(detector.calls)
    from engine.ingest.pipeline import IngestContext
    from engine.ingest.regions import analyse

    ctx = IngestContext(
        doc_id=res.doc_id, path=pdf, settings=engine.settings, store=engine.store, models=engine.models,
        pages=[], report=lambda *a: None, cancelled=lambda: False,
    )
    analyse(ctx)
    assert len(detector.calls) == calls
    assert [(r.id, r.summary) for r in engine.regions(res.doc_id)] == before
    engine.close()


def test_cancel_between_batches_then_resume(tmp_path: Path) -> None:
    pdf = write_filing(tmp_path / "f.pdf")
    engine = make_engine(tmp_path)
    seen: list[str] = []

    def cancelled() -> bool:
        return "tables" in seen

    res = engine.ingest([pdf], on_progress=lambda p: seen.append(p.stage), cancelled=cancelled)[0]
    assert res.status == "cancelled"
    res2 = engine.ingest([pdf])[0]
    assert res2.ok and res2.status == "resumed"
    assert engine.regions(res2.doc_id, kind="table")[0].table is not None
    engine.close()


def test_scanned_page_is_ocrd_into_the_text_layer_and_tables(tmp_path: Path) -> None:
    pdf = write_filing(tmp_path / "scan.pdf", scanned_page=True)
    ocr = FakeOcr()
    engine = make_engine(tmp_path, ocr=ocr)
    res = engine.ingest([pdf])[0]
    assert res.ok
    page = engine.page_text(res.doc_id, 2)
    assert page["ocr"] == 1 and page["has_text"] == 1 and "Revenue" in page["text"]
    assert ocr.calls >= 1
    scanned_tables = engine.regions(res.doc_id, page=2, kind="table")
    assert scanned_tables, engine.regions(res.doc_id)
    t = scanned_tables[0]
    assert "ocr" in t.method and t.table is not None
    assert -1200 in table_numbers(t.table) and 3800 in table_numbers(t.table)
    assert not engine.regions(res.doc_id, page=2, kind="figure")  # the scan itself is not a figure
    engine.close()


def test_no_detector_uses_pdf_geometry(tmp_path: Path) -> None:
    pdf = write_filing(tmp_path / "geo.pdf")
    engine = make_engine(tmp_path, detector=None)
    res = engine.ingest([pdf])[0]
    tables = engine.regions(res.doc_id, kind="table")
    assert len(tables) == 1 and tables[0].method.startswith("textgrid")
    assert 1234 in table_numbers(tables[0].table)
    assert "PDF geometry" in engine.document(res.doc_id).stages["detect"]
    engine.close()


def test_vision_model_describes_tables_and_figures_checked_against_text(tmp_path: Path) -> None:
    pdf = write_filing(tmp_path / "v.pdf")
    vision = FakeVision()
    engine = make_engine(tmp_path, vision=vision)
    res = engine.ingest([pdf])[0]
    t = engine.regions(res.doc_id, kind="table")[0]
    assert t.summary_method == "vlm" and t.summary.startswith("Income statement")
    assert t.table is not None and t.table["source"] == "textlayer"  # exact cells stay from the text layer
    assert [c["value"] for c in t.checks] == ["791"]  # the model misread 790
    f = engine.regions(res.doc_id, kind="figure")[0]
    assert f.summary_method == "vlm" and "Cloud 620" in f.summary
    for req in vision.requests:
        for img in req.images:
            assert img.name in req.prompt
    engine.close()


# --- vision batching -----------------------------------------------------------------------------------------


def _items(tmp_path: Path, n: int, kind: str = "table") -> list[VisionItem]:
    out = []
    for i in range(n):
        p = tmp_path / f"p{i + 1:04d}-{kind}-{i:03d}.png"
        p.write_bytes(b"png")
        out.append(VisionItem(p.name, p))
    return out


def test_run_vision_batches_and_retries_missing_files_alone(tmp_path: Path) -> None:
    items = _items(tmp_path, 5)
    vision = FakeVision(drop=[items[1].name])
    results, failed = run_vision(vision, items, table_prompt, parse_table_reply, batch=2)
    assert set(results) == {i.name for i in items} and not failed
    sizes = [len(r.images) for r in vision.requests]
    assert sizes == [2, 2, 1, 1]  # three batches, then the dropped file alone
    assert vision.requests[-1].images == [items[1].path]
    desc, table = results[items[0].name]
    assert desc.startswith("Income") and table["rows"][0]["numbers"] == [1234, 1100]


def test_run_vision_records_files_that_fail_even_alone(tmp_path: Path) -> None:
    items = _items(tmp_path, 3)
    vision = FakeVision(garbage=True)
    results, failed = run_vision(vision, items, table_prompt, parse_table_reply, batch=4)
    assert results == {} and set(failed) == {i.name for i in items}
    assert [len(r.images) for r in vision.requests] == [3, 1, 1, 1]


def test_run_vision_survives_a_model_error_in_a_batch(tmp_path: Path) -> None:
    items = _items(tmp_path, 2, "figure")

    class Overflowing(FakeVision):
        def describe(self, requests: Sequence[VisionRequest]) -> list[str]:
            if len(requests[0].images) > 1:
                raise RuntimeError("too many images for the context")
            return super().describe(requests)

    warnings: list[str] = []
    results, failed = run_vision(Overflowing(), items, table_prompt, parse_figure_reply, batch=2,
                                 warn=warnings.append)
    assert set(results) == {i.name for i in items} and warnings


def test_reply_parsing_aligns_by_file_name_and_rejects_bad_json() -> None:
    names = ["p0001-table-000.png", "p0002-table-001.png", "p0003-table-002.png"]
    reply = (
        "### FILE: p0002-table-001.png\nDESCRIPTION: Second.\nJSON: {\"rows\": [[\"A\", \"1\"]]}\n"
        "**File:** p0001-table-000.png\nDESCRIPTION: First.\nJSON: {\"rows\": [{\"label\": \"B\", \"values\": [2]}\n"
        "FILE: p0003-table-002\nDESCRIPTION: Third.\nJSON: {\"rows\": [{\"label\": \"C\", \"values\": [\"(3)\"]}]}"
    )
    sections = split_by_file(reply, names)
    assert list(sections) == [names[1], names[0], names[2]]
    parsed = parse_table_reply(reply, names)
    assert set(parsed) == {names[1], names[2]}  # the first file's JSON is cut off: retried
    assert parsed[names[2]][1]["rows"][0]["numbers"] == [-3]
    assert first_json('x {"a": "}"} y') == {"a": "}"}
    assert first_json("no json") is None
    assert parse_figure_reply("SUMMARY: SKIP", ["logo.png"]) == {"logo.png": "SKIP"}


@pytest.mark.tiny_gguf
def test_real_tiny_vlm_through_mtmd_malformed_output_falls_back(
    tmp_path: Path, tiny_llama_path: Path, tiny_mmproj_path: Path
) -> None:
    """The tiny GGUF + mmproj answer a fixed sentence: no file markers, no JSON. Every table is retried
    alone, then falls back to its text-layer description; figures keep the model's one-image answer."""
    pytest.importorskip("llama_cpp")
    from tiny_gguf import SCRIPT

    from engine.models.llama_backend import LlamaVision

    vision = LlamaVision.load(tiny_llama_path, tiny_mmproj_path, use_gpu=False, n_ctx=2048, n_batch=256,
                              n_threads=1, n_threads_batch=1)
    try:
        items = _items(tmp_path, 3)
        from PIL import Image

        for it in items:
            Image.new("RGB", (32, 32), "white").save(it.path)
        results, failed = run_vision(vision, items, table_prompt, parse_table_reply, batch=2)
        assert results == {} and set(failed) == {i.name for i in items}
        fig_items = _items(tmp_path, 2, "figure")
        for it in fig_items:
            Image.new("RGB", (32, 32), "white").save(it.path)
        summaries, failed = run_vision(vision, fig_items, table_prompt, parse_figure_reply, batch=2)
        assert summaries == {it.name: SCRIPT for it in fig_items} and not failed
    finally:
        vision.close()


def test_reindex_regions_re_embeds_tables_and_figures_from_the_catalogue(tmp_path: Path) -> None:
    pdf = write_filing(tmp_path / "ACME_2023_10K.pdf")
    embedder = FakeEmbedder()
    engine = make_engine(tmp_path, embedder=embedder)
    res = engine.ingest([pdf])[0]
    text_before = [(c.id, c.text) for c in engine.store.chunks(doc_ids=[res.doc_id], modality="text")]
    [old_table] = engine.store.chunks(doc_ids=[res.doc_id], modality="table")
    # an older build embedded other words for the table: the index entry is replaced, not duplicated
    with engine.store.write() as db:
        db.execute("UPDATE chunks SET text = 'stale words' WHERE id = ?", (old_table.id,))
    done = engine.reindex_regions()
    assert done == {"ACME_2023_10K": {"table": 1, "image": 1}}
    [table] = engine.store.chunks(doc_ids=[res.doc_id], modality="table")
    assert table.id != old_table.id and table.text.startswith("Consolidated Statements of Operations")
    assert engine.indexes["table"].keys() == {table.id}
    assert [(c.id, c.text) for c in engine.store.chunks(doc_ids=[res.doc_id], modality="text")] == text_before
    hits = engine.retrieve("revenue cost of sales statements of operations", scope=[res.doc_id]).evidence
    assert any(e.modality == "table" and e.page == 1 for e in hits)
    engine.close()


def test_statement_channel_brings_the_statement_a_question_needs(tmp_path: Path) -> None:
    from engine.ask.retrieve import STATEMENT_PIN

    pdf = write_filing(tmp_path / "ACME_2023_10K.pdf")
    engine = make_engine(tmp_path)
    res = engine.ingest([pdf])[0]
    [table] = engine.store.chunks(doc_ids=[res.doc_id], modality="table")
    retriever = engine.retriever()
    assert retriever.statement_tables(res.doc_id) == {"income": [table.id]}
    margin = parse("What was ACME's gross margin in 2023?")
    ranked = retriever.statement_ranking(margin.text, [res.doc_id], {}, margin.statements)
    assert [(c.chunk_id, c.channel) for c in ranked] == [(table.id, "statement")]
    auditor = parse("Who audits ACME?")
    assert retriever.statement_ranking(auditor.text, [res.doc_id], {}, auditor.statements) == []
    # a row named by another label of its measure: "cost of goods sold" is the row "Cost of sales"
    cogs = parse("What was ACME's cost of goods sold in 2023?")
    assert retriever.statement_ranking(cogs.text, [res.doc_id], {}) == []
    [named] = retriever.statement_ranking(cogs.text, [res.doc_id], {}, (), cogs.measure_labels)
    assert named.chunk_id == table.id and named.score >= STATEMENT_PIN
    # a label counts in the statement that reports its item: a balance-sheet item's label names no income row
    assert retriever.statement_ranking(cogs.text, [res.doc_id], {}, (), [("cost of sales", "balance")]) == []
    hits = engine.retrieve("What was ACME's gross margin in 2023?", scope=[res.doc_id]).evidence
    assert any(e.modality == "table" and "statement" in e.channel for e in hits)
    engine.settings = engine.settings.with_(statement_channel=False)
    engine._retriever = None
    hits = engine.retrieve("What was ACME's gross margin in 2023?", scope=[res.doc_id]).evidence
    assert not any("statement" in e.channel for e in hits)
    engine.close()

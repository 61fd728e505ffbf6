"""The engine end to end on a small generated filing, with fake models (unit level) and real ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakes_models import FakeEmbedder, FakeLLM
from pdfgen import write_filing, write_pdf

from engine import Engine, IngestError, NotFoundError, Settings
from engine.types import AnswerFinished, RetrievalDone, TokenStreamed


def make_engine(data_dir: Path, **overrides: object) -> Engine:
    models = {"embedder": FakeEmbedder(), "llm": FakeLLM(), "vision": None, "detector": None, "ocr": None,
              "reranker": None}
    models.update(overrides)
    return Engine(Settings(data_dir=data_dir, extract_workers=1), overrides=models)


def test_ingest_lists_and_reingest_is_noop(tmp_path: Path, private_data_dir: Path) -> None:
    pdf = write_filing(tmp_path / "acme_2023_10k.pdf")
    engine = make_engine(private_data_dir)
    [res] = engine.ingest([pdf])
    assert res.ok and res.status == "ingested" and res.pages == 3
    [doc] = engine.documents()
    assert doc.name == "acme_2023_10k" and doc.status in {"ready", "partial"}
    assert doc.chunks >= 2
    assert doc.form_type == "10-K"
    chunks_before = engine.store.chunk_ids()
    [again] = engine.ingest([pdf])
    assert again.ok and again.status == "unchanged" and again.doc_id == res.doc_id
    assert engine.store.chunk_ids() == chunks_before
    assert len(engine.documents()) == 1


def test_chunks_keep_pages_and_boxes(tmp_path: Path, private_data_dir: Path) -> None:
    engine = make_engine(private_data_dir)
    [res] = engine.ingest([write_filing(tmp_path / "f.pdf")])
    chunks = engine.store.chunks(doc_ids=[res.doc_id], modality="text")
    pages = {c.page for c in chunks}
    assert pages == {1, 2, 3}
    restricted = [c for c in chunks if "Restricted cash" in c.text]
    assert restricted and restricted[0].page == 2
    x0, top, x1, bottom = restricted[0].bbox  # type: ignore[misc]
    assert 60 < x0 < x1 <= 612 and 0 < top < bottom <= 792


def test_retrieve_finds_the_page_and_answer_streams_citations(tmp_path: Path, private_data_dir: Path) -> None:
    engine = make_engine(private_data_dir)
    engine.ingest([write_filing(tmp_path / "f.pdf")])
    ret = engine.retrieve("How much restricted cash was held at December 31, 2023?")
    assert ret.evidence and ret.evidence[0].page == 2
    events = list(engine.answer("How much restricted cash was held?"))
    assert isinstance(events[0], RetrievalDone)
    assert any(isinstance(e, TokenStreamed) for e in events)
    final = events[-1]
    assert isinstance(final, AnswerFinished)
    answer = final.answer
    assert answer.citations and answer.citations[0].marker == 1
    assert answer.id is not None and engine.history()[0]["question"] == "How much restricted cash was held?"


def test_number_not_in_evidence_is_flagged(tmp_path: Path, private_data_dir: Path) -> None:
    llm = FakeLLM(lambda msgs: "Restricted cash was $57 million [1], up from $99,999 million [1].")
    engine = make_engine(private_data_dir, llm=llm)
    engine.ingest([write_filing(tmp_path / "f.pdf")])
    answer = engine.ask("How much restricted cash was held at December 31, 2023?", save=False)
    found = {c.value.strip(): c.found for c in answer.checks}
    assert found.get("$57 million") is True
    assert found.get("$99,999 million") is False


def test_refusal_is_detected(tmp_path: Path, private_data_dir: Path) -> None:
    llm = FakeLLM(lambda msgs: "Insufficient information: the sources do not state the CEO's salary.")
    engine = make_engine(private_data_dir, llm=llm)
    engine.ingest([write_filing(tmp_path / "f.pdf")])
    answer = engine.ask("What was the CEO's salary?", save=False)
    assert answer.refused and answer.searched["documents"]


def test_remove_drops_chunks_and_vectors(tmp_path: Path, private_data_dir: Path) -> None:
    engine = make_engine(private_data_dir)
    [a] = engine.ingest([write_filing(tmp_path / "a.pdf")])
    [b] = engine.ingest([write_pdf(tmp_path / "b.pdf", [["Other company text about dividends paid."]])])
    engine.remove("a")
    assert [d.name for d in engine.documents()] == ["b"]
    remaining = set(engine.store.chunk_ids())
    assert engine.indexes["text"].keys() == remaining
    with pytest.raises(NotFoundError):
        engine.document("a")
    # the index on disk matches after reopening
    engine2 = make_engine(private_data_dir)
    engine2.indexes.open(256)
    assert engine2.indexes["text"].keys() == remaining


@pytest.mark.parametrize(
    ("content", "title"),
    [(b"", "Empty file"), (b"hello world, not a pdf", "Not a PDF"), (b"%PDF-1.4\n garbage \x00\x01", "Damaged PDF")],
)
def test_bad_files_fail_cleanly_and_batch_continues(
    tmp_path: Path, private_data_dir: Path, content: bytes, title: str
) -> None:
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(content)
    good = write_filing(tmp_path / "good.pdf")
    engine = make_engine(private_data_dir)
    results = engine.ingest([bad, good])
    assert not results[0].ok and results[0].error_title == title and str(bad) in results[0].error
    assert results[1].ok
    assert [d.name for d in engine.documents()] == ["good"]


def test_cancel_then_resume(tmp_path: Path, private_data_dir: Path) -> None:
    pdf = write_filing(tmp_path / "f.pdf")
    engine = make_engine(private_data_dir)
    seen: list[str] = []

    def cancel_after_text() -> bool:
        return any(stage not in {"open", "text"} for stage in seen)

    results = engine.ingest([pdf], on_progress=lambda p: seen.append(p.stage), cancelled=cancel_after_text)
    assert results[0].status == "cancelled"
    [doc] = engine.documents()
    assert doc.status == "cancelled" and doc.stages["text"].startswith("done") and doc.chunks == 0
    [res] = engine.ingest([pdf])
    assert res.ok and res.status == "resumed"
    assert engine.documents()[0].chunks > 0


def test_max_pages_guard(tmp_path: Path, private_data_dir: Path) -> None:
    engine = Engine(Settings(data_dir=private_data_dir, max_pages=2), overrides={"embedder": FakeEmbedder()})
    [res] = engine.ingest([write_filing(tmp_path / "f.pdf")])
    assert not res.ok and res.error_title == "Too many pages"
    assert engine.documents() == []


def test_pdf_info_error_for_missing_file(tmp_path: Path) -> None:
    from engine.ingest.pdftext import pdf_info

    with pytest.raises(IngestError, match="does not exist"):
        pdf_info(tmp_path / "nope.pdf")


def test_answer_json_shape(tmp_path: Path, private_data_dir: Path) -> None:
    engine = make_engine(private_data_dir)
    engine.ingest([write_filing(tmp_path / "f.pdf")])
    data = engine.ask("What was total revenue in 2023?", save=False).to_json()
    json.dumps(data)
    assert {"answer", "evidence", "tier", "citations", "checks", "refused"} <= set(data)
    ev = data["evidence"][0]
    assert {"doc", "page", "modality", "score", "text"} <= set(ev)
    assert isinstance(ev["page"], int) and ev["page"] >= 1
    scores = [e["score"] for e in data["evidence"]]
    assert scores == sorted(scores, reverse=True) or data["tier"] != "text"


def test_table_index_text_leads_with_heading_and_labels() -> None:
    from engine.ingest.pipeline import page_heading, region_index_text
    from engine.pagetext import PageText, line_groups
    from engine.types import Region

    words = [
        (72.0, 30.0, 160.0, 40.0, "Table of Contents"),
        (72.0, 50.0, 300.0, 60.0, "Consolidated Statement of Cash Flows"),
        (72.0, 70.0, 200.0, 80.0, "(Millions)"),
        (72.0, 120.0, 300.0, 130.0, "Purchases of PP&E"),
    ]
    page = PageText(page=1, width=612, height=792, words=words)
    page.lines = line_groups(words)
    assert page_heading(page, above=110.0) == "Consolidated Statement of Cash Flows / (Millions)"
    assert page_heading(page, above=45.0) == ""  # nothing but boilerplate above
    region = Region(id=1, doc_id="d", page=1, kind="table", bbox=(70, 110, 500, 400), method="t",
                    summary="A long description " * 50,
                    table={"columns": ["2018", "2017"],
                           "rows": [{"label": "Purchases of PP&E", "values": ["(1,577)"]}]})
    text = region_index_text(region, page_heading(page, 110.0))
    assert text.startswith("Consolidated Statement of Cash Flows")
    assert text.index("Purchases of PP&E") < text.index("A long description")


def test_table_index_text_keeps_the_heading_when_the_title_is_a_column_caption() -> None:
    from engine.ingest.pipeline import region_index_text
    from engine.types import Region

    region = Region(id=1, doc_id="d", page=60, kind="table", bbox=(54, 85, 545, 491), method="t",
                    title="Years ended December 31", units="(Millions)",
                    table={"columns": ["2018"], "rows": [{"label": "Purchases of property, plant and equipment"}]})
    text = region_index_text(region, "3M Company and Subsidiaries / Consolidated Statement of Cash Flows")
    assert text.startswith("3M Company and Subsidiaries / Consolidated Statement of Cash Flows\nYears ended")
    # a title the heading already contains is not repeated
    region.title = "Consolidated Statement of Cash Flows"
    text = region_index_text(region, "3M Company / Consolidated Statement of Cash Flows")
    assert text.count("Consolidated Statement of Cash Flows") == 1


def test_text_readers_start_with_the_reader_already_imported(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker processes that read text layers fork from a server that imported pdfplumber and the reader
    once, rather than importing them in each worker of each file."""
    from concurrent.futures import ProcessPoolExecutor

    from engine.ingest.pdftext import _mp_context

    monkeypatch.delenv("MFR_MP_START", raising=False)
    with ProcessPoolExecutor(max_workers=1, mp_context=_mp_context()) as pool:
        # eval is a builtin: sending it imports nothing in the worker
        loaded = pool.submit(eval, "[m in __import__('sys').modules for m in ('pdfplumber', 'engine.ingest.pdftext')]")
        assert loaded.result(timeout=60) == [True, True]

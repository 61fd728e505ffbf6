"""Real filings from ../shared/data/eval through the real packaged models (MiniLM, YOLO, Qwen GGUF)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import Engine, Settings

pytestmark = [pytest.mark.real_models, pytest.mark.eval_data, pytest.mark.slow]


def page_subset(src: Path, first: int, last: int, out: Path) -> Path:
    """Pages first..last (0-based, inclusive) of a real filing as a new PDF (keeps CI time small)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(src))
    new = pdfium.PdfDocument.new()
    new.import_pages(pdf, list(range(first, last + 1)))
    new.save(str(out))
    return out


def record(eval_dir: Path, rid: str) -> dict:
    for line in (eval_dir / "dev.jsonl").read_text().splitlines():
        rec = json.loads(line)
        if rec["id"] == rid:
            return rec
    raise AssertionError(f"{rid} not in dev.jsonl")


def test_real_filing_question_cites_gold_page(eval_dir: Path, tmp_path: Path, private_data_dir: Path) -> None:
    rec = record(eval_dir, "financebench_id_03029")  # 3M FY2018 capex, cash flow statement
    gold0 = rec["evidence"][0]["page0"]
    first = gold0 - 6
    pdf = page_subset(eval_dir / rec["docs"][0], first, gold0 + 5, tmp_path / "3M_2018_10K_excerpt.pdf")
    gold_page = gold0 - first + 1
    engine = Engine(Settings(data_dir=private_data_dir, n_threads=2))
    [res] = engine.ingest([pdf])
    assert res.ok, res.error
    doc = engine.document("3M_2018_10K_excerpt")
    assert doc.pages == 12 and doc.chunks > 10
    retrieval = engine.retrieve(rec["question"])
    pages = [e.page for e in retrieval.evidence]
    assert gold_page in pages, (gold_page, pages)
    answer = engine.ask(rec["question"], save=False)
    assert answer.text.strip()
    assert answer.evidence and all(e.doc == "3M_2018_10K_excerpt" for e in answer.evidence)
    # the packaged 1.5B model should find the capex figure (1,577) on the cash flow statement
    assert "1,577" in answer.text or "1577" in answer.text, answer.text


def test_cli_contract_on_a_real_filing(eval_dir: Path, tmp_path: Path, private_data_dir: Path) -> None:
    from mfr_tui.cli import main

    src = eval_dir / "financebench/pdfs/3M_2018_10K.pdf"
    pdf = page_subset(src, 0, 3, tmp_path / "3M_2018_10K_cover.pdf")
    assert main(["ingest", str(pdf), "--json", "--quiet"]) == 0
    assert main(["library", "--json"]) == 0
    assert main(["remove", "3M_2018_10K_cover"]) == 0

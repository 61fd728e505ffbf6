"""Real filings from ../shared/data/eval through the real packaged models (MiniLM, YOLO, Qwen GGUF)."""

from __future__ import annotations

import json
import re
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
    # A smaller evidence budget keeps the CPU answer to a minute or two; retrieval is unaffected.
    engine = Engine(Settings(data_dir=private_data_dir, n_threads=2, context_tokens=1500, max_answer_tokens=120))
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
    # Whatever the small model says, every figure it states is checked, and a figure is marked found only
    # when its digits really occur in the evidence (text or table cells). Accuracy is measured by `eval`.
    if not answer.refused:
        assert answer.checks or not re.search(r"\d{2,}", re.sub(r"\[\d+\]", "", answer.text))
    from engine.numbers import quantities, same_number

    pool = [q.value for text in [e.text for e in answer.evidence] + json_cells(engine, answer)
            for q in quantities(text)]
    for check in answer.checks:
        parsed = quantities(check.value)
        if check.found and parsed and check.status != "computed":
            assert any(same_number(parsed[0], ref) for ref in pool), check


def json_cells(engine: Engine, answer) -> list[str]:  # type: ignore[no-untyped-def]
    """The cells of the cited table regions, as text (number checks also look there)."""
    out: list[str] = []
    for e in answer.evidence:
        region = engine.store.region(e.region_id) if e.region_id else None
        for row in (region.table or {}).get("rows", []) if region else []:
            out.extend(str(v) for v in row.get("values", []))
    return out


def test_cli_contract_on_a_real_filing(eval_dir: Path, tmp_path: Path, private_data_dir: Path) -> None:
    from mfr_tui.cli import main

    src = eval_dir / "financebench/pdfs/3M_2018_10K.pdf"
    pdf = page_subset(src, 0, 3, tmp_path / "3M_2018_10K_cover.pdf")
    assert main(["ingest", str(pdf), "--json", "--quiet"]) == 0
    assert main(["library", "--json"]) == 0
    assert main(["remove", "3M_2018_10K_cover"]) == 0

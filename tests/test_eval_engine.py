"""The evaluation harness (mfr_eval) on the real engine with fake models (tests/fakes_models.py) and generated PDFs."""

from __future__ import annotations

import json
from pathlib import Path

from pdfgen import write_pdf

from engine import Engine, Settings
from mfr_eval.evaluate import EvalOptions, evaluate, load_records


def _library(tmp_path: Path) -> Path:
    root = tmp_path / "qa"
    (root / "pdfs").mkdir(parents=True)
    write_pdf(root / "pdfs/acme.pdf", [
        ["Acme Corp annual report 2023.", "The company makes anvils and rockets for desert customers."],
        ["Consolidated cash flow statement.", "Purchases of property and equipment were 1,577 million dollars.",
         "Capital expenditure rose because the anvil plant was expanded."],
        ["Risk factors.", "Coyotes may damage the rocket inventory in transit."],
    ])
    records = [
        {"id": "q1", "source": "toy", "question": "What were purchases of property and equipment (capital "
         "expenditure)?", "answer": "$1,577 million", "docs": ["pdfs/acme.pdf"],
         "evidence": [{"doc": "pdfs/acme.pdf", "page0": 1}], "modality": ["text"]},
        {"id": "q2", "source": "toy", "question": "What risk do coyotes pose to the rocket inventory?",
         "answer": "damage in transit", "docs": ["pdfs/acme.pdf"], "evidence": [{"doc": "pdfs/acme.pdf",
                                                                                "page0": 2}],
         "modality": ["text"]},
    ]
    (root / "qa.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n")
    return root


def test_engine_evaluate_retrieval_answers_and_baseline(tmp_path: Path, private_data_dir: Path,
                                                         fake_models: dict) -> None:
    root = _library(tmp_path)
    engine = Engine(Settings(data_dir=private_data_dir, extract_workers=1), overrides=fake_models)
    records = load_records(root / "qa.jsonl")
    try:
        report = evaluate(engine, records, EvalOptions(k=3, retrieval_only=True))
        assert report["ingest"]["status"] == {"ingested": 1}
        assert report["n"] == 2 and report["errors"] == 0
        assert report["page_recall@k"] == 1.0, report["questions"]
        assert report["answer_accuracy"] is None

        answered = evaluate(engine, records, EvalOptions(k=3))
        assert answered["ingest"]["status"] == {"unchanged": 1}
        assert all(q["prediction"] is not None and q["scorer"] for q in answered["questions"])
        assert answered["answer_accuracy"] is not None
        assert engine.history() == [], "evaluation answers are not saved in the history"

        base = evaluate(engine, records, EvalOptions(k=3, retrieval_only=True, ablation="baseline"))
        assert base["settings_changes"]["chunker"] == "fixed"
        assert Path(base["data_dir"]) == private_data_dir / "ablations" / "baseline"
        assert base["ingest"]["status"] == {"ingested": 1}
        assert base["page_recall@k"] == 1.0
        baseline_engine = Engine(Settings(data_dir=private_data_dir / "ablations" / "baseline"),
                                 overrides=fake_models)
        [doc] = baseline_engine.documents()
        assert doc.stages["detect"] == "pending", "the baseline skips the region stages"
        text_stage = baseline_engine.store.stages(doc.id)["text"]
        assert "copied from" in text_stage["detail"], "the baseline reuses the main library's text layer"
        main_doc = engine.documents()[0]
        assert baseline_engine.store.pages(doc.id, with_words=True) == engine.store.pages(main_doc.id,
                                                                                           with_words=True)
        baseline_engine.close()
    finally:
        engine.close()

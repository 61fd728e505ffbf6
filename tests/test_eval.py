"""The evaluation harness driven by a fake engine: record parsing, page metrics, ablations, the report, the CLI."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from engine.errors import AnswerError, ConfigError
from engine.settings import Settings
from engine.types import Answer, Document, Evidence, IngestResult, Retrieval
from mfr_eval.evaluate import (
    ABLATIONS,
    EvalOptions,
    ablation_settings,
    evaluate,
    format_report,
    load_records,
    page_metrics,
    percentile,
)


def _records(root: Path) -> list[dict[str, Any]]:
    return [
        {"id": "q_table", "source": "financebench", "question": "What is the FY2018 capex (in USD millions)?",
         "answer": "$1577.00", "docs": ["pdfs/a.pdf"], "evidence": [{"doc": "pdfs/a.pdf", "page0": 4}],
         "modality": ["table"], "question_type": "metrics-generated"},
        {"id": "q_text", "source": "financebench", "question": "Which segment grew most?",
         "answer": "Consumer", "docs": ["pdfs/a.pdf"], "evidence": [{"doc": "pdfs/a.pdf", "page0": 0},
                                                                   {"doc": "pdfs/a.pdf", "page0": 1}],
         "modality": ["text"], "question_type": "novel-generated"},
        {"id": "q_docugami", "source": "docugami_sec10q", "question": "How did net sales change?",
         "answer": "Net sales rose to $82,959 million in the quarter.", "docs": ["pdfs/a.pdf", "pdfs/b.pdf"],
         "evidence": None, "modality": ["table"], "question_type": "Multi-Doc RAG"},
        {"id": "q_parsee", "source": "parsee_finrag_image", "question": "What are the revenues (with unit)?",
         "answer": '{"answers": [{"main_question": "39290.0", "unit": "millions"}]}',
         "gold_structured": {"answers": [{"main_question": "39290.0", "unit": "millions"}]},
         "docs": ["pdfs/b.pdf"], "evidence": [{"doc": "pdfs/b.pdf", "page0": 0}], "modality": ["image_table"],
         "question_type": "rev23_meta"},
        {"id": "q_none", "source": "mmlongbench_doc_chart", "question": "What is the CEO's dog called?",
         "answer": "Not answerable", "docs": ["pdfs/b.pdf"], "evidence": [{"doc": "pdfs/b.pdf", "page0": 2}],
         "modality": ["unanswerable"], "question_type": "Research report"},
    ]


@pytest.fixture()
def qa_root(tmp_path: Path) -> Path:
    (tmp_path / "pdfs").mkdir()
    for name in ("a", "b"):
        (tmp_path / "pdfs" / f"{name}.pdf").write_bytes(b"%PDF-1.4 fake " + name.encode())
    with open(tmp_path / "qa.jsonl", "w") as fh:
        for r in _records(tmp_path):
            fh.write(json.dumps(r) + "\n")
    return tmp_path


@dataclass
class FakeModels:
    reranker_on: bool = False

    def is_enabled(self, role: str) -> bool:
        return self.reranker_on if role == "reranker" else True


ANSWERS = {
    "q_table": "Capital expenditure was $1,577 million [1].",
    "q_text": "The Consumer segment grew the most [2].",
    "q_docugami": "Net sales were $82,959 million [1].",
    "q_parsee": "Revenue was 39,290 (USD millions) [1].",
    "q_none": "Insufficient information: the sources do not mention a dog.",
}

# Canned evidence: (doc, page) in rank order.
EVIDENCE = {
    "q_table": [("a", 3), ("a", 5), ("a", 9)],  # gold page 5 at rank 2
    "q_text": [("a", 1), ("a", 7)],  # gold pages 1 and 2: one of two found
    "q_docugami": [("b", 2)],
    "q_parsee": [("b", 4)],  # gold page 1 missed
    "q_none": [("b", 3)],
}


@dataclass
class FakeEngine:
    """The public API evaluate() uses: settings, models, ingest, retrieve, ask."""

    settings: Settings
    models: FakeModels = field(default_factory=FakeModels)
    ingested: list[str] = field(default_factory=list)
    asked: list[tuple[str, Any]] = field(default_factory=list)
    fail_on: str = ""
    text_layer_from: Path | None = None

    def ingest(self, paths: list[Path], on_progress: Any = None, cancelled: Any = None,
               text_layer_from: Path | None = None) -> list[IngestResult]:
        self.ingested.extend(str(p) for p in paths)
        self.text_layer_from = text_layer_from
        return [IngestResult(path=str(p), ok=True, doc_id=f"id-{Path(p).stem}", status="ingested", pages=10,
                             stage_seconds={"text": 0.5, "embed": 1.0}) for p in paths]

    def documents(self) -> list[Document]:
        return [Document(id=f"id-{Path(p).stem}", sha256="0" * 64, path=p, name=Path(p).stem, pages=10,
                         status="ready") for p in self.ingested]

    def _qid(self, question: str) -> str:
        return next(r["id"] for r in _records(Path(".")) if r["question"] == question)

    def _evidence(self, qid: str) -> list[Evidence]:
        return [Evidence(chunk_id=i, doc_id=f"id-{d}", doc=d, page=p, modality="text", score=0.9 - i / 10,
                         text="...") for i, (d, p) in enumerate(EVIDENCE[qid])]

    def retrieve(self, question: str, scope: Any = None, k: int | None = None) -> Retrieval:
        qid = self._qid(question)
        self.asked.append((qid, scope))
        routed = scope is None and qid == "q_text"  # the one question that names its company
        return Retrieval(question=question, evidence=self._evidence(qid)[: k or 10], tier="text", scope=[],
                         timings={"embed": 0.01, "search": 0.02}, routed=routed,
                         route="company=acme" if routed else "")

    def ask(self, question: str, scope: Any = None, save: bool = True) -> Answer:
        qid = self._qid(question)
        assert save is False, "evaluation must not fill the user's answer history"
        if qid == self.fail_on:
            raise AnswerError("model crashed", title="Generation failed")
        self.asked.append((qid, scope))
        text = ANSWERS[qid]
        return Answer(question=question, text=text, evidence=self._evidence(qid), tier="text",
                      refused=text.startswith("Insufficient"), timings={"retrieve": 0.05, "generate": 1.5},
                      tokens=20)


def test_load_records_resolves_paths_and_zero_indexed_pages(qa_root: Path) -> None:
    recs = load_records(qa_root / "qa.jsonl")
    assert [r.id for r in recs] == ["q_table", "q_text", "q_docugami", "q_parsee", "q_none"]
    assert recs[0].gold_pages == [(qa_root / "pdfs/a.pdf", 5)], "page0 4 is page 5"
    assert recs[2].gold_pages is None
    assert recs[4].unanswerable and not recs[0].unanswerable
    assert [r.id for r in load_records(qa_root / "qa.jsonl", sources=["finance"])] == ["q_table", "q_text"]
    assert len(load_records(qa_root / "qa.jsonl", per_source=1)) == 4
    assert len(load_records(qa_root / "qa.jsonl", limit=2)) == 2


def test_load_records_rejects_bad_lines(tmp_path: Path) -> None:
    (tmp_path / "bad.jsonl").write_text('{"id": "x"}\n')
    with pytest.raises(ConfigError, match="line 1"):
        load_records(tmp_path / "bad.jsonl")


def test_page_metrics() -> None:
    gold = {("d", 5), ("d", 6)}
    m = page_metrics([("d", 3), ("d", 5), ("d", 9), ("d", 5)], gold, k=3)
    assert m == {"recall": 0.5, "precision": pytest.approx(1 / 3), "rr": 0.5}
    assert page_metrics([], gold, 10) == {"recall": 0.0, "precision": 0.0, "rr": 0.0}
    assert page_metrics([("d", 6), ("d", 5)], gold, 1)["recall"] == 0.5
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5


def test_evaluate_full_run(qa_root: Path, tmp_path: Path) -> None:
    engine = FakeEngine(Settings(data_dir=tmp_path / "data", top_k=10))
    report = evaluate(engine, load_records(qa_root / "qa.jsonl"), EvalOptions(k=10))
    assert sorted(engine.ingested) == sorted(str(qa_root / f"pdfs/{n}.pdf") for n in "ab")
    # page metrics over the 3 answerable questions with labels (docugami has none; unanswerable is left out)
    assert report["n_with_pages"] == 3
    assert report["page_recall@k"] == pytest.approx((1.0 + 0.5 + 0.0) / 3, abs=1e-4)
    assert report["mrr"] == pytest.approx((0.5 + 1.0 + 0.0) / 3, abs=1e-4)
    assert report["precision@k"] == pytest.approx((1 / 3 + 1 / 2 + 0) / 3, abs=1e-4)
    assert report["answer_accuracy"] == 1.0
    assert report["refusal_rate"] == 1.0
    assert report["by_source"]["financebench"]["n"] == 2
    assert report["by_modality"]["image_table"]["page_recall@k"] == 0.0
    assert set(report["latency"]) == {"retrieve", "generate", "total"}
    assert report["tokens"]["per_question_mean"] == 20
    scorers = {q["id"]: q["scorer"] for q in report["questions"]}
    assert scorers == {"q_table": "numeric", "q_text": "text_overlap", "q_docugami": "text_overlap",
                       "q_parsee": "structured", "q_none": "refusal"}
    # docugami: scope is both its documents; page metrics skipped, answer still scored
    assert ("q_docugami", ["id-a", "id-b"]) in engine.asked
    q = next(q for q in report["questions"] if q["id"] == "q_docugami")
    assert q["recall"] is None and q["correct"] is True
    json.dumps(report)  # serialisable
    text = format_report(report)
    assert "recall@10" in text and "financebench" in text


def test_retrieval_only_and_library_scope(qa_root: Path, tmp_path: Path) -> None:
    engine = FakeEngine(Settings(data_dir=tmp_path / "data", top_k=10))
    report = evaluate(engine, load_records(qa_root / "qa.jsonl"),
                      EvalOptions(k=2, retrieval_only=True, scope="library"))
    assert report["answer_accuracy"] is None and report["tokens"]["total"] == 0
    assert all(scope is None for _, scope in engine.asked)
    assert report["page_recall@k"] == pytest.approx((1.0 + 0.5 + 0.0) / 3, abs=1e-4)
    assert set(report["latency"]) == {"embed", "search", "total"}
    # library-wide, questions that name their company are reported apart from those that name none
    routing = report["by_routing"]
    assert routing["routed"]["n"] == 1 and routing["not routed"]["n"] == len(report["questions"]) - 1
    assert next(q for q in report["questions"] if q["id"] == "q_text")["routed"] == "company=acme"
    assert "not routed" in format_report(report)


def test_errors_are_recorded_not_raised(qa_root: Path, tmp_path: Path) -> None:
    engine = FakeEngine(Settings(data_dir=tmp_path / "data"), fail_on="q_text")
    report = evaluate(engine, load_records(qa_root / "qa.jsonl"))
    q = next(q for q in report["questions"] if q["id"] == "q_text")
    assert q["error"].startswith("Generation failed") and q["correct"] is False
    assert report["errors"] == 1 and report["answer_accuracy"] == 0.75


def test_missing_document_is_an_error_for_its_questions(qa_root: Path, tmp_path: Path) -> None:
    (qa_root / "pdfs/b.pdf").unlink()
    report = evaluate(FakeEngine(Settings(data_dir=tmp_path / "data")), load_records(qa_root / "qa.jsonl"))
    assert report["ingest"]["missing_files"] == [str(qa_root / "pdfs/b.pdf")]
    errors = {q["id"] for q in report["questions"] if q["error"]}
    assert errors == {"q_parsee", "q_none"}
    assert next(q for q in report["questions"] if q["id"] == "q_docugami")["error"] == ""


def test_ablation_settings() -> None:
    s = Settings(data_dir=Path("/tmp/lib"), top_k=10)
    same, changes = ablation_settings(s, "default", 10)
    assert same is s and changes == {}
    new, changes = ablation_settings(s, "no-tiers", 5)
    assert new.tiers is False and new.top_k == 5 and changes == {"tiers": False, "top_k": 5}
    base, changes = ablation_settings(s, "baseline")
    assert base.chunker == "fixed" and base.regions is False and not base.use_tables and not base.tiers
    assert base.data_dir == Path("/tmp/lib/ablations/baseline"), "the baseline keeps its own library"
    with pytest.raises(ConfigError, match="Unknown ablation"):
        ablation_settings(s, "nope")


def test_ablation_with_a_missing_setting_fails_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    from mfr_eval import evaluate as ev

    monkeypatch.setitem(ev.ABLATIONS, "no-magic", ev.Ablation("no-magic", {"magic": False}, "test"))
    with pytest.raises(ConfigError, match="magic"):
        ablation_settings(Settings(data_dir=Path("/tmp/lib")), "no-magic")


def test_ablation_builds_a_derived_engine(qa_root: Path, tmp_path: Path) -> None:
    engine = FakeEngine(Settings(data_dir=tmp_path / "data"))
    made: list[Settings] = []

    def make(settings: Settings) -> FakeEngine:
        made.append(settings)
        return FakeEngine(settings)

    report = evaluate(engine, load_records(qa_root / "qa.jsonl"), EvalOptions(ablation="no-tables-figures"),
                      make_engine=make)
    assert made and made[0].use_tables is False and made[0].use_images is False
    assert report["settings_changes"] == {"use_tables": "False", "use_images": "False"}
    assert engine.asked == [], "the ablation runs on its own engine"


def test_reranker_ablation_needs_a_reranker(qa_root: Path, tmp_path: Path) -> None:
    engine = FakeEngine(Settings(data_dir=tmp_path / "data"))
    with pytest.raises(ConfigError, match="reranker"):
        evaluate(engine, load_records(qa_root / "qa.jsonl"), EvalOptions(ablation="with-reranker"))
    engine.models.reranker_on = True
    report = evaluate(engine, load_records(qa_root / "qa.jsonl"), EvalOptions(ablation="with-reranker"),
                      make_engine=lambda s: FakeEngine(s))
    assert report["settings_changes"] == {"rerank": "True"}


def test_resume_keeps_previous_results(qa_root: Path, tmp_path: Path) -> None:
    engine = FakeEngine(Settings(data_dir=tmp_path / "data"))
    first = evaluate(engine, load_records(qa_root / "qa.jsonl", limit=2))
    engine.asked.clear()
    previous = {q["id"]: q for q in first["questions"]}
    report = evaluate(engine, load_records(qa_root / "qa.jsonl"), previous=previous)
    assert [qid for qid, _ in engine.asked] == ["q_docugami", "q_parsee", "q_none"]
    assert report["n"] == 5


def test_cli_eval_with_fake_engine(qa_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mfr_tui.cli import build_parser
    from mfr_tui.cli_eval import cmd_eval

    out = tmp_path / "report.json"
    args = build_parser().parse_args(["eval", str(qa_root / "qa.jsonl"), "--k", "5", "--out", str(out), "--quiet"])
    assert args.func is cmd_eval or callable(args.func)
    rc = cmd_eval(FakeEngine(Settings(data_dir=tmp_path / "data")), args)  # type: ignore[arg-type]
    assert rc == 0
    printed = capsys.readouterr().out
    assert "recall@5" in printed and "mmlongbench_doc_chart" in printed
    report = json.loads(out.read_text())
    for key in ("page_recall@k", "precision@k", "mrr", "answer_accuracy", "refusal_rate", "by_modality",
                "by_source", "latency", "tokens", "questions"):
        assert key in report
    assert len(report["questions"]) == 5 and report["k"] == 5


def test_every_ablation_is_documented() -> None:
    assert set(ABLATIONS) == {"default", "baseline", "no-tables-figures", "no-tiers", "no-hybrid", "no-routing",
                              "with-reranker"}
    assert all(a.description for a in ABLATIONS.values())


def test_no_ingest_evaluates_only_questions_on_library_documents(qa_root: Path, tmp_path: Path) -> None:
    engine = FakeEngine(Settings(data_dir=tmp_path / "data"), ingested=[str(qa_root / "pdfs/a.pdf")])
    report = evaluate(engine, load_records(qa_root / "qa.jsonl"), EvalOptions(ingest=False))
    assert engine.ingested == [str(qa_root / "pdfs/a.pdf")], "nothing was ingested"
    assert [q["id"] for q in report["questions"]] == ["q_table", "q_text"]
    assert any("3 questions skipped" in n for n in report["notes"])


def test_no_ingest_baseline_ingests_the_same_subset_into_its_own_library(qa_root: Path, tmp_path: Path) -> None:
    engine = FakeEngine(Settings(data_dir=tmp_path / "data"), ingested=[str(qa_root / "pdfs/a.pdf")])
    made: list[FakeEngine] = []

    def make(settings: Settings) -> FakeEngine:
        made.append(FakeEngine(settings))
        return made[-1]

    report = evaluate(engine, load_records(qa_root / "qa.jsonl"), EvalOptions(ingest=False, ablation="baseline"),
                      make_engine=make)
    assert made[0].settings.data_dir == tmp_path / "data" / "ablations" / "baseline"
    assert made[0].ingested == [str(qa_root / "pdfs/a.pdf")]
    assert made[0].text_layer_from == tmp_path / "data", "the baseline copies the main library's text layer"
    assert [q["id"] for q in report["questions"]] == ["q_table", "q_text"]


def test_limits_apply_after_the_library_filter(qa_root: Path, tmp_path: Path) -> None:
    engine = FakeEngine(Settings(data_dir=tmp_path / "data"), ingested=[str(qa_root / "pdfs/b.pdf")])
    report = evaluate(engine, load_records(qa_root / "qa.jsonl"), EvalOptions(ingest=False, per_source=1))
    assert [q["id"] for q in report["questions"]] == ["q_parsee", "q_none"]
    report = evaluate(engine, load_records(qa_root / "qa.jsonl"), EvalOptions(limit=1))
    assert [q["id"] for q in report["questions"]] == ["q_table"]


def test_mismatched_probes_ask_another_companys_filing(tmp_path: Path) -> None:
    from mfr_eval.evaluate import EvalRecord, _doc_key, mismatched_probes

    docs = {name: tmp_path / f"{name}.pdf" for name in ("3M_2018_10K", "3M_2022_10K", "AMAZON_2017_10K", "NIKE_2019")}
    for p in docs.values():
        p.write_bytes(b"%PDF-1.4")
    recs = [
        EvalRecord(id="a", source="fb", question="3M capex 2018?", answer="1,577", docs=[docs["3M_2018_10K"]],
                   gold_pages=None, group="3M_2018_10K"),  # FinanceBench groups name the filing
        EvalRecord(id="b", source="fb", question="3M capex 2022?", answer="1,749", docs=[docs["3M_2022_10K"]],
                   gold_pages=None, group="3M"),
        EvalRecord(id="c", source="fb", question="Amazon sales?", answer="177.9", docs=[docs["AMAZON_2017_10K"]],
                   gold_pages=None, group="AMAZON"),
        EvalRecord(id="d", source="fb", question="Nike margin?", answer="44%", docs=[docs["NIKE_2019"]],
                   gold_pages=None, group=""),
    ]
    available = [_doc_key(p) for p in docs.values()]
    probes = mismatched_probes(recs, 4, available)
    assert [p.id for p in probes] == ["a@other", "b@other", "c@other", "d@other"]
    for rec, probe in zip(recs, probes, strict=True):
        assert probe.unanswerable and probe.question == rec.question and probe.gold_pages is None
        assert probe.docs[0] not in rec.docs
    assert all("3M_" not in probes[i].docs[0].name for i in (0, 1)), "never another filing of the same company"
    assert mismatched_probes(recs, 0, available) == []
    # only documents in the library are used
    only_3m = [_doc_key(docs["3M_2018_10K"]), _doc_key(docs["3M_2022_10K"])]
    assert mismatched_probes(recs[:2], 2, only_3m) == []


def test_later_probes_move_every_year_three_years_later() -> None:
    from mfr_eval.evaluate import EvalRecord, later_probes

    recs = [
        EvalRecord(id="a", source="s", question="What was FY2018 capex? Compare with 2017.", answer="1",
                   docs=[Path("x.pdf")], gold_pages=None, modality=["table"]),
        EvalRecord(id="b", source="s", question="Who audits the company?", answer="KPMG", docs=[Path("x.pdf")],
                   gold_pages=None, modality=["text"]),
    ]
    probes = later_probes(recs, 5)
    assert [(p.id, p.question, p.unanswerable) for p in probes] == [
        ("a@later", "What was FY2021 capex? Compare with 2020.", True)]
    assert later_probes(recs, 0) == []


def test_a_stratified_subset_takes_each_sources_documents_in_turn() -> None:
    from mfr_eval.evaluate import EvalRecord, take

    def rec(i: str, source: str, doc: str) -> EvalRecord:
        return EvalRecord(id=i, source=source, question="?", answer="1", docs=[Path(f"/d/{doc}.pdf")], gold_pages=None)

    recs = [rec("a1", "adi", "gs"), rec("a2", "adi", "gs"), rec("a3", "adi", "gs"), rec("a4", "adi", "msft"),
            rec("a5", "adi", "msft"), rec("a6", "adi", "nvda"), rec("f1", "fb", "pep"), rec("f2", "fb", "pep")]
    assert [r.id for r in take(recs, per_source=4)] == ["a1", "a2", "a4", "a6", "f1", "f2"]  # not a1-a4: gs only
    assert [r.id for r in take(recs, per_source=1)] == ["a1", "f1"]
    assert [r.id for r in take(recs, per_source=2, limit=3)] == ["a1", "a4", "f1"]
    assert take(recs, limit=2) == recs[:2]


def test_no_probe_from_a_question_about_the_company_that_names_nothing(tmp_path: Path) -> None:
    from mfr_eval.evaluate import EvalRecord, _doc_key, mismatched_probes

    docs = [tmp_path / f"{n}.pdf" for n in ("acme", "globex")]
    for p in docs:
        p.write_bytes(b"%PDF-1.4")
    generic = "What are the revenues of the company for every period shown?"
    recs = [EvalRecord(id="g", source="parsee", question=generic, answer="1", docs=[docs[0]], gold_pages=None,
                       group="acme"),
            EvalRecord(id="n", source="parsee", question="What were the company's Cloud revenues in 2022?",
                       answer="1", docs=[docs[1]], gold_pages=None, group="globex")]
    probes = mismatched_probes(recs, 2, [_doc_key(p) for p in docs])
    assert [p.id for p in probes] == ["n@other"]  # 'Cloud' is named: the other filing cannot answer it

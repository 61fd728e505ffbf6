"""scripts/results_to_readme.py: the Results section between markers, regenerated from benchmark outputs."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from mfr_eval.evaluate import EvalOptions, build_report

ROOT = Path(__file__).resolve().parents[1]


def _module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("results_to_readme", ROOT / "scripts" / "results_to_readme.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _question(qid: str, source: str, correct: bool, recall: float) -> dict:
    return {"id": qid, "source": source, "modality": "table", "unanswerable": False, "recall": recall,
            "precision": recall / 2, "rr": recall, "doc_hit": True, "prediction": "x", "refused": False,
            "correct": correct, "score": float(correct), "scorer": "numeric", "timings": {"retrieve": 0.2,
                                                                                       "generate": 3.0, "total": 3.2},
            "tokens": 40, "error": ""}


def test_results_section_is_spliced_between_markers(tmp_path: Path) -> None:
    mod = _module()
    out = tmp_path / "out"
    out.mkdir()
    qs = [_question("a", "financebench", True, 1.0), _question("b", "parsee_revenues", False, 0.0)]
    for name in ("default", "no-tiers"):
        report = build_report(qs, EvalOptions(ablation=name))
        (out / f"eval_{name}.json").write_text(json.dumps(report))
    routed = [{**qs[0], "routed": "company=3m"}, {**qs[1], "routed": ""}]
    (out / "eval_default-library.json").write_text(json.dumps(build_report(routed, EvalOptions(scope="library"))))
    (out / "bench_ingest.json").write_text(json.dumps({
        "files": [{"file": "x.pdf", "pages": 10}], "pages": 10, "ingest_seconds": 50.0, "pdfplumber_seconds": 1.0,
        "ratio_to_pdfplumber": 50.0, "stage_seconds": {"detect": 30.0, "embed": 10.0}, "peak_rss_mb": {"self": 900}}))
    readme = tmp_path / "README.md"
    readme.write_text("# mfr-tui\n\nIntro by the lead.\n")
    assert mod.main(["--out-dir", str(out), "--readme", str(readme)]) == 0
    text = readme.read_text()
    assert text.startswith("# mfr-tui\n\nIntro by the lead.\n") and "## Results" in text
    assert "| default | 2 | 0.500 |" in text and "| no-tiers |" in text
    assert "Library scope by routing (default-library)" in text and "| not routed | 1 | 0.000 |" in text
    assert "**50.0x**" in text and "No run yet: `python benchmarks/bench_latency.py" in text
    # idempotent, and text after the section survives a regeneration
    readme.write_text(text + "\n## Licence\nApache-2.0\n")
    assert mod.main(["--out-dir", str(out), "--readme", str(readme), "--check"]) == 0
    (out / "eval_no-tiers.json").unlink()
    assert mod.main(["--out-dir", str(out), "--readme", str(readme), "--check"]) == 1
    assert mod.main(["--out-dir", str(out), "--readme", str(readme)]) == 0
    text = readme.read_text()
    assert "| no-tiers |" not in text and text.endswith("## Licence\nApache-2.0\n") and text.count("## Results") == 1

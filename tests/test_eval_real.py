"""`mfr-tui eval` end to end on two small dev records through the packaged real models."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = [pytest.mark.real_models, pytest.mark.eval_data, pytest.mark.slow]

IDS = ("parsee_rev_allianz_3", "parsee_rev_mb")
"""One-page revenue statements (parsee): small enough for CI, with structured gold answers and page labels."""


def test_mfr_tui_eval_on_dev_records(eval_dir: Path, tmp_path: Path, private_data_dir: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    from mfr_tui.cli import main

    out = tmp_path / "report.json"
    argv = ["--threads", "2", "eval", str(eval_dir / "dev.jsonl"), "--source", "parsee_revenues", "--k", "5",
            "--quiet"]
    for rid in IDS:
        argv += ["--id", rid]
    assert main(argv + ["--out", str(out)]) == 0
    assert "recall@5" in capsys.readouterr().out
    report = json.loads(out.read_text())
    assert report["n"] == 2 and report["errors"] == 0, report["questions"]
    assert report["ingest"]["status"] == {"ingested": 2}
    # one-page documents: the gold page is the only page, so it must be retrieved
    assert report["page_recall@k"] == 1.0 and report["mrr"] == 1.0
    for q in report["questions"]:
        assert q["scorer"] == "structured" and q["prediction"], q
        assert q["tokens"] > 0 and q["timings"]["total"] > 0
    assert report["answer_accuracy"] is not None
    # A second run finds both documents already ingested.
    again = tmp_path / "again.json"
    assert main(argv + ["--retrieval-only", "--out", str(again)]) == 0
    second = json.loads(again.read_text())
    assert second["ingest"]["status"] == {"unchanged": 2} and second["page_recall@k"] == 1.0

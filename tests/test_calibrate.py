"""Calibration: a sweep over the real score range, stored per embedder, used by retrieval; the CLI command."""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from test_retrieve_lib import Library, acme_docs, build_library

from engine import ConfigError, Engine
from mfr_eval.calibrate import CalibrationError, calibrate, grid_for


def qa_library(tmp_path: Path):  # type: ignore[no-untyped-def]
    docs = acme_docs()
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    for d in docs:
        body = f"%PDF fake {d.name}".encode()
        (pdfs / f"{d.name}.pdf").write_bytes(body)
        d.sha256 = hashlib.sha256(body).hexdigest()
    lib = build_library(tmp_path, docs)
    records = [
        {"question": "What was total revenue in 2023?", "docs": ["pdfs/ACME_2023_10K.pdf"],
         "evidence": [{"doc": "pdfs/ACME_2023_10K.pdf", "page0": 1}]},
        {"question": "How much restricted cash was held?", "docs": ["pdfs/ACME_2023_10K.pdf"],
         "evidence": [{"doc": "pdfs/ACME_2023_10K.pdf", "page0": 3}]},
        {"question": "Gross profit in the statements of operations", "docs": ["pdfs/ACME_2023_10K.pdf"],
         "evidence": [{"doc": "pdfs/ACME_2023_10K.pdf", "page0": 4}]},
        {"question": "How many people does Globex employ?", "docs": ["pdfs/GLOBEX_2023_10K.pdf"],
         "evidence": [{"doc": "pdfs/GLOBEX_2023_10K.pdf", "page0": 2}]},
        {"question": "No pages here", "docs": ["pdfs/GLOBEX_2023_10K.pdf"], "evidence": None},
        {"question": "Not in the library", "docs": ["pdfs/OTHER.pdf"],
         "evidence": [{"doc": "pdfs/OTHER.pdf", "page0": 0}]},
    ]
    qa = tmp_path / "qa.jsonl"
    qa.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    return lib, qa


@contextmanager
def engine_on(lib: Library, **changes: Any) -> Iterator[Engine]:
    """An Engine over the test library (its settings with ``changes``, its fake models)."""
    engine = Engine(lib.settings.with_(**changes), lib.models)
    try:
        yield engine
    finally:
        engine.store.close()


def test_sweep_stores_thresholds_per_embedder_and_retrieval_uses_them(tmp_path: Path) -> None:
    lib, qa = qa_library(tmp_path)
    seen: list[str] = []
    with engine_on(lib, top_k=2, min_text_hits=2, top_tables=1, top_images=1) as engine:
        result = calibrate(engine, qa, steps=5, on_progress=lambda stage, d, t: seen.append(stage))
        used = engine.retriever().thresholds()
    assert result.questions == 4 and result.skipped == 2
    assert result.recall >= result.previous_recall
    assert result.recall == 1.0
    assert {"embed", "sweep"} <= set(seen)
    stored = lib.store.get_setting("thresholds:fake-crc32")
    assert stored["text"] == result.thresholds["text"] and stored["questions"] == 4
    assert used == result.thresholds
    for values in result.grid.values():
        assert values == sorted(values)


def test_dry_run_stores_nothing(tmp_path: Path) -> None:
    lib, qa = qa_library(tmp_path)
    with engine_on(lib) as engine:
        result = calibrate(engine, qa, store_result=False, steps=3)
    assert not result.stored and lib.store.get_setting("thresholds:fake-crc32") is None


def test_no_usable_question_is_an_error(tmp_path: Path) -> None:
    lib, _ = qa_library(tmp_path)
    qa = tmp_path / "empty.jsonl"
    qa.write_text(json.dumps({"question": "x", "docs": ["nope.pdf"], "evidence": [{"doc": "nope.pdf", "page0": 0}]}))
    with engine_on(lib) as engine:
        with pytest.raises(CalibrationError):
            calibrate(engine, qa)
        bad = tmp_path / "bad.jsonl"
        bad.write_text("{not json\n")
        with pytest.raises(CalibrationError):
            calibrate(engine, bad)


def test_set_thresholds_stores_them_for_the_embedder_in_use(tmp_path: Path) -> None:
    lib, _ = qa_library(tmp_path)
    with engine_on(lib) as engine:
        assert engine.set_thresholds({"text": 0.4, "table": 0.3, "image": 0.2}, source="qa.jsonl") == "fake-crc32"
        assert engine.retriever().thresholds() == {"text": 0.4, "table": 0.3, "image": 0.2}
        with pytest.raises(ConfigError, match="chart"):
            engine.set_thresholds({"chart": 0.5})
    assert lib.store.get_setting("thresholds:fake-crc32")["source"] == "qa.jsonl"


def test_grid_spans_observed_scores() -> None:
    g = grid_for([0.1, 0.2, 0.3, 0.4, 0.5], 5)
    assert g[0] >= 0.1 and g[-1] <= 0.5 and len(g) == 5
    assert grid_for([], 5) == [0.0]


def test_cli_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mfr_tui.cli import build_parser
    from mfr_tui.cli_calibrate import cmd_calibrate

    lib, qa = qa_library(tmp_path)
    args = build_parser().parse_args(["calibrate", str(qa), "--root", str(tmp_path), "--json"])
    assert args.func is cmd_calibrate
    engine = Engine(lib.settings, lib.models)
    assert cmd_calibrate(engine, args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["embedder"] == "fake-crc32" and data["stored"] is True
    args = build_parser().parse_args(["calibrate", str(qa), "--dry-run"])
    assert cmd_calibrate(engine, argparse.Namespace(**{**vars(args), "json": False})) == 0
    assert "not stored" in capsys.readouterr().out
    engine.close()

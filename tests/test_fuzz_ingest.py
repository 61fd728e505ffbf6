"""Fuzz the ingestion entry point with mutated PDFs: no crash other than a clean EngineError, and the library
holds exactly what ingested.

A worker process (this file run as a script) first ingests one filing (the earlier library), then mutates seed
PDFs (bit flips, random spans, truncation, deleted and duplicated spans, PDF tokens and huge numbers inserted,
splices of two seeds) and ingests each case with ``Engine.ingest`` (fake models, all stages on). A result
titled "Unexpected ingestion failure" is a finding; so is the worker dying (a native crash) or hanging: the
parent names the case that did it. The cases come from one fixed seed, printed and in the test id, so a
finding reproduces:

    MFR_FUZZ_SEED=7 MFR_FUZZ_CASES=500 nice -n 10 python -m pytest tests/test_fuzz_ingest.py -s    # another run

Seeds: the generated filing of tests/pdfgen.py, and small real filings from ../shared/data/eval when present
(read in place, never copied into the repo). Crashing inputs are kept under the test's tmp dir.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

FUZZ_SEED = int(os.environ.get("MFR_FUZZ_SEED", "1126"))
"""The seed of the mutations; a run is reproduced by its seed and case count."""
FUZZ_CASES = int(os.environ.get("MFR_FUZZ_CASES", "100"))
"""Mutated PDFs ingested per run."""
TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
EVAL = REPO.parent / "shared" / "data" / "eval"
REAL_SEEDS = [
    EVAL / "parsee" / "datasets" / "revenues" / "raw_data" / "telekom.pdf",
    EVAL / "financebench" / "pdfs" / "PEPSICO_2023_8K_dated-2023-05-05.pdf",
    EVAL / "parsee" / "datasets" / "revenues" / "raw_data" / "dhl.pdf",
]
TOKENS = [b"obj", b"endobj", b"stream\n", b"endstream", b"/Length 99999999", b"<<", b">>", b"[", b"]", b"xref",
          b"trailer", b"%%EOF", b"/Type /Page", b"/Type /Pages", b"0 0 R", b"-1", b"99999999999",
          b"/Filter /FlateDecode", b"(", b")", b"/Count 4000000", b"/Kids [1 0 R]", b"/Parent 1 0 R",
          b"/MediaBox [0 0 0 0]", b"/MediaBox [0 0 99999 99999]", b"\x00" * 16, b"/Encrypt 1 0 R",
          b"/ObjStm", b"startxref\n0\n"]


def mutate(rng: random.Random, seeds: list[bytes]) -> bytes:
    data = bytearray(rng.choice(seeds))
    for _ in range(rng.randint(1, 4)):
        n = len(data)
        if n < 16:
            break
        op = rng.randrange(8)
        i = rng.randrange(n)
        if op == 0:
            for _ in range(rng.randint(1, 20)):
                j = rng.randrange(n)
                data[j] ^= 1 << rng.randrange(8)
        elif op == 1:
            k = rng.randint(1, 256)
            data[i : i + k] = rng.randbytes(k)
        elif op == 2:
            del data[max(16, i):]
        elif op == 3:
            del data[i : i + rng.randint(1, 4096)]
        elif op == 4:
            k = rng.randint(1, 2048)
            data[i:i] = data[i : i + k]
        elif op == 5:
            data[i:i] = rng.choice(TOKENS)
        elif op == 6:
            # replace a number with an extreme one
            j = data.find(b" ", i)
            if j > 0:
                data[j + 1 : j + 2] = rng.choice([b"4294967297", b"-2147483649", b"0", b"1e308"])
        else:
            other = rng.choice(seeds)
            k = rng.randrange(len(other))
            data[i:] = other[k:]
    return bytes(data)


def worker(cases: int, seed: int, out: Path) -> int:
    """Ingest ``cases`` mutated PDFs into a library that already holds one filing; one JSON line per case, then
    a summary with the library's documents and pages and whether the earlier filing is intact."""
    sys.path.insert(0, str(TESTS))
    from fakes_models import FakeEmbedder, FakeLLM
    from pdfgen import FILING_PAGES, write_filing, write_pdf

    from engine import Engine, Settings

    out.mkdir(parents=True, exist_ok=True)
    (out / "cases").mkdir(exist_ok=True)
    seeds = [write_filing(out / "seed_filing.pdf").read_bytes(),
             write_pdf(out / "seed_long.pdf", FILING_PAGES * 4).read_bytes()]
    seeds += [p.read_bytes() for p in REAL_SEEDS if p.exists()]
    rng = random.Random(seed)
    models = {"embedder": FakeEmbedder(), "llm": FakeLLM(), "vision": None, "detector": None, "ocr": None,
              "reranker": None}
    engine = Engine(Settings(data_dir=out / "lib", extract_workers=1, max_pages=300), overrides=models)
    [first] = engine.ingest([write_filing(out / "earlier.pdf")])
    assert first.ok, first.error

    def snapshot(doc_id: str) -> tuple[Any, ...]:
        return (engine.store.pages(doc_id, with_words=True), [c.text for c in engine.store.chunks(doc_ids=[doc_id])],
                [r.to_json() for r in engine.regions(doc_id)])

    before = snapshot(first.doc_id)
    expected = {first.doc_id: first.pages}
    counts: dict[str, int] = {}
    crashes: list[dict[str, str]] = []
    for i in range(1, cases + 1):
        data = mutate(rng, seeds)
        case = out / "cases" / f"case-{i}.pdf"
        case.write_bytes(data)
        (out / "current").write_text(str(case))
        print(json.dumps({"start": i}), flush=True)
        [res] = engine.ingest([case])
        key = "ok" if res.ok else res.error_title
        counts[key] = counts.get(key, 0) + 1
        if res.error_title == "Unexpected ingestion failure":
            crashes.append({"case": str(case), "error": res.error[:500]})
        if res.ok:
            expected[res.doc_id] = res.pages
    documents = engine.documents()
    library = {d.id: len(engine.store.pages(d.id)) for d in documents if d.status in {"ready", "partial"}}
    report = engine.doctor()
    print(json.dumps({"done": True, "cases": cases, "seed": seed, "outcomes": counts, "crashes": crashes,
                      "statuses": sorted({d.status for d in documents}), "library_pages": library,
                      "expected_pages": expected, "earlier_intact": snapshot(first.doc_id) == before,
                      "doctor_clean": report.clean}), flush=True)
    engine.close()
    return 0


def run_fuzz(cases: int, seed: int, out: Path) -> dict[str, Any]:
    """Run the worker in its own process (a native crash or a hang is then a finding, not a dead test run)."""
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "MFR_DATA_DIR": str(out / "lib")}
    proc = subprocess.Popen([sys.executable, __file__, "--worker", "--cases", str(cases), "--seed", str(seed),
                             "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=REPO)
    current = out / "current"
    try:
        stdout, stderr = proc.communicate(timeout=60 + 30 * cases)
    except subprocess.TimeoutExpired:
        proc.kill()
        stdout, stderr = proc.communicate()
        return {"hang": True, "case": current.read_text() if current.exists() else "",
                "last": stdout.strip().splitlines()[-1:]}
    lines = [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]
    summary = next((x for x in lines if x.get("done")), None)
    if summary is None:
        return {"died": proc.returncode, "case": current.read_text() if current.exists() else "",
                "last": lines[-1:], "stderr": stderr[-3000:]}
    return summary


@pytest.mark.parametrize("seed", [FUZZ_SEED], ids=lambda seed: f"seed{seed}-{FUZZ_CASES}cases")
def test_fuzz_ingest_with_mutated_pdfs(seed: int, tmp_path: Path) -> None:
    summary = run_fuzz(FUZZ_CASES, seed, tmp_path / "fuzz")
    shown = {k: v for k, v in summary.items() if k not in {"library_pages", "expected_pages"}}
    print(f"\nfuzz seed {seed} ({FUZZ_CASES} cases; MFR_FUZZ_SEED={seed} reproduces): {json.dumps(shown)}")
    assert "hang" not in summary and "died" not in summary, summary
    assert summary["crashes"] == [], summary["crashes"]
    assert summary["cases"] == FUZZ_CASES and sum(summary["outcomes"].values()) == FUZZ_CASES
    # The library holds exactly the filings that ingested, each with all its pages, and nothing of the filing
    # it held before was lost or changed; a failed case leaves a failed record, never a half-ingested one.
    assert summary["library_pages"] == summary["expected_pages"], (summary["library_pages"], summary["expected_pages"])
    assert summary["earlier_intact"] is True
    assert set(summary["statuses"]) <= {"ready", "partial", "failed"}, summary["statuses"]
    assert summary["doctor_clean"] is True


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=4096))
def test_rebuild_never_raises_on_arbitrary_bytes(data: bytes) -> None:
    from engine.ingest.safety import rebuild, surviving_pages

    data = b"%PDF-1.4\n" + data
    out = rebuild(data)
    assert out is None or out.startswith(b"%PDF-")
    if surviving_pages(data) == 0:
        assert rebuild(data, flat=True) is None


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_a_flat_rebuild_holds_only_pages_that_survived(seed: int) -> None:
    """A mutated filing rebuilt flat gets one page tree over at least one and at most every page object that
    survived in it, or no rebuild when none did."""
    from engine.ingest.safety import rebuild, surviving_pages

    data = mutate(random.Random(seed), [_filing_bytes()])
    survived = surviving_pages(data)
    flat = rebuild(data, flat=True)
    if survived == 0:
        assert flat is None
    if flat is not None:
        counts = re.findall(rb"/Type /Pages /Kids \[[^\]]*\] /Count (\d+)", flat)
        assert counts and 1 <= int(counts[-1]) <= survived


@functools.cache
def _filing_bytes() -> bytes:
    """The generated filing of tests/pdfgen.py, as bytes."""
    from pdfgen import write_filing

    with tempfile.TemporaryDirectory() as tmp:
        return write_filing(Path(tmp) / "filing.pdf").read_bytes()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mutations_are_deterministic(seed: int) -> None:
    seeds = [b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n" * 20]
    assert mutate(random.Random(seed), seeds) == mutate(random.Random(seed), seeds)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", action="store_true")
    ap.add_argument("--cases", type=int, default=FUZZ_CASES)
    ap.add_argument("--seed", type=int, default=FUZZ_SEED)
    ap.add_argument("--out", type=Path, default=Path("/tmp/mfr-fuzz"))
    a = ap.parse_args()
    if a.worker:
        raise SystemExit(worker(a.cases, a.seed, a.out))
    print(json.dumps(run_fuzz(a.cases, a.seed, a.out), indent=2))

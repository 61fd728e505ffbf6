"""Fuzz the ingestion entry point with mutated PDFs for a bounded time: no crash other than a clean EngineError.

A worker process (this file run as a script) mutates seed PDFs (bit flips, random spans, truncation, deleted
and duplicated spans, PDF tokens and huge numbers inserted, splices of two seeds) and ingests each case with
``Engine.ingest`` (fake models, all stages on). A result titled "Unexpected ingestion failure" is a finding; so
is the worker dying (a native crash) or hanging: the parent names the case that did it.

    MFR_FUZZ_SECONDS=600 nice -n 10 python -m pytest tests/test_fuzz_ingest.py -s    # a longer run

Seeds: the generated filing of tests/pdfgen.py, and small real filings from ../shared/data/eval when present
(read in place, never copied into the repo). Crashing inputs are kept under the test's tmp dir.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def worker(seconds: float, seed: int, out: Path) -> int:
    """Run cases until the time is up; one JSON line per case; a summary line at the end."""
    sys.path.insert(0, str(TESTS))
    from fakes_models import FakeEmbedder, FakeLLM
    from pdfgen import FILING_PAGES, write_filing, write_pdf

    from engine import Engine, Settings

    out.mkdir(parents=True, exist_ok=True)
    seeds = [write_filing(out / "seed_filing.pdf").read_bytes(),
             write_pdf(out / "seed_long.pdf", FILING_PAGES * 4).read_bytes()]
    seeds += [p.read_bytes() for p in REAL_SEEDS if p.exists()]
    rng = random.Random(seed)
    models = {"embedder": FakeEmbedder(), "llm": FakeLLM(), "vision": None, "detector": None, "ocr": None,
              "reranker": None}
    engine = Engine(Settings(data_dir=out / "lib", extract_workers=1, max_pages=300), overrides=models)
    case = out / "current.pdf"
    deadline = time.monotonic() + seconds
    counts: dict[str, int] = {}
    crashes: list[dict[str, str]] = []
    i = 0
    while time.monotonic() < deadline:
        i += 1
        data = mutate(rng, seeds)
        case.write_bytes(data)
        print(json.dumps({"start": i}), flush=True)
        [res] = engine.ingest([case])
        key = "ok" if res.ok else res.error_title
        counts[key] = counts.get(key, 0) + 1
        if res.error_title == "Unexpected ingestion failure":
            kept = out / f"crash-{i}.pdf"
            kept.write_bytes(data)
            crashes.append({"case": str(kept), "error": res.error[:500]})
        if res.ok and res.doc_id:
            engine.remove(res.doc_id)
    report = engine.doctor()
    print(json.dumps({"done": True, "cases": i, "seconds": seconds, "outcomes": counts, "crashes": crashes,
                      "doctor_clean": report.clean}), flush=True)
    return 0


def run_fuzz(seconds: float, seed: int, out: Path) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "MFR_DATA_DIR": str(out / "lib")}
    proc = subprocess.Popen([sys.executable, __file__, "--worker", "--seconds", str(seconds), "--seed", str(seed),
                             "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=REPO)
    try:
        stdout, stderr = proc.communicate(timeout=seconds + 180)
    except subprocess.TimeoutExpired:
        proc.kill()
        stdout, stderr = proc.communicate()
        return {"hang": True, "case": str(out / "current.pdf"), "last": stdout.strip().splitlines()[-1:]}
    lines = [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]
    summary = next((x for x in lines if x.get("done")), None)
    if summary is None:
        return {"died": proc.returncode, "case": str(out / "current.pdf"), "last": lines[-1:],
                "stderr": stderr[-3000:]}
    return summary


def test_fuzz_ingest_with_mutated_pdfs(tmp_path: Path) -> None:
    seconds = float(os.environ.get("MFR_FUZZ_SECONDS", "60"))
    seed = int(os.environ.get("MFR_FUZZ_SEED", str(int(time.time()) % 100000)))
    summary = run_fuzz(seconds, seed, tmp_path / "fuzz")
    print(f"\nfuzz seed {seed}: {json.dumps(summary)}")
    assert "hang" not in summary and "died" not in summary, summary
    assert summary["crashes"] == [], summary["crashes"]
    assert summary["doctor_clean"] is True
    assert int(summary["cases"]) >= 5  # type: ignore[call-overload]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=4096))
def test_rebuild_never_raises_on_arbitrary_bytes(data: bytes) -> None:
    from engine.safety import rebuild, surviving_pages

    out = rebuild(b"%PDF-1.4\n" + data)
    assert out is None or out.startswith(b"%PDF-")
    assert surviving_pages(data) >= 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mutations_are_deterministic(seed: int) -> None:
    seeds = [b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n" * 20]
    assert mutate(random.Random(seed), seeds) == mutate(random.Random(seed), seeds)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", action="store_true")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("/tmp/mfr-fuzz"))
    a = ap.parse_args()
    if a.worker:
        raise SystemExit(worker(a.seconds, a.seed, a.out))
    print(json.dumps(run_fuzz(a.seconds, a.seed, a.out), indent=2))

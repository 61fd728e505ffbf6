"""Kill `mfr-tui ingest` with SIGKILL at random points, resume until done, then prove nothing is duplicated.

    nice -n 10 python scripts/fault_injection.py --kills 20 [--seed 7] [--work /tmp/mfr-fault] [PDF ...]

Defaults to a few small real filings from ../shared/data/eval (read in place; a page subset of a 10-K is
written to the work dir, never into the repo). Uses a models.toml with the packaged MiniLM embedder, the PDF
geometry as the layout detector and no OCR/vision/LLM, so each run takes seconds.

It first ingests everything once, uninterrupted, into a reference library. Then, in the library under test, it
starts ingest again and again and kills it (``kill -9``) either after a random delay or right after a random
progress line, until ``--kills`` processes have really been killed mid-run; then it re-runs ingest until it
exits 0 and asserts:

- every PDF is in the library exactly once and ready/partial;
- each document's chunks equal the reference library's (same count and texts per modality): nothing
  duplicated, nothing lost;
- every index's keys equal the catalogue's chunk ids of that modality;
- `mfr-tui doctor --json` reports the library clean.

Exit status 0 when all hold; a JSON summary is printed either way.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
EVAL = REPO.parent / "shared" / "data" / "eval"
DEFAULT_PDFS = [
    EVAL / "parsee" / "datasets" / "revenues" / "raw_data" / "telekom.pdf",
    EVAL / "financebench" / "pdfs" / "PEPSICO_2023_8K_dated-2023-05-05.pdf",
    EVAL / "parsee" / "datasets" / "revenues" / "raw_data" / "dhl.pdf",
]
SUBSET_SOURCE = (EVAL / "financebench" / "pdfs" / "3M_2018_10K.pdf", range(44, 52))
"""A 10-K's financial statement pages (tables) cut into a small PDF in the work dir."""

MODELS_TOML = """
default_profile = "default"
[profiles.default]
description = "fault injection: packaged MiniLM, PDF geometry, no OCR, no vision, no usable LLM"
[profiles.default.embedder]
backend = "sentence-transformers"
packaged = "all-minilm-l6-v2"
device = "cpu"
[profiles.default.llm]
backend = "llama-cpp"
path = "{work}/no-llm.gguf"
[profiles.default.detector]
backend = "geometry"
[profiles.default.ocr]
backend = "none"
[profiles.default.vision]
backend = "none"
[profiles.default.reranker]
backend = "none"
"""


def cli(data_dir: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "mfr_tui.cli", "--data-dir", str(data_dir), *args]


def run_env(work: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["MFR_MODELS_TOML"] = str(work / "models.toml")
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["MFR_MP_START"] = "fork"
    return env


def make_subset(work: Path) -> Path | None:
    src, pages = SUBSET_SOURCE
    if not src.exists():
        return None
    import pypdfium2 as pdfium

    out = work / "subset_3M_2018_10K_p45-52.pdf"
    if out.exists():
        return out
    doc = pdfium.PdfDocument(str(src))
    new = pdfium.PdfDocument.new()
    new.import_pages(doc, [p for p in pages if p < len(doc)])
    new.save(str(out))
    return out


def ingest_to_end(data_dir: Path, pdfs: list[Path], env: dict[str, str], tries: int = 6) -> int:
    """Run ingest until it exits 0; returns how many runs it took."""
    for i in range(1, tries + 1):
        proc = subprocess.run(cli(data_dir, "ingest", "--quiet", *map(str, pdfs)), env=env,
                              capture_output=True, text=True, timeout=900)
        if proc.returncode == 0:
            return i
        sys.stderr.write(f"ingest run {i} exited {proc.returncode}:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}\n")
    raise SystemExit(f"ingest did not finish after {tries} runs")


def chunk_signature(db_path: Path) -> dict[str, Counter[tuple[str, str]]]:
    """Per document sha256: a multiset of (modality, text) of its chunks."""
    db = sqlite3.connect(db_path)
    try:
        out: dict[str, Counter[tuple[str, str]]] = {}
        rows = db.execute(
            "SELECT d.sha256, c.modality, c.text FROM chunks c JOIN documents d ON d.id = c.doc_id"
        ).fetchall()
        for sha, modality, text in rows:
            out.setdefault(sha, Counter())[(modality, text)] += 1
        return out
    finally:
        db.close()


def verify(data_dir: Path, ref_dir: Path, pdfs: list[Path], env: dict[str, str]) -> dict[str, Any]:
    sys.path.insert(0, str(REPO))
    from engine.library.index import usearch_index

    Index = usearch_index()

    problems: list[str] = []
    db = sqlite3.connect(data_dir / "catalogue.sqlite3")
    docs = db.execute("SELECT id, sha256, status FROM documents").fetchall()
    shas = Counter(sha for _, sha, _ in docs)
    for pdf in pdfs:
        sha = hashlib.sha256(pdf.read_bytes()).hexdigest()
        if shas.get(sha, 0) != 1:
            problems.append(f"{pdf.name} is in the library {shas.get(sha, 0)} times")
    for doc_id, _, status in docs:
        if status not in {"ready", "partial"}:
            problems.append(f"document {doc_id} has status {status}")
    if len(docs) != len(pdfs):
        problems.append(f"{len(docs)} documents for {len(pdfs)} PDFs")
    got, want = chunk_signature(data_dir / "catalogue.sqlite3"), chunk_signature(ref_dir / "catalogue.sqlite3")
    for sha, counter in want.items():
        if got.get(sha) != counter:
            extra = sum((got.get(sha, Counter()) - counter).values())
            lost = sum((counter - got.get(sha, Counter())).values())
            problems.append(f"document {sha[:12]}: {extra} extra and {lost} missing chunks vs the reference")
    keys_ok = {}
    for m in ("text", "table", "image"):
        ids = {r[0] for r in db.execute("SELECT id FROM chunks WHERE modality = ?", (m,))}
        path = data_dir / "index" / f"{m}.usearch"
        keys = {int(k) for k in Index.restore(str(path)).keys} if path.exists() else set()
        keys_ok[m] = {"chunks": len(ids), "vectors": len(keys), "equal": keys == ids}
        if keys != ids:
            problems.append(f"{m} index: {len(keys - ids)} vectors without chunks, {len(ids - keys)} chunks "
                            "without vectors")
    db.close()
    doc = subprocess.run(cli(data_dir, "doctor", "--json"), env=env, capture_output=True, text=True, timeout=600)
    try:
        report = json.loads(doc.stdout)
    except ValueError:
        report = {"clean": False, "raw": doc.stdout[-2000:] + doc.stderr[-2000:]}
    if doc.returncode != 0 or not report.get("clean"):
        problems.append(f"doctor is not clean: {[f['message'] for f in report.get('findings', [])]}")
    return {"problems": problems, "documents": len(docs), "indexes": keys_ok,
            "doctor_clean": bool(report.get("clean")),
            "doctor_findings": [f"{f['severity']} {f['check']}" for f in report.get("findings", [])]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pdfs", nargs="*", type=Path)
    ap.add_argument("--kills", type=int, default=20, help="processes to kill mid-run (default 20)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--work", type=Path, default=Path("/tmp/mfr-fault-injection"))
    ap.add_argument("--max-runs", type=int, default=200, help="give up after this many started runs")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    (work / "models.toml").write_text(MODELS_TOML.format(work=work))
    pdfs = [p.resolve() for p in args.pdfs] or [p for p in DEFAULT_PDFS if p.exists()]
    if not args.pdfs:
        subset = make_subset(work)
        if subset is not None:
            pdfs.append(subset)
    if not pdfs:
        raise SystemExit("no PDFs: pass some, or provide ../shared/data/eval")
    env = run_env(work)
    ref, lib = work / "reference", work / "library"
    import shutil

    shutil.rmtree(lib, ignore_errors=True)
    shutil.rmtree(ref, ignore_errors=True)
    ingest_to_end(ref, pdfs, env)
    # Measure one uninterrupted run's length (model load included) to spread the time-based kills over it.
    shutil.rmtree(work / "timing", ignore_errors=True)
    t1 = time.monotonic()
    ingest_to_end(work / "timing", pdfs, env)
    t_full = time.monotonic() - t1
    shutil.rmtree(work / "timing", ignore_errors=True)

    kills: list[dict[str, Any]] = []
    completed = runs = 0
    while len(kills) < args.kills and runs < args.max_runs:
        runs += 1
        mode = rng.choice(["time", "line"])
        delay = rng.uniform(0.3, t_full) if mode == "time" else rng.uniform(0.0, 0.4)
        target_line = rng.randint(1, 40)
        proc = subprocess.Popen(cli(lib, "ingest", *map(str, pdfs)), env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        assert proc.stderr is not None
        start = time.monotonic()
        last_line, lines = "", 0
        deadline = start + delay if mode == "time" else None
        while proc.poll() is None:
            timeout = 0.05 if deadline is None else max(0.0, min(0.05, deadline - time.monotonic()))
            ready, _, _ = select.select([proc.stderr], [], [], timeout)
            if ready:
                line = proc.stderr.readline()
                if line:
                    lines += 1
                    last_line = line.strip()
                    if mode == "line" and lines >= target_line and deadline is None:
                        deadline = time.monotonic() + delay
            if deadline is not None and time.monotonic() >= deadline:
                break
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # the CLI and any page-reader workers it forked
            proc.wait()
            kills.append({"run": runs, "mode": mode, "after_s": round(time.monotonic() - start, 2),
                          "progress_lines": lines, "last_progress": last_line[:120]})
            sys.stderr.write(f"kill {len(kills)}/{args.kills} after {kills[-1]['after_s']}s: {last_line[:100]}\n")
        else:
            proc.stderr.read()
            completed += 1
            # A finished library gets nothing more to do; start over so later kills land mid-ingest again.
            if proc.returncode == 0 and len(kills) < args.kills:
                remove = subprocess.run(cli(lib, "library", "--json"), env=env, capture_output=True, text=True)
                docs = json.loads(remove.stdout or "{}").get("documents", [])
                if docs:
                    victim = rng.choice(docs)["id"]
                    subprocess.run(cli(lib, "remove", victim), env=env, capture_output=True)
    resume_runs = ingest_to_end(lib, pdfs, env)
    result = verify(lib, ref, pdfs, env)
    summary = {
        "pdfs": [p.name for p in pdfs],
        "full_run_seconds": round(t_full, 1),
        "started_runs": runs,
        "killed": len(kills),
        "completed_runs_between_kills": completed,
        "resume_runs_to_finish": resume_runs,
        "kill_points": kills,
        **result,
        "ok": not result["problems"] and len(kills) >= args.kills,
    }
    print(json.dumps(summary, indent=2))
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""Ingestion throughput on dev filings, against a bare pdfplumber ``extract_text`` pass over the same files
measured in the same run, with seconds per stage and peak memory.

    python benchmarks/bench_ingest.py [--source docugami_sec10q] [--files 2] [--max-pages 60] [PDF ...]

Models are loaded before the clock starts (their load time is reported apart), and each run ingests into a
fresh temporary library, so nothing is ``unchanged``. Writes benchmarks/out/bench_ingest.json.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from common import EVAL, dev_pdfs, page_count, peak_rss_mb, write_json


def cpu_seconds() -> float:
    """CPU seconds (user + system) of this process, its threads and its finished child processes."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def pdfplumber_pass(files: list[Path]) -> tuple[float, int]:
    """Seconds for ``page.extract_text()`` over every page of every file, and the page count."""
    import pdfplumber

    pages = 0
    t0 = time.perf_counter()
    for f in files:
        with pdfplumber.open(f) as pdf:
            for page in pdf.pages:
                page.extract_text()
                page.flush_cache()
                pages += 1
    return time.perf_counter() - t0, pages



def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pdfs", nargs="*", type=Path, help="PDFs to ingest (default: picked from the dev set)")
    ap.add_argument("--eval", type=Path, default=EVAL, help="dev set folder")
    ap.add_argument("--source", action="append", help="dev sources to pick files from (prefix); repeatable")
    ap.add_argument("--files", type=int, default=2, help="how many dev files to pick (default 2)")
    ap.add_argument("--max-pages", type=int, default=80, help="pick only files with at most this many pages")
    ap.add_argument("--profile", help="models.toml profile (default: the default profile)")
    ap.add_argument("--set", dest="changes", action="append", default=[], metavar="NAME=VALUE",
                    help="a setting for this run, as mfr-tui --set (e.g. detect_all_pages=true); repeatable")
    ap.add_argument("--keep", type=Path, metavar="DIR",
                    help="ingest into this new data dir and keep it (to compare its regions or retrieval after)")
    ap.add_argument("--out", help="JSON output (default benchmarks/out/bench_ingest.json)")
    args = ap.parse_args(argv)

    files = list(args.pdfs)
    if not files:
        candidates = dev_pdfs(args.eval, args.source or ["docugami_sec10q"])
        sized = [(page_count(p), p) for p in candidates if p.exists()]
        files = [p for n, p in sized if n <= args.max_pages][: args.files]
    if not files:
        sys.stderr.write(f"No PDFs to ingest (dev set at {args.eval} absent or no file matched).\n")
        return 1

    from engine import Engine, Settings
    from engine.settings import with_overrides

    c0 = cpu_seconds()
    plumber_s, pages = pdfplumber_pass(files)
    plumber_cpu = cpu_seconds() - c0
    print(f"pdfplumber extract_text: {pages} pages in {plumber_s:.2f}s ({pages / plumber_s:.1f} pages/s, "
          f"{plumber_cpu:.1f} CPU s)")

    if args.keep is not None and args.keep.exists() and any(args.keep.iterdir()):
        sys.stderr.write(f"--keep {args.keep}: not empty; name a new folder (each run ingests from scratch).\n")
        return 1
    with tempfile.TemporaryDirectory(prefix="mfr-bench-ingest-") as tmp:
        settings = Settings(data_dir=args.keep or Path(tmp))
        if args.profile:
            settings = settings.with_(profile=args.profile)
        settings = with_overrides(settings, args.changes)
        engine = Engine(settings)
        t0 = time.perf_counter()
        loaded = []
        for role in ("embedder", "detector", "ocr", "vision", "llm"):
            try:
                if engine.models.is_enabled(role) and engine.models.get(role) is not None:
                    loaded.append(role)
            except Exception as exc:  # a role that cannot load is reported; ingestion records it per stage
                print(f"  {role} did not load: {exc}")
        load_s = time.perf_counter() - t0
        print(f"model load ({', '.join(loaded)}): {load_s:.1f}s (not counted below)")
        budget = engine.models.budget.to_json()
        print(f"thread budget: {budget}; overlap_stages={settings.overlap_stages}")
        t0, c0 = time.perf_counter(), cpu_seconds()
        results = engine.ingest(files)
        ingest_s = time.perf_counter() - t0
        ingest_cpu = cpu_seconds() - c0
        stages: dict[str, float] = defaultdict(float)
        per_file = []
        for r in results:
            for stage, sec in r.stage_seconds.items():
                stages[stage] += sec
            per_file.append({"file": Path(r.path).name, "ok": r.ok, "status": r.status, "pages": r.pages,
                             "seconds": round(r.seconds, 2), "error": r.error,
                             "stages": {k: round(v, 2) for k, v in r.stage_seconds.items()}})
        docs = {d.id: d for d in engine.documents()}
        for f, r in zip(per_file, results, strict=True):
            d = docs.get(r.doc_id)
            if d is not None:
                f.update(tables=d.tables, figures=d.figures, chunks=d.chunks)
        engine.close()

    from mfr_eval.evaluate import machine_info

    ratio = ingest_s / plumber_s if plumber_s else float("nan")
    print(f"ingest: {pages} pages in {ingest_s:.1f}s ({pages / ingest_s:.2f} pages/s, {ingest_s / pages:.2f} s/page)")
    cpu_ratio = ingest_cpu / plumber_cpu if plumber_cpu else float("nan")
    print(f"ratio to the bare pdfplumber pass: {ratio:.1f}x wall clock, {cpu_ratio:.1f}x CPU time "
          f"({ingest_cpu:.0f} vs {plumber_cpu:.1f} CPU s; CPU time is the fairer figure on a busy machine)")
    for stage, sec in sorted(stages.items(), key=lambda x: -x[1]):
        print(f"  {stage:<10}{sec:>9.1f}s  {100 * sec / ingest_s:5.1f}%")
    mem = peak_rss_mb()
    print(f"peak RSS: {mem['self']:.0f} MiB (largest child process {mem['children']:.0f} MiB)")
    path = write_json(
        "bench_ingest",
        {
            "files": per_file,
            "pages": pages,
            "pdfplumber_seconds": round(plumber_s, 3),
            "ingest_seconds": round(ingest_s, 2),
            "model_load_seconds": round(load_s, 2),
            "pages_per_second": round(pages / ingest_s, 3),
            "ratio_to_pdfplumber": round(ratio, 2),
            "pdfplumber_cpu_seconds": round(plumber_cpu, 2),
            "ingest_cpu_seconds": round(ingest_cpu, 2),
            "cpu_ratio_to_pdfplumber": round(cpu_ratio, 2),
            "load_average_1m_at_end": round(os.getloadavg()[0], 2),
            "stage_seconds": {k: round(v, 2) for k, v in stages.items()},
            "peak_rss_mb": mem,
            "thread_budget": budget,
            "overlap_stages": settings.overlap_stages,
            "profile": args.profile or "default",
            "settings_changes": args.changes,
            "machine": machine_info(),
        },
        args.out,
    )
    print(f"wrote {path}")
    return 0 if all(r["ok"] for r in per_file) else 1


if __name__ == "__main__":
    raise SystemExit(main())

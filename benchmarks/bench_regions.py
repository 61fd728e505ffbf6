"""Regions on whole real filings: tables and figures found per filing and seconds per ingestion stage.

    python benchmarks/bench_regions.py [PDF ...] [--no-figure-llm] [--geometry] [--data-dir DIR]

Without PDFs it ingests three 10-Ks from ../shared/data/eval/financebench/pdfs with the default profile
(packaged YOLO DocLayNet, RapidOCR, MiniLM, Qwen2.5 1.5B for figure summaries). Each run uses a fresh data
dir, so nothing is reused from an earlier ingest.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
EVAL = ROOT.parent / "shared" / "data" / "eval"
DEFAULT = ["3M_2018_10K.pdf", "AMAZON_2017_10K.pdf", "PEPSICO_2022_10K.pdf"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pdfs", nargs="*", type=Path)
    ap.add_argument("--no-figure-llm", action="store_true", help="summarise figures without the text LLM")
    ap.add_argument("--geometry", action="store_true", help="no detector: the PDF-geometry fallback only")
    ap.add_argument("--data-dir", type=Path, default=None)
    args = ap.parse_args()
    pdfs = args.pdfs or [EVAL / "financebench" / "pdfs" / n for n in DEFAULT]
    missing = [p for p in pdfs if not p.exists()]
    if missing:
        print("missing: " + ", ".join(map(str, missing)))
        return 1
    from engine import Engine, Settings

    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="bench-regions-"))
    settings = Settings(data_dir=data_dir, figure_llm=not args.no_figure_llm)
    overrides = {"detector": None} if args.geometry else None
    engine = Engine(settings, overrides=overrides)
    print(f"data dir {data_dir}; figure LLM {'off' if args.no_figure_llm else 'on'}; "
          f"detector {'geometry' if args.geometry else 'models.toml'}")
    totals: Counter[str] = Counter()
    for pdf in pdfs:
        t0, c0 = time.perf_counter(), time.process_time()
        res = engine.ingest([pdf], force=True)[0]
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        if not res.ok:
            print(f"{pdf.name}: FAILED {res.error}")
            continue
        regions = engine.regions(res.doc_id)
        kinds = Counter(r.kind for r in regions)
        methods = Counter(r.method for r in regions if r.kind == "table")
        fig_methods = Counter(r.summary_method for r in regions if r.kind == "figure")
        parsed = sum(1 for r in regions if r.kind == "table" and r.table)
        doc = engine.document(res.doc_id)
        print(f"\n{pdf.name}: {res.pages} pages, {kinds['table']} tables ({parsed} with cells), "
              f"{kinds['figure']} figures, {kinds['caption']} captions, {kinds['title']} titles; {wall:.1f}s wall, "
              f"{cpu:.1f}s CPU of this process (text extraction runs in worker processes)")
        print("  stages: " + ", ".join(f"{k} {v:.1f}s" for k, v in res.stage_seconds.items()))
        print("  table methods: " + ", ".join(f"{k} {v}" for k, v in methods.most_common()))
        print("  figure summaries: " + ", ".join(f"{k} {v}" for k, v in fig_methods.most_common()))
        print(f"  metadata: {doc.company} | {doc.form_type} | {doc.fiscal_period} | {doc.filing_date}")
        if res.warnings:
            print(f"  {len(res.warnings)} warnings, first: {res.warnings[0]}")
        figs = [r for r in regions if r.kind == "figure"]
        totals["docs"] += 1
        totals["pages"] += res.pages
        totals["tables"] += kinds["table"]
        totals["figures"] += len(figs)
        totals["figures summarised"] += sum(1 for r in figs if r.summary.strip())
        totals["docs with a figure summary"] += int(any(r.summary.strip() for r in figs))
        totals["seconds"] += round(wall)
        for st, sec in res.stage_seconds.items():
            totals[f"s_{st}"] += round(sec)
    print("\ntotals: " + ", ".join(f"{k} {v}" for k, v in totals.items()))
    engine.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Table coverage measured in an ingested library (the dev set ingested whole, each filing in its context).

Same question as ``table_coverage.py`` (does the gold answer number appear in a parsed table on the gold
page?) and the same number matching, but read from a library that already holds the dev filings, e.g. the one
``mfr-tui ingest`` or ``mfr-tui eval`` built, instead of ingesting gold pages cut out of their filings.
Also prints tables and figures per filing and the seconds per stage recorded at ingestion.

    python benchmarks/table_coverage_library.py --data-dir DIR [--eval DIR] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from table_coverage import EVAL, Found, mods, tally  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, required=True, help="library holding the dev filings")
    ap.add_argument("--eval", type=Path, default=EVAL)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    from engine import Engine, Settings
    from engine.ingest.tables import table_numbers

    engine = Engine(Settings(data_dir=args.data_dir))
    by_path = {str(Path(d.path).resolve()): d for d in engine.documents() if d.status in {"ready", "partial"}}
    recs = [json.loads(line) for line in (args.eval / "dev.jsonl").read_text().splitlines() if line.strip()]
    recs = [r for r in recs if any(m and ("table" in m) for m in mods(r))]
    labelled = [r for r in recs if r.get("evidence") and all(e.get("page0") is not None for e in r["evidence"])]
    missing_docs: set[str] = set()
    cache: dict[tuple[str, int], tuple[list[float], str]] = {}

    def lookup(r: dict[str, Any]) -> Found | None:
        keys = [(e["doc"], int(e["page0"]) + 1) for e in r["evidence"]]
        docs = [by_path.get(str((args.eval / d).resolve())) for d, _ in keys]
        if any(d is None for d in docs):
            missing_docs.update(d for (d, _), doc in zip(keys, docs, strict=True) if doc is None)
            return None
        vals: list[float] = []
        text = ""
        for (_, page), doc in zip(keys, docs, strict=True):
            assert doc is not None
            key = (doc.id, page)
            if key not in cache:
                nums = [v for reg in engine.regions(doc.id, page=page, kind="table") for v in table_numbers(reg.table)]
                row = engine.store.page(doc.id, page)
                cache[key] = (nums, (row or {}).get("text", ""))
            vals += cache[key][0]
            text += "\n" + cache[key][1]
        return keys, vals, text

    result = tally(labelled, lookup)
    n, covered, attainable = result["n"], result["covered"], result["attainable"]
    per_source, misses = result["per_source"], result["misses"]
    print(f"table questions: {len(recs)}; with page labels: {len(labelled)}; documents in the library: {n}")
    if missing_docs:
        print(f"  {len(missing_docs)} documents not in the library: {', '.join(sorted(missing_docs)[:5])}...")
    print(f"answer number in a parsed table on the gold page: {covered}/{n} = {covered / max(1, n):.1%}")
    print(f"answer number appears in the gold page text at all: {attainable}/{n} = {attainable / max(1, n):.1%}")
    print(f"coverage where the number is on the page: {covered}/{attainable} = {covered / max(1, attainable):.1%}")
    for src, (q, h, c) in sorted(per_source.items()):
        print(f"  {src:28s} {h:4d}/{q:<4d} covered, {c:4d} on page")
    filings = []
    for doc in sorted(by_path.values(), key=lambda d: d.name):
        stages = engine.store.stages(doc.id)
        regions = engine.regions(doc.id)
        filings.append({
            "name": doc.name, "pages": doc.pages,
            "tables": sum(r.kind == "table" for r in regions), "figures": sum(r.kind == "figure" for r in regions),
            "seconds": {k: round(float(v.get("seconds", 0.0)), 1) for k, v in stages.items()},
        })
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"covered": covered, "n": n, "attainable": attainable,
                                         "per_source": per_source, "misses": misses, "filings": filings},
                                        indent=1))
        print(f"wrote {args.json}")
    engine.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

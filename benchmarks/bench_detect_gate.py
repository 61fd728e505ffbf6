"""What running the layout detector only where it is needed (``layout.needs_detector``) costs on a library that
was ingested with the detector on every page: the pages it skips, and the tables and figures the detector had
found there that the text layer's geometry does not give (those would be lost), with how many of them sit on an
evidence page of a dev question.

    python benchmarks/bench_detect_gate.py --library /path/to/data-dir [--docs N]

Reads the catalogue read-only and each filing's PDF objects (pdfium); no model runs. Writes
benchmarks/out/bench_detect_gate.json.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from common import EVAL, dev_records, write_json


def gold_pages(eval_dir: Path) -> dict[tuple[str, int], list[str]]:
    """(file stem, 1-based page) -> the dev question ids whose evidence is on it."""
    out: dict[tuple[str, int], list[str]] = defaultdict(list)
    for r in dev_records(eval_dir):
        for ev in r.get("evidence") or []:
            if isinstance(ev, dict) and "page0" in ev:
                out[(Path(ev.get("doc") or r["docs"][0]).stem, int(ev["page0"]) + 1)].append(r["id"])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--library", type=Path, required=True, help="a data dir holding catalogue.sqlite3")
    ap.add_argument("--eval", type=Path, default=EVAL, help="dev set folder (for evidence pages)")
    ap.add_argument("--docs", type=int, default=0, help="at most this many documents (0: all)")
    ap.add_argument("--out", help="JSON output (default benchmarks/out/bench_detect_gate.json)")
    args = ap.parse_args(argv)

    import pypdfium2 as pdfium

    from engine.ingest import layout

    db = sqlite3.connect(f"file:{args.library / 'catalogue.sqlite3'}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    docs = [dict(r) for r in db.execute("SELECT id, name, path FROM documents WHERE status = 'ready' ORDER BY id")]
    if args.docs:
        docs = docs[: args.docs]
    gold = gold_pages(args.eval) if args.eval.exists() else {}
    n: Counter[str] = Counter()
    lost: list[dict[str, Any]] = []
    for d in docs:
        if not Path(d["path"]).exists():
            n["missing_files"] += 1
            continue
        found: dict[int, list[tuple[str, str]]] = defaultdict(list)
        for r in db.execute("SELECT page, kind, method FROM regions WHERE doc_id = ?", (d["id"],)):
            if r["kind"] in {"table", "figure"}:
                found[r["page"]].append((r["kind"], r["method"]))
                n[f"{r['kind']}s"] += 1
        pdf = pdfium.PdfDocument(d["path"])
        try:
            for p in db.execute("SELECT page, width, height, has_text, words, ocr FROM pages WHERE doc_id = ?",
                                (d["id"],)):
                words = [tuple(w) for w in json.loads(p["words"] or "[]")]
                images, paths = layout.pdf_objects(pdf, p["page"])
                scanned = bool(p["ocr"]) or not p["has_text"]
                geo = layout.geometry_regions(p["page"], words, p["width"], p["height"], images, paths, [],
                                              scanned=scanned)
                on_gold = gold.get((d["name"], p["page"]), [])
                n["pages"] += 1
                n["evidence_pages"] += bool(on_gold)
                if layout.needs_detector(geo, images, paths, p["width"], p["height"], scanned):
                    continue
                n["skipped_pages"] += 1
                n["skipped_evidence_pages"] += bool(on_gold)
                for kind, method in found[p["page"]]:
                    n[f"lost_{kind}s"] += 1
                    n[f"lost_{kind}s_on_evidence_pages"] += bool(on_gold)
                    lost.append({"doc": d["name"], "page": p["page"], "kind": kind, "method": method,
                                 "questions": on_gold})
        finally:
            pdf.close()
    share = {k: round(n[f"lost_{k}"] / n[k], 4) if n[k] else None for k in ("tables", "figures")}
    print(f"{len(docs)} documents, {n['pages']} pages: the detector skips {n['skipped_pages']} "
          f"({n['skipped_pages'] / max(1, n['pages']):.0%}); {n['skipped_evidence_pages']} of "
          f"{n['evidence_pages']} evidence pages skipped")
    for k in ("tables", "figures"):
        print(f"  {k}: {n[f'lost_{k}']} of {n[k]} lost ({(share[k] or 0):.1%}), "
              f"{n[f'lost_{k}_on_evidence_pages']} on evidence pages")
    path = write_json("bench_detect_gate", {"counts": dict(n), "lost_share": share, "lost": lost}, args.out)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

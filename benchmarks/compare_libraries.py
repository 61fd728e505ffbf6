"""Whether two libraries built from the same files hold the same content: for each document (matched by its
sha256), the chunk rows (modality, page, pages, bbox, text), the region rows (page, kind, bbox, title, units,
summary, table cells) and each chunk's vector within a tolerance.

    python benchmarks/compare_libraries.py OLD_DATA_DIR NEW_DATA_DIR [--atol 1e-4]

Use it after a change meant to speed ingestion up without changing what it produces: ingest the same files
with the old and the new code (``bench_ingest.py --keep DIR``) and compare. Exit status 0 when they agree.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path
from typing import Any

import numpy as np
from common import ROOT  # noqa: F401 - puts the repository on sys.path

CHUNK_COLUMNS = "modality, page, pages, bbox, text"
REGION_COLUMNS = "page, kind, bbox, title, units, summary, table_json"


def _rows(db: sqlite3.Connection, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in db.execute(sql, args).fetchall()]


def compare(old: Path, new: Path, atol: float = 1e-4) -> list[str]:
    """Differences between the libraries in data dirs ``old`` and ``new`` (empty when they agree)."""
    from engine.library.index import VectorIndex, usearch_index

    problems: list[str] = []
    a = sqlite3.connect(old / "catalogue.sqlite3")
    b = sqlite3.connect(new / "catalogue.sqlite3")
    docs_a = dict(_rows(a, "SELECT sha256, id FROM documents"))
    docs_b = dict(_rows(b, "SELECT sha256, id FROM documents"))
    if set(docs_a) != set(docs_b):
        problems.append(f"documents differ: {len(docs_a)} vs {len(docs_b)}, {len(set(docs_a) ^ set(docs_b))} unmatched")
    vectors: dict[str, tuple[VectorIndex, VectorIndex]] = {}
    worst = 0.0
    for sha in sorted(set(docs_a) & set(docs_b)):
        da, db_ = docs_a[sha], docs_b[sha]
        for what, sql in (
            ("regions", f"SELECT {REGION_COLUMNS} FROM regions WHERE doc_id = ? ORDER BY id"),
            ("chunks", f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE doc_id = ? ORDER BY id"),
        ):
            ra, rb = _rows(a, sql, da), _rows(b, sql, db_)
            if ra != rb:
                first = next((i for i, (x, y) in enumerate(zip(ra, rb, strict=False)) if x != y), min(len(ra), len(rb)))
                problems.append(f"{da}: {what} differ ({len(ra)} vs {len(rb)} rows, first at row {first})")
        ids_a = _rows(a, "SELECT modality, id FROM chunks WHERE doc_id = ? ORDER BY id", da)
        ids_b = _rows(b, "SELECT modality, id FROM chunks WHERE doc_id = ? ORDER BY id", db_)
        if [m for m, _ in ids_a] != [m for m, _ in ids_b]:
            continue  # already reported as different chunks
        for modality in sorted({m for m, _ in ids_a}):
            if modality not in vectors:
                ndim = int(usearch_index().restore(str(old / "index" / f"{modality}.usearch")).ndim)
                vectors[modality] = (VectorIndex(old / "index" / f"{modality}.usearch", ndim),
                                     VectorIndex(new / "index" / f"{modality}.usearch", ndim))
            va = vectors[modality][0].get([i for m, i in ids_a if m == modality])
            vb = vectors[modality][1].get([i for m, i in ids_b if m == modality])
            diff = float(np.abs(va - vb).max()) if len(va) else 0.0
            worst = max(worst, diff)
            if not diff <= atol:
                problems.append(f"{da}: {modality} vectors differ by up to {diff:.2e} (tolerance {atol:g})")
    print(f"{len(set(docs_a) & set(docs_b))} documents compared; largest vector difference {worst:.2e}")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old", type=Path, help="data dir built by the old code")
    ap.add_argument("new", type=Path, help="data dir built by the new code")
    ap.add_argument("--atol", type=float, default=1e-4, help="largest allowed difference of a vector component")
    args = ap.parse_args(argv)
    for d in (args.old, args.new):
        if not (d / "catalogue.sqlite3").is_file():
            sys.stderr.write(f"{d} holds no library (no catalogue.sqlite3).\n")
            return 2
    problems = compare(args.old, args.new, args.atol)
    for p in problems:
        print(p)
    print("same content" if not problems else f"{len(problems)} differences")
    return 0 if not problems else 1


if __name__ == "__main__":
    raise SystemExit(main())

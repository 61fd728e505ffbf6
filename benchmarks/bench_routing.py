"""Routing on the dev set without a library: company identity read from the filings' first pages.

Builds a ``Document`` for every PDF of ``dev_corpus.txt`` from the metadata stage run on its first pages (the
text layer read with pdfplumber, cached under ``/tmp``), then routes every question of ``dev.jsonl`` over the
139 documents, with the code of a git revision (``--old``, default the commit before company identities were
read from the filing) and with the working tree, in the same run. For the questions routing picks filings for
it prints how many are routed and the share whose gold filings are in the routed scope (all of them, and at
least one), by source.

    python benchmarks/bench_routing.py [--old REV] [--eval DIR] [--cache DIR] [--show-misses N]

Only the pages the metadata stage reads at the front of a filing are read (``metadata.FRONT_PAGES``); the
signature-date search over a filing's last pages is left out, on both sides, as it only sets ``filing_date``.
Scanned filings (no text layer) get their metadata from the file name only, as they would before OCR.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.common import EVAL, dev_records, write_json  # noqa: E402
from engine import metadata as new_metadata  # noqa: E402
from engine.ask import routing as new_routing  # noqa: E402
from engine.ingest.pdftext import extract_pages, pdf_info  # noqa: E402
from engine.pagetext import PageText  # noqa: E402
from engine.types import Document  # noqa: E402

OLD_REV = "a2e9e0e"
"""The last commit with the hand list of tickers and the dataset-shaped file-name grammar."""

CACHE = Path("/tmp/mfr-bench-routing")
CACHED_PAGES = 12
"""Front pages cached per PDF (at least ``metadata.FRONT_PAGES``, so a change of that needs no re-read)."""


def front_pages(pdf: Path, cache: Path, n: int = CACHED_PAGES) -> list[PageText]:
    """The first ``n`` pages' text layer of a PDF, read once and cached as JSON keyed by path, size and mtime."""
    st = pdf.stat()
    key = hashlib.sha1(f"{pdf.resolve()}|{st.st_size}|{st.st_mtime_ns}|{n}".encode()).hexdigest()[:16]
    path = cache / f"{key}.json"
    if path.exists():
        rows = json.loads(path.read_text(encoding="utf-8"))
    else:
        total = pdf_info(pdf)
        pages = extract_pages(pdf, list(range(1, min(n, total) + 1)))
        rows = [{"page": p.page, "width": p.width, "height": p.height, "words": [list(w) for w in p.words],
                 "lines": p.lines} for p in pages]
        cache.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(rows), encoding="utf-8")
    return [PageText(page=r["page"], width=r["width"], height=r["height"],
                     words=[(float(w[0]), float(w[1]), float(w[2]), float(w[3]), str(w[4])) for w in r["words"]],
                     lines=r["lines"]) for r in rows]


def load_old(rev: str, rel: str, name: str, *former: str) -> ModuleType:
    """A module of the engine as it was at ``rev``, imported under another name beside today's; ``former`` are
    paths it had before a move (``engine/routing.py`` before ``engine/ask/routing.py``)."""
    for path in (rel, *former):
        shown = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{path}"], capture_output=True, text=True)
        if shown.returncode == 0:
            source, rel = shown.stdout, path
            break
    else:
        raise SystemExit(f"{rel} is not in {rev}")
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    exec(compile(source, f"{rev}:{rel}", "exec"), module.__dict__)  # noqa: S102 - our own history
    return module


def build_documents(pdfs: Sequence[str], pages: dict[str, list[PageText]],
                    extract: Callable[..., dict[str, Any]], n_front: int) -> list[Document]:
    """One ``Document`` per PDF with the fields the metadata stage writes to the catalogue."""
    docs = []
    fields = {f for f in Document.__dataclass_fields__ if f not in {"id", "sha256", "path", "name", "pages",
                                                                      "status"}}
    for i, rel in enumerate(pdfs):
        path = Path(rel)
        meta = extract(pages[rel][:n_front], path.name)
        doc = Document(id=f"d{i:03d}", sha256=f"d{i:03d}", path=rel, name=path.stem, pages=len(pages[rel]),
                       status="ready", **{k: v for k, v in meta.items() if k in fields})
        docs.append(doc)
    return docs


def score(records: list[dict[str, Any]], docs: list[Document], route: Callable[..., Any]) -> dict[str, Any]:
    """Route every question; tally the routed ones and whether their gold filings are in the scope."""
    by_path = {d.path: d.id for d in docs}
    groups: dict[str, dict[str, Any]] = defaultdict(lambda: {"questions": 0, "routed": 0, "all_gold": 0,
                                                             "any_gold": 0, "scope_docs": 0})
    misses: list[dict[str, Any]] = []
    for rec in records:
        gold = {by_path[g] for g in rec["docs"] if g in by_path}
        r = route(rec["question"], docs)
        for g in ("all", rec["source"]):
            t = groups[g]
            t["questions"] += 1
            if r.doc_ids:
                t["routed"] += 1
                t["scope_docs"] += len(r.doc_ids)
                t["all_gold"] += int(gold <= set(r.doc_ids))
                t["any_gold"] += int(bool(gold & set(r.doc_ids)))
        if r.doc_ids and not gold & set(r.doc_ids):
            misses.append({"question": rec["question"][:120], "gold": rec["docs"], "reason": r.reason,
                           "routed": [d.name for d in docs if d.id in set(r.doc_ids)][:5]})
    out = {}
    for g, t in groups.items():
        routed = t["routed"] or 1
        out[g] = {**t, "gold_in_scope": round(t["all_gold"] / routed, 3),
                  "any_gold_in_scope": round(t["any_gold"] / routed, 3),
                  "mean_scope": round(t["scope_docs"] / routed, 2)}
    return {"groups": out, "misses": misses}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", default=OLD_REV, help="git revision of the old routing and metadata code")
    ap.add_argument("--eval", type=Path, default=EVAL, help="the dev set folder")
    ap.add_argument("--cache", type=Path, default=CACHE, help="where the front pages' text is cached")
    ap.add_argument("--show-misses", type=int, default=10, help="print this many routed questions that miss")
    ap.add_argument("--json", help="write the figures here (default benchmarks/out/bench_routing.json)")
    args = ap.parse_args(argv)
    corpus = args.eval / "dev_corpus.txt"
    if not corpus.exists():
        print(f"no dev set at {args.eval}", file=sys.stderr)
        return 2
    os.nice(10)  # a shared machine: reading the PDFs must not slow the others down
    pdfs = [ln.strip() for ln in corpus.read_text(encoding="utf-8").splitlines() if ln.strip()]
    t0 = time.perf_counter()
    pages = {rel: front_pages(args.eval / rel, args.cache) for rel in pdfs}
    t_read = time.perf_counter() - t0
    records = dev_records(args.eval)
    old_metadata = load_old(args.old, "engine/metadata.py", "old_metadata")
    old_routing = load_old(args.old, "engine/ask/routing.py", "old_routing", "engine/routing.py")
    runs = {}
    for label, meta_mod, route_mod in (("old", old_metadata, old_routing), ("new", new_metadata, new_routing)):
        t = time.perf_counter()
        n_front = int(getattr(meta_mod, "FRONT_PAGES", 3))
        docs = build_documents(pdfs, pages, meta_mod.extract_metadata, n_front)
        t_meta = time.perf_counter() - t
        t = time.perf_counter()
        result = score(records, docs, route_mod.route)
        result["seconds"] = {"metadata": round(t_meta, 2), "routing": round(time.perf_counter() - t, 2)}
        result["front_pages"] = n_front
        result["documents"] = [{"name": d.name, "company": d.company, "tickers": getattr(d, "tickers", []),
                                "cik": getattr(d, "cik", ""), "former_names": getattr(d, "former_names", [])}
                               for d in docs]
        runs[label] = result
    print(f"{len(pdfs)} filings (front pages read in {t_read:.1f} s, cached in {args.cache}), "
          f"{len(records)} questions; old = {args.old}, new = working tree")
    print(f"{'source':<28} {'n':>4} | {'routed old':>10} {'new':>5} | {'gold in scope old':>17} {'new':>6} | "
          f"{'any gold old':>12} {'new':>6} | {'mean scope old':>14} {'new':>5}")
    for g in sorted(runs["new"]["groups"], key=lambda s: (s != "all", s)):
        o, n = runs["old"]["groups"].get(g, {}), runs["new"]["groups"][g]
        print(f"{g:<28} {n['questions']:>4} | {o.get('routed', 0):>10} {n['routed']:>5} | "
              f"{o.get('gold_in_scope', 0):>17.3f} {n['gold_in_scope']:>6.3f} | "
              f"{o.get('any_gold_in_scope', 0):>12.3f} {n['any_gold_in_scope']:>6.3f} | "
              f"{o.get('mean_scope', 0):>14.2f} {n['mean_scope']:>5.2f}")
    for label in ("old", "new"):
        misses = runs[label]["misses"]
        print(f"\n{label}: {len(misses)} routed questions whose gold filings are all outside the scope")
        for m in misses[: args.show_misses]:
            print(f"  {m['question']!r} gold={[Path(g).name for g in m['gold']]} {m['reason']} -> {m['routed']}")
    path = write_json("bench_routing", {"old_rev": args.old, "filings": len(pdfs), "questions": len(records),
                                        "runs": runs}, args.json)
    print(f"\nwritten {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

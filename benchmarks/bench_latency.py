"""Retrieval latency p50/p95 on a real dev library and on a synthetic library scaled to 1,000 filings, with
peak memory.

    python benchmarks/bench_latency.py --library DATA_DIR [--questions 40] [--filings 1000] [--skip-synthetic]

The real part opens an existing library (e.g. the one ``mfr-tui eval`` built) and times ``retrieve`` for dev
questions whose documents it holds, scoped to the question's documents and library-wide. The synthetic part
writes documents, chunks and vectors straight into a fresh catalogue and the USearch indexes (no PDF is
ingested): chunk texts are sampled from the real library (else generated), vectors are real ones plus noise
(else random, clustered per filing), so ANN search, scope filtering, BM25 and routing see a library of
realistic size. The first query of each part is reported apart (it loads the embedder, and before the lexical
index moved into the catalogue it built that index). Then one more filing is added to the synthetic library and
timed with the first questions after it. Writes benchmarks/out/bench_latency.json.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
from common import EVAL, dev_records, peak_rss_mb, write_json

COMPANIES = [
    "Acme Industries", "Borealis Energy", "Cobalt Financial", "Delta Retail", "Evergreen Foods", "Fulcrum Tech",
    "Granite Materials", "Harbor Logistics", "Ionic Pharma", "Juniper Media", "Keystone Insurance", "Lumen Motors",
]
FORMS = ["10-K", "10-Q", "8-K", "DEF 14A"]
WORDS = ("revenue net income operating cash flow total assets liabilities equity segment margin capital "
         "expenditure goodwill impairment dividend share repurchase inventory receivables tax rate fiscal year "
         "quarter increase decrease compared prior period million billion percent").split()


def pct(values: list[float], q: float) -> float:
    from mfr_eval.evaluate import percentile

    return round(percentile(values, q), 4) if values else float("nan")


class CachedEmbedder:
    """The library's embedder with its vectors remembered by text: a second pass over the same questions times
    the search alone, without the query embedding (which a busy CPU makes vary far more than the search)."""

    def __init__(self, embedder: Any) -> None:
        self.inner = embedder
        self.name, self.dim = embedder.name, embedder.dim
        self.cache: dict[str, np.ndarray] = {}

    def embed(self, texts: list[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if missing:
            for t, v in zip(missing, self.inner.embed(missing), strict=True):
                self.cache[t] = v
        return np.stack([self.cache[t] for t in texts])


def cache_query_vectors(engine: Any) -> CachedEmbedder:
    """Make the engine's retriever embed through a ``CachedEmbedder``."""
    models = engine.retriever().models
    cached = CachedEmbedder(models.embedder())
    models.embedder = lambda: cached
    return cached


def time_queries(
    engine: Any, queries: list[tuple[str, list[str] | None]], k: int, cached: CachedEmbedder
) -> dict[str, Any]:
    """Cold first query, then p50/p95/mean of the rest, overall and per stage, each embedding its question; then
    the same queries again with their query vectors cached (``search_only``)."""
    cached.cache.clear()
    walls: list[float] = []
    stages: dict[str, list[float]] = defaultdict(list)
    cold = None
    for i, (question, scope) in enumerate(queries):
        t0 = time.perf_counter()
        r = engine.retrieve(question, scope=scope, k=k)
        wall = time.perf_counter() - t0
        if i == 0:
            cold = wall
            continue
        walls.append(wall)
        for stage, sec in r.timings.items():
            stages[stage].append(sec)
    again: list[float] = []
    for question, scope in queries[1:]:
        t0 = time.perf_counter()
        engine.retrieve(question, scope=scope, k=k)
        again.append(time.perf_counter() - t0)
    return {
        "queries": len(walls),
        "cold_first_query_s": round(cold or 0.0, 4),
        "p50_s": pct(walls, 50),
        "p95_s": pct(walls, 95),
        "mean_s": round(statistics.fmean(walls), 4) if walls else None,
        "stages_p50_s": {s: pct(v, 50) for s, v in sorted(stages.items())},
        "stages_p95_s": {s: pct(v, 95) for s, v in sorted(stages.items())},
        "search_only_p50_s": pct(again, 50),
        "search_only_p95_s": pct(again, 95),
    }


def show(name: str, m: dict[str, Any]) -> None:
    print(f"{name}: p50 {m['p50_s'] * 1000:.1f} ms, p95 {m['p95_s'] * 1000:.1f} ms over {m['queries']} queries "
          f"(first query {m['cold_first_query_s']:.2f}s)")
    print("   stages p50 (ms): " + ", ".join(f"{s} {v * 1000:.1f}" for s, v in m["stages_p50_s"].items()))
    print(f"   query vectors cached: p50 {m['search_only_p50_s'] * 1000:.1f} ms, "
          f"p95 {m['search_only_p95_s'] * 1000:.1f} ms")


def real_library(library: Path, n_questions: int, k: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Latency on an existing library, and what the synthetic part can sample from it."""
    from engine import Engine, Settings

    engine = Engine(Settings(data_dir=library))
    cached = cache_query_vectors(engine)
    docs = [d for d in engine.documents() if d.status in {"ready", "partial"}]
    by_path = {str(Path(d.path).resolve()): d.id for d in docs}
    questions: list[tuple[str, list[str]]] = []
    for r in dev_records():
        ids = [by_path.get(str((EVAL / p).resolve())) for p in r.get("docs") or []]
        if ids and all(ids):
            questions.append((r["question"], [i for i in ids if i]))
    random.Random(0).shuffle(questions)
    questions = questions[:n_questions]
    out: dict[str, Any] = {
        "library": str(library),
        "documents": len(docs),
        "pages": sum(d.pages for d in docs),
        "chunks": sum(d.chunks for d in docs),
    }
    sample: dict[str, Any] = {}
    if questions:
        out["doc_scope"] = time_queries(engine, questions, k, cached)
        show(f"real library ({len(docs)} filings, {out['chunks']} chunks), doc scope", out["doc_scope"])
        out["library_scope"] = time_queries(engine, [(q, None) for q, _ in questions], k, cached)
        show("real library, library-wide (routing)", out["library_scope"])
    else:
        print(f"real library {library}: no dev question has all its documents there; skipped")
    chunks = engine.store.chunks()
    sample["texts"] = {m: [c.text for c in chunks if c.modality == m][:5000] for m in ("text", "table", "image")}
    engine.indexes.open(engine.models.embedder().dim)
    vecs: dict[str, np.ndarray] = {}
    for m in ("text", "table", "image"):
        keys = sorted(engine.indexes[m].keys())[:5000]
        if keys:
            vecs[m] = engine.indexes[m].get(keys)
    sample["vectors"] = vecs
    # Chunk counts of a typical filing: the mean over the library's full filings (statement extracts of a
    # page or two would make the synthetic library unrealistically small).
    full = {d.id for d in docs if d.pages >= 20} or {d.id for d in docs}
    if full:
        sample["per_filing"] = {
            m: max(1 if m == "text" else 0, round(sum(1 for c in chunks if c.modality == m and c.doc_id in full)
                                                   / len(full)))
            for m in ("text", "table", "image")
        }
    engine.close()
    return out, sample


def add_filing(
    engine: Any, i: int, per_filing: dict[str, int], texts: dict[str, list[str]], pools: dict[str, np.ndarray],
    rng: random.Random, nrng: np.random.Generator, dim: int,
) -> tuple[str, dict[str, tuple[list[int], np.ndarray]]]:
    """Write synthetic filing ``i`` (document, chunks) into the catalogue; its id and (chunk ids, vectors) per
    modality, for the caller to add to the indexes."""
    from engine.types import Chunk

    company = COMPANIES[i % len(COMPANIES)] + f" {i // len(COMPANIES)}"
    year = 2015 + i % 10
    sha = hashlib.sha256(f"synthetic {i}".encode()).hexdigest()
    doc_id = sha[:12]
    pages = 100
    engine.store.add_document(doc_id, sha, f"/synthetic/{doc_id}.pdf", f"{company} {year}", pages)
    engine.store.update_document(doc_id, status="ready", company=company, form_type=FORMS[i % len(FORMS)],
                                 fiscal_period=f"FY{year}", title=f"{company} annual report {year}")
    centre = nrng.standard_normal(dim).astype(np.float32)
    centre /= np.linalg.norm(centre)
    out: dict[str, tuple[list[int], np.ndarray]] = {}
    for modality, count in per_filing.items():
        pool_t = texts.get(modality) or []
        chunks = []
        for j in range(count):
            if pool_t:
                text = rng.choice(pool_t)
            else:
                text = " ".join(rng.choice(WORDS) for _ in range(60)) + f" {rng.randint(1, 99999):,}"
            chunks.append(Chunk(id=0, doc_id=doc_id, modality=modality, page=1 + j * pages // max(1, count),
                                text=text))
        engine.store.replace_chunks(doc_id, modality, chunks)
        pool_v = pools.get(modality)
        if pool_v is not None and len(pool_v):
            base = pool_v[nrng.integers(0, len(pool_v), count)]
        else:
            base = nrng.standard_normal((count, dim)).astype(np.float32) / np.sqrt(dim) + 0.5 * centre
        v = base + 0.15 * nrng.standard_normal((count, dim)).astype(np.float32) / np.sqrt(dim)
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        out[modality] = ([c.id for c in chunks], v.astype(np.float32))
    return doc_id, out


def synthetic_library(
    n_filings: int, per_filing: dict[str, int], sample: dict[str, Any], n_questions: int, k: int, seed: int = 0
) -> dict[str, Any]:
    """Build a library of ``n_filings`` straight into the catalogue and indexes, then time queries, then the
    addition of one more filing and the first questions after it."""
    from engine import Engine, Settings

    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    with tempfile.TemporaryDirectory(prefix="mfr-bench-latency-") as tmp:
        engine = Engine(Settings(data_dir=Path(tmp)))
        cached = cache_query_vectors(engine)
        dim = engine.models.embedder().dim
        engine.indexes.open(dim)
        texts: dict[str, list[str]] = sample.get("texts") or {}
        pools: dict[str, np.ndarray] = sample.get("vectors") or {}
        t0 = time.perf_counter()
        doc_ids: list[str] = []
        ids_by_mod: dict[str, list[int]] = defaultdict(list)
        vecs_by_mod: dict[str, list[np.ndarray]] = defaultdict(list)
        for i in range(n_filings):
            doc_id, added = add_filing(engine, i, per_filing, texts, pools, rng, nrng, dim)
            for modality, (ids, v) in added.items():
                ids_by_mod[modality].extend(ids)
                vecs_by_mod[modality].append(v)
            doc_ids.append(doc_id)
            if (i + 1) % 100 == 0:
                print(f"  catalogue: {i + 1}/{n_filings} filings ({time.perf_counter() - t0:.0f}s)", flush=True)
        t_cat = time.perf_counter() - t0
        t1 = time.perf_counter()
        for modality, ids in ids_by_mod.items():
            if ids:
                engine.indexes[modality].add(ids, np.concatenate(vecs_by_mod[modality]))
        engine.indexes.save()
        t_idx = time.perf_counter() - t1
        total = sum(len(v) for v in ids_by_mod.values())
        print(f"synthetic library: {n_filings} filings, {total} chunks; catalogue {t_cat:.0f}s, indexes {t_idx:.0f}s")
        engine._invalidate()  # the retriever must see the chunks written behind its back
        qs = [r["question"] for r in dev_records()] or [
            "What was total revenue in FY2021?", "How much did operating cash flow increase?"]
        rng.shuffle(qs)
        qs = qs[:n_questions]
        out: dict[str, Any] = {
            "filings": n_filings,
            "chunks_per_filing": per_filing,
            "chunks": total,
            "build_catalogue_s": round(t_cat, 1),
            "build_indexes_s": round(t_idx, 1),
            "vectors_from": "real library + noise" if pools else "random, clustered per filing",
        }
        out["library_scope"] = time_queries(engine, [(q, None) for q in qs], k, cached)
        show(f"synthetic {n_filings} filings, library-wide", out["library_scope"])
        out["doc_scope"] = time_queries(engine, [(q, [rng.choice(doc_ids)]) for q in qs], k, cached)
        show(f"synthetic {n_filings} filings, one-filing scope", out["doc_scope"])
        cached.cache.clear()  # the first questions after the addition embed theirs
        out["add_one_filing"] = add_one_more(engine, n_filings, per_filing, texts, pools, rng, nrng, dim, qs, k)
        out["peak_rss_mb"] = peak_rss_mb()
        engine.close()
    return out


def add_one_more(
    engine: Any, i: int, per_filing: dict[str, int], texts: dict[str, list[str]], pools: dict[str, np.ndarray],
    rng: random.Random, nrng: np.random.Generator, dim: int, qs: list[str], k: int,
) -> dict[str, float]:
    """Time one more filing into the full library: its chunks into the catalogue (with whatever lexical index
    the catalogue keeps), its vectors into the indexes (saved), then the first library-wide question and the
    first question scoped to it (they pay for any index the addition left to rebuild)."""
    t0 = time.perf_counter()
    doc_id, added = add_filing(engine, i, per_filing, texts, pools, rng, nrng, dim)
    t_cat = time.perf_counter() - t0
    t1 = time.perf_counter()
    for modality, (ids, v) in added.items():
        if ids:
            engine.indexes[modality].add(ids, v)
    engine.indexes.save()
    t_vec = time.perf_counter() - t1
    engine._invalidate()  # as Engine.ingest does when it finishes
    t2 = time.perf_counter()
    engine.retrieve(qs[0], scope=None, k=k)
    t_lib = time.perf_counter() - t2
    t3 = time.perf_counter()
    engine.retrieve(qs[1 % len(qs)], scope=[doc_id], k=k)
    t_doc = time.perf_counter() - t3
    m = {"catalogue_and_lexical_s": round(t_cat, 3), "vectors_saved_s": round(t_vec, 3),
         "first_library_query_s": round(t_lib, 3), "first_doc_query_s": round(t_doc, 3),
         "total_s": round(t_cat + t_vec + t_lib + t_doc, 3)}
    print(f"one more filing: catalogue+lexical {t_cat:.2f}s, vectors {t_vec:.2f}s, then first library-wide query "
          f"{t_lib:.2f}s, first query scoped to it {t_doc:.2f}s (total {m['total_s']:.1f}s)")
    return m


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--library", type=Path, help="data dir of a real library (e.g. the one mfr-tui eval built)")
    ap.add_argument("--questions", type=int, default=40, help="queries per measurement (default 40)")
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--filings", type=int, default=1000, help="synthetic library size (default 1000)")
    ap.add_argument("--text-chunks", type=int, help="text chunks per synthetic filing (default: the real mean)")
    ap.add_argument("--table-chunks", type=int, help="table chunks per synthetic filing")
    ap.add_argument("--image-chunks", type=int, help="figure chunks per synthetic filing")
    ap.add_argument("--skip-synthetic", action="store_true")
    ap.add_argument("--out", help="JSON output (default benchmarks/out/bench_latency.json)")
    args = ap.parse_args(argv)

    from mfr_eval.evaluate import machine_info

    result: dict[str, Any] = {"k": args.k, "machine": machine_info()}
    sample: dict[str, Any] = {}
    if args.library:
        if not (args.library / "catalogue.sqlite3").exists():
            sys.stderr.write(f"{args.library} holds no library (no catalogue.sqlite3).\n")
            return 1
        result["real"], sample = real_library(args.library, args.questions, args.k)
        result["peak_rss_mb_after_real"] = peak_rss_mb()
    if not args.skip_synthetic:
        # A 10-K of ~100 pages: chunk counts from the real library's mean when it has one.
        per = dict(sample.get("per_filing") or {"text": 300, "table": 40, "image": 10})
        for key, value in (("text", args.text_chunks), ("table", args.table_chunks), ("image", args.image_chunks)):
            if value is not None:
                per[key] = value
        result["synthetic"] = synthetic_library(args.filings, per, sample, args.questions, args.k)
    mem = peak_rss_mb()
    result["peak_rss_mb"] = mem
    print(f"peak RSS: {mem['self']:.0f} MiB")
    print(f"wrote {write_json('bench_latency', result, args.out)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

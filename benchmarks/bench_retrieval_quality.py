"""Retrieval quality on the dev set: evidence-page recall@k and MRR, document-scoped and library-wide.

Runs over the documents already in a library (ingest a subset of ../shared/data/eval first) and the dev
questions whose PDFs are all in it and that name evidence pages (0-based ``page0``; chunks are 1-based):

- ``baseline``: the papers' baseline, fixed-size text chunks (engine.ingest.chunking.fixed_chunks over every word of
  every page) embedded with the same embedder, dense top-k;
- ``tiers``: MultiFinRAG tiered dense retrieval over semantic chunks, tables and figures;
- ``+hybrid``: plus the BM25 channel with query expansion, reciprocal-rank fused;
- ``+routing``: plus routing by company / year / form (library-wide only; scoped runs are already scoped);
- ``+rerank``: plus the reranker role (``--rerank N`` questions; needs [reranker] in models.toml, e.g. llm).

Answers (``--answers N``): the packaged LLM on N FinanceBench questions (document-scoped), judged by the gold
answer's numbers (same precision, scale x1/x1000); and the refusal rate on N questions asked of a different
company's filing (the answer is not in it).

    MFR_DATA_DIR=/path/lib python benchmarks/bench_retrieval_quality.py [--k 10] [--json out.json]
        [--uncalibrated] [--answers 8] [--rerank 20]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
EVAL = ROOT.parent / "shared" / "data" / "eval"

from engine import Engine  # noqa: E402
from engine.ask.retrieve import Retriever  # noqa: E402
from engine.ingest.pipeline import file_sha256  # noqa: E402
from engine.settings import Settings  # noqa: E402

Gold = set[tuple[str, int]]




def dev_questions(engine: Engine, eval_dir: Path) -> list[dict[str, Any]]:
    """Dev records whose PDFs are all in the library, with gold (doc id, 1-based page) pairs."""
    ids: dict[str, str | None] = {}
    names = {d.name for d in engine.documents()}

    def doc_id(rel: str) -> str | None:
        if rel not in ids:
            p = eval_dir / rel
            d = engine.store.find_by_sha(file_sha256(p)) if p.is_file() and p.stem in names else None
            ids[rel] = d.id if d is not None and d.status in {"ready", "partial"} else None
        return ids[rel]

    out = []
    for line in (eval_dir / "dev.jsonl").read_text().splitlines():
        r = json.loads(line)
        ev = [e for e in (r.get("evidence") or []) if e.get("page0") is not None]
        if not ev or any(doc_id(d) is None for d in r["docs"]):
            continue
        r["doc_ids"] = [doc_id(d) for d in r["docs"]]
        r["gold"] = {(doc_id(e["doc"]), int(e["page0"]) + 1) for e in ev}
        out.append(r)
    return out


def score(ranked: Sequence[tuple[str, int]], gold: Gold, k: int) -> tuple[float, float]:
    """(recall@k of gold pages, reciprocal rank of the first gold page)."""
    top = list(ranked[:k])
    recall = len(gold & set(top)) / len(gold)
    rr = next((1.0 / (i + 1) for i, p in enumerate(top) if p in gold), 0.0)
    return recall, rr


# --- baseline: fixed-size chunks -----------------------------------------------------------------------------


class FixedBaseline:
    """Fixed-size text chunks of every page, embedded once per document and cached under the data dir."""

    def __init__(self, engine: Engine) -> None:
        from engine.ingest.chunking import fixed_chunks, page_sentences
        from engine.ingest.pipeline import _page_from_row

        self.embedder = engine.models.embedder()
        cache = engine.settings.data_dir / "bench_cache"
        cache.mkdir(parents=True, exist_ok=True)
        self.vecs: dict[str, np.ndarray] = {}
        self.pages: dict[str, list[int]] = {}
        for d in engine.documents():
            if d.status not in {"ready", "partial"}:
                continue
            f = cache / f"fixed-{d.id}-{self.embedder.name}.npz"
            if f.exists():
                data = np.load(f)
                self.vecs[d.id], self.pages[d.id] = data["vecs"], data["pages"].tolist()
                continue
            sentences = []
            for row in engine.store.pages(d.id, with_words=True):
                sentences.extend(page_sentences(_page_from_row(row)))
            chunks = fixed_chunks(sentences)
            texts = [c.text for c in chunks]
            vecs = self.embedder.embed(texts) if texts else np.zeros((0, self.embedder.dim), np.float32)
            self.vecs[d.id], self.pages[d.id] = vecs, [c.page for c in chunks]
            np.savez(f, vecs=vecs, pages=np.asarray(self.pages[d.id]))

    def retrieve(self, question: str, doc_ids: Sequence[str] | None, k: int) -> list[tuple[str, int]]:
        q = self.embedder.embed([question])[0]
        docs = list(doc_ids) if doc_ids else list(self.vecs)
        cand: list[tuple[float, str, int]] = []
        for d in docs:
            if len(self.vecs[d]) == 0:
                continue
            sims = self.vecs[d] @ q
            for i in np.argsort(-sims)[:k]:
                cand.append((float(sims[i]), d, self.pages[d][i]))
        cand.sort(key=lambda x: -x[0])
        return [(d, p) for _, d, p in cand[:k]]


# --- runs ------------------------------------------------------------------------------------------------------


def run(
    name: str,
    questions: Sequence[dict[str, Any]],
    retrieve: Callable[[dict[str, Any]], list[tuple[str, int]]],
    k: int,
) -> dict[str, Any]:
    t = time.perf_counter()
    recalls, rrs, by_source = [], [], {}
    for q in questions:
        r, rr = score(retrieve(q), q["gold"], k)
        recalls.append(r)
        rrs.append(rr)
        by_source.setdefault(q["source"], []).append(r)
    row = {
        "config": name,
        "questions": len(questions),
        f"recall@{k}": round(float(np.mean(recalls)), 4),
        "mrr": round(float(np.mean(rrs)), 4),
        "by_source": {s: round(float(np.mean(v)), 3) for s, v in sorted(by_source.items())},
        "seconds_per_question": round((time.perf_counter() - t) / max(1, len(questions)), 3),
    }
    print(f"{name:<34} recall@{k} {row[f'recall@{k}']:.3f}  MRR {row['mrr']:.3f}  "
          f"{row['by_source']}", flush=True)
    return row


def pages_of(retrieval: Any) -> list[tuple[str, int]]:
    return [(e.doc_id, e.page) for e in retrieval.evidence]


def retrieval_table(engine: Engine, questions: list[dict[str, Any]], k: int, calibrated: bool,
                    rerank: int, only: Sequence[str] = ()) -> list[dict[str, Any]]:
    base = engine.settings.with_(top_k=k, calibrated=calibrated, rerank=False)
    configs = {
        "tiers": base.with_(hybrid=False, routing=False, expansion=False),
        "tiers+expansion": base.with_(hybrid=False, routing=False, expansion=True),
        "+hybrid": base.with_(hybrid=True, routing=False, expansion=True),
        "+routing": base.with_(hybrid=True, routing=True, expansion=True),
        "flat (no tiers) +hybrid": base.with_(tiers=False, hybrid=True, routing=False),
        "flat (no tiers) +hybrid +routing": base.with_(tiers=False, hybrid=True, routing=True),
    }
    if only:
        configs = {name: s for name, s in configs.items() if name in only}
    rows = []
    fixed = FixedBaseline(engine)
    for scoped in (True, False):
        label = "doc-scoped" if scoped else "library-wide"
        print(f"--- {label} ---", flush=True)

        def scope(q: dict[str, Any], scoped: bool = scoped) -> list[str] | None:
            return q["doc_ids"] if scoped else None

        rows.append({**run("baseline (fixed chunks, text)", questions,
                           lambda q: fixed.retrieve(q["question"], scope(q), k), k), "scope": label})
        for name, s in configs.items():
            if scoped and name.endswith("+routing"):
                continue
            r = Retriever(s, engine.store, engine.indexes, engine.models)
            rows.append({**run(name, questions, lambda q, r=r: pages_of(r.retrieve(q["question"], scope(q))), k),
                         "scope": label})
        if rerank and engine.models.reranker() is not None:
            r = Retriever(base.with_(rerank=True, routing=not scoped), engine.store, engine.indexes, engine.models)
            sub = questions[:rerank]
            rows.append({**run(f"+rerank ({rerank} q)", sub,
                               lambda q, r=r: pages_of(r.retrieve(q["question"], scope(q))), k), "scope": label})
            r0 = Retriever(base.with_(routing=not scoped), engine.store, engine.indexes, engine.models)
            rows.append({**run(f"(same {rerank} q without rerank)", sub,
                               lambda q, r=r0: pages_of(r.retrieve(q["question"], scope(q))), k), "scope": label})
    return rows


# --- answers -------------------------------------------------------------------------------------------------


_NUM = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def numeric_match(gold: str, answer: str) -> bool | None:
    """True/False when the gold answer has numbers (one must appear in the answer at its precision, allowing a
    x1000 change of scale); None when the gold answer has none (not judged automatically)."""
    want = [m.group(0).replace(",", "") for m in _NUM.finditer(gold)]
    want = [w for w in want if not re.fullmatch(r"(?:19|20)\d{2}", w)]
    if not want:
        return None
    have = [float(m.group(0).replace(",", "")) for m in _NUM.finditer(answer.replace("[", " ["))]
    for w in want:
        v = abs(float(w))
        d = len(w.split(".")[1]) if "." in w else 0
        tol = max(0.5 * 10 ** (-d), 0.01 * v)
        for h in have:
            for scale in (1, 1000, 0.001):
                if abs(abs(h) * scale - v) <= tol:
                    return True
    return False


def answers(engine: Engine, questions: list[dict[str, Any]], n: int) -> dict[str, Any]:
    fb = [q for q in questions if q["source"] == "financebench"][:n]
    docs = {d.id: d for d in engine.documents()}
    results = []
    for q in fb:
        t = time.perf_counter()
        a = engine.ask(q["question"], scope=q["doc_ids"], save=False)
        ok = numeric_match(q["answer"], a.text)
        results.append({"id": q["id"], "ok": ok, "refused": a.refused, "answer": a.text[:300], "gold": q["answer"],
                        "tier": a.tier, "computation": a.computation, "seconds": round(time.perf_counter() - t, 1),
                        "unverified": [c.value for c in a.checks if not c.found]})
        print(f"[answer] ok={ok} refused={a.refused} {time.perf_counter() - t:.0f}s | {q['question'][:70]} | "
              f"gold {q['answer'][:40]} | {a.text[:160]!r}", flush=True)
    # Unanswerable: the same questions asked of another company's filing.
    others = [d for d in docs.values() if d.form_type == "10-K" or "10K" in d.name]
    refusals = []
    for q in fb:
        other = next((d for d in others if d.id not in q["doc_ids"]
                      and d.name.split("_")[0] != docs[q["doc_ids"][0]].name.split("_")[0]), None)
        if other is None:
            continue
        a = engine.ask(q["question"], scope=[other.id], save=False)
        refusals.append({"id": q["id"], "asked_of": other.name, "refused": a.refused, "answer": a.text[:300]})
        print(f"[unanswerable] refused={a.refused} asked of {other.name} | {a.text[:160]!r}", flush=True)
    judged = [r for r in results if r["ok"] is not None]
    return {
        "answerable": len(results),
        "judged": len(judged),
        "accuracy": round(sum(1 for r in judged if r["ok"]) / max(1, len(judged)), 3),
        "refused_answerable": sum(1 for r in results if r["refused"]),
        "unanswerable": len(refusals),
        "refusal_rate": round(sum(1 for r in refusals if r["refused"]) / max(1, len(refusals)), 3),
        "results": results,
        "refusals": refusals,
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--eval", type=Path, default=EVAL)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--uncalibrated", action="store_true", help="ignore thresholds stored by `calibrate`")
    ap.add_argument("--rerank", type=int, default=0, help="also measure the reranker role on N questions")
    ap.add_argument("--answers", type=int, default=0, help="answer N FinanceBench questions with the LLM")
    ap.add_argument("--context-tokens", type=int, help="evidence token budget for answers (default: settings)")
    ap.add_argument("--no-retrieval", action="store_true")
    ap.add_argument("--configs", help="comma-separated subset of: tiers, tiers+expansion, +hybrid, +routing, "
                    "flat (no tiers) +hybrid, flat (no tiers) +hybrid +routing (the baseline always runs)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    if not (args.eval / "dev.jsonl").exists():
        print(f"no dev set at {args.eval}", file=sys.stderr)
        return 2
    settings = Settings()
    if args.context_tokens:
        settings = settings.with_(context_tokens=args.context_tokens)
    engine = Engine(settings)
    try:
        questions = dev_questions(engine, args.eval)
        docs = {i for q in questions for i in q["doc_ids"]}
        print(f"{len(questions)} questions over {len(docs)} documents (library: {len(engine.documents())}); "
              f"thresholds {Retriever(engine.settings.with_(calibrated=not args.uncalibrated), engine.store, engine.indexes, engine.models).thresholds()}",  # noqa: E501
              flush=True)
        out: dict[str, Any] = {"questions": len(questions), "documents": len(docs)}
        if not args.no_retrieval:
            out["retrieval"] = retrieval_table(engine, questions, args.k, not args.uncalibrated, args.rerank,
                                               args.configs.split(",") if args.configs else ())
        if args.answers:
            out["answers"] = answers(engine, questions, args.answers)
            a = out["answers"]
            print(f"answer accuracy {a['accuracy']:.2f} ({a['judged']} judged of {a['answerable']}); refusal rate on "
                  f"unanswerable {a['refusal_rate']:.2f} ({a['unanswerable']})", flush=True)
        if args.json:
            args.json.parent.mkdir(parents=True, exist_ok=True)
            args.json.write_text(json.dumps(out, indent=2, default=str))
    finally:
        engine.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

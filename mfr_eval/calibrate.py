"""Threshold calibration (``mfr-tui calibrate QA.jsonl``): sweep theta per modality over the embedder's real
score range and keep the thresholds with the best evidence-page recall under the context budget.

A cosine threshold means nothing across embedders (bge-base's 0.70 is MiniLM's 0.45), so the sweep runs on
the embedder in use, over questions whose filings are in the library, and the result is stored per embedder
with ``Engine.set_thresholds``, where retrieval reads it.

QA records are JSON lines with ``question``, ``docs`` (PDF paths relative to ``--root``) and ``evidence``:
``[{"doc": ..., "page0": <0-based page>}]``; records without page evidence are skipped.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from engine import Engine
from engine.ask.question import parse
from engine.ask.retrieve import Candidate, Retriever, fuse, passages_lead, spread_pages
from engine.errors import Cancelled, EngineError
from engine.ingest.pipeline import file_sha256
from engine.settings import Settings
from engine.types import CancelCheck, never_cancelled


class CalibrationError(EngineError):
    """Calibration could not run (no usable questions, unreadable file)."""

    default_title = "Calibration failed"


@dataclass
class Question:
    """A calibration question: its documents in the library, gold pages and dense candidates."""

    text: str
    doc_ids: list[str]
    gold: set[tuple[str, int]]
    """(doc id, 1-based page) holding the evidence."""
    hits: dict[str, list[tuple[int, float]]] = field(default_factory=dict)
    lexical: list[list[Candidate]] = field(default_factory=list)


@dataclass
class Calibration:
    """The outcome of a sweep."""

    embedder: str
    thresholds: dict[str, float]
    recall: float
    """Mean evidence-page recall@k under the budget with the chosen thresholds."""
    previous: dict[str, float]
    previous_recall: float
    questions: int
    skipped: int
    budget: int
    k: int
    grid: dict[str, list[float]]
    text_tier_share: float
    """Share of questions answered from text alone (tier 1) with the chosen thresholds."""
    mean_tokens: float
    stored: bool = False
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The outcome as plain JSON data."""
        return asdict(self)


def load_qa(path: Path) -> list[dict[str, Any]]:
    """The records of a JSON-lines QA file; CalibrationError names an unreadable file or a line not JSON."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise CalibrationError(f"Cannot read {path}: {exc}") from exc
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise CalibrationError(f"{path}, line {n}: not JSON ({exc.msg}).") from exc
    return out


def library_questions(
    records: Sequence[dict[str, Any]], root: Path, retriever: Retriever
) -> tuple[list[Question], int]:
    """Records whose documents are in the library and that name evidence pages. A file is matched by content
    (sha256), among library documents of the same path or file name."""
    store = retriever.store
    by_path: dict[str, str | None] = {}
    ready = [d for d in store.documents() if d.status in {"ready", "partial"}]
    known = {d.path for d in ready} | {d.name for d in ready}

    def doc_id(rel: str) -> str | None:
        if rel not in by_path:
            p = root / rel
            by_path[rel] = None
            # Hash only files the library may hold (same path or file name): a dev set has gigabytes of PDFs.
            if p.is_file() and (str(p.resolve()) in known or p.stem in known):
                doc = store.find_by_sha(file_sha256(p))
                by_path[rel] = doc.id if doc is not None and doc.status in {"ready", "partial"} else None
        return by_path[rel]

    out: list[Question] = []
    skipped = 0
    for r in records:
        ev = [e for e in (r.get("evidence") or []) if isinstance(e, dict) and e.get("page0") is not None]
        paths = [d for d in (r.get("docs") or []) if isinstance(d, str)]
        ids = [doc_id(d) for d in paths]
        gold = {(doc_id(e["doc"]), int(e["page0"]) + 1) for e in ev if e.get("doc")}
        if not ev or not paths or any(i is None for i in ids) or any(g[0] is None for g in gold):
            skipped += 1
            continue
        out.append(Question(str(r.get("question", "")), [i for i in ids if i], {(str(a), b) for a, b in gold}))
    return out, skipped


def evaluate(
    questions: Sequence[Question],
    theta: dict[str, float],
    pages: dict[int, tuple[str, int]],
    costs: dict[int, int],
    settings: Settings,
) -> tuple[float, float, float]:
    """(mean recall@k under the budget, share answered from text alone, mean context tokens), ranking exactly
    as retrieval does (tiers, lexical fusion, page spreading) from each question's precomputed channels."""
    k, budget = settings.top_k, settings.context_tokens
    recall = tier1 = tokens = 0.0
    for q in questions:
        asked = parse(q.text)
        ranked, tier = fuse(q.hits, q.lexical, theta, settings, k, asked.figures)
        ranked = spread_pages(ranked[: k * 4], pages, settings.max_per_page)
        if asked.told_in_words:
            ranked = passages_lead(ranked, pages, min(settings.narrative_passages, k),
                                   {lst[0].chunk_id for lst in q.lexical if lst})
        spent = 0
        found: set[tuple[str, int]] = set()
        for c in ranked[:k]:
            cost = costs.get(c.chunk_id, 0)
            if spent and spent + cost > budget:
                break
            spent += cost
            where = pages.get(c.chunk_id)
            if where in q.gold:
                found.add(where)
        recall += len(found) / len(q.gold)
        tier1 += tier == "text"
        tokens += spent
    count = max(1, len(questions))
    return recall / count, tier1 / count, tokens / count


def grid_for(scores: Sequence[float], steps: int) -> list[float]:
    """Candidate thresholds spanning the real score range (quantiles of the observed scores, rounded)."""
    if not scores:
        return [0.0]
    qs = np.quantile(np.asarray(scores, dtype=np.float64), np.linspace(0.02, 0.98, steps))
    return sorted({round(float(x), 3) for x in qs})


def calibrate(
    engine: Engine,
    qa_file: str | Path,
    root: str | Path | None = None,
    store_result: bool = True,
    steps: int = 14,
    depth: int | None = None,
    limit: int | None = None,
    on_progress: Callable[[str, int, int], None] | None = None,
    cancelled: CancelCheck | None = None,
) -> Calibration:
    """Sweep theta_text x theta_table x theta_image and keep the best recall@k under the context budget.

    Each question's channels (dense hits per modality, lexical rankings) are computed once, ``depth`` deep;
    every threshold triple then re-ranks them exactly as retrieval would with the engine's settings.
    ``depth`` defaults to retrieval's own candidate depth. ``store_result`` stores the best thresholds for the
    embedder in use (``Engine.set_thresholds``).
    """
    t0 = time.perf_counter()
    cancelled = cancelled or never_cancelled
    report = on_progress or (lambda stage, done, total: None)
    retriever = engine.retriever()
    s = retriever.settings
    qa_file = Path(qa_file).expanduser()
    root = Path(root).expanduser() if root else qa_file.parent
    questions, skipped = library_questions(load_qa(qa_file), root, retriever)
    if limit:
        questions = questions[:limit]
    if not questions:
        raise CalibrationError(
            f"No question of {qa_file} has evidence pages in a document of this library. Ingest the PDFs the "
            f"questions name (relative to {root}; pass --root if they live elsewhere).",
            title="Nothing to calibrate on",
        )
    embedder = retriever.models.embedder()
    depth = depth or max(s.top_k, s.min_text_hits) * s.candidate_factor
    for i, q in enumerate(questions):
        if cancelled():
            raise Cancelled("Calibration cancelled.")
        asked = parse(q.text)
        q.hits, q.lexical, _ = retriever.channels(q.text, q.doc_ids, False, depth, statements=asked.statements,
                                                   cues=asked.searched_cues)
        report("embed", i + 1, len(questions))
    ids = sorted({c for q in questions for hits in q.hits.values() for c, _ in hits}
                 | {c.chunk_id for q in questions for ranking in q.lexical for c in ranking})
    chunks = {c.id: c for c in retriever.store.chunks(ids=ids)}
    pages = {cid: (c.doc_id, c.page) for cid, c in chunks.items()}
    costs: dict[int, int] = {}
    region_chars: dict[int, int] = {}
    for c in chunks.values():
        extra = 0
        if c.region_id:
            if c.region_id not in region_chars:
                r = retriever.store.region(c.region_id)
                region_chars[c.region_id] = min(2500, len(json.dumps(r.table))) if r and r.table else 0
            extra = region_chars[c.region_id]
        costs[c.id] = (len(c.text) + extra) // 4 + 12
    grid = {
        mod: grid_for([sc for q in questions for _, sc in q.hits[mod][:depth]], steps)
        for mod in ("text", "table", "image")
    }
    args = (pages, costs, s)
    previous = retriever.thresholds()
    prev_recall, _, _ = evaluate(questions, previous, *args)
    best: tuple[float, float, float, float, dict[str, float]] | None = None
    combos = list(itertools.product(grid["text"], grid["table"], grid["image"]))
    for i, (tt, tb, ti) in enumerate(combos):
        if i % 200 == 0:
            if cancelled():
                raise Cancelled("Calibration cancelled.")
            report("sweep", i, len(combos))
        theta = {"text": tt, "table": tb, "image": ti}
        rec, share, tokens = evaluate(questions, theta, *args)
        # Best recall; among equals the smaller context, then the stricter thresholds.
        key = (round(rec, 6), -round(tokens, 1), tt + tb + ti)
        if best is None or key > best[:3]:
            best = (key[0], key[1], key[2], share, theta)
    assert best is not None
    theta = best[4]
    recall, share, tokens = evaluate(questions, theta, *args)
    report("sweep", len(combos), len(combos))
    result = Calibration(
        embedder=embedder.name,
        thresholds=theta,
        recall=round(recall, 4),
        previous=previous,
        previous_recall=round(prev_recall, 4),
        questions=len(questions),
        skipped=skipped,
        budget=s.context_tokens,
        k=s.top_k,
        grid=grid,
        text_tier_share=round(share, 4),
        mean_tokens=round(tokens, 1),
    )
    if store_result:
        engine.set_thresholds(theta, recall=result.recall, questions=result.questions, source=str(qa_file))
        result.stored = True
    result.seconds = round(time.perf_counter() - t0, 2)
    return result

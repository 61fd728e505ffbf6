"""Retrieval per question: scope, tiered dense search per modality (text first; tables and figures when text
is thin), evidence in rank order."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

import numpy as np

from engine.errors import AnswerError
from engine.index import Indexes
from engine.models.provider import ModelProvider
from engine.settings import Settings
from engine.store import Store
from engine.types import Chunk, Evidence, Modality, Retrieval


class Retriever:
    """Dense tiered retrieval over the per-modality indexes. Thread-safe; caches doc -> chunk id sets."""

    def __init__(self, settings: Settings, store: Store, indexes: Indexes, models: ModelProvider) -> None:
        self.settings = settings
        self.store = store
        self.indexes = indexes
        self.models = models
        self._lock = threading.Lock()
        self._scope_ids: dict[tuple[str, tuple[str, ...]], set[int]] = {}
        self._names: dict[str, str] = {}

    def invalidate(self) -> None:
        with self._lock:
            self._scope_ids.clear()
            self._names.clear()

    # --- scope ---------------------------------------------------------------------------------------
    def resolve_scope(self, scope: Sequence[str] | None) -> list[str]:
        """Document ids for explicit refs (ids or names); all ready documents when None."""
        if scope:
            return [self.store.document(ref).id for ref in scope]
        return [d.id for d in self.store.documents() if d.status in {"ready", "partial"}]

    def doc_name(self, doc_id: str) -> str:
        with self._lock:
            if doc_id not in self._names:
                self._names = {d.id: d.name for d in self.store.documents()}
            return self._names.get(doc_id, doc_id)

    def _allowed(self, modality: str, doc_ids: Sequence[str], everything: bool) -> set[int] | None:
        if everything:
            return None
        key = (modality, tuple(sorted(doc_ids)))
        with self._lock:
            ids = self._scope_ids.get(key)
        if ids is None:
            ids = {c.id for c in self.store.chunks(doc_ids=list(doc_ids), modality=modality)}
            with self._lock:
                self._scope_ids[key] = ids
        return ids

    # --- search --------------------------------------------------------------------------------------
    def thresholds(self) -> dict[str, float]:
        """theta per modality: calibrated values stored for this embedder, else the settings."""
        s = self.settings
        base = {"text": s.theta_text, "table": s.theta_table, "image": s.theta_image}
        try:
            name = self.models.embedder().name
        except Exception:
            return base
        stored = self.store.get_setting(f"thresholds:{name}")
        if isinstance(stored, dict):
            base.update({k: float(v) for k, v in stored.items() if k in base})
        return base

    def dense(
        self, query_vec: np.ndarray, modality: Modality, doc_ids: Sequence[str], everything: bool, k: int
    ) -> list[tuple[int, float]]:
        allowed = self._allowed(modality, doc_ids, everything)
        if allowed is not None and not allowed:
            return []
        return self.indexes[modality].search(query_vec, k, allowed)

    def retrieve(self, question: str, scope: Sequence[str] | None = None, k: int | None = None) -> Retrieval:
        t0 = time.perf_counter()
        s = self.settings
        k = k or s.top_k
        doc_ids = self.resolve_scope(scope)
        if not doc_ids:
            raise AnswerError(
                "The library has no ingested documents to search. Add filings first (`mfr-tui ingest PATH`).",
                title="Nothing to search",
            )
        everything = scope is None and len(doc_ids) == len(self.store.documents())
        embedder = self.models.embedder()
        self.indexes.open(embedder.dim)
        qvec = embedder.embed([question])[0]
        t_embed = time.perf_counter()
        theta = self.thresholds()
        text_hits = self.dense(qvec, "text", doc_ids, everything, max(k, s.min_text_hits) * 3)
        passing = [h for h in text_hits if h[1] >= theta["text"]]
        scored: list[tuple[float, int, float, Modality, int]] = []  # (rank key, id, score, modality, tier)
        tier = "text"
        if s.tiers and len(passing) >= s.min_text_hits:
            for cid, sc in text_hits[:k]:
                scored.append((sc - theta["text"], cid, sc, "text", 1))
        else:
            tier = "text+tables+figures" if s.tiers else "flat"
            for cid, sc in text_hits:
                scored.append((sc - theta["text"], cid, sc, "text", 1))
            if s.use_tables:
                m = s.top_tables if s.tiers else k
                for cid, sc in self.dense(qvec, "table", doc_ids, everything, m):
                    if sc >= theta["table"] or not s.tiers:
                        scored.append((sc - theta["table"], cid, sc, "table", 2))
            if s.use_images:
                p = s.top_images if s.tiers else k
                for cid, sc in self.dense(qvec, "image", doc_ids, everything, p):
                    if sc >= theta["image"] or not s.tiers:
                        scored.append((sc - theta["image"], cid, sc, "image", 3))
        scored.sort(key=lambda x: -x[0])
        scored = scored[:k]
        chunks = {c.id: c for c in self.store.chunks(ids=[x[1] for x in scored])}
        evidence = [self._evidence(chunks[cid], sc, mod, tr) for _, cid, sc, mod, tr in scored if cid in chunks]
        return Retrieval(
            question=question,
            evidence=evidence,
            tier=tier,
            scope=list(doc_ids),
            routed=False,
            thresholds=theta,
            timings={"embed": t_embed - t0, "search": time.perf_counter() - t_embed},
        )

    def _evidence(self, c: Chunk, score: float, modality: Modality, tier: int, channel: str = "dense") -> Evidence:
        return Evidence(
            chunk_id=c.id,
            doc_id=c.doc_id,
            doc=self.doc_name(c.doc_id),
            page=c.page,
            modality=modality,
            score=float(score),
            text=c.text,
            channel=channel,
            tier=tier,
            bbox=c.bbox,
            region_id=c.region_id,
        )

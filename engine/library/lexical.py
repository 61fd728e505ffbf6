"""The lexical channel: BM25 (bm25s) over text chunks, table chunks with their cells, and figure summaries.

Built lazily for the whole library on first use, persisted under ``<data dir>/lexical`` with a signature of
the chunk ids it covers, and rebuilt when ingestion or removal changes them. Numbers are normalised
("$1,577" and "(1,577)" both become ``1577``) so a figure quoted in a question matches its table cell.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.library.store import Store
from engine.types import Chunk

log = logging.getLogger(__name__)

STOPWORDS = frozenset(
    "a an and are as at be by for from has have how in is it its of on or that the this to was were what which "
    "who will with did does do than then there their they these those during per based give response question "
    "relying details shown answer round using please".split()
)
_TOKEN = re.compile(r"\$?\(?-?\d[\d,]*(?:\.\d+)?%?\)?|[a-z][a-z0-9&]*(?:'[a-z]+)?", re.I)

_PERIOD = re.compile(r"^(fy|q[1-4])(\d{2,4})$")


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokenize(text: str) -> list[str]:
    """Lower-case words (light plural stemming, stopwords dropped) and normalised numbers."""
    out: list[str] = []
    for m in _TOKEN.finditer(text):
        tok = m.group(0)
        if tok[0].isalpha():
            w = tok.lower().replace("'s", "")
            if w in STOPWORDS or len(w) < 2:
                continue
            split = _PERIOD.match(w)
            if split:
                out.extend([split.group(1), split.group(2)])
                continue
            out.append(_stem(w))
        else:
            digits = re.sub(r"[^\d.]", "", tok).rstrip(".")
            if not digits:
                continue
            if "." in digits:
                digits = digits.rstrip("0").rstrip(".") or "0"
            out.append(digits)
    return out


def table_text(table: dict[str, Any] | None) -> str:
    """A table's cells as text lines (``label value value``) for the lexical index."""
    if not table:
        return ""
    lines = []
    cols = table.get("columns") or []
    if cols:
        lines.append(" ".join(str(c) for c in cols if c))
    for row in table.get("rows", []):
        if not isinstance(row, dict):
            continue
        vals = " ".join(str(v) for v in row.get("values", []) if v not in (None, ""))
        lines.append(f"{row.get('label', '')} {vals}".strip())
    return "\n".join(lines)


@dataclass
class LexicalHit:
    """A chunk found by BM25."""

    chunk_id: int
    score: float
    modality: str


class LexicalIndex:
    """BM25 over every chunk of the library; thread-safe; ``invalidate`` after ingest or remove."""

    def __init__(self, store: Store, directory: Path | None = None) -> None:
        self.store = store
        self.directory = directory
        self._lock = threading.Lock()
        self._bm25: Any = None
        self._ids: np.ndarray = np.zeros(0, dtype=np.int64)
        self._docs: np.ndarray = np.zeros(0, dtype=np.int32)
        self._mods: np.ndarray = np.zeros(0, dtype=np.int8)
        self._doc_index: dict[str, int] = {}
        self._signature = ""

    def invalidate(self) -> None:
        with self._lock:
            self._bm25 = None
            self._signature = ""

    def _current_signature(self) -> str:
        row = self.store.conn().execute("SELECT COUNT(*), COALESCE(MAX(id), 0), COALESCE(SUM(id), 0) FROM chunks")
        n, mx, sm = row.fetchone()
        return f"v1:{n}:{mx}:{sm}"

    def _ensure(self) -> None:
        with self._lock:
            if self._bm25 is not None:
                return
            signature = self._current_signature()
            if self._load(signature):
                return
            self._build(signature)

    def _corpus(self) -> tuple[list[Chunk], list[str]]:
        chunks = self.store.chunks()
        tables: dict[int, dict[str, Any] | None] = {}
        for doc_id in sorted({c.doc_id for c in chunks if c.region_id}):
            for r in self.store.regions(doc_id):
                tables[r.id] = r.table
        texts = []
        for c in chunks:
            extra = table_text(tables.get(c.region_id)) if c.region_id else ""
            texts.append(c.text + ("\n" + extra if extra else ""))
        return chunks, texts

    def _build(self, signature: str) -> None:
        import bm25s

        chunks, texts = self._corpus()
        self._set_meta([c.id for c in chunks], [c.doc_id for c in chunks], [c.modality for c in chunks])
        if not chunks:
            self._bm25 = _Empty()
            self._signature = signature
            return
        bm25 = bm25s.BM25()
        bm25.index([tokenize(t) or ["_"] for t in texts], show_progress=False)
        self._bm25 = bm25
        self._signature = signature
        if self.directory is not None:
            self._save(signature, [c.doc_id for c in chunks], [c.modality for c in chunks])

    def _set_meta(self, ids: Sequence[int], docs: Sequence[str], mods: Sequence[str]) -> None:
        self._doc_index = {d: i for i, d in enumerate(sorted(set(docs)))}
        self._ids = np.asarray(ids, dtype=np.int64)
        self._docs = np.asarray([self._doc_index[d] for d in docs], dtype=np.int32)
        self._mods = np.asarray([_MOD_CODE.get(m, 0) for m in mods], dtype=np.int8)

    def _save(self, signature: str, docs: list[str], mods: list[str]) -> None:
        assert self.directory is not None
        tmp = self.directory.with_name(self.directory.name + ".tmp")
        try:
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir(parents=True)
            self._bm25.save(str(tmp), show_progress=False)
            meta = {"signature": signature, "ids": self._ids.tolist(), "docs": docs, "mods": mods}
            (tmp / "chunks.json").write_text(json.dumps(meta))
            shutil.rmtree(self.directory, ignore_errors=True)
            tmp.rename(self.directory)
        except OSError as exc:  # a cache: failing to persist only costs a rebuild next time
            log.warning("could not save the lexical index: %s", exc)

    def _load(self, signature: str) -> bool:
        if self.directory is None or not (self.directory / "chunks.json").exists():
            return False
        try:
            meta = json.loads((self.directory / "chunks.json").read_text())
            if meta.get("signature") != signature:
                return False
            import bm25s

            self._bm25 = bm25s.BM25.load(str(self.directory), show_progress=False)
            self._set_meta(meta["ids"], meta["docs"], meta["mods"])
            self._signature = signature
            return True
        except (OSError, ValueError, KeyError) as exc:
            log.warning("lexical index unreadable, rebuilding: %s", exc)
            return False

    def search(
        self,
        query: str,
        k: int,
        doc_ids: Sequence[str] | None = None,
        modalities: Sequence[str] | None = None,
    ) -> list[LexicalHit]:
        """Top-k chunks by BM25 for ``query``, restricted to some documents and modalities."""
        self._ensure()
        tokens = tokenize(query)
        if not tokens or len(self._ids) == 0:
            return []
        with self._lock:
            bm25, ids, docs, mods = self._bm25, self._ids, self._docs, self._mods
            doc_index = self._doc_index
        scores = np.asarray(bm25.get_scores(tokens), dtype=np.float32)
        mask = scores > 0
        if doc_ids is not None:
            wanted = [doc_index[d] for d in doc_ids if d in doc_index]
            mask &= np.isin(docs, np.asarray(wanted, dtype=np.int32))
        if modalities is not None:
            mask &= np.isin(mods, np.asarray([_MOD_CODE[m] for m in modalities], dtype=np.int8))
        cand = np.flatnonzero(mask)
        if cand.size == 0:
            return []
        top = cand[np.argsort(-scores[cand], kind="stable")[:k]]
        return [LexicalHit(int(ids[i]), float(scores[i]), _MOD_NAME[int(mods[i])]) for i in top]


_MOD_CODE = {"text": 0, "table": 1, "image": 2}
_MOD_NAME = {v: k for k, v in _MOD_CODE.items()}


class _Empty:
    def get_scores(self, tokens: Sequence[str]) -> np.ndarray:
        return np.zeros(0, dtype=np.float32)


"""One USearch index per modality, keyed by chunk id, saved atomically (temp file, fsync, rename)."""

from __future__ import annotations

import errno
import os
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import StoreError
from engine.types import MODALITIES


def usearch_index() -> Any:
    """The ``usearch.index.Index`` class, imported safely.

    With usearch 2.26 (numkong) loaded first, importing onnxruntime 1.31 afterwards segfaults the process; the
    layout detector and OCR import onnxruntime lazily, after a question may already have opened the indexes.
    Loading onnxruntime first (when installed) avoids the crash.
    """
    if "usearch.index" not in sys.modules:
        try:
            import onnxruntime  # noqa: F401
        except Exception:  # noqa: BLE001 - absent or broken onnxruntime: nothing to protect
            pass
    from usearch.index import Index

    return Index


class VectorIndex:
    """A cosine index over unit vectors for one modality. Thread-safe; readers see the last saved state."""

    def __init__(self, path: Path, ndim: int) -> None:
        Index = usearch_index()

        self.path = path
        self.ndim = ndim
        self._lock = threading.RLock()
        self._index = Index(ndim=ndim, metric="cos", dtype="f32")
        self._dirty = False
        self._signature = _file_signature(path)
        if path.exists():
            try:
                self._index.load(str(path))
            except Exception as exc:  # usearch raises RuntimeError/ValueError for damaged files
                raise StoreError(
                    f"The vector index {path} is damaged ({exc}). Run `mfr-tui doctor --repair` to rebuild it "
                    "from the catalogue.",
                    title="Index damaged",
                ) from exc
            if self._index.ndim != ndim:
                raise StoreError(
                    f"The index {path} holds {self._index.ndim}-dimensional vectors but the embedder makes "
                    f"{ndim}. Changing the embedder needs a re-index: run `mfr-tui doctor --repair`.",
                    title="Embedder changed",
                )

    def __len__(self) -> int:
        return len(self._index)

    def refresh(self) -> bool:
        """Reload from disk when another process saved a newer file (readers while a writer ingests)."""
        with self._lock:
            if self._dirty:
                return False
            sig = _file_signature(self.path)
            if sig == self._signature or sig is None:
                return False
            try:
                fresh = type(self._index)(ndim=self.ndim, metric="cos", dtype="f32")
                fresh.load(str(self.path))
            except Exception:  # caught mid-replace or damaged: keep serving the last good state
                return False
            if fresh.ndim != self.ndim:
                return False
            self._index, self._signature = fresh, sig
            return True

    def add(self, keys: Sequence[int], vectors: np.ndarray) -> None:
        if len(keys) == 0:
            return
        with self._lock:
            keys_arr = np.asarray(keys, dtype=np.uint64)
            present = [k for k in keys_arr if k in self._index]
            if present:
                self._index.remove(np.asarray(present, dtype=np.uint64))
            self._index.add(keys_arr, np.ascontiguousarray(vectors, dtype=np.float32))
            self._dirty = True

    def remove(self, keys: Sequence[int]) -> None:
        with self._lock:
            keys_arr = [k for k in keys if int(k) in self._index]
            if keys_arr:
                self._index.remove(np.asarray(keys_arr, dtype=np.uint64))
                self._dirty = True

    def keys(self) -> set[int]:
        with self._lock:
            return {int(k) for k in self._index.keys}

    def get(self, keys: Sequence[int]) -> np.ndarray:
        with self._lock:
            out = self._index.get(np.asarray(keys, dtype=np.uint64))
            return np.asarray(out, dtype=np.float32).reshape(len(keys), self.ndim)

    def search(self, query: np.ndarray, k: int, allowed: set[int] | None = None) -> list[tuple[int, float]]:
        """Top-k (chunk id, cosine similarity); ``allowed`` restricts to some ids (a document scope)."""
        with self._lock:
            self.refresh()
            n = len(self._index)
            if n == 0:
                return []
            if allowed is not None and len(allowed) <= 4096:
                # Small scopes: exact scores over just those vectors beat filtering an approximate search.
                ids = [i for i in allowed if i in self._index]
                if not ids:
                    return []
                vecs = self.get(ids)
                sims = vecs @ query.astype(np.float32)
                order = np.argsort(-sims)[:k]
                return [(int(ids[i]), float(sims[i])) for i in order]
            want = min(n, k if allowed is None else max(k * 20, 200))
            matches = self._index.search(query.astype(np.float32), want, exact=n <= 20000)
            out = []
            for key, dist in zip(matches.keys, matches.distances, strict=False):
                if allowed is not None and int(key) not in allowed:
                    continue
                out.append((int(key), 1.0 - float(dist)))
                if len(out) >= k:
                    break
            return out

    def save(self) -> None:
        """Write to a temp file, fsync, rename: a crash leaves the old or the new index, never half of one."""
        with self._lock:
            if not self._dirty and self.path.exists():
                return
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(self.path.name + ".tmp")
            try:
                self._index.save(str(tmp))
                os.chmod(tmp, 0o600)
                fd = os.open(tmp, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
                os.replace(tmp, self.path)
            except BaseException as exc:
                tmp.unlink(missing_ok=True)  # a full disk leaves the old index and no half-written temp file
                if isinstance(exc, OSError):
                    raise StoreError(
                        f"Saving the vector index {self.path} failed: {exc.strerror or exc}. The previous index "
                        "is intact; free disk space and run the ingest again to resume.",
                        title="Disk full" if exc.errno in _FULL_ERRNOS else "Index not saved",
                    ) from exc
                raise
            self._signature = _file_signature(self.path)
            dfd = os.open(self.path.parent, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
            self._dirty = False


_FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


def _file_signature(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


class Indexes:
    """The per-modality indexes under ``<data dir>/index``; opened lazily once the embedder's dim is known."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._lock = threading.Lock()
        self._by_modality: dict[str, VectorIndex] = {}
        self.ndim: int | None = None

    def open(self, ndim: int) -> None:
        with self._lock:
            if self.ndim == ndim and self._by_modality:
                return
            self._by_modality = {m: VectorIndex(self.directory / f"{m}.usearch", ndim) for m in MODALITIES}
            self.ndim = ndim

    def __getitem__(self, modality: str) -> VectorIndex:
        if not self._by_modality:
            raise StoreError("Indexes used before the embedder opened them.", title="Internal error")
        return self._by_modality[modality]

    def save(self) -> None:
        for idx in self._by_modality.values():
            idx.save()

    def remove(self, ids: Sequence[int]) -> None:
        for idx in self._by_modality.values():
            idx.remove(ids)

    def drop_orphans(self, catalogue_ids: dict[str, set[int]]) -> int:
        """Remove vectors whose chunk is not in the catalogue (left when a process died between committing
        the catalogue and saving the index); returns how many were dropped. Saved with the next ``save``."""
        n = 0
        for modality, idx in self._by_modality.items():
            keep = catalogue_ids.get(modality, set())
            stale = [k for k in idx.keys() if k not in keep]
            if stale:
                idx.remove(stale)
                n += len(stale)
        return n

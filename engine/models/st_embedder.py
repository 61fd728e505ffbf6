"""sentence-transformers embedder loaded from a local folder (never a hub name)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import ModelError
from engine.models.device import torch_device
from engine.settings import force_offline

PRECISIONS = ("auto", "fp32", "bf16")


def cpu_has_bf16() -> bool:
    """Whether this CPU computes bfloat16 natively (AVX512-BF16 or AMX); emulated bf16 is slower than fp32."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return bool(flags & {"avx512_bf16", "amx_bf16"})
    except OSError:
        pass
    return False


class SentenceTransformerEmbedder:
    """An ``Embedder`` over a local sentence-transformers folder; unit-length float32 vectors.

    On CPU, ``precision="auto"`` runs the matrix products in bfloat16 (autocast; weights stay float32) where
    the CPU has native bf16: 1.6x faster for all-MiniLM-L6-v2 on an AMD EPYC with cosine >= 0.99996 to the
    float32 vectors on the dev questions. The thread count is set on every call, because other libraries in
    the process (ultralytics sets torch to one thread when it runs the detector) change torch's global.

    On the CPU the budget's threads are ``streams``: the forward batches of a call run that many at once, each
    on one thread, instead of one at a time on all the threads. The batches are the ones sentence-transformers
    makes of the call, so the vectors are the same; a one-thread batch never waits at a barrier for a thread the
    OS gave to another process (two-thread calls ran 5-10x slower while another process used a core)."""

    def __init__(
        self, folder: Path, device: str = "cpu", threads: int = 1, batch_size: int = 64, precision: str = "auto"
    ) -> None:
        force_offline()
        import torch
        from sentence_transformers import SentenceTransformer

        if not (folder / "modules.json").exists() and not (folder / "config.json").exists():
            raise ModelError(
                f"{folder} is not a sentence-transformers model folder (no modules.json or config.json). "
                "Point the embedder's `path` in models.toml at the folder holding the model files.",
                title="Embedder folder invalid",
            )
        if precision not in PRECISIONS:
            raise ModelError(
                f"Embedder precision '{precision}' is not one of {', '.join(PRECISIONS)}.",
                title="models.toml invalid",
            )
        self.device = device
        self.streams = max(1, threads) if device == "cpu" else 1
        """Calls that may run at once (``embed_in_batches``); on the CPU each runs on one thread."""
        self.threads = 1 if self.streams > 1 else max(1, threads)
        """Torch threads of one call."""
        if device == "cpu":
            torch.set_num_threads(self.threads)
        self.precision = (
            "fp32" if device != "cpu" or precision == "fp32" or (precision == "auto" and not cpu_has_bf16()) else "bf16"
        )
        self._slots = threading.BoundedSemaphore(self.streams)
        self._pool: ThreadPoolExecutor | None = None
        self._model = SentenceTransformer(str(folder), device=device, local_files_only=True)
        self.batch_size = batch_size
        self.name = folder.name if folder.name != "model" else folder.parent.name
        get_dim = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        dim = get_dim()
        self.dim = int(dim) if dim else int(self.embed(["x"]).shape[1])
        self.max_seq_length = int(getattr(self._model, "max_seq_length", 256) or 256)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, getattr(self, "dim", 0)), dtype=np.float32)
        texts = list(texts)
        if self.streams > 1 and len(texts) > self.batch_size:
            return self._embed_in_streams(texts)
        return self._encode(texts)

    def _embed_in_streams(self, texts: list[str]) -> np.ndarray:
        """The forward batches sentence-transformers makes of one call (longest first, ``batch_size`` texts
        each), run at once on the streams: the batches are the same, and so is each vector."""
        order = np.argsort([-len(t) for t in texts])  # as SentenceTransformer.encode orders its inputs
        parts = [order[i : i + self.batch_size] for i in range(0, len(order), self.batch_size)]
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=self.streams, thread_name_prefix="mfr-embed-stream")
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for idx, vecs in zip(parts, self._pool.map(lambda idx: self._encode([texts[i] for i in idx]), parts),
                             strict=True):
            out[idx] = vecs
        return out

    def _encode(self, texts: list[str]) -> np.ndarray:
        import torch

        with self._slots:
            autocast: Any = contextlib.nullcontext()
            if self.device == "cpu":
                if torch.get_num_threads() != self.threads:
                    torch.set_num_threads(self.threads)
                if self.precision == "bf16":
                    autocast = torch.autocast("cpu", dtype=torch.bfloat16)
            with autocast:
                vecs = self._model.encode(
                    texts,
                    batch_size=self.batch_size,
                    convert_to_numpy=True,
                    normalize_embeddings=True,
                    show_progress_bar=False,
                )
        return np.asarray(vecs, dtype=np.float32)


def build(cfg: Any, path: Path | None, provider: Any) -> SentenceTransformerEmbedder:
    if path is None:
        raise ModelError(f"{cfg.source}: the embedder needs a path.", title="models.toml incomplete")
    device = torch_device(cfg.option("device", "auto"))
    settings = provider.settings
    return SentenceTransformerEmbedder(
        path,
        device=device,
        threads=provider.budget.embedder,
        batch_size=int(cfg.option("batch_size", settings.embed_batch_cpu if device == "cpu" else settings.embed_batch)),
        precision=str(cfg.option("precision", "auto")),
    )

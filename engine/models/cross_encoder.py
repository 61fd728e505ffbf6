"""Rerankers: a sentence-transformers cross-encoder from a local folder, or the text LLM judging candidates.

Both implement ``Reranker.score(query, passages) -> list[float]``. The role is off by default
(``[reranker] backend = "none"``); retrieval uses it when ``Settings.rerank`` is on.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.errors import ModelError
from engine.models.device import torch_device
from engine.models.protocols import LLM, ChatMessage
from engine.settings import force_offline


class CrossEncoderReranker:
    """A ``Reranker`` over a local cross-encoder folder (e.g. bge-reranker-base); higher is more relevant."""

    def __init__(self, folder: Path, device: str = "cpu", threads: int = 1, max_length: int = 512,
                 batch_size: int = 16) -> None:
        force_offline()
        if not (folder / "config.json").exists():
            raise ModelError(
                f"{folder} is not a cross-encoder folder (no config.json). Point the reranker's `path` in "
                "models.toml at the folder holding the model files, or set its backend to \"none\".",
                title="Reranker folder invalid",
            )
        import torch
        from sentence_transformers import CrossEncoder

        self.device = device
        self.threads = max(1, threads)
        if device == "cpu":
            torch.set_num_threads(self.threads)
        self._lock = threading.Lock()
        self._model = CrossEncoder(str(folder), device=device, max_length=max_length, local_files_only=True)
        self.batch_size = batch_size
        self.name = folder.name

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        if not passages:
            return []
        import torch

        with self._lock:
            # torch's thread count is process-wide and the embedder's one-thread streams set it to one
            if self.device == "cpu" and torch.get_num_threads() != self.threads:
                torch.set_num_threads(self.threads)
            scores = self._model.predict([(query, p) for p in passages], batch_size=self.batch_size,
                                         show_progress_bar=False)
        return [float(s) for s in scores]


LLM_RERANK_SYSTEM = (
    "You rank passages from financial filings by how useful they are to answer a question. "
    "Reply with the passage numbers only, most useful first, separated by commas, e.g. \"3, 1, 7\". "
    "List at most {top} numbers. Omit passages that do not help."
)


class LLMReranker:
    """A listwise ``Reranker`` that asks the text LLM to order the candidates (one prompt per question).

    Listed passages score by their position (first = highest); passages the model leaves out keep their
    original order behind them, so a confused model degrades to the fused ranking rather than below it.
    """

    def __init__(self, llm: LLM, max_chars: int = 500, top: int = 10) -> None:
        self.llm = llm
        self.max_chars = max_chars
        self.top = top
        self.name = f"llm:{getattr(llm, 'name', 'llm')}"

    def prompt(self, query: str, passages: Sequence[str]) -> list[ChatMessage]:
        blocks = []
        for i, p in enumerate(passages, 1):
            text = " ".join(p.split())[: self.max_chars]
            blocks.append(f"[{i}] {text}")
        user = f"Question: {query}\n\nPassages:\n" + "\n\n".join(blocks) + "\n\nMost useful passage numbers:"
        return [ChatMessage("system", LLM_RERANK_SYSTEM.format(top=self.top)), ChatMessage("user", user)]

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        if not passages:
            return []
        gen = self.llm.chat(self.prompt(query, passages), max_tokens=4 * self.top + 8, temperature=0.0)
        order: list[int] = []
        for tok in re.findall(r"\d+", gen.text):
            i = int(tok) - 1
            if 0 <= i < len(passages) and i not in order:
                order.append(i)
        n = len(passages)
        scores = [float(-j) / n for j in range(n)]  # unlisted: original order, below every listed passage
        for rank, i in enumerate(order):
            scores[i] = float(2 * n - rank)
        return scores


def build(cfg: Any, path: Path | None, provider: Any) -> CrossEncoderReranker:
    if path is None:
        raise ModelError(f"{cfg.source}: the cross-encoder reranker needs a `path` to a local folder.",
                         title="models.toml incomplete")
    return CrossEncoderReranker(
        path,
        device=torch_device(cfg.option("device", "auto")),
        threads=provider.budget.reranker,
        max_length=int(cfg.option("max_length", 512)),
    )


def build_llm_reranker(cfg: Any, path: Path | None, provider: Any) -> LLMReranker:
    return LLMReranker(provider.llm(), max_chars=int(cfg.option("max_chars", 500)), top=int(cfg.option("top", 10)))

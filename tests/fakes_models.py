"""Deterministic fake models for unit tests: a crc32 bag-of-words embedder and a scripted LLM."""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Sequence

import numpy as np

from engine.models.protocols import ChatMessage, Generation


class FakeEmbedder:
    """Hashes lowercase words into 256 buckets (crc32), L2-normalised: shared words mean higher cosine."""

    name = "fake-crc32"
    dim = 256

    def __init__(self) -> None:
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in re.findall(r"[a-z0-9]+", t.lower()):
                out[i, zlib.crc32(w.encode()) % self.dim] += 1.0
            n = np.linalg.norm(out[i])
            out[i] = out[i] / n if n else out[i]
            if not n:
                out[i, 0] = 1.0
        return out


class FakeLLM:
    """Replies with ``reply`` (a function of the messages), streamed word by word."""

    name = "fake-llm"
    context_tokens = 4096

    def __init__(self, reply: Callable[[Sequence[ChatMessage]], str] | None = None) -> None:
        self.reply = reply or (lambda msgs: "Revenue was $1,234 million [1].")
        self.prompts: list[list[ChatMessage]] = []

    def chat(self, messages, *, max_tokens=256, temperature=0.0, on_token=None, cancelled=None) -> Generation:
        self.prompts.append(list(messages))
        text = self.reply(messages)
        out = []
        for piece in re.findall(r"\S+\s*", text):
            if cancelled is not None and cancelled():
                break
            out.append(piece)
            if on_token:
                on_token(piece)
        return Generation(text="".join(out), prompt_tokens=10, completion_tokens=len(out))

    def count_tokens(self, text: str) -> int:
        return max(1, len(text) // 4)

"""Small Protocols, one batch method each, that every model backend (real or fake) implements."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised vectors."""

    name: str
    """Identifies the model (thresholds are calibrated per embedder name)."""
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed a batch: returns float32 ``(len(texts), dim)``, rows of unit length."""
        ...


@runtime_checkable
class Reranker(Protocol):
    """Scores (query, passage) pairs; higher is more relevant."""

    name: str

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        """One score per passage."""
        ...


@dataclass
class Detection:
    """A layout region found on a rendered page image (pixel coordinates of that image)."""

    kind: str
    """``table``, ``figure``, ``caption``, ``title``, ``text``, ``header``, ... (DocLayNet classes mapped)."""
    box: tuple[float, float, float, float]
    score: float
    label: str = ""
    """The detector's own class name."""


@runtime_checkable
class Detector(Protocol):
    """Finds layout regions on rendered page images."""

    name: str

    def detect(self, images: Sequence[Any]) -> list[list[Detection]]:
        """One list of detections per image (PIL images)."""
        ...


@dataclass
class OcrWord:
    """A word or text line read from an image, in that image's pixel coordinates."""

    text: str
    box: tuple[float, float, float, float]
    score: float


@runtime_checkable
class Ocr(Protocol):
    """Reads text with boxes from images."""

    name: str

    def read(self, images: Sequence[Any]) -> list[list[OcrWord]]:
        """One list of words per image."""
        ...


@dataclass
class ChatMessage:
    role: str
    content: str


@dataclass
class Generation:
    """A finished completion."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0


@runtime_checkable
class LLM(Protocol):
    """A text chat model."""

    name: str
    context_tokens: int

    def chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int = 256,
        temperature: float = 0.0,
        on_token: Callable[[str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Generation:
        """Generate a reply; ``on_token`` receives pieces as they are produced; ``cancelled`` stops early."""
        ...

    def count_tokens(self, text: str) -> int:
        """Tokens the model's tokenizer makes of ``text``."""
        ...


@dataclass
class VisionRequest:
    """One multi-image prompt: the images (paths) and the instruction naming them."""

    images: list[Path]
    prompt: str
    system: str = ""
    max_tokens: int = 1024


@runtime_checkable
class VisionModel(Protocol):
    """A vision-language model that answers prompts about one or more images."""

    name: str

    def describe(self, requests: Sequence[VisionRequest]) -> list[str]:
        """One raw text reply per request."""
        ...


@dataclass
class RoleStatus:
    """The result of checking one role of models.toml."""

    role: str
    ok: bool
    backend: str = ""
    path: str = ""
    sha256: str = ""
    detail: str = ""
    optional: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "backend": self.backend,
            "path": self.path,
            "sha256": self.sha256,
            "detail": self.detail,
            "optional": self.optional,
            **self.extra,
        }


def stream_tokens(pieces: Iterator[str], on_token: Callable[[str], None] | None) -> str:
    """Collect streamed pieces, forwarding each to ``on_token``."""
    out: list[str] = []
    for piece in pieces:
        out.append(piece)
        if on_token is not None:
            on_token(piece)
    return "".join(out)

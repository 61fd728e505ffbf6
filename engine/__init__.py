"""mfr-tui engine: multimodal RAG over financial filings. No UI imports; heavy libraries load lazily."""

from __future__ import annotations

from engine.core import Engine
from engine.errors import (
    AnswerError,
    Cancelled,
    ConfigError,
    EngineError,
    IngestError,
    LibraryBusyError,
    ModelError,
    NotFoundError,
    StoreError,
)
from engine.settings import Settings

__all__ = [
    "AnswerError",
    "Cancelled",
    "ConfigError",
    "Engine",
    "EngineError",
    "IngestError",
    "LibraryBusyError",
    "ModelError",
    "NotFoundError",
    "Settings",
    "StoreError",
]

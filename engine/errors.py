"""One error family for the engine: every error carries a title and a message a user can act on."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every expected engine failure.

    ``title`` is a short heading (shown as a notification title in the TUI); ``message`` says what went
    wrong and what to do about it.
    """

    default_title = "Engine error"

    def __init__(self, message: str, title: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.title = title or self.default_title

    def __str__(self) -> str:
        return self.message


class ConfigError(EngineError):
    """Settings or models.toml are malformed or name something that does not exist."""

    default_title = "Configuration error"


class ModelError(EngineError):
    """A model file is missing, has the wrong checksum, or fails to load or run."""

    default_title = "Model error"


class IngestError(EngineError):
    """A document could not be ingested (unreadable, encrypted, not a PDF, ...)."""

    default_title = "Ingestion error"


class StoreError(EngineError):
    """The catalogue or a vector index is unreadable, inconsistent or cannot be written."""

    default_title = "Library error"


class AnswerError(EngineError):
    """A question could not be answered (no documents, model failure, ...)."""

    default_title = "Answer error"


class NotFoundError(EngineError):
    """A document or region reference does not match anything in the library."""

    default_title = "Not found"


class LibraryBusyError(EngineError):
    """Another process holds the library's write lock."""

    default_title = "Library busy"


class Cancelled(EngineError):
    """The caller cancelled a long operation; what finished before is kept."""

    default_title = "Cancelled"

"""mfr-tui: the Textual app over the engine's public API (library, ingestion progress, cited Q&A)."""

"""Text from a filing or a path is data: the one place that makes it safe to store and to show.

A PDF's text layer is whatever its ToUnicode map says, so a filing can carry terminal escape sequences (OSC 52
writes the clipboard, ``ESC[2J`` clears the screen), C1 controls that some terminals obey, and bidirectional
overrides that make ``invoice\u202efdp.exe`` read as ``invoiceexe.pdf``. Two transformations, both one pass of
``str.translate`` (linear in the text):

- ``clean_text`` removes them (page words, OCR words, table cells, figure text, metadata); carriage return,
  vertical tab and form feed become a space so words they separated stay apart.
- ``visible_text`` shows them as visible marks, one character for each (``␛`` for ESC, ``␇`` for BEL, ``�``
  for C1 controls and bidi overrides): for file names, and for anything written to a terminal, where the user
  should see that a name is odd rather than have it silently changed.

``\\n`` and ``\\t`` are kept by both.
"""

from __future__ import annotations

from typing import Any

from engine.errors import AnswerError

MAX_QUESTION_CHARS = 2000
"""The longest question accepted: enough for any question with its instructions; longer input is refused
before any retrieval (every step after it is bounded by this length)."""

_C0 = [c for c in range(0x20) if c not in (0x09, 0x0A)]
_C1 = list(range(0x80, 0xA0))
_BIDI = [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]
"""Embeddings and overrides (LRE, RLE, PDF, LRO, RLO) and isolates (LRI, RLI, FSI, PDI)."""

UNSAFE_CODEPOINTS: frozenset[int] = frozenset([*_C0, 0x7F, *_C1, *_BIDI])
"""Every code point either function replaces."""

_SPACES = (0x0B, 0x0C, 0x0D)
_REMOVE: dict[int, str | None] = {c: (" " if c in _SPACES else None) for c in UNSAFE_CODEPOINTS}


def _mark(c: int) -> str:
    # One character for one, so offsets into the text (a cited span, a column width) stay right.
    if c < 0x20:
        return chr(0x2400 + c)  # the Unicode "control pictures": ␛ for ESC, ␇ for BEL
    if c == 0x7F:
        return "\u2421"
    return "\ufffd"


_SHOW: dict[int, str] = {c: _mark(c) for c in UNSAFE_CODEPOINTS}


def clean_text(text: str) -> str:
    """``text`` without control characters (C0 but ``\\n`` and ``\\t``, DEL, C1) and bidi overrides/isolates."""
    return text.translate(_REMOVE)


def visible_text(text: str) -> str:
    """``text`` with the same characters shown as visible marks (``␛``, ``␇``, ``�``), one for one."""
    return text.translate(_SHOW)


def is_clean(text: str) -> bool:
    """Whether ``text`` holds none of the characters these functions replace."""
    return clean_text(text) == text


def clean_value(value: Any) -> Any:
    """``clean_text`` applied to every string inside nested lists, tuples and dicts (keys included), e.g. a
    table's JSON."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        return {clean_value(k): clean_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(clean_value(v) for v in value)
    return value


def check_question(question: str) -> str:
    """The question as the engine works on it (cleaned, stripped); ``AnswerError`` at once for an empty or
    blank question and for one longer than ``MAX_QUESTION_CHARS``, before any retrieval or model call."""
    text = clean_text(question).strip()
    if not text:
        raise AnswerError("The question is empty. Type a question about the filings.", title="Empty question")
    if len(text) > MAX_QUESTION_CHARS:
        raise AnswerError(
            f"The question is {len(text):,} characters long; the limit is {MAX_QUESTION_CHARS:,}. Ask about one "
            "thing at a time, in a sentence or two.",
            title="Question too long",
        )
    return text

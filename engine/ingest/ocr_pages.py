"""Scanned pages: OCR the page image and store its words as the page's text layer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.models.protocols import OcrWord
from engine.pagetext import Word
from engine.untrusted import clean_text

OCR_DPI = 150
"""Pages are rendered at this resolution for OCR (PP-OCR reads 10-pt type well from here up)."""


def ocr_words_to_points(words: Sequence[OcrWord], scale: float, offset: tuple[float, float] = (0.0, 0.0)) -> list[Word]:
    """OCR words (pixels of an image rendered at ``scale`` px/pt, cropped at ``offset`` pt) -> PDF points."""
    ox, oy = offset
    out: list[Word] = []
    for w in words:
        text = clean_text(w.text).strip()
        if not text:
            continue
        x0, y0, x1, y1 = w.box
        out.append((ox + x0 / scale, oy + y0 / scale, ox + x1 / scale, oy + y1 / scale, text))
    return out


INK_DPI = 72
"""Resolution of the render that looks for ink on a page without text (about 600x800 pixels: a few ms; at
lower resolutions the thin strokes of scanned 10-point type blur into light grey and look blank)."""
INK_LEVEL = 215
"""A pixel darker than this (0-255 grey) is ink: anti-aliased type is grey, white paper is above it."""
INK_SHARE = 1e-4
"""A page with ink on no more than this share of its pixels (about 50 at 72 dpi) is blank: a speck, a stray
dot, at most a page number. It is not OCR'd."""


def blank_page(pdf: Any, page_no: int) -> bool:
    """Whether a 1-based page has nothing to read: no page objects at all, or no ink on a low-resolution render
    (``INK_SHARE``). Checked before OCR, so a file of blank pages costs milliseconds a page, not a model run."""
    import numpy as np
    import pypdfium2.raw as c

    page = pdf[page_no - 1]
    try:
        if c.FPDFPage_CountObjects(page.raw) == 0:
            return True
        grey = np.asarray(page.render(scale=INK_DPI / 72.0, grayscale=True).to_pil().convert("L"))
    finally:
        page.close()
    return bool((grey < INK_LEVEL).mean() <= INK_SHARE) if grey.size else True


def needs_ocr(page: Any) -> bool:
    """A page without a usable text layer (fewer than 3 words) that did not fail to read."""
    return not page.has_text and not getattr(page, "error", "")


def apply_ocr(page: Any, words: list[Word]) -> None:
    """Put OCR words into a ``PageText`` in place (so the text chunker sees them)."""
    from engine.pagetext import text_lines

    page.words = words
    page.lines = text_lines(words)


def page_row_words(words: Sequence[Word]) -> list[list[Any]]:
    """Words as stored in the catalogue (rounded)."""
    return [[round(w[0], 1), round(w[1], 1), round(w[2], 1), round(w[3], 1), w[4]] for w in words]

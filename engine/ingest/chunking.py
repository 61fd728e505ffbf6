"""Sentences with positions, then MultiFinRAG semantic chunking: windowed breakpoints and greedy merging."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.ingest.pdftext import bbox_union, inside
from engine.pagetext import PageText, Word
from engine.sentences import ABBREVIATIONS

BBoxT = tuple[float, float, float, float]

_ABBREV = ABBREVIATIONS
_NUMERIC = re.compile(r"^[\(\-\$€£]*[\d.,]+%?[\)]*$|^[—–-]$")
_END = re.compile(r"[.!?][\"')\]]*$")
MAX_SENTENCE_CHARS = 1500
"""A run of text with no sentence end (a page of one endless line, a planted megabyte) is cut into sentences of at
most this many characters, so no chunk grows past ``max(max_chunk_chars, MAX_SENTENCE_CHARS)``: the embedder
reads only a chunk's first few hundred tokens, and an answer's evidence stays a readable size."""


@dataclass
class Sentence:
    """A sentence (or a table-like line) with the page and box it came from."""

    text: str
    page: int
    bbox: BBoxT


@dataclass
class TextChunk:
    """A chunk of consecutive sentences from one page."""

    text: str
    page: int
    bbox: BBoxT
    sentences: list[int] = field(default_factory=list)


def _is_tabular(words: Sequence[Word]) -> bool:
    nums = sum(1 for w in words if _NUMERIC.match(w[4]))
    return nums >= 2 and nums >= 0.3 * len(words)


def page_sentences(page: PageText, exclude: Sequence[BBoxT] = ()) -> list[Sentence]:
    """Split a page into sentences, keeping boxes. Words inside ``exclude`` boxes (tables) are left out.

    Lines that look tabular (mostly numbers) stand alone; paragraph gaps end a sentence.
    """
    out: list[Sentence] = []
    cur: list[Word] = []
    size = 0
    prev_bottom: float | None = None
    prev_height = 10.0

    def flush() -> None:
        nonlocal size
        if cur:
            text = " ".join(w[4] for w in cur).strip()
            if text:
                out.append(Sentence(text=text, page=page.page, bbox=bbox_union(cur)))
            cur.clear()
        size = 0

    def add(word: Word) -> None:
        nonlocal size
        cap = MAX_SENTENCE_CHARS
        for k in range(0, max(1, len(word[4])), cap):  # a single word longer than the cap is cut too
            piece = (*word[:4], word[4][k : k + cap])
            if cur and size + 1 + len(piece[4]) > cap:
                flush()
            cur.append(piece)
            size += len(piece[4]) + (1 if size else 0)

    for line in page.lines:
        words = [page.words[i] for i in line]
        if exclude:
            words = [w for w in words if not any(inside(w, b) for b in exclude)]
        if not words:
            continue
        top = min(w[1] for w in words)
        height = max(1.0, max(w[3] - w[1] for w in words))
        if prev_bottom is not None and top - prev_bottom > 0.9 * max(height, prev_height):
            flush()  # paragraph gap
        if _is_tabular(words):
            flush()
            for w in words:
                add(w)
            flush()
        else:
            for w in words:
                add(w)
                token = w[4]
                if _END.search(token) and token.lower() not in _ABBREV and not re.fullmatch(r"[A-Z]\.", token):
                    flush()
        prev_bottom = max(w[3] for w in words)
        prev_height = height
    flush()
    return out


def _windows(n: int, w: int, o: int) -> list[tuple[int, int]]:
    step = max(1, w - o)
    starts = list(range(0, max(1, n - o), step)) if n > w else [0]
    return [(s, min(n, s + w)) for s in starts]


def _unit(v: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    return np.asarray(v / np.maximum(n, 1e-9), dtype=np.float32)


def semantic_chunks(
    sentences: Sequence[Sentence],
    embed: Callable[[Sequence[str]], np.ndarray],
    window: int = 3,
    overlap: int = 1,
    percentile: float = 95.0,
    merge_similarity: float = 0.85,
    max_chars: int = 1000,
    min_chars: int = 40,
) -> tuple[list[TextChunk], np.ndarray]:
    """DESIGN.md step 1: breakpoints above the distance percentile between sentence windows, split at page
    changes and at ``max_chars``; then greedily merge neighbours more similar than ``merge_similarity``.

    Every sentence is embedded once; a window's vector is the normalised sum of its sentences' vectors (so
    overlapping windows cost nothing extra), and the merge test uses length-weighted sums the same way.
    Only the final chunks are embedded again, as themselves. Returns the chunks and their embeddings.
    """
    n = len(sentences)
    if n == 0:
        return [], np.zeros((0, 0), dtype=np.float32)
    svec = embed([s.text for s in sentences])
    cuts: set[int] = set()
    for i in range(1, n):
        if sentences[i].page != sentences[i - 1].page:
            cuts.add(i)
    wins = _windows(n, window, overlap)
    if len(wins) >= 3:
        wvec = _unit(np.stack([svec[a:b].sum(axis=0) for a, b in wins]))
        dist = 1.0 - np.sum(wvec[:-1] * wvec[1:], axis=1)
        limit = float(np.percentile(dist, percentile))
        step = max(1, window - overlap)
        for i, d in enumerate(dist):
            if d > limit:
                cut = (i + 1) * step + (overlap + 1) // 2
                if 0 < cut < n:
                    cuts.add(cut)
    lengths = [len(s.text) + 1 for s in sentences]
    # Segments between cuts, then split long segments at sentence boundaries.
    bounds = sorted(cuts | {0, n})
    segments: list[list[int]] = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        seg: list[int] = []
        size = 0
        for i in range(a, b):
            if seg and size + lengths[i] > max_chars:
                segments.append(seg)
                seg, size = [], 0
            seg.append(i)
            size += lengths[i]
        if seg:
            segments.append(seg)
    page_of = [s.page for s in sentences]
    # Greedy merge of consecutive segments (same page, size permitting) above the similarity threshold;
    # fragments shorter than min_chars are folded into their neighbour on the same page regardless.
    weights = np.asarray(lengths, dtype=np.float32)[:, None]
    merged: list[list[int]] = []
    acc: list[np.ndarray] = []
    for seg in segments:
        vec = (svec[seg] * weights[seg]).sum(axis=0)
        if merged:
            last = merged[-1]
            size = sum(lengths[i] for i in last) + sum(lengths[i] for i in seg)
            if page_of[last[0]] == page_of[seg[0]] and size <= max_chars:
                small = sum(lengths[i] for i in seg) < min_chars or sum(lengths[i] for i in last) < min_chars
                sim = float(_unit(acc[-1]) @ _unit(vec))
                if small or sim > merge_similarity:
                    last.extend(seg)
                    acc[-1] = acc[-1] + vec
                    continue
        merged.append(list(seg))
        acc.append(vec)
    chunks = [
        TextChunk(
            text=" ".join(sentences[i].text for i in seg),
            page=sentences[seg[0]].page,
            bbox=_union([sentences[i].bbox for i in seg]),
            sentences=seg,
        )
        for seg in merged
    ]
    return chunks, embed([c.text for c in chunks])


def _union(boxes: Sequence[BBoxT]) -> BBoxT:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def fixed_chunks(sentences: Sequence[Sentence], size: int = 800) -> list[TextChunk]:
    """The baseline of the papers: fixed-size chunks (by characters, at sentence ends, per page)."""
    out: list[TextChunk] = []
    cur: list[int] = []
    length = 0
    for i, s in enumerate(sentences):
        if cur and (length + len(s.text) > size or sentences[cur[0]].page != s.page):
            out.append(_mk(sentences, cur))
            cur, length = [], 0
        cur.append(i)
        length += len(s.text) + 1
    if cur:
        out.append(_mk(sentences, cur))
    return out


def _mk(sentences: Sequence[Sentence], idx: list[int]) -> TextChunk:
    return TextChunk(
        text=" ".join(sentences[i].text for i in idx),
        page=sentences[idx[0]].page,
        bbox=_union([sentences[i].bbox for i in idx]),
        sentences=list(idx),
    )

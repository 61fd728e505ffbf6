"""Layout: render pages, detect tables/figures/captions/titles, cross-check with the PDF's own geometry.

The detector (YOLO on DocLayNet classes) is the primary; the PDF's geometry is the fallback and the cross-check:
aligned numeric columns in the text layer (unruled financial tables), pdfplumber's ruled tables, image objects
and clusters of vector drawings (charts). Boxes are in PDF points ``(x0, top, x1, bottom)``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from engine.ingest.tables import UNITS_RE, find_units, numeric_grid_blocks
from engine.models.protocols import Detection
from engine.pagetext import TABLE_LINE_OVERLAP, Word, group_lines
from engine.types import BBox, Region

REGION_KINDS = ("table", "figure", "caption", "title")


def render_page(pdf: Any, page_no: int, dpi: int) -> Any:
    """A PIL image of a 1-based page at ``dpi``."""
    page = pdf[page_no - 1]
    try:
        return page.render(scale=dpi / 72.0).to_pil().convert("RGB")
    finally:
        page.close()


def area(b: BBox) -> float:
    """Area of a box (0 for an empty one)."""
    return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])


def intersection(a: BBox, b: BBox) -> float:
    """Area shared by two boxes."""
    return area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def overlap_small(a: BBox, b: BBox) -> float:
    """Intersection over the smaller box's area (1.0 when one contains the other)."""
    small = min(area(a), area(b))
    return intersection(a, b) / small if small > 0 else 0.0


def union(a: BBox, b: BBox) -> BBox:
    """The smallest box holding both."""
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def detections_to_regions(
    dets: Sequence[Detection], page: int, scale: float, page_w: float, page_h: float
) -> list[Region]:
    """Detector output (pixels) -> regions in PDF points; only the kinds the engine keeps."""
    out: list[Region] = []
    for d in dets:
        if d.kind not in REGION_KINDS:
            continue
        x0, y0, x1, y1 = (v / scale for v in d.box)
        box = (max(0.0, x0), max(0.0, y0), min(page_w, x1), min(page_h, y1))
        if area(box) <= 0:
            continue
        out.append(Region(id=0, doc_id="", page=page, kind=d.kind, bbox=box, method="yolo", score=d.score))
    return out


# --- geometry ----------------------------------------------------------------------------------------


def pdf_objects(pdf: Any, page_no: int) -> tuple[list[BBox], list[BBox]]:
    """Boxes of image objects and of vector path objects on a page (PDF points, top-left origin)."""
    import pypdfium2.raw as c

    page = pdf[page_no - 1]
    images: list[BBox] = []
    paths: list[BBox] = []
    try:
        if page.get_rotation() % 360:
            return images, paths  # object boxes are in unrotated space; the words are not
        h = page.get_height()
        for obj in page.get_objects(filter=(c.FPDF_PAGEOBJ_IMAGE, c.FPDF_PAGEOBJ_PATH), max_depth=3):
            try:
                bounds = obj.get_bounds() if hasattr(obj, "get_bounds") else obj.get_pos()
                left, bottom, right, top = (float(v) for v in bounds)
            except Exception:  # an object pdfium cannot measure is not a region
                continue
            box = (float(left), float(h - top), float(right), float(h - bottom))
            (images if obj.type == c.FPDF_PAGEOBJ_IMAGE else paths).append(box)
            if len(paths) > 4000:  # pathological vector pages: enough to find clusters
                break
    finally:
        page.close()
    return images, paths


def drawing_clusters(paths: Sequence[BBox], page_w: float, page_h: float, gap: float = 12.0) -> list[BBox]:
    """Clusters of vector drawings that look like charts: at least 4 shapes (not just rules) close together.

    Rules (thin lines) join shapes into one cluster (axes, gridlines) but alone never make a figure, so the
    rules of a ruled table do not become a chart.
    """
    items = [b for b in paths if area(b) < 0.6 * page_w * page_h and (b[2] - b[0]) + (b[3] - b[1]) > 3]
    if len(items) < 4 or len(items) > 3000:
        return []
    merged: list[list[float]] = []
    shapes: list[int] = []
    for item in sorted(items):
        b = list(item)
        is_shape = int((b[2] - b[0]) > 2.5 and (b[3] - b[1]) > 2.5)
        for k, m in enumerate(merged):
            if b[0] <= m[2] + gap and b[2] >= m[0] - gap and b[1] <= m[3] + gap and b[3] >= m[1] - gap:
                m[0], m[1], m[2], m[3] = min(m[0], b[0]), min(m[1], b[1]), max(m[2], b[2]), max(m[3], b[3])
                shapes[k] += is_shape
                break
        else:
            merged.append(b)
            shapes.append(is_shape)
    changed = True
    while changed:  # merging can make clusters touch
        changed = False
        for i in range(len(merged)):
            for j in range(i + 1, len(merged)):
                a, b = merged[i], merged[j]
                if b[0] <= a[2] + gap and b[2] >= a[0] - gap and b[1] <= a[3] + gap and b[3] >= a[1] - gap:
                    a[0], a[1], a[2], a[3] = min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])
                    shapes[i] += shapes[j]
                    del merged[j], shapes[j]
                    changed = True
                    break
            if changed:
                break
    return [
        (m[0], m[1], m[2], m[3])
        for m, n in zip(merged, shapes, strict=True)
        if n >= 4 and (m[2] - m[0]) >= 80 and (m[3] - m[1]) >= 50
    ]


def geometry_regions(
    page: int,
    words: Sequence[Word],
    page_w: float,
    page_h: float,
    images: Sequence[BBox] = (),
    paths: Sequence[BBox] = (),
    ruled_tables: Sequence[BBox] = (),
    scanned: bool = False,
) -> list[Region]:
    """Tables and figures from the PDF itself: numeric grids, ruled tables, images, drawing clusters."""
    out: list[Region] = []
    for b in numeric_grid_blocks(words, page_w):
        out.append(Region(id=0, doc_id="", page=page, kind="table", bbox=b, method="textgrid", score=0.6))
    for b in ruled_tables:
        if _has_numbers(words, b):
            out.append(Region(id=0, doc_id="", page=page, kind="table", bbox=b, method="ruled", score=0.6))
    tables = [r.bbox for r in out]
    for b in images:
        if scanned and area(b) > 0.5 * page_w * page_h:
            continue  # the scan itself
        if any(overlap_small(b, t) > 0.5 for t in tables):
            continue
        out.append(Region(id=0, doc_id="", page=page, kind="figure", bbox=_clip(b, page_w, page_h),
                          method="image", score=0.5))
    for b in drawing_clusters(paths, page_w, page_h):
        if any(overlap_small(b, t) > 0.3 for t in tables):
            continue
        if numeric_grid_blocks([w for w in words if _inside(w, b)], page_w):
            continue  # shaded rows of a table, not a chart
        out.append(Region(id=0, doc_id="", page=page, kind="figure", bbox=_clip(b, page_w, page_h),
                          method="drawing", score=0.5))
    return merge_regions([r for r in out if area(r.bbox) > 0])


DETECT_MIN_PATHS = 10
"""A page with this many vector paths (rules, boxes, chart marks) may hold a table or chart the words alone do
not show: the detector looks at it."""
DETECT_MIN_IMAGE = 0.01
"""An image covering this share of the page may be a figure (smaller ones are logos and bullets)."""


def needs_detector(
    geometric: Sequence[Region], images: Sequence[BBox], paths: Sequence[BBox], page_w: float, page_h: float,
    scanned: bool,
) -> bool:
    """Whether the layout detector can add to what the text layer gives on a page: a scanned page, a page where
    the PDF's geometry already finds a table or figure (the detector's box and confirmation improve it), an image
    of some size, or enough vector paths for a ruled table or a chart. A page of prose has nothing for it."""
    if scanned or geometric:
        return True
    if any(area(b) > DETECT_MIN_IMAGE * page_w * page_h for b in images):
        return True
    return len(paths) >= DETECT_MIN_PATHS


def _clip(b: BBox, w: float, h: float) -> BBox:
    return (max(0.0, b[0]), max(0.0, b[1]), min(w, b[2]), min(h, b[3]))


def _inside(w: Word, b: BBox, tol: float = 1.0) -> bool:
    cx, cy = (w[0] + w[2]) / 2, (w[1] + w[3]) / 2
    return b[0] - tol <= cx <= b[2] + tol and b[1] - tol <= cy <= b[3] + tol


def _has_numbers(words: Sequence[Word], b: BBox) -> bool:
    from engine.numbers import parse_cell

    return sum(1 for w in words if _inside(w, b) and parse_cell(w[4]) is not None) >= 3


def merge_regions(regions: list[Region], threshold: float = 0.6) -> list[Region]:
    """Merge same-kind regions that largely overlap (the union keeps the better score and both methods)."""
    out: list[Region] = []
    for r in sorted(regions, key=lambda r: -r.score):
        for o in out:
            if o.kind == r.kind and overlap_small(o.bbox, r.bbox) > threshold:
                # nested detections of one table: the union keeps every row of it
                o.bbox = union(o.bbox, r.bbox)
                o.method = "+".join(dict.fromkeys([*o.method.split("+"), *r.method.split("+")]))
                break
        else:
            out.append(r)
    return sorted(out, key=lambda r: (r.bbox[1], r.bbox[0]))


def cross_check(detected: list[Region], geometric: list[Region]) -> list[Region]:
    """Combine detector and geometry regions.

    A text-layer grid or ruled table overlapping a detected table confirms it (method ``yolo+textgrid``,
    score raised); geometry tables the detector missed are added; geometry figures are added only where the
    detector found nothing on that spot (charts drawn as vectors are often missed).
    """
    out = [Region(**{**r.__dict__}) for r in detected]
    for g in geometric:
        hits = [d for d in out if d.kind in {"table", "figure"} and overlap_small(d.bbox, g.bbox) > 0.3]
        if hits:
            for d in hits:
                if d.kind == g.kind and g.method not in d.method.split("+"):
                    d.method = f"{d.method}+{g.method}"
                    d.score = min(1.0, d.score + 0.2)
            continue
        if g.kind == "table" or (g.kind == "figure" and area(g.bbox) > 100 * 60):
            out.append(Region(**{**g.__dict__}))
    return merge_regions(out)


# --- titles, captions and units ------------------------------------------------------------------------


def words_in(words: Sequence[Word], box: BBox) -> list[Word]:
    """Words whose centre lies in the box."""
    return [w for w in words if _inside(w, box)]


def text_in(words: Sequence[Word], box: BBox) -> str:
    """The text inside a box, line by line."""
    return "\n".join(" ".join(w[4] for w in ln) for ln in group_lines(words_in(words, box), TABLE_LINE_OVERLAP))


_NOISE = re.compile(r"^(table of contents|index|\d+|page \d+|\W*)$", re.I)


def attach_context(regions: list[Region], words: Sequence[Word], page_h: float) -> None:
    """Give every table/figure its caption or title and units line; captions/titles get their own text."""
    labels = [r for r in regions if r.kind in {"caption", "title"}]
    for r in labels:
        r.title = re.sub(r"\s+", " ", text_in(words, r.bbox)).strip()[:300]
    lines = group_lines(words, TABLE_LINE_OVERLAP)
    for r in regions:
        if r.kind not in {"table", "figure"}:
            continue
        x0, top, x1, bottom = r.bbox
        best: tuple[float, str] | None = None
        for c in labels:
            if not c.title or _NOISE.match(c.title):
                continue
            horiz = min(x1, c.bbox[2]) - max(x0, c.bbox[0])
            if horiz <= 0 and not (c.bbox[2] <= x1 + 40 and c.bbox[0] >= x0 - 200):
                continue
            if c.bbox[3] <= top + 6:
                dist = top - c.bbox[3]
            elif r.kind == "figure" and c.kind == "caption" and c.bbox[1] >= bottom - 6:
                dist = c.bbox[1] - bottom + 20  # captions below figures are common, titles above preferred
            else:
                continue
            if dist <= 160 and (best is None or dist < best[0]):
                best = (dist, c.title)
        above = [
            ln for ln in lines
            if ln[-1][3] <= top + 2 and top - ln[-1][3] < 70 and min(w[2] for w in ln) > x0 - 80
            and max(w[0] for w in ln) < x1 + 40
        ]
        if best is not None:
            r.title = best[1]
        else:
            for ln in reversed(above[-4:]):
                text = " ".join(w[4] for w in ln).strip()
                if text and not _NOISE.match(text) and not UNITS_RE.fullmatch(text) and _texty(text):
                    r.title = text[:300]
                    break
        inner = [ln for ln in lines if _inside(ln[0], r.bbox)][:8]
        for ln in [*above[-4:], *inner]:
            u = find_units(" ".join(w[4] for w in ln))
            if u:
                r.units = u
                break


def _texty(text: str) -> bool:
    letters = sum(ch.isalpha() for ch in text)
    return letters >= 4 and letters >= 0.5 * len(text.replace(" ", ""))

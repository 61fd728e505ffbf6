"""Layout: detector classes mapped, pixels to points, geometry cross-check, captions and units attached."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import ConfigError
from engine.ingest import layout
from engine.models.config import RoleConfig
from engine.models.protocols import Detection
from engine.models.yolo_detector import build, map_label
from engine.types import Region


def test_doclaynet_classes_map_to_engine_kinds() -> None:
    assert map_label("Table") == "table"
    assert map_label("Picture") == "figure"
    assert map_label("Caption") == "caption"
    assert map_label("Section-header") == "title"
    assert map_label("Title") == "title"
    assert map_label("Page-footer") == "footer"
    assert map_label("List-item") == "text"
    assert map_label("something") == "other"


def test_detections_become_regions_in_points() -> None:
    dets = [Detection("table", (110, 220, 660, 440), 0.9, "Table"), Detection("text", (0, 0, 10, 10), 0.9)]
    regions = layout.detections_to_regions(dets, page=3, scale=110 / 72, page_w=612, page_h=792)
    assert len(regions) == 1
    r = regions[0]
    assert r.page == 3 and r.kind == "table" and r.method == "yolo"
    assert r.bbox == pytest.approx((72.0, 144.0, 432.0, 288.0))


def _r(kind: str, box: tuple[float, float, float, float], method: str, score: float = 0.9) -> Region:
    return Region(id=0, doc_id="", page=1, kind=kind, bbox=box, method=method, score=score)


def test_cross_check_confirms_adds_and_merges() -> None:
    detected = [_r("table", (50, 100, 550, 300), "yolo"), _r("table", (52, 102, 548, 200), "yolo", 0.5)]
    geometric = [
        _r("table", (55, 110, 540, 290), "textgrid", 0.6),
        _r("table", (50, 500, 550, 650), "textgrid", 0.6),
        _r("figure", (60, 320, 300, 480), "drawing", 0.5),
    ]
    out = layout.cross_check(detected, geometric)
    tables = [r for r in out if r.kind == "table"]
    assert len(tables) == 2
    assert "textgrid" in tables[0].method.split("+") and tables[0].method.startswith("yolo")
    assert tables[0].bbox == (50, 100, 550, 300)
    assert tables[1].method == "textgrid"
    assert [r.method for r in out if r.kind == "figure"] == ["drawing"]


def test_attach_context_finds_caption_title_and_units() -> None:
    words = [
        (60, 80, 140, 90, "Consolidated"), (142, 80, 200, 90, "Balance"), (202, 80, 240, 90, "Sheets"),
        (60, 95, 100, 105, "(In"), (102, 95, 150, 105, "millions)"),
        (60, 120, 100, 130, "Cash"), (400, 120, 430, 130, "1,000"),
    ]
    title = _r("title", (58, 78, 250, 92), "yolo")
    table = _r("table", (55, 110, 500, 200), "yolo")
    layout.attach_context([title, table], words, 792)
    assert title.title == "Consolidated Balance Sheets"
    assert table.title == "Consolidated Balance Sheets"
    assert table.units == "(In millions)"


def test_drawing_clusters_need_many_shapes() -> None:
    bars = [(100 + 20 * i, 300 - 10 * i, 112 + 20 * i, 400) for i in range(8)]
    rules = [(50, 500 + 15 * i, 550, 500.5 + 15 * i) for i in range(12)]
    clusters = layout.drawing_clusters(bars + rules, 612, 792)
    assert len(clusters) == 1
    assert clusters[0][0] == 100 and clusters[0][3] == 400


def test_pt_detector_needs_allow_pickle(tmp_path: Path) -> None:
    pt = tmp_path / "layout.pt"
    pt.write_bytes(b"not really a pickle")
    cfg = RoleConfig(role="detector", backend="ultralytics", path=str(pt), source="[profiles.x.detector]")
    with pytest.raises(ConfigError, match="allow_pickle"):
        build(cfg, pt, None)
    other = tmp_path / "layout.bin"
    other.write_bytes(b"x")
    with pytest.raises(ConfigError):
        build(RoleConfig(role="detector", backend="ultralytics", path=str(other)), other, None)


def test_detector_is_needed_where_the_text_layer_cannot_give_the_regions() -> None:
    w, h = 612.0, 792.0
    table = Region(id=0, doc_id="", page=1, kind="table", bbox=(60, 70, 520, 200), method="textgrid")
    rules = [(60.0, 100.0 + 12 * k, 520.0, 100.5 + 12 * k) for k in range(layout.DETECT_MIN_PATHS)]
    assert not layout.needs_detector([], [], rules[:3], w, h, scanned=False)  # prose with a rule or two
    assert not layout.needs_detector([], [(10.0, 10.0, 40.0, 30.0)], [], w, h, scanned=False)  # a logo
    assert layout.needs_detector([], [], [], w, h, scanned=True)
    assert layout.needs_detector([table], [], [], w, h, scanned=False)
    assert layout.needs_detector([], [(60.0, 300.0, 300.0, 500.0)], [], w, h, scanned=False)  # a picture
    assert layout.needs_detector([], [], rules, w, h, scanned=False)  # a ruled table or a chart's marks


@pytest.mark.real_models
def test_detector_streams_find_what_one_session_finds(eval_dir: Path) -> None:
    """The budget's cores become one-thread copies of the packaged detector, the pages of a call shared out
    among them; they find the same regions as one session on every thread."""
    import pypdfium2 as pdfium

    from engine.errors import ModelError
    from engine.models.budget import ThreadBudget
    from engine.models.packaged import resolve
    from engine.models.yolo_detector import YoloDetector
    from engine.settings import Settings

    try:
        path = resolve("yolov8n-doclaynet", Settings().models_dir)
    except ModelError as exc:
        pytest.skip(f"packaged detector not installed: {exc.message}")

    class Provider:
        budget = ThreadBudget.plan(cpus=2, physical=2)

    built = build(RoleConfig(role="detector", backend="ultralytics", path=str(path), options={"device": "cpu"}),
                  path, Provider())
    assert (built.streams, built.threads) == (2, 1)
    by_hand = build(RoleConfig(role="detector", backend="ultralytics", path=str(path),
                               options={"device": "cpu", "threads": 2}), path, Provider())
    assert (by_hand.streams, by_hand.threads) == (1, 2)
    pdf = pdfium.PdfDocument(str(eval_dir / "financebench" / "pdfs" / "AMAZON_2017_10K.pdf"))
    try:
        images = [layout.render_page(pdf, n, 110) for n in range(36, 41)]  # statements: tables on every page
    finally:
        pdf.close()
    one = YoloDetector(path, threads=2)
    alone, together = one.detect(images), built.detect(images)
    assert len(together) == len(images) and sum(d.kind == "table" for dets in together for d in dets) >= 3
    assert together == alone

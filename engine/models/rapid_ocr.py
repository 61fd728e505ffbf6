"""OCR with RapidOCR (PP-OCR ONNX models shipped inside the rapidocr wheel; nothing is downloaded)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.errors import ModelError
from engine.models.protocols import OcrWord


class RapidOcr:
    """An ``Ocr`` over rapidocr's packaged models; returns one ``OcrWord`` per word (pixel boxes)."""

    def __init__(self, threads: int = 2, words: bool = True, min_score: float = 0.5) -> None:
        from rapidocr import RapidOCR

        params: dict[str, Any] = {
            "Global.log_level": "error",
            "Global.text_score": min_score,
            "EngineConfig.onnxruntime.intra_op_num_threads": max(1, threads),
            "EngineConfig.onnxruntime.inter_op_num_threads": 1,
        }
        missing = [
            p for p in self._model_files() if not p.exists()
        ]
        if missing:
            raise ModelError(
                f"rapidocr's packaged models are missing ({', '.join(str(m) for m in missing)}); it would try "
                "to download them. Reinstall the rapidocr wheel (pip install --force-reinstall rapidocr).",
                title="OCR models missing",
            )
        logging.getLogger("RapidOCR").setLevel(logging.ERROR)
        self._engine = RapidOCR(params=params)
        self._lock = threading.Lock()
        self.words = words
        self.name = "rapidocr"

    @staticmethod
    def _model_files() -> list[Path]:
        import rapidocr

        root = Path(rapidocr.__file__).parent / "models"
        return [root / "PP-OCRv6_det_small.onnx", root / "PP-OCRv6_rec_small.onnx"]

    def read(self, images: Sequence[Any]) -> list[list[OcrWord]]:
        """Words with pixel boxes ``(x0, top, x1, bottom)`` for each PIL image (or numpy array)."""
        import numpy as np

        out: list[list[OcrWord]] = []
        for image in images:
            arr = np.asarray(image.convert("RGB") if hasattr(image, "convert") else image)
            with self._lock:
                res = self._engine(arr, return_word_box=self.words)
            out.append(_words(res, self.words))
        return out


def _quad_box(points: Any) -> tuple[float, float, float, float]:
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _words(res: Any, split_words: bool) -> list[OcrWord]:
    txts = getattr(res, "txts", None) or ()
    boxes = getattr(res, "boxes", None)
    scores = getattr(res, "scores", None) or ()
    word_results = getattr(res, "word_results", None) if split_words else None
    out: list[OcrWord] = []
    if word_results:
        for line in word_results:
            if not isinstance(line, list | tuple):
                continue
            for item in line:
                if not isinstance(item, list | tuple) or len(item) < 3:
                    continue
                text, score, quad = item[0], item[1], item[2]
                if str(text).strip():
                    out.append(OcrWord(text=str(text), box=_quad_box(quad), score=float(score)))
        if out:
            return out
    if boxes is None:
        return out
    for text, score, quad in zip(txts, scores, boxes, strict=False):
        if not str(text).strip():
            continue
        box = _quad_box(quad)
        parts = str(text).split()
        if split_words and len(parts) > 1:
            # No word boxes: spread the line box over its words in proportion to their length.
            total = sum(len(p) for p in parts) + len(parts) - 1
            x = box[0]
            width = box[2] - box[0]
            for p in parts:
                w = width * len(p) / max(1, total)
                out.append(OcrWord(text=p, box=(x, box[1], x + w, box[3]), score=float(score)))
                x += w + width / max(1, total)
        else:
            out.append(OcrWord(text=str(text), box=box, score=float(score)))
    return out


def build(cfg: Any, path: Path | None, provider: Any) -> RapidOcr:
    """Factory used by ``ModelProvider`` for ``backend = "rapidocr"``."""
    return RapidOcr(
        threads=int(cfg.option("threads", provider.budget.ocr)),
        min_score=float(cfg.option("min_score", 0.5)),
    )

"""Layout detection with an ultralytics YOLO model (the packaged DocLayNet YOLOv8n ONNX by default).

Ultralytics is kept strictly offline: no hub sync, no pip auto-install, no font or asset download. A ``.pt``
file is a pickle that can run code when loaded, so it is refused unless the detector role in models.toml says
``allow_pickle = true``.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from engine.errors import ConfigError, ModelError
from engine.models.device import torch_device
from engine.models.protocols import Detection
from engine.settings import force_offline

log = logging.getLogger(__name__)

DOCLAYNET_KINDS: dict[str, str] = {
    "caption": "caption",
    "footnote": "footnote",
    "formula": "formula",
    "list-item": "text",
    "page-footer": "footer",
    "page-header": "header",
    "picture": "figure",
    "figure": "figure",
    "image": "figure",
    "chart": "figure",
    "section-header": "title",
    "table": "table",
    "text": "text",
    "title": "title",
}
"""Detector class name (lower case) -> the engine's kind. Unknown names map to ``other``."""


def map_label(label: str) -> str:
    """The engine kind of a detector class name (DocLayNet and common variants)."""
    return DOCLAYNET_KINDS.get(label.strip().lower().replace("_", "-").replace(" ", "-"), "other")


def quiet_ultralytics() -> None:
    """Switch off everything in ultralytics that could reach the network or install packages."""
    force_offline()
    os.environ.setdefault("YOLO_AUTOINSTALL", "False")
    os.environ.setdefault("YOLO_OFFLINE", "1")
    import ultralytics.utils as uu
    import ultralytics.utils.checks as uc

    uu.AUTOINSTALL = False
    uc.AUTOINSTALL = False
    uu.ONLINE = False
    try:
        uu.SETTINGS.update({"sync": False, "hub": False})  # type: ignore[attr-defined]
    except Exception:  # older settings schemas lack a key; sync stays governed by YOLO_OFFLINE
        pass


MAX_STREAMS = 4
"""Copies of the detector at most (each holds its own ONNX Runtime session and buffers, ~100 MiB); more cores
give each copy more threads."""


class _Stream:
    """One ultralytics model (ultralytics predicts with one model per thread) and the lock of its calls."""

    def __init__(self, path: Path) -> None:
        from ultralytics import YOLO

        self.model = YOLO(str(path), task="detect")
        self.lock = threading.Lock()
        self.threads_set = False


class YoloDetector:
    """A ``Detector`` over an ultralytics YOLO model file; boxes in the pixels of the given images.

    An ONNX model on the CPU runs as ``streams`` copies of one ONNX Runtime thread each, the images of a call
    shared out among them, rather than one session on several threads: the detections are the same, one-thread
    runs never wait at a barrier for a thread the OS gave to another process, and on two EPYC cores two streams
    detected 10% more pages a second than one two-thread session (1.6x while another process used a core)."""

    def __init__(self, path: Path, imgsz: int = 1024, conf: float = 0.25, batch: int = 8,
                 device: str = "cpu", threads: int = 0, streams: int = 1) -> None:
        quiet_ultralytics()
        self.path = path
        self.name = path.stem
        self.imgsz = self._fixed_imgsz(path) or imgsz
        self.conf = conf
        self.batch = max(1, batch)
        self.device = device
        onnx_cpu = device == "cpu" and path.suffix.lower() == ".onnx"
        n = max(1, streams) if onnx_cpu else 1
        self.threads = max(1, threads) if n > 1 else threads
        """ONNX Runtime threads of each stream on the CPU (0, one stream only: its default, every physical core)."""
        self._streams = [_Stream(path) for _ in range(n)]
        for st in self._streams:
            st.threads_set = self.threads <= 0 or not onnx_cpu

    @property
    def streams(self) -> int:
        """Copies of the model that detect at once (each on one ONNX Runtime thread when more than one)."""
        return len(self._streams)

    @staticmethod
    def _fixed_imgsz(path: Path) -> int | None:
        """A static ONNX input size (exported models only run at the size they were exported with)."""
        if path.suffix.lower() != ".onnx":
            return None
        try:
            import onnxruntime as ort

            opts = ort.SessionOptions()
            opts.log_severity_level = 3
            sess = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
            shape = sess.get_inputs()[0].shape
            if len(shape) == 4 and isinstance(shape[2], int) and shape[2] > 0:
                return int(shape[2])
        except Exception:
            return None
        return None

    def detect(self, images: Sequence[Any]) -> list[list[Detection]]:
        """One list of detections per PIL image, ``batch`` images per model call, the images of a call shared
        out in contiguous parts among the streams."""
        out: list[list[Detection]] = []
        for i in range(0, len(images), self.batch):
            chunk = list(images[i : i + self.batch])
            n = min(len(self._streams), len(chunk))
            size = -(-len(chunk) // n)
            parts = [chunk[k : k + size] for k in range(0, len(chunk), size)]
            if len(parts) == 1:
                out.extend(self._predict(self._streams[0], parts[0]))
                continue
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=len(parts), thread_name_prefix="mfr-detect-stream") as pool:
                for dets in pool.map(self._predict, self._streams, parts):
                    out.extend(dets)
        return out

    def _predict(self, stream: _Stream, images: list[Any]) -> list[list[Detection]]:
        with stream.lock:
            results = stream.model.predict(images, imgsz=self.imgsz, conf=self.conf, verbose=False,
                                           device=self.device)
            if not stream.threads_set:
                stream.threads_set = True
                self._limit_threads(stream)
        out: list[list[Detection]] = []
        for res in results:
            res = cast(Any, res)
            names = res.names
            dets: list[Detection] = []
            boxes = res.boxes
            if boxes is not None:
                for cls, score, xyxy in zip(
                    boxes.cls.tolist(), boxes.conf.tolist(), boxes.xyxy.tolist(), strict=False
                ):
                    label = str(names.get(int(cls), cls)) if isinstance(names, dict) else str(cls)
                    dets.append(
                        Detection(
                            kind=map_label(label),
                            box=(float(xyxy[0]), float(xyxy[1]), float(xyxy[2]), float(xyxy[3])),
                            score=float(score),
                            label=label,
                        )
                    )
            out.append(dets)
        return out

    def _limit_threads(self, stream: _Stream) -> None:
        """Give the ONNX Runtime session ultralytics made (on the first call) the stream's thread count: ultralytics
        takes no session options, and its default (every core) would contend with the other streams and the
        embedder's threads. A layout this code does not know keeps the default, with a log line."""
        backend: Any = getattr(getattr(getattr(stream.model, "predictor", None), "model", None), "backend", None)
        session = getattr(backend, "session", None)
        try:
            import onnxruntime as ort

            if not isinstance(session, ort.InferenceSession) or session.get_providers() != ["CPUExecutionProvider"]:
                raise TypeError("no CPU ONNX Runtime session")
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = self.threads
            opts.inter_op_num_threads = 1
            opts.log_severity_level = 3
            backend.session = ort.InferenceSession(str(self.path), opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # noqa: BLE001 - a thread count is an optimisation, never a failure
            log.info("detector keeps ONNX Runtime's default threads: %s", exc)


def build(cfg: Any, path: Path | None, provider: Any) -> YoloDetector:
    """Factory used by ``ModelProvider`` for ``backend = "ultralytics"``."""
    if path is None:
        raise ConfigError(f"{cfg.source}: the ultralytics detector needs a `path` or `packaged` model.",
                          title="models.toml incomplete")
    suffix = path.suffix.lower()
    if suffix == ".pt" and not bool(cfg.option("allow_pickle", False)):
        raise ConfigError(
            f"{cfg.source}: {path} is a PyTorch pickle (.pt), which can run code when loaded. Export it to "
            "ONNX (`yolo export model=... format=onnx`), or add `allow_pickle = true` to this role if you "
            "trust the file.",
            title="Pickle model refused",
        )
    if suffix not in {".onnx", ".pt"}:
        raise ConfigError(
            f"{cfg.source}: {path} is not a YOLO .onnx or .pt file.", title="Unsupported detector file"
        )
    streams = min(MAX_STREAMS, max(1, provider.budget.detector))
    try:
        return YoloDetector(
            path,
            imgsz=int(cfg.option("imgsz", 1024)),
            conf=float(cfg.option("conf", 0.25)),
            batch=int(cfg.option("batch", 8)),
            device=torch_device(cfg.option("device", "auto"), onnx=suffix == ".onnx"),
            # a `threads` in models.toml: one stream on that many; else the budget's cores as streams
            threads=int(cfg.option("threads", max(1, provider.budget.detector // streams))),
            streams=1 if cfg.option("threads", None) is not None else streams,
        )
    except (ConfigError, ModelError):
        raise
    except Exception as exc:
        raise ModelError(f"Loading the layout detector {path} failed: {type(exc).__name__}: {exc}",
                         title="Detector failed to load") from exc

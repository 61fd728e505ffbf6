"""Builds the model of each role lazily from models.toml; tests inject fakes through ``overrides``."""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.errors import ConfigError, EngineError, ModelError
from engine.models.budget import ThreadBudget, llm_is_local
from engine.models.config import ROLES, ModelsConfig, RoleConfig, load_models_config
from engine.models.packaged import PACKAGED, HashCache, resolve, verify
from engine.models.protocols import LLM, Detector, Embedder, Ocr, Reranker, RoleStatus, VisionModel
from engine.settings import Settings

FACTORIES: dict[tuple[str, str], str] = {
    ("embedder", "sentence-transformers"): "engine.models.st_embedder:build",
    ("embedder", "onnx-int8"): "engine.models.onnx_embedder:build",
    ("llm", "llama-server"): "engine.models.llama_server:build_llm",
    ("llm", "openai"): "engine.models.llama_server:build_external_llm",
    ("llm", "llama-cpp"): "engine.models.llama_backend:build_llm",
    ("vision", "llama-server"): "engine.models.llama_server:build_vision",
    ("vision", "openai"): "engine.models.llama_server:build_external_vision",
    ("vision", "llama-cpp-mtmd"): "engine.models.llama_backend:build_vision",
    ("detector", "ultralytics"): "engine.models.yolo_detector:build",
    ("ocr", "rapidocr"): "engine.models.rapid_ocr:build",
    ("reranker", "cross-encoder"): "engine.models.cross_encoder:build",
    ("reranker", "llm"): "engine.models.cross_encoder:build_llm_reranker",
}
"""(role, backend) -> ``module:function(cfg, path, provider)`` building the model. Imported on first use."""


class ModelProvider:
    """Owns the models of one profile. Thread-safe; each model is built once, on first use."""

    def __init__(
        self,
        settings: Settings,
        config: ModelsConfig | None = None,
        overrides: dict[str, Any] | None = None,
    ) -> None:
        self.settings = settings
        self._config = config
        self._overrides = dict(overrides or {})
        self._models: dict[str, Any] = {}
        self._shared: dict[Any, Any] = {}
        self._lock = threading.RLock()
        self.hashes = HashCache(settings.models_dir / "hashes.json")
        self._budget: ThreadBudget | None = None

    @property
    def config(self) -> ModelsConfig:
        if self._config is None:
            self._config = load_models_config(self.settings.models_toml, self.settings.profile)
        return self._config

    @property
    def budget(self) -> ThreadBudget:
        """Threads per role on the cores this process may use (see ``engine.models.budget``)."""
        if self._budget is None:
            local = True
            if "llm" not in self._overrides:
                try:
                    cfg = self.role("llm")
                    local = llm_is_local(cfg.backend, str(cfg.option("url", "")))
                except ConfigError:
                    pass  # models.toml is reported where a model is needed; the budget assumes a local model
            self._budget = ThreadBudget.for_machine(local, self.settings.answers_first, self.settings.n_threads)
        return self._budget

    def role(self, role: str) -> RoleConfig:
        return self.config.roles[role]

    def is_enabled(self, role: str) -> bool:
        if role in self._overrides:
            return self._overrides[role] is not None
        return self.role(role).enabled and self.role(role).backend != "geometry"

    # --- paths ---------------------------------------------------------------------------------------
    def resolve_path(self, role: str) -> Path | None:
        """The verified local path of a role's model (None for backends that need no file)."""
        cfg = self.role(role)
        if cfg.packaged:
            return resolve(cfg.packaged, self.settings.models_dir, self.hashes)
        if not cfg.path:
            return None
        path = Path(cfg.path).expanduser()
        if not path.exists():
            raise ModelError(
                f"{cfg.source}: path {path} does not exist. Put the model there or fix `path` in "
                f"{self.config.file}" + (f" (expected sha256 {cfg.sha256})." if cfg.sha256 else "."),
                title="Model file missing",
            )
        if path.is_file() and cfg.sha256:
            verify(path, cfg.sha256, self.hashes, what=f"{role} model")
        return path

    def resolve_mmproj(self, role: str = "vision") -> Path:
        cfg = self.role(role)
        path = Path(cfg.mmproj).expanduser()
        if not path.exists():
            raise ModelError(
                f"{cfg.source}: mmproj {path} does not exist. Put the projector GGUF there or fix `mmproj`.",
                title="Model file missing",
            )
        if cfg.mmproj_sha256:
            verify(path, cfg.mmproj_sha256, self.hashes, what="vision projector (mmproj)")
        return path

    # --- models --------------------------------------------------------------------------------------
    def get(self, role: str) -> Any:
        """The model of a role, built on first use; None when the role is off."""
        if role in self._overrides:
            return self._overrides[role]
        with self._lock:
            if role in self._models:
                return self._models[role]
            cfg = self.role(role)
            if not cfg.enabled or cfg.backend == "geometry":
                self._models[role] = None
                return None
            path = self.resolve_path(role)
            model = self.build(cfg, path)
            self._models[role] = model
            return model

    def build(self, cfg: RoleConfig, path: Path | None) -> Any:
        """Build a model from a role table with its backend's factory (not cached; ``get`` caches the profile's
        roles). Also for tables outside the roles, e.g. an evaluation judge's ``[judge]``."""
        target = FACTORIES.get((cfg.role, cfg.backend))
        if target is None:
            raise ModelError(f"{cfg.source}: no backend '{cfg.backend}' for role '{cfg.role}'.")
        module, func = target.split(":")
        refuse_pickle(cfg, path)
        factory = getattr(importlib.import_module(module), func)
        try:
            return factory(cfg, path, self)
        except EngineError:
            raise
        except Exception as exc:  # a backend library failing to load a file is a model error
            raise ModelError(
                f"Loading the {cfg.role} model ({cfg.backend}, {path}) failed: {type(exc).__name__}: {exc}",
                title="Model failed to load",
            ) from exc

    def embedder(self) -> Embedder:
        model = self.get("embedder")
        assert model is not None
        return model  # type: ignore[no-any-return]

    def llm(self) -> LLM:
        model = self.get("llm")
        if model is None:
            raise ModelError("No text LLM is configured; set [llm] in models.toml.")
        return model  # type: ignore[no-any-return]

    def vision(self) -> VisionModel | None:
        return self.get("vision")  # type: ignore[no-any-return]

    def detector(self) -> Detector | None:
        return self.get("detector")  # type: ignore[no-any-return]

    def ocr(self) -> Ocr | None:
        return self.get("ocr")  # type: ignore[no-any-return]

    def reranker(self) -> Reranker | None:
        return self.get("reranker")  # type: ignore[no-any-return]

    def shared(self, key: Any, make: Callable[[], Any]) -> Any:
        """A resource several roles share (a model server), made once per ``key``, closed by ``close``."""
        with self._lock:
            if key not in self._shared:
                self._shared[key] = make()
            return self._shared[key]

    def close(self) -> None:
        """Free every model and stop the model servers this provider started."""
        with self._lock:
            for model in list(self._models.values()) + list(self._shared.values()):
                closer = getattr(model, "close", None)
                if callable(closer):
                    closer()
            self._models.clear()
            self._shared.clear()

    # --- checks --------------------------------------------------------------------------------------
    def check(self, role: str, load: bool = True) -> RoleStatus:
        """Resolve, verify and (with ``load``) really load and exercise a role's model."""
        cfg = self.role(role)
        status = RoleStatus(role=role, ok=False, backend=cfg.backend, optional=role in {"vision", "reranker"})
        if not cfg.enabled or cfg.backend == "geometry":
            status.ok = True
            status.detail = "off" if not cfg.enabled else "PDF geometry (no model file)"
            return status
        t0 = time.perf_counter()
        try:
            path = self.resolve_path(role)
            if path is not None:
                status.path = str(path)
                check_file = path
                if path.is_dir() and cfg.packaged and cfg.packaged in PACKAGED:
                    check_file = path / PACKAGED[cfg.packaged].check_file
                if check_file.is_file():
                    status.sha256 = self.hashes.sha256(check_file)
            if load:
                model = self.get(role)
                status.detail = _exercise(role, model)
                status.extra["runs"] = where(cfg, model)
            else:
                status.detail = "server not contacted (--no-load)" if cfg.backend == "openai" else "file verified"
                status.extra["runs"] = where(cfg, None)
            status.ok = True
        except EngineError as exc:
            status.detail = f"{exc.title}: {exc.message}"
        except Exception as exc:
            status.detail = f"{type(exc).__name__}: {exc}"
        status.extra["seconds"] = round(time.perf_counter() - t0, 2)
        return status

    def check_all(self, load: bool = True) -> dict[str, RoleStatus]:
        return {role: self.check(role, load=load) for role in ROLES}


PICKLE_SUFFIXES = (".bin", ".pt", ".pth", ".pkl", ".pickle", ".ckpt")
"""Weight files that torch/transformers may unpickle (which can run code) when no safetensors file is there."""


def refuse_pickle(cfg: RoleConfig, path: Path | None) -> None:
    """A model folder whose weights exist only as pickles loads only with ``allow_pickle = true`` in its role
    (the ultralytics detector checks its own ``.pt`` files the same way)."""
    if path is None or not path.is_dir() or bool(cfg.option("allow_pickle", False)):
        return
    files = [p for p in path.rglob("*") if p.is_file()]
    if any(p.suffix == ".safetensors" or p.suffix == ".onnx" for p in files):
        return
    pickles = [p.name for p in files if p.suffix.lower() in PICKLE_SUFFIXES]
    if pickles:
        raise ConfigError(
            f"{cfg.source}: {path} holds its weights only as pickles ({', '.join(sorted(pickles)[:3])}), which can "
            "run code when loaded. Convert them to safetensors, or add `allow_pickle = true` to this role if you "
            "trust the files.",
            title="Pickle model refused",
        )


def where(cfg: RoleConfig, model: Any) -> dict[str, Any]:
    """Where a role runs, for ``models --json``: backend, and url / pid / device / n_gpu_layers of a model
    server, or the torch device of an in-process model. Without a loaded model: what models.toml asks for."""
    reporter = getattr(model, "where", None)
    if callable(reporter):
        return dict(reporter())
    runs: dict[str, Any] = {"backend": cfg.backend}
    if cfg.backend in {"llama-server", "llama-cpp", "llama-cpp-mtmd"}:
        runs["n_gpu_layers"] = cfg.option("n_gpu_layers", "auto" if cfg.backend == "llama-server" else 0)
        runs["process"] = "own (llama_cpp.server)" if cfg.backend == "llama-server" else "in the app"
    elif cfg.backend == "openai":
        runs["url"] = str(cfg.option("url", ""))
    device = getattr(model, "device", None) if model is not None else cfg.option("device")
    if device is not None:
        runs["device"] = str(device)
    return runs


def _exercise(role: str, model: Any) -> str:
    """A real, tiny call through each loaded model, so `models` proves more than that a file exists."""
    if role == "embedder":
        vec = model.embed(["net revenue"])
        return f"{model.name}: dim {vec.shape[1]}"
    if role == "llm":
        n = model.count_tokens("Total revenue was $1,234 million.")
        return f"{model.name}: loaded, context {model.context_tokens}, tokenizer ok ({n} tokens)"
    if role == "detector":
        from PIL import Image

        dets = model.detect([Image.new("RGB", (320, 320), "white")])
        return f"{model.name}: ran on a blank page ({len(dets[0])} regions)"
    if role == "ocr":
        from PIL import Image, ImageDraw, ImageFont

        img = Image.new("RGB", (360, 64), "white")
        ImageDraw.Draw(img).text((12, 14), "Revenue 2023", fill="black", font=ImageFont.load_default(size=30))
        words = model.read([img])[0]
        return f"{model.name}: read {' '.join(w.text for w in words)!r} from a test image"
    if role == "reranker":
        scores = model.score("revenue", ["Total revenue was 5", "The sky is blue"])
        return f"{model.name}: scored 2 pairs ({scores[0]:.2f}, {scores[1]:.2f})"
    if role == "vision":
        return f"{getattr(model, 'name', 'vision')}: loaded"
    return "loaded"

"""An int8 ONNX Runtime embedder: a sentence-transformers BERT folder exported once, quantized, and cached.

The export (torch, transformers) runs on first use only; afterwards the embedder needs just onnxruntime and
``tokenizers``. The cached graph lives under ``<models dir>/onnx`` beside a manifest recording the recipe, the
source weights' sha256 and the graph's own sha256; a graph whose manifest disagrees (stale recipe, other
weights, a torn or edited file) is rebuilt. Every file is written to a temporary name and renamed into place,
so an interrupted export leaves no cache that looks valid. The export is deterministic (the same weights and
recipe give the same bytes), so two processes exporting at once write the same file.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import threading
import time
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import ModelError
from engine.settings import force_offline

log = logging.getLogger(__name__)

NAME_SUFFIX = "-onnx-int8"
"""Added to the sentence-transformers embedder's name: the vectors differ slightly, so thresholds calibrated
for one are not taken for the other."""

WEIGHTS_FILE = "model.safetensors"
PROBE = ("Net revenue increased 12% to $4.2 billion.", "Total current liabilities 1,204 1,187")
"""Texts the fresh int8 graph must embed like the float model before it is cached."""
PROBE_MIN_COSINE = 0.98


@dataclass(frozen=True)
class ExportRecipe:
    """How the float model becomes the cached int8 graph; any change gives a new cache entry."""

    version: int = 1
    """Bumped when the export code changes what the graph computes."""

    opset: int = 17

    per_channel: bool = True
    """One int8 scale per output channel of each weight (per-tensor scales: mean cosine 0.946 to fp32)."""

    float_ffn_layers: int = 3
    """The feed-forward output projections of this many first layers stay float. Their inputs (GELU outputs)
    carry outliers that 8-bit activations clip: on 300 chunks of filings, keeping layers 0-2 float took the
    p1 cosine to fp32 from 0.989 to 0.994 for 16% of the int8 speed-up."""

    quantize_embeddings: bool = True
    """Store the token, position and type embedding tables as int8 too (graph 61 -> 26 MiB; mean cosine
    0.9969 -> 0.9966)."""

    def key(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)


def model_name(folder: Path) -> str:
    """The name the sentence-transformers embedder gives this folder (``model`` folders take their parent's)."""
    return folder.name if folder.name != "model" else folder.parent.name


def max_seq_length(folder: Path) -> int:
    """Tokens per text, as sentence-transformers reads it: ``sentence_bert_config.json``, else the tokenizer's
    ``model_max_length``, capped by the model's position embeddings."""
    limits: list[int] = []
    for file, key in (("sentence_bert_config.json", "max_seq_length"), ("tokenizer_config.json", "model_max_length"),
                      ("config.json", "max_position_embeddings")):
        try:
            value = json.loads((folder / file).read_text(encoding="utf-8")).get(key)
        except (OSError, ValueError):
            continue
        if isinstance(value, int) and value > 0:
            if file == "sentence_bert_config.json":
                return value
            limits.append(value)
    return min(limits) if limits else 512


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(1 << 22):
            h.update(block)
    return h.hexdigest()


def _write_atomic(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` through a temporary file in the same folder, fsynced, then renamed."""
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".partial")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class _QuietQuantizer(logging.Filter):
    """Drops onnxruntime.quantization's per-tensor notes and its advice to pre-process the model, which it
    logs on the root logger; errors still pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= logging.ERROR


@dataclass(frozen=True)
class CachedGraph:
    """The int8 graph of one source folder in the cache, and its manifest."""

    onnx: Path
    manifest: Path

    @classmethod
    def of(cls, cache_dir: Path, folder: Path, source_sha256: str) -> CachedGraph:
        stem = f"{model_name(folder)}-{source_sha256[:12]}-int8"
        return cls(cache_dir / f"{stem}.onnx", cache_dir / f"{stem}.json")

    def problem(self, recipe: ExportRecipe, source_sha256: str) -> str:
        """Why this cache entry cannot be used ('' when it can)."""
        if not self.onnx.exists() and not self.manifest.exists():
            return "missing"
        try:
            meta = json.loads(self.manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            return f"manifest unreadable ({type(exc).__name__})"
        if not isinstance(meta, dict):
            return "manifest unreadable"
        if meta.get("recipe") != recipe.key():
            return "exported with another recipe (stale)"
        if meta.get("source_sha256") != source_sha256:
            return "exported from other weights (stale)"
        if not self.onnx.exists():
            return "graph file missing"
        if _sha256(self.onnx) != meta.get("onnx_sha256"):
            return "graph file does not match its manifest (torn or corrupt)"
        return ""


def export_int8(folder: Path, target: CachedGraph, recipe: ExportRecipe, source_sha256: str,
                threads: int = 1) -> dict[str, Any]:
    """Export ``folder``'s transformer with mean pooling to ONNX, quantize it to int8 and check it on
    ``PROBE`` against the float model; writes the graph, then its manifest. Returns the manifest."""
    force_offline()
    import onnxruntime
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from transformers import AutoModel

    torch.set_num_threads(max(1, threads))
    t0 = time.perf_counter()
    model = AutoModel.from_pretrained(str(folder), local_files_only=True, attn_implementation="eager").eval()

    class MeanPooled(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            hidden = self.inner(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            return (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)

    pooled = MeanPooled(model).eval()
    tokenizer = load_tokenizer(folder, max_seq_length(folder))
    probe = encode_batch(tokenizer, list(PROBE))
    with torch.inference_mode():
        expected = pooled(*(torch.from_numpy(probe[k]) for k in ("input_ids", "attention_mask", "token_type_ids")))
    expected = expected.numpy()

    target.onnx.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.onnx.parent, prefix=".export-") as tmp:
        fp32, int8 = Path(tmp) / "fp32.onnx", Path(tmp) / "int8.onnx"
        sample = torch.ones(2, 8, dtype=torch.long)
        axes = {0: "batch", 1: "sequence"}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the legacy exporter's deprecation and tracer notes
            torch.onnx.export(
                pooled, (sample, torch.ones_like(sample), torch.zeros_like(sample)), str(fp32),
                input_names=["input_ids", "attention_mask", "token_type_ids"],
                output_names=["sentence_embedding"],
                dynamic_axes={"input_ids": axes, "attention_mask": axes, "token_type_ids": axes,
                              "sentence_embedding": {0: "batch"}},
                opset_version=recipe.opset, dynamo=False,
            )
        float_nodes = _ffn_output_matmuls(fp32, recipe.float_ffn_layers)
        quiet = _QuietQuantizer()
        logging.getLogger().addFilter(quiet)
        try:
            quantize_dynamic(
                str(fp32), str(int8), per_channel=recipe.per_channel, weight_type=QuantType.QInt8,
                op_types_to_quantize=["MatMul", "Gather"] if recipe.quantize_embeddings else ["MatMul"],
                nodes_to_exclude=float_nodes,
            )
        finally:
            logging.getLogger().removeFilter(quiet)
        got = _session(int8, threads).run(None, probe)[0]
        cosine = float(np.min((_unit(got) * _unit(expected)).sum(axis=1)))
        if cosine < PROBE_MIN_COSINE:
            raise ModelError(
                f"The int8 graph exported from {folder} embeds a probe text at cosine {cosine:.4f} to the float "
                f"model (at least {PROBE_MIN_COSINE} expected); it was not cached. Use backend = "
                "\"sentence-transformers\" for this model.",
                title="ONNX export inaccurate",
            )
        data = int8.read_bytes()
    manifest = {
        "recipe": recipe.key(),
        "source": str(folder.resolve()),
        "source_sha256": source_sha256,
        "onnx_sha256": hashlib.sha256(data).hexdigest(),
        "bytes": len(data),
        "float_nodes": float_nodes,
        "probe_min_cosine": round(cosine, 6),
        "export_seconds": round(time.perf_counter() - t0, 2),
        "torch": torch.__version__,
        "onnxruntime": onnxruntime.__version__,
    }
    _write_atomic(target.onnx, data)
    _write_atomic(target.manifest, json.dumps(manifest, indent=1).encode("utf-8"))
    return manifest


def _ffn_output_matmuls(fp32: Path, layers: int) -> list[str]:
    """Names of the feed-forward output MatMuls of the first ``layers`` encoder layers (BERT naming)."""
    import onnx

    graph = onnx.load(str(fp32), load_external_data=False).graph
    wanted = tuple(f"/encoder/layer.{i}/output/dense/MatMul" for i in range(layers))
    return [n.name for n in graph.node if n.op_type == "MatMul" and n.name.endswith(wanted)]


def _unit(vecs: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vecs, axis=1, keepdims=True)
    return np.asarray(vecs / np.maximum(norms, 1e-12), dtype=np.float32)


def _session(path: Path, threads: int) -> Any:
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = max(1, threads)
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def load_tokenizer(folder: Path, max_length: int) -> Any:
    """The folder's fast tokenizer (``tokenizer.json``), truncating at ``max_length`` tokens and padding each
    batch to its longest text, as sentence-transformers calls it."""
    from tokenizers import Tokenizer

    file = folder / "tokenizer.json"
    if not file.exists():
        raise ModelError(
            f"{folder} has no tokenizer.json, which the onnx-int8 embedder reads. Use backend = "
            "\"sentence-transformers\" for this model.",
            title="Embedder folder invalid",
        )
    tok = Tokenizer.from_file(str(file))
    tok.no_padding()
    tok.enable_truncation(max_length=max_length)
    pad = tok.token_to_id("[PAD]")
    tok.enable_padding(pad_id=pad if pad is not None else 0, pad_token="[PAD]")
    return tok


def encode_batch(tokenizer: Any, texts: list[str]) -> dict[str, np.ndarray]:
    """The graph's inputs for a batch of texts (int64, padded to the batch's longest)."""
    enc = tokenizer.encode_batch(texts)
    return {
        "input_ids": np.asarray([e.ids for e in enc], dtype=np.int64),
        "attention_mask": np.asarray([e.attention_mask for e in enc], dtype=np.int64),
        "token_type_ids": np.asarray([e.type_ids for e in enc], dtype=np.int64),
    }


class OnnxInt8Embedder:
    """An ``Embedder`` running an int8 ONNX export of a sentence-transformers BERT folder (mean pooling,
    unit length, the folder's tokenizer and max_seq_length) with onnxruntime on the CPU.

    On first use it exports and quantizes the model into ``cache_dir`` (a few seconds, needs torch and
    transformers); later starts load the cached graph. Its vectors differ from the float model's (cosine about
    0.997 on filing chunks), so its ``name`` carries ``-onnx-int8``.

    Texts run one at a time by default (``batch_size=1``): activations are quantized with one scale per call,
    so in a batch a text's vector moves with its neighbours and their padding (cosine 0.993 to the same text
    alone), and on the CPU unpadded single texts were also faster (68 vs 46 texts/s at batch 64, one thread)."""

    def __init__(
        self,
        folder: Path,
        cache_dir: Path,
        threads: int = 1,
        batch_size: int = 1,
        recipe: ExportRecipe | None = None,
        source_sha256: str = "",
    ) -> None:
        weights = folder / WEIGHTS_FILE
        if not weights.exists():
            raise ModelError(
                f"{folder} has no {WEIGHTS_FILE}; the onnx-int8 embedder exports from safetensors weights only. "
                "Use backend = \"sentence-transformers\" for this model.",
                title="Embedder folder invalid",
            )
        force_offline()
        self.device = "cpu"
        self.threads = max(1, threads)
        self.batch_size = max(1, batch_size)
        self.recipe = recipe or ExportRecipe()
        self.max_seq_length = max_seq_length(folder)
        self.name = model_name(folder) + NAME_SUFFIX
        self._lock = threading.Lock()
        self._tokenizer = load_tokenizer(folder, self.max_seq_length)
        source_sha256 = source_sha256 or _sha256(weights)
        self.graph = CachedGraph.of(cache_dir, folder, source_sha256)
        self.exported: dict[str, Any] | None = None
        """The manifest of an export this instance made (None when the cached graph was used)."""
        problem = self.graph.problem(self.recipe, source_sha256)
        if problem == "missing":
            log.info("Exporting %s to an int8 ONNX graph at %s (first use, a few seconds).", folder, self.graph.onnx)
        elif problem:
            log.warning("The cached int8 ONNX graph %s is unusable: %s. Rebuilding it from %s.",
                        self.graph.onnx, problem, folder)
        session = None
        if not problem:
            try:
                session = _session(self.graph.onnx, self.threads)
            except Exception as exc:  # onnxruntime raises its own Fail/InvalidGraph types for a bad file
                log.warning("The cached int8 ONNX graph %s does not load (%s). Rebuilding it from %s.",
                            self.graph.onnx, exc, folder)
        if session is None:
            self.exported = export_int8(folder, self.graph, self.recipe, source_sha256, self.threads)
            session = _session(self.graph.onnx, self.threads)
        self._session = session
        self._inputs = {i.name for i in session.get_inputs()}
        self.dim = int(self.embed(["x"]).shape[1])

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, getattr(self, "dim", 0)), dtype=np.float32)
        items = [str(t) for t in texts]
        # Longest first, as sentence-transformers does, so each batch pads to similar lengths.
        order = np.argsort([-len(t) for t in items], kind="stable")
        out: np.ndarray | None = None
        with self._lock:
            for start in range(0, len(items), self.batch_size):
                idx = order[start:start + self.batch_size]
                feed = encode_batch(self._tokenizer, [items[i] for i in idx])
                vecs = self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})[0]
                if out is None:
                    out = np.empty((len(items), vecs.shape[1]), dtype=np.float32)
                out[idx] = _unit(vecs)
        assert out is not None
        return out


def build(cfg: Any, path: Path | None, provider: Any) -> OnnxInt8Embedder:
    """The ``onnx-int8`` embedder backend: the role's model folder, cached under ``<models dir>/onnx``."""
    if path is None or not path.is_dir():
        raise ModelError(f"{cfg.source}: the onnx-int8 embedder needs `path` (or `packaged`) naming a "
                         "sentence-transformers model folder.", title="models.toml incomplete")
    device = str(cfg.option("device", "cpu"))
    if device not in {"auto", "cpu"}:
        raise ModelError(f"{cfg.source}: the onnx-int8 embedder runs on the CPU only (device = {device!r}).",
                         title="models.toml invalid")
    defaults = ExportRecipe()
    recipe = ExportRecipe(
        per_channel=bool(cfg.option("per_channel", defaults.per_channel)),
        float_ffn_layers=int(cfg.option("float_ffn_layers", defaults.float_ffn_layers)),
    )
    weights = path / WEIGHTS_FILE
    return OnnxInt8Embedder(
        path,
        cache_dir=provider.settings.models_dir / "onnx",
        threads=provider.budget.embedder,
        batch_size=int(cfg.option("batch_size", 1)),
        recipe=recipe,
        source_sha256=provider.hashes.sha256(weights) if weights.exists() else "",
    )

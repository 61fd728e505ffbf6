"""The int8 ONNX Runtime embedder against the packaged MiniLM it is exported from: same outputs within
quantization error, same truncation, a cache that survives corruption, and the ``fast-embed`` profile."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.models.config import load_models_config
from engine.settings import Settings, repo_models_toml

real = pytest.mark.real_models

TEXTS = [
    "Total net sales increased 31% to $177.9 billion in 2017.",
    "Capital expenditures were $11.9 billion, net of proceeds from sales and incentives.",
    "Operating income (loss) by segment",
    "The Company's Board of Directors declared a quarterly dividend of $0.63 per share.",
    "Cash and cash equivalents | 20,289 | 21,456\nTotal current assets | 60,197 | 75,101",
    "Net revenues 2022 2021 2020 $ 51,217 $ 46,710 $ 38,321",
    "Table: Consolidated Balance Sheets (in millions). Rows: Total assets 412,264; Total liabilities 302,083",
    "Diluted earnings per share attributable to common shareholders $ 3.08 $ 2.91",
]
LONG = " ".join(
    f"In fiscal {2000 + i % 20} segment {i} reported revenue of ${i * 37 % 900}.{i % 10} million and an operating "
    f"margin of {i % 40}.{i % 7}%, driven by pricing, volume and foreign exchange." for i in range(60)
)


@pytest.fixture(scope="session")
def models_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A models dir for the session: the int8 graph is exported into it once."""
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="session")
def onnx_embedder(minilm_folder: Path, models_dir: Path) -> Any:
    from engine.models.onnx_embedder import OnnxInt8Embedder

    return OnnxInt8Embedder(minilm_folder, models_dir / "onnx", threads=1)


@pytest.fixture(scope="session")
def st_embedder(minilm_folder: Path) -> Any:
    from engine.models.st_embedder import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(minilm_folder, threads=1, precision="fp32")


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.asarray((a * b).sum(axis=1))


# --- configuration (no model) -----------------------------------------------------------------------------


def test_fast_embed_profile_swaps_only_the_embedder_backend() -> None:
    fast = load_models_config(repo_models_toml(), "fast-embed").roles
    default = load_models_config(repo_models_toml(), "default").roles
    assert fast["embedder"].backend == "onnx-int8" and fast["embedder"].packaged == "all-minilm-l6-v2"
    assert default["embedder"].backend == "sentence-transformers"
    assert all(fast[r].backend == default[r].backend for r in ("llm", "detector", "ocr", "vision", "reranker"))


# --- the real packaged model ------------------------------------------------------------------------------


@real
def test_vectors_match_sentence_transformers(onnx_embedder: Any, st_embedder: Any) -> None:
    a, b = onnx_embedder.embed(TEXTS), st_embedder.embed(TEXTS)
    assert a.dtype == np.float32 and a.shape == b.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    assert cosines(a, b).min() >= 0.99
    # each text still finds the same nearest neighbours among the others
    assert list(np.argsort(-(a @ a[1]))[:3]) == list(np.argsort(-(b @ b[1]))[:3])


@real
def test_name_dim_and_length_follow_the_packaged_model(onnx_embedder: Any, st_embedder: Any) -> None:
    from engine.models.protocols import Embedder

    assert isinstance(onnx_embedder, Embedder)
    assert onnx_embedder.name == st_embedder.name + "-onnx-int8" != st_embedder.name
    assert onnx_embedder.dim == st_embedder.dim == 384
    assert onnx_embedder.max_seq_length == st_embedder.max_seq_length == 256


@real
def test_empty_batch_and_empty_string(onnx_embedder: Any, st_embedder: Any) -> None:
    assert onnx_embedder.embed([]).shape == (0, 384)
    vec = onnx_embedder.embed(["", "Revenue"])
    assert np.isfinite(vec).all() and np.allclose(np.linalg.norm(vec, axis=1), 1.0, atol=1e-5)
    # [CLS][SEP] alone: two tokens, the hardest case for 8-bit activations (0.98 measured)
    assert cosines(vec[:1], st_embedder.embed([""]))[0] >= 0.95


@real
def test_long_text_is_truncated_like_sentence_transformers(onnx_embedder: Any, st_embedder: Any) -> None:
    longer = LONG + " Further text past the window changes nothing. " * 20
    a = onnx_embedder.embed([LONG, longer])
    assert np.allclose(a[0], a[1], atol=1e-6)  # both cut at the same 256 tokens
    b = st_embedder.embed([LONG])
    assert cosines(a[:1], b)[0] >= 0.99


@real
def test_a_vector_does_not_depend_on_the_rest_of_the_call(onnx_embedder: Any, minilm_folder: Path) -> None:
    from engine.models.onnx_embedder import OnnxInt8Embedder

    together = onnx_embedder.embed(TEXTS + [LONG])
    alone = np.vstack([onnx_embedder.embed([t]) for t in TEXTS + [LONG]])
    assert np.allclose(together, alone, atol=1e-6)
    # batched, activations share one quantization scale per batch: a vector moves a little with its company
    batched = OnnxInt8Embedder(minilm_folder, onnx_embedder.graph.onnx.parent, threads=1, batch_size=4)
    assert 0.98 <= cosines(batched.embed(TEXTS + [LONG]), alone).min() < 1.0 - 1e-6


@real
def test_cached_graph_is_reused(onnx_embedder: Any, minilm_folder: Path, models_dir: Path) -> None:
    from engine.models.onnx_embedder import OnnxInt8Embedder

    again = OnnxInt8Embedder(minilm_folder, models_dir / "onnx", threads=1)
    assert again.exported is None and again.graph == onnx_embedder.graph
    assert np.allclose(again.embed(TEXTS[:2]), onnx_embedder.embed(TEXTS[:2]), atol=1e-6)


@real
@pytest.mark.parametrize("damage", ["torn graph", "stale manifest"])
def test_corrupt_or_stale_cache_is_rebuilt(
    damage: str, onnx_embedder: Any, minilm_folder: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from engine.models.onnx_embedder import OnnxInt8Embedder

    cache = tmp_path / "onnx"
    shutil.copytree(onnx_embedder.graph.onnx.parent, cache)
    graph = cache / onnx_embedder.graph.onnx.name
    manifest = cache / onnx_embedder.graph.manifest.name
    if damage == "torn graph":
        graph.write_bytes(graph.read_bytes()[: graph.stat().st_size // 3])
    else:
        meta = json.loads(manifest.read_text())
        manifest.write_text(json.dumps({**meta, "recipe": meta["recipe"].replace('"version": 1', '"version": 0')}))
    with caplog.at_level(logging.WARNING, logger="engine.models.onnx_embedder"):
        rebuilt = OnnxInt8Embedder(minilm_folder, cache, threads=1)
    assert rebuilt.exported is not None
    assert "Rebuilding" in caplog.text and ("torn or corrupt" in caplog.text or "stale" in caplog.text)
    assert rebuilt.graph.problem(rebuilt.recipe, rebuilt.exported["source_sha256"]) == ""
    assert rebuilt.graph.onnx.read_bytes() == onnx_embedder.graph.onnx.read_bytes()  # deterministic export


@real
def test_interrupted_export_leaves_no_cache(
    minilm_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import onnxruntime.quantization

    from engine.models.onnx_embedder import OnnxInt8Embedder

    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(onnxruntime.quantization, "quantize_dynamic", interrupted)
    cache = tmp_path / "onnx"
    with pytest.raises(KeyboardInterrupt):
        OnnxInt8Embedder(minilm_folder, cache, threads=1)
    assert list(cache.iterdir()) == []  # no graph, no manifest, no temporary folder


@real
def test_fast_embed_profile_builds_the_onnx_embedder(
    onnx_embedder: Any, models_dir: Path, private_data_dir: Path
) -> None:
    from engine.models.onnx_embedder import OnnxInt8Embedder
    from engine.models.provider import ModelProvider

    settings = Settings(data_dir=private_data_dir, models_dir=models_dir, profile="fast-embed", n_threads=2)
    provider = ModelProvider(settings)
    try:
        emb = provider.embedder()
        assert isinstance(emb, OnnxInt8Embedder) and emb.threads == 2
        assert emb.exported is None  # the session's graph, found by the same weights' sha256
        status = provider.check("embedder")
        assert status.ok and status.detail == f"{emb.name}: dim 384", status.detail
        assert status.extra["runs"] == {"backend": "onnx-int8", "device": "cpu"}
    finally:
        provider.close()

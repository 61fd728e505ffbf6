"""The packaged MiniLM embedder for real: precision and thread handling (the choices behind ingestion speed)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.errors import ModelError
from engine.models.st_embedder import SentenceTransformerEmbedder

pytestmark = pytest.mark.real_models

TEXTS = [
    "Total net sales increased 31% to $177.9 billion in 2017.",
    "Capital expenditures were $11.9 billion, net of proceeds from sales and incentives.",
    "Operating income (loss) by segment",
    "The Company's Board of Directors declared a quarterly dividend of $0.63 per share.",
]


def test_bf16_vectors_match_fp32(minilm_folder: Path) -> None:
    fp32 = SentenceTransformerEmbedder(minilm_folder, threads=1, precision="fp32")
    bf16 = SentenceTransformerEmbedder(minilm_folder, threads=1, precision="bf16")
    a, b = fp32.embed(TEXTS), bf16.embed(TEXTS)
    assert a.dtype == b.dtype == np.float32 and a.shape == b.shape == (4, 384)
    assert np.allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-3)
    assert (a * b).sum(axis=1).min() > 0.999
    # the ranking of one text against the others is the same
    assert list(np.argsort(-(a @ a[1]))) == list(np.argsort(-(b @ b[1])))


def test_thread_count_restored_after_another_library_changes_it(minilm_folder: Path) -> None:
    import torch

    emb = SentenceTransformerEmbedder(minilm_folder, threads=1, precision="fp32")
    torch.set_num_threads(3)  # another library in the process (ultralytics sets one, a reranker its own)
    emb.embed(TEXTS[:1])
    assert torch.get_num_threads() == 1


def test_cpu_cores_become_one_thread_streams_with_the_same_vectors(minilm_folder: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    one = SentenceTransformerEmbedder(minilm_folder, threads=1)
    two = SentenceTransformerEmbedder(minilm_folder, threads=2)
    assert (one.streams, one.threads) == (1, 1)
    assert (two.streams, two.threads) == (2, 1)
    calls = [TEXTS * 4, TEXTS[::-1] * 3, TEXTS[1:] * 5, TEXTS[:2] * 6] * 2
    alone = [one.embed(c) for c in calls]
    with ThreadPoolExecutor(max_workers=2) as pool:  # concurrent calls on one model, as embed_in_batches makes
        together = list(pool.map(two.embed, calls))
    for a, b in zip(alone, together, strict=True):
        np.testing.assert_allclose(a, b, atol=1e-6)


def test_auto_precision_follows_the_cpu(minilm_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.models import st_embedder

    monkeypatch.setattr(st_embedder, "cpu_has_bf16", lambda: False)
    assert SentenceTransformerEmbedder(minilm_folder, precision="auto").precision == "fp32"
    monkeypatch.setattr(st_embedder, "cpu_has_bf16", lambda: True)
    assert SentenceTransformerEmbedder(minilm_folder, precision="auto").precision == "bf16"


def test_unknown_precision_is_a_named_error(minilm_folder: Path) -> None:
    with pytest.raises(ModelError, match="precision 'int4'"):
        SentenceTransformerEmbedder(minilm_folder, precision="int4")


class _Role:
    """The embedder role of models.toml as ``build`` reads it."""

    source = "models.toml [default.embedder]"

    def __init__(self, **options: object) -> None:
        self.options = options

    def option(self, name: str, default: object) -> object:
        return self.options.get(name, default)


class _Provider:
    def __init__(self, settings: object) -> None:
        from engine.models.budget import ThreadBudget

        self.settings = settings
        self.budget = ThreadBudget.plan(cpus=1, physical=1)


def test_cpu_embedder_batches_by_the_cpu_setting_unless_models_toml_says(minilm_folder: Path, tmp_path: Path) -> None:
    from engine.models.st_embedder import build
    from engine.settings import Settings

    settings = Settings(data_dir=tmp_path, n_threads=1, embed_batch=64, embed_batch_cpu=16)
    assert build(_Role(device="cpu"), minilm_folder, _Provider(settings)).batch_size == 16
    assert build(_Role(device="cpu", batch_size=48), minilm_folder, _Provider(settings)).batch_size == 48

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
    """A call's forward batches run at once on the streams: the same batches sentence-transformers makes of the
    call (longest first), so the same vectors as one call on one thread."""
    import threading

    one = SentenceTransformerEmbedder(minilm_folder, threads=1, batch_size=4)
    two = SentenceTransformerEmbedder(minilm_folder, threads=2, batch_size=4)
    assert (one.streams, one.threads) == (1, 1)
    assert (two.streams, two.threads) == (2, 1)
    texts = [t[: 12 + 7 * k] for k in range(5) for t in TEXTS] + TEXTS  # lengths tie and vary, as a filing's do
    seen: list[tuple[int, int]] = []
    encode = two._encode

    def recording(batch: list[str]) -> np.ndarray:
        seen.append((threading.get_ident(), len(batch)))
        return encode(batch)

    two._encode = recording  # type: ignore[method-assign]
    np.testing.assert_array_equal(two.embed(texts), one.embed(texts))
    assert [n for _, n in seen] == [4] * 6 and len({t for t, _ in seen}) == 2
    seen.clear()
    np.testing.assert_array_equal(two.embed(TEXTS), one.embed(TEXTS))  # one batch: no streams needed
    assert [n for _, n in seen] == [4] and seen[0][0] == threading.get_ident()


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

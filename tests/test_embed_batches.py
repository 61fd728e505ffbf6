"""embed_in_batches: each distinct text embedded once, its vector copied to the repeats (a 10-K repeats
"Table of Contents" 75 times)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from fakes_models import FakeEmbedder

from engine.ingest.pipeline import embed_in_batches


class CountingEmbedder(FakeEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.seen.extend(texts)
        return super().embed(texts)


TEXTS = ["Table of Contents", "Total net sales increased 31% to $177.9 billion in 2017.", "Table of Contents",
         "Operating income (loss) by segment", "Table of Contents", "Operating income (loss) by segment",
         "The Board declared a quarterly dividend of $0.63 per share."]


def test_embed_in_batches_embeds_each_distinct_text_once() -> None:
    emb = CountingEmbedder()
    counted: list[int] = []
    vecs = embed_in_batches(emb, TEXTS, 2, after_batch=counted.append)
    assert sorted(emb.seen) == sorted(set(TEXTS))
    assert sum(counted) == len(TEXTS)
    np.testing.assert_array_equal(vecs, FakeEmbedder().embed(TEXTS))
    distinct = list(dict.fromkeys(TEXTS))
    np.testing.assert_array_equal(embed_in_batches(emb, distinct, 3), FakeEmbedder().embed(distinct))
    assert embed_in_batches(emb, [], 3).shape == (0, emb.dim)


@pytest.mark.real_models
def test_embed_in_batches_with_repeats_matches_the_real_embedder(minilm_folder: Path) -> None:
    from engine.models.st_embedder import SentenceTransformerEmbedder

    fp32 = SentenceTransformerEmbedder(minilm_folder, threads=1, precision="fp32")
    for batch in (64, 2):
        np.testing.assert_allclose(embed_in_batches(fp32, TEXTS, batch), fp32.embed(TEXTS), atol=1e-5)
    # In bfloat16 a vector moves by up to ~1e-3 with the batch it is embedded in, repeats or not.
    auto = SentenceTransformerEmbedder(minilm_folder, threads=1)
    cosine = (embed_in_batches(auto, TEXTS, 2) * auto.embed(TEXTS)).sum(axis=1)
    assert cosine.min() > 0.9999

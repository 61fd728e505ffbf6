"""embed_in_batches: each distinct text embedded once, its vector copied to the repeats (a 10-K repeats
"Table of Contents" 75 times)."""

from __future__ import annotations

import threading
import time
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


class StreamsEmbedder(FakeEmbedder):
    """Takes ``streams`` calls at once; records how many ran together and on which threads."""

    def __init__(self, streams: int) -> None:
        super().__init__()
        self.streams = streams
        self.running = self.most = 0
        self.lock = threading.Lock()
        self.threads: set[int] = set()
        self.batches: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
            self.threads.add(threading.get_ident())
            self.batches.append(list(texts))
        time.sleep(0.02)  # long enough for the other stream to start
        with self.lock:
            self.running -= 1
        return super().embed(texts)


def test_an_embedder_with_streams_gets_that_many_batches_at_once_with_the_same_vectors() -> None:
    texts = [f"sentence {i} " + "x" * (i % 7) for i in range(40)] + TEXTS
    one, two = StreamsEmbedder(1), StreamsEmbedder(2)
    before: list[int] = []
    after: list[int] = []
    caller = threading.get_ident()
    on_caller: list[bool] = []

    def check() -> None:
        before.append(1)
        on_caller.append(threading.get_ident() == caller)

    def count(n: int) -> None:
        after.append(n)
        on_caller.append(threading.get_ident() == caller)

    expected = embed_in_batches(one, texts, 8)
    got = embed_in_batches(two, texts, 8, check, count)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(got, FakeEmbedder().embed(texts))
    assert one.most == 1 and two.most == 2 and len(two.threads) == 2
    # the same batches (so the same vectors from a real model), the longest handed out first
    assert sorted(map(sorted, two.batches)) == sorted(map(sorted, one.batches))
    assert max(map(len, two.batches[0])) >= max(map(len, two.batches[-1]))
    assert len(before) == len(two.batches) and sum(after) == len(texts) and all(on_caller)


def test_a_cancel_between_stream_batches_stops_handing_out_batches() -> None:
    emb = StreamsEmbedder(2)
    texts = [f"text number {i}" for i in range(64)]
    checks = 0

    def cancel_after_three() -> None:
        nonlocal checks
        checks += 1
        if checks > 3:
            raise RuntimeError("cancelled")

    with pytest.raises(RuntimeError, match="cancelled"):
        embed_in_batches(emb, texts, 4, cancel_after_three)
    assert 2 <= len(emb.batches) <= 3  # the batches in hand (one handed out may be called off before it starts)


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

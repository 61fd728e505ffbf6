"""The int8 ONNX Runtime embedder (``onnx-int8``) against the sentence-transformers one it is exported from:
agreement of the vectors and texts per second, on chunk texts of a real library.

    python benchmarks/bench_embedder.py --library DATA_DIR [--texts 2000] [--seed 15] [--threads 1,2]

Samples ``--texts`` chunks (every modality) with a fixed seed from the library's catalogue, opened read-only.
Exports and quantizes the packaged MiniLM into a fresh temporary cache (timed), then embeds the sample with

- ``st-auto``: sentence-transformers as the default profile runs it (``precision = "auto"``: bf16 matmuls where
  the CPU has them), batches of ``Settings.embed_batch_cpu``;
- ``st-fp32``: sentence-transformers in float32, the reference the cosines are taken against (at the first
  thread count only);
- ``onnx-int8``: the int8 graph, one text per call (its default);

at each thread count. The sample is cut into ``--rounds`` slices and the embedders take turns on each slice
(the order rotating), so a change in the machine's load falls on all of them alike; throughput is texts over
wall seconds summed over the slices, with CPU seconds (all threads of this process) beside it. Writes
benchmarks/out/bench_embedder.json.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from common import peak_rss_mb, write_json

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def sample_chunks(library: Path, n: int, seed: int) -> tuple[list[str], list[str]]:
    """``n`` chunk texts and their modalities, drawn with ``seed`` from the catalogue (opened read-only)."""
    db = sqlite3.connect(f"file:{library / 'catalogue.sqlite3'}?mode=ro", uri=True)
    try:
        ids = [int(r[0]) for r in db.execute("SELECT id FROM chunks WHERE text != '' ORDER BY id")]
        picked = sorted(random.Random(seed).sample(ids, min(n, len(ids))))
        rows: dict[int, tuple[str, str]] = {}
        for start in range(0, len(picked), 500):
            part = picked[start:start + 500]
            marks = ",".join("?" * len(part))
            for cid, text, modality in db.execute(
                f"SELECT id, text, modality FROM chunks WHERE id IN ({marks})", part
            ):
                rows[int(cid)] = (str(text), str(modality))
    finally:
        db.close()
    order = list(picked)
    random.Random(seed + 1).shuffle(order)  # not in catalogue order: neighbouring chunks share a document
    return [rows[i][0] for i in order], [rows[i][1] for i in order]


def cosine_stats(a: np.ndarray, b: np.ndarray) -> dict[str, float]:
    c = (a * b).sum(axis=1)
    return {"mean": round(float(c.mean()), 5), "p1": round(float(np.percentile(c, 1)), 5),
            "min": round(float(c.min()), 5), "n": int(len(c))}


def timed_rounds(embedders: dict[str, Any], texts: list[str], rounds: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Each embedder on each slice in turn; returns (vectors by name, timing by name)."""
    slices = [texts[i::rounds] for i in range(rounds)]
    index = [list(range(i, len(texts), rounds)) for i in range(rounds)]
    names = list(embedders)
    vecs = {k: np.zeros((len(texts), embedders[k].dim), dtype=np.float32) for k in names}
    wall = {k: 0.0 for k in names}
    cpu = {k: 0.0 for k in names}
    per_round: dict[str, list[float]] = {k: [] for k in names}
    for r, part in enumerate(slices):
        for k in names[r % len(names):] + names[:r % len(names)]:
            w0, c0 = time.perf_counter(), time.process_time()
            out = embedders[k].embed(part)
            dw, dc = time.perf_counter() - w0, time.process_time() - c0
            vecs[k][index[r]] = out
            wall[k] += dw
            cpu[k] += dc
            per_round[k].append(len(part) / dw)
    timing = {
        k: {"texts_per_s": round(len(texts) / wall[k], 2), "texts_per_cpu_s": round(len(texts) / cpu[k], 2),
            "wall_s": round(wall[k], 2), "cpu_s": round(cpu[k], 2),
            "per_round_texts_per_s": [round(x, 2) for x in per_round[k]]}
        for k in names
    }
    return vecs, timing


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--library", type=Path, required=True, help="a data dir holding catalogue.sqlite3")
    ap.add_argument("--texts", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    ap.add_argument("--rounds", type=int, default=4, help="slices the embedders take turns on")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()

    import torch

    torch.set_num_threads(1)
    from engine.models.onnx_embedder import OnnxInt8Embedder
    from engine.models.packaged import resolve
    from engine.models.st_embedder import SentenceTransformerEmbedder
    from engine.settings import Settings

    settings = Settings()
    folder = resolve("all-minilm-l6-v2", settings.models_dir)
    texts, modalities = sample_chunks(args.library, args.texts, args.seed)
    threads = [int(t) for t in args.threads.split(",") if t.strip()]
    load_start = os.getloadavg()

    with tempfile.TemporaryDirectory(prefix="bench-onnx-") as tmp:
        t0 = time.perf_counter()
        first = OnnxInt8Embedder(folder, Path(tmp), threads=1)
        build_s = time.perf_counter() - t0
        assert first.exported is not None
        export = {"build_embedder_s": round(build_s, 2), "export_quantize_s": first.exported["export_seconds"],
                  "graph_bytes": first.exported["bytes"], "float_nodes": first.exported["float_nodes"],
                  "recipe": first.exported["recipe"]}
        t0 = time.perf_counter()
        OnnxInt8Embedder(folder, Path(tmp), threads=1)
        export["load_cached_s"] = round(time.perf_counter() - t0, 2)

        results: dict[str, Any] = {}
        vectors: dict[int, dict[str, np.ndarray]] = {}
        for n in threads:
            embedders = {
                "st-auto": SentenceTransformerEmbedder(folder, threads=n, batch_size=settings.embed_batch_cpu,
                                                       precision="auto"),
                "st-fp32": SentenceTransformerEmbedder(folder, threads=n, batch_size=settings.embed_batch_cpu,
                                                       precision="fp32"),
                "onnx-int8": OnnxInt8Embedder(folder, Path(tmp), threads=n),
            }
            if n != threads[0]:
                del embedders["st-fp32"]  # the cosine reference is needed once; it is also the slowest
            precision = embedders["st-auto"].precision
            vectors[n], timing = timed_rounds(embedders, texts, args.rounds)
            onnx, auto = (timing[k]["texts_per_s"] for k in ("onnx-int8", "st-auto"))
            rounds_ratio = [
                o / s for o, s in zip(timing["onnx-int8"]["per_round_texts_per_s"],
                                      timing["st-auto"]["per_round_texts_per_s"], strict=True)
            ]
            results[str(n)] = {
                "timing": timing,
                "st_auto_precision": precision,
                "ratio_onnx_vs_st_auto": round(onnx / auto, 2),
                "ratio_onnx_vs_st_auto_median_round": round(statistics.median(rounds_ratio), 2),
                "ratio_onnx_vs_st_auto_cpu": round(timing["onnx-int8"]["texts_per_cpu_s"]
                                                   / timing["st-auto"]["texts_per_cpu_s"], 2),
            }
            if "st-fp32" in timing:
                results[str(n)]["ratio_onnx_vs_st_fp32"] = round(onnx / timing["st-fp32"]["texts_per_s"], 2)
            print(f"threads={n}: " + ", ".join(f"{k} {v['texts_per_s']}/s ({v['texts_per_cpu_s']}/cpu-s)"
                                               for k, v in timing.items()), flush=True)

    ref = vectors[threads[0]]
    by_modality = {
        m: cosine_stats(ref["onnx-int8"][[i for i, x in enumerate(modalities) if x == m]],
                        ref["st-fp32"][[i for i, x in enumerate(modalities) if x == m]])
        for m in sorted(set(modalities))
    }
    cosines = {
        "onnx_vs_st_fp32": cosine_stats(ref["onnx-int8"], ref["st-fp32"]),
        "onnx_vs_st_auto": cosine_stats(ref["onnx-int8"], ref["st-auto"]),
        "st_auto_vs_st_fp32": cosine_stats(ref["st-auto"], ref["st-fp32"]),
        "onnx_vs_st_fp32_by_modality": by_modality,
    }
    if len(threads) > 1:
        cosines["onnx_max_abs_diff_across_threads"] = float(
            np.abs(vectors[threads[0]]["onnx-int8"] - vectors[threads[-1]]["onnx-int8"]).max()
        )
    data = {
        "library": str(args.library),
        "texts": len(texts),
        "seed": args.seed,
        "modalities": {m: modalities.count(m) for m in sorted(set(modalities))},
        "mean_chars": round(sum(map(len, texts)) / len(texts), 1),
        "embed_batch_st": settings.embed_batch_cpu,
        "embed_batch_onnx": 1,
        "export": export,
        "cosine": cosines,
        "threads": results,
        "loadavg_start": [round(x, 2) for x in load_start],
        "loadavg_end": [round(x, 2) for x in os.getloadavg()],
        "cpu_count": os.cpu_count(),
        "peak_rss_mb": peak_rss_mb(),
    }
    path = write_json("bench_embedder", data, args.out)
    c = cosines["onnx_vs_st_fp32"]
    print(f"\n{len(texts)} chunks from {args.library} (seed {args.seed}); export+quantize "
          f"{export['export_quantize_s']} s, graph {export['graph_bytes'] / 2**20:.1f} MiB")
    print(f"cosine onnx-int8 vs st fp32: mean {c['mean']} p1 {c['p1']} min {c['min']}; "
          f"vs st auto ({results[str(threads[0])]['st_auto_precision']}): mean "
          f"{cosines['onnx_vs_st_auto']['mean']} p1 {cosines['onnx_vs_st_auto']['p1']}")
    for n in threads:
        r = results[str(n)]
        print(f"threads={n}: onnx-int8 / st-auto = {r['ratio_onnx_vs_st_auto']}x "
              f"(median round {r['ratio_onnx_vs_st_auto_median_round']}x, "
              f"per cpu-s {r['ratio_onnx_vs_st_auto_cpu']}x)"
              + (f", onnx-int8 / st-fp32 = {r['ratio_onnx_vs_st_fp32']}x" if "ratio_onnx_vs_st_fp32" in r else ""))
    print(f"load average {data['loadavg_start']} -> {data['loadavg_end']} on {os.cpu_count()} CPUs; wrote {path}")


if __name__ == "__main__":
    main()

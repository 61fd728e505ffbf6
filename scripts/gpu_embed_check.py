"""GPU check of the embedder role: the app's sentence-transformers embedder with ``device = "auto"``.

Prepared here (``--prepare``): chunks sampled from a library (``benchmarks/bench_embedder.sample_chunks``), the
packaged all-MiniLM-L6-v2's vectors of them on this CPU (the reference), and a float16 copy of the model's
weights (half the bytes to carry; loaded back as float32). On the GPU machine (no network; torch and
sentence-transformers are there) it embeds the same chunks through ``SentenceTransformerEmbedder`` on the
device ``torch_device("auto")`` picks and on that machine's CPU in the same run, and reports texts per second
and the cosine to the reference vectors; also which ONNX Runtime providers exist (the detector's ``auto``).

    python scripts/gpu_embed_check.py --prepare --library LIB --dir .gpu/embed       # here
    PYTHONPATH=. python3 scripts/gpu_embed_check.py --dir .gpu/embed --out OUT.json   # on the GPU machine
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import lzma
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))


def prepare(library: Path, folder: Path, n: int) -> None:
    from benchmarks.bench_embedder import sample_chunks
    from engine.models.packaged import resolve
    from engine.models.st_embedder import SentenceTransformerEmbedder

    folder.mkdir(parents=True, exist_ok=True)
    texts, _ = sample_chunks(library, n, seed=0)
    (folder / "texts.json").write_text(json.dumps(texts))
    src = resolve("all-minilm-l6-v2", Path(tempfile.mkdtemp()))
    ref = SentenceTransformerEmbedder(src, device="cpu", threads=2, precision="fp32").embed(texts)
    np.save(folder / "ref.npy", ref.astype(np.float16))
    model = folder / "minilm"
    if model.exists():
        shutil.rmtree(model)
    shutil.copytree(src, model, ignore=shutil.ignore_patterns("model.safetensors", "README.md", "*.onnx"))
    from safetensors.numpy import load_file, save_file

    weights = {k: v.astype(np.float16) for k, v in load_file(str(src / "model.safetensors")).items()}
    save_file(weights, str(model / "model.safetensors"))
    with open(model / "model.safetensors", "rb") as fin, lzma.open(model / "model.safetensors.xz", "wb") as fout:
        shutil.copyfileobj(fin, fout, 1 << 20)
    (model / "model.safetensors").unlink()  # xz: about 39 MB instead of 44 MB, under the device call's 64 MiB
    print(f"prepared {len(texts)} texts, reference {ref.shape}, fp16 model in {model}")


def timed(embedder: Any, texts: list[str]) -> tuple[np.ndarray, float]:
    embedder.embed(texts[:32])  # warm: kernels, allocator
    t0 = time.perf_counter()
    vecs = embedder.embed(texts)
    return vecs, time.perf_counter() - t0


def check(folder: Path) -> dict[str, Any]:
    os.environ.setdefault("YOLO_CONFIG_DIR", tempfile.mkdtemp())  # force_offline's default needs platformdirs
    import torch

    from engine.models.device import torch_device
    from engine.models.st_embedder import SentenceTransformerEmbedder
    from engine.settings import Settings

    model = Path(tempfile.mkdtemp()) / "minilm"
    shutil.copytree(folder / "minilm", model, ignore=shutil.ignore_patterns("*.xz"))
    from safetensors.numpy import load, save_file

    with lzma.open(folder / "minilm" / "model.safetensors.xz") as fin:  # float16 on the way, float32 as packaged
        save_file({k: v.astype(np.float32) for k, v in load(fin.read()).items()}, str(model / "model.safetensors"))
    texts: list[str] = json.loads((folder / "texts.json").read_text())
    ref = np.load(folder / "ref.npy").astype(np.float32)
    report: dict[str, Any] = {"texts": len(texts), "torch": torch.__version__, "cuda": torch.cuda.is_available()}
    try:
        import onnxruntime

        report["onnxruntime_providers"] = onnxruntime.get_available_providers()
    except ImportError:
        report["onnxruntime_providers"] = None
    device = torch_device("auto")
    report["device_auto"] = device
    batch = int(next(f.default for f in dataclasses.fields(Settings) if f.name == "embed_batch"))  # type: ignore[call-overload]
    runs: list[tuple[str, str, int, int]] = [(device, "app batch", batch, len(texts))]
    if device != "cpu":
        runs.append((device, "batch 256", 256, len(texts)))
    cpu_n = min(len(texts), 500)
    runs.append(("cpu", "cpu, 16 threads", batch, cpu_n))
    for dev, label, bsz, n in runs:
        emb = SentenceTransformerEmbedder(model, device=dev, threads=16, batch_size=bsz, precision="fp32")
        vecs, seconds = timed(emb, texts[:n])
        cos = np.sum(vecs * ref[:n], axis=1)
        report[label] = {"device": dev, "batch": bsz, "n": n, "seconds": round(seconds, 3),
                         "texts_per_s": round(n / seconds, 1), "cosine_mean": round(float(cos.mean()), 5),
                         "cosine_min": round(float(cos.min()), 5)}
        print(label, json.dumps(report[label]), flush=True)
        del emb
    if device != "cpu":
        report["gpu_over_cpu"] = round(report["app batch"]["texts_per_s"] / report["cpu, 16 threads"]["texts_per_s"], 1)
    return report


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", type=Path, required=True, help="the prepared folder")
    ap.add_argument("--prepare", action="store_true")
    ap.add_argument("--library", type=Path, help="with --prepare: a data dir holding catalogue.sqlite3")
    ap.add_argument("--texts", type=int, default=1000)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    if args.prepare:
        if args.library is None:
            ap.error("--prepare needs --library")
        prepare(args.library, args.dir, args.texts)
        return 0
    report = check(args.dir)
    print("SUMMARY " + json.dumps(report), flush=True)
    if args.out:
        args.out.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

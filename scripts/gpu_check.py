"""GPU check of the model server path (run by ``scripts/gpu_check.sh`` on a machine with a CUDA GPU).

In one process that has imported torch first, as the app does, it runs the app's own ``llama-server`` backend
(``engine.models.llama_server``, a ``llama_cpp.server`` child on 127.0.0.1) with ``n_gpu_layers = "auto"``:

1. on the tiny GGUF + mmproj of the tests (text and vision through one server), and
2. on a random-weight model of the packaged model's size (Qwen2.5-1.5B shape: 28 layers, width 1536, FFN 8960,
   12 query / 2 KV heads, Qwen's 151,936-token vocabulary; Q8_0), written here in seconds,

and prints llama.cpp's offload lines and tokens/s (prompt and generation). Then it shows what the server
process avoids: the same CUDA build loaded *in* a process that imported torch first.

    PYTHONPATH=. python scripts/gpu_check.py --files scripts/gpu_check_files --work /tmp/mfr-gpu-check
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

QWEN_1_5B = {"n_layer": 28, "d": 1536, "n_ff": 8960, "n_head": 12, "n_head_kv": 2}
"""The packaged Qwen2.5-Coder-1.5B's shape (from its GGUF header)."""


def unpack(src: Path, dst: Path) -> Path:
    if not dst.exists():
        with lzma.open(src) as fin, open(dst, "wb") as fout:
            shutil.copyfileobj(fin, fout, 1 << 20)
    return dst


def write_random_qwen2(path: Path, tokenizer: dict[str, Any], n_layer: int, seed: int = 0) -> Path:
    """A qwen2-architecture GGUF of the packaged model's shape with random Q8_0 weights (tied output)."""
    import gguf
    from tiny_gguf import CHAT_TEMPLATE

    shape = {**QWEN_1_5B, "n_layer": n_layer}
    d, n_ff, n_head, n_kv = shape["d"], shape["n_ff"], shape["n_head"], shape["n_head_kv"]
    head = d // n_head
    tokens: list[str] = tokenizer["tokenizer.ggml.tokens"]
    n_vocab = len(tokens)
    rng = np.random.default_rng(seed)
    q8 = gguf.GGMLQuantizationType.Q8_0
    scale = np.frombuffer(np.float16(0.02 / 73).tobytes(), dtype=np.uint8)  # int8 uniform std ~73 -> 0.02

    def q8_0(rows: int, cols: int) -> np.ndarray:
        blocks = rows * cols // 32
        data = np.empty((blocks, 34), dtype=np.uint8)
        data[:, :2] = scale
        data[:, 2:] = rng.integers(0, 256, size=(blocks, 32), dtype=np.uint8)
        return data.reshape(rows, cols // 32 * 34)

    w = gguf.GGUFWriter(str(path), "qwen2")
    w.add_name("random-qwen2-1.5b-shape")
    w.add_context_length(32768)
    w.add_embedding_length(d)
    w.add_block_count(shape["n_layer"])
    w.add_feed_forward_length(n_ff)
    w.add_head_count(n_head)
    w.add_head_count_kv(n_kv)
    w.add_rope_freq_base(1e6)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_file_type(gguf.LlamaFileType.MOSTLY_Q8_0)
    w.add_tokenizer_model(tokenizer["tokenizer.ggml.model"])
    w.add_tokenizer_pre(tokenizer.get("tokenizer.ggml.pre", "qwen2"))
    w.add_token_list(tokens)
    w.add_token_types(tokenizer["tokenizer.ggml.token_type"])
    w.add_token_merges(tokenizer["tokenizer.ggml.merges"])
    eos = tokens.index("<|im_end|>")
    w.add_eos_token_id(eos)
    w.add_pad_token_id(eos)
    w.add_add_bos_token(False)
    w.add_chat_template(CHAT_TEMPLATE)
    w.add_tensor("token_embd.weight", q8_0(n_vocab, d), raw_dtype=q8)
    w.add_tensor("output_norm.weight", np.ones(d, dtype=np.float32))
    for i in range(shape["n_layer"]):
        w.add_tensor(f"blk.{i}.attn_norm.weight", np.ones(d, dtype=np.float32))
        w.add_tensor(f"blk.{i}.attn_q.weight", q8_0(d, d), raw_dtype=q8)
        w.add_tensor(f"blk.{i}.attn_q.bias", np.zeros(d, dtype=np.float32))
        w.add_tensor(f"blk.{i}.attn_k.weight", q8_0(n_kv * head, d), raw_dtype=q8)
        w.add_tensor(f"blk.{i}.attn_k.bias", np.zeros(n_kv * head, dtype=np.float32))
        w.add_tensor(f"blk.{i}.attn_v.weight", q8_0(n_kv * head, d), raw_dtype=q8)
        w.add_tensor(f"blk.{i}.attn_v.bias", np.zeros(n_kv * head, dtype=np.float32))
        w.add_tensor(f"blk.{i}.attn_output.weight", q8_0(d, d), raw_dtype=q8)
        w.add_tensor(f"blk.{i}.ffn_norm.weight", np.ones(d, dtype=np.float32))
        w.add_tensor(f"blk.{i}.ffn_gate.weight", q8_0(n_ff, d), raw_dtype=q8)
        w.add_tensor(f"blk.{i}.ffn_up.weight", q8_0(n_ff, d), raw_dtype=q8)
        w.add_tensor(f"blk.{i}.ffn_down.weight", q8_0(d, n_ff), raw_dtype=q8)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def models_toml(path: Path, llm: Path, n_ctx: int, mmproj: Path | None = None) -> Path:
    text = f"""
[profiles.default]
embedder = {{ backend = "sentence-transformers", path = "{llm}" }}
detector = {{ backend = "geometry" }}
ocr = {{ backend = "none" }}

[profiles.default.llm]
backend = "llama-server"
path = "{llm}"
n_ctx = {n_ctx}
n_gpu_layers = "auto"
startup_timeout_s = 300
"""
    if mmproj is not None:
        text += f"""
[profiles.default.vision]
backend = "llama-server"
path = "{llm}"
mmproj = "{mmproj}"
n_ctx = {n_ctx}
"""
    path.write_text(text)
    return path


def timed_chat(llm: Any, prompt: str, max_tokens: int) -> dict[str, Any]:
    from engine.models.protocols import ChatMessage

    stamps: list[float] = []
    t0 = time.perf_counter()
    gen = llm.chat([ChatMessage("user", prompt)], max_tokens=max_tokens, on_token=lambda _p: stamps.append(
        time.perf_counter()))
    total = time.perf_counter() - t0
    prompt_tokens = llm.count_tokens(prompt)
    out: dict[str, Any] = {"prompt_tokens": prompt_tokens, "streamed_tokens": len(stamps),
                           "seconds": round(total, 3)}
    if stamps:
        first = stamps[0] - t0
        out["first_token_s"] = round(first, 3)
        out["prompt_tokens_per_s"] = round(prompt_tokens / first, 1) if first > 0 else None
        if len(stamps) > 1:
            out["gen_tokens_per_s"] = round((len(stamps) - 1) / (stamps[-1] - stamps[0]), 1)
    out["text"] = gen.text[:80]
    return out


def run_case(name: str, work: Path, llm_path: Path, n_ctx: int, mmproj: Path | None, images: list[Path],
             long_prompt: bool) -> dict[str, Any]:
    from engine.models.llama_server import LocalServer
    from engine.models.protocols import VisionRequest
    from engine.models.provider import ModelProvider
    from engine.settings import Settings

    toml = models_toml(work / f"{name}.toml", llm_path, n_ctx, mmproj)
    provider = ModelProvider(Settings(data_dir=work / "data", models_toml=toml, models_dir=work / "models",
                                      n_threads=4))
    result: dict[str, Any] = {"case": name, "model": str(llm_path), "size_mb": llm_path.stat().st_size >> 20}
    try:
        t0 = time.perf_counter()
        llm = provider.llm()
        result["load_s"] = round(time.perf_counter() - t0, 2)
        result["where"] = llm.where()  # type: ignore[attr-defined]
        result["short"] = timed_chat(llm, "How much restricted cash did the firm hold?", 32)
        if long_prompt:
            text = "Revenue was $1,234 million in 2023, up 7% from 2022. " * 90
            result["long"] = timed_chat(llm, text + "\nSummarise.", 256)
        if mmproj is not None:
            vision = provider.vision()
            assert vision is not None
            t0 = time.perf_counter()
            reply = vision.describe([VisionRequest(images=images, prompt="Describe each image.", max_tokens=32)])
            result["vision"] = {"reply": reply[0][:80], "seconds": round(time.perf_counter() - t0, 3)}
        server = llm.endpoint.server  # type: ignore[attr-defined]
        assert isinstance(server, LocalServer) and server.log_path is not None
        keys = ("offload", "CUDA", "GPU", "model buffer", "KV buffer", "compute buffer", "ggml_cuda_init",
                "mfr-server:")
        result["log_lines"] = [ln.strip() for ln in server.log_path.read_text(errors="replace").splitlines()
                               if any(k in ln for k in keys)][:40]
    except Exception as exc:  # noqa: BLE001 - a check reports every failure and carries on
        result["error"] = f"{type(exc).__name__}: {exc}"
    finally:
        provider.close()
    return result


def in_process_crash(llm_path: Path) -> dict[str, Any]:
    """What the app used to do: torch imported, then the CUDA llama.cpp loaded into the same process."""
    code = (f"import torch, llama_cpp; m = llama_cpp.Llama(model_path={str(llm_path)!r}, n_gpu_layers=-1, "
            "verbose=False); print('loaded fine', flush=True)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    tail = (proc.stdout + proc.stderr).strip().splitlines()[-3:]
    return {"returncode": proc.returncode, "tail": tail}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=Path, default=REPO / "scripts" / "gpu_check_files")
    parser.add_argument("--work", type=Path, default=Path("/tmp/mfr-gpu-check"))
    parser.add_argument("--layers", type=int, default=QWEN_1_5B["n_layer"],
                        help="layers of the random model (28: the packaged model's; fewer for a CPU dry run)")
    parser.add_argument("--out", type=Path, help="also write the report JSON here")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("MFR_LOG_DIR", str(args.work / "logs"))

    report: dict[str, Any] = {"python": sys.version.split()[0]}
    try:
        import torch  # first, as in the app

        report["torch"] = {"version": torch.__version__, "cuda": torch.cuda.is_available(),
                           "device": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None}
    except ImportError:
        report["torch"] = None
    from engine.models.device import torch_device

    report["embedder_device_auto"] = torch_device("auto") if report["torch"] else "no torch"

    from tiny_gguf import qwen_tokenizer, write_png

    tiny = unpack(args.files / "tiny-llama.gguf.xz", args.work / "tiny-llama.gguf")
    mmproj = unpack(args.files / "tiny-mmproj.gguf.xz", args.work / "tiny-mmproj.gguf")
    images = [write_png(args.work / "table-p3-1.png", (200, 30, 30)),
              write_png(args.work / "figure-p4-2.png", (30, 30, 200), size=(64, 30))]
    report["tiny"] = run_case("tiny", args.work, tiny, 512, mmproj, images, long_prompt=False)
    print(json.dumps(report["tiny"], indent=1), flush=True)

    big = args.work / f"random-qwen2-1.5b-{args.layers}l.gguf"
    if not big.exists():
        t0 = time.perf_counter()
        write_random_qwen2(big, qwen_tokenizer(tiny), args.layers)
        report["random_model_write_s"] = round(time.perf_counter() - t0, 1)
    report["random_1_5b"] = run_case("random-1.5b", args.work, big, 4096, None, [], long_prompt=True)
    print(json.dumps(report["random_1_5b"], indent=1), flush=True)

    report["in_process_after_torch"] = in_process_crash(tiny)
    print(json.dumps(report["in_process_after_torch"]), flush=True)
    summary = {
        "offload_tiny": report["tiny"].get("where"),
        "offload_random": report["random_1_5b"].get("where"),
        "random_1_5b_gen_tokens_per_s": report["random_1_5b"].get("long", {}).get("gen_tokens_per_s"),
        "random_1_5b_prompt_tokens_per_s": report["random_1_5b"].get("long", {}).get("prompt_tokens_per_s"),
        "in_process_after_torch_rc": report["in_process_after_torch"]["returncode"],
    }
    print("SUMMARY " + json.dumps(summary), flush=True)
    if args.out:
        args.out.write_text(json.dumps(report, indent=1))
    return 0 if "error" not in report["tiny"] and "error" not in report["random_1_5b"] else 1


if __name__ == "__main__":
    sys.exit(main())

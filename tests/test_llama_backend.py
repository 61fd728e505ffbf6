"""The llama-cpp-python backends, run for real on tiny generated GGUFs (and once on the packaged Qwen)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from tiny_gguf import IMAGE_TOKENS, SCRIPT, write_png

from engine.errors import ConfigError, ModelError
from engine.models.protocols import LLM, ChatMessage, VisionModel, VisionRequest

pytest.importorskip("llama_cpp")

from engine.models.llama_backend import (  # noqa: E402 - only once llama_cpp is known to be installed
    LlamaLLM,
    LlamaVision,
    VisionOverflow,
    handler_class,
)

QUESTION = [
    ChatMessage("system", "Answer from the context only."),
    ChatMessage("user", "How much restricted cash did the firm hold?"),
]


@pytest.fixture(scope="module")
def tiny_llm(tiny_llama_path: Path) -> Iterator[LlamaLLM]:
    llm = LlamaLLM.load(tiny_llama_path, n_ctx=512, n_batch=64, n_threads=1, n_threads_batch=1)
    yield llm
    llm.close()


@pytest.fixture(scope="module")
def tiny_vision(tiny_llama_path: Path, tiny_mmproj_path: Path) -> Iterator[LlamaVision]:
    vision = LlamaVision.load(
        tiny_llama_path,
        tiny_mmproj_path,
        use_gpu=False,
        n_ctx=512,
        n_batch=64,
        n_threads=1,
        n_threads_batch=1,
    )
    yield vision
    vision.close()


@pytest.fixture(scope="module")
def images(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("images")
    return [
        write_png(folder / "table-p3-1.png", (200, 30, 30)),
        write_png(folder / "figure-p4-2.png", (30, 30, 200), size=(64, 30)),
    ]


# --- text --------------------------------------------------------------------------------------------------


@pytest.mark.tiny_gguf
def test_chat_generates_through_llama_cpp(tiny_llm: LlamaLLM) -> None:
    assert isinstance(tiny_llm, LLM)
    assert tiny_llm.context_tokens == 512
    assert tiny_llm.name == "tiny-llama"
    gen = tiny_llm.chat(QUESTION, max_tokens=32)
    assert gen.text == SCRIPT
    assert gen.prompt_tokens > 10
    assert gen.completion_tokens == 6


@pytest.mark.tiny_gguf
def test_chat_streams_each_token(tiny_llm: LlamaLLM) -> None:
    pieces: list[str] = []
    gen = tiny_llm.chat(QUESTION, max_tokens=32, on_token=pieces.append)
    assert pieces == ["Hello", " from", " the", " tiny", " model", "."]
    assert "".join(pieces) == gen.text


@pytest.mark.tiny_gguf
def test_chat_respects_max_tokens(tiny_llm: LlamaLLM) -> None:
    assert tiny_llm.chat(QUESTION, max_tokens=3).text == "Hello from the"


@pytest.mark.tiny_gguf
def test_chat_stops_when_cancelled_between_tokens(tiny_llm: LlamaLLM) -> None:
    pieces: list[str] = []
    gen = tiny_llm.chat(QUESTION, max_tokens=32, on_token=pieces.append, cancelled=lambda: len(pieces) >= 2)
    assert gen.text == "Hello from"
    assert pieces == ["Hello", " from"]
    assert tiny_llm.chat(QUESTION, max_tokens=32).text == SCRIPT  # the model is left usable


@pytest.mark.tiny_gguf
def test_chat_cancel_aborts_prompt_evaluation(tiny_llm: LlamaLLM) -> None:
    calls = 0

    def cancelled() -> bool:
        nonlocal calls
        calls += 1
        return calls > 1  # false for the check before starting, true inside llama_decode's abort callback

    pieces: list[str] = []
    gen = tiny_llm.chat(QUESTION, max_tokens=32, on_token=pieces.append, cancelled=cancelled)
    assert gen.text == "" and pieces == []
    assert calls >= 2
    assert tiny_llm.chat(QUESTION, max_tokens=32).text == SCRIPT


@pytest.mark.tiny_gguf
def test_chat_already_cancelled_does_nothing(tiny_llm: LlamaLLM) -> None:
    assert tiny_llm.chat(QUESTION, cancelled=lambda: True).text == ""


@pytest.mark.tiny_gguf
def test_count_tokens_uses_the_real_tokenizer(tiny_llm: LlamaLLM) -> None:
    assert tiny_llm.count_tokens(SCRIPT) == 6
    assert tiny_llm.count_tokens("") == 0
    assert tiny_llm.count_tokens("Total revenue was $1,234 million.") > 5


@pytest.mark.tiny_gguf
def test_chat_is_thread_safe(tiny_llm: LlamaLLM) -> None:
    results: list[str] = []

    def run() -> None:
        results.append(tiny_llm.chat(QUESTION, max_tokens=32).text)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert results == [SCRIPT] * 4


@pytest.mark.tiny_gguf
def test_prompt_longer_than_context_is_a_model_error(tiny_llm: LlamaLLM) -> None:
    with pytest.raises(ModelError, match="does not fit"):
        tiny_llm.chat([ChatMessage("user", "revenue " * 600)], max_tokens=8)
    assert tiny_llm.chat(QUESTION, max_tokens=32).text == SCRIPT


@pytest.mark.tiny_gguf
def test_native_log_goes_to_logging_not_stdout(
    tiny_llama_path: Path, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="engine.llama")
    llm = LlamaLLM.load(tiny_llama_path, n_ctx=256, n_threads=1, n_threads_batch=1)
    try:
        assert llm.chat(QUESTION, max_tokens=8).text == SCRIPT
    finally:
        llm.close()
    out, err = capfd.readouterr()
    assert out == ""
    assert err == ""
    messages = [r.getMessage() for r in caplog.records if r.name == "engine.llama"]
    assert any("llama_model_loader" in m or "print_info" in m for m in messages)  # native lines arrived
    assert any("Model metadata" in m for m in messages)  # llama-cpp-python's own stderr prints too


@pytest.mark.tiny_gguf
def test_missing_model_file_names_the_path(tmp_path: Path) -> None:
    missing = tmp_path / "nope.gguf"
    with pytest.raises(ModelError, match="nope.gguf") as info:
        LlamaLLM.load(missing, n_ctx=256, n_threads=1)
    assert str(missing) in info.value.message


@pytest.mark.tiny_gguf
def test_garbage_model_file_is_a_model_error(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    garbage = tmp_path / "garbage.gguf"
    garbage.write_bytes(b"GGUF" + b"\x03\x00\x00\x00" + b"\xff" * 2000)
    with pytest.raises(ModelError) as info:
        LlamaLLM.load(garbage, n_ctx=256, n_threads=1)
    assert str(garbage) in info.value.message
    assert "models.toml" in info.value.message
    assert info.value.title == "Model failed to load"
    assert capfd.readouterr().out == ""


# --- vision ------------------------------------------------------------------------------------------------


@pytest.mark.tiny_gguf
def test_vision_describes_two_images_in_one_request(
    tiny_vision: LlamaVision, images: list[Path], caplog: pytest.LogCaptureFixture
) -> None:
    assert isinstance(tiny_vision, VisionModel)
    caplog.set_level(logging.DEBUG, logger="engine.llama")
    prompt = f"For each file ({images[0].name}, {images[1].name}) give a description and a JSON table."
    replies = tiny_vision.describe(
        [VisionRequest(images=images, prompt=prompt, system="You read tables.", max_tokens=64)]
    )
    assert replies == [SCRIPT]
    encoded = [r for r in caplog.records if "image slice encoded" in r.getMessage()]
    assert len(encoded) == 2  # both images went through the CLIP encoder
    shapes = [r.getMessage() for r in caplog.records if "output embedding shape" in r.getMessage()]
    assert shapes and all(f"{IMAGE_TOKENS}" in s for s in shapes)


@pytest.mark.tiny_gguf
def test_vision_answers_each_request(tiny_vision: LlamaVision, images: list[Path]) -> None:
    requests = [VisionRequest(images=[img], prompt=f"Describe {img.name}.", max_tokens=16) for img in images]
    assert tiny_vision.describe(requests) == [SCRIPT, SCRIPT]


@pytest.mark.tiny_gguf
def test_vision_accepts_non_png_images(tiny_vision: LlamaVision, tmp_path: Path) -> None:
    from PIL import Image

    jpg = tmp_path / "scan.jpg"
    Image.new("RGB", (40, 40), (10, 200, 10)).save(jpg, format="JPEG")
    assert tiny_vision.describe([VisionRequest(images=[jpg], prompt="Describe scan.jpg.")]) == [SCRIPT]


@pytest.mark.tiny_gguf
def test_vision_too_many_images_overflow(tiny_vision: LlamaVision, images: list[Path]) -> None:
    many = images * (512 // IMAGE_TOKENS)  # more image tokens than the 512-token context holds
    with pytest.raises(VisionOverflow) as info:
        tiny_vision.describe([VisionRequest(images=many, prompt="Describe them.", max_tokens=16)])
    assert info.value.images == len(many)
    assert isinstance(info.value, ModelError)
    assert "fewer images" in info.value.message
    assert tiny_vision.describe([VisionRequest(images=images, prompt="Describe.", max_tokens=16)]) == [SCRIPT]


@pytest.mark.tiny_gguf
def test_vision_reply_cut_by_context_is_overflow(tiny_vision: LlamaVision, images: list[Path]) -> None:
    def outcome(pad: int) -> str | VisionOverflow:
        prompt = "x" + " x" * (pad - 1)  # one token per " x"
        try:
            return tiny_vision.describe([VisionRequest(images=images, prompt=prompt, max_tokens=400)])[0]
        except VisionOverflow as exc:
            return exc

    assert outcome(1) == SCRIPT
    lo, hi = 1, 600  # outcome(hi): the prompt alone overflows; search the longest prompt that still fits
    while hi - lo > 1:
        mid = (lo + hi) // 2
        result = outcome(mid)
        if isinstance(result, VisionOverflow) and not result.partial:
            hi = mid
        else:
            lo = mid
    cut = outcome(lo)  # room for one token of the reply, then the context is full
    assert isinstance(cut, VisionOverflow)
    assert cut.partial == "Hello" and cut.images == 2
    assert "ran out of" in cut.message


@pytest.mark.tiny_gguf
def test_vision_garbage_mmproj_is_a_model_error(tiny_llama_path: Path, tmp_path: Path) -> None:
    bad = tmp_path / "mmproj-bad.gguf"
    bad.write_bytes(b"not a gguf at all" * 10)
    with pytest.raises(ModelError) as info:
        LlamaVision.load(tiny_llama_path, bad, use_gpu=False, n_ctx=256, n_threads=1)
    assert str(bad) in info.value.message
    assert "invalid magic" in info.value.message  # what llama.cpp said is passed on
    with pytest.raises(ModelError, match="mmproj"):
        LlamaVision.load(tiny_llama_path, tmp_path / "absent.gguf", n_ctx=256, n_threads=1)


def test_unknown_chat_handler_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="chat_handler"):
        handler_class("no-such-handler")
    with pytest.raises(ConfigError):
        handler_class("Jinja2ChatFormatter")  # exists, but is not a multimodal handler
    from llama_cpp import llama_chat_format as lcf

    assert issubclass(handler_class("mtmd"), lcf.MTMDChatHandler)
    assert issubclass(handler_class("qwen2.5-vl-legacy"), lcf.Qwen25VLChatHandler)
    assert issubclass(handler_class("Llava15ChatHandler"), lcf.Llava15ChatHandler)


# --- through the provider ----------------------------------------------------------------------------------


def _provider(tmp_path: Path, toml: str) -> object:
    from engine.models.provider import ModelProvider
    from engine.settings import Settings

    file = tmp_path / "models.toml"
    file.write_text(toml)
    return ModelProvider(Settings(data_dir=tmp_path / "data", models_toml=file, n_threads=1))


_TINY_TOML = """
[profiles.default]
embedder = {{ backend = "sentence-transformers", path = "{llm}" }}
detector = {{ backend = "geometry" }}
ocr = {{ backend = "none" }}
llm = {{ backend = "llama-cpp", path = "{llm}", n_ctx = 512 }}

[profiles.default.vision]
backend = "llama-cpp-mtmd"
path = "{llm}"
mmproj = "{mmproj}"
n_ctx = 512
share_llm = {share}
"""


@pytest.mark.tiny_gguf
def test_provider_builds_both_roles_sharing_one_model(
    tmp_path: Path, tiny_llama_path: Path, tiny_mmproj_path: Path, images: list[Path]
) -> None:
    from engine.models.provider import ModelProvider

    provider = _provider(
        tmp_path, _TINY_TOML.format(llm=tiny_llama_path, mmproj=tiny_mmproj_path, share="true")
    )
    assert isinstance(provider, ModelProvider)
    try:
        llm = provider.llm()
        vision = provider.vision()
        assert isinstance(llm, LlamaLLM) and isinstance(vision, LlamaVision)
        assert vision._llama is llm.llama and vision.lock is llm.lock and not vision.owns_model
        assert llm.chat(QUESTION, max_tokens=32).text == SCRIPT
        assert vision.describe([VisionRequest(images=images, prompt="Describe.", max_tokens=16)]) == [SCRIPT]
        assert llm.chat(QUESTION, max_tokens=32).text == SCRIPT  # no stale image positions reused
        status = provider.check("llm")
        assert status.ok, status.detail
    finally:
        provider.close()


@pytest.mark.tiny_gguf
def test_provider_vision_with_own_model(
    tmp_path: Path, tiny_llama_path: Path, tiny_mmproj_path: Path
) -> None:
    toml = _TINY_TOML.format(llm=tiny_llama_path, mmproj=tiny_mmproj_path, share="false")
    provider = _provider(tmp_path, toml)
    try:
        vision = provider.get("vision")
        assert isinstance(vision, LlamaVision) and vision.owns_model
    finally:
        provider.close()


# --- the packaged model ------------------------------------------------------------------------------------


@pytest.mark.real_models
@pytest.mark.slow
def test_packaged_qwen_answers_through_the_provider(tmp_path: Path) -> None:
    from engine.models.llama_server import ServedLLM
    from engine.models.provider import ModelProvider
    from engine.settings import Settings, repo_models_toml

    provider = ModelProvider(Settings(data_dir=tmp_path, models_toml=repo_models_toml(), profile="default"))
    try:
        llm = provider.llm()
        assert isinstance(llm, ServedLLM)  # the default profile serves it from its own process
        assert llm.name == "qwen2.5-coder-1.5b-instruct"
        assert llm.context_tokens == 4096
        pieces: list[str] = []
        gen = llm.chat(
            [ChatMessage("user", "What is 2 + 2? Reply with the number only.")],
            max_tokens=16,
            on_token=pieces.append,
        )
        assert "4" in gen.text
        assert "".join(pieces) == gen.text
        assert 0 < gen.completion_tokens <= 16
    finally:
        provider.close()

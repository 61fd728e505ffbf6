"""models.toml parsing, packaged-model resolution and checksum errors."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from engine import ConfigError, ModelError, Settings
from engine.models.config import load_models_config
from engine.models.packaged import PACKAGED, HashCache, resolve, verify
from engine.models.provider import ModelProvider
from engine.settings import repo_models_toml


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "models.toml"
    p.write_text(text)
    return p


BASE = """
[profiles.default.embedder]
backend = "sentence-transformers"
path = "{emb}"
[profiles.default.llm]
backend = "llama-cpp"
path = "{llm}"
sha256 = "{sha}"
[profiles.default.detector]
backend = "geometry"
[profiles.default.ocr]
backend = "none"
"""


def test_shipped_models_toml_profiles_resolve() -> None:
    for profile in ("default", "small", "workstation", "remote"):
        cfg = load_models_config(repo_models_toml(), profile)
        assert set(cfg.roles) == {"embedder", "llm", "vision", "detector", "ocr", "reranker"}
    ws = load_models_config(repo_models_toml(), "workstation")
    assert ws.roles["vision"].backend == "llama-server" and ws.roles["vision"].mmproj
    assert ws.roles["llm"].option("n_gpu_layers") == -1
    # inherited from default
    assert ws.roles["ocr"].backend == "rapidocr"


def test_shipped_profiles_run_models_in_their_own_process_and_on_a_gpu_when_there_is_one() -> None:
    for profile in ("default", "small"):
        roles = load_models_config(repo_models_toml(), profile).roles
        assert roles["llm"].backend == "llama-server"
        assert roles["llm"].option("n_gpu_layers") == "auto"
        assert roles["embedder"].option("device") == "auto" and roles["detector"].option("device") == "auto"
    remote = load_models_config(repo_models_toml(), "remote").roles["llm"]
    assert remote.backend == "openai" and remote.option("url").startswith("http://127.0.0.1:")
    assert remote.option("api_key_env") == "MFR_LLM_KEY"


ROLES_BASE = """
[profiles.default.embedder]
backend = "sentence-transformers"
path = "x"
[profiles.default.detector]
backend = "geometry"
[profiles.default.ocr]
backend = "none"
"""


@pytest.mark.parametrize(
    ("role", "match"),
    [
        ("[profiles.default.llm]\nbackend = 'openai'", "needs `url`"),
        ("[profiles.default.llm]\nbackend = 'openai'\nurl = 'localhost:8080'", "needs `url`"),
        ("[profiles.default.llm]\nbackend = 'openai'\nurl = 'http://h:1'\npath = 'x.gguf'", "remove path"),
        ("[profiles.default.llm]\nbackend = 'llama-server'", "needs a `path`"),
        ("[profiles.default.llm]\nbackend = 'llama-server'\npath = 'x'\n"
         "[profiles.default.vision]\nbackend = 'llama-server'\npath = 'x'", "needs `mmproj`"),
    ],
)
def test_server_backends_say_what_is_missing(tmp_path: Path, role: str, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        load_models_config(write(tmp_path, ROLES_BASE + role))


def test_torch_device_auto_follows_the_hardware() -> None:
    import torch

    from engine.models.device import torch_device

    assert torch_device("auto") == ("cuda" if torch.cuda.is_available() else "cpu")
    assert torch_device(None) == torch_device("auto")
    assert torch_device("cuda:1") == "cuda:1" and torch_device("CPU") == "cpu"


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("this is [not toml", "not valid TOML"),
        ("x = 1", "no \\[profiles.NAME\\]"),
        ("[profiles.default.llm]\nbackend = 'llama-cpp'\npath = 'x'", "has no \\[embedder\\] role"),
        ("[profiles.default.embedder]\nbackend = 'word2vec'\npath = 'x'", "is not one of"),
        ("[profiles.a]\ninherits = 'b'\n[profiles.b]\ninherits = 'a'", "inherit in a loop"),
    ],
)
def test_malformed_models_toml_gives_clear_errors(tmp_path: Path, text: str, match: str) -> None:
    with pytest.raises(ConfigError, match=match) as info:
        load_models_config(write(tmp_path, text), "a" if "inherits" in text else None)
    assert str(tmp_path / "models.toml") in info.value.message


def test_unknown_profile_lists_the_known_ones() -> None:
    with pytest.raises(ConfigError, match="Profiles there: default, fast-embed, remote, small, workstation"):
        load_models_config(repo_models_toml(), "nope")


def test_missing_model_file_names_the_file_and_sha(tmp_path: Path) -> None:
    toml = write(tmp_path, BASE.format(emb=tmp_path, llm=tmp_path / "missing.gguf", sha="ab" * 32))
    provider = ModelProvider(Settings(data_dir=tmp_path / "d", models_toml=toml, models_dir=tmp_path / "m"))
    with pytest.raises(ModelError) as info:
        provider.resolve_path("llm")
    assert "missing.gguf" in info.value.message and "ab" * 32 in info.value.message
    status = provider.check("llm")
    assert not status.ok and "missing.gguf" in status.detail


def test_wrong_sha_is_refused(tmp_path: Path) -> None:
    model = tmp_path / "m.gguf"
    model.write_bytes(b"GGUF not really a model")
    toml = write(tmp_path, BASE.format(emb=tmp_path, llm=model, sha="00" * 32))
    provider = ModelProvider(Settings(data_dir=tmp_path / "d", models_toml=toml, models_dir=tmp_path / "m"))
    with pytest.raises(ModelError, match="has sha256 .* expected 0000") as info:
        provider.resolve_path("llm")
    assert info.value.title == "Model checksum mismatch"


def test_hash_cache_rehashes_changed_files(tmp_path: Path) -> None:
    f = tmp_path / "w.bin"
    f.write_bytes(b"abc")
    cache = HashCache(tmp_path / "hashes.json")
    assert cache.sha256(f) == hashlib.sha256(b"abc").hexdigest()
    f.write_bytes(b"abcd")
    assert cache.sha256(f) == hashlib.sha256(b"abcd").hexdigest()
    with pytest.raises(ModelError):
        verify(f, hashlib.sha256(b"abc").hexdigest(), cache)


def test_unknown_packaged_key(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="Unknown packaged model"):
        resolve("gpt-17", tmp_path)


@pytest.mark.real_models
def test_packaged_models_verify(tmp_path: Path) -> None:
    """Every packaged default resolves from the installed wheels and matches its sha256."""
    settings = Settings(data_dir=tmp_path / "d")
    for key in PACKAGED:
        path = resolve(key, settings.models_dir)
        assert path.exists()
    # assembled once: a second resolve returns the same verified file without rewriting it
    gguf = resolve("qwen2.5-coder-1.5b-instruct", settings.models_dir)
    mtime = gguf.stat().st_mtime_ns
    assert resolve("qwen2.5-coder-1.5b-instruct", settings.models_dir).stat().st_mtime_ns == mtime


@pytest.mark.real_models
def test_models_check_loads_every_default_role(tmp_path: Path) -> None:
    provider = ModelProvider(Settings(data_dir=tmp_path / "d", n_threads=1))
    statuses = provider.check_all(load=True)
    for role in ("embedder", "llm", "detector", "ocr"):
        assert statuses[role].ok, statuses[role].detail
    assert statuses["embedder"].sha256 == PACKAGED["all-minilm-l6-v2"].sha256
    assert statuses["vision"].ok and statuses["vision"].detail == "off"

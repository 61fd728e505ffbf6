"""Offline by construction: ingest and ask with the real packaged embedder while every socket is refused,
proving no network attempt is made and model files are read only from their configured places."""

from __future__ import annotations

import os
import socket
import stat
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fakes_models import FakeLLM
from pdfgen import write_filing

from engine import Engine, ModelError, Settings

pytestmark = [pytest.mark.real_models]

_RECORD: dict[str, list[Any]] | None = None
"""While a test records: audit events seen (the hook stays installed for the process, so it is gated)."""

_NETWORK_EVENTS = {"socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr",
                   "socket.sendto", "urllib.Request", "http.client.connect", "ftplib.connect", "smtplib.connect"}


def _audit(event: str, args: tuple[Any, ...]) -> None:
    rec = _RECORD
    if rec is None:
        return
    if event in _NETWORK_EVENTS:
        rec["network"].append((event, repr(args)[:200]))
    elif event == "open" and args and isinstance(args[0], str | bytes | os.PathLike):
        rec["opened"].append(os.fsdecode(args[0]))


sys.addaudithook(_audit)


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[Any]]]:
    """Refuse every socket operation (and record the attempt); also record audit events for file opens."""
    global _RECORD
    attempts: list[Any] = []

    def refuse(name: str):  # type: ignore[no-untyped-def]
        def blocked(*args: Any, **kwargs: Any) -> Any:
            attempts.append((name, repr(args)[:200]))
            raise OSError(f"network disabled in this test ({name})")

        return blocked

    monkeypatch.setattr(socket.socket, "connect", refuse("socket.connect"))
    monkeypatch.setattr(socket.socket, "connect_ex", refuse("socket.connect_ex"))
    monkeypatch.setattr(socket.socket, "sendto", refuse("socket.sendto"))
    monkeypatch.setattr(socket, "create_connection", refuse("create_connection"))
    monkeypatch.setattr(socket, "getaddrinfo", refuse("getaddrinfo"))
    monkeypatch.setattr(socket, "gethostbyname", refuse("gethostbyname"))
    for var in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):  # prove it without the switches' help too
        monkeypatch.delenv(var, raising=False)
    rec: dict[str, list[Any]] = {"network": [], "opened": [], "attempts": attempts}
    _RECORD = rec
    try:
        yield rec
    finally:
        _RECORD = None


def _allowed_roots(*extra: Path) -> list[str]:
    paths = sysconfig.get_paths()
    roots = [sys.prefix, sys.base_prefix, paths["stdlib"], paths["platstdlib"], paths["purelib"], paths["platlib"],
             "/proc", "/sys", "/dev", "/etc", "/usr", "/lib", "/lib64", tempfile.gettempdir(),
             str(Path(__file__).resolve().parents[1])]
    return [os.path.realpath(r) for r in roots] + [os.path.realpath(p) for p in extra]


def test_ingest_and_ask_make_no_network_attempt(tmp_path: Path, private_data_dir: Path,
                                                no_network: dict[str, list[Any]]) -> None:
    settings = Settings(data_dir=private_data_dir, models_dir=tmp_path / "models", extract_workers=1)
    engine = Engine(settings, overrides={"llm": FakeLLM(), "vision": None, "detector": None, "ocr": None,
                                         "reranker": None})
    try:
        model_dir = engine.models.resolve_path("embedder")
    except ModelError as exc:
        pytest.skip(f"packaged embedder not installed: {exc.message}")
    assert model_dir is not None
    [res] = engine.ingest([write_filing(tmp_path / "acme.pdf")])
    assert res.ok, res.error
    answer = engine.ask("How much restricted cash was held at December 31, 2023?")
    assert answer.evidence and answer.evidence[0].page == 2
    assert engine.doctor().clean
    engine.close()

    assert no_network["attempts"] == [], no_network["attempts"]
    assert no_network["network"] == [], no_network["network"]
    # Every file opened lies in the data dir, the inputs, the model's folder or the installed software.
    roots = _allowed_roots(private_data_dir, tmp_path, model_dir)
    outside = sorted({p for p in no_network["opened"]
                      if not any(os.path.realpath(p).startswith(r) for r in roots)})
    assert outside == [], outside
    # Model weights were read from the configured (packaged) folder only, never from a hub cache.
    weights = {os.path.realpath(p) for p in no_network["opened"]
               if p.endswith((".safetensors", ".bin", ".onnx", ".gguf", ".pt", ".pth"))}
    assert weights and all(w.startswith(os.path.realpath(model_dir)) for w in weights), weights
    caches = [os.path.realpath(os.path.expanduser(c)) for c in ("~/.cache/huggingface", "~/.cache/torch")]
    assert not [p for p in no_network["opened"] if any(os.path.realpath(p).startswith(c) for c in caches)]
    # The data dir is private to the user.
    assert stat.S_IMODE(private_data_dir.stat().st_mode) == 0o700


def test_cli_ingest_writes_only_private_files(tmp_path: Path) -> None:
    """Through the CLI (which tightens the umask) every file and folder in the data dir is private."""
    import subprocess

    data = tmp_path / "cli-lib"
    toml = tmp_path / "models.toml"
    toml.write_text(
        "[profiles.default.embedder]\nbackend = 'sentence-transformers'\npackaged = 'all-minilm-l6-v2'\n"
        "[profiles.default.llm]\nbackend = 'llama-cpp'\npath = '/nope/llm.gguf'\n"
        "[profiles.default.detector]\nbackend = 'geometry'\n[profiles.default.ocr]\nbackend = 'none'\n"
    )
    env = {**os.environ, "MFR_MODELS_TOML": str(toml)}
    repo = Path(__file__).resolve().parents[1]
    proc = subprocess.run(
        [sys.executable, "-m", "mfr_tui.cli", "--data-dir", str(data), "ingest", "--quiet",
         str(write_filing(tmp_path / "acme.pdf"))], capture_output=True, text=True, cwd=repo, env=env, timeout=600,
    )
    if proc.returncode != 0 and "Packaged model missing" in proc.stdout + proc.stderr:
        pytest.skip("packaged embedder not installed")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    exposed = []
    for dirpath, dirnames, filenames in os.walk(data):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            if stat.S_IMODE(p.lstat().st_mode) & 0o077:
                exposed.append(f"{p} {stat.S_IMODE(p.lstat().st_mode):o}")
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    assert exposed == []

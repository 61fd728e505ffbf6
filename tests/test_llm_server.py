"""The llm and vision roles in their own process: the real ``llama_cpp.server`` started by the app on the
tiny GGUF fixtures (``backend = "llama-server"``), and the same client against a server a test starts itself
(``backend = "openai"``). Crashes, cancels, keys, loopback and orphans are checked on real processes."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tiny_gguf import IMAGE_TOKENS, SCRIPT, write_png

from engine.errors import ConfigError, ModelError
from engine.models.protocols import LLM, ChatMessage, VisionModel, VisionRequest

pytest.importorskip("llama_cpp")
pytest.importorskip("llama_cpp.server.app", reason="llama-cpp-python[server] extra not installed")

from engine.models.llama_backend import VisionOverflow  # noqa: E402
from engine.models.llama_server import LocalServer, ServedLLM, ServedVision  # noqa: E402
from engine.models.provider import ModelProvider  # noqa: E402
from engine.settings import Settings  # noqa: E402

pytestmark = [pytest.mark.tiny_gguf]

QUESTION = [
    ChatMessage("system", "Answer from the context only."),
    ChatMessage("user", "How much restricted cash did the firm hold?"),
]
SCRIPT_PIECES = ["Hello", " from", " the", " tiny", " model", "."]
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def server_logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Server logs of each test go to its own tmp dir."""
    folder = tmp_path / "logs"
    monkeypatch.setenv("MFR_LOG_DIR", str(folder))
    return folder


def _toml(llm: Path, mmproj: Path | None = None, share: bool = True, n_ctx: int = 512, extra: str = "") -> str:
    text = f"""
[profiles.default]
embedder = {{ backend = "sentence-transformers", path = "{llm}" }}
detector = {{ backend = "geometry" }}
ocr = {{ backend = "none" }}

[profiles.default.llm]
backend = "llama-server"
path = "{llm}"
n_ctx = {n_ctx}
n_batch = 64
{extra}
"""
    if mmproj is not None:
        text += f"""
[profiles.default.vision]
backend = "llama-server"
path = "{llm}"
mmproj = "{mmproj}"
n_ctx = 512
n_batch = 64
share_llm = {'true' if share else 'false'}
"""
    return text


def _provider(tmp_path: Path, toml: str) -> ModelProvider:
    file = tmp_path / "models.toml"
    file.write_text(toml)
    return ModelProvider(Settings(data_dir=tmp_path / "data", models_toml=file, n_threads=1))


@pytest.fixture
def served(tmp_path: Path, tiny_llama_path: Path) -> Iterator[tuple[ModelProvider, ServedLLM]]:
    provider = _provider(tmp_path, _toml(tiny_llama_path))
    try:
        llm = provider.llm()
        assert isinstance(llm, ServedLLM)
        yield provider, llm
    finally:
        provider.close()


def _server(llm: Any) -> LocalServer:
    server = llm.endpoint.server
    assert isinstance(server, LocalServer)
    return server


def _running(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state != "Z"


def _wait_until(check: Callable[[], bool], timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()


# --- the local server --------------------------------------------------------------------------------------


def test_chat_streams_through_the_local_server(served: tuple[ModelProvider, ServedLLM]) -> None:
    provider, llm = served
    assert isinstance(llm, LLM)
    assert llm.context_tokens == 512 and llm.name == "tiny-llama"
    pieces: list[str] = []
    gen = llm.chat(QUESTION, max_tokens=32, on_token=pieces.append)
    assert gen.text == SCRIPT
    assert pieces == SCRIPT_PIECES
    assert gen.completion_tokens == 6
    assert llm.chat(QUESTION, max_tokens=3).text == "Hello from the"
    assert llm.count_tokens(SCRIPT) == 6 and llm.count_tokens("") == 0
    server = _server(llm)
    assert server.pid != os.getpid() and _running(server.pid or 0)
    assert server.status["torch_imported"] is False  # the child never loads torch
    where = llm.where()
    assert where["backend"] == "llama-server" and where["url"].startswith("http://127.0.0.1:")
    assert where["device"] == ("gpu" if server.status["gpu_offload"] else "cpu")
    status = provider.check("llm")
    assert status.ok, status.detail
    assert status.to_json()["runs"]["pid"] == server.pid


def test_server_listens_on_loopback_only_and_needs_the_key(served: tuple[ModelProvider, ServedLLM]) -> None:
    _, llm = served
    server = _server(llm)
    port = int(server.url.rsplit(":", 1)[1])
    listening = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not Path(table).exists():
            continue
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            if state == "0A" and int(local.rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
                listening.append(local.rsplit(":", 1)[0])
    assert listening == ["0100007F"], listening  # 127.0.0.1 and nothing else

    def status(headers: dict[str, str]) -> int:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            body = json.dumps({"messages": [{"role": "user", "content": "hi"}], "max_tokens": 2})
            conn.request("POST", "/v1/chat/completions", body=body,
                         headers={"Content-Type": "application/json", **headers})
            return conn.getresponse().status
        finally:
            conn.close()

    assert status({}) == 401
    assert status({"Authorization": "Bearer wrong"}) == 401
    assert status({"Authorization": f"Bearer {server.api_key}"}) == 200
    assert len(server.api_key) >= 32
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", "/extras/tokenize", body=json.dumps({"input": "x"}),
                 headers={"Content-Type": "application/json"})
    assert conn.getresponse().status == 401
    conn.close()

    def get(path: str, headers: dict[str, str]) -> int:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            conn.request("GET", path, headers=headers)
            return conn.getresponse().status
        finally:
            conn.close()

    for path in ("/docs", "/openapi.json", "/redoc", "/docs/oauth2-redirect", "/v1/models", "/nothing"):
        assert get(path, {}) == 401, path  # every route, the documentation included, needs the key
        assert get(path, {"Authorization": "Bearer wrong"}) == 401, path
    assert get("/openapi.json", {"Authorization": f"Bearer {server.api_key}"}) == 200


def test_only_loopback_connections_are_made(served: tuple[ModelProvider, ServedLLM],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    _, llm = served
    made: list[Any] = []
    real_connect = socket.socket.connect

    def connect(sock: socket.socket, address: Any) -> Any:
        made.append(address)
        if not (isinstance(address, tuple) and address[0] in {"127.0.0.1", "localhost", "::1"}):
            raise OSError(f"network disabled in this test ({address!r})")
        return real_connect(sock, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    assert llm.chat(QUESTION, max_tokens=32).text == SCRIPT
    assert made and all(a[0] == "127.0.0.1" for a in made)


def test_cancel_returns_what_was_generated(served: tuple[ModelProvider, ServedLLM]) -> None:
    _, llm = served
    pieces: list[str] = []
    gen = llm.chat(QUESTION, max_tokens=32, on_token=pieces.append, cancelled=lambda: len(pieces) >= 2)
    assert gen.text == "Hello from" and pieces == ["Hello", " from"]
    assert llm.chat(QUESTION, cancelled=lambda: True).text == ""
    assert llm.chat(QUESTION, max_tokens=32).text == SCRIPT  # the server is left usable


def test_prompt_over_the_context_is_prompt_too_long(served: tuple[ModelProvider, ServedLLM]) -> None:
    _, llm = served
    with pytest.raises(ModelError, match="does not fit") as info:
        llm.chat([ChatMessage("user", "revenue " * 600)], max_tokens=8)
    assert info.value.title == "Prompt too long"
    assert llm.chat(QUESTION, max_tokens=32).text == SCRIPT


def test_killed_server_is_a_clear_error_and_the_next_question_works(
    served: tuple[ModelProvider, ServedLLM],
) -> None:
    _, llm = served
    server = _server(llm)
    first_pid = server.pid
    assert first_pid is not None and llm.chat(QUESTION, max_tokens=32).text == SCRIPT
    # Freeze the server so the question is surely in flight, unanswered, when it is killed.
    os.kill(first_pid, signal.SIGSTOP)
    outcome: dict[str, Any] = {}

    def ask() -> None:
        try:
            outcome["gen"] = llm.chat(QUESTION, max_tokens=32)
        except ModelError as exc:
            outcome["error"] = exc

    worker = threading.Thread(target=ask)
    worker.start()
    time.sleep(0.5)
    assert worker.is_alive()  # waiting on the frozen server
    os.kill(first_pid, signal.SIGKILL)
    worker.join(timeout=30)
    error = outcome.get("error")
    assert isinstance(error, ModelError), outcome
    assert error.title == "Model server crashed"
    assert "SIGKILL" in error.message and "ask again" in error.message
    assert not _running(first_pid)
    # The next question restarts the server and is answered.
    assert llm.chat(QUESTION, max_tokens=32).text == SCRIPT
    assert server.pid != first_pid and server.starts == 2


def test_a_segfault_of_a_server_that_runs_amx_kernels_says_to_rebuild(served: tuple[ModelProvider, ServedLLM]) -> None:
    """ggml's AMX kernels crash some CPUs on the first prompt: the crash says what to do, only where the child
    reported them (its status) and died of a segmentation fault."""
    from engine.models.llama_server import AMX_ADVICE

    _, llm = served
    server = _server(llm)
    assert llm.chat(QUESTION, max_tokens=32).text == SCRIPT
    assert isinstance(server.status.get("amx"), bool)  # the child reports its build
    reported = server.status["amx"]
    try:
        server.status["amx"] = True
        pid = server.pid
        assert pid is not None
        os.kill(pid, signal.SIGSEGV)
        detail = server.crashed_detail(wait_s=10.0)
        assert detail is not None and "SIGSEGV" in detail and AMX_ADVICE in detail
        server.status["amx"] = False
        assert AMX_ADVICE not in (server.crashed_detail() or "")
    finally:
        server.status["amx"] = reported
    assert llm.chat(QUESTION, max_tokens=32).text == SCRIPT  # restarted


def test_a_role_table_of_its_own_gets_a_server_of_its_own(served: tuple[ModelProvider, ServedLLM], tmp_path: Path,
                                                          tiny_llama_path: Path) -> None:
    """As an evaluation judge's ``[judge]`` table (same keys as ``[llm]``) is built."""
    from engine.models.config import _role

    provider, llm = served
    cfg = _role("llm", {"backend": "llama-server", "path": str(tiny_llama_path), "n_ctx": 256},
                tmp_path / "models.toml", "default")
    judge = provider.build(cfg, tiny_llama_path)
    assert _server(judge) is not _server(llm) and judge.context_tokens == 256
    assert judge.chat(QUESTION, max_tokens=32).text == SCRIPT
    assert provider.build(provider.role("llm"), tiny_llama_path).endpoint.server is _server(llm)


def test_a_server_that_cannot_load_is_a_model_error_naming_the_log(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.gguf"
    garbage.write_bytes(b"GGUF" + b"\x03\x00\x00\x00" + b"\xff" * 2000)
    provider = _provider(tmp_path, _toml(garbage))
    try:
        with pytest.raises(ModelError) as info:
            provider.llm()
        assert info.value.title == "Model failed to load"
        assert "models.toml" in info.value.message and "model-server-llm" in info.value.message
        assert "exit code" in info.value.message
    finally:
        provider.close()


def test_missing_model_file_fails_before_any_server_starts(tmp_path: Path) -> None:
    provider = _provider(tmp_path, _toml(tmp_path / "absent.gguf"))
    with pytest.raises(ModelError, match="absent.gguf") as info:
        provider.llm()
    assert info.value.title == "Model file missing"


def test_checksum_mismatch_fails_before_any_server_starts(tmp_path: Path, tiny_llama_path: Path) -> None:
    toml = _toml(tiny_llama_path).replace("n_ctx = 512", f'n_ctx = 512\nsha256 = "{"0" * 64}"')
    provider = _provider(tmp_path, toml)
    with pytest.raises(ModelError, match="sha256"):
        provider.llm()
    assert not provider._shared  # nothing was started


# --- vision ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def images(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("images")
    return [write_png(folder / "table-p3-1.png", (200, 30, 30)),
            write_png(folder / "figure-p4-2.png", (30, 30, 200), size=(64, 30))]


def test_one_server_serves_text_and_vision_of_one_gguf(
    tmp_path: Path, tiny_llama_path: Path, tiny_mmproj_path: Path, images: list[Path]
) -> None:
    provider = _provider(tmp_path, _toml(tiny_llama_path, tiny_mmproj_path))
    try:
        llm, vision = provider.llm(), provider.vision()
        assert isinstance(vision, ServedVision) and isinstance(vision, VisionModel)
        assert _server(llm) is _server(vision) and _server(llm).spec.label == "llm+vision"
        assert len(provider._shared) == 1
        prompt = f"For each file ({images[0].name}, {images[1].name}) give a description and a JSON table."
        assert vision.describe([VisionRequest(images=images, prompt=prompt, max_tokens=64)]) == [SCRIPT]
        assert llm.chat(QUESTION, max_tokens=32).text == SCRIPT
        log = (_server(llm).log_path or Path()).read_text()
        assert log.count("image slice encoded") >= 2  # both images went through the CLIP encoder
        assert f"{IMAGE_TOKENS}" in log
        many = images * (512 // IMAGE_TOKENS)  # more image tokens than the 512-token context holds
        with pytest.raises(VisionOverflow) as info:
            vision.describe([VisionRequest(images=many, prompt="Describe them.", max_tokens=16)])
        assert info.value.images == len(many) and "fewer images" in info.value.message
        assert vision.describe([VisionRequest(images=images[:1], prompt="Describe.", max_tokens=16)]) == [SCRIPT]
    finally:
        provider.close()


def test_vision_with_its_own_server(tmp_path: Path, tiny_llama_path: Path, tiny_mmproj_path: Path,
                                    images: list[Path]) -> None:
    provider = _provider(tmp_path, _toml(tiny_llama_path, tiny_mmproj_path, share=False))
    try:
        vision = provider.vision()
        assert isinstance(vision, ServedVision) and _server(vision).spec.label == "vision"
        assert vision.describe([VisionRequest(images=images[:1], prompt="Describe.", max_tokens=16)]) == [SCRIPT]
    finally:
        provider.close()


# --- no orphans --------------------------------------------------------------------------------------------

_APP = textwrap.dedent("""
    import sys, threading, time
    from pathlib import Path
    from engine.models.protocols import ChatMessage
    from engine.models.provider import ModelProvider
    from engine.settings import Settings
    provider = ModelProvider(Settings(data_dir=Path(sys.argv[2]), models_toml=Path(sys.argv[1]), n_threads=1))
    box = {}
    # Started from a worker thread that ends: the server must outlive the thread, not the process.
    t = threading.Thread(target=lambda: box.setdefault("llm", provider.llm()))
    t.start(); t.join()
    llm = box["llm"]
    time.sleep(1.0)
    print(llm.endpoint.server.pid, llm.chat([ChatMessage("user", "hi")], max_tokens=8).text, flush=True)
    sys.stdin.readline()  # the test has seen the server running
    if sys.argv[3] == "exit":
        sys.exit(0)  # no close(): the atexit hook stops the server
    time.sleep(600)
""")


@pytest.mark.parametrize("how", ["exit", "sigkill", "sigterm"])
def test_no_server_is_left_after_the_app_exits_or_is_killed(tmp_path: Path, tiny_llama_path: Path,
                                                            how: str) -> None:
    toml = tmp_path / "models.toml"
    toml.write_text(_toml(tiny_llama_path))
    app = subprocess.Popen([sys.executable, "-c", _APP, str(toml), str(tmp_path / "data"), how], cwd=REPO,
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert app.stdout is not None
        line = app.stdout.readline().split()
        assert line, app.stderr.read() if app.stderr else ""
        pid = int(line[0])
        assert line[1:] == ["Hello", "from", "the", "tiny", "model."]
        assert _running(pid)
        assert app.stdin is not None
        app.stdin.write("go\n")
        app.stdin.flush()
        if how == "sigkill":
            app.kill()
        elif how == "sigterm":
            app.terminate()
        app.wait(timeout=60)
        assert _wait_until(lambda: not _running(pid)), f"server {pid} outlived the app ({how})"
        def secrets() -> list[Path]:
            return list(Path(tempfile.gettempdir()).glob(f"mfr-server-{app.pid}-*"))

        assert _wait_until(lambda: not secrets()), f"the key's folder outlived the app ({how}): {secrets()}"
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()


# --- an external server (backend = "openai") ---------------------------------------------------------------


@pytest.fixture
def external_server(tmp_path: Path, tiny_llama_path: Path) -> Iterator[tuple[str, str]]:
    """A real ``python -m llama_cpp.server`` started by the test itself, as a user would run one."""
    from engine.models.llama_server import free_port

    port, key = free_port(), "test-key-0123456789"
    log = open(tmp_path / "external.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(tiny_llama_path), "--host", "127.0.0.1",
         "--port", str(port), "--api_key", key, "--n_ctx", "512", "--n_threads", "1", "--n_threads_batch", "1",
         "--model_alias", "tiny"],
        stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    url = f"http://127.0.0.1:{port}"

    def up() -> bool:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            return False

    try:
        assert _wait_until(up, timeout=120), (tmp_path / "external.log").read_text()[-2000:]
        yield url, key
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


def _external_toml(url: str, extra: str = "") -> str:
    return f"""
[profiles.default]
embedder = {{ backend = "sentence-transformers", path = "/nope" }}
detector = {{ backend = "geometry" }}
ocr = {{ backend = "none" }}

[profiles.default.llm]
backend = "openai"
url = "{url}"
api_key_env = "MFR_TEST_LLM_KEY"
{extra}
"""


def test_openai_backend_talks_to_a_running_server(tmp_path: Path, external_server: tuple[str, str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    url, key = external_server
    monkeypatch.setenv("MFR_TEST_LLM_KEY", key)
    provider = _provider(tmp_path, _external_toml(url + "/v1", 'n_ctx = 512\nrepeat_penalty = 1.0'))
    try:
        llm = provider.llm()
        assert isinstance(llm, ServedLLM) and llm.endpoint.server is None
        assert llm.name == "tiny" and llm.context_tokens == 512
        pieces: list[str] = []
        assert llm.chat(QUESTION, max_tokens=32, on_token=pieces.append).text == SCRIPT
        assert pieces == SCRIPT_PIECES
        assert llm.count_tokens(SCRIPT) == 6 and llm.tokenizer == "extras"
        assert llm.where() == {"backend": "openai", "url": url + "/v1", "model": "tiny", "device": "remote"}
        with pytest.raises(ModelError, match="does not fit"):
            llm.chat([ChatMessage("user", "revenue " * 600)], max_tokens=8)
    finally:
        provider.close()


def test_openai_backend_with_a_wrong_key_is_refused(tmp_path: Path, external_server: tuple[str, str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    url, _ = external_server
    monkeypatch.setenv("MFR_TEST_LLM_KEY", "not-the-key")
    with pytest.raises(ModelError, match="refused the API key"):
        _provider(tmp_path, _external_toml(url)).llm()
    monkeypatch.delenv("MFR_TEST_LLM_KEY")
    with pytest.raises(ConfigError, match="MFR_TEST_LLM_KEY"):
        _provider(tmp_path, _external_toml(url)).llm()


def test_openai_backend_unreachable_is_a_model_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.models.llama_server import free_port

    monkeypatch.setenv("MFR_TEST_LLM_KEY", "k")
    with pytest.raises(ModelError, match="Cannot reach") as info:
        _provider(tmp_path, _external_toml(f"http://127.0.0.1:{free_port()}")).llm()
    assert info.value.title == "Model server unreachable"


# --- the packaged model, mid-answer ------------------------------------------------------------------------

LONG = [ChatMessage("user", "Count from 1 to 100, separated by commas. Write every number.")]


@pytest.fixture(scope="module")
def packaged_llm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedLLM]:
    from engine.settings import repo_models_toml

    folder = tmp_path_factory.mktemp("packaged")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MFR_LOG_DIR", str(folder / "logs"))
        provider = ModelProvider(Settings(data_dir=folder, models_toml=repo_models_toml(), profile="default"))
        try:
            llm = provider.llm()
        except ModelError as exc:
            provider.close()
            pytest.skip(f"packaged model not installed: {exc.message}")
        assert isinstance(llm, ServedLLM)
        yield llm
        provider.close()


@pytest.mark.real_models
@pytest.mark.slow
def test_cancel_stops_the_generation_in_the_server(packaged_llm: ServedLLM) -> None:
    server = _server(packaged_llm)
    pieces: list[str] = []
    gen = packaged_llm.chat(LONG, max_tokens=300, on_token=pieces.append, cancelled=lambda: len(pieces) >= 3)
    assert len(pieces) == 3 and gen.text == "".join(pieces)
    # The server saw the hang-up and stopped generating (it logs the disconnect at its next token).
    assert _wait_until(lambda: "Disconnected from client" in (server.log_path or Path()).read_text(), 30)
    assert "4" in packaged_llm.chat([ChatMessage("user", "What is 2 + 2? Reply with the number only.")],
                                    max_tokens=8).text


@pytest.mark.real_models
@pytest.mark.slow
def test_cancel_during_prompt_evaluation_aborts_it_in_the_server(packaged_llm: ServedLLM) -> None:
    server = _server(packaged_llm)
    log = server.log_path or Path()
    before = log.read_text().count("stopped for a client that hung up")
    evaluations = log.read_text().count("mfr-server: evaluating a prompt")
    filing = "Total revenue was $1,234 million in 2023, up 7% from $1,153 million in 2022. " * 105  # ~3.8k tokens
    pieces: list[str] = []

    def evaluating() -> bool:
        # Hang up as soon as the server starts on this prompt (its log says so before the first batch): a
        # fixed delay raced the prompt's evaluation on a faster CPU.
        return log.read_text().count("mfr-server: evaluating a prompt") > evaluations

    gen = packaged_llm.chat([ChatMessage("user", filing + "\nSummarise.")], max_tokens=64,
                            on_token=pieces.append, cancelled=evaluating)
    assert gen.text == "" and pieces == []  # cancelled before the first token
    # llama_decode was aborted by the server (not left to finish the prompt), and the model answers again.
    assert _wait_until(lambda: log.read_text().count("stopped for a client that hung up") > before, 60)
    assert "llama_decode returned 2" in log.read_text()
    assert "4" in packaged_llm.chat([ChatMessage("user", "What is 2 + 2? Reply with the number only.")],
                                    max_tokens=8).text


@pytest.mark.real_models
@pytest.mark.slow
def test_server_killed_mid_answer_then_the_next_question_works(packaged_llm: ServedLLM) -> None:
    server = _server(packaged_llm)
    pid = server.pid
    assert pid is not None
    pieces: list[str] = []

    def on_token(piece: str) -> None:
        pieces.append(piece)
        if len(pieces) == 3:
            os.kill(pid, signal.SIGKILL)

    with pytest.raises(ModelError) as info:
        packaged_llm.chat(LONG, max_tokens=300, on_token=on_token)
    assert info.value.title == "Model server crashed"
    assert "killed by SIGKILL" in info.value.message and "ask again" in info.value.message
    assert 3 <= len(pieces) < 150  # it was answering when it died
    gen = packaged_llm.chat([ChatMessage("user", "What is 2 + 2? Reply with the number only.")], max_tokens=8)
    assert "4" in gen.text
    assert server.pid != pid and not _running(pid)


# --- a real filing, end to end -----------------------------------------------------------------------------

FILING = "financebench/pdfs/PEPSICO_2023_8K_dated-2023-05-30.pdf"
FILING_QUESTION = "By how much did Pepsico increase its unsecured five year revolving credit agreement on May 26, 2023?"


@pytest.mark.real_models
@pytest.mark.eval_data
@pytest.mark.slow
def test_ingest_and_ask_a_real_filing_through_the_local_and_an_external_server(
    tmp_path: Path, eval_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine import Engine
    from engine.models.llama_server import free_port
    from engine.settings import repo_models_toml

    data = tmp_path / "lib"
    local = Engine(Settings(data_dir=data, models_toml=repo_models_toml(), profile="default"))
    try:
        [res] = local.ingest([eval_dir / FILING])
        assert res.ok, res.error
        llm = local.models.llm()
        assert isinstance(llm, ServedLLM) and llm.where()["backend"] == "llama-server"
        answer = local.ask(FILING_QUESTION, save=False)
        gguf = local.models.resolve_path("llm")
    finally:
        local.close()
    assert answer.text.strip() and answer.evidence
    assert {e.doc for e in answer.evidence} == {Path(FILING).stem}

    # The same model behind a server started here, as a user would run one, reached with backend = "openai".
    port, key = free_port(), "real-filing-key-0123456789"
    log = open(tmp_path / "external.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--host", "127.0.0.1", "--port",
         str(port), "--api_key", key, "--n_ctx", "4096", "--model_alias", "qwen-external"],
        stdout=log, stderr=subprocess.STDOUT)
    toml = tmp_path / "models.toml"
    toml.write_text(repo_models_toml().read_text() + f"""
[profiles.external]
inherits = "default"
[profiles.external.llm]
backend = "openai"
url = "http://127.0.0.1:{port}"
api_key_env = "MFR_TEST_LLM_KEY"
repeat_penalty = 1.0
""")
    monkeypatch.setenv("MFR_TEST_LLM_KEY", key)
    try:
        def up() -> bool:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    return True
            except OSError:
                return False

        assert _wait_until(up, timeout=180), (tmp_path / "external.log").read_text()[-2000:]
        remote = Engine(Settings(data_dir=data, models_toml=toml, profile="external"))
        try:
            rllm = remote.models.llm()
            assert isinstance(rllm, ServedLLM) and rllm.where()["url"] == f"http://127.0.0.1:{port}"
            again = remote.ask(FILING_QUESTION, save=False)
        finally:
            remote.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()
    assert again.text == answer.text  # same model, same prompt, greedy: the transport changes nothing
    assert [e.page for e in again.evidence] == [e.page for e in answer.evidence]


# --- the client against a minimal server without a tokenizer -----------------------------------------------


@pytest.fixture
def bare_server() -> Iterator[str]:
    """A stand-in for an OpenAI-compatible server that offers no tokenize endpoint (the client's fallback is
    the unit under test): /v1/models and a streamed /v1/chat/completions that echoes the last message's words."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _json(self, status: int, body: Any) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            if self.path == "/v1/models":
                self._json(200, {"object": "list", "data": [{"id": "bare", "object": "model"}]})
            else:
                self._json(404, {"detail": "Not Found"})

        def do_POST(self) -> None:  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if self.path != "/v1/chat/completions":
                self._json(404, {"detail": "Not Found"})
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            for word in body["messages"][-1]["content"].split()[: body["max_tokens"]]:
                chunk = {"choices": [{"index": 0, "delta": {"content": word + " "}}]}
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.write(b"data: [DONE]\n\n")

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_server_without_a_tokenizer_gets_the_documented_estimate(tmp_path: Path, bare_server: str) -> None:
    from engine.models.openai_client import CHARS_PER_TOKEN_ESTIMATE

    toml = _external_toml(bare_server).replace('api_key_env = "MFR_TEST_LLM_KEY"\n', "")
    provider = _provider(tmp_path, toml)
    llm = provider.llm()
    assert isinstance(llm, ServedLLM) and llm.name == "bare"
    assert llm.context_tokens == provider.settings.llm_context  # the server did not say
    text = "Net revenue 1,234"
    assert llm.count_tokens(text) == -(-len(text) // CHARS_PER_TOKEN_ESTIMATE) and llm.tokenizer == "estimate"
    gen = llm.chat([ChatMessage("user", "one two three four")], max_tokens=3)
    assert gen.text == "one two three " and gen.completion_tokens == llm.count_tokens("one two three ")
    # Over the estimate but with no exact count: the prompt is sent, not refused on a guess.
    long = " ".join(["w"] * (llm.context_tokens * 2))
    assert llm.chat([ChatMessage("user", long)], max_tokens=2).text == "w w "


# --- the key's folder and a server that never answers (no model needed) ------------------------------------


def test_key_folders_of_dead_apps_are_removed_at_the_next_start(tmp_path: Path) -> None:
    from engine.models.llama_server import remove_stale_secrets

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f"mfr-server-{dead.pid}-abc"
    alive = tmp_path / f"mfr-server-{os.getppid()}-def"  # an app that still runs
    mine = tmp_path / f"mfr-server-{os.getpid()}-ghi"
    unrelated = tmp_path / "mfr-server-notapid"
    for folder in (stale, alive, mine, unrelated):
        folder.mkdir()
        (folder / "config.json").write_text("{}")
    assert remove_stale_secrets(tmp_path) == [stale]
    assert not stale.exists() and alive.exists() and mine.exists() and unrelated.exists()


def test_a_loaded_server_that_never_answers_ends_with_a_clear_error(tmp_path: Path) -> None:
    from engine.models.llama_server import ServerSpec, free_port

    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], stdin=subprocess.PIPE)
    server = LocalServer(ServerSpec(label="llm", models=(), startup_timeout_s=60, answer_after_load_s=0.5))
    server._proc, server._port, server._log_path = proc, free_port(), tmp_path / "model-server-llm.log"
    (tmp_path / "loaded").write_text("1")  # the model is in memory, but nothing answers on the port
    t = time.monotonic()
    try:
        with pytest.raises(ModelError) as err:
            server._wait_ready(tmp_path / "status.json")
    finally:
        proc.kill()
        proc.wait()
    assert time.monotonic() - t < 10
    assert err.value.title == "Model server unreachable"
    assert server.url in err.value.message and str(tmp_path / "model-server-llm.log") in err.value.message

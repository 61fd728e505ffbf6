"""``backend = "llama-server"``: the llm and vision roles run in a child process, llama-cpp-python's own
OpenAI-compatible server (``llama_cpp.server``), and the app talks to it with ``openai_client``.

Why a process of its own: a CUDA build of llama.cpp crashes when numpy or torch were loaded before it
(``llama_model_load_from_file`` segfaults, ``import llama_cpp; import torch`` aborts), and the app needs torch
for its embedder. Any native crash in the model now ends the server, never the TUI.

The server listens on 127.0.0.1 only, on a free port, and refuses requests without this run's random API
key (written to a private config file, never on a command line). The app waits until it answers, restarts
it once after a crash (again after each crash that follows a served request; a server that dies before
serving anything is not restarted in a loop), and stops it on exit. It cannot outlive the app: the child
dies with it through ``PR_SET_PDEATHSIG`` and a watchdog on its stdin pipe and parent pid
(``_server_child.py``).

When the vision role names the same GGUF as the llm role (and ``share_llm`` is not false) one server holds
the model once, with the projector, and serves both. Two different models get a server each:
``llama_cpp.server`` keeps one model loaded at a time and would reload on every switch between them.
"""

from __future__ import annotations

import atexit
import contextlib
import http.client
import json
import logging
import os
import queue
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import ConfigError, ModelError
from engine.models.config import RoleConfig
from engine.models.openai_client import Endpoint, OpenAIChatLLM, OpenAIVision, discover, external_endpoint
from engine.settings import APP_NAME, OFFLINE_ENV

if TYPE_CHECKING:
    from engine.models.provider import ModelProvider

log = logging.getLogger("engine.llama")

CHILD_SCRIPT = Path(__file__).with_name("_server_child.py")
"""The child's entry point (run as a script with ``python -I``: it imports nothing of the engine)."""

LOG_DIR_ENV = "MFR_LOG_DIR"
"""Environment variable overriding where model server logs go (default: the platform's user log dir)."""

SERVER_MODEL_OPTIONS: frozenset[str] = frozenset(
    {"n_ctx", "n_batch", "n_ubatch", "n_gpu_layers", "main_gpu", "split_mode", "tensor_split", "flash_attn",
     "offload_kqv", "use_mmap", "use_mlock", "seed", "type_k", "type_v", "rope_freq_base", "rope_freq_scale",
     "n_threads", "n_threads_batch", "chat_format", "cache", "cache_type", "cache_size"}
)
"""models.toml options of a llama-server role passed to ``llama_cpp.server``'s model settings unchanged."""

SERVER_CHAT_FORMATS: dict[str, str] = {
    "mtmd": "mtmd",
    "gemma3": "mtmd",
    "qwen2.5-vl": "mtmd",
    "gemma4": "gemma4",
    "qwen2.5-vl-legacy": "qwen2.5-vl",
    "llava-1.5": "llava-1-5",
    "llava-1.6": "llava-1-6",
    "minicpm-v-2.6": "minicpm-v-2.6",
    "moondream": "moondream",
    "nanollava": "nanollava",
    "llama-3-vision-alpha": "llama-3-vision-alpha",
    "obsidian": "obsidian",
}
"""A vision role's ``chat_handler`` (the same names as in-process) -> the ``chat_format`` with which
``llama_cpp.server`` 0.3.36 builds that multimodal handler. ``mtmd`` formats with the GGUF's own chat template
and lets libmtmd place the image markers (Gemma-3, Qwen2.5-VL and most current models)."""

STARTUP_TIMEOUT_S = 600.0
"""Default seconds to wait for a server to load its model and answer (``startup_timeout_s`` per role)."""

ANSWER_AFTER_LOAD_S = 60.0
"""Once the child says its model is loaded, it must answer its health check within this many seconds (else the
question ends with an error naming the URL and the log, instead of a silent wait for ``startup_timeout_s``)."""

SECRETS_PREFIX = "mfr-server-"
"""Temporary folders holding a server's key are named ``mfr-server-<app pid>-<random>``."""


def remove_stale_secrets(tmp: Path | None = None) -> list[Path]:
    """Remove the key folders of servers whose app is gone (a process killed with SIGKILL runs no cleanup);
    returns what was removed. Folders of running apps, and of other users, are left alone."""
    removed: list[Path] = []
    folder = Path(tmp or tempfile.gettempdir())
    try:
        candidates = list(folder.glob(f"{SECRETS_PREFIX}*-*"))
    except OSError:
        return removed
    for path in candidates:
        owner = path.name[len(SECRETS_PREFIX):].split("-", 1)[0]
        try:
            if not owner.isdigit() or int(owner) == os.getpid() or path.stat().st_uid != os.getuid():
                continue
            os.kill(int(owner), 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
        except (OSError, ValueError):
            continue  # alive (or not ours to ask about): keep it
    return removed


def log_dir() -> Path:
    """Where model server logs go: ``$MFR_LOG_DIR``, else ``platformdirs.user_log_dir("mfr-tui")``."""
    env = os.environ.get(LOG_DIR_ENV)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_log_dir(APP_NAME))


# --- launching ---------------------------------------------------------------------------------------------


class _Launcher:
    """One long-lived thread starts every server child.

    ``PR_SET_PDEATHSIG`` fires when the *thread* that forked the child ends, not the process; servers are
    often started from a short-lived worker thread, so the fork happens here, on a thread that lives as long
    as the app.
    """

    def __init__(self) -> None:
        self._jobs: queue.Queue[tuple[Callable[[], subprocess.Popen[bytes]], Future[subprocess.Popen[bytes]]]]
        self._jobs = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def popen(self, start: Callable[[], subprocess.Popen[bytes]]) -> subprocess.Popen[bytes]:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, daemon=True, name="mfr-server-launcher")
                self._thread.start()
        done: Future[subprocess.Popen[bytes]] = Future()
        self._jobs.put((start, done))
        return done.result()

    def _run(self) -> None:
        while True:
            start, done = self._jobs.get()
            try:
                done.set_result(start())
            except BaseException as exc:  # handed to the caller's thread, which raises it
                done.set_exception(exc)


_launcher = _Launcher()
_live: set[LocalServer] = set()
_live_lock = threading.Lock()


@atexit.register
def stop_all() -> None:
    """Stop every server this process started (also run at interpreter exit)."""
    with _live_lock:
        servers = list(_live)
    for server in servers:
        server.stop()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


_PROBLEM = re.compile(r"error|failed|exception|invalid|out of memory|cannot|unable|abort", re.IGNORECASE)
"""Log lines worth quoting when a server fails."""


AMX_ADVICE = ("this llama-cpp-python build runs ggml's AMX kernels, which crash on the first prompt on some CPUs "
              "(llama.cpp issue 20824): run ./install.sh again, which rebuilds it without them")
"""Said of a server that reported AMX kernels (its status's ``amx``) and died of a segmentation fault."""


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


# --- the server --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ServerSpec:
    """What one server child runs: its models (``llama_cpp.server`` model settings) and threads."""

    label: str
    """Names the server in messages and its log file (``llm``, ``vision``, ``llm+vision``)."""
    models: tuple[str, ...]
    """Each model's settings as JSON (hashable; the first is served by default)."""
    startup_timeout_s: float = STARTUP_TIMEOUT_S
    """How long loading may take before the start counts as failed."""
    answer_after_load_s: float = ANSWER_AFTER_LOAD_S
    """How long the loaded server may take to answer its health check (``ANSWER_AFTER_LOAD_S``)."""


@dataclass
class LocalServer:
    """A ``llama_cpp.server`` child process: started on first use, restarted after a crash, stopped on close."""

    spec: ServerSpec
    _proc: subprocess.Popen[bytes] | None = None
    _port: int = 0
    _key: str = ""
    _dir: Path | None = None
    _log_path: Path | None = None
    _served: bool = False
    _closed: bool = False
    starts: int = 0
    """How many times a child was started (1 + restarts)."""
    status: dict[str, Any] = field(default_factory=dict)
    """What the child reported: pid, gpu_offload, n_gpu_layers, llama_cpp and python versions."""
    _lock: threading.RLock = field(default_factory=threading.RLock)

    def __hash__(self) -> int:
        return id(self)

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT`` of the running child."""
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_key(self) -> str:
        """This run's random key; requests without it are refused."""
        return self._key

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    @property
    def log_path(self) -> Path | None:
        return self._log_path

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    # --- lifecycle -------------------------------------------------------------------------------------
    def ensure_running(self) -> None:
        """Start the child on first use; after a crash, restart it (once per crash that followed a served
        request). Raises ModelError naming the log when it cannot come up."""
        with self._lock:
            if self._closed:
                raise ModelError("The model server was stopped (the engine was closed).", title="Model closed")
            if self.alive():
                return
            if self._proc is not None:
                detail = self._exit_detail()
                if not self._served:
                    raise ModelError(
                        f"The local model server ({self.spec.label}) stopped again before serving anything: "
                        f"{detail}. Not restarting it; fix the cause (see its log) and restart the app.",
                        title="Model server crashed",
                    )
                log.warning("model server %s stopped (%s); restarting it", self.spec.label, detail)
            self._start()

    def _start(self) -> None:
        last: ModelError | None = None
        remove_stale_secrets()
        for _attempt in range(2):  # a second try only when the port was taken between probe and bind
            self._served = False
            self._dir = Path(tempfile.mkdtemp(prefix=f"{SECRETS_PREFIX}{os.getpid()}-"))
            self._port, self._key = free_port(), secrets.token_urlsafe(32)
            config = {
                "host": "127.0.0.1",
                "port": self._port,
                "api_key": self._key,
                "interrupt_requests": False,  # a token count must wait for a running answer, not cut it
                "models": [json.loads(m) for m in self.spec.models],
            }
            config_path = self._dir / "config.json"
            fd = os.open(config_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(config, f)
            status_path = self._dir / "status.json"
            folder = log_dir()
            folder.mkdir(parents=True, exist_ok=True)
            self._log_path = folder / f"model-server-{self.spec.label}-{os.getpid()}.log"
            env = {k: v for k, v in os.environ.items() if k not in {"HOST", "PORT", "CONFIG_FILE"}}
            env.update(OFFLINE_ENV)
            cmd = [sys.executable, "-I", str(CHILD_SCRIPT), "--config", str(config_path), "--status",
                   str(status_path), "--parent", str(os.getpid())]
            with open(self._log_path, "ab") as logf:
                logf.write(f"\n=== {time.strftime('%Y-%m-%d %H:%M:%S')} starting {self.spec.label} "
                           f"(start {self.starts + 1})\n".encode())
                logf.flush()

                def launch(cmd: list[str] = cmd, env: dict[str, str] = env, logf: Any = logf
                           ) -> subprocess.Popen[bytes]:
                    # start_new_session: a ^C in the terminal is the app's to handle, not the server's.
                    return subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=logf, stderr=subprocess.STDOUT,
                                            env=env, start_new_session=True)

                self._proc = _launcher.popen(launch)
            self.starts += 1
            with _live_lock:
                _live.add(self)
            try:
                self._wait_ready(status_path)
                log.info("model server %s ready at %s (pid %s, %s)", self.spec.label, self.url, self.pid,
                         self.status)
                return
            except ModelError as exc:
                self._kill()
                last = exc
                if "address already in use" not in self.log_tail(20).lower():
                    break
        assert last is not None
        raise last

    def _wait_ready(self, status_path: Path) -> None:
        deadline = time.monotonic() + self.spec.startup_timeout_s
        loaded_at: float | None = None
        loaded = status_path.with_name("loaded")
        while time.monotonic() < deadline:
            if self._proc is None or self._proc.poll() is not None:
                raise ModelError(
                    f"The local model server ({self.spec.label}) failed to start: {self._exit_detail()}. "
                    "Check the model files and options of this role in models.toml.",
                    title="Model failed to load",
                )
            if status_path.exists() and not self.status:
                with contextlib.suppress(OSError, ValueError):
                    self.status = json.loads(status_path.read_text(encoding="utf-8"))
            if self._answers():
                return
            if loaded_at is None and loaded.exists():
                loaded_at = time.monotonic()
            if loaded_at is not None and time.monotonic() - loaded_at > self.spec.answer_after_load_s:
                raise ModelError(
                    f"The local model server ({self.spec.label}) loaded its model but did not answer at {self.url} "
                    f"within {self.spec.answer_after_load_s:.0f} s (is the loopback interface up, or a firewall "
                    f"in the way?). See its log {self._log_path}.",
                    title="Model server unreachable",
                )
            time.sleep(0.1)
        raise ModelError(
            f"The local model server ({self.spec.label}) did not answer within {self.spec.startup_timeout_s:.0f} s. "
            f"Raise startup_timeout_s of this role in models.toml, or see its log {self._log_path}.",
            title="Model server timed out",
        )

    def _answers(self) -> bool:
        conn = http.client.HTTPConnection("127.0.0.1", self._port, timeout=2.0)
        try:
            conn.request("GET", "/v1/models", headers={"Authorization": f"Bearer {self._key}"})
            return conn.getresponse().status == 200
        except (OSError, http.client.HTTPException):
            return False
        finally:
            conn.close()

    def served(self) -> None:
        """The child answered (a request succeeded or a stream began): a later crash is restarted."""
        self._served = True

    def crashed_detail(self, wait_s: float = 2.0) -> str | None:
        """Why the child is gone (exit status, the end of its log), or None while it runs."""
        proc = self._proc
        if proc is None:
            return None
        deadline = time.monotonic() + wait_s
        while proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if proc.poll() is None:
            return None
        return self._exit_detail()

    def _exit_detail(self) -> str:
        code = self._proc.poll() if self._proc is not None else None
        said = self.problems()
        advice = f"; {AMX_ADVICE}" if code == -signal.SIGSEGV and self.status.get("amx") else ""
        return (f"pid {self.pid} {_describe_exit(code)}" + (f"; it said: {said}" if said else "")
                + f" (log {self._log_path}){advice}")

    def _current_log(self) -> list[str]:
        """This start's lines of the log (from its ``===`` header on, at most the last 64 KiB)."""
        if self._log_path is None or not self._log_path.exists():
            return []
        with open(self._log_path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 65536))
            lines = f.read().decode("utf-8", "replace").splitlines()
        starts = [i for i, ln in enumerate(lines) if ln.startswith("=== ")]
        return lines[starts[-1] + 1:] if starts else lines

    def problems(self, limit: int = 4) -> str:
        """The error lines of this start's log (llama.cpp's and Python's), '; '-joined."""
        hits = [ln.strip() for ln in self._current_log()
                if _PROBLEM.search(ln) and not ln.startswith("INFO:")]
        return "; ".join(list(dict.fromkeys(hits))[-limit:])[-900:]

    def log_tail(self, lines: int = 8) -> str:
        """The last lines of this start's log, without uvicorn's access lines (' | '-joined)."""
        kept = [ln.strip() for ln in self._current_log() if ln.strip() and not ln.startswith("INFO:")][-lines:]
        return " | ".join(kept)[-1200:]

    def _kill(self) -> None:
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            if proc.stdin is not None:  # the child's watchdog exits at once on EOF
                with contextlib.suppress(OSError):
                    proc.stdin.close()
            try:
                proc.wait(timeout=3.0)
            except subprocess.TimeoutExpired:
                proc.terminate()
                try:
                    proc.wait(timeout=5.0)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=5.0)
        elif proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    def stop(self) -> None:
        """Stop the child (idempotent); later requests raise ModelError."""
        with self._lock:
            self._closed = True
            self._kill()
        with _live_lock:
            _live.discard(self)

    close = stop

    def where(self) -> dict[str, Any]:
        """Where this server runs, for ``mfr-tui models --json``."""
        layers = self.status.get("n_gpu_layers") or []
        return {
            "url": self.url if self.alive() else "",
            "pid": self.pid if self.alive() else None,
            "device": "gpu" if any(n != 0 for n in layers) else "cpu",
            "gpu_offload_supported": self.status.get("gpu_offload"),
            "n_gpu_layers": layers[0] if len(layers) == 1 else layers,
            "log": str(self._log_path) if self._log_path else "",
            "starts": self.starts,
        }


# --- building the roles ------------------------------------------------------------------------------------


def _model_entry(cfg: RoleConfig, path: Path, provider: ModelProvider, n_ctx_default: int, alias: str
                 ) -> dict[str, Any]:
    entry: dict[str, Any] = {k: v for k, v in cfg.options.items() if k in SERVER_MODEL_OPTIONS}
    entry["model"] = str(path)
    entry["model_alias"] = alias
    entry.setdefault("n_ctx", n_ctx_default)
    entry.setdefault("n_gpu_layers", "auto")
    if entry["n_gpu_layers"] != "auto" and not isinstance(entry["n_gpu_layers"], int):
        raise ConfigError(f"{cfg.source}: n_gpu_layers must be an integer (-1: all) or \"auto\".",
                          title="models.toml malformed")
    entry.setdefault("n_threads", provider.budget.llm)
    entry.setdefault("n_threads_batch", entry["n_threads"])
    entry.setdefault("use_mlock", False)  # as in-process; locking GBs of weights fails under default ulimits
    # llama_cpp.server's default (True) computes the vocabulary logits of every prompt token (Qwen's 151,936 x
    # 1,536 output layer is ~15% of a 1.5B model's compute) and keeps an n_ctx x n_vocab float array (2.5 GB at
    # n_ctx 4096). Only the last token's are needed, as in-process.
    entry.setdefault("logits_all", False)
    entry["verbose"] = True  # llama.cpp's log goes to the server's log file, where a crash can be read
    return entry


def _vision_format(cfg: RoleConfig) -> str:
    name = str(cfg.option("chat_handler", "mtmd")).lower()
    fmt = SERVER_CHAT_FORMATS.get(name)
    if fmt is None:
        raise ConfigError(
            f"{cfg.source}: chat_handler = {name!r} is not served by llama_cpp.server. Use one of "
            f"{', '.join(sorted(SERVER_CHAT_FORMATS))}.",
            title="Unknown chat handler",
        )
    return fmt


def _shares_one_server(provider: ModelProvider) -> bool:
    llm, vision = provider.role("llm"), provider.role("vision")
    if llm.backend != "llama-server" or vision.backend != "llama-server" or not vision.option("share_llm", True):
        return False
    a, b = provider.resolve_path("llm"), provider.resolve_path("vision")
    return a is not None and b is not None and a.resolve() == b.resolve()


def server_for(provider: ModelProvider, role: str, cfg: RoleConfig | None = None, path: Path | None = None
               ) -> tuple[LocalServer, dict[str, Any]]:
    """The (shared) local server that serves ``role`` of the profile, and that role's model entry.

    ``cfg`` and ``path`` given and other than the profile's role (an evaluation judge's ``[judge]`` table): a
    text model of its own, in a server of its own."""
    if cfg is not None and cfg != provider.role(role):
        if path is None:
            raise ModelError(f"{cfg.source}: the llama-server backend needs a GGUF `path` or `packaged` model.")
        alias = cfg.packaged or path.stem
        entry = _model_entry(cfg, path, provider, provider.settings.llm_context, alias)
        spec = ServerSpec(label=f"{role}-{alias}", models=(json.dumps(entry, sort_keys=True),),
                          startup_timeout_s=float(cfg.option("startup_timeout_s", STARTUP_TIMEOUT_S)))
        return provider.shared(("llama-server", spec), lambda: LocalServer(spec)), entry
    shared = _shares_one_server(provider)
    vcfg, vpath, mmproj = provider.role("vision"), None, None
    if role == "vision" or shared:
        vpath = provider.resolve_path("vision")
        if vpath is None:
            raise ModelError(f"{vcfg.source}: the llama-server vision backend needs a GGUF `path`.")
        mmproj = provider.resolve_mmproj("vision")
    if shared:
        lcfg, path = provider.role("llm"), provider.resolve_path("llm")
        assert path is not None
        entry = _model_entry(lcfg, path, provider, provider.settings.llm_context, lcfg.packaged or path.stem)
        ventry = _model_entry(vcfg, path, provider, 8192, entry["model_alias"])
        entry["n_ctx"] = max(int(entry["n_ctx"]), int(ventry["n_ctx"]))
        entry["clip_model_path"] = str(mmproj)
        entry["chat_format"] = _vision_format(vcfg)
        label = "llm+vision"
    elif role == "vision":
        assert vpath is not None
        entry = _model_entry(vcfg, vpath, provider, 8192, vcfg.packaged or vpath.stem)
        entry["clip_model_path"] = str(mmproj)
        entry["chat_format"] = _vision_format(vcfg)
        label = "vision"
    else:
        lcfg, path = provider.role("llm"), provider.resolve_path("llm")
        if path is None:
            raise ModelError(f"{lcfg.source}: the llama-server backend needs a GGUF `path` or `packaged` model.")
        entry = _model_entry(lcfg, path, provider, provider.settings.llm_context, lcfg.packaged or path.stem)
        label = "llm"
    owner = "vision" if label == "vision" else "llm"
    timeout = float(provider.role(owner).option("startup_timeout_s", STARTUP_TIMEOUT_S))
    spec = ServerSpec(label=label, models=(json.dumps(entry, sort_keys=True),), startup_timeout_s=timeout)
    server = provider.shared(("llama-server", spec), lambda: LocalServer(spec))
    return server, entry


class _Where:
    """Adds ``where()`` (for ``models --json``) to the HTTP-backed models."""

    endpoint: Endpoint
    backend: str

    def where(self) -> dict[str, Any]:
        server = self.endpoint.server
        if isinstance(server, LocalServer):
            return {"backend": self.backend, **server.where()}
        return {"backend": self.backend, "url": self.endpoint.url, "model": self.endpoint.model,
                "device": "remote"}


class ServedLLM(_Where, OpenAIChatLLM):
    """The text LLM through a local ``llama_cpp.server`` or an external OpenAI-compatible server."""


class ServedVision(_Where, OpenAIVision):
    """The vision model through a local ``llama_cpp.server`` or an external OpenAI-compatible server."""


def build_llm(cfg: RoleConfig, path: Path | None, provider: ModelProvider) -> ServedLLM:
    """models.toml ``[llm] backend = "llama-server"``: options as ``llama-cpp`` (n_ctx, n_gpu_layers -
    default ``"auto"``, n_threads, chat_format, repeat_penalty, flash_attn, ...) plus startup_timeout_s.
    The server starts here (loading the model), so a bad file fails now, with llama.cpp's words."""
    server, entry = server_for(provider, "llm", cfg, path)
    endpoint = Endpoint(url="http://127.0.0.1", model=entry["model_alias"], server=server,
                        label=f"the local model server ({server.spec.label})")
    server.ensure_running()
    llm = ServedLLM(endpoint, name=entry["model_alias"], context_tokens=int(entry["n_ctx"]),
                    repeat_penalty=float(cfg.option("repeat_penalty", 1.0)), tokenizer="extras")
    llm.backend = "llama-server"
    return llm


def build_vision(cfg: RoleConfig, path: Path | None, provider: ModelProvider) -> ServedVision:
    """models.toml ``[vision] backend = "llama-server"``: ``path`` + ``mmproj``; options chat_handler (default
    ``mtmd``; see ``SERVER_CHAT_FORMATS``), n_ctx (default 8192), n_gpu_layers (default ``"auto"``),
    temperature, share_llm (default true: one server for both roles when ``[llm]`` names the same GGUF)."""
    server, entry = server_for(provider, "vision")
    endpoint = Endpoint(url="http://127.0.0.1", model=entry["model_alias"], server=server,
                        label=f"the local model server ({server.spec.label})")
    server.ensure_running()
    lock = None
    if server.spec.label == "llm+vision":
        llm = provider.llm()
        lock = getattr(llm, "lock", None)
    vision = ServedVision(endpoint, name=entry["model_alias"], context_tokens=int(entry["n_ctx"]),
                          temperature=float(cfg.option("temperature", 0.0)), lock=lock)
    vision.backend = "llama-server"
    return vision


def build_external_llm(cfg: RoleConfig, path: Path | None, provider: ModelProvider) -> ServedLLM:
    """models.toml ``[llm] backend = "openai"``: ``url`` of a running server (llama.cpp's llama-server, vLLM,
    llama_cpp.server), optional ``api_key_env`` (the variable holding its key), ``model`` (default: the first
    it lists), ``n_ctx`` (default: what the server reports, else ``Settings.llm_context``), repeat_penalty,
    tokenizer (``auto``, ``extras``, ``tokenize`` or ``estimate``)."""
    endpoint = external_endpoint(cfg)
    info = discover(endpoint)
    n_ctx = int(cfg.option("n_ctx", 0) or info.get("n_ctx") or provider.settings.llm_context)
    penalty = cfg.option("repeat_penalty")
    llm = ServedLLM(endpoint, name=str(cfg.option("name", "") or endpoint.model or "openai"), context_tokens=n_ctx,
                    repeat_penalty=None if penalty is None else float(penalty),
                    tokenizer=str(cfg.option("tokenizer", "auto")))
    llm.backend = "openai"
    return llm


def build_external_vision(cfg: RoleConfig, path: Path | None, provider: ModelProvider) -> ServedVision:
    """models.toml ``[vision] backend = "openai"``: as the llm role's (``url``, ``api_key_env``, ``model``,
    ``n_ctx``), plus temperature."""
    endpoint = external_endpoint(cfg)
    info = discover(endpoint)
    n_ctx = int(cfg.option("n_ctx", 0) or info.get("n_ctx") or 8192)
    penalty = cfg.option("repeat_penalty")
    vision = ServedVision(endpoint, name=str(cfg.option("name", "") or endpoint.model or "openai"),
                          context_tokens=n_ctx, temperature=float(cfg.option("temperature", 0.0)),
                          repeat_penalty=None if penalty is None else float(penalty))
    vision.backend = "openai"
    return vision

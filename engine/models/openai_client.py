"""The one client for text and vision models behind an OpenAI-compatible HTTP API.

It serves both ``backend = "llama-server"`` (a ``llama_cpp.server`` child process this app starts, see
``engine.models.llama_server``) and ``backend = "openai"`` (a server already running: llama.cpp's
``llama-server``, vLLM, ...). Only the standard library is used (``http.client``), so the app process never
imports a native model runtime: a crash in the model takes the server down, never the TUI.

Streaming reads server-sent events on a reader thread; the caller's thread waits on a queue and checks
``cancelled()`` every 50 ms, so a cancel returns at once and closes the connection, which stops the server's
generation at its next token. Errors keep the in-process backend's meaning: a prompt over the context is
"Prompt too long" (``VisionOverflow`` for the vision role), an unreachable or crashed server is a
``ModelError`` naming the server and what to do.
"""

from __future__ import annotations

import http.client
import json
import logging
import math
import os
import queue
import socket
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from engine.errors import ConfigError, ModelError
from engine.models.llama_backend import VisionOverflow, vision_messages, vision_reply
from engine.models.protocols import ChatMessage, Generation, VisionRequest

log = logging.getLogger("engine.llama")

CHARS_PER_TOKEN_ESTIMATE = 3.0
"""Characters per token assumed when a server offers no tokenizer endpoint (``count_tokens`` then rounds up).
Byte-level BPE vocabularies make about 4 characters per token of English prose and one per digit; filings
are dense with numbers, so 3 over-counts slightly and a prompt budgeted with it fits."""

_POLL_S = 0.05
"""How often a waiting call checks ``cancelled()``."""

_OVERFLOW_MARKERS = ("exceed context window", "prompt exceeds n_ctx", "context_length_exceeded",
                     "maximum context length", "failed to evaluate chunk", "exceeds the available context")
"""Substrings of server error messages that mean the prompt did not fit the model's context."""


class ServerHandle(Protocol):
    """What the client needs from a server it started itself (``engine.models.llama_server.LocalServer``)."""

    def ensure_running(self) -> None:
        """Start (or restart after a crash) the server; raises ModelError when it cannot come up."""
        ...

    def crashed_detail(self, wait_s: float = 2.0) -> str | None:
        """Why the server process is gone (exit status and the end of its log), or None while it runs."""
        ...

    def served(self) -> None:
        """Record that a request succeeded (re-arms the restart after a later crash)."""
        ...

    def log_tail(self, lines: int = 8) -> str:
        """The last lines of the server's log."""
        ...

    @property
    def url(self) -> str: ...

    @property
    def api_key(self) -> str: ...


@dataclass
class Endpoint:
    """Where an OpenAI-compatible server listens, and how to talk to it."""

    url: str
    """Base URL, e.g. ``http://127.0.0.1:8080`` (a trailing ``/v1`` is accepted and dropped); with ``server``
    set, the server's own URL is used instead (its port changes when it restarts)."""
    api_key: str = ""
    """Sent as ``Authorization: Bearer``; empty sends none."""
    model: str = ""
    """The ``model`` field of requests (a server with one model ignores it)."""
    connect_timeout_s: float = 10.0
    """Seconds to wait for the TCP connection (a local server answers at once)."""
    server: ServerHandle | None = None
    """The local server behind ``url`` when this app started it (then crashes are detected and restarted)."""
    label: str = ""
    """How errors name the server."""

    def __post_init__(self) -> None:
        parsed = urllib.parse.urlsplit(self.url.rstrip("/"))
        if parsed.scheme not in {"http", "https"} or not parsed.hostname:
            raise ConfigError(f"Model server url {self.url!r} is not an http:// or https:// URL.",
                              title="models.toml malformed")
        self._scheme = parsed.scheme
        self._host = parsed.hostname
        self._port = parsed.port or (443 if parsed.scheme == "https" else 80)
        path = parsed.path.rstrip("/")
        self._prefix = path[: -len("/v1")] if path.endswith("/v1") else path
        self.label = self.label or f"the model server at {self.url}"

    # --- connections ----------------------------------------------------------------------------------
    def _connection(self) -> tuple[http.client.HTTPConnection, str]:
        """A connection to the server (started or restarted first when it is ours) and the path prefix."""
        if self.server is not None:
            self.server.ensure_running()
            local = urllib.parse.urlsplit(self.server.url)  # the port changes when the server restarts
            return http.client.HTTPConnection(local.hostname or "127.0.0.1", local.port,
                                              timeout=self.connect_timeout_s), ""
        cls = http.client.HTTPSConnection if self._scheme == "https" else http.client.HTTPConnection
        return cls(self._host, self._port, timeout=self.connect_timeout_s), self._prefix

    def _headers(self, stream: bool = False) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "text/event-stream" if stream else "application/json"}
        key = self.server.api_key if self.server is not None else self.api_key
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def _open(self, method: str, path: str, body: dict[str, Any] | None, stream: bool = False
              ) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
        conn, prefix = self._connection()
        data = json.dumps(body).encode("utf-8") if body is not None else None
        try:
            conn.request(method, prefix + path, body=data, headers=self._headers(stream))
            if conn.sock is not None:
                conn.sock.settimeout(None)  # generation may take minutes; crashes end the socket instead
            return conn, conn.getresponse()
        except (OSError, http.client.HTTPException) as exc:
            conn.close()
            raise self._unreachable(exc) from exc

    def _unreachable(self, exc: BaseException) -> ModelError:
        if self.server is not None:
            gone = self.server.crashed_detail()
            if gone:
                return _crashed(gone)
            return ModelError(f"{self.label} did not answer ({exc}); its log ends: {self.server.log_tail(4)}",
                              title="Model server unreachable")
        return ModelError(
            f"Cannot reach {self.label}: {exc}. Start the server, or fix `url` of this role in models.toml.",
            title="Model server unreachable",
        )

    def request_json(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """One request, its JSON reply; HTTP errors raise ``ServerError`` (with the server's message)."""
        conn, resp = self._open(method, path, body)
        try:
            raw = resp.read()
        except (OSError, http.client.HTTPException) as exc:
            raise self._unreachable(exc) from exc
        finally:
            conn.close()
        if resp.status >= 400:
            raise ServerError(resp.status, _error_message(raw), path)
        try:
            return json.loads(raw)
        except ValueError as exc:
            raise ModelError(f"{self.label} answered {path} with something that is not JSON: {raw[:200]!r}.",
                             title="Model server error") from exc

    def stream(self, path: str, body: dict[str, Any], cancelled: Callable[[], bool] | None = None
               ) -> Iterator[dict[str, Any]]:
        """POST with ``stream: true`` and yield each server-sent event's JSON until ``[DONE]``.

        Returns early (closing the connection, which stops the server's generation) once ``cancelled()`` is
        true. A stream that ends without ``[DONE]`` raises ModelError (the server crashed or cut it).
        """
        conn, resp = self._open("POST", path, {**body, "stream": True}, stream=True)
        if resp.status >= 400:
            try:
                raw = resp.read()
            finally:
                conn.close()
            raise ServerError(resp.status, _error_message(raw), path)
        events: queue.Queue[tuple[str, Any]] = queue.Queue()
        reader = threading.Thread(target=_read_events, args=(resp, events), daemon=True,
                                  name="mfr-model-stream")
        reader.start()
        try:
            while True:
                if cancelled is not None and cancelled():
                    return
                try:
                    kind, value = events.get(timeout=_POLL_S)
                except queue.Empty:
                    continue
                if kind == "event":
                    yield value
                elif kind == "done":
                    return
                elif kind == "ended":
                    raise self._cut(value)
        finally:
            _hang_up(conn)
            reader.join(timeout=2.0)

    def _cut(self, why: str) -> ModelError:
        if self.server is not None:
            gone = self.server.crashed_detail()
            if gone:
                return _crashed(gone)
        return ModelError(f"{self.label} ended the answer early ({why}). Ask again; if it repeats, check the "
                          "server's log.", title="Model server error")


def _crashed(detail: str) -> ModelError:
    return ModelError(
        f"The local model server stopped while answering: {detail}. It is restarted for the next question; "
        "ask again.",
        title="Model server crashed",
    )


class ServerError(ModelError):
    """The server answered with an HTTP error status."""

    default_title = "Model server error"

    def __init__(self, status: int, message: str, path: str) -> None:
        super().__init__(f"The model server answered {path} with HTTP {status}: {message}")
        self.status = status
        self.server_message = message

    @property
    def overflow(self) -> bool:
        """The server said the prompt does not fit the context."""
        return _is_overflow(self.server_message)


def _is_overflow(message: str) -> bool:
    low = message.lower()
    return any(marker in low for marker in _OVERFLOW_MARKERS)


def _error_message(raw: bytes) -> str:
    try:
        data = json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace")[:500]
    err = data.get("error", data) if isinstance(data, dict) else data
    if isinstance(err, dict):
        return str(err.get("message") or err.get("detail") or err)[:500]
    if isinstance(data, dict) and "detail" in data:
        return str(data["detail"])[:500]
    return str(err)[:500]


def _read_events(resp: http.client.HTTPResponse, events: queue.Queue[tuple[str, Any]]) -> None:
    """Reader thread: parse ``data:`` lines of an SSE stream into the queue; always ends with done/ended."""
    try:
        while True:
            line = resp.readline()
            if not line:
                events.put(("ended", "the connection closed before the end of the answer"))
                return
            text = line.decode("utf-8", "replace").strip()
            if not text.startswith("data:"):
                continue  # comments (": ping"), event names, blank separators
            payload = text[5:].strip()
            if payload == "[DONE]":
                events.put(("done", None))
                return
            try:
                events.put(("event", json.loads(payload)))
            except ValueError:
                log.warning("model server sent an unreadable event: %.200s", payload)
    except Exception as exc:  # noqa: BLE001 - a hang-up mid-read surfaces as anything from OSError to
        # AttributeError (http.client drops its file object); the waiting caller decides what it means.
        events.put(("ended", f"{type(exc).__name__}: {exc}"))


def _hang_up(conn: http.client.HTTPConnection) -> None:
    """Close a connection now, also when a reader thread is blocked on it (shutdown wakes it)."""
    sock = conn.sock
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
    conn.close()


# --- the text LLM ------------------------------------------------------------------------------------------


class OpenAIChatLLM:
    """A chat model behind an OpenAI-compatible server; implements the ``LLM`` protocol.

    Thread-safe: one request runs at a time (a local server runs one generation at a time anyway, and a
    count between two generations must not wait behind a third).
    """

    def __init__(self, endpoint: Endpoint, name: str, context_tokens: int, repeat_penalty: float | None = 1.0,
                 tokenizer: str = "auto") -> None:
        self.endpoint = endpoint
        self.name = name
        self.context_tokens = context_tokens
        self.repeat_penalty = repeat_penalty
        """Sent with every request; 1.0 (off) by default, since answers copy figures from the context, which a
        penalty would distort (llama_cpp.server's own default is 1.1). None sends none (the server decides)."""
        self.tokenizer = tokenizer
        """``auto`` (probe the server's tokenize endpoints once), ``extras`` (llama_cpp.server's
        ``/extras/tokenize``), ``tokenize`` (llama.cpp's and vLLM's ``/tokenize``) or ``estimate``."""
        self.lock = threading.RLock()
        self._bos_overhead: int | None = None

    def chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int = 256,
        temperature: float = 0.0,
        on_token: Callable[[str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Generation:
        """Stream a reply; a cancel returns what was generated so far and stops the server's generation."""
        body: dict[str, Any] = {
            "model": self.endpoint.model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "max_tokens": max_tokens,
            "temperature": temperature,
            "stream_options": {"include_usage": True},
        }
        if self.repeat_penalty is not None:
            body["repeat_penalty"] = self.repeat_penalty
        pieces: list[str] = []
        usage: dict[str, Any] = {}
        with self.lock:
            if cancelled is not None and cancelled():
                return Generation(text="")
            counted = 0
            if self.endpoint.server is None and self.exact_counts():
                # A server of another make may cut a stream that overflows without saying why; the messages'
                # own tokens (its tokenizer's count) are a lower bound of the prompt: this refusal is never wrong.
                counted = sum(self.count_tokens(m.content) for m in messages)
                if counted > self.context_tokens:
                    self._raise_error(f"the messages alone are {counted} tokens; prompt exceeds n_ctx")
            try:
                for event in self.endpoint.stream("/v1/chat/completions", body, cancelled):
                    if self.endpoint.server is not None and not pieces and not usage:
                        # it answers: a crash from here on is one to restart from, not a start that fails
                        self.endpoint.server.served()
                    if "error" in event:
                        self._raise_error(_error_message(json.dumps(event).encode()))
                    if event.get("usage"):
                        usage = event["usage"]
                    for choice in event.get("choices") or []:
                        delta = (choice.get("delta") or {}).get("content")
                        if delta:
                            pieces.append(delta)
                            if on_token is not None:
                                on_token(delta)
            except ServerError as exc:
                self._raise_error(exc.server_message, exc)
            if self.endpoint.server is not None:
                self.endpoint.server.served()
        text = "".join(pieces)
        completion = int(usage.get("completion_tokens") or 0) or (self.count_tokens(text) if text else 0)
        prompt = (int(usage.get("prompt_tokens") or 0) or counted
                  or sum(self.count_tokens(m.content) for m in messages))
        return Generation(text=text, prompt_tokens=prompt, completion_tokens=completion)

    def _raise_error(self, message: str, cause: BaseException | None = None) -> None:
        if _is_overflow(message):
            raise ModelError(
                f"The prompt does not fit {self.name}'s context of {self.context_tokens} tokens ({message}). "
                "Send less context, or raise n_ctx in models.toml.",
                title="Prompt too long",
            ) from cause
        raise ModelError(f"{self.name} failed while generating: {message}.", title="Generation failed") from cause

    def count_tokens(self, text: str) -> int:
        """Tokens the model's tokenizer makes of ``text`` (asked of the server; estimated where it has no
        tokenizer endpoint, see ``CHARS_PER_TOKEN_ESTIMATE``)."""
        if not text:
            return 0
        with self.lock:
            if not self.exact_counts():
                return math.ceil(len(text) / CHARS_PER_TOKEN_ESTIMATE)
            n = len(self._tokenize(text))
            if self._bos_overhead is None:
                self._bos_overhead = len(self._tokenize(""))
            return max(0, n - self._bos_overhead)

    def exact_counts(self) -> bool:
        """Whether token counts come from the server's tokenizer (probing it once), not the estimate."""
        with self.lock:
            if self.tokenizer == "auto":
                self.tokenizer = self._probe_tokenizer()
            return self.tokenizer != "estimate"

    def _tokenize(self, text: str) -> list[int]:
        if self.tokenizer == "extras":
            reply = self.endpoint.request_json("POST", "/extras/tokenize",
                                               {"model": self.endpoint.model, "input": text})
        else:
            reply = self.endpoint.request_json(
                "POST", "/tokenize", {"model": self.endpoint.model, "content": text, "prompt": text,
                                      "add_special": False, "add_special_tokens": False})
        tokens = reply.get("tokens") if isinstance(reply, dict) else None
        if not isinstance(tokens, list):
            raise ModelError(f"{self.endpoint.label} answered a tokenize request without tokens: {reply!r:.200}.",
                             title="Model server error")
        return tokens

    def _probe_tokenizer(self) -> str:
        for kind in ("extras", "tokenize"):
            self.tokenizer = kind
            try:
                self._tokenize("revenue")
                return kind
            except ServerError as exc:
                if exc.status not in {400, 404, 405, 422, 501}:
                    raise
        log.info("%s has no tokenize endpoint; token counts are estimated", self.endpoint.label)
        return "estimate"

    def close(self) -> None:
        """Nothing to free here; the server's owner stops it."""


# --- vision ------------------------------------------------------------------------------------------------


class OpenAIVision:
    """A vision-language model behind an OpenAI-compatible server; implements ``VisionModel``.

    Each request becomes one user turn, as in-process: for every image a label ``Image i: <file name>`` and
    the image as a PNG data URI, then the prompt.
    """

    def __init__(self, endpoint: Endpoint, name: str, context_tokens: int, temperature: float = 0.0,
                 repeat_penalty: float | None = 1.0, lock: threading.RLock | None = None) -> None:
        self.endpoint = endpoint
        self.name = name
        self.context_tokens = context_tokens
        self.temperature = temperature
        self.repeat_penalty = repeat_penalty
        """As ``OpenAIChatLLM.repeat_penalty``."""
        self.lock = lock or threading.RLock()

    def describe(self, requests: Sequence[VisionRequest]) -> list[str]:
        """One raw reply per request. Raises VisionOverflow when a request needs more context or memory."""
        return [self._describe_one(req) for req in requests]

    def _describe_one(self, req: VisionRequest) -> str:
        messages = vision_messages(req)
        n = len(req.images)
        body = {"model": self.endpoint.model, "messages": messages, "max_tokens": req.max_tokens,
                "temperature": self.temperature, "stream": False}
        if self.repeat_penalty is not None:
            body["repeat_penalty"] = self.repeat_penalty
        with self.lock:
            try:
                out = self.endpoint.request_json("POST", "/v1/chat/completions", body)
            except ServerError as exc:
                if exc.overflow or "out of memory" in exc.server_message.lower():
                    raise VisionOverflow(
                        f"{n} image(s) do not fit {self.name} at once ({exc.server_message}). Send fewer images "
                        "per request (Settings.vision_batch), or raise n_ctx of the vision role in models.toml.",
                        images=n,
                    ) from exc
                raise ModelError(f"{self.name} could not read the images {[Path(p).name for p in req.images]}: "
                                 f"{exc.server_message}.", title="Vision model failed") from exc
            if self.endpoint.server is not None:
                self.endpoint.server.served()
        return vision_reply(out, req, self.name, self.context_tokens)

    def close(self) -> None:
        """Nothing to free here; the server's owner stops it."""


# --- external servers ------------------------------------------------------------------------------------


def external_endpoint(cfg: Any) -> Endpoint:
    """The endpoint of ``backend = "openai"``: ``url``, the key from the variable ``api_key_env`` names (if
    any), and ``model`` (else the first model the server lists)."""
    url = str(cfg.option("url", ""))
    key_env = str(cfg.option("api_key_env", ""))
    key = ""
    if key_env:
        key = os.environ.get(key_env, "")
        if not key:
            raise ConfigError(f"{cfg.source}: api_key_env = {key_env!r}, but that environment variable is not set. "
                              "Export it with the server's key, or remove api_key_env.", title="API key missing")
    endpoint = Endpoint(url=url, api_key=key, model=str(cfg.option("model", "")),
                        connect_timeout_s=float(cfg.option("connect_timeout_s", 10.0)),
                        label=f"the model server at {url} ({cfg.source})")
    return endpoint


def discover(endpoint: Endpoint) -> dict[str, Any]:
    """Ask an external server what it serves: the model id (``/v1/models``) and, where it says, its context
    size (llama.cpp's ``/props``, vLLM's ``max_model_len``). Raises ModelError when unreachable or refused."""
    started = time.perf_counter()
    try:
        listing = endpoint.request_json("GET", "/v1/models")
    except ServerError as exc:
        if exc.status in {401, 403}:
            raise ModelError(f"{endpoint.label} refused the API key (HTTP {exc.status}). Set the variable named by "
                             "api_key_env in models.toml to the server's key.", title="Model server refused") from exc
        raise
    data = listing.get("data") if isinstance(listing, dict) else None
    models = [m for m in data or [] if isinstance(m, dict)]
    info: dict[str, Any] = {"models": [m.get("id") for m in models], "seconds": round(time.perf_counter() - started, 3)}
    chosen = next((m for m in models if m.get("id") == endpoint.model), models[0] if models else {})
    if not endpoint.model and chosen.get("id"):
        endpoint.model = str(chosen["id"])
    n_ctx = chosen.get("max_model_len") or (chosen.get("meta") or {}).get("n_ctx_train")
    try:
        props = endpoint.request_json("GET", "/props")
        n_ctx = ((props.get("default_generation_settings") or {}).get("n_ctx")) or n_ctx
    except (ServerError, ModelError):
        pass
    if n_ctx:
        info["n_ctx"] = int(n_ctx)
    return info

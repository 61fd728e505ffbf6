"""Entry point of the model server child process: llama-cpp-python's own OpenAI-compatible server, guarded.

Run by ``engine.models.llama_server`` as ``python -I _server_child.py --config FILE --status FILE --parent PID``
(``-I``: the engine package is never imported here, so nothing but llama_cpp and its server stack loads; torch
in particular never does, which a CUDA build of llama.cpp does not survive). Before anything else it makes
sure it cannot outlive the app: ``PR_SET_PDEATHSIG`` on Linux, plus a watchdog that exits when its stdin (a
pipe from the parent) closes or when the parent pid changes. Then it imports llama_cpp, resolves
``n_gpu_layers = "auto"`` (every layer on the GPU when this build can offload, else 0), writes a status file
the app reads (``models --json`` reports it), and runs ``llama_cpp.server``'s own ``main``.

Every route needs the key: ``llama_cpp.server`` checks it on the API, but not on ``/docs``, ``/redoc`` or
``/openapi.json``; the app it builds is wrapped so that any request without ``Authorization: Bearer KEY`` gets
401 (``_KeyRequired``). Once the model is loaded, a ``loaded`` file next to the status file tells the app that
from now on the server must answer soon. The folder holding the key is removed whenever this process ends
(the app's exit, a signal, a failed load); the app removes folders left by a process that died anyway.

Two additions to the server's streamed answers: an error raised while one is produced (a prompt over the
context, a failed decode) is sent as a final ``data: {"error": {...}}`` event, as llama.cpp's own server
does, instead of cutting the stream without a word; and a client that hangs up aborts the work at once, also
while the prompt is evaluated (``_patch_streaming``).
"""

from __future__ import annotations

import argparse
import atexit
import ctypes
import hmac
import json
import os
import shutil
import signal
import sys
import threading
import time
import traceback
from collections.abc import Iterator
from typing import Any

_PR_SET_PDEATHSIG = 1
_secrets: list[str] = []
"""The folder holding this run's key (config file, status), removed on every way out."""


def _remove_secrets() -> None:
    for folder in _secrets:
        shutil.rmtree(folder, ignore_errors=True)


def _exit_now(code: int = 0) -> None:
    """Leave at once (no thread finalisation, which can hang in native code), the key's folder removed."""
    _remove_secrets()
    os._exit(code)


def _die_with_parent(parent: int) -> None:
    """Exit when the parent dies, however it dies (also SIGKILL, which runs no cleanup in the parent)."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            # SIGTERM, not SIGKILL: the handler below removes the key's folder first
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        except (OSError, AttributeError) as exc:
            print(f"mfr-server: PR_SET_PDEATHSIG unavailable ({exc}); relying on the watchdog", file=sys.stderr)
    signal.signal(signal.SIGTERM, lambda *_: _exit_now(0))
    if os.getppid() != parent:  # the parent died before prctl took effect
        _exit_now(0)

    def stdin_closed() -> None:
        try:  # os.read, not sys.stdin: a buffered reader's lock would block interpreter shutdown
            while os.read(0, 4096):
                pass
        except OSError:
            pass
        print("mfr-server: the app closed the pipe; exiting", file=sys.stderr, flush=True)
        _exit_now(0)

    def parent_gone() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        print("mfr-server: the app is gone; exiting", file=sys.stderr, flush=True)
        _exit_now(0)

    threading.Thread(target=stdin_closed, daemon=True, name="mfr-watch-stdin").start()
    threading.Thread(target=parent_gone, daemon=True, name="mfr-watch-parent").start()


class _KeyRequired:
    """ASGI wrapper: every HTTP request (the API, ``/docs``, ``/openapi.json``, anything) needs the key."""

    def __init__(self, app: Any, key: str) -> None:
        self.app = app
        self.expected = f"Bearer {key}".encode()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            given = b""
            for name, value in scope.get("headers", []):
                if name.lower() == b"authorization":
                    given = value
            if not hmac.compare_digest(given, self.expected):
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                body = b'{"error": {"message": "Missing or wrong API key", "type": "authentication_error"}}'
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def _guard_app(key: str, loaded: str) -> None:
    """Wrap the app ``llama_cpp.server`` builds in ``_KeyRequired``, and write ``loaded`` once it is built (the
    model is in memory; the server listens right after)."""
    import llama_cpp.server.__main__ as entry

    original = entry.create_app

    def create_app(*args: Any, **kwargs: Any) -> Any:
        app = original(*args, **kwargs)
        with open(loaded, "w", encoding="utf-8") as f:
            f.write(str(time.time()))
        return _KeyRequired(app, key)

    entry.create_app = create_app


def _patch_streaming() -> None:
    """Two changes to streamed completions (see the module doc).

    A failure inside the stream arrives as an ``error`` event. And a client that hangs up stops the work at
    once, also during prompt evaluation: llama_cpp.server notices a hang-up only between tokens, and the
    prompt of a long question takes most of the time on a CPU. A watcher task is cancelled with the request
    when the client goes; it sets an event that llama.cpp's abort callback reads between graph nodes, so
    ``llama_decode`` returns early and the model is free for the next question.
    """
    import anyio
    import llama_cpp
    import llama_cpp.server.app as server_app

    original = server_app.get_event_publisher
    # One abort callback for the process's lifetime, reading the event of the answer under way. A callback per
    # request, cleared when its stream ends, was cleared at a random later time instead: an abandoned stream's
    # generator is finalised by the garbage collector, possibly while the next request evaluates its prompt,
    # which then could not be stopped.
    current: list[threading.Event | None] = [None]
    abort = llama_cpp.ggml_abort_callback(lambda _data: (gone := current[0]) is not None and gone.is_set())
    installed: set[int] = set()  # the contexts that have it (a model reload makes a new one)

    def error_event(exc: BaseException, gone: threading.Event) -> dict[str, Any]:
        if gone.is_set():
            print(f"mfr-server: stopped for a client that hung up ({exc})", file=sys.stderr, flush=True)
        else:
            traceback.print_exception(exc, file=sys.stderr)
        return {"error": {"message": str(exc), "type": type(exc).__name__}}

    async def get_event_publisher(request: Any, inner_send_chan: Any, body: Any, body_model: Any,
                                  llama_call: Any, kwargs: Any) -> None:
        gone = threading.Event()

        def call(llama: Any, **kw: Any) -> Iterator[Any]:
            ctx = llama._ctx.ctx
            key = ctypes.cast(ctx, ctypes.c_void_p).value or 0
            if key not in installed:
                llama_cpp.llama_set_abort_callback(ctx, abort, None)
                installed.add(key)
            current[0] = gone  # one request runs at a time (the server's lock)
            try:
                result = llama_call(llama, **kw)
            except Exception as exc:  # noqa: BLE001 - every failure becomes an event the client reads
                return iter([error_event(exc, gone)])

            def events() -> Iterator[Any]:
                current[0] = gone
                # One line per answer in the server's log, written as the prompt's evaluation begins.
                print("mfr-server: evaluating a prompt", file=sys.stderr, flush=True)
                try:
                    yield from result
                except Exception as exc:  # noqa: BLE001
                    yield error_event(exc, gone)
                finally:
                    if current[0] is gone:
                        current[0] = None

            return events()

        async def watch() -> None:
            try:
                await anyio.sleep_forever()
            finally:
                gone.set()

        async with anyio.create_task_group() as group:
            group.start_soon(watch)
            try:
                await original(request=request, inner_send_chan=inner_send_chan, body=body,
                               body_model=body_model, llama_call=call, kwargs=kwargs)
            finally:
                group.cancel_scope.cancel()
                if current[0] is gone:  # the answer is over (its thread is never abandoned): nothing to abort
                    current[0] = None

    server_app.get_event_publisher = get_event_publisher


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--config", required=True, help="llama_cpp.server config file (JSON) written by the app")
    parser.add_argument("--status", required=True, help="where to write what this server runs on (JSON)")
    parser.add_argument("--parent", type=int, required=True, help="the app's pid")
    args = parser.parse_args()
    _secrets.append(os.path.dirname(os.path.abspath(args.config)))
    atexit.register(_remove_secrets)
    _die_with_parent(args.parent)
    for var in ("HOST", "PORT", "CONFIG_FILE"):  # llama_cpp.server would let these override the config
        os.environ.pop(var, None)

    import llama_cpp  # the first native library this process loads

    offload = bool(llama_cpp.llama_supports_gpu_offload())
    with open(args.config, encoding="utf-8") as f:
        config = json.load(f)
    for model in config["models"]:
        if model.get("n_gpu_layers", "auto") == "auto":
            model["n_gpu_layers"] = -1 if offload else 0
    resolved = args.config + ".resolved.json"
    fd = os.open(resolved, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(config, f)
    _patch_streaming()
    _guard_app(str(config["api_key"]), os.path.join(os.path.dirname(args.status), "loaded"))
    from llama_cpp.server.__main__ import main as serve

    status = {
        "pid": os.getpid(),
        "gpu_offload": offload,
        "n_gpu_layers": [m["n_gpu_layers"] for m in config["models"]],
        "llama_cpp": getattr(llama_cpp, "__version__", "?"),
        "python": sys.version.split()[0],
        "torch_imported": "torch" in sys.modules,
        # ggml's AMX kernels crash on the first prompt on some CPUs (``llama_server.AMX_ADVICE``)
        "amx": b"AMX_INT8 = 1" in llama_cpp.llama_print_system_info(),
    }
    with open(args.status, "w", encoding="utf-8") as f:
        json.dump(status, f)
    print(f"mfr-server: {json.dumps(status)}", file=sys.stderr, flush=True)

    sys.argv = ["llama_cpp.server", "--config_file", resolved]
    serve()


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except BaseException:  # noqa: BLE001 - a failed load: say why in the log, exit without finalizing threads
        traceback.print_exc(file=sys.stderr)
        sys.stderr.flush()
        _exit_now(1)

"""llama-cpp-python backends: the text chat LLM and the multimodal (MTMD) vision model.

Both hold one ``llama_cpp.Llama`` behind a lock, so the engine may call them from any thread (calls queue).
llama.cpp's native log (llama, ggml and mtmd) is routed into the ``engine.llama`` logger through a ctypes
callback. Nothing here redirects the process's stdout/stderr file descriptors (llama-cpp-python's
``verbose=False`` does, which would blank a running TUI): models are built with ``verbose=True`` and their
Python-level chatter during loading goes to the logger as well.
"""

from __future__ import annotations

import base64
import contextlib
import ctypes
import io
import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import ConfigError, ModelError
from engine.models.config import RoleConfig
from engine.models.protocols import ChatMessage, Generation, VisionRequest

if TYPE_CHECKING:
    from llama_cpp import Llama

    from engine.models.provider import ModelProvider

log = logging.getLogger("engine.llama")
# Without a handler anywhere, logging would print warnings to stderr ("last resort"); the app decides.
log.addHandler(logging.NullHandler())

LLAMA_OPTIONS: frozenset[str] = frozenset(
    {
        "n_ctx",
        "n_batch",
        "n_ubatch",
        "n_gpu_layers",
        "main_gpu",
        "split_mode",
        "tensor_split",
        "flash_attn",
        "offload_kqv",
        "use_mmap",
        "use_mlock",
        "seed",
        "chat_format",
        "type_k",
        "type_v",
        "rope_freq_base",
        "rope_freq_scale",
        "n_threads",
        "n_threads_batch",
    }
)
"""models.toml options passed straight to ``llama_cpp.Llama`` (others are read by this module or ignored)."""

CHAT_HANDLERS: dict[str, str] = {
    "mtmd": "MTMDChatHandler",
    "gemma3": "MTMDChatHandler",
    "qwen2.5-vl": "MTMDChatHandler",
    "gemma4": "Gemma4ChatHandler",
    "qwen2.5-vl-legacy": "Qwen25VLChatHandler",
    "llava-1.5": "Llava15ChatHandler",
    "llava-1.6": "Llava16ChatHandler",
    "minicpm-v-2.6": "MiniCPMv26ChatHandler",
    "moondream": "MoondreamChatHandler",
    "nanollava": "NanoLlavaChatHandler",
    "llama-3-vision-alpha": "Llama3VisionAlphaChatHandler",
    "obsidian": "ObsidianChatHandler",
}
"""``chat_handler`` values of a vision role -> classes of ``llama_cpp.llama_chat_format``.

``mtmd`` (the default) formats with the chat template stored in the model's GGUF and lets libmtmd add the
model's own image markers; it serves Gemma-3 and Qwen2.5-VL. The Llava15-family handlers carry a hard-coded
template instead. A class name of that module is accepted too.
"""

_GGML_LEVELS = {1: logging.DEBUG, 2: logging.INFO, 3: logging.WARNING, 4: logging.ERROR}
_GGML_CONT = 5


class VisionOverflow(ModelError):
    """A vision call ran out of context or memory: send fewer (or smaller) images per request.

    ``images`` is how many images the failing request carried; ``partial`` holds any text generated before
    the context was exhausted.
    """

    default_title = "Vision batch too large"

    def __init__(self, message: str, images: int = 0, partial: str = "", title: str | None = None) -> None:
        super().__init__(message, title)
        self.images = images
        self.partial = partial


# --- native logging --------------------------------------------------------------------------------------


class _NativeLog:
    """Assembles llama.cpp's log fragments into lines and forwards them to ``engine.llama``.

    While a ``capture()`` is open, warning and error lines are also collected, so a failed load can say
    what llama.cpp reported.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._buffer = ""
        self._level = logging.INFO
        self._captures: list[list[str]] = []

    def __call__(self, level: int, text: bytes | None, user_data: Any) -> None:
        piece = text.decode("utf-8", "replace") if text else ""
        lines: list[tuple[int, str]] = []
        with self._lock:
            if level != _GGML_CONT:
                if self._buffer:
                    lines.append((self._level, self._buffer))
                    self._buffer = ""
                self._level = _GGML_LEVELS.get(level, logging.INFO)
            self._buffer += piece
            while "\n" in self._buffer:
                line, self._buffer = self._buffer.split("\n", 1)
                lines.append((self._level, line))
            for lvl, line in lines:
                if lvl >= logging.WARNING and line.strip():
                    for captured in self._captures:
                        captured.append(line.strip())
        for lvl, line in lines:
            if line.strip():
                log.log(lvl, "%s", line.rstrip())

    @contextlib.contextmanager
    def capture(self) -> Iterator[list[str]]:
        """Collect warning and error lines logged while the block runs."""
        captured: list[str] = []
        with self._lock:
            self._captures.append(captured)
        try:
            yield captured
        finally:
            with self._lock:
                self._captures.remove(captured)


_native_log = _NativeLog()
_native_callback: Any = None
"""The ctypes callback handed to llama.cpp; kept here so it is never garbage-collected."""
_install_lock = threading.Lock()
_load_lock = threading.Lock()
"""Serialises model loads (memory peaks, and the temporary ``sys.stderr`` swap while loading)."""


def install_llama_logging() -> None:
    """Route llama.cpp, ggml and libmtmd logging into the ``engine.llama`` logger (idempotent).

    llama-cpp-python installs its own callback on import (printing to ``sys.stderr``); this replaces it.
    """
    global _native_callback
    with _install_lock:
        if _native_callback is not None:
            return
        import llama_cpp

        callback = llama_cpp.llama_log_callback(_native_log)
        llama_cpp.llama_log_set(callback, ctypes.c_void_p(0))
        try:
            from llama_cpp import mtmd_cpp

            mtmd_cpp.mtmd_helper_log_set(callback, ctypes.c_void_p(0))
        except (ImportError, OSError, AttributeError) as exc:  # a build without libmtmd still serves text
            log.debug("libmtmd logging not routed: %s", exc)
        _native_callback = callback


class _LogWriter(io.TextIOBase):
    """A text stream that sends whole lines to ``engine.llama`` at DEBUG (stands in for ``sys.stderr``)."""

    def __init__(self) -> None:
        super().__init__()
        self._buffer = ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._buffer += text
        while "\n" in self._buffer:
            line, self._buffer = self._buffer.split("\n", 1)
            if line.strip():
                log.debug("%s", line[:2000])
        return len(text)

    def flush(self) -> None:
        if self._buffer.strip():
            log.debug("%s", self._buffer[:2000])
        self._buffer = ""


@contextlib.contextmanager
def _loading() -> Iterator[list[str]]:
    """One model load at a time; llama-cpp-python's verbose prints go to the log; problems are captured."""
    install_llama_logging()
    writer = _LogWriter()
    with _load_lock, _native_log.capture() as problems, contextlib.redirect_stderr(writer):
        try:
            yield problems
        finally:
            writer.flush()


def _load_error(
    what: str, path: Path, exc: BaseException, problems: Sequence[str], hint: str = ""
) -> ModelError:
    said = "; ".join(dict.fromkeys(problems))[-600:]
    if any(word in said.lower() for word in ("alloc", "memory", "out of mem")) or isinstance(
        exc, MemoryError
    ):
        hint = "Lower n_ctx or n_gpu_layers for this role in models.toml, or use a smaller quantization."
    hint = hint or (
        "Check that it is a complete GGUF file of an architecture llama-cpp-python 0.3.36 supports "
        "(copy it again, set its sha256 in models.toml), or point `path` in models.toml at another file."
    )
    return ModelError(
        f"llama.cpp could not load the {what} {path}: {exc}."
        + (f" llama.cpp said: {said}." if said else "")
        + f" {hint}",
        title="Model failed to load",
    )


def _llama_kwargs(cfg: RoleConfig, provider: ModelProvider, n_ctx_default: int) -> dict[str, Any]:
    kwargs = {k: v for k, v in cfg.options.items() if k in LLAMA_OPTIONS}
    kwargs.setdefault("n_ctx", n_ctx_default)
    kwargs.setdefault("n_gpu_layers", 0)
    kwargs.setdefault("n_threads", provider.budget.llm)
    kwargs.setdefault("n_threads_batch", kwargs["n_threads"])
    return kwargs


def load_llama(path: Path, what: str = "model", **kwargs: Any) -> Llama:
    """Build a ``llama_cpp.Llama`` without touching stdout/stderr descriptors; failures become ModelError.

    ``kwargs`` go to ``Llama`` (``n_ctx``, ``n_threads``, ``n_gpu_layers``, ``chat_format``, ...).
    """
    path = Path(path)
    if not path.is_file():
        raise ModelError(
            f"The {what} file {path} does not exist. Put the GGUF there or fix its path in models.toml.",
            title="Model file missing",
        )
    with _loading() as problems:
        from llama_cpp import Llama

        try:
            llama = Llama(model_path=str(path), verbose=True, **kwargs)
        except (ValueError, RuntimeError, OSError, MemoryError) as exc:
            raise _load_error(what, path, exc, problems) from exc
    # Only the constructor needs verbose=True (False would dup2 stdout/stderr to /dev/null while loading);
    # afterwards it would merely print cache and timing chatter to sys.stderr.
    llama.verbose = False
    return llama


# --- text LLM --------------------------------------------------------------------------------------------


class LlamaLLM:
    """A GGUF chat model run by llama.cpp; implements the ``LLM`` protocol.

    Thread-safe: one generation runs at a time and other callers wait for it. ``count_tokens`` does not
    wait (tokenizing only reads the vocabulary).
    """

    def __init__(self, llama: Llama, name: str, repeat_penalty: float = 1.0) -> None:
        self._llama: Llama | None = llama
        self.name = name
        self.context_tokens = int(llama.n_ctx())
        self.repeat_penalty = repeat_penalty
        """1.0 (off) by default: answers copy figures from the context, which a penalty would distort."""
        self.lock = threading.RLock()
        """Held while the model runs; hold it to use ``llama`` directly."""

    @classmethod
    def load(
        cls, path: Path, name: str | None = None, repeat_penalty: float = 1.0, **kwargs: Any
    ) -> LlamaLLM:
        """Load a GGUF file; ``kwargs`` go to ``llama_cpp.Llama`` (n_ctx, n_threads, n_gpu_layers, ...)."""
        llama = load_llama(path, "text LLM", **kwargs)
        return cls(llama, name or Path(path).stem, repeat_penalty=repeat_penalty)

    @property
    def llama(self) -> Llama:
        """The underlying ``llama_cpp.Llama`` (hold ``lock`` while using it)."""
        if self._llama is None:
            raise ModelError(f"The model {self.name} was closed.", title="Model closed")
        return self._llama

    def chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int = 256,
        temperature: float = 0.0,
        on_token: Callable[[str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Generation:
        """Stream a reply; stops within a token (or a graph step of the prompt) once ``cancelled()`` is true.

        A cancelled call returns what was generated so far. ``completion_tokens`` counts the reply's tokens.
        """
        payload = [{"role": m.role, "content": m.content} for m in messages]
        pieces: list[str] = []
        prompt_tokens = 0
        with self.lock:
            llama = self.llama
            if cancelled is not None and cancelled():
                return Generation(text="")
            with self._abort_while_prompting(llama, cancelled) as prompt_done:
                stream: Any = None
                try:
                    stream = llama.create_chat_completion(
                        messages=payload,  # type: ignore[arg-type]
                        max_tokens=max_tokens,
                        temperature=temperature,
                        repeat_penalty=self.repeat_penalty,
                        stream=True,
                    )
                    for chunk in stream:
                        if not prompt_tokens:
                            prompt_tokens = int(llama.n_tokens)
                            prompt_done()
                        delta = chunk["choices"][0]["delta"].get("content")
                        if delta:
                            pieces.append(delta)
                            if on_token is not None:
                                on_token(delta)
                        if cancelled is not None and cancelled():
                            break
                except RuntimeError as exc:
                    if "llama_decode returned" not in str(exc):
                        raise
                    llama.reset()
                    # 2 means the abort callback fired: a cancel during the prompt, not a failure.
                    if not (cancelled is not None and cancelled()):
                        raise ModelError(
                            f"{self.name} failed while generating: {exc}. If this repeats, lower n_ctx or "
                            "n_gpu_layers in models.toml.",
                            title="Generation failed",
                        ) from exc
                except ValueError as exc:
                    if "exceed context window" not in str(exc):
                        raise
                    raise ModelError(
                        f"The prompt does not fit {self.name}'s context of {self.context_tokens} tokens "
                        f"({exc}). Send less context, or raise n_ctx in models.toml.",
                        title="Prompt too long",
                    ) from exc
                finally:
                    if stream is not None and hasattr(stream, "close"):
                        stream.close()
        text = "".join(pieces)
        return Generation(text=text, prompt_tokens=prompt_tokens, completion_tokens=self.count_tokens(text))

    @contextlib.contextmanager
    def _abort_while_prompting(
        self, llama: Llama, cancelled: Callable[[], bool] | None
    ) -> Iterator[Callable[[], None]]:
        """Let ``cancelled`` abort llama_decode during the (long) prompt evaluation.

        The callback runs once per graph node, so it is removed as soon as the first token arrives; from then
        on the streaming loop checks ``cancelled`` per token.
        """
        import llama_cpp

        if cancelled is None:
            yield lambda: None
            return
        ctx = llama._ctx.ctx

        def should_abort(_data: Any) -> bool:
            try:
                return bool(cancelled())
            except Exception:  # an exception cannot cross into C; log it and keep generating
                log.exception("cancelled() raised inside the llama.cpp abort callback")
                return False

        callback = llama_cpp.ggml_abort_callback(should_abort)
        active = [True]

        def clear() -> None:
            if active[0]:
                llama_cpp.llama_set_abort_callback(ctx, llama_cpp.ggml_abort_callback(), None)
                active[0] = False

        llama_cpp.llama_set_abort_callback(ctx, callback, None)
        try:
            yield clear
        finally:
            clear()

    def count_tokens(self, text: str) -> int:
        """Tokens the model's tokenizer makes of ``text`` (no BOS; special tokens as plain text)."""
        return len(self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def close(self) -> None:
        """Free the model (later calls raise ModelError)."""
        with self.lock:
            if self._llama is not None:
                self._llama.close()
                self._llama = None


def build_llm(cfg: RoleConfig, path: Path | None, provider: ModelProvider) -> LlamaLLM:
    """models.toml ``[llm] backend = "llama-cpp"``: options n_ctx (else ``Settings.llm_context``),
    n_gpu_layers, n_threads / n_threads_batch (else ``Settings.n_threads``), chat_format, repeat_penalty."""
    if path is None:
        raise ModelError(f"{cfg.source}: the llama-cpp backend needs a GGUF `path` or `packaged` model.")
    kwargs = _llama_kwargs(cfg, provider, provider.settings.llm_context)
    return LlamaLLM.load(
        path,
        name=cfg.packaged or path.stem,
        repeat_penalty=float(cfg.option("repeat_penalty", 1.0)),
        **kwargs,
    )


# --- vision ------------------------------------------------------------------------------------------------


class _NoRedirectHandler:
    """Overrides the two methods of llama-cpp-python's MTMD-based handlers that wrap native calls in
    ``suppress_stdout_stderr(disable=self.verbose)``, so ``verbose`` can stay False (no prompt echo on
    stderr) without the process's stdout/stderr descriptors ever being redirected. Mixed in before the
    handler class; written against llama-cpp-python 0.3.36."""

    mtmd_ctx: Any
    clip_model_path: str
    verbose: bool
    _mtmd_cpp: Any

    def _init_mtmd_context(self, llama_model: Llama) -> None:
        import llama_cpp

        self.verbose = False
        if self.mtmd_ctx is not None:
            return
        mtmd = self._mtmd_cpp
        params = mtmd.mtmd_context_params_default()
        params.use_gpu = bool(getattr(self, "use_gpu", True))
        params.print_timings = True  # goes to the engine.llama log
        params.n_threads = llama_model.n_threads
        flash = llama_model.context_params.flash_attn_type == llama_cpp.LLAMA_FLASH_ATTN_TYPE_ENABLED
        params.flash_attn_type = (
            llama_cpp.LLAMA_FLASH_ATTN_TYPE_ENABLED if flash else llama_cpp.LLAMA_FLASH_ATTN_TYPE_DISABLED
        )
        ctx = mtmd.mtmd_init_from_file(self.clip_model_path.encode(), llama_model.model, params)
        if ctx is None:
            raise ValueError(f"Failed to load mtmd context from: {self.clip_model_path}")
        self.mtmd_ctx = ctx
        if not mtmd.mtmd_support_vision(ctx):
            raise ValueError("the projector has no vision encoder")

        def free() -> None:
            if self.mtmd_ctx is not None:
                mtmd.mtmd_free(self.mtmd_ctx)
                self.mtmd_ctx = None

        llama_model._stack.callback(free)

    def _create_bitmap_from_bytes(self, image_bytes: bytes) -> Any:
        if self.mtmd_ctx is None:
            raise ValueError("mtmd context not initialized")
        buffer = (ctypes.c_uint8 * len(image_bytes)).from_buffer(bytearray(image_bytes))
        bitmap = self._mtmd_cpp.mtmd_helper_bitmap_init_from_buf(
            self.mtmd_ctx, buffer, len(image_bytes), False
        )
        if bitmap is None:
            raise ValueError("Failed to create bitmap from image bytes")
        return bitmap


def handler_class(name: str) -> type:
    """The chat handler class for a ``chat_handler`` option (see ``CHAT_HANDLERS``), made fd-safe."""
    from llama_cpp import llama_chat_format as lcf

    cls_name = CHAT_HANDLERS.get(name.lower(), name)
    base = getattr(lcf, cls_name, None)
    bases = tuple(
        b for b in (getattr(lcf, "MTMDChatHandler", None), getattr(lcf, "Llava15ChatHandler", None)) if b
    )
    if not (isinstance(base, type) and issubclass(base, bases)):
        raise ConfigError(
            f"chat_handler = {name!r} is not a multimodal handler of llama-cpp-python. Use one of "
            f"{', '.join(sorted(CHAT_HANDLERS))} (or a class name from llama_cpp.llama_chat_format).",
            title="Unknown chat handler",
        )
    return type(f"NoRedirect{base.__name__}", (_NoRedirectHandler, base), {})


def image_data_uri(path: Path) -> str:
    """A ``data:image/png;base64,...`` URI of an image file (converted to PNG unless it already is one)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise ModelError(f"Cannot read the image {path} for the vision model: {exc.strerror}.") from exc
    if not raw.startswith(b"\x89PNG\r\n\x1a\n"):
        from PIL import Image, UnidentifiedImageError

        try:
            with Image.open(io.BytesIO(raw)) as img:
                out = io.BytesIO()
                img.convert("RGB").save(out, format="PNG")
                raw = out.getvalue()
        except (UnidentifiedImageError, OSError) as exc:
            raise ModelError(f"The image {path} is not a readable image: {exc}.", title="Bad image") from exc
    return "data:image/png;base64," + base64.b64encode(raw).decode("ascii")


def vision_messages(req: VisionRequest) -> list[dict[str, Any]]:
    """The chat messages of a vision request, as the OpenAI API and llama-cpp-python's chat handlers take them:
    each image named by its file name ("Image 2: p12_table3.png") before it, then the prompt."""
    content: list[dict[str, Any]] = []
    for i, image in enumerate(req.images, 1):
        content.append({"type": "text", "text": f"Image {i}: {Path(image).name}\n"})
        content.append({"type": "image_url", "image_url": {"url": image_data_uri(Path(image))}})
    content.append({"type": "text", "text": req.prompt})
    messages: list[dict[str, Any]] = []
    if req.system:
        messages.append({"role": "system", "content": req.system})
    messages.append({"role": "user", "content": content})
    return messages


def vision_reply(out: dict[str, Any], req: VisionRequest, name: str, context_tokens: int) -> str:
    """The text of a chat completion answering a vision request; ``VisionOverflow`` (with the partial text) when
    the reply was cut by the context before ``max_tokens``, so the caller can send fewer images at once."""
    choice = (out.get("choices") or [{}])[0]
    text = (choice.get("message") or {}).get("content") or ""
    usage = out.get("usage") or {}
    completion = int(usage.get("completion_tokens", 0))
    if choice.get("finish_reason") == "length" and completion < req.max_tokens:
        n = len(req.images)
        raise VisionOverflow(
            f"{name} ran out of its {context_tokens}-token context after {completion} tokens of the reply to {n} "
            f"image(s) (prompt {usage.get('prompt_tokens', '?')} tokens). Send fewer images per request "
            "(Settings.vision_batch), or raise n_ctx of the vision role in models.toml.",
            images=n,
            partial=text,
        )
    return str(text)


class LlamaVision:
    """A vision-language GGUF and its mmproj run through libmtmd; implements the ``VisionModel`` protocol.

    Each request becomes one user turn: for every image a text label ``Image i: <file name>`` followed by
    the image, then the request's prompt. Requests run one after another under the model's lock, which is
    the text LLM's lock when both roles use the same GGUF (then one copy of the weights serves both).
    """

    def __init__(
        self,
        llama: Llama,
        handler: Any,
        name: str,
        lock: threading.RLock | None = None,
        owns_model: bool = True,
        temperature: float = 0.0,
        repeat_penalty: float = 1.0,
    ) -> None:
        self._llama: Llama | None = llama
        self._handler = handler
        self.name = name
        self.lock = lock or threading.RLock()
        self.owns_model = owns_model
        self.temperature = temperature
        self.repeat_penalty = repeat_penalty
        self.context_tokens = int(llama.n_ctx())

    @classmethod
    def load(
        cls,
        path: Path,
        mmproj: Path,
        chat_handler: str = "mtmd",
        name: str | None = None,
        use_gpu: bool = True,
        shared: LlamaLLM | None = None,
        temperature: float = 0.0,
        **kwargs: Any,
    ) -> LlamaVision:
        """Load the model (or reuse ``shared``'s) and its projector; ``kwargs`` go to ``llama_cpp.Llama``."""
        mmproj = Path(mmproj)
        if not mmproj.is_file():
            raise ModelError(
                f"The vision projector (mmproj) {mmproj} does not exist. Put it there or fix `mmproj` in "
                "models.toml.",
                title="Model file missing",
            )
        cls_handler = handler_class(chat_handler)
        if "MTMDChatHandler" in [c.__name__ for c in cls_handler.__mro__]:
            handler = cls_handler(clip_model_path=str(mmproj), verbose=False, use_gpu=use_gpu)
        else:
            handler = cls_handler(clip_model_path=str(mmproj), verbose=False)
        if shared is not None:
            llama, lock, owns = shared.llama, shared.lock, False
        else:
            llama, lock, owns = load_llama(path, "vision model", **kwargs), threading.RLock(), True
        with lock, _loading() as problems:
            try:
                handler._init_mtmd_context(llama)
            except (ValueError, RuntimeError, OSError, MemoryError) as exc:
                if owns:
                    llama.close()
                raise _load_error(
                    f"vision projector (mmproj) for {Path(path).name}",
                    mmproj,
                    exc,
                    problems,
                    hint="Check that `mmproj` in models.toml is the projector GGUF released with this "
                    "very model (same family and size), complete and readable.",
                ) from exc
        return cls(
            llama, handler, name or Path(path).stem, lock=lock, owns_model=owns, temperature=temperature
        )

    def describe(self, requests: Sequence[VisionRequest]) -> list[str]:
        """One raw reply per request. Raises VisionOverflow when a request needs more context or memory."""
        return [self._describe_one(req) for req in requests]

    def _describe_one(self, req: VisionRequest) -> str:
        messages = vision_messages(req)
        n = len(req.images)
        with self.lock:
            if self._llama is None:
                raise ModelError(f"The vision model {self.name} was closed.", title="Model closed")
            llama = self._llama
            with _native_log.capture() as problems:
                try:
                    out = self._handler(
                        llama=llama,
                        messages=messages,
                        max_tokens=req.max_tokens,
                        temperature=self.temperature,
                        repeat_penalty=self.repeat_penalty,
                        stream=False,
                    )
                except MemoryError as exc:
                    raise self._overflow(n, f"out of memory ({exc})") from exc
                except ValueError as exc:
                    msg = str(exc)
                    if "exceed" in msg or "Failed to evaluate chunk" in msg:
                        raise self._overflow(n, msg, problems) from exc
                    raise ModelError(
                        f"{self.name} could not read the images {[Path(p).name for p in req.images]}: {msg}.",
                        title="Vision model failed",
                    ) from exc
                except RuntimeError as exc:
                    if any(f"returned {code}" in str(exc) for code in (1, -2, -3)):
                        raise self._overflow(n, str(exc), problems) from exc
                    raise ModelError(f"{self.name} failed: {exc}.", title="Vision model failed") from exc
                finally:
                    # Image positions leave stale ids in llama.input_ids; forget them so a text prompt
                    # that follows (the LLM may share this model) is never matched against them.
                    llama.reset()
        return vision_reply(out, req, self.name, self.context_tokens)

    def _overflow(self, n: int, detail: str, problems: Sequence[str] = ()) -> VisionOverflow:
        said = "; ".join(dict.fromkeys(problems))[-300:]
        return VisionOverflow(
            f"{n} image(s) do not fit {self.name} at once ({detail}"
            + (f"; llama.cpp said: {said}" if said else "")
            + "). Send fewer images per request (Settings.vision_batch), or raise n_ctx of the vision role "
            "in models.toml.",
            images=n,
        )

    def close(self) -> None:
        """Free the model and projector (a model shared with the LLM is left to the LLM)."""
        with self.lock:
            if self._llama is not None and self.owns_model:
                self._llama.close()
            self._llama = None


def build_vision(cfg: RoleConfig, path: Path | None, provider: ModelProvider) -> LlamaVision:
    """models.toml ``[vision] backend = "llama-cpp-mtmd"``: ``path`` + ``mmproj``; options chat_handler
    (default ``mtmd``), n_ctx (default 8192), n_gpu_layers, n_threads, share_llm (default true: reuse the
    text LLM's loaded model when ``[llm]`` names the same GGUF)."""
    if path is None:
        raise ModelError(f"{cfg.source}: the vision backend needs a GGUF `path`.")
    mmproj = provider.resolve_mmproj(cfg.role)
    shared: LlamaLLM | None = None
    if cfg.option("share_llm", True) and provider.role("llm").backend == "llama-cpp":
        llm_path = provider.resolve_path("llm")
        if llm_path is not None and llm_path.resolve() == path.resolve():
            llm = provider.llm()
            if isinstance(llm, LlamaLLM):
                shared = llm
    kwargs = _llama_kwargs(cfg, provider, 8192)
    return LlamaVision.load(
        path,
        mmproj,
        chat_handler=str(cfg.option("chat_handler", "mtmd")),
        name=cfg.packaged or path.stem,
        use_gpu=bool(cfg.option("use_gpu", kwargs.get("n_gpu_layers", 0) != 0)),
        shared=shared,
        temperature=float(cfg.option("temperature", 0.0)),
        **kwargs,
    )

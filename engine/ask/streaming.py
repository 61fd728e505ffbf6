"""The model's answer streamed: ``llm.chat`` runs in a thread of its own and its pieces come out as events."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Generator
from typing import Any

from engine.errors import AnswerError, EngineError
from engine.models.protocols import LLM, ChatMessage, Generation
from engine.types import AnswerEvent, TokenStreamed


def stream_chat(llm: LLM, max_tokens: int, messages: list[ChatMessage],
                cancelled: Callable[[], bool]) -> Generator[AnswerEvent, None, Generation]:
    """Run the model in a thread; yield its pieces as ``TokenStreamed`` events as they come; return the finished
    Generation (greedy, at most ``max_tokens``)."""
    pieces: queue.Queue[tuple[str, Any]] = queue.Queue()

    def run() -> None:
        try:
            gen = llm.chat(messages, max_tokens=max_tokens, temperature=0.0,
                           on_token=lambda t: pieces.put(("token", t)), cancelled=cancelled)
            pieces.put(("done", gen))
        except BaseException as exc:  # handed to the consumer thread, which re-raises it
            pieces.put(("error", exc))

    worker = threading.Thread(target=run, name="mfr-answer", daemon=True)
    worker.start()
    while True:
        kind, payload = pieces.get()
        if kind == "token":
            yield TokenStreamed(payload)
        elif kind == "done":
            worker.join()
            assert isinstance(payload, Generation)
            return payload
        else:
            worker.join()
            if isinstance(payload, EngineError):
                raise payload
            raise AnswerError(f"The model failed while answering: {payload}", title="Generation failed")

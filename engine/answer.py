"""Answers from evidence: a prompt that forbids guessing, [n] citations mapped to evidence, number checks."""

from __future__ import annotations

import json
import queue
import re
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from engine.errors import AnswerError, Cancelled, EngineError
from engine.models.protocols import ChatMessage
from engine.models.provider import ModelProvider
from engine.settings import Settings
from engine.types import (
    Answer,
    AnswerEvent,
    AnswerFinished,
    CancelCheck,
    Check,
    Citation,
    Evidence,
    Retrieval,
    RetrievalDone,
    TokenStreamed,
    never_cancelled,
)

SYSTEM_PROMPT = (
    "You are a careful financial analyst. Answer the question using ONLY the numbered sources. "
    "Cite every fact with its source number in square brackets, like [2]. Quote numbers exactly as the "
    "sources give them, with units. If the sources do not contain the answer, reply exactly: "
    "\"Insufficient information: \" followed by what is missing. Never guess or use outside knowledge. "
    "Be brief: one to three sentences."
)

REFUSAL = re.compile(
    r"insufficient information|not (?:contain|provide|include|mention)|cannot (?:be )?(?:determine|answer|find)|"
    r"no information|not enough information|unable to (?:determine|find|answer)",
    re.I,
)
_NUM = re.compile(r"\(?-?\$?\s?\d[\d,]*(?:\.\d+)?\)?\s?%?")


def evidence_block(n: int, e: Evidence, region_json: dict[str, Any] | None = None) -> str:
    head = f"[{n}] {e.doc}, page {e.page}, {e.modality}"
    body = e.text.strip()
    if region_json:
        body += "\nTable JSON: " + json.dumps(region_json, separators=(",", ":"))[:3000]
    return f"{head}\n{body}"


def normalise_number(raw: str) -> float | None:
    s = raw.strip()
    neg = s.startswith("(") and s.endswith(")") or s.startswith("-") or s.startswith("(-")
    digits = re.sub(r"[^\d.]", "", s)
    if not digits or digits == ".":
        return None
    try:
        v = float(digits)
    except ValueError:
        return None
    return -v if neg else v


def numbers_in(text: str) -> list[tuple[str, float]]:
    out = []
    for m in _NUM.finditer(text):
        raw = m.group(0).strip()
        v = normalise_number(raw)
        if v is None:
            continue
        out.append((raw, v))
    return out


def check_numbers(text: str, cited: Sequence[Evidence]) -> list[Check]:
    """Every number in the answer looked up in the cited evidence (sign and thousands separators ignored)."""
    pool: list[tuple[float, Evidence]] = []
    for e in cited:
        for _, v in numbers_in(e.text):
            pool.append((abs(v), e))
    checks: list[Check] = []
    clean = re.sub(r"\[\d+\]", " ", text)
    for raw, v in numbers_in(clean):
        if abs(v) < 10 and "." not in raw and "%" not in raw:
            continue  # small integers ("3 segments", list numbering) are not figures to verify
        hit = next((e for pv, e in pool if abs(pv - abs(v)) <= 1e-6 * max(1.0, abs(v))), None)
        checks.append(
            Check(
                value=raw,
                found=hit is not None,
                where=f"{hit.doc} p.{hit.page}" if hit else "",
                note="" if hit else "not found in the cited evidence",
            )
        )
    return checks


class Answerer:
    """Turns a question and a retriever into a stream of answer events."""

    def __init__(self, settings: Settings, models: ModelProvider) -> None:
        self.settings = settings
        self.models = models

    def build_messages(self, question: str, evidence: Sequence[Evidence], blocks: Sequence[str]) -> list[ChatMessage]:
        context = "\n\n".join(blocks)
        user = f"Sources:\n{context}\n\nQuestion: {question}\nAnswer (cite sources like [1]):"
        return [ChatMessage("system", SYSTEM_PROMPT), ChatMessage("user", user)]

    def answer(
        self,
        question: str,
        retriever: Any,
        scope: Sequence[str] | None = None,
        cancelled: CancelCheck | None = None,
    ) -> Iterator[AnswerEvent]:
        cancelled = cancelled or never_cancelled
        t0 = time.perf_counter()
        retrieval: Retrieval = retriever.retrieve(question, scope=scope)
        yield RetrievalDone(retrieval)
        t_ret = time.perf_counter()
        llm = self.models.llm()
        store = retriever.store
        blocks: list[str] = []
        used: list[Evidence] = []
        budget = self.settings.context_tokens
        spent = 0
        for e in retrieval.evidence:
            region = store.region(e.region_id) if e.region_id else None
            block = evidence_block(len(used) + 1, e, region.table if region else None)
            cost = llm.count_tokens(block)
            if used and spent + cost > budget:
                break
            blocks.append(block)
            used.append(e)
            spent += cost
        messages = self.build_messages(question, used, blocks)
        pieces: queue.Queue[tuple[str, Any]] = queue.Queue()

        def run() -> None:
            try:
                gen = llm.chat(
                    messages,
                    max_tokens=self.settings.max_answer_tokens,
                    temperature=0.0,
                    on_token=lambda t: pieces.put(("token", t)),
                    cancelled=cancelled,
                )
                pieces.put(("done", gen))
            except BaseException as exc:  # handed to the consumer thread, which re-raises it
                pieces.put(("error", exc))

        worker = threading.Thread(target=run, name="mfr-answer", daemon=True)
        worker.start()
        gen_result: Any = None
        while True:
            kind, payload = pieces.get()
            if kind == "token":
                yield TokenStreamed(payload)
            elif kind == "done":
                gen_result = payload
                break
            else:
                if isinstance(payload, EngineError):
                    raise payload
                raise AnswerError(f"The model failed while answering: {payload}", title="Generation failed")
        worker.join()
        if cancelled():
            raise Cancelled("Answer cancelled.")
        text = gen_result.text.strip()
        yield AnswerFinished(self.finish(question, text, retrieval, used, t0, t_ret, gen_result.completion_tokens))

    def finish(
        self,
        question: str,
        text: str,
        retrieval: Retrieval,
        used: Sequence[Evidence],
        t0: float,
        t_ret: float,
        tokens: int,
    ) -> Answer:
        markers = sorted({int(m) for m in re.findall(r"\[(\d+)\]", text)})
        citations = [
            Citation(marker=n, doc=used[n - 1].doc, page=used[n - 1].page, modality=used[n - 1].modality,
                     region_id=used[n - 1].region_id, chunk_id=used[n - 1].chunk_id)
            for n in markers
            if 1 <= n <= len(used)
        ]
        refused = bool(REFUSAL.search(text)) or not used
        cited = [used[c.marker - 1] for c in citations] or list(used)
        checks = [] if refused else check_numbers(text, cited)
        searched = {
            "tier": retrieval.tier,
            "thresholds": retrieval.thresholds,
            "documents": sorted({e.doc for e in retrieval.evidence}) or retrieval.scope,
            "scope": retrieval.scope,
            "evidence": len(retrieval.evidence),
        }
        return Answer(
            question=question,
            text=text,
            evidence=list(retrieval.evidence),
            tier=retrieval.tier,
            citations=citations,
            checks=checks,
            refused=refused,
            searched=searched if refused else {},
            timings={**retrieval.timings, "retrieve": t_ret - t0, "generate": time.perf_counter() - t_ret},
            tokens=tokens,
        )

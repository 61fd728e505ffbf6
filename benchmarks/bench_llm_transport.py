"""Answer latency through the model server (``backend = "llama-server"``) vs the same GGUF in-process
(``llama-cpp``), on the same library and questions, alternating the order per question so machine load
falls on both alike. Retrieval, prompts and greedy decoding are the same; the difference is the transport.

    MFR_DATA_DIR=LIB python benchmarks/bench_llm_transport.py ../shared/data/eval/dev.jsonl --limit 5

Prints one line per answer (with llama.cpp's prompt and generation rates of that answer) and a JSON summary
(p50 per backend); writes nothing to the library (answers are not saved). On Linux with autogroup scheduling a
new session is its own CPU group, as the server child is: run it with ``setsid`` for a fair comparison.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("qa", type=Path, help="a QA .jsonl (dev.jsonl)")
    parser.add_argument("--source", default="financebench", help="only questions of this source")
    parser.add_argument("--limit", type=int, default=5)
    parser.add_argument("--skip", type=int, default=0,
                        help="skip the first N questions of the source whose filing is in the library")
    parser.add_argument("--out", type=Path, help="also write the summary JSON here")
    parser.add_argument("--chat-reps", type=int, default=4, help="model-call-only repetitions per backend")
    args = parser.parse_args()

    from engine import Engine, Settings
    from engine.models.llama_backend import LlamaLLM
    from engine.models.provider import ModelProvider

    perf: list[str] = []

    class Perf(logging.Handler):
        """llama.cpp's timing lines of the in-process model (the server's are in its log)."""

        def emit(self, record: logging.LogRecord) -> None:
            if "eval time" in record.getMessage():
                perf.append(record.getMessage())

    logging.getLogger("engine.llama").addHandler(Perf())
    logging.getLogger("engine.llama").setLevel(logging.INFO)
    records = [json.loads(line) for line in args.qa.read_text().splitlines() if line.strip()]
    records = [r for r in records if r.get("source") == args.source]
    settings = Settings()
    served = ModelProvider(settings)  # the shipped default profile: llm in a llama_cpp.server child
    llm_cfg = served.role("llm")
    assert llm_cfg.backend == "llama-server", llm_cfg.backend
    t0 = time.perf_counter()
    server_llm = served.llm()
    load_server = time.perf_counter() - t0
    path = served.resolve_path("llm")
    assert path is not None
    t0 = time.perf_counter()
    inproc_llm = LlamaLLM.load(path, name=llm_cfg.packaged or path.stem, n_ctx=int(llm_cfg.option("n_ctx", 4096)),
                               n_threads=served.budget.llm, n_threads_batch=served.budget.llm)
    load_inproc = time.perf_counter() - t0
    shared = {role: served.get(role) for role in ("embedder", "reranker", "vision", "detector", "ocr")}
    engines = {
        "llama-server": Engine(settings, models=served),
        "in-process": Engine(settings, models=ModelProvider(settings, overrides={**shared, "llm": inproc_llm})),
    }
    in_library = {d.name for d in engines["llama-server"].documents()}
    records = [r for r in records if Path(r["docs"][0]).stem in in_library][args.skip: args.skip + args.limit]
    rows: list[dict[str, Any]] = []
    for i, rec in enumerate(records):
        doc = Path(rec["docs"][0]).stem
        order = list(engines) if i % 2 == 0 else list(reversed(engines))
        for backend in order:
            t0 = time.perf_counter()
            log_lines = len(_server_perf(server_llm))
            perf.clear()
            answer = engines[backend].ask(rec["question"], scope=[doc], save=False)
            seconds = time.perf_counter() - t0
            timing = perf if backend == "in-process" else _server_perf(server_llm)[log_lines:]
            row = {"id": rec["id"], "doc": doc, "backend": backend, "seconds": round(seconds, 2),
                   "tokens": answer.tokens, "timings": answer.timings, "llama_perf": [_short(t) for t in timing],
                   "text": answer.text[:160]}
            rows.append(row)
            print(json.dumps(row), flush=True)
    chat_rows = _chat_only(server_llm, inproc_llm, args.chat_reps)
    summary: dict[str, Any] = {
        "questions": len(records),
        "load_seconds": {"llama-server": round(load_server, 2), "in-process": round(load_inproc, 2)},
        "where": server_llm.where(),
    }
    for backend in engines:
        times = [r["seconds"] for r in rows if r["backend"] == backend]
        summary[backend] = {"p50_s": round(statistics.median(times), 2), "mean_s": round(statistics.mean(times), 2),
                            "seconds": times}
    for backend in ("llama-server", "in-process"):
        mine = [r for r in chat_rows if r["backend"] == backend]
        if mine:
            summary[f"chat_only_{backend}"] = {
                k: round(statistics.median(r[k] for r in mine), 2) for k in ("seconds", "first_token_s", "gen_tok_s")}
    same = sum(1 for a, b in zip(rows[0::2], rows[1::2], strict=True) if a["text"] == b["text"])
    summary["same_answer_text"] = f"{same}/{len(records)}"
    print(json.dumps(summary, indent=1))
    if args.out:
        args.out.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))
    for engine in engines.values():
        engine.close()
    inproc_llm.close()
    return 0


def _chat_only(server_llm: Any, inproc_llm: Any, reps: int) -> list[dict[str, Any]]:
    """The model call alone, without the answer pipeline: a ~1,000-token filing-like prompt (a fresh number
    first, so neither backend reuses a cached prefix), 48 tokens, alternating backends."""
    from engine.models.protocols import ChatMessage

    body = ("Net sales were $177,866 million in 2017 and $135,987 million in 2016; operating income was "
            "$4,106 million and $4,186 million. ") * 28
    out: list[dict[str, Any]] = []
    for i in range(reps):
        pair = [("llama-server", server_llm), ("in-process", inproc_llm)]
        for backend, llm in pair if i % 2 == 0 else reversed(pair):
            stamps: list[float] = []
            msg = [ChatMessage("user", f"Report {time.time_ns()}.\n{body}\nWhat was the 2017 operating margin?")]
            t0 = time.perf_counter()
            llm.chat(msg, max_tokens=48, on_token=lambda _p, st=stamps: st.append(time.perf_counter()))
            row = {"backend": backend, "seconds": time.perf_counter() - t0,
                   "first_token_s": stamps[0] - t0 if stamps else float("nan"),
                   "gen_tok_s": (len(stamps) - 1) / (stamps[-1] - stamps[0]) if len(stamps) > 1 else float("nan"),
                   "tokens": len(stamps)}
            out.append(row)
            print(json.dumps({k: round(v, 2) if isinstance(v, float) else v for k, v in row.items()}), flush=True)
    return out


def _server_perf(llm: Any) -> list[str]:
    path = llm.where().get("log")
    if not path or not Path(path).exists():
        return []
    return [ln for ln in Path(path).read_text(errors="replace").splitlines() if "eval time" in ln]


def _short(line: str) -> str:
    """``prompt eval time = 54886.40 ms / 1211 tokens (...)`` -> ``prompt 1211 tok 22.06 tok/s``."""
    kind = "prompt" if "prompt eval" in line else "gen"
    count = re.search(r"/\s*(\d+) (?:tokens|runs)", line)
    rate = re.search(r"([\d.]+) tokens per second", line)
    return f"{kind} {count.group(1) if count else '?'} tok {rate.group(1) if rate else '?'} tok/s"


if __name__ == "__main__":
    sys.exit(main())

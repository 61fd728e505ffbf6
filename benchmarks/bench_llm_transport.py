"""Answer latency through the model server (``backend = "llama-server"``) vs the same GGUF in-process
(``llama-cpp``), on the same library and questions, alternating the order per question so machine load
falls on both alike. Retrieval, prompts and greedy decoding are the same; the difference is the transport.

    MFR_DATA_DIR=LIB python benchmarks/bench_llm_transport.py ../shared/data/eval/dev.jsonl --limit 5

Prints one line per answer and a JSON summary (p50 per backend); writes nothing to the library (answers are
not saved).
"""

from __future__ import annotations

import argparse
import json
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
    args = parser.parse_args()

    from engine import Engine, Settings
    from engine.models.llama_backend import LlamaLLM
    from engine.models.provider import ModelProvider

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
                               n_threads=settings.n_threads, n_threads_batch=settings.n_threads)
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
            answer = engines[backend].ask(rec["question"], scope=[doc], save=False)
            seconds = time.perf_counter() - t0
            row = {"id": rec["id"], "doc": doc, "backend": backend, "seconds": round(seconds, 2),
                   "tokens": answer.tokens, "timings": answer.timings, "text": answer.text[:160]}
            rows.append(row)
            print(json.dumps(row), flush=True)
    summary: dict[str, Any] = {
        "questions": len(records),
        "load_seconds": {"llama-server": round(load_server, 2), "in-process": round(load_inproc, 2)},
        "where": server_llm.where(),
    }
    for backend in engines:
        times = [r["seconds"] for r in rows if r["backend"] == backend]
        summary[backend] = {"p50_s": round(statistics.median(times), 2), "mean_s": round(statistics.mean(times), 2),
                            "seconds": times}
    same = sum(1 for a, b in zip(rows[0::2], rows[1::2], strict=True) if a["text"] == b["text"])
    summary["same_answer_text"] = f"{same}/{len(records)}"
    print(json.dumps(summary, indent=1))
    if args.out:
        args.out.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))
    for engine in engines.values():
        engine.close()
    inproc_llm.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Questions asked while the library grows: answer latency while an ingest runs against the same questions on an
idle machine, and the ingest's wall time with and without the questions, in one run.

    flock /work/llm.lock python benchmarks/bench_answer_while_ingesting.py [--questions 10] [--gap 5]
        [--ingest-files 3] [--set answers_first=false] [--out FILE]

1. A temporary library is made with the FinanceBench dev filings the questions are about (the shortest filings
   with questions, until there are ``--questions``), so nothing needs to be built before.
2. The questions are asked one after the other with nothing else running (``idle``).
3. The library is copied, and ``--ingest-files`` other dev filings are ingested into the copy by an ``mfr-tui
   ingest`` process (``ingest alone``).
4. The same filings are ingested into the library itself by an ``mfr-tui ingest`` process while the questions are
   asked again, ``--gap`` seconds apart (an analyst reading each answer) (``while ingesting``).

The ingest is a separate process, as when a second terminal runs ``mfr-tui ingest`` beside the TUI; answers and
ingestion meet through the data dir's ``answering.lock`` (``Settings.answers_first``). ``--set NAME=VALUE`` is
given to both the asking engine and the ingest processes (``--set answers_first=false`` measures the old way).
Run it under the shared model lock (it starts the model server).
Writes benchmarks/out/bench_answer_while_ingesting.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from common import EVAL, ROOT, dev_records, page_count, write_json


def pick(eval_dir: Path, n_questions: int, n_ingest: int, max_ingest_pages: int) -> tuple[list[dict[str, Any]],
                                                                                         list[Path], list[Path]]:
    """The questions (FinanceBench dev, the shortest filings first), their filings, and other filings to ingest."""
    records = [r for r in dev_records(eval_dir) if r["source"] == "financebench" and len(r["docs"]) == 1]
    pages = {d: page_count(eval_dir / d) for d in {r["docs"][0] for r in records}}
    questions: list[dict[str, Any]] = []
    for doc in sorted(pages, key=lambda d: (pages[d], d)):
        if len(questions) >= n_questions:
            break
        questions.extend(r for r in records if r["docs"][0] == doc)
    questions = questions[:n_questions]
    asked = sorted({q["docs"][0] for q in questions})
    others = sorted((d for d in pages if d not in asked and pages[d] <= max_ingest_pages),
                    key=lambda d: (-pages[d], d))
    return questions, [eval_dir / d for d in asked], [eval_dir / d for d in others[:n_ingest]]


def ingest_process(data_dir: Path, files: list[Path], changes: list[str]) -> subprocess.Popen[str]:
    """``mfr-tui ingest --json`` of ``files`` into ``data_dir`` (its own process, as a second terminal would)."""
    cmd = [sys.executable, "-m", "mfr_tui.cli", "--data-dir", str(data_dir)]
    for c in changes:
        cmd += ["--set", c]
    cmd += ["ingest", "--json", *map(str, files)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)


def finish(proc: subprocess.Popen[str], t0: float) -> dict[str, Any]:
    out, _ = proc.communicate()
    wall = time.perf_counter() - t0
    try:
        results = json.loads(out)["results"]
    except (ValueError, KeyError):
        results = []
    return {"wall_s": round(wall, 2), "ok": sum(1 for r in results if r.get("ok")), "files": len(results),
            "paused_s": round(sum(r.get("paused_seconds", 0.0) for r in results), 2),
            "pages": sum(r.get("pages", 0) for r in results), "rc": proc.returncode}


def ask_all(engine: Any, questions: list[dict[str, Any]], gap: float = 0.0,
            running: threading.Event | None = None) -> list[dict[str, Any]]:
    out = []
    for i, q in enumerate(questions):
        if i and gap:
            time.sleep(gap)
        during = running.is_set() if running is not None else False
        t0 = time.perf_counter()
        answer = engine.ask(q["question"], save=False)
        took = time.perf_counter() - t0
        out.append({"id": q["id"], "seconds": round(took, 2), "text": answer.text[:300],
                    "ingest_running": during and (running.is_set() if running is not None else False)})
        print(f"  {q['id']}: {took:.1f}s{' (during the ingest)' if out[-1]['ingest_running'] else ''}", flush=True)
    return out


def summarize(idle: list[dict[str, Any]], busy: list[dict[str, Any]], alone: dict[str, Any],
              waiter: dict[str, Any]) -> dict[str, Any]:
    """The figures of a run, printed and returned for the JSON."""
    during = [r["seconds"] for r in busy if r["ingest_running"]]
    p50_idle = statistics.median(r["seconds"] for r in idle)
    p50_busy = statistics.median(during) if during else float("nan")
    answer_time = sum(during)
    extra = waiter["wall_s"] - alone["wall_s"]
    same = sum(a["text"] == b["text"] for a, b in zip(idle, busy, strict=True))
    print(f"answer p50: {p50_idle:.1f}s idle, {p50_busy:.1f}s while ingesting ({len(during)} of {len(busy)} asked "
          f"during the ingest): {p50_busy / p50_idle:.2f}x (target <= 1.5x)")
    print(f"ingest: {alone['wall_s']:.0f}s alone, {waiter['wall_s']:.0f}s with the questions (+{extra:.0f}s; the "
          f"questions took {answer_time:.0f}s; ingestion paused {waiter['paused_s']:.0f}s; target: extra <= the "
          f"questions' time)")
    print(f"same answer text idle and busy: {same}/{len(busy)}")
    return dict(
        idle=idle, while_ingesting=busy, ingest_alone=alone, ingest_with_questions=waiter,
        answer_p50_idle_s=round(p50_idle, 2), answer_p50_while_ingesting_s=round(p50_busy, 2),
        answer_ratio=round(p50_busy / p50_idle, 2), asked_during_ingest=len(during),
        answer_seconds_during_ingest=round(answer_time, 2), ingest_extra_s=round(extra, 2), same_answers=same,
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--eval", type=Path, default=EVAL, help="dev set folder")
    ap.add_argument("--questions", type=int, default=10, help="FinanceBench dev questions to ask (default 10)")
    ap.add_argument("--ingest-files", type=int, default=3, help="other dev filings ingested meanwhile (default 3)")
    ap.add_argument("--max-pages", type=int, default=110, help="ingest only filings of at most this many pages")
    ap.add_argument("--gap", type=float, default=5.0, help="seconds between questions while ingesting (default 5)")
    ap.add_argument("--set", dest="changes", action="append", default=[], metavar="NAME=VALUE",
                    help="a setting for the asking engine and the ingest processes; repeatable")
    ap.add_argument("--out", help="JSON output (default benchmarks/out/bench_answer_while_ingesting.json)")
    args = ap.parse_args(argv)

    if not (args.eval / "dev.jsonl").exists():
        sys.stderr.write(f"The dev set is not at {args.eval}.\n")
        return 1
    questions, asked_files, ingest_files = pick(args.eval, args.questions, args.ingest_files, args.max_pages)
    print(f"{len(questions)} questions on {', '.join(p.name for p in asked_files)}; "
          f"ingesting {', '.join(p.name for p in ingest_files)}", flush=True)

    from engine import Engine, Settings
    from engine.settings import with_overrides
    from mfr_eval.evaluate import machine_info

    report: dict[str, Any] = {"questions": [q["id"] for q in questions], "asked_files": [p.name for p in asked_files],
                              "ingest_files": [p.name for p in ingest_files], "gap_s": args.gap,
                              "settings_changes": args.changes}
    with tempfile.TemporaryDirectory(prefix="mfr-bench-busy-") as tmp:
        lib, copy = Path(tmp) / "lib", Path(tmp) / "copy"
        settings = with_overrides(Settings(data_dir=lib), args.changes)
        engine = Engine(settings)
        t0 = time.perf_counter()
        engine.ingest(asked_files)
        report["prepare_ingest_s"] = round(time.perf_counter() - t0, 2)
        report["budget"] = engine.models.budget.to_json()
        print(f"library of the asked filings: {report['prepare_ingest_s']:.0f}s; budget {report['budget']}",
              flush=True)
        engine.models.llm()  # the server starts before the clock
        engine.ask(questions[0]["question"], save=False)  # warm caches (page cache, tokenizer, retriever)

        print("idle:", flush=True)
        idle = ask_all(engine, questions)
        engine.close()  # the catalogue is closed while it is copied

        shutil.copytree(lib, copy)
        print("ingest alone:", flush=True)
        t0 = time.perf_counter()
        alone = finish(ingest_process(copy, ingest_files, args.changes), t0)
        print(f"  {alone}", flush=True)

        engine = Engine(settings)
        engine.models.llm()
        print("while ingesting:", flush=True)
        running = threading.Event()
        running.set()
        t0 = time.perf_counter()
        proc = ingest_process(lib, ingest_files, args.changes)
        waiter: dict[str, Any] = {}

        def wait_ingest() -> None:
            waiter.update(finish(proc, t0))
            running.clear()

        th = threading.Thread(target=wait_ingest, daemon=True)
        th.start()
        time.sleep(min(args.gap, 5.0))  # the ingest is under way (models loaded, first pages read)
        busy = ask_all(engine, questions, args.gap, running)
        th.join()
        engine.close()
        print(f"  ingest {waiter}", flush=True)

    report.update(summarize(idle, busy, alone, waiter))
    report.update(load_average_1m_at_end=round(os.getloadavg()[0], 2), machine=machine_info())
    path = write_json("bench_answer_while_ingesting", report, args.out)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

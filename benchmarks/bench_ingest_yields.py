"""How fast an ingest in another process gives the cores back when a question starts, without the model: this
process holds the data dir's answering lock (as ``Engine.answer`` does) ``--holds`` times for ``--hold`` seconds
while an ``mfr-tui ingest`` process adds dev filings, and reads that process tree's CPU time meanwhile.

    python benchmarks/bench_ingest_yields.py [--ingest-files 2] [--holds 5] [--hold 20] [--gap 10]

Reports, per hold, the seconds until the ingest stopped using the CPU (it finishes the page or batch in hand) and
the CPU seconds it used during the hold; and the ingest's wall time alone (into a second empty library) and with
the holds. ``bench_answer_while_ingesting.py`` measures the same with real questions (it needs the model lock).
Writes benchmarks/out/bench_ingest_yields.json.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench_answer_while_ingesting import finish, ingest_process, pick
from common import EVAL, write_json


def tree_cpu(pid: int) -> float:
    """CPU seconds of a process and its live descendants (the text readers' pool included)."""
    import psutil

    total = 0.0
    try:
        proc = psutil.Process(pid)
        procs = [proc, *proc.children(recursive=True)]
    except psutil.Error:
        return 0.0
    for p in procs:
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.Error:
            pass
    return total


def hold(signal: Any, pid: int, seconds: float) -> dict[str, float]:
    """Hold the answering lock for ``seconds``; the ingest tree's CPU use meanwhile."""
    samples: list[tuple[float, float]] = []
    with signal.answering():
        t0 = time.perf_counter()
        while (now := time.perf_counter() - t0) < seconds:
            samples.append((now, tree_cpu(pid)))
            time.sleep(0.25)
    stopped = seconds
    for (t1, c1), (t2, c2) in zip(samples, samples[1:], strict=False):
        if (c2 - c1) / max(t2 - t1, 1e-6) < 0.05:  # under 5% of one core: waiting
            stopped = t1
            break
    half = [c for t, c in samples if t >= seconds / 2]
    return {"stopped_after_s": round(stopped, 2), "cpu_s": round(samples[-1][1] - samples[0][1], 2),
            "cpu_second_half_s": round(half[-1] - half[0], 2) if len(half) > 1 else 0.0}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--eval", type=Path, default=EVAL, help="dev set folder")
    ap.add_argument("--ingest-files", type=int, default=2, help="dev filings to ingest (default 2)")
    ap.add_argument("--max-pages", type=int, default=110, help="ingest only filings of at most this many pages")
    ap.add_argument("--holds", type=int, default=5, help="how many times the lock is held (default 5)")
    ap.add_argument("--hold", type=float, default=20.0, help="seconds each hold lasts (default 20)")
    ap.add_argument("--gap", type=float, default=10.0, help="seconds between holds (default 10)")
    ap.add_argument("--set", dest="changes", action="append", default=[], metavar="NAME=VALUE",
                    help="a setting for the ingest processes; repeatable")
    ap.add_argument("--out", help="JSON output (default benchmarks/out/bench_ingest_yields.json)")
    args = ap.parse_args(argv)
    if not (args.eval / "dev.jsonl").exists():
        sys.stderr.write(f"The dev set is not at {args.eval}.\n")
        return 1
    _, _, files = pick(args.eval, 10, args.ingest_files, args.max_pages)
    print(f"ingesting {', '.join(p.name for p in files)}", flush=True)

    from engine.library.lock import AnswerSignal
    from mfr_eval.evaluate import machine_info

    with tempfile.TemporaryDirectory(prefix="mfr-bench-yields-") as tmp:
        t0 = time.perf_counter()
        alone = finish(ingest_process(Path(tmp) / "alone", files, args.changes), t0)
        print(f"ingest alone: {alone}", flush=True)

        lib = Path(tmp) / "held"
        signal = AnswerSignal(lib)
        t0 = time.perf_counter()
        proc = ingest_process(lib, files, args.changes)
        result: dict[str, Any] = {}
        th = threading.Thread(target=lambda: result.update(finish(proc, t0)), daemon=True)
        th.start()
        holds = []
        for _ in range(args.holds):
            time.sleep(args.gap)
            if not th.is_alive():
                break
            h = hold(signal, proc.pid, args.hold)
            holds.append(h)
            print(f"  hold: {h}", flush=True)
        th.join()
        print(f"ingest with holds: {result}", flush=True)

    held = args.hold * len(holds)
    extra = result["wall_s"] - alone["wall_s"]
    report = {
        "ingest_files": [p.name for p in files], "settings_changes": args.changes, "hold_s": args.hold,
        "holds": holds, "ingest_alone": alone, "ingest_with_holds": result, "held_s": held,
        "ingest_extra_s": round(extra, 2),
        "stopped_after_p50_s": round(statistics.median(h["stopped_after_s"] for h in holds), 2) if holds else None,
        "cpu_second_half_total_s": round(sum(h["cpu_second_half_s"] for h in holds), 2),
        "load_average_1m_at_end": round(os.getloadavg()[0], 2), "machine": machine_info(),
    }
    if holds:
        print(f"ingest stopped {report['stopped_after_p50_s']}s (p50) after a hold began; CPU in the holds' second "
              f"halves {report['cpu_second_half_total_s']}s in all; wall {alone['wall_s']:.0f}s alone, "
              f"{result['wall_s']:.0f}s with {held:.0f}s of holds (+{extra:.0f}s)")
    print(f"wrote {write_json('bench_ingest_yields', report, args.out)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""`mfr-tui calibrate QA.jsonl [--root DIR]`: sweep the retrieval thresholds per modality on a QA file and
store the best ones for the embedder in use."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from engine import Engine
from mfr_eval.calibrate import calibrate


def cmd_calibrate(engine: Engine, args: argparse.Namespace) -> int:
    """Run the sweep (``mfr_eval.calibrate``) and print its outcome; the thresholds are stored unless --dry-run."""
    from mfr_tui.cli import _CancelOnSigint

    last = [0.0]

    def progress(stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if args.json or (now - last[0] < 2.0 and done < total):
            return
        last[0] = now
        sys.stderr.write(f"calibrate: {stage} {done}/{total}\n")

    with _CancelOnSigint() as cancelled:
        result = calibrate(
            engine, args.qa_file, root=args.root, store_result=not args.dry_run, limit=args.limit,
            on_progress=progress, cancelled=cancelled,
        )
    data: dict[str, Any] = result.to_json()
    if args.json:
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return 0
    theta = ", ".join(f"{k} {v:.3f}" for k, v in result.thresholds.items())
    prev = ", ".join(f"{k} {v:.3f}" for k, v in result.previous.items())
    sys.stdout.write(
        f"embedder {result.embedder}: {result.questions} questions ({result.skipped} skipped: not in the library "
        f"or no evidence pages)\n"
        f"  thresholds {theta}\n  recall@{result.k} under {result.budget} tokens: {result.recall:.3f} "
        f"(was {result.previous_recall:.3f} with {prev})\n"
        f"  text tier alone for {result.text_tier_share:.0%} of questions; {result.mean_tokens:.0f} context tokens "
        f"on average; {result.seconds:.1f}s\n"
        + ("  stored for this embedder.\n" if result.stored else "  not stored (--dry-run).\n")
    )
    return 0


def register(subparsers: Any) -> None:
    """Add the ``calibrate`` subcommand."""
    s = subparsers.add_parser("calibrate", help="calibrate retrieval thresholds on a QA file (per embedder)")
    s.add_argument("qa_file", help="JSON lines with question, docs and evidence [{doc, page0}]")
    s.add_argument("--root", help="folder the docs paths are relative to (default: the QA file's folder)")
    s.add_argument("--limit", type=int, help="use at most this many questions")
    s.add_argument("--dry-run", action="store_true", help="print the result without storing it")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_calibrate)

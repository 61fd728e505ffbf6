"""What the code states across filings before the model runs: the scope of filings, the per-filing figures and the
computed changes, scored against a question file's gold (no model is loaded).

For each question: parse it against the library, pick its filings (``Answerer.scope_of``; library-wide, or the
question's own documents with ``--scope doc``), search and resolve each filing (``across.work_across``) and
score the stated table with the evaluation scorer (``gold_structured``: every gold figure must be stated). The
model's sentence can only add figures to this text, so the score is what the full answer states at least.

    python benchmarks/bench_across.py --data-dir LIB [--qa mfr_eval/across/docugami_across.jsonl]
        [--scope library|doc] [--show] [--out FILE]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from common import EVAL, open_library, write_json

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", required=True, help="a library holding the questions' filings")
    ap.add_argument("--qa", default=str(ROOT / "mfr_eval" / "across" / "docugami_across.jsonl"))
    ap.add_argument("--root", default=str(EVAL), help="folder the question file's doc paths are relative to")
    ap.add_argument("--scope", choices=["library", "doc"], default="library")
    ap.add_argument("--show", action="store_true", help="print each question's stated table")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)

    from engine.ask.across import work_across
    from engine.ask.question import parse
    from mfr_eval.evaluate import load_records
    from mfr_eval.scoring import score_answer

    engine, answerer, retriever, by_name = open_library(args.data_dir)
    rows: list[dict[str, Any]] = []
    for r in load_records(Path(args.qa), Path(args.root)):
        names = [d.stem for d in r.docs]
        if any(n not in by_name for n in names):
            print(f"skip {r.id}: filings not in the library", file=sys.stderr)
            continue
        t0 = time.perf_counter()
        q = parse(r.question, retriever.ready_documents())
        scope = [by_name[n].id for n in names] if args.scope == "doc" else None
        plan = answerer.scope_of(q, retriever, scope)
        stated = ""
        filings: list[str] = []
        if plan is not None:
            filings = [f.label for f in plan.filings]
            stated = work_across(answerer, q, retriever, plan, lambda: False).stated
        seconds = time.perf_counter() - t0
        score = score_answer(stated, r.answer, question=r.question, gold_structured=r.gold_structured)
        rows.append({"id": r.id, "question": r.question, "type": r.question_type, "correct": score.correct,
                     "detail": score.detail, "filings": filings, "stated": stated, "seconds": round(seconds, 3)})
        mark = "ok" if score.correct else "--"
        print(f"{mark} {r.id} {score.detail} ({seconds:.1f}s) {r.question}")
        if args.show or not score.correct:
            print("   " + (stated or "(no scope)").replace("\n", "\n   "))
    n = len(rows)
    right = sum(1 for x in rows if x["correct"])
    by_type: dict[str, list[bool]] = {}
    for x in rows:
        by_type.setdefault(x["type"], []).append(x["correct"])
    print(f"\n{right}/{n} stated correctly ({right / max(n, 1):.1%}) with --scope {args.scope}")
    for kind, marks in sorted(by_type.items()):
        print(f"  {kind}: {sum(marks)}/{len(marks)}")
    if rows:
        print(f"seconds per question (search and resolve, no model): p50 "
              f"{statistics.median(x['seconds'] for x in rows):.2f}")
    if args.out:
        write_json("across", {"n": n, "correct": right, "scope": args.scope, "questions": rows}, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Score an eval report's stored answers again with the current scorer, with no model and no library: what a
change of the scorer alone does to a run (the answers are the report's own).

    python benchmarks/rescore.py REPORT.json [--show]

Prints the report's accuracy as stored and as scored now, overall and by half of the company split
(mfr_eval/README.md), and with ``--show`` each question whose verdict changed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from common import EVAL, dev_records


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report", help="a report of `mfr-tui eval` (answers, not retrieval only)")
    ap.add_argument("--show", action="store_true", help="print each question whose verdict changed")
    ap.add_argument("--eval", type=Path, default=EVAL,
                    help="the dev set folder the report was made from (for each question's company)")
    args = ap.parse_args(argv)

    from mfr_eval.scoring import score_answer
    from mfr_eval.selection import half_of

    report = json.loads(Path(args.report).read_text(encoding="utf-8"))
    groups = {rec["id"]: rec.get("group") or rec["id"] for rec in dev_records(args.eval)}
    before: Counter[str] = Counter()
    after: Counter[str] = Counter()
    count: Counter[str] = Counter()
    for r in report["questions"]:
        if "correct" not in r or r.get("error"):
            continue
        score = score_answer(r.get("prediction") or "", r.get("gold") or "", question=r["question"],
                             unanswerable=bool(r.get("unanswerable")), refused=r.get("refused"))
        half = half_of(groups.get(r["id"].split("#")[0], r["id"]))
        for key in ("all", half):
            count[key] += 1
            before[key] += bool(r["correct"])
            after[key] += score.correct
        if args.show and bool(r["correct"]) != score.correct:
            print(f"{r['id']}: {'right' if r['correct'] else 'wrong'} -> {'right' if score.correct else 'wrong'} "
                  f"({score.scorer}: {score.detail})")
    out = {k: {"n": count[k], "stored": before[k], "now": after[k]} for k in count}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What the code answers before the model runs: cell resolution and computed metrics on dev questions.

For each question (default: FinanceBench) whose filing is in the library: retrieve in the filing's scope, then
run the answerer's code path with no model (``Answerer.cells``): resolved cells, computation, period gap. The
extractive answer (what the Q&A view shows at once) is scored with the evaluation scorer against the gold
answer, so the resolver's precision is measured apart from the model's.

    python benchmarks/bench_cells.py --data-dir LIB [--qa FILE] [--source financebench] [--show]
        [--paraphrases mfr_eval/paraphrases/financebench_dev.jsonl] [--half tune|check]

The questions are chosen as ``mfr-tui eval`` chooses them (``mfr_eval.evaluate.load_records``): ``--paraphrases``
asks a paraphrase file's wordings against the gold of the questions they reword, ``--half`` keeps one half of the
company split (mfr_eval/README.md).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from typing import Any

from common import EVAL, open_library, write_json

from mfr_eval.selection import HALVES, half_of, record_company


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", required=True, help="a library holding the questions' filings")
    ap.add_argument("--qa", default=str(EVAL / "dev.jsonl"), help="question file (default: the dev set)")
    ap.add_argument("--source", default="financebench", help="source prefix (default financebench)")
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--show", action="store_true", help="print each question's resolution")
    ap.add_argument("--paraphrases", metavar="FILE", help="ask this paraphrase file's wordings (mfr_eval/README.md)")
    ap.add_argument("--half", choices=list(HALVES), help="only this half of the company split")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)

    from engine.ask.question import parse
    from mfr_eval.evaluate import load_records
    from mfr_eval.scoring import is_numeric_answer, score_answer

    engine, answerer, retriever, by_name = open_library(args.data_dir)
    rows: list[dict[str, Any]] = []
    tally: Counter[str] = Counter()
    records = load_records(args.qa, EVAL, sources=[args.source], paraphrases=args.paraphrases, half=args.half)
    for r in records:
        names = [d.stem for d in r.docs]
        docs = [by_name[n].id for n in names if n in by_name]
        if not docs or len(docs) != len(names):
            continue
        t0 = time.perf_counter()
        q = parse(r.question, retriever.ready_documents())  # as the answerer parses it: the library's companies known
        retrieval = retriever.retrieve(q, scope=docs, k=args.k)
        regions = answerer.regions_of(engine.store, retrieval.evidence)
        work = answerer.cells(q, engine.store, retrieval.evidence, regions)
        ms = (time.perf_counter() - t0) * 1000
        numeric = is_numeric_answer(r.answer)
        said = work.extractive
        score = score_answer(said, r.answer, question=r.question) if said else None
        kind = "gap" if work.gap else "computed" if work.computation else (
            "confident" if work.resolution.confident else "cells" if work.resolution.cells else "none")
        tally[kind] += 1
        tally["numeric"] += numeric
        if said and score is not None:
            tally[f"{kind}_right"] += score.correct
            tally[f"{kind}_numeric"] += numeric
        row = {
            "id": r.id, "half": half_of(record_company(r)), "numeric": numeric,
            "question": r.question, "gold": r.answer, "kind": kind, "yes_no": q.yes_no, "extractive": said,
            "gap": work.gap, "correct": score.correct if score else None,
            "cells": [c.to_json() for c in work.resolution.cells], "measures": work.resolution.measures,
            "asked": work.resolution.asked.text, "ms": round(ms, 1),
        }
        rows.append(row)
        if args.show:
            mark = "" if score is None else ("RIGHT" if score.correct else "WRONG")
            print(f"--- {r.id} [{kind}] {mark}\nQ: {r.question[:200]}\nGOLD: {r.answer[:120]}\n"
                  f"ASKED: {row['asked']} | MEASURES: {row['measures']}\nSAID: {said or work.gap or '-'}\n"
                  + "".join(f"  cell {c['row']} | {c['column']} | {c['shown']} (p{c['page']}, fit "
                            f"{c['row_fit']}/{c['period_fit']})\n" for c in row["cells"][:4]), file=sys.stdout)
    n = len(rows)
    said = [x for x in rows if x["extractive"]]
    right = sum(1 for x in said if x["correct"])
    summary = {
        "selection": {"source": args.source, "paraphrases": args.paraphrases or "", "half": args.half or ""},
        "questions": n,
        "by_kind": dict(tally),
        "stated_before_the_model": len(said),
        "stated_right": right,
        "stated_precision": round(right / len(said), 3) if said else None,
        "period_gaps": sum(1 for x in rows if x["gap"]),
        "halves": {h: halves(x for x in rows if x["half"] == h) for h in HALVES},
    }
    print(summary)
    path = write_json("bench_cells", {"summary": summary, "rows": rows}, args.out)
    print(f"wrote {path}")
    engine.close()
    return 0


def halves(rows: Any) -> dict[str, Any]:
    """One half's figures: the halves differ in their mix of kinds (free-text golds have no cell to state), so
    besides stated-and-right over all questions, the resolver's precision and the numeric golds stated right."""
    rows = list(rows)
    said = [x for x in rows if x["extractive"]]
    right = sum(1 for x in said if x["correct"])
    numeric = [x for x in rows if x["numeric"]]
    numeric_right = sum(1 for x in numeric if x["extractive"] and x["correct"])
    return {
        "questions": len(rows), "stated": len(said), "stated_right": right,
        "stated_precision": round(right / len(said), 3) if said else None,
        "numeric": len(numeric), "numeric_stated_right": numeric_right,
        "numeric_right_share": round(numeric_right / len(numeric), 3) if numeric else None,
    }


if __name__ == "__main__":
    raise SystemExit(main())

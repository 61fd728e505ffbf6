"""Replay an eval report's stored answers through the one-voice filter, with no model: for each answered question,
the code's work is redone on the library (cells, computation, verdict) and the model's part of the stored answer
is split into what agrees with it and what contradicts it.

    python benchmarks/replay_voice.py --data-dir LIB REPORT.json [--show]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report", help="a report of `mfr-tui eval` (answers, not retrieval only)")
    ap.add_argument("--data-dir", required=True, help="the library the report was made on")
    ap.add_argument("--show", action="store_true", help="print every folded sentence")
    args = ap.parse_args(argv)
    os.environ["MFR_DATA_DIR"] = args.data_dir

    from engine import Engine
    from engine.ask.answer import Answerer
    from engine.ask.compose import one_voice
    from engine.ask.question import parse
    from engine.settings import Settings
    from engine.types import Quote

    engine = Engine(Settings(data_dir=Path(args.data_dir)))
    answerer = Answerer(engine.settings, engine.models)
    retriever = engine.retriever()
    by_name = {d.name: d.id for d in engine.documents()}
    report = json.loads(Path(args.report).read_text(encoding="utf-8"))
    folded_answers = 0
    decided = 0
    for r in report["questions"]:
        text = r.get("prediction") or ""
        if "@" in r["id"] or not text or r.get("refused"):
            continue
        q = parse(r["question"], retriever.ready_documents())
        # the eval's doc scope: the filings the question's evidence pages are in
        named = [Path(d).stem for d in r.get("docs") or []] or [doc for doc, _ in r.get("gold_pages") or []]
        scope = list(dict.fromkeys(by_name[n] for n in named if n in by_name))
        retrieval = retriever.retrieve(q, scope=scope or None)
        work = answerer.cells(q, engine.store, retrieval.evidence, answerer.regions_of(engine.store,
                                                                                     retrieval.evidence))
        if not (work.extractive or work.decision or work.computation):
            continue
        decided += 1
        model = text
        for code in (work.extractive, work.decision.text if work.decision else ""):
            model = model.replace(code, " ") if code else model  # the code's own lines are not the model's
        model = "\n".join(line for line in model.splitlines() if not line.startswith(("(The model", "Note: the")))
        quotes = [Quote.from_json(x) for x in r.get("quotes") or []]  # shown with it: a sentence repeating one stays
        voiced = one_voice(model, q, work.decision, work.computation, work.resolution, work.calendar,
                           bool(work.extractive), quotes)
        if voiced.folded:
            folded_answers += 1
            if args.show:
                print(f"## {r['id']}")
                for f in voiced.folded:
                    print(f"   x {f[:300]}")
    print(json.dumps({"answers_decided_by_code": decided, "answers_with_folded_sentences": folded_answers}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Quoted sentences of narrative answers on dev questions: do they hold the gold evidence, and how soon are they ready.

For each free-text question of an eval report (the questions its scorer read by token overlap) whose filing is in
the library: retrieve in the filing's scope, then find the quotes as the answerer does (``narrative.shown_quotes``,
no model: none when the code decides the answer, a narrative question's quotes, the nearest sentences of a
question no cell answers). A quote "holds the key phrase" when it shares a run of
``SHINGLE`` words with the gold evidence text the dev record carries (the quote is the gold evidence's own
sentence), or when the quotes together hold at least half of the gold answer's content words. Where the code
decides the answer (no quotes), what it states before the model (cells, computation, verdict) is measured
apart: it holds the gold when it holds all of the gold's figures, or half the words of a gold without figures
(``shown_holds_gold``: quotes or stated). The time is from
retrieval done to the quotes ready (the embedder on the candidate sentences); the machine is shared unless said
otherwise.

    python benchmarks/bench_quotes.py --data-dir LIB --report EVAL_REPORT.json [--half tune|check] [--show]

With ``--qa FILE --source SRC`` (a question file whose records carry no evidence text, such as the blind prose set
``mfr_eval/freetext/tune_prose.jsonl``), every record of that source is measured, and a quote "holds the key
phrase" when it comes from a gold evidence page (its text, as the library stores it, stands in for the evidence
text: a weaker test than the gold sentence's, reported as such).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from common import EVAL, open_library, write_json

from mfr_eval.selection import HALVES

SHINGLE = 8
"""Words in a row a quote must share with the gold evidence text to be that evidence's sentence."""


def _words(text: str) -> list[str]:
    return [w for w in "".join(c.lower() if c.isalnum() else " " for c in text).split() if w]


def from_gold(quote: str, evidence: list[str]) -> bool:
    """Whether the quote shares ``SHINGLE`` words in a row with one of the gold evidence texts."""
    words = _words(quote)
    grams = {" ".join(words[i:i + SHINGLE]) for i in range(max(0, len(words) - SHINGLE + 1))}
    if len(words) < SHINGLE:
        grams = {" ".join(words)}
    return any(g in " ".join(_words(ev)) for ev in evidence for g in grams if g)


def holds(gold: str, shown: str, tokenize: Any) -> bool:
    """Whether text shown holds a gold answer's claim: each of its figures (years aside) at the precision written
    (``numbers.same_number``), else, for a gold without figures, at least half of its content words."""
    from engine.numbers import quantities, same_number

    figures = [g for g in quantities(gold) if not (1900 <= g.value <= 2100 and g.decimals == 0 and not g.percent)]
    if figures:
        have = [v.value for v in quantities(shown)]
        return all(any(same_number(g, v) for v in have) for g in figures)
    words = set(tokenize(gold))
    return bool(words) and len(words & set(tokenize(shown))) >= len(words) / 2


def _page_text(engine: Any, by_name: dict[str, Any], evidence: dict[str, Any]) -> str:
    """The library's text of a gold evidence page (``page0`` counts from 0, the library's pages from 1); ''
    where the filing or the page is not in the library."""
    doc = by_name.get(Path(str(evidence.get("doc", ""))).stem)
    page = engine.store.page(doc.id, int(evidence["page0"]) + 1) if doc is not None and "page0" in evidence else None
    return str(page.get("text") or "") if page else ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", required=True, help="a library holding the questions' filings")
    ap.add_argument("--report", help="an eval report: its text_overlap questions are measured")
    ap.add_argument("--qa", help="a question file instead: each record of --source is measured")
    ap.add_argument("--source", default="financebench", help="with --qa, the records' source (default financebench)")
    ap.add_argument("--half", choices=list(HALVES), help="only this half of the company split")
    ap.add_argument("--show", action="store_true", help="print each question's quotes")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)

    from engine.ask.narrative import shown_quotes
    from engine.ask.question import parse
    from engine.library.lexical import tokenize
    from mfr_eval.evaluate import load_records

    if bool(args.report) == bool(args.qa):
        ap.error("give --report or --qa")
    qa = Path(args.qa) if args.qa else EVAL / "dev.jsonl"
    free: set[str] | None = None
    if args.report:
        report = json.loads(Path(args.report).read_text(encoding="utf-8"))
        free = {q["id"] for q in report["questions"] if q.get("scorer") == "text_overlap" and "@" not in q["id"]}
    engine, answerer, retriever, by_name = open_library(args.data_dir)
    embedder = engine.models.embedder()
    raw = {json.loads(line)["id"]: json.loads(line) for line in qa.open(encoding="utf-8") if line.strip()}
    rows: list[dict[str, Any]] = []
    for r in load_records(qa, EVAL, sources=[args.source], half=args.half):
        if free is not None and r.id not in free:
            continue
        docs = [by_name[d.stem].id for d in r.docs if d.stem in by_name]
        if not docs:
            continue
        q = parse(r.question, engine.documents())
        retrieval = retriever.retrieve(q, scope=docs)
        regions = answerer.regions_of(engine.store, retrieval.evidence)
        work = answerer.cells(q, engine.store, retrieval.evidence, regions)
        decided = work.decision is not None
        t0 = time.perf_counter()
        d = work.decision  # as the answerer asks for them (engine/ask/answer.py)
        quotes = shown_quotes(q, retrieval.evidence, regions, embedder, decided=decided, stated=bool(work.extractive),
                              refused=bool(d and (d.refusal or d.lead)), about=d.choice if d else "")
        seconds = time.perf_counter() - t0
        evidence = [e.get("evidence_text") or _page_text(engine, by_name, e) for e in raw[r.id].get("evidence") or []]
        gold_words = set(tokenize(r.answer))
        quoted = {w for x in quotes for w in tokenize(x.text)}
        held = bool(quotes) and bool(gold_words) and len(gold_words & quoted) >= len(gold_words) / 2
        row = {"id": r.id, "question": r.question, "gold": r.answer, "narrative": q.narrative, "decided": decided,
               "gold_in": "text" if "text" in (raw[r.id].get("modality") or ()) else "table",
               "quotes": [x.to_json() for x in quotes], "seconds": round(seconds, 4),
               "from_gold": any(from_gold(x.text, evidence) for x in quotes), "holds_gold_words": held}
        row["key_phrase"] = row["from_gold"] or held
        # what the answer shows before the model where the code answers: the stated cells, the computation and
        # the verdict; they hold the gold's claim when they hold all of its figures (years aside), or, for a gold
        # without figures, half of its content words
        row["stated"] = "\n".join(t for t in (work.extractive, work.verdict) if t)
        row["stated_holds_gold"] = bool(row["stated"]) and holds(r.answer, row["stated"], tokenize)
        row["shown_holds_gold"] = row["key_phrase"] or row["stated_holds_gold"]
        rows.append(row)
        if args.show:
            print(f"--- {r.id} [{q.narrative or 'not narrative'}] key phrase: {row['key_phrase']} "
                  f"({seconds:.2f}s)\nQ: {r.question[:160]}\nGOLD: {r.answer[:160]}")
            for x in quotes:
                print(f"  > {x.text[:220]} ({x.doc} p.{x.page}, {x.score:.2f})")
            if row["stated"]:
                print(f"  stated (holds the gold: {row['stated_holds_gold']}): {row['stated'][:300]}")
    narrative = [x for x in rows if x["narrative"] and not x["decided"]]
    times = [x["seconds"] for x in narrative]
    summary = {
        "selection": {"report": args.report or "", "qa": args.qa or "", "source": args.source,
                      "half": args.half or ""},
        "free_text": len(rows),
        "narrative": len(narrative),
        "key_phrase_in_quotes": sum(1 for x in rows if x["key_phrase"]),
        "from_gold_evidence": sum(1 for x in rows if x["from_gold"]),
        "holds_gold_words": sum(1 for x in rows if x["holds_gold_words"]),
        "stated_holds_gold": sum(1 for x in rows if x["stated_holds_gold"]),
        "shown_holds_gold": sum(1 for x in rows if x["shown_holds_gold"]),
        "quotes_seconds_p50": round(statistics.median(times), 4) if times else None,
        # the gold told in a passage (the record's modality holds "text") or only in a table: a table's figures are
        # stated from its cells, not quoted, so the key phrase is a passage's measure
        "key_phrase_by_gold": {m: f"{sum(1 for x in rows if x['gold_in'] == m and x['key_phrase'])}/"
                                  f"{sum(1 for x in rows if x['gold_in'] == m)}" for m in ("text", "table")},
    }
    print(summary)
    path = write_json("bench_quotes", {"summary": summary, "rows": rows}, args.out)
    print(f"wrote {path}")
    engine.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

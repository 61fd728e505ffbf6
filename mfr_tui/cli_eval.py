"""`mfr-tui eval QA.jsonl`: evaluation on a question file, with ablations. Registered by ``mfr_tui.cli``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from engine import Engine
from mfr_eval.evaluate import ABLATIONS, EvalOptions, build_report, evaluate, format_report, load_records
from mfr_eval.selection import HALVES

CHECKPOINT_EVERY = 1
"""Questions between rewrites of ``--out`` during a run, so a long run interrupted keeps its results."""


def register(sub: Any) -> None:
    """Add the ``eval`` subcommand."""
    s = sub.add_parser(
        "eval",
        help="evaluate retrieval and answers on a question file (page recall@k, accuracy, latency)",
        description=(
            "Evaluate on a JSONL question file in the format of the eval README (docs and evidence paths relative "
            "to --root, page0 zero-indexed). Missing documents are ingested first. Prints a table (or JSON with "
            "--json) and writes the full report, every question included, to --out."
        ),
    )
    s.add_argument("qa_file", help="JSONL question file")
    s.add_argument("--root", help="folder the docs paths are relative to (default: the question file's folder)")
    s.add_argument("--k", type=int, default=10, help="evidence items per question (default 10)")
    s.add_argument("--scope", choices=["doc", "library"], default="doc",
                   help="doc: search each question's own documents; library: the whole library (routing)")
    s.add_argument("--retrieval-only", action="store_true", help="no answers: page metrics and latency only")
    s.add_argument("--limit", type=int, help="at most N questions (after --source/--per-source)")
    s.add_argument("--per-source", type=int,
                   help="N questions of each source, taken from each of its documents in turn (a stratified subset)")
    s.add_argument("--mismatched", type=int, default=0, metavar="N",
                   help="also ask N of the questions of another company's filing (unanswerable probes: refusal rate)")
    s.add_argument("--later", type=int, default=0, metavar="N",
                   help="also ask N questions with every year moved 3 years later (unanswerable: a period the filing "
                        "does not cover)")
    s.add_argument("--source", action="append", help="only sources starting with this; repeatable")
    s.add_argument("--id", action="append", dest="ids",
                   help="only this question id (with --paraphrases, also the id a paraphrase rewords); repeatable")
    s.add_argument("--paraphrases", metavar="FILE",
                   help="ask the paraphrases in FILE instead of the questions, each scored against the gold of the "
                        "question it rewords (its \"of\" id); see mfr_eval/README.md")
    s.add_argument("--half", choices=list(HALVES),
                   help="only the companies of this half of the dev split (tune: read failures here; check: report "
                        "only); see mfr_eval/README.md")
    s.add_argument("--ablation", choices=list(ABLATIONS), default="default",
                   help="; ".join(f"{a.name}: {a.description}" for a in ABLATIONS.values()))
    s.add_argument("--no-ingest", action="store_true",
                   help="ingest nothing: evaluate only the questions whose documents are already in the library")
    s.add_argument("--judge", action="store_true",
                   help="grade long free-text answers with a judge model (models.toml [judge], else [llm])")
    s.add_argument("--graded", metavar="FILE",
                   help="a grades file (mfr_eval/graded/*.jsonl): each free-text answer's graded reading is shown "
                        "beside its automatic score; an answer changed since it was graded shows as not graded")
    s.add_argument("--out", help="write the JSON report here (rewritten every few questions while running)")
    s.add_argument("--resume", action="store_true", help="keep the questions already in --out and run the rest")
    s.add_argument("--json", action="store_true", help="print the JSON report instead of the table")
    s.add_argument("--quiet", action="store_true", help="no progress lines")
    s.set_defaults(func=cmd_eval)


def _write(path: Path, report: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".partial")
    tmp.write_text(json.dumps(report, indent=1, default=str), encoding="utf-8")
    os.replace(tmp, path)


def _selection(args: argparse.Namespace) -> dict[str, str]:
    """Which questions were asked, as recorded in the report."""
    chosen = {"paraphrases": args.paraphrases, "half": args.half}
    return {key: str(value) for key, value in chosen.items() if value}


def _previous(path: Path | None, options: EvalOptions, selection: dict[str, str]) -> dict[str, dict[str, Any]]:
    if path is None or not path.exists():
        return {}
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        return {}
    same = (old.get("ablation"), old.get("k"), old.get("scope"), old.get("retrieval_only"),
            old.get("selection") or {}) == (options.ablation, options.k, options.scope, options.retrieval_only,
                                            selection)
    if not same:
        sys.stderr.write(f"{path} is from a run with other options; not resuming from it.\n")
        return {}
    return {q["id"]: q for q in old.get("questions", []) if q.get("id") and not q.get("error")}


def cmd_eval(engine: Engine, args: argparse.Namespace) -> int:
    from mfr_tui.cli import EXIT_FAILED, EXIT_OK, _CancelOnSigint, _emit, _progress_printer

    records = load_records(args.qa_file, args.root, sources=args.source, ids=args.ids,
                           paraphrases=args.paraphrases, half=args.half)
    selection = _selection(args)
    if not records:
        sys.stderr.write("No questions match the filters.\n")
        return EXIT_FAILED
    options = EvalOptions(k=args.k, scope=args.scope, retrieval_only=args.retrieval_only, ablation=args.ablation,
                          judge=args.judge, ingest=not args.no_ingest, limit=args.limit, per_source=args.per_source,
                          mismatched=args.mismatched, later=args.later)
    out = Path(args.out).expanduser() if args.out else None
    previous = _previous(out, options, selection) if args.resume else {}
    done: list[dict[str, Any]] = []

    def on_question(i: int, n: int, result: dict[str, Any]) -> None:
        done.append(result)
        if not args.quiet:
            mark = {True: "ok ", False: "-- ", None: "   "}[result.get("correct")]
            recall = "" if result.get("recall") is None else f" recall {result['recall']:.2f}"
            extra = f" ERROR {result['error'][:80]}" if result.get("error") else f" {result.get('scorer') or ''}"
            sec = result.get("timings", {}).get("total", 0.0)
            sys.stderr.write(f"[{i + 1}/{n}] {mark}{result['id'][:28]:<28}{recall}{extra} {sec:.1f}s\n")
        if out is not None and len(done) % CHECKPOINT_EVERY == 0:
            # the kept results not reached yet stay in the file, so stopping now loses nothing already answered
            seen = {r.get("id") for r in done}
            kept = [r for key, r in previous.items() if key not in seen]
            _write(out, build_report(done + kept, options, qa_file=args.qa_file, selection=selection,
                                     complete=False))

    with _CancelOnSigint() as cancelled:
        report = evaluate(
            engine,
            records,
            options,
            on_ingest=_progress_printer(args.quiet),
            on_question=on_question,
            cancelled=cancelled,
            previous=previous,
            qa_file=args.qa_file,
            selection=selection,
        )
    if args.graded:
        from mfr_eval.grading import attach, load_grades
        from mfr_eval.selection import half_of, record_company

        try:
            grades = load_grades(args.graded)
        except (OSError, ValueError) as exc:
            sys.stderr.write(f"Grades not read: {exc}\n")
        else:
            attach(report, grades, {r.id: half_of(record_company(r)) for r in records})
    if out is not None:
        _write(out, report)
    if args.json:
        _emit(report)
    else:
        sys.stdout.write(format_report(report) + "\n")
        if out is not None:
            sys.stdout.write(f"report with every question: {out}\n")
    return EXIT_OK if report["complete"] else EXIT_FAILED

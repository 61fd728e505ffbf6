"""Graded reading of free-text answers, shown beside the automatic score (never instead of it).

The token-overlap scorer misjudges prose both ways, so free-text answers are also graded by reading them against
the gold answer and the page: ``correct``, ``partly``, ``wrong`` or ``refused``, with a one-line reason. A grade
is kept for the answer it was written for (``answer_key``: a hash of the answer's text and its quoted sentences),
one JSON object a line in a grades file (``mfr_eval/graded/*.jsonl``)::

    {"id": "financebench_id_01226", "key": "3f1a...", "verdict": "partly", "reason": "...", "run": "e11f706"}

``attach`` puts each question's grade into an eval report: the grade of the same answer when there is one;
when the answer changed since it was graded, ``ungraded`` with the last verdict beside it, so a run shows which
answers need reading again. ``summary`` counts the verdicts by half; ``lines`` prints them next to the automatic
score::

    python -m mfr_eval.grading REPORT.json --grades mfr_eval/graded/financebench_dev.jsonl [--dev DEV.jsonl]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

VERDICTS = ("correct", "partly", "wrong", "refused")
"""What a reader may grade an answer."""
UNGRADED = "ungraded"


@dataclass(frozen=True)
class Grade:
    """One answer's graded reading."""

    id: str
    key: str
    """``answer_key`` of the answer graded."""
    verdict: str
    reason: str
    run: str = ""
    """Which run's answer it is (a commit, a report name)."""


def answer_key(result: Mapping[str, Any]) -> str:
    """A short hash of an eval record's answer as the reader saw it: its text and its quoted sentences."""
    quotes = "\n".join(str(x.get("text", "")) for x in result.get("quotes") or [] if isinstance(x, dict))
    blob = f"{result.get('prediction') or ''}\n{quotes}"
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def load_grades(path: str | Path) -> dict[str, list[Grade]]:
    """The grades of a file by question id, in the file's order; a line that is not a grade is an error naming
    its line number."""
    out: dict[str, list[Grade]] = {}
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            grade = Grade(str(raw["id"]), str(raw["key"]), str(raw["verdict"]), str(raw.get("reason", "")),
                          str(raw.get("run", "")))
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}:{n}: not a grade ({exc})") from exc
        if grade.verdict not in VERDICTS:
            raise ValueError(f"{path}:{n}: verdict {grade.verdict!r} is not one of {', '.join(VERDICTS)}")
        out.setdefault(grade.id, []).append(grade)
    return out


def graded(result: Mapping[str, Any], grades: Mapping[str, Sequence[Grade]]) -> dict[str, Any] | None:
    """The grade of one eval record's answer: the same answer's, else ``ungraded`` with the last grade of the
    question beside it; None for a question never graded."""
    mine = grades.get(str(result.get("id")), ())
    if not mine:
        return None
    key = answer_key(result)
    same = [g for g in mine if g.key == key]
    if same:
        g = same[-1]
        return {"verdict": g.verdict, "reason": g.reason, "run": g.run}
    last = mine[-1]
    return {"verdict": UNGRADED, "reason": "the answer changed since it was graded: read it again",
            "previous": last.verdict, "previous_run": last.run, "key": key}


def attach(report: dict[str, Any], grades: Mapping[str, Sequence[Grade]],
           halves: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The report with each graded question's ``graded`` field and a ``graded`` summary (``summary``)."""
    for r in report.get("questions", []):
        g = graded(r, grades)
        if g is not None:
            r["graded"] = g
    report["graded"] = summary(report.get("questions", []), halves or {})
    return report


def summary(results: Sequence[Mapping[str, Any]], halves: Mapping[str, str]) -> dict[str, Any]:
    """Verdict counts over the graded questions, all and by half (``halves``: question id -> tune/check), with
    the automatic scorer's count of right answers on the same questions beside them."""
    def count(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        verdicts = Counter(str(r["graded"]["verdict"]) for r in rows)
        return {"n": len(rows), **{v: verdicts.get(v, 0) for v in (*VERDICTS, UNGRADED)},
                "automatic_right": sum(1 for r in rows if r.get("correct"))}

    rows = [r for r in results if r.get("graded")]
    out: dict[str, Any] = {"all": count(rows)}
    for half in sorted({halves.get(str(r.get("id")).split("@")[0], "") for r in rows} - {""}):
        out[half] = count([r for r in rows if halves.get(str(r.get("id")).split("@")[0]) == half])
    return out


def lines(report: Mapping[str, Any]) -> list[str]:
    """The graded reading as text: the counts (automatic score beside them), then one line per question."""
    s = report.get("graded") or {}
    out = []
    for name, c in s.items():
        out.append(f"graded reading ({name}, {c['n']} free-text answers): correct {c['correct']}, partly "
                   f"{c['partly']}, wrong {c['wrong']}, refused {c['refused']}, not graded {c['ungraded']}; "
                   f"automatic score right on the same: {c['automatic_right']}")
    for r in report.get("questions", []):
        g = r.get("graded")
        if not g:
            continue
        was = f" (was {g['previous']})" if g.get("previous") else ""
        auto = "right" if r.get("correct") else "wrong"
        out.append(f"  {r['id'][:28]:<28} {g['verdict']:<8}{was} auto {auto} {r.get('score') or 0:.2f}  "
                   f"{g['reason']}")
    return out


def grade_lines(report: Mapping[str, Any], verdicts: Mapping[str, tuple[str, str]], run: str) -> list[str]:
    """Grades file lines for a report's answers: ``verdicts`` maps a question id to (verdict, reason)."""
    by_id = {r["id"]: r for r in report.get("questions", [])}
    out = []
    for qid, (verdict, reason) in verdicts.items():
        if verdict not in VERDICTS:
            raise ValueError(f"{qid}: verdict {verdict!r} is not one of {', '.join(VERDICTS)}")
        out.append(json.dumps(asdict(Grade(qid, answer_key(by_id[qid]), verdict, reason, run)), ensure_ascii=False))
    return out


def halves_of(dev: str | Path) -> dict[str, str]:
    """Question id -> tune/check for the records of a dev file (the company split of ``selection``)."""
    from mfr_eval.selection import half_of

    out = {}
    for line in Path(dev).read_text(encoding="utf-8").splitlines():
        if line.strip():
            raw = json.loads(line)
            out[str(raw["id"])] = half_of(str(raw.get("group", "")))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Show an eval report's graded reading beside its automatic score.")
    ap.add_argument("report", help="an eval report (mfr-tui eval --out)")
    ap.add_argument("--grades", required=True, help="a grades file (mfr_eval/graded/*.jsonl)")
    ap.add_argument("--dev", help="the dev file, to count the tune and check halves apart")
    args = ap.parse_args(argv)
    report = json.loads(Path(args.report).read_text(encoding="utf-8"))
    attach(report, load_grades(args.grades), halves_of(args.dev) if args.dev else None)
    sys.stdout.write("\n".join(lines(report)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Regenerate the README's Results section from benchmark and evaluation outputs.

    python scripts/results_to_readme.py [--out-dir benchmarks/out] [--readme README.md] [--check] [--print]

Reads ``eval_<ablation>.json`` (written by ``mfr-tui eval ... --out benchmarks/out/eval_<ablation>.json`` or by
``benchmarks/run_ablations.py``), ``bench_ingest.json`` and ``bench_latency.json``, and writes the section
between ``<!-- results:start -->`` and ``<!-- results:end -->`` (appended under a "Results" heading when the
markers are absent); ``notes.md`` there, if present, is included first (how the runs were made).
Everything else in the README is left as it is. ``--check`` exits 1 when the section
is out of date (for CI).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
START, END = "<!-- results:start -->", "<!-- results:end -->"
ORDER = ["default", "baseline", "no-tables-figures", "no-tiers", "no-hybrid", "default-library", "no-routing",
         "with-reranker"]


def _load(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    except (OSError, ValueError):
        return None


def _pct(v: Any) -> str:
    return "–" if v is None else f"{100 * float(v):.1f}%"


def _num(v: Any, digits: int = 3) -> str:
    return "–" if v is None else f"{float(v):.{digits}f}"


def _ms(v: Any) -> str:
    return "–" if v is None else f"{1000 * float(v):.0f} ms"


def _machine(m: dict[str, Any] | None) -> str:
    if not m:
        return "unknown machine"
    return f"{m.get('cpu', '?')}, {m.get('cores', '?')} cores, {m.get('memory_gb', '?')} GB RAM, {m.get('os', '')}"


def _subset(r: dict[str, Any]) -> str:
    sources = ", ".join(f"{s} {m['n']}" for s, m in r.get("by_source", {}).items())
    return f"{r.get('n')} questions ({sources})"


def eval_section(reports: dict[str, dict[str, Any]]) -> list[str]:
    lines = ["### Dev-set evaluation", ""]
    if not reports:
        return lines + ["No evaluation report yet: run `python benchmarks/run_ablations.py` (see benchmarks/).", ""]
    names = [n for n in ORDER if n in reports] + sorted(set(reports) - set(ORDER))
    first = reports[names[0]]
    k = first.get("k", 10)
    models = ", ".join(f"{r}: {m}" for r, m in first.get("models", {}).items() if m != "off")
    lines.append(f"`mfr-tui eval dev.jsonl --scope {first.get('scope')} --k {k}`, profile "
                 f"`{first.get('profile') or 'default'}` ({models}).")
    lines.append(f"Machine: {_machine(first.get('machine'))}.")
    lines.append("")
    lines.append(f"| run | questions | page recall@{k} | precision@{k} | MRR | answer accuracy "
                 "| refusals (unanswerable) | retrieval p50 / p95 | answer p50 | tokens / question |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        r = reports[name]
        lat = r.get("latency", {})
        ret = lat.get("retrieve") or lat.get("total") or {}
        gen = lat.get("total") if not r.get("retrieval_only") else None
        mode = " (retrieval only)" if r.get("retrieval_only") else ""
        mode += ", library scope" if r.get("scope") == "library" else ""
        lines.append(
            f"| {name}{mode} | {r.get('n')} | {_num(r.get('page_recall@k'))} | {_num(r.get('precision@k'))} | "
            f"{_num(r.get('mrr'))} | {_pct(r.get('answer_accuracy'))} | {_pct(r.get('refusal_rate'))} | "
            f"{_ms(ret.get('p50'))} / {_ms(ret.get('p95'))} | {_ms((gen or {}).get('p50')) if gen else '–'} | "
            f"{r.get('tokens', {}).get('per_question_mean') or '–'} |"
        )
    lines.append("")
    lines.append(f"Subset: {_subset(first)}. Docugami questions have no page labels: page metrics skip them, their "
                 "answers are still scored.")
    for title, key in (("By source", "by_source"), ("By modality", "by_modality")):
        lines += ["", f"{title} ({names[0]}):", "", f"| {key[3:]} | n | page recall@{k} | MRR | answer accuracy |",
                  "|---|---|---|---|---|"]
        for group, m in first.get(key, {}).items():
            lines.append(f"| {group} | {m.get('n')} | {_num(m.get('page_recall@k'))} | {_num(m.get('mrr'))} | "
                         f"{_pct(m.get('answer_accuracy'))} |")
    for name in names:
        routing = reports[name].get("by_routing")
        if routing and len(routing) > 1:  # a run without routing has one group: nothing to compare
            lines += ["", f"Library scope by routing ({name}): `routed` questions name a company (and maybe a year "
                      "or form) that picks their filings; `not routed` ones name none and search every filing.", "",
                      f"| routing | n | page recall@{k} | MRR | doc recall@{k} |", "|---|---|---|---|---|"]
            for group, m in routing.items():
                lines.append(f"| {group} | {m.get('n')} | {_num(m.get('page_recall@k'))} | {_num(m.get('mrr'))} "
                             f"| {_num(m.get('doc_recall@k'))} |")
    scorers = first.get("by_scorer") or {}
    if scorers:
        lines += ["", "Scorers: " + ", ".join(f"{s} {m['n']} ({_pct(m['accuracy'])})" for s, m in scorers.items())
                  + ". `text_overlap` on long answers is a weak proxy; `--judge` grades them with a model."]
    notes = sorted({n for r in reports.values() for n in r.get("notes", [])})
    incomplete = [n for n in names if not reports[n].get("complete", True)]
    if incomplete:
        notes.append(f"interrupted runs (partial numbers): {', '.join(incomplete)}")
    lines += [""] + [f"- {n}" for n in notes] + ([""] if notes else [])
    return lines


def ingest_section(runs: list[dict[str, Any]]) -> list[str]:
    lines = ["### Ingestion throughput", ""]
    if not runs:
        return lines + ["No run yet: `python benchmarks/bench_ingest.py`.", ""]
    for b in runs:
        files = ", ".join(f"{f['file']} ({f['pages']} p)" for f in b.get("files", []))
        cpu = b.get("cpu_ratio_to_pdfplumber")
        load = b.get("load_average_1m_at_end")
        lines.append(
            f"**{files}**: {b['pages']} pages in {b['ingest_seconds']:.1f} s wall "
            f"({b['ingest_seconds'] / max(1, b['pages']):.2f} s/page), **{b['ratio_to_pdfplumber']:.1f}x** a bare "
            f"pdfplumber `extract_text` pass over the same files in the same run ({b['pdfplumber_seconds']:.1f} s)"
            + (f"; **{cpu:.1f}x** in CPU time ({b['ingest_cpu_seconds']:.0f} vs {b['pdfplumber_cpu_seconds']:.1f} "
               "CPU s)" if cpu else "")
            + f". Model load {b.get('model_load_seconds', 0):.0f} s, not counted. Peak RSS "
            f"{b.get('peak_rss_mb', {}).get('self', 0):.0f} MiB"
            + (f"; load average {load:.1f} at the end" if load is not None else "") + "."
        )
        total = b["ingest_seconds"] or 1
        stages = sorted(b.get("stage_seconds", {}).items(), key=lambda x: -x[1])
        lines += ["", "| stage | seconds | share |", "|---|---|---|"]
        lines += [f"| {s} | {v:.1f} | {100 * v / total:.0f}% |" for s, v in stages]
        lines += [""]
    lines += [f"Machine: {_machine(runs[0].get('machine'))}.", ""]
    return lines


def latency_section(b: dict[str, Any] | None) -> list[str]:
    lines = ["### Retrieval latency", ""]
    if not b:
        return lines + ["No run yet: `python benchmarks/bench_latency.py --library DATA_DIR`.", ""]
    lines += ["| library | scope | p50 | p95 | first query |", "|---|---|---|---|---|"]
    real = b.get("real") or {}
    for scope in ("doc_scope", "library_scope"):
        if scope in real:
            m = real[scope]
            lines.append(f"| dev library ({real['documents']} filings, {real['chunks']} chunks) | {scope[:-6]} | "
                         f"{_ms(m['p50_s'])} | {_ms(m['p95_s'])} | {_ms(m['cold_first_query_s'])} |")
    syn = b.get("synthetic") or {}
    for scope in ("doc_scope", "library_scope"):
        if scope in syn:
            m = syn[scope]
            lines.append(f"| synthetic ({syn['filings']} filings, {syn['chunks']} chunks) | {scope[:-6]} | "
                         f"{_ms(m['p50_s'])} | {_ms(m['p95_s'])} | {_ms(m['cold_first_query_s'])} |")
    mem = b.get("peak_rss_mb", {})
    lines += ["", f"Peak RSS {mem.get('self', 0):.0f} MiB (synthetic library in memory). "
              f"Machine: {_machine(b.get('machine'))}.", ""]
    return lines


def render(out_dir: Path) -> str:
    reports = {}
    for path in sorted(out_dir.glob("eval_*.json")):
        r = _load(path)
        if r and "page_recall@k" in r:
            reports[path.stem[5:]] = r  # eval_<run>.json: the run's name (an ablation, maybe with a suffix)
    note = "_Generated by `scripts/results_to_readme.py` from `benchmarks/out/`; do not edit by hand._"
    lines = [START, "", note, ""]
    extra = out_dir / "notes.md"
    if extra.exists():
        lines += [extra.read_text(encoding="utf-8").strip(), ""]
    lines += eval_section(reports)
    lines += ingest_section([r for p in sorted(out_dir.glob("bench_ingest*.json")) if (r := _load(p))])
    lines += latency_section(_load(out_dir / "bench_latency.json"))
    lines.append(END)
    return "\n".join(lines)


def splice(readme: str, section: str) -> str:
    """Replace the text between the markers, or append a Results heading with the section."""
    if START in readme and END in readme:
        head, rest = readme.split(START, 1)
        _, tail = rest.split(END, 1)
        return head + section + tail
    return readme.rstrip("\n") + "\n\n## Results\n\n" + section + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out-dir", type=Path, default=ROOT / "benchmarks" / "out")
    ap.add_argument("--readme", type=Path, default=ROOT / "README.md")
    ap.add_argument("--check", action="store_true", help="exit 1 if the README's section is out of date")
    ap.add_argument("--print", action="store_true", help="print the section instead of writing the README")
    args = ap.parse_args(argv)
    section = render(args.out_dir)
    if args.print:
        print(section)
        return 0
    old = args.readme.read_text(encoding="utf-8") if args.readme.exists() else "# mfr-tui\n"
    new = splice(old, section)
    if args.check:
        if new != old:
            sys.stderr.write(f"{args.readme}: the Results section is out of date; run scripts/results_to_readme.py\n")
            return 1
        return 0
    if new != old:
        args.readme.write_text(new, encoding="utf-8")
        print(f"updated {args.readme}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

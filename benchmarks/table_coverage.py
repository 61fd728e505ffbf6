"""Table coverage on the dev set: does the gold answer number appear in a parsed table on the gold page?

For every dev question whose modality contains "table" or "image_table" and that has page labels, the gold
pages of each PDF are copied into a small PDF (pypdfium2), ingested with the configured models, and the
numbers of the parsed tables on those pages are compared with the numbers in the gold answer (rounded to the
answer's precision, at scales x1, x1000, /1000, /1e6; sign ignored). Also printed: how many answers appear in
the page's text at all (an upper bound for a parser), and the misses.

    python benchmarks/table_coverage.py [--eval DIR] [--limit N] [--source financebench] [--json out.json]

To measure a change to table parsing or layout without reading the scanned pages again (OCR is most of the
time), ``--regions-from DIR`` takes the library a previous run left in its ``--data-dir``: a copy of it is made,
the detect/tables/figures stages of every gold-page PDF are reset (and the text layer, except on pages read by
OCR, whose stored OCR words are reused), and those PDFs are ingested again: the same code path as a resumed
ingestion. The previous run's gold-page PDFs must still exist (they are in its temporary folder).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
EVAL = ROOT.parent / "shared" / "data" / "eval"
_NUM = re.compile(r"-?\(?\$?€?\s?\d[\d,]*(?:\.\d+)?|-?\.\d+")


def mods(rec: dict[str, Any]) -> list[str]:
    m = rec.get("modality")
    return m if isinstance(m, list) else [m]


def answer_numbers(rec: dict[str, Any]) -> list[str]:
    """Numbers of the gold answer as strings (kept as strings to know their precision)."""
    ans = rec.get("answer", "")
    if rec.get("source", "").startswith("parsee"):
        try:
            data = json.loads(ans)
        except ValueError:
            data = None
        vals: list[str] = []
        items = data.get("answers", []) if isinstance(data, dict) else data if isinstance(data, list) else []
        for it in items:
            if isinstance(it, dict):
                v = it.get("main_question", it.get("main question"))
                if v is not None:
                    vals.append(str(v))
        return vals
    out = []
    for m in _NUM.finditer(ans):
        t = m.group(0).replace("$", "").replace("€", "").replace("(", "").replace(" ", "").replace(",", "")
        if not t.strip("-."):
            continue
        out.append(t)
    non_years = [t for t in out if not re.fullmatch(r"(19|20)\d\d", t)]
    return non_years or out


def matches(answer: str, value: float) -> bool:
    """True when ``value`` (a table cell) shows the answer number at some scale, to the answer's precision."""
    try:
        a = abs(float(answer))
    except ValueError:
        return False
    dec = len(answer.split(".")[1]) if "." in answer else 0
    v = abs(value)
    for k in (1.0, 1e-3, 1e3, 1e-6, 1e6):
        x = v * k
        if abs(round(x, dec) - a) < 1e-9 or (a and abs(x - a) / a < 1e-6):
            return True
        if dec >= 2 and a and abs(round(x, 1) - round(a, 1)) < 1e-9 and float(answer) == round(a, 1):
            return True
    return False


def in_text(answer: str, text: str) -> bool:
    from engine.numbers import parse_cell

    for tok in re.findall(r"[\d][\d,]*(?:\.\d+)?", text):
        n = parse_cell(tok)
        if n is not None and matches(answer, n):
            return True
    return False


Found = tuple[list[tuple[str, int]], list[float], str]
"""A question's gold pages, the numbers of the parsed tables on them and their text."""


def tally(labelled: list[dict[str, Any]], lookup: Callable[[dict[str, Any]], Found | None]) -> dict[str, Any]:
    """Coverage over questions: ``lookup`` gives each one's gold pages, table numbers and page text (None skips
    the question). Returns n, covered, attainable (number printed on the page), per_source and the misses."""
    covered = attainable = n = 0
    misses: list[dict[str, Any]] = []
    per_source: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for r in labelled:
        found = lookup(r)
        if found is None:
            continue
        keys, vals, text = found
        n += 1
        answers = answer_numbers(r)
        hit = any(matches(a, v) for a in answers for v in vals)
        can = any(in_text(a, text) for a in answers)
        ps = per_source[r["source"]]
        ps[0] += 1
        ps[1] += int(hit)
        ps[2] += int(can)
        covered += int(hit)
        attainable += int(can)
        if not hit:
            misses.append(
                {"id": r["id"], "answer": r["answer"][:80], "numbers": answers[:4], "in_page_text": can, "pages": keys}
            )
    return {"n": n, "covered": covered, "attainable": attainable, "per_source": per_source, "misses": misses}


def _reset_region_stages(source: Path, data_dir: Path) -> dict[str, Path]:
    """Copy a previous run's library to ``data_dir`` and reset its region stages; its gold PDFs by name."""
    from engine.library.store import Store

    if data_dir.exists() and any(data_dir.iterdir()):
        raise SystemExit(f"--regions-from needs an empty --data-dir, {data_dir} is not")
    shutil.copytree(source, data_dir, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.lock"))
    store = Store(data_dir / "catalogue.sqlite3")
    out: dict[str, Path] = {}
    try:
        for d in store.documents():
            if not Path(d.path).exists():
                continue
            stages = ["detect", "tables", "figures"]
            if not any(p.get("ocr") for p in store.pages(d.id)):
                stages.append("text")  # read the text layer again; OCR words are kept (OCR is the slow part)
            for stage in stages:
                store.set_stage(d.id, stage, "pending")
            store.replace_regions(d.id, [])
            store.update_document(d.id, status="ingesting")
            out[d.name] = Path(d.path)
    finally:
        store.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eval", type=Path, default=EVAL)
    ap.add_argument("--limit", type=int, default=0, help="at most this many PDFs")
    ap.add_argument("--source", default="", help="only questions of this source (prefix)")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--data-dir", type=Path, default=None)
    ap.add_argument(
        "--regions-from",
        type=Path,
        default=None,
        help="a previous run's --data-dir: redo only the region stages on its gold-page PDFs",
    )
    args = ap.parse_args()
    if not (args.eval / "dev.jsonl").exists():
        print(f"no dev set at {args.eval}")
        return 1
    from engine import Engine, Settings

    recs = [json.loads(line) for line in (args.eval / "dev.jsonl").read_text().splitlines() if line.strip()]
    recs = [r for r in recs if any(m and ("table" in m) for m in mods(r))]
    if args.source:
        recs = [r for r in recs if r["source"].startswith(args.source)]
    total = len(recs)
    labelled = [r for r in recs if r.get("evidence") and all(e.get("page0") is not None for e in r["evidence"])]
    pages_by_doc: dict[str, set[int]] = defaultdict(set)
    for r in labelled:
        for e in r["evidence"]:
            pages_by_doc[e["doc"]].add(int(e["page0"]))
    docs = sorted(pages_by_doc)
    if args.limit:
        docs = docs[: args.limit]
        labelled = [r for r in labelled if all(e["doc"] in docs for e in r["evidence"])]
    tmp = Path(tempfile.mkdtemp(prefix="tablecov-"))
    data_dir = args.data_dir or tmp / "data"
    reused: dict[str, Path] = {}
    if args.regions_from is not None:
        reused = _reset_region_stages(args.regions_from, data_dir)
    engine = Engine(Settings(data_dir=data_dir, figure_llm=False))
    import pypdfium2 as pdfium

    numbers: dict[tuple[str, int], list[float]] = {}
    texts: dict[tuple[str, int], str] = {}
    t0 = time.perf_counter()
    stage_totals: dict[str, float] = defaultdict(float)
    from engine.ingest.tables import table_numbers

    for k, doc in enumerate(docs):
        order = sorted(pages_by_doc[doc])
        path = tmp / (Path(doc).stem + "__gold.pdf")
        if args.regions_from is not None:
            if Path(doc).stem + "__gold" not in reused:
                print(f"  ! {doc}: not in {args.regions_from}")
                continue
            path = reused[Path(doc).stem + "__gold"]
        else:
            src = pdfium.PdfDocument(str(args.eval / doc))
            sub = pdfium.PdfDocument.new()
            sub.import_pages(src, order)
            sub.save(str(path))
            sub.close()
            src.close()
        res = engine.ingest([path])[0]
        if not res.ok:
            print(f"  ! {doc}: {res.error}")
            continue
        for st, sec in res.stage_seconds.items():
            stage_totals[st] += sec
        regions = engine.regions(res.doc_id, kind="table")
        for i, p0 in enumerate(order):
            numbers[(doc, p0)] = [n for r in regions if r.page == i + 1 for n in table_numbers(r.table)]
            texts[(doc, p0)] = engine.page_text(res.doc_id, i + 1).get("text", "")
        print(
            f"[{k + 1}/{len(docs)}] {doc}: {len(order)} pages, {len(regions)} tables ({time.perf_counter() - t0:.0f}s)",
            flush=True,
        )

    def lookup(r: dict[str, Any]) -> Found:
        keys = [(e["doc"], int(e["page0"])) for e in r["evidence"]]
        vals = [v for key in keys for v in numbers.get(key, [])]
        return keys, vals, "\n".join(texts.get(key, "") for key in keys)

    result = tally(labelled, lookup)
    n, covered, attainable = result["n"], result["covered"], result["attainable"]
    misses, per_source = result["misses"], result["per_source"]
    print()
    print(f"table questions: {total}; with page labels: {n} (Docugami has none)")
    print(f"answer number in a parsed table on the gold page: {covered}/{n} = {covered / max(1, n):.1%}")
    print(f"answer number appears in the gold page text at all: {attainable}/{n} = {attainable / max(1, n):.1%}")
    both = sum(1 for m in misses if m["in_page_text"])
    print(
        f"coverage where the number is on the page: {covered}/{attainable} = "
        f"{covered / max(1, attainable):.1%} ({both} misses despite the number being on the page)"
    )
    for src, (q, h, c) in sorted(per_source.items()):
        print(f"  {src:28s} {h:4d}/{q:<4d} covered, {c:4d} on page")
    print("stage seconds (all docs): " + ", ".join(f"{k} {v:.1f}" for k, v in stage_totals.items()))
    print(f"wall: {time.perf_counter() - t0:.0f}s")
    if args.json:
        args.json.write_text(
            json.dumps({"covered": covered, "n": n, "attainable": attainable, "misses": misses}, indent=1)
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

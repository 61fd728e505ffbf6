"""How each dev filing names its fiscal years, read from its own words, with the evidence phrase.

For every PDF in the dev corpus (``dev_corpus.txt``) this reads what the metadata stage gives
``periods.read_calendar`` (``Store.calendar_inputs``): the text of the first pages and of every page that says
"fiscal" (pdfplumber words grouped into lines, as the text stage stores them), and the column headers of tables.
The ingest's detector is not run: tables come from the text layer's numeric grids (the geometry fallback of the
layout stage) on those pages and on the financial statements' pages. It prints and writes a table: filing, year
end, naming ("fiscal N ends Jan N+1"), stated or assumed, the evidence phrase.

The inputs read from each PDF are cached under ``benchmarks/out/calendar_naming_cache/`` (gitignored) so a rerun
after a change to the reader takes seconds; ``--no-cache`` reads the PDFs again.

    nice -n 15 .venv/bin/python benchmarks/calendar_naming.py [--limit N] [--no-cache]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import EVAL, OUT, write_json  # noqa: E402

from engine.library.store import CALENDAR_COVER_PAGES  # noqa: E402
from engine.periods import _MONTH_NAMES, Calendar, read_calendar  # noqa: E402

_STATEMENT = re.compile(
    r"consolidated\s+statements?\s+of\s+(?:operations|income|earnings)|balance\s+sheets?|statements?\s+of\s+"
    r"(?:financial\s+position|comprehensive\s+income|cash\s+flows)",
    re.I,
)
CACHE = OUT / "calendar_naming_cache"


def read_inputs(pdf: Path) -> dict[str, Any]:
    """The page texts and table headers ``read_calendar`` is given for ``pdf`` at ingest (headers from numeric
    grids, not the detector)."""
    import pypdfium2 as pdfium

    from engine.ingest.layout import attach_context, geometry_regions
    from engine.ingest.pdftext import extract_pages
    from engine.ingest.tables import parse_words

    doc = pdfium.PdfDocument(str(pdf))
    text_pages: list[int] = []
    statement_pages: list[int] = []
    try:
        for i in range(len(doc)):
            page = doc[i]
            try:
                tp = page.get_textpage()
                text = tp.get_text_range()
                tp.close()
            finally:
                page.close()
            if i + 1 <= CALENDAR_COVER_PAGES or "fiscal" in text.lower():
                text_pages.append(i + 1)
            elif _STATEMENT.search(text):
                statement_pages.append(i + 1)
        n_pages = len(doc)
    finally:
        doc.close()
    pages = extract_pages(pdf, sorted(text_pages + statement_pages), workers=1)
    texts: list[str] = []
    headers: list[tuple[str, str]] = []
    for pt in pages:
        text = pt.text
        if pt.page in text_pages and (pt.page <= CALENDAR_COVER_PAGES or "fiscal" in text.lower()):
            texts.append(text)
        regions = [r for r in geometry_regions(pt.page, pt.words, pt.width, pt.height) if r.kind == "table"]
        attach_context(regions, pt.words, pt.height)
        for r in regions:
            table = parse_words(pt.words, r.bbox, title=r.title, units=r.units)
            if not table:
                continue
            context = " ".join([r.title, r.units, str(table.get("units", ""))])
            headers += [(str(c), context) for c in table.get("columns", []) if c]
    return {"pages": n_pages, "texts": texts, "headers": headers}


def cached_inputs(pdf: Path, use_cache: bool) -> dict[str, Any]:
    key = hashlib.sha256(str(pdf).encode()).hexdigest()[:16]
    path = CACHE / f"{key}.json"
    if use_cache and path.exists():
        return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    inputs = read_inputs(pdf)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(inputs), encoding="utf-8")
    return inputs


def rule(cal: Calendar) -> str:
    """"fiscal N ends Jan N+1", "fiscal N ends Dec N", "fiscal N ends late Dec N/early Jan N+1", or "?" without a
    year end."""
    if cal.year_end_month is None:
        return "?"
    if cal.weeks and cal.year_end_month == 1 and (cal.year_end_day or 31) <= 7:
        return "fiscal N ends late Dec N/early Jan N+1" if cal.shift else "fiscal N ends late Dec N-1/early Jan N"
    mon = _MONTH_NAMES[cal.year_end_month - 1][:3]
    return f"fiscal N ends {mon} N+{cal.shift}" if cal.shift else f"fiscal N ends {mon} N"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default=str(EVAL / "dev_corpus.txt"))
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--no-cache", action="store_true")
    ap.add_argument("--out", default=str(OUT / "calendar_naming.json"))
    args = ap.parse_args()
    corpus = Path(args.corpus)
    if not corpus.exists():
        sys.exit(f"{corpus} not found: the dev set lives in ../shared/data/eval")
    names = [ln.strip() for ln in corpus.read_text(encoding="utf-8").splitlines() if ln.strip()]
    if args.limit:
        names = names[: args.limit]
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    for k, name in enumerate(names, 1):
        pdf = corpus.parent / name
        t = time.perf_counter()
        try:
            inputs = cached_inputs(pdf, not args.no_cache)
        except Exception as exc:  # noqa: BLE001 - one unreadable filing is a row, not a stopped benchmark
            rows.append({"filing": name, "error": f"{type(exc).__name__}: {exc}"[:200]})
            print(f"[{k}/{len(names)}] {name}: {exc}", flush=True)
            continue
        cal = read_calendar(inputs["texts"], [tuple(h) for h in inputs["headers"]])
        row = {
            "filing": name,
            "pages": inputs["pages"],
            "texts_read": len(inputs["texts"]),
            "headers_read": len(inputs["headers"]),
            "year_end": cal.describe(naming=False).split("; ")[0],
            "naming": rule(cal),
            "stated": cal.naming_stated,
            "evidence": cal.naming_evidence[0] if cal.naming_evidence else "",
            "example": cal.naming_rule(),
            "summary": cal.naming(),
            "seconds": round(time.perf_counter() - t, 2),
        }
        rows.append(row)
        print(f"[{k}/{len(names)}] {name}: {row['year_end']} | {row['naming']} | "
              f"{'stated' if row['stated'] else 'assumed'} | {row['evidence']}", flush=True)
    ok = [r for r in rows if "error" not in r]
    counts = Counter((r["naming"], "stated" if r["stated"] else "assumed") for r in ok)
    summary = {
        "filings": len(rows),
        "errors": len(rows) - len(ok),
        "stated": sum(r["stated"] for r in ok),
        "assumed": sum(not r["stated"] for r in ok),
        "year_end_unknown": sum(r["naming"] == "?" for r in ok),
        "by_naming": {f"{n} ({s})": c for (n, s), c in sorted(counts.items())},
        "seconds": round(time.perf_counter() - t0, 1),
    }
    path = write_json("calendar_naming", {"summary": summary, "rows": rows}, args.out)
    md = Path(path).with_suffix(".md")
    lines = ["| filing | year end | naming | newest year | | evidence |", "|---|---|---|---|---|---|"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['filing']} | error | | | | {r['error']} |")
            continue
        ev = r["evidence"].replace("|", "/")
        lines.append(f"| {r['filing']} | {r['year_end']} | {r['naming']} | {r['example']} | "
                     f"{'stated' if r['stated'] else 'assumed'} | {ev} |")
    md.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(json.dumps(summary, indent=1))
    print(f"wrote {path} and {md}")


if __name__ == "__main__":
    main()

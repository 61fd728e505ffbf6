"""Helpers shared by the benchmarks: paths, dev-set selection, memory figures, JSON output."""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

EVAL = ROOT.parent / "shared" / "data" / "eval"
"""The dev set, referenced in place (never copied into the repository)."""

OUT = ROOT / "benchmarks" / "out"
"""Where benchmark JSON goes (gitignored)."""


def peak_rss_mb() -> dict[str, float]:
    """Peak resident memory of this process and of its largest child process, in MiB (Linux reports KiB)."""
    scale = 1 / 1024 if sys.platform != "darwin" else 1 / 2**20
    return {
        "self": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale, 1),
        "children": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * scale, 1),
    }


def write_json(name: str, data: dict[str, Any], out: str | None = None) -> Path:
    """Write a benchmark's figures to ``benchmarks/out/<name>.json`` (or ``out``) and return the path."""
    path = Path(out) if out else OUT / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"benchmark": name, "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), **data}
    path.write_text(json.dumps(data, indent=1, default=str), encoding="utf-8")
    return path


def dev_records(eval_dir: Path = EVAL) -> list[dict[str, Any]]:
    """The dev questions as raw dicts (empty when the dev set is absent)."""
    path = eval_dir / "dev.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def page_count(path: Path) -> int:
    """Pages of a PDF (pypdfium2, without reading them)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        return len(pdf)
    finally:
        pdf.close()


class Library(NamedTuple):
    """An existing library opened for a benchmark that drives the answerer's steps itself."""

    engine: Any
    answerer: Any
    retriever: Any
    by_name: dict[str, Any]
    """Ready (or partly ingested) documents by name."""


def open_library(data_dir: str) -> Library:
    """Open the library in ``data_dir`` (also made ``MFR_DATA_DIR``, for anything the engine starts)."""
    os.environ["MFR_DATA_DIR"] = data_dir
    from engine import Engine
    from engine.ask.answer import Answerer
    from engine.settings import Settings

    engine = Engine(Settings(data_dir=Path(data_dir)))
    by_name = {d.name: d for d in engine.documents() if d.status in {"ready", "partial"}}
    return Library(engine, Answerer(engine.settings, engine.models), engine.retriever(), by_name)


def dev_pdfs(eval_dir: Path = EVAL, sources: list[str] | None = None) -> list[Path]:
    """Distinct dev PDFs (optionally of some sources, by prefix), in file order."""
    seen: dict[str, Path] = {}
    for r in dev_records(eval_dir):
        if sources and not any(str(r.get("source", "")).startswith(s) for s in sources):
            continue
        for d in r.get("docs") or []:
            seen.setdefault(d, eval_dir / d)
    return list(seen.values())

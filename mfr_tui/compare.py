"""The compare view's table, from an answer across filings (``Answer.series``): periods as columns, one row per
company and measure, each cell the figure with the filing, page and evidence it came from; sorted by a column;
written out as CSV or Markdown. Pure functions: the screen (``screens/compare.py``) shows them."""

from __future__ import annotations

import csv
import io
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.types import Answer
from mfr_tui.evidence import slug


@dataclass
class Grid:
    """The compare table: ``columns`` are periods (oldest first), ``rows`` (company, measure) pairs."""

    columns: list[str]
    rows: list[tuple[str, str]]
    cells: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    """(row, column) -> the series point (``Answer.series`` entry)."""

    def value(self, row: int, column: int) -> float | None:
        cell = self.cells.get((row, column))
        return float(cell["value"]) if cell is not None and cell.get("value") is not None else None

    def sorted_by(self, column: int, descending: bool = False) -> Grid:
        """The rows in the order of their value in ``column`` (rows without one last); column -1 sorts by name."""
        def key(i: int) -> tuple[int, float | str]:
            if column < 0:
                return (0, " ".join(self.rows[i]))
            v = self.value(i, column)
            return (1, 0.0) if v is None else (0, -v if descending else v)

        order = sorted(range(len(self.rows)), key=key)
        if column < 0 and descending:
            order.reverse()
        return Grid(self.columns, [self.rows[i] for i in order],
                    {(new, c): self.cells[(old, c)] for new, old in enumerate(order)
                     for c in range(len(self.columns)) if (old, c) in self.cells})


def grid_of(answer: Answer) -> Grid:
    """The compare table of an answer's series; empty when the answer has none."""
    points = answer.series
    periods: dict[str, str] = {}
    for p in points:
        label = _column(p, points)
        periods.setdefault(label, str(p.get("end") or label))
    columns = sorted(periods, key=lambda c: periods[c])
    rows = list(dict.fromkeys((str(p.get("company", "")), str(p.get("row") or p.get("measure", ""))) for p in points))
    cells = {(rows.index((str(p.get("company", "")), str(p.get("row") or p.get("measure", "")))),
              columns.index(_column(p, points))): p for p in points}
    return Grid(columns, rows, cells)


def _column(point: dict[str, Any], points: list[dict[str, Any]]) -> str:
    """A period's column: its fiscal name, with its end date where two companies' fiscal names would meet."""
    companies = {p.get("company") for p in points}
    name = str(point.get("period") or point.get("end") or "")
    return f"{name} ({point.get('end')})" if len(companies) > 1 and point.get("end") else name


def cell_text(cell: dict[str, Any] | None) -> str:
    if cell is None:
        return ""
    return str(cell.get("shown", "")) + (" (restated)" if cell.get("restated") else "")


def _cell(text: object) -> str:
    """A text field for a spreadsheet: one that opens with a formula sign is quoted, so a label taken from a filing
    never runs as a formula when the CSV is opened."""
    t = str(text)
    return f"'{t}" if t[:1] in ("=", "+", "-", "@", "\t", "\r") else t


def to_csv(grid: Grid) -> str:
    """The table as CSV: company, measure, then one column per period (the figures as numbers), then a line per
    cell naming its filing and page."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["company", "measure", *[_cell(c) for c in grid.columns]])
    for i, (company, measure) in enumerate(grid.rows):
        values = [grid.value(i, c) for c in range(len(grid.columns))]
        w.writerow([_cell(company), _cell(measure),
                    *["" if v is None else f"{v:.0f}" if v.is_integer() else f"{v}" for v in values]])
    w.writerow([])
    w.writerow(["company", "measure", "period", "filing", "document", "page", "shown", "restated", "computed"])
    for (i, c), cell in sorted(grid.cells.items()):
        company, measure = grid.rows[i]
        w.writerow([_cell(x) for x in (company, measure, grid.columns[c], cell.get("filing", ""), cell.get("doc", ""),
                                       cell.get("page", ""), cell.get("shown", ""),
                                       "; ".join(cell.get("restated") or []), cell.get("how", ""))])
    return out.getvalue()


def _md(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def to_markdown(grid: Grid, title: str = "") -> str:
    """The table as Markdown: the figures under their periods, then where each one is (filing, page)."""
    lines = [f"# {_md(title)}", ""] if title else []
    lines.append("| Company | Measure | " + " | ".join(_md(c) for c in grid.columns) + " |")
    lines.append("|---|---|" + "---|" * len(grid.columns))
    for i, (company, measure) in enumerate(grid.rows):
        cells = [_md(cell_text(grid.cells.get((i, c)))) for c in range(len(grid.columns))]
        lines.append(f"| {_md(company)} | {_md(measure)} | " + " | ".join(cells) + " |")
    computed = any(cell.get("how") for cell in grid.cells.values())  # a metric: how each figure was worked out
    lines += ["", "| Company | Period | Filing | Page |" + (" Computed |" if computed else ""),
              "|---|---|---|---|" + ("---|" if computed else "")]
    for (i, c), cell in sorted(grid.cells.items()):
        lines.append(f"| {_md(grid.rows[i][0])} | {_md(grid.columns[c])} | {_md(cell.get('filing', ''))} | "
                     f"{_md(cell.get('doc', ''))} p. {_md(cell.get('page', ''))} |"
                     + (f" {_md(cell.get('how', ''))} |" if computed else ""))
    return "\n".join(lines) + "\n"


def export_grid(grid: Grid, question: str, exports_dir: Path, kind: str, now: float | None = None) -> Path:
    """Write the table as ``kind`` ("csv" or "md") under ``exports_dir``; returns the file's path."""
    exports_dir.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now if now is not None else time.time()))
    base = f"{stamp}-compare-{slug(question)}"
    path = exports_dir / f"{base}.{kind}"
    n = 2
    while path.exists():
        path = exports_dir / f"{base}-{n}.{kind}"
        n += 1
    path.write_text(to_csv(grid) if kind == "csv" else to_markdown(grid, question), encoding="utf-8")
    return path

"""The compare view of an answer across filings: periods as columns, a row per company and measure; ``s`` sorts
by the cursor's column (again: the other way), enter opens the cell's evidence, ``c`` and ``m`` export the table
as CSV or Markdown (written by an app worker, ``CompareExportRequested``)."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from engine.types import Answer
from mfr_tui.compare import Grid, cell_text, grid_of
from mfr_tui.keys import bindings
from mfr_tui.messages import CompareExported, CompareExportRequested
from mfr_tui.plain import plain
from mfr_tui.screens.evidence import EvidenceScreen

MEASURE_WIDTH = 24
"""Cells of the measure column (the row label in full is on the line under the table)."""


class CompareScreen(Screen[None]):
    """The resolved series of an answer across filings, as a sortable table whose cells open their evidence."""

    BINDINGS = bindings("compare.close", "compare.sort", "compare.open", "compare.csv", "compare.markdown")
    TITLE = "mfr-tui"
    SUB_TITLE = "Compare"

    def __init__(self, answer: Answer) -> None:
        super().__init__()
        self.answer = answer
        self.grid: Grid = grid_of(answer)
        self.sort: tuple[int, bool] | None = None
        """(column, descending) of the last sort; None before any."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(plain(self.answer.question), id="compare-question")
        yield Static(plain("; ".join(self.answer.filings)), id="compare-filings")
        yield DataTable(id="compare-table", cursor_type="cell", zebra_stripes=True)
        yield Static(id="compare-where")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.fill()
        self.query_one("#compare-table", DataTable).focus()

    def fill(self) -> None:
        """(Re)draw the table from ``self.grid``; filing text reaches it as ``Text``, never markup."""
        table = self.query_one("#compare-table", DataTable)
        table.clear(columns=True)
        table.fixed_columns = 2  # company and measure stay in view while the periods scroll
        table.add_column(plain("Company"), key="company", width=min(16, max(7, *(len(r[0]) for r in self.grid.rows))))
        table.add_column(plain("Measure"), key="measure", width=MEASURE_WIDTH)
        for c, name in enumerate(self.grid.columns):
            mark = "" if self.sort is None or self.sort[0] != c else (" ▼" if self.sort[1] else " ▲")
            table.add_column(plain(name + mark), key=f"p{c}")
        for i, (company, measure) in enumerate(self.grid.rows):
            table.add_row(plain(company, overflow="ellipsis", no_wrap=True),
                          plain(measure, overflow="ellipsis", no_wrap=True),
                          *[plain(cell_text(self.grid.cells.get((i, c))), justify="right")
                            for c in range(len(self.grid.columns))], key=str(i))
        self.show_where()

    def _cell(self) -> dict[str, Any] | None:
        table = self.query_one("#compare-table", DataTable)
        row, column = table.cursor_coordinate.row, table.cursor_coordinate.column - 2
        return self.grid.cells.get((row, column)) if column >= 0 else None

    def show_where(self) -> None:
        cell = self._cell()
        where = self.query_one("#compare-where", Static)
        if cell is None:
            where.update(plain("Move to a figure: enter opens its evidence."))
            return
        restated = f"; restated: {', '.join(cell.get('restated') or [])}" if cell.get("restated") else ""
        where.update(plain(f"{cell.get('filing', '')} | {cell.get('period_words', '')} | {cell.get('row', '')} | "
                           f"{cell.get('doc', '')} p. {cell.get('page', '')}{restated}"))

    def on_data_table_cell_highlighted(self, event: DataTable.CellHighlighted) -> None:
        self.show_where()

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        self.action_open_cell()

    def action_sort_column(self) -> None:
        """Sort the rows by the cursor's period column (the company column: by name); again: the other way."""
        table = self.query_one("#compare-table", DataTable)
        column = table.cursor_coordinate.column - 2
        descending = self.sort is not None and self.sort[0] == column and not self.sort[1]
        self.sort = (column, descending)
        self.grid = grid_of(self.answer).sorted_by(column, descending)
        cursor = table.cursor_coordinate
        self.fill()
        table.cursor_coordinate = cursor

    def action_open_cell(self) -> None:
        """Open the evidence the highlighted figure was read from."""
        cell = self._cell()
        if cell is None:
            self.notify("Move to a figure first.", title="No figure")
            return
        marker = int(cell.get("marker") or 0)
        if not 1 <= marker <= len(self.answer.evidence):
            self.notify("This figure's evidence is not in the answer.", title="No evidence", severity="warning")
            return
        self.app.push_screen(EvidenceScreen(self.answer, marker - 1))

    def action_export_csv(self) -> None:
        self.post_message(CompareExportRequested(self, self.grid, self.answer.question, "csv"))

    def action_export_markdown(self) -> None:
        self.post_message(CompareExportRequested(self, self.grid, self.answer.question, "md"))

    def on_compare_exported(self, message: CompareExported) -> None:
        if message.error:
            self.notify(message.error, title="Export failed", severity="error", markup=False)
        else:
            self.notify(message.path, title=f"Table exported ({message.kind})", markup=False)

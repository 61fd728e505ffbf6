"""The library pane: filings in a DataTable, filter as you type, scope marks."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Input, Label, Static
from textual.widgets.data_table import CellDoesNotExist

from engine.types import STAGES, Document
from mfr_tui.keys import bindings
from mfr_tui.plain import PlainInput, plain, shown

STATUS_STYLE = {"ready": "green", "partial": "yellow", "failed": "red", "ingesting": "cyan", "cancelled": "yellow"}


def matches(doc: Document, query: str) -> bool:
    """Whether every word of the filter appears in the filing's name, company, form, period or status."""
    hay = " ".join([doc.name, doc.company, doc.form_type, doc.fiscal_period, doc.status, doc.id]).lower()
    return all(word in hay for word in query.lower().split())


def stage_marks(doc: Document) -> Text:
    """``stages ✓text ✓render –detect ✗figures …`` for the detail line, then the first stage error."""
    out = Text("stages ", style="dim")
    errors = []
    for s in STAGES:
        state = doc.stages.get(s, "pending")
        if state.startswith("done"):
            mark, style = "✓", "green"
        elif state.startswith("error"):
            mark, style = "✗", "bold red"
            errors.append(f"{s}: {state.removeprefix('error').lstrip(': ')}")
        elif state.startswith("skipped"):
            mark, style = "–", "dim"
        else:
            mark, style = "…", "dim"
        out.append(mark, style=style)
        out.append(f"{s} ", style="" if mark == "✗" else "dim")
    if errors:
        out.append(" " + errors[0], style="red")
    elif doc.error:
        out.append(" " + doc.error, style="red")
    return out


def calendar_lines(calendar: dict[str, object]) -> list[Text]:
    """The detail lines for a filing's stored calendar: its periods, then how it names its fiscal years with the
    filing's own phrase, or marked as assumed where the filing does not say. A calendar stored before the naming
    was read shows its one summary line."""
    naming = calendar.get("naming")
    if not isinstance(naming, dict):
        summary = str(calendar.get("summary", ""))
        return [plain(f"Periods: {summary}", style="dim", no_wrap=True, overflow="ellipsis")] if summary else []
    out: list[Text] = []
    periods = str(calendar.get("periods_summary", ""))
    if periods:
        out.append(plain(f"Periods: {periods}", style="dim", no_wrap=True, overflow="ellipsis"))
    rule = str(naming.get("rule", ""))
    if rule:
        line = Text("Fiscal years: ", style="dim", no_wrap=True, overflow="ellipsis")
        line.append(rule)
        why = str(naming.get("why", ""))
        if naming.get("stated"):
            line.append(f" · {why}", style="dim")
        else:
            line.append(f" · {why}", style="yellow")
        out.append(line)
    return out


class LibraryPane(Vertical):
    """All filings with company, form, period, counts and status; space marks the scope of questions."""

    BINDINGS = bindings(
        "library.filter", "library.scope", "library.add", "library.remove", "library.reingest",
        "library.clear_scope",
    )

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.documents: list[Document] = []
        self.scope: list[str] = []
        self.query_text = ""
        self._widths: tuple[int, int] = (0, 0)

    def compose(self) -> ComposeResult:
        with Horizontal(id="filter-row"):
            yield Label("Filter", id="filter-label")
            yield PlainInput(placeholder="name, company, form or period", id="filter", compact=True)
        yield DataTable(id="documents", cursor_type="row", zebra_stripes=True)
        yield Static(id="doc-detail")

    @property
    def table(self) -> DataTable[Text | str]:
        return self.query_one("#documents", DataTable)

    def on_mount(self) -> None:
        self.rebuild()

    def on_resize(self) -> None:
        if self._name_widths() != self._widths:
            self.rebuild()

    def _name_widths(self) -> tuple[int, int]:
        width = self.size.width or self.app.size.width
        # fixed columns (scope, form, period, pages, tables, figures, status), cell padding, border, scrollbar
        free = max(20, width - 37 - 18 - 2 - 2)
        name = max(12, min(30, free * 3 // 5))
        return name, max(8, min(30, free - name))

    def set_documents(self, documents: list[Document]) -> None:
        self.documents = documents
        self.rebuild()

    def set_scope(self, scope: list[str]) -> None:
        self.scope = scope
        self.rebuild()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "filter":
            event.stop()
            self.query_text = event.value
            self.rebuild()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "filter":
            event.stop()
            self.table.focus()

    def shown_documents(self) -> list[Document]:
        """The filings the filter lets through (not Textual's ``visible``, which says whether the widget shows)."""
        return [d for d in self.documents if matches(d, self.query_text)]

    def rebuild(self) -> None:
        """Redraw the table keeping the cursor on the same filing."""
        table = self.table
        current = self.highlighted()
        self._widths = name_w, company_w = self._name_widths()
        table.clear(columns=True)
        table.add_column("✓", key="scope", width=1)
        table.add_column("Filing", key="name", width=name_w)
        table.add_column("Company", key="company", width=company_w)
        table.add_column("Form", key="form", width=5)
        table.add_column("Period", key="period", width=7)
        table.add_column(Text("Pages", justify="right"), key="pages", width=5)
        table.add_column(Text("Tables", justify="right"), key="tables", width=6)
        table.add_column(Text("Figs", justify="right"), key="figures", width=4)
        table.add_column("Status", key="status", width=9)
        docs = self.shown_documents()
        for d in docs:
            in_scope = d.id in self.scope
            table.add_row(
                Text("●", style="bold green") if in_scope else Text(" "),
                plain(d.name, style="bold" if in_scope else "", overflow="ellipsis", no_wrap=True),
                plain(d.company or "—", overflow="ellipsis", no_wrap=True),
                plain(d.form_type or "—"),
                plain(d.fiscal_period or "—"),
                Text(str(d.pages), justify="right"),
                Text(str(d.tables), justify="right"),
                Text(str(d.figures), justify="right"),
                Text(d.status, style=STATUS_STYLE.get(d.status, "")),
                key=d.id,
            )
        if current is not None and current.id in {d.id for d in docs}:
            table.move_cursor(row=table.get_row_index(current.id), animate=False)
        self.update_detail()

    def highlighted(self) -> Document | None:
        """The filing under the table's cursor."""
        table = self.query_one("#documents", DataTable)
        if not table.row_count:
            return None
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        except CellDoesNotExist:
            return None
        return next((d for d in self.documents if d.id == key), None)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.update_detail()

    def update_detail(self) -> None:
        detail = self.query_one("#doc-detail", Static)
        if not self.documents:
            detail.update(Text.from_markup(
                "[b]The library is empty.[/b] Press [b]a[/b] to add PDF filings or a folder of them."))
            return
        if not self.shown_documents():
            detail.update(plain(f"No filing matches “{self.query_text}”. {len(self.documents)} in the library."))
            return
        d = self.highlighted()
        if d is None:
            return
        head = Text(no_wrap=True, overflow="ellipsis")
        head.append(shown(d.name), style="bold")
        head.append(shown(f"  {d.company or 'company unknown'}"))
        if d.tickers:
            head.append(shown(f" ({', '.join(d.tickers)})"), style="bold")
        if d.cik:
            head.append(shown(f" CIK {d.cik}"), style="dim")
        if d.former_names:
            head.append(shown(f" formerly {'; '.join(d.former_names)}"), style="italic")
        head.append(shown(f" · {d.form_type or '?'} {d.fiscal_period}".rstrip()))
        head.append(f" · {d.pages} pages, {d.tables} tables, {d.figures} figures, {d.chunks} chunks · id {d.id}",
                    style="dim")
        marks = stage_marks(d)
        marks.no_wrap, marks.overflow = True, "ellipsis"
        lines = [head, *calendar_lines(d.calendar or {}), marks]
        both = Text("\n").join(lines)
        both.no_wrap, both.overflow = True, "ellipsis"
        detail.update(both)

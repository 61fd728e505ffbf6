"""The evidence preview: a table with the resolved and cited cells lit (flagged numbers marked apart) beside row
labels that stay on screen, a figure's summary and crop, or the page text."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.coordinate import Coordinate
from textual.screen import Screen
from textual.widgets import ContentSwitcher, DataTable, Footer, Header, Static

from engine.types import Answer, Check, Evidence, Region
from mfr_tui.evidence import cell_marks, cited_checks, column_widths, evidence_markers, find_span, text_marks
from mfr_tui.keys import bindings
from mfr_tui.messages import EvidenceLoaded, EvidenceSelected
from mfr_tui.plain import plain, shown

CITED = "bold black on yellow"
FLAGGED = "bold white on red"
MARKS = {"cited": CITED, "flagged": FLAGGED}
"""How a cell or number is lit: a resolved cell or a found number of the answer, or a flagged number (the answer
quoted it for something it is not)."""
SPAN = "on #3a3a00"


def shown_values(row: dict[str, Any]) -> list[str]:
    """A table row's values as its cells show them: blank where the table holds none."""
    return [str(v) if v is not None else "" for v in row.get("values", [])]


def highlighted_text(text: str, span: tuple[int, int] | None, checks: list[Check]) -> Text:
    """The page text with the cited span shaded and the answer's checked numbers in it lit (inside the span when
    it was found)."""
    out = plain(text)  # one character for one: the span's offsets still hold
    lo, hi = span if span is not None else (0, len(text))
    if span is not None:
        out.stylize(SPAN, *span)
    for a, b, mark in text_marks(text[lo:hi], checks):
        out.stylize(MARKS[mark], lo + a, lo + b)
    return out


class EvidenceScreen(Screen[None]):
    """One piece of evidence of an answer; ``[`` and ``]`` step through the others."""

    BINDINGS = bindings("evidence.close", "evidence.previous", "evidence.next", "evidence.page",
                        "evidence.copy")
    TITLE = "mfr-tui"
    SUB_TITLE = "Evidence"

    def __init__(self, answer: Answer, index: int, ticket: int = 0) -> None:
        super().__init__()
        self.answer = answer
        self.index = index
        self.ticket = ticket
        """Which question's answer this shows (the app hands it the finished answer when it was opened mid-way)."""
        self.regions: list[Region] = []
        self.page: dict[str, Any] = {}
        self.view = "page"
        self.span: tuple[int, int] | None = None
        """Where the cited passage sits in the page text shown (None when it was not found)."""
        self.rows: list[dict[str, Any]] = []
        self.headers: list[str] = []
        self.marks: dict[tuple[int, int], str] = {}
        """The table shown: its rows, its column headings (``Line item`` first) and its lit cells."""
        self.widths = (0, 0)
        """Cells of the row-label column and of each value column now (they follow the screen's width)."""

    @property
    def ev(self) -> Evidence:
        return self.answer.evidence[self.index]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="evidence-head")
        with ContentSwitcher(initial="evidence-page", id="evidence-views"):
            yield DataTable(id="evidence-table", cursor_type="cell", zebra_stripes=True)
            with VerticalScroll(id="evidence-figure"):
                yield Static(id="figure-body")
            with VerticalScroll(id="evidence-page"):
                yield Static(id="page-body")
        yield Static(id="evidence-cell")
        yield Static(id="evidence-note")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#evidence-figure").can_focus = True
        self.query_one("#evidence-page").can_focus = True
        self.load()

    def set_answer(self, answer: Answer) -> None:
        """The answer finished while this was open: show its citations and checks on the same evidence."""
        chunk = self.ev.chunk_id
        self.answer = answer
        self.index = next((i for i, e in enumerate(answer.evidence) if e.chunk_id == chunk),
                          min(self.index, len(answer.evidence) - 1))
        self.query_one("#evidence-head", Static).update(self._head())
        if self.regions or self.page:
            self.render_view()

    def load(self) -> None:
        ev = self.ev
        self.regions, self.page = [], {}
        self.query_one("#evidence-head", Static).update(self._head())
        self.query_one("#evidence-note", Static).update(Text("loading…", style="dim"))
        self.post_message(EvidenceSelected(self, (ev.doc_id, ev.page)))

    def _head(self) -> Text:
        ev = self.ev
        markers = evidence_markers(self.answer, self.index)
        t = Text()
        t.append(f"{self.index + 1}/{len(self.answer.evidence)} ", style="dim")
        if markers:
            t.append("".join(f"[{m}]" for m in markers) + " ", style="bold")
        t.append(shown(ev.doc), style="bold")
        t.append(f"  page {ev.page} · {ev.modality} · score {ev.score:.3f} · tier {ev.tier} · {ev.channel}")
        return t

    def on_evidence_loaded(self, message: EvidenceLoaded) -> None:
        if message.key != (self.ev.doc_id, self.ev.page):
            return
        self.regions, self.page = message.regions, message.page
        region = self._region()
        if self.ev.modality == "table" and region is not None and region.table:
            self.view = "table"
        elif self.ev.modality == "image" and region is not None:
            self.view = "figure"
        else:
            self.view = "page"
        self.render_view()

    def _region(self) -> Region | None:
        ev = self.ev
        if ev.region_id is not None:
            for r in self.regions:
                if r.id == ev.region_id:
                    return r
        kind = {"table": "table", "image": "figure"}.get(ev.modality)
        return next((r for r in self.regions if r.kind == kind), None) if kind else None

    def render_view(self) -> None:
        switcher = self.query_one("#evidence-views", ContentSwitcher)
        note = self.query_one("#evidence-note", Static)
        checks = cited_checks(self.answer, self.index)
        region = self._region()
        self.query_one("#evidence-cell").display = self.view == "table"
        if self.view == "table" and region is not None and region.table:
            switcher.current = "evidence-table"
            marks = self._fill_table(region, checks)
            lit = sum(1 for m in marks.values() if m == "cited")
            bad = len(marks) - lit
            note.update(Text.assemble(
                (f"{lit} cited cell{'s' if lit != 1 else ''} lit", CITED if lit else "dim"),
                (" ", ""), (f"{bad} flagged" if bad else "", FLAGGED), (" " if bad else "", ""),
                (shown(f"{region.title or 'Table'} "), "bold"), (shown(f"{region.units} "), ""),
                (shown(f"· region {region.id} · {region.method}"), "dim"),
            ))
            self.query_one("#evidence-table").focus()
        elif self.view == "figure" and region is not None:
            switcher.current = "evidence-figure"
            self.query_one("#figure-body", Static).update(self._figure(region, checks))
            note.update(Text(f"t shows the page text of page {self.ev.page}", style="dim"))
            self.query_one("#evidence-figure").focus()
        else:
            switcher.current = "evidence-page"
            text = str(self.page.get("text", "")) or self.ev.text
            span = self.span = find_span(text, self.ev.text)
            self.query_one("#page-body", Static).update(highlighted_text(text, span, checks))
            scroll = self.query_one("#evidence-page", VerticalScroll)
            if span is not None:
                line = text.count("\n", 0, span[0])
                self.call_after_refresh(scroll.scroll_to, y=max(0, line - 3), animate=False)
            found = "cited passage shaded" if span is not None else "cited passage not found on the page text"
            note.update(Text(f"Page {self.ev.page} text · {found}", style="dim"))
            scroll.focus()

    def _fill_table(self, region: Region, checks: list[Check], cursor: Coordinate | None = None, fit: bool = True
                    ) -> dict[tuple[int, int], str]:
        """The table with its resolved and cited cells lit and flagged numbers marked; the cursor on ``cursor``,
        else on the first resolved or cited cell. ``columns[i]`` heads ``values[i]``, shown right of the row
        labels, which stay put when the table scrolls sideways (a label too long for its column ends in an
        ellipsis; the line under the table gives the cursor's in full). Once laid out, the label column is
        fitted to the room the table really has (``fit``)."""
        table = self.query_one("#evidence-table", DataTable)
        data = region.table or {}
        rows = self.rows = [r for r in data.get("rows", []) if isinstance(r, dict)]
        width = 1 + max([len(data.get("columns", []))] + [len(r.get("values", [])) for r in rows])
        columns = self.headers = (["Line item"] + [str(c) for c in data.get("columns", [])] + [""] * width)[:width]
        marks = self.marks = cell_marks(data, region.id, self.answer, checks)
        labels = [str(row.get("label", "")) for row in rows]
        values = [shown_values(row) for row in rows]
        self.widths = self._widths(table)
        table.clear(columns=True)
        table.fixed_columns = 1
        for i, header in enumerate(columns):
            table.add_column(plain(header, justify="right" if i else "left"), key=str(i), width=self.widths[i > 0])
        for r in range(len(rows)):
            cells: list[Text] = [plain(labels[r], no_wrap=True, overflow="ellipsis")]
            for c in range(1, width):
                v = values[r][c - 1] if c - 1 < len(values[r]) else ""
                cells.append(plain(v, justify="right", style=MARKS.get(marks.get((r, c), ""), "")))
            table.add_row(*cells, key=str(r))
        first = sorted(rc for rc, m in marks.items() if m == "cited") or sorted(marks)
        if cursor is not None:
            table.move_cursor(row=cursor.row, column=cursor.column, animate=False)
        elif first:
            table.move_cursor(row=first[0][0], column=first[0][1], animate=False)
        self.query_one("#evidence-cell", Static).update(self._cell_line(table.cursor_coordinate))
        if fit:
            self.call_after_refresh(self._fit_labels)
        return marks

    def _widths(self, table: DataTable[Any]) -> tuple[int, int]:
        """(row-label column, value column) widths of the table shown, in the room the table has
        (``column_widths``): its width less its scrollbar once laid out, else the screen's less the table's border
        and a scrollbar."""
        if table.size.width:
            room = table.scrollable_content_region.width
        else:
            room = self.size.width - table.styles.gutter.width - table.styles.scrollbar_size_vertical
        labels = [str(row.get("label", "")) for row in self.rows] + self.headers[:1]
        cells = self.headers[1:] + [v for row in self.rows for v in shown_values(row)]
        return column_widths(labels, cells, len(self.headers) - 1, max(0, room), 2 * table.cell_padding)

    def _cell_line(self, at: Coordinate) -> Text:
        """The cursor's cell in words: its row's label in full, its column's heading and its value, lit as in
        the table."""
        if not 0 <= at.row < len(self.rows):
            return Text()
        row = self.rows[at.row]
        out = plain(row.get("label", ""), style="bold")  # the filing's words: shown, never interpreted
        values = shown_values(row)
        if 0 < at.column < len(self.headers):
            value = values[at.column - 1] if at.column - 1 < len(values) else ""
            mark = self.marks.get((at.row, at.column), "")
            out.append(" · ")
            out.append(plain(self.headers[at.column] or f"column {at.column}"))
            out.append(" · ")
            out.append(plain(value or "blank", style=MARKS.get(mark, "" if value else "dim")))
            if mark:
                out.append(f" {mark}", style="dim")
        return out

    def on_data_table_cell_highlighted(self, event: DataTable.CellHighlighted) -> None:
        if event.data_table.id == "evidence-table":
            self.query_one("#evidence-cell", Static).update(self._cell_line(event.coordinate))

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self._fit_labels)

    def _fit_labels(self) -> None:
        """The row-label column fitted to the room the table has now; the cursor stays on its cell."""
        region = self._region()
        if self.view != "table" or region is None or not region.table or not self.rows:
            return
        table = self.query_one("#evidence-table", DataTable)
        if self._widths(table) != self.widths:
            self._fill_table(region, cited_checks(self.answer, self.index), table.cursor_coordinate, fit=False)

    def _figure(self, region: Region, checks: list[Check]) -> Text:
        out = Text()
        out.append(shown(f"{region.title or 'Figure'}\n"), style="bold")
        summary = region.summary or self.ev.text
        out.append_text(highlighted_text(summary, None, checks))
        out.append("\n\n")
        x0, top, x1, bottom = region.bbox
        for label, value in (
            ("Crop", region.crop_path or "not saved"),
            ("Box", f"x {x0:.0f}–{x1:.0f}, y {top:.0f}–{bottom:.0f} pt on page {region.page}"),
            ("Found by", region.method),
            ("Summary by", region.summary_method or "—"),
            ("Region", str(region.id)),
        ):
            out.append(f"{label:<11}", style="dim")
            out.append(shown(f"{value}\n"))
        return out

    def action_toggle_page_text(self) -> None:
        region = self._region()
        if self.view != "page":
            self.view = "page"
        elif self.ev.modality == "table" and region is not None and region.table:
            self.view = "table"
        elif self.ev.modality == "image" and region is not None:
            self.view = "figure"
        self.render_view()

    def action_previous_evidence(self) -> None:
        if self.index > 0:
            self.index -= 1
            self.load()

    def action_next_evidence(self) -> None:
        if self.index < len(self.answer.evidence) - 1:
            self.index += 1
            self.load()

    def action_copy_evidence(self) -> None:
        ev = self.ev
        self.app.copy_to_clipboard(f"{ev.doc}, page {ev.page} ({ev.modality}): {ev.text}")
        self.notify("Evidence copied to the clipboard.", title="Copied")

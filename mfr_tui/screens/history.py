"""The answers history: search as you type, preview, open an answer in the Q&A view."""

from __future__ import annotations

import time
from typing import Any

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Markdown

from mfr_tui.keys import bindings
from mfr_tui.messages import HistoryLoaded, HistorySearched
from mfr_tui.plain import PlainInput, plain, shown


class HistoryScreen(Screen[dict[str, Any] | None]):
    """Past answers, newest first; enter (or ctrl+o) opens one in the Q&A view."""

    BINDINGS = bindings("history.close", "history.open")
    TITLE = "mfr-tui"
    SUB_TITLE = "History"

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, Any]] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield PlainInput(placeholder="Search questions and answers", id="history-search")
        yield DataTable(id="history-table", cursor_type="row", zebra_stripes=True)
        with VerticalScroll(id="history-preview"):
            yield Markdown(id="history-answer")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        table = self.query_one("#history-table", DataTable)
        table.add_column("When", key="when", width=12)
        table.add_column("Question", key="question")
        self.search("")

    def search(self, text: str) -> None:
        self.post_message(HistorySearched(self, text))

    def on_input_changed(self, event: Input.Changed) -> None:
        self.search(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one("#history-table").focus()

    def on_history_loaded(self, message: HistoryLoaded) -> None:
        if message.search != self.query_one("#history-search", Input).value:
            return
        self.rows = message.rows
        table = self.query_one("#history-table", DataTable)
        table.clear()
        for row in self.rows:
            when = time.strftime("%d %b %H:%M", time.localtime(row.get("created_at") or 0))
            refused = (row.get("payload") or {}).get("refused")
            q = plain(row["question"], overflow="ellipsis", no_wrap=True)
            if refused:
                q.append("  (not answered)", style="dim")
            table.add_row(when, q, key=str(row["id"]))
        self._preview()
        if not self.rows:
            self.query_one("#history-answer", Markdown).update(
                "*No answers yet.*" if not message.search else f"*Nothing matches “{shown(message.search)}”.*")

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._preview()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open_answer()

    def _current(self) -> dict[str, Any] | None:
        table = self.query_one("#history-table", DataTable)
        if not self.rows or not table.row_count:
            return None
        return self.rows[min(table.cursor_row, len(self.rows) - 1)]

    def _preview(self) -> None:
        row = self._current()
        if row is not None:
            self.query_one("#history-answer", Markdown).update(shown(f"**{row['question']}**\n\n{row['answer']}"))

    def action_open_answer(self) -> None:
        row = self._current()
        if row is not None:
            self.dismiss(row)

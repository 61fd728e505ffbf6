"""The ingestion progress screen: the batch, each stage of the current file, the files and the warnings."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Label, ProgressBar, RichLog, Static

from engine.types import STAGES
from mfr_tui.keys import bindings
from mfr_tui.messages import IngestCancelRequested
from mfr_tui.plain import plain, shown
from mfr_tui.state import IngestState, fmt_seconds

FILE_STYLE = {"done": "green", "unchanged": "green", "failed": "red", "cancelled": "yellow",
              "ingesting": "cyan", "queued": "dim"}


class IngestScreen(Screen[None]):
    """Progress of the running (or last) ingestion; ingestion goes on when this screen is closed."""

    BINDINGS = bindings("ingest.cancel", "ingest.close")
    TITLE = "mfr-tui"
    SUB_TITLE = "Ingestion"

    def __init__(self, state: IngestState) -> None:
        super().__init__()
        self.state = state
        self._logged = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="ingest-body"):
            yield Static(id="ingest-title")
            with Horizontal(classes="bar-row", id="overall-row"):
                yield Label("All files", classes="bar-label")
                yield ProgressBar(total=1, show_eta=False, id="overall")
                yield Label(classes="bar-count", id="overall-count")
            yield Static(id="stage-title")
            for stage in STAGES:
                with Horizontal(classes="bar-row stage-row", id=f"row-{stage}"):
                    yield Label(stage, classes="bar-label")
                    yield ProgressBar(total=1, show_eta=False, id=f"bar-{stage}")
                    yield Label(classes="bar-count", id=f"count-{stage}")
            yield DataTable(id="ingest-files", cursor_type="row", zebra_stripes=True)
            yield RichLog(id="ingest-warnings", markup=False, wrap=True, max_lines=500, min_width=20)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        table = self.query_one("#ingest-files", DataTable)
        table.add_column("File", key="file", width=40)
        table.add_column("Status", key="status", width=9)
        table.add_column("Stage", key="stage", width=8)
        table.add_column(Text("Time", justify="right"), key="time", width=6)
        self.query_one("#ingest-warnings", RichLog).border_title = "Warnings"
        self.set_interval(1.0, self._tick)
        self.sync()

    def _tick(self) -> None:
        if self.state.running and self.app.screen is self:
            self.sync()

    def on_screen_resume(self) -> None:
        self.sync()

    def action_cancel_or_close(self) -> None:
        if self.state.running and not self.state.cancelling:
            self.post_message(IngestCancelRequested())
        else:
            self.dismiss()

    def sync(self) -> None:
        """Redraw from the ingestion state."""
        st = self.state
        if not self.is_mounted:
            return
        title = self.query_one("#ingest-title", Static)
        if not st.files:
            title.update(Text.from_markup("[b]Nothing is being ingested.[/b] Press [b]a[/b] in the library to "
                                          "add PDF files or a folder."))
        else:
            state = ("cancelling…" if st.cancelling else "paused for a question" if st.paused else "running"
                     ) if st.running else "finished"
            head = Text()
            head.append(f"Ingestion {state}", style="bold")
            head.append(f" · file {min(st.file_index + 1, st.file_count)} of {st.file_count}"
                        f" · elapsed {fmt_seconds(st.elapsed())} · ETA {fmt_seconds(st.eta())}")
            if st.running:
                head.append("  esc cancels", style="dim")
            title.update(head)
        finished = sum(1 for f in st.files.values() if f.status not in {"queued", "ingesting"})
        overall = self.query_one("#overall", ProgressBar)
        overall.update(total=1000, progress=round(st.overall_fraction() * 1000))
        self.query_one("#overall-count", Label).update(f"{finished}/{st.file_count} files")
        cur = st.files.get(st.current)
        self.query_one("#stage-title", Static).update(
            Text.assemble(("Stages of ", "dim"), (shown(cur.name) if cur else "—", "bold"))
        )
        for stage in STAGES:
            s = st.stages.get(stage)
            bar = self.query_one(f"#bar-{stage}", ProgressBar)
            count = self.query_one(f"#count-{stage}", Label)
            if s is None or (not s.total and not s.finished):
                bar.update(total=1, progress=0)
                count.update("")
                continue
            if s.total:
                bar.update(total=s.total, progress=min(s.done, s.total) if not s.finished else s.total)
            else:
                bar.update(total=1, progress=1)
            if s.finished:
                count.update(f"{s.done}/{s.total} done" if s.total else "done")
            else:
                count.update(f"{s.done}/{s.total} · {fmt_seconds(s.eta())}")
        self._sync_files()
        log = self.query_one("#ingest-warnings", RichLog)
        for w in st.warnings[self._logged:]:
            log.write(plain(f"⚠ {w}", style="yellow"))
        self._logged = len(st.warnings)

    def _sync_files(self) -> None:
        st = self.state
        table = self.query_one("#ingest-files", DataTable)
        keys = {k.value for k in table.rows}
        if keys - set(st.files):
            table.clear()
            keys = set()
        for path, f in st.files.items():
            took = ""
            if f.started is not None:
                end = f.ended if f.ended is not None else st.now()
                took = fmt_seconds(max(0.0, end - f.started))
            cells = (plain(f.name), Text(f.status, style=FILE_STYLE.get(f.status, "")), plain(f.stage),
                     Text(took, justify="right"))
            if path in keys:
                for col, value in zip(("file", "status", "stage", "time"), cells, strict=True):
                    table.update_cell(path, col, value)
            else:
                table.add_row(*cells, key=path)

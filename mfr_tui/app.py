"""The mfr-tui Textual app: library pane, ingestion progress screen and Q&A view over the engine's API.

Every engine call runs in a thread worker started on the app; workers only post messages, and the handlers
below update the widgets. Expected engine errors become notifications; anything else opens a modal with
copyable details (one ``on_worker_state_changed`` handler).
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar, Protocol

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Static, TabbedContent, TabPane
from textual.worker import Worker, WorkerState

from engine.errors import Cancelled, ConfigError, EngineError
from engine.settings import Settings
from engine.types import (
    Answer,
    AnswerEvent,
    AnswerFinished,
    CellsResolved,
    Document,
    IngestProgress,
    IngestResult,
    QuotesFound,
    Region,
    RetrievalDone,
    TokenStreamed,
)
from engine.untrusted import check_question, visible_text
from mfr_tui.commands import ActionsProvider
from mfr_tui.compare import export_grid
from mfr_tui.evidence import answer_from_json, answer_markdown, draft_answer, export_answer, flagged
from mfr_tui.keys import bindings, load_keymap
from mfr_tui.messages import (
    AnswerCompleted,
    AnswerStopped,
    AnswerStreamed,
    CellsFound,
    CompareExported,
    CompareExportRequested,
    DocumentRemoved,
    EvidenceLoaded,
    EvidenceSelected,
    HistoryLoaded,
    HistorySearched,
    IngestCancelRequested,
    IngestFinished,
    IngestProgressed,
    IngestStarted,
    LibraryLoaded,
    QuotesReady,
    RetrievalFound,
)
from mfr_tui.screens.compare import CompareScreen
from mfr_tui.screens.evidence import EvidenceScreen
from mfr_tui.screens.help import HelpScreen
from mfr_tui.screens.history import HistoryScreen
from mfr_tui.screens.ingest import IngestScreen
from mfr_tui.screens.modals import AddFilesModal, ConfirmModal, ErrorModal
from mfr_tui.state import PAUSE, RESUME, IngestState, fmt_seconds
from mfr_tui.widgets.ask import AskPane, QuestionInput
from mfr_tui.widgets.library import LibraryPane


class EngineAPI(Protocol):
    """The part of ``engine.Engine`` the app uses (tests pass a fake with the same methods)."""

    def ingest(self, paths: Sequence[str | Path], on_progress: Any = None, cancelled: Any = None,
               password: str | None = None, force: bool = False) -> list[IngestResult]: ...

    def documents(self) -> list[Document]: ...

    def remove(self, ref: str) -> Document: ...

    def regions(self, ref: str, page: int | None = None, kind: str | None = None) -> list[Region]: ...

    def page_text(self, ref: str, page: int) -> dict[str, Any]: ...

    def answer(self, question: str, scope: Sequence[str] | None = None, cancelled: Any = None,
               save: bool = True) -> Iterator[AnswerEvent]: ...

    def history(self, search: str = "", limit: int = 200) -> list[dict[str, Any]]: ...

    def close(self) -> None: ...


def expand_pdfs(paths: Sequence[str]) -> list[str]:
    """The PDFs the paths name, folders searched recursively (the order the engine ingests them in)."""
    out: list[str] = []
    for p in paths:
        path = Path(p).expanduser()
        if path.is_dir():
            out.extend(str(q) for q in sorted(path.rglob("*")) if q.is_file() and q.suffix.lower() == ".pdf")
        else:
            out.append(str(path))
    return out


class MfrApp(App[None]):
    """Ask cited questions over a library of financial filings, from the keyboard."""

    CSS_PATH = "app.tcss"
    TITLE = "mfr-tui"
    SUB_TITLE = "cited answers over your filings, offline"
    COMMANDS: ClassVar = App.COMMANDS | {ActionsProvider}
    BINDINGS = bindings("app.help", "app.library", "app.ask", "app.ingest", "app.history", "app.cancel",
                        "app.quit")

    def __init__(self, settings: Settings | None = None, engine: EngineAPI | None = None) -> None:
        super().__init__()
        self.settings = settings or Settings()
        self.engine: EngineAPI | None = engine
        self.ingest_state = IngestState()
        self.ingest_screen = IngestScreen(self.ingest_state)
        self.scope: list[str] = []
        self.keymap: dict[str, str] = {}
        self.answer: Answer | None = None
        self.draft: Answer | None = None
        """While an answer is written: its evidence and, once resolved, the stated cells (the evidence views
        work from it before the answer finishes)."""
        self.answering = False
        self._ingest_cancel = threading.Event()
        self.idle = threading.Event()
        """Set while no engine call that writes (ingest, remove) runs; closing the engine waits for it."""
        self.idle.set()
        self._ingest_queue: list[tuple[list[str], bool]] = []
        self._answer_cancel = threading.Event()
        self._ticket = 0
        self._asked_at = 0.0
        self._answer_note: Text = Text()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Every notification is plain text: messages name files and quote filings, never markup (the
        ``markup`` argument is accepted for Textual's callers and ignored)."""
        super().notify(visible_text(message), title=visible_text(title), severity=severity, timeout=timeout,
                       markup=False)

    # --- layout --------------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with TabbedContent(initial="library-tab", id="tabs"):
            with TabPane("Library F2", id="library-tab"):
                yield LibraryPane(id="library")
            with TabPane("Ask F3", id="ask-tab"):
                yield AskPane(id="ask")
        yield Static(id="status")
        yield Footer(compact=True)

    @property
    def library(self) -> LibraryPane:
        return self.query_one("#library", LibraryPane)

    @property
    def ask_pane(self) -> AskPane:
        return self.query_one("#ask", AskPane)

    def on_mount(self) -> None:
        self.set_interval(1.0, self._show_answer_progress)
        # installed, so closing the progress screen keeps it (and its warnings log) for the next visit
        self.install_screen(self.ingest_screen, name="ingest")
        self.reload_keymap(quiet=True)
        self.library.table.focus()
        self.update_status()
        if self.engine is None:
            self.open_engine()
        else:
            self.refresh_library()
            self.load_history("", None)

    def on_unmount(self) -> None:
        self._ingest_cancel.set()
        self._answer_cancel.set()

    # --- workers -------------------------------------------------------------------------------------
    @work(thread=True, exclusive=True, exit_on_error=False, group="engine", description="open the library")
    def open_engine(self) -> None:
        from engine import Engine

        self.engine = Engine(self.settings)
        self.call_from_thread(self.refresh_library)
        self.call_from_thread(self.load_history, "", None)

    @work(thread=True, exclusive=True, exit_on_error=False, group="library", description="read the library")
    def refresh_library(self) -> None:
        if self.engine is not None:
            self.post_message(LibraryLoaded(self.engine.documents()))

    @work(thread=True, exit_on_error=False, group="remove", description="remove a filing")
    def remove_worker(self, doc: Document) -> None:
        assert self.engine is not None
        self.post_message(DocumentRemoved(self.engine.remove(doc.id)))

    @work(thread=True, exclusive=True, exit_on_error=False, group="ingest", description="ingest filings")
    def ingest_worker(self, paths: list[str], force: bool, cancel: threading.Event) -> None:
        results: list[IngestResult] = []

        def on_progress(p: IngestProgress) -> None:
            self.post_message(IngestProgressed(p, time.monotonic()))

        try:
            assert self.engine is not None
            self.post_message(IngestStarted(paths, expand_pdfs(paths), time.monotonic()))
            results = self.engine.ingest(paths, on_progress=on_progress, cancelled=cancel.is_set, force=force)
        finally:
            self.idle.set()
            self.post_message(IngestFinished(results, cancel.is_set(), time.monotonic()))

    @work(thread=True, exclusive=True, exit_on_error=False, group="answer", description="answer a question")
    def answer_worker(self, question: str, scope: list[str], cancel: threading.Event, ticket: int) -> None:
        assert self.engine is not None
        finished = False
        try:
            for event in self.engine.answer(question, scope=scope or None, cancelled=cancel.is_set):
                if isinstance(event, RetrievalDone):
                    self.post_message(RetrievalFound(event.retrieval, ticket))
                elif isinstance(event, CellsResolved):
                    self.post_message(CellsFound(event.cells, event.text, ticket))
                elif isinstance(event, QuotesFound):
                    self.post_message(QuotesReady(event.quotes, ticket))
                elif isinstance(event, TokenStreamed):
                    self.post_message(AnswerStreamed(event.text, ticket))
                elif isinstance(event, AnswerFinished):
                    finished = True
                    self.post_message(AnswerCompleted(event.answer, ticket))
                if cancel.is_set():
                    break
        except Cancelled:
            pass
        finally:
            if not finished:
                self.post_message(AnswerStopped("cancelled" if cancel.is_set() else "failed", ticket))

    @work(thread=True, exclusive=True, exit_on_error=False, group="history", description="search history")
    def load_history(self, search: str, target: Screen[Any] | None) -> None:
        if self.engine is None:
            return
        rows = self.engine.history(search)
        (target or self).post_message(HistoryLoaded(search, rows))

    @work(thread=True, exclusive=True, exit_on_error=False, group="evidence", description="load evidence")
    def load_evidence(self, target: Screen[Any], doc_id: str, page: int) -> None:
        assert self.engine is not None
        regions = self.engine.regions(doc_id, page=page)
        try:
            text = self.engine.page_text(doc_id, page)
        except EngineError:
            text = {}
        target.post_message(EvidenceLoaded((doc_id, page), regions, text))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The one place unexpected worker failures surface; engine errors are notifications."""
        if event.state != WorkerState.ERROR:
            return
        err = event.worker.error
        if event.worker.group == "answer":
            self.answering = False
            self.refresh_bindings()
        if isinstance(err, EngineError):
            self.notify(err.message, title=err.title, severity="error", timeout=10)
        elif err is not None:
            details = "".join(traceback.format_exception(err))
            self.push_screen(ErrorModal(f"Unexpected error while trying to {event.worker.description}",
                                        f"{type(err).__name__}: {err}", details))

    # --- library -------------------------------------------------------------------------------------
    def on_library_loaded(self, message: LibraryLoaded) -> None:
        ids = {d.id for d in message.documents}
        self.scope = [i for i in self.scope if i in ids]
        self.library.scope = self.scope
        self.library.set_documents(message.documents)
        self.update_status()

    def on_document_removed(self, message: DocumentRemoved) -> None:
        self.notify(f"{message.document.name} was removed from the library.", title="Removed")
        self.refresh_library()

    def action_focus_filter(self) -> None:
        self.action_show_library()
        self.query_one("#filter", Input).focus()

    def _highlighted(self) -> Document | None:
        doc = self.library.highlighted()
        if doc is None:
            self.notify("Highlight a filing in the library first.", title="No filing", severity="warning")
        return doc

    def action_toggle_scope(self) -> None:
        doc = self._highlighted()
        if doc is None:
            return
        if doc.id in self.scope:
            self.scope.remove(doc.id)
        else:
            self.scope.append(doc.id)
        self.library.set_scope(self.scope)
        table = self.library.table
        if table.cursor_row < table.row_count - 1:
            table.move_cursor(row=table.cursor_row + 1, animate=False)
        self.update_status()

    def action_clear_scope(self) -> None:
        self.scope = []
        self.library.set_scope(self.scope)
        self.update_status()

    def action_add_files(self) -> None:
        def added(paths: list[str] | None) -> None:
            if paths:
                self.start_ingest(paths)

        self.push_screen(AddFilesModal(Path.cwd()), added)

    def action_remove_document(self) -> None:
        doc = self._highlighted()
        if doc is None:
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.remove_worker(doc)

        self.push_screen(
            ConfirmModal("Remove filing?", f"Remove {doc.name} ({doc.company or 'company unknown'}) and its pages, "
                         "tables, figures and index entries from the library? The PDF itself is kept.",
                         yes="Remove"),
            confirmed,
        )

    def action_reingest_document(self) -> None:
        doc = self._highlighted()
        if doc is not None:
            self.start_ingest([doc.path], force=True)

    # --- ingestion -----------------------------------------------------------------------------------
    def start_ingest(self, paths: list[str], force: bool = False) -> None:
        """Ingest in the background and show the progress screen; a batch queues behind a running one."""
        if self.engine is None:
            self.notify("The library is still opening; try again in a moment.", title="Not ready")
            return
        if self.ingest_state.running:
            self._ingest_queue.append((paths, force))
            self.notify(f"Queued {', '.join(Path(p).name for p in paths)} after the running ingestion.",
                        title="Queued")
            return
        self._ingest_cancel = threading.Event()
        self.ingest_state.running = True
        self.idle.clear()
        self.ingest_worker(paths, force, self._ingest_cancel)
        self.action_show_ingest()
        self.refresh_bindings()

    def on_ingest_started(self, message: IngestStarted) -> None:
        self.ingest_state.start(message.files, message.at)
        self._ingest_changed()

    def on_ingest_progressed(self, message: IngestProgressed) -> None:
        p = message.progress
        current = self.ingest_state.files.get(p.path)
        new_stage = current is None or current.stage != p.stage
        if self.ingest_state.apply(p, message.at) or (new_stage and p.stage not in {"warning", PAUSE, RESUME}):
            self.refresh_library()  # the library shows each filing's stages as they finish
        self._ingest_changed()

    def on_ingest_finished(self, message: IngestFinished) -> None:
        st = self.ingest_state
        st.finish(message.results, message.cancelled, message.at)
        self.refresh_library()
        ok = sum(1 for r in message.results if r.ok)
        failed = [r for r in message.results if not r.ok and r.status == "failed"]
        if message.cancelled:
            self._ingest_queue.clear()
            self.notify("Ingestion cancelled. Finished stages are kept; add the files again to resume.",
                        title="Cancelled", severity="warning")
        elif failed:
            first = failed[0]
            self.notify(f"{Path(first.path).name}: {first.error}" + (f" (+{len(failed) - 1} more)"
                                                                      if len(failed) > 1 else ""),
                        title=first.error_title or "Ingestion failed", severity="error", timeout=10)
        elif message.results:
            self.notify(f"{ok} of {len(message.results)} file{'s' if len(message.results) != 1 else ''} "
                        "ingested.", title="Ingestion finished")
        self._ingest_changed()
        if self._ingest_queue:
            paths, force = self._ingest_queue.pop(0)
            self.start_ingest(paths, force)
        self.refresh_bindings()

    def _ingest_changed(self) -> None:
        if self.screen is self.ingest_screen:
            self.ingest_screen.sync()
        self.update_status()

    def on_ingest_cancel_requested(self, message: IngestCancelRequested) -> None:
        self.action_cancel_ingest()

    def action_cancel_ingest(self) -> None:
        if not self.ingest_state.running:
            self.notify("Nothing is being ingested.", title="Nothing to cancel")
            return
        self._ingest_cancel.set()
        self.ingest_state.cancelling = True
        self._ingest_changed()

    def action_show_ingest(self) -> None:
        if self.screen is not self.ingest_screen:
            self._close_screens()
            self.push_screen("ingest")

    # --- questions -----------------------------------------------------------------------------------
    @on(Input.Submitted, "#question")
    async def question_submitted(self, event: Input.Submitted) -> None:
        if not event.value.strip():
            return
        try:
            question = check_question(event.value)
        except EngineError as exc:
            self.notify(exc.message, title=exc.title, severity="error")
            return
        if self.engine is None:
            self.notify("The library is still opening; try again in a moment.", title="Not ready")
            return
        event.input.value = ""
        field = self.query_one("#question", QuestionInput)
        field.remember(question)
        await self.ask(question)

    async def ask(self, question: str) -> None:
        """Start answering ``question`` over the current scope (cancels an answer in progress)."""
        self._answer_cancel.set()
        self._answer_cancel = threading.Event()
        self._ticket += 1
        self.answering = True
        self.answer = None
        self.draft = None
        self._asked_at = time.monotonic()
        pane = self.ask_pane
        await pane.start(question)
        self._answer_note = Text.assemble(("Searching ", "bold"), (self.scope_text(), "dim"))
        self._show_answer_progress()
        self.answer_worker(question, list(self.scope), self._answer_cancel, self._ticket)
        self.refresh_bindings()
        self.update_status()

    def on_retrieval_found(self, message: RetrievalFound) -> None:
        if message.ticket != self._ticket:
            return
        r = message.retrieval
        self.draft = draft_answer(r.question, r.evidence, r.tier)
        self.ask_pane.set_evidence(self.draft)
        self._answer_note = Text.assemble(
            ("Answering ", "bold"), (f"from {len(r.evidence)} pieces of evidence · tier {r.tier}", "dim"))
        if r.routed:  # the filings the question was routed to (its company's current reports when it names no period)
            names = {d.id: d.name for d in self.library.documents}
            shown = [names.get(i, i) for i in r.scope]
            listed = ", ".join(shown[:3]) + (f" +{len(shown) - 3}" if len(shown) > 3 else "")
            self._answer_note.append(visible_text(f" · routed to {listed} ({r.route})"), style="dim")
        self._show_answer_progress()

    def on_cells_found(self, message: CellsFound) -> None:
        if message.ticket != self._ticket or self.draft is None:
            return
        d = self.draft
        self.draft = draft_answer(d.question, d.evidence, d.tier, message.cells, message.text)
        self.ask_pane.show_stated(message.text, message.cells)
        self.ask_pane.set_evidence(self.draft)
        n = len(message.cells)
        self._answer_note.append(f" · stated from {n} cell{'s' if n != 1 else ''}" if n else " · computed from cells",
                                 style="green")
        self._show_answer_progress()

    def on_quotes_ready(self, message: QuotesReady) -> None:
        if message.ticket != self._ticket or self.draft is None:
            return
        self.ask_pane.show_quotes(message.quotes)
        n = len(message.quotes)
        self._answer_note.append(f" · {n} sentence{'s' if n != 1 else ''} quoted", style="green")
        self._show_answer_progress()

    def _show_answer_progress(self) -> None:
        """The status above the answer while it is being made, with the seconds it has taken so far."""
        if not self.answering:
            return
        waited = time.monotonic() - self._asked_at
        text = self._answer_note.copy()
        text.append(f" · {fmt_seconds(waited)}", style="dim")
        if not self.ask_pane.streamed and waited > 5:
            text.append(" · the model reads the evidence before the first word", style="dim italic")
        text.append("  esc cancels", style="dim")
        self.ask_pane.set_status(text)

    async def on_answer_streamed(self, message: AnswerStreamed) -> None:
        if message.ticket == self._ticket:
            await self.ask_pane.add_text(message.text)

    async def on_answer_completed(self, message: AnswerCompleted) -> None:
        if message.ticket != self._ticket:
            return
        self.answering = False
        self.draft = None
        await self.show_answer(message.answer)
        for screen in self.screen_stack:
            if isinstance(screen, EvidenceScreen) and screen.ticket == message.ticket and self.ask_pane.listed:
                screen.set_answer(self.ask_pane.listed)
        self.refresh_bindings()
        self.update_status()

    async def show_answer(self, answer: Answer) -> None:
        self.answer = answer
        await self.ask_pane.show_answer(answer)
        unverified = len(flagged(answer))
        status = Text()
        if answer.refused:
            status.append("Not answered", style="bold yellow")
            status.append(" · nothing relevant enough was found; see what was searched", style="dim")
        else:
            status.append("Answered", style="bold green")
            n = len(answer.citations)
            status.append(f" · {n} citation{'s' if n != 1 else ''} · tier {answer.tier}", style="dim")
            if any(c.inferred for c in answer.citations):
                status.append(" · uncited: sources matched by number", style="yellow")
            if unverified:
                status.append(f" · {unverified} flagged number{'s' if unverified > 1 else ''}",
                              style="bold yellow")
        status.append(visible_text(f"\n{answer.question}"), style="italic")
        if answer.reading:
            status.append(visible_text(f"  read as: {answer.reading}"), style="dim")
        self.ask_pane.set_status(status)

    async def on_answer_stopped(self, message: AnswerStopped) -> None:
        if message.ticket != self._ticket:
            return
        self.answering = False
        self.draft = None
        await self.ask_pane.show_stopped(message.reason)
        self.ask_pane.set_status(Text("Stopped." if message.reason == "cancelled" else "Failed.", style="bold"))
        self.refresh_bindings()
        self.update_status()

    def on_history_searched(self, message: HistorySearched) -> None:
        self.load_history(message.search, message.screen)

    def on_evidence_selected(self, message: EvidenceSelected) -> None:
        self.load_evidence(message.screen, *message.key)

    def on_history_loaded(self, message: HistoryLoaded) -> None:
        field = self.query_one("#question", QuestionInput)
        for row in reversed(message.rows):
            field.remember(row["question"])

    def action_cancel_answer(self) -> None:
        if not self.answering:
            self.notify("No answer is being generated.", title="Nothing to cancel")
            return
        self._answer_cancel.set()

    def action_cancel(self) -> None:
        """escape: stop the answer being generated (ingestion is cancelled from its screen)."""
        if self.answering:
            self._answer_cancel.set()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return self.answering
        return True

    def action_open_evidence(self, index: int | None = None) -> None:
        """Preview the evidence selected in the Q&A view: from the moment retrieval found it, while the answer is
        written, and after."""
        listed = self.ask_pane.listed
        if listed is None or not listed.evidence:
            self.notify("Ask a question first; its evidence opens here.", title="No evidence")
            return
        if index is None:
            index = self.ask_pane.selected_index() or 0
        self.push_screen(EvidenceScreen(listed, index, ticket=self._ticket))

    @on(DataTable.RowSelected, "#evidence")
    def evidence_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open_evidence(event.cursor_row)

    def action_export_answer(self) -> None:
        if self.answer is None:
            self.notify("There is no answer to export yet.", title="Nothing to export", severity="warning")
            return
        try:
            path = export_answer(self.answer, self.settings.data_dir / "exports")
        except OSError as exc:
            self.notify(f"Could not write the export: {exc}", title="Export failed", severity="error")
            return
        self.notify(str(path), title="Answer exported")

    def action_open_compare(self) -> None:
        """The compare view of the answer shown, when it was answered across filings."""
        if self.answer is None or not self.answer.series:
            self.notify("Ask a question across filings first (\"over the last four quarters\", \"compared with\"); "
                        "its figures open here as a table.", title="Nothing to compare")
            return
        self.push_screen(CompareScreen(self.answer))

    def on_compare_export_requested(self, message: CompareExportRequested) -> None:
        self.export_compare(message)

    @work(thread=True, exit_on_error=False, group="export", description="export the compare table")
    def export_compare(self, message: CompareExportRequested) -> None:
        try:
            path = export_grid(message.grid, message.question, self.settings.data_dir / "exports", message.kind)
        except OSError as exc:
            message.screen.post_message(CompareExported("", message.kind, f"Could not write the table: {exc}"))
            return
        message.screen.post_message(CompareExported(str(path), message.kind))

    def action_copy_answer(self) -> None:
        if self.answer is None:
            self.notify("There is no answer to copy yet.", title="Nothing to copy", severity="warning")
            return
        self.copy_to_clipboard(answer_markdown(self.answer))
        self.notify("Answer and citations copied (OSC 52 terminal clipboard).", title="Copied")

    # --- navigation ----------------------------------------------------------------------------------
    def _close_screens(self) -> None:
        while len(self.screen_stack) > 1:
            self.pop_screen()

    def action_show_library(self) -> None:
        self._close_screens()
        self.query_one("#tabs", TabbedContent).active = "library-tab"
        self.library.table.focus()

    def action_show_ask(self) -> None:
        self._close_screens()
        self.query_one("#tabs", TabbedContent).active = "ask-tab"
        self.query_one("#question", QuestionInput).focus()

    @on(TabbedContent.TabActivated)
    def tab_activated(self, event: TabbedContent.TabActivated) -> None:
        if event.pane.id == "ask-tab":
            self.query_one("#question", QuestionInput).focus()
        else:
            self.library.table.focus()

    def action_show_history(self) -> None:
        def opened(row: dict[str, Any] | None) -> None:
            if row is not None:
                self.call_later(self._open_history_row, row)

        if not isinstance(self.screen, HistoryScreen):
            self._close_screens()
            self.push_screen(HistoryScreen(), opened)

    async def _open_history_row(self, row: dict[str, Any]) -> None:
        self.action_show_ask()
        answer = answer_from_json(row.get("payload") or {"question": row["question"], "answer": row["answer"]})
        self._ticket += 1
        self.answering = False
        await self.ask_pane.start(answer.question)
        await self.show_answer(answer)

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
        else:
            self.push_screen(HelpScreen(self.keymap, self.settings.data_dir))

    def action_reload_keymap(self) -> None:
        self.reload_keymap(quiet=False)

    def reload_keymap(self, quiet: bool) -> None:
        try:
            self.keymap = load_keymap(self.settings.data_dir)
        except ConfigError as exc:
            self.notify(exc.message, title=exc.title, severity="error", timeout=10)
            return
        self.set_keymap(self.keymap)
        if not quiet:
            self.notify(f"{len(self.keymap)} remapped binding{'s' if len(self.keymap) != 1 else ''}.",
                        title="Keymap loaded")

    # --- status line ---------------------------------------------------------------------------------
    def scope_text(self) -> str:
        docs = {d.id: d for d in self.library.documents}
        if not self.scope:
            return f"over all {len(docs)} filings (routed by the question)"
        names = [docs[i].name for i in self.scope if i in docs]
        shown = ", ".join(names[:2]) + (f" +{len(names) - 2}" if len(names) > 2 else "")
        return visible_text(f"over {len(names)} filing{'s' if len(names) != 1 else ''} in scope: {shown}")

    def update_status(self) -> None:
        n = len(self.library.documents)
        text = Text()
        text.append(f" {n} filing{'s' if n != 1 else ''}", style="bold")
        if self.scope:
            text.append(f" · scope {len(self.scope)}", style="bold")
        else:
            text.append(" · scope: all (routed)", style="dim")
        if self.answering:
            text.append(" · answering…", style="bold")
        summary = self.ingest_state.summary()
        if summary:
            text.append(f" · {summary}", style="bold" if self.ingest_state.running else "dim")
        self.query_one("#status", Static).update(text)


def prepare_multiprocessing() -> None:
    """Start multiprocessing's resource tracker while ``sys.stderr`` is still the real one.

    Textual swaps ``sys.stderr`` for an object whose ``fileno()`` is -1; a tracker started lazily by the
    engine's page-extraction pool inside the app then fails with "bad value(s) in fds_to_keep".
    """
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()


def run_app(settings: Settings) -> int:
    """Run the terminal app on the library in ``settings.data_dir`` until the user quits; the exit status
    (not 0 when the app ended on an unexpected error)."""
    prepare_multiprocessing()
    app = MfrApp(settings)
    try:
        app.run()
        return app.return_code or 0
    finally:
        # quitting cancelled a running ingestion; let it stop at its next check before closing the store
        app.idle.wait(timeout=60)
        if app.engine is not None:
            app.engine.close()

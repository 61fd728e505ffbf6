"""Every action of the app, for the command palette (``ctrl+p``) and the help screen."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider


@dataclass(frozen=True)
class Command:
    """An app action with a title, a line of help and the id of the binding that runs it."""

    title: str
    help: str
    action: str
    key_id: str | None = None


COMMANDS: tuple[Command, ...] = (
    Command("Library", "Show the filings in the library", "show_library", "app.library"),
    Command("Ask a question", "Go to the question box of the Q&A view", "show_ask", "app.ask"),
    Command("Add files or a folder", "Ingest PDFs: type a path (→ completes it) or browse", "add_files",
            "library.add"),
    Command("Remove filing", "Remove the highlighted filing and everything derived from it",
            "remove_document", "library.remove"),
    Command("Re-ingest filing", "Ingest the highlighted filing again from scratch", "reingest_document",
            "library.reingest"),
    Command("Toggle scope", "Add or remove the highlighted filing from the scope of questions",
            "toggle_scope", "library.scope"),
    Command("Clear scope", "Ask over the whole library again (routed by company, year and form)",
            "clear_scope", "library.clear_scope"),
    Command("Filter the library", "Type to filter filings by name, company, form or period", "focus_filter",
            "library.filter"),
    Command("Ingestion progress", "Per file and per stage progress, ETA and warnings", "show_ingest",
            "app.ingest"),
    Command("Cancel ingestion", "Stop ingesting; finished stages are kept and resume next time",
            "cancel_ingest", None),
    Command("Cancel answer", "Stop generating the current answer", "cancel_answer", "app.cancel"),
    Command("Open evidence", "Preview the evidence selected in the Q&A view", "open_evidence", "ask.evidence"),
    Command("Export answer", "Write the answer and its citations to Markdown in the exports folder",
            "export_answer", "ask.export"),
    Command("Copy answer", "Copy the answer with its citations to the clipboard (OSC 52)", "copy_answer",
            "ask.copy"),
    Command("Compare view", "The figures of an answer across filings as a sortable table, exported to CSV or "
            "Markdown", "open_compare", "ask.compare"),
    Command("History", "Search past answers and open one", "show_history", "app.history"),
    Command("Reload keymap", "Read keymap.toml from the data dir again", "reload_keymap", None),
    Command("Help", "Keys, binding ids and how to remap them", "help", "app.help"),
    Command("Quit", "Leave mfr-tui (a running ingestion is cancelled and resumes next time)", "quit",
            "app.quit"),
)


class ActionsProvider(Provider):
    """Lists every app action in the command palette, with its key."""

    def _title(self, cmd: Command) -> str:
        from mfr_tui.keys import display_keys

        keymap = getattr(self.app, "keymap", {})
        return f"{cmd.title}  ({display_keys(cmd.key_id, keymap)})" if cmd.key_id else cmd.title

    async def discover(self) -> Hits:
        for cmd in COMMANDS:
            yield DiscoveryHit(self._title(cmd), partial(self.app.run_action, cmd.action), help=cmd.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for cmd in COMMANDS:
            title = self._title(cmd)
            score = max(matcher.match(title), matcher.match(cmd.help) * 0.5)
            if score > 0:
                yield Hit(score, matcher.highlight(title), partial(self.app.run_action, cmd.action),
                          help=cmd.help)

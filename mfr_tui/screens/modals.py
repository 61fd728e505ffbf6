"""Small modals: confirm, add files (path with completion, or a directory browser), error with copyable text."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Button, DirectoryTree, Input, Label, Static, TextArea

from mfr_tui.plain import plain


class ConfirmModal(ModalScreen[bool]):
    """Yes or no; escape and n mean no."""

    BINDINGS = [
        Binding("escape,n", "answer(False)", "No", id="confirm.no"),
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
    ]

    def __init__(self, title: str, message: str, yes: str = "Yes") -> None:
        super().__init__()
        self.title_text, self.message, self.yes = title, message, yes

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(plain(self.title_text), classes="dialog-title")
            yield Static(plain(self.message), classes="dialog-body")
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"{self.yes} (y)", variant="error", id="yes")
                yield Button("No (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class PathSuggester(Suggester):
    """Completes a path from what is on disk: the first folder or PDF that starts with what was typed."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        if not value:
            return None
        path = Path(os.path.expanduser(value))
        folder, stem = (path, "") if value.endswith(os.sep) else (path.parent, path.name)
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            return None
        for name in names:
            if name.startswith(stem) and not name.startswith(".") and name != stem:
                full = folder / name
                if full.is_dir() or name.lower().endswith(".pdf"):
                    suffix = name[len(stem):] + (os.sep if full.is_dir() else "")
                    return value + suffix
        return None


class PdfTree(DirectoryTree):
    """A directory browser that shows folders and PDFs only."""

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [p for p in paths if not p.name.startswith(".") and (p.is_dir() or p.suffix.lower() == ".pdf")]


class AddFilesModal(ModalScreen[list[str] | None]):
    """Type a path (right arrow accepts the completion) or browse; enter adds the file or folder."""

    BINDINGS = [
        Binding("escape", "dismiss_none", "Cancel", id="add.cancel"),
        Binding("ctrl+b", "browse", "Browse", id="add.browse"),
    ]

    def __init__(self, start: Path) -> None:
        super().__init__()
        self.start = start

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="add-dialog"):
            yield Label("Add filings", classes="dialog-title")
            yield Static("A PDF or a folder of PDFs (searched recursively). → accepts the completion; "
                         "tab moves to the browser.", classes="dialog-body")
            yield Input(value=str(self.start) + os.sep, placeholder="/path/to/filings", id="add-path",
                        suggester=PathSuggester())
            yield PdfTree(self.start, id="add-tree")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Add (enter)", variant="primary", id="add")
                yield Button("Cancel (esc)", id="cancel")

    def action_dismiss_none(self) -> None:
        self.dismiss(None)

    def action_browse(self) -> None:
        self.query_one("#add-tree", PdfTree).focus()

    @on(DirectoryTree.FileSelected)
    def file_selected(self, event: DirectoryTree.FileSelected) -> None:
        self.query_one("#add-path", Input).value = str(event.path)
        self.submit()

    @on(DirectoryTree.DirectorySelected)
    def dir_selected(self, event: DirectoryTree.DirectorySelected) -> None:
        field = self.query_one("#add-path", Input)
        field.value = str(event.path) + os.sep
        field.cursor_position = len(field.value)

    @on(Input.Submitted, "#add-path")
    def path_submitted(self) -> None:
        self.submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "add":
            self.submit()
        else:
            self.dismiss(None)

    def submit(self) -> None:
        raw = self.query_one("#add-path", Input).value.strip()
        path = Path(os.path.expanduser(raw)) if raw else None
        if path is None or not path.exists():
            self.notify(f"{raw or 'Nothing'} does not exist.", title="No such file or folder", severity="error")
            return
        if path.is_file() and path.suffix.lower() != ".pdf":
            self.notify(f"{path.name} is not a PDF.", title="Not a PDF", severity="error")
            return
        self.dismiss([str(path)])


class ErrorModal(ModalScreen[None]):
    """An unexpected error with its details in a read-only text area you can select and copy from."""

    BINDINGS = [
        Binding("escape", "dismiss", "Close", id="error.close"),
        Binding("ctrl+y", "copy", "Copy details", id="error.copy"),
    ]

    def __init__(self, title: str, message: str, details: str) -> None:
        super().__init__()
        self.title_text, self.message, self.details = title, message, details

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="error-dialog"):
            yield Label(plain(self.title_text), classes="dialog-title error-title")
            yield Static(plain(self.message), classes="dialog-body")
            yield TextArea(self.details, read_only=True, id="error-details", soft_wrap=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Copy (ctrl+y)", id="copy")
                yield Button("Close (esc)", variant="primary", id="close")

    def on_mount(self) -> None:
        self.query_one("#close", Button).focus()

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(f"{self.title_text}\n{self.message}\n\n{self.details}")
        self.notify("Error details copied to the clipboard.", title="Copied")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "copy":
            self.action_copy()
        else:
            self.dismiss(None)

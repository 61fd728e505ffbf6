"""The help screen: what each area does and every key with its binding id (for keymap.toml)."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Markdown, Static

from mfr_tui.keys import KEYMAP_FILE, KEYS, bindings, display_keys

AREAS = {"app": "Everywhere", "library": "Library", "ask": "Q&A", "ingest": "Progress",
         "evidence": "Evidence", "history": "History", "help": "Help"}

INTRO = """\
**Library** (F2): *space* marks filings as the scope of the next questions (none marked: each question is
routed by the company, year and form it names). **Ask** (F3): answers stream with `[n]` citations; numbers
not found in the evidence are flagged *⚠ unverified*; *enter* on an evidence row shows the table cell, figure
or page passage behind it. **ctrl+p** lists every action. Copy uses the terminal clipboard (OSC 52, works
over SSH).
"""


class HelpScreen(Screen[None]):
    """Keys, binding ids and how to remap them."""

    BINDINGS = bindings("help.close")
    TITLE = "mfr-tui"
    SUB_TITLE = "Help"

    def __init__(self, keymap: dict[str, str], data_dir: Path) -> None:
        super().__init__()
        self.keymap, self.data_dir = keymap, data_dir

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="help-intro"):
            yield Markdown(INTRO)
        yield DataTable(id="help-keys", cursor_type="row", zebra_stripes=True)
        yield Static(id="help-remap")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        table = self.query_one("#help-keys", DataTable)
        table.add_column("Where", key="where", width=10)
        table.add_column("Keys", key="keys", width=14)
        table.add_column("Action", key="action", width=17)
        table.add_column("Binding id", key="id")
        for k in KEYS:
            area = AREAS.get(k.id.split(".")[0], k.id.split(".")[0])
            remapped = k.id in self.keymap
            table.add_row(area, Text(display_keys(k.id, self.keymap), style="bold yellow" if remapped else "bold"),
                          k.description, Text(k.id, style="dim"), key=k.id)
        self.query_one("#help-remap", Static).update(Text.assemble(
            "Remap: put ", ('"library.add" = "ctrl+o"', "bold"), " lines in ",
            (str(self.data_dir / KEYMAP_FILE), "bold"), ", then ctrl+p → Reload keymap.",
        ))
        table.focus()

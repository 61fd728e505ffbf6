"""Every key binding of the app, with an id, in one table; users remap them by id in ``keymap.toml``.

``keymap.toml`` lives in the data dir and maps binding ids to keys, for example::

    "library.add" = "ctrl+o"
    "app.history" = "f6,ctrl+r"

Unknown ids are reported, not ignored silently.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from textual.binding import Binding, BindingType

from engine.errors import ConfigError

KEYMAP_FILE = "keymap.toml"


@dataclass(frozen=True)
class Key:
    """A binding: default keys, the action it runs, its footer label and whether the footer shows it."""

    id: str
    keys: str
    action: str
    description: str
    show: bool = True
    priority: bool = False
    key_display: str | None = None


KEYS: tuple[Key, ...] = (
    # everywhere
    Key("app.help", "f1,question_mark", "app.help", "Help", key_display="F1"),
    Key("app.library", "f2", "app.show_library", "Library", show=False, priority=True),
    Key("app.ask", "f3", "app.show_ask", "Ask", show=False, priority=True),
    Key("app.ingest", "f4", "app.show_ingest", "Progress", priority=True),
    Key("app.history", "f5", "app.show_history", "History", priority=True),
    Key("app.cancel", "escape", "app.cancel", "Cancel"),
    Key("app.quit", "ctrl+q", "app.quit", "Quit", show=False, priority=True),
    # library pane
    Key("library.filter", "slash", "app.focus_filter", "Filter", key_display="/"),
    Key("library.scope", "space", "app.toggle_scope", "Scope"),
    Key("library.clear_scope", "c", "app.clear_scope", "Clear scope", show=False),
    Key("library.add", "a", "app.add_files", "Add"),
    Key("library.remove", "d,delete", "app.remove_document", "Remove"),
    Key("library.reingest", "r", "app.reingest_document", "Re-ingest"),
    # Q&A view
    Key("ask.previous", "up", "previous_question", "Previous question", show=False),
    Key("ask.next", "down", "next_question", "Next question", show=False),
    Key("ask.evidence", "ctrl+o", "app.open_evidence", "Evidence"),
    Key("ask.export", "ctrl+s", "app.export_answer", "Export"),
    Key("ask.copy", "ctrl+y", "app.copy_answer", "Copy"),
    Key("ask.compare", "ctrl+t", "app.open_compare", "Compare"),
    # ingestion progress screen
    Key("ingest.cancel", "escape", "cancel_or_close", "Cancel / back"),
    Key("ingest.close", "q", "dismiss", "Back"),
    # evidence preview
    Key("evidence.close", "escape,q", "dismiss", "Back"),
    Key("evidence.previous", "left_square_bracket,p", "previous_evidence", "Prev", key_display="["),
    Key("evidence.next", "right_square_bracket,n", "next_evidence", "Next", key_display="]"),
    Key("evidence.page", "t", "toggle_page_text", "Page text"),
    Key("evidence.copy", "ctrl+y", "copy_evidence", "Copy"),
    # compare view (an answer across filings)
    Key("compare.close", "escape,q", "dismiss", "Back"),
    Key("compare.sort", "s", "sort_column", "Sort"),
    Key("compare.open", "o", "open_cell", "Evidence"),
    Key("compare.csv", "c", "export_csv", "CSV"),
    Key("compare.markdown", "m", "export_markdown", "Markdown"),
    # history
    Key("history.close", "escape", "dismiss", "Back"),
    Key("history.open", "ctrl+o", "open_answer", "Open answer"),
    # help
    Key("help.close", "escape,q,f1", "dismiss", "Close"),
)

BY_ID: dict[str, Key] = {k.id: k for k in KEYS}


def bindings(*ids: str) -> list[BindingType]:
    """Bindings for a widget's ``BINDINGS``, by id (typed as Textual types ``BINDINGS``)."""
    out: list[BindingType] = []
    for i in ids:
        k = BY_ID[i]
        out.append(
            Binding(k.keys, k.action, k.description, show=k.show, priority=k.priority,
                    key_display=k.key_display, id=k.id)
        )
    return out


def load_keymap(data_dir: Path) -> dict[str, str]:
    """Read ``<data dir>/keymap.toml`` (binding id -> keys); an absent file is an empty keymap."""
    path = data_dir / KEYMAP_FILE
    if not path.exists():
        return {}
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}", title="Keymap not loaded") from exc
    table = raw.get("keymap", raw)
    unknown = sorted(k for k in table if k not in BY_ID)
    if unknown:
        raise ConfigError(
            f"{path} names unknown binding ids: {', '.join(unknown)}. Press F1 to see the ids.",
            title="Keymap not loaded",
        )
    bad = sorted(k for k, v in table.items() if not isinstance(v, str) or not v.strip())
    if bad:
        raise ConfigError(f"{path}: keys must be strings like \"ctrl+o\" ({', '.join(bad)}).",
                          title="Keymap not loaded")
    return {k: v.strip() for k, v in table.items()}


def display_keys(key_id: str, keymap: dict[str, str]) -> str:
    """The keys of a binding as a user reads them, after the keymap."""
    k = BY_ID[key_id]
    keys = keymap.get(key_id, k.keys)
    names = {"question_mark": "?", "slash": "/", "left_square_bracket": "[", "right_square_bracket": "]",
             "space": "space", "escape": "esc", "delete": "del"}
    return " ".join(names.get(part, part) for part in keys.split(","))

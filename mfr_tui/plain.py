"""Untrusted text for Textual: what comes from a filing, a path or the model is shown, never interpreted.

Textual reads a plain ``str`` given to ``Static``, ``Label``, a ``DataTable`` cell or a notification as
console markup, so a file named ``[/`` crashes the app and ``[@click=app.quit]`` becomes a live action;
``plain`` wraps such a string in ``rich.text.Text`` (never markup) after ``engine.untrusted.visible_text``
(control characters and bidi overrides shown as marks, one character for one).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Input

from engine.untrusted import clean_text, visible_text


def plain(text: object, style: str = "", **kwargs: Any) -> Text:
    """``text`` (a name, a path, a cell, an error message) as ``Text`` that Textual shows as it is."""
    return Text(visible_text(str(text)), style=style, **kwargs)


def shown(text: object) -> str:
    """``text`` with control characters and bidi overrides made visible, for widgets that take a ``str``
    without markup (Markdown bodies, Input values)."""
    return visible_text(str(text))


class PlainInput(Input):
    """An ``Input`` whose value never holds control characters or bidi overrides: text pasted from a filing
    (or typed) is cleaned as it is set, so the field never sends them back to the terminal."""

    def validate_value(self, value: str) -> str:
        """Textual's validator for the ``value`` reactive: the value without unsafe characters."""
        return clean_text(value)

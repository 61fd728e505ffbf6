"""Snapshots of every screen (pytest-textual-snapshot) at 100x30, and the main views at 80x24.

The states come from ``fakes_engine.STATES``, the same ones ``scripts/screenshots.py`` renders. Update with
``pytest tests/test_tui_snapshots.py --snapshot-update`` and look at the report before accepting.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fakes_engine import SHOWN_DATA_DIR, STATES, FakeEngine

from engine.settings import Settings
from mfr_tui.app import MfrApp


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> None:
    """UTC, so history times render the same everywhere."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


def app_on(tmp_path: Path) -> MfrApp:
    settings = Settings(data_dir=SHOWN_DATA_DIR)
    return MfrApp(settings, engine=FakeEngine(settings))


@pytest.mark.parametrize("state", list(STATES))
def test_screen(state: str, snap_compare: Any, tmp_path: Path) -> None:
    assert snap_compare(app_on(tmp_path), terminal_size=(100, 30), run_before=STATES[state])


@pytest.mark.parametrize("state", ["library", "qa", "ingest", "evidence", "evidence-wide"])
def test_screen_fits_80x24(state: str, snap_compare: Any, tmp_path: Path) -> None:
    assert snap_compare(app_on(tmp_path), terminal_size=(80, 24), run_before=STATES[state])

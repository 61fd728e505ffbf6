"""The terminal app shows hostile strings as text (issue 26): a filing, a file name or a model reply holding
console markup (``[/``, ``[@click=app.quit]``), terminal escapes (OSC 52, ``ESC[2J``) or bidi overrides (U+202E)
never crashes the app, never runs an action and never reaches the terminal as a control sequence. Every widget
and notification is swept with them, against the fake engine (tests/fakes_engine.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fakes_engine import FakeEngine, default_documents, wait_until
from textual.widgets import DataTable, Input, Static

from engine.settings import Settings
from engine.types import AnswerEvent, AnswerFinished, Evidence, Region, TokenStreamed
from engine.untrusted import UNSAFE_CODEPOINTS
from mfr_tui import cli
from mfr_tui.app import MfrApp
from mfr_tui.screens.evidence import EvidenceScreen
from mfr_tui.screens.history import HistoryScreen
from mfr_tui.screens.modals import ConfirmModal, ErrorModal

ESC, BEL, RLO = "\x1b", "\x07", "\u202e"
OSC52 = f"{ESC}]52;c;ZWNobyBwd25lZAo={BEL}"
EVIL = "[reverse][blink]EVIL[@click=app.quit] x"
HOSTILE = ["[/", "[@click=app.quit]", EVIL, OSC52, f"{ESC}]0;title{BEL}", f"{ESC}[2J", f"{ESC}[5m",
           f"invoice{RLO}fdp.exe", "\x9b31m", "\u2066x\u2069", "[b]bold[/b] [link=file:///etc/passwd]x[/link]"]
SIZE = (110, 32)


def unsafe(text: str) -> list[str]:
    return sorted({hex(ord(ch)) for ch in text if ord(ch) in UNSAFE_CODEPOINTS and ch not in "\n\t"})


class HostileEngine(FakeEngine):
    """The fake engine over a library written before text was cleaned: every string a filing, a path or the
    model gives holds markup, escapes and bidi overrides."""

    def __init__(self, settings: Settings) -> None:
        docs = [replace(d, name=f"{EVIL} {i} {OSC52}", company=f"[/ Corp{RLO} {ESC}[2J", form_type="[@click=app.quit]",
                        fiscal_period=f"{ESC}[5m", tickers=["[/"], former_names=[f"Old{ESC}]0;x{BEL}"])
                for i, d in enumerate(default_documents())]
        super().__init__(settings, documents=docs)

    def regions(self, ref: str, page: int | None = None, kind: str | None = None) -> list[Region]:
        doc = self.document(ref)
        table = {"title": EVIL, "columns": ["[/", f"{ESC}[5m2018"],
                 "rows": [{"label": f"Revenue {OSC52}", "values": [f"[b]1[/b]{RLO}", f"{ESC}[2J2"]}]}
        return [Region(7, doc.id, 60, "table", (52.0, 140.5, 560.0, 402.0), f"yolo[/{ESC}", title=EVIL,
                       units=f"[/ {RLO}", summary=OSC52, table=table, crop_path=f"crops/{EVIL}.png"),
                Region(9, doc.id, 44, "figure", (60.0, 300.0, 540.0, 610.0), "yolo+vlm", title=f"[/{ESC}[2J",
                       summary=f"Bars {OSC52} [@click=app.quit] 1,577", summary_method="[/",
                       crop_path=f"crops/[/{RLO}.png")]

    def page_text(self, ref: str, page: int) -> dict[str, Any]:
        text = "\n".join(["Cash flows " + h for h in HOSTILE])
        return {"page": page, "width": 612.0, "height": 792.0, "has_text": 1, "text": text, "ocr": 0, "words": []}

    def _evidence(self) -> list[Evidence]:
        d = self.documents()[0]
        return [Evidence(701, d.id, d.name, 60, "table", 0.81, f"{EVIL} {OSC52}", f"dense[/{ESC}", 2,
                         (52.0, 140.5, 560.0, 402.0), 7),
                Evidence(905, d.id, d.name, 44, "image", 0.60, "[/", "[@click=app.quit]", 3,
                         (60.0, 300.0, 540.0, 610.0), 9),
                Evidence(312, d.id, d.name, 48, "text", 0.50, " ".join(HOSTILE), "bm25", 1)]

    def answer(self, question: str, scope: Any = None, cancelled: Any = None, save: bool = True) -> Any:
        events: list[AnswerEvent] = []
        for event in super().answer(question, scope, cancelled, save):
            if isinstance(event, TokenStreamed):
                continue
            if isinstance(event, AnswerFinished):
                a = event.answer
                text = f"Revenue was $5 [1]. {' '.join(HOSTILE)}"
                event = AnswerFinished(replace(a, text=text, computation=f"[/ {ESC}[2J", question=question))
                events.append(TokenStreamed(text))
            events.append(event)
        return iter(events)


def shown_text(app: MfrApp) -> str:
    """What the terminal would be sent for the current screen (its SVG export, which keeps every character)."""
    return app.export_screenshot()


def assert_clean(app: MfrApp) -> None:
    assert app.is_running and app.return_code in (None, 0)
    screen = shown_text(app)
    bad = [screen[max(0, i - 60): i + 20] for i, ch in enumerate(screen) if ch in "\x1b\u202e\x07\x9b"]
    assert not unsafe(screen), bad[:3]


def cells(table: DataTable[Any]) -> list[str]:
    return [getattr(c, "plain", str(c)) for r in range(table.row_count) for c in table.get_row_at(r)]


@pytest.fixture
def settings(private_data_dir: Path) -> Settings:
    return Settings(data_dir=private_data_dir)


async def test_every_widget_shows_hostile_strings_as_text(settings: Settings, tmp_path: Path) -> None:
    engine = HostileEngine(settings)
    app = MfrApp(settings, engine=engine)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: bool(app.library.documents))
        table = app.query_one("#documents", DataTable)
        shown = cells(table)
        assert any(EVIL in c for c in shown) and any(c == "[@click=app.quit]" for c in shown)
        assert not any(unsafe(c) for c in shown)
        detail = str(app.query_one("#doc-detail", Static).render())
        assert EVIL in detail and "[/ Corp\ufffd ␛[2J" in detail
        assert_clean(app)

        await pilot.press("slash")  # the library filter: "[/" crashed the app
        for text in ("[/", "[@click=app.quit]", f"{ESC}[2J", EVIL):
            app.query_one("#filter", Input).value = text
            await pilot.pause()
            assert_clean(app)
        app.query_one("#filter", Input).value = "[/nothing"
        await pilot.pause()
        assert "No filing matches “[/nothing”" in str(app.query_one("#doc-detail", Static).render())
        app.query_one("#filter", Input).value = ""
        await pilot.pause()
        app.library.table.focus()

        await pilot.press("d")  # the confirmation names the filing
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmModal))
        assert EVIL in str(app.screen.query_one(".dialog-body", Static).render())
        assert_clean(app)
        await pilot.press("n")

        for text in HOSTILE:  # every notification, whatever it quotes
            app.notify(text, title=text, severity="error")
        await pilot.pause()
        assert all(not n.markup for n in app._notifications)
        assert_clean(app)

        folder = tmp_path / "in["  # "[/" in the failing file's path
        folder.mkdir()
        name = f"broken{EVIL}{RLO}fdp.exe.pdf"
        (folder / name).write_bytes(b"%PDF-1.4\n")
        app.start_ingest([str(folder / name)])  # fails: its name in the table, the warning and the notification
        await wait_until(pilot, lambda: bool(app.ingest_state.results))
        app.action_show_ingest()
        await pilot.pause()
        assert any("broken[reverse][blink]EVIL" in c for c in cells(app.screen.query_one("#ingest-files",
                                                                                          DataTable)))
        assert_clean(app)
        await pilot.press("escape")

        app.action_show_ask()
        await pilot.pause()
        app.query_one("#question", Input).value = f"What was revenue {ESC}[2J [/ [@click=app.quit]?"
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.answer is not None)
        await pilot.pause()
        assert any(EVIL in c for c in cells(app.query_one("#evidence", DataTable)))
        assert_clean(app)

        app.query_one("#evidence", DataTable).focus()
        await pilot.press("enter")  # the table view, the page text (t), the figure
        await wait_until(pilot, lambda: isinstance(app.screen, EvidenceScreen) and bool(app.screen.regions))
        screen = app.screen
        assert screen.view == "table" and any("␛]52" in c for c in cells(screen.query_one("#evidence-table",
                                                                                          DataTable)))
        assert_clean(app)
        await pilot.press("t")
        await pilot.pause()
        page = str(screen.query_one("#page-body", Static).render())
        assert "␛]52;c;ZWNobyBwd25lZAo=␇" in page and "[@click=app.quit]" in page
        assert_clean(app)
        await pilot.press("right_square_bracket")
        await wait_until(pilot, lambda: screen.index == 1 and bool(screen.regions))
        assert "[@click=app.quit]" in str(screen.query_one("#figure-body", Static).render())
        assert_clean(app)
        await pilot.press("escape")

        await pilot.press("f5")  # history: the hostile question in the table and the preview
        await wait_until(pilot, lambda: isinstance(app.screen, HistoryScreen) and bool(app.screen.rows))
        await pilot.pause()
        assert any("[/ [@click=app.quit]" in c for c in cells(app.screen.query_one("#history-table", DataTable)))
        assert_clean(app)
        await pilot.press("escape")

        def broken(search: str = "", limit: int = 200) -> list[dict[str, Any]]:
            raise RuntimeError(f"catalogue {EVIL} [/ {OSC52}")

        engine.history = broken  # type: ignore[method-assign]
        await pilot.press("f5")  # the error modal quotes the message
        await wait_until(pilot, lambda: isinstance(app.screen, ErrorModal))
        assert "catalogue [reverse][blink]EVIL" in str(app.screen.query_one(".dialog-body", Static).render())
        assert_clean(app)
        await pilot.press("escape")
    assert app.return_code in (None, 0)


async def test_an_overlong_question_is_refused_in_the_app(settings: Settings) -> None:
    engine = FakeEngine(settings)
    app = MfrApp(settings, engine=engine)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: bool(app.library.documents))
        app.action_show_ask()
        await pilot.pause()
        app.query_one("#question", Input).value = "What was revenue? " * 200
        await pilot.press("enter")
        await pilot.pause()
        assert any(n.title == "Question too long" for n in app._notifications)
        assert not engine.questions and not app.answering


def test_the_app_exits_non_zero_after_an_unexpected_crash(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    class Crashing(MfrApp):
        def on_mount(self) -> None:
            raise RuntimeError("boom")

        def run(self, *args: Any, **kwargs: Any) -> Any:
            return super().run(headless=True)

    monkeypatch.setattr("mfr_tui.app.MfrApp", lambda settings: Crashing(settings, engine=FakeEngine(settings)))
    code = cli.main(["--data-dir", str(tmp_path / "data")])
    assert code == 1

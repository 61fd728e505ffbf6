"""Pilot tests of the terminal app against the fake engine (tests/fakes_engine.py)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from fakes_engine import (
    OTHER_PERIOD,
    QUESTION,
    STATED,
    WIDE_CELL,
    WIDE_COLUMNS,
    WIDE_TABLE,
    FakeEngine,
    evidence,
    wait_until,
)
from textual.widgets import DataTable, Input, Markdown, Static

from engine.settings import Settings
from mfr_tui.app import MfrApp
from mfr_tui.commands import COMMANDS
from mfr_tui.keys import KEYS
from mfr_tui.screens.evidence import EvidenceScreen
from mfr_tui.screens.help import HelpScreen
from mfr_tui.screens.history import HistoryScreen
from mfr_tui.screens.ingest import IngestScreen
from mfr_tui.screens.modals import AddFilesModal, ConfirmModal, ErrorModal

SIZE = (100, 30)


@pytest.fixture
def settings(private_data_dir: Path) -> Settings:
    """Settings on the per-test data dir of conftest's autouse ``private_data_dir``."""
    return Settings(data_dir=private_data_dir)


def make_app(settings: Settings, **fake: Any) -> tuple[MfrApp, FakeEngine]:
    engine = FakeEngine(settings, **fake)
    return MfrApp(settings, engine=engine), engine


async def ready(pilot: Any) -> None:
    await wait_until(pilot, lambda: bool(pilot.app.library.documents) or pilot.app.engine._docs == {})


def notes(app: MfrApp) -> list[tuple[str, str, str]]:
    """(title, message, severity) of the notifications shown so far."""
    return [(n.title, n.message, n.severity) for n in app._notifications]


async def ask(pilot: Any, question: str = QUESTION) -> None:
    app: MfrApp = pilot.app
    app.action_show_ask()
    await pilot.pause()
    app.query_one("#question", Input).value = question
    await pilot.press("enter")


# --- library -----------------------------------------------------------------------------------------


async def test_library_lists_filings_and_filters_as_you_type(settings: Settings) -> None:
    app, _ = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        table = app.query_one("#documents", DataTable)
        assert table.row_count == 4
        await pilot.press("slash")
        assert app.focused is app.query_one("#filter", Input)
        await pilot.press(*"amazon")
        await pilot.pause()
        assert table.row_count == 1
        assert "AMAZON_2019_10K" in str(app.query_one("#doc-detail", Static).render())
        await pilot.press(*" 10-k")
        await pilot.pause()
        assert table.row_count == 1
        app.query_one("#filter", Input).value = "10-q"
        await pilot.pause()
        assert table.row_count == 1 and app.library.highlighted().name == "PEPSICO_2023Q1_10Q"
        app.query_one("#filter", Input).value = "nothing like this"
        await pilot.pause()
        assert table.row_count == 0
        assert "No filing matches" in str(app.query_one("#doc-detail", Static).render())
        await pilot.press("enter")
        assert app.focused is table


async def test_space_marks_the_scope_of_the_next_question(settings: Settings) -> None:
    app, engine = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        docs = engine.documents()
        await pilot.press("space")  # marks the first filing and moves down
        await pilot.press("down", "space")  # skips the second, marks the third
        assert app.scope == [docs[0].id, docs[2].id]
        assert "scope 2" in str(app.query_one("#status", Static).render())
        await pilot.press("up", "up", "up", "space")  # unmarks the first
        assert app.scope == [docs[2].id]
        await ask(pilot)
        await wait_until(pilot, lambda: app.answer is not None)
        assert engine.questions[-1] == (QUESTION, [docs[2].id])
        app.action_show_library()
        await pilot.press("c")
        assert app.scope == []


async def test_remove_asks_first_and_reingest_forces(settings: Settings) -> None:
    app, engine = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        first = engine.documents()[0]
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("n")
        assert engine.removed == []
        await pilot.press("d")
        await pilot.press("y")
        await wait_until(pilot, lambda: app.query_one("#documents", DataTable).row_count == 3)
        assert engine.removed == [first.id]
        assert ("Removed", f"{first.name} was removed from the library.", "information") in notes(app)
        await pilot.press("r")
        await wait_until(pilot, lambda: bool(engine.ingest_calls) and not app.ingest_state.running)
        assert engine.ingest_calls[-1]["force"] is True


# --- ingestion ---------------------------------------------------------------------------------------


def pdfs(folder: Path, *names: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for n in names:
        (folder / n).write_bytes(b"%PDF-1.4\n")
    return folder


async def test_add_folder_shows_progress_and_escape_cancels(settings: Settings, tmp_path: Path) -> None:
    gate = threading.Event()
    app, engine = make_app(settings, ingest_gate=gate)
    folder = pdfs(tmp_path / "filings", "ACME_2024_10K.pdf", "BETA_2024_10Q.pdf")
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("a")
        assert isinstance(app.screen, AddFilesModal)
        app.screen.query_one("#add-path", Input).value = str(folder)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, IngestScreen))
        st = app.ingest_state
        await wait_until(pilot, lambda: st.stages.get("text") is not None and st.stages["text"].finished)
        screen = app.screen
        assert [Path(f).name for f in st.files] == ["ACME_2024_10K.pdf", "BETA_2024_10Q.pdf"]
        assert st.files[str(folder / "ACME_2024_10K.pdf")].status == "ingesting"
        assert st.files[str(folder / "BETA_2024_10Q.pdf")].status == "queued"
        assert "12/12 done" in str(screen.query_one("#count-text").render())
        assert screen.query_one("#ingest-files", DataTable).row_count == 2
        assert any("OCR used" in w for w in st.warnings)
        assert "Ingesting 1/2" in str(app.query_one("#status", Static).render())
        # ingestion keeps going while the user browses the library
        await pilot.press("f2")
        assert not isinstance(app.screen, IngestScreen) and st.running
        await pilot.press("f4")
        assert isinstance(app.screen, IngestScreen)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not st.running)
        assert [f.status for f in st.files.values()] == ["cancelled", "cancelled"]
        assert any(t == "Cancelled" for t, _, _ in notes(app))
        assert "cancelled" in str(app.query_one("#status", Static).render())
        await pilot.press("escape")  # nothing running: escape goes back
        assert not isinstance(app.screen, IngestScreen)


async def test_ingest_runs_to_the_end_and_lists_the_new_filing(settings: Settings, tmp_path: Path) -> None:
    app, engine = make_app(settings)
    folder = pdfs(tmp_path / "in", "NEWCO_2024_10K.pdf")
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        app.start_ingest([str(folder / "NEWCO_2024_10K.pdf")])
        await wait_until(pilot, lambda: bool(app.ingest_state.results))
        await wait_until(pilot, lambda: any(d.name == "NEWCO_2024_10K" for d in app.library.documents))
        new = next(d for d in app.library.documents if d.name == "NEWCO_2024_10K")
        assert new.status == "ready"
        assert all(s.finished for s in app.ingest_state.stages.values())
        assert ("Ingestion finished", "1 of 1 file ingested.", "information") in notes(app)


async def test_a_failed_file_is_reported_and_the_batch_goes_on(settings: Settings, tmp_path: Path) -> None:
    app, _ = make_app(settings)
    folder = pdfs(tmp_path / "in", "a_broken.pdf", "GOOD_2024_10K.pdf")
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        app.start_ingest([str(folder)])
        await wait_until(pilot, lambda: bool(app.ingest_state.results))
        statuses = {Path(p).name: f.status for p, f in app.ingest_state.files.items()}
        assert statuses == {"a_broken.pdf": "failed", "GOOD_2024_10K.pdf": "done"}
        assert any(t == "Not a PDF" and s == "error" for t, _, s in notes(app))


async def test_add_files_refuses_a_missing_path(settings: Settings, tmp_path: Path) -> None:
    app, engine = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("a")
        app.screen.query_one("#add-path", Input).value = str(tmp_path / "nope")
        await pilot.press("enter")
        assert isinstance(app.screen, AddFilesModal)
        assert any(t == "No such file or folder" for t, _, _ in notes(app))
        await pilot.press("escape")
        assert not isinstance(app.screen, AddFilesModal) and engine.ingest_calls == []


# --- questions ---------------------------------------------------------------------------------------


async def test_answer_streams_then_shows_checks_and_evidence(settings: Settings) -> None:
    gate = threading.Event()
    app, _ = make_app(settings, answer_gate=gate)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await ask(pilot)
        pane = app.ask_pane
        await wait_until(pilot, lambda: pane.streamed != "")
        assert app.answering and app.answer is None
        assert pane.streamed.startswith("3M spent")
        table = app.query_one("#evidence", DataTable)
        assert table.row_count == 4  # evidence is listed before the answer
        table.move_cursor(row=2)
        gate.set()
        await wait_until(pilot, lambda: app.answer is not None)
        assert not app.answering
        assert table.cursor_row == 2  # the finished answer lists the same evidence: the cursor stays
        md = app.query_one("#answer", Markdown).source
        assert "`$4,862 million ⚠ not found`" in md and "[1]" in md
        # the resolved cell's source (retrieved second, cited [2]) is listed first
        assert [str(table.get_row_at(i)[0]) for i in range(4)] == ["[2]", "[1]", "[3]", "·"]
        assert [str(table.get_row_at(i)[2]) for i in range(4)] == ["60", "48", "44", "49"]


async def test_the_filings_a_question_was_routed_to_are_named_while_it_is_answered(settings: Settings) -> None:
    gate = threading.Event()
    app, engine = make_app(settings, answer_gate=gate, route="company=3m current=newest")
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await ask(pilot)
        status = app.query_one("#ask-status", Static)
        first = engine.documents()[0].name
        await wait_until(pilot, lambda: "routed to" in str(status.render()))
        assert f"routed to {first} (company=3m current=newest)" in str(status.render())
        gate.set()
        await wait_until(pilot, lambda: app.answer is not None)


async def test_stated_cell_shows_before_the_model_and_once_after(settings: Settings) -> None:
    gate = threading.Event()
    app, _ = make_app(settings, stream_gate=gate)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await ask(pilot)
        pane = app.ask_pane
        stated = app.query_one("#stated", Static)
        await wait_until(pilot, lambda: stated.display)
        assert pane.streamed == "" and app.answering  # the model has not said a word yet
        shown = str(stated.render())
        assert "$1,577 million: Purchases of property, plant and equipment (PP&E), fiscal 2018" in shown
        assert "p. 60" in shown
        assert "stated from 1 cell" in str(app.query_one("#ask-status", Static).render())
        table = app.query_one("#evidence", DataTable)
        assert str(table.get_row_at(0)[2]) == "60" and str(table.get_row_at(0)[0]) == "[2]"
        gate.set()
        await wait_until(pilot, lambda: app.answer is not None)
        md = app.query_one("#answer", Markdown).source
        assert md.startswith("3M spent") and STATED not in md  # stated above, not twice
        assert str(stated.render()).count("$1,577 million:") == 1 and stated.display
        assert app.query_one("#answer-scroll").border_title == "stated from the filing's cells, then the model"


async def test_a_replaced_first_summary_is_folded_with_its_flags(settings: Settings) -> None:
    from fakes_engine import DRAFT
    from textual.widgets import Collapsible

    app, _ = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await ask(pilot, "What drove the change in 3M's operating margin in 2018?")
        await wait_until(pilot, lambda: app.answer is not None and bool(app.answer.draft))
        fold = app.query_one("#draft", Collapsible)
        assert fold.display and fold.collapsed and "first summary" in str(fold.title)
        shown = str(app.query_one("#draft-text", Static).render())
        assert DRAFT in shown and "flagged in it: lawsuit, plant, fire" in shown  # as text, never as markup
        assert "plant fire" not in app.query_one("#answer", Markdown).source
        await ask(pilot)  # an answer with no draft hides the fold
        await wait_until(pilot, lambda: app.answer is not None and not app.answer.draft)
        assert not fold.display


async def test_model_sentences_that_contradict_the_code_are_folded_apart(settings: Settings) -> None:
    from textual.widgets import Collapsible

    app, _ = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await ask(pilot, QUESTION + " Does the model contradict it?")
        await wait_until(pilot, lambda: app.answer is not None)
        fold = app.query_one("#contradicted", Collapsible)
        assert fold.display and fold.collapsed and "contradict the code" in str(fold.title)
        shown = str(app.query_one("#contradicted-text", Static).render())
        assert "[bold]9,999[/]" in shown and "not the code's figure" in shown  # shown as text, not as markup
        assert "9,999" not in app.query_one("#answer", Markdown).source
        # how the question was read is shown beside it, for the reader to check
        assert "read as: value · capex · fiscal 2018" in str(app.query_one("#ask-status", Static).render())
        # the next answer has nothing folded: the fold is hidden
        await ask(pilot)
        await wait_until(pilot, lambda: app.answer is not None and not app.answer.contradicted)
        assert not fold.display


async def test_flagged_numbers_show_what_they_are_instead(settings: Settings) -> None:
    app, _ = make_app(settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await ask(pilot)
        await wait_until(pilot, lambda: app.answer is not None)
        checks = app.query_one("#checks", Static)
        text = str(checks.render())
        lines = text.splitlines()
        assert lines[0].startswith("Numbers ✓ $1,577 million  ✓ 24.5%")
        assert "✓ $6,240" not in text and "✓ $4,862" not in text
        assert f"⚠ $6,240 million {OTHER_PERIOD}" in " ".join(text.split())
        assert "⚠ $4,862 million not found in the cited evidence" in text
        assert checks.region.height >= 3 and checks.region.width <= 80  # every flagged note is on screen
        md = app.query_one("#answer", Markdown).source
        assert "`$6,240 million ⚠ another period`" in md and "`$4,862 million ⚠ not found`" in md
        assert "**$1,577 million**" in md  # a verified number is not marked
        assert "2 flagged numbers" in str(app.query_one("#ask-status", Static).render())


async def test_evidence_opens_while_the_answer_is_written(settings: Settings) -> None:
    gate = threading.Event()
    app, _ = make_app(settings, answer_gate=gate)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await ask(pilot)
        await wait_until(pilot, lambda: app.ask_pane.streamed != "")
        assert app.answering
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: isinstance(app.screen, EvidenceScreen) and bool(app.screen.regions))
        assert not any(t == "No evidence" for t, _, _ in notes(app))
        screen = app.screen
        assert screen.ev.page == 60 and screen.view == "table"
        table = screen.query_one("#evidence-table", DataTable)
        assert "on yellow" in str(table.get_cell_at((1, 1)).style)  # the resolved cell, before any check
        assert "[2]" in str(screen.query_one("#evidence-head", Static).render())
        gate.set()
        await wait_until(pilot, lambda: app.answer is not None)
        assert screen.answer.checks and app.screen is screen
        assert "on red" in str(table.get_cell_at((0, 2)).style)  # $6,240 million, 2017's value, now flagged
        await pilot.press("right_square_bracket")
        await wait_until(pilot, lambda: screen.index == 1 and bool(screen.page))
        assert "[1]" in str(screen.query_one("#evidence-head", Static).render())
        await pilot.press("escape")
        await pilot.press("ctrl+o")  # and after the answer finished
        await wait_until(pilot, lambda: isinstance(app.screen, EvidenceScreen))


async def test_evidence_preview_lights_the_cited_cells_and_span(settings: Settings) -> None:
    app, _ = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await ask(pilot)
        await wait_until(pilot, lambda: app.answer is not None)
        app.query_one("#evidence", DataTable).focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, EvidenceScreen) and bool(app.screen.regions))
        screen = app.screen
        assert screen.view == "table"
        table = screen.query_one("#evidence-table", DataTable)
        assert table.row_count == 5
        headers = [str(c.label) for c in table.ordered_columns]
        assert headers == ["Line item", "2018", "2017", "2016"]  # columns[i] heads values[i]
        lit = [(r, c) for r in range(table.row_count) for c in range(1, 4)
               if "on yellow" in str(table.get_cell_at((r, c)).style)]
        flagged = [(r, c) for r in range(table.row_count) for c in range(1, 4)
                   if "on red" in str(table.get_cell_at((r, c)).style)]
        assert lit == [(1, 1)]  # (1,577): the resolved cell, PP&E in 2018
        assert flagged == [(0, 2)]  # 6,240: operating cash flow in 2017, quoted for 2018
        assert table.cursor_coordinate == (1, 1)
        assert "1 cited cell lit 1 flagged" in str(screen.query_one("#evidence-note").render())
        await pilot.press("t")  # the page text behind the table
        assert screen.view == "page"
        await pilot.press("right_square_bracket")
        await wait_until(pilot, lambda: screen.index == 1 and bool(screen.page))
        assert screen.view == "page"
        assert "cited passage shaded" in str(screen.query_one("#evidence-note").render())
        assert screen.span is not None
        assert screen.page["text"][slice(*screen.span)].startswith("Free cash flow was $4.86 billion in 2018")
        await pilot.press("right_square_bracket")
        await wait_until(pilot, lambda: screen.index == 2 and bool(screen.regions))
        assert screen.view == "figure"
        figure = str(screen.query_one("#figure-body", Static).render())
        assert "crops/" in figure and "yolo+vlm" in figure and "1,577 in 2018" in figure
        await pilot.press("escape")
        assert not isinstance(app.screen, EvidenceScreen)


def table_lines(table: DataTable) -> list[str]:
    """The table's lines as they are drawn now (its fixed label column, then the columns scrolled into view)."""
    return [table.render_line(y).text for y in range(table.size.height)]


async def test_row_labels_stay_on_screen_beside_a_far_cited_cell(settings: Settings) -> None:
    app, _ = make_app(settings, table=WIDE_TABLE, cell=WIDE_CELL)
    async with app.run_test(size=(80, 24)) as pilot:
        await evidence(pilot)  # by keys only: the question, enter, tab to the evidence, enter
        screen = app.screen
        assert isinstance(screen, EvidenceScreen) and screen.view == "table"
        table = screen.query_one("#evidence-table", DataTable)
        cited = (3, len(WIDE_COLUMNS))  # SG&A in the last quarter
        assert table.cursor_coordinate == cited and table.fixed_columns == 1
        await wait_until(pilot, lambda: table.scroll_x > 0)  # scrolled sideways to the cited cell ...
        lines = table_lines(table)
        assert lines[0].lstrip().startswith("Line item") and lines[0].rstrip().endswith("Q4 2023")
        row = lines[1 + cited[0]]
        assert row.lstrip().startswith("Selling, general and admin") and "…" in row  # ... its label kept beside it
        shown = row.split("…", 1)[1].split()
        assert shown == WIDE_TABLE["rows"][cited[0]]["values"][-len(shown):]  # whole numbers, none cut beside it
        assert [h for h in WIDE_COLUMNS if h in lines[0]] == WIDE_COLUMNS[-len(shown):] and len(shown) > 2
        assert all(line.lstrip().startswith(label[:12]) for line, label in
                   zip(lines[1:], [r["label"] for r in WIDE_TABLE["rows"]], strict=False))
        cell = str(screen.query_one("#evidence-cell", Static).render())
        assert cell.startswith("Selling, general and administrative expenses · Q4 2023 · 2,382")  # in full
        await pilot.press("up")
        cell = str(screen.query_one("#evidence-cell", Static).render())
        assert cell.startswith("Research, development and related expenses · Q4 2023 · 887")
        await pilot.press(*["left"] * len(WIDE_COLUMNS))
        await wait_until(pilot, lambda: table.scroll_x == 0)
        assert "Q1 2021" in table_lines(table)[0]
        await pilot.press(*["right"] * len(WIDE_COLUMNS), "down")
        await wait_until(pilot, lambda: table.scroll_x > 0)
        assert table.cursor_coordinate == cited
        assert table_lines(table)[1 + cited[0]].lstrip().startswith("Selling, general and admin")
        await pilot.resize_terminal(140, 30)  # a wider screen gives the labels more room; the cursor stays
        await wait_until(pilot, lambda: "Selling, general and administrative expenses " in table_lines(table)[4])
        assert table.cursor_coordinate == cited
        assert table_lines(table)[4].rstrip().endswith("2,382")


def cancel_in_footer(app: MfrApp) -> bool:
    return any(b.binding.id == "app.cancel" and b.enabled for b in app.active_bindings.values())


async def test_escape_cancels_generation(settings: Settings) -> None:
    gate = threading.Event()
    app, _ = make_app(settings, answer_gate=gate)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await ask(pilot)
        await wait_until(pilot, lambda: app.ask_pane.streamed != "")
        assert cancel_in_footer(app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.answering)
        assert app.answer is None
        assert "Cancelled" in app.query_one("#answer", Markdown).source
        assert not cancel_in_footer(app)


async def test_refusal_shows_what_was_searched(settings: Settings) -> None:
    app, _ = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await ask(pilot, "What is the CEO's favourite colour?")
        await wait_until(pilot, lambda: app.answer is not None)
        assert app.answer.refused
        md = app.query_one("#answer", Markdown).source
        assert "Not answered" in md and "What was searched" in md
        assert "documents: 3M_2018_10K, AMAZON_2019_10K" in md and "thresholds: text 0.35" in md
        assert app.query_one("#answer-scroll").has_class("-refused")
        assert "Not answered" in str(app.query_one("#ask-status", Static).render())


async def test_engine_errors_become_notifications(settings: Settings) -> None:
    app, _ = make_app(settings, documents=[])
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert "library is empty" in str(app.query_one("#doc-detail", Static).render())
        await ask(pilot)
        await wait_until(pilot, lambda: any(t == "No documents" for t, _, _ in notes(app)))
        assert not app.answering


async def test_unexpected_worker_errors_open_a_modal_with_copyable_details(settings: Settings) -> None:
    app, engine = make_app(settings)

    def broken(search: str = "", limit: int = 200) -> list[dict[str, Any]]:
        raise RuntimeError("catalogue exploded")

    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        engine.history = broken  # type: ignore[method-assign]
        await pilot.press("f5")
        await wait_until(pilot, lambda: isinstance(app.screen, ErrorModal))
        details = app.screen.query_one("#error-details").text
        assert "RuntimeError: catalogue exploded" in details and "Traceback" in details
        await pilot.press("ctrl+y")
        assert "catalogue exploded" in app.clipboard
        await pilot.press("escape")
        assert not isinstance(app.screen, ErrorModal)


async def test_question_history_with_up_and_down(settings: Settings) -> None:
    app, _ = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await ask(pilot, "first question?")
        await wait_until(pilot, lambda: app.answer is not None)
        await ask(pilot, "second question?")
        await wait_until(pilot, lambda: app.answer is not None and app.answer.question == "second question?")
        field = app.query_one("#question", Input)
        field.value = "draft"
        await pilot.press("up")
        assert field.value == "second question?"
        await pilot.press("up", "up")
        assert field.value == "first question?"
        await pilot.press("down", "down")
        assert field.value == "draft"


# --- everywhere --------------------------------------------------------------------------------------


async def test_history_is_searchable_and_opens_an_answer(settings: Settings) -> None:
    app, _ = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await ask(pilot)
        await wait_until(pilot, lambda: app.answer is not None)
        await ask(pilot, "What is the CEO's favourite colour?")
        await wait_until(pilot, lambda: app.answer is not None and app.answer.refused)
        await pilot.press("f5")
        assert isinstance(app.screen, HistoryScreen)
        screen = app.screen
        await wait_until(pilot, lambda: len(screen.rows) == 2)
        await pilot.press(*"capital")
        await wait_until(pilot, lambda: len(screen.rows) == 1)
        assert screen.rows[0]["question"] == QUESTION
        await pilot.press("enter")  # from the search box to the list
        await pilot.press("enter")  # opens the answer
        await wait_until(pilot, lambda: not isinstance(app.screen, HistoryScreen) and app.answer is not None
                         and not app.answer.refused)
        assert app.query_one("#tabs").active == "ask-tab"
        assert app.answer.question == QUESTION and len(app.answer.evidence) == 4
        assert "`$4,862 million ⚠ not found`" in app.query_one("#answer", Markdown).source
        assert STATED in str(app.query_one("#stated", Static).render())


async def test_export_writes_markdown_with_citations(settings: Settings) -> None:
    app, _ = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        app.action_show_ask()
        await pilot.press("ctrl+s")
        assert any(t == "Nothing to export" for t, _, _ in notes(app))
        await ask(pilot)
        await wait_until(pilot, lambda: app.answer is not None)
        await pilot.press("ctrl+s")
        files = list((settings.data_dir / "exports").glob("*.md"))
        assert len(files) == 1
        text = files[0].read_text()
        assert text.startswith(f"# {QUESTION}")
        assert "- [2] 3M_2018_10K, page 60 (table, region 7)" in text
        assert "- $4,862 million: **FLAGGED: not found** — not found in the cited evidence" in text
        assert f"- $6,240 million: **FLAGGED: another period** in 3M_2018_10K p.60 — {OTHER_PERIOD}" in text
        assert ("Answer exported", str(files[0]), "information") in notes(app)


async def test_copy_uses_the_terminal_clipboard(settings: Settings) -> None:
    app, _ = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await ask(pilot)
        await wait_until(pilot, lambda: app.answer is not None)
        await pilot.press("ctrl+y")
        assert "[1] 3M_2018_10K, page 48 (text)" in app.clipboard


async def test_help_lists_every_binding_with_its_id(settings: Settings) -> None:
    app, _ = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        table = app.screen.query_one("#help-keys", DataTable)
        assert table.row_count == len(KEYS)
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)


async def test_command_palette_lists_and_runs_every_action(settings: Settings) -> None:
    app, _ = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        for cmd in COMMANDS:  # every command names a real app action
            assert hasattr(app, f"action_{cmd.action}"), cmd.action
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Ingestion progress")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, IngestScreen))
        await pilot.press("q")
        await pilot.press("ctrl+p")
        await pilot.press(*"Export answer")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: any(t == "Nothing to export" for t, _, _ in notes(app)))


async def test_bindings_are_remappable_from_the_keymap_file(settings: Settings) -> None:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    (settings.data_dir / "keymap.toml").write_text('"library.scope" = "x"\n"app.history" = "f6"\n')
    app, engine = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("x")
        assert app.scope == [engine.documents()[0].id]
        await pilot.press("f6")
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press("escape")
        await pilot.press("f1")
        keys = app.screen.query_one("#help-keys", DataTable)
        assert str(keys.get_row("library.scope")[1]) == "x"


async def test_a_bad_keymap_is_reported(settings: Settings) -> None:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    (settings.data_dir / "keymap.toml").write_text('"no.such.binding" = "x"\n')
    app, _ = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert any(t == "Keymap not loaded" and "no.such.binding" in m for t, m, _ in notes(app))


async def test_typing_in_the_qa_view_goes_to_the_question_box(settings: Settings) -> None:
    app, _ = make_app(settings)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        app.action_show_ask()
        await pilot.pause()
        app.query_one("#evidence", DataTable).focus()
        await pilot.press("w", "h", "y", "question_mark")
        field = app.query_one("#question", Input)
        assert app.focused is field and field.value == "why?"
        assert not isinstance(app.screen, HelpScreen)

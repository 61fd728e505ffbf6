"""Unit tests of the TUI's pure parts: evidence matching, export, ingestion state, keymap, path completion."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes_engine import CASH_FLOW_TABLE, PAGE_48_TEXT, FakeEngine

from engine.errors import ConfigError
from engine.types import AnswerFinished, Check, IngestProgress
from mfr_tui.evidence import (
    answer_from_json,
    answer_markdown,
    cited_cells,
    cited_numbers,
    export_answer,
    find_span,
    mark_unverified,
    numbers_in,
)
from mfr_tui.keys import KEYS, display_keys, load_keymap
from mfr_tui.messages import IngestProgressed
from mfr_tui.screens.modals import PathSuggester
from mfr_tui.state import IngestState, fmt_seconds
from mfr_tui.widgets.library import matches


def fake_answer(question: str = "capex?"):  # type: ignore[no-untyped-def]
    events = list(FakeEngine().answer(question))
    final = events[-1]
    assert isinstance(final, AnswerFinished)
    return final.answer


def test_numbers_ignore_citation_markers() -> None:
    assert numbers_in("$1,577 million [1] and (1,373) [2], 24% of 6,439.") == [1577, 1373, 24, 6439]


def test_cited_cells_match_the_numbers_of_the_citing_sentences() -> None:
    answer = fake_answer()
    numbers = cited_numbers(answer, 0)  # evidence 0 is cited as [1]
    assert {1577, 1373, 6439} <= set(numbers)
    assert cited_cells(CASH_FLOW_TABLE, numbers) == {(0, 1), (1, 1), (1, 2)}


def test_find_span_is_whitespace_insensitive() -> None:
    snippet = "Free cash flow was $4.86 billion in 2018,   while free cash flow conversion was 92 percent."
    span = find_span(PAGE_48_TEXT, snippet)
    assert span is not None
    assert PAGE_48_TEXT[span[0]:span[1]].endswith("92 percent.")
    assert find_span(PAGE_48_TEXT, "Something never said on this page at all.") is None


def test_unverified_numbers_are_flagged_in_place() -> None:
    text = mark_unverified("Free cash flow was $4,862 million and $14,862 other.",
                           [Check("4,862", False), Check("1,577", True)])
    assert text == "Free cash flow was $`4,862 ⚠ unverified` million and $14,862 other."


def test_history_payload_round_trips_and_exports(tmp_path: Path) -> None:
    answer = fake_answer()
    again = answer_from_json(answer.to_json())
    assert again.text == answer.text and again.evidence == answer.evidence and again.checks == answer.checks
    md = answer_markdown(again)
    assert "- [3] 3M_2018_10K, page 44 (image, region 9)" in md
    assert "| 2 | 3M_2018_10K | 48 | text | 0.774 | 1 |" in md
    first = export_answer(again, tmp_path / "exports", now=0)
    second = export_answer(again, tmp_path / "exports", now=0)
    assert first != second and first.read_text() == md
    again.citations[0].inferred = True
    inferred = answer_markdown(answer_from_json(again.to_json()))
    c = again.citations[0]
    assert f"- [{c.marker}] {c.doc}, page {c.page}" in inferred and "matched by a number it quotes" in inferred


def test_refusal_export_says_what_was_searched() -> None:
    md = answer_markdown(fake_answer("the weather in Paris?"))
    assert "## What was searched" in md and "- text hits: 2" in md


def progress(path: str, stage: str, done: int, total: int, i: int = 0) -> IngestProgress:
    return IngestProgress(path, "d" * 12, stage, done, total, "", "", i, 2)


def test_ingest_state_counts_eta_and_end_states() -> None:
    st = IngestState()
    st.start(["a.pdf", "b.pdf"], at=0.0)
    st.apply(progress("a.pdf", "open", 0, 1), 0.0)
    st.apply(progress("a.pdf", "text", 5, 10), 10.0)
    assert st.stages["text"].eta() == pytest.approx(10.0)  # 5 pages in 10 s, 5 to go
    assert st.files["b.pdf"].status == "queued"
    st.apply(progress("a.pdf", "embed", 1, 4), 12.0)
    assert st.stages["text"].finished and st.stages["metadata"].finished  # skipped stages count as over
    assert "Ingesting 1/2 · embed 1/4" in st.summary()
    assert st.apply(progress("a.pdf", "done", 1, 1), 13.0) is True
    st.apply(IngestProgress("b.pdf", "", "warning", 0, 0, "", "page 3: no text", 1, 2), 14.0)
    assert st.warnings == ["b.pdf: page 3: no text"]
    st.finish([], cancelled=True, at=15.0)
    assert [f.status for f in st.files.values()] == ["done", "cancelled"]
    assert st.summary() == "Last ingest: 1 ingested, 1 cancelled"
    assert fmt_seconds(None) == "--:--" and fmt_seconds(3725) == "1:02:05"


def test_progress_messages_coalesce_within_a_stage_only() -> None:
    a = IngestProgressed(progress("a.pdf", "text", 1, 10), 0.0)
    b = IngestProgressed(progress("a.pdf", "text", 2, 10), 0.1)
    c = IngestProgressed(progress("a.pdf", "render", 1, 10), 0.2)
    last = IngestProgressed(progress("a.pdf", "text", 10, 10), 0.3)
    warn = IngestProgressed(progress("a.pdf", "warning", 0, 0), 0.4)
    assert b.can_replace(a) and not c.can_replace(b) and not last.can_replace(b) and not warn.can_replace(a)


def test_keymap_file(tmp_path: Path) -> None:
    assert load_keymap(tmp_path) == {}
    (tmp_path / "keymap.toml").write_text('[keymap]\n"library.add" = "ctrl+o"\n')
    assert load_keymap(tmp_path) == {"library.add": "ctrl+o"}
    assert display_keys("library.add", {"library.add": "ctrl+o"}) == "ctrl+o"
    assert display_keys("app.help", {}) == "f1 ?"
    (tmp_path / "keymap.toml").write_text('"library.add" = 3\n')
    with pytest.raises(ConfigError):
        load_keymap(tmp_path)
    (tmp_path / "keymap.toml").write_text("not toml [")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_keymap(tmp_path)
    assert len({k.id for k in KEYS}) == len(KEYS)


def test_filter_matches_every_word() -> None:
    doc = FakeEngine().documents()[0]
    assert matches(doc, "3m 10-k") and matches(doc, "FY2018") and not matches(doc, "3m 10-q")


async def test_path_completion_offers_folders_and_pdfs(tmp_path: Path) -> None:
    (tmp_path / "filings").mkdir()
    (tmp_path / "filings" / "3M_2018_10K.pdf").write_bytes(b"%PDF")
    (tmp_path / "fiscal.txt").write_text("x")
    s = PathSuggester()
    assert await s.get_suggestion(str(tmp_path / "fi")) == str(tmp_path / "filings") + "/"
    assert await s.get_suggestion(str(tmp_path / "filings") + "/") == str(tmp_path / "filings" / "3M_2018_10K.pdf")
    assert await s.get_suggestion(str(tmp_path / "nothing" / "x")) is None

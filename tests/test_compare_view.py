"""The compare view of an answer across filings: the table's shape and sorting, CSV and Markdown exports, and the
screen driven with Pilot against the fake engine (sort, a cell's evidence, exports by keyboard, hostile names)."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from fakes_engine import SERIES, SERIES_FILINGS, FakeEngine, wait_until

from engine.settings import Settings
from engine.types import Answer
from mfr_tui.app import MfrApp
from mfr_tui.compare import grid_of, to_csv, to_markdown


def series_answer() -> Answer:
    return Answer(question="Capex over the last three years?", text="", evidence=[], tier="text",
                  filings=list(SERIES_FILINGS), series=[dict(p) for p in SERIES])


def test_periods_are_columns_and_companies_rows_sortable_both_ways() -> None:
    grid = grid_of(series_answer())
    assert grid.columns == ["FY2016 (2016-12-31)", "FY2017 (2017-12-31)", "FY2018 (2018-12-31)"]
    assert [r[0] for r in grid.rows] == ["MMM", "Peer [b]Co[/b]"]
    assert [r[0] for r in grid.sorted_by(2).rows] == ["Peer [b]Co[/b]", "MMM"]  # 1,010 before 1,577
    assert [r[0] for r in grid.sorted_by(2, descending=True).rows] == ["MMM", "Peer [b]Co[/b]"]
    assert grid.sorted_by(2).value(0, 2) == 1010e6


def test_csv_and_markdown_carry_every_figure_with_its_filing_and_page() -> None:
    grid = grid_of(series_answer())
    rows = list(csv.reader(io.StringIO(to_csv(grid))))
    assert rows[0] == ["company", "measure", "FY2016 (2016-12-31)", "FY2017 (2017-12-31)", "FY2018 (2018-12-31)"]
    assert rows[1][2:] == ["1420000000", "1373000000", "1577000000"]
    assert any(r[:4] == ["MMM", "Purchases of property, plant and equipment (PP&E)", "FY2016 (2016-12-31)",
                         "MMM 10-K FY2016"] and "1,370" in r[7] for r in rows)
    md = to_markdown(grid, "Capex | over time")
    assert md.startswith("# Capex \\| over time") and "| MMM | Purchases" in md and "1,577 million" in md
    assert "3M_2018_10K p. 60" in md and "(restated)" in md


def test_a_metrics_exports_say_how_each_figure_was_computed() -> None:
    a = series_answer()
    for p in a.series:
        p.update(measure="gross margin", row="Gross margin", shown="44.52%", value=44.52,
                 how="36,413 / 81,797 * 100 = 44.52%")
    grid = grid_of(a)
    rows = list(csv.reader(io.StringIO(to_csv(grid))))
    assert "computed" in rows[4] and any(r[-1] == "36,413 / 81,797 * 100 = 44.52%" for r in rows[5:])
    md = to_markdown(grid)
    assert "| Company | Period | Filing | Page | Computed |" in md and "p. 60 | 36,413 / 81,797 * 100 = 44.52% |" in md
    assert "Computed" not in to_markdown(grid_of(series_answer()))  # line items: no such column


def test_a_label_opening_with_a_formula_sign_is_quoted_in_the_csv() -> None:
    a = series_answer()
    a.series[0]["company"] = "=HYPERLINK(\"x\")"
    assert "'=HYPERLINK" in to_csv(grid_of(a))


async def test_the_compare_view_sorts_opens_evidence_and_exports_by_keyboard(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    app = MfrApp(settings, engine=FakeEngine(settings))
    async with app.run_test(size=(100, 30)) as pilot:
        a: Any = app
        await wait_until(pilot, lambda: bool(a.library.documents))
        await pilot.press("ctrl+t")  # no answer yet: a notice, no screen
        assert type(app.screen).__name__ != "CompareScreen"
        a.action_show_ask()
        await pilot.press(*"How did capital expenditures move over the last three years?", "enter")
        await wait_until(pilot, lambda: a.answer is not None)
        await pilot.press("ctrl+t")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "CompareScreen")
        screen: Any = app.screen
        table = screen.query_one("#compare-table")
        assert table.row_count == 2 and len(table.columns) == 5
        assert str(table.get_cell_at((1, 0))) == "Peer [b]Co[/b]"  # shown as text, never markup
        await pilot.press("right", "right", "right", "right", "s")
        assert [r[0] for r in screen.grid.rows] == ["Peer [b]Co[/b]", "MMM"]
        await pilot.press("s")
        assert [r[0] for r in screen.grid.rows] == ["MMM", "Peer [b]Co[/b]"]
        await pilot.press("c", "m")
        exports = settings.data_dir / "exports"
        await wait_until(pilot, lambda: len(list(exports.glob("*compare*"))) == 2)
        assert {p.suffix for p in exports.glob("*compare*")} == {".csv", ".md"}
        await pilot.press("o")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "EvidenceScreen")
        assert app.screen.index == 1  # type: ignore[attr-defined]

"""Smoke test of the terminal app on the real engine: ingest a small real filing and see it in the library."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes_engine import wait_until
from textual.widgets import DataTable

from engine.settings import Settings
from mfr_tui.app import MfrApp, prepare_multiprocessing
from mfr_tui.screens.ingest import IngestScreen

pytestmark = [pytest.mark.real_models, pytest.mark.eval_data, pytest.mark.slow]


def first_pages(src: Path, dst: Path, n: int = 3) -> Path:
    """The first ``n`` pages of a PDF as a new small PDF."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(src))
    out = pdfium.PdfDocument.new()
    out.import_pages(pdf, list(range(n)))
    out.save(str(dst))
    out.close()
    pdf.close()
    return dst


async def test_real_engine_ingests_a_filing_and_lists_it(eval_dir: Path, tmp_path: Path) -> None:
    src = eval_dir / "financebench" / "pdfs" / "3M_2018_10K.pdf"
    if not src.exists():
        pytest.skip(f"{src} is not in the evaluation data")
    pdf = first_pages(src, tmp_path / "3M_2018_10K.pdf")
    settings = Settings(data_dir=tmp_path / "data", extract_workers=2)  # a process pool, as in real use
    prepare_multiprocessing()  # as run_app does
    app = MfrApp(settings)  # the real engine, opened by the app's worker
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.engine is not None, timeout=60)
        app.start_ingest([str(pdf)])
        await wait_until(pilot, lambda: isinstance(app.screen, IngestScreen))
        await wait_until(pilot, lambda: bool(app.ingest_state.results), timeout=600)
        result = app.ingest_state.results[0]
        assert result.ok, result.error
        await pilot.press("f2")
        await wait_until(pilot, lambda: any(d.name == "3M_2018_10K" for d in app.library.documents), timeout=30)
        doc = next(d for d in app.library.documents if d.name == "3M_2018_10K")
        assert doc.pages == 3 and doc.status in {"ready", "partial"}
        assert app.query_one("#documents", DataTable).row_count == 1
        assert all(f.status == "done" for f in app.ingest_state.files.values())

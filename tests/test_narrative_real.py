"""Quotes on real filings (the dev set at ../shared/data/eval): the cue words of the kind asked find the sentence
that answers it in a real page's text, for wordings of the question not in the dev set and on two companies.

The pages are read with the real text layer; the embedder is the deterministic fake (hashed words), so what ranks
the sentences here is the lexical channel and the vocabulary's cue words, the part these tests pin."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from fakes_models import FakeEmbedder

from engine.ask.narrative import find_quotes
from engine.ask.question import parse
from engine.ingest.pdftext import extract_pages
from engine.types import Evidence

EVAL = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "eval"
PDFS = EVAL / "financebench" / "pdfs"

pytestmark = [
    pytest.mark.eval_data,
    pytest.mark.skipif(not (PDFS / "BESTBUY_2023_10K.pdf").exists(),
                       reason="the dev set (../shared/data/eval) is not here"),
]


@cache
def pages(name: str, numbers: tuple[int, ...]) -> list[Evidence]:
    """Whole pages of a filing as text evidence, one passage a page (1-based page numbers)."""
    return [Evidence(chunk_id=p.page, doc_id=name, doc=name, page=p.page, modality="text", score=0.5, text=p.text)
            for p in extract_pages(PDFS / f"{name}.pdf", numbers=list(numbers), workers=1)]


@pytest.mark.parametrize("question", [
    "What companies did Best Buy acquire during fiscal 2022?",
    "Which acquisitions did Best Buy complete in FY2022?",
])
def test_acquired_parties_are_quoted(question: str) -> None:
    q = parse(question)
    assert q.narrative == "parties"
    quotes = find_quotes(q, pages("BESTBUY_2023_10K", (51, 52)), {}, FakeEmbedder())
    said = " ".join(x.text for x in quotes)
    assert "Current Health" in said and quotes[0].page == 51


@pytest.mark.parametrize("question", [
    "Why did 3M's operating margins fall in 2022?",
    "What were the main reasons behind 3M's lower operating income margin in FY2022?",
])
def test_drivers_are_quoted_with_their_connectives(question: str) -> None:
    q = parse(question)
    assert q.narrative == "drivers"
    quotes = find_quotes(q, pages("3M_2022_10K", (21, 22, 31)), {}, FakeEmbedder())
    assert quotes and any(c in quotes[0].text.lower() for c in ("due to", "driven by", "impacted", "offset by"))

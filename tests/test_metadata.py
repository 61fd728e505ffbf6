"""Filing metadata from cover pages and file names."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.metadata import extract_metadata, from_file_name
from engine.pdftext import PageText

EVAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "eval"


def _page(text: str, n: int = 1) -> PageText:
    words = []
    lines = []
    for y, line in enumerate(text.splitlines()):
        idx = []
        for x, w in enumerate(line.split()):
            idx.append(len(words))
            words.append((10.0 * x, 12.0 * y, 10.0 * x + 8, 12.0 * y + 10, w))
        if idx:
            lines.append(idx)
    return PageText(page=n, width=612, height=792, words=words, lines=lines)


COVER_10K = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
FORM 10-K
ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d)
For the fiscal year ended December 31, 2018
Commission file number 1-3285
ACME WIDGETS CORPORATION
(Exact name of registrant as specified in its charter)
"""

COVER_10Q = """FORM 10-Q
For the quarterly period ended Commission file
March 31, 2023 number 1-5805
Example Holdings, Inc.
(Exact name of registrant as specified in its charter)
"""


def test_10k_cover() -> None:
    meta = extract_metadata([_page(COVER_10K)], "whatever.pdf")
    assert meta["form_type"] == "10-K"
    assert meta["fiscal_period"] == "FY2018"
    assert meta["company"] == "Acme Widgets Corporation"
    assert meta["title"] == "Acme Widgets Corporation 10-K FY2018"


def test_10q_cover_with_interleaved_columns() -> None:
    meta = extract_metadata([_page(COVER_10Q)], "q.pdf")
    assert meta["form_type"] == "10-Q"
    assert meta["fiscal_period"] == "2023-03-31"
    assert meta["company"] == "Example Holdings, Inc."


def test_signature_date_is_the_filing_date() -> None:
    pages = [_page(COVER_10K), _page("SIGNATURES\nBy: Someone\nDate: February 7, 2019", 2)]
    assert extract_metadata(pages, "x.pdf")["filing_date"] == "2019-02-07"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("3M_2018_10K.pdf", {"company": "3M", "fiscal_period": "FY2018", "form_type": "10-K"}),
        ("2023 Q1 AAPL.pdf", {"company": "AAPL", "fiscal_period": "2023Q1"}),
        ("PEPSICO_2023_8K_dated-2023-05-05.pdf",
         {"company": "PEPSICO", "form_type": "8-K", "filing_date": "2023-05-05", "fiscal_period": "FY2023"}),
        ("JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf", {"company": "JOHNSON JOHNSON", "fiscal_period": "2023Q2"}),
        ("20220202-alphabet-10k.pdf", {"filing_date": "2022-02-02", "form_type": "10-K", "company": "alphabet"}),
    ],
)
def test_file_name_fallback(name: str, expected: dict[str, str]) -> None:
    meta = from_file_name(name)
    for key, value in expected.items():
        assert meta[key] == value
    assert extract_metadata([], name)["title"]


@pytest.mark.eval_data
@pytest.mark.skipif(not EVAL.exists(), reason="needs ../shared/data/eval")
@pytest.mark.parametrize(
    ("rel", "expected"),
    [
        ("financebench/pdfs/3M_2018_10K.pdf", {"company": "3M Company", "form_type": "10-K",
                                                "fiscal_period": "FY2018"}),
        ("financebench/pdfs/JPMORGAN_2022Q2_10Q.pdf", {"company": "JPMorgan Chase & Co.", "form_type": "10-Q",
                                                       "fiscal_period": "2022-06-30"}),
        ("financebench/pdfs/MICROSOFT_2023_10K.pdf", {"company": "Microsoft Corporation", "form_type": "10-K",
                                                      "fiscal_period": "FY2023"}),
        ("financebench/pdfs/PEPSICO_2023_8K_dated-2023-05-05.pdf", {"company": "PepsiCo, Inc.",
                                                                     "form_type": "8-K"}),
        ("docugami_sec10q/docs/2022 Q3 NVDA.pdf", {"company": "Nvidia Corporation", "form_type": "10-Q",
                                                   "fiscal_period": "2022-10-30"}),
    ],
)
def test_real_covers(rel: str, expected: dict[str, str]) -> None:
    from engine.pdftext import extract_pages

    path = EVAL / rel
    if not path.exists():
        pytest.skip(f"{rel} not in the eval folder")
    pages = extract_pages(path, [1, 2, 3])
    meta = extract_metadata(pages, path.name)
    for key, value in expected.items():
        assert meta.get(key) == value, (key, meta)

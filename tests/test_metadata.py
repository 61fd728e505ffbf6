"""Filing metadata from cover pages and file names: company identity (name, tickers, CIK, former names), form,
period. The covers here are made up; the real ones are read by the eval_data test at the end."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.metadata import FRONT_PAGES, extract_metadata, from_file_name, read_identity
from engine.pagetext import PageText

EVAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "eval"


def _page(text: str, n: int = 1, big: tuple[int, ...] = ()) -> PageText:
    """A page of the text's lines; the lines numbered in ``big`` set in type three times as tall."""
    words = []
    lines = []
    for y, line in enumerate(text.splitlines()):
        idx = []
        size = 30.0 if y in big else 10.0
        for x, w in enumerate(line.split()):
            idx.append(len(words))
            words.append((10.0 * x, 40.0 * y, 10.0 * x + 8, 40.0 * y + size, w))
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


COVER_SYMBOLS = """FORM 10-K
For the fiscal year ended December 31, 2023
Commission File Number 001-12345
Zorblax Dynamics Corp.
(Exact name of registrant as specified in its charter)
Widgetry International, Inc.
(Former name, former address and former fiscal year, if changed since last report)
Central Index Key: 0000987654
Securities registered pursuant to Section 12(b) of the Act:
Title of each class Trading Symbol(s) Name of each exchange on which registered
Common Stock, par value $0.01 per share ZBX The New York Stock Exchange
Depositary Shares, each representing a 1/1,000th interest in a share of 5.75% Series A ZBX PR A NYSE
Depositary Shares, Series B ZBX PrB New York Stock Exchange
4.250% Notes due 2027 ZBX27 New York Stock Exchange
1.375% Notes due 2031 — New York Stock Exchange
Guarantee of Notes due 2032 of Zorblax Finance LLC ZBX/32 New York Stock Exchange
Securities registered pursuant to Section 12(g) of the Act: None
Indicate by check mark if the registrant is a well-known seasoned issuer.
"""


def test_registrant_tickers_cik_and_former_name_from_the_cover() -> None:
    meta = extract_metadata([_page(COVER_SYMBOLS)], "scan0001.pdf")
    assert meta["company"] == "Zorblax Dynamics Corp."
    assert meta["tickers"] == ["ZBX"]  # preferred series, notes and guarantees carry the same ticker or none
    assert meta["cik"] == "0000987654"  # not the Commission File Number
    assert meta["former_names"] == ["Widgetry International, Inc."]
    assert meta["title"] == "Zorblax Dynamics Corp. 10-K FY2023"


def test_symbol_column_variants() -> None:
    header_after = """Securities registered pursuant to Section 12(b) of the Act:
Class B Common Stock QRT New York Stock Exchange
(Title of each class) (Trading symbol) (Name of each exchange on which registered)
SECURITIES REGISTERED PURSUANT TO SECTION 12(G) OF THE ACT:"""
    assert read_identity([_page(header_after)]).tickers == ["QRT"]
    two_classes = """Securities registered pursuant to Section 12(b) of the Act:
Title of each class Trading Symbol(s) Name of each exchange on which registered
Class A Common Stock, $0.001 par value LEXA Nasdaq Stock Market LLC
Class C Capital Stock, $0.001 par value LEX Nasdaq Stock Market LLC
Indicate by check mark"""
    assert read_identity([_page(two_classes)]).tickers == ["LEXA", "LEX"]
    exchange_first = """Securities registered pursuant to Section 12(b) of the Act:
Title of each class Name of each exchange on which registered Trading Symbol
Common Shares New York Stock Exchange MOPE
Indicate by check mark"""
    assert read_identity([_page(exchange_first)]).tickers == ["MOPE"]


def test_a_cover_without_a_symbol_column_gives_no_ticker_from_its_table() -> None:
    old_cover = """Securities registered pursuant to Section 12(b) of the Act:
Name of each exchange
Title of each class on which registered
COMMON STOCK, PAR VALUE $.01 PER SHARE New York Stock Exchange, Inc.
Securities registered pursuant to section 12(g) of the Act: None"""
    assert read_identity([_page(old_cover)]).tickers == []
    # Item 5 says it, anywhere in the filing
    item5 = "Our common stock is listed on the Nasdaq Global Select Market under the symbol “QRTX.”"
    pages = [_page(old_cover)] + [_page("Item 1. Business", n) for n in range(2, 12)] + [_page(item5, 12)]
    assert read_identity(pages).tickers == ["QRTX"]


def test_press_release_names_its_company_by_its_listing() -> None:
    release = """Fourth-Quarter 2023 Results
HOUSTON - February 1, 2024 - Marlow & Marlow Holdings, Inc. (NYSE: MAM) today reported results for
the fourth quarter. Revenue grew 4% (Nasdaq: MAMX is a different class)."""
    identity = read_identity([_page(release)])
    assert identity.company == "Marlow & Marlow Holdings, Inc."
    assert identity.tickers == ["MAM", "MAMX"]


def test_former_names_said_of_the_company_only() -> None:
    text = """Plaza, Inc. (formerly known as Quadrant Payments, Inc.) builds tools for sellers.
Subsidiaries: Kestrel LLC (formerly Kestrel Labs, Inc.); Adobe Spark, formerly Adobe Slate, is a product."""
    cover = "Plaza, Inc.\n(Exact name of registrant as specified in its charter)\nN/A\n(Former name, if changed)"
    identity = read_identity([_page(cover), _page(text, 2)])
    assert identity.company == "Plaza, Inc." and identity.former_names == ["Quadrant Payments, Inc."]


def test_a_report_without_an_sec_cover_is_named_by_its_most_prominent_legal_name() -> None:
    title = """Annual Report 2022
Nordwind Energie AG
Letter to shareholders"""
    body = """Nordwind Energie AG Annual Report 2022 3
Dear shareholders, our supplier Baltic Ports Ltd. delivered on time.
INCOME STATEMENT FOR GROUP AND SEGMENTS"""
    pages = [_page(title, 1, big=(1,)), _page(body, 2), _page(body.replace(" 3", " 4"), 3)]
    assert read_identity(pages).company == "Nordwind Energie AG"
    headers = "\n".join(["Vetra Group Group Financial Statements", "Revenues 7 98,990 104,210"])
    pages = [_page(headers, n) for n in range(1, 4)]
    assert read_identity(pages).company == "Vetra Group"
    assert read_identity([_page("A survey of 2,000 adults\nMethodology and topline")]).company == ""


def test_a_title_page_in_capitals_keeps_its_initials_and_acronym() -> None:
    assert read_identity([_page("ANNUAL REPORT 2022\nVTR FINANCE N.V.\nVTR GROUP")]).company == "VTR Finance N.V."


def test_cover_made_as_a_pdf_and_ingested(tmp_path: Path, private_data_dir: Path) -> None:
    from fakes_models import FakeEmbedder, FakeLLM
    from pdfgen import write_pdf

    from engine import Engine, Settings

    pdf = write_pdf(tmp_path / "scan0001.pdf", [COVER_SYMBOLS.splitlines(), ["Item 1. Business", "We make things."]])
    models = {"embedder": FakeEmbedder(), "llm": FakeLLM(), "vision": None, "detector": None, "ocr": None,
              "reranker": None}
    engine = Engine(Settings(data_dir=private_data_dir, extract_workers=1, regions=False), overrides=models)
    [res] = engine.ingest([pdf])
    assert res.ok
    [doc] = engine.documents()
    assert doc.company == "Zorblax Dynamics Corp." and doc.tickers == ["ZBX"] and doc.cik == "0000987654"
    assert doc.former_names == ["Widgetry International, Inc."]
    assert doc.to_json()["tickers"] == ["ZBX"]
    engine.close()


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("9Q_2018_10K.pdf", {"company": "9Q", "fiscal_period": "FY2018", "form_type": "10-K"}),
        ("2023 Q1 ORCH.pdf", {"company": "ORCH", "fiscal_period": "2023Q1"}),
        ("ORCHARD_2023_8K_dated-2023-05-05.pdf",
         {"company": "ORCHARD", "form_type": "8-K", "filing_date": "2023-05-05", "fiscal_period": "FY2023"}),
        ("MARLOW_MARLOW_2023Q2_EARNINGS.pdf", {"company": "MARLOW MARLOW", "fiscal_period": "2023Q2"}),
        ("20220202-lexicon-10k.pdf", {"filing_date": "2022-02-02", "form_type": "10-K", "company": "lexicon"}),
        ("lx-10-k-q4-2022.pdf", {"company": "lx", "form_type": "10-K", "fiscal_period": "2022Q4"}),
        ("Nordwind-Energie-Annual-Report-2021-en.pdf", {"company": "Nordwind Energie", "fiscal_period": "FY2021"}),
        ("vetra_q3_2022_results.pdf", {"company": "vetra", "fiscal_period": "2022Q3"}),
        ("PG_2020.05.21_Survey-Topline.pdf", {"company": "PG", "filing_date": "2020-05-21"}),
    ],
)
def test_file_name_fallback(name: str, expected: dict[str, str]) -> None:
    meta = from_file_name(name)
    for key, value in expected.items():
        assert meta[key] == value
    assert extract_metadata([], name)["title"]


def test_file_names_without_a_name() -> None:
    assert "company" not in from_file_name("0a1b2c3d4e5f6a7b.pdf")
    assert "company" not in from_file_name("2310.05634v2.pdf")
    assert "company" not in from_file_name("annual-report-2022.pdf")


def test_the_cover_wins_over_the_file_name() -> None:
    meta = extract_metadata([_page(COVER_SYMBOLS)], "OTHERCO_2019_10Q.pdf")
    assert (meta["company"], meta["form_type"], meta["fiscal_period"]) == ("Zorblax Dynamics Corp.", "10-K",
                                                                           "FY2023")


@pytest.mark.eval_data
@pytest.mark.skipif(not EVAL.exists(), reason="needs ../shared/data/eval")
@pytest.mark.parametrize(
    ("rel", "expected"),
    [
        ("financebench/pdfs/3M_2022_10K.pdf", {"company": "3M Company", "tickers": ["MMM"], "form_type": "10-K",
                                                "fiscal_period": "FY2022"}),
        ("financebench/pdfs/JPMORGAN_2022Q2_10Q.pdf", {"company": "JPMorgan Chase & Co.", "form_type": "10-Q",
                                                       "fiscal_period": "2022-06-30"}),
        ("financebench/pdfs/MICROSOFT_2023_10K.pdf", {"company": "Microsoft Corporation", "tickers": ["MSFT"],
                                                      "form_type": "10-K", "fiscal_period": "FY2023"}),
        ("financebench/pdfs/PEPSICO_2023_8K_dated-2023-05-05.pdf", {"company": "PepsiCo, Inc.", "tickers": ["PEP"],
                                                                     "form_type": "8-K"}),
        ("financebench/pdfs/JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf", {"company": "Johnson & Johnson",
                                                                   "tickers": ["JNJ"]}),
        ("docugami_sec10q/docs/2022 Q3 NVDA.pdf", {"company": "Nvidia Corporation", "tickers": ["NVDA"],
                                                   "form_type": "10-Q", "fiscal_period": "2022-10-30"}),
        ("adi8885_financial_qa/data/Reports/2021-10-k.pdf", {"company": "The Goldman Sachs Group, Inc.",
                                                             "tickers": ["GS"]}),
        ("adi8885_financial_qa/data/Reports/20220202-alphabet-10k.pdf", {"company": "Alphabet Inc.",
                                                                         "tickers": ["GOOGL", "GOOG"]}),
        ("adi8885_financial_qa/data/Reports/BMW_Finance_Annual_Report_2022.pdf", {"company": "BMW Finance N.V."}),
    ],
)
def test_real_covers(rel: str, expected: dict[str, object]) -> None:
    from engine.ingest.pdftext import extract_pages

    path = EVAL / rel
    if not path.exists():
        pytest.skip(f"{rel} not in the eval folder")
    pages = extract_pages(path, list(range(1, FRONT_PAGES + 1)))
    meta = extract_metadata(pages, path.name)
    for key, value in expected.items():
        assert meta.get(key) == value, (key, meta)
    if rel.endswith("JPMORGAN_2022Q2_10Q.pdf"):
        assert meta["tickers"][0] == "JPM"  # then the ETNs it lists

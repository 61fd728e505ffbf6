"""Routing: company, year or quarter, and form named in a question pick the filings; nothing named, no route."""

from __future__ import annotations

from engine.routing import company_aliases, doc_years, route
from engine.types import Document


def doc(id: str, name: str, company: str = "", form: str = "", period: str = "") -> Document:
    return Document(id=id, sha256=id, path=f"/x/{name}.pdf", name=name, pages=10, status="ready", company=company,
                    form_type=form, fiscal_period=period)


LIBRARY = [
    doc("mmm18", "3M_2018_10K", "3M COMPANY", "10-K", "FY2018"),
    doc("mmm22", "3M_2022_10K", "3M Company", "10-K", "FY2022"),
    doc("aapl1", "2023 Q1 AAPL", "Apple Inc.", "10-Q", "2022-12-31"),
    doc("aapl2", "2023 Q2 AAPL", "Apple Inc.", "10-Q", "2023-04-01"),
    doc("bby23", "BESTBUY_2023_10K", "Best Buy Co., Inc.", "10-K", "FY2023"),
    doc("goog", "goog-10-k-q4-2022", "", "", ""),
    doc("amzn", "AMAZON_2017_10K", "Amazon.com, Inc.", "10-K", "FY2017"),
]


def test_company_and_fiscal_year() -> None:
    r = route("What is the FY2018 capital expenditure amount (in USD millions) for 3M?", LIBRARY)
    assert r.doc_ids == ["mmm18"]
    assert r.matched["year"] == ["2018"] and "3m" in r.matched["company"]


def test_company_year_and_quarter_from_file_name() -> None:
    assert route("Apple 2023 Q1 operating expenses", LIBRARY).doc_ids == ["aapl1"]
    assert route("How did Apple's revenue in the second quarter of 2023 compare?", LIBRARY).doc_ids == ["aapl2"]


def test_names_joined_in_file_names_and_tickers() -> None:
    assert route("Are Best Buy's gross margins consistent?", LIBRARY).doc_ids == ["bby23"]
    assert route("What were Alphabet's current assets in 2021?", LIBRARY).doc_ids == ["goog"]
    assert route("Amazon's FY2017 days payable outstanding", LIBRARY).doc_ids == ["amzn"]
    assert route("AAPL revenue", LIBRARY).doc_ids == ["aapl1", "aapl2"]


def test_years_covered_by_a_later_annual_report() -> None:
    # No 3M filing for FY2017 itself: the FY2018 10-K shows 2017 figures too.
    assert route("3M revenue in 2017", LIBRARY).doc_ids == ["mmm18"]
    assert route("3M revenue in 2021 versus 2022", LIBRARY).doc_ids == ["mmm22"]


def test_form_narrows_only_when_it_matches() -> None:
    assert route("Apple 10-Q revenue", LIBRARY).doc_ids == ["aapl1", "aapl2"]
    assert route("Apple 10-K revenue", LIBRARY).doc_ids == ["aapl1", "aapl2"]


def test_nothing_named_means_no_route() -> None:
    r = route("What was total restricted cash at year end?", LIBRARY)
    assert r.doc_ids == [] and r.reason == ""
    assert route("Describe the mmm of the company", LIBRARY).doc_ids == ["mmm18", "mmm22"]  # a ticker is a name


def test_aliases_and_years() -> None:
    assert {"3m", "mmm"} <= company_aliases(LIBRARY[0])
    assert "best buy" in company_aliases(LIBRARY[4])
    assert {"alphabet", "google", "goog"} <= company_aliases(LIBRARY[5])
    exact, covered = doc_years(LIBRARY[0])
    assert exact == {2018} and covered == {2016, 2017, 2018}


def test_a_year_routes_to_its_report_and_the_next_annual_report_that_restates_it() -> None:
    gs = [doc("gs21", "2021-10-k", "The Goldman Sachs Group, Inc.", "10-K", "FY2021"),
          doc("gs22", "2022-10-k", "The Goldman Sachs Group, Inc.", "10-K", "FY2022"),
          doc("gs23", "2023-10-k", "The Goldman Sachs Group, Inc.", "10-K", "FY2023"),
          doc("goog21", "20220202-alphabet-10k", "Alphabet Inc.", "10-K", "FY2021")]
    assert route("What were Goldman Sachs's net earnings in 2021?", gs).doc_ids == ["gs21", "gs22"]
    assert route("What were Goldman Sachs's net earnings in 2023?", gs).doc_ids == ["gs23"]
    # a date run together in a file name is a filing date, not the fiscal year
    assert doc_years(gs[3])[0] == {2021}
    assert route("Alphabet's revenue in 2022?", gs).doc_ids == ["goog21"]  # no 2022 filing: the company's filings


"""How a filing names its fiscal years: read from its own words, stored with the evidence, assumed where silent.

One test per way filings say it, on synthetic text; each checks the reading (``shift``), whether it is stated, and
the phrase it was read from."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from engine.ask.calendars import Calendars
from engine.periods import Calendar, Period, read_calendar
from engine.types import Document

_RETAIL_COLUMNS = [
    ("52 Weeks Ended January 28, 2023", "Consolidated Statements of Operations"),
    ("52 Weeks Ended January 29, 2022", "Consolidated Statements of Operations"),
    ("January 28, 2023", "Consolidated Balance Sheets"),
]


def _naming(cal: Calendar) -> tuple[int, bool]:
    return cal.shift, cal.naming_stated


# ---------------------------------------------------------------------------------------------------------------
# Stated: the filing pairs a label with a date


def test_earnings_release_title_with_the_quarter_it_reports() -> None:
    """The issue's case: a January retailer's release titled "Fourth Quarter Fiscal 2022 Results" for the quarter
    ended January 28, 2023; its outlook for fiscal 2023 and the prior year's quarter do not count."""
    page = (
        "ACME STORES REPORTS FOURTH QUARTER FISCAL 2022 RESULTS\n"
        "Provides Fiscal 2023 Outlook\n"
        "CITY, March 2, 2023 -- Acme Stores, Inc. (NYSE: ACME) today reported results for the fourth quarter\n"
        "ended January 28, 2023. Net sales increased 3.0% to $2.1 billion compared to $2.0 billion in the fourth\n"
        "quarter ended January 29, 2022. Net sales for the 52 weeks ended January 28, 2023 were $8.6 billion.\n"
    )
    cal = read_calendar([page])
    assert (cal.year_end_month, cal.year_end_day) == (1, 28)
    assert _naming(cal) == (1, True)
    assert cal.naming_evidence[0] == (
        "ACME STORES REPORTS FOURTH QUARTER FISCAL 2022 RESULTS … quarter ended January 28, 2023")
    assert cal.naming() == (
        'fiscal N ends in Jan of N+1 (the filing: "ACME STORES REPORTS FOURTH QUARTER FISCAL 2022 RESULTS … '
        'quarter ended January 28, 2023")')


def test_the_same_title_for_a_filer_that_names_the_year_by_its_end() -> None:
    page = ("Acme Electronics Reports Fourth Quarter Fiscal 2023 Results\n"
            "Revenue for the fourth quarter ended January 28, 2023 was $14.7 billion.\n")
    cal = read_calendar([page], _RETAIL_COLUMNS)
    assert _naming(cal) == (0, True)
    assert cal.naming() == ('fiscal 2023 = 52 weeks ended Jan 28, 2023 (the filing: "Acme Electronics Reports Fourth '
                            'Quarter Fiscal 2023 Results … quarter ended January 28, 2023")')


def test_label_then_its_weeks_in_parentheses() -> None:
    cal = read_calendar(["For the fiscal year ended January 28, 2023",
                         "Net sales in fiscal 2022 (52 weeks ended January 28, 2023) were $8.6 billion."])
    assert _naming(cal) == (1, True)
    assert cal.naming_evidence == ("fiscal 2022 (52 weeks ended January 28, 2023)",)


def test_fiscal_year_label_then_ended() -> None:
    cal = read_calendar(["For the fiscal year ended January 28, 2023",
                         "Our fiscal year 2023 ended January 28, 2023 and included 52 weeks."])
    assert _naming(cal) == (0, True)
    assert cal.naming_evidence == ("fiscal year 2023 ended January 28, 2023",)


def test_date_then_label_in_apposition() -> None:
    cal = read_calendar(["FORM 10-K For the fiscal year ended January 28, 2023",
                         "References to fiscal years are to the fiscal year ended January 28, 2023 (\u201cfiscal "
                         "2022\u201d) and the fiscal year ended January 29, 2022 (\u201cfiscal 2021\u201d)."])
    assert _naming(cal) == (1, True)
    assert cal.naming_evidence == ("fiscal year ended January 28, 2023 (\u201cfiscal 2022\u201d)",
                                   "fiscal year ended January 29, 2022 (\u201cfiscal 2021\u201d)")


def test_two_labels_then_their_two_dates() -> None:
    cal = read_calendar(["For the fiscal year ended January 28, 2023",
                         "Fiscal 2022 and fiscal 2021 each consisted of 52 weeks ended January 28, 2023 and "
                         "January 29, 2022, respectively."])
    assert _naming(cal) == (1, True)
    assert cal.naming_evidence == ("Fiscal 2022 and fiscal 2021 each consisted of 52 weeks ended January 28, 2023 "
                                   "and January 29, 2022",)


def test_a_list_of_years_then_a_list_of_dates_in_the_same_order() -> None:
    """Each label takes the date in its place, not the nearest one (fiscal 2020 is not January 28, 2023)."""
    cal = read_calendar(["For the fiscal year ended January 28, 2023",
                         "Fiscal 2022, 2021 and 2020 ended on January 28, 2023, January 29, 2022 and January 30, "
                         "2021, respectively."])
    assert _naming(cal) == (1, True)
    assert len(cal.naming_evidence) == 1


def test_statement_header_in_the_page_text() -> None:
    page = ("CONSOLIDATED STATEMENTS OF OPERATIONS\n(in thousands)\nFiscal 2022 Fiscal 2021 Fiscal 2020\n"
            "January 28, 2023 January 29, 2022 January 30, 2021\nNet sales $ 8,630,889 $ 8,005,281 $ 6,152,010\n")
    cal = read_calendar(["For the fiscal year ended January 28, 2023", page])
    assert _naming(cal) == (1, True)
    assert cal.naming_evidence == ("Fiscal 2022 Fiscal 2021 Fiscal 2020 January 28, 2023 January 29, 2022 "
                                   "January 30, 2021",)


def test_statement_header_as_table_columns() -> None:
    cal = read_calendar(["For the fiscal year ended January 28, 2023"],
                        [("Fiscal 2022 52 Weeks Ended January 28, 2023", "Consolidated Statements of Operations"),
                         ("Fiscal 2021 52 Weeks Ended January 29, 2022", "Consolidated Statements of Operations")])
    assert _naming(cal) == (1, True)
    assert cal.naming_evidence[0] == "Fiscal 2022 52 Weeks Ended January 28, 2023"
    assert cal.naming().startswith("fiscal 2022 = 52 weeks ended Jan 28, 2023")


def test_non_us_two_digit_label_after_the_date() -> None:
    cal = read_calendar(["Annual Report and Accounts for the year ended 31 March 2023 (FY23)"])
    assert (cal.year_end_month, cal.year_end_day) == (3, 31)
    assert _naming(cal) == (0, True)
    assert cal.naming_evidence == ("year ended 31 March 2023 (FY23)",)


def test_non_us_span_label() -> None:
    cal = read_calendar(["Annual Report 2022/23", "Strategic report for the year ended 31 March 2023. Revenue "
                         "in 2022/23 grew by 4%."])
    assert _naming(cal) == (0, True)
    assert cal.naming_evidence == ("Annual Report 2022/23 … year ended 31 March 2023",)


def test_european_label_forms() -> None:
    cal = read_calendar(["Annual Report for the financial year ended 31 March 2023",
                         "In the 2022 financial year (the year ended 31 March 2023) revenue rose by 4%."])
    assert _naming(cal) == (1, True)
    cal = read_calendar(["Annual Report for the financial year ended 31 March 2023",
                         "Financial year 2023 ended on 31 March 2023."])
    assert _naming(cal) == (0, True)


def test_a_quarterly_report_s_year_end_from_its_year_columns() -> None:
    """A 10-Q that never says "fiscal year" shows its year end in a column ("Year Ended December 31, 2022")."""
    cal = read_calendar(["FORM 10-Q For the quarterly period ended March 31, 2023"],
                        [("Three Months Ended March 31, 2023", ""), ("Year Ended December 31, 2022", "")])
    assert (cal.year_end_month, cal.year_end_day) == (12, 31)


def test_a_quarterly_report_s_year_end_from_its_balance_sheet() -> None:
    """A 10-Q's balance sheet sets the quarter's end beside the last fiscal year's end (a retailer's also beside the
    same quarter a year before, which is not a year end)."""
    cal = read_calendar(["FORM 10-Q For the quarterly period ended July 29, 2023"],
                        [("July 29, 2023", "Condensed Consolidated Balance Sheets"),
                         ("January 28, 2023", "Condensed Consolidated Balance Sheets"),
                         ("July 30, 2022", "Condensed Consolidated Balance Sheets"),
                         ("13 Weeks Ended July 29, 2023", "Statements of Operations")])
    assert (cal.year_end_month, cal.year_end_day) == (1, 28)


def test_a_year_ending_in_the_first_days_of_january_is_the_year_before() -> None:
    cal = read_calendar(["Second-Quarter 2023 Results", "Sales rose 6.3% in the second quarter.",
                         "See the Annual Report on Form 10-K for the fiscal year ended January 1, 2023."])
    assert (cal.year_end_month, cal.year_end_day, cal.weeks) == (1, 1, True)
    assert _naming(cal) == (1, False)
    assert cal.fiscal_year_of(Period(date(2023, 7, 2), 2023, 3)) == 2023
    assert cal.other_reading(2023) is None
    assert cal.naming_rule() == "fiscal N ends in late Dec of N or early Jan of N+1"


def test_a_march_filer_that_names_the_year_by_its_start() -> None:
    cal = read_calendar(["Annual Report for the fiscal year ended March 31, 2023",
                         "Fiscal 2022 (the fiscal year ended March 31, 2023) was a year of recovery."])
    assert _naming(cal) == (1, True)
    assert cal.other_reading(2022) == 2021


def test_a_later_quarter_of_the_year_is_evidence_too() -> None:
    cal = read_calendar(["FORM 10-Q For the quarterly period ended April 29, 2023",
                         "Our fiscal year ends on the Saturday nearest January 31. The first quarter of fiscal 2023 "
                         "ended April 29, 2023."])
    assert (cal.year_end_month, cal.shift, cal.naming_stated) == (1, 1, True)


def test_a_quarter_label_on_the_wrong_quarter_is_not_evidence() -> None:
    cal = read_calendar(["FORM 10-Q For the quarterly period ended April 29, 2023",
                         "Our fiscal year ends on the Saturday nearest January 31. The third quarter of fiscal 2022 "
                         "ended April 29, 2023."])
    assert cal.naming_stated is False


def test_the_quarter_a_quarterly_report_names_most() -> None:
    """A 10-Q that never pairs a label with a date but speaks of "the third quarter of fiscal year 2024" over and over
    reports that quarter: its cover's quarter ended October 29, 2023 is in fiscal 2024."""
    cal = read_calendar(
        ["FORM 10-Q For the quarterly period ended October 29, 2023. Our fiscal year ends on the last Sunday in "
         "January.",
         "Revenue for the third quarter of fiscal year 2024 was $18.1 billion, up 206% from the third quarter of "
         "fiscal year 2023. Data Center revenue for the third quarter of fiscal year 2024 was $14.5 billion. Gaming "
         "revenue for the third quarter of fiscal year 2024 was $2.9 billion. We expect revenue in the fourth "
         "quarter of fiscal year 2024 to be $20.0 billion."])
    assert (cal.year_end_month, cal.shift, cal.naming_stated) == (1, 0, True)
    assert cal.naming_evidence == ("third quarter of fiscal year 2024 (named 3 times) … For the quarterly period "
                                   "ended October 29, 2023",)


def test_the_year_an_annual_report_names_most() -> None:
    """An annual report names its own year more often than the prior one it compares with; its outlook does not
    count."""
    body = ("Net sales in fiscal 2022 rose 4% over fiscal 2021. Gross margin in fiscal 2022 was 35%. Stores opened in "
            "fiscal 2022 numbered 40, against 30 in fiscal 2021. Operating income in fiscal 2022 was $1 billion. We "
            "expect fiscal 2023 sales to grow. In fiscal 2023 we will open 50 stores. Fiscal 2023 will be strong.")
    cal = read_calendar(["FORM 10-K For the fiscal year ended January 28, 2023 (52 weeks)", body])
    assert _naming(cal) == (1, True)
    assert cal.naming_evidence == ("fiscal 2022 (named 4 times) … For the fiscal year ended January 28, 2023",)


def test_no_label_clearly_leads() -> None:
    cal = read_calendar(
        ["FORM 10-Q For the quarterly period ended October 29, 2023. Our fiscal year ends on the last Sunday in "
         "January.",
         "Revenue for the third quarter of fiscal year 2024 rose from the third quarter of fiscal year 2023. Costs "
         "for the third quarter of fiscal year 2024 fell from the third quarter of fiscal year 2023."])
    assert cal.naming_stated is False


def test_december_filer() -> None:
    cal = read_calendar(["FORM 10-K For the fiscal year ended December 31, 2022",
                         "Revenue in fiscal 2022, the year ended December 31, 2022, grew 8%."],
                        [("2022", "Years ended December 31"), ("2021", "Years ended December 31")])
    assert _naming(cal) == (0, True)
    assert cal.other_reading(2022) is None
    assert cal.naming() == ('fiscal 2022 = year ended Dec 31, 2022 (the filing: "fiscal 2022, the year ended '
                            'December 31, 2022")')


def test_a_december_year_is_never_named_by_the_next_one() -> None:
    """A label and a date a year apart on a December filer's page are not a naming (fiscal 2021 does not end in
    December 2022)."""
    cal = read_calendar(["FORM 10-K For the fiscal year ended December 31, 2022",
                         "Fiscal 2021 ended December 31, 2022."])
    assert _naming(cal) == (0, False)


def test_june_filer() -> None:
    cal = read_calendar(["FORM 10-K For the fiscal year ended June 30, 2023",
                         "Fiscal 2023 ended June 30, 2023 and fiscal 2022 ended June 30, 2022."])
    assert (cal.year_end_month, cal.shift, cal.naming_stated) == (6, 0, True)
    assert cal.other_reading(2023) is None  # a year ending in June is named by the year it ends in
    assert cal.naming_evidence == ("Fiscal 2023 ended June 30, 2023", "fiscal 2022 ended June 30, 2022")


def test_53_week_year() -> None:
    cal = read_calendar(["FORM 10-K For the fiscal year ended February 3, 2024",
                         "Fiscal 2023 was a 53-week year ended February 3, 2024."],
                        [("53 Weeks Ended February 3, 2024", "Consolidated Statements of Operations"),
                         ("52 Weeks Ended January 28, 2023", "Consolidated Statements of Operations")])
    assert (cal.year_end_month, cal.year_end_day, cal.shift, cal.naming_stated) == (2, 3, 1, True)
    assert cal.naming() == ('fiscal 2023 = 53 weeks ended Feb 3, 2024 (the filing: "Fiscal 2023 was a 53-week year '
                            'ended February 3, 2024")')
    assert cal.other_reading(2023) == 2022


# ---------------------------------------------------------------------------------------------------------------
# Not evidence, and the assumption where the filing is silent


def test_words_about_something_else_between_a_label_and_a_date_are_not_a_pairing() -> None:
    cal = read_calendar(["FORM 10-Q For the quarterly period ended October 29, 2023. Our fiscal year ends on the last "
                         "Sunday in January.",
                         "Had this change been made at the beginning of fiscal year 2023, the estimated effect of "
                         "this change for the three months ended October 29, 2023 would have been immaterial."])
    assert cal.naming_stated is False


def test_a_comparison_is_not_a_pairing() -> None:
    cal = read_calendar(["For the fiscal year ended January 28, 2023 (52 weeks)",
                         "Net sales in fiscal 2023 increased compared to the 52 weeks ended January 29, 2022."])
    assert cal.naming_stated is False


def test_a_forecast_label_does_not_name_the_reported_year() -> None:
    page = ("Acme Stores Reports Fourth Quarter Results\nProvides Fiscal 2023 Outlook\n"
            "Net sales for the fourth quarter ended January 28, 2023 were $2.1 billion, and for the 52 weeks ended\n"
            "January 28, 2023 $8.6 billion.\n")
    cal = read_calendar([page], _RETAIL_COLUMNS)
    assert (cal.year_end_month, cal.year_end_day) == (1, 28)
    assert _naming(cal) == (1, False)  # the usual reading of a 52/53-week January year, assumed


def test_a_filing_that_never_names_its_years_is_assumed() -> None:
    cal = read_calendar(["FORM 10-K For the fiscal year ended January 28, 2023"], _RETAIL_COLUMNS)
    assert _naming(cal) == (1, False)
    assert cal.naming_evidence == ()
    assert cal.naming() == "fiscal 2022 = 52 weeks ended Jan 28, 2023 (assumed: the filing does not name its " \
        "fiscal years; others call the year ended Jan 28, 2023 fiscal 2023)"
    assert cal.other_reading(2022) == 2021


@pytest.mark.parametrize(("cover", "weeks", "shift"), [
    ("For the fiscal year ended December 31, 2022", False, 0),
    ("For the fiscal year ended January 31, 2023", False, 0),  # a month-end January year: by the year it ends in
    ("For the fiscal year ended September 30, 2023", False, 0),
    ("For the fiscal year ended January 1, 2022", True, 1),  # a 52/53-week calendar year: fiscal 2021
    ("For the fiscal year ended February 3, 2024", True, 1),
])
def test_the_usual_reading_by_year_end(cover: str, weeks: bool, shift: int) -> None:
    cal = read_calendar([cover + (" (52/53 weeks)" if weeks else "")])
    assert _naming(cal) == (shift, False)


def test_other_reading_by_naming() -> None:
    by_end = Calendar(year_end_month=1, year_end_day=28, shift=0, weeks=True)
    by_start = Calendar(year_end_month=1, year_end_day=28, shift=1, weeks=True)
    assert by_end.other_reading(2022) == 2023  # the year ended Jan 2023, which this filer calls fiscal 2023
    assert by_start.other_reading(2022) == 2021  # the year ended Jan 2022, which this filer calls fiscal 2021
    assert Calendar(year_end_month=1, year_end_day=2, shift=1, weeks=True).other_reading(2022) is None
    assert Calendar(year_end_month=None, year_end_day=None).other_reading(2022) is None


def test_evidence_is_one_clean_line() -> None:
    cal = read_calendar(["For the fiscal year ended January 28, 2023",
                         "fiscal 2022\x07 (52 weeks\x1b ended January 28, 2023)"])
    assert cal.naming_evidence and all(ch.isprintable() for ch in cal.naming_evidence[0])


# ---------------------------------------------------------------------------------------------------------------
# Stored


def test_naming_round_trips_and_old_calendars_load_as_assumed() -> None:
    cal = read_calendar(["For the fiscal year ended January 28, 2023",
                         "Net sales in fiscal 2022 (52 weeks ended January 28, 2023) were $8.6 billion."],
                        _RETAIL_COLUMNS)
    stored = cal.to_json()
    assert stored["naming"] == {"stated": True, "evidence": ["fiscal 2022 (52 weeks ended January 28, 2023)"],
                                "rule": "fiscal 2022 = 52 weeks ended Jan 28, 2023",
                                "why": 'the filing: "fiscal 2022 (52 weeks ended January 28, 2023)"',
                                "summary": cal.naming()}
    assert stored["periods_summary"] == "FY ends late Jan/early Feb (52/53 weeks); covers FY2021-FY2022"
    assert Calendar.from_json(stored) == cal
    old = {k: v for k, v in stored.items() if k not in ("naming", "periods_summary")}
    loaded = Calendar.from_json(old)
    assert (loaded.shift, loaded.naming_stated, loaded.naming_evidence) == (1, False, ())


class _Store:
    """A catalogue holding one filing whose calendar was stored before the naming was read."""

    def __init__(self, stored: dict[str, Any]) -> None:
        self.doc = Document(id="d1", sha256="0" * 64, path="/f.pdf", name="f", pages=2, status="ready",
                            calendar=stored)
        self.reads = 0

    def document(self, ref: str) -> Document:
        return self.doc

    def calendar_inputs(self, doc_id: str) -> tuple[list[str], list[tuple[str, str]]]:
        self.reads += 1
        return (["For the fiscal year ended January 28, 2023",
                 "the fiscal year ended January 28, 2023 (\u201cfiscal 2023\u201d)"], _RETAIL_COLUMNS)

    def update_document(self, doc_id: str, **fields: Any) -> None:
        self.doc.calendar = fields["calendar"]


def test_a_calendar_stored_before_the_naming_is_read_again_once() -> None:
    old = Calendar(year_end_month=1, year_end_day=28, shift=1).to_json()
    del old["naming"]
    store = _Store(old)
    cal = Calendars().get(store, "d1")
    assert (cal.shift, cal.naming_stated, store.reads) == (0, True, 1)
    assert store.doc.calendar["naming"]["stated"] is True
    assert Calendars().get(store, "d1") == cal and store.reads == 1  # stored: not read again


def test_periods_of_a_stated_calendar_are_named_its_way() -> None:
    cal = read_calendar(["For the fiscal year ended January 28, 2023",
                         "fiscal year ended January 28, 2023 (\u201cfiscal 2022\u201d)"], _RETAIL_COLUMNS)
    assert [cal.fiscal_year_of(p) for p in cal.periods if p.months == 12] == [2022, 2021]
    assert cal.end_year(2022) == 2023
    assert cal.periods[0].end == date(2023, 1, 28)


# ---------------------------------------------------------------------------------------------------------------
# The catalogue's fiscal period: the cover's year end named the filer's way


class _Page:
    def __init__(self, text: str) -> None:
        self.text = text


@pytest.mark.parametrize(("cover", "named"), [
    # 52/53-week years ending early in January, silent about naming: the year with the most months (fiscal 2022)
    ("ACME HEALTH CO\nFORM 10-K\nFor the fiscal year ended January 1, 2023\nCommission file number 1-3215", "FY2022"),
    # the filer names the year by its end: "fiscal 2023"
    ("ACME STORES INC\nFORM 10-K\nFor the fiscal year ended January 28, 2023\nACME FISCAL 2023 FORM 10-K", "FY2023"),
    # a December filer: the calendar year
    ("ACME CORP\nFORM 10-K\nFor the fiscal year ended December 31, 2022\nCommission file number 1-1", "FY2022"),
])
def test_the_catalogue_names_an_annual_reports_year_the_filers_way(cover: str, named: str) -> None:
    from engine.metadata import extract_metadata, fiscal_period_named

    meta = extract_metadata([_Page(cover)], "acme.pdf")
    cal = read_calendar([cover])
    assert fiscal_period_named(meta, cal) == named

"""Fiscal periods: column headers, questions, a filing's calendar, and matching a column to a question."""

from __future__ import annotations

from datetime import date

import pytest

from engine.periods import Asked, Calendar, Period, asked_period, column_period, matches, read_calendar, what_it_is

# ---------------------------------------------------------------------------------------------------------------
# column_period


@pytest.mark.parametrize(
    ("header", "context", "expected"),
    [
        ("Three Months Ended June 30 2023", "", (date(2023, 6, 30), 2023, 3, False, None, None)),
        ("52 Weeks Ended January 28, 2023", "", (date(2023, 1, 28), 2023, 12, False, None, None)),
        ("53 Weeks Ended February 3, 2024", "", (date(2024, 2, 3), 2024, 12, False, None, None)),
        ("13 Weeks Ended Jan. 28, 2023", "", (date(2023, 1, 28), 2023, 3, False, None, None)),
        ("26 Weeks Ended July 29, 2023", "", (date(2023, 7, 29), 2023, 6, False, None, None)),
        ("39 Weeks Ended October 28, 2023", "", (date(2023, 10, 28), 2023, 9, False, None, None)),
        ("Year Ended December 31, 2018", "", (date(2018, 12, 31), 2018, 12, False, None, None)),
        ("Years ended December 31 2018", "", (date(2018, 12, 31), 2018, 12, False, None, None)),
        ("Twelve Months Ended March 31, 2023", "", (date(2023, 3, 31), 2023, 12, False, None, None)),
        ("Six Months Ended July 1, 2023", "", (date(2023, 7, 1), 2023, 6, False, None, None)),
        ("Nine Months Ended September 30, 2022", "", (date(2022, 9, 30), 2022, 9, False, None, None)),
        ("Quarter Ended March 31, 2023", "", (date(2023, 3, 31), 2023, 3, False, None, None)),
        ("Year ended 31 March 2023", "", (date(2023, 3, 31), 2023, 12, False, None, None)),
        ("2018", "", (None, 2018, None, False, None, None)),
        ("2018", "Years ended December 31", (date(2018, 12, 31), 2018, 12, False, None, None)),
        ("2023", "Fiscal Years Ended January 31,", (date(2023, 1, 31), 2023, 12, False, None, None)),
        ("2022", "Consolidated Balance Sheets (in millions) December 31,", (date(2022, 12, 31), 2022, None, True, None,
                                                                             None)),
        ("2023", "Three Months Ended June 30,", (date(2023, 6, 30), 2023, 3, False, None, None)),
        ("FY2019", "", (None, None, 12, False, 2019, None)),
        ("Fiscal 2022", "", (None, None, 12, False, 2022, None)),
        ("FY22", "", (None, None, 12, False, 2022, None)),
        ("FY 2022-23", "", (None, None, 12, False, 2023, None)),
        ("2022/23", "", (None, None, 12, False, 2023, None)),
        ("Fiscal 2022 (52 Weeks Ended January 28, 2023)", "", (date(2023, 1, 28), 2023, 12, False, 2022, None)),
        ("December 31, 2022", "", (date(2022, 12, 31), 2022, None, False, None, None)),
        ("December 31, 2022", "Consolidated Balance Sheets", (date(2022, 12, 31), 2022, None, True, None, None)),
        ("As of June 30, 2023", "", (date(2023, 6, 30), 2023, None, True, None, None)),
        ("At 31 December 2022", "", (date(2022, 12, 31), 2022, None, True, None, None)),
        ("31.03.2023", "Statement of financial position", (date(2023, 3, 31), 2023, None, True, None, None)),
        ("Jan. 29, 2022", "", (date(2022, 1, 29), 2022, None, False, None, None)),
        ("Three months ended on June 30, 2023", "", (date(2023, 6, 30), 2023, 3, False, None, None)),
        ("Q4 2022", "", (None, 2022, 3, False, 2022, 4)),
        ("Fourth Quarter 2022", "", (None, 2022, 3, False, 2022, 4)),
        ("Q3 FY24", "", (None, 2024, 3, False, 2024, 3)),
        ("4Q22", "", (None, 2022, 3, False, 2022, 4)),
        ("H1 2023", "", (None, 2023, 6, False, 2023, None)),
        ("June 30", "Three Months Ended 2023", (date(2023, 6, 30), 2023, 3, False, None, None)),
        # a quarter's table titled by the quarter: each year column is that quarter of the year
        ("2023 Amount", "Statement of Earnings (in Millions) SECOND QUARTER", (None, 2023, 3, False, 2023, 2)),
        ("2022", "Third Quarter Results, unaudited", (None, 2022, 3, False, 2022, 3)),
        # ... but not where the title names a year's duration too
        ("2023", "Fourth Quarter and Full Year", (None, 2023, 3, False, None, None)),
        # a quarter under the year it is of: the date ends the year, not the quarter
        ("Year Ended December 31, 2017 (1) Third Quarter (2)", "", (None, 2017, 3, False, 2017, 3)),
        ("Fourth Quarter Ended December 31, 2017", "", (date(2017, 12, 31), 2017, 3, False, None, 4)),
    ],
)
def test_column_period(header: str, context: str, expected: tuple[object, ...]) -> None:
    p = column_period(header, context)
    assert p is not None
    assert (p.end, p.year, p.months, p.instant, p.fiscal_year, p.quarter) == expected
    assert p.label == header


@pytest.mark.parametrize(
    ("header", "context"),
    [
        ("2023 vs. 2022", ""),
        ("2023 vs 2022", ""),
        ("% Change", ""),
        ("Change", ""),
        ("Increase (Decrease)", ""),
        ("Q4 2022 vs Q4 2021", ""),
        ("2023 2022", ""),  # two columns joined
        ("June 30, 2023 and 2022", ""),
        ("Current year", ""),
        ("Three Months Ended", ""),
        ("", "Years ended December 31"),
    ],
)
def test_column_period_names_no_period(header: str, context: str) -> None:
    assert column_period(header, context) is None


def test_context_with_two_durations_leaves_months_unknown() -> None:
    p = column_period("2023", "Three Months Ended June 30, Six Months Ended June 30,")
    assert p == Period(end=date(2023, 6, 30), year=2023, months=None, label="2023")


def test_quarter_and_year_columns_for_the_same_date_differ_only_in_months() -> None:
    q = column_period("13 Weeks Ended January 28, 2023")
    y = column_period("52 Weeks Ended January 28, 2023")
    assert q is not None and y is not None
    assert (q.end, q.months) == (date(2023, 1, 28), 3)
    assert (y.end, y.months) == (date(2023, 1, 28), 12)


def test_numeric_dates_day_first_when_unambiguous() -> None:
    assert column_period("31.03.2023").end == date(2023, 3, 31)  # type: ignore[union-attr]
    assert column_period("01.04.2023").end == date(2023, 4, 1)  # type: ignore[union-attr]  # a dot: day first
    assert column_period("31/03/2023").end == date(2023, 3, 31)  # type: ignore[union-attr]
    assert column_period("03/31/2023").end == date(2023, 3, 31)  # type: ignore[union-attr]


# ---------------------------------------------------------------------------------------------------------------
# asked_period


@pytest.mark.parametrize(
    ("question", "fiscal_year", "quarter", "months", "instant", "years", "end"),
    [
        ("What was revenue in FY2018?", 2018, None, 12, None, (2018,), None),
        ("Net income for fiscal 2022?", 2022, None, 12, None, (2022,), None),
        ("What were capital expenditures in fiscal year 2019?", 2019, None, 12, None, (2019,), None),
        ("What was revenue in 2019?", 2019, None, 12, None, (2019,), None),
        ("Operating margin in FY '21?", 2021, None, 12, None, (2021,), None),
        ("FY22 revenue", 2022, None, 12, None, (2022,), None),
        ("Revenue for FY 2022-23", 2023, None, 12, None, (2023,), None),
        ("What was annual revenue in 2020?", 2020, None, 12, None, (2020,), None),
        ("What was Q2 2023 revenue?", 2023, 2, 3, None, (2023,), None),
        ("Gross margin in the second quarter of fiscal 2024?", 2024, 2, 3, None, (2024,), None),
        ("Diluted EPS in 4Q22", 2022, 4, 3, None, (2022,), None),
        ("Diluted EPS in Q4 FY22", 2022, 4, 3, None, (2022,), None),
        ("Revenue in the first half of 2023", 2023, None, 6, None, (2023,), None),
        ("Year to date revenue through Q3 2023", 2023, 3, 9, None, (2023,), None),
        ("Total assets as of December 31, 2022", None, None, None, date(2022, 12, 31), (2022,), None),
        ("Cash at March 31, 2025?", None, None, None, date(2025, 3, 31), (2025,), None),
        ("Total equity as at 31 March 2023", None, None, None, date(2023, 3, 31), (2023,), None),
        ("Revenue growth from FY2021 to FY2022", 2022, None, 12, None, (2021, 2022), None),
        ("Revenue between 2019 and 2021", 2021, None, 12, None, (2019, 2021), None),
        ("In the quarter ended July 29, 2023, what was revenue?", None, None, 3, None, (2023,), date(2023, 7, 29)),
        ("For the year ended December 31, 2022, net income?", None, None, 12, None, (2022,), date(2022, 12, 31)),
        ("Revenue for the nine months ended September 30, 2023", None, None, 9, None, (2023,), date(2023, 9, 30)),
        ("Quick ratio at the end of FY2022?", 2022, None, None, None, (2022,), None),
        ("What is the company's revenue?", None, None, None, None, (), None),
    ],
)
def test_asked_period(question: str, fiscal_year: int | None, quarter: int | None, months: int | None,
                      instant: date | None, years: tuple[int, ...], end: date | None) -> None:
    a = asked_period(question)
    assert (a.fiscal_year, a.quarter, a.months, a.instant, a.years, a.end) == (
        fiscal_year, quarter, months, instant, years, end)


def test_asked_text_holds_what_was_matched() -> None:
    assert asked_period("Gross margin in the second quarter of fiscal 2024?").text == "second quarter; fiscal 2024"
    assert asked_period("What is the company's revenue?").text == ""


def test_a_dollar_amount_is_not_a_year() -> None:
    assert asked_period("Did revenue exceed $2019 million?").years == ()


# ---------------------------------------------------------------------------------------------------------------
# read_calendar: filers whose fiscal year ends in the next calendar year, shift 0 and shift 1

_RETAIL_HEADERS = [
    ("52 Weeks Ended January 28, 2023", "Consolidated Statements of Operations"),
    ("52 Weeks Ended January 29, 2022", "Consolidated Statements of Operations"),
    ("52 Weeks Ended January 30, 2021", "Consolidated Statements of Operations"),
    ("13 Weeks Ended January 28, 2023", "Quarterly Results"),
    ("January 28, 2023", "Consolidated Balance Sheets"),
    ("January 29, 2022", "Consolidated Balance Sheets"),
    ("2022 vs. 2021", "Consolidated Statements of Operations"),
]


@pytest.fixture
def shift1() -> Calendar:
    """A filer whose "fiscal 2022" ended January 28, 2023."""
    cover = "FORM 10-K ANNUAL REPORT For the fiscal year ended January 28, 2023 Commission file number 1-0000"
    body = ("Our fiscal year ends on the Saturday nearest January 31. Unless otherwise stated, references to years "
            "relate to fiscal years: fiscal 2022 ended January 28, 2023 and fiscal 2021 ended January 29, 2022.")
    return read_calendar([cover, body], _RETAIL_HEADERS)


@pytest.fixture
def shift0() -> Calendar:
    """A filer whose "fiscal 2023" ended January 28, 2023."""
    cover = "FORM 10-K For the fiscal year ended January 28, 2023"
    body = ("Our fiscal year ends on the Saturday nearest the end of January. Fiscal 2023 included 52 weeks. "
            "The year ended January 28, 2023 (\u201cfiscal 2023\u201d) and the year ended January 29, 2022 "
            "(\u201cfiscal 2022\u201d).")
    return read_calendar([cover, body], _RETAIL_HEADERS)


def test_calendar_shift1(shift1: Calendar) -> None:
    assert (shift1.year_end_month, shift1.year_end_day, shift1.shift, shift1.weeks) == (1, 28, 1, True)
    assert shift1.source == "For the fiscal year ended January 28, 2023"
    assert shift1.end_year(2022) == 2023
    assert [(p.end, p.months, p.instant) for p in shift1.periods] == [
        (date(2023, 1, 28), 12, False),
        (date(2023, 1, 28), 3, False),
        (date(2023, 1, 28), None, True),
        (date(2022, 1, 29), 12, False),
        (date(2022, 1, 29), None, True),
        (date(2021, 1, 30), 12, False),
    ]
    assert [shift1.fiscal_year_of(p) for p in shift1.periods] == [2022, 2022, 2022, 2021, 2021, 2020]
    assert shift1.describe() == (
        "FY ends late Jan/early Feb (52/53 weeks); fiscal 2022 = 52 weeks ended Jan 28, 2023 (the filing: \"fiscal "
        "2022 ended January 28, 2023\"); covers FY2020-FY2022, Q4 FY2022"
    )


def test_calendar_shift0(shift0: Calendar) -> None:
    assert (shift0.year_end_month, shift0.year_end_day, shift0.shift, shift0.weeks) == (1, 28, 0, True)
    assert shift0.end_year(2023) == 2023
    assert [shift0.fiscal_year_of(p) for p in shift0.periods] == [2023, 2023, 2023, 2022, 2022, 2021]
    assert shift0.describe() == (
        "FY ends late Jan/early Feb (52/53 weeks); fiscal 2023 = 52 weeks ended Jan 28, 2023 (the filing: \"year "
        "ended January 28, 2023 (\u201cfiscal 2023\u201d)\"); covers FY2021-FY2023, Q4 FY2023"
    )


def test_calendar_votes_shift_from_label_then_weeks_phrase() -> None:
    cal = read_calendar(["For the fiscal year ended February 3, 2024",
                         "Fiscal 2023 consisted of 53 weeks; the 53 weeks ended February 3, 2024."])
    assert (cal.year_end_month, cal.year_end_day, cal.shift) == (2, 3, 1)
    assert cal.describe() == (
        "FY ends late Jan/early Feb (52/53 weeks); fiscal 2023 = year ended Feb 3, 2024 (the filing: \"Fiscal 2023 "
        "consisted of 53 weeks; the 53 weeks ended February 3, 2024\"); covers FY2023"
    )


def test_calendar_of_a_quarterly_report_without_a_stated_year_end() -> None:
    cal = read_calendar(
        ["FORM 10-Q For the quarterly period ended July 29, 2023",
         "Fiscal 2023 will end February 3, 2024 and include 53 weeks. Fiscal 2022 ended January 28, 2023."],
        [("13 Weeks Ended July 29, 2023", ""), ("26 Weeks Ended July 29, 2023", ""),
         ("January 28, 2023", "Condensed Consolidated Balance Sheets")],
    )
    assert (cal.year_end_month, cal.year_end_day, cal.shift, cal.weeks) == (2, 3, 1, True)
    assert cal.source == "Fiscal 2023 will end February 3, 2024"
    q = next(p for p in cal.periods if p.months == 3)
    assert (cal.fiscal_year_of(q), cal.quarter_of(q)) == (2023, 2)
    assert cal.describe() == (
        "FY ends late Jan/early Feb (52/53 weeks); fiscal N ends in Feb of N+1 (the filing: \"Fiscal 2023 will end "
        "February 3, 2024\"); covers 6 months ended Jul 29, 2023, Q2 FY2023"
    )


def test_calendar_of_a_september_filer_quarter() -> None:
    cal = read_calendar(
        ["FORM 10-Q For the quarterly period ended December 30, 2023",
         "The Company's fiscal year ends on the last Saturday of September; the fiscal year ended September 30, 2023."],
        [("Three Months Ended December 30, 2023", ""), ("Three Months Ended December 31, 2022", "")],
    )
    assert (cal.year_end_month, cal.year_end_day, cal.shift) == (9, 30, 0)
    assert [(cal.fiscal_year_of(p), cal.quarter_of(p)) for p in cal.periods] == [(2024, 1), (2023, 1)]


def test_calendar_day_first_annual_report() -> None:
    cal = read_calendar(["Annual Report for the year ended 31 March 2023"], [("2023", "Year ended 31 March"),
                                                                          ("2022", "Year ended 31 March")])
    assert (cal.year_end_month, cal.year_end_day, cal.shift) == (3, 31, 0)
    assert cal.describe() == ("FY ends Mar 31; fiscal 2023 = year ended Mar 31, 2023 (assumed: the filing does not "
                              "name its fiscal years; others call the year ended Mar 31, 2023 fiscal 2022); covers "
                              "FY2022-FY2023")


def test_calendar_json_round_trip(shift1: Calendar) -> None:
    assert Calendar.from_json(shift1.to_json()) == shift1
    assert shift1.to_json()["periods"][0]["end"] == "2023-01-28"


def test_calendar_with_nothing_to_read() -> None:
    cal = read_calendar(["Some unrelated text"])
    assert cal == Calendar(year_end_month=None, year_end_day=None)
    assert cal.describe() == "FY end unknown"


# ---------------------------------------------------------------------------------------------------------------
# matches


def _by_label(cal: Calendar, asked: Asked) -> dict[str, float]:
    return {p.label: matches(asked, p, cal) for p in cal.periods}


def test_year_question_picks_the_year_column_not_the_quarter_of_the_same_date(shift1: Calendar) -> None:
    scores = _by_label(shift1, asked_period("What was revenue in fiscal 2022?"))
    assert scores == {
        "52 Weeks Ended January 28, 2023": 1.0,
        "13 Weeks Ended January 28, 2023": 0.0,
        "January 28, 2023": 1.0,  # the balance at fiscal 2022's end
        "52 Weeks Ended January 29, 2022": 0.0,
        "January 29, 2022": 0.0,
        "52 Weeks Ended January 30, 2021": 0.0,
    }


def test_quarter_question_picks_the_quarter_column(shift1: Calendar) -> None:
    scores = _by_label(shift1, asked_period("Revenue in Q4 FY2022?"))
    assert scores["13 Weeks Ended January 28, 2023"] == 1.0
    assert scores["52 Weeks Ended January 28, 2023"] == 0.0


def test_same_fiscal_label_means_a_different_column_for_a_shift0_filer(shift0: Calendar) -> None:
    scores = _by_label(shift0, asked_period("What was revenue in fiscal 2022?"))
    assert scores["52 Weeks Ended January 29, 2022"] == 1.0
    assert scores["52 Weeks Ended January 28, 2023"] == 0.0


def test_balance_date_question() -> None:
    asked = asked_period("Total assets as of December 31, 2022?")
    assert matches(asked, Period(date(2022, 12, 31), 2022, None, instant=True), None) == 1.0
    assert matches(asked, Period(date(2021, 12, 31), 2021, None, instant=True), None) == 0.0
    assert matches(asked, Period(date(2022, 12, 31), 2022, 12), None) == 0.5  # a flow column ending that day


def test_year_question_on_an_interim_balance_sheet_takes_the_year_end_balance() -> None:
    cal = read_calendar(["For the quarterly period ended June 30, 2023", "fiscal year ended December 31, 2022"])
    asked = asked_period("Total assets in FY2022?")
    year_end = column_period("December 31, 2022", "Condensed Consolidated Balance Sheets")
    interim = column_period("June 30, 2022", "Condensed Consolidated Balance Sheets")
    assert matches(asked, year_end, cal) == 1.0  # type: ignore[arg-type]
    assert matches(asked, interim, cal) == 0.3  # type: ignore[arg-type]
    assert matches(asked_period("Total assets in Q2 2023?"), column_period(  # type: ignore[arg-type]
        "June 30, 2023", "Condensed Consolidated Balance Sheets"), cal) == 1.0


def test_bare_year_columns_without_a_calendar() -> None:
    asked = asked_period("Revenue in FY2018?")
    assert matches(asked, column_period("2018", "Years ended December 31"), None) == 1.0  # type: ignore[arg-type]
    assert matches(asked, column_period("2018"), None) == 0.6  # type: ignore[arg-type]  # duration unknown
    assert matches(asked, column_period("2017"), None) == 0.0  # type: ignore[arg-type]
    assert matches(asked, column_period("FY2018"), None) == 1.0  # type: ignore[arg-type]


def test_question_by_end_date() -> None:
    asked = asked_period("In the quarter ended July 29, 2023, what was revenue?")
    assert matches(asked, column_period("13 Weeks Ended July 29, 2023"), None) == 1.0  # type: ignore[arg-type]
    assert matches(asked, column_period("26 Weeks Ended July 29, 2023"), None) == 0.0  # type: ignore[arg-type]
    assert matches(asked, column_period("13 Weeks Ended July 30, 2022"), None) == 0.0  # type: ignore[arg-type]


def test_no_period_asked_is_neutral() -> None:
    assert matches(asked_period("What is revenue?"), Period(date(2022, 12, 31), 2022, 12), None) == 0.5


# ---------------------------------------------------------------------------------------------------------------
# what_it_is


def test_what_it_is(shift1: Calendar) -> None:
    names = [what_it_is(p, shift1) for p in shift1.periods]
    assert names == [
        "fiscal 2022 (year ended January 28, 2023)",
        "fourth quarter (13 weeks ended January 28, 2023)",
        "balance at January 28, 2023",
        "fiscal 2021 (year ended January 29, 2022)",
        "balance at January 29, 2022",
        "fiscal 2020 (year ended January 30, 2021)",
    ]


def test_what_it_is_without_a_calendar() -> None:
    assert what_it_is(column_period("Three Months Ended June 30, 2023"), None) == \
        "three months ended June 30, 2023"  # type: ignore[arg-type]
    assert what_it_is(column_period("Q4 2022"), None) == "fourth quarter of fiscal 2022"  # type: ignore[arg-type]
    assert what_it_is(column_period("FY2019"), None) == "fiscal 2019"  # type: ignore[arg-type]
    assert what_it_is(column_period("As of December 31, 2021"), None) == \
        "balance at December 31, 2021"  # type: ignore[arg-type]


def test_columns_after_the_reported_period_are_schedules_not_periods() -> None:
    cal = read_calendar(
        ["ANNUAL REPORT PURSUANT TO SECTION 13 For the fiscal year ended December 31, 2018"],
        [("2018", "Years ended December 31"), ("2017", "Years ended December 31"),
         ("2021", "Payments due by year"), ("2022", "Payments due by year")],
    )
    years = sorted({cal.fiscal_year_of(p) for p in cal.periods})
    assert years == [2017, 2018]
    assert cal.describe().endswith("covers FY2017-FY2018")


def test_a_bare_year_over_a_first_week_of_january_date_ends_in_the_next_year() -> None:
    # a 52/53-week calendar year labels the year ended January 1, 2023 "2022"
    p = column_period("2022", "Consolidated Balance Sheets At January 1, 2023")
    assert p is not None and p.end == date(2023, 1, 1) and p.instant
    cal = Calendar(1, 1, shift=1, weeks=True)
    assert cal.fiscal_year_of(p) == 2022
    # any other day keeps the label's year
    q = column_period("2022", "Consolidated Balance Sheets as of December 31")
    assert q is not None and q.end == date(2022, 12, 31)


def test_an_annual_statements_bare_year_or_year_end_column_is_the_year_a_filing_reports() -> None:
    """Across filings each annual report is asked for the year ended on its date: its statement's column headed
    "2016" (a June filer's label for the year ended June 30, 2016) or "January 28, 2017" (a date column whose
    "Fiscal Years Ended" the table lost) is that year; a column of another year is not."""
    june = read_calendar(["FORM 10-K For the fiscal year ended June 30, 2016"], [("2016", "Year Ended June 30,")])
    asked = Asked(fiscal_year=None, quarter=None, months=12, instant=None, years=(), text="FY2016",
                  end=date(2016, 6, 30))
    assert matches(asked, Period(end=None, year=2016, months=None, label="2016"), june) == 1.0
    assert matches(asked, Period(end=None, year=2015, months=None, label="2015"), june) == 0.0
    january = read_calendar(["FORM 10-K For the fiscal year ended January 28, 2017"])
    asked = Asked(fiscal_year=None, quarter=None, months=12, instant=None, years=(), text="FY2017",
                  end=date(2017, 1, 28))
    column = Period(end=date(2017, 1, 28), year=2017, months=None, label="January 28, 2017")
    assert matches(asked, column, january) == 1.0
    assert matches(asked, column, None) == 0.6  # no calendar to say the date is the year end


def test_a_balance_sheets_bare_year_is_the_balance_at_that_fiscal_year_end() -> None:
    cal = read_calendar(["FORM 10-K For the fiscal year ended December 31, 2019"], [("2019", "December 31,")])
    at = Asked(fiscal_year=None, quarter=None, months=None, instant=date(2019, 12, 31), years=(), text="FY2019")
    assert matches(at, Period(end=None, year=2019, months=None, instant=True, label="2019"), cal) == 1.0
    assert matches(at, Period(end=None, year=2018, months=None, instant=True, label="2018"), cal) == 0.0
    assert matches(at, Period(end=None, year=2019, months=None, instant=True, label="2019"), None) == 0.4


def test_every_balance_date_a_question_names_is_kept_in_order() -> None:
    from datetime import date

    a = asked_period("How did inventories change from January 28, 2023 to July 29, 2023?")
    assert a.instants == (date(2023, 1, 28), date(2023, 7, 29)) and a.instant == date(2023, 1, 28)
    assert asked_period("What were total assets as of December 31, 2022?").instants == (date(2022, 12, 31),)
    # the end of a duration is no balance date
    assert asked_period("What was revenue for the year ended December 31, 2022?").instants == ()


def test_a_balance_sheets_bare_year_is_that_fiscal_years_end_balance_when_the_calendar_is_known() -> None:
    asked = asked_period("What is the company's year end FY2018 net property, plant and equipment?")
    bare = column_period("2018", "Consolidated Statements of Financial Position (Dollars in millions)")
    assert bare is not None and bare.instant and bare.end is None
    assert matches(asked, bare, Calendar(12, 31)) == 1.0
    assert matches(asked, bare, None) == 0.6  # no calendar: the year's end is not known
    other = column_period("2017", "Consolidated Statements of Financial Position (Dollars in millions)")
    assert other is not None and matches(asked, other, Calendar(12, 31)) == 0.0


@pytest.mark.parametrize(("text", "named"), [
    ("In fiscal 2022, we acquired Current Health.", [(2022, True, "fiscal 2022")]),
    ("acquired in FY2021 and FY'22", [(2021, True, "FY2021"), (2022, True, "FY'22")]),
    ("Q4 FY22 sales rose", [(2022, True, "Q4 FY22")]),
    ("the 2022/23 year", [(2023, True, "2022/23")]),
    # a date's year is the date's; a bare year is named, but not as a fiscal one
    ("as of June 30, 2022 compared to 2021", [(2021, False, "2021")]),
    ("fiscal year 2023 ended January 28, 2023", [(2023, True, "fiscal year 2023")]),
    ("$2,021 million and 2,022 units", []),
])
def test_years_named_as_years_not_as_dates(text: str, named: list[tuple[int, bool, str]]) -> None:
    from engine.periods import years_named

    assert years_named(text) == named


@pytest.mark.parametrize(("text", "years", "quarter", "of"), [
    ("Compare cash at year-end 2021 with the balance at the end of Q2 2023.", (2021, 2023), 2, (2023,)),
    ("revenue in Q4FY22", (2022,), 4, (2022,)),
    ("4Q22 revenue", (2022,), 4, (2022,)),
    ("the second quarter of fiscal 2024 against FY2022", (2024, 2022), 2, (2024,)),
    ("FY24 Q1 sales", (2024,), 1, (2024,)),
    ("fiscal 2023 first quarter margin", (2023,), 1, (2023,)),
    ("Q2 of 2023 versus 2021", (2023, 2021), 2, (2023,)),
    ("Q2 2023 and Q2 2022 net sales", (2023, 2022), 2, (2023, 2022)),
    ("revenue in Q2", (), 2, ()),
    ("in the second quarter, 2021 and 2022 compared", (2021, 2022), 2, ()),
])
def test_the_years_a_quarter_is_written_with(text: str, years: tuple[int, ...], quarter: int,
                                             of: tuple[int, ...]) -> None:
    a = asked_period(text)
    assert (a.years, a.quarter, a.quarter_years) == (years, quarter, of)


def test_a_debt_instrument_named_by_its_year_is_no_period_asked() -> None:
    """"the 2030 Notes", "its 2027 senior notes", "debentures due 2035" name an instrument: a question about one asks
    no fiscal 2030 (a 10-K of fiscal 2023 reports it), while a year asked beside it still counts."""
    from engine.periods import asked_period

    assert asked_period("Describe Contoso's 2030 Notes: when were they issued and at what coupon?").years == ()
    assert asked_period("How much of its 2027 senior notes did it repay?").years == ()
    assert asked_period("What is the coupon on the debentures due 2035 as of fiscal 2022?").years == (2022,)
    assert asked_period("What were net sales in 2030?").years == (2030,)
    assert asked_period("What notes did it issue in 2021?").years == (2021,)



@pytest.mark.parametrize(
    ("header", "expected"),
    [
        # a count at the end of the period it names is that period's balance
        ("Fiscal 2024 Total Stores at End of Second Quarter", (2024, 2, 2024)),
        ("Units at the end of the third quarter FY2023", (2023, 3, 2023)),
        # at its beginning, the balance at the end of the period before
        ("Fiscal 2024 Total Stores at Beginning of Second Quarter", (2024, 1, 2024)),
        ("Stores at beginning of first quarter 2023", (2022, 4, 2022)),
        ("Balance at Beginning of Fiscal 2023", (2022, None, None)),
        ("Balance at start of year 2021", (None, None, 2020)),
        ("Balance at end of 2022", (None, None, 2022)),
    ],
)
def test_a_column_counted_at_a_bound_of_its_period_is_a_balance(header: str, expected: tuple[object, ...]) -> None:
    p = column_period(header)
    assert p is not None and p.instant and p.months is None
    assert (p.fiscal_year, p.quarter, p.year) == expected


def test_a_quarter_asked_reads_the_count_at_its_end_not_at_its_beginning() -> None:
    """A store count table lays each quarter out as beginning, opened, closed, end: the quarter's count is the one at
    its end; the one at its beginning is the quarter before's, and a flow over the year ("Stores Opened") none."""
    asked = asked_period("How many stores were open in Q2 of fiscal 2024?")
    begin, end, opened = (column_period(f"Fiscal 2024 {h}") for h in (
        "Total Stores at Beginning of Second Quarter", "Total Stores at End of Second Quarter", "Stores Opened"))
    assert begin is not None and end is not None and opened is not None
    assert matches(asked, end, None) == 1.0
    assert matches(asked, begin, None) == 0.0
    assert matches(asked, opened, None) == 0.0
    assert matches(asked_period("How many stores were open in Q1 of fiscal 2024?"), begin, None) == 1.0
    assert what_it_is(end, None) == "balance at the end of the second quarter of fiscal 2024"

"""Which primary statements a question needs, which table headings are statements, and the retrieval channel."""

from __future__ import annotations

import pytest

from engine.ask.question import statements_asked
from engine.ask.statements import BALANCE, CASH, EQUITY, INCOME, label_match, statement_of, stems


@pytest.mark.parametrize(
    ("heading", "kind"),
    [
        ("3M Company and Subsidiaries / Consolidated Statement of Cash Flow s / Years ended December 31", CASH),
        ("3M Company and Subsidiaries / Consolidated Balance Shee t / At December 31", BALANCE),
        ("3M Company and Subsidiaries / Consolidated Statement of Cash Flows / Years ended December 31", CASH),
        ("ACTIVISION BLIZZARD, INC. AND SUBSIDIARIES / CONSOLIDATED STATEMENTS OF OPERATIONS", INCOME),
        ("ADOBE SYSTEMS INCORPORATED / CONSOLIDATED STATEMENTS OF INCOME / (In thousands)", INCOME),
        ("Consolidated Balance Sheets (In millions)", BALANCE),
        ("Consolidated statement of financial position", BALANCE),
        ("Consolidated Statements of Shareholders' Equity", EQUITY),
        ("Notes to Consolidated Financial Statements (continued) / Balance sheet data", None),
        ("Schedule II - Valuation and Qualifying Accounts", None),
        ("Product Development (amounts in millions)", None),
        # the MD&A's selected data titled as a statement, and Item 8's index of the statements with their pages
        ("Consolidated Statements of Operations Data / The following table sets forth consolidated data", None),
        ("Item 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA Table: Item 8. Report of Independent Registered "
         "Public Accounting Firm F-1 Consolidated Balance Sheets at December 31, 2019 and 2018 F-4 Consolidated "
         "Statements of Operations for the Years Ended December 31, 2019, 2018, and 2017 F-5 Consolidated "
         "Statements of Changes in Shareholders' Equity F-7 Consolidated Statements of Cash Flows F-8", None),
        ("ACME INC. / CONSOLIDATED STATEMENTS OF OPERATIONS / (Amounts in millions, except per share data)", INCOME),
    ],
)
def test_statement_of_a_heading(heading: str, kind: str | None) -> None:
    assert statement_of(heading) == kind


@pytest.mark.parametrize(
    ("question", "kinds"),
    [
        ("What is the FY2018 capital expenditure amount for 3M? Rely on the cash flow statement.", [CASH]),
        ("Using the balance sheet: what is the year end FY2018 net PPNE for 3M?", [BALANCE]),
        ("What is Adobe's change in unadjusted operating income? Use the income statement.", [INCOME]),
        ("What is the FY2019 fixed asset turnover ratio for Activision Blizzard?", [INCOME, BALANCE]),
        ("What is the FY2017 - FY2019 average of capex as a % of revenue?", [INCOME, CASH]),
        ("Who is the chief executive officer?", []),
        # ratios name no line item; they are built from the statements that report their parts
        ("What is cash ratio in FY2021 for Nike?", [BALANCE]),
        ("What is cash conversion cycle in FY2021 for Nike?", [INCOME, BALANCE]),
        ("What is effective tax ratio of Best Buy for the fiscal year ending January 28, 2023?", [INCOME]),
        ("What is Return on Capital Employed for the fiscal year?", [INCOME, BALANCE]),
        ("what is Amazon's FY2017 debt to ebitda ratio?", [INCOME, BALANCE, CASH]),
        ("What is the capitalization ratio of Acme for the fiscal year ending January 28, 2023?", [BALANCE]),
    ],
)
def test_statements_a_question_needs(question: str, kinds: list[str]) -> None:
    assert statements_asked(question) == kinds


def test_dense_query_drops_instructions_about_the_answer_form() -> None:
    from engine.ask.expansion import expand, focus

    q = ("Assume that you are a public equities analyst. Answer the following question by primarily using "
         "information that is shown in the balance sheet: what is the year end FY2018 net PPNE for 3M? Answer in "
         "USD billions.")
    assert focus(q) == "what is the year end FY2018 net PPNE for 3M?"
    q2 = ("What is the FY2018 capital expenditure amount (in USD millions) for 3M? Give a response to the "
          "question by relying on the details shown in the cash flow statement.")
    assert focus(q2) == "What is the FY2018 capital expenditure amount (in USD millions) for 3M?"
    assert focus("Round to two decimals.") == "Round to two decimals."  # nothing but instructions: kept
    e = expand(q2)
    assert e.dense.startswith("What is the FY2018 capital expenditure amount") and "Give a response" not in e.dense
    assert "Give a response" in e.lexical  # BM25 still sees every word
    # the statement channel reads the whole question, instructions included
    assert statements_asked(q) == [BALANCE]


def test_selected_data_is_not_a_statement_and_consolidated_comes_first() -> None:
    from engine.ask.statements import statement_priority

    assert statement_of("U.S. CONSUMER SERVICES / TABLE 9: USCS SELECTED INCOME STATEMENT DATA") is None
    assert statement_of("CONSOLIDATED STATEMENTS OF COMPREHENSIVE INCOME | (Millions)") == INCOME
    assert statement_priority("CONSOLIDATED STATEMENTS OF INCOME") == 0
    assert statement_priority("CONDENSED CONSOLIDATED STATEMENTS OF INCOME (Unaudited)") == 0
    assert statement_priority("CONSOLIDATED STATEMENTS OF COMPREHENSIVE INCOME") == 2
    assert statement_priority("Statements of Operations") == 1


def test_item_8s_title_does_not_hide_the_statement_under_it() -> None:
    """Microsoft's income statement (2016 10-K p. 52) is headed by Item 8's title and is not called
    consolidated: it is the income statement, ahead of the comprehensive income one."""
    from engine.ask.statements import statement_priority

    head = "PART II / Item 8 / ITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA INCOME STATEMENTS"
    assert statement_of(head) == INCOME
    assert statement_priority(head) < statement_priority("PART II / Item 8 / COMPREHENSIVE INCOME STATEMENTS")
    assert statement_of("Schedule II / Supplementary Information / Statements of Income") is None
    assert statements_asked("Does Adobe have an improving Free cashflow conversion as of FY2022?") == [CASH]


def test_ratios_need_every_statement_they_are_computed_from() -> None:
    assert statements_asked("Is 3M a capital-intensive business based on FY2022 data?") == [INCOME, BALANCE, CASH]
    assert statements_asked("what is Amazon's FY2017 return on asset?") == [INCOME, BALANCE]


def test_md_and_a_tables_are_not_statements_and_a_company_named_group_is_no_hint() -> None:
    from engine.ask.statements import statement_priority

    mdna = ("THE GOLDMAN SACHS GROUP, INC. AND SUBSIDIARIES / Management's Discussion and Analysis / Balance Sheet "
            "Analysis and Metrics")
    assert statement_of(mdna) is None
    assert statement_of("Management's Discussion and Analysis / Off-Balance Sheet Arrangements") is None
    gs = "THE GOLDMAN SACHS GROUP, INC. AND SUBSIDIARIES / Consolidated Balance Sheets"
    assert statement_of(gs) == BALANCE and statement_priority(gs) == 0
    assert statement_priority("THE GOLDMAN SACHS GROUP, INC. / Balance Sheets") == 1
    assert statement_priority("BMW Group Statement of Financial Position") == 0


GS_CASH_FLOW_ROWS = [
    "Net earnings", "Depreciation and amortization", "Provision for credit losses",
    "Net cash provided by/(used for) operating activities",
    "Purchase of property, leasehold improvements and equipment",
    "Deposits, net", "Preferred stock redemption", "Common stock repurchased",
    "Net increase in cash and cash equivalents", "Cash and cash equivalents, ending balance",
    "Cash payments for interest, net of capitalized interest", "Cash payments for income taxes, net",
]
"""Row labels of The Goldman Sachs Group's consolidated statement of cash flows (2021 10-K, page 127)."""


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("How much cash did Goldman Sachs pay for interest in 2020?", True),
        ("What was the net increase in cash and cash equivalents for Goldman Sachs in 2019?", True),
        ("What was the amount of provision for credit losses for Goldman Sachs in 2022?", True),
        ("Who audits Goldman Sachs?", False),
        # one word of a label is not naming it, nor are generic statement words ("net", "ending balance")
        ("How did deposits at Goldman Sachs change?", False),
        ("What was the ending balance, net?", False),
    ],
)
def test_a_question_names_a_statement_row(question: str, named: bool) -> None:
    assert (label_match(stems(question), GS_CASH_FLOW_ROWS) > 0) is named


def test_the_closer_row_match_scores_higher() -> None:
    q = stems("What was the net increase in cash and cash equivalents in 2019?")
    exact = label_match(q, ["Net increase in cash and cash equivalents"])
    loose = label_match(q, ["Cash and cash equivalents, beginning of year"])
    assert exact > loose > 0


def test_a_statement_whose_title_the_text_layer_lost_is_known_by_its_rows() -> None:
    from engine.ask.statements import statement_by_rows

    corning = ("(In millions, except share and per share amounts)\nColumns: December 31, 2020 | December 31, 2019\n"
               "Rows: Cash and cash equivalents; Inventories, net (Note 6); Total current assets; Goodwill, net; "
               "Accounts payable; Total current liabilities; Long-term debt; Total equity")
    assert statement_by_rows(corning) == BALANCE
    assert statement_by_rows("x\nRows: Net cash provided by operating activities; Net cash used in investing "
                             "activities; Dividends paid") == CASH
    assert statement_by_rows("x\nRows: Net sales; Cost of sales; Operating income; Net income; Basic earnings per "
                             "share") == INCOME
    assert statement_by_rows("Segment assets\nRows: Total assets; Capital expenditures") is None
    assert statement_by_rows("no rows line: total assets total liabilities") is None


def test_a_heading_that_names_the_statement_in_a_sentence_is_not_the_statement() -> None:
    from engine.ask.statements import statement_priority

    md_and_a = ("Cash Flows: / Cash flows from operating, investing and financing activities are provided in the "
                "tables that follow. Individual amounts in the Consolidated Statement of Cash Flows exclude the")
    read_with = ("LIQUIDITY / Cash Flows / This data should be read in conjunction with our Consolidated Statements "
                 "of Cash Flows.")
    note = ("PART II / Item 8 / Gains (losses), net of tax, on derivative instruments recognized in our consolidated "
            "comprehensive income statements were as follows:")
    statement = "Orchard Devices Inc. / Consolidated Statement of Cash Flows / Years ended December 31"
    assert statement_priority(statement) == 0
    assert statement_priority(md_and_a) > statement_priority(statement)
    assert statement_priority(read_with) > statement_priority(statement)
    assert statement_priority(note) == 3
    # an abbreviation's full stop is no sentence: the title stands
    assert statement_priority("Lexicon Co. / Consolidated statements of income (unaudited) Lexicon Co. Consolidated "
                              "statements of income (unaudited)") == 0

"""Metrics defined in the question (or named), evaluated from table cells: the FinanceBench 'metrics-generated'
shapes, with the statement each balance comes from."""

from __future__ import annotations

import pytest

from engine.ask.cells import TableSource, cell_lookup
from engine.ask.formulas import Result, evaluate
from engine.ask.formulas import solve as solve_with
from engine.ask.question import definition, parse
from engine.periods import asked_period


def table(title: str, columns: list[str], rows: dict[str, list[float]]) -> dict:
    return {"title": title, "columns": columns,
            "rows": [{"label": k, "values": [str(x) for x in v], "numbers": v} for k, v in rows.items()]}


INCOME = table("Consolidated Statements of Operations", ["2019", "2018", "2017"], {
    "Total net revenues": [6489.0, 7500.0, 7017.0],
    "Cost of sales": [2000.0, 2100.0, 2200.0],
    "Operating income": [1607.0, 1988.0, 1309.0],
    "Net income": [1503.0, 1813.0, 273.0],
})
BALANCE = table("Consolidated Balance Sheets", ["December 31, 2019", "December 31, 2018"], {
    "Inventories": [300.0, 250.0],
    "Total current assets": [7292.0, 5621.0],
    "Property and equipment, net": [253.0, 282.0],
    "Accounts payable": [292.0, 253.0],
    "Total current liabilities": [3342.0, 2871.0],
})
CASH = table("Consolidated Statements of Cash Flows", ["2019", "2018", "2017"], {
    "Net cash provided by operating activities": [1831.0, 1790.0, 2213.0],
    "Depreciation and amortization": [328.0, 502.0, 853.0],
    "Inventories": [-50.0, 20.0, -10.0],  # a change, not a balance
    "Capital expenditures": [-116.0, -131.0, -155.0],
})
TABLES = [(1, INCOME), (2, BALANCE), (3, CASH)]


def table_lookup(tables: list[tuple[int, dict]], question: str = ""):  # type: ignore[no-untyped-def]
    """The cell resolver's lookup over plain tables (their titles name the statements)."""
    return cell_lookup([TableSource(m, t) for m, t in tables], None, asked_period(question))


def solve(question: str, tables: list[tuple[int, dict]]) -> Result | None:
    return solve_with(parse(question), table_lookup(tables, question))


def test_a_defined_ratio_with_an_average_balance() -> None:
    q = ("What is the FY2019 fixed asset turnover ratio for Activision Blizzard? Fixed asset turnover ratio is "
         "defined as: FY2019 revenue / (average PP&E between FY2018 and FY2019). Round your answer to two decimal "
         "places.")
    assert definition(q) == ("FY2019 revenue / (average PP&E between FY2018 and FY2019)", "2019")
    r = solve(q, TABLES)
    assert r is not None and r.value == pytest.approx(6489 / ((253 + 282) / 2), abs=1e-4)
    assert r.text.startswith("6,489 / (avg(282, 253)) = 24.26")
    assert [(t.label, t.column, t.marker) for t in r.terms] == [
        ("Total net revenues", "2019", 1), ("Property and equipment, net", "December 31, 2018", 2),
        ("Property and equipment, net", "December 31, 2019", 2)]


def test_balances_never_come_from_the_cash_flow_statement() -> None:
    q = ("What is the FY2019 days payable outstanding (DPO)? DPO is defined as: 365 * (average accounts payable "
         "between FY2018 and FY2019) / (FY2019 COGS + change in inventory between FY2018 and FY2019).")
    r = solve(q, TABLES)
    expected = 365 * ((253 + 292) / 2) / (2000 + (300 - 250))  # inventory balances, not the cash flow change
    assert r is not None and r.value == pytest.approx(expected, abs=1e-4)


def test_standard_metrics_and_three_year_averages() -> None:
    wc = solve("What is the FY2019 working capital ratio?", TABLES)
    assert wc is not None and wc.value == pytest.approx(7292 / 3342, abs=1e-4)
    fcf = solve("What is the FY2018 free cash flow?", TABLES)  # capex is an outflow whatever its sign
    assert fcf is not None and fcf.value == 1790 - 131
    avg = solve("What is the FY2017 - FY2019 3 year average of capex as a % of revenue?", TABLES)
    want = (155 / 7017 + 131 / 7500 + 116 / 6489) / 3 * 100
    assert avg is not None and avg.percent and avg.value == pytest.approx(want, abs=1e-4)
    assert avg.text.count("FY201") == 3 and "3-year average" in avg.text
    ebitda = solve("What is the FY2019 unadjusted EBITDA % margin?", TABLES)
    assert ebitda is not None and ebitda.value == pytest.approx((1607 + 328) / 6489 * 100, abs=1e-4)


def test_nothing_is_guessed() -> None:
    # a term that is in no table, a year no column has, a question that defines nothing
    assert solve("Ratio defined as: FY2019 goodwill / FY2019 revenue.", TABLES) is None
    assert solve("What is the FY2015 working capital ratio?", TABLES) is None
    assert solve("Who audits the company?", TABLES) is None
    with pytest.raises(LookupError):
        evaluate("revenue / goodwill", "2019", table_lookup(TABLES))
    with pytest.raises(ValueError):
        evaluate("(revenue / cogs", "2019", table_lookup(TABLES))


def test_a_share_of_revenue_averaged_over_years_said_in_words() -> None:
    q = ("Basing your judgment by information plainly provided in the statement of income, what is the company's "
         "three year average of cost of goods sold as a % of revenue from FY2017 to FY2019? Round to one decimal.")
    assert definition(q) == ("cost of goods sold / revenue * 100", "2019")
    r = solve(q, TABLES)
    want = (2200 / 7017 + 2100 / 7500 + 2000 / 6489) / 3 * 100
    assert r is not None and r.percent and r.value == pytest.approx(want, abs=1e-4)
    assert "3-year average" in r.text
    # a share between words the vocabulary does not know as line items is not computed
    assert definition("What is international as a % of total?") is None


def test_a_metric_for_a_year_other_than_the_one_asked() -> None:
    q = "What is the FY2019 working capital ratio?"
    r = solve_with(parse(q), table_lookup(TABLES, q), year="2018")
    assert r is not None and r.value == pytest.approx(5621 / 2871, abs=1e-4)


def test_a_ratio_named_with_its_words_run_together() -> None:
    from engine.vocabulary import ratio_named

    named = ratio_named("Does the company have an improving Free cashflow conversion as of FY2022?")
    assert named is not None and named[0] == "free cash flow conversion"
    assert ratio_named("What is the currentratio?") is not None
    assert ratio_named("Are gross margins consistent?") is not None  # plural
    assert ratio_named("Is the net marginal cost rising?") is None  # not "net margin"


def test_a_line_items_percent_margin_is_its_share_of_revenue() -> None:
    q = ("According to the P&L statement and the statement of cash flows, what is the FY2019 depreciation and "
         "amortization (D&A from cash flow statement) % margin?")
    assert definition(q) == ("FY2019 depreciation and amortization / revenue * 100", "2019")
    r = solve(q, TABLES)
    assert r is not None and r.percent and r.value == pytest.approx(328 / 6489 * 100, abs=1e-4)
    assert definition("What is the revenue % margin?") is None  # revenue over itself is no metric


def test_an_additive_metric_less_a_line_item() -> None:
    q = ("What is the FY2019 unadjusted EBITDA less capex? Define unadjusted EBITDA as unadjusted operating "
         "income + depreciation and amortization [from cash flow statement]. Answer in USD millions.")
    assert definition(q) == ("(operating income + d&a) - capex", "2019")
    r = solve(q, TABLES)
    assert r is not None and not r.percent
    assert r.value == pytest.approx(1607 + 328 - 116)  # capex is quoted positive although printed as an outflow
    assert solve("What was FY2018 operating cash flow minus capex?", TABLES).value == pytest.approx(1790 - 131)  # type: ignore[union-attr]
    assert definition("What is the operating margin less capex in FY2019?") is None  # a ratio less an amount
    assert definition("Is revenue less volatile than net income?") is None  # "less" that subtracts nothing


def test_an_x_to_y_ratio_of_two_line_items_and_standard_ratios_named_in_the_singular() -> None:
    q = "What is the FY2019 cash balance to total liability ratio? Round to three decimals."
    assert definition(q) == ("FY2019 cash balance / total liability", "2019")
    q2 = "What is the FY2019 capex to average inventory ratio?"
    r = solve(q2, TABLES)
    assert r is not None and not r.percent and r.value == pytest.approx(116 / ((300 + 250) / 2), abs=1e-4)
    pct = solve("What is the FY2019 capex to revenue ratio in percent?", TABLES)
    assert pct is not None and pct.percent and pct.value == pytest.approx(116 / 6489 * 100, abs=1e-4)
    assert definition("What is the ratio of revenue to its peers?") is None  # not 'X to Y ratio' of two items
    assert definition("what is the FY2019 return on asset?")[0].startswith("net income / (average total assets")  # type: ignore[index]
    assert definition("FY2019 operating profit margin before depreciation?")[0] == (  # type: ignore[index]
        "(operating income + d&a) / revenue * 100")


def test_a_qualified_row_is_another_item_and_an_additive_metric_is_no_ratio_by_itself() -> None:
    # the balance sheet has total current liabilities only: total liabilities is not found (nothing is computed)
    assert solve("What is the FY2019 total current assets to total liability ratio?", TABLES) is None
    assert solve("What is the FY2019 total current assets to total current liabilities ratio?", TABLES) is not None
    # debt to EBITDA is a ratio of a term this vocabulary does not define: not EBITDA alone
    assert definition("what is the FY2019 debt to ebitda ratio?") is None
    assert definition("what is the FY2019 ebitda?") == ("operating income + d&a", "2019")


def test_a_row_that_says_what_its_parentheses_mean_keeps_its_sign() -> None:
    """An outflow printed in parentheses is the amount spent ("Capital expenditures (116)" is 116), but a row whose
    label names the other side in parentheses ("Provision/(benefit) for taxes on income (71)") prints a benefit:
    the effective tax rate it gives is negative."""
    income = table("Condensed Consolidated Statements of Income", ["2023", "2022"], {
        "Total net revenues": [12734.0, 27742.0],
        "Income from continuing operations before provision/(benefit) for taxes on income": [2269.0, 11447.0],
        "Provision/(benefit) for taxes on income": [-71.0, 1570.0],
    })
    lookup = table_lookup([(1, income)], "2023")
    tax = lookup("income tax expense", "2023")
    assert tax is not None and tax.value == -71.0
    assert lookup("income tax expense", "2022").value == 1570.0  # type: ignore[union-attr]
    capex = table_lookup([(3, CASH)], "2019")("capital expenditures", "2019")
    assert capex is not None and capex.value == 116.0


def test_a_filers_adjusted_measure_is_not_the_standard_one() -> None:
    """"Las Vegas Strip Resorts Adjusted Property EBITDA" is the filer's measure, defined and reported by it: the
    standard EBITDA (operating income + D&A of the whole company) does not compute it; "unadjusted EBITDA" is the
    standard one."""
    from engine.vocabulary import ratio_named

    assert ratio_named("What drove the change in Acme's Las Vegas Resorts Adjusted Property EBITDA in 2018?") is None
    assert ratio_named("What was Acme's adjusted EBITDA in 2022?") is None
    assert ratio_named("What was Acme's EBITDA in 2022?") == ("ebitda", "operating income + d&a")
    assert ratio_named("What is the FY2022 unadjusted EBITDA % margin for Acme?") is not None
    q = parse("How much did Acme's adjusted EBITDA change between FY2017 and FY2018?")
    assert q.formula is None
    assert solve("What was the FY2019 adjusted EBITDA?", TABLES) is None


def test_an_operating_loss_is_operating_income() -> None:
    """"Operating loss" is how a filer names a negative operating income: the same line item."""
    from engine.vocabulary import canonical

    assert canonical("operating loss") == canonical("operating income")


def test_other_income_and_expense_is_one_line_item_in_any_order_of_its_words() -> None:
    """Filers print the non-operating line as "Other income (expense), net", "Other (income) expense, net" or "Other
    expense (income), net": one item, apart from operating income and from other comprehensive income."""
    from engine.vocabulary import items_named

    for label in ("Other income (expense), net", "Other (income) expense, net", "Other expense (income), net",
                  "other income, net", "Nonoperating income (expense)"):
        assert [it.name for it in items_named(label)] == ["other income"], label
    assert [it.name for it in items_named("Operating income (loss)")] == ["operating income"]
    assert "other income" not in [it.name for it in items_named("Other comprehensive income (loss)")]


def test_a_measure_the_question_gives_as_a_sum_is_computed_from_its_terms_on_the_filers_balance_date() -> None:
    """"total borrowings (notes payable plus long-term debt)" is the question's own definition, whatever the
    vocabulary calls total debt; a balance date named alone is read in the filer's calendar (a 52/53-week year that
    closes on January 2, 2022 is fiscal 2021, whose balance sheet heads its column "2021")."""
    from asking import compute

    from engine.ask.cells import TableSource
    from engine.periods import Calendar

    q = parse("What were Northwind's total borrowings (notes payable plus long-term debt, as reported) as of "
              "January 2, 2022, in USD millions?")
    assert q.formula == ("notes payable + long-term debt", "2022")
    assert parse("What was the spread on the revolver (SOFR plus 1.10%) in 2022?").formula is None
    balance = table("Consolidated Balance Sheets At January 2, 2022 and January 3, 2021", ["2021", "2020"],
                    {"Notes payable": [410.0, 380.0], "Long-term debt": [2_190.0, 2_400.0]})
    comp = compute(q, [TableSource(1, balance)], Calendar(1, 1, shift=1, weeks=True))
    assert comp is not None and comp.result == 2_600.0, comp


def test_a_share_asked_as_what_came_from_a_part_is_the_part_over_the_whole_in_one_scale() -> None:
    """"What proportion of total net sales was generated by licensing revenue in 2021?" asks licensing over total;
    a part found only as the whole ("Online revenue" that no row names) is no share, and a single cell of either is
    never stated as the answer."""
    from asking import compute, resolve

    from engine.ask.cells import TableSource

    q = parse("What proportion of Tailspin's total net sales was generated by licensing revenue in fiscal 2021?")
    assert q.pair == ("licensing revenue", "total net sales") and q.pair_percent
    income = table("Consolidated Statements of Income (in millions)", ["2021", "2020"],
                   {"Product revenue": [700.0, 650.0], "Licensing revenue": [300.0, 250.0],
                    "Total net sales": [1000.0, 900.0]})
    income["scale"] = 1e6
    comp = compute(q, [TableSource(1, income)])
    assert comp is not None and comp.result == 30.0 and comp.percent, comp
    # the part in a note in thousands, the whole in millions: one scale before dividing
    note = table("Revenue by type (in thousands)", ["2021", "2020"], {"Licensing revenue": [300_000.0, 250_000.0]})
    note["scale"] = 1e3
    totals = table("Consolidated Statements of Income (in millions)", ["2021", "2020"],
                   {"Total net sales": [1000.0, 900.0]})
    totals["scale"] = 1e6
    comp = compute(q, [TableSource(1, note), TableSource(2, totals)])
    assert comp is not None and comp.result == 30.0, comp
    online = parse("What share of Tailspin's total net sales in fiscal 2021 came from online licensing revenue?")
    assert online.pair == ("online licensing revenue", "total net sales")
    assert compute(online, [TableSource(1, income)]) is None
    assert not resolve(online, [TableSource(1, income)]).confident


def test_a_balance_named_net_of_allowances_or_at_a_years_end_is_read_from_the_balance_sheet() -> None:
    """"average trade receivables, net between the close of FY2018 and the close of FY2019": the receivables item
    (a filer's ", net" is the item net of allowances), at the two year-ends, never the cash flow statement's change
    of the same name; a balance's change between two dates is computed from bare-year columns too."""
    from asking import compute

    from engine.ask.cells import TableSource
    from engine.vocabulary import canonical

    assert canonical("Trade accounts receivable, net") == canonical("accounts receivable")
    balance = table("Consolidated Balance Sheets", ["December 31, 2019", "December 31, 2018"],
                    {"Trade accounts receivable, net": [500.0, 400.0]})
    cash = table("Consolidated Statements of Cash Flows", ["2019", "2018"],
                 {"Trade accounts receivable": [-100.0, 30.0]})
    dso = ("What were Litware's FY2019 days sales outstanding? DSO is defined as: 365 * (average trade accounts "
           "receivable, net between the close of FY2018 and the close of FY2019) / FY2019 revenue.")
    r = solve(dso, [(1, INCOME), (2, balance), (3, cash)])
    assert r is not None and round(r.value, 2) == round(365 * 450 / 6489, 2), r
    bare = table("Consolidated Balance Sheets (December 31)", ["2019", "2018"], {"Inventories": [300.0, 250.0]})
    moved = compute(parse("By how much did Litware's inventories change between December 31, 2018 and December 31, "
                          "2019?"), [TableSource(1, bare)])
    assert moved is not None and moved.result == 50.0, moved


def test_a_growth_asked_year_over_year_for_one_period_is_against_the_same_period_a_year_before() -> None:
    """"What was revenue growth versus the same quarter a year earlier for the three months ended June 30, 2022?"
    names one period; the change asked is against the same three months of the year before."""
    from asking import compute

    from engine.ask.cells import TableSource

    income = table("Condensed Consolidated Statements of Income", ["Three Months Ended June 30, 2022",
                                                                    "Three Months Ended June 30, 2021"],
                   {"Revenues": [1_150.0, 1_000.0]})
    for text in ("What was Litware's year-over-year revenue growth for the three months ended June 30, 2022?",
                 "How much did Litware's revenues grow in the three months ended June 30, 2022, compared with the "
                 "same quarter a year earlier, in percent?"):
        q = parse(text)
        assert q.year_over_year, text
        comp = compute(q, [TableSource(1, income)])
        assert comp is not None and round(comp.result, 2) == 15.0, (text, comp)
    assert not parse("What was Litware's revenue growth from 2021 to 2022?").year_over_year


def test_a_share_that_came_from_a_named_segment_is_the_segments_figure_over_the_companys() -> None:
    """"What percentage of net sales came from the Cloud segment?": the part is the segment itself, so the share is
    the whole's item for the segment over the company's; a segment no row breaks out gives no share."""
    from asking import compute

    from engine.ask.cells import TableSource

    segments = table("Net sales by segment", ["2022", "2021"], {
        "Net sales:": [],
        "Cloud": [420.0, 300.0],
        "Devices": [580.0, 600.0],
        "Total net sales": [1_000.0, 900.0],
    })
    q = parse("What percentage of Contoso's net sales in 2022 came from the Cloud segment?")
    comp = compute(q, [TableSource(1, segments)])
    assert comp is not None and round(comp.result, 2) == 42.0, comp
    assert compute(parse("What percentage of Contoso's net sales in 2022 came from the Gaming segment?"),
                   [TableSource(1, segments)]) is None


def test_a_defined_sum_whose_terms_are_not_all_found_is_not_one_of_its_terms() -> None:
    """"total debt (notes payable plus long-term debt)" where the tables show only long-term debt: no result, neither
    the one line it found for both terms nor that line's own change."""
    from asking import compute

    from engine.ask.cells import TableSource

    balance = table("Consolidated Balance Sheets", ["December 31, 2022", "December 31, 2021"],
                    {"Long-term debt": [5_000.0, 4_000.0]})
    for text in ("What was Contoso's total debt (notes payable plus long-term debt) at December 31, 2022?",
                 "By how much did Contoso's total debt (notes payable plus long-term debt) increase between December "
                 "31, 2021 and December 31, 2022?"):
        assert compute(parse(text), [TableSource(1, balance)]) is None, text



def test_a_ratio_asked_in_percent_is_stated_in_percent() -> None:
    # the definition says "/" but not "* 100"; the answer is asked in percent, so 1,503 over 6,489 is 23.16%, not
    # "0.23" (which reads as a quarter of a percent)
    q = ("What was Acme's FY2019 net margin? Net margin is defined as: FY2019 net income / FY2019 total net revenues. "
         "Express the answer as a percentage, rounded to two decimal places.")
    p = parse(q)
    assert p.in_percent and p.formula is not None and p.formula[0].endswith("* 100")
    r = solve(q, TABLES)
    assert r is not None and r.percent and r.value == pytest.approx(1503 / 6489 * 100, abs=1e-3)
    # a named standard ratio asked "in units of percents" is its definition times 100 too
    named = parse("What is Acme's FY2019 return on assets? Answer in units of percents.")
    assert named.in_percent and named.ratio is not None and "* 100" in named.ratio[1]
    # no percent asked, a share "as a percentage of" a whole, a change in points: no unit said for the answer
    for text in ("What was Acme's FY2019 current ratio? Round to two decimal places.",
                 "What was Acme's R&D as a percentage of revenue in FY2019?",
                 "By how much did the margin change in FY2019? Answer in percentage points."):
        assert not parse(text).in_percent, text
    # a sum asked in percent is left alone: there is no ratio to scale
    summed = parse("What was Acme's total debt (short-term debt plus long-term debt) in 2019? Answer in percent.")
    assert summed.formula is not None and "* 100" not in summed.formula[0]


def test_a_sum_or_difference_said_in_words_is_the_questions_definition() -> None:
    # a list of lines "combined", "the total of" a list: the lines added, the list split where the vocabulary's items
    # fall (names with "and" in them stay whole)
    assert parse("What were Zeta's research and development and sales and marketing expenses combined in fiscal "
                 "2021?").formula == ("research and development + sales and marketing expenses", "2021")
    assert parse("What was the total of Zeta's cost of sales, selling, general and administrative expenses, and "
                 "research and development expenses in 2018, in USD thousands?").formula == (
        "cost of sales + selling, general and administrative expenses + research and development expenses", "2018")
    assert parse("What were the combined R&D and SG&A expenses in 2021?").formula == ("R&D + SG&A expenses", "2021")
    assert parse("How much did Zeta hand back to owners through share repurchases and dividends combined in "
                 "2020?").formula == ("share repurchases + dividends", "2020")
    # a definition in words, a list after "minus" taken away term by term
    assert parse("What was Zeta's net debt at the end of 2019, defined as short-term debt plus long-term debt minus "
                 "cash and cash equivalents and marketable securities?").formula == (
        "short-term debt + long-term debt - cash and cash equivalents - marketable securities", "2019")
    # an aside that adds and takes away; a term added is one line however many "and"s it has
    assert parse("What was Zeta's net debt at December 31, 2022 (current portion of long-term debt and short-term "
                 "borrowings plus long-term debt, minus cash and cash equivalents)?").formula == (
        "current portion of long-term debt and short-term borrowings + long-term debt - cash and cash equivalents",
        "2022")
    # no list of lines: "the combined company", a total over parts
    for text in ("What was the combined company's revenue in 2019?",
                 "What is the total of its segments' operating income in 2020?"):
        assert parse(text).formula is None, text
    r = solve("What were Acme's cost of sales and operating income combined in 2018?", TABLES)
    assert r is not None and r.value == pytest.approx(2100 + 1988)


def test_a_definitions_year_is_the_period_grammars_and_its_where_from_asides_are_no_arithmetic() -> None:
    # "Q2 FY24 (July 29, 2023)": the filer's fiscal 2024, not the calendar year of the date
    assert parse("Did Zeta have positive working capital at the end of Q2 FY24 (July 29, 2023)? Working capital is "
                 "defined as: total current assets - total current liabilities.").formula == (
        "total current assets - total current liabilities", "2024")
    assert parse("How much did Zeta's effective tax rate change between FY21 and FY22?").formula is not None
    assert parse("How much did Zeta's effective tax rate change between FY21 and FY22?").formula[1] == "2022"
    # "(cash flow statement)" says where a term is read, not a term of its own
    assert parse("What was Zeta's capex intensity? Capex intensity is defined as: capital expenditures (cash flow "
                 "statement) / operating revenues.").formula == ("capital expenditures / operating revenues", "")
    # a line taken away may have commas in its name, and several may be taken away in turn
    assert parse("What was Zeta's gross profit minus selling, general and administrative expenses in fiscal 2016?"
                 ).formula == ("gross profit - selling, general and administrative expenses", "2016")
    assert parse("In 2021, what was Zeta's net cash provided by operating activities minus capital expenditures "
                 "minus dividends paid, in USD millions?").formula == (
        "net cash provided by operating activities - capital expenditures - dividends paid", "2021")


def test_a_dash_in_a_row_with_figures_is_nil_in_a_sum() -> None:
    # "Marketable securities — 235": none at the newer date; the net debt is still computed, the dash a zero
    balance = table("Consolidated Balance Sheets", ["December 31, 2019", "December 31, 2018"], {
        "Cash and cash equivalents": [785.0, 805.0],
        "Short-term debt": [230.0, 177.0],
        "Long-term debt": [2032.0, 2035.0],
    })
    balance["rows"].insert(1, {"label": "Marketable securities", "values": ["—", "235"], "numbers": [None, 235.0]})
    balance["rows"].append({"label": "Preferred stock", "values": ["—", "—"], "numbers": [None, None]})
    q = ("What was Acme's net debt at the end of 2019, defined as short-term debt plus long-term debt minus cash and "
         "cash equivalents and marketable securities?")
    r = solve(q, [(1, balance)])
    assert r is not None and r.value == pytest.approx(230 + 2032 - 785 - 0)
    assert r.text.startswith("230 + 2,032 - 785 - 0 = 1,477.00")
    # a note's dash may mean "not applicable" to its column: no figure is read from it
    hedges = table("Fair value hedges", ["Carrying Amount of Hedged Liabilities 2019",
                                         "Carrying Amount of Hedged Liabilities 2018"], {
        "Short-term debt": [None, 500.0], "Long-term debt": [2236.0, 3000.0]})
    hedges["rows"][0]["values"] = ["—", "500"]
    hedged = parse("What was the carrying amount of Acme's hedged short-term debt plus long-term debt (short-term "
                   "debt plus long-term debt) in 2019?")
    assert solve_with(hedged, table_lookup([(1, hedges)], hedged.text)) is None
    # a row of dashes alone is no line with figures: nothing is read from it
    assert solve("What was Acme's preferred stock plus long-term debt (preferred stock plus long-term debt) in "
                 "2019?", [(1, balance)]) is None


def test_a_term_is_the_row_that_writes_it_out_and_note_references_are_no_part_of_a_label() -> None:
    income = table("Consolidated Statements of Operations", ["2017", "2016"], {
        "General and administrative expense": [4095.0, 3616.0],
        "Research and development expense, net": [3179.0, 4626.0],
    })
    segment = table("Commercial Airplanes", ["2017", "2016"], {"Research and development": [2247.0, 3706.0]})
    # the segment table comes first in the evidence; the term's own words name the statement's row
    r = solve("What were Acme's general and administrative expense and research and development expense, net "
              "combined in 2017?", [(1, segment), (2, income)])
    assert r is not None and r.value == pytest.approx(4095 + 3179)
    balance = table("Consolidated Balance Sheets", ["2022", "2021"], {
        "Cash and cash equivalents (Notes 1 and 2)": [14127.0, 14487.0],
        "Marketable securities (Notes 1 and 2)": [9392.0, 17121.0],
        "Accounts receivable trade, less allowances for doubtful accounts $203 (2021, $230)": [16160.0, 15283.0],
        "Total current liabilities": [55802.0, 45226.0],
    })
    q = ("What was Acme's quick ratio in 2022? Quick ratio is defined as: (cash and cash equivalents + marketable "
         "securities + accounts receivable trade, net) / total current liabilities.")
    r = solve(q, [(1, balance)])
    assert r is not None and r.value == pytest.approx((14127 + 9392 + 16160) / 55802, abs=1e-4)


def test_a_segments_income_before_tax_is_read_from_its_row_of_the_by_segment_table() -> None:
    # the filer prints "income before tax" (not "income before income taxes"); its percent-of-sales columns make
    # the table's title no guide to which rows are amounts
    by_segment = table("Income Before Tax by Segment", ["Income Before Tax 2022", "Income Before Tax 2021",
                                                        "Segment Sales 2022", "Segment Sales 2021",
                                                        "Percent of Segment Sales 2022"], {
        "Consumer Health": [2930.0, 1573.0, 14953.0, 15035.0, 19.6],
        "MedTech": [4607.0, 4373.0, 27427.0, 27060.0, 16.8],
        "Segment earnings before tax": [23438.0, 23915.0, 94943.0, 93775.0, 24.7],
        "Worldwide income before tax": [21725.0, 22776.0, 94943.0, 93775.0, 22.9],
    })
    q = parse("How much did Acme's MedTech segment income before tax grow in 2022 compared with 2021?")
    lookup = cell_lookup([TableSource(1, by_segment)], None, q.asked, q.words, q.segment)
    new, old = lookup(q.measures[0].name, "2022"), lookup(q.measures[0].name, "2021")
    assert new is not None and old is not None and (new.value, old.value) == (4607.0, 4373.0)


def test_of_rows_that_fit_alike_the_primary_statements_is_the_line() -> None:
    # a note breaks a charge down by the statement line it sits in; the line itself is the statement's
    note = table("Restructuring charges and certain acquisition-related costs by line", ["2019", "2018"], {
        "Cost of sales": [80.0, 60.0],
        "Selling, informational and administrative expenses": [176.0, 194.0],
    })
    income = table("Consolidated Statements of Income", ["2019", "2018"], {
        "Cost of sales": [8054.0, 8271.0],
        "Selling, informational and administrative expenses": [12726.0, 13300.0],
    })
    r = solve("What was the total of Acme's cost of sales and selling, informational and administrative expenses in "
              "2019?", [(1, note), (2, income)])
    assert r is not None and r.value == pytest.approx(8054 + 12726)


def test_a_definition_quoting_signed_row_labels_divides_only_at_its_spaced_slash() -> None:
    """A filing labels a signed row with both readings joined by a slash ("Income/(loss) from operations",
    "(Gain)/loss on sale"); a definition that quotes such labels divides once, where its slash stands apart."""
    income = table("Consolidated Statements of Operations", ["Six Months Ended June 30, 2024"], {
        "Net revenues": [900.0],
        "Income/(loss) from operations": [180.0],
        "(Gain)/loss on sale of businesses": [-45.0],
    })
    q = ("What was the operating margin for the six months ended June 30, 2024? Operating margin is defined as: "
         "income/(loss) from operations / net revenues. Answer in percent.")
    r = solve(q, [(1, income)])
    assert r is not None and r.value == pytest.approx(20.0)
    q2 = ("How large was the gain on disposals against revenue in the first half of 2024? Defined as: "
          "(gain)/loss on sale of businesses / net revenues.")
    r2 = solve(q2, [(1, income)])
    assert r2 is not None and abs(r2.value) == pytest.approx(0.05)

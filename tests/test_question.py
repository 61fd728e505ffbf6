"""A question understood once: the parsed Question, one period grammar for routing and resolution, the registries."""

from __future__ import annotations

import dataclasses
from datetime import date

import pytest

from engine.ask.expansion import expand
from engine.ask.question import Intent, parse
from engine.ask.routing import route
from engine.types import Document

# (phrase, fiscal year, quarter, months, balance date, period end): how each phrasing reads
PHRASINGS: list[tuple[str, int | None, int | None, int | None, date | None, date | None]] = [
    ("FY 2022-23", 2023, None, 12, None, None),
    ("FY2022/23", 2023, None, 12, None, None),
    ("fiscal 2022-23", 2023, None, 12, None, None),
    ("2022/23", 2023, None, 12, None, None),
    ("4Q22", 2022, 4, 3, None, None),
    ("4Q 2022", 2022, 4, 3, None, None),
    ("Q4FY22", 2022, 4, 3, None, None),
    ("Q4 FY2022", 2022, 4, 3, None, None),
    ("Q4'22", 2022, 4, 3, None, None),
    ("Q4 2022", 2022, 4, 3, None, None),
    ("3Q FY23", 2023, 3, 3, None, None),
    ("Q1'23", 2023, 1, 3, None, None),
    ("the fourth quarter of fiscal 2022", 2022, 4, 3, None, None),
    ("the second quarter of fiscal year 2024", 2024, 2, 3, None, None),
    ("Q3 of fiscal year 2023", 2023, 3, 3, None, None),
    ("fiscal 2022", 2022, None, 12, None, None),
    ("fiscal year 2022", 2022, None, 12, None, None),
    ("FY22", 2022, None, 12, None, None),
    ("FY '22", 2022, None, 12, None, None),
    ("FY2022", 2022, None, 12, None, None),
    ("FY 2022", 2022, None, 12, None, None),
    ("the 2022 fiscal year", 2022, None, 12, None, None),
    ("calendar 2022", 2022, None, 12, None, None),
    ("in 2022", 2022, None, 12, None, None),
    ("the year ended January 28, 2023", 2023, None, 12, None, date(2023, 1, 28)),
    ("the fiscal year ended December 31, 2022", 2022, None, 12, None, date(2022, 12, 31)),
    ("the year ended 31 March 2023", 2023, None, 12, None, date(2023, 3, 31)),
    ("the 52 weeks ended January 28, 2023", 2023, None, 12, None, date(2023, 1, 28)),
    ("the twelve months ended June 30, 2023", 2023, None, 12, None, date(2023, 6, 30)),
    ("the nine months ended September 30, 2023", 2023, None, 9, None, date(2023, 9, 30)),
    ("the six months ended June 30, 2022", 2022, None, 6, None, date(2022, 6, 30)),
    ("the three months ended March 31, 2023", 2023, None, 3, None, date(2023, 3, 31)),
    ("the 13 weeks ended April 29, 2023", 2023, None, 3, None, date(2023, 4, 29)),
    ("the quarter ended July 29, 2023", 2023, None, 3, None, date(2023, 7, 29)),
    ("the first half of 2023", 2023, None, 6, None, None),
    ("H1 FY24", 2024, None, 6, None, None),
    ("year-to-date Q3 2023", 2023, 3, 9, None, None),
    ("as of year end 2022", 2022, None, None, None, None),
    ("as of December 31, 2022", 2022, None, None, date(2022, 12, 31), None),
    ("at March 31, 2025", 2025, None, None, date(2025, 3, 31), None),
    ("as at 31 March 2023", 2023, None, None, date(2023, 3, 31), None),
    ("fiscal 2021 and fiscal 2022", 2022, None, 12, None, None),
    ("from FY2019 to FY2021", 2021, None, 12, None, None),
    ("Q2 2023 vs Q2 2022", 2023, 2, 3, None, None),
]


def _filings() -> list[Document]:
    """One company's 10-Ks and 10-Qs for 2017-2026, named by year and quarter as the metadata stage reads them."""
    docs = [Document(id=f"acme{y}k", sha256="", name=f"ACME_{y}_10K", path="", pages=100, status="ready",
                     company="Acme Corp", form_type="10-K", fiscal_period=f"FY{y}") for y in range(2017, 2027)]
    docs += [Document(id=f"acme{y}q{n}", sha256="", name=f"ACME_{y}Q{n}_10Q", path="", pages=40, status="ready",
                      company="Acme Corp", form_type="10-Q", fiscal_period=f"Q{n} {y}")
             for y in range(2017, 2027) for n in (1, 2, 3)]
    return docs


def test_there_are_forty_phrasings_at_least() -> None:
    assert len(PHRASINGS) >= 40


@pytest.mark.parametrize(("phrase", "fiscal_year", "quarter", "months", "instant", "end"), PHRASINGS)
def test_routing_and_resolution_read_one_period(phrase: str, fiscal_year: int | None, quarter: int | None,
                                                months: int | None, instant: date | None, end: date | None) -> None:
    question = parse(f"What was Acme's revenue for {phrase}?", _filings())
    asked = question.asked
    years = [y for y in asked.years]
    if end is None and instant is None:
        assert asked.fiscal_year == fiscal_year, phrase
    assert (asked.quarter, asked.months, asked.instant, asked.end) == (quarter, months, instant, end), phrase
    # the lexical channel and routing read the same years as the resolver
    assert expand(question.text).years == [str(y) for y in years]
    r = route(question, _filings())
    assert r.matched.get("year") == [str(y) for y in sorted(set(years))], (phrase, r.reason)
    if quarter is not None and quarter < 4:
        assert r.matched.get("quarter") == [f"Q{quarter}"], (phrase, r.reason)


def test_a_question_is_parsed_once_into_what_every_step_reads() -> None:
    q = parse("Does Acme have positive working capital based on FY2022 data? Round to two decimal places.")
    assert q.yes_no and q.sign == "positive" and q.intent is Intent.YES_NO and q.rounding == 2
    assert q.asked.fiscal_year == 2022 and q.statements == ("balance",)
    q = parse("How many employees did Acme have at the end of FY2021?")
    assert q.counted == "employee" and q.intent is Intent.COUNT
    q = parse("What drove the change in gross margin in FY2023?")
    assert q.why and q.intent is Intent.PROSE
    q = parse("Among operations, investing, and financing activities, which brought in the most cash in FY2023?")
    assert q.ranking is not None and q.ranking.highest and q.ranking.cash and q.intent is Intent.RANKING
    assert q.ranking.names == ("operations", "investing", "financing activities")
    q = parse("What is the FY2022 net profit margin in USD millions?")
    assert q.formula is not None and q.scale == 1e6 and q.intent is Intent.RATIO
    # what a line item is made of is told in words, not a figure of it
    for asked in ("What are the components of cost of sales for Acme's FY2017?",
                  "What is the composition of Acme's operating expenses in 2022?"):
        q = parse(asked)
        assert q.intent is Intent.PROSE and q.narrative == "description" and q.told_in_words
    assert parse("What was Acme's cost of sales in FY2017?").intent is Intent.VALUE
    # a later clause asking what something does is told in words; one asking a figure of a line item is not
    for asked in ("What are Acme's reportable segments and what does each offer?",
                  "Which products does Acme sell; how do they compete?"):
        q = parse(asked)
        assert q.intent is Intent.PROSE and q.narrative and q.told_in_words, asked
    # what a named thing is, its name in capitals or quoted, after the company's possessive too where the question
    # says what kind of thing it is; a line item in capitals after a possessive is a figure
    for asked in ("What is Acme's 'Leaner for Growth' program, what are its two parts, and how much was spent in 2021?",
                  "What is the Orbit Growth plan?", "What was the “Fit for Growth” initiative, and what did it cost?",
                  "What is Acme's Commercial Paper Program, and how large is it?",
                  "What is the Delta Lease Transaction?"):
        q = parse(asked)
        assert q.intent is Intent.PROSE and q.told is not None, asked
    for asked in ("What is Acme's Total Debt?", "What was Acme's Net Income margin?",
                  "What was the Provision for taxes in 2019?", "What is Acme's Operating Income?",
                  "What was Acme's Total Segment Sales?"):
        assert parse(asked).intent is not Intent.PROSE, asked
    assert parse("What was Acme's revenue in 2022, and what did it grow to?").intent is not Intent.PROSE
    assert parse("What is Acme's effective tax rate this quarter and how does it compare across the periods?"
                 ).intent is not Intent.PROSE
    # what explains a move, what a matter is about, which customers or suppliers: told in words, even where the
    # question names the measure they move or make up
    for asked, kind in (("What explains the drop in Acme's revenue in the second quarter of fiscal 2024?", "drivers"),
                        ("What explains Acme's gross margin improvement in 2022?", "drivers"),
                        ("What is Acme's agreement with Beta Pharma about?", "description"),
                        ("What was the patent dispute with Beta Corp about?", "legal"),
                        ("Which customers accounted for more than 10% of Acme's revenue in 2015?", "parties"),
                        ("Which suppliers does Acme depend on for its chips?", "parties")):
        q = parse(asked)
        assert q.intent is Intent.PROSE and q.narrative == kind, asked
    assert parse("What is Acme's revenue about to be in 2024?").intent is not Intent.PROSE
    assert parse("What explains 40% of revenue?").intent is not Intent.PROSE


def test_a_question_of_two_parts_carries_its_measure_and_years_into_the_second() -> None:
    q = parse("What were net sales in fiscal 2022, and how much did they grow over fiscal 2021?")
    assert len(q.parts) == 2
    first, second = q.parts
    assert [m.name for m in first.measures] == ["revenue"] and first.asked.fiscal_year == 2022
    assert [m.name for m in second.measures] == ["revenue"]  # "they": the first part's measure
    assert second.asked.years == (2021, 2022) and second.growth
    # one asking clause is one part
    assert parse("What was the FY2019 revenue? Answer in USD millions.").parts == ()


def test_one_measure_asked_over_two_spans_of_different_length_is_a_part_per_span() -> None:
    """The quarter and the year to date, the quarter and the full year: each span is its own part, keeping the
    rest of the clause; two years of one length are a comparison, and two filings are compared, not split."""
    q = parse("By how much did the gross margin rate fall in the third quarter and in the first nine months of "
              "fiscal 2025, and what caused it?")
    assert [(p.asked.quarter, p.asked.months, p.asked.fiscal_year) for p in q.parts[:2]] == [
        (3, 3, 2025), (None, 9, 2025)]
    assert all(p.ratio is not None and p.ratio[0] == "gross margin" for p in q.parts[:2])
    ended = parse("What was operating income for the three months and six months ended June 30, 2024?")
    assert [(p.asked.months, p.asked.end) for p in ended.parts] == [(3, date(2024, 6, 30)), (6, date(2024, 6, 30))]
    full = parse("What were comparable sales in Q4 and the full year 2023?")
    assert [(p.asked.quarter, p.asked.months, p.asked.fiscal_year) for p in full.parts] == [(4, 3, 2023),
                                                                                           (None, 12, 2023)]
    assert parse("What was revenue in 2022 and 2023?").parts == ()
    assert parse("Compare the company's cash in its fiscal 2023 10-K and its Q2 fiscal 2024 10-Q.").parts == ()


def test_shifted_moves_every_year_of_the_question_and_its_definition() -> None:
    q = parse("Is the operating margin improving as of FY2022? Operating margin is defined as: FY2022 operating "
              "income / FY2022 revenue * 100.")
    earlier = q.shifted(-1)
    assert earlier.asked.fiscal_year == 2021 and earlier.formula is not None
    assert "FY2021 operating income" in earlier.formula[0] and "2022" not in earlier.formula[0]
    assert earlier.text == q.text  # the text is not rewritten


def test_model_sentences_that_contradict_the_code_are_folded_and_the_rest_kept() -> None:
    from asking import compute, resolve
    from test_formulas import table

    from engine.ask.cells import TableSource
    from engine.ask.compose import one_voice
    from engine.ask.decisions import Decision

    income = table("Consolidated Statements of Operations, Years Ended December 31", ["2022", "2021"], {
        "Net sales": [1234.0, 1100.0], "Operating income": [1196.0, 100.0],
        "Depreciation and amortization": [636.0, 600.0]})
    tables = [TableSource(1, income)]
    # a verdict: "No" decided, the model's sentence says it improved
    margin = parse("Is the operating margin improving as of FY2022?")
    no = Decision("trend", "No. It went from 19.39 to 18.55.", verdict=False, figures=(19.39, 18.55))
    res = resolve(margin, tables)
    voiced = one_voice("No, it fell to 18.55 [1]. The operating margin profile has improved over the years [1].",
                       margin, no, None, res, None, stated=False)
    assert voiced.text == "No, it fell to 18.55 [1]." and len(voiced.folded) == 1
    assert "improved" in voiced.folded[0] and "decided No" in voiced.folded[0]
    assert one_voice("Yes, it did [1].", margin, no, None, res, None, stated=False).folded
    # a computation: the metric's figure must be the code's; its terms may be quoted as what they are
    ebitda = parse("What is the FY2022 EBITDA?")
    comp = compute(ebitda, tables)
    assert comp is not None and comp.result == 1832.0
    res = resolve(ebitda, tables)
    kept = ("EBITDA is operating income of $1,196 million plus D&A of $636 million [1]. Operating income was "
            "$1,196 million [1].")
    assert one_voice(kept, ebitda, None, comp, res, None, stated=True).folded == []
    margin_pct = parse("What was FY2022 operating income as a % of net sales?")
    pct = compute(margin_pct, tables)
    assert pct is not None
    explained = "It is operating income divided by net sales, multiplied by 100 [1]."
    assert one_voice(explained, margin_pct, None, pct, resolve(margin_pct, tables), None, stated=True).folded == []
    # the same told in words, pointing back at the metric: the code's terms stay, another term is folded
    told = "This can be calculated by dividing operating income by net sales and multiplying by 100 [1]."
    assert one_voice(told, margin_pct, None, pct, resolve(margin_pct, tables), None, stated=True).folded == []
    other = one_voice("The margin is 96.92%. This can be calculated by dividing operating income by total "
                      "stockholders' equity and multiplying by 100 [1]. So (1,196 / (-412)) * 100 = 96.92%.",
                      margin_pct, None, pct, resolve(margin_pct, tables), None, stated=True)
    assert len(other.folded) == 2 and "stockholders' equity" in other.folded[0]
    assert "does not hold" in other.folded[1]
    # a step of the model's own working contradicts the code: its other steps go with it, the result stays
    steps = one_voice("To calculate it, we need to divide operating income by the prior year's operating income. "
                      "So 1,196 / 100 * 100 = 96.92%. The margin is 96.92%.",
                      margin_pct, None, pct, resolve(margin_pct, tables), None, stated=True)
    assert steps.text == "The margin is 96.92%." and len(steps.folded) == 2
    assert "does not hold" in steps.folded[0] and "the model's own working" in steps.folded[1]
    wrong = one_voice("EBITDA for FY2022 is $1,196 million [1].", ebitda, None, comp, res, None, stated=True)
    assert wrong.text == "" and "not the code's figure" in wrong.folded[0]
    # a stated cell: another year's figure compared with it stays; given in its place, it is folded
    sales = parse("What were net sales in FY2022?")
    res = resolve(sales, tables)
    assert res.confident
    compared = one_voice("Net sales were $1,234 million [1], up from $1,100 million in 2021 [1].", sales, None, None,
                         res, None, stated=True)
    assert compared.folded == []
    instead = one_voice("Net sales were $1,100 million [1].", sales, None, None, res, None, stated=True)
    assert instead.text == "" and "2021" in instead.folded[0]
    # a change in points, or an amount, beside a level the code computed as a ratio is another kind of figure: the
    # filing's explanation of the change is kept; a percent that is not the code's level is still folded
    level = parse("What drove the operating margin in FY2022?")
    ratio = compute(level, tables)
    assert ratio is not None and ratio.percent and ratio.ends is None
    why = ("The operating margin increased 140 basis points due to lower costs [1]. Operating margin benefited "
           "from a $0.6 billion gain [1].")
    assert one_voice(why, level, None, ratio, resolve(level, tables), None, stated=True).folded == []
    assert one_voice("The operating margin was 12.5% [1].", level, None, ratio, resolve(level, tables), None,
                     stated=True).folded
    # a product's number is no figure for a term ("Office 365" is not 365 of operating income)
    assert one_voice("Operating income rose on Office 365 Commercial [1].", level, None, ratio,
                     resolve(level, tables), None, stated=True).folded == []
    # an amount in a currency is no percent cell of another year ("a charge of $33 million" beside 33% for 2021)
    from engine.ask.cells import judge
    from engine.numbers import quantities
    pcts = table("Consolidated Statements of Operations, Years Ended December 31", ["2022", "2021"], {
        "Net revenue": [3991.0, 5506.0], "Gross margin %": [27.0, 33.0]})
    gm = resolve(parse("What drove the gross margin % in 2022?"), [TableSource(1, pcts)])
    assert judge(quantities("a charge of $33 million")[0], gm, None, []).status == "missing"
    assert judge(quantities("it was 33% in 2021")[0], gm, None, []).status == "other_period"
    # nothing decided: the model's text is kept whole
    assert one_voice("It improved.", parse("Why did margins change?"), None, None, res, None, stated=False).folded == []
    # the code computed the metric the question allows may not suit the company: "not meaningful" contradicts it
    escape = parse("What is the FY2022 EBITDA? If EBITDA is not a useful metric for this company, state that.")
    comp = compute(escape, tables)
    assert comp is not None and escape.escape
    said = one_voice("EBITDA was $1,832 million [1]. EBITDA is not a meaningful measure for this company [1].",
                     escape, None, comp, resolve(escape, tables), None, stated=True)
    assert said.text == "EBITDA was $1,832 million [1]." and "does not suit" in said.folded[0]
    # without the escape clause the sentence is the model's to say
    assert one_voice("EBITDA is not a meaningful measure for this company [1].", ebitda, None, comp,
                     resolve(ebitda, tables), None, stated=True).folded == []


def test_a_figure_given_for_another_period_or_an_input_called_missing_is_folded() -> None:
    from asking import compute, resolve
    from test_formulas import table

    from engine.ask.cells import TableSource
    from engine.ask.compose import one_voice
    from engine.ask.decisions import Decision
    from engine.periods import fiscal_year_period

    # a verdict's figure for each year: the lowest margin said to be another year's
    margin = parse("Are gross margins historically consistent (not fluctuating more than roughly 2% each year)?")
    figures = (22.371, 22.488, 21.409)
    steady = Decision("consistency", "Yes. ...", verdict=True, figures=figures,
                      dated=tuple((fiscal_year_period(y), v) for y, v in zip((2021, 2022, 2023), figures, strict=True)))
    res = resolve(margin, [])
    said = one_voice("The highest was 22.5% in 2022, and the lowest was 21.4% in 2021 [1].", margin, steady, None,
                     res, None, stated=True)
    assert said.text == "" and "gives 21.4% for 2021" in said.folded[0] and "22.37" in said.folded[0]
    for right in ("The highest was 22.5% in fiscal 2022, and the lowest was 21.4% in FY2023 [1].",
                  "The margin was 21.4% for the year, down from 22.5% [1]."):  # no period named: nothing to check
        assert one_voice(right, margin, steady, None, res, None, stated=True).folded == [], right
    # stated cells of a row: one quarter's balance given as another quarter's, whatever the words for the quarter
    balance = table("Condensed Consolidated Balance Sheets", ["July 1, 2023", "April 1, 2023", "December 31, 2022"],
                    {"Inventories": [7351.0, 7482.0, 6820.0]})
    balance["units"], balance["scale"] = "$ in millions", 1e6
    tables = [TableSource(1, balance)]
    held = parse("What were inventories as of July 1, 2023?")
    res = resolve(held, tables)
    assert res.confident and res.cells[0].value == 7351.0
    for wrong in ("Inventories rose from $6,820 million to $7,482 million as of July 1, 2023 [1].",
                  "Inventories were $7.482 billion at July 1, 2023, up from $6.82 billion [1]."):
        folded = one_voice(wrong, held, None, None, res, None, stated=True).folded
        assert folded and "the code's inventories for july 1, 2023 is 7,351" in folded[0].lower(), wrong
    kept = "Inventories were $7,351 million as of July 1, 2023, against $7,482 million at April 1, 2023 [1]."
    assert one_voice(kept, held, None, None, res, None, stated=True).folded == []
    # a line item the code read, said to be missing from the filing
    income = table("Consolidated Statements of Operations, Years Ended December 31", ["2015", "2014"],
                   {"Net revenue": [3991.0, 5506.0], "Depreciation and amortization": [167.0, 203.0]})
    tables = [TableSource(1, income)]
    q = parse("What is the FY2015 depreciation and amortization as a % of net revenue?")
    comp = compute(q, tables)
    assert comp is not None and round(comp.result, 2) == 4.18
    missing = one_voice("It is 4.18% [1]. D&A for FY2015 is $167 million, and the net revenue for FY2015 is not "
                        "provided [1].", q, None, comp, resolve(q, tables), None, stated=True)
    assert missing.text == "It is 4.18% [1]." and "says net revenue is not there" in missing.folded[0]
    # a missing line the code did not use is the model's to say
    backlog = "It is 4.18% [1]. The segment's backlog is not provided [1]."
    assert one_voice(backlog, q, None, comp, resolve(q, tables), None, stated=True).folded == []


def test_a_term_given_as_the_metric_named_after_it_is_folded() -> None:
    from asking import compute, resolve
    from test_formulas import table

    from engine.ask.cells import TableSource
    from engine.ask.compose import one_voice

    cash = table("Consolidated Statement of Cash Flows, Fiscal years ended", ["2022"],
                 {"Operating Profit": [11512.0], "Depreciation and amortization": [2763.0],
                  "Capital spending": [5207.0]})
    tables = [TableSource(1, cash)]
    q = parse("What is the FY2022 unadjusted EBITDA less capex? Define unadjusted EBITDA as unadjusted operating "
              "income + depreciation and amortization.")
    comp = compute(q, tables)
    assert comp is not None and comp.result == 9068.0
    res = resolve(q, tables)
    # capex named only inside the metric's name: its 5,207 is given as the metric
    said = one_voice("Therefore, the FY2022 unadjusted EBITDA less capex is $5,207 million [1].", q, None, comp, res,
                     None, stated=True)
    assert said.text == "" and len(said.folded) == 1
    # capex named as itself (by any of its names) stays a term of the computation
    for kept in ("Capex was $5,207 million [1].", "Capital expenditure is given as $-5,207 million [1]."):
        assert one_voice(kept, q, None, comp, res, None, stated=True).folded == [], kept


def test_a_change_measured_against_the_later_period_is_folded() -> None:
    from asking import compute, resolve
    from test_formulas import table

    from engine.ask.cells import TableSource
    from engine.ask.compose import one_voice

    income = table("Consolidated Statements of Operations, Years Ended December 31", ["2022", "2021"],
                   {"Net sales": [1234.0, 1100.0]})
    tables = [TableSource(1, income)]
    q = parse("How did net sales change from fiscal 2021 to fiscal 2022?")
    comp = compute(q, tables)
    assert comp is not None and comp.ends == (1100.0, 1234.0)
    res = resolve(q, tables)
    backwards = one_voice("In fiscal 2021, net sales were $1,100 million, a $134 million increase compared to fiscal "
                          "2022 [1].", q, None, comp, res, None, stated=True)
    assert backwards.text == "" and "against fiscal 2022, the later period" in backwards.folded[0]
    for right in ("Net sales were $1,234 million in fiscal 2022, a $134 million increase compared to fiscal 2021 [1].",
                  "Net sales rose by $134 million versus 2021 [1].", "Net sales rose by $134 million [1]."):
        assert one_voice(right, q, None, comp, res, None, stated=True).folded == [], right


def test_a_computed_change_given_as_the_amount_itself_is_folded() -> None:
    """"Acme spent $134 million on research" where 134 is the computed rise from 1,100 to 1,234: the change's amount
    in a clause that tells no change is not the amount spent; told as a change (a way, "more", "by", a change's
    noun), in any clause of its own, it stays."""
    from asking import compute, resolve
    from test_formulas import table

    from engine.ask.cells import TableSource
    from engine.ask.compose import one_voice

    income = table("Consolidated Statements of Operations, Years Ended December 31", ["2022", "2021"],
                   {"Research and development": [1234.0, 1100.0]})
    tables = [TableSource(1, income)]
    q = parse("How did Acme's research and development expense change from fiscal 2021 to fiscal 2022?")
    comp = compute(q, tables)
    assert comp is not None and comp.ends == (1100.0, 1234.0) and comp.result == 134.0
    res = resolve(q, tables)
    level = one_voice("Acme spent $1,234 million on research and development [1]. Acme spent $134 million on research "
                      "and development in fiscal 2022 [1].", q, None, comp, res, None, stated=True)
    assert level.text == "Acme spent $1,234 million on research and development [1]." and \
        "the computed change, as the amount itself" in level.folded[0], level
    for right in ("Acme spent $134 million more than in 2021 [1].", "Spending rose by $134 million [1].",
                  "Research and development was $1,234 million, an increase of $134 million [1].",
                  "The $134 million increase reflects headcount [1]."):
        assert one_voice(right, q, None, comp, res, None, stated=True).folded == [], right
    # a difference of two cells whose ends are its terms (the part of a question asking how much more)
    bare = dataclasses.replace(comp, kind="difference", ends=None)
    assert one_voice("Acme spent $134 million on research and development [1].", q, None, bare, res, None,
                     stated=True).folded


def test_a_verdict_is_one_class_and_one_registry_entry_whether_a_figure_clears_an_amount() -> None:
    from asking import decided
    from test_formulas import table

    from engine.ask.cells import TableSource
    from engine.ask.kinds import VERDICTS
    from engine.ask.verdicts import ThresholdVerdict

    assert any(isinstance(k, ThresholdVerdict) for k in VERDICTS)
    income = table("Consolidated Statements of Operations, Years Ended December 31", ["2022", "2021"],
                   {"Net sales": [12345.0, 9876.0]})
    income["units"], income["scale"] = "$ in millions", 1e6
    tables = [TableSource(1, income)]
    assert parse("Did net sales exceed $10 billion in FY2022?").threshold == ("above", 10e9, "$10 billion")
    said = decided(ThresholdVerdict(), "Did net sales exceed $10 billion in FY2022?", tables)
    assert said.startswith("Yes. Net sales: 12,345 million") and "above $10 billion" in said
    assert decided(ThresholdVerdict(), "Were net sales in FY2021 more than $10 billion?", tables).startswith("No.")
    assert decided(ThresholdVerdict(), "Were FY2021 net sales below $9,900 million?", tables).startswith("Yes.")
    # a bare number is no amount; a question that is not yes/no gets no verdict
    assert parse("Did net sales grow over 3 years?").threshold is None
    assert decided(ThresholdVerdict(), "What were net sales above $10 billion in FY2022?", tables) == ""


def test_a_where_or_who_clause_after_a_bare_comma_and_what_someone_has_done_are_parts_told_in_words() -> None:
    """Parts a question strings together with bare commas or a bare "and": each is understood on its own, so the
    ones told in words get quotes and the summary check, not the cell of the part beside them."""
    from engine.ask.question import Intent

    q = parse("What is Contoso's licensing fee based on, where is it recorded in the income statement, and how much "
              "was it in fiscal 2021?")
    assert [p.intent for p in q.parts] == [Intent.PROSE, Intent.PROSE, Intent.VALUE], q.parts
    q = parse("What are Acme's receivables from the joint venture, who owes them and how much, and what has Acme "
              "done to recover them?")
    assert [p.intent for p in q.parts][1:] == [Intent.PROSE, Intent.PROSE] and q.told is not None
    assert parse("What is Fabrikam's stance on repatriating foreign earnings?").intent is Intent.PROSE
    q = parse("What gain is included in other income from the Northwind stake and what does it represent?")
    assert [p.text for p in q.parts][-1] == "what does it represent?" and q.parts[-1].intent is Intent.PROSE
    # a relative clause or a figure's comparison is no new part
    assert parse("What is the effective tax rate and how does it compare across the periods?").parts == ()
    assert parse("What were the charges, which the company does not expect to recur?").parts == ()
    assert parse("Who owes Acme the receivables?").parts == ()


def test_cash_a_deal_brought_in_or_a_company_brought_back_is_no_cash_balance() -> None:
    """"How much cash did the sale bring in?" asks proceeds, "how much cash was brought back from foreign subsidiaries"
    a distribution: the balance sheet's cash is neither (the vocabulary's ``other_when`` for cash)."""
    assert [m.name for m in parse("How much cash did the sale of the division bring in?").measures] == []
    assert [m.name for m in parse("How much cash was brought back from foreign subsidiaries in 2022?").measures] == []
    assert [m.name for m in parse("How much cash did Contoso hold at the end of 2022?").measures] == [
        "cash and cash equivalents"]


def test_a_ratio_set_against_a_level_is_answered_yes_or_no_from_the_computed_ratio() -> None:
    from asking import compute, decided
    from test_formulas import table

    from engine.ask.cells import TableSource
    from engine.ask.verdicts import ThresholdVerdict

    balance = table("Consolidated Balance Sheets, As of December 31", ["2021", "2020"],
                    {"Total current assets": [900.0, 800.0], "Total current liabilities": [600.0, 700.0]})
    income = table("Consolidated Statements of Income, Years Ended December 31", ["2021", "2020"],
                   {"Operating income": [420.0, 300.0], "Interest expense": [-140.0, -150.0],
                    "Net income": [250.0, 200.0]})
    cash = table("Consolidated Statements of Cash Flows, Years Ended December 31", ["2021", "2020"],
                 {"Dividends paid": [-90.0, -80.0]})
    tables = [TableSource(1, balance), TableSource(2, income), TableSource(3, cash)]
    current = ("Did Fabrikam keep its current ratio above 1.4 at the end of fiscal 2021? Current ratio = total "
               "current assets / total current liabilities.")
    assert parse(current).threshold == ("above", 1.4, "1.4")
    said = decided(ThresholdVerdict(), current, tables, computation=compute(current, tables))
    assert said == "Yes. Current ratio: 1.50, above 1.4.", said
    covered = ("In FY2021, was Fabrikam's operating income at least 3 times its interest expense? Interest coverage "
               "ratio is defined as: FY2021 operating income / FY2021 interest expense.")
    assert parse(covered).threshold == ("at least", 3.0, "3")
    assert decided(ThresholdVerdict(), covered, tables, computation=compute(covered, tables)).startswith("Yes. ")
    # a level written as a share is a percent, whatever the ratio's own unit
    payout = ("Did Fabrikam pay out less than a third of its 2021 net income as dividends? Dividend payout ratio is "
              "defined as: dividends paid / net income.")
    side, level, _ = parse(payout).threshold
    assert side == "below" and abs(level - 100 / 3) < 1e-9
    assert decided(ThresholdVerdict(), payout, tables, computation=compute(payout, tables)).startswith(
        "No. Dividend payout ratio: 36.00%, above a third")
    # a bare number is a level only of a ratio asked, and never a span or a year
    assert parse("Did Fabrikam's segments number more than 3 in 2021?").threshold is None
    assert parse("Was the current ratio above 1.0 over fiscal years 2019 through 2021? Current ratio = total current "
                 "assets / total current liabilities.").threshold == ("above", 1.0, "1.0")
    assert parse("Was the average current ratio over 2019 and 2020 higher? Current ratio = total current assets / "
                 "total current liabilities.").threshold is None
    assert parse("Did its quick ratio improve over 2 years? Quick ratio = (cash + receivables) / total current "
                 "liabilities.").threshold is None


def test_a_year_two_namings_could_mean_is_answered_the_filers_way_and_the_other_reading_is_given() -> None:
    from asking import resolve

    from engine.ask.cells import TableSource
    from engine.ask.compose import naming_note
    from engine.periods import read_calendar

    columns = ["52 Weeks Ended January 28, 2023", "52 Weeks Ended January 29, 2022"]
    income = {"title": "Consolidated Statements of Earnings", "units": "$ in millions", "scale": 1e6,
              "columns": columns, "rows": [{"label": "Net sales", "values": ["8,630.9", "6,152.0"],
                                            "numbers": [8630.9, 6152.0]}]}
    # the filing never pairs a fiscal-year label with a date: the retail reading is assumed
    silent = read_calendar(["Annual Report. For the fiscal year ended January 28, 2023."],
                           [(c, "") for c in columns])
    assert not silent.naming_stated and silent.other_reading(2022) == 2021
    tables = [TableSource(1, income, calendar=silent)]
    q = parse("What were net sales in fiscal 2022?")
    res = resolve(q, tables, silent)
    assert res.confident and res.cells[0].value == 8630.9
    note = naming_note(q, tables, silent, res)
    assert note.startswith("Read as the filing's fiscal 2022; the filing does not say how it names its years.")
    assert "means the year ended January 29, 2022 (the filing's fiscal 2021) instead: 6,152 million" in note
    assert note.endswith("[1].")
    # a filing that names its years: its naming is used, and said; the other reading is still given
    stated = read_calendar(["Net sales for fiscal 2022 (52 weeks ended January 28, 2023) rose."],
                           [(c, "") for c in columns])
    assert stated.naming_stated
    by_filer = [TableSource(1, income, calendar=stated)]
    res = resolve(q, by_filer, stated)
    assert res.cells[0].value == 8630.9
    note = naming_note(q, by_filer, stated, res)
    assert note.startswith("Fiscal 2022 as the filing names its years (fiscal 2022 = ")
    assert "means the year ended January 29, 2022 (the filing's fiscal 2021) instead: 6,152 million" in note


def test_a_computation_over_years_two_namings_could_mean_gives_the_other_readings_result() -> None:
    from asking import resolve

    from engine.ask.cells import TableSource
    from engine.ask.compose import naming_note
    from engine.ask.computations import compute
    from engine.periods import read_calendar

    columns = ["Fiscal Year Ended January 28, 2023", "January 29, 2022", "January 30, 2021"]
    income = {"title": "Consolidated Statements of Earnings", "units": "$ in millions", "scale": 1e6,
              "columns": columns, "rows": [
                  {"label": "Revenue", "values": ["46,298", "51,761", "47,262"], "numbers": [46298, 51761, 47262]},
                  {"label": "Gross profit", "values": ["9,912", "11,640", "10,573"], "numbers": [9912, 11640, 10573]}]}
    cal = read_calendar(["FISCAL 2023 FORM 10-K. For the fiscal year ended January 28, 2023."],
                        [(c, "") for c in columns])
    tables = [TableSource(1, income, calendar=cal)]
    q = parse("What is the change in gross margin from FY2021 to FY2022?")
    res = resolve(q, tables, cal)
    comp = compute(q, tables, cal, res)
    assert comp is not None and round(comp.result, 2) == 0.12  # the filer's fiscal 2022 and 2021
    note = naming_note(q, tables, cal, res, comp)
    assert ("If \u201cfiscal 2022\u201d and \u201cfiscal 2021\u201d mean the filing's fiscal 2023 and 2022 "
            "instead:") in note
    assert "change = -1.08 percentage points" in note
    # a December year end has one naming: no note
    dec = read_calendar(["For the fiscal year ended December 31, 2022."], [("2022", ""), ("2021", "")])
    assert naming_note(q, tables, dec, res, comp) == ""


def test_wordings_of_the_same_question_parse_the_same() -> None:
    # a yes/no question may open with a phrase set off by a comma
    for text in ("As of FY2022, is the operating margin improving?", "Between FY20 and FY21, did PP&E grow?",
                 "Historically, have gross margins been consistent?"):
        assert parse(text).yes_no, text
    assert not parse("In FY2022, what was revenue?").yes_no
    # "which of A, B and C ... the most" lists what "among A, B and C, which ... the most" lists
    among = parse("Among operations, investing and financing activities, which brought in the most cash in FY2023?")
    which = parse("In FY2023, which of operations, investing and financing activities brought in the most cash?")
    assert among.ranking is not None and which.ranking is not None
    assert which.ranking.names[:2] == among.ranking.names[:2] and which.ranking.highest
    # the owner named before the list is every item's ("which of Amazon's operating, investing or financing
    # activities"); a name holding an owner's mark stays whole
    owned = parse("In Q1 2023, which of Amazon's operating, investing or financing activities brought in the most "
                  "cash?").ranking
    assert owned is not None and owned.names == ("operating", "investing", "financing")
    plural = parse("For FY2023, which of Goldman Sachs' operating, investing or financing activities generated the "
                   "most cash?").ranking
    assert plural is not None and plural.names == ("operating", "investing", "financing")
    club = parse("Among Sam's Club, Walmart International and Walmart Stores, which had the highest sales in "
                 "2022?").ranking
    assert club is not None and club.names[0] == "Sam's Club"
    # an N-year average said as "averaged over the N years"
    assert parse("What is capex as a % of revenue, averaged over the 3 years FY2017 - FY2019?").averaged == (
        2017, 2018, 2019)
    # a definition followed by the question it serves
    q = parse("With DPO defined as 365 * (average accounts payable between FY2016 and FY2017) / (FY2017 COGS), what "
              "was the DPO for FY2017?")
    assert q.formula is not None and q.formula[0].endswith("/ (FY2017 COGS)")


def test_a_change_said_the_wrong_way_round_or_another_pick_is_folded() -> None:
    from asking import resolve
    from test_formulas import table

    from engine.ask.cells import TableSource
    from engine.ask.compose import one_voice
    from engine.ask.decisions import Computation, Decision

    income = table("Consolidated Statements of Operations, Years Ended December 31", ["2022", "2021"],
                   {"Net sales": [34229.0, 35355.0], "Operating income": [6539.0, 7369.0]})
    tables = [TableSource(1, income)]
    q = parse("How much did the operating margin change from FY2021 to FY2022?")
    res = resolve(q, tables)
    change = Computation("change", -1.74, "FY2021: 20.84%; FY2022: 19.10%; change = -1.74 percentage points", [],
                         steps=[20.84, 19.10], ends=(20.84, 19.10))
    said = "It fell by 1.74 percentage points, from 19.1% to 20.8% [1]."
    voiced = one_voice(said, q, None, change, res, None, stated=True)
    assert voiced.folded and "from 19.1% to 20.8%" in voiced.folded[0]
    assert one_voice("It fell from 20.8% to 19.1% [1].", q, None, change, res, None, stated=True).folded == []
    # a sentence pointing back at a folded one goes with it, unless it only reads the code's own direction
    back = one_voice("It went from 19.1% to 20.8% [1]. This indicates a decline in the margin.", q, None, change,
                     res, None, stated=True)
    assert back.text == "This indicates a decline in the margin." and len(back.folded) == 1
    kept = one_voice("It went from 19.1% to 20.8% [1]. This shows the margin was reduced without harming sales.",
                     q, None, change, res, None, stated=True)
    assert kept.text == "This shows the margin was reduced without harming sales."
    for leaning in ("This indicates an improving margin.", "This shows a decline to 18.5% [1].",
                    "This means the margin did not decline.", "This indicates it was unchanged."):
        assert len(one_voice(f"It went from 19.1% to 20.8% [1]. {leaning}", q, None, change, res, None,
                             stated=True).folded) == 2, leaning
    # a ranking: a sentence that picks another listed item
    ranked = parse("Among operations, investing and financing activities, which brought in the most cash in FY2023?")
    pick = Decision("ranking", "Operations: 1,824 million, the highest of the 3.", choice="operations",
                    figures=(1824e6, -962e6, -1806e6))
    wrong = one_voice("Investing activities brought in the most cash, -$962 million [1].", ranked, pick, None,
                      resolve(ranked, tables), None, stated=False)
    assert wrong.folded and "picks investing" in wrong.folded[0]
    right = one_voice("Operations brought in the most cash [1].", ranked, pick, None, resolve(ranked, tables), None,
                      stated=False)
    assert right.folded == []
    # an outflow the code found told as cash brought in; told as used, or written negative, it stays
    flipped = one_voice("Operations brought in the most cash [1]. Investing activities provided $962 million [1].",
                        ranked, pick, None, resolve(ranked, tables), None, stated=False)
    assert flipped.text == "Operations brought in the most cash [1]." and "the code found it negative" in \
        flipped.folded[0], flipped
    for kept in ("Investing activities used $962 million [1].", "Investing activities provided -$962 million [1].",
                 "Net cash provided by (used in) investing activities was $962 million [1]."):
        assert one_voice(kept, ranked, pick, None, resolve(ranked, tables), None, stated=False).folded == [], kept
    # no item named: an amount called the largest that none of the ranked items is
    unranked = one_voice("The figure is $52 million, which is the largest amount among the three categories.", ranked,
                         pick, None, resolve(ranked, tables), None, stated=False)
    assert unranked.folded and "calls $52 million the largest" in unranked.folded[0]
    # ... or another ranked item's amount, where the ranking is by amount
    other = one_voice("The largest inflow in FY2023 was $962 million [1].", ranked, pick, None, resolve(ranked, tables),
                      None, stated=False)
    assert other.folded and "calls $962 million the largest; the code found operations" in other.folded[0]
    # a ranked (or listed) item given an amount the code stated for none of them
    among = Decision("section ranking", "Long-term lease liabilities: the highest of the 2 liabilities ...",
                     choice="Long-term lease liabilities", figures=(75822e6, 69481e6),
                     among=("Long-term lease liabilities", "Accounts payable"))
    said = one_voice("Long-term lease liabilities stood at $72,968 million.", ranked, among, None,
                     resolve(ranked, tables), None, stated=False)
    assert said.folded and "gives Long-term lease liabilities $72,968 million" in said.folded[0]
    assert one_voice("Long-term lease liabilities were $75,822 million [1].", ranked, among, None,
                     resolve(ranked, tables), None, stated=False).folded == []
    # another ranked item's amount given for the line asked, no item named
    largest = parse("Which asset line carried the largest balance on Acme's balance sheet at June 30, 2023?")
    assets = Decision("section ranking", "Marketable securities: the highest of the 3 assets ...",
                      choice="Marketable securities", figures=(10241e6, 5079e6, 4204e6),
                      among=("Marketable securities", "Cash and cash equivalents", "Other assets"))
    said = one_voice("The balance on this line was $4,204 million.", largest, assets, None, resolve(largest, tables),
                     None, stated=False)
    assert said.folded and "gives $4,204 million, another ranked item's amount" in said.folded[0]
    for kept in ("The balance on this line was $10,241 million [1].", "Other assets were $4,204 million [1].",
                 "Cash and cash equivalents came second at $5,079 million [1]."):
        assert one_voice(kept, largest, assets, None, resolve(largest, tables), None, stated=False).folded == [], kept
    for kept in ("The largest was $1,824 million [1].", "The highest inflow was $1.8 billion [1].",
                 "It was the largest of the three [1]."):
        assert one_voice(kept, ranked, pick, None, resolve(ranked, tables), None, stated=False).folded == [], kept


def test_a_term_of_the_computation_given_another_items_amount_is_folded() -> None:
    from engine.ask.compose import _term_given_another_value
    from engine.ask.decisions import Computation
    from engine.ask.formulas import Term

    turns = Computation("formula", 2.72, "31,089 / (avg(10,387, 12,483)) = 2.72",
                        [Term("cogs", "Cost of products sold", "2022", 31089.0, 2),
                         Term("inventory", "Total inventories", "2021", 10387.0, 3),
                         Term("inventory", "Total inventories", "2022", 12483.0, 3)], steps=[11435.0])
    why = _term_given_another_value("From the table: - Cost of Goods Sold (COGS) for 2022: $94,943 million - "
                                    "Average Inventory for 2022: $12,483 million", turns)
    assert why == "gives $94,943 million for Cost of Goods Sold; the code's is 31,089"
    # one year's balance given as the average the code worked out
    assert _term_given_another_value("From the table: - Average Inventory for 2022: $12,483 million", turns) == (
        "gives $12,483 million for the average, one year's balance; the code's average is 11,435")
    for kept in ("The average inventory was $11,435 million.", "Inventory at the end of 2022 was $12,483 million.",
                 "Average inventory: (10,387 + 12,483) / 2 = 11,435",
                 "1. Calculate the average inventory for 2021 and 2022: - 2021 inventory: $10,387 million"):
        assert _term_given_another_value(kept, turns) == "", kept
    for kept in ("Cost of goods sold for 2022 was $31,089 million [2].",  # the code's own
                 "Cost of goods sold was $29,855 million in 2021 and $31,089 million in 2022.",  # another year's
                 "Divide by the cost of sales of 2022: $94,943 / $31,089 = 3.05",  # the term is what divides
                 "Cost of sales rose 3.0% while net sales grew 1.3%.",  # a change, not an amount
                 "1. Identify the cost of goods sold. 2. Divide it by the average inventory.",  # a list's numbers
                 "Net sales were $94,943 million against cost of sales of $31,089 million."):  # each its own
        assert _term_given_another_value(kept, turns) == "", kept


def test_a_term_given_for_the_wrong_year_or_a_definition_of_the_models_own_is_folded() -> None:
    from asking import compute, resolve
    from test_formulas import table

    from engine.ask.cells import TableSource
    from engine.ask.compose import one_voice

    income = table("Consolidated Statements of Earnings, Fiscal Years Ended", ["2023", "2022"], {
        "Net revenues": [52000.0, 48000.0], "Cost of sales": [31000.0, 27500.0], "Gross profit": [21000.0, 20500.0]})
    balance = table("Consolidated Balance Sheets", ["2023", "2022"], {"Merchandise inventories": [8000.0, 7000.0]})
    tables = [TableSource(1, income), TableSource(2, balance)]
    # a change in gross margin: its rows for the two years are the code's; "from the newer to the newer" is not
    q = parse("By how much did the gross margin change between fiscal 2022 and fiscal 2023?")
    change = compute(q, tables)
    assert change is not None and change.kind == "change"
    res = resolve(q, tables)
    wrong = one_voice("Gross profit went from $21,000 million in fiscal 2022 to $21,000 million in fiscal 2023 [1].",
                      q, None, change, res, None, stated=True)
    assert wrong.folded and "20,500 -> 21,000" in wrong.folded[0]
    right = one_voice("Gross profit rose from $20,500 million to $21,000 million [1].", q, None, change, res, None,
                      stated=True)
    assert right.folded == []
    # one year's figure of a row given as the other year's
    swapped = one_voice("Gross profit was $21,000 million in fiscal 2022 [1].", q, None, change, res, None,
                        stated=True)
    assert swapped.folded and "the code's gross profit for fiscal 2022 is 20,500" in swapped.folded[0]
    for kept in ("Gross profit was $20,500 million in fiscal 2022 [1].",
                 "Gross profit rose to $21,000 million in fiscal 2023 [1]."):
        assert one_voice(kept, q, None, change, res, None, stated=True).folded == [], kept
    # a metric the code computed: the model's own definition of it is not the answer's
    turnover = parse("Calculate the inventory turnover ratio for fiscal 2023.")
    computed = compute(turnover, tables)
    assert computed is not None and computed.kind == "formula"
    res = resolve(turnover, tables)
    own = one_voice("Inventory turnover ratio = Merchandise inventories / Net revenues [1].", turnover, None,
                    computed, res, None, stated=False)
    assert own.folded and "Net revenues" in own.folded[0]
    same = one_voice("Inventory turnover = cost of sales / average merchandise inventories [1].", turnover, None,
                     computed, res, None, stated=False)
    assert same.folded == []
    said = one_voice("The inventory turnover is calculated as Merchandise inventories / Net revenues [1].", turnover,
                     None, computed, res, None, stated=False)
    assert said.folded and "Net revenues" in said.folded[0]
    assert one_voice("Inventory turnover is computed as cost of sales divided by the average of merchandise "
                     "inventories [1].", turnover, None, computed, res, None, stated=False).folded == []
    # the code's arithmetic written out in figures is no definition of the model's own
    written = f"Inventory turnover = $31,000 million / $7,500 million = {computed.result:.2f} [1]."
    assert one_voice(written, turnover, None, computed, res, None, stated=False).folded == []


def test_a_sum_the_model_writes_out_with_an_amount_that_is_none_of_the_codes_is_folded() -> None:
    from asking import compute, resolve
    from test_formulas import table

    from engine.ask.cells import TableSource
    from engine.ask.compose import one_voice

    income = table("Consolidated Statements of Operations, Years Ended December 31", ["2022", "2021"], {
        "Net sales": [1234.0, 1100.0], "Operating income": [1196.0, 100.0],
        "Depreciation and amortization": [636.0, 600.0]})
    tables = [TableSource(1, income)]
    ebitda = parse("What is the FY2022 EBITDA?")
    comp = compute(ebitda, tables)
    assert comp is not None and comp.result == 1832.0
    res = resolve(ebitda, tables)
    right = "EBITDA is operating income plus D&A: $1,196 million + $636 million = $1,832 million [1]."
    assert one_voice(right, ebitda, None, comp, res, None, stated=True).folded == []
    wrong = one_voice("EBITDA is operating income plus D&A: $1,196 million + $600 million = $1,796 million [1].",
                      ebitda, None, comp, res, None, stated=True)
    assert wrong.folded and "$600 million" in wrong.folded[0]


def test_a_share_asked_for_with_words_after_its_whole_is_a_metric_a_verdict_can_follow() -> None:
    from asking import decided
    from test_formulas import table

    from engine.ask.cells import TableSource
    from engine.ask.verdicts import ConsistencyVerdict

    income = table("Consolidated Statements of Earnings, Fiscal Years Ended", ["2023", "2022", "2021"], {
        "Revenue": [50000.0, 52000.0, 48000.0], "Gross profit": [11000.0, 11700.0, 10500.0]})
    tables = [TableSource(1, income)]
    for wording in (
        "Is Lumen's gross profit as a percentage of revenue historically consistent (not fluctuating more than "
        "roughly 2% each year)?",
        "Has gross profit as a share of revenue been consistent over the years, within about 2% a year?",
        "Historically, have gross margins been consistent, that is, not moving more than roughly 2% a year?",
    ):
        said = decided(ConsistencyVerdict(), wording, tables)
        assert said.startswith("Yes.") and "FY2023: 11,000 / 50,000 * 100 = 22.00%" in said, (wording, said)
    # the whole is the item at the head of the words after "of", whatever follows it
    assert parse("What was SG&A as a share of net sales in 2022?").formula == ("SG&A / net sales * 100", "2022")
    formula = parse("R&D as a % of revenue excluding one-offs, FY2021?").formula
    assert formula is not None and (formula[0].lower(), formula[1]) == ("r&d / revenue * 100", "2021")


def test_a_metric_compared_between_two_quarters_is_decided_on_the_metric_not_one_of_its_items() -> None:
    from asking import compute, decided
    from test_formulas import table

    from engine.ask.cells import TableSource
    from engine.ask.verdicts import ChangeVerdict, TrendVerdict

    quarter = table("Condensed Consolidated Statement of Earnings (in Millions) SECOND QUARTER",
                    ["2023 Amount", "2022 Amount"], {"Sales to customers": [25530.0, 24020.0],
                                                     "Net earnings": [5144.0, 5200.0]})
    tables = [TableSource(1, quarter)]
    for wording in ("Did net earnings as a percent of sales increase in Q2 of FY2023 compared to Q2 of FY2022?",
                    "Compared with the second quarter of fiscal 2022, did net earnings as a % of sales rise in the "
                    "second quarter of fiscal 2023?"):
        comp = compute(wording, tables)
        assert comp is not None and comp.kind == "change" and comp.text.startswith("Q2 FY2022: "), wording
        # net earnings rose, but not as fast as sales: the metric fell, so the answer is No
        assert not ChangeVerdict().applies(parse(wording))
        said = decided(TrendVerdict(), wording, tables, computation=comp)
        assert said.startswith("No. It went from 21.65 to 20.15"), (wording, said)


def test_a_trend_over_a_span_of_years_is_decided_on_every_year_of_it() -> None:
    """"Has the operating margin been improving over 2021-2023?": the margin of each year of the span, each step;
    a rise over the last year after a fall is no improving profile. Asked of one year, the year before."""
    from asking import compute, decided
    from test_formulas import table

    from engine.ask.cells import TableSource
    from engine.ask.verdicts import TrendVerdict

    income = table("Consolidated Statements of Income (in millions)", ["2023", "2022", "2021"],
                   {"Revenues": [307394.0, 282836.0, 257637.0], "Income from operations": [84293.0, 74842.0, 78714.0]})
    tables = [TableSource(1, income)]
    span = "Has the operating margin been improving over 2021-2023?"
    said = decided(TrendVerdict(), span, tables, computation=compute(span, tables))
    assert said.startswith("No. It went from 30.55 for fiscal 2021 to 26.46 for fiscal 2022 to 27.42 for fiscal "
                           "2023"), said
    one = "Is the operating margin improving as of FY2023?"
    said = decided(TrendVerdict(), one, tables, computation=compute(one, tables))
    assert said.startswith("Yes. It went from 26.46 for fiscal 2022 to 27.42 for fiscal 2023"), said


@pytest.mark.parametrize(("text", "reading"), [
    ("Capex in FY 2022-23?", "value · capex · fiscal 2023"),
    ("What was revenue in 4Q22?", "value · revenue · Q4 of fiscal 2022"),
    ("What were total assets as of December 31, 2022?", "value · total assets · balance at December 31, 2022"),
    ("How much did the operating margin change from FY2021 to FY2022?",
     "change · operating margin · fiscal 2021 and 2022"),
    ("What was the operating margin for the first half of 2023?",
     "ratio · operating margin · six months of fiscal 2023"),
    ("Who are the company's largest customers?", ""),
])
def test_how_a_question_was_read_is_one_line_a_reader_can_check(text: str, reading: str) -> None:
    assert parse(text).reading() == reading


def test_the_reading_names_the_companies_of_the_library_the_question_names() -> None:
    assert parse("What was Acme's revenue in fiscal 2022?", _filings()).reading() == (
        "value · revenue · fiscal 2022 · Acme")


def test_a_sum_that_does_not_hold_and_a_ranking_pick_after_the_list_are_folded() -> None:
    from asking import resolve
    from test_formulas import table

    from engine.ask.cells import TableSource
    from engine.ask.compose import _arithmetic, one_voice
    from engine.ask.decisions import Decision

    assert _arithmetic("The FCF is $3,215.40 - $460.80 = $3,215.40 million.").endswith("does not hold (2,754.6)")
    for holds in ("FCF is $3,676.2 - $460.8 = $3,215.4 million.", "$1.2 billion + $300 million = $1.5 billion",
                  "Average = ($25,309 + $34,616) / 2 = $30,008 million", "It fell 20.84% - 19.10% = 1.74%"):
        assert _arithmetic(holds) == "", holds
    # a division written out: the model's pooled ratio under the code's average of yearly ratios
    assert _arithmetic("The 3 year average is (495 / 21,523) * 100 = 1.91%.").endswith("does not hold (2.3)")
    assert _arithmetic("The ratio is 2,000 / 4,000 = 0.6").endswith("does not hold (0.5)")
    for holds in ("FY2017: 155 / 7,017 * 100 = 2.21%", "$94,943 million / $12,483 million = 7.6",
                  "$2.5 billion / $10,000 million = 25%", "Days: 365 / 7.6 = 48 days",
                  "Average = (25,309 + 34,616)/2 = 29,963"):
        assert _arithmetic(holds) == "", holds
    # a change in percent given with its two ends: the ends decide it, at the precision they are written
    assert _arithmetic("Revenue increased by 278.7%, from $10,323 million to $14,514 million.").endswith(
        "278.7% is not the change from $10,323 million to $14,514 million (+40.6%)")
    assert _arithmetic("Inventories rose from $5.433 billion in June 2022 to $7.482 billion in April 2023, a 35.3% "
                       "increase.").startswith("35.3% is not")
    for holds in ("Net sales increased by 12.6%, from 127,101 million to 143,083 million.",
                  "Revenue grew from $5.4 billion to $7.4 billion, up 37%.",  # 5.45 -> 7.35 is +34.9%: fits
                  "Gross margin rose from 40.1% to 43.3%, a 3.2% increase.",  # points
                  "Gross margin rose from 40.1% to 43.3%, while revenue grew 5%.",  # another clause's percent
                  "Sales went from 100 to 120, up 20% and 15% above plan.",  # two percents: which is which is unsaid
                  "From 2021 to 2022 revenue grew 7%.",  # years are no ends
                  "Gross margin rose 1.0 percentage point, from 43.26% to 44.26%.",
                  "Gross margin rose 120 basis points, from 43.3% to 44.5%."):
        assert _arithmetic(holds) == "", holds
    # an amount of the code written as a percent: the tax expense as "a rate of 2,306%" under a computed 18.92%
    from engine.ask.cells import Resolution as _Res
    from engine.ask.compose import _percent_of_an_amount
    from engine.ask.decisions import Computation
    from engine.ask.formulas import Term
    rate = Computation("formula", 18.92, "2,306 / 12,189 * 100 = 18.92%", [
        Term("income tax expense", "Provision for income taxes", "2023", 2306.0, 1),
        Term("pretax income", "Income before income taxes", "2023", 12189.0, 1)])
    none = _Res(asked=parse("What is the effective tax rate?").asked, cells=[], measures=[], confident=False)
    assert _percent_of_an_amount("The notes indicate a different effective tax rate of 2,306%.", rate, none,
                                 False).startswith("2,306% is the code's amount 2,306")
    for holds in ("The effective tax rate is 18.92%.", "Taxes rose 150% on the year."):
        assert _percent_of_an_amount(holds, rate, none, False) == "", holds
    # a change in points: the difference of two percents, never of two amounts
    assert _arithmetic("It saw a 1.26 percentage point increase in gross margin from 43.26% to 44.26%.").endswith(
        "1.26 percentage point is not the change from 43.26% to 44.26% (+1.00 points)")
    assert _arithmetic("It saw a 1.26 percentage point increase in gross margin from $21,213 to $22,998.").endswith(
        "which are not percents")
    income = table("Consolidated Statements of Cash Flows", ["2023"], {"Net sales": [100.0]})
    ranked = parse("Among operations, investing and financing activities, which brought in the most cash in FY2023?")
    pick = Decision("ranking", "Operations: 1,824 million, the highest of the 3.", choice="operations",
                    figures=(1824e6, -962e6, -1806e6))
    res = resolve(ranked, [TableSource(1, income)])
    listed = one_voice("Among operations, investing, and financing activities, investing activities brought in the "
                       "most cash flow [1].", ranked, pick, None, res, None, stated=False)
    assert listed.folded and "picks investing" in listed.folded[0]
    after = one_voice("The most cash came from operations [1].", ranked, pick, None, res, None, stated=False)
    assert after.folded == []
    # the sentence that points back at a folded pick stands on it, and goes with it
    remnant = one_voice("The most cash flow for Nike in FY2023 was from other investing activities, which resulted in "
                        "a gain of $52 million. This can be seen in the table under \"Other investing activities\", "
                        "which shows a positive amount of $52 million [2].", ranked, pick, None, res, None,
                        stated=False)
    assert remnant.text == "" and len(remnant.folded) == 2 and "continues the sentence before" in remnant.folded[1]
    kept = one_voice("The most cash came from operations [1]. This reflects higher net income.", ranked, pick, None,
                     res, None, stated=False)
    assert kept.folded == [] and "This reflects" in kept.text


def test_a_line_item_set_against_another_reads_as_the_sign_of_their_difference() -> None:
    from engine.ask.question import set_against

    assert set_against("Do Acme's current assets exceed its current liabilities in FY2022?") == (
        "current assets - current liabilities", "positive")
    assert set_against("Was operating income less than the interest expense in 2021?") == (
        "operating income - interest expense", "negative")
    q = parse("Did the company's total current liabilities surpass total current assets at year end 2022?")
    assert q.sign == "positive" and q.formula is not None and q.formula[1] == "2022"
    # an amount is a threshold, not a line item; the same item on both sides is no comparison
    assert set_against("Did net sales exceed $10 billion in FY2022?") is None
    assert parse("Did net sales exceed $10 billion in FY2022?").sign == ""
    assert set_against("Did revenue exceed revenue?") is None


def test_a_ratio_name_inside_a_line_item_name_is_that_line() -> None:
    # "working capital" is current assets less current liabilities; "changes in working capital" is a cash flow line
    assert parse("Does Acme have positive working capital at the end of FY2022?").ratio == (
        "working capital", "total current assets - total current liabilities")
    q = parse("What were the changes in working capital for the Financial Services segment in 2019?")
    assert q.ratio is None and q.formula is None and [m.name for m in q.measures] == ["changes in working capital"]


def test_a_ranking_of_parts_the_question_does_not_list_names_their_kind() -> None:
    r = parse("For Pfizer, which geographic region had the biggest drop in Q22023 year over year revenues?").ranking
    assert r is not None and r.names == () and r.breakdown == "region" and r.by_change and not r.highest
    r = parse("Which of its segments grew the fastest in fiscal 2023?").ranking
    assert r is not None and r.breakdown == "segment" and r.by_change and r.highest
    r = parse("Which product category had the smallest decline in net sales?").ranking
    assert r is not None and r.breakdown == "category" and r.highest
    # a market platform is a platform (NVIDIA's "specialized markets"), a market alone a place
    r = parse("Which market platform lost the most revenue versus a year earlier?").ranking
    assert r is not None and r.breakdown == "platform" and r.by_change and not r.highest
    assert parse("Which market had the biggest drop in revenue?").ranking.breakdown == "region"  # type: ignore[union-attr]
    r = parse("Which region had the lowest revenue in 2022?").ranking
    assert r is not None and not r.by_change and not r.highest
    # a list named keeps its own ranking; a kind the vocabulary does not know is none
    assert parse("Among operations, investing, and financing activities, which brought in the most cash flow in "
                 "FY2023?").ranking.names == ("operations", "investing", "financing activities")  # type: ignore[union-attr]
    assert parse("Which company had the highest revenue in 2022?").ranking is None


def test_a_change_in_a_state_is_the_series_question_not_a_judgement_of_it() -> None:
    # "healthy liquidity" judges a state; "notable changes in the liquidity position" asks the cash series (and,
    # "or cash flows", the three cash flows')
    changed = parse("Are there any notable changes in Acme's liquidity position or cash flows in these 10-Qs?")
    assert changed.judgement == "" and [m.name for m in changed.measures][0] == "cash and cash equivalents"
    assert parse("Does Acme have a healthy liquidity profile based on its FY22 balance sheet?").judgement == (
        "healthy liquidity")
    # a qualifier belongs to the naming phrase next to it ("cash flows"), not to another one of the same item
    assert parse("What was cash used in investing activities in 2022?").measures[0].name == "cash from investing"
    assert parse("How much did Acme spend on sales and marketing in 2023?").measures == ()


def test_a_conditional_second_question_is_a_part_of_its_own() -> None:
    q = parse("Has there been any significant change in Acme's operating expenses over the reported quarters? If so, "
              "what are the key drivers for this change?")
    assert [p.intent.value for p in q.parts] == ["yes_no", "prose"] and q.parts[1].narrative == "drivers"
    assert [m.name for m in q.parts[1].measures] == ["operating expenses"]  # "this change": the first part's
    assert "expens" in " ".join(q.parts[1].stems) or "expense" in q.parts[1].stems
    # "factors contributing to the change" asks why, not how much
    assert parse("What are the major factors contributing to the change in Acme's gross margin?").why
    assert not parse("How much did the Automotive segment contribute to the group's gross profit in 2020?").why


def test_the_impact_of_one_thing_on_another_is_told_with_its_reasons() -> None:
    assert parse("What is the impact of foreign exchange rates on Acme's financial performance? List this out "
                 "separately for each reported period.").narrative == "drivers"
    assert parse("What was the impact of currency translation on foreign operations in 2021?").narrative == "drivers"
    assert parse("What was the net sales impact in 2021?").narrative == ""


def test_filers_names_for_research_and_development_are_its_rows() -> None:
    from engine.ask.cells import row_fit

    rd = parse("How does Acme's R&D expenditure in the most recent quarter compare to previous quarters?").measures[0]
    assert rd.name == "r&d"
    assert row_fit(rd, "Technology and infrastructure", set()) >= 2.0
    assert row_fit(rd, "Research and development", set()) >= 2.0


def test_inventory_turns_is_inventory_turnover() -> None:
    turns = parse("Calculate the inventory turns for FY2022.").formula
    assert turns == parse("Calculate the inventory turnover ratio for FY2022.").formula and turns is not None


def test_a_model_sentence_picking_another_part_of_a_breakdown_is_folded() -> None:
    from asking import resolve

    from engine.ask.compose import one_voice
    from engine.ask.decisions import Decision

    q = parse("Which geographic region had the biggest drop in Q2 2023 revenues?")
    picked = Decision("breakdown ranking", "Developed Rest of World: the largest drop ...",
                      choice="Developed Rest of World",
                      among=("Developed Rest of World", "Developed Europe", "Emerging Markets", "United States"))
    res = resolve(q, [])
    said = one_voice("Emerging Markets had the biggest drop in revenues [2]. Sales fell everywhere [2].", q, picked,
                     None, res, None, stated=True)
    assert said.text == "Sales fell everywhere [2]." and "picks Emerging Markets" in said.folded[0]
    assert one_voice("Developed Rest of World saw the largest decline [2].", q, picked, None, res, None,
                     stated=True).folded == []
    # any word that picks one of several: "best-selling", "the worst", "fastest"
    best = parse("Which product category performed the best in the domestic market during Q2 of FY2024?")
    top = Decision("breakdown ranking", "Entertainment: the largest rise ...", choice="Entertainment",
                   among=("Computing and Mobile Phones", "Appliances", "Entertainment", "Services"))
    said = one_voice("The best-selling product category was Computing and Mobile Phones, with a comparable sales "
                     "decline of 6.4%.", best, top, None, res, None, stated=True)
    assert said.text == "" and "picks Computing and Mobile Phones; the code found Entertainment" in said.folded[0]
    # a part of another breakdown named with its kind: not one of the parts ranked
    lost = parse("Which market platform lost the most revenue in dollar terms versus a year earlier?")
    gaming = Decision("breakdown ranking", "Gaming: the largest drop ...", choice="Gaming",
                      among=("Data Center", "Gaming", "Professional Visualization", "OEM and Other"))
    said = one_voice("The Compute & Networking segment lost the most revenue in dollar terms. Each segment lost the "
                     "most in Q3. The Gaming platform lost the most.", lost, gaming, None, res, None, stated=True)
    assert len(said.folded) == 1 and "picks Compute & Networking, which is not one of the parts" in said.folded[0]
    assert said.text == "Each segment lost the most in Q3. The Gaming platform lost the most."
    # "&" for "and" names the same part
    assert one_voice("The OEM & Other platform lost the least.", lost, gaming, None, res, None,
                     stated=True).folded == []


def test_a_table_of_percents_of_revenue_states_no_amount() -> None:
    """A common-size table ("... expressed as a percentage of revenue") prints % on its 100.0 row only: none of
    its figures is an amount of a line item, and "Sales, general and administrative" is no revenue."""
    from asking import resolve

    from engine.ask.cells import TableSource

    table = {"title": "Results of Operations", "columns": ["Three Months Ended October 30, 2022"], "rows": [
        {"label": "Revenue", "values": ["100.0%"], "numbers": [100.0]},
        {"label": "Sales, general and administrative", "values": ["10.6"], "numbers": [10.6]},
        {"label": "Income from operations", "values": ["10.2"], "numbers": [10.2]}]}
    head = "The following table sets forth items of our statements of income expressed as a percentage of revenue."
    q = parse("What was revenue in the quarter ended October 30, 2022?")
    assert resolve(q, [TableSource(1, table, heading=head)]).cells == []
    assert resolve(parse("What was operating income in the quarter ended October 30, 2022?"),
                   [TableSource(1, table, heading=head)]).cells == []
    # the same figures without such a heading are amounts (a table in millions)
    amounts = resolve(parse("What was operating income in the quarter ended October 30, 2022?"),
                      [TableSource(1, table, heading="(In millions)")])
    assert [c.value for c in amounts.cells] == [10.2]
    assert TableSource(1, table, heading=head).common_size and not TableSource(1, table).common_size


def _voiced_over(table: dict, question: str):  # type: ignore[no-untyped-def]
    """One voice over the cells ``table`` states for ``question``, as a function of the model's text."""
    from asking import resolve

    from engine.ask.cells import TableSource
    from engine.ask.compose import one_voice

    q = parse(question)
    res = resolve(q, [TableSource(1, table)])
    return lambda text: one_voice(text, q, None, None, res, None, stated=True)


def test_a_figure_in_another_scale_than_the_one_asked_is_folded() -> None:
    cash = {"title": "Consolidated Statement of Cash Flows", "units": "(in millions)", "scale": 1e6,
            "columns": ["2021", "2020"],
            "rows": [{"label": "Capital spending", "values": ["(4,625)", "(4,240)"], "numbers": [-4625.0, -4240.0]}]}
    voiced = _voiced_over(cash, "What is the FY2021 capital expenditure amount (in USD billions) for PepsiCo?")
    wrong = voiced("The FY2021 capital expenditure amount (in USD billions) for PepsiCo is -4,625. [1]")
    assert wrong.text == "" and "in millions, not in the billions the question asks" in wrong.folded[0]
    assert voiced("PepsiCo's FY2021 capital expenditure was $4.6 billion [1].").folded == []


def test_a_stated_cell_written_a_thousand_times_off_is_folded() -> None:
    income = {"title": "Condensed Consolidated Statements of Income", "units": "(In millions)", "scale": 1e6,
              "columns": ["Three Months Ended October 29, 2023", "Three Months Ended October 30, 2022"],
              "rows": [{"label": "Research and development", "values": ["2,294", "1,945"],
                        "numbers": [2294.0, 1945.0]}]}
    voiced = _voiced_over(income, "How much did Acme spend on research and development in the quarter ended "
                                  "October 29, 2023?")
    wrong = voiced("Research and development rose to $2.294 million [1].")
    assert wrong.text == "" and "in another scale" in wrong.folded[0]
    for right in ("Research and development rose to $2.294 billion [1].", "It was 2,294 million [1].",
                  "Acme also paid $1 million in fees [1]."):
        assert voiced(right).folded == [], right


@pytest.mark.parametrize(("text", "direction"), [
    ("Did Acme's gross margin deteriorate in FY2023?", "down"),
    ("Has revenue risen since FY2021?", "up"),
    ("Was the drop in operating income larger than 10%?", "down"),
    ("What was the gain on sale of investments in FY2022?", ""),  # a line item's name, no direction
])
def test_direction_words_are_the_vocabularys(text: str, direction: str) -> None:
    assert parse(text).direction == direction


def test_the_model_and_the_question_read_directions_with_the_same_words() -> None:
    from engine.ask.compose import _direction_of

    for word, way in [("deteriorated", "down"), ("risen", "up"), ("shrank", "down"), ("gained", "up")]:
        assert _direction_of(f"Gross margin {word} in FY2023 [1].") == way
        assert parse(f"Has gross margin {word} in FY2023?").direction == way
    ranked = parse("Which segment gained the most in FY2023?").ranking
    assert ranked is not None and ranked.by_change and ranked.highest


def test_a_metrics_terms_name_the_statements_to_search() -> None:
    # "R&D to asset ratio" is R&D / total assets: the balance sheet holds the second term, though the question's
    # words name only an income statement line
    q = parse("what is R&D to asset ratio for Activision Blizzard in FY 2019?")
    assert q.formula is not None and "income" in q.statements and "balance" in q.statements
    assert parse("What was Acme's revenue in FY2022?").statements == ("income",)


def test_a_sentence_giving_the_other_sign_contradicts_the_code() -> None:
    """"Does Acme have positive working capital?" decided Yes: the model's "a negative working capital position" is
    folded as contradicting it; "positive working capital", or a negative word of something else, is kept."""
    from asking import resolve

    from engine.ask.compose import one_voice
    from engine.ask.decisions import Decision

    q = parse("Does Acme have positive working capital based on FY2022 data?")
    yes = Decision("sign", "Yes. Working capital (December 31, 2022) $2,278: positive.", verdict=True,
                   figures=(2278.0,))
    res = resolve(q, [])
    said = one_voice("Working capital fell from $2,853 to $2,278. This indicates a negative working capital "
                     "position.", q, yes, None, res, None, stated=False)
    assert any("says negative working ...; the code decided Yes" in f for f in said.folded), said.folded
    kept = one_voice("Despite negative currency effects, Acme kept positive working capital [2].", q, yes, None, res,
                     None, stated=False)
    assert not any("says negative" in f for f in kept.folded), kept.folded


def test_a_sentence_denying_the_asked_direction_contradicts_a_yes() -> None:
    from asking import resolve

    from engine.ask.compose import one_voice
    from engine.ask.decisions import Decision

    q = parse("Does Adobe have an improving Free cashflow conversion as of FY2022?")
    yes = Decision("trend", "Yes. It went from 142.72 for fiscal 2021 to 155.51 for fiscal 2022.", verdict=True,
                   figures=(142.72, 155.51))
    res = resolve(q, [])
    said = one_voice("The Free cashflow conversion for Adobe as of FY2022 is 155.51%, which is not improving.", q, yes,
                     None, res, None, stated=False)
    assert said.text == "" and "says it did not go up; the code decided Yes" in said.folded[0]
    kept = one_voice("It improved, and not only in the US [1].", q, yes, None, res, None, stated=False)
    assert kept.folded == []
    no = Decision("trend", "No. It went from 155.51 to 142.72.", verdict=False, figures=(155.51, 142.72))
    assert one_voice("It is not improving [1].", q, no, None, res, None, stated=False).folded == []


def test_a_sentence_saying_the_other_side_of_a_judgement_is_folded() -> None:
    from asking import resolve

    from engine.ask.compose import one_voice
    from engine.ask.decisions import Decision

    q = parse("Is 3M a capital-intensive business based on FY2022 data?")
    no = Decision("judgement", "No, by 2 standard ratios: ...", verdict=False, figures=(5.11, 19.76))
    res = resolve(q, [])
    said = one_voice("3M's total assets were $46,455 million [1]. This indicates that 3M is a capital-intensive "
                     "business, as it has more assets than liabilities.", q, no, None, res, None, stated=False)
    assert said.text == "3M's total assets were $46,455 million [1]."
    assert "says it is capital intensive; the code decided No" in said.folded[0]
    # a sentence about such businesses in general, or one that agrees, stays
    general = ("A capital-intensive business needs large investments in plant [2]. 3M isn't capital intensive. Its "
               "capex was not large enough to qualify it as a capital-intensive business.")
    assert one_voice(general, q, no, None, res, None, stated=False).folded == []
    yes = Decision("judgement", "Yes, by 2 standard ratios: ...", verdict=True, figures=(1.8, 1.4))
    liquid = parse("Does AMD have a healthy liquidity profile based on FY22?")
    weak = one_voice("AMD's liquidity position is weak [3].", liquid, yes, None, res, None, stated=False)
    assert "says it is not healthy liquidity" in weak.folded[0]
    assert one_voice("The current ratio of 2.36 indicates strong liquidity [3].", liquid, yes, None, res, None,
                     stated=False).folded == []


def test_another_start_of_the_code_s_change_or_an_answer_of_the_model_s_own_is_folded() -> None:
    from asking import resolve

    from engine.ask.compose import one_voice
    from engine.ask.decisions import Computation, Decision

    q = parse("Does Adobe have an improving Free cashflow conversion as of FY2022?")
    yes = Decision("trend", "Yes. It went from 142.72 for fiscal 2021 to 155.51 for fiscal 2022.", verdict=True,
                   figures=(142.72, 155.51), ends=(142.72, 155.51))
    res = resolve(q, [])
    said = one_voice("It is 155.51%, an improvement over the previous year's conversion of 150.00%.", q, yes, None,
                     res, None, stated=False)
    assert said.text == "" and "gives 150.00% for the period before; the code found 142.72 -> 155.51" in said.folded[0]
    assert one_voice("It went from 150.0% to 155.51%.", q, yes, None, res, None, stated=False).folded
    # the code's own start, or the change, is no other start
    assert one_voice("It is 155.51%, up from 142.72% in the previous year, or 12.79 points.", q, yes, None, res,
                     None, stated=False).folded == []
    ebitda = parse("What is the FY2022 unadjusted EBITDA less capex for PepsiCo?")
    done = Computation("formula", 9068.0, "(11,512 + 2,763) - 5,207 = 9068.00", [])
    boxed = one_voice(r"Operating income is $11,512 million. So, the answer is: \[ \boxed{6305} \]", ebitda, None,
                      done, resolve(ebitda, []), None, stated=False)
    assert boxed.text == "Operating income is $11,512 million." and "gives 6305 as the answer" in boxed.folded[0]
    assert one_voice("So, the answer is 9,068.", ebitda, None, done, resolve(ebitda, []), None,
                     stated=False).folded == []


def test_the_computed_result_given_as_another_line_item_is_folded() -> None:
    from engine.ask.compose import _result_as_other_item
    from engine.ask.decisions import Computation
    from engine.ask.formulas import Term

    q = parse("What is the FY2022 unadjusted EBITDA less capex for PepsiCo? Define unadjusted EBITDA as unadjusted "
              "operating income + depreciation and amortization [from cash flow statement].")
    done = Computation("formula", 9068.0, "(11,512 + 2,763) - 5,207 = 9068.00", [
        Term("operating income", "Operating Profit", "2022", 11512.0, 3),
        Term("d&a", "Depreciation and amortization", "2022", 2763.0, 6),
        Term("capex", "Capital spending", "2022", 5207.0, 6)])
    assert "computed result, not cogs" in _result_as_other_item("- **Cost of goods sold**: $9,068 million", q, done)
    for fine in ("Therefore, the FY2022 unadjusted EBITDA less capex for PepsiCo is $9,068 million.",
                 "Capex of $5,207 million is subtracted to give $9,068 million.",
                 "Cost of goods sold was $40,576 million."):
        assert _result_as_other_item(fine, q, done) == "", fine


def test_a_phrase_naming_several_items_asks_for_each_unless_one_is_named() -> None:
    measures = [m.name for m in parse("Are there any notable changes in Zeta's liquidity position or cash flows "
                                      "over these 10-Qs?").measures]
    assert measures == ["cash and cash equivalents", "cash from operations", "cash from investing",
                        "cash from financing"]
    assert [m.name for m in parse("What cash flows from operations did Zeta report in Q3 2022?").measures] == \
        ["cash from operations"]
    assert parse("What were Zeta's free cash flows in 2022?").measures == ()
    # the statement named is not its totals asked
    assert [m.name for m in parse("What was Zeta's FY2021 capex? Use only the statement of cash flows.").measures] \
        == ["capex"]
    assert [m.name for m in parse("How did Zeta's operating cash flows change?").measures] == ["cash from operations"]


def test_a_sentence_moving_a_metric_the_filing_cannot_give_is_folded() -> None:
    from asking import resolve
    from test_formulas import table

    from engine.ask.cells import TableSource
    from engine.ask.compose import one_voice
    from engine.ask.decisions import Decision

    income = table("Consolidated Statements of Income, Years Ended December 31", ["2022", "2021"], {
        "Total revenues net of interest expense": [52862.0, 42380.0], "Net income": [7514.0, 8060.0]})
    q = parse("What drove gross margin change as of FY2022 for Acme? If gross margin is not a useful metric for a "
              "company like this, then please state that and explain why.")
    unsuited = Decision("unsuited", "Gross margin is not a useful measure of this company's performance: its income "
                        "statement reports no gross profit line.", lead=True)
    voiced = one_voice("Gross margin is not meaningful for a card issuer. The gross margin changed as of FY2022 due "
                       "to the following reasons: 1. 2.", q, unsuited, None, resolve(q, [TableSource(1, income)]),
                       None, stated=True)
    assert voiced.text == "Gross margin is not meaningful for a card issuer."
    assert "tells how the metric moved" in voiced.folded[0]


@pytest.mark.parametrize(("text", "names"), [
    ("What drove the change in Boeing Defense, Space & Security revenues in 2018?",
     ("Boeing Defense, Space & Security",)),
    ("What does Boeing report about its 777X program?", ("Boeing", "777X")),
    ("What drove the F-22 program's sales? And the CH-53K's?", ("F-22", "CH-53K")),
    # no sentence's first word, period, filing form or a term's abbreviation is a name
    ("Which segment dragged down growth in FY2022 per the 10-K, once M&A is excluded? Explain.", ()),
    ("What were Q3 FY2023 net sales of the Greater China segment?", ("Greater China",)),
    # an abbreviation with its stops is one name word of the run ("U.S." of a segment's name)
    ("What drove the change in Acme U.S. net sales in fiscal 2020?", ("Acme U.S.",)),
    ("How did Acme's U.K. and Ireland revenue change?", ("Acme's U.K. and Ireland",)),
])
def test_a_question_names_what_it_asks_about_once(text: str, names: tuple[str, ...]) -> None:
    assert parse(text).names == names


def test_a_part_pointing_back_at_a_ratio_asks_about_that_ratio() -> None:
    """"How did the effective tax rate change from 2021 to 2022, and what explains the move?": the second part asks
    why the first part's ratio moved, over its years; it is the part told in words."""
    q = parse("How did Alphabet's effective tax rate change from 2021 to 2022, and what explains the move?")
    first, why = q.parts
    assert first.ratio is not None and why.ratio == first.ratio and why.narrative == "drivers"
    assert {"effectiv", "tax", "rate"} <= why.stems and why.asked.years == (2021, 2022)
    assert q.why and q.told is q and first.told is None  # "explains the move": why it moved is asked
    for text in ("What explains the decrease in revenue in 2022?", "What explains the fall in operating income?"):
        assert parse(text).why and parse(text).narrative == "drivers", text
    # a part naming a line item of its own keeps its own subject
    own = parse("How did the effective tax rate change in 2022, and what drove revenue growth?")
    assert own.parts[1].ratio is None


def test_the_largest_line_of_a_statement_section_is_a_ranking_of_its_class() -> None:
    """"What was the largest liability on the balance sheet?" ranks a class of the statement's lines (the
    vocabulary's ``[sections]``); "Best Buy" ranks nothing, nor does a change of one line or a total."""
    for text in ("What was the largest single liability line on Amazon's balance sheet as of June 30, 2023?",
                 "In 2022, which liability was the largest in American Express's Balance Sheet?",
                 "What was BMW Finance N.V.'s largest liability at year end 2022?"):
        r = parse(text).ranking
        assert r is not None and r.section == "liabilities" and r.highest and not r.names, text
    wide = parse("As of April 30, 2023, which asset line carried the largest balance on NVIDIA's balance sheet?")
    assert wide.ranking is not None and wide.ranking.section == "assets"
    small = parse("Which asset was the smallest on the balance sheet at December 31, 2022?").ranking
    assert small is not None and small.section == "assets" and not small.highest
    for text in ("What is Gross Profit to Total Assets ratio for Best Buy for the fiscal year ending January 28, 2023?",
                 "Which liability grew the most in 2022?", "What were total liabilities in 2022?"):
        assert parse(text).ranking is None, text


def test_a_question_asking_for_a_breakdowns_parts_lists_their_kind() -> None:
    """"What geographic regions does it break its revenue into?", "What are the geographies it operates in?" ask
    for the parts of a breakdown of a kind, in the plural; a ranking, a singular or a business asks none."""
    for text, kind in (("What geographic regions does Alphabet break its revenue into, and how much came from each "
                        "in 2021?", "region"),
                       ("What are the geographies that Acme primarily operates in as of FY2022?", "region"),
                       ("Which segments does 3M report?", "segment"),
                       ("What are Amazon's reporting segments, and how much net sales did each generate in Q1 2023?",
                        "segment"),
                       ("Break down Acme's fiscal 2022 revenue by segment.", "segment"),
                       ("How does Acme break down its reportable segments, and what net sales did each post?",
                        "segment"),
                       ("List Acme's reportable segments and their 2022 operating income.", "segment"),
                       ("How are Acme's net sales divided among its geographic regions in 2023?", "region"),
                       ("What is the breakdown of revenue by geography for FY2022?", "region"),
                       ("How did Acme's revenue break down by product category in 2023?", "category"),
                       ("Which geographic regions does Acme report results for, and how did FY2022 net revenues "
                        "split among them?", "region")):
        assert parse(text).listing == kind, text
    for text in ("Which segment grew the most in 2022?", "What region is the largest?", "What business does Acme do?",
                 "What were revenues in 2022?", "Break down Acme's operating expenses for 2022.",
                 "Did Acme split its stock in 2022?", "Break down revenue by segment: which grew the fastest?"):
        assert parse(text).listing == "", text


def test_an_alternative_question_ranks_the_items_it_offers_and_asks_no_yes_or_no() -> None:
    """"Did its cash come mainly from operating, investing or financing activities?" asks which of the three, not
    yes or no: the items it offers are ranked, the largest first; a yes/no with "or not" stays one."""
    q = parse("In fiscal 2022, did Acme's cash come mainly from operating, investing or financing activities?")
    assert not q.yes_no and q.ranking is not None and q.ranking.highest and q.ranking.cash
    assert q.ranking.names == ("operating", "investing", "financing activities")
    q = parse("Was the increase in net sales mostly from Products or Services?")
    assert not q.yes_no and q.ranking is not None and q.ranking.names == ("Products", "Services")
    for text in ("Is Acme capital intensive or not?", "Did revenue increase in 2022?",
                 "Did Acme pay dividends in 2022 or 2023?"):
        q = parse(text)
        assert q.yes_no and q.ranking is None, text


def test_pre_tax_earnings_and_a_pre_tax_basis_name_pretax_income() -> None:
    for text in ("Which segment was the weakest in 2023 on a pre-tax basis?", "What were pre-tax earnings in 2022?",
                 "What was Acme's profit before tax in 2022?"):
        assert [m.name for m in parse(text).measures] == ["pretax income"], text


def test_of_the_narrative_kinds_a_question_names_the_one_it_names_first_is_asked() -> None:
    """"What happened to Acme's planned acquisition of Beta?" asks an event (what happened: a termination, a
    completion), not who was acquired; "What acquisitions did Acme announce?" asks who."""
    for text, kind in (("What happened to Acme's planned acquisition of Beta, and what did it cost?", "events"),
                       ("What does Acme say about the terminated Beta acquisition?", "events"),
                       ("What acquisitions did Acme announce or complete in 2023?", "parties"),
                       ("Does Acme report any significant new business acquisitions or divestitures?", "parties")):
        assert parse(text).narrative == kind, text


def test_compute_asks_a_figure_as_a_verb_not_inside_a_name() -> None:
    """"What businesses make up NVIDIA's Compute & Networking segment?" asks in words: the capital "Compute" after a
    word names a segment; "Compute the current ratio", "please compute", "Using the balance sheet, Calculate" ask a
    figure."""
    q = parse("What businesses make up Acme's Compute & Networking segment, per its 10-Q?")
    assert not q.asks_value and q.narrative == "description"
    for text in ("Compute the current ratio for FY2022.", "Please compute the quick ratio.",
                 "Using the balance sheet, Calculate the current ratio."):
        assert parse(text).asks_value, text


def test_a_part_that_swung_to_a_profit_or_a_loss_is_a_ranking_by_its_sign() -> None:
    q = parse("Which Acme segment swung from an operating loss to an operating profit in FY2023, and what drove it?")
    assert q.ranking is not None and q.ranking.turned == "profit" and q.ranking.breakdown == "segment"
    assert [m.name for m in q.measures] == ["operating income"]
    q = parse("Which region went from a profit to a loss in 2022?")
    assert q.ranking is not None and q.ranking.turned == "loss" and not q.ranking.highest
    q = parse("Which segment turned profitable in 2023?")
    assert q.ranking is not None and q.ranking.turned == "profit"
    q = parse("Which segment grew the most in 2023?")
    assert q.ranking is not None and q.ranking.turned == ""


def test_a_registered_names_abbreviations_end_no_sentence() -> None:
    """"What does BMW Finance N.V. actually do within the BMW Group?" is one sentence: its first asking sentence is
    all of it, not "What does BMW Finance N.V."; a real second sentence still ends the first."""
    for text in ("What does Acme Finance N.V. actually do within the Acme Group?",
                 "How much did Acme Inc. earn in the U.S. in 2022?"):
        assert parse(text).first == text, text
    assert parse("What was revenue in 2022? Round to two decimals.").first == "What was revenue in 2022?"


def test_the_part_that_lost_the_most_is_the_biggest_fall() -> None:
    q = parse("Which market platform lost the most revenue versus a year earlier, and why?")
    assert q.ranking is not None and q.ranking.by_change and not q.ranking.highest
    q = parse("Which segment lost the least revenue in 2023?")
    assert q.ranking is not None and q.ranking.by_change and q.ranking.highest


def test_a_section_ranking_reads_a_possessive_as_one_word_and_the_block_asked() -> None:
    """"Which line was the largest among Apple's current liabilities?": "Apple's" is one word (the ranking word is
    within reach of the class noun), and "current" asks that block; "non-current", "long-term" the other."""
    q = parse("Which line was the largest among Acme's current liabilities as of June 25, 2022?")
    assert q.ranking is not None and q.ranking.section == "liabilities" and q.ranking.current == "current"
    for text in ("Which non-current liability was the largest?", "Which long-term asset was the largest?"):
        q = parse(text)
        assert q.ranking is not None and q.ranking.current == "non-current", text
    q = parse("What was the largest liability in 2022?")
    assert q.ranking is not None and q.ranking.current == ""


def test_a_change_asked_in_dollar_terms_ranks_by_amount() -> None:
    q = parse("Which market platform lost the most revenue in dollar terms versus a year earlier?")
    assert q.ranking is not None and q.ranking.by_change and q.ranking.in_amount
    q = parse("Which segment grew the most in 2023?")
    assert q.ranking is not None and q.ranking.by_change and not q.ranking.in_amount


def test_what_accounted_for_a_change_asks_its_drivers() -> None:
    """"What accounted for the increase in X" asks why X moved; "accounted for 10% of revenue" asks a share or a
    party."""
    assert parse("What accounted for the increase in Acme's cost of sales in 2023?").narrative == "drivers"
    assert parse("Which customers accounted for more than 10% of Acme's revenue in 2022?").narrative == "parties"
    assert parse("What accounted for 40% of revenue?").intent is not Intent.PROSE


def test_attributable_to_a_name_tells_an_owner_not_a_cause() -> None:
    """"Attributable to" and "due to" ask a cause only when nothing names it after them; before a name they are part
    of a line item's label ("net income attributable to noncontrolling interests", "amounts due to affiliates")."""
    for text in ("What was Foo Corp's 2021 net income attributable to common stockholders?",
                 "What was the total equity attributable to owners of the parent at year end 2020?",
                 "How much were the amounts due to affiliates at December 31, 2022?"):
        q = parse(text)
        assert (q.why, q.intent, q.narrative) == (False, Intent.VALUE, ""), text
    for text in ("What was the decline in Foo Corp's gross margin in 2022 attributable to?",
                 "What was the increase in selling expenses in 2023 due to?",
                 "The rise in freight costs was attributable to which factors?"):
        q = parse(text)
        assert q.why and q.narrative == "drivers", text


def test_a_what_whose_preposition_is_left_at_the_end_asks_in_words() -> None:
    """"What was X related to?": "what" is the object of the preposition left at the end, so the answer is what X
    relates to, consists of or was used for, told in words; "What was revenue related to product sales?" asks a
    figure."""
    for text in ("What were Foo Corp's restructuring charges in 2022 mainly related to?",
                 "What were the proceeds of the term loan used for during fiscal 2023?",
                 "What is the other income, net line comprised of?"):
        q = parse(text)
        assert q.intent is Intent.PROSE and q.told is q, text
    assert parse("What was Foo Corp's revenue related to product sales in 2022?").intent is Intent.VALUE


def test_how_a_company_does_something_is_asked_in_words() -> None:
    """"How does X <do something>" asks the way it is done, in words, also as a later part that takes the measure of
    the part before; how a figure moved, compared or performed is asked in figures."""
    for text in ("How does Foo Corp recognize revenue from its maintenance contracts?",
                 "How do the company's distributors get paid?"):
        q = parse(text)
        assert q.intent is Intent.PROSE and q.told is q, text
    q = parse("What was Foo Corp's cash at year end, and how does it earn fees on transfers sent through its app?")
    assert q.told is q.parts[1] and q.parts[1].intent is Intent.PROSE
    for text in ("How did Foo Corp's gross margin change in 2022?", "How does its revenue compare with 2021?",
                 "How did the segment's operating income grow in 2023?"):
        assert parse(text).intent is not Intent.PROSE, text


def test_a_capital_word_that_asks_is_no_part_of_a_segments_name() -> None:
    """"Which segment ..." names no segment called "Which"; "The Data Center segment" at a sentence's start is "Data
    Center"."""
    assert parse("Which segment dragged down Foo Corp's organic growth in 2022?").segment == ""
    assert parse("Which business had the highest operating income in 2023?").segment == ""
    assert parse("The Data Center segment's revenue in fiscal 2024?").segment == "Data Center"


def test_the_verbs_a_question_asks_with() -> None:
    """After an auxiliary and its subject (a pronoun or a name), one word in its base form before a determiner,
    preposition, name or figure is the verb it asks with; a "to" after "have"/"plan" gives the next. A subject that
    is an owner's ("did Foo's net cash used ...") or several words before the stop ("did the state jury decide")
    give none: a noun cannot be told from the verb."""
    assert parse("What kinds of lenders does Foo Corp rely on?").asking == {"rely"}
    assert parse("Did Foo Corp acquire Bar Inc. in 2022, and does it plan to appeal the fine?").asking == {
        "acquire", "plan", "appeal"}
    assert parse("Will Foo Corp have to pay the levy while it contests the ruling?").asking == {"have", "pay"}
    assert parse("Did Foo Corp acquire 20% of Bar Inc.?").asking == {"acquire"}
    # after a bare name or a pronoun the next word is the verb, an adverb aside; a measure's word is no verb
    assert parse("How does Foo Corp use forward contracts to hedge currency risk?").asking == {"use"}
    assert parse("Does it typically ask its customers for collateral?").asking == {"ask"}
    assert parse("Why did Foo net sales change in 2023?").asking == frozenset()
    for text in ("Why did Foo's net cash used in operating activities increase in 2015?",
                 "What did the state jury decide in May 2023?", "What was Foo Corp's revenue in 2022?",
                 "How much did operating expenses in Foo Corp's Other segment increase in 2018?"):
        assert parse(text).asking == frozenset(), text


def test_the_verb_a_how_clause_asks_with_behind_a_long_subject() -> None:
    """A how or why clause whose subject runs long asks with its last participle after a form of "be" or "have": the
    answer tells how the lawsuit was resolved in the filing's words ("settled", "dismissed"), and a summary framing
    it with "resolved" claims nothing of a quote. After "do" only the clause's last word is taken, where no article
    or preposition stands before it (a noun inside the clause looks the same as a verb)."""
    assert parse("How was the zoning dispute that three Ohio towns brought against Foo Corp over its quarry "
                 "resolved, according to its 2021 annual report?").asking == {"resolved"}
    assert parse("How are the royalties and costs of the two co-marketed drugs allocated between Foo and Bar?"
                 ).asking == {"allocated"}
    assert parse("How has Foo Corp organized its operations in Brazil to meet local ownership rules?").asking == {
        "organized"}
    assert parse("How does the tender offer Foo Corp launched in the third quarter of 2021 work?").asking == {"work"}
    assert parse("How does Foo's hedging of forecast royalties work according to its fiscal 2020 10-K: which "
                 "currencies, and what maturities?").asking == {"work"}
    assert parse("How do Foo's hedges of its euro debt perform, and what did they cost?").asking == {"perform",
                                                                                                       "cost"}
    assert parse("How does the company hedge the currency risk of its plants in the market?").asking == set()
    assert parse("Why was the plant in Ohio closed in 2022, and how much did it cost?").asking == {"closed", "cost"}


def test_a_plural_kind_word_in_capitals_ends_a_parts_name() -> None:
    """"the Industrial and New Ventures Businesses" is a part so named (the word is its own); a plural in lower case
    after several parts names none of them as one."""
    assert parse("What drove net sales of Foo Corp's Industrial and New Ventures Businesses in 2023?").segment == (
        "Industrial and New Ventures Businesses")
    assert parse("How did the Central Divisions' operating loss change in fiscal 2021?").segment == "Central Divisions"
    assert parse("How did the Americas and Asia segments grow in 2023?").segment == ""


def test_a_later_part_asking_the_figure_before_keeps_its_part_of_the_company() -> None:
    """"..., and how large was that growth?" asks the growth of the part the part before named; the company's own
    name read as a part ("Which Foo segment ...") is no part, in any part."""
    q = parse("What drove the growth in revenue of Foo Corp's Marine Systems segment in 2022, and how large was that "
              "growth?")
    assert [p.segment for p in q.parts] == ["Marine Systems", "Marine Systems"]
    assert q.parts[1].intent is Intent.CHANGE
    q = parse("What drove revenue of Foo Corp's Marine Systems segment in 2022, and what was Bar Inc.'s revenue?")
    assert q.parts[1].segment == ""
    docs = [Document(id="foo", sha256="", name="FOO_2023_10K", path="", pages=100, status="ready", company="Foo Corp",
                     tickers=["FOO"])]
    q = parse("Which Foo segment swung from an operating loss to a profit in 2023, and what drove it?", docs)
    assert q.segment == "" and all(p.segment == "" for p in q.parts)


def test_what_was_behind_a_change_asks_its_drivers() -> None:
    q = parse("What was behind the rise in Foo Corp's licensing revenue in the second quarter of 2023?")
    assert q.why and q.intent is Intent.PROSE and q.narrative == "drivers"
    assert parse("What's behind Foo Corp's lower gross margin in 2022?").why


def test_what_a_filing_credits_a_change_to_asks_its_drivers() -> None:
    """"What does the 10-Q credit that growth to?" asks what drove it, as "what was it attributable to?" does; credit
    extended to customers, or an amount credited to a line, asks no reason."""
    q = parse("Which Foo Corp segment grew net sales fastest in 2023, and what does the 10-K credit that growth to?")
    assert q.told is q.parts[1] and q.parts[1].why and q.parts[1].narrative == "drivers"
    assert parse("What does management credit the increase in Foo Corp's gross margin to?").narrative == "drivers"
    assert not parse("Did Foo Corp extend credit to its customers in 2023?").why
    assert not parse("How much was credited to other income by Foo Corp in 2023?").why


def test_where_and_when_start_a_part_of_their_own() -> None:
    """"..., and where were they recorded?" asks in words beside a figure the first part asks."""
    q = parse("How much were Foo Corp's capital expenditures in 2023, and where were they spent?")
    assert len(q.parts) == 2 and q.told is q.parts[1] and q.parts[1].intent is Intent.PROSE
    q = parse("Which stores did Foo Corp close in 2022, and when were the closures completed?")
    assert len(q.parts) == 2


def test_what_a_named_thing_is_is_asked_in_words() -> None:
    """"What is the Foo Lease Transaction that ...?" asks what the filing's named thing is; a line item written in
    capitals ("the Provision for taxes", "the General and administrative expense") asks a figure."""
    for text in ("What is the Harbor Lease Transaction that Foo Corp agreed with its landlord in 2021?",
                 "What is FooPay, and who uses it?"):
        q = parse(text)
        assert q.intent is Intent.PROSE and q.told is q, text
    for text in ("What was the Provision for taxes for Foo Corp in 2019?",
                 "What was the General and administrative expense for Foo Corp in 2020?"):
        assert parse(text).intent is not Intent.PROSE, text


def test_a_change_a_company_made_is_told_in_words() -> None:
    """"What change to X did the company make?" asks what it changed; "What was the change in revenue?" asks how much
    a figure moved."""
    q = parse("What change to the depreciation method of its vehicles did Foo Corp make in 2023?")
    assert q.intent is Intent.PROSE and q.told is q
    assert parse("What was the change in Foo Corp's revenue in 2022?").intent is Intent.CHANGE


def test_a_later_part_asking_what_a_thing_of_its_own_is_is_told_in_words() -> None:
    """"..., and what were the new useful lives?" asks what something is, not the figure of the part before; "...,
    and what was the amount in 2021?" and "what was the extent of these repurchases?" ask that figure."""
    q = parse("By how much did Foo Corp's longer useful lives for servers reduce its depreciation expense in 2022, and "
              "what were the new useful lives?")
    assert q.told is q.parts[1] and q.parts[1].intent is Intent.PROSE and not q.parts[1].measures
    for text in ("What was Foo Corp's net income in 2022, and what was the amount in 2021?",
                 "Did Foo Corp buy back stock in 2023, and what was the extent of these repurchases?"):
        assert parse(text).parts[1].intent is not Intent.PROSE, text


def test_what_items_were_included_in_a_line_is_told_in_words() -> None:
    """"What costs were included in its operating expenses?" asks which items, in the filing's words."""
    q = parse("How many stores did Foo Corp close in 2023, and what exit costs were included in its expenses?")
    assert q.told is q.parts[1] and q.parts[1].intent is Intent.PROSE


def test_a_later_part_asking_what_thing_someone_does_or_has_is_told_in_words() -> None:
    """"..., and what rights do its supply agreements give it?" and "what part did pricing play?" ask what a thing is;
    "what penalty did the regulator impose?" and "what restructuring charges did it record?" ask a figure."""
    for text in ("How large was Foo Corp's inventory at March 31, 2024, and what rights do its supply agreements with "
                 "assemblers give it?",
                 "What was Foo Corp's revenue in 2023, and what part did pricing play?"):
        q = parse(text)
        assert q.parts[0].intent is Intent.VALUE and q.parts[1].intent is Intent.PROSE, text
    for text in ("What was Foo Corp's net income in 2023, and what penalty did the regulator impose?",
                 "What was Foo Corp's net income in 2023, and what restructuring charges did it record?"):
        assert parse(text).parts[1].intent is not Intent.PROSE, text


def test_an_asking_word_after_its_preposition_starts_a_part() -> None:
    """", and over what period ...", ", and to whom ...", ", and in which unit ..." start a part of their own, as ",
    and what ..." does; the part asks what a thing is (a period, a party, a unit), in words, unless it names a figure
    ("..., and for what total amount?")."""
    q = parse("How large was Foo Corp's order backlog at the end of 2023, and over what period does it expect to "
              "fill it?")
    assert len(q.parts) == 2 and q.parts[0].intent is Intent.VALUE and q.parts[1].intent is Intent.PROSE
    q = parse("How much equipment did Foo Corp sell in 2022, and to whom was it sold?")
    assert len(q.parts) == 2 and q.parts[1].narrative == "parties"
    q = parse("Did one distributor account for more than 10% of Foo Corp's sales in 2021, and in which unit were "
              "those sales reported?")
    assert len(q.parts) == 2 and q.parts[1].intent is Intent.PROSE and q.told is q.parts[1]
    q = parse("How many notes did Foo Corp issue in 2022, and for what total amount?")
    assert len(q.parts) == 2 and q.parts[1].intent is Intent.VALUE and q.told is None


def test_how_much_after_a_bare_comma_starts_a_part_and_the_first_part_keeps_its_own_measures() -> None:
    """"What secures X, how much was drawn under it, and how much cash had it pledged?" asks three things; the first
    names no figure of its own and does not take the cash the third names."""
    q = parse("What secures Foo Corp's $2 billion term facility, how much was drawn under it at June 30, 2024, and how "
              "much cash had Foo Corp pledged as collateral?")
    assert len(q.parts) == 3 and not q.parts[0].measures and q.parts[0].intent is Intent.PROSE
    assert [m.name for m in q.parts[2].measures] == ["cash and cash equivalents"]


def test_how_someone_changed_something_is_told_in_words() -> None:
    """"How did the board change the buyback authorization?" asks what it did (the verb has an object); "How did
    revenue change from 2022 to 2023?" and "How did gross margin change year over year?" ask how a figure moved."""
    for text in ("How did Foo Corp's board change its 2022 buyback authorization in March 2023?",
                 "How did the regulator change Foo Bank's capital buffer after the 2023 stress test?",
                 "How did the 2021 merger change Foo Corp's stake in Bar LLC?"):
        assert parse(text).intent is Intent.PROSE, text
    for text in ("How did Foo Corp's revenue change from 2022 to 2023?",
                 "How did Foo Corp's gross margin change year over year in 2023?"):
        assert parse(text).intent is Intent.CHANGE, text


def test_a_yes_no_about_an_expectation_of_nothing_measured_is_told_in_words() -> None:
    """"..., and does management expect a materially higher loss?" asks what the filing says it expects; "Did Foo
    Corp's revenue increase in 2023?" asks a figure's direction."""
    q = parse("How much had Foo Corp accrued for cleanup at the end of 2023, and does management expect a materially "
              "higher loss?")
    assert q.parts[1].yes_no and q.told is q.parts[1]
    assert not parse("Did Foo Corp's revenue increase in 2023?").narrative


def test_an_item_named_only_after_non_is_not_asked() -> None:
    """"non-income tax disputes" (sales, value added and similar taxes) ask no income tax figure."""
    q = parse("What non-income tax disputes does Foo Corp describe in its 2023 10-K?")
    assert not q.measures and q.intent is Intent.PROSE
    assert [m.name for m in parse("What was Foo Corp's income tax expense in 2023?").measures] == [
        "income tax expense"]


def test_a_later_yes_no_part_that_does_not_point_back_asks_of_its_own() -> None:
    """"..., and does the company require collateral from its customers?" asks what the company does, not about the
    figure of the part before; "..., and did it rise from 2022?" and "..., and was that above $1 billion?" ask about
    that figure."""
    q = parse("How large were Foo Corp's trade receivables at June 30, 2024, and does the company usually require "
              "collateral from its customers?")
    assert q.parts[1].intent is Intent.YES_NO and not q.parts[1].measures and q.told is q.parts[1]
    for text in ("What were Foo Corp's trade receivables at June 30, 2024, and did they rise from a year earlier?",
                 "What were Foo Corp's trade receivables at June 30, 2024, and was that above $1 billion?"):
        assert [m.name for m in parse(text).parts[1].measures] == ["accounts receivable"], text


def test_which_after_a_bare_comma_starts_a_part_after_an_asking_clause_only() -> None:
    """"How big was X, which product does it mostly come from, and ...?" asks three things; "As of 2023, which
    regions does it serve?" asks one (a lead-in before the comma), and "..., which the board does not expect to
    recur" is a relative clause with a subject of its own."""
    q = parse("How big was Foo Corp's deferred revenue in 2023, which product does it mostly come from, and over what "
              "period will it be earned?")
    assert len(q.parts) == 3 and [p.intent for p in q.parts[1:]] == [Intent.PROSE, Intent.PROSE]
    assert not parse("As of 2023, which regions does Foo Corp serve?").parts
    assert not parse("In its lawsuit against Bar Inc, what damages does Foo Corp seek?").parts
    assert not parse("What was Foo Corp's impairment in 2022, which the board does not expect to recur?").parts


def test_what_affected_a_figure_asks_what_moved_it() -> None:
    """"What affected (impacted, influenced) X?" asks what moved X, in words, as "what drove" does; "How did
    currency affect X?" asks the effect of a named thing, not its drivers."""
    for text in ("What affected Foo Corp's gross margin in 2023?",
                 "What has influenced the decline in Foo Corp's operating margin in 2022?",
                 "What was Foo Corp's revenue in 2023, and what impacted its working capital that year?"):
        q = parse(text)
        assert q.told is not None and q.told.narrative == "drivers", text
    assert parse("How did currency affect Foo Corp's revenue in 2023?").narrative != "drivers"


def test_cash_asked_with_its_activities_verb_after_them_is_their_line() -> None:
    """"How much cash did X's operations provide?" asks cash provided by operations, not the cash balance; "How
    much cash did X have?" asks the balance."""
    assert [m.name for m in parse("How much cash did Foo Corp's operations provide in fiscal 2021?").measures] == [
        "cash from operations"]
    assert [m.name for m in parse("How much cash did Foo Corp's investing activities use in 2022?").measures] == [
        "cash from investing"]
    assert [m.name for m in parse("How much cash did Foo Corp have at the end of 2022?").measures] == [
        "cash and cash equivalents"]


def test_how_one_thing_bore_on_another_is_told_in_words() -> None:
    """"How did exchange rates affect X's revenue growth?" and "How did the change in the tax rate affect X?" ask the
    effect in the filing's words: the growth and change words belong to what was affected or to the cause. "How did
    X's gross margin change?" still asks how a figure moved."""
    for text in ("How did exchange rates affect Foo Corp's Asia revenue growth in 2023?",
                 "How did the change in the statutory tax rate affect Foo Corp in 2022?",
                 "How have rising interest rate changes impacted Foo Corp's lending growth?"):
        assert parse(text).intent is Intent.PROSE, text
    assert parse("How did Foo Corp's gross margin change in 2023?").intent is Intent.CHANGE


def test_over_a_relation_is_no_division() -> None:
    """"Influence over Voltra", "a patent suit over its video service", "promotions over Wi-Fi": "over" divides only
    where the question names a measure ("net income over total assets")."""
    for text in ("On what basis does Foo Corp say it has significant influence over Voltra?",
                 "In Streamco's patent suit over Foo Corp's video service, what damages did Streamco claim?",
                 "Which antitrust complaints over Foo Corp's ad business does its 2022 annual report describe?"):
        q = parse(text)
        assert q.pair is None and q.intent is Intent.PROSE, text
    assert parse("What is Foo Corp's EBITDA over interest expense in 2022?").pair is not None


def test_what_percentage_asks_a_figure() -> None:
    """"What percentage (share, proportion) of ..." asks a figure, a relative clause in it too."""
    for text in ("What percentage of respondents in the sector in which 15% run promotions use the app?",
                 "What share of Foo Corp's revenue came from its largest customer in 2022?",
                 "By what percentage did Foo Corp's headcount grow in Europe?"):
        assert parse(text).asks_value, text


def test_inventory_as_a_modifier_names_another_figure() -> None:
    """"Inventory purchase obligations", "inventory write-downs", "an inventory provision" are not the inventories
    balance; "inventories and purchase obligations" asks it beside them. A figure asked by its size ("how large
    were ...") is never told in words, a parties word in it or not."""
    for text in ("How large were Foo Corp's inventory purchase and long-term supply obligations at June 30, 2024?",
                 "What were Foo Corp's inventory write-downs in fiscal 2023?",
                 "What did Foo Corp's $90 million inventory provision in the second quarter consist of?"):
        assert not parse(text).measures, text
    q = parse("How large were Foo Corp's inventory purchase and long-term supply obligations at June 30, 2024?")
    assert q.intent is Intent.VALUE and not q.narrative
    assert [m.name for m in parse("What were Foo Corp's inventories and purchase obligations at June 30, 2024?")
            .measures] == ["inventory"]


def test_a_yes_no_asking_what_the_company_believes_is_told_in_words() -> None:
    """"Does Foo Corp believe its cash and operating cash flow will be sufficient ...?" is answered by the filing's
    sentence saying what it believes, figures named or not; one asking a figure against an amount is not."""
    for text in ("Does Foo Corp believe its cash, marketable securities and operating cash flow will be sufficient to "
                 "meet its cash requirements over the next 12 months?",
                 "Does Foo Corp's management expect revenue to grow in fiscal 2025?"):
        q = parse(text)
        assert q.yes_no and q.narrative and q.told is q, text
    assert not parse("Does Foo Corp expect revenue to exceed $10 billion in fiscal 2025?").narrative


def test_how_something_was_changed_is_told_and_a_what_is_its_clause_is_a_part() -> None:
    """"..., how was Foo Corp's revolving credit agreement changed in March 2022, what are its interest rate and fee
    terms, and how much was borrowed under it?": something was done to the agreement (told in words), and each
    clause is a part; a lead-in saying how to answer ("When primarily referencing the income statement, what is
    ...") is none."""
    q = parse("In Foo Corp's 10-Q for the quarter ended September 30, 2022, how was its $5.0 billion revolving credit "
              "agreement changed in March 2022, what are its interest rate and commitment fee terms, and how much was "
              "borrowed under it at September 30, 2022?")
    assert q.intent is Intent.PROSE and q.told is q and len(q.parts) == 3
    assert parse("How has Foo Corp's revenue changed from 2021 to 2022?").intent is Intent.CHANGE
    lead = parse("When primarily referencing the income statement, what is the FY2021 inventory turnover ratio for "
                 "Foo Corp?")
    assert not lead.parts


def test_over_a_span_of_time_is_no_division() -> None:
    """"Net income over total assets" divides; "over what period", "over the next 24 months", "over time" and "over
    65 years old" are spans, not a denominator."""
    assert parse("What is Foo Corp's net income over total assets in 2022?").pair is not None
    for text in ("How large was Foo Corp's revenue backlog, and over what period does it expect to recognize it?",
                 "How much of its backlog does Foo Corp expect to recognize over the next 24 months?",
                 "How has Foo Corp's total net sales trended over time?",
                 "How many more people over 65 years old bought Foo Corp's product?"):
        assert parse(text).pair is None, text


def test_growth_naming_a_kind_of_thing_asks_no_change() -> None:
    """"growth pillars", "a growth strategy" name kinds of things; "revenue growth", "the growth rate" and "how much
    did sales grow" ask a change."""
    for text in ("What are Foo's three growth pillars?", "What growth strategy does Foo describe in its 10-K?",
                 "Which growth initiatives did Foo announce in 2021?"):
        q = parse(text)
        assert not q.changed and not q.growth and q.intent is not Intent.CHANGE, text
    for text in ("What was Foo's revenue growth from 2021 to 2022?", "What is the growth rate of sales from 2021 to "
                 "2022?", "How much did Foo's sales grow between 2021 and 2022?"):
        assert parse(text).intent is Intent.CHANGE, text


def test_cash_held_abroad_is_not_the_cash_balance() -> None:
    """Cash held by foreign subsidiaries (outside the U.S., overseas) is a figure filings give apart from the balance
    sheet's cash line: a question asking it names no cash item; one asking the balance does."""
    for text in ("How much of Foo's cash sat with foreign subsidiaries at December 31, 2019?",
                 "What cash and cash equivalents did Foo hold outside the U.S. at the end of 2022?",
                 "How much cash was held overseas by Foo at year end 2021?"):
        assert not any(m.item is not None and m.item.name == "cash and cash equivalents" for m in parse(text).measures
                       ), text
    assert [m.item.name for m in parse("What were Foo's cash and cash equivalents at December 31, 2022?").measures
            if m.item is not None] == ["cash and cash equivalents"]


def test_a_part_named_with_its_kind_and_a_qualifier_and_pointed_back_at() -> None:
    """"the Marine Systems operating segment" names the part; "how much revenue did it generate?" after it asks of
    that part, while "its total revenue" asks of the whole company."""
    q = parse("What does Foo Corp's Marine Systems operating segment comprise, and how much revenue did it generate "
              "in the quarter ended June 30, 2024?")
    assert q.segment == "Marine Systems"
    assert [p.segment for p in q.parts] == ["Marine Systems", "Marine Systems"]
    assert parse("What were revenues of the Lighting reportable segment in 2023?").segment == "Lighting"
    q = parse("What does the Marine Systems segment build, and what was its total revenue in 2023?")
    assert q.parts[1].segment == ""


def test_a_possessive_s_is_no_word_of_the_question() -> None:
    assert "s" not in parse("How much revenue did Foo Corp's Marine segment generate in 2023?").words
    assert {"u", "s"} <= parse("What were U.S. revenues in 2023?").words


def test_each_part_knows_the_companies_it_names() -> None:
    docs = [Document(id="foo", sha256="", name="FOO_2023_10K", path="", pages=100, status="ready",
                     company="Foo Bar Inc.", tickers=["FOO"])]
    q = parse("By how much did Foo Bar's net revenues from the Asia Pacific region fall in 2023, and what caused "
              "the decline?", docs)
    assert list(q.parts[0].companies) == ["foo"] and q.parts[0].mentions
    assert not q.parts[1].companies  # the second part names none
    assert q.parts[0].segment == "Asia Pacific"


def test_the_thing_held_in_an_item_is_asked_not_the_item() -> None:
    """"How much X was in inventory?" asks X; inventory is where it is held."""
    for said in ("How much 787 deferred production cost was in inventory at December 31, 2018?",
                 "How much capitalized software was included in total assets at year end 2023?",
                 "How much unbilled revenue is recorded within accounts receivable in 2022?"):
        assert not parse(said).measures, said
    assert [m.name for m in parse("How much inventory did Foo hold at the end of 2023?").measures] == ["inventory"]
    assert [m.name for m in parse("How much of revenue was in the Americas in 2023?").measures] == ["revenue"]


def test_which_components_account_for_a_swing_asks_its_drivers_in_words() -> None:
    q = parse("Foo Corp's other income (expense), net went from a $90 million loss in 2022 to $75 million of income in "
              "2023. Which components account for that swing?")
    assert q.parts[1].intent is Intent.PROSE and q.parts[1].narrative == "drivers"
    for said in ("What accounts for the swing in Foo Corp's other income in 2023?",
                 "Which factors accounted for this variance in Foo Corp's gross margin?"):
        q = parse(said)
        assert q.intent is Intent.PROSE and q.narrative == "drivers", said


def test_how_a_way_of_doing_changes_is_told_in_words() -> None:
    """"How will its accounting change for gift cards" moves no figure; "revenue recognition" names no revenue."""
    for said in ("When Foo Corp adopts the new revenue recognition standard, how will its accounting change for "
                 "unredeemed gift cards?",
                 "How did the company's revenue recognition policy change in 2018?",
                 "How will Foo Corp's segment reporting change next year?"):
        q = parse(said)
        assert q.intent is Intent.PROSE and not q.measures, said
    assert parse("How did revenue change from 2021 to 2022?").intent is Intent.CHANGE
    assert parse("How did the gross margin change in 2022?").intent is Intent.CHANGE


def test_how_a_figure_is_arrived_at_is_told_in_words() -> None:
    for said in ("Under Foo Corp's program accounting, how is cost of sales set for each airplane delivered?",
                 "How is goodwill tested for impairment at Foo Corp?",
                 "How are Foo Corp's subscription revenues recognized?"):
        assert parse(said).intent is Intent.PROSE, said
    assert parse("How was revenue in 2022?").intent is not Intent.PROSE
    q = parse("What was Foo Corp's revenue in 2022, and how was it recognized?")
    assert [p.intent for p in q.parts] == [Intent.VALUE, Intent.PROSE]


def test_a_later_part_asking_a_figure_of_its_own_thing_takes_no_measure_from_before() -> None:
    q = parse("Why did Foo Corp's cash from operating activities fall in 2022, and how much did its receivable "
              "factoring programs accelerate collections?")
    assert not q.parts[1].measures
    q = parse("How much did Foo Corp's revenue grow in 2023, and how large was the segment's pre-tax loss?")
    assert not q.parts[1].measures
    for said in ("What were Foo Corp's revenues in 2022, and how much did they grow over 2021?",
                 "What were Foo Corp's net sales in fiscal 2023, and how large was that growth?",
                 "Which of Foo Corp's categories grew revenue in 2023? Which ones, by how much?"):
        assert [m.name for m in parse(said).parts[1].measures] == ["revenue"], said


def test_over_divides_a_figure_named_before_it_only() -> None:
    said = ("Why did Foo Corp leave Bar LLC out of its assessment of internal control over financial reporting, and "
            "how large is Bar relative to Foo Corp's consolidated assets and sales?")
    assert parse(said).pair is None
    assert parse("What was Foo Corp's operating income over revenue in 2022?").pair is not None


def test_a_growth_against_the_prior_year_names_one_year() -> None:
    # "compared with the prior year", "over the previous fiscal year": the year asked against the one before it
    for text in ("How fast did the Cloud segment's operating income grow in 2019 compared with the prior year?",
                 "By what percent did net sales rise in fiscal 2021 over the previous fiscal year?",
                 "How did revenue change versus last year in Q2 2023?"):
        assert parse(text).year_over_year, text
    # a balance at the prior year's end is a date, not a change against a year
    assert not parse("What was the change from the prior year-end balance?").year_over_year


def test_a_share_of_a_whole_that_went_somewhere_is_the_part_over_the_whole() -> None:
    # "what share of revenues went to X", "was paid out as", "was spent on": the part over the whole, as "came from"
    assert parse("For the quarter ended June 30, 2024, what share of Zeta's revenues went to selling, general and "
                 "administrative expenses?").pair == ("selling, general and administrative expenses", "revenues")
    assert parse("What percentage of Zeta's net income was paid out as dividends in 2021?").pair == (
        "dividends", "net income")
    assert parse("What portion of its sales was spent on research and development in 2020?").pair[0] == (
        "research and development")
    # a comma that ends the part still ends it
    assert parse("What share of revenue came from iPhone, in fiscal 2022?").pair == ("iPhone", "revenue")


def test_a_ranking_names_its_kind_after_a_long_owner() -> None:
    # "Which of Procter & Gamble's three business segments ...": the owner's "&" and the count are words too
    r = parse("Which of Procter & Gamble's three business segments grew fastest in FY2022?").ranking
    assert r is not None and r.breakdown == "segment" and r.by_change and r.highest


def test_a_period_compared_with_a_year_earlier_asks_how_it_changed() -> None:
    """"How did its gross margin compare with a year earlier?" sets a period against the year before it: a change
    asked year over year, in any of the verb's forms."""
    for text in ("How did Acme's gross margin in Q1 fiscal 2024 compare with a year earlier?",
                 "How does operating income for 2023 compare to one year before?",
                 "Revenue for the quarter, comparing against a year ago?"):
        q = parse(text)
        assert q.changed and q.year_over_year, text
    assert not parse("What was Acme's gross margin in Q1 fiscal 2024?").changed


def test_a_part_asking_why_a_ratio_moved_asks_about_the_ratio_as_defined() -> None:
    """"..., and what accounts for the change?" after a ratio: the part's ratio is the part before's, its definition
    with it (a change of the ratio, not of its numerator)."""
    q = parse("How did Acme's gross margin in Q1 fiscal 2024 (quarter ended April 30, 2023) compare with a year "
              "earlier, and what accounts for the change?")
    first, why = q.parts
    assert first.formula is not None and why.formula == first.formula and why.ratio == first.ratio
    assert first.changed and first.year_over_year and why.narrative == "drivers"


def test_a_part_asking_a_figure_of_each_asks_it_of_every_part_listed_before() -> None:
    """"What are its reporting segments, and how much net sales did each generate?": each segment's net sales, a
    listing of the kind the part before names; a part that names no kind and no "each" lists nothing."""
    q = parse("What are Acme's reporting segments, and how much net sales did each generate in Q1 2023?")
    assert [p.listing for p in q.parts] == ["segment", "segment"]
    assert q.parts[1].measures and q.parts[1].measures[0].name == "revenue"
    assert parse("What are Acme's reporting segments, and how much were net sales in Q1 2023?").parts[1].listing == ""


def test_the_steepest_or_sharpest_change_of_the_parts_is_a_ranking_by_change() -> None:
    """"Which product category had the steepest sales decline?", "the sharpest drop", "the deepest cut": the words
    of a change's size pick the biggest change, as "largest" does."""
    for text in ("Which Acme product category had the steepest year-over-year sales decline in Q2 2023, and why?",
                 "Which segment had the sharpest drop in revenue in 2022?",
                 "Which region saw the deepest fall in net sales last year?"):
        r = parse(text).ranking
        assert r is not None and r.by_change and r.breakdown, text


def test_a_rankings_year_before_and_its_changes_are_the_codes_figures_not_another_amount() -> None:
    """A ranking of categories by their change against the year before states each one's amount before and its
    change: a model sentence giving the pick's amount a year earlier ("from $10,435 million to $7,168 million"),
    or its change in percent as prose rounds it ("down 31%"), gives the code's figures; an amount the code never
    stated is still folded, and a percent's digits in another scale ("$31 thousand") are no percent."""
    from asking import resolve
    from test_formulas import table

    from engine.ask.cells import TableSource
    from engine.ask.compose import one_voice
    from engine.ask.decisions import Work
    from engine.ask.verdicts import BreakdownRankingVerdict
    from engine.periods import Calendar

    cal = Calendar(12, 31)
    sales = table("Net sales by category (in millions)", ["2023", "2022"],
                  {"Widgets": [7168.0, 10435.0], "Gadgets": [6670.0, 7646.0], "Services": [20907.0, 19821.0],
                   "Total net sales": [34745.0, 37902.0]})
    tables = [TableSource(1, sales)]
    q = parse("Which Acme product category had the steepest sales decline in 2023, and why?")
    res = resolve(q, tables, cal)
    d = BreakdownRankingVerdict().decide(Work(q, tables, cal, res, [cal]))
    assert d is not None and d.choice == "Widgets", d
    for right in ("Widgets fell 31.3%, from $10,435 million to $7,168 million [1].",
                  "Widgets sales were down 31% from a year ago [1].", "Widget sales fell $3,267 million [1]."):
        assert one_voice(right, q, d, None, res, cal, stated=False).folded == [], right
    for wrong in ("Widgets sales fell $5,000 million [1].", "Widgets sales were $31 thousand lower [1]."):
        assert one_voice(wrong, q, d, None, res, cal, stated=False).folded, wrong


def test_a_model_sentence_repeating_a_quote_is_the_filings_words_not_a_contradiction() -> None:
    """The summary of the quotes repeats the filing's sentence, which gives the quarter's change beside the year's
    ("decreased 12% in the fourth quarter, and 31% for the year"): shown as the quote is, not folded as a figure of
    another period; the same sentence with no quote behind it is the model's and is folded."""
    from asking import resolve
    from test_formulas import table

    from engine.ask.cells import TableSource
    from engine.ask.compose import one_voice
    from engine.ask.decisions import Work
    from engine.ask.verdicts import BreakdownRankingVerdict
    from engine.periods import Calendar
    from engine.types import Quote

    cal = Calendar(12, 31)
    sales = table("Net sales by category (in millions)", ["2023", "2022"],
                  {"Widgets": [7168.0, 10435.0], "Gadgets": [6670.0, 7646.0], "Total net sales": [13838.0, 18081.0]})
    tables = [TableSource(1, sales)]
    q = parse("Which Acme product category had the steepest sales decline in 2023, and why?")
    res = resolve(q, tables, cal)
    d = BreakdownRankingVerdict().decide(Work(q, tables, cal, res, [cal]))
    assert d is not None and d.choice == "Widgets"
    filing = ("Widgets sales decreased 12% in the fourth quarter, and 31% for the year, due to lower demand from "
              "builders.")
    quote = Quote(filing, "ACME_2023_10K", "acme", 30, 3, 3)
    said = f"[3] states that {filing[0].lower()}{filing[1:]}"
    assert one_voice(said, q, d, None, res, cal, stated=False, quoted=[quote]).folded == []
    assert one_voice(said, q, d, None, res, cal, stated=False).folded
    # a sentence of the model's own beside the quote is still read against the code
    assert one_voice("Widgets sales decreased 12% for the year [3].", q, d, None, res, cal, stated=False,
                     quoted=[quote]).folded


def test_a_security_said_registered_that_the_cover_page_does_not_list_is_folded() -> None:
    """The cover page lists every class registered under Section 12(b): a model sentence saying another is
    registered ("commercial paper", "corporate debt securities" read off a fair-value table) contradicts the code's
    list; one naming a listed class, debt in general where a listed class is debt, or denying it, stays."""
    from asking import resolve

    from engine.ask.compose import one_voice
    from engine.ask.decisions import Work
    from engine.ask.verdicts import RegisteredSecurities
    from engine.types import Evidence

    def cover(classes: str) -> Evidence:
        return Evidence(chunk_id=1, doc_id="acme", doc="ACME_2023_10Q", page=1, modality="text", score=1.0,
                        text="Securities registered pursuant to Section 12(b) of the Act: Title of each class Trading "
                             f"Symbol(s) Name of each exchange on which registered {classes} Securities registered "
                             "pursuant to Section 12(g) of the Act: None")

    notes = cover("Common Stock ACME The Nasdaq Stock Market LLC 1.375% Notes due 2024 The Nasdaq Stock Market LLC")
    q = parse("Which debt securities does Acme have registered on an exchange?")
    d = RegisteredSecurities().decide(Work(q, [], None, resolve(q, []), evidence=[notes]))
    assert d is not None and "1.375% Notes due 2024" in d.among, d
    folded = one_voice("Acme has registered commercial paper on the Nasdaq Stock Market LLC [1].", q, d, None,
                       resolve(q, []), None, stated=False)
    assert folded.folded and "says commercial paper is registered" in folded.folded[0], folded
    for kept in ("Acme's 1.375% Notes due 2024 are listed on Nasdaq [1].", "Acme has debt securities registered [1].",
                 "Commercial paper is not registered on any exchange [1]."):
        assert one_voice(kept, q, d, None, resolve(q, []), None, stated=False).folded == [], kept
    stock = cover("Common Stock, par value $.01 per share ACME Nasdaq Global Select Market")
    yes_no = parse("Does Acme have any debt securities registered to trade on a national exchange?")
    none = RegisteredSecurities().decide(Work(yes_no, [], None, resolve(yes_no, []), evidence=[stock]))
    assert none is not None and none.verdict is False
    said = ("The table shows that Acme has debt securities registered to trade on a national exchange, specifically "
            "corporate debt securities [2].")
    assert one_voice(said, yes_no, none, None, resolve(yes_no, []), None, stated=False).folded

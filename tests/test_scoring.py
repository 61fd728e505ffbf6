"""Answer scoring on answer formats as they occur in the dev set (literal examples written here)."""

from __future__ import annotations

import pytest

from mfr_eval.scoring import (
    LLMJudge,
    is_numeric_answer,
    quantities,
    question_scale,
    score_answer,
    structured_numbers,
    token_recall,
)

# (gold, question, prediction, expected correct)
NUMERIC_CASES = [
    ("$1577.00", "What is the FY2018 capital expenditure amount (in USD millions) for 3M?",
     "3M's capital expenditure was $1,577 million in FY2018 [1].", True),
    ("$1577.00", "What is the FY2018 capital expenditure amount (in USD millions) for 3M?",
     "Purchases of PP&E were (1,577) [2].", True),
    ("$1577.00", "What is the FY2018 capital expenditure amount (in USD millions) for 3M?",
     "Capital expenditures were $1.58 billion.", True),
    ("$1577.00", "What is the FY2018 capital expenditure amount (in USD millions) for 3M?",
     "Capital expenditures were $1,373 million in 2017.", False),
    ("$4.60", "What is the FY2021 capital expenditure amount (in USD billions) for PepsiCo?",
     "PepsiCo spent $4,625 million on capital expenditures [1].", True),
    ("$59,339 million", "What was the total revenue of Goldman Sachs in 2021?",
     "Total net revenues were $59.34 billion in 2021 [3].", True),
    ("$59,339 million", "What was the total revenue of Goldman Sachs in 2021?",
     "Total net revenues were $59,339 million.", True),
    ("$59,339 million", "What was the total revenue of Goldman Sachs in 2021?",
     "Total net revenues were $44,560 million.", False),
    ("€6,236 thousand", "How much cash did BMW Finance N.V. have at the beginning of the year?",
     "Cash at the beginning of the year was EUR 6,236 thousand.", True),
    ("146,657 thousand euros", "How much Taxes did BMW pay in 2022?", "BMW paid €146.7 million in taxes.", True),
    ("€ 4,978 million", "What was the profit from continuing operations for the BMW Group in 2019?",
     "Profit from continuing operations was €4,978 million [1]", True),
    ("($431 million)", "What was the net change related to Alphabet's cash flow hedges?",
     "The net change was -$431 million.", True),
    ("($431 million)", "What was the net change related to Alphabet's cash flow hedges?",
     "The net change was a loss of $431 million.", True),
    ("1.9%", "What is the FY2017 - FY2019 3 year average of capex to revenue ratio?", "About 1.87% [1][2].", True),
    ("1.9%", "What is the FY2017 - FY2019 3 year average of capex to revenue ratio?", "The average was 2.4%.", False),
    ("5.03%", "what is R&D to asset ratio for Activision Blizzard in FY 2019?", "The ratio is 0.0503.", True),
    ("0.109", "what is Amazon's FY2017 return on equity? round your answer to three decimal",
     "Return on equity was 10.9%.", True),
    (" 12.35", "What is receive turnover in FY2021 for Nike? Round your answer to two decimal places.",
     "Receivables turnover is 12.35x.", True),
    ("0.263 ", "what is Return on Capital Employed for the fiscal year ending January 28, 2023?",
     "ROCE = 0.26", True),
    ("24.26", "What is the FY2019 fixed asset turnover ratio for Activision Blizzard?",
     "The fixed asset turnover ratio is 24.3.", True),
    ("3.46", "what is the FY2021 inventory turnover ratio for Nike? Round to two decimal places.",
     "Inventory turnover was 3.64.", False),
    ("7", "How many charts and tables in this report are sourced from Annual totals of Pew data?",
     "There are 7 such charts and tables [1].", True),
    ("7", "How many charts and tables in this report are sourced from Annual totals of Pew data?",
     "There are 6 such charts [7].", False),
    ("0", "what value stock does Activsion Blizzard repurchase in FY2019? Answer in USD billion",
     "Activision Blizzard repurchased $0 of stock in FY2019.", True),
    ("300 million", "On the chart showing average exit cap, what is the value?", "It is $300M.", True),
    ("$8.70", "What is 3M's FY2018 net PP&E in USD billions?", "Net PP&E was $8,738 million [1].", True),
]


@pytest.mark.parametrize("gold,question,prediction,expected", NUMERIC_CASES)
def test_numeric_answers(gold: str, question: str, prediction: str, expected: bool) -> None:
    s = score_answer(prediction, gold, question=question)
    assert s.scorer == "numeric", s
    assert s.correct is expected, s


@pytest.mark.parametrize(
    "gold",
    ["$1577.00", "$59,339 million", "€ 4,978 million", "146,657 thousand euros", "($431 million)", "5.03%",
     " 12.35", "0.263 ", "7", "300 million", "€6,236 thousand"],
)
def test_numeric_answer_forms_are_recognised(gold: str) -> None:
    assert is_numeric_answer(gold)


@pytest.mark.parametrize(
    "gold",
    ["Corporate & Investment Bank. Its net income was $3725 million.", "Europe IPO", "[14, 15, 16]",
     "United States, EMEA, APAC, and LACC"],
)
def test_non_numeric_answer_forms(gold: str) -> None:
    assert not is_numeric_answer(gold)


def test_quantities_units_signs_and_labels() -> None:
    qs = quantities("In FY2021 (Q3) revenue was $4.6B, down (12.5%) from 10-K item; margin 36.8 percent")
    raws = [(q.value, q.scale, q.percent) for q in qs]
    assert (4.6, 1e9, False) in raws
    assert (-12.5, 1.0, True) in raws
    assert (36.8, 1.0, True) in raws
    assert all(q.value != 2021 for q in qs), "FY2021 is a label"
    assert all(q.value != 3 for q in qs), "Q3 is a label"


def test_question_scale() -> None:
    assert question_scale("What is the capex (in USD millions) for 3M?") == 1e6
    assert question_scale("Answer in USD billion") == 1e9
    assert question_scale("How much did Alphabet spend on R&D?") == 1.0


STRUCTURED_FINRAG = {
    "answers": [
        {"main_question": "39290.0", "currency": "USD", "unit": "millions", "year": 2023, "duration": "12"},
        {"main_question": "36602.0", "currency": "USD", "unit": "millions", "year": 2022, "duration": "12"},
        {"main_question": "35667.0", "currency": "USD", "unit": "millions", "year": 2021, "duration": "12"},
    ],
    "sources": [278],
}
STRUCTURED_REVENUES = [
    {"main question": "25.4", "meta0": "billions", "meta1": "EUR", "meta2": "2021-12-31", "meta3": "12"},
    {"main question": "24.0", "meta0": "billions", "meta1": "EUR", "meta2": "2020-12-31", "meta3": "12"},
]


def test_structured_every_gold_number_present() -> None:
    pred = "Revenues were $39,290 million (2023), $36,602 million (2022) and $35,667 million (2021), USD millions."
    s = score_answer(pred, "{...}", gold_structured=STRUCTURED_FINRAG)
    assert s.scorer == "structured" and s.correct and s.score == 1.0


def test_structured_partial_credit() -> None:
    s = score_answer("Revenue was 39,290 in 2023 [1].", "{...}", gold_structured=STRUCTURED_FINRAG)
    assert s.scorer == "structured" and not s.correct
    assert s.score == pytest.approx(1 / 3)
    assert "missing" in s.detail


def test_structured_scale_from_unit() -> None:
    assert [q.value for q, _ in structured_numbers(STRUCTURED_REVENUES)] == [25.4, 24.0]
    pred = "Total revenues: EUR 25,400 million for 2021 and EUR 24,000 million for 2020 (12 months each)."
    assert score_answer(pred, "[...]", gold_structured=STRUCTURED_REVENUES).correct


def test_list_answers() -> None:
    s = score_answer("ProgramFC scores 64.3, 62.4 and 62.2 F1.", "['64.3', '62.4', '62.2']")
    assert s.scorer == "list" and s.correct
    s = score_answer("XL and GameQQ.net", "['XL', 'Kotakgame.com', 'GameQQ.net']")
    assert s.scorer == "list" and not s.correct and s.score == pytest.approx(2 / 3)
    assert score_answer("Slides 14 to 19: 14, 15, 16, 17, 18, 19", "[14, 15, 16, 17, 18, 19]").correct


def test_short_text_by_token_overlap() -> None:
    s = score_answer("The second largest operator is XL [2].", "XL", question="What is the name of the operator?")
    assert s.scorer == "text_overlap" and s.correct
    assert score_answer("Europe's IPO index was greater.", "Europe IPO").correct
    assert not score_answer("The US IPO index was greater.", "Europe IPO").correct
    assert score_answer(
        "It records them at the lower of cost or net realizable value.", "the lower of cost or net realizable value"
    ).correct
    assert token_recall("United States, EMEA, APAC, and LACC", "It operates in the United States and EMEA") == 0.6


def test_yes_no_answers() -> None:
    q = "Does Adobe have an improving operating margin profile as of FY2022?"
    gold = "No the operating margins of Adobe have recently declined from 36.8% in FY 2021 to 34.6% in FY2022."
    s = score_answer("No. Operating margin fell to 34.6% [1].", gold, question=q)
    assert s.scorer == "yes_no" and s.correct
    assert not score_answer("Yes, margins improved.", gold, question=q).correct
    assert score_answer("Yes, PP&E rose [3].", "Yes, change in PPNE was positive year over year",
                        question="Did Pfizer grow its PPNE between FY20 and FY21?").correct


def test_long_text_needs_words_and_numbers() -> None:
    gold = "The effective tax rate of Corning has changed from 20% in FY2021 to 23% in FY 2022."
    q = "How much has the effective tax rate of Corning changed between FY2021 and FY2022?"
    good = "Corning's effective tax rate changed from 20% in FY2021 to 23% in FY2022 [1]."
    bad = "Corning's effective tax rate changed from 18% in FY2021 to 21% in FY2022 [1]."
    assert score_answer(good, gold, question=q).correct
    assert not score_answer(bad, gold, question=q).correct


def test_refusals() -> None:
    s = score_answer("Insufficient information: the sources do not give it.", "Not answerable")
    assert s.scorer == "refusal" and s.correct
    assert not score_answer("Revenue was $5 million.", "Not answerable").correct
    assert score_answer("Revenue was $5 million.", "$5 million", unanswerable=True, refused=False).correct is False
    wrong = score_answer("Insufficient information: no cash flow statement.", "$1577.00")
    assert not wrong.correct
    assert score_answer("", "$1577.00").scorer == "empty"


class _FakeLLM:
    name = "fake"

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.prompts: list[str] = []

    def chat(self, messages, max_tokens=4, temperature=0.0, **_):  # type: ignore[no-untyped-def]
        from engine.models.protocols import Generation

        self.prompts.append(messages[-1].content)
        return Generation(text=self.reply)


def test_judge_used_for_long_answers_only() -> None:
    judge = LLMJudge(_FakeLLM("YES, same facts"))
    gold = ("Operating Margin for 3M in FY2022 has decreased by 1.7% primarily due to a decrease in gross margin and "
            "one-off charges including Combat Arms Earplugs litigation")
    s = score_answer("Margins fell because of litigation charges.", gold, question="What drove it?", judge=judge)
    assert s.scorer == "judge" and s.correct
    assert score_answer("$1,577 million", "$1577.00", judge=judge).scorer == "numeric"
    unsure = LLMJudge(_FakeLLM("maybe"))
    assert score_answer("Margins fell.", gold, judge=unsure).scorer == "text_overlap"


def test_a_yes_no_question_that_opens_with_a_phrase_is_scored_as_yes_no() -> None:
    # the engine's reading of "asks yes or no" decides, so rewording the question cannot change the score
    gold = "No, the operating margin declined from 36.8% to 34.6%."
    for question in ("Is the operating margin improving as of FY2022?",
                     "As of FY2022, is the operating margin improving?",
                     "Between FY2021 and FY2022, did the operating margin improve?"):
        right = score_answer("No. It went from 36.76 to 34.64.", gold, question=question)
        wrong = score_answer("Yes. It went from 36.76 to 34.64.", gold, question=question)
        assert (right.scorer, right.correct, wrong.correct) == ("yes_no", True, False), question


def test_an_answer_across_filings_is_scored_after_its_scope_header() -> None:
    head = "4 filings: AAPL 10-Q Q3 FY2022, Q1 FY2023, Q2 FY2023, Q3 FY2023\nAAPL 10-Q/A used, not x (restated)\n\n"
    question = "Does Apple report any significant new business acquisitions in these 10-Qs?"
    assert score_answer(head + "No.", "No, Apple does not report any.", question=question).correct
    assert not score_answer(head + "Yes.", "No, Apple does not report any.", question=question).correct
    # a header is only the scope's: a table that follows it is the answer and is scored
    table = "4 filings: MMM 10-K FY2016, FY2017, FY2018\nMMM 10-K FY2018 | FY2018 | $1,577 million | p. 60 [1]"
    assert score_answer(table, "$1577.00", question="What was 3M's capex in FY2018?").correct


def test_a_structured_golds_unit_may_carry_its_currency() -> None:
    gold = [{"main_question": "5854430.0", "unit": "USD thousands"},
            {"main_question": "17606.0", "unit": "USD millions"}]
    assert [scale for _, scale in structured_numbers(gold)] == [1e3, 1e6]
    said = "5,854,430 thousand in FY2016 and 17,606,000 thousand in FY2022"
    assert score_answer(said, "", gold_structured=gold).correct

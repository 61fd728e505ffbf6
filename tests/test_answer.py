"""Answers with a fake LLM: events, citations, number checks, refusals, parts and fusion, computations, cancel."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

import pytest
from asking import check_numbers, compute, decided, q, resolve
from fakes_models import FakeLLM
from test_formulas import table
from test_retrieve_lib import INCOME_TABLE, acme_docs, build_library

from engine.ask.answer import Answerer
from engine.ask.cells import TableSource
from engine.ask.prompt import SYSTEM_PROMPT
from engine.ask.question import Intent, parse
from engine.errors import Cancelled
from engine.numbers import quantities, same_number
from engine.types import AnswerFinished, CellsResolved, Document, Evidence, RetrievalDone, TokenStreamed


def run(lib, question: str, scope=None, cancelled=None, **changes):  # type: ignore[no-untyped-def]
    settings = lib.settings.with_(**changes)
    retriever = lib.retriever(**changes)
    return list(Answerer(settings, lib.models).answer(question, retriever, scope=scope, cancelled=cancelled))


def test_events_in_order_with_citations_and_checks(tmp_path: Path) -> None:
    llm = FakeLLM(lambda msgs: "Total revenue was $1,234 million in 2023 [1], up from $1,100 million [1]; "
                                "about $999 million came from nowhere.")
    lib = build_library(tmp_path, acme_docs(), llm=llm)
    events = run(lib, "What was Acme's total revenue in FY2023?", routing=True, hybrid=False, top_k=1)
    assert isinstance(events[0], RetrievalDone)
    assert any(isinstance(e, TokenStreamed) for e in events)
    final = events[-1]
    assert isinstance(final, AnswerFinished)
    a = final.answer
    assert a.citations and a.citations[0].doc == "ACME_2023_10K" and a.citations[0].page == 2
    found = {c.value: c.found for c in a.checks}
    # no table among the evidence: the numbers the cited text states count as found
    assert found["$1,234 million"] and found["$1,100 million"] and not found["$999 million"]
    assert not a.refused and a.tier in {"text", "text+tables+figures"}
    assert llm.prompts[0][0].content == SYSTEM_PROMPT
    data = a.to_json()
    assert {"tier", "citations", "checks", "refused", "computation"} <= set(data)


def test_table_json_and_description_in_context_and_cells_verify_numbers(tmp_path: Path) -> None:
    llm = FakeLLM(lambda msgs: "Gross profit was 512 [1].")
    lib = build_library(tmp_path, acme_docs(), llm=llm)
    events = run(lib, "gross profit table", scope=["acme2023aaaa"], theta_text=0.99, theta_table=0.0, hybrid=False,
                 top_k=1)
    prompt = llm.prompts[0][1].content
    # no period asked: the resolved row's cell comes first, and the table with every period after it
    assert prompt.startswith("Cells:\n[1] Gross profit | 2023")
    assert "Table JSON:" in prompt and '"Gross profit","512","440"' in prompt and "Description:" in prompt
    a = events[-1].answer
    assert a.checks and all(c.found for c in a.checks)


def test_refusal_lists_what_was_searched(tmp_path: Path) -> None:
    llm = FakeLLM(lambda msgs: "Insufficient information: the sources do not give the CEO's age.")
    lib = build_library(tmp_path, acme_docs(), llm=llm)
    a = run(lib, "How old is Globex's CEO?")[-1].answer
    assert a.refused and a.checks == []
    assert "Searched: tier" in a.text and "thresholds" in a.text and "routed" in a.text
    assert a.searched["tier"] == a.tier and a.searched["documents"]


def test_answers_in_parts_and_fuses_when_context_exceeds_budget(tmp_path: Path) -> None:
    only_revenue = []

    def reply(msgs):  # type: ignore[no-untyped-def]
        user = msgs[-1].content
        if only_revenue and "$1,234" not in user:
            return "Insufficient information: nothing relevant."
        if user.startswith("The sources were too long"):
            cited = " ".join(re.findall(r"\[\d+\]", user))
            return f"Revenue was $1,234 million and restricted cash $57 million {cited}."
        marker = re.search(r"^\[(\d+)\]", user.split("Sources:\n", 1)[1]).group(1)
        if "Restricted cash held" in user:
            return f"Restricted cash was $57 million [{marker}]."
        if "$1,234" in user:
            return f"Revenue was $1,234 million [{marker}]."
        return "Insufficient information: nothing relevant."

    llm = FakeLLM(reply)
    lib = build_library(tmp_path, acme_docs(), llm=llm)
    events = run(lib, "revenue and restricted cash", scope=["acme2023aaaa"], context_tokens=25, hybrid=False,
                 theta_text=0.0, min_text_hits=1, statement_channel=False, fuse_parts=True)
    a = events[-1].answer
    assert len(llm.prompts) >= 3  # parts, then the fusion
    assert a.timings["parts"] == len(llm.prompts)
    assert {c.page for c in a.citations} == {2, 4}
    assert all(c.found for c in a.checks)

    # by default the parts are tried best evidence first and the first that answers is kept
    llm.prompts.clear()
    only_revenue.append(True)
    a = run(lib, "revenue and restricted cash", scope=["acme2023aaaa"], context_tokens=25, hybrid=False,
            theta_text=0.0, min_text_hits=1, statement_channel=False)[-1].answer
    answered = [i for i, p in enumerate(llm.prompts) if not reply(p).startswith("Insufficient")]
    assert len(llm.prompts) >= 2
    assert answered == [len(llm.prompts) - 1]  # every earlier part found nothing
    assert not any(p[-1].content.startswith("The sources were too long") for p in llm.prompts)
    assert a.timings.get("parts", 1) == len(llm.prompts) and not a.refused
    assert {c.page for c in a.citations} == {2} and all(c.found for c in a.checks)


def test_no_evidence_refuses_without_the_model(tmp_path: Path) -> None:
    class Nothing:
        store = None

        def retrieve(self, question, scope=None, k=None):  # type: ignore[no-untyped-def]
            from engine.types import Retrieval

            return Retrieval(question=question, evidence=[], tier="text", scope=["d1"], thresholds={"text": 0.5})

        def ready_documents(self):  # type: ignore[no-untyped-def]
            return []

    lib = build_library(tmp_path, [])
    events = list(Answerer(lib.settings, lib.models).answer("anything", Nothing()))
    a = events[-1].answer
    assert a.refused and "no evidence" in a.text and lib.llm.prompts == []


def test_cancel_stops_the_answer(tmp_path: Path) -> None:
    lib = build_library(tmp_path, acme_docs())
    with pytest.raises(Cancelled):
        run(lib, "revenue", cancelled=lambda: True)


def test_growth_ratio_and_difference_computed_from_cells() -> None:
    tables = [TableSource(3, INCOME_TABLE)]
    g = compute("What was the revenue growth from 2022 to 2023?", tables)
    assert g is not None and g.kind == "growth" and abs(g.result - 12.1818) < 1e-3
    assert "1,234 [3]" in g.text and "12.18%" in g.text
    m = compute("What was the gross margin in 2023?", tables)
    assert m is not None and m.kind == "formula" and abs(m.result - 41.4911) < 1e-3
    assert [(x.label, x.column) for x in m.cells] == [("Gross profit", "2023"), ("Revenue", "2023")]
    c = compute("What is the current ratio for 2022?", tables)
    assert c is not None and abs(c.result - 1.6) < 1e-9 and c.text.startswith("800 / 500 = 1.60")
    # without a year the named ratio reads the first column
    r = compute("What is the gross margin?", tables)
    assert r is not None and r.kind == "formula" and abs(r.result - 41.4911) < 1e-3
    assert [(x.label, x.column) for x in r.cells] == [("Gross profit", "2023"), ("Revenue", "2023")]
    d = compute("What was the change in revenue between 2022 and 2023 in millions?", tables)
    assert d is not None and d.kind == "difference" and d.result == 134
    assert compute("What was the revenue growth from 2020 to 2021?", tables) is None
    assert compute("Who is the CEO?", tables) is None


def test_computation_reaches_the_prompt_and_the_answer(tmp_path: Path) -> None:
    llm = FakeLLM(lambda msgs: "Revenue grew 12.18% [1].")
    lib = build_library(tmp_path, acme_docs(), llm=llm)
    a = run(lib, "What was the revenue growth from 2022 to 2023?", scope=["acme2023aaaa"], theta_text=0.99,
            theta_table=0.0, top_k=3)[-1].answer
    assert "Computed:" in llm.prompts[0][1].content
    assert a.computation.endswith("(Revenue, 2023 vs 2022)")
    assert [c for c in a.checks if c.value.startswith("12.18")][0].where == "computed"


def test_a_computed_result_the_model_left_out_is_shown_in_the_answer(tmp_path: Path) -> None:
    llm = FakeLLM(lambda msgs: "Gross margin was about 50% [1].")
    lib = build_library(tmp_path, acme_docs(), llm=llm)
    events = run(lib, "What was the gross margin in 2023?", scope=["acme2023aaaa"], theta_text=0.99, theta_table=0.0,
                 top_k=3)
    a = events[-1].answer
    # the computation is shown before the model speaks, and heads the answer
    shown = [e for e in events if isinstance(e, CellsResolved)]
    assert shown and shown[0].text.startswith("Computed from the cited cells: 512 / 1,234 * 100 = 41.49%")
    assert a.text.startswith("Computed from the cited cells: 512 / 1,234 * 100 = 41.49%")
    assert a.text.count("41.49%") == 1
    # the model's own figure for the metric contradicts the computation: kept apart, marked, not part of the answer
    assert "50%" not in a.text and a.contradicted and a.contradicted[0].startswith("Gross margin was about 50% [1].")
    assert "not the code's" in a.contradicted[0] and "contradicted" in a.text
    found = {c.value: (c.found, c.where) for c in a.checks}
    assert found["41.49%"] == (True, "computed")
    # a model that uses the result gets no second copy of it
    llm.reply = lambda msgs: "Gross margin was 41.49% [1]."
    a = run(lib, "What was the gross margin in 2023?", scope=["acme2023aaaa"], theta_text=0.99, theta_table=0.0,
            top_k=3)[-1].answer
    assert a.text.count("41.49%") == 2 and not a.text.count("Computed from") > 1


def test_number_matching_precision_and_scale() -> None:
    assert same_number(quantities("$1.58 billion")[0], 1577.0)
    assert same_number(quantities("1,577")[0], 1577.0)
    assert not same_number(quantities("1,578")[0], 1577.0)
    ev = [Evidence(1, "d", "D", 3, "text", 0.5, "Capex was $1,577 million in 2018.")]
    checks = check_numbers("Capex was $1.6 billion in 2018 [1], 3 items.", ev)
    assert [(c.value, c.found) for c in checks] == [("$1.6 billion", True)]


def test_the_count_a_how_many_question_asks_is_checked_where_a_source_states_it() -> None:
    # a chart report: small numbers are everywhere (notes, pages), none of them a count of line plots
    ev = [Evidence(1, "d", "D", 4, "text", 0.5, "Note 2. Line plots show the trend; see page 6 and figure 2."),
          Evidence(2, "d", "D", 9, "text", 0.5, "Among them, 10 big data vendors exceeded $250M in 2013.")]
    made_up = check_numbers("There are 2 line plots in this report [1].", ev, question="How many line plots are in "
                            "this report?")
    assert [(c.value, c.found, c.status) for c in made_up] == [("2", False, "missing")]
    assert "count no cited source states" in made_up[0].note
    stated = check_numbers("According to [2], 10 vendors had revenues over $250M in 2013.", ev,
                           question="How many vendors have big data revenues over $250M?")
    assert [(c.value, c.found, c.where) for c in stated] == [("10", True, "D p.9"), ("$250M", True, "D p.9")]
    # the same small numbers in an answer to a question that counts nothing are not figures to check
    assert check_numbers("Line plots are in section 2 [1].", ev, question="Where are the line plots?") == []


def test_a_quoted_sentences_figure_in_their_summary_is_no_other_cell() -> None:
    """Where cells were resolved but none stated, a figure the cited text states is flagged as not the cell asked;
    in a summary of quoted sentences, a figure one of them states is found (the summary check judges what it is
    told for); a figure only another passage states stays flagged."""
    from engine.ask.cells import Cell, Resolution
    from engine.periods import Period, asked_period

    ev = [Evidence(1, "d", "D", 18, "text", 0.5, "Revenue allocated to remaining performance obligations was $896 "
                   "million as of October 29, 2023. We expect to recognize approximately 42% of this revenue over "
                   "the next twelve months."),
          Evidence(2, "d", "D", 12, "text", 0.5, "The effect of this change was a benefit of $24 million.")]
    cell = Cell(1, "D", 9, None, "Deferred revenue", "Oct 29, 2023", "$ 354", 354.0, 1e6, False,
                Period(None, 2023, None, instant=True), "deferred revenue", 0.6, 0.9)
    res = Resolution(asked=asked_period("October 29, 2023"), cells=[cell])
    told = "Revenue allocated to remaining performance obligations was $896 million [1]; $24 million [2]."
    quoted = ["Revenue allocated to remaining performance obligations was $896 million as of October 29, 2023."]
    plain = check_numbers(told, ev, resolution=res)
    assert [(c.value, c.found) for c in plain] == [("$896 million", False), ("$24 million", False)]
    summary = check_numbers(told, ev, resolution=res, quoted=quoted)
    assert [(c.value, c.found) for c in summary] == [("$896 million", True), ("$24 million", False)]


def test_a_figure_the_answer_works_out_from_its_found_figures_is_not_flagged() -> None:
    ev = [Evidence(1, "d", "D", 3, "text", 0.5, "Median exit valuation: USA $236 million; Europe $173 million.")]
    checks = check_numbers("The USA's was $236 million [1] and Europe's $173 million [1]: $63 million more.", ev)
    assert [(c.value, c.found, c.status) for c in checks] == [
        ("$236 million", True, "in_text"), ("$173 million", True, "in_text"), ("$63 million", True, "derived")]
    assert checks[2].note == "worked out in the answer: $236 million - $173 million"
    grew = check_numbers("It rose from $173 million to $236 million [1], up 36.4%.", ev)
    assert grew[-1].status == "derived" and "x 100" in grew[-1].note
    # a figure no step of the found ones gives stays flagged; so does one worked out from a figure not found
    assert check_numbers("USA $236 million [1], Europe $173 million [1], gap $70 million.", ev)[-1].status == "missing"
    made_up = check_numbers("USA $250 million [1], Europe $173 million [1], gap $77 million.", ev)
    assert [c.status for c in made_up] == ["missing", "in_text", "missing"]


def test_ask_json_has_tier_citations_checks_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from engine import Engine
    from mfr_tui.cli import cmd_ask

    lib = build_library(tmp_path, acme_docs(), llm=FakeLLM(lambda msgs: "Revenue was $1,234 million [1]."))
    engine = Engine(lib.settings, lib.models)
    args = argparse.Namespace(question="Acme revenue 2023", doc=None, k=3, json=True, no_history=True)
    assert cmd_ask(engine, args) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"tier", "citations", "checks", "refused"} <= set(data)
    # pages 1-2 state the revenue; page 5 is the income statement the statement channel adds
    assert data["refused"] is False and data["citations"][0]["page"] in {1, 2, 5}
    engine.close()


def test_question_about_another_company_refuses_without_the_model(tmp_path: Path) -> None:
    lib = build_library(tmp_path, acme_docs())
    a = run(lib, "How many people does Globex employ?", scope=["ACME_2023_10K"])[-1].answer
    assert a.refused and "about globex" in a.text and "ACME_2023_10K" in a.text
    assert lib.llm.prompts == []
    ok = run(lib, "How many people does Globex employ?", scope=["GLOBEX_2023_10K"])[-1].answer
    assert not ok.refused and lib.llm.prompts


def test_an_answer_without_markers_gets_sources_matched_by_its_numbers(tmp_path: Path) -> None:
    llm = FakeLLM(lambda msgs: "Total revenue was $1,234 million in 2023; about $999 million came from nowhere.")
    lib = build_library(tmp_path, acme_docs(), llm=llm)
    a = run(lib, "What was Acme's total revenue in FY2023?", routing=True, hybrid=False, top_k=3)[-1].answer
    assert not a.refused and a.citations and all(c.inferred for c in a.citations)
    holder = a.evidence[a.citations[0].marker - 1]
    assert (holder.doc, holder.page) == ("ACME_2023_10K", 2) and "1,234" in holder.text
    found = {c.value: c.found for c in a.checks}
    assert found == {"$1,234 million": True, "$999 million": False}

    # an answer with its own markers keeps them; nothing is inferred
    lib.llm.reply = lambda msgs: "Total revenue was $1,234 million [1]."
    a = run(lib, "What was Acme's total revenue in FY2023?", routing=True, hybrid=False, top_k=3)[-1].answer
    assert [c.inferred for c in a.citations] == [False]



def test_a_company_outside_the_library_named_in_the_possessive_is_refused(tmp_path: Path) -> None:
    assert q("Did JnJ's net earnings rise?").possessives == ()  # too short to judge by mentions
    assert q("Where are Apple's plants located?").possessives == ("Apple",)
    assert q("What is the Company's revenue?").possessives == ()
    lib = build_library(tmp_path, acme_docs())
    a = run(lib, "Where are Initech's plants located?", scope=["acme2023aaaa"])[-1].answer
    assert a.refused and "about Initech" in a.text and lib.llm.prompts == []
    # the filing's own company, or a name the filing mentions, goes to the model
    ok = run(lib, "What are Acme's risk factors about specialty steel suppliers?", scope=["acme2023aaaa"])[-1].answer
    assert not ok.refused and lib.llm.prompts


RATES = {
    "title": "Consolidated Statements of Income", "units": "$ in millions", "columns": ["2022", "2021", "2020"],
    "rows": [
        {"label": "Net sales", "values": ["1,300", "1,200", "1,000"], "numbers": [1300.0, 1200.0, 1000.0]},
        {"label": "Cost of sales", "values": ["1,014", "924", "790"], "numbers": [1014.0, 924.0, 790.0]},
        {"label": "Gross profit", "values": ["286", "276", "210"], "numbers": [286.0, 276.0, 210.0]},
        {"label": "Income before income taxes", "values": ["200", "180", "150"], "numbers": [200.0, 180.0, 150.0]},
        {"label": "Provision for income taxes", "values": ["46", "36", "30"], "numbers": [46.0, 36.0, 30.0]},
        {"label": "Effective tax rate", "values": ["23%", "20%", "20%"], "numbers": [23.0, 20.0, 20.0]},
        {"label": "Net earnings from continuing operations", "values": ["160", "150", "125"],
         "numbers": [160.0, 150.0, 125.0]},
        {"label": "Net earnings", "values": ["154", "144", "120"], "numbers": [154.0, 144.0, 120.0]},
    ],
}


def test_change_of_a_ratio_between_two_years_uses_the_reported_rate() -> None:
    tables = [TableSource(2, RATES)]
    c = compute("How much has the effective tax rate changed between FY2021 and FY2022?", tables)
    assert c is not None and c.kind == "change" and c.result == pytest.approx(3.0)
    assert "as reported" in c.text and "+3.00 percentage points" in c.text
    # one year: the filing's own rate, not provision / pretax income (46 / 200 = 23.0% here too, by design)
    one = compute("What was the effective tax rate in FY2021?", tables)
    assert one is not None and one.result == 20.0 and "as reported" in one.text
    # the row carries one name of the ratio, the question another
    other = compute("How much did the effective income tax rate change between FY2021 and FY2022?", tables)
    assert other is not None and "as reported" in other.text and other.result == pytest.approx(3.0)
    # a ratio the table does not print is computed at both ends
    g = compute("By how much did the gross margin change from FY2021 to FY2022?", tables)
    assert g is not None and g.result == pytest.approx(286 / 1300 * 100 - 276 / 1200 * 100, abs=1e-4)


def test_cagr_and_the_rounding_the_question_asks_for() -> None:
    tables = [TableSource(2, RATES)]
    c = compute("What is the 2 year net sales CAGR from FY2020 to FY2022? Round to one decimal place.", tables)
    assert c is not None and c.kind == "cagr"
    assert c.result == pytest.approx(((1300 / 1000) ** 0.5 - 1) * 100, abs=1e-4)
    assert c.text.endswith("rounded to 1 decimal place: 14.0%")


def test_net_income_is_not_a_row_that_only_shares_its_words() -> None:
    tables = [TableSource(2, RATES)]
    m = compute("What is the FY2022 net profit margin?", tables)
    assert m is not None and [t.label for t in m.cells] == ["Net earnings", "Net sales"]


def test_consistency_within_a_stated_tolerance_is_decided_in_code() -> None:
    from engine.ask.verdicts import ConsistencyVerdict

    tables = [TableSource(2, RATES)]
    asked = "Are the company's gross margins historically consistent (not fluctuating more than roughly 2% each year)?"
    said = decided(ConsistencyVerdict(), asked, tables)
    # 21.0% -> 23.0% -> 22.0%: the largest move is 2.0 points
    assert said.startswith("Yes. The largest change from one year to the next is +2.00 percentage points")
    tight = asked.replace("2%", "1%")
    assert decided(ConsistencyVerdict(), tight, tables).startswith("No.")
    assert decided(ConsistencyVerdict(), "Is the gross margin consistent?", tables,
                   resolution=resolve(asked, tables)) == ""


def test_why_questions_get_the_drivers_rule_and_others_do_not() -> None:
    from engine.ask.prompt import DRIVERS_RULE, build_messages

    assert q("What drove operating margin change as of FY2022? If operating margin is not useful, say why.").why
    assert not q("What is the FY2022 inventory turnover? If it is not meaningful, state that and explain why.").why
    msgs = build_messages(q("Why did gross margin fall in 2022?"), ["[1] text"])
    assert DRIVERS_RULE in msgs[1].content
    assert DRIVERS_RULE not in build_messages(q("What was revenue in 2022?"), ["[1] text"])[1].content


def test_a_definition_with_its_own_years_is_one_metric_not_a_change() -> None:
    tables = [TableSource(2, RATES)]
    q = ("What is the FY2022 gross margin ratio? It is defined as: FY2022 gross profit / (change in net sales "
         "between FY2021 and FY2022).")
    c = compute(q, tables)
    assert c is not None and c.kind == "formula" and c.result == pytest.approx(286 / 100)


def test_a_change_as_of_a_year_is_from_the_year_before() -> None:
    tables = [TableSource(2, RATES)]
    c = compute("What drove the gross margin change as of FY2022?", tables)
    assert c is not None and c.kind == "change"
    assert c.result == pytest.approx(286 / 1300 * 100 - 276 / 1200 * 100, abs=1e-4) and "FY2021:" in c.text


def test_a_metric_the_statement_cannot_give_is_said_to_be_unsuited() -> None:
    from engine.ask.verdicts import Unsuited

    bank = {"title": "Consolidated Statements of Income", "columns": ["2022", "2021"], "rows": [
        {"label": "Total revenues net of interest expense", "values": ["52,862", "42,380"],
         "numbers": [52862.0, 42380.0]},
        {"label": "Pretax income", "values": ["9,585", "10,689"], "numbers": [9585.0, 10689.0]},
    ]}
    tables = [TableSource(4, bank, doc="CARD_2022_10K", page=96,
                          heading="CONSOLIDATED STATEMENTS OF INCOME Years ended December 31")]
    asked = ("What drove gross margin change as of FY2022? If gross margin is not a useful metric for a company "
             "like this, then please state that and explain why.")
    said = decided(Unsuited(), asked, tables)
    assert said.startswith("Gross margin is not a useful measure") and "no gross profit line" in said
    assert "(CARD_2022_10K, p. 96) [4]" in said
    # without the question's escape clause, or with the line item there, nothing is said
    assert decided(Unsuited(), "What drove gross margin change as of FY2022?", tables,
                   resolution=resolve(asked, tables)) == ""
    rates = [TableSource(2, RATES, heading="CONSOLIDATED STATEMENTS OF INCOME")]
    assert decided(Unsuited(), asked, rates, computation=None) == ""


def test_a_row_the_question_writes_out_beats_the_vocabularys_name_for_it() -> None:
    earnings = {"title": "Consolidated Statements of Earnings", "columns": ["2021", "2020", "2019"], "rows": [
        {"label": "Total non-interest revenues", "values": ["52,869", "39,809", "40,224"],
         "numbers": [52869.0, 39809.0, 40224.0]},
        {"label": "Total net revenues", "values": ["59,339", "44,560", "36,546"],
         "numbers": [59339.0, 44560.0, 36546.0]},
        {"label": "Net earnings", "values": ["21,635", "9,459", "8,466"], "numbers": [21635.0, 9459.0, 8466.0]},
        {"label": "Net earnings applicable to common shareholders", "values": ["21,151", "8,915", "7,897"],
         "numbers": [21151.0, 8915.0, 7897.0]},
    ]}
    src = [TableSource(1, earnings)]
    assert [c.value for c in resolve("What was the net earnings applicable to common shareholders in 2019?",
                                     src).cells] == [7897.0]
    assert [c.value for c in resolve("What were net earnings in 2019?", src).cells] == [8466.0]
    assert [c.value for c in resolve("What was the total non-interest revenue in 2020?", src).cells] == [39809.0]
    assert [c.value for c in resolve("What were total net revenues in 2020?", src).cells] == [44560.0]


def test_a_row_the_question_writes_out_for_one_measure_is_not_anothers() -> None:
    """"Did cash from operations cover its purchases of property and equipment?" writes out the capex row's label:
    that row is capex's, and cash from operations is its own row, not the row the question writes out."""
    flows = {"title": "Consolidated Statements of Cash Flows", "columns": ["Six Months Ended June 30, 2023",
                                                                           "Six Months Ended June 30, 2022"],
             "rows": [{"label": "Net cash provided by (used in) operating activities", "values": ["21,264", "6,175"],
                       "numbers": [21264.0, 6175.0]},
                      {"label": "Purchases of property and equipment", "values": ["(25,662)", "(27,808)"],
                       "numbers": [-25662.0, -27808.0]}]}
    res = resolve("Did Acme's cash from operations cover its purchases of property and equipment in the six months "
                  "ended June 30, 2023?", [TableSource(1, flows)])
    assert {c.item: c.value for c in res.cells} == {"cash from operations": 21264.0, "capex": -25662.0}, res.cells


def test_an_item_named_with_a_qualifier_that_makes_it_another_is_not_asked() -> None:
    def asked(text: str) -> list[str]:
        return [m.name for m in q(text).measures]

    assert asked("How much cash did the company pay for interest in 2020?") == []
    assert asked("What was the net cash flow from operating activities in 2021?") == []
    assert asked("How much deferred revenue, non-current, was reported in 2021?") == []
    assert asked("What was the basic net income per share in 2021?") == []
    assert asked("How much cash did the company hold at the end of 2020?") == ["cash and cash equivalents"]
    assert sorted(asked("What were revenue and net income in 2021?")) == ["net income", "revenue"]


def test_every_period_shown_states_the_row_in_each_of_its_periods() -> None:
    income = {"title": "Consolidated Statements of Income", "units": "in millions",
              "columns": ["Year Ended December 31 2023", "Year Ended December 31 2022", "Year Ended December 31 2021"],
              "rows": [{"label": "Total sales", "values": ["39,290", "36,602", "35,667"],
                        "numbers": [39290.0, 36602.0, 35667.0]},
                       {"label": "Net income", "values": ["2,051", "1,863", "1,712"],
                        "numbers": [2051.0, 1863.0, 1712.0]}]}
    src = [TableSource(1, income)]
    for said in ("What are the revenues of the company for every period shown?",
                 "What were total revenues in each year presented?",
                 "Give every revenue figure shown with its unit and period."):
        assert [c.value for c in resolve(said, src).cells] == [39290.0, 36602.0, 35667.0], said
    assert [c.value for c in resolve("What were total revenues?", src).cells] == [39290.0]  # one: the newest
    assert [c.value for c in resolve("What were total revenues in 2022?", src).cells] == [36602.0]


def test_of_one_periods_columns_the_one_whose_heading_the_question_says() -> None:
    intangibles = {"title": "Intangible assets", "units": "in millions", "columns": [
        "As of December 31, 2020 Gross Carrying Amount", "As of December 31, 2020 Accumulated Amortization",
        "As of December 31, 2020 Net Carrying Value"],
        "rows": [{"label": "Total intangible assets", "values": ["$5,604", "$4,159", "$1,445"],
                  "numbers": [5604.0, 4159.0, 1445.0]}]}
    src = [TableSource(1, intangibles)]
    for said, want in (("What was the value of intangible assets, net, as of December 31, 2020?", 1445.0),
                       ("What were net intangible assets at the end of 2020?", 1445.0),
                       ("What were gross intangible assets at December 31, 2020?", 5604.0),
                       ("What were intangible assets at December 31, 2020?", 5604.0)):  # none said: the first
        assert [c.value for c in resolve(said, src).cells] == [want], said


def test_a_free_worded_measure_resolves_to_the_label_naming_most_of_it() -> None:
    # the question's words hold all of "Revenues", "Deferred revenue" and "Deferred revenue, non-current"
    sheet = {
        "title": "Consolidated Balance Sheets", "units": "$ in millions", "columns": ["December 31, 2020",
                                                                                     "December 31, 2021"],
        "rows": [
            {"label": "Revenues", "values": ["182,527", "257,637"], "numbers": [182527.0, 257637.0]},
            {"label": "Deferred revenue", "values": ["2,543", "3,288"], "numbers": [2543.0, 3288.0]},
            {"label": "Deferred revenue, non-current", "values": ["481", "535"], "numbers": [481.0, 535.0]},
        ],
    }
    q = "How much did Acme report in deferred revenue, non-current, as of December 31, 2021?"
    res = resolve(q, [TableSource(2, sheet)], None)
    assert [(c.row, c.raw) for c in res.cells] == [("Deferred revenue, non-current", "535")]
    # the model's 3,288 is the current portion: flagged as another row
    checks = check_numbers("Acme reported $3,288 million [2].", [], resolution=res)
    assert [(c.found, c.status) for c in checks] == [(False, "other_row")]


def test_a_metric_the_code_could_not_compute_is_the_models_own_figure_unless_worked_out() -> None:
    ev = [Evidence(1, "d", "D", 3, "text", 0.5, "We operate 34 stores. Receivables 1,200; revenue 9,600.")]
    ccc = "What is the cash conversion cycle in FY2021? Round your answer to two decimal places."
    own = check_numbers("The cash conversion cycle in FY2021 is 34 days [1].", ev, question=ccc)
    assert [(c.value, c.found) for c in own] == [("34", False)]
    assert "could not compute" in own[0].note
    # the same figure for a question that asks for no metric is a number of the text
    assert [c.found for c in check_numbers("It has 34 stores [1].", ev, question="Where does it sell?")] == [True]
    # a result worked out in the answer from found figures stands
    worked = check_numbers("Receivables turn 9,600 / 1,200 = 8.00 times a year [1].", ev, question=ccc)
    assert [(c.value, c.status) for c in worked][-1] == ("8.00", "derived")


def test_a_how_many_question_is_answered_only_by_a_row_that_counts_what_it_asks() -> None:
    from engine.ask.checks import counts_what_is_asked

    staff = {**RATES, "rows": [*RATES["rows"], {"label": "Employees", "values": ["12,500", "11,900",
                                                                                              "11,000"],
                                                "numbers": [12500.0, 11900.0, 11000.0]}]}
    vendors = q("How many vendors had net sales over $1,000 in FY2022?")
    res = resolve(vendors, [TableSource(2, RATES)], None)
    assert res.cells and not counts_what_is_asked(vendors, res)
    staffed = q("How many employees did the company have in FY2022?")
    assert counts_what_is_asked(staffed, resolve(staffed, [TableSource(2, staff)], None))
    sales = q("What were net sales in FY2022?")
    assert counts_what_is_asked(sales, resolve(sales, [TableSource(2, RATES)], None))


def test_a_date_after_every_period_the_filing_reports_is_refused_with_what_it_covers() -> None:
    from datetime import date

    from engine.ask.guards import PeriodGap
    from engine.periods import Calendar, Period

    cal = Calendar(12, 31, periods=(Period(date(2021, 12, 31), 2021, None, instant=True, label="December 31, 2021"),
                                    Period(None, 2020, 12, label="2020")))

    def period_gap(text: str) -> str:
        return decided(PeriodGap(), text, [], cal)

    gap = period_gap("What were total assets as of December 31, 2023?")
    assert gap.startswith("Insufficient information: the question asks about December 31, 2023, after every period")
    assert "the last ends December 31, 2021" in gap
    # a date the filing may state beyond its last period (cover page shares, subsequent events) is not refused
    assert period_gap("How many shares were outstanding as of February 15, 2022?") == ""
    # nor is a plan for a later date
    assert period_gap("What capital expenditure does the company expect for the year ending December 31, 2024?") == ""


def test_a_question_told_in_words_of_the_year_after_the_filing_s_last_is_not_refused() -> None:
    """A filing is written in the year after its last and tells of it (events after the balance sheet date, the
    next year's priorities): a question answered by its sentences about that year is not refused; one about a year
    beyond it is, and so is a figure of the next year."""
    from datetime import date

    from engine.ask.guards import PeriodGap
    from engine.periods import Calendar, Period

    cal = Calendar(12, 31, periods=(Period(date(2022, 12, 31), 2022, 12, label="2022", fiscal_year=2022),
                                    Period(date(2021, 12, 31), 2021, 12, label="2021", fiscal_year=2021)))

    def period_gap(text: str) -> str:
        return decided(PeriodGap(), text, [], cal)

    assert period_gap("What caused the chlorine supply disruption Acme disclosed in fiscal 2023?") == ""
    assert period_gap("What caused the chlorine supply disruption Acme disclosed in fiscal 2025?").startswith(
        "Insufficient information: the filing does not report fiscal 2025")
    assert period_gap("What were Acme's net sales in fiscal 2023?").startswith(
        "Insufficient information: the filing does not report fiscal 2023")


def test_a_period_end_the_filing_does_not_have_is_refused() -> None:
    from datetime import date

    from engine.ask.guards import PeriodGap
    from engine.periods import Calendar, Period

    cal = Calendar(12, 31, periods=(Period(date(2022, 12, 31), 2022, 12, label="Year Ended December 31, 2022"),
                                    Period(date(2021, 12, 31), 2021, 12, label="Year Ended December 31, 2021")))
    gap = decided(PeriodGap(), "What is the return on capital employed for the fiscal year ending January 28, 2023?",
                  [], cal)
    assert gap.startswith("Insufficient information: the filing reports no period ending January 28, 2023")
    assert decided(PeriodGap(), "What were net sales for the year ended December 31, 2022?", [], cal) == ""


def test_a_qualifier_a_few_words_on_still_makes_the_item_another() -> None:
    # "continuing operations" ends 40 characters after "profit": not net income, the row the question writes
    asked = "What was the profit/loss from continuing operations for the Group in 2019?"
    assert [m.name for m in q(asked).measures] != ["net income"]
    group = {"title": "Income statement for group and segments", "units": "in € million",
             "columns": ["2020", "Group 2019"],
             "rows": [{"label": "Profit / loss from continuing operations", "values": ["3,857", "4,978"],
                       "numbers": [3857.0, 4978.0]},
                      {"label": "Net profit / loss", "values": ["3,857", "5,022"], "numbers": [3857.0, 5022.0]}]}
    res = resolve(asked, [TableSource(1, group)], None)
    assert [(c.row, c.raw) for c in res.cells] == [("Profit / loss from continuing operations", "4,978")]
    # the other year's figure the model gave is flagged as such
    checks = check_numbers("It was 3,857 million euros [1].", [], resolution=res)
    assert [(c.found, c.status) for c in checks] == [(False, "other_period")]


BALANCES = {
    "title": "Consolidated Balance Sheets", "units": "$ in millions", "columns": ["2017", "2016"],
    "rows": [{"label": "Total assets", "values": ["131,310", "83,402"], "numbers": [131310.0, 83402.0]},
             {"label": "Net income", "values": ["3,033", "2,371"], "numbers": [3033.0, 2371.0]}],
}


def test_a_metric_with_two_common_definitions_is_flagged_with_the_other(tmp_path: Path) -> None:
    from engine.ask.checks import definition_flag
    from engine.types import Check

    c = compute("What is Acme's FY2017 return on assets? Round your answer to three decimal places.",
                [TableSource(1, BALANCES)])
    assert c is not None and c.result == pytest.approx(3033 / ((131310 + 83402) / 2), abs=1e-4)
    assert "year-end balance it is 0.0231 (3,033 / 131,310)" in c.definition_note
    flagged = definition_flag(Check("0.028", True, "computed", "computed from the cited cells", "computed", 0.028), c)
    assert (flagged.found, flagged.status) == (False, "definition") and "0.0231" in flagged.note
    other = Check("3,033", True, "x p.1", "", "verified", 3033.0)
    assert definition_flag(other, c) is other  # a cell stays verified
    # a question that says which (or defines the metric) gets no second definition
    for said in ("What is Acme's FY2017 return on assets, on average total assets?",
                 "What is FY2017 return on assets, defined as: net income / total assets?"):
        c2 = compute(said, [TableSource(1, BALANCES)])
        assert c2 is not None and c2.definition_note == ""


def test_return_on_capital_employed_and_on_average_equity_are_standard_ratios() -> None:
    table = {**BALANCES, "rows": [*BALANCES["rows"],
                                  {"label": "Total current liabilities", "values": ["57,883", "43,816"],
                                   "numbers": [57883.0, 43816.0]},
                                  {"label": "Operating income", "values": ["4,106", "4,186"],
                                   "numbers": [4106.0, 4186.0]},
                                  {"label": "Total stockholders' equity", "values": ["27,709", "19,285"],
                                   "numbers": [27709.0, 19285.0]}]}
    for said in ("What is Acme's return on capital employed for FY2017?", "Acme's ROCE in fiscal 2017?"):
        c = compute(said, [TableSource(1, table)])
        assert c is not None and c.result == pytest.approx(4106 / (131310 - 57883) * 100, abs=1e-3)
    # "after-tax return on average equity" says which equity: the average, with no second definition
    c = compute("What is the after-tax return on average equity for FY2017?", [TableSource(1, table)])
    assert c is not None and c.result == pytest.approx(3033 / ((27709 + 19285) / 2) * 100, abs=1e-3)
    assert c.definition_note == ""


def test_a_ratio_to_a_bare_balance_word_is_to_its_total() -> None:
    table = {**BALANCES, "rows": [*BALANCES["rows"], {"label": "Research and development", "values": [
        "6,605", "4,300"], "numbers": [6605.0, 4300.0]}]}
    c = compute("What is the R&D to asset ratio in FY2017?", [TableSource(1, table)])
    assert c is not None and c.result == pytest.approx(6605 / 131310, abs=1e-4)
    assert "Total assets" in " ".join(t.label for t in c.cells)


def test_a_table_of_one_segment_comes_after_the_companys_own() -> None:
    segment = {"title": "International Segment", "units": "$ in millions", "columns": ["2022", "2021"],
               "rows": [{"label": "Revenue", "values": ["3,931", "3,969"], "numbers": [3931.0, 3969.0]},
                        {"label": "Gross profit", "values": ["938", "853"], "numbers": [938.0, 853.0]}]}
    group = {**segment, "title": "Consolidated Results",
             "rows": [{"label": "Revenue", "values": ["51,761", "47,262"], "numbers": [51761.0, 47262.0]},
                      {"label": "Gross profit", "values": ["11,640", "10,573"], "numbers": [11640.0, 10573.0]}]}
    tables = [TableSource(1, segment, heading="International Segment"), TableSource(2, group)]
    assert tables[0].segment == "international" and tables[1].segment == ""
    c = compute("What was the gross margin in FY2022?", tables)
    assert c is not None and c.result == pytest.approx(11640 / 51761 * 100, abs=0.01)
    res = resolve("What was revenue in FY2022?", tables, None)
    assert [c.raw for c in res.cells] == ["51,761"]
    # asked about the segment, its table answers
    res = resolve("What was International segment revenue in FY2022?", tables, None)
    assert [c.raw for c in res.cells] == ["3,931"]
    c = compute("What was the International gross margin in FY2022?", tables)
    assert c is not None and c.result == pytest.approx(938 / 3931 * 100, abs=0.01)


def test_a_quoted_phrase_or_figure_the_filing_never_states_is_refused(tmp_path: Path) -> None:
    assert q('How many charts show the "no lean" group?').quoted == (("no lean", False),)
    assert q("Population: (July 2013 est.) 251,160,124, how much").quoted == (("251,160,124", True),)
    assert q("Revenue of $12,345 million").quoted == ()
    lib = build_library(tmp_path, acme_docs())
    lib.store.put_pages("acme2023aaaa", [
        {"page": 2, "width": 612, "height": 792, "has_text": True,
         "text": "Total\nrevenue increased to $1,234 million in 2023. Charts of manufacturing follow."}])
    a = run(lib, 'How many charts show the "no lean" group?', scope=["acme2023aaaa"])[-1].answer
    assert a.refused and "\u201cno lean\u201d" in a.text and lib.llm.prompts == []
    a = run(lib, "Of a population of 251,160,124, what was total revenue?", scope=["acme2023aaaa"])[-1].answer
    assert a.refused and "251,160,124" in a.text
    # a phrase the filing states, even across a line break or with its words apart, goes to the model
    ok = run(lib, 'What does the filing say about "total revenue"?', scope=["acme2023aaaa"])[-1].answer
    assert not ok.refused and lib.llm.prompts
    ok = run(lib, 'How large is the "revenue of manufacturing charts"?', scope=["acme2023aaaa"])[-1].answer
    assert not ok.refused


def test_a_day_asked_of_a_document_with_no_dated_periods_is_refused_unless_it_writes_it() -> None:
    from engine.ask.guards import UndatedGap

    class Pages:
        def __init__(self, text: str) -> None:
            self.text = text

        def mentions_words(self, doc_id: str, words: list[str]) -> bool:
            return " ".join(words).lower() in " ".join(re.findall(r"\w+", self.text.lower()))

    def undated_gap(text: str, pages: Pages) -> str:
        return decided(UndatedGap(), text, store=pages, doc_ids=["deck"])

    roce = "What is the return on capital employed for the fiscal year ending January 28, 2023?"
    gap = undated_gap(roce, Pages("Big data trends: vendors and revenue"))
    assert gap.startswith("Insufficient information: the question asks about January 28, 2023, but the document")
    assert undated_gap(roce, Pages("Results as of Jan 28, 2023 (unaudited)")) == ""
    # a month, not a day: not refused
    assert undated_gap("How did opinions change after July 2020?", Pages("A survey")) == ""


CASH_FLOWS = {
    "title": "Consolidated Statements of Cash Flows", "units": "$ in millions", "scale": 1e6,
    "columns": ["2023", "2022"],
    "rows": [{"label": "Net cash provided by operating activities", "values": ["1,824", "3,252"],
              "numbers": [1824.0, 3252.0]},
             {"label": "Net cash used in investing activities", "values": ["(962)", "(1,372)"],
              "numbers": [-962.0, -1372.0]},
             {"label": "Net cash used in financing activities", "values": ["(1,806)", "(4,297)"],
              "numbers": [-1806.0, -4297.0]}],
}


def test_which_of_the_listed_items_is_largest_is_decided_in_code() -> None:
    from engine.ask.verdicts import RankingVerdict

    tables = [TableSource(2, CASH_FLOWS, heading="Consolidated Statements of Cash Flows")]

    def ranking_verdict(text: str) -> str:
        return decided(RankingVerdict(), text, tables)

    said = ranking_verdict("Among operations, investing, and financing activities, which brought in the most (or "
                           "lost the least) cash flow in FY2023?")
    assert said.startswith("Operations: 1,824") and "the highest of the 3" in said
    assert "investing: -962" in said and "[2]" in said
    said = ranking_verdict("Among operating, investing and financing activities, which lost the most cash in FY2022?")
    assert said.startswith("Financing activities: -4,297") and "the lowest of the 3" in said
    # an item it cannot find, or a question ranking nothing, gets no verdict
    assert ranking_verdict("Among operations, investing, and dividends, which was largest in FY2023?") == ""
    assert ranking_verdict("What was the most important investing activity in FY2023?") == ""


def test_a_label_holding_ratio_or_margin_inside_a_word_keeps_the_tables_scale() -> None:
    table = {**CASH_FLOWS, "rows": [{"label": "Income from operations", "values": ["500"], "numbers": [500.0]},
                                    {"label": "Operating margin", "values": ["5.1"], "numbers": [5.1]}]}
    res = resolve("What was income from operations in FY2023?", [TableSource(1, table)], None)
    assert [(c.row, c.amount) for c in res.cells] == [("Income from operations", 500e6)]


def test_a_change_or_trend_over_the_reported_periods_is_decided_in_code() -> None:
    from engine.ask.verdicts import SeriesVerdict

    quarters = {"title": "Condensed Consolidated Statements of Operations", "units": "$ in millions", "scale": 1e6,
                "columns": ["Three Months Ended July 1, 2023", "Three Months Ended June 25, 2022",
                            "Nine Months Ended July 1, 2023", "Nine Months Ended June 25, 2022"],
                "rows": [{"label": "Total operating expenses", "values": ["13,415", "12,809", "41,491", "38,317"],
                          "numbers": [13415.0, 12809.0, 41491.0, 38317.0]},
                         {"label": "Interest expense", "values": ["(998)", "(719)", "(2,900)", "(2,000)"],
                          "numbers": [-998.0, -719.0, -2900.0, -2000.0]},
                         {"label": "Services", "values": ["21,213", "19,604", "62,886", "58,941"],
                          "numbers": [21213.0, 19604.0, 62886.0, 58941.0]}]}
    tables = [TableSource(1, quarters)]

    def verdict(text: str) -> str:
        return decided(SeriesVerdict(), text, tables)

    # 4.7% is no significant change at 5%, but it is a change
    said = verdict("Has there been any significant change in operating expenses over the reported quarters?")
    assert said.startswith("No. Total operating expenses: 12,809") and "+4.7%" in said
    assert "41,491" not in said  # the nine-month columns are another length of period
    assert verdict("Has there been any change in operating expenses over the reported periods?")[:4] == "Yes."
    # an expense printed in parentheses grows when its amount does
    said = verdict("Has there been a major shift in interest expense over the reported quarters?")
    assert said.startswith("Yes.") and "+38.8%" in said
    # one step is no consistent trend; a segment the row is not gets no verdict
    assert verdict("Can any consistent trends be identified in operating expenses across the reported periods?")[
        :3] == "No."
    assert verdict("Can any trends be identified in the Products segment revenue over the reported periods?") == ""
    assert verdict("What were operating expenses over the reported quarters?") == ""


def test_whether_an_amount_is_positive_or_negative_is_decided_in_code() -> None:
    from engine.ask.verdicts import SignVerdict
    from engine.periods import Calendar

    cal = Calendar(12, 31)  # December year ends: the balance at December 31, 2022 is fiscal 2022's
    sheet = {"title": "Key Balance Sheet Data", "units": "$ in millions", "scale": 1e6,
             "columns": ["December 31, 2022", "December 31, 2021"],
             "rows": [{"label": "Working capital", "values": ["$2,278", "$2,853"], "numbers": [2278.0, 2853.0]}]}
    tables = [TableSource(2, sheet)]
    said = decided(SignVerdict(), "Does the company have positive working capital based on FY2022 data?", tables, cal)
    assert said.startswith("Yes. Working capital: $2,278 million") and said.endswith("positive.")
    assert decided(SignVerdict(), "Did the company have negative working capital at the end of FY2022?", tables,
                   cal).startswith("No.")
    # not a yes/no question
    assert decided(SignVerdict(), "What was working capital in FY2022?", tables, cal) == ""


def test_interest_coverage_divides_by_interest_expense_not_a_net_interest_and_other_line() -> None:
    # "Interest and other expense (income), net" nets interest income and other items against the expense (here
    # an income of 26); the note's gross interest expense is the coverage ratio's denominator.
    income = table("Consolidated Statements of Operations", ["2019", "2018"], {
        "Operating income": [1607.0, 1988.0],
        "Interest and other expense (income), net (Note 18)": [-26.0, 71.0],
        "Net income": [1503.0, 1848.0],
    })
    note = table("Interest and other expense (income), net", ["2019", "2018"], {
        "Interest income": [-79.0, -71.0],
        "Interest expense from debt and amortization of debt discount and deferred financing costs": [90.0, 140.0],
    })
    c = compute("What is the interest coverage ratio in FY2019?", [TableSource(1, income), TableSource(2, note)])
    assert c is not None and c.result == pytest.approx(1607 / 90, abs=1e-2)


def test_days_ratios_average_the_balance_and_name_the_year_end_figure() -> None:
    # DPO, DSO, DIO and the cash conversion cycle on average balances (the textbook form, and the one every dev
    # question that defines or grades them uses), the closing-balance figure given as the other definition
    statements = table("Consolidated Statements", ["2017", "2016"], {
        "Net sales": [177866.0, 135987.0],
        "Cost of sales": [111934.0, 88265.0],
        "Accounts receivable": [13164.0, 8339.0],
        "Inventories": [16047.0, 11461.0],
        "Accounts payable": [34616.0, 25309.0],
    })
    dpo = compute("What is Acme's FY2017 days payable outstanding (DPO)? Round to two decimal places.",
                  [TableSource(1, statements)])
    assert dpo is not None and dpo.result == pytest.approx((34616 + 25309) / 2 / 111934 * 365, abs=1e-2)
    assert "year-end balance it is 112.88" in dpo.definition_note
    # the average and the definition's 365 are the code's arithmetic: an answer quoting them is not flagged
    assert 365.0 in dpo.steps and (34616 + 25309) / 2 in dpo.steps
    ccc = compute("What is the cash conversion cycle in FY2017?", [TableSource(1, statements)])
    expected = ((13164 + 8339) / 2 / 177866 + (16047 + 11461) / 2 / 111934 - (34616 + 25309) / 2 / 111934) * 365
    assert ccc is not None and ccc.result == pytest.approx(expected, abs=1e-2)


def test_an_item_the_filing_does_not_print_is_derived_from_the_ones_it_does() -> None:
    # Amazon-style balance sheet: no "Total liabilities" line, so it is total assets less total equity
    balance = table("Consolidated Balance Sheets", ["2017", "2016"], {
        "Cash and cash equivalents": [20522.0, 19334.0],
        "Total assets": [131310.0, 83402.0],
        "Total current liabilities": [57883.0, 43816.0],
        "Total stockholders' equity": [27709.0, 19285.0],
        "Total liabilities and stockholders' equity": [131310.0, 83402.0],
    })
    c = compute("What is FY2017 cash balance to total liability ratio? Round to three decimal places.",
                [TableSource(1, balance)])
    assert c is not None and c.result == pytest.approx(20522 / (131310 - 27709), abs=1e-3)
    assert "20,522 / (131,310 - 27,709)" in c.text
    # an income statement without a gross profit line: revenue less cost of sales
    lines = {"Net sales": [34229.0, 35355.0], "Cost of sales": [19372.0, 18795.0], "Operating income": [6539.0, 7369.0]}
    income = table("Consolidated Statement of Income", ["2022", "2021"], lines)
    g = compute("What is the FY2022 gross margin?", [TableSource(2, income)])
    assert g is not None and g.result == pytest.approx((34229 - 19372) / 34229 * 100, abs=1e-3)
    # a printed line wins over the derivation
    printed = table("Consolidated Statement of Income", ["2022", "2021"], {**lines, "Gross profit": [14000.0, 16560.0]})
    p = compute("What is the FY2022 gross margin?", [TableSource(2, printed)])
    assert p is not None and p.result == pytest.approx(14000 / 34229 * 100, abs=1e-3)


def test_a_question_without_a_year_gets_the_newest_column_even_when_printed_last() -> None:
    # Amazon's 10-Qs print the older year first ("Three Months Ended March 31, 2022 2023")
    operations = table("Consolidated Statements of Operations",
                       ["Three Months Ended March 31, 2022", "Three Months Ended March 31, 2023"],
                       {"Total net sales": [116444.0, 127358.0], "Operating income": [3669.0, 4774.0]})
    c = compute("What is the operating margin in the latest quarter?", [TableSource(1, operations)])
    assert c is not None and c.result == pytest.approx(4774 / 127358 * 100, abs=1e-3)


def test_product_development_is_research_and_development_and_a_small_ratio_keeps_its_digits() -> None:
    operations = table("Consolidated Statements of Operations", ["2019", "2018"],
                       {"Product development": [998.0, 1101.0], "Total assets": [19845.0, 17890.0]})
    c = compute("What is R&D to asset ratio in FY 2019?", [TableSource(1, operations)])
    assert c is not None and c.result == pytest.approx(998 / 19845, abs=1e-4)
    assert "998 / 19,845 = 0.0503" in c.text  # not "= 0.05": one significant digit of a 5.03% ratio


def test_a_value_the_computation_worked_out_on_the_way_is_the_codes_arithmetic(tmp_path: Path) -> None:
    # an average balance (or a derived total) the model quotes from the computation is not "not found"
    llm = FakeLLM(lambda msgs: "Average current assets were $850 million [1], so the turnover is 1.45 [1].")
    lib = build_library(tmp_path, acme_docs(), llm=llm)
    q = ("What is FY2023 current asset turnover, defined as: revenue / (average total current assets between FY2022 "
         "and FY2023)?")
    a = run(lib, q, scope=["acme2023aaaa"], theta_text=0.99, theta_table=0.0, top_k=3)[-1].answer
    assert "avg(800, 900)" in a.computation
    found = {c.value: (c.found, c.where) for c in a.checks}
    assert found["$850 million"] == (True, "computed") and found["1.45"][0]


def test_one_line_item_set_against_another_is_the_sign_of_their_difference() -> None:
    # "Do current assets exceed current liabilities?" asks whether current assets less current liabilities is
    # positive; "working capital" names that difference (the vocabulary's ratios), so both wordings compute it
    from engine.ask.verdicts import SignVerdict
    from engine.periods import Calendar

    cal = Calendar(12, 31)
    sheet = {"title": "Consolidated Balance Sheets", "units": "$ in millions", "scale": 1e6,
             "columns": ["December 31, 2022", "December 31, 2021"],
             "rows": [{"label": "Total current assets", "values": ["1,250", "1,554"], "numbers": [1250.0, 1554.0]},
                      {"label": "Total current liabilities", "values": ["2,811", "2,418"],
                       "numbers": [2811.0, 2418.0]}]}
    tables = [TableSource(2, sheet)]
    for asked in ("Do the company's current assets exceed its current liabilities based on FY2022 data?",
                  "Does the company have positive working capital at the end of FY2022?",
                  "Were current assets greater than current liabilities at the end of FY2022?"):
        said = decided(SignVerdict(), asked, tables, cal, compute(asked, tables, cal))
        assert said.startswith("No.") and "1,250 - 2,811" in said and said.endswith("negative."), asked
    asked = "Were current liabilities higher than current assets at the end of FY2022?"
    said = decided(SignVerdict(), asked, tables, cal, compute(asked, tables, cal))
    assert said.startswith("Yes.") and "2,811 - 1,250" in said
    asked = "Were current assets less than current liabilities in FY2021?"
    assert decided(SignVerdict(), asked, tables, cal, compute(asked, tables, cal)).startswith("Yes.")


def _row(label: str, *numbers: float) -> dict[str, object]:
    return {"label": label, "values": [f"{n:,.0f}" for n in numbers], "numbers": list(numbers)}


def test_the_largest_line_of_a_balance_sheet_section_is_decided_from_the_statement() -> None:
    """"What was the largest liability on the balance sheet?": the statement's liability lines, current and
    long-term, ranked in the column of the date asked; totals, subtotals, headings and the equity block are none,
    whether the equity comes after the liabilities (a 10-Q) or before them (an IFRS statement whose subtotals sit
    under their blocks); a line named in two blocks is told with its block."""
    from engine.ask.verdicts import SectionRankingVerdict
    from engine.periods import Calendar

    cal = Calendar(12, 31)
    gaap = {"title": "CONSOLIDATED BALANCE SHEETS", "units": "(in millions)", "scale": 1e6,
            "columns": ["December 31, 2022", "June 30, 2023"],
            "rows": [_row("Total current assets", 146791, 155930), _row("Total assets", 462675, 477607),
                     {"label": "Current liabilities:", "values": [], "numbers": []},
                     _row("Accounts payable", 79600, 69481), _row("Unearned revenue", 13227, 14522),
                     _row("Total current liabilities", 155393, 148238), _row("Long-term lease liabilities", 72968,
                                                                             75822),
                     _row("Long-term debt", 67150, 63092), {"label": "Commitments and contingencies (Note 7)",
                                                            "values": [], "numbers": []},
                     _row("Retained earnings", 113618, 123223),
                     _row("Total liabilities and stockholders' equity", 462675, 477607)]}
    tables = [TableSource(1, gaap)]
    said = decided(SectionRankingVerdict(), "What was the largest single liability line on Acme's balance sheet as "
                   "of June 30, 2023?", tables, cal)
    assert said.startswith("Long-term lease liabilities: the highest of the 4 liabilities in the table [1]"), said
    assert "Retained earnings" not in said and "Total" not in said and "72,968" not in said
    said = decided(SectionRankingVerdict(), "Which line was the largest among Acme's current liabilities as of June "
                   "30, 2023?", tables, cal)
    assert said.startswith("Accounts payable: the highest of the 2 current liabilities in the table [1]"), said
    said = decided(SectionRankingVerdict(), "Which non-current liability was the largest at June 30, 2023?", tables,
                   cal)
    assert said.startswith("Long-term lease liabilities: the highest of the 2 non-current liabilities"), said
    said = decided(SectionRankingVerdict(), "Which liability was the smallest at December 31, 2022?", tables, cal)
    assert said.startswith("Unearned revenue: the lowest of the 4 liabilities"), said
    assert decided(SectionRankingVerdict(), "Which asset was the largest at June 30, 2023?", tables, cal) == ""
    ifrs = {"title": "Balance Sheet", "units": "in euro thousand", "scale": 1e3, "columns": ["2022", "2021"],
            "rows": [_row("Issued capital [12]", 1750, 1750), _row("Retained earnings [12]", 247222, 128333),
                     _row("Equity", 708316, 306475), _row("Debt securities [13]", 15839913, 22338418),
                     _row("Liabilities due to group companies [15]", 25000, 775000),
                     _row("Non-current liabilities", 15864913, 23113418), _row("Debt securities [13]", 8318096,
                                                                                8973612),
                     _row("Liabilities due to group companies [15]", 14086869, 5511773),
                     _row("Current liabilities", 22404965, 14485385),
                     _row("Total equity and liabilities", 38978194, 37905278)]}
    said = decided(SectionRankingVerdict(), "What was Acme Finance's largest liability at year end 2022?",
                   [TableSource(2, ifrs)], cal)
    assert said.startswith("Debt securities [13] (Non-current liabilities): the highest of the 4 liabilities"), said
    assert "Liabilities due to group companies [15] (Current liabilities) 14,086,869" in said
    assert "Issued capital" not in said and "Equity " not in said
    # IFRS assets: each block's subtotal printed under its lines ("Non-current assets") is no line of its own
    assets = {"title": "Balance Sheet", "units": "in euro thousand", "scale": 1e3, "columns": ["2022", "2021"],
              "rows": [_row("Receivables from group companies [9]", 18107757, 18914307),
                       _row("Derivative assets [18]", 814400, 664738), _row("Non-current assets", 18922157, 19579045),
                       _row("Receivables from group companies [9]", 23731120, 21695068),
                       _row("Derivative assets [18]", 500386, 207578), _row("Cash and cash equivalents", 1041, 6236),
                       _row("Current assets", 24232547, 21908882), _row("Total assets", 43154704, 41487927)]}
    said = decided(SectionRankingVerdict(), "What was the largest asset on Acme Finance's balance sheet at 31 "
                   "December 2022?", [TableSource(3, assets)], cal)
    assert said.startswith("Receivables from group companies [9] (Current assets): the highest of the 5 assets"), said
    assert "Non-current assets 18" not in said and "Current assets 24" not in said


def test_the_parts_of_a_breakdown_a_question_asks_to_be_listed_are_stated_from_its_table() -> None:
    """"What geographic regions does it break its revenue into, and how much came from each in 2021?": the table
    whose title (or lead-in) names the kind, its rows in the year's column with their shares of the total; a
    reconciling line is no region; a table of shares only lists its shares; a kind no table names: nothing."""
    from engine.ask.verdicts import BreakdownListing
    from engine.periods import Calendar

    cal = Calendar(12, 31)
    geo = {"title": "millions):", "units": "", "scale": 1.0, "columns": ["2020", "2021"],
           "rows": [_row("United States", 85014, 117854), _row("EMEA(1)", 55370, 79107),
                    _row("APAC(1)", 32550, 46123), _row("Other Americas(1)", 9417, 14404),
                    _row("Hedging gains (losses)", 176, 149), _row("Total revenues", 182527, 257637)]}
    lead = "The following table presents revenues disaggregated by geography, based on the addresses of our customers"
    tables = [TableSource(1, {"title": "Revenues", "columns": ["2021"], "rows": [_row("Revenues", 257637)]}),
              TableSource(4, geo, heading=lead)]
    said = decided(BreakdownListing(), "What geographic regions does Acme break its revenue into, and how much came "
                   "from each in 2021?", tables, cal)
    assert said.startswith("The 4 regions in the table [4] (fiscal 2021"), said
    assert "United States 117,854 (46% of Total revenues)" in said and "Hedging" not in said
    shares = {"title": "Revenues by Geography", "columns": ["2021", "2022"],
              "rows": [{"label": "United States", "values": ["46%", "48%"], "numbers": [46.0, 48.0]},
                       {"label": "EMEA", "values": ["31%", "29%"], "numbers": [31.0, 29.0]}]}
    said = decided(BreakdownListing(), "What are the geographies that Acme primarily operates in as of FY2022?",
                   [TableSource(2, shares)], cal)
    assert said.startswith("The 2 regions in the table [2]") and "United States 48%" in said, said
    assert decided(BreakdownListing(), "What segments does Acme report?", tables, cal) == ""
    assert decided(BreakdownListing(), "What are Acme's reportable segments and what does each offer?", tables,
                   cal) == ""
    assert decided(BreakdownListing(), "Which region had the highest revenues in 2021?", tables, cal) == ""
    # of two breakdowns by segment, the one whose total is the measure asked, not a qualified one that fits it too
    sub = {"title": "Subscription revenue by reportable segment", "columns": ["2021"],
           "rows": [_row("Digital Media", 3370), _row("Digital Marketing", 1180),
                    _row("Total subscription revenue", 4550)]}
    seg = {"title": "Revenue by reportable segment", "columns": ["2021"],
           "rows": [_row("Digital Media", 3941), _row("Digital Marketing", 1737), _row("Total revenue", 5678)]}
    said = decided(BreakdownListing(), "What were Acme's reportable segments in 2021, and how much revenue did each "
                   "generate?", [TableSource(1, sub), TableSource(2, seg)], cal)
    assert said.startswith("The 2 segments in the table [2]") and "Digital Media 3,941" in said, said


def test_a_listing_reads_the_parts_of_a_breakdown_not_the_lines_of_a_table_of_blocks() -> None:
    """A segment table laid out in blocks ("International" over its "Net sales", "Operating expenses", ...) names
    no part in its rows: what is left of it once the measure's lines go (taxes, equity-method activity beside the
    reconciliation) is no segment. The table whose rows are the segments lists them, its blocks of growth rates and
    mix (figures that lose their % sign after a block's first row) being no amounts."""
    from engine.ask.verdicts import BreakdownListing, BreakdownRankingVerdict
    from engine.periods import Calendar

    cal = Calendar(12, 31)
    head = {"label": "", "values": [None, None], "numbers": [None, None]}
    blocks = {"title": "Information on reportable segments and reconciliation to consolidated net income is as "
                       "follows (in millions):", "units": "(in millions)", "scale": 1e6,
              "columns": ["Three Months Ended March 31, 2022", "Three Months Ended March 31, 2023"],
              "rows": [_row("Net sales", 69244, 76881), _row("Operating expenses", 70812, 75983),
                       {**head, "label": "International"}, _row("Net sales", 28759, 29123),
                       _row("Operating expenses", 30040, 30370), {**head, "label": "Consolidated"},
                       _row("Net sales", 98003, 106004), _row("Benefit (provision) for income taxes", 1422, -948),
                       _row("Equity-method investment activity, net of tax", -1, 1)]}
    mix = {"title": "Net Sales", "units": "", "scale": 1.0,
           "columns": ["Three Months Ended March 31, 2022", "Three Months Ended March 31, 2023"],
           "rows": [_row("North America", 69244, 76881), _row("International", 28759, 29123),
                    _row("Consolidated", 98003, 106004),
                    {**head, "label": "Year-over-year Percentage Growth (Decline):"},
                    {"label": "North America", "values": ["8%", "11%"], "numbers": [8.0, 11.0]},
                    _row("International", -6, 1), _row("Consolidated", 7, 8), {**head, "label": "Net sales mix:"},
                    {"label": "North America", "values": ["71%", "73%"], "numbers": [71.0, 73.0]},
                    _row("International", 29, 27), {"label": "Consolidated", "values": ["100%", "100%"],
                                                    "numbers": [100.0, 100.0]}]}
    lead = "We have organized our operations into two segments: North America and International."
    q = "What are Acme's reporting segments, and how much net sales did each generate in Q1 2023?"
    said = decided(BreakdownListing(), q, [TableSource(3, blocks), TableSource(4, mix, heading=lead)], cal)
    assert said.startswith("The 2 segments in the table [4]"), said
    assert "North America 76,881 (73% of Consolidated); International 29,123 (27% of Consolidated)" in said, said
    assert decided(BreakdownListing(), q, [TableSource(3, blocks)], cal) == ""
    income = {"title": "CONSOLIDATED STATEMENTS OF OPERATIONS", "units": "(in millions)", "scale": 1e6,
              "columns": blocks["columns"], "rows": [_row("Total net sales", 98003, 106004),
                                                     *blocks["rows"][-2:], _row("Net income", 278, 3172)]}
    # ranked by change: the year before is each part's amount, not its growth rate or mix in the later blocks
    said = decided(BreakdownRankingVerdict(), "Which segment grew net sales the fastest in Q1 2023?",
                   [TableSource(4, mix, heading=lead)], cal)
    assert said.startswith("North America: the largest rise of the 2 segments"), said
    assert "North America +11.0% (69,244 to 76,881)" in said, said
    notes = "See Note 8 for our results by segment; the statements below are unaudited and in millions"
    said = decided(BreakdownListing(), q, [TableSource(1, income, heading=notes), TableSource(4, mix, heading=lead)],
                   cal)
    assert said.startswith("The 2 segments in the table [4]"), said


def test_a_breakdown_is_known_by_its_rows_places_and_read_block_by_block() -> None:
    """A region table titled by nothing but its units ("in millions") is a breakdown by region when its rows name
    places; stacked breakdowns (net revenues, then pre-tax earnings, each closed by its total) give the block the
    measure's total closes. A table in blocks (each segment's heading over its lines) gives each block's line of
    the measure, named by the heading, to a listing and to a ranking (by change too)."""
    from engine.ask.verdicts import BreakdownListing, BreakdownRankingVerdict
    from engine.periods import Calendar

    cal = Calendar(12, 31)
    geo = {"title": "in millions", "units": "in millions", "scale": 1e6, "columns": ["2022", "2021"],
           "rows": [_row("Americas", 28669, 37248), _row("EMEA", 12860, 13066), _row("Asia", 5836, 9090),
                    _row("Total net revenues", 47365, 59404), _row("Americas", 7016, 16284),
                    _row("EMEA", 5260, 5099), _row("Asia", 1210, 3023), _row("Total pre-tax earnings", 13486, 24406)]}
    said = decided(BreakdownListing(), "Which geographic regions does Acme report results for, and how did FY2022 "
                   "net revenues split among them?", [TableSource(2, geo)], cal)
    assert said.startswith("The 3 regions in the table [2] (fiscal 2022): Americas 28,669 million (61% of Total net "
                           "revenues); EMEA 12,860 million (27%"), said
    said = decided(BreakdownRankingVerdict(), "Which region had the lowest pre-tax earnings in 2022?",
                   [TableSource(2, geo)], cal)
    assert said.startswith("Asia: the lowest of the 3 regions in the table [2] (fiscal 2022): Asia 1,210 million"), said
    head = {"values": [None, None], "numbers": [None, None]}
    blocks = {"title": "Segment Operating Results", "units": "$ in millions", "scale": 1e6, "columns": ["2023", "2022"],
              "rows": [{**head, "label": "Global Banking & Markets"}, _row("Net revenues", 30000, 32000),
                       _row("Pre-tax earnings", 11555, 13000), {**head, "label": "Asset & Wealth Management"},
                       _row("Net revenues", 13000, 13400), _row("Pre-tax earnings", 1359, 2000),
                       {**head, "label": "Platform Solutions:"}, _row("Net revenues", 2400, 1400),
                       _row("Pre-tax earnings", -2175, -1900), {**head, "label": "Total"},
                       _row("Net revenues", 45400, 46800), _row("Pre-tax earnings", 10739, 13100)]}
    said = decided(BreakdownRankingVerdict(), "Which business segment was the weakest in 2023 on a pre-tax basis?",
                   [TableSource(5, blocks)], cal)
    assert said.startswith("Platform Solutions: the lowest of the 3 segments in the table [5] (fiscal 2023): "
                           "Platform Solutions -2,175 million"), said
    said = decided(BreakdownRankingVerdict(), "Which segment grew net revenues the most in 2023?",
                   [TableSource(5, blocks)], cal)
    assert said.startswith("Platform Solutions: the largest rise of the 3 segments"), said
    said = decided(BreakdownListing(), "List Acme's segments and their 2023 net revenues.", [TableSource(5, blocks)],
                   cal)
    assert said.startswith("The 3 segments in the table [5] (fiscal 2023): Global Banking & Markets 30,000 million "
                           "(66% of Total)"), said


def test_the_part_whose_figure_turned_to_a_profit_is_decided_from_its_change_of_sign() -> None:
    """"Which segment swung from an operating loss to an operating profit in FY2023?": of the segments, the one below
    zero the year before and at or above it in the year asked; a part still at a loss is none; no part turned: no
    verdict. "Turned profitable" with no measure named is the segments' operating income."""
    from engine.ask.verdicts import BreakdownRankingVerdict
    from engine.periods import Calendar

    cal = Calendar(12, 31)
    seg = {"title": "Operating income (loss) by segment", "units": "(in millions)", "scale": 1e6,
           "columns": ["Year Ended December 31, 2022", "Year Ended December 31, 2023"],
           "rows": [_row("Services", 82699, 95858), _row("Cloud", -1922, 1716), _row("Other Bets", -4636, -4095),
                    _row("Total operating income", 74842, 84293)]}
    said = decided(BreakdownRankingVerdict(), "Which Acme segment swung from an operating loss to an operating profit "
                   "in FY2023?", [TableSource(2, seg)], cal)
    assert said.startswith("Cloud is the one of the 3 segments in the table [2] that went from a loss"), said
    assert "Other Bets -4,636 million to -4,095 million" in said
    said = decided(BreakdownRankingVerdict(), "Which segment turned profitable in 2023?", [TableSource(2, seg)], cal)
    assert said.startswith("Cloud is the one"), said
    assert decided(BreakdownRankingVerdict(), "Which segment went from a profit to a loss in 2023?",
                   [TableSource(2, seg)], cal) == ""


def test_which_part_of_a_breakdown_ranks_first_is_decided_from_the_breakdown_table() -> None:
    # "Which geographic region had the biggest drop ...?" lists no regions: the table titled as a breakdown of
    # that kind ranks its rows; its total, a row of another line item and a subtotal are no parts
    from engine.ask.verdicts import BreakdownRankingVerdict
    from engine.periods import Calendar

    cal = Calendar(12, 31)
    geo = {"title": "B. Geographic Information", "units": "(MILLIONS)", "scale": 1e6,
           "columns": ["Three Months Ended July 2, 2023", "Three Months Ended July 3, 2022", "% Change"],
           "rows": [{"label": "United States", "values": ["$6,185", "$11,222", "(45)"],
                     "numbers": [6185.0, 11222.0, -45.0]},
                    {"label": "Developed Europe", "values": ["2,415", "5,480", "(56)"],
                     "numbers": [2415.0, 5480.0, -56.0]},
                    {"label": "Developed Rest of World", "values": ["1,305", "5,034", "(74)"],
                     "numbers": [1305.0, 5034.0, -74.0]},
                    {"label": "Emerging Markets", "values": ["2,828", "6,006", "(53)"],
                     "numbers": [2828.0, 6006.0, -53.0]},
                    {"label": "Revenues", "values": ["$12,734", "$27,742", "(54)"],
                     "numbers": [12734.0, 27742.0, -54.0]}]}
    income = {"title": "Condensed Consolidated Statements of Income", "units": "(MILLIONS)", "scale": 1e6,
              "columns": ["Three Months Ended July 2, 2023", "Three Months Ended July 3, 2022"],
              "rows": [{"label": "Revenues", "values": ["12,734", "27,742"], "numbers": [12734.0, 27742.0]},
                       {"label": "Cost of sales", "values": ["3,237", "8,648"], "numbers": [3237.0, 8648.0]}]}
    tables = [TableSource(1, income), TableSource(2, geo)]
    said = decided(BreakdownRankingVerdict(), "Which geographic region had the biggest drop in Q2 2023 year over year "
                   "revenues (on a percentage basis)?", tables, cal)
    assert said.startswith("Developed Rest of World: the largest drop of the 4 regions in the table [2]"), said
    assert "-74.1% (5,034 million to 1,305 million)" in said and "Revenues" not in said.split(":", 1)[1]
    said = decided(BreakdownRankingVerdict(), "Which market saw the smallest decline in sales in the second quarter of "
                   "2023?", tables, cal)
    assert said.startswith("United States: the smallest drop"), said
    said = decided(BreakdownRankingVerdict(), "Which region had the highest revenues in Q2 2023?", tables, cal)
    assert said.startswith("United States: the highest of the 4 regions") and "$6,185 million" in said
    # no table of that kind, or no column of the year before: no verdict
    assert decided(BreakdownRankingVerdict(), "Which segment grew revenues the most in Q2 2023?", tables, cal) == ""
    assert decided(BreakdownRankingVerdict(), "Which region grew revenues the most in Q2 2022?", tables, cal) == ""
    # a table titled by the measure, its total among its rows, breaks it down where no title names the kind
    by_measure = {"title": "Operating Income (Loss)", "units": "(in millions)", "scale": 1e6,
                  "columns": ["Three Months Ended September 30, 2021", "Three Months Ended September 30, 2022"],
                  "rows": [_row("North America", 880, -412), _row("International", -911, -2466),
                           _row("AWS", 4883, 5403), _row("Consolidated", 4852, 2525)]}
    said = decided(BreakdownRankingVerdict(), "Which segment had the weakest operating result in Q3 2022?",
                   [TableSource(1, income), TableSource(3, by_measure)], cal)
    assert said.startswith("International: the lowest of the 3 segments in the table [3]"), said
    # two tables titled by the measure (by segment, by product line): the kind cannot tell them apart
    lines = {**by_measure, "rows": [_row("Online stores", 500, 400), _row("AWS", 4883, 5403),
                                    _row("Total consolidated", 5383, 5803)]}
    assert decided(BreakdownRankingVerdict(), "Which segment had the weakest operating result in Q3 2022?",
                   [TableSource(3, by_measure), TableSource(4, lines)], cal) == ""
    # a change asked in dollar terms: by the change in amount, not in percent
    cats = {"title": "Revenue by category", "units": "(in millions)", "scale": 1e6,
            "columns": ["Three Months Ended October 31, 2021", "Three Months Ended October 30, 2022"],
            "rows": [_row("Gaming", 3221, 1574), _row("Automotive", 135, 251), _row("OEM and Other", 234, 73),
                     _row("Total revenue", 3590, 1898)]}
    said = decided(BreakdownRankingVerdict(), "Which category lost the most revenue in dollar terms in Q3 2022?",
                   [TableSource(6, cats)], cal)
    assert said.startswith("Gaming: the largest drop of the 3 categories"), said
    assert "Gaming -1,647 million (3,221 million to 1,574 million)" in said, said
    # a part that "grew the fastest", no measure named: by its revenue
    said = decided(BreakdownRankingVerdict(), "Which geographic region grew the fastest in Q2 2023?", tables, cal)
    assert said.startswith("United States: the smallest drop of the 4 regions in the table [2]"), said
    # a subtotal of the other rows and a reconciling line are no segments; the sales column, not the earnings one
    seg = {"title": "Income Before Tax by Segment", "units": "(Dollars in Millions)", "scale": 1e6,
           "columns": ["Income Before Tax 2022", "Income Before Tax 2021", "Segment Sales 2022", "2021"],
           "rows": [{"label": "Consumer Health(3)", "values": ["2,930", "1,573", "14,953", "15,035"],
                     "numbers": [2930.0, 1573.0, 14953.0, 15035.0]},
                    {"label": "Pharmaceutical(3)", "values": ["15,901", "17,969", "52,563", "51,680"],
                     "numbers": [15901.0, 17969.0, 52563.0, 51680.0]},
                    {"label": "MedTech", "values": ["4,607", "4,373", "27,427", "27,060"],
                     "numbers": [4607.0, 4373.0, 27427.0, 27060.0]},
                    {"label": "Segment earnings before tax(1)", "values": ["23,438", "23,915", "94,943", "93,775"],
                     "numbers": [23438.0, 23915.0, 94943.0, 93775.0]},
                    {"label": "Less: Expenses not allocated to segments(2)", "values": ["624", "1,072"],
                     "numbers": [624.0, 1072.0]}]}
    said = decided(BreakdownRankingVerdict(), "Which segment grew sales the most in fiscal 2022?",
                   [TableSource(3, seg)], cal)
    assert said.startswith("Pharmaceutical: the largest rise of the 3 segments in the table [3]"), said
    assert "+1.7% (51,680 million to 52,563 million)" in said and "Consumer Health -0.5%" in said
    # how a part "performed" is how it moved: the best performer grew most, the worst grew least
    said = decided(BreakdownRankingVerdict(), "Which segment performed the best (by top line) in fiscal 2022?",
                   [TableSource(3, seg)], cal)
    assert said.startswith("Pharmaceutical: the largest rise"), said
    said = decided(BreakdownRankingVerdict(), "Which segment was the worst performer by sales in fiscal 2022?",
                   [TableSource(3, seg)], cal)
    assert said.startswith("Consumer Health: the largest drop"), said
    # a year named by its end date: against the year before that date, not against itself
    dated = {**seg, "columns": ["Income Before Tax Year Ended January 1, 2023",
                                "Income Before Tax Year Ended January 2, 2022",
                                "Segment Sales Year Ended January 1, 2023", "Segment Sales Year Ended January 2, 2022"]}
    said = decided(BreakdownRankingVerdict(), "Which segment grew sales fastest in the year ended January 1, 2023?",
                   [TableSource(3, dated)], cal)
    assert said.startswith("Pharmaceutical: the largest rise of the 3 segments"), said
    assert "+1.7% (51,680 million to 52,563 million)" in said, said


def test_a_breakdown_ranked_by_change_uses_the_change_the_table_states() -> None:
    # a table of each category's share and its comparable sales change (no amounts of the year before): how a
    # category "performed" is the change the filer states for the period asked, not its share of revenue
    from engine.ask.verdicts import BreakdownRankingVerdict
    from engine.periods import Calendar

    cal = Calendar(1, 31)
    mix = {"title": "Domestic segment revenue mix percentages and comparable sales percentage changes by revenue "
                    "category were as follows:", "units": "", "scale": 1.0,
           "columns": ["Revenue Mix Three Months Ended", "July 30, 2022",
                       "Comparable Sales Three Months Ended July 29, 2023", "July 30, 2022"],
           "rows": [{"label": "Computing and Mobile Phones", "values": ["41%", "42%", "(6.4)%", "(16.6)%"],
                     "numbers": [41.0, 42.0, -6.4, -16.6]},
                    {"label": "Appliances", "values": ["16%", "17%", "(16.1)%", "(1.2)%"],
                     "numbers": [16.0, 17.0, -16.1, -1.2]},
                    {"label": "Entertainment", "values": ["6%", "5%", "9.0%", "(9.2)%"],
                     "numbers": [6.0, 5.0, 9.0, -9.2]},
                    {"label": "Services", "values": ["6%", "5%", "7.6%", "(8.5)%"], "numbers": [6.0, 5.0, 7.6, -8.5]},
                    {"label": "Total", "values": ["100%", "100%", "(6.3)%", "(12.7)%"],
                     "numbers": [100.0, 100.0, -6.3, -12.7]}]}
    tables = [TableSource(4, mix)]
    for asked in ("Which product category performed the best (by top line) in the domestic market during Q2 of "
                  "FY2024?", "Which revenue category grew the most in the quarter ended July 29, 2023?"):
        said = decided(BreakdownRankingVerdict(), asked, tables, cal)
        assert said.startswith("Entertainment: the largest rise of the 4 categories in the table [4]"), said
        assert "comparable sales as the table states it" in said and "Services +7.6%" in said and "Total" not in said
    said = decided(BreakdownRankingVerdict(), "Which category's sales declined the most in Q2 FY2024?", tables, cal)
    assert said.startswith("Appliances: the largest drop"), said
    # two segments' tables of the same kind: the one whose title shares the question's words ranks, wherever it is
    intl = {**mix, "title": mix["title"].replace("Domestic", "International"),
            "rows": [{"label": "Consumer Electronics", "values": ["30%", "30%", "(3.0)%", "(9.0)%"],
                      "numbers": [30.0, 30.0, -3.0, -9.0]},
                     {"label": "Appliances", "values": ["8%", "8%", "4.8%", "(2.0)%"],
                      "numbers": [8.0, 8.0, 4.8, -2.0]}]}
    both = [TableSource(6, intl), TableSource(4, mix)]
    said = decided(BreakdownRankingVerdict(), "Which product category performed the best by sales in the domestic "
                   "market during Q2 of FY2024?", both, cal)
    assert said.startswith("Entertainment: the largest rise of the 4 categories in the table [4]"), said
    said = decided(BreakdownRankingVerdict(), "Which international product category grew sales the most in Q2 FY2024?",
                   both, cal)
    assert said.startswith("Appliances: the largest rise of the 2 categories in the table [6]"), said
    # a period the change columns do not state, and a ranking by amount (a share is no amount): no verdict
    assert decided(BreakdownRankingVerdict(), "Which category grew the most in Q2 FY2022?", tables, cal) == ""
    assert decided(BreakdownRankingVerdict(), "Which category had the highest revenue in Q2 FY2024?", tables, cal) == ""
    # another filer's layout: amounts of one year and a stated "% Change" column naming its years
    seg = {"title": "Net sales by product category", "units": "(in millions)", "scale": 1e6,
           "columns": ["2023", "% Change 2023 vs. 2022"],
           "rows": [{"label": "Footwear", "values": ["33,135", "18%"], "numbers": [33135.0, 18.0]},
                    {"label": "Apparel", "values": ["13,843", "(1)%"], "numbers": [13843.0, -1.0]},
                    {"label": "Equipment", "values": ["1,727", "8%"], "numbers": [1727.0, 8.0]},
                    {"label": "Total net sales", "values": ["48,705", "10%"], "numbers": [48705.0, 10.0]}]}
    said = decided(BreakdownRankingVerdict(), "Which product category grew sales the most in 2023?",
                   [TableSource(5, seg)], Calendar(12, 31))
    assert said.startswith("Footwear: the largest rise of the 3 categories in the table [5]"), said


def test_an_answer_refuses_only_when_its_first_sentence_does() -> None:
    from engine.ask.checks import refuses

    assert refuses("Insufficient information: the filings do not state the implications.")
    assert refuses("The sources do not contain any acquisition. Amazon is a retailer.")
    assert refuses("  ")
    # an answer that names what the sources leave out after answering is an answer
    assert not refuses("Amazon repurchased no shares in 2023 [2]. The quotes do not state the financial implications.")
    assert not refuses("No. Amazon reported no divestiture in these 10-Qs [1].")
    # a bare verdict before a refusal declines all the same
    assert refuses("No.\nInsufficient information: The sources do not provide any acquisitions.")
    assert refuses("No. The filings do not mention any divestiture [1].")
    assert not refuses("Net sales were $1.2 billion at Acme Inc. [1]. Its margin is not provided.")


def test_a_change_between_two_balance_dates_is_computed_from_both_columns() -> None:
    # a 10-Q's balance sheet reports the quarter's end and the year's end: "from January 28, 2023 to July 29, 2023"
    # asks both, not the first date alone
    from engine.periods import Calendar

    sheet = {"title": "Condensed Consolidated Balance Sheets", "units": "$ in millions", "scale": 1e6,
             "columns": ["July 29, 2023", "January 28, 2023", "July 30, 2022"],
             "rows": [{"label": "Merchandise inventories", "values": ["5,651", "5,140", "6,861"],
                       "numbers": [5651.0, 5140.0, 6861.0]}]}
    tables, cal = [TableSource(1, sheet)], Calendar(1, 31)
    asked = "How did merchandise inventories change from January 28, 2023 to July 29, 2023?"
    assert [c.raw for c in resolve(asked, tables, cal).cells] == ["5,140", "5,651"]
    c = compute(asked, tables, cal)
    assert c is not None and c.result == 511.0 and "July 29, 2023 vs January 28, 2023" in c.text
    c = compute("What was the percentage change in inventories between January 28, 2023 and July 29, 2023?", tables,
                cal)
    assert c is not None and c.result == pytest.approx((5651 - 5140) / 5140 * 100, abs=1e-3)
    # one date: its cell, nothing computed; a date the table lacks: no change
    assert [c.raw for c in resolve("What were inventories at July 30, 2022?", tables, cal).cells] == ["6,861"]
    assert compute("How did inventories change from January 29, 2022 to July 29, 2023?", tables, cal) is None


def test_the_factor_that_makes_a_percent_is_no_figure_of_the_answer() -> None:
    from engine.ask.checks import answer_numbers

    said = [q.value for q in answer_numbers("The average is (495 / 21,523) * 100 = 1.91%, i.e. 495 × 100 / 21,523.")]
    assert 100 not in said and 495 in said and 21523 in said
    said = [q.value for q in answer_numbers("Dividing capex by revenue and multiplying by 100 gives 2.2%.")]
    assert 100 not in said
    # a figure of 100 is still one
    assert 100 in [q.value for q in answer_numbers("Capital expenditures were $100 million in FY2022.")]
    assert 100.5 in [q.value for q in answer_numbers("Revenue was x 100.5 million.")]


def test_the_company_named_is_no_row_of_a_measure_the_vocabulary_does_not_know() -> None:
    # a store-count table whose first row is the company's own store brand: "the number of Acme stores" asks no
    # "Acme" row
    from dataclasses import replace

    table = {"title": "Stores open at the end of the second quarters", "units": "", "scale": 1.0,
             "columns": ["Fiscal 2024 Stores Opened", "Fiscal 2024 Total Stores at End of Second Quarter"],
             "rows": [{"label": "Acme", "values": ["3", "907"], "numbers": [3.0, 907.0]},
                      {"label": "Outlet Centers", "values": ["1", "20"], "numbers": [1.0, 20.0]}]}
    text = "Was there any change in the number of Acme stores between Q2 of FY2024 and FY2023?"
    asked = q(text)
    start = text.index("Acme")
    named = replace(asked, mentions=(("acme2024aaaa", start, start + 4, 0),))
    # named nowhere in the library, "Acme" is a word of the measure; named as the library's company, it is not
    assert "acme" in resolve(asked, [TableSource(1, table)]).measures[0].split()
    assert resolve(named, [TableSource(1, table)]).measures == ["any between chang fy number q2 store"]


def test_a_name_with_a_number_is_no_figure_of_the_answer() -> None:
    """"COVID-19" is no minus 19 and "Office 365" no 365: a number that is part of a name is not checked against the
    code's figures; an amount after a name still is ("Revenue 500 million", "150 stores")."""
    from engine.ask.checks import answer_numbers

    said = [q.raw.strip() for q in answer_numbers("Gross margin rose 140 basis points on lower COVID-19 costs, F-35 "
                                                  "deliveries, Office 365 Commercial and iPhone 14 Pro sales.")]
    assert said == ["140"]
    assert [q.raw.strip() for q in answer_numbers("Revenue 500 million; the Company had 150 stores.")] == [
        "500 million", "150"]


def test_a_change_the_model_gives_is_no_other_row_s_cell() -> None:
    """"Interest expense decreased by $17 million" is 177 - 160, the change between the asked row's periods: no note
    calls it another row's cell of 17 (a non-cash interest row of the same table); a level of 17 is still noted."""
    from engine.ask.checks import disagreement

    asked = "What was Acme's interest expense in 2015?"
    costs = {"title": "Consolidated Statements of Operations", "units": "in millions", "columns": ["2015", "2014"],
             "rows": [{"label": "Interest expense", "values": ["(160)", "(177)"], "numbers": [-160.0, -177.0]},
                      {"label": "Non-cash interest expense", "values": ["20", "17"], "numbers": [20.0, 17.0]}]}
    res = resolve(asked, [TableSource(1, costs)], None)
    assert [c.row for c in res.cells] == ["Interest expense"]
    assert disagreement("Interest expense of $160 million decreased by $17 million compared to 2014 [1].", res, None,
                        None) == ""
    assert "17" in disagreement("Interest expense was $17 million in 2015 [1].", res, None, None)


def test_a_cell_the_resolver_is_not_sure_of_is_not_called_the_one_asked() -> None:
    """The note on a model's figure names the resolved cell as "the cell asked for" only when the resolver is
    confident of it; a row its own words only partly name is "the nearest cell found"."""
    from engine.ask.checks import disagreement

    sheet = {"title": "Consolidated Balance Sheets", "units": "in millions",
             "columns": ["December 31, 2018", "December 31, 2017"],
             "rows": [{"label": "Inventories", "values": ["62,567", "44,344"], "numbers": [62567.0, 44344.0]}]}
    src = [TableSource(1, sheet)]
    sure = resolve("What were Acme's inventories at December 31, 2018?", src)
    assert sure.confident and "The cell asked for: 62,567" in disagreement("Inventories were $44,344 million [1].",
                                                                            sure, None, None)
    unsure = resolve("How much 787 deferred production cost was in inventory at December 31, 2018?", src)
    note = disagreement("The 787 deferred production cost was $44,344 million [1].", unsure, None, None)
    assert not unsure.confident and "The nearest cell found" in note and "asked for" not in note


def test_a_figure_the_question_states_is_no_cell_to_correct() -> None:
    """"What secures Acme's $17 million credit line?": the model repeating the question's $17 million gives the
    question's figure, not another row's cell of 17; the same figure the question does not state is still noted."""
    from engine.ask.checks import disagreement

    costs = {"title": "Consolidated Statements of Operations", "units": "in millions", "columns": ["2015", "2014"],
             "rows": [{"label": "Interest expense", "values": ["(160)", "(177)"], "numbers": [-160.0, -177.0]},
                      {"label": "Non-cash interest expense", "values": ["20", "17"], "numbers": [20.0, 17.0]}]}
    asked = q("What was Acme's interest expense in 2015, and what secures its $17 million credit line?")
    res = resolve(asked, [TableSource(1, costs)], None)
    said = "Interest expense was $160 million in 2015 [1]; the $17 million credit line is secured by receivables."
    assert disagreement(said, res, None, None, asked.given) == ""
    assert "17" in disagreement(said, res, None, None)


def test_the_ratio_of_a_part_the_question_names_is_the_filings_own_for_that_part() -> None:
    """"What drove the change in Acme's Products gross margin percentage in Q3 2023?": the table's "Gross margin
    percentage:" block states it for Products (34.5% -> 35.4%): that, not the whole company's margin computed from
    the income statement."""
    from engine.periods import Calendar

    cols = ["Three Months Ended July 1, 2023", "Three Months Ended June 25, 2022"]
    income = {"title": "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS", "units": "(In millions)", "scale": 1e6,
              "columns": cols, "rows": [_row("Total net sales", 81797, 82959), _row("Gross margin", 36413, 35885)]}
    margin = {"title": "Gross Margin", "units": "(dollars in millions)", "scale": 1e6, "columns": cols,
              "rows": [_row("Products", 21448, 21870), _row("Services", 14965, 14015),
                       _row("Total gross margin", 36413, 35885),
                       {"label": "Gross margin percentage:", "values": [None, None], "numbers": [None, None]},
                       {"label": "Products", "values": ["35.4%", "34.5%"], "numbers": [35.4, 34.5]},
                       _row("Services", 70.5, 69.8), _row("Total gross margin percentage", 44.5, 43.3)]}
    c = compute("What drove the change in Acme's Products gross margin percentage in fiscal Q3 2023?",
                [TableSource(1, income), TableSource(2, margin)], Calendar(9, 30))
    assert c is not None and "34.5%" in c.text and "35.4%" in c.text and c.result == pytest.approx(0.9), c


def _by_category(cols: list[str]) -> dict[str, Any]:
    """A table of net sales and gross margin by part (a "Net sales:" and a "Gross margin:" block) of a September
    filer's first quarter, the newer column first."""
    return {"title": "Net sales by category", "units": "(dollars in millions)", "scale": 1e6, "columns": cols,
            "rows": [{"label": "Net sales:", "values": [None, None], "numbers": [None, None]},
                     _row("Products", 96388, 104429), _row("Services", 20766, 19516),
                     _row("Total net sales", 117154, 123945),
                     {"label": "Gross margin:", "values": [None, None], "numbers": [None, None]},
                     _row("Products", 35623, 40120), _row("Services", 14709, 14123),
                     _row("Total gross margin", 50332, 54243)]}


def test_the_ratio_of_a_part_is_computed_from_the_parts_rows_never_the_wholes() -> None:
    """"How did Acme's Services gross margin percentage change ...?" where no table states the part's percentage: its
    gross margin over its net sales, each the "Services" row of its block ("Net sales:", "Gross margin:"); with no
    table that breaks the items down by the part, nothing is computed (the whole company's margin is not the
    part's)."""
    from engine.periods import Calendar

    cols = ["Three Months Ended December 31, 2022", "Three Months Ended December 25, 2021"]
    income = {"title": "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS", "units": "(In millions)", "scale": 1e6,
              "columns": cols, "rows": [_row("Total net sales", 117154, 123945), _row("Gross margin", 50332, 54243)]}
    sales = _by_category(cols)
    asked = "How did Acme's Services gross margin percentage change from fiscal Q1 2022 to fiscal Q1 2023?"
    c = compute(asked, [TableSource(1, income), TableSource(2, sales)], Calendar(9, 30))
    assert c is not None and "14,709 / 20,766" in c.text and "14,123 / 19,516" in c.text, c
    assert compute(asked, [TableSource(1, income)], Calendar(9, 30)) is None


def test_a_period_named_by_its_end_date_is_that_dates_column_for_any_fiscal_year() -> None:
    """"... in the quarter ended December 31, 2022" of a September filer (whose fiscal 2023 that quarter is): the
    column ending on that date, not fiscal 2022's first quarter (ended December 25, 2021) read from the date's
    year; a change from the year before is the column ending on the date's anniversary, each named by its column."""
    from engine.periods import Calendar

    cols = ["Three Months Ended December 31, 2022", "Three Months Ended December 25, 2021"]
    sales = _by_category(cols)
    c = compute("What was Acme's Products gross margin percentage in the quarter ended December 31, 2022?",
                [TableSource(1, sales)], Calendar(9, 24, weeks=True))
    assert c is not None and "35,623 / 96,388" in c.text, c
    c = compute("How did Acme's Products gross margin percentage change in the quarter ended December 31, 2022?",
                [TableSource(1, sales)], Calendar(9, 24, weeks=True))
    assert c is not None and "Three Months Ended December 25, 2021: 40,120 / 104,429" in c.text, c
    assert "Three Months Ended December 31, 2022: 35,623 / 96,388" in c.text, c


def test_a_part_asking_a_figure_beside_a_part_asking_why_states_its_cell(tmp_path: Path) -> None:
    """"How much was Acme's gross profit in FY2023, and what drove the increase?": the whole asks why, so alone it
    states nothing; its first part asks a figure and its cell is stated under that part's words, before the model
    explains the rest."""
    from test_retrieve_lib import FakeDoc

    table = {**INCOME_TABLE, "columns": ["Year Ended December 31, 2023", "Year Ended December 31, 2022"]}
    doc = FakeDoc("acme2023bbbb", "ACME_2023_10K", "Acme Widgets Corporation", "10-K", "FY2023", [
        ("text", 2, "Gross profit increased to $512 million in 2023, driven primarily by higher volume."),
        ("table", 5, "Consolidated Statements of Operations revenue gross profit", table)])
    lib = build_library(tmp_path, [doc], llm=FakeLLM(lambda msgs: "Higher volume drove it [1]."))
    q = "How much was Acme's gross profit in FY2023, and what drove the increase?"
    events = run(lib, q, scope=["acme2023bbbb"], theta_table=0.0, hybrid=False)
    done = [e for e in events if isinstance(e, CellsResolved)]
    assert done and "(1) How much was Acme's gross profit in FY2023: 512" in done[0].text, events


def test_the_segments_of_a_table_in_blocks_are_its_headings_when_no_measure_is_asked() -> None:
    """"What are Acme's reportable segments?" of a segment table in blocks ("Devices" over its "Net sales" and
    "Operating income"): the blocks' headings, each with its first line, named; a table whose blocks head no line
    the vocabulary knows lists nothing this way."""
    from engine.ask.verdicts import BreakdownListing
    from engine.periods import Calendar

    cal = Calendar(12, 31)
    head = {"label": "", "values": [None, None], "numbers": [None, None]}
    blocks = {"title": "Segment information", "units": "(in millions)", "scale": 1e6,
              "columns": ["Year Ended December 31, 2023", "Year Ended December 31, 2022"],
              "rows": [{**head, "label": "Devices"}, _row("Net sales", 700, 650), _row("Operating income", 90, 80),
                       {**head, "label": "Cloud"}, _row("Net sales", 410, 300), _row("Operating income", 60, 40),
                       {**head, "label": "Consolidated"}, _row("Net sales", 1110, 950),
                       _row("Operating income", 150, 120)]}
    said = decided(BreakdownListing(), "What are Acme's reportable segments?", [TableSource(3, blocks)], cal)
    assert said.startswith("The 2 segments in the table [3] (fiscal 2023 (year ended December 31, 2023), by "
                           "revenue): Devices 700 million (63% of Consolidated); Cloud 410 million"), said
    named = {**blocks, "rows": [{**head, "label": "Devices"}, _row("Widgets", 700, 650), _row("Gadgets", 90, 80),
                                {**head, "label": "Cloud"}, _row("Storage", 410, 300), _row("Compute", 60, 40)]}
    assert "Devices" not in decided(BreakdownListing(), "What are Acme's reportable segments?",
                                    [TableSource(3, named)], cal)


def test_a_part_stating_what_a_part_before_stated_states_nothing_again() -> None:
    """The parts' statements: a later part whose figure is the one a part before stated ("..., and what accounts
    for the change?" of the change just computed) keeps its resolution and states nothing of its own."""
    from engine.ask.cells import Resolution
    from engine.ask.compose import CellWork, stated_once

    res = Resolution(asked=q("What was revenue in 2023?").asked)
    change = "Computed from the cited cells: FY2022: 40.00%; FY2023: 41.49%; change = +1.49 percentage points"
    parts = stated_once([CellWork(res, None, None, "", change), CellWork(res, None, None, "", change),
                         CellWork(res, None, None, "", "1,234 million: Revenue")])
    assert [p.extractive for p in parts] == [change, "", "1,234 million: Revenue"]
    assert parts[1].resolution is res


def test_of_one_periods_columns_the_whole_where_they_split_it_into_parts() -> None:
    """A table whose columns split each period into segments or regions: a row asked of no column is the whole's
    ("Total", "Worldwide"), never the first part's nor a reconciling column; where no column is the whole, the cell
    is not stated as the answer. A company's own name is no column heading it asks for."""
    by_region = {"title": "Net revenues by geographic region", "units": "in millions",
                 "columns": ["Year Ended December 31, 2023 Acme", "Year Ended December 31, 2023 Globex",
                             "Year Ended December 31, 2023 Elimination of intersegment revenues",
                             "Year Ended December 31, 2023 Total"],
                 "rows": [{"label": "Asia Pacific", "values": ["210", "487", "(6)", "909"],
                           "numbers": [210.0, 487.0, -6.0, 909.0]}]}
    docs = [Document(id="ag", sha256="", name="ACMEGLOBEX_2023_10K", path="", pages=100, status="ready",
                     company="Acme Globex Inc.")]
    src = [TableSource(1, by_region)]
    for said in ("What were Acme Globex's net revenues from the Asia Pacific region in 2023?",
                 "What was Acme Globex's fiscal 2023 revenue in Asia Pacific?"):
        res = resolve(parse(said, docs), src)
        assert [c.value for c in res.cells] == [909.0] and res.confident, said
    res = resolve("What were Asia Pacific net revenues of Globex in 2023?", src)
    assert [c.value for c in res.cells] == [487.0]  # a column the question names
    geo = {"title": "Revenues by geography", "units": "in millions",
           "columns": ["Worldwide July 2, 2023", "U.S. July 2, 2023", "International July 2, 2023"],
           "rows": [{"label": "Marine Systems", "values": ["316", "90", "225"], "numbers": [316.0, 90.0, 225.0]}]}
    said = "How much revenue did Foo's Marine Systems operating segment generate in the quarter ended July 2, 2023?"
    assert [c.value for c in resolve(said, [TableSource(1, geo)]).cells] == [316.0]
    parts = dict(geo, columns=["U.S. July 2, 2023", "International July 2, 2023"],
                 rows=[{"label": "Marine Systems", "values": ["90", "225"], "numbers": [90.0, 225.0]}])
    assert not resolve(said, [TableSource(1, parts)]).confident


def test_a_change_asked_is_not_answered_with_a_level() -> None:
    """"By how much did X fall?": the year's level is not stated as the answer, and a model that gives it as the
    change ("fell by 909 million") is flagged."""
    income = {"title": "Net revenues by region", "units": "in millions", "columns": ["Year Ended December 31, 2023"],
              "rows": [{"label": "Asia Pacific", "values": ["909"], "numbers": [909.0]}]}
    src = [TableSource(1, income)]
    said = "By how much did net revenues from the Asia Pacific region fall in 2023?"
    res = resolve(said, src)
    assert [c.value for c in res.cells] == [909.0] and not res.confident
    checks = check_numbers("Net revenues from the Asia Pacific region fell by $909 million in 2023.", [], None, (),
                           res, None, said)
    assert [(c.found, c.status) for c in checks] == [(False, "level_as_change")]
    checks = check_numbers("Net revenues from the Asia Pacific region were $909 million in 2023.", [], None, (),
                           res, None, said)
    assert [c.found for c in checks] == [True]


def test_a_question_asked_in_words_states_no_cell_its_words_name() -> None:
    """"What is the sales and use tax assessment about?" names no net sales, and a part asked in words states no
    cell of a line its words happen to name."""
    income = {"title": "Consolidated Statements of Operations", "units": "in millions",
              "columns": ["Year Ended December 31, 2023"],
              "rows": [{"label": "Net sales", "values": ["170,773"], "numbers": [170773.0]}]}
    src = [TableSource(1, income)]
    said = "What is the state's sales and use tax assessment against Foo Corp about, and where does it stand?"
    assert not parse(said).measures and not resolve(said, src).confident
    said = "What is the nature of Foo Corp's net sales in 2023?"
    assert parse(said).intent is Intent.PROSE and not resolve(said, src).confident
    assert resolve("What were Foo Corp's net sales in 2023?", src).confident


def test_a_metric_s_figure_a_quoted_sentence_states_is_the_filing_s_not_the_model_s() -> None:
    """The code cannot compute an authorized return on equity from cells; the 9.8% the quoted rate order states is
    the filing's figure, not the model's own arithmetic. The same figure with no quote stating it is flagged."""
    from engine.types import Evidence as Ev

    said = "What did the commission approve in the rate case of Acme's Illinois subsidiary, and on what authorized " \
           "return on equity?"
    order = ("The general rate case order approved a $67 million annualized increase, based on an authorized return "
             "on equity of 9.8% and an authorized rate base of $1.64 billion.")
    cited = [Ev(chunk_id=1, doc_id="acme", doc="ACME_2022_10K", page=94, modality="text", text=order, score=1.0)]
    answer = "The order approved a $67 million increase based on an authorized return on equity of 9.8% [1]."
    flags = [c for c in check_numbers(answer, cited, None, (), None, None, said, [order]) if not c.found]
    assert not flags, flags
    flags = [c.value for c in check_numbers(answer, cited, None, (), None, None, said) if not c.found]
    assert "9.8%" in " ".join(flags)


def test_a_source_number_written_where_a_figure_belongs_is_flagged() -> None:
    from engine.ask.checks import check_numbers

    for text in ("Acme completed the Beta Corp acquisition in 2021, which cost [2] million.",
                 "The revenue from its cloud services was [1]% of the total.", "It paid $[3] to holders."):
        flags = [c for c in check_numbers(text, []) if not c.found]
        assert flags and "source number written where a figure belongs" in flags[0].note, text
    # a citation after a figure is a citation
    assert all("source number" not in c.note for c in check_numbers("Revenue grew 5% [2] to $10 million [3].", []))


def test_the_registered_securities_are_read_from_the_cover_page() -> None:
    from engine.ask.cells import Resolution
    from engine.ask.decisions import Work
    from engine.ask.verdicts import RegisteredSecurities, registered_classes
    from engine.types import Evidence

    # the layouts cover pages have: a row per class with symbol and exchange; one class, no symbol, the headers
    # after it
    notes = ("Securities registered pursuant to Section 12(b) of the Act: Title of each class Trading Symbol(s) Name "
             "of each exchange on which registered Common Stock, $.10 par value ZTA New York Stock Exchange "
             "0.500% Notes due 2026 ZTA26 New York Stock Exchange 2.125% Notes due 2031 ZTA31 Nasdaq Global Select "
             "Market Securities registered pursuant to Section 12(g) of the Act: None")
    assert registered_classes(notes) == [("Common Stock, $.10 par value", "ZTA", "New York Stock Exchange"),
                                         ("0.500% Notes due 2026", "ZTA26", "New York Stock Exchange"),
                                         ("2.125% Notes due 2031", "ZTA31", "Nasdaq Global Select Market")]
    stock = ("Securities registered pursuant to Section 12(b) of the Act: Common Stock, $5 par value New York Stock "
             "Exchange (Title of each class) (Name of each exchange on which registered) Indicate by check mark ...")
    assert registered_classes(stock) == [("Common Stock, $5 par value", "", "New York Stock Exchange")]
    assert registered_classes("Revenue grew 5% on the New York Stock Exchange listing.") == []

    def decide(question: str, text: str, page: int = 1) -> str:
        q = parse(question)
        e = Evidence(1, "d", "ZETA_2022_10K", page, "text", 1.0, text)
        d = RegisteredSecurities().decide(Work(q, [], None, Resolution(asked=q.asked), evidence=[e]))
        return d.text if d is not None else ""

    asked = "Which debt securities are registered to trade on a national securities exchange under Zeta's name?"
    said = decide(asked, notes)
    assert said.startswith("2 debt securities are registered under Section 12(b), per the cover page [1]: 0.500% "
                           "Notes due 2026 (ZTA26, New York Stock Exchange); 2.125% Notes due 2031"), said
    assert decide(asked, stock).startswith("None: the cover page [1] registers no debt security")
    # the same words far inside a filing are no cover page
    assert decide(asked, notes, page=40) == ""
    assert parse("Does Zeta have any notes listed on the New York Stock Exchange?").registered == "debt"
    assert parse("What were Zeta's debt securities at year end?").registered == ""


def test_a_metric_change_over_six_months_is_named_for_six_months_not_the_quarter() -> None:
    half = {"title": "Condensed Consolidated Statements of Earnings", "units": "$ in millions",
            "columns": ["Six Months Ended June 30, 2023", "Six Months Ended June 30, 2022"],
            "rows": [{"label": "Earnings before income tax expense", "values": ["689", "818"],
                      "numbers": [689.0, 818.0]},
                     {"label": "Income tax expense", "values": ["171", "168"], "numbers": [171.0, 168.0]}]}
    c = compute("How much did Acme's effective tax rate change between the first half of 2022 and the first half of "
                "2023?", [TableSource(1, half)])
    assert c is not None and c.kind == "change", c
    assert "first half of FY2022" in c.text and "first half of FY2023" in c.text and "Q2" not in c.text, c.text

"""Questions across filings on synthetic libraries: the scope of filings, per-filing resolution, the series table,
restatements, two companies side by side, the most recent filing, and the parsed cues they rest on."""

from __future__ import annotations

from pathlib import Path

from fakes_models import FakeLLM
from test_retrieve_lib import FakeDoc, Library, build_library

from engine.ask.answer import Answerer
from engine.ask.question import parse
from engine.ask.scope import filing_scope
from engine.periods import last_periods, read_calendar
from engine.types import AnswerFinished, CellsResolved

APPLE_LIKE = ("The Company's fiscal year is the 52- or 53-week period that ends on the last Saturday of September. "
              "fiscal year ended September 24, 2022")
CALENDAR_YEAR = "fiscal year ended December 31, 2022"


def income(now: str, before: str, sales: tuple[float, float], cogs: tuple[float, float]) -> dict[str, object]:
    return {
        "title": "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS",
        "units": "in millions",
        "columns": [f"Three Months Ended {now}", f"Three Months Ended {before}"],
        "rows": [
            {"label": "Total net sales", "values": [f"{sales[0]:,.0f}", f"{sales[1]:,.0f}"], "numbers": list(sales)},
            {"label": "Total cost of sales", "values": [f"{cogs[0]:,.0f}", f"{cogs[1]:,.0f}"], "numbers": list(cogs)},
        ],
    }


def quarter(doc_id: str, name: str, company: str, end: str, now: str, before: str, sales: tuple[float, float],
            cogs: tuple[float, float], year_text: str = APPLE_LIKE, form: str = "10-Q") -> FakeDoc:
    return FakeDoc(doc_id, name, company, form, end, [
        ("text", 1, f"{company} FORM {form} For the quarterly period ended {now}. {year_text}"),
        ("text", 3, f"Net sales for the quarter ended {now} were ${sales[0]:,.0f} million, driven by iPhone."),
        ("table", 2, "Condensed Consolidated Statements of Operations net sales cost of sales",
         income(now, before, sales, cogs)),
    ])


def zeta_docs() -> list[FakeDoc]:
    """Four 10-Qs of a September year-end filer; the newest restates the year-ago quarter's net sales."""
    z = "Zeta Devices Inc."
    return [
        quarter("zeta22q3aaaa", "ZETA_2022Q3_10Q", z, "2022-06-25", "June 25, 2022", "June 26, 2021",
                (82959, 81434), (47074, 46179)),
        quarter("zeta23q1bbbb", "ZETA_2023Q1_10Q", z, "2022-12-31", "December 31, 2022", "December 25, 2021",
                (117154, 123945), (66822, 69702)),
        quarter("zeta23q2cccc", "ZETA_2023Q2_10Q", z, "2023-04-01", "April 1, 2023", "March 26, 2022",
                (94836, 97278), (52860, 54719)),
        quarter("zeta23q3dddd", "ZETA_2023Q3_10Q", z, "2023-07-01", "July 1, 2023", "June 25, 2022",
                (81797, 83000), (45384, 47074)),
    ]


def omega_docs() -> list[FakeDoc]:
    """A December year-end filer's first quarter of 2023."""
    o = "Omega Retail Corporation"
    return [quarter("omega23q1eee", "OMEGA_2023Q1_10Q", o, "2023-03-31", "March 31, 2023", "March 31, 2022",
                    (127358, 116444), (67791, 62422), CALENDAR_YEAR)]


def with_calendars(lib: Library, docs: list[FakeDoc]) -> None:
    for d in docs:
        text = next(c[2] for c in d.chunks if c[0] == "text")
        table = next(c[3] for c in d.chunks if c[0] == "table")
        cal = read_calendar([text], [(str(c), "in millions") for c in table["columns"]])
        lib.store.update_document(d.id, calendar=cal.to_json())


def library(tmp_path: Path, docs: list[FakeDoc], reply: str = "Net sales fell over the period [1].") -> Library:
    lib = build_library(tmp_path, docs, llm=FakeLLM(lambda msgs: reply), hybrid=False)
    with_calendars(lib, docs)
    return lib


def ask(lib: Library, text: str, scope: list[str] | None = None):  # type: ignore[no-untyped-def]
    return list(Answerer(lib.settings, lib.models).answer(text, lib.retriever(), scope=scope))


SALES = "How has Zeta's total net sales changed over time?"


def answered(path: Path, reply: str, question: str = SALES):  # type: ignore[no-untyped-def]
    """The answer to ``question`` over Zeta's four 10-Qs when the model replies ``reply``."""
    return next(e for e in ask(library(path, zeta_docs(), reply=reply), question)
                if isinstance(e, AnswerFinished)).answer


def scope_of(lib: Library, text: str):  # type: ignore[no-untyped-def]
    r = lib.retriever()
    a = Answerer(lib.settings, lib.models)
    return a.scope_of(parse(text, r.ready_documents()), r, None)


# --- the parsed cues ----------------------------------------------------------------------------------------


def test_the_question_says_latest_last_n_across_and_versus() -> None:
    q = parse("What drove the change in gross margin in the most recent 10-Q compared to the previous quarters?")
    assert q.latest and q.across and q.versus and q.span == "quarter"
    assert parse("How has revenue moved over the last four quarters?").last == 4
    assert parse("Revenue over the past 3 years").last == 3 and last_periods("the past 3 years") == (3, "year")
    assert parse("How has total net sales changed over time?").across
    assert parse("List the impact for each reported period.").across
    assert parse("What legal proceedings are disclosed in these 10-Qs?").across
    assert parse("What effective tax rate did Orchard report in its latest quarterly filing?").latest
    assert parse("the newest annual filing").latest and not parse("the latest news").latest
    plain = parse("What was the FY2018 capital expenditure?")
    assert not (plain.latest or plain.last or plain.across)


# --- the scope ------------------------------------------------------------------------------------------------


def test_a_series_question_scopes_every_quarter_newest_last(tmp_path: Path) -> None:
    lib = library(tmp_path, zeta_docs())
    plan = scope_of(lib, "How has Zeta's total net sales changed over time?")
    assert plan is not None and plan.across
    assert [f.period for f in plan.filings] == ["Q3 FY2022", "Q1 FY2023", "Q2 FY2023", "Q3 FY2023"]
    assert plan.header() == "4 filings: Zeta Devices 10-Q Q3 FY2022, Q1 FY2023, Q2 FY2023, Q3 FY2023"


def test_the_last_n_quarters_and_the_most_recent(tmp_path: Path) -> None:
    lib = library(tmp_path, zeta_docs())
    two = scope_of(lib, "How did Zeta's net sales move over the last two quarters?")
    assert two is not None and [f.period for f in two.filings] == ["Q2 FY2023", "Q3 FY2023"]
    latest = scope_of(lib, "What were Zeta's net sales in the most recent quarter?")
    assert latest is not None and not latest.across and latest.filings[0].period == "Q3 FY2023"
    assert "(the most recent)" in latest.header()


def test_a_question_without_a_cue_for_several_filings_has_no_scope(tmp_path: Path) -> None:
    lib = library(tmp_path, zeta_docs())
    assert scope_of(lib, "What were Zeta's net sales in the quarter ended April 1, 2023?") is None
    # one company's named years: the filing routing picks reports them (a 3-year average stays one 10-K's)
    assert scope_of(lib, "What is Zeta's 3 year average net sales over fiscal years 2021 through 2023?") is None


def test_an_amendment_supersedes_the_filing_for_the_same_period(tmp_path: Path) -> None:
    docs = zeta_docs()
    amended = quarter("zeta23q2amnd", "ZETA_2023Q2_10QA", "Zeta Devices Inc.", "2023-04-01", "April 1, 2023",
                      "March 26, 2022", (94900, 97278), (52860, 54719), form="10-Q/A")
    lib = library(tmp_path, [*docs, amended])
    plan = scope_of(lib, "How has Zeta's total net sales changed over time?")
    assert plan is not None
    assert "zeta23q2amnd" in plan.doc_ids and "zeta23q2cccc" not in plan.doc_ids
    assert "used, not ZETA_2023Q2_10Q (an amendment)" in plan.header()


# --- the series -----------------------------------------------------------------------------------------------


def test_a_series_is_resolved_per_filing_and_stated_as_a_table(tmp_path: Path) -> None:
    lib = library(tmp_path, zeta_docs())
    events = ask(lib, "How has Zeta's total net sales changed over time?")
    stated = next(e for e in events if isinstance(e, CellsResolved)).text
    a = next(e for e in events if isinstance(e, AnswerFinished)).answer
    lines = stated.splitlines()
    assert lines[0].startswith("4 filings:")
    assert "filing | period | value | page" in lines
    rows = [ln for ln in lines if ln.count(" | ") == 3 and "10-Q" in ln]
    assert len(rows) == 4 and "117,154" in rows[1] and "81,797" in rows[3]
    # the year-ago quarter the newest filing reports again, differently: its figure is used, the old one flagged
    assert "83,000" in rows[0] and "as reported in" in rows[0]
    assert any("restated" in ln and "82,959" in ln for ln in lines)
    assert [p["period"] for p in a.series] == ["Q3 FY2022", "Q1 FY2023", "Q2 FY2023", "Q3 FY2023"]
    # the change is from the newest figure for the first period (83,000 restated), not the superseded one
    assert len(a.filings) == 4
    assert a.computation.startswith("Total net sales from Q3 FY2022 to Q3 FY2023: -1,203 (-1.4%)")
    assert "Computed from the cited cells: Total net sales from" in stated
    assert "highest Q1 FY2023" in a.computation and "lowest Q3 FY2023" in a.computation
    assert a.text.startswith("4 filings:") and "Net sales fell over the period" in a.text
    # the model read every filing: the prompt cites the cells of all four
    prompt = lib.llm.prompts[0][1].content
    assert prompt.count("Total net sales |") == 4


def test_an_outflow_printed_negative_is_quoted_as_the_amount_spent(tmp_path: Path) -> None:
    # cost of sales printed as (47,074): the highest quarter is the one it was largest in, said as a positive amount
    docs = [quarter(d.id, d.name, d.company, d.fiscal_period, *_dates(d), sales, (-cogs[0], -cogs[1]))
            for d, sales, cogs in zip(zeta_docs(), [(82959, 81434), (117154, 123945), (94836, 97278), (81797, 83000)],
                                      [(47074, 46179), (66822, 69702), (52860, 54719), (45384, 47074)], strict=True)]
    lib = library(tmp_path, docs)
    a = next(e for e in ask(lib, "How has Zeta's total cost of sales changed over time?")
             if isinstance(e, AnswerFinished)).answer
    assert "highest Q1 FY2023 (66,822)" in a.computation and "lowest Q3 FY2023 (45,384)" in a.computation, \
        a.computation
    assert a.computation.startswith("Total cost of sales from Q3 FY2022 to Q3 FY2023: -1,690 (-3.6%)"), a.computation


def _dates(d: FakeDoc) -> tuple[str, str]:
    """The quarter's end and the year-ago quarter's, as ``quarter`` took them (from its statement's columns)."""
    table = next(c[3] for c in d.chunks if c[0] == "table")
    now, before = (str(c).removeprefix("Three Months Ended ") for c in table["columns"])
    return now, before


def _with_cash_flows(doc: FakeDoc, months: int, now: str, before: str, ops: tuple[float, float]) -> FakeDoc:
    """``doc`` with a cash flow statement that, as many filers print it, states only the year to date."""
    span = {3: "Three", 6: "Six", 9: "Nine"}[months]
    table = {"title": "CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS", "units": "in millions",
             "columns": [f"{span} Months Ended {now}", f"{span} Months Ended {before}"],
             "rows": [{"label": "Cash generated by operating activities",
                       "values": [f"{v:,.0f}" for v in ops], "numbers": list(ops)}]}
    doc.chunks.append(("table", 5, "Condensed Consolidated Statements of Cash Flows operating activities", table))
    return doc


def test_a_flow_stated_year_to_date_is_worked_out_for_each_quarter(tmp_path: Path) -> None:
    docs = zeta_docs()
    # Q3 FY2022 (nine months), Q1 FY2023 (three), Q2 FY2023 (six, with the year before's six), Q3 FY2023 (nine)
    _with_cash_flows(docs[0], 9, "June 25, 2022", "June 26, 2021", (98024, 80000))
    _with_cash_flows(docs[1], 3, "December 31, 2022", "December 25, 2021", (34005, 46966))
    _with_cash_flows(docs[2], 6, "April 1, 2023", "March 26, 2022", (62565, 75132))
    _with_cash_flows(docs[3], 9, "July 1, 2023", "June 25, 2022", (88945, 98024))
    lib = library(tmp_path, docs)
    stated = next(e for e in ask(lib, "How have Zeta's operating cash flows changed over these 10-Qs?")
                  if isinstance(e, CellsResolved)).text
    rows = [ln for ln in stated.splitlines() if ln.count(" | ") == 3 and "10-Q" in ln]
    # the quarter is the year to date less the quarter before's, read from whichever filing states it
    assert "22,892" in rows[0] and "34,005" in rows[1] and "28,560" in rows[2] and "26,380" in rows[3], stated
    assert "computed: 98,024 (Nine Months Ended June 25, 2022" in stated
    assert "- 75,132 (Six Months Ended March 26, 2022" in stated  # the later 10-Q's comparative column
    assert "not found" not in stated


def test_a_model_sentence_contradicting_the_series_direction_is_folded(tmp_path: Path) -> None:
    a = answered(tmp_path, "Net sales went from $81.8 billion to $83.0 billion [1].")
    assert a.contradicted and "went from" in a.contradicted[0]
    assert "81.8 billion to" not in a.text
    # the series' own first-to-last change, in percent, is the code's figure: kept
    a = answered(tmp_path / "kept", "Total net sales fell 1.4% over the four quarters [1].")
    assert not a.contradicted and "fell 1.4%" in a.text


def test_the_series_change_given_with_ends_it_is_not_the_change_of_is_folded(tmp_path: Path) -> None:
    # the code's first-to-last percent, pinned to the peak quarter and the last: those ends make another change
    a = answered(tmp_path, "Sales are lower. Total net sales fell 1.4% over the four quarters, "
                 "from 117,154 to 81,797 [1].")
    assert len(a.contradicted) == 1 and "1.4% is not the change from 117,154 to 81,797 (-30.2%)" in a.contradicted[0]
    assert "Sales are lower." in a.text and "117,154 to" not in a.text
    # the same percent with the series' own ends holds
    a = answered(tmp_path / "kept", "Total net sales fell 1.4% over the four quarters, from 83,000 "
                 "to 81,797 [1].")
    assert not a.contradicted and "from 83,000" in a.text


def test_a_margin_over_the_filings_is_the_margin_computed_in_each_not_its_numerators_amounts(tmp_path: Path) -> None:
    lib = library(tmp_path, zeta_docs(), reply="The gross margin rose [1].")
    a = next(e for e in ask(lib, "How has Zeta's gross margin changed over the last four quarters?")
             if isinstance(e, AnswerFinished)).answer
    lines = a.text.splitlines()
    rows = [ln for ln in lines if ln.count(" | ") == 3 and "10-Q" in ln]
    # each quarter's own (net sales - cost of sales) / net sales, from its own filing: no gross profit row needed
    assert [r.split(" | ")[2] for r in rows] == ["43.26%", "42.96%", "44.26%", "44.52%"]
    assert "  computed: (81,797 - 45,384) / 81,797 * 100 = 44.52%" in lines
    assert "Gross margin from Q3 FY2022 to Q3 FY2023: +1.26 percentage points" in a.computation
    # a definition carries the last year the question names: each filing works it for its own year
    from engine.ask.across import as_of
    q = parse("How has Zeta's gross margin changed from fiscal 2018 to fiscal 2023?")
    older = next(f for f in scope_of(lib, "How has Zeta's total net sales changed over time?").filings
                 if f.label.endswith("Q3 FY2022"))
    assert q.formula == ("gross profit / revenue * 100", "2023")
    assert as_of(q, older).formula == ("gross profit / revenue * 100", "2022")
    # side by side, each company's own quarter: the gap in points
    lib = library(tmp_path / "two", [*zeta_docs(), *omega_docs()], reply="Omega's margin is higher [1].")
    a = next(e for e in ask(lib, "How does Zeta's gross margin compare with Omega's in Q1 2023?")
             if isinstance(e, AnswerFinished)).answer
    assert "42.96%" in a.text and "46.77%" in a.text
    assert "is higher by 3.81 percentage points" in a.computation


def test_a_list_item_giving_one_quarters_figure_for_another_is_folded(tmp_path: Path) -> None:
    a = answered(tmp_path, "Sales fell. By quarter: - Q3 FY2022: 81,797 - Q3 FY2023: 83,000 [1].")
    assert len(a.contradicted) == 1 and "gives 81,797 for Q3 FY2022" in a.contradicted[0]
    assert a.text.endswith("Sales fell.")
    a = answered(tmp_path / "kept", "By quarter: - Q1 FY2023: 117,154 - Q3 FY2023: 81,797 [1].")
    assert not a.contradicted and "Q1 FY2023: 117,154" in a.text


def test_each_item_of_a_numbered_list_is_checked_on_its_own(tmp_path: Path) -> None:
    # one item's figure is the code's change; the next one's points between two amounts are not a change of them
    a = answered(tmp_path, "1. Sales fell 1.4% over the period [1]. 2. Services: a 1.4 percentage "
                 "point decrease from $21,213 to $22,998.")
    assert len(a.contradicted) == 1 and "which are not percents" in a.contradicted[0]
    assert "Sales fell 1.4%" in a.text and "21,213" not in a.text


def test_an_amount_of_the_code_written_as_a_percent_is_folded(tmp_path: Path) -> None:
    # -1,203 is the change in amount (-1.4% the change in percent): "1,203%" is neither
    a = answered(tmp_path, "Sales fell. That is a 1,203% decrease [1].")
    assert len(a.contradicted) == 1 and "1,203% is the code's amount -1,203 written as a percent" in a.contradicted[0]
    assert a.text.endswith("Sales fell.")


def test_two_companies_side_by_side_each_with_its_own_calendar(tmp_path: Path) -> None:
    lib = library(tmp_path, [*zeta_docs(), *omega_docs()])
    q = "How do Zeta's net sales compare with Omega's in Q1 2023?"
    plan = scope_of(lib, q)
    assert plan is not None and len(plan.companies) == 2
    assert [f.label.split()[-2:] for f in plan.filings] == [["Q1", "FY2023"], ["Q1", "FY2023"]]
    stated = next(e for e in ask(lib, q) if isinstance(e, CellsResolved)).text
    assert "117,154" in stated and "127,358" in stated
    assert "December 31, 2022" in stated and "March 31, 2023" in stated  # each quarter dated: not silently paired
    assert "Fiscal years differ" in stated
    assert "Omega's is higher by 10,204 (+8.7%)" in stated.replace("Omega Retail", "Omega")


def test_the_most_recent_filing_alone_answers_with_its_header(tmp_path: Path) -> None:
    lib = library(tmp_path, zeta_docs(), reply="Net sales were $81,797 million [1].")
    a = next(e for e in ask(lib, "What were Zeta's total net sales in the most recent quarter?")
             if isinstance(e, AnswerFinished)).answer
    assert a.text.startswith("1 filing: ") and "Q3 FY2023" in a.text.splitlines()[0]
    assert {e.doc for e in a.evidence} == {"ZETA_2023Q3_10Q"}


def test_a_metric_of_the_most_recent_filing_is_computed_within_it_for_its_quarter(tmp_path: Path) -> None:
    # a margin, not a line item: the one filing's revenue and cost of sales for the quarter it reports
    lib = library(tmp_path, zeta_docs(), reply="The gross margin was 44.52% [1].")
    events = ask(lib, "What was Zeta's gross margin in the most recent 10-Q?")
    a = next(e for e in events if isinstance(e, AnswerFinished)).answer
    assert a.text.startswith("1 filing: ") and "Q3 FY2023" in a.text.splitlines()[0]
    assert {e.doc for e in a.evidence} == {"ZETA_2023Q3_10Q"}
    # (81,797 - 45,384) / 81,797: the quarter ended July 1, 2023, not the year-ago column beside it
    assert "(81,797 - 45,384) / 81,797 * 100 = 44.52%" in a.computation
    assert not a.contradicted and "44.52%" in a.text


def test_the_given_scope_bounds_the_filings(tmp_path: Path) -> None:
    lib = library(tmp_path, zeta_docs())
    r = lib.retriever()
    q = parse("How has Zeta's total net sales changed over time?", r.ready_documents())
    plan = filing_scope(q, [d for d in r.ready_documents() if d.id in {"zeta23q2cccc", "zeta23q3dddd"}],
                        lambda d: None)
    assert plan is not None and len(plan.filings) == 2


def test_a_question_for_reasons_across_filings_reads_every_filing_newest_first(tmp_path: Path) -> None:
    lib = library(tmp_path, zeta_docs(), reply="Lower iPhone sales drove it [1].")
    a = next(e for e in ask(lib, "What drove the change in Zeta's sales in the most recent 10-Q compared to the "
                                 "previous quarters?") if isinstance(e, AnswerFinished)).answer
    assert a.text.startswith("4 filings:")
    docs = list(dict.fromkeys(e.doc for e in a.evidence if e.modality == "text"))
    assert docs == ["ZETA_2023Q3_10Q", "ZETA_2023Q2_10Q", "ZETA_2023Q1_10Q", "ZETA_2022Q3_10Q"]
    # the filings' own sentences with the series in view first ("driven by iPhone"), summarised
    assert "at most two sentences" in lib.llm.prompts[0][1].content and "Computed:" in lib.llm.prompts[0][1].content
    assert a.summarised and any("driven by iPhone" in x.text for x in a.quotes)
    # a summary that refuses leaves the passages, asked for the reasons their text gives
    lib = library(tmp_path / "again", zeta_docs(), reply="Insufficient information: no reasons are quoted.")
    ask(lib, "What drove the change in Zeta's sales in the most recent 10-Q compared to the previous quarters?")
    assert "answer with the reasons the sources' text gives" in lib.llm.prompts[1][1].content


def test_the_most_recent_quarter_is_its_own_column_where_the_filer_prints_the_prior_year_first(tmp_path: Path) -> None:
    doc = quarter("omega23q1eee", "OMEGA_2023Q1_10Q", "Omega Retail Corporation", "2023-03-31", "March 31, 2023",
                  "March 31, 2022", (127358, 116444), (67791, 62422), CALENDAR_YEAR)
    table = doc.chunks[2][3]
    table["columns"].reverse()
    for row in table["rows"]:
        row["values"].reverse()
        row["numbers"].reverse()
    older = quarter("omega22q3fff", "OMEGA_2022Q3_10Q", "Omega Retail Corporation", "2022-09-30",
                    "September 30, 2022", "September 30, 2021", (127101, 110812), (70268, 62930), CALENDAR_YEAR)
    lib = library(tmp_path, [older, doc], reply="Net sales were $127,358 million [1].")
    a = next(e for e in ask(lib, "What were Omega's total net sales in the most recent quarter?")
             if isinstance(e, AnswerFinished)).answer
    assert a.text.startswith("1 filing: ") and "127,358" in a.text.split("\n\n")[0]
    assert "116,444" not in a.text.split("\n\n")[0]


def test_the_most_recent_filing_for_a_question_without_a_figure_streams_its_header_after_the_search(
        tmp_path: Path) -> None:
    lib = library(tmp_path, zeta_docs(), reply="Supply constraints [1].")
    events = ask(lib, "What risks did Zeta describe in its most recent 10-Q?")
    kinds = [type(e).__name__ for e in events]
    assert kinds[0] == "RetrievalDone" and kinds[1] == "TokenStreamed"
    assert events[1].text.startswith("1 filing: Zeta Devices 10-Q Q3 FY2023 (the most recent)")
    a = events[-1].answer
    assert a.text.startswith("1 filing: ") and {e.doc for e in a.evidence} == {"ZETA_2023Q3_10Q"}


def test_a_significant_change_over_the_filings_is_decided_from_the_series(tmp_path: Path) -> None:
    lib = library(tmp_path, zeta_docs(), reply="No, net sales were stable over the quarters [1].")
    events = ask(lib, "Has there been any significant change in Zeta's total net sales over the reported quarters?")
    stated = next(e for e in events if isinstance(e, CellsResolved)).text
    a = next(e for e in events if isinstance(e, AnswerFinished)).answer
    lines = stated.splitlines()
    assert lines[0].startswith("4 filings:") and lines[1].startswith("Yes. Total net sales: 83,000")
    assert "the highest 43.2% above the lowest" in lines[1]  # 117,154 against 81,797
    # the model's "No" contradicts the code's Yes: folded, not shown as the answer
    assert "stable" not in a.text and a.contradicted


def test_a_move_under_five_percent_between_any_two_periods_is_no_significant_change() -> None:
    from datetime import date

    from engine.ask.cells import Cell
    from engine.ask.verdicts import series_decision
    from engine.periods import Period

    def cell(v: float, month: int) -> Cell:
        return Cell(marker=1, doc="d", page=1, region_id=1, row="Total operating expenses", column="c", raw=str(v),
                    value=v, scale=1e6, percent=False, period=Period(end=date(2023, month, 28), year=2023, months=3),
                    item="operating expenses", row_fit=2.0, period_fit=1.0)

    q = parse("Has there been any significant change in operating expenses over the reported quarters?")
    flat = [cell(100, 3), cell(104, 6), cell(101, 9)]
    d = series_decision("series", q, flat[-1], flat, ["Q1", "Q2", "Q3"])
    assert d is not None and d.verdict is False and d.text.startswith("No.")
    moved = [cell(100, 3), cell(112, 6), cell(101, 9)]  # up 12%, then back: a change over the quarters
    d = series_decision("series", q, moved[-1], moved, ["Q1", "Q2", "Q3"])
    assert d is not None and d.verdict is True and "+1.0% from the first to the last" in d.text


def annual(doc_id: str, name: str, year: int, sales: tuple[float, float, float]) -> FakeDoc:
    """A June filer's 10-K: its statement of operations for three years, columns headed by the bare year."""
    company = "Kappa Software Corp"
    table = {"title": "INCOME STATEMENTS", "units": "in millions", "columns": [str(year), str(year - 1), str(year - 2)],
             "rows": [{"label": "Total revenue", "values": [f"{s:,.0f}" for s in sales], "numbers": list(sales)}]}
    return FakeDoc(doc_id, name, company, "10-K", f"FY{year}", [
        ("text", 1, f"{company} FORM 10-K For the fiscal year ended June 30, {year}. Year Ended June 30, {year}"),
        ("table", 2, "Income statements total revenue year ended June 30", table),
    ])


def test_years_further_apart_than_one_report_states_are_read_from_each_years_report(tmp_path: Path) -> None:
    docs = [annual("kappa16aaaaa", "KAPPA_2016_10K", 2016, (85320, 93580, 86833)),
            annual("kappa23bbbbb", "KAPPA_2023_10K", 2023, (211915, 198270, 168088))]
    lib = library(tmp_path, docs)
    events = ask(lib, "How did Kappa's total revenue change from fiscal 2016 to fiscal 2023?")
    stated = next(e for e in events if isinstance(e, CellsResolved)).text
    assert stated.startswith("2 filings:")
    assert "85,320" in stated and "211,915" in stated and "+148.4%" in stated
    # two years one report states (2022 and 2023): that report answers, no scope of filings
    assert scope_of(lib, "How did Kappa's total revenue change from fiscal 2022 to fiscal 2023?") is None


def test_an_8k_dated_in_a_fiscal_year_is_no_filing_of_a_period() -> None:
    from engine.ask.scope import filing_of
    from engine.types import Document

    release = Document(id="pep8k", sha256="", path="x.pdf", name="PEPSICO_2023_8K_dated-2023-05-05", pages=5,
                       status="ready", title="", company="PepsiCo, Inc.", form_type="8-K", fiscal_period="FY2023")
    assert filing_of(release, None) is None
    annual = Document(id="pep10k", sha256="", path="y.pdf", name="PEPSICO_2022_10K", pages=9, status="ready",
                      title="", company="PepsiCo, Inc.", form_type="10-K", fiscal_period="FY2022")
    f = filing_of(annual, None)
    assert f is not None and f.fiscal_year == 2022 and f.months == 12


def balances(doc_id: str, name: str, form: str, period: str, cover: str, columns: list[str],
             debt: tuple[float, float], cash: tuple[float, float]) -> FakeDoc:
    """A December filer's balance sheet: long-term debt and cash at two dates."""
    company = "Sigma Pharma Inc."
    table = {"title": "CONSOLIDATED BALANCE SHEETS", "units": "in millions", "columns": columns,
             "rows": [{"label": "Cash and cash equivalents", "values": [f"{c:,.0f}" for c in cash],
                       "numbers": list(cash)},
                      {"label": "Long-term debt", "values": [f"{d:,.0f}" for d in debt], "numbers": list(debt)}]}
    return FakeDoc(doc_id, name, company, form, period, [
        ("text", 1, f"{company} FORM {form} {cover} {CALENDAR_YEAR}"),
        ("table", 2, "Consolidated balance sheets cash and cash equivalents long-term debt", table),
    ])


def sigma_docs() -> list[FakeDoc]:
    """A 10-K for 2021 and a 10-Q for the second quarter of 2023: the 10-Q's balance sheet goes back to the end of
    2022 only, so a balance at the end of 2021 is the 10-K's."""
    return [
        balances("sigma21kaaaa", "SIGMA_2021_10K", "10-K", "FY2021", "For the fiscal year ended December 31, 2021.",
                 ["December 31, 2021", "December 31, 2020"], (36195, 37133), (1944, 1784)),
        balances("sigma23q2bbb", "SIGMA_2023Q2_10Q", "10-Q", "2023Q2", "For the quarterly period ended July 2, 2023.",
                 ["July 2, 2023", "December 31, 2022"], (61356, 32884), (2632, 416)),
    ]


def test_a_balance_before_the_years_a_10q_reports_is_read_from_the_10k_of_its_year(tmp_path: Path) -> None:
    lib = library(tmp_path, sigma_docs())
    for text, old, new in (
        ("How did Sigma's long-term debt change from December 31, 2021 to July 2, 2023?", "36,195", "61,356"),
        ("Compare Sigma's cash and cash equivalents at year-end 2021 with the balance at the end of Q2 2023.",
         "1,944", "2,632"),
    ):
        plan = scope_of(lib, text)
        assert plan is not None and plan.header().startswith("2 filings:")
        assert [f.form for f in plan.filings] == ["10-K", "10-Q"]
        stated = next(e for e in ask(lib, text) if isinstance(e, CellsResolved)).text
        assert old in stated and new in stated, stated
    # a year the 10-Q states itself (its balance sheet's December 2022 column): that one filing answers
    assert scope_of(lib, "How did Sigma's long-term debt change from December 31, 2022 to July 2, 2023?") is None


def test_several_measures_of_one_company_are_decided_each_and_any_change_is_a_yes() -> None:
    """"Are there any notable changes in its liquidity position or cash flows?" asks of several measures (cash and
    the three cash flow totals): a notable move in any one is a Yes, each measure's own verdict said; No only when
    every one is decided No; a trend of several measures is left to the model."""
    from datetime import date

    from engine.ask.across import Point, Series, verdict_of
    from engine.ask.cells import Cell
    from engine.ask.scope import Filing
    from engine.periods import Period

    def series(row: str, item: str, values: list[float], company: str = "0001") -> Series:
        points = []
        for i, v in enumerate(values):
            f = Filing(f"d{i}", f"Z{i}", company, "ZETA", "10-Q", date(2023, 3 * i + 3, 28), 3, 2023, i + 1)
            c = Cell(marker=i + 1, doc=f.name, page=1, region_id=1, row=row, column="c", raw=str(v), value=v,
                     scale=1e6, percent=False, period=Period(end=f.end, year=2023, months=3), item=item,
                     row_fit=2.0, period_fit=1.0)
            points.append(Point(f, c, f, f.period))
        return Series(company, "ZETA", item, points)

    cash = series("Cash and cash equivalents", "cash", [100, 101, 102])
    operating = series("Net cash provided by operating activities", "cash from operations", [50, 80, 40])
    q = parse("Are there any notable changes in Zeta's liquidity position or cash flows over these quarters?")
    d = verdict_of(q, [cash, operating])
    assert d is not None and d.verdict is True and d.text.startswith("Yes: 1 of the 2 measures moved by 5% or more")
    assert "Cash and cash equivalents (no notable change): 100" in d.text
    assert "Net cash provided by operating activities (a notable change): 50" in d.text
    flat = series("Net cash provided by operating activities", "cash from operations", [50, 51, 50])
    d = verdict_of(q, [cash, flat])
    assert d is not None and d.verdict is False and d.text.startswith("No: none of the 2 measures moved")
    # two companies' series are a comparison, and a trend of several measures is not one verdict
    assert verdict_of(q, [cash, series("Cash and cash equivalents", "cash", [1, 9, 3], "0002")]) is None
    trend = parse("Is there a consistent upward trend in Zeta's cash and cash flows over these quarters?")
    assert verdict_of(trend, [cash, operating]) is None

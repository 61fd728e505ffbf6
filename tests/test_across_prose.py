"""Questions told in words across filings: each filing's own sentences quoted, newest filing first, then the
model's summary of them alone; a summary that refuses never replaces the quotes."""

from __future__ import annotations

from pathlib import Path

from fakes_models import FakeLLM
from test_across import library, zeta_docs
from test_retrieve_lib import build_library

from engine.ask.answer import Answerer
from engine.ask.question import parse
from engine.types import AnswerFinished, QuotesFound, TokenStreamed

LEGAL = {
    "zeta22q3aaaa": "Epsilon Labs filed a lawsuit alleging that Zeta infringed its display patents, seeking damages.",
    "zeta23q1bbbb": "A putative class action complaint was filed in federal court alleging that Zeta misled investors.",
    "zeta23q2cccc": "The court granted Zeta's motion to dismiss the class action complaint filed by investors.",
    "zeta23q3dddd": "Epsilon Labs and Zeta reached a settlement of the patent litigation for an undisclosed amount.",
}
SAME = "Zeta is subject to other legal proceedings and claims that arise in the ordinary course of its business."
QUESTION = "What legal proceedings are disclosed in Zeta's quarterly reports and how might they impact Zeta?"
NEWEST_FIRST = ["ZETA_2023Q3_10Q", "ZETA_2023Q2_10Q", "ZETA_2023Q1_10Q", "ZETA_2022Q3_10Q"]


def legal_docs():  # type: ignore[no-untyped-def]
    """The four 10-Qs, each with a Part II legal proceedings passage of its own (and one sentence they repeat)."""
    docs = zeta_docs()
    for d in docs:
        d.chunks.append(("text", 30, f"PART II Item 1. Legal Proceedings. {LEGAL[d.id]} {SAME}"))
    return docs


def answered(lib, text: str = QUESTION):  # type: ignore[no-untyped-def]
    return list(Answerer(lib.settings, lib.models).answer(text, lib.retriever()))


def test_a_refused_summary_leaves_each_filings_quotes_newest_first_as_the_answer(tmp_path: Path) -> None:
    lib = library(tmp_path, legal_docs(), reply="Insufficient information: the sources do not say.")
    events = answered(lib)
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("QuotesFound") < kinds.index("TokenStreamed")
    quotes = next(e for e in events if isinstance(e, QuotesFound)).quotes
    # each filing's own sentence, newest filing first; the sentence every filing repeats is quoted once
    assert list(dict.fromkeys(x.doc for x in quotes)) == NEWEST_FIRST
    assert [x.text for x in quotes if x.text in LEGAL.values()] == [LEGAL["zeta23q3dddd"], LEGAL["zeta23q2cccc"],
                                                                   LEGAL["zeta23q1bbbb"], LEGAL["zeta22q3aaaa"]]
    assert sum(1 for x in quotes if x.text == SAME) == 1
    assert all(x.page == 30 for x in quotes if x.text in LEGAL.values())
    a = events[-1].answer
    assert isinstance(events[-1], AnswerFinished)
    assert not a.refused and a.quotes == quotes and not a.summarised
    assert a.text.startswith("4 filings: Zeta Devices 10-Q Q3 FY2022")
    assert "The model gave no summary" in a.text
    for x in quotes:  # each quote in the answer with its filing and page, its number pointing at its passage
        assert f"({x.doc}, p. {x.page}) [{x.source}]: \u201c{x.text}\u201d" in a.text
        assert a.evidence[x.source - 1].doc == x.doc and x.text in a.evidence[x.source - 1].text
    assert "Zeta Devices 10-Q Q3 FY2023 (ZETA_2023Q3_10Q" in a.text
    assert a.text.index(LEGAL["zeta23q3dddd"]) < a.text.index(LEGAL["zeta22q3aaaa"])
    assert any(c.doc == "ZETA_2022Q3_10Q" and c.page == 30 for c in a.citations)
    # the summary was asked first, from the quotes alone; then the passages, which refused too
    assert "at most two sentences" in lib.llm.prompts[0][-1].content
    assert len(lib.llm.prompts) > 1 and "at most two sentences" not in lib.llm.prompts[1][-1].content


def test_no_summary_but_an_answer_from_the_passages_keeps_the_quotes(tmp_path: Path) -> None:
    def reply(msgs):  # type: ignore[no-untyped-def]
        if "at most two sentences" in msgs[-1].content:
            return "No."
        return "Epsilon Labs settled its patent suit with Zeta [1]; Omicron sued over batteries."

    lib = library(tmp_path, legal_docs())
    lib.llm.reply = reply
    a = answered(lib)[-1].answer
    assert not a.refused and a.quotes and not a.summarised
    assert a.text.startswith("4 filings:") and "Epsilon Labs settled its patent suit" in a.text
    assert "The model gave no summary" not in a.text
    # shown beside the quotes, the passages' answer is checked against them: what no quote says is flagged
    assert "Omicron" in a.unsupported and "batteries" in a.unsupported and "Epsilon" not in a.unsupported
    assert a.unsupported_note.startswith("the model answered from the whole evidence")


def test_a_summary_of_the_quotes_names_its_filings_and_is_checked(tmp_path: Path) -> None:
    def reply(msgs):  # type: ignore[no-untyped-def]
        assert "at most two sentences" in msgs[-1].content
        return ("Epsilon Labs settled its patent litigation in Q3 FY2023 [1]; a securities class action was "
                "dismissed, and Omicron sued over batteries [2].")

    lib = library(tmp_path, legal_docs())
    lib.llm.reply = reply
    events = answered(lib)
    a = events[-1].answer
    assert a.summarised and not a.refused
    assert a.text.startswith("4 filings:") and "Epsilon Labs settled" in a.text
    assert "The model gave no summary" not in a.text
    assert "Omicron" in a.unsupported and "batteries" in a.unsupported and "Epsilon" not in a.unsupported
    user = lib.llm.prompts[0][-1].content
    # each quote block names its filing, so the summary can say which quarter
    assert "Zeta Devices 10-Q Q3 FY2023: ZETA_2023Q3_10Q, page 30, quoted" in user
    assert user.index("ZETA_2023Q3_10Q") < user.index("ZETA_2022Q3_10Q")
    assert "quotes" in a.timings
    assert any(isinstance(e, TokenStreamed) and "Epsilon Labs settled" in e.text for e in events)


def test_filings_with_no_sentence_to_quote_still_refuse(tmp_path: Path) -> None:
    docs = zeta_docs()
    for d in docs:
        d.chunks = [c for c in d.chunks if c[0] == "table"]
    lib = build_library(tmp_path, docs, llm=FakeLLM(lambda msgs: "Insufficient information: not said."), hybrid=False)
    events = answered(lib, "What legal proceedings are disclosed in Zeta's quarterly reports?")
    a = events[-1].answer
    assert not any(isinstance(e, QuotesFound) for e in events) and not a.quotes
    assert a.refused and "Insufficient information" in a.text and "gave no summary" not in a.text


def test_yes_no_about_changes_to_something_unmeasured_is_told_in_words() -> None:
    q = parse("Are there any significant changes or new disclosures in Zeta's accounting policies in these 10-Qs?")
    assert q.yes_no and q.narrative == "policies"
    # a change between two periods it names compares figures
    assert not parse("Was there any change in the number of stores between Q2 of FY2024 and FY2023?").narrative
    both = parse("Summarize the risk factors to Zeta's business, and how they have changed over the reporting "
                 "period.")
    part = both.told
    assert not both.narrative and part is not None and part is both.parts[0] and part.narrative
    assert parse("What was Zeta's revenue in 2023?").told is None


def test_a_running_footer_is_never_quoted() -> None:
    from engine.ask.narrative import candidates
    from engine.types import Evidence

    footer = "Zeta Devices Inc. | Q3 2023 Form 10-Q | 12"
    e = Evidence(chunk_id=1, doc_id="zeta", doc="ZETA_2023Q3_10Q", page=12, modality="text", score=0.5,
                 text=f"{LEGAL['zeta23q3dddd']} {footer}")
    assert [s for _, s in candidates([e], {})] == [LEGAL["zeta23q3dddd"]]


def test_words_that_name_the_filing_do_not_rank_a_sentence() -> None:
    from fakes_models import FakeEmbedder

    from engine.ask.narrative import find_quotes
    from engine.types import Evidence

    cert = "I have reviewed this quarterly report on Form 10-Q of Zeta Devices; it is presented fairly."
    texts = [cert, "A putative class action complaint was filed in federal court, alleging that Zeta misled investors."]
    used = [Evidence(chunk_id=i + 1, doc_id="zeta", doc="ZETA_2023Q3_10Q", page=40 + i, modality="text", score=0.5,
                     text=t) for i, t in enumerate(texts)]
    q = parse("What legal proceedings are presented in Zeta's quarterly reports?")
    assert find_quotes(q, used, {}, FakeEmbedder())[0].page == 41


def test_a_bare_verdict_is_no_summary_of_the_quotes(tmp_path: Path) -> None:
    lib = library(tmp_path, legal_docs(), reply="No.")
    q = "Has Zeta disclosed any legal proceedings in its quarterly reports, and what are they?"
    a = answered(lib, q)[-1].answer
    # not taken as the quotes' summary: the passages are answered next, as for any question
    assert a.quotes and not a.refused and not a.summarised and a.unsupported == []
    assert len(lib.llm.prompts) > 1 and "at most two sentences" not in lib.llm.prompts[-1][-1].content


DRIVERS = {
    "zeta22q3aaaa": "Net sales decreased primarily due to weaker demand for Mac and lower foreign currency rates.",
    "zeta23q1bbbb": "Net sales decreased primarily due to supply constraints on iPhone during the holiday quarter.",
    "zeta23q2cccc": "Net sales decreased primarily due to lower sales of Mac, partially offset by higher Services.",
    "zeta23q3dddd": "Net sales decreased primarily due to lower sales of iPad and Mac, partially offset by Services.",
}


def test_a_series_question_that_also_asks_why_quotes_each_filing_under_the_series(tmp_path: Path) -> None:
    # "Has there been any significant change ...? If so, what are the key drivers?": the series decides Yes or No,
    # and the drivers part is told in each filing's own words, summarised with the series in view
    docs = zeta_docs()
    for d in docs:
        d.chunks.append(("text", 20, f"Management's discussion. {DRIVERS[d.id]}"))

    def reply(msgs):  # type: ignore[no-untyped-def]
        if "at most two sentences" in msgs[-1].content:
            assert "Computed:" in msgs[-1].content  # the series is in view
            return "Lower sales of Mac and iPad drove the decline, partly offset by Services [1]."
        return "Insufficient information."

    lib = library(tmp_path, docs)
    lib.llm.reply = reply
    question = ("Has there been any significant change in Zeta's net sales over the reported quarters? If so, what "
                "are the key drivers for this change?")
    assert parse(question).parts[1].narrative == "drivers"
    events = answered(lib, question)
    a = events[-1].answer
    assert isinstance(events[-1], AnswerFinished) and a.summarised and not a.refused
    assert a.text.startswith("4 filings:") and "Yes." in a.text  # the verdict of the series leads
    assert a.series and a.extractive
    assert "Lower sales of Mac and iPad drove the decline" in a.text
    assert any(x.text == DRIVERS["zeta23q3dddd"] for x in a.quotes)
    assert a.quotes[0].doc == "ZETA_2023Q3_10Q"


def test_a_filing_that_says_nothing_material_changed_answers_no_across_filings(tmp_path: Path) -> None:
    docs = zeta_docs()
    for d in docs:
        d.chunks.append(("text", 22, "Critical Accounting Estimates. There have been no material changes to the "
                                     "Company's critical accounting estimates since its annual report."))
    lib = library(tmp_path, docs, reply="Yes, there are significant changes in Zeta's accounting policies [1].")
    q = "Are there any significant changes or new disclosures in Zeta's accounting policies in these 10-Qs?"
    a = answered(lib, q)[-1].answer
    assert a.summarised and not a.refused and a.quotes
    said = a.text.split("\n\n", 1)[1]
    assert said.startswith("No: \u201cThere have been no material changes to the Company's critical accounting")
    assert "(ZETA_2023Q3_10Q, p. 22) [1]" in said  # the newest filing saying so
    assert "Yes, there are significant changes" not in a.text
    assert any("the code decided No" in f for f in a.contradicted)
    # the quote's page and the note on the model are the code's words: nothing of them is flagged as unsupported
    assert a.unsupported == []

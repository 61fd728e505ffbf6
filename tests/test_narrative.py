"""Narrative answers: the one sentence splitter, the kind a question asks, quotes ranked with the kind's cue words,
the summary written from the quotes only and checked against them, shown in the CLI before the model's text."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fakes_models import FakeEmbedder, FakeLLM
from test_retrieve_lib import FakeDoc, build_library

from engine.ask.answer import Answerer
from engine.ask.faithful import unsupported
from engine.ask.narrative import find_quotes, shown_quotes, summarise, why_found, why_unquoted
from engine.ask.question import Intent, parse, points_back
from engine.sentences import split_sentences
from engine.types import CONTINUED, AnswerFinished, Evidence, Quote, QuotesFound, TokenStreamed
from engine.vocabulary import narrative

# --- the sentence splitter ------------------------------------------------------------------------------------


def test_sentences_keep_abbreviations_initials_and_decimals() -> None:
    text = ("In fiscal 2022, we acquired Current Health Ltd. (Current Health), a platform. Sales rose 5.2% due to "
            "U.S. demand. J. Smith resigned on Jan. 3, 2023!\n\nItem 8.01 Other Events\n• First • Second one")
    assert split_sentences(text) == [
        "In fiscal 2022, we acquired Current Health Ltd. (Current Health), a platform.",
        "Sales rose 5.2% due to U.S. demand.",
        "J. Smith resigned on Jan. 3, 2023!",
        "Item 8.01 Other Events",
        "First",
        "Second one",
    ]


def test_a_footnote_letter_after_a_full_stop_starts_a_sentence() -> None:
    text = "See Note 9 for further information. (j) Increase reflects higher commodity costs in 2022."
    assert split_sentences(text) == ["See Note 9 for further information.",
                                     "(j) Increase reflects higher commodity costs in 2022."]
    # an enumeration inside a sentence is not cut
    inside = "Charges include: (i) restructuring of $185 million and (ii) legal matters of $162 million."
    assert split_sentences(inside) == [inside]


def test_a_tables_lead_in_ends_its_sentence_at_the_colon() -> None:
    """The table stood after "The following table ...:" and is read apart: the words after the colon are the next
    paragraph's; a colon inside a sentence, or before a list's bullet, is no end."""
    text = ("See Note 7 for further information. Provision for Income Taxes The following table presents provision "
            "for income taxes (in millions, except for effective tax rate): The effective tax rate decreased from 2021 "
            "to 2022, primarily driven by higher deductions.")
    assert split_sentences(text) == [
        "See Note 7 for further information.",
        "Provision for Income Taxes The following table presents provision for income taxes (in millions, except for "
        "effective tax rate):",
        "The effective tax rate decreased from 2021 to 2022, primarily driven by higher deductions.",
    ]
    text = ("Operating expenses for the three months were as follows (dollars in millions): Research and Development "
            "The growth in R&D expense was driven primarily by headcount.")
    assert split_sentences(text)[1].startswith("Research and Development The growth"), split_sentences(text)
    for same in ("Notable changes by category were as follows: Computing: The 6.4% decline was driven by laptops.",
                 "The following tables summarize our segments: • Cloud"):
        assert split_sentences(same)[0].startswith(same.split(" •")[0])


def test_a_name_written_with_a_small_first_letter_starts_a_sentence() -> None:
    """"iPad", "eBay": a full stop before a name whose second letter is the capital ends the sentence; an
    abbreviation before one does not."""
    text = ("Mac net sales decreased due primarily to lower net sales of laptops. iPad net sales decreased during the "
            "quarter. Sellers list on marketplaces, e.g. eBay, at no cost. eCommerce sales rose 4%.")
    assert split_sentences(text) == [
        "Mac net sales decreased due primarily to lower net sales of laptops.",
        "iPad net sales decreased during the quarter.",
        "Sellers list on marketplaces, e.g. eBay, at no cost.",
        "eCommerce sales rose 4%.",
    ]


def test_sentences_are_linear_on_a_long_run() -> None:
    text = "Word. " * 20000 + "a" * 100000  # no capital after the last stop: one sentence with the run
    out = split_sentences(text)
    assert len(out) == 20000 and out[-1].endswith("a")


# --- which questions are narrative, and of which kind -----------------------------------------------------------


@pytest.mark.parametrize("text, kind", [
    ("What drove operating margin change as of FY2022 for 3M?", "drivers"),
    ("Why did Acme's gross margin fall in fiscal 2023?", "drivers"),
    ("What were the main reasons behind the decline in free cash flow?", "drivers"),
    ("Explain what caused the jump in SG&A last year.", "drivers"),
    ("Who are Acme's largest customers?", "parties"),
    ("What are the major acquisitions Globex completed in FY2021?", "parties"),
    ("Which companies did the firm buy during 2020?", "parties"),
    ("What does the 8-K filed in May announce?", "events"),
    ("Is Acme spinning off any business?", "events"),
    ("What was the result of the shareholder vote on the board chair proposal?", "events"),
    ("What is the nature of the legal proceedings against Acme?", "legal"),
    ("Are there any significant changes or new disclosures in Acme's accounting policies?", "policies"),
    ("Which new accounting standards did Acme adopt in 2023?", "policies"),
    ("Describe the lawsuits the company faces.", "legal"),
    ("Describe what the Devices segment sells.", "description"),
    ("Is Acme a capital-intensive business?", "description"),
])
def test_narrative_kind_read_once(text: str, kind: str) -> None:
    assert parse(text).narrative == kind


def test_a_company_named_buy_asks_for_no_party() -> None:
    assert parse("What goodwill does Best Buy have for the fiscal year ending January 28, 2023?").narrative != "parties"
    assert parse("Did Acme buy back shares in the third quarter?").narrative != "parties"


@pytest.mark.parametrize("text", [
    "What was Acme's total revenue in FY2023?",
    "How much did net income grow between FY2021 and FY2022?",
    "What is the FY2022 gross margin?",
    "How many stores did Acme operate?",
    "How much does Acme expect to pay for the separation in USD millions?",
    "How much does Acme expect to pay to spin off its unit in the future in USD million?",
    "Did revenue exceed $10 billion in FY2022?",
    "Among operations, investing and financing, which brought in the most cash in FY2023?",
])
def test_figures_counts_and_rankings_are_not_narrative(text: str) -> None:
    assert parse(text).narrative == ""


def test_judgement_question_is_narrative() -> None:
    q = parse("Does Acme have a healthy liquidity profile?")
    assert q.intent is Intent.JUDGEMENT and q.narrative


def test_cue_words_live_in_the_vocabulary() -> None:
    kinds = {k.name: k for k in narrative().kinds}
    assert {"due to", "driven by", "primarily", "as a result of", "offset by"} <= set(kinds["drivers"].cues)
    assert any(c.startswith("item 5.07") for c in kinds["events"].cues)
    assert kinds["description"].asked is None and narrative().kinds[-1].name == "description"


# --- quotes -------------------------------------------------------------------------------------------------


def _evidence(texts: list[str]) -> list[Evidence]:
    return [Evidence(chunk_id=i + 1, doc_id="acme", doc="ACME_2023_10K", page=10 + i, modality="text", score=0.5,
                     text=t) for i, t in enumerate(texts)]


MDA = [
    "Acme Widgets annual report. Our principal offices are in Springfield. The board met 12 times in the year.",
    "Gross margin decreased 1.7 percentage points in 2023, primarily due to higher raw material costs and the "
    "Belgium plant shutdown, partially offset by selling price increases. Selling expenses were flat.",
    "Revenue by segment: Cloud 620 Devices 380 Services 234 Total 1,234 620 380 234 1,234 99 88.",
]


def test_a_risk_list_and_the_certification_are_quoted_after_the_acquisition_itself() -> None:
    # a risk factor's list of what acquisitions may bring, item by item, and the officers' certification name the
    # company and acquisitions as often as the sentence reporting one; they rank below it
    q = parse("Does Acme report any significant new business acquisitions in its 10-Q?")
    texts = ["These transactions involve risks such as: \u2022 disruption of our ongoing business after we acquire "
             "a company; \u2022 the difficulty of incorporating acquired operations and technology into our offerings; "
             "\u2022 unknown liabilities of a company we acquired.",
             "I have reviewed this Quarterly Report on Form 10-Q of Acme Widgets Corporation.",
             "On February 22, 2023, we acquired Beta Health Inc. for cash consideration of approximately $3.5 billion."]
    quotes = find_quotes(q, _evidence(texts), {}, FakeEmbedder())
    assert quotes[0].text.startswith("On February 22, 2023, we acquired Beta Health")
    # the list's items inherit its lead-in's standing: alone, an item ranks as low as the list
    alone = find_quotes(q, _evidence([texts[0], texts[2]]), {}, FakeEmbedder())
    assert alone[0].text.startswith("On February 22, 2023")
    assert [x.text[:6] for x in alone] == ["On Feb"]  # the items, a shade below it unruled, are not quoted


def test_each_business_bought_is_quoted_however_far_behind_the_first() -> None:
    # the first sentence carries the note's heading, which shares the question's words and puts it far ahead; the
    # other purchases are items of the same list, each quoted, and the passage continued after its chunk is quoted
    q = parse("List the businesses Acme bought that the acquisitions note of its annual report describes.")
    texts = ["Business Acquisitions Note A. Acquisitions Orla On March 3, 2022, we acquired Orla Labs, a maker of "
             "sensors, for $210 million.",
             "The board met 12 times in the year.",
             "Vela On May 9, 2021, we acquired Vela, a seller of sealants, for $96 million in cash."]
    used = _evidence(texts)
    used[2] = dataclasses.replace(used[2], channel=CONTINUED)
    quotes = find_quotes(q, used, {}, FakeEmbedder())
    assert [x.text[:30] for x in quotes][:2] == [texts[0][:30], texts[2][:30]]
    assert quotes[0].score - quotes[1].score > 0.2  # behind the margin, quoted as an item of the list


def test_a_continued_passage_is_read_for_quotes_behind_the_first_passages() -> None:
    from engine.ask.narrative import PASSAGES, candidates

    texts = [f"Filler passage number {i} says nothing of the matter at all." for i in range(PASSAGES)]
    used = _evidence([*texts, "Ranked far behind, this passage is no candidate at all.",
                      "Carried on, this passage is read as its lead's next chunk."])
    used[-1] = dataclasses.replace(used[-1], channel=CONTINUED)
    said = [s for _, s in candidates(used, {})]
    assert said[-1].startswith("Carried on") and not any(s.startswith("Ranked far") for s in said)


def test_quotes_rank_the_driver_sentence_first_with_doc_and_page() -> None:
    q = parse("What drove the gross margin change in 2023 for Acme?")
    quotes = find_quotes(q, _evidence(MDA), {}, FakeEmbedder())
    assert 1 <= len(quotes) <= 4
    top = quotes[0]
    assert top.text.startswith("Gross margin decreased 1.7 percentage points") and top.page == 11
    assert top.source == 2 and top.doc == "ACME_2023_10K"
    # a table row read as text is never quoted
    assert not any(x.text.startswith("Revenue by segment") for x in quotes)


def test_a_sentence_introducing_a_list_is_quoted_with_its_items() -> None:
    from engine.sentences import with_lists

    text = ("Segment margin was 30.3% versus 34.8%. The decrease was primarily driven by the following: "
            "• One-time vaccine exit costs of $1.5 billion in 2022 • Currency impacts in cost of products sold "
            "partially offset by: • Lower litigation expense in 2022 Medical Segment: margin was 16.8%.")
    pieces = with_lists(text, 700)
    lead = ("The decrease was primarily driven by the following: • One-time vaccine exit costs of $1.5 billion in "
            "2022 • Currency impacts in cost of products sold partially offset by: • Lower litigation expense in 2022 "
            "Medical Segment: margin was 16.8%.")
    assert pieces[1] == lead and pieces[2:] == split_sentences(text)[2:]  # the items stay sentences of their own
    assert pieces[3] == "Currency impacts in cost of products sold partially offset by:"  # an item opens no list
    # only whole items that fit; a colon with no bullet after it joins nothing
    assert with_lists(text, 120)[1] == ("The decrease was primarily driven by the following: • One-time vaccine "
                                        "exit costs of $1.5 billion in 2022")
    assert with_lists("Revenue was as follows: Cloud grew. Devices fell.", 700) == split_sentences(
        "Revenue was as follows: Cloud grew. Devices fell.")
    # a middle dot is a bullet too, as some filings' bullets are read off the page
    dotted = ("Notable changes by category were as follows: · Appliances: The 16.1% decline was driven primarily "
              "by large appliances. · Entertainment: The 9.0% growth was driven primarily by gaming.")
    assert split_sentences(dotted)[1:] == ["Appliances: The 16.1% decline was driven primarily by large appliances.",
                                           "Entertainment: The 9.0% growth was driven primarily by gaming."]
    # the drivers question gets the lead-in with its items, once, not the bare lead-in or an item again
    q = parse("What drove the segment margin change in 2022?")
    quotes = find_quotes(q, _evidence([text]), {}, FakeEmbedder())
    texts = [x.text for x in quotes]
    assert lead in texts and "The decrease was primarily driven by the following:" not in texts
    assert not any(t != lead and t in lead for t in texts)


def test_a_sentence_on_the_costs_that_make_a_margin_answers_what_drove_it() -> None:
    costs = "Cost of products sold increased as a percent to sales in 2022, driven by freight and currency impacts."
    other = "Sales growth in 2022 was partially offset by supply constraints and by currency impacts."
    q = parse("What drove the gross margin change in 2022?")
    assert find_quotes(q, _evidence([other + " " + costs]), {}, FakeEmbedder())[0].text == costs
    # the credit is for naming the measure: a question about sales gets the sales sentence
    sales = parse("What drove the sales change in 2022?")
    assert find_quotes(sales, _evidence([other + " " + costs]), {}, FakeEmbedder())[0].text == other


def test_a_part_pointing_back_is_asked_about_what_the_part_before_names() -> None:
    """"..., and why were they taken?" says nothing of its own: its sentences are the ones giving the reasons for the
    write-downs the part before names, not any sentence with a driver cue."""
    q = parse("How large were Initech's 2024 inventory write-downs on the Falcon drone line, which plants recorded "
              "them, and why were they taken?")
    assert q.parts and points_back(q.parts[-1])
    texts = ["Other unallocated expense increased by $214 million in 2024 primarily due to higher pension costs.",
             "In 2024 we recorded inventory write-downs of $88 million on the Falcon drone line, primarily reflecting "
             "lower expected demand after the loss of a launch customer."]
    quotes = find_quotes(q, _evidence(texts), {}, FakeEmbedder())
    assert [x.text[:40] for x in quotes] == [texts[1][:40]]
    assert not points_back(parse("How large were the write-downs, and what did the auditors say about them?").parts[-1])


def test_cue_words_of_the_kind_asked_lift_a_sentence() -> None:
    plain = "Gross margin in 2023 was lower with higher raw material costs and with inflation."
    cued = "Gross margin in 2023 was lower, driven by higher raw material costs, as a result of inflation."
    q = parse("What drove the gross margin change in 2023?")
    quotes = find_quotes(q, _evidence([plain + " " + cued]), {}, FakeEmbedder())
    assert quotes[0].text == cued


def test_what_may_happen_is_no_answer_to_what_did() -> None:
    # a risk factor's "we may acquire" shares every word of the question; the acquisition made answers it
    maybe = "We may report significant new business acquisitions, which could harm our business and our results."
    done = "On February 22, 2023, we acquired One Medical for cash consideration of approximately $3.5 billion."
    q = parse("Does Acme report any significant new business acquisitions in these 10-Qs?")
    assert q.narrative == "parties"
    assert find_quotes(q, _evidence([maybe + " " + done]), {}, FakeEmbedder())[0].text == done


def test_a_sentence_that_points_elsewhere_or_would_happen_is_no_driver() -> None:
    # a cross-reference, a table's lead-in and its footnote share the question's words; none says what the effect was
    pointers = ("See Item 2, “Effect of Foreign Exchange Rates” for additional information on the effect of foreign "
                "exchange rates on net sales. The effect of foreign exchange rates on our net sales is as follows (in "
                "millions): Three Months Ended June 30 Six Months Ended June 30. ___________________ (1) Represents "
                "the change in net sales resulting from foreign exchange rates.")
    would = ("An assumed 10% adverse change in foreign exchange rates would result in declines of $1.3 billion in "
             "net sales.")
    did = "The effect of changes in foreign exchange rates reduced our net sales by $2.3 billion in Q2 2023."
    q = parse("What is the impact of foreign exchange rates on Acme's financial performance?")
    assert q.narrative == "drivers"
    quotes = find_quotes(q, _evidence([pointers + " " + would + " " + did]), {}, FakeEmbedder())
    assert quotes[0].text == did
    # the phrases live in the vocabulary, once
    assert "for additional information" in narrative().elsewhere and "would result" in {
        k.name: k for k in narrative().kinds}["drivers"].against


def test_a_reply_that_declines_but_names_what_the_quotes_hold_is_a_partial_summary() -> None:
    from engine.ask.narrative import partly

    quote = Quote(text="For 2021, includes a $2.1 billion charge related to our acquisition of Trillium. For 2019, a "
                       "charge related to our acquisition of Therachon.", doc="ACME_2021_10K", doc_id="acme", page=50,
                  source=8, chunk_id=1, region_id=None, bbox=None, score=1.0)
    q = parse("What are three main companies acquired by Acme mentioned in this 10K report?")
    said = "Insufficient information: [8] mentions Acme acquiring Trillium and Therachon, but not a third company."
    assert partly(said, [quote], q) == "[8] mentions Acme acquiring Trillium and Therachon, but not a third company."
    # a reply that only says what is missing, or cites nothing, declines
    for declines in ("Insufficient information: the quotes do not name three companies [8].",
                     "Insufficient information: [8] mentions companies acquired by Acme.",
                     "Insufficient information: Trillium and Therachon are named, but not a third company."):
        assert partly(declines, [quote], q) == "", declines
    # through the model: the partial reply is the summary, not a refusal
    llm = FakeLLM(lambda _m: said)
    gen = summarise(llm, q, [quote], "", 100, lambda: False)
    assert gen is not None and gen.text.startswith("[8] mentions Acme acquiring Trillium")


def test_a_quoted_figure_given_for_a_year_its_quote_does_not_name_is_flagged() -> None:
    def quote(text: str, n: int) -> Quote:
        return Quote(text=text, doc="ACME_2023_10Q", doc_id="acme", page=n, source=n, chunk_id=n, region_id=None,
                     bbox=None, score=1.0)

    quotes = [quote("Changes in foreign exchange rates impacted net sales by $(5.0) billion for Q3 2022 and by "
                    "$(10.5) billion for the nine months ended September 30, 2022.", 1),
              quote("International net sales in Q3 2023 increased by $1.4 billion in comparison with Q3 2022.", 2),
              quote("Inventories were $6,820 million as of December 31, 2022.", 3)]
    q = parse("What is the impact of foreign exchange rates on Acme's financial performance?")
    summary = ("For Q3 2023, net sales rose by $1.4 billion compared to Q3 2022 [2]. For Q2 2023, net sales fell by "
               "$10.5 billion compared to Q2 2022 [1]. Net sales fell by $5.0 billion in Q3 2022 [1].")
    assert unsupported(summary, quotes, q) == ["$10.5 billion for Q2 2023"]
    # a fiscal quarter against a calendar date may be a year apart: the filer's year ends in the next one
    assert unsupported("Inventories were $6,820 million in Q1 FY2023 [3].", quotes, q) == []
    # a list item's figure is told in its lead-in's year
    listed = [quote("Product development expenses for the year ended December 31, 2015, increased by $55.0 million "
                    "due to the following: • the addition of personnel; and • share-based compensation expense of "
                    "$54.7 million, a $30.0 million increase compared to the prior year.", 4)]
    dev = parse("What drove the change in Acme's product development expenses in 2016?")
    assert "$54.7 million for 2016" in unsupported(
        "Product development expenses in 2016 rose due to share-based compensation expense of $54.7 million.", listed,
        dev)
    assert not any(" for " in f for f in unsupported(
        "Product development expenses in 2015 rose due to share-based compensation expense of $54.7 million.", listed,
        dev))


def test_a_yes_no_summary_is_decided_by_what_the_quotes_state() -> None:
    from engine.ask.prompt import SUMMARY_YES_NO_RULE, YES_NO_RULE, summary_messages

    quote = Quote(text="On February 22, 2023, we acquired One Medical for approximately $3.5 billion.",
                  doc="ACME_2023_10Q", doc_id="acme", page=9, source=2, chunk_id=1, region_id=None, bbox=None,
                  score=1.0)
    asked = summary_messages(parse("Does Acme report any significant new business acquisitions?"), [quote])[-1]
    assert SUMMARY_YES_NO_RULE in asked.content and YES_NO_RULE not in asked.content
    assert "if they state neither, reply Insufficient information" in asked.content
    told = summary_messages(parse("What acquisitions did Acme make?"), [quote])[-1]
    assert SUMMARY_YES_NO_RULE not in told.content


def _quote(text: str, source: int = 2) -> Quote:
    return Quote(text=text, doc="ACME_2023_10Q", doc_id="acme", page=20 + source, source=source, chunk_id=source,
                 region_id=None, bbox=None, score=1.0)


@pytest.mark.parametrize(("question", "sentence", "no"), [
    # the interim report's "no material changes" to the subject asked
    ("Are there any significant changes in Acme's accounting policies?",
     "There have been no material changes to the Company\u2019s critical accounting estimates since the 2022 Form "
     "10-K.", True),
    ("Has Acme changed any of its significant accounting policies this quarter?",
     "There have been no material changes to our significant accounting policies disclosed in Note 1.", True),
    ("Have there been any material changes to Acme's risk factors?",
     "There have been no material changes to our risk factors since our annual report.", True),
    # nothing *material* is no answer to whether anything changed: the same 10-Q may state an estimate it changed
    ("Did Acme change any accounting estimates this quarter?",
     "There have been no material changes to our Critical Accounting Policies and Estimates.", False),
    # the legal note's closing sentence answers a question about material proceedings
    ("Is Acme involved in any materially important lawsuits or legal proceedings?",
     "Management believes that the final outcome of these legal proceedings will not have a material adverse effect "
     "on our financial statements.", True),
    ("Were there any changes in Acme's internal control over financial reporting?",
     "There was no change in our internal control over financial reporting during the quarter.", True),
    # ... but not a question about proceedings at all: some exist, none is material
    ("Is Acme involved in any lawsuits?",
     "Management believes that the final outcome of these legal proceedings will not have a material adverse effect "
     "on our financial statements.", False),
    # another subject: a change in internal control says nothing of accounting policies
    ("Are there any significant changes in Acme's accounting policies?",
     "There were no changes in our internal control over financial reporting during the first quarter.", False),
    # nor does a period placed against another: "the most recent 10-Q" is not "the most recent fiscal quarter"
    ("Were there any significant alterations to Acme's accounting policies as reported in the most recent 10-Q?",
     "During the most recent fiscal quarter, there has not occurred any change in our internal control over "
     "financial reporting that has materially affected our internal control over financial reporting.", False),
    ("Were there any significant alterations to Acme's accounting policies as reported in the most recent 10-Q?",
     "There have been no material changes to our accounting policies since the last annual report.", True),
    # the period's words name no subject
    ("Did Acme's operating expenses change significantly over the first nine months?",
     "There were no changes in our internal control over financial reporting during the first quarter.", False),
    # one item named, its effect immaterial: the item exists
    ("Did Acme make any significant acquisitions?",
     "Pro forma results have not been presented because the effects of the Zeta acquisition were not material to "
     "our consolidated results of operations.", False),
    # not a yes/no question
    ("What changes did Acme make to its accounting policies?",
     "There have been no material changes to our significant accounting policies.", False),
])
def test_a_quote_saying_nothing_of_the_subject_happened_decides_no(question: str, sentence: str, no: bool) -> None:
    from engine.ask.narrative import absence

    decided = absence(parse(question), [_quote("We sell widgets in 40 countries.", 1), _quote(sentence, 3)])
    assert (decided is not None) is no
    if decided is not None:
        assert decided.verdict is False and decided.text.startswith("No: \u201c" + sentence[:20])
        assert decided.text.endswith("(ACME_2023_10Q, p. 23) [3]")


def test_the_absence_sentence_leads_the_quotes_wherever_it_ranked() -> None:
    q = parse("Has Acme reported any materially important ongoing legal battles?")
    texts = ["We and our subsidiaries are party to a variety of litigation, claims, legal or regulatory proceedings, "
             "inquiries and investigations, including matters related to our advertising and product labels. "
             "Litigation claims filed in court by plaintiffs seek damages. A class action lawsuit was filed. While "
             "the results of such litigation, claims, legal or regulatory proceedings cannot be predicted with "
             "certainty, management believes that the final outcome of the foregoing will not have a material "
             "adverse effect on our financial statements."]
    quotes = find_quotes(q, _evidence(texts), {}, FakeEmbedder(), most=2)
    assert len(quotes) == 2 and "will not have a material adverse effect" in quotes[0].text


def test_the_model_is_told_the_quotes_no_and_its_yes_is_folded(tmp_path: Path) -> None:
    text = ("Legal proceedings. We are party to litigation, claims and legal proceedings from time to time. "
            "Management believes that the final outcome of these legal proceedings will not have a material adverse "
            "effect on our financial statements.")
    llm = FakeLLM(lambda msgs: "Yes, Acme reported material legal battles [1]. It is party to litigation [1].")
    lib = build_library(tmp_path, [FakeDoc("acme2023aaaa", "ACME_2023_10K", "Acme Widgets Corporation", "10-K",
                                            "FY2023", [("text", 1, "Acme Widgets annual report fiscal year 2023"),
                                                       ("text", 30, text)])], llm=llm)
    a = list(Answerer(lib.settings, lib.models).answer(
        "Has Acme reported any materially important legal proceedings?", lib.retriever(),
        scope=["acme2023aaaa"]))[-1].answer
    user = llm.prompts[0][-1].content
    # the verdict and its source reach the model; the quote's words stay inside the fenced sources
    assert "Decided by a quote: No, as source [" in user
    assert a.text.startswith("No: \u201cManagement believes that the final outcome")
    assert "It is party to litigation" in a.text and "reported material legal battles" not in a.text
    assert any("says Yes; the code decided No" in f for f in a.contradicted)
    assert a.unsupported == []  # the code's No and its page are not the model's words


def test_the_summary_of_a_later_part_is_asked_that_part() -> None:
    quote = Quote(text="The increase in sales and marketing costs is primarily due to increased payroll and related "
                       "expenses for personnel engaged in marketing and selling activities.", doc="ACME_2023_10Q",
                  doc_id="acme", page=27, source=2, chunk_id=1, region_id=None, bbox=None, score=1.0)
    q = parse("Has there been any significant change in Acme's operating expenses over the reported quarters? If so, "
              "what are the key drivers for this change?")
    seen: list[str] = []

    def reply(messages: list) -> str:  # type: ignore[type-arg]
        seen.append(messages[-1].content)
        return "Payroll for marketing and selling personnel drove it [2]."

    gen = summarise(FakeLLM(reply), q, [quote], "Yes. Operating expenses: ...", 100, lambda: False)
    assert gen is not None
    # the code stated the first part (the series and its Yes); the model is asked the second, with its line item
    asked = seen[0].split("Question: ", 1)[1].split("\n", 1)[0]
    assert asked.startswith("what are the key drivers for this change?") and "operating expenses" in asked
    assert "begin with Yes" not in seen[0]


def test_a_fiscal_year_the_quotes_do_not_give_a_fact_is_unsupported() -> None:
    quote = Quote(text="In fiscal 2022, we acquired all of the outstanding shares of Current Health Ltd. on November "
                       "2, 2021, for net cash consideration of $389 million.", doc="ACME_2023_10K", doc_id="acme",
                  page=51, source=3, chunk_id=1, region_id=None, bbox=None, score=1.0)
    q = parse("What are major acquisitions that Acme has done in FY2023, FY2022 and FY2021?")
    assert unsupported("Acme acquired Current Health Ltd. in FY2021 for $389 million [3].", [quote], q) == ["FY2021"]
    assert unsupported("Acme acquired Current Health Ltd. in fiscal 2022 for $389 million [3]. The quotes name no "
                       "acquisition in FY2021 or FY2023.", [quote], q) == []
    # the document's name names the filing, not the year of what it reports
    assert unsupported("Acme acquired Current Health Ltd. in FY2023 [3].", [quote], q,
                       names=["ACME_2023_10K"]) == ["FY2023"]
    # a year the code stated is supported
    assert unsupported("Acme acquired Current Health Ltd. in FY2023 [3].", [quote], q,
                       stated="FY2023: 1 acquisition") == []


def test_the_summary_prompt_names_the_years_asked_that_no_quote_names() -> None:
    from engine.ask.prompt import summary_messages

    quote = Quote(text="In fiscal 2022, we acquired all of the outstanding shares of Current Health Ltd.",
                  doc="ACME_2023_10K", doc_id="acme", page=51, source=3, chunk_id=1, region_id=None, bbox=None,
                  score=1.0)
    user = summary_messages(parse("What are major acquisitions that Acme has done in FY2023, FY2022 and FY2021?"),
                            [quote])[-1].content
    assert ("Of the years asked, the quotes are about fiscal 2022 only: answer for fiscal 2022, with the year each "
            "quote states.") in user
    # every year asked is quoted, none is, or none is asked: no such rule
    for asked in ("What acquisitions did Acme make in fiscal 2022?", "What acquisitions did Acme make?",
                  "What acquisitions did Acme make in 2019 and 2020?"):
        assert "the quotes name" not in summary_messages(parse(asked), [quote])[-1].content


def test_a_figure_question_gets_no_quotes() -> None:
    assert find_quotes(parse("What was Acme's total revenue in FY2023?"), _evidence(MDA), {}, FakeEmbedder()) == []


CREDIT = [
    "Acme Widgets current report. Item 1.01 Entry into a Material Definitive Agreement.",
    "On May 26, 2023, Acme entered into a new $4,200,000,000 five year unsecured revolving credit agreement with "
    "its lenders. Effective May 26, 2023, Acme terminated its $3,800,000,000 five year unsecured revolving credit "
    "agreement dated May 27, 2022. The board also approved a new logo for the company's stores.",
]


def test_a_figure_no_cell_answers_is_shown_beside_its_nearest_sentences() -> None:
    # a figure told in an 8-K's words: no cell states it, so the sentences nearest the question are quoted for the
    # reader; where a cell states it, or the code decided, nothing is quoted
    q = parse("By how much did Acme increase its unsecured five year revolving credit agreement on May 26, 2023?")
    assert not q.narrative
    used = _evidence(CREDIT)
    shown = shown_quotes(q, used, {}, FakeEmbedder(), decided=False, stated=False)
    said = [x.text for x in shown]
    new, old = CREDIT[1].split(" Effective")[0], "Effective" + CREDIT[1].split("Effective")[1].split(" The")[0]
    assert set(said[:2]) == {new, old} and all(x.page == 11 for x in shown)
    assert shown_quotes(q, used, {}, FakeEmbedder(), decided=False, stated=True) == []
    assert shown_quotes(q, used, {}, FakeEmbedder(), decided=True, stated=False) == []
    # a narrative question's quotes are its kind's, as before
    told = parse("What drove Acme's gross margin change in 2023?")
    assert shown_quotes(told, _evidence(MDA), {}, FakeEmbedder(), decided=False, stated=False) == \
        find_quotes(told, _evidence(MDA), {}, FakeEmbedder())


def test_a_part_asked_in_words_beside_a_decided_figure_gets_its_quotes() -> None:
    """"What was the gross margin in 2023, and who are its largest customers?": the code decides the figure, the
    filing's sentences answer the part asked in words; a refusal (a metric that does not suit) or a narrative
    question the code decided quotes nothing."""
    q = parse("What was Acme's gross margin in 2023, and who are its largest customers?")
    assert not q.narrative and q.told is q.parts[1] and q.told.narrative == "parties"
    used = _evidence([*MDA, "Our largest customers in 2023 were Globex Corporation (Globex) and Initech Inc. "
                            "(Initech), which together made up 31% of net sales."])
    shown = shown_quotes(q, used, {}, FakeEmbedder(), decided=True, stated=True)
    assert shown and "Globex" in shown[0].text
    assert shown == find_quotes(q.told, used, {}, FakeEmbedder())
    assert shown_quotes(q, used, {}, FakeEmbedder(), decided=True, stated=True, refused=True) == []
    whole = parse("What drove Acme's gross margin change in 2023?")
    assert whole.told is whole and shown_quotes(whole, used, {}, FakeEmbedder(), decided=True, stated=False) == []


def test_each_part_is_quoted_where_the_code_states_nothing() -> None:
    """"How concentrated were its receivables, and does it ask for collateral?": no cell states the share (the filing
    tells it in running text), so the figure part gets the sentences nearest it beside the words part's quotes, and
    the summary is asked the whole question; where a cell is stated, the words part alone is quoted and asked."""
    q = parse("How concentrated were Acme's trade receivables at December 31, 2023, and does Acme generally ask its "
              "customers for collateral?")
    assert q.told is q.parts[1]
    share = ("As of December 31, 2023, Acme had two customers that each represented 10% or more of total trade "
             "receivables, which together accounted for 27%.")
    collateral = "Acme generally does not require collateral from its customers when it sells on credit terms."
    used = _evidence([*MDA, share, collateral])
    shown = shown_quotes(q, used, {}, FakeEmbedder(), decided=False, stated=False)
    assert {share, collateral} <= {x.text for x in shown}
    alone = shown_quotes(q, used, {}, FakeEmbedder(), decided=False, stated=True)
    assert collateral in {x.text for x in alone} and share not in {x.text for x in alone}
    llm = FakeLLM(lambda _m: "Two customers made up 27% of trade receivables [4]; Acme generally does not require "
                             "collateral [5].")
    summarise(llm, q, shown, "", 100, lambda: False, whole=True)
    summarise(llm, q, alone, "", 100, lambda: False)
    asked = [m[-1].content.split("Question: ")[1] for m in llm.prompts]
    assert asked[0].startswith("How concentrated") and not asked[1].startswith("How concentrated")


def test_a_summary_declined_as_a_whole_is_asked_part_by_part() -> None:
    """The small model may decline a question of two parts whose quotes answer each ("Insufficient information: [6]
    [9]"): each part is then asked on its own, and the parts answered make the summary; a part declined does not
    make the whole a refusal. Where every part declines too, there is no summary."""
    q = parse("How much revenue was allocated to Acme's remaining performance obligations as of June 30, 2024, and "
              "over what period does Acme expect to recognize it?")
    quotes = [Quote("Revenue allocated to remaining performance obligations was $500 million as of June 30, 2024.",
                    "ACME_2024Q2_10Q", "acme", 17, 6, 6),
              Quote("We expect to recognize approximately 40% of this revenue over the next twelve months and the "
                    "remainder thereafter.", "ACME_2024Q2_10Q", "acme", 17, 6, 6)]

    def reply(messages: list[Any]) -> str:
        asked = messages[-1].content.split("Question: ")[1].split("\n")[0]
        if asked.startswith("How much") and "period" not in asked:
            return "$500 million [6]"  # a figure part answered by its figure alone
        return "Insufficient information: [6] [9]"

    llm = FakeLLM(reply)
    gen = summarise(llm, q, quotes, "", 100, lambda: False, whole=True)
    assert gen is not None and gen.text.startswith("$500 million [6].")
    assert len(llm.prompts) == 3  # the whole, then each part
    assert summarise(FakeLLM(lambda _m: "Insufficient information: [6]"), q, quotes, "", 100, lambda: False,
                     whole=True) is None
    # asked one part alone (the words part of a question whose figure the code states), nothing more is asked
    quiet = FakeLLM(lambda _m: "Insufficient information: [6]")
    assert summarise(quiet, q, quotes, "", 100, lambda: False) is None and len(quiet.prompts) == 1


def test_a_part_asking_why_of_a_ranked_pick_is_quoted_about_the_pick() -> None:
    """"Which segment grew fastest, and what drove it?": the code ranks the segments; the part asking why is
    asked of its pick, so the pick's sentence is quoted before another segment's."""
    q = parse("Which Acme segment grew fastest in 2023, and what drove it?")
    assert q.told is q.parts[1]
    texts = ["Gaming revenue was up 22% from a year ago, driven by sales of laptops.",
             "Data Center revenue was up 171% from a year ago, led by cloud providers buying our systems."]
    used = _evidence(texts)
    shown = shown_quotes(q, used, {}, FakeEmbedder(), decided=True, stated=True, about="Data Center")
    assert shown and shown[0].text == texts[1]


def test_a_question_asking_how_a_matter_ended_quotes_how_it_ended() -> None:
    """"How was the lawsuit resolved?" asks for the sentences that say how it ended (the legal kind's ``alike``
    words: "in favor of", "reversed", "concluded"), not only for the one that says what it alleged, which shares
    more of the question's words; a question that asks no outcome ranks as before."""
    texts = ["In 2010, Oracle brought a copyright lawsuit against Google in the Northern District of California, "
             "alleging that Google's Android operating system infringes Oracle's copyrights related to Java APIs.",
             "On April 5, 2021, the Supreme Court reversed the Federal Circuit's ruling and found that Google's use "
             "of the Java APIs was a fair use as a matter of law.",
             "On May 14, 2021, the Federal Circuit entered an order affirming the final judgment in favor of Google, "
             "and the case is now concluded."]
    used = _evidence([" ".join(texts)])
    resolved = find_quotes(parse("What was the outcome of Oracle's lawsuit?"), used, {}, FakeEmbedder())
    assert resolved[0].text in texts[1:]
    alleged = find_quotes(parse("What does Oracle's copyright lawsuit against Google allege?"), used, {},
                          FakeEmbedder())
    assert alleged[0].text == texts[0]


def test_a_ranking_by_change_quotes_why_its_pick_moved() -> None:
    """"Which category performed the best?" asks no why, yet the analyst reads next why the pick moved: the
    filing's sentence about the pick (named where the sentence starts) that says what drove it; not one naming it
    as what offset another's fall, nor one that says no cause; nothing for a ranking by amount."""
    q = parse("Which Acme product category performed the best in Q2 2023?")
    assert q.told is None and q.ranking is not None and q.ranking.by_change
    texts = ["Appliances: The 16.1% comparable sales decline was driven primarily by large appliances.",
             "Entertainment: The 9.0% comparable sales growth was driven primarily by gaming, partially offset by "
             "declines in drones.",
             "Revenue decreased, primarily due to appliances, partially offset by growth in Entertainment.",
             "Entertainment is one of our six revenue categories and includes gaming hardware and software."]
    used = _evidence(texts)
    shown = shown_quotes(q, used, {}, FakeEmbedder(), decided=True, stated=True, about="Entertainment")
    assert [x.text for x in shown] == [texts[1]]
    assert shown_quotes(q, used, {}, FakeEmbedder(), decided=True, stated=True, about="Services") == []
    largest = parse("Which Acme product category had the largest revenue in Q2 2023?")
    assert shown_quotes(largest, used, {}, FakeEmbedder(), decided=True, stated=True, about="Entertainment") == []


# --- the summary check --------------------------------------------------------------------------------------


QUOTES = [Quote("Gross margin decreased 1.7 percentage points, primarily due to higher raw material costs, "
                "partially offset by selling price increases.", "ACME_2023_10K", "acme", 11, 2, 2)]


def test_a_faithful_summary_is_not_flagged() -> None:
    q = parse("What drove the gross margin change in 2023?")
    assert unsupported("Gross margin fell 1.7 percentage points in 2023, mainly due to higher raw material costs, "
                       "partly offset by price increases [2].", QUOTES, q) == []


def test_invented_drivers_and_numbers_are_flagged() -> None:
    q = parse("What drove the gross margin change in 2023?")
    flags = unsupported("Gross margin fell 3.4% due to the Russia exit and litigation charges [2].", QUOTES, q)
    assert "3.4%" in flags and "Russia" in flags and "litigation" in flags
    assert "Gross" not in flags and "margin" not in flags


def test_a_yes_that_repeats_the_question_needs_the_quotes_behind_it() -> None:
    # the question's words support a summary's other sentences, not the Yes that repeats them: nothing quoted says
    # card members were retained
    quotes = [Quote("Card Member loans as of December 31, 2022 and 2021 consisted of gross Card Member loans of "
                    "$28.5 billion and $26.6 billion.", "AXP_2022_10K", "axp", 107, 1, 1)]
    q = parse("Was Acme able to retain card members during 2022?")
    assert unsupported("Yes, Acme was able to retain card members during 2022 [1].", quotes, q, ["Acme"]) == ["retain"]
    # nor a sentence affirming it in the question's words alone, Yes or not; a sentence telling the quotes' own
    # words counts the question's as before ("card member")
    assert unsupported("Acme's card member loans rose to $28.5 billion [1]. It was able to retain card members.",
                       quotes, q, ["Acme"]) == ["retain"]
    assert unsupported("Acme's card member loans rose to $28.5 billion [1].", quotes, q, ["Acme"]) == []
    # a Yes the quotes hold is not flagged
    held = [Quote("Acme retained 98% of its card members in 2022.", "AXP_2022_10K", "axp", 7, 1, 1)]
    assert unsupported("Yes, Acme retained 98% of its card members in 2022 [1].", held, q) == []


def test_company_names_and_stated_figures_are_supported() -> None:
    q = parse("What drove the gross margin change in 2023 for Acme?")
    flags = unsupported("Acme Widgets' gross margin went from 40.0% to 38.3%, due to raw material costs [2].", QUOTES,
                        q, names=["ACME_2023_10K", "Acme Widgets", "FY2022: 40.0%; FY2023: 38.3%"])
    assert flags == []


# --- end to end: the answerer with a fake model -------------------------------------------------------------


def _drivers_library(tmp_path: Path, llm: FakeLLM):  # type: ignore[no-untyped-def]
    return build_library(tmp_path, [FakeDoc("acme2023aaaa", "ACME_2023_10K", "Acme Widgets Corporation", "10-K",
                                            "FY2023", [("text", 1, "Acme Widgets annual report fiscal year 2023"),
                                                       ("text", 7, MDA[1])])], llm=llm)


def test_answer_quotes_first_then_a_summary_from_the_quotes_only(tmp_path: Path) -> None:
    llm = FakeLLM(lambda msgs: "Gross margin fell due to higher raw material costs and the Russia exit [1].")
    lib = _drivers_library(tmp_path, llm)
    events = list(Answerer(lib.settings, lib.models).answer("What drove Acme's gross margin change in 2023?",
                                                             lib.retriever(), scope=["acme2023aaaa"]))
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("QuotesFound") < kinds.index("TokenStreamed")
    quotes = next(e for e in events if isinstance(e, QuotesFound)).quotes
    assert quotes and quotes[0].page == 7
    # the model saw the quoted sentences, fenced, and not the rest of the passages
    user = llm.prompts[0][-1].content
    assert "<source>" in user and quotes[0].text in user and "annual report fiscal year 2023" not in user
    assert "at most two sentences" in user
    a = events[-1].answer
    assert isinstance(events[-1], AnswerFinished) and a.quotes == quotes
    assert "Russia" in a.unsupported and "raw" not in a.unsupported
    assert any(c.page == 7 for c in a.citations)
    assert "quotes" in a.to_json() and a.to_json()["unsupported"] == a.unsupported
    assert any(isinstance(e, TokenStreamed) for e in events)
    assert "quotes" in a.timings and a.summarised


def _revising(revised: str):  # type: ignore[no-untyped-def]
    """A model whose first summary invents a driver and whose reply to the summary check's flags is ``revised``."""
    def reply(msgs):  # type: ignore[no-untyped-def]
        if "A check of your answer" in msgs[-1].content:
            return revised
        return "Gross margin fell due to higher raw material costs and the Russia exit [1]."
    return FakeLLM(reply)


def test_a_flagged_summary_is_asked_once_more_and_the_draft_kept_beside_it(tmp_path: Path) -> None:
    llm = _revising("Gross margin fell due to higher raw material costs and the Belgium plant shutdown [1].")
    lib = _drivers_library(tmp_path, llm)
    settings = replace(lib.settings, revise_summaries=True)
    events = list(Answerer(settings, lib.models).answer("What drove Acme's gross margin change in 2023?",
                                                         lib.retriever(), scope=["acme2023aaaa"]))
    a = events[-1].answer
    assert len(llm.prompts) == 2
    # the second turn: the same quotes, the draft as the model's reply, the flags fenced as data
    second = llm.prompts[1]
    assert [m.role for m in second[-2:]] == ["assistant", "user"] and "Russia" in second[-2].content
    assert "<source>" in second[-1].content and "- Russia" in second[-1].content
    assert second[1].content == llm.prompts[0][1].content
    assert "Belgium plant shutdown" in a.text and "Russia" not in a.text and a.unsupported == [] and a.summarised
    assert "Russia" in a.draft and "Russia" in a.draft_flags
    assert a.to_json()["draft_flags"] == a.draft_flags
    streamed = "".join(e.text for e in events if isinstance(e, TokenStreamed))
    assert streamed.index("Russia") < streamed.index("writes it again") < streamed.index("Belgium plant")
    from mfr_tui.evidence import answer_from_json, answer_markdown

    back = answer_from_json(json.loads(json.dumps(a.to_json())))
    assert back.draft == a.draft and back.draft_flags == a.draft_flags
    assert "first summary (flagged, written again; not the answer)" in answer_markdown(back)


@pytest.mark.parametrize("revised", [
    "Gross margin fell due to the Russia exit and the Ukraine war [1].",  # flagged more
    "Gross margin fell due to the Russia exit [1].",  # flagged as much
    "Insufficient information: the quotes do not say.",  # declined
])
def test_a_summary_asked_again_replaces_the_draft_only_when_flagged_less(tmp_path: Path, revised: str) -> None:
    llm = _revising(revised)
    lib = _drivers_library(tmp_path, llm)
    on = replace(lib.settings, revise_summaries=True)
    a = list(Answerer(on, lib.models).answer("What drove Acme's gross margin change in 2023?",
                                             lib.retriever(), scope=["acme2023aaaa"]))[-1].answer
    assert len(llm.prompts) == 2 and a.timings["parts"] == 2
    assert a.text.startswith("Gross margin fell due to higher raw material costs and the Russia exit")
    assert "Russia" in a.unsupported and a.draft == "" and a.draft_flags == []


def test_no_summary_is_asked_again_when_it_is_not_flagged_or_the_setting_is_off(tmp_path: Path) -> None:
    llm = FakeLLM(lambda msgs: "Gross margin fell due to higher raw material costs [1].")
    lib = _drivers_library(tmp_path, llm)
    question = "What drove Acme's gross margin change in 2023?"
    on = replace(lib.settings, revise_summaries=True)
    a = list(Answerer(on, lib.models).answer(question, lib.retriever(), scope=["acme2023aaaa"]))[-1].answer
    assert len(llm.prompts) == 1 and a.unsupported == [] and a.draft == ""
    off = _revising("Gross margin fell due to higher raw material costs and the Belgium plant shutdown [1].")
    lib = _drivers_library(tmp_path / "off", off)
    assert not lib.settings.revise_summaries  # off unless asked for
    a = list(Answerer(lib.settings, lib.models).answer(question, lib.retriever(), scope=["acme2023aaaa"]))[-1].answer
    assert len(off.prompts) == 1 and "Russia" in a.unsupported and a.draft == ""


def test_cli_prints_the_quotes_before_the_summary_and_the_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from mfr_tui.cli import quoted

    x = QUOTES[0]
    printed = quoted([x])
    assert printed.index(x.text) < printed.index("Answer:")
    assert "(ACME_2023_10K, p. 11) [2]" in printed
    assert quoted([]) == ""
    assert json.loads(json.dumps(x.to_json()))["page"] == 11 and Quote.from_json(x.to_json()) == x


def test_a_summary_that_finds_nothing_falls_back_to_the_passages_and_keeps_the_quotes(tmp_path: Path) -> None:
    def reply(msgs):  # type: ignore[no-untyped-def]
        if "at most two sentences" in msgs[-1].content:
            return "Insufficient information: the quotes do not say."
        return "Raw material costs rose [1]; the Belgium shutdown cost money."

    llm = FakeLLM(reply)
    lib = _drivers_library(tmp_path, llm)
    a = list(Answerer(lib.settings, lib.models).answer("What drove Acme's gross margin change in 2023?",
                                                        lib.retriever(), scope=["acme2023aaaa"]))[-1].answer
    assert len(llm.prompts) == 2 and "<source>" in llm.prompts[1][-1].content
    assert a.timings["parts"] == len(llm.prompts)  # the prompts sent: the quotes' summary, then the passages
    assert not a.refused and a.quotes and a.text.startswith("Raw material costs rose")
    # shown beside the quotes, the passages' answer is checked against them as a summary is ("costs" quoted is
    # "cost"), and the flag says the model wrote from the whole evidence
    assert a.unsupported == ["money"] and not a.summarised
    assert a.unsupported_note.startswith("the model answered from the whole evidence")


def test_the_sentences_shown_beside_a_figure_leave_the_model_the_whole_evidence(tmp_path: Path) -> None:
    llm = FakeLLM(lambda msgs: "The agreement rose by $400,000,000, from $3.8 billion to $4.2 billion [1].")
    lib = build_library(tmp_path, [FakeDoc("acme2023bbbb", "ACME_2023_8K", "Acme Widgets Corporation", "8-K",
                                           "FY2023", [("text", 1, CREDIT[0]), ("text", 2, CREDIT[1])])], llm=llm)
    question = "By how much did Acme increase its unsecured five year revolving credit agreement in May 2023?"
    events = list(Answerer(lib.settings, lib.models).answer(question, lib.retriever(), scope=["acme2023bbbb"]))
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("QuotesFound") < kinds.index("TokenStreamed")
    a = events[-1].answer
    assert any("$4,200,000,000" in x.text for x in a.quotes) and all(x.page == 2 for x in a.quotes)
    # one prompt, of the passages (not the quotes' summary), and its answer is not checked as a summary
    assert len(llm.prompts) == 1 and "at most two sentences" not in llm.prompts[0][-1].content
    assert a.text.startswith("The agreement rose") and not a.summarised and a.unsupported == []
    assert any(c.page == 2 for c in a.citations)


def test_a_reply_that_declines_beside_the_quotes_is_not_flagged() -> None:
    from engine.ask.faithful import check_summary

    q = parse("What drove the gross margin change in 2023 for Acme?")
    quotes = find_quotes(q, _evidence(MDA), {}, FakeEmbedder())
    said = "Insufficient information: none of the sources answers the question. Searched: tier text+tables."
    assert quotes and check_summary(said, "", quotes, q, _evidence(MDA)) == []
    assert check_summary("Tariffs on steel drove it [1].", "", quotes, q, _evidence(MDA)) == ["Tariffs", "steel"]


def test_the_code_s_also_named_sentence_is_not_checked_as_the_model_s() -> None:
    """The code's "[2] also names Zephyr, in a sentence with “acquisition of”." after a summary says what a quote
    names; read as the model's claim, a planned acquisition's quote made it "stated as fact"."""
    from engine.ask.faithful import check_summary
    from engine.ask.narrative import also_named

    q = parse("Which companies did Acme acquire in fiscal 2021?")
    texts = ["In fiscal 2021, we completed the acquisition of Orchid, a privately held company, for approximately "
             "$1.2 billion.", "Professional fees increased primarily due to costs of our planned acquisition of "
             "Zephyr Systems."]
    evidence = _evidence(texts)
    quotes = [Quote(t, "ACME_2023_10K", "acme", 10 + i, i + 1, i + 1) for i, t in enumerate(texts)]
    said = "Acme acquired Orchid in fiscal 2021 for approximately $1.2 billion [1]."
    tail = also_named(q, quotes, said)
    assert "Zephyr" in tail
    assert check_summary(said + tail, "", quotes, q, evidence) == []
    assert "planned" in " ".join(check_summary(said + " Acme acquired Zephyr Systems [2].", "", quotes, q, evidence))


def test_citations_of_sources_never_given_are_flagged() -> None:
    """A reply run into a list of numbers ("... is [2] [3] ... [40]") cites sources the model was never given: one
    flag names the first and how many more; citing the sources given is no such flag."""
    from engine.ask.faithful import check_summary

    q = parse("What drove the gross margin change in 2023 for Acme?")
    evidence = _evidence(MDA)
    quotes = find_quotes(q, evidence, {}, FakeEmbedder())
    run_on = "Acme's margin is " + " ".join(f"[{n}]" for n in range(1, 41))
    flags = check_summary(run_on, "", quotes, q, evidence)
    assert f"[{len(evidence) + 1}] and {39 - len(evidence)} more cited: no such source ({len(evidence)} given)" in flags
    assert not any("no such source" in f for f in check_summary("Tariffs on steel drove it [1].", "", quotes, q,
                                                                 evidence))


# --- judgements decided by standard ratios -------------------------------------------------------------------


def _sources(*tables):  # type: ignore[no-untyped-def]
    from engine.ask.cells import TableSource

    return [TableSource(m, t) for m, t in enumerate(tables, 1)]


def test_capital_intensity_is_decided_by_capex_and_fixed_assets_from_their_own_statements() -> None:
    from asking import decided
    from test_formulas import CASH, INCOME, table

    from engine.ask.verdicts import JudgementVerdict

    balance = table("Consolidated Balance Sheets", ["December 31, 2019", "December 31, 2018"], {
        "Property, plant and equipment": [9000.0, 8800.0],  # gross, printed above the net line
        "Less: Accumulated depreciation": [-8747.0, -8518.0],
        "Property, plant and equipment — net": [253.0, 282.0],
        "Total assets": [19845.0, 17890.0],
    })
    text = decided(JudgementVerdict(), "Is Activision a capital-intensive business based on FY2019 data?",
                   _sources(INCOME, balance, CASH))
    assert text.startswith("No, by 2 standard ratios")
    assert "116 / 6,489 * 100 = 1.79%" in text and "253 / 19,845 * 100 = 1.27%" in text
    assert "Thresholds: conventions" in text  # the thresholds' source is said with them
    # the same question worded otherwise reads the same
    assert decided(JudgementVerdict(), "Based on FY2019, would you call Activision capital intensive?",
                   _sources(INCOME, balance, CASH)).startswith("No")


def test_liquidity_yes_when_both_ratios_clear_their_threshold_and_the_ratios_alone_on_a_tie() -> None:
    from asking import decided
    from test_formulas import BALANCE, table

    from engine.ask.verdicts import JudgementVerdict

    text = decided(JudgementVerdict(), "Does Activision have a healthy liquidity profile as of FY2019?",
                   _sources(BALANCE))
    assert text.startswith("Yes, by 2 standard ratios") and "current ratio FY2019: 7,292 / 3,342" in text
    tight = table("Consolidated Balance Sheets", ["December 31, 2019"], {
        "Inventories": [3000.0], "Total current assets": [4000.0], "Total current liabilities": [3500.0]})
    # a tie: no Yes or No, the two ratios said as the evidence (current 1.14 above 1, quick 0.29 below)
    text = decided(JudgementVerdict(), "Is the company's liquidity healthy in FY2019?", _sources(tight))
    assert text.startswith("The 2 standard ratios disagree: current ratio FY2019: 4,000 / 3,500"), text
    assert not text.startswith(("Yes", "No")) and "Thresholds:" in text


def test_high_growth_is_decided_by_the_years_revenue_growth() -> None:
    from asking import decided
    from test_formulas import INCOME, table

    from engine.ask.verdicts import JudgementVerdict

    # 6,489 against 7,500: a fall of 13.5%, no high growth; the threshold's source is said
    text = decided(JudgementVerdict(), "Are Activision's FY2019 financials that of a high growth company?",
                   _sources(INCOME))
    assert text.startswith("No, by 1 standard ratio") and "(6,489 - 7,500) / 7,500 * 100 = -13.48%" in text
    assert "Eurostat-OECD" in text
    fast = table("Consolidated Statements of Operations", ["2019", "2018"], {"Total net revenues": [9000.0, 7500.0]})
    assert decided(JudgementVerdict(), "Was Activision a fast-growing company in FY2019?",
                   _sources(fast)).startswith("Yes")
    # "high growth" names the state; a question whether it changed is no judgement of it
    assert parse("Has Acme's growth rate changed since 2021?").judgement == ""


def test_a_judgement_the_vocabulary_does_not_know_is_not_decided() -> None:
    assert parse("Is Acme a sustainable business?").judgement == ""
    assert parse("Is Acme capital intensive?").judgement == "capital intensive"


def test_quotes_reach_the_tui_as_text_never_markup() -> None:
    from engine.types import Answer
    from mfr_tui.widgets.ask import quotes_text, unsupported_text

    hostile = Quote("Revenue rose [bold red]due to[/] [@click=app.quit]pricing\x1b[2J.", "ACME_10K", "acme", 4, 1, 1)
    text = quotes_text([hostile])
    assert "[bold red]due to[/]" in text.plain and "[@click=app.quit]" in text.plain and "\x1b" not in text.plain
    assert "ACME_10K, p. 4 [1]" in text.plain
    flag = unsupported_text(Answer("q", "s", [], "text", quotes=[hostile], unsupported=["[blink]Russia"]))
    assert "[blink]Russia" in flag.plain
    assert unsupported_text(Answer("q", "s", [], "text")).plain == ""
    # a long list is cut for the reader, saying how many more there are
    many = Answer("q", "s", [], "text", quotes=[hostile], unsupported=[f"w{i}" for i in range(40)])
    assert "w14 and 25 more" in unsupported_text(many).plain and "w15" not in unsupported_text(many).plain


def test_each_narrative_part_gets_its_quotes() -> None:
    passages = _evidence([
        MDA[1],
        "Our largest customer, Globex Retail, accounted for 14% of net sales. Shipping volumes were steady.",
        "The board met twelve times. Our offices are leased. Our fiscal year ends in December.",
    ])
    q = parse("What drove the gross margin change in 2023, and who is Acme's largest customer?")
    assert len(q.parts) == 2 and [p.narrative for p in q.parts] == ["drivers", "parties"]
    quotes = find_quotes(q, passages, {}, FakeEmbedder())
    said = [x.text for x in quotes]
    assert any(s.startswith("Gross margin decreased") for s in said)
    assert any("Globex Retail" in s for s in said)


def test_a_code_decision_is_answered_without_quotes(tmp_path: Path) -> None:
    from test_formulas import CASH, INCOME, table

    balance = table("Consolidated Balance Sheets", ["December 31, 2019", "December 31, 2018"], {
        "Property and equipment, net": [253.0, 282.0], "Total assets": [19845.0, 17890.0]})
    text = [("text", 7, "Capital spending was primarily due to data center investments. The business is asset light.")]
    tables = [("table", 3, "Consolidated Statements of Operations", INCOME),
              ("table", 4, "Consolidated Balance Sheets", balance),
              ("table", 5, "Consolidated Statements of Cash Flows", CASH)]
    q = "Is Activision a capital-intensive business based on FY2019 data?"

    def ask(chunks):  # type: ignore[no-untyped-def]
        lib = build_library(tmp_path / str(len(chunks)), [FakeDoc("atvi2019aaaa", "ATVI_2019_10K", "Activision",
                                                                  "10-K", "FY2019", chunks)], llm=FakeLLM())
        return list(Answerer(lib.settings, lib.models).answer(q, lib.retriever(), scope=["atvi2019aaaa"]))

    decided = ask(text + tables)
    a = decided[-1].answer
    assert a.extractive.startswith("No, by 2 standard ratios")
    assert a.quotes == [] and not any(isinstance(e, QuotesFound) for e in decided)
    undecided = ask(text)  # no statement to decide it: the filing's sentences are quoted
    assert undecided[-1].answer.quotes and any(isinstance(e, QuotesFound) for e in undecided)


@pytest.mark.parametrize(("text", "told"), [
    ("What drove gross margin change as of FY2022?", True),
    ("What are three main companies acquired by Acme mentioned in this 10K report?", True),
    ("As of Q2 2023, is Acme spinning off any large business segments?", True),
    ("What was the gross margin in FY2022?", False),
    ("Is Acme capital intensive?", False),  # a judgement: ratios from the statements decide it
    ("Describe the trend shown in the revenue chart on page 4.", False),  # the figure answers it
])
def test_told_in_words_is_a_narrative_question_that_no_ratio_decides(text: str, told: bool) -> None:
    assert parse(text).told_in_words is told


def test_a_filings_own_list_of_drivers_is_the_summary_as_the_filing_parts_it() -> None:
    from engine.ask.narrative import listed

    q = parse("What drove gross margin change as of FY2022 for Acme?")
    lst = _quote("Percentages in chart are as a percent to total sales) Cost of products sold increased as a "
                 "percent to sales driven by: • One-time plant exit related costs • Currency impacts in the Devices "
                 "segment • Commodity inflation in the Tools segment partially offset by • Supply chain benefits in "
                 "the Tools segment The amortization expense included in cost of products sold was $4.3 billion.", 5)
    assert listed(q, [lst]) == (
        "Cost of products sold increased as a percent to sales driven by: One-time plant exit related costs; Currency "
        "impacts in the Devices segment; Commodity inflation in the Tools segment; partially offset by: Supply chain "
        "benefits in the Tools segment [5].")
    headed = _quote("The increase was primarily driven by the following: • Lower litigation expense • Supply chain "
                    "benefits in 2022 Devices Segment: In 2022, the segment margin was 30.3%.", 3)
    assert listed(q, [headed]) == ("The increase was primarily driven by the following: Lower litigation expense; "
                                   "Supply chain benefits in 2022 [3].")
    # not the kind asked, no cause in the lead-in, no list, or a list that is not the best quote: the model summarises
    assert listed(parse("Who are Acme's largest customers?"), [lst]) == ""
    assert listed(q, [_quote("These transactions involve risks such as: • Integration • Retention of staff")]) == ""
    assert listed(q, [_quote("Gross margin fell primarily due to higher freight costs.")]) == ""
    assert listed(q, [_quote("Gross margin fell primarily due to higher freight costs."), lst]) == ""


def test_a_listed_driver_answer_asks_the_model_for_no_summary(tmp_path: Path) -> None:
    llm = FakeLLM(lambda msgs: "Gross margin fell due to supply chain benefits [1].")
    page = ("Cost of products sold increased as a percent to sales driven by: • Higher freight and logistics costs "
            "• Currency impacts in the Devices segment partially offset by: • Supply chain benefits in the Tools "
            "segment The amortization expense was $4.3 billion.")
    lib = build_library(tmp_path, [FakeDoc("acme2023aaaa", "ACME_2023_10K", "Acme Widgets Corporation", "10-K",
                                           "FY2023", [("text", 1, "Acme Widgets annual report fiscal year 2023"),
                                                      ("text", 7, page)])], llm=llm)
    events = list(Answerer(lib.settings, lib.models).answer("What drove Acme's gross margin change in 2023?",
                                                             lib.retriever(), scope=["acme2023aaaa"]))
    a = events[-1].answer
    assert isinstance(events[-1], AnswerFinished) and a.summarised and a.unsupported == []
    assert ("driven by: Higher freight and logistics costs; Currency impacts in the Devices segment; partially offset "
            "by: Supply chain benefits in the Tools segment [") in a.text
    assert llm.prompts == []  # the filing's list is the summary: no model rewrites which item is which


def test_a_party_the_quotes_define_and_the_summary_leaves_out_is_named_after_it() -> None:
    from engine.ask.narrative import also_named

    both = Quote("In fiscal 2022, we acquired all of the outstanding shares of Rowan Care Ltd. (“Rowan Care”) and "
                 "Two Oaks, LLC d/b/a Perch Furniture (“Perch”).", "ACME_2023_10K", "acme", 44, 4, 4)
    terms = Quote("We entered into a credit agreement with First Bank, N.A. (the “Credit Agreement”) and issued "
                  "notes (“2025 Notes”) to fund the acquisition of Rowan Care.", "ACME_2023_10K", "acme", 45, 5, 5)
    risk = Quote("We may acquire businesses such as Northwind Ltd. (“Northwind”) in the future.", "ACME_2023_10K",
                 "acme", 12, 6, 6)
    for asked in ("What are major acquisitions that Acme has done in FY2023, FY2022 and FY2021?",
                  "Which companies did Acme purchase in fiscal 2021, fiscal 2022 and fiscal 2023?"):
        q = parse(asked)
        assert q.narrative == "parties"
        summary = "Acme acquired Rowan Care Ltd. in fiscal 2022 [4]."
        # the party left out is named with its quote; a defined agreement or note, a party already named, or one
        # of a sentence about what may happen is not
        assert also_named(q, [both, terms, risk], summary) == " [4] also names Perch, in a sentence with “we acquired”."
        assert also_named(q, [both], summary + " It also bought Perch [4].") == ""
        assert unsupported(summary + also_named(q, [both], summary), [both], q) == []
    # a question of another kind gets nothing added
    assert also_named(parse("What drove Acme's gross margin change in 2023?"), [both], "Costs rose [4].") == ""


def test_the_summary_of_a_parties_question_names_every_party_its_quote_defines() -> None:
    both = Quote("In fiscal 2022, we acquired all of the outstanding shares of Rowan Care Ltd. (“Rowan Care”) and "
                 "Two Oaks, LLC d/b/a Perch Furniture (“Perch”).", "ACME_2023_10K", "acme", 44, 4, 4)
    llm = FakeLLM(lambda msgs: "Acme acquired Rowan Care Ltd. [4].")
    gen = summarise(llm, parse("What acquisitions did Acme make in fiscal 2022?"), [both], "", 200, lambda: False)
    assert gen is not None
    assert gen.text == "Acme acquired Rowan Care Ltd. [4]. [4] also names Perch, in a sentence with “we acquired”."


def test_a_no_that_no_quote_denies_is_flagged() -> None:
    q = parse("Does Acme report any significant new business acquisitions in these 10-Qs?")
    silent = [Quote("The Company periodically provides certain information for investors on its website.",
                    "ACME_2023_10Q", "acme", 17, 1, 1)]
    assert "No" in unsupported("No, Acme does not report any significant new business acquisitions.", silent, q)
    denies = [Quote("The Company did not complete any business acquisitions during the quarter.", "ACME_2023_10Q",
                    "acme", 9, 2, 2)]
    assert "No" not in unsupported("No, Acme does not report any new acquisitions [2].", denies, q)
    # a Yes, or a question that is not yes/no, is not checked this way
    assert "No" not in unsupported("No acquisitions are named [1].", silent, parse("What did Acme acquire in 2023?"))


def test_a_declined_summary_of_who_was_acquired_gives_the_parties_its_quotes_name() -> None:
    from engine.ask.narrative import also_named

    quotes = [Quote("A. Acquisitions Willowbrook On November 17, 2021, we acquired all of the issued and outstanding "
                    "common stock not already owned by Acme of Willowbrook, a clinical stage company, for $2.0 "
                    "billion.", "ACME_2021_10K", "acme", 70, 4, 4),
              Quote("On July 1, 2019, we acquired all the remaining shares of Tessaron, a privately-held company, "
                    "for $340 million upfront.", "ACME_2021_10K", "acme", 71, 7, 7),
              Quote("At the acquisition date, we recorded a charge representing an acquired IPR&D asset.",
                    "ACME_2021_10K", "acme", 71, 8, 8)]
    q = parse("What are three main companies acquired by Acme mentioned in this 10K report?")
    named = also_named(q, quotes, "", lead="names").strip()
    assert named == ("[4] names Willowbrook, in a sentence with “we acquired”. [7] names Tessaron, in a sentence "
                     "with “we acquired”.")
    assert unsupported(named, quotes, q) == []
    # the model's refusal that only points at the quotes is answered with those names, not the whole evidence
    llm = FakeLLM(lambda msgs: "Insufficient information: [4] and [7]")
    gen = summarise(llm, q, quotes, "", 200, lambda: False)
    assert gen is not None and gen.text == named


def test_a_forecast_restated_as_a_fact_is_flagged() -> None:
    q = parse("What are the key changes in Acme's liquidity over these quarterly reports?")
    quotes = [Quote("Because of higher tax payments, we anticipate that our operating cash flow will fall in the "
                    "fourth quarter of fiscal 2025 compared with the third quarter.", "ACME_2025_10Q", "acme", 31, 3,
                    3),
              Quote("As of October 27, 2024, we held $9.4 billion in cash and investments, up $1.1 billion from the "
                    "end of fiscal 2024.", "ACME_2025_10Q", "acme", 30, 4, 4)]
    flags = unsupported("Operating cash flow fell in the fourth quarter of fiscal 2025 compared with the third "
                        "quarter [3]. Cash and investments rose $1.1 billion to $9.4 billion [4].", quotes, q)
    assert "stated as fact (the quote says “anticipate”)" in flags
    # said as the filing says it, or a fact restated, nothing of the kind is flagged
    assert not any(f.startswith("stated as fact") for f in unsupported(
        "Acme expects operating cash flow to fall in the fourth quarter of fiscal 2025 [3]. Cash and investments "
        "rose $1.1 billion to $9.4 billion [4].", quotes, q))
    # a possibility told as one ("no reasonable possibility that ... may have incurred") is no forecast told as fact
    claims = parse("Did management see a reasonable possibility that Acme had incurred a material loss on its claims?")
    loss = [Quote("In the opinion of management, there was not at least a reasonable possibility the Company may have "
                  "incurred a material loss concerning loss contingencies for asserted legal and other claims.",
                  "ACME_2025_10Q", "acme", 16, 1, 1)]
    assert not any(f.startswith("stated as fact") for f in unsupported(
        "Management did not see at least a reasonable possibility that Acme had incurred a material loss on its "
        "asserted legal and other claims [1].", loss, claims))
    # what a party can or is eligible to receive is told as what may be, as "will" tells it
    deal = parse("What further payments can Bolt receive under its licence with Acme?")
    pays = [Quote("In addition, we will also reimburse Bolt for certain milestone payments due to third parties.",
                  "ACME_2025_10K", "acme", 33, 3, 3)]
    assert not any(f.startswith("stated as fact") for f in unsupported(
        "Bolt can receive reimbursement for certain milestone payments due to third parties [3].", pays, deal))


def test_a_quote_that_says_nothing_of_the_item_is_no_driver_of_it() -> None:
    q = parse("Did Acme's operating expenses change over the quarters, and what drove the change?")
    quotes = [Quote("The growth in research and development expense was driven primarily by higher headcount-related "
                    "expenses.", "ACME_2024_10Q", "acme", 22, 5, 5),
              Quote("The Company's effective tax rate was lower due primarily to a higher foreign tax credit.",
                    "ACME_2024_10Q", "acme", 24, 6, 6),
              Quote("Future gross margins can be affected by a variety of factors discussed in the risk factors.",
                    "ACME_2024_10Q", "acme", 21, 7, 7)]
    flags = unsupported("The drivers were higher headcount-related expenses [5], a lower effective tax rate [6] and "
                        "factors affecting gross margins [7].", quotes, q)
    assert "[6] is not about operating expenses" in flags and "[7] is not about operating expenses" in flags
    assert "[5] is not about operating expenses" not in flags
    # a ratio's drivers may be told in the words of its definition's items (cost of sales for a gross margin)
    margin = parse("What drove Acme's gross margin change in fiscal 2024?")
    cogs = [Quote("Cost of products sold increased as a percent of sales driven by one-time plant exit costs.",
                  "ACME_2024_10K", "acme", 34, 2, 2)]
    assert not any("is not about" in f for f in unsupported("One-time plant exit costs raised cost of products "
                                                            "sold [2].", cogs, margin))


def test_a_quote_restated_under_another_subject_is_flagged() -> None:
    """Every word quoted, the relation the model's: a cost ratio's drivers told as revenue's, one segment's products
    told as another's."""
    drivers = parse("What caused the decline in Acme's revenues in the second quarter of 2023?")
    ratio = [Quote("The decrease in Cost of sales as a percentage of revenues in the second quarter of 2023 was "
                   "mainly driven by favorable changes in sales mix, including lower sales of Widgetol.",
                   "ACME_2023_10Q", "acme", 50, 5, 5)]
    flags = unsupported("The decrease in Acme's revenues in the second quarter of 2023 was mainly driven by "
                        "favorable changes in sales mix, including lower sales of Widgetol.", ratio, drivers)
    assert "[5] is about “Cost of sales”" in flags
    # restated under its own subject, shortened or not, it is the quote's
    assert not any("is about" in f for f in unsupported(
        "The decrease in cost of sales as a percentage of revenues was mainly driven by favorable changes in sales "
        "mix, including lower sales of Widgetol [5].", ratio, drivers))
    parts = parse("What does Acme's Other Ventures segment consist of?")
    listed = [Quote("We report our segment results as Acme Services, Acme Cloud, and Other Ventures: • Acme Services "
                    "includes products and services such as ads, maps, search, and video.", "ACME_2023_10K", "acme",
                    83, 1, 1)]
    flags = unsupported("Acme's Other Ventures segment consists of products and services such as ads, maps, search, "
                        "and video.", listed, parts)
    assert "[1] is about “Acme Services”" in flags
    assert not any("is about" in f for f in unsupported(
        "Acme Services includes products and services such as ads, maps, search, and video [1].", listed, parts))


def test_a_direction_the_restated_quote_turns_is_flagged() -> None:
    q = parse("What drove the change in Acme's Space segment operating profit in 2022?")
    quotes = [Quote("Space's operating profit in 2022 decreased $89 million, or 8%, compared to 2021.", "ACME_2022_10K",
                    "acme", 44, 4, 4),
              Quote("Operating profit increased about $100 million for the F-22 program due to higher net favorable "
                    "profit adjustments. These increases were partially offset by about $80 million for the F-35 "
                    "program due to lower net favorable profit adjustments on production and sustainment contracts.",
                    "ACME_2022_10K", "acme", 42, 9, 9)]
    flags = unsupported("Space's operating profit decreased $89 million [4]. This was partially offset by higher net "
                        "favorable profit adjustments on production and sustainment contracts [9].", quotes, q)
    assert "[9] says “lower net favorable profit adjustments on production”" in flags
    # the direction a quote gives them, or a phrase another quote says with the same direction, is no turn
    assert not any(f.startswith("[9] says") for f in unsupported(
        "The F-35 program saw lower net favorable profit adjustments on production and sustainment contracts [9].",
        quotes, q))
    assert not any(f.startswith("[9] says") for f in unsupported(
        "Operating profit rose on the F-22 program due to higher net favorable profit adjustments [9].", quotes, q))


def test_a_question_word_put_into_a_quote_that_lacks_it_is_flagged() -> None:
    """The question's words count as said, except in a sentence that restates one quote: there a word of the
    question that quote does not have is the model's ("antitrust" for a quote of all the legal matters)."""
    q = parse("Describe the antitrust matters Acme faces.")
    quotes = [Quote("We are subject to claims, suits, regulatory and government investigations, other proceedings, "
                    "and orders involving competition, intellectual property, data privacy and security.",
                    "ACME_2023_10K", "acme", 31, 5, 5)]
    flags = unsupported("Acme faces antitrust matters, including claims, suits, regulatory and government "
                        "investigations, other proceedings and orders involving competition [5].", quotes, q)
    assert "[5] does not say “antitrust”" in flags
    # the quote's own word for it, a lead-in repeating the question before a colon, or a sentence saying what the
    # quotes lack, is not the model's word in the quote's mouth
    assert not any("does not say" in f for f in unsupported(
        "Acme faces claims, suits, regulatory and government investigations and orders involving competition [5].",
        quotes, q))
    assert not any("does not say" in f for f in unsupported(
        "The antitrust matters Acme faces: claims, suits, regulatory and government investigations, other "
        "proceedings and orders involving competition [5].", quotes, q))
    # filings name a legal matter and a court's act many ways: "the lawsuit" for a quote's "complaint", "ruled" for
    # its "decision", is the quote's word in the question's
    q = parse("What is the lawsuit Bar LLC brought against Acme about, and how did the court rule?")
    quotes = [Quote("In May 2022, Bar LLC filed a complaint against Acme in the District of Delaware alleging that "
                    "Acme's payment terminals infringe three of its patents, and in March 2023 the court issued a "
                    "decision dismissing two of the three patents.", "ACME_2023_10K", "acme", 40, 3, 3)]
    assert not any("does not say" in f for f in unsupported(
        "Bar LLC's lawsuit, filed in May 2022 in the District of Delaware, alleges that Acme's payment terminals "
        "infringe three of its patents; in March 2023 the court ruled to dismiss two of the three patents [3].",
        quotes, q))
    assert not any("does not say" in f for f in unsupported(
        "The quotes do not call the claims, suits, government investigations and orders involving competition "
        "antitrust matters [5].", quotes, q))
    held = [Quote("Antitrust matters: we are subject to claims, suits, regulatory and government investigations "
                  "involving competition.", "ACME_2023_10K", "acme", 31, 5, 5)]
    assert not any("does not say" in f for f in unsupported(
        "Acme faces antitrust matters, including claims, suits, regulatory and government investigations involving "
        "competition [5].", held, q))
    # the vocabulary's same words ("expenses" for "costs"), and a part's kind word where the quote names the part
    costs = [Quote("The increase in fulfillment costs in Q1 2023 is primarily due to increased sales, partially offset "
                   "by fulfillment network efficiencies.", "ACME_2023_10Q", "acme", 28, 6, 6)]
    assert not any("does not say" in f for f in unsupported(
        "The increase in fulfillment expenses in Q1 2023 was primarily due to increased sales, partially offset by "
        "fulfillment network efficiencies.", costs, parse("What drove the change in Acme's fulfillment expenses in Q1 "
                                                          "2023?"), ["Acme"]))
    pet = parse("What drove the change in Acme's Pet segment operating profit in fiscal 2020?")
    own = [Quote("Pet operating profit increased 46 percent in fiscal 2020, primarily driven by volume growth and "
                 "favorable net price realization.", "ACME_2020_10K", "acme", 25, 4, 4)]
    told = ("The Pet segment operating profit increased 46 percent in fiscal 2020, primarily driven by volume growth "
            "and favorable net price realization.")
    assert not any("does not say" in f for f in unsupported(told, own, pet, ["Acme"]))
    program = [Quote("Jet program operating profit increased 46 percent in fiscal 2020, primarily driven by volume "
                     "growth and favorable net price realization.", "ACME_2020_10K", "acme", 25, 4, 4)]
    assert "[4] does not say “segment”" in unsupported(told, program, pet, ["Acme"])
    # a quote told under a heading naming the part says the part's kind word too
    headed = [Quote("Operating profit increased 46 percent in fiscal 2020, primarily driven by volume growth and "
                    "favorable net price realization.", "ACME_2020_10K", "acme", 25, 4, 4)]
    passage = ("Operating profit increased 46 percent in fiscal 2020, primarily driven by volume growth and favorable "
               "net price realization.")
    assert not any("does not say" in f for f in unsupported(told, headed, pet, ["Acme"], passages=[passage],
                                                             headings=[["Pet Segment"]]))


def test_a_quote_about_what_else_moved_is_flagged() -> None:
    """A backlog's reasons told as the fees': the restated quote's subject says what moved ("fees backlog
    decreased"), and the summary's sentence never names it."""
    q = parse("Explain the main factors behind the decline in Acme's advisory fees in 2022.")
    quotes = [Quote("As of December 2022, our advisory fees backlog decreased significantly compared with the end of "
                    "2021, primarily due to significantly lower estimated net revenues from potential advisory "
                    "transactions.", "ACME_2022_10K", "acme", 64, 7, 7)]
    flags = unsupported("The decline in Acme's advisory fees in 2022 was primarily due to significantly lower "
                        "estimated net revenues from potential advisory transactions [7].", quotes, q)
    assert "[7] is about “advisory fees backlog”" in flags
    assert not any("is about" in f for f in unsupported(
        "Acme's advisory fees backlog decreased in 2022, primarily due to significantly lower estimated net "
        "revenues from potential advisory transactions [7].", quotes, q))
    # a subject whose verb follows no content word ("was lower") names nothing that moved
    plain = [Quote("Net revenues in advisory were significantly lower, primarily due to a decline in industry-wide "
                   "completed mergers and acquisitions transactions.", "ACME_2022_10K", "acme", 64, 7, 7)]
    assert not any("is about" in f for f in unsupported(
        "Acme's advisory fees declined primarily due to a decline in industry-wide completed mergers and "
        "acquisitions transactions [7].", plain, q))
    # a sentence whose subject is the quote's own driver tells the cause of that cause, not another subject
    pay = parse("What drove the change in Acme's salaries and employee benefits expense in 2022?")
    nested = [Quote("Salaries and employee benefits expense increased, primarily driven by higher compensation costs, "
                    "reflecting an increase in our colleague base to support business growth.", "ACME_2022_10K", "acme",
                    49, 8, 8)]
    assert not any("is about" in f for f in unsupported(
        "Compensation costs increased, reflecting an increase in our colleague base to support business growth.",
        nested, pay, ["Acme"]))


def test_an_item_the_quote_gives_as_a_share_of_another_told_as_the_item_itself_is_flagged() -> None:
    """What rose is the item's share of sales, not the item: the summary that drops "as a percent of sales" tells
    another change; one that keeps the share (in any words) is the quote's."""
    q = parse("Why did Acme's selling expenses change in fiscal 2021?")
    quotes = [Quote("Selling expenses increased as a percentage of net revenues in fiscal 2021, primarily due to "
                    "higher freight costs and lower sales leverage.", "ACME_2021_10K", "acme", 31, 6, 6)]
    flags = unsupported("Acme's selling expenses increased in fiscal 2021, primarily due to higher freight costs and "
                        "lower sales leverage [6].", quotes, q, ["Acme"])
    assert "[6] is about \u201cSelling expenses\u201d (as a percentage of net revenues)" in flags
    for kept in ("Selling expenses as a share of net revenues rose", "Acme's selling expense ratio increased",
                 "Selling expenses increased as a percentage of net revenues"):
        assert not any("is about" in f for f in unsupported(
            f"{kept} in fiscal 2021, primarily due to higher freight costs and lower sales leverage [6].", quotes, q,
            ["Acme"])), kept
    # the share said of the table the passage opens with, not of the quote's subject
    lead = [Quote("The following table shows cost of revenues in dollars and as a percentage of net revenues: The "
                  "decrease in product costs for 2021 was primarily due to lower unit volumes.", "ACME_2021_10K",
                  "acme", 40, 7, 7)]
    assert not any("is about" in f for f in unsupported(
        "The decrease in product costs for 2021 was primarily due to lower unit volumes [7].", lead,
        parse("What drove Acme's product costs in 2021?"), ["Acme"]))


def test_a_cause_no_quote_gives_as_one_is_flagged() -> None:
    """A fact of one quote made the cause of another's change: the words are quoted, the relation is the model's."""
    q = parse("What drove Acme's Services revenue in the third quarter of 2022?")
    growth = Quote("Services revenue grew 7% in the third quarter of 2022.", "ACME_2022_10Q", "acme", 20, 3, 3)
    fact = Quote("During the quarter the company opened forty new regional service centers across Canada and Mexico.",
                 "ACME_2022_10Q", "acme", 24, 5, 5)
    for told in ("Acme's Services revenue grew 7% in the third quarter of 2022, driven by forty new regional service "
                 "centers opened across Canada and Mexico.",
                 "Services revenue increased 7% in the quarter primarily as a result of the opening of forty new "
                 "regional service centers across Canada and Mexico."):
        flags = unsupported(told, [growth, fact], q, ["Acme"])
        assert any(f.startswith("no quote gives \u201c") and f.endswith("as a cause: [5] only states it")
                   for f in flags), (told, flags)
    # the quote gives the cause itself, or tells a change of its own
    for said in ("Services revenue grew 7%, primarily due to forty new regional service centers across Canada and "
                 "Mexico.",
                 "Forty new regional service centers across Canada and Mexico drove higher Services revenue."):
        own = Quote(said, "ACME_2022_10Q", "acme", 24, 5, 5)
        assert not any("as a cause" in f for f in unsupported(
            "Services revenue grew 7% in the third quarter of 2022, driven by forty new regional service centers "
            "across Canada and Mexico.", [growth, own], q, ["Acme"])), said


def test_a_change_told_as_its_driver_s_is_flagged() -> None:
    """"Freight costs declined, driven by lower fuel surcharges" says nothing of whether the surcharges fell by
    themselves as a summary's "Fuel surcharges declined" claims; a quote that says so itself, or a driver given its
    own direction by the summary where the quote gives it, is no such claim."""
    q = parse("Why did Acme's freight costs change in 2021?")
    quote = Quote("Freight costs declined 4% in 2021, driven by fuel surcharges on long-haul routes and fewer "
                  "expedited shipments.", "ACME_2021_10K", "acme", 33, 2, 2)
    flags = unsupported("Fuel surcharges on long-haul routes declined in 2021 [2].", [quote], q, ["Acme"])
    assert ("[2] says \u201cdeclined\u201d of \u201cFreight costs\u201d, not of \u201cFuel surcharges on long-haul "
            "routes\u201d") in flags
    own = Quote("Freight costs declined 4% in 2021, driven by lower fuel surcharges on long-haul routes and fewer "
                "expedited shipments.", "ACME_2021_10K", "acme", 33, 2, 2)
    assert not any("says \u201cdeclined\u201d" in f for f in unsupported(
        "Fuel surcharges on long-haul routes declined in 2021 [2].", [own], q, ["Acme"]))
    # the cause told as the cause: no direction given to it
    assert not any(" not of " in f for f in unsupported(
        "Freight costs declined 4% in 2021, driven by fuel surcharges on long-haul routes [2].", [quote], q, ["Acme"]))


def test_the_item_a_cause_is_said_of_is_the_one_its_relative_clause_follows() -> None:
    """"The reasons ... were a decrease in other expense, net, which was primarily due to ..." tells the other
    expense's cause, as the quote does; the same cause told as operating income's is another item's."""
    q = parse("What were the reasons for the change in Acme's operating income in 2021?")
    quote = Quote("Other expense, net decreased $40 million in 2021, primarily due to a litigation charge recorded in "
                  "the prior year.", "ACME_2021_10K", "acme", 40, 4, 4)
    nested = ("The reasons for the change in Acme's operating income in 2021 were a decrease in other expense, net, "
              "which was primarily due to a litigation charge recorded in the prior year [4].")
    assert not any("[4] is about" in f or "[4] gives" in f for f in unsupported(nested, [quote], q, ["Acme"]))
    flat = "Acme's operating income decreased in 2021, primarily due to a litigation charge recorded in the prior year."
    assert any(f.startswith("[4] is about") for f in unsupported(flat, [quote], q, ["Acme"]))


def test_a_list_item_that_tells_no_cause_takes_no_other_item_s_subject() -> None:
    q = parse("Why did Acme's other expense change in 2018?")
    quote = Quote("Interest expense increased $8 million year-on-year as a result of higher average debt balances. "
                  "\u00b7 On a combined basis, higher pension and postretirement expense and lower income from "
                  "non-service cost components increased expense year-on-year.", "ACME_2018_10K", "acme", 17, 7, 7)
    told_ = ("Other expense increased year-on-year due to higher pension and postretirement expense and lower income "
             "from non-service cost components [7].")
    assert not any("is about" in f for f in unsupported(told_, [quote], q, ["Acme"]))


def test_a_quarter_s_sentence_told_for_the_year_to_date_asked_is_flagged() -> None:
    q = parse("What drove Acme's Widgets revenue in the first nine months of 2023?")
    quarter = Quote("Widgets revenue decreased during the third quarter of 2023 compared to the third quarter of 2022 "
                    "due primarily to lower unit volumes.", "ACME_2023_10Q", "acme", 19, 5, 5)
    for told_ in ("Widgets revenue decreased during the first nine months of 2023 due primarily to lower unit volumes.",
                  "Acme's Widgets revenue fell, due primarily to lower unit volumes [5]."):
        assert "[5] is about the third quarter" in unsupported(told_, [quarter], q, ["Acme"]), told_
    both = Quote("Widgets revenue decreased during the third quarter and first nine months of 2023 compared to the "
                 "same periods in 2022 due primarily to lower unit volumes.", "ACME_2023_10Q", "acme", 19, 5, 5)
    assert not any("is about the" in f for f in unsupported(
        "Widgets revenue decreased during the first nine months of 2023 due primarily to lower unit volumes.", [both],
        q, ["Acme"]))


def test_one_segment_s_sentence_told_as_the_segment_asked_is_flagged() -> None:
    q = parse("Why did Acme's Tools segment operating income change in the second quarter of fiscal 2024?")
    quote = Quote("Sensors \u2013 Segment operating income increased during the second quarter of fiscal year 2024 "
                  "compared to the second quarter of fiscal year 2023 primarily due to higher revenues.",
                  "ACME_2024_10Q", "acme", 31, 3, 3)
    rest = ("segment operating income increased during the second quarter of fiscal year 2024 compared to the second "
            "quarter of fiscal year 2023 primarily due to higher revenues [3].")
    assert "[3] is about \u201cSensors \u2013 Segment operating income\u201d" in unsupported(
        f"Tools {rest}", [quote], q, ["Acme"])
    assert not any(f.startswith("[3] is about") for f in unsupported(f"Sensors {rest}", [quote], q, ["Acme"]))


def test_another_part_s_offset_joined_to_the_part_asked_is_flagged() -> None:
    q = parse("What drove the change in Acme's Europe net sales in the second quarter of 2023?")
    europe = Quote("During the second quarter of 2023, the Europe net sales decrease consisted primarily of lower net "
                   "sales of Widgets and Gadgets.", "ACME_2023_10Q", "acme", 18, 6, 6)
    americas = Quote("Americas Americas net sales decreased during the second quarter of 2023 due primarily to lower "
                     "net sales of Widgets, partially offset by higher net sales of Services.", "ACME_2023_10Q", "acme",
                     18, 7, 7)
    flags = unsupported("Europe net sales decreased in the second quarter of 2023 due to lower net sales of Widgets "
                        "and Gadgets, partially offset by higher net sales of Services.", [europe, americas], q,
                        ["Acme"])
    assert any(f.startswith("[7] gives") and f.endswith("for \u201cAmericas\u201d") for f in flags), flags
    assert not any(f.startswith("[7] gives") for f in unsupported(
        "Europe net sales decreased in the second quarter of 2023 due to lower net sales of Widgets and Gadgets.",
        [europe, americas], q, ["Acme"]))


def test_the_whole_company_s_sentence_told_as_the_segment_asked_is_flagged() -> None:
    """Under "Consolidated Results", "our comparable sales declined 6.2%" is the company's: told as the segment's
    answer it is another figure; the same sentence under the segment's own heading, or one naming the segment, is
    no such claim."""
    q = parse("What drove Acme's Retail segment comparable sales in the second quarter of fiscal 2024?")
    text = ("In the second quarter of fiscal 2024, our comparable sales declined 6.2%, as we continued to operate in "
            "an industry challenged by the pull-forward of demand in prior years.")
    quote = Quote(text, "ACME_2024_10Q", "acme", 16, 6, 6)
    told_ = ("Comparable sales decreased 6.2% in the second quarter of fiscal 2024, as the industry was challenged by "
             "the pull-forward of demand in prior years.")

    def flags(heading: str) -> list[str]:
        return unsupported(told_, [quote], q, ["Acme"], "", [text], [(heading, "Results of Operations")])

    assert "[6] is about the whole company (\u201cConsolidated Results\u201d), not \u201cRetail\u201d" in flags(
        "Consolidated Results")
    assert not any("whole company" in f for f in flags("Retail Segment Performance Summary"))
    named = unsupported(f"Retail {told_[0].lower()}{told_[1:]}", [quote], q, ["Acme"], "", [text],
                        [("Consolidated Results", "Results of Operations")])
    assert not any("whole company" in f for f in named)


def test_a_measure_s_qualifier_added_or_dropped_is_flagged() -> None:
    """"Adjusted EBITDA" is not the EBITDA a quote gives, nor are "sales" the "organic sales" whose 4.2% it states;
    a qualifier the question names may be left to it."""
    ebitda = [Quote("EBITDA increased $120 million in 2022, primarily due to higher volumes.", "ACME_2022_10K", "acme",
                    30, 2, 2)]
    flags = unsupported("Adjusted EBITDA increased $120 million in 2022, primarily due to higher volumes [2].", ebitda,
                        parse("What drove Acme's adjusted EBITDA in 2022?"), ["Acme"])
    assert "[2] does not say \u201cadjusted\u201d" in flags
    organic = [Quote("Organic sales grew 4.2% in 2022, driven by higher prices.", "ACME_2022_10K", "acme", 31, 3, 3)]
    told_ = "Sales grew 4.2% in 2022, driven by higher prices [3]."
    assert "4.2%: [3] gives it for \u201corganic\u201d" in unsupported(
        told_, organic, parse("What drove Acme's sales growth in 2022?"), ["Acme"])
    assert not any("organic" in f for f in unsupported(
        told_, organic, parse("What drove Acme's organic sales growth in 2022?"), ["Acme"]))
    assert not any("organic" in f for f in unsupported(
        "Organic sales grew 4.2% in 2022, driven by higher prices [3].", organic,
        parse("What drove Acme's sales growth in 2022?"), ["Acme"]))


def test_a_figure_after_an_item_s_level_is_that_item_s() -> None:
    """"Segment revenues were $4.1 billion for 2022, 12% higher than 2021, reflecting higher service fees": the 12%
    is the segment revenues', not the service fees' a summary gives it to."""
    q = parse("What drove the change in Acme's service fees in 2022?")
    quote = [Quote("Services segment revenues were $4.1 billion for 2022, 12% higher than 2021, reflecting higher "
                   "service fees and new contracts.", "ACME_2022_10K", "acme", 40, 7, 7)]
    flags = unsupported("Service fees increased 12% in 2022, reflecting new contracts [7].", quote, q, ["Acme"])
    assert any(f.startswith("12%: [7] gives it for \u201cServices segment revenues") for f in flags), flags
    assert not any(f.startswith("12%") for f in unsupported(
        "Services segment revenues increased 12% in 2022, reflecting higher service fees and new contracts [7].",
        quote, q, ["Acme"]))


def test_a_year_a_quote_compares_with_is_not_the_year_it_tells() -> None:
    """"Net revenues in Advisory were $5.9 billion, 25% higher than 2020" tells 2021 in a 10-K's 2021 section: the
    summary that says so names the year right; one that moves both years is still flagged."""
    q = parse("What drove the change in Acme's Advisory net revenues in 2021?")
    quote = [Quote("Net revenues in Advisory were $5.98 billion, 25% higher than 2020, due to significantly higher "
                   "completed transactions.", "ACME_2021_10K", "acme", 77, 4, 4)]
    flags = unsupported("Advisory net revenues increased by 25% in 2021, due to significantly higher completed "
                        "transactions [4].", quote, q, ["Acme"])
    assert not any("2020" in f or "for 2021" in f for f in flags), flags
    moved = [Quote("Net revenues in Advisory increased in 2021 compared to 2020, due to significantly higher "
                   "completed transactions.", "ACME_2022_10K", "acme", 77, 4, 4)]
    assert "[4] is about 2021" in unsupported(
        "Advisory net revenues increased in 2022 compared to 2021, due to significantly higher completed "
        "transactions [4].", moved, parse("What drove the change in Acme's Advisory net revenues in 2022?"), ["Acme"])
    # compared with the year two before the one asked: the year between's discussion
    earlier = Quote("The increase in Advisory net revenues reflected significantly higher completed transactions "
                    "compared with 2020.", "ACME_2022_10K", "acme", 77, 4, 4)
    told_ = ("The increase in Advisory net revenues reflected significantly higher completed transactions compared "
             "with 2020 [4].")
    q22 = parse("What drove the change in Acme's Advisory net revenues in 2022?")
    assert "[4] is about fiscal 2021" in unsupported(told_, [earlier], q22, ["Acme"], "", [earlier.text])
    assert "[4] is about fiscal 2021" not in unsupported(told_, [earlier], q, ["Acme"], "", [earlier.text])


def test_a_sub_business_s_drivers_told_as_its_business_s_are_flagged_past_a_transition() -> None:
    """"In addition, net revenues in Trading financing were significantly higher, primarily driven by secured
    lending": the financing line's driver, not the whole Trading business's."""
    q = parse("What drove the change in Acme's Trading net revenues in 2022?")
    quote = [Quote("In addition, net revenues in Trading financing were significantly higher, primarily driven by "
                   "secured lending.", "ACME_2022_10K", "acme", 73, 3, 3)]
    flags = unsupported("The change in Trading net revenues in 2022 was primarily driven by secured lending [3].",
                        quote, q, ["Acme"])
    assert "[3] is about \u201cnet revenues in Trading financing\u201d (financing)" in flags
    assert not any(f.startswith("[3] is about") for f in unsupported(
        "Trading financing net revenues were significantly higher in 2022, primarily driven by secured lending [3].",
        quote, q, ["Acme"]))


def test_a_change_pointed_back_at_is_the_previous_sentence_s_item_not_the_quote_s() -> None:
    """"Widget revenues increased $1.1 billion. The increase was due to ..." gives the widget revenues a cause the
    quote gives to freight costs; pointing back at the freight costs themselves is no such claim."""
    q = parse("What drove the change in Acme's widget revenues in 2022?")
    quotes = [Quote("Widget revenues increased $1.1 billion from 2021 to 2022.", "ACME_2022_10K", "acme", 33, 7, 7),
              Quote("The increase in freight costs from 2021 to 2022 was due to higher fuel surcharges paid to "
                    "carriers.", "ACME_2022_10K", "acme", 35, 4, 4)]
    told_ = ("Widget revenues increased $1.1 billion from 2021 to 2022. The increase was due to higher fuel surcharges "
             "paid to carriers.")
    assert "[4] is about \u201cfreight costs\u201d" in unsupported(told_, quotes, q, ["Acme"])
    own = ("Freight costs increased from 2021 to 2022. The increase was due to higher fuel surcharges paid to "
           "carriers.")
    assert "[4] is about \u201cfreight costs\u201d" not in unsupported(own, quotes, q, ["Acme"])


def test_a_change_of_another_named_line_told_as_the_line_asked_is_flagged() -> None:
    """"The decrease in Fixed Income intermediation net revenues reflected lower client activity" told as the
    Equities line's: the quote's subject names another line after its change noun."""
    q = parse("What drove the change in Acme's Equities intermediation net revenues in 2023?")
    quote = [Quote("The decrease in Fixed Income intermediation net revenues reflected significantly lower client "
                   "activity (as activity in the prior year benefited from market volatility).", "ACME_2023_10K",
                   "acme", 78, 4, 4)]
    told_ = "Equities intermediation net revenues decreased due to significantly lower client activity [4]."
    assert "[4] is about \u201cFixed Income intermediation net revenues\u201d" in unsupported(told_, quote, q, ["Acme"])
    own = "Fixed Income intermediation net revenues decreased due to significantly lower client activity [4]."
    assert not any(f.startswith("[4] is about") for f in unsupported(own, quote, q, ["Acme"]))


def test_a_figure_the_quote_gives_for_something_else_is_flagged() -> None:
    """Two regions' growth rates swapped, one segment's figure told as another's: every figure is quoted, for
    another name."""
    q = parse("Why did Acme's sales change in 2022?")
    quotes = [Quote("Sales in Europe increased 4% in 2022, primarily due to higher volumes.", "ACME_2022_10K", "acme",
                    30, 2, 2),
              Quote("Sales in Asia increased 12% in 2022, primarily due to new stores.", "ACME_2022_10K", "acme", 30, 3,
                    3)]
    flags = unsupported("Sales in Europe increased 12% in 2022, due to new stores [3].", quotes, q, ["Acme"])
    assert "12%: [3] gives it for “Asia”" in flags
    assert not any("gives it for" in f for f in unsupported(
        "Sales in Asia increased 12% and sales in Europe 4% in 2022 [2][3].", quotes, q, ["Acme"]))
    # a defined term in a parenthesis, a period or a currency before the figure names nothing it is of
    sold = [Quote("We sold Homeowner Services to Apax Partners LLP (the “Buyer”) for total consideration of "
                  "approximately $1.275 billion.", "ACME_2022_10K", "acme", 40, 7, 7)]
    assert not any("gives it for" in f for f in unsupported(
        "Acme sold Homeowner Services to Apax Partners LLP for approximately $1.275 billion [7].", sold, q, ["Acme"]))


def test_a_sentence_citing_another_quote_than_the_one_it_restates_is_flagged() -> None:
    q = parse("What were the reasons behind the rise in Acme's fulfillment costs in 2017?")
    quotes = [Quote("The increase in fulfillment costs in 2017 is primarily due to variable costs corresponding with "
                    "increased sales volume and costs from expanding our fulfillment network.", "ACME_2017_10K",
                    "acme", 28, 4, 4),
              Quote("Fulfillment costs primarily consist of those costs incurred in operating and staffing our "
                    "fulfillment centers.", "ACME_2017_10K", "acme", 44, 5, 5)]
    words = ("The increase in fulfillment costs in 2017 was primarily due to variable costs corresponding with "
             "increased sales volume and costs from expanding the fulfillment network.")
    assert "[5] cited: the words are [4]'s" in unsupported(words + " [5]", quotes, q)
    assert "[5] cited: the words are [4]'s" in unsupported(words[:-1] + " [5].", quotes, q)
    assert not any("cited:" in f for f in unsupported(words + " [4]", quotes, q))
    # a citation inside the sentence (a lead-in's), or one of evidence that is no quote, is not judged
    assert not any("cited:" in f for f in unsupported("[5] says: " + words, quotes, q))
    assert not any("cited:" in f for f in unsupported(words + " [3]", quotes, q))


def test_a_question_s_direction_word_is_no_word_put_in_a_quote() -> None:
    """"What explains the drop ..." restated from a quote that says "declined": the direction is the quote's own
    word for it (a direction it turns is flagged as a turn)."""
    q = parse("What explains the drop in Acme's revenue in the second quarter?")
    quotes = [Quote("Our comparable sales declined 6.2% in the second quarter, as we continued to operate in an "
                    "industry challenged from the pull-forward of demand in prior years.", "ACME_2024_10Q", "acme", 16,
                    4, 4)]
    flags = unsupported("The drop in comparable sales of 6.2% in the second quarter came as Acme continued to operate "
                        "in an industry challenged from the pull-forward of demand in prior years [4].", quotes, q,
                        ["Acme"])
    assert not any("does not say" in f for f in flags)


def test_what_a_clause_says_of_a_name_must_be_what_a_quote_says_of_it() -> None:
    """One program's cause told as another's: the list's items part at ";", and each name keeps its own."""
    q = parse("What drove Acme's Aircraft net sales in 2022?")
    quotes = [Quote("Net sales increased by approximately $375 million on classified contracts primarily due to "
                    "higher volume; about $80 million for the K-22 program due to higher net favorable profit "
                    "adjustments; and approximately $55 million for the K-16 program due to higher volume on "
                    "production contracts.", "ACME_2022_10K", "acme", 42, 6, 6)]
    flags = unsupported("Aircraft net sales rose on higher volume on classified contracts, higher volume on K-22 "
                        "contracts and higher net favorable profit adjustments on the K-16 program [6].", quotes, q)
    assert "no quote says “volume” of “K-22”" in flags
    assert "no quote says “favorable” of “K-16”" in flags
    assert not any("no quote says" in f for f in unsupported(
        "Aircraft net sales rose on higher volume on classified contracts, higher net favorable profit adjustments "
        "on the K-22 program and higher volume on K-16 production contracts [6].", quotes, q))
    # a code's derivative is another program: the 55 units are the 7X7's, not the 7X7B's
    told = [Quote("The accounting quantity for the 7X7 program increased by 55 units during 2018 due to new orders.",
                  "ACME_2018_10K", "acme", 31, 2, 2),
            Quote("The 7X7B will have a separate program accounting quantity, determined in the year of first "
                  "delivery.", "ACME_2018_10K", "acme", 31, 3, 3)]
    flags = unsupported("The accounting quantity for the 7X7B program increased by 55 units during 2018 [2].", told,
                        parse("What does Acme report about its 7X7B program?"))
    assert "no quote says “units” of “7X7B”" in flags


def test_a_sentence_that_names_nothing_is_its_quote_s_named_subject_s() -> None:
    """A section's later sentence names nothing ("Additionally, operating income benefited ..."): it tells of what
    its quote's other sentence names; a clause joined by "and" says nothing of the name in the other."""
    q = parse("Why did Acme's Cloud operating income change in 2023?")
    quotes = [Quote("Cloud operating income of $1.7 billion for 2023 compared to an operating loss of $1.9 billion "
                    "for 2022.", "ACME_2023_10K", "acme", 40, 2, 2),
              Quote("Additionally, operating income benefited from a reduction in costs driven by the change in the "
                    "estimated useful lives of our servers.", "ACME_2023_10K", "acme", 40, 2, 2)]
    assert not any("no quote says" in f for f in unsupported(
        "Acme's Cloud operating income rose in 2023 thanks to a reduction in costs from the change in the estimated "
        "useful lives of its servers [2].", quotes, q))
    bought = [Quote("We completed the acquisition of Lion Studios with cash on hand.", "ACME_2023_10Q", "acme", 9, 1,
                    1),
              Quote("We made cash payments related to acquisition activity of $654 million.", "ACME_2023_10Q", "acme",
                    22, 3, 3)]
    assert not any("no quote says" in f for f in unsupported(
        "Acme mentions the acquisition of Lion Studios and the cash payments related to acquisition activity [1][3].",
        bought, parse("Does Acme report any acquisitions?")))


def test_a_question_s_subject_no_quote_names_is_flagged() -> None:
    """Quotes of other segments answer no question about one: a capitalised name of the question that no quote
    names (in capitals, or as its acronym) is said."""
    q = parse("What drove revenues of Acme's Commercial Airplanes segment in 2018?")
    quotes = [Quote("AGS revenues increased by $762 million primarily due to higher commercial parts revenue.",
                    "ACME_2018_10K", "acme", 21, 4, 4)]
    assert "no quote names “Commercial Airplanes”" in unsupported("AGS revenues increased by $762 million [4].",
                                                                quotes, q)
    named = [Quote("Commercial Airplanes revenues decreased by $1.2 billion primarily due to lower deliveries.",
                   "ACME_2018_10K", "acme", 20, 3, 3)]
    assert not any("no quote names" in f for f in unsupported(
        "Commercial Airplanes revenues decreased by $1.2 billion due to lower deliveries [3].", named, q))
    # an acronym of the question's names names it; a filing's form, a period and a term's abbreviation name nothing
    short = [Quote("ADS revenues increased by $2,634 million primarily due to higher weapons revenue.", "ACME_2018_10K",
                   "acme", 21, 4, 4)]
    assert not any("no quote names" in f for f in unsupported(
        "ADS revenues increased by $2,634 million due to higher weapons revenue [4].", short,
        parse("What drove the change in Acme Defense, Space & Security revenues in 2018?")))
    assert not any("no quote names" in f for f in unsupported(
        "ADS revenues increased by $2,634 million due to higher weapons revenue [4].", short,
        parse("Which segment grew most in FY 2018 per the 10K, once M&A is excluded?")))


def test_a_superlative_of_the_question_put_into_a_quote_is_flagged() -> None:
    """"Largest" is the question's word; a sentence restating a quote that does not say it (the company's name
    and generic words aside) puts it in the quote's mouth."""
    q = parse("Who is Acme's largest customer, and what share of its sales does it make up?")
    quotes = [Quote("In 2022, international customers accounted for 33% of Aircraft net sales.", "ACME_2022_10K",
                    "acme", 32, 5, 5)]
    flags = unsupported("Acme's largest customer is international customers, and they make up 33% of its Aircraft "
                        "segment's net sales [5].", quotes, q, ["Acme"])
    assert "[5] does not say “largest”" in flags


def test_a_cause_dated_after_the_change_is_flagged() -> None:
    """What became effective in 2023 caused no change in 2022; a period's end written as a date ("the year ended
    January 28, 2023", a retailer's fiscal year) and an expectation date nothing that came after."""
    q = parse("What caused the change in Acme's operating revenues in 2022?")
    quotes = [Quote("Presented in the table below are annualized incremental revenues resulting from surcharge "
                    "authorizations that became effective on or after January 1, 2023.", "ACME_2022_10K", "acme", 95,
                    7, 7)]
    flags = unsupported("The change in Acme's operating revenues in 2022 was caused by surcharge authorizations that "
                        "became effective on or after January 1, 2023 [7].", quotes, q)
    assert "a cause in 2023 for 2022" in flags
    assert not any(f.startswith("a cause in") for f in unsupported(
        "Operating revenues rose in 2022 due to surcharge authorizations in the year ended January 28, 2023 [7].",
        quotes, q))
    assert not any(f.startswith("a cause in") for f in unsupported(
        "Operating revenues rose in 2022; surcharge authorizations effective in 2023 are expected to add revenues "
        "[7].", quotes, q))


def test_figures_a_respectively_sentence_gives_to_other_names_are_flagged() -> None:
    """"Respectively" pairs names and figures in order: a summary pairing them otherwise swaps them."""
    q = parse("Who manufactures Acme's footwear, and where?")
    quotes = [Quote("For fiscal 2023, factories in Vietnam, Indonesia and China manufactured approximately 50%, 27% "
                    "and 18% of total Acme footwear, respectively.", "ACME_2023_10K", "acme", 7, 3, 3)]
    flags = unsupported("Factories in China and Vietnam manufactured approximately 50% and 27% of Acme footwear, "
                        "respectively [3].", quotes, q)
    assert "50%: [3] gives it for “Vietnam”" in flags
    assert not any("gives it for" in f for f in unsupported(
        "Factories in Vietnam and Indonesia manufactured approximately 50% and 27% of Acme footwear, respectively "
        "[3].", quotes, q))


def test_a_name_given_a_year_no_quote_gives_it_is_flagged() -> None:
    """A name's year is the one its quote sentences write nearest it: "in fiscal 2023 ... the acquisitions of Orchid
    and Larkspur in fiscal 2022" gives Larkspur 2022, so pairing it with 2023 ("respectively", or "Larkspur in fiscal
    2023") is flagged; pairing both with 2022 is not."""
    q = parse("What acquisitions did Acme make in fiscal 2022 and fiscal 2023?")
    quotes = [Quote("In fiscal 2022, we acquired all of the outstanding shares of Orchid Labs Inc. "
                    "(\u201cOrchid\u201d) and Larkspur Goods, LLC (\u201cLarkspur\u201d).", "ACME_2023_10K", "acme",
                    44, 2, 2),
              Quote("The decrease in cash used in investing activities in fiscal 2023 was primarily driven by the "
                    "acquisitions of Orchid and Larkspur in fiscal 2022.", "ACME_2023_10K", "acme", 29, 4, 4)]
    flags = unsupported("Acme acquired Orchid Labs Inc. and Larkspur Goods, LLC in fiscal 2022 and 2023, "
                        "respectively [2].", quotes, q)
    assert "2023 for \u201cLarkspur Goods, LLC\u201d: [2] gives it 2022" in flags
    assert any(f.startswith("fiscal 2023 for \u201cLarkspur") for f in unsupported(
        "Acme acquired Orchid in fiscal 2022 and Larkspur in fiscal 2023 [2].", quotes, q))
    assert not any(" gives it 20" in f for f in unsupported(
        "Acme acquired Orchid and Larkspur in fiscal 2022, which lowered cash used in investing in fiscal 2023 [2] "
        "[4].", quotes, q))


def test_what_quotes_say_of_one_name_of_a_list_told_of_the_list_is_flagged() -> None:
    """"In Brazil and Chile through licensed local distributors" where only Brazil's sentence has the distributors
    tells Chile's structure from Brazil's; told of Brazil alone, or each of its own, it is not flagged."""
    q = parse("How does Acme operate in Brazil and Chile under local ownership rules?")
    quotes = [Quote("In order to meet local ownership requirements, we sell certain products in Brazil through "
                    "licensed local distributors that hold import permits.", "ACME_2023_10K", "acme", 8, 1, 1),
              Quote("Brazil and Chile regulate foreign investment in retail and restrict the sale of certain "
                    "products.", "ACME_2023_10K", "acme", 8, 2, 2)]
    flags = unsupported("Acme operates in Brazil and Chile through licensed local distributors that hold import "
                        "permits [1].", quotes, q)
    assert any(f.startswith("no quote says") and f.endswith("of \u201cChile\u201d") for f in flags)
    for fine in ("Acme operates in Brazil through licensed local distributors that hold import permits [1].",
                 "Brazil and Chile regulate foreign investment in retail [2]."):
        assert not any(f.startswith("no quote says") for f in unsupported(fine, quotes, q))


def test_two_figures_compared_the_wrong_way_are_flagged() -> None:
    """"$20 million ... was higher than ... $20 million" cannot be, whatever the quotes say; "more than $5 billion"
    after no verb says about how much, and a comparison the figures bear is not flagged."""
    q = parse("How did Acme's realized and unrealized hedge gains compare between 2022 and 2021?")
    quotes = [Quote("For 2022 and 2021, hedge results include realized gains of $20 million and realized losses of $20 "
                    "million, respectively, and unrealized gains of $31 million and $307 million.", "ACME_2022_10K",
                    "acme", 26, 3, 3)]
    assert "\u201chigher than\u201d: $20 million is not higher than $20 million" in unsupported(
        "The realized gain of $20 million in 2021 was higher than the unrealized gain of $20 million in 2022 [3].",
        quotes, q)
    assert "\u201clower than\u201d: $307 million is not lower than $31 million" in unsupported(
        "The unrealized gain of $307 million in 2021 was lower than the $31 million of 2022 [3].", quotes, q)
    for fine in ("The unrealized gain of $31 million in 2022 was lower than the $307 million of 2021 [3].",
                 "Unrealized gains were $31 million in 2022 and more than $307 million in 2021 [3]."):
        assert not any(" is not " in f for f in unsupported(fine, quotes, q)), fine


def test_a_sentence_answering_a_wh_question_in_its_words_alone_is_read_against_the_quotes() -> None:
    """"Acme controls the joint venture formed with Bolt in 2019" for "Who controls the joint venture Acme formed with
    Bolt in 2019?" claims what was asked in the question's words: where no quote says "controls" it is flagged; told
    in the quotes' words it is not, and a sentence that adds the quotes' words is read as before."""
    q = parse("Who controls the joint venture Acme formed with Bolt in 2019, and how would its ownership change?")
    quotes = [Quote("In 2019, we and Bolt combined our respective consumer businesses into a joint venture that "
                    "operates under the Bolt name.", "ACME_2021_10K", "acme", 26, 1, 1)]
    assert "controls" in unsupported("Acme controls the joint venture formed with Bolt in 2019 [1].", quotes, q,
                                     ["Acme"])
    assert "controls" not in unsupported("Acme and Bolt combined their consumer businesses into a joint venture in "
                                         "2019 [1].", quotes, q, ["Acme"])
    owned = [*quotes, Quote("Bolt controls the joint venture, its management and its policies.", "ACME_2021_10K",
                            "acme", 26, 2, 2)]
    assert "controls" not in unsupported("Bolt controls the joint venture formed with Acme in 2019 [2].", owned, q,
                                         ["Acme"])


def test_a_figure_s_measure_holds_its_list_and_what_follows_it() -> None:
    """A quote's figure is given for its list's items ("restructuring, impairment, and other charges and credits of
    $827 million") and for what follows it ("$47 million of goodwill that was assigned to our Domestic reporting
    unit"): a summary naming either is not told another measure's figure; one naming the other figure's word is."""
    q = parse("What made up Acme's restructuring charges in 2020, and where was the goodwill assigned?")
    quotes = [Quote("During the year ended December 31, 2020, Acme recorded restructuring, impairment, and other "
                    "charges and credits of $827 million.", "ACME_2020_10K", "acme", 28, 5, 5),
              Quote("The acquired assets included $47 million of goodwill that was assigned to our Domestic reporting "
                    "unit.", "ACME_2020_10K", "acme", 51, 3, 3),
              Quote("Total sales increased 0.3 percent, or 3.3 percent on an organic local currency basis.",
                    "ACME_2020_10K", "acme", 30, 6, 6)]
    for fine in ("Acme's restructuring charges were $827 million in 2020 [5].",
                 "The goodwill assigned to the Domestic reporting unit was $47 million [3]."):
        assert not any(" gives it for " in f for f in unsupported(fine, quotes, q, ["Acme"])), fine
    assert any(f.startswith("0.3 percent: [6] gives it for") for f in unsupported(
        "Organic sales grew 0.3 percent [6].", quotes, q, ["Acme"]))


def test_a_short_word_and_its_inflections_are_one_word() -> None:
    """"close", "closing" and "closed" are one word to the check, as "implement" and "implementing", "exceed" and
    "exceeded", "share" and "shared" are: a summary saying "close" of a quote's "closing" says what it says."""
    from engine.ask.subjects import word_stem

    for forms in (("close", "closing", "closed"), ("implement", "implementing", "implemented"),
                  ("exceed", "exceeded", "exceeds"), ("share", "shared", "shares"), ("need", "needed"),
                  ("settlement", "settled", "settling")):
        assert len({word_stem(w) for w in forms}) == 1, forms
    q = parse("What changes to its store fleet does Acme plan for fiscal 2024?")
    quotes = [Quote("Our fiscal 2024 store plans include closing 20 to 30 large format stores and implementing 8 "
                    "store remodels.", "ACME_2024_10Q", "acme", 15, 4, 4)]
    assert unsupported("Acme plans to close 20 to 30 large format stores and implement 8 store remodels in fiscal "
                       "2024 [4].", quotes, q, ["Acme"]) == []


def test_doubling_is_a_rise() -> None:
    """"Why did ... roughly double ...?" answered "... doubled ..., driven by ..." restates the question's direction,
    as "increased" would: no quote need say "doubled"."""
    q = parse("Why did Acme's capital spending roughly double to $2.4 billion in 2022?")
    quotes = [Quote("Capital spending was $1.2 billion and $2.4 billion in 2021 and 2022, respectively, driven "
                    "primarily by the construction of new plants in Ohio and Texas.", "ACME_2022_10K", "acme", 22, 2,
                    2)]
    flags = unsupported("Acme's capital spending doubled to $2.4 billion in 2022, driven primarily by the "
                        "construction of new plants in Ohio and Texas [2].", quotes, q, ["Acme"])
    assert not any("doubled" in f for f in flags), flags


def test_an_amount_under_ten_is_a_figure() -> None:
    """"$0" of goodwill is a figure the quotes must state, as "$47 million" is; "two acquisitions" is a count."""
    q = parse("How much goodwill did Acme assign to each of the two companies it acquired?")
    quotes = [Quote("The acquired assets included $47 million of goodwill that was assigned to our Domestic "
                    "reporting unit.", "ACME_2023_10K", "acme", 51, 3, 3)]
    assert "$0" in unsupported("Acme made two acquisitions: $47 million of goodwill went to Domestic [3], and $0 to "
                               "the other.", quotes, q)
    assert "two" not in unsupported("Acme made two acquisitions; $47 million of goodwill went to Domestic [3].",
                                    quotes, q)


def test_a_sentence_citing_one_quote_with_another_s_words_is_flagged() -> None:
    """"[2] indicates that ..." (or "... [2]." at its end) tells what the reader will find in [2]."""
    q = parse("Why did Acme's operating income margin change in 2022?")
    quotes = [Quote("Operating income margins decreased due to increases in raw materials and logistics costs, "
                    "partially offset by sales growth.", "ACME_2022_10K", "acme", 30, 2, 2),
              Quote("Operating income margins decreased as a result of outsourced hardgoods manufacturing costs.",
                    "ACME_2022_10K", "acme", 33, 6, 6)]
    assert "[2] does not say “outsourced”" in unsupported(
        "[2] indicates that the margin decreased due to raw materials and outsourced hardgoods manufacturing costs.",
        quotes, q)
    assert not any("does not say" in f for f in unsupported(
        "[2] indicates that the margin decreased due to raw materials and logistics costs.", quotes, q))
    assert not any("does not say" in f for f in unsupported(
        "The margin decreased due to raw materials [2] and outsourced hardgoods manufacturing costs [6].", quotes, q))


def test_words_a_quote_states_outside_its_forecast_are_not_foretold() -> None:
    """A summary telling the clause a quote states, in words its forecast clause repeats, states no forecast; one
    telling what only the forecast clause says does."""
    q = parse("Does Borealis ask its distributors for deposits?")
    quotes = [Quote("Borealis generally does not require deposits from its distributors; however, Borealis will "
                    "require deposits or a parent guarantee in certain instances to limit credit exposure.",
                    "BORE_2024_10Q", "bore", 12, 1, 1)]
    assert not any(f.startswith("stated as fact") for f in unsupported(
        "Borealis generally does not require deposits from its distributors [1].", quotes, q))
    assert "stated as fact (the quote says “will”)" in unsupported(
        "Borealis requires a parent guarantee from distributors in certain instances to limit credit exposure [1].",
        quotes, q)


def test_a_forecast_the_summary_leaves_out_is_not_stated_as_fact() -> None:
    """A sentence restating a quote without its closing "may" clause states no forecast."""
    q = parse("What does Acme say about the sale of its grocery arm?")
    quotes = [Quote("Acme Stores, Ltd., a wholly-owned subsidiary, is a defendant in over 35,000 equal value claims "
                    "that began in 2008, and further claims may be asserted in the future.", "ACME_2020_10K", "acme",
                    78, 2, 2)]
    assert not any(f.startswith("stated as fact") for f in unsupported(
        "Acme Stores, Ltd., a wholly-owned subsidiary, is a defendant in over 35,000 equal value claims that began in "
        "2008 [2].", quotes, q))
    assert "stated as fact (the quote says “may”)" in unsupported(
        "Acme Stores, Ltd. is a defendant in over 35,000 equal value claims that began in 2008, and further claims "
        "were asserted [2].", quotes, q)


def test_inflections_and_a_word_broken_across_a_line_are_the_quote_s_words() -> None:
    """"alleges" for "alleging", "election" for "elected", "write-off" for "write- off": no word of the quotes'."""
    q = parse("What legal proceedings does Acme describe?")
    quotes = [Quote("Epic Games filed a lawsuit against the Company alleging violations of antitrust laws; the "
                    "directors were elected and a write- off was recorded.", "ACME_2023_10Q", "acme", 23, 4, 4)]
    flags = unsupported("Epic Games' lawsuit alleges violations of antitrust laws; the election of directors and a "
                        "write-off are recorded [4].", quotes, q)
    assert not {"alleges", "election", "write-off"} & set(flags)


def test_a_section_s_heading_in_the_quote_s_passage_names_its_subject() -> None:
    q = parse("What drove the change in Acme's Latin America operating profit in 2021?")
    quotes = [Quote("A recognition of certain indirect tax credits in Brazil contributed 6 percentage points to "
                    "operating profit growth.", "ACME_2021_10K", "acme", 43, 5, 5)]
    summary = "Operating profit grew on indirect tax credits in Brazil, 6 percentage points of it [5]."
    assert "no quote names “Latin America”" in unsupported(summary, quotes, q)
    heading = ["Latin America Operating profit increased 22%. A recognition of certain indirect tax credits in Brazil "
               "contributed 6 percentage points to operating profit growth."]
    assert not any("no quote names" in f for f in unsupported(summary, quotes, q, passages=heading))


def test_a_named_part_s_drivers_told_as_the_whole_s_are_flagged() -> None:
    """"Acme Direct revenues grew 13% ... due to ..." is a channel's sentence; told of Acme's revenues it is the
    model's relation. A heading run into the quote ("2023 Guidance Our ...") names nothing."""
    q = parse("What drove the change in Acme's revenues in fiscal 2018?")
    quotes = [Quote("Acme Direct revenues grew 13% for fiscal 2018 due to strong digital commerce sales growth and "
                    "the addition of new stores.", "ACME_2018_10K", "acme", 30, 4, 4)]
    flags = unsupported("The change in Acme's revenues in fiscal 2018 was driven by strong digital commerce sales "
                        "growth and the addition of new stores [4].", quotes, q, ["Acme"])
    assert "[4] is about “Acme Direct revenues”" in flags
    assert not any("is about" in f for f in unsupported(
        "Acme Direct revenues grew in fiscal 2018 due to strong digital commerce sales growth and the addition of new "
        "stores [4].", quotes, q, ["Acme"]))
    headed = [Quote("2023 Guidance Our 2023 organic revenue growth rose due to strong digital commerce sales growth "
                    "and new stores.", "ACME_2018_10K", "acme", 30, 4, 4)]
    # (its "organic" revenue is a narrower subject than revenues: that is flagged as such, the heading is not)
    assert not any("Guidance" in f for f in unsupported(
        "Acme's revenues rose due to strong digital commerce sales growth and new stores [4].", headed, q, ["Acme"]))


def test_a_direction_the_quotes_disagree_on_told_one_way_is_flagged() -> None:
    """One quote is the year before's: "revenue increased" beside "revenue decreased $2.7 billion" for the same
    subject; a sentence naming its period says which it tells."""
    q = parse("What drove the change in Acme's Personal Computing revenue in fiscal 2016?")
    quotes = [Quote("Personal Computing revenue increased, primarily due to higher revenue from Devices.",
                    "ACME_2016_10K", "acme", 33, 4, 4),
              Quote("Personal Computing revenue decreased $2.7 billion or 6%, mainly due to lower revenue from "
                    "Devices.", "ACME_2016_10K", "acme", 34, 5, 5)]
    assert "[5] says “Personal Computing revenue decreased”" in unsupported(
        "Personal Computing revenue increased, primarily due to higher revenue from Devices [4].", quotes, q)
    assert not any("says “" in f for f in unsupported(
        "In fiscal 2016, Personal Computing revenue decreased $2.7 billion, mainly due to lower revenue from Devices "
        "[5].", quotes, q))

    # a dated sentence is judged against the quote sentences giving the item's direction for that year
    dated = [Quote("Net interest income in the consolidated statements of earnings was $6.35 billion for 2023, 17% "
                   "lower than 2022, reflecting a significant increase in interest expense.", "ACME_2023_10K", "acme",
                   72, 5, 5),
             Quote("Net interest income was $7.68 billion for 2022, 20% higher than 2021.", "ACME_2023_10K", "acme",
                   73, 6, 6)]
    nii = parse("What drove the change in Acme's net interest income in 2023?")
    assert "[5] says “Net interest income ... lower”" in unsupported(
        "The increase in Acme's net interest income in 2023 was driven by a significant increase in interest expense.",
        dated, nii, ["Acme"])
    assert "[5] says “Net interest income ... lower”" in unsupported(
        "In 2023, net interest income increased, reflecting a significant increase in interest expense.", dated, nii,
        ["Acme"])
    assert not any("says “" in f for f in unsupported(
        "The decrease in Acme's net interest income in 2023 reflected a significant increase in interest expense.",
        dated, nii, ["Acme"]))
    assert not any("says “" in f for f in unsupported(  # 2022's increase is 2022's
        "The increase in Acme's net interest income in 2022 was 20%.", dated, nii, ["Acme"]))

def test_the_asked_year_s_list_is_the_summary_not_the_year_before_s() -> None:
    from engine.ask.narrative import listed

    q = parse("Why did Acme's cost of sales change in 2021?")
    before = _quote("2020 v. 2019 Cost of sales increased $431 million, primarily due to: • increased sales volumes; "
                    "• higher royalty expenses; and Acme Inc. 2021 Form 10-K 36", 2)
    asked = _quote("Cost of Sales 2021 v. 2020 Cost of sales increased $22.3 billion, primarily due to: • the impact "
                   "of the vaccine; and • the unfavorable impact of foreign exchange", 3)
    assert listed(q, [before, asked]) == ("Cost of Sales 2021 v. 2020 Cost of sales increased $22.3 billion, primarily "
                                         "due to: the impact of the vaccine; the unfavorable impact of foreign "
                                         "exchange [3].")
    assert listed(parse("Why did Acme's cost of sales change in 2020?"), [before, asked]).startswith("2020 v. 2019")


def test_a_figure_told_for_another_line_item_is_flagged() -> None:
    q = parse("Why did Acme's Services operating income change in 2023?")
    quotes = [Quote("Revenues were $307.4 billion, an increase of 9%, primarily driven by an increase in Services "
                    "revenues of $19.0 billion.", "ACME_2023_10K", "acme", 35, 9, 9)]
    assert "$19.0 billion: [9] gives it for “revenues”" in unsupported(
        "Acme's Services operating income increased by $19.0 billion in 2023 [9].", quotes, q)
    assert not any("gives it for" in f for f in unsupported(
        "Acme's Services revenues increased by $19.0 billion in 2023 [9].", quotes, q))


def test_a_figure_told_for_another_measure_in_its_quote_is_flagged() -> None:
    """Every word is quoted, but the figure is the quote's for something else in the same sentence: a qualifier of
    the other figure ("organic"), a name in a relative clause ("Asia"), a share told as a change."""
    q = parse("What drove the change in Acme's Tools operating income in 2022?")
    tools = _quote("In Tools, total sales increased 1.2 percent, or 4.5 percent on an organic local currency basis.", 4)
    assert "1.2 percent: [4] gives it for “total sales increased”, not “organic”" in unsupported(
        "Tools had organic sales growth of 1.2 percent [4].", [tools], q)
    assert not any(", not “" in f for f in unsupported(
        "Tools total sales grew 1.2 percent, or 4.5 percent on an organic local currency basis [4].", [tools], q))
    bottlers = _quote("Revenue from owned bottlers, which mainly includes our bottling plants in our Asia and Americas "
                      "divisions, is about 28% of our consolidated net revenue.", 5)
    assert "28%: [5] gives it for “Revenue from owned bottlers is about”, not “Asia”" in unsupported(
        "Asia revenue was 28% of consolidated net revenue [5].", [bottlers], q)
    assert not any(", not “" in f for f in unsupported(
        "Revenue from owned bottlers was 28% of consolidated net revenue [5].", [bottlers], q))
    orders = [_quote("At year end, 40% of Tools orders were attributable to export customers.", 2),
              _quote("Total orders of $9,100 million at year end increased by 40% from $6,500 million, primarily due "
                     "to new contracts.", 3)]
    assert "40%: [2] gives it as a share, not a change" in unsupported(
        "Tools orders grew on a 40% increase in orders from export customers [2].", orders, q)
    assert not any("as a share" in f for f in unsupported(
        "Total orders increased by 40%, primarily due to new contracts [3].", orders, q))
    # what a figure is of, told by the sentence it opens, is not read: no flag
    income = _quote("Operating income was $800 million, an increase of 10%, driven by higher volume.", 6)
    assert not any(", not “" in f for f in unsupported(
        "Tools operating income increased 10%, driven by higher volume [6].", [income], q))


def test_what_the_quotes_lack_and_a_summary_without_a_subject_raise_no_flag() -> None:
    q = parse("What does Acme disclose about its pending acquisition of Beta?")
    quotes = [Quote("We expect to finance the proposed acquisition of Beta through $31 billion of long-term debt.",
                    "ACME_2023_10Q", "acme", 60, 6, 6)]
    assert unsupported("Acme expects to finance the acquisition of Beta through $31 billion of long-term debt [6]. "
                       "The sources do not provide information about its timing.", quotes, q) == []
    drivers = [Quote("The North America operating income in Q1 2023 is primarily due to increased unit sales and "
                     "increased advertising sales, partially offset by increased shipping costs.", "ACME_2023_10Q",
                     "acme", 26, 4, 4)]
    assert not any("is about" in f for f in unsupported(
        "Increased unit sales and increased advertising sales, partially offset by increased shipping costs [4].",
        drivers, parse("What drove the change in Acme's North America segment operating income in Q1 2023?")))


def test_another_part_s_list_is_not_the_summary_of_the_part_asked() -> None:
    """A list whose lead-in names another part ("Activision's operating income ... due to:") is no summary of what
    drove King's revenues when another quote tells King's; a list under the part's own heading stays."""
    from engine.ask.narrative import listed

    q = parse("Why did Acme's King segment revenues change in 2019?")
    other = _quote("Segment Income from Operations Activision The decrease in Activision's operating income for 2019 "
                   "was primarily due to: • lower revenues; and • marketing costs", 2)
    own = _quote("King The decrease in King's net revenues for 2019 was primarily due to lower in-game revenues.", 3)
    assert q.segment == "King"
    assert listed(q, [other, own]) == ""
    headed = _quote("The decrease in net revenues for 2019 was primarily due to: • lower in-game revenues; and • "
                    "lower advertising", 4)
    assert listed(q, [headed]).startswith("The decrease in net revenues for 2019 was primarily due to:")


def test_another_part_told_for_the_part_asked_is_flagged() -> None:
    """A summary that tells what moved of another segment than the one asked, and names the asked one nowhere, is
    told from the wrong quote: each segment's sentence is in the filing's words, and both are quoted."""
    q = parse("What drove the change in Acme's Industrial Coatings revenue in fiscal 2021?")
    quotes = [Quote("Revenue from Industrial Films increased $88.1 million during fiscal 2021, primarily due to new "
                    "packaging customers.", "ACME_2021_10K", "acme", 40, 1, 1),
              Quote("Revenue from Industrial Coatings decreased $12.4 million during fiscal 2021, primarily due to "
                    "lower marine volumes.", "ACME_2021_10K", "acme", 40, 2, 2)]
    assert "“Industrial Films” is not “Industrial Coatings”" in unsupported(
        "Revenue from Industrial Films increased $88.1 million during fiscal 2021, primarily due to new packaging "
        "customers [1].", quotes, q)
    # the asked segment named, its acronym, or a cause that opens the sentence: no other part told
    assert not any("is not “" in f for f in unsupported(
        "Revenue from Industrial Coatings decreased $12.4 million, primarily due to lower marine volumes [2].",
        quotes, q))
    assert not any("is not “" in f for f in unsupported(
        "AIC revenue decreased $12.4 million, primarily due to lower marine volumes [2].", quotes, q))
    assert not any("is not “" in f for f in unsupported(
        "Lower Industrial Films volumes reduced revenue [1].", quotes, q))
    # a quote under the asked part's heading: "Acme Direct" is the region's own channel, not another part
    region = parse("What drove the change in Acme's EMEA revenues in fiscal 2021?")
    channel = [Quote("Acme Direct revenues increased 25%, driven by strong digital sales growth of 67%.",
                     "ACME_2021_10K", "acme", 40, 2, 2)]
    told = "Acme Direct revenues increased 25%, driven by strong digital sales growth of 67% [2]."
    under = ["EUROPE, MIDDLE EAST & AFRICA On a currency-neutral basis, EMEA revenues grew 17%. Acme Direct revenues "
             "increased 25%, driven by strong digital sales growth of 67%."]
    assert not any("is not “" in f for f in unsupported(told, channel, region, ["Acme"], passages=under))
    elsewhere = ["NORTH AMERICA Revenues grew 3%. Acme Direct revenues increased 25%, driven by strong digital sales "
                 "growth of 67%."]
    assert "“Acme Direct” is not “EMEA”" in unsupported(told, channel, region, ["Acme"], passages=elsewhere)


def test_one_of_several_parts_figures_told_without_whose_is_flagged() -> None:
    """Quotes giving one line item different amounts for the same year are different parts' (a segment's and the
    firm's); a sentence told from one of them must say whose."""
    q = parse("Why did Acme's operating expenses change in 2023?")
    quotes = [Quote("Operating expenses were $1.21 billion for 2023, 40% higher than 2022, primarily due to a "
                    "write-down of software of $300 million.", "ACME_2023_10K", "acme", 61, 4, 4),
              Quote("Operating expenses were $20.75 billion for 2023, 6% higher than 2022, primarily due to higher "
                    "compensation and a write-down of software of $300 million.", "ACME_2023_10K", "acme", 45, 7, 7)]
    flag = "[4] gives “Operating expenses” as $1.21 billion, [7] as $20.75 billion: whose is not said"
    assert flag in unsupported("Acme's operating expenses increased by 40% in 2023 due to a write-down of software "
                               "of $300 million.", quotes, q)
    # the firm's own figure, or a sentence naming the part, says whose
    assert flag not in unsupported("Acme's operating expenses increased by 6% in 2023 due to higher compensation.",
                                   quotes, q)
    assert not any("whose" in f for f in unsupported(
        "Consumer Lending operating expenses increased by 40% in 2023 due to a write-down of software.", quotes, q))
    # two years' amounts of one item are no two parts'
    years = [Quote("Operating expenses were $20.75 billion for 2023.", "ACME_2023_10K", "acme", 45, 7, 7),
             Quote("Operating expenses were $19.58 billion for 2022.", "ACME_2023_10K", "acme", 45, 8, 8)]
    assert not any("whose" in f for f in unsupported("Operating expenses were $20.75 billion for 2023 [7].", years, q))


def test_the_part_asked_among_a_quote_s_drivers_told_as_what_changed_is_flagged() -> None:
    """A segment the quote names among the drivers of the firm's sales is not the subject whose drivers they are."""
    q = parse("What drove the change in Acme's Optical Glass sales in 2020?")
    quotes = [Quote("Net sales in 2020 were $9.1 billion, a decrease of $300 million, driven by lower sales in the "
                    "Optical Glass and Medical segments, partially offset by higher sales in the Ceramics segment.",
                    "ACME_2020_10K", "acme", 30, 5, 5)]
    assert "[5] gives “Optical Glass” as a driver, not as what changed" in unsupported(
        "The change in Acme's Optical Glass sales in 2020 was driven by lower sales in the segment, partially offset "
        "by higher sales in the Ceramics segment.", quotes, q, ["Acme"])
    # a lawsuit's words are no causes: the part a legal question names, told before the quote's "court", is its
    # subject
    legal = parse("Summarize how Oracle's Java API copyright lawsuit against Acme was resolved.")
    ruled = [Quote("On April 5, 2021, the Supreme Court reversed the Federal Circuit's ruling and found that Acme's "
                   "use of the Java APIs was a fair use as a matter of law.", "ACME_2021_10K", "acme", 78, 1, 1)]
    assert not any("as a driver" in f for f in unsupported(
        "Oracle's Java API copyright lawsuit against Acme was resolved by the Supreme Court reversing the Federal "
        "Circuit's ruling and finding that Acme's use of the Java APIs was a fair use.", ruled, legal, ["Acme"]))
    # a cause after the part's clause ("and the impact of ...") is the next driver, not the part's own
    listed = [Quote("The increase in total revenues was due to a 5.8% increase in Optical Glass segment revenue and "
                    "the impact of the Ceramics acquisition.", "ACME_2020_10K", "acme", 30, 2, 2)]
    assert "[2] gives “Optical Glass” as a driver, not as what changed" in unsupported(
        "The increase in Optical Glass segment revenue was due to the impact of the Ceramics acquisition.", listed,
        q, ["Acme"])
    # a part whose own clause follows, with its own cause, heads that clause
    own = [Quote("These decreases were partially offset by higher sales of about $90 million at Optical Glass mostly "
                 "due to higher volume on lens contracts.", "ACME_2020_10K", "acme", 31, 6, 6)]
    assert not any("as a driver" in f for f in unsupported(
        "Optical Glass sales were driven by higher volume on lens contracts.", own, q, ["Acme"]))
    # the part named among the drivers by its acronym ("the decrease at BDS")
    bds = parse("What drove the change in Bolt Defense, Space & Security earnings from operations in 2018?")
    firm = [Quote("Earnings from operations in 2018 increased by $1,643 million compared with 2017, primarily due to "
                  "higher earnings at BCA and BGS, which more than offset the decrease at BDS.", "ACME_2018_10K",
                  "acme", 30, 2, 2)]
    assert "[2] gives “Defense, Space & Security” as a driver, not as what changed" in unsupported(
        "The change in Bolt Defense, Space & Security earnings from operations in 2018 was primarily due to higher "
        "earnings at BCA and BGS, which more than offset the decrease at BDS.", firm, bds, ["Bolt"])


def test_a_summary_naming_the_cause_first_is_read_the_other_way_round() -> None:
    """"Lower sales in the Optical Glass segment drove the change in Acme's Optical Glass sales" puts the cause
    before what it changed: read as "the change in ... driven by ...", it gives the part asked that the quote names
    among the firm's drivers as what changed. A quote that puts its cause first itself ("The weakness in foreign
    currencies contributed to lower net sales") is read the same way, so a summary repeating it says what it says."""
    q = parse("What drove the change in Acme's Optical Glass operating income in fiscal 2023?")
    quotes = [Quote("Our operating income rate decreased in fiscal 2023, primarily driven by our Optical Glass "
                    "segment's lower gross profit rate and decreased leverage on our fixed expenses.", "ACME_2023_10K",
                    "acme", 28, 4, 4)]
    flag = "[4] gives “Optical Glass” as a driver, not as what changed"
    assert flag in unsupported(
        "The Optical Glass segment's lower gross profit rate and decreased leverage on fixed expenses drove the change "
        "in Acme's Optical Glass operating income in fiscal 2023.", quotes, q, ["Acme"])
    # a cause-first verb in a relative clause is no cause of the sentence's subject
    assert flag not in unsupported(
        "The Optical Glass segment's gross profit rate decreased, which led to lower operating income.", quotes, q,
        ["Acme"])
    fx = parse("What drove the change in Acme's net sales in the third quarter of 2023?")
    said = ("The weakness in foreign currencies contributed to lower net sales of phones, which was partially offset "
            "by higher net sales of services.")
    both = [Quote("Gross margin percentage decreased due primarily to the weakness in foreign currencies and decreased "
                  "leverage.", "ACME_2023Q3_10Q", "acme", 20, 3, 3), Quote(said, "ACME_2023Q3_10Q", "acme", 20, 5, 5)]
    assert not any("gives" in f for f in unsupported(said, both, fx, ["Acme"]))


def test_parties_of_another_role_told_as_the_role_asked_are_flagged() -> None:
    """A filing's suppliers are not its customers: a summary telling the asked role's parties in another role's
    words, where no quote does, states a relation of its own."""
    q = parse("Who are Acme's major customers?")
    quotes = [Quote("We rely on subcontractors and suppliers to provide raw materials and to perform some of the "
                    "services that we provide to our customers.", "ACME_2022_10K", "acme", 12, 1, 1)]
    assert "“subcontractors” are no “customers”" in unsupported(
        "Acme's major customers include subcontractors and suppliers [1].", quotes, q, ["Acme"])
    # two roles told apart, or a quote that itself says so
    assert not any("are no" in f for f in unsupported(
        "Acme serves customers, and its subcontractors and suppliers provide raw materials [1].", quotes, q, ["Acme"]))
    both = [Quote("Our customers include distributors who are also suppliers of components.", "ACME_2022_10K",
                  "acme", 12, 2, 2)]
    assert not any("are no" in f for f in unsupported(
        "Acme's customers include distributors who are also suppliers of components [2].", both, q, ["Acme"]))


def test_a_part_named_after_the_company_is_a_part() -> None:
    """"Acme International's gross profit rate" asks of a segment that goes on past the company's name: another
    segment's sentence told for it names it nowhere ('[3] does not name “International”')."""
    q = parse("What drove the change in Acme International's gross profit rate in fiscal 2020?")
    other = [Quote("Gross profit rate decreased 14 and 28 basis points for fiscal 2020 and 2019, respectively.",
                   "ACME_2020_10K", "acme", 37, 3, 3)]
    passage = ("Acme U.S. Segment Net sales for the Acme U.S. segment increased $9.3 billion. Gross profit rate "
               "decreased 14 and 28 basis points for fiscal 2020 and 2019, respectively.")
    told = "The gross profit rate decreased 14 basis points for fiscal 2020."
    assert "[3] does not name “International”" in unsupported(told, other, q, ["ACME_2020_10K", "acme"],
                                                              passages=[passage])


def test_a_part_told_with_a_quote_that_names_it_nowhere_is_flagged() -> None:
    """The firm's drivers are no segment's: a sentence naming the asked segment and restating a quote that names it
    nowhere (nor its passage) tells a relation no quote states; a quote under the segment's heading names it."""
    q = parse("What drove the change in Acme's Specialty Chemicals net revenues in 2023?")
    firm = Quote("Net revenues in the consolidated statements of earnings were $9.1 billion for 2023, 3% lower than "
                 "2022, primarily reflecting lower interest income and lower licensing revenues.", "ACME_2023_10K",
                 "acme", 70, 4, 4)
    own = Quote("The decrease in net revenues in Specialty Chemicals reflected lower volumes in coatings.",
                "ACME_2023_10K", "acme", 66, 7, 7)
    summary = ("The decrease in Acme's Specialty Chemicals net revenues in 2023 primarily reflected lower interest "
               "income and lower licensing revenues.")
    assert "[4] does not name “Specialty Chemicals”" in unsupported(summary, [firm, own], q, ["Acme"],
                                                                     passages=["Net revenues ...", "..."])
    heading = ["Specialty Chemicals Segment Results: Net revenues in the consolidated ...", "..."]
    assert not any("does not name" in f for f in unsupported(summary, [firm, own], q, ["Acme"], passages=heading))
    # a summary that names no part tells its sentences of the part asked
    assert "[4] does not name “Specialty Chemicals”" in unsupported(
        "Net revenues primarily reflected lower interest income and lower licensing revenues.", [firm, own], q,
        ["Acme"], passages=["Net revenues ...", "..."])
    # a name that is all owner and that the company's name spells whole ("Acme Water's" of Acme Water Works) is
    # the company: no part is asked
    water = parse("What drove the change in Acme Water's net revenues in 2023?")
    assert not any("does not name" in f for f in unsupported(
        "Acme Water's net revenues primarily reflected lower interest income and lower licensing revenues.",
        [firm], water, ["Acme", "Acme Water Works"]))
    assert "[4] does not name “Water”" in unsupported(
        "Acme Water's net revenues primarily reflected lower interest income and lower licensing revenues.",
        [firm], water, ["Acme"])


def test_a_part_whose_name_holds_the_asked_words_apart_is_another_part() -> None:
    """"Global Banking & Markets" is not "Global Markets": a quote whose only run of the asked words has another
    name word between them names another part, while a run holding the asked words side by side names the one
    asked ("Specialty Chemicals Segment The Specialty Chemicals segment", a heading run into its sentence)."""
    q = parse("What drove the change in Acme's Global Markets net revenues in 2022?")
    merged = Quote("Net revenues in Global Banking & Markets primarily reflected significantly lower advisory fees, "
                   "partially offset by higher net revenues in rates.", "ACME_2022_10K", "acme", 61, 4, 4)
    summary = ("Global Markets net revenues in 2022 were lower due to significantly lower advisory fees, partially "
               "offset by higher net revenues in rates.")
    assert "[4] does not name “Global Markets”" in unsupported(summary, [merged], q, ["Acme"], passages=[""])
    # a summary that says whose it tells, in the other part's own name, is not told of the part asked
    told = "Global Banking & Markets net revenues reflected significantly lower advisory fees."
    assert not any("does not name" in f for f in unsupported(told, [merged], q, ["Acme"], passages=[""]))
    own = Quote("Global Markets Global Markets net revenues primarily reflected significantly lower advisory fees, "
                "partially offset by higher net revenues in rates.", "ACME_2022_10K", "acme", 61, 4, 4)
    assert not any("does not name" in f for f in unsupported(summary, [own], q, ["Acme"], passages=[""]))
    # a generic word of the asked name ("Business") is the name's own, not another part's between its words
    pbp = parse("What drove the change in Acme's Productivity and Business Processes revenue in fiscal 2023?")
    both = [Quote("Productivity and Business Processes revenue increased driven by Office Commercial.", "ACME_2023_10K",
                  "acme", 44, 3, 3),
            Quote("More Personal Computing revenue decreased driven by Windows.", "ACME_2023_10K", "acme", 44, 4, 4)]
    assert not any("is not" in f for f in unsupported(
        "Productivity and Business Processes revenue increased driven by Office Commercial. More Personal Computing "
        "revenue decreased driven by Windows.", both, pbp, ["Acme"], passages=["", ""]))
    longer = Quote("Net revenues in Global Markets Services primarily reflected significantly lower advisory fees, "
                   "partially offset by higher net revenues in rates.", "ACME_2022_10K", "acme", 61, 4, 4)
    assert not any("does not name" in f for f in unsupported(summary, [longer], q, ["Acme"], passages=[""]))


def test_a_segment_s_sentence_told_of_the_company_is_flagged() -> None:
    """A quote whose subject is one segment's ("... attributable to our Embedded segment increased") restated of the
    company the question asks about tells the segment's drivers as the firm's; a summary naming the segment says
    whose they are."""
    q = parse("What drove the change in Acme's marketing, general and administrative expenses in 2015?")
    quotes = [Quote("Marketing, general and administrative expenses attributable to our Enterprise, Embedded and "
                    "Semi-Custom segment increased primarily due to an $8 million increase in sales and marketing "
                    "expenses and a $5 million increase in other expenses.", "ACME_2015_10K", "acme", 44, 5, 5)]
    told = ("The increase in marketing, general and administrative expenses was primarily due to an $8 million "
            "increase in sales and marketing expenses and a $5 million increase in other expenses.")
    assert "[5] is about the “Embedded and Semi-Custom” segment" in unsupported(told, quotes, q, ["Acme"])
    named = ("Marketing, general and administrative expenses of the Embedded and Semi-Custom segment increased "
             "primarily due to an $8 million increase in sales and marketing expenses and a $5 million increase in "
             "other expenses.")
    assert not any("segment" in f for f in unsupported(named, quotes, q, ["Acme"]))
    every = [Quote("Business segment operating income margins decreased primarily due to increased raw materials "
                   "costs and higher logistics costs.", "ACME_2015_10K", "acme", 30, 6, 6)]
    assert not any("segment" in f for f in unsupported(
        "Operating income margins decreased primarily due to increased raw materials costs and higher logistics "
        "costs.", every, parse("Why did Acme's operating income margin change in 2015?"), ["Acme"]))

def test_a_driver_told_under_a_segment_s_heading_given_for_the_company_is_flagged() -> None:
    """A quote told under a segment's heading run into it ("Graphics - Segment gross margin decreased ... primarily
    due to lower margins of GPUs") gives the segment's driver: told for the company's gross margin it gives '[3]
    gives “lower margins of GPUs” for the “Graphics” segment'. A heading that is no part ("Gross Margin - ..."), a
    question asking for the segment, or a summary naming it are not flagged."""
    q = parse("What drove the change in Acme's gross margin in the quarter ended April 30, 2023?")
    said = ("Graphics - Segment gross margin decreased during the first quarter of fiscal year 2024 compared to the "
            "first quarter of fiscal year 2023 primarily due to lower margins of GPUs.")
    quotes = [Quote(said, "ACME_2023Q1_10Q", "acme", 28, 3, 3)]
    told = "The change in Acme's gross margin in the quarter ended April 30, 2023 was driven by lower margins of GPUs."
    assert "[3] gives “lower margins of GPUs” for the “Graphics” segment" in unsupported(told, quotes, q, ["Acme"])
    plain = [Quote(said.replace("Graphics - Segment gross margin", "Gross Margin - Our gross margin"),
                   "ACME_2023Q1_10Q", "acme", 28, 3, 3)]
    assert not any("segment" in f for f in unsupported(told, plain, q, ["Acme"]))
    graphics = parse("What drove the change in Acme's Graphics segment gross margin in the first quarter of 2024?")
    assert not any("for the" in f for f in unsupported(told, quotes, graphics, ["Acme"]))
    named = "Graphics segment gross margin decreased, driven by lower margins of GPUs."
    assert not any("for the" in f for f in unsupported(named, quotes, q, ["Acme"]))


def test_a_sentence_going_on_with_a_segment_s_statement_told_of_the_company_is_flagged() -> None:
    """A quote that goes on with the sentence before it ("The decrease in cost of sales was primarily due to ...")
    is about what that sentence's subject names: a segment's ("Enterprise, Embedded and Semi-Custom operating income
    was $215 million ...; ... a $2 million decrease in cost of sales"), told of the company, gives '[3] is about
    “Enterprise, Embedded and Semi-Custom operating income”'. A passage whose statement names no part, a quote that
    names its own narrower subject ("The 12% increase in currency-neutral footwear revenues"), one whose sentences
    before it never name its item, and a summary naming the segment are not flagged."""
    q = parse("What drove the change in Acme's cost of sales in 2015?")
    said = ("The decrease in cost of sales was primarily due to a decrease in unit shipments of our server and "
            "embedded products, largely offset by an inventory write-down of $13 million.")
    quotes = [Quote(said, "ACME_2015_10K", "acme", 42, 3, 3)]
    segment = ("Enterprise, Embedded and Semi-Custom net revenue of $2.2 billion in 2015 decreased by 8%. "
               "Enterprise, Embedded and Semi-Custom operating income was $215 million in 2015 compared to $399 "
               "million in 2014. The decline in operating results was primarily due to the decrease in net revenue, "
               f"partially offset by a $2 million decrease in cost of sales. {said} Marketing expenses decreased.")
    flag = "[3] is about “Enterprise, Embedded and Semi-Custom operating income”"
    assert flag in unsupported(said, quotes, q, ["Acme"], passages=[segment])
    firm = segment.replace("Enterprise, Embedded and Semi-Custom operating income", "Operating income")
    assert not any("is about" in f for f in unsupported(said, quotes, q, ["Acme"], passages=[firm]))
    unrelated = segment.replace("a $2 million decrease in cost of sales", "lower marketing expenses")
    assert not any("is about" in f for f in unsupported(said, quotes, q, ["Acme"], passages=[unrelated]))
    named = said.replace("The decrease in cost of sales", "The decrease in the Embedded segment's cost of sales")
    assert not any("is about" in f for f in unsupported(named, quotes, q, ["Acme"], passages=[segment]))
    revenue = parse("What drove the change in Acme's revenues in fiscal 2019?")
    own = ("The 12% increase in currency-neutral footwear revenues for fiscal 2019 was attributable to growth in most "
           "key categories, led by Sportswear.")
    direct = f"Acme Direct revenues increased 15%, driven by strong digital commerce sales growth. {own}"
    assert not any("is about" in f for f in unsupported(own, [Quote(own, "ACME_2019_10K", "acme", 36, 4, 4)], revenue,
                                                        ["Acme"], passages=[direct]))
    # a change pointed back at with no item ("The decrease was ...") goes on with the sentence right before it, past
    # a table's lead-in ("RMS' operating results included the following (in millions): RMS' net sales ...")
    sales = parse("What drove the change in Acme's net sales in 2022?")
    bare = ("The decrease was primarily attributable to lower net sales of approximately $280 million for training "
            "programs due to lower volume.")
    lead = ("Table of Contents RMS' operating results included the following (in millions): RMS' net sales in 2022 "
            f"decreased $641 million, or 4%, compared to 2021. {bare}")
    told = ("The decrease in net sales in 2022 was primarily attributable to lower net sales of approximately $280 "
            "million for training programs due to lower volume.")
    flags = unsupported(told, [Quote(bare, "ACME_2022_10K", "acme", 44, 4, 4)], sales, ["Acme"], passages=[lead])
    assert any(f.startswith("[4] is about “RMS' net sales") for f in flags)
    firm = lead.replace("RMS' net sales", "Net sales")
    assert not any("is about" in f for f in unsupported(told, [Quote(bare, "ACME_2022_10K", "acme", 44, 4, 4)], sales,
                                                        ["Acme"], passages=[firm]))


def test_the_year_before_s_discussion_told_for_the_year_asked_is_flagged() -> None:
    """A quote whose passage compares two earlier years before it ("in fiscal 2016 compared to fiscal 2015") is the
    year before's discussion: restated without a year for fiscal 2017 it gives '[5] is about fiscal 2016'. Years
    named after the quote (the next paragraph) or one earlier year alone ("compared to fiscal 2016") say nothing."""
    q = parse("What drove the change in Acme's SG&A expenses in fiscal 2017?")
    quotes = [Quote("The decrease in SG&A expense was driven by the elimination of expenses associated with closed "
                    "stores.", "ACME_2017_10K", "acme", 39, 5, 5)]
    summary = "The decline in SG&A expense was driven by the elimination of expenses associated with closed stores."
    before = ("Our segment experienced a gross profit decline of $260 million in fiscal 2016 compared to fiscal 2015. "
              "The decrease in SG&A expense was driven by the elimination of expenses associated with closed stores.")
    assert "[5] is about fiscal 2016" in unsupported(summary, quotes, q, ["Acme"], passages=[before])
    after = ("The decrease in SG&A expense was driven by the elimination of expenses associated with closed stores. "
             "SG&A increased in fiscal 2016 compared to fiscal 2015.")
    compared = ("SG&A decreased compared to fiscal 2016. The decrease in SG&A expense was driven by the elimination "
                "of expenses associated with closed stores.")
    for passage in (after, compared):
        assert not any("is about fiscal" in f for f in unsupported(summary, quotes, q, ["Acme"], passages=[passage]))
    assert not any("is about fiscal" in f for f in unsupported(
        "In fiscal 2016, the decline in SG&A expense was driven by the elimination of expenses associated with closed "
        "stores.", quotes, q, ["Acme"], passages=[before]))
    # a quote sentence opening with its own earlier year is that year's; what it is compared with is not its year
    own = [Quote("For fiscal 2016, the decrease in SG&A expense was primarily due to a charge for club closures in the "
                 "prior year.", "ACME_2017_10K", "acme", 39, 2, 2)]
    told = "The decrease in SG&A expense was primarily due to a charge for club closures in the prior year."
    assert "[2] is about fiscal 2016" in unsupported(told, own, q, ["Acme"], passages=[""])
    compared = [Quote("Compared to fiscal 2016, the decrease in SG&A expense was primarily due to a charge for club "
                      "closures in the prior year.", "ACME_2017_10K", "acme", 39, 2, 2)]
    assert not any("is about fiscal" in f for f in unsupported(told, compared, q, ["Acme"], passages=[""]))
    # years in dates count: a sentence for the year ended December 31, 2017 compared with 2016 is 2017's, and a
    # summary sentence naming a date names its year
    dated = [Quote("Comparison of Years Ended December 31, 2017 and 2016 SG&A expense for the year ended December 31, "
                   "2017, decreased by $44.1 million compared to the year ended December 31, 2016.", "ACME_2017_10K",
                   "acme", 50, 4, 4)]
    assert not any("is about fiscal" in f for f in unsupported(
        "SG&A expense decreased by $44.1 million in the year.", dated, q, ["Acme"], passages=[""]))
    assert not any("is about fiscal" in f for f in unsupported(
        "SG&A expense decreased by $44.1 million compared to the year ended December 31, 2016.", own, q, ["Acme"],
        passages=[""]))

def test_a_change_pointed_back_at_is_the_sentence_before_s_item() -> None:
    """"The decrease was primarily attributable to lower net sales ..." after "RMS' net sales in 2022 decreased $641
    million" (in its passage) is the net sales' decrease: told as cost of sales' it is another item's."""
    q = parse("What drove the change in Acme's cost of sales in 2022?")
    quotes = [Quote("The decrease was primarily attributable to lower net sales of approximately $280 million for "
                    "training programs due to lower volume.", "ACME_2022_10K", "acme", 44, 5, 5)]
    passage = ("RMS' operating results included the following: RMS' net sales in 2022 decreased $641 million, or 4%, "
               "compared to 2021. The decrease was primarily attributable to lower net sales of approximately $280 "
               "million for training programs due to lower volume.")
    summary = ("The decrease in cost of sales in 2022 was primarily attributable to lower net sales of approximately "
               "$280 million for training programs due to lower volume.")
    assert "[5] is about “net sales”" in unsupported(summary, quotes, q, ["Acme"], passages=[passage])
    costs = passage.replace("RMS' net sales in 2022 decreased", "Cost of sales in 2022 decreased")
    assert not any("is about" in f for f in unsupported(summary, quotes, q, ["Acme"], passages=[costs]))
    # a bare plural points back too: "Increases were primarily due to ..." after the cost of sales' sentence
    sga = parse("What drove the change in Acme's selling, general and administrative expenses in 2022?")
    bare = [Quote("Increases were primarily due to special item costs for litigation and higher raw materials and "
                  "logistics costs.", "ACME_2022_10K", "acme", 27, 4, 4)]
    lead = ("Cost of Sales: Cost of sales, measured as a percent of sales, increased in 2022. Increases were primarily "
            "due to special item costs for litigation and higher raw materials and logistics costs.")
    assert "[4] is about “Cost of Sales”" in unsupported(
        "The increase in SG&A expenses was primarily due to special item costs for litigation and higher raw "
        "materials and logistics costs.", bare, sga, ["Acme"], passages=[lead])

def test_the_year_to_date_s_drivers_told_for_the_quarter_are_flagged() -> None:
    """A 10-Q's nine-month sentence is not the quarter's: told for Q3 2023 it gives '[4] is about the nine months';
    a sentence of the quarter and the year to date together is the quarter's too."""
    q = parse("What drove the change in Acme's North America segment operating income in Q3 2023?")
    ytd = [Quote("The North America operating income for the nine months ended September 30, 2023, as compared to "
                 "the operating loss in the comparable prior year period, is primarily due to increased unit sales.",
                 "ACME_2023_10Q", "acme", 25, 4, 4)]
    told = "The increase in North America operating income in Q3 2023 was primarily due to increased unit sales."
    assert "[4] is about the nine months" in unsupported(told, ytd, q, ["Acme"])
    both = [Quote("The increase in North America operating income in the third quarter and first nine months of 2023 "
                  "is primarily due to increased unit sales.", "ACME_2023_10Q", "acme", 25, 4, 4)]
    assert not any("is about the" in f for f in unsupported(told, both, q, ["Acme"]))

def test_a_summary_telling_the_quarter_and_the_year_to_date_each_by_its_own_quote_is_not_flagged() -> None:
    """A short form the filing defines ("adjusted gross margin (“AGM”)") is its words; "the decrease in Q3" points
    back at the item as "the decrease" does; a sentence giving the quarter its drivers and the nine months theirs
    tells each quote of its own span. Giving the nine months' drivers to the quarter alone is still flagged."""
    q = parse("How much did Globex's adjusted gross margin fall in Q3 2025 and in the first nine months of 2025, and "
              "why?")
    quotes = [_quote("Our adjusted gross margin (“AGM”) decreased to 41.2% in the third quarter of 2025 compared to "
                     "43.0% in the third quarter of 2024, primarily due to higher freight costs.", 3),
              _quote("AGM decreased to 41.8% in the first nine months of 2025 compared to 42.5% in the first nine "
                     "months of 2024, primarily due to higher freight costs and unfavorable channel mix.", 4)]
    faithful = ("Globex's adjusted gross margin fell in the third quarter and in the first nine months of 2025. The "
                "decrease in Q3 was due to higher freight costs, while the decrease in the first nine months was due "
                "to higher freight costs and unfavorable channel mix.")
    assert unsupported(faithful, quotes, q, ["Globex"]) == []
    swapped = "The decrease in Q3 was due to higher freight costs and unfavorable channel mix."
    assert "[4] is about the nine months" in unsupported(swapped, quotes, q, ["Globex"])


def test_a_short_form_of_the_asked_name_names_it() -> None:
    """"LatAm" is "Latin America": a quote naming the asked region by a word run together from its words' first
    letters names it; a run-together word of another name does not."""
    q = parse("What drove the change in Acme's Latin America net revenue in 2022?")
    quotes = [Quote("LatAm Net revenue increased 21%, primarily reflecting effective net pricing and organic volume "
                    "growth.", "ACME_2022_10K", "acme", 44, 7, 7)]
    summary = "Latin America net revenue increased 21% due to effective net pricing and organic volume growth."
    assert unsupported(summary, quotes, q, ["Acme"], passages=[""]) == []
    other = [Quote("LatEur Net revenue increased 21%, primarily reflecting effective net pricing and organic volume "
                   "growth.", "ACME_2022_10K", "acme", 44, 7, 7)]
    assert "no quote names “Latin America”" in unsupported(summary, other, q, ["Acme"], passages=[""])

def test_one_of_several_parts_changes_told_without_whose_is_flagged() -> None:
    """Segments' sections repeat the firm's words: quotes giving one item's change as different percentages are
    different parts'; a sentence told from one of them must say whose. One quote's two changes are its periods'."""
    q = parse("What drove the change in Acme's net interest income in 2022?")
    quotes = [Quote("Net interest income increased 26 percent, primarily driven by higher average loan balances.",
                    "ACME_2022_10K", "acme", 54, 6, 6),
              Quote("Net interest income increased 31 percent, primarily driven by higher revolving loan balances.",
                    "ACME_2022_10K", "acme", 57, 9, 9)]
    assert ("[9] gives “Net interest income” increased 31 percent, [6] increased 26 percent: whose is not said"
            in unsupported("Net interest income increased 31 percent, primarily driven by higher revolving loan "
                           "balances.", quotes, q, ["Acme"]))
    # the summary names the part; or the two changes are one quote's (its two years)
    assert not any("whose" in f for f in unsupported(
        "Card Services net interest income increased 31 percent, driven by higher revolving loan balances.", quotes,
        q, ["Acme"]))
    one = [Quote("Net interest income increased 26 percent, primarily driven by higher average loan balances. Net "
                 "interest income increased 9 percent, primarily driven by lower funding costs.", "ACME_2022_10K",
                 "acme", 54, 6, 6)]
    assert not any("whose" in f for f in unsupported(
        "Net interest income increased 26 percent, primarily driven by higher average loan balances.", one, q,
        ["Acme"]))


def test_a_driver_told_as_an_offset_is_flagged() -> None:
    """What a quote gives as the cause, told as what offset it (and the other way), turns the change around."""
    q = parse("What drove the change in Acme's phone net sales in the third quarter of 2023?")
    quotes = [Quote("Phone net sales decreased during the third quarter of 2023 due primarily to lower net sales of "
                    "entry phone models, partially offset by higher net sales of Pro phone models.", "ACME_2023_10Q",
                    "acme", 19, 6, 6)]
    flags = unsupported("The change in phone net sales was driven by higher net sales of Pro phone models, partially "
                        "offset by lower net sales of entry phone models.", quotes, q, ["Acme"])
    assert "[6] gives “lower net sales” as a driver, not an offset" in flags
    assert not any("offset" in f for f in unsupported(
        "Phone net sales decreased due to lower net sales of entry phone models, partially offset by higher net sales "
        "of Pro phone models.", quotes, q, ["Acme"]))
    # an offset of one quote that another gives as a driver is no swap; a list's items stay with their lead-in
    both = [*quotes, Quote("Services net sales increased due to higher net sales of Pro phone models.",
                           "ACME_2023_10Q", "acme", 19, 7, 7)]
    assert not any("as an offset" in f for f in unsupported(
        "Services net sales increased due to higher net sales of Pro phone models.", both, q, ["Acme"]))
    listed = [Quote("Cost of sales increased driven by: • higher freight costs • commodity inflation partially offset "
                    "by • supply chain benefits in the Consumer segment.", "ACME_2023_10Q", "acme", 20, 8, 8)]
    assert not any("offset" in f for f in unsupported(
        "Cost of sales increased driven by higher freight costs and commodity inflation, partially offset by supply "
        "chain benefits in the Consumer segment.", listed, q, ["Acme"]))
    # an offset ends at a semicolon or the next bullet: the next item's cause is a driver
    items = [Quote("Operating profit increased on classified contracts due to lower unfavorable profit adjustments "
                   "that were partially offset by lower favorable profit adjustments; and about $100 million for the "
                   "jet program due to higher net favorable profit adjustments.", "ACME_2022_10K", "acme", 40, 4, 4)]
    told = ("Operating profit increased due to lower unfavorable profit adjustments and higher net favorable profit "
            "adjustments on the jet program.")
    assert not any("offset" in f for f in unsupported(told, items, q, ["Acme"]))
    assert "[4] gives “higher net favorable” as a driver, not an offset" in unsupported(
        "Operating profit increased due to lower unfavorable profit adjustments, partially offset by higher net "
        "favorable profit adjustments.", items, q, ["Acme"])
    bullets = [Quote("The addition consisted of: • $238 million in wholesale driven by loan growth, partially offset "
                     "by client-specific reductions, and • $184 million in consumer driven by loan growth in cards.",
                     "ACME_2022_10Q", "acme", 12, 3, 3)]
    assert not any("offset" in f for f in unsupported(
        "The addition consisted of $238 million in wholesale driven by loan growth, partially offset by "
        "client-specific reductions, and; $184 million in consumer driven by loan growth in cards.", bullets, q,
        ["Acme"]))
    # quotes that give no offset at all: an offset of the summary's is one of their drivers turned
    none = [Quote("Gross margin increased from a year ago, primarily reflecting growth in data center sales. The "
                  "year-on-year increase also reflects the impact on the year-ago gross margin from $1.34 billion in "
                  "inventory provisions and related charges.", "ACME_2023Q2_10Q", "acme", 27, 2, 2)]
    margin = parse("What drove the change in Acme's gross margin in the quarter ended July 30, 2023?")
    assert "[2] gives “inventory provisions and related” as a driver, not an offset" in unsupported(
        "The gross margin increased due to growth in data center sales, which was partially offset by inventory "
        "provisions and related charges.", none, margin, ["Acme"])


def test_a_restatement_with_its_years_moved_is_flagged() -> None:
    """A sentence that restates a quote sentence word for word but for its years ("increased in 2022 compared to
    2021" for the quote's "in 2021 compared to 2020") tells another year's discussion: '[5] is about 2021'. A
    sentence that names fewer of the quote's years, or the years of two quotes it joins, moves none; a date's year
    ("As of December 2022") is the quote's."""
    q = parse("What drove the change in Acme's total revenues net of interest expense in 2022?")
    quotes = [Quote("Total revenues net of interest expense increased in 2021 compared to 2020, primarily driven by "
                    "higher Discount revenue, reflecting higher billed business.", "ACME_2022_10K", "acme", 63, 5, 5),
              Quote("As of December 2022, our backlog decreased compared with the end of 2021, primarily due to "
                    "lower estimated net revenues from advisory transactions.", "ACME_2022_10K", "acme", 73, 7, 7)]
    moved = ("Total revenues net of interest expense increased in 2022 compared to 2021, primarily driven by higher "
             "Discount revenue, reflecting higher billed business.")
    assert "[5] is about 2021" in unsupported(moved, quotes, q, ["Acme"])
    fewer = ("Total revenues net of interest expense increased in 2021, primarily driven by higher Discount revenue, "
             "reflecting higher billed business.")
    assert not any("is about" in f for f in unsupported(fewer, quotes, q, ["Acme"]))
    dated = "In 2022 our backlog decreased, primarily due to lower estimated net revenues from advisory transactions."
    assert not any("is about 20" in f for f in unsupported(dated, quotes, q, ["Acme"]))


def test_a_driver_of_another_line_item_is_flagged() -> None:
    """A cost's drivers are no sales drivers: a driver the summary takes from a quote whose subject is another line
    item (a list's items read with their lead-in) is a relation no quote states; the asked ratio's own items count."""
    q = parse("What drove the change in Acme's Consumer sales in 2022?")
    quotes = [Quote("Consumer segment sales in 2022 were $15.0 billion, a decrease of 0.5% from 2021, which included "
                    "3.6% operational growth and a negative currency impact of 4.1%.", "ACME_2022_10K", "acme", 29, 3,
                    3),
              Quote("Cost of products sold increased as a percent to sales driven by: • One-time plant closure "
                    "related costs • Currency impacts in the Industrial segment", "ACME_2022_10K", "acme", 34, 7, 7)]
    assert "[7] gives “one-time plant closure” for “Cost of products sold”" in unsupported(
        "Consumer sales decreased by 0.5% in 2022, primarily due to one-time plant closure related costs.", quotes, q,
        ["Acme"])
    margin = parse("What drove the change in Acme's gross margin in 2022?")
    assert not any("for “Cost" in f for f in unsupported(
        "Gross margin decreased, primarily due to one-time plant closure related costs.", quotes, margin, ["Acme"]))


def test_a_rate_s_drivers_are_not_its_items() -> None:
    """"The increase in the effective income tax rate was primarily due to ..." is the rate's: told as the income
    tax provision's, it is another measure's, though the rate's name holds "income tax"."""
    q = parse("What drove the change in Acme's income tax provision in 2018?")
    quotes = [Quote("The increase in the effective income tax rate was primarily due to goodwill impairment charges, "
                    "the majority of which are not deductible for income tax purposes.", "ACME_2018_10K", "acme", 268,
                    6, 6)]
    assert "[6] is about “effective income tax rate”" in unsupported(
        "The increase in Acme's income tax provision in 2018 was primarily due to goodwill impairment charges, the "
        "majority of which are not deductible for income tax purposes.", quotes, q, ["Acme"])
    rate = parse("What drove the change in Acme's effective tax rate in 2018?")
    assert not any("is about" in f for f in unsupported(
        "The increase in the effective income tax rate was primarily due to goodwill impairment charges, the majority "
        "of which are not deductible for income tax purposes.", quotes, rate, ["Acme"]))
    # one ratio in two names ("effective tax rate", "effective income tax rate") is one subject
    income = parse("What drove the change in Acme's effective income tax rate in fiscal 2023?")
    short = [Quote("Our effective tax rate increased in fiscal 2023, primarily due to reduced tax benefits from the "
                   "resolution of tax matters.", "ACME_2023_10K", "acme", 28, 2, 2)]
    assert not any("is about" in f for f in unsupported(
        "The change in Acme's effective income tax rate in fiscal 2023 was driven by reduced tax benefits from the "
        "resolution of tax matters.", short, income, ["Acme"]))


def test_a_list_told_whole_in_one_sentence_is_its_lead_in_s() -> None:
    """A summary sentence telling a quote whole, its list's bullets as clauses ("Reported EBIT increased 1% due to
    higher revenues and the following: Gross margin expansion ... partially offset by higher product costs; Selling
    and administrative expense increased 7% ..."), tells its lead-in's item: no bullet's item is another subject."""
    q = parse("What drove the change in Acme's EBIT in fiscal 2023?")
    said = ("Reported EBIT increased 1% due to higher revenues and the following: • Gross margin expansion of "
            "approximately 50 basis points as higher full-price ASP and growth in licensee revenues were partially "
            "offset by higher product costs and lower margins in direct to consumer. • Selling and administrative "
            "expense increased 7% due to higher operating overhead and demand creation expense.")
    quotes = [Quote(said, "ACME_2023_10K", "acme", 45, 3, 3)]
    told = ("Reported EBIT increased 1% due to higher revenues and the following: Gross margin expansion of "
            "approximately 50 basis points as higher full-price ASP and growth in licensee revenues were partially "
            "offset by higher product costs and lower margins in direct to consumer; Selling and administrative "
            "expense increased 7% due to higher operating overhead and demand creation expense [3].")
    assert not any("Gross margin" in f for f in unsupported(told, quotes, q, ["Acme"]))


def test_each_bullet_that_says_what_moved_is_its_own_item() -> None:
    """"Key changes in expenses were: • Cost of revenue decreased ..., • Research and development expenses decreased
    ..., driven by ...": the second bullet's drivers are research and development's, not cost of revenue's."""
    q = parse("What drove the change in Acme's research and development expenses in fiscal 2016?")
    quotes = [Quote("Key changes in expenses were: • Cost of revenue decreased $258 million, mainly due to lower phone "
                    "sales. • Research and development expenses decreased $1.0 billion or 6%, driven by a reduction in "
                    "phone expenses and a favorable foreign currency impact.", "ACME_2016_10K", "acme", 32, 3, 3)]
    told = ("Research and development expenses decreased $1.0 billion or 6%, driven by a reduction in phone expenses "
            "and a favorable foreign currency impact.")
    assert not any("gives" in f for f in unsupported(told, quotes, q, ["Acme"]))
    flags = unsupported("Cost of revenue decreased, driven by a reduction in phone expenses and a favorable foreign "
                        "currency impact.", quotes, parse("What drove the change in Acme's cost of revenue in fiscal "
                                                          "2016?"), ["Acme"])
    assert any("Research and development" in f for f in flags)


def test_a_driver_of_a_measure_the_vocabulary_does_not_know_is_that_measure_s() -> None:
    """"The decrease in ROI was due to ... the dilution from the marketplace acquisition": a driver of a measure the
    filer names after its change is that measure's, even one the vocabulary does not know; told as operating
    income's, it is another item's. A measure the question names is no other item."""
    q = parse("What drove the change in Acme International's operating income in fiscal 2020?")
    quotes = [Quote("The decrease in ROI was due to the decrease in operating income primarily as a result of the "
                    "dilution from the marketplace acquisition.", "ACME_2020_10K", "acme", 33, 10, 10)]
    flags = unsupported("The increase in operating income was driven by the dilution from the marketplace "
                        "acquisition.", quotes, q, ["Acme"])
    assert any(f.startswith("[10] gives") and f.endswith("for “ROI”") for f in flags)
    roi = parse("What drove the change in Acme's ROI in fiscal 2020?")
    assert not any("for “ROI”" in f for f in unsupported(
        "The decrease in ROI was driven by the dilution from the marketplace acquisition.", quotes, roi, ["Acme"]))
    # a measure named with the question's part words ("our Digital Media ARR") is still another measure
    media = parse("What drove the change in Acme's Digital Media operating income in fiscal 2022?")
    arr = [Quote("The change in our Digital Media ARR was primarily due to new user adoption of our Creative Cloud "
                 "offerings.", "ACME_2022_10K", "acme", 40, 5, 5)]
    assert any(f.endswith("for “our Digital Media ARR”") for f in unsupported(
        "The change in Acme's Digital Media operating income in fiscal 2022 was primarily due to new user adoption "
        "of its Creative Cloud offerings.", arr, media, ["Acme"]))


def test_a_driver_of_a_known_item_told_for_one_the_vocabulary_does_not_know_is_flagged() -> None:
    """A summary sentence about an item the vocabulary does not know ("fulfillment expenses") that takes a driver
    only a quote of another, known item gives ("lower transportation rates", cost of sales' offset) tells that
    item's driver; a quote of its own item ("fulfillment costs") gives its own."""
    q = parse("Why did Acme's fulfillment expenses change in Q3 2023?")
    quotes = [Quote("The increase in fulfillment costs in Q3 2023 is primarily due to increased sales, partially "
                    "offset by fulfillment network efficiencies.", "ACME_2023Q3_10Q", "acme", 27, 4, 4),
              Quote("The increase in cost of sales in Q3 2023 is primarily due to increased shipping costs, partially "
                    "offset by lower transportation rates.", "ACME_2023Q3_10Q", "acme", 26, 5, 5)]
    flags = unsupported("Acme's fulfillment expenses increased in Q3 2023 due to increased sales, partially offset by "
                        "fulfillment network efficiencies and lower transportation rates.", quotes, q, ["Acme"])
    assert any(f.startswith("[5] gives") and f.endswith("for “cost of sales”") for f in flags)
    assert not any("gives" in f for f in unsupported(
        "Acme's fulfillment expenses increased in Q3 2023 due to increased sales, partially offset by fulfillment "
        "network efficiencies.", quotes, q, ["Acme"]))

def test_a_narrower_subject_s_drivers_told_of_the_wider_are_flagged() -> None:
    """Online revenue's drivers are not the segment's revenue's: a sentence restating a quote whose subject has a
    word the sentence drops (a channel, a basis) tells the wider subject's cause; where a filing reports the
    measure ("segment") narrows nothing."""
    q = parse("What drove the change in Acme's Retail segment revenue in fiscal 2017?")
    quotes = [Quote("Retail segment online revenue of $4.0 billion increased 13.5% primarily due to higher conversion "
                    "rates and increased traffic.", "ACME_2017_10K", "acme", 35, 6, 6)]
    assert "[6] is about “Retail segment online revenue” (online)" in unsupported(
        "The increase in Retail segment revenue in fiscal 2017 was due to higher conversion rates and increased "
        "traffic.", quotes, q, ["Acme"])
    assert not any("is about" in f for f in unsupported(
        "Retail segment online revenue increased 13.5% primarily due to higher conversion rates and increased "
        "traffic.", quotes, q, ["Acme"]))
    # a long name before the subject's own words is no longer subject ("Las Vegas Strip Resorts entertainment ...")
    resorts = [Quote("Acme Grand Lakeside Resorts entertainment, retail and other revenues increased 1% in 2018 due "
                     "primarily to an increase in parking fees.", "ACME_2018_10K", "acme", 37, 3, 3)]
    assert any("(entertainment)" in f for f in unsupported(
        "Acme Grand Lakeside Resorts rooms revenue increased 1% in 2018 due primarily to an increase in parking fees.",
        resorts, parse("What drove the change in Acme Grand Lakeside Resorts rooms revenue in 2018?"), ["Acme"]))
    # the narrowing word said only among the sentence's drivers does not say the subject; a sentence's capitalised
    # first word before a line item's name narrows it too ("Products gross margin percentage"), a heading's does not
    margin = parse("Why did Acme's gross margin percentage change in the third quarter of fiscal 2023?")
    products = [Quote("Products gross margin percentage increased during the third quarter of 2023 due primarily to "
                      "cost savings and a different Products mix.", "ACME_2023Q3_10Q", "acme", 20, 3, 3)]
    told = ("Acme's gross margin percentage increased in the third quarter of fiscal 2023 due to cost savings and a "
            "different Products mix.")
    assert "[3] is about “Products gross margin percentage” (Products)" in unsupported(told, products, margin, ["Acme"])
    headed = [Quote("Table of Contents Gross margin percentage increased during the third quarter of 2023 due "
                    "primarily to cost savings and a different Products mix.", "ACME_2023Q3_10Q", "acme", 20, 3, 3)]
    assert not any("(Table)" in f for f in unsupported(told, headed, margin, ["Acme"]))
    # an amount's unit words ("The 0.8 percentage point increase") narrow nothing
    said = ("certain nonrecurring discrete tax benefits in fiscal 2019, partially offset by the benefit from the "
            "reorganization of certain wholly-owned subsidiaries and favorable changes in earnings mix by jurisdiction "
            "in fiscal 2020.")
    rate = [Quote(f"The 0.8 percentage point increase was primarily due to {said}", "ACME_2020_10K", "acme", 21, 5, 5)]
    assert not any("is about" in f for f in unsupported(
        f"The change in Acme's effective tax rate in fiscal 2020 was driven by {said}", rate,
        parse("What drove the change in Acme's effective tax rate in fiscal 2020?"), ["Acme"]))


def test_a_part_named_with_an_abbreviation_is_asked_and_told_from_the_whole_is_flagged() -> None:
    """"Acme U.S." is a part (its "U.S." a name word): the company's net sales sentence, which names the part as one
    of its drivers, told as the part's own change is flagged; told as what it is, it is not."""
    q = parse("What drove the change in Acme U.S. net sales in fiscal 2020?")
    whole = Quote("For fiscal 2020, net sales were positively impacted by positive comparable sales for Acme U.S. and "
                  "Club segments, along with the addition of net sales from Beta, which we acquired in August 2018.",
                  "ACME_2020_10K", "acme", 36, 6, 6)
    assert "[6] gives “U.S.” as a driver, not as what changed" in unsupported(
        "The increase in Acme U.S. net sales in fiscal 2020 was driven by positive comparable sales for Acme U.S. and "
        "Club segments, along with the addition of net sales from Beta [6].", [whole], q, ["Acme"])
    assert not any("as a driver" in f for f in unsupported(
        "Net sales in fiscal 2020 were positively impacted by positive comparable sales for Acme U.S. and Club "
        "segments, along with the addition of net sales from Beta [6].", [whole], q, ["Acme"]))


def test_a_description_of_the_filer_is_embedded_as_the_filing_writes_itself() -> None:
    """A filing says "the Company" of itself; its full name stands in the sentences that say who owns it. "What does
    Acme Finance N.V. actually do?" is embedded as "What does the Company actually do?"; other kinds keep the name."""
    from engine.ask.narrative import _query
    from engine.types import Document

    docs = [Document(id="d1", sha256="", path="", name="acme-finance-2022", pages=10, status="ready",
                     company="Acme Finance N.V.")]
    q = parse("What does Acme Finance N.V. actually do within the Acme Group?", docs)
    assert q.narrative == "description"
    assert _query(q) == "What does the Company actually do within the Acme Group?"
    q = parse("What drove Acme Finance's gross profit growth in 2022?", docs)
    assert _query(q).startswith("What drove Acme Finance's gross profit growth")


def test_a_quarter_named_by_its_end_date_is_no_year_to_date() -> None:
    """"The quarter ended June 25, 2022" is three months: the first nine months' drivers told for it are flagged,
    the quarter's own are not."""
    q = parse("What drove the change in Acme's Devices gross margin percentage in the quarter ended June 25, 2022?")
    quotes = [Quote("Devices gross margin percentage decreased during the third quarter of 2022 due primarily to "
                    "weaker foreign currencies.", "ACME_2022_10Q", "acme", 20, 5, 5),
              Quote("Devices gross margin increased during the first nine months of 2022 due primarily to a "
                    "different Devices mix and higher Devices volume.", "ACME_2022_10Q", "acme", 20, 5, 5)]
    ytd = ("The change in Devices gross margin in the quarter ended June 25, 2022 was due to a different Devices mix "
           "and higher Devices volume.")
    assert "[5] is about the nine months" in unsupported(ytd, quotes, q, ["Acme"])
    own = ("The change in Acme's Devices gross margin percentage in the quarter ended June 25, 2022, was due to "
           "weaker foreign currencies.")
    assert not any("nine months" in f for f in unsupported(own, quotes, q, ["Acme"]))


def test_another_line_items_drivers_given_as_the_answer_are_flagged() -> None:
    """A quote about another line item given as the answer, even word for word, is flagged with that item: a
    vocabulary item ("loss before interest and taxes" for other expense) or a metric the vocabulary does not know
    ("cost-per-view" for cost-per-visit); the asked item's own sentence, a driver explained after it, and a part
    (a capitalised name) are not."""
    q = parse("What caused the change in Acme's other (income) expense, net in fiscal 2019?")
    corporate = [_quote("For fiscal 2019, Corporate's loss before interest and taxes increased $354 million primarily "
                        "due to higher wage-related costs.", 8)]
    assert "[8] is about “Corporate's loss before interest and taxes”" in unsupported(
        corporate[0].text, corporate, q, ["Acme"])
    own = [_quote("Other (income) expense, net changed by $120 million primarily due to hedge gains.", 8)]
    assert not any("is about" in f for f in unsupported(own[0].text, own, q, ["Acme"]))
    metric = parse("What drove the change in Acme's cost-per-visit in 2022?")
    views = [_quote("The increase in cost-per-view from 2021 to 2022 was driven by changes in device mix.", 3)]
    assert "[3] is about “cost-per-view”" in unsupported(views[0].text, views, metric, ["Acme"])
    visits = [_quote("The increase in cost-per-visit from 2021 to 2022 was driven by changes in device mix.", 3)]
    assert not any("is about" in f for f in unsupported(visits[0].text, visits, metric, ["Acme"]))
    ebit = parse("What drove the change in Acme's Sneakers EBIT in fiscal 2023?")
    listed = [_quote("Reported EBIT increased 1% due to higher revenues and the following: \u2022 Selling and "
                     "administrative expense increased 7% due to higher operating overhead.", 4)]
    told = ("Acme's Sneakers EBIT increased 1% due to higher revenues. Selling and administrative expense increased "
            "7% due to higher operating overhead.")
    assert not any("is about" in f for f in unsupported(told, listed, ebit, ["Acme"]))
    regions = [_quote("Revenue increased 8% due to growth in Western Europe. The increase in Western Europe was "
                      "driven by footwear.", 6)]
    assert not any("is about" in f for f in unsupported(
        "The increase in Western Europe was driven by footwear.", regions, parse(
            "What drove the change in Acme's revenue in 2022?"), ["Acme"]))


def test_two_items_a_quote_gives_together_are_not_cause_and_effect() -> None:
    """"The result was impacted by an interest margin of $26.8 million and a profit on financial transactions of
    $532.3 million" names two drivers of the result: told as "the interest margin drove the profit on financial
    transactions" it is flagged; the profit's own driver sentence is not."""
    q = parse("What drove the change in Acme Finance's profit on financial transactions in 2022?")
    quotes = [_quote("The positive result of the Company was mainly impacted by a positive interest margin of $26.8 "
                     "million and a profit on financial transactions of $532.3 million.", 2)]
    told = ("The positive interest margin of $26.8 million drove the change in Acme Finance's profit on financial "
            "transactions in 2022.")
    assert "[2] gives “profit on financial transactions” as a driver, not as what changed" in unsupported(
        told, quotes, q, ["Acme Finance"])
    own = [_quote("The profit on financial transactions increased mainly due to fair value changes of derivatives.", 2)]
    assert not any("as a driver" in f for f in unsupported(
        "The profit on financial transactions increased mainly due to fair value changes of derivatives.", own, q,
        ["Acme Finance"]))


def test_a_deal_every_quote_foretells_told_as_done_is_flagged() -> None:
    """"We expect to fund the acquisition of Roboto Corporation with cash on hand" is no acquisition done: told as
    "Acme completed the acquisition of Roboto Corporation" it is flagged; a deal a quote says was done is not."""
    q = parse("What acquisition did Acme complete in the first quarter of 2023?")
    quotes = [_quote("We funded the acquisition of Medica in 2023 with cash on hand.", 4),
              _quote("We expect to fund the acquisition of Roboto Corporation with cash on hand.", 4)]
    assert "stated as fact (the quote says “expect”)" in unsupported(
        "Acme completed the acquisition of Roboto Corporation in the first quarter of 2023.", quotes, q, ["Acme"])
    assert not any("stated as fact" in f for f in unsupported(
        "Acme completed the acquisition of Medica in 2023.", quotes, q, ["Acme"]))
    assert not any("stated as fact" in f for f in unsupported(
        "Acme has not completed the acquisition of Roboto Corporation.", quotes, q, ["Acme"]))


def test_hyphenated_metrics_are_compared_whole() -> None:
    """"Cost-per-visit" and "cost-per-view" share their first six letters but are two metrics: the drivers of one
    restated for the other are flagged."""
    q = parse("What factors explain the change in Acme's cost-per-view from 2021 to 2022?")
    quotes = [_quote("Cost-per-visit decreased from 2021 to 2022 driven by changes in device mix, geographic mix and "
                     "advertiser spending.", 5)]
    told = ("The change in Acme's cost-per-view from 2021 to 2022 was primarily driven by changes in device mix, "
            "geographic mix and advertiser spending.")
    assert "[5] is about “Cost-per-visit”" in unsupported(told, quotes, q, ["Acme"])


def test_what_a_quote_says_of_one_of_two_joined_things_is_not_said_of_both() -> None:
    """"The emerging businesses primarily consist of ..." told as "Polysil and Emerging Businesses primarily consist
    of ..." gives '[4] is about “emerging businesses” alone'; told of the emerging businesses it is not flagged."""
    q = parse("What does Acme's Polysil and Emerging Businesses group consist of?")
    quotes = [_quote("The emerging businesses primarily consist of Pharma Tech, Auto Glass and the Innovations Group.",
                     4)]
    told = "Polysil and Emerging Businesses primarily consist of Pharma Tech, Auto Glass and the Innovations Group."
    assert "[4] is about “emerging businesses” alone" in unsupported(told, quotes, q, ["Acme"])
    own = "The emerging businesses primarily consist of Pharma Tech, Auto Glass and the Innovations Group."
    assert not any("alone" in f for f in unsupported(own, quotes, q, ["Acme"]))


def test_a_figure_beside_a_prior_years_in_brackets_is_the_year_reported() -> None:
    """"A fee of $39 million (2021: $41 million)" gives 39 for the year reported: told for 2021 it is flagged;
    41 for 2021 and 39 for 2022 are not."""
    q = parse("What guarantee fee did Acme Finance pay to its parent in 2022?")
    quotes = [_quote("In addition, the parent was paid a guarantee fee of $39 million (2021: $41 million).", 4)]
    assert "$39 million for 2021" in unsupported("Acme Finance paid a guarantee fee of $39 million in 2021.", quotes,
                                                 q, ["Acme Finance"])
    for told in ("Acme Finance paid a guarantee fee of $41 million in 2021.",
                 "Acme Finance paid a guarantee fee of $39 million in 2022.",
                 "Acme Finance paid a guarantee fee of $39 million (2021: $41 million)."):
        assert not any(" for 20" in f for f in unsupported(told, quotes, q, ["Acme Finance"]))


def test_a_figure_told_flat_turned_into_a_rise_is_flagged() -> None:
    """"Segment operating income was flat during the first nine months ..." told as "increased during the first nine
    months ..." turns it; told as flat it is not flagged."""
    q = parse("What explains Acme's Devices segment operating income in the first nine months of 2024 compared with "
              "the first nine months of 2023?")
    assert q.narrative == "drivers"
    quotes = [_quote("Segment operating income was flat during the first nine months of 2024 compared to the first "
                     "nine months of 2023 due to a decline in revenue, offset by lower inventory provisions.", 5)]
    turned = ("The Devices segment operating income increased during the first nine months of 2024 compared to the "
              "first nine months of 2023 primarily due to a decline in revenue, offset by lower inventory provisions.")
    assert "[5] says “was flat during the first nine months of”" in unsupported(turned, quotes, q, ["Acme"])
    kept = turned.replace("increased", "was flat").replace("primarily due", "due")
    assert not any("was flat" in f for f in unsupported(kept, quotes, q, ["Acme"]))


def test_another_cash_flow_or_another_owner_told_as_the_answer_is_flagged() -> None:
    """Financing cash flows' drivers given for operating cash flows ("cash flows provided by ... activities", the
    filer's label), and Corporate's loss given for a brand's EBIT, are each flagged with what they are about."""
    q = parse("What factors contributed to the change in Acme's cash flows provided by operating activities in "
              "2022?")
    financing = [_quote("In 2022, cash flows provided by financing activities increased $1,345 million, primarily due "
                        "to an increase in commercial paper borrowings.", 5)]
    told = ("The cash flows provided by financing activities increased $1,345 million due to commercial paper "
            "borrowings.")
    assert "[5] is about “cash flows provided by financing activities”" in unsupported(told, financing, q, ["Acme"])
    brand = parse("What factors explain the change in Sneaker's earnings before interest and taxes for fiscal 2018?")
    corporate = [_quote("For fiscal 2018, Corporate's loss before interest and taxes increased $732 million "
                        "primarily due to foreign currency losses.", 7)]
    assert "[7] is about “Corporate's loss before interest and taxes”" in unsupported(
        corporate[0].text, corporate, brand, ["Acme"])
    own = [_quote("For fiscal 2018, Sneaker's earnings before interest and taxes declined 35% primarily due to lower "
                  "revenues.", 7)]
    assert not any("is about" in f for f in unsupported(own[0].text, own, brand, ["Acme"]))


def test_a_deal_told_as_agreed_states_no_closing() -> None:
    """"Acme agreed to sell its stake" where the quote says "the Company will sell" states no sale done."""
    q = parse("What transaction did Acme agree to with Nantong Widgets in October 2015?")
    quotes = [_quote("On October 15, 2015, the Company entered into an agreement with Nantong Widgets under which the "
                     "Company will sell to Nantong Widgets a majority of the equity interests in Acme Technologies.",
                     3)]
    told = "Acme agreed to sell a majority of the equity interests in Acme Technologies to Nantong Widgets."
    assert not any("stated as fact" in f for f in unsupported(told, quotes, q, ["Acme"]))
    done = "Acme sold a majority of the equity interests in Acme Technologies to Nantong Widgets."
    assert any("stated as fact" in f for f in unsupported(done, quotes, q, ["Acme"]))


def test_a_sentence_of_an_earlier_years_paragraph_told_for_the_year_asked_is_flagged() -> None:
    """A passage going through the years one paragraph each ("For fiscal 2015, net cash provided ... For fiscal 2014,
    ..."): a sentence of the fiscal 2014 paragraph told for fiscal 2016 gives '[4] is about fiscal 2014', even where
    the summary names 2016; one of the fiscal 2016 paragraph does not."""
    q = parse("What explains the increase in Acme's total deferred revenue as of the end of fiscal 2016?")
    own = "The increase in deferred revenue was primarily due to increased subscriptions for our cloud offerings."
    old = ("The increase in deferred revenue was primarily due to increased license activity for our desktop "
           "offerings, offset in part by plans we discontinued in January 2013.")
    passage = (f"For fiscal 2016, net cash provided by operating activities was primarily comprised of net income. "
               f"{own} For fiscal 2014, net cash provided by operating activities was primarily comprised of net "
               f"income. {old}")
    quotes = [_quote(own, 4), _quote(old, 4)]
    told = ("The increase in Acme's total deferred revenue as of the end of fiscal 2016 was primarily due to "
            "increased license activity for our desktop offerings, offset in part by plans we discontinued in January "
            "2013.")
    assert "[4] is about fiscal 2014" in unsupported(told, quotes, q, ["Acme"], passages=[passage, passage])
    right = ("The increase in Acme's total deferred revenue as of the end of fiscal 2016 was primarily due to "
             "increased subscriptions for our cloud offerings.")
    assert not any("is about fiscal" in f for f in unsupported(right, quotes, q, ["Acme"], passages=[passage, passage]))


def test_a_summary_denying_what_a_quote_says_is_flagged() -> None:
    """"X was not related to it" where the quote says, with no denial, that it was related to X: the denied words
    are the quote's. A quote that denies too, a sentence saying what the quotes lack, and "not only" deny nothing
    of the quote's."""
    q = parse("What were Acme's restructuring charges in 2023 primarily related to?")
    quotes = [Quote("Restructuring charges were $75 million in 2023 and were primarily related to severance for the "
                    "closure of two plants and the write-down of tooling equipment.", "ACME_2023_10K", "acme", 51, 3,
                    3)]
    flags = unsupported("The charges were primarily related to severance for the closure of two plants [3]. The "
                        "write-down of tooling equipment was not part of them.", quotes, q)
    assert "[3] says it without “not”: “write-down of tooling equipment”" in flags
    for fine in ("The charges were related to severance for the closure of two plants and the write-down of tooling "
                 "equipment [3].",
                 "The quotes do not say which plants closed.",
                 "The closure of two plants led to the charges [3], which is not stated for the write-down [3].",
                 "They related not only to severance for the closure of two plants but also to the write-down of "
                 "tooling equipment [3]."):
        assert not any("without" in f for f in unsupported(fine, quotes, q)), fine
    denying = [Quote("The write-down of tooling equipment was not included in restructuring charges.",
                     "ACME_2023_10K", "acme", 52, 4, 4)]
    assert not any("without" in f for f in unsupported(
        "The write-down of tooling equipment was not part of the charges [4].", denying, q))


FIRST_QUOTED = [
    # "What is the Harbor Lease Transaction ...?": the sentence that defines the term, (the “Harbor Lease
    # Transaction”), says what it is; one that names the lease after it, among other things, does not
    ("What is the Harbor Lease Transaction that Acme agreed with its landlord in 2021?",
     ["In addition, pursuant to the lease amendment, we agreed to provide the landlord a right of first offer with "
      "respect to certain land adjacent to the harbor property if we choose to sell it. The Harbor property lease "
      "runs to 2040.",
      "In December 2021, we entered into an agreement with the landlord whereby the landlord will pay us $120 million "
      "for renovations undertaken by us at the harbor property (the “Harbor Lease Transaction”)."],
     "In December 2021, we entered into an agreement"),
    # the sentence that first names a party and defines its short name, Voltra Motors, Inc. (“Voltra”), tells nothing
    # else of it: the one saying why Acme has influence over it is first
    ("On what basis does Acme say it has significant influence over Voltra?",
     ["Included in other income (expense), net is a valuation gain of $1.1 billion in Q3 2022 from our equity "
      "investment in Voltra Motors, Inc. (“Voltra”).",
      "We determined that we have the ability to exercise significant influence over Voltra through our equity "
      "investment, our commercial arrangement for the purchase of vans, and one of our employees serving on its "
      "board."],
     "We determined"),
    # a question dated to a month: the court's September ruling before the October transfer and a March ruling in
    # another case, which a legal note tells beside it
    ("In Streamco's patent suit against Acme, what did the court rule in September 2022?",
     ["In October 2022, the court transferred the case to the United States District Court for Delaware. In March "
      "2022, the court in the Ridley case granted Acme's motion to dismiss the pricing claims. In September 2022, the "
      "court granted summary judgment, holding that the patents are invalid."],
     "In September 2022"),
    # a yes/no asking what the company expects (``Question.asks_belief``): "we expect to recoup taxes paid" before
    # the decision the payments follow from
    ("Does Acme expect to recover those payments?",
     ["In February 2024, we received a decision by the tax authority that tax applies to service fees paid to Acme, "
      "and we will need to remit those payments until this matter is resolved. We believe the decision is without "
      "merit, we are defending our position in the courts, and we expect to recoup taxes paid."],
     "We believe the decision is without merit"),
    # the party the question names, by the short name its filing defines ("the Ruritania tax authority (“RTA”)"),
    # before another authority's matter told in the same words ("we expect to recoup taxes paid"), also in a later
    # part that points back at it
    ("What did the Ruritania tax authority decide in 2023, and does Acme expect to get those taxes back?",
     ["In June 2023, the Ruritania tax authority (“RTA”) denied the tax basis of certain patents that we moved to "
      "the U.S. When we are assessed by the RTA, we will need to remit taxes.",
      "The Freedonia tax authority (“FTA”) has asserted that tax applies to service fees paid to Acme. We believe the "
      "FTA’s position is without merit, and we expect to recoup taxes paid.",
      "We believe the RTA’s position is without merit, we intend to defend ourselves in this matter, and we expect "
      "to recoup taxes paid."],
     "In June 2023, the Ruritania"),
]


def test_an_agreement_named_by_its_defined_short_name_is_quoted_before_another_of_its_kind() -> None:
    """The question names the “Loan Agreement” its filing defines; the “Loan Facility” is another agreement of its
    kind, told in more of the question's words: the asked agreement's sentence is quoted first, the other's not."""
    q = parse("What interest rate applies to outstanding balances under Acme's Loan Agreement?")
    used = _evidence(["We have a $2.0 billion secured loan facility (the “Loan Facility”) with two banks.",
                      "We also have a $5.0 billion unsecured revolving credit facility (the “Loan Agreement”).",
                      "The interest rate applicable to outstanding balances under the Loan Facility is the benchmark "
                      "rate plus 0.50%. Borrowings under the Loan Agreement bear interest at the benchmark rate plus "
                      "0.45%."])
    quotes = find_quotes(q, used, {}, FakeEmbedder())
    assert quotes and "Loan Agreement" in quotes[0].text, [x.text for x in quotes]
    assert not any(x.text.startswith("The interest rate applicable") for x in quotes), [x.text for x in quotes]


@pytest.mark.parametrize(("question", "passages", "opening"), FIRST_QUOTED,
                         ids=["term", "party", "month", "belief", "defined party"])
def test_the_sentence_that_answers_is_quoted_first(question: str, passages: list[str], opening: str) -> None:
    quotes = find_quotes(parse(question), _evidence(passages), {}, FakeEmbedder())
    assert quotes and quotes[0].text.startswith(opening), [x.text for x in quotes]
    if "Ruritania" in question:  # no quote of the other authority's matter
        assert not any("FTA" in x.text for x in quotes), [x.text for x in quotes]


def test_a_rate_moves_apart_from_its_amount() -> None:
    """"Services gross margin increased" does not dispute "Services gross margin percentage decreased": one is the
    amount, the other its rate."""
    q = parse("What explains the moves in Acme's Services gross margin and its percentage in the first quarter?")
    quotes = [Quote("Services gross margin increased during the first quarter of 2023 due primarily to higher Services "
                    "net sales.", "ACME_2023_10Q", "acme", 21, 3, 3),
              Quote("Services gross margin percentage decreased during the first quarter of 2023 due primarily to "
                    "higher Services costs.", "ACME_2023_10Q", "acme", 21, 4, 4)]
    assert not any("says “" in f for f in unsupported(
        "Services gross margin increased due to higher Services net sales [3].", quotes, q, ["Acme"]))
    assert "[4] says “Services gross margin percentage decreased”" in unsupported(
        "Services gross margin percentage increased due to higher Services costs [4].", quotes, q, ["Acme"])


def test_the_quote_restated_is_the_one_with_the_sentences_figures() -> None:
    """Two sentences alike but for their figures and period: the summary restating the quarter's ($702 million) is
    not told from the nine months' ($2.01 billion)."""
    q = parse("What did Acme's $702 million inventory provision in the third quarter of fiscal 2023 consist of?")
    quotes = [Quote("The $2.01 billion inventory provision in the first nine months of fiscal year 2023 consists of "
                    "approximately $942 million for inventory on hand and approximately $1.07 billion for inventory "
                    "purchase obligations in excess of our current demand projections.", "ACME_2023_10Q", "acme", 31,
                    3, 3),
              Quote("The $702 million inventory provision consists of approximately $354 million for inventory on hand "
                    "and approximately $348 million for inventory purchase obligations in excess of our current demand "
                    "projections.", "ACME_2023_10Q", "acme", 31, 4, 4)]
    flags = unsupported("The $702 million inventory provision in the third quarter of fiscal 2023 consisted of "
                        "approximately $354 million for inventory on hand and approximately $348 million for inventory "
                        "purchase obligations in excess of our current demand projections.", quotes, q, ["Acme"])
    assert not any("nine months" in f for f in flags), flags


def test_two_figures_before_two_periods_are_each_its_periods() -> None:
    """"$15.0 billion and $11.3 billion during Q3 2022 and Q3 2023": the first figure is the first period's; told for
    the second, it is flagged with the period the summary gives it."""
    q = parse("How much did Acme spend on capital expenditures in Q3 2023?")
    quotes = [Quote("Cash capital expenditures were $15.0 billion and $11.3 billion during Q3 2022 and Q3 2023, and "
                    "$42.9 billion and $34.8 billion for the nine months ended September 30, 2022 and 2023, which "
                    "primarily reflect investments in technology infrastructure.", "ACME_2023_10Q", "acme", 22, 3, 3)]
    assert "$15.0 billion for Q3 2023" in unsupported(
        "Acme's cash capital expenditures were $15.0 billion in Q3 2023 [3].", quotes, q, ["Acme"])
    assert not any(" for " in f for f in unsupported(
        "Acme's cash capital expenditures were $11.3 billion in Q3 2023 and $34.8 billion for the nine months ended "
        "September 30, 2023 [3].", quotes, q, ["Acme"]))
    # two years before the figures and "respectively" after them pair them in the same order
    hedges = [Quote("The gross notional value of these yen hedges at December 31, 2023 and 2022, was $4.1 billion and "
                    "$7.9 billion, respectively.", "ACME_2023_10K", "acme", 44, 2, 2)]
    yen = parse("How large was the gross notional value of Acme's yen hedges at the end of 2023?")
    assert "$7.9 billion for 2023" in unsupported("At the end of 2023 the gross notional value of the yen hedges was "
                                                  "$7.9 billion [2].", hedges, yen, ["Acme"])
    assert not any(" for " in f for f in unsupported(
        "At the end of 2023 the gross notional value of the yen hedges was $4.1 billion [2].", hedges, yen, ["Acme"]))
    # fiscal years on one side, a date on the other: the filer's fiscal 2024 quarter may end in October 2023
    fiscal = [Quote("During the third quarter of fiscal years 2024 and 2023, we recorded an expense of approximately "
                    "$470 million and $350 million, respectively, in cost of revenue.", "ACME_2024Q3_10Q", "acme", 17,
                    6, 6)]
    q3 = parse("What did Acme record in cost of revenue for the quarter ended October 29, 2023?")
    assert not any(f.endswith("for October 29, 2023") for f in unsupported(
        "For the quarter ended October 29, 2023, Acme recorded about $470 million in cost of revenue [6].", fiscal, q3,
        ["Acme"]))


def test_a_summary_saying_what_a_quote_denies_is_flagged() -> None:
    """"The investigation is focused on the Company" beside "... the investigation is not focused on the Company":
    the summary drops the quote's "not". Saying it with the "not" is faithful."""
    q = parse("What is the state attorney's investigation of Acme's subsidiary focused on?")
    quotes = [Quote("The Company has been fully cooperating with the investigation and continues to believe that the "
                    "investigation is not focused on the Company.", "ACME_2022_10K", "acme", 48, 1, 1)]
    assert "[1] says “not focused on the Company”" in unsupported(
        "The investigation is focused on the Company [1].", quotes, q, ["Acme"])
    assert not any("says “not" in f for f in unsupported(
        "The Company believes the investigation is not focused on the Company [1].", quotes, q, ["Acme"]))


def test_an_act_given_to_another_party_is_flagged() -> None:
    """Who did what: a summary giving an act to a party the quotes do not give it to is flagged, naming whom the
    quote gives it to; told of the right party (or of the filer the quote calls "we") it is not."""
    q = parse("Which patent suits over Acme's imaging products does the annual report describe, and who filed them?")
    quotes = [Quote("In addition, Zenith Optics Ltd. and two other competitors have filed patent infringement suits "
                    "about our imaging sensors and our lens coatings.", "ACME_2022_10K", "acme", 19, 2, 2)]
    assert any("“filed” to “Zenith Optics Ltd." in f and "not “Acme”" in f for f in unsupported(
        "Acme filed patent infringement suits about its imaging sensors and lens coatings [2].", quotes, q, ["Acme"]))
    assert not any("“filed”" in f for f in unsupported(
        "Zenith Optics Ltd. and two other competitors filed patent infringement suits about Acme's imaging sensors "
        "and lens coatings [2].", quotes, q, ["Acme"]))
    ours = [Quote("In 2022 we filed patent infringement suits against Zenith Optics Ltd. over its lens coatings.",
                  "ACME_2022_10K", "acme", 19, 2, 2)]
    assert not any("“filed”" in f for f in unsupported(
        "Acme filed patent infringement suits against Zenith Optics Ltd. over its lens coatings [2].", ours, q,
        ["Acme"]))


def test_a_figure_coordinated_after_another_is_of_the_part_named_after_it() -> None:
    """"15% growth in net sales in Marine Systems of $600 million and 30% growth in Rail and Mobility Solutions of
    $400 million": the 30% is Rail and Mobility Solutions' (the names before the $600 million are that figure's,
    and "and" inside a name in capitals does not end it). Told of Rail and Mobility Solutions, the 30% is not
    flagged; told of Marine Systems, it is."""
    q = parse("What drove net sales growth of Foo Corp's Rail and Mobility Solutions in 2023, and how large was it?")
    quotes = [Quote("This is driven by 15% growth in segment net sales in Marine Systems of $600 million and 30% "
                    "growth in Rail and Mobility Solutions of $400 million, which offset a $200 million decrease in "
                    "Displays.",
                    "FOO_2023_10K", "foo", 24, 8, 8)]
    assert unsupported("Rail and Mobility Solutions net sales grew 30%, or $400 million, in 2023 [8].", quotes, q,
                       ["Foo Corp"]) == []
    assert any("Marine Systems" in f for f in unsupported("Marine Systems net sales grew 30% in 2023 [8].", quotes, q,
                                                          ["Foo Corp"]))


def test_a_quote_restated_with_another_figure_in_its_place_is_flagged() -> None:
    """"Acme had a $8.0 billion secured revolving credit facility with a lender ..." restating "We have a $2.5
    billion secured revolving credit facility with a lender ..." (the question's $8.0 billion facility told as the
    one quoted) is flagged with the quote's figure; restated with its own figure, it is not."""
    q = parse("Besides its $8.0 billion Loan Agreement, Acme had a second $8.0 billion facility at March 31, 2024. "
              "What are that facility's terms?")
    quotes = [Quote("We have an $8.0 billion unsecured revolving credit facility with a syndicate of lenders (the "
                    "“Loan Agreement”), with a term that extends to March 2027.", "ACME_2024Q1_10Q", "acme", 16, 3, 3),
              Quote("We have a $2.5 billion secured revolving credit facility with a lender that is secured by certain "
                    "receivables (the “Loan Facility”).", "ACME_2024Q1_10Q", "acme", 15, 6, 6)]
    told = ("Acme had a {} secured revolving credit facility with a lender that is secured by certain receivables "
            "(the “Loan Facility”) [6].")
    assert "$8.0 billion: [6] says “$2.5 billion”" in unsupported(told.format("$8.0 billion"), quotes, q, ["Acme"])
    assert not any("says “$" in f for f in unsupported(told.format("$2.5 billion"), quotes, q, ["Acme"]))


def test_a_driver_of_another_item_told_for_a_one_word_item_asked_is_flagged() -> None:
    """"Why did headcount rise?": a summary giving operating expenses' driver ("higher compensation and benefits
    expenses", in a quote whose figure has a decimal point) as headcount's is flagged; headcount's own driver is
    not."""
    q = parse("How many people did Foo Corp employ at the end of 2023, and why did headcount rise during 2023?")
    quotes = [Quote("Operating expenses were $4.25 billion for 2023, 12% higher than 2022, primarily reflecting "
                    "significantly higher compensation and benefits expenses.", "FOO_2023_10K", "foo", 70, 6, 6),
              Quote("As of December 2023, headcount increased 8% compared with December 2022, reflecting investments "
                    "in new business initiatives.", "FOO_2023_10K", "foo", 68, 2, 2)]
    flags = unsupported("Headcount rose during 2023 due to higher compensation and benefits expenses.", quotes, q,
                        ["Foo Corp"])
    assert any(f.startswith("[6] gives “") and f.endswith("for “Operating expenses”") for f in flags), flags
    assert not any("gives “" in f for f in unsupported(
        "Headcount rose 8% during 2023 due to investments in new business initiatives [2].", quotes, q, ["Foo Corp"]))


def test_a_quote_of_what_another_program_points_back_at_told_of_the_one_asked_is_flagged() -> None:
    """"Net proceeds from this program are used for general corporate purposes" is the commercial paper program's
    (its passage names it just before): told, without "this program", right after the green bonds asked, it is
    flagged; after the commercial paper program, it is not."""
    q = parse("How much did Foo Corp raise in green bonds, and what are the net proceeds used for?")
    bonds = "In 2022, we issued $2.0 billion of green bonds, the largest issuance in our history."
    paper = ("Financing We have a short-term debt financing program of up to $6.0 billion through the issuance of "
             "commercial paper. Net proceeds from this program are used for general corporate purposes.")
    quotes = [Quote(bonds, "FOO_2022_10K", "foo", 9, 1, 1),
              Quote("Net proceeds from this program are used for general corporate purposes.", "FOO_2022_10K", "foo",
                    41, 4, 4)]
    told = ("Foo Corp raised $2.0 billion in green bonds [1]. The net proceeds were used for general corporate "
            "purposes [4].")
    flags = unsupported(told, quotes, q, ["Foo Corp"], passages=[bonds, paper])
    assert any(f.startswith("[4] goes on from “") for f in flags), flags
    fine = ("Foo Corp has a $6.0 billion commercial paper financing program. The net proceeds were used for general "
            "corporate purposes [4].")
    assert not any("goes on from" in f for f in unsupported(fine, quotes, q, ["Foo Corp"], passages=[bonds, paper]))


def test_a_present_tense_act_given_to_another_party_is_flagged() -> None:
    """"are secured by Helios Holding GmbH" gives the act to Helios: a summary telling it in the present tense of
    other names ("Fitch and DBRS ratings secure the notes") is flagged; told of Helios it is not, nor is a noun spelt
    as the verb ("the security of the notes")."""
    q = parse("Which ratings does Acme Funding B.V. cite, and what secures its notes?")
    quotes = [Quote("The notes of the Company are secured by Helios Holding GmbH.", "ACME_FUNDING_2022", "acme", 4, 2,
                    2),
              Quote("The Company holds long-term ratings of AA- from Fitch and AA (low) from DBRS.",
                    "ACME_FUNDING_2022", "acme", 4, 3, 3)]
    assert any("“secured” to “Helios Holding GmbH”" in f for f in unsupported(
        "Fitch AA- and DBRS AA long-term ratings secure the Company's notes [2][3].", quotes, q, ["Acme"]))
    for told in ("Helios Holding GmbH secures the Company's notes [2], rated AA- by Fitch and AA (low) by DBRS [3].",
                 "The notes are secured by Helios Holding GmbH [2]; the security of the notes is rated AA- by Fitch "
                 "and AA (low) by DBRS [3]."):
        assert not any("“secured”" in f for f in unsupported(told, quotes, q, ["Acme"])), told


def test_a_name_from_another_matters_quote_made_the_doer_asked_is_flagged() -> None:
    """Who will rule on the damages, asked of one suit: a summary giving the ruling to a tribunal its quote names
    for another matter (its sentence names nothing else the summary's clause says) is flagged; a name its quote
    gives beside the summary's other words, in other verbs ("authorized" for "approved"), is not."""
    q = parse("What did the jury find in Orion v. Acme, who will decide damages and when, and will Acme appeal?")
    quotes = [Quote("In March 2024, a jury in Orion v. Acme found that Acme infringed two of Orion's patents.",
                    "ACME_2024_10K", "acme", 21, 1, 1),
              Quote("In 2019, the Federal Tribunal rejected our appeal of the licensing fine, and we appealed again.",
                    "ACME_2024_10K", "acme", 80, 6, 6)]
    told = ("A jury found in March 2024 that Acme infringed two of Orion's patents [1]. Damages will be decided by "
            "the Federal Tribunal, and Acme plans to appeal.")
    assert "[6] does not say “Federal Tribunal” decided" in unsupported(told, quotes, q, ["Acme"])
    q2 = parse("What buyback did Acme's Board approve in May 2024?")
    board = [Quote("In May 2024, the Board of Directors of Acme authorized a buyback of up to $5.0 billion of its "
                   "common stock.", "ACME_2024_10K", "acme", 40, 2, 2)]
    assert not any("Board”" in f for f in unsupported(
        "In May 2024, the Acme Board approved a buyback of up to $5.0 billion of common stock [2].", board, q2,
        ["Acme"]))


def test_a_quote_pointing_back_says_what_its_passage_named_before_it() -> None:
    """"the effect of this change in estimate" is the change its passage named just before ("the estimated useful
    lives of our equipment"): a summary naming it so puts no word in the quote's mouth, where a quote that does not
    point back ("the change in estimate") does not say it; a sentence saying what the quotes lack ("not stated in
    the given information") claims nothing."""
    q = parse("How did the change Foo Corp made in January 2024 to the estimated useful lives of its equipment affect "
              "its operating income for the quarter ended March 31, 2024, and what were the new useful lives?")
    said = ("Based on the carrying amounts of most of our server and network equipment in use as of the end of fiscal "
            "year 2024, the effect of this change in estimate for the three months ended March 31, 2024, was a "
            "benefit of $5 million and $20 million for cost of revenue and operating expenses, respectively.")
    passage = ("In January 2024, we increased the estimated useful lives of most of our server and network equipment "
               f"from three to five years. {said}")
    told = ("The change in estimated useful lives of equipment in January 2024 resulted in a benefit of $5 million and "
            "$20 million for cost of revenue and operating expenses, respectively [3]. The new useful lives are not "
            "stated in the given information.")
    quotes = [Quote(said, "FOO_2024Q1_10Q", "foo", 8, 3, 3)]
    assert unsupported(told, quotes, q, ["Foo Corp"], passages=[passage]) == []
    plain = [Quote(said.replace("this change", "the change"), "FOO_2024Q1_10Q", "foo", 8, 3, 3)]
    flags = unsupported(told, plain, q, ["Foo Corp"], passages=[passage.replace("this change", "the change")])
    assert "[3] does not say “useful”" in flags and "given" not in flags


def test_a_quote_pointing_back_at_another_parts_change_restated_is_flagged_under_any_question() -> None:
    """"The sequential increase was primarily due to ..." is about what its passage stated before it, past another
    sentence pointing back ("Industrial Systems revenue was up 50% ... The year-on-year increase reflects ...");
    pasted after the remaining performance obligations asked, it is flagged with that part's name."""
    q = parse("How much revenue was allocated to Foo Corp's remaining performance obligations as of June 30, 2024, and "
              "over what period does Foo Corp expect to recognize it?")
    obligations = ("Revenue allocated to remaining performance obligations was $500 million as of June 30, 2024. We "
                   "expect to recognize approximately 40% of this revenue over the next twelve months and the "
                   "remainder thereafter.")
    segment = ("Industrial Systems revenue was up 50% from a year ago and up 20% sequentially. The year-on-year "
               "increase reflects higher sell-in to dealers. The sequential increase was primarily due to stronger "
               "factory demand and the ramp of new robot lines.")
    quotes = [Quote("We expect to recognize approximately 40% of this revenue over the next twelve months and the "
                    "remainder thereafter.", "FOO_2024Q2_10Q", "foo", 17, 6, 6),
              Quote("The sequential increase was primarily due to stronger factory demand and the ramp of new robot "
                    "lines.", "FOO_2024Q2_10Q", "foo", 28, 9, 9)]
    told = ("Foo Corp expects to recognize approximately 40% of this revenue over the next twelve months and the "
            "remainder thereafter [6]. The sequential increase was primarily due to stronger factory demand and the "
            "ramp of new robot lines [9].")
    assert "[9] is about “Industrial Systems revenue”" in unsupported(told, quotes, q, ["Foo Corp"],
                                                                      passages=[obligations, segment])
    assert not any("is about" in f for f in unsupported(told.split(" [6]. ")[0] + " [6].", quotes, q, ["Foo Corp"],
                                                        passages=[obligations, segment]))
    # a passage cut right before it shows nothing it points at: nowhere to check what increased
    cut = segment[segment.index("The sequential"):]
    assert "[9] does not say what “The sequential increase” is of" in unsupported(told, quotes, q, ["Foo Corp"],
                                                                                passages=[obligations, cut])
    # a summary that told a change before it points back at that change
    moved = told.replace("Foo Corp expects", "Industrial Systems revenue rose 20% sequentially. Foo Corp expects")
    assert not any("is of" in f for f in unsupported(moved, quotes, q, ["Foo Corp"], passages=[obligations, cut]))


def test_suing_and_filing_a_complaint_against_are_one_act() -> None:
    """"X sued Y" tells the act "X filed a complaint against Y" tells: given to Y, it is flagged; to X, it is not."""
    q = parse("Who brought the patent case over Acme's imaging sensors, and where?")
    quotes = [Quote("In June 2021, Zenith Optics Ltd. filed a patent infringement complaint against Acme in the "
                    "Eastern District of Texas.", "ACME_2022_10K", "acme", 19, 2, 2)]
    assert any("to “Zenith Optics Ltd.”" in f and "not “Acme”" in f for f in unsupported(
        "Acme sued Zenith Optics Ltd. for patent infringement in the Eastern District of Texas in June 2021 [2].",
        quotes, q, ["Acme"]))
    assert not any("gives" in f for f in unsupported(
        "Zenith Optics Ltd. sued Acme for patent infringement in the Eastern District of Texas in June 2021 [2].",
        quotes, q, ["Acme"]))


def test_a_guarantee_given_to_the_guaranteed_party_is_flagged() -> None:
    """"Acme Funding B.V. limits the risk by ... guaranteeing the losses" where the loans "are guaranteed by Acme
    Holding AG": the parent's guarantee is told as the subsidiary's own; told as the parent's, it is not flagged."""
    q = parse("How does Acme Funding B.V. limit the credit risk of its loans to group companies?")
    quotes = [Quote("The loans to group companies are guaranteed by Acme Holding AG when the aggregated losses exceed "
                    "euro 5 million.", "ACMEFUNDING_2022_AR", "acme", 36, 3, 3)]
    flags = unsupported("Acme Funding B.V. limits the risk by guaranteeing the aggregated losses on the loans to "
                        "group companies above euro 5 million [3].", quotes, q, ["Acme Funding B.V."])
    assert any("“guaranteed” to “Acme Holding AG”" in f for f in flags), flags
    assert not any("guaranteed" in f for f in unsupported(
        "The loans to group companies are guaranteed by Acme Holding AG when the aggregated losses exceed euro 5 "
        "million [3].", quotes, q, ["Acme Funding B.V."]))


def test_what_was_done_to_one_thing_told_of_another_is_flagged() -> None:
    """"The arbitration was suspended" where the quote says the customer claim "was suspended pending the outcome of
    the arbitration": what the act was done to is told of what the quote names after it."""
    q = parse("What happened in May 2023 to the arbitration with Acme's former distributor?")
    quotes = [Quote("The customer claim filed in the Superior Court of Ontario was suspended pending the outcome of "
                    "the arbitration with the former distributor.", "ACME_2023_10Q", "acme", 21, 1, 1)]
    flags = unsupported("[1] indicates the arbitration was suspended pending the outcome of the arbitration with "
                        "the former distributor.", quotes, q, ["Acme"])
    assert any("“The customer claim filed in the Superior Court" in f and "not “The arbitration”" in f
               for f in flags), flags
    assert not any("suspended," in f for f in unsupported(
        "The customer claim was suspended pending the outcome of the arbitration with the former distributor [1].",
        quotes, q, ["Acme"]))


def test_the_filer_by_its_own_words_is_the_summarys_named_filer() -> None:
    """"Under the programme, the Company issued notes" told as "Acme Funding B.V. issued notes": the filer's own
    words name the filer, whatever name the summary gives it; no act is given to another party."""
    q = parse("What notes did Acme Funding B.V. issue in 2022?")
    quotes = [Quote("Under the EMTN Programme, the Company issued notes with a nominal value of euro 2.5 billion.",
                    "ACMEFUNDING_2022_AR", "acme", 12, 5, 5)]
    assert not any("“issued”" in f for f in unsupported(
        "Acme Funding B.V. issued notes with a nominal value of euro 2.5 billion under the EMTN Programme [5].",
        quotes, q, ["Acme Funding B.V."]))


def test_a_sentence_of_another_legal_matter_is_flagged() -> None:
    """An answer about the scanner patent suit in the District of Oregon that restates what the passage's next matter
    alleges (price fixing, opened by "... distributors have filed several cases") is flagged with that matter's
    opening; restating the asked suit's own sentences is not, nor is a sentence of a passage that begins inside a
    matter."""
    q = parse("Who sued Acme over its Lumo scanners in the District of Oregon, and what do they allege?")
    passage = ("In June 2021, Brightline Labs LLC filed a complaint against Acme Corp. in the United States District "
               "Court for the District of Oregon. The complaint alleges that Lumo scanners infringe two patents. We "
               "dispute the allegations and intend to defend ourselves vigorously. Beginning in May 2022, with Ortega "
               "v. Acme Corp., several distributors have filed cases in the U.S. alleging price fixing arrangements "
               "between Acme and its resellers. The complaints seek treble damages.")
    quotes = [Quote("The complaint alleges that Lumo scanners infringe two patents.", "ACME_2023_10Q", "acme", 14, 1,
                    1),
              Quote("Beginning in May 2022, with Ortega v. Acme Corp., several distributors have filed cases in the "
                    "U.S. alleging price fixing arrangements between Acme and its resellers.", "ACME_2023_10Q", "acme",
                    14, 1, 1)]
    flags = unsupported("Brightline Labs sued Acme over the Lumo scanners [1]. They allege price fixing arrangements "
                        "between Acme and its resellers [1].", quotes, q, ["Acme"], passages=[passage, passage])
    assert any("another matter" in f and "Ortega" in f for f in flags), flags
    assert not any("another matter" in f for f in unsupported(
        "The complaint alleges that Lumo scanners infringe two patents [1].", quotes, q, ["Acme"],
        passages=[passage, passage]))
    inside = passage[passage.index("We dispute"):]
    assert not any("another matter" in f for f in unsupported(
        "The complaints seek treble damages [1].",
        [Quote("The complaints seek treble damages.", "ACME_2023_10Q", "acme", 14, 1, 1)], q, ["Acme"],
        passages=[inside[inside.index("The complaints"):]]))
    # the question's "Acme's Lumo unit" names the unit, Acme its owner: the unit's own matter is no other
    owned = parse("Who brought the patent suit against Acme's Lumo unit, and what does it allege?")
    lumo = passage.replace("against Acme Corp.", "against Acme's subsidiary Lumo Inc.")
    opening = Quote(lumo.split(". The complaint")[0] + ".", "ACME_2023_10Q", "acme", 14, 1, 1)
    assert not any("another matter" in f for f in unsupported(
        lumo.split(". The complaint")[0] + " [1].", [opening], owned, ["Acme"], passages=[lumo]))


def test_a_filing_s_form_letter_names_nothing_a_figure_is_given_for() -> None:
    """"as of the 2018 10-K, Acme could owe up to $317" names no one the $317 is given for (the "K" of "10-K" is no
    name), so the quote's "payments to ULA for up to $317" does not make it another's; a name that is one still
    does."""
    q = parse("What is the dispute between Acme and the government over launch costs about, and what could Acme owe?")
    x = Quote("If it is determined that the costs are not recoverable, we could be required to make indemnification "
              "payments to ULA for up to $317 of the costs questioned by the DCMA.", "ACME_2018_10K", "acme", 91, 1, 1)
    assert not any("gives it for" in f for f in unsupported(
        "As of the 2018 10-K, Acme could owe up to $317 in indemnification payments [1].", [x], q, ["Acme"]))
    assert any("gives it for" in f for f in unsupported(
        "As of the 2018 10-K, Raytheon could receive up to $317 in indemnification payments [1].", [x], q, ["Acme"]))


def test_a_business_bought_is_one_acquired_and_a_price_paid_in_cash_is_told_in_cash() -> None:
    """"bought" for the quote's "acquired" puts no word of the summary's in the quote's mouth, nor does "in cash" for
    a price the quote gives "$235 million, in cash"; a word the quote does not have still is flagged."""
    q = parse("From whom did Acme's Ohio subsidiary buy a water system in 2022, and on what terms?")
    x = Quote("On May 27, 2022, the Company's Ohio subsidiary acquired the water system assets from the Dayton Water "
              "Authority for a purchase price of $235 million, in cash, $20 million of which was funded as a deposit "
              "to the seller in April 2021.", "ACME_2022_10K", "acme", 100, 1, 1)
    told = ("Acme's Ohio subsidiary bought the water system assets from the Dayton Water Authority for $235 million in "
            "{paid}, $20 million of which was a deposit [1].")
    assert unsupported(told.format(paid="cash"), [x], q, ["Acme"]) == []
    assert "stock" in unsupported(told.format(paid="stock"), [x], q, ["Acme"])


def test_a_matter_is_read_in_the_opening_the_chunk_before_made_or_one_written_noun_first() -> None:
    """A passage that begins inside a matter is read in the matter the chunk before it opened last ("class actions
    relating to Veltor were filed ..."); an opening may name its suit before its verb ("a breach of contract action
    brought by Northfield University") or its defendant ("Acme was named as a defendant in"), and one naming no
    party ("The action was originally filed in 2013") goes on with the matter it is told in."""
    q = parse("What did the indirect purchasers of Zelfex allege against Acme, and how was the litigation resolved?")
    prior = ("Zelfex Beginning in 2017, purported class actions were filed by indirect purchasers of Zelfex against "
             "Acme. Veltor Beginning in 2011, purported class actions relating to Veltor were filed in various federal "
             "courts against Acme and Rambix Labs Ltd. The plaintiffs seek treble damages.")
    passage = "In 2014, the District Court dismissed with prejudice the claims of the other plaintiffs."
    x = Quote(passage, "ACME_2021_10K", "acme", 103, 3, 1)
    told = ("The litigation was resolved when the District Court dismissed with prejudice the claims of the other "
            "plaintiffs.")
    flags = unsupported(f"{told} [3]", [x], q, ["Acme"], passages=[passage], priors=[prior])
    assert any("another matter" in f and "Veltor" in f for f in flags), flags
    assert not any("another matter" in f for f in unsupported(f"{told} [3]", [x], q, ["Acme"], passages=[passage]))
    # the chunk before ends in the asked matter: the passage goes on with it
    assert not any("another matter" in f for f in unsupported(
        f"{told} [3]", [x], q, ["Acme"], passages=[passage], priors=[prior.split(" Veltor")[0]]))
    passage = ("Breach of Contract We are a defendant in a breach of contract action brought by Northfield University "
               "in the Supreme Court of the State of New York. The action was originally filed in 2013. In 2015, the "
               "Supreme Court dismissed the action and, in 2017, the Appellate Division reversed the decision.")
    x = Quote("In 2015, the Supreme Court dismissed the action and, in 2017, the Appellate Division reversed the "
              "decision.", "ACME_2021_10K", "acme", 105, 4, 2)
    flags = unsupported("The litigation was resolved when the Supreme Court dismissed the action in 2015, and the "
                        "Appellate Division reversed the decision in 2017 [4].", [x], q, ["Acme"], passages=[passage])
    assert any("another matter (“Breach of Contract We are a defendant" in f for f in flags), flags
    named = passage.replace("We are a defendant in a breach of contract action brought by Northfield University",
                            "Acme was named as a defendant in a complaint by Northfield University")
    assert any("another matter (“Breach of Contract Acme was named" in f for f in unsupported(
        "The Supreme Court dismissed the action in 2015, and the Appellate Division reversed the decision in 2017 [4].",
        [x], q, ["Acme"], passages=[named]))


def test_a_denial_of_a_listed_subject_in_a_passive_is_read_whole() -> None:
    """"Our strategy, results of operations and financial condition have not been materially affected by risks from
    X" denies "materially affected" of each thing listed: told without the denial of any of them, it is flagged; the
    tense words and the passive's agent are no part of what is denied."""
    q = parse("Have supply disruptions materially affected Foo Corp's business or results in 2023?")
    x = Quote("Our business strategy, results of operations and financial condition have not been materially affected "
              "by risks from supply disruptions, including past shortages.", "FOO_2023_10K", "foo", 26, 1, 1)
    assert any(f.startswith("[1] says “not been materially affected") for f in unsupported(
        "Supply disruptions have materially affected Foo Corp's results [1].", [x], q, ["Foo Corp"]))
    assert not any(f.startswith("[1] says") for f in unsupported(
        "Supply disruptions have not materially affected Foo Corp's results [1].", [x], q, ["Foo Corp"]))


def test_a_one_word_denial_ending_its_sentence_is_read_and_a_clause_denies_only_its_own() -> None:
    """"The effect of these actions on our financial results was not material." denies "material" of the effect:
    "those actions had a material effect on its financial results" is flagged; "X was suspended; the effect was not
    material" denies nothing of the suspension."""
    q = parse("What did Foo Corp do about its operations in Ruritania in 2022, and did those actions have a material "
              "effect on its financial results?")
    x = Quote("Beginning in 2022, we suspended most of our commercial activities in Ruritania. The ongoing effect of "
              "these actions on our financial results was not material.", "FOO_2022_10K", "foo", 31, 2, 2)
    assert "[2] says “not material”" in unsupported(
        "Foo Corp suspended its commercial activities in Ruritania in 2022, and those actions had a material effect "
        "on its financial results [2].", [x], q, ["Foo Corp"])
    assert unsupported("Foo Corp suspended its commercial activities in Ruritania in 2022; the effect on its financial "
                       "results was not material [2].", [x], q, ["Foo Corp"]) == []


def test_a_yes_no_part_affirmed_in_its_own_words_is_read_against_the_quotes_alone() -> None:
    """"The company follows a dividend policy" for "... and does the company follow a dividend policy?" says it in the
    question's words, which support nothing: where no quote has them they are flagged. So does one denying it in
    those words ("does not follow") where no quote denies anything; beside a quote that denies, or told in the
    quotes' words, the sentence is read as before."""
    q = parse("What does Acme's board propose to do with the 2022 profit, and does the company follow a dividend "
              "policy?")
    quotes = [Quote("The Board of Directors proposes to add the net profit for the year 2022 to the retained "
                    "earnings.", "ACME_2022_AR", "acme", 26, 4, 4),
              Quote("The Company may adjust the amount of dividends paid to shareholders.", "ACME_2022_AR", "acme",
                    26, 2, 2)]
    assert "policy" in unsupported("The company follows a dividend policy [2].", quotes, q, ["Acme"])
    assert "policy" in unsupported("The company does not follow a dividend policy [2].", quotes, q, ["Acme"])
    denying = [*quotes, Quote("The Company has not adopted a formal dividend policy.", "ACME_2022_AR", "acme", 27, 5,
                              5)]
    assert "policy" not in unsupported("The company does not follow a dividend policy [5].", denying, q, ["Acme"])
    assert "policy" not in unsupported("The Board proposes to add the 2022 net profit to the retained earnings [4].",
                                       quotes, q, ["Acme"])
    # a later part's No in its own words: "did it close any plant in 2022?" told "did not close any plant" where the
    # quotes only say which plants run
    q = parse("Which plants does Acme operate, and did it close any plant during 2022?")
    plants = [Quote("Acme operates manufacturing plants in Ohio and Texas.", "ACME_2022_10K", "acme", 12, 1, 1)]
    assert "close" in unsupported("Acme operates plants in Ohio and Texas [1]. It did not close any plant during 2022.",
                                  plants, q, ["Acme"])


def test_a_summary_opening_by_pointing_back_at_the_item_asked_with_another_items_drivers_is_flagged() -> None:
    """"The decline was partly offset by higher average selling prices and favorable currency" for "Why did Acme's
    effective tax rate fall, and what partly offset the decline?", restating "Acme, Inc. gross margin increased 90
    basis points primarily due to higher average selling prices and favorable currency": the first sentence's
    "The decline" is the tax rate's, the drivers gross margin's. Telling the tax rate's own offset is not flagged."""
    q = parse("Why did Acme's effective tax rate fall in fiscal 2019, and what partly offset the decline?")
    quotes = [Quote("Acme, Inc. gross margin increased 90 basis points primarily due to higher average selling prices "
                    "and favorable changes in foreign currency exchange rates.", "ACME_2019_10K", "acme", 26, 6, 6),
              Quote("The effective tax rate decreases were partially offset by an increase in U.S. tax on foreign "
                    "earnings.", "ACME_2019_10K", "acme", 32, 3, 3)]
    flags = unsupported("The decline was partly offset by higher average selling prices and favorable changes in "
                        "foreign currency exchange rates [6].", quotes, q, ["Acme"])
    assert "[6] is about “Acme, Inc. gross margin”" in flags, flags
    assert not any("is about" in f for f in unsupported(
        "The decline was partially offset by an increase in U.S. tax on foreign earnings [3].", quotes, q, ["Acme"]))


def test_prepositions_are_no_claims_of_their_own() -> None:
    """"Over", "against", "through" and the like name nothing: written where the quote has other words ("during",
    "in"), they are not flagged; the content words beside them still are."""
    q = parse("What did the Ortega suit allege against Acme over its pricing?")
    quotes = [Quote("The complaint alleges that Acme's pricing policies in 2022 were an unlawful restraint of trade.",
                    "ACME_2022_10K", "acme", 14, 1, 1)]
    flags = unsupported("Through its complaint, Ortega alleged against Acme that its pricing policies over 2022 were "
                        "an unlawful restraint of trade and fraudulent [1].", quotes, q, ["Acme"])
    assert not {"Through", "through", "against", "over"} & set(flags) and "fraudulent" in flags, flags


def test_a_quote_opening_its_chunk_reads_on_from_the_chunk_before() -> None:
    """"the effect of this change in estimate ... was a benefit of $4 million" opening its chunk points back at the
    filing's sentence before it, which closes the chunk before: given that chunk (``Store.preceding``), a summary
    naming the change as that sentence does is no unquoted word; without it, it is, and a quote inside its passage
    is read as before."""
    from engine.ask.faithful import check_summary

    q = parse("How did Borealis's change to the estimated useful lives of its machinery affect its costs in the "
              "quarter ended March 31, 2024?")
    quote = ("Based on the carrying amounts of machinery in use at year end, the effect of this change in estimate "
             "for the three months ended March 31, 2024, was a benefit of $4 million to cost of sales.")
    used = [Evidence(chunk_id=7, doc_id="b", doc="BORE_2024_10Q", page=8, modality="text", score=0.5,
                     text=f"{quote} Depreciation expense was $40 million.")]
    x = Quote(quote, "BORE_2024_10Q", "b", 8, 1, 7)
    said = "The change in the estimated useful lives of machinery gave a benefit of $4 million to cost of sales [1]."
    prior = ("Property is stated at cost. In January 2024, we completed an assessment of the useful lives of our "
             "machinery. We increased the estimated useful life of our machinery from five to seven years.")
    unquoted = {"[1] does not say “useful”", "[1] does not say “lives”"}
    assert unquoted <= set(check_summary(said, "", [x], q, used))
    assert not unquoted & set(check_summary(said, "", [x], q, used, {7: prior}))
    inside = [dataclasses.replace(used[0], text=f"Depreciation expense was $40 million. {quote}")]
    assert unquoted <= set(check_summary(said, "", [x], q, inside, {7: prior}))


def test_a_plural_not_made_with_an_s_is_its_singular_word() -> None:
    """"the useful lives" and "the useful life" are one word to the summary check; "live" stays apart."""
    from engine.ask.subjects import word_stem

    assert word_stem("lives") == word_stem("life") == word_stem("Life's") != word_stem("live")
    assert word_stem("halves") == word_stem("half")
    # a consonant an inflection doubles is written once ("stopped" is "stop"); one the word itself doubles stays
    assert word_stem("stopped") == word_stem("stop") and word_stem("admitted") == word_stem("admit")
    assert word_stem("occurred") == word_stem("occur") and word_stem("planned") == word_stem("plan")
    assert word_stem("sells") == word_stem("sell")
    # a "-ment" or "-uction" noun is its verb's word ("settlement", "reduction"); a short one keeps its letters
    assert word_stem("settlement") == word_stem("settle") and word_stem("reduction") == word_stem("reduce")
    assert word_stem("management") == word_stem("managed") and word_stem("segment") != word_stem("seg")


def test_a_sentence_going_on_from_one_matter_restating_a_quote_gone_on_from_another_is_flagged() -> None:
    """"They were recorded in other operating expense" after the severance costs, restating "These charges were
    recorded in ..." which follows, in its passage, the impairments of warehouse leases: flagged; restating the
    severance passage's own "These charges ..." is not."""
    q = parse("What severance costs did Borealis record in 2024, and where were they recorded?")
    severance = ("In 2024, we recorded approximately $90 million of estimated severance costs primarily related to "
                 "planned role eliminations. These charges were recorded primarily in “Selling and marketing” on our "
                 "consolidated statements of operations.")
    impairment = ("In 2024, we recorded approximately $60 million of impairments of warehouse leases and fixtures "
                  "primarily related to closed distribution centers. These charges were recorded in “Other operating "
                  "expense, net” on our consolidated statements of operations.")
    quotes = [Quote(severance.split(". ", 1)[0] + ".", "BORE_2024_10K", "b", 7, 1, 1),
              Quote(severance.split(". ", 1)[1], "BORE_2024_10K", "b", 7, 1, 1),
              Quote(impairment.split(". ", 1)[1], "BORE_2024_10K", "b", 9, 2, 2)]
    passages = [severance, severance, impairment]
    first = ("Borealis recorded approximately $90 million of estimated severance costs primarily related to planned "
             "role eliminations [1].")
    wrong = first + (" They were recorded in “Other operating expense, net” on its consolidated statements of "
                     "operations [2].")
    right = first + " They were recorded primarily in “Selling and marketing” on its consolidated statements [1]."
    assert unsupported(wrong, quotes, q, ["Borealis"], passages=passages) == [
        "[2] goes on from “impairments of warehouse leases and fixtures primarily related”"]
    assert not any("goes on from" in f for f in unsupported(right, quotes, q, ["Borealis"], passages=passages))


def test_a_period_s_framing_words_claim_nothing() -> None:
    """"Yes, one customer ... in the quarter ended March 31, 2024": a Yes repeating the question is checked against
    the quotes alone, and "quarter ended" frames its period, claiming nothing; a word the quotes lack still counts."""
    q = parse("Did any single customer account for 10% or more of Borealis's revenue in the quarter ended March 31, "
              "2024, and to which segment was it attributable?")
    quotes = [Quote("One customer represented 12% of our total revenue for the first quarter of fiscal year 2025 (to "
                    "March 31, 2024) and was attributable primarily to the Marine segment.", "BORE_2025_10Q", "b", 9, 1,
                    1)]
    said = ("Yes, one customer represented 12% of Borealis's revenue in the quarter ended March 31, 2024, attributable "
            "primarily to the Marine segment [1].")
    assert unsupported(said, quotes, q, ["Borealis"]) == []
    assert unsupported(said.replace("Marine segment", "Marine and Aviation segment"), quotes, q, ["Borealis"]) \
        == ["Aviation"]


def test_the_answer_checks_a_quote_opening_its_chunk_with_the_chunk_before(tmp_path: Path) -> None:
    """End to end: the quote "the effect of this change in estimate ..." opens its chunk; the answerer gives the
    check the chunk before it (``Store.preceding``), which says what the change was, so the summary naming it is
    not flagged for words its quote lacks."""
    prior = ("In January 2024, we completed an assessment of the useful lives of our machinery. We increased the "
             "estimated useful life of our machinery from five to seven years.")
    quote = ("Based on the carrying amounts of machinery in use at year end, the effect of this change in estimate for "
             "the three months ended March 31, 2024, was a benefit of $4 million to cost of sales.")
    llm = FakeLLM(lambda msgs: "The change in the estimated useful lives of machinery gave a benefit of $4 million to "
                               "cost of sales [1].")
    lib = build_library(tmp_path, [FakeDoc("bore2024aaaa", "BORE_2024_10Q", "Borealis Corporation", "10-Q",
                                           "FY2024", [("text", 8, prior), ("text", 8, quote)])], llm=llm)
    q = "How did Borealis's change to the estimated useful lives of its machinery affect its cost of sales?"
    a = list(Answerer(lib.settings, lib.models).answer(q, lib.retriever(), scope=["bore2024aaaa"]))[-1].answer
    assert any(x.text == quote for x in a.quotes), (a.text, [e.text[:50] for e in a.evidence])
    assert not any("does not say" in f for f in a.unsupported), a.unsupported


def test_a_yes_beside_a_quote_denying_it_for_the_period_asked_is_flagged() -> None:
    """"Did Borealis buy back any of its shares in fiscal 2024?" answered Yes with fiscal 2023's buybacks, beside "There
    were no repurchases of our common shares during fiscal 2024": flagged; a denial of another year is no answer."""
    q = parse("Did Borealis repurchase any of its common shares in fiscal 2024, and how much remained under it?")
    denial = Quote("There were no repurchases of our common shares during fiscal 2024.", "BORE_2024_10K", "b", 40, 3, 3)
    before = Quote("We repurchased 12 million of our common shares for $1.1 billion during fiscal 2023.",
                   "BORE_2024_10K", "b", 40, 3, 3)
    said = "Yes, Borealis repurchased 12 million of its common shares for $1.1 billion during fiscal 2023 [3]."
    flag = "“Yes”: [3] says “There were no repurchases of our common shares during fiscal 2024.”"
    assert flag in unsupported(said, [denial, before], q, ["Borealis"])
    other = Quote("There were no repurchases of our common shares during fiscal 2022.", "BORE_2024_10K", "b", 40, 3, 3)
    assert not any(f.startswith("“Yes”") for f in unsupported(said, [other, before], q, ["Borealis"]))


def test_a_name_told_without_its_last_word_is_flagged() -> None:
    """"Growth for Borealis Play was primarily driven by sales of apps" told as "Borealis other revenues are primarily
    driven by sales of apps": Borealis Play's driver given to the line it belongs to; told of Borealis Play it is
    not flagged so."""
    q = parse("What makes up Borealis's other revenues, and what drove their increase from 2020 to 2021?")
    quotes = [Quote("Growth for Borealis Play was primarily driven by sales of apps and in-app purchases.",
                    "BORE_2021_10K", "b", 35, 4, 4)]
    wrong = "Borealis other revenues are primarily driven by sales of apps and in-app purchases [4]."
    right = "Growth for Borealis Play was primarily driven by sales of apps and in-app purchases [4]."
    assert "[4] is about “Borealis Play”" in unsupported(wrong, quotes, q, ["Borealis"])
    assert not any("is about" in f for f in unsupported(right, quotes, q, ["Borealis"]))
    # a run-in heading's words before the sentence's own "We" end no name there
    headed = [Quote("Borealis Cloud Offerings We offer enterprise customers Borealis cloud services directly and "
                    "through our network of partners.", "BORE_2021_10K", "b", 24, 2, 2)]
    assert not any("is about" in f for f in unsupported(
        "Borealis offers enterprise customers Borealis cloud services directly and through its partners [2].", headed,
        parse("What cloud offerings does Borealis describe, and how does it deliver them and with whom?"),
        ["Borealis"]))


def test_the_verb_a_question_asks_with_is_no_word_put_in_a_quote() -> None:
    """"What kinds of lenders does Foo Corp depend on" asks with "depend": a summary "Foo Corp depends on regional
    banks" restating "We have significant lenders, chiefly regional banks" puts no word of the question in the quote's
    mouth; a noun of the question ("syndicated") still is one, and so is a verb of what is expected ("does it expect
    ...": a quote telling what happened does not say "expects")."""
    q = parse("What kinds of lenders does Foo Corp depend on, and are its credit lines syndicated?")
    quotes = [Quote("We have significant lenders, chiefly regional banks, that provide most of our revolving credit.",
                    "FOO_2023_10K", "foo", 13, 1, 1)]
    assert not any("“depends”" in f for f in unsupported(
        "Foo Corp depends on significant lenders, chiefly regional banks, that provide most of its revolving credit "
        "[1].", quotes, q, ["Foo Corp"]))
    assert "[1] does not say “syndicated”" in unsupported(
        "Foo Corp has significant syndicated lenders, chiefly regional banks, that provide most of its revolving "
        "credit [1].", quotes, q, ["Foo Corp"])
    q2 = parse("Does Foo Corp expect regional banks to provide most of its revolving credit?")
    assert "[1] does not say “expects”" in unsupported(
        "Foo Corp expects significant lenders, chiefly regional banks, to provide most of its revolving credit [1].",
        quotes, q2, ["Foo Corp"])


def test_a_hyphenated_question_word_the_quote_writes_apart_is_said() -> None:
    """The question's "term-debt" is the quote's "term debt– and marketable securities–related": said; a word of the
    question the quote lacks altogether is still flagged."""
    q = parse("Over what period are Borealis's hedged term-debt foreign currency transactions and swaps expected to "
              "be recognized?")
    quotes = [Quote("As of June 30, 2024, the Company’s hedged term debt– and marketable securities–related foreign "
                    "currency transactions are expected to be recognized within 20 years.", "BORE_2024_10Q", "b", 11,
                    2, 2)]
    said = ("Borealis's hedged term-debt foreign currency transactions are expected to be recognized within 20 years "
            "[2].")
    assert not any("does not say" in f for f in unsupported(said, quotes, q, ["Borealis"]))
    assert "[2] does not say “swaps”" in unsupported(said.replace("transactions", "swaps"), quotes, q, ["Borealis"])


def test_a_yes_repeating_the_question_s_period_and_an_ing_adjective_is_not_flagged() -> None:
    """"Yes, Borealis believes ..., according to its 10-Q for the quarter ended April 1, 2024": the question's period
    frames the Yes, and "cash generated by ongoing operations" is no act of anyone's."""
    q = parse("Does Borealis believe its cash and marketable securities will be sufficient to meet its cash "
              "requirements, according to its 10-Q for the quarter ended April 1, 2024?")
    quotes = [Quote("Liquidity and Capital Resources The Company believes its balances of cash and unrestricted "
                    "marketable securities, along with cash generated by ongoing operations, will be sufficient to "
                    "satisfy its cash requirements over the next 12 months.", "BORE_2024_10Q", "b", 21, 4, 4)]
    said = ("Yes, Borealis believes its cash and marketable securities, along with cash generated by ongoing "
            "operations, will be sufficient to satisfy its cash requirements, according to its 10-Q for the quarter "
            "ended April 1, 2024 [4].")
    flags = unsupported(said, quotes, q, ["Borealis"])
    assert "April" not in flags and not any("“ongoing”" in f for f in flags), flags
    assert "June" in unsupported(said.replace("April 1", "June 30"), quotes, q, ["Borealis"])


UNFLAGGED = {
    # "recover" is "recoup" (the vocabulary's ``same``), as a content word and as a question's word put in
    "recoup": ("Does Borealis expect to recover those payments?",
               "We believe the decision is without merit and we expect to recoup taxes paid.",
               "Yes, Borealis expects to recover taxes paid [2]."),
    # "at the end of 2020" beside "At December 31, 2020": "end" frames a period and claims nothing
    "year end": ("For how many sites has Borealis been named a responsible party, and how much had it accrued for "
                 "environmental cleanup and related litigation at the end of 2020?",
                 "At December 31, 2020 and 2019, Borealis had accrued approximately $68 million (undiscounted) and $41 "
                 "million (undiscounted), respectively, for the estimated liability for environmental cleanup and "
                 "related litigation.",
                 "Borealis had accrued approximately $68 million for environmental cleanup and related litigation at "
                 "the end of 2020 [2]."),
}


@pytest.mark.parametrize("case", list(UNFLAGGED))
def test_a_faithful_summary_in_other_words_is_not_flagged(case: str) -> None:
    question, quote, said = UNFLAGGED[case]
    quotes = [Quote(quote, "BORE_2024_10Q", "b", 18, 2, 2)]
    assert unsupported(said, quotes, parse(question), ["Borealis"]) == []


def test_a_word_outside_the_vocabulary_s_groups_is_still_unquoted() -> None:
    """"reclaim" is no word of "recoup"'s group: told for it, it is the summary's own."""
    question, quote, said = UNFLAGGED["recoup"]
    quotes = [Quote(quote, "BORE_2024_10Q", "b", 18, 2, 2)]
    assert "reclaim" in unsupported(said.replace("recover", "reclaim"), quotes, parse(question), ["Borealis"])


def test_an_answer_in_the_questions_verb_that_only_repeats_its_subject_is_flagged() -> None:
    """"whom does each product group serve?" answered "Carrier products serve carriers, while enterprise products
    serve enterprises": every word is quoted or asked, and the clause says nothing of whom."""
    q = parse("How does Acme divide its Networks segment, and whom does each product group serve?")
    assert "serve" in q.asking
    quote = [Quote("The increase in segment net sales was primarily driven by higher sales volumes of carrier and "
                   "enterprise products for broadband and the cloud.", "ACME_2022_10K", "acme", 28, 5, 5)]
    flags = unsupported("Carrier products serve carriers, while enterprise products serve enterprises [5].", quote, q,
                        ["Acme"])
    assert "\u201ccarriers\u201d only restates \u201cCarrier products\u201d" in flags, flags
    assert not any("only restates" in f for f in unsupported(
        "The carrier group serves carriers and cable operators, while enterprise products serve businesses [5].",
        quote, q, ["Acme"]))


def test_a_who_or_what_clause_ending_with_its_verb_asks_with_it() -> None:
    assert "make" in parse("What does Acme's Specialty Materials segment make?").asking
    assert "serve" in parse("Whom does each Acme product group serve?").asking
    # a clause going on past its subject ends with a noun, not the verb
    assert "litigation" not in parse("What does Acme disclose about the Combat Arms Earplugs litigation?").asking
    assert "matters" not in parse("What does Acme say about PFAS-related matters?").asking


def test_a_party_one_member_s_quote_names_told_of_the_whole_list_is_flagged() -> None:
    """"ZANTRIX, OLVEXA and DURAMEL for collaboration with Helix Pharma AG" where only ZANTRIX's sentence names
    Helix: DURAMEL is given a partner no quote gives it. A name before the list is its subject, not said of each."""
    q = parse("Which partners does Acme name for ZANTRIX, OLVEXA and DURAMEL?")
    quote = [Quote("The Company has products developed with strategic partners including ZANTRIX, co-developed with "
                   "Helix Pharma AG and OLVEXA, co-marketed with Corvid LLC.", "ACME_2022_10K", "acme", 55, 2, 2)]
    flags = unsupported("Acme names ZANTRIX, OLVEXA, and DURAMEL for collaboration with Helix Pharma AG and Corvid "
                        "LLC [2].", quote, q, ["Acme"])
    assert "no quote says \u201cHelix\u201d of \u201cDURAMEL\u201d" in flags, flags
    q = parse("Which two companies did Acme acquire in 2022?")
    quote = [Quote("In fiscal 2022, we acquired Two Peaks, LLC d/b/a Yardbird Furniture and Current Health Ltd.",
                   "ACME_2022_10K", "acme", 51, 3, 3)]
    assert not any(f.startswith("no quote says") for f in unsupported(
        "Acme acquired Two Peaks, LLC d/b/a Yardbird Furniture and Current Health Ltd. in fiscal 2022 [3].", quote, q,
        ["Acme"]))


def test_a_source_number_given_as_the_answer_is_flagged() -> None:
    q = parse("Who is Acme's partner on ZX-12, and what did Acme pay under the 2021 agreement?")
    quote = [Quote("The companies will equally share worldwide development costs, commercialization expenses and "
                   "profits.", "ACME_2021_10K", "acme", 75, 5, 5)]
    flags = unsupported("Acme's partner on ZX-12 is [10]. The payment was recorded as [8].", quote, q, ["Acme"])
    assert "\u201cis [10]\u201d: a source number, not what it says" in flags
    assert "\u201cas [8]\u201d: a source number, not what it says" in flags
    # a run of them, and after a colon
    flags = unsupported("Acme's partners are [3] [4]. It paid two companies: [1] and [2].", quote, q, ["Acme"])
    assert "\u201care [3] [4]\u201d: a source number, not what it says" in flags, flags
    assert "\u201c: [1] and [2]\u201d: a source number, not what it says" in flags, flags
    for said in ("The companies will equally share worldwide development costs, commercialization expenses and "
                 "profits [5].", "Acme expects to recover taxes paid [5].", "That is consistent with [5].",
                 "Acme named three drivers: lower volume, pricing and mix [5]."):
        assert not any("source number" in f for f in unsupported(said, quote, q, ["Acme"])), said


def test_a_matter_s_history_is_no_earlier_year_s_discussion() -> None:
    """A suit brought in 2017 and still pending, asked of in the 2023 10-Q, is that matter's history, not another
    year's paragraph told for 2023; nor is a year in a law's name ("the Act of 2012") a year a quote tells."""
    q = parse("What do the service members allege against Acme in the Anti-Terrorism Act suit, as of the 10-Q for "
              "the quarter ended July 2, 2023?")
    quotes = [Quote("In 2017, a number of U.S. service members brought a complaint against a number of companies, "
                    "including Acme, alleging that the defendants violated the U.S. Anti-Terrorism Act.",
                    "ACME_2023Q2_10Q", "acme", 35, 1, 1)]
    passage = ("In July 2020, the District Court dismissed all of plaintiffs' claims. In 2017, a number of U.S. "
               "service members brought a complaint against a number of companies, including Acme, alleging that the "
               "defendants violated the U.S. Anti-Terrorism Act.")
    summary = "The service members allege that Acme violated the U.S. Anti-Terrorism Act [1]."
    assert not any("is about fiscal" in f for f in unsupported(summary, quotes, q, ["Acme"], passages=[passage]))


def test_an_irregular_past_form_is_its_verb() -> None:
    """"won" is "winning"'s verb, "sold" "selling"'s, "left" "leave"'s: a summary saying "Acme won the competitions"
    of a quote's "in connection with winning the competitions" says what it says; "lead" is no form of "led"."""
    from engine.ask.subjects import word_stem

    for forms in (("won", "winning", "win"), ("sold", "selling", "sell"), ("grew", "growing", "grown"),
                  ("left", "leave", "leaving"), ("paid", "pay")):
        assert len({word_stem(w) for w in forms}) == 1, forms
    assert word_stem("led") != word_stem("lead")
    q = parse("Acme won the T-9 trainer competition in 2018. How much loss did Acme recognize on it?")
    quotes = [Quote("In connection with winning the T-9 trainer competition, we recorded a loss of $400 million.",
                    "ACME_2018_10K", "acme", 10, 4, 4)]
    assert not any("won" in f for f in unsupported("Acme won the T-9 trainer competition and recorded a loss of $400 "
                                                   "million [4].", quotes, q, ["Acme"]))


def test_a_name_with_its_legal_form_or_its_collective_name_is_that_name() -> None:
    """"Neodron Ltd." is Neodron, and a quote naming "Zeta LLC and Zeta Operations LLC (collectively, Zeta Group)" is
    about Zeta Group: a summary naming them so is told of the quote's subject."""
    q = parse("What is Neodron asking the trade commission to do?")
    quote = [Quote("In May 2019, Neodron Ltd. filed a petition with the trade commission requesting that it commence "
                   "an investigation into the sale of Acme tablets.", "ACME_2019_10K", "acme", 61, 2, 2)]
    flags = unsupported("Neodron filed a petition with the trade commission requesting that it commence an "
                        "investigation into the sale of Acme tablets [2].", quote, q, ["Acme"])
    assert not any("is about" in f for f in flags), flags
    q = parse("Why did Acme leave Zeta Group out of its internal control assessment?")
    quote = [Quote("Management has excluded Zeta LLC and Zeta Operations LLC (collectively referred to as Zeta Group) "
                   "from its assessment because it was previously an equity method investee.", "ACME_2020_10K", "acme",
                   67, 4, 4)]
    flags = unsupported("Management excluded Zeta Group from its assessment because it was previously an equity "
                        "method investee [4].", quote, q, ["Acme"])
    assert not any("is about" in f for f in flags), flags


def test_a_percent_is_supported_by_a_percent_not_by_a_bare_number_of_the_same_digits() -> None:
    """A sentence that ran into its page's number ("... which results in a portion being 52") states no 52%; a
    percent the quotes give as a percent, in words or with a sign, is supported."""
    q = parse("How does Acme account for the production costs of its original films?")
    quotes = [_quote("Capitalized production costs of our original films are limited by the revenue we expect to "
                     "earn, which results in a portion being 52", 1),
              _quote("Licensing revenue grew 12 percent in 2021 compared with 2020.", 2)]
    assert "52%" in unsupported("Production costs are capitalized up to expected revenue, a portion being 52% of "
                                "the cost [1].", quotes, q)
    assert unsupported("Licensing revenue grew 12% in 2021 [2].", quotes, q) == []
    assert unsupported("Production costs are limited by expected revenue, a portion being 52 [1].", quotes, q) == []


def test_a_short_form_the_passages_define_says_its_words() -> None:
    """"Our ETR increased to 24.8% ..." says "effective tax rate" where a passage defines "Our effective tax rate
    (“ETR”)": it scores as the words it stands for (the same sentence, the same embedding, a higher lexical share)."""
    defined = "Our effective tax rate (“ETR”) increased to 26.1% in the second quarter of fiscal 2024."
    short = ("Our ETR increased to 24.8% in the first six months of fiscal 2024 compared to 20.5%, primarily due to "
             "the prior year resolution of discrete tax matters.")
    q = parse("How much did the effective tax rate rise in the first six months of fiscal 2024, and why?")

    def score(texts: list[str]) -> float:
        return next(x.score for x in find_quotes(q, _evidence(texts), {}, FakeEmbedder(), most=3) if x.text == short)

    assert score([defined, short]) > score(["Our gross margin rose.", short]) + 0.1


def test_a_measure_another_qualifies_is_another_measure() -> None:
    """"Our adjusted effective tax rate increased ..." is another rate's sentence for a question asking the rate
    plainly; asked for the adjusted rate, it is the one."""
    reported = ("Our reported effective tax rate increased in the first six months of fiscal 2024, primarily due to "
                "the prior year resolution of discrete tax matters.")
    other = ("Our adjusted effective tax rate increased in the first six months of fiscal 2024, primarily due to the "
             "prior year resolution of discrete tax matters.")
    texts = [other + " " + reported]  # the same words but one: ranked alike, the first would lead
    q = parse("How much did the effective tax rate rise in the first six months of fiscal 2024, and why?")
    assert find_quotes(q, _evidence(texts), {}, FakeEmbedder(), most=2)[0].text == reported
    asked = parse("How much did the adjusted effective tax rate rise in the first six months of fiscal 2024, and why?")
    assert find_quotes(asked, _evidence(texts), {}, FakeEmbedder(), most=2)[0].text == other


# --- why of a ranked pick ----------------------------------------------------------------------------------


SEGMENT_TABLE = {
    "title": "Segment Information",
    "units": "$ in millions",
    "scale": 1e6,
    "columns": ["2023", "2022"],
    "rows": [
        {"label": "Machines", "values": ["412", "380"], "numbers": [412.0, 380.0]},
        {"label": "Parts", "values": ["(246)", "(91)"], "numbers": [-246.0, -91.0]},
        {"label": "Software", "values": ["540", "470"], "numbers": [540.0, 470.0]},
        {"label": "Total operating income", "values": ["706", "759"], "numbers": [706.0, 759.0]},
    ],
}
SEGMENT_TEXTS = [
    "Parts operating loss widened to $246 million in 2023. The increase was primarily due to higher freight costs "
    "and new warehouses, partially offset by price increases.",
    "Machines revenue grew 8% in 2023, driven by demand from builders.",
    "The Software segment, which sells licenses, was reorganized in 2021.",
]


def test_a_ranking_asking_why_quotes_the_picks_sentence_with_the_one_before_it() -> None:
    """"Which segment had the weakest operating result, and why?": a ranking by amount that asks why is quoted
    why its pick stands where it does; a sentence pointing back at the change told before it ("The increase was
    primarily due to ...") is quoted with that sentence, which names the part."""
    q = parse("Which Acme segment had the weakest operating result in 2023, and why?")
    assert q.why and q.ranking is not None and not q.ranking.by_change and q.told is None
    shown = shown_quotes(q, _evidence(SEGMENT_TEXTS), {}, FakeEmbedder(), decided=True, stated=True, about="Parts")
    assert [x.text for x in shown] == [SEGMENT_TEXTS[0]]
    # asked no why, a ranking by amount quotes nothing
    plain = parse("Which Acme segment had the weakest operating result in 2023?")
    assert shown_quotes(plain, _evidence(SEGMENT_TEXTS), {}, FakeEmbedder(), decided=True, stated=True,
                        about="Parts") == []


def test_why_of_a_pick_found_by_a_search_of_its_own_is_cited_where_the_answer_cites_it() -> None:
    """Where the passages the figures came from say nothing of why the pick moved, the answer searches again
    (``why_unquoted``); a quoted passage the answer's evidence lacks is added at its end, numbered as cited there,
    and one it holds keeps its number."""
    q = parse("Which Acme segment had the weakest operating result in 2023, and why?")
    table = Evidence(chunk_id=50, doc_id="acme", doc="ACME_2023_10K", page=40, modality="table", score=0.9,
                     text="Segment Information")
    assert why_unquoted(q, "Parts", []) is not None
    assert why_unquoted(q, "", []) is None
    found = _evidence(SEGMENT_TEXTS)
    used = [table]
    quotes = why_found(q, "Parts", used, found, {}, FakeEmbedder())
    assert [x.text for x in quotes] == [SEGMENT_TEXTS[0]]
    assert used[-1] is found[0] and quotes[0].source == len(used) == 2
    assert why_unquoted(q, "Parts", quotes) is None  # said: no second search
    again = why_found(q, "Parts", used, found, {}, FakeEmbedder())
    assert again[0].source == 2 and len(used) == 2


def test_an_answer_to_which_and_why_is_the_picks_quotes_summarised(tmp_path: Path) -> None:
    """End to end: the code ranks the segments; the sentence saying why its pick's loss widened is quoted; the
    model writes from the quotes alone, and what it adds that they do not say is flagged."""
    llm = FakeLLM(lambda msgs: "Parts had the weakest result because of higher freight costs and a strike [1].")
    lib = build_library(tmp_path, [FakeDoc("acme2023aaaa", "ACME_2023_10K", "Acme Widgets Corporation", "10-K",
                                           "FY2023", [("text", 1, "Acme Widgets annual report fiscal year 2023"),
                                                      ("table", 40, "Segment Information operating income",
                                                       SEGMENT_TABLE),
                                                      *[("text", 20 + i, t) for i, t in enumerate(SEGMENT_TEXTS)]])],
                        llm=llm)
    events = list(Answerer(lib.settings, lib.models).answer(
        "Which Acme segment had the weakest operating result in 2023, and why?", lib.retriever(),
        scope=["acme2023aaaa"]))
    a = events[-1].answer
    assert isinstance(events[-1], AnswerFinished)
    assert a.extractive.startswith("Parts: the lowest")
    assert [x.text for x in a.quotes] == [SEGMENT_TEXTS[0]]
    user = llm.prompts[0][-1].content
    assert SEGMENT_TEXTS[0] in user and "reorganized" not in user
    # asked what drove the pick's figure, with the code's ranking stated (asked the ranking itself, a small model
    # restates the ranking or declines: the quotes are about the pick alone)
    assert "Question: What drove the operating income of Parts?" in user and "Computed: Parts: the lowest" in user
    assert "strike" in a.unsupported

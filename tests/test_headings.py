"""Section headings read off a page's words (engine/pagetext.py) and the check that a summary tells a section's
sentence as its part's (engine/ask/faithful/parts.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from test_reading_order import _set
from test_retrieve_lib import FakeDoc, build_library

from engine.ask.faithful import unsupported
from engine.ask.question import parse
from engine.pagetext import PageText, Word, headings_above, section_headings, text_lines
from engine.types import Quote

PARAGRAPH = ("Net sales increased 2.8% in fiscal 2020 compared to fiscal 2019, due to an increase in comparable sales "
             "and the effects of the Company's acquisitions during the year.")


def _line(text: str, x0: float, top: float, gap: float = 3.0) -> list[Word]:
    out: list[Word] = []
    x = x0
    for word in text.split():
        w = 5.0 * len(word)
        out.append((x, top, x + w, top + 9.0, word))
        x += w + gap
    return out


def _para(text: str, x0: float, x1: float, top: float) -> tuple[list[Word], float]:
    """Words of ``text`` set from ``x0`` to ``x1``, 12 points a line (``test_reading_order._set``); and the top of
    the line after it."""
    words = _set(text, x0, x1, top)
    return words, max(w[1] for w in words) + 12.0


def _page(words: list[Word], n: int = 1) -> PageText:
    return PageText(page=n, width=612.0, height=792.0, words=words, lines=text_lines(words))


def test_a_title_standing_alone_between_paragraphs_is_a_heading() -> None:
    first, y = _para(PARAGRAPH, 50, 560, 100)
    head = _line("Sam's Club Segment", 50, y + 10)
    second, _ = _para(PARAGRAPH, 50, 560, y + 34)
    heads = section_headings(_page(first + head + second))
    assert [h[3] for h in heads] == ["Sam's Club Segment"]


def test_title_words_inside_a_paragraph_are_no_heading() -> None:
    # a line that wraps mid-sentence onto words that happen to be capitalised: the sentence goes on
    words = [*_line("Net sales of the segments called", 50, 100), *_line("Walmart International Segment", 50, 112),
             *_line("increased due to higher volumes.", 50, 124)]
    assert section_headings(_page(words)) == []


def test_a_title_going_on_past_its_line_or_leading_into_a_list_is_no_heading() -> None:
    first, y = _para(PARAGRAPH, 50, 560, 100)
    for line in ("Revenues by:", "Risks Related to Our", "EUROPE, MIDDLE EAST &"):
        lead = _line(line, 50, y + 10)
        second, _ = _para(PARAGRAPH, 50, 560, y + 34)
        assert section_headings(_page(first + lead + second)) == [], line
    titled = _line("Revenues by Region:", 50, y + 10)
    assert [h[3] for h in section_headings(_page(first + titled + _para(PARAGRAPH, 50, 560, y + 34)[0]))] == [
        "Revenues by Region"]


def test_a_table_s_column_headings_and_the_running_head_are_no_headings() -> None:
    head = _line("Acme Corporation Annual Report", 50, 10)  # the page's running head
    columns = _line("Fiscal Years Ended", 300, 200, gap=40.0)  # headings of a table's columns: wide gaps
    body, _ = _para(PARAGRAPH, 50, 560, 230)
    assert section_headings(_page(head + columns + body)) == []


def test_a_passage_is_told_under_the_headings_above_it_in_its_column_then_the_page_before() -> None:
    before = _page([*_para(PARAGRAPH, 50, 560, 100)[0], *_line("Missiles and Fire Control", 50, 700)], 42)
    left, y = _para(PARAGRAPH, 50, 290, 100)
    right = [*_line("Space", 320, 80), *_para(PARAGRAPH, 320, 560, 100)[0]]
    head = _line("Backlog", 50, y + 10)
    below, _ = _para(PARAGRAPH, 50, 290, y + 34)
    page = _page(left + right + head + below, 43)
    box = (50.0, y + 34, 290.0, y + 80)
    # the right column's "Space" is above the passage but not over its column
    assert headings_above([before, page], box) == ("Backlog", "Missiles and Fire Control")


def _quote(text: str, doc: str = "WALMART_2020_10K", page: int = 39, source: int = 4) -> Quote:
    return Quote(text=text, doc=doc, doc_id=doc[0].lower(), page=page, source=source, chunk_id=source)


RATE = "Gross profit rate decreased 0.3 percentage points in fiscal 2020, primarily due to reduced tobacco sales."


def _flags(question: str, summary: str, headings: tuple[str, ...], passage: str = RATE) -> list[str]:
    return unsupported(summary, [_quote(RATE)], parse(question), ["Walmart"], "", [passage], [headings])


def test_a_section_s_sentence_told_as_another_part_s_is_flagged() -> None:
    flags = _flags("What drove the change in Walmart International's gross profit rate in fiscal 2020?",
                   "Walmart International's gross profit rate decreased 0.3 percentage points in fiscal 2020, "
                   "primarily due to reduced tobacco sales [4].", ("Sam's Club Segment",))
    assert "[4] is under the heading \u201cSam's Club\u201d" in flags


def test_a_segment_s_sentence_told_as_the_company_s_is_flagged_past_a_measure_s_heading() -> None:
    summary = ("Walmart's gross profit rate decreased 0.3 percentage points in fiscal 2020, primarily due to reduced "
               "tobacco sales [4].")
    question = "What drove the change in Walmart's gross profit rate in fiscal 2020?"
    flags = _flags(question, summary, ("Gross Profit Rate", "Walmart U.S. Segment"))
    assert "[4] is under the heading \u201cWalmart U.S.\u201d" in flags
    # a topic's heading between them ends the segment's section: the consolidated results are the company's
    assert not any("heading" in f for f in _flags(question, summary,
                                                  ("Consolidated Results of Operations", "Walmart U.S. Segment")))


def test_a_section_s_sentence_told_as_its_own_part_s_is_not_flagged() -> None:
    told = ("Sam's Club's gross profit rate decreased 0.3 percentage points in fiscal 2020, primarily due to reduced "
            "tobacco sales [4].")
    question = "What drove the change in Sam's Club's gross profit rate in fiscal 2020?"
    # and the heading names the part asked: the quote's passage names it, though the sentence does not
    assert _flags(question, told, ("Sam's Club Segment",)) == []
    assert any("no quote names" in f for f in _flags(question, told, ()))


def test_a_run_in_heading_in_the_words_asked_is_the_topic_told_not_another_part() -> None:
    """A run-in heading ("Credit Facility") in the words the question and the summary use in lower case ("revolving
    credit facilities") is what they tell of; a segment's is still another part."""
    quote = ("In April 2022, we entered into two new revolving credit facilities in the amounts of $3.0 billion and "
             "$5.0 billion, which will expire in April 2023 and April 2027, respectively.")
    summary = ("Zephyr entered into two new revolving credit facilities of $3.0 billion and $5.0 billion, which will "
               "expire in April 2023 and April 2027, respectively [4].")

    def flags(question: str, lead: str) -> list[str]:
        return unsupported(summary, [_quote(quote, "ZEPHYR_2022_10K", 70)], parse(question), ["Zephyr"], "",
                           [f"{lead} As of December 31, 2022, we have $8.0 billion of revolving credit facilities. "
                            f"{quote}"], [()])

    told = "What revolving credit facilities did Zephyr enter into in April 2022, and when do they expire?"
    assert not any("heading" in f for f in flags(told, "Credit Facility"))
    assert "[4] is under the heading \u201cCloud Platforms\u201d" in flags(told, "Cloud Platforms")


def test_a_note_heading_run_into_the_quote_opens_its_own_section() -> None:
    """"Note 11 - Derivative Financial Instruments We enter into ..." opens a note of its own: the run-in heading of
    the section before it in the passage ("Cloud Platforms") is not the quote's; without the note heading, it is."""
    quote = ("Note 11 - Derivative Financial Instruments We enter into foreign currency forward contracts to mitigate "
             "the impact of foreign currency exchange rate movements on our operating expenses.")
    summary = ("Zephyr enters into foreign currency forward contracts to mitigate the impact of foreign currency "
               "exchange rate movements on its operating expenses [4].")
    question = parse("How does Zephyr hedge its foreign currency risk?")

    def flags(text: str) -> list[str]:
        return unsupported(summary, [_quote(text, "ZEPHYR_2022_10K", 17)], question, ["Zephyr"], "",
                           [f"Cloud Platforms Revenue from the segment grew 10%. {text}"], [()])

    assert not any("heading" in f for f in flags(quote))
    assert "[4] is under the heading \u201cCloud Platforms\u201d" in flags(quote.split("Instruments ")[1])


def test_a_heading_names_a_part_only_where_the_text_uses_it_as_a_name() -> None:
    question = "What drove the change in Lockheed Martin's Rotary and Mission Systems backlog in 2022?"
    quote = ("The decrease in backlog during 2022 compared to 2021 was primarily due to lower orders on GMLRS and "
             "THAAD programs.")
    summary = ("Rotary and Mission Systems' backlog decreased in 2022 compared to 2021, primarily due to lower orders "
               "on GMLRS and THAAD programs [4].")

    def flags(passage: str) -> list[str]:
        return unsupported(summary, [_quote(quote)], parse(question), ["Lockheed Martin"], "", [passage],
                           [("Backlog", "Missiles and Fire Control")])

    # the running text calls the segment by its initials: the heading is a part's
    assert "[4] is under the heading \u201cMissiles and Fire Control\u201d" in flags(
        "Our MFC business segment provides air and missile defense systems. " + quote)
    # nothing uses the heading as a name: a heading such as "Seasonality" or "Human Capital" names no part
    assert not any("heading" in f for f in flags(quote))


def test_retrieval_gives_a_narrative_question_s_passages_their_section_headings(tmp_path: Path) -> None:
    text = ("Gross profit rate decreased 0.3 percentage points in fiscal 2020, primarily due to reduced tobacco "
            "sales and price investments.")
    lib = build_library(tmp_path, [FakeDoc("w", "WALMART_2020_10K", company="Walmart Inc.",
                                           chunks=[("text", 39, text)])])
    # the section's heading ends the page before the passage's (which starts at the top of its page)
    before = _page([*_para(PARAGRAPH, 50, 560, 100)[0], *_line("Sam's Club Segment", 50, 700)], 38)
    lib.store.put_pages("w", [before.to_row(), _page(_para(text, 50, 560, 100)[0], 39).to_row()])
    asked = lib.retriever().retrieve(parse("What drove the change in Walmart's gross profit rate in fiscal 2020?"),
                                     scope=["w"])
    assert [e.headings for e in asked.evidence if e.modality == "text"] == [("Sam's Club Segment",)]
    # a figure's question reads no headings (nothing checks a summary against them)
    value = lib.retriever().retrieve(parse("What was Walmart's gross profit rate in fiscal 2020?"), scope=["w"])
    assert value.evidence and all(e.headings == () for e in value.evidence)


def test_the_asked_part_s_own_section_is_quoted_before_another_part_s() -> None:
    from fakes_models import FakeEmbedder

    from engine.ask.narrative import find_quotes
    from engine.types import Evidence

    def ev(n: int, text: str, heading: str) -> Evidence:
        return Evidence(chunk_id=n, doc_id="w", doc="WALMART_2020_10K", page=37 + n, modality="text", score=0.5,
                        text=text, headings=(heading,))

    # each section's sentence names no segment; only its heading says whose it is
    sams = ev(1, "Gross profit rate decreased 0.3 percentage points in fiscal 2020, primarily due to reduced tobacco "
                 "sales and price investments.", "Sam's Club Segment")
    intl = ev(2, "Gross profit rate increased 0.1 percentage points in fiscal 2020, primarily due to strategic "
                 "sourcing initiatives, partially offset by price investments.", "Walmart International Segment")
    question = parse("What drove the change in Walmart International's gross profit rate in fiscal 2020?")
    assert find_quotes(question, [sams, intl], {}, FakeEmbedder())[0].source == 2
    # with no headings the other segment's sentence, first among the evidence, may lead
    bare = [replace(sams, headings=()), replace(intl, headings=())]
    assert find_quotes(question, bare, {}, FakeEmbedder())[0].source == 1


def test_a_quote_under_its_own_run_in_heading_is_not_told_under_the_heading_above() -> None:
    # the segment's name opens its paragraph on the same line ("Display Technologies The decrease ..."): the heading
    # read above the passage is another table's
    quote = ("Display Technologies The decrease in segment net income was primarily driven by the lower glass volume, "
             "impacting sales, as outlined above.")
    x = _quote(quote, "CORNING_2022_10K", 29, 6)
    flags = unsupported("The decrease in segment net income was primarily driven by the lower glass volume, "
                        "impacting sales, as outlined above.", [x],
                        parse("What drove the change in Corning's Display Technologies net income in 2022?"),
                        ["Corning Incorporated"], "", [quote], [("Hemlock and Emerging Growth Businesses",)])
    assert not any("heading" in f for f in flags)


def test_a_restatement_that_drops_the_quote_s_own_earlier_year_is_flagged() -> None:
    quote = ("Additionally, for fiscal 2019, the increase in net sales was partially offset by a $4.5 billion decrease "
             "in net sales due to club closures in the Sam's Club segment during fiscal 2018.")
    x = _quote(quote, "WALMART_2020_10K", 36, 7)
    q = parse("What drove the change in Walmart's net sales in fiscal 2020?")
    dropped = ("The increase in net sales was partially offset by a $4.5 billion decrease in net sales due to club "
               "closures in the Sam's Club segment during fiscal 2018 [7].")
    assert "[7] is about fiscal 2019" in unsupported(dropped, [x], q, ["Walmart"], "", [quote])
    kept = ("For fiscal 2019, the increase in net sales was partially offset by a $4.5 billion decrease in net sales "
            "due to club closures in the Sam's Club segment during fiscal 2018 [7].")
    assert not any("is about fiscal" in f for f in unsupported(kept, [x], q, ["Walmart"], "", [quote]))


def test_a_division_s_code_as_heading_names_it_and_a_heading_in_capitals_is_read_in_the_text_s_case() -> None:
    from engine.ask.subjects import heading_part, plain_stems

    plain = plain_stems(["PepsiCo, Inc.", "PEPSICO_2021_10K"])
    assert heading_part(("AMESA",), plain, []) == "AMESA"  # a code in capitals: no running text needed
    assert heading_part(("EBIT",), plain, []) == ""  # a measure's code is no division
    texts = ["Revenues increased 12% in Footwear & Apparel's wholesale channel."]
    assert heading_part(("FOOTWEAR & APPAREL",), plain, texts) == "FOOTWEAR & APPAREL"
    assert heading_part(("FOOTWEAR & APPAREL",), plain, []) == ""
    # a heading naming places only is a geographic part's, whatever the text says
    assert heading_part(("EUROPE, MIDDLE EAST & AFRICA",), plain, []) == "EUROPE, MIDDLE EAST & AFRICA"
    assert heading_part(("Greater China",), plain, []) == "Greater China"
    assert heading_part(("Foreign Currency Exposures",), plain, []) == ""


def test_the_part_a_heading_names_counts_as_named_by_its_passage() -> None:
    quote = ("Our SG&A decreased in fiscal 2023, primarily due to lower short-term incentive compensation expense and "
             "decreased store payroll expenses.")
    x = _quote(quote, "BESTBUY_2023_10K", 26, 5)
    q = parse("What drove the change in Best Buy's Domestic segment SG&A in fiscal 2023?")
    summary = ("Domestic segment SG&A decreased in fiscal 2023 due to lower short-term incentive compensation expense "
               "and decreased store payroll expenses [5].")
    assert "[5] does not name \u201cDomestic\u201d" in unsupported(summary, [x], q, ["Best Buy Co., Inc."], "", [quote])
    assert not any("Domestic" in f for f in unsupported(summary, [x], q, ["Best Buy Co., Inc."], "", [quote],
                                                        [("Domestic Segment", "Segment Performance Summary")]))


def test_a_sentence_opening_with_a_division_s_code_is_its_own_section_s() -> None:
    quote = ("PBNA Net revenue increased 12%, primarily driven by effective net pricing and an increase in organic "
             "volume.")
    x = _quote(quote, "PEPSICO_2021_10K", 42, 3)
    flags = unsupported("Effective net pricing drove the increase in PBNA net revenue by 12% [3].", [x],
                        parse("What drove the change in PepsiCo's PBNA net revenue in 2021?"), ["PepsiCo, Inc."], "",
                        [quote], [("QFNA", "FLNA")])
    assert not any("heading" in f for f in flags)


def test_a_claim_put_as_what_a_quote_indicates_is_read_as_the_claim() -> None:
    x = _quote("Intelligent Cloud revenue increased driven by Azure and other cloud services.", "MICROSOFT_2023_10K",
               44, 3)
    q = parse("What drove the change in Microsoft's Intelligent Cloud cost of revenue in fiscal 2023?")
    told = ("[3] indicates that the change in Microsoft's Intelligent Cloud cost of revenue was driven by Azure and "
            "other cloud services.")
    assert "[3] is about \u201crevenue\u201d" in unsupported(told, [x], q, ["Microsoft Corporation"], "", [x.text])


def test_a_change_pointed_back_at_is_the_sentence_before_s_even_an_item_the_vocabulary_does_not_know() -> None:
    passage = ("FISCAL 2023 COMPARED TO FISCAL 2022 Licensing income, net increased from $181 million of licensing "
               "income, net in fiscal 2022 to $280 million in the current fiscal year, primarily due to a net "
               "favorable change in foreign currency conversion gains and losses. This increase was partially offset "
               "by net unfavorable activity related to our strategic distributor partnership transition within APLA.")
    quote = ("This increase was partially offset by net unfavorable activity related to our strategic distributor "
             "partnership transition within APLA.")
    x = _quote(quote, "NIKE_2023_10K", 39, 5)
    q = parse("What drove the change in NIKE's APLA EBIT in fiscal 2023?")

    def flags(subject: str) -> list[str]:
        return unsupported(f"The increase in {subject} was partially offset by net unfavorable activity related to "
                           "the strategic distributor partnership transition within APLA [5].", [x], q, ["NIKE, Inc."],
                           "", [passage])

    assert "[5] is about \u201cLicensing income, net\u201d" in flags("APLA EBIT")
    # a sentence naming the item the quote goes on with is not pointed elsewhere; it is about another item than the
    # APLA EBIT asked, which is flagged as such
    own = flags("licensing income, net")
    assert "[5] is about \u201cLicensing income, net\u201d" not in own
    assert "[5] is about \u201clicensing income\u201d" in own


def test_a_run_in_heading_before_the_quote_in_its_passage_names_whose_it_is() -> None:
    passage = ("Optical Communications The following table provides net sales and net income for the Optical "
               "Communications segment: Net income decreased by $123 million, primarily driven by the changes in "
               "sales. Specialty Materials The following table provides net sales and net income for the Specialty "
               "Materials segment: Net sales increased by $290 million. Net income in the year ended December 31, "
               "2020 increased by $121 million, or 40%, primarily driven by the sales increases and good cost "
               "performance.")
    quote = ("Net income in the year ended December 31, 2020 increased by $121 million, or 40%, primarily driven by "
             "the sales increases and good cost performance.")
    x = _quote(quote, "CORNING_2020_10K", 39, 5)
    q = parse("What drove the change in Corning's Environmental Technologies net income in 2020?")
    told = ("Environmental Technologies net income increased by $121 million, primarily driven by the sales "
            "increases and good cost performance [5].")
    flags = unsupported(told, [x], q, ["Corning Incorporated"], "", [passage], [("Display Technologies",)])
    assert "[5] is under the heading \u201cSpecialty Materials\u201d" in flags
    # a sentence before the quote that only names a subject ("NIKE Direct revenues grew ...") is no heading
    plain_lead = "NIKE Direct revenues grew 13% for fiscal 2018. " + quote
    assert not any("heading" in f for f in unsupported(told, [x], q, ["Corning Incorporated"], "", [plain_lead]))


def test_a_heading_in_capitals_is_a_part_s_beside_a_sibling_heading_naming_the_part_asked() -> None:
    """A filing sets its segments' sections alike: beside a "BRANDX" section (the part asked), the capitals heading
    "CONSUMER HEALTH" names a part though no running text names it; a topic's heading in capitals does
    not. A channel named earlier in the section ("Direct revenues increased 15%") says nothing of whose a quote is."""
    question = "What drove the change in BrandX's EBIT in fiscal 2021?"
    margin = "Reported EBIT increased 14% for fiscal 2021, primarily due to higher revenues and margin expansion."
    own = _quote("Revenues for BrandX increased 4% in fiscal 2021.", doc="ACME_2021_10K", source=2)
    theirs = _quote(margin, doc="ACME_2021_10K", source=5)
    summary = ("BrandX's EBIT increased 14% for fiscal 2021, primarily due to higher revenues and margin expansion "
               "[5].")
    passage = "Direct revenues increased 15%, driven by digital sales. Higher prices added 2 points. " + margin

    def flags(heading: str) -> list[str]:
        return unsupported(summary, [own, theirs], parse(question), ["Acme"], "", [own.text, passage],
                           [("FISCAL 2021 COMPARED TO FISCAL 2020", "BRANDX"),
                            (heading, "FISCAL 2021 COMPARED TO FISCAL 2020")])

    assert "[5] is under the heading \u201cCONSUMER HEALTH\u201d" in flags("CONSUMER HEALTH")
    assert not any("heading" in f for f in flags("SELECTED FINANCIAL DATA"))
    # without a sibling naming the part asked, a heading in capitals no text names is no part's
    assert not any("heading" in f for f in unsupported(
        summary, [theirs], parse(question), ["Acme"], "", [passage],
        [("CONSUMER HEALTH",)]))


def test_the_company_s_name_words_are_no_part_s_however_its_name_is_written() -> None:
    """"Walmart U.S." under a question about Walmart International: the company's word "Walmart" says nothing of
    which part, whether the company is named "Walmart" or "Walmart Inc."."""
    summary = ("Walmart International's gross profit rate decreased 0.3 percentage points in fiscal 2020, primarily "
               "due to reduced tobacco sales [4].")
    question = parse("What drove the change in Walmart International's gross profit rate in fiscal 2020?")
    for company in ("Walmart", "Walmart Inc."):
        flags = unsupported(summary, [_quote(RATE)], question, [company], "", [RATE], [("Walmart U.S. Segment",)])
        assert "[4] is under the heading \u201cWalmart U.S.\u201d" in flags, company


def test_a_period_line_in_any_case_is_a_heading_and_dates_the_passages_below_it() -> None:
    from engine.periods import PERIOD_COMPARISON

    for line in ("Fiscal year 2015 compared with fiscal year 2014", "Fiscal 2018 Compared to Fiscal 2017",
                 "2021 vs. 2020", "2020 v. 2019"):
        assert PERIOD_COMPARISON.match(line), line
    for line in ("Revenue increased in fiscal 2015 compared with fiscal 2014.", "Fiscal 2018 Highlights"):
        assert not PERIOD_COMPARISON.match(line), line
    # the part's heading is read past a period's
    from engine.ask.subjects import heading_part, plain_stems
    assert heading_part(("2020 v. 2019", "Biopharma Segment"), plain_stems(["Acme"]), []) == "Biopharma"
    # a sentence-case period line standing alone is a heading; over two pages, it is kept past the nearest three
    first, y = _para(PARAGRAPH, 50, 560, 100)
    period = _line("Fiscal year 2015 compared with fiscal year 2014", 50, y + 10)
    segment = _line("Productivity and Business Processes", 50, y + 34)
    after, _ = _para(PARAGRAPH, 50, 560, y + 58)
    before = _page(first + period + segment + after, 35)
    assert [h[3] for h in section_headings(before)] == ["Fiscal year 2015 compared with fiscal year 2014",
                                                      "Productivity and Business Processes"]
    top, y2 = _para(PARAGRAPH, 50, 560, 100)
    cloud = _line("Intelligent Cloud", 50, y2 + 10)
    mid, y3 = _para(PARAGRAPH, 50, 560, y2 + 34)
    devices = _line("More Personal Computing", 50, y3 + 10)
    body, _ = _para(PARAGRAPH, 50, 560, y3 + 34)
    page = _page(top + cloud + mid + devices + body, 36)
    assert headings_above([before, page], (50.0, y3 + 34, 560.0, y3 + 80)) == (
        "More Personal Computing", "Intelligent Cloud", "Productivity and Business Processes",
        "Fiscal year 2015 compared with fiscal year 2014")
    assert headings_above([before, page], (50.0, y3 + 34, 560.0, y3 + 80), most=4) == (
        "More Personal Computing", "Intelligent Cloud", "Productivity and Business Processes",
        "Fiscal year 2015 compared with fiscal year 2014")


def test_a_sentence_told_under_two_earlier_years_and_told_for_the_year_asked_is_flagged() -> None:
    """The period a quote sentence is told in is the sentence before it that names years, else the period heading
    above it; told for the year asked without its own years, it is flagged. The sentence a summary is told from is
    the quote sentence sharing the longest run of its words."""
    q = parse("Why did Acme's marketing expense change in fiscal 2018?")
    this_year = _quote("Marketing expense also increased, as higher sponsorship costs were only partially offset by "
                       "lower store display costs.", doc="ACME_2018_10K", source=4)
    last_year = _quote("Marketing expense also grew, primarily driven by higher store display costs.",
                       doc="ACME_2018_10K", source=9)
    summary = "Marketing expense increased due to higher store display costs [9]."
    headings = [("Fiscal 2018 Compared to Fiscal 2017",), ("Segment Results", "Fiscal 2017 Compared to Fiscal 2016")]
    flags = unsupported(summary, [this_year, last_year], q, ["Acme"], "", [this_year.text, last_year.text], headings)
    assert "[9] is about fiscal 2017" in flags
    # told with its own years, or told from this year's sentence, it is not
    assert "[9] is about fiscal 2017" not in unsupported(
        "In fiscal 2017, marketing expense increased due to higher store display costs [9].", [this_year, last_year],
        q, ["Acme"], "", [this_year.text, last_year.text], headings)
    assert not any("is about fiscal" in f for f in unsupported(
        "Marketing expense increased, as higher sponsorship costs were only partially offset by lower store display "
        "costs [4].", [this_year, last_year], q, ["Acme"], "", [this_year.text, last_year.text], headings))
    # "This increase ..." after a sentence comparing two earlier years is that sentence's
    pointing = _quote("This increase was attributable to growth in volume processed of $11.9 billion.",
                      doc="ACME_2018_10K", source=7)
    passage = ("Processing costs for the year ended December 31, 2016, increased by $14.5 million compared to the year "
               "ended December 31, 2015. " + pointing.text)
    q2 = parse("What drove the change in Acme's processing costs in 2017?")
    assert "[7] is about fiscal 2016" in unsupported(
        "The increase in processing costs in 2017 was driven by growth in volume processed of $11.9 billion [7].",
        [pointing], q2, ["Acme"], "", [passage], [()])
    current = passage.replace("2016", "2017").replace("2015", "2016")
    assert not any("is about fiscal" in f for f in unsupported(
        "The increase in processing costs in 2017 was driven by growth in volume processed of $11.9 billion [7].",
        [pointing], q2, ["Acme"], "", [current], [()]))


def test_a_quote_naming_the_part_asked_or_under_the_part_asked_as_owner_is_not_under_another_heading() -> None:
    surface = _quote("Gadget revenue increased $486 million or 13%, primarily driven by the release of the Gadget Pro "
                     "tablets and notebook computers in the second quarter.", doc="ACME_2016_10K", source=6)
    told = ("Gadget revenue increased $486 million or 13%, primarily driven by the release of the Gadget Pro tablets "
            "and notebook computers in the second quarter [6].")
    assert not any("heading" in f for f in unsupported(
        told, [surface], parse("Why did Acme's Gadget revenue change in fiscal 2016?"), ["Acme"], "", [surface.text],
        [("Devices and Consumer Segment",)]))
    win = _quote("Table games revenue increased 12% compared to the prior year period due to new rooms.",
                 doc="ACME_2018_10K", source=3)
    told = "Table games revenue increased 12% compared to the prior year period due to new rooms [3]."
    # the part asked as the owner of what is asked ("Acme Macau's Table Games revenue") is the heading's
    assert not any("heading" in f for f in unsupported(
        told, [win], parse("What drove the change in Acme Macau's Table Games revenue in 2018?"), ["Acme"], "",
        [win.text], [("Acme Macau Segment",)]))
    assert "[3] is under the heading \u201cAcme Macau\u201d" in unsupported(
        told, [win], parse("What drove the change in Acme Vegas's Table Games revenue in 2018?"), ["Acme"], "",
        [win.text], [("Acme Macau Segment",)])


def test_a_heading_over_a_table_s_header_and_one_in_a_passage_s_first_lines_head_it() -> None:
    link = _line("Table of Contents", 18, 28)  # the page's link back, in its top margin
    head = _line("Europe, Middle East & Africa", 18, 57)
    columns = _line("% Change % Change", 356, 70)  # a table's header right under it, off to the right
    body, _ = _para(PARAGRAPH, 18, 560, 120)
    page = _page(link + head + columns + body, 30)
    assert [h[3] for h in section_headings(page)] == ["Europe, Middle East & Africa"]
    # the passage is stored from the page's top, its heading among its first lines: it is told under it
    before = _page([*_para(PARAGRAPH, 50, 560, 100)[0], *_line("North America", 50, 700)], 29)
    assert headings_above([before, page], (18.0, 28.0, 560.0, 300.0))[0] == "Europe, Middle East & Africa"


def test_a_topic_s_heading_run_into_a_sentence_names_no_part() -> None:
    from engine.ask.subjects import opening_part, plain_stems

    plain = plain_stems(["Acme"])
    assert opening_part("Display Technologies The decrease in segment net income was due to lower volume.", plain,
                        run_in=True) == "Display Technologies"
    assert opening_part("Juice Transaction The sale of our juice brands closed in January.", plain, run_in=True) == ""


def test_a_place_opening_the_quote_s_subject_names_whose_its_driver_is() -> None:
    q = parse("What drove the change in billed business in Acme's Commercial Services segment in 2022?")
    x = _quote("International billed business grew by 23 percent year-over-year (36 percent on an FX-adjusted basis), "
               "driven by a strong recovery in spend across both consumer and commercial customers.",
               doc="ACME_2022_10K", source=4)
    told = ("The change in billed business in Acme's Commercial Services segment in 2022 was driven by a strong "
            "recovery in spend across both consumer and commercial customers [4].")
    assert "[4] is about \u201cInternational billed business\u201d" in unsupported(told, [x], q, ["Acme"])
    own = replace(x, text=x.text.replace("International billed business", "Commercial Services billed business"))
    assert not any("is about" in f for f in unsupported(told, [own], q, ["Acme"]))


def test_a_topic_s_heading_run_into_the_passage_ends_the_section_above() -> None:
    q = parse("What drove the change in Acme's other pension income in 2021?")
    x = _quote("Other pension income increased $405 million, primarily reflecting lower settlement charges and gains "
               "on plan assets.", doc="ACME_2021_10K", source=3)
    told = ("Other pension income increased $405 million, primarily reflecting lower settlement charges and gains on "
            "plan assets [3].")
    after_topic = "Operating profit in the division grew 10%. Other Consolidated Results " + x.text
    assert not any("heading" in f for f in unsupported(told, [x], q, ["Acme"], "", [after_topic],
                                                      [("Greater China",)]))
    in_section = "Operating profit in the division grew 10%. " + x.text
    assert "[3] is under the heading \u201cGreater China\u201d" in unsupported(told, [x], q, ["Acme"], "", [in_section],
                                                                        [("Greater China",)])


def test_a_year_to_date_section_s_sentence_told_for_the_quarter_asked_is_flagged() -> None:
    """An interim report tells the quarter, then the year to date, in sections alike: a sentence of the
    "Year-to-date results" section (or run in after "Six Months Ended") told for the quarter asked is flagged; the
    quarter's own section's is not."""
    q = parse("What drove the change in Acme's card fees in the second quarter of 2022?")
    x = _quote("Card fees increased as a result of: • higher interchange fees in Consumer, and • higher cash "
               "management fees in Commercial driven by growth in transaction volume.", doc="ACME_2022Q2_10Q", source=6)
    told = ("Card fees increased as a result of higher interchange fees in Consumer and higher cash management fees in "
            "Commercial driven by growth in transaction volume [6].")
    ytd = "Year-to-date results Investment fees decreased, reflecting lower underwriting fees. " + x.text
    assert "[6] is about the year to date" in unsupported(told, [x], q, ["Acme"], "", [ytd], [()])
    quarter = "Quarterly results Investment fees decreased, reflecting lower underwriting fees. " + x.text
    assert not any("year to date" in f for f in unsupported(told, [x], q, ["Acme"], "", [quarter], [()]))
    # the section heading above, where the passage runs in none
    assert "[6] is about the year to date" in unsupported(told, [x], q, ["Acme"], "", [x.text],
                                                          [("Year-to-date results", "Revenue")])
    # a quarter named among its drivers is no period of its own
    marks = replace(x, text=x.text.replace("volume.", "volume, and markdowns in the second quarter of 2022."))
    assert "[6] is about the year to date" in unsupported(told, [marks], q, ["Acme"], "", [ytd.replace(x.text,
                                                                                                    marks.text)], [()])


def test_a_span_section_s_line_is_a_heading() -> None:
    first, y = _para(PARAGRAPH, 50, 560, 100)
    head = _line("Year-to-date results", 50, y + 10)
    second, _ = _para(PARAGRAPH, 50, 560, y + 34)
    assert [h[3] for h in section_headings(_page(first + head + second))] == ["Year-to-date results"]
    from engine.ask.subjects import heading_part, plain_stems
    assert heading_part(("Year-to-date results", "Card Segment"), plain_stems(["Acme"]), []) == "Card"


def test_the_heading_named_is_that_of_the_quote_the_sentence_is_told_from() -> None:
    q = parse("What drove Acme's SG&A in the first six months of fiscal 2024?")
    intl = _quote("Our SG&A decreased in the second quarter and first six months of fiscal 2024, primarily due to the "
                  "favorable impact of foreign currency exchange rates and lower store payroll expense, partially "
                  "offset by higher incentive compensation expense.", doc="ACME_2024Q2_10Q", source=6)
    home = _quote("Our SG&A in the first six months of fiscal 2024 decreased primarily due to lower store payroll "
                  "expense, partially offset by higher incentive compensation expense.", doc="ACME_2024Q2_10Q",
                  source=4)
    told = ("The first six months of fiscal 2024 saw a decrease in Acme's SG&A, primarily due to lower store payroll "
            "expense, partially offset by higher incentive compensation expense.")
    flags = unsupported(told, [intl, home], q, ["Acme"], "", [intl.text, home.text],
                        [("International Segment",), ("Domestic Segment",)])
    assert "[4] is under the heading \u201cDomestic\u201d" in flags
    assert "[6] is under the heading \u201cInternational\u201d" not in flags


def test_a_quarter_named_among_the_drivers_or_a_sentence_opening_like_the_quarter_s_does_not_mislead() -> None:
    q = parse("What drove the change in Acme's other expense in the second quarter of 2022?")
    quarter = ("Other expense increased as a result of: • higher investments, and • higher travel, partially offset "
               "by • lower legal expense.")
    ytd = ("Other expense increased as a result of: • higher investments, and • higher travel and regulatory "
           "assessments.")
    passage = f"Quarterly results {quarter} Year-to-date results {ytd}"
    x = _quote(ytd, doc="ACME_2022Q2_10Q", source=2)
    told = "Other expense increased as a result of higher investments and higher travel and regulatory assessments [2]."
    # the year to date's sentence opens as the quarter's: the passage before it is read at its own place
    assert "[2] is about the year to date" in unsupported(told, [x], q, ["Acme"], "", [passage], [()])
    own = _quote(quarter, doc="ACME_2022Q2_10Q", source=2)
    assert not any("year to date" in f for f in unsupported(
        "Other expense increased as a result of higher investments and higher travel, partially offset by lower "
        "legal expense [2].", [own], q, ["Acme"], "", [passage], [()]))
    # two lists of one passage open alike: a sentence telling the quarter's whole is the quarter's
    both = [x, own]
    assert not any("year to date" in f for f in unsupported(
        "Other expense increased as a result of: higher investments; higher travel, partially offset by lower legal "
        "expense.", both, q, ["Acme"], "", [passage, passage], [(), ()]))
    # a first-half question: a quarter named among the drivers tells no quarter
    half = parse("What drove the change in Acme's loans in the first half of 2022?")
    loans = _quote("Loans increased driven by growth in Card in the second quarter of 2022 and higher revolver "
                   "utilization in CB.", doc="ACME_2022Q2_10Q", source=4)
    assert not any("year to date" in f for f in unsupported(
        "The increase in loans was driven by growth in Card in the second quarter of 2022 and higher revolver "
        "utilization in CB [4].", [loans], half, ["Acme"], "", ["Year-to-date results " + loans.text], [()]))

"""Routing: company, year or quarter, and form named in a question pick the filings; nothing named, no route.

Companies are known only by what their filings say (name, tickers, former names): the library below is made of
invented companies, so nothing here can pass by a list of real ones.
"""

from __future__ import annotations

from engine.ask.routing import company_aliases, doc_years, name_forms, route, without_company
from engine.types import Document


def doc(id: str, name: str, company: str = "", form: str = "", period: str = "", tickers: tuple[str, ...] = (),
        former: tuple[str, ...] = ()) -> Document:
    return Document(id=id, sha256=id, path=f"/x/{name}.pdf", name=name, pages=10, status="ready", company=company,
                    form_type=form, fiscal_period=period, tickers=list(tickers), former_names=list(former))


LIBRARY = [
    doc("qm18", "QM_2018_10K", "9Q COMPANY", "10-K", "FY2018"),
    doc("qm22", "QM_2022_10K", "9Q Company", "10-K", "FY2022", ("NQM",)),
    doc("orch1", "2023 Q1 ORCH", "Orchard Devices Inc.", "10-Q", "2022-12-31", ("ORCH",)),
    doc("orch2", "2023 Q2 ORCH", "Orchard Devices Inc.", "10-Q", "2023-04-01", ("ORCH",)),
    doc("fine23", "FB_2023_10K", "Fine Buy Co., Inc.", "10-K", "FY2023", ("FNB",)),
    doc("lex22", "lx-10-k-q4-2022", "Lexicon Holdings Inc.", "10-K", "FY2022", ("LEXA", "LEX")),
    doc("riv17", "RV_2017_10K", "Riverstream.com, Inc.", "10-K", "FY2017", ("RVST",)),
    doc("tok18", "TK_2018_10K", "Tokay Resorts International", "10-K", "FY2018"),
    doc("sq16", "BL_2016_10K", "Plaza, Inc.", "10-K", "FY2016", ("PLZA",), ("Quadrant Payments, Inc.",)),
    doc("mj22", "MJ_2022_10K", "Marlow & Marlow", "10-K", "FY2022", ("MAM",)),
    doc("all21", "AL_2021_10K", "The Allwell Corporation", "10-K", "FY2021", ("ALL",)),
]


def test_company_and_fiscal_year() -> None:
    r = route("What is the FY2018 capital expenditure amount (in USD millions) for 9Q?", LIBRARY)
    assert r.doc_ids == ["qm18"]
    assert r.matched["year"] == ["2018"] and "9q" in r.matched["company"]


def test_company_year_and_quarter() -> None:
    assert route("Orchard Devices 2023 Q1 operating expenses", LIBRARY).doc_ids == ["orch1"]
    assert route("How did Orchard Devices' revenue in the second quarter of 2023 compare?",
                 LIBRARY).doc_ids == ["orch2"]


def test_short_forms_of_the_registered_name() -> None:
    assert route("Are Fine Buy's gross margins consistent?", LIBRARY).doc_ids == ["fine23"]
    assert route("FineBuy inventory turnover", LIBRARY).doc_ids == ["fine23"]
    assert route("What were Lexicon's current assets in 2021?", LIBRARY).doc_ids == ["lex22"]
    assert route("Riverstream's FY2017 days payable outstanding", LIBRARY).doc_ids == ["riv17"]
    assert route("Tokay Resorts revenue", LIBRARY).doc_ids == ["tok18"]
    assert route("Tokay revenue by segment", LIBRARY).doc_ids == ["tok18"]
    assert route("Marlow and Marlow's gross margin", LIBRARY).doc_ids == ["mj22"]


def test_tickers_are_whole_capital_tokens_or_dollar_tags() -> None:
    assert route("ORCH revenue in 2023", LIBRARY).doc_ids == ["orch1", "orch2"]
    assert route("what did $orch report in 2023", LIBRARY).doc_ids == ["orch1", "orch2"]
    assert route("LEX cash flow in 2022", LIBRARY).doc_ids == ["lex22"]
    assert route("Did MaM's net earnings grow?", LIBRARY).doc_ids == ["mj22"]  # written with a capital inside
    assert route("orch revenue", LIBRARY).doc_ids == []  # a lower-case word is not a ticker
    assert route("All segments' revenue", LIBRARY).doc_ids == []  # ALL is a ticker, "All" a word
    assert route("What did ALL report for 2021?", LIBRARY).doc_ids == ["all21"]
    assert route("Total revenue of ORCHX? NQMX? XNQM? $NQMX?", LIBRARY).doc_ids == []  # parts of tokens


def test_brand_contractions_of_a_two_word_name() -> None:
    lib = [*LIBRARY, doc("nx22", "NX_2022_10K", "Northern Exchange Company", "10-K", "FY2022", ("NXC",))]
    assert route("Does NOREX have an improving operating margin as of 2022?", lib).doc_ids == ["nx22"]
    assert route("What did NoEx report for 2022?", lib).doc_ids == ["nx22"]
    assert route("Is a noex a thing?", lib).doc_ids == []  # a lower-case word is not a brand
    assert route("FIBU revenue", lib).doc_ids == ["fine23"]  # Fine Buy
    assert "NOEX" in company_aliases(doc("x", "X", "Northern Exchange Holdings Group Inc."))  # descriptors dropped
    assert not {a for a in company_aliases(LIBRARY[7]) if a.isupper()}  # Tokay Resorts International: "tokay"


def test_one_word_names_must_be_capitalised() -> None:
    assert route("Which plaza segments grew?", LIBRARY).doc_ids == []
    assert route("Which Plaza segments grew?", LIBRARY).doc_ids == ["sq16"]
    assert route("which plaza segments grew?", LIBRARY).doc_ids == ["sq16"]  # a question all in lower case


def test_the_first_word_of_a_name_is_a_weaker_short_form() -> None:
    lib = [doc("lw", "LW_2022_10K", "Lockwood Marten Corporation", "10-K", "FY2022"),
           doc("hf", "HF_2022_10K", "Harbor Freightways Inc.", "10-K", "FY2022"),
           doc("hl", "HL_2022_10K", "Harbor Lights Inc.", "10-K", "FY2022"),
           doc("gm", "GM_2022_10K", "General Millers, Inc.", "10-K", "FY2022")]
    assert route("What was Lockwood's backlog in 2022?", lib).doc_ids == ["lw"]
    assert route("Lockwood's backlog in 2022", lib).doc_ids == ["lw"]
    assert route("Lockwood backlog in 2022", lib).doc_ids == []  # a capital at the start may be the sentence's
    assert route("What did Harbor report?", lib).doc_ids == []  # two companies' names start so
    assert route("What did Harbor Lights report?", lib).doc_ids == ["hl"]
    assert route("What was General and administrative expense?", lib).doc_ids == []  # a generic word
    # a generic first word: the first two words of a longer name are its short form
    lib = [*lib, doc("aw", "AW_2022_10K", "American Waterways Works Company, Inc.", "10-K", "FY2022")]
    assert route("What explains American Waterways' cash flows in 2022?", lib).doc_ids == ["aw"]
    assert route("What did American report?", lib).doc_ids == []


def test_former_names_route() -> None:
    assert route("What did Quadrant Payments earn in 2016?", LIBRARY).doc_ids == ["sq16"]


def test_the_longer_of_two_names_wins() -> None:
    lib = [doc("grp", "G_2021", "Vetra Group", "", "FY2021"),
           doc("fin", "F_2022", "Vetra Finance N.V.", "", "FY2022")]
    assert route("Interest income of Vetra Finance in 2022", lib).doc_ids == ["fin"]
    assert route("Vetra revenue", lib).doc_ids == ["grp", "fin"]
    assert route("Vetra Group revenue", lib).doc_ids == ["grp", "fin"]  # a group and its parts are one company


def test_form_narrows_only_when_it_matches() -> None:
    assert route("Orchard Devices 10-Q revenue in 2023", LIBRARY).doc_ids == ["orch1", "orch2"]
    assert route("Orchard Devices 10-K revenue in 2023", LIBRARY).doc_ids == ["orch1", "orch2"]


def test_nothing_named_means_no_route() -> None:
    r = route("What was total restricted cash at year end?", LIBRARY)
    assert r.doc_ids == [] and r.reason == ""
    assert route("Describe the NQM segments", LIBRARY).doc_ids == ["qm22"]  # a ticker is a name


def companies_named(question: str, documents: list[Document]) -> dict[str, list[str]]:
    """Document id -> the aliases of its company the question names, as ``parse`` reads them."""
    from engine.ask.question import parse

    return {doc_id: list(aliases) for doc_id, aliases in parse(question, documents).companies.items()}


def test_companies_named_maps_documents_to_the_aliases_found() -> None:
    named = companies_named("Compare Orchard Devices with RVST", LIBRARY)
    assert named == {"orch1": ["orchard devices"], "orch2": ["orchard devices"], "riv17": ["RVST"]}
    assert companies_named("What is working capital?", LIBRARY) == {}


def test_aliases_and_years() -> None:
    assert company_aliases(LIBRARY[0]) == {"9q"}
    assert company_aliases(LIBRARY[4]) == {"fine buy", "fine", "FNB", "FIBU", "FIBUY", "FINBU", "FINBUY"}
    assert company_aliases(LIBRARY[8]) == {"plaza", "quadrant payments", "PLZA"}
    assert name_forms("The Goldvale Sachs Group, Inc.") == {"goldvale sachs"}
    assert name_forms("Tokay Resorts International") == {"tokay resorts international", "tokay resorts", "tokay"}
    assert name_forms("Arbor & Co.") == {"arbor"}
    assert name_forms("Vetra Finance N.V.") == {"vetra finance", "vetra"}
    exact, covered = doc_years(LIBRARY[0])
    assert exact == {2018} and covered == {2016, 2017, 2018}


def test_a_year_routes_to_its_report_and_the_next_annual_report_that_restates_it() -> None:
    gs = [doc("gs21", "2021-10-k", "The Goldvale Sachs Group, Inc.", "10-K", "FY2021"),
          doc("gs22", "2022-10-k", "The Goldvale Sachs Group, Inc.", "10-K", "FY2022"),
          doc("gs23", "2023-10-k", "The Goldvale Sachs Group, Inc.", "10-K", "FY2023"),
          doc("lex21", "20220202-lexicon-10k", "Lexicon Inc.", "10-K", "FY2021")]
    assert route("What were Goldvale Sachs's net earnings in 2021?", gs).doc_ids == ["gs21", "gs22"]
    assert route("What were Goldvale Sachs's net earnings in 2023?", gs).doc_ids == ["gs23"]
    # a date run together in a file name is a filing date, not the fiscal year
    assert doc_years(gs[3])[0] == {2021}
    assert route("Lexicon's revenue in 2022?", gs).doc_ids == ["lex21"]  # no 2022 filing: the company's filings


def test_a_year_the_later_filing_does_not_cover_keeps_its_own_filing() -> None:
    pf = [doc("pf21", "PF_2021_10K", "Pinefield Inc.", "10-K", "FY2021"),
          doc("pf23", "PF_2023Q2_10Q", "Pinefield Inc.", "10-Q", "2023Q2")]
    # the 10-Q goes back to December 2022 only: December 2021 is the 10-K's
    assert route("How did Pinefield's long-term debt change from December 31, 2021 to July 2, 2023?",
                 pf).doc_ids == ["pf23", "pf21"]
    # the quarter is of the year written with it; the year written alone is a year
    assert route("Compare Pinefield's cash at year-end 2021 with the balance at the end of Q2 2023.",
                 pf).doc_ids == ["pf23", "pf21"]
    # a year the later report covers (its balance sheet's December 2022 column): that report alone
    assert route("Pinefield's debt at year-end 2022 against the end of Q2 2023?", pf).doc_ids == ["pf23"]


def test_a_company_that_writes_its_name_in_lower_case_is_named_in_lower_case() -> None:
    brand = Document(id="b1", sha256="", path="x.pdf", name="x", pages=1, status="ready", company="zelkova")
    plain = Document(id="p1", sha256="", path="y.pdf", name="y", pages=1, status="ready", company="Block")
    assert companies_named("What are the total revenues of zelkova?", [brand, plain]) == {"b1": ["zelkova"]}
    assert companies_named("How is a block of shares priced?", [brand, plain]) == {}


def test_the_scope_companys_name_is_left_out_of_the_search() -> None:
    from engine.ask.question import parse

    orchard = [d for d in LIBRARY if d.id.startswith("orch")]
    asked = parse("Which regions does Orchard Devices primarily operate in?", LIBRARY)
    assert without_company(asked, orchard) == (
        "Which regions does primarily operate in?")
    assert without_company(parse("What drove Orchard's gross margin in Q2?", LIBRARY), orchard) == (
        "What drove gross margin in Q2?")
    assert without_company(parse("Did ORCH buy back shares?", LIBRARY), orchard) == "Did buy back shares?"
    # another company's name stays (it is what the question is about), and so does a scope of two companies
    assert without_company(parse("Does Fine Buy supply Orchard Devices?", LIBRARY), [LIBRARY[4]]) == (
        "Does supply Orchard Devices?")
    two = [LIBRARY[2], LIBRARY[4]]
    assert without_company(parse("Compare Orchard Devices and Fine Buy revenue", LIBRARY), two) == (
        "Compare Orchard Devices and Fine Buy revenue")
    # nothing left to search with
    assert without_company(parse("Orchard Devices?", LIBRARY), orchard) == "Orchard Devices?"


def test_no_period_named_means_the_companys_current_reports() -> None:
    lib = [doc("k17", "BX_2017_10K", "Boxwell Stores Inc.", "10-K", "FY2017"),
           doc("k23", "BX_2023_10K", "Boxwell Stores Inc.", "10-K", "FY2023"),
           doc("q24", "BX_2024Q2_10Q", "Boxwell Stores Inc.", "10-Q", "2023-07-29"),
           doc("e24", "BX_8K_2024", "Boxwell Stores Inc.", "8-K", "FY2024"),
           doc("p21", "PF_2021_10K", "Parkfield Labs Inc.", "10-K", "FY2021"),
           doc("p23", "PF_2023Q2_10Q", "Parkfield Labs Inc.", "10-Q", "2023-07-02")]
    # the newest report and the annual report it updates; an older 10-K is superseded; an 8-K reports no period
    r = route("How does Boxwell record merchandise inventories?", lib)
    assert r.doc_ids == ["k23", "q24", "e24"] and r.matched["current"] == ["newest"]
    # an annual report two years before the newest 10-Q is not the one it updates
    assert route("How much does Parkfield expect to pay for the separation?", lib).doc_ids == ["p23"]
    # a form named: that form's newest; a year named: that year's filings; several periods asked: all of them
    assert route("What acquisitions does Boxwell's 10-K describe?", lib).doc_ids == ["k23"]
    assert route("Boxwell's revenue in 2017", lib).doc_ids == ["k17"]
    assert route("How has Boxwell's gross margin changed over time?", lib).doc_ids == ["k17", "k23", "q24", "e24"]
    # two registrants of one group are not one company's reports
    arms = [doc("grp", "G_2021", "Vetra Group", "10-K", "FY2021"),
            doc("fin", "F_2022", "Vetra Finance N.V.", "10-K", "FY2022")]
    assert route("Vetra revenue", arms).doc_ids == ["grp", "fin"]


def test_a_period_without_a_company_routes_to_the_filings_that_report_it() -> None:
    lib = [doc("k23", "BX_2023_10K", "Boxwell Stores Inc.", "10-K", "FY2023"),
           doc("q24", "BX_2024Q2_10Q", "Boxwell Stores Inc.", "10-Q", "2023-07-29"),
           doc("p21", "PF_2021_10K", "Parkfield Labs Inc.", "10-K", "FY2021"),
           doc("deck", "investor-day", "Parkfield Labs Inc.", "", "")]
    # a library of one company's filings is asked without its name; a deck's period cannot be read: it stays
    r = route("Was there any drop in cash between FY 2023 and Q2 of FY2024?", lib)
    assert r.doc_ids == ["q24", "deck"] and "company" not in r.matched
    assert route("What was revenue in 2021?", lib).doc_ids == ["p21", "deck"]
    # nothing narrowed: no route (the whole library is searched)
    assert route("What was revenue in 2030?", lib).doc_ids == []
    assert route("What was total restricted cash at year end?", lib).doc_ids == []


def _dated(id: str, name: str, company: str, period: str, cover: str) -> Document:
    """A 10-Q whose fiscal period is the date its quarter ends, with the calendar its cover gives."""
    from dataclasses import replace

    from engine.periods import read_calendar

    calendar = read_calendar([cover]).to_json()
    return replace(doc(id, name, company, "10-Q", period), calendar=calendar)


def test_a_quarter_ended_on_a_date_is_of_the_fiscal_year_its_filer_names() -> None:
    # the quarter ended July 29, 2023 is the second quarter of fiscal 2024 to this January year-end filer; its
    # period's calendar year (2023) is not a fiscal year it reports, so a question about the fiscal year ended
    # January 28, 2023 goes to that year's 10-K alone, and one about fiscal 2024 to the 10-Q
    cover = ("FORM 10-Q For the quarterly period ended July 29, 2023. Fine Buy Co., Inc. Results for the second "
             "quarter of fiscal 2024. Our fiscal year ends on the Saturday nearest the end of January. The second "
             "quarter of fiscal 2024 included 13 weeks ended July 29, 2023.")
    q2 = _dated("fine24q2", "FB_2024Q2_10Q", "Fine Buy Co., Inc.", "2023-07-29", cover)
    library = [doc("fine23", "FB_2023_10K", "Fine Buy Co., Inc.", "10-K", "FY2023"), q2]
    assert doc_years(q2)[0] == {2024}
    assert doc_years(doc("q2", "FB_2024Q2_10Q", "Fine Buy Co., Inc.", "10-Q", "2023-07-29"))[0] == {2023, 2024}
    assert route("Fine Buy's capitalization ratio for the fiscal year ending January 28, 2023?", library).doc_ids \
        == ["fine23"]
    assert route("Fine Buy's revenue in the second quarter of fiscal 2024?", library).doc_ids == ["fine24q2"]
    # a date the question names still finds the filing whose period ends on it
    assert "fine24q2" in route("Fine Buy's cash as of July 29, 2023?", library).doc_ids


def test_a_dated_quarter_of_a_filer_naming_its_year_by_the_next_calendar_year() -> None:
    # a filer whose fiscal 2024 began on January 30, 2023: its quarter ended April 30, 2023 is of fiscal 2024, as
    # its cover says, while the file is named by the calendar year
    cover = ("FORM 10-Q For the quarterly period ended April 30, 2023. Nimbus Graphics Corporation. First quarter "
             "of fiscal year 2024. Our fiscal year 2024 is a 52-week year ending January 28, 2024.")
    q1 = _dated("nim1", "2023 Q1 NMBS", "Nimbus Graphics Corporation", "2023-04-30", cover)
    library = [q1, _dated("nim0", "2022 Q3 NMBS", "Nimbus Graphics Corporation", "2022-10-30", cover.replace(
        "April 30, 2023", "October 30, 2022").replace("First quarter of fiscal year 2024", "Third quarter of fiscal "
                                                      "year 2023"))]
    assert 2024 in doc_years(q1)[0]
    assert route("What were Nimbus's revenues in the first quarter of fiscal 2024?", library).doc_ids == ["nim1"]
    # a date still finds its quarter: the balance at the end of the quarter ended October 30, 2022
    assert route("Nimbus's cash as of October 30, 2022?", library).doc_ids == ["nim0"]

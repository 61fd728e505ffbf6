"""Retrieval with fakes: tiers, thresholds, hybrid fusion, routing, scope, reranking, invalidation."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest
from fakes_models import FakeLLM
from test_retrieve_lib import INCOME_TABLE, FakeDoc, acme_docs, add_docs, build_library

from engine.ask.question import FIGURE_WORDS
from engine.ask.retrieve import Candidate, rrf, select_tiers
from engine.errors import AnswerError, ModelError
from engine.models.cross_encoder import LLMReranker, build


def test_select_tiers_text_alone_when_enough_text_passes() -> None:
    text = [(i, 0.9 - i * 0.01) for i in range(8)]
    tables = [(100, 0.95)]
    ranked, tier = select_tiers(text, tables, [], {"text": 0.5, "table": 0.5, "image": 0.5}, n=6, m=4, p=3, k=10)
    assert tier == "text"
    assert all(c.modality == "text" for c in ranked)


def test_margin_escalation_lets_a_better_table_join_plentiful_text() -> None:
    theta = {"text": 0.5, "table": 0.3, "image": 0.4}
    text = [(i, 0.62 - i * 0.01) for i in range(8)]  # 8 pass; the 6th clears theta_text by 0.07
    strong_table = [(100, 0.45)]  # clears theta_table by 0.15
    ranked, tier = select_tiers(text, strong_table, [], theta, n=6, m=4, p=3, k=10, escalation="margin")
    assert tier == "text+tables+figures" and ranked[0].chunk_id == 100
    ranked, tier = select_tiers(text, strong_table, [], theta, n=6, m=4, p=3, k=10, escalation="count")
    assert tier == "text" and 100 not in [c.chunk_id for c in ranked]
    weak_table = [(100, 0.35)]  # clears by 0.05 < 0.07: text alone
    ranked, tier = select_tiers(text, weak_table, [], theta, n=6, m=4, p=3, k=10, escalation="margin")
    assert tier == "text" and 100 not in [c.chunk_id for c in ranked]
    # a strong figure escalates too; with no tables or figures at all, text stays alone
    _, tier = select_tiers(text, [], [(200, 0.6)], theta, n=6, m=4, p=3, k=10, escalation="margin")
    assert tier == "text+tables+figures"
    _, tier = select_tiers(text, [], [], theta, n=6, m=4, p=3, k=10, escalation="margin")
    assert tier == "text"


def test_select_tiers_falls_back_to_top_m_tables_and_p_figures_above_theta() -> None:
    text = [(1, 0.6), (2, 0.3)]
    tables = [(10, 0.9), (11, 0.8), (12, 0.7), (13, 0.2)]
    images = [(20, 0.7), (21, 0.65), (22, 0.1)]
    theta = {"text": 0.5, "table": 0.5, "image": 0.5}
    ranked, tier = select_tiers(text, tables, images, theta, n=6, m=2, p=1, k=10)
    assert tier == "text+tables+figures"
    ids = [c.chunk_id for c in ranked]
    assert 10 in ids and 11 in ids and 12 not in ids and 13 not in ids  # top m=2 above theta
    assert 20 in ids and 21 not in ids  # top p=1
    assert ids[0] == 10  # ranked by margin over the modality's threshold
    assert {c.tier for c in ranked if c.modality == "table"} == {2}


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("How many charts compare only the US and Europe?", True),
        ("In figure 5, what is the color of the line?", True),
        ("Which slide shows the exit multiples?", True),
        ("What are the revenue figures for 2022?", False),  # "figures" alone means numbers
        ("What was the total revenue in FY2023?", False),
    ],
)
def test_a_question_about_a_chart_reaches_the_figures_whatever_their_score(question: str, named: bool) -> None:
    assert bool(FIGURE_WORDS.search(question)) is named
    text = [(i, 0.9) for i in range(1, 8)]  # plenty of strong text: tier 1 on its own
    images = [(20, 0.2), (21, 0.1)]  # figure summaries rarely repeat the question's words
    theta = {"text": 0.5, "table": 0.5, "image": 0.5}
    ranked, tier = select_tiers(text, [], images, theta, n=6, m=4, p=1, k=10, figures_named=named)
    ids = [c.chunk_id for c in ranked]
    if named:
        assert tier == "text+tables+figures" and 20 in ids and 21 not in ids  # top p, below theta
    else:
        assert tier == "text" and 20 not in ids


def test_rrf_merges_channels_and_keeps_dense_score() -> None:
    dense = [Candidate(1, "text", 0.8), Candidate(2, "text", 0.7)]
    lex = [Candidate(3, "table", 12.0, 2, "bm25"), Candidate(2, "text", 9.0, 1, "bm25")]
    fused = rrf([dense, lex])
    assert fused[0].chunk_id == 2 and fused[0].channel == "dense+bm25" and fused[0].score == 0.7
    assert {c.chunk_id for c in fused} == {1, 2, 3}


def test_tier_reported_and_thresholds_from_settings(tmp_path: Path) -> None:
    lib = build_library(tmp_path, acme_docs())
    r = lib.retriever(theta_text=0.99, theta_table=0.1, hybrid=False, routing=False).retrieve("revenue 2023", k=5)
    assert r.tier == "text+tables+figures"
    assert r.thresholds["text"] == 0.99
    assert any(e.modality == "table" for e in r.evidence) or any(e.modality == "image" for e in r.evidence)
    r1 = lib.retriever(theta_text=0.0, min_text_hits=2, hybrid=False, routing=False, statement_channel=False).retrieve(
        "revenue", k=5)
    assert r1.tier == "text" and all(e.modality == "text" for e in r1.evidence)


def test_calibrated_thresholds_are_per_embedder(tmp_path: Path) -> None:
    lib = build_library(tmp_path, acme_docs())
    lib.store.put_setting("thresholds:fake-crc32", {"text": 0.42, "table": 0.33, "image": 0.21, "recall": 0.9})
    assert lib.retriever().thresholds() == {"text": 0.42, "table": 0.33, "image": 0.21}
    lib.store.put_setting("thresholds:other-model", {"text": 0.9})
    assert lib.retriever().thresholds()["text"] == 0.42
    assert lib.retriever(calibrated=False, theta_text=0.5).thresholds()["text"] == 0.5


def test_hybrid_finds_the_line_item_an_abbreviation_names(tmp_path: Path) -> None:
    lib = build_library(tmp_path, acme_docs())
    q = "What was capex in FY2023?"
    dense = lib.retriever(hybrid=False, routing=False, expansion=False).retrieve(q, scope=["acme2023aaaa"], k=2)
    hybrid = lib.retriever(hybrid=True, routing=False).retrieve(q, scope=["acme2023aaaa"], k=4)
    assert 5 not in [e.page for e in dense.evidence]
    table = next(e for e in hybrid.evidence if e.page == 5)
    assert table.modality == "table" and "bm25" in table.channel
    assert "purchases of property, plant and equipment" in hybrid.query_terms


def test_explicit_scope_wins_over_routing(tmp_path: Path) -> None:
    lib = build_library(tmp_path, acme_docs())
    r = lib.retriever().retrieve("Globex revenue 2023", scope=["ACME_2022_10K"])
    assert not r.routed and r.scope == ["acme2022bbbb"]
    assert {e.doc_id for e in r.evidence} == {"acme2022bbbb"}


def test_routing_by_company_and_year_then_library_fallback(tmp_path: Path) -> None:
    lib = build_library(tmp_path, acme_docs())
    r = lib.retriever().retrieve("What was Acme's total revenue in FY2022?")
    # the FY2022 report first, then the FY2023 one, whose comparative column restates FY2022
    assert r.routed and r.scope == ["acme2022bbbb", "acme2023aaaa"] and "company=" in r.route
    assert "year=2022" in r.route and {e.doc_id for e in r.evidence} <= set(r.scope)
    g = lib.retriever().retrieve("How many people does Globex employ?")
    assert g.scope == ["globex2023cc"] and g.evidence[0].page == 3
    everything = lib.retriever().retrieve("How much restricted cash was held?")
    assert not everything.routed and len(everything.scope) == 3
    off = lib.retriever(routing=False).retrieve("What was Acme's total revenue in FY2022?")
    assert not off.routed and len(off.scope) == 3


def test_empty_library_is_an_answer_error(tmp_path: Path) -> None:
    lib = build_library(tmp_path, [])
    with pytest.raises(AnswerError):
        lib.retriever().retrieve("anything")


def test_invalidate_picks_up_new_chunks_in_the_lexical_channel(tmp_path: Path) -> None:
    lib = build_library(tmp_path, acme_docs())
    r = lib.retriever()
    assert not [e for e in r.retrieve("zebrafish hatchery", k=3).evidence if "zebrafish" in e.text]
    add_docs(lib, [FakeDoc("initech2023d", "INITECH_2023_10K", "Initech", "10-K", "FY2023",
                           [("text", 7, "Initech sold its zebrafish hatchery for $12 million.")])])
    r.invalidate()
    hits = r.retrieve("zebrafish hatchery", k=3).evidence
    assert hits[0].doc_id == "initech2023d" and hits[0].page == 7


class ReverseReranker:
    name = "reverse"

    def score(self, query: str, passages: list[str]) -> list[float]:
        return [float(i) for i in range(len(passages))]


def test_rerank_reorders_candidates_when_on(tmp_path: Path) -> None:
    lib = build_library(tmp_path, acme_docs(), reranker=ReverseReranker())
    plain = lib.retriever(routing=False).retrieve("total revenue 2023", scope=["acme2023aaaa"], k=3)
    reranked = lib.retriever(routing=False, rerank=True, rerank_candidates=3).retrieve(
        "total revenue 2023", scope=["acme2023aaaa"], k=3)
    assert [e.chunk_id for e in reranked.evidence] == [e.chunk_id for e in plain.evidence][::-1]
    assert all(e.channel.endswith("+rerank") for e in reranked.evidence)
    assert "rerank" in reranked.timings


def test_llm_reranker_scores_listed_passages_first() -> None:
    llm = FakeLLM(lambda msgs: "3, 1")
    scores = LLMReranker(llm).score("q", ["a", "b", "c", "d"])
    order = sorted(range(4), key=lambda i: -scores[i])
    assert order == [2, 0, 1, 3]
    assert "[3] c" in llm.prompts[0][1].content


def test_cross_encoder_needs_a_model_folder(tmp_path: Path) -> None:
    cfg = types.SimpleNamespace(source="models.toml [reranker]", option=lambda name, default=None: default)
    provider = types.SimpleNamespace(budget=types.SimpleNamespace(reranker=1))
    with pytest.raises(ModelError):
        build(cfg, None, provider)
    with pytest.raises(ModelError):
        build(cfg, tmp_path, provider)


def test_cross_encoder_code_path_with_a_fake_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class FakeCrossEncoder:
        def __init__(self, path: str, **kwargs: object) -> None:
            self.path = path

        def predict(self, pairs: list[tuple[str, str]], **kwargs: object) -> list[float]:
            return [float(len(set(q.split()) & set(p.split()))) for q, p in pairs]

    monkeypatch.setitem(sys.modules, "sentence_transformers", types.SimpleNamespace(CrossEncoder=FakeCrossEncoder))
    no_gpu = types.SimpleNamespace(is_available=lambda: False)
    threads = [0]
    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(
        set_num_threads=lambda n: threads.__setitem__(0, n), get_num_threads=lambda: threads[0], cuda=no_gpu))
    (tmp_path / "config.json").write_text("{}")
    cfg = types.SimpleNamespace(source="models.toml [reranker]", option=lambda name, default=None: default)
    provider = types.SimpleNamespace(budget=types.SimpleNamespace(reranker=2))
    model = build(cfg, tmp_path, provider)
    threads[0] = 1  # the embedder's one-thread streams set torch's process-wide count
    assert model.score("total revenue", ["total revenue was 5", "the sky"]) == [2.0, 0.0]
    assert threads[0] == 2  # the reranker takes its own back for its call


def test_a_statement_table_whose_row_the_question_names_keeps_a_place() -> None:
    from types import SimpleNamespace

    from engine.ask.retrieve import STATEMENT_PIN, Candidate, Retriever
    from engine.types import Chunk

    fetched: list[list[int]] = []

    def chunks(ids: list[int]) -> list[Chunk]:
        fetched.append(ids)
        return [Chunk(id=i, doc_id="d", modality="table", page=62, text="Operating income") for i in ids]

    # the document's statements: the income statement (99, then 5: its statement of comprehensive income)
    me = SimpleNamespace(store=SimpleNamespace(chunks=chunks), statement_tables=lambda d: {"income": [99, 5]})
    ranked = [Candidate(i, "text", 0.5) for i in range(1, 11)]
    named = [[Candidate(99, "table", STATEMENT_PIN, 2, "statement"), Candidate(98, "table", 0.0, 2, "statement")]]
    out = Retriever.pin_statement(me, ranked, named, {}, 10)  # type: ignore[arg-type]
    assert [c.chunk_id for c in out] == [*range(1, 10), 99] and out[-1].score == 0.0 and fetched == [[99]]
    # already in, or named only weakly (a row sharing one word): nothing moves
    assert Retriever.pin_statement(me, [*ranked[:9], Candidate(99, "table", 0.4)], named, {}, 10)[-1].score == 0.4  # type: ignore[arg-type]
    # a statement named only weakly (or asked for by its line items) comes in when none of its tables is in ...
    weak = [[Candidate(99, "table", STATEMENT_PIN - 0.5, 2, "statement"), Candidate(5, "table", 0.0, 2, "statement")]]
    assert Retriever.pin_statement(me, ranked[5:], weak, {}, 10)[-1].chunk_id == 99  # type: ignore[arg-type]
    # ... and stays out when the statement itself is in
    assert Retriever.pin_statement(me, [*ranked[:9], Candidate(99, "table", 0.4)], weak, {}, 10)[-1].score == 0.4  # type: ignore[arg-type]
    # the statement of comprehensive income beside it (5) does not stand for the income statement
    assert Retriever.pin_statement(me, ranked, weak, {}, 10)[-1].chunk_id == 99  # type: ignore[arg-type]


def test_within_one_companys_filing_its_name_does_not_pull_its_headers_ahead(tmp_path: Path) -> None:
    """Every statement page prints the registrant's name; a narrative question naming the company must still
    find the passage that answers it, which does not repeat the name."""
    headers = [("text", p, f"Pemberton Foods Inc. and Subsidiaries Consolidated Statement {p} operates")
               for p in (2, 3, 4)]
    lib = build_library(tmp_path, [FakeDoc("pem2022aaaa", "PEM_2022_10K", "Pemberton Foods Inc.", "10-K", "FY2022", [
        ("text", 1, "Our divisions sell snacks in North America, Latin America, Europe and Asia Pacific."),
        *headers,
    ])])
    q = "Where does Pemberton Foods primarily sell snacks?"
    kept = lib.retriever(drop_scope_company=False, hybrid=False).retrieve(q, scope=["pem2022aaaa"], k=4)
    dropped = lib.retriever(hybrid=False).retrieve(q, scope=["pem2022aaaa"], k=4)
    assert kept.evidence[0].page != 1  # the name's two words outweigh the passage's one
    assert dropped.evidence[0].page == 1 and dropped.question == q


def test_a_statement_without_its_title_still_comes_when_the_question_names_it(tmp_path: Path) -> None:
    balance = {"title": "", "columns": ["2023", "2022"], "rows": [
        {"label": "Total current assets", "values": ["900", "800"], "numbers": [900.0, 800.0]},
        {"label": "Accounts payable", "values": ["120", "100"], "numbers": [120.0, 100.0]},
        {"label": "Total current liabilities", "values": ["450", "500"], "numbers": [450.0, 500.0]}]}
    passages = [("text", p, f"Using the balance sheet and the statement of income, days payable outstanding DPO "
                            f"365 average accounts payable cost of sales {p}") for p in range(10, 30)]
    lib = build_library(tmp_path, [FakeDoc("acme2023aaaa", "ACME_2023_10K", "Acme Widgets Corporation", "10-K",
                                           "FY2023", [
        *passages,
        ("table", 5, "Consolidated Statements of Operations\nColumns: 2023 | 2022\nRows: Revenue; Gross profit; "
                     "Net income; Earnings per share", INCOME_TABLE),
        # the balance sheet's title was lost by the text layer: known by its rows
        ("table", 6, "(In millions)\nColumns: 2023 | 2022\nRows: Total current assets; Accounts payable; "
                     "Total current liabilities", balance),
    ])])
    q = ("Using the balance sheet and the statement of income, what is FY2023 days payable outstanding? DPO is "
         "365 * average accounts payable / cost of sales.")
    r = lib.retriever(hybrid=False).retrieve(q, scope=["acme2023aaaa"], k=5)
    assert {5, 6} <= {e.page for e in r.evidence} and len(r.evidence) == 5
    one = lib.retriever(hybrid=False).retrieve("What was the cost of sales in the statement of income?",
                                               scope=["acme2023aaaa"], k=5)
    assert 6 not in {e.page for e in one.evidence}  # one statement asked: no balance sheet pinned


def test_a_few_passages_keep_a_place_among_tables() -> None:
    from engine.ask.retrieve import with_passages

    ranked = [Candidate(i, "table", 0.5) for i in range(1, 9)] + [Candidate(i, "text", 0.6) for i in range(9, 13)]
    out = with_passages(ranked, 6, 2)
    assert [c.chunk_id for c in out] == [1, 2, 3, 4, 9, 10]  # the last two tables give way to the best passages
    assert with_passages(ranked, 6, 0) == ranked[:6]
    assert [c.chunk_id for c in with_passages(ranked, 3, 2)] == [1, 2, 9]  # a third of the places at most
    mixed = [Candidate(1, "text", 0.6), Candidate(2, "table", 0.5), Candidate(3, "text", 0.6)]
    assert with_passages(mixed, 3, 2) == mixed  # already enough passages
    assert [c.chunk_id for c in with_passages(ranked[:7], 6, 2)] == [1, 2, 3, 4, 5, 6]  # no passage to bring in


def test_the_passage_telling_why_on_a_tables_page_follows_the_table() -> None:
    """A question asking a figure and why it moved: the passage on the page of one of the first tables that holds a
    cue of the kind asked moves right behind its table; one without a cue, or on another table's page further down,
    stays where it ranked."""
    from engine.ask.retrieve import telling_why

    ranked = [Candidate(1, "table", 0.6), Candidate(2, "table", 0.5), Candidate(3, "text", 0.5),
              Candidate(4, "table", 0.4), Candidate(5, "text", 0.4), Candidate(6, "text", 0.3),
              Candidate(7, "text", 0.3)]
    pages = {1: ("d", 9), 2: ("d", 37), 3: ("d", 12), 4: ("d", 50), 5: ("d", 37), 6: ("d", 37), 7: ("d", 50)}
    texts = {5: "Google Cloud operating loss decreased $131 million.",
             6: "Other Bets ... The effective tax rate decreased from 2021 to 2022, primarily driven by R&D.",
             7: "Revenues increased, driven by Search."}
    assert [c.chunk_id for c in telling_why(ranked, pages, texts, ("driven by", "due to"))] == [1, 2, 6, 3, 4, 5, 7]
    assert telling_why(ranked, pages, texts, ()) == ranked


def test_the_passage_saying_most_of_what_is_asked_brings_the_one_after_it() -> None:
    """A chunk ends where its size says: the note listing the businesses bought goes on in the next chunk. The
    passages holding most of the cues searched (two of them by default) bring their filing's next text chunk, after
    the ranked ones and with their score; one already ranked, or none after, brings nothing; no cues, nothing."""
    from engine.ask.retrieve import continued
    from engine.types import CONTINUED, Chunk

    ranked = [Candidate(1, "table", 0.7), Candidate(10, "text", 0.6), Candidate(20, "text", 0.5),
              Candidate(30, "text", 0.4), Candidate(31, "text", 0.3)]
    chunks = {
        1: Chunk(1, "d", "table", 5, "Cash flows: acquisitions, net of cash acquired"),
        10: Chunk(10, "d", "text", 9, "Integrating businesses we have acquired may be difficult."),
        20: Chunk(20, "d", "text", 40, "Note 3. Business combinations. Orla: In March we acquired Orla Labs."),
        30: Chunk(30, "d", "text", 41, "Kestrel: In June we acquired Kestrel Bio, and we acquired its patents."),
        31: Chunk(31, "d", "text", 41, "Marlin: We sold Marlin."),
    }
    following = {20: Chunk(21, "d", "text", 40, "Vela: In May we acquired Vela Inc."), 30: chunks[31]}
    seen: list[int] = []

    def after(c: Chunk) -> Chunk | None:
        seen.append(c.id)
        return following.get(c.id)

    more = continued(ranked, chunks, ("acquired", "we acquired"), 2, after)
    assert seen == [20, 30]  # the two saying "we acquired" too, not the risk factor ranked ahead of them
    assert [(c.chunk_id, c.score, c.channel, chunk.id) for c, chunk in more] == [(21, 0.5, CONTINUED, 21)]  # 31 ranked
    assert continued(ranked, chunks, (), 2, after) == []
    assert continued(ranked, chunks, ("acquired",), 0, after) == []
    assert continued(ranked, chunks, ("divested",), 2, after) == []



def test_the_best_ranked_passage_on_what_is_asked_brings_the_one_before_it_on_its_page() -> None:
    """A passage that opens inside a section ("Operating margin was flat in the nine months ...") leaves the
    section's first sentences, the quarter's, to the chunk before it: the best-ranked passage holding a cue and a
    word of the item asked brings that chunk (same page only); one naming nothing of the item brings none."""
    from engine.ask.retrieve import continued
    from engine.types import CONTINUED, Chunk

    ranked = [Candidate(40, "text", 0.8), Candidate(52, "text", 0.6)]
    chunks = {
        40: Chunk(40, "d", "text", 30, "Cash used in investing activities rose, primarily due to purchases."),
        52: Chunk(52, "d", "text", 31, "Operating margin was flat in the nine months, primarily due to pricing."),
    }
    earlier = {52: Chunk(51, "d", "text", 31, "Operating margin fell to 9% in the third quarter, primarily due to "
                                                 "freight costs."),
               40: Chunk(39, "d", "text", 30, "Liquidity. Our sources of cash are ...")}
    def before(c: Chunk) -> Chunk | None:
        return earlier.get(c.id)

    asked = ("operating", "margin")
    assert continued(ranked, chunks, ("due to",), 0, lambda c: None, before, asked) == []  # n = 0: none
    more = continued(ranked, chunks, ("due to",), 1, lambda c: None, before, asked)
    assert [(c.chunk_id, c.score, c.channel) for c, _ in more] == [(51, 0.6, CONTINUED)]
    assert continued(ranked, chunks, ("due to",), 1, lambda c: None, before, ()) == []


def test_passages_lead_for_a_question_told_in_words() -> None:
    from engine.ask.retrieve import passages_lead

    ranked = [Candidate(i, "table", 0.5) for i in range(1, 6)] + [Candidate(i, "text", 0.6) for i in range(6, 10)]
    pages = {i: ("d", i) for i in range(1, 10)}  # a page each
    # the fused first keeps its place; the first passages come next, the other tables behind them
    assert [c.chunk_id for c in passages_lead(ranked, pages, 3)] == [1, 6, 7, 8, 2, 3, 4, 5, 9]
    assert passages_lead(ranked, pages, 0) == ranked
    assert [c.chunk_id for c in passages_lead(ranked, pages, 9)] == [1, 6, 7, 8, 9, 2, 3, 4, 5]  # fewer: all
    # a table on a leading passage's page is one hit with it: it leads too, in fused order (ahead of the passage)
    pages.update({4: ("d", 7)})
    assert [c.chunk_id for c in passages_lead(ranked, pages, 3)] == [1, 4, 6, 7, 8, 2, 3, 5, 9]
    # ... but a table of a page whose passage does not lead stays behind; so does one of another document
    assert [c.chunk_id for c in passages_lead(ranked, {**pages, 4: ("d", 9)}, 3)] == [1, 6, 7, 8, 2, 3, 4, 5, 9]
    assert [c.chunk_id for c in passages_lead(ranked, {**pages, 4: ("e", 7)}, 3)] == [1, 6, 7, 8, 2, 3, 4, 5, 9]
    # a chunk without a known page is a page of its own, never one with another such chunk
    assert [c.chunk_id for c in passages_lead(ranked, {}, 2)] == [1, 6, 7, 2, 3, 4, 5, 8, 9]
    assert passages_lead([], pages, 3) == []
    # the first of a lexical channel keeps its fused place (a table) or takes the better one of the lead (a passage)
    lead = [c.chunk_id for c in passages_lead(ranked, {i: ("d", i) for i in range(1, 10)}, 3, {2, 7})]
    assert lead == [1, 2, 6, 7, 8, 3, 4, 5, 9]
    lead = [c.chunk_id for c in passages_lead(ranked, {i: ("d", i) for i in range(1, 10)}, 3, {4})]
    assert lead == [1, 6, 7, 4, 8, 2, 3, 5, 9]


def _margin_filing() -> list[FakeDoc]:
    """A 10-K whose statement tables repeat a driver question's words, and whose answering passage does not lead
    any channel of its own."""
    tables = [("table", p, f"Gross margin gross profit net sales cost of sales fiscal 2023 schedule {p}") for p in
              range(20, 28)]
    passages = [("text", p, f"Item {p}. Other matters of fiscal 2023 described on page {p}.") for p in range(2, 8)]
    answer = ("text", 9, "Cost of products sold increased as a percent of sales in fiscal 2023, driven by commodity "
              "inflation and currency, partially offset by supply chain benefits.")
    return [FakeDoc("acme2023aaaa", "ACME_2023_10K", "Acme Widgets Corporation", "10-K", "FY2023",
                    [*tables, *passages, answer])]


def test_a_driver_question_gets_passages_first_and_a_statement_question_keeps_its_tables(tmp_path: Path) -> None:
    lib = build_library(tmp_path, _margin_filing())
    told = "What drove Acme's gross margin change in fiscal 2023?"
    evidence = lib.retriever().retrieve(told, scope=["acme2023aaaa"], k=10).evidence
    led = lib.retriever().settings.narrative_passages
    plain = lib.retriever(narrative_passages=0).retrieve(told, scope=["acme2023aaaa"], k=10).evidence
    assert plain[0].modality == "table" and plain[1].modality == "table"  # ranked as any question: tables first
    assert 9 not in [e.page for e in plain[:2]]
    assert (evidence[0].page, evidence[0].modality) == (plain[0].page, "table")  # the fused first keeps its place
    assert [e.modality for e in evidence[1:led + 1]] == ["text"] * led  # then the passages lead
    assert 9 in [e.page for e in evidence[: led + 1]]  # the answering passage is among them
    assert any(e.modality == "table" for e in evidence[led + 1:])  # tables keep the other places
    figure = lib.retriever().retrieve("What was Acme's gross margin in fiscal 2023?", scope=["acme2023aaaa"], k=10)
    assert figure.evidence[0].modality == "table"  # a figure asked: unchanged


def test_the_lexical_search_adds_the_kind_cues_only_where_they_mark_any_answer(tmp_path: Path) -> None:
    from engine.ask.question import parse

    lib = build_library(tmp_path, [FakeDoc("acme2023aaaa", "ACME_2023_10K", "Acme Widgets Corporation", "10-K",
                                           "FY2023", [
        ("text", 2, "Operating margin operating margin operating margin summary."),
        ("text", 3, "Operating margin declined primarily due to higher freight costs, partially offset by pricing "
                    "actions, and was driven by lower volumes in our industrial segment during the year."),
    ])])
    r = lib.retriever()
    drivers = parse("What drove the operating margin decline?")
    assert "due to" in drivers.searched_cues and "driven by" in drivers.searched_cues
    _, lexical, _ = r.channels(drivers.text, ["acme2023aaaa"], False, 10, drivers.text, (), drivers.searched_cues)
    assert lexical[0][0].chunk_id == next(c.id for c in lib.store.chunks() if c.page == 3)
    _, lexical, _ = r.channels(drivers.text, ["acme2023aaaa"], False, 10, drivers.text)
    assert lexical[0][0].chunk_id == next(c.id for c in lib.store.chunks() if c.page == 2)  # the cues decide it
    assert parse("What legal proceedings is Acme involved in?").searched_cues  # a lawsuit's words: one subject
    # customers, suppliers and acquisitions share the parties kind: only the cues in the question's own words are
    # searched, so one does not pull the other
    assert parse("Which companies did Acme acquire in 2023?").searched_cues == (
        "acquired", "acquisition of", "we acquired", "completed the acquisition")
    assert parse("Who are Acme's largest customers?").searched_cues == ("customer", "customers")
    # other words for what a cue says ask for it too
    for bought in ("What are the main businesses bought by Acme?", "Which firms did Acme purchase in 2023?",
                   "Which takeovers did Acme complete in 2023?", "Which businesses did Acme buy in 2017?"):
        assert parse(bought).searched_cues == ("acquired", "acquisition of", "we acquired", "completed the acquisition")
    assert parse("Who audits Acme?").searched_cues == ()
    assert parse("What was Acme's operating margin in 2023?").searched_cues == ()
    assert parse("Is Acme capital intensive?").searched_cues == ()


def test_each_statement_a_question_needs_keeps_a_place() -> None:
    """Capital intensity reads the income statement, the balance sheet and the cash flow statement: each one's own
    table (not the MD&A's summary of it) keeps a place, one place in ``PIN_FROM_K`` at most."""
    from types import SimpleNamespace

    from engine.ask.retrieve import Candidate, Retriever
    from engine.types import Chunk

    own = {"income": [71, 81], "balance": [72], "cash_flow": [73, 83]}  # 83: the MD&A's cash flow summary

    def chunks(ids: list[int]) -> list[Chunk]:
        return [Chunk(id=i, doc_id="d", modality="table", page=i, text="t") for i in ids]

    me = SimpleNamespace(store=SimpleNamespace(chunks=chunks), statement_tables=lambda doc_id: own)
    ranked = [Candidate(71, "table", 0.6), Candidate(83, "table", 0.5),
              *[Candidate(i, "text", 0.4) for i in range(1, 9)]]
    stated = [[Candidate(cid, "table", 0.0, 2, "statement") for cid in (71, 72, 83, 73, 81)]]
    out = Retriever.pin_statement(me, ranked, stated, {}, 10, ("income", "balance", "cash_flow"))  # type: ignore[arg-type]
    assert [c.chunk_id for c in out] == [71, 83, 1, 2, 3, 4, 5, 6, 72, 73]
    # five places: one pin; one statement asked: only the channel's first table, as before
    assert [c.chunk_id for c in Retriever.pin_statement(me, ranked[:5], stated, {}, 5, ("income", "balance",  # type: ignore[arg-type]
                                                                                      "cash_flow"))][-1:] == [72]
    assert Retriever.pin_statement(me, ranked, stated, {}, 10, ("income",)) == ranked  # type: ignore[arg-type]


def test_the_breakdown_table_a_ranking_question_needs_keeps_a_place() -> None:
    """"Which product category performed the best in the domestic market?" is decided from the table titled as a
    breakdown by category; a page of segment tables (results, stores, the revenue mix by category) gives two places
    to its first two, so that table keeps the last place. Of two such tables (the domestic and the international
    segment's), the one whose title shares the question's words."""
    from types import SimpleNamespace

    from engine.ask.question import parse
    from engine.ask.retrieve import Candidate, Retriever
    from engine.types import Chunk

    titles = {1: "Domestic segment stores open at the end of the quarter",
              2: "International segment revenue mix and comparable sales changes by revenue category",
              3: "Domestic segment revenue mix and comparable sales changes by revenue category"}
    rows = {"rows": [{"label": x} for x in ("Computing", "Appliances", "Entertainment", "Services", "Total")]}
    said = {20: (3, "Notable changes by revenue category: Computing: the 6.4% decline was driven primarily by "
                    "mobile phones. Entertainment: the 9.0% growth was driven by gaming. Services grew."),
            21: (3, "Computing, Appliances, Entertainment and Services are our revenue categories."),  # no driver
            22: (9, "Computing, Appliances and Services declined due to lower demand.")}  # not beside the table
    me = SimpleNamespace(store=SimpleNamespace(
        region=lambda rid: SimpleNamespace(title=titles.get(rid, ""), table=rows if rid == 3 else {}),
        chunks=lambda doc_ids=None, modality=None, ids=None, pages=None: [
            Chunk(id=i, doc_id="d", modality="text", page=pg, text=t) for i, (pg, t) in said.items()
            if (ids is None or i in ids) and (pages is None or pg in pages)]))
    me.commentary = lambda table: Retriever.commentary(me, table)  # type: ignore[arg-type]
    chunks = {i: Chunk(id=i, doc_id="d", modality="table" if i in titles else "text", page=i, text="t",
                       region_id=i if i in titles else None) for i in range(1, 20)}
    fused = [Candidate(1, "table", 0.6), Candidate(2, "table", 0.55), *[Candidate(i, "text", 0.5) for i in (4, 5)],
             Candidate(3, "table", 0.45), *[Candidate(i, "text", 0.4) for i in range(6, 16)]]
    spread = [c for c in fused if c.chunk_id != 3] + [fused[4]]  # the page's third table moved behind
    q = parse("Which product category performed the best by sales in the domestic market during Q2 of FY2024?")
    out = Retriever.pin_breakdown(me, spread, fused, chunks, 10, q)  # type: ignore[arg-type]
    # still ten: the table and the passage beside it that tells its parts' changes take the last places
    assert [c.chunk_id for c in out] == [1, 2, 4, 5, 6, 7, 8, 9, 3, 20]
    del said[20]
    out = Retriever.pin_breakdown(me, spread, fused, chunks, 10, q)  # type: ignore[arg-type]
    assert [c.chunk_id for c in out] == [1, 2, 4, 5, 6, 7, 8, 9, 10, 3]  # no such passage: the table alone
    # the international one asked, already among the ten: nothing moves; no breakdown ranked: nothing moves
    international = parse("Which international product category grew sales the most in Q2 FY2024?")
    assert Retriever.pin_breakdown(me, spread, fused, chunks, 10, international) == spread  # type: ignore[arg-type]
    assert Retriever.pin_breakdown(me, spread, fused, chunks, 10, parse("What was revenue in Q2 FY2024?")) == spread  # type: ignore[arg-type]
    # a listing of the parts ("Break down ... by category") keeps the table titled by its kind the same way
    listed = parse("Break down the domestic segment's Q2 FY2024 revenue by category.")
    pushed = [c for c in fused if c.chunk_id != 3]  # the page's third table out of the ten
    out = Retriever.pin_breakdown(me, pushed, fused, chunks, 10, listed)  # type: ignore[arg-type]
    assert [c.chunk_id for c in out] == [1, 2, 4, 5, 6, 7, 8, 9, 10, 3]


def test_words_pointing_at_the_document_are_not_searched(tmp_path: Path) -> None:
    from dataclasses import replace

    from engine.ask.question import parse

    exhibits = [("text", p, f"This Annual Report on Form 10-K report lists exhibits {p}; the report and the 10-K "
                            "exhibits mentioned are available on request.") for p in (90, 91, 92)]
    lib = build_library(tmp_path, [FakeDoc("acme2023aaaa", "ACME_2023_10K", "Acme Widgets Corporation", "10-K",
                                           "FY2023", [
        ("text", 40, "Our main products are industrial sensors, valves and pumps."),
        *exhibits,
    ])])
    q = parse("What are the main products of Acme mentioned in this 10K report?")
    assert q.self_reference.strip() == "mentioned in this 10K report" and q.forms == ("10-K",)
    r = lib.retriever(hybrid=False).retrieve(q, scope=["acme2023aaaa"], k=2)
    assert r.evidence[0].page == 40 and r.question == q.text
    # searched with them, the words about the report pull the exhibit list ahead
    kept = lib.retriever(hybrid=False).retrieve(replace(q, self_reference=""), scope=["acme2023aaaa"], k=2)
    assert kept.evidence[0].page == 90
    assert parse("What was Acme's revenue in 2023?").self_reference == ""
    # the form named after the report, or the form alone, points at the document too
    assert parse("What products of Acme are named in this annual report on Form 10-K?").self_reference.strip() == \
        "named in this annual report on Form 10-K"
    assert parse("Which risks are discussed in this Form 10-Q?").self_reference.strip() == \
        "discussed in this Form 10-Q"
    # with the period the document covers: the period asked is read from the whole question all the same, and the
    # words of the reference are not what is asked
    told = parse("How does Acme plan to finance it, according to its 10-Q for the second quarter of 2023?")
    assert told.self_reference == "according to its 10-Q for the second quarter of 2023"
    assert told.asked.quarter == 2 and told.asked.fiscal_year == 2023
    assert not {"second", "quarter", "accord"} & told.stems
    assert parse("As described in the 10-K for the year ended December 31, 2022, what drove sales?").self_reference \
        == "As described in the 10-K for the year ended December 31, 2022,"
    assert parse("According to the 10-K for FY2023, who are its customers?").self_reference == \
        "According to the 10-K for FY2023,"
    # a year asked after the reference's own words is the question's, not the document's
    assert parse("According to its 10-Q for the year, what were sales in 2022?").self_reference == \
        "According to its 10-Q"


def test_the_passages_of_the_best_sentences_follow_the_ranked_evidence() -> None:
    """The passages of the best sentences found by BM25 over sentences follow the ranked evidence: those not ranked
    already, each once however many of its sentences were found, at most ``n``, with their sentence's score."""
    from engine.ask.retrieve import by_sentence
    from engine.library.lexical import SentenceHit
    from engine.types import SENTENCE

    ranked = [Candidate(1, "table", 0.7), Candidate(10, "text", 0.6)]
    hits = [SentenceHit(10, 9.0, "ranked already"), SentenceHit(30, 8.5, "a"), SentenceHit(30, 8.0, "b"),
            SentenceHit(40, 7.0, "c"), SentenceHit(50, 6.0, "d")]
    assert [(c.chunk_id, c.score, c.modality, c.channel) for c in by_sentence(ranked, hits, 2)] == [
        (30, 8.5, "text", SENTENCE), (40, 7.0, "text", SENTENCE)]
    assert by_sentence(ranked, hits, 0) == []
    assert by_sentence(ranked, [], 3) == []
    # asked "sales to the government by customer": a sentence saying one word of it brings nothing
    said = [SentenceHit(60, 9.0, "These contracts offset currency risks for customers."),
            SentenceHit(70, 5.0, "In 2022, 58% of net sales were from the federal government.")]
    assert [c.chunk_id for c in by_sentence(ranked, said, 3, ["sale", "customer", "government"])] == [70]
    # a subject of two words: both ("product sales", not "sales" alone)
    sold = [SentenceHit(80, 9.0, "Net sales decreased in 2022."), SentenceHit(90, 4.0, "Product sales fell 2%.")]
    assert [c.chunk_id for c in by_sentence(ranked, sold, 3, ["product", "sale"])] == [90]


def test_what_a_sentence_must_say_is_the_question_less_its_period_and_words_any_sentence_uses() -> None:
    """A sentence that says only the period asked ("The second quarter of 2023 included ...") or words any filing
    sentence uses ("any", "business", "major") does not bring its passage."""
    from engine.ask.narrative import subject_stems
    from engine.ask.question import parse

    assert subject_stems(parse("What acquisition did Delta agree in 2023, and how does it plan to finance it, "
                                "according to its 10-Q for the second quarter of 2023?")) == {
        "acquisition", "agree", "financ"}
    assert subject_stems(parse("Who are Delta's major customers, and how were its net sales split among them?")) == {
        "customer", "sale", "split"}
    assert "any" not in subject_stems(parse("As of Q2 2023, is Delta spinning off any large business segments?"))


def test_a_question_told_in_words_gets_the_passage_of_its_best_sentence(tmp_path: Path) -> None:
    """End to end over a library: the passage that tells a customer split in one sentence before a page on another
    subject is not among the ranked evidence of "Who are its major customers, and how were net sales split among
    them?"; found by its sentence it follows them (``Settings.sentence_passages``), and a question asking a figure
    alone does not bring it."""
    from engine.types import SENTENCE

    strategy = " ".join(f"Our strategy number {i} integrates open architecture networking across all domains."
                        for i in range(12))
    answer = ("In 2022, 58% of our $12.0 billion in net sales were from the federal government, 40% were from "
              "international customers and 2% from commercial customers.")
    filler = [("text", p, f"Our customers on page {p} expect service; customers and customers' customers rely on us.")
              for p in range(2, 12)]
    docs = [FakeDoc("delta2022aaaa", "DELTA_2022_10K", "Delta Systems", "10-K", "FY2022",
                    [*filler, ("text", 30, f"{answer} {strategy}")])]
    lib = build_library(tmp_path, docs)
    q = "Who are Delta's major customers, and how were its 2022 net sales split among them?"

    def found(**changes: object) -> list[tuple[int, str]]:
        r = lib.retriever(**changes).retrieve(q, scope=["delta2022aaaa"], k=3)
        return [(e.page, e.channel) for e in r.evidence]

    assert 30 not in [p for p, _ in found(sentence_passages=0)]
    assert (30, SENTENCE) in found()
    r = lib.retriever().retrieve("What were Delta's net sales in 2022?", scope=["delta2022aaaa"], k=3)
    assert SENTENCE not in [e.channel for e in r.evidence]

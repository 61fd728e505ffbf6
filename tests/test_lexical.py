"""The lexical channel: tokens, table cells, scoping, and the index kept in the catalogue with the chunks."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from test_retrieve_lib import INCOME_TABLE, FakeDoc, acme_docs, add_docs, build_library

from engine.library import store as store_module
from engine.library.doctor import Doctor
from engine.library.lexical import LexicalIndex, bm25_rank, chunk_terms, table_text, tokenize
from engine.library.store import SCHEMA_VERSION, Store
from engine.types import Chunk


def test_tokenize_normalises_numbers_periods_and_plurals() -> None:
    assert tokenize("Purchases of property, plant and equipment $(1,577) 12.50% FY2018") == [
        "purchase", "property", "plant", "equipment", "1577", "12.5", "fy", "2018"]
    assert tokenize("the of and") == []


def test_table_cells_are_indexed(tmp_path: Path) -> None:
    lib = build_library(tmp_path, acme_docs())
    idx = LexicalIndex(lib.store)
    hits = idx.search("gross profit 512", 3)
    assert hits[0].modality == "table"
    assert "Gross profit 512 440" in table_text(lib.store.regions("acme2023aaaa")[0].table)
    scoped = idx.search("gross profit 512", 3, doc_ids=["acme2023aaaa"])
    assert scoped[0].chunk_id == hits[0].chunk_id


def test_scope_by_document_and_modality(tmp_path: Path) -> None:
    lib = build_library(tmp_path, acme_docs())
    idx = LexicalIndex(lib.store)
    everywhere = {h.chunk_id for h in idx.search("total revenue", 20)}
    acme22 = idx.search("total revenue", 20, doc_ids=["acme2022bbbb"])
    assert acme22 and {lib.store.chunks(ids=[h.chunk_id])[0].doc_id for h in acme22} == {"acme2022bbbb"}
    assert {h.chunk_id for h in acme22} < everywhere
    assert all(h.modality == "text" for h in idx.search("revenue", 20, modalities=["text"]))
    assert all(h.modality == "text" for h in idx.search("revenue", 20, ["acme2022bbbb"], ["text"]))
    assert idx.search("revenue", 20, doc_ids=["nope"]) == []
    assert idx.search("revenue", 20, doc_ids=[]) == []
    assert idx.search("the of", 5) == []


def _filler(n: int) -> list[FakeDoc]:
    return [FakeDoc(f"other{i:04d}xx", f"OTHER_{i}_10K", f"Other {i}", "10-K", "FY2023",
                    [("text", 1, f"Total revenue rose; other company {i} sells steel and revenue grew."),
                     ("text", 2, "Revenue, revenue and more revenue: the segment reported revenue.")])
            for i in range(n)]


def test_a_scoped_search_ranks_as_in_a_library_of_that_document_alone(tmp_path: Path) -> None:
    alone = build_library(tmp_path / "alone", [d for d in acme_docs() if d.id == "acme2023aaaa"])
    crowded = build_library(tmp_path / "crowded", _filler(30) + acme_docs())

    def ranked(lib: object, q: str) -> list[tuple[int, str, float]]:
        store = lib.store  # type: ignore[attr-defined]
        hits = LexicalIndex(store).search(q, 10, doc_ids=["acme2023aaaa"])
        return [(store.chunks(ids=[h.chunk_id])[0].page, h.modality, round(h.score, 6)) for h in hits]

    for q in ("total revenue 2023", "gross profit", "capital expenditures purchases of property"):
        assert ranked(alone, q) == ranked(crowded, q) != []


def test_bm25_rank_counts_a_repeated_query_term_and_prefers_rare_terms() -> None:
    rows = [(1, "text", "revenue revenue steel"), (2, "text", "revenue cash"), (3, "text", "steel mill")]
    assert [h.chunk_id for h in bm25_rank(["steel", "mill"], rows, 3)] == [3, 1]
    once = {h.chunk_id: h.score for h in bm25_rank(["revenue", "cash"], rows, 3)}
    twice = {h.chunk_id: h.score for h in bm25_rank(["revenue", "revenue", "cash"], rows, 3)}
    assert twice[1] > once[1] and twice[2] > once[2]
    assert bm25_rank(["absent"], rows, 3) == []


def test_index_follows_ingest_and_removal_without_rebuilding(tmp_path: Path) -> None:
    lib = build_library(tmp_path, acme_docs())
    idx = LexicalIndex(lib.store)
    assert idx.search("zebrafish hatchery", 5) == []
    add_docs(lib, [FakeDoc("zeb2023xyzab", "ZEB_2023_10K", "Zebco", chunks=[("text", 3, "Our zebrafish hatchery")])])
    hits = idx.search("zebrafish hatchery", 5)  # no invalidate, no rebuild: the rows came with the chunks
    assert [lib.store.chunks(ids=[h.chunk_id])[0].doc_id for h in hits] == ["zeb2023xyzab"]
    ids = lib.store.delete_document("zeb2023xyzab")
    assert idx.search("zebrafish hatchery", 5) == []
    rows = lib.store.conn().execute(f"SELECT COUNT(*) FROM chunks_fts WHERE rowid IN ({','.join('?' * len(ids))})",
                                    ids).fetchone()[0]
    assert rows == 0 and lib.store.lexical_mismatch() == ([], [])


def test_replacing_chunks_replaces_their_rows_and_a_failure_keeps_both_old(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = build_library(tmp_path, acme_docs())
    idx = LexicalIndex(lib.store)
    lib.store.replace_chunks("acme2023aaaa", "text", [Chunk(0, "acme2023aaaa", "text", 4, "specialty alloy mill")])
    assert idx.search("alloy", 3, doc_ids=["acme2023aaaa"])
    assert not idx.search("restricted cash", 3)  # the replaced chunk's row went with it
    before = lib.store.chunk_ids("text", doc_ids=["acme2023aaaa"])

    def broken(text: str, table: object = None) -> str:
        raise RuntimeError("tokenizer crashed")

    monkeypatch.setattr(store_module, "chunk_terms", broken)
    with pytest.raises(RuntimeError):
        lib.store.replace_chunks("acme2023aaaa", "text", [Chunk(0, "acme2023aaaa", "text", 5, "titanium sponge")])
    monkeypatch.undo()
    assert lib.store.chunk_ids("text", doc_ids=["acme2023aaaa"]) == before  # rolled back, chunks and rows
    assert idx.search("alloy", 3, doc_ids=["acme2023aaaa"]) and not idx.search("titanium", 3)
    assert lib.store.lexical_mismatch() == ([], [])


def _version_3_catalogue(path: Path) -> None:
    """A catalogue as version 3 left it: chunks, one of them a table chunk, and no lexical index."""
    store = Store(path)
    db = store.conn()
    db.execute("DROP TRIGGER chunks_fts_delete")
    db.execute("DROP TABLE chunks_fts")
    db.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
    store.add_document("d1", "ff", "/x/a.pdf", "a", 3)
    db.execute("INSERT INTO regions(id, doc_id, page, kind, bbox, table_json) "
               "VALUES (7, 'd1', 2, 'table', '[0,0,1,1]', ?)", (json.dumps(INCOME_TABLE),))
    db.execute("INSERT INTO chunks(doc_id, modality, page, text) VALUES ('d1', 'text', 1, 'Specialty steel mill')")
    db.execute("INSERT INTO chunks(doc_id, modality, page, region_id, text) VALUES ('d1', 'table', 2, 7, 'Income')")
    store.close()


def test_an_older_catalogue_gets_its_lexical_rows_once_at_upgrade(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "catalogue.sqlite3"
    _version_3_catalogue(path)
    with caplog.at_level(logging.WARNING, logger="engine.library.store"):
        store = Store(path)
    assert "indexed the terms of 2 chunks" in caplog.text
    db = store.conn()
    assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
    table_id = db.execute("SELECT id FROM chunks WHERE modality = 'table'").fetchone()[0]
    assert db.execute("SELECT terms FROM chunks_fts WHERE rowid = ?", (table_id,)).fetchone()[0] == chunk_terms(
        "Income", INCOME_TABLE)
    idx = LexicalIndex(store)
    assert [h.chunk_id for h in idx.search("gross profit 512", 3, doc_ids=["d1"])] == [table_id]
    assert idx.search("steel mill", 3)[0].modality == "text"
    store.close()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="engine.library.store"):
        Store(path).close()  # current: nothing indexed again
    assert "indexed the terms" not in caplog.text


def test_doctor_finds_and_rebuilds_a_lexical_index_out_of_step(tmp_path: Path) -> None:
    lib = build_library(tmp_path, acme_docs())
    db = lib.store.conn()
    first = db.execute("SELECT MIN(id) FROM chunks").fetchone()[0]
    db.execute("DELETE FROM chunks_fts WHERE rowid = ?", (first,))
    db.execute("INSERT INTO chunks_fts(rowid, terms, doc_id, modality) VALUES (99999, 'ghost', 'x', 'text')")
    assert lib.store.lexical_mismatch() == ([first], [99999])
    doctor = Doctor(lib.settings, lib.models, store=lib.store, indexes=lib.indexes)
    report = doctor.run()
    found = [f for f in report.findings if f.check == "lexical_index"]
    assert found and not found[0].repaired and not report.clean
    report = doctor.run(repair=True)
    assert [f.repaired for f in report.findings if f.check == "lexical_index"] == [True]
    assert lib.store.lexical_mismatch() == ([], [])
    assert not LexicalIndex(lib.store).search("ghost", 3)
    assert not [f for f in doctor.run().findings if f.check == "lexical_index"]


def test_doctor_recreates_a_missing_lexical_table(tmp_path: Path) -> None:
    lib = build_library(tmp_path, acme_docs())
    lib.store.conn().execute("DROP TABLE chunks_fts")
    report = Doctor(lib.settings, lib.models, store=lib.store, indexes=lib.indexes).run(repair=True)
    assert [f.repaired for f in report.findings if f.check == "lexical_index"] == [True]
    assert LexicalIndex(lib.store).search("gross profit 512", 3)
    assert lib.store.lexical_mismatch() == ([], [])


def test_empty_library(tmp_path: Path) -> None:
    lib = build_library(tmp_path, [])
    assert LexicalIndex(lib.store).search("revenue", 5) == []
    assert LexicalIndex(lib.store).search("revenue", 5, doc_ids=["x"]) == []


def test_a_scoped_search_reads_only_the_scope(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lib = build_library(tmp_path, _filler(20) + acme_docs())
    read: list[int] = []
    rows_of = lib.store.lexical_rows

    def spy(doc_ids: list[str], modalities: list[str] | None = None) -> list[tuple[int, str, str]]:
        rows = rows_of(doc_ids, modalities)
        read.extend(cid for cid, _, _ in rows)
        return rows

    def library_wide(*args: object, **kwargs: object) -> None:
        raise AssertionError("a scoped search ran the library-wide query")

    monkeypatch.setattr(lib.store, "lexical_rows", spy)
    monkeypatch.setattr(lib.store, "lexical_search", library_wide)
    assert LexicalIndex(lib.store).search("total revenue", 5, doc_ids=["acme2022bbbb"])
    assert set(read) == set(lib.store.chunk_ids(doc_ids=["acme2022bbbb"]))


def test_a_scope_parsed_once_is_read_again_when_another_process_changes_its_chunks(tmp_path: Path) -> None:
    lib = build_library(tmp_path, acme_docs())
    idx = LexicalIndex(lib.store)
    assert idx.search("restricted cash", 3, doc_ids=["acme2023aaaa"])
    other = Store(lib.settings.catalogue_path)  # another process's catalogue: no invalidate reaches idx
    other.replace_chunks("acme2023aaaa", "text", [Chunk(0, "acme2023aaaa", "text", 4, "titanium sponge plant")])
    other.close()
    assert not idx.search("restricted cash", 3, doc_ids=["acme2023aaaa"])
    assert idx.search("titanium sponge", 3, doc_ids=["acme2023aaaa"])


def test_doctor_removes_the_bm25_files_of_older_versions(tmp_path: Path) -> None:
    lib = build_library(tmp_path, acme_docs())
    old = lib.settings.data_dir / "lexical"
    old.mkdir()
    (old / "chunks.json").write_text("{}")
    doctor = Doctor(lib.settings, lib.models, store=lib.store, indexes=lib.indexes)
    assert [f.repaired for f in doctor.run().findings if f.check == "old_lexical_files"] == [False]
    assert [f.repaired for f in doctor.run(repair=True).findings if f.check == "old_lexical_files"] == [True]
    assert not old.exists()


def test_the_chunk_before_a_chunk_is_its_documents_and_modalitys(tmp_path: Path) -> None:
    """``Store.preceding``: the text of the chunk just before each, in its own document and modality; none for the
    first; another document's chunks and a table's are never it."""
    lib = build_library(tmp_path, acme_docs())
    texts = ["We increased the useful life of servers.", "The effect of this change was a benefit of $4 million.",
             "Depreciation expense rose."]
    lib.store.replace_chunks("acme2023aaaa", "text", [Chunk(0, "acme2023aaaa", "text", 8, t) for t in texts])
    lib.store.replace_chunks("acme2023aaaa", "table", [Chunk(0, "acme2023aaaa", "table", 8, "Servers 4 5")])
    lib.store.replace_chunks("acme2022bbbb", "text", [Chunk(0, "acme2022bbbb", "text", 3, "Another filing.")])
    ids = lib.store.chunk_ids("text", doc_ids=["acme2023aaaa"])
    table = lib.store.chunk_ids("table", doc_ids=["acme2023aaaa"])
    other = lib.store.chunk_ids("text", doc_ids=["acme2022bbbb"])
    assert lib.store.preceding([ids[1], ids[2], ids[1]]) == {ids[1]: texts[0], ids[2]: texts[1]}
    assert lib.store.preceding([ids[0], *table, *other]) == {}


def test_the_chunk_after_a_chunk_is_its_documents_and_modalitys_on_its_page_or_the_next(tmp_path: Path) -> None:
    """``Store.following``: the chunk just after one, in its own document and modality, on its page or the next;
    none after the last, none two pages on."""
    lib = build_library(tmp_path, acme_docs())
    pages = [8, 8, 9, 11]
    lib.store.replace_chunks("acme2023aaaa", "text",
                             [Chunk(0, "acme2023aaaa", "text", p, f"Passage on page {p}, number {i}.")
                              for i, p in enumerate(pages)])
    lib.store.replace_chunks("acme2023aaaa", "table", [Chunk(0, "acme2023aaaa", "table", 8, "Servers 4 5")])
    lib.store.replace_chunks("acme2022bbbb", "text", [Chunk(0, "acme2022bbbb", "text", 9, "Another filing.")])
    text = lib.store.chunks(doc_ids=["acme2023aaaa"], modality="text")
    table = lib.store.chunks(doc_ids=["acme2023aaaa"], modality="table")
    after = [lib.store.following(c) for c in text]
    assert [a.id if a else None for a in after] == [text[1].id, text[2].id, None, None]
    assert after[0] is not None and after[0].text == "Passage on page 8, number 1." and after[0].modality == "text"
    assert lib.store.following(table[0]) is None


def test_the_sentence_that_says_what_is_asked_ranks_first_where_its_passage_does_not(tmp_path: Path) -> None:
    """A passage telling the answer in one sentence among many on another subject ranks behind passages that repeat
    one word of the question; ranked by sentence, with the statistics of the scope's sentences, the one sentence
    that says most of what is asked comes first, with the passage it is in. Tables are not read; an empty query or
    scope, or one larger than the scope limit, finds none."""
    strategy = " ".join(f"Our strategy for growth number {i} integrates open architecture networking and platforms."
                        for i in range(12))
    answer = ("In 2022, 58% of our $12.0 billion in net sales were from the federal government, 40% were from "
              "international customers and 2% from commercial customers.")
    docs = [FakeDoc("delta2022aaaa", "DELTA_2022_10K", "Delta Systems", "10-K", "FY2022", [
        ("text", 30, f"{answer} {strategy}"),
        *[("text", p, f"Customers rely on us. Net sales are recognised over time. In 2022 we hired staff {p}. "
                      "Our major programs run for years. Customers may split orders.") for p in range(2, 8)],
        ("table", 40, "Net sales by customer\nFederal 7,000", INCOME_TABLE),
    ])]
    lib = build_library(tmp_path, docs)
    idx = LexicalIndex(lib.store)
    query = "major customers 2022 net sales split among them customers"
    by_chunk = [lib.store.chunks(ids=[h.chunk_id])[0].page for h in idx.search(query, 5, ["delta2022aaaa"], ["text"])]
    assert 30 not in by_chunk[:3]  # its chunk is outranked by the passages repeating "customers"
    hits = idx.sentences(query, 3, ["delta2022aaaa"])
    assert hits[0].sentence == answer
    assert lib.store.chunks(ids=[hits[0].chunk_id])[0].page == 30
    assert all(lib.store.chunks(ids=[h.chunk_id])[0].modality == "text" for h in idx.sentences("federal 7000", 9,
                                                                                                 ["delta2022aaaa"]))
    assert idx.sentences("the of", 3, ["delta2022aaaa"]) == []
    assert idx.sentences(query, 3, []) == []
    assert LexicalIndex(lib.store, scope_limit=2).sentences(query, 3, ["delta2022aaaa"]) == []

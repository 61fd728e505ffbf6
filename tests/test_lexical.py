"""The BM25 channel: tokens, table cells, scoping, persistence and rebuild on change."""

from __future__ import annotations

from pathlib import Path

from test_retrieve_lib import FakeDoc, acme_docs, add_docs, build_library

from engine.library.lexical import LexicalIndex, table_text, tokenize


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


def test_scope_by_document_and_modality(tmp_path: Path) -> None:
    lib = build_library(tmp_path, acme_docs())
    idx = LexicalIndex(lib.store)
    everywhere = {h.chunk_id for h in idx.search("total revenue", 20)}
    acme22 = idx.search("total revenue", 20, doc_ids=["acme2022bbbb"])
    assert acme22 and {lib.store.chunks(ids=[h.chunk_id])[0].doc_id for h in acme22} == {"acme2022bbbb"}
    assert {h.chunk_id for h in acme22} < everywhere
    assert all(h.modality == "text" for h in idx.search("revenue", 20, modalities=["text"]))
    assert idx.search("revenue", 20, doc_ids=["nope"]) == []
    assert idx.search("the of", 5) == []


def test_persisted_and_rebuilt_when_chunks_change(tmp_path: Path) -> None:
    lib = build_library(tmp_path, acme_docs())
    folder = tmp_path / "lex"
    first = LexicalIndex(lib.store, folder)
    before = first.search("specialty steel", 3)
    assert (folder / "chunks.json").exists()
    second = LexicalIndex(lib.store, folder)  # loads from disk: same answer
    assert [h.chunk_id for h in second.search("specialty steel", 3)] == [h.chunk_id for h in before]
    add_docs(lib, [FakeDoc("steel2023xyz", "STEEL_2023_10K", "Steelco", chunks=[("text", 2, "specialty steel mill")])])
    third = LexicalIndex(lib.store, folder)  # signature changed: rebuilt
    assert any(lib.store.chunks(ids=[h.chunk_id])[0].doc_id == "steel2023xyz" for h in third.search("steel mill", 3))


def test_empty_library(tmp_path: Path) -> None:
    lib = build_library(tmp_path, [])
    assert LexicalIndex(lib.store, tmp_path / "lex").search("revenue", 5) == []

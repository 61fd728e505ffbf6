"""Helpers (no tests) for the retrieval, answer and calibration tests: a small library written straight into the
catalogue and indexes with the fake embedder, so these tests never depend on ingestion details."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fakes_models import FakeEmbedder, FakeLLM

from engine.ask.retrieve import Retriever
from engine.library.index import Indexes
from engine.library.store import Store
from engine.models.provider import ModelProvider
from engine.settings import Settings
from engine.types import Chunk, Region


@dataclass
class FakeDoc:
    """A document for ``build_library``: chunks as (modality, page, text) or (modality, page, text, table)."""

    id: str
    name: str
    company: str = ""
    form_type: str = ""
    fiscal_period: str = ""
    chunks: list[tuple[Any, ...]] = field(default_factory=list)
    sha256: str = ""


@dataclass
class Library:
    settings: Settings
    store: Store
    indexes: Indexes
    models: ModelProvider
    llm: FakeLLM
    embedder: FakeEmbedder

    def retriever(self, **changes: Any) -> Retriever:
        return Retriever(self.settings.with_(**changes), self.store, self.indexes, self.models)


def add_docs(lib: Library, docs: list[FakeDoc]) -> None:
    for d in docs:
        lib.store.add_document(d.id, d.sha256 or d.id * 4, f"/x/{d.name}.pdf", d.name, 10)
        lib.store.update_document(d.id, status="ready", company=d.company, form_type=d.form_type,
                                  fiscal_period=d.fiscal_period)
        by_mod: dict[str, list[Chunk]] = {"text": [], "table": [], "image": []}
        regions: list[tuple[int, Region]] = []
        for i, spec in enumerate(d.chunks):
            modality, page, text = spec[0], spec[1], spec[2]
            if modality in {"table", "image"}:
                table = spec[3] if len(spec) > 3 else None
                regions.append((i, Region(
                    id=0, doc_id=d.id, page=page, kind="table" if modality == "table" else "figure",
                    bbox=(0, 0, 100, 100), method="test", title=text.split("\n")[0], units="$ in millions",
                    summary=text, table=table)))
        lib.store.replace_regions(d.id, [r for _, r in regions])
        region_of = {i: r.id for i, r in regions}
        for i, spec in enumerate(d.chunks):
            modality, page, text = spec[0], spec[1], spec[2]
            by_mod[modality].append(Chunk(id=0, doc_id=d.id, modality=modality, page=page, text=text,
                                          pages=[page], bbox=(0, 0, 100, 100), region_id=region_of.get(i)))
        for modality, chunks in by_mod.items():
            lib.store.replace_chunks(d.id, modality, chunks)
            if chunks:
                lib.indexes[modality].add([c.id for c in chunks], lib.embedder.embed([c.text for c in chunks]))
    lib.indexes.save()


def build_library(tmp_path: Path, docs: list[FakeDoc], llm: FakeLLM | None = None, reranker: Any = None,
                  **settings: Any) -> Library:
    s = Settings(data_dir=tmp_path / "lib", **settings)
    s.data_dir.mkdir(parents=True, exist_ok=True)
    embedder = FakeEmbedder()
    llm = llm or FakeLLM()
    models = ModelProvider(s, overrides={"embedder": embedder, "llm": llm, "reranker": reranker, "vision": None,
                                         "detector": None, "ocr": None})
    store = Store(s.catalogue_path)
    indexes = Indexes(s.index_dir)
    indexes.open(embedder.dim)
    lib = Library(s, store, indexes, models, llm, embedder)
    add_docs(lib, docs)
    return lib


INCOME_TABLE = {
    "title": "Consolidated Statements of Operations",
    "units": "$ in millions",
    "columns": ["2023", "2022"],
    "rows": [
        {"label": "Revenue", "values": ["$1,234", "$1,100"], "numbers": [1234.0, 1100.0]},
        {"label": "Gross profit", "values": ["512", "440"], "numbers": [512.0, 440.0]},
        {"label": "Purchases of property, plant and equipment", "values": ["(88)", "(75)"],
         "numbers": [-88.0, -75.0]},
        {"label": "Total current assets", "values": ["900", "800"], "numbers": [900.0, 800.0]},
        {"label": "Total current liabilities", "values": ["450", "500"], "numbers": [450.0, 500.0]},
    ],
}


def acme_docs() -> list[FakeDoc]:
    """Two companies, two years of one of them; known facts on known pages."""
    return [
        FakeDoc("acme2023aaaa", "ACME_2023_10K", "Acme Widgets Corporation", "10-K", "FY2023", [
            ("text", 1, "Acme Widgets annual report form 10-K cover page fiscal year 2023"),
            ("text", 2, "Total revenue increased to $1,234 million in 2023 from $1,100 million in 2022."),
            ("text", 3, "Risk factors: suppliers of specialty steel could delay shipments."),
            ("text", 4, "Restricted cash held at December 31, 2023 was $57 million."),
            ("table", 5, "Consolidated Statements of Operations revenue gross profit", INCOME_TABLE),
            ("image", 6, "Bar chart of revenue by segment: Cloud 620, Devices 380, Services 234."),
        ]),
        FakeDoc("acme2022bbbb", "ACME_2022_10K", "Acme Widgets Corporation", "10-K", "FY2022", [
            ("text", 1, "Acme Widgets annual report form 10-K fiscal year 2022"),
            ("text", 2, "Total revenue was $1,100 million in 2022."),
        ]),
        FakeDoc("globex2023cc", "GLOBEX_2023_10K", "Globex Inc.", "10-K", "FY2023", [
            ("text", 1, "Globex annual report fiscal 2023"),
            ("text", 2, "Globex total revenue was $9,999 million in 2023."),
            ("text", 3, "Globex employs 4,000 people in Springfield."),
        ]),
    ]

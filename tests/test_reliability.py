"""Crash safety and `doctor`: a process dying at any write leaves a library that resumes without duplicates.

A ``SimulatedKill`` (a BaseException, so no ``except Exception`` in the engine swallows it) is raised at each
write boundary of ingestion, then a fresh Engine on the same data dir ingests again, as after ``kill -9``.
scripts/fault_injection.py does the same with real SIGKILLs on a subprocess.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fakes_models import FakeEmbedder, FakeLLM
from pdfgen import write_filing, write_pdf

from engine import Engine, Settings
from engine.library.doctor import run_doctor
from engine.library.index import VectorIndex
from engine.library.store import Store


class SimulatedKill(BaseException):
    """Stands in for SIGKILL: nothing after the kill point runs, no handler sees it."""


def make_engine(data_dir: Path) -> Engine:
    models = {"embedder": FakeEmbedder(), "llm": FakeLLM(), "vision": None, "detector": None, "ocr": None,
              "reranker": None}
    return Engine(Settings(data_dir=data_dir, extract_workers=1), overrides=models)


def other_pdf(path: Path) -> Path:
    return write_pdf(path, [["Dividends paid were $88 million in 2023, up from $80 million in 2022.",
                             "The board approved a new repurchase program of $500 million."],
                            ["Segment results: Industrial sales rose 4% to $2,010 million."]])


def kill_at(monkeypatch: pytest.MonkeyPatch, cls: type, name: str, *, nth: int = 1, after: bool = False,
            when: Callable[..., bool] = lambda *a, **k: True) -> dict[str, int]:
    """Make ``cls.name`` raise SimulatedKill on its ``nth`` matching call (before or after doing its work)."""
    original = getattr(cls, name)
    seen = {"calls": 0}

    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        if when(*args, **kwargs):
            seen["calls"] += 1
            if seen["calls"] == nth:
                if after:
                    original(self, *args, **kwargs)
                raise SimulatedKill(f"{cls.__name__}.{name}")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(cls, name, wrapper)
    return seen


def library_state(data_dir: Path) -> dict[str, Any]:
    """Chunk texts per document sha and whether each index's keys equal the catalogue's ids."""
    from engine.library.index import usearch_index

    Index = usearch_index()

    db = sqlite3.connect(data_dir / "catalogue.sqlite3")
    docs = db.execute("SELECT sha256, status FROM documents").fetchall()
    chunks: dict[str, Counter[tuple[str, str]]] = {}
    for sha, modality, text in db.execute(
        "SELECT d.sha256, c.modality, c.text FROM chunks c JOIN documents d ON d.id = c.doc_id"
    ):
        chunks.setdefault(sha, Counter())[(modality, text)] += 1
    equal = {}
    for m in ("text", "table", "image"):
        ids = {r[0] for r in db.execute("SELECT id FROM chunks WHERE modality = ?", (m,))}
        path = data_dir / "index" / f"{m}.usearch"
        keys = {int(k) for k in Index.restore(str(path)).keys} if path.exists() else set()
        equal[m] = keys == ids
    db.close()
    return {"docs": sorted(docs), "chunks": chunks, "index_equal": equal}


@pytest.fixture
def reference(tmp_path: Path) -> dict[str, Any]:
    """The library an uninterrupted ingest of the two test filings produces."""
    pdfs = [write_filing(tmp_path / "acme.pdf"), other_pdf(tmp_path / "other.pdf")]
    ref_dir = tmp_path / "reference"
    engine = make_engine(ref_dir)
    assert all(r.ok for r in engine.ingest(pdfs))
    engine.close()
    return {"pdfs": pdfs, "state": library_state(ref_dir)}


KILL_POINTS: list[tuple[str, type, str, dict[str, Any]]] = [
    ("pages written, text stage not recorded", Store, "put_pages", {"after": True}),
    ("regions written, detect not recorded", Store, "replace_regions", {"after": True}),
    ("text chunks replaced, table chunks not", Store, "replace_chunks", {"after": True}),
    ("chunks written, index not saved", VectorIndex, "save", {}),
    ("one index saved, the others not", VectorIndex, "save", {"after": True}),
    ("indexes saved, chunks not flagged", Store, "mark_indexed", {}),
    ("embed recorded, document still ingesting", Store, "set_stage",
     {"after": True, "when": lambda doc_id, stage, *a, **k: stage == "embed"}),
    ("second document: pages written", Store, "put_pages", {"after": True, "nth": 2}),
    ("second document: index not saved", VectorIndex, "save", {"nth": 4}),
]


@pytest.mark.parametrize(("label", "cls", "method", "opts"), KILL_POINTS, ids=[k[0] for k in KILL_POINTS])
def test_kill_at_each_write_then_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reference: dict[str, Any],
    label: str, cls: type, method: str, opts: dict[str, Any],
) -> None:
    data = tmp_path / "lib"
    with monkeypatch.context() as m:
        hits = kill_at(m, cls, method, **opts)
        with pytest.raises(SimulatedKill):
            make_engine(data).ingest(reference["pdfs"])
        assert hits["calls"] >= 1, label
    # A fresh process: doctor sees an interrupted (not a corrupt) library; ingest resumes it.
    check = run_doctor(Settings(data_dir=data), models=_fake_provider(data))
    assert not [f for f in check.findings if f.check in {"integrity", "foreign_keys", "index_unreadable"}]
    engine = make_engine(data)
    results = engine.ingest(reference["pdfs"])
    assert all(r.ok for r in results), [r.error for r in results]
    assert {r.status for r in results} <= {"ingested", "resumed", "unchanged"}
    engine.close()
    state = library_state(data)
    assert state == reference["state"], label
    report = make_engine(data).doctor()
    assert report.clean, [f.message for f in report.problems]


def _fake_provider(data: Path) -> Any:
    from engine.models.provider import ModelProvider

    return ModelProvider(Settings(data_dir=data), overrides={"embedder": FakeEmbedder()})


def test_three_interrupted_attempts_leave_no_orphan_vectors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reference: dict[str, Any]
) -> None:
    """Attempt 1 saves vectors then dies; attempt 2 replaces the chunks then dies before saving; the vectors
    of attempt 1 belong to no chunk any more and must not survive attempt 3."""
    data = tmp_path / "lib"
    pdfs = reference["pdfs"]
    with monkeypatch.context() as m:
        kill_at(m, Store, "mark_indexed")
        with pytest.raises(SimulatedKill):
            make_engine(data).ingest(pdfs)
    with monkeypatch.context() as m:
        kill_at(m, VectorIndex, "save")
        with pytest.raises(SimulatedKill):
            make_engine(data).ingest(pdfs)
    engine = make_engine(data)
    assert all(r.ok for r in engine.ingest(pdfs))
    engine.close()
    assert library_state(data) == reference["state"]


def kill_during_remove(data: Path, monkeypatch: pytest.MonkeyPatch, reference: dict[str, Any]) -> None:
    """Ingest the reference PDFs, then remove one and die in the index save: the catalogue commits, the
    index save never happens."""
    engine = make_engine(data)
    engine.ingest(reference["pdfs"])
    with monkeypatch.context() as m:
        kill_at(m, VectorIndex, "save")
        with pytest.raises(SimulatedKill):
            engine.remove("acme")
    engine.close()


def test_kill_during_remove_leaves_orphans_that_doctor_and_ingest_drop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reference: dict[str, Any]
) -> None:
    data = tmp_path / "lib"
    kill_during_remove(data, monkeypatch, reference)
    report = make_engine(data).doctor()
    assert [f.check for f in report.problems] == ["orphan_vectors"]
    fixed = make_engine(data).doctor(repair=True)
    assert all(f.repaired for f in fixed.problems) and fixed.clean or not fixed.problems
    assert make_engine(data).doctor().clean
    state = library_state(data)
    assert all(state["index_equal"].values()) and len(state["docs"]) == 1


def test_doctor_repairs_damaged_index_wrong_dimension_and_temp_files(tmp_path: Path) -> None:
    data = tmp_path / "lib"
    engine = make_engine(data)
    engine.ingest([write_filing(tmp_path / "acme.pdf")])
    engine.close()
    text = data / "index" / "text.usearch"
    text.write_bytes(text.read_bytes()[:64])  # torn
    (data / "index" / "table.usearch.tmp").write_bytes(b"half a file")
    (data / "lexical.tmp").mkdir()
    report = make_engine(data).doctor()
    checks = {f.check for f in report.problems}
    assert {"index_unreadable", "stale_temp"} <= checks and not report.clean
    engine = make_engine(data)
    assert engine.doctor(repair=True).clean
    assert engine.ask("How much restricted cash was held?", save=False).evidence
    assert not (data / "index" / "table.usearch.tmp").exists() and not (data / "lexical.tmp").exists()
    assert list((data / "index").glob("text.usearch.damaged-*")), "the damaged file is kept aside"
    engine.close()

    class Wider(FakeEmbedder):
        dim = 384

    wider = Engine(Settings(data_dir=data, extract_workers=1), overrides={"embedder": Wider(), "llm": FakeLLM()})
    report = wider.doctor()
    assert "index_dimension" in {f.check for f in report.problems}
    assert wider.doctor(repair=True).clean
    assert wider.doctor().clean
    assert library_state(data)["index_equal"] == {"text": True, "table": True, "image": True}


def test_another_embedder_of_the_same_size_is_refused_until_doctor_re_embeds(tmp_path: Path) -> None:
    """Two embedders of one size (MiniLM and its int8 ONNX export) would mix vectors silently: the library
    records which one made them, search and ingest refuse the other, and doctor --repair embeds again."""
    from engine.errors import StoreError

    data = tmp_path / "lib"
    engine = make_engine(data)
    engine.ingest([write_filing(tmp_path / "acme.pdf")])
    assert engine.store.vectors_embedder() == "fake-crc32"
    engine.close()

    class Renamed(FakeEmbedder):
        name = "fake-crc32-int8"

    def renamed() -> Engine:
        return Engine(Settings(data_dir=data, extract_workers=1),
                      overrides={"embedder": Renamed(), "llm": FakeLLM(), "vision": None, "detector": None,
                                 "ocr": None, "reranker": None})

    other = renamed()
    with pytest.raises(StoreError, match="doctor --repair"):
        other.retriever().retrieve("How much restricted cash was held?")
    results = other.ingest([other_pdf(tmp_path / "other.pdf")])
    assert not results[0].ok and results[0].error_title == "Embedder changed"
    vectors = (data / "index" / "text.usearch").read_bytes()
    report = other.doctor()
    assert "index_embedder" in {f.check for f in report.problems}
    assert (data / "index" / "text.usearch").read_bytes() == vectors, "doctor without --repair changes nothing"
    other.doctor(repair=True)
    other.close()
    again = renamed()
    assert again.store.vectors_embedder() == "fake-crc32-int8" and again.doctor().clean
    assert again.retriever().retrieve("How much restricted cash was held?").evidence
    assert library_state(data)["index_equal"] == {"text": True, "table": True, "image": True}
    again.close()


def test_a_library_that_never_recorded_its_embedder_is_told_by_its_vectors(tmp_path: Path) -> None:
    """Libraries from before the embedder was recorded: doctor compares a sample of stored vectors with the
    current embedder's vectors of the same texts, records the embedder when they agree and embeds again when
    they do not."""
    from engine.library.store import EMBEDDER_KEY

    data = tmp_path / "lib"
    engine = make_engine(data)
    engine.ingest([write_filing(tmp_path / "acme.pdf")])
    engine.store.conn().execute("DELETE FROM settings_kv WHERE key = ?", (EMBEDDER_KEY,))
    engine.store.conn().commit()
    assert engine.store.vectors_embedder() is None
    engine.close()

    class Salted(FakeEmbedder):  # same size, other vectors
        name = "fake-crc32-salted"

        def embed(self, texts: Sequence[str]) -> np.ndarray:
            return super().embed([f"salt {t} pepper" for t in texts])

    def opened(embedder: Any) -> Engine:
        return Engine(Settings(data_dir=data, extract_workers=1),
                      overrides={"embedder": embedder, "llm": FakeLLM(), "vision": None, "detector": None,
                                 "ocr": None, "reranker": None})

    other = opened(Salted())
    found = {f.check: f for f in other.doctor().findings}
    assert "index_embedder" in found and "not recorded in the library" in found["index_embedder"].message
    other.doctor(repair=True)
    assert other.store.vectors_embedder() == "fake-crc32-salted" and other.doctor().clean
    other.store.conn().execute("DELETE FROM settings_kv WHERE key = ?", (EMBEDDER_KEY,))
    other.store.conn().commit()
    other.close()
    same = opened(Salted())  # the vectors are this embedder's now: recorded, nothing embedded again
    vectors = (data / "index" / "text.usearch").read_bytes()
    report = same.doctor(repair=True)
    assert [f.check for f in report.findings if f.check.startswith("index_embedder")] == ["index_embedder_unrecorded"]
    assert same.store.vectors_embedder() == "fake-crc32-salted"
    assert (data / "index" / "text.usearch").read_bytes() == vectors
    same.close()


def test_doctor_salvages_a_damaged_catalogue(tmp_path: Path) -> None:
    data = tmp_path / "lib"
    engine = make_engine(data)
    engine.ingest([write_filing(tmp_path / "acme.pdf")])
    engine.close()
    cat = data / "catalogue.sqlite3"
    db = sqlite3.connect(cat)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    raw = bytearray(cat.read_bytes())
    page = 4096
    raw[page * 2 : page * 2 + 200] = b"\xff" * 200  # scribble over a b-tree page
    cat.write_bytes(bytes(raw))
    settings = Settings(data_dir=data)
    report = run_doctor(settings, models=_fake_provider(data))
    assert not report.clean and report.problems[0].check in {"integrity", "catalogue"}
    repaired = run_doctor(settings, repair=True, models=_fake_provider(data))
    assert any(f.check == "integrity" and f.repaired for f in repaired.findings)
    assert list(data.glob("catalogue.sqlite3.damaged-*"))
    final = run_doctor(settings, repair=True, models=_fake_provider(data))
    assert run_doctor(settings, models=_fake_provider(data)).clean, [f.message for f in final.problems]


def test_doctor_marks_interrupted_documents_resumable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "lib"
    pdf = write_filing(tmp_path / "acme.pdf")
    with monkeypatch.context() as m:
        kill_at(m, Store, "put_pages", after=True)
        with pytest.raises(SimulatedKill):
            make_engine(data).ingest([pdf])
    engine = make_engine(data)
    assert engine.documents()[0].status == "ingesting"
    report = engine.doctor(repair=True)
    assert any(f.check == "document_interrupted" and f.repaired for f in report.findings)
    assert engine.documents()[0].status == "failed" and "resume" in engine.documents()[0].error
    [res] = engine.ingest([pdf])
    assert res.ok and res.status == "resumed" and engine.doctor().clean


def test_doctor_cli_json_and_exit_codes(tmp_path: Path) -> None:
    from mfr_tui.cli import main

    data = tmp_path / "lib"
    engine = make_engine(data)
    engine.ingest([write_filing(tmp_path / "acme.pdf")])
    engine.close()
    (data / "index" / "text.usearch.tmp").write_bytes(b"x")
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(["--data-dir", str(data), "doctor", "--json"])
    report = json.loads(out.getvalue())
    assert rc == 1 and not report["clean"] and report["findings"][0]["check"] in {"stale_temp", "file_permissions"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(["--data-dir", str(data), "doctor", "--repair"])
    assert rc == 0 and "clean" in out.getvalue()


def test_doctor_reports_a_busy_writer(tmp_path: Path) -> None:
    data = tmp_path / "lib"
    engine = make_engine(data)
    engine.ingest([write_filing(tmp_path / "acme.pdf")])
    from engine.library.lock import WriterLock

    other = WriterLock(data)
    with other:
        report = run_doctor(Settings(data_dir=data), repair=True, models=_fake_provider(data))
    assert any(f.check == "writer_busy" for f in report.findings) and not report.repaired


def test_files_in_the_data_dir_are_private(tmp_path: Path) -> None:
    import os
    import stat

    data = tmp_path / "fresh" / "lib"
    engine = make_engine(data)
    engine.ingest([write_filing(tmp_path / "acme.pdf")])
    engine.close()
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    for p in [data / "catalogue.sqlite3", data / "writer.lock", *(data / "index").glob("*.usearch")]:
        assert stat.S_IMODE(os.stat(p).st_mode) & 0o077 == 0, p


def test_next_ingest_drops_vectors_orphaned_by_a_killed_remove(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reference: dict[str, Any]
) -> None:
    data = tmp_path / "lib"
    kill_during_remove(data, monkeypatch, reference)
    assert not all(library_state(data)["index_equal"].values())
    engine = make_engine(data)
    [res] = engine.ingest([write_pdf(tmp_path / "third.pdf", [["Capital expenditures were $140 million."]])])
    assert res.ok
    engine.close()
    assert all(library_state(data)["index_equal"].values())
    assert make_engine(data).doctor().clean


def test_doctor_finds_torn_and_orphan_crops(tmp_path: Path) -> None:
    from engine.types import Region

    data = tmp_path / "lib"
    engine = make_engine(data)
    [res] = engine.ingest([write_filing(tmp_path / "acme.pdf")])
    crops = data / "crops" / res.doc_id
    crops.mkdir(parents=True, exist_ok=True)
    torn = crops / "p0002-table-000.png"
    torn.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)  # killed mid-write: no IEND chunk
    region = Region(id=0, doc_id=res.doc_id, page=2, kind="figure", bbox=(10, 10, 100, 100), method="test",
                    crop_path=str(torn))
    engine.store.replace_regions(res.doc_id, [region], kinds=["figure"])
    (data / "crops" / "deadbeef0000").mkdir()
    report = engine.doctor()
    assert {"crop_torn", "orphan_crops"} <= {f.check for f in report.problems}
    assert engine.doctor(repair=True).clean
    assert not torn.exists() and not (data / "crops" / "deadbeef0000").exists()
    assert engine.store.regions(res.doc_id, kind="figure")[0].crop_path == ""
    assert engine.doctor().clean

"""One writer, many readers: questions are answered while ingestion runs (threads and processes), and a
second writing process gets a clear LibraryBusyError instead of touching the library."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from fakes_models import FakeEmbedder, FakeLLM
from pdfgen import write_filing, write_pdf

from engine import Engine, EngineError, LibraryBusyError, Settings

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent


class SlowEmbedder(FakeEmbedder):
    """A fake embedder that takes a little time per batch, so ingestion overlaps the readers."""

    def __init__(self, delay: float = 0.02) -> None:
        super().__init__()
        self.delay = delay

    def embed(self, texts):  # type: ignore[no-untyped-def]
        time.sleep(self.delay)
        return super().embed(texts)


class GatedEmbedder(FakeEmbedder):
    """A fake embedder whose batches wait for ``gate``, holding an ingestion mid-document; after a minute
    without it the gate opens by itself (so a test that would deadlock fails instead)."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.waiting = threading.Event()
        """Set once an ingestion is held at the gate."""

    def embed(self, texts):  # type: ignore[no-untyped-def]
        self.waiting.set()
        if not self.gate.wait(60):
            self.gate.set()
        return super().embed(texts)


def make_engine(data: Path, embedder: FakeEmbedder | None = None) -> Engine:
    models = {"embedder": embedder or FakeEmbedder(), "llm": FakeLLM(), "vision": None, "detector": None,
              "ocr": None, "reranker": None}
    return Engine(Settings(data_dir=data, extract_workers=1), overrides=models)


def filings(tmp_path: Path, n: int) -> list[Path]:
    out = []
    for i in range(n):
        out.append(write_pdf(tmp_path / f"co{i}.pdf", [
            [f"Company {i} annual report for fiscal year 202{i}.",
             f"Total revenue of company {i} was ${100 + i} million, restricted cash ${10 + i} million.",
             "Operating expenses rose because of higher freight costs and wages in the period."] * 3,
            [f"Dividends of company {i} were ${5 + i} million; share repurchases ${20 + i} million."] * 4,
        ]))
    return out


def test_questions_are_answered_while_ingest_runs_in_threads(tmp_path: Path, private_data_dir: Path) -> None:
    engine = make_engine(private_data_dir, SlowEmbedder())
    engine.ingest([write_filing(tmp_path / "acme.pdf")])
    errors: list[BaseException] = []
    answers = 0
    done = threading.Event()

    def writer() -> None:
        try:
            results = engine.ingest(filings(tmp_path, 4))
            assert all(r.ok for r in results), [r.error for r in results]
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            done.set()

    def reader() -> None:
        nonlocal answers
        while not done.is_set():
            try:
                a = engine.ask("How much restricted cash was held?", save=True)
                assert a.evidence
                answers += 1
                engine.documents()
                engine.history(limit=5)
            except BaseException as exc:
                errors.append(exc)
                return

    threads = [threading.Thread(target=writer)] + [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    assert answers >= 3
    assert len(engine.documents()) == 5
    assert engine.doctor().clean


WRITER = r"""
import sys, time
sys.path.insert(0, {tests!r})
from pathlib import Path
from fakes_models import FakeEmbedder, FakeLLM
from engine import Engine, Settings

class Slow(FakeEmbedder):
    def embed(self, texts):
        time.sleep(0.15)
        return super().embed(texts)

engine = Engine(Settings(data_dir=Path({data!r}), extract_workers=1),
                overrides={{"embedder": Slow(), "llm": FakeLLM(), "vision": None, "detector": None,
                           "ocr": None, "reranker": None}})
res = engine.ingest([Path(p) for p in {pdfs!r}])
print("OK" if all(r.ok for r in res) else "FAILED " + repr([r.error for r in res]))
"""


def test_reader_process_and_second_writer_while_another_process_ingests(
    tmp_path: Path, private_data_dir: Path
) -> None:
    engine = make_engine(private_data_dir)
    engine.ingest([write_filing(tmp_path / "acme.pdf")])
    pdfs = [str(p) for p in filings(tmp_path, 3)]
    code = WRITER.format(tests=str(TESTS), data=str(private_data_dir), pdfs=pdfs)
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, cwd=REPO)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # wait until the child holds the lock and is mid-document
            if any(d.status == "ingesting" for d in engine.documents()):
                break
            time.sleep(0.05)
        else:
            pytest.fail("the writer process never started ingesting")
        # A second writer in this process: a clear error naming the holder, and the library is untouched.
        with pytest.raises(LibraryBusyError) as info:
            engine.ingest([write_pdf(tmp_path / "late.pdf", [["Late filing text about revenue."]])])
        assert "pid" in info.value.message and "writing to the library" in info.value.message
        # ... and through the CLI: exit 2 and the same message.
        cli = subprocess.run(
            [sys.executable, "-m", "mfr_tui.cli", "--data-dir", str(private_data_dir), "ingest",
             str(tmp_path / "late.pdf")], capture_output=True, text=True, cwd=REPO, timeout=120,
        )
        assert cli.returncode == 2 and "Library busy" in cli.stderr and "pid" in cli.stderr, cli.stderr
        # Readers keep answering while the other process writes.
        answered = 0
        while child.poll() is None:
            a = engine.ask("How much restricted cash was held?", save=False)
            assert a.evidence
            answered += 1
        assert answered >= 1
    finally:
        out, err = child.communicate(timeout=120)
    assert out.strip() == "OK", err[-2000:]
    names = {d.name for d in engine.documents()}
    assert {"co0", "co1", "co2"} <= names
    # The reader sees the writer's vectors without reopening (the index reloads when its file changes).
    ret = engine.retrieve("dividends of company 2", scope=["co2"])
    assert ret.evidence and ret.evidence[0].doc == "co2"
    assert engine.doctor().clean


def test_busy_error_is_an_engine_error_with_a_title(tmp_path: Path) -> None:
    from engine.library.lock import WriterLock

    first, second = WriterLock(tmp_path), WriterLock(tmp_path)
    with first:
        with pytest.raises(EngineError) as info:
            with second:
                pass
    assert info.value.title == "Library busy"
    with second:  # released by the first: the next writer gets it
        pass


def test_doctor_does_not_wait_for_an_ingest_in_another_thread(tmp_path: Path, private_data_dir: Path) -> None:
    embedder = GatedEmbedder()
    engine = make_engine(private_data_dir, embedder)
    t = threading.Thread(target=lambda: engine.ingest(filings(tmp_path, 2)))
    t.start()
    assert embedder.waiting.wait(60), "the ingestion never reached its embed stage"
    report = engine.doctor()
    # The ingestion is still held at the gate: the doctor finished without waiting for the writer.
    finished_during_ingest = t.is_alive() and not embedder.gate.is_set()
    embedder.gate.set()
    t.join(60)
    assert finished_during_ingest, "the doctor waited for the ingestion to finish"
    assert any(f.check == "writer_busy" for f in report.findings)
    assert engine.doctor().clean

"""Answering has priority over ingestion (issue 25): the answering lock across processes, ingestion that waits
for it between pages, the thread budget, stage overlap, and what the TUI shows of a pause."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fakes_models import FakeEmbedder, FakeLLM
from pdfgen import write_filing, write_pdf

from engine import Engine, Settings
from engine.library.lock import AnswerSignal
from engine.models.budget import ThreadBudget, llm_is_local, physical_cores
from engine.types import IngestProgress

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent

HOLDER = r"""
import sys, time
from pathlib import Path
from engine.library.lock import AnswerSignal
data, held, release = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
with AnswerSignal(data).answering():
    held.write_text("held")
    while not release.exists():
        time.sleep(0.02)
"""


def hold_answering(data: Path, tmp: Path) -> tuple[subprocess.Popen[bytes], Path]:
    """Another process that answers (holds the lock) until the returned file is created."""
    held, release = tmp / "held", tmp / "release"
    held.unlink(missing_ok=True)
    release.unlink(missing_ok=True)
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(data), str(held), str(release)], cwd=REPO,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    deadline = time.monotonic() + 60
    while not held.exists():
        assert proc.poll() is None and time.monotonic() < deadline, "the answering process did not start"
        time.sleep(0.02)
    return proc, release


def test_an_answer_in_another_process_holds_ingestion_until_it_ends(tmp_path: Path) -> None:
    data = tmp_path / "data"
    signal_ = AnswerSignal(data)
    assert not signal_.busy() and signal_.wait() == 0.0
    proc, release = hold_answering(data, tmp_path)
    try:
        assert signal_.busy()
        waiting = threading.Event()
        out: list[float] = []
        t = threading.Thread(target=lambda: out.append(signal_.wait(waiting=waiting.set)))
        t.start()
        assert waiting.wait(30)
        t.join(0.5)
        assert t.is_alive(), "the wait returned while the other process was still answering"
        release.write_text("")
        t.join(30)
        assert not t.is_alive() and out and out[0] > 0
    finally:
        release.write_text("")
        proc.wait(30)
    assert not signal_.busy()


def test_the_wait_ends_with_the_answers_in_flight_not_with_those_that_start_meanwhile(tmp_path: Path) -> None:
    """Answers that overlap back to back never leave a moment with none running; ingestion waits for the ones
    running when it came (here, another process's), while an answer that starts during the wait goes on."""
    data = tmp_path / "data"
    signal_ = AnswerSignal(data)
    proc, release = hold_answering(data, tmp_path)
    waiting, out = threading.Event(), []
    t = threading.Thread(target=lambda: out.append(signal_.wait(waiting=waiting.set)))
    try:
        t.start()
        assert waiting.wait(30)
        with signal_.answering():  # a new answer starts while the first still runs, and outlives it
            release.write_text("")
            proc.wait(30)
            t.join(30)
            assert not t.is_alive(), "the wait also waited for the answer that started during it"
            assert out and out[0] > 0
            assert signal_.busy()
        assert not signal_.busy()
    finally:
        release.write_text("")
        proc.wait(30)
        t.join(30)


def test_a_crashed_answering_process_leaves_nothing_that_blocks(tmp_path: Path) -> None:
    data = tmp_path / "data"
    proc, _ = hold_answering(data, tmp_path)
    assert AnswerSignal(data).busy()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(30)
    assert (data / AnswerSignal.FILE).exists()  # the file stays; its lock died with the process
    assert not AnswerSignal(data).busy()
    assert AnswerSignal(data).wait() == 0.0


def test_a_cancel_ends_the_wait(tmp_path: Path) -> None:
    data = tmp_path / "data"
    proc, release = hold_answering(data, tmp_path)
    try:
        cancel = threading.Event()
        threading.Timer(0.2, cancel.set).start()
        assert AnswerSignal(data).wait(cancel.is_set) > 0  # returns although the answer goes on
        assert AnswerSignal(data).busy()
    finally:
        release.write_text("")
        proc.wait(30)


def fake_models(**changes: Any) -> dict[str, Any]:
    return {"embedder": FakeEmbedder(), "llm": FakeLLM(), "vision": None, "detector": None, "ocr": None,
            "reranker": None, **changes}


def long_filing(path: Path, pages: int = 12) -> Path:
    return write_pdf(path, [[f"Page {i} of the annual report: revenue rose in segment {i}.",
                             "Operating expenses rose because of freight costs and wages."] for i in range(pages)])


def test_ingestion_pauses_between_pages_while_another_process_answers(tmp_path: Path, private_data_dir: Path) -> None:
    engine = Engine(Settings(data_dir=private_data_dir, extract_workers=2), overrides=fake_models())
    seen: list[IngestProgress] = []
    proc, release = hold_answering(private_data_dir, tmp_path)
    results: list[Any] = []
    t = threading.Thread(target=lambda: results.extend(engine.ingest([long_filing(tmp_path / "a.pdf")],
                                                                     on_progress=seen.append)))
    try:
        t.start()
        deadline = time.monotonic() + 60
        while not any(p.stage == "paused" for p in seen):
            assert time.monotonic() < deadline, [p.stage for p in seen]
            time.sleep(0.02)
        t.join(1.0)
        assert t.is_alive()
        assert engine.documents()[0].status == "ingesting"
        assert not any(p.stage == "embed" for p in seen)
    finally:
        release.write_text("")
        proc.wait(30)
    t.join(60)
    assert results and results[0].ok and results[0].paused_seconds > 0
    stages = [p.stage for p in seen]
    assert stages.index("paused") < stages.index("resumed") < stages.index("done")
    assert engine.documents()[0].status == "ready"


def test_answers_first_off_does_not_wait(tmp_path: Path, private_data_dir: Path) -> None:
    settings = Settings(data_dir=private_data_dir, extract_workers=1, answers_first=False)
    engine = Engine(settings, overrides=fake_models())
    proc, release = hold_answering(private_data_dir, tmp_path)
    try:
        seen: list[IngestProgress] = []
        results = engine.ingest([write_filing(tmp_path / "a.pdf")], on_progress=seen.append)
        assert results[0].ok and results[0].paused_seconds == 0.0
        assert "paused" not in {p.stage for p in seen}
    finally:
        release.write_text("")
        proc.wait(30)


class ProbingLLM(FakeLLM):
    """Records whether the answering lock of ``data`` is held while it generates (seen as another process)."""

    def __init__(self, data: Path) -> None:
        super().__init__()
        self.data = data
        self.busy: list[bool] = []

    def chat(self, messages, **kwargs):  # type: ignore[no-untyped-def]
        self.busy.append(AnswerSignal(self.data).busy())
        return super().chat(messages, **kwargs)


def test_an_answer_holds_the_lock_while_the_model_runs(tmp_path: Path, private_data_dir: Path) -> None:
    llm = ProbingLLM(private_data_dir)
    engine = Engine(Settings(data_dir=private_data_dir, extract_workers=1), overrides=fake_models(llm=llm))
    engine.ingest([write_filing(tmp_path / "acme.pdf")])
    assert not AnswerSignal(private_data_dir).busy()
    engine.ask("How much restricted cash was held?", save=False)
    assert llm.busy and all(llm.busy)
    assert not AnswerSignal(private_data_dir).busy()


def test_a_remote_model_does_not_pause_ingestion(tmp_path: Path, private_data_dir: Path) -> None:
    toml = tmp_path / "models.toml"
    shipped = (REPO / "models.toml").read_text()
    toml.write_text(shipped + '\n[profiles.far]\ninherits = "default"\n[profiles.far.llm]\n'
                    'backend = "openai"\nurl = "http://gpu-box.example:8080"\n')
    llm = ProbingLLM(private_data_dir)
    models = fake_models()
    del models["llm"]
    settings = Settings(data_dir=private_data_dir, models_toml=toml, profile="far", extract_workers=1)
    engine = Engine(settings, overrides=models)
    assert not engine.models.budget.llm_local
    engine.models._models["llm"] = llm  # the remote server itself is not part of this test
    engine.ingest([write_filing(tmp_path / "acme.pdf")])
    engine.ask("How much restricted cash was held?", save=False)
    assert llm.busy == [False] or (llm.busy and not any(llm.busy))


def test_budget_never_asks_for_more_cores_than_there_are() -> None:
    two = ThreadBudget.plan(cpus=2, physical=2)
    assert (two.llm, two.embedder, two.detector, two.extract, two.overlap) == (2, 2, 2, 2, False)
    big = ThreadBudget.plan(cpus=32, physical=16)
    assert big.overlap and big.llm == 8
    assert big.embedder + big.detector <= big.physical  # the two overlapping streams share the cores
    assert big.extract <= big.detector
    smt = ThreadBudget.plan(cpus=16, physical=8)
    assert smt.overlap and smt.embedder + smt.detector <= 8 and smt.llm == 8
    # with answers_first off the model keeps its cores and ingestion gets what is left, at least one
    shared = ThreadBudget.plan(cpus=4, physical=4, answers_first=False)
    assert shared.llm + shared.ingest <= 4 or shared.ingest == 1
    one = ThreadBudget.plan(cpus=1, physical=1, answers_first=False)
    assert one.ingest == 1 and one.embedder == 1 and not one.overlap
    # a remote model leaves every core to ingestion, answers_first or not
    remote = ThreadBudget.plan(cpus=4, physical=4, llm_local=False, answers_first=False)
    assert remote.ingest == 4 and remote.overlap
    assert ThreadBudget.plan(cpus=16, physical=16, n_threads=3).llm == 3
    assert json.loads(json.dumps(big.to_json()))["overlap"] is True


def test_physical_cores_count_hyperthreads_once(tmp_path: Path) -> None:
    for cpu, core in enumerate([0, 1, 0, 1]):
        topo = tmp_path / f"cpu{cpu}" / "topology"
        topo.mkdir(parents=True)
        (topo / "core_id").write_text(f"{core}\n")
        (topo / "physical_package_id").write_text("0\n")
    assert physical_cores([0, 1, 2, 3], tmp_path) == 2
    assert physical_cores([0, 2], tmp_path) == 1
    assert physical_cores([0, 7], tmp_path) == 2  # no topology for cpu7: every CPU counts


def test_which_models_are_local() -> None:
    assert llm_is_local("llama-server") and llm_is_local("llama-cpp")
    assert llm_is_local("openai", "http://127.0.0.1:8080") and llm_is_local("openai", "http://localhost:1")
    assert not llm_is_local("openai", "https://gpu-box.example:8080")


def test_overlapping_files_give_the_same_library(tmp_path: Path) -> None:
    files = [write_filing(tmp_path / "a.pdf"), long_filing(tmp_path / "b.pdf"), long_filing(tmp_path / "c.pdf", 3)]

    def library(mode: str) -> list[tuple[Any, ...]]:
        engine = Engine(Settings(data_dir=tmp_path / mode, extract_workers=1, overlap_stages=mode),
                        overrides=fake_models())
        assert engine._ingestor.overlap() is (mode == "on")
        results = engine.ingest(files)
        assert all(r.ok for r in results) and [Path(r.path).name for r in results] == ["a.pdf", "b.pdf", "c.pdf"]
        chunks = sorted((c.doc_id, c.modality, c.page, c.text) for c in engine.store.chunks())
        docs = sorted((d.name, d.status, d.chunks) for d in engine.documents())
        assert engine.doctor().clean
        return [*docs, *chunks]

    assert library("on") == library("off")


def test_the_tui_state_says_paused_and_the_eta_leaves_the_pause_out() -> None:
    from mfr_tui.state import IngestState

    def progress(stage: str, done: int = 0, total: int = 0) -> IngestProgress:
        return IngestProgress("a.pdf", "d" * 12, stage, done, total, "", "", 0, 1)

    st = IngestState()
    st.start(["a.pdf"], at=0.0)
    st.clock = lambda: 30.0
    st.apply(progress("open", 0, 1), 0.0)
    st.apply(progress("text", 5, 10), 10.0)
    st.apply(progress("paused"), 10.0)
    assert st.paused and "paused for a question" in st.summary() and "ETA" not in st.summary()
    st.apply(progress("resumed"), 30.0)
    assert not st.paused and st.paused_seconds() == pytest.approx(20.0)
    st.apply(progress("text", 6, 10), 32.0)
    assert st.stages["text"].eta() == pytest.approx(8.0)  # 6 pages in 12 s of work, not 32 s
    assert st.files["a.pdf"].stage == "text"  # a pause is not a stage
    assert "ETA" in st.summary()


async def test_the_status_line_says_when_ingestion_waits_for_a_question(private_data_dir: Path) -> None:
    from fakes_engine import FakeEngine, wait_until
    from textual.widgets import Static

    from mfr_tui.app import MfrApp
    from mfr_tui.messages import IngestProgressed, IngestStarted

    def progress(stage: str, done: int = 0, total: int = 0) -> IngestProgress:
        return IngestProgress("a.pdf", "d" * 12, stage, done, total, "", "", 0, 1)

    settings = Settings(data_dir=private_data_dir)
    app = MfrApp(settings, engine=FakeEngine(settings))

    def status() -> str:
        return str(app.query_one("#status", Static).render())

    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: bool(app.library.documents) or app.engine._docs == {})  # type: ignore[union-attr]
        app.post_message(IngestStarted(["a.pdf"], ["a.pdf"], 0.0))
        app.post_message(IngestProgressed(progress("text", 1, 10), 1.0))
        await wait_until(pilot, lambda: "Ingesting 1/1 · text 1/10" in status())
        app.post_message(IngestProgressed(progress("paused"), 2.0))
        await wait_until(pilot, lambda: "paused for a question" in status())
        app.action_show_ingest()
        await wait_until(pilot, lambda: bool(app.screen.query("#ingest-title")))
        await pilot.pause()
        assert "paused for a question" in str(app.screen.query_one("#ingest-title").render())
        app.post_message(IngestProgressed(progress("resumed"), 5.0))
        await wait_until(pilot, lambda: "paused" not in status() and "ETA" in status())
        assert app.ingest_state.paused_seconds() == pytest.approx(3.0)

"""How many threads each model may use: one place that knows the machine's cores.

The model server (llama.cpp), the embedder (torch or ONNX Runtime), the layout detector, OCR and the text-layer
readers all take their counts from ``ThreadBudget``, so together they never ask for more cores than the
process may run on. llama.cpp spins its threads at barriers: one busy thread elsewhere on one of its cores
slows every generated token, so the budget is about cores, not about being fair.

While a question is answered ingestion pauses (``Settings.answers_first``, ``engine.library.lock.
AnswerSignal``): the model and ingestion take turns, so each gets every core. With ``answers_first`` off, the
local model keeps its cores and ingestion gets the rest (at least one). A model served from another machine
(the ``openai`` backend at a non-loopback address) leaves every core to ingestion, and answers do not pause it.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

MAX_TORCH_THREADS = 8
"""Small models (MiniLM, YOLO) gain nothing past this many threads; more only contend."""

MAX_LLM_THREADS = 8
"""llama.cpp on the CPU is memory bound past about eight cores."""

MAX_EXTRACT_WORKERS = 4
"""Processes reading text layers: pdfminer is pure Python, each process costs ~150 MiB."""

OVERLAP_MIN_CORES = 4
"""Overlapping the stages of consecutive files (one file embedded while the next is read and detected) needs two
cores per stream: on two cores it was slower (2.68x vs 1.98x a bare pdfplumber pass), the embedder's and the
detector's threads contending."""


def usable_cpus() -> list[int]:
    """The logical CPUs the OS lets this process run on (its affinity mask, cgroup cpusets included)."""
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return list(range(os.cpu_count() or 1))


def physical_cores(cpus: list[int], sysfs: Path = Path("/sys/devices/system/cpu")) -> int:
    """Physical cores among ``cpus`` (hyper-threads of one core count once), read from sysfs where the OS
    gives the topology; else every logical CPU counts."""
    cores: set[tuple[str, str]] = set()
    for cpu in cpus:
        topo = sysfs / f"cpu{cpu}" / "topology"
        try:
            cores.add(((topo / "physical_package_id").read_text().strip(), (topo / "core_id").read_text().strip()))
        except OSError:
            return len(cpus)
    return max(1, len(cores)) if cores else max(1, len(cpus))


def llm_is_local(backend: str, url: str = "") -> bool:
    """Whether the text model runs on this machine's CPUs: every backend but ``openai``, and ``openai`` when its
    URL names this machine (a llama.cpp server started by hand beside the app)."""
    if backend != "openai":
        return backend != "none"
    host = (urlparse(url).hostname or "").lower()
    return host in {"localhost", "::1", "0.0.0.0"} or host.startswith("127.") or host == os.uname().nodename.lower()


@dataclass(frozen=True)
class ThreadBudget:
    """Thread counts per role, from the cores this process may use."""

    cpus: int
    """Logical CPUs the process may run on (``os.sched_getaffinity``)."""
    physical: int
    """Physical cores among them."""
    llm_local: bool
    """The text model runs on these cores (false for a remote ``openai`` server)."""
    answers_first: bool
    """Ingestion pauses while a question is answered (``Settings.answers_first``)."""
    llm: int
    """llama.cpp threads (``n_threads``) of a model served on this machine (the text model, or a vision model)."""
    ingest: int
    """Cores ingestion may use at once."""
    embedder: int
    """Cores of the embedder: on the CPU, that many of a call's forward batches at once, one thread each
    (sentence-transformers), or ONNX Runtime intra-op threads (the ONNX embedder)."""
    detector: int
    """Cores of the layout detector: that many one-thread copies of an ONNX model on the CPU (at most
    ``yolo_detector.MAX_STREAMS``, the rest as threads of each)."""
    ocr: int
    """ONNX Runtime threads of OCR (runs in the detector's stream, one after the other)."""
    reranker: int
    """Threads of the cross-encoder reranker (runs while answering, when ingestion is paused)."""
    extract: int
    """Processes reading text layers."""
    overlap: bool
    """Embed one file on its own thread while the next is read and detected (needs OVERLAP_MIN_CORES)."""

    @classmethod
    def plan(cls, cpus: int, physical: int, llm_local: bool = True, answers_first: bool = True,
             n_threads: int = 0) -> ThreadBudget:
        """The budget for a machine; ``n_threads`` > 0 caps the model and torch threads (``Settings.n_threads``)."""
        cpus, physical = max(1, cpus), max(1, min(physical, cpus))
        cap = n_threads if n_threads > 0 else None
        llm = min(cap or MAX_LLM_THREADS, physical)
        # Taking turns (answers first) or a remote model: ingestion may use every core; else what the model leaves.
        ingest = physical if (answers_first or not llm_local) else max(1, physical - llm)
        overlap = ingest >= OVERLAP_MIN_CORES
        torch_cap = cap or MAX_TORCH_THREADS
        if overlap:
            embedder = min(torch_cap, ingest // 2)
            detector = min(torch_cap, ingest - embedder)
        else:
            embedder = detector = min(torch_cap, ingest)
        return cls(
            cpus=cpus,
            physical=physical,
            llm_local=llm_local,
            answers_first=answers_first,
            llm=llm,
            ingest=ingest,
            embedder=max(1, embedder),
            detector=max(1, detector),
            ocr=max(1, detector),
            reranker=max(1, min(torch_cap, physical)),
            extract=max(1, min(MAX_EXTRACT_WORKERS, detector if overlap else ingest, cpus)),
            overlap=overlap,
        )

    @classmethod
    def for_machine(cls, llm_local: bool = True, answers_first: bool = True, n_threads: int = 0) -> ThreadBudget:
        """The budget on the cores this process may use now."""
        cpus = usable_cpus()
        return cls.plan(len(cpus), physical_cores(cpus), llm_local, answers_first, n_threads)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

"""Ingestion state the progress screen, the library and the status line read; fed from worker messages."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine.types import STAGES, IngestProgress, IngestResult

TERMINAL = {"done": "done", "failed": "failed", "cancelled": "cancelled"}
PAUSE, RESUME = "paused", "resumed"
"""Progress reports of an ingestion waiting while a question is answered (``Settings.answers_first``)."""


@dataclass
class StageState:
    """Counts of one stage of the file being ingested."""

    done: int = 0
    total: int = 0
    started: float | None = None
    updated: float | None = None
    finished: bool = False
    paused: float = 0.0
    """Seconds this stage waited for answers; not part of its pace."""

    def fraction(self) -> float:
        if self.finished:
            return 1.0
        return self.done / self.total if self.total else 0.0

    def eta(self) -> float | None:
        """Seconds left at the rate seen so far in this stage, None while unknown."""
        if self.finished or not self.done or self.started is None or self.updated is None:
            return None
        rate = max(0.0, self.updated - self.started - self.paused) / self.done
        return max(0.0, rate * (self.total - self.done))


@dataclass
class FileState:
    """One file of the batch."""

    path: str
    status: str = "queued"
    """``queued``, ``ingesting``, ``done``, ``unchanged``, ``failed`` or ``cancelled``."""
    stage: str = ""
    message: str = ""
    doc_id: str = ""
    started: float | None = None
    ended: float | None = None
    last: float | None = None
    """When the file last reported progress (a stage starts when the one before it last reported)."""

    @property
    def name(self) -> str:
        return Path(self.path).name


@dataclass
class IngestState:
    """The current (or last) ingestion batch."""

    running: bool = False
    cancelling: bool = False
    started: float | None = None
    updated: float | None = None
    files: dict[str, FileState] = field(default_factory=dict)
    stages: dict[str, StageState] = field(default_factory=dict)
    current: str = ""
    file_index: int = 0
    file_count: int = 0
    warnings: list[str] = field(default_factory=list)
    results: list[IngestResult] = field(default_factory=list)
    paused_since: float | None = None
    """When ingestion began waiting for a question to be answered (None while it runs)."""
    paused_total: float = 0.0
    """Seconds the batch has waited for answers, finished waits only."""
    clock: Callable[[], float] = time.monotonic
    """Now, on the clock of the progress messages' ``at`` (snapshots freeze it)."""

    def now(self) -> float:
        """The time the elapsed counters run to: now while running, the last report after."""
        if self.running and self.started is not None:
            return max(self.clock(), self.updated or self.started)
        return self.updated or 0.0

    def start(self, files: list[str], at: float) -> None:
        """A new batch; earlier warnings stay in the log, marked by a separator line."""
        self.running, self.cancelling = True, False
        self.started = self.updated = at
        self.files = {f: FileState(f) for f in files}
        self.file_count = len(files)
        self.file_index = 0
        self.current = ""
        self.stages = {s: StageState() for s in STAGES}
        self.results = []
        self.paused_since, self.paused_total = None, 0.0

    def apply(self, p: IngestProgress, at: float) -> bool:
        """Fold one progress report in; True when a file reached an end state (the library changed)."""
        self.updated = at
        if p.stage in (PAUSE, RESUME):
            self._pause(p.stage == PAUSE, at)
            return False
        f = self.files.get(p.path)
        if f is None:
            f = self.files[p.path] = FileState(p.path)
        if p.file_index < self.file_index and p.path != self.current:
            # an earlier file still being embedded while this one is read (overlapping stages): its row only
            if p.stage == "warning":
                self.warnings.append(f"{f.name}: {p.warning or p.message}")
                return False
            if p.stage in TERMINAL:
                if p.stage == "failed":
                    self.warnings.append(f"{f.name}: failed: {p.message}")
                f.status = "unchanged" if p.stage == "done" and "already" in p.message else TERMINAL[p.stage]
                f.stage, f.message, f.ended = "", p.message, at
                return True
            f.status, f.stage = "ingesting", p.stage
            return False
        self.file_count = max(self.file_count, p.file_count)
        self.file_index = p.file_index
        if p.path != self.current:
            self.current = p.path
            self.stages = {s: StageState() for s in STAGES}
        if p.doc_id:
            f.doc_id = p.doc_id
        if p.stage == "warning":
            self.warnings.append(f"{f.name}: {p.warning or p.message}")
            return False
        if f.started is None:
            f.started = at
        if p.stage in TERMINAL:
            f.status = "unchanged" if p.stage == "done" and "already" in p.message else TERMINAL[p.stage]
            f.stage, f.message, f.ended = "", p.message, at
            if p.stage == "failed":
                self.warnings.append(f"{f.name}: failed: {p.message}")
            if p.stage == "done":
                for s in self.stages.values():
                    s.finished = True
            return True
        f.status = "ingesting"
        f.stage, f.message = p.stage, p.message
        prev_last, f.last = f.last, at
        if p.stage in self.stages:
            # stages before this one are over, whether they reported progress or were skipped
            for name in STAGES[: STAGES.index(p.stage)]:
                self.stages[name].finished = True
            s = self.stages[p.stage]
            if s.started is None:
                s.started = prev_last if prev_last is not None else at
            s.done, s.total, s.updated = p.done, p.total, at
            s.finished = p.total > 0 and p.done >= p.total
        return False

    def _pause(self, paused: bool, at: float) -> None:
        if paused and self.paused_since is None:
            self.paused_since = at
        elif not paused and self.paused_since is not None:
            waited = max(0.0, at - self.paused_since)
            self.paused_total += waited
            cur = self.files.get(self.current)
            s = self.stages.get(cur.stage) if cur is not None else None
            if s is not None and s.started is not None:
                s.paused += waited
            self.paused_since = None

    @property
    def paused(self) -> bool:
        """Ingestion is waiting for a question to be answered."""
        return self.running and self.paused_since is not None

    def paused_seconds(self) -> float:
        """Seconds the batch has waited for answers so far (the wait in progress included)."""
        now = self.now()
        return self.paused_total + (max(0.0, now - self.paused_since) if self.paused_since is not None else 0.0)

    def finish(self, results: list[IngestResult], cancelled: bool, at: float) -> None:
        self.running = False
        self.paused_since = None
        self.updated = at
        self.results = results
        for r in results:
            f = self.files.get(r.path)
            if f is not None and f.status in {"queued", "ingesting"}:
                f.status = "cancelled" if r.status == "cancelled" else ("failed" if not r.ok else "done")
                f.message = r.error or f.message
        if cancelled:
            for f in self.files.values():
                if f.status in {"queued", "ingesting"}:
                    f.status = "cancelled"

    def file_fraction(self) -> float:
        """How far the current file is, counting each stage equally."""
        return sum(s.fraction() for s in self.stages.values()) / max(1, len(self.stages))

    def overall_fraction(self) -> float:
        finished = sum(1 for f in self.files.values() if f.status not in {"queued", "ingesting"})
        if not self.running:
            return 1.0 if self.files else 0.0
        return min(1.0, (finished + self.file_fraction()) / max(1, self.file_count))

    def elapsed(self) -> float:
        if self.started is None:
            return 0.0
        return self.now() - self.started

    def eta(self) -> float | None:
        """Seconds left for the batch at the pace so far; time spent waiting for answers is not pace."""
        frac = self.overall_fraction()
        if not self.running or frac <= 0.02:
            return None
        working = max(0.0, self.elapsed() - self.paused_seconds())
        return working * (1 - frac) / frac

    def summary(self) -> str:
        """One line for the status bar."""
        if not self.files:
            return ""
        done = sum(1 for f in self.files.values() if f.status in {"done", "unchanged"})
        failed = sum(1 for f in self.files.values() if f.status == "failed")
        if self.running:
            cur = self.files.get(self.current)
            stage = f" · {cur.stage}" if cur and cur.stage else ""
            s = self.stages.get(cur.stage if cur else "", None)
            count = f" {s.done}/{s.total}" if s and s.total else ""
            word = "Cancelling" if self.cancelling else "Ingesting"
            head = f"{word} {min(self.file_index + 1, self.file_count)}/{self.file_count}{stage}{count}"
            if self.paused:
                return f"{head} · paused for a question"
            return f"{head} · ETA {fmt_seconds(self.eta())}"
        cancelled = sum(1 for f in self.files.values() if f.status == "cancelled")
        parts = [f"{done} ingested"]
        if failed:
            parts.append(f"{failed} failed")
        if cancelled:
            parts.append(f"{cancelled} cancelled")
        return "Last ingest: " + ", ".join(parts)


def fmt_seconds(s: float | None) -> str:
    """``m:ss`` (or ``h:mm:ss``); ``--:--`` while unknown."""
    if s is None:
        return "--:--"
    s = int(round(s))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"

"""Advisory file locks in the data dir, across processes: one writer at a time (readers need no lock: SQLite
WAL), and answers before ingestion (``AnswerSignal``)."""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

from engine.errors import LibraryBusyError


class WriterLock:
    """Held while a process ingests or removes; a second writer gets a clear error instead of waiting."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / "writer.lock"
        self._fd: int | None = None
        self._depth = 0
        self._thread_lock = threading.RLock()

    def __enter__(self) -> WriterLock:
        self._thread_lock.acquire()
        if self._depth == 0:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = ""
                try:
                    holder = os.pread(fd, 64, 0).decode(errors="replace").strip()
                except OSError:
                    pass
                os.close(fd)
                self._thread_lock.release()
                raise LibraryBusyError(
                    f"Another mfr-tui process{f' (pid {holder})' if holder else ''} is writing to the library "
                    f"in {self.path.parent}. Wait for it to finish, or use another data dir (MFR_DATA_DIR).",
                ) from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
            self._fd = fd
        self._depth += 1
        return self

    def enter_nowait(self) -> WriterLock:
        """Like ``with lock:`` but raises LibraryBusyError instead of waiting for another thread of this process
        (a `doctor` started from the TUI while its ingest worker runs)."""
        if not self._thread_lock.acquire(blocking=False):
            raise LibraryBusyError(
                f"This process is already writing to the library in {self.path.parent} (an ingest or remove is "
                "running). Try again when it finishes."
            )
        try:
            return self.__enter__()
        finally:
            self._thread_lock.release()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
        self._thread_lock.release()


class AnswerSignal:
    """Answering has priority over ingestion on one machine: each answer holds a shared advisory lock on a slot
    file in the data dir (beside ``writer.lock``), and an ingest in any process on that data dir checks the slots
    between pages and, while one is held, waits on a blocking exclusive lock (no polling: the kernel wakes it when
    the last answer lets go). Locks die with their process, so a crash never leaves a library paused; the files
    are empty and harmless.

    Two slots and a turn make the wait fair: answers take the slot the turn file names; a waiting ingestion first
    turns new answers to the other slot, then waits only for the answers already running. Answers that overlap
    back to back (three askers at once, an evaluation in another terminal) would otherwise never leave a moment
    with none running, and the ingestion would only move by ``MAX_WAIT_S`` at a time: now each page or batch waits
    for the answers in flight when it came, at most one answer's length."""

    FILE = "answering.lock"
    OTHER = "answering.1.lock"
    TURN = "answering.turn"
    MAX_WAIT_S = 300.0
    """A wait for the answers in flight ends after this long whatever they do (a stuck model; an answer takes
    about 20 s on two cores)."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / self.FILE
        self._slots = (self.path, data_dir / self.OTHER)
        self._turn = data_dir / self.TURN

    def _open(self, path: Path | None = None) -> int | None:
        """A slot file's descriptor (the first's by default); None where it cannot be made (a read-only library
        is still answered from; there is then no ingestion to pause)."""
        path = path or self.path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            return os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            try:
                return os.open(path, os.O_RDONLY)
            except OSError:
                return None

    def _current(self) -> int:
        """The slot new answers take (0 where the turn file is missing or unreadable)."""
        try:
            return 1 if self._turn.read_text(encoding="ascii").strip() == "1" else 0
        except (OSError, UnicodeDecodeError):
            return 0

    def _hand_over(self, slot: int) -> None:
        """Send new answers to ``slot``; nothing where the turn cannot be written (a read-only library: the wait
        then lasts until every answer has ended, as with one slot)."""
        tmp = self._turn.with_name(f"{self.TURN}.{os.getpid()}.{threading.get_ident()}")
        try:
            tmp.write_text(str(slot), encoding="ascii")
            os.replace(tmp, self._turn)
        except OSError:
            tmp.unlink(missing_ok=True)

    @contextmanager
    def answering(self) -> Iterator[None]:
        """Held while a question is answered; any number of answers hold it at once."""
        fd = self._open(self._slots[self._current()])
        if fd is None:
            yield
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
            yield
        finally:
            os.close(fd)  # closing the descriptor releases its lock

    def _held(self, slot: int) -> int | None:
        """``slot``'s descriptor, open, where some answer holds it; None where it is free (or cannot be opened)."""
        fd = self._open(self._slots[slot])
        if fd is None:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return fd
        os.close(fd)
        return None

    def busy(self) -> bool:
        """Whether some process (this one included) is answering a question now."""
        for slot in (0, 1):
            fd = self._held(slot)
            if fd is not None:
                os.close(fd)
                return True
        return False

    def wait(self, cancelled: Callable[[], bool] = lambda: False, waiting: Callable[[], None] = lambda: None) -> float:
        """Return at once when no answer is running; else call ``waiting`` and block until the answers running
        now have ended (answers that start meanwhile take the other slot and are not waited for). Returns the
        seconds waited (0.0 when there was no answer). ``cancelled`` is looked at once a second (the blocking lock
        is taken on a helper thread, which cannot be interrupted) and a cancel, or ``MAX_WAIT_S``, ends the wait;
        the helper then lets go of the lock as soon as it gets it."""
        now = self._current()
        fd, slot = self._held(now), now
        if fd is None:  # only answers from before the last turn (it ran into MAX_WAIT_S): wait for those
            fd, slot = self._held(1 - now), 1 - now
        if fd is None:
            return 0.0
        t0 = time.monotonic()
        if slot == now:
            self._hand_over(1 - now)
        waiting()
        free = threading.Event()

        def take() -> None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            finally:
                os.close(fd)
                free.set()

        threading.Thread(target=take, daemon=True, name="mfr-wait-answers").start()
        while not free.wait(1.0):
            if cancelled() or time.monotonic() - t0 > self.MAX_WAIT_S:
                break
        return time.monotonic() - t0

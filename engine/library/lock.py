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
    """Answering has priority over ingestion on one machine: each answer holds a shared advisory lock on
    ``answering.lock`` in the data dir (beside ``writer.lock``), and an ingest in any process on that data dir
    checks it between pages and, while it is held, waits on a blocking exclusive lock (no polling: the kernel
    wakes it when the last answer lets go). Locks die with their process, so a crash never leaves a library
    paused; the file itself is empty and harmless."""

    FILE = "answering.lock"
    MAX_WAIT_S = 300.0
    """Answers that overlap back to back (an evaluation in another terminal) could hold the lock for hours; after
    this long ingestion goes on by one page or batch between checks instead of never (an answer takes about
    20 s on two cores)."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / self.FILE

    def _open(self) -> int | None:
        """The lock file's descriptor; None where it cannot be made (a read-only library is still answered
        from; there is then no ingestion to pause)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            return os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            try:
                return os.open(self.path, os.O_RDONLY)
            except OSError:
                return None

    @contextmanager
    def answering(self) -> Iterator[None]:
        """Held while a question is answered; any number of answers hold it at once."""
        fd = self._open()
        if fd is None:
            yield
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
            yield
        finally:
            os.close(fd)  # closing the descriptor releases its lock

    def busy(self) -> bool:
        """Whether some process (this one included) is answering a question now."""
        fd = self._open()
        if fd is None:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(fd)
        return False

    def wait(self, cancelled: Callable[[], bool] = lambda: False, waiting: Callable[[], None] = lambda: None) -> float:
        """Return at once when no answer is running; else call ``waiting`` and block until the last answer ends.
        Returns the seconds waited (0.0 when there was no answer). ``cancelled`` is looked at once a second (the
        blocking lock is taken on a helper thread, which cannot be interrupted) and a cancel, or ``MAX_WAIT_S``,
        ends the wait; the helper then lets go of the lock as soon as it gets it."""
        fd = self._open()
        if fd is None:
            return 0.0
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pass
        else:
            os.close(fd)
            return 0.0
        t0 = time.monotonic()
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

"""One writer per data dir across processes (an advisory file lock); readers need no lock (SQLite WAL)."""

from __future__ import annotations

import fcntl
import os
import threading
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

"""Fiscal calendars of the filings a question searches: read at ingest (the metadata stage stores one in the
catalogue); a library ingested before that, or before calendars recorded how the filing names its years
(``naming``), gets each filing's calendar read once on first use and stored, so the answerer never reads a
filing's pages twice."""

from __future__ import annotations

import threading
from typing import Any, Protocol

from engine.periods import Calendar, read_calendar
from engine.types import Document


class CalendarStore(Protocol):
    """What the calendars need from the catalogue (``engine.library.store.Store`` provides it)."""

    def document(self, ref: str) -> Document: ...

    def calendar_inputs(self, doc_id: str) -> tuple[list[str], list[tuple[str, str]]]: ...

    def update_document(self, doc_id: str, **fields: Any) -> None: ...


def read_and_store(store: CalendarStore, doc_id: str) -> Calendar:
    """Read a filing's calendar from what the catalogue holds (first pages, "fiscal" pages, table headers) and
    store it on the document."""
    calendar = read_calendar(*store.calendar_inputs(doc_id))
    store.update_document(doc_id, calendar=calendar.to_json())
    return calendar


def is_current(stored: dict[str, Any]) -> bool:
    """Whether a stored calendar holds everything this version reads (the naming of its years and its evidence)."""
    return bool(stored) and "naming" in stored


class Calendars:
    """Calendars by document id: from memory, else the document's stored one when current, else read and stored."""

    def __init__(self) -> None:
        self._cache: dict[str, Calendar] = {}
        self._lock = threading.Lock()

    def get(self, store: CalendarStore, doc_id: str) -> Calendar:
        with self._lock:
            if doc_id in self._cache:
                return self._cache[doc_id]
        doc = store.document(doc_id)
        cal = Calendar.from_json(doc.calendar) if is_current(doc.calendar) else read_and_store(store, doc_id)
        with self._lock:
            self._cache[doc_id] = cal
        return cal

"""A filing's fiscal calendar, read from the catalogue: its page text (cover first) and its tables' column
headers. The metadata stage stores it at ingest; a library ingested before that gets it read once on first
use and stored then, so the answerer never reads a filing's pages twice."""

from __future__ import annotations

import json
import threading
from typing import Protocol

from engine.periods import Calendar, read_calendar

COVER_PAGES = 6
"""Pages of running text read for the fiscal-year phrases (cover, first pages); the tables give the rest."""


class CatalogueReader(Protocol):
    """What reading a calendar needs from the catalogue (``engine.store.Store`` provides it)."""

    def pages(self, doc_id: str, with_words: bool = False) -> list[dict]: ...

    def regions(self, doc_id: str, page: int | None = None, kind: str | None = None) -> list: ...

    def get_setting(self, key: str) -> object: ...

    def put_setting(self, key: str, value: object) -> None: ...


def calendar_from_catalogue(store: CatalogueReader, doc_id: str) -> Calendar:
    """Read a document's calendar from what the catalogue holds (pages and parsed tables)."""
    pages = store.pages(doc_id)
    texts = [str(p.get("text") or "") for p in pages[:COVER_PAGES]]
    headers: list[tuple[str, str]] = []
    for r in store.regions(doc_id, kind="table"):
        table = r.table or {}
        context = " ".join([r.title, r.units, str(table.get("units", ""))])
        headers += [(str(c), context) for c in table.get("columns", []) if c]
    # fiscal-year phrases also sit in the MD&A ("fiscal 2022, which ended January 28, 2023")
    texts += [str(p.get("text") or "") for p in pages[COVER_PAGES:] if "fiscal" in str(p.get("text") or "").lower()]
    return read_calendar(texts, headers)


class Calendars:
    """Calendars by document id: from memory, else the catalogue's stored copy, else read and stored."""

    def __init__(self) -> None:
        self._cache: dict[str, Calendar] = {}
        self._lock = threading.Lock()

    def get(self, store: CatalogueReader, doc_id: str) -> Calendar:
        with self._lock:
            if doc_id in self._cache:
                return self._cache[doc_id]
        stored = store.get_setting(key(doc_id))
        if isinstance(stored, dict):
            cal = Calendar.from_json(stored)
        else:
            cal = calendar_from_catalogue(store, doc_id)
            store.put_setting(key(doc_id), json.loads(json.dumps(cal.to_json())))
        with self._lock:
            self._cache[doc_id] = cal
        return cal

    def forget(self, doc_id: str | None = None) -> None:
        with self._lock:
            if doc_id is None:
                self._cache.clear()
            else:
                self._cache.pop(doc_id, None)


def key(doc_id: str) -> str:
    """The catalogue key a document's calendar is stored under."""
    return f"calendar:{doc_id}"

"""The SQLite catalogue: documents, pages, regions, chunks, per-stage status, answers history, settings."""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engine.errors import NotFoundError, StoreError
from engine.library.lexical import chunk_terms
from engine.pagetext import PageText
from engine.types import STAGES, BBox, Chunk, Document, Region
from engine.untrusted import clean_value, visible_text

log = logging.getLogger(__name__)

SCHEMA_VERSION = 4
"""The catalogue's schema version: ``SCHEMA`` is version 1; ``MIGRATIONS`` bring it, new or old, to this one."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
    id TEXT PRIMARY KEY,
    sha256 TEXT NOT NULL UNIQUE,
    path TEXT NOT NULL,
    name TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    company TEXT NOT NULL DEFAULT '',
    form_type TEXT NOT NULL DEFAULT '',
    fiscal_period TEXT NOT NULL DEFAULT '',
    filing_date TEXT NOT NULL DEFAULT '',
    pages INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'ingesting',
    error TEXT NOT NULL DEFAULT '',
    added_at REAL NOT NULL,
    meta TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS pages (
    doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    page INTEGER NOT NULL,
    width REAL NOT NULL,
    height REAL NOT NULL,
    has_text INTEGER NOT NULL,
    text TEXT NOT NULL DEFAULT '',
    words TEXT NOT NULL DEFAULT '[]',
    ocr INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (doc_id, page)
);
CREATE TABLE IF NOT EXISTS regions (
    id INTEGER PRIMARY KEY,
    doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    page INTEGER NOT NULL,
    kind TEXT NOT NULL,
    bbox TEXT NOT NULL,
    method TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL DEFAULT '',
    units TEXT NOT NULL DEFAULT '',
    summary TEXT NOT NULL DEFAULT '',
    summary_method TEXT NOT NULL DEFAULT '',
    table_json TEXT,
    crop_path TEXT NOT NULL DEFAULT '',
    checks TEXT NOT NULL DEFAULT '[]',
    score REAL NOT NULL DEFAULT 1.0
);
CREATE INDEX IF NOT EXISTS regions_doc ON regions(doc_id, page);
CREATE TABLE IF NOT EXISTS chunks (
    id INTEGER PRIMARY KEY,
    doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    modality TEXT NOT NULL,
    page INTEGER NOT NULL,
    pages TEXT NOT NULL DEFAULT '[]',
    bbox TEXT,
    region_id INTEGER,
    text TEXT NOT NULL,
    indexed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks(doc_id, modality);
CREATE TABLE IF NOT EXISTS stages (
    doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    stage TEXT NOT NULL,
    status TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '',
    seconds REAL NOT NULL DEFAULT 0,
    updated_at REAL NOT NULL,
    PRIMARY KEY (doc_id, stage)
);
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,
    scope TEXT NOT NULL DEFAULT '[]',
    payload TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS settings_kv (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

_DOC_COLUMNS = (
    "id, sha256, path, name, title, company, form_type, fiscal_period, filing_date, pages, status, error, "
    "added_at, tickers, cik, former_names, calendar"
)
_JSON_COLUMNS = {"tickers", "former_names"}
"""Document columns that hold JSON (lists); ``update_document`` writes them, ``_doc`` reads them."""
_JSON_OBJECT_COLUMNS = {"calendar"}
"""Document columns that hold a JSON object."""
CALENDAR_COVER_PAGES = 6
"""Pages of running text read for a filing's fiscal-year phrases (cover, first pages); its tables give the rest."""


def _add_columns(db: sqlite3.Connection, table: str, columns: dict[str, str]) -> None:
    """Add the columns a table lacks (``{name: "TEXT NOT NULL DEFAULT ''"}``); those it has are left alone, so a
    step can run again after an interrupted upgrade."""
    have = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
    for name, decl in columns.items():
        if name not in have:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {decl}")


def _migrate_identity(db: sqlite3.Connection) -> None:
    """Version 2: the company identity the metadata stage reads from a filing (tickers, CIK, former names). The
    documents already in the library get theirs from the page text the catalogue holds, so routing by ticker
    keeps working without ingesting them again."""
    from engine.metadata import FRONT_PAGES, read_identity

    _add_columns(db, "documents", {"tickers": "TEXT NOT NULL DEFAULT '[]'", "cik": "TEXT NOT NULL DEFAULT ''",
                                   "former_names": "TEXT NOT NULL DEFAULT '[]'"})
    docs = db.execute("SELECT id, company, form_type, fiscal_period FROM documents").fetchall()
    for doc_id, company, form_type, fiscal_period in docs:
        pages: list[Any] = []
        for r in db.execute("SELECT page, width, height, words FROM pages WHERE doc_id = ? AND page <= ? "
                            "ORDER BY page", (doc_id, FRONT_PAGES)):
            pages.append(PageText.from_row({"page": r[0], "width": r[1], "height": r[2], "words": json.loads(r[3])}))
        if not pages:
            continue  # not read yet: the metadata stage will read it
        # later pages matter only for "under the symbol ..." mentions
        pages += [_TextPage(r[0]) for r in db.execute(
            "SELECT text FROM pages WHERE doc_id = ? AND page > ? AND text LIKE '%symbol%' ORDER BY page",
            (doc_id, FRONT_PAGES))]
        identity = read_identity(pages)
        fields: dict[str, Any] = {"tickers": json.dumps(identity.tickers), "cik": identity.cik,
                                  "former_names": json.dumps(identity.former_names)}
        if identity.company and identity.company != company:
            fields["company"] = identity.company
            fields["title"] = " ".join(p for p in (identity.company, form_type, fiscal_period) if p)
        cols = ", ".join(f"{k} = ?" for k in fields)
        db.execute(f"UPDATE documents SET {cols} WHERE id = ?", (*fields.values(), doc_id))


class _TextPage:
    """A page of which only the text is needed."""

    def __init__(self, text: str) -> None:
        self.text = text


def _migrate_calendar(db: sqlite3.Connection) -> None:
    """Version 3: the fiscal calendar the metadata stage reads from a filing (engine/periods.py). Documents
    already in the library get theirs on first use (``Calendars`` in engine/ask), not here: reading every
    filing's tables would hold the upgrade's transaction for minutes in a large library."""
    _add_columns(db, "documents", {"calendar": "TEXT NOT NULL DEFAULT '{}'"})


LEXICAL_SCHEMA = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(terms, doc_id UNINDEXED, modality UNINDEXED, "
    "tokenize = \"unicode61 remove_diacritics 0 tokenchars '.&'''\")",
    "CREATE TRIGGER IF NOT EXISTS chunks_fts_delete AFTER DELETE ON chunks BEGIN "
    "DELETE FROM chunks_fts WHERE rowid = old.id; END",
)
"""The lexical index: one FTS5 row per chunk (rowid = chunk id) holding its terms (``lexical.chunk_terms``),
split on spaces only so the terms stay the project's tokens. Rows are written with their chunk
(``Store.replace_chunks``); the trigger deletes them with it, a document's cascade included."""


def _fill_lexical(db: sqlite3.Connection, chunk_ids: Sequence[int] | None = None) -> int:
    """Write the FTS rows of some chunks (all when None) from their text and their region's table; returns how
    many. Inside the caller's transaction."""
    sql = ("SELECT c.id, c.doc_id, c.modality, c.text, r.table_json FROM chunks c "
           "LEFT JOIN regions r ON r.id = c.region_id")
    rows: list[Any] = []
    if chunk_ids is None:
        rows = db.execute(sql).fetchall()
    else:
        ids = list(chunk_ids)
        for i in range(0, len(ids), 500):
            part = ids[i : i + 500]
            rows += db.execute(sql + f" WHERE c.id IN ({','.join('?' * len(part))})", part).fetchall()
    db.executemany(
        "INSERT INTO chunks_fts(rowid, terms, doc_id, modality) VALUES (?, ?, ?, ?)",
        [(r[0], chunk_terms(r[3], json.loads(r[4]) if r[4] else None), r[1], r[2]) for r in rows],
    )
    return len(rows)


def _migrate_lexical(db: sqlite3.Connection) -> None:
    """Version 4: the lexical index in the catalogue (``LEXICAL_SCHEMA``), replacing the BM25 files rebuilt at the
    first question after every change. The chunks already in the library get their rows here, once."""
    t = time.perf_counter()
    for statement in LEXICAL_SCHEMA:
        db.execute(statement)
    db.execute("DELETE FROM chunks_fts")
    n = _fill_lexical(db)
    if n:
        log.warning("Catalogue upgrade (version 4): indexed the terms of %d chunks for keyword search in %.1fs, "
                    "once; ingest and remove keep the index current from now on.", n, time.perf_counter() - t)


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    2: _migrate_identity, 3: _migrate_calendar, 4: _migrate_lexical}
"""Version -> the step that brings a catalogue of the version before to it, run in one transaction with the
version's update. A new catalogue is made at version 1 by ``SCHEMA`` and takes every step too, so there is one
path to the current schema. A step must be safe to run on a catalogue that already has its change."""


_SHOWN_AS_IS = {"path"}
"""The file's real path, needed to read it again (re-ingest); it is made visible wherever it is shown."""
_NAMES = {"name", "error"}
"""Fields that may carry a file name: odd characters are shown (``visible_text``), not silently dropped."""


def _safe_field(key: str, value: Any) -> Any:
    """A document field as the catalogue keeps it: text from a filing or a path never holds control
    characters or bidi overrides."""
    if key in _SHOWN_AS_IS:
        return value
    if key in _NAMES and isinstance(value, str):
        return visible_text(value)
    return clean_value(value)


def _json_object(raw: str | None) -> dict[str, Any]:
    try:
        value = json.loads(raw or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _json_list(raw: str | None) -> list[str]:
    try:
        value = json.loads(raw or "[]")
    except ValueError:
        return []
    return [str(v) for v in value] if isinstance(value, list) else []


def _bbox(raw: str | None) -> BBox | None:
    if not raw:
        return None
    vals = json.loads(raw)
    return (float(vals[0]), float(vals[1]), float(vals[2]), float(vals[3]))



EMBEDDER_KEY = "vectors_embedder"
"""Catalogue setting: the name of the embedder whose vectors the indexes hold."""


def check_embedder(recorded: str | None, current: str) -> None:
    """Refuse to search or extend vectors made by another embedder than ``current``."""
    if recorded and recorded != current:
        raise StoreError(
            f"This library's vectors were made by the embedder {recorded}, but the embedder now is {current} "
            "(another models.toml profile?). Use the profile the library was built with, or run "
            "`mfr-tui doctor --repair` to embed the library again with this one.",
            title="Embedder changed",
        )

class Store:
    """The catalogue. One connection per thread; WAL mode so readers never wait on the ingest writer."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()
        self._write_lock = threading.RLock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with self._write_lock:
                self.conn().executescript(SCHEMA)  # executescript manages its own transaction
            with self.write() as db:
                db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', '1')")
                self._migrate(db)
            for f in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
                try:
                    os.chmod(f, 0o600)  # the catalogue holds the user's filings and questions
                except OSError:
                    pass
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"The catalogue {path} is unreadable ({exc}). Run `mfr-tui doctor --repair`, or move the file "
                "away to start an empty library.",
                title="Catalogue damaged",
            ) from exc

    @staticmethod
    def _migrate(db: sqlite3.Connection) -> None:
        """Bring the catalogue to ``SCHEMA_VERSION``, step by step, inside the caller's write transaction (a
        second process opening it meanwhile waits, then finds it current). A catalogue from a newer version is
        left as it is."""
        version = int(db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0])
        for step in range(version + 1, SCHEMA_VERSION + 1):
            MIGRATIONS[step](db)
            db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(step),))

    # --- connections ---------------------------------------------------------------------------------
    def conn(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None, check_same_thread=False)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            self._local.db = db
        return db

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: all or nothing."""
        db = self.conn()
        with self._write_lock:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                # SQLite has already rolled back after some errors (a full disk): a second ROLLBACK would
                # hide the real error behind "no transaction is active".
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    # --- documents -----------------------------------------------------------------------------------
    def add_document(self, doc_id: str, sha256: str, path: str, name: str, pages: int) -> None:
        with self.write() as db:
            db.execute(
                "INSERT INTO documents(id, sha256, path, name, pages, status, added_at) "
                "VALUES (?, ?, ?, ?, ?, 'ingesting', ?)",
                (doc_id, sha256, path, visible_text(name), pages, time.time()),
            )

    def update_document(self, doc_id: str, **fields: Any) -> None:
        """Set document columns; lists (tickers, former names) are stored as JSON."""
        if not fields:
            return
        fields = {k: _safe_field(k, v) for k, v in fields.items()}
        fields = {k: json.dumps(list(v)) if k in _JSON_COLUMNS else json.dumps(dict(v)) if k in _JSON_OBJECT_COLUMNS
                  else v for k, v in fields.items()}
        cols = ", ".join(f"{k} = ?" for k in fields)
        with self.write() as db:
            db.execute(f"UPDATE documents SET {cols} WHERE id = ?", (*fields.values(), doc_id))

    def find_by_sha(self, sha256: str) -> Document | None:
        row = self.conn().execute(f"SELECT {_DOC_COLUMNS} FROM documents WHERE sha256 = ?", (sha256,)).fetchone()
        return self._doc(row) if row else None

    def documents(self) -> list[Document]:
        rows = self.conn().execute(f"SELECT {_DOC_COLUMNS} FROM documents ORDER BY added_at").fetchall()
        return [self._doc(r) for r in rows]

    def document_count(self) -> int:
        """How many documents the library holds, whatever their status."""
        return int(self.conn().execute("SELECT COUNT(*) FROM documents").fetchone()[0])

    def document(self, ref: str) -> Document:
        """By id, id prefix, name or path; NotFoundError lists close names."""
        db = self.conn()
        row = db.execute(f"SELECT {_DOC_COLUMNS} FROM documents WHERE id = ?", (ref,)).fetchone()
        if row is None:
            rows = db.execute(
                f"SELECT {_DOC_COLUMNS} FROM documents WHERE name = ? OR path = ? OR id LIKE ?",
                (ref, ref, ref + "%") if len(ref) >= 4 else (ref, ref, "\0"),
            ).fetchall()
            if len(rows) > 1:
                raise NotFoundError(
                    f"'{ref}' matches {len(rows)} documents ({', '.join(r['id'] for r in rows)}); use the id.",
                    title="Ambiguous document",
                )
            row = rows[0] if rows else None
        if row is None:
            names = [r["name"] for r in db.execute("SELECT name FROM documents ORDER BY name").fetchall()]
            hint = f" Documents: {', '.join(names[:20])}." if names else " The library is empty."
            raise NotFoundError(f"No document '{ref}' in the library.{hint}", title="Unknown document")
        return self._doc(row)

    def _doc(self, row: sqlite3.Row) -> Document:
        db = self.conn()
        values: dict[str, Any] = {k: _json_list(row[k]) if k in _JSON_COLUMNS else _json_object(row[k])
                                  if k in _JSON_OBJECT_COLUMNS else row[k] for k in row.keys()}
        doc = Document(**values)
        counts = db.execute(
            "SELECT kind, COUNT(*) FROM regions WHERE doc_id = ? GROUP BY kind", (doc.id,)
        ).fetchall()
        by_kind = {k: n for k, n in counts}
        doc.tables = by_kind.get("table", 0)
        doc.figures = by_kind.get("figure", 0)
        doc.chunks = db.execute("SELECT COUNT(*) FROM chunks WHERE doc_id = ?", (doc.id,)).fetchone()[0]
        doc.stages = {s: "pending" for s in STAGES}
        for r in db.execute("SELECT stage, status, detail FROM stages WHERE doc_id = ?", (doc.id,)):
            doc.stages[r["stage"]] = r["status"] + (f": {r['detail']}" if r["detail"] else "")
        return doc

    def mentions(self, doc_id: str, phrase: str) -> bool:
        """Whether a document's text states ``phrase`` (case-insensitive), on any page."""
        row = self.conn().execute(
            "SELECT 1 FROM pages WHERE doc_id = ? AND instr(lower(text), ?) > 0 LIMIT 1", (doc_id, phrase.lower())
        ).fetchone()
        return row is not None

    def mentions_words(self, doc_id: str, words: Sequence[str]) -> bool:
        """Whether a document's text states ``words`` in that order, across line breaks and spacing (case-
        insensitive), on any page; pages are read only where the longest word occurs."""
        words = [w.lower() for w in words if w]
        if not words:
            return False
        pattern = re.compile(r"(?<!\w)" + r"\W{0,3}\s*".join(re.escape(w) for w in words) + r"(?!\w)")
        rows = self.conn().execute(
            "SELECT text FROM pages WHERE doc_id = ? AND instr(lower(text), ?) > 0", (doc_id, max(words, key=len))
        )
        return any(pattern.search(str(r[0]).lower()) for r in rows)

    def calendar_inputs(self, doc_id: str) -> tuple[list[str], list[tuple[str, str]]]:
        """What a filing's fiscal calendar is read from (``periods.read_calendar``): the text of its first pages
        and of every page that says "fiscal", and its tables' column headers with their title and units."""
        texts: list[str] = []
        for r in self.conn().execute("SELECT page, text FROM pages WHERE doc_id = ? ORDER BY page", (doc_id,)):
            text = str(r["text"] or "")
            if r["page"] <= CALENDAR_COVER_PAGES or "fiscal" in text.lower():
                texts.append(text)
        headers: list[tuple[str, str]] = []
        for region in self.regions(doc_id, kind="table"):
            table = region.table or {}
            context = " ".join([region.title, region.units, str(table.get("units", ""))])
            headers += [(str(c), context) for c in table.get("columns", []) if c]
        return texts, headers

    def delete_document(self, doc_id: str) -> list[int]:
        """Remove a document and everything derived from it; returns the chunk ids to drop from indexes."""
        with self.write() as db:
            ids = [r[0] for r in db.execute("SELECT id FROM chunks WHERE doc_id = ?", (doc_id,))]
            db.execute("DELETE FROM documents WHERE id = ?", (doc_id,))
        return ids

    # --- pages ---------------------------------------------------------------------------------------
    def put_pages(self, doc_id: str, pages: Iterable[dict[str, Any]]) -> None:
        with self.write() as db:
            db.execute("DELETE FROM pages WHERE doc_id = ?", (doc_id,))
            db.executemany(
                "INSERT INTO pages(doc_id, page, width, height, has_text, text, words, ocr) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        doc_id,
                        p["page"],
                        p["width"],
                        p["height"],
                        int(bool(p["has_text"])),
                        p["text"],
                        json.dumps(p.get("words", [])),
                        int(p.get("ocr", 0)),
                    )
                    for p in pages
                ],
            )

    def update_page(self, doc_id: str, page: int, **fields: Any) -> None:
        if "words" in fields:
            fields["words"] = json.dumps(fields["words"])
        cols = ", ".join(f"{k} = ?" for k in fields)
        with self.write() as db:
            db.execute(f"UPDATE pages SET {cols} WHERE doc_id = ? AND page = ?", (*fields.values(), doc_id, page))

    def pages(self, doc_id: str, with_words: bool = False) -> list[dict[str, Any]]:
        cols = "page, width, height, has_text, text, ocr" + (", words" if with_words else "")
        rows = self.conn().execute(
            f"SELECT {cols} FROM pages WHERE doc_id = ? ORDER BY page", (doc_id,)
        ).fetchall()
        out = []
        for r in rows:
            d = dict(r)
            if with_words:
                d["words"] = json.loads(d["words"])
            out.append(d)
        return out

    def page(self, doc_id: str, page: int, with_words: bool = False) -> dict[str, Any] | None:
        cols = "page, width, height, has_text, text, ocr" + (", words" if with_words else "")
        r = self.conn().execute(
            f"SELECT {cols} FROM pages WHERE doc_id = ? AND page = ?", (doc_id, page)
        ).fetchone()
        if r is None:
            return None
        d = dict(r)
        if with_words:
            d["words"] = json.loads(d["words"])
        return d

    def page_words(self, doc_id: str, page: int) -> PageText | None:
        """A page's text layer with its words and lines (``PageText``); None where the catalogue has no such page."""
        r = self.page(doc_id, page, with_words=True)
        return PageText.from_row(r) if r is not None else None

    # --- regions -------------------------------------------------------------------------------------
    def replace_regions(self, doc_id: str, regions: Sequence[Region], kinds: Sequence[str] | None = None) -> None:
        """Replace a document's regions (of some kinds) in one transaction; assigns ids in place."""
        with self.write() as db:
            if kinds is None:
                db.execute("DELETE FROM regions WHERE doc_id = ?", (doc_id,))
            else:
                db.execute(
                    f"DELETE FROM regions WHERE doc_id = ? AND kind IN ({','.join('?' * len(kinds))})",
                    (doc_id, *kinds),
                )
            for r in regions:
                cur = db.execute(
                    "INSERT INTO regions(doc_id, page, kind, bbox, method, title, units, summary, summary_method, "
                    "table_json, crop_path, checks, score) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    self._region_row(doc_id, r),
                )
                r.id = int(cur.lastrowid or 0)
                r.doc_id = doc_id

    def update_region(self, region: Region) -> None:
        with self.write() as db:
            db.execute(
                "UPDATE regions SET page=?, kind=?, bbox=?, method=?, title=?, units=?, summary=?, "
                "summary_method=?, table_json=?, crop_path=?, checks=?, score=? WHERE id=?",
                (*self._region_row(region.doc_id, region)[1:], region.id),
            )

    @staticmethod
    def _region_row(doc_id: str, r: Region) -> tuple[Any, ...]:
        # Cells come from the cleaned text layer, but titles and summaries may be a vision model's words.
        return (
            doc_id,
            r.page,
            r.kind,
            json.dumps([round(float(v), 2) for v in r.bbox]),
            r.method,
            clean_value(r.title),
            clean_value(r.units),
            clean_value(r.summary),
            r.summary_method,
            json.dumps(clean_value(r.table)) if r.table is not None else None,
            r.crop_path,
            json.dumps(r.checks),
            r.score,
        )

    def regions(self, doc_id: str, page: int | None = None, kind: str | None = None) -> list[Region]:
        sql = "SELECT * FROM regions WHERE doc_id = ?"
        args: list[Any] = [doc_id]
        if page is not None:
            sql += " AND page = ?"
            args.append(page)
        if kind is not None:
            sql += " AND kind = ?"
            args.append(kind)
        rows = self.conn().execute(sql + " ORDER BY page, id", args).fetchall()
        return [self._region(r) for r in rows]

    def region(self, region_id: int) -> Region | None:
        r = self.conn().execute("SELECT * FROM regions WHERE id = ?", (region_id,)).fetchone()
        return self._region(r) if r else None

    @staticmethod
    def _region(r: sqlite3.Row) -> Region:
        bbox = _bbox(r["bbox"]) or (0.0, 0.0, 0.0, 0.0)
        return Region(
            id=r["id"],
            doc_id=r["doc_id"],
            page=r["page"],
            kind=r["kind"],
            bbox=bbox,
            method=r["method"],
            title=r["title"],
            units=r["units"],
            summary=r["summary"],
            summary_method=r["summary_method"],
            table=json.loads(r["table_json"]) if r["table_json"] else None,
            crop_path=r["crop_path"],
            checks=json.loads(r["checks"]),
            score=r["score"],
        )

    # --- chunks --------------------------------------------------------------------------------------
    def replace_chunks(self, doc_id: str, modality: str, chunks: Sequence[Chunk]) -> list[int]:
        """Replace a document's chunks of one modality; returns the ids that were dropped."""
        with self.write() as db:
            old = [
                r[0]
                for r in db.execute("SELECT id FROM chunks WHERE doc_id = ? AND modality = ?", (doc_id, modality))
            ]
            db.execute("DELETE FROM chunks WHERE doc_id = ? AND modality = ?", (doc_id, modality))
            for c in chunks:
                cur = db.execute(
                    "INSERT INTO chunks(doc_id, modality, page, pages, bbox, region_id, text) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        doc_id,
                        modality,
                        c.page,
                        json.dumps(c.pages or [c.page]),
                        json.dumps(list(c.bbox)) if c.bbox else None,
                        c.region_id,
                        c.text,
                    ),
                )
                c.id = int(cur.lastrowid or 0)
                c.doc_id = doc_id
            # The old chunks' rows went with them (trigger); the new ones are written in this transaction.
            _fill_lexical(db, [c.id for c in chunks])
        return old

    def chunks(
        self,
        doc_ids: Sequence[str] | None = None,
        modality: str | None = None,
        ids: Sequence[int] | None = None,
        unindexed: bool = False,
        pages: Sequence[int] | None = None,
    ) -> list[Chunk]:
        sql = "SELECT id, doc_id, modality, page, pages, bbox, region_id, text FROM chunks WHERE 1=1"
        args: list[Any] = []
        if doc_ids is not None:
            sql += f" AND doc_id IN ({','.join('?' * len(doc_ids))})"
            args.extend(doc_ids)
        if pages is not None:
            sql += f" AND page IN ({','.join('?' * len(pages))})"
            args.extend(pages)
        if modality is not None:
            sql += " AND modality = ?"
            args.append(modality)
        if ids is not None:
            out: list[Chunk] = []
            ids = list(ids)
            for i in range(0, len(ids), 500):
                part = ids[i : i + 500]
                rows = self.conn().execute(
                    sql + f" AND id IN ({','.join('?' * len(part))})", (*args, *part)
                ).fetchall()
                out.extend(self._chunk(r) for r in rows)
            return out
        if unindexed:
            sql += " AND indexed = 0"
        rows = self.conn().execute(sql + " ORDER BY id", args).fetchall()
        return [self._chunk(r) for r in rows]

    def _beside(self, chunk_id: int, after: bool, pages: int | None) -> Chunk | None:
        """The chunk just after (or before) one in its document and modality, within ``pages`` pages of it (None:
        any page); None where there is none."""
        near, order = (">", "") if after else ("<", " DESC")
        bound = "" if pages is None else (
            "AND nb.page BETWEEN me.page AND me.page + ? " if after else "AND nb.page BETWEEN me.page - ? AND me.page ")
        row = self.conn().execute(
            "SELECT nb.id, nb.doc_id, nb.modality, nb.page, nb.pages, nb.bbox, nb.region_id, nb.text "
            f"FROM chunks me JOIN chunks nb ON nb.doc_id = me.doc_id AND nb.modality = me.modality AND nb.id {near} "
            f"me.id {bound}WHERE me.id = ? ORDER BY nb.id{order} LIMIT 1",
            (chunk_id,) if pages is None else (pages, chunk_id),
        ).fetchone()
        return self._chunk(row) if row is not None else None

    def preceding(self, chunk_ids: Sequence[int]) -> dict[int, str]:
        """The text of the chunk just before each of ``chunk_ids`` in its document and modality, by id (none for a
        chunk that opens its document's): a sentence that opens its chunk reads on from the one before it in the
        filing, which a chunk's bounds do not change."""
        out: dict[int, str] = {}
        for cid in dict.fromkeys(chunk_ids):
            if (prev := self._beside(cid, after=False, pages=None)) is not None:
                out[cid] = prev.text
        return out

    def following(self, chunk: Chunk) -> Chunk | None:
        """The chunk just after one in its document and modality, on its page or the next (None where there is
        none): a section a chunk opens runs on past the chunk's bounds."""
        return self._beside(chunk.id, after=True, pages=1)

    def earlier(self, chunk: Chunk) -> Chunk | None:
        """The chunk just before one in its document and modality, on its page (None where there is none): a
        passage that opens inside a section ("Income tax expense was relatively unchanged in the first six months")
        leaves the section's first sentences ("... increased to 26.1% in the second quarter") to the chunk before."""
        return self._beside(chunk.id, after=False, pages=0)

    def chunk_count(self, doc_ids: Sequence[str] | None = None, modalities: Sequence[str] | None = None) -> int:
        """How many chunks the library (or some documents, of some modalities) holds."""
        sql, args = self._chunk_filter(doc_ids, modalities)
        return int(self.conn().execute(f"SELECT COUNT(*) FROM chunks WHERE 1=1{sql}", args).fetchone()[0])

    def chunk_signature(self, doc_ids: Sequence[str]) -> tuple[int, int]:
        """Some documents' chunk count and highest chunk id: it changes whenever their chunks do (new chunks
        get new ids)."""
        sql, args = self._chunk_filter(doc_ids, None)
        row = self.conn().execute(f"SELECT COUNT(*), COALESCE(MAX(id), 0) FROM chunks WHERE 1=1{sql}", args).fetchone()
        return int(row[0]), int(row[1])

    @staticmethod
    def _chunk_filter(
        doc_ids: Sequence[str] | None, modalities: Sequence[str] | None, prefix: str = ""
    ) -> tuple[str, list[Any]]:
        sql, args = "", []
        if doc_ids is not None:
            sql += f" AND {prefix}doc_id IN ({','.join('?' * len(doc_ids))})"
            args += list(doc_ids)
        if modalities is not None:
            sql += f" AND {prefix}modality IN ({','.join('?' * len(modalities))})"
            args += list(modalities)
        return sql, args

    # --- lexical index -------------------------------------------------------------------------------
    def lexical_rows(
        self, doc_ids: Sequence[str], modalities: Sequence[str] | None = None
    ) -> list[tuple[int, str, str]]:
        """(chunk id, modality, terms) of some documents' chunks: what a scoped lexical search ranks. Reads
        only those documents' rows (the chunks' document index, then the FTS rows by chunk id)."""
        sql, args = self._chunk_filter(doc_ids, modalities, "c.")
        rows = self.conn().execute(
            "SELECT c.id, c.modality, f.terms FROM chunks c JOIN chunks_fts f ON f.rowid = c.id "
            f"WHERE 1=1{sql} ORDER BY c.id", args
        ).fetchall()
        return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]

    def lexical_df(self, terms: Sequence[str]) -> dict[str, int]:
        """How many chunks hold each term."""
        from engine.library.lexical import match_expression

        db = self.conn()
        return {t: int(db.execute("SELECT COUNT(*) FROM chunks_fts WHERE chunks_fts MATCH ?",
                                  (match_expression([t]),)).fetchone()[0]) for t in terms}

    def lexical_search(
        self, match: str, k: int, doc_ids: Sequence[str] | None = None, modalities: Sequence[str] | None = None
    ) -> list[tuple[int, float, str]]:
        """Top-k (chunk id, score, modality) for an FTS5 query, ranked by ``bm25()`` (higher is better)."""
        sql, args = self._chunk_filter(doc_ids, modalities)
        rows = self.conn().execute(
            f"SELECT rowid, -bm25(chunks_fts), modality FROM chunks_fts WHERE chunks_fts MATCH ?{sql} "
            "ORDER BY bm25(chunks_fts) LIMIT ?", (match, *args, k)
        ).fetchall()
        return [(int(r[0]), float(r[1]), str(r[2])) for r in rows]

    def lexical_mismatch(self) -> tuple[list[int], list[int]]:
        """Chunk ids without a lexical row, and lexical rows without a chunk (``doctor`` reports both)."""
        db = self.conn()
        missing = [r[0] for r in db.execute(
            "SELECT id FROM chunks WHERE id NOT IN (SELECT rowid FROM chunks_fts) ORDER BY id")]
        orphans = [r[0] for r in db.execute(
            "SELECT rowid FROM chunks_fts WHERE rowid NOT IN (SELECT id FROM chunks) ORDER BY rowid")]
        return missing, orphans

    def rebuild_lexical(self) -> int:
        """Write every chunk's lexical row again, in one transaction (``doctor --repair``); returns how many."""
        with self.write() as db:
            for statement in LEXICAL_SCHEMA:
                db.execute(statement)
            db.execute("DELETE FROM chunks_fts")
            return _fill_lexical(db)

    def mark_indexed(self, ids: Sequence[int]) -> None:
        with self.write() as db:
            db.executemany("UPDATE chunks SET indexed = 1 WHERE id = ?", [(i,) for i in ids])

    def chunk_ids(self, modality: str | None = None, doc_ids: Sequence[str] | None = None) -> list[int]:
        """Ids of the chunks (of one modality, of some documents) without reading their text."""
        sql, args = self._chunk_filter(doc_ids, None if modality is None else [modality])
        return [r[0] for r in self.conn().execute(f"SELECT id FROM chunks WHERE 1=1{sql}", args)]

    @staticmethod
    def _chunk(r: sqlite3.Row) -> Chunk:
        return Chunk(
            id=r["id"],
            doc_id=r["doc_id"],
            modality=r["modality"],
            page=r["page"],
            text=r["text"],
            pages=json.loads(r["pages"]),
            bbox=_bbox(r["bbox"]),
            region_id=r["region_id"],
        )

    # --- stages --------------------------------------------------------------------------------------
    def set_stage(self, doc_id: str, stage: str, status: str, detail: str = "", seconds: float = 0.0) -> None:
        with self.write() as db:
            db.execute(
                "INSERT INTO stages(doc_id, stage, status, detail, seconds, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(doc_id, stage) DO UPDATE SET status=excluded.status, detail=excluded.detail, "
                "seconds=excluded.seconds, updated_at=excluded.updated_at",
                (doc_id, stage, status, visible_text(detail), seconds, time.time()),
            )

    def stages(self, doc_id: str) -> dict[str, dict[str, Any]]:
        rows = self.conn().execute(
            "SELECT stage, status, detail, seconds FROM stages WHERE doc_id = ?", (doc_id,)
        ).fetchall()
        return {r["stage"]: dict(r) for r in rows}

    # --- answers history -----------------------------------------------------------------------------
    def add_answer(self, question: str, answer: str, scope: Sequence[str], payload: dict[str, Any]) -> int:
        with self.write() as db:
            cur = db.execute(
                "INSERT INTO answers(question, answer, scope, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                (question, answer, json.dumps(list(scope)), json.dumps(payload), time.time()),
            )
            return int(cur.lastrowid or 0)

    def answers(self, search: str = "", limit: int = 200) -> list[dict[str, Any]]:
        sql = "SELECT id, question, answer, scope, payload, created_at FROM answers"
        args: list[Any] = []
        if search:
            sql += " WHERE question LIKE ? OR answer LIKE ?"
            args += [f"%{search}%", f"%{search}%"]
        rows = self.conn().execute(sql + " ORDER BY id DESC LIMIT ?", (*args, limit)).fetchall()
        return [
            {**dict(r), "scope": json.loads(r["scope"]), "payload": json.loads(r["payload"])} for r in rows
        ]

    # --- the embedder of the vectors ---------------------------------------------------------------
    def vectors_embedder(self) -> str | None:
        """The name of the embedder that made the library's vectors; None in a library from before it was
        recorded (or with no vectors yet)."""
        name = self.get_setting(EMBEDDER_KEY)
        return str(name) if name else None

    def claim_vectors(self, embedder: str) -> None:
        """Before vectors are added: record ``embedder`` as the one that makes them, or refuse it when another
        made the ones already there (two embedders of one size would mix silently: usearch only checks the
        size)."""
        recorded = self.vectors_embedder()
        check_embedder(recorded, embedder)
        if recorded is None:
            self.record_vectors_embedder(embedder)

    def record_vectors_embedder(self, embedder: str) -> None:
        """Record ``embedder`` as the one that made the library's vectors (after they were all made again)."""
        self.put_setting(EMBEDDER_KEY, embedder)

    # --- settings ------------------------------------------------------------------------------------
    def get_setting(self, key: str) -> Any:
        r = self.conn().execute("SELECT value FROM settings_kv WHERE key = ?", (key,)).fetchone()
        return json.loads(r[0]) if r else None

    def put_setting(self, key: str, value: Any) -> None:
        with self.write() as db:
            db.execute(
                "INSERT INTO settings_kv(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                (key, json.dumps(value)),
            )

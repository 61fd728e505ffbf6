"""The catalogue's schema upgrades in place: a library made by an older version opens, gains the new columns and
keeps its documents; the company identity of the documents it holds is read from their stored page text."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from engine.library.store import SCHEMA, SCHEMA_VERSION, Store

COVER = [
    "FORM 10-K",
    "For the fiscal year ended December 31, 2023",
    "Zorblax Dynamics Corp.",
    "(Exact name of registrant as specified in its charter)",
    "Securities registered pursuant to Section 12(b) of the Act:",
    "Title of each class Trading Symbol(s) Name of each exchange on which registered",
    "Common Stock, par value $0.01 per share ZBX New York Stock Exchange",
    "Indicate by check mark whether the registrant is a well-known seasoned issuer.",
]


def _words(lines: list[str]) -> list[list[object]]:
    words: list[list[object]] = []
    for y, line in enumerate(lines):
        for x, w in enumerate(line.split()):
            words.append([40.0 * x, 14.0 * y, 40.0 * x + 30, 14.0 * y + 10, w])
    return words


def _version_1_catalogue(path: Path) -> None:
    """A catalogue as version 1 of the app left it: one ingested filing, metadata without identity."""
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    db.execute("INSERT INTO meta(key, value) VALUES ('schema_version', '1')")
    db.execute("INSERT INTO documents(id, sha256, path, name, title, company, form_type, fiscal_period, pages, "
               "status, added_at) VALUES ('zbx', 'ab', '/x/zbx.pdf', 'zbx_2023', 'zbx 10-K FY2023', 'zbx', '10-K', "
               "'FY2023', 2, 'ready', ?)", (time.time(),))
    pages = [COVER, ["Item 5. Market", "Our common stock trades on the NYSE under the symbol “ZBX”."]]
    for n, lines in enumerate(pages, 1):
        db.execute("INSERT INTO pages(doc_id, page, width, height, has_text, text, words) VALUES "
                   "('zbx', ?, 612, 792, 1, ?, ?)", (n, "\n".join(lines), json.dumps(_words(lines))))
    db.execute("INSERT INTO documents(id, sha256, path, name, pages, status, added_at) VALUES "
               "('new', 'cd', '/x/new.pdf', 'new', 0, 'ingesting', ?)", (time.time(),))
    db.commit()
    db.close()


def test_a_version_1_catalogue_is_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "catalogue.sqlite3"
    _version_1_catalogue(path)
    store = Store(path)
    db = store.conn()
    assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
    cols = {r[1] for r in db.execute("PRAGMA table_info(documents)")}
    assert {"tickers", "cik", "former_names"} <= cols
    doc = store.document("zbx")
    assert doc.company == "Zorblax Dynamics Corp." and doc.title == "Zorblax Dynamics Corp. 10-K FY2023"
    assert doc.tickers == ["ZBX"] and doc.cik == "" and doc.former_names == []
    unread = store.document("new")  # no pages yet: left for the metadata stage
    assert unread.company == "" and unread.tickers == []
    store.close()

    again = Store(path)  # opening a current catalogue changes nothing
    assert again.document("zbx").tickers == ["ZBX"] and len(again.documents()) == 2
    again.close()


def test_a_new_catalogue_is_current_and_keeps_lists(tmp_path: Path) -> None:
    store = Store(tmp_path / "c.sqlite3")
    assert store.conn().execute("SELECT value FROM meta").fetchone()[0] == str(SCHEMA_VERSION)
    store.add_document("d1", "ff", "/x/a.pdf", "a", 3)
    store.update_document("d1", company="Acme, Inc.", tickers=["ACME", "ACME.B"], cik="0000123456",
                          former_names=["Widgets, Inc."])
    doc = store.document("d1")
    assert (doc.tickers, doc.cik, doc.former_names) == (["ACME", "ACME.B"], "0000123456", ["Widgets, Inc."])
    assert doc.to_json()["tickers"] == ["ACME", "ACME.B"]
    store.close()

"""`mfr-tui doctor`: check the catalogue against the index files and repair what can be repaired.

Checks: data dir permissions, SQLite integrity and foreign keys, documents left ``ingesting`` by a killed
process, stage rows with an unknown status, lexical index rows that do not match the chunks, index files that
are unreadable or of the wrong dimension, vectors without chunks, chunks without vectors, stale temp files (and
the BM25 files of versions before the lexical index moved into the catalogue), crop folders of removed
documents, torn crops.

Repairs (with ``repair=True``, under the writer lock): salvage a damaged catalogue into a fresh file (the old
one is kept beside it), drop rows that break foreign keys, rebuild the lexical index from the chunks, rebuild an
unreadable or wrong-dimension index by re-embedding the catalogue's chunk texts, embed chunks whose vectors are
missing, drop orphan vectors, delete stale temp files and orphan crop folders, reset interrupted documents so
the next ``ingest`` resumes them. Nothing is repaired by deleting a document: a document's rows and files are
only ever dropped when the catalogue no longer knows the document.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import EngineError, LibraryBusyError, StoreError
from engine.settings import Settings
from engine.types import MODALITIES

SEVERITIES = ("error", "warning", "info")

FINISHED = {"done", "error", "skipped"}
"""Stage statuses ingestion treats as finished (engine.ingest.pipeline.IngestContext.stage_done)."""


@dataclass
class Finding:
    """One thing the doctor found; ``repaired`` says whether ``--repair`` fixed it."""

    check: str
    """Short id of the check (``integrity``, ``orphan_vectors``, ...)."""
    severity: str
    """``error`` (the library is inconsistent), ``warning`` (worth fixing), ``info`` (for the record)."""
    message: str
    repairable: bool = False
    repaired: bool = False
    detail: dict[str, Any] = field(default_factory=dict)


SAME_EMBEDDER_COSINE = 0.999
"""A library that does not record its embedder (made before it was recorded) is taken to hold the current
embedder's vectors when a sample of them agrees with that embedder's vectors of the same texts to this cosine:
the same MiniLM in bfloat16 or on another CPU gives 0.9999 and more, its int8 ONNX graph about 0.997."""


@dataclass
class DoctorReport:
    """Everything one doctor run found and did."""

    data_dir: str
    findings: list[Finding] = field(default_factory=list)
    repaired: bool = False
    """Whether the run was allowed to repair."""
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def problems(self) -> list[Finding]:
        """Errors and warnings that are still there (not repaired)."""
        return [f for f in self.findings if f.severity in {"error", "warning"} and not f.repaired]

    @property
    def clean(self) -> bool:
        return not self.problems

    def add(self, check: str, severity: str, message: str, repairable: bool = False, **detail: Any) -> Finding:
        f = Finding(check=check, severity=severity, message=message, repairable=repairable, detail=detail)
        self.findings.append(f)
        return f

    def to_json(self) -> dict[str, Any]:
        return {
            "data_dir": self.data_dir,
            "clean": self.clean,
            "repair": self.repaired,
            "seconds": round(self.seconds, 3),
            "stats": self.stats,
            "findings": [asdict(f) for f in self.findings],
        }


Progress = Callable[[str], None]


def _ignore(_: str) -> None:
    return None


class Doctor:
    """Checks (and optionally repairs) one data dir. Pass an Engine's store, indexes and writer lock when it
    runs inside an engine, so in-memory indexes and files never disagree; otherwise it opens its own."""

    def __init__(
        self,
        settings: Settings,
        models: Any = None,
        *,
        store: Any = None,
        indexes: Any = None,
        writer: Any = None,
    ) -> None:
        self.settings = settings
        self._models = models
        self._store = store
        self._indexes = indexes
        self._writer = writer
        self._embedder: Any = None
        self._embedder_error = ""

    # --- entry ---------------------------------------------------------------------------------------
    def run(self, repair: bool = False, on_progress: Progress | None = None) -> DoctorReport:
        """Check everything; with ``repair`` also fix what can be fixed. Never raises for what it finds."""
        say = on_progress or _ignore
        t0 = time.perf_counter()
        s = self.settings
        report = DoctorReport(data_dir=str(s.data_dir), repaired=repair)
        if not s.data_dir.exists():
            report.add("data_dir", "info", f"{s.data_dir} does not exist yet: the library is empty.")
            report.seconds = time.perf_counter() - t0
            return report
        from engine.library.lock import WriterLock

        writer = self._writer or WriterLock(s.data_dir)
        busy = False
        try:
            writer.enter_nowait()
        except LibraryBusyError as exc:
            busy = True
            report.add("writer_busy", "warning" if repair else "info",
                       exc.message + (" Nothing was repaired." if repair else " Documents being ingested right "
                                      "now are not judged."))
            repair = False
            report.repaired = False
        try:
            say("permissions")
            self._check_permissions(report, repair)
            say("temp files")
            self._check_temp_files(report, repair)
            say("catalogue")
            if not self._check_catalogue(report, repair):
                return report
            store = self._open_store(report)
            if store is None:
                return report
            say("documents")
            self._check_documents(report, store, repair, busy)
            say("lexical index")
            self._check_lexical(report, store, repair, busy)
            say("indexes")
            self._check_indexes(report, store, repair, busy)
            say("crops")
            self._check_crops(report, store, repair)
        finally:
            if not busy:
                writer.__exit__(None, None, None)
            report.seconds = time.perf_counter() - t0
        return report

    # --- permissions ---------------------------------------------------------------------------------
    def _check_permissions(self, report: DoctorReport, repair: bool) -> None:
        root = self.settings.data_dir
        mode = stat.S_IMODE(root.stat().st_mode)
        if mode & 0o077:
            f = report.add("permissions", "warning",
                           f"The data dir {root} is readable by other users (mode {mode:o}); it should be 700.",
                           repairable=True)
            if repair:
                os.chmod(root, 0o700)
                f.repaired = True
        exposed: list[str] = []
        for dirpath, _dirnames, filenames in os.walk(root):
            for name in filenames:
                p = Path(dirpath) / name
                try:
                    if stat.S_IMODE(p.lstat().st_mode) & 0o077 and not p.is_symlink():
                        exposed.append(str(p))
                except OSError:
                    continue
        if exposed:
            # Inside a 700 data dir other users cannot reach them; still tighten them in case the dir is opened.
            f = report.add("file_permissions", "info",
                           f"{len(exposed)} files in the data dir are group/other readable (the dir itself "
                           "protects them while it is 700).", repairable=True, files=exposed[:20])
            if repair:
                for name in exposed:
                    try:
                        os.chmod(name, 0o600)
                    except OSError:
                        pass
                f.repaired = True

    # --- temp files ----------------------------------------------------------------------------------
    def _temp_files(self) -> list[Path]:
        s = self.settings
        out: list[Path] = []
        if s.index_dir.exists():
            out.extend(p for p in s.index_dir.iterdir() if p.name.endswith((".tmp", ".partial")))
        lex_tmp = s.data_dir / "lexical.tmp"
        if lex_tmp.exists():
            out.append(lex_tmp)
        out.extend(p for p in s.data_dir.glob("*.tmp"))
        out.extend(p for p in s.data_dir.glob("*.doctor-new"))
        if s.crops_dir.exists():
            out.extend(p for p in s.crops_dir.rglob("*") if p.name.endswith((".tmp", ".partial")))
        return sorted(set(out))

    def _check_temp_files(self, report: DoctorReport, repair: bool) -> None:
        old = self.settings.data_dir / "lexical"
        if old.is_dir():
            f = report.add("old_lexical_files", "info",
                           f"{old} holds the BM25 files of a version before the keyword index moved into the "
                           "catalogue; nothing reads them now.", repairable=True)
            if repair:
                shutil.rmtree(old, ignore_errors=True)
                f.repaired = True
        stale = self._temp_files()
        if not stale:
            return
        f = report.add("stale_temp", "warning",
                       f"{len(stale)} temp files left by an interrupted write: " + ", ".join(p.name for p in stale[:8]),
                       repairable=True, files=[str(p) for p in stale])
        if repair:
            for p in stale:
                if p.is_dir():
                    shutil.rmtree(p, ignore_errors=True)
                else:
                    p.unlink(missing_ok=True)
            f.repaired = True

    # --- catalogue -----------------------------------------------------------------------------------
    def _check_catalogue(self, report: DoctorReport, repair: bool) -> bool:
        """SQLite integrity and foreign keys; False when the catalogue cannot be used at all."""
        path = self.settings.catalogue_path
        if not path.exists():
            report.add("catalogue", "info", f"No catalogue at {path} yet: the library is empty.")
            stray = [p for m in MODALITIES if (p := self.settings.index_dir / f"{m}.usearch").exists()]
            if stray:
                f = report.add("orphan_index", "warning",
                               "Index files exist without a catalogue: " + ", ".join(p.name for p in stray),
                               repairable=True)
                if repair:
                    self._move_aside(stray)
                    f.repaired = True
            return False
        problems: list[str] = []
        try:
            db = sqlite3.connect(path, timeout=30.0)
            try:
                rows = db.execute("PRAGMA integrity_check").fetchall()
                problems = [str(r[0]) for r in rows if str(r[0]) != "ok"]
            finally:
                db.close()
        except sqlite3.DatabaseError as exc:
            problems = [str(exc)]
        if problems:
            f = report.add("integrity", "error",
                           f"The catalogue {path} is damaged: {'; '.join(problems[:5])}",
                           repairable=True, problems=problems[:50])
            if not repair:
                return False
            try:
                salvaged = self._salvage_catalogue(path)
            except (OSError, sqlite3.Error) as exc:
                f.message += f" Salvage failed: {exc}."
                return False
            f.repaired = True
            f.detail["salvaged_rows"] = salvaged
            f.message += f" Salvaged {sum(salvaged.values())} rows into a fresh catalogue; the damaged file is kept."
        return True

    def _salvage_catalogue(self, path: Path) -> dict[str, int]:
        """Copy every readable row into a fresh catalogue; the damaged file is moved aside, never deleted."""
        from engine.library.store import SCHEMA

        new = path.with_name(path.name + ".doctor-new")
        new.unlink(missing_ok=True)
        counts: dict[str, int] = {}
        src = sqlite3.connect(path, timeout=30.0)
        dst = sqlite3.connect(new)
        try:
            dst.executescript(SCHEMA)
            tables = ("meta", "documents", "pages", "regions", "chunks", "stages", "answers", "settings_kv")
            for table in tables:
                n = 0
                try:
                    cols = [r[1] for r in dst.execute(f"PRAGMA table_info({table})")]
                    cur = src.execute(f"SELECT {', '.join(cols)} FROM {table}")
                    while True:
                        try:
                            row = cur.fetchone()
                        except sqlite3.DatabaseError:
                            break  # the rest of this table is unreadable
                        if row is None:
                            break
                        try:
                            dst.execute(
                                f"INSERT OR IGNORE INTO {table}({', '.join(cols)}) VALUES "
                                f"({', '.join('?' * len(cols))})", row
                            )
                            n += 1
                        except sqlite3.DatabaseError:
                            continue
                except sqlite3.DatabaseError:
                    pass
                counts[table] = n
            # Only version 1's tables were made here: the upgrades run again when the catalogue is opened.
            dst.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
            dst.commit()
        finally:
            src.close()
            dst.close()
        os.chmod(new, 0o600)
        self._move_aside([path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")])
        os.replace(new, path)
        return counts

    @staticmethod
    def _move_aside(paths: list[Path]) -> None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        for p in paths:
            if p.exists():
                os.replace(p, p.with_name(f"{p.name}.damaged-{stamp}"))

    def _open_store(self, report: DoctorReport) -> Any:
        if self._store is not None:
            return self._store
        from engine.library.store import Store

        try:
            self._store = Store(self.settings.catalogue_path)
        except StoreError as exc:
            report.add("catalogue", "error", exc.message)
            return None
        return self._store

    # --- documents -----------------------------------------------------------------------------------
    def _check_documents(self, report: DoctorReport, store: Any, repair: bool, busy: bool) -> None:
        db = store.conn()
        fk = db.execute("PRAGMA foreign_key_check").fetchall()
        if fk:
            tables = sorted({str(r[0]) for r in fk})
            f = report.add("foreign_keys", "error",
                           f"{len(fk)} rows in {', '.join(tables)} point at documents that no longer exist.",
                           repairable=True, rows=len(fk))
            if repair:
                with store.write() as w:
                    for table in ("pages", "regions", "chunks", "stages"):
                        w.execute(f"DELETE FROM {table} WHERE doc_id NOT IN (SELECT id FROM documents)")
                f.repaired = True
        docs = db.execute("SELECT id, name, path, status FROM documents ORDER BY added_at").fetchall()
        report.stats["documents"] = len(docs)
        report.stats["chunks"] = db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
        for d in docs:
            stages = store.stages(d["id"])
            odd = {k: v["status"] for k, v in stages.items() if v["status"] not in FINISHED}
            if odd:
                f = report.add("stage_status", "warning",
                               f"{d['name']} ({d['id']}): stages with an unfinished status {odd}; they will be "
                               "redone.", repairable=True, doc_id=d["id"])
                if repair:
                    with store.write() as w:
                        w.executemany("DELETE FROM stages WHERE doc_id = ? AND stage = ?",
                                      [(d["id"], k) for k in odd])
                    f.repaired = True
            if d["status"] == "failed":
                report.add("document_failed", "info",
                           f"{d['name']} ({d['id']}) failed to ingest; `mfr-tui ingest {d['path']}` retries it.",
                           doc_id=d["id"])
            if d["status"] != "ingesting" or busy:
                continue
            finished = [k for k, v in stages.items() if v["status"] in FINISHED]
            complete = "embed" in finished and all(
                k in finished for k in ("text", "metadata")
            )
            if complete:
                errors = [f"{k}: {v['detail']}" for k, v in stages.items() if v["status"] == "error"]
                status = "partial" if errors else "ready"
                f = report.add("document_interrupted", "warning",
                               f"{d['name']} ({d['id']}) finished every stage but is still marked ingesting "
                               f"(the process stopped before its last write); it will be marked {status}.",
                               repairable=True, doc_id=d["id"])
                if repair:
                    store.update_document(d["id"], status=status, error="; ".join(errors)[:2000])
                    f.repaired = True
            else:
                last = finished[-1] if finished else "none"
                f = report.add("document_interrupted", "warning",
                               f"{d['name']} ({d['id']}) was interrupted while ingesting (finished stages: "
                               f"{', '.join(finished) or 'none'}). `mfr-tui ingest {d['path']}` resumes it.",
                               repairable=True, doc_id=d["id"], last_stage=last)
                if repair:
                    store.update_document(
                        d["id"], status="failed",
                        error=f"Ingestion was interrupted; run `mfr-tui ingest {d['path']}` again to resume "
                              "from the last finished stage.",
                    )
                    f.repaired = True

    # --- lexical index -------------------------------------------------------------------------------
    def _check_lexical(self, report: DoctorReport, store: Any, repair: bool, busy: bool) -> None:
        """Every chunk has its row in the catalogue's lexical index and every row its chunk; ``repair``
        rewrites the index from the chunks in one transaction."""
        try:
            missing, orphans = store.lexical_mismatch()
        except sqlite3.OperationalError as exc:  # the FTS table is gone (e.g. a salvaged catalogue)
            missing, orphans, broken = [], [], str(exc)
        else:
            broken = ""
        if not (missing or orphans or broken):
            return
        what = broken or (f"{len(missing)} chunks are missing from the lexical index and {len(orphans)} of its "
                          "rows have no chunk")
        f = report.add("lexical_index", "error",
                       f"The lexical (keyword) index does not match the chunks: {what}. Keyword search misses "
                       "them; `mfr-tui doctor --repair` rebuilds it from the catalogue.",
                       repairable=not busy, missing=missing[:50], orphans=orphans[:50])
        if repair and not busy:
            n = store.rebuild_lexical()
            f.repaired = True
            f.message += f" Rebuilt: {n} chunks indexed."

    # --- indexes -------------------------------------------------------------------------------------
    def _embedder_dim(self, report: DoctorReport) -> int | None:
        if self._embedder is not None:
            return int(self._embedder.dim)
        if self._embedder_error:
            return None
        try:
            if self._models is None:
                from engine.models.provider import ModelProvider

                self._models = ModelProvider(self.settings)
            self._embedder = self._models.embedder()
            return int(self._embedder.dim)
        except EngineError as exc:
            self._embedder_error = exc.message
            report.add("embedder", "warning",
                       f"The embedder could not be loaded, so index dimensions were not checked and nothing can "
                       f"be re-embedded: {exc.message}")
            return None

    def _vectors_agreement(self, store: Any, Index: Any, by_modality: dict[str, dict[int, Any]],
                           sample: int = 12) -> float | None:
        """The lowest cosine between stored vectors of a few indexed chunks (``by_modality``: the catalogue's
        chunk rows, as the index check read them; a sample spread over them) and the current embedder's vectors
        of the same texts (every chunk's vector is its text's embedding); None when there is nothing to compare.
        Only the sample's texts are read."""
        indexed = sorted(i for rows in by_modality.values() for i, r in rows.items() if r["indexed"])
        picked = indexed[:: max(1, len(indexed) // sample)][:sample]
        if not picked:
            return None
        marks = ",".join("?" * len(picked))
        rows = store.conn().execute(
            f"SELECT id, modality, text FROM chunks WHERE id IN ({marks}) AND text != ''", picked).fetchall()
        lowest: float | None = None
        for m in MODALITIES:
            part = [r for r in rows if r["modality"] == m]
            path = self.settings.index_dir / f"{m}.usearch"
            if not part or not path.exists():
                continue
            try:
                idx = Index.restore(str(path), view=True)
                stored = np.asarray(idx.get([int(r["id"]) for r in part]), dtype=np.float32)
                del idx
            except Exception:  # noqa: BLE001 - an unreadable index is the next check's finding
                continue
            if stored.ndim != 2 or stored.shape[1] != int(self._embedder.dim) or not np.isfinite(stored).all():
                continue
            fresh = np.asarray(self._embedder.embed([str(r["text"]) for r in part]), dtype=np.float32)
            norms = np.linalg.norm(stored, axis=1) * np.linalg.norm(fresh, axis=1)
            cos = float(np.min(np.sum(stored * fresh, axis=1) / np.maximum(norms, 1e-12)))
            lowest = cos if lowest is None else min(lowest, cos)
        return lowest

    def _check_indexes(self, report: DoctorReport, store: Any, repair: bool, busy: bool) -> None:
        from engine.library.index import usearch_index

        Index = usearch_index()

        s = self.settings
        db = store.conn()
        rows = db.execute(
            "SELECT c.id, c.modality, c.doc_id, c.indexed, "
            "COALESCE((SELECT status FROM stages st WHERE st.doc_id = c.doc_id AND st.stage = 'embed'), '') AS embed, "
            "d.status AS doc_status FROM chunks c JOIN documents d ON d.id = c.doc_id"
        ).fetchall()
        by_modality: dict[str, dict[int, Any]] = {m: {} for m in MODALITIES}
        for r in rows:
            by_modality.setdefault(r["modality"], {})[int(r["id"])] = r
        have_files = [m for m in MODALITIES if (s.index_dir / f"{m}.usearch").exists()]
        if not rows and not have_files:
            return
        dim = self._embedder_dim(report)
        rebuild: list[str] = []
        broken: set[str] = set()
        keys: dict[str, set[int]] = {}
        recorded = store.vectors_embedder()
        current = str(self._embedder.name) if dim is not None else ""
        agreement: float | None = None
        if current and not recorded and have_files:
            # a library from before the embedder was recorded: its vectors say whose they are
            agreement = self._vectors_agreement(store, Index, by_modality)
            if agreement is not None and agreement >= SAME_EMBEDDER_COSINE:
                f = report.add("index_embedder_unrecorded", "info",
                               f"The library did not record which embedder made its vectors; they agree with "
                               f"{current}'s (cosine {agreement:.4f}): --repair records it.", repairable=True)
                if repair:
                    store.record_vectors_embedder(current)
                    f.repaired = True
            elif agreement is not None:
                recorded = "unrecorded"
        renamed = bool(current and recorded and recorded != current)
        if renamed:
            made_by = (f"another embedder than {current} (not recorded in the library; their vectors of the same "
                       f"texts agree to cosine {agreement:.3f} only)" if recorded == "unrecorded"
                       else f"the embedder {recorded}, but the embedder now is {current}")
            f = report.add("index_embedder", "error",
                           f"The vectors were made by {made_by}; every index will be rebuilt by embedding the "
                           "catalogue again.", repairable=True, recorded=recorded, embedder=current)
            if repair:
                self._move_aside([p for m in MODALITIES if (p := s.index_dir / f"{m}.usearch").exists()])
                f.repaired = True
        for m in MODALITIES:
            path = s.index_dir / f"{m}.usearch"
            embedded = {i for i, r in by_modality[m].items() if r["embed"] == "done"}
            if renamed:
                keys[m] = set()
                broken.add(m)
                if repair:
                    rebuild.append(m)
                continue
            if not path.exists():
                keys[m] = set()
                if embedded:
                    f = report.add("index_missing", "error",
                                   f"The {m} index file {path} is missing but {len(embedded)} chunks need it.",
                                   repairable=dim is not None, modality=m)
                    broken.add(m)
                    if repair and dim is not None:
                        rebuild.append(m)
                        f.repaired = True
                continue
            try:
                meta = Index.metadata(str(path))
                idx = Index.restore(str(path))
                if idx is None:
                    raise ValueError("not a usearch index")
                keys[m] = {int(k) for k in idx.keys}
                file_dim = int(meta.get("dimensions", idx.ndim)) if isinstance(meta, dict) else int(idx.ndim)
                del idx
            except Exception as exc:  # usearch raises ValueError/RuntimeError for torn or foreign files
                f = report.add("index_unreadable", "error",
                               f"The {m} index {path} is unreadable ({exc}); it will be rebuilt from the catalogue.",
                               repairable=dim is not None, modality=m)
                if repair and dim is not None:
                    self._move_aside([path])
                    rebuild.append(m)
                    f.repaired = True
                broken.add(m)
                keys[m] = set()
                continue
            if dim is not None and file_dim != dim:
                f = report.add("index_dimension", "error",
                               f"The {m} index holds {file_dim}-dimensional vectors but the embedder makes {dim} "
                               "(the embedder changed); it will be rebuilt by re-embedding the catalogue.",
                               repairable=True, modality=m, file_dim=file_dim, dim=dim)
                if repair:
                    self._move_aside([path])
                    rebuild.append(m)
                    f.repaired = True
                broken.add(m)
                keys[m] = set()
        report.stats["vectors"] = {m: len(k) for m, k in keys.items()}
        if busy:
            report.add("index_vs_catalogue", "info", "Vectors were not compared with the catalogue while another "
                       "process writes (its next save brings them in line); run doctor again afterwards.")
            return
        orphans: dict[str, list[int]] = {}
        missing: dict[str, list[int]] = {}
        for m in MODALITIES:
            if m in rebuild or m in broken:
                continue
            cat = by_modality[m]
            orphans[m] = sorted(k for k in keys[m] if k not in cat)
            missing[m] = sorted(i for i, r in cat.items() if i not in keys[m] and r["embed"] == "done")
        n_orphans = sum(len(v) for v in orphans.values())
        if n_orphans:
            f = report.add("orphan_vectors", "warning",
                           f"{n_orphans} vectors have no chunk in the catalogue (left by an interrupted ingest or "
                           "remove); they will be dropped.", repairable=True,
                           counts={m: len(v) for m, v in orphans.items() if v})
            if repair:
                self._indexes_open(dim or self._file_dim())
                for mod, ids in orphans.items():
                    if ids:
                        self._indexes[mod].remove(ids)
                self._indexes.save()
                f.repaired = True
        n_missing = sum(len(v) for v in missing.values())
        if n_missing:
            f = report.add("missing_vectors", "error",
                           f"{n_missing} chunks of finished documents have no vector; they will be embedded again.",
                           repairable=dim is not None, counts={m: len(v) for m, v in missing.items() if v})
            if repair and dim is not None:
                self._indexes_open(dim)
                for mod, ids in missing.items():
                    if ids:
                        self._embed_into(mod, ids, store)
                self._indexes.save()
                store.mark_indexed([i for ids in missing.values() for i in ids])
                f.repaired = True
            elif repair:
                # No embedder: make the next ingest redo the embed stage of those documents instead.
                docs = {by_modality[m][i]["doc_id"] for m, ids in missing.items() for i in ids}
                with store.write() as w:
                    w.executemany("DELETE FROM stages WHERE doc_id = ? AND stage = 'embed'", [(d,) for d in docs])
                    w.executemany("UPDATE documents SET status = 'failed', error = ? WHERE id = ?",
                                  [("Vectors missing; run ingest again to re-embed.", d) for d in docs])
                f.repaired = True
        if rebuild and dim is not None:
            self._indexes_open(dim, reopen=True)
            for mod in rebuild:
                ids = sorted(i for i, r in by_modality[mod].items() if r["embed"] == "done")
                self._embed_into(mod, ids, store)
            self._indexes.save()
            if renamed and set(rebuild) == set(MODALITIES):
                store.record_vectors_embedder(current)
            report.add("index_rebuilt", "info", f"Rebuilt the {', '.join(rebuild)} index from the catalogue.")
        unflagged = [i for m in MODALITIES for i, r in by_modality[m].items()
                     if not r["indexed"] and r["embed"] == "done" and (i in keys.get(m, set()) or m in rebuild)]
        if unflagged:
            f = report.add("indexed_flag", "info", f"{len(unflagged)} indexed chunks were not flagged as indexed.",
                           repairable=True)
            if repair:
                store.mark_indexed(unflagged)
                f.repaired = True

    def _file_dim(self) -> int:
        from engine.library.index import usearch_index

        Index = usearch_index()

        for m in MODALITIES:
            path = self.settings.index_dir / f"{m}.usearch"
            if path.exists():
                meta: Any = Index.metadata(str(path))
                return int(meta["dimensions"])
        return 0

    def _indexes_open(self, dim: int, reopen: bool = False) -> None:
        from engine.library.index import Indexes

        if self._indexes is None:
            self._indexes = Indexes(self.settings.index_dir)
        elif reopen:
            self._indexes.ndim = None  # a file was moved aside: load what is on disk now
        self._indexes.open(dim)

    def _embed_into(self, modality: str, ids: list[int], store: Any) -> None:
        import numpy as np

        chunks = store.chunks(ids=ids)
        batch = max(1, self.settings.embed_batch)
        for i in range(0, len(chunks), batch):
            part = chunks[i : i + batch]
            vecs = np.asarray(self._embedder.embed([c.text for c in part]), dtype=np.float32)
            self._indexes[modality].add([c.id for c in part], vecs)

    # --- crops ---------------------------------------------------------------------------------------
    def _check_crops(self, report: DoctorReport, store: Any, repair: bool) -> None:
        crops = self.settings.crops_dir
        db = store.conn()
        known = {r[0] for r in db.execute("SELECT id FROM documents")}
        if crops.exists():
            orphan = [p for p in crops.iterdir() if p.is_dir() and p.name not in known]
            if orphan:
                f = report.add("orphan_crops", "warning",
                               f"{len(orphan)} crop folders belong to documents no longer in the library.",
                               repairable=True, folders=[p.name for p in orphan])
                if repair:
                    for p in orphan:
                        shutil.rmtree(p, ignore_errors=True)
                    f.repaired = True
        repaired_dir = self.settings.data_dir / "repaired"
        if repaired_dir.exists():
            shas = [r[0] for r in db.execute("SELECT sha256 FROM documents")]
            stray = [p for p in repaired_dir.glob("*.pdf") if not any(sh.startswith(p.stem) for sh in shas)]
            if stray:
                f = report.add("orphan_repaired", "warning",
                               f"{len(stray)} rebuilt copies of damaged PDFs belong to no document.",
                               repairable=True, files=[p.name for p in stray])
                if repair:
                    for p in stray:
                        p.unlink(missing_ok=True)
                    f.repaired = True
        torn: list[tuple[int, str]] = []
        gone: list[tuple[int, str]] = []
        for r in db.execute("SELECT id, crop_path FROM regions WHERE crop_path != ''"):
            p = Path(r["crop_path"])
            if not p.exists():
                gone.append((int(r["id"]), str(p)))
            elif not _png_complete(p):
                torn.append((int(r["id"]), str(p)))
        if gone:
            f = report.add("crop_missing", "warning",
                           f"{len(gone)} region crops are missing on disk (previews and vision re-runs need them).",
                           repairable=True, files=[p for _, p in gone[:20]])
            if repair:
                self._clear_crops(store, gone)
                f.repaired = True
        if torn:
            f = report.add("crop_torn", "warning", f"{len(torn)} region crops are truncated PNG files.",
                           repairable=True, files=[p for _, p in torn[:20]])
            if repair:
                for _, name in torn:
                    Path(name).unlink(missing_ok=True)
                self._clear_crops(store, torn)
                f.repaired = True

    @staticmethod
    def _clear_crops(store: Any, items: list[tuple[int, str]]) -> None:
        with store.write() as w:
            w.executemany("UPDATE regions SET crop_path = '' WHERE id = ?", [(i,) for i, _ in items])


def _png_complete(path: Path) -> bool:
    """A PNG that was written to its end (signature and IEND chunk); other formats are not judged."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(8)
            if head != b"\x89PNG\r\n\x1a\n":
                return not path.name.lower().endswith(".png")
            fh.seek(-12, os.SEEK_END)
            return fh.read(12)[4:8] == b"IEND"
    except OSError:
        return False


def run_doctor(settings: Settings, repair: bool = False, models: Any = None,
               on_progress: Progress | None = None) -> DoctorReport:
    """A doctor run on a data dir without an Engine (works when the catalogue is too damaged to open one)."""
    return Doctor(settings, models).run(repair=repair, on_progress=on_progress)

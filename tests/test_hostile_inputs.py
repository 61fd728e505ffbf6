"""Hostile and broken inputs: each gets a clear error (or a documented recovery) and the batch continues.

Covered: random bytes named .pdf, a PDF header over garbage, truncated PDFs (rebuilt, else refused),
encrypted PDFs (with and without --password), empty files, zero-page PDFs, page counts above the cap,
non-PDF files, folders, duplicates under two names, unreadable paths, a missing path, a full disk (index save,
SQLite, and a real tiny tmpfs when mountable), malformed models.toml, missing and wrong-sha model files,
pickle detector weights, and a vision batch that runs out of memory.
"""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import sqlite3
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest
from fakes_models import FakeEmbedder, FakeLLM
from pdfgen import FILING_PAGES, write_filing, write_pdf

from engine import ConfigError, Engine, ModelError, Settings
from engine.library.index import VectorIndex

# --- helpers -------------------------------------------------------------------------------------------------


def make_engine(data: Path, **settings: object) -> Engine:
    models = {"embedder": FakeEmbedder(), "llm": FakeLLM(), "vision": None, "detector": None, "ocr": None,
              "reranker": None}
    return Engine(Settings(data_dir=data, extract_workers=1).with_(**settings), overrides=models)


_PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")


def _rc4(key: bytes, data: bytes) -> bytes:
    s = list(range(256))
    j = 0
    for i in range(256):
        j = (j + s[i] + key[i % len(key)]) % 256
        s[i], s[j] = s[j], s[i]
    out, i, j = bytearray(), 0, 0
    for byte in data:
        i = (i + 1) % 256
        j = (j + s[i]) % 256
        s[i], s[j] = s[j], s[i]
        out.append(byte ^ s[(s[i] + s[j]) % 256])
    return bytes(out)


def write_encrypted_pdf(path: Path, password: str, lines: list[str]) -> Path:
    """A one-page PDF encrypted with the standard security handler (RC4, revision 2) under ``password``."""
    pw = (password.encode("latin-1") + _PAD)[:32]
    o_key = hashlib.md5(pw).digest()[:5]
    o_value = _rc4(o_key, pw)
    perms = -44
    file_id = hashlib.md5(path.name.encode()).digest()
    key = hashlib.md5(pw + o_value + struct.pack("<i", perms) + file_id).digest()[:5]
    u_value = _rc4(key, _PAD)
    ops = ["BT /F1 10 Tf"] + [f"1 0 0 1 72 {700 - 15 * i} Tm ({t}) Tj" for i, t in enumerate(lines)] + ["ET"]
    content = "\n".join(ops).encode("latin-1")
    obj_key = hashlib.md5(key + (5).to_bytes(3, "little") + (0).to_bytes(2, "little")).digest()[:10]
    stream = _rc4(obj_key, content)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R "
        b"/Resources << /Font << /F1 3 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Filter /Standard /V 1 /R 2 /O <" + o_value.hex().encode() + b"> /U <" + u_value.hex().encode()
        + b"> /P %d >>" % perms,
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for num, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % num + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    fid = file_id.hex().encode()
    out += (b"trailer\n<< /Size %d /Root 1 0 R /Encrypt 6 0 R /ID [<" % (len(objects) + 1) + fid + b"><" + fid
            + b">] >>\nstartxref\n%d\n%%%%EOF\n" % xref)
    path.write_bytes(bytes(out))
    return path


def write_zero_page_pdf(path: Path) -> Path:
    body = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for num, b in enumerate(body, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % num + b + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 3\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size 3 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref
    path.write_bytes(bytes(out))
    return path


# --- files -----------------------------------------------------------------------------------------------------

BAD_FILES = {
    "random_bytes.pdf": (lambda p: p.write_bytes(np.random.default_rng(1).bytes(4096)), "Not a PDF"),
    "header_then_garbage.pdf": (lambda p: p.write_bytes(b"%PDF-1.7\n" + np.random.default_rng(2).bytes(4096)),
                                "Damaged PDF"),
    "empty.pdf": (lambda p: p.write_bytes(b""), "Empty file"),
    "zero_pages.pdf": (write_zero_page_pdf, "Empty PDF"),
    "notes.txt": (lambda p: p.write_text("quarterly notes, not a pdf"), "Not a PDF"),
    "deck.docx": (lambda p: p.write_bytes(b"PK\x03\x04" + b"\x00" * 200), "Not a PDF"),
    "locked.pdf": (lambda p: write_encrypted_pdf(p, "s3cret", ["Secret revenue was $9 million."]), "Encrypted PDF"),
    "missing.pdf": (lambda p: None, "File not found"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_file_gets_a_clear_error_and_the_batch_continues(
    tmp_path: Path, private_data_dir: Path, name: str
) -> None:
    make, title = BAD_FILES[name]
    bad = tmp_path / name
    make(bad)
    good = write_filing(tmp_path / "good.pdf")
    engine = make_engine(private_data_dir)
    first, second = engine.ingest([bad, good])
    assert not first.ok and first.error_title == title, first.error
    assert str(bad) in first.error and first.error_title != "Unexpected ingestion failure"
    assert second.ok and [d.name for d in engine.documents()] == ["good"]
    assert engine.doctor().clean


def test_encrypted_pdf_ingests_with_its_password(tmp_path: Path, private_data_dir: Path) -> None:
    pdf = write_encrypted_pdf(tmp_path / "locked.pdf", "s3cret", ["Secret revenue was $9 million in 2023.",
                                                                  "Net income was $2 million in 2023."])
    engine = make_engine(private_data_dir)
    [wrong] = engine.ingest([pdf], password="nope")
    assert not wrong.ok and wrong.error_title == "Encrypted PDF" and "--password" in wrong.error
    [res] = engine.ingest([pdf], password="s3cret")
    assert res.ok, res.error
    assert "Secret revenue" in engine.page_text(res.doc_id, 1)["text"]


def test_truncated_pdf_is_rebuilt_or_refused_clearly(tmp_path: Path, private_data_dir: Path) -> None:
    full = write_pdf(tmp_path / "full.pdf", FILING_PAGES * 3).read_bytes()
    engine = make_engine(private_data_dir)
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(full[: int(len(full) * 0.8)])  # the xref, trailer and last pages are gone
    [res] = engine.ingest([cut])
    assert res.ok, res.error
    assert any("rebuilt copy" in w for w in res.warnings)
    assert 1 <= res.pages <= 9
    hopeless = tmp_path / "hopeless.pdf"
    hopeless.write_bytes(full[:300])
    [bad] = engine.ingest([hopeless])
    assert not bad.ok and bad.error_title == "Damaged PDF" and "rebuild" in bad.error
    # the rebuilt copy lives in the private data dir and goes with the document
    assert list((private_data_dir / "repaired").glob("*.pdf"))
    engine.remove(res.doc_id)
    assert not list((private_data_dir / "repaired").glob("*.pdf")) and engine.doctor().clean


def test_real_truncated_filing_is_rebuilt(tmp_path: Path, private_data_dir: Path, eval_dir: Path) -> None:
    src = eval_dir / "parsee" / "datasets" / "revenues" / "raw_data" / "telekom.pdf"
    if not src.exists():
        pytest.skip("telekom.pdf not in the eval data")
    cut = tmp_path / "telekom_cut.pdf"
    cut.write_bytes(src.read_bytes()[: int(src.stat().st_size * 0.9)])
    [res] = make_engine(private_data_dir, regions=False).ingest([cut])
    assert res.ok and res.pages == 1, res.error


def test_page_cap_refuses_huge_documents(tmp_path: Path, private_data_dir: Path) -> None:
    huge = write_pdf(tmp_path / "huge.pdf", [["page"]] * 2100)
    engine = make_engine(private_data_dir)
    [res] = engine.ingest([huge])  # default cap: 2000 pages
    assert not res.ok and res.error_title == "Too many pages" and "2100" in res.error
    assert engine.documents() == []


def test_duplicates_under_two_names_are_ingested_once(tmp_path: Path, private_data_dir: Path) -> None:
    a = write_filing(tmp_path / "a.pdf")
    b = tmp_path / "copy_of_a.pdf"
    shutil.copy(a, b)
    engine = make_engine(private_data_dir)
    first, second = engine.ingest([a, b])
    assert first.status == "ingested" and second.status == "unchanged" and first.doc_id == second.doc_id
    assert len(engine.documents()) == 1


def test_folder_ingest_skips_non_pdfs(tmp_path: Path, private_data_dir: Path) -> None:
    folder = tmp_path / "inbox"
    folder.mkdir()
    write_filing(folder / "a.pdf")
    (folder / "readme.txt").write_text("not a pdf")
    (folder / "sub").mkdir()
    (folder / "sub" / "broken.PDF").write_bytes(b"%PDF-1.4 nothing")
    results = make_engine(private_data_dir).ingest([folder])
    assert [Path(r.path).name for r in results] == ["a.pdf", "broken.PDF"]
    assert results[0].ok and results[1].error_title == "Damaged PDF"


def test_unreadable_path_is_reported(tmp_path: Path, private_data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locked = write_filing(tmp_path / "locked_perm.pdf")
    os.chmod(locked, 0)
    real_open = open

    def guarded_open(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        # tests may run as root, which ignores mode 000: refuse the way the kernel would for a user
        if Path(str(file)) == locked:
            raise PermissionError(errno.EACCES, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("engine.ingest.pdftext.open", guarded_open, raising=False)
    good = write_filing(tmp_path / "good.pdf")
    first, second = make_engine(private_data_dir).ingest([locked, good])
    assert not first.ok and first.error_title == "File unreadable" and "permission denied" in first.error
    assert second.ok


# --- a full disk ---------------------------------------------------------------------------------------------


def _library_with_one_doc(tmp_path: Path, data: Path) -> tuple[Engine, str]:
    engine = make_engine(data)
    [res] = engine.ingest([write_filing(tmp_path / "acme.pdf")])
    assert res.ok
    return engine, res.doc_id


def test_disk_full_while_saving_the_index(tmp_path: Path, private_data_dir: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    engine, _ = _library_with_one_doc(tmp_path, private_data_dir)
    before = {m: engine.indexes[m].keys() for m in ("text", "table", "image")}
    other = write_pdf(tmp_path / "other.pdf", [["Dividends paid were $88 million in 2023."]])
    real_save = VectorIndex.save

    def full_save(self: VectorIndex) -> None:
        def boom(path: str) -> None:
            Path(path).write_bytes(b"partial")
            raise OSError(errno.ENOSPC, "No space left on device")

        original = self._index.save
        self._index.save = boom  # type: ignore[method-assign]
        try:
            real_save(self)
        finally:
            self._index.save = original  # type: ignore[method-assign]

    monkeypatch.setattr(VectorIndex, "save", full_save)
    [res] = engine.ingest([other])
    assert not res.ok and res.error_title == "Disk full" and "free" in res.error
    assert not list((private_data_dir / "index").glob("*.tmp")), "no half-written temp file is left"
    monkeypatch.setattr(VectorIndex, "save", real_save)
    fresh = make_engine(private_data_dir)
    fresh.indexes.open(256)
    assert {m: fresh.indexes[m].keys() for m in before} == before, "the saved library is unchanged"
    assert fresh.ask("restricted cash", save=False).evidence
    [again] = fresh.ingest([other])  # space freed: the ingest resumes
    assert again.ok and again.status == "resumed" and fresh.doctor().clean


def test_disk_full_in_the_catalogue(tmp_path: Path, private_data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine, doc_id = _library_with_one_doc(tmp_path, private_data_dir)
    pages = engine.store.conn().execute("PRAGMA page_count").fetchone()[0]
    engine.store.conn().execute(f"PRAGMA max_page_count = {pages + 2}")  # SQLITE_FULL, as on a full disk
    big = write_pdf(tmp_path / "big.pdf", [[f"Line {i} of a long filing about revenue and costs." for i in range(40)]
                                          for _ in range(30)])
    small = write_pdf(tmp_path / "small.pdf", [["Tiny filing."]])
    first, second = engine.ingest([big, small])
    assert not first.ok and first.error_title == "Disk full" and "full" in first.error
    assert second.error_title in {"", "Disk full"}
    with sqlite3.connect(private_data_dir / "catalogue.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    fresh = make_engine(private_data_dir)
    assert fresh.document(doc_id).status == "ready"
    results = fresh.ingest([big, small])
    assert all(r.ok for r in results) and fresh.doctor().clean


@pytest.fixture
def tiny_tmpfs(tmp_path: Path):  # type: ignore[no-untyped-def]
    mount = tmp_path / "tmpfs"
    mount.mkdir()
    try:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount)], check=True,
                       capture_output=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        pytest.skip("cannot mount a tmpfs here (needs root)")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], capture_output=True, timeout=20)


REAL_FULL_DISK = r"""
import json, sys
sys.path.insert(0, {tests!r})
from pathlib import Path
from fakes_models import FakeEmbedder, FakeLLM
from pdfgen import write_filing, write_pdf
from engine import Engine, Settings

def engine():
    return Engine(Settings(data_dir=Path({data!r}), extract_workers=1),
                  overrides={{"embedder": FakeEmbedder(), "llm": FakeLLM(), "vision": None, "detector": None,
                             "ocr": None, "reranker": None}})

tmp, out = Path({tmp!r}), {{}}
e = engine()
out["first_ok"] = e.ingest([write_filing(tmp / "acme.pdf")])[0].ok
filler = Path({filler!r})
with open(filler, "wb") as fh:  # fill the disk to the last byte
    try:
        while True:
            fh.write(b"\0" * 65536)
            fh.flush()
    except OSError:
        pass
big = write_pdf(tmp / "big.pdf", [[f"Line {{i}} of a long filing about revenue, cash and costs." for i in range(45)]
                                  for _ in range(60)])
try:
    r = e.ingest([big])[0]
    out["full"] = [r.ok, r.error_title, r.error]
except Exception as exc:
    out["escaped"] = f"{{type(exc).__name__}}: {{exc}}"
e.close()
filler.unlink()
f = engine()
out["still_answers"] = bool(f.ask("How much restricted cash was held?", save=False).evidence)
out["resumed_ok"] = f.ingest([big])[0].ok
out["doctor_clean"] = f.doctor().clean
f.close()
print(json.dumps(out))
"""


def test_a_really_full_disk(tmp_path: Path, tiny_tmpfs: Path) -> None:
    """A real 3 MB tmpfs filled to the last byte (in a child process: a full mount must not outlive it)."""
    import json
    import sys

    code = REAL_FULL_DISK.format(tests=str(Path(__file__).resolve().parent), data=str(tiny_tmpfs / "lib"),
                                 tmp=str(tmp_path), filler=str(tiny_tmpfs / "filler"))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[1])
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["first_ok"] and "escaped" not in out, out
    ok, title, error = out["full"]
    assert not ok and title == "Disk full", (title, error)
    assert out["still_answers"] and out["resumed_ok"] and out["doctor_clean"], out


# --- models.toml and model files -------------------------------------------------------------------------------

MALFORMED_TOML = {
    "not toml": ("[profiles.default\nbackend = ", "models.toml malformed"),
    "no profiles": ("title = 'x'\n", "models.toml malformed"),
    "bad backend": ("[profiles.default.embedder]\nbackend = 'magic'\npath = 'x'\n", "models.toml malformed"),
    "missing role": ("[profiles.default.embedder]\nbackend = 'sentence-transformers'\npath = '/nope'\n",
                     "models.toml incomplete"),
    "not utf8": (b"\xff\xfe[profiles]", "models.toml malformed"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED_TOML))
def test_malformed_models_toml_is_a_clear_config_error(tmp_path: Path, private_data_dir: Path, case: str) -> None:
    text, title = MALFORMED_TOML[case]
    toml = tmp_path / "models.toml"
    toml.write_bytes(text if isinstance(text, bytes) else text.encode())
    engine = Engine(Settings(data_dir=private_data_dir, models_toml=toml, extract_workers=1))
    [res] = engine.ingest([write_filing(tmp_path / "a.pdf")])
    assert not res.ok and res.error_title == title and str(toml) in res.error
    with pytest.raises(ConfigError):
        engine.models.config  # noqa: B018 - the property raises


def _toml_with_embedder(tmp_path: Path, body: str) -> Path:
    toml = tmp_path / "models.toml"
    toml.write_text(
        "[profiles.default.embedder]\nbackend = 'sentence-transformers'\n" + body
        + "\n[profiles.default.llm]\nbackend = 'llama-cpp'\npath = '/nope/llm.gguf'\n"
        "[profiles.default.detector]\nbackend = 'geometry'\n[profiles.default.ocr]\nbackend = 'none'\n"
    )
    return toml


def test_missing_and_wrong_sha_model_files(tmp_path: Path, private_data_dir: Path) -> None:
    missing = _toml_with_embedder(tmp_path, f"path = '{tmp_path}/no-such-model'")
    engine = Engine(Settings(data_dir=private_data_dir, models_toml=missing))
    with pytest.raises(ModelError) as info:
        engine.models.embedder()
    assert info.value.title == "Model file missing" and "no-such-model" in info.value.message
    weights = tmp_path / "weights.bin"
    weights.write_bytes(b"not the weights you are looking for")
    wrong = _toml_with_embedder(tmp_path, f"path = '{weights}'\nsha256 = '{'0' * 64}'")
    engine = Engine(Settings(data_dir=private_data_dir, models_toml=wrong))
    [res] = engine.ingest([write_filing(tmp_path / "a.pdf")])
    assert not res.ok and res.error_title == "Model checksum mismatch" and "0000" in res.error
    status = engine.models_status(load=False)
    assert not status["embedder"].ok and "checksum" in status["embedder"].detail


def test_pickle_detector_weights_need_an_explicit_setting(tmp_path: Path) -> None:
    from engine.models.config import RoleConfig
    from engine.models.yolo_detector import build

    weights = tmp_path / "layout.pt"
    weights.write_bytes(b"\x80\x04not loaded")
    cfg = RoleConfig(role="detector", backend="ultralytics", path=str(weights), source="test")
    with pytest.raises(ConfigError) as info:
        build(cfg, weights, None)
    assert info.value.title == "Pickle model refused" and "allow_pickle" in info.value.message


# --- a vision batch that runs out of memory --------------------------------------------------------------------


def test_vision_overflow_on_a_batch_still_parses_every_image(tmp_path: Path) -> None:
    """engine.ingest.regions.run_vision: a batch that overflows is retried in halved batches (no file is lost)."""
    from engine.ingest.regions import VisionItem, run_vision
    from engine.models.llama_backend import VisionOverflow

    calls: list[int] = []

    class SmallVision:
        def describe(self, requests):  # type: ignore[no-untyped-def]
            images = requests[0].images
            calls.append(len(images))
            if len(images) > 2:
                raise VisionOverflow("out of memory", images=len(images))
            return ["\n".join(f"### FILE: {Path(p).name}\nok {Path(p).name}" for p in images)]

    items = [VisionItem(name=f"t{i}.png", path=tmp_path / f"t{i}.png") for i in range(8)]
    warnings: list[str] = []
    results, failed = run_vision(
        SmallVision(), items, prompt=lambda names: " ".join(names),
        parse=lambda reply, names: {n: reply for n in names if n in reply}, batch=4, warn=warnings.append,
    )
    assert set(results) == {i.name for i in items} and not failed
    assert warnings and "VisionOverflow" in warnings[0]
    # The batch is halved once and stays halved for the rest of the document.
    assert calls == [4, 2, 2, 2, 2]


def test_pickle_only_model_folders_need_an_explicit_setting(tmp_path: Path, private_data_dir: Path) -> None:
    folder = tmp_path / "bge-pickled"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    (folder / "modules.json").write_text("[]")
    (folder / "pytorch_model.bin").write_bytes(b"\x80\x04pickle")
    toml = _toml_with_embedder(tmp_path, f"path = '{folder}'")
    engine = Engine(Settings(data_dir=private_data_dir, models_toml=toml))
    with pytest.raises(ConfigError) as info:
        engine.models.embedder()
    assert info.value.title == "Pickle model refused" and "allow_pickle" in info.value.message
    allowed = _toml_with_embedder(tmp_path, f"path = '{folder}'\nallow_pickle = true")
    engine = Engine(Settings(data_dir=private_data_dir, models_toml=allowed))
    with pytest.raises(ModelError) as loaded:  # let through to the loader (which fails on these fake bytes)
        engine.models.embedder()
    assert loaded.value.title != "Pickle model refused"

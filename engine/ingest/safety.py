"""Recovering what can be recovered from damaged PDFs (truncated downloads, broken cross-reference tables).

``repair_pdf`` rebuilds a PDF from the objects that are still complete: every ``N G obj ... endobj`` in the
file (the last copy of each, as incremental updates intend), every object packed in a readable object stream,
a fresh cross-reference table and a trailer pointing at the catalogue (synthesised from the page tree when
the catalogue itself was lost). The result is accepted only when PDFium opens it and finds pages; the repaired
copy goes to the (private) data dir, the user's file is never modified.
"""

from __future__ import annotations

import logging
import os
import re
import zlib
from pathlib import Path

log = logging.getLogger(__name__)

_OBJ = re.compile(rb"(?<![0-9])(\d{1,10})\s+(\d{1,5})\s+obj\b")
_ENDOBJ = re.compile(rb"\bendobj\b")
_STREAM = re.compile(rb"\bstream\r?\n")
_MAX_BYTES = 512 * 1024 * 1024
"""Files larger than this are not rebuilt in memory."""


def _complete_objects(data: bytes) -> dict[int, bytes]:
    """Object number -> body (between ``obj`` and ``endobj``) for every complete object; the last one wins."""
    objects: dict[int, bytes] = {}
    pos = 0
    while True:
        m = _OBJ.search(data, pos)
        if m is None:
            break
        end = _ENDOBJ.search(data, m.end())
        if end is None:
            break  # the file ends inside this object: truncated here
        nxt = _OBJ.search(data, m.end(), end.start())
        body = data[m.end() : end.start()]
        if nxt is not None and b"stream" not in data[m.end() : nxt.start()]:
            pos = nxt.start()  # an object without its endobj: skip to the next one
            continue
        if b"stream" in body and b"endstream" not in body:
            pos = end.end()
            continue
        objects[int(m.group(1))] = body.strip()
        pos = end.end()
    return objects


def _unpack_object_streams(objects: dict[int, bytes]) -> dict[int, bytes]:
    """Objects stored inside readable ``/Type /ObjStm`` streams (PDF 1.5+), as plain object bodies."""
    out: dict[int, bytes] = {}
    for body in objects.values():
        if b"/ObjStm" not in body:
            continue
        head, _, rest = body.partition(b"stream")
        rest = rest.lstrip(b"\r\n") if rest[:2] != b"\r\n" else rest[2:]
        raw = rest.rsplit(b"endstream", 1)[0]
        try:
            if b"/FlateDecode" in head:
                raw = zlib.decompressobj().decompress(raw)
            elif b"/Filter" in head:
                continue
            n = int(re.search(rb"/N\s+(\d+)", head).group(1))  # type: ignore[union-attr]
            first = int(re.search(rb"/First\s+(\d+)", head).group(1))  # type: ignore[union-attr]
        except (AttributeError, ValueError, zlib.error):
            continue
        nums = [int(x) for x in raw[:first].split()]
        pairs = list(zip(nums[0::2], nums[1::2], strict=False))[:n]
        for i, (num, off) in enumerate(pairs):
            start = first + off
            stop = first + pairs[i + 1][1] if i + 1 < len(pairs) else len(raw)
            if start < len(raw):
                out[num] = raw[start:stop].strip()
    return out


_PAGE = re.compile(rb"/Type\s*/Page\b(?!s)")
_PARENT = re.compile(rb"/Parent\s+\d+\s+\d+\s+R")


def surviving_pages(data: bytes) -> int:
    """How many complete page objects the file still holds (directly or in readable object streams)."""
    objects = _complete_objects(data)
    objects.update({n: b for n, b in _unpack_object_streams(objects).items() if n not in objects})
    return sum(1 for b in objects.values() if _PAGE.search(b))


def rebuild(data: bytes, flat: bool = False) -> bytes | None:
    """A rebuilt PDF from the complete objects of ``data``, or None when no page tree survives.

    ``flat`` replaces the page tree by one node holding every surviving page in object order (for files
    whose tree points at pages that were cut off); inheritable attributes of the old root node are kept.
    """
    objects = _complete_objects(data)
    if not objects:
        return None
    for num, body in _unpack_object_streams(objects).items():
        objects.setdefault(num, body)
    objects = {n: b for n, b in objects.items() if b"/XRef" not in b and b"/ObjStm" not in b}
    root = next((n for n, b in objects.items() if re.search(rb"/Type\s*/Catalog\b", b)), None)
    if flat:
        pages = sorted(n for n, b in objects.items() if _PAGE.search(b))
        if not pages:
            return None
        tree = max(objects) + 1
        inherit = b""
        old = [b for b in objects.values() if re.search(rb"/Type\s*/Pages\b", b) and b"/Parent" not in b]
        for key in (rb"/MediaBox\s*\[[^\]]*\]", rb"/Resources\s+\d+\s+\d+\s+R", rb"/Rotate\s+\d+"):
            m = re.search(key, old[0]) if old else None
            inherit += (b" " + m.group(0)) if m else b""
        for n in pages:
            body = objects[n]
            objects[n] = _PARENT.sub(b"/Parent %d 0 R" % tree, body) if _PARENT.search(body) else \
                body.replace(b"<<", b"<< /Parent %d 0 R" % tree, 1)
        kids = b" ".join(b"%d 0 R" % n for n in pages)
        objects[tree] = b"<< /Type /Pages /Kids [%s] /Count %d%s >>" % (kids, len(pages), inherit)
        root = tree + 1
        objects[root] = b"<< /Type /Catalog /Pages %d 0 R >>" % tree
    if root is None:
        pages = [n for n, b in objects.items() if re.search(rb"/Type\s*/Pages\b", b) and b"/Parent" not in b]
        if not pages:
            return None
        root = max(objects) + 1
        objects[root] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages[0]
    header = data[: data.find(b"\n") + 1] if data.startswith(b"%PDF-") else b"%PDF-1.7\n"
    out = bytearray(header if len(header) < 32 else b"%PDF-1.7\n")
    out += b"%\xe2\xe3\xcf\xd3\n"
    size = max(objects) + 1
    offsets: dict[int, int] = {}
    for num in sorted(objects):
        offsets[num] = len(out)
        out += b"%d 0 obj\n" % num + objects[num] + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for num in range(1, size):
        out += b"%010d 00000 n \n" % offsets[num] if num in offsets else b"0000000000 65535 f \n"
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, root, xref)
    return bytes(out)


def repair_pdf(path: Path, dest_dir: Path, name: str, password: str | None = None) -> tuple[Path, int] | None:
    """Rebuild a damaged PDF into ``dest_dir/name``; (path, pages) when PDFium reads the result, else None."""
    try:
        if path.stat().st_size > _MAX_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    import pypdfium2 as pdfium

    fixed, pages = None, 0
    found = surviving_pages(data)
    if found == 0:
        return None
    for flat in (False, True):
        try:
            candidate = rebuild(data, flat=flat)
        except (ValueError, IndexError, MemoryError, RecursionError) as exc:
            log.info("rebuilding %s failed: %s", path, exc)
            continue
        if candidate is None:
            continue
        try:
            pdf = pdfium.PdfDocument(candidate, password=password)
        except pdfium.PdfiumError:
            continue
        try:
            n = len(pdf)
        finally:
            pdf.close()
        if n > found:
            continue  # the old page tree counts pages that were cut off: use the flat tree instead
        if n > pages:
            fixed, pages = candidate, n
        if pages:
            break
    if fixed is None or pages == 0:
        return None
    dest_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    out = dest_dir / name
    tmp = out.with_name(out.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(fixed)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, out)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return out, pages

"""Hostile-input probes (issue 26), run as a user would: the real ``mfr-tui`` command and the configured models on
files made for the purpose, each row printed with its command, exit status, time and what it showed.

    python scripts/hostile_probes.py [--work-dir DIR]

The probes: a PDF whose text layer carries OSC 52, a title change, a screen clear and an RLO (``library``,
``regions``, plain ``ask``); a file named with console markup and an RLO; a 100 KB question and a blank one; a PDF of
2,000 blank pages; a page of one 1 MB run of text; a FIFO named ``x.pdf``. Planted instructions have their own
benchmark (``benchmarks/bench_planted.py``); the TUI's widgets and the model server's routes are swept by
``tests/test_tui_hostile.py`` and ``tests/test_llm_server.py``. Writes ``benchmarks/out/hostile_probes.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import write_json  # noqa: E402
from pdfgen import write_pdf  # noqa: E402
from test_hostile_filings import RLO, UNSAFE_CODEPOINTS, write_probe  # noqa: E402


def unsafe(text: str) -> int:
    """How many control or bidi characters ``text`` holds (newline and tab aside)."""
    return sum(1 for ch in text if ord(ch) in UNSAFE_CODEPOINTS and ch not in "\n\t")


def mfr(args: list[str], data: Path, timeout: float = 900.0) -> tuple[int, str, str]:
    """``mfr-tui --data-dir DATA ARGS``: exit status, standard output and error (124 when it ran past ``timeout``)."""
    cmd = [sys.executable, "-m", "mfr_tui.cli", "--data-dir", str(data), *args]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
        return proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as exc:
        return 124, str(exc.stdout or ""), str(exc.stderr or "")


def run(args: list[str], data: Path, timeout: float = 900.0) -> dict[str, Any]:
    """A probe row: the command, its exit status, seconds, and the unsafe characters it wrote."""
    t = time.perf_counter()
    rc, out, err = mfr(args, data, timeout)
    shown = " ".join(a if len(a) < 60 else f"<{len(a):,} chars>" for a in args)
    return {"command": f"mfr-tui {shown}", "rc": rc, "seconds": round(time.perf_counter() - t, 1),
            "stdout_bytes": len(out.encode()), "unsafe_chars_written": unsafe(out) + unsafe(err),
            "stdout": out[-600:], "stderr": err.strip()[-400:]}


def documents(data: Path) -> list[dict[str, Any]]:
    """The library's documents, as ``mfr-tui library --json`` lists them."""
    return list(json.loads(mfr(["library", "--json"], data)[1])["documents"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work-dir", help="where the probe files and the library go (default: a temporary folder)")
    parser.add_argument("--out", help="JSON output path (default benchmarks/out/hostile_probes.json)")
    args = parser.parse_args()
    work = Path(args.work_dir) if args.work_dir else Path(tempfile.mkdtemp(prefix="mfr-probes-"))
    files, data = work / "files", work / "library"
    files.mkdir(parents=True, exist_ok=True)

    probe = write_probe(files / f"[reverse][blink]EVIL[@click=app.quit] invoice{RLO}fdp.pdf")
    blank = write_pdf(files / "blank_2000.pdf", [[] for _ in range(2000)])
    run_text = " ".join(f"word{i}" for i in range(120_000)) + " " + "x" * 50_000  # ~1 MB, no sentence end
    mega = write_pdf(files / "megabyte.pdf", [["Cover page of a filing."], [(72.0, 60.0, run_text)]], size=0.5)
    fifo = files / "x.pdf"
    if not fifo.exists():
        os.mkfifo(fifo)

    rows: dict[str, dict[str, Any]] = {}
    rows["ingest the escape-code probe"] = run(["ingest", str(probe)], data)
    doc_id = next(d["id"] for d in documents(data) if "EVIL" in d["name"])
    rows["library (file name with markup and RLO)"] = run(["library"], data)
    rows["regions of the probe"] = run(["regions", doc_id], data)
    rows["plain ask on the probe"] = run(["ask", "What was total revenue in fiscal 2023?", "--doc", doc_id,
                                          "--no-history"], data)
    rows["a 100 KB question"] = run(["ask", "What was revenue? " * 5_600, "--no-history"], data)
    rows["a blank question"] = run(["ask", "   \n\t ", "--no-history"], data)
    rows["2,000 blank pages"] = run(["ingest", str(blank)], data)
    rows["a page of one 1 MB run"] = run(["ingest", str(mega)], data)
    docs = {d["name"]: d for d in documents(data)}
    mega_id = docs["megabyte"]["id"]
    rows["scoped ask --json on the 1 MB page"] = run(["ask", "What does the filing say about word5000?", "--doc",
                                                      mega_id, "--no-history", "--json"], data)
    rows["a FIFO named x.pdf"] = run(["ingest", str(fifo)], data, timeout=120)
    statuses = {name: d.get("status") for name, d in docs.items()}

    for name, row in rows.items():
        tail = (row["stderr"] or row["stdout"]).strip().splitlines()[-1:] or [""]
        print(f"{name:38} rc={row['rc']:<3} {row['seconds']:7.1f}s  unsafe chars written: "
              f"{row['unsafe_chars_written']}  out {row['stdout_bytes']:,} B  | {tail[0][:110]}")
    print("library statuses:", statuses)
    path = write_json("hostile_probes", {"rows": rows, "statuses": statuses, "work_dir": str(work)}, args.out)
    print(f"written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

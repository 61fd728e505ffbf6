"""`mfr-tui`: the TUI by default; `ingest`, `library`, `remove`, `ask`, `regions`, `models`, `eval`,
`calibrate`, `doctor` as a headless twin over the same engine."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine import Engine, EngineError, Settings
from engine.settings import with_overrides
from engine.types import IngestProgress, Quote
from engine.untrusted import visible_text

EXIT_OK, EXIT_FAILED, EXIT_ERROR = 0, 1, 2


def _settings(args: argparse.Namespace) -> Settings:
    s = Settings()
    changes: dict[str, Any] = {}
    if args.data_dir:
        changes["data_dir"] = Path(args.data_dir).expanduser()
        os.environ["MFR_DATA_DIR"] = str(changes["data_dir"])
        if not args.models_toml and not os.environ.get("MFR_MODELS_TOML"):
            from engine.settings import default_models_toml

            changes["models_toml"] = default_models_toml()
    if args.models_toml:
        changes["models_toml"] = Path(args.models_toml).expanduser()
    if args.profile:
        changes["profile"] = args.profile
    if args.threads:
        changes["n_threads"] = args.threads
    for name in ("max_pages",):
        if getattr(args, name, None):
            changes[name] = getattr(args, name)
    s = replace(s, **changes) if changes else s
    return with_overrides(s, getattr(args, "set", None) or [])


class _VisibleStream:
    """A text stream that shows control characters and bidi overrides as visible marks (``␛``, ``�``).

    Defence in depth: the engine cleans what enters the library, but a file name, an error naming a path, or a
    library written by an older version may still carry them, and a terminal obeys ESC sequences (OSC 52
    writes the clipboard). ``--json`` output is already escaped by ``json.dumps``."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return int(self._stream.write(visible_text(text)))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextmanager
def _visible_output() -> Iterator[None]:
    """``sys.stdout`` and ``sys.stderr`` as ``_VisibleStream`` for the duration of a headless command."""
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _VisibleStream(old[0]), _VisibleStream(old[1])  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = old


def _emit(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, default=str) + "\n")
    sys.stdout.flush()


class _CancelOnSigint:
    """First Ctrl-C asks the engine to stop cleanly between pages; a second one exits at once."""

    def __init__(self) -> None:
        self.event = threading.Event()

    def __enter__(self) -> Callable[[], bool]:
        def handler(signum: int, frame: Any) -> None:
            if self.event.is_set():
                raise KeyboardInterrupt
            self.event.set()
            sys.stderr.write("\nStopping after the current step (Ctrl-C again to abort)...\n")

        self._old = signal.signal(signal.SIGINT, handler)
        return self.event.is_set

    def __exit__(self, *exc: object) -> None:
        signal.signal(signal.SIGINT, self._old)


def _progress_printer(quiet: bool) -> Callable[[IngestProgress], None]:
    last: dict[tuple[str, str], float] = {}

    def show(p: IngestProgress) -> None:
        if quiet:
            return
        name = Path(p.path).name
        if p.warning:
            sys.stderr.write(f"  ! {name}: {p.warning}\n")
            return
        if p.stage in {"paused", "resumed"}:  # waiting for an answer (answers_first): always said
            sys.stderr.write(f"[{p.file_index + 1}/{p.file_count}] {name}: {p.message}\n")
            return
        key = (p.path, p.stage)
        now = time.monotonic()
        final = p.total and p.done >= p.total
        if not final and now - last.get(key, 0.0) < 2.0:
            return
        last[key] = now
        count = f" {p.done}/{p.total}" if p.total > 1 else ""
        sys.stderr.write(f"[{p.file_index + 1}/{p.file_count}] {name}: {p.stage}{count} {p.message}\n")

    return show


# --- commands ----------------------------------------------------------------------------------------
def cmd_ingest(engine: Engine, args: argparse.Namespace) -> int:
    with _CancelOnSigint() as cancelled:
        results = engine.ingest(
            args.paths,
            on_progress=_progress_printer(args.json or args.quiet),
            cancelled=cancelled,
            password=args.password,
            force=args.force,
        )
    if not results:
        sys.stderr.write("No PDF files found in the given paths.\n")
        return EXIT_FAILED
    if args.json:
        _emit({"results": [r.to_json() for r in results]})
    else:
        for r in results:
            mark = "ok " if r.ok else "ERR"
            extra = f" ({r.error_title}: {r.error})" if not r.ok else f" {r.pages} pages in {r.seconds:.1f}s"
            sys.stdout.write(f"{mark} {r.status:<9} {r.doc_id or '-':<12} {r.path}{extra}\n")
    return EXIT_OK if all(r.ok for r in results) else EXIT_FAILED


def cmd_library(engine: Engine, args: argparse.Namespace) -> int:
    docs = engine.documents()
    if args.json:
        _emit({"documents": [d.to_json() for d in docs]})
        return EXIT_OK
    if not docs:
        sys.stdout.write("The library is empty. Add filings with `mfr-tui ingest PATH`.\n")
    for d in docs:
        sys.stdout.write(
            f"{d.id}  {d.name[:40]:<40} {d.company[:24]:<24} {d.form_type:<7} {d.fiscal_period:<12} "
            f"{d.pages:>4}p {d.tables:>3}t {d.figures:>3}f  {d.status}\n"
        )
    return EXIT_OK


def cmd_remove(engine: Engine, args: argparse.Namespace) -> int:
    for ref in args.docs:
        doc = engine.remove(ref)
        sys.stdout.write(f"removed {doc.id} {doc.name}\n")
    return EXIT_OK


def cmd_reindex(engine: Engine, args: argparse.Namespace) -> int:
    with _CancelOnSigint() as cancelled:
        done = engine.reindex_regions(args.docs or None, cancelled=cancelled)
    if args.json:
        _emit({"reindexed": done})
        return EXIT_OK
    for name, counts in done.items():
        sys.stdout.write(f"{name}: {counts.get('table', 0)} tables, {counts.get('image', 0)} figures\n")
    sys.stdout.write(f"{len(done)} documents re-indexed\n")
    return EXIT_OK


def quoted(quotes: list[Quote]) -> str:
    """A narrative answer's quoted sentences as the CLI prints them before the model's summary ('' for none)."""
    if not quotes:
        return ""
    lines = "".join(f'  "{visible_text(x.text)}"\n      ({visible_text(x.doc)}, p. {x.page}) [{x.source}]\n'
                    for x in quotes)
    return f"Quoted from the filing:\n{lines}\nAnswer:\n"


def cmd_ask(engine: Engine, args: argparse.Namespace) -> int:
    settings_changes: dict[str, Any] = {}
    if args.k:
        settings_changes["top_k"] = args.k
    if settings_changes:
        engine.settings = replace(engine.settings, **settings_changes)
    stream = not args.json and sys.stdout.isatty()

    def print_quotes(quotes: list[Quote]) -> None:
        sys.stdout.write(quoted(quotes))
        sys.stdout.flush()

    with _CancelOnSigint() as cancelled:
        answer = engine.ask(
            args.question,
            scope=args.doc or None,
            on_token=_write_token if stream else None,
            cancelled=cancelled,
            save=not args.no_history,
            on_quotes=print_quotes if stream else None,
        )
    if args.json:
        _emit(answer.to_json())
        return EXIT_OK
    if stream:
        sys.stdout.write("\n")
    else:
        sys.stdout.write(quoted(answer.quotes) + answer.text + "\n")
    if answer.unsupported:
        sys.stdout.write(f"Not in the quoted sentences ({answer.unsupported_note}): "
                         + visible_text(answer.unsupported_words()) + "\n")
    if answer.draft:
        flags = visible_text(", ".join(answer.draft_flags))
        sys.stdout.write("The model's first summary, flagged and written again (not the answer): "
                         f"{visible_text(answer.draft.strip())}\nFlagged in it: {flags}\n")
    for doc, page, sentence in answer.withheld():
        sys.stdout.write(f"Withheld from the model (addressed to an AI model, not filing content), {visible_text(doc)} "
                         f"p.{page}: \"{visible_text(sentence)}\"\n")
    if answer.reading:
        sys.stdout.write(f"\nRead as: {answer.reading}\n")
    sys.stdout.write(f"\nEvidence (tier: {answer.tier}):\n")
    cited = {c.chunk_id for c in answer.citations}
    for i, e in enumerate(answer.evidence, 1):
        mark = "*" if e.chunk_id in cited else " "
        snippet = " ".join(e.text.split())[:90]
        sys.stdout.write(f"{mark}[{i}] {e.doc} p.{e.page} {e.modality} {e.score:.3f}  {snippet}\n")
    bad = [c for c in answer.checks if not c.found]
    if bad:
        sys.stdout.write("Unverified numbers: " + ", ".join(c.value for c in bad) + "\n")
    if answer.computation:
        sys.stdout.write(f"Computation: {answer.computation}\n")
    if answer.contradicted:
        # streamed as the model wrote them, they are not part of the answer
        sys.stdout.write("The model also said, contradicting what the code found (not part of the answer):\n")
        sys.stdout.write("".join(f"  x {sentence}\n" for sentence in answer.contradicted))
    return EXIT_OK


def cmd_regions(engine: Engine, args: argparse.Namespace) -> int:
    regions = engine.regions(args.doc, page=args.page, kind=args.kind)
    rows: list[dict[str, Any]] = [
        {
            "kind": r.kind,
            "page": r.page,
            "bbox": list(r.bbox),
            "method": r.method,
            "title": r.title,
            "units": r.units,
            "summary": r.summary,
            "summary_method": r.summary_method,
            "table": r.table,
            "crop_path": r.crop_path,
            "checks": r.checks,
            "id": r.id,
        }
        for r in regions
    ]
    if args.json:
        _emit(rows)
        return EXIT_OK
    for r in rows:
        sys.stdout.write(f"p.{r['page']:<4} {r['kind']:<8} {r['method']:<18} {r['title'][:60]}\n")
        if r["summary"]:
            sys.stdout.write(f"        {r['summary'][:200]}\n")
    return EXIT_OK


def cmd_models(engine: Engine, args: argparse.Namespace) -> int:
    if args.where:
        sys.stdout.write(f"{engine.settings.models_toml}\n")
        return EXIT_OK
    statuses = engine.models_status(load=not args.no_load)
    cfg = engine.models.config
    if args.json:
        _emit(
            {
                "profile": cfg.profile,
                "models_toml": str(cfg.file),
                "threads": engine.models.budget.to_json(),
                "roles": {role: st.to_json() for role, st in statuses.items()},
            }
        )
    else:
        sys.stdout.write(f"profile {cfg.profile} ({cfg.file})\n")
        b = engine.models.budget
        sys.stdout.write(f"threads on {b.physical} cores ({b.cpus} CPUs): model {b.llm}, embedder {b.embedder}, "
                         f"detector {b.detector}, ocr {b.ocr}, text readers {b.extract}; stage overlap "
                         f"{'on' if b.overlap else 'off'}; answers first {'on' if b.answers_first else 'off'}\n")
        for role, st in statuses.items():
            mark = "ok " if st.ok else ("-- " if st.optional else "ERR")
            sys.stdout.write(f"{mark} {role:<9} {st.backend:<22} {st.detail}\n")
            if st.path:
                sys.stdout.write(f"    {st.path}\n    sha256 {st.sha256}\n")
            runs = {k: v for k, v in st.extra.get("runs", {}).items() if k != "backend" and v not in ("", None)}
            if runs:
                sys.stdout.write("    runs: " + ", ".join(f"{k} {v}" for k, v in runs.items()) + "\n")
    required_ok = all(st.ok for st in statuses.values() if not st.optional)
    return EXIT_OK if required_ok else EXIT_FAILED


def _lazy(module: str, func: str) -> Callable[[Engine, argparse.Namespace], int]:
    def run(engine: Engine, args: argparse.Namespace) -> int:
        import importlib

        return int(getattr(importlib.import_module(module), func)(engine, args))

    return run


# --- parser ------------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mfr-tui", description=__doc__)
    p.add_argument("--data-dir", help="library location (default: platform user data dir; env MFR_DATA_DIR)")
    p.add_argument("--profile", help="models.toml profile (default: its default_profile; env MFR_PROFILE)")
    p.add_argument("--models-toml", help="models.toml to use (env MFR_MODELS_TOML)")
    p.add_argument("--threads", type=int, help="CPU threads for the models")
    p.add_argument("--set", action="append", metavar="NAME=VALUE",
                   help="change a setting (a field of engine/settings.py), e.g. --set fuse_parts=true; repeatable")
    sub = p.add_subparsers(dest="command")

    s = sub.add_parser("ingest", help="add PDF files or folders to the library")
    s.add_argument("paths", nargs="+")
    s.add_argument("--json", action="store_true")
    s.add_argument("--quiet", action="store_true", help="no progress lines")
    s.add_argument("--password", help="password for encrypted PDFs")
    s.add_argument("--force", action="store_true", help="re-ingest even if unchanged")
    s.add_argument("--max-pages", type=int, dest="max_pages", help="refuse PDFs with more pages")
    s.set_defaults(func=cmd_ingest)

    s = sub.add_parser("library", help="list the documents in the library")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_library)

    s = sub.add_parser("remove", help="remove documents (by id or name)")
    s.add_argument("docs", nargs="+")
    s.set_defaults(func=cmd_remove)

    s = sub.add_parser("reindex", help="embed tables and figures again from the stored regions (after an upgrade)")
    s.add_argument("docs", nargs="*", help="documents (id or name); default: all")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_reindex)

    s = sub.add_parser("ask", help="answer a question with cited evidence")
    s.add_argument("question")
    s.add_argument("--doc", action="append", help="restrict to a document (id or name); repeatable")
    s.add_argument("--k", type=int, help="evidence items to retrieve")
    s.add_argument("--json", action="store_true")
    s.add_argument("--no-history", action="store_true", help="do not save the answer in the history")
    s.set_defaults(func=cmd_ask)

    s = sub.add_parser("regions", help="tables and figures found in a document")
    s.add_argument("doc")
    s.add_argument("--page", type=int)
    s.add_argument("--kind", choices=["table", "figure", "caption", "title"])
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_regions)

    s = sub.add_parser("models", help="check each model role of models.toml (loads them for real)")
    s.add_argument("--json", action="store_true")
    s.add_argument("--no-load", action="store_true", help="verify files and checksums only")
    s.add_argument("--where", action="store_true", help="print the models.toml in use")
    s.set_defaults(func=cmd_models)

    _register_optional(sub)
    return p


def _register_optional(sub: Any) -> None:
    """Subcommands whose modules add their own arguments (eval, calibrate, doctor)."""
    import importlib

    for module in ("mfr_tui.cli_eval", "mfr_tui.cli_calibrate", "mfr_tui.cli_doctor"):
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        mod.register(sub)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    os.umask(os.umask(0o077) | 0o077)  # everything the app writes (catalogue, indexes, crops) is private
    if not args.command:
        return _run(args)
    with _visible_output():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    try:
        settings = _settings(args)
        if not args.command:
            from mfr_tui.app import run_app

            return run_app(settings)
        if getattr(args, "no_engine", False):
            # `doctor` must also work on a library too damaged to open an Engine on.
            args.settings = settings
            return int(args.func(None, args))
        engine = Engine(settings)
        try:
            return int(args.func(engine, args))
        finally:
            engine.close()
    except EngineError as exc:
        sys.stderr.write(f"{exc.title}: {exc.message}\n")
        return EXIT_ERROR
    except KeyboardInterrupt:
        sys.stderr.write("Interrupted.\n")
        return 130


def _write_token(token: str) -> None:
    sys.stdout.write(token)
    sys.stdout.flush()


if __name__ == "__main__":
    raise SystemExit(main())

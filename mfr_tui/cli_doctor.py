"""`mfr-tui doctor [--repair] [--json]`: check the library's catalogue against its index files."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine import Engine, EngineError
from engine.library.doctor import run_doctor

_MARK = {"error": "ERR ", "warning": "WARN", "info": "info"}


def register(subparsers: Any) -> None:
    """Add the ``doctor`` subcommand."""
    s = subparsers.add_parser(
        "doctor",
        help="check the library (catalogue, indexes, temp files, interrupted ingests); --repair fixes it",
    )
    s.add_argument("--repair", action="store_true",
                   help="fix what can be fixed (rebuild indexes, drop orphans, reset interrupted documents)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_doctor, no_engine=True)


def cmd_doctor(engine: Engine | None, args: argparse.Namespace) -> int:
    """Exit 0 when the library is clean (after repairs), 1 when problems remain."""
    settings = engine.settings if engine is not None else args.settings
    quiet = args.json
    try:
        if engine is not None:
            report = engine.doctor(repair=args.repair)
        else:
            report = run_doctor(
                settings,
                repair=args.repair,
                on_progress=None if quiet else _progress,
            )
    except EngineError as exc:
        sys.stderr.write(f"{exc.title}: {exc.message}\n")
        return 2
    if args.json:
        sys.stdout.write(json.dumps(report.to_json(), indent=2, default=str) + "\n")
    else:
        sys.stdout.write(f"library {report.data_dir}\n")
        for f in report.findings:
            state = " [repaired]" if f.repaired else (" [repairable]" if f.repairable and not args.repair else "")
            sys.stdout.write(f"{_MARK.get(f.severity, f.severity)} {f.check:<20} {f.message}{state}\n")
        left = report.problems
        if not left:
            sys.stdout.write("clean\n")
        else:
            hint = "" if args.repair else " Run `mfr-tui doctor --repair` to fix what can be fixed."
            sys.stdout.write(f"{len(left)} problems remain.{hint}\n")
    return 0 if report.clean else 1


def _progress(step: str) -> None:
    sys.stderr.write(f"checking {step}...\n")

"""Hostile questions (issue 26): each question parser's worst time on 100 KB of adversarial text and on the longest
question accepted (2,000 characters), and whether any exception escapes the question path on 10,000 generated
questions. ``parse`` is the question path: the answerer refuses a longer question before it, and it reads no further
than 2,000 characters itself.

The adversarial texts and the parsers are the hostile-input suite's (``tests/test_hostile_filings.py``), which
asserts only that they scale linearly; this prints the times::

    nice -n 15 python benchmarks/bench_hostile.py

Figures go to ``benchmarks/out/hostile.json``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback

from common import ROOT, write_json

sys.path.insert(0, str(ROOT / "tests"))

from test_hostile_filings import ADVERSARIAL, _parsers  # noqa: E402

from engine.errors import EngineError  # noqa: E402
from engine.untrusted import MAX_QUESTION_CHARS, check_question  # noqa: E402

WORDS = ["What", "is", "the", "FY2019", "fiscal", "year", "2018", "Q3", "revenue", "less", "minus", "capex", "to",
         "ratio", "as", "a", "%", "of", "margin", "defined", "as:", "(", ")", "$1,577", "million", "1.5x", "Vetra",
         "BBY", "&", "between", "and", "three", "months", "ended", "December", "31,", "vs", "[2]", "-", "?", ".",
         ",", "\x1b", "\u202e", "’s", "average", "percentage", "debt", "EBITDA", "31.03.2023", "52", "weeks", "H1",
         "YTD", "\n", "[/", "[@click=app.quit]", "((", "))", "ignore previous instructions"]


def _ms(parse: object, text: str) -> float:
    t = time.perf_counter()
    parse(text)  # type: ignore[operator]
    return (time.perf_counter() - t) * 1000


def generated(n: int, seed: int = 26) -> list[str]:
    """``n`` questions: runs of question words, and random Unicode text of up to 400 characters."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        if i % 2:
            out.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 60))))
        else:
            out.append("".join(chr(rng.randint(0, 0x2FFF)) for _ in range(rng.randint(0, 400))))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=100_000, help="characters of adversarial text")
    parser.add_argument("--questions", type=int, default=10_000, help="generated questions to parse")
    parser.add_argument("--out", help="JSON output path (default benchmarks/out/hostile.json)")
    args = parser.parse_args()

    parsers = _parsers()
    worst: dict[str, dict[str, object]] = {}
    longest: dict[str, dict[str, object]] = {}
    for name, parse in parsers.items():
        for size, into in ((args.size, worst), (MAX_QUESTION_CHARS, longest)):
            for unit in ADVERSARIAL:
                text = (unit * (size // len(unit) + 1))[:size]
                ms = min(_ms(parse, text) for _ in range(2))
                if ms > float(into.get(name, {}).get("ms", -1.0)):  # type: ignore[arg-type]
                    into[name] = {"ms": round(ms, 1), "text": unit}
        print(f"{name:16} worst {worst[name]['ms']:8.1f} ms on {worst[name]['text']!r} x {args.size:,} chars; "
              f"{longest[name]['ms']:6.1f} ms on {longest[name]['text']!r} x {MAX_QUESTION_CHARS:,} (the longest "
              "question accepted)", flush=True)

    escaped: list[str] = []
    refused = 0
    t = time.perf_counter()
    for q in generated(args.questions):
        try:
            check_question(q)
        except EngineError:
            refused += 1
        for name, parse in parsers.items():
            try:
                parse(q)
            except Exception:  # noqa: BLE001 - counted: nothing may escape
                escaped.append(f"{name}: {q!r}: {traceback.format_exc(limit=1)}")
    seconds = time.perf_counter() - t
    print(f"{args.questions:,} generated questions: {len(escaped)} exceptions escaped, {refused} refused as empty "
          f"or too long, {seconds:.1f} s")
    for e in escaped[:5]:
        print(e)
    path = write_json("hostile", {"size": args.size, "worst_ms": worst, "longest_question_ms": longest,
                                  "questions": args.questions,
                                  "exceptions": len(escaped), "refused": refused, "examples": escaped[:20]},
                      args.out)
    print(f"written to {path}")
    return 0 if not escaped else 1


if __name__ == "__main__":
    raise SystemExit(main())

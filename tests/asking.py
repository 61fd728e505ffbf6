"""Test helpers: the answer path's units called with a question's text, parsed once here (``question.parse``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ask import cells, checks, computations
from engine.ask.decisions import Computation, Kind, Work
from engine.ask.question import Question, parse
from engine.periods import Calendar


def q(text: str | Question) -> Question:
    """The parsed question."""
    return parse(text) if isinstance(text, str) else text


def resolve(text: str | Question, sources: Sequence[cells.TableSource], calendar: Calendar | None = None
            ) -> cells.Resolution:
    """``cells.resolve`` of a question's text."""
    return cells.resolve(q(text), sources, calendar)


def compute(text: str | Question, sources: Sequence[cells.TableSource], calendar: Calendar | None = None,
            resolution: cells.Resolution | None = None) -> Computation | None:
    """``computations.compute`` of a question's text."""
    return computations.compute(q(text), sources, calendar, resolution)


def decided(kind: Kind, text: str, sources: Sequence[cells.TableSource] = (), calendar: Calendar | None = None,
            computation: Computation | None = None, resolution: cells.Resolution | None = None,
            **work: Any) -> str:
    """The text a kind decides for a question ('' when it does not apply or decides nothing)."""
    question = q(text)
    res = resolution if resolution is not None else cells.resolve(question, sources, calendar)
    w = Work(question, sources, calendar, res, [calendar] if calendar else [], computation, **work)
    if not kind.applies(question):
        return ""
    d = kind.decide(w)
    return d.text if d is not None else ""


def check_numbers(text: str, cited: Sequence[Any], regions: Any = None, computed: Sequence[float] = (),
                  resolution: cells.Resolution | None = None, calendar: Calendar | None = None,
                  question: str = "", quoted: Sequence[str] = ()) -> list[Any]:
    """``checks.check_numbers`` with the question given as text."""
    return checks.check_numbers(text, cited, regions, computed, resolution, calendar, q(question) if question else None,
                                quoted)

"""What the code decides before the model speaks, and the one signature every kind of decision has.

Refusals (``guards``), computations (``computations``) and verdicts (``verdicts``) are small classes with
``applies(question) -> bool`` and ``decide(work) -> Decision | None``; ``kinds`` lists each registry in the order
they are tried. A ``Decision`` is a typed value: what kind of decision, the Yes/No it reaches (if any), the
figures it rests on and the text that states it, so the answer can tell the model's sentences that agree with
it from those that do not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol

from engine.ask.cells import Resolution, TableSource, cell_lookup
from engine.ask.formulas import Lookup, Term
from engine.ask.question import Question
from engine.periods import Calendar, Period
from engine.types import Document, Evidence, Retrieval


@dataclass
class Computation:
    """A ratio, growth rate or difference computed in code from table cells."""

    kind: str
    result: float
    text: str
    cells: list[Term]
    definition_note: str = ""
    """Where the result rests on one of two common definitions the question does not choose between: the other
    one's value, said in words (the result's check is flagged with it, not verified)."""
    steps: list[float] = field(default_factory=list)
    """Values worked out on the way (an average balance, a derived total, each year of a multi-year average):
    an answer that quotes one quotes the code's arithmetic."""
    ends: tuple[float, float] | None = None
    """(from, to) of a change or growth it computes, oldest first."""
    percent: bool = False
    """The result is a percent (a margin, a rate, "X as a % of Y") or a change of one in points: an amount in a
    currency is never it."""


@dataclass(frozen=True)
class Decision:
    """What one kind decided."""

    kind: str
    """The deciding class's ``name`` ("change", "sign", "series", "period_gap", "formula", ...)."""
    text: str
    """The decision stated for the reader (a refusal's reason, a verdict's sentence, a computation's terms)."""
    verdict: bool | None = None
    """Yes (True) or No (False) for a yes/no question it decided; None otherwise."""
    figures: tuple[float, ...] = ()
    """The numbers it rests on (cells, computed results), scale applied where a cell's is known."""
    computation: Computation | None = None
    """The computation, for a computation's decision."""
    refusal: bool = False
    """The question cannot be answered from the searched filings (a guard's decision)."""
    lead: bool = False
    """Stated in place of a Yes or No ("the metric is not a useful measure here"): said first."""
    choice: str = ""
    """The item a ranking picked ("operations"), of the items the question lists."""
    among: tuple[str, ...] = ()
    """The items a ranking chose from when the question lists none (a breakdown's rows: "United States", ...), or
    that a listing lists whole (the classes a cover page registers under Section 12(b))."""
    ends: tuple[float, float] | None = None
    """(from, to) of a change the decision states, oldest first."""
    dated: tuple[tuple[Period, float], ...] = ()
    """The figures the decision names with their periods (a margin for each of three years, a line item for each
    quarter): a sentence that gives one period's figure as another's contradicts it."""
    stated: tuple[float, ...] = ()
    """Other amounts its text states besides ``figures`` (a ranking's amounts of the year before, each part's
    change in money): a sentence giving one of them gives the code's figure, no contradiction of it."""
    percents: tuple[float, ...] = ()
    """The changes in percent its text states or implies (each ranked part's against the year before, as computed
    and to 0 and 1 decimals as prose rounds it: "down 51%" for -51.1%), which only a percent can be."""


@dataclass
class Work:
    """Everything the code knows about one question before the model runs, passed to every kind."""

    question: Question
    sources: Sequence[TableSource]
    calendar: Calendar | None
    resolution: Resolution
    calendars: Sequence[Calendar] = ()
    """The calendars of every filing the evidence came from."""
    computation: Computation | None = None
    store: Any = None
    doc_ids: Sequence[str] = ()
    """The filings the evidence came from."""
    retrieval: Retrieval | None = None
    documents: Sequence[Document] = ()
    """The library's searchable documents (to name the filings searched)."""
    evidence: Sequence[Evidence] = ()
    """The passages the answer cites, in source-number order ([1] is the first): text a verdict reads where no
    table holds the answer (a cover page's registered securities)."""

    @cached_property
    def lookup(self) -> Lookup:
        """Cells of a line item by fiscal year, for computed metrics (``cells.cell_lookup``): the part's where the
        question names one."""
        return cell_lookup(self.sources, self.calendar, self.resolution.asked, self.question.words,
                           self.question.segment)


class Kind(Protocol):
    """A refusal, computation or verdict: whether it applies to a question, and what it decides for one."""

    name: str

    def applies(self, question: Question) -> bool:
        """Whether this kind can decide anything for ``question`` (read from its fields only)."""
        ...

    def decide(self, work: Work) -> Decision | None:
        """The decision for ``work``, or None when the cells do not decide it."""
        ...


def first_decision(kinds: Sequence[Kind], work: Work) -> Decision | None:
    """The decision of the first kind, in registry order, that applies and decides."""
    for kind in kinds:
        if kind.applies(work.question):
            decision = kind.decide(work)
            if decision is not None:
                return decision
    return None

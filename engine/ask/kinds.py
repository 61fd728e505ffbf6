"""The registries: which refusals, computations and verdicts there are, and the order they are tried in.

This is the one statement of precedence. To add a kind, write its class (``applies(question)``,
``decide(work)``) in ``guards``, ``computations`` or ``verdicts`` and put one instance here, where it should be
tried. The first kind that applies and decides wins.
"""

from __future__ import annotations

from engine.ask.computations import Cagr, Formula, Growth, MetricChange, PairRatio
from engine.ask.decisions import Kind
from engine.ask.guards import OtherCompany, PeriodGap, UndatedGap, Unquoted
from engine.ask.verdicts import (
    BreakdownListing,
    BreakdownRankingVerdict,
    ChangeVerdict,
    ConsistencyVerdict,
    JudgementVerdict,
    RankingVerdict,
    RegisteredSecurities,
    SectionRankingVerdict,
    SeriesVerdict,
    SignVerdict,
    ThresholdVerdict,
    TrendVerdict,
    Unsuited,
    UnusualItemsVerdict,
)

EVIDENCE_GUARDS: tuple[Kind, ...] = (OtherCompany(), Unquoted())
"""Refusals read from the retrieved evidence, before any cell is resolved."""
CELL_GUARDS: tuple[Kind, ...] = (PeriodGap(), UndatedGap())
"""Refusals read from the resolved cells and the filings' calendars."""
COMPUTATIONS: tuple[Kind, ...] = (MetricChange(), Cagr(), Formula(), PairRatio(), Growth())
"""A metric's change between two years comes before the metric itself; a ratio of two items before one item's
growth."""
VERDICTS: tuple[Kind, ...] = (
    RegisteredSecurities(), ChangeVerdict(), SignVerdict(), ThresholdVerdict(), SeriesVerdict(), RankingVerdict(),
    BreakdownRankingVerdict(), SectionRankingVerdict(), BreakdownListing(), ConsistencyVerdict(), TrendVerdict(),
    JudgementVerdict(), UnusualItemsVerdict(), Unsuited(),
)
"""The cover page's registered securities first (a question asking them asks nothing else); verdicts on cells before
verdicts on computed metrics; "the metric does not suit this company" last, only when nothing else decided."""

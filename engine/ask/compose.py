"""Composing the answer: what the code states first, then the model's sentences that agree with it.

One voice per answer: when the code has decided (a stated cell, a computation, a verdict), the model explains it
and nothing else. A model sentence whose Yes or No, direction or figure disagrees with the code's decision is
not part of the answer; it is kept apart (``Voiced.folded``) so a curious reader can still see it, marked as
contradicting.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cache
from itertools import combinations

from engine.ask.cells import Resolution, TableSource, judge, resolve
from engine.ask.checks import CITATION, answer_numbers, refuses, result_like
from engine.ask.decisions import Computation, Decision
from engine.ask.formulas import fmt
from engine.ask.question import SUPERLATIVE, Question, Ranking
from engine.ask.verdicts import RegisteredSecurities, is_debt_class
from engine.numbers import SCALE_NAMES, Quantity, quantities, same_number
from engine.periods import Calendar, Period, asked_period, column_period, matches
from engine.types import Quote, Retrieval
from engine.vocabulary import canonical, change_words, directions, items_named, judgements, part_kinds, vocabulary

LEADING_VERDICT = re.compile(r"^\s*(?:yes|no)\s*[.,:;!-]+\s*", re.I)
_VERDICT_WORD = re.compile(r"^\W*(yes|no)\b", re.I)
_SENTENCES = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(\[]|\d{1,2}\.\s+\S)|\n+")
_AMOUNT = r"(?:\(\s?[-−]|[-−(])?[$€£]?\s?\d[\d,]*(?:\.\d+)?\)?(?:\s?%|\s+(?:million|billion|thousand|percent))?"
"""A figure as prose writes it: "$63,854 million", "19.1%", "(431)", "(-412)"."""
_FROM_TO = re.compile(rf"\bfrom\s+(?P<a>{_AMOUNT})\s+(?:\S+\s+){{0,4}}?to\s+(?P<b>{_AMOUNT})", re.I)
_EARLIER = re.compile(r"\b(?:previous|prior|preceding|last|earlier)\s+(?:fiscal\s+)?(?:year|quarter|period)|"
                      r"\ba\s+year\s+(?:ago|earlier|before)|\bfrom\s+(?:\S+\s+){0,2}$", re.I)
"""Words before a figure that give it as the period before the one asked ("the previous year's conversion of",
"up from")."""
_ANSWER_IS = re.compile(r"\bthe\s+(?:final\s+)?answer\s+is\b|\\boxed\{", re.I)
"""A figure given as the answer itself ("So, the answer is: \\boxed{6305}")."""
_DIVIDED = re.compile(r"/|÷|\bdivided by\b", re.I)
_WORKING = re.compile(r"^\W*(?:\d+\.\s|step\b)|\b(?:identify|calculat\w*|subtract\w*|divid\w*|multipl\w*|add|adding|"
                      r"plug\w*|formula|follow these steps|we need to|if \w+ (?:were|was) (?:provided|given))\b|[=+×÷]",
                      re.I)
"""A sentence of the model's own working: a numbered step, an operation or equation, a formula, "we need to"."""
_CONTINUES = re.compile(r"^\W*(?:this|that|these|those|such)\b(?!\s+(?:year|quarter|period)\b)", re.I)
"""A sentence that opens by pointing back at the one before it ("This can be seen in the table under ...")."""
_RATIO_RUN = re.compile(rf"\(?\s*(?P<a>{_AMOUNT})\s*(?:{_DIVIDED.pattern})\s*(?P<b>{_AMOUNT})\s*\)?"
                        r"\s*(?P<pct>(?:[*×x]|\btimes\b)\s*100\s*)?=\s*" rf"(?P<c>{_AMOUNT})", re.I)
"""A division the model wrote out: "155 / 7,017 = 2.21%", "(495 / 21,523) * 100 = 1.91%"."""
_DEFINES = re.compile(r"=|\b(?:is|are|was|were|be)\s+(?:calculated|computed|defined|derived|determined)\s+(?:as|by)\b",
                      re.I)
"""Where a sentence starts defining a metric: "X = A / B", "X is calculated as A / B", "This can be calculated by
dividing A by B"."""
_DIVIDING = re.compile(r"^\s*dividing\s+(?P<a>.+?)\s+by\s+(?P<b>.+?)"
                       r"(?=\s+(?:and|then)\s+multiplying\b|;|\.(?:\s|$)|\s\(|$)", re.I)
"""A division told in words: "dividing the depreciation and amortization expense by total revenue"."""
_POINTS_BACK = re.compile(r"^\W*(?:this|it|the|that)\s*(?:ratio|metric|margin|figure|measure|value)?\s*"
                          r"(?:can|could)?\W*$", re.I)
"""The start of a sentence that names the metric by pointing back at the one before it ("This can be calculated
by ...", "The ratio is calculated as ...")."""
_FIGURES = re.compile(r"[-$€£\d,.%()×*]+|\b(?:x|million|billion|thousand|usd|dollars)\b", re.I)
"""Figures, operators and scale words: what is left of a definition's side without them is its words."""
_AVERAGE_OF = re.compile(r"\[[\d,\s]+\]|\b(?:the\s+)?(?:average|avg)\b\.?(?:\s+of\b)?(?:\s+the\b)?|\bbetween\b.*$",
                         re.I)
_LETTERS = re.compile(r"[a-z]{3}", re.I)
_A_WORD = re.compile(r"[a-z]{2}", re.I)
"""What a kept sentence holds besides a citation or a step's number ("No." does; "1." and "[1]" do not)."""
_PERIOD_WORD = r"(?:[^,;.()\[\n]|,(?=\s*(?:19|20)\d{2})|\.(?=\d))"
"""One character of a period's words: no clause break, but the comma of "July 1, 2023" and the point of "10.5"."""
_PERIOD_AFTER = re.compile(
    r"\s*(?:million|billion|thousand)?\s*\)?\s*\(?\s*(?:in|for|during|as\s+of|at\s+the\s+end\s+of|at|by|on)\s+"
    rf"({_PERIOD_WORD}{{1,60}}?)"
    r"(?=\s*(?:,(?!\s*(?:19|20)\d{2})|[;.()\[\n]|$)|\s+(?:and|to|from|compared|versus|vs|which|while|representing|"
    r"with|or|but|an?|the)\b)", re.I)
"""The period a figure is given for, right after it ("$63,854 million in FY2021", "20.1% for fiscal 2022",
"$7.482 billion in Q3 FY2023", "5,433 million as of June 25, 2022")."""
_FLAT = re.compile(r"\b(?:unchanged|flat|no (?:significant |material )?change|remained (?:the same|stable|steady))\b",
                   re.I)
_NEGATED = re.compile(r"\b(?:not|no|never|neither|nor|without)\b|n't\b", re.I)
_NAMED_PART = re.compile(r"(?P<name>(?:[A-Z][\w'’.-]*\s+(?:(?:&|and)\s+)?){1,5})(?P<kind>[a-z]+)\b")
"""Capitalised words and the lower-case word after them: a part named with its kind ("Compute & Networking
segment") where that word is a kind of part (``part_kinds``)."""
_DETERMINERS = re.compile(r"^(?:(?:The|Its|Our|Their|Each|Every|This|That|These|Those|Any|All|Which|What|Another|"
                          r"Other|One|No|A|An|In|Of|For|By|Among|Both|Most|Some)\s+)+")
_AND = re.compile(r"\s*&\s*")
_DENIAL = re.compile(r"\b(?:not|never|neither|nor)\b|n't\b", re.I)
"""A negation that turns a claim ("is not capital intensive"); "no" and "without" qualify a noun instead ("there is
no doubt it is ...")."""


def refusal_text(retrieval: Retrieval, reason: str = "") -> str:
    """An "insufficient information" reply that lists what was searched."""
    theta = ", ".join(f"{k} >= {v:.2f}" for k, v in retrieval.thresholds.items())
    docs = sorted({e.doc for e in retrieval.evidence})
    head = reason or "Insufficient information: the searched filings do not state the answer."
    return (f"{head} Searched: tier {retrieval.tier}; thresholds {theta or 'n/a'}; "
            f"{len(retrieval.scope)} document(s){' (routed: ' + retrieval.route + ')' if retrieval.route else ''}"
            f"{'; evidence from ' + ', '.join(docs[:6]) if docs else ''}.")


def extractive_text(res: Resolution, computation: Computation | None, calendar: Calendar | None) -> str:
    """The answer stated from the cells before the model speaks: each resolved value with its row, period and
    page when the resolver is confident, in one scale (``Resolution.scale``), and a computed metric with its
    terms. '' when neither."""
    lines: list[str] = []
    if computation is not None:
        lines.append(f"Computed from the cited cells: {computation.text}")
    elif res.confident:
        for c in res.cells:
            lines.append(f"{res.shown(c)}: {c.label}, {c.period_name(calendar)} ({c.doc}, p. {c.page}) [{c.marker}]")
    return "\n".join(lines)


def naming_note(question: Question, sources: Sequence[TableSource], calendar: Calendar | None,
                res: Resolution, computation: Computation | None = None) -> str:
    """For a fiscal year the question names whose year end allows two namings (``Calendar.other_reading``: a year
    ending January to March, "fiscal 2022" the year ended January 2023 for one retailer and January 2022 for
    another): the reading used, and the other reading's stated cell or computed result with its value. The
    filer's own naming is used where the filing states it (the note then says so), else assumed (the note says
    that too). '' where no other reading applies or the filings hold no figure for it."""
    asked = question.asked
    if (calendar is None or asked.fiscal_year is None or asked.fiscal_year not in asked.fiscal_named
            or asked.end is not None or asked.instant is not None
            or (computation is None and not (res.confident and res.cells))):
        return ""
    other = calendar.other_reading(asked.fiscal_year)
    if other is None:
        return ""
    shifted = question.shifted(other - asked.fiscal_year)
    alt = resolve(shifted, sources, calendar)
    head = (f"Fiscal {asked.fiscal_year} as the filing names its years ({calendar.naming_rule()})."
            if calendar.naming_stated else
            f"Read as the filing's fiscal {asked.fiscal_year}; the filing does not say how it names its years.")
    if computation is not None:
        from engine.ask.computations import compute

        again = compute(shifted, sources, calendar, alt)
        if again is None or math.isclose(again.result, computation.result, rel_tol=1e-9, abs_tol=1e-12):
            return ""
        named = sorted(set(asked.fiscal_named), reverse=True)
        said = " and ".join(f"\u201cfiscal {y}\u201d" for y in named)
        meant = " and ".join(str(y + other - asked.fiscal_year) for y in named)
        return (f"{head} If {said} mean{'s' if len(named) == 1 else ''} the filing's fiscal {meant} instead: "
                f"{again.text}")
    c = next((c for c in alt.cells if c.period_fit >= 0.99 and c.row == res.cells[0].row), None)
    if c is None:
        return ""
    span = f"year ended {c.period.end:%B %-d, %Y}" if c.period is not None and c.period.end else c.column
    return (f"{head} If \u201cfiscal {asked.fiscal_year}\u201d means the {span} (the filing's fiscal {other}) "
            f"instead: {res.shown(c)} ({c.doc}, p. {c.page}) [{c.marker}].")


@dataclass
class Voiced:
    """The model's text split into what agrees with the code's decision and what contradicts it."""

    text: str
    folded: list[str] = field(default_factory=list)
    """Sentences that contradict the decision, each with why: not part of the answer."""


def _direction_of(sentence: str) -> str:
    """The direction a sentence asserts ("up", "down", "flat"), '' when none or when it negates it."""
    if _FLAT.search(sentence):
        return "flat"
    if _NEGATED.search(sentence):
        return ""
    rises, falls = directions()
    up, down = bool(rises.search(sentence)), bool(falls.search(sentence))
    return "up" if up and not down else "down" if down and not up else ""


def _stands_on_the_code(sentence: str, ends: tuple[float, float] | None) -> bool:
    """Whether a sentence pointing back at a folded one asserts only a direction the code's own change has ("This
    indicates a significant increase in inventory levels" after a sentence folded for one wrong endpoint of an
    increase the code computed): it then reads the code's change, not the folded figure. A figure of its own, or no
    change computed by the code, and it goes with the folded sentence."""
    if ends is None or answer_numbers(sentence) or ends[1] == ends[0] or _FLAT.search(sentence):
        return False
    asserted, _ = _ways(sentence)
    return asserted == {"up" if ends[1] > ends[0] else "down"}


def _ways(sentence: str) -> tuple[set[str], set[str]]:
    """(directions a sentence asserts, directions it denies), each direction word read with the three words before
    it: a negation there turns it ("did not increase", "is not improving"); one elsewhere in the sentence is about
    something else ("reduce inventory without compromising availability")."""
    rises, falls = directions()
    asserted: set[str] = set()
    denied: set[str] = set()
    for way, pattern in (("up", rises), ("down", falls)):
        for m in pattern.finditer(sentence):
            (denied if _NEGATED.search(" ".join(sentence[:m.start()].split()[-3:])) else asserted).add(way)
    return asserted, denied


def _verdict_conflict(sentence: str, decision: Decision, question: Question) -> str:
    """Why a sentence contradicts a Yes/No decision ('' when it does not)."""
    assert decision.verdict is not None
    said = _VERDICT_WORD.match(sentence)
    if said and (said.group(1).lower() == "yes") != decision.verdict:
        return f"says {said.group(1).capitalize()}; the code decided {'Yes' if decision.verdict else 'No'}"
    if (quality := _quality_said(sentence, question)) is not None and quality != decision.verdict:
        return (f"says it is {'' if quality else 'not '}{question.judgement}; the code decided "
                f"{'Yes' if decision.verdict else 'No'}")
    if sign := _sign_said(sentence, question):
        held = sign.split()[1] == question.sign
        return f"{sign} ...; the code decided {'Yes' if decision.verdict else 'No'}" if held != decision.verdict else ""
    asserted = _direction_of(sentence)
    want = question.direction
    if decision.verdict and want in {"up", "down"} and _denies(sentence, want):
        return f"says it did not go {want}; the code decided Yes"  # "155.51%, which is not improving"
    if not asserted or want not in {"up", "down", "any"}:
        return ""
    happened = asserted in {"up", "down"} if want == "any" else asserted == want
    opposite = asserted == "flat" if want == "any" else asserted in {"flat", {"up": "down", "down": "up"}[want]}
    if (not decision.verdict and happened) or (decision.verdict and opposite):
        return f"says it went {asserted}; the code decided {'Yes' if decision.verdict else 'No'}"
    return ""


def _sign_said(sentence: str, question: Question) -> str:
    """"says negative working capital" where a sentence gives the sign a question asks about ("Does it have positive
    working capital?") to the thing it asks it of, not denied; '' otherwise."""
    if question.sign not in {"positive", "negative"}:
        return ""
    asked = re.search(rf"\b{question.sign}\s+([a-z]+)", question.text, re.I)
    if asked is None:
        return ""
    noun = asked.group(1).lower()
    for said in re.finditer(rf"\b(positive|negative)\s+{re.escape(noun)}\b", sentence, re.I):
        if not _NEGATED.search(" ".join(sentence[:said.start()].split()[-3:])):
            return f"says {said.group(1).lower()} {noun}"
    return ""


def _quality_said(sentence: str, question: Question) -> bool | None:
    """Whether a sentence says the company has the quality a judgement question asks about (True: "This indicates
    that 3M is a capital-intensive business"), lacks it (False: "is not capital intensive", "its liquidity is
    weak"), or neither (None: "A capital-intensive business needs ..."), by the vocabulary's ``holds`` and
    ``fails`` of the judgement; a negation in the claim or in the eight words of its clause before it turns it."""
    judged = judgements().get(question.judgement) if question.judgement else None
    for pattern, has in ((judged.holds, True), (judged.fails, False)) if judged else ():
        m = pattern.search(sentence) if pattern is not None else None
        if m:
            # a denial earlier in the clause turns it ("was not strong enough to qualify as a high growth company")
            before = " ".join(re.split(r"[,;:]", sentence[:m.start()])[-1].split()[-8:])
            return has != bool(_DENIAL.search(m.group(0)) or _DENIAL.search(before))
    return None


def _result_as_other_item(sentence: str, question: Question, computation: Computation | None) -> str:
    """Why a sentence gives the code's computed result as another line item's figure ("Cost of goods sold: $9,068
    million" where 9,068 is the computed EBITDA less capex): the item named last before the figure, in its own
    clause, is neither one the question asks for nor a term of the computation. '' otherwise."""
    if computation is None:
        return ""
    allowed = {m.item.name for m in question.measures if m.item is not None}
    allowed |= {canonical(t.item) for t in computation.cells}
    terms = [t.value for t in computation.cells]
    for q in answer_numbers(sentence):
        if not same_number(q, computation.result) or any(same_number(q, v) for v in terms):
            continue
        clause = re.split(r"\s[-–•]\s|[;,(]|\n", sentence[max(0, q.start - 60):q.start])[-1]
        named = [it.name for it in items_named(clause)]
        if len(named) == 1 and named[0] not in allowed:
            return f"{q.raw.strip()} is the code's computed result, not {named[0]}"
    return ""


@cache
def _says_change() -> re.Pattern[str]:
    """Words that tell an amount as a change: a way (``[directions]``), a change without one or a change's noun, a
    word that gives the figure after it as a change ("up"), or one of a difference ("more", "less", "by",
    "additional")."""
    rises, falls = directions()
    words = change_words()
    return re.compile("|".join([p.pattern for p in (rises, falls, words.either, words.nouns, words.before_figure)]
                               + [r"\b(?:more|less|by|difference|additional|extra|gap)\b"]), re.I)


def _change_as_level(sentence: str, computation: Computation | None) -> str:
    """Why a sentence gives the code's computed change in money as the amount itself ("Apple spent $1,080 million on
    R&D in the quarter", where 1,080 is the rise from 5,717 to 6,797): the change's amount, neither end's, in a
    clause (from the comma, semicolon or colon before it to the next comma or semicolon) that says no change
    (``_says_change``). '' otherwise."""
    c = computation
    if c is None or c.kind not in ("change", "difference") or c.percent or not c.result:
        return ""
    levels = c.ends or tuple(t.value for t in c.cells)  # the two amounts it went between
    if len(levels) != 2:
        return ""
    for v in _amounts(sentence):
        if not _as_written(v, c.result) or any(_as_written(v, e) for e in levels):
            continue
        start = max(sentence.rfind(mark, 0, v.start) for mark in ",;:") + 1
        end = min([i for mark in ",;" if (i := sentence.find(mark, v.end)) >= 0], default=len(sentence))
        if not _says_change().search(sentence[start:end]):
            return (f"gives {v.raw.strip()}, the computed change, as the amount itself; the code found "
                    f"{fmt(min(levels, key=abs))} and {fmt(max(levels, key=abs))}")
    return ""


def _denies(sentence: str, way: str) -> bool:
    """Whether a sentence says the figure did not go ``way`` ("is not improving", "did not increase", "has not
    grown"): a negation at most three words before one of that direction's words."""
    return way in _ways(sentence)[1]


def _names(sentence: str, name: str) -> bool:
    return bool(name) and re.search(rf"(?<![a-z]){re.escape(name.lower())}(?![a-z])", sentence.lower()) is not None


def _reversed(sentence: str, ends: tuple[float, float] | None) -> str:
    """Why a sentence states a change the wrong way round ("from 19.1% to 20.8%" for a fall from 20.84 to 19.10);
    '' otherwise."""
    if ends is None or ends[0] == ends[1]:
        return ""
    old, new = ends
    for m in _FROM_TO.finditer(sentence):
        a, b = quantities(m.group("a")), quantities(m.group("b"))
        if a and b and same_number(a[0], new) and same_number(b[0], old) and not same_number(a[0], old):
            return f"says it went from {a[0].raw} to {b[0].raw}; the code found {fmt(old)} -> {fmt(new)}"
    return ""


def _term_rows(computation: Computation | None) -> dict[str, dict[tuple[date, int], float]]:
    """Row label -> (period end, the year the column names) -> value, for each row the computation took (gross
    profit of FY2021 and FY2022 for a change in gross margin)."""
    rows: dict[str, dict[tuple[date, int], float]] = {}
    for t in computation.cells if computation is not None else ():
        p = column_period(t.column)
        named = p and (p.fiscal_year or p.year or (p.end.year if p.end else None))
        if p is None or not named:
            continue
        rows.setdefault(t.label, {})[(p.end or date(named, 12, 31), named)] = t.value
    return rows


def _term_ends(rows: dict[str, dict[tuple[date, int], float]]) -> list[tuple[str, float, float]]:
    """(row label, older value, newer value) of each row taken for two periods, oldest first."""
    out = []
    for label, values in rows.items():
        if len(values) == 2:
            (_, old), (_, new) = sorted(values.items())
            if old != new:
                out.append((label, old, new))
    return out


def _period_points(question: Question, decision: Decision | None, computation: Computation | None,
                   res: Resolution, stated: bool) -> dict[str, list[tuple[Period, float]]]:
    """What the code gave for each period, by row: the computation's terms (gross profit of FY2021 and FY2022), the
    stated cells with the same rows' other periods (a series' quarters), and a verdict's figures for the periods it
    names (a margin for each of three years)."""
    points: dict[str, list[tuple[Period, float]]] = {}
    for t in computation.cells if computation is not None else ():
        if (p := column_period(t.column)) is not None:
            points.setdefault(t.label, []).append((p, t.value))
    if stated:
        rows = {c.row for c in res.cells}
        for c in [*res.cells, *res.candidates]:
            if c.period is not None and c.row in rows and (c.period, c.value) not in points.get(c.row, []):
                points.setdefault(c.row, []).append((c.period, c.value))
    if decision is not None and decision.dated:
        name = question.ratio[0] if question.ratio else question.measures[0].name if question.measures else "figure"
        points[name] = list(decision.dated)
    return points


def _label_before(prefix: str) -> str:
    """The label of a list item that gives the figure after ``prefix`` ("- Q3 FY2022: " -> "Q3 FY2022"; "Fiscal
    2023: $" -> "Fiscal 2023"); '' when the figure has no label of its own."""
    colon = re.search(r":\s*[-(]?[$€£]?\s*$", prefix)
    if colon is None:
        return ""
    label = re.split(r"[:\n•*;(]|\s[-–]\s", prefix[:colon.start()])[-1].strip(" -–")
    return label if 2 <= len(label) <= 40 else ""


def _for_another_period(sentence: str, points: dict[str, list[tuple[Period, float]]],
                        calendar: Calendar | None) -> str:
    """Why a sentence gives the code's figure of one period as another period's ("the lowest was 21.4% in 2021"
    where 21.41% is FY2023's; "$7.482 billion in Q3 FY2023" where 7,482 is the balance at the end of Q2; a list's
    "- Q3 FY2022: 12.5%" where 12.5% is Q3 FY2023's); '' otherwise. The period is read with the questions' own
    grammar (``periods.asked_period``) from the words right after the figure, or from a list item's label before it;
    a row's period that fits them best is the one claimed."""
    for q in answer_numbers(sentence):
        said = _PERIOD_AFTER.match(sentence, q.end)
        when = said.group(1) if said is not None else _label_before(sentence[max(0, q.start - 60):q.start])
        if not when:
            continue
        asked = asked_period(when)
        if asked.fiscal_year is None and asked.quarter is None and asked.instant is None and asked.end is None:
            continue
        for label, row in points.items():
            fits = [matches(asked, p, calendar) for p, _ in row]
            best = max(fits, default=0.0)
            if best < 0.6:
                continue
            claimed = [v for (_, v), f in zip(row, fits, strict=True) if f == best]
            if any(same_number(q, v) for v in claimed):
                continue
            if any(same_number(q, v) for (_, v), f in zip(row, fits, strict=True) if f < best):
                when = when.strip()
                return f"gives {q.raw.strip()} for {when}; the code's {label.lower()} for {when} is {fmt(claimed[0])}"
    return ""


_AGAINST_BASE = re.compile(r"\b(?:compared\s+(?:to|with)|versus|vs\.?|against|relative\s+to)\s+(?:the\s+)?"
                           rf"({_PERIOD_WORD}{{1,40}})", re.I)
"""The base a change is measured against ("a 7.1% increase compared to Q3 FY2023")."""


def _against_the_later(sentence: str, ends: tuple[float, float] | None, computation: Computation | None,
                       points: dict[str, list[tuple[Period, float]]], calendar: Calendar | None) -> str:
    """Why a sentence states the code's change against the later of its two periods ('' when it does not): "In Q3
    FY2022, revenue was $53,489 million, a 7.1% increase compared to Q3 FY2023" where the code's +7.1% runs from Q3
    FY2022 to Q3 FY2023. A change is measured against the earlier period."""
    if ends is None or computation is None or ends[0] == ends[1]:
        return ""
    old, new = ends
    changes = [new - old, *([(new - old) / abs(old) * 100] if old else [])]
    if not any(same_number(q, c) for q in answer_numbers(sentence) for c in changes):
        return ""
    def point_of(row: list[tuple[Period, float]], amount: float) -> tuple[Period, float] | None:
        # a row's values as printed; the change's ends may carry the table's scale
        return next(((p, v) for p, v in row if any(math.isclose(v * k, amount) for k in (1.0, 1e3, 1e6, 1e9))), None)

    for row in points.values():
        first, last = point_of(row, old), point_of(row, new)
        if first is None or last is None:
            continue
        for m in _AGAINST_BASE.finditer(sentence):
            asked = asked_period(m.group(1))
            if asked.fiscal_year is None and asked.instant is None and asked.end is None:
                continue
            if matches(asked, last[0], calendar) > matches(asked, first[0], calendar):
                return (f"measures the change against {m.group(1).strip()}, the later period; the code's change "
                        f"runs from {fmt(first[1])} to {fmt(last[1])}")
    return ""


def _other_start(sentence: str, ends: tuple[float, float] | None) -> str:
    """Why a sentence gives the code's change another starting figure ('' when it does not): with the code's later
    figure, an earlier one that is not the code's ("155.51%, which is an improvement over the previous year's
    conversion of 150.00%", "from 150.0% to 155.51%" where the code's year before is 142.72)."""
    if ends is None or ends[0] == ends[1]:
        return ""
    old, new = ends
    said = answer_numbers(sentence)
    if not any(same_number(q, new) for q in said):
        return ""
    for q in said:
        if same_number(q, new) or same_number(q, old) or same_number(q, new - old) or (
                old and same_number(q, (new - old) / abs(old) * 100)):
            continue
        if _EARLIER.search(sentence[max(0, q.start - 60):q.start]):
            return f"gives {q.raw.strip()} for the period before; the code found {fmt(old)} -> {fmt(new)}"
    return ""


def _own_answer(sentence: str, computation: Computation | None) -> str:
    """Why a sentence gives a result of the model's own as the answer ("So, the answer is: \\boxed{6305}" where the
    code computed 9,068); '' otherwise."""
    cue = _ANSWER_IS.search(sentence) if computation is not None else None
    if cue is None or computation is None:
        return ""
    for q in answer_numbers(sentence[cue.start():]):
        if not same_number(q, computation.result):
            return f"gives {q.raw.strip()} as the answer; the code computed {fmt(computation.result)}"
    return ""


def _reversed_term(sentence: str, ends: Sequence[tuple[str, float, float]]) -> str:
    """Why a sentence gives a row of the computation the wrong way round or the same figure for both ends ("gross
    profit from $63,854 million in FY2021 to $63,854 million in FY2022" where FY2021's is 63,920); '' otherwise."""
    for m in _FROM_TO.finditer(sentence):
        a, b = quantities(m.group("a")), quantities(m.group("b"))
        if not a or not b:
            continue
        for label, old, new in ends:
            if (same_number(a[0], new) and not same_number(a[0], old)
                    and (same_number(b[0], old) or same_number(b[0], new))):
                return (f"says {label.lower()} went from {a[0].raw} to {b[0].raw}; the code's cells are "
                        f"{fmt(old)} -> {fmt(new)}")
    return ""


def _side_names_a_term(side: str, terms: Sequence[str]) -> bool:
    """Whether one side of a model's definition is one of the computation's terms: the same line item in the
    vocabulary's words ("Total revenue" for "revenue", "cost of sales" for cost of products sold), an average of
    it, or its label as the filing prints it."""
    words = _FIGURES.sub(" ", side)
    words = _AVERAGE_OF.sub(" ", words).strip(" .,:;()[]").lower()
    words = " ".join(words.split())
    return any(words in {t.lower(), canonical(t)} or canonical(words) == canonical(t) for t in terms)


def _side_holds_a_term(side: str, computation: Computation) -> bool:
    """Whether a side of a definition told in words names one of the computation's terms among its other words: a
    line item of the vocabulary that is a term's item ("the total capital expenditures for the three years": capex),
    or a term's label as the filing prints it."""
    items = {canonical(t.item) for t in computation.cells}
    return (any(canonical(it.name) in items for it in items_named(side))
            or any(_names(side, t.label) for t in computation.cells if t.label))


def _own_definition(sentence: str, computation: Computation | None, names: Sequence[str]) -> str:
    """Why a sentence defines the metric the code computed with other terms than the code's ("Inventory turnover
    ratio = Total inventories / Sales to customers", "The operating margin is calculated as Total revenue / Cost
    of revenue"); '' otherwise. Sides that are only figures ("= $31,089 million / $11,435 million") are the
    code's arithmetic written out, not a definition."""
    if computation is None or computation.kind not in {"formula", "ratio"}:
        return ""
    split = _DEFINES.search(sentence)
    if split is None:
        return ""
    named = any(_names(sentence[: split.start()], n) for n in names)
    told = _DIVIDING.match(sentence[split.end():])
    if not named and not (told and _POINTS_BACK.match(sentence[: split.start()])):
        return ""
    terms = [n for t in computation.cells for n in (t.item, t.label)]
    if told:  # in words, each side may say more than the term ("the total revenues for the year (194,579 million)")
        sides = [told.group("a"), told.group("b")]
        stray = [s.strip(" .") for s in sides if not _side_holds_a_term(s, computation)]
        return f"defines it with {stray[0]!r}, which is not a term of the code's computation" if stray else ""
    sides = [s for s in _DIVIDED.split(sentence[split.end():]) if _LETTERS.search(_FIGURES.sub(" ", s))]
    if len(sides) < 2:
        return ""
    stray = [s.strip(" .") for s in sides if not _side_names_a_term(s, terms)]
    if stray:
        return f"defines it with {stray[0]!r}, which is not a term of the code's computation"
    return ""


def _own_arithmetic(sentence: str, computation: Computation | None, names: Sequence[str]) -> str:
    """Why a sum the model wrote out uses an amount that is none of the computation's ("the total capital
    expenditures are $155 million + $116 million + $124 million" where the code's three years are 155, 131
    and 116); '' otherwise. The sum of the code's own amounts is the model's arithmetic, not a contradiction."""
    if computation is None or "+" not in sentence or not any(_names(sentence, n) for n in names):
        return ""
    known = [computation.result, *computation.steps, *(t.value for t in computation.cells)]
    amounts = [q for q in answer_numbers(sentence) if q.currency or q.scale != 1.0]
    ours = [q for q in amounts if any(same_number(q, v) for v in known)]
    # the sum of the code's amounts the sentence names, each once ("operating income = $11,512 million ...
    # EBITDA = $11,512 million + $2,763 million = $14,275 million" names each term twice)
    totals = [t for t in (sum(q.value for q in ours), sum({q.value for q in ours})) if t]
    for q in amounts:
        if q in ours or any(abs(q.value - t) <= 0.005 * abs(t) for t in totals):
            continue
        return f"{q.raw} is none of the code's amounts for it"
    return ""


_NOT_SUITED = re.compile(r"\bnot\s+(?:a\s+|an\s+)?(?:very\s+)?(?:meaningful|useful|relevant|applicable|appropriate|"
                         r"suitable)\b", re.I)


_ABSENT = re.compile(r"\b(?:(?:is|are|was|were)\s+not|isn't|aren't|wasn't|weren't)\s+(?:explicitly\s+|directly\s+|"
                     r"specifically\s+|clearly\s+)?(?:provided|given|available|disclosed|stated|mentioned|found|"
                     r"included|reported|shown|listed|specified)\b|\b(?:does|do|did)\s+not\s+(?:provide|include|"
                     r"disclose|state|mention|report|show|list|specify)\b", re.I)
"""A claim that the filing or the evidence lacks something ("the net revenue for FY2015 is not provided")."""
_CLAUSES = re.compile(r";|,\s*(?:and|but|while|whereas)\b|\.\s", re.I)


def _claims_absent(sentence: str, used: Sequence[tuple[str, float]]) -> str:
    """Why a sentence says a line item the code read from the filing is not there ('' when it does not): "the net
    revenue for FY2015 is not provided" under a margin the code computed from net revenue's cell. The clause that
    says it is missing must name the line item (its label or the vocabulary's name)."""
    for clause in _CLAUSES.split(sentence):
        if not _ABSENT.search(clause):
            continue
        for name, value in used:
            if _names(clause, name):
                return f"says {name.lower()} is not there; the code read {fmt(value)} for it from the filing"
    return ""


def _scale_name(scale: float, other: str) -> str:
    """"millions" for 1e6 (``numbers.SCALE_NAMES``), ``other`` for a scale it has no word for."""
    return f"{SCALE_NAMES[scale]}s" if scale in SCALE_NAMES else other


def _scale_conflict(sentence: str, question: Question, res: Resolution) -> str:
    """Why a sentence's figure is in another scale than the one the question asks ('' when it is not): "(in USD
    billions) ... is -4,625" writes a cell printed in millions as if it were billions."""
    if question.scale is None or not res.cells:
        return ""
    for q in answer_numbers(sentence):
        if q.scale != 1.0 or q.percent:
            continue  # a scale word of its own says what it is
        for c in res.cells:
            if (c.scale not in (1.0, question.scale) and abs(abs(q.value) - abs(c.value)) < 1e-9
                    and abs(c.value) * c.scale / question.scale != abs(q.value)):
                return (f"{q.raw.strip()} is {c.row} in {_scale_name(c.scale, 'another scale')}, not in the "
                        f"{_scale_name(question.scale, 'scale')} the question asks")
    return ""


def _misscaled(sentence: str, res: Resolution) -> str:
    """Why a figure written with a scale word is a stated cell in another scale ('' when none is): "$2.294 million"
    for a cell of 2,294 million, "2,294 billion" for one of 2,294 million. The digits are the cell's, the amount is
    a thousand times off."""
    for q in answer_numbers(sentence):
        if q.scale == 1.0 or q.percent or sum(ch.isdigit() for ch in q.raw) < 3:
            continue  # "$1 million" matches too many cells by chance to tell a scale error
        for c in res.cells:
            if (c.percent or c.scale == 1.0 or not c.amount  # a table stating no scale: its amounts' scale unknown
                    or math.isclose(q.magnitude, abs(c.amount), rel_tol=0.01)):
                continue
            if any(math.isclose(abs(q.value) * f, abs(c.value), rel_tol=1e-3) for f in (1.0, 1e3, 1e-3)):
                return f"{q.raw.strip()} is {c.row}'s {c.shown} in another scale"
    return ""


def _unsuited_claim(sentence: str, question: Question, computation: Computation | None,
                    decision: Decision | None) -> str:
    """Why a sentence that calls the metric not meaningful for the company contradicts the code ('' when it does
    not): a question that allows the metric may not suit the company ("if conventional inventory management is not
    meaningful ..., state that") and the code computed it from the filing's own lines, which is the code's finding
    that it does; only ``Unsuited``, when the filing has no such line, says it does not."""
    if (not question.escape or computation is None or (decision is not None and decision.kind == "unsuited")
            or not _NOT_SUITED.search(sentence)):
        return ""
    return "says the metric does not suit the company; the code computed it from the filing's own lines"


def _moves_an_unsuited_metric(sentence: str, decision: Decision | None, names: Sequence[str]) -> str:
    """Why a sentence that tells how the metric moved, or what moved it, contradicts the code's finding that the
    filing reports no line to compute it from ("The gross margin changed ... due to the following reasons" under
    "Gross margin is not a useful measure of this company's performance: its income statement reports no gross
    profit line"); '' otherwise."""
    if decision is None or decision.kind != "unsuited" or not any(_names(sentence, n) for n in names):
        return ""
    rises, falls = directions()
    if _MOVED_BY.search(sentence) or rises.search(sentence) or falls.search(sentence):
        return "tells how the metric moved; the code found no line of the filing to compute it from"
    return ""


_MOVED_BY = re.compile(r"\b(?:chang\w*|due to|driven by|because of|as a result of)\b", re.I)
"""Words that tell a figure moved, or why."""


def _other_choice(sentence: str, decision: Decision, question: Question) -> str:
    """Why a sentence picks another of the listed items than the ranking did ('' when it does not)."""
    if not decision.choice or question.ranking is None or not SUPERLATIVE.search(sentence):
        return ""
    # the items listed, each found by its first word ("investing"); a breakdown's rows by their whole name
    # ("Developed Europe", "Developed Rest of World")
    listed = question.ranking.names
    names = [(n, n.split()[0].lower()) for n in listed] or [(n, n.lower()) for n in decision.among]
    # the pick is the item named last before the superlative ("Among operations, investing and financing,
    # investing brought in the most"), else the first named after it ("the most came from operations")
    low, most = sentence.lower(), SUPERLATIVE.search(sentence)
    assert most is not None
    spots = sorted((m.start(), n) for n, key in names
                   for m in re.finditer(rf"(?<![a-z]){re.escape(key)}(?![a-z])", low))
    before = [n for at, n in spots if at < most.start()]
    pick = before[-1] if before else next((n for at, n in spots if at > most.start()), "")
    if pick and pick != decision.choice:
        return f"picks {pick}; the code found {decision.choice}"
    # a part of another breakdown, named with its kind ("The Compute & Networking segment lost the most revenue"
    # where the code ranked market platforms)
    if not spots and decision.among and (other := _part_outside(sentence, decision.among)):
        return f"picks {other}, which is not one of the parts ranked; the code found {decision.choice}"
    # no item named: an amount called the largest (or the least) that is none of the ranked items' ("The figure is
    # $52 million, which is the largest amount among the three") picks something the ranking does not hold
    amounts = _amounts(sentence)
    if not spots and amounts and decision.figures and not any(
            _as_written(v, f) for v in amounts for f in decision.figures):
        return (f"calls {amounts[0].raw.strip()} the {most.group(0).lower()}, which none of the ranked items is; "
                f"the code found {decision.choice}")
    # ... or one of the other ranked items' amounts ("The largest liability ... was $37,350 million", other
    # liabilities', where customer deposits' $110,239 million ranks first), where the ranking is by amount
    if not spots and not question.ranking.by_change and _another_items_amount(amounts, decision, question.ranking):
        return f"calls {amounts[0].raw.strip()} the {most.group(0).lower()}; the code found {decision.choice}"
    return ""


def _another_items_amount(amounts: Sequence[Quantity], decision: Decision, ranking: Ranking) -> Quantity | None:
    """Of the amounts a sentence gives, the first that is one of the ranked figures, where none is the chosen one's
    (the highest, or the lowest, of ``decision.figures``); None otherwise."""
    if not amounts or not decision.figures:
        return None
    top = (max if ranking.highest else min)(decision.figures)
    if any(_as_written(v, top) for v in amounts):
        return None
    return next((v for v in amounts if any(_as_written(v, f) for f in decision.figures)), None)


def _unnamed_other_amount(sentence: str, decision: Decision, question: Question) -> str:
    """Why a sentence that names none of a ranking's items gives the amount of one the code did not pick ('' when it
    does not): "The balance on this line was $4,204 million" (other assets') where marketable securities' 10,241
    million ranks first. A ranking by amount only; a sentence naming an item (any word of four letters or more of
    its name) says whose amount it gives."""
    r = question.ranking
    if not decision.choice or r is None or r.by_change or not decision.among or not decision.figures:
        return ""
    low = sentence.lower()
    if any(re.search(rf"(?<![a-z]){re.escape(w)}", low)
           for n in (*decision.among, *r.names) for w in re.findall(r"[a-z]{4,}", n.lower())):
        return ""
    hit = _another_items_amount(_amounts(sentence), decision, r)
    if hit is None:
        return ""
    return f"gives {hit.raw.strip()}, another ranked item's amount, naming none; the code found {decision.choice}"


_INFLOW = re.compile(r"\b(?:provided|provides|providing|generated|generates|generating|brought\s+in|brings\s+in|"
                     r"inflows?)\b", re.I)
_OUTFLOW = re.compile(r"\b(?:used|uses|using|spent|spends|paid|pays|outflows?|consumed|burn\w*|negative|minus|"
                      r"loss|losses)\b", re.I)


def _sign_flipped(sentence: str, figures: Sequence[float]) -> str:
    """Why a sentence says that a figure the code found negative came in ('' when it does not): "the net cash
    provided by investing activities ($1,287 million)" where investing used 1,287 million (-1,287). An amount
    written without a minus sign whose magnitude is a negative figure's and no positive one's, in a clause (the words
    since the amount or the comma before it) that says provided or generated and not used or spent."""
    negatives = [f for f in figures if f < 0]
    if not negatives:
        return ""
    positives = [f for f in figures if f >= 0]
    last = 0
    for v in _amounts(sentence):
        clause = sentence[last:v.start]
        clause = re.split(r"[,;:]", clause)[-1] if re.search(r"[,;:]\s*\S", clause) else clause
        last = v.end
        if v.value < 0 or not any(_as_written(v, f) for f in negatives) or any(_as_written(v, f) for f in positives):
            continue
        if _INFLOW.search(clause) and not _OUTFLOW.search(clause):
            return f"says {v.raw.strip()} was provided or generated; the code found it negative, an outflow"
    return ""


_SAYS_REGISTERED = re.compile(r"\b(?:registered|listed|trad(?:e|es|ed|ing)\s+on)\b", re.I)
_SECURITY = re.compile(r"(?P<name>\b(?:(?:\d[\d.]*%|[a-z][\w’'-]*)\s+){0,3}(?i:notes?|debentures?|bonds?|paper|"
                       r"securities|stocks?|shares))\b")
"""A security named with the lower-case words or coupon before it ("corporate debt securities", "1.375% Notes"): a
company's name before it is not the class's."""
_ANY_SECURITY = frozenset({"debt", "security", "securities", "any", "its", "our", "their", "the", "of", "registered",
                           "has", "have", "had", "and", "other"})
"""Words of a security named in general ("any debt securities"): debt itself, no class of its own."""


def _unlisted_registered(sentence: str, decision: Decision) -> str:
    """Why a sentence says a security is registered on an exchange that the cover page's list of classes registered
    under Section 12(b) does not hold ('' when it does not): "Apple has registered commercial paper" beside its nine
    note issues, "Amazon has debt securities registered ..., specifically corporate debt securities" where only its
    common stock is (a fair-value table's row is no registration). A class named by its own words (a coupon, a name)
    must share one with a class listed; debt named in general, that some listed class be debt. A sentence that
    denies it says what the list says."""
    if decision.kind != RegisteredSecurities.name or not decision.among or _NEGATED.search(sentence) or (
            not _SAYS_REGISTERED.search(sentence)):
        return ""
    listed = {w for x in decision.among for w in re.findall(r"[a-z0-9.%]+", x.lower())}
    for m in _SECURITY.finditer(sentence):
        words = set(re.findall(r"[a-z0-9.%]+", m.group("name").lower()))
        own = words - _ANY_SECURITY
        if (own and not own & listed) or (not own and "debt" in words and not any(map(is_debt_class,
                                                                                         decision.among))):
            named = re.sub(r"^(?:(?:has|have|had|registered|its|our|their|the|any)\s+)+", "", m.group("name").strip())
            return f"says {named} is registered; the cover page registers only " + "; ".join(decision.among)
    return ""


def _part_outside(sentence: str, among: Sequence[str]) -> str:
    """A part a sentence names with its kind ("the Compute & Networking segment", "the EMEA region") that is none of
    ``among`` ('' when there is none)."""
    kinds = part_kinds()
    for m in _NAMED_PART.finditer(sentence):
        word = m.group("kind").lower()
        if not ({word, word[:-1] if word.endswith("s") else word, word[:-3] + "y" if word.endswith("ies") else word}
                & kinds):
            continue  # "segment", "segments", "categories"
        name = _DETERMINERS.sub("", m.group("name")).strip()
        low = _AND.sub(" and ", name.lower())
        if name and not low.endswith(("'s", "’s")) and not any(
                low in (a := _AND.sub(" and ", x.lower())) or a.split(" (")[0] in low for x in among):
            return name
    return ""


def _item_given_another_amount(sentence: str, decision: Decision) -> str:
    """Why a sentence gives one of the items a ranking or listing stated another amount than the code's ('' when it
    does not): "The largest single liability line ... was $72,968 for long-term lease liabilities" where the code
    stated 75,822 million for the date asked; "EMEA: $123,000 million" where the table gives 79,107. Only amounts
    (a currency or a scale word), each none of the decision's figures as written, next to an item's name."""
    amounts = _amounts(sentence)
    if not decision.among or not amounts or not decision.figures:
        return ""
    low = sentence.lower()
    named = [n for n in decision.among if (key := n.split(" (")[0].strip().lower()) and len(key) > 2
             and re.search(rf"(?<![a-z]){re.escape(key)}(?![a-z])", low)]
    odd = [v for v in amounts if not any(_as_written(v, f) for f in (*decision.figures, *decision.stated))]
    if named and odd:
        return f"gives {named[0].split(' (')[0]} {odd[0].raw.strip()}, which is none of the amounts the code stated"
    return ""


def _amounts(sentence: str) -> list[Quantity]:
    """The amounts a sentence gives: figures with a currency or a scale word ("$72,968", "75,822 million"), not a
    bare count or a percent's number."""
    return [v for v in quantities(sentence) if v.currency or v.scale != 1.0]


def _as_written(v: Quantity, f: float) -> bool:
    """Whether ``f`` is the amount ``v`` writes, to its written precision ("$1.8 billion" is 1,824 million)."""
    return same_number(v, f) or abs(abs(v.value) * v.scale - abs(f)) <= 0.5 * 10 ** -v.decimals * v.scale


def _name_pattern(name: str) -> re.Pattern[str]:
    """A lower-case line item name as a whole phrase."""
    return re.compile(rf"(?<![a-z]){re.escape(name)}(?![a-z])")


@cache
def _item_names() -> list[tuple[str, str, re.Pattern[str]]]:
    """(item, name, pattern) of every name of every vocabulary line item (its key, labels and asked forms), compiled
    once: there are more than the regular expression module keeps compiled."""
    return [(key, f, _name_pattern(f)) for key, item in vocabulary().items.items()
            for f in sorted({x.lower() for x in (key, *item.labels, *item.asked) if x})]


def _term_given_another_value(sentence: str, computation: Computation | None) -> str:
    """Why a sentence gives a term of the code's computation an amount the code read for none of its terms ('' when
    it does not): "Cost of Goods Sold (COGS) for 2022: $94,943 million" where the code's cost of goods sold is
    31,089 (94,943 is net sales). The amount is the first after the term's name and before any other line item's
    (a year, a percent, a list's "1." aside); a name inside another item's ("sales" in "cost of sales") is that
    item's. Any of the computation's terms, steps or result passes, so only a figure from outside it is folded."""
    if computation is None:
        return ""
    allowed = [*(t.value for t in computation.cells), *computation.steps, computation.result]
    low = sentence.lower()
    named = sorted({(m.start(), m.end(), key) for key, _, pattern in _item_names() for m in pattern.finditer(low)})
    for t in computation.cells:
        item = vocabulary().items.get(t.item)
        forms = {f.lower() for f in (t.item, t.label, *(item.labels + item.asked if item else ())) if f}
        for form in sorted(forms, key=lambda f: (-len(f), f)):
            for m in _name_pattern(form).finditer(low):
                if any(a <= m.start() and m.end() <= b and (a, b) != m.span() and key != t.item
                       for a, b, key in named):
                    continue  # "sales" inside "cost of sales"
                stop = min([a for a, _, key in named if a >= m.end() and key != t.item] + [m.end() + 60])
                whole = re.match(r"[\d,.]*", sentence[stop:])  # a number cut at the window's end, whole
                tail = sentence[m.end():stop] + (whole.group(0) if whole else "")
                after = [q for q in answer_numbers(tail) if not q.percent and not _in_points(tail, q)
                         and (q.currency or q.scale != 1 or abs(q.value) >= 100)
                         and not (1900 <= abs(q.value) <= 2100 and not q.decimals and not q.currency)]
                if not after or re.match(r"\s*[/÷]", tail[after[0].end:]):
                    continue  # "by net sales: $41,879 / $135,987": the term is what divides
                q = after[0]
                own = [abs(x.value) for x in computation.cells if x.item == t.item] or [abs(t.value)]
                written_out = re.match(r"\s*\)?\s*[-+/÷×*]", tail[q.end:])  # "(10,387 + 12,483) / 2"
                # "the average accounts payable for FY2016 and FY2017: - FY2016 accounts payable: $25,309": the
                # amount is the later mention's, a year's own
                again = any(_name_pattern(f).search(tail[:q.start].lower()) for f in forms)
                if not (written_out or again) and (
                        why := _one_year_as_the_average(sentence, m.start(), q, own, computation)):
                    return why
                amount = abs(q.value) * q.scale
                other = all(amount > 2 * v * 1e6 or amount * 2 < v for v in own) and all(
                    abs(q.value) > 2 * v or abs(q.value) * 2 < v for v in own)
                if other and not any(_as_written(q, v) for v in allowed):
                    return f"gives {q.raw.strip()} for {sentence[m.start():m.end()]}; the code's is {fmt(t.value)}"
    return ""


_AVERAGED = re.compile(r"\b(?:average|avg\.?|mean)\s+(?:[a-z&'’-]+\s+){0,2}$", re.I)


def _one_year_as_the_average(sentence: str, at: int, q: Quantity, own: list[float], computation: Computation) -> str:
    """Why a sentence gives an averaged term one year's balance ('' when it does not): "Average Inventory for 2022:
    $12,483 million" where the code averaged 10,387 and 12,483 to 11,435. Only where the code worked out an
    average (``Computation.steps``) and the amount is one of the averaged balances, not the average."""
    if not computation.steps or len(own) < 2 or not _AVERAGED.search(sentence[max(0, at - 40):at]):
        return ""
    if not any(_as_written(q, v) for v in own) or any(_as_written(q, v) for v in computation.steps):
        return ""
    average = next((v for v in computation.steps if min(own) <= abs(v) <= max(own)), computation.steps[0])
    return f"gives {q.raw.strip()} for the average, one year's balance; the code's average is {fmt(average)}"


def _arithmetic(sentence: str) -> str:
    """Why a sum or difference the model wrote out does not hold ("$3,215.40 - $460.80 = $3,215.40"), or a
    division (``_division``); '' otherwise. Only plain runs count ("a + b - c = d"); a parenthesised sum is left
    alone. A scale word written once ("$3,676.2 - $460.8 = $3,215.4 million") is the run's."""
    said = answer_numbers(sentence)
    run: list[tuple[str, Quantity]] = []  # (operator before it, figure) joined by + or -
    for a, b in zip(said, said[1:], strict=False):
        between = sentence[a.end:b.start].strip()
        if not run:
            run = [("+", a)]
        if not between and b.raw.lstrip()[:1] in {"-", "−"}:
            between = "-"  # "- $460.80" read as one negative figure
        if between in {"+", "-", "−"}:
            run.append((between, b))
            continue
        if between == "=" and len(run) > 1:
            scales = {q.scale for _, q in run} | {b.scale}
            one_scale = not (1.0 in scales and len(scales) > 1)  # else a scale word written once is the run's
            total = sum((1 if op == "+" else -1) * abs(q.value) * (q.scale if one_scale else 1) for op, q in run)
            result = b.value * (b.scale if one_scale else 1)
            if abs(total - result) > max(0.01, 0.005 * abs(result)):
                shown = " ".join(sentence[run[0][1].start:b.end].split())
                return f"{shown} does not hold ({fmt(total / (b.scale if one_scale else 1))})"
        run = []
    return _division(sentence) or _growth(sentence)


def _division(sentence: str) -> str:
    """Why a division the model wrote out does not hold ("(495 / 21,523) * 100 = 1.91%": it is 2.30); ''
    otherwise. A percent result, or a run times 100, is the quotient times 100; the result may be rounded to the
    places it shows."""
    for m in _RATIO_RUN.finditer(sentence):
        numerator = m.group("a").strip()
        if sentence[:m.start()].rstrip()[-1:] in {"+", "-", "−", "*", "×", "/"} or (
                numerator.endswith(")") and "(" not in numerator):
            continue  # the last term of a longer run: "($25,309 + $34,616) / 2 = $29,963"
        a, b, c = (quantities(m.group(k)) for k in ("a", "b", "c"))
        if not a or not b or not c or not b[0].value:
            continue
        x, y, z = a[0], b[0], c[0]
        one_scale = x.scale == y.scale or 1.0 in {x.scale, y.scale}  # a scale word written once is the run's
        quotient = abs(x.value) / abs(y.value) * (1.0 if one_scale else x.scale / y.scale)
        if m.group("pct") or z.percent:
            quotient *= 100
        if abs(quotient - abs(z.value)) > max(0.5 * 10 ** -z.decimals, 0.005 * abs(z.value)):
            return f"{' '.join(m.group(0).split())} does not hold ({fmt(quotient)})"
    return ""


def _spread(value: float, decimals: int) -> tuple[float, float]:
    """The values a figure may stand for at the precision it is written ("$5.4 billion": 5.35 to 5.45)."""
    half = 0.5 * 10 ** -decimals
    return abs(value) - half, abs(value) + half


_POINTS = re.compile(r"(?<![\d.,])(\d+(?:\.\d+)?)\s*(percentage[\s-]+points?|pp\b|basis[\s-]+points?|bps\b)", re.I)
"""A change written in points ("1.26 percentage points", "120 basis points")."""


def _growth(sentence: str) -> str:
    """Why a change the model gives with its two ends does not hold ("increased by 278.7%, from $10,323 million to
    $14,514 million": those ends make +40.6%; "1.26 percentage points, from 43.26% to 44.26%": they are 1.00 apart;
    points between two amounts); '' otherwise. The change and the "from A to B" must be in one clause, the clause
    must say a direction, and the change must be the clause's only percent or points besides the ends. The ends
    may be rounded as written: only a change outside every one they can stand for is wrong. Two percents as ends
    (a margin) take their difference in points for a percent too."""
    said = answer_numbers(sentence)
    rises, falls = directions()
    cuts = [0, *(m.end() for m in _CLAUSES.finditer(sentence)), len(sentence) + 1]
    for m in _FROM_TO.finditer(sentence):
        a, b = (next((q for q in said if m.start(k) <= q.start < m.end(k)), None) for k in ("a", "b"))
        if a is None or b is None or a.percent != b.percent:
            continue
        lo = max(c for c in cuts if c <= m.start())
        hi = min(c for c in cuts if c > m.start())
        clause = sentence[lo:hi]
        if not (rises.search(clause) or falls.search(clause) or re.search(r"\bchang", clause, re.I)):
            continue
        pcts = [q for q in said if q.percent and lo <= q.start < hi and q is not a and q is not b]
        points = list(_POINTS.finditer(clause))
        if len(pcts) + len(points) != 1:
            continue
        scale_a, scale_b = a.scale, b.scale
        if 1.0 in {scale_a, scale_b}:  # a scale word written once ("from 3,833 to $14,514 million") is both's
            scale_a = scale_b = max(scale_a, scale_b)
        (a0, a1), (b0, b1) = _spread(a.value, a.decimals), _spread(b.value, b.decimals)
        a0, a1, b0, b1 = a0 * scale_a, a1 * scale_a, b0 * scale_b, b1 * scale_b
        overlap = [0.0] if b0 <= a1 and a0 <= b1 else []  # the ends meet at their precision: any small change fits
        apart = [abs(y - x) for x in (a0, a1) for y in (b0, b1)] + overlap
        if pcts:
            raw, (p0, p1) = pcts[0].raw.strip(), _spread(pcts[0].value, pcts[0].decimals)
            if a0 <= 0:
                continue
            possible = [abs(y - x) / x * 100 for x in (a0, a1) for y in (b0, b1)] + (apart if a.percent else overlap)
            worked = f"{(abs(b.value) * scale_b - abs(a.value) * scale_a) / (abs(a.value) * scale_a) * 100:+.1f}%"
        else:
            pt = points[0]
            raw = " ".join(pt.group(0).split())
            per = 100.0 if pt.group(2).lower().startswith(("basis", "bps")) else 1.0
            p0, p1 = (x / per for x in _spread(float(pt.group(1)), len(pt.group(1).partition(".")[2])))
            if not a.percent:  # points are a difference of percents, not of two amounts
                return f"{raw} is not the change from {a.raw.strip()} to {b.raw.strip()}, which are not percents"
            possible = apart
            worked = f"{abs(b.value) - abs(a.value):+.2f} points"
        if p1 < min(possible) - 1e-9 or p0 > max(possible) + 1e-9:
            return f"{raw} is not the change from {a.raw.strip()} to {b.raw.strip()} ({worked})"
    return ""


def _percent_of_an_amount(sentence: str, computation: Computation | None, res: Resolution, stated: bool) -> str:
    """Why a percent the model writes is one of the code's amounts with a percent sign ("a different effective tax
    rate of 2,306%" where 2,306 is the income tax expense; "a 528% increase" where 528 is the change in amount);
    '' otherwise. Only a percent of 100 or more, equal as written to an amount and to none of the code's percents,
    counts: a share that size is rare, an amount called a percent is not."""
    amounts = [c.value for c in res.cells if not c.percent] if stated else []
    percents = [c.value for c in res.cells if c.percent]
    if computation is not None:  # a difference or a series' change is an amount; a ratio or growth a percent
        amounts += [t.value for t in computation.cells]
        if computation.kind in {"series", "difference"}:  # its steps mix amounts and percents: work the percents
            amounts.append(computation.result)
            values = [t.value for t in computation.cells]
            percents += [(b - a) / abs(a) * 100 for a in values for b in values if a]
        else:
            percents += [computation.result, *computation.steps]
    for q in answer_numbers(sentence):
        if not q.percent or abs(q.value) < 100 or q.scale != 1.0:
            continue
        near = 0.5 * 10 ** -q.decimals + 1e-9
        amount = next((a for a in amounts if abs(abs(q.value) - abs(a)) <= near), None)
        if amount is not None and not any(abs(abs(q.value) - abs(p)) <= near for p in percents):
            return f"{q.raw.strip()} is the code's amount {fmt(amount)} written as a percent"
    return ""


def _without_metric(sentence: str, item: str) -> str:
    """``sentence`` without the places where ``item`` is part of a metric's name, not itself ("EBITDA less capex is
    $5,207 million" names capex only as what EBITDA is reduced by)."""
    return re.sub(rf"\b(?:less|minus|net of|after)\s+{re.escape(item.lower())}(?![a-z])", " ", sentence.lower())


def _in_points(text: str, q: Quantity) -> bool:
    """Whether a number of ``text`` is written in points ("140 basis points", "2.1 percentage points"): a change of a
    percent, no amount."""
    at = text.find(q.raw.strip(), q.start)
    return at >= 0 and bool(_POINTS.match(text, at))


def _another_kind_of_figure(sentence: str, q: Quantity, computation: Computation | None) -> bool:
    """Whether a figure cannot be the code's for what it computed, being another kind of number: a change in points
    ("Gross margin increased 140 basis points") where the code computed a level and no change, or an amount in a
    currency ("a $0.6 billion net benefit to the effective tax rate") where it computed a percent. The filing's
    explanation of a change is no contradiction of the level the code computed."""
    if computation is None:
        return False
    if _in_points(sentence, q) and computation.ends is None:
        return True
    return bool(q.currency) and computation.percent


PERCENT_ONLY = "%"
"""The name of a figure of ``_figure_conflict``'s ``support`` that only a percent of the sentence can be (a change in
percent the decision implies: never an amount that is the same digits in another scale)."""


def _figure_conflict(sentence: str, res: Resolution, calendar: Calendar | None, main: Sequence[float],
                     support: Sequence[tuple[float, str]], names: Sequence[str], metric: bool = False,
                     computation: Computation | None = None) -> str:
    """Why a sentence's figure contradicts the code's cells or computation ('' when it does not): a cell of
    another period or row given instead of the one asked, or, in a sentence that names the decided measure, a
    figure that is not the decision's (a term of the computation counts only where the sentence names that
    term: "EBITDA is $1,196 million" gives operating income as EBITDA), or, for a ``metric`` the code computed,
    a ratio or percentage of the model's own ("= 1.31"). A sentence that states the decided
    figure itself only compares it with others ("up from $1,100 million in 2021")."""
    said = answer_numbers(sentence)
    if any(same_number(q, v) for q in said for v in main):
        return ""
    names_it = any(_names(sentence, n) for n in names)
    for q in said:
        if any(same_number(q, value) and (q.percent if item == PERCENT_ONLY else not item or _names(
                _without_metric(sentence, item), item)) for value, item in support):
            continue  # a term or constant of the computation, said as what it is ("multiplying by 100")
        v = judge(q, res, calendar, [])
        if v.status in {"other_period", "other_row"} and res.cells:
            return f"{q.raw} {v.note}"
        if metric and result_like(q, sentence) and v.status != "verified":
            return f"{q.raw} is a result of the model's own, not the code's computation"
        if names_it and v.status != "verified" and not _another_kind_of_figure(sentence, q, computation):
            return f"{q.raw} is not the code's figure for it"
        # a term's cell where the sentence names the term only inside the metric's name ("EBITDA less capex is
        # $5,207 million", 5,207 the capex cell): the term given as the metric, however right the cell; named by
        # any of its item's names ("capital expenditure is $-5,207 million"), it is the term said as what it is
        term = next((t for t in computation.cells if same_number(q, t.value)), None) if (
            metric and names_it and computation is not None) else None
        item = vocabulary().items.get(term.item) if term is not None else None
        if term is not None and not any(_names(_without_metric(sentence, n), n)
                                        for n in (term.label, term.item, *(item.names if item else ()))):
            return f"{q.raw.strip()} is {term.label}, a term of the computation, not its result"
    return ""


QUOTED_SHARE = 0.9
"""A model sentence whose words are at least this share one quoted sentence's, in that sentence, repeats it."""


def _repeats_a_quote(sentence: str, quoted: Sequence[Quote]) -> bool:
    """Whether a sentence repeats a quoted one: its words (citations, a lead-in "[11] states that" and case aside) at
    least ``QUOTED_SHARE`` words of one quote, and at least eight of them."""
    words = re.findall(r"[a-z0-9]+", CITATION.sub(" ", sentence).lower())
    if len(words) < 8:
        return False
    return any(sum(1 for w in words if w in own) >= QUOTED_SHARE * len(words)
               for x in quoted if (own := set(re.findall(r"[a-z0-9]+", x.text.lower()))))


def one_voice(text: str, question: Question, decision: Decision | None, computation: Computation | None,
              res: Resolution, calendar: Calendar | None, stated: bool, quoted: Sequence[Quote] = ()) -> Voiced:
    """The model's ``text`` without the sentences that contradict what the code decided: a verdict
    (``decision``), a computation, or the cells it ``stated``. Unchanged when the code decided nothing or the
    model refused. A sentence that repeats one of the ``quoted`` sentences (``_repeats_a_quote``) is the filing's,
    shown as it is: its figures of another period ("AWS sales increased 27% in Q3 2022, and 32% for the nine
    months ...") say what the filing says, no claim of the model's against the code."""
    if refuses(text) or not (decision is not None or computation is not None or stated):
        return Voiced(text)
    main: list[float] = [*(decision.figures if decision else ())]
    support: list[tuple[float, str]] = []
    if computation is not None:
        main.append(computation.result)
        support = [(t.value, name) for t in computation.cells for name in (t.item, t.label)]
        support += [(x, "") for x in computation.steps]  # an average or derived total: whatever the sentence calls it
        terms = [t.value for t in computation.cells]
        # a partial sum of the terms is the code's arithmetic written out ("EBITDA = 11,512 + 2,763 = 14,275")
        support += [(sum(c), "") for n in (2, 3) if len(terms) >= n for c in combinations(terms, n)]
    if decision is not None:  # a ranking's year before and its changes, a change in percent only as a percent
        support += [(x, "") for x in decision.stated] + [(x, PERCENT_ONLY) for x in decision.percents]
    if stated and computation is None:
        main += [v for c in res.cells for v in (c.value, c.amount)]
    elif stated:
        # under a computed metric the stated cells are its inputs: quoting one does not vouch for the sentence
        # ("COGS $94,943 million / inventory $12,483 million = 7.6" under a computed 2.72)
        support += [(v, c.row) for c in res.cells for v in (c.value, c.amount)]
    names = [n for m in question.measures for n in m.names] + ([question.ratio[0]] if question.ratio else [])
    ends = (computation.ends if computation is not None else None) or (decision.ends if decision else None)
    term_ends = _term_ends(_term_rows(computation))
    used = [(n, t.value) for t in computation.cells for n in (t.label, t.item)] if computation is not None else []
    used += [(n, c.value) for c in res.cells for n in (c.row, c.item)] if stated else []
    points = _period_points(question, decision, computation, res, stated)
    kept: list[str] = []
    folded: list[str] = []
    last_folded = False
    for sentence in (s for s in _SENTENCES.split(text.strip()) if s.strip()):
        why = ""
        if _repeats_a_quote(sentence, quoted):
            kept.append(sentence)
            last_folded = False
            continue
        if last_folded and _CONTINUES.match(sentence) and not _stands_on_the_code(sentence, ends):
            why = "continues the sentence before it, which contradicts the code"
        if not why and decision is not None and decision.verdict is not None:
            why = _verdict_conflict(sentence, decision, question)
        if not why and decision is not None:
            why = (_other_choice(sentence, decision, question) or _item_given_another_amount(sentence, decision)
                   or _unnamed_other_amount(sentence, decision, question) or _unlisted_registered(sentence, decision))
        if not why:
            why = (_unsuited_claim(sentence, question, computation, decision)
                   or _moves_an_unsuited_metric(sentence, decision, names))
        if not why and stated:
            why = _scale_conflict(sentence, question, res) or _misscaled(sentence, res)
        if not why:
            why = _claims_absent(sentence, used) or _sign_flipped(sentence, main)
        if not why:
            why = (_reversed(sentence, ends) or _reversed_term(sentence, term_ends)
                   or _for_another_period(sentence, points, calendar)
                   or _against_the_later(sentence, ends, computation, points, calendar))
        if not why:
            why = (_own_definition(sentence, computation, names) or _own_arithmetic(sentence, computation, names)
                   or _arithmetic(sentence))
        if not why:  # after the arithmetic: "fell 1.4% ... from A to B" is first a change that is not A to B's
            why = _other_start(sentence, ends) or _own_answer(sentence, computation)
        if not why:
            why = _percent_of_an_amount(sentence, computation, res, stated)
        if not why:
            why = _figure_conflict(sentence, res, calendar, main, support, names,
                                   computation is not None and computation.kind in {"formula", "ratio"}, computation)
        if not why:
            why = (_result_as_other_item(sentence, question, computation)
                   or _term_given_another_value(sentence, computation) or _change_as_level(sentence, computation))
        if why:
            folded.append(f"{sentence} ({why})")
        else:
            kept.append(sentence)
        last_folded = bool(why)
    # a citation or a step's number left alone after its sentence was folded ("... is -4,625. [1]", "1. 2. 3.")
    # says nothing
    kept = [k for k in kept if _A_WORD.search(CITATION.sub("", k))] if folded else kept
    if computation is not None and folded:
        # the model redid the code's computation and got a step of it wrong: its other steps are of the same
        # working ("1. Identify the operating income ... 4. divide by operating income"), not an explanation of
        # the code's; they are shown apart with it, and only its sentences that say the result stay
        working = [k for k in kept if _WORKING.search(k)]
        folded += [f"{k} (the model's own working, beside a step that contradicts the code)" for k in working]
        kept = [k for k in kept if k not in working]
    return Voiced(" ".join(kept), folded)


def with_stated(text: str, extractive: str, decided: bool, yes_no: bool, folded: bool) -> str:
    """The answer's text with what the code stated (``extractive``): first, with the model's sentences after it;
    after the model's Yes or No when the code decided no verdict; alone, with a note, when the model found
    nothing or said only what the code contradicts (``folded``)."""
    if not extractive:
        return text
    if refuses(text):
        said = ("did not answer from these sources" if not folded
                else "contradicted what the code found; its sentences are shown apart, marked")
        return f"{extractive}\n\n(The model {said}.)"
    if decided:
        return f"{extractive}\n\n{LEADING_VERDICT.sub('', text, count=1)}".strip()
    if yes_no:
        return f"{text}\n\n{extractive}"  # the model's Yes or No leads; the cells follow
    return f"{extractive}\n\n{text}"


def searched_summary(retrieval: Retrieval) -> dict[str, object]:
    """What was searched, for a refusal to show: tier, thresholds, documents, scope, routing, evidence count."""
    return {
        "tier": retrieval.tier,
        "thresholds": retrieval.thresholds,
        "documents": sorted({e.doc for e in retrieval.evidence}) or retrieval.scope,
        "scope": retrieval.scope,
        "routed": retrieval.route,
        "evidence": len(retrieval.evidence),
    }


@dataclass
class CellWork:
    """What the code finds for a question before the model runs."""

    resolution: Resolution
    computation: Computation | None
    calendar: Calendar | None
    gap: str
    """A refusal reason: the asked period is outside what the searched filings cover ('' when covered)."""
    extractive: str
    """The answer stated from the cells or the computation ('' when the resolver is not confident)."""
    decision: Decision | None = None
    """The verdict decided in code (Yes or No, a ranking, an unsuited metric), or None."""
    parts: list[CellWork] = field(default_factory=list)
    """For a question of several parts, each part's own work (the fields above then join them)."""

    @property
    def verdict(self) -> str:
        """The verdict's text ('' when none)."""
        return self.decision.text if self.decision is not None else ""


@dataclass(frozen=True)
class Written:
    """What the model wrote for an answer (``Answerer.generate``)."""

    text: str
    tokens: int
    """Completion tokens, every prompt's."""
    asked: int
    """Prompts sent."""
    summarised: bool
    """The text is the quotes' summary (else it was written from the whole evidence)."""
    draft: str = ""
    """The model's first summary where the summary check flagged more in it than in the one that replaced it."""
    draft_flags: tuple[str, ...] = ()
    """What the check flagged in ``draft``."""
    flags: tuple[str, ...] | None = None
    """What the summary check flagged in ``text`` where it was read already (a summary asked once more); None where it
    was not."""


REVISED = "\n\n*The summary check flagged words the quotes do not state; the model writes it again.*\n\n"
"""Streamed between a flagged summary and the one asked again (``narrative.revise``); the finished answer replaces
both."""


def stated_once(parts: Sequence[CellWork]) -> list[CellWork]:
    """The parts' work with a statement made by a part before taken from the later part: "..., and what accounts for
    the change?" of a change just computed asks its words, not the figure again."""
    return [replace(p, computation=None, extractive="", decision=None)
            if p.extractive and any(p.extractive == o.extractive for o in parts[:k]) else p
            for k, p in enumerate(parts)]


def joined(question: Question, parts: Sequence[CellWork]) -> CellWork:
    """One question's work from the work of its parts: each part's statement under its own words, the cells and
    computations of all of them (for the checks)."""
    first = parts[0]
    res = Resolution(asked=first.resolution.asked, cells=[c for p in parts for c in p.resolution.cells],
                     candidates=[c for p in parts for c in p.resolution.candidates],
                     measures=[m for p in parts for m in p.resolution.measures],
                     confident=any(p.resolution.confident for p in parts), scale=first.resolution.scale)
    comps = [p.computation for p in parts if p.computation is not None]
    computation = None
    if comps:
        computation = Computation(comps[-1].kind, comps[-1].result, "; ".join(c.text for c in comps),
                                  [t for c in comps for t in c.cells], comps[-1].definition_note,
                                  [s for c in comps for s in (c.result, *c.steps)],
                                  percent=all(c.percent for c in comps))
    said = "\n".join(f"({k}) {q.text.strip()}: {p.extractive}" if "\n" not in p.extractive
                     else f"({k}) {q.text.strip()}:\n{p.extractive}"
                     for k, (q, p) in enumerate(zip(question.parts, parts, strict=True), 1) if p.extractive)
    decisions = [p.decision for p in parts if p.decision is not None]
    return CellWork(res, computation, first.calendar, next((p.gap for p in parts if p.gap), ""), said,
                    decisions[0] if len(decisions) == 1 else None, list(parts))

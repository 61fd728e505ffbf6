"""Number checks: every figure of an answer judged against the cells the question asked for.

A figure is found when it is a resolved cell of the asked row and period, the code's computation, or (for a
question no cell answers) stated in the cited text; else it is flagged with what it is ("is Net sales, fiscal
2021 ..."), or as missing. The code's own statements (cells, computation) are checked by construction.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from engine.ask.cells import Resolution, judge
from engine.ask.computations import Computation
from engine.ask.formulas import fmt
from engine.ask.question import Question
from engine.numbers import Quantity, checkable, derived_from, quantities, same_number
from engine.periods import MONTH_PATTERN, Calendar, asked_period, number_word
from engine.sentences import split_sentences
from engine.types import Check, Citation, Evidence, Region
from engine.vocabulary import change_words

REFUSAL = re.compile(
    r"insufficient information|not (?:contain|provide|include|mention|available|answerable)|"
    r"cannot (?:be )?(?:determine|determined|answer|answered|find|found)|no information|not enough information|"
    r"unable to (?:determine|find|answer)|does not (?:say|state|specify)",
    re.I,
)
"""Phrases that make an answer's first sentence a refusal (``refuses``)."""
CITATION = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")
"""A citation marker an answer writes: "[2]", "[1, 3]" (the numbers in its group)."""


def refuses(text: str) -> bool:
    """Whether an answer declines: it is empty, or its first sentence says the sources do not answer
    ("Insufficient information: ...", "The filings do not mention any acquisition."). An answer that gives something
    and then names what the sources leave out ("Amazon repurchased no shares [2]. The quotes do not state the
    implications.") answers; a bare Yes or No before a refusal ("No. The sources do not mention any acquisition.")
    does not. The engine's refusal flag and the evaluation's scorer read this one."""
    # a bare Yes or No before it says nothing of the sources: "No. Insufficient information: ..." declines
    sentences = split_sentences(_VERDICT_FIRST.sub("", text, count=1))
    return not sentences or bool(REFUSAL.search(sentences[0]))


_VERDICT_FIRST = re.compile(r"^\s*(?:yes|no)\b\s*[.,:;!-]+", re.I)


def evidence_numbers(e: Evidence, region: Region | None) -> list[float]:
    """Every number in a piece of evidence: its text, and its table's cells when it is a table."""
    vals = [abs(q.value) for q in quantities(e.text)]
    if region is not None and region.table:
        for row in region.table.get("rows", []):
            if isinstance(row, dict):
                vals += [abs(float(x)) for x in row.get("numbers", []) if isinstance(x, int | float)]
                vals += [abs(q.value) for val in row.get("values", []) if val for q in quantities(str(val))]
    return vals


_NOT_FIGURES = re.compile(
    rf"\b{MONTH_PATTERN}\s*\d{{1,2}}(?:st|nd|rd|th)?\b,?"
    rf"|\b\d{{1,2}}\s+{MONTH_PATTERN}"
    r"|\b(?:p|pp|page|pages|note|item|part|section)\.?\s*\d+[a-z]?(?:\s*[-–]\s*\d+)?\b"
    r"|\b\d+[-\s](?:weeks?|months?)\b|\b(?:three|six|nine|twelve)\s+months\b"
    # a name with a number in it: "COVID-19", "F-35", "CH-53K" (no minus sign, no figure); a product's number after
    # its capitalised name: "Office 365", "Windows 10", "iPhone 14" (a short whole number, no unit after it)
    r"|\b[A-Za-z]+-\d+[A-Za-z]*\b"
    r"|(?-i:\b(?:[A-Z][a-z]+|[a-z]+[A-Z][A-Za-z]*)\s+\d{1,3}\b)(?![\d,.%]|\s*(?:percent|million|billion|thousand|"
    r"basis|points?|bps|times|x\b|[-\u2013]))"
    # a ratio written out as a percent: "(495 / 21,523) * 100", "multiplying by 100" (the factor is no figure)
    r"|(?:[*×]\s*|\bx\s+|\bmultipl\w+\s+(?:it\s+|this\s+|that\s+)?by\s+)100\b(?![,.]\d)",
    re.I,
)


def answer_numbers(text: str, count: str = "") -> list[Quantity]:
    """The figures of an answer that are checked: dates, page and note references, period lengths ("52 weeks"),
    the 100 that turns a ratio into a percent, names with a number ("COVID-19", "F-35", "Office 365"), years,
    small counts and list numbers left out. When the question
    asks for a ``count`` (``counted_noun``), the whole numbers the answer gives are its answer and are checked,
    small ones too."""
    blanked = _NOT_FIGURES.sub(lambda m: " " * len(m.group(0)), text)
    return [q for q in quantities(blanked) if checkable(q) or (count and is_count(q))]




def _noun_stem(noun: str) -> str:
    """What the singular ``counted_noun`` and its plural begin with ("company" -> "compan")."""
    return noun[:-1] if noun.endswith("y") else noun


def is_count(q: Quantity) -> bool:
    """A whole number without currency, scale or percent, and not a year: how an answer gives a count."""
    plain = not q.decimals and not q.percent and not q.currency and q.scale == 1.0 and q.value >= 0
    return plain and (q.value < 10 or checkable(q))


_RESULT_UNIT = re.compile(r"\s*(?:days?|times|x)\b", re.I)


def result_like(q: Quantity, text: str) -> bool:
    """Whether an answer's number reads as a metric's result rather than an amount from a statement: a percent,
    a ratio (decimals, under 100, no currency or scale), or a number of days or times."""
    if q.currency or q.scale != 1.0:
        return False
    return q.percent or (q.decimals > 0 and abs(q.value) < 100) or bool(_RESULT_UNIT.match(text[q.end:q.end + 8]))


def count_stated(q: Quantity, noun: str, texts: Sequence[str]) -> bool:
    """Whether a source states the count: the number (digits or word) with the counted noun within four words
    after it ("10 vendors", "three reportable segments") or just before it ("Number of employees: 12,500").
    A small number alone is everywhere in a filing (notes, pages, footnotes), so it proves nothing."""
    n = int(abs(q.value))
    forms = {f"{n:,}", str(n), number_word(n)} - {""}
    num = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    stem = re.escape(_noun_stem(noun))
    after = re.compile(rf"(?<![\w.,])(?:{num})(?![\w.,]\d)(?:\W+\w+){{0,3}}?\W+{stem}\w*", re.I)
    before = re.compile(rf"\b{stem}\w*\W+(?:\w+\W+){{0,3}}?(?:{num})(?![\w.,]\d)", re.I)
    for t in texts:
        if any(not _REFERENCE_BEFORE.search(t[: m.start()]) for m in after.finditer(t)) or before.search(t):
            return True
    return False


_REFERENCE_BEFORE = re.compile(r"\b(?:note|page|item|part|section|figure|table|exhibit|chart|schedule)\s*$", re.I)
"""A number right after these words is a reference ("Note 2. Line plots"), not a count."""


_MARKER_AS_FIGURE = re.compile(r"(?:[$€£]\s*)?\[(\d{1,3})\](?=\s*(?:%|percent\b|million\b|billion\b|thousand\b|"
                               r"per\s+share\b))|[$€£]\s*\[(\d{1,3})\]", re.I)
"""A citation marker where a figure belongs ("which cost [2] million", "the revenue from AWS was [2]%"): the model
copied the source number, not the figure."""


def check_numbers(
    text: str,
    cited: Sequence[Evidence],
    regions: dict[int, Region] | None = None,
    computed: Sequence[float] = (),
    resolution: Resolution | None = None,
    calendar: Calendar | None = None,
    question: Question | None = None,
    quoted: Sequence[str] = (),
) -> list[Check]:
    """Every figure of the answer judged against the cells the question asked for.

    A number is ``verified`` (found) only when it is a resolved cell of the asked row and period, or the code's
    computation from cells. One found in another period's column or another row is flagged with what it is
    ("is Net sales, fourth quarter (13 weeks ended January 28, 2023)"). For a question no table cell answers
    (a narrative question), a number the cited text states counts as found (``in_text``); where cells were
    resolved, the same number is flagged, because the asked cell says otherwise, unless the answer is the summary
    of ``quoted`` sentences and one of them states it (which of its figures is told for what, the summary check
    judges; a cell of another row or period is flagged as such first). The count a "how many" question
    asks for is found only where a source states it next to what is counted (``count_stated``): a count the
    model made itself, of charts, say, is flagged as such."""
    regions = regions or {}
    pool = [(v, e) for e in cited for v in evidence_numbers(e, regions.get(e.region_id or -1))]
    cells_asked = bool(resolution and resolution.cells)
    in_quotes = [v for t in quoted for v in quantities(t)]
    checks: list[Check] = []
    noun = question.counted if question is not None else ""
    said = answer_numbers(text, noun)
    # a metric the code defines but could not compute: a ratio, margin or cycle the model gives is its own
    # arithmetic unless it is worked out from found figures (``derived``, below)
    uncomputed = question is not None and not computed and question.formula is not None
    for q in said:
        if uncomputed and result_like(q, text) and not any(same_number(q, v.value) for v in in_quotes):
            # (a figure of the metric a quoted sentence states is the filing's: "an authorized return on equity of
            # 9.8%")
            checks.append(Check(q.raw, False, "", "the model's own figure for the metric asked: the code could not "
                                "compute it from the cells", "missing", q.value))
            continue
        if noun and is_count(q) and not cells_asked:
            hit = next((e for e in cited if count_stated(q, noun, [e.text])), None)
            if hit is not None:
                checks.append(Check(q.raw, True, f"{hit.doc} p.{hit.page}", "stated in the cited text", "in_text",
                                    q.value))
            else:
                checks.append(Check(q.raw, False, "", f"a count no cited source states (of {noun}s): counted by "
                                    "the model, check it on the pages", "missing", q.value))
            continue
        if resolution is not None:
            verdict = judge(q, resolution, calendar, computed)
        else:
            verdict = judge(q, Resolution(asked=asked_period("")), calendar, computed)
        if (verdict.status == "verified" and verdict.cell is not None and resolution is not None
                and _change_before().search(text[max(0, q.start - 40):q.start])
                and round(abs(q.value), 6) not in row_changes(resolution)):
            level = verdict.cell  # "fell by 909 million" where 909 is the year's level, not its change
            checks.append(Check(q.raw, False, f"{level.doc} p.{level.page}",
                                f"is {level.row}, {level.period_name(calendar)} (p. {level.page}): a level, given as "
                                "a change", "level_as_change", q.value))
            continue
        if verdict.status in {"verified", "computed"}:
            checks.append(Check(q.raw, True, "computed" if verdict.status == "computed" else
                                f"{verdict.cell.doc} p.{verdict.cell.page}" if verdict.cell else "",
                                verdict.note, verdict.status, q.value))
            continue
        if verdict.status in {"other_period", "other_row"}:
            where = f"{verdict.cell.doc} p.{verdict.cell.page}" if verdict.cell else ""
            checks.append(Check(q.raw, False, where, verdict.note, verdict.status, q.value))
            continue
        hit = next((e for pv, e in pool if same_number(q, pv)), None)
        if hit is None:
            checks.append(Check(q.raw, False, "", "not found in the cited evidence", "missing", q.value))
        elif cells_asked and not any(same_number(q, v.value) for v in in_quotes):
            checks.append(Check(q.raw, False, f"{hit.doc} p.{hit.page}",
                                "in the cited evidence, but not the cell of the row and period asked", "in_text",
                                q.value))
        else:
            checks.append(Check(q.raw, True, f"{hit.doc} p.{hit.page}", "stated in the cited text", "in_text",
                                q.value))
    # a difference, sum, ratio or change the answer works out from its own figures, each of them found
    found = [q for q, c in zip(said, checks, strict=True) if c.found]
    for i, (q, c) in enumerate(zip(said, checks, strict=True)):
        if c.status == "missing" and (how := derived_from(q, found)):
            checks[i] = Check(q.raw, True, "computed", f"worked out in the answer: {how}", "derived", q.value)
    for m in _MARKER_AS_FIGURE.finditer(text):  # "which cost [2] million", "grew [1]%": no figure was given
        checks.append(Check(m.group(0), False, "", "a source number written where a figure belongs: the answer "
                            "gives no figure here", "missing", float(m.group(1) or m.group(2))))
    return checks


def stated_checks(
    extractive: str, resolution: Resolution | None, computation: Computation | None, calendar: Calendar | None
) -> list[Check]:
    """Checks for what the code stated before the model: each resolved cell it states (found, by construction)
    and the computation's result."""
    if not extractive:
        return []
    out: list[Check] = []
    for c in resolution.cells if resolution else []:
        if resolution is not None and (shown := resolution.shown(c)) in extractive:
            out.append(Check(shown, True, f"{c.doc} p.{c.page}", f"{c.row}, {c.period_name(calendar)}, p. {c.page}",
                             "verified", c.value))
    if computation is not None:
        shown = next((q.raw for q in quantities(extractive) if same_number(q, computation.result)),
                     fmt(computation.result))
        out.append(Check(shown, True, "computed", "computed from the cited cells", "computed", computation.result))
    return out


def definition_flag(check: Check, computation: Computation) -> Check:
    """A check of the computation's result flagged with the other common definition's value
    (``Computation.definition_note``): the figure is right by one definition and not by the other, so it is
    not shown as verified."""
    said = quantities(check.value)
    if check.status != "computed" or not said or not same_number(said[0], computation.result):
        return check
    return Check(check.value, False, "computed", computation.definition_note, "definition", check.number)


def cited_numbers(text: str) -> list[int]:
    """The numbers a text cites by ``[n]`` (or ``[n, m]``) markers, each once, in the order first cited."""
    return list(dict.fromkeys(int(m) for group in CITATION.findall(text) for m in re.findall(r"\d+", group)))


def cited_markers(text: str, used: Sequence[Evidence]) -> list[Citation]:
    """The sources a text cites by ``[n]`` (or ``[n, m]``) markers, each once, in marker order."""
    markers = sorted(cited_numbers(text))
    return [Citation(marker=n, doc=used[n - 1].doc, page=used[n - 1].page, modality=used[n - 1].modality,
                     region_id=used[n - 1].region_id, chunk_id=used[n - 1].chunk_id)
            for n in markers if 1 <= n <= len(used)]


def code_figures(computation: Computation | None, extractive: str) -> list[float]:
    """The figures the code itself produced (a computation's result, terms and steps; the change a verdict
    states, "-41.7%", from two cells): the checks accept them in the model's text as computed, not cited."""
    figures = [computation.result, *(c.value for c in computation.cells), *computation.steps] if computation else []
    return figures + [x.value for x in quantities(extractive) if x.percent]


def inferred_citations(
    text: str, used: Sequence[Evidence], regions: dict[int, Region] | None = None
) -> list[Citation]:
    """Sources for an answer that cites none: for each number it quotes (years and small integers aside), the
    best-ranked source that holds it, marked ``inferred``. Small models sometimes drop the ``[n]`` markers;
    this keeps every quoted number traceable to a page instead of leaving the answer unsourced."""
    regions = regions or {}
    pools = [evidence_numbers(e, regions.get(e.region_id or -1)) for e in used]
    found: list[int] = []
    for q in answer_numbers(text):
        n = next((i for i, pool in enumerate(pools) if any(same_number(q, pv) for pv in pool)), None)
        if n is not None and n not in found:
            found.append(n)
    return [Citation(marker=n + 1, doc=used[n].doc, page=used[n].page, modality=used[n].modality,
                     region_id=used[n].region_id, chunk_id=used[n].chunk_id, inferred=True) for n in sorted(found)]


# --- computations -----------------------------------------------------------------------------------------


def counts_what_is_asked(question: Question, res: Resolution) -> bool:
    """For a "how many" question, whether a resolved cell's row names what is counted ("Number of employees" for
    "How many employees ..."); True for a question that counts nothing."""
    noun = question.counted
    if not noun:
        return True
    return any(_noun_stem(noun) in c.row.lower() for c in res.cells)


def row_changes(res: Resolution) -> set[float]:
    """The changes between the asked row's periods ("decreased by $17 million" is 177 - 160, not a cell of 17)."""
    if not res.cells:
        return set()
    row = [c for c in (*res.cells, *res.candidates) if c.row == res.cells[0].row]
    return {round(abs(a.value - b.value), 6) for a in row for b in row if a.value != b.value}


@cache
def _change_before() -> re.Pattern[str]:
    """The words before a figure that give it as a change ("decreased by $", "an increase of", "up"; the change
    words of the vocabulary's ``[directions]``)."""
    return re.compile(rf"(?:{change_words().before()})\s+(?:of\s+|by\s+)?(?:approximately\s+|about\s+)?"
                      r"(?:[$\u20ac\u00a3\u00a5]\s?)?$", re.I)


def disagreement(text: str, res: Resolution, calendar: Calendar | None, computation: Computation | None,
                 given: Sequence[float] = ()) -> str:
    """A note when the model's figures are not the resolved cells: another period's or another row's value. A figure
    given as a change ("decreased by $17 million") that is the difference between two periods of the asked row is
    that change, not another row's cell of the same number; one the question states itself (``given``: "Amazon's
    $1.5 billion revolving credit facility") is the question's."""
    if not res.cells or refuses(text):
        return ""
    computed = [computation.result, *[t.value for t in computation.cells]] if computation else []
    changes = row_changes(res)
    wrong = []
    stated = {round(v, 6) for v in given}
    for q in answer_numbers(text):
        if _change_before().search(text[max(0, q.start - 40):q.start]) and round(abs(q.value), 6) in changes:
            continue
        if {round(c, 6) for c in q.candidates()} & stated:
            continue  # the question's own figure, repeated
        v = judge(q, res, calendar, computed)
        if v.status in {"other_period", "other_row"}:
            wrong.append(f"{q.raw} {v.note}")
    if not wrong:
        return ""
    asked = "; ".join(f"{c.shown} ({c.row}, {c.period_name(calendar)}) [{c.marker}]" for c in res.cells[:3])
    # a cell the resolver is not sure of (a row named by the question's own words, a period of several columns) is
    # not said to be the one asked
    which = "The cell asked for" if res.confident else "The nearest cell found (not certain to be the one asked)"
    return f"\n\nNote: the model's {'; '.join(wrong)}. {which}: {asked}."

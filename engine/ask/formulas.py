"""Metrics an analyst defines in the question, evaluated from table cells.

"Fixed asset turnover ratio is defined as: FY2019 revenue / (average PP&E between FY2018 and FY2019)",
"DPO is defined as: 365 * (average accounts payable between FY2016 and FY2017) / (FY2017 COGS + change in
inventory between FY2016 and FY2017)", "the FY2017 - FY2019 3 year average of capex as a % of revenue": a
1.5B model cannot do this arithmetic reliably, so the engine does it from the cells of the retrieved
statements and shows every term. Standard metrics the question names without defining them (working capital
ratio, inventory turnover, free cash flow, EBITDA margin, ...) use their textbook definitions.

Grammar of a definition: terms joined by ``+ - * /`` and parentheses; a term is a number, ``[FYyyyy] item``
(the question's year when none is given), ``average item between FYa and FYb`` or ``change in item between
FYa and FYb``. Items are looked up by row label with financial synonyms; nothing is guessed: one term not
found and there is no result.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.vocabulary import LineItem, canonical, vocabulary

if TYPE_CHECKING:
    from engine.ask.question import Question

_OUTFLOWS = re.compile(r"capex|purchase|payment|cost|expense|depreciation|amortization|d&a|cogs", re.I)
"""Words of a line item the vocabulary does not know that make it an outflow ("purchases of intangibles")."""
_FY = r"(?:fy|fiscal(?: year)?)?\s*'?((?:19|20)\d{2})"
_END = r"(?:(?:the\s+)?(?:end|close)\s+of\s+|year[- ]end\s+)?"
"""The words a year's balance may be named with ("between the end of fiscal 2016 and the end of fiscal 2017")."""


@dataclass
class Term:
    """One looked-up cell: what the question called it, the row and column it came from."""

    item: str
    label: str
    column: str
    value: float
    marker: int
    scale: float = 1.0
    """Its table's scale (1e6 for "in millions"; 1 for percents, per-share amounts and unknown): two amounts from
    tables of different scales are brought to one before they are combined (``in_scale_of``)."""


def in_scale_of(t: Term, base: Term) -> float:
    """``t``'s value in ``base``'s scale where both are amounts of stated scales (5,854,430 in thousands is 5,854.43
    beside a figure in millions); its own value otherwise."""
    if t.scale > 1 and base.scale > 1 and t.scale != base.scale:
        return t.value * t.scale / base.scale
    return t.value


@dataclass
class Result:
    value: float
    text: str
    terms: list[Term]
    percent: bool
    year_end: Result | None = None
    """The same metric on year-end balances, where the textbook definition averages them and the question does
    not say which (return on assets: analysts use both); None otherwise."""
    steps: list[float] = field(default_factory=list)
    """The definition's constants and the values worked out on the way (an average balance, a derived total),
    which an answer may quote."""


Lookup = Callable[[str, str], Term | None]


def is_outflow(item: str) -> bool:
    """Whether an item is an amount analysts quote as positive although filings print it as an outflow: the
    vocabulary's ``outflow`` flag for an item it knows; for words it does not know, whether they name a cost,
    an expense or a payment."""
    known = vocabulary().items.get(canonical(item))
    if known is not None:
        return known.outflow
    return bool(_OUTFLOWS.search(canonical(item)))


_SIGNED_ROW = re.compile(r"/\s*\(|\)\s*/|\((?:benefit|gain|income|loss)(?:es|s)?\b", re.I)
"""A row label that says what its parentheses mean ("Provision/(benefit) for taxes on income", "Other
(income)/deductions", "Provision for (benefit from) income taxes"): its sign is the amount's, not an outflow's."""


def as_spent(item: str, row: str, value: float) -> float:
    """An item's amount as analysts quote it: an outflow's printed (131) as 131 (``is_outflow``), unless its row's
    label says what a negative means ("Provision/(benefit) for taxes on income (71)" is a benefit of 71: -71)."""
    return abs(value) if is_outflow(item) and not _SIGNED_ROW.search(row) else value


def spent_sign(item: str, amounts: Sequence[float]) -> float:
    """-1 where an outflow item is printed negative in every one of ``amounts`` ("Interest expense (617)"), so that
    the amounts read as what was spent; else 1."""
    return -1.0 if is_outflow(item) and all(a <= 0 for a in amounts) else 1.0


# --- the expression --------------------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(\(|\)|\*|/|\+|(?<=\s)-(?=\s)|×|÷|[^()*/+×÷]+?(?=\s*(?:\(|\)|\*|/|\+|\s-\s|×|÷|$)))")


_LABEL_SLASH = re.compile(r"(?<=[a-z])/\([a-z]+\)|\([a-z]+\)/(?=[a-z])", re.I)
"""A slash that joins a row label's two readings, not a division: a filing's signed rows are labelled
"Provision/(benefit) for taxes on income", "Income/(loss) from operations", "(Gain)/loss on sale", and a definition
quotes them so ("provision/(benefit) for taxes on income / income before provision/(benefit) ...")."""
_HELD = str.maketrans({"/": "\ue000", "(": "\ue001", ")": "\ue002"})
_FREED = str.maketrans({"\ue000": "/", "\ue001": "(", "\ue002": ")"})


def _tokens(expr: str) -> list[str]:
    out, pos = [], 0
    expr = _LABEL_SLASH.sub(lambda m: m.group(0).translate(_HELD), expr.strip())
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if not m or m.end() == pos:
            raise ValueError(expr[pos:])
        tok = m.group(1).strip()
        if tok:
            out.append({"×": "*", "÷": "/"}.get(tok, tok).translate(_FREED))
        pos = m.end()
    return out


def formula_items(expr: str) -> list[LineItem]:
    """The vocabulary's line items a formula's terms name, in order ("gross profit / revenue * 100": gross profit,
    revenue; an averaged balance, "average pp&e between {prev} and {year}", names pp&e)."""
    bare = re.sub(r"\baverage\s+|\s+between\s+\{prev\}\s+and\s+\{year\}", "", expr)
    return [it for tok in _tokens(bare) if (it := vocabulary().items.get(tok)) is not None]


def evaluate(expr: str, year: str, lookup: Lookup, derive: bool = True,
             steps: list[float] | None = None) -> tuple[float, str, list[Term]]:
    """Value of a definition, the same expression with every term's value, and the cells used. An item no cell
    reports is computed from its vocabulary ``derived`` definition (one level deep) when ``derive``. The
    definition's constants and the values of its averages, changes and derived items are appended to
    ``steps``."""
    toks = _tokens(expr)
    terms: list[Term] = []
    pos = 0
    worked = steps if steps is not None else []

    def find(item: str, y: str) -> tuple[float, str]:
        t = lookup(item, y)
        if t is not None and any(canonical(o.item) != canonical(item) and (o.label, o.column, o.marker, o.value) ==
                                 (t.label, t.column, t.marker, t.value) for o in terms):
            raise LookupError(f"{item} {y}: the cell of another term")  # two terms are never one cell (a part's
            # rows of two blocks may share a label, "Services" under "Net sales:" and "Gross margin:", not a value)
        if t is not None:
            value = in_scale_of(t, terms[0]) if terms else t.value
            terms.append(t)
            return value, fmt(value)
        known = vocabulary().items.get(canonical(item))
        if derive and known is not None and known.derived:
            try:
                v, s, used = evaluate(known.derived, y, lookup, derive=False, steps=worked)
            except (LookupError, ValueError, ZeroDivisionError):
                pass
            else:
                terms.extend(used)
                worked.append(v)
                return v, f"({s})"
        raise LookupError(f"{item} {y}")

    def atom(text: str) -> tuple[float, str]:
        text = text.strip().strip(",;:")
        if re.fullmatch(r"\d+(?:\.\d+)?", text):
            worked.append(float(text))  # a constant of the definition (365 days, 100 for a percentage)
            return float(text), text
        m = re.fullmatch(rf"(average|change in)\s+(.+?)\s+between\s+{_END}{_FY}\s+and\s+{_END}{_FY}", text, re.I)
        if m:
            (old, old_s), (new, new_s) = find(m.group(2), m.group(3)), find(m.group(2), m.group(4))
            if m.group(1).lower() == "average":
                worked.append((old + new) / 2)
                return (old + new) / 2, f"avg({old_s}, {new_s})"
            worked.append(new - old)
            return new - old, f"({new_s} - {old_s})"
        m = re.match(rf"{_FY}\s+(.+)$", text, re.I)
        y, item = (m.group(1), m.group(2)) if m else (year, text)
        return find(item, y)

    def expr_(lvl: int) -> tuple[float, str]:
        nonlocal pos
        if lvl == 2:
            if pos < len(toks) and toks[pos] == "(":
                pos += 1
                v, s = expr_(0)
                if pos >= len(toks) or toks[pos] != ")":
                    raise ValueError("unbalanced")
                pos += 1
                return v, f"({s})"
            if pos >= len(toks):
                raise ValueError("dangling operator")
            pos += 1
            return atom(toks[pos - 1])
        ops = ("+", "-") if lvl == 0 else ("*", "/")
        v, s = expr_(lvl + 1)
        while pos < len(toks) and toks[pos] in ops:
            op = toks[pos]
            pos += 1
            w, t = expr_(lvl + 1)
            if op == "/" and w == 0:
                raise ZeroDivisionError
            v = {"+": v + w, "-": v - w, "*": v * w, "/": v / w if w else 0.0}[op]
            s = f"{s} {op} {t}"
        return v, s

    value, shown = expr_(0)
    if pos != len(toks):
        raise ValueError("trailing tokens")
    return value, shown, terms


def shown_value(v: float, percent: bool) -> str:
    """A computed metric as a computation shows it: two decimals, four for a ratio below one (a ratio of
    0.0503 is not "0.05")."""
    if percent:
        return f"{v:.2f}%"
    return f"{v:.4f}" if abs(v) < 1 else f"{v:,.2f}"  # "1,477.00": an amount as the filing writes one


def fmt(v: float) -> str:
    """A cell value as shown in a computation: thousands separated, at most two decimals."""
    return f"{v:,.0f}" if abs(v) >= 1000 and float(v).is_integer() else f"{v:,.2f}".rstrip("0").rstrip(".")


_AVERAGED = re.compile(r"\(average (.+?) between \{prev\} and \{year\}\)")


def year_end_template(question: Question, template: str) -> str:
    """The year-end form of ``template``, the definition ``solve`` uses, when it is the vocabulary's for the
    standard metric the question names and averages a balance ("net income / (average total assets between
    {prev} and {year})" -> "net income / total assets"): many analysts divide by the closing balance. '' when
    the question defines the metric itself, asks for an average, or the definition averages nothing."""
    if question.averages_stated or not _AVERAGED.search(template):
        return ""
    if question.ratio is None or question.ratio[1] != template:
        return ""
    return _AVERAGED.sub(lambda m: m.group(1), template)


def solve(question: Question, lookup: Lookup, default_year: str = "", year: str | None = None) -> Result | None:
    """The metric the question defines (or names), its terms found by ``lookup`` (the cell resolver's: row by
    the vocabulary, column by the filing's calendar); None unless every term is found. A question that names no
    year is computed for ``default_year`` (the newest year the tables show); ``year`` computes it for that year
    instead (the two ends of a change, the years of a trend).

    "FY2017 - FY2019 3 year average of X" is X for each of the three years, averaged."""
    found = question.formula
    if found is None:
        return None
    template, asked_year = found
    target = year or asked_year or default_year
    years = list(question.averaged) if year is None else []
    years = years or ([int(target)] if target else [])
    if not years:
        return None
    percent = "* 100" in template
    values, shown, terms = [], [], []
    steps: list[float] = []
    try:
        for y in years:
            expr = template.format(year=y, prev=y - 1) if "{year}" in template else template
            v, s, t = evaluate(expr, str(y), lookup, steps=steps)
            values.append(v)
            shown.append(f"{s} = {shown_value(v, percent)}")
            terms += t
    except (LookupError, ValueError, ZeroDivisionError):
        return None
    value = sum(values) / len(values)
    if len(years) > 1:
        text = "; ".join(f"FY{y}: {x}" for y, x in zip(years, shown, strict=True))
        text += f"; {len(years)}-year average = {shown_value(value, percent)}"
    else:
        text = shown[0]
    year_end = None
    closing = year_end_template(question, template) if len(years) == 1 else ""
    if closing:
        try:
            v, s, t = evaluate(closing.format(year=years[0], prev=years[0] - 1), str(years[0]), lookup)
            year_end = Result(round(v, 4), f"{s} = {shown_value(v, percent)}", t, percent)
        except (LookupError, ValueError, ZeroDivisionError):
            year_end = None
    return Result(round(value, 4), text, terms, percent, year_end, steps + values if len(values) > 1 else steps)

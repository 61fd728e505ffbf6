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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.vocabulary import canonical, longest_item_words, ratio_named, vocabulary

if TYPE_CHECKING:
    from engine.ask.question import Question

_OUTFLOWS = re.compile(r"capex|purchase|payment|cost|expense|depreciation|amortization|d&a|cogs", re.I)
"""Words of a line item the vocabulary does not know that make it an outflow ("purchases of intangibles")."""
_FY = r"(?:fy|fiscal(?: year)?)?\s*'?((?:19|20)\d{2})"


@dataclass
class Term:
    """One looked-up cell: what the question called it, the row and column it came from."""

    item: str
    label: str
    column: str
    value: float
    marker: int


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


# --- the expression --------------------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(\(|\)|\*|/|\+|(?<=\s)-(?=\s)|×|÷|[^()*/+×÷]+?(?=\s*(?:\(|\)|\*|/|\+|\s-\s|×|÷|$)))")


def _tokens(expr: str) -> list[str]:
    out, pos = [], 0
    expr = expr.strip()
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if not m or m.end() == pos:
            raise ValueError(expr[pos:])
        tok = m.group(1).strip()
        if tok:
            out.append({"×": "*", "÷": "/"}.get(tok, tok))
        pos = m.end()
    return out


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
        if t is not None:
            terms.append(t)
            return t.value, fmt(t.value)
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
        m = re.fullmatch(rf"(average|change in)\s+(.+?)\s+between\s+{_FY}\s+and\s+{_FY}", text, re.I)
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
    return f"{v:.4f}" if abs(v) < 1 else f"{v:.2f}"


def fmt(v: float) -> str:
    """A cell value as shown in a computation: thousands separated, at most two decimals."""
    return f"{v:,.0f}" if abs(v) >= 1000 and float(v).is_integer() else f"{v:,.2f}".rstrip("0").rstrip(".")


# The phrases below are read by scanners rather than one regex each: a lazy group of words tried from every start
# of a long run of words is quadratic. Each scanner finds its keyword (linear), takes the run of words before it
# from the reversed text and the run after it forwards, so every character is read a bounded number of times.
# They find what ``([\w&'’ -]+?) KEYWORD ...`` found, on text whose whitespace is single spaces.
_WORDS_RUN = re.compile(r"[\w&'’ -]+")
"""A run of words (letters, digits, spaces, hyphens, apostrophes, ampersands): the X and Y of "X to Y ratio"."""
_SPACES = re.compile(r"\s+")


def _word_run_before(text: str, backwards: str, end: int) -> str:
    """The run of words (``_WORDS_RUN``) that ends at ``end``; ``backwards`` is ``text[::-1]``."""
    m = _WORDS_RUN.match(backwards, len(text) - end)
    return text[end - len(m.group(0)) : end] if m else ""


_SHARE_AT = re.compile(r" as an? (?:%|percent(?:age)?|share) of(?= )", re.I)
_SHARE_SKIP = re.compile(r"total |the ", re.I)
_SHARE_RUN = re.compile(r"[\w&' -]*")
_SHARE_STOP = re.compile(r" (?:from|between|for|in|over|during)\b", re.I)
_LETTER = re.compile(r"[a-z]", re.I)


def share_of(question: str) -> tuple[str, str] | None:
    """(X, Y) of the first "X as a % of Y" ("as a percentage of", "as a share of"; Y up to "from", "for", "in"
    ..., or punctuation): "cost of goods sold as a % of revenue" -> ("cost of goods sold", "revenue")."""
    text = _SPACES.sub(" ", question)
    backwards, failed = text[::-1], -1
    for at in _SHARE_AT.finditer(text):
        if not _WORDS_RUN.match(text, at.start() - 1, at.start()):
            continue  # no word before it
        y0 = at.end() + 1
        skip = _SHARE_SKIP.match(text, y0)
        for start in ([skip.end()] if skip else []) + [y0]:
            if start < failed or not _LETTER.match(text, start):
                continue  # inside a run an earlier "as a % of" found no end in: neither does this one
            end = _SHARE_RUN.match(text, start + 1).end()  # type: ignore[union-attr]
            stop = _SHARE_STOP.search(text, start + 1, end)
            if stop is not None or end == len(text) or text[end] in "?.,":
                y = text[start : stop.start()] if stop is not None else text[start:end]
                return _word_run_before(text, backwards, at.start()), y
            failed = end
    return None


_TO_WORD = re.compile(r" to ", re.I)
_RATIO_WORD = re.compile(r" ratio\b", re.I)


def to_ratio(question: str) -> tuple[str, str, str] | None:
    """(X, "average " or "", Y) of the first 'X to Y ratio' of two line items ("cash balance to total liability
    ratio", "interest expense to average long-term debt ratio"): X / Y, a fraction unless the question asks for
    a percentage."""
    text = _SPACES.sub(" ", question)
    for run in _WORDS_RUN.finditer(text):
        words = run.group(0)
        to = _TO_WORD.search(words, 1)
        if to is None:
            continue  # only the first " to " of a run counts: a later one has fewer words after it
        rest = words[to.end():]
        if rest[:8].lower() == "average ":
            ratio = _RATIO_WORD.search(rest, 9)
            if ratio is not None:
                return words[: to.start()], rest[:8], rest[8 : ratio.start()]
        ratio = _RATIO_WORD.search(rest, 1)
        if ratio is not None:
            return words[: to.start()], "", rest[: ratio.start()]
    return None


_PERCENT = re.compile(r"%|\bper ?cent", re.I)
_MARGIN_AT = re.compile(r"%\s*margin\b", re.I)


def margin_of(question: str) -> str:
    """The line item of the first "X % margin" ("FY2015 D&A % margin"): the item as a percentage of revenue;
    '' when there is none."""
    text = _SPACES.sub(" ", question)
    backwards = text[::-1]
    for at in _MARGIN_AT.finditer(text):
        before = _word_run_before(text, backwards, at.start())
        if before:
            return before.rstrip(" ") or before[:1]
    return ""


def without_asides(question: str) -> str:
    r"""The question with each parenthesised aside ("(from the cash flow statement)") replaced by a space, as
    ``re.sub(r"\([^)]*\)", " ", question)`` does, in linear time (that regex rescans the rest of the text from
    every "(" that no ")" closes)."""
    out: list[str] = []
    pos = 0
    while (start := question.find("(", pos)) >= 0:
        end = question.find(")", start)
        if end < 0:
            break  # no ")" after this "(": none after a later one either
        out += [question[pos:start], " "]
        pos = end + 1
    out.append(question[pos:])
    return "".join(out)


def _to_named(question: str, name: str) -> bool:
    r"""Whether the question names ``name`` as one term of a ratio ("debt to EBITDA ratio", "EBITDA to interest"),
    as ``\bto\s+(?:\w+\s+)?NAME\b.*\bratio\b|\bNAME\s+to\b`` finds it, line by line in linear time."""
    n = re.escape(name)
    if re.search(rf"\b{n}\s+to\b", question, re.I):
        return True
    term = re.compile(rf"\bto\s+(?:\w+\s+)?{n}\b", re.I)
    for line in question.split("\n"):
        m = term.search(line)
        if m is not None and re.search(r"\bratio\b", line[m.end():], re.I):
            return True
    return False


def known_tail(words: str) -> str:
    """The longest run of words ending ``words`` that the vocabulary knows as a line item ("what is Nike's three
    year average of cost of goods sold" -> "cost of goods sold"); '' when none."""
    parts = words.split()
    for k in range(max(0, len(parts) - longest_item_words()), len(parts)):
        tail = " ".join(parts[k:])
        if item_known(tail):
            return tail
    return ""


def definition(question: str) -> tuple[str, str] | None:
    """(expression template, target year) of the metric the question asks for: defined there ("defined as: ..."),
    named (a standard ratio of the vocabulary), or asked as a share ("cost of goods sold as a % of revenue").
    A standard metric's template has ``{year}`` and ``{prev}`` for the year it is computed for."""
    years = re.findall(r"(?:19|20)\d{2}", question)
    year = max(years) if years else ""
    # the definition ends with its sentence, or where the question goes on to ask ("..., what was X?")
    m = re.search(r"defined as:?\s*(.+?)(?:\.\s|\.$|\?|,\s+(?=(?:what|how|calculate|compute|find)\b)|$)", question,
                  re.I | re.S)
    if m and re.search(r"[/*+]|\s-\s", m.group(1)):
        return m.group(1).strip(), year
    plain = without_asides(question)  # asides such as "(from the cash flow statement)" left out
    less = _less(plain)
    if less is not None:
        return (less, year) if less else None
    named = ratio_named(question)
    if named and "/" not in named[1] and _to_named(question, named[0]):
        return None  # "debt to EBITDA ratio": EBITDA is one term of a ratio this vocabulary does not define
    if named:
        return named[1], year
    to = to_ratio(plain)
    if to:
        part, whole = known_tail(to[0]), known_tail(to[2]) or total_of(to[2])
        if part and whole and canonical(part) != canonical(whole):
            whole = f"(average {whole} between {{prev}} and {{year}})" if to[1] else whole
            return f"{part} / {whole}{' * 100' if _PERCENT.search(question) else ''}", year
    margin = margin_of(plain)  # "D&A (from the cash flow statement) % margin"
    if margin:
        part = known_tail(margin)
        if part and canonical(part) != "revenue":
            return f"{part} / revenue * 100", year
    share = share_of(question)
    if share:
        part, whole = known_tail(share[0]), known_tail(share[1])
        if part and whole:
            return f"{part} / {whole} * 100", year
    return None


_LESS_WORD = re.compile(r"(?<!\s)\s+(less|minus)(?=\s)", re.I)
_GAP = re.compile(r"\s+")


def _differences(plain: str) -> Iterator[tuple[str, str]]:
    r"""(X, Y) of each "X less Y" / "X minus Y" in ``plain``, as ``([\w&'’ -]+?)\s+(?:less|minus)\s+([\w&'’ -]+)``
    finds them, in linear time: X the run of words before the keyword (back to punctuation or the last
    match), Y the run after it. Each run is read once, forwards for Y and, on the reversed text, backwards for X;
    that lazy regex, tried from every start, is quadratic on long text."""
    done, backwards = 0, ""
    for k in _LESS_WORD.finditer(plain):
        start, end = k.start(), _GAP.match(plain, k.end()).end()  # type: ignore[union-attr]
        if start < done:
            continue
        lead, trail = plain[start:k.start(1)], plain[k.end(1):end]
        right = _WORDS_RUN.match(plain, end)
        if right is not None:
            after, stop = right.group(0), right.end()
        elif " " in trail[1:]:
            after, stop = " ", end  # the regex's Y takes a space of the gap when no word follows
        else:
            continue
        if not backwards:
            backwards = plain[::-1]
        left = _WORDS_RUN.match(backwards, len(plain) - start)
        first = max(done, start - (len(left.group(0)) if left else 0))
        if first < start:
            before = plain[first:start]
        elif " " in lead[:-1]:
            before = " "  # and X a space of the gap when no word precedes
        else:
            continue
        yield before, after
        done = stop


def known_head(words: str) -> str:
    """The longest run of words starting ``words`` that the vocabulary knows as a line item ("capex for
    PepsiCo" -> "capex"); '' when none."""
    parts = words.split()
    for k in range(min(len(parts), longest_item_words()), 0, -1):
        head = " ".join(parts[:k])
        if item_known(head):
            return head
    return ""


def _less(plain: str) -> str | None:
    """The template of "X less Y" / "X minus Y" where X is a line item or an additive standard metric (EBITDA)
    and Y a line item ("FY2022 unadjusted EBITDA less capex", "operating cash flow minus dividends paid"): X's
    definition less Y. '' when X is a ratio (a ratio less an amount means nothing: compute nothing); None when
    the question (``plain``: without its parenthesised asides) subtracts no line item."""
    for before, after in _differences(plain):
        right = known_head(after)
        if not right:
            continue
        left = known_tail(before)
        if left:
            return f"{left} - {right}"
        named = ratio_named(before)
        if named and re.search(re.escape(named[0].split()[-1]) + r"\W*$", before.lower()):
            return "" if "/" in named[1] else f"({named[1]}) - {right}"
    return None


def total_of(words: str) -> str:
    """The total a bare balance word stands for in "R&D to asset ratio" ("asset" -> "total assets"), when the
    vocabulary knows that total; '' otherwise."""
    last = words.split()[-1].lower() if words.split() else ""
    for name in (f"total {last}", f"total {last}s"):
        if last and item_known(name):
            return name
    return ""


def item_known(phrase: str) -> bool:
    """Whether the vocabulary knows a phrase as a line item (a share is computed only between known items)."""
    return canonical(phrase) in vocabulary().items


_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5}
_SPAN = re.compile(rf"{_FY}\s*(?:-|–|to|through|and)\s*{_FY}", re.I)
_AVERAGE = re.compile(r"\b(\d|two|three|four|five)[- ]year average\b"
                      r"|\baverage[ds]?\s+(?:over|across|for)\s+(?:the\s+)?(?:last\s+|past\s+)?(\d|two|three|four|five)\s+"
                      r"(?:fiscal\s+)?years\b", re.I)
"""An N-year average: "3 year average of X", "X averaged over the 3 years FY2017 - FY2019"."""


def averaged_years(question: str) -> list[int]:
    """The fiscal years of an N-year average the question asks for ("FY2017 - FY2019 3 year average of X",
    "three year average of X from FY2016 to FY2018"); [] when it asks for none."""
    avg = _AVERAGE.search(question)
    span = _SPAN.search(question)
    if not avg or not span:
        return []
    a, b = sorted((int(span.group(1)), int(span.group(2))))
    n = (avg.group(1) or avg.group(2)).lower()
    count = int(n) if n.isdigit() else _WORDS[n]
    return list(range(a, b + 1)) if b - a + 1 == count else []


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

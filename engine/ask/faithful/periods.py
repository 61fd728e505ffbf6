"""Summary checks of when: a fact the summary tells for another period than the quotes give it for.

A figure given for a year its quote sentence does not name (or its bracketed prior year's), the year before's
paragraph told for the year asked, a sentence's years moved, a longer period or a year to date told as a quarter (or
a quarter as the year to date), a cause dated after the change it is given for.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.ask.checks import CITATION
from engine.ask.faithful.reading import (
    _OPENING,
    RESPECTIVELY,
    Reading,
    _drivers_kind,
    _figure,
    _first_cue,
    _first_direction,
    _forward_word,
    _lead_ins,
    _quote_sentences,
    _restated,
    _run,
    _told_after,
    _told_from,
    _told_whole,
)
from engine.ask.narrative import YEAR
from engine.ask.question import NAME_WORD
from engine.ask.routing import LEGAL_FORMS
from engine.ask.subjects import (
    name_key,
    plain_stems,
    said_stems,
)
from engine.numbers import Quantity, quantities, same_number
from engine.periods import SPAN_SECTION, asked_period, years_at, years_named
from engine.sentences import split_sentences
from engine.vocabulary import narrative


def _for_other_years(r: Reading) -> list[str]:
    """Figures of the summary given for a year none of the quote sentences that state them names ("For Q2 2023, net
    sales fell by $10.5 billion" where the quote's $(10.5) billion is "for the nine months ended September 30,
    2022"), each as "figure for period". A figure's period is what the summary's sentence names before it, else
    right after it (what follows "compared to" is the other period). A year off by one is a fiscal year's
    naming when one side names fiscal periods and the other dates ("Q1 FY2023" for "December 31, 2022")."""
    summary, quotes = r.body, r.quotes
    # each quote sentence with the period it is told in: its own, else its lead-in's ("Product development expenses
    # for the year ended December 31, 2015, increased ... due to the following: • ... $54.7 million ...")
    sentences: list[tuple[str, str]] = []
    for x in quotes:
        context = ""
        for s in split_sentences(x.text):
            if asked_period(s).years:
                context = s
            sentences.append((s, context))
    out: list[str] = []
    for sentence in split_sentences(summary):
        for v in quantities(sentence):
            if not _figure(v) or abs(v.value) < 10 and not (v.percent or v.currency or v.scale != 1.0):
                continue  # a small bare number ("3 segments") is dated by nothing; "$7.9 billion" is
            said = asked_period(sentence[:v.start])
            if not said.years:
                # (past a bracketed prior year's figure right after it: "euro 26.8 million (2021: euro 26.3 million)")
                after = _BRACKETED_YEAR.sub(" ", sentence[v.end:v.end + 90], count=1)[:60]
                said = asked_period(after.split(" compared")[0].split(" versus")[0])
            if not said.years:
                continue
            # "5.0%" is no "$5.0 billion"
            pairs = [(s, told) for s, told in sentences if any(w.percent == v.percent and (
                same_number(w, v.value) or same_number(v, w.value)) for w in quantities(s))]
            holding = [told for _, told in pairs]
            if not holding:
                continue  # a number the quotes do not state is flagged as such
            # "$15.0 billion and $11.3 billion during Q3 2022 and Q3 2023": each figure is its period's, in order
            ordered = {y for s, _ in pairs if (y := _ordered_year(s, v)) is not None}
            # one side names fiscal years ("the third quarter of fiscal years 2024 and 2023"), the other a date
            fiscal = 1 if bool(said.fiscal_named) != any(asked_period(s).fiscal_named for s, _ in pairs) else 0
            if ordered and not any(abs(y - z) <= fiscal for y in said.years for z in ordered):
                out.append(f"{v.raw.strip()} for {said.text}")
                continue
            bracketed = [_bracketed_years(s, v) for s, _ in pairs]
            if all(prior and set(said.years) <= prior for prior in bracketed):
                # "euro 39 million (2021: euro 41 million)" gives 39 million for the year reported, not 2021
                out.append(f"{v.raw.strip()} for {said.text}")
                continue
            if any(_after_compared(s, set(said.years)) for s in holding):
                continue  # "25% higher than 2020" for 2021
            named = [asked_period(s) for s in holding]
            # a bracketed prior year is the other figure's ("$39 million (2021: $41 million)"), not this one's
            years = {y for prior, a in zip(bracketed, named, strict=True) for y in a.years if y not in prior}
            # one side names a fiscal year, the other a calendar date: the filer's year may end in the next
            slack = 1 if bool(said.fiscal_named) != any(a.fiscal_named for a in named) else 0
            if years and not any(abs(y - z) <= slack for y in said.years for z in years):
                out.append(f"{v.raw.strip()} for {said.text}")
    return out


_AND = re.compile(r"\s+and\s+")
_PAIRED_PERIODS = re.compile(r"\s*,?\s*(?:during|for|in|as\s+of|at|on)\s+([^;]{4,80})", re.I)
_NEXT_PAIR = re.compile(r",\s+and\s+|;")


def _ordered_year(sentence: str, v: Quantity) -> int | None:
    """The year a quote sentence gives figure ``v`` by order: "Cash capital expenditures were $15.0 billion and $11.3
    billion during Q3 2022 and Q3 2023, and $42.9 billion and $34.8 billion for the nine months ended September 30,
    2022 and 2023" gives $15.0 billion to 2022 and $11.3 billion to 2023 (filings list two periods' figures in the
    order of the periods after them); so does "at December 31, 2020 and 2019, was $6.5 billion and $10.2 billion,
    respectively" (two years before, "respectively" after). None where no two figures joined by "and" are so dated."""
    found = quantities(sentence)
    for a, b in zip(found, found[1:], strict=False):
        if not _AND.fullmatch(sentence[a.end:b.start]):
            continue
        m = _PAIRED_PERIODS.match(sentence, b.end)
        if m is not None:
            years = [int(y) for y in YEAR.findall(_NEXT_PAIR.split(m.group(1))[0])]
        elif _RESPECTIVELY_AFTER.match(sentence, b.end) and (before := _YEARS_BEFORE.search(sentence[:a.start])):
            # "at December 31, 2020 and 2019, was $6.5 billion and $10.2 billion, respectively"
            years = [int(y) for y in YEAR.findall(before.group(0))]
        else:
            continue
        if len(years) != 2 or years[0] == years[1]:
            continue
        for w, year in ((a, years[0]), (b, years[1])):
            if w.percent == v.percent and (same_number(w, v.value) or same_number(v, w.value)):
                return year
    return None


_RESPECTIVELY_AFTER = re.compile(r"\s*,?\s*respectively\b", re.I)
_YEARS_BEFORE = re.compile(r"\b(?:19|20)\d{2}\s*,?\s+and\s+(?:[A-Z][a-z]+\.?\s+\d{1,2},?\s+)?(?:19|20)\d{2}\b"
                           r"(?=[^\d]*$)")
"""Two years joined by "and" before a sentence's figures, none after them ("at December 31, 2020 and 2019, was
$6.5 billion and $10.2 billion, respectively")."""
_BRACKETED_YEAR = re.compile(r"\(\s*(?:FY\s*)?((?:19|20)\d{2})\s*:([^()]*)\)")
"""A prior year's figure in brackets after the year reported's: "euro 39 million (2021: euro 41 million)"."""


def _bracketed_years(sentence: str, v: Quantity) -> set[int]:
    """The years a sentence gives in brackets with another figure (``_BRACKETED_YEAR``) where it states ``v`` outside
    them, and names nowhere else: ``v`` is not those years' figure. Empty where ``v`` is a bracketed figure or there
    are no brackets."""
    spans = [(m.start(), m.end(), int(m.group(1))) for m in _BRACKETED_YEAR.finditer(sentence)]
    if not spans:
        return set()
    outside = [w for w in quantities(sentence) if (same_number(w, v.value) or same_number(v, w.value))
               and not any(a <= w.start < b for a, b, _ in spans)]
    # a year the sentence names outside the brackets is its own ("by 31 December 2021 (2021: ...)", a filer's slip)
    own = set(asked_period(_BRACKETED_YEAR.sub(" ", sentence)).years)
    return {y for *_, y in spans} - own if outside else set()


_PERIOD_END = re.compile(r"\b(?:ended|ending|as of|through)\s+(?:[A-Z][a-z]+\.?\s+\d{1,2},?\s+)?(?:19|20)\d{2}\b")
"""A period's end ("the year ended January 28, 2023"): the year it writes dates a period, not an event."""


def _cause_after_change(r: Reading) -> list[str]:
    """A cause dated after the change it is given for: "The change in operating revenues in 2022 was caused by
    surcharge authorizations that became effective on or after January 1, 2023" gives 'a cause in 2023 for 2022'.
    For a drivers question naming its years: a year written after a summary sentence's first cue or word that asks
    for drivers ("due to", "caused") that is later than every year the question asks, outside a period's end ("the
    year ended January 28, 2023": a retailer's fiscal year), in a sentence that tells no expectation."""
    summary, q = r.body, r.q
    kind = _drivers_kind(q)
    years = list(q.asked.years)
    if kind is None or not years:
        return []
    out: list[str] = []
    for sentence in split_sentences(summary):
        asks = kind.asked.search(sentence) if kind.asked else None
        at = [i for i in (_first_cue(kind, sentence), asks.start() if asks else -1) if i >= 0]
        if not at or _forward_word(sentence):
            continue
        cause = _PERIOD_END.sub(" ", sentence[min(at):])
        later = sorted({int(m.group(0)) for m in YEAR.finditer(cause) if int(m.group(0)) > max(years)})
        if later:
            flag = f"a cause in {later[0]} for {max(years)}"
            out.append(flag)
    return out


def _period_before(told: str, headings: Sequence[str]) -> set[int]:
    """The years of what a quote sentence is told after: the nearest sentence before it in its passage that names a
    year ("Starbucks transaction-based costs for the year ended December 31, 2015, increased ... compared to the
    year ended December 31, 2014. This increase was ...", the run-in line "Fiscal year 2015 compared with fiscal
    year 2014 Xbox Live revenue increased ..."), else the nearest of the section headings above it that names one
    ("Fiscal 2017 Compared to Fiscal 2016"); empty where none does."""
    for sentence in reversed(split_sentences(told)):
        if years := {int(m.group(0)) for m in YEAR.finditer(sentence)}:
            return years
    return next(({int(m.group(0)) for m in YEAR.finditer(h)} for h in headings if YEAR.search(h)), set())


_OPENS_WITH_YEAR = re.compile(r"^\W*(?:for|in|during)\s+(?:the\s+)?(?:fiscal\s+)?(?:year\s+)?((?:19|20)\d{2})\s*,",
                              re.I)
"""A sentence opening with its own year ("For fiscal 2015, net cash provided by operating activities ...")."""


def _opened_year(told: str) -> int | None:
    """The year the nearest sentence naming one, before a quote sentence in its passage, opens with
    (``_OPENS_WITH_YEAR``): the year of that sentence's paragraph; None where that sentence opens otherwise."""
    for sentence in reversed(split_sentences(told)):
        if YEAR.search(sentence):
            return int(m.group(1)) if (m := _OPENS_WITH_YEAR.match(sentence)) else None
    return None


_NAMED_YEAR = re.compile(r"\b(?:Act|Acts|Code|Law)\s+of\s+\d{4}\b")
"""A year in a law's name ("the Securities Exchange Act of 1934"): no period a sentence tells."""


def _earlier_years_told(r: Reading) -> list[str]:
    """A sentence restating a quote whose words and passage compare two years both before the one the question asks
    ("Our International segment experienced a gross profit decline ... in fiscal 2016 compared to fiscal 2015 ...
    The decrease in SG&A expense was driven by ..." for fiscal 2017): the year before's discussion, told for the
    year asked, gives '[5] is about fiscal 2016'. A passage naming one earlier year only may compare the asked year
    with it ("compared to fiscal 2016"); one naming the asked year, or a sentence naming its own year, is not
    judged. A quote sentence that opens with its own earlier year ("For fiscal 2019, the decrease in operating
    expenses ...") is that year's, whatever its passage names: a sentence restating it without that year is flagged
    though it names another. So is one naming no year of its own told after two earlier years' comparison
    (``_period_before``: the sentence before it, a run-in period line, the period heading above it), told for the
    year asked without them: "Demand creation expense also grew, primarily driven by higher retail brand presentation
    costs" under "Fiscal 2017 Compared to Fiscal 2016", for fiscal 2018, gives '[9] is about fiscal 2017'. A quote
    sentence whose only years are the one it compares with, two or more before the year asked ("The increase in
    Equity investments net revenues reflected ... compared with 2020" for 2022), is the year after's: '[7] is about
    fiscal 2021'. A quote sentence told after one opening with its own earlier year ("For fiscal 2014, net cash
    provided by operating activities ... The increase in deferred revenue was primarily due to ...") is that year's
    paragraph's (``_opened_year``), whatever year the summary tells it for: '[4] is about fiscal 2014'."""
    summary, quotes, q, passages, headings = r.body, r.quotes, r.q, r.passages, r.headings
    asked = set(q.asked.years)
    # a year's discussion of a change is what an earlier year's paragraph can be told for; a matter's history (a suit
    # brought in 2017, still pending) is no other year's
    moved = any(p.changed or p.growth for p in (q, *q.parts)) or _drivers_kind(q) is not None
    if not asked or not passages or not moved:
        return []
    sentences = _quote_sentences(quotes)
    # the period a quote is told in: what its passage says before it, and itself (the next paragraph may be the
    # year before's)
    lead = _lead_ins(quotes, passages)
    out: list[str] = []
    for sentence in split_sentences(summary):
        if (found := _told_from(sentence, sentences)) is None:
            continue
        source, best = found[0], found[1]
        told_in = [_NAMED_YEAR.sub(" ", f"{lead.get(x.text, '')} {x.text}") for x in quotes
                   if x.source == source and best in x.text]
        named = {int(m.group(0)) for t in told_in for m in YEAR.finditer(t)}
        said = {int(m.group(0)) for m in YEAR.finditer(sentence)}
        # the period of what the sentence is told after: the sentence before it, else the period heading above
        before = _period_before(*after) if (after := _told_after(best, source, quotes, lead, headings)) else set()
        # the sentence's own period, before what it says moved ("For fiscal 2019, the decrease in ..."; what it is
        # compared with aside): a restatement that leaves it out and keeps another of the quote's years ("... due
        # to club closures ... during fiscal 2018") tells it for the year asked all the same
        first = _first_direction(best)
        own = {int(m.group(0)) for m in YEAR.finditer(_COMPARED.sub(" ", best[:first.start()] if first else ""))}
        if own and all(y < min(asked) for y in own):
            if own & said:
                continue
            named = own
        elif (not own and not said & before and len(before) >= 2 and all(y < min(asked) for y in before)
              and not YEAR.search(best)):
            named = before
        elif (not own and after is not None and (opened := _opened_year(after[0])) is not None
              and opened < min(asked) and opened not in said
              and all(int(m.group(0)) <= opened for m in YEAR.finditer(best))):
            # told after a sentence opening with its own earlier year, naming no later one ("For fiscal 2014, net cash
            # provided by operating activities ... The increase in deferred revenue was primarily due to ...
            # discontinued in January 2013"): that year's paragraph, whatever year the summary tells it for
            named = {opened}
        elif ((compared := _compared_years(best)) and compared == {int(m.group(0)) for m in YEAR.finditer(best)}
              and all(y <= min(asked) - 2 for y in compared) and not {y + 1 for y in compared} & said):
            # compared with the year two before the one asked ("... compared with 2020" for 2022): the year between
            named = {y + 1 for y in compared}
        elif said or not (len(named) >= 2 and all(y < min(asked) for y in named)):
            continue
        flag = f"[{source}] is about fiscal {max(named)}"
        out.append(flag)
    return out


def _years_moved(r: Reading) -> list[str]:
    """A sentence restating one quote sentence with its years moved: "Total revenues net of interest expense
    increased in 2022 compared to 2021, primarily driven by higher Discount revenue ..." restating "... increased in
    2021 compared to 2020, primarily driven by higher Discount revenue ..." gives '[5] is about 2021'. The sentence
    names a year the quote sentence does not, and the quote sentence one the sentence does not, in a date or not (a
    sentence joining two quotes names the years of both; one that names fewer years, none the quote's lacks)."""
    summary, quotes, names = r.body, r.quotes, r.names
    plain = plain_stems(names)
    sentences = _quote_sentences(quotes)
    quoted = {y for x in quotes for y, _, _ in years_named(x.text)}
    out: list[str] = []
    for sentence in split_sentences(CITATION.sub(" ", summary)):
        named = years_named(sentence)
        if not named or (found := _restated(sentence, sentences, plain)) is None:
            continue
        source, best, _ = found[1]
        theirs = {int(m.group(0)) for m in YEAR.finditer(best)}  # a date's year too ("As of December 2022")
        mine = {y for y, _, _ in named}
        if _after_compared(best, mine):
            continue  # "$5.98 billion, 25% higher than 2020" is the year after 2020's, as "in 2021" says
        # a fiscal year no quote names is flagged as written already ("FY2023")
        moved = {y for y, fiscal, _ in named if y not in theirs and not (fiscal and y not in quoted)}
        if moved and theirs - mine:
            flag = f"[{source}] is about {max(theirs)}"
            out.append(flag)
    return out


def _section_ytd(told: str, headings: Sequence[str]) -> bool:
    """Whether the nearest span a quote sentence is told under (``periods.SPAN_SECTION``, in its passage before it,
    else in the headings above it) is a year to date, not a quarter."""
    found = list(SPAN_SECTION.finditer(told))
    nearest = found[-1] if found else next((m for h in headings if (m := SPAN_SECTION.search(h))), None)
    return nearest is not None and nearest.group("ytd") is not None


def _longer_period_told(r: Reading) -> list[str]:
    """A sentence telling a quarter that restates a quote sentence of a longer period and no quarter ("The increase
    in North America operating income in Q3 2023 was primarily due to ..." from "The North America operating income
    for the nine months ended September 30, 2023 ... is primarily due to ...") gives '[4] is about the nine
    months': the drivers of the year to date are not the quarter's. A sentence naming no period tells the quarter
    the question asks; a quote sentence naming no period of its own is told in its section's (``_section_ytd``: a
    bank's "Year-to-date results" after its "Quarterly results"), which gives '[5] is about the year to date'. The
    other way round, a sentence telling a year to date (or naming no period where the question asks one) that
    restates a quote sentence of one quarter ("iPad net sales decreased during the third quarter of 2023 ..." told
    for the first nine months) gives '[5] is about the third quarter'."""
    summary, quotes, q, passages, headings = r.body, r.quotes, r.q, r.passages, r.headings
    sentences = _quote_sentences(quotes)
    lead = _lead_ins(quotes, passages)
    drivers = narrative().kind("drivers")
    out: list[str] = []
    for sentence in split_sentences(summary):
        # the sentence's own period is what it names before its drivers ("Revenue increased in the second quarter
        # due to ..."; a quarter named among its drivers, "driven by loan growth in Card in the second quarter", is
        # none); naming none, it tells the question's
        cut = _first_cue(drivers, sentence) if drivers is not None else -1
        told = asked_period(sentence[:cut] if cut > 0 else sentence)
        asked = q.asked if q is not None and not told.text else None
        to_date = told.months in YEAR_TO_DATE or (asked is not None and asked.months in YEAR_TO_DATE)
        # a quarter by number, or three months ended on a date ("the quarter ended June 25, 2022")
        quarter = not to_date and (told.quarter or told.months == 3
                                   or (asked is not None and (asked.quarter or asked.end) and asked.months == 3))
        if not quarter and not to_date:
            continue
        if (found := _restated(sentence, sentences)) is not None:
            source, best = found[1][0], found[1][1]
        elif (whole := _told_whole(sentence, quotes)) is not None:  # a quote's list told whole in one sentence
            # (of that source's quotes, the one it tells: two lists of one passage may open alike)
            words = said_stems([sentence])
            source, best = whole, max((x.text for x in quotes if x.source == whole),
                                      key=lambda t: (len(words & said_stems([t])), _run(sentence, t)))
        else:
            continue
        theirs = asked_period(best)
        # its own period is what it names before what moved ("For the six months ended ..., X increased"; a quarter
        # named among its drivers, "$337 million of markdowns in the second quarter", is no period of its own)
        own = asked_period(best[:moved.start()]) if (moved := _first_direction(best)) else theirs
        if to_date:
            # a quarter's sentence told for the year to date asked ("iPad net sales decreased during the third
            # quarter ..." told for the first nine months, which the filing says were flat)
            # the quote's own period: before what moved, else before its drivers (not a quarter among them)
            at = _first_cue(drivers, best) if drivers is not None else -1
            period = own if own.text else asked_period(best[:at]) if at > 0 else theirs
            if period.quarter and period.months == 3:
                flag = f"[{source}] is about the {period.text.split(';')[0].lower()}"
            else:
                continue
        elif theirs.months in YEAR_TO_DATE and "months" in theirs.text and not theirs.quarter:  # a year to date
            if asked_period(sentence).months == theirs.months:
                continue  # "The increase in Q2 was due to ..., while the increase in the first half was due to ...":
                # the sentence tells the quote's span too
            flag = f"[{source}] is about the {theirs.text.split(';')[0].lower()}"
        elif (not own.months and not own.quarter
              and (after := _told_after(best, source, quotes, lead, headings)) and _section_ytd(*after)):
            flag = f"[{source}] is about the year to date"
        else:
            continue
        out.append(flag)
    return out


YEAR_TO_DATE = (6, 9)
"""The months of an interim report's year-to-date periods (a half, nine months)."""


_COMPARED = re.compile(r"\b(?:compared\s+(?:to|with)|versus|vs\.?|from|over|relative\s+to|than)\s+(?:the\s+)?"
                       r"(?:(?:fiscal|calendar)\s+)?(?:(?:year|period|quarter)\s+(?:ended|ending)\s+[A-Z][a-z]+\.?\s+"
                       r"\d{1,2},?\s+|year\s+)?(?:19|20)\d{2}\b", re.I)
"""What a sentence compares itself with ("compared to fiscal 2019"): not the period it tells."""


def _compared_years(sentence: str) -> set[int]:
    """The years a sentence compares with ("than 2020", "compared with 2020": ``_COMPARED``)."""
    return {int(y.group(0)) for m in _COMPARED.finditer(sentence) for y in YEAR.finditer(m.group(0))}


def _after_compared(sentence: str, years: set[int]) -> bool:
    """Whether every year a quote sentence names is one it compares with ("25% higher than 2020", "compared with
    2020": ``_COMPARED``), each the year before one of ``years``: the sentence tells the year after, which it leaves
    to its section."""
    named = {int(m.group(0)) for m in YEAR.finditer(sentence)}
    compared = _compared_years(sentence)
    return bool(named) and named == compared and all(y + 1 in years for y in compared)


_LAST_AND = re.compile(r"^(?P<left>.+)\s+and\s+(?P<right>.+)$")
_LIST_JOIN = re.compile(r",\s*(?:and\s+)?|\s+and\s+")
_TOLD_IN = re.compile(r"(?P<name>(?:[A-Z][\w&'\u2019.-]*\s+){0,5}[A-Z][\w&'\u2019.-]*)\s*,?\s+(?:in|during)\s+$")
"""A name told for the year written right after it ("Yardbird in fiscal 2023")."""


def _names_with_years(sentence: str) -> list[tuple[str, int, str]]:
    """The names a sentence gives a year each, with the year and as written: a "respectively" sentence's names and
    years in pairs ("Current Health and Yardbird in fiscal 2022 and 2023, respectively": Current Health 2022,
    Yardbird 2023), else each name run written right before "in"/"during" and a year ("acquired Yardbird in fiscal
    2023"), not the sentence's opening words ("Revenue in fiscal 2023 ...")."""
    named = years_at(sentence)
    if RESPECTIVELY.search(sentence) and len(named) >= 2:
        head = _TRAILING_IN.sub("", sentence[:named[0][0]])
        if len(named) == 2:
            split = _LAST_AND.match(head.strip())
            conjuncts = [split["left"], split["right"]] if split else []
        else:
            conjuncts = _LIST_JOIN.split(head.strip())[-len(named):]
        if len(conjuncts) != len(named):
            return []
        return [(c, y, written) for c, (_, y, _, written) in zip(conjuncts, named, strict=True)]
    opening = len(sentence) - len(sentence.lstrip(_OPENING))
    out: list[tuple[str, int, str]] = []
    for pos, y, _, written in named:
        m = _TOLD_IN.search(sentence[:pos])
        if m is not None and m.start() > opening:
            out.append((m["name"], y, written))
    return out


_TRAILING_IN = re.compile(r"\s*,?\s+(?:in|during|for)\s*$")


def _years_given(keys: set[str], sentence: str) -> set[int]:
    """The years a sentence gives a name (its words' ``keys``): at each place it names it, the year written nearest
    ("the decrease ... in fiscal 2023 was driven by the acquisitions of Current Health and Yardbird in fiscal 2022"
    gives Yardbird 2022)."""
    named = years_at(sentence)
    out: set[int] = set()
    for m in NAME_WORD.finditer(sentence):
        if not named or name_key(m.group(0)) not in keys:
            continue
        gaps = [(pos - m.end() if pos >= m.end() else m.start() - pos - len(written), y)
                for pos, y, _, written in named]
        nearest = min(g for g, _ in gaps)
        out |= {y for g, y in gaps if g == nearest}
    return out


def _years_of_others(r: Reading) -> list[str]:
    """A name given a year no quote sentence naming it gives it: "Best Buy acquired Current Health Ltd. and Two
    Peaks, LLC d/b/a Yardbird Furniture in fiscal 2022 and 2023, respectively" where every quote sentence naming
    Yardbird gives it fiscal 2022 gives 'fiscal 2023 for “Two Peaks, LLC d/b/a Yardbird Furniture”: [2] gives it
    2022'. A sentence gives a name the year written nearest it (``_years_given``); the documents' names, the
    company's aliases and legal forms ("LLC") are no name's words. A year no quote names is flagged as such, not
    here."""
    summary, quotes, names = r.body, r.quotes, r.names
    plain = plain_stems([*names, *(x.doc for x in quotes)])
    sentences = [(x.source, s) for x in quotes for s in split_sentences(x.text)]
    quoted = {y for x in quotes for y, _, _ in years_named(x.text)}
    out: list[str] = []
    for sentence in split_sentences(summary):
        for name, year, written in _names_with_years(sentence):
            if year not in quoted:
                continue  # a year no quote names is flagged as written ("FY2021")
            keys = {name_key(w) for w in NAME_WORD.findall(name) if w.lower().strip(".") not in LEGAL_FORMS} - plain
            if not keys:
                continue
            given = [(src, theirs) for src, s in sentences if (theirs := _years_given(keys, s))]
            if given and not any(year in theirs for _, theirs in given):
                src, theirs = given[0]
                # the name as written: from its first word of the keys, back to the lower-case word before it
                first = next(m.start() for m in NAME_WORD.finditer(name) if name_key(m.group(0)) in keys)
                first = max((m.end() for m in re.finditer(r"\b[a-z]{3,}\b", name[:first])), default=0)
                out.append(f"{written} for \u201c{name[first:].strip(' ,.')}\u201d: [{src}] gives it "
                           f"{' and '.join(str(y) for y in sorted(theirs))}")
    return out

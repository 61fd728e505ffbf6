"""Whether a narrative answer's summary says only what its quoted sentences say.

``check_summary`` (and ``unsupported`` beneath it) lists what a summary of the quotes (``narrative.summarise``)
claims that they do not: a number they do not state, a content word neither they nor the question contain, and the
relations every word of which is quoted but not the relation itself (a forecast told as a fact, one subject's
sentence told of another, a figure given to another name or line item, a cause dated after its change, a direction
the quotes disagree on). Each flag names what to check ("[5] is about “Cost of sales”"); a flagged summary is shown
below its quotes with its flags, never instead of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cache
from itertools import groupby

from engine.ask.checks import CITATION, cited_numbers, refuses
from engine.ask.formulas import formula_items
from engine.ask.narrative import DATED_MAY, YEAR
from engine.ask.question import NAME_WORD, Question, part_named
from engine.ask.routing import LEGAL_FORMS
from engine.ask.subjects import (
    BROKEN,
    CONTENT_WORD,
    OWNER,
    POSSESSOR,
    asked_names,
    asked_parts,
    common_stems,
    heading_part,
    initials,
    letters,
    name_key,
    name_letters,
    opening_part,
    plain_stems,
    said_stems,
    word_stem,
)
from engine.library.lexical import STOPWORDS
from engine.numbers import CURRENCY, POINTS, Quantity, quantities, same_number
from engine.periods import SPAN_SECTION, asked_period, years_named
from engine.sentences import split_sentences
from engine.types import Evidence, Quote
from engine.vocabulary import LineItem, NarrativeKind, change_words, directions, items_named, narrative, ratio_named


def check_summary(text: str, stated: str, quotes: Sequence[Quote], q: Question, used: Sequence[Evidence]) -> list[str]:
    """``unsupported`` of an answer's text less what the code ``stated`` before it, the documents' names, the
    company's aliases and the code's statement counting as supported ([] without quotes, and for a reply that
    declines). The text is the quotes' summary, or, where the model found no answer in the quotes alone, its answer
    from the whole evidence: shown beside the quotes, it is checked against them all the same (Pfizer's "three
    main companies acquired" named GlaxoSmithKline from the exhibit list beside a quote of Therachon's acquisition,
    unflagged)."""
    if not quotes or refuses(text):
        return []
    names = [*(e.doc for e in used), *(a for aliases in q.companies.values() for a in aliases)]
    passages = [used[x.source - 1].text if 0 < x.source <= len(used) else "" for x in quotes]
    headings = [used[x.source - 1].headings if 0 < x.source <= len(used) else () for x in quotes]
    return unsupported(text.replace(stated, " ") if stated else text, quotes, q, names, stated, passages, headings,
                       [e.text for e in used if e.modality == "text"])


_LACKS = re.compile(r"\b(?:sources?|quotes?|quoted sentences?|passages?|text|filing|excerpts?)\s+"
                    r"(?:do|does|did)\s+not\b|\bno (?:information|mention)\b", re.I)
"""A sentence saying what the quotes lack: its words name what is missing, not a claim."""
_NEGATION = re.compile(r"\b(?:not|no|none|neither|nor|without)\b|n't\b", re.I)
_YES = re.compile(r"\W*yes\b", re.I)
_NO = re.compile(r"\W*no\b", re.I)


def _figure(v: Quantity) -> bool:
    """Whether a number is a figure (an amount in a currency, a percent, or scaled: "$8.6 billion", "12%"), not a
    count, a year or a note's number."""
    return bool(v.currency or v.percent or v.scale != 1.0)


def _for_other_years(summary: str, quotes: Sequence[Quote]) -> list[str]:
    """Figures of the summary given for a year none of the quote sentences that state them names ("For Q2 2023, net
    sales fell by $10.5 billion" where the quote's $(10.5) billion is "for the nine months ended September 30,
    2022"), each as "figure for period". A figure's period is what the summary's sentence names before it, else
    right after it (what follows "compared to" is the other period). A year off by one is a fiscal year's
    naming when one side names fiscal periods and the other dates ("Q1 FY2023" for "December 31, 2022")."""
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
            if not _figure(v) or abs(v.value) < 10 and not v.percent:
                continue
            said = asked_period(sentence[:v.start])
            if not said.years:
                # (past a bracketed prior year's figure right after it: "euro 26.8 million (2021: euro 26.3 million)")
                after = _BRACKETED_YEAR.sub(" ", sentence[v.end:v.end + 90], count=1)[:60]
                said = asked_period(after.split(" compared")[0].split(" versus")[0])
            if not said.years:
                continue
            pairs = [(s, told) for s, told in sentences if any(same_number(w, v.value) or same_number(v, w.value)
                                                               for w in quantities(s))]
            holding = [told for _, told in pairs]
            if not holding:
                continue  # a number the quotes do not state is flagged as such
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


FORECAST_SHARE = 0.6
"""The share of a summary sentence's words one quote sentence must hold to be the sentence it restates."""
RESTATED_WORDS = 4
"""The fewest words a summary sentence must share with a quote sentence to restate it."""


def _quote_sentences(quotes: Sequence[Quote]) -> list[tuple[int, str, set[str]]]:
    """Each sentence of the quotes with its quote's source and its stems."""
    return [(x.source, s, said_stems([s])) for x in quotes for s in split_sentences(x.text)]


def _quote_wholes(quotes: Sequence[Quote]) -> list[tuple[int, str, set[str]]]:
    """Each quote whole, in ``_quote_sentences``' shape: what a sentence telling a quote's list in one restates."""
    return [(x.source, x.text, said_stems([x.text])) for x in quotes]


WHOLE_SHARE = 0.8
"""The share of a sentence's words a quote holds where the sentence tells it whole (word for word, its list's
punctuation aside), not a sentence of it joined with another quote's."""


def _told_whole(sentence: str, quotes: Sequence[Quote]) -> int | None:
    """The source of the quote a summary sentence tells whole, a list and its lead-in in one sentence ("Reported EBIT
    increased 1% due to higher revenues and the following: Gross margin expansion ...; Selling and administrative
    expense increased 7% ..."): the quote holds ``RESTATED_WORDS`` more of the sentence's words than any one sentence
    of the quotes does; None where no quote is told so."""
    words = said_stems([sentence]) - {word_stem(w) for w in STOPWORDS}
    one = max((len(words & stems) for _, _, stems in _quote_sentences(quotes)), default=0)
    for x in quotes:
        held = len(words & said_stems([x.text]))
        if held >= WHOLE_SHARE * len(words) and held >= RESTATED_WORDS + one:
            return x.source
    return None


def _run(one: str, other: str) -> int:
    """The most words in a row two texts share (lower case, punctuation aside)."""
    a, b = _plain_words(one), _plain_words(other)
    best, row = 0, [0] * (len(b) + 1)
    for x in a:
        prev = 0
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], prev + 1 if x == y else 0
            best = max(best, row[j])
    return best


def _told_from(sentence: str, sentences: Sequence[tuple[int, str, set[str]]], plain: set[str] | None = None
               ) -> tuple[int, str, set[str]] | None:
    """The quote sentence a summary sentence is told from, where several hold enough of its words to be restated
    (``_restated``'s measure): the one sharing the longest run of words with it, then most words. "Demand creation
    expense increased due to higher retail brand presentation costs" is told from "Demand creation expense also
    grew, primarily driven by higher retail brand presentation costs", not from "Demand creation expense also
    increased, as higher sports marketing costs were only partially offset by lower retail brand presentation costs",
    though the second holds more of its words. ``plain`` as for ``_restated``."""
    words, held = _holding(sentence, sentences, plain)
    return max(held, key=lambda t: (_run(sentence, t[1]), len(words & t[2])), default=None)


def _holding(sentence: str, sentences: Sequence[tuple[int, str, set[str]]], plain: set[str] | None = None
             ) -> tuple[set[str], list[tuple[int, str, set[str]]]]:
    """The summary sentence's stems (less ``plain``, else stopwords) and the quote sentences that hold enough of
    them to be restated by it: ``FORECAST_SHARE`` of them and ``RESTATED_WORDS`` at least."""
    words = said_stems([sentence]) - (plain if plain is not None else {word_stem(w) for w in STOPWORDS})
    if len(words) < RESTATED_WORDS:
        return words, []
    return words, [t for t in sentences if len(words & t[2]) >= RESTATED_WORDS
                   and len(words & t[2]) / len(words) >= FORECAST_SHARE]


def _restated(sentence: str, sentences: Sequence[tuple[int, str, set[str]]], plain: set[str] | None = None
              ) -> tuple[set[str], tuple[int, str, set[str]]] | None:
    """The summary sentence's stems and the quote sentence it restates: the one holding most of its words,
    ``FORECAST_SHARE`` of them and ``RESTATED_WORDS`` at least; None where none does. The words counted are its
    content words: not stopwords, nor ``plain`` stems where given (``plain_stems``: the company's name, generic words,
    which say nothing of which quote a sentence restates)."""
    words, held = _holding(sentence, sentences, plain)
    return (words, max(held, key=lambda t: len(words & t[2]))) if held else None




def _forward_word(sentence: str) -> str:
    """The first of the vocabulary's forward-looking words a sentence uses ('' when none; "May 12" is a date)."""
    low = DATED_MAY.sub(" ", sentence.lower())
    return next((w for w in narrative().forward if re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", low)), "")


def _foretold(sentence: str, word: str) -> set[str]:
    """The stems of what a sentence tells is expected or may happen: its words from each of its forward-looking
    ``word`` to the clause's end ("may be asserted in the future": "asserted", "future"), stopwords and generic words
    aside."""
    low = DATED_MAY.sub(" ", sentence.lower())
    clauses = [re.split(r"[,;:]", low[at.end():], maxsplit=1)[0]
               for at in re.finditer(rf"(?<![a-z]){re.escape(word)}(?![a-z])", low)]
    return said_stems(clauses) - common_stems()


def _forecast_as_fact(summary: str, quotes: Sequence[Quote], names: Iterable[str] = ()) -> list[str]:
    """A summary sentence that restates a quote sentence telling what is expected or may happen ("we expect that
    our cash flow from operations will decline") without any word that says so ("a decline in cash flow from
    operations"): it states a forecast as a fact; what the quote foretells must be in the sentence (one that leaves
    out its quote's closing "and further claims may be asserted in the future" states no forecast). Each gives
    'stated as fact (the quote says “expect”)'. The quote restated is the one holding most of the sentence's words
    (``FORECAST_SHARE`` of them, four at least). A name the sentence tells of (a word with a capital letter past its
    first, not the company's, no legal form) that every quote sentence naming it foretells ("We expect to fund the
    acquisition of iRobot Corporation" told as "Amazon completed the acquisition of iRobot Corporation") gives the
    same flag: no quote says it happened. A sentence telling a deal as agreed ("agreed to sell") states no closing."""
    sentences = _quote_sentences(quotes)
    plain = plain_stems(names)
    out: list[str] = []
    for sentence in split_sentences(summary):
        if _forward_word(sentence) or _AGREED.search(sentence):
            continue  # what is to come, or a deal told as agreed
        word = ""
        if (found := _restated(sentence, sentences)) is not None:
            if (said := _forward_word(found[1][1])) and _foretold(found[1][1], said) & found[0]:
                word = said
        if not word and not _NEGATION.search(sentence):
            for m in _ANY_CAPITAL.finditer(sentence):
                key = name_key(m.group(0))
                if m.start() == 0 or key in plain or m.group(0).lower() in LEGAL_FORMS:
                    continue
                naming = [t for _, t, stems in sentences if key in stems]
                if naming and all((w := _forward_word(t)) and key in _foretold(t, w) for t in naming):
                    word = _forward_word(naming[0])
                    break
        flag = f"stated as fact (the quote says “{word}”)"
        if word and flag not in out:
            out.append(flag)
    return out


_AGREED = re.compile(r"\bagree(?:s|d)?\s+to\b|\bagreements?\s+to\b", re.I)
"""A deal told as agreed ("agreed to sell", "entered into an agreement to acquire"): its closing still to come."""
_ANY_CAPITAL = re.compile(r"(?<![\w-])[a-z]*[A-Z][\w&'’-]*")
"""A word with a capital letter ("iRobot", "Corporation"): a name, where it does not open its sentence."""


def _defining_items(formula: str) -> list[LineItem]:
    """The line items a standard ratio's definition names, each followed by the items of its own definition where it
    is derived (a gross margin's gross profit, then revenue and cost of sales)."""
    out: list[LineItem] = []
    for it in formula_items(formula):
        out.append(it)
        if it.derived:
            out += formula_items(it.derived)
    return out


def _subject(q: Question) -> tuple[str, set[str]]:
    """What a drivers question asks the drivers of, and the stems a sentence about it uses: its line items' names
    and labels, and for a standard ratio the items of its definition ("gross margin": gross profit, revenue, cost of
    sales); ('', set()) where it names none."""
    names = [m.names or (m.name,) for m in q.measures]
    if q.ratio is not None:
        names.append((q.ratio[0],))
        names += [(it.name, *it.labels) for it in _defining_items(q.ratio[1])]
    if not names:
        return "", set()
    plain = {word_stem(w) for w in (*STOPWORDS, *narrative().generic)}
    return names[0][0], said_stems(n for group in names for n in group) - plain


def _drivers_of_something_else(summary: str, quotes: Sequence[Quote], q: Question) -> list[str]:
    """For a question what drove a line item or a ratio: each quote the summary cites ([n]) as a driver whose
    sentences say nothing of that item (no word of its names, or of its definition's items) gives '[n] is not about
    operating expenses'. A tax-rate sentence and a risk-factor pointer called the drivers of operating expenses are
    quoted words in a relation no quote states."""
    asked = q.told
    if asked is None or asked.narrative != "drivers":
        return []
    subject, words = _subject(asked)
    if not words:
        return []
    by_source: dict[int, list[str]] = {}
    for x in quotes:
        by_source.setdefault(x.source, []).append(x.text)
    return [f"[{n}] is not about {subject}" for n in cited_numbers(summary)
            if (said := by_source.get(n)) and not said_stems(said) & words]


_JOINED = re.compile(r"^(?:the\s+)?(?P<a>[^,]+?)\s+(?:and|&)\s+(?P<b>[^,]+?)\s*$", re.I)
"""A subject joining two things ("Hemlock and Emerging Growth Businesses")."""
_REPORTED = re.compile(r"^.*?\b(?:indicates?|shows?|states?|says?|notes?|explains?)\s+that\s+", re.I)
"""A summary sentence's pointer to its source before what it says ("[4] indicates that ...")."""


_WHICH = re.compile(r"^\s*,?\s*(?:both\s+of\s+|each\s+of\s+|all\s+of\s+)?which\s+", re.I)
"""A relative clause opening after a name ("..., both of which were primarily driven by"): its cause is the name's."""


def _first_cue(kind: NarrativeKind, text: str) -> int:
    """Where the first of a kind's cue phrases starts in a sentence (-1 when it has none)."""
    low = text.lower()
    found = [m.start() for c in kind.cues if (m := re.search(rf"(?<![a-z]){re.escape(c)}", low))]
    return min(found, default=-1)


_RELATIVE_END = re.compile(r"\b(?:which|that|who)\s*$")
_BULLET = re.compile(r"\s[\u2022\u00b7]\s")
"""A list's bullet inside a sentence ("•", "·"): a quote's subject is its last item's, not the lead-in's."""


def _cause_last(kind: NarrativeKind, sentence: str) -> str:
    """A sentence that names a cause before what it changed (``NarrativeKind.cause_first``: "Effective net pricing
    drove the change in PBNA net revenue") said the other way round, what changed first and the cause after the
    kind's cue ("the change in PBNA net revenue driven by Effective net pricing."), so that the relation checks read
    its subject; others (one whose cause holds a cue already, a verb in a relative clause: "..., which led to higher
    costs") as they are."""
    low = sentence.lower()
    hits = [m for v in kind.cause_first for m in re.finditer(rf"(?<![a-z]){re.escape(v)}(?![a-z])", low)
            if not _RELATIVE_END.search(low[:m.start()])]
    if not hits or "driven by" not in kind.cues:
        return sentence
    verb = min(hits, key=lambda m: m.start())
    cause, changed = sentence[:verb.start()].strip(" ,"), sentence[verb.end():].strip().rstrip(".")
    if not cause or not changed or _first_cue(kind, cause) >= 0:
        return sentence
    return f"{changed} driven by {cause}."


CAUSED_NEXT = 40
"""How near after a name a cause cue must follow for the name to head a clause of its own ("higher product sales of
about $240 million at Aeronautics mostly due to ...": Aeronautics' sales, told with their own drivers)."""


def _caused_next(kind: NarrativeKind, after: str) -> bool:
    """Whether a cause cue of the kind (not an offset) follows within ``CAUSED_NEXT`` characters, in the name's own
    clause (no comma, semicolon or "and" before it: "a 5.8% increase in Retail/LTC segment revenue and the impact
    of the Aetna Acquisition" names the acquisition as the next driver, not Retail/LTC's cause)."""
    low = after[:CAUSED_NEXT].lower()
    low = low[:cut.start()] if (cut := re.search(r"[,;]|\band\b", low)) else low
    return any(re.search(rf"(?<![a-z]){re.escape(c)}", low) for c in kind.cues if "offset" not in c)


_RELATIVE_CAUSE = re.compile(r",?\s+(?:which|that)\s+(?:was|were|is|are|has\s+been|had\s+been)\s*(?:\w+ly\s*)?$", re.I)
"""A subject whose cue follows a relative clause's verb ("The reasons ... were a decrease in other expense, net,
which was primarily due to"): the cause is the item named last's."""


def _lead_item(subject: str) -> tuple[str, str]:
    """The line item a sentence's subject names first, and the words it names it with ("The decrease in Cost of
    sales as a percentage of revenues": cogs, "Cost of sales"), a standard ratio by its definition; ('', '') when it
    names none. Where the subject ends in a relative clause's verb (``_RELATIVE_CAUSE``), the item it names last: what
    the cue after it is said of."""
    low = subject.lower()
    last = bool(_RELATIVE_CAUSE.search(subject))
    find = _last_match if last else re.search
    at = [(m.start(), it.name, subject[m.start():m.end()]) for it in items_named(subject) for n in it.names
          if (m := find(rf"(?<![a-z]){re.escape(n.lower())}(?![a-z])", low))]
    if last and at:
        return max(at)[1:]
    ratio = ratio_named(subject)
    if ratio and (m := re.search(rf"(?<![a-z]){re.escape(ratio[0])}", low)) and all(m.start() <= a[0] + 1 for a in at):
        # a ratio named where its items are ("the effective income tax rate": the rate, not income tax expense),
        # known by its definition ("effective tax rate" and "effective income tax rate" are one)
        return ratio[1], subject[m.start():m.end()]
    # the name right before what moved is the item that moved, past a heading run into the sentence ("Cash Flows
    # Cash from operations decreased ...")
    if (moved := _first_direction(subject)) is not None and (right := [
            a for a in at if a[0] + len(a[2]) == len(subject[:moved.start()].rstrip())]):
        return max(right, key=lambda a: len(a[2]))[1:]
    # at one place, the longest name is the item named ("cash flows provided by financing activities", not "cash")
    return min(at, key=lambda a: (a[0], -len(a[2])))[1:] if at else ("", "")


def _word_count(text: str) -> int:
    """A text's words, signs ("&", "–") aside."""
    return sum(1 for w in text.split() if any(c.isalnum() for c in w))


def _opens_with(sentence: str, parts: Iterable[str]) -> bool:
    """Whether a sentence opens with one of the parts' names (a part the question asks, not a sentence's capital)."""
    opening = sentence.lstrip(_OPENING).lower()
    return any(p and opening.startswith(p.lower()) for p in parts)


def _last_match(pattern: str, text: str) -> re.Match[str] | None:
    """The last match of a pattern in a text, or None."""
    return next(reversed(list(re.finditer(pattern, text))), None)


def _capitalised(subject: str, plain: set[str], first: bool = False) -> set[str]:
    """The capitalised words of a sentence's subject after its first word (names: "Google Services", "Other
    Bets"), less ``plain`` stems (the company's and documents' names, generic and period words); its first word too
    where ``first`` (a subject that is no sentence's start: "RMS' net sales") or where it names a place (the
    vocabulary's ``heading_places``: "International billed business grew by 23 percent")."""
    words = CONTENT_WORD.findall(subject)
    places = narrative().heading_places
    return {word_stem(w) for k, w in enumerate(words) if w[0].isupper() and word_stem(w) not in plain
            and (k > 0 or first or letters(w) in places)}


NAMED_SUBJECT = 6
"""The most words a quote's subject has for its names to be compared with a summary's (a list item's "Google
Services"; a longer one runs on from a heading: "Acquisition Activity On February 22, 2023, we")."""


TURNED_CHARS = 12
"""The words after a direction word (``_words_after``) must run this long to tell what it is said of."""


def _words_after(text: str, at: int, n: int = 6) -> str:
    """The ``n`` words of a text after a position, lower case, without the punctuation around them."""
    return " ".join(w.strip(",.;:()") for w in text[at:].lower().split()[:n]).strip()


def _narrower(subject: str, said: set[str]) -> list[str]:
    """The lower-case words of a quote's subject that ``said`` (the sentence's stems, and those it may leave out)
    lacks: a word that narrows it ("online" of "Domestic segment online revenue"). A line item's own words are
    another item, not a narrower one ("Net revenues in advisory" for advisory fees), and the words of where a filing
    reports a measure (``_ORGANISATION``) and determiners narrow nothing."""
    items = said_stems(n for it in items_named(subject) for n in it.names)
    for v in reversed(quantities(subject)):  # an amount's unit words ("The 0.8 percentage point increase")
        if (unit := POINTS.match(subject[v.end:])) is not None:
            subject = subject[:v.start] + subject[v.end + unit.end():]
    words = CONTENT_WORD.findall(subject)
    # the subject's first word, capitalised as a sentence's, where a line item's name follows it ("Products gross
    # margin percentage"; not a heading's: "Table of Contents International sales")
    rest = subject.strip()[len(words[0]):].strip().lower() if words else ""
    first = bool(words) and words[0][1:].islower() and subject.strip().startswith(words[0]) and any(
        rest.startswith(n.lower()) for it in items_named(subject) for n in it.names)
    return [w for i, w in enumerate(words) if (not w[0].isupper() or (i == 0 and first))
            and w.lower() not in _ORGANISATION | _DETERMINERS and word_stem(w) not in items | said]


_ORGANISATION = frozenset({"segment", "segments", "reportable", "operating"})
"""Words of a subject that say where a filing reports a measure ("Total Digital Media segment revenue", "operating
segment"), not which measure: no narrower subject for dropping them."""
_AMOUNT_TAIL = re.compile(r"\s+(?:of|was|were)\s+(?:[$\u20ac\u00a3\u00a5]\s?)?\d.*$")
"""A subject's amount after it ("Domestic segment online revenue of $4.0 billion"): not what it names."""
_DETERMINERS = frozenset({"our", "its", "their", "his", "her", "your", "this", "these", "those", "that"})
_DETERMINER = re.compile(rf"^(?:the|{'|'.join(sorted(_DETERMINERS))})\s+", re.I)
"""A determiner leading a phrase ("the", "its", "these"), which names nothing of it."""
_BARE = re.compile(r"^\W*(?:in\s+addition|additionally|also|however|moreover|further(?:more)?|as\s+a\s+result)\s*,\s*"
                   r"|\s+(?:was|were|is|are|has\s+been|have\s+been)(?:\s+\w+ly)?\s*$", re.I)
"""A subject's transition before it ("In addition, net revenues in FICC financing were significantly higher") and
its verb after it: neither names what moved."""
_AS_SHARE = re.compile(r"\b(?:as\s+an?\s+)?(?:percent(?:age)?|share|proportion|ratio)\s+(?:of|to)\s+(?:(?:total|net|"
                       r"our|its)\s+)*[a-z]+", re.I)
"""An item given as a share of another ("measured as a percent of sales", "as a percentage of revenues", "increased
as a percent to sales"): what changed is the share, not the item."""
_SHARE_WORD = re.compile(r"\b(?:percent(?:age)?s?|shares?|proportions?|ratios?|margins?|rates?)\b|%", re.I)
"""A summary subject's word that gives its item as a share already."""
_NOT_MOVES = frozenset({"higher", "lower", "growth", "expansion", "contraction", "reduction", "increase",
                        "decrease", "decline", "drop", "fall", "rise", "lift", "boost"})
"""Direction words that are no verb a subject does (an adjective, a noun): the word before them is no subject."""


def _changed_item(subject: str) -> str:
    """The item a subject opening with its change names ("The decrease in FICC intermediation net revenues": "FICC
    intermediation net revenues"), up to where its name ends (``_HEAD_END``); '' for any other subject."""
    change = _CHANGE_IN.match(f"{subject.strip()} was")
    if change is None or not change_words().nouns.fullmatch(change["way"]):
        return ""
    return _item_name(change["item"]).strip()


def _moved_head(subject: str, plain: set[str]) -> list[str]:
    """What a quote's subject says moved: the word before its first direction verb ("As of December 2022, our
    Investment banking fees backlog decreased significantly": "backlog"), with the up to three words before it in
    its phrase (["Investment", "banking", "fees", "backlog"]); [] where no verb follows a content word (a stopword,
    a generic or period word before it: "was lower", "the increase")."""
    rises, falls = directions()
    found = sorted((*rises.finditer(subject), *falls.finditer(subject)), key=lambda m: m.start())
    for m in found:
        if m.group(0).lower() in _NOT_MOVES:
            continue
        before = re.findall(r"[A-Za-z][A-Za-z&'’-]*|[,;:()]", subject[:m.start()])
        if not before or not before[-1][0].isalpha():
            return []
        head = before[-1]
        if head.lower() in STOPWORDS or word_stem(head) in plain:
            return []
        phrase = [head]
        for w in reversed(before[:-1]):
            if len(phrase) == 4 or not w[0].isalpha() or w.lower() in STOPWORDS or w.lower() in _DETERMINERS:
                break
            phrase.insert(0, w)
        return phrase
    return []


def _nested(mine: str, drivers: str, plain: set[str]) -> bool:
    """Whether a sentence's subject is among a quote's drivers ("Compensation costs increased, reflecting ..." from
    "Salaries and employee benefits expense increased, primarily driven by higher compensation costs, reflecting
    ..."): the sentence tells the quote's cause of its cause, not another subject's."""
    head = _moved_head(mine, plain)
    return bool(head) and {word_stem(w) for w in head} <= said_stems([drivers])


def _named_part(subject: str) -> str:
    """The part a subject names with its kind word (``part_named``: "Embedded and Semi-Custom" of "... attributable to
    our Enterprise, Embedded and Semi-Custom segment"), where that is a name, not the capitalised first word of a
    sentence ("Business segment operating income margins"); '' where none."""
    part = part_named(subject)
    return part if part and (" " in part or not subject.strip().startswith(part)) else ""


def _owner_named(subject: str, item: str, plain: set[str]) -> str:
    """The name a subject puts right before its line item's ("Greater China" of "the Greater China net sales
    decrease", "Americas" of the run-in "Americas Americas net sales decreased"): a part of the company, told as the
    item's owner; '' where the item follows no name (or only the company's, ``plain``)."""
    subject = _FURNITURE.sub(" ", subject)
    if not item or (at := subject.find(item)) <= 0:
        return ""
    words = subject[:at].split()
    run: list[str] = []
    for w in reversed(words):
        if not NAME_WORD.fullmatch(w.strip(",")) or w[0].islower() or w.lower() in STOPWORDS | _DETERMINERS:
            break
        run.insert(0, w.strip(","))
    half = len(run) // 2
    if half and run[:half] == run[half:]:
        names = run[:half]  # a run-in heading: "Americas Americas net sales"
    elif len(run) < len(words) and words[-len(run) - 1][0].islower():
        names = run  # after "the", "our", "in": a name, not a sentence's first capital
    else:
        return ""
    name = " ".join(names)
    return name if name and {name_key(w) for w in names} - plain else ""


def _first_direction(text: str) -> re.Match[str] | None:
    """A text's first direction word (``directions``: "increased", "lower"), or None."""
    rises, falls = directions()
    return min((*rises.finditer(text), *falls.finditer(text)), key=lambda m: m.start(), default=None)


def _mover(subject: str) -> str:
    """A quote subject's words before its first direction word ("NIKE Direct revenues" of "NIKE Direct revenues grew
    13% for fiscal 2018"), from its sentence's start where a heading runs into it; '' when it has none."""
    first = _first_direction(subject)
    if first is None or first.start() == 0:
        return ""
    at = first.start()
    # a heading run into the sentence ("2023 Guidance Our 2023 organic revenue"): the sentence starts at its last
    # capitalised stopword
    starts = [m.start() for m in re.finditer(r"(?<![\w&'’-])[A-Z][a-z]*\b", subject[:at]) if m.start() > 0
              and (m.group(0).lower() in STOPWORDS or m.group(0).lower() in _DETERMINERS or m.group(0) == "We")]
    return subject[max(starts, default=0):at].strip(" ,")


_CHANGE_IN = re.compile(r"^\W*(?:the\s+|a\s+|an\s+)?(?P<way>\w+)\s+in\s+(?P<item>.+?)\s+(?:was|were|is|are|has|had|"
                        r"reflect\w*|primarily|mainly|largely|partly|due|driven|resulted|came)\b", re.I)
"""A sentence opening with a change noun and its item: "The increase in net interest income in 2023 was driven by"."""
_HEAD_END = re.compile(r"\s+(?:in|for|during|was|were|is|are|compared|versus|from|to|at|by)\b|[,;:(]", re.I)
"""Where an item's name ends in its subject ("Net interest income| in the consolidated statements ... for 2023")."""


def _item_name(subject: str) -> str:
    """A subject's words up to where the item it names ends (a preposition, verb or comma: ``_HEAD_END``)."""
    return subject[:m.start()] if (m := _HEAD_END.search(subject)) else subject


def _head(subject: str, plain: set[str]) -> frozenset[str]:
    """The stems of the item a subject names (``_item_name``), less ``plain``."""
    return frozenset(said_stems([_item_name(subject)]) - plain)


_LEADING_PERIOD = re.compile(r"^(?:in|for|during)\b[^,]*,\s*", re.I)


def _change_of(sentence: str, plain: set[str]) -> tuple[frozenset[str], bool] | None:
    """The item a sentence says moved (``_head``: two words at least) and which way: "The increase in net interest
    income in 2023 was driven by ..." and "In 2023, net interest income increased ..." move net interest income
    up."""
    rises, falls = directions()
    text = CITATION.sub(" ", sentence)
    change = _CHANGE_IN.match(text)
    if change and (rises.fullmatch(change["way"]) or falls.fullmatch(change["way"])):
        head, up = _head(change["item"], plain), bool(rises.fullmatch(change["way"]))
    else:
        who = _LEADING_PERIOD.sub("", _mover(text))
        rest = text[text.index(who) + len(who):] if who and who in text else ""
        head, up = _head(who, plain), bool(rises.match(rest.lstrip(" ,")))
    return (head, up) if len(head) > 1 else None


def _moves(sentence: str, plain: set[str]) -> tuple[frozenset[str], bool] | None:
    """What a sentence says moved and which way: the stems of its subject (``_mover``, less ``plain``) and whether
    its first direction word says up; None where the subject has fewer than two such words (a bare "Revenue")."""
    rises, _ = directions()
    text = CITATION.sub(" ", sentence)
    who = _mover(text)
    stems = frozenset(said_stems([who]) - plain)
    if len(stems) < 2:
        return None
    rest = text[len(who):] if text.startswith(who) else sentence
    return stems, bool(rises.match(rest.lstrip(" ,")))


_DENIAL = re.compile(r"\b(?:not|never|neither|nor)\b|n[’']t\b", re.I)
"""A word that denies what its sentence says ("was not related to", "did not include", "isn't")."""
_NOT_ONLY = re.compile(r"\bnot\s+(?:only|just|merely|all|every|always|necessarily)\b", re.I)
"""A "not" that adds or limits rather than denies ("not only X but Y", "not all of it")."""
_NOT_SAID = re.compile(r"\W*(?:\w+\s+){0,2}?(?:stated|mentioned|said|specified|disclosed|provided|given|discussed|"
                       r"explained|detailed|quantified|addressed|(?:in|by)\s+\[\d+\])\b", re.I)
"""What follows a denial of what a source says ("which is not stated in [5]", "not mentioned", "not specified"): the
sentence tells what the quotes lack, not that a claim is false."""


def _clip(text: str, most: int = 80) -> str:
    """A quoted span as a flag shows it: whole up to ``most`` characters, else its first and last words around
    " ... "."""
    if len(text) <= most:
        return text
    head, tail = text[:most // 2].rsplit(" ", 1)[0], text[-most // 2:].split(" ", 1)[-1]
    return f"{head} ... {tail}"


def _denied(summary: str, quotes: Sequence[Quote], q: Question, names: Iterable[str]) -> list[str]:
    """A sentence of the summary that denies what a quote sentence says without denial: "The amortization of
    intangible assets was not related to this." beside [4]'s "... was primarily related to asset impairments ... and
    the amortization of intangible assets" gives '[4] says it without “not”: “the amortization of intangible
    assets”'. The words of what it denies, before the denial (two at least; the question's, the company's, generic
    and stop words aside), must all be in the one quote sentence, which has no denial of its own ("not", "no",
    "never", "without"), so that the denied claim is the quote's. A sentence saying what the quotes lack, or a "not
    only ... but" that adds, denies nothing."""
    plain = plain_stems(names) | said_stems([q.text])
    theirs = [(x.source, s) for x in quotes for s in split_sentences(x.text) if not _NEGATION.search(s)]
    out: list[str] = []
    for sentence in split_sentences(summary):
        denial = _DENIAL.search(sentence)
        if denial is None or _LACKS.search(sentence) or _NOT_ONLY.search(sentence) or _NOT_SAID.match(
                sentence, denial.end()):
            continue
        own = {word_stem(w) for w in CONTENT_WORD.findall(sentence[:denial.start()]) if word_stem(w) not in plain}
        if len(own) < 2:
            continue
        for src, s in theirs:
            found = [m for m in CONTENT_WORD.finditer(s) if word_stem(m.group(0)) in own]
            if {word_stem(m.group(0)) for m in found} != own:
                continue
            # the shortest run of the quote sentence that holds them all
            runs = []
            for i, first in enumerate(found):
                seen: set[str] = set()
                for last in found[i:]:
                    seen.add(word_stem(last.group(0)))
                    if seen == own:
                        runs.append((last.end() - first.start(), first.start(), last.end()))
                        break
            _, start, end = min(runs)
            span = s[start:end]
            flag = f"[{src}] says it without \u201c{denial.group(0)}\u201d: \u201c{_clip(span)}\u201d"
            if flag not in out:
                out.append(flag)
            break
    return out


def _direction_disputed(summary: str, quotes: Sequence[Quote], names: Iterable[str]) -> list[str]:
    """A direction the quotes do not agree on, told one way: "More Personal Computing revenue increased, primarily
    due to ..." where another quote says "More Personal Computing revenue decreased $2.7 billion" (a filing
    discusses each year in turn, and a quote may be the year before's) gives '[5] says “More Personal Computing
    revenue decreased”'. The subject must be the same words (two at least, the company's name and generic words
    aside). A sentence that names its year is judged only against quote sentences that give the same item's
    direction for that year ("The increase in net interest income in 2023" where [5] says "Net interest income ...
    was $6.35 billion for 2023, 17% lower than 2022" gives '[5] says “Net interest income ... lower”'); one that
    names another period ("in the second quarter of 2022") is not judged: it says which of the quotes' periods it
    tells."""
    plain = plain_stems(names)
    theirs = [(x.source, s, m) for x in quotes for s in split_sentences(x.text) if (m := _moves(s, plain))]
    rises, falls = directions()
    out: list[str] = []
    for sentence in split_sentences(summary):
        dated = {m.group(0) for m in YEAR.finditer(sentence)}
        if (mine := (_change_of if dated else _moves)(sentence, plain)) is None:
            continue
        if dated:
            # the quote sentences that give this item's direction for a year the sentence names: "Net interest
            # income ... for 2023, 17% lower than 2022" (the year before its direction word)
            other = None
            for x in quotes:
                for s in split_sentences(x.text):
                    first = _first_direction(s)
                    if first is None or _head(s[:first.start()], plain) != mine[0]:
                        continue
                    years = {m.group(0) for m in YEAR.finditer(s[:first.start()])}
                    if dated & years and bool(rises.fullmatch(first.group(0))) != mine[1]:
                        end = _HEAD_END.search(s)
                        other = (x.source, f"{s[:end.start()] if end else s[:first.start()]} ... {first.group(0)}")
                        break
                if other:
                    break
            if other is not None:
                flag = f"[{other[0]}] says \u201c{other[1]}\u201d"
                if flag not in out:
                    out.append(flag)
            continue
        if asked_period(sentence).text:
            continue  # a sentence naming its period says which of the quotes' periods it tells
        found = next(((src, s) for src, s, (who, up) in theirs if who == mine[0] and up != mine[1]), None)
        if found is not None:
            src, s = found
            word = (falls if mine[1] else rises).search(s)
            said = f"{_mover(s)} {word.group(0)}" if word else _mover(s)
            flag = f"[{src}] says \u201c{said}\u201d"
            if flag not in out:
                out.append(flag)
    return out


def _named_end(q: Question, part: str, text: str, at: int) -> int:
    """Where a part the question names ends in a text after ``at``: its name ("Display Technologies") or its acronym
    ("BDS" for "Boeing Defense, Space & Security", ``_acronym_of``); 0 where the text names it nowhere there."""
    if part in text[at:]:
        return text.index(part, at) + len(part)
    words = NAME_WORD.findall(part)
    for m in _ACRONYM.finditer(text, at):
        if words and _acronym_of(q, words, [m.group(0)]):
            return m.end()
    return 0


@cache
def _anaphor() -> re.Pattern[str]:
    """A subject that points back at a change (a change noun, ``change_words``: "The decrease was primarily
    attributable to ...", "Increases were primarily due to ..."), naming no item."""
    return re.compile(rf"^\W*(?:(?:the|this|these|that|those|such)\s+(?:\w+\s+)?)?(?:{change_words().nouns.pattern})"
                      r"(?!\s+(?:in|of)\b)", re.I)


_POINTS_BACK = re.compile(r"^\W*(?:(?:however|additionally|in addition|as a result|excluding\b[^,]{0,80}),\s+)?"
                          r"(?:the|this|these|that|those|such)\b", re.I)
"""A sentence whose subject opens with a determiner, after a qualifier ("The decrease in SG&A expense was ...",
"Excluding the impact of foreign currency, the decrease in SG&A was $115 million"): it goes on with what a sentence
before it stated."""
_IS = re.compile(r"\b(?:was|were|is|are)\b")
OWNER_REACH = 4
"""How many sentences back a sentence that goes on with another (``_POINTS_BACK``) looks for the one it goes on
with."""


_HEADED = re.compile(r"^\W*(?P<name>[A-Z][\w&'’.]*(?:,?\s+(?:&\s+|and\s+)?[A-Z][\w&'’.]*)*)\s+[-–—:]\s+(?P<rest>\w+)")
"""A sentence opening under a heading run into it, set off by a dash or colon ("Graphics - Segment gross margin
decreased ...", "Pharmaceutical Segment: In 2022, ...")."""


def _headed_part(sentence: str, plain: set[str]) -> str:
    """The part a sentence is told under (``_HEADED``): a heading of capitalised words, the part's kind word
    (``[narrative.summary] part_words``: "segment") in it or right after it, less ``plain`` stems; '' where none."""
    m = _HEADED.match(sentence)
    if m is None:
        return ""
    kinds = narrative().part_words
    words = m["name"].split()
    if words[-1].lower() not in kinds and m["rest"].lower() not in kinds:
        return ""
    name = " ".join(words[:-1] if words[-1].lower() in kinds else words)
    return name if any(w[0].isupper() and word_stem(w) not in plain for w in CONTENT_WORD.findall(name)) else ""


def _owner(sentence: str, x: Quote, passage: str) -> str:
    """The subject of the statement a quote sentence goes on with (``_POINTS_BACK``): the nearest sentence before
    it, in its quote or its passage, whose subject opens with none, within ``OWNER_REACH`` sentences ("Our
    International segment's SG&A" of "Our International segment's SG&A decreased $232 million ... Excluding the
    impact of foreign currency ..., the decrease in SG&A was $115 million. ... The decrease in SG&A expense was
    driven by ..."); a change pointed back at with no item ("The decrease was primarily attributable to ...") goes
    on with the sentence right before it ("RMS' net sales in 2022 decreased $641 million ..."); '' where the
    sentence opens with its own subject or none is found."""
    subject = sentence[:m.start()] if (m := _IS.search(sentence)) else sentence
    item = _lead_item(subject)[0]
    if not _POINTS_BACK.match(sentence) or sentence not in x.text:
        return ""
    told = split_sentences(f"{_lead_in(x, passage)} {x.text[:x.text.index(sentence)]}".strip())
    if not item:
        return _statement_subject(told[-1]) if (
            _anaphor().match(sentence) and told and not _POINTS_BACK.match(told[-1])) else ""
    # a subject that narrows its item by words of its own ("The 12% increase in currency-neutral footwear revenues")
    # states what it is about
    rises, falls = directions()
    own = said_stems([subject]) - plain_stems(()) - said_stems(
        [n for it in items_named(subject) if it.name == item for n in (*it.names, *it.labels)])
    if any(not rises.fullmatch(w) and not falls.fullmatch(w) for w in CONTENT_WORD.findall(subject)
           if word_stem(w) in own):
        return ""
    chain = False  # whether the sentences gone back over name the sentence's item
    for prev in reversed(told[-OWNER_REACH:]):
        chain = chain or any(it.name == item for it in items_named(prev))
        if _POINTS_BACK.match(prev):
            continue
        return _statement_subject(prev) if chain else ""
    return ""


def _statement_subject(sentence: str) -> str:
    """The subject of a sentence that states a change or an amount ("Our International segment's SG&A" of "Our
    International segment's SG&A decreased $232 million"), ``NAMED_SUBJECT`` words at most; '' where none."""
    ends = [m.start() for m in (_first_direction(sentence), _IS.search(sentence)) if m is not None]
    if not ends or min(ends) == 0:
        return ""
    # a heading run into it starts the sentence at its last capitalised stopword (``_mover``) or after its colon ("RMS'
    # operating results included the following (in millions): RMS' net sales in 2022 decreased ..."); a clause before
    # the subject ("As of December 31, 2018, the Company", "After excluding the gain ...") is no part of it
    subject = _mover(f"{sentence[:min(ends)].rsplit(': ', 1)[-1]} increased")
    if (clause := subject.rsplit(", ", 1)) and len(clause) == 2 and clause[1][:1].islower():
        subject = clause[1]
    return subject if len(subject.split()) <= NAMED_SUBJECT else ""


_CAPITALS_BEFORE = re.compile(r"^(?:[A-Z0-9&,.'\u2019()-]+\s+){2,}(?=[A-Z][a-z])")
"""Words in capitals before a sentence's own first word: a heading run into it ("FISCAL 2023 COMPARED TO FISCAL 2022
Other (income) expense, net increased ...")."""


def _referent(sentence: str, own: Sequence[Quote], quotes: Sequence[Quote], passages: Sequence[str]
              ) -> tuple[str, str] | None:
    """The line item (``_lead_item``) a quote sentence that points back at a change is about: the item of the
    sentence before it, in its quote or, the quote's first, in its passage before it ("RMS' net sales in 2022
    decreased $641 million, or 4%, compared to 2021. The decrease was ..."); ('', its subject) where the vocabulary
    knows no item of it ("Other (income) expense, net increased ... This increase was partially offset by ...")."""
    for x in own:
        if sentence not in x.text:
            continue
        before = next((_lead_in(x, p) for y, p in zip(quotes, passages, strict=False) if y is x), "")
        told = split_sentences(f"{before} {x.text[:x.text.index(sentence)]}".strip())
        if not told:
            return None
        prev = told[-1]
        first = _first_direction(prev)
        item = _lead_item(prev[:first.start()] if first else "")
        if item[0]:
            return item
        # an item the vocabulary does not know ("Other (income) expense, net increased ..."): its subject's words
        who = _CAPITALS_BEFORE.sub("", _mover(prev)) if first else ""  # a heading in capitals run into it aside
        return ("", who) if who and len(who.split()) <= 2 * NAMED_SUBJECT else None
    return None


def _restated_about_something_else(summary: str, quotes: Sequence[Quote], q: Question,
                                   names: Iterable[str], passages: Sequence[str] = ()) -> list[str]:
    """A summary sentence that restates one quote sentence (``FORECAST_SHARE`` of its words, four at least) under
    another subject: the quote's subject (its words before the first cue of the kind asked, "driven by",
    "includes", ...; a list's item, not its lead-in) names first a line item the sentence's subject does not name,
    or names that the sentence's subject swaps for others. "The decrease in Pfizer's revenues ... was mainly driven
    by favorable changes in sales mix" restating "The decrease in Cost of sales as a percentage of revenues ... was
    mainly driven by favorable changes in sales mix" gives '[5] is about “Cost of sales”'; "Alphabet's Other Bets
    segment consists of ads, Android, Chrome ..." from "• Google Services includes products and services such as
    ads, Android, Chrome ..." gives '[1] is about “Google Services”'. A direction word of the sentence that the
    restated quote turns ("partially offset by higher net favorable profit adjustments on production" where it says
    "lower net favorable profit adjustments on production", and no quote says "higher" of them) gives '[9] says
    “lower net favorable profit adjustments on production”'. A part the question names that the sentence's subject
    names where the quote names it only among its drivers ("Display Technologies' sales ... driven by lower sales in
    the segment" from "Net sales ... decreased, driven by lower sales in the Display Technologies ... segments")
    gives '[5] gives “Display Technologies” as a driver, not as what changed' (of a question asking what drove a
    change: a lawsuit's "court" is no cause of what its sentence opens with). A quote whose subject is one
    segment's ("... attributable to our Embedded and Semi-Custom segment increased") told of the company, where the
    question asks no part, gives '[5] is about the “Embedded and Semi-Custom” segment'. Every word is quoted; the
    relation is the model's."""
    asked = q.told
    kind = narrative().kind(asked.narrative) if asked is not None else None
    if kind is None or not kind.cues:
        return []
    names = list(names)
    plain = plain_stems(names)
    parts = asked_parts(q, plain, names)
    rises, falls = directions()
    sentences = _quote_sentences(quotes)
    out: list[str] = []
    for sentence in (_cause_last(kind, t) for t in split_sentences(summary)):
        if (found := _restated(sentence, sentences)) is None:
            continue
        words, (source, best, _) = found
        if (whole := _told_whole(sentence, quotes)) is not None:
            # a quote told whole: its subject is its lead-in's
            source, best = whole, next(x.text for x in quotes if x.source == whole)
        elif len(items := _BULLET.split(best)) > 1:
            # a list item told: with its own cause, its subject is its own; else the list's lead-in's ("driven by:")
            item = max(items, key=lambda t: len(words & said_stems([t])))
            if _first_cue(kind, item) > 0:
                best = item
            elif not items[0].rstrip().endswith(":"):
                continue  # an item of a list of statements, telling no cue: the cue is another item's
        # a direction turned ("higher net favorable profit adjustments" where the quote restated says "lower net
        # favorable profit adjustments" and no quote says "higher" of them)
        for m in (*rises.finditer(sentence), *falls.finditer(sentence)):
            after = _words_after(sentence, m.end())
            if len(after) < TURNED_CHARS:
                continue
            same, other = (rises, falls) if rises.fullmatch(m.group(0)) else (falls, rises)
            if any(_words_after(t, x.end()) == after for _, t, _ in sentences for x in same.finditer(t)):
                continue
            # (or says it did not move: "was flat during the first nine months ..." told as "increased during ...")
            turned = next((x for x in (*other.finditer(best), *change_words().flat.finditer(best))
                           if _words_after(best, x.end()) == after), None)
            if turned is not None:
                out.append(f"[{source}] says \u201c{turned.group(0)} {after}\u201d")
        if (cut := _first_cue(kind, sentence)) <= 0 or (at := _first_cue(kind, best)) <= 0:
            continue
        theirs = _BULLET.split(best[:at])[-1].strip()
        mine = sentence[:cut]
        if rises.match(mine.lstrip(_OPENING)) or falls.match(mine.lstrip(_OPENING)):
            continue  # no subject: the sentence opens with the drivers ("Increased unit sales, ...")
        (lead, named), (own_lead, _) = _lead_item(theirs), _lead_item(mine)
        if kind.name == "drivers" and (driver := next((r for r in parts if r in mine and r not in theirs and (
                end := _named_end(q, r, best, at)) and not _caused_next(kind, best[end:])), None)) is not None:
            # the asked part is among the quote's drivers of something else ("Net sales ... decreased, driven by lower
            # sales in the Display Technologies, Optical Communications ... segments"), told as what changed
            flag = f"[{source}] gives \u201c{driver}\u201d as a driver, not as what changed"
        elif (kind.name == "drivers" and (changed := POSSESSOR.sub("", _changed_item(mine)).strip(" ,"))
              and _word_count(changed) >= 2 and changed.lower() not in theirs.lower() and not _anaphor().match(theirs)
              and (named_at := re.search(rf"(?<![a-z]){re.escape(changed.lower())}(?![a-z])", best[at:].lower()))
              and not _caused_next(kind, _WHICH.sub(" ", best[at + named_at.end():]))):
            # what the sentence says changed is one of the quote's drivers of something else, with no cause of its
            # own ("mainly impacted by a positive interest margin ... and a profit on financial transactions" told
            # as "The positive interest margin ... drove the change in ... profit on financial transactions")
            flag = f"[{source}] gives \u201c{changed}\u201d as a driver, not as what changed"
        elif ((joined := _JOINED.match(_REPORTED.sub("", mine).strip(" ,")))
              and (alone := _DETERMINER.sub("", theirs.strip(" ,")))
              and said_stems([alone]) - plain == said_stems([joined["b"]]) - plain != set()):
            # the quote tells one of two things the sentence joins ("The emerging growth businesses primarily
            # consist of ..." told as "Hemlock and Emerging Growth Businesses primarily consist of ..."): what it
            # says of the one is not said of both
            flag = f"[{source}] is about \u201c{alone}\u201d alone"
        elif lead and own_lead and lead != own_lead:
            flag = f"[{source}] is about \u201c{named}\u201d"
        elif (not lead and own_lead and _anaphor().match(theirs)
              and (referred := _referent(best, [x for x in quotes if x.source == source], quotes, passages))
              and (referred[0] != own_lead if referred[0]
                   else not (said_stems([referred[1]]) - plain) & (said_stems([mine]) - plain))):
            # "The decrease was primarily attributable to ..." after "RMS' net sales in 2022 decreased $641 million":
            # the change is the sentence before's item
            flag = f"[{source}] is about \u201c{referred[1]}\u201d"
        elif ((subject := (changed := _changed_item(theirs)) or (theirs if _word_count(theirs) <= NAMED_SUBJECT
                                                                  else _mover(theirs)))
              and _word_count(subject) <= NAMED_SUBJECT
              and (mine_named := _capitalised(mine, plain, first=_opens_with(mine, parts)))
              and (theirs_named := _capitalised(subject, plain, first=bool(changed)))
              and not mine_named & theirs_named):
            # the quote's subject names another part than the sentence's: "International billed business grew by 23
            # percent ..., driven by ..." told as the Commercial Services segment's (a longer subject: what moved;
            # a sentence opening with the part asked names it: "Graphics segment operating income increased ..."
            # restating "Compute & Networking – Segment operating income increased ...")
            flag = f"[{source}] is about \u201c{subject}\u201d"
        elif ((head := _moved_head(theirs, plain)) and word_stem(head[-1]) not in words
              and not _nested(mine, best[at:], plain)):
            flag = f"[{source}] is about \u201c{' '.join(head)}\u201d"
        elif ((who := _mover(theirs)) and len(who.split()) <= NAMED_SUBJECT
              and (part := _capitalised(who, plain | _subject(q)[1])) and not _capitalised(mine, plain)
              and not part & (words | said_stems([q.text]))):
            # the quote's subject is a named part ("NIKE Direct revenues grew 13%"), the sentence's the whole
            flag = f"[{source}] is about \u201c{who}\u201d"
        elif (not parts and (segment := _named_part(who := _mover(best))) and f"{segment} segment" in who
              and not _capitalised(mine, plain) and not _name_keys(sentence) & _name_keys(segment)):
            # the quote's subject is a named part's ("Marketing, general and administrative expenses attributable to
            # our Embedded segment increased primarily due to ..."), told of the company the question asks about (a
            # sentence's capitalised first word is no name: "Business segment operating income margins")
            flag = f"[{source}] is about the \u201c{segment}\u201d segment"
        elif ((owner := next((o for x, p in zip(quotes, passages, strict=False) if x.source == source
                               and (o := _owner(best, x, p))), ""))
              and (owned := _capitalised(owner, plain | _subject(q)[1] | _name_keys(theirs) | said_stems(
                  n for it in items_named(owner) for n in it.names), first=True))  # an item's words are no names
              and not _capitalised(mine, plain | _subject(q)[1])
              and not owned & (_name_keys(sentence) | said_stems(parts))):
            # a sentence going on with a named part's statement ("Our International segment's SG&A decreased $232
            # million ... The decrease in SG&A expense was driven by ..."), told of the company or another part
            flag = f"[{source}] is about \u201c{owner}\u201d"
        elif (share := _AS_SHARE.search(theirs.rsplit(":", 1)[-1])) and not _SHARE_WORD.search(mine):
            # the quote gives its item as a share of another ("Cost of sales, measured as a percent of sales,
            # increased ... primarily due to foreign currency effects"), the sentence the item itself
            what = _mover(theirs) or theirs.strip()
            flag = f"[{source}] is about \u201c{what}\u201d ({' '.join(share.group(0).split())})"
        elif ((who := _BARE.sub("", _AMOUNT_TAIL.sub("", _mover(theirs))))
              and len([w for w in who.split() if not w[0].isupper()]) <= NAMED_SUBJECT  # a name's words aside
              and (narrower := _narrower(who, plain | said_stems([mine]) | said_stems([q.text])))):
            # the quote's subject narrows the sentence's by a word it drops ("Domestic segment online revenue
            # increased 13.5% ... primarily due to higher conversion rates" told of the segment's revenue)
            flag = f"[{source}] is about \u201c{who}\u201d ({narrower[0]})"
        else:
            continue
        if flag not in out:
            out.append(flag)
    return out


def _items(texts: Iterable[str]) -> list[str]:
    """Texts with each bullet that says what moved of its own item ("Key changes in expenses were: • Cost of revenue
    decreased ..., • Sales and marketing expenses decreased $1.0 billion or 6%, driven by ...") a text of its own; a
    bullet naming no item of its own (a list of drivers: "driven by: • A • B") stays with its lead-in."""
    out: list[str] = []
    for text in texts:
        pieces = text.split("\u2022")
        out.append(pieces[0])
        for piece in pieces[1:]:
            first = _first_direction(piece)
            if first is not None and first.start() > 0 and _lead_item(piece[:first.start()])[0]:
                out.append(piece)
            else:
                out[-1] += "\u2022" + piece
    return out


def _driver_of_another_item(summary: str, quotes: Sequence[Quote], q: Question, names: Iterable[str]) -> list[str]:
    """A driver taken from a quote whose subject is another line item: "Consumer Health sales decreased by 0.5% in
    2022, primarily due to one-time COVID-19 vaccine manufacturing exit related costs" where that cost is a bullet
    of "Cost of products sold increased as a percent to sales driven by: • One-time COVID-19 vaccine manufacturing
    exit related costs ..." gives '[7] gives “One-time COVID-19 vaccine” for “Cost of products sold”'. The drivers
    are a summary sentence's words after its first cue of the kind asked, ``OFFSET_GRAM`` content words in a row;
    the quote's subject is its words before its first cue (a list's items kept with their lead-in), its item the
    first line item it names (``_lead_item``). A quote whose item is the sentence's, or one of the asked ratio's
    items ("cost of sales" for a gross margin), gives the driver for it."""
    asked = q.told
    kind = narrative().kind(asked.narrative) if asked is not None else None
    if asked is None or kind is None or asked.narrative != "drivers":
        return []
    names = list(names)
    plain_all = plain_stems(names)
    plain = plain_all - set(common_stems())
    _, defined = _subject(asked)
    asked_words = said_stems([q.text])
    parts = asked_parts(q, plain_all, names)
    pieces: list[tuple[int, str, str, dict[tuple[str, ...], str], str, str]] = []
    for x in quotes:
        for t in (_cause_last(kind, t) for t in _items(_FULL_STOP.split(x.text))):
            if (at := _first_cue(kind, t)) > 0:
                subject = re.split(r"[).:;\u2022]", t[:at])[-1]  # a heading or a chart's note before
                item, named = _lead_item(subject)
                if not item and (change := _CHANGE_IN.match(subject + " was")) and (
                        head := _head(change["item"], plain)) and (
                        noun := CONTENT_WORD.findall(change["item"])) and word_stem(noun[-1]) not in asked_words:
                    # an item the vocabulary does not know, named after its change ("The decrease in ROI was due
                    # to ...", "The change in our Digital Media ARR was ..."), whose noun the question does not ask
                    item, named = " ".join(sorted(head)), change["item"]
                # the part it is told of: under its heading ("Graphics - Segment gross margin ...") or by name
                part = _headed_part(t, plain_all | defined) or _named_part(subject)
                pieces.append((x.source, item if not said_stems([named]) & defined else "", named,
                               _grams(t[at:], plain), part, _owner_named(subject, named, plain_all)))
    out: list[str] = []
    same = {word_stem(w) for group in narrative().same for w in group}
    for sentence in (_cause_last(kind, t) for t in split_sentences(CITATION.sub(" ", summary))):
        if (cut := _first_cue(kind, sentence)) <= 0:
            continue
        # the item the sentence tells of: the vocabulary's, else the words of what it says moved ("Amazon's
        # fulfillment expenses increased"), less the words any item may take ("costs", "expenses")
        mine = _lead_item(sentence[:cut])[0]
        moved: frozenset[str] = frozenset()
        if not mine and (what := _change_of(sentence[:cut], plain_all)) is not None:
            moved = what[0] - same
        if not mine and not moved:
            continue
        told_whole = _told_whole(sentence, quotes)  # a quote told whole gives its items' drivers under its lead-in
        for g, written in _grams(sentence[cut:], plain).items():
            theirs = [(src, item, named, part) for src, item, named, grams, part, _ in pieces if g in grams]
            owners = [owner for *_, grams, _, owner in pieces if g in grams]
            if any(src == told_whole for src, *_ in theirs):
                continue
            if theirs and all(item and item != mine and not moved & said_stems([named])
                              for _, item, named, _ in theirs):
                src, _, named, _ = theirs[0]
                flag = f"[{src}] gives \u201c{written}\u201d for \u201c{named}\u201d"
            elif (theirs and not parts and all(part for *_, part in theirs)
                  and not _capitalised(sentence[:cut], plain_all | defined)
                  and not _name_keys(sentence) & _name_keys(theirs[0][3])):
                # one part's driver told of the company the question asks about
                src, *_, part = theirs[0]
                flag = f"[{src}] gives \u201c{written}\u201d for the \u201c{part}\u201d segment"
            elif (theirs and parts and all(o and not any(_same_part(o, p) for p in parts) for o in owners)
                  and any(name_letters(p) <= name_letters(sentence) for p in parts)
                  and not _name_keys(sentence) & _name_keys(owners[0])):
                # another part's driver told of the part the question asks about, which the sentence names
                # ("partially offset by higher net sales of Services", the Americas' offset, told for Greater China)
                flag = f"[{theirs[0][0]}] gives \u201c{written}\u201d for \u201c{owners[0]}\u201d"
            else:
                continue
            if flag not in out:
                out.append(flag)
            break
    return out


def _question_word_put_in(summary: str, quotes: Sequence[Quote], q: Question, names: Iterable[str]) -> list[str]:
    """A word of the question that a summary sentence puts into what one quote says, where that quote does not say
    it: "Alphabet faces antitrust matters, including claims, lawsuits, regulatory and government investigations"
    restating a quote of all its legal matters gives '[5] does not say “antitrust”'; "The Space segment's profit
    ... partially offset by higher net favorable profit adjustments" restating the F-35's sentence gives '[4] does
    not say “segment”'. The question's words count as said everywhere else in the check (a summary names what was
    asked); in a sentence that restates one quote (``FORECAST_SHARE`` of its words, four at least), a word of the
    question that no sentence of that quote has is the model's, in the quote's mouth. Names (capitalised words), the
    asked item's own names, direction words (the quote's "declined" for the question's "drop"; a direction the
    quote turns is flagged as such), generic, period and relative words, and the words before a colon (a lead-in that
    repeats the question: "The impact of foreign exchange rates is as follows:") do not count; nor does a sentence
    that denies something (it may say what the quotes lack). A word of a group the vocabulary says are the same
    (``[narrative.summary] same``: "expenses" for "costs") is said where another of it is, and a part's kind word
    ("segment") by a quote that names the part asked."""
    rises, falls = directions()
    asked = {word_stem(w) for w in CONTENT_WORD.findall(q.text)
             if not w[0].isupper() and not rises.fullmatch(w) and not falls.fullmatch(w)}
    plain = plain_stems(names)
    asked -= plain | _subject(q)[1]
    if not asked:
        return []
    vocab = narrative()
    same = {word_stem(w): {word_stem(v) for v in group} for group in vocab.same for w in group}
    kind_words = {word_stem(w) for w in vocab.part_words}
    part_keys = {name_key(w) for w in asked_names(q, plain)}
    by_source: dict[int, set[str]] = {}
    for x in quotes:
        by_source.setdefault(x.source, set()).update(said_stems([x.text]))
        if part_keys & _name_keys(x.text):
            by_source[x.source] |= kind_words  # "Pet operating profit" says the Pet segment's
    for stems_said in by_source.values():
        stems_said |= {v for st in list(stems_said) for v in same.get(st, ())}
    sentences = _quote_sentences(quotes)
    out: list[str] = []
    for sentence in split_sentences(summary):
        if _NEGATION.search(sentence) or (found := _restated(sentence, sentences, plain)) is None:
            continue
        source = found[1][0]
        claim = sentence.split(":", 1)[1] if ":" in sentence else sentence
        for w in CONTENT_WORD.findall(claim):
            if not w[0].isupper() and word_stem(w) in asked and word_stem(w) not in by_source[source]:
                flag = f"[{source}] does not say \u201c{w.lower()}\u201d"
                if flag not in out:
                    out.append(flag)
    return out


_CURRENCY = re.compile(CURRENCY)
_NAME = re.compile(r"\b(?:[A-Z][A-Za-z&'’-]*|\d+[A-Za-z][\w-]*)")
"""A word that names something: capitalised ("Network", "F-22") or a number run into letters ("777X")."""
NAMED_BEFORE = 8
"""Words before a figure that name what it is of ("Google Network revenues increased $8.6 billion")."""


_FURNITURE = re.compile(r"\([^()]*\)|\btable of contents\b", re.I)
"""What names nothing a figure is of: a parenthesis (a defined term, “Buyer”, “One Medical”) and the running head
"Table of Contents"."""


def _before(sentence: str, at: int, plain: set[str]) -> tuple[dict[str, str], set[str]]:
    """The names (``_NAME``, by stem) among the ``NAMED_BEFORE`` words before a position, less ``plain`` stems,
    currencies ("EUR") and periods ("Q3", "FY2022"), and the stems of all those words; parentheses and the running
    head left out (``_FURNITURE``)."""
    text = " ".join(_FURNITURE.sub(" ", sentence[:at]).split()[-NAMED_BEFORE:])
    named = {word_stem(m.group(0)): m.group(0) for m in _NAME.finditer(text)
             if word_stem(m.group(0)) not in plain and not _CURRENCY.fullmatch(m.group(0))
             and not asked_period(m.group(0)).text}
    return named, said_stems([text]) | {word_stem(m.group(0)) for m in _NAME.finditer(text)}


_RESPECTIVELY = re.compile(r"\brespectively\b", re.I)


def _paired(sentence: str, plain: set[str]) -> list[tuple[str, Quantity]]:
    """A "respectively" sentence's names and figures in pairs, in order ("factories in Vietnam, Indonesia and China
    manufactured approximately 50%, 27% and 18% ..., respectively": Vietnam 50%, Indonesia 27%, China 18%): the
    names (``NAME_WORD``, less ``plain`` and periods) before its first figure, as many as its figures; [] for another
    sentence, or one whose counts differ."""
    if not _RESPECTIVELY.search(sentence):
        return []
    figures = [v for v in quantities(sentence) if _figure(v)]
    if len(figures) < 2:
        return []
    opening = len(sentence) - len(sentence.lstrip(_OPENING))
    named = [m.group(0) for m in NAME_WORD.finditer(sentence[:figures[0].start])
             if m.start() > opening and name_key(m.group(0)) not in plain and not asked_period(m.group(0)).text]
    return list(zip(named, figures, strict=True)) if len(named) == len(figures) else []


def _pairs_swapped(summary: str, quotes: Sequence[Quote], names: Iterable[str]) -> list[str]:
    """Figures of a "respectively" sentence given to other names than the quote's pairs them with: "China and Vietnam
    manufactured approximately 50% and 27%, respectively" against "Vietnam, Indonesia and China ... 50%, 27% and
    18%, respectively" gives '50%: [3] gives it for “Vietnam”' (the summary's names are each one the quote pairs
    with another figure)."""
    plain = plain_stems([*names, *(x.doc for x in quotes)])
    theirs = [(x.source, name, v) for x in quotes for s in split_sentences(x.text) for name, v in _paired(s, plain)]
    if not theirs:
        return []
    out: list[str] = []
    for sentence in split_sentences(summary):
        for name, v in _paired(sentence, plain):
            same = [(src, other) for src, other, w in theirs if same_number(w, v.value) or same_number(v, w.value)]
            if not same or any(name_key(other) == name_key(name) for _, other in same):
                continue
            if any(name_key(other) == name_key(name) for _, other, _ in theirs):
                flag = f"{v.raw.strip()}: [{same[0][0]}] gives it for \u201c{same[0][1]}\u201d"
                if flag not in out:
                    out.append(flag)
    return out


def _words_before(sentence: str, at: int) -> str:
    """The ``NAMED_BEFORE`` words before a position, from the last clause break (a figure's own clause: "Revenues
    were $307.4 billion, an increase of 9%, primarily driven by an increase in Google Services revenues of")."""
    text = " ".join(_FURNITURE.sub(" ", sentence[:at]).split()[-NAMED_BEFORE:])
    return re.split(r"[,;:]", text)[-1]


def _figures_of_others(summary: str, quotes: Sequence[Quote], names: Iterable[str]) -> list[str]:
    """A figure of the summary that every quote sentence stating it gives for something else: the names before it
    in the summary ("Google Cloud revenues increased $8.6 billion") and in the quote ("Google Network revenues
    increased $8.6 billion") each hold one the other lacks. It gives '$8.6 billion: [9] gives it for “Network”'
    (a figure of one segment, region or program told as another's: two regions' growth rates swapped, the 777's
    quantity told as the 777X's). So does one whose line item before it (``_lead_item``, in its clause) is another
    than every quote's gives it for: "operating income increased by $19.0 billion" where the quote's $19.0 billion
    is "an increase in Google Services revenues" gives '$19.0 billion: [9] gives it for “revenues”'. Counts and
    years are no such figures; a figure no quote states is flagged as such."""
    plain = plain_stems(names)
    sentences = _quote_sentences(quotes)
    out: list[str] = []
    for sentence in split_sentences(summary):
        for v in quantities(sentence):
            if not _figure(v):
                continue
            mine, my_words = _before(sentence, v.start, plain)
            spots = [(source, s, w.start) for source, s, _ in sentences for w in quantities(s)
                     if same_number(w, v.value) or same_number(v, w.value)]
            # the line item named before it: "operating income increased by $19.0 billion" where every quote
            # gives the $19.0 billion for revenues
            item, _ = _lead_item(_words_before(sentence, v.start))
            items = [(source, *_lead_item(_words_before(s, at))) for source, s, at in spots]
            if item and items and all(it and it != item for _, it, _ in items):
                flag = f"{v.raw.strip()}: [{items[0][0]}] gives it for \u201c{items[0][2]}\u201d"
                if flag not in out:
                    out.append(flag)
                continue
            if not mine:
                continue
            holding = [(source, *_before(s, at, plain)) for source, s, at in spots]
            if holding and all(set(theirs) - my_words and set(mine) - their_words
                               for _, theirs, their_words in holding):
                source, theirs, _ = holding[0]
                named = " ".join(w for st, w in theirs.items() if st not in my_words)
                flag = f"{v.raw.strip()}: [{source}] gives it for \u201c{named}\u201d"
                if flag not in out:
                    out.append(flag)
    return out


_RELATIVE_CLAUSE = re.compile(r",\s+(?:which|who|whose)\b[^,;]*,")
"""A relative clause between a subject and its verb ("Beverage revenue from company-owned bottlers, which primarily
includes ... our PBNA and Europe divisions, is approximately 35%"): its words are not what the figure is of."""
_AFTER_FIGURE = re.compile(r"\s*(?:percent(?:age\s+points?)?\b)?\s*(?P<noun>(?:share|increase|decrease|growth|decline|"
                           r"rise|drop|gain|reduction|improvement)\s+)?(?P<link>in|of|on)\s+(?P<what>[^,;:.()]*)", re.I)
"""What a figure is of, told after it: "35% of our consolidated net revenue", "a 30% increase in backlog
attributable to non-U.S. customers", "3.3 percent on an organic local currency basis"."""
_AFTER_END = re.compile(r"\b(?:compared|versus|from|over|than|while|whereas|which|and|but)\b|\b(?:19|20)\d{2}\b", re.I)
"""Where what a figure is of ends and what it is compared with or dated by begins (a cause's cues end it too:
``_of_what``)."""
CHANGE_REACH = 3
"""Words before a figure a direction word may stand in for the figure to be a change ("increased by 30%")."""


_GIVES = re.compile(r"\b(?:was|were|is|are|of|totall?ed|amounted\s+to|reached|by|to|increased|decreased|grew|rose|"
                    r"fell|declined|up|down)\s+(?:(?:approximately|about|nearly|roughly|almost|over|some)\s+)?$", re.I)
"""A summary's words before a figure that say the figure is what they name ("Europe net revenue was", "operating
expenses increased", "sales growth of"): not "acquired Current Health Ltd. for" (a price, of nothing named)."""


def _form(sentence: str, v: Quantity) -> str:
    """How a sentence gives a percent: "change" ("increased by 30%", "a 30% increase", "up 5%"), "share" ("30% of
    BDS backlog", "a 30% share of") or '' (a level, a margin, a rate: "margins were 22.0 percent")."""
    up, down = directions()
    before = " ".join(re.split(r"[,;:]", sentence[:v.start])[-1].split()[-CHANGE_REACH:])
    m = _AFTER_FIGURE.match(sentence[v.end:])
    noun = (m.group("noun") or "").strip() if m else ""
    right_after = sentence[v.end:].split()[:1]
    if (up.search(before) or down.search(before) or (noun and noun.lower() != "share")
            or any(up.fullmatch(w) or down.fullmatch(w) for w in right_after)):
        return "change"
    return "share" if v.percent and m and m.group("link").lower() == "of" else ""


_OPENING_LEVEL = re.compile(r"^\W*(?P<subject>[^,;:]{3,160}?)\s+(?:was|were|is|are|totall?ed|amounted\s+to)\s+"
                            r"(?:approximately\s+|about\s+)?(?:[$\u20ac\u00a3\u00a5]\s?)?\d")
"""A sentence opening with an item's level ("Investment banking revenues in the consolidated statements of earnings
were $14.14 billion for 2021, 55% higher than 2020"): a figure after it whose own clause names nothing is the
item's."""


def _measure(sentence: str, v: Quantity, plain: set[str], reach: int = NAMED_BEFORE,
             opening: bool = False) -> tuple[set[str], str, bool]:
    """What a sentence gives a figure for: the stems of the words of its clause before it (a relative clause, a
    parenthesis and the direction words left out) and of what follows it with "of"/"in"/"on" ("35% of
    consolidated net revenue"), less ``plain`` stems; the clause's last words as written (what a flag names); and
    whether it says at all (not where its clause names nothing and nothing follows it). Where ``opening`` (a quote's
    figure), a clause naming nothing after a sentence opening with an item's level gives the figure for that item
    ("Operating income was $500 million, an increase of 10%": the 10% is operating income's). The clause is read
    back ``reach`` words at most (a summary's figure's own words; a quote's, its whole clause)."""
    up, down = directions()
    before = _RELATIVE_CLAUSE.sub(" ", _FURNITURE.sub(" ", sentence[:v.start]))
    clause = re.split(r"[;:\u2022]|,(?!\d)", " ".join(before.split()[-reach:] if reach else ()))[-1]

    def stems(text: str) -> set[str]:
        return {word_stem(w) for w in CONTENT_WORD.findall(BROKEN.sub("-", text))
                if not (up.fullmatch(w) or down.fullmatch(w)) and len(w) > 2} - plain

    own = stems(clause)
    named = bool(own)
    if (m := _AFTER_FIGURE.match(sentence[v.end:])) is not None:
        own |= stems(" ".join(_of_what(m.group("what")).split()[:NAMED_BEFORE]))
    if not own and opening and (level := _OPENING_LEVEL.match(sentence[:v.start])) is not None:
        # the clause names nothing ("..., 55% higher than 2020"): the figure is the opening item's
        subject = level["subject"]
        return stems(subject), " ".join(subject.split()[:NAMED_BEFORE]), True
    return own, " ".join(clause.split()[-NAMED_BEFORE:]).strip(_OPENING + " ,"), named or bool(own)


def _of_what(text: str) -> str:
    """What a figure is of, told after it, up to what it is compared with, dated by (``_AFTER_END``) or caused by
    (a cue of the drivers kind: "6% increase in footwear revenues was led by Sportswear")."""
    cause = narrative().kind("drivers")
    cut = [m.start() for m in [_AFTER_END.search(text)] if m]
    cut += [at for at in [_first_cue(cause, text) if cause else -1] if at >= 0]
    return text[:min(cut)] if cut else text


def _figure_of_another_measure(summary: str, quotes: Sequence[Quote], names: Iterable[str]) -> list[str]:
    """A figure told for another measure than the quote gives it for, where every word of the summary is quoted:
    "Safety and Graphics had organic sales growth of 0.3 percent" from "total sales increased 0.3 percent, or 3.3
    percent on an organic local currency basis" gives '0.3 percent: [6] gives it for “total sales increased”, not
    “organic”'; "Europe net revenue was 35% of consolidated net revenue" from "Beverage revenue from company-owned
    bottlers, which ... our PBNA and Europe divisions, is approximately 35% of our consolidated net revenue" gives
    '35%: [8] gives it for “(a) Beverage revenue from company-owned bottlers is approximately”, not “Europe”' (the
    word is the quote sentence's, said of something else in it). A share told as a change, or a change as a share,
    is flagged too: "a 30% increase in backlog attributable to non-U.S. customers" from "30% of BDS backlog was
    attributable to non-U.S. customers" gives '30%: [3] gives it as a share, not a change'. The quote sentence
    compared is the one stating the figure whose measure holds most of the summary's, then shares most words with
    the summary's sentence; where a quote sentence gives the figure for all the summary's quoted words, nothing is
    flagged."""
    plain = plain_stems([*names, *(x.doc for x in quotes)])
    sentences = _quote_sentences(quotes)
    quoted = set().union(*(stems for _, _, stems in sentences)) if sentences else set()
    out: list[str] = []
    for sentence in split_sentences(summary):
        told = said_stems([sentence]) - plain
        for v in quantities(sentence):
            if not _figure(v):
                continue
            mine, _, _ = _measure(sentence, v, plain, NAMED_BEFORE if _GIVES.search(sentence[:v.start]) else 0)
            mine &= quoted  # a word no quote holds is flagged as unquoted already
            spots = [(src, s, stems, _measure(s, w, plain, len(s), opening=True), _form(s, w), w)
                     for src, s, stems in sentences for w in quantities(s)
                     if _figure(w) and (same_number(w, v.value) or same_number(v, w.value))]
            if not spots:
                continue
            ranked = sorted(spots, key=lambda t: (len(mine & t[3][0]), len(told & t[2])), reverse=True)
            top = (len(mine & ranked[0][3][0]), len(told & ranked[0][2]))
            best = [t for t in ranked if (len(mine & t[3][0]), len(told & t[2])) == top]
            form = _form(sentence, v)
            flag = ""
            if form and all(t[4] and t[4] != form for t in best):
                flag = f"{v.raw.strip()}: [{best[0][0]}] gives it as a {best[0][4]}, not a {form}"
            elif mine and not any(mine <= t[3][0] or not t[3][2] for t in spots):
                src, s, stems, (theirs, phrase, _), _, w = best[0]
                # a name may own the whole sentence ("In Safety and Graphics, total sales increased 0.3 percent")
                owners = said_stems([_RELATIVE_CLAUSE.sub(" ", s[:w.start])])
                moved = [w for w in CONTENT_WORD.findall(sentence[:v.start] + " " + sentence[v.end:])
                         if word_stem(w) in (mine & stems) - theirs and not (w[0].isupper() and word_stem(w) in owners)]
                if moved:
                    flag = (f"{v.raw.strip()}: [{src}] gives it for \u201c{phrase}\u201d, not "
                            f"\u201c{moved[0]}\u201d")
            if flag and flag not in out:
                out.append(flag)
    return out


_CLAUSES = re.compile(r"\s*(?:[;,:\u2022]|\s\u2013\s|\s-\s)\s*|\s+and\s+")
"""Where a summary sentence's clauses part: what one clause says is said of the names in it ("the acquisition of
MGM Holdings Inc. and the cash payments related to acquisition" says nothing of MGM's payments)."""
_PARTS = re.compile(r"\s*[;\u2022]\s*")
"""Where a quote sentence's parts part: a list's items ("about $80 million for the F-22 program due to ...;")."""
_OPENING = " \"'“(["




def _name_keys(text: str) -> set[str]:
    """The keys (``name_key``) of a text's names, codes ("F-22", "777X") and short ones ("CB")."""
    return {name_key(m.group(0)) for m in NAME_WORD.finditer(text)}


def _keys(text: str) -> set[str]:
    """The stems of a text's words and the keys of its names (``_name_keys``)."""
    return said_stems([text]) | _name_keys(text)


def _clause_names(sentence: str, plain: set[str]) -> list[tuple[str, list[str]]]:
    """Each clause of a summary sentence with the names in it (``NAME_WORD``, not the word that begins the sentence),
    less ``plain`` stems, legal forms ("Inc"), currencies and periods."""
    opening = sentence.lstrip(_OPENING)
    first = m.group(0) if (m := NAME_WORD.match(opening)) else ""
    out: list[tuple[str, list[str]]] = []
    for clause in _CLAUSES.split(CITATION.sub(" ", sentence)):
        leads = first and opening.startswith(clause.lstrip(_OPENING))
        names = [m.group(0) for m in NAME_WORD.finditer(clause)
                 if not (leads and m.start() == len(clause) - len(clause.lstrip(_OPENING)))]
        out.append((clause, [w for w in names if len(w) > 1 and name_key(w) not in plain
                             and w.lower() not in LEGAL_FORMS and not _CURRENCY.fullmatch(w)
                             and not asked_period(w).text]))
    return out


def _name_parts(quotes: Sequence[Quote], plain: set[str], asked: set[str]) -> list[set[str]]:
    """The keys (``_keys``) of each part of the quotes' sentences (its list items part at ";" and bullets); a
    sentence that names nothing of its own (``NAME_WORD`` after its first word, or first the question's ``asked``
    names; less ``plain``) also holds the names of its quote's other sentences: "Additionally, operating income
    benefited from a reduction in costs" is Google Cloud's beside "Google Cloud operating income of $1.7 billion for
    2023", where the section's heading names it."""
    by_source: dict[int, list[str]] = {}
    for x in quotes:
        by_source.setdefault(x.source, []).extend(split_sentences(x.text))
    out: list[set[str]] = []
    for sentences in by_source.values():
        named = [{k for m in NAME_WORD.finditer(s)
                  if (k := name_key(m.group(0))) in asked or m.start() > len(s) - len(s.lstrip(_OPENING))} - plain
                 for s in sentences]
        theirs = set().union(*named)
        for s, own in zip(sentences, named, strict=True):
            out += [_keys(p) | (set() if own else theirs) for p in _PARTS.split(s) if p]
    return out


def _said_of_others(summary: str, quotes: Sequence[Quote], q: Question, names: Iterable[str]) -> list[str]:
    """What a summary clause says of a name that no quote says of it: "higher volume on F-22 contracts" where the
    quotes give the F-22 "higher net favorable profit adjustments" and the volume to the F-16; "the accounting
    quantity for the 777X program increased by 55 units" where the 55 units are the 777's. Each such clause gives
    'no quote says “volume” of “F-22”'. A name is a capitalised word (not one that begins a sentence) or a code with
    digits ("777X"), less the documents' and company's names, legal forms and the generic, period and relative
    words; it is checked only where a quote names it. A word of the clause is the names' when a part of a quote
    sentence (its list items part at ";" and bullets) holds it and one of the clause's names ("lower server and
    embedded revenue in the Enterprise, Embedded and Semi-Custom segment" beside the Computing and Graphics segment
    in one clause). Words of the question, names, directions and the cue words of every narrative kind are the
    relation, not what is said of the name; a word no quote has is flagged as such by ``unsupported``."""
    plain = plain_stems(names)
    relation = plain | said_stems([q.text]) | {word_stem(w) for k in narrative().kinds for c in k.cues
                                          for w in CONTENT_WORD.findall(c)}
    rises, falls = directions()
    parts = _name_parts(quotes, plain, {name_key(w) for w in asked_names(q, plain)})
    quoted = set().union(*parts) if parts else set()
    out: list[str] = []
    for sentence in split_sentences(summary):
        for clause, named in _clause_names(sentence, plain):
            theirs = [k for k in parts if any(name_key(w) in k for w in named)]
            if not theirs:
                continue
            keys = {name_key(w) for w in NAME_WORD.findall(clause)}
            missing = [w for w in CONTENT_WORD.findall(clause)
                       if (st := word_stem(w)) in quoted and st not in relation and st not in keys
                       and w.lower() not in STOPWORDS and not rises.fullmatch(w) and not falls.fullmatch(w)
                       and not any(st in k for k in theirs)]
            if missing:
                name = next(w for w in named if any(name_key(w) in k for k in theirs))
                flag = f"no quote says \u201c{missing[0].lower()}\u201d of \u201c{name}\u201d"
                if flag not in out:
                    out.append(flag)
    return out


_PERIOD_END = re.compile(r"\b(?:ended|ending|as of|through)\s+(?:[A-Z][a-z]+\.?\s+\d{1,2},?\s+)?(?:19|20)\d{2}\b")
"""A period's end ("the year ended January 28, 2023"): the year it writes dates a period, not an event."""


def _drivers_kind(q: Question) -> NarrativeKind | None:
    """The narrative kind "drivers" where the question asks what drove a change (``told``) and the kind has cue
    words; else None."""
    asked = q.told
    kind = narrative().kind("drivers") if asked is not None and asked.narrative == "drivers" else None
    return kind if kind is not None and kind.cues else None


def _cause_no_quote_gives(summary: str, quotes: Sequence[Quote], q: Question, names: Iterable[str]) -> list[str]:
    """A cause no quote gives as one: a drivers summary sentence whose words after its first cue ("due to ...")
    restate a quote sentence (``_holding``) that tells no change (no direction word) in a quote with no cue of the
    kind or cause-first verb: "Pharmaceutical sales grew 3.9% ... due to a prioritization of R&D investment within the
    Pharmaceutical segment ..." where [4] only says "the company completed a prioritization of its research and
    development (R&D) investment within the Pharmaceutical segment" gives 'no quote gives “a prioritization of R&D
    investment” as a cause: [4] only states it'. Every word is quoted; the relation is the model's. Question words,
    names and cue words are no sign of which sentence the cause restates."""
    if (kind := _drivers_kind(q)) is None:
        return []
    cue_words = {word_stem(w) for c in (*kind.cues, *kind.cause_first) for w in CONTENT_WORD.findall(c)}
    plain = plain_stems(names) | said_stems([q.text]) | cue_words
    rises, falls = directions()
    sentences = _quote_sentences(quotes)
    wholes: dict[int, str] = {}
    for x in quotes:
        wholes[x.source] = f"{wholes.get(x.source, '')} {x.text.lower()}"
    out: list[str] = []
    for sentence in (_cause_last(kind, t) for t in split_sentences(summary)):
        if (cut := _first_cue(kind, sentence)) <= 0:
            continue
        cause = sentence[cut:]
        words, held = _holding(cause, sentences, plain)
        if not held or any(_first_cue(kind, wholes[src]) >= 0 or any(v in wholes[src] for v in kind.cause_first)
                           or rises.search(text) or falls.search(text) for src, text, _ in held):
            continue
        source = max(held, key=lambda t: len(words & t[2]))[0]
        phrase = _cue_run(kind).sub("", cause, count=1)
        shown = " ".join(phrase.split()[:CAUSE_SHOWN]).rstrip(",.;")
        flag = f"no quote gives \u201c{shown}\u201d as a cause: [{source}] only states it"
        if flag not in out:
            out.append(flag)
    return out


CAUSE_SHOWN = 6
"""The words of a cause a flag names."""


@cache
def _cue_run(kind: NarrativeKind) -> re.Pattern[str]:
    """A kind's cue phrases in a row at a text's start ("primarily due to ")."""
    cues = "|".join(re.escape(c) for c in sorted(kind.cues, key=len, reverse=True))
    return re.compile(rf"^(?:\s*(?:{cues})\b[\s:,]*)+", re.I)


def _direction_given_to_driver(summary: str, quotes: Sequence[Quote], q: Question, names: Iterable[str]) -> list[str]:
    """A quote's change told as its driver's: "Debt maturities in the ordinary course decreased" where the quote says
    "Interest expense (net of interest income) decreased ... driven by debt maturities in the ordinary course" gives
    '[4] says “decreased” of “Interest expense (net of interest income)”, not of “Debt maturities in the ordinary
    course”'. For a drivers question: a summary clause whose subject (its words before its first direction verb, no
    cue before it) a quote sentence writes after its first cue, word for word, where the words before the cue carry
    the same direction and none of the subject's (besides the question's and names); unless a quote gives that
    direction to the subject's words itself ("lower debt maturities", "debt maturities decreased")."""
    if (kind := _drivers_kind(q)) is None:
        return []
    rises, falls = directions()
    plain = plain_stems(names) | said_stems([q.text])
    # each quote sentence with a cue: what it says before the cue, and its words after it
    sentences = [(src, t[:at], _plain_words(t[at:])) for src, t, _ in _quote_sentences(quotes)
                 if (at := _first_cue(kind, t)) > 0]
    quoted = [_plain_words(x.text) for x in quotes]
    out: list[str] = []
    for sentence in split_sentences(summary):
        for clause in _CLAUSES.split(sentence):
            way = next((m for m in (rises.search(clause), falls.search(clause)) if m is not None
                        and m.group(0).lower() not in _NOT_MOVES), None)
            if (way is None or way.start() == 0 or _first_cue(kind, clause) in range(0, way.start())
                    or any(v in clause[:way.start()].lower() for v in kind.cause_first)):
                continue
            subject = clause[:way.start()].strip(_OPENING + " ,")
            words, stems = _plain_words(subject), said_stems([subject])
            same = rises if rises.fullmatch(way.group(0)) else falls
            if len(stems - plain) < DRIVER_WORDS or any(_given(words, same, text) for text in quoted):
                continue
            for src, before, after in sentences:
                if (_runs_in(words, after) and not stems & said_stems([before]) - plain
                        and (said := same.search(before)) is not None):
                    who = _mover(before) or before.strip()
                    flag = (f"[{src}] says \u201c{said.group(0)}\u201d of \u201c{who}\u201d, not of "
                            f"\u201c{subject}\u201d")
                    if flag not in out:
                        out.append(flag)
                    break
    return out


DRIVER_WORDS = 2
"""The fewest words (besides the question's and names) a summary subject needs to be read as a quote's driver."""
GIVEN_REACH = 3
"""How many words from a driver's name a direction word may stand to be said of it ("lower debt maturities")."""


def _plain_words(text: str) -> list[str]:
    """A text's words, lower case, punctuation aside (a hyphen or an apostrophe parts words)."""
    return re.findall(r"[a-z0-9]+", text.lower())


def _runs_in(words: list[str], text: list[str]) -> bool:
    """Whether ``words`` stand in ``text`` word for word, in a row."""
    n = len(words)
    return bool(n) and any(text[i:i + n] == words for i in range(len(text) - n + 1))


def _given(words: list[str], way: re.Pattern[str], text: list[str]) -> bool:
    """Whether ``text`` writes ``words`` in a row with a word of ``way`` at most ``GIVEN_REACH`` words before or
    after them."""
    n = len(words)
    for i in range(len(text) - n + 1):
        if text[i:i + n] == words and any(way.fullmatch(w) for w in
                                          (*text[max(0, i - GIVEN_REACH):i], *text[i + n:i + n + GIVEN_REACH])):
            return True
    return False


def _pointed_back_elsewhere(summary: str, quotes: Sequence[Quote], q: Question, names: Iterable[str]) -> list[str]:
    """A summary sentence pointing back at the change its previous sentence tells ("Google Network revenues increased
    $1.1 billion from 2021 to 2022. The increase was due to an increase in revenues subject to TAC.") that restates
    a quote sentence on another item's change ("The increase in TAC from 2021 to 2022 was due to ..."): '[4] is about
    “TAC”'. The change is the previous sentence's item; the drivers the quote's, of none of its words."""
    if _drivers_kind(q) is None:
        return []
    plain = plain_stems(names)
    sentences = _quote_sentences(quotes)
    parts = split_sentences(CITATION.sub(" ", summary))
    out: list[str] = []
    for before, sentence in zip(parts, parts[1:], strict=False):
        if not _anaphor().match(sentence) or (found := _restated(sentence, sentences)) is None:
            continue
        source, best = found[1][0], found[1][1]
        if (change := _CHANGE_IN.match(best)) is None or not (theirs := _head(change["item"], plain)):
            continue
        if (mine := _change_of(before, plain)) is None or theirs & mine[0]:
            continue
        flag = f"[{source}] is about \u201c{_item_name(change['item']).strip()}\u201d"
        if flag not in out:
            out.append(flag)
    return out


_PREPOSITION = re.compile(r"\s+(?:before|after|of|on|for|from|in|at|per|by|to|under|with|net\s+of)\s", re.I)
"""Where a noun phrase's head ends: its words before a preposition ("loss" of "loss before interest and taxes")."""


def _asked_items(q: Question) -> set[str]:
    """The vocabulary items a drivers question asks the drivers of: its measures', and for a standard ratio the items
    of its definition (a gross margin's cost of sales and revenue)."""
    items = {m.item.name if m.item is not None else m.name for m in q.measures}
    if q.ratio is not None:
        items.add(q.ratio[1])
        items |= {it.name for it in _defining_items(q.ratio[1])}
    return items


_LEAD_CLAUSE = re.compile(r"^(?:in|for|during|excluding|including|as\s+of|compared\s+\w+)\b[^,]*,\s*", re.I)
"""A clause before a subject that only frames it ("Excluding HOS, operating supplies and services increased")."""


def _item_changed(subject: str) -> str:
    """What a subject says changed, the way it is written: the item after a change noun and "in" ("The increase in
    cost-per-impression", "the operational increase in emerging markets"), else the words before its first
    direction word (``_mover``) without a framing clause (``_LEAD_CLAUSE``) or transition; '' where it says none."""
    if changed := _changed_item(subject):
        return changed
    nouns = change_words().nouns
    inside = next((m for m in re.finditer(r"\b(\w+)\s+in\s+", subject) if nouns.fullmatch(m.group(1))), None)
    if inside is not None and (item := _item_name(subject[inside.end():] + " was").strip()):
        return item
    return _LEAD_CLAUSE.sub("", _BARE.sub("", _mover(subject))).strip(" ,")


def _another_item_told(summary: str, quotes: Sequence[Quote], q: Question, names: Iterable[str]) -> list[str]:
    """The summary's claim (its first sentence giving a cause) telling the drivers of another line item than the one the
    question asks about, and not of that one: "Corporate's loss before interest and taxes increased $354 million
    primarily due to ..." given for NIKE's other (income) expense, net, or "The increase in cost-per-impression ...
    was driven by ..." for Alphabet's cost-per-click, gives '[8] is about “Corporate's loss before interest and
    taxes”' (the quote it restates), else 'the summary is about “...”'. The sentence's subject (its words before its
    first cue) names none of the asked measure's names and another vocabulary item than the asked ones
    (``_asked_items``); or no item of the vocabulary, and what it says changed (``_item_changed``) has a head (its
    last word before a preposition, the last piece of a hyphenated word) that the question does not use and that is
    no name (a capitalised head is a part: a franchise, a region, which the part checks read), and no two of the
    question's words in a row ("Services gross margin percentage" keeps the question's "gross margin"). An item the
    summary named before or that a quote gives as a driver of the asked one ("Reported EBIT increased 1% due to ...
    • Selling and administrative expense increased 7% ...") is a driver explained, not another answer; the sentences
    after the claim explain it or add context, and are not read."""
    kind = _drivers_kind(q)
    asked = q.told
    if kind is None or asked is None:
        return []
    names = list(names)
    plain = plain_stems(names)
    items = _asked_items(asked)
    spelled = [n.lower() for m in asked.measures for n in m.names]
    asked_words = said_stems([BROKEN.sub(" ", q.text.replace("-", " "))])

    def run_of_asked(text: str) -> int:
        # the question's words in a row, stopwords and names passed over ("general and administrative")
        words = [s for w in CONTENT_WORD.findall(text.replace("-", " ")) if (s := word_stem(w)) not in plain]
        return max((len(list(g)) for k, g in groupby(w in asked_words for w in words) if k), default=0)

    def names_asked(text: str) -> bool:
        low = text.lower()
        return any(re.search(rf"(?<![a-z]){re.escape(n)}(?![a-z])", low) for n in spelled) or (
            not spelled and run_of_asked(text) >= 2)

    sentences = _quote_sentences(quotes)
    told = split_sentences(CITATION.sub(" ", summary))
    # the summary's claim is its first sentence giving a cause; those after it explain it or add context
    said = [_cause_last(kind, t) for t in told]
    n = next((i for i, t in enumerate(said) if _first_cue(kind, t) > 0), None)
    if n is None:
        return []
    subject = (sentence := said[n])[:_first_cue(kind, said[n])]
    # an owner the question does not ask: "Corporate's loss before interest and taxes" for Converse's EBIT (the
    # question asks a part by its possessive; the claim's subject names another's)
    asked_owners, owners = _owners(" ".join(q.names)) - plain, _owners(subject) - plain
    if asked_owners and owners and not asked_owners & owners and (what := _item_changed(subject)):
        # from the owner on ("FISCAL 2021 COMPARED TO FISCAL 2020 Corporate's loss ...": a heading run in before)
        owned = [m.start() for m in OWNER.finditer(what)]
        return [_about(what[owned[-1]:] if owned else what, sentence, sentences, quotes)]
    if names_asked(subject):
        return []
    item, named = _lead_item(subject)
    if item and (not items or item in items):
        return []
    what = named if item else _item_changed(subject)
    if not item and (bare := re.match(r".*(?:^|\s)(?:the|a|an|this|that)\s+(?P<rest>.*)$", what, re.I | re.S)) and len(
            [w for w in CONTENT_WORD.findall(bare["rest"]) if w.lower() not in STOPWORDS]) <= 1:
        return []  # a modifier or a pointer, no item: "that the sequential (increase)", "the latter"
    if not what or _word_count(what) > NAMED_SUBJECT:
        return []
    head = _PREPOSITION.split(f"{what} ")[0].strip()
    last = re.split(r"[\s-]+", head)[-1] if head else ""
    if not last or not last[0].islower() and not item:
        return []
    stem = word_stem(last)
    if stem in plain or stem in said_stems(told[:n]):
        return []
    # the drivers the quotes give the asked item: what a sentence naming it before its cue says after
    # (a list's items under a lead-in naming it: "Reported EBIT increased 1% due to higher revenues and the
    # following: • ... • Selling and administrative expense increased 7% ...")
    explained = {w for x in quotes for whole in _FULL_STOP.split(x.text) for t in (whole, *_items([whole]))
                 if (at := _first_cue(kind, t)) > 0 and names_asked(t[:at]) for w in said_stems([t[at:]])}
    if stem in explained:
        return []
    if not item and (stem in asked_words or run_of_asked(what) >= 2):
        return []
    return [_about(what, sentence, sentences, quotes)]


def _owners(text: str) -> set[str]:
    """The name keys of the owners a text names (``OWNER``)."""
    return {name_key(w) for m in OWNER.finditer(text) for w in m.group(1).split()}


def _about(what: str, sentence: str, sentences: Sequence[tuple[int, str, set[str]]], quotes: Sequence[Quote]) -> str:
    """The flag of a summary sentence about ``what``: '[n] is about “...”' with the quote it restates or tells whole,
    else 'the summary is about “...”'."""
    found = _restated(sentence, sentences)
    whole = _told_whole(sentence, quotes)
    source = whole if whole is not None else found[1][0] if found is not None else None
    return (f"[{source}] is about \u201c{what}\u201d" if source is not None
            else f"the summary is about \u201c{what}\u201d")


def _cause_after_change(summary: str, q: Question) -> list[str]:
    """A cause dated after the change it is given for: "The change in operating revenues in 2022 was caused by
    surcharge authorizations that became effective on or after January 1, 2023" gives 'a cause in 2023 for 2022'.
    For a drivers question naming its years: a year written after a summary sentence's first cue or word that asks
    for drivers ("due to", "caused") that is later than every year the question asks, outside a period's end ("the
    year ended January 28, 2023": a retailer's fiscal year), in a sentence that tells no expectation."""
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
            if flag not in out:
                out.append(flag)
    return out


_ACRONYM = re.compile(r"\b[A-Z]{2,6}\b")




def _acronym_of(q: Question, asked: Sequence[str], texts: Iterable[str]) -> bool:
    """Whether the texts hold an acronym of the question's names: its letters the initials of ``Question.names`` in
    order, the first asked word's among them ("BDS" for "Boeing Defense, Space & Security")."""
    initials = "".join(w[0].upper() for run in q.names for w in NAME_WORD.findall(run))
    for acronym in {m.group(0) for t in texts for m in _ACRONYM.finditer(t)}:
        it = iter(initials)
        if asked[0][0].upper() in acronym and all(c in it for c in acronym):
            return True
    return False


def _unquoted_subject(quotes: Sequence[Quote], q: Question, names: Iterable[str], passages: Sequence[str] = ()
                      ) -> list[str]:
    """A name the question asks about that no quote names: "What drove revenues of Boeing's Commercial Airplanes
    segment?" answered from quotes of BGS and BDS gives 'no quote names “Commercial Airplanes”' (whatever the
    summary says of it, the quotes are another's). The question's names are its capitalised words and codes
    (``Question.names``, less the company's name and legal forms: ``asked_names``), taken in runs ("Commercial
    Airplanes"); a quote names a run when it has one of its words capitalised (a segment's name: "higher commercial
    parts revenue" names no Commercial Airplanes segment), or an acronym whose letters are the initials of the
    question's names in order and include the run's first ("BDS" for "Boeing Defense, Space & Security"). The
    ``passages`` the quotes come from count as the quotes' (a section's heading names the segment its sentences are
    about: "Latin America")."""
    plain = plain_stems([*names, *(x.doc for x in quotes)])
    asked = asked_names(q, plain)
    if not asked:
        return []
    said = {name_key(m.group(0)) for t in (*(x.text for x in quotes), *passages) for m in NAME_WORD.finditer(t)}
    if any(name_key(w) in said for w in asked):
        return []
    if _acronym_of(q, asked, (x.text for x in quotes)):
        return []
    run = next((r for r in q.names if asked[0] in r), asked[0])
    return [f"no quote names \u201c{run[run.index(asked[0]):]}\u201d"]


def _name_runs(text: str, keys: set[str]) -> list[str]:
    """The runs of name words in a text (``NAME_WORD`` words with only spaces, "and" or "&" between them) that hold a
    word whose key (``name_key``) is one of ``keys``."""
    runs: list[tuple[int, int, bool]] = []
    for m in NAME_WORD.finditer(text):
        mine = name_key(m.group(0)) in keys
        if runs and re.fullmatch(r"\s+(?:(?:&|and)\s+)?", text[runs[-1][1]:m.start()]):
            runs[-1] = (runs[-1][0], m.end(), runs[-1][2] or mine)
        else:
            runs.append((m.start(), m.end(), mine))
    return [text[a:b] for a, b, mine in runs if mine]


def _said(text: str, parts: Sequence[Sequence[str]]) -> set[str]:
    """The name keys a text says (``name_key`` of its ``NAME_WORD`` words), less the asked parts' keys (``parts``:
    each part's keys in order, its generic words too: "Business" of "Productivity and Business Processes") it says
    only inside another part's name: a run whose asked words have another name word between them and hold no asked
    part whole ("Global Banking & Markets" says neither "Global" nor "Markets" of "Global Markets"; "Asset & Wealth
    Management" no "Asset Management"). A run that holds an asked part's words side by side ("Las Vegas Strip
    Resorts" of "Las Vegas Strip", a heading run into its sentence: "Other Bets Other Bets operating loss") says
    them."""
    keys = {k for p in parts for k in p}
    said = _name_keys(text)
    inside: set[str] = set()
    beside: set[str] = set()
    for run in _name_runs(text, keys):
        ks = [name_key(w) for w in NAME_WORD.findall(run)]
        at = [i for i, k in enumerate(ks) if k in keys]
        whole = any(p and any(ks[i:i + len(p)] == list(p) for i in range(len(ks))) for p in parts)
        mixed = not whole and len(at) > 1 and any(k not in keys for k in ks[at[0]:at[-1] + 1])
        (inside if mixed else beside).update(ks[i] for i in at)
    return said - (inside - beside)


def _subject_names(sentence: str) -> tuple[str, list[re.Match[str]]]:
    """A summary sentence's subject (``_mover``, citations aside) and the names in it (``NAME_WORD``) but its first
    word, which any sentence capitalises."""
    who = _mover(CITATION.sub(" ", sentence))
    opening = who.lstrip(_OPENING)
    skip = len(who) - len(opening) if NAME_WORD.match(opening) else -1
    return who, [m for m in NAME_WORD.finditer(who) if m.start() != skip]


def _lead_ins(quotes: Sequence[Quote], passages: Sequence[str]) -> dict[str, str]:
    """Each quote's lead-in (``_lead_in``), by its text."""
    return {x.text: _lead_in(x, passage) for x, passage in zip(quotes, passages, strict=False)}


def _lead_in(x: Quote, passage: str) -> str:
    """A quote's passage's text before it (a section's heading and lead-in), whitespace folded; '' where the passage
    does not hold it. The quote is found whole where it can be (two sentences of a passage may open alike: the
    quarter's "Noncompensation expense increased as a result of ..." and the year to date's), else by its opening."""
    flat = " ".join(passage.split())
    whole = " ".join(x.text.split())
    at = flat.find(whole)
    if at < 0:
        at = flat.find(x.text[:60])
    return flat[:at] if at > 0 else ""


def _told_under(source: int, quotes: Sequence[Quote], passages: Sequence[str]) -> list[str]:
    """What the quotes of ``source`` are told under (``_lead_in``)."""
    return [_lead_in(x, passage) for x, passage in zip(quotes, passages, strict=False) if x.source == source]


def _another_part(summary: str, quotes: Sequence[Quote], q: Question, names: Iterable[str],
                  passages: Sequence[str] = ()) -> list[str]:
    """A summary that tells what moved of another named part than the one the question asks about, and names the
    asked one nowhere: "Revenue from Digital Marketing increased $227.7 million ..." for "What drove the change in
    Adobe's Digital Media revenue?" gives '“Digital Marketing” is not “Digital Media”' (the quotes tell of both
    segments; the summary took the other's sentence). The part told is a name in the subject of a sentence's first
    direction verb (``_mover``; not its first word, nor the company's or documents' names, legal forms, currencies,
    periods, nor a word of the asked names), one a quote names too; a subject that opens with a direction ("Higher
    737 deliveries increased revenues") is a cause, not a part. The asked part is named by all the name words of one
    of the question's names (``asked_names``: the company's name aside), or by its acronym ("BCA")."""
    every = [*names, *(x.doc for x in quotes)]
    plain = plain_stems(every)
    parts = asked_parts(q, plain, every)
    if not parts:
        return []
    asked = [w for p in parts for w in NAME_WORD.findall(p) if name_key(w) not in plain]
    keys = {name_key(w) for w in asked}
    runs = [ws for p in parts if (ws := [w for w in NAME_WORD.findall(p) if name_key(w) in keys])]
    full = [[name_key(w) for w in NAME_WORD.findall(p)] for p in parts]
    mine = _said(summary, full)
    if any(all(name_key(w) in mine for w in r) for r in runs) or _acronym_of(q, asked, [summary]):
        return []
    quoted = {name_key(m.group(0)) for x in quotes for m in NAME_WORD.finditer(x.text)}
    sentences = _quote_sentences(quotes)
    rises, falls = directions()
    out: list[str] = []
    for sentence in split_sentences(summary):
        who, named = _subject_names(sentence)
        opening = who.lstrip(_OPENING)
        if not who or rises.match(opening) or falls.match(opening):
            continue
        other = {k for m in named if len(w := m.group(0)) > 1
                 and any(c.isalpha() for c in w) and (k := name_key(w)) in quoted and k not in plain
                 and k not in keys and w.lower() not in LEGAL_FORMS and not _CURRENCY.fullmatch(w)
                 and not asked_period(w).text}
        if other and (found := _restated(sentence, sentences)) is not None and any(
                all(name_key(w) in _said(told, full) for w in r) for r in runs
                for told in _told_under(found[1][0], quotes, passages)):
            continue  # the restated quote is under the asked part's heading: "NIKE Direct" is EMEA's channel
        if other:
            told_of = next(r for r in _name_runs(who, other))  # the whole run ("NIKE Direct"), first word too
            flag = f"\u201c{told_of}\u201d is not \u201c{' '.join(runs[0])}\u201d"
            if flag not in out:
                out.append(flag)
    return out




def _asked_letters(q: Question, plain: set[str]) -> set[str]:
    """The ``letters`` of every name word the question asks about (``asked_names``), a possessive's "'s" aside: an
    owner's too ("MGM China" of "MGM China's VIP table games win"); not a measure's or a topic's ("EBIT")."""
    vocab = narrative()
    return {k for w in asked_names(q, plain) if (k := letters(re.sub(r"['\u2019]s?$", "", w)))
            and k not in vocab.heading_measures and k not in vocab.heading_topics}


def _heading_parts(quotes: Sequence[Quote], names: Iterable[str], passages: Sequence[str],
                   headings: Sequence[Sequence[str]], q: Question | None = None) -> list[str]:
    """The part each quote's section headings name (``heading_part``), in the quotes' order; '' where none does.
    The headings known to name parts (those read so, and any naming a part the question asks about: "CONVERSE"
    for Converse) make the headings set in capitals like them parts' too (``heading_part``'s ``styled``)."""
    if not any(headings):
        return [""] * len(quotes)
    every = [*names, *(x.doc for x in quotes)]
    plain = plain_stems(every)
    texts = [*passages, *(x.text for x in quotes)]
    own = [tuple(headings[k]) if k < len(headings) else () for k in range(len(quotes))]
    parts = [heading_part(hs, plain, texts) if hs else "" for hs in own]
    asked = _asked_letters(q, plain) if q is not None else set()
    styled = {p for p in parts if p} | {h for hs in own for h in hs if h.isupper() and (keys := name_letters(h))
                                        and keys <= asked}
    if not any(h.isupper() for h in styled):
        return parts
    return [part or (heading_part(hs, plain, texts, sorted(styled)) if hs else "") for part, hs in zip(parts, own,
                                                                                                       strict=True)]


def _headed_passages(passages: Sequence[str], parts: Sequence[str]) -> list[str]:
    """Each passage with the part its section headings name (``_heading_parts``) before it, where they name one:
    "Sam's Club: Gross profit rate decreased ..."."""
    return [f"{part}: {passage}" if (part := parts[k] if k < len(parts) else "") else passage
            for k, passage in enumerate(passages)]


def _same_part(one: str, other: str) -> bool:
    """Whether two names of parts share a name word (``letters``) or one is the other's initials ("MFC", "Missiles
    and Fire Control")."""
    a, b = name_letters(one), name_letters(other)
    return bool(a & b) or initials(one).lower() in b or initials(other).lower() in a


_RUN_IN_TITLE = re.compile(r"(?:^|[.!?:]\s+)(?P<title>[A-Z][\w&'\u2019-]*\s+(?:(?:(?:for|of|and|on|from)\s+)?"
                           r"[A-Z][\w&'\u2019-]*\s+){0,4})(?=[A-Z][a-z])")
"""Capitalised words (joined by "for", "of", ...) after a sentence's end, up to the capital that starts the next
sentence: a heading run into the text ("... net revenue grew. Other Consolidated Results Other pension ...
increased", "... for further information. Provision for Income Taxes The following table ...")."""


def _topic_run_in(text: str) -> bool:
    """Whether a passage's text runs a topic's or a line item's heading into it (``_RUN_IN_TITLE`` of two words or
    more, one a topic's: "Other Consolidated Results"; or naming a line item: "Provision for Income Taxes"): the
    section above it (a segment's) has ended there."""
    topics = narrative().heading_topics
    return any(len(words := m.group("title").split()) >= 2
               and (items_named(m.group("title")) or (all(w[0].isupper() for w in words)  # not "Table of Contents"
                                                      and any(letters(w) in topics for w in words)))
               for m in _RUN_IN_TITLE.finditer(text))


def _under_another_heading(summary: str, quotes: Sequence[Quote], q: Question, names: Iterable[str],
                           passages: Sequence[str], parts: Sequence[str]) -> list[str]:
    """A summary sentence that restates a quote told under another part's section heading, and names that part
    nowhere: "Walmart International's gross profit rate decreased ... due to reduced tobacco sales" restating a
    sentence of the "Sam's Club Segment" section (which names no segment itself) gives '[4] is under the heading
    “Sam's Club”'; so does a segment's sentence told as the company's where the question asks about no part. The
    part is the one ``heading_part`` reads from the quote's passage's headings (``parts``, in the quotes' order);
    a sentence that names it, or a question that asks about it, is told in its section. A quote that opens by naming
    its own part (``opening_part``), or follows one in its passage, is told under that run-in heading instead: the
    nearest one."""
    every = [*names, *(x.doc for x in quotes)]
    plain = plain_stems(every)
    # every name the question asks about, an owner's too ("MGM China's VIP table games win" asks about MGM China)
    question_names = _asked_letters(q, plain)
    asked = {w for p in asked_parts(q, plain, every) for w in name_letters(p)} | question_names
    sentences = _quote_sentences(quotes)
    out: list[str] = []
    for sentence in split_sentences(summary):
        if (found := _told_from(sentence, sentences, plain)) is None:
            continue
        source, best = found[0], found[1]
        if question_names and question_names <= name_letters(best):
            continue  # the quote names what is asked itself ("Surface revenue increased ..." in its segment's section)
        # the nearest heading: a run-in one of the passage, the quote's own or one before it ("Display Technologies
        # The decrease in segment net income ...", "Specialty Materials The following table ... Net income ...
        # increased by $121 million"), else the section heading read above the passage
        lead = " ".join(_lead_in(x, p) for x, p in zip(quotes, passages, strict=False) if x.source == source
                        and best in x.text)
        in_passage = (*split_sentences(lead), best)
        run_in = [opened for t in in_passage if (opened := opening_part(t, plain, run_in=True))]
        above = next((p for x, p in zip(quotes, parts, strict=False) if x.source == source and p), "")
        if run_in and not (above and _same_part(run_in[-1], above)):
            part = run_in[-1]
        elif (not above or _topic_run_in(lead)
              or ((named := opening_part(best, plain)) and not _same_part(named, above))):
            continue  # no heading, or one whose section a topic's run-in heading ended ("Other Consolidated
            # Results"), or a quote naming another part than the heading's: its subject says whose (an earlier
            # sentence of the section naming a channel or a driver, "NIKE Direct revenues increased 15%", "Higher
            # ASP per pair ...", says nothing of whose the quote is)
        else:
            part = above
        keys = name_letters(part) - {k for n in every for k in name_letters(n)}
        said = name_letters(CITATION.sub(" ", sentence))
        short = initials(part)
        if not keys or keys & (asked | said) or (len(short) >= 2 and re.search(rf"\b{re.escape(short)}\b", sentence)):
            continue
        flag = f"[{source}] is under the heading \u201c{part}\u201d"
        if flag not in out:
            out.append(flag)
    return out


_LEVEL = re.compile(r"\s+(?:(?P<level>was|were|of|totaled|totalled|amounted\s+to)|(?P<change>(?:increased|decreased|"
                    r"rose|fell|grew|declined)(?:\s+by)?))\s+(?=[$\u20ac\u00a3\u00a5]\s?\d|\d)")
"""Where a sentence gives an item's amount ("Operating expenses were $3.42 billion", "Noninterest expense of $206
million") or its change ("Net interest income increased 27 percent")."""


LEVEL_WORDS = 8
"""The most words a sentence's subject may have for ``_level`` to read it as the item whose amount it gives (a
longer one runs on from a heading or a table's columns)."""


def _level(sentence: str) -> tuple[str, frozenset[str], str, Quantity] | None:
    """The item a sentence opens by giving the amount or the change of, how it gives it ("as" for an amount, the
    change word: "increased") and the figure: its words before ``_LEVEL`` (at most ``LEVEL_WORDS``: "Net revenues in
    Investment Banking", "Noninterest expense") and the figure after it (an amount in a currency or scaled; a change
    may be a percent too); None where it gives none."""
    m = _LEVEL.search(sentence)
    if m is None:
        return None
    item = sentence[:m.start()].strip(_OPENING + " ,")
    found = quantities(sentence[m.end():m.end() + 40])
    change = m.group("change")
    if (not item or len(item.split()) > LEVEL_WORDS or not found
            or not (found[0].currency or found[0].scale != 1.0 or (change and found[0].percent))
            or (found[0].percent and not change)):
        return None
    return item, frozenset(said_stems([item])), change.split()[0].lower() if change else "as", found[0]


_SPAN = re.compile(r"\b(?:(?:three|six|nine|twelve)\s+months|quarter|half|year)\b", re.I)


def _when(sentence: str) -> tuple[frozenset[int], frozenset[str]]:
    """The years a sentence names and its span words ("three months", "quarter"): two amounts of one item with
    other years or spans are no two parts' amounts."""
    return (frozenset(y for y, _, _ in years_named(sentence)),
            frozenset(m.group(0).lower() for m in _SPAN.finditer(sentence)))


def _before_in_quote(sentences: Sequence[tuple[int, str, set[str]]], source: int, sentence: str) -> list[str]:
    """The sentences of a quote (``_quote_sentences``' of one source) up to and including one of them."""
    own = [s for src, s, _ in sentences if src == source]
    return own[:own.index(sentence) + 1] if sentence in own else [sentence]


def _whose_figure(summary: str, quotes: Sequence[Quote], names: Iterable[str]) -> list[str]:
    """A sentence told from one of several quotes that give one item different amounts for the same period, which
    says not whose the quote's are: "Goldman Sachs's operating expenses increased by 94% in 2023 due to ..." told
    from "Operating expenses were $3.42 billion for 2023, 94% higher ..." beside "Operating expenses were $34.49
    billion for 2023, 11% higher ..." gives '[1] gives “Operating expenses” as $3.42 billion, [2] as $34.49 billion:
    whose is not said'. A filing tells each segment's line items in the firm's words; the quote a sentence is told
    from is the one giving each of its figures, else the one it restates (``_restated``), else the quote (a list
    told in one sentence). Amounts for other years or spans (``_when``), and two amounts in one quote (its two
    periods'), are no two parts'; a summary one of whose sentences' subject (``_mover``) names a part (a name other
    than the company's and documents') says whose. Changes count as amounts do ("Net interest income increased 27
    percent" beside "... increased 26 percent": '[10] gives “Net interest income” increased 27 percent, [6]
    increased 26 percent: whose is not said')."""
    plain = plain_stems([*names, *(x.doc for x in quotes)])
    sentences = _quote_sentences(quotes)
    levels = [(src, s, lv) for src, s, _ in sentences if (lv := _level(s)) is not None]
    whole = _quote_wholes(quotes)
    if len(levels) < 2:
        return []
    told = split_sentences(summary)
    if any(name_key(m.group(0)) not in plain and m.group(0).lower() not in LEGAL_FORMS
           for sentence in told for m in _subject_names(sentence)[1]):
        return []  # the summary says whose ("Intelligent Cloud revenue increased ... Cost of revenue increased ...")
    out: list[str] = []
    for sentence in told:
        figures = [v for v in quantities(sentence) if _figure(v)]
        told_from = [t for t in sentences if figures and all(any(same_number(w, v.value) for w in quantities(t[1]))
                                                            for v in figures)]
        if not told_from and (found := (_restated(sentence, sentences, plain)
                                        or _restated(sentence, whole, plain))) is not None:
            told_from = [found[1]]
        # the item is the told sentence's, or that of the sentence before it in its quote that gives one (a list's
        # lead-in: "Noninterest expense of $206 million was down $309 million driven by:")
        own = next(((src, s, lv) for src, t, _ in told_from
                    for s in reversed(_before_in_quote(sentences, src, t)) if (lv := _level(s)) is not None), None)
        if own is None:
            continue
        src, s, (item, stems, how, amount) = own
        # another quote's (one quote's two amounts of an item are its two periods': "BDS revenues increased by
        # $2,634 million ... BDS revenues increased by $381 million")
        other = next(((o, lv) for o, t, lv in levels if o != src and lv[1] == stems and lv[2] == how
                      and not same_number(lv[3], amount.value) and _when(t) == _when(s)), None)
        if other is None:
            continue
        flag = (f"[{src}] gives \u201c{item}\u201d {how} {amount.raw.strip()}, [{other[0]}] {how} "
                f"{other[1][3].raw.strip()}: whose is not said")
        if flag not in out:
            out.append(flag)
    return out


def _part_told_from_the_whole(summary: str, quotes: Sequence[Quote], q: Question, names: Iterable[str],
                              passages: Sequence[str]) -> list[str]:
    """A sentence that names the part the question asks about and restates a quote that does not name it, nor does
    the passage it comes from: "The decrease in Goldman Sachs's Global Banking & Markets net revenues in 2023 was
    primarily due to lower net interest income ..." restating "Net revenues in the consolidated statements of
    earnings were $46.25 billion for 2023, 2% lower than 2022, primarily reflecting lower net interest income ..."
    gives '[4] does not name “Global Banking & Markets”' (the firm's drivers told as a segment's). A quote under the
    part's heading ("Health Care Business ...: Sales increased in separation and purification ...") names it in
    its passage (``passages``: each quote's, in the quotes' order). A part is named by one of its name words
    (capitalised) or its acronym. A summary that names no part asked tells its sentences of the part asked: "Sales
    growth benefited from improving automotive-end market activity ..." for the Consumer segment, restating another
    segment's section, gives '[7] does not name “Consumer”'."""
    every = [*names, *(x.doc for x in quotes)]
    plain = plain_stems(every)
    runs = asked_parts(q, plain, every)
    words = [w for p in runs for w in NAME_WORD.findall(p) if name_key(w) not in plain]
    if not words:
        return []
    keys = {name_key(w) for w in words}
    parts = [[name_key(w) for w in NAME_WORD.findall(r)] for r in runs]
    sentences = _quote_sentences(quotes)
    whole = _quote_wholes(quotes)
    text_of = {x.source: [x.text] for x in quotes}
    for x, passage in zip(quotes, passages, strict=False):
        text_of[x.source].append(passage)

    def named_in(text: str) -> str | None:
        said = _said(text, parts)
        return next((r for r in runs if all(name_key(w) in said for w in NAME_WORD.findall(r)
                                            if name_key(w) in keys)), None)

    # a summary that names no part asked answers for the part asked all the same (one that names its words in
    # another part's name, "Global Banking & Markets" for "Global Markets", says whose it tells)
    unnamed = not (_name_keys(summary) & keys) and not _acronym_of(
        q, words, [summary])
    out: list[str] = []
    for sentence in split_sentences(summary):
        part = named_in(sentence) or (runs[0] if unnamed and runs else None)
        if part is None:
            continue
        found = _restated(sentence, sentences, plain) or _restated(sentence, whole, plain)
        if found is None:
            continue
        source = found[1][0]
        theirs = text_of.get(source, [])
        if any(_said(t, parts) & keys for t in theirs) or _acronym_of(
                q, words, theirs):
            continue
        flag = f"[{source}] does not name \u201c{part}\u201d"
        if flag not in out:
            out.append(flag)
    return out


def _told_after(best: str, source: int, quotes: Sequence[Quote], lead: dict[str, str],
                headings: Sequence[Sequence[str]]) -> tuple[str, Sequence[str]] | None:
    """What a quote sentence is told after: its quote's passage before the quote (``lead``, by quote text) and the
    quote's text before the sentence, with the section headings above the passage; None where no quote of that
    source holds the sentence."""
    k = next((k for k, x in enumerate(quotes) if x.source == source and best in x.text), None)
    if k is None:
        return None
    text = quotes[k].text
    return f"{lead.get(text, '')} {text[:text.index(best)]}", headings[k] if k < len(headings) else ()


def _whole_told_as_part(summary: str, quotes: Sequence[Quote], q: Question, names: Iterable[str],
                        passages: Sequence[str], headings: Sequence[Sequence[str]]) -> list[str]:
    """A sentence of a section on the whole company told as the part the question asks about: "The comparable sales
    decreased 6.2% in the second quarter ..." for the Domestic segment, restating "... our comparable sales declined
    6.2% ..." under "Consolidated Results" (``[narrative.summary] heading_whole``), gives '[6] is about the whole
    company (“Consolidated Results”), not “Domestic”'. Only where neither the summary sentence, the quote sentence
    nor the passage's last words before it name a part (a name of the question's or any capitalised one)."""
    every = [*names, *(x.doc for x in quotes)]
    plain = plain_stems(every)
    parts = asked_parts(q, plain, every)
    whole = narrative().heading_whole
    if not parts or not whole or not headings:
        return []
    sentences = _quote_sentences(quotes)
    lead = _lead_ins(quotes, passages)
    out: list[str] = []
    for sentence in split_sentences(summary):
        if any(name_letters(p) & name_letters(CITATION.sub(" ", sentence)) for p in parts):
            continue  # it names the part: whose the quote is, other checks read
        if (found := _told_from(sentence, sentences, plain)) is None:
            continue
        source, best = found[0], found[1]
        if _capitalised(best, plain) or (after := _told_after(best, source, quotes, lead, headings)) is None:
            continue
        told, above = after
        nearest = above[0] if above else ""
        if (not any(w in nearest.lower() for w in whole)
                or any(name_letters(p) & name_letters(told[-WHOLE_REACH:]) for p in parts)):
            continue
        flag = f"[{source}] is about the whole company (\u201c{nearest}\u201d), not \u201c{parts[0]}\u201d"
        if flag not in out:
            out.append(flag)
    return out


WHOLE_REACH = 300
"""How far back in a quote's passage a part named before it heads the sentence quoted (a run-in heading)."""


@cache
def _qualifiers() -> re.Pattern[str] | None:
    """The vocabulary's ``measure_qualifiers`` as one pattern of whole words; None where it lists none."""
    quals = narrative().measure_qualifiers
    if not quals:
        return None
    return re.compile(rf"(?<![\w-])(?:{'|'.join(re.escape(x) for x in sorted(quals, key=len, reverse=True))})"
                      r"(?![\w-])", re.I)


def _qualifier_changed(summary: str, quotes: Sequence[Quote], q: Question) -> list[str]:
    """A measure's qualifier (``[narrative.summary] measure_qualifiers``: "adjusted", "core", "organic") added or
    dropped. Added: "Core operating earnings increased by $1,643 million" restating "Earnings from operations in 2018
    increased by $1,643 million ..." gives '[3] does not say “core”' (a qualifier in the sentence's subject, before
    its first direction word, that the quote sentence it is told from lacks). Dropped: "Pharmaceutical sales grew
    3.9%" where every quote sentence stating 3.9% gives it for "worldwide adjusted operational sales" gives '3.9%:
    [3] gives it for “adjusted operational”' (a qualifier in the clause before the quote's figure that the summary's
    sentence lacks and the question does not name: one the question names, the summary may leave to it)."""
    if (pattern := _qualifiers()) is None:
        return []
    asked = {m.group(0).lower() for m in pattern.finditer(q.text)}
    sentences = _quote_sentences(quotes)
    out: list[str] = []
    for sentence in split_sentences(CITATION.sub(" ", summary)):
        mine = {m.group(0).lower() for m in pattern.finditer(sentence)}
        moved = _first_direction(sentence)
        subject = sentence[:moved.start()] if moved is not None else ""
        if (found := _told_from(sentence, sentences)) is not None:
            source, best = found[0], found[1]
            theirs = {m.group(0).lower() for m in pattern.finditer(best)}
            for m in pattern.finditer(subject):
                if m.group(0).lower() not in theirs:
                    out.append(f"[{source}] does not say \u201c{m.group(0).lower()}\u201d")
        for v in quantities(sentence):
            if not _figure(v):
                continue
            holders = [(src, s[:w.start]) for src, s, _ in sentences for w in quantities(s)
                       if _figure(w) and (same_number(w, v.value) or same_number(v, w.value))]
            dropped = [[x for m in pattern.finditer(re.split(r"[;:,]", before)[-1])
                        if (x := m.group(0).lower()) not in mine | asked] for _, before in holders]
            if holders and all(dropped):
                out.append(f"{v.raw.strip()}: [{holders[0][0]}] gives it for \u201c{' '.join(dropped[0])}\u201d")
    return list(dict.fromkeys(out))


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


def _earlier_years_told(summary: str, quotes: Sequence[Quote], q: Question, passages: Sequence[str],
                        headings: Sequence[Sequence[str]] = ()) -> list[str]:
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
    asked = set(q.asked.years)
    if not asked or not passages:
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
        told_in = [f"{lead.get(x.text, '')} {x.text}" for x in quotes if x.source == source and best in x.text]
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
        if flag not in out:
            out.append(flag)
    return out


def _years_moved(summary: str, quotes: Sequence[Quote], names: Iterable[str]) -> list[str]:
    """A sentence restating one quote sentence with its years moved: "Total revenues net of interest expense
    increased in 2022 compared to 2021, primarily driven by higher Discount revenue ..." restating "... increased in
    2021 compared to 2020, primarily driven by higher Discount revenue ..." gives '[5] is about 2021'. The sentence
    names a year the quote sentence does not, and the quote sentence one the sentence does not, in a date or not (a
    sentence joining two quotes names the years of both; one that names fewer years, none the quote's lacks)."""
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
            if flag not in out:
                out.append(flag)
    return out


def _section_ytd(told: str, headings: Sequence[str]) -> bool:
    """Whether the nearest span a quote sentence is told under (``periods.SPAN_SECTION``, in its passage before it,
    else in the headings above it) is a year to date, not a quarter."""
    found = list(SPAN_SECTION.finditer(told))
    nearest = found[-1] if found else next((m for h in headings if (m := SPAN_SECTION.search(h))), None)
    return nearest is not None and nearest.group("ytd") is not None


def _longer_period_told(summary: str, quotes: Sequence[Quote], q: Question | None = None,
                        passages: Sequence[str] = (), headings: Sequence[Sequence[str]] = ()) -> list[str]:
    """A sentence telling a quarter that restates a quote sentence of a longer period and no quarter ("The increase
    in North America operating income in Q3 2023 was primarily due to ..." from "The North America operating income
    for the nine months ended September 30, 2023 ... is primarily due to ...") gives '[4] is about the nine
    months': the drivers of the year to date are not the quarter's. A sentence naming no period tells the quarter
    the question asks; a quote sentence naming no period of its own is told in its section's (``_section_ytd``: a
    bank's "Year-to-date results" after its "Quarterly results"), which gives '[5] is about the year to date'. The
    other way round, a sentence telling a year to date (or naming no period where the question asks one) that
    restates a quote sentence of one quarter ("iPad net sales decreased during the third quarter of 2023 ..." told
    for the first nine months) gives '[5] is about the third quarter'."""
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
            flag = f"[{source}] is about the {theirs.text.split(';')[0].lower()}"
        elif (not own.months and not own.quarter
              and (after := _told_after(best, source, quotes, lead, headings)) and _section_ytd(*after)):
            flag = f"[{source}] is about the year to date"
        else:
            continue
        if flag not in out:
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


_OFFSET_BY = re.compile(r"\b(?:(?:partially|partly|largely|more\s+than|in\s+part)\s+)?offsets?(?:\s+in\s+part)?\s+by\b|"
                        r"\boffsetting\b", re.I)
OFFSET_GRAM = 3
"""Content words in a row a summary's driver or offset must share with a quote's to be the same one."""


_FULL_STOP = re.compile(r"(?<=[a-z0-9%)][.!?])\s+(?=[A-Z\u201c\"(])")
"""Where a quote's sentences part for ``_offset_swapped``: at full stops only, not at a list's bullets."""


def _grams(text: str, plain: set[str]) -> dict[tuple[str, ...], str]:
    """Each ``OFFSET_GRAM`` content words in a row of a text (stems; stopwords and ``plain`` aside), with the text
    they span as written."""
    words = [m for m in CONTENT_WORD.finditer(text)
             if m.group(0).lower() not in STOPWORDS and word_stem(m.group(0)) not in plain]
    return {tuple(word_stem(m.group(0)) for m in words[i:i + OFFSET_GRAM]):
            text[words[i].start():words[i + OFFSET_GRAM - 1].end()].strip(" ,;")
            for i in range(len(words) - OFFSET_GRAM + 1)}


_LIST_AFTER = re.compile(r"\s*[:\u2022]")
"""An offset that opens a list ("offset by: ...", "offset by \u2022 ..."), whose items semicolons and bullets part."""
_ITEM_END = re.compile(r"[;\u2022]")
"""Where an item of a sentence's list ends: a semicolon or the next bullet."""


def _offset_sides(text: str, plain: set[str]) -> tuple[dict[tuple[str, ...], str], dict[tuple[str, ...], str]]:
    """The ``_grams`` of a text's drivers and of its offsets: its words before and after its "offset by" (all of it
    drivers where it has none). An offset ends at a semicolon or a bullet, after which the text's next item tells its
    own drivers ("... partially offset by lower favorable adjustments; and about $100 million for the F-22 program
    due to higher net favorable adjustments"), unless the offset opens a list."""
    m = _OFFSET_BY.search(text)
    if not m:
        return _grams(text, plain), {}
    after = text[m.end():]
    end = None if _LIST_AFTER.match(after) else _ITEM_END.search(after)
    if end is None:
        return _grams(text[:m.start()], plain), _grams(after, plain)
    drivers, offsets = _offset_sides(after[end.end():], plain)
    return {**_grams(text[:m.start()], plain), **drivers}, {**_grams(after[:end.start()], plain), **offsets}


def _offset_swapped(summary: str, quotes: Sequence[Quote], names: Iterable[str]) -> list[str]:
    """A driver told as an offset, or an offset as a driver: "driven by higher net sales of iPhone 14 Pro models,
    partially offset by lower net sales from certain iPhone models" where the quote says "decreased ... due
    primarily to lower net sales from certain iPhone models, partially offset by higher net sales of iPhone 14 Pro
    models" gives '[6] gives “higher net sales” as an offset'. Each side of a sentence's "offset by" (the whole
    sentence where it has none: all drivers) is compared, ``OFFSET_GRAM`` content words in a row, with the sides of
    the quotes' sentences (a list's items with their lead-in); words that only ever stand on the other side are
    swapped."""
    # the company's names; generic words ("higher", "net") tell the driver
    plain = plain_stems(names) - set(common_stems())
    # a list's items stay with their lead-in ("partially offset by • ...")
    sides = [(x.source, *_offset_sides(t, plain)) for x in quotes for t in _FULL_STOP.split(x.text)]
    out: list[str] = []
    for sentence in split_sentences(CITATION.sub(" ", summary)):
        for side, grams in enumerate(_offset_sides(sentence, plain)):  # 0: the drivers, 1: the offsets
            for g, written in grams.items():
                on = [src for src, *both in sides if g in both[side]]
                other = [src for src, *both in sides if g in both[1 - side]]
                if other and not on:
                    flag = (f"[{other[0]}] gives \u201c{written}\u201d as a driver, not an offset" if side
                            else f"[{other[0]}] gives \u201c{written}\u201d as an offset")
                    if flag not in out:
                        out.append(flag)
                    break
    return out


_EQUATES = (r"\b(?:include|includes|including|are|is|were|was|consists?\s+of|comprises?|such\s+as|namely|"
            r"ranges?\s+from|ranging\s+from)\b")
"""Words that tell what a role's parties are ("its customers include ...")."""
_RIGHT_AFTER = re.compile(r"\s+(?:(?:of|for)\s+(?:the\s+)?[A-Z][\w&'’.-]*(?:\s+[A-Z][\w&'’.-]*)*\s+)?")
"""What may stand between a role's word and the word telling its parties: nothing, or whose they are ("customers of
the Commercial Airplanes segment" aside, "customers of BCA include"); "customer requirements is" is no telling."""
_NEXT_CLAUSE = re.compile(r",?\s+(?:and|but|while|whereas)\s+(?:its|their|the|our|it|they|we)\b|[;:]")


def _told_as(role: Sequence[str], others: Sequence[str], text: str) -> str:
    """The first word of ``others`` a text tells a ``role``'s parties to be ("customers include ... suppliers"),
    within the clause (up to the next "and its ...", semicolon or colon; the text is one sentence, whose "U.S."
    ends none); '' when none."""
    words = "|".join(re.escape(w) for w in role)
    for m in re.finditer(rf"\b(?:{words})\b", text, re.I):
        gap = _RIGHT_AFTER.match(text, m.end())
        e = re.compile(_EQUATES, re.I).match(text, gap.end()) if gap else None
        if e is None:
            continue
        rest = text[e.end():]
        rest = rest[:cut.start()] if (cut := _NEXT_CLAUSE.search(rest)) else rest
        if (o := re.search(rf"\b(?:{'|'.join(re.escape(w) for w in others)})\b", rest, re.I)) is not None:
            return o.group(0).lower()
    return ""


def _roles_crossed(summary: str, quotes: Sequence[Quote], q: Question) -> list[str]:
    """Parties of one role told as the role asked: "Boeing's major customers include U.S. and non-U.S.
    subcontractors and suppliers" where the quote says "We rely on ... subcontractors and suppliers to ... perform
    some of the services that we provide to our customers" gives '“suppliers” are no “customers”'. The roles are the
    vocabulary's (``[narrative.parties] roles``); the role asked is the one the question names, and a quote that
    itself tells that role's parties in the other's words lets the summary do so."""
    asked = q.told
    kind = narrative().kind(asked.narrative) if asked is not None else None
    if kind is None or not kind.roles:
        return []
    low = q.text.lower()
    role, asked_as = next(((g, w) for g in kind.roles for w in g if re.search(rf"\b{re.escape(w)}\b", low)),
                          ((), ""))
    if not role:
        return []
    others = [w for g in kind.roles if g is not role for w in g]
    out: list[str] = []
    for sentence in split_sentences(CITATION.sub(" ", summary)):
        if (word := _told_as(role, others, sentence)) and not any(_told_as(role, others, x.text) for x in quotes):
            flag = f"\u201c{word}\u201d are no \u201c{asked_as}\u201d"
            if flag not in out:
                out.append(flag)
    return out


_TRAILING_CITATIONS = re.compile(r"(?:\s*[.;,]?\s*\[\d+(?:\s*,\s*\d+)*\])+\s*[.;,]?\s*$")
"""The citations that end a sentence ("... physical stores [4]." or "... physical stores. [5]")."""


def _cited_elsewhere(summary: str, quotes: Sequence[Quote]) -> list[str]:
    """A summary sentence that restates one quote sentence (``_restated``) but cites other quotes, not it ("The
    increase in fulfillment costs ... physical stores. [5]" where the words are [4]'s and [5] defines the costs):
    the reader who opens the cited page finds nothing of it. Each gives '[5] cited: the words are [4]'s'. Only
    citations that end a sentence are judged (one standing after its full stop belongs to it); a sentence with a
    citation inside it (a list's lead-in, "[7] states that ...") or citing evidence that is no quote (a table's
    cells) is not, nor one whose cited quotes say it too (as many of its words, or every figure it gives: "net sales
    fell by $10.5 billion [1]" where [1] gives the $10.5 billion and another quote more of the words)."""
    sources = {x.source for x in quotes}
    sentences = _quote_sentences(quotes)
    pieces: list[str] = []
    for sentence in split_sentences(summary):
        if pieces and not CITATION.sub("", sentence).strip():
            pieces[-1] += " " + sentence
        else:
            pieces.append(sentence)
    out: list[str] = []
    for piece in pieces:
        end = _TRAILING_CITATIONS.search(piece)
        if end is None:
            continue
        cited, text = cited_numbers(end.group(0)), piece[:end.start()]
        if not set(cited) <= sources or CITATION.search(text):
            continue
        found = _restated(text, sentences)
        if found is None or found[1][0] in cited:
            continue
        # the cited quotes may say it too: in as many words, or with every figure the sentence gives
        theirs = [t for t in sentences if t[0] in cited]
        figures = [v for v in quantities(text) if _figure(v)]
        if _restated(text, theirs) is not None or (figures and all(
                any(same_number(w, v.value) or same_number(w, -v.value) for t in theirs for w in quantities(t[1]))
                for v in figures)):
            continue
        flag = f"{' '.join(f'[{n}]' for n in cited)} cited: the words are [{found[1][0]}]'s"
        if flag not in out:
            out.append(flag)
    return out


_LEADING_CITATION = re.compile(r"^\W*((?:\[\d+\][\s,]*)+)(?:indicates|states|says|shows|notes|reports|mentions|"
                               r"explains|adds)\b", re.I)
"""A sentence that opens by naming its quote ("[2] indicates that ...")."""


def _words_of_other_quotes(summary: str, quotes: Sequence[Quote], q: Question, names: Iterable[str]) -> list[str]:
    """A sentence that cites one quote ("[2] indicates that ...", or a citation ending it) but tells words only other
    quotes have: "[2] indicates that the margin decreased due to ... outsourced hardgoods manufacturing costs" where
    "outsourced hardgoods" are [6]'s gives '[2] does not say “outsourced”': the reader who opens [2] does not find
    it. Words of the question, names and generic words aside; a sentence citing evidence that is no quote, or with
    a citation inside it, is not judged."""
    sources = {x.source for x in quotes}
    plain = plain_stems(names) | said_stems([q.text])
    out: list[str] = []
    for sentence in split_sentences(summary):
        if (lead := _LEADING_CITATION.match(sentence)) is not None:
            cited, text = cited_numbers(lead.group(1)), sentence[lead.end():]
        elif (end := _TRAILING_CITATIONS.search(sentence)) is not None:
            cited, text = cited_numbers(end.group(0)), sentence[:end.start()]
        else:
            continue
        if not cited or not set(cited) <= sources or CITATION.search(text):
            continue
        theirs = said_stems(x.text for x in quotes if x.source in cited)
        others = said_stems(x.text for x in quotes if x.source not in cited)
        for w in CONTENT_WORD.findall(text):
            if (st := word_stem(w)) in others and st not in theirs and st not in plain and w.lower() not in STOPWORDS:
                flag = f"{' '.join(f'[{n}]' for n in cited)} does not say \u201c{w.lower()}\u201d"
                if flag not in out:
                    out.append(flag)
                break
    return out


_CAMEL = re.compile(r"(?<![\w-])(?:[A-Z][a-z]+){2,4}(?![\w-])")
"""A word run together from capitalised pieces ("LatAm")."""


def _spelled_out(text: str, q: Question) -> str:
    """The text with each short form of a name the question asks about written as the question writes it: a word run
    together from pieces that begin, in order, the name's words ("LatAm" for "Latin America"), two letters or more
    each (initials, "APAC", are acronyms: ``_acronym_of``)."""
    runs = [NAME_WORD.findall(POSSESSOR.sub("", run)) for run in q.names]

    def spelled(m: re.Match[str]) -> str:
        pieces = re.findall(r"[A-Z][a-z]+", m.group(0))
        for words in runs:
            for i in range(len(words) - len(pieces) + 1):
                span = words[i:i + len(pieces)]
                if all(w.startswith(p) and w != p for p, w in zip(pieces, span, strict=True)):
                    return " ".join(span)
        return m.group(0)

    return _CAMEL.sub(spelled, text) if runs else text


_ATTRIBUTED = re.compile(r"(^|[.!?]\s+)\s*(?:(?:the\s+)?(?:sources?|quotes?|quoted\s+sentences?|filing|text)\s+)?"
                         r"(?:indicates?|states?|shows?|says?|notes?|mentions?|explains?|reports?)\s+that\s+(\w)",
                         re.I)
"""A sentence that opens by saying a quote says what follows ("[3] indicates that the change in ... was driven by
..."; its citation is taken out first): what follows is the sentence's claim, subject first."""


def _claim(m: re.Match[str]) -> str:
    """``_ATTRIBUTED``'s claim, its first letter capitalised as a sentence's."""
    return m.group(1) + m.group(2).upper()


def unsupported(summary: str, quotes: Sequence[Quote], q: Question, names: Iterable[str] = (),
                stated: str = "", passages: Sequence[str] = (), headings: Sequence[Sequence[str]] = (),
                evidence: Sequence[str] = ()) -> list[str]:
    """What the summary says that the quotes do not: each number the quotes do not state (as written), then each
    content word (a driver, a party, a product: not a stopword, not one of the vocabulary's generic summary words)
    that neither the quotes, the question, ``names`` (the documents' names, the company's aliases) nor what the
    code ``stated`` (a computed change the summary may repeat) contain. A fiscal year a fact is given for must be
    one the quotes or the code's statement name: a document's name ("BESTBUY_2023_10K") names the filing, not the
    year of what it reports. ``passages`` are the passages the quotes come from, in the quotes' order ('' where
    unknown), ``headings`` the section headings each is told under (``Evidence.headings``), ``evidence`` the text of
    every passage retrieved (where a heading's name is read as a part's: "EMEA revenues grew 17%")."""
    if not summary.strip() or not quotes:
        return []
    # a short form of an asked name ("LatAm") is that name, in the quotes, their passages and the summary
    quotes = [replace(x, text=_spelled_out(x.text, q)) for x in quotes]
    passages = [_spelled_out(t, q) for t in passages]
    summary = _spelled_out(summary, q)
    texts = [*(x.text for x in quotes), q.text, *names, stated]
    figures = {round(c, 6) for t in texts for v in quantities(t) for c in v.candidates()}
    out: list[str] = []
    body = _ATTRIBUTED.sub(_claim, BROKEN.sub("-", CITATION.sub(" ", summary)))
    for v in quantities(body):
        if not v.percent and v.scale == 1.0 and abs(v.value) < 10:
            continue  # "two acquisitions", "Item 5": a count or a number too small to be a figure
        if not {round(c, 6) for c in v.candidates()} & figures:
            out.append(v.raw.strip())
    out += [f for f in _for_other_years(body, quotes) if f not in out]
    # a No is the quotes' only where one of them denies something ("Does it report any acquisitions?" answered No
    # beside quotes that name none: that nothing is quoted is no quote saying there was none)
    if q.yes_no and _NO.match(body) and not any(_NEGATION.search(x.text) for x in quotes):
        out.append("No")
    out += [f for f in _forecast_as_fact(body, quotes, names) if f not in out]
    # a passage is told under the part its section heading names: the part counts as named before it
    parts = _heading_parts(quotes, names, list(dict.fromkeys([*passages, *evidence])), headings, q)
    headed = _headed_passages(passages, parts)
    out += [f for f in _drivers_of_something_else(summary, quotes, q) if f not in out]
    out += [f for f in _restated_about_something_else(body, quotes, q, names, passages) if f not in out]
    out += [f for f in _question_word_put_in(body, quotes, q, names) if f not in out]
    out += [f for f in _figures_of_others(body, quotes, names) if f not in out]
    out += [f for f in _pairs_swapped(body, quotes, names) if f not in out]
    out += [f for f in _figure_of_another_measure(body, quotes, names) if f not in out]
    out += [f for f in _cited_elsewhere(summary, quotes) if f not in out]
    out += [f for f in _words_of_other_quotes(summary, quotes, q, names) if f not in out]
    out += [f for f in _said_of_others(body, quotes, q, names) if f not in out]
    out += [f for f in _unquoted_subject(quotes, q, names, headed) if f not in out]
    out += [f for f in _another_part(body, quotes, q, names, headed) if f not in out]
    out += [f for f in _under_another_heading(body, quotes, q, names, passages, parts) if f not in out]
    out += [f for f in _whose_figure(body, quotes, names) if f not in out]
    out += [f for f in _part_told_from_the_whole(body, quotes, q, names, headed) if f not in out]
    out += [f for f in _earlier_years_told(body, quotes, q, passages, headings) if f not in out]
    out += [f for f in _longer_period_told(body, quotes, q, passages, headings) if f not in out]
    out += [f for f in _whole_told_as_part(body, quotes, q, names, passages, headings) if f not in out]
    out += [f for f in _qualifier_changed(body, quotes, q) if f not in out]
    out += [f for f in _years_moved(body, quotes, names) if f not in out]
    out += [f for f in _roles_crossed(body, quotes, q) if f not in out]
    out += [f for f in _offset_swapped(body, quotes, names) if f not in out]
    out += [f for f in _driver_of_another_item(body, quotes, q, names) if f not in out]
    out += [f for f in _cause_after_change(body, q) if f not in out]
    out += [f for f in _cause_no_quote_gives(body, quotes, q, names) if f not in out]
    out += [f for f in _pointed_back_elsewhere(body, quotes, q, names) if f not in out]
    out += [f for f in _another_item_told(body, quotes, q, names) if f not in out]
    out += [f for f in _direction_given_to_driver(body, quotes, q, names) if f not in out]
    out += [f for f in _direction_disputed(body, quotes, names) if f not in out]
    out += [f for f in _denied(body, quotes, q, names) if f not in out]
    # a fiscal year a fact is given for must be the quotes' ("acquired in FY2021" where the quote says "In fiscal
    # 2022, we acquired"); the question's years count only in a sentence that says what the quotes lack
    years = {y for t in (*(x.text for x in quotes), stated) for y, _, _ in years_named(t)}
    for sentence in split_sentences(body):
        for y, fiscal, written in years_named(sentence):
            if fiscal and y not in years and not _NEGATION.search(sentence):
                out.append(written)
    quoted = said_stems(t for t in texts if t != q.text)
    known = quoted | said_stems([q.text])
    generic = narrative().generic
    for sentence in split_sentences(body):
        if _LACKS.search(sentence):
            continue  # what the quotes lack ("The sources do not provide information about its timing")
        # a yes/no question's words do not support the Yes that repeats them ("Yes, it was able to retain card
        # members" where no quote says anything was retained): in that sentence only the quotes count
        own = quoted if q.yes_no and _YES.match(sentence) else known
        for w in CONTENT_WORD.findall(sentence):
            low = w.lower().strip("'’-")
            if low in STOPWORDS or low in generic or word_stem(w) in own:
                continue
            if w not in out:
                out.append(w)
    return out

"""What the summary checks read: ``Reading``, the one object every check takes, and the sentence readers two or more
of the check modules use: the quote sentence a summary sentence restates or is told from (``_restated``,
``_told_from``, ``_told_whole``), a sentence's subject, what it says moved and which way (``_mover``, ``_change_of``),
its first cue of a narrative kind, the line item it names first (``_lead_item``), a quote's lead-in in its passage.
The check modules (``periods``, ``items``, ``parts``, ``claims``) import from here; nothing here imports them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from engine.ask.checks import CITATION
from engine.ask.narrative import ACRONYM, DATED_MAY
from engine.ask.question import ENDS_POSSESSIVE, NAME_WORD, Question
from engine.ask.subjects import (
    CONTENT_WORD,
    asked_names,
    initials,
    letters,
    name_key,
    name_letters,
    said_stems,
    word_stem,
)
from engine.library.lexical import STOPWORDS
from engine.numbers import Quantity, quantities
from engine.sentences import split_sentences
from engine.types import Quote
from engine.vocabulary import NarrativeKind, directions, items_named, narrative, ratio_named


@dataclass(frozen=True)
class Reading:
    """One summary and what it is checked against, read once by ``unsupported``: every check takes it and returns its
    flags (``CHECKS``)."""

    summary: str
    """The summary, each short form of a name the question asks about spelled out ("LatAm": "Latin America"), its
    citations kept: what a check of which quote a sentence cites reads."""
    body: str
    """The summary as its claims are read: citations taken out, broken words joined, and a sentence that says a quote
    says something ("[3] indicates that the change ...") told as its claim ("The change ...")."""
    quotes: tuple[Quote, ...]
    """The quoted sentences, short forms spelled out."""
    q: Question
    """The question, understood once."""
    names: tuple[str, ...]
    """The documents' names and the company's aliases: names, not claims."""
    stated: str
    """What the code stated before the summary (a computed change the summary may repeat)."""
    passages: tuple[str, ...]
    """The passage each quote comes from, in the quotes' order ('' where unknown), short forms spelled out."""
    headings: tuple[Sequence[str], ...]
    """The section headings each quote's passage is told under (``Evidence.headings``), in the quotes' order."""
    parts: tuple[str, ...]
    """The part each quote's section headings name, in the quotes' order ('' where none): read with every passage
    retrieved, where a heading's name is read as a part's."""
    headed: tuple[str, ...]
    """Each passage with the part its section headings name before it ("Sam's Club: Gross profit rate decreased
    ...")."""
    priors: tuple[str, ...] = ()
    """The text of the chunk before each quote's passage, in the quotes' order ('' where unknown): where a legal
    matter a passage begins inside of was opened."""


RESPECTIVELY = re.compile(r"\brespectively\b", re.I)
"""A sentence that pairs its lists in order ("Vietnam and China ... 50% and 27%, respectively")."""

_LACKS = re.compile(r"\b(?:sources?|quotes?|quoted sentences?|passages?|text|filing|excerpts?)\s+"
                    r"(?:do|does|did)\s+not\b|\bno (?:information|mention)\b"
                    r"|\bnot\s+(?:\w+\s+)?(?:stated|mentioned|specified|provided|given|disclosed|included)\s+in\s+the\s+"
                    r"(?:(?:given|provided|available|quoted)\s+)?(?:information|context|sources?|quotes?|text|passages?|"
                    r"excerpts?|sentences?)\b", re.I)
"""A sentence saying what the quotes lack ("The sources do not ...", "The new terms are not stated in the given
information"): its words name what is missing, not a claim."""
_NEGATION = re.compile(r"\b(?:not|no|none|neither|nor|without)\b|n't\b", re.I)
_YES = re.compile(r"\W*yes\b", re.I)
"""A reply that opens with Yes."""


def _figure(v: Quantity) -> bool:
    """Whether a number is a figure (an amount in a currency, a percent, or scaled: "$8.6 billion", "12%"), not a
    count, a year or a note's number."""
    return bool(v.currency or v.percent or v.scale != 1.0)


FORECAST_SHARE = 0.6
"""The share of a summary sentence's words one quote sentence must hold to be the sentence it restates."""
RESTATED_WORDS = 4
"""The fewest words a summary sentence must share with a quote sentence to restate it."""


def _quote_sentences(quotes: Sequence[Quote]) -> list[tuple[int, str, set[str]]]:
    """Each sentence of the quotes with its quote's source and its stems."""
    return [(x.source, s, said_stems([s])) for x in quotes for s in split_sentences(x.text)]


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
    which say nothing of which quote a sentence restates). Each figure the two share counts as a word: of two
    sentences alike but for their figures ("The $702 million inventory provision consists of ..." beside "The $2.01
    billion inventory provision in the first nine months ... consists of ..."), the one with the sentence's figures
    is the one it restates."""
    words, held = _holding(sentence, sentences, plain)
    if not held:
        return None
    figures = _figures(sentence)
    return words, max(held, key=lambda t: len(words & t[2]) + len(figures & _figures(t[1])))


def _figures(text: str) -> set[float]:
    """The values of the numbers a text states."""
    return {round(v.value, 6) for v in quantities(text)}


def _forward_word(sentence: str) -> str:
    """The first of the vocabulary's forward-looking words a sentence uses ('' when none; "May 12" is a date)."""
    low = DATED_MAY.sub(" ", sentence.lower())
    return next((w for w in narrative().forward if re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", low)), "")


def _first_cue(kind: NarrativeKind, text: str) -> int:
    """Where the first of a kind's cue phrases starts in a sentence (-1 when it has none)."""
    low = text.lower()
    found = [m.start() for c in kind.cues if (m := re.search(rf"(?<![a-z]){re.escape(c)}", low))]
    return min(found, default=-1)


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


_DETERMINERS = frozenset({"our", "its", "their", "his", "her", "your", "this", "these", "those", "that"})


_NOT_MOVES = frozenset({"higher", "lower", "growth", "expansion", "contraction", "reduction", "increase",
                        "decrease", "decline", "drop", "fall", "rise", "lift", "boost"})
"""Direction words that are no verb a subject does (an adjective, a noun): the word before them is no subject."""


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


def _change_of(sentence: str, plain: set[str], asked: Collection[str] = ()) -> tuple[frozenset[str], bool] | None:
    """The item a sentence says moved (``_head``: two words at least, or the one word of the item ``asked``) and
    which way: "The increase in net interest income in 2023 was driven by ..." and "In 2023, net interest income
    increased ..." move net interest income up; "Headcount rose ..." moves headcount, where it is asked."""
    rises, falls = directions()
    text = CITATION.sub(" ", sentence)
    change = _CHANGE_IN.match(text)
    if change and (rises.fullmatch(change["way"]) or falls.fullmatch(change["way"])):
        head, up = _head(change["item"], plain), bool(rises.fullmatch(change["way"]))
    else:
        who = _LEADING_PERIOD.sub("", _mover(text))
        rest = text[text.index(who) + len(who):] if who and who in text else ""
        head, up = _head(who, plain), bool(rises.match(rest.lstrip(" ,")))
    return (head, up) if len(head) > 1 or head and head <= set(asked) else None


NAMED_BEFORE = 8
"""Words before a figure that name what it is of ("Google Network revenues increased $8.6 billion")."""


_FURNITURE = re.compile(r"\([^()]*\)|\btable of contents\b", re.I)
"""What names nothing a figure is of: a parenthesis (a defined term, “Buyer”, “One Medical”) and the running head
"Table of Contents"."""


_CLAUSES = re.compile(r"\s*(?:[;,:\u2022]|\s\u2013\s|\s-\s)\s*|\s+and\s+")
"""Where a summary sentence's clauses part: what one clause says is said of the names in it ("the acquisition of
MGM Holdings Inc. and the cash payments related to acquisition" says nothing of MGM's payments)."""


_OPENING = " \"'“(["


def _name_keys(text: str) -> set[str]:
    """The keys (``name_key``) of a text's names, codes ("F-22", "777X") and short ones ("CB")."""
    return {name_key(m.group(0)) for m in NAME_WORD.finditer(text)}


def _drivers_part(q: Question) -> Question | None:
    """The part of a question asking what drove a change: the part told in words (``told``) where it asks that,
    else a later part that does ("How many people did it employ, how were they spread across regions, and why did
    headcount rise?": the third); None where none does."""
    return next((p for p in (q.told, *q.parts) if p is not None and p.narrative == "drivers"), None)


def _drivers_kind(q: Question) -> NarrativeKind | None:
    """The narrative kind "drivers" where the question asks what drove a change (``_drivers_part``) and the kind has
    cue words; else None."""
    kind = narrative().kind("drivers") if _drivers_part(q) is not None else None
    return kind if kind is not None and kind.cues else None


def _plain_words(text: str) -> list[str]:
    """A text's words, lower case, punctuation aside (a hyphen or an apostrophe parts words)."""
    return re.findall(r"[a-z0-9]+", text.lower())


def _acronym_of(q: Question, asked: Sequence[str], texts: Iterable[str]) -> bool:
    """Whether the texts hold an acronym of the question's names: its letters the initials of ``Question.names`` in
    order, the first asked word's among them ("BDS" for "Boeing Defense, Space & Security")."""
    initials = "".join(w[0].upper() for run in q.names for w in NAME_WORD.findall(run))
    for acronym in {m.group(0) for t in texts for m in ACRONYM.finditer(t)}:
        it = iter(initials)
        if asked[0][0].upper() in acronym and all(c in it for c in acronym):
            return True
    return False


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


def _asked_letters(q: Question, plain: set[str]) -> set[str]:
    """The ``letters`` of every name word the question asks about (``asked_names``), a possessive's "'s" aside: an
    owner's too ("MGM China" of "MGM China's VIP table games win"); not a measure's or a topic's ("EBIT")."""
    vocab = narrative()
    return {k for w in asked_names(q, plain) if (k := letters(ENDS_POSSESSIVE.sub("", w)))
            and k not in vocab.heading_measures and k not in vocab.heading_topics}


def _same_part(one: str, other: str) -> bool:
    """Whether two names of parts share a name word (``letters``) or one is the other's initials ("MFC", "Missiles
    and Fire Control")."""
    a, b = name_letters(one), name_letters(other)
    return bool(a & b) or initials(one).lower() in b or initials(other).lower() in a


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

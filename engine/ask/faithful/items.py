"""Summary checks of what a fact is of: a cause, a driver or a figure told of another line item or measure than the
quote gives it for.

Drivers cited that say nothing of the item asked, a quote restated under another subject, another item's driver, a
question word put into a quote's mouth, a figure of another measure, another item's drivers told as the answer, a
cause no quote gives as one, a change pointed back at that a quote gives another item, a measure's qualifier
("adjusted", "core") added or dropped.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import groupby

from engine.ask.checks import CITATION, cited_numbers
from engine.ask.faithful.reading import (
    _CHANGE_IN,
    _DETERMINERS,
    _FULL_STOP,
    _FURNITURE,
    _NEGATION,
    _NOT_MOVES,
    _OPENING,
    NAMED_BEFORE,
    Reading,
    _acronym_of,
    _capitalised,
    _change_of,
    _drivers_kind,
    _drivers_part,
    _figure,
    _first_cue,
    _first_direction,
    _grams,
    _head,
    _holding,
    _item_name,
    _lead_in,
    _lead_item,
    _mover,
    _name_keys,
    _quote_sentences,
    _restated,
    _same_part,
    _told_from,
    _told_whole,
)
from engine.ask.formulas import formula_items
from engine.ask.narrative import ACRONYM
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
    name_key,
    name_letters,
    plain_stems,
    said_stems,
    same_stems,
    word_stem,
)
from engine.library.lexical import STOPWORDS
from engine.numbers import POINTS, Quantity, quantities, same_number
from engine.periods import PERIOD_WORDS
from engine.sentences import split_sentences
from engine.types import Quote
from engine.vocabulary import LineItem, NarrativeKind, change_words, directions, items_named, narrative


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


def _drivers_of_something_else(r: Reading) -> list[str]:
    """For a question what drove a line item or a ratio: each quote the summary cites ([n]) as a driver whose
    sentences say nothing of that item (no word of its names, or of its definition's items) gives '[n] is not about
    operating expenses'. A tax-rate sentence and a risk-factor pointer called the drivers of operating expenses are
    quoted words in a relation no quote states."""
    summary, quotes, q = r.summary, r.quotes, r.q
    if (asked := _drivers_part(q)) is None:
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


def _word_count(text: str) -> int:
    """A text's words, signs ("&", "–") aside."""
    return sum(1 for w in text.split() if any(c.isalnum() for c in w))


def _opens_with(sentence: str, parts: Iterable[str]) -> bool:
    """Whether a sentence opens with one of the parts' names (a part the question asks, not a sentence's capital)."""
    opening = sentence.lstrip(_OPENING).lower()
    return any(p and opening.startswith(p.lower()) for p in parts)


NAMED_SUBJECT = 6
"""The most words a quote's subject has for its names to be compared with a summary's (a list item's "Google
Services"; a longer one runs on from a heading: "Acquisition Activity On February 22, 2023, we")."""


TURNED_CHARS = 12
"""The words after a direction word (``_words_after``) must run this long to tell what it is said of."""


def _words_after(text: str, at: int, n: int = 6) -> str:
    """The ``n`` words of a text after a position, lower case, without the punctuation around them."""
    return " ".join(w.strip(",.;:()") for w in text[at:].lower().split()[:n]).strip()


_NAME_RUN = re.compile(r"(?<![\w&'’-])[A-Z][\w&'’-]*(?:\s+(?:&\s+)?[A-Z][\w&'’-]*)+")
"""A name of several capitalised words ("Google Play", "Walmart International")."""


_SUBJECT_WORDS = STOPWORDS | _DETERMINERS | {"we", "it", "they", "i"}
"""Words that open a sentence's subject, not a name's last word ("NVIDIA AI Cloud Service Offerings We offer ...": a
run-in heading, then "We")."""


def _name_cut(theirs: str, mine: str, plain: set[str]) -> str:
    """A name of the quote's subject whose first word the sentence's subject says and whose last (the word that tells
    it from its kin: "Google Play", "Google Cloud") it does not; '' where none (the company's own name ending it, a
    legal form ending it: "Neodron Ltd." is Neodron), or where the quote names the sentence's name too."""
    said = said_stems([mine])
    runs, formed = [], []
    for m in _NAME_RUN.finditer(theirs):
        words = [w for w in m.group(0).split() if w != "&"]
        while words and words[-1].lower() in _SUBJECT_WORDS:  # "... Service Offerings We offer": the next subject
            words.pop()
        if words and words[-1].lower().strip(".,") in LEGAL_FORMS:  # "Neodron Ltd." is Neodron
            while words and words[-1].lower().strip(".,") in LEGAL_FORMS:
                words.pop()
            formed.append(words)
        if len(words) >= 2:
            runs.append(words)
    if any(words and all(word_stem(w) in said for w in words) for words in (*runs, *formed)):
        return ""  # the quote names the sentence's name too ("... LLC (collectively, Hemlock Semiconductor Group)")
    for words in runs:
        first, last = word_stem(words[0]), word_stem(words[-1])
        if last in plain:
            continue  # the company's own name ("Goldman Sachs"), or its legal form
        if first in said and last not in said:
            return " ".join(words)
    return ""


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


def _named_end(q: Question, part: str, text: str, at: int) -> int:
    """Where a part the question names ends in a text after ``at``: its name ("Display Technologies") or its acronym
    ("BDS" for "Boeing Defense, Space & Security", ``_acronym_of``); 0 where the text names it nowhere there."""
    if part in text[at:]:
        return text.index(part, at) + len(part)
    words = NAME_WORD.findall(part)
    for m in ACRONYM.finditer(text, at):
        if words and _acronym_of(q, words, [m.group(0)]):
            return m.end()
    return 0


@cache
def _anaphor() -> re.Pattern[str]:
    """A subject that points back at a change (a change noun, ``change_words``: "The decrease was primarily
    attributable to ...", "Increases were primarily due to ..."), naming no item; a period it is told of names none
    ("The increase in Q2 was due to ...", "the increase in the first half")."""
    period = "|".join(sorted(PERIOD_WORDS, key=len, reverse=True))
    word = rf"(?:{period}|q[1-4]|h[12]|fy\s*\d{{2,4}}|(?:19|20)\d{{2}})\b\s*"
    told_of = rf"\s+(?:in|of|for|during)\s+(?:the\s+)?(?:{word})+"
    return re.compile(rf"^\W*(?:(?:the|this|these|that|those|such)\s+(?:[\w-]+\s+)?)?(?:{change_words().nouns.pattern})"
                      rf"(?:{told_of}(?:was|were|is|are|has|had)\b|(?!\s+(?:in|of)\b))", re.I)


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
    decreased $641 million, or 4%, compared to 2021. The decrease was ..."), past sentences pointing back as well
    (``OWNER_REACH`` sentences at most); ('', its subject) where the vocabulary
    knows no item of it ("Other (income) expense, net increased ... This increase was partially offset by ...")."""
    for x in own:
        if sentence not in x.text:
            continue
        if not (prev := _gone_on_from(sentence, x, quotes, passages)):
            return None
        first = _first_direction(prev)
        item = _lead_item(prev[:first.start()] if first else "")
        if item[0]:
            return item
        # an item the vocabulary does not know ("Other (income) expense, net increased ..."): its subject's words;
        # "X revenue was up 108% from a year ago": the words before its "was"
        who = _CAPITALS_BEFORE.sub("", _mover(prev)) if first else _statement_subject(prev)
        return ("", who) if who and len(who.split()) <= 2 * NAMED_SUBJECT else None
    return None


def _gone_on_from(sentence: str, x: Quote, quotes: Sequence[Quote], passages: Sequence[str]) -> str:
    """The sentence a quote sentence that points back goes on from: the nearest before it, in its quote or its
    passage, that does not point back at a change itself ("The year-on-year increase reflects ... The sequential
    increase was ..." go on with one statement), ``OWNER_REACH`` sentences at most; '' where none is shown."""
    before = next((_lead_in(x, p) for y, p in zip(quotes, passages, strict=False) if y is x), "")
    told = split_sentences(f"{before} {x.text[:x.text.index(sentence)]}".strip())
    told = [t for t in told[-OWNER_REACH:] if not _anaphor().match(t)]
    return told[-1] if told else ""


_GOES_ON = re.compile(r"^\W*(?:they|it|these|this|those|such)\b", re.I)
"""A summary sentence that goes on from the one before it ("They were recorded in ...", "These charges ...")."""
_DEMONSTRATIVE_SUBJECT = re.compile(r"^\W*(?:these|this|those|such)\s+[a-z]", re.I)
"""A quote sentence whose subject points back at what its passage told before it ("These charges were recorded in
...")."""
_POINTING_SUBJECT = re.compile(r"^\W*(?:the\s+)?(?:[a-z-]+\s+){0,2}(?:from|of|under|for)\s+(?:these|this|those|such)\s+"
                               r"[a-z]", re.I)
"""A quote sentence whose subject is of something it points back at ("Net proceeds from this program are used for
..."): told without it, as a summary's own sentence ("The net proceeds were used for ..."), it is told of what the
summary named before it."""
MATTER_SHARE = 1 / 3
"""Two sentences are about one matter where their content words share at least this much of the shorter's."""


def _pointed_back_to_another_matter(r: Reading) -> list[str]:
    """A summary sentence going on from the one before it ("They were recorded in “Other operating expense (income),
    net” ...") that restates a quote sentence going on from another matter: "These charges were recorded in “Other
    operating expense (income), net” ..." follows, in its passage, "we recorded ... $420 million of impairments of
    property and equipment and operating leases ...", while the summary's "They" are the severance costs it told before:
    '[3] goes on from “impairments of property and equipment and operating leases”'. The matters differ where the two
    sentences gone on from share less than ``MATTER_SHARE`` of the shorter's content words (generic, period words, names
    and the quote sentence's own words aside). A summary sentence that does not go on but restates a quote whose
    subject is of what it points back at (``_POINTING_SUBJECT``: "Net proceeds from this program are used for
    general corporate purposes", after the commercial paper program) tells it of what it told before just the same
    ("The net proceeds were used for ..." after the sustainability bonds). A quote pointing back at a change ("The
    increase was due to ...") is ``_pointed_back_elsewhere``'s."""
    summary, quotes, names = r.body, r.quotes, r.names
    plain = plain_stems(names)
    sentences = _quote_sentences(quotes)
    parts = split_sentences(CITATION.sub(" ", summary))
    out: list[str] = []
    for k, sentence in enumerate(parts):
        goes_on = bool(_GOES_ON.match(sentence))
        if not k or (found := _restated(sentence, sentences, plain)) is None:
            continue
        source, best = found[1][0], found[1][1]
        pointing = _DEMONSTRATIVE_SUBJECT.match(best) or not goes_on and _POINTING_SUBJECT.match(best)
        if not pointing or _anaphor().match(best):
            continue
        own = next((x for x in quotes if x.source == source and best in x.text), None)
        prev = _gone_on_from(best, own, quotes, r.passages) if own is not None else ""
        # the words the quote sentence itself says tell nothing of which matter it goes on from; a summary sentence
        # that does not go on tells it of what the summary told before it all the same
        said = said_stems([best]) | plain
        mine, theirs = said_stems([parts[k - 1]]) - said, said_stems([prev]) - said
        if not mine or not theirs or len(mine & theirs) >= MATTER_SHARE * min(len(mine), len(theirs)):
            continue
        out.append(f"[{source}] goes on from \u201c{_matter(prev, theirs - mine)}\u201d")
    return out


def _matter(sentence: str, distinct: set[str], most: int = 8) -> str:
    """A sentence's words from the first whose stem is one of ``distinct``, to its clause's end or ``most`` words."""
    words = sentence.split()
    start = next((i for i, w in enumerate(words) if word_stem(w.strip(",.;:()“”\"'")) in distinct), 0)
    out: list[str] = []
    for w in words[start:start + most]:
        out.append(w.rstrip(",;:"))
        if w[-1] in ",;:":
            break
    return " ".join(out)


def _restated_about_something_else(r: Reading) -> list[str]:
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
    summary, quotes, q, names, passages = r.body, r.quotes, r.q, r.names, r.passages
    asked = q.told
    kind = narrative().kind(asked.narrative) if asked is not None else None
    if kind is None or not kind.cues:
        return []
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
              and not _nested(mine, best[at:], plain)
              and not (_anaphor().match(mine) and {word_stem(w) for w in head} & _subject(q)[1])):
            # (a sentence pointing back with "The decline ..." points at the item asked where nothing comes before)
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
        elif (run := _name_cut(theirs, mine, plain)):
            # the quote's subject is a name whose last word the sentence drops, keeping its first ("Growth for Google
            # Play was primarily driven by ..." told as "Google other revenues are primarily driven by ...")
            flag = f"[{source}] is about \u201c{run}\u201d"
        else:
            continue
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


_BEFORE_SUBJECT = re.compile(r"[):;\u2022]|\.(?!\d)")
"""What ends a heading or a chart's note before a quote's subject: a bracket, a colon, a bullet, a full stop (not a
decimal point: "Operating expenses were $6.29 billion ...")."""


def _driver_of_another_item(r: Reading) -> list[str]:
    """A driver taken from a quote whose subject is another line item: "Consumer Health sales decreased by 0.5% in
    2022, primarily due to one-time COVID-19 vaccine manufacturing exit related costs" where that cost is a bullet
    of "Cost of products sold increased as a percent to sales driven by: • One-time COVID-19 vaccine manufacturing
    exit related costs ..." gives '[7] gives “One-time COVID-19 vaccine” for “Cost of products sold”'. The drivers
    are a summary sentence's words after its first cue of the kind asked, ``OFFSET_GRAM`` content words in a row;
    the quote's subject is its words before its first cue (a list's items kept with their lead-in), its item the
    first line item it names (``_lead_item``). A quote whose item is the sentence's, or one of the asked ratio's
    items ("cost of sales" for a gross margin), gives the driver for it."""
    summary, quotes, q, names = r.body, r.quotes, r.q, r.names
    asked = _drivers_part(q)
    kind = narrative().kind("drivers") if asked is not None else None
    if asked is None or kind is None:
        return []
    plain_all = plain_stems(names)
    plain = plain_all - set(common_stems())
    _, defined = _subject(asked)
    asked_words = said_stems([q.text])
    parts = asked_parts(q, plain_all, names)
    pieces: list[tuple[int, str, str, dict[tuple[str, ...], str], str, str]] = []
    for x in quotes:
        for t in (_cause_last(kind, t) for t in _items(_FULL_STOP.split(x.text))):
            if (at := _first_cue(kind, t)) > 0:
                subject = _BEFORE_SUBJECT.split(t[:at])[-1]  # a heading or a chart's note before
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
    same = set(same_stems())
    for sentence in (_cause_last(kind, t) for t in split_sentences(CITATION.sub(" ", summary))):
        if (cut := _first_cue(kind, sentence)) <= 0:
            continue
        # the item the sentence tells of: the vocabulary's, else the words of what it says moved ("Amazon's
        # fulfillment expenses increased"), less the words any item may take ("costs", "expenses")
        mine = _lead_item(sentence[:cut])[0]
        moved: frozenset[str] = frozenset()
        if not mine and (what := _change_of(sentence[:cut], plain_all, said_stems([asked.text]))) is not None:
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
            out.append(flag)
            break
    return out


_DEMONSTRATIVE = re.compile(r"\b(?:this|these|such)\s+[a-z]", re.I)
"""A quote pointing back anywhere in it at what its passage named before it ("the effect of this change in estimate",
"these actions"), which ``_POINTS_BACK`` (a subject opening with a determiner) need not be."""
_QUOTE_OPENING = 40
"""How much of a quote's opening finds it in its passage."""
_POINTED_AT = 2
"""How many sentences before a quote that points back may name what it points at."""


def _question_word_put_in(r: Reading) -> list[str]:
    """A word of the question that a summary sentence puts into what one quote says, where that quote does not say
    it: "Alphabet faces antitrust matters, including claims, lawsuits, regulatory and government investigations"
    restating a quote of all its legal matters gives '[5] does not say “antitrust”'; "The Space segment's profit
    ... partially offset by higher net favorable profit adjustments" restating the F-35's sentence gives '[4] does
    not say “segment”'. The question's words count as said everywhere else in the check (a summary names what was
    asked); in a sentence that restates one quote (``FORECAST_SHARE`` of its words, four at least), a word of the
    question that no sentence of that quote has is the model's, in the quote's mouth. Names (capitalised words), the
    asked item's own names, direction words (the quote's "declined" for the question's "drop"; a direction the
    quote turns is flagged as such), generic, period and relative words, and the words before a colon (a lead-in that
    repeats the question: "The impact of foreign exchange rates is as follows:") and the verbs the question asks with
    (``Question.asking``: "Amazon depends on ..." for "what suppliers does Amazon depend on"), unless they tell what
    is expected (``[narrative] forward``), do not count; nor does a sentence that denies something (it may say what
    the quotes lack). A word of a group the vocabulary says are the same (``[narrative.summary] same``: "expenses"
    for "costs") is said where another of it is, and a part's kind word ("segment") by a quote that names the part
    asked or is told under a heading naming it; a quote pointing back ("this change in estimate") says what the two
    sentences before it in its passage name."""
    summary, quotes, q, names = r.body, r.quotes, r.q, r.names
    rises, falls = directions()
    asked = {word_stem(w) for w in CONTENT_WORD.findall(q.text)
             if not w[0].isupper() and not rises.fullmatch(w) and not falls.fullmatch(w)}
    plain = plain_stems(names)
    # the verbs it asks with ("what does Amazon depend on") frame the question, claim nothing of a quote; one of what
    # is expected ("does it expect ...") tells a forecast, which the quote must tell
    forward = {w for phrase in narrative().forward for w in phrase.split()}
    asked -= plain | _subject(q)[1] | {word_stem(w) for w in q.asking if w not in forward}
    if not asked:
        return []
    vocab = narrative()
    same = same_stems()
    kind_words = {word_stem(w) for w in vocab.part_words}
    part_keys = {name_key(w) for w in asked_names(q, plain)}
    by_source: dict[int, set[str]] = {}
    for i, x in enumerate(quotes):
        by_source.setdefault(x.source, set()).update(said_stems([x.text]))
        passage = r.passages[i] if i < len(r.passages) else ""
        if _DEMONSTRATIVE.search(x.text) and (at := passage.find(x.text[:_QUOTE_OPENING])) > 0:
            # "the effect of this change in estimate" says what the sentences before it name ("the useful lives")
            by_source[x.source] |= said_stems(split_sentences(passage[:at])[-_POINTED_AT:])
        heading = r.parts[i] if i < len(r.parts) else ""
        if part_keys & (_name_keys(x.text) | _name_keys(heading)):
            # "Pet operating profit" says the Pet segment's, as a quote told under the "Health Care" heading says
            # the Health Care segment's
            by_source[x.source] |= kind_words
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
            pieces = {word_stem(p) for p in w.split("-") if p}  # "term-debt": the quote's "term debt" says it
            if (not w[0].isupper() and word_stem(w) in asked and word_stem(w) not in by_source[source]
                    and not ("-" in w and pieces <= by_source[source])):
                flag = f"[{source}] does not say \u201c{w.lower()}\u201d"
                out.append(flag)
    return out


_RELATIVE_CLAUSE = re.compile(r",\s+(?:which|who|whose)\b[^,;]*,")
"""A relative clause between a subject and its verb ("Beverage revenue from company-owned bottlers, which primarily
includes ... our PBNA and Europe divisions, is approximately 35%"): its words are not what the figure is of."""
_AFTER_FIGURE = re.compile(r"\s*(?:percent(?:age\s+points?)?\b)?\s*(?P<noun>(?:share|increase|decrease|growth|decline|"
                           r"rise|drop|gain|reduction|improvement)\s+)?(?:,\s*(?=in\b))?(?P<link>in|of|on)\s+"
                           r"(?P<what>[^,;:.()]*)", re.I)
"""What a figure is of, told after it: "35% of our consolidated net revenue", "a 30% increase in backlog
attributable to non-U.S. customers", "3.3 percent on an organic local currency basis"; what it is paid in, after a
comma too ("a purchase price of $235 million, in cash")."""
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
    pieces = re.split(r"[;:\u2022]|,(?!\d)", " ".join(before.split()[-reach:] if reach else ()))
    clause = pieces[-1]
    if len(pieces) > 2 and _LIST_END.match(clause):
        # a list's last item ends the clause: its items are the measure's ("restructuring, impairment, and other
        # charges and credits of $827 million"); the first piece may be cut short by ``reach``, and opens the clause
        items = list(itertools.takewhile(lambda p: len(p.split()) <= LIST_ITEM_WORDS and not re.search(r"\d", p),
                                         reversed(pieces[1:-1])))
        clause = ",".join([*reversed(items), clause])

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


_LIST_END = re.compile(r"\s*(?:and|or)\s", re.I)
"""A clause opening as a list's last item does ("..., and other charges and credits of")."""
LIST_ITEM_WORDS = 3
"""The most words an item of a list before a figure has ("restructuring", "impairment", "Corning recorded
restructuring")."""


def _joins_name(text: str, m: re.Match[str]) -> bool:
    """Whether an "and"/"&" joins the words of one name ("Hemlock and Emerging Growth Businesses"): a capitalised
    word right before it and right after it."""
    return m.group(0).lower() == "and" and bool(re.search(r"\b[A-Z][\w&'’.-]*\s+$", text[:m.start()])) and bool(
        re.match(r"\s+[A-Z]", text[m.end():]))


def _of_what(text: str) -> str:
    """What a figure is of, told after it, up to what it is compared with, dated by (``_AFTER_END``) or caused by
    (a cue of the drivers kind: "6% increase in footwear revenues was led by Sportswear")."""
    cause = narrative().kind("drivers")
    cut = [m.start() for m in _AFTER_END.finditer(text) if not _joins_name(text, m)][:1]
    cut += [at for at in [_first_cue(cause, text) if cause else -1] if at >= 0]
    return text[:min(cut)] if cut else text


def _figure_of_another_measure(r: Reading) -> list[str]:
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
    summary, quotes, names = r.body, r.quotes, r.names
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
                # a name may own the whole sentence ("In Safety and Graphics, total sales increased 0.3 percent"), or
                # the figure's own noun after it ("$47 million of goodwill that was assigned to our Domestic unit")
                after = _of_what(m.group("what")) if (m := _AFTER_FIGURE.match(s[w.end:])) is not None else ""
                owners = said_stems([_RELATIVE_CLAUSE.sub(" ", s[:w.start]), after])
                of_it = said_stems([after])
                moved = [w for w in CONTENT_WORD.findall(sentence[:v.start] + " " + sentence[v.end:])
                         if word_stem(w) in (mine & stems) - theirs - of_it
                         and not (w[0].isupper() and word_stem(w) in owners)]
                if moved:
                    flag = (f"{v.raw.strip()}: [{src}] gives it for \u201c{phrase}\u201d, not "
                            f"\u201c{moved[0]}\u201d")
            if flag:
                out.append(flag)
    return out


_NEXT_WORDS = 3
"""Words after a figure that say what it is of, compared word for word (``_figure_swapped``)."""


def _figure_swapped(r: Reading) -> list[str]:
    """A quote sentence restated with another figure in its figure's place: "Amazon had a $10.0 billion secured
    revolving credit facility with a lender that is secured by certain seller receivables" restating "We have a
    $1.5 billion secured revolving credit facility with a lender that is secured by certain seller receivables"
    gives '$10.0 billion: [6] says “$1.5 billion”' (the question's "$10.0 billion" facility told as the one quoted).
    The summary's figure no quote sentence it restates states, and the quote's figure of its kind (an amount, a
    percent) followed by the same ``_NEXT_WORDS`` words, which the summary's sentence leaves out."""
    sentences = _quote_sentences(r.quotes)
    plain = plain_stems([*r.names, *(x.doc for x in r.quotes)])
    out: list[str] = []
    for sentence in split_sentences(CITATION.sub(" ", r.body)):
        if (found := _restated(sentence, sentences, plain)) is None:
            continue
        source, best, _ = found[1]
        mine = [v for v in quantities(sentence) if _figure(v)]
        theirs = [w for w in quantities(best) if _figure(w)]
        for v in mine:
            if any(same_number(v, w.value) or same_number(w, v.value) for w in theirs):
                continue
            after = _words_after(sentence, v.end, _NEXT_WORDS)
            swapped = [w for w in theirs if w.percent == v.percent and bool(w.currency) == bool(v.currency)
                       and after and _words_after(best, w.end, _NEXT_WORDS) == after
                       and not any(same_number(u, w.value) or same_number(w, u.value) for u in mine)]
            if swapped:
                out.append(f"{v.raw.strip()}: [{source}] says \u201c{swapped[0].raw.strip()}\u201d")
    return out


def _cause_no_quote_gives(r: Reading) -> list[str]:
    """A cause no quote gives as one: a drivers summary sentence whose words after its first cue ("due to ...")
    restate a quote sentence (``_holding``) that tells no change (no direction word) in a quote with no cue of the
    kind or cause-first verb: "Pharmaceutical sales grew 3.9% ... due to a prioritization of R&D investment within the
    Pharmaceutical segment ..." where [4] only says "the company completed a prioritization of its research and
    development (R&D) investment within the Pharmaceutical segment" gives 'no quote gives “a prioritization of R&D
    investment” as a cause: [4] only states it'. Every word is quoted; the relation is the model's. Question words,
    names and cue words are no sign of which sentence the cause restates."""
    summary, quotes, q, names = r.body, r.quotes, r.q, r.names
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
        out.append(flag)
    return out


CAUSE_SHOWN = 6
"""The words of a cause a flag names."""


@cache
def _cue_run(kind: NarrativeKind) -> re.Pattern[str]:
    """A kind's cue phrases in a row at a text's start ("primarily due to ")."""
    cues = "|".join(re.escape(c) for c in sorted(kind.cues, key=len, reverse=True))
    return re.compile(rf"^(?:\s*(?:{cues})\b[\s:,]*)+", re.I)


_LEGAL_STEMS = frozenset(word_stem(f) for f in LEGAL_FORMS)
"""The stems of legal forms ("Inc.", "AG"): no word of a line item's name."""


def _pointed_back_elsewhere(r: Reading) -> list[str]:
    """A summary sentence pointing back at the change its previous sentence tells ("Google Network revenues increased
    $1.1 billion from 2021 to 2022. The increase was due to an increase in revenues subject to TAC.") that restates
    a quote sentence on another item's change ("The increase in TAC from 2021 to 2022 was due to ..."): '[4] is about
    “TAC”'. The change is the previous sentence's item; the drivers the quote's, of none of its words. A quote
    sentence that itself points back ("The sequential increase was primarily due to stronger workstation demand")
    is about what the sentence before it in its passage names (``_referent``): restated under any question, it is
    flagged where that names a part (in capitals) neither the question nor the summary names ("Professional
    Visualization revenue" told after the remaining performance obligations asked); where its passage shows nothing
    before it and nothing in the summary before it or the question tells a change, what it points at is nowhere to
    check: '[9] does not say what “The sequential increase” is of'."""
    summary, quotes, q, names = r.body, r.quotes, r.q, r.names
    plain = plain_stems(names)
    sentences = _quote_sentences(quotes)
    parts = split_sentences(CITATION.sub(" ", summary))
    asked = _subject(q)[1] - plain
    drivers = _drivers_kind(q) is not None
    out: list[str] = []
    for k, sentence in enumerate(parts):
        if not (pointer := _anaphor().match(sentence)) or (found := _restated(sentence, sentences)) is None:
            continue
        source, best = found[1][0], found[1][1]
        if _anaphor().match(best):
            own = [x for x in quotes if x.source == source]
            referred = _referent(best, own, quotes, r.passages)
            named = (referred[1] or referred[0]) if referred else ""
            theirs_named = _capitalised(named, plain, first=True) if named else set()
            if theirs_named and not theirs_named & said_stems([q.text, summary]):
                out.append(f"[{source}] is about \u201c{named}\u201d")
            elif not named and not drivers and not q.changed and not any(_first_direction(t) for t in parts[:k]):
                # nothing before it, in the summary, the question or the quote's passage, says what moved
                out.append(f"[{source}] does not say what \u201c{pointer.group(0).strip()}\u201d is of")
            continue
        if not drivers:
            continue
        if (change := _CHANGE_IN.match(best)) is not None:
            theirs, named = _head(change["item"], plain), _item_name(change["item"]).strip()
        else:  # "NIKE, Inc. gross margin increased 90 basis points primarily due to ...": the words before it moved
            named = _mover(best)
            theirs = frozenset(said_stems([named]) - plain - _LEGAL_STEMS)
            if len(theirs) < 2:
                continue  # one word is no item's name ("Revenue", "It")
        if not theirs:
            continue
        # what the anaphor points back at: the previous sentence's change, or at the summary's start the item asked
        mine = (m[0] if (m := _change_of(parts[k - 1], plain)) else None) if k else (frozenset(asked) or None)
        if mine is None or theirs & mine:
            continue
        out.append(f"[{source}] is about \u201c{named}\u201d")
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


def _another_item_told(r: Reading) -> list[str]:
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
    summary, quotes, q, names = r.body, r.quotes, r.q, r.names
    kind = _drivers_kind(q)
    asked = q.told
    if kind is None or asked is None:
        return []
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


def _qualifier_changed(r: Reading) -> list[str]:
    """A measure's qualifier (``[narrative.summary] measure_qualifiers``: "adjusted", "core", "organic") added or
    dropped. Added: "Core operating earnings increased by $1,643 million" restating "Earnings from operations in 2018
    increased by $1,643 million ..." gives '[3] does not say “core”' (a qualifier in the sentence's subject, before
    its first direction word, that the quote sentence it is told from lacks). Dropped: "Pharmaceutical sales grew
    3.9%" where every quote sentence stating 3.9% gives it for "worldwide adjusted operational sales" gives '3.9%:
    [3] gives it for “adjusted operational”' (a qualifier in the clause before the quote's figure that the summary's
    sentence lacks and the question does not name: one the question names, the summary may leave to it)."""
    summary, quotes, q = r.body, r.quotes, r.q
    if (pattern := narrative().qualifier_pattern) is None:
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
    return out

"""Whether a narrative answer's summary says only what its quoted sentences say.

``check_summary`` (and ``unsupported`` beneath it) lists what a summary of the quotes (``narrative.summarise``)
claims that they do not: a number they do not state, a content word neither they nor the question contain, and the
relations every word of which is quoted but not the relation itself (a forecast told as a fact, one subject's
sentence told of another, a figure given to another name or line item, a cause dated after its change, a direction
the quotes disagree on). Each flag names what to check ("[5] is about “Cost of sales”"); a flagged summary is shown
below its quotes with its flags, never instead of them.

The relation checks live by the kind of relation they judge: ``periods`` (when a fact is told for), ``items`` (of
which line item, measure or driver), ``parts`` (whose: a part, an owner, a section, a party) and ``claims`` (how a
claim is told); ``reading`` holds ``Reading``, what they all read, and the sentence readers several of them share.
``CHECKS`` is their order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.ask.checks import CITATION, cited_numbers, refuses
from engine.ask.faithful.claims import (
    _affirmed,
    _answer_restates_subject,
    _cited_elsewhere,
    _compared_untrue,
    _denied,
    _direction_disputed,
    _direction_given_to_driver,
    _forecast_as_fact,
    _no_without_denial,
    _offset_swapped,
    _pairs_swapped,
    _source_given_as_answer,
    _words_of_other_quotes,
    _yes_against_denial,
)
from engine.ask.faithful.items import (
    _QUOTE_OPENING,
    OWNER_REACH,
    _another_item_told,
    _cause_no_quote_gives,
    _driver_of_another_item,
    _drivers_of_something_else,
    _figure_of_another_measure,
    _figure_swapped,
    _pointed_back_elsewhere,
    _pointed_back_to_another_matter,
    _qualifier_changed,
    _question_word_put_in,
    _restated_about_something_else,
)
from engine.ask.faithful.parts import (
    _another_matter,
    _another_part,
    _doer_swapped,
    _figures_of_others,
    _part_told_from_the_whole,
    _roles_crossed,
    _said_of_others,
    _told_of_each,
    _under_another_heading,
    _unquoted_subject,
    _whole_told_as_part,
    _whose_figure,
)
from engine.ask.faithful.periods import (
    _cause_after_change,
    _earlier_years_told,
    _for_other_years,
    _longer_period_told,
    _years_moved,
    _years_of_others,
)
from engine.ask.faithful.reading import _LACKS, _NEGATION, _YES, Reading, _asked_letters
from engine.ask.narrative import ALSO_NAMED
from engine.ask.question import NAME_WORD, Question
from engine.ask.subjects import (
    BROKEN,
    CONTENT_WORD,
    POSSESSOR,
    heading_part,
    name_letters,
    plain_stems,
    said_stems,
    same_stems,
    word_stem,
)
from engine.library.lexical import STOPWORDS
from engine.numbers import quantities
from engine.periods import PERIOD_NOUNS, years_named
from engine.sentences import defined_short_forms, spell_short_forms, split_sentences
from engine.types import Evidence, Quote
from engine.vocabulary import narrative


def check_summary(text: str, stated: str, quotes: Sequence[Quote], q: Question, used: Sequence[Evidence],
                  before: Mapping[int, str] | None = None) -> list[str]:
    """``unsupported`` of an answer's text less what the code ``stated`` before it, the documents' names, the
    company's aliases and the code's statement counting as supported ([] without quotes, and for a reply that
    declines). The text is the quotes' summary, or, where the model found no answer in the quotes alone, its answer
    from the whole evidence: shown beside the quotes, it is checked against them all the same (Pfizer's "three
    main companies acquired" named GlaxoSmithKline from the exhibit list beside a quote of Therachon's acquisition,
    unflagged). ``before``: the text of the chunk before each quote's (``Store.preceding``), read by ``_read_on``."""
    if not quotes or refuses(text):
        return []
    names = [*(e.doc for e in used), *(a for aliases in q.companies.values() for a in aliases)]
    passages = [_read_on(used[x.source - 1].text, x, before or {}) if 0 < x.source <= len(used) else ""
                for x in quotes]
    headings = [used[x.source - 1].headings if 0 < x.source <= len(used) else () for x in quotes]
    body = text.replace(stated, " ") if stated else text
    body = ALSO_NAMED.sub(" ", body)  # the code's own sentence of what a quote names
    priors = [(before or {}).get(x.chunk_id, "") for x in quotes]
    return [*_no_such_sources(body, len(used)), *unsupported(body, quotes, q, names, stated, passages, headings,
                                                             [e.text for e in used if e.modality == "text"], priors)]


def preceding(store: Any, quotes: Sequence[Quote]) -> Mapping[int, str] | None:
    """The text of the chunk before each quote's (``Store.preceding``), for ``check_summary``; None without a store."""
    return store.preceding([x.chunk_id for x in quotes]) if store is not None else None


def _read_on(passage: str, x: Quote, before: Mapping[int, str]) -> str:
    """A quote's passage, after the last ``OWNER_REACH`` sentences of the chunk before it where the quote opens it:
    what a quote points back at ("the effect of this change in estimate") is the filing's sentence before it,
    wherever a chunk happens to end ("we increased the estimated useful life of ..." closing the chunk before)."""
    prior = before.get(x.chunk_id, "")
    if not prior or " ".join(passage.split()).find(x.text[:_QUOTE_OPENING]) != 0:
        return passage
    return " ".join([*split_sentences(prior)[-OWNER_REACH:], passage])


def _no_such_sources(text: str, given: int) -> list[str]:
    """Citations of sources the model was not given ("Walmart is [2] [3] ... [82]" beside ten sources: a reply run
    into a list of numbers): one flag naming the first of them and how many there are."""
    cited = sorted({n for m in CITATION.finditer(text) for n in cited_numbers(m.group(0)) if not 0 < n <= given})
    if not cited:
        return []
    more = f" and {len(cited) - 1} more" if len(cited) > 1 else ""
    return [f"[{cited[0]}]{more} cited: no such source ({given} given)"]




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


_ATTRIBUTED = re.compile(r"(^|[.!?]\s+)\s*(?:(?:(?:the\s+)?(?:sources?|quotes?|quoted\s+sentences?|filing|text)\s+)?"
                         r"(?:indicates?|states?|shows?|says?|notes?|mentions?|explains?|reports?)\s+that"
                         r"|(?:the\s+)?(?:sources?|quotes?|quoted\s+sentences?|filing|text)\s+"
                         r"(?:indicates?|states?|shows?|says?|notes?|mentions?|explains?|reports?)"
                         r"|(?-i:indicates?|states?|shows?|says?|notes?|mentions?|explains?|reports?))\s+(\w)",
                         re.I)
"""A sentence that opens by saying a quote says what follows ("[3] indicates that the change in ... was driven by
..."; "[1] indicates the appeal was stayed ...": its citation is taken out first, leaving the verb in lower case):
what follows is the sentence's claim, subject first. "Notes payable increased" says nothing of a quote."""


def _claim(m: re.Match[str]) -> str:
    """``_ATTRIBUTED``'s claim, its first letter capitalised as a sentence's."""
    return m.group(1) + m.group(2).upper()


RESTATED_QUESTION_WORDS = 3
"""Content words a sentence made only of a question's words needs to be read as answering it in them (a shorter one
names what is asked: "Adobe's Digital Media segment")."""

Check = Callable[[Reading], list[str]]
"""A relation check: what one ``Reading`` says that its quotes do not say so, as flags a reader can check."""

CHECKS: tuple[Check, ...] = (
    _for_other_years,  # periods: a figure given for a year its quote sentences do not name
    _no_without_denial,  # claims: a No beside quotes that deny nothing
    _yes_against_denial,  # claims: a Yes beside a quote denying it in the question's words
    _forecast_as_fact,  # claims: what a quote foretells, told as done
    _drivers_of_something_else,  # items: a cited driver that says nothing of the item asked (reads the citations)
    _restated_about_something_else,  # items: a quote sentence told of another subject
    _question_word_put_in,  # items: a word of the question put into a quote's mouth
    _figures_of_others,  # parts: a figure the quotes give for another name or line item
    _pairs_swapped,  # claims: a "respectively" sentence's figures given to other names
    _compared_untrue,  # claims: two figures compared the wrong way ("$20 million ... higher than $20 million")
    _answer_restates_subject,  # claims: an answer in the question's verb that only repeats its subject
    _source_given_as_answer,  # claims: a source number where the answer should be ("its partner is [10]")
    _figure_of_another_measure,  # items: a figure the quotes give for another measure, or as a share not a change
    _figure_swapped,  # items: a quote sentence restated with another figure in its figure's place
    _cited_elsewhere,  # claims: a sentence citing other quotes than the one whose words it is (reads the citations)
    _words_of_other_quotes,  # claims: a cited quote lacking words only other quotes have (reads the citations)
    _said_of_others,  # parts: what a clause says of a name that the quotes say of another
    _told_of_each,  # parts: what the quotes say of some names of a list, told of the list
    _unquoted_subject,  # parts: a name asked about that no quote or its passage names
    _another_part,  # parts: another named part told instead of the one asked
    _under_another_heading,  # parts: a sentence from another part's section
    _whose_figure,  # parts: one of several parts' amounts for one item, told without saying whose
    _part_told_from_the_whole,  # parts: the part asked, told from a quote that does not name it
    _earlier_years_told,  # periods: an earlier year's paragraph told for the year asked
    _longer_period_told,  # periods: a year to date told as a quarter, or a quarter as the year to date
    _whole_told_as_part,  # parts: the whole company's section told as the part asked
    _qualifier_changed,  # items: a measure's qualifier ("adjusted", "core") added or dropped
    _years_moved,  # periods: a quote sentence restated with its years moved
    _years_of_others,  # periods: a name given a year no quote sentence naming it gives it
    _roles_crossed,  # parts: one role's parties told as the role asked ("suppliers" as "customers")
    _offset_swapped,  # claims: a driver told as an offset, or an offset as a driver
    _driver_of_another_item,  # items: a driver the quotes give another line item or part
    _cause_after_change,  # periods: a cause dated after the change it is given for
    _cause_no_quote_gives,  # items: a quoted statement told as a cause
    _pointed_back_elsewhere,  # items: "the increase" pointing back at one item, restating another's drivers
    _pointed_back_to_another_matter,  # items: "they" going on from one matter, restating "these charges" of another
    _another_item_told,  # items: the drivers of another line item than the one asked
    _direction_given_to_driver,  # claims: the change a quote gives an item, given to its driver
    _direction_disputed,  # claims: a direction another quote gives the other way
    _denied,  # claims: a quote's statement denied
    _affirmed,  # claims: what a quote denies, told without the denial
    _doer_swapped,  # parts: an act given to another party than the one the quotes give it
    _another_matter,  # parts: a sentence of another legal matter than the one the question names
)
"""The relation checks in the order they run, which is the order of their flags: after the numbers no quote states,
before the fiscal years and the content words no quote has (both read in ``unsupported``). Each takes the one
``Reading`` and returns its flags; a flag given before is not repeated: the registry drops it, the checks need not.
To add a check, write it as ``(r: Reading) -> list[str]`` in the module of the relation it judges and put it here."""


def unsupported(summary: str, quotes: Sequence[Quote], q: Question, names: Iterable[str] = (),
                stated: str = "", passages: Sequence[str] = (), headings: Sequence[Sequence[str]] = (),
                evidence: Sequence[str] = (), priors: Sequence[str] = ()) -> list[str]:
    """What the summary says that the quotes do not: each number the quotes do not state (as written), then each
    content word (a driver, a party, a product: not a stopword, not one of the vocabulary's generic summary words)
    that neither the quotes, the question, ``names`` (the documents' names, the company's aliases) nor what the
    code ``stated`` (a computed change the summary may repeat) contain. A fiscal year a fact is given for must be
    one the quotes or the code's statement name: a document's name ("BESTBUY_2023_10K") names the filing, not the
    year of what it reports. ``passages`` are the passages the quotes come from, in the quotes' order ('' where
    unknown), ``headings`` the section headings each is told under (``Evidence.headings``), ``evidence`` the text of
    every passage retrieved (where a heading's name is read as a part's: "EMEA revenues grew 17%"), ``priors`` the
    text of the chunk before each quote's ('' where unknown)."""
    if not summary.strip() or not quotes:
        return []
    # a short form of an asked name ("LatAm") is that name, in the quotes, their passages and the summary
    quotes = [replace(x, text=_spelled_out(x.text, q)) for x in quotes]
    passages = [_spelled_out(t, q) for t in passages]
    summary = _spelled_out(summary, q)
    # a short form the filing defines ("Our effective tax rate (“ETR”)") is its words, wherever it stands
    forms = defined_short_forms([*(x.text for x in quotes), *passages, *priors])
    if forms:
        quotes = [replace(x, text=spell_short_forms(x.text, forms)) for x in quotes]
        passages = [spell_short_forms(t, forms) for t in passages]
        summary = spell_short_forms(summary, forms)
    names = tuple(names)
    # a passage is told under the part its section heading names: the part counts as named before it
    parts = _heading_parts(quotes, names, list(dict.fromkeys([*passages, *evidence])), headings, q)
    r = Reading(summary=summary, body=_ATTRIBUTED.sub(_claim, BROKEN.sub("-", CITATION.sub(" ", summary))),
                quotes=tuple(quotes), q=q, names=names, stated=stated, passages=tuple(passages),
                headings=tuple(headings), parts=tuple(parts), headed=tuple(_headed_passages(passages, parts)),
                priors=tuple(priors))
    texts = [*(x.text for x in r.quotes), q.text, *r.names, stated]
    # a percent is supported by a percent (or the question's or the code's figure), not by a bare number of the same
    # digits: "a portion being 47" (a page number a sentence ran into) is no "47%"
    figures: set[float] = set()
    percents: set[float] = set()
    for t in texts:
        for v in quantities(t):
            said = {round(c, 6) for c in v.candidates()}
            figures |= said
            if v.percent or t in (q.text, stated):
                percents |= said
    out: list[str] = []
    for v in quantities(r.body):
        if not v.percent and not v.currency and v.scale == 1.0 and abs(v.value) < 10:
            continue  # "two acquisitions", "Item 5": a count or a number too small to be a figure ("$0" is one)
        if not {round(c, 6) for c in v.candidates()} & (percents if v.percent else figures):
            out.append(v.raw.strip())
    for check in CHECKS:
        for f in check(r):
            if f not in out:
                out.append(f)
    # a fiscal year a fact is given for must be the quotes' ("acquired in FY2021" where the quote says "In fiscal
    # 2022, we acquired"); the question's years count only in a sentence that says what the quotes lack
    years = {y for t in (*(x.text for x in r.quotes), stated) for y, _, _ in years_named(t)}
    for sentence in split_sentences(r.body):
        for y, fiscal, written in years_named(sentence):
            if fiscal and y not in years and not _NEGATION.search(sentence):
                out.append(written)
    quoted = said_stems(t for t in texts if t != q.text)
    # a word of a group the vocabulary says are the same is quoted where another of it is ("recover" for "recoup")
    same = same_stems()
    quoted |= {v for st in list(quoted) for v in same.get(st, ())}
    dated = said_stems([q.asked.text])  # the words of the period the question names ("April 1, 2023")
    known = quoted | said_stems([q.text])
    generic = narrative().generic
    # the yes/no parts' words: what a sentence affirming their answer in those words alone restates
    yes_parts = [said_stems([p.text]) for p in (q, *q.parts) if p.yes_no]
    wh_parts = [said_stems([p.text]) for p in (q, *q.parts) if not p.yes_no]
    quotes_deny = any(_NEGATION.search(x.text) for x in r.quotes)
    for sentence in split_sentences(r.body):
        if _LACKS.search(sentence):
            continue  # what the quotes lack ("The sources do not provide information about its timing")
        # a yes/no question's words do not support the Yes that repeats them ("Yes, it was able to retain card
        # members" where no quote says anything was retained), nor a sentence affirming a yes/no part in its words
        # alone ("The company follows a dividend policy" for "does the company follow a dividend policy?"; "AMD has
        # managed to get it dismissed" for "has AMD managed to get it dismissed?"): there only the quotes count
        words = {word_stem(w) for w in CONTENT_WORD.findall(sentence)
                 if w.lower() not in STOPWORDS and w.lower() not in generic}
        # nor its No in those words where no quote denies anything ("Best Buy did not record any goodwill impairment
        # for Best Buy Health in fiscal 2023" for "did it record any ...?" beside quotes that deny nothing)
        answered = (bool(words) and any(words <= part for part in yes_parts)
                    and not (quotes_deny and _NEGATION.search(sentence)))
        # and a sentence answering a wh-part in its words alone ("Pfizer controls the consumer healthcare joint
        # venture formed with GSK in 2019" for "Who controls the consumer healthcare joint venture Pfizer formed with
        # GSK in 2019?"): its claim is the question's, which only the quotes can support
        answered = answered or (len(words) >= RESTATED_QUESTION_WORDS and any(words <= part for part in wh_parts))
        # (the period the question names is framing there too: "..., according to its 10-Q for the quarter ended
        # April 1, 2023")
        own = quoted | dated if (q.yes_no and _YES.match(sentence)) or answered else known
        for w in CONTENT_WORD.findall(sentence):
            low = w.lower().strip("'’-")
            if low in STOPWORDS or low in generic or low in PERIOD_NOUNS or word_stem(w) in own:
                continue  # a period's framing words ("the quarter ended") claim nothing; its dates are read apart
            if w not in out:
                out.append(w)
    return out

"""Narrative answers an analyst can check: the filing's own sentences first, then a summary made only from them.

A question whose answer is prose (``Question.narrative`` names the kind asked: drivers, parties, events, legal,
description) gets the 1-4 sentences of its top passages that answer it (``find_quotes``), ranked by the embedder,
the lexical overlap with the question and the cue words of the kind asked (``[narrative.KIND].cues`` in the
vocabulary). They are shown at once, each with document and page. The model then writes at most two sentences
from those quotes alone (``prompt.summary_messages``), and ``faithful.check_summary`` lists what the summary says
that the quotes do not. The words the two compare by (``word_stem``, ``said_stems``) are ``subjects``'.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from functools import cache

import numpy as np

from engine.ask.checks import CITATION, refuses
from engine.ask.decisions import Decision
from engine.ask.prompt import revision_messages, summary_messages
from engine.ask.question import BELIEF_VERBS, CONNECTIVES, CUE_PREFIX, Question, points_back, without_self_reference
from engine.ask.routing import LEGAL_FORMS
from engine.ask.statements import stems
from engine.ask.subjects import (
    CONTENT_WORD,
    asked_parts,
    heading_part,
    name_letters,
    plain_stems,
    said_stems,
    word_stem,
)
from engine.library.lexical import STOPWORDS
from engine.models.protocols import LLM, Embedder, Generation
from engine.numbers import quantities, same_number
from engine.periods import PERIOD_WORDS, RELATIVE_WORDS, months_named
from engine.sentences import defined_short_forms, spell_short_forms, with_lists
from engine.types import CONTINUED, SENTENCE, Citation, Evidence, Quote, Region
from engine.vocabulary import NarrativeKind, change_words, narrative, vocabulary

PASSAGES = 8
"""The top passages (text, in the evidence order) whose sentences are ranked."""
EMBEDDED = 24
"""The sentences, best by the lexical and cue scores, that the embedder reads (it is the slow step: each sentence
is one more pass of the embedder on a shared CPU)."""
MAX_QUOTES = 4
"""At most this many sentences are quoted."""
SUBJECT_CHARS = 60
"""A sentence is about what it names in its first this many characters ("Entertainment: The 9.0% comparable sales
growth ...", "AWS sales increased 12% ...")."""
MARGIN = 0.2
"""A sentence is quoted when its score is within this much of the best one's (the best is always quoted)."""
LEXICAL_WEIGHT = 0.5
"""The share of the question's words a sentence holds, weighted against the embedder's cosine (0-1)."""
CUE_WEIGHT = 0.08
"""Per cue phrase of the kind asked that a sentence carries (at most ``MAX_CUES`` count)."""
MAX_CUES = 2
ALIKE_WEIGHT = 0.2
"""Per phrase (at most ``MAX_CUES``) of the kind's ``alike`` group the question asks in ("how was the lawsuit
resolved": "in favor of", "affirmed"): what the question asks of the kind, weighed as its own words."""
NAME_WEIGHT = 0.15
"""Added to a sentence that names a party (``_names``) for a kind whose answer is names (the parties kind: who was
acquired, who the customers are): "we acquired Souq Group Ltd. ... and Whole Foods Market" answers "What did
Amazon acquire?", "the primary reason for our other acquisitions was to acquire technologies" does not."""
AGAINST = 0.3
"""Taken off a sentence that carries a phrase the kind asked lists ``against`` (a risk factor's "we may acquire"
under a question about the acquisitions made)."""
ELSEWHERE = 0.3
"""Taken off a sentence that sends the reader elsewhere (``Narrative.elsewhere``): a cross-reference or a table's
lead-in says where the answer is, not what it is."""
_FOOTNOTE = re.compile(r"\W*_{3,}|\W*\((?:\d{1,2}|[a-z]{1,2})\)\s+(?:Represents|Reflects|Includes|Excludes|Relates|"
                       r"Amounts?|Consists|Calculated|Based|Primarily)\b")
"""A table's footnote read as text: "___________________ (1) Represents the change ...", "(2) Represents the
outcome ...", "(h) Primarily includes payments ..."."""
DEFINES = 0.5
"""Added to a sentence that defines a name the question asks by ("... consideration of $638 million for renovations
... (the “Park MGM Lease Transaction”)" for "What is the Park MGM Lease Transaction?"): a filing says what a term is
where it defines it."""
BELIEF_WEIGHT = 0.3
"""Added to a sentence stating what the company believes or expects ("we expect to recoup taxes paid") for a yes/no
asking whether it does (``Question.asks_belief``): that statement is the answer."""
_STATES_BELIEF = re.compile(rf"\b(?:we|the\s+company|management)\s+(?:\w+\s+)?(?:{'|'.join(BELIEF_VERBS)})s?\b",
                            re.I)
"""A filer saying what it believes or expects ("we expect to recoup", "The Company believes its balances ...")."""
OTHER_YEAR = 0.1
"""Taken off a sentence that names years, none of them one the question asks ("In 2021, ..." for a question about
2022): a filing's discussion sets each year's drivers side by side; and off one dated to other months than those a
question dated to a month names ("In October 2022, the case was transferred" for what the court ruled in September
2022): a legal note tells each month's step side by side."""
QUALIFIED = 0.1
"""Taken off a sentence that qualifies a measure ("non-GAAP", "adjusted", "organic": ``measure_qualifiers``) where
the question asks a measure without that qualifier: "Our non-GAAP effective tax rate increased ..." is another
rate's sentence than "Our ETR increased to 24.8% ..." for "How did the effective tax rate change?"."""
PARTY = 0.3
"""Added to a sentence naming the party the question names (by the short name its filing defines for it, "LTA",
or the word telling it from others of its kind, "Luxembourg"), and taken off one naming only another party of that
kind ("ITA" for the Indian tax authority): two tax authorities' matters are told in the same words ("we will need
to remit taxes", "we expect to recoup taxes paid") and only the party tells them apart (``_parties``)."""
OTHER_PART = 0.3
"""Taken off a sentence told under another part's section heading (``subjects.heading_part``: the "Sam's Club
Segment" section) that names no part the question asks about, where it asks about one ("What drove Walmart U.S.
gross profit rate?"): a filing tells each segment's drivers in a section of its own, in sentences that name no
segment ("Gross profit rate decreased 0.3 percentage points ... due to reduced tobacco sales")."""
SAME = 0.8
"""A sentence sharing more than this share of its words with one already quoted repeats it: not quoted again."""
YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
MIN_CHARS, MAX_CHARS = 30, 700
"""A shorter piece is a heading or a fragment; a longer one a run of text with no sentence end (a table read as
text): neither is quoted."""
MIN_WORD_SHARE = 0.55
"""A sentence whose tokens are less than this share words (the rest numbers) is a table row read as text."""
_WORDS = re.compile(r"[A-Za-z][A-Za-z&'’-]*|\d[\d,.]*%?")


DATED_MAY = re.compile(r"\bmay(?=\s+\d)")
"""The month in a date ("On May 12, 2017, we acquired Souq"), not the verb of what may happen."""


def _against(kind: NarrativeKind, low: str) -> bool:
    low = DATED_MAY.sub(" ", low)
    return any(re.search(rf"(?<![a-z]){re.escape(c)}(?![a-z])", low) for c in kind.against)


def _cues_in(kind: NarrativeKind | None, low: str) -> list[str]:
    """The cue phrases of ``kind`` a lower-cased sentence carries."""
    return [] if kind is None else [c for c in kind.cues if re.search(rf"(?<![a-z]){re.escape(c)}", low)]


def _cues(kind: NarrativeKind | None, low: str) -> int:
    return len(_cues_in(kind, low))


@cache
def _points_back_at_change() -> re.Pattern[str]:
    """A sentence whose subject is a change's noun pointing back at the change told before it ("The sales growth
    primarily reflects increased customer usage", "This decrease was driven by ...": the vocabulary's ``[directions]
    nouns`` after "the", "this", "these", "that" or "such" and at most two words); not one naming what changed after the
    noun ("The increase in International operating loss ... is primarily due to ...")."""
    nouns = change_words().nouns.pattern.removeprefix(r"\b").removesuffix(r"\b")
    return re.compile(rf"^(?:the|this|these|that|such)\s+(?:[\w-]+\s+){{0,2}}?{nouns}\b"
                      r"(?!\s+(?:in|of|on|for|from|at)\b)", re.I)


def candidates(used: Sequence[Evidence], regions: dict[int, Region], back: bool = False) -> list[tuple[int, str]]:
    """(evidence index, sentence) of the top ``PASSAGES`` text passages (a table's description is no quote) and of
    the passages carrying one on (``CONTINUED``) or found by a sentence (``SENTENCE``), each sentence once. With
    ``back``, a sentence pointing back at the change told before it (``_points_back_at_change``: "AWS sales increased
    27% in Q3 2022. The sales growth primarily reflects increased customer usage") is one with that sentence: alone
    it says why of nothing it names."""
    out: list[tuple[int, str]] = []
    seen: set[str] = set()
    passages = [i for i, e in enumerate(used)
                if not (e.region_id in regions and regions[e.region_id].table) and e.modality != "image"][:PASSAGES]
    passages += [i for i, e in enumerate(used) if e.channel in (CONTINUED, SENTENCE) and i not in passages]
    for i in passages:
        sentences = with_lists(used[i].text, MAX_CHARS)
        if back:
            sentences = [f"{sentences[k - 1]} {s}" if k and _points_back_at_change().match(s)
                         and len(sentences[k - 1]) + len(s) < MAX_CHARS else s for k, s in enumerate(sentences)]
        for s in sentences:
            key = " ".join(s.lower().split())
            if key in seen or not MIN_CHARS <= len(s) <= MAX_CHARS or "|" in s:
                continue  # "|": a page's running header or footer ("Apple Inc. | Q3 2023 Form 10-Q | 12"), a row
            tokens = _WORDS.findall(s)
            if len(tokens) < 5 or sum(1 for t in tokens if t[0].isalpha()) < MIN_WORD_SHARE * len(tokens):
                continue
            seen.add(key)
            out.append((i, s))
    return out


def shown_quotes(q: Question, used: Sequence[Evidence], regions: dict[int, Region], embedder: Embedder, *,
                 decided: bool, stated: bool, refused: bool = False, about: str = "") -> list[Quote]:
    """The sentences an answer quotes before the model speaks: none where the code decided it (a verdict, a
    computation: that is the answer) or found it unanswerable as asked (``refused``: "the metric does not suit this
    company"), unless a part of it asks in words what the decided part does not ("How did the effective tax rate
    change from 2021 to 2022, and what explains the move?": the code computes the change, the filing's sentences
    tell why); a narrative question's (or part's) quotes (``find_quotes``), which the model's summary is made from;
    and for any other question that no cell answers (nothing ``stated``), the sentences of its passages nearest it
    (``nearest_sentences``), shown so that the model's answer, made from the whole evidence, can be checked against
    the filing's words ("By how much did it increase its revolving credit facility?" beside "... increased the
    facility from $X to $Y"). ``about``: what the decided part picked ("Which platform grew fastest, and what drove
    it?": Data Center), which the part told in words asks about."""
    asked = q.told
    if decided and not refused and asked is None and about and q.ranking is not None and (
            q.ranking.by_change or q.ranking.turned or q.why):
        return why_picked(q, about, used, regions, embedder)
    if refused or (decided and (asked is None or asked is q)):
        return []
    if every_part(q, decided=decided, stated=stated):
        return find_quotes(q, used, regions, embedder, every=True)
    if asked is not None and about and asked is not q:
        # "..., and what was behind it?" of the category ranked first: its own sentence saying why, before one that
        # names it as what offset another's fall
        if asked.narrative == "drivers" and (picked := why_picked(q, about, used, regions, embedder)):
            return picked
        asked = also_about(asked, about, stems(about))
    if asked is not None:
        return find_quotes(asked, used, regions, embedder)
    return [] if stated else nearest_sentences(q, used, regions, embedder)


def why_of(q: Question, part: str) -> Question:
    """``q`` asked as the drivers of the ``part`` it picked (``why_picked``; a search for the filing's sentences on
    it where the passages its figures came from hold none)."""
    return replace(also_about(q, part, stems(part)), narrative="drivers")


def why_picked(q: Question, part: str, used: Sequence[Evidence], regions: dict[int, Region],
               embedder: Embedder, most: int = 2) -> list[Quote]:
    """The filing's sentences on what drove the change of the ``part`` a ranking picked ("Entertainment: The 9.0%
    comparable sales growth was driven primarily by gaming, partially offset by ..."), asked as the drivers of that
    part's change: at most ``most``, each about the part (named in its first ``SUBJECT_CHARS``, or in the sentence
    before one pointing back at its change: ``candidates``' ``back``) and saying why (a driver cue); [] when none
    does. An analyst told which category grew most reads next why it did, in the filing's words; a sentence naming
    the part as what offset another's fall is about the other."""
    return [x for x in _quotes(why_of(q, part), used, regions, embedder, MAX_QUOTES, back=True)
            if _says_why_of(part, x.text)][:most]


def _says_why_of(part: str, sentence: str) -> bool:
    """Whether a sentence says why ``part`` moved: it names the part in its first ``SUBJECT_CHARS`` and carries a
    driver cue."""
    named = re.search(rf"(?<![\w&]){re.escape(part)}(?![\w&])", sentence[:SUBJECT_CHARS], re.I)
    return named is not None and bool(_cues(narrative().kind("drivers"), sentence.lower()))


def why_unquoted(q: Question, about: str, quotes: Sequence[Quote]) -> Question | None:
    """The question to search the filing with once more for why the part an answer picked (``about``) moved, when
    it asks why (``Question.why``, a part asking drivers) or ranks a change, and no quote shown says why of that part:
    the passages its figures came from are tables and the lines around them, while the filing tells each segment's
    drivers pages away, in its discussion ("Gaming revenue was down 51% from a year ago ..., reflecting lower
    sell-in to partners"). None otherwise."""
    if not about or q.ranking is None or any(_says_why_of(about, x.text) for x in quotes):
        return None
    told = q.told
    asks = q.why or q.ranking.by_change or q.ranking.turned or (told is not None and told.narrative == "drivers")
    return why_of(q, about) if asks else None


def why_found(q: Question, about: str, used: list[Evidence], found: Sequence[Evidence], regions: dict[int, Region],
              embedder: Embedder) -> list[Quote]:
    """``why_picked`` over the evidence of the search ``why_unquoted`` asked for; a passage quoted that ``used`` lacks
    is added to it (in place, at its end: the cited numbers of the rest stay), and each quote numbered as ``used``
    cites it."""
    out: list[Quote] = []
    for x in why_picked(q, about, found, regions, embedder):
        at = next((k for k, e in enumerate(used) if e.chunk_id == x.chunk_id and e.doc_id == x.doc_id), None)
        if at is None:
            used.append(found[x.source - 1])
            at = len(used) - 1
        out.append(replace(x, source=at + 1))
    return out


def nearest_sentences(q: Question, used: Sequence[Evidence], regions: dict[int, Region], embedder: Embedder,
                      most: int = MAX_QUOTES) -> list[Quote]:
    """The 1-``most`` sentences of the top passages nearest a question that asks no narrative kind, best first:
    ranked as quotes are, with no kind's cue words ([] for passages without a sentence)."""
    return _quotes(q, used, regions, embedder, most, any_kind=True)


def every_part(q: Question, *, decided: bool, stated: bool) -> bool:
    """Whether an answer's quotes answer each part of the question, not only the one told in words: a question of
    several parts, one told in words, where the code states no cell and decides nothing ("How concentrated were its
    trade receivables, and does it ask its customers for collateral?": the share of receivables is running text,
    which no table holds). Its summary is asked the whole question (``summarise``'s ``whole``); quoted for the words
    part alone, it answered only that part."""
    return q.told is not None and q.told is not q and not decided and not stated


def find_quotes(q: Question, used: Sequence[Evidence], regions: dict[int, Region], embedder: Embedder,
                most: int = MAX_QUOTES, skip: Sequence[Quote] = (), every: bool = False) -> list[Quote]:
    """The 1-``MAX_QUOTES`` sentences of the top passages that answer a narrative question, best first ([] for a
    question that is not narrative or passages without a sentence). A question of several narrative parts ("What
    drove the decline, and who are the largest customers?") gets each part's quotes in turn, best first, so a part
    whose passages hold no answer leaves the others theirs; with ``every`` (``every_part``), each of its parts does,
    a part asking a figure getting the sentences nearest it (``nearest_sentences``). A sentence repeating one of
    ``skip`` (quoted already from another filing) is not ranked."""
    # a part pointing back ("..., and why were they taken?") is about what the part before it names: its sentences
    # are ranked against both
    parts = list(q.parts)
    for k in range(1, len(parts)):
        if points_back(parts[k]):
            before = q.parts[k - 1]
            parts[k] = also_about(parts[k], before.first or before.text, before.stems)
    narrated = parts if every else [p for p in parts if p.narrative]
    if len(narrated) > 1:
        parties = _parties(q, used)  # the party the whole question names, which a later part points back at
        found = [_quotes(p, used, regions, embedder, most, skip, any_kind=every, parties=parties) for p in narrated]
        out: list[Quote] = []
        for rank in range(most):
            for quotes in found:
                if rank < len(quotes) and len(out) < most and quotes[rank].text not in {x.text for x in out}:
                    out.append(quotes[rank])
        return out
    return _quotes(q, used, regions, embedder, most, skip)


def also_about(q: Question, words: str, more: Iterable[str]) -> Question:
    """``q`` with ``words`` after its text in parentheses and ``more`` stems: what its sentences are ranked against
    when it names its subject elsewhere ("Which platform grew fastest, and what drove it? (Data Center)"; a part
    pointing back, "why were they taken? (How large were Boeing's 2018 reach-forward losses ...)")."""
    return replace(q, text=f"{q.text} ({words})", first=f"{q.first or q.text} ({words})",
                   stems=frozenset(q.stems | set(more)))


def quotes_each(q: Question, groups: Sequence[tuple[Sequence[Evidence], dict[int, Region]]], embedder: Embedder,
                most: int) -> list[list[Quote]]:
    """``find_quotes`` of each group of evidence on its own (one filing's retrieval and regions, in the order
    given), at most ``most`` each, none repeating a sentence an earlier group's quotes hold (a 10-Q repeats its
    predecessor's legal proceedings word for word: the first group given, the newest filing, quotes it). A quote's
    ``source`` numbers its own group's evidence. [] each for a question that asks no narrative kind."""
    asked = q.told
    out: list[list[Quote]] = []
    taken: list[Quote] = []
    for used, regions in groups:
        mine: list[Quote] = []
        if asked is not None:
            mine = find_quotes(asked, used, regions, embedder, most, taken)
            taken += mine
        out.append(mine)
    return out


def _query(q: Question) -> str:
    """What the sentences are embedded against: the asking sentence (for a description of the filer, the filer
    written as a filing writes itself: "What does BMW Finance N.V. actually do?" -> "What does the Company actually
    do?", its own sentences saying "the Company" and its full name standing in those that say who owns it), with
    the line items (or the ratio) it asks about when it does not write them out (a later part: "If so, what are the
    key drivers for this change?")."""
    text = q.first or q.text
    text = without_self_reference(text, q)
    text = _as_the_company(text, q) if q.narrative == "description" else text
    missing = [m.name for m in q.measures if not any(n and n in text.lower() for n in m.names)]
    missing += [q.ratio[0]] if q.ratio is not None and q.ratio[0] not in text.lower() else []
    return f"{text} ({', '.join(missing)})" if missing else text


def _as_the_company(text: str, q: Question) -> str:
    """``text`` with the longest name of a filer the question names (with its legal form) as "the Company"."""
    name = max((a for aliases in q.companies.values() for a in aliases), key=len, default="")
    if not name:
        return text
    return re.sub(rf"\b{re.escape(name)}{_FORMS}(?P<s>['’]s)?", lambda m: "the Company" + (m.group("s") or ""),
                  text, count=1, flags=re.I)


_FORMS = r"(?:\s*,?\s+(?:" + "|".join(r"\.?".join(map(re.escape, f)) for f in sorted(
    LEGAL_FORMS - {"the", "&", "and", "group", "holding", "holdings"}, key=len, reverse=True)) + r")\b\.?)*"
"""The legal forms after a registered name ("N.V.", ", Inc.", "Corp"), dotted or not."""


def _repeats(sentence: str, quotes: Sequence[Quote]) -> bool:
    """Whether a sentence shares more than ``SAME`` of its words with a quote already taken, or one holds the other
    (a list's item and the lead-in quoted with its items)."""
    words = set(sentence.lower().split())
    low = " ".join(sentence.lower().split())
    return any(len(words & (w := set(x.text.lower().split()))) > SAME * max(len(words), len(w))
               or low in (other := " ".join(x.text.lower().split())) or other in low for x in quotes)


def _under_other_parts(q: Question, used: Sequence[Evidence]) -> tuple[set[int], set[str]] | None:
    """The evidence told under another part's section than the one the question asks about (indexes into ``used``),
    and the asked part's name letters; None where it asks about no part (``subjects.asked_parts``) or no passage's
    headings name another."""
    names = [*(e.doc for e in used), *(a for aliases in q.companies.values() for a in aliases)]
    plain = plain_stems(names)
    own = {w for n in names for w in name_letters(n)}
    asked = {w for p in asked_parts(q, plain, names) for w in name_letters(p)} - own
    if not asked:
        return None
    texts = [e.text for e in used]
    others = {i for i, e in enumerate(used) if e.headings
              and (keys := name_letters(heading_part(e.headings, plain, texts)) - own) and not keys & asked}
    return (others, asked) if others else None


_SHORT_NAME = re.compile(r"((?:[\w.&’'$-]+\s+){0,4}[\w.&’'$-]+)\s*\(\s*(?:the\s+)?[“\"]"
                         r"([A-Z][\w&.’'-]*(?:\s+[A-Z][\w&.’'-]*){0,3})[”\"]\s*\)")
"""A short name in capitals a filing defines right after what it names: a party's ("the Luxembourg tax authority
(“LTA”)", "the French Tax Authority (the “FTA”)") or an agreement's ("a $10.0 billion unsecured revolving credit
facility with a syndicate of lenders (the “Credit Agreement”)"); the name is the words before it."""
ACRONYM = re.compile(r"\b[A-Z]{2,6}\b")
"""Initials in capitals, two to six letters ("LTA", "FTA"): a party's short name."""
_DISTINCT = re.compile(r"\b[A-Z][a-z]+\b")
"""The word of a party's name that tells it from others of its kind ("Luxembourg" of "the Luxembourg tax
authority"): a word in capitals with lower case after."""


def _parties(q: Question, used: Sequence[Evidence]) -> tuple[list[str], list[str]]:
    """The ways the passages name the party or agreement the question names, and the ways they name others of its
    kind. A short name a passage defines is asked where the question writes it (“Credit Agreement”) or, for a
    party's initials, names the word telling the party from its kind ("Luxembourg" of "the Luxembourg tax authority
    (“LTA”)"); another defined one is of its kind where their words share one ("the Indian tax authority (“ITA”)";
    "the Swedish Tax Agency (the “STA”)" beside "the French Tax Authority (the “FTA”)"; the “Credit Facility” beside
    the “Credit Agreement”). Each is named by its short name, a party's also by its telling word. ([], []) where the
    question names none so defined."""
    capitalised = set(_DISTINCT.findall(q.text))
    defined: dict[str, tuple[str, frozenset[str]]] = {}  # short name -> (telling word or '', words of its kind)
    for e in used:
        for m in _SHORT_NAME.finditer(e.text):
            name, short = m.group(1), m.group(2)
            if not ACRONYM.fullmatch(short):  # an agreement's or program's: its own words say its kind
                defined.setdefault(short, ("", frozenset(w.lower() for w in short.split()) - STOPWORDS))
            elif tells := [w for w in _DISTINCT.findall(name) if w.lower() not in STOPWORDS]:
                words = frozenset(w.lower() for w in name.split()[-3:]) - STOPWORDS - {tells[-1].lower()}
                defined.setdefault(short, (tells[-1], words))
    asked = {short: v for short, v in defined.items()
             if _names_any(q.text, [short]) or v[0] and v[0] in capitalised}
    if not asked:
        return [], []
    kind = frozenset().union(*(k for _, k in asked.values()))
    others = {short: v for short, v in defined.items()
              if short not in asked and not (v[0] and v[0] in capitalised) and kind & v[1]}
    return ([x for short, (tell, _) in asked.items() for x in (short, tell) if x],
            [x for short, (tell, _) in others.items() for x in (short, tell) if x])


def _names_any(sentence: str, names: Sequence[str]) -> bool:
    """Whether a sentence names any of ``names`` as a whole word ("LTA’s" names "LTA")."""
    return any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", sentence) for n in names)


def _quotes(q: Question, used: Sequence[Evidence], regions: dict[int, Region], embedder: Embedder,
            most: int = MAX_QUOTES, skip: Sequence[Quote] = (), any_kind: bool = False,
            parties: tuple[list[str], list[str]] | None = None, back: bool = False) -> list[Quote]:
    """``find_quotes`` of one question (or one part of one); with ``any_kind`` also of one that asks no narrative
    kind (``nearest_sentences``); ``parties``: the whole question's (``_parties``), for a part; ``back``: as
    ``candidates``'."""
    if not q.narrative and not any_kind:
        return []
    found = candidates(used, regions, back)
    if not found:
        return []
    kind = narrative().kind(q.narrative) if q.narrative else None
    elsewhere = narrative().elsewhere
    want, telling = q.stems, telling_stems(q)
    written = stems(q.text)  # its names too ("the Park MGM Lease Transaction")
    costs = _costs(q)
    # what the question asks of the kind in words that some sentences say ("resolved": "in favor of", "affirmed"),
    # those the kind's own cues do not already weigh ("acquisition" beside "acquired"), and no short word that a name
    # holds ("buy" in "Best Buy")
    alike = replace(kind, cues=tuple(x for g in q.alike_groups(kind) for x in g if len(x) >= CUE_PREFIX and not any(
        c[:CUE_PREFIX] == x[:CUE_PREFIX] for c in kind.cues))) if kind is not None else None
    # a list's items are what its lead-in says they are: those of a lead-in against the kind ("These transactions
    # involve risks such as: • ...") are against it too, quoted alone or with it
    ruled = {item for _, s in found if " • " in s and kind is not None and _against(kind, s.split(" • ")[0].lower())
             for item in s.split(" • ")[1:]}
    # a short form the passages define ("Our effective tax rate (“ETR”)") says its words where it is used alone ("Our
    # ETR increased to 24.8% in the first six months")
    forms = defined_short_forms(e.text for e in used)
    first: list[tuple[float, int, str]] = []
    for order, (_, s) in enumerate(found):
        head = s.split(" • ")[0].lower()  # a list's lead-in says what the list is about, not its items
        spelled = spell_short_forms(s, forms) if forms else s
        own = stems(spelled) | next((named for labels, named in costs if any(x in head for x in labels)), frozenset())
        lexical = len(telling & own) / len(want) if want else 0.0
        cue = min(MAX_CUES, _cues(kind, s.lower()))
        asked_too = min(MAX_CUES, _cues(alike, s.lower()))
        off = AGAINST if kind is not None and (_against(kind, s.lower()) or s in ruled) else 0.0
        off += ELSEWHERE if _FOOTNOTE.match(s) or any(x in s.lower() for x in elsewhere) else 0.0
        party = NAME_WEIGHT if kind is not None and kind.not_names and _names(kind, s) else 0.0
        defines = DEFINES if any((term := stems(m.group(1))) and term <= written and not _party_named(s[:m.start()])
                                 for m in _TERM.finditer(s)) else 0.0
        believed = BELIEF_WEIGHT if q.asks_belief and _STATES_BELIEF.search(s) else 0.0
        first.append((LEXICAL_WEIGHT * lexical + CUE_WEIGHT * cue + ALIKE_WEIGHT * asked_too + party + defines
                      + believed - off, order, s))
    asked_party, other_parties = parties if parties is not None else _parties(q, used)
    if asked_party:  # "the LTA" for the Luxembourg tax authority asked; "the ITA" is another authority's matter
        first = [(score + PARTY if _names_any(s, asked_party) else score - PARTY if _names_any(s, other_parties)
                  else score, order, s) for score, order, s in first]
    if others := _under_other_parts(q, used):
        first = [(score - OTHER_PART if found[order][0] in others[0] and not others[1] & name_letters(s) else score,
                  order, s) for score, order, s in first]
    asked = {y for y in (*q.asked.years, q.asked.fiscal_year) if y}
    if asked:
        first = [(score - OTHER_YEAR if (named := {int(y) for y in YEAR.findall(s)}) and not named & asked else score,
                  order, s) for score, order, s in first]
    if q.measures or q.ratio is not None:  # "non-GAAP effective tax rate" for the effective tax rate asked plainly
        plain = narrative().qualifiers_in(q.text)
        first = [(score - QUALIFIED if narrative().qualifiers_in(s) - plain else score, order, s)
                 for score, order, s in first]
    if months := months_named(q.text):  # "what did the court rule in September 2022?": not October 2022's transfer
        first = [(score - OTHER_YEAR if (dated := months_named(s)) and not dated & months else score, order, s)
                 for score, order, s in first]
    first.sort(key=lambda t: (-t[0], t[1]))
    first = first[:EMBEDDED]
    vecs = np.asarray(embedder.embed([_query(q), *(s for _, _, s in first)]), dtype=np.float32)
    dense = vecs[1:] @ vecs[0]
    scored = [(float(cos) + score, found[order][0], s) for (score, order, s), cos in zip(first, dense, strict=True)]
    scored.sort(key=lambda t: -t[0])
    scored = [t for t in scored if not _repeats(t[2], skip)]
    if not scored:
        return []
    best = scored[0][0]
    quotes: list[Quote] = []
    for score, i, s in scored:
        if len(quotes) == most:
            break
        # an answer of names is a list: a sentence naming a party the kind's way ("we acquired Array, ...") is one
        # of its items however far behind the best (whose heading may share the question's words), not a weaker match
        if (score < best - MARGIN and not (kind is not None and kind.not_names and _names(kind, s)
                                           and _cues(kind, s.lower()) and not _against(kind, s.lower()))):
            continue
        if _repeats(s, quotes):
            continue
        quotes.append(_quote(used, i, s, score))
    # a yes/no question's passages that say, in the filing's words, that nothing of it happened answer it No: the
    # one sharing most of its subject leads, wherever it ranked ("management believes that the final outcome ...
    # will not have a material adverse effect" ranks below the sentence listing the litigation the filer is party to)
    if q.yes_no and q.narrative:
        absent = absence_scorer(q)
        said = max(((n, -order, i, s) for order, (i, s) in enumerate(found)
                    if (n := absent(s)) and not _repeats(s, skip)), default=None)
        if said is not None and said[0] > max((absent(x.text) for x in quotes), default=0):
            quotes = [_quote(used, said[2], said[3], best), *(x for x in quotes if x.text != said[3])][:most]
    return quotes


def _costs(q: Question) -> list[tuple[tuple[str, ...], frozenset[str]]]:
    """(labels of an item subtracted to make an asked measure, the stems the question names that measure with):
    a filing tells why a margin moved through the costs that make it ("Cost of products sold increased as a percent
    to sales driven by: ..." answers what drove gross margin), so a sentence naming one names the measure."""
    out = []
    for m in q.measures:
        if m.item is None or "-" not in m.item.derived:
            continue
        named = q.stems & stems(" ".join(m.names))
        for term in m.item.derived.split("-")[1:]:
            item = vocabulary().items.get(term.strip())
            if item is not None and named:
                out.append((tuple(x.lower() for x in item.labels), named))
    return out


def _quote(used: Sequence[Evidence], i: int, sentence: str, score: float) -> Quote:
    e = used[i]
    return Quote(text=sentence, doc=e.doc, doc_id=e.doc_id, page=e.page, source=i + 1, chunk_id=e.chunk_id,
                 region_id=e.region_id, bbox=e.bbox, score=score)


ABSENCE = "absence"
"""The kind of the No a quote decides (``absence``): the one decision a summary of the quotes is told."""


def absence(q: Question, quotes: Sequence[Quote]) -> Decision | None:
    """No, decided by the filing's own words, for a yes/no question whose quotes include a sentence saying that
    nothing (material) of its subject happened (``absence_scorer``): "Are there any significant changes in Apple's
    accounting policies?" beside "There have been no material changes to the Company's critical accounting
    estimates". The quote sharing most of the question's subject is named. None otherwise: the summary of the
    quotes decides."""
    score = absence_scorer(q)
    best = max(((score(x.text), x) for x in quotes), key=lambda t: t[0], default=None)
    if best is None or not best[0]:
        return None
    x = best[1]
    return Decision(ABSENCE, f"No: \u201c{x.text}\u201d ({x.doc}, p. {x.page}) [{x.source}]", verdict=False)


def absence_scorer(q: Question) -> Callable[[str], int]:
    """For one question, how many words of its subject a sentence shares that answers it No in the filing's own
    words (0 when it does not, and for every sentence when the question is not yes/no): the sentence holds one of
    the vocabulary's ``[narrative.absence]`` phrases and shares a word of the question's subject (not a word any
    filing sentence uses, a connective, a period's or a relative period's ("most recent"), nor a materiality or
    change word): an interim report's "no changes in our internal control" does not answer a question about its
    accounting policies. A phrase that says only that nothing *material* happened answers only a question that
    asks about something material or significant: "Did NVIDIA change any accounting estimates?" is Yes beside
    "There have been no material changes to our Critical Accounting Policies and Estimates" when the same 10-Q says
    "This change in accounting estimate became effective at the beginning of fiscal year 2024". The question's
    subject is read once."""
    if not q.yes_no:
        return lambda sentence: 0
    words = narrative()
    phrases = words.none + (words.immaterial if q.words & words.material else ())
    # the period asked names no subject: "during the first nine months" shares "first" with any quarter's sentence
    subject = {w for w in q.stems - _no_subject() if w not in STOPWORDS and w not in CONNECTIVES and len(w) > 3}

    def score(sentence: str) -> int:
        low = sentence.lower().replace("\u2019", "'")
        return len(stems(sentence) & subject) if any(p in low for p in phrases) else 0

    return score


@cache
def _no_subject() -> frozenset[str]:
    """The stems that name no subject of a question: the words any filing sentence uses, the absence phrases' own
    words, the materiality words and the period words."""
    words = narrative()
    return _said_by_any() | frozenset(stems(" ".join((*words.none, *words.immaterial, *words.material)))) | \
        _period_stems()


def summarise(llm: LLM, q: Question, quotes: Sequence[Quote], stated: str, max_tokens: int,
              cancelled: Callable[[], bool], labels: Mapping[str, str] | None = None,
              decided: Decision | None = None, whole: bool = False) -> Generation | None:
    """The model's summary of the quotes alone (``prompt.summary_messages``; ``labels`` names each document's
    filing, doc id -> "Amazon 10-Q Q3 FY2023", for quotes from several; ``decided``: the No a quote decided,
    ``absence``; ``whole``: the quotes answer each part, ``every_part``); None when it finds no answer in them."""
    asked, verdict = _asked(q, whole), _verdict(decided)
    gen = llm.chat(summary_messages(asked, quotes, stated, labels, verdict),
                   max_tokens=max_tokens, temperature=0.0, cancelled=cancelled)
    if refuses(gen.text):
        # what it still says the quotes state, else the parties the quotes name ("Insufficient information: [4]
        # and [7]" beside quotes of Trillium's and Therachon's acquisitions)
        said = partly(gen.text, quotes, q)
        said = said + also_named(q, quotes, said) if said else also_named(q, quotes, "", lead="names").strip()
        if not said and whole and len(q.parts) > 1:
            return _by_part(llm, q, quotes, stated, max_tokens, cancelled, labels, gen)
        return replace(gen, text=said) if said else None
    return None if bare(gen.text, quotes) else replace(gen, text=gen.text + also_named(q, quotes, gen.text))


def summary_asked(q: Question, decision: Decision | None, stated: str) -> tuple[Question, str]:
    """What the summary of the quotes is asked, and what the code states to it: for a ranking asked why ("Which
    segment had the weakest operating result, and why?"), what drove the measure of the part it picked, with the
    ranking stated (asked the ranking itself, the small model restated the code's line or declined: the quotes are
    of the pick alone); else the question itself and ``stated``, the computation."""
    if decision is None or not decision.choice or not q.why:
        return q, stated
    asked = f"What drove the {q.measures[0].name if q.measures else 'results'} of {decision.choice}?"
    return replace(q, text=asked, first=asked, parts=()), decision.text


def _asked(q: Question, whole: bool) -> Question:
    """What the summary is asked: a question whose one narrative part follows another ("Has there been any significant
    change in operating expenses? If so, what are the key drivers?") is asked that part where the quotes answer it
    alone (the code stated the first part; asked the whole, the model restates the code's figures instead of the
    quotes' reasons)."""
    part = q.told
    return replace(part, text=_query(part)) if part is not None and part is not q and not whole else q


def _verdict(decided: Decision | None) -> str:
    """The No a quote decided and the source that decides it, for the prompt; not the quote's words, which are
    filing text and stay fenced."""
    return f"No, as source [{CITATION.findall(decided.text)[-1]}] states" if decided is not None else ""


def revise(llm: LLM, q: Question, quotes: Sequence[Quote], stated: str, draft: str, flags: Sequence[str],
           max_tokens: int, cancelled: Callable[[], bool], decided: Decision | None = None,
           whole: bool = False) -> Generation | None:
    """The summary asked once more where the summary check flagged its ``draft``: the model reads its draft and the
    ``flags`` (``prompt.revision_messages``) and writes again from the quotes alone. None when it declines or gives
    only citations; whether the new summary replaces the draft is the caller's to judge (it must be flagged less)."""
    gen = llm.chat(revision_messages(_asked(q, whole), quotes, stated, draft, flags, None, _verdict(decided)),
                   max_tokens=max_tokens, temperature=0.0, cancelled=cancelled)
    text = gen.text.strip()
    if not text or refuses(text) or bare(text, quotes):
        return None
    return replace(gen, text=text + also_named(q, quotes, text))


def _figure_quoted(text: str, quotes: Sequence[Quote]) -> bool:
    """Whether a reply states a figure a quote states (a part asking a figure answered by it alone)."""
    theirs = [v.value for x in quotes for v in quantities(CITATION.sub(" ", x.text))]
    return any(same_number(v, w) for v in quantities(CITATION.sub(" ", text)) for w in theirs)


def _by_part(llm: LLM, q: Question, quotes: Sequence[Quote], stated: str, max_tokens: int,
             cancelled: Callable[[], bool], labels: Mapping[str, str] | None, first: Generation) -> Generation | None:
    """The summary of a question of several parts that the model declined as a whole, asked part by part: a part
    that declines does not make the whole a refusal when another part is answered (the remaining performance
    obligations' "$896 million" and "approximately 42% ... over the next twelve months", both quoted, declined
    together by the small model as "Insufficient information: [6] [9]"). The parts answered are joined in order;
    None when none is."""
    said: list[str] = []
    tokens = first.completion_tokens
    for part in q.parts:
        if cancelled():
            break
        gen = llm.chat(summary_messages(part, quotes, stated, labels, ""), max_tokens=max_tokens, temperature=0.0,
                       cancelled=cancelled)
        tokens += gen.completion_tokens
        text = gen.text.strip()
        if refuses(text):
            text = partly(text, quotes, part)
        if text and (not bare(text, quotes) or _figure_quoted(text, quotes)):
            said.append(text)  # a figure part's answer may be its figure alone ("$896 million [6]")
    if not said:
        return None
    text = " ".join(t if t.endswith((".", "!", "?")) else f"{t}." for t in said)
    return replace(first, text=text + also_named(q, quotes, text), completion_tokens=tokens)


_TERM = re.compile(r"\(\s*(?:the\s+)?[“\"]([^”\"()]{2,80})[”\"]\s*\)")
"""A term a sentence defines for what it has just written out: (the “Park MGM Lease Transaction”), (“Rivian”)."""


def _party_named(before: str) -> bool:
    """Whether the words before a term a sentence defines end in a legal form ("... in Rivian Automotive, Inc.
    (“Rivian”)"): the term is a party's short name, defined where the filing first names the party, which tells
    nothing else of it (what the term is, ``DEFINES``, is told where a transaction or a program is named)."""
    words = before.split()
    return bool(words) and re.sub(r"[^a-z&]", "", words[-1].lower()) in LEGAL_FORMS - {"the", "and", "&"}


_DEFINED = re.compile(r"\(\s*[“\"]([A-Z0-9][^”\"()]{0,60})[”\"]\s*\)")
"""A short name a sentence defines for what it has just written out: (“Yardbird”); not (the “Notes”), a term."""
_ACQUIRED = re.compile(
    r"\b(?:acquired|acquisition of)\s+(?:(?:all|substantially all|a majority|the remaining|\d+%)\s+(?:of\s+)?"
    r"(?:the\s+)?(?:remaining\s+)?(?:issued and outstanding\s+|outstanding\s+)?(?:shares|equity interests?|"
    r"common stock|stock|interests?)\s+(?:not already owned by\s+(?:[A-Z][\w.&]*\s+){1,4})?of\s+)?"
    r"(?P<name>(?:[A-Z]|\d+[A-Za-z])[\w&.'’-]*(?:\s+(?:[A-Z][\w&.'’-]*|&|d/b/a))*)"
    r"(?=\s*[,(.;:]|\s*$|\s+(?:for|in|on|from|and|at|which|that|to|during|by|with)\b)")
"""A party a sentence says was acquired, named right after it and followed by a comma, a bracket or a preposition
(not a term used as an adjective: "an acquired IPR&D asset"): "we acquired Array, a ...", "acquired all the
remaining shares of Therachon, a ...", "acquired all of the issued and outstanding common stock not already owned by
Pfizer of Trillium, a ..."."""
_NOT_NAME_WORDS = frozenset("on in for during the as at by with our we it its this that these january february march "
                            "april may june july august september october november december".split())


def _names(kind: NarrativeKind, sentence: str) -> list[str]:
    """The parties a sentence names: each short name it defines right after writing the party out in full, and
    each party it says was acquired (``_ACQUIRED``); terms ending in one of the kind's ``not_names`` words (the
    “Credit Agreement”) are none."""
    out: list[str] = []
    for m in _DEFINED.finditer(sentence):
        name = " ".join(m.group(1).split())
        if re.search(rf"\b{re.escape(name.split()[0])}\b", sentence[max(0, m.start() - 80):m.start()]):
            out.append(name)
    for m in _ACQUIRED.finditer(sentence):
        words: list[str] = []
        for w in m.group("name").split()[:MAX_NAME_WORDS]:
            if w.lower().strip(".,") in _NOT_NAME_WORDS:
                break
            words.append(w)
        name = " ".join(words).rstrip(".,")
        if name and not any(name.lower() in o.lower() or o.lower() in name.lower() for o in out):
            out.append(name)
    return [n for n in out if n.split()[-1].lower().strip(".") not in kind.not_names]


MAX_NAME_WORDS = 6

ALSO_NAMED = re.compile(r"\s*\[\d+\] (?:also )?names .+?, in a sentence with \u201c[^\u201d]*\u201d\.")
"""The code's own sentence ``also_named`` adds after a summary: what a quote names, not a claim of the model."""


def also_named(q: Question, quotes: Sequence[Quote], text: str, lead: str = "also names") -> str:
    """The names a summary leaves out that its quotes give as answers, said after it ('' when none): for a
    question of a kind whose answer is names (``not_names`` in the vocabulary: who was acquired, who the customers
    are), each party a quote carrying the kind's cues names (``_names``: "... acquired ... Current Health Ltd.
    (“Current Health”) and Two Peaks, LLC d/b/a Yardbird Furniture (“Yardbird”)") that the summary and the
    question do not name. The model naming one acquisition of two reads as the answer; the filing's sentence names
    both. With ``lead`` "names" and no text, the names the quotes give, for a summary that declined them."""
    asked = q.told
    kind = narrative().kind(asked.narrative) if asked is not None and asked.narrative else None
    if kind is None or not kind.not_names:
        return ""
    said = (text + " " + q.text).lower()
    out = ""
    for x in quotes:
        low = x.text.lower()
        cue = max(_cues_in(kind, low), key=len, default="")
        if not cue or _against(kind, low):
            continue
        names = [n for n in _names(kind, x.text) if n.lower() not in said]
        said += " " + " ".join(names).lower()
        if names:  # the cue says what the sentence tells of them: "we acquired", "accounted for"
            out += f" [{x.source}] {lead} {' and '.join(names)}, in a sentence with \u201c{cue}\u201d."
    return out


_SENTENCE_START = re.compile(r"[.)!?]\s+(?=[A-Z])")
_AFTER_LIST = re.compile(r"(?<=[a-z0-9%)])\s+(?=(?:The|This|These|That|Our|We|In|For|As|During|Excluding|Including|"
                         r"It|Its|On|At|Such|See|Refer)\s)"
                         r"|\s+(?=(?:[A-Z][\w&’'-]*\s+){0,3}[A-Z][\w&’'-]*:\s)")
"""Where a list's last item ends, the item having no period: the next sentence ("... segment The intangible asset
...") or a heading ("... in 2022 Pharmaceutical Segment: In 2022, ...")."""
_OFFSET = re.compile(r"^(?P<item>.*?)\s*(?P<lead>\b(?:(?:partially|partly|largely)\s+)?offset\s+by)\s*:?\s*$", re.I)


def listed(q: Question, quotes: Sequence[Quote]) -> str:
    """The filing's own list of what drove the change asked, stated as the summary ('' when there is none): a
    question asking for drivers whose best quote is a lead-in naming a cause ("Cost of products sold increased as a
    percent to sales driven by:") with its bulleted items. An "offset by:" among them ("... segments partially
    offset by: • Supply chain benefits") parts the items that drove the change from those that offset it, as the
    filing parts them. Every word is the filing's, so a model cannot give an offset as a driver or leave items out
    (JnJ's gross margin: the model named one of three drivers and gave the offset as a fourth). Where the best list
    names none of the years asked and another quoted list does, that one is the year's; where the question asks of a
    part (``Question.segment``: "King") that the list's lead-in does not name while another quote tells that part's
    drivers, only a quoted list naming it is."""
    asked = q.told
    kind = narrative().kind(asked.narrative) if asked is not None and asked.narrative else None
    if kind is None or not kind.searched or not quotes or " • " not in quotes[0].text:
        return ""
    best = quotes[0]
    # the best list may be another year's ("2020 v. 2019 Cost of sales increased ... due to:" for 2021): a quoted list
    # naming a year asked, where the best names none, is the year's
    years = set(q.asked.years)

    def lead_in(x: Quote) -> str:  # the words before the list's first item
        return x.text.split(" • ")[0]

    def lead_years(x: Quote) -> set[int]:  # the lead-in's, not a running footer's after the items ("2021 Form 10-K")
        return {int(y) for y in YEAR.findall(lead_in(x))}

    if years and not years & lead_years(best):
        best = next((x for x in quotes[1:] if " • " in x.text and years & lead_years(x)), best)
    # a list whose lead-in does not name the part asked ("King"), where another quote tells that part's own
    # drivers ("The decrease in King's net revenues ... was primarily due to"), is another part's ("Activision's
    # operating income ... due to:"): a quoted list naming the part, else none (the model summarises the quotes);
    # a list under the part's heading, no other quote naming it, stays the part's
    part = q.segment.lower()
    if part and part not in lead_in(best).lower() and any(
            part in x.text.lower() and _cues(kind, x.text.lower()) for x in quotes if x is not best):
        found = [x for x in quotes if " • " in x.text and part in lead_in(x).lower()]
        if not found:
            return ""
        best = found[0]
    lead, *items = [x.strip() for x in best.text.split(" • ")]
    if not lead.endswith(":") or not _cues(kind, lead.lower()):
        return ""
    # the lead-in's own sentence ("... total sales) Cost of products sold increased ... driven by:"), and the last
    # item up to the sentence after the list (bullets end with no period: "... segment The intangible asset ...")
    lead = lead[max((m.end() for m in _SENTENCE_START.finditer(lead)), default=0):]
    items[-1] = _AFTER_LIST.split(items[-1], maxsplit=1)[0]
    drove: list[str] = []
    offset: list[str] = []
    offset_lead = ""
    for item in items:
        m = _OFFSET.match(item)
        if m and not offset_lead:
            if m["item"]:
                drove.append(m["item"].rstrip(" ;,"))
            offset_lead = m["lead"]
            continue
        (offset if offset_lead else drove).append(re.sub(r"[;,]?\s+(?:and|or)$", "", item.rstrip(" ;,.")))
    if not drove:
        return ""
    said = f"{lead[:-1].rstrip()}: {'; '.join(drove)}"
    if offset:
        said += f"; {offset_lead}: {'; '.join(offset)}"
    return f"{said} [{best.source}]."


_REFUSAL_LEAD = re.compile(r"^\s*insufficient information\s*[:.-]\s*", re.I)


def partly(text: str, quotes: Sequence[Quote], q: Question) -> str:
    """What a reply that declines still says the quotes state, or '': "Insufficient information: [3] and [8]
    mention Pfizer acquiring Trillium and Therachon, but not other companies." answers part of the question (the
    quotes name two of the three asked), so its words after the refusal's lead are the summary. They must cite a
    quote and name something of the quotes that the question does not (a party, a product, an amount): a reply
    that only restates what is missing declines."""
    rest = _REFUSAL_LEAD.sub("", text, count=1).strip()
    if rest == text.strip() or not CITATION.search(rest) or refuses(CITATION.sub("", rest)):
        return ""
    generic = narrative().generic
    own = {word_stem(w) for w in CONTENT_WORD.findall(CITATION.sub(" ", rest))
           if w.lower() not in STOPWORDS and w.lower() not in generic}
    return rest if (own & said_stems(x.text for x in quotes)) - said_stems([q.text]) else ""


def bare(text: str, quotes: Sequence[Quote]) -> bool:
    """Whether a reply says none of the quotes' content words (a bare "No." to "Has Amazon repurchased shares?"
    beside quotes of its repurchases): it summarises nothing of them."""
    generic = narrative().generic
    said = {word_stem(w) for w in CONTENT_WORD.findall(text) if w.lower() not in STOPWORDS and w.lower() not in generic}
    return not said & said_stems(x.text for x in quotes)


def quotes_text(quotes: Sequence[Quote], labels: Mapping[str, str]) -> str:
    """The answer when the model gives no summary of the quotes: the quotes themselves, each with its filing
    (``labels``: doc id -> "Amazon 10-Q Q3 FY2023"), document, page and source, in the order given."""
    lines = ["The model gave no summary of these sentences; the filings' own words answer:"]
    for x in quotes:
        where = f"{labels[x.doc_id]} ({x.doc}, p. {x.page})" if x.doc_id in labels else f"{x.doc}, p. {x.page}"
        lines.append(f"- {where} [{x.source}]: \u201c{x.text}\u201d")
    return "\n".join(lines)


def quote_citations(quotes: Sequence[Quote], used: Sequence[Evidence], cited: Sequence[Citation]) -> list[Citation]:
    """Citations of the quotes' passages that ``cited`` does not hold yet (a quoted passage is a cited one: the
    evidence list marks it and opens its page)."""
    have = {c.marker for c in cited}
    return [Citation(marker=x.source, doc=x.doc, page=x.page, modality=used[x.source - 1].modality,
                     region_id=x.region_id, chunk_id=x.chunk_id)
            for x in {x.source: x for x in quotes}.values() if x.source not in have]


def telling_stems(q: Question) -> frozenset[str]:
    """The stems of a question that tell one filing sentence from another: its content stems less the words any
    sentence about a filing uses (``_said_by_any``)."""
    return q.stems - _said_by_any()


def subject_stems(q: Question) -> frozenset[str]:
    """``telling_stems`` less the words of periods: what a sentence says of the question's subject, whatever the
    period ("The second quarter and first six months of 2023 include ..." says only a period asked)."""
    return telling_stems(q) - _period_stems()


@cache
def _period_stems() -> frozenset[str]:
    return frozenset(stems(" ".join((*PERIOD_WORDS, *RELATIVE_WORDS))))


@cache
def _said_by_any() -> frozenset[str]:
    """The stems of the words any sentence about a filing uses (the vocabulary's generic summary words, "quarterly",
    "report", "company"): a question's such words tell no sentence of the filing from another, so they do not count
    toward its lexical share ("NVIDIA's quarterly reports" would rank a certification's "this Quarterly Report")."""
    return frozenset(stems(" ".join(narrative().generic)))



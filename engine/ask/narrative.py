"""Narrative answers an analyst can check: the filing's own sentences first, then a summary made only from them.

A question whose answer is prose (``Question.narrative`` names the kind asked: drivers, parties, events, legal,
description) gets the 1-4 sentences of its top passages that answer it (``find_quotes``), ranked by the embedder,
the lexical overlap with the question and the cue words of the kind asked (``[narrative.KIND].cues`` in the
vocabulary). They are shown at once, each with document and page. The model then writes at most two sentences
from those quotes alone (``prompt.summary_messages``), and ``unsupported`` lists what the summary says that the
quotes do not: a number they do not state, a content word (a driver, a party, a product) neither they nor the
question contain. A flagged summary is shown below the quotes with its flag, never instead of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from functools import cache

import numpy as np

from engine.ask.checks import CITATION, cited_numbers, refuses
from engine.ask.decisions import Decision
from engine.ask.formulas import formula_items
from engine.ask.prompt import summary_messages
from engine.ask.question import CONNECTIVES, Question
from engine.ask.routing import LEGAL_FORMS
from engine.ask.statements import stems
from engine.library.lexical import STOPWORDS
from engine.models.protocols import LLM, Embedder, Generation
from engine.numbers import CURRENCY, Quantity, quantities, same_number
from engine.periods import PERIOD_WORDS, RELATIVE_WORDS, asked_period, years_named
from engine.sentences import split_sentences, with_lists
from engine.types import Citation, Evidence, Quote, Region
from engine.vocabulary import NarrativeKind, directions, items_named, narrative, vocabulary

PASSAGES = 8
"""The top passages (text, in the evidence order) whose sentences are ranked."""
EMBEDDED = 24
"""The sentences, best by the lexical and cue scores, that the embedder reads (it is the slow step: each sentence
is one more pass of the embedder on a shared CPU)."""
MAX_QUOTES = 4
"""At most this many sentences are quoted."""
MARGIN = 0.2
"""A sentence is quoted when its score is within this much of the best one's (the best is always quoted)."""
LEXICAL_WEIGHT = 0.5
"""The share of the question's words a sentence holds, weighted against the embedder's cosine (0-1)."""
CUE_WEIGHT = 0.08
"""Per cue phrase of the kind asked that a sentence carries (at most ``MAX_CUES`` count)."""
MAX_CUES = 2
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
OTHER_YEAR = 0.1
"""Taken off a sentence that names years, none of them one the question asks ("In 2021, ..." for a question about
2022): a filing's discussion sets each year's drivers side by side."""
SAME = 0.8
"""A sentence sharing more than this share of its words with one already quoted repeats it: not quoted again."""
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
MIN_CHARS, MAX_CHARS = 30, 700
"""A shorter piece is a heading or a fragment; a longer one a run of text with no sentence end (a table read as
text): neither is quoted."""
MIN_WORD_SHARE = 0.55
"""A sentence whose tokens are less than this share words (the rest numbers) is a table row read as text."""
_WORDS = re.compile(r"[A-Za-z][A-Za-z&'’-]*|\d[\d,.]*%?")
_CONTENT = re.compile(r"[A-Za-z][A-Za-z&'’-]{2,}")
_PREFIX = 6
"""Two words sharing their first six letters are the same word for the summary check ("acquired",
"acquisition")."""


_DATED_MAY = re.compile(r"\bmay(?=\s+\d)")
"""The month in a date ("On May 12, 2017, we acquired Souq"), not the verb of what may happen."""


def _against(kind: NarrativeKind, low: str) -> bool:
    low = _DATED_MAY.sub(" ", low)
    return any(re.search(rf"(?<![a-z]){re.escape(c)}(?![a-z])", low) for c in kind.against)


def _cues_in(kind: NarrativeKind | None, low: str) -> list[str]:
    """The cue phrases of ``kind`` a lower-cased sentence carries."""
    return [] if kind is None else [c for c in kind.cues if re.search(rf"(?<![a-z]){re.escape(c)}", low)]


def _cues(kind: NarrativeKind | None, low: str) -> int:
    return len(_cues_in(kind, low))


def candidates(used: Sequence[Evidence], regions: dict[int, Region]) -> list[tuple[int, str]]:
    """(evidence index, sentence) of the top ``PASSAGES`` text passages (a table's description is no quote),
    each sentence once."""
    out: list[tuple[int, str]] = []
    seen: set[str] = set()
    passages = [i for i, e in enumerate(used)
                if not (e.region_id in regions and regions[e.region_id].table) and e.modality != "image"][:PASSAGES]
    for i in passages:
        for s in with_lists(used[i].text, MAX_CHARS):
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
                 decided: bool, stated: bool) -> list[Quote]:
    """The sentences an answer quotes before the model speaks: none where the code decided it (a verdict, "the
    metric does not suit this company": that is the answer); a narrative question's quotes (``find_quotes``), which
    the model's summary is made from; and for any other question that no cell answers (nothing ``stated``), the
    sentences of its passages nearest it (``nearest_sentences``), shown so that the model's answer, made from the
    whole evidence, can be checked against the filing's words ("By how much did it increase its revolving credit
    facility?" beside "... increased the facility from $X to $Y")."""
    if decided:
        return []
    if q.narrative:
        return find_quotes(q, used, regions, embedder)
    return [] if stated else nearest_sentences(q, used, regions, embedder)


def nearest_sentences(q: Question, used: Sequence[Evidence], regions: dict[int, Region], embedder: Embedder,
                      most: int = MAX_QUOTES) -> list[Quote]:
    """The 1-``most`` sentences of the top passages nearest a question that asks no narrative kind, best first:
    ranked as quotes are, with no kind's cue words ([] for passages without a sentence)."""
    return _quotes(q, used, regions, embedder, most, any_kind=True)


def find_quotes(q: Question, used: Sequence[Evidence], regions: dict[int, Region], embedder: Embedder,
                most: int = MAX_QUOTES, skip: Sequence[Quote] = ()) -> list[Quote]:
    """The 1-``MAX_QUOTES`` sentences of the top passages that answer a narrative question, best first ([] for a
    question that is not narrative or passages without a sentence). A question of several narrative parts ("What
    drove the decline, and who are the largest customers?") gets each part's quotes in turn, best first, so a part
    whose passages hold no answer leaves the others theirs. A sentence repeating one of ``skip`` (quoted already
    from another filing) is not ranked."""
    narrated = [p for p in q.parts if p.narrative]
    if len(narrated) > 1:
        found = [_quotes(p, used, regions, embedder, most, skip) for p in narrated]
        out: list[Quote] = []
        for rank in range(most):
            for quotes in found:
                if rank < len(quotes) and len(out) < most and quotes[rank].text not in {x.text for x in out}:
                    out.append(quotes[rank])
        return out
    return _quotes(q, used, regions, embedder, most, skip)


def told(q: Question) -> Question | None:
    """The question whose quotes answer it in words: itself when it asks a narrative kind, or its one part that
    does ("Summarize the risk factors, and how they have changed": the first part); None for a figure."""
    narrated = [p for p in q.parts if p.narrative]
    if q.narrative or len(narrated) > 1:
        return q
    return narrated[0] if narrated else None


def quotes_each(q: Question, groups: Sequence[tuple[Sequence[Evidence], dict[int, Region]]], embedder: Embedder,
                most: int) -> list[list[Quote]]:
    """``find_quotes`` of each group of evidence on its own (one filing's retrieval and regions, in the order
    given), at most ``most`` each, none repeating a sentence an earlier group's quotes hold (a 10-Q repeats its
    predecessor's legal proceedings word for word: the first group given, the newest filing, quotes it). A quote's
    ``source`` numbers its own group's evidence. [] each for a question that asks no narrative kind."""
    asked = told(q)
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
    """What the sentences are embedded against: the asking sentence, with the line items it asks about when it
    does not write them out (a later part: "If so, what are the key drivers for this change?")."""
    text = q.first or q.text
    missing = [m.name for m in q.measures if not any(n and n in text.lower() for n in m.names)]
    return f"{text} ({', '.join(missing)})" if missing else text


def _repeats(sentence: str, quotes: Sequence[Quote]) -> bool:
    """Whether a sentence shares more than ``SAME`` of its words with a quote already taken, or one holds the other
    (a list's item and the lead-in quoted with its items)."""
    words = set(sentence.lower().split())
    low = " ".join(sentence.lower().split())
    return any(len(words & (w := set(x.text.lower().split()))) > SAME * max(len(words), len(w))
               or low in (other := " ".join(x.text.lower().split())) or other in low for x in quotes)


def _quotes(q: Question, used: Sequence[Evidence], regions: dict[int, Region], embedder: Embedder,
            most: int = MAX_QUOTES, skip: Sequence[Quote] = (), any_kind: bool = False) -> list[Quote]:
    """``find_quotes`` of one question (or one part of one); with ``any_kind`` also of one that asks no narrative
    kind (``nearest_sentences``)."""
    if not q.narrative and not any_kind:
        return []
    found = candidates(used, regions)
    if not found:
        return []
    kind = narrative().kind(q.narrative) if q.narrative else None
    elsewhere = narrative().elsewhere
    want, telling = q.stems, q.stems - _said_by_any()
    costs = _costs(q)
    # a list's items are what its lead-in says they are: those of a lead-in against the kind ("These transactions
    # involve risks such as: • ...") are against it too, quoted alone or with it
    ruled = {item for _, s in found if " • " in s and kind is not None and _against(kind, s.split(" • ")[0].lower())
             for item in s.split(" • ")[1:]}
    first: list[tuple[float, int, str]] = []
    for order, (_, s) in enumerate(found):
        head = s.split(" • ")[0].lower()  # a list's lead-in says what the list is about, not its items
        own = stems(s) | next((named for labels, named in costs if any(x in head for x in labels)), frozenset())
        lexical = len(telling & own) / len(want) if want else 0.0
        cue = min(MAX_CUES, _cues(kind, s.lower()))
        off = AGAINST if kind is not None and (_against(kind, s.lower()) or s in ruled) else 0.0
        off += ELSEWHERE if _FOOTNOTE.match(s) or any(x in s.lower() for x in elsewhere) else 0.0
        party = NAME_WEIGHT if kind is not None and kind.not_names and _names(kind, s) else 0.0
        first.append((LEXICAL_WEIGHT * lexical + CUE_WEIGHT * cue + party - off, order, s))
    asked = {y for y in (*q.asked.years, q.asked.fiscal_year) if y}
    if asked:
        first = [(score - OTHER_YEAR if (named := {int(y) for y in _YEAR.findall(s)}) and not named & asked else score,
                  order, s) for score, order, s in first]
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
        if len(quotes) == most or score < best - MARGIN:
            break
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
    return Decision("absence", f"No: \u201c{x.text}\u201d ({x.doc}, p. {x.page}) [{x.source}]", verdict=False)


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
    return _said_by_any() | frozenset(stems(" ".join((*words.none, *words.immaterial, *words.material,
                                                      *PERIOD_WORDS, *RELATIVE_WORDS))))


def summarise(llm: LLM, q: Question, quotes: Sequence[Quote], stated: str, max_tokens: int,
              cancelled: Callable[[], bool], labels: Mapping[str, str] | None = None,
              decided: Decision | None = None) -> Generation | None:
    """The model's summary of the quotes alone (``prompt.summary_messages``; ``labels`` names each document's
    filing, doc id -> "Amazon 10-Q Q3 FY2023", for quotes from several; ``decided``: the No a quote decided,
    ``absence``); None when it finds no answer in them."""
    # a question whose one narrative part follows another ("Has there been any significant change in operating
    # expenses? If so, what are the key drivers?"): the code stated the first part, the quotes answer the second,
    # and asked the whole the model restates the code's figures instead of the quotes' reasons
    part = told(q)
    asked = replace(part, text=_query(part)) if part is not None and part is not q else q
    # the verdict and the source that decides it; not the quote's words, which are filing text and stay fenced
    verdict = f"No, as source [{CITATION.findall(decided.text)[-1]}] states" if decided is not None else ""
    gen = llm.chat(summary_messages(asked, quotes, stated, labels, verdict),
                   max_tokens=max_tokens, temperature=0.0, cancelled=cancelled)
    if refuses(gen.text):
        # what it still says the quotes state, else the parties the quotes name ("Insufficient information: [4]
        # and [7]" beside quotes of Trillium's and Therachon's acquisitions)
        said = partly(gen.text, quotes, q)
        said = said + also_named(q, quotes, said) if said else also_named(q, quotes, "", lead="names").strip()
        return replace(gen, text=said) if said else None
    return None if bare(gen.text, quotes) else replace(gen, text=gen.text + also_named(q, quotes, gen.text))


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


def also_named(q: Question, quotes: Sequence[Quote], text: str, lead: str = "also names") -> str:
    """The names a summary leaves out that its quotes give as answers, said after it ('' when none): for a
    question of a kind whose answer is names (``not_names`` in the vocabulary: who was acquired, who the customers
    are), each party a quote carrying the kind's cues names (``_names``: "... acquired ... Current Health Ltd.
    (“Current Health”) and Two Peaks, LLC d/b/a Yardbird Furniture (“Yardbird”)") that the summary and the
    question do not name. The model naming one acquisition of two reads as the answer; the filing's sentence names
    both. With ``lead`` "names" and no text, the names the quotes give, for a summary that declined them."""
    asked = told(q)
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
    names none of the years asked and another quoted list does, that one is the year's."""
    asked = told(q)
    kind = narrative().kind(asked.narrative) if asked is not None and asked.narrative else None
    if kind is None or not kind.searched or not quotes or " • " not in quotes[0].text:
        return ""
    best = quotes[0]
    # the best list may be another year's ("2020 v. 2019 Cost of sales increased ... due to:" for 2021): a quoted list
    # naming a year asked, where the best names none, is the year's
    years = {y for y, _, _ in years_named(q.text)}

    def lead_years(x: Quote) -> set[int]:  # the lead-in's, not a running footer's after the items ("2021 Form 10-K")
        return {int(y) for y in _YEAR.findall(x.text.split(" • ")[0])}

    if years and not years & lead_years(best):
        best = next((x for x in quotes[1:] if " • " in x.text and years & lead_years(x)), best)
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
    own = {_stem(w) for w in _CONTENT.findall(CITATION.sub(" ", rest))
           if w.lower() not in STOPWORDS and w.lower() not in generic}
    return rest if (own & _said(x.text for x in quotes)) - _said([q.text]) else ""


def bare(text: str, quotes: Sequence[Quote]) -> bool:
    """Whether a reply says none of the quotes' content words (a bare "No." to "Has Amazon repurchased shares?"
    beside quotes of its repurchases): it summarises nothing of them."""
    generic = narrative().generic
    said = {_stem(w) for w in _CONTENT.findall(text) if w.lower() not in STOPWORDS and w.lower() not in generic}
    return not said & _said(x.text for x in quotes)


def quotes_text(quotes: Sequence[Quote], labels: Mapping[str, str]) -> str:
    """The answer when the model gives no summary of the quotes: the quotes themselves, each with its filing
    (``labels``: doc id -> "Amazon 10-Q Q3 FY2023"), document, page and source, in the order given."""
    lines = ["The model gave no summary of these sentences; the filings' own words answer:"]
    for x in quotes:
        where = f"{labels[x.doc_id]} ({x.doc}, p. {x.page})" if x.doc_id in labels else f"{x.doc}, p. {x.page}"
        lines.append(f"- {where} [{x.source}]: \u201c{x.text}\u201d")
    return "\n".join(lines)


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
    passages = [used[x.source - 1].text for x in quotes if 0 < x.source <= len(used)]
    return unsupported(text.replace(stated, " ") if stated else text, quotes, q, names, stated, passages)


def quote_citations(quotes: Sequence[Quote], used: Sequence[Evidence], cited: Sequence[Citation]) -> list[Citation]:
    """Citations of the quotes' passages that ``cited`` does not hold yet (a quoted passage is a cited one: the
    evidence list marks it and opens its page)."""
    have = {c.marker for c in cited}
    return [Citation(marker=x.source, doc=x.doc, page=x.page, modality=used[x.source - 1].modality,
                     region_id=x.region_id, chunk_id=x.chunk_id)
            for x in {x.source: x for x in quotes}.values() if x.source not in have]


@cache
def _said_by_any() -> frozenset[str]:
    """The stems of the words any sentence about a filing uses (the vocabulary's generic summary words, "quarterly",
    "report", "company"): a question's such words tell no sentence of the filing from another, so they do not count
    toward its lexical share ("NVIDIA's quarterly reports" would rank a certification's "this Quarterly Report")."""
    return frozenset(stems(" ".join(narrative().generic)))


_ENDINGS = ("ing", "ed", "es", "e", "ion")
"""Endings a word loses before it is cut ("alleges", "alleging", "alleged": "alleg"; "election", "elected": "elect";
"reducing", "reduce": "reduc"), where at least five letters are left."""


def _stem(word: str) -> str:
    """A word as the summary check compares it: lower case, without a possessive or a plural's "s" ("costs" is
    "cost"; "loss", "status" and "basis" keep theirs) or an inflection's ending (``_ENDINGS``), cut to ``_PREFIX``
    letters."""
    w = word.lower().strip("'’-")
    w = w[:-2] if w.endswith(("'s", "’s")) else w
    w = w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")) else w
    w = next((w[:-len(e)] for e in _ENDINGS if w.endswith(e) and len(w) - len(e) >= 5), w)
    return w[:_PREFIX]


_BROKEN = re.compile(r"(?<=[a-z])- (?=[a-z])")
"""A word broken across a line and read with a space ("write- off")."""


def _said(texts: Iterable[str]) -> set[str]:
    return {_stem(w) for t in texts for w in _CONTENT.findall(_BROKEN.sub("-", t))}


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
    sentences = [s for x in quotes for s in split_sentences(x.text)]
    out: list[str] = []
    for sentence in split_sentences(summary):
        for v in quantities(sentence):
            if not _figure(v) or abs(v.value) < 10 and not v.percent:
                continue
            said = asked_period(sentence[:v.start])
            if not said.years:
                after = sentence[v.end:v.end + 60]
                said = asked_period(after.split(" compared")[0].split(" versus")[0])
            if not said.years:
                continue
            holding = [s for s in sentences if any(same_number(w, v.value) or same_number(v, w.value)
                                                   for w in quantities(s))]
            if not holding:
                continue  # a number the quotes do not state is flagged as such
            named = [asked_period(s) for s in holding]
            years = {y for a in named for y in a.years}
            # one side names a fiscal year, the other a calendar date: the filer's year may end in the next
            slack = 1 if bool(said.fiscal_named) != any(a.fiscal_named for a in named) else 0
            if years and not any(abs(y - z) <= slack for y in said.years for z in years):
                out.append(f"{v.raw.strip()} for {said.text}")
    return out


FORECAST_SHARE = 0.6
"""The share of a summary sentence's words one quote sentence must hold to be the sentence it restates."""
RESTATED_WORDS = 4
"""The fewest words a summary sentence must share with a quote sentence to restate it."""


def _quote_sentences(quotes: Sequence[Quote]) -> list[tuple[int, str, set[str]]]:
    """Each sentence of the quotes with its quote's source and its stems."""
    return [(x.source, s, _said([s])) for x in quotes for s in split_sentences(x.text)]


def _restated(sentence: str, sentences: Sequence[tuple[int, str, set[str]]], plain: set[str] | None = None
              ) -> tuple[set[str], tuple[int, str, set[str]]] | None:
    """The summary sentence's stems and the quote sentence it restates: the one holding most of its words,
    ``FORECAST_SHARE`` of them and ``RESTATED_WORDS`` at least; None where none does. The words counted are its
    content words: not stopwords, nor ``plain`` stems where given (``_plain``: the company's name, generic words,
    which say nothing of which quote a sentence restates)."""
    words = _said([sentence]) - (plain if plain is not None else {_stem(w) for w in STOPWORDS})
    if len(words) < RESTATED_WORDS or not sentences:
        return None
    best = max(sentences, key=lambda t: len(words & t[2]))
    shared = len(words & best[2])
    return (words, best) if shared >= RESTATED_WORDS and shared / len(words) >= FORECAST_SHARE else None


def _plain(names: Iterable[str]) -> set[str]:
    """The stems no relation check reads as a subject's or a claim's: stopwords, generic, period and relative words,
    and ``names`` (the documents', the company's)."""
    names = list(names)
    return ({_stem(w) for w in (*STOPWORDS, *narrative().generic, *PERIOD_WORDS, *RELATIVE_WORDS)} | _said(names)
            | {_name_key(m.group(0)) for n in names for m in _NAMED.finditer(n)})


def _forward_word(sentence: str) -> str:
    """The first of the vocabulary's forward-looking words a sentence uses ('' when none; "May 12" is a date)."""
    low = _DATED_MAY.sub(" ", sentence.lower())
    return next((w for w in narrative().forward if re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", low)), "")


def _foretold(sentence: str, word: str) -> set[str]:
    """The stems of what a sentence tells is expected or may happen: its words from each of its forward-looking
    ``word`` to the clause's end ("may be asserted in the future": "asserted", "future"), stopwords and generic words
    aside."""
    low = _DATED_MAY.sub(" ", sentence.lower())
    clauses = [re.split(r"[,;:]", low[at.end():], maxsplit=1)[0]
               for at in re.finditer(rf"(?<![a-z]){re.escape(word)}(?![a-z])", low)]
    return _said(clauses) - _plain(())


def _forecast_as_fact(summary: str, quotes: Sequence[Quote]) -> list[str]:
    """A summary sentence that restates a quote sentence telling what is expected or may happen ("we expect that
    our cash flow from operations will decline") without any word that says so ("a decline in cash flow from
    operations"): it states a forecast as a fact; what the quote foretells must be in the sentence (one that leaves
    out its quote's closing "and further claims may be asserted in the future" states no forecast). Each gives
    'stated as fact (the quote says “expect”)'. The quote restated is the one holding most of the sentence's words
    (``FORECAST_SHARE`` of them, four at least)."""
    sentences = _quote_sentences(quotes)
    out: list[str] = []
    for sentence in split_sentences(summary):
        if _forward_word(sentence) or (found := _restated(sentence, sentences)) is None:
            continue
        if (word := _forward_word(found[1][1])) and _foretold(found[1][1], word) & found[0]:
            flag = f"stated as fact (the quote says “{word}”)"
            if flag not in out:
                out.append(flag)
    return out


def _subject(q: Question) -> tuple[str, set[str]]:
    """What a drivers question asks the drivers of, and the stems a sentence about it uses: its line items' names
    and labels, and for a standard ratio the items of its definition ("gross margin": gross profit, revenue, cost of
    sales); ('', set()) where it names none."""
    names = [m.names or (m.name,) for m in q.measures]
    if q.ratio is not None:
        names.append((q.ratio[0],))
        for it in formula_items(q.ratio[1]):
            names.append((it.name, *it.labels))
            if it.derived:
                names += [(d.name, *d.labels) for d in formula_items(it.derived)]
    if not names:
        return "", set()
    plain = {_stem(w) for w in (*STOPWORDS, *narrative().generic)}
    return names[0][0], _said(n for group in names for n in group) - plain


def _drivers_of_something_else(summary: str, quotes: Sequence[Quote], q: Question) -> list[str]:
    """For a question what drove a line item or a ratio: each quote the summary cites ([n]) as a driver whose
    sentences say nothing of that item (no word of its names, or of its definition's items) gives '[n] is not about
    operating expenses'. A tax-rate sentence and a risk-factor pointer called the drivers of operating expenses are
    quoted words in a relation no quote states."""
    asked = told(q)
    if asked is None or asked.narrative != "drivers":
        return []
    subject, words = _subject(asked)
    if not words:
        return []
    by_source: dict[int, list[str]] = {}
    for x in quotes:
        by_source.setdefault(x.source, []).append(x.text)
    return [f"[{n}] is not about {subject}" for n in cited_numbers(summary)
            if (said := by_source.get(n)) and not _said(said) & words]


def _first_cue(kind: NarrativeKind, text: str) -> int:
    """Where the first of a kind's cue phrases starts in a sentence (-1 when it has none)."""
    low = text.lower()
    found = [m.start() for c in kind.cues if (m := re.search(rf"(?<![a-z]){re.escape(c)}", low))]
    return min(found, default=-1)


def _lead_item(subject: str) -> tuple[str, str]:
    """The line item a sentence's subject names first, and the words it names it with ("The decrease in Cost of
    sales as a percentage of revenues": cogs, "Cost of sales"); ('', '') when it names none."""
    low = subject.lower()
    at = [(m.start(), it.name, subject[m.start():m.end()]) for it in items_named(subject) for n in it.names
          if (m := re.search(rf"(?<![a-z]){re.escape(n.lower())}(?![a-z])", low))]
    return min(at)[1:] if at else ("", "")


def _capitalised(subject: str, plain: set[str]) -> set[str]:
    """The capitalised words of a sentence's subject after its first word (names: "Google Services", "Other
    Bets"), less ``plain`` stems (the company's and documents' names, generic and period words)."""
    words = _CONTENT.findall(subject)[1:]
    return {_stem(w) for w in words if w[0].isupper() and _stem(w) not in plain}


NAMED_SUBJECT = 6
"""The most words a quote's subject has for its names to be compared with a summary's (a list item's "Google
Services"; a longer one runs on from a heading: "Acquisition Activity On February 22, 2023, we")."""


TURNED_CHARS = 12
"""The words after a direction word (``_words_after``) must run this long to tell what it is said of."""


def _words_after(text: str, at: int, n: int = 6) -> str:
    """The ``n`` words of a text after a position, lower case, without the punctuation around them."""
    return " ".join(w.strip(",.;:()") for w in text[at:].lower().split()[:n]).strip()


_DETERMINERS = frozenset({"our", "its", "their", "his", "her", "your", "this", "these", "those", "that"})
_NOT_MOVES = frozenset({"higher", "lower", "growth", "expansion", "contraction", "reduction", "increase",
                        "decrease", "decline", "drop", "fall", "rise", "lift", "boost"})
"""Direction words that are no verb a subject does (an adjective, a noun): the word before them is no subject."""


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
        if head.lower() in STOPWORDS or _stem(head) in plain:
            return []
        phrase = [head]
        for w in reversed(before[:-1]):
            if len(phrase) == 4 or not w[0].isalpha() or w.lower() in STOPWORDS or w.lower() in _DETERMINERS:
                break
            phrase.insert(0, w)
        return phrase
    return []


def _mover(subject: str) -> str:
    """A quote subject's words before its first direction word ("NIKE Direct revenues" of "NIKE Direct revenues grew
    13% for fiscal 2018"), from its sentence's start where a heading runs into it; '' when it has none."""
    rises, falls = directions()
    at = min((m.start() for m in (*rises.finditer(subject), *falls.finditer(subject))), default=-1)
    if at <= 0:
        return ""
    # a heading run into the sentence ("2023 Guidance Our 2023 organic revenue"): the sentence starts at its last
    # capitalised stopword
    starts = [m.start() for m in re.finditer(r"\b[A-Z][a-z]*\b", subject[:at]) if m.start() > 0
              and (m.group(0).lower() in STOPWORDS or m.group(0).lower() in _DETERMINERS or m.group(0) == "We")]
    return subject[max(starts, default=0):at].strip(" ,")


def _moves(sentence: str, plain: set[str]) -> tuple[frozenset[str], bool] | None:
    """What a sentence says moved and which way: the stems of its subject (``_mover``, less ``plain``) and whether
    its first direction word says up; None where the subject has fewer than two such words (a bare "Revenue")."""
    rises, _ = directions()
    who = _mover(CITATION.sub(" ", sentence))
    stems = frozenset(_said([who]) - plain)
    if len(stems) < 2:
        return None
    rest = CITATION.sub(" ", sentence)[len(who):] if CITATION.sub(" ", sentence).startswith(who) else sentence
    return stems, bool(rises.match(rest.lstrip(" ,")))


def _direction_disputed(summary: str, quotes: Sequence[Quote], names: Iterable[str]) -> list[str]:
    """A direction the quotes do not agree on, told one way: "More Personal Computing revenue increased, primarily
    due to ..." where another quote says "More Personal Computing revenue decreased $2.7 billion" (a filing
    discusses each year in turn, and a quote may be the year before's) gives '[5] says “More Personal Computing
    revenue decreased”'. The subject must be the same words (two at least, the company's name and generic words
    aside); a sentence that names its period ("in the second quarter of 2022") is not judged: it says which of the
    quotes' periods it tells."""
    plain = _plain(names)
    theirs = [(x.source, s, m) for x in quotes for s in split_sentences(x.text) if (m := _moves(s, plain))]
    out: list[str] = []
    for sentence in split_sentences(summary):
        if _YEAR.search(sentence) or asked_period(sentence).text or (mine := _moves(sentence, plain)) is None:
            continue  # a sentence naming its period says which of the quotes' periods it tells
        other = next(((src, s) for src, s, (who, up) in theirs if who == mine[0] and up != mine[1]), None)
        if other is not None:
            src, s = other
            rises, falls = directions()
            word = (falls if mine[1] else rises).search(s)
            said = f"{_mover(s)} {word.group(0)}" if word else _mover(s)
            flag = f"[{src}] says \u201c{said}\u201d"
            if flag not in out:
                out.append(flag)
    return out


def _restated_about_something_else(summary: str, quotes: Sequence[Quote], q: Question,
                                   names: Iterable[str]) -> list[str]:
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
    “lower net favorable profit adjustments on production”'. Every word is quoted; the relation is the model's."""
    asked = told(q)
    kind = narrative().kind(asked.narrative) if asked is not None else None
    if kind is None or not kind.cues:
        return []
    plain = _plain(names)
    rises, falls = directions()
    sentences = _quote_sentences(quotes)
    out: list[str] = []
    for sentence in split_sentences(summary):
        if (found := _restated(sentence, sentences)) is None:
            continue
        words, (source, best, _) = found
        # a direction turned ("higher net favorable profit adjustments" where the quote restated says "lower net
        # favorable profit adjustments" and no quote says "higher" of them)
        for m in (*rises.finditer(sentence), *falls.finditer(sentence)):
            after = _words_after(sentence, m.end())
            if len(after) < TURNED_CHARS:
                continue
            same, other = (rises, falls) if rises.fullmatch(m.group(0)) else (falls, rises)
            if any(_words_after(t, x.end()) == after for _, t, _ in sentences for x in same.finditer(t)):
                continue
            turned = next((x for x in other.finditer(best) if _words_after(best, x.end()) == after), None)
            if turned is not None:
                out.append(f"[{source}] says \u201c{turned.group(0)} {after}\u201d")
        if (cut := _first_cue(kind, sentence)) <= 0 or (at := _first_cue(kind, best)) <= 0:
            continue
        theirs = best[:at].split(" • ")[-1].strip()
        mine = sentence[:cut]
        if rises.match(mine.lstrip(_OPENING)) or falls.match(mine.lstrip(_OPENING)):
            continue  # no subject: the sentence opens with the drivers ("Increased unit sales, ...")
        (lead, named), (own_lead, _) = _lead_item(theirs), _lead_item(mine)
        if lead and own_lead and lead != own_lead:
            flag = f"[{source}] is about \u201c{named}\u201d"
        elif (len(theirs.split()) <= NAMED_SUBJECT and (mine_named := _capitalised(mine, plain))
              and (theirs_named := _capitalised(theirs, plain)) and not mine_named & theirs_named):
            flag = f"[{source}] is about \u201c{theirs}\u201d"
        elif (head := _moved_head(theirs, plain)) and _stem(head[-1]) not in words:
            flag = f"[{source}] is about \u201c{' '.join(head)}\u201d"
        elif ((who := _mover(theirs)) and len(who.split()) <= NAMED_SUBJECT
              and (part := _capitalised(who, plain | _subject(q)[1])) and not _capitalised(mine, plain)
              and not part & (words | _said([q.text]))):
            # the quote's subject is a named part ("NIKE Direct revenues grew 13%"), the sentence's the whole
            flag = f"[{source}] is about \u201c{who}\u201d"
        else:
            continue
        if flag not in out:
            out.append(flag)
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
    that denies something (it may say what the quotes lack)."""
    rises, falls = directions()
    asked = {_stem(w) for w in _CONTENT.findall(q.text)
             if not w[0].isupper() and not rises.fullmatch(w) and not falls.fullmatch(w)}
    plain = _plain(names)
    asked -= plain | _subject(q)[1]
    if not asked:
        return []
    by_source: dict[int, set[str]] = {}
    for x in quotes:
        by_source.setdefault(x.source, set()).update(_said([x.text]))
    sentences = _quote_sentences(quotes)
    out: list[str] = []
    for sentence in split_sentences(summary):
        if _NEGATION.search(sentence) or (found := _restated(sentence, sentences, plain)) is None:
            continue
        source = found[1][0]
        claim = sentence.split(":", 1)[1] if ":" in sentence else sentence
        for w in _CONTENT.findall(claim):
            if not w[0].isupper() and _stem(w) in asked and _stem(w) not in by_source[source]:
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
    named = {_stem(m.group(0)): m.group(0) for m in _NAME.finditer(text)
             if _stem(m.group(0)) not in plain and not _CURRENCY.fullmatch(m.group(0))
             and not asked_period(m.group(0)).text}
    return named, _said([text]) | {_stem(m.group(0)) for m in _NAME.finditer(text)}


_RESPECTIVELY = re.compile(r"\brespectively\b", re.I)


def _paired(sentence: str, plain: set[str]) -> list[tuple[str, Quantity]]:
    """A "respectively" sentence's names and figures in pairs, in order ("factories in Vietnam, Indonesia and China
    manufactured approximately 50%, 27% and 18% ..., respectively": Vietnam 50%, Indonesia 27%, China 18%): the
    names (``_NAMED``, less ``plain`` and periods) before its first figure, as many as its figures; [] for another
    sentence, or one whose counts differ."""
    if not _RESPECTIVELY.search(sentence):
        return []
    figures = [v for v in quantities(sentence) if _figure(v)]
    if len(figures) < 2:
        return []
    opening = len(sentence) - len(sentence.lstrip(_OPENING))
    named = [m.group(0) for m in _NAMED.finditer(sentence[:figures[0].start])
             if m.start() > opening and _name_key(m.group(0)) not in plain and not asked_period(m.group(0)).text]
    return list(zip(named, figures, strict=True)) if len(named) == len(figures) else []


def _pairs_swapped(summary: str, quotes: Sequence[Quote], names: Iterable[str]) -> list[str]:
    """Figures of a "respectively" sentence given to other names than the quote's pairs them with: "China and Vietnam
    manufactured approximately 50% and 27%, respectively" against "Vietnam, Indonesia and China ... 50%, 27% and
    18%, respectively" gives '50%: [3] gives it for “Vietnam”' (the summary's names are each one the quote pairs
    with another figure)."""
    plain = _plain([*names, *(x.doc for x in quotes)])
    theirs = [(x.source, name, v) for x in quotes for s in split_sentences(x.text) for name, v in _paired(s, plain)]
    if not theirs:
        return []
    out: list[str] = []
    for sentence in split_sentences(summary):
        for name, v in _paired(sentence, plain):
            same = [(src, other) for src, other, w in theirs if same_number(w, v.value) or same_number(v, w.value)]
            if not same or any(_name_key(other) == _name_key(name) for _, other in same):
                continue
            if any(_name_key(other) == _name_key(name) for _, other, _ in theirs):
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
    plain = _plain(names)
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


_CLAUSES = re.compile(r"\s*(?:[;,:\u2022]|\s\u2013\s|\s-\s)\s*|\s+and\s+")
"""Where a summary sentence's clauses part: what one clause says is said of the names in it ("the acquisition of
MGM Holdings Inc. and the cash payments related to acquisition" says nothing of MGM's payments)."""
_PARTS = re.compile(r"\s*[;\u2022]\s*")
"""Where a quote sentence's parts part: a list's items ("about $80 million for the F-22 program due to ...;")."""
_NAMED = re.compile(r"(?<![\w-])(?:[A-Z][A-Za-z&'’]*(?:-[A-Za-z0-9]+)*|\d+[A-Za-z][\w-]*)")
"""A word that names something: capitalised ("Network"), a code ("F-22", "CH-53K", "777X")."""
_OPENING = " \"'“(["


def _name_key(word: str) -> str:
    """How a name is looked up: a code with digits as written ("777x", "f-22"), a word by its stem."""
    return word.lower().strip("'’-") if any(c.isdigit() for c in word) else _stem(word)


def _keys(text: str) -> set[str]:
    """The stems of a text's words and the keys of its names, codes ("F-22", "777X") and short ones ("CB") too."""
    return _said([text]) | {_name_key(m.group(0)) for m in _NAMED.finditer(text)}


def _clause_names(sentence: str, plain: set[str]) -> list[tuple[str, list[str]]]:
    """Each clause of a summary sentence with the names in it (``_NAMED``, not the word that begins the sentence),
    less ``plain`` stems, legal forms ("Inc"), currencies and periods."""
    opening = sentence.lstrip(_OPENING)
    first = m.group(0) if (m := _NAMED.match(opening)) else ""
    out: list[tuple[str, list[str]]] = []
    for clause in _CLAUSES.split(CITATION.sub(" ", sentence)):
        leads = first and opening.startswith(clause.lstrip(_OPENING))
        names = [m.group(0) for m in _NAMED.finditer(clause)
                 if not (leads and m.start() == len(clause) - len(clause.lstrip(_OPENING)))]
        out.append((clause, [w for w in names if len(w) > 1 and _name_key(w) not in plain
                             and w.lower() not in LEGAL_FORMS and not _CURRENCY.fullmatch(w)
                             and not asked_period(w).text]))
    return out


def _name_parts(quotes: Sequence[Quote], plain: set[str], asked: set[str]) -> list[set[str]]:
    """The keys (``_keys``) of each part of the quotes' sentences (its list items part at ";" and bullets); a
    sentence that names nothing of its own (``_NAMED`` after its first word, or first the question's ``asked``
    names; less ``plain``) also holds the names of its quote's other sentences: "Additionally, operating income
    benefited from a reduction in costs" is Google Cloud's beside "Google Cloud operating income of $1.7 billion for
    2023", where the section's heading names it."""
    by_source: dict[int, list[str]] = {}
    for x in quotes:
        by_source.setdefault(x.source, []).extend(split_sentences(x.text))
    out: list[set[str]] = []
    for sentences in by_source.values():
        named = [{k for m in _NAMED.finditer(s)
                  if (k := _name_key(m.group(0))) in asked or m.start() > len(s) - len(s.lstrip(_OPENING))} - plain
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
    plain = _plain(names)
    relation = plain | _said([q.text]) | {_stem(w) for k in narrative().kinds for c in k.cues
                                          for w in _CONTENT.findall(c)}
    rises, falls = directions()
    parts = _name_parts(quotes, plain, {_name_key(w) for _, found in _clause_names(q.text, plain) for w in found})
    quoted = set().union(*parts) if parts else set()
    out: list[str] = []
    for sentence in split_sentences(summary):
        for clause, named in _clause_names(sentence, plain):
            theirs = [k for k in parts if any(_name_key(w) in k for w in named)]
            if not theirs:
                continue
            keys = {_name_key(w) for w in _NAMED.findall(clause)}
            missing = [w for w in _CONTENT.findall(clause)
                       if (st := _stem(w)) in quoted and st not in relation and st not in keys
                       and w.lower() not in STOPWORDS and not rises.fullmatch(w) and not falls.fullmatch(w)
                       and not any(st in k for k in theirs)]
            if missing:
                name = next(w for w in named if any(_name_key(w) in k for k in theirs))
                flag = f"no quote says \u201c{missing[0].lower()}\u201d of \u201c{name}\u201d"
                if flag not in out:
                    out.append(flag)
    return out


_PERIOD_END = re.compile(r"\b(?:ended|ending|as of|through)\s+(?:[A-Z][a-z]+\.?\s+\d{1,2},?\s+)?(?:19|20)\d{2}\b")
"""A period's end ("the year ended January 28, 2023"): the year it writes dates a period, not an event."""


def _cause_after_change(summary: str, q: Question) -> list[str]:
    """A cause dated after the change it is given for: "The change in operating revenues in 2022 was caused by
    surcharge authorizations that became effective on or after January 1, 2023" gives 'a cause in 2023 for 2022'.
    For a drivers question naming its years: a year written after a summary sentence's first cue or word that asks
    for drivers ("due to", "caused") that is later than every year the question asks, outside a period's end ("the
    year ended January 28, 2023": a retailer's fiscal year), in a sentence that tells no expectation."""
    asked = told(q)
    kind = narrative().kind(asked.narrative) if asked is not None else None
    years = [y for y, _, _ in years_named(q.text)]
    if kind is None or asked is None or asked.narrative != "drivers" or not years:
        return []
    out: list[str] = []
    for sentence in split_sentences(summary):
        asks = kind.asked.search(sentence) if kind.asked else None
        at = [i for i in (_first_cue(kind, sentence), asks.start() if asks else -1) if i >= 0]
        if not at or _forward_word(sentence):
            continue
        cause = _PERIOD_END.sub(" ", sentence[min(at):])
        later = sorted({int(m.group(0)) for m in _YEAR.finditer(cause) if int(m.group(0)) > max(years)})
        if later:
            flag = f"a cause in {later[0]} for {max(years)}"
            if flag not in out:
                out.append(flag)
    return out


_FORM = re.compile(r"(?:FY|CY|Form|\d{1,2}-?[KQ](?:/A)?)", re.I)
"""A capitalised word of a question that names its filing or period, not a subject ("FY", "10K", "Form")."""
_ACRONYM = re.compile(r"\b[A-Z]{2,6}\b")


def _unquoted_subject(quotes: Sequence[Quote], q: Question, names: Iterable[str], passages: Sequence[str] = ()
                      ) -> list[str]:
    """A name the question asks about that no quote names: "What drove revenues of Boeing's Commercial Airplanes
    segment?" answered from quotes of BGS and BDS gives 'no quote names “Commercial Airplanes”' (whatever the
    summary says of it, the quotes are another's). The question's names are its capitalised words and codes
    (``_clause_names``: not a sentence's first word, the company's name, a legal form, a period or the filing's form,
    nor an abbreviation of a term: "M&A", "R&D"), taken in runs ("Commercial Airplanes"); a quote names a run when
    it has one of its words capitalised (a segment's name: "higher commercial parts revenue" names no Commercial
    Airplanes segment), or an acronym whose letters are the initials of the question's names in order and include
    the run's first ("BDS" for "Boeing Defense, Space & Security"). The ``passages`` the quotes come from count as
    the quotes' (a section's heading names the segment its sentences are about: "Latin America")."""
    plain = _plain([*names, *(x.doc for x in quotes)])
    asked = [w for sentence in split_sentences(q.text) for _, found in _clause_names(sentence, plain)
             for w in found if not _FORM.fullmatch(w) and not (w.isupper() and "&" in w)]
    if not asked:
        return []
    said = {_name_key(m.group(0)) for t in (*(x.text for x in quotes), *passages) for m in _NAMED.finditer(t)}
    if any(_name_key(w) in said for w in asked):
        return []
    initials = "".join(w[0].upper() for w in _NAMED.findall(q.text)[1:])
    for acronym in {m.group(0) for x in quotes for m in _ACRONYM.finditer(x.text)}:
        it = iter(initials)
        if asked[0][0].upper() in acronym and all(c in it for c in acronym):
            return []
    run = re.search(rf"{re.escape(asked[0])}(?:,?\s+(?:(?:&|and)\s+)?[A-Z][\w&'’-]*)*", q.text)
    return [f"no quote names \u201c{run.group(0) if run else asked[0]}\u201d"]


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
    plain = _plain(names) | _said([q.text])
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
        theirs = _said(x.text for x in quotes if x.source in cited)
        others = _said(x.text for x in quotes if x.source not in cited)
        for w in _CONTENT.findall(text):
            if (st := _stem(w)) in others and st not in theirs and st not in plain and w.lower() not in STOPWORDS:
                flag = f"{' '.join(f'[{n}]' for n in cited)} does not say \u201c{w.lower()}\u201d"
                if flag not in out:
                    out.append(flag)
                break
    return out


def unsupported(summary: str, quotes: Sequence[Quote], q: Question, names: Iterable[str] = (),
                stated: str = "", passages: Sequence[str] = ()) -> list[str]:
    """What the summary says that the quotes do not: each number the quotes do not state (as written), then each
    content word (a driver, a party, a product: not a stopword, not one of the vocabulary's generic summary words)
    that neither the quotes, the question, ``names`` (the documents' names, the company's aliases) nor what the
    code ``stated`` (a computed change the summary may repeat) contain. A fiscal year a fact is given for must be
    one the quotes or the code's statement name: a document's name ("BESTBUY_2023_10K") names the filing, not the
    year of what it reports."""
    if not summary.strip() or not quotes:
        return []
    texts = [*(x.text for x in quotes), q.text, *names, stated]
    figures = {round(c, 6) for t in texts for v in quantities(t) for c in v.candidates()}
    out: list[str] = []
    body = _BROKEN.sub("-", CITATION.sub(" ", summary))
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
    out += [f for f in _forecast_as_fact(body, quotes) if f not in out]
    out += [f for f in _drivers_of_something_else(summary, quotes, q) if f not in out]
    out += [f for f in _restated_about_something_else(body, quotes, q, names) if f not in out]
    out += [f for f in _question_word_put_in(body, quotes, q, names) if f not in out]
    out += [f for f in _figures_of_others(body, quotes, names) if f not in out]
    out += [f for f in _pairs_swapped(body, quotes, names) if f not in out]
    out += [f for f in _cited_elsewhere(summary, quotes) if f not in out]
    out += [f for f in _words_of_other_quotes(summary, quotes, q, names) if f not in out]
    out += [f for f in _said_of_others(body, quotes, q, names) if f not in out]
    out += [f for f in _unquoted_subject(quotes, q, names, passages) if f not in out]
    out += [f for f in _cause_after_change(body, q) if f not in out]
    out += [f for f in _direction_disputed(body, quotes, names) if f not in out]
    # a fiscal year a fact is given for must be the quotes' ("acquired in FY2021" where the quote says "In fiscal
    # 2022, we acquired"); the question's years count only in a sentence that says what the quotes lack
    years = {y for t in (*(x.text for x in quotes), stated) for y, _, _ in years_named(t)}
    for sentence in split_sentences(body):
        for y, fiscal, written in years_named(sentence):
            if fiscal and y not in years and not _NEGATION.search(sentence):
                out.append(written)
    quoted = _said(t for t in texts if t != q.text)
    known = quoted | _said([q.text])
    generic = narrative().generic
    for sentence in split_sentences(body):
        if _LACKS.search(sentence):
            continue  # what the quotes lack ("The sources do not provide information about its timing")
        # a yes/no question's words do not support the Yes that repeats them ("Yes, it was able to retain card
        # members" where no quote says anything was retained): in that sentence only the quotes count
        own = quoted if q.yes_no and _YES.match(sentence) else known
        for w in _CONTENT.findall(sentence):
            low = w.lower().strip("'’-")
            if low in STOPWORDS or low in generic or _stem(w) in own:
                continue
            if w not in out:
                out.append(w)
    return out

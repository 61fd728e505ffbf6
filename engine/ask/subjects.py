"""Whose a text is: the company, a part of it (a segment, a region, a product line), the section it is told under.

The name words that say nothing of whose a sentence is (``plain_stems``: stopwords, generic words, the company's and
the documents' names), the parts a question asks about (``asked_parts``), and the part a passage's section headings
name (``heading_part``, over ``Evidence.headings``). The summary check (``faithful``) reads them to tell a sentence
told of another part; quote ranking (``narrative``) to prefer the asked part's own section.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache

from engine.ask.question import ENDS_POSSESSIVE, NAME_WORD, Question
from engine.ask.routing import LEGAL_FORMS
from engine.library.lexical import STOPWORDS
from engine.numbers import CURRENCY
from engine.pagetext import LOWER_IN_TITLES, NOT_LAST
from engine.periods import PERIOD_WORDS, RELATIVE_WORDS, period_heading
from engine.vocabulary import narrative

_CURRENCY = re.compile(CURRENCY)
CONTENT_WORD = re.compile(r"[A-Za-z][A-Za-z&'’-]{2,}")
_PREFIX = 6
"""Two words sharing their first six letters are the same word for the summary check ("acquired",
"acquisition")."""


_ENDINGS = ("ing", "ed", "es", "e", "ion")
"""Endings a word loses before it is cut ("alleges", "alleging", "alleged": "alleg"; "election", "elected": "elect";
"reducing", "reduce": "reduc"), where at least five letters are left; a consonant the ending doubled is written
once ("stopped": "stop"); a "-ment" or "-uction" noun stems as its verb (``_NOUN_OF_VERB``)."""

_IRREGULAR_PLURALS = {"lives": "life", "halves": "half"}
"""Plurals that do not end in the singular and an "s" ("the useful lives" of one sentence, "the useful life" of the
next)."""


_IRREGULAR_VERBS = {
    "won": "win", "paid": "pay", "sold": "sell", "grew": "grow", "grown": "grow", "fell": "fall", "fallen": "fall",
    "rose": "rise", "risen": "rise", "brought": "bring", "held": "hold", "sought": "seek", "made": "make",
    "bought": "buy", "spent": "spend", "kept": "keep", "left": "leave", "lost": "lose", "took": "take",
    "taken": "take", "gave": "give", "given": "give", "told": "tell", "met": "meet", "built": "build",
    "began": "begin", "begun": "begin", "drove": "drive", "driven": "drive", "chose": "choose", "chosen": "choose",
    "wrote": "write", "written": "write", "became": "become", "came": "come", "went": "go", "gone": "go",
    "said": "say", "found": "find", "struck": "strike", "withdrew": "withdraw", "withdrawn": "withdraw",
    "undertook": "undertake", "undertaken": "undertake", "shrank": "shrink", "shrunk": "shrink", "spun": "spin",
    "bore": "bear", "borne": "bear", "sent": "send", "lent": "lend", "dealt": "deal", "meant": "mean",
    "understood": "understand", "arose": "arise", "arisen": "arise", "forgone": "forgo", "overcame": "overcome"}
"""Past forms of verbs that do not end in "-ed" ("Boeing won" of the quote's "winning"; "left out" of "leave out").
Not "led": the "lead program" is no program that led."""


def word_stem(word: str) -> str:
    """A word as the summary check compares it: lower case, without a possessive or a plural's "s" ("costs" is
    "cost"; "loss", "status" and "basis" keep theirs; "lives" is "life") or an inflection's ending (``_ENDINGS``),
    cut to ``_PREFIX`` letters; a hyphenated word piece by piece ("cost-per-click" is not "cost-per-impression")."""
    w = word.lower().strip("'’-")
    if "-" in w:
        return "-".join(word_stem(piece) for piece in w.split("-") if piece)
    w = w[:-2] if w.endswith(("'s", "’s")) else w
    w = _IRREGULAR_PLURALS.get(w, _IRREGULAR_VERBS.get(w, w))
    w = w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")) else w
    # twice: what an inflection leaves stems as the word itself ("implementing": "implement": "impl"; "exceeded":
    # "exceed": "exce")
    return _uninflected(_uninflected(w))[:_PREFIX]


def _uninflected(w: str) -> str:
    """A word without a "-ment"/"-uction" noun's ending and one inflection's (``_ENDINGS``), ``_STEM_LEAST`` letters
    left at least."""
    w = _NOUN_OF_VERB.sub(lambda m: m.group(1) or "", w) if len(w) > 7 else w
    cut = next((w[:-len(e)] for e in _ENDINGS if w.endswith(e) and len(w) - len(e) >= _STEM_LEAST), w)
    if cut != w and w.endswith(("ed", "ing")) and _DOUBLED.search(cut):
        cut = cut[:-1]  # "stopped", "planned", "admitted": "stop", "plan", "admit"
    return cut


_STEM_LEAST = 4
"""The fewest letters an inflection's ending leaves ("closing", "closed" and "close" are "clos"; "need" and "needed"
"need"); a word shorter keeps its ending ("using", "based", "rates")."""


_NOUN_OF_VERB = re.compile(r"(?<=...)(?:ment|(uc)tion)$")
"""The noun a verb makes with "-ment" or "-uction", which then stems as the verb does ("settlement", "payment",
"reduction": "settle", "pay", "reduce")."""
_DOUBLED = re.compile(r"[aeiou](bb|gg|mm|nn|pp|rr|tt)$")
"""A consonant an inflection doubles after a vowel ("stopp" of "stopped", "occurr" of "occurred"): written once in the
word itself ("add", "sell" and "call" double none of these)."""


BROKEN = re.compile(r"(?<=[a-z])- (?=[a-z])")
"""A word broken across a line and read with a space ("write- off")."""


def said_stems(texts: Iterable[str]) -> set[str]:
    """The stems (``word_stem``) of the content words of some texts, a word broken across a line read whole."""
    return {word_stem(w) for t in texts for w in CONTENT_WORD.findall(BROKEN.sub("-", t))}


@cache
def common_stems() -> frozenset[str]:
    """The stems of the stopwords and the generic, period and relative words (read once)."""
    return frozenset(word_stem(w) for w in (*STOPWORDS, *narrative().generic, *PERIOD_WORDS, *RELATIVE_WORDS))


@cache
def same_stems() -> dict[str, frozenset[str]]:
    """Each stem of a word the vocabulary groups with others as saying the same thing (``[narrative.summary] same``:
    "recover" and "recoup") to the stems of its group (read once)."""
    return {word_stem(w): frozenset(word_stem(v) for v in group) for group in narrative().same for w in group}


def plain_stems(names: Iterable[str]) -> set[str]:
    """The stems no relation check reads as a subject's or a claim's: stopwords, generic, period and relative words
    (``common_stems``), and ``names`` (the documents', the company's)."""
    names = list(names)
    codes = {name_key(m.group(0)) for n in names for m in NAME_WORD.finditer(n)}
    return set(common_stems()) | said_stems(names) | codes


def name_key(word: str) -> str:
    """How a name is looked up: a code with digits as written ("777x", "f-22"), a word by its stem."""
    return word.lower().strip("'’-") if any(c.isdigit() for c in word) else word_stem(word)


def asked_names(q: Question, plain: set[str]) -> list[str]:
    """The words of the names the question asks about (``Question.names``), less ``plain`` stems (the company's
    name), legal forms and currencies."""
    return [m.group(0) for run in q.names for m in NAME_WORD.finditer(run)
            if len(m.group(0)) > 1 and name_key(m.group(0)) not in plain and m.group(0).lower() not in LEGAL_FORMS
            and not _CURRENCY.fullmatch(m.group(0))]


_POSSESSIVE = r"(?:['’]s|s['’])(?!\w)"
"""A possessive's ending: "Boeing's", "the segments'"."""
POSSESSOR = re.compile(rf"^.*{_POSSESSIVE}")
"""A run's words up to its last possessive ("Boeing's" of "Boeing's Commercial Airplanes"): the owner."""
OWNER = re.compile(rf"\b([A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*){_POSSESSIVE}")
"""A name with a possessive anywhere in a text: the owner of what follows ("Corporate's loss", "NIKE Direct's
revenues")."""


def asked_parts(q: Question, plain: set[str], names: Iterable[str] = ()) -> list[str]:
    """The parts the question asks about: each of its names (``Question.names``) after its owner ("Commercial
    Airplanes" of "Boeing's Commercial Airplanes") and its ``plain`` words (the company's name), where a word of it
    is asked (``asked_names``). A name that is all owner ("American Water's operating revenues", "Frito-Lay North
    America's net revenue") may be the company or a part: it is none; but one that goes on past the company's name
    ("Walmart International's"), and that no document's or company's name (``names``) spells whole, is a part."""
    words = asked_names(q, plain)
    spelled = [re.sub(r"[^a-z]", "", n.lower()) for n in names]
    out: list[str] = []
    for run in q.names:
        part = POSSESSOR.sub("", run).strip(" ,")
        if not part and (owner := ENDS_POSSESSIVE.sub("", run.strip(" ,"))) and (
                first := NAME_WORD.match(owner)) and name_key(first.group(0)) in plain and not any(
                re.sub(r"[^a-z]", "", owner.lower()) in n for n in spelled):
            part = owner
            words = [*words, *(ENDS_POSSESSIVE.sub("", w) for w in words)]
        found = [m for m in NAME_WORD.finditer(part) if m.group(0) in words]
        if found and part:
            out.append(part[found[0].start():])
    return out


_KIND_TAIL = re.compile(r"^(?P<name>.+?)\s+(?:reportable\s+|operating\s+|business\s+)?(?:segments?|business(?:es)?|"
                        r"divisions?)$", re.I)
"""A heading that names a part with its kind word ("Walmart U.S. Segment", "Safety and Industrial Business"); not
"Units" ("Restricted Stock Units")."""
PART_NAME_WORDS = 5
"""The most words a part's name in a heading has ("Enterprise, Embedded and Semi-Custom"); a longer title is a
topic's ("Tax-free Determination of the Split-Off of the Food Safety Business")."""


def letters(word: str) -> str:
    """A name word's letters, lower case: how a heading's name is matched ("U.S." is "US")."""
    return re.sub(r"[^a-z0-9]", "", word.lower())


def name_letters(text: str) -> set[str]:
    """The ``letters`` of a text's name words (``NAME_WORD``)."""
    return {letters(w) for w in NAME_WORD.findall(text)}


def initials(name: str) -> str:
    """The initials of a name's capitalised words, as written ("MFC" of "Missiles and Fire Control")."""
    return "".join(w[0] for w in NAME_WORD.findall(name) if w[0].isupper())


@cache
def _told_of_a_part() -> re.Pattern[str]:
    """What follows a part's name in running text: a possessive, or a part's kind word or a measure's word in lower
    case ("Sam's Club segment", "Las Vegas Strip Resorts net revenues", "MFC's net sales")."""
    vocab = narrative()
    words = sorted({*vocab.part_words, *vocab.heading_measures, "business"}, key=len, reverse=True)
    return re.compile(r"(?:['’]s?\b|\s+(?:" + "|".join(map(re.escape, words)) + r")\b)")


_CODE = re.compile(r"[A-Z]{2,6}")
"""A heading of one code in capitals: a division's short name ("AMESA", "APAC", "FLNA")."""
_MID_SENTENCE = re.compile(r"[a-z0-9,;)]\s+$")
"""What comes right before a name written in the middle of a sentence: a lower-case word, a figure, a comma."""


def _named_in_text(name: str, texts: Iterable[str]) -> bool:
    """Whether a heading's name is used as a part's name in running text: in the middle of a sentence (capitalised
    where a common word would not be: "in the Walmart U.S. segment", not "Deferred revenue"), followed by a
    possessive, a part's kind word or a measure's word in lower case (``_told_of_a_part``), the name or its initials
    ("an increase in MFC's net sales" for "Missiles and Fire Control"). A heading's own line, followed by its
    section's first sentence, is not."""
    short = initials(name)
    spelled = [name, short] if len(short) >= 2 else [name]
    if name.isupper() and " " in name:  # a heading set in capitals: "EUROPE, MIDDLE EAST & AFRICA"
        spelled.append(" ".join(w.lower() if w.lower() in LOWER_IN_TITLES else w.capitalize() for w in name.split()))
    after = _told_of_a_part()
    for text in texts:
        for form in spelled:
            for m in re.finditer(rf"(?<![\w&-]){re.escape(form)}(?![\w&-])", text):
                if after.match(text, m.end()) and _MID_SENTENCE.search(text, max(0, m.start() - 30), m.start()):
                    return True
    return False


_OPENING_RUN = re.compile(r"^[\W\d]*(?P<run>[A-Z][\w&'\u2019.-]*(?:,?\s+(?:(?:and|&)\s+)?[A-Z][\w&'\u2019.-]*)*)")
_OPENERS = frozenset({"the", "our", "in", "for", "during", "as", "this", "these", "net", "total", "sales", "revenue",
                      "revenues", "operating"})
"""Words that open a section's first sentence after a run-in heading ("Display Technologies The decrease in ...")."""


def _keys(words: Iterable[str], plain: set[str]) -> set[str]:
    """Name words' ``letters`` that are not ``plain`` nor stopwords (legal forms are left out before)."""
    return {w for w in words if w and word_stem(w) not in plain and w not in plain and w not in STOPWORDS}


def _own(keys: set[str]) -> set[str]:
    """Keys (``_keys``) that are not a heading topic's or measure's words: what would make a name a part's."""
    vocab = narrative()
    return {w for w in keys if w not in vocab.heading_topics and w not in vocab.heading_measures}


def _own_keys(name: str, plain: set[str]) -> set[str]:
    """A name's words (``letters``) that are not ``plain``, stopwords, legal forms, nor a heading topic's or
    measure's words: what would make it a part's name."""
    return _own(_keys((letters(w) for w in NAME_WORD.findall(name) if w.lower() not in LEGAL_FORMS), plain))


def opening_part(sentence: str, plain: set[str], run_in: bool = False) -> str:
    """The part a sentence opens by naming: a run-in heading ("Display Technologies The decrease in segment net
    income ...") or a named subject ("Walmart International's net sales ...", "MFC's backlog ..."), two name words
    at least, a possessive or a code ("PBNA"); '' where it opens with none (a measure: "Gross profit rate ...").
    With ``run_in``, only a heading run into the sentence that follows it (its first word an opener: "The", "Net"),
    and none with a topic's word (``heading_topics``: "Juice Transaction")."""
    m = _OPENING_RUN.match(sentence)
    if not m:
        return ""
    words = m.group("run").split()
    if len(words) >= 2 and words[-1].lower() in _OPENERS:
        words = words[:-1]
    elif run_in:
        return ""  # a named subject, not a heading run into the sentence after it
    while words and words[0].lower() in _OPENERS:
        words = words[1:]  # "Our MFC business segment provides ..."
    run = " ".join(words).strip(" ,")
    if len(NAME_WORD.findall(run)) < 2 and not ENDS_POSSESSIVE.search(run) and not _CODE.fullmatch(run):
        return ""  # one capitalised word opens any sentence; a code ("PBNA Net revenue increased 12%") is a name
    if run_in and any(letters(w) in narrative().heading_topics for w in NAME_WORD.findall(run)):
        return ""  # a topic's heading run in ("Juice Transaction In 2022, we ..."), not a part's
    return run if _own_keys(run, plain) else ""


def heading_part(headings: Sequence[str], plain: set[str], texts: Sequence[str], styled: Sequence[str] = ()) -> str:
    """The part of the company a passage is told under: the name its nearest section heading gives ("Sam's Club" of
    "Sam's Club Segment", "Missiles and Fire Control"), read upwards past headings of a measure or a period ("Gross
    Profit Rate", "Backlog", "Fiscal 2023 Compared to Fiscal 2022": sub-sections) and stopping at one of a topic
    ("Liquidity and Capital Resources": the part's section has ended). A heading names a part where it has a word
    that is not ``plain`` (the company's name, generic words), nor a topic's or a measure's (the vocabulary's
    ``heading_topics``, ``heading_measures``), does not open with a topic's word ("Risks Related to Operating a Global
    Business"), and either ends in a part's kind word ("Segment") or is used as a name in the evidence's running text
    (``_named_in_text``), or is set in capitals as a heading of ``styled`` is (headings known to name parts: a
    filing sets its segments' sections alike, "CONVERSE" beside "EUROPE, MIDDLE EAST & AFRICA") and has no topic's
    word, or names a place only (the vocabulary's ``heading_places``: "NORTH AMERICA", "Greater China"); '' where none
    does."""
    vocab = narrative()
    for heading in headings:
        if period_heading(heading):
            continue  # "2020 v. 2019", "Fiscal year 2015 compared with ...", "Year-to-date results": a period's section
        tail = _KIND_TAIL.match(heading)
        name = tail.group("name") if tail else heading
        found = NAME_WORD.findall(name)
        if not found or len(found) > PART_NAME_WORDS or name.split()[-1].lower() in NOT_LAST:
            return ""  # a topic's long title, or one cut short ("Gain on Sale of"): no part's name
        words = [letters(w) for w in found if w.lower() not in LEGAL_FORMS]
        if words and words[0] in vocab.heading_topics:
            return ""  # a topic's heading about a part ("Risks Related to ...", "Overview of the Pharmacy Services")
        keys = _keys(words, plain)
        if _own(keys):
            # a heading that is one code in capitals ("AMESA", "FLNA") is a division's name however the text uses it
            code = bool(_CODE.fullmatch(name))
            sibling = name.isupper() and any(k != heading and k.isupper() for k in styled) \
                and not any(w in vocab.heading_topics for w in keys)
            place = all(w in vocab.heading_places for w in words if w not in LOWER_IN_TITLES)
            return name if tail or code or sibling or place or _named_in_text(name, texts) else ""
        if any(w in vocab.heading_topics for w in keys):
            return ""
    return ""

"""Summary checks of how a claim is told: every word quoted, the claim not.

A forecast told as a fact, a direction the quotes dispute, a change given to its driver, a quote's statement denied,
a driver told as an offset (or an offset as a driver), the pairs of a "respectively" swapped, a sentence citing
another quote than the one whose words it uses, words only other quotes have.
"""

from __future__ import annotations

import re

from engine.ask.checks import CITATION, cited_numbers
from engine.ask.faithful.reading import (
    _CLAUSES,
    _FULL_STOP,
    _HEAD_END,
    _LACKS,
    _NEGATION,
    _NOT_MOVES,
    _OPENING,
    _YES,
    RESPECTIVELY,
    Reading,
    _change_of,
    _drivers_kind,
    _figure,
    _first_cue,
    _first_direction,
    _forward_word,
    _grams,
    _head,
    _mover,
    _plain_words,
    _quote_sentences,
    _restated,
)
from engine.ask.narrative import DATED_MAY, YEAR
from engine.ask.question import NAME_WORD
from engine.ask.routing import LEGAL_FORMS
from engine.ask.subjects import (
    CONTENT_WORD,
    common_stems,
    name_key,
    plain_stems,
    said_stems,
    word_stem,
)
from engine.library.lexical import STOPWORDS
from engine.numbers import Quantity, quantities, same_number
from engine.periods import asked_period
from engine.sentences import split_sentences
from engine.vocabulary import directions

_NO = re.compile(r"\W*no\b", re.I)


def _no_without_denial(r: Reading) -> list[str]:
    """A No to a yes/no question where no quote denies anything: a No is the quotes' only where one of them denies
    something ("Does it report any acquisitions?" answered No beside quotes that name none: that nothing is quoted is
    no quote saying there was none). It gives 'No'."""
    if r.q.yes_no and _NO.match(r.body) and not any(_NEGATION.search(x.text) for x in r.quotes):
        return ["No"]
    return []


def _yes_against_denial(r: Reading) -> list[str]:
    """A Yes to a yes/no question where a quote denies it in the question's own words, for the period asked ("Did
    Amazon repurchase any of its common stock in the first six months of 2023?" answered "Yes, Amazon repurchased
    46.2 million shares ... in 2022" beside "There were no repurchases of our common stock during the six months
    ended June 30, 2023"): '“Yes”: [3] says “There were no repurchases of our common stock ...”'. The denial holds
    every content word of the yes/no part (names, generic and period words aside) and names no year, or one asked."""
    q = r.q
    asked = next((p for p in (*q.parts, q) if p.yes_no), None)
    if asked is None or not _YES.match(r.body):
        return []
    plain = plain_stems(r.names)
    names = said_stems(w for w in CONTENT_WORD.findall(asked.text) if w[0].isupper())  # "our" in the filing's words
    words = said_stems([asked.text]) - plain - names - _QUANTIFIERS
    years = {y for y in (*asked.asked.years, asked.asked.fiscal_year) if y}
    if not words:
        return []
    for source, text, stems in _quote_sentences(r.quotes):
        named = {int(y) for y in YEAR.findall(text)}
        if _DENIES.search(text) and words <= stems and (not named or named & years):
            return [f"\u201cYes\u201d: [{source}] says \u201c{text}\u201d"]
    return []


_QUANTIFIERS = frozenset(word_stem(w) for w in ("any", "all", "some", "each", "every"))
"""Words of a yes/no question that ask how much of it ("any of its common stock"), which a denial need not repeat."""
_DENIES = re.compile(r"\b(?:no|not|none|never)\b|n[’']t\b", re.I)
"""A word that says something did not happen ("There were no repurchases", "did not repurchase any")."""


def _foretold(sentence: str, word: str) -> set[str]:
    """The stems of what a sentence tells is expected or may happen: its words from each of its forward-looking
    ``word`` to the clause's end ("may be asserted in the future": "asserted", "future"), stopwords, generic words and
    the words the sentence also states outside those clauses aside ("generally does not require collateral; however,
    the Company will require collateral in certain instances" foretells "certain instances", not "collateral")."""
    low = DATED_MAY.sub(" ", sentence.lower())
    spans = [(at.start(), at.end() + len(re.split(r"[,;:]", low[at.end():], maxsplit=1)[0]))
             for at in re.finditer(rf"(?<![a-z]){re.escape(word)}(?![a-z])", low)]
    told = [low[start:end] for start, end in spans]
    rest, at = [], 0
    for start, end in spans:
        rest.append(low[at:start])
        at = max(at, end)
    rest.append(low[at:])
    return said_stems(told) - said_stems(rest) - common_stems()


def _forecast_as_fact(r: Reading) -> list[str]:
    """A summary sentence that restates a quote sentence telling what is expected or may happen ("we expect that
    our cash flow from operations will decline") without any word that says so ("a decline in cash flow from
    operations"): it states a forecast as a fact; what the quote foretells must be in the sentence (one that leaves
    out its quote's closing "and further claims may be asserted in the future" states no forecast). Each gives
    'stated as fact (the quote says “expect”)'. The quote restated is the one holding most of the sentence's words
    (``FORECAST_SHARE`` of them, four at least). A name the sentence tells of (a word with a capital letter past its
    first, not the company's, no legal form) that every quote sentence naming it foretells ("We expect to fund the
    acquisition of iRobot Corporation" told as "Amazon completed the acquisition of iRobot Corporation") gives the
    same flag: no quote says it happened. A sentence telling a deal as agreed ("agreed to sell") states no closing."""
    summary, quotes, names = r.body, r.quotes, r.names
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
        if word:
            out.append(flag)
    return out


_AGREED = re.compile(r"\bagree(?:s|d)?\s+to\b|\bagreements?\s+to\b", re.I)
"""A deal told as agreed ("agreed to sell", "entered into an agreement to acquire"): its closing still to come."""
_ANY_CAPITAL = re.compile(r"(?<![\w-])[a-z]*[A-Z][\w&'’-]*")
"""A word with a capital letter ("iRobot", "Corporation"): a name, where it does not open its sentence."""


_RATE_WORD = re.compile(r"\b(?:percentage|percent|rate|ratio)\b|%", re.I)
"""A word that makes an item its rate: "Services gross margin percentage" moves apart from "Services gross margin"."""
_RATE = "%"


def _moves(sentence: str, plain: set[str]) -> tuple[frozenset[str], bool] | None:
    """What a sentence says moved and which way: the stems of its subject (``_mover``, less ``plain``) and whether
    its first direction word says up; None where the subject has fewer than two such words (a bare "Revenue")."""
    rises, _ = directions()
    text = CITATION.sub(" ", sentence)
    who = _mover(text)
    stems = frozenset(said_stems([who]) - plain)
    if len(stems) < 2:
        return None
    if _RATE_WORD.search(who):
        stems |= {_RATE}  # "gross margin percentage" is not "gross margin" (generic as "percentage" is)
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


_CLAUSE_BREAK = re.compile(r"[;:]\s*|,\s+(?:and|but|while|whereas|although|though)\s+", re.I)
"""Where a sentence's next clause starts: what one denies is not said of the clause before."""


def _denied(r: Reading) -> list[str]:
    """A sentence of the summary that denies what a quote sentence says without denial: "The amortization of
    intangible assets was not related to this." beside [4]'s "... was primarily related to asset impairments ... and
    the amortization of intangible assets" gives '[4] says it without “not”: “the amortization of intangible
    assets”'. The words of what it denies, before the denial (two at least; the question's, the company's, generic
    and stop words aside), must all be in the one quote sentence, which has no denial of its own ("not", "no",
    "never", "without"), so that the denied claim is the quote's. A sentence saying what the quotes lack, or a "not
    only ... but" that adds, denies nothing."""
    summary, quotes, q, names = r.body, r.quotes, r.q, r.names
    plain = plain_stems(names) | said_stems([q.text])
    theirs = [(x.source, s) for x in quotes for s in split_sentences(x.text) if not _NEGATION.search(s)]
    out: list[str] = []
    for sentence in split_sentences(summary):
        denial = _DENIAL.search(sentence)
        if denial is None or _LACKS.search(sentence) or _NOT_ONLY.search(sentence) or _NOT_SAID.match(
                sentence, denial.end()):
            continue
        # the denial's own clause: "X was suspended; the effect was not material" denies nothing of the suspension
        clause = max((m.end() for m in _CLAUSE_BREAK.finditer(sentence, 0, denial.start())), default=0)
        own = {word_stem(w) for w in CONTENT_WORD.findall(sentence[clause:denial.start()]) if word_stem(w) not in plain}
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
            out.append(flag)
            break
    return out


DENIED_WORDS = 3
"""How many content words after a quote's "not" make the predicate it denies ("not focused on the Company")."""
_AUXILIARIES = frozenset({"be", "been", "being", "have", "has", "had"})
"""Words of a denied predicate that tense only ("have not been materially affected" denies "materially affected")."""
_AGENT = re.compile(r"\s+by\s+", re.I)
"""A passive's agent after what is denied ("not been materially affected by risks from ...")."""


def _predicate(text: str) -> list[str]:
    """The content words of what a "not" denies (``DENIED_WORDS`` at most), tense words aside."""
    return [w for w in CONTENT_WORD.findall(text) if w.lower() not in _AUXILIARIES][:DENIED_WORDS]


_LISTED_SUBJECT = re.compile(r"(?:^|[.;:]\s+)(?:our|its|their|the)?\s*[\w\s-]+(?:,\s*[\w\s-]+)+,?\s+and\s+[\w\s-]+$",
                             re.I)
"""A clause's subject that lists several things right before its verb ("Our business strategy, results of
operations and financial condition")."""


def _affirmed(r: Reading) -> list[str]:
    """A sentence of the summary that says, without denial, what a quote sentence denies: "The U.S. Attorney's
    investigation is focused on the Company." beside [1]'s "... continues to believe that the investigation is not
    focused on the Company" gives '[1] says “not focused on the Company”'. The denied predicate is the content words
    right after the quote's "not" (up to ``DENIED_WORDS``, the company's name counting as one); the summary sentence
    must hold them all, in that order, and the word the quote denies them of (the one right before "is not", or
    any of a list's there: "Our business strategy, results of operations and financial condition have not been
    materially affected"), and deny nothing itself."""
    summary, quotes = r.body, r.quotes
    plain = set(common_stems())
    out: list[str] = []
    denials = []
    for x in quotes:
        for s in split_sentences(x.text):
            for m in _DENIAL.finditer(s):
                if _NOT_ONLY.match(s, m.start()):
                    continue
                denied = s[m.end():m.end() + 80]
                if (agent := _AGENT.search(denied)) and len(_predicate(denied[:agent.start()])) >= 2:
                    denied = denied[:agent.start()]  # "not been materially affected by risks from ...": no agent
                after = _predicate(denied)
                before = [w for w in CONTENT_WORD.findall(s[max(0, m.start() - 60):m.start()])
                          if word_stem(w) not in plain]
                # one word ends its sentence ("The effect of these actions on our results was not material."): the
                # whole predicate
                whole = len(after) == 1 and not CONTENT_WORD.search(s[m.end():].split(after[0], 1)[-1])
                if (len(after) >= 2 or whole) and before:
                    # what is denied of: the word right before, or any of a list's ("Our business strategy, results
                    # of operations and financial condition have not been materially affected")
                    listed = _LISTED_SUBJECT.search(s[:m.start()])
                    subjects = {word_stem(before[-1])} | ({word_stem(w) for w in CONTENT_WORD.findall(listed.group(0))
                                                          if w.lower() not in STOPWORDS} if listed else set())
                    denials.append((x.source, [word_stem(w) for w in after], subjects,
                                    s[m.start():m.end() + 80].split(",")[0].split(";")[0].rstrip(" .")))
    for sentence in split_sentences(summary):
        if _NEGATION.search(sentence) or _LACKS.search(sentence):
            continue
        mine = [word_stem(w) for w in CONTENT_WORD.findall(sentence)]
        held = set(mine)
        for src, predicate, subjects, said in denials:
            if not subjects & held or not _runs_in(predicate, mine):
                continue
            flag = f"[{src}] says \u201c{_clip(said.strip(), 60)}\u201d"
            out.append(flag)
    return out


def _direction_disputed(r: Reading) -> list[str]:
    """A direction the quotes do not agree on, told one way: "More Personal Computing revenue increased, primarily
    due to ..." where another quote says "More Personal Computing revenue decreased $2.7 billion" (a filing
    discusses each year in turn, and a quote may be the year before's) gives '[5] says “More Personal Computing
    revenue decreased”'. The subject must be the same words (two at least, the company's name and generic words
    aside). A sentence that names its year is judged only against quote sentences that give the same item's
    direction for that year ("The increase in net interest income in 2023" where [5] says "Net interest income ...
    was $6.35 billion for 2023, 17% lower than 2022" gives '[5] says “Net interest income ... lower”'); one that
    names another period ("in the second quarter of 2022") is not judged: it says which of the quotes' periods it
    tells."""
    summary, quotes, names = r.body, r.quotes, r.names
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
            out.append(flag)
    return out


def _paired(sentence: str, plain: set[str]) -> list[tuple[str, Quantity]]:
    """A "respectively" sentence's names and figures in pairs, in order ("factories in Vietnam, Indonesia and China
    manufactured approximately 50%, 27% and 18% ..., respectively": Vietnam 50%, Indonesia 27%, China 18%): the
    names (``NAME_WORD``, less ``plain`` and periods) before its first figure, as many as its figures; [] for another
    sentence, or one whose counts differ."""
    if not RESPECTIVELY.search(sentence):
        return []
    figures = [v for v in quantities(sentence) if _figure(v)]
    if len(figures) < 2:
        return []
    opening = len(sentence) - len(sentence.lstrip(_OPENING))
    named = [m.group(0) for m in NAME_WORD.finditer(sentence[:figures[0].start])
             if m.start() > opening and name_key(m.group(0)) not in plain and not asked_period(m.group(0)).text]
    return list(zip(named, figures, strict=True)) if len(named) == len(figures) else []


def _pairs_swapped(r: Reading) -> list[str]:
    """Figures of a "respectively" sentence given to other names than the quote's pairs them with: "China and Vietnam
    manufactured approximately 50% and 27%, respectively" against "Vietnam, Indonesia and China ... 50%, 27% and
    18%, respectively" gives '50%: [3] gives it for “Vietnam”' (the summary's names are each one the quote pairs
    with another figure)."""
    summary, quotes, names = r.body, r.quotes, r.names
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
                out.append(flag)
    return out


_COMPARED = re.compile(r"^[^;.]*?\b(?:(?:was|were|is|are|been|be|remained|stood)\s+(?:\w+\s+)?(?P<cmp>higher|greater|"
                       r"larger|bigger|more|lower|smaller|less|fewer)\s+than|(?P<verb>exceed(?:ed|s)?|surpass(?:ed|es)?|"
                       r"outpaced|topped|trailed))\b[^;.]*$", re.I)
"""What stands between two figures that compares the first with the second ("... was higher than the unrealized
gain of ..."; "... exceeded ..."), in one clause. "more than $5 billion" after no verb says about how much."""
_MORE = frozenset({"higher", "greater", "larger", "bigger", "more", "exceed", "exceeded", "exceeds", "surpass",
                   "surpassed", "surpasses", "outpaced", "topped"})


def _compared_untrue(r: Reading) -> list[str]:
    """Two figures a summary sentence compares the wrong way: "The realized gain of $20 million in 2021 was higher
    than the unrealized gain of $20 million in 2022" gives '“higher than”: $20 million is not higher than $20
    million'. Whatever the quotes say, the figures as written must bear the comparison: the first figure before a
    comparison ("was higher than", "exceeded") and the next after it, both percents or both amounts."""
    out: list[str] = []
    for sentence in split_sentences(r.body):
        figures = [v for v in quantities(sentence) if _figure(v)]
        for a, b in zip(figures, figures[1:], strict=False):
            m = _COMPARED.match(sentence[a.end:b.start])
            if m is None or a.percent != b.percent:
                continue
            word = (m["cmp"] or m["verb"]).lower()
            first, second = a.value * a.scale, b.value * b.scale
            if (first > second) != (word in _MORE) or first == second:
                said = f"{word} than" if m["cmp"] else word
                flag = f"\u201c{said}\u201d: {a.raw.strip()} is not {'higher' if word in _MORE else 'lower'} than " \
                       f"{b.raw.strip()}"
                out.append(flag)
    return out


_SOURCES = r"\[\d+(?:\s*,\s*\d+)*\]"
_SOURCE_AS_ANSWER = re.compile(rf"(?:\b(?:is|are|was|were|as|named|totaled|totalled)\s+|:\s*)"
                               rf"({_SOURCES}(?:\s*(?:,|and)?\s*{_SOURCES})*)"
                               r"(?=\s*(?:[.;,]|$|(?:under|in|for|on|at|and)\b))", re.I)
"""Source numbers standing where what is asked should ("Pfizer's partner on ARV-471 is [10]", "recorded as [8]",
"The cumulative losses are [3] [4].", "two troubled development programs: [1] and [2]"): after a form of "be", "as"
or a colon, ending its clause ("taxes paid [2]" and "consistent with [2]" cite)."""


def _source_given_as_answer(r: Reading) -> list[str]:
    """A source number given as the answer itself: "Pfizer's partner on ARV-471 is [10]. ... The payment was recorded
    as [8]." gives '“is [10]”: a source number, not what it says'. A citation follows a claim; here it
    is the claim, and no quote is checked."""
    return [f"\u201c{' '.join(m.group(0).split())}\u201d: a source number, not what it says"
            for m in _SOURCE_AS_ANSWER.finditer(r.summary)]


_ANSWER_CLAUSE = re.compile(r",?\s*\b(?:while|whereas|but)\s+|;\s*", re.I)
"""Where one clause of a summary sentence ends and the next begins ("..., while enterprise products serve ...")."""


def _answer_restates_subject(r: Reading) -> list[str]:
    """A clause answering with the question's own verb (``Question.asking``) whose answer is only its subject's
    words again: "Carrier products serve carriers, while enterprise products serve enterprises" for "whom does each
    product group serve?" gives '“carriers” only restates “Carrier products”'. Each word may be quoted somewhere;
    the clause still says nothing of whom or what, which no quote supports."""
    verbs = {word_stem(v) for p in (r.q, *r.q.parts) for v in p.asking}
    if not verbs:
        return []
    out: list[str] = []
    for sentence in split_sentences(r.body):
        for clause in _ANSWER_CLAUSE.split(sentence):
            words = [w for w in CONTENT_WORD.findall(clause) if w.lower() not in STOPWORDS]
            at = next((i for i, w in enumerate(words) if i and word_stem(w) in verbs), None)
            if at is None:
                continue
            subject, answer = words[:at], words[at + 1:]
            if answer and {word_stem(w) for w in answer} <= {word_stem(w) for w in subject}:
                out.append(f"\u201c{' '.join(answer)}\u201d only restates \u201c{' '.join(subject)}\u201d")
    return out


def _direction_given_to_driver(r: Reading) -> list[str]:
    """A quote's change told as its driver's: "Debt maturities in the ordinary course decreased" where the quote says
    "Interest expense (net of interest income) decreased ... driven by debt maturities in the ordinary course" gives
    '[4] says “decreased” of “Interest expense (net of interest income)”, not of “Debt maturities in the ordinary
    course”'. For a drivers question: a summary clause whose subject (its words before its first direction verb, no
    cue before it) a quote sentence writes after its first cue, word for word, where the words before the cue carry
    the same direction and none of the subject's (besides the question's and names); unless a quote gives that
    direction to the subject's words itself ("lower debt maturities", "debt maturities decreased")."""
    summary, quotes, q, names = r.body, r.quotes, r.q, r.names
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
                    out.append(flag)
                    break
    return out


DRIVER_WORDS = 2
"""The fewest words (besides the question's and names) a summary subject needs to be read as a quote's driver."""
GIVEN_REACH = 3
"""How many words from a driver's name a direction word may stand to be said of it ("lower debt maturities")."""


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


_OFFSET_BY = re.compile(r"\b(?:(?:partially|partly|largely|more\s+than|in\s+part)\s+)?offsets?(?:\s+in\s+part)?\s+by\b|"
                        r"\boffsetting\b", re.I)


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


def _offset_swapped(r: Reading) -> list[str]:
    """A driver told as an offset, or an offset as a driver: "driven by higher net sales of iPhone 14 Pro models,
    partially offset by lower net sales from certain iPhone models" where the quote says "decreased ... due
    primarily to lower net sales from certain iPhone models, partially offset by higher net sales of iPhone 14 Pro
    models" gives '[6] gives “higher net sales” as an offset'. Each side of a sentence's "offset by" (the whole
    sentence where it has none: all drivers) is compared, ``OFFSET_GRAM`` content words in a row, with the sides of
    the quotes' sentences (a list's items with their lead-in); words that only ever stand on the other side are
    swapped."""
    summary, quotes, names = r.body, r.quotes, r.names
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
                    out.append(flag)
                    break
    return out


_TRAILING_CITATIONS = re.compile(r"(?:\s*(?:[.;,]\s*)?\[\d+(?:\s*,\s*\d+)*\])+\s*(?:[.;,]\s*)?$")
r"""The citations that end a sentence ("... physical stores [4]." or "... physical stores. [5]"). Each run of spaces
has one place in it (before a stop or after it), so a long run of citations followed by more text fails at once:
"\s*[.;,]?\s*" could share the spaces between its two runs in many ways, and took minutes on a model's answer
with a dozen citations in a row."""


def _cited_elsewhere(r: Reading) -> list[str]:
    """A summary sentence that restates one quote sentence (``_restated``) but cites other quotes, not it ("The
    increase in fulfillment costs ... physical stores. [5]" where the words are [4]'s and [5] defines the costs):
    the reader who opens the cited page finds nothing of it. Each gives '[5] cited: the words are [4]'s'. Only
    citations that end a sentence are judged (one standing after its full stop belongs to it); a sentence with a
    citation inside it (a list's lead-in, "[7] states that ...") or citing evidence that is no quote (a table's
    cells) is not, nor one whose cited quotes say it too (as many of its words, or every figure it gives: "net sales
    fell by $10.5 billion [1]" where [1] gives the $10.5 billion and another quote more of the words)."""
    summary, quotes = r.summary, r.quotes
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
        out.append(flag)
    return out


_LEADING_CITATION = re.compile(r"^\W*((?:\[\d+\][\s,]*)+)(?:indicates|states|says|shows|notes|reports|mentions|"
                               r"explains|adds)\b", re.I)
"""A sentence that opens by naming its quote ("[2] indicates that ...")."""


def _words_of_other_quotes(r: Reading) -> list[str]:
    """A sentence that cites one quote ("[2] indicates that ...", or a citation ending it) but tells words only other
    quotes have: "[2] indicates that the margin decreased due to ... outsourced hardgoods manufacturing costs" where
    "outsourced hardgoods" are [6]'s gives '[2] does not say “outsourced”': the reader who opens [2] does not find
    it. Words of the question, names and generic words aside; a sentence citing evidence that is no quote, or with
    a citation inside it, is not judged."""
    summary, quotes, q, names = r.summary, r.quotes, r.q, r.names
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
                out.append(flag)
                break
    return out

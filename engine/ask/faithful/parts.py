"""Summary checks of whose a fact is: a part of the company, an owner, a segment, a section heading or a party
other than the one the quote tells it of.

What a clause says of a name no quote says it of, a name asked that no quote names, another part told for the one
asked, a sentence of another part's section, whose of several quotes' figures, a part told from the whole's sentence
or the whole's told as a part's, a figure of another name, one role's parties told as another's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from engine.ask.checks import CITATION
from engine.ask.faithful.reading import (
    _CLAUSES,
    _FURNITURE,
    _OPENING,
    NAMED_BEFORE,
    RESPECTIVELY,
    Reading,
    _acronym_of,
    _asked_letters,
    _capitalised,
    _figure,
    _lead_in,
    _lead_ins,
    _lead_item,
    _mover,
    _name_keys,
    _quote_sentences,
    _restated,
    _same_part,
    _told_after,
    _told_from,
)
from engine.ask.question import ENDS_POSSESSIVE, NAME_WORD, Question
from engine.ask.routing import LEGAL_FORMS
from engine.ask.subjects import (
    CONTENT_WORD,
    asked_names,
    asked_parts,
    common_stems,
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
from engine.numbers import CURRENCY, Quantity, quantities, same_number
from engine.periods import asked_period, years_named
from engine.sentences import split_sentences
from engine.types import Quote
from engine.vocabulary import directions, items_named, narrative


def _quote_wholes(quotes: Sequence[Quote]) -> list[tuple[int, str, set[str]]]:
    """Each quote whole, in ``_quote_sentences``' shape: what a sentence telling a quote's list in one restates."""
    return [(x.source, x.text, said_stems([x.text])) for x in quotes]


_CURRENCY = re.compile(CURRENCY)
_NAME = re.compile(r"\b(?:(?<!\d-)[A-Z][A-Za-z&'’-]*|\d+[A-Za-z][\w-]*)")
"""A word that names something: capitalised ("Network", "F-22") or a number run into letters ("777X"); not the form
letter of a filing's name ("the 2018 10-K", "its 10-Q", "Form 20-F")."""


def _before(sentence: str, at: int, plain: set[str]) -> tuple[dict[str, str], set[str]]:
    """The names (``_NAME``, by stem) among the ``NAMED_BEFORE`` words before a position, less ``plain`` stems,
    currencies ("EUR") and periods ("Q3", "FY2022"), and the stems of all those words; parentheses and the running
    head left out (``_FURNITURE``)."""
    text = " ".join(_FURNITURE.sub(" ", _since_figure(sentence, at)).split()[-NAMED_BEFORE:])
    named = {word_stem(m.group(0)): m.group(0) for m in _NAME.finditer(text)
             if word_stem(m.group(0)) not in plain and not _CURRENCY.fullmatch(m.group(0))
             and not asked_period(m.group(0)).text}
    return named, said_stems([text]) | {word_stem(m.group(0)) for m in _NAME.finditer(text)}


def _words_before(sentence: str, at: int) -> str:
    """The ``NAMED_BEFORE`` words before a position, from the last clause break (a figure's own clause: "Revenues
    were $307.4 billion, an increase of 9%, primarily driven by an increase in Google Services revenues of")."""
    text = " ".join(_FURNITURE.sub(" ", _since_figure(sentence, at)).split()[-NAMED_BEFORE:])
    return re.split(r"[,;:]", text)[-1]


def _since_figure(sentence: str, at: int) -> str:
    """A sentence's text before a position, from the end of the last figure before it: the words before that figure
    are its own ("15% growth in net sales in Optical Communications of $674 million and 34% growth in Hemlock":
    nothing before the 34% is named for it)."""
    earlier = [w for w in quantities(sentence[:at]) if _figure(w)]
    return sentence[earlier[-1].end:at] if earlier else sentence[:at]


def _figures_of_others(r: Reading) -> list[str]:
    """A figure of the summary that every quote sentence stating it gives for something else: the names before it
    in the summary ("Google Cloud revenues increased $8.6 billion") and in the quote ("Google Network revenues
    increased $8.6 billion") each hold one the other lacks. It gives '$8.6 billion: [9] gives it for “Network”'
    (a figure of one segment, region or program told as another's: two regions' growth rates swapped, the 777's
    quantity told as the 777X's). So does one whose line item before it (``_lead_item``, in its clause) is another
    than every quote's gives it for: "operating income increased by $19.0 billion" where the quote's $19.0 billion
    is "an increase in Google Services revenues" gives '$19.0 billion: [9] gives it for “revenues”'. Counts and
    years are no such figures; a figure no quote states is flagged as such."""
    summary, quotes, names = r.body, r.quotes, r.names
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
                out.append(flag)
    return out


_PARTS = re.compile(r"\s*[;\u2022]\s*")
"""Where a quote sentence's parts part: a list's items ("about $80 million for the F-22 program due to ...;")."""


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


def _relation(q: Question, plain: set[str]) -> set[str]:
    """The stems a clause says of no name, whatever names it holds: ``plain``, the question's words and the cue words
    of every narrative kind ("due to", "acquired")."""
    return plain | said_stems([q.text]) | {word_stem(w) for k in narrative().kinds for c in k.cues
                                           for w in CONTENT_WORD.findall(c)}


def _said_of_others(r: Reading) -> list[str]:
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
    summary, quotes, q, names = r.body, r.quotes, r.q, r.names
    plain = plain_stems(names)
    relation = _relation(q, plain)
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
                out.append(flag)
    return out


_NAME_LIST = re.compile(r"(?:[A-Z][\w&'\u2019.-]*\s+){0,3}[A-Z][\w&'\u2019.-]*"
                        r"(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)(?:[A-Z][\w&'\u2019.-]*\s+){0,3}"
                        r"[A-Z][\w&'\u2019.-]*)+")
"""Two or more names in a list ("China and India", "the Americas, EMEA and APAC")."""
_LIST_MEMBER = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")
_LIST_CLAUSE_END = re.compile(r"[;:.]|,\s+(?:while|whereas|but|and|which|offset|partially|partly)\b")


def _told_of_each(r: Reading) -> list[str]:
    """What a summary says of a list of names that the quotes say of some of them only: "Amazon has structured its
    businesses in China and India through contractual relationships with third parties that hold PRC licenses" where
    only China's sentence has the contractual relationships (India's say it regulates foreign ownership) gives 'no
    quote says “contractual” of “India”'. The list's clause (from the sentence's start or last ";" to the next
    clause's) says its words of each name of the list; a word is said of a name when a part of a quote sentence
    naming it holds it (``_name_parts``), and is flagged for a name whose parts lack it while another's hold it.
    Words of the question, names, directions and the narrative kinds' cue words are the relation; a "respectively"
    sentence gives each name its own."""
    summary, quotes, q, names = r.body, r.quotes, r.q, r.names
    plain = plain_stems([*names, *(x.doc for x in quotes)])
    relation = _relation(q, plain)
    rises, falls = directions()
    parts = _name_parts(quotes, plain, {name_key(w) for w in asked_names(q, plain)})
    asked = said_stems([q.text]) | {name_key(w) for w in NAME_WORD.findall(q.text)}
    out: list[str] = []
    for sentence in split_sentences(CITATION.sub(" ", summary)):
        if RESPECTIVELY.search(sentence):
            continue
        for m in _NAME_LIST.finditer(sentence):
            members = [w for w in _LIST_MEMBER.split(m.group(0)) if w]
            keys = [{name_key(n) for n in NAME_WORD.findall(w) if n.lower().strip(".") not in LEGAL_FORMS}
                    - plain for w in members]
            if sum(1 for k in keys if k) < 2 or any(asked_period(w).text for w in members):
                continue
            start = sentence.rfind(";", 0, m.start()) + 1
            end = (e.start() + m.end() if (e := _LIST_CLAUSE_END.search(sentence[m.end():])) else len(sentence))
            clause = sentence[start:m.start()] + " " + sentence[m.end():end]
            said = [w for w in CONTENT_WORD.findall(clause)
                    if (st := word_stem(w)) not in relation and w.lower() not in STOPWORDS
                    and not NAME_WORD.fullmatch(w) and not rises.fullmatch(w) and not falls.fullmatch(w)
                    and any(st in p for p in parts)]
            listed = set().union(*keys)
            # the names after the list, which the clause gives each member (those before it are its subject's)
            partners = [n for n in NAME_WORD.findall(sentence[m.end():end]) if n.lower().strip(".") not in LEGAL_FORMS
                        and (k := name_key(n)) not in plain and k not in listed and k not in asked]
            for member, own in zip(members, keys, strict=True):
                if not own:
                    continue
                mine = [p for p in parts if own & p]
                if not mine and not own & asked:
                    continue  # a name neither the quotes nor the question name is flagged as such ("Aviation")
                others = [p for p in parts if p not in mine and any(k & p for k in keys if k and k != own)]
                lacking = [w for w in said if not any(word_stem(w) in p for p in mine)
                           and any(word_stem(w) in p for p in others)]
                if lacking:
                    out.append(f"no quote says \u201c{lacking[0].lower()}\u201d of \u201c{member}\u201d")
                    continue
                # a party the quotes name beside other members only ("XARELTO, IMBRUVICA and DARZALEX for
                # collaboration with Bayer HealthCare AG" where only XARELTO's sentence names Bayer)
                party = next((n for n in partners if not any(name_key(n) in p for p in mine)
                              and any(name_key(n) in p for p in others)), "")
                if party:
                    out.append(f"no quote says \u201c{party}\u201d of \u201c{member}\u201d")
    return out


def _unquoted_subject(r: Reading) -> list[str]:
    """A name the question asks about that no quote names: "What drove revenues of Boeing's Commercial Airplanes
    segment?" answered from quotes of BGS and BDS gives 'no quote names “Commercial Airplanes”' (whatever the
    summary says of it, the quotes are another's). The question's names are its capitalised words and codes
    (``Question.names``, less the company's name and legal forms: ``asked_names``), taken in runs ("Commercial
    Airplanes"); a quote names a run when it has one of its words capitalised (a segment's name: "higher commercial
    parts revenue" names no Commercial Airplanes segment), or an acronym whose letters are the initials of the
    question's names in order and include the run's first ("BDS" for "Boeing Defense, Space & Security"). The
    ``passages`` the quotes come from count as the quotes' (a section's heading names the segment its sentences are
    about: "Latin America")."""
    quotes, q, names, passages = r.quotes, r.q, r.names, r.headed
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


def _told_under(source: int, quotes: Sequence[Quote], passages: Sequence[str]) -> list[str]:
    """What the quotes of ``source`` are told under (``_lead_in``)."""
    return [_lead_in(x, passage) for x, passage in zip(quotes, passages, strict=False) if x.source == source]


def _another_part(r: Reading) -> list[str]:
    """A summary that tells what moved of another named part than the one the question asks about, and names the
    asked one nowhere: "Revenue from Digital Marketing increased $227.7 million ..." for "What drove the change in
    Adobe's Digital Media revenue?" gives '“Digital Marketing” is not “Digital Media”' (the quotes tell of both
    segments; the summary took the other's sentence). The part told is a name in the subject of a sentence's first
    direction verb (``_mover``; not its first word, nor the company's or documents' names, legal forms, currencies,
    periods, nor a word of the asked names), one a quote names too; a subject that opens with a direction ("Higher
    737 deliveries increased revenues") is a cause, not a part. The asked part is named by all the name words of one
    of the question's names (``asked_names``: the company's name aside), or by its acronym ("BCA")."""
    summary, quotes, q, names, passages = r.body, r.quotes, r.q, r.names, r.headed
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
            out.append(flag)
    return out


_RUN_IN_TITLE = re.compile(r"(?:^|[.!?:]\s+)(?P<title>[A-Z][\w&'\u2019-]*\s+(?:(?:(?:for|of|and|on|from)\s+)?"
                           r"[A-Z][\w&'\u2019-]*\s+){0,4})(?=[A-Z][a-z])")
"""Capitalised words (joined by "for", "of", ...) after a sentence's end, up to the capital that starts the next
sentence: a heading run into the text ("... net revenue grew. Other Consolidated Results Other pension ...
increased", "... for further information. Provision for Income Taxes The following table ...")."""


_NOTE_HEADING = re.compile(r"\bNote\s+\d{1,2}\s*[-\u2013\u2014.:]\s*(?=[A-Z])")
"""A financial statement note's heading run into the passage ("Note 11 - Derivative Financial Instruments We enter
into ..."): a section of its own begins there, whatever heading was read above the passage."""


def _topic_run_in(text: str) -> bool:
    """Whether a passage's text runs a topic's or a line item's heading into it (``_RUN_IN_TITLE`` of two words or
    more, one a topic's: "Other Consolidated Results"; or naming a line item: "Provision for Income Taxes"): the
    section above it (a segment's) has ended there."""
    topics = narrative().heading_topics
    return any(len(words := m.group("title").split()) >= 2
               and (items_named(m.group("title")) or (all(w[0].isupper() for w in words)  # not "Table of Contents"
                                                      and any(letters(w) in topics for w in words)))
               for m in _RUN_IN_TITLE.finditer(text))


def _under_another_heading(r: Reading) -> list[str]:
    """A summary sentence that restates a quote told under another part's section heading, and names that part nowhere:
    "Walmart International's gross profit rate decreased ... due to reduced tobacco sales" restating a sentence of the
    "Sam's Club Segment" section (which names no segment itself) gives '[4] is under the heading “Sam's Club”'; so does
    a segment's sentence told as the company's where the question asks about no part. The part is the one
    ``heading_part`` reads from the quote's passage's headings (``parts``, in the quotes' order); a sentence that names
    it, or a question that asks about it, is told in its section, as is one whose words (in any case) say every word of
    the heading ("Credit Facility" above a sentence of "revolving credit facilities"). A quote that opens by naming its
    own part (``opening_part``), or follows one in its passage, is told under that run-in heading instead: the nearest
    one."""
    summary, quotes, q, names, passages, parts = r.body, r.quotes, r.q, r.names, r.passages, r.parts
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
        if _NOTE_HEADING.search(best):
            continue  # the quote opens a note of its own ("Note 11 - Derivative Financial Instruments We enter ...")
        lead = _NOTE_HEADING.split(lead)[-1]  # a note's heading before it ends the sections above
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
        if (topic := said_stems([part]) - plain) and topic <= said_stems([q.text, sentence]):
            continue  # a heading in the words the question or the sentence uses, in any case, is what they tell of
            # ("Credit Facility" above "we entered into two new revolving credit facilities")
        flag = f"[{source}] is under the heading \u201c{part}\u201d"
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


def _whose_figure(r: Reading) -> list[str]:
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
    summary, quotes, names = r.body, r.quotes, r.names
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
        out.append(flag)
    return out


def _part_told_from_the_whole(r: Reading) -> list[str]:
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
    summary, quotes, q, names, passages = r.body, r.quotes, r.q, r.names, r.headed
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
    text_of: dict[int, list[str]] = {}
    for x in quotes:
        text_of.setdefault(x.source, []).append(x.text)  # every quote of a source, not its last only
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
        out.append(flag)
    return out


def _whole_told_as_part(r: Reading) -> list[str]:
    """A sentence of a section on the whole company told as the part the question asks about: "The comparable sales
    decreased 6.2% in the second quarter ..." for the Domestic segment, restating "... our comparable sales declined
    6.2% ..." under "Consolidated Results" (``[narrative.summary] heading_whole``), gives '[6] is about the whole
    company (“Consolidated Results”), not “Domestic”'. Only where neither the summary sentence, the quote sentence
    nor the passage's last words before it name a part (a name of the question's or any capitalised one)."""
    summary, quotes, q, names, passages, headings = r.body, r.quotes, r.q, r.names, r.passages, r.headings
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
        out.append(flag)
    return out


WHOLE_REACH = 300
"""How far back in a quote's passage a part named before it heads the sentence quoted (a run-in heading)."""


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


def _roles_crossed(r: Reading) -> list[str]:
    """Parties of one role told as the role asked: "Boeing's major customers include U.S. and non-U.S.
    subcontractors and suppliers" where the quote says "We rely on ... subcontractors and suppliers to ... perform
    some of the services that we provide to our customers" gives '“suppliers” are no “customers”'. The roles are the
    vocabulary's (``[narrative.parties] roles``); the role asked is the one the question names, and a quote that
    itself tells that role's parties in the other's words lets the summary do so."""
    summary, quotes, q = r.body, r.quotes, r.q
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
            out.append(flag)
    return out


_BE = r"(?:is|are|was|were|be|been|being|remains?|remained)"
_NAME_RUN = rf"(?:{NAME_WORD.pattern})(?:(?:\s+(?:of|and|&|for)\s+|,?\s+)(?:{NAME_WORD.pattern}))*"
_BY_NAME = re.compile(rf"\s+by\s+(?:the\s+)?({_NAME_RUN})")
"""Who does what a participle just before tells: "guaranteed by BMW AG"."""
_PASSIVE = re.compile(rf"\b{_BE}\s+(?:[a-z]+ly\s+)?$", re.I)
"""A participle's "to be" before it: "was stayed", "are fully hedged"."""
_OBJECT = re.compile(r"\s+(?:the|a|an|all|its|our|their|his|her|several|various|two|three|four|five|approximately|"
                     r"about|certain|new|\$|\d|[A-Z])", re.I)
"""What follows an active verb (its object: "filed several antitrust lawsuits", "acquired all of the shares"), not
an adjective's noun ("adjusted EPS") nor a participle's phrase ("cash acquired, ...", "revenues earned from")."""
_CLAUSE_START = re.compile(r"[;(]|:\s|\b(?:which|that|who|whereas|while|because|but)\b", re.I)
"""Where the clause a verb is told in begins, at the latest (the sentence's start where none is before it)."""
_SETTING = re.compile(r"^(?:(?:for|in|under|during|as|after|following|on|with|through|since|at|additionally|"
                      r"also|however|moreover|further)\b[^,]*,\s*)+", re.I)
"""A clause's opening setting before its subject ("In August 2022, we"; "For example, the U.S. Department of
Justice ..."; "Under the EMTN Program, the Company")."""
_HAVE_END = re.compile(r"[\s,]*(?:(?:has|have|had|also|[a-z]+ly)\s+)*$", re.I)
_FILER = re.compile(r"\b(?:we|us|our|(?:the\s+)?company|(?:the\s+)?firm|(?:the\s+)?registrant)\b", re.I)
"""The filer named by its own words in its filing."""
_ACT_ENDINGS = ("ing", "ed", "es", "s")


def _act_stem(word: str) -> str:
    """A verb or its noun as acts are compared: lower case, one inflection ending and a final "e" off ("filed",
    "filing" and "file"; "guaranteed", "guaranteeing" and "guarantee" are one act)."""
    w = word.lower()
    w = next((w[:-len(e)] for e in _ACT_ENDINGS if w.endswith(e) and len(w) - len(e) >= 3), w)
    while w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w


_SUED = _act_stem("sued")
_BRINGS = {_act_stem(w) for w in ("filed", "commenced", "initiated", "instituted", "lodged")}
_LEGAL_OBJECT = re.compile(r"\s+(?:[\w'’.-]+\s+){0,4}?(?:complaints?|lawsuits?|suits?|actions?|petitions?|claims?|"
                           r"proceedings?|cases?|arbitrations?)\s+(?:against|in|with|before)\b", re.I)
"""A suit's noun after "filed" (``_BRINGS``) and whom or where it is brought ("filed a patent infringement complaint
against"): filing one is suing, as an act ("Moderna sued Pfizer" and "Moderna filed a complaint against Pfizer" are
one act)."""


def _clause_before(sentence: str, at: int) -> str:
    """The words of a sentence's clause before a position, its opening setting (``_SETTING``) and a "has"/"have"
    and adverbs right before the position aside: who the verb there is told of ("the U.S. Department of Justice,
    various U.S. states, and other plaintiffs" of "For example, ... have filed")."""
    before = sentence[:at]
    starts = [m.end() for m in _CLAUSE_START.finditer(before)]
    return _SETTING.sub("", _HAVE_END.sub("", before[max(starts, default=0):]).strip(" ,"))


class Act(NamedTuple):
    """An act a sentence tells (``_acts``)."""

    stem: str
    """The act as acts are compared (``_act_stem``): "filed", "filing" and "file" are one."""
    word: str
    """The word that tells it, as written."""
    who: str
    """Who does it (``passive`` False) or what it is done to (``passive`` True), as the sentence words it."""
    passive: bool
    end: int
    """Where the word ends in its sentence (what follows it is told after the act)."""


_ING_ADJECTIVES = frozenset({"ongoing", "existing", "outstanding", "remaining", "leading", "operating", "underlying",
                             "pending", "continuing", "growing", "increasing", "decreasing", "following", "upcoming",
                             "prevailing", "recurring", "emerging", "evolving"})
"""Words ending in "-ing" that describe a noun after "by" rather than act on it ("cash generated by ongoing
operations", "by existing customers"): no act of the sentence's subject."""


def _acts(sentence: str, skip: set[str]) -> list[Act]:
    """The acts a sentence tells, with who does them or what they are done to: (act stem, word, who, passive, end of
    the word). An act is a past participle with "by" and a name after it ("guaranteed by BMW AG": the name does
    it), with "was"/"were" before it ("was stayed": who is what it is done to), or an active verb in the past
    before its object ("have filed several lawsuits": who is its clause's subject); or a present participle in a
    "by ...ing" run ("keeps ... under control by hedging ... and guaranteeing ...": the sentence's opening name does
    it). ``skip`` holds the stems of words that are no act (change and cue words)."""
    out: list[Act] = []
    for m in re.finditer(r"(?<![\w'’-])[a-z]{3,}(?![\w'’-])", sentence):
        word = m.group(0)
        if word in STOPWORDS or word_stem(word) in skip:
            continue
        stem, before = _act_stem(word), sentence[:m.start()]
        participle = word.endswith(("ed", "en"))
        if participle and (by := _BY_NAME.match(sentence, m.end())):
            out.append(Act(stem, word, by.group(1), False, m.end()))
        elif participle and (be := _PASSIVE.search(before)):
            out.append(Act(stem, word, _clause_before(sentence, be.start()), True, m.end()))
        elif word.endswith("ed") and _OBJECT.match(sentence, m.end()):
            if stem in _BRINGS and _LEGAL_OBJECT.match(sentence, m.end()):
                stem = _SUED  # "filed a complaint against", "commenced an action against": sued
            out.append(Act(stem, word, _clause_before(sentence, m.start()), False, m.end()))
        elif word.endswith("ing") and word not in _ING_ADJECTIVES and re.search(
                r"\bby\s+(?:[a-z]+ly\s+)?(?:[a-z]+ing\b.*\band\s+)?$", before) and (
                lead := re.match(rf"\s*(?:the\s+)?({_NAME_RUN})\s+[a-z]+(?:s|ed)\b", sentence)):
            out.append(Act(stem, word, lead.group(1), False, m.end()))
    return out


def _names_in(text: str, capitalised: set[str]) -> set[str]:
    """The keys of the names a text tells (``NAME_WORD``; legal forms kept: "BMW AG" is not "BMW Finance N.V."): a
    capitalised stopword ("The", "For") aside, and a word capitalised only as the text's first one unless it is
    written capitalised elsewhere (``capitalised``: "Google filed ..." names Google; "Cash used ..." names none)."""
    keys: set[str] = set()
    for m in NAME_WORD.finditer(text):
        w = m.group(0)
        if w.lower() in STOPWORDS or w.lower() in common_stems():
            continue
        if not text[:m.start()].strip(_OPENING) and name_key(w) not in capitalised:
            continue
        keys.add(name_key(w))
    return keys


def _same_doer(mine: set[str], theirs: str, filer: set[str], capitalised: set[str]) -> bool:
    """Whether a summary's doer (the keys of its names) is the doer a quote tells: a quote's doer that names no one
    ("the companies", "it") or names the filer by its own words ("we", "the Company", "the firm") is no other doer
    (the summary names the filer as it likes); else one's names are within the other's or they share a name word
    that is not the filer's ("Acme's Board" and "the Board of Directors"; "BMW AG" is not "BMW Finance N.V.")."""
    b = _names_in(_FILER.sub(" ", theirs), capitalised)
    if not b or _FILER.search(theirs) and not b - filer:
        return True
    return mine <= b or b <= mine or bool((mine & b) - filer)


def _doer_swapped(r: Reading) -> list[str]:
    """An act a summary gives one party that every quote naming who does it gives another: "Google filed antitrust
    lawsuits" where the quote says "the U.S. Department of Justice, various U.S. states, and other plaintiffs have
    filed several antitrust lawsuits"; "BMW Finance N.V. keeps the risk under control by ... guaranteeing the
    exposure" where the receivables "are guaranteed by BMW AG"; and what was done to one thing told of another the
    quote names after the act: "the appeal was stayed" where "the derivative lawsuit ... was stayed pending
    resolution of the plaintiffs' appeal". An act the quotes give a named doer ("are guaranteed by BMW AG") is read
    in the summary in the present tense too ("Moody's and S&P ratings guarantee the debt securities"); a doer the
    summary names for an act no quote tells, taken from a quote of another matter, is flagged
    (``_named_elsewhere``). A summary's doer is checked where it is a name, not an owner ("Acme's
    revenue"); a quote telling the act another way (an active verb against a passive one, no doer named) says
    nothing either way. Change and the drivers' cue words are no acts (``_direction_disputed`` and the drivers'
    checks judge them)."""
    summary, quotes = r.body, r.quotes
    rises, falls = directions()
    drivers = narrative().kind("drivers")
    skip = {word_stem(w) for c in (drivers.cues if drivers else ()) for w in CONTENT_WORD.findall(c)} | set(
        common_stems())
    written = [*(x.text for x in quotes), r.q.text, *r.names, *r.passages]
    capitalised = {name_key(m.group(0)) for t in written for s in split_sentences(t)
                   for m in NAME_WORD.finditer(s) if s[:m.start()].strip(_OPENING)}
    filer = {k for n in r.names for k in _names_in(n.replace("_", " "), capitalised | {name_key(n)})} | {
        name_key(w) for aliases in r.q.companies.values() for a in aliases for w in NAME_WORD.findall(a)}
    told = [(x.source, s, a) for x in quotes for s in split_sentences(x.text) for a in _acts(s, skip)]
    named_by = {a.stem for _, _, a in told if not a.passive}
    out: list[str] = []
    for sentence in split_sentences(summary):
        for act in [*_acts(sentence, skip), *_present_acts(sentence, named_by)]:
            if rises.fullmatch(act.word) or falls.fullmatch(act.word):
                continue
            theirs = [(src, s, a) for src, s, a in told if a.stem == act.stem]
            if act.passive:
                # what the act is done to: the head of the summary's subject, which the quotes tell it of
                head = said_stems([act.who]) - common_stems()
                done_to = [(src, s, a) for src, s, a in theirs if a.passive]
                if head and done_to and len(done_to) == len(theirs) and all(
                        not head & said_stems([a.who]) and head & said_stems([s[a.end:]]) for _, s, a in done_to):
                    src, _, a = max(done_to, key=lambda d: len(said_stems([d[2].who])))
                    out.append(f"[{src}] says \u201c{_shown(a.who)}\u201d {act.word}, not "
                               f"\u201c{act.who.strip()}\u201d")
                continue
            # the summary's doer: the name run right before its verb, not an owner's ("Acme's revenue"); a
            # present-tense act's whole subject ("Moody's A2 and S&P A ratings guarantee ...")
            run = re.search(rf"({_NAME_RUN})$", act.who)
            owner = run is not None and ENDS_POSSESSIVE.search(run.group(1))
            doer = run.group(1) if run is not None and not owner else act.who if act.word[-1] != "d" else ""
            if not doer or not (mine := _names_in(doer, capitalised)):
                continue
            doers = [(src, a) for src, _, a in theirs if not a.passive]
            if doers and not any(_same_doer(mine, a.who, filer, capitalised) for _, a in doers):
                src, a = doers[0]
                out.append(f"[{src}] gives \u201c{a.word}\u201d to \u201c{_shown(a.who)}\u201d, not "
                           f"\u201c{_shown(doer)}\u201d")
            elif not theirs and mine - filer and (source := _named_elsewhere(sentence, act, doer, mine, r)):
                out.append(f"[{source}] does not say \u201c{_shown(doer)}\u201d {act.word}")
    return out


_CLAUSE_END = re.compile(r",\s+(?:and|but|while|whereas)\b|[;:]")
"""Where the clause an act is told in ends ("..., and Google plans to appeal" is another claim)."""


def _named_elsewhere(sentence: str, act: Act, doer: str, mine: set[str], r: Reading) -> int | None:
    """The quote a summary took a doer's name from for an act no quote tells of it, where that quote's sentences
    naming it share nothing else with the summary's sentence: "The remedies will be decided by the General Court"
    from "the General Court rejected our appeal" of another matter. A quote telling the act of the name, or naming
    it beside the summary's other words ("the Board of Directors of Alphabet authorized ... repurchase" for
    "Alphabet's Board approved a share repurchase"), is its source; None when no quote names it."""
    capitalised = {name_key(m.group(0)) for x in r.quotes for s in split_sentences(x.text)
                   for m in NAME_WORD.finditer(s) if s[:m.start()].strip(_OPENING)}
    after = sentence[act.end:]
    clause = sentence[:act.end] + (after[:cut.start()] if (cut := _CLAUSE_END.search(after)) else after)
    rest = said_stems([clause]) - said_stems([doer, act.word]) - common_stems()
    naming = [(x.source, s) for x in r.quotes for s in split_sentences(x.text) if _names_in(s, capitalised) & mine]
    if not naming or any(_tells_act(s, act.stem) or rest & said_stems([s]) for _, s in naming):
        return None
    return naming[0][0]


def _present_acts(sentence: str, stems: set[str]) -> list[Act]:
    """The acts a summary tells in the present tense ("BMW AG guarantees the notes") whose stem a quote tells with
    its doer named (``stems``: "are guaranteed by BMW AG"): a verb not in the past before its object, told of its
    clause's subject. Only those stems are read, so a noun spelt as a verb ("the guarantee") is not taken for one
    unless an object follows it."""
    out: list[Act] = []
    for m in re.finditer(r"(?<![\w'’-])[a-z]{3,}(?![\w'’-])", sentence):
        word = m.group(0)
        if word.endswith(("ed", "en", "ing")) or _act_stem(word) not in stems or not _OBJECT.match(sentence, m.end()):
            continue
        if re.search(r"\b(?:the|a|an|its|their|our|his|her)\s+$", sentence[:m.start()], re.I):
            continue  # "the guarantee of ...": a noun
        who = _AUXILIARY_END.sub("", _clause_before(sentence, m.start()))
        out.append(Act(_act_stem(word), word, who, False, m.end()))
    return out


_AUXILIARY_END = re.compile(r"(?:\s+(?:did|does|do|will|would|may|might|can|could|shall|should|must|not|also))+$",
                            re.I)
"""The helping verbs before a present-tense verb ("The Luxembourg tax authority did not assert"): no part of who."""


def _tells_act(sentence: str, stem: str) -> bool:
    """Whether a sentence has a word of an act's stem ("decided", "decision" aside: only the act's own forms)."""
    return any(_act_stem(w) == stem for w in re.findall(r"[a-z]{3,}", sentence.lower()))


_ASIDE = re.compile(r"^(?:[A-Za-z]+\s+){0,2}[A-Za-z]+,\s+")
"""A sentence's opening aside before a comma ("For example, "; "In addition, ")."""


def _shown(who: str, words: int = 10) -> str:
    """Who a quote tells an act of, as a flag shows it: its opening aside off, its first ``words`` words."""
    shown = _ASIDE.sub("", " ".join(who.split()))
    return " ".join(shown.split()[:words]) + (" ..." if len(shown.split()) > words else "")


_OPENS_MATTER = re.compile(r"\b(?:filed|brought|commenced)\b(?:\s+[\w,“”\"'’.-]+){0,8}?\s+(?:complaints?|lawsuits?|"
                           r"suits?|actions?|cases|demands?\s+for\s+arbitration|notices?\s+for\s+arbitration)"
                           r"\b|\bsued\b"
                           r"|\b(?:complaints?|lawsuits?|suits?|actions?|cases)\s+(?:[\w’'-]+\s+){0,4}?(?:(?:was|were|has|"
                           r"have|had)\s+(?:been\s+)?)?(?:filed|brought|commenced)\s+(?:by|against|in)\b"
                           r"|\b(?:named|is|are|was|were)\s+(?:as\s+)?(?:a\s+)?(?:co-?)?defendants?\s+in\b", re.I)
"""A sentence opening a legal matter: someone "filed a complaint", "have filed a number of cases", "brought similar
suits", "sued"; "class actions relating to Lipitor were filed in various federal courts", "a breach of contract
action brought by New York University"; "Pfizer was named as a defendant in a complaint", "We are a defendant in";
the sentences after it, to the next such sentence naming a party of its own, are that matter's ("review petitions
we filed" opens none; "The action was originally filed in 2013" names none)."""


_BROKEN_OPEN = re.compile(r"^\S{0,8}[\u201d\"\u2019)]")
"""A sentence piece that begins with the end of an abbreviation the sentence was parted after ("Wash.”), ...")."""


def _matter_opening(sentence: str, passage: str, prior: str = "") -> str:
    """The sentence opening the legal matter a quote sentence is told in (``_OPENS_MATTER``, naming a party of its
    own): the sentence itself or the nearest before it in its passage, else the last in the chunk before the passage
    (``prior``: a note's matter opened there, "Lipitor Beginning in 2011, purported class actions relating to Lipitor
    were filed ...", and told on past the chunk's cut); '' where none is."""
    flat, whole = " ".join(passage.split()), " ".join(sentence.split())
    at = flat.find(whole)
    if at < 0:
        return sentence if _opens(sentence) else ""
    told = [*split_sentences(" ".join(prior.split())), *split_sentences(flat[:at + len(whole)])]
    for k in range(len(told) - 1, -1, -1):
        opening = f"{told[k - 1]} {told[k]}" if k > 0 and _BROKEN_OPEN.match(told[k]) else told[k]
        if _opens(opening):  # a sentence parted after an abbreviation ("(“W.D. Wash.”), ...") is read whole
            return opening
    return ""


def _opens(sentence: str) -> bool:
    """Whether a sentence opens a legal matter: ``_OPENS_MATTER``, and a name in it ("The action was originally filed
    in 2013" goes on with the matter it is told in)."""
    return bool(_OPENS_MATTER.search(sentence)) and any(
        sentence[:m.start()].strip(_OPENING) for m in NAME_WORD.finditer(sentence))


_OWNER_BEFORE = re.compile(r"^.*['’]s\s+")
"""An owner's name and possessive before a name run ("Square's " of "Square's Caviar")."""


def _another_matter(r: Reading) -> list[str]:
    """A sentence restating a quote sentence of another legal matter than the one the question names: "They allege
    price fixing arrangements, monopolization ..." in an answer about the Alexa patent suit in the Northern District
    of New York, from a quote of the passage's next matter ("Beginning in March 2020, with Frame-Wilson v.
    Amazon.com, Inc. ..., private litigants have filed a number of cases ... alleging ... price fixing"). The matter
    a quote sentence is told in is the one the nearest sentence opening a matter before it opens (``_matter_opening``,
    in the quote's passage); it is another matter where that opening names none of the question's names
    (``Question.names``, each run whole: "Northern District" is not "Western District"; an owner's, "Google's", is
    no matter's name, nor the owner before one: "Square's Caviar" is Caviar's) and some name of its own.
    A passage that begins inside a matter is read in the matter the chunk before it opened last; with neither, the
    sentence says nothing either way."""
    q = r.q
    plain = plain_stems([*r.names, *(x.doc for x in r.quotes)])
    # the matter's names, not an owner's ("Google's advertising technology": the company whose matters they all are)
    # ("Square's Caviar": Caviar, Square's the owner)
    asked = [own for run in q.names if not ENDS_POSSESSIVE.search(run)
             for own in [_OWNER_BEFORE.sub("", run)] if name_letters(own) - plain]
    if not asked:
        return []
    sentences = _quote_sentences(r.quotes)
    passage_of = {x.source: r.passages[k] for k, x in enumerate(r.quotes) if k < len(r.passages) and r.passages[k]}
    prior_of = {x.source: r.priors[k] for k, x in enumerate(r.quotes) if k < len(r.priors) and r.priors[k]}
    out: list[str] = []
    for sentence in split_sentences(CITATION.sub(" ", r.body)):
        held = _restated(sentence, sentences, plain)
        if held is None:
            continue
        src, told, _ = held[1]
        opening = _matter_opening(told, passage_of.get(src, told), prior_of.get(src, ""))
        if not opening or any(re.search(rf"(?<![\w-]){re.escape(run)}(?![\w-])", opening, re.I) for run in asked):
            continue
        own = [m.group(0) for m in NAME_WORD.finditer(opening) if name_key(m.group(0)) not in plain
               and m.group(0).lower() not in STOPWORDS and opening[:m.start()].strip(_OPENING)]
        if own:
            out.append(f"[{src}] is about another matter (\u201c{_shown(opening, 12)}\u201d)")
    return out

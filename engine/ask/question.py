"""A question, understood once: ``parse(text) -> Question``.

Every step after parsing (routing, retrieval, cell resolution, computations, verdicts, refusals, the prompt and
the checks) reads the fields of one frozen ``Question``; none of them reads the raw text with a pattern of its
own. The question's periods come from the one period grammar (``periods.asked_period``), so routing and the
resolver can never read "FY 2022-23" or "4Q22" differently. A step that needs the question for another year
makes a copy (``Question.shifted``), it does not rewrite the text.

The cue words live here, in the vocabulary (line items, ratios, statements), in ``periods`` (dates, years,
quarters, durations) and ``numbers`` (figures): one home each.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from engine.ask.expansion import Expansion, expand, focus
from engine.ask.formulas import averaged_years, definition, without_asides
from engine.ask.statements import statements_asked, stems
from engine.numbers import quantities
from engine.periods import Asked, asked_period, names_day
from engine.types import Document
from engine.vocabulary import LineItem, items_named, judgements, narrative, ratio_named
from engine.vocabulary import item as item_named

__all__ = ["Intent", "Measure", "Question", "measure_of", "parse", "phrase"]

MAX_QUESTION_CHARS = 2000
"""Questions longer than this are refused before any work (the answer path stays bounded for any input)."""


class Intent(StrEnum):
    """What kind of answer a question asks for."""

    VALUE = "value"
    """A figure ("What is the FY2019 net income?")."""
    CHANGE = "change"
    """How much a figure changed or grew between periods."""
    RATIO = "ratio"
    """A metric computed from figures (a margin, a turnover, a share of a total)."""
    YES_NO = "yes_no"
    """Yes or no ("Is 3M capital intensive?")."""
    RANKING = "ranking"
    """Which of several items is the largest or smallest."""
    COUNT = "count"
    """How many of something."""
    PROSE = "prose"
    """Reasons, descriptions, parties: a sentence answers it."""
    JUDGEMENT = "judgement"
    """A yes/no about a quality (capital intensive, healthy liquidity, improving margins)."""


# --- cue words -------------------------------------------------------------------------------------------------

_SENTENCE = re.compile(r"(?<=[.?!])\s+")
_YES_NO = re.compile(r"^(?:[^,?]{1,60},\s+)?(?:is|are|was|were|did|does|do|has|have|had|can|could|will|would|should|"
                     r"shall|may|might)\b", re.I)
"""A yes/no question: its asking sentence opens with an auxiliary verb, after a leading phrase set off by a comma
or not ("As of FY2022, is the margin improving?", "Between FY20 and FY21, did PP&E grow?")."""
_WHY = re.compile(r"\b(?:why|drove|driven|drivers?|driving|reasons?|caused?|causes|due to|attribut\w+ to|"
                  r"explain\w* the (?:change|increase|decrease|decline))\b", re.I)
_VALUE_QUESTION = re.compile(r"\b(?:what(?:'s| is| was| were| are| will be)|how much|how many|calculate|compute)\b",
                             re.I)
_NOT_VALUE = re.compile(r"\b(?:which|why|drove|drivers?|reasons?|explain|describe|list)\b", re.I)
_PROSE = re.compile(r"^(?:why|describe|explain|who|what (?:is|was|are|were) the (?:nature|reason|main|primary|key)|"
                    r"what (?:drove|caused|does|do|did)|which (?:segment|region|product|customer|business))\b", re.I)
_JUDGEMENT = re.compile(r"\b(?:capital[\s-]intensive|healthy|improving|deteriorat\w*|strong|weak|sustainable|"
                        r"profitable|liquid|solvent|leverag\w+|conservative|aggressive)\b", re.I)
_HOW_MANY = re.compile(r"\bhow\s+many\s+((?:[\w'-]+\s+){0,4}?[\w'-]+?)"
                       r"(?=\s+(?:are|is|was|were|do|does|did|have|has|had|can|could|will|would|in|of|on|from|"
                       r"with|that|which|who|shown|provide|provides|appear|appears|and|or)\b|\s*[?,.]|$)", re.I)
_NOT_COUNTED = frozenset({"times", "million", "millions", "billion", "billions", "thousand", "thousands", "percent",
                          "dollars"})
_FORWARD = re.compile(r"\b(?:expect|expects|expected|guidance|outlook|forecast|plan|plans|planned|target|"
                      r"project(?:s|ed)?|anticipate|will)\b", re.I)
_CHANGED = re.compile(r"\b(?:chang\w*|increas\w*|decreas\w*|grow\w*|grew|declin\w*|drop\w*|rose|fell|cagr|"
                      r"compound(?:ed)? annual growth)\b", re.I)
_CAGR = re.compile(r"\bcagr\b|compound(?:ed)? annual growth", re.I)
_DEFINED = re.compile(r"\b(?:is|are) defined\b|\bdefine[sd]?\b", re.I)
_ESCAPE = re.compile(r"\bnot (?:a |an )?(?:useful|relevant|meaningful|appropriate|applicable)\b", re.I)
_GROWTH = re.compile(r"\b(growth|grew|grow|grows|growing|percent(?:age)? change|% change|year[- ]over[- ]year|yoy|"
                     r"increase|decrease|decline|change)\b", re.I)
_PCT = re.compile(r"percent|%|rate|growth", re.I)
_GROWTH_PCT = re.compile(r"growth|grew|grow|percent", re.I)
_RATIO = re.compile(r"\b(?:ratio of|proportion of)\s+(.+?)\s+to\s+(.+?)(?:\?|$| in | for | during )|"
                    r"\b(.+?)\s+(?:as a (?:percent(?:age)?|%|share) of|divided by|over)\s+(.+?)(?:\?|$| in | for )",
                    re.I)
_RATIO_PCT = re.compile(r"margin|percent|%|rate", re.I)
_DIFF = re.compile(r"\b(difference|how much (?:more|less|higher|lower)|change in)\b", re.I)
_LEAD = re.compile(r"^(?:what|how|was|is|the|much|did|of|by)\b\s*", re.I)
_ROUND = re.compile(r"round(?:ed)?(?: (?:your|the) answer)? to (?:the nearest )?(\d|one|two|three|four|zero)\s+"
                    r"decimal(?: places?| points?)?|(\d|one|two|three) decimal places?", re.I)
_PLACES = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4}
_DOWN = re.compile(r"\b(?:drop|dropped|declin\w*|decreas\w*|fall|fell|reduc\w*|lower|shr[iu]nk\w*|contract\w*)\b",
                   re.I)
_UP = re.compile(r"\b(?:increas\w*|rise|rose|grow|grew|growth|higher|improv\w*|expand\w*)\b", re.I)
_ANY_CHANGE = re.compile(r"\b(?:chang\w*|differ\w*)\b", re.I)
_SIGN = re.compile(r"\b(positive|negative)\b", re.I)
_THRESHOLD = re.compile(r"\b(?P<word>exceed(?:s|ed)?|surpass(?:es|ed)?|top(?:s|ped)?|"
                        r"(?:more|greater|higher|larger) than|above|over|(?:less|fewer|lower|smaller) than|below|under)"
                        r"\s+(?:\w+\s+){0,2}?"
                        r"(?=[$€£]?\s?\d)", re.I)
_BELOW_WORDS = ("less", "fewer", "lower", "smaller", "below", "under")
_OVER_PERIODS = re.compile(r"\b(?:over|across|in|during|throughout|between)\s+(?:the\s+|these\s+|those\s+)?"
                           r"(?:reported|recent|past|last|two|three|four|several)?\s*(?:\w+\s+)?"
                           r"(?:periods|quarters|years|10-qs|filings)\b", re.I)
_SHIFT = re.compile(r"\b(?:change|changes|shift|shifts|movement|swing)\b", re.I)
_TRENDS = re.compile(r"\btrends?\b|\bpattern", re.I)
_NOTABLE = re.compile(r"\b(?:significant|considerable|notable|material|major|substantial)\b", re.I)
_CONSISTENT = re.compile(r"\bconsistent", re.I)
_PART = re.compile(r"\b((?:[A-Z][\w&-]*\s+){0,2}[A-Z][\w&-]*)\s+(?:\([^)]*\)\s+)?(?:segment|business|division|unit)\b")
_AMONG = re.compile(r"\b(?:among|of|between)\s+(?:the\s+)?(?:three\s+|two\s+|four\s+)?(?P<list>[\w&'’ -]+?"
                    r"(?:,\s*[\w&'’ -]+?)*,?\s+(?:and|or)\s+[\w&'’ -]+?)\s*[,:]?\s*(?:which|what)\b", re.I)
_WHICH_OF = re.compile(r"\bwhich\s+(?:one\s+)?of\s+(?:the\s+)?(?:three\s+|two\s+|four\s+)?(?P<list>[\w&'’ -]+?"
                       r"(?:,\s*[\w&'’ -]+?)*),?\s+(?:and|or)\s+(?P<last>[\w&'’ -]+?)\s+(?=(?:\w+\s+){0,4}?"
                       r"(?:the\s+)?(?:most|least|largest|highest|biggest|greatest|smallest|lowest)\b)", re.I)
_MOST = re.compile(r"\b(?:most|largest|highest|biggest|greatest|maximum)\b", re.I)
_LEAST = re.compile(r"\b(?:least|smallest|lowest|minimum)\b", re.I)
_LOSS = re.compile(r"\b(?:lost|lose|loses|spent|spend|spends|used|uses|burned|consumed)\b", re.I)
_LIST_SPLIT = re.compile(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")
_STEADY = re.compile(r"\b(?:consistent\w*|stable|steady|fluctuat\w*|volatil\w*)\b", re.I)
_TOLERANCE = re.compile(r"(\d+(?:\.\d+)?)\s*(?:%|percent(?:age)? points?|pp\b)", re.I)
_AVERAGE_WORDS = re.compile(r"\baverage|\bdefined\b|\bmean\b", re.I)
_QUARTERS = re.compile(r"\bq[1-4]\b|\bquarter", re.I)
_EVERY_QUARTER = re.compile(r"same (?:quarter|period)|prior[- ]year quarter", re.I)
_PROPER = re.compile(r"(?<=[a-z,;:]\s)(?:[A-Z][\w&'’.-]*)(?:\s+[A-Z][\w&'’.-]*)*")
"""Capitalised words inside a sentence: names (the company's, a person's), which a row label of the filing may
repeat ("Best Buy" in a store-count table) without being the line item asked."""
_FORMS = [
    (re.compile(r"\b10-?k\b|\bannual report\b", re.I), "10-K"),
    (re.compile(r"\b10-?q\b|\bquarterly report\b", re.I), "10-Q"),
    (re.compile(r"\b8-?k\b|\bpress release\b|\bearnings release\b", re.I), "8-K"),
]
FIGURE_WORDS = re.compile(
    r"\b(?:charts?|graphs?|plots?|diagrams?|slides?|infographics?|histograms?|pie|fig(?:ure)?\.? ?\d+|"
    r"(?:the|this|that) figure)\b",
    re.I,
)
"""A question about a chart, graph, slide or figure ("figures" alone means numbers in finance)."""
_POSSESSIVE = re.compile(r"(?<![\w.&])((?:[A-Z][\w&.-]*)(?:\s+(?:&\s+)?[A-Z][\w&.-]*){0,3})['’]s\b")
_NOT_A_NAME = frozenset(
    "company firm group management board bank segment business entity registrant corporation organization issuer "
    "auditor auditors ceo cfo coo chairman president america world country nation government industry "
    "sector market today year quarter fiscal it its this that what which who how".split())
"""Words a question capitalises before "'s" that are not a company's name ("Company's", "Management's")."""
_LEADING = frozenset("did does do is are was were has have had can could will would should what how which who where "
                     "when why in for as of at by from according based".split())
_QUOTED = re.compile(r'["\u201c]([^"\u201c\u201d]{2,80})["\u201d]')
_LONG_FIGURE = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3}){2,}(?!\d|[.,]\d)")
_SCALE = re.compile(r"\b(?:in|usd|\$|us\$|dollars? in|answer in)\s*(?:usd\s+|\$\s*|us\$\s*)?"
                    r"(thousands|millions|billions)\b", re.I)
_SCALES = {"thousands": 1e3, "millions": 1e6, "billions": 1e9}
_ASKING = "what|how|which|who|why|did|does|do|is|are|was|were|has|have"
_PART_SPLIT = re.compile(rf"(?:\?\s+|\.\s+(?:Also\s+)?)(?=(?:{_ASKING.title()})\b)"
                         rf"|(?i:,\s+and\s+|;\s+(?:and\s+)?)(?=(?i:{_ASKING})\b)")
"""Where a question of several parts starts its next part: a second asking clause after "?", ", and", "; " or a
sentence end ("What were net sales in fiscal 2022, and how much did they grow over fiscal 2021?")."""
_WORD = re.compile(r"[a-z0-9&]+", re.I)


# --- measures ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Measure:
    """A line item the question asks for: a vocabulary item, or the question's own words."""

    name: str
    names: tuple[str, ...]
    item: LineItem | None = None


def measure_of(text: str) -> Measure:
    """The measure a phrase names: the vocabulary's item when it knows the phrase, else the phrase's words."""
    from engine.vocabulary import item

    it = item(text)
    if it is not None:
        return Measure(it.name, (it.name, *it.labels, *it.asked), it)
    return Measure(text.strip().lower(), ())


def phrase(text: str) -> str:
    """Words of a label or question for a literal comparison: lower case, punctuation and hyphens as spaces, a
    plural's final s dropped, "total" at the start dropped."""
    words = [w[:-1] if len(w) > 3 and w.endswith("s") else w for w in re.sub(r"[^a-z0-9&]+", " ", text.lower()).split()]
    return " ".join(words[1:] if words[:1] == ["total"] else words)


_QUALIFIER_REACH = 45
"""Characters after an item's name where a qualifier still makes it another item: "profit/loss from continuing
operations" (the qualifier ends 40 characters after "profit")."""


def _qualified(low: str, m: Measure) -> bool:
    """Whether the question names the item only together with a qualifier that makes it another one (the item's
    ``other_when``, within a few words): "deferred revenue", "net income per share", "cash used in investing
    activities" do not ask for revenue, net income or the cash balance."""
    if m.item is None or not m.item.other_when:
        return False
    hits = [x for p in m.names if p for x in re.finditer(rf"(?<![a-z]){re.escape(p)}(?![a-z])", low)]
    return bool(hits) and all(m.item.excludes(low[max(0, x.start() - 25): x.end() + _QUALIFIER_REACH]) for x in hits)


def _measures(text: str) -> tuple[Measure, ...]:
    """The line items a question names: the vocabulary's first (longest naming phrase first); an item whose
    naming phrase sits inside a longer one's ("sales" inside "cost of sales") is not asked."""
    found = [Measure(it.name, (it.name, *it.labels, *it.asked), it) for it in items_named(text)]
    kept: list[Measure] = []
    low = text.lower()
    for m in found:
        if _qualified(low, m):
            continue
        spans = [p for p in m.names if p and re.search(rf"(?<![a-z]){re.escape(p)}(?![a-z])", low)]
        longest = max(spans, key=len, default="")
        if any(longest and longest != p and longest in p and re.search(re.escape(p), low)
               for k in kept for p in k.names):
            continue
        kept.append(m)
    return tuple(kept)


# --- the question -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ranking:
    """A question that asks which of the items it lists is the largest or smallest ("Among operations, investing,
    and financing activities, which brought in the most cash flow in FY2023?")."""

    names: tuple[str, ...]
    highest: bool
    cash: bool
    """The question is about cash: a bare "investing" is the vocabulary's "cash from investing"."""


@dataclass(frozen=True)
class Question:
    """One question, understood once: every field is read from the text by ``parse`` and nowhere else."""

    text: str
    """As asked (whitespace kept)."""
    focus: str = ""
    """Without the sentences that only say how to answer ("Round to two decimals.")."""
    first: str = ""
    """The first asking sentence of ``focus``."""
    intent: Intent = Intent.VALUE
    asked: Asked = field(default_factory=lambda: asked_period(""))
    """The period(s) it asks about, read by the one period grammar (``periods.asked_period``)."""
    measures: tuple[Measure, ...] = ()
    """Line items it names (vocabulary first); empty when it names none."""
    stems: frozenset[str] = frozenset()
    """Its content stems, names left out: what a free-worded measure is matched with."""
    named: str = ""
    """Its words for literal label comparison (``phrase``)."""
    words: frozenset[str] = frozenset()
    """Its lower-case words."""
    yes_no: bool = False
    why: bool = False
    """It asks for the reasons of something (its first sentence)."""
    asks_value: bool = False
    """It asks for a figure, not a choice, a reason or a description: a resolved cell is the answer itself."""
    counted: str = ""
    """What a "how many" question counts, singular ("plot"); '' for no count."""
    formula: tuple[str, str] | None = None
    """(template, year) of the metric it defines, names or asks as a share (``formulas.definition``)."""
    averaged: tuple[int, ...] = ()
    """The fiscal years of an N-year average it asks for."""
    ratio: tuple[str, str] | None = None
    """(name, definition) of the standard ratio it names."""
    averages_stated: bool = False
    """It says "average", "mean" or "defined": a standard ratio's year-end variant is not offered."""
    changed: bool = False
    """Its question part (before any definition) asks how something changed."""
    cagr: bool = False
    growth: bool = False
    growth_percent: bool = False
    """A growth asked as a percentage, not a difference."""
    pair: tuple[str, str] | None = None
    """"X as a % of Y", "ratio of X to Y": the two phrases."""
    pair_percent: bool = False
    rounding: int | None = None
    """Decimal places it asks the answer rounded to."""
    direction: str = ""
    """For a yes/no about a change: "up", "down", "any" (any change) or ''."""
    sign: str = ""
    """"positive" or "negative" when it asks whether an amount is one."""
    threshold: tuple[str, float, str] | None = None
    """("above" or "below", the amount with its scale word applied, as written) when it asks whether a figure is
    over or under an amount it states ("Did revenue exceed $10 billion in FY2022?")."""
    over_periods: bool = False
    trend: bool = False
    shift: bool = False
    notable: bool = False
    consistent: bool = False
    segment: str = ""
    """A part of the company it names ("Data Center segment" -> "Data Center")."""
    ranking: Ranking | None = None
    steady: bool = False
    tolerance: tuple[float, str] | None = None
    escape: bool = False
    """It allows that its metric may not suit the company ("if gross margin is not a useful metric ...")."""
    forward: bool = False
    """It asks about plans, guidance or expectations."""
    full_date: bool = False
    """It names a day (not only a month)."""
    every_quarter: bool = False
    """It names a quarter for each year it names ("Q2 2023 vs Q2 2022", "the same quarter")."""
    quoted: tuple[tuple[str, bool], ...] = ()
    """What it quotes from the document it means: (phrase, is a long figure)."""
    possessives: tuple[str, ...] = ()
    """Names it puts in the possessive ("Apple's plants")."""
    statements: tuple[str, ...] = ()
    """Primary statements it names or whose line items it asks about."""
    figures: bool = False
    """It is about a chart, graph, slide or figure."""
    forms: tuple[str, ...] = ()
    """Filing forms it names (10-K, 10-Q, 8-K)."""
    scale: float | None = None
    """The scale it asks the answer in ("in USD millions" -> 1e6)."""
    companies: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False, hash=False)
    """Document id -> the aliases of its company the question names (filled when parsed against a library)."""
    judgement: str = ""
    """The vocabulary's ``[judgements.NAME]`` a yes/no about a quality asks ("capital intensive", "healthy
    liquidity"): standard ratios decide it; '' for none."""
    narrative: str = ""
    """The kind of narrative answer it asks (a ``[narrative.KIND]`` of the vocabulary: "drivers", "parties",
    "events", "legal", "description"): its answer is the filing's own sentences, quoted; '' when a figure, a
    count, a ranking or a computed metric answers it."""
    parts: tuple[Question, ...] = ()
    """The parts of a question of several ("net sales in fiscal 2022, and how much did they grow?"), each a
    question of its own with the measure and period of the part before when it names none; () for one part."""

    @property
    def expansion(self) -> Expansion:
        """The question with financial synonyms and its periods spelled as filings spell them (retrieval)."""
        return expand(self.text)

    def shifted(self, years: int) -> Question:
        """The same question asked ``years`` fiscal years earlier (or later): its periods and its metric's
        definition moved, nothing else (a trend compares the metric with the year before)."""
        a = self.asked

        def move(y: int | None) -> int | None:
            return None if y is None else y + years

        asked = replace(a, fiscal_year=move(a.fiscal_year), years=tuple(y + years for y in a.years),
                        fiscal_named=tuple(y + years for y in a.fiscal_named), instant=None, end=None)
        formula = self.formula
        if formula is not None:
            template = re.sub(r"(?<!\d)((?:19|20)\d{2})(?!\d)", lambda m: str(int(m.group(1)) + years), formula[0])
            formula = (template, str(int(formula[1]) + years) if formula[1] else "")
        return replace(self, asked=asked, formula=formula, averaged=tuple(y + years for y in self.averaged))


def _first_sentence(text: str) -> str:
    return _SENTENCE.split(text.strip(), maxsplit=1)[0]


def _counted(text: str) -> str:
    m = _HOW_MANY.search(text)
    if not m:
        return ""
    head = m.group(1).split()[-1].lower().strip("'")
    if head in _NOT_COUNTED:
        return ""
    return head[:-3] + "y" if head.endswith("ies") else head[:-1] if head.endswith("s") and len(head) > 3 else head


def _rounding(text: str) -> int | None:
    m = _ROUND.search(text)
    if m is None:
        return None
    word = (m.group(1) or m.group(2)).lower()
    return int(word) if word.isdigit() else _PLACES[word]


def _direction(low: str) -> str:
    down, up = bool(_DOWN.search(low)), bool(_UP.search(low))
    if down and not up:
        return "down"
    if up and not down:
        return "up"
    if _ANY_CHANGE.search(low):
        return "any"
    return ""


def _which_of(plain: str) -> tuple[str, str] | None:
    """("A, B and C", what follows) of "which of A, B and C <verb> the most ...": the list ends where the last item
    stops naming a line item the vocabulary knows (alone, or as the cash of an activity)."""
    m = _WHICH_OF.search(plain)
    if not m:
        return None
    items = _LIST_SPLIT.split(m.group("list"))
    words = m.group("last").split()
    for k in range(len(words), 0, -1):
        last = " ".join(words[:k])
        if item_named(last) is not None or item_named(f"cash from {last}") is not None:
            listed = ", ".join([*items, last])
            return listed.rsplit(", ", 1)[0] + " and " + last, " ".join(words[k:]) + plain[m.end():]
    return None


def _ranking(text: str) -> Ranking | None:
    plain = without_asides(text)  # "(or lost the least)": an aside restating the same order
    m = _AMONG.search(plain)
    if m:
        listed, rest = m.group("list"), plain[m.end():]
    elif found := _which_of(plain):
        listed, rest = found
    else:
        return None
    most, least = _MOST.search(rest), _LEAST.search(rest)
    if bool(most) == bool(least):
        return None
    word = most or least
    assert word is not None
    highest = bool(most) != bool(_LOSS.search(rest[: word.start()]))
    names = tuple(n.strip() for n in _LIST_SPLIT.split(listed) if n.strip())
    return Ranking(names, highest, "cash" in text.lower())


def _possessives(text: str) -> tuple[str, ...]:
    out = []
    for m in _POSSESSIVE.finditer(text):
        words = m.group(1).split()
        while words and words[0].lower() in _LEADING:
            words = words[1:]  # "Did JnJ's ..." is about JnJ
        name = " ".join(words)
        if not name or (len(name) <= 4 and " " not in name):
            continue  # an abbreviation or ticker ("JnJ", "AMD"): too short to tell a company by its mentions
        if name.lower() in _NOT_A_NAME or name.lower().split()[0] in _NOT_A_NAME:
            continue
        out.append(name)
    return tuple(out)


def _threshold(text: str) -> tuple[str, float, str] | None:
    m = _THRESHOLD.search(text)
    if m is None:
        return None
    amount = next((x for x in quantities(text[m.end():m.end() + 40]) if x.start == 0 or not text[m.end():m.end()
                   + x.start].strip(" $€£")), None)
    if amount is None or (not amount.currency and amount.scale == 1.0 and not amount.percent):
        return None  # a bare number ("over 3 years") is no amount
    side = "below" if m.group("word").lower().split()[0] in _BELOW_WORDS else "above"
    return side, amount.magnitude * (1 if amount.value >= 0 else -1), amount.raw


def _pair(text: str) -> tuple[str, str] | None:
    m = _RATIO.search(text.strip())
    if not m:
        return None
    a, b = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    return _LEAD.sub("", a.strip()), _LEAD.sub("", b.strip())


def _intent(q: Question) -> Intent:
    if q.ranking is not None:
        return Intent.RANKING
    if q.yes_no:
        return Intent.JUDGEMENT if (_JUDGEMENT.search(q.first) and not q.measures) else Intent.YES_NO
    if q.counted:
        return Intent.COUNT
    if q.why or _PROSE.match(q.first.strip(" \"'(")):
        return Intent.PROSE
    if q.formula is not None or q.pair is not None:
        return Intent.RATIO
    if q.changed or (q.growth and len(set(q.asked.years)) >= 2):
        return Intent.CHANGE
    if q.asks_value or q.measures:
        return Intent.VALUE
    return Intent.PROSE


def _narrative(q: Question) -> str:
    """The kind of narrative answer a question asks: prose and judgement questions always (the vocabulary's kind
    its first sentence names, else "description"); a yes/no that names no line item, metric, amount or sign;
    a "what are ..." that names no line item, no scale, no rounding and no "how much" but a narrative kind ("What
    are the major acquisitions ...", not "How much does it expect to pay for the spin-off?")."""
    if q.intent in (Intent.RANKING, Intent.COUNT, Intent.RATIO, Intent.CHANGE):
        return ""
    named = next((k.name for k in narrative().kinds if k.asked is not None and k.asked.search(q.first)), "")
    plain = not q.measures and q.formula is None and q.ratio is None and q.pair is None
    if q.intent in (Intent.PROSE, Intent.JUDGEMENT):
        return named or "description"
    if q.intent is Intent.YES_NO and plain and q.threshold is None and not q.sign and not q.direction:
        return named or "description"
    if q.intent is Intent.VALUE and plain and named and q.scale is None and q.rounding is None and not (
            {"how", "much"} <= q.words):
        return named
    return ""


def _one(text: str) -> Question:
    """A question of one part, every field read."""
    focused = focus(text)
    first = _first_sentence(focused)
    low = text.lower()
    asked_part = _DEFINED.split(text, maxsplit=1)[0]  # the question, not its definition's "change in inventory"
    tolerance = _TOLERANCE.search(text)
    segment = _PART.search(text)
    scale = _SCALE.search(text)
    q = Question(
        text=text,
        focus=focused,
        first=first,
        asked=asked_period(text),
        measures=_measures(text),
        stems=frozenset(stems(text) - stems(" ".join(_PROPER.findall(text)))),
        named=phrase(text),
        words=frozenset(w.lower() for w in _WORD.findall(text)),
        yes_no=bool(_YES_NO.match(first.strip(" \"'("))),
        why=bool(_WHY.search(first)),
        asks_value=bool(_VALUE_QUESTION.search(first)) and not _NOT_VALUE.search(first),
        counted=_counted(focused),
        formula=definition(text),
        averaged=tuple(averaged_years(text)),
        ratio=ratio_named(text),
        averages_stated=bool(_AVERAGE_WORDS.search(text)),
        changed=bool(_CHANGED.search(asked_part)),
        cagr=bool(_CAGR.search(asked_part)),
        growth=bool(_GROWTH.search(text)),
        growth_percent=bool(_PCT.search(text) and not _DIFF.search(text) or _GROWTH_PCT.search(low)),
        pair=_pair(text),
        pair_percent=bool(_RATIO_PCT.search(low)),
        rounding=_rounding(text),
        direction=_direction(low),
        sign=(m.group(1).lower() if (m := _SIGN.search(text)) else ""),
        threshold=_threshold(text),
        over_periods=bool(_OVER_PERIODS.search(text)),
        trend=bool(_TRENDS.search(text)),
        shift=bool(_SHIFT.search(text)),
        notable=bool(_NOTABLE.search(text)),
        consistent=bool(_CONSISTENT.search(text)),
        segment=segment.group(1) if segment else "",
        ranking=_ranking(text),
        steady=bool(_STEADY.search(text)),
        tolerance=(float(tolerance.group(1)), tolerance.group(0)) if tolerance else None,
        escape=bool(_ESCAPE.search(text)),
        forward=bool(_FORWARD.search(text)),
        full_date=names_day(text),
        every_quarter=len(_QUARTERS.findall(text)) >= 2 or bool(_EVERY_QUARTER.search(text)),
        quoted=tuple([(m.group(1).strip(), False) for m in _QUOTED.finditer(text) if m.group(1).strip()]
                     + [(m.group(0), True) for m in _LONG_FIGURE.finditer(text)]),
        possessives=_possessives(text),
        statements=tuple(statements_asked(text)),
        figures=bool(FIGURE_WORDS.search(text)),
        forms=tuple(sorted({form for rx, form in _FORMS if rx.search(text)})),
        scale=_SCALES[scale.group(1).lower()] if scale else None,
    )
    q = replace(q, intent=_intent(q))
    judged = next((j.name for j in judgements().values() if j.asked.search(first)), "") if q.yes_no else ""
    return replace(q, narrative=_narrative(q), judgement=judged)


def _split(text: str) -> list[str]:
    """The asking clauses of a question of several parts (one element for a question of one part)."""
    pieces: list[str] = []
    at = 0
    for m in _PART_SPLIT.finditer(text):
        pieces.append(text[at:m.start()].strip(" ,;"))
        at = m.end()
    pieces.append(text[at:].strip(" ,;"))
    pieces = [p for p in pieces if len(p.split()) >= 3]
    return pieces if len(pieces) > 1 else [text]


def _inherit(part: Question, before: Question) -> Question:
    """A later part that names no measure or no period asks about those of the part before it ("..., and how much
    did they grow over fiscal 2021?": net sales, from fiscal 2021 to the year the first part named)."""
    measures = part.measures or before.measures
    asked = part.asked
    if asked.fiscal_year is None and asked.end is None and asked.instant is None:
        asked = before.asked
    elif part.changed and before.asked.fiscal_year is not None and before.asked.fiscal_year not in asked.years:
        years = tuple(sorted({*asked.years, before.asked.fiscal_year}))
        asked = replace(asked, years=years, fiscal_year=max(years),
                        fiscal_named=tuple(sorted({*asked.fiscal_named, *before.asked.fiscal_named})))
    if measures is part.measures and asked is part.asked:
        return part
    q = replace(part, measures=measures, asked=asked)
    q = replace(q, intent=_intent(q))
    return replace(q, narrative=_narrative(q))


def parse(text: str, documents: Sequence[Document] = ()) -> Question:
    """The question understood: intent, measures, periods (one grammar), companies of ``documents`` it names,
    quoted phrases, rounding, direction and the parts of a question of several. Text longer than
    ``MAX_QUESTION_CHARS`` is read up to that length (the answerer refuses it before parsing)."""
    text = text[:MAX_QUESTION_CHARS]
    whole = _one(text)
    pieces = _split(text)
    parts: list[Question] = []
    if len(pieces) > 1:
        before = whole
        for piece in pieces:
            part = _inherit(_one(piece), before if not parts else parts[-1])
            parts.append(part)
            before = part
    companies: dict[str, tuple[str, ...]] = {}
    if documents:
        from engine.ask.routing import companies_named

        companies = {d: tuple(a) for d, a in companies_named(text, documents).items()}
    return replace(whole, companies=companies, parts=tuple(parts))

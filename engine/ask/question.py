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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from enum import StrEnum
from functools import cache

from engine.ask.expansion import SENTENCE_BREAK, Expansion, expand, focus, instructions
from engine.ask.routing import LEGAL_FORMS
from engine.ask.statements import NAMED, stems
from engine.library.lexical import STOPWORDS
from engine.numbers import FRACTION_WORDS, FRACTIONS, SCALES, quantities
from engine.periods import MONTH_PATTERN, PERIOD_WORDS, Asked, asked_period, last_periods, names_day
from engine.types import Document
from engine.vocabulary import (
    LineItem,
    NarrativeKind,
    breakdown_named,
    breakdown_title,
    canonical,
    change_words,
    directions,
    groups,
    items_named,
    judgements,
    longest_item_words,
    narrative,
    ratio_named,
    section_named,
    unusual_items,
    vocabulary,
)
from engine.vocabulary import item as item_named

__all__ = ["BELIEF_VERBS", "Intent", "Measure", "Question", "measure_of", "parse", "phrase"]

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

_YES_NO = re.compile(r"^(?:[^,?]{1,60},\s+)?(?:is|are|was|were|did|does|do|has|have|had|can|could|will|would|should|"
                     r"shall|may|might)\b", re.I)
"""A yes/no question: its asking sentence opens with an auxiliary verb, after a leading phrase set off by a comma
or not ("As of FY2022, is the margin improving?", "Between FY20 and FY21, did PP&E grow?")."""
_WHY_CUES = (r"why|drove|driven|drivers?|driving|reasons?|caused?|causes|(?:due|attribut\w+) to(?=\s*(?:[?.,;]|$|"
             r"(?:what|which|in|for|during|over)\b))|contribut(?:ing|ed) to|led to|(?:is|was|were|are|['’]s)\s+behind"
             r"|(?:credit|ascribe)(?:s|d|ed)?\s+(?:[\w'’-]+\s+){1,8}?to(?=\s*(?:[?.,;]|$))"
             r"|(?<=what )(?:(?:has|have|had)\s+)?(?:affected|impacted|influenced)")
"""A question's words asking what made a figure move ("what drove", "what was behind"), which make it a question
told in words (the vocabulary's ``[narrative.drivers] asked`` names the kind of one that is, with more words: "the
impact of X on Y" asks a figure unless the question is prose already). "Due to" and "attributable to" ask a cause
where nothing names it after them ("What was the increase attributable to?", "due to which factors", "what does
the 10-Q credit that growth to?"); before a name
they tell an owner or a part ("net income attributable to noncontrolling interests", "amounts due to related
parties"). "What affected (impacted, influenced) X" asks the same: what moved it."""


@cache
def _why() -> re.Pattern[str]:
    """A question asking what made a figure move: its cue words, "explain(s) the ... <a change's noun>" (the
    vocabulary's ``[directions] nouns``: "what explains the move?", "explain the decrease"; "what accounted for the
    increase", where "accounted for 10% of revenue" asks a share), or "explain(s)" a figure
    of one period "compared with" another's (the difference between them: "What explains its operating income in the
    first nine months of 2024 compared with the first nine months of 2023?"); "what explains" a measure asks its
    reasons whatever follows ("What explains its cash flows from financing activities in 2022?"), but not an amount
    ("What explains 40% of revenue?" asks which item makes it up)."""
    nouns = change_words().nouns.pattern.removeprefix(r"\b").removesuffix(r"\b")
    return re.compile(rf"\b(?:{_WHY_CUES}|(?:explain\w*|accounted for|accounts for) (?:the |its |their )?"
                      rf"(?:[\w&'’-]+ ){{0,4}}?{nouns}|"
                      rf"explain\w* [^?.]*?\bcompared (?:with|to)|what (?:explains|explained)(?!\s+[\d$€£]))\b", re.I)


_SIZE_WORDS = "much|many|large|big|high|small|low"
"""The words that ask a figure by its size after "how" ("how much", "how large")."""
_VALUE_QUESTION = re.compile(rf"\b(?:what(?:'s| is| was| were| are| will be)|how (?:{_SIZE_WORDS})|"
                             r"what\s+(?:[a-z-]+\s+)?(?:amounts?|sums?|values?|totals?))\b|"
                             r"(?<![A-Za-z] )\b(?:calculate|compute)\b|(?-i:\b(?:calculate|compute)\b)", re.I)
"""A question asking a figure: "what was", "how much", "how large", "(for) what total amount". "Calculate" or
"compute" asks one as a verb, at the start or in lower case; a capital one inside the sentence names something
("NVIDIA's Compute & Networking segment")."""
_SHARE_ASKED = re.compile(r"\bwhat\s+(?:percent(?:age)?|share|proportion|fraction)\b", re.I)
"""A question asking a share ("what percentage of respondents ...", "by what percentage", "what proportion"): a
figure, whatever else it says ("the sector in which 15% are ...")."""
_HOW_FIGURE = re.compile(rf"\bhow\s+(?:{_SIZE_WORDS})\b", re.I)
"""A figure asked by its size ("how much", "how large were its purchase obligations"): never told in words."""
_NOT_VALUE = re.compile(r"\b(?:which|why|drove|drivers?|reasons?|explain|describe|list)\b", re.I)
_PROSE = re.compile(r"^(?:why|describe|explain|who|(?:over|within|during|across|in)\s+what\s+(?:period|time\s*frame|"
                    r"horizon|span|term)\b|(?:by|until)\s+when\b|(?:where|when)\s+(?:is|are|was|were|do|does|did|will|would|has|have|"
                    r"had|can)|what (?:is|was|are|were) the (?:nature|reason|main|primary|key|"
                    r"components?|composition|make-?up)|"
                    r"what (?:drove|caused|does|do|did)|"
                    r"what\s+(?:has|have|had)\s+(?:[\w&.'’-]+\s+){1,4}?(?:done|doing)\b|"
                    r"what (?:is|was|are|were) (?:its|their|[\w&.-]+['’]s) (?:stance|views?|approach|attitude|"
                    r"philosophy|polic(?:y|ies))\b|"
                    r"what (?:is|was|are|were)\b(?=[^?]*\bbased\s+on\W*$)|"
                    r"what\s+(?:\w+\s+)?changes?\b(?=[^?]*\b(?:make|made|adopt(?:ed)?|implement(?:ed)?|announce[ds]?)\b)|"
                    r"what\s+(?:[\w-]+\s+){1,4}?(?:is|are|was|were)\s+included\s+in\b|"
                    r"which (?:segments?|regions?|products?|customers?|suppliers?|"
                    r"business(?:es)?|components?|factors?|elements?|drivers?)|"
                    r"what (?:is|was|are|were)\b(?=[^?]*\babout\W*$)|"
                    r"what (?:is|was|are|were)\b(?=[^?]*\b(?:related|relat(?:es|ing)|attributable|attributed|due|"
                    r"used|consist(?:s|ed)?|comprised|made up|tied|linked)\s+(?:to|of|for|by)"
                    r"(?:\s+(?:in|for|during|over|at|as of)\b[^?]*)?\W*$))\b", re.I)
"""A question asking in words: by its first words ("why", "describe", "who", "where were they recorded", "when did
it close", "what drove", "which segments", "which components account for that swing"; not "When referencing the
income statement, what is ..."), a change a
company made ("What change to the useful lives of its servers did it make?": not how much a figure changed), the
items included in a line ("What conflict-related costs were included in its operating expenses?"), or a "what"
whose verb's preposition is left at the end, so that "what" is what it governs ("What was other operating expense
primarily related to in the first half?", "What were the proceeds used for?"; not "What was revenue related to
product sales?", which asks a figure)."""
@cache
def _definition() -> re.Pattern[str]:
    """A question asking what a named thing is: a name in capitals (or quoted) right after "what is", after the
    company's possessive where there is one, with the kind of thing it is where the name leaves it out (one of the
    vocabulary's ``[narrative.parties] not_names``: the words a named agreement, plan, program or transaction ends
    in), and nothing after it but the question's end or a clause about it ("What is the Park MGM Lease Transaction
    that MGM agreed with MGP?", "What is Marcus, and who uses it?", "What is Pfizer's 'Transforming to a More Focused
    Company' program, and what are its initiatives?"); not a line item written in capitals ("What was the Provision
    for taxes in 2019?"), a company's figure ("What were Alphabet Inc.'s proceeds ...", "What was Acme's Net Income
    margin?") or a period ("FY2022")."""
    kinds = sorted({w for k in narrative().kinds for w in k.not_names}, key=len, reverse=True)
    kind = rf"\s+(?i:{'|'.join(map(re.escape, kinds))})"
    capitals = r"(?:[A-Z][A-Za-z&.-]*\s+)*[A-Z][A-Za-z&-]*"
    quoted = r"['\u2018\u201c\"][^'\u2019\u201d\"]{2,80}['\u2019\u201d\"]"
    # after the company's possessive, a name in capitals must say what kind of thing it is ("What is Boeing's Total
    # Debt?" asks a figure)
    owned = rf"[A-Z][A-Za-z&.,-]*(?:\s+[A-Z][A-Za-z&.,-]*)*['\u2019]s?\s+(?:{quoted}(?:{kind})?|{capitals}{kind})"
    return re.compile(r"(?i:what\s+(?:is|are|was|were)\s+(?:the\s+|an?\s+)?)"
                      rf"(?:{owned}|(?:{capitals}|{quoted})(?:{kind})?)"
                      r"(?=\s*(?:[?,;:]|$)|\s+(?i:that|which|who|whom)\b)")
_MANNER = re.compile(r"^how\s+(?:does|do|did)\b(?![^?]*\b(?:perform\w*|far(?:e|es|ed)|stack\s+up|rank\w*|evolv\w*|"
                     r"mov(?:e|es|ed)|look(?:s|ed)?)\b)", re.I)
"""A question asking the way something is done ("How does Square Capital provide financing to sellers?", "How does the
company recognize subscription revenue?"): prose, unless it asks how a figure moved, compared or performed ("How did
gross margin change?", "How does its revenue compare with 2021?", "How did the segment perform?"). It stays prose as
a later part that takes the measure of the part before ("What is X, and how does the company charge for it?")."""
_METHOD = re.compile(r"(?:^|,\s+)how\s+(?:is|are|was|were)\s+[^?]{1,100}?\s+"
                     r"(?:set|determined|calculated|computed|measured|recogni[sz]ed|estimated|accounted\s+for|valued|"
                     r"tested|allocated|derived|defined|presented|classified|treated|amortized|depreciated)\b", re.I)
"""A question asking how a figure is arrived at ("Under its program accounting, how is cost of sales set for each
airplane delivered?", "How is goodwill tested for impairment?"): a method, told in words, whatever line it names."""
_EFFECT_OF = re.compile(r"^how\s+(?:does|do|did|has|have|will|would|could|might|may)\s+[^?]{1,120}?\s+"
                        r"(?:affect(?:ed)?|impact(?:ed)?|influence(?:d)?|hurt|help(?:ed)?|benefit(?:ed)?|"
                        r"weigh(?:ed)?\s+on)\b", re.I)
"""A question asking how one thing bore on another ("How did exchange rates affect APAC revenue growth?", "How did
the change in the Dutch tax rate affect the company?"): told in words, the effect as the filing states it; the change
or growth words in it belong to the cause or to what was affected, not to a change asked of a figure."""
_ALTERED = "chang|modif|amend|alter|revis|adjust|restructur|reorganiz"
"""The stems of the verbs that say something was altered ("changed", "amended", "modified", "restructured")."""
_ACTED_ON = re.compile(r"^how\s+(?:does|do|did|has|have|will|would|could)\s+[^?]{1,80}?\s+"
                       rf"(?:{_ALTERED}|shift|reallocat)(?:e|es|ed|y|ied)?\s+"
                       r"(?:(?:the|its|their|his|her|our|a|an|this|that|these|those)\b|(?-i:[A-Z]))", re.I)
"""A question asking how someone changed something ("How did the Board change the April 2021 authorization?", "How
did the Federal Reserve change the firm's stress capital buffer?", "How did the firm shift attributed equity among
its segments?"): what was done, told in words; "How did revenue change from 2021 to 2022?" moves a figure (the verb
has no object)."""
_ACTED_ON_PASSIVE = re.compile(r"(?:^|,\s+)how\s+(?:was|were|has\s+been|have\s+been)\s+[^?]{1,100}?\s+"
                               rf"(?:{_ALTERED})(?:ed|ied)\b", re.I)
"""The same asked in the passive ("how was its $10.0 billion Credit Agreement changed in March 2022"): something was
done to it, told in words."""
_WAY_CHANGES = re.compile(r"\bhow\s+(?:will|would|did|does|do|has|have|could|might|may)\s+"
                          r"(?:(?:its|the|their|our|this|that)\s+)?(?:(?:[\w&.-]+\s+){0,3}?[\w&.-]+['’]s\s+)?"
                          r"(?:[\w-]+\s+){0,2}?"
                          r"(?:accounting|treatment|presentation|polic(?:y|ies)|approach|strategy|practices?|methods?|"
                          r"process(?:es)?|structure|reporting|disclosures?)\s+(?:change|differ|evolve)\b", re.I)
"""A question asking how a way of doing something changes ("how will its accounting change for unredeemed gift
cards", "How did the company's revenue recognition policy change?"): told in words, no figure moves."""
_PROSE_LATER = re.compile(r"(?:\band|,|;)\s+(?:what|how)\s+(?:does|do|did)\b", re.I)
"""A later clause that asks what something does ("What are its reportable segments and what does each offer?"):
prose, where the question names no line item or metric (else "... and how does it compare across the periods?"
asks figures)."""
CUE_PREFIX = 5
"""A cue word and a question's word sharing their first five letters say the same thing ("acquisition",
"acquired")."""
_SELF_REFERENCE = re.compile(
    r"\b(?:(?:as\s+)?(?:mentioned|stated|reported|disclosed|described|discussed|presented|outlined|named|"
    r"listed)\s+in|according\s+to|as\s+per)\s+(?:this|the|its|their)\s+(?:(?:annual|quarterly|current)\s+)?"
    r"(?:form\s+)?(?:10-?k|10-?q|8-?k|report|filing|document|statement)s?(?:\s+(?:report|filing))?"
    r"(?:\s+on\s+form\s+(?:10-?k|10-?q|8-?k))?\b"
    r"(?:\s+for\s+(?:the\s+)?(?:(?:first|second|third|fourth)\s+quarter|quarter|(?:fiscal\s+)?year|fiscal|q[1-4]|fy|"
    r"h[12]|(?:three|six|nine|twelve)\s+months)(?:[^,.;?]|,(?=\s*(?:19|20)\d{2})){0,40}?(?:19|20)\d{2}\b)?,?",
    re.I)
"""Words pointing at the document asked rather than at what is asked ("... mentioned in this 10K report"), with the
period the document covers ("according to its 10-Q for the second quarter of 2023"): the period asked is read from
the whole question all the same."""
_JUDGEMENT = re.compile(r"\b(?:capital[\s-]intensive|healthy|improving|deteriorat\w*|strong|weak|sustainable|"
                        r"profitable|liquid|solvent|leverag\w+|conservative|aggressive)\b", re.I)
_HOW_MANY = re.compile(r"\bhow\s+many\s+((?:[\w'-]+\s+){0,4}?[\w'-]+?)"
                       r"(?=\s+(?:are|is|was|were|do|does|did|have|has|had|can|could|will|would|in|of|on|from|"
                       r"with|that|which|who|shown|provide|provides|appear|appears|and|or)\b|\s*[?,.]|$)", re.I)
_NOT_COUNTED = frozenset({"times", "million", "millions", "billion", "billions", "thousand", "thousands", "percent",
                          "dollars"})
_FORWARD = re.compile(r"\b(?:expect|expects|expected|guidance|outlook|forecast|plan|plans|planned|target|"
                      r"project(?:s|ed)?|anticipate|will)\b", re.I)
BELIEF_VERBS = ("believe", "expect", "anticipate", "consider", "intend", "think", "plan")
"""The verbs of what a company believes or expects: a question asks it with them, a filing states it with them."""
_BELIEF = re.compile(rf"^\W*(?:does|do|did)\s+(?:[\w&.'’-]+\s+){{1,4}}?(?:{'|'.join(BELIEF_VERBS)})\b", re.I)
"""A yes/no asking what a company believes or expects ("Does Apple believe its cash will be sufficient ...?", "Does
management expect ...?"), told in its own sentence."""
_GROWTH_NAMES = (r"(?!\s+(?:strateg(?:y|ies)|pillars?|plans?|initiatives?|opportunit(?:y|ies)|priorit(?:y|ies)|agenda|"
                 r"platforms?|engines?|prospects?|areas?|avenues?|vectors?)\b)")
"""After "growth", a noun it names a kind of ("growth pillars", "a growth strategy"): no change is asked."""
_CHANGED = re.compile(rf"\b(?:chang\w*|increas\w*|decreas\w*|growth\b{_GROWTH_NAMES}|grow(?!th\b)\w*|grew|declin\w*|"
                      r"drop\w*|rise[ns]?|rising|rose|fall(?:s|en|ing)?|fell|cagr|"
                      r"compound(?:ed)? annual growth)\b", re.I)
_YEAR_IN = re.compile(r"(?:19|20)\d{2}")
_CAGR = re.compile(r"\bcagr\b|compound(?:ed)? annual growth", re.I)
_DEFINED = re.compile(r"\b(?:is|are) defined\b|\bdefine[sd]?\b", re.I)
_ESCAPE = re.compile(r"\bnot (?:a |an )?(?:useful|relevant|meaningful|appropriate|applicable)\b", re.I)
_GROWTH = re.compile(rf"\b(growth\b{_GROWTH_NAMES}|grew|grow|grows|growing|percent(?:age)? change|% change|"
                     r"year[- ]over[- ]year|yoy|increase|decrease|decline|change)\b", re.I)
_PCT = re.compile(r"percent|%|rate|growth", re.I)
_AGAINST = r"(?:from|versus|vs\.?|(?:compared|compares|compare|comparing)\s+(?:with|to|against))"
_YOY = re.compile(rf"\b(?:year[- ]over[- ]year|yoy|y/y|{_AGAINST}\s+(?:a|one)\s+year\s+(?:earlier|before|ago)|"
                  rf"(?:{_AGAINST}|over)\s+the\s+(?:same|prior[- ]year|year[- ]earlier)\s+(?:period|quarter)"
                  r"(?:\s+(?:a|of\s+the\s+prior|of\s+the\s+previous|last)\s+year)?|"
                  rf"(?:{_AGAINST}|over)\s+(?:the\s+)?(?:prior|previous|preceding|last)\s+(?:fiscal\s+)?year"
                  r"(?![- ](?:period|quarter|end)))\b", re.I)
"""A change against the same period a year before, in any of its usual words ("year over year", "compared with the
same quarter last year", "over the prior year": a year asked against the one before it)."""
_GROWTH_PCT = re.compile(r"growth|grew|grow|percent", re.I)
_OVER = (r"over(?!\s+(?:what|which|how|when|time\b|the\s+(?:next|past|last|coming|following|remaining|period|"
         r"course|life|lives|term)\b|(?:a|its|their)\s+(?:period|term|life)\b|\d|(?:one|two|three|four|five|six|seven|"
         r"eight|nine|ten|several)\b))")
""""over" as a division ("net income over total assets"), not a span of time ("over what period", "over the next 24
months", "over three years")."""
_RATIO = re.compile(r"\b(?:ratio of|proportion of)\s+(.+?)\s+to\s+(.+?)(?:\?|$| in | for | during )|"
                    rf"\b(.+?)\s+(?:as a (?:percent(?:age)?|%|share) of|divided by|{_OVER})\s+(.+?)(?:\?|$| in | for )",
                    re.I)
_RATIO_KEY = re.compile(rf"\b(?:ratio|proportion) of\s|\s(?:as a (?:percent(?:age)?|%|share) of|divided by|{_OVER})\s",
                        re.I)
"""The words one of ``_RATIO``'s two forms needs (a quick test before the search)."""
_RATIO_PCT = re.compile(r"margin|percent|%|rate", re.I)
_DIFF = re.compile(r"\b(difference|how much (?:more|less|higher|lower)|change in)\b", re.I)
_LEAD = re.compile(r"^(?:what|how|was|is|the|much|did|of|by)\b\s*", re.I)
_ROUND = re.compile(r"round(?:ed)?(?: (?:your|the) answer)? to (?:the nearest )?(\d|one|two|three|four|zero)\s+"
                    r"decimal(?: places?| points?)?|(\d|one|two|three) decimal places?", re.I)
_PLACES = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4}
_SIGN = re.compile(r"\b(positive|negative)\b", re.I)
_THRESHOLD_WORD = (r"\b(?P<word>exceed(?:s|ed)?|surpass(?:es|ed)?|top(?:s|ped)?|at (?:least|most)|"
                   r"(?:more|greater|higher|larger) than|above|over|(?:less|fewer|lower|smaller) than|below|under)")
_THRESHOLD = re.compile(_THRESHOLD_WORD + r"\s+(?:\w+\s+){0,2}?(?=[$€£]?\s?\d)", re.I)
_THRESHOLD_SHARE = re.compile(_THRESHOLD_WORD + rf"\s+(?P<share>{FRACTION_WORDS})\b(?!\s+(?:of\s+)?(?:a|the)\s+"
                              r"(?:year|decade|century))", re.I)
"""A level written as a share ("more than half of its net earnings"): a level only of a ratio asked."""
_BELOW_WORDS = ("less", "fewer", "lower", "smaller", "below", "under")
_TIME_AFTER = re.compile(r"\s*(?:years?|months?|quarters?|weeks?|days?|decades?)\b", re.I)
"""A unit of time after a bare number ("over 3 years", "more than 12 months"): a span, never a threshold."""
_OVER_PERIODS = re.compile(r"\b(?:over|across|in|during|throughout|between)\s+(?:the\s+|these\s+|those\s+)?"
                           r"(?:reported|recent|past|last|two|three|four|several)?\s*(?:\w+\s+)?"
                           r"(?:periods|quarters|years|10-qs|filings)\b", re.I)
_LATEST = re.compile(r"\b(?:most\s+recent|latest|newest|current)\s+(?:(?:fiscal|reported|reporting)\s+)?"
                     r"(?:quarter|year|period|10-?q|10-?k|(?:quarterly\s+|annual\s+)?(?:filing|report))s?\b",
                     re.I)
"""It asks about the newest filing ("the most recent 10-Q", "the latest quarter")."""
_ACROSS = re.compile(
    r"\bover\s+time\b|\bacross\s+(?:the\s+|these\s+|those\s+|all\s+)?(?:\w+\s+)?(?:quarters|periods|years|filings|"
    r"reports|10-?qs|10-?ks)\b|\b(?:these|those|the\s+reported|all\s+the)\s+(?:\w+\s+)?(?:quarters|periods|years|"
    r"10-?qs|10-?ks|filings|reports)\b|\beach\s+(?:reported\s+|reporting\s+|fiscal\s+)?(?:period|quarter|year|"
    r"filing|report)\b|\bthroughout\s+the\s+(?:reported\s+|reporting\s+)periods?\b|"
    r"\bquarter[\s-]+(?:over|on|to)[\s-]+quarter\b|"
    r"\b(?:previous|prior|earlier|preceding)\s+(?:quarters|periods|years|ones|filings|reports|10-?qs|10-?ks)\b|"
    r"\b(?:quarterly|annual)\s+reports\b|\b(?:over|during|throughout)\s+the\s+report(?:ed|ing)\s+periods?\b",
    re.I)
"""It asks about several filings' periods ("over time", "across quarters", "in these 10-Qs", "for each reported
period", "compared to the previous quarters")."""
_VERSUS = re.compile(r"\b(?:compar\w*|versus|vs\.?|relative\s+to|against|side\s+by\s+side|differ\w*|"
                     r"higher|lower|more|less|better|worse)\b", re.I)
"""It sets one thing against another ("How does A's margin compare with B's?")."""
_QUARTER_WORDS = re.compile(r"\bquarter(?:s|ly)?\b|\b10-?qs?\b|\bq[1-4]\b", re.I)
_YEAR_WORDS = re.compile(r"\b(?:years|annual(?:ly)?|yearly|10-?ks?|fiscal\s+years)\b", re.I)
_SHIFT = re.compile(r"\b(?:change|changes|shift|shifts|movement|swing)\b", re.I)
_TRENDS = re.compile(r"\btrends?\b|\bpattern", re.I)
_NOTABLE = re.compile(r"\b(?:significant|considerable|notable|material|major|substantial)\b", re.I)
_CONSISTENT = re.compile(r"\bconsistent", re.I)
_PART = re.compile(r"\b(?!(?:Which|What|Whose|Each|Every|Any|The|This|That|These|Those|Its|Our|Their|Another|"
                   r"Both|How|Why|In|For|Of|By|Did|Does|Do|Is|Are|Was|Were|Has|Have|If)\b)"
                   r"(?:((?:[A-Z][\w&-]*\s+(?:(?:and|&)\s+)?){0,3}[A-Z][\w&-]*)\s+(?:\([^)]*\)\s+)?"
                   r"(?:(?:operating|reportable|reporting|business)\s+)?(?:segment|business|division|unit)\b"
                   r"|((?:[A-Z][\w&-]*\s+(?:(?:and|&)\s+)?){1,4}(?:Businesses|Segments|Divisions|Units|Groups))\b)")
"""A part named with its kind word ("the Data Center segment"); a capital word that asks or points ("Which segment",
"The Consumer segment" at a sentence's start) is not of the name. A plural kind word in capitals is the name's own
last word ("Hemlock and Emerging Growth Businesses", "Other Businesses"), where a plural in lower case follows
several parts ("the Americas and EMEA segments")."""
_PART_LINK = re.compile(r"\s+(?:(?:came|comes|come|coming)\s+from|from|generated\s+(?:by|from|in)|derived\s+from|"
                        r"earned\s+(?:from|in)|in)\s+"
                        r"(?:the\s+|its\s+|our\s+)?(?:[A-Z][\w&.-]*['’]s\s+)?")
"""What joins a measure to a part named after it: "revenue from iPhone sales", "revenue generated by the Americas
region", "revenue in China", "revenue from Apple's Services" ("of" and "for" name the company or the period as
often: "revenue of Alphabet", "revenue for the year")."""
_ABBREVIATION = r"(?:(?<=\b[A-Za-z]\.[A-Za-z])\.|(?<=\bInc)\.|(?<=\bCorp)\.|(?<=\bLtd)\.|(?<=\bCo)\.)?"
_PART_WORDS = re.compile(rf"[A-Za-z](?:[\w&'’-]|\.(?=\w))*{_ABBREVIATION}"
                         rf"(?:\s+[A-Za-z](?:[\w&'’-]|\.(?=\w))*{_ABBREVIATION}){{0,5}}")
"""A part's name: up to six words, an abbreviation's dots kept ("the U.S. Government", "Acme Co. Ltd.")."""
_PART_BEFORE = re.compile(r"(?<![\w'’.-])((?:[\w&-]*[A-Z][\w&-]*\s+){0,2}[\w&-]*[A-Z][\w&-]*)\s+"
                          r"(?:\([^)]*\)\s+)?(?:segment\s+|net\s+)?$")
"""A part of a measure named before it, in capitals: "iPhone net sales", "AWS revenue", "Data Center sales"."""
CONNECTIVES = frozenset("over across in for during between from at as and or compared versus vs since to by of with "
                       "on that which this these those were was is are has have".split())
"""Words that join a question's nouns and name nothing: they end a part's name written after its measure ("revenue
from iPhone sales over the quarters"), and no subject is matched by them."""
_MOVED = re.compile(r"(?i:fluctuat\w*|evolv\w*|mov(?:e|ed|es|ing)|trend\w*|perform\w*|compar\w*|shift\w*|vari\w*)")
"""Verbs of movement besides ``_CHANGED``'s ("fluctuated", "evolved", "trended"): they end a part's name."""
_BACK_REFERENCES = frozenset("it them this that these those".split())
"""Words that name a part by pointing back at it ("Who is its largest customer, and how much of its sales come from
it?"): the part is asked, and no row of the whole answers it."""
_POINTING = _BACK_REFERENCES | {"its"}
"""Words with which a later part that names a figure asks it of the part the part before names ("how much revenue
did it generate?", "what was its revenue?")."""
_POINTING_BACK = _BACK_REFERENCES | {"they", "ones"}
"""Words with which a later part asks the figure the part before names ("Which ones, by how much?", "how much did
they grow?"); "its" points at the part, not at the figure ("how much did its receivable factoring programs
accelerate collections?" asks a figure of its own)."""
_DISTRIBUTIVE = frozenset({"each", "every", "respectively"})
"""Words that ask a figure of every one of the things a part before names ("how much did each generate?")."""
_WHOLE_COMPANY = frozenset("total consolidated company overall group".split())
"""Words that ask of the whole company, not a part pointed back at ("and what was its total revenue?")."""
_PART_HEADS = frozenset("sales segment segments business division unit product products line category region regions "
                        "market markets".split())
"""Head nouns after a part's name ("iPhone sales", "the Americas region"): not part of the name a row prints."""
_WHOLE = frozenset(
    "total net gross consolidated operating reported adjusted organic gaap non-gaap annual quarterly overall "
    "contracts contract customers customer external operations operation continuing discontinued all sources "
    "company year years quarter quarters period periods month months fiscal first second third fourth half "
    "sales revenue revenues fy ttm ltm yoy the its our their each ended ending week weeks three six nine twelve "
    "basic diluted top largest other remaining most recent latest new shareholders stockholders holders owners parent "
    "usd eur gbp dollars millions billions thousands statement statements report reports filing filings".split())
"""Words that, alone, name the whole of a measure or a time, not a part of it ("revenue from contracts with
customers", "sales from continuing operations", "Total revenue", "GAAP revenue", "Q2 revenue")."""
_AMONG = re.compile(r"\b(?:among|of|between)\s+(?:the\s+)?(?:three\s+|two\s+|four\s+)?(?P<list>[\w&'’ -]+?"
                    r"(?:,\s*[\w&'’ -]+?)*,?\s+(?:and|or)\s+[\w&'’ -]+?)\s*[,:]?\s*(?:which|what)\b", re.I)
_WHICH_OF = re.compile(r"\bwhich\s+(?:one\s+)?of\s+(?:the\s+)?(?:three\s+|two\s+|four\s+)?(?P<list>[\w&'’ -]+?"
                       r"(?:,\s*[\w&'’ -]+?)*),?\s+(?:and|or)\s+(?P<last>[\w&'’ -]+?)\s+(?=(?:\w+\s+){0,4}?"
                       r"(?:the\s+)?(?:most|least|largest|highest|biggest|greatest|smallest|lowest)\b)", re.I)
_MOST = re.compile(r"\b(?:most|largest|highest|biggest|greatest|maximum|strongest|fastest|best|steepest|sharpest|"
                   r"deepest)\b", re.I)
_LEAST = re.compile(r"\b(?:least|smallest|lowest|minimum|weakest|slowest|worst)\b", re.I)
SUPERLATIVE = re.compile(rf"{_MOST.pattern}|{_LEAST.pattern}", re.I)
"""A word that picks one of several ("the best-selling category", "the slowest")."""
_PERFORMED = re.compile(r"\b(?:out|under)?perform\w*", re.I)
"""How a part "performed" is how it moved: the best-performing category is the one that grew most."""
_LOSS = re.compile(r"\b(?:lost|lose|loses|spent|spend|spends|used|uses|burned|consumed)\b", re.I)
_LIST_SPLIT = re.compile(r",\s*(?:and\s+|or\s+)?|(?<!\s)\s+(?:and|or)\s+")
_STEADY = re.compile(r"\b(?:consistent\w*|stable|steady|fluctuat\w*|volatil\w*)\b", re.I)
_TOLERANCE = re.compile(r"(\d+(?:\.\d+)?)\s*(?:%|percent(?:age)? points?|pp\b)", re.I)
_AVERAGE_WORDS = re.compile(r"\baverage|\bdefined\b|\bmean\b", re.I)
_QUARTERS = re.compile(r"\bq[1-4]\b|\bquarter", re.I)
_EVERY_QUARTER = re.compile(r"same (?:quarter|period)|prior[- ]year quarter", re.I)
_EVERY_PERIOD = re.compile(r"\b(?:every|each|all(?:\s+the)?)\s+(?:[a-z-]+\s+){0,2}?"
                           r"(?:periods?|years?|figures?|amounts?)\s+"
                           r"(?:shown|presented|reported|disclosed|stated|included)\b", re.I)
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
_ASKING = "what|how|which|who|why|where|when|did|does|do|is|are|was|were|has|have"
_PREPOSITION = r"(?:over|in|within|during|by|for|from|to|with|under|on|at|through|until|against)\s+"
_PREPOSED = _PREPOSITION + r"(?:what|which|whom|whose)"
_PART_SPLIT = re.compile(rf"(?:\?\s+|\.\s+)(?:Also\s+)?(?=(?:{_ASKING.title()})\b)"
                         rf"|(?:\?\s+|\.\s+)If (?:so|yes|not|applicable),?\s+(?=(?i:{_ASKING})\b)"
                         rf"|(?i:,\s+and\s+|;\s+(?:and\s+)?)(?=(?i:{_PREPOSED}|{_ASKING})\b)"
                         r"|(?P<bare>,\s+)(?=(?i:which|what)\s+(?!(?:the|its|their|our|his|her|it|they|we|management)\b)"
                         r"[a-z-]+\s+(?:[a-z-]+\s+)?(?:do|does|did|is|are|was|were|has|have|had|will|would|can|could)\s"
                         r"|(?i:how)\s+(?:much|many|large|big|did|does|do|has|have|is|are|was|were)\b"
                         r"|(?i:what)\s+(?:is|are|was|were)\s+(?:the|its|their|his|her)\b"
                         r"|(?i:where|who)\s+(?:do|does|did|is|are|was|were|has|have|had|will|would|can|could|[a-z]+s)\b)"
                         r"|(?P<bare_and>(?<!,)\s+and\s+)(?=(?i:what|why|where|who)\s+(?:does|do|did|is|are|was|were)\s+"
                         r"(?i:it|they|this|that|these|those|each)\b)")
"""Where a question of several parts starts its next part: a second asking clause after "?", ", and", "; " or a
sentence end ("What were net sales in fiscal 2022, and how much did they grow over fiscal 2021?"; "Has there been
any significant change in operating expenses? If so, what are the key drivers?"), the asking word after its
preposition too (", and over what period does it expect to recognize it?", ", and to whom was it sold?"); or after
a bare comma, "which/what" and a bare noun then its verb (", which business does it mainly relate to, and ..."),
or "how much/many/large ..." (", how much was borrowed under it, and ..."), or "what is/are its ..." (", what are its
interest rate and commitment fee terms, and ..."), or "where/who" and a verb (", where does it show up in the income
statement", ", who owes them"); or after a bare "and", an asking word whose clause has a pronoun for subject ("what
amount is included in other income and what does it represent"), when an asking clause comes before
it: a relative clause has its own subject ("..., which the company does not expect to recur"), and a lead-in is
no question ("As of 2022, which geographies does it serve?")."""
_LEAD_WHEN = re.compile(r"\W*when\s+(?:\w+ly\s+)?\w+ing\b[^,?]*", re.I)
"""A lead-in saying how to answer ("When primarily referencing the income statement, ..."), no asking clause."""
_ASKS = re.compile(rf"(?i:^\W*(?:{_ASKING})\b|\b(?:what|how|which|who|whom|whose|why|when|where)\b)")
_WORD = re.compile(r"[a-z0-9&]+", re.I)
_POSSESSIVE_S = re.compile(r"(?<=\w)['’]s\b")
"""A possessive's "s" ("Pfizer's"): no word of the question (a "U.S." column heading's "s" is not asked by it)."""


# --- measures ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Measure:
    """A line item the question asks for: a vocabulary item, or the question's own words."""

    name: str
    names: tuple[str, ...]
    item: LineItem | None = None


def item_measure(it: LineItem) -> Measure:
    """The measure a vocabulary item is: named by its name, its labels and the words a question asks it by."""
    return Measure(it.name, (it.name, *it.labels, *it.asked), it)


def measure_of(text: str) -> Measure:
    """The measure a phrase names: the vocabulary's item when it knows the phrase, else the phrase's words."""
    from engine.vocabulary import item

    it = item(text)
    if it is not None:
        return item_measure(it)
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
    hits = _hits(low, m)
    return bool(hits) and all(m.item.excludes(_own_words(low, x.start(), x.end(), hits)) for x in hits)


def _hits(low: str, m: Measure) -> list[re.Match[str]]:
    """Every place the question names the item, by any of its naming phrases, as whole words; a phrase inside a
    longer one's place is that place ("cash" in "cash and cash equivalents")."""
    found = [x for p in m.names if p for x in re.finditer(rf"(?<![a-z]){re.escape(p)}(?![a-z])", low)]
    return [x for x in found if not any(y is not x and y.start() <= x.start() and x.end() <= y.end()
                                        and y.end() - y.start() > x.end() - x.start() for y in found)]


_NON = re.compile(r"\bnon[- ]?$")
_HELD = (r"\bhow\s+much\s+(?!of\b|was\b|were\b|is\b|are\b)\S+(?:\s+\S+){0,6}?\s+"
         r"(?:was|were|is|are|has\s+been|had\s+been)\s+(?:(?:held|included|recorded|carried|"
         r"reported|classified)\s+)?(?:in|within|inside|as\s+part\s+of)\s+(?:its\s+|the\s+|our\s+|their\s+)?")
_HELD_IN = re.compile(_HELD + "$")
_ASKS_HELD = re.compile(_HELD, re.I)


def _holds(low: str, m: Measure) -> bool:
    """Whether the question names the item only as where the thing asked is held ("How much 787 deferred production
    cost was in inventory?", "How much goodwill was included in total assets?"): the thing is asked, not the item
    that holds it."""
    hits = _hits(low, m)
    return bool(hits) and all(_HELD_IN.search(low, max(0, x.start() - 120), x.start()) for x in hits)


def _negated(low: str, m: Measure) -> bool:
    """Whether the question names the item only with "non-" before it: "non-income tax disputes" (sales, value added
    and similar taxes) are no income tax, "non-GAAP" no GAAP figure, "non-operating income" no operating income."""
    hits = _hits(low, m)
    return bool(hits) and all(_NON.search(low, max(0, x.start() - 4), x.start()) for x in hits)


def _own_words(low: str, start: int, end: int, hits: Sequence[re.Match[str]]) -> str:
    """The words around one naming phrase that can qualify it: a few before and after, not past another naming
    phrase of the same item ("liquidity position or cash flows": "flows" qualifies "cash", not the liquidity
    position)."""
    lo = max([max(0, start - 25), *(h.end() for h in hits if h.end() <= start)])
    hi = min([end + _QUALIFIER_REACH, *(h.start() for h in hits if h.start() >= end)])
    return low[lo:hi]


_CASH_BY = re.compile(r"\bcash\s+(?:did|does|do|has|have|had|will|would)\s+(?:[\w&.'’-]+\s+){0,3}?"
                      r"(?P<by>operations|operating\s+activities|investing\s+activities|financing\s+activities)\s+"
                      r"(?P<verb>provide|generate|use|bring\s+in|produce)\b", re.I)
"""Cash a flow's activities gave, asked with the verb after them ("How much cash did NIKE's operations provide"):
the line "cash provided by operations"."""
_CASH_VERB = {"provide": "provided by", "generate": "generated by", "use": "used in", "bring in": "provided by",
              "produce": "provided by"}


def _cash_by(text: str) -> str:
    """A question with each ``_CASH_BY`` phrase told as its line ("cash provided by operations")."""
    return _CASH_BY.sub(lambda m: f"cash {_CASH_VERB[' '.join(m['verb'].lower().split())]} {m['by']}", text)


def _measures(text: str) -> tuple[Measure, ...]:
    """The line items a question names: the vocabulary's first (longest naming phrase first); an item whose
    naming phrase sits inside a longer one's ("sales" inside "cost of sales") is not asked. Cash asked with its
    activities' verb after them is their line (``_cash_by``)."""
    text = _cash_by(text)
    found = [item_measure(it) for it in items_named(text)]
    kept: list[Measure] = []
    low = text.lower()
    for m in found:
        if _qualified(low, m) or _negated(low, m) or _holds(low, m):
            continue
        span = _span(low, m)
        longest = low[span[0]:span[1]] if span else ""
        if any(longest and longest != p and longest in p and re.search(re.escape(p), low)
               for k in kept for p in k.names):
            continue
        kept.append(m)
    # a phrase naming several items ("its cash flows") asks for each, unless the question names one of them itself
    for pattern, names in groups().values():
        if pattern.search(text) and not any(k.name in names for k in kept):
            for name in names:
                it = item_named(name)
                if it is not None:
                    kept.append(item_measure(it))
    return tuple(kept)


# --- the question -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ranking:
    """A question that asks which of the items it lists is the largest or smallest ("Among operations, investing,
    and financing activities, which brought in the most cash flow in FY2023?")."""

    names: tuple[str, ...]
    """The items listed; empty when it ranks the parts a table breaks its measure into (``breakdown``)."""
    highest: bool
    cash: bool
    """The question is about cash: a bare "investing" is the vocabulary's "cash from investing"."""
    breakdown: str = ""
    """With no ``names``: the kind of part ranked ("region" of "Which geographic region had the biggest drop in
    revenues?", the vocabulary's ``[breakdowns]``)."""
    by_change: bool = False
    """Ranked by each part's change from the same period a year before ("the biggest drop", "grew the most"), not
    by its amount."""
    in_amount: bool = False
    """With ``by_change``: the change in amount, not in percent ("lost the most revenue in dollar terms")."""
    section: str = ""
    """With no ``names``: the class of a statement's lines ranked ("liabilities" of "What was the largest liability
    on the balance sheet?", the vocabulary's ``[sections]``)."""
    current: str = ""
    """With ``section``: "current" or "non-current", the block of the class asked ("the largest of its current
    liabilities"); '' for the whole class."""
    turned: str = ""
    """"profit" or "loss": the part asked is the one whose figure turned to it from the other ("Which segment swung
    from an operating loss to an operating profit?"), of the parts ranked by change."""


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
    asking: frozenset[str] = frozenset()
    """The verbs of its asking clauses (``asking_verbs``: "depend" of "what kinds of suppliers does Amazon depend
    on", "decide" of "what did the jury decide"): what it asks with, not a claim an answer must find quoted."""
    yes_no: bool = False
    why: bool = False
    """It asks for the reasons of something (its first sentence)."""
    asks_value: bool = False
    """It asks for a figure, not a choice, a reason or a description: a resolved cell is the answer itself."""
    counted: str = ""
    """What a "how many" question counts, singular ("plot"); '' for no count."""
    formula: tuple[str, str] | None = None
    """(template, year) of the metric it defines, names or asks as a share (``definition``)."""
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
    year_over_year: bool = False
    """Its change is against the same period a year before ("year-over-year revenue growth for the three months ended
    July 2, 2023"): one period named is enough."""
    pair: tuple[str, str] | None = None
    """"X as a % of Y", "ratio of X to Y": the two phrases."""
    pair_percent: bool = False
    rounding: int | None = None
    """Decimal places it asks the answer rounded to."""
    registered: str = ""
    """It asks which securities are registered on an exchange (Section 12(b)): "debt" for debt securities or notes,
    "any" for securities, stock or shares; '' otherwise."""
    in_percent: bool = False
    """It asks the answer in percent ("Answer in units of percents", "(as a percentage)"): a ratio it defines
    without "* 100" is stated as a percent ("18.83%", not "0.19")."""
    direction: str = ""
    """For a yes/no about a change: "up", "down", "any" (any change) or ''."""
    sign: str = ""
    """"positive" or "negative" when it asks whether an amount is one."""
    threshold: tuple[str, float, str] | None = None
    """("above" or "below", the amount with its scale word applied, as written) when it asks whether a figure is
    over or under an amount it states ("Did revenue exceed $10 billion in FY2022?")."""
    over_periods: bool = False
    latest: bool = False
    """It asks about the newest filing or period ("the most recent 10-Q")."""
    last: int | None = None
    """N of "over the last N quarters / years" (``periods.last_periods``)."""
    across: bool = False
    """It asks about several filings' periods ("over time", "across quarters", "these 10-Qs", "each reported period",
    "the previous quarters", or ``over_periods``)."""
    versus: bool = False
    """It sets one figure against another ("compare", "versus", "higher than"): with two companies named, each
    company's figure side by side."""
    span: str = ""
    """"quarter" when it speaks of quarters or 10-Qs, "year" of years or 10-Ks (quarters first), else ''."""
    trend: bool = False
    shift: bool = False
    notable: bool = False
    consistent: bool = False
    segment: str = ""
    """A part of the company it names ("Data Center segment" -> "Data Center")."""
    ranking: Ranking | None = None
    listing: str = ""
    """The kind of part it asks to be listed, none ranked ("What geographic regions does it break its revenue into,
    and how much came from each?", "What are the geographies it operates in?": region; the vocabulary's
    ``[breakdowns]``)."""
    steady: bool = False
    tolerance: tuple[float, str] | None = None
    escape: bool = False
    """It allows that its metric may not suit the company ("if gross margin is not a useful metric ...")."""
    forward: bool = False
    """It asks about plans, guidance or expectations."""
    unusual: bool = False
    """It asks about items outside the ordinary course of business (the vocabulary's ``[unusual] asked``: "one-time
    items", "events not in its standard business operations")."""
    full_date: bool = False
    """It names a day (not only a month)."""
    every_quarter: bool = False
    """It names a quarter for each year it names ("Q2 2023 vs Q2 2022", "the same quarter")."""
    every_period: bool = False
    """It asks for the measure in every period the filing shows ("for every period shown", "for each year
    presented"), not one."""
    quoted: tuple[tuple[str, bool], ...] = ()
    """What it quotes from the document it means: (phrase, is a long figure)."""
    possessives: tuple[str, ...] = ()
    """Names it puts in the possessive ("Apple's plants")."""
    names: tuple[str, ...] = ()
    """The names it asks about, in runs: capitalised words and codes that open no sentence ("Boeing's Commercial
    Airplanes", "777X", "Boeing Defense, Space & Security"), less periods ("Q3", "FY2022"), the filing's form
    ("10-K", "Form") and a term's abbreviation ("M&A", "R&D"). A summary of quotes is checked against them
    (``faithful``)."""
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
    mentions: tuple[tuple[str, int, int, int], ...] = field(default=(), compare=False, hash=False)
    """Where the text names a company of the library: (document id, start, end, length of a possessive "'s"
    after it), so a search within one company's filings can leave its name out (``routing.without_company``)."""
    given: tuple[float, ...] = ()
    """The amounts it states itself, each as written and scaled ("Amazon's $1.5 billion revolving credit facility":
    1.5 and 1.5e9): a model repeating one gives the question's figure, no cell's."""
    self_reference: str = ""
    """Its words that point at the document asked, not at what is asked ("mentioned in this 10K report",
    "according to the filing"): searched, they rank the pages that say "report" and "10-K" (exhibit lists, the
    cover) ahead of the one that answers, so the search leaves them out."""
    parts: tuple[Question, ...] = ()
    """The parts of a question of several ("net sales in fiscal 2022, and how much did they grow?"), each a
    question of its own with the measure and period of the part before when it names none; () for one part."""

    @property
    def formula_dated(self) -> bool:
        """Its metric's definition names years of its own ("FY2019 revenue / (average PP&E between FY2018 and
        FY2019)"): one metric, not one to compute for each year asked."""
        return self.formula is not None and _YEAR_IN.search(self.formula[0]) is not None

    @property
    def asks_belief(self) -> bool:
        """A yes/no asking what the company believes or expects ("Does Amazon expect to recover those payments?"):
        its answer is the sentence where the filing says what it believes (``_BELIEF``)."""
        return self.yes_no and bool(_BELIEF.match(self.first))

    @property
    def told_in_words(self) -> bool:
        """Its answer is the filing's own sentences: it asks a narrative kind (``narrative``), is no judgement (standard
        ratios read from the statements decide those) and names no chart or figure (``figures``: the figure answers
        it). Retrieval puts passages ahead of tables and figures for it."""
        return bool(self.narrative) and self.intent is not Intent.JUDGEMENT and not self.figures

    @property
    def told(self) -> Question | None:
        """The question whose answer is the filing's sentences: itself when it asks a narrative kind (or several of
        its parts do), or its one part that does ("How did the effective tax rate change from 2021 to 2022, and what
        explains the move?": the second part; "Summarize the risk factors, and how they have changed": the first);
        None for a figure."""
        narrated = [p for p in self.parts if p.narrative]
        if self.narrative or len(narrated) > 1:
            return self
        return narrated[0] if narrated else None

    @property
    def searched_cues(self) -> tuple[str, ...]:
        """The cue phrases the lexical search of passages adds for it when it is told in words: its kind's when they
        mark an answer whatever its subject (``[narrative.KIND] searched``: "due to", "driven by", "offset by" for
        what drove a change); else those of its kind that say what it asks in its own words ("acquired", "we
        acquired", "completed the acquisition" for the companies acquired, not "customer": customers, suppliers and
        acquisitions share the parties kind, and its other cues would pull one to the other); () otherwise."""
        kind = narrative().kind(self.narrative) if self.told_in_words else None
        if kind is None:
            return ()
        if kind.searched:
            return kind.cues
        asked = {w[:CUE_PREFIX] for w in self.stems if len(w) >= CUE_PREFIX}
        for group in self.alike_groups(kind):
            asked |= {w[:CUE_PREFIX] for x in group for w in stems(x) if len(w) >= CUE_PREFIX}
        return tuple(c for c in kind.cues if any(len(w) >= CUE_PREFIX and w[:CUE_PREFIX] in asked for w in stems(c)))

    def alike_groups(self, kind: NarrativeKind) -> tuple[tuple[str, ...], ...]:
        """The groups of ``kind``'s ``alike`` words the question uses one of ("bought" asks for what "acquired"
        says; "how was the lawsuit resolved" for what "in favor of", "affirmed" and "dismissed" say); a short word
        ("buy") counts whole."""
        asked = {w[:CUE_PREFIX] for w in self.stems if len(w) >= CUE_PREFIX}
        return tuple(group for group in kind.alike
                     if any(w in self.stems or len(w) >= CUE_PREFIX and w[:CUE_PREFIX] in asked
                            for x in group for w in stems(x)))

    @property
    def subject_words(self) -> tuple[str, ...]:
        """The words of the line items and the ratio it asks about ("effective", "tax", "rate"), stopwords aside:
        what a passage about its subject writes at least one of."""
        names = [n for m in self.measures for n in (m.names or (m.name,))] + ([self.ratio[0]] if self.ratio else [])
        return tuple(dict.fromkeys(w for n in names for w in _WORD.findall(n.lower())
                                   if len(w) > 2 and w not in STOPWORDS))

    @property
    def measure_labels(self) -> tuple[tuple[str, str], ...]:
        """The labels its measures go by in filings (a vocabulary item's name, labels and asked words), each with the
        statement that reports the item ('' when the vocabulary does not say): the row a question names in words of
        its own ("income from operations" is the income statement's row "Operating income")."""
        return tuple(dict.fromkeys((n, m.item.statement if m.item is not None else "")
                                   for m in self.measures for n in m.names))

    @property
    def expansion(self) -> Expansion:
        """The question with financial synonyms and its periods spelled as filings spell them (retrieval)."""
        return expand(self.text)

    def reading(self) -> str:
        """How the question was read, in one line a reader can check ("change · gross margin · fiscal 2021 and
        2022 · JnJ"): what kind of answer, what is measured, which periods, which companies, how many parts.
        '' when it names neither a measure nor a period."""
        what = ""
        if self.ratio is not None:
            what = self.ratio[0]
        elif self.formula is not None:
            what = self.formula[0].replace("{year}", "year").replace("{prev}", "year before")
        elif self.measures:
            what = ", ".join(dict.fromkeys(m.name for m in self.measures[:3]))
        when = _asked_reading(self.asked)
        if not what and not when:
            return ""
        who = ", ".join(dict.fromkeys(self.text[start:end] for _, start, end, _ in self.mentions))
        bits = [self.intent.value.replace("_", "/"), what, when, who,
                f"{len(self.parts)} parts" if self.parts else ""]
        return " · ".join(b for b in bits if b)

    def breakdown_order(self, titles: Sequence[str]) -> list[int]:
        """The indexes of the ``titles`` that name the kind of part the question ranks (``Ranking.breakdown``;
        the vocabulary's ``breakdown_title``) or lists (``listing``), those sharing more of the question's words
        first, else in the order given: "the domestic market" ranks the domestic segment's revenue mix by category
        before the international segment's. Empty when the question ranks or lists no breakdown."""
        r = self.ranking
        if r is not None and (r.names or not r.breakdown) or r is None and not self.listing:
            return []
        kind = breakdown_title(r.breakdown if r is not None else self.listing)
        named = [i for i, t in enumerate(titles) if kind.search(t)]
        return sorted(named, key=lambda i: -len(self.stems & stems(titles[i])))

    def shifted(self, years: int) -> Question:
        """The same question asked ``years`` fiscal years earlier (or later): its periods and its metric's
        definition moved, nothing else (a trend compares the metric with the year before)."""
        a = self.asked

        def move(y: int | None) -> int | None:
            return None if y is None else y + years

        def back(d: date | None) -> date | None:  # the same day that many years away (52/53-week years end within
            # the periods' slack of it); 29 February becomes the 28th
            return None if d is None else d.replace(year=d.year + years, day=min(d.day, 28) if d.month == 2 else d.day)

        # a period named by its end date ("the year ended December 31, 2018") moves with its date: without one, a
        # ranking of growth read the year asked against itself
        asked = replace(a, fiscal_year=move(a.fiscal_year), years=tuple(y + years for y in a.years),
                        fiscal_named=tuple(y + years for y in a.fiscal_named), instant=back(a.instant),
                        end=back(a.end), instants=tuple(d for x in a.instants if (d := back(x)) is not None))
        formula = self.formula
        if formula is not None:
            template = re.sub(r"(?<!\d)((?:19|20)\d{2})(?!\d)", lambda m: str(int(m.group(1)) + years), formula[0])
            formula = (template, str(int(formula[1]) + years) if formula[1] else "")
        return replace(self, asked=asked, formula=formula, averaged=tuple(y + years for y in self.averaged))


_SPAN_NAMES = {3: "", 6: "six months of ", 9: "nine months of ", 12: ""}


def _asked_reading(a: Asked) -> str:
    """The asked periods in words: "Q4 of fiscal 2022", "fiscal 2021 and 2022", "balance at December 31, 2022"."""
    if a.instant is not None:
        return f"balance at {a.instant:%B} {a.instant.day}, {a.instant.year}"
    if a.end is not None:
        return f"period ended {a.end:%B} {a.end.day}, {a.end.year}"
    years = [str(y) for y in sorted(set(a.years))] or ([str(a.fiscal_year)] if a.fiscal_year else [])
    if not years and a.quarter is None:
        return ""
    span = f"Q{a.quarter} of " if a.quarter else _SPAN_NAMES.get(a.months or 12, "")
    named = " and ".join(years) if len(years) < 3 else f"{', '.join(years[:-1])} and {years[-1]}"
    return f"{span}fiscal {named}".strip() if years else f"Q{a.quarter}"


def _first_sentence(text: str) -> str:
    return SENTENCE_BREAK.split(text.strip(), maxsplit=1)[0]


def _counted(text: str) -> str:
    m = _HOW_MANY.search(text)
    if not m:
        return ""
    head = m.group(1).split()[-1].lower().strip("'")
    if head in _NOT_COUNTED:
        return ""
    return head[:-3] + "y" if head.endswith("ies") else head[:-1] if head.endswith("s") and len(head) > 3 else head


_IN_PERCENT = re.compile(r"\b(?:in|as)\s+(?:(?:units?|terms)\s+of\s+)?(?:an?\s+)?(?:percent(?:age)?s?\b|%)"
                         r"(?!\s*(?:points?|of)\b)", re.I)
"""The answer's unit given as percent ("in units of percents", "as a percentage", "in %"), not a change in
percentage points or a share "as a percentage of" a whole (which names what it divides by)."""
_PERCENT_ASIDE = re.compile(r"\((?:in\s+|as\s+an?\s+)?(?:percent(?:age)?|%)\)", re.I)


_REGISTERED = re.compile(r"\b(?P<what>debt\s+securities|debt|notes|bonds|debentures|securities|stocks?|shares|"
                         r"equity\s+securities)\b[^?.;]{0,80}?\b(?:registered|listed)\b[^?.;]{0,80}?"
                         r"\b(?:exchanges?|section\s+12\s*\(b\)|nyse|nasdaq)\b|"
                         r"\bregistered\s+(?:pursuant\s+to|under)\s+section\s+12\s*\(b\)", re.I)
"""A question asking which securities are registered to trade on an exchange ("Which debt securities are registered
to trade on a national securities exchange under 3M's name?"): every 10-K and 10-Q lists them on its cover page."""


def _registered(text: str) -> str:
    m = _REGISTERED.search(text)
    if m is None:
        return ""
    what = (m.group("what") or "").lower()
    return "debt" if what.split()[:1] in (["debt"], ["notes"], ["bonds"], ["debentures"]) else "any"


def _in_percent(text: str) -> bool:
    """Whether the question asks its answer in percent: said in a sentence that only instructs how to answer
    ("Answer in percent, rounded to two decimal places.") or in an aside ("(in percent)")."""
    return any(_IN_PERCENT.search(s) for s in instructions(text)) or bool(_PERCENT_ASIDE.search(text))


def as_percent(formula: tuple[str, str] | None, percent: bool) -> tuple[str, str] | None:
    """A ratio's definition times 100 when the answer is asked in percent and the definition does not say so
    ("dividends paid / net income" asked "in units of percents"); unchanged otherwise (a sum, a difference, a
    definition already "* 100")."""
    if formula is None or not percent or "* 100" in formula[0] or "/" not in formula[0]:
        return formula
    return f"({formula[0]}) * 100", formula[1]


def _rounding(text: str) -> int | None:
    m = _ROUND.search(text)
    if m is None:
        return None
    word = (m.group(1) or m.group(2)).lower()
    return int(word) if word.isdigit() else _PLACES[word]


def _direction(low: str) -> str:
    rises, falls = directions()
    down, up = bool(falls.search(low)), bool(rises.search(low))
    if down and not up:
        return "down"
    if up and not down:
        return "up"
    if change_words().either.search(low):
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


_WHICH = re.compile(r"\bwhich\s+((?:(?:one\s+of|of|the|its|their|[\w&'’-]+)\s+){1,7})", re.I)


_TURNED = re.compile(r"\b(?:swung|swing|swings|turned|turns?|went|moved|shifted|flipped|returned|crossed)\b"
                     r"[^?.;]{0,40}?"
                     r"\bfrom\s+(?:an?\s+)?(?:[\w-]+\s+)?(?:loss|losses|profit|income|earnings|deficit)\s+to\s+"
                     r"(?:an?\s+)?(?:[\w-]+\s+)?(?P<to>loss|profit|income|earnings)\b|"
                     r"\b(?:turned|became|becoming|returned\s+to|turning)\s+(?:profitab\w+|a\s+profit)", re.I)
"""A part whose figure changed sign ("swung from an operating loss to an operating profit", "turned profitable")."""


def _breakdown_ranking(plain: str) -> Ranking | None:
    """Which part of a kind the question names ranks first, where it lists none ("Which geographic region had the
    biggest drop in Q2 2023 revenues?", "Which segment grew the most?"): the kind is the last of the words after
    "which" that the vocabulary's ``[breakdowns]`` knows; "the biggest drop" ranks by change, lowest first."""
    for m in _WHICH.finditer(plain):
        words = m.group(1).split()
        kinds = [(k, breakdown_named(ENDS_POSSESSIVE.sub("", w))) for k, w in enumerate(words)]  # "category's sales"
        named = [(k, b) for k, b in kinds if b]
        if not named:
            continue
        k, kind = named[-1]
        rest = " ".join(words[k + 1:]) + " " + plain[m.end():]
        if turn := _TURNED.search(rest):
            to = "loss" if (turn.group("to") or "").lower().startswith("loss") else "profit"
            return Ranking((), to == "profit", False, kind, by_change=True, turned=to)
        most, least = _MOST.search(rest), _LEAST.search(rest)
        if bool(most) == bool(least):
            return None
        up, down = directions()
        word = most or least
        assert word is not None
        # "lost the most revenue" is the biggest fall ("lost the least" the smallest)
        falls, rises = down.search(rest) or _LOSS.search(rest[:word.start()]), up.search(rest)
        highest = bool(most)
        if falls and not rises:
            highest = not highest  # the biggest drop is the lowest change
        return Ranking((), highest, False, kind, by_change=bool(falls or rises or _PERFORMED.search(rest)),
                       in_amount=bool(_IN_AMOUNT.search(rest)))
    return None


_IN_AMOUNT = re.compile(r"\bin\s+(?:dollar|absolute|nominal)\s+(?:terms|amounts?)\b|\bin\s+dollars\b|"
                        r"\bby\s+amount\b", re.I)
"""A change asked in money, not in percent ("in dollar terms", "in absolute terms", "in dollars")."""
_CHIEFLY = re.compile(r"\b(?:mainly|mostly|primarily|chiefly|largely|predominantly|principally|more|most)\s+"
                      r"(?:come\s+|came\s+|comes\s+)?(?:from|by|through|via)\s+(?:the\s+|its\s+|their\s+)?"
                      r"(?P<list>[\w&'’ -]+?(?:,\s*[\w&'’ -]+?)*,?\s+or\s+[\w&'’ -]+?)\s*(?=[?.;]|$)", re.I)
"""An alternative question: which of the items it offers a figure came mostly from ("did its cash come mainly from
operating, investing or financing activities?"): a ranking of the items, the largest first, not a yes or no."""


def _alternatives(text: str) -> Ranking | None:
    """The ranking an alternative question asks (``_CHIEFLY``), or None."""
    m = _CHIEFLY.search(without_asides(text))
    if m is None:
        return None
    names = [n.strip() for n in _LIST_SPLIT.split(m.group("list")) if n.strip()]
    return Ranking(tuple(names), True, "cash" in text.lower()) if len(names) >= 2 else None


def _ranking(text: str) -> Ranking | None:
    plain = without_asides(text)  # "(or lost the least)": an aside restating the same order
    if (offered := _alternatives(plain)) is not None:
        return offered
    m = _AMONG.search(plain)
    if m:
        listed, rest = m.group("list"), plain[m.end():]
    elif found := _which_of(plain):
        listed, rest = found
    else:
        return _breakdown_ranking(plain) or _section_ranking(plain)
    most, least = _MOST.search(rest), _LEAST.search(rest)
    if bool(most) == bool(least):
        return None
    word = most or least
    assert word is not None
    highest = bool(most) != bool(_LOSS.search(rest[: word.start()]))
    # "which of Amazon's operating, investing or financing activities": the owner named before the list is every
    # item's, not part of the first one's name (a name holding one stays whole: "Sam's Club")
    names = [n.strip() for n in _LIST_SPLIT.split(listed) if n.strip()]
    names[:1] = [_OWNED.sub("", n) for n in names[:1]]
    return Ranking(tuple(names), highest, "cash" in text.lower())


_OWNED = re.compile(r"^(?:[\w&.-]+\s+){0,2}[\w&.-]+(?:['’]s|s['’])\s+(?=[a-z])")


_QUALIFIERS = r"(?:(?:main|primary|principal|key|reportable|reporting|operating|business|geographic(?:al)?)\s+){0,2}"
_OWNER = r"(?:the\s+|its\s+|their\s+|(?:[A-Z][\w&.-]*\s+){0,2}[A-Z][\w&.-]*(?:['’]s|s['’])\s+)?"
_LISTED = re.compile(r"^\W*(?:what|which)\s+(?:(?:are|were|is|was)\s+)?" + _OWNER + _QUALIFIERS +
                     r"(?P<kind>[a-z]+)\b", re.I)
"""Asking words naming the kind ("What geographic regions does ...", "Which segments does ... report?")."""
_SPLIT = (r"(?:break(?:s|ing)?\s+(?:\S+\s+){0,5}?down|broken\s+down|breakdown\s+of|split(?:s|ting)?|"
          r"divid(?:e|es|ed|ing)|disaggregat\w*|itemi[sz]e)")
_LISTED_BY = re.compile(r"\b" + _SPLIT + r"\b[^?.;]{0,80}?\b(?:by|into|across|among)\s+(?:its\s+|their\s+|the\s+)?"
                        + _QUALIFIERS + r"(?P<kind>[a-z]+)\b", re.I)
"""A measure split by the kind ("Break down Alphabet's 2022 revenue by segment", "how are its sales divided among
its regions?")."""
_LISTED_ITS = re.compile(r"(?:^\W*(?:list|name|break\s+down|itemi[sz]e)|\bhow\s+(?:does|do|did)\s+(?:\S+\s+){1,3}?"
                         + _SPLIT + r")\s+" + _OWNER + _QUALIFIERS + r"(?P<kind>[a-z]+)\b", re.I)
"""The kind's parts asked to be listed or broken down ("List Acme's reportable segments", "How does Apple break
down its reportable segments ...?")."""


def _listing(first: str) -> str:
    """The kind of part a question asks to be listed: its asking words name the kind in the plural ("What
    geographic regions does ...", "What are the geographies ...", "Which segments does ... report?", "List its
    segments", "How does it break down its segments"), or it asks a figure split by the kind ("Break down its revenue
    by segment"); and it ranks none ("which segment grew the most" is a ranking); '' otherwise."""
    if _MOST.search(first) or _LEAST.search(first):
        return ""
    if (m := _LISTED_BY.search(first)) is not None and (kind := breakdown_named(m.group("kind"))):
        return kind  # "split among them" names no kind: the asking words may
    m = _LISTED.match(first) or _LISTED_ITS.search(first)
    if m is None:
        return ""
    word = m.group("kind").lower()
    plural = word.endswith("s") and not word.endswith("ss")  # "regions", "geographies"; not "business"
    return breakdown_named(word) if plural else ""


SECTION_REACH = 4
"""The most words between a ranking word and the class noun it ranks ("the largest single liability line", "which
asset line carried the largest balance")."""


def _section_ranking(plain: str) -> Ranking | None:
    """The largest or smallest line of a class of a statement's lines ("What was the largest liability on the balance
    sheet?", "Which asset was the smallest?"): a class noun of the vocabulary's ``[sections]`` within
    ``SECTION_REACH`` words of a ranking word; not one ranked by its change ("Which liability grew the most?")."""
    up, down = directions()
    if up.search(plain) or down.search(plain):
        return None
    words = [m.group(0) for m in re.finditer(r"[A-Za-z]+(?:['’][a-z]+)?", plain)]  # "Apple's" is one word
    for k, word in enumerate(words):
        section = section_named(word)
        if section is None:
            continue
        # a capitalised ranking word is a name's ("Best Buy")
        near = " ".join(w for w in words[max(0, k - SECTION_REACH):k + SECTION_REACH + 1] if w[0].islower())
        most, least = _MOST.search(near), _LEAST.search(near)
        if bool(most) != bool(least):
            before = [w.lower() for w in words[max(0, k - 2):k]]
            current = ("non-current" if before[-1:] and before[-1] in _NONCURRENT or before == ["non", "current"]
                       else "current" if before[-1:] == ["current"] else "")
            return Ranking((), bool(most), False, section=section.name, current=current)
    return None


_NONCURRENT = frozenset({"noncurrent", "long", "term"})
"""The word before a class noun that asks its non-current block ("non-current liabilities", "long-term assets")."""


NAME_WORD = re.compile(r"(?<![\w-])(?:(?:[A-Z]\.){2,}(?![\w-])|[A-Z][A-Za-z&'’]*(?:-[A-Za-z0-9]+)*|\d+[A-Za-z][\w-]*)")
"""A word that names something: capitalised ("Network"), a code ("F-22", "CH-53K", "777X"), an abbreviation with
its stops ("U.S." of "Walmart U.S.", "U.K.")."""
ENDS_POSSESSIVE = re.compile(r"['\u2019]s?$")
"""A word or run that ends in a possessive, "'s" or a bare apostrophe ("Google's", "Sachs'"): an owner's name."""
_NAME_JOIN = re.compile(r",?\s+(?:(?:&|and)\s+)?")
_FILING_WORD = re.compile(r"(?:FY|CY|Form|\d{1,2}-?[KQ](?:/A)?)", re.I)
_SENTENCE_OPEN = re.compile(r"(?:^|[.?!]\s+)[\s\"'“(\[]*")


def _names(text: str) -> tuple[str, ...]:
    """``Question.names``: runs of name words (``NAME_WORD``) joined by spaces, commas, "and" or "&"."""
    opens = {m.end() for m in _SENTENCE_OPEN.finditer(text)}
    words = [m for m in NAME_WORD.finditer(text)
             if m.start() not in opens and len(m.group(0)) > 1 and not _FILING_WORD.fullmatch(m.group(0))
             and not (m.group(0).isupper() and "&" in m.group(0)) and not asked_period(m.group(0)).text]
    runs: list[tuple[int, int]] = []
    for m in words:
        if runs and _NAME_JOIN.fullmatch(text[runs[-1][1]:m.start()]):
            runs[-1] = (runs[-1][0], m.end())
        else:
            runs.append((m.start(), m.end()))
    return tuple(text[a:b] for a, b in runs)


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


def _threshold(text: str, ratio: bool) -> tuple[str, float, str] | None:
    """(side, amount, as written) of the level a yes/no question sets a figure against ("exceed $10 billion", "at
    least 3 times"): side "above", "below", "at least" or "at most". A bare number is a level only where the question
    asks a ratio (``ratio``: "Was its current ratio above 1.5?"); elsewhere it counts something ("more than 3
    segments")."""
    m = _THRESHOLD.search(text)
    if m is None:
        share = _THRESHOLD_SHARE.search(text) if ratio else None
        if share is None:
            return None
        said = share.group("share").lower()
        return _side(share.group("word")), FRACTIONS[said] * 100, f"{said} ({FRACTIONS[said] * 100:g}%)"
    amount = next((x for x in quantities(text[m.end():m.end() + 40]) if x.start == 0 or not text[m.end():m.end()
                   + x.start].strip(" $€£")), None)
    if amount is None:
        return None
    if not amount.currency and amount.scale == 1.0 and not amount.percent and (
            not ratio or _TIME_AFTER.match(text, m.end() + amount.end) or _YEAR_IN.fullmatch(amount.raw.strip())):
        return None  # a bare number ("over 3 years", "over fiscal years 2017 through 2019") is no amount, but the
        # level of a ratio asked ("above 1.5")
    return _side(m.group("word")), amount.magnitude * (1 if amount.value >= 0 else -1), amount.raw


def _side(word: str) -> str:
    """The side of a level a threshold word asks: "above", "below", "at least" or "at most"."""
    word = " ".join(word.lower().split())
    return word if word in ("at least", "at most") else "below" if word.split()[0] in _BELOW_WORDS else "above"


_SHARE_FROM = re.compile(r"\bwhat\s+(?:share|percent(?:age)?|proportion|portion|fraction)\s+of\s+(?:the\s+)?"
                         r"(?P<whole>[^?;:()]{1,80}?)\s+(?:came|come|comes|(?:was|were|is|are)(?:\s+(?:derived|generated|"
                         r"earned|contributed|accounted\s+for|spent|used|absorbed|consumed|paid\s+out))?|derived|generated|"
                         r"contributed|went|go|goes|was\s+spent|were\s+spent)\s+"
                         r"(?:from|by|in|to|on|for|as)\s+(?:the\s+|its\s+|their\s+)?(?P<part>[^?;:()]{1,80})", re.I)
"""A share asked as the part of a whole that came from somewhere, or went somewhere ("What share of total revenue
came from subscription revenue in fiscal 2016?", "what share of revenues went to selling expenses?", "what share
of net income was paid out as dividends?"): the part over the whole."""
_PART_END = re.compile(r",|\s+(?:in|for|during|over|as of|at|of fiscal|of the|of its|between)\s|\s+(?:fy|q[1-4])\s?\d",
                       re.I)
_WHOLE_OWNER = re.compile(r"^(?:[A-Z][\w&.-]*(?:\s+(?:&\s+)?[A-Z][\w&.-]*){0,3})['’]s\s+")


def _share_from(text: str) -> tuple[str, str] | None:
    """(part, whole) of a share asked as the part of a whole that came from somewhere (``_SHARE_FROM``), the
    whole's owner ("Adobe's total revenue") and the part's period ("... in Q2 FY24") left out."""
    m = _SHARE_FROM.search(text)
    if m is None:
        return None
    whole, part = (_till_period(x) for x in (_WHOLE_OWNER.sub("", m.group("whole").strip()), m.group("part")))
    return (part, whole) if part and whole and _LETTER.search(part) and _LETTER.search(whole) else None


_SERIES_NAME = re.compile(r",\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+and\s+[a-z]", re.I)
"""A comma inside a line's name that lists its parts ("selling, general and administrative expenses")."""


def _till_period(phrase: str) -> str:
    """A phrase up to where a period or a clause begins ("total net sales in 2017" -> "total net sales"); a comma
    of a name that lists its parts ("selling, informational and administrative expenses") is no such place."""
    start = 0
    while (cut := _PART_END.search(phrase, start)) and cut.group(0) == "," and _SERIES_NAME.match(phrase, cut.start()):
        start = cut.end()
    return (phrase[:cut.start()] if cut else phrase).strip()


def _pair(text: str, measures: Sequence[Measure]) -> tuple[str, str] | None:
    """The two things a question divides ("ratio of A to B", "A as a percentage of B", "A over B"). "Over" divides
    only a measure named before it: "significant influence over Rivian", "control over the joint venture", "internal
    control over financial reporting" tell a relation, not a ratio."""
    text = text.strip()
    # no match crosses a line, and each holds its keyword: begin at the first line with one (none: no pair). A
    # search from the start tries every position of a long line without one, each to the line's end.
    key = _RATIO_KEY.search(text)
    if key is None:
        return _share_from(text)
    if not measures and key.group(0).strip().lower() == "over":
        return None
    m = _RATIO.search(text, text.rfind("\n", 0, key.start()) + 1)
    if not m:
        return _share_from(text)  # "what proportion of X came from Y" is no "proportion of X to Y"
    a, b = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    if key.group(0).strip().lower() == "over" and not (_measures(a) or ratio_named(a)):
        return None  # "internal control over financial reporting ... and sales": "over" divides a figure only
    return _LEAD.sub("", a.strip()), _LEAD.sub("", b.strip())


def _intent(q: Question) -> Intent:
    if q.ranking is not None:
        return Intent.RANKING
    if q.yes_no:
        return Intent.JUDGEMENT if (_JUDGEMENT.search(q.first) and not q.measures) else Intent.YES_NO
    if q.counted:
        return Intent.COUNT
    opening = q.first.strip(" \"'(")
    manner = (_MANNER.match(opening) or _METHOD.search(opening)) and not (q.changed or q.growth or q.versus or q.trend)
    if q.why or _PROSE.match(opening) or (
            not (q.measures or q.ratio or q.formula or q.pair) and _PROSE_LATER.search(q.first)) or (
            _EFFECT_OF.match(opening) or _ACTED_ON.match(opening) or _ACTED_ON_PASSIVE.search(opening) or manner
            or _WAY_CHANGES.search(q.first)) or (
            _definition().match(opening) and not (q.measures or q.ratio or q.formula or q.pair or q.scale
                                                or q.rounding or q.counted)):
        return Intent.PROSE
    if q.changed or (q.growth and len(set(q.asked.years)) >= 2):
        return Intent.CHANGE  # a ratio's change too ("How much did the operating margin change ...?")
    if q.formula is not None or q.pair is not None:
        return Intent.RATIO
    if q.asks_value or q.measures:
        return Intent.VALUE
    return Intent.PROSE


def _narrative(q: Question) -> str:
    """The kind of narrative answer a question asks: prose and judgement questions always (the vocabulary's kind
    its first sentence names, else "description"); a yes/no that names no line item, metric, amount, sign or
    direction (a change of any direction, "any changes in its accounting policies", is told in words), and one asking
    what the company believes or expects (``_BELIEF``) whatever it names;
    a "what are ..." that names no line item, no scale, no rounding and no "how much" (``_HOW_FIGURE``) but a
    narrative kind ("What are the major acquisitions ...", not "How much does it expect to pay for the spin-off?")."""
    if q.intent in (Intent.RANKING, Intent.COUNT, Intent.RATIO, Intent.CHANGE):
        return ""
    # of the kinds the first sentence names, the one it names first ("What happened to its planned acquisition of
    # Arm?" asks an event, not who was acquired)
    found = [(m.start(), i, k.name) for i, k in enumerate(narrative().kinds)
             if k.asked is not None and (m := k.asked.search(q.first))]
    named = min(found)[2] if found else ""
    plain = not q.measures and q.formula is None and q.ratio is None and q.pair is None
    if q.intent in (Intent.PROSE, Intent.JUDGEMENT):
        return named or "description"
    # "Are there any changes in its accounting policies?": a change of nothing measured is told in words (one
    # between two periods it names, "any change in the number of stores between FY2023 and FY2024", compares figures)
    # and so is an expectation of nothing measured ("Does management expect a materially higher loss?")
    told = not q.direction or (q.direction == "any" and len(q.asked.years) < 2) or q.forward
    if q.intent is Intent.YES_NO and plain and q.threshold is None and not q.sign and told:
        return named or "description"
    # "Does Apple believe its cash ... will be sufficient ...?": what the company believes is its sentence saying so,
    # whatever figures it names
    if q.intent is Intent.YES_NO and q.asks_belief and q.threshold is None and not q.sign:
        return named or "description"
    if q.intent is Intent.VALUE and plain and named and q.scale is None and q.rounding is None and not (
            _HOW_FIGURE.search(q.text)):
        return named
    return ""


# --- the metric a question defines, names or asks as a share --------------------------------------------
# (``formulas`` evaluates what these read: the grammar of a definition is theirs, the reading of the
# question is here)

_FY = r"(?:(?:fy|fiscal(?: year)?)\s*)?'?((?:19|20)\d{2})"
"""A fiscal year as a question writes it ("FY2017", "fiscal year 2019", "2018"). The spaces belong to the prefix:
a pattern that may start with spaces is tried from each space of a long run, to the run's end (quadratic)."""

# The phrases below are read by scanners rather than one regex each: a lazy group of words tried from every start
# of a long run of words is quadratic. Each scanner finds its keyword (linear), takes the run of words before it
# from the reversed text and the run after it forwards, so every character is read a bounded number of times.
# They find what ``([\w&'’ -]+?) KEYWORD ...`` found, on text whose whitespace is single spaces.
_WORDS_RUN = re.compile(r"[\w&'’ -]+")
"""A run of words (letters, digits, spaces, hyphens, apostrophes, ampersands): the X and Y of "X to Y ratio"."""
_SPACES = re.compile(r"\s+")
_RIGHT_RUN = re.compile(r"[\w&'’ -]+(?:,\s+[\w&'’-][\w&'’ -]*)*")
"""The run of words after "less" or "minus", on past commas: a line's name may have them ("minus selling, general and
administrative expenses"); the vocabulary's longest item at its head is what is taken away (``known_head``)."""


def _word_run_before(text: str, backwards: str, end: int, reach: int | None = None) -> str:
    """The run of words (``_WORDS_RUN``) that ends at ``end``, at most ``reach`` characters of it when given;
    ``backwards`` is ``text[::-1]``."""
    at = len(text) - end
    m = _WORDS_RUN.match(backwards, at) if reach is None else _WORDS_RUN.match(backwards, at, at + reach)
    return text[end - len(m.group(0)) : end] if m else ""


_SHARE_AT = re.compile(r" as an? (?:%|percent(?:age)?|share) of(?= )", re.I)
_SHARE_SKIP = re.compile(r"total |the ", re.I)
_SHARE_RUN = re.compile(r"[\w&' -]*")
_SHARE_STOP = re.compile(r" (?:from|between|for|in|over|during)\b", re.I)
_LETTER = re.compile(r"[a-z]", re.I)
_SHARE_REACH = 120
"""How far before and after "as a % of" the part and the whole are looked for (a line item is a few words)."""


def share_of(question: str) -> Iterator[tuple[str, str]]:
    """(X, Y) of each "X as a % of Y" ("as a percentage of", "as a share of"): X the run of words before it,
    Y the words after it up to "from", "for", "in" ... or punctuation, at most ``_SHARE_REACH`` characters (the
    item is at its head: "revenue historically consistent (...)"): "cost of goods sold as a % of revenue" ->
    ("cost of goods sold", "revenue")."""
    text = _SPACES.sub(" ", question)
    backwards = ""
    for at in _SHARE_AT.finditer(text):
        if not _WORDS_RUN.match(text, at.start() - 1, at.start()):
            continue  # no word before it
        start = at.end() + 1
        skip = _SHARE_SKIP.match(text, start)
        start = skip.end() if skip else start
        if not _LETTER.match(text, start):
            continue
        end = _SHARE_RUN.match(text, start, start + _SHARE_REACH).end()  # type: ignore[union-attr]
        stop = _SHARE_STOP.search(text, start + 1, end)
        backwards = backwards or text[::-1]
        yield (_word_run_before(text, backwards, at.start(), _SHARE_REACH),
               text[start : stop.start() if stop else end])


_TO_WORD = re.compile(r" to ", re.I)
_RATIO_WORD = re.compile(r" ratio\b", re.I)


def to_ratio(question: str) -> tuple[str, str, str] | None:
    """(X, "average " or "", Y) of the first 'X to Y ratio' of two line items ("cash balance to total liability
    ratio", "interest expense to average long-term debt ratio"): X / Y, a fraction unless the question asks for
    a percentage."""
    text = _SPACES.sub(" ", question)
    for run in _WORDS_RUN.finditer(text):
        words = run.group(0)
        to = _TO_WORD.search(words, 1)
        if to is None:
            continue  # only the first " to " of a run counts: a later one has fewer words after it
        rest = words[to.end():]
        if rest[:8].lower() == "average ":
            ratio = _RATIO_WORD.search(rest, 9)
            if ratio is not None:
                return words[: to.start()], rest[:8], rest[8 : ratio.start()]
        ratio = _RATIO_WORD.search(rest, 1)
        if ratio is not None:
            return words[: to.start()], "", rest[: ratio.start()]
    return None


_PERCENT = re.compile(r"%|\bper ?cent", re.I)
_MARGIN_AT = re.compile(r"%\s*margin\b", re.I)


def margin_of(question: str) -> str:
    """The line item of the first "X % margin" ("FY2015 D&A % margin"): the item as a percentage of revenue;
    '' when there is none."""
    text = _SPACES.sub(" ", question)
    backwards = text[::-1]
    for at in _MARGIN_AT.finditer(text):
        before = _word_run_before(text, backwards, at.start())
        if before:
            return before.rstrip(" ") or before[:1]
    return ""


def without_asides(question: str) -> str:
    r"""The question with each parenthesised aside ("(from the cash flow statement)") replaced by a space, as
    ``re.sub(r"\([^)]*\)", " ", question)`` does, in linear time (that regex rescans the rest of the text from
    every "(" that no ")" closes)."""
    out: list[str] = []
    pos = 0
    while (start := question.find("(", pos)) >= 0:
        end = question.find(")", start)
        if end < 0:
            break  # no ")" after this "(": none after a later one either
        out += [question[pos:start], " "]
        pos = end + 1
    out.append(question[pos:])
    return "".join(out)


def _to_named(question: str, name: str) -> bool:
    r"""Whether the question names ``name`` as one term of a ratio ("debt to EBITDA ratio", "EBITDA to interest"),
    as ``\bto\s+(?:\w+\s+)?NAME\b.*\bratio\b|\bNAME\s+to\b`` finds it, line by line in linear time."""
    n = re.escape(name)
    if re.search(rf"\b{n}\s+to\b", question, re.I):
        return True
    term = re.compile(rf"\bto\s+(?:\w+\s+)?{n}\b", re.I)
    for line in question.split("\n"):
        m = term.search(line)
        if m is not None and re.search(r"\bratio\b", line[m.end():], re.I):
            return True
    return False


def known_tail(words: str) -> str:
    """The longest run of words ending ``words`` that the vocabulary knows as a line item ("what is Nike's three
    year average of cost of goods sold" -> "cost of goods sold"); '' when none."""
    parts = words.split()
    for k in range(max(0, len(parts) - longest_item_words()), len(parts)):
        tail = " ".join(parts[k:])
        if item_known(tail):
            return tail
    return ""


_WHERE_FROM = re.compile(r"\s*\((?:from\s+|per\s+|on\s+|in\s+)?(?:the\s+)?[^()]*\b(?:statements?|balance\s+sheet|as\s+"
                         r"reported)\)", re.I)
"""An aside in a definition that says where a term is read, not what it adds ("capital expenditures (cash flow
statement) / operating revenues"): no part of the arithmetic."""


def definition(question: str, asked: Asked | None = None) -> tuple[str, str] | None:
    """(expression template, target year) of the metric the question asks for: defined there ("defined as: ..."),
    named (a standard ratio of the vocabulary), or asked as a share ("cost of goods sold as a % of revenue").
    A standard metric's template has ``{year}`` and ``{prev}`` for the year it is computed for. ``asked``: the
    question's periods where the caller has read them already (``asked_period``)."""
    years = _YEAR_IN.findall(question)
    # the newest year the period grammar reads ("Q2 FY24 (July 29, 2023)": fiscal 2024; "FY21 and FY22": 2022) or the
    # question writes in full
    fiscal = (asked if asked is not None else asked_period(question)).fiscal_year
    year = str(max([int(y) for y in years] + ([fiscal] if fiscal else []))) if years or fiscal else ""
    # the definition ends with its sentence, or where the question goes on to ask ("..., what was X?")
    # a sentence's stop ends it, not an abbreviation's ("U.S. sales")
    m = re.search(r"defined as:?\s*(.+?)(?:(?<![A-Z]\.[A-Z])\.\s|\.$|\?|"
                  r",\s+(?=(?:what|how|calculate|compute|find)\b)|$)", question, re.I | re.S)
    if m and re.search(r"[/*+]|\s-\s", m.group(1)):
        return _WHERE_FROM.sub("", m.group(1)).strip(), year
    worded = worded_sum(m.group(1)) if m else ""  # "defined as short-term debt plus long-term debt minus cash"
    if worded:
        return worded, year
    summed = _summed(question) or _listed_sum(question)
    if summed:
        return summed, year
    plain = without_asides(question)  # asides such as "(from the cash flow statement)" left out
    less = _less(plain)
    if less is not None:
        return (less, year) if less else None
    named = ratio_named(question)
    if named and "/" not in named[1] and _to_named(question, named[0]):
        return None  # "debt to EBITDA ratio": EBITDA is one term of a ratio this vocabulary does not define
    if named:
        return named[1], year
    to = to_ratio(plain)
    if to:
        part, whole = known_tail(to[0]), known_tail(to[2]) or total_of(to[2])
        if part and whole and canonical(part) != canonical(whole):
            whole = f"(average {whole} between {{prev}} and {{year}})" if to[1] else whole
            return f"{part} / {whole}{' * 100' if _PERCENT.search(question) else ''}", year
    margin = margin_of(plain)  # "D&A (from the cash flow statement) % margin"
    if margin:
        part = known_tail(margin)
        if part and canonical(part) != "revenue":
            return f"{part} / revenue * 100", year
    for x, y in share_of(question):
        part, whole = known_tail(x), known_tail(y) or known_head(y)
        if part and whole:
            return f"{part} / {whole} * 100", year
    return None


_ASIDE = re.compile(r"\(([^()]{1,200})\)")
_OPERATOR_WORD = re.compile(r",?\s+(plus|\+|minus|less|-)\s+", re.I)
"""An addition or subtraction said in words inside a definition or an aside ("short-term debt plus long-term debt
minus cash")."""
_ASIDE_TAIL = re.compile(r",\s+(?:from|as|in|per|using|on|excluding|including|net of|see)\b.*$|;.*$", re.I)
_TERM = re.compile(r"[a-z][\w&'’ ,-]{0,80}", re.I)
_LEADING_WORD = re.compile(r"^(?:the|its|their)\s+", re.I)


def _summed(question: str) -> str:
    """The sum a question gives a measure as, in an aside after it ("total debt (short-term debt plus long-term
    debt)", "D&A (depreciation plus amortization of purchased intangibles, from the cash flow statement)", "net
    debt (short-term debt plus long-term debt, minus cash)"): its terms joined by " + " and " - ", the question's
    own definition; '' where no aside adds line items (an aside of figures, "(LIBOR plus 1.65%)", adds none)."""
    for m in _ASIDE.finditer(question):
        inner = _ASIDE_TAIL.sub("", m.group(1)).strip()
        if not re.search(r"\s(?:plus|\+)\s", inner, re.I):
            continue
        worded = worded_sum(inner)
        if worded:
            return worded
    return ""


def worded_sum(text: str) -> str:
    """The template of a sum or difference said in words ("short-term debt plus long-term debt minus cash and cash
    equivalents and marketable securities" -> "short-term debt + long-term debt - cash and cash equivalents -
    marketable securities"); '' unless it has two terms or more, each a few words without figures. A term after
    "minus" or "less" may list several things taken away ("minus cash and marketable securities"), split where the
    vocabulary's items fall (``listed_items``); a term added is one line's name ("current portion of long-term debt
    and short-term borrowings plus long-term debt" adds two lines)."""
    pieces = _OPERATOR_WORD.split(text.strip())
    out: list[str] = []
    for k in range(0, len(pieces), 2):
        term = _LEADING_WORD.sub("", pieces[k].strip())
        if not _TERM.fullmatch(term) or len(term.split()) > 10 or re.search(r"\d", term):
            return ""
        sign = "+" if k == 0 else ("+" if pieces[k - 1].lower() in {"plus", "+"} else "-")
        terms = [term] if sign == "+" else (listed_items(term, least=1) or [term])
        out += [f"{sign} {t}" for t in terms]
    if len(out) < 2:
        return ""
    return " ".join(out)[2:]


_LIST_SEP = re.compile(r",\s+and\s+|,\s+(?!net\b)|\s+and\s+", re.I)
"""Where a list of line items may divide ("A, B, and C", "A and B"), never before ", net" (a line's own word)."""
_MAX_SEPARATORS = 8
_EXTRA_TERM = 1.5
"""What each term beyond the fewest a list may have costs its reading: a list is read with as few terms as its
known items allow ("research and development and sales and marketing expenses" is two lines, not three)."""


def listed_items(text: str, least: int = 2) -> list[str]:
    """The line items a list names ("cost of sales, selling, informational and administrative expenses, and research
    and development expenses" -> the three lines), split where the vocabulary's items fall: of the ways to divide
    the list at its commas and "and"s, the one whose terms the vocabulary knows best (a known item 2, an unknown
    name of several words 0, an unknown single word -2: "selling" is no line), less ``_EXTRA_TERM`` for each term
    beyond ``least``; [] when no division has at least ``least`` terms or none scores above zero."""
    seps = list(_LIST_SEP.finditer(text))
    if len(seps) > _MAX_SEPARATORS or len(text) > 300:
        return []
    best: tuple[float, list[str]] = (0.0, [])
    for mask in range(1 << len(seps)):
        cut = [m for i, m in enumerate(seps) if mask >> i & 1]
        if len(cut) + 1 < least:
            continue
        bounds = [0, *[x for m in cut for x in (m.start(), m.end())], len(text)]
        terms = [_LEADING_WORD.sub("", text[bounds[i]:bounds[i + 1]].strip()) for i in range(0, len(bounds), 2)]
        if any(not t for t in terms):
            continue
        score = sum(_term_score(t) for t in terms) - _EXTRA_TERM * (len(terms) - least)
        if score > best[0]:
            best = (score, terms)
    return best[1]


def _term_score(term: str) -> float:
    bare = re.sub(r"\s+(?:expenses?|costs?)$", "", term, flags=re.I)
    if item_known(term) or item_known(bare):
        return 2.0 if len(term.split()) > 1 else 1.0
    return -2.0 if len(term.split()) == 1 else 0.0


_COMPANY_OF = re.compile(r"^.*?['’]s\s+", re.S)
"""The owner before a listed sum's items ("Adobe's research and development and ..."): not one of them."""
_LIST_END = r"(?=\s+(?:in|for|during|as\s+of|at|over|from|between)\s|\s*[?(]|\s*,\s+(?:in|for|during|as\s+of|at)\b|$)"
_COMBINED = re.compile(r"^(?:what|how\s+much)\s+(?:was|were|is|are)\s+(?:the\s+)?(?P<list>[^?]{5,250}?)\s+"
                       rf"(?:combined|together|taken\s+together|in\s+total){_LIST_END}", re.I)
_TOTAL_OF = re.compile(r"\b(?:the\s+)?(?:combined|(?:sum|total)\s+of)\s+(?!(?:the\s+)?(?:company|companies|"
                       rf"segments?|years?|quarters?|periods?)\b)(?P<list>[^?]{{5,250}}?){_LIST_END}", re.I)


_THROUGH_COMBINED = re.compile(r"\b(?:through|via|on|in|from|of|for)\s+(?:the\s+)?(?P<list>[^?]{5,150}?)\s+combined"
                               rf"{_LIST_END}", re.I)
"""A list a verb's object names ("How much cash did it return through share buybacks and dividends combined?")."""


def _listed_sum(question: str) -> str:
    """The sum of line items a question names as a list in its own words ("What were Acme's research and
    development and sales and marketing expenses combined in fiscal 2020?", "the total of its cost of sales, SG&A
    and R&D in 2019", "the combined R&D and SG&A"): the items joined by " + "; '' when it names no such list."""
    first = focus(question)
    for rx in (_COMBINED, _TOTAL_OF, _THROUGH_COMBINED):
        m = rx.search(first)
        if m is None:
            continue
        terms = listed_items(_COMPANY_OF.sub("", m.group("list"), count=1).strip())
        if terms and not any(re.search(r"\d", t) or len(t.split()) > 10 for t in terms):
            return " + ".join(terms)
    return ""


_LESS_WORD = re.compile(r"(?<!\s)\s+(less|minus)(?=\s)", re.I)
_GAP = re.compile(r"\s+")


def _differences(plain: str) -> Iterator[tuple[str, str]]:
    r"""(X, Y) of each "X less Y" / "X minus Y" in ``plain``, as ``([\w&'’ -]+?)\s+(?:less|minus)\s+([\w&'’ -]+)``
    finds them, in linear time: X the run of words before the keyword (back to punctuation or the last
    match), Y the run after it. Each run is read once, forwards for Y and, on the reversed text, backwards for X;
    that lazy regex, tried from every start, is quadratic on long text."""
    done, backwards = 0, ""
    for k in _LESS_WORD.finditer(plain):
        start, end = k.start(), _GAP.match(plain, k.end()).end()  # type: ignore[union-attr]
        if start < done:
            continue
        lead, trail = plain[start:k.start(1)], plain[k.end(1):end]
        right = _RIGHT_RUN.match(plain, end)
        if right is not None:
            after, stop = right.group(0), right.end()
        elif " " in trail[1:]:
            after, stop = " ", end  # the regex's Y takes a space of the gap when no word follows
        else:
            continue
        if not backwards:
            backwards = plain[::-1]
        left = _WORDS_RUN.match(backwards, len(plain) - start)
        first = max(done, start - (len(left.group(0)) if left else 0))
        if first < start:
            before = plain[first:start]
        elif " " in lead[:-1]:
            before = " "  # and X a space of the gap when no word precedes
        else:
            continue
        yield before, after
        done = stop


def known_head(words: str) -> str:
    """The longest run of words starting ``words`` that the vocabulary knows as a line item ("capex for
    PepsiCo" -> "capex"); '' when none."""
    parts = words.split()
    for k in range(min(len(parts), longest_item_words()), 0, -1):
        head = " ".join(parts[:k]).rstrip(",;:")
        if item_known(head):
            return head
    return ""


_SET_AGAINST = re.compile(
    r"\b(?:(?P<over>exceed(?:s|ed)?|surpass(?:es|ed)?|outweigh(?:s|ed)?|(?:more|greater|higher|larger) than)|"
    r"(?P<under>(?:less|lower|smaller) than|f[ae]lls? short of))\s+", re.I)
_DETERMINERS = re.compile(r"^(?:(?:its|their|the|this|that)\s+|(?:the\s+)?compan(?:y|ies)['’]s?\s+)+", re.I)
_CLAUSE_END = re.compile(r"[,;:?.!]")


def set_against(question: str) -> tuple[str, str] | None:
    """("X - Y", "positive" or "negative") of a question that sets one line item against another ("Do current
    assets exceed current liabilities?", "Was operating income less than interest expense?"): whether X exceeds Y
    is whether X less Y is positive. None when either side is no line item the vocabulary knows (an amount is a
    threshold, ``_threshold``)."""
    plain = without_asides(question)
    for m in _SET_AGAINST.finditer(plain):
        before = _CLAUSE_END.split(plain[:m.start()])[-1].strip()
        after = _DETERMINERS.sub("", _CLAUSE_END.split(plain[m.end():])[0].strip())
        left, right = known_tail(before), known_head(after)
        if left and right and canonical(left) != canonical(right):
            return f"{_DETERMINERS.sub('', left)} - {right}", "positive" if m.group("over") else "negative"
    return None


_MORE_LESS = re.compile(r"\s+(?:less|minus)\s+(.+)", re.I | re.S)


def _less(plain: str) -> str | None:
    """The template of "X less Y" / "X minus Y" where X is a line item or an additive standard metric (EBITDA)
    and Y a line item ("FY2022 unadjusted EBITDA less capex", "operating cash flow minus dividends paid"): X's
    definition less Y. '' when X is a ratio (a ratio less an amount means nothing: compute nothing); None when
    the question (``plain``: without its parenthesised asides) subtracts no line item."""
    for before, after in _differences(plain):
        right = known_head(after)
        if not right:
            continue
        rest = after[len(right):]
        while (more := _MORE_LESS.match(rest)) and (then := known_head(more.group(1))):
            right, rest = f"{right} - {then}", more.group(1)[len(then):]  # "... minus capex minus dividends paid"
        left = known_tail(before)
        if left:
            return f"{left} - {right}"
        named = ratio_named(before)
        if named and re.search(re.escape(named[0].split()[-1]) + r"\W*$", before.lower()):
            return "" if "/" in named[1] else f"({named[1]}) - {right}"
    return None


def total_of(words: str) -> str:
    """The total a bare balance word stands for in "R&D to asset ratio" ("asset" -> "total assets"), when the
    vocabulary knows that total; '' otherwise."""
    last = words.split()[-1].lower() if words.split() else ""
    for name in (f"total {last}", f"total {last}s"):
        if last and item_known(name):
            return name
    return ""


def item_known(phrase: str) -> bool:
    """Whether the vocabulary knows a phrase as a line item (a share is computed only between known items)."""
    return canonical(phrase) in vocabulary().items


_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5}
_SPAN = re.compile(rf"{_FY}\s*(?:-|–|to|through|and)\s*{_FY}", re.I)
_AVERAGE = re.compile(r"\b(\d|two|three|four|five)[- ]year average\b"
                      r"|\baverage[ds]?\s+(?:over|across|for)\s+(?:the\s+)?(?:last\s+|past\s+)?(\d|two|three|four|five)\s+"
                      r"(?:fiscal\s+)?years\b", re.I)
"""An N-year average: "3 year average of X", "X averaged over the 3 years FY2017 - FY2019"."""


def averaged_years(question: str) -> list[int]:
    """The fiscal years of an N-year average the question asks for ("FY2017 - FY2019 3 year average of X",
    "three year average of X from FY2016 to FY2018"); [] when it asks for none."""
    avg = _AVERAGE.search(question)
    span = _SPAN.search(question)
    if not avg or not span:
        return []
    a, b = sorted((int(span.group(1)), int(span.group(2))))
    n = (avg.group(1) or avg.group(2)).lower()
    count = int(n) if n.isdigit() else _WORDS[n]
    return list(range(a, b + 1)) if b - a + 1 == count else []


def _statements(text: str, formula: tuple[str, str] | None) -> tuple[str, ...]:
    """The statements a question's figures come from: those it names or whose line items it asks about, and those
    holding its metric's terms ("R&D to asset ratio" is R&D / total assets: the balance sheet holds the second)."""
    found = statements_asked(text)
    if formula is not None:
        terms = "; ".join(canonical(t.strip()) for t in _FORMULA_SPLIT.split(formula[0]) if t.strip())
        found += [s for s in statements_asked(terms) if s not in found]
    return tuple(found)


_FORMULA_SPLIT = re.compile(r"[-+*/()]")


def statements_asked(question: str) -> list[str]:
    """The statements a question names, or else those whose line items it asks about (in a stable order)."""
    named = [kind for kind, pattern in NAMED.items() if pattern.search(question)]
    if named:
        return named
    return [kind for kind, pattern in vocabulary().statement_line_items.items() if pattern.search(question)]


def _span(low: str, m: Measure) -> tuple[int, int] | None:
    """Where the question names a measure: its longest naming phrase's first place in ``low``."""
    spans = [(h.start(), h.end()) for p in m.names if p
             if (h := re.search(rf"(?<![a-z]){re.escape(p)}(?![a-z])", low))]
    return max(spans, key=lambda se: (se[1] - se[0], -se[0]), default=None)


def _legal(words: Sequence[str]) -> bool:
    """Whether a name ends in a legal form ("the BMW Group", "Alphabet Inc"): a company, not a part of one."""
    return words[-1].lower().strip(".,") in LEGAL_FORMS - {"the", "&", "and", "com"}


def _part_of(text: str, measures: Sequence[Measure]) -> str:
    """The part of a measure the question asks for, named right after it ("revenue from iPhone sales", "net sales
    of the Wearables product line") or in capitals right before it ("iPhone net sales", "AWS revenue"); '' when it
    names the whole ("revenue from contracts with customers", "Q2 revenue", "Total net sales"). A part's name at
    the question's start counts only with a capital inside it ("iPhone", "AWS"): sentence case is no name. A part
    pointed back at ("... come from it") is the pointing word: asked, named elsewhere."""
    low = text.lower()
    for m in measures:
        span = _span(low, m)
        if span is None:
            continue
        start, end = span
        if (link := _PART_LINK.match(text, end)) and (run := _PART_WORDS.match(text, link.end())):
            words: list[str] = []
            run_words = run.group(0).split()
            for n, w in enumerate(run_words):
                # "and" inside a name in capitals: "Computing and Mobile Phones", "Safety and Industrial"
                named = (w.lower() in ("and", "&") and bool(words) and words[-1][:1].isupper()
                         and n + 1 < len(run_words) and run_words[n + 1][:1].isupper())
                if not named and (w.lower() in CONNECTIVES or _CHANGED.fullmatch(w) or _MOVED.fullmatch(w)):
                    break  # "revenue from iPhone sales fluctuated across quarters"
                words.append(w)
                if w.lower() in _PART_HEADS:
                    break
            while words and words[-1].lower() in _PART_HEADS:
                words.pop()
            if run_words[0].lower() in _BACK_REFERENCES:
                return run_words[0]  # "how much of its sales come from it": a part the question names elsewhere
            name = " ".join(words)
            timely = any(c.isdigit() for c in name) or re.search(rf"\b{MONTH_PATTERN}\b", name, re.I)
            if (words and len(words) <= 4 and not timely and not any(w.lower() in _WHOLE for w in words)
                    and not all(w.lower() in _NOT_A_NAME for w in words) and not _legal(words)):
                return name
        if text[start:end].islower() and (before := _PART_BEFORE.search(text[:start])):
            # a part in capitals before a measure in lower case ("AWS revenue"); a title-cased question
            # ("Operating Profit Margin Before Depreciation") has no part there
            name = before.group(1)
            first = name.split()[0]
            at_start = text[:before.start(1)].rstrip()[-1:] in ("", ".", "?", "!", ":")  # a sentence's first word
            if (first.lower() in _LEADING | _NOT_A_NAME | _WHOLE or any(c.isdigit() for c in name)
                    or _legal(name.split())):
                continue
            if at_start and not any(c.isupper() for c in first[1:]):
                continue
            return name
    return ""


_ASKING_CLAUSE = re.compile(r"\b(?i:do|does|did|will|would|can|could|should|may|might|must)\s+(?:not\s+)?"
                            r"(?:(?:it|they|we|he|she)\s+|(?P<the>the\s+)?(?:[A-Z][\w&.-]*(?<![’'])\s+){1,4})"
                            r"(?P<head>[^,;:?]*)")
"""An asking clause: an auxiliary, its subject (a pronoun or a name in capitals, no owner's: "did AMD's net cash
..." is not one), and what follows."""
_FRAME_STOP = re.compile(r"\b(?:the|a|an|its|their|his|her|our|this|that|these|those|any|to|on|in|of|for|from|with|"
                         r"by|at|about|as|if|when|while|after|before|during|over|under|and|or|it|them|into|out|"
                         r"against|across|between|among|through|within|per|than|up|down|most|some)\b|(?-i:\b(?=[A-Z]))|(?=[\d$])|$",
                         re.I)
_ADVERB = re.compile(r"[a-z]{4,}(?<!p)ly")
"""An adverb between the subject and its verb ("does it typically ask"): six letters or more ending in "-ly", not
"-ply" ("rely", "apply", "comply" and "supply" are verbs)."""
_TO_VERB = frozenset({"have", "need", "plan", "intend", "expect", "continue", "seek", "want", "try", "agree", "hope"})
"""Verbs whose own verb follows with "to" ("will Amazon have to pay", "does it plan to appeal")."""


def asking_verbs(text: str) -> frozenset[str]:
    """The verbs a question asks with: after an auxiliary and its subject (a pronoun or a name), one word in its
    base form before the first determiner, preposition or mark ("what kinds of suppliers does Amazon depend on" ->
    "depend"; "Does Lockheed Martin consider the goodwill" -> "consider"; "will Amazon have to pay the tax" ->
    "have", "pay"). After a bare name or a pronoun, the word right after it is the verb, whatever follows it ("How
    does NVIDIA use foreign currency forward contracts" -> "use"); after a name with "the", where several words
    stand before the stop ("did the California jury decide") none is taken: a noun of the subject cannot be told
    from the verb."""
    out: set[str] = set(_how_verbs(text))
    for m in _ASKING_CLAUSE.finditer(text):
        rest, bare = m.group("head"), m.group("the") is None
        while (stop := _FRAME_STOP.search(rest)) is not None:
            words = [w for w in rest[:stop.start()].split() if not _ADVERB.fullmatch(w)]  # "does it typically ask"
            verb = words[0] if len(words) == 1 or words and bare else ""
            if not re.fullmatch(r"[a-z]+", verb) or re.search(r"(?<!s)s$|ed$|ing$", verb):
                break  # a verb after an auxiliary is one word in its base form
            out.add(verb)
            if len(words) > 1 or verb not in _TO_VERB or not (to := re.match(r"to\s+", rest[stop.start():])):
                break
            rest, bare = rest[stop.start() + to.end():], False
    return frozenset(out | _closing_verbs(text, out))


_HOW_CLAUSE = re.compile(r"\b(?:how|why)\s+(?:is|was|are|were|has|have|had)\s+(?P<head>[^,;:?]+)", re.I)
"""A how or why clause with a form of "be" or "have", up to the clause's end."""


def _how_verbs(text: str) -> set[str]:
    """The verb a how or why clause asks with where its subject is too long for ``asking_verbs`` to find it: the
    clause's last participle after "is", "was", "are", "were", "has", "have" or "had" ("How was the eminent domain
    lawsuit brought by five municipalities resolved" -> "resolved"; "how are the profits ... shared between the two
    companies" -> "shared"; "How has Amazon structured its businesses" -> "structured"). The answer tells how it was
    resolved in the filing's words ("settled", "dismissed"). After "do" see ``_closing_verbs``: a base form inside
    the clause cannot be told from a noun."""
    out: set[str] = set()
    for m in _HOW_CLAUSE.finditer(text):
        participles = [w for w in m.group("head").split()[1:] if re.fullmatch(r"[a-z]{3,}ed", w)]
        if participles:
            out.add(participles[-1])
    return out


def _closing_verbs(text: str, found: set[str]) -> set[str]:
    """The verb a how, why, who or what clause with "do" asks with where its subject is too long for
    ``asking_verbs``: the base form that ends the clause, not after an article or preposition, where no verb of the
    clause was ``found`` ("How does the accelerated share repurchase agreement Lockheed Martin entered into in 2022
    work?" -> "work"; "whom does each product group serve" -> "serve"; "How does
    Foo use forward contracts to hedge currency risk" has its verb, "use", and "risk" is a noun)."""
    out: set[str] = set()
    for m in _HOW_DO_CLAUSE.finditer(text):
        words = _SOURCE_TAIL.sub("", m.group("head")).split()
        # a who or what clause ends with its verb only where nothing follows its subject ("what does the 10-K say
        # about the litigation" ends with the noun a preposition governs)
        plain = m.group(0).lower().startswith(("how", "why")) or not any(
            w.lower() in _BEFORE_NOUN or w.lower() in _ABOUT for w in words[1:])
        if (len(words) >= 2 and plain and not found & set(words) and re.fullmatch(r"[a-z]{3,}", words[-1])
                and not re.search(r"(?:ed|ing)$", words[-1]) and words[-2].lower() not in _BEFORE_NOUN
                and words[-1] not in _BEFORE_NOUN):
            out.add(words[-1])
    return out


_HOW_DO_CLAUSE = re.compile(r"\b(?:how|why|who|whom|what)\s+(?:do|does|did)\s+(?P<head>[^,;:?]+?)\s*(?=[?,;:]|$)",
                            re.I)
"""A how, why, who or what clause with "do", up to the clause's end ("whom does each product group serve")."""
_SOURCE_TAIL = re.compile(r"\s+(?:according\s+to|as\s+per|per)\s+.*$", re.I)
"""Where a clause goes on to say where it is told ("... work according to its fiscal 2016 10-K")."""
_BEFORE_NOUN = frozenset({"the", "a", "an", "its", "their", "our", "his", "her", "this", "that", "these", "those", "of",
                          "in", "on", "for", "to", "with", "by", "from", "at", "into", "under", "over", "and", "or"})
"""Words a noun follows, not a verb ending its clause ("... hedge currency risk in the market")."""
_ABOUT = frozenset({"about", "regarding", "concerning"})


def part_named(text: str) -> str:
    """The part of a company a text names with its kind word ("Data Center" of "the Data Center segment", "Embedded
    and Semi-Custom" of "attributable to our Enterprise, Embedded and Semi-Custom segment"); '' when none."""
    m = _PART.search(text)
    return (m.group(1) or m.group(2)) if m else ""


def _one(text: str) -> Question:
    """A question of one part, every field read."""
    focused = focus(text)
    first = _first_sentence(focused)
    low = text.lower()
    asked_part = _DEFINED.split(text, maxsplit=1)[0]  # the question, not its definition's "change in inventory"
    tolerance = _TOLERANCE.search(text)
    segment = part_named(text)
    measures = _measures(text)
    scale = _SCALE.search(text)
    against = set_against(text)
    in_percent = _in_percent(text)
    asked = asked_period(text)
    formula = as_percent(definition(text, asked) or ((against[0], max(_YEAR_IN.findall(text), default=""))
                                                     if against else None), in_percent)
    named = ratio_named(text)
    if named is not None:  # the standard ratio's definition as the formula states it (its year-end variant)
        named = (named[0], as_percent((named[1], ""), in_percent)[0])  # type: ignore[index]
    q = Question(
        text=text,
        focus=focused,
        first=first,
        asked=asked,
        measures=measures,
        # the words pointing at the document ("according to its 10-Q for the second quarter of 2023") ask nothing
        stems=frozenset(stems(_SELF_REFERENCE.sub(" ", text, count=1)) - stems(" ".join(_PROPER.findall(text)))),
        named=phrase(text),
        words=frozenset(w.lower() for w in _WORD.findall(_POSSESSIVE_S.sub("", text))),
        # a measure's or a part's word after a name is its noun ("did AWS net sales", "did the Other segment")
        asking=asking_verbs(text) - {w for m in measures for n in m.names for w in n.lower().split()} - _PART_HEADS,
        yes_no=bool(_YES_NO.match(first.strip(" \"'("))) and _alternatives(first) is None,
        why=bool(_why().search(first)),
        asks_value=bool(_VALUE_QUESTION.search(first)) and not _NOT_VALUE.search(first)
        or bool(_SHARE_ASKED.search(first)),
        counted=_counted(focused),
        formula=formula,
        averaged=tuple(averaged_years(text)),
        ratio=named,
        averages_stated=bool(_AVERAGE_WORDS.search(text)),
        # a period set against the one a year before ("compare with a year earlier") asks how it changed
        changed=bool(_CHANGED.search(asked_part) or _YOY.search(asked_part)),
        cagr=bool(_CAGR.search(asked_part)),
        growth=bool(_GROWTH.search(text)),
        growth_percent=bool(_PCT.search(text) and not _DIFF.search(text) or _GROWTH_PCT.search(low)),
        year_over_year=bool(_YOY.search(text)),
        pair=_pair(text, measures),
        pair_percent=bool(_RATIO_PCT.search(low)) or _SHARE_FROM.search(text) is not None,
        rounding=_rounding(text),
        in_percent=in_percent,
        registered=_registered(text),
        direction=_direction(low),
        sign=against[1] if against else (m.group(1).lower() if (m := _SIGN.search(text)) else ""),
        threshold=_threshold(text, formula is not None),
        over_periods=bool(_OVER_PERIODS.search(text)),
        latest=bool(_LATEST.search(text)),
        last=last[0] if (last := last_periods(text)) else None,
        across=bool(_ACROSS.search(text) or _OVER_PERIODS.search(text)),
        versus=bool(_VERSUS.search(text)),
        span="quarter" if _QUARTER_WORDS.search(text) else "year" if _YEAR_WORDS.search(text) else "",
        trend=bool(_TRENDS.search(text)),
        shift=bool(_SHIFT.search(text)),
        notable=bool(_NOTABLE.search(text)),
        consistent=bool(_CONSISTENT.search(text)),
        segment=segment or _part_of(text, measures),
        ranking=_ranking(text),
        listing=_listing(first),
        steady=bool(_STEADY.search(text)),
        tolerance=(float(tolerance.group(1)), tolerance.group(0)) if tolerance else None,
        escape=bool(_ESCAPE.search(text)),
        forward=bool(_FORWARD.search(text)),
        unusual=bool(unusual_items().asked.search(text)),
        full_date=names_day(text),
        every_quarter=len(_QUARTERS.findall(text)) >= 2 or bool(_EVERY_QUARTER.search(text)),
        every_period=bool(_EVERY_PERIOD.search(text)),
        quoted=tuple([(m.group(1).strip(), False) for m in _QUOTED.finditer(text) if m.group(1).strip()]
                     + [(m.group(0), True) for m in _LONG_FIGURE.finditer(text)]),
        possessives=_possessives(text),
        names=_names(text),
        statements=_statements(text, formula),
        figures=bool(FIGURE_WORDS.search(text)),
        forms=tuple(sorted({form for rx, form in _FORMS if rx.search(text)})),
        scale=SCALES[scale.group(1).lower()] if scale else None,
        self_reference=self_ref.group(0) if (self_ref := _SELF_REFERENCE.search(text)) else "",
        given=tuple(sorted({c for v in quantities(text) if v.currency or v.scale != 1.0 for c in v.candidates()})),
    )
    q = replace(q, intent=_intent(q))
    # a judgement is of a state ("Does X have a healthy liquidity profile?"); whether it changed over the periods
    # ("Are there any notable changes in X's liquidity position?") is the series' to say
    judged = ""
    for j in judgements().values() if q.yes_no and not (q.notable or q.shift or q.trend) else ():
        m = j.asked.search(first)
        if m and not _CHANGED.search(first[:m.start()] + " " + first[m.end():]):  # "high growth" is the state's name
            judged = j.name
            break
    return replace(q, narrative=_narrative(q), judgement=judged)


def _split(text: str) -> list[str]:
    """The asking clauses of a question of several parts (one element for a question of one part)."""
    pieces: list[str] = []
    at = 0
    for m in _PART_SPLIT.finditer(text):
        lead = _LEAD_WHEN.match(text, at)  # "When primarily referencing the income statement, what is ...": a lead-in
        if (m.group("bare") or m.group("bare_and")) and not _ASKS.search(text, lead.end() if lead else at,
                                                                       m.start()):
            continue  # "In its 2022 report, what ...": a lead-in, no part
        pieces.append(text[at:m.start()].strip(" ,;"))
        at = m.end()
    pieces.append(text[at:].strip(" ,;"))
    pieces = [p for p in pieces if len(p.split()) >= 3]
    if len(pieces) < 2:
        pieces = _spans_apart(text)
        return pieces if len(pieces) > 1 else [text]
    return [each for p in pieces for each in _spans_apart(p)]


_SPAN_PAIR = re.compile(r"\b(?P<prep>in|for|during|over)\s+(?P<one>(?:\S+\s+){0,5}?\S+?)\s+and\s+"
                        r"(?:(?:in|for|during|over)\s+)?(?P<two>[^;?]+?)(?=,\s+(?:and|or|but)\b|[;?]|$)", re.I)
_ENDED = re.compile(r"\b(?:ended|ending)\b.*$", re.I)
_DOCUMENT_WORD = re.compile(r"\b(?:10-?[KQ]s?|8-?K|reports?|filings?|releases?|presentations?)\b", re.I)


def _spans_apart(piece: str) -> list[str]:
    """A clause asking one thing over two spans of different length ("How much did the effective tax rate rise in
    Q2 FY24 and in the first half of fiscal 2024, and why?": the quarter and the year to date) as one clause per
    span, each keeping what follows ("..., and why?"); the first span takes the second's year when it writes none
    ("in the fourth quarter and the full year 2023"). Spans of one length ("in 2022 and 2023") are a comparison, one
    clause."""
    for m in _SPAN_PAIR.finditer(piece):
        one, two = asked_period(m.group("one")), asked_period(m.group("two"))
        if one.months is None or two.months is None or one.months == two.months:
            continue
        if (two.fiscal_year is None and two.end is None) or _DOCUMENT_WORD.search(m.group(0)):
            continue  # "in its fiscal 2023 10-K and its Q2 fiscal 2024 10-Q": two filings, compared
        year = ""
        ended = _ENDED.search(m.group("two"))
        if one.fiscal_year is None and one.end is None:  # the first span takes the second's end or year
            if ended:
                year = f" {ended.group(0)}"  # "for the three months and nine months ended September 30, 2023"
            elif two.fiscal_year is not None:
                year = f" of {'fiscal ' if re.search(r'fiscal|FY', m.group('two'), re.I) else ''}{two.fiscal_year}"
        head, tail = piece[:m.start("one")], piece[m.end("two"):]
        return [f"{head}{m.group('one')}{year}{tail}", f"{head}{m.group('two')}{tail}"]
    return [piece]


_WHAT_THE = re.compile(r"^what\s+(?:is|are|was|were)\s+the\s+(?P<rest>[^?]+)"
                       rf"|^(?:{_PREPOSITION})?(?:what|which|whose)\s+"
                       r"(?P<thing>(?:[a-z-]+\s+){0,2}[a-z-]+)\s+(?:do|does|did|is|are|was|were|has|have)\s+\w", re.I)
"""A later part asking what a thing is ("what were the new useful lives?") or what a thing someone does or has is
("what flexibility do its agreements with contract manufacturers give it?", "to which segment was it
attributable?", "on what basis does it claim influence?"): its head is ``rest`` or ``thing``."""
_HEAD_END = re.compile(r"\s+(?:of|for|in|on|at|to|from|during|over|by|with|under|as)\s+|[,;]")
_FIGURE_NOUNS = frozenset({"amount", "amounts", "figure", "figures", "total", "totals", "value", "values", "number",
                           "numbers", "balance", "balances", "level", "levels", "result", "results", "same", "extent",
                           "size", "magnitude", "damages", "penalty", "penalties", "fine", "fines", "price",
                           "prices", "fee", "fees", "payment", "payments", "cost", "costs", "charge", "charges",
                           "expense", "expenses", "loss", "losses", "gain", "gains", "proceeds", "much", "many"})
"""Nouns that ask for a figure without naming a line item ("..., and what was the amount in 2021?": the measure of
the part before; "what penalty did the court impose?", "what severance costs did it record?")."""


def _own_thing(part: Question) -> bool:
    """Whether a later part asks what something of its own is ("..., and what were the new useful lives?", "what was
    the focus of this expenditure?"): "what is/were the" and a head that names no measure, ratio, change, cause or
    figure ("the amount in 2021", "the extent of these repurchases"), nor only a period; or "(in) which/what X does
    ..." where X names no figure or line item, whatever the rest names ("in which segment were those sales
    reported?" asks a segment; "what penalty did the court impose?" a figure)."""
    m = _WHAT_THE.match(part.text.strip())
    if m is None or part.ratio or part.formula or part.why or part.changed or part.growth:
        return False
    if m.group("thing"):  # "in which segment were those sales reported?": the segment, whatever else it names
        words = [w for w in re.findall(r"[a-z]+", m.group("thing").lower()) if w not in STOPWORDS]
        return bool(words) and not any(w in _FIGURE_NOUNS for w in words) and not _measures(m.group("thing"))
    if part.measures:
        return False
    # the thing asked is the head before its first preposition ("the extent of these repurchases": the extent)
    head = _HEAD_END.split(m.group("rest").lower(), maxsplit=1)[0]
    words = [w for w in re.findall(r"[a-z]+", head) if w not in STOPWORDS and w not in PERIOD_WORDS]
    return bool(words) and not any(w in _FIGURE_NOUNS for w in words)


_REFERRING = frozenset(
    "how what which who whom much many large big high small low did does do was were is are has have had be been "
    "by amount figure value total sum difference change growth increase decrease decline rise fall drop".split())
"""A later part's words that name nothing of its own: they ask of a figure ("and how large was the growth?")."""


def _names_own(part: Question) -> bool:
    """Whether a later part names a thing of its own besides asking words, change words and periods ("how large was
    the segment's pre-tax loss?"; not "and what was the total?")."""
    rises, falls = directions()
    return any(w not in STOPWORDS and w not in _REFERRING and w not in PERIOD_WORDS and not w.isdigit()
               and not rises.fullmatch(w) and not falls.fullmatch(w) for w in part.words)


def without_self_reference(text: str, q: Question) -> str:
    """``text`` without the words of ``q`` pointing at the document (``Question.self_reference``), spaces folded."""
    return " ".join(text.replace(q.self_reference, " ").split()) if q.self_reference else text


def points_back(part: Question) -> bool:
    """Whether a part asks about what an earlier part names, pointing back at it with a pronoun and naming at most
    one word of its own besides its asking words ("..., and why were they taken?", "what caused it?"): its subject is
    the earlier part's."""
    own = {w for w in part.words if w not in STOPWORDS and w not in _REFERRING and w not in _POINTING_BACK
           and w not in PERIOD_WORDS and w != "why" and not w.isdigit()}
    return bool(part.words & _POINTING_BACK) and len(own) <= 1


def _inherit(part: Question, before: Question, first: bool = False) -> Question:
    """A later part that names no measure, ratio or period asks about those of the part before it ("..., and how much
    did they grow over fiscal 2021?": net sales, from fiscal 2021 to the year the first part named, of the part of
    the company it named; "How did the
    effective tax rate change ..., and what explains the move?": the effective tax rate), unless it asks what a
    thing of its own is (``_own_thing``: "..., and what were the new useful lives?"), which is told in words, or is a
    yes/no that neither points back ("did it ...", "was that ...") nor compares a figure ("..., and does the company
    require collateral?" asks what it does)."""
    if _own_thing(part):
        asked_in_words = replace(part, intent=Intent.PROSE)
        return replace(asked_in_words, narrative=_narrative(asked_in_words))
    if part.yes_no and not (part.measures or part.ratio or part.formula or part.direction or part.threshold
                            or part.sign or part.changed or part.words & _BACK_REFERENCES):
        return part  # "..., and does it generally ask its customers for collateral?": an act, not the figure before
    # the first part takes the whole question's period, not the measures its later parts name ("What secures the
    # credit facility, ..., and how much cash had it pledged?": the cash is the third part's)
    # "..., how much 787 deferred production cost was in inventory?", "how much did its receivable factoring programs
    # accelerate collections?" ask a figure of a thing of their own, named by their words
    own = _ASKS_HELD.search(part.text) or (part.asks_value and not part.words & _POINTING_BACK and _names_own(part))
    measures = part.measures or (before.measures if not first and not own else ())
    # "..., and what explains the move?": the ratio the part before names is what moved
    ratio = part.ratio or (before.ratio if not part.measures else None)
    formula = part.formula or (before.formula if ratio is not part.ratio else None)  # the ratio as it was defined
    asked = part.asked
    if asked.fiscal_year is None and asked.end is None and asked.instant is None:
        asked = before.asked
    elif part.changed and before.asked.fiscal_year is not None and before.asked.fiscal_year not in asked.years:
        years = tuple(sorted({*asked.years, before.asked.fiscal_year}))
        asked = replace(asked, years=years, fiscal_year=max(years),
                        fiscal_named=tuple(sorted({*asked.fiscal_named, *before.asked.fiscal_named})))
    # "..., and how large was that growth?": the inherited measure is of the part the part before named
    # "What does its Business Innovation segment comprise, and how much revenue did it generate?": a figure of the
    # part pointed back at, the one the part before names, unless the part asks the whole ("its total revenue")
    pointed = (not first and bool(part.measures) and bool(part.words & _POINTING)
               and not part.words & _WHOLE_COMPANY)
    segment = part.segment or (before.segment if measures is not part.measures or pointed else "")
    # "What are its reportable segments, and how much revenue did each generate?": each of the parts listed before
    listing = part.listing or (before.listing if part.words & _DISTRIBUTIVE and part.ranking is None else "")
    if (measures is part.measures and asked is part.asked and ratio is part.ratio and formula is part.formula
            and segment == part.segment and listing == part.listing):
        return part
    # "what are the key drivers for this change?": the words of the measure it inherits are its words too
    stems_ = part.stems | before.stems if measures is not part.measures or ratio is not part.ratio else part.stems
    q = replace(part, measures=measures, ratio=ratio, formula=formula, asked=asked, stems=stems_, segment=segment,
                listing=listing)
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
            part = _inherit(_one(piece), before if not parts else parts[-1], first=not parts)
            parts.append(part)
            before = part
    # each part knows the companies it names too ("..., and by how much did Activision Blizzard's revenue fall?":
    # no "Activision" column of a segment breakdown is asked by it)
    whole = _of_companies(whole, documents)
    parts = [_of_companies(p, documents, whole.companies) for p in parts]
    return replace(whole, parts=tuple(parts))


def _of_companies(q: Question, documents: Sequence[Document],
                  others: dict[str, tuple[str, ...]] | None = None) -> Question:
    """``q`` with the companies of ``documents`` its text names and where; a part named like one of them (or like
    one of ``others``, the whole question's) is the company ("the FY2019 revenue of Amazon"), not a part of it."""
    companies: dict[str, tuple[str, ...]] = {}
    named: list[tuple[str, int, int, int]] = []
    if documents:
        from engine.ask.routing import mentions

        for doc_id, hits in mentions(q.text, documents).items():
            companies[doc_id] = tuple(sorted({alias for alias, _ in hits}))
            named += [(doc_id, start, end, _possessive(q.text, end)) for _, (start, end) in hits]
    aliases = {a.lower() for names in [*companies.values(), *(others or {}).values()] for a in names}
    segment = "" if q.segment.lower() in aliases else q.segment
    return replace(q, companies=companies, mentions=tuple(sorted(named)), segment=segment)


_POSSESSIVE_AFTER = re.compile(r"['’]s\b")


def _possessive(text: str, end: int) -> int:
    """The length of a possessive "'s" right after a company's name (0 when none)."""
    m = _POSSESSIVE_AFTER.match(text, end)
    return m.end() - end if m else 0

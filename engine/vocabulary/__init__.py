"""The financial vocabulary, as data (``financial.toml`` beside this file), and the one row-label scorer.

Line items (what filings call them, how questions ask for them, which statement reports them, balance or
flow), standard ratios with their definitions, query-expansion synonyms and the words that ask for a
statement's line items. The statement channel, query expansion, computed metrics and the cell resolver all
read these tables; a new alias goes into the TOML, not into a module.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from engine.library.lexical import tokenize

_FILE = Path(__file__).with_name("financial.toml")


@dataclass(frozen=True)
class LineItem:
    """A line item of the primary statements."""

    name: str
    """Canonical name (``revenue``, ``pp&e``, ``cash from operations``)."""
    labels: tuple[str, ...]
    """Row labels that report it, lower case."""
    asked: tuple[str, ...]
    """Other ways a question names it, lower case."""
    statement: str
    """``income``, ``balance`` or ``cash_flow``."""
    balance: bool = False
    """A balance at a date: read from the balance sheet, never from a cash flow statement's changes."""
    outflow: bool = False
    """Printed as a negative cash flow, quoted as a positive amount."""
    other_when: tuple[str, ...] = ()
    """Words that make a label another line item although it holds this one's name ("net income" from
    continuing operations, per share, attributable to noncontrolling interests), lower case."""
    derived: str = ""
    """The item as a definition over others, for a filing whose tables do not print it (Amazon's balance sheet
    has no total liabilities line: ``total assets - total equity``); used only where no row reports it."""

    def excludes(self, label: str) -> bool:
        """Whether a row label is another line item by one of ``other_when``'s qualifiers."""
        low = " " + _key(label) + " "
        return any(f" {_key(w)} " in low for w in self.other_when)

    @property
    def names(self) -> tuple[str, ...]:
        """Every phrase that names the item: canonical name, labels and question wordings."""
        return (self.name, *self.labels, *self.asked)


@dataclass(frozen=True)
class Vocabulary:
    """The loaded vocabulary."""

    items: dict[str, LineItem]
    ratios: dict[str, str]
    """Ratio name -> definition over item names (``{year}``/``{prev}``: the year asked and the one before)."""
    expansion: dict[str, tuple[str, ...]]
    """Question phrase -> phrases a filing uses for the same thing."""
    statement_line_items: dict[str, re.Pattern[str]]
    """Statement kind -> the words of a question that ask for its line items or ratios."""


@cache
def vocabulary() -> Vocabulary:
    """The vocabulary, read once from ``financial.toml``."""
    with _FILE.open("rb") as fh:
        raw = tomllib.load(fh)
    items = {
        name: LineItem(
            name=name,
            labels=tuple(spec.get("labels", ())),
            asked=tuple(spec.get("asked", ())),
            statement=spec["statement"],
            balance=bool(spec.get("balance", False)),
            outflow=bool(spec.get("outflow", False)),
            other_when=tuple(spec.get("other_when", ())),
            derived=str(spec.get("derived", "")),
        )
        for name, spec in raw["items"].items()
    }
    return Vocabulary(
        items=items,
        ratios=dict(raw["ratios"]),
        expansion={k: tuple(v) for k, v in raw["expansion"].items()},
        statement_line_items={k: re.compile(v, re.I) for k, v in raw["statement_line_items"].items()},
    )


def _key(phrase: str) -> str:
    return " ".join(re.sub(r"[^\w&%\s]", " ", phrase.lower()).split())


@cache
def _index() -> dict[str, str]:
    """Every naming phrase (normalised) -> canonical item."""
    out: dict[str, str] = {}
    for item in vocabulary().items.values():
        for phrase in item.names:
            out.setdefault(_key(phrase), item.name)
    return out


@lru_cache(maxsize=8192)
def canonical(phrase: str) -> str:
    """The canonical item a phrase names (``net sales`` -> ``revenue``, ``FY2019 PP&E`` -> ``pp&e``, "trade
    accounts receivable, net" -> ``accounts receivable``); the phrase itself, normalised, when the vocabulary does
    not know it."""
    key = _key(phrase)
    index = _index()
    if key in index:
        return index[key]
    key = re.sub(r"^(?:the|total|fy\s*\d{4}|\d{4})\s+", "", key)
    if key in index:
        return index[key]
    bare = re.sub(r",?\s+net$", "", key)  # a filer's "Trade accounts receivable, net": the item, net of allowances
    return index.get(bare, key)


def item(phrase: str) -> LineItem | None:
    """The line item a phrase names, if the vocabulary knows it."""
    return vocabulary().items.get(canonical(phrase))


def items_named(text: str) -> list[LineItem]:
    """The line items a question names, longest naming phrase first, each once (``net sales`` names revenue
    and not "sales" twice)."""
    low = " " + _key(text) + " "
    found: list[tuple[int, int, LineItem]] = []
    for it in vocabulary().items.values():
        best = max((len(k) for p in it.names if (k := _key(p)) and f" {k} " in low), default=0)
        if best:
            pos = low.find(" " + max((k for p in it.names if (k := _key(p)) and f" {k} " in low), key=len) + " ")
            found.append((best, pos, it))
    found.sort(key=lambda t: (-t[0], t[1]))
    return [it for _, _, it in found]


def label_score(phrase: str, label: str) -> float:
    """How well a row label reports a phrase: the share of the phrase's words the label holds, less 0.15 for
    each share of the label's words the phrase does not have (so "Total revenues" fits "revenues" better
    than "Revenues from related parties"). The one row-label scorer of the engine."""
    want, have = set(tokenize(phrase)), set(tokenize(label))
    if not want or not have:
        return 0.0
    return len(want & have) / len(want) - 0.15 * len(have - want) / len(have)


@cache
def _ratio_patterns() -> list[tuple[str, str, re.Pattern[str]]]:
    """Each ratio's name as a pattern whose words may run together ("free cashflow conversion") and whose last
    word may be plural ("gross margins") or, in a plural name, singular ("return on asset"), longest first."""
    def words(name: str) -> str:
        *head, last = name.split()
        # the last word plural ("gross margins") or, a plural name, singular ("return on asset")
        tail = re.escape(last[:-1]) + "s?" if last.endswith("s") and len(last) > 3 else re.escape(last) + "(?:s|es)?"
        return r"\s*".join([*(re.escape(w) for w in head), tail])

    return [(name, expr, re.compile(r"(?<![a-z])" + words(name) + r"(?![a-z])"))
            for name, expr in sorted(vocabulary().ratios.items(), key=lambda kv: -len(kv[0]))]


@cache
def longest_item_words() -> int:
    """The most whitespace-separated words a phrase the vocabulary knows as a line item can have (its longest
    naming phrase, plus the "FY 2019" or "total" that ``canonical`` drops): a longer run of words names no item,
    so searches over a question's words stop there."""
    return max(len(_key(p).split()) for it in vocabulary().items.values() for p in it.names) + 2


_ADJUSTED_BEFORE = re.compile(r"\b(?:adjusted|non-gaap)\s+(?:[\w&'’-]+\s+){0,2}$")
"""An "adjusted" measure's words before a standard name ("Adjusted Property EBITDA", "adjusted EBITDA"): the
filer's own measure, which it defines and reports; the standard definition does not compute it."""


def ratio_named(text: str) -> tuple[str, str] | None:
    """(name, definition) of the standard ratio a question names, the longest name first; none for a filer's
    adjusted measure of that name ("Las Vegas Strip Resorts Adjusted Property EBITDA")."""
    low = text.lower()
    for name, expr, pattern in _ratio_patterns():
        m = pattern.search(low)
        if m and not any(low.find(p, max(0, m.end() - len(p)), m.start() + len(p)) >= 0 for p in _items_holding(name)):
            return None if _ADJUSTED_BEFORE.search(low, 0, m.start()) else (name, expr)
    return None


@cache
def _items_holding(ratio: str) -> tuple[str, ...]:
    """The line items' naming phrases that hold a ratio's name ("changes in working capital", a cash flow line, holds
    "working capital"): where the question says one, it names that line, not the ratio."""
    return tuple(p for it in vocabulary().items.values() for p in it.names if ratio in p and p != ratio)


@dataclass(frozen=True)
class NarrativeKind:
    """A kind of narrative answer (``[narrative.NAME]`` in the vocabulary): how a question asks for it and the
    words of a filing's sentences that answer it."""

    name: str
    asked: re.Pattern[str] | None
    """Matches the first sentence of a question that asks for this kind; None for the default kind."""
    cues: tuple[str, ...]
    """Phrases (lower case) a sentence answering this kind carries."""
    against: tuple[str, ...] = ()
    """Phrases (lower case) of a sentence that does not answer this kind (what may happen, not what did: "may",
    "could"; a list of exhibits: "incorporated by reference")."""
    searched: bool = False
    """The cues mark this kind's answer whatever its subject (a cause's connectives, a lawsuit's words): the lexical
    search of passages adds them to a question of this kind."""
    not_names: tuple[str, ...] = ()
    """Last words (lower case) of a term a sentence defines that is no party (the “Credit Agreement”, the “Notes”):
    for a kind whose answer is names (``[narrative.KIND] not_names`` given), every other defined name in a quote
    carrying its cues belongs in the answer (``narrative.also_named``)."""
    alike: tuple[tuple[str, ...], ...] = ()
    """Groups of words (lower case) a question may use for what a cue says ("bought", "purchased" for "acquired"):
    a question with one of a group's words asks for the cues of all of them."""
    roles: tuple[tuple[str, ...], ...] = ()
    """Groups of words (lower case), each one role a party plays for the filer (customers; suppliers, vendors,
    subcontractors; competitors): a party told in one role's words where the quotes give it another's is a
    relation no quote states."""
    cause_first: tuple[str, ...] = ()
    """Verbs (lower case) a sentence puts between a cause before them and what it changed after them ("Effective
    net pricing drove the change in net revenue"): the sentence says what its cues would say the other way round."""


@dataclass(frozen=True)
class Narrative:
    """The narrative part of the vocabulary."""

    kinds: tuple[NarrativeKind, ...]
    """In the order they are tried; the last without ``asked`` is the default."""
    generic: frozenset[str]
    """Words a summary may use without a quote behind them."""
    elsewhere: tuple[str, ...] = ()
    """Phrases of a sentence that sends the reader elsewhere (a cross-reference, a table's lead-in or footnote)."""
    none: tuple[str, ...] = ()
    """Phrases of a sentence that says nothing of its subject happened ("there were no changes in")."""
    immaterial: tuple[str, ...] = ()
    """Phrases of a sentence that says nothing material of its subject happened ("no material changes to")."""
    material: frozenset[str] = frozenset()
    """A question's words that ask about something material ("material", "significant")."""
    forward: tuple[str, ...] = ()
    """Words (lower case) of a sentence that tells what is expected or may happen, not what did ("expect", "will",
    "may"): a summary that states such a quote's content without one of them states a forecast as a fact."""
    same: tuple[frozenset[str], ...] = ()
    """Groups of words (lower case) that say the same of a line item ("expenses", "costs")."""
    part_words: frozenset[str] = frozenset()
    """A part's kind words ("segment", "division"): a quote that names the part need not say them."""
    heading_topics: frozenset[str] = frozenset()
    """A section heading's words that name a topic, not a part of the company ("Results of Operations")."""
    heading_measures: frozenset[str] = frozenset()
    """A section heading's words that name a measure ("Gross Profit Rate"): a sub-section of the one above."""
    heading_places: frozenset[str] = frozenset()
    """A section heading's words that name a place ("North America", "Greater China"): a geographic part."""
    heading_whole: tuple[str, ...] = ()
    """A section heading's words that say it reports the whole company ("Consolidated Results")."""
    measure_qualifiers: tuple[str, ...] = ()
    """Words that make a measure another measure ("adjusted", "core", "organic"), lower case."""

    def kind(self, name: str) -> NarrativeKind | None:
        """The kind of that name."""
        return next((k for k in self.kinds if k.name == name), None)

    @property
    def qualifier_pattern(self) -> re.Pattern[str] | None:
        """The ``measure_qualifiers`` as one pattern of whole words; None where there are none."""
        return _qualifier_pattern(self.measure_qualifiers)

    def qualifiers_in(self, text: str) -> set[str]:
        """The ``measure_qualifiers`` a text writes (lower case; "non- GAAP" broken at a line's hyphen is
        "non-gaap")."""
        pattern = self.qualifier_pattern
        mended = re.sub(r"(\w)- (\w)", r"\1-\2", text)
        return {m.group(0).lower() for m in pattern.finditer(mended)} if pattern is not None else set()


@lru_cache(maxsize=4)
def _qualifier_pattern(quals: tuple[str, ...]) -> re.Pattern[str] | None:
    if not quals:
        return None
    return re.compile(rf"(?<![\w-])(?:{'|'.join(re.escape(x) for x in sorted(quals, key=len, reverse=True))})"
                      r"(?![\w-])", re.I)


@cache
def narrative() -> Narrative:
    """The narrative kinds and the summary's generic words, read once from ``financial.toml``."""
    with _FILE.open("rb") as fh:
        raw = tomllib.load(fh)["narrative"]
    kinds = tuple(
        NarrativeKind(name, re.compile(spec["asked"], re.I) if spec.get("asked") else None,
                      tuple(c.lower() for c in spec.get("cues", ())), tuple(c.lower() for c in spec.get("against", ())),
                      bool(spec.get("searched", False)), tuple(c.lower() for c in spec.get("not_names", ())),
                      tuple(tuple(w.lower() for w in group) for group in spec.get("alike", ())),
                      tuple(tuple(w.lower() for w in group) for group in spec.get("roles", ())),
                      tuple(c.lower() for c in spec.get("cause_first", ())))
        for name, spec in raw.items() if name not in {"summary", "elsewhere", "absence"}
    )
    absence = raw.get("absence", {})
    return Narrative(kinds, frozenset(w.lower() for w in raw.get("summary", {}).get("generic", ())),
                     tuple(x.lower() for x in raw.get("elsewhere", {}).get("phrases", ())),
                     tuple(x.lower() for x in absence.get("none", ())),
                     tuple(x.lower() for x in absence.get("immaterial", ())),
                     frozenset(x.lower() for x in absence.get("asked", ())),
                     tuple(x.lower() for x in raw.get("summary", {}).get("forward", ())),
                     tuple(frozenset(w.lower() for w in g) for g in raw.get("summary", {}).get("same", ())),
                     frozenset(w.lower() for w in raw.get("summary", {}).get("part_words", ())),
                     frozenset(w.lower() for w in raw.get("summary", {}).get("heading_topics", ())),
                     frozenset(w.lower() for w in raw.get("summary", {}).get("heading_measures", ())),
                     frozenset(w.lower() for w in raw.get("summary", {}).get("heading_places", ())),
                     tuple(w.lower() for w in raw.get("summary", {}).get("heading_whole", ())),
                     tuple(w.lower() for w in raw.get("summary", {}).get("measure_qualifiers", ())))


@dataclass(frozen=True)
class JudgementRatio:
    """One standard ratio that votes on a judgement: Yes on its side of the threshold."""

    name: str
    formula: str
    """Over line items, as the vocabulary's ``[ratios]``."""
    threshold: float
    yes_above: bool
    """Yes when the ratio is above ``threshold`` (else when below)."""

    def says_yes(self, value: float) -> bool:
        """Whether ``value`` votes Yes."""
        return value > self.threshold if self.yes_above else value < self.threshold


@dataclass(frozen=True)
class Judgement:
    """A yes/no about a quality the vocabulary decides from standard ratios (``[judgements.NAME]``)."""

    name: str
    asked: re.Pattern[str]
    source: str
    """Where the thresholds come from, said with the verdict."""
    ratios: tuple[JudgementRatio, ...]
    holds: re.Pattern[str] | None = None
    """A sentence that says the company has the quality ("3M is a capital-intensive business")."""
    fails: re.Pattern[str] | None = None
    """A sentence that says it lacks it ("its liquidity is weak")."""


@cache
def judgements() -> dict[str, Judgement]:
    """The judgements, read once from ``financial.toml``, by name."""
    with _FILE.open("rb") as fh:
        raw = tomllib.load(fh)["judgements"]
    return {
        name: Judgement(name, re.compile(spec["asked"], re.I), spec["source"], tuple(
            JudgementRatio(r["name"], r["formula"], float(r.get("yes_above", r.get("yes_below", 0.0))),
                           "yes_above" in r)
            for r in spec["ratios"]),
            *(re.compile(spec[k], re.I) if spec.get(k) else None for k in ("holds", "fails")))
        for name, spec in raw.items()
    }


@dataclass(frozen=True)
class UnusualItems:
    """What a question about items outside the ordinary course of business asks, and the income-statement rows
    that report such items (``[unusual]``)."""

    asked: re.Pattern[str]
    rows: tuple[str, ...]
    """Phrases (lower case) of a row label that reports such an item: a gain or loss on a sale, an impairment."""
    not_rows: tuple[str, ...]
    """Phrases of a row label that is a subtotal or a recurring line however worded ("other (income)")."""
    material: float
    """The share of net income an item must reach for a question that asks about substantial items."""
    source: str


@cache
def unusual_items() -> UnusualItems:
    """The ``[unusual]`` section, read once from ``financial.toml``."""
    with _FILE.open("rb") as fh:
        raw = tomllib.load(fh)["unusual"]
    return UnusualItems(re.compile(raw["asked"], re.I), tuple(r.lower() for r in raw["rows"]),
                        tuple(r.lower() for r in raw["not_rows"]), float(raw["material"]), raw["source"])


@cache
def groups() -> dict[str, tuple[re.Pattern[str], tuple[str, ...]]]:
    """Phrases that name several line items at once (``[groups]``): name -> (the phrase in a question, the items)."""
    with _FILE.open("rb") as fh:
        raw = tomllib.load(fh).get("groups", {})
    return {name: (re.compile(spec["asked"], re.I), tuple(spec["items"])) for name, spec in raw.items()}


@dataclass(frozen=True)
class Section:
    """A class of a statement's lines a question ranks by ("the largest liability"): ``[sections]``."""

    name: str
    asked: tuple[str, ...]
    """The nouns that name the class in a question."""
    statement: str
    starts: tuple[str, ...]
    """A row whose label starts with one of these opens the section (none: it opens at the first row)."""
    ends: tuple[str, ...]
    """A row whose label starts with one of these closes it."""

    def rows(self, labels: Sequence[str], totals: Sequence[bool]) -> list[int]:
        """The indexes of the section's lines among a statement's row labels (``totals[i]``: row ``i`` carries
        figures), in order, less the rows that sum others (a label starting with "total", or a start's own). The
        section opens at a start's heading ("Current liabilities:", no figures); a start carrying figures closes
        the block above it ("Non-current liabilities" under its lines, the equity block before them), so the
        section opens after the row that closed the block before ("Equity"). It ends at the first row after it
        whose label starts with one of ``ends``."""
        low = _plain_labels(labels)
        if self.starts:
            b = next((i for i, x in enumerate(low) if x in self.starts), None)
            if b is None:
                return []
            if totals[b]:  # a subtotal under its block: the block opens after the one before it closed
                b = next((i + 1 for i in range(b - 1, -1, -1) if low[i].startswith(("total", *self.ends))), 0)
        else:
            b = 0
        end = next((i for i, x in enumerate(low) if i > b and x.startswith(self.ends) and x not in self.starts),
                   len(low))
        return [i for i in range(b, end) if not low[i].startswith("total") and low[i] not in self.starts]

    def block(self, labels: Sequence[str], totals: Sequence[bool], i: int) -> str:
        """The start that names the block line ``i`` sits in: the heading above it, else the subtotal below it
        ("Non-current liabilities"); '' where none does."""
        low = _plain_labels(labels)
        above = next((labels[k] for k in range(i, -1, -1) if low[k] in self.starts and not totals[k]), "")
        below = next((labels[k] for k in range(i, len(low)) if low[k] in self.starts and totals[k]), "")
        return (above or below).strip(" :")


_FOOTNOTE = re.compile(r"\s*(?:\[\d+\]|\(\d+\))\s*$")
"""A note reference at the end of a row label ("Debt securities [13]", "Other liabilities (2)")."""


def _plain_labels(labels: Sequence[str]) -> list[str]:
    """Row labels as a section's starts and ends are matched: lower case, spaces folded, a note reference and a
    heading's colon dropped ("Current liabilities:" -> "current liabilities")."""
    return [_FOOTNOTE.sub("", " ".join(x.lower().split())).strip(" :(") for x in labels]


@cache
def sections() -> dict[str, Section]:
    """The classes of lines of a statement (``[sections]``), by name."""
    with _FILE.open("rb") as fh:
        raw = tomllib.load(fh).get("sections", {})
    return {name: Section(name, tuple(spec["asked"]), spec["statement"], tuple(spec["starts"]), tuple(spec["ends"]))
            for name, spec in raw.items()}


def section_named(word: str) -> Section | None:
    """The class of lines a noun names ("liability" -> liabilities), or None."""
    low = word.lower()
    return next((s for s in sections().values() if low in s.asked), None)


@cache
def breakdowns() -> dict[str, tuple[str, ...]]:
    """Kind of part -> the words that name it, in a question or a breakdown table's title (``[breakdowns]``)."""
    with _FILE.open("rb") as fh:
        raw = tomllib.load(fh)["breakdowns"]
    return {name: tuple(w.lower() for w in words) for name, words in raw.items()}


@cache
def part_kinds() -> frozenset[str]:
    """The words that name a kind of part after its name ("the Gaming segment", "the EMEA region", "the Data
    Center platform"), singular, lower case: the kinds of ``[breakdowns]`` and the summary's ``part_words``."""
    return frozenset({*breakdowns(), *(w[:-1] if w.endswith("s") else w for w in narrative().part_words)})


@cache
def breakdown_title(kind: str) -> re.Pattern[str]:
    """The words that name a kind of part in a table's title ("region": "Geographic Information", "Net sales by
    region"; "category": "... by revenue category"): what tells a breakdown's table from the others."""
    return re.compile(r"\b(?:" + "|".join(re.escape(w) for w in (kind, *breakdowns().get(kind, ()))) + r")", re.I)


@cache
def places() -> frozenset[str]:
    """The names a geographic breakdown's rows carry (``[places]``), lower case."""
    with _FILE.open("rb") as fh:
        return frozenset(w.lower() for w in tomllib.load(fh)["places"]["names"])


def names_place(label: str) -> bool:
    """Whether a row label names a place of a geographic breakdown ("EMEA(1)", "Americas:", "Rest of Asia
    Pacific")."""
    plain = re.sub(r"(?:\s*\(\d+\)|\s*\[\d+\]|[:*†])+\s*$", "", label.strip()).strip().lower()
    return plain in places()


def breakdown_named(word: str) -> str:
    """The kind of part a word names ("geographic" -> "region", "segments" -> "segment"), or ''."""
    low = word.lower()
    for name, words in breakdowns().items():
        if any(low == w or low == w + "s" or low == w + "es" or (w.endswith("y") and low == w[:-1] + "ies")
               for w in (name, *words)):
            return name
    return ""


def _whole_words(listed: list[str]) -> re.Pattern[str]:
    """One pattern of whole words; a listed word ending in * takes any ending."""
    alts = sorted((re.escape(w[:-1]) + r"\w*" if w.endswith("*") else re.escape(w) for w in listed), key=len,
                  reverse=True)
    return re.compile(rf"\b(?:{'|'.join(alts)})\b", re.I)


@cache
def _directions_table() -> dict[str, list[str]]:
    with _FILE.open("rb") as fh:
        return dict(tomllib.load(fh)["directions"])


@cache
def directions() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The words that say a figure went up, and those that say it went down (``[directions]``), each one pattern
    of whole words; a listed word ending in * takes any ending."""
    raw = _directions_table()
    return _whole_words(raw["up"]), _whole_words(raw["down"])


@dataclass(frozen=True)
class ChangeWords:
    """The words of a change that say no way, or that are a change only in one place (``[directions]``)."""

    either: re.Pattern[str]
    """A change without its way ("How did revenue change?", "the difference")."""
    nouns: re.Pattern[str]
    """The nouns of a change either way, as a subject that points back at one ("The decrease was due to ...")."""
    before_figure: re.Pattern[str]
    """Words that give the figure right after them as a change ("up 5%"), and only there ("up to", "down
    payment")."""
    flat: re.Pattern[str]
    """Words that say a figure did not move ("was flat", "remained unchanged")."""

    def before(self) -> str:
        """A pattern of any word that gives the figure after it as a change: a way, no way, or ``before_figure``."""
        rises, falls = directions()
        return "|".join(p.pattern for p in (rises, falls, self.either, self.before_figure))


@cache
def change_words() -> ChangeWords:
    """The ``[directions]`` words of a change besides ``up`` and ``down``."""
    raw = _directions_table()
    return ChangeWords(_whole_words(raw["either"]), _whole_words(raw["nouns"]), _whole_words(raw["before_figure"]),
                       _whole_words(raw["flat"]))

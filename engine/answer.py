"""Answers from evidence (DESIGN.md, "Retrieval, per question", step 5).

One system prompt that forbids guessing; numbered sources carrying each table's JSON and description; [n]
citations mapped to (document, page, region); evidence beyond the model's budget answered in parts and fused;
every number in the answer looked up in the cited evidence; ratios, growth and differences computed in code
from table cells when the cells are found, and the computation shown.
"""

from __future__ import annotations

import json
import queue
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import AnswerError, Cancelled, EngineError
from engine.formulas import fmt, solve
from engine.lexical import tokenize
from engine.models.protocols import LLM, ChatMessage, Generation
from engine.models.provider import ModelProvider
from engine.settings import Settings
from engine.statements import heading, statement_of
from engine.types import (
    Answer,
    AnswerEvent,
    AnswerFinished,
    CancelCheck,
    Check,
    Citation,
    Evidence,
    Region,
    Retrieval,
    RetrievalDone,
    TokenStreamed,
    never_cancelled,
)

SYSTEM_PROMPT = (
    "You are a careful financial analyst. Answer the question using ONLY the numbered sources. "
    "Cite every fact with its source number in square brackets, like [2]. Quote numbers exactly as the "
    "sources give them, with units and the period they belong to. When a line starting with 'Computed:' is "
    "given, use its result. If the sources do not contain the answer, reply exactly: "
    "\"Insufficient information: \" followed by what is missing. Never guess or use outside knowledge. "
    "If the question asks yes or no, begin with Yes or No. Be brief: one to three sentences."
)
"""The one system prompt, for single answers, for the parts of a long context and for fusing them."""

REFUSAL = re.compile(
    r"insufficient information|not (?:contain|provide|include|mention)|cannot (?:be )?(?:determine|answer|find)|"
    r"no information|not enough information|unable to (?:determine|find|answer)|does not (?:say|state|specify)",
    re.I,
)
_NUM = re.compile(r"\(?-?[$€£]?\s?\d[\d,]*(?:\.\d+)?\)?\s?%?")
_YEARLIKE = re.compile(r"^(?:19|20)\d{2}$")
TABLE_JSON_CHARS = 2500
"""A table's JSON is cut at this many characters in the prompt (about 700 tokens)."""
MAX_PARTS = 3
"""At most this many parts are answered separately before fusing; evidence beyond them is dropped."""


# --- context ------------------------------------------------------------------------------------------


def compact_table(table: dict[str, Any]) -> dict[str, Any]:
    """A table JSON for the prompt: title, units, columns and rows as ``[label, values...]``."""
    rows = []
    for row in table.get("rows", []):
        if not isinstance(row, dict):
            continue
        vals = [v for v in row.get("values", [])]
        if not row.get("label") and not any(vals):
            continue
        rows.append([row.get("label", ""), *["" if v is None else v for v in vals]])
    out: dict[str, Any] = {}
    for key in ("title", "units", "columns"):
        if table.get(key):
            out[key] = table[key]
    out["rows"] = rows
    return out


def evidence_block(n: int, e: Evidence, region: Region | None = None) -> str:
    """One numbered source: where it is, then its text; a table also carries its description and JSON."""
    where = f"[{n}] {e.doc}, page {e.page}, {e.modality}"
    if region is not None and region.title:
        where += f' "{region.title}"'
    if region is not None and region.units:
        where += f" ({region.units})"
    if region is not None and region.table:
        desc = region.summary.strip() or e.text.strip()
        blob = json.dumps(compact_table(region.table), separators=(",", ":"), ensure_ascii=False)
        if len(blob) > TABLE_JSON_CHARS:
            blob = blob[:TABLE_JSON_CHARS] + "...(cut)"
        return f"{where}\nDescription: {desc[:600]}\nTable JSON: {blob}"
    return f"{where}\n{e.text.strip()}"


# --- number checks --------------------------------------------------------------------------------------


def normalise_number(raw: str) -> float | None:
    s = raw.strip()
    neg = s.startswith("(") and s.endswith(")") or s.startswith("-") or s.startswith("(-")
    digits = re.sub(r"[^\d.]", "", s)
    if not digits or digits == ".":
        return None
    try:
        v = float(digits.rstrip("."))
    except ValueError:
        return None
    return -v if neg else v


def numbers_in(text: str) -> list[tuple[str, float]]:
    out = []
    for m in _NUM.finditer(text):
        raw = m.group(0).strip()
        v = normalise_number(raw)
        if v is None:
            continue
        out.append((raw, v))
    return out


def _decimals(raw: str) -> int:
    m = re.search(r"\.(\d+)", raw)
    return len(m.group(1)) if m else 0


def same_number(raw: str, value: float, ref: float) -> bool:
    """True when ``ref`` is ``value`` as written: equal, or equal at the answer's precision after a change of
    scale (an answer in billions against a table in millions, or the reverse)."""
    v, r = abs(value), abs(ref)
    if abs(v - r) <= 1e-6 * max(1.0, v):
        return True
    d = _decimals(raw)
    for scale in (1.0, 1e3, 1e-3, 1e6, 1e-6, 100.0, 0.01):
        x = r / scale
        if d and abs(round(x, d) - v) < 0.5 * 10 ** (-d) + 1e-9 and x != 0:
            return True
        if not d and scale != 1.0 and abs(x - v) <= 1e-6 * max(1.0, v):
            return True
    return False


def evidence_numbers(e: Evidence, region: Region | None) -> list[float]:
    """Every number in a piece of evidence: its text, and its table's cells when it is a table."""
    vals = [abs(v) for _, v in numbers_in(e.text)]
    if region is not None and region.table:
        for row in region.table.get("rows", []):
            if isinstance(row, dict):
                vals += [abs(float(x)) for x in row.get("numbers", []) if isinstance(x, int | float)]
                vals += [abs(v) for val in row.get("values", []) if val for _, v in numbers_in(str(val))]
    return vals


def checkable(raw: str, value: float) -> bool:
    """Whether a number of an answer is a figure to look up: not a year, not a small count or list number."""
    if abs(value) < 10 and "." not in raw and "%" not in raw:
        return False
    return not (_YEARLIKE.match(re.sub(r"[^\d.]", "", raw)) and "$" not in raw and "," not in raw)


def check_numbers(
    text: str,
    cited: Sequence[Evidence],
    regions: dict[int, Region] | None = None,
    computed: Sequence[float] = (),
) -> list[Check]:
    """Every number in the answer looked up in the cited evidence (sign, separators and scale ignored).

    Years and small integers (``3 segments``, list numbering) are not checked. Results of the code's own
    computation count as found, ``where="computed"``.
    """
    regions = regions or {}
    pool = [(v, e) for e in cited for v in evidence_numbers(e, regions.get(e.region_id or -1))]
    checks: list[Check] = []
    clean = re.sub(r"\[\d+(?:\s*,\s*\d+)*\]", " ", text)
    for raw, v in numbers_in(clean):
        if not checkable(raw, v):
            continue
        if any(same_number(raw, v, c) for c in computed):
            checks.append(Check(value=raw, found=True, where="computed"))
            continue
        hit = next((e for pv, e in pool if same_number(raw, v, pv)), None)
        checks.append(
            Check(
                value=raw,
                found=hit is not None,
                where=f"{hit.doc} p.{hit.page}" if hit else "",
                note="" if hit else "not found in the cited evidence",
            )
        )
    return checks


def inferred_citations(
    text: str, used: Sequence[Evidence], regions: dict[int, Region] | None = None
) -> list[Citation]:
    """Sources for an answer that cites none: for each number it quotes (years and small integers aside), the
    best-ranked source that holds it, marked ``inferred``. Small models sometimes drop the ``[n]`` markers;
    this keeps every quoted number traceable to a page instead of leaving the answer unsourced."""
    regions = regions or {}
    pools = [evidence_numbers(e, regions.get(e.region_id or -1)) for e in used]
    found: list[int] = []
    for raw, v in numbers_in(text):
        if not checkable(raw, v):
            continue
        n = next((i for i, pool in enumerate(pools) if any(same_number(raw, v, pv) for pv in pool)), None)
        if n is not None and n not in found:
            found.append(n)
    return [Citation(marker=n + 1, doc=used[n].doc, page=used[n].page, modality=used[n].modality,
                     region_id=used[n].region_id, chunk_id=used[n].chunk_id, inferred=True) for n in sorted(found)]


# --- computations -----------------------------------------------------------------------------------------


@dataclass
class Cell:
    """A table cell found for a computation."""

    label: str
    column: str
    value: float
    marker: int
    """The source number ([n]) of the table it came from."""


@dataclass
class Computation:
    """A ratio, growth rate or difference computed in code from table cells."""

    kind: str
    result: float
    text: str
    cells: list[Cell]


NAMED_RATIOS: dict[str, tuple[str, str]] = {
    "gross margin": ("gross profit", "revenue"),
    "gross profit margin": ("gross profit", "revenue"),
    "operating margin": ("operating income", "revenue"),
    "operating profit margin": ("operating income", "revenue"),
    "net margin": ("net income", "revenue"),
    "net profit margin": ("net income", "revenue"),
    "current ratio": ("total current assets", "total current liabilities"),
    "debt to equity": ("total liabilities", "total equity"),
    "effective tax rate": ("provision for income taxes", "income before income taxes"),
}
_REVENUE_ALIASES = ("revenue", "revenues", "total revenues", "net sales", "total net sales", "net revenues", "sales")
_GROWTH = re.compile(r"\b(growth|grew|percent(?:age)? change|% change|year[- ]over[- ]year|yoy|increase|decrease|"
                     r"decline|change)\b", re.I)
_PCT = re.compile(r"percent|%|rate|growth", re.I)
_RATIO = re.compile(r"\b(?:ratio of|proportion of)\s+(.+?)\s+to\s+(.+?)(?:\?|$| in | for | during )|"
                    r"\b(.+?)\s+(?:as a (?:percent(?:age)?|%|share) of|divided by|over)\s+(.+?)(?:\?|$| in | for )",
                    re.I)
_DIFF = re.compile(r"\b(difference|how much (?:more|less|higher|lower)|change in)\b", re.I)
_LEAD = re.compile(r"^(?:what|how|was|is|the|much|did|of|by)\b\s*", re.I)


def _years(text: str) -> list[str]:
    return re.findall(r"(?:19|20)\d{2}", text)


def _label_score(phrase: str, label: str) -> float:
    want = set(tokenize(phrase))
    have = set(tokenize(label))
    if not want or not have:
        return 0.0
    overlap = len(want & have)
    return overlap / len(want) - 0.1 * len(have - want) / max(1, len(have))


def find_cell(phrase: str, year: str | None, tables: Sequence[tuple[int, dict[str, Any]]]) -> Cell | None:
    """The cell of the row best matching ``phrase`` in the column for ``year`` (else the first column)."""
    aliases = [phrase] + (list(_REVENUE_ALIASES) if phrase.strip().lower() in _REVENUE_ALIASES else [])
    best: tuple[float, Cell] | None = None
    for marker, table in tables:
        cols = [str(c) for c in table.get("columns", [])]
        for row in table.get("rows", []):
            if not isinstance(row, dict):
                continue
            nums = row.get("numbers") or []
            if not any(isinstance(x, int | float) for x in nums):
                continue
            label = str(row.get("label", ""))
            score = max(_label_score(a, label) for a in aliases)
            if score < 0.6:
                continue
            idx = next((i for i, c in enumerate(cols) if year and year in c and i < len(nums)
                        and isinstance(nums[i], int | float)), None)
            if idx is None:
                if year and cols:
                    continue
                idx = next((i for i, x in enumerate(nums) if isinstance(x, int | float)), None)
            if idx is None:
                continue
            cell = Cell(label, cols[idx] if idx < len(cols) else f"column {idx + 1}", float(nums[idx]), marker)
            if best is None or score > best[0]:
                best = (score, cell)
    return best[1] if best else None


def _metric_phrase(question: str) -> str:
    q = re.sub(r"\b(?:FY|fiscal(?: year)?)\s*'?\d{2,4}\b|(?:19|20)\d{2}", " ", question, flags=re.I)
    q = re.sub(r"\b(?:in|from|to|between|and|for|of|the|what|was|is|how|much|did|by|percent(?:age)?|growth|"
               r"grew|change|increase|decrease|decline|year[- ]over[- ]year|yoy|rate|company|its|usd|millions?|"
               r"billions?|round(?:ed)?|answer|two|decimal|places|\w+'s)\b", " ", q, flags=re.I)
    return " ".join(re.sub(r"[^\w&\s-]", " ", q).split())


def compute(
    question: str, tables: Sequence[tuple[int, dict[str, Any]]], kinds: dict[int, str] | None = None
) -> Computation | None:
    """Compute a ratio, growth rate or difference the question asks for, from cells of the cited tables.

    First a metric the question defines or names (``formulas.solve``: "defined as: FY2019 revenue / (average
    PP&E between FY2018 and FY2019)", working capital ratio, 3-year averages); then named ratios
    (gross/operating/net margin, current ratio, ...), "X as a % of Y", "ratio of X to Y", and growth or change
    of one line item between two years. ``kinds`` maps a table's source number to the primary statement it
    is. Returns None when the cells are not all found.
    """
    if not tables:
        return None
    solved = solve(question, tables, kinds)
    if solved is not None:
        cells = [Cell(t.label, t.column, t.value, t.marker) for t in solved.terms]
        shown = " ".join(f"[{m}]" for m in sorted({t.marker for t in solved.terms}))
        return Computation("formula", solved.value, f"{solved.text} (cells from {shown})", cells)
    q = question.strip()
    years = _years(q)
    year = years[-1] if years else None
    ql = q.lower()
    pair: tuple[str, str] | None = next((v for k, v in NAMED_RATIOS.items() if k in ql), None)
    if pair is None:
        m = _RATIO.search(q)
        if m:
            a, b = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            pair = (_LEAD.sub("", a.strip()), _LEAD.sub("", b.strip()))
    if pair is not None:
        num, den = find_cell(pair[0], year, tables), find_cell(pair[1], year, tables)
        if num is None or den is None or den.value == 0:
            return None
        ratio = num.value / den.value
        pct = bool(re.search(r"margin|percent|%|rate", ql))
        result = ratio * 100 if pct else ratio
        shown = f"{result:.2f}%" if pct else f"{result:.2f}"
        text = (f"{num.label} ({num.column}) {fmt(num.value)} [{num.marker}] / {den.label} ({den.column}) "
                f"{fmt(den.value)} [{den.marker}]" + (" x 100" if pct else "") + f" = {shown}")
        return Computation("ratio", round(result, 4), text, [num, den])
    if _GROWTH.search(q) and len(set(years)) >= 2:
        new_y, old_y = sorted(set(years))[-1], sorted(set(years))[-2]
        phrase = _metric_phrase(q)
        new, old = find_cell(phrase, new_y, tables), find_cell(phrase, old_y, tables)
        if new is None or old is None or new.label != old.label:
            return None
        diff = new.value - old.value
        if _PCT.search(q) and not _DIFF.search(q) or re.search(r"growth|grew|percent", ql):
            if old.value == 0:
                return None
            growth = diff / abs(old.value) * 100
            text = (f"({fmt(new.value)} [{new.marker}] - {fmt(old.value)} [{old.marker}]) / {fmt(abs(old.value))} "
                    f"x 100 = {growth:.2f}% ({new.label}, {new.column} vs {old.column})")
            return Computation("growth", round(growth, 4), text, [new, old])
        text = (f"{fmt(new.value)} [{new.marker}] - {fmt(old.value)} [{old.marker}] = {fmt(diff)} "
                f"({new.label}, {new.column} vs {old.column})")
        return Computation("difference", round(diff, 4), text, [new, old])
    return None


# --- the answerer -------------------------------------------------------------------------------------------


def refusal_text(retrieval: Retrieval, reason: str = "") -> str:
    """An "insufficient information" reply that lists what was searched."""
    theta = ", ".join(f"{k} >= {v:.2f}" for k, v in retrieval.thresholds.items())
    docs = sorted({e.doc for e in retrieval.evidence})
    head = reason or "Insufficient information: the searched filings do not state the answer."
    return (f"{head} Searched: tier {retrieval.tier}; thresholds {theta or 'n/a'}; "
            f"{len(retrieval.scope)} document(s){' (routed: ' + retrieval.route + ')' if retrieval.route else ''}"
            f"{'; evidence from ' + ', '.join(docs[:6]) if docs else ''}.")


class Answerer:
    """Turns a question and a retriever into a stream of answer events."""

    def __init__(self, settings: Settings, models: ModelProvider) -> None:
        self.settings = settings
        self.models = models

    def build_messages(self, question: str, blocks: Sequence[str], computation: str = "") -> list[ChatMessage]:
        context = "\n\n".join(blocks)
        extra = f"\nComputed: {computation}" if computation else ""
        user = f"Sources:\n{context}\n{extra}\n\nQuestion: {question}\nAnswer (cite sources like [1]):"
        return [ChatMessage("system", SYSTEM_PROMPT), ChatMessage("user", user)]

    def fuse_messages(self, question: str, partials: Sequence[str], computation: str = "") -> list[ChatMessage]:
        parts = "\n\n".join(f"Partial answer {i}: {p}" for i, p in enumerate(partials, 1))
        extra = f"\nComputed: {computation}" if computation else ""
        user = (f"The sources were too long for one pass; these partial answers each came from some of them and "
                f"cite them by number.\n\n{parts}\n{extra}\n\nQuestion: {question}\nCombine them into one answer, "
                "keeping the [n] citations:")
        return [ChatMessage("system", SYSTEM_PROMPT), ChatMessage("user", user)]

    def pack(self, llm: LLM, evidence: Sequence[Evidence], regions: dict[int, Region]) -> list[list[int]]:
        """Evidence indexes grouped into parts that each fit the context budget (numbering stays global)."""
        budget = self.settings.context_tokens
        parts: list[list[int]] = [[]]
        spent = 0
        for i, e in enumerate(evidence):
            cost = llm.count_tokens(evidence_block(i + 1, e, regions.get(e.region_id or -1)))
            if parts[-1] and spent + cost > budget:
                if len(parts) == MAX_PARTS:
                    break
                parts.append([])
                spent = 0
            parts[-1].append(i)
            spent += cost
        return parts

    def answer(
        self,
        question: str,
        retriever: Any,
        scope: Sequence[str] | None = None,
        cancelled: CancelCheck | None = None,
    ) -> Iterator[AnswerEvent]:
        """``RetrievalDone``, then ``TokenStreamed`` pieces, then ``AnswerFinished``; ``cancelled`` stops it."""
        cancelled = cancelled or never_cancelled
        t0 = time.perf_counter()
        retrieval: Retrieval = retriever.retrieve(question, scope=scope)
        yield RetrievalDone(retrieval)
        t_ret = time.perf_counter()
        if cancelled():
            raise Cancelled("Answer cancelled.")
        store = retriever.store
        regions: dict[int, Region] = {}
        for e in retrieval.evidence:
            if e.region_id and e.region_id not in regions:
                r = store.region(e.region_id)
                if r is not None:
                    regions[e.region_id] = r
        other = self.other_company(question, retriever, retrieval)
        if not retrieval.evidence or other:
            reason = other or "Insufficient information: no evidence was found."
            text = refusal_text(retrieval, reason)
            yield TokenStreamed(text)
            yield AnswerFinished(self.finish(question, text, retrieval, [], regions, None, t0, t_ret, 0))
            return
        llm = self.models.llm()
        parts = self.pack(llm, retrieval.evidence, regions)
        used = [retrieval.evidence[i] for part in parts for i in part]
        tables = [(i + 1, regions[e.region_id].table) for i, e in enumerate(used)
                  if e.region_id in regions and regions[e.region_id].table]
        kinds = {i + 1: statement_of(heading(e.text)) or "" for i, e in enumerate(used)}
        computation = compute(question, tables, kinds)  # type: ignore[arg-type]
        comp_text = computation.text if computation else ""
        tokens = 0
        asked = 1  # prompts sent to the model
        if len(parts) == 1:
            blocks = [evidence_block(i + 1, used[i], regions.get(used[i].region_id or -1)) for i in parts[0]]
            gen: Generation | None = None
            for item in self._stream(llm, self.build_messages(question, blocks, comp_text), cancelled):
                if isinstance(item, str):
                    yield TokenStreamed(item)
                else:
                    gen = item
            assert gen is not None
            text, tokens = gen.text.strip(), gen.completion_tokens
        else:
            partials: list[str] = []
            asked = 0
            for part in parts:
                if cancelled():
                    raise Cancelled("Answer cancelled.")
                blocks = [evidence_block(i + 1, used[i], regions.get(used[i].region_id or -1)) for i in part]
                g = llm.chat(self.build_messages(question, blocks, comp_text),
                             max_tokens=self.settings.max_answer_tokens, temperature=0.0, cancelled=cancelled)
                tokens += g.completion_tokens
                asked += 1
                if not REFUSAL.search(g.text):
                    partials.append(g.text.strip())
                    if not self.settings.fuse_parts:
                        break
            if cancelled():
                raise Cancelled("Answer cancelled.")
            if not partials:
                text = "Insufficient information: none of the sources answers the question."
                yield TokenStreamed(text)
            elif len(partials) == 1:
                text = partials[0]
                yield TokenStreamed(text)
            else:
                gen = None
                for item in self._stream(llm, self.fuse_messages(question, partials, comp_text), cancelled):
                    if isinstance(item, str):
                        yield TokenStreamed(item)
                    else:
                        gen = item
                assert gen is not None
                text, tokens = gen.text.strip(), tokens + gen.completion_tokens
                asked += 1
        if cancelled():
            raise Cancelled("Answer cancelled.")
        if computation and not REFUSAL.search(text) and not any(
            same_number(raw, v, computation.result) for raw, v in numbers_in(text)
        ):
            # the model did not use the code's result: show it, so the reader never has to redo the arithmetic
            extra = f"\n\nComputed from the cited cells: {computation.text}"
            yield TokenStreamed(extra)
            text += extra
        yield AnswerFinished(self.finish(question, text, retrieval, used, regions, computation, t0, t_ret, tokens,
                                         parts=asked))

    @staticmethod
    def other_company(question: str, retriever: Any, retrieval: Retrieval) -> str:
        """A refusal reason when the question names a company of the library and none of the searched filings
        is that company's (a small model answers such questions from the wrong filing); else ''."""
        documents = getattr(retriever, "ready_documents", None)
        if documents is None:
            return ""
        from engine.routing import companies_named

        docs = documents()
        named = companies_named(question, docs)
        if not named or set(named) & set(retrieval.scope):
            return ""
        names = sorted({max(a, key=len) for a in named.values()})
        searched = sorted(d.name for d in docs if d.id in set(retrieval.scope))
        return (f"Insufficient information: the question is about {', '.join(names)}, but the searched filings "
                f"({', '.join(searched[:4])}) are another company's.")

    def _stream(
        self, llm: LLM, messages: list[ChatMessage], cancelled: Callable[[], bool]
    ) -> Iterator[str | Generation]:
        """Run the model in a thread; yield its pieces as they come, then the finished Generation."""
        pieces: queue.Queue[tuple[str, Any]] = queue.Queue()

        def run() -> None:
            try:
                gen = llm.chat(
                    messages,
                    max_tokens=self.settings.max_answer_tokens,
                    temperature=0.0,
                    on_token=lambda t: pieces.put(("token", t)),
                    cancelled=cancelled,
                )
                pieces.put(("done", gen))
            except BaseException as exc:  # handed to the consumer thread, which re-raises it
                pieces.put(("error", exc))

        worker = threading.Thread(target=run, name="mfr-answer", daemon=True)
        worker.start()
        while True:
            kind, payload = pieces.get()
            if kind == "token":
                yield payload
            elif kind == "done":
                worker.join()
                yield payload
                return
            else:
                worker.join()
                if isinstance(payload, EngineError):
                    raise payload
                raise AnswerError(f"The model failed while answering: {payload}", title="Generation failed")

    def finish(
        self,
        question: str,
        text: str,
        retrieval: Retrieval,
        used: Sequence[Evidence],
        regions: dict[int, Region],
        computation: Computation | None,
        t0: float,
        t_ret: float,
        tokens: int,
        parts: int = 1,
    ) -> Answer:
        """The Answer: citations resolved, refusal detected (and explained), numbers checked."""
        markers = sorted({int(m) for group in re.findall(r"\[(\d+(?:\s*,\s*\d+)*)\]", text)
                          for m in re.findall(r"\d+", group)})
        citations = [
            Citation(marker=n, doc=used[n - 1].doc, page=used[n - 1].page, modality=used[n - 1].modality,
                     region_id=used[n - 1].region_id, chunk_id=used[n - 1].chunk_id)
            for n in markers
            if 1 <= n <= len(used)
        ]
        refused = bool(REFUSAL.search(text)) or not used
        if not citations and not refused:
            citations = inferred_citations(text, used, regions)
        if refused and "Searched:" not in text:
            text = refusal_text(retrieval, text if text.lower().startswith("insufficient") else "")
        cited = [used[c.marker - 1] for c in citations] or list(used)
        computed = [computation.result] if computation else []
        if computation:
            computed += [c.value for c in computation.cells]
        checks = [] if refused else check_numbers(text, cited, regions, computed)
        searched = {
            "tier": retrieval.tier,
            "thresholds": retrieval.thresholds,
            "documents": sorted({e.doc for e in retrieval.evidence}) or retrieval.scope,
            "scope": retrieval.scope,
            "routed": retrieval.route,
            "evidence": len(retrieval.evidence),
        }
        timings = {**retrieval.timings, "retrieve": t_ret - t0, "generate": time.perf_counter() - t_ret}
        if parts > 1:
            timings["parts"] = float(parts)
        return Answer(
            question=question,
            text=text,
            evidence=list(retrieval.evidence),
            tier=retrieval.tier,
            citations=citations,
            checks=checks,
            refused=refused,
            searched=searched if refused else {},
            computation=computation.text if computation else "",
            timings=timings,
            tokens=tokens,
        )

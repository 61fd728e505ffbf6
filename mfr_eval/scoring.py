"""Answer scoring for evaluation: numbers normalised (currency, scale words, percent, parentheses negatives,
rounding tolerance), structured answers (every gold number present), lists, short text by token overlap,
refusals on unanswerable questions, and an optional judge model for long free-text answers.

Every score says which scorer judged it, so a report can be read with the scorer's weaknesses in mind.
"""

from __future__ import annotations

import ast
import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from engine.ask.across import without_header
from engine.ask.checks import refuses
from engine.ask.question import parse
from engine.numbers import CURRENCY, SCALE_WORDS, SCALES, Quantity, close, quantities

REL_TOL = 0.01
"""Relative difference under which two numbers are equal (1%: "24.3" for "24.26", "$1.58 billion" for 1577)."""

_CITATION = re.compile(r"\[\d+(?:\s*[,;-]\s*\d+)*\]")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_WORD = re.compile(r"[a-z0-9]+(?:[.'’][a-z0-9]+)*", re.I)
_QUESTION_SCALE = re.compile(
    r"\b(?:in|as|using|of)\s+(?:(?:usd|us\$|\$|eur|euros?|dollars?|gbp|rmb)\s+)?"
    r"(?P<scale>thousands|millions|billions|trillions|thousand|million|billion|trillion)\b",
    re.I,
)
_STOP = frozenset(
    "a an the of and or to in on for by with as at from is are was were be been being this that these those it "
    "its their his her our your which what who whom whose how when where why than then so such there here "
    "has have had do does did not no yes but if into over under about per each any all both".split()
)
_YES = re.compile(r"^\W*(yes|yeah|correct|true)\b", re.I)
_NO = re.compile(r"^\W*(no|not|false|none)\b", re.I)
UNANSWERABLE_GOLD = frozenset({"not answerable", "unanswerable", "none", "n/a"})
"""Gold answers that mean "the documents do not answer this" (MMLongBench-Doc uses "Not answerable")."""


@dataclass
class Score:
    """How one prediction was judged."""

    correct: bool
    score: float
    """0..1: partial credit (fraction of gold numbers found, token recall, ...)."""
    scorer: str
    """``numeric``, ``structured``, ``list``, ``yes_no``, ``text_overlap``, ``judge``, ``refusal`` or ``empty``."""
    detail: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["score"] = round(float(self.score), 4)
        return d


class Judge(Protocol):
    """A model that decides whether a free-text answer says what the reference answer says."""

    name: str

    def judge(self, question: str, gold: str, prediction: str) -> bool | None:
        """True/False, or None when the judge gives no usable verdict."""
        ...


# --- numbers -------------------------------------------------------------------------------------------
def question_scale(question: str) -> float:
    """The unit a question asks for ("in USD millions" -> 1e6), else 1."""
    m = _QUESTION_SCALE.search(question or "")
    return SCALES[m.group("scale").lower()] if m else 1.0


def quantity_matches(gold: Quantity, pred: Quantity, context_scale: float = 1.0, rel_tol: float = REL_TOL) -> bool:
    """True if ``pred`` states ``gold`` in some scale or as percent/fraction (the sign is not compared:
    prose says "used $431 million" where a statement prints (431)).

    Rounding to the gold's decimals is allowed only between the numbers as written; scaled readings must
    agree within ``rel_tol`` (else 0.019 and 0.024 would both round to 0.0).
    """
    g, p = abs(gold.value), abs(pred.value)
    if gold.percent != pred.percent:
        # 10.9% and 0.109 are the same ratio; compare percent against fraction only.
        g, p = (g / 100.0, p) if gold.percent else (g, p / 100.0)
        return close(g, p, 0, rel_tol)
    if close(g, p, gold.decimals, rel_tol):
        return True
    if 0 < pred.decimals < gold.decimals and round(g, pred.decimals) == p and math.isclose(g, p, rel_tol=0.05):
        return True  # the answer rounds more coarsely than the gold (0.26 for 0.263)
    golds = gold.candidates(context_scale)
    preds = pred.candidates(context_scale)
    return any(close(a, b, 0, rel_tol) for a in golds for b in preds if a and b)


def find_quantity(gold: Quantity, preds: Sequence[Quantity], context_scale: float = 1.0) -> Quantity | None:
    """The first predicted quantity that matches ``gold``."""
    return next((p for p in preds if quantity_matches(gold, p, context_scale)), None)


_NUMERIC_ANSWER = re.compile(
    rf"^\s*\(?\s*[-−–]?\s*{CURRENCY}?\s*[-−–]?\s*(?:\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)\s*"
    rf"(?:(?:{SCALE_WORDS})\b)?\s*(?:%|percent\b)?\s*(?:{CURRENCY}|euros?|dollars?|usd|eur)?\s*"
    rf"(?:(?:{SCALE_WORDS})\b)?\s*\)?\s*\.?\s*$",
    re.I,
)


def is_numeric_answer(gold: str) -> bool:
    """A gold answer that is one number with its currency, scale and percent ("$1577.00", "€ 4,978 million",
    "146,657 thousand euros", "($431 million)", "5.03%", " 12.35")."""
    return bool(_NUMERIC_ANSWER.match(gold or ""))


# --- text ----------------------------------------------------------------------------------------------
def content_tokens(text: str) -> list[str]:
    """Lower-cased words without stop words; numbers keep their digits only ("1,577" -> "1577")."""
    toks = []
    for w in _WORD.findall((text or "").replace(",", "")):
        w = w.lower().replace("’", "'")
        if w.endswith("'s"):
            w = w[:-2]
        if w and w not in _STOP:
            toks.append(w)
    return toks


def token_recall(gold: str, prediction: str) -> float:
    """Share of the gold's content tokens that appear in the prediction (light stemming of plurals)."""
    g = content_tokens(gold)
    if not g:
        return 0.0
    p = set(content_tokens(prediction))
    p |= {t.rstrip("s") for t in p}
    hits = sum(1 for t in g if t in p or t.rstrip("s") in p)
    return hits / len(g)


def token_f1(gold: str, prediction: str) -> float:
    """SQuAD-style token F1 over content tokens."""
    g, p = content_tokens(gold), content_tokens(prediction)
    if not g or not p:
        return 0.0
    common = 0
    pool = list(p)
    for t in g:
        if t in pool:
            pool.remove(t)
            common += 1
    if not common:
        return 0.0
    precision, recall = common / len(p), common / len(g)
    return 2 * precision * recall / (precision + recall)


def is_refusal(text: str) -> bool:
    """Whether an answer declines to answer."""
    return refuses(text or "")


# --- gold forms ----------------------------------------------------------------------------------------
def structured_numbers(gold_structured: Any) -> list[tuple[Quantity, float]]:
    """Gold numbers of a parsee answer with the scale its ``unit``/``meta0`` names.

    Both shapes occur: ``{"answers": [{"main_question": "39290.0", "unit": "millions"}, ...]}`` and
    ``[{"main question": "21234.0", "meta0": "millions", ...}, ...]``.
    """
    items: Iterable[Any]
    if isinstance(gold_structured, dict):
        items = gold_structured.get("answers") or []
    elif isinstance(gold_structured, list):
        items = gold_structured
    else:
        return []
    out: list[tuple[Quantity, float]] = []
    for it in items:
        if not isinstance(it, dict):
            continue
        raw = it.get("main_question", it.get("main question"))
        if raw is None:
            continue
        qs = quantities(str(raw))
        if not qs:
            continue
        unit = str(it.get("unit", it.get("meta0", ""))).strip().lower()
        # "millions", or with its currency: "USD millions", "$ thousands"
        scale = next((SCALES[w] for w in reversed(re.findall(r"[a-z0-9]+", unit)) if w in SCALES), 1.0)
        out.append((qs[0], scale))
    return out


def parse_list(gold: str) -> list[str] | None:
    """A gold answer written as a Python/JSON list ("['XL', 'GameQQ.net']", "[14, 15]"), else None."""
    s = (gold or "").strip()
    if not (s.startswith("[") and s.endswith("]")):
        return None
    try:
        value = ast.literal_eval(s)
    except (ValueError, SyntaxError):
        try:
            value = json.loads(s)
        except ValueError:
            return None
    if not isinstance(value, list) or not value or any(isinstance(v, dict | list) for v in value):
        return None
    return [str(v) for v in value]


# --- scoring -------------------------------------------------------------------------------------------
def score_answer(
    prediction: str,
    gold: str,
    *,
    question: str = "",
    gold_structured: Any = None,
    unanswerable: bool = False,
    refused: bool | None = None,
    judge: Judge | None = None,
) -> Score:
    """Judge one prediction against its gold answer, choosing the scorer from the gold's form.

    ``refused`` is the engine's own refusal flag (else the text is checked for refusal phrases). A refusal
    on an answerable question is wrong; on an unanswerable one it is right.
    """
    pred = without_header(prediction or "").strip()  # "4 filings: ..." says what was read, not the answer
    did_refuse = bool(refused) if refused is not None else is_refusal(pred)
    gold = (gold or "").strip()
    if unanswerable or gold.lower().rstrip(".") in UNANSWERABLE_GOLD:
        return Score(did_refuse, 1.0 if did_refuse else 0.0, "refusal", "refused" if did_refuse else "answered")
    if not pred:
        return Score(False, 0.0, "empty", "no answer")
    context_scale = question_scale(question)
    pred = _CITATION.sub(" ", pred)
    if gold_structured is not None:
        return _score_structured(pred, gold_structured, context_scale)
    items = parse_list(gold)
    if items is not None:
        return _score_list(pred, items, context_scale)
    if is_numeric_answer(gold):
        return _score_numeric(pred, gold, context_scale)
    yes_no = _score_yes_no(pred, gold, question)
    if yes_no is not None:
        return yes_no
    long_answer = len(content_tokens(gold)) > 8
    if long_answer and judge is not None:
        verdict = judge.judge(question, gold, pred)
        if verdict is not None:
            return Score(verdict, 1.0 if verdict else 0.0, "judge", f"judged by {judge.name}")
    return _score_text(pred, gold, long_answer)


def _score_numeric(pred: str, gold: str, context_scale: float) -> Score:
    g = quantities(gold)[0]
    preds = quantities(pred)
    hit = find_quantity(g, preds, context_scale)
    if hit is not None:
        return Score(True, 1.0, "numeric", f"{g.raw} ~ {hit.raw}")
    shown = ", ".join(p.raw for p in preds[:6]) or "no numbers"
    return Score(False, 0.0, "numeric", f"{g.raw} not in answer ({shown})")


def _score_structured(pred: str, gold_structured: Any, context_scale: float) -> Score:
    golds = structured_numbers(gold_structured)
    if not golds:
        return Score(False, 0.0, "structured", "gold has no numbers")
    preds = quantities(pred)
    missing = [g.raw for g, scale in golds if find_quantity(g, preds, scale) is None]
    found = len(golds) - len(missing)
    detail = f"{found}/{len(golds)} gold numbers" + (f"; missing {', '.join(missing)}" if missing else "")
    return Score(not missing, found / len(golds), "structured", detail)


def _score_list(pred: str, items: Sequence[str], context_scale: float) -> Score:
    preds = quantities(pred)
    found = 0
    missing = []
    for item in items:
        qs = quantities(item)
        if is_numeric_answer(item) and qs:
            ok = find_quantity(qs[0], preds, context_scale) is not None
        else:
            ok = token_recall(item, pred) >= 0.99
        found += ok
        if not ok:
            missing.append(item)
    detail = f"{found}/{len(items)} items" + (f"; missing {', '.join(missing[:5])}" if missing else "")
    return Score(not missing, found / len(items), "list", detail)


def _score_yes_no(pred: str, gold: str, question: str) -> Score | None:
    """Yes/no questions whose gold starts with yes or no: the prediction's first word must agree. Whether the
    question asks yes or no is the engine's reading (``Question.yes_no``), so "As of FY2022, is the margin
    improving?" is scored as "Is the margin improving as of FY2022?" is."""
    if not question or not parse(question).yes_no:
        return None
    g_yes, g_no = bool(_YES.match(gold)), bool(re.match(r"^\W*no\b", gold, re.I))
    if not (g_yes or g_no):
        return None
    p_yes, p_no = bool(_YES.match(pred)), bool(_NO.match(pred))
    if not (p_yes or p_no):
        return Score(False, 0.0, "yes_no", "answer says neither yes nor no up front")
    ok = p_yes == g_yes
    detail = f"gold {'yes' if g_yes else 'no'}, answer {'yes' if p_yes else 'no'}"
    return Score(ok, 1.0 if ok else 0.0, "yes_no", detail)


def _score_text(pred: str, gold: str, long_answer: bool) -> Score:
    """Token recall of the gold's content words; long answers also need most of the gold's numbers."""
    recall = token_recall(gold, pred)
    gold_nums = [q for q in quantities(gold) if not _YEAR.match(q.raw.strip("()$€£ "))]
    preds = quantities(pred)
    num_share = 1.0
    if gold_nums:
        num_share = sum(find_quantity(g, preds) is not None for g in gold_nums) / len(gold_nums)
    if long_answer:
        score = 0.5 * recall + 0.5 * num_share if gold_nums else recall
        ok = score >= 0.5 and (not gold_nums or num_share >= 0.5)
        detail = f"token recall {recall:.2f}" + (f", numbers {num_share:.2f}" if gold_nums else "")
        return Score(ok, score, "text_overlap", detail + " (long answer; a judge model would be more reliable)")
    ok = recall >= 0.6 and num_share >= 1.0
    return Score(ok, recall * num_share, "text_overlap", f"token recall {recall:.2f}")


# --- judge ---------------------------------------------------------------------------------------------
JUDGE_PROMPT = (
    "You grade answers to questions about financial filings. Given a question, a reference answer and a "
    "candidate answer, reply with exactly one word: YES if the candidate states the same facts and numbers as "
    "the reference (rounding and wording may differ), otherwise NO."
)


class LLMJudge:
    """A judge backed by any ``LLM`` (engine.models.protocols): one short YES/NO completion per question."""

    def __init__(self, llm: Any) -> None:
        self.llm = llm
        self.name = f"judge:{getattr(llm, 'name', 'llm')}"

    def judge(self, question: str, gold: str, prediction: str) -> bool | None:
        from engine.models.protocols import ChatMessage

        user = f"Question: {question}\n\nReference answer: {gold}\n\nCandidate answer: {prediction}\n\nVerdict:"
        gen = self.llm.chat(
            [ChatMessage("system", JUDGE_PROMPT), ChatMessage("user", user)], max_tokens=4, temperature=0.0
        )
        text = gen.text.strip().upper()
        if text.startswith("YES"):
            return True
        if text.startswith("NO"):
            return False
        return None

"""Evaluation on a question file (the record format of ``../shared/data/eval/README.md``): ingest what is
missing, run each question through retrieval (and the answerer), and report page recall@k, precision@k, MRR,
answer accuracy, refusal rate, per-modality and per-source breakdowns, latency per stage and tokens.

Ablations mirror the papers: each is a set of ``Settings`` changes, checked against the fields this build has,
so a flag another part of the engine has not added yet fails with a message instead of being ignored.
The engine is used through its public API only (``ingest``, ``retrieve``, ``ask``), so tests drive this with
a fake engine.
"""

from __future__ import annotations

import json
import math
import os
import platform
import re
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from engine.errors import ConfigError, EngineError
from mfr_eval.scoring import Judge, LLMJudge, is_numeric_answer, score_answer

UNANSWERABLE_TYPES = ("unanswerable", "not answerable", "not_answerable")
"""A modality or question type containing one of these marks a question the documents cannot answer."""


# --- records -------------------------------------------------------------------------------------------
@dataclass
class EvalRecord:
    """One question of a QA file, with paths resolved against the root folder."""

    id: str
    source: str
    question: str
    answer: str
    docs: list[Path]
    gold_pages: list[tuple[Path, int]] | None
    """(document, 1-based page) pairs; None where the source has no page labels (Docugami)."""
    modality: list[str] = field(default_factory=list)
    question_type: str = ""
    gold_structured: Any = None
    group: str = ""
    """The company (or document group) the question is about; probes ask another group's filing."""
    paraphrase_of: str = ""
    """For a paraphrase (``--paraphrases``): the id of the question it rewords, whose gold it carries."""
    paraphrase_kind: str = ""
    """For a paraphrase: what it rewords (``measure``, ``period``, ``order``)."""

    @property
    def unanswerable(self) -> bool:
        labels = [m.lower() for m in self.modality] + [self.question_type.lower()]
        return any(u in label for label in labels for u in UNANSWERABLE_TYPES)

    @property
    def modality_key(self) -> str:
        """Modality labels joined ("chart+text"), the grouping MultiFinRAG reports accuracy by."""
        return "+".join(sorted(set(self.modality))) or "unlabeled"


def parse_record(raw: dict[str, Any], root: Path) -> EvalRecord:
    """A record of the eval README format; ``page0`` is 0-indexed and becomes a 1-based page."""
    docs = [root / d for d in raw.get("docs") or []]
    evidence = raw.get("evidence")
    gold: list[tuple[Path, int]] | None = None
    if evidence:
        gold = []
        for ev in evidence:
            if not isinstance(ev, dict) or ev.get("page0") is None:
                continue
            doc = root / ev["doc"] if ev.get("doc") else (docs[0] if docs else root)
            gold.append((doc, int(ev["page0"]) + 1))
        gold = gold or None
    modality = raw.get("modality") or []
    if isinstance(modality, str):
        modality = [modality]
    return EvalRecord(
        id=str(raw.get("id", "")),
        source=str(raw.get("source", "")),
        question=str(raw["question"]),
        answer=str(raw.get("answer", "")),
        docs=docs,
        gold_pages=gold,
        modality=[str(m) for m in modality],
        question_type=str(raw.get("question_type") or ""),
        gold_structured=raw.get("gold_structured"),
        group=str(raw.get("group") or ""),
    )


def load_records(
    qa_file: str | Path,
    root: str | Path | None = None,
    *,
    sources: Sequence[str] | None = None,
    ids: Sequence[str] | None = None,
    limit: int | None = None,
    per_source: int | None = None,
    paraphrases: str | Path | None = None,
    half: str | None = None,
) -> list[EvalRecord]:
    """Read a QA jsonl file. ``paraphrases`` (a paraphrase file, see ``mfr_eval.selection``) replaces the
    questions by their paraphrases, each joined by ``of`` to its record of ``qa_file`` for the gold answer,
    documents and evidence. Then the filters: ``sources`` match by prefix ("parsee" takes every parsee_* source);
    ``ids`` match a record's id or, for a paraphrase, the id it rewords; ``half`` (``tune``/``check``) keeps
    the companies of that half of the split; ``per_source`` keeps N of each source, taken from each of its
    documents in turn (``take``); ``limit`` caps the total, after the filters."""
    from mfr_eval.selection import in_half, join_paraphrases, read_paraphrases

    path = Path(qa_file).expanduser()
    base = Path(root).expanduser() if root else path.parent
    if not path.exists():
        raise ConfigError(f"Question file {path} does not exist.", title="No question file")
    records: list[EvalRecord] = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
                records.append(parse_record(raw, base))
            except (ValueError, KeyError, TypeError) as exc:
                raise ConfigError(
                    f"{path}, line {n}: not a question record ({exc}).", title="Bad question file"
                ) from exc
    if paraphrases is not None:
        records = join_paraphrases(records, read_paraphrases(paraphrases), where=str(paraphrases), qa_file=str(path))
    if sources:
        records = [r for r in records if any(r.source.startswith(s) for s in sources)]
    if ids:
        wanted = set(ids)
        records = [r for r in records if r.id in wanted or (r.paraphrase_of and r.paraphrase_of in wanted)]
    if half is not None:
        records = in_half(records, half)
    return take(records, limit, per_source)


# --- ablations -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Ablation:
    """A named set of settings changes mirroring an ablation of the papers."""

    name: str
    changes: dict[str, Any]
    description: str
    own_library: bool = False
    """Needs its own data dir (its chunks differ from the default library's)."""
    needs_role: str = ""
    """A models.toml role that must be on for the ablation to mean anything."""


ABLATIONS: dict[str, Ablation] = {
    a.name: a
    for a in (
        Ablation("default", {}, "MultiFinRAG as configured"),
        Ablation(
            "baseline",
            {"chunker": "fixed", "regions": False, "tiers": False, "use_tables": False, "use_images": False,
             "hybrid": False, "routing": False, "rerank": False},
            "fixed-size text chunks, text only, no tiers, dense only (the papers' baseline)",
            own_library=True,
        ),
        Ablation("no-tables-figures", {"use_tables": False, "use_images": False}, "without tables and figures"),
        Ablation("no-tiers", {"tiers": False}, "all modalities searched at once"),
        Ablation("no-hybrid", {"hybrid": False}, "dense retrieval only (no BM25 channel)"),
        Ablation("no-routing", {"routing": False}, "no metadata routing (matters with --scope library)"),
        Ablation("with-reranker", {"rerank": True}, "cross-encoder reranking on", needs_role="reranker"),
    )
}
"""Ablations by name."""


def ablation_settings(settings: Any, name: str, k: int | None = None) -> tuple[Any, dict[str, Any]]:
    """Settings for an ablation (and ``top_k``), and the changes actually made. ConfigError names a missing
    Settings field, so an ablation never silently equals the default run."""
    if name not in ABLATIONS:
        raise ConfigError(f"Unknown ablation '{name}'. Known: {', '.join(ABLATIONS)}.", title="Unknown ablation")
    ab = ABLATIONS[name]
    known = {f.name for f in fields(settings)}
    missing = [key for key in ab.changes if key not in known]
    if missing:
        raise ConfigError(
            f"The '{name}' ablation needs the setting(s) {', '.join(missing)}, which this build of the engine "
            "does not have yet, so the ablation cannot be run.",
            title="Ablation not available",
        )
    changes = {key: v for key, v in ab.changes.items() if getattr(settings, key) != v}
    if k is not None and k != settings.top_k:
        changes["top_k"] = k
    if ab.own_library:
        changes["data_dir"] = Path(settings.data_dir) / "ablations" / name
    new = settings.with_(**changes) if changes else settings
    return new, changes


# --- metrics -------------------------------------------------------------------------------------------
def page_metrics(
    retrieved: Sequence[tuple[str, int]], gold: set[tuple[str, int]], k: int
) -> dict[str, float]:
    """recall@k (share of gold pages among the top k), precision@k (share of the top k on a gold page; over
    the items returned, when fewer than k), reciprocal rank of the first gold page."""
    top = list(retrieved[:k])
    hits = [i for i, item in enumerate(top) if item in gold]
    found = {item for item in top if item in gold}
    return {
        "recall": len(found) / len(gold) if gold else 0.0,
        "precision": len(hits) / len(top) if top else 0.0,
        "rr": 1.0 / (hits[0] + 1) if hits else 0.0,
    }


def _mean(values: Iterable[float]) -> float | None:
    vals = [v for v in values if v is not None]
    return round(sum(vals) / len(vals), 4) if vals else None


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (q in 0..100)."""
    vals = sorted(values)
    if not vals:
        return math.nan
    pos = (len(vals) - 1) * q / 100.0
    lo, hi = math.floor(pos), math.ceil(pos)
    return vals[lo] + (vals[hi] - vals[lo]) * (pos - lo)


def summarise(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Metrics over per-question results (questions without page labels are left out of page metrics;
    unanswerable ones out of answer accuracy and into refusal rate)."""
    paged = [r for r in results if r.get("recall") is not None and not r.get("unanswerable")]
    answered = [r for r in results if r.get("correct") is not None]
    answerable = [r for r in answered if not r.get("unanswerable")]
    unanswerable = [r for r in results if r.get("unanswerable") and r.get("refused") is not None]
    return {
        "n": len(results),
        "n_with_pages": len(paged),
        "n_scored": len(answerable),
        "errors": sum(1 for r in results if r.get("error")),
        "page_recall@k": _mean(r["recall"] for r in paged),
        "precision@k": _mean(r["precision"] for r in paged),
        "mrr": _mean(r["rr"] for r in paged),
        "doc_recall@k": _mean(1.0 if r.get("doc_hit") else 0.0 for r in results if r.get("doc_hit") is not None),
        "answer_accuracy": _mean(1.0 if r["correct"] else 0.0 for r in answerable),
        "answer_score": _mean(r.get("score", 0.0) for r in answerable),
        "refusal_rate": _mean(1.0 if r["refused"] else 0.0 for r in unanswerable),
        "false_refusal_rate": _mean(1.0 if r.get("refused") else 0.0 for r in answerable),
        # of the wrong answers to numeric questions that gave numbers (not refusals), the share whose answer
        # carries at least one flagged number: a wrong figure should never stand with only green checks
        "wrong_numeric_flagged": _mean(
            1.0 if r.get("flagged") else 0.0
            for r in answerable
            if r.get("numeric") and not r.get("correct") and not r.get("refused") and "flagged" in r
        ),
    }


def latency_summary(results: Sequence[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Mean, p50 and p95 seconds of every timing stage reported per question (and the wall total)."""
    by_stage: dict[str, list[float]] = defaultdict(list)
    for r in results:
        for stage, sec in (r.get("timings") or {}).items():
            if isinstance(sec, int | float):
                by_stage[stage].append(float(sec))
    return {
        stage: {
            "mean": round(statistics.fmean(v), 4),
            "p50": round(percentile(v, 50), 4),
            "p95": round(percentile(v, 95), 4),
            "n": len(v),
        }
        for stage, v in sorted(by_stage.items())
    }


def machine_info() -> dict[str, Any]:
    """The machine a run was on, for reports: CPU model, cores, memory, OS, Python."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem_gb = None
    try:
        pages, size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
        mem_gb = round(pages * size / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "cpu": cpu,
        "cores": cores,
        "memory_gb": mem_gb,
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
    }


# --- the run -------------------------------------------------------------------------------------------
@dataclass
class EvalOptions:
    """How to run an evaluation."""

    k: int = 10
    """Evidence items retrieved (the k of recall@k and precision@k)."""
    scope: str = "doc"
    """``doc``: search the question's own documents; ``library``: the whole library (routing decides)."""
    retrieval_only: bool = False
    """Skip answer generation (no answer accuracy; fast)."""
    ablation: str = "default"
    judge: bool = False
    """Let a judge model grade long free-text answers (off: token overlap)."""
    ingest: bool = True
    """Ingest missing documents first; off evaluates only the questions whose documents are in the library."""
    limit: int | None = None
    """At most this many questions (applied after the library filter of ``ingest=False``)."""
    per_source: int | None = None
    """At most this many questions of each source (likewise)."""
    mismatched: int = 0
    """Also ask this many of the questions of another company's filing (from the same library), which cannot
    hold the answer; they count as unanswerable, so ``refusal_rate`` is measured on any QA file."""
    later: int = 0
    """Also ask this many questions of their own filing with every year moved three years later (a period the
    filing cannot report); they count as unanswerable: the right company, a period not covered."""


_GENERIC = re.compile(r"\b(?:the|this) (?:company|firm|group|registrant)\b", re.I)
_NAMED = re.compile(r"(?<=\s)[A-Z][\w&.-]+")
"""A capitalised word after the first: a name, a product, a segment, a report the question is about."""


def mismatched_probes(records: Sequence[EvalRecord], n: int, available: Iterable[str]) -> list[EvalRecord]:
    """Up to ``n`` unanswerable probes: questions spread evenly over ``records``, each asked of the filing of
    another company (``group``, else the file name's first word) among ``available`` document keys. Probes
    take the id ``<id>@other`` and the question type ``unanswerable (asked of another company's filing)``."""
    if n <= 0 or not records:
        return []
    docs = sorted({_doc_key(d) for r in records for d in r.docs if _doc_key(d) in set(available)})

    def company(rec: EvalRecord, doc: str) -> str:
        # groups name a company ("Goldman Sachs") or a filing ("3M_2018_10K"): keep the company part
        return (rec.group or Path(doc).stem).split("_")[0].split("-")[0].strip().lower()

    owner = {_doc_key(d): company(r, _doc_key(d)) for r in records for d in r.docs}
    # a question about "the company" that names nothing ("What are the revenues of the company for every period
    # shown?") is answerable from any filing: no probe
    records = [r for r in records if not _GENERIC.search(r.question) or _NAMED.search(r.question)]
    if not records:
        return []
    step = max(1, len(records) // n)
    probes: list[EvalRecord] = []
    for i, rec in enumerate(records[::step][:n]):
        mine = {owner.get(_doc_key(d), "") for d in rec.docs}
        others = [d for d in docs if owner.get(d, "") not in mine]
        if not others:
            continue
        other = Path(others[(i * 7919) % len(others)])
        probes.append(
            EvalRecord(
                id=f"{rec.id}@other", source=rec.source, question=rec.question, answer="", docs=[other],
                gold_pages=None, modality=["unanswerable"],
                question_type="unanswerable (asked of another company's filing)", group=owner.get(str(other), ""),
            )
        )
    return probes


_YEAR_IN_QUESTION = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")


def later_probes(records: Sequence[EvalRecord], n: int) -> list[EvalRecord]:
    """Up to ``n`` unanswerable probes: questions that name a year, spread evenly over ``records``, asked of their
    own filing with every year they name moved three years later ("FY2018" -> "FY2021"). A filing does not
    report a period three years after its own; probes take the id ``<id>@later``."""
    dated = [r for r in records if _YEAR_IN_QUESTION.search(r.question) and not r.unanswerable]
    if n <= 0 or not dated:
        return []
    step = max(1, len(dated) // n)
    probes: list[EvalRecord] = []
    for rec in dated[::step][:n]:
        moved = _YEAR_IN_QUESTION.sub(lambda m: str(int(m.group(1)) + 3), rec.question)
        probes.append(EvalRecord(
            id=f"{rec.id}@later", source=rec.source, question=moved, answer="", docs=list(rec.docs),
            gold_pages=None, modality=["unanswerable"],
            question_type="unanswerable (a period the filing does not cover)", group=rec.group,
        ))
    return probes


def take(records: Sequence[EvalRecord], limit: int | None = None, per_source: int | None = None) -> list[EvalRecord]:
    """A stratified subset: ``per_source`` questions of each source, taken in turn from each of its documents
    (the first question of every document, then the second, ...; a source's questions are often grouped by
    document, and its first N would all be about one filing), in file order; then the first ``limit``."""
    if per_source is None:
        return list(records)[:limit] if limit is not None else list(records)
    by_doc: dict[str, dict[str, list[EvalRecord]]] = defaultdict(dict)
    for rec in records:
        key = str(rec.docs[0]) if rec.docs else rec.group or rec.id
        by_doc[rec.source].setdefault(key, []).append(rec)
    chosen: set[int] = set()
    for docs in by_doc.values():
        picked = 0
        queues = [list(q) for q in docs.values()]
        while picked < per_source and any(queues):
            for q in queues:
                if q and picked < per_source:
                    chosen.add(id(q.pop(0)))
                    picked += 1
    out = [rec for rec in records if id(rec) in chosen]
    return out[:limit] if limit is not None else out


QuestionCallback = Callable[[int, int, dict[str, Any]], None]


def _doc_key(path: Path) -> str:
    return str(path.resolve())


def run_questions(
    engine: Any,
    records: Sequence[EvalRecord],
    options: EvalOptions,
    doc_ids: dict[str, str],
    *,
    judge: Judge | None = None,
    on_question: QuestionCallback | None = None,
    cancelled: Callable[[], bool] | None = None,
    previous: dict[str, dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Each question through retrieval (and answering); one result dict per question, errors recorded."""
    results: list[dict[str, Any]] = []
    previous = previous or {}
    k = options.k
    for i, rec in enumerate(records):
        if cancelled is not None and cancelled():
            break
        if rec.id and rec.id in previous:
            results.append(previous[rec.id])
            if on_question:
                on_question(i, len(records), previous[rec.id])
            continue
        result = run_question(engine, rec, options, doc_ids, judge=judge, k=k)
        results.append(result)
        if on_question:
            on_question(i, len(records), result)
    return results


def run_question(
    engine: Any,
    rec: EvalRecord,
    options: EvalOptions,
    doc_ids: dict[str, str],
    *,
    judge: Judge | None = None,
    k: int = 10,
) -> dict[str, Any]:
    """One question: retrieve or answer, then page metrics and the answer's score."""
    scope_ids = [doc_ids[_doc_key(d)] for d in rec.docs if _doc_key(d) in doc_ids]
    result: dict[str, Any] = {
        "id": rec.id,
        **({"paraphrase_of": rec.paraphrase_of, "paraphrase_kind": rec.paraphrase_kind} if rec.paraphrase_of else {}),
        "source": rec.source,
        "modality": rec.modality_key,
        "question_type": rec.question_type,
        "question": rec.question,
        "gold": rec.answer,
        "unanswerable": rec.unanswerable,
        "gold_pages": [[p.stem, page] for p, page in rec.gold_pages] if rec.gold_pages else None,
        "recall": None,
        "precision": None,
        "rr": None,
        "doc_hit": None,
        "prediction": None,
        "refused": None,
        "correct": None,
        "score": None,
        "scorer": None,
        "score_detail": "",
        "tier": "",
        "retrieved": [],
        "timings": {},
        "tokens": 0,
        "error": "",
    }
    if not scope_ids:
        result["error"] = "none of the question's documents is in the library (ingestion failed or file missing)"
        if not options.retrieval_only:
            result.update(correct=False, score=0.0, scorer="error", refused=False)
        return result
    scope = scope_ids if options.scope == "doc" else None
    t0 = time.perf_counter()
    try:
        if options.retrieval_only:
            retrieval = engine.retrieve(rec.question, scope=scope, k=k)
            evidence, tier, timings = retrieval.evidence, retrieval.tier, dict(retrieval.timings)
            result["routed"] = (retrieval.route or "routed") if retrieval.routed else ""
        else:
            answer = engine.ask(rec.question, scope=scope, save=False)
            evidence, tier, timings = answer.evidence, answer.tier, dict(answer.timings)
            result["prediction"] = answer.text
            result["refused"] = bool(answer.refused)
            result["tokens"] = int(answer.tokens or 0)
            result["flagged"] = [f"{c.value}: {c.note}" for c in answer.checks if not c.found]
            result["stated"] = bool(answer.extractive)
            result["contradicted"] = list(answer.contradicted)
            result["quotes"] = [x.to_json() for x in answer.quotes]
            result["unsupported"] = list(answer.unsupported)
            result["summarised"] = bool(answer.summarised)
            if answer.draft:  # the first summary, flagged and replaced by the one asked again
                result["draft"], result["draft_flags"] = answer.draft, list(answer.draft_flags)
    except EngineError as exc:
        result["error"] = f"{exc.title}: {exc.message}"
        result["timings"] = {"total": round(time.perf_counter() - t0, 4)}
        if not options.retrieval_only:
            result.update(correct=False, score=0.0, scorer="error", refused=False)
        return result
    timings["total"] = time.perf_counter() - t0
    result["timings"] = {key: round(float(v), 4) for key, v in timings.items()}
    result["tier"] = tier
    top = list(evidence[:k])
    result["retrieved"] = [
        {"doc": e.doc, "page": e.page, "modality": e.modality, "score": round(float(e.score), 4),
         "tier": getattr(e, "tier", 1), "channel": getattr(e, "channel", ""),
         **({"headings": list(e.headings)} if getattr(e, "headings", ()) else {})}
        for e in top
    ]
    if rec.gold_pages:
        gold = {(doc_ids[_doc_key(p)], page) for p, page in rec.gold_pages if _doc_key(p) in doc_ids}
        result.update(page_metrics([(e.doc_id, e.page) for e in top], gold, k))
    wanted = set(scope_ids)
    result["doc_hit"] = any(e.doc_id in wanted for e in top)
    if not options.retrieval_only:
        score = score_answer(
            result["prediction"] or "",
            rec.answer,
            question=rec.question,
            gold_structured=rec.gold_structured,
            unanswerable=rec.unanswerable,
            refused=result["refused"],
            judge=judge,
        )
        result.update(correct=score.correct, score=round(score.score, 4), scorer=score.scorer,
                      score_detail=score.detail)
        result["numeric"] = is_numeric_answer(rec.answer)
    return result


def ingest_documents(
    engine: Any,
    records: Sequence[EvalRecord],
    on_progress: Callable[[Any], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    text_layer_from: Path | None = None,
) -> tuple[dict[str, str], dict[str, Any]]:
    """Ingest the documents the questions need (already ingested ones come back ``unchanged`` at the cost of a
    hash); ``text_layer_from`` is another library to copy text layers from. Returns path -> doc id, and a
    summary with per-stage seconds of the documents ingested now."""
    paths: list[Path] = []
    seen: set[str] = set()
    for rec in records:
        for d in rec.docs + [p for p, _ in rec.gold_pages or []]:
            key = _doc_key(d)
            if key not in seen:
                seen.add(key)
                paths.append(d)
    missing = [str(p) for p in paths if not p.exists()]
    present = [p for p in paths if p.exists()]
    t0 = time.perf_counter()
    copy = {"text_layer_from": text_layer_from} if text_layer_from is not None else {}
    results = engine.ingest(present, on_progress=on_progress, cancelled=cancelled, **copy) if present else []
    doc_ids: dict[str, str] = {}
    status: dict[str, int] = defaultdict(int)
    stage_seconds: dict[str, float] = defaultdict(float)
    failures = []
    pages = 0
    for r in results:
        status[r.status] += 1
        if r.ok and r.doc_id:
            doc_ids[_doc_key(Path(r.path))] = r.doc_id
        else:
            failures.append({"path": r.path, "status": r.status, "error": r.error})
        if r.status in {"ingested", "resumed"}:
            pages += r.pages
            for stage, sec in (r.stage_seconds or {}).items():
                stage_seconds[stage] += sec
    summary = {
        "documents": len(paths),
        "missing_files": missing,
        "status": dict(status),
        "failures": failures,
        "seconds": round(time.perf_counter() - t0, 2),
        "pages_ingested": pages,
        "stage_seconds": {s: round(v, 2) for s, v in stage_seconds.items()},
    }
    return doc_ids, summary


def library_documents(engine: Any, records: Sequence[EvalRecord]) -> tuple[dict[str, str], dict[str, Any]]:
    """Path -> doc id for the questions' documents already in the library (matched by path, else by content
    hash), without ingesting anything."""
    from engine.ingest.pipeline import file_sha256

    docs = [d for d in engine.documents() if d.status in {"ready", "partial"}]
    by_path = {str(Path(d.path).resolve()): d.id for d in docs}
    by_sha = {d.sha256: d.id for d in docs}
    doc_ids: dict[str, str] = {}
    for rec in records:
        for p in rec.docs + [q for q, _ in rec.gold_pages or []]:
            key = _doc_key(p)
            if key in doc_ids:
                continue
            if key in by_path:
                doc_ids[key] = by_path[key]
            elif p.exists():
                doc_id = by_sha.get(file_sha256(p))
                if doc_id:
                    doc_ids[key] = doc_id
    return doc_ids, {"documents": len(doc_ids), "status": {"in library": len(doc_ids)}, "seconds": 0.0,
                     "failures": [], "missing_files": [], "pages_ingested": 0, "stage_seconds": {}}


def build_judge(engine: Any) -> Judge:
    """The judge model: the profile's ``[judge]`` table of models.toml when it has one (same keys as
    ``[llm]``), else the profile's text LLM."""
    import tomllib

    from engine.models.config import _role

    settings = engine.settings
    try:
        data = tomllib.loads(Path(settings.models_toml).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        data = {}
    profiles = data.get("profiles") or {}
    name: str | None = settings.profile if settings.profile in profiles else data.get("default_profile")
    body = None
    seen: set[str] = set()
    while name and name in profiles and name not in seen and body is None:
        seen.add(name)
        body = profiles[name].get("judge")
        name = profiles[name].get("inherits")
    if body is None:
        return LLMJudge(engine.models.llm())
    from engine.models.packaged import resolve

    cfg = _role("llm", body, Path(settings.models_toml), settings.profile)
    path = resolve(cfg.packaged, settings.models_dir) if cfg.packaged else Path(cfg.path).expanduser()
    # through the provider, so the judge runs with its table's backend (a model server by default), never
    # loaded into this process beside numpy and torch
    return LLMJudge(engine.models.build(cfg, path))


def evaluate(
    engine: Any,
    records: Sequence[EvalRecord],
    options: EvalOptions | None = None,
    *,
    make_engine: Callable[[Any], Any] | None = None,
    judge: Judge | None = None,
    on_ingest: Callable[[Any], None] | None = None,
    on_question: QuestionCallback | None = None,
    cancelled: Callable[[], bool] | None = None,
    previous: dict[str, dict[str, Any]] | None = None,
    qa_file: str = "",
    selection: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Run an evaluation and return the report (see module doc). ``make_engine(settings)`` builds the engine
    of an ablation (by default one sharing ``engine``'s loaded models); ``previous`` holds per-question results
    of an interrupted run to keep; ``selection`` (paraphrase file, half) is recorded in the report."""
    options = options or EvalOptions()
    if options.scope not in {"doc", "library"}:
        raise ConfigError(f"scope must be 'doc' or 'library', not '{options.scope}'.", title="Bad eval option")
    ab = ABLATIONS.get(options.ablation)
    settings, changes = ablation_settings(engine.settings, options.ablation, options.k)
    notes: list[str] = []
    if ab is not None and ab.needs_role:
        models = getattr(engine, "models", None)
        enabled = getattr(models, "is_enabled", None)
        if enabled is not None and not enabled(ab.needs_role):
            raise ConfigError(
                f"The '{options.ablation}' ablation needs the {ab.needs_role} role, which is off in profile "
                f"'{engine.settings.profile}' of {engine.settings.models_toml}. Configure a {ab.needs_role} there "
                "(see the workstation profile) or pick another profile with --profile.",
                title="Ablation not available",
            )
    if options.ablation == "no-routing" and options.scope == "doc":
        notes.append("routing only acts when the scope is not given: run no-routing with --scope library")
    target = engine
    derived = False
    # An ablation with its own library copies the main library's text layer instead of reading the PDFs again.
    text_layer_from = Path(engine.settings.data_dir) if ab is not None and ab.own_library else None
    if changes:
        if make_engine is None:
            cls = type(engine)
            make_engine = lambda s: cls(s, models=engine.models)  # noqa: E731
        target = make_engine(settings)
        derived = True
    if judge is None and options.judge and not options.retrieval_only:
        judge = build_judge(engine)
    started = time.time()
    t0 = time.perf_counter()
    try:
        if options.ingest:
            records = take(records, options.limit, options.per_source)
            doc_ids, ingest_summary = ingest_documents(target, records, on_ingest, cancelled, text_layer_from)
            records = records + mismatched_probes(records, options.mismatched, doc_ids) + later_probes(
                records, options.later)
        else:
            # The subset is what the library holds; an ablation with its own library (the baseline) gets
            # those same documents ingested into it, so every ablation answers the same questions.
            doc_ids, ingest_summary = library_documents(engine, records)
            kept = [r for r in records if all(_doc_key(d) in doc_ids for d in r.docs)]
            if len(kept) < len(records):
                notes.append(f"{len(records) - len(kept)} questions skipped: their documents are not in the library")
            records = take(kept, options.limit, options.per_source)
            if ab is not None and ab.own_library:
                doc_ids, ingest_summary = ingest_documents(target, records, on_ingest, cancelled, text_layer_from)
            records = records + mismatched_probes(records, options.mismatched, doc_ids) + later_probes(
                records, options.later)
        results = run_questions(
            target, records, options, doc_ids, judge=judge, on_question=on_question, cancelled=cancelled,
            previous=previous,
        )
    finally:
        if derived:
            # The derived engine shares the loaded models with ``engine``: close its catalogue only.
            store = getattr(target, "store", None)
            if store is not None:
                store.close()
    return build_report(
        results,
        options,
        settings=settings,
        changes=changes,
        ingest=ingest_summary,
        notes=notes,
        started=started,
        seconds=time.perf_counter() - t0,
        qa_file=qa_file,
        selection=selection,
        judge=getattr(judge, "name", "") if judge else "",
        models=_model_names(engine),
        complete=len(results) == len(records),
    )


def _model_names(engine: Any) -> dict[str, str]:
    models = getattr(engine, "models", None)
    config = getattr(models, "config", None) if models is not None else None
    roles = getattr(config, "roles", None)
    if not roles:
        return {}
    return {
        role: (cfg.packaged or Path(cfg.path).name or cfg.backend) if cfg.enabled else "off"
        for role, cfg in roles.items()
    }


def build_report(
    results: Sequence[dict[str, Any]],
    options: EvalOptions,
    *,
    settings: Any = None,
    changes: dict[str, Any] | None = None,
    ingest: dict[str, Any] | None = None,
    notes: Sequence[str] = (),
    started: float | None = None,
    seconds: float = 0.0,
    qa_file: str = "",
    selection: dict[str, str] | None = None,
    judge: str = "",
    models: dict[str, str] | None = None,
    complete: bool = True,
) -> dict[str, Any]:
    """The JSON report: headline metrics at the top level, breakdowns, latency, tokens, every question.
    ``selection`` says which questions were asked (``paraphrases``: the paraphrase file; ``half``: tune or
    check); a run over paraphrases also gets ``by_paraphrase``, by what the paraphrase rewords."""
    overall = summarise(results)
    groups: dict[str, dict[str, list[dict[str, Any]]]] = {"by_modality": defaultdict(list),
                                                          "by_source": defaultdict(list),
                                                          "by_scorer": defaultdict(list)}
    if options.scope == "library":
        groups["by_routing"] = defaultdict(list)
    if any(r.get("paraphrase_kind") for r in results):
        groups["by_paraphrase"] = defaultdict(list)
    for r in results:
        groups["by_modality"][r["modality"]].append(r)
        groups["by_source"][r["source"]].append(r)
        if options.scope == "library" and "routed" in r:
            groups["by_routing"]["routed" if r["routed"] else "not routed"].append(r)
        if r.get("scorer"):
            groups["by_scorer"][r["scorer"]].append(r)
        if "by_paraphrase" in groups and r.get("paraphrase_kind"):
            groups["by_paraphrase"][r["paraphrase_kind"]].append(r)
    tokens = [r.get("tokens", 0) for r in results if r.get("prediction") is not None]
    ablation = ABLATIONS.get(options.ablation)
    report: dict[str, Any] = {
        "qa_file": qa_file,
        "selection": dict(selection or {}),
        "ablation": options.ablation,
        "ablation_description": ablation.description if ablation else "",
        "settings_changes": {k: str(v) for k, v in (changes or {}).items()},
        "k": options.k,
        "scope": options.scope,
        "retrieval_only": options.retrieval_only,
        "judge": judge,
        "complete": complete,
        **overall,
        "by_modality": {k: summarise(v) for k, v in sorted(groups["by_modality"].items())},
        "by_source": {k: summarise(v) for k, v in sorted(groups["by_source"].items())},
        **({"by_routing": {k: summarise(v) for k, v in sorted(groups["by_routing"].items())}}
           if "by_routing" in groups else {}),
        **({"by_paraphrase": {k: summarise(v) for k, v in sorted(groups["by_paraphrase"].items())}}
           if "by_paraphrase" in groups else {}),
        "by_scorer": {k: {"n": len(v), "accuracy": _mean(1.0 if r["correct"] else 0.0 for r in v)}
                      for k, v in sorted(groups["by_scorer"].items())},
        "latency": latency_summary(results),
        "tokens": {
            "per_question_mean": round(statistics.fmean(tokens), 1) if tokens else None,
            "per_question_p95": round(percentile(tokens, 95), 1) if tokens else None,
            "total": int(sum(tokens)),
        },
        "ingest": ingest or {},
        "profile": getattr(settings, "profile", ""),
        "models": models or {},
        "data_dir": str(getattr(settings, "data_dir", "")),
        "machine": machine_info(),
        "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started or time.time())),
        "seconds": round(seconds, 1),
        "notes": list(notes),
        "questions": list(results),
    }
    return report


# --- reading a report ----------------------------------------------------------------------------------
def _fmt(v: Any, pct: bool = False) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v * 100:.1f}%" if pct else f"{v:.3f}"
    return str(v)


def format_report(report: dict[str, Any]) -> str:
    """A readable plain-text table of a report (headline, breakdowns, latency, tokens)."""
    k = report.get("k", 10)
    chosen = "".join(f"  {key}={value}" for key, value in (report.get("selection") or {}).items())
    lines = [
        f"Evaluation: {report.get('qa_file', '')}{chosen}  ablation={report.get('ablation')}  k={k}  "
        f"scope={report.get('scope')}{'  retrieval only' if report.get('retrieval_only') else ''}",
        f"questions {report.get('n')} (with page labels {report.get('n_with_pages')}, scored answers "
        f"{report.get('n_scored')}, errors {report.get('errors')})",
        "",
    ]
    head = f"{'group':<28}{'n':>5}{'recall@' + str(k):>11}{'prec@' + str(k):>9}{'MRR':>7}{'accuracy':>10}"
    rule = "-" * len(head)

    def row(name: str, m: dict[str, Any]) -> str:
        return (f"{name[:27]:<28}{m.get('n', 0):>5}{_fmt(m.get('page_recall@k')):>11}"
                f"{_fmt(m.get('precision@k')):>9}{_fmt(m.get('mrr')):>7}{_fmt(m.get('answer_accuracy'), True):>10}")

    lines += [head, rule, row("all", report)]
    for section in ("by_modality", "by_source", "by_routing", "by_paraphrase"):
        if section not in report:
            continue
        lines.append(rule)
        for name, m in report.get(section, {}).items():
            lines.append(row(name, m))
    lines.append(rule)
    if report.get("refusal_rate") is not None:
        lines.append(f"refusal rate on unanswerable questions: {_fmt(report['refusal_rate'], True)}")
    if report.get("false_refusal_rate") is not None:
        lines.append(f"refusals on answerable questions: {_fmt(report['false_refusal_rate'], True)}")
    if report.get("by_scorer"):
        lines.append("scorers: " + ", ".join(
            f"{name} {m['n']} ({_fmt(m['accuracy'], True)})" for name, m in report["by_scorer"].items()))
    lat = report.get("latency", {})
    if lat:
        lines.append("")
        lines.append(f"{'latency (s)':<20}{'mean':>9}{'p50':>9}{'p95':>9}")
        for stage, m in lat.items():
            lines.append(f"{stage:<20}{m['mean']:>9.3f}{m['p50']:>9.3f}{m['p95']:>9.3f}")
    tok = report.get("tokens", {})
    if tok.get("per_question_mean") is not None:
        lines.append(f"tokens per question: mean {tok['per_question_mean']}, p95 {tok['per_question_p95']}, "
                     f"total {tok['total']}")
    ing = report.get("ingest", {})
    if ing:
        status = ", ".join(f"{s} {n}" for s, n in ing.get("status", {}).items())
        lines.append(f"ingest: {ing.get('documents')} documents ({status}) in {ing.get('seconds')}s")
        for f in ing.get("failures", [])[:5]:
            lines.append(f"  failed: {f['path']}: {f['error']}")
        if ing.get("missing_files"):
            lines.append(f"  missing files: {len(ing['missing_files'])}")
    for note in report.get("notes", []):
        lines.append(f"note: {note}")
    if report.get("graded"):
        from mfr_eval.grading import lines as graded_lines

        lines += ["", *graded_lines(report)]
    return "\n".join(lines)

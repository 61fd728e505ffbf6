"""Pure helpers behind the evidence views and the export: numbers, cited cells, cited spans, Markdown."""

from __future__ import annotations

import re
import time
from dataclasses import fields
from pathlib import Path
from typing import Any

from engine.types import Answer, Check, Citation, Evidence

NUMBER = re.compile(r"(?<![\w.])\(?-?\$?\d[\d,]*(?:\.\d+)?\)?%?")
MARKER = re.compile(r"\[(\d+)\]")


def number_value(token: str) -> float | None:
    """The magnitude of a number as written (``(1,577)`` -> 1577.0, ``24%`` -> 24.0)."""
    digits = re.sub(r"[^\d.]", "", token)
    if not digits or digits == ".":
        return None
    try:
        return abs(float(digits.rstrip(".")))
    except ValueError:
        return None


def numbers_in(text: str) -> list[float]:
    """Every number in a text, as magnitudes; citation markers like ``[2]`` are not numbers."""
    text = MARKER.sub(" ", text)
    out = []
    for m in NUMBER.finditer(text):
        v = number_value(m.group())
        if v is not None:
            out.append(v)
    return out


def evidence_markers(answer: Answer, index: int) -> list[int]:
    """The ``[n]`` markers of the answer that point to ``answer.evidence[index]``."""
    ev = answer.evidence[index]
    out = []
    for c in answer.citations:
        if c.chunk_id is not None and c.chunk_id == ev.chunk_id:
            out.append(c.marker)
        elif c.chunk_id is None and (c.doc, c.page, c.modality) == (ev.doc, ev.page, ev.modality) and (
            c.region_id is None or c.region_id == ev.region_id
        ):
            out.append(c.marker)
    return sorted(set(out))


def cited_numbers(answer: Answer, index: int) -> list[float]:
    """Numbers in the answer's sentences that cite this evidence (all the answer's numbers if none do)."""
    markers = evidence_markers(answer, index)
    sentences = re.split(r"(?<=[.!?])\s+|\n+", answer.text)
    picked = [s for s in sentences if any(f"[{m}]" in s for m in markers)]
    return numbers_in(" ".join(picked) if picked else answer.text)


def cited_cells(table: dict[str, Any], numbers: list[float]) -> set[tuple[int, int]]:
    """(row, column) of table cells whose value is one of ``numbers``; column 0 is the row label."""
    wanted = {round(n, 4) for n in numbers}
    cells: set[tuple[int, int]] = set()
    for r, row in enumerate(table.get("rows", [])):
        if not isinstance(row, dict):
            continue
        values = row.get("values", [])
        nums = row.get("numbers") or [None] * len(values)
        for c, value in enumerate(values):
            v = number_value(str(value))
            n = nums[c] if c < len(nums) else None
            if n is not None:
                try:
                    v = abs(float(n))
                except (TypeError, ValueError):
                    pass
            if v is not None and round(v, 4) in wanted:
                cells.add((r, c + 1))
    return cells


def _squash(text: str) -> tuple[str, list[int]]:
    """Lower-cased text with whitespace runs squashed to one space, and each char's original offset."""
    out, where = [], []
    prev_space = False
    for i, ch in enumerate(text):
        if ch.isspace():
            if prev_space:
                continue
            prev_space = True
            out.append(" ")
        else:
            prev_space = False
            out.append(ch.lower())
        where.append(i)
    return "".join(out), where


def find_span(page_text: str, snippet: str) -> tuple[int, int] | None:
    """Where the evidence snippet sits in the page text (whitespace-insensitive), else its longest sentence."""
    hay, where = _squash(page_text)
    candidates = [snippet] + sorted(re.split(r"(?<=[.!?])\s+", snippet), key=len, reverse=True)
    for cand in candidates:
        needle, _ = _squash(cand.strip())
        if len(needle) < 12:
            continue
        i = hay.find(needle)
        if i >= 0:
            return where[i], where[i + len(needle) - 1] + 1
    return None


def number_spans(text: str, numbers: list[float]) -> list[tuple[int, int]]:
    """Spans of the numbers (among ``numbers``) in a text."""
    wanted = {round(n, 4) for n in numbers}
    spans = []
    for m in NUMBER.finditer(text):
        v = number_value(m.group())
        if v is not None and round(v, 4) in wanted and v >= 1:
            spans.append((m.start(), m.end()))
    return spans


def mark_unverified(text: str, checks: list[Check]) -> str:
    """The answer's Markdown with each unverified number flagged in place."""
    for c in checks:
        if c.found or not c.value:
            continue
        flag = f"`{c.value} ⚠ unverified`"
        text = re.sub(rf"(?<![\d,.]){re.escape(c.value)}(?![\d])", flag, text)
    return text


def answer_from_json(payload: dict[str, Any]) -> Answer:
    """An ``Answer`` back from ``Answer.to_json()`` (as stored in the history)."""

    def pick(cls: type, d: dict[str, Any]) -> Any:
        names = {f.name for f in fields(cls)}
        kw = {k: v for k, v in d.items() if k in names}
        if "bbox" in kw and kw["bbox"] is not None:
            kw["bbox"] = tuple(kw["bbox"])
        return cls(**kw)

    return Answer(
        question=payload.get("question", ""),
        text=payload.get("answer", payload.get("text", "")),
        evidence=[pick(Evidence, e) for e in payload.get("evidence", [])],
        tier=payload.get("tier", ""),
        citations=[pick(Citation, c) for c in payload.get("citations", [])],
        checks=[pick(Check, c) for c in payload.get("checks", [])],
        refused=bool(payload.get("refused", False)),
        searched=payload.get("searched") or {},
        computation=payload.get("computation", ""),
        timings=payload.get("timings") or {},
        tokens=int(payload.get("tokens") or 0),
        id=payload.get("id"),
    )


def searched_lines(searched: dict[str, Any]) -> list[str]:
    """What a refusal searched, as readable lines."""
    lines = []
    for key, value in searched.items():
        label = key.replace("_", " ")
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        elif isinstance(value, list | tuple):
            value = ", ".join(str(v) for v in value) or "none"
        lines.append(f"{label}: {value}")
    return lines


def answer_markdown(answer: Answer) -> str:
    """The answer, its citations, number checks and evidence as a Markdown document."""
    out = [f"# {answer.question}", "", answer.text.strip(), ""]
    if answer.refused and answer.searched:
        out += ["## What was searched", ""] + [f"- {line}" for line in searched_lines(answer.searched)] + [""]
    if answer.citations:
        out += ["## Citations", ""]
        for c in answer.citations:
            region = f", region {c.region_id}" if c.region_id is not None else ""
            how = "; matched by a number it quotes, the answer gave no marker" if c.inferred else ""
            out.append(f"- [{c.marker}] {c.doc}, page {c.page} ({c.modality}{region}{how})")
        out.append("")
    if answer.checks:
        out += ["## Number checks", ""]
        for ch in answer.checks:
            mark = "verified" if ch.found else "**UNVERIFIED**"
            where = f" in {ch.where}" if ch.where else ""
            note = f" ({ch.note})" if ch.note else ""
            out.append(f"- {ch.value}: {mark}{where}{note}")
        out.append("")
    if answer.computation:
        out += ["## Computation", "", f"`{answer.computation}`", ""]
    if answer.evidence:
        out += ["## Evidence", "", "| # | Document | Page | Modality | Score | Tier | Text |",
                "|---|---|---|---|---|---|---|"]
        for i, e in enumerate(answer.evidence, 1):
            snippet = " ".join(e.text.split())[:160].replace("|", "\\|")
            out.append(f"| {i} | {e.doc} | {e.page} | {e.modality} | {e.score:.3f} | {e.tier} | {snippet} |")
        out.append("")
    out.append(f"_Tier: {answer.tier}. Exported by mfr-tui._")
    return "\n".join(out) + "\n"


def slug(text: str, limit: int = 48) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:limit].rstrip("-") or "answer"


def export_answer(answer: Answer, exports_dir: Path, now: float | None = None) -> Path:
    """Write the answer as Markdown under ``exports_dir`` and return the file's path."""
    exports_dir.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now if now is not None else time.time()))
    path = exports_dir / f"{stamp}-{slug(answer.question)}.md"
    n = 2
    while path.exists():
        path = exports_dir / f"{stamp}-{slug(answer.question)}-{n}.md"
        n += 1
    path.write_text(answer_markdown(answer), encoding="utf-8")
    return path

"""Pure helpers behind the evidence views and the export: checks, resolved cells, cited spans, Markdown.

Numbers come from the engine's output (``Check.number``, ``Answer.cells``); where a number must still be read
from text (a page's text, a table cell without its parsed number), ``engine.numbers`` reads it.
"""

from __future__ import annotations

import re
import time
from dataclasses import fields
from pathlib import Path
from typing import Any

from rich.cells import cell_len

from engine.numbers import Quantity, checkable, parse_cell, quantities, same_number
from engine.types import Answer, Check, Citation, Evidence, Quote

FOUND_LABELS = {"verified": "verified", "computed": "computed from the cells", "in_text": "stated in the cited text",
                "derived": "worked out from found figures"}
"""What a found check's status means, in words."""
FLAGGED_LABELS = {"other_period": "another period", "other_row": "another row", "missing": "not found",
                  "definition": "one of two definitions", "level_as_change": "a level, not a change",
                  "in_text": "not the asked cell"}
"""What a flagged check's status means, in words (what the number is instead is in its note)."""


def check_label(check: Check) -> str:
    """The check's status in words: ``verified``, ``another period``, ``not found`` ..."""
    if check.found:
        return FOUND_LABELS.get(check.status, "verified")
    return FLAGGED_LABELS.get(check.status, "unverified")


def flagged(answer: Answer) -> list[Check]:
    """The checks that failed, in the answer's order."""
    return [c for c in answer.checks if not c.found]


def check_quantity(check: Check) -> Quantity | None:
    """The number a check judged, as ``engine.numbers.same_number`` compares it: the engine's value
    (``check.number``) with the precision the answer wrote it in. None when the check holds no number."""
    written = quantities(check.value)
    if check.number is None:
        return written[0] if written else None  # a check saved before checks carried their number
    return Quantity(value=check.number, decimals=written[0].decimals if written else 0, raw=check.value)


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


def cited_checks(answer: Answer, index: int) -> list[Check]:
    """The checks of the numbers in the answer's sentences that cite this evidence (all checks if none do)."""
    markers = evidence_markers(answer, index)
    sentences = re.split(r"(?<=[.!?])\s+|\n+", answer.text)
    picked = " ".join(s for s in sentences if any(f"[{m}]" in s for m in markers))
    return [c for c in answer.checks if not picked or c.value in picked]


def _compared(checks: list[Check]) -> list[tuple[Quantity, bool]]:
    """Each check's number with whether it was found."""
    out = []
    for c in checks:
        q = check_quantity(c)
        if q is not None:
            out.append((q, c.found))
    return out


def _mark(found: list[bool]) -> str | None:
    """``cited`` when a found check matched, else ``flagged`` when a flagged one did, else None."""
    if not found:
        return None
    return "cited" if any(found) else "flagged"


def resolved_cells(table: dict[str, Any], region_id: int | None, cells: list[dict[str, Any]]) -> set[tuple[int, int]]:
    """(row, column) of the resolved cells in this table; column 0 is the row label, column ``i + 1`` shows
    ``columns[i]`` and ``values[i]``."""
    mine = [c for c in cells if region_id is not None and c.get("region_id") == region_id]
    columns = [str(c) for c in table.get("columns", [])]
    out: set[tuple[int, int]] = set()
    for r, row in enumerate(table.get("rows", [])):
        if not isinstance(row, dict):
            continue
        label = str(row.get("label", "")).strip()
        values = [str(v) if v is not None else "" for v in row.get("values", [])]
        for cell in mine:
            if str(cell.get("row", "")).strip() != label:
                continue
            for i, v in enumerate(values):
                if i < len(columns) and columns[i] == cell.get("column") and v == cell.get("raw"):
                    out.add((r, i + 1))
    return out


def cell_marks(table: dict[str, Any], region_id: int | None, answer: Answer, checks: list[Check]
               ) -> dict[tuple[int, int], str]:
    """(row, column) -> ``cited`` or ``flagged``: the resolved cells and the cells holding a found number of the
    answer are cited; a cell holding only a flagged number (another period's or row's value) is flagged."""
    marks = {rc: "cited" for rc in resolved_cells(table, region_id, answer.cells)}
    compared = _compared(checks)
    for r, row in enumerate(table.get("rows", [])):
        if not isinstance(row, dict):
            continue
        values = row.get("values", [])
        nums = row.get("numbers") or [None] * len(values)
        for i, value in enumerate(values):
            n = nums[i] if i < len(nums) else None
            v = float(n) if isinstance(n, int | float) else parse_cell(str(value)) if value is not None else None
            if v is None or (r, i + 1) in marks:
                continue
            mark = _mark([found for q, found in compared if same_number(q, v)])
            if mark:
                marks[(r, i + 1)] = mark
    return marks


LABEL_SHARE = 0.4
"""The most of a table's width its row-label column takes, so that period columns stay on screen beside it."""
LABEL_MIN = 16
"""The narrowest a row-label column is made for long labels, however narrow the table."""


def column_widths(labels: list[str], cells: list[str], count: int, room: int, pad: int = 2) -> tuple[int, int]:
    """(row-label column, each value column) widths for a table of ``count`` value columns holding ``cells``
    (their headings and values), in the ``room`` the table has; each column takes ``pad`` more. The value columns
    are alike, as wide as the widest cell. The label column is as wide as the longest label when the whole table
    fits; else what the value columns leave, but never less than ``LABEL_SHARE`` of the room (nor ``LABEL_MIN``),
    nor so wide that no value column shows beside it. A longer label is cut with an ellipsis (the cursor's line
    gives it in full). When the table scrolls sideways, the label column takes the room left over by whole value
    columns, so a scrolled table never shows the cut end of a number beside the labels."""
    longest = max((cell_len(label) for label in labels), default=0)
    value = max((cell_len(cell) for cell in cells), default=0)
    step = value + pad
    if longest + pad + count * step <= room:
        return longest, value
    label = min(longest, max(LABEL_MIN, int(room * LABEL_SHARE), room - pad - count * step), room - pad - step)
    label = max(1, label)
    return label + max(0, room - pad - label) % step if step else label, value


def text_marks(text: str, checks: list[Check]) -> list[tuple[int, int, str]]:
    """(start, end, ``cited`` or ``flagged``) of the numbers in a text that are the checks' numbers."""
    compared = _compared(checks)
    out = []
    for t in quantities(text):
        if abs(t.value) < 1:
            continue
        mark = _mark([found for q, found in compared if same_number(q, t.value)])
        if mark:
            out.append((t.start, t.end, mark))
    return out


def resolved_first(evidence: list[Evidence], cells: list[dict[str, Any]]) -> list[Evidence]:
    """The evidence with the resolved cells' sources first (in the cells' order), the rest as retrieved. A cell's
    ``marker`` numbers its source in retrieval order (``[1]`` is ``evidence[0]``)."""
    first: list[int] = []
    for c in cells:
        i = int(c.get("marker") or 0) - 1
        if 0 <= i < len(evidence) and i not in first:
            first.append(i)
    return [evidence[i] for i in first] + [e for i, e in enumerate(evidence) if i not in first]


def draft_answer(question: str, evidence: list[Evidence], tier: str, cells: list[dict[str, Any]] | None = None,
                 stated: str = "") -> Answer:
    """What the evidence views show while the model writes: the retrieved evidence and, once resolved, the cells,
    each cited by its marker."""
    citations: list[Citation] = []
    for c in cells or []:
        i = int(c.get("marker") or 0) - 1
        if 0 <= i < len(evidence) and all(x.marker != i + 1 for x in citations):
            e = evidence[i]
            citations.append(Citation(i + 1, e.doc, e.page, e.modality, e.region_id, e.chunk_id))
    return Answer(question=question, text=stated, evidence=list(evidence), tier=tier, citations=citations,
                  cells=list(cells or []), extractive=stated)


def split_stated(answer: Answer) -> tuple[str, str]:
    """(what was stated from the cells, the rest of the answer): the answer's text begins with its extractive
    statement, or ends with it when the model's Yes or No leads; ('', text) when it holds none."""
    text, said = answer.text, answer.extractive.strip()
    if said and text.startswith(said):
        return said, text[len(said):].lstrip("\n")
    if said and text.rstrip().endswith(said):
        return said, text.rstrip()[: -len(said)].rstrip("\n")
    return "", text


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


def mark_flagged(text: str, checks: list[Check]) -> str:
    """The answer's Markdown with each flagged number marked in place (``$4,862 million ⚠ not found``)."""
    bad = {(c.value, c.number) for c in checks if not c.found}
    labels = {(c.value, c.number): check_label(c) for c in checks if not c.found}
    out, last = [], 0
    for q in quantities(text):
        key = next((k for k in ((q.raw, q.value), (q.raw, None)) if k in bad), None)
        if key is None or not checkable(q):
            continue
        out += [text[last:q.start], f"`{q.raw} ⚠ {labels[key]}`"]
        last = q.end
    return "".join(out) + text[last:]


def answer_from_json(payload: dict[str, Any]) -> Answer:
    """An ``Answer`` back from ``Answer.to_json()`` (as stored in the history)."""

    def pick(cls: type, d: dict[str, Any]) -> Any:
        names = {f.name for f in fields(cls)}
        kw = {k: v for k, v in d.items() if k in names}
        if "bbox" in kw and kw["bbox"] is not None:
            kw["bbox"] = tuple(kw["bbox"])
        for key in ("withheld", "headings"):  # tuples in the dataclass, lists in JSON
            if key in kw:
                kw[key] = tuple(str(x) for x in kw[key] or [])
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
        cells=list(payload.get("cells") or []),
        extractive=payload.get("extractive", ""),
        contradicted=[str(x) for x in payload.get("contradicted") or []],
        reading=str(payload.get("reading") or ""),
        filings=[str(x) for x in payload.get("filings") or []],
        series=[x for x in payload.get("series") or [] if isinstance(x, dict)],
        quotes=[Quote.from_json(x) for x in payload.get("quotes") or [] if isinstance(x, dict)],
        unsupported=[str(x) for x in payload.get("unsupported") or []],
        summarised=bool(payload.get("summarised", False)),
        draft=str(payload.get("draft") or ""),
        draft_flags=[str(x) for x in payload.get("draft_flags") or []],
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
    out = [f"# {answer.question}", ""]
    if answer.quotes:
        out += ["## Quoted from the filing", ""]
        out += [f"> {' '.join(x.text.split())} ({x.doc}, page {x.page}) [{x.source}]" for x in answer.quotes]
        out += ["", "## Summary", ""]
    out += [answer.text.strip(), ""]
    if answer.unsupported:
        out += [f"**FLAGGED: not in the quoted sentences: {', '.join(answer.unsupported)}**", ""]
    if answer.draft:
        out += ["## The model's first summary (flagged, written again; not the answer)", "", answer.draft.strip(), "",
                f"Flagged: {', '.join(answer.draft_flags)}", ""]
    for doc, page, sentence in answer.withheld():
        out += [f"**FLAGGED: withheld from the model, addressed to an AI model (not filing content), {doc} page "
                f"{page}:** {sentence}", ""]
    if answer.refused and answer.searched:
        out += ["## What was searched", ""] + [f"- {line}" for line in searched_lines(answer.searched)] + [""]
    if answer.citations:
        out += ["## Citations", ""]
        for c in answer.citations:
            region = f", region {c.region_id}" if c.region_id is not None else ""
            how = "; matched by a number it quotes, the answer gave no marker" if c.inferred else ""
            out.append(f"- [{c.marker}] {c.doc}, page {c.page} ({c.modality}{region}{how})")
        out.append("")
    if answer.cells:
        out += ["## Resolved cells", "", "| # | Row | Column | Value | Document | Page |", "|---|---|---|---|---|---|"]
        for cell in answer.cells:
            row = [f"[{cell.get('marker', '')}]", cell.get("row", ""), cell.get("column", ""),
                   cell.get("shown") or cell.get("raw", ""), cell.get("doc", ""), cell.get("page", "")]
            out.append("| " + " | ".join(str(x).replace("|", "\\|") for x in row) + " |")
        out.append("")
    if answer.checks:
        out += ["## Number checks", ""]
        for ch in answer.checks:
            mark = check_label(ch) if ch.found else f"**FLAGGED: {check_label(ch)}**"
            where = f" in {ch.where}" if ch.where and ch.where != ch.status else ""
            note = f" ({ch.note})" if ch.note and ch.found else f" — {ch.note}" if ch.note else ""
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

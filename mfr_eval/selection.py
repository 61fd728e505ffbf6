"""Which questions an evaluation asks: the company split into a tune half and a check half, and paraphrase files.

The split is by company, so a company's every question (in every source) falls in one half: the ``tune`` half is
the one whose failures are read and tuned on, the ``check`` half is only reported. A record's company is its
``group`` normalised (``company_key``); its half is a bit of a SHA-256 of that key (``half_of``), so it never
depends on the order of a file, on the other records or on Python's per-process ``hash()`` seed.

A paraphrase file holds other wordings of a QA file's questions, ids and text only (``{"id", "of", "kind",
"question"}`` a line); ``join_paraphrases`` gives each the gold answer, documents and evidence of the record it
rewords, so the scorer and the reports work unchanged. See ``mfr_eval/README.md``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from engine.errors import ConfigError

if TYPE_CHECKING:
    from mfr_eval.evaluate import EvalRecord

HALVES = ("tune", "check")
"""The two halves of the split: read failures and tune on ``tune``; only report ``check``."""

SPLIT_SALT = "mfr-half-19:"
"""Prefix hashed with each company key. Picked once as the first ``mfr-half-N:`` for which the FinanceBench dev
questions split their 22 companies 11/11 with question counts within 4 of each other (32 tune, 36 check); it is
fixed from then on, so a company never changes half."""

COMPANY_ALIASES = {"AAPL": "APPLE", "AMZN": "AMAZON", "NVDA": "NVIDIA", "GOOG": "ALPHABET", "GOOGL": "ALPHABET"}
"""Groups named by ticker (Docugami's) to the company name other sources use, so one company is one key."""

_YEAR_TAIL = re.compile(r"[_\s](?=(?:19|20)\d{2})")
_NOT_ALNUM = re.compile(r"[^A-Z0-9]")

PARAPHRASE_KINDS = ("measure", "period", "order")
"""What a paraphrase rewords: the measure in other words, the period written another way, the sentence order."""


def company_key(group: str) -> str:
    """The normalised company of a record's ``group``: a filing-style group ("3M_2018_10K",
    "Pfizer_2023Q2_10Q", "PEPSICO_2023_8K_dated-2023-05-05") keeps the part before its year; the parsee
    revenue prefix goes; then upper case without punctuation or spaces ("Goldman Sachs" -> "GOLDMANSACHS",
    "JOHNSON_JOHNSON" -> "JOHNSONJOHNSON"), and a ticker becomes its company (``COMPANY_ALIASES``)."""
    name = re.sub(r"^parsee_rev_", "", group.strip(), flags=re.I)
    name = _YEAR_TAIL.split(name, maxsplit=1)[0]
    key = _NOT_ALNUM.sub("", name.upper())
    return COMPANY_ALIASES.get(key, key)


def half_of(group: str) -> str:
    """``tune`` or ``check``: the parity of the first byte of SHA-256(``SPLIT_SALT`` + ``company_key(group)``)."""
    digest = hashlib.sha256((SPLIT_SALT + company_key(group)).encode("utf-8")).digest()
    return HALVES[digest[0] % 2]


def record_company(rec: EvalRecord) -> str:
    """The group a record is split on: its ``group``, else its first document's file name (a QA file without
    groups), else its id."""
    if rec.group:
        return rec.group
    return rec.docs[0].stem if rec.docs else rec.id


def in_half(records: Sequence[EvalRecord], half: str) -> list[EvalRecord]:
    """The records whose company falls in ``half`` (``tune`` or ``check``), in their order."""
    if half not in HALVES:
        raise ConfigError(f"half must be one of {', '.join(HALVES)}, not '{half}'.", title="Bad eval option")
    return [r for r in records if half_of(record_company(r)) == half]


@dataclass(frozen=True)
class Paraphrase:
    """One line of a paraphrase file: another wording of the question ``of``."""

    id: str
    of: str
    kind: str
    question: str


def read_paraphrases(path: str | Path) -> list[Paraphrase]:
    """The lines of a paraphrase file; ConfigError names the file and line of a bad or repeated one."""
    path = Path(path).expanduser()
    if not path.exists():
        raise ConfigError(f"Paraphrase file {path} does not exist.", title="No paraphrase file")
    out: list[Paraphrase] = []
    seen: set[str] = set()
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
                para = Paraphrase(id=str(raw["id"]), of=str(raw["of"]), kind=str(raw.get("kind") or ""),
                                  question=str(raw["question"]))
            except (ValueError, KeyError, TypeError) as exc:
                raise ConfigError(f"{path}, line {n}: not a paraphrase record ({exc}); each line needs "
                                  "\"id\", \"of\" and \"question\".", title="Bad paraphrase file") from exc
            if para.id in seen:
                raise ConfigError(f"{path}, line {n}: the id '{para.id}' is used twice.", title="Bad paraphrase file")
            if not para.question.strip():
                raise ConfigError(f"{path}, line {n}: the question is empty.", title="Bad paraphrase file")
            seen.add(para.id)
            out.append(para)
    return out


def join_paraphrases(records: Sequence[EvalRecord], paraphrases: Sequence[Paraphrase], *, where: str = "",
                     qa_file: str = "") -> list[EvalRecord]:
    """One record per paraphrase, in the paraphrase file's order: the record it rewords (``of``) with the
    paraphrase's id and question, and ``paraphrase_of``/``paraphrase_kind`` set. ConfigError lists the ``of``
    ids that no record has."""
    by_id = {r.id: r for r in records}
    unknown = [p for p in paraphrases if p.of not in by_id]
    if unknown:
        shown = ", ".join(f"{p.id} -> {p.of}" for p in unknown[:5])
        more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        raise ConfigError(
            f"{where or 'The paraphrase file'}: {len(unknown)} paraphrase(s) reword a question that is not in "
            f"{qa_file or 'the question file'}: {shown}{more}.",
            title="Unknown question in paraphrase file",
        )
    return [replace(by_id[p.of], id=p.id, question=p.question, paraphrase_of=p.of, paraphrase_kind=p.kind)
            for p in paraphrases]

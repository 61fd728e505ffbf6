"""Which questions an evaluation asks: the tune/check company split, paraphrase files joined to their gold, the
``--paraphrases``/``--half`` options of ``mfr-tui eval``, and the real paraphrase file checked against the dev set."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from engine.errors import ConfigError
from engine.settings import Settings
from engine.types import Answer, Document, Evidence, IngestResult, Retrieval
from mfr_eval.evaluate import EvalOptions, build_report, evaluate, format_report, load_records
from mfr_eval.selection import HALVES, PARAPHRASE_KINDS, company_key, half_of, in_half, read_paraphrases

REPO = Path(__file__).resolve().parents[1]
EVAL = REPO.parent / "shared" / "data" / "eval"
PARAPHRASES = REPO / "mfr_eval" / "paraphrases" / "financebench_dev.jsonl"


# --- the split -----------------------------------------------------------------------------------------
def test_company_key_joins_one_company_across_sources_and_filings() -> None:
    assert company_key("3M_2018_10K") == company_key("3M_2022_10K") == "3M"
    assert company_key("Pfizer_2023Q2_10Q") == company_key("PFIZER_2021_10K") == "PFIZER"
    assert company_key("PEPSICO_2023_8K_dated-2023-05-05") == company_key("PEPSICO_2023Q1_EARNINGS") == "PEPSICO"
    assert company_key("JOHNSON_JOHNSON_2023Q2_EARNINGS") == company_key("JOHNSON_JOHNSON_2022_10K")
    assert company_key("AMZN") == company_key("AMAZON_2017_10K") == "AMAZON"  # Docugami names tickers
    assert company_key("Goldman Sachs") == "GOLDMANSACHS"
    assert company_key("parsee_rev_adidas") == "ADIDAS"
    assert company_key("2310.05634v2") == "231005634V2"  # a document of no company is its own key
    assert company_key("3M_2018_10K") != company_key("AMERICANWATERWORKS_2022_10K")


def test_half_is_a_function_of_the_company_only() -> None:
    for a, b in [("AMZN", "AMAZON_2019_10K"), ("Pfizer_2023Q2_10Q", "PFIZER_2021_10K"),
                 ("BESTBUY_2024Q2_10Q", "BESTBUY_2017_10K")]:
        assert half_of(a) == half_of(b)
    assert {half_of(g) for g in ("3M_2018_10K", "AMAZON_2017_10K", "NIKE_2021_10K", "BOEING_2018_10K",
                                 "PEPSICO_2022_10K", "ADOBE_2022_10K")} == set(HALVES)


def test_the_split_is_pinned() -> None:
    """The rule must not move a company to the other half: the tune half would then hold questions read in
    the check half. Changing ``SPLIT_SALT`` or ``company_key`` fails here."""
    tune = ["ACTIVISIONBLIZZARD_2019_10K", "ADOBE_2016_10K", "AMAZON_2017_10K", "AMD_2015_10K",
            "AMERICANWATERWORKS_2022_10K", "BESTBUY_2023_10K", "BOEING_2018_10K", "CORNING_2020_10K",
            "JOHNSON_JOHNSON_2022_10K", "LOCKHEEDMARTIN_2022_10K", "Pfizer_2023Q2_10Q", "AMZN"]
    check = ["3M_2018_10K", "AMERICANEXPRESS_2022_10K", "BLOCK_2016_10K", "CVSHEALTH_2018_10K",
             "GENERALMILLS_2020_10K", "JPMORGAN_2022Q2_10Q", "MGMRESORTS_2018_10K", "MICROSOFT_2016_10K",
             "NIKE_2018_10K", "PEPSICO_2023Q1_EARNINGS", "WALMART_2020_10K", "AAPL", "NVDA"]
    assert [half_of(g) for g in tune] == ["tune"] * len(tune)
    assert [half_of(g) for g in check] == ["check"] * len(check)


def test_half_does_not_depend_on_the_process_hash_seed() -> None:
    groups = ["3M_2018_10K", "AMZN", "Goldman Sachs", "parsee_rev_dhl", "earlybird-110722143746-phpapp02_95"]
    code = ("import json, sys; from mfr_eval.selection import half_of; "
            "print(json.dumps([half_of(g) for g in json.loads(sys.argv[1])]))")
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", code, json.dumps(groups)], cwd=REPO, env=env,
                             capture_output=True, text=True, check=True).stdout
        assert json.loads(out) == [half_of(g) for g in groups]


def _qa_file(tmp_path: Path) -> Path:
    rows = [
        {"id": "fb1", "source": "financebench", "group": "AMAZON_2017_10K", "question": "What is FY2017 revenue?",
         "answer": "$177,866", "docs": ["a.pdf"], "evidence": [{"doc": "a.pdf", "page0": 3}],
         "modality": ["table"], "question_type": "metrics-generated"},
        {"id": "fb2", "source": "financebench", "group": "3M_2018_10K", "question": "What is FY2018 capex?",
         "answer": "$1577.00", "docs": ["b.pdf"], "evidence": [{"doc": "b.pdf", "page0": 59}]},
        {"id": "mm1", "source": "mmlongbench_doc_financial", "group": "AMAZON_2017_10K",
         "question": "What is the FY2017 operating income?", "answer": "4106", "docs": ["a.pdf"],
         "evidence": [{"doc": "a.pdf", "page0": 4}]},
        {"id": "dg1", "source": "docugami_sec10q", "group": "AMZN", "question": "How did net sales change?",
         "answer": "They rose.", "docs": ["c.pdf"], "evidence": None},
        {"id": "dg2", "source": "docugami_sec10q", "group": "NVDA", "question": "What drove revenue?",
         "answer": "Data center.", "docs": ["d.pdf"], "evidence": None},
    ]
    path = tmp_path / "qa.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_halves_partition_the_records_and_keep_a_company_together(tmp_path: Path) -> None:
    records = load_records(_qa_file(tmp_path))
    tune, check = in_half(records, "tune"), in_half(records, "check")
    assert sorted(r.id for r in tune + check) == sorted(r.id for r in records)
    assert not {r.id for r in tune} & {r.id for r in check}
    # Amazon's FinanceBench, MMLongBench and Docugami questions fall together
    assert {"fb1", "mm1", "dg1"} <= {r.id for r in tune} and {"fb2", "dg2"} <= {r.id for r in check}
    assert [r.id for r in load_records(_qa_file(tmp_path), half="check")] == ["fb2", "dg2"]
    with pytest.raises(ConfigError, match="half must be one of tune, check"):
        in_half(records, "dev")


# --- paraphrases ---------------------------------------------------------------------------------------
def _paraphrase_file(tmp_path: Path, rows: list[dict[str, Any]]) -> Path:
    path = tmp_path / "para.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_paraphrases_take_their_gold_from_the_question_they_reword(tmp_path: Path) -> None:
    para = _paraphrase_file(tmp_path, [
        {"id": "fb2#p1", "of": "fb2", "kind": "measure", "question": "What are 3M's purchases of PP&E in FY2018?"},
        {"id": "fb1#p2", "of": "fb1", "kind": "period", "question": "What is fiscal 2017 revenue?"},
        {"id": "dg2#p3", "of": "dg2", "kind": "order", "question": "Revenue was driven by what?"},
    ])
    originals = {r.id: r for r in load_records(_qa_file(tmp_path))}
    records = load_records(_qa_file(tmp_path), paraphrases=para)
    assert [r.id for r in records] == ["fb2#p1", "fb1#p2", "dg2#p3"]  # the paraphrase file's order
    first = records[0]
    assert first.question == "What are 3M's purchases of PP&E in FY2018?"
    assert (first.paraphrase_of, first.paraphrase_kind) == ("fb2", "measure")
    gold = originals["fb2"]
    assert (first.answer, first.docs, first.gold_pages, first.source, first.group) == (
        gold.answer, gold.docs, gold.gold_pages, gold.source, gold.group)
    assert first.gold_pages == [(tmp_path / "b.pdf", 60)]
    # the filters apply to the joined records; an original's id selects its paraphrases
    assert [r.id for r in load_records(_qa_file(tmp_path), paraphrases=para, sources=["docugami"])] == ["dg2#p3"]
    assert [r.id for r in load_records(_qa_file(tmp_path), paraphrases=para, ids=["fb1"])] == ["fb1#p2"]
    assert [r.id for r in load_records(_qa_file(tmp_path), paraphrases=para, half="tune")] == ["fb1#p2"]


def test_a_paraphrase_of_an_unknown_question_fails_clearly(tmp_path: Path) -> None:
    para = _paraphrase_file(tmp_path, [
        {"id": "fb1#p1", "of": "fb1", "kind": "measure", "question": "What are FY2017 net sales?"},
        {"id": "zz#p1", "of": "financebench_id_99999", "kind": "period", "question": "What is it in fiscal 2017?"},
    ])
    with pytest.raises(ConfigError, match=r"zz#p1 -> financebench_id_99999") as err:
        load_records(_qa_file(tmp_path), paraphrases=para)
    assert "para.jsonl" in err.value.message and "qa.jsonl" in err.value.message


@pytest.mark.parametrize("line, match", [
    ('{"id": "x#p1", "question": "Q?"}', "line 1: not a paraphrase record"),
    ("not json", "line 1: not a paraphrase record"),
    ('{"id": "x#p1", "of": "x", "question": "  "}', "line 1: the question is empty"),
])
def test_bad_paraphrase_lines_name_the_line(tmp_path: Path, line: str, match: str) -> None:
    path = tmp_path / "para.jsonl"
    path.write_text(line + "\n")
    with pytest.raises(ConfigError, match=match):
        read_paraphrases(path)


def test_a_repeated_paraphrase_id_is_an_error(tmp_path: Path) -> None:
    row = {"id": "fb1#p1", "of": "fb1", "kind": "measure", "question": "What are FY2017 net sales?"}
    with pytest.raises(ConfigError, match="line 2: the id 'fb1#p1' is used twice"):
        read_paraphrases(_paraphrase_file(tmp_path, [row, row]))
    with pytest.raises(ConfigError, match="does not exist"):
        read_paraphrases(tmp_path / "missing.jsonl")


# --- through evaluate and the CLI ----------------------------------------------------------------------
@dataclass
class _Models:
    def is_enabled(self, role: str) -> bool:
        return True


@dataclass
class _Engine:
    """Answers every question with the gold of the record whose question text it is given (a paraphrase's
    text maps to its original's gold), retrieving the first gold page."""

    settings: Settings
    answers: dict[str, str]
    models: _Models = field(default_factory=_Models)
    ingested: list[str] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)

    def ingest(self, paths: list[Path], on_progress: Any = None, cancelled: Any = None,
               text_layer_from: Path | None = None) -> list[IngestResult]:
        self.ingested.extend(str(p) for p in paths)
        return [IngestResult(path=str(p), ok=True, doc_id=f"id-{Path(p).stem}", status="ingested", pages=10)
                for p in paths]

    def documents(self) -> list[Document]:
        return [Document(id=f"id-{Path(p).stem}", sha256="0" * 64, path=p, name=Path(p).stem, pages=10,
                         status="ready") for p in self.ingested]

    def _evidence(self) -> list[Evidence]:
        return [Evidence(chunk_id=0, doc_id="id-b", doc="b", page=60, modality="table", score=0.9, text="...")]

    def retrieve(self, question: str, scope: Any = None, k: int | None = None) -> Retrieval:
        self.asked.append(question)
        return Retrieval(question=question, evidence=self._evidence(), tier="table", scope=[], timings={})

    def ask(self, question: str, scope: Any = None, save: bool = True) -> Answer:
        self.asked.append(question)
        return Answer(question=question, text=self.answers.get(question, "no idea"), evidence=self._evidence(),
                      tier="table", refused=False, timings={"generate": 0.1}, tokens=5)


def test_a_paraphrase_run_is_scored_against_the_originals_gold(tmp_path: Path) -> None:
    for name in "abcd":
        (tmp_path / f"{name}.pdf").write_bytes(b"%PDF-1.4 fake")
    para = _paraphrase_file(tmp_path, [
        {"id": "fb2#p1", "of": "fb2", "kind": "measure", "question": "3M's FY2018 purchases of PP&E?"},
        {"id": "fb2#p2", "of": "fb2", "kind": "period", "question": "3M's capex in fiscal 2018?"},
        {"id": "fb2#p3", "of": "fb2", "kind": "order", "question": "For FY2018, 3M's capex was?"},
    ])
    records = load_records(_qa_file(tmp_path), paraphrases=para)
    engine = _Engine(Settings(data_dir=tmp_path / "data"), answers={
        "3M's FY2018 purchases of PP&E?": "Capital expenditure was $1,577 million.",
        "3M's capex in fiscal 2018?": "It was $1,577 million.",
        "For FY2018, 3M's capex was?": "It was $2,000 million.",
    })
    report = evaluate(engine, records, EvalOptions(), selection={"paraphrases": str(para)})
    assert engine.asked == [r.question for r in records]  # the paraphrase text is what is asked
    by_id = {q["id"]: q for q in report["questions"]}
    assert by_id["fb2#p1"]["correct"] and by_id["fb2#p2"]["correct"] and not by_id["fb2#p3"]["correct"]
    assert by_id["fb2#p1"]["paraphrase_of"] == "fb2" and by_id["fb2#p1"]["gold"] == "$1577.00"
    assert by_id["fb2#p1"]["recall"] == 1.0
    assert report["answer_accuracy"] == round(2 / 3, 4)
    assert report["by_paraphrase"]["order"]["answer_accuracy"] == 0.0
    assert report["by_paraphrase"]["measure"]["answer_accuracy"] == 1.0
    assert report["selection"] == {"paraphrases": str(para)}
    text = format_report(report)
    assert f"paraphrases={para}" in text and "\nperiod " in text
    # a run over the originals has no paraphrase breakdown
    assert "by_paraphrase" not in build_report(report["questions"][:0], EvalOptions())


def test_cli_eval_takes_paraphrases_and_a_half(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mfr_tui.cli import build_parser
    from mfr_tui.cli_eval import cmd_eval

    for name in "abcd":
        (tmp_path / f"{name}.pdf").write_bytes(b"%PDF-1.4 fake")
    para = _paraphrase_file(tmp_path, [
        {"id": "fb1#p1", "of": "fb1", "kind": "measure", "question": "What are Amazon's FY2017 net sales?"},
        {"id": "fb2#p1", "of": "fb2", "kind": "measure", "question": "What are 3M's FY2018 PP&E purchases?"},
    ])
    out = tmp_path / "report.json"
    args = build_parser().parse_args(["eval", str(_qa_file(tmp_path)), "--paraphrases", str(para), "--half",
                                      "check", "--out", str(out), "--quiet"])
    engine = _Engine(Settings(data_dir=tmp_path / "data"), answers={})
    assert cmd_eval(engine, args) == 0  # type: ignore[arg-type]
    report = json.loads(out.read_text())
    assert [q["id"] for q in report["questions"]] == ["fb2#p1"]  # 3M is in the check half, Amazon is not
    assert report["selection"] == {"paraphrases": str(para), "half": "check"}
    assert "half=check" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        build_parser().parse_args(["eval", "qa.jsonl", "--half", "dev"])


# --- the real paraphrase file against the dev set -------------------------------------------------------
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10}
_QUARTER = re.compile(r"(?<![A-Za-z])Q([1-4])\s*(?:'\s*((?:19|20)\d{2}|\d{2})|((?:19|20)\d{2}))?(?!\d)"
                      r"|\b(first|second|third|fourth) quarter\b", re.I)
_FISCAL_YEAR = re.compile(r"\bFY\s*'?((?:19|20)\d{2}|\d{2})(?!\d)", re.I)
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_SHORT_YEAR = re.compile(r"'(\d{2})(?!\d)")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _year(text: str) -> int:
    return int(text) if len(text) == 4 else 2000 + int(text)


def figures(text: str) -> tuple[set[int], set[int], Counter[str]]:
    """The years, quarters and other numbers (digits or number words) a question names; "FY22", "fiscal 2022"
    and "2022" are one year, "Q2" and "second quarter" one quarter ("Q22023" is Q2 of 2023)."""
    years: set[int] = set()
    quarters: set[int] = set()

    def quarter(m: re.Match[str]) -> str:
        quarters.add(int(m.group(1)) if m.group(1) else _ORDINAL[m.group(4).lower()])
        if m.group(2) or m.group(3):
            years.add(_year(m.group(2) or m.group(3)))
        return " "

    def year(m: re.Match[str]) -> str:
        years.add(_year(m.group(1)))
        return " "

    rest = _QUARTER.sub(quarter, text)
    rest = _FISCAL_YEAR.sub(year, rest)
    rest = _YEAR.sub(year, rest)
    rest = _SHORT_YEAR.sub(year, rest)
    numbers = Counter(_NUMBER.findall(rest))
    numbers.update(str(_NUMBER_WORDS[w]) for w in re.findall(r"[a-z]+", rest.lower()) if w in _NUMBER_WORDS)
    return years, quarters, numbers


def test_figures_reads_years_and_quarters_in_their_spellings() -> None:
    assert figures("Q2 of FY2024 vs FY 2023")[:2] == ({2023, 2024}, {2} )
    assert figures("the second quarter of fiscal 2024 and fiscal year 2023")[:2] == ({2023, 2024}, {2})
    assert figures("Q22023 year over year")[:2] == ({2023}, {2})
    assert figures("As of FY2023Q1, Q2'2023, FY20 and FY21")[:2] == ({2020, 2021, 2023}, {1, 2})
    assert figures("365 * (average payables) rounded to two decimal places, 3 year, roughly 2%")[2] == Counter(
        {"365": 1, "2": 2, "3": 1})


def _dev() -> list[dict[str, Any]]:
    return [json.loads(line) for line in (EVAL / "dev.jsonl").read_text(encoding="utf-8").splitlines() if line]


@pytest.mark.eval_data
@pytest.mark.skipif(not (EVAL / "dev.jsonl").exists(), reason="needs ../shared/data/eval")
def test_the_financebench_paraphrase_file_matches_the_dev_set() -> None:
    dev = {r["id"]: r for r in _dev()}
    rows = [json.loads(line) for line in PARAPHRASES.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert all(set(row) == {"id", "of", "kind", "question"} for row in rows)  # no gold, no evidence
    assert len(rows) == 204 and len({row["id"] for row in rows}) == 204
    assert all(row["of"] in dev for row in rows)
    kinds: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        kinds[row["of"]].append(row["kind"])
        n = PARAPHRASE_KINDS.index(row["kind"]) + 1
        assert row["id"] == f"{row['of']}#p{n}"
    financebench = {i for i, r in dev.items() if r["source"].startswith("financebench")}
    assert set(kinds) == financebench and len(financebench) == 68
    assert all(sorted(k) == sorted(PARAPHRASE_KINDS) for k in kinds.values())
    for row in rows:
        original = dev[row["of"]]["question"]
        assert row["question"].strip() and row["question"] != original
        years, quarters, numbers = figures(original)
        p_years, p_quarters, p_numbers = figures(row["question"])
        assert years <= p_years, (row["id"], "a year of the original is missing")
        assert quarters <= p_quarters, (row["id"], "a quarter of the original is missing")
        assert not numbers - p_numbers, (row["id"], "a number of the original is missing", numbers - p_numbers)


@pytest.mark.eval_data
@pytest.mark.skipif(not (EVAL / "dev.jsonl").exists(), reason="needs ../shared/data/eval")
def test_the_dev_split_is_balanced_for_financebench_and_consistent_across_sources() -> None:
    records = load_records(EVAL / "dev.jsonl")
    halves = {r.id: half_of(r.group) for r in records}
    by_company: dict[str, set[str]] = defaultdict(set)
    for r in records:
        by_company[company_key(r.group)].add(halves[r.id])
    assert all(len(h) == 1 for h in by_company.values())
    fb = [r for r in records if r.source == "financebench"]
    count = Counter(halves[r.id] for r in fb)
    companies = {h: {company_key(r.group) for r in fb if halves[r.id] == h} for h in HALVES}
    assert (count["tune"], count["check"]) == (32, 36)
    assert len(companies["tune"]) == len(companies["check"]) == 11
    # the filings MMLongBench-financial and Docugami share with FinanceBench sit in the same half
    shared = [r for r in records if r.source in {"mmlongbench_doc_financial", "docugami_sec10q"}
              and company_key(r.group) in companies["tune"] | companies["check"]]
    assert {company_key(r.group) for r in shared} >= {"AMAZON", "NIKE", "3M", "BESTBUY", "ACTIVISIONBLIZZARD"}
    assert all(halves[r.id] in {h for h in HALVES if company_key(r.group) in companies[h]} for r in shared)
    # every source has questions in both halves
    assert all({halves[r.id] for r in records if r.source == s} == set(HALVES) for s in {r.source for r in records})
    # the paraphrases split as their originals do
    para = load_records(EVAL / "dev.jsonl", paraphrases=PARAPHRASES)
    assert Counter(half_of(r.group) for r in para) == {"tune": 96, "check": 108}

"""Graded reading of free-text answers: kept per answer, shown beside the automatic score, a changed answer shown
as not graded with its last verdict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mfr_eval.evaluate import format_report
from mfr_eval.grading import UNGRADED, answer_key, attach, grade_lines, load_grades, main


def _report() -> dict:
    return {"n": 2, "questions": [
        {"id": "q1", "prediction": "The consumer segment shrank.", "quotes": [{"text": "Consumer fell 0.9%."}],
         "correct": False, "score": 0.2},
        {"id": "q2", "prediction": "Customer deposits.", "quotes": [], "correct": True, "score": 1.0},
    ]}


def test_a_grade_follows_its_answer_and_a_changed_answer_is_not_graded(tmp_path: Path) -> None:
    before = _report()
    path = tmp_path / "grades.jsonl"
    path.write_text("\n".join(grade_lines(before, {"q1": ("correct", "names the segment"),
                                                   "q2": ("wrong", "another line")}, "before")) + "\n")
    grades = load_grades(path)
    report = attach(_report(), grades, {"q1": "tune", "q2": "check"})
    assert report["questions"][0]["graded"]["verdict"] == "correct"
    assert report["graded"]["all"]["correct"] == 1 and report["graded"]["all"]["automatic_right"] == 1
    assert report["graded"]["tune"]["n"] == 1 and report["graded"]["check"]["wrong"] == 1
    # the same answer with other quotes is another answer: read again, the last verdict beside it
    after = _report()
    after["questions"][0]["quotes"] = [{"text": "Safety and Industrial grew."}]
    assert answer_key(after["questions"][0]) != answer_key(before["questions"][0])
    g = attach(after, grades)["questions"][0]["graded"]
    assert g["verdict"] == UNGRADED and g["previous"] == "correct"
    text = format_report({**after, "by_scorer": {}, "latency": {}})
    assert "graded reading (all, 2 free-text answers): correct 0" in text and "(was correct)" in text
    assert "auto right 1.00" in text  # the automatic score stays beside the reading


def test_a_bad_grades_line_is_an_error_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "grades.jsonl"
    path.write_text(json.dumps({"id": "q1", "key": "x", "verdict": "great"}) + "\n")
    with pytest.raises(ValueError, match="grades.jsonl:1: verdict 'great'"):
        load_grades(path)
    with pytest.raises(ValueError, match="verdict"):
        grade_lines(_report(), {"q1": ("maybe", "")}, "x")


def test_the_shipped_grades_file_reads() -> None:
    grades = load_grades(Path(__file__).resolve().parents[1] / "mfr_eval" / "graded" / "financebench_dev.jsonl")
    assert grades and all(g.verdict in {"correct", "partly", "wrong", "refused"} for gs in grades.values() for g in gs)


def test_command_prints_the_reading(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "r.json"
    report.write_text(json.dumps(_report()))
    grades = tmp_path / "g.jsonl"
    grades.write_text("\n".join(grade_lines(_report(), {"q2": ("correct", "ok")}, "r")) + "\n")
    assert main([str(report), "--grades", str(grades)]) == 0
    assert "q2" in capsys.readouterr().out

"""House rules checked in CI: the import contracts (engine/UI split, engine/evaluation split, screens and
app), lint, types, and a light `import engine`."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600)


def test_import_contracts() -> None:
    """Every import-linter contract of pyproject.toml is checked and kept: the engine never imports the UI or
    the evaluation harness, the UI no heavy model or PDF library, screens and widgets never the app."""
    contracts = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    names = [c["name"] for c in contracts["contracts"]]
    assert "The engine never imports the evaluation harness" in names
    res = run(str(BIN / "lint-imports"))
    assert res.returncode == 0, res.stdout + res.stderr
    outcomes = dict(re.findall(r"^(.+?) (KEPT|BROKEN)$", res.stdout, flags=re.MULTILINE))
    assert outcomes == dict.fromkeys(names, "KEPT"), res.stdout


def test_ruff_clean() -> None:
    res = run(str(BIN / "ruff"), "check", "engine", "mfr_eval", "mfr_tui", "tests", "benchmarks", "scripts")
    assert res.returncode == 0, res.stdout + res.stderr


@pytest.mark.slow
def test_mypy_engine() -> None:
    res = run(str(BIN / "mypy"), "engine", "mfr_eval")
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]


def test_import_engine_is_light() -> None:
    """`import engine` must not pull torch, llama_cpp, ultralytics or sentence_transformers."""
    code = (
        "import sys, engine; heavy = [m for m in ('torch', 'llama_cpp', 'ultralytics', 'sentence_transformers', "
        "'pdfplumber', 'usearch') if m in sys.modules]; print(','.join(heavy))"
    )
    res = run(sys.executable, "-c", code)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == ""


def test_the_answerer_only_orchestrates() -> None:
    """The answerer orchestrates (question, retrieval, cells, quotes, the model, checks): prompts, checks,
    computations, guards and verdicts each live in a module of their own, and it stays under 400 lines."""
    assert len((REPO / "engine" / "ask" / "answer.py").read_text(encoding="utf-8").splitlines()) < 400

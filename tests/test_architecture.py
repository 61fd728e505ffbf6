"""House rules checked in CI: the engine/UI import split, lint, types, and a light `import engine`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600)


def test_import_contracts() -> None:
    """engine never imports the UI; mfr_tui never imports heavy model or PDF libraries (pyproject.toml)."""
    res = run(str(BIN / "lint-imports"))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "2 kept, 0 broken" in res.stdout


def test_ruff_clean() -> None:
    res = run(str(BIN / "ruff"), "check", "engine", "mfr_tui", "tests", "benchmarks", "scripts")
    assert res.returncode == 0, res.stdout + res.stderr


@pytest.mark.slow
def test_mypy_engine() -> None:
    res = run(str(BIN / "mypy"), "engine")
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

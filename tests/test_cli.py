"""The headless CLI contract: ingest / library / remove / ask / models with --json, exit codes, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pdfgen import write_filing

from mfr_tui import cli


@pytest.fixture
def fake_cli(monkeypatch: pytest.MonkeyPatch, fake_models: dict) -> None:
    """Build the CLI's Engine with fake models (the real ones are covered by tests marked real_models)."""
    real_engine = cli.Engine

    def engine_with_fakes(settings):  # type: ignore[no-untyped-def]
        return real_engine(settings.with_(extract_workers=1), overrides=fake_models)

    monkeypatch.setattr(cli, "Engine", engine_with_fakes)


def run_json(capsys: pytest.CaptureFixture[str], argv: list[str], code: int = 0) -> object:
    assert cli.main(argv) == code
    return json.loads(capsys.readouterr().out)


def test_ingest_library_ask_remove(tmp_path: Path, capsys: pytest.CaptureFixture[str], fake_cli: None) -> None:
    folder = tmp_path / "filings"
    folder.mkdir()
    write_filing(folder / "acme_2023_10k.pdf")
    out = run_json(capsys, ["ingest", str(folder), "--json"])
    [res] = out["results"]  # type: ignore[index]
    assert res["ok"] and res["status"] == "ingested" and res["name"] == "acme_2023_10k"

    lib = run_json(capsys, ["library", "--json"])
    [doc] = lib["documents"]  # type: ignore[index]
    assert {"id", "name", "path", "pages", "status"} <= set(doc)
    assert doc["name"] == "acme_2023_10k" and doc["pages"] == 3

    ans = run_json(capsys, ["ask", "How much restricted cash?", "--doc", "acme_2023_10k", "--json"])
    assert isinstance(ans["answer"], str)  # type: ignore[index]
    ev = ans["evidence"]  # type: ignore[index]
    assert ev and ev[0]["doc"] == "acme_2023_10k" and ev[0]["page"] == 2
    assert {"tier", "citations", "checks", "refused"} <= set(ans)  # type: ignore[arg-type]

    ans_by_id = run_json(capsys, ["ask", "restricted cash", "--doc", doc["id"], "--json"])
    assert ans_by_id["evidence"][0]["doc"] == "acme_2023_10k"  # type: ignore[index]
    # plain output says how the question was read
    assert cli.main(["ask", "What was revenue in fiscal 2023?", "--doc", "acme_2023_10k"]) == 0
    assert "Read as: value · revenue · fiscal 2023" in capsys.readouterr().out

    assert cli.main(["remove", "acme_2023_10k"]) == 0
    capsys.readouterr()
    assert run_json(capsys, ["library", "--json"]) == {"documents": []}


def test_failed_file_gives_nonzero_exit(tmp_path: Path, capsys: pytest.CaptureFixture[str], fake_cli: None) -> None:
    bad = tmp_path / "notes.pdf"
    bad.write_text("not a pdf")
    good = write_filing(tmp_path / "good.pdf")
    out = run_json(capsys, ["ingest", str(bad), str(good), "--json"], code=1)
    results = out["results"]  # type: ignore[index]
    assert [r["ok"] for r in results] == [False, True]
    assert results[0]["error_title"] == "Not a PDF"


def test_unknown_document_is_a_clear_error(capsys: pytest.CaptureFixture[str], fake_cli: None) -> None:
    assert cli.main(["remove", "nothing-here"]) == 2
    err = capsys.readouterr().err
    assert "Unknown document" in err and "nothing-here" in err


def test_ask_on_empty_library_explains(capsys: pytest.CaptureFixture[str], fake_cli: None) -> None:
    assert cli.main(["ask", "What was revenue?"]) == 2
    assert "mfr-tui ingest" in capsys.readouterr().err


def test_settings_are_changed_with_set(capsys: pytest.CaptureFixture[str]) -> None:
    from engine.settings import Settings, with_overrides

    s = with_overrides(Settings(), ["fuse_parts=true", "top_k=7", "theta_text=0.5", "tier_escalation=count"])
    assert (s.fuse_parts, s.top_k, s.theta_text, s.tier_escalation) == (True, 7, 0.5, "count")
    assert cli.main(["--set", "top_kk=3", "library"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Unknown setting:") and "top_k" in err  # suggests the close name
    assert cli.main(["--set", "fuse_parts=maybe", "library"]) == 2
    assert "Bad setting value" in capsys.readouterr().err


def test_malformed_models_toml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "models.toml"
    bad.write_text("[profiles.default\n")
    assert cli.main(["--models-toml", str(bad), "models", "--json"]) == 2
    err = capsys.readouterr().err
    assert "models.toml malformed" in err and str(bad) in err


def test_models_json_reports_each_role_without_loading(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, ["models", "--json", "--no-load"], code=None or 0)
    roles = out["roles"]  # type: ignore[index]
    assert set(roles) == {"embedder", "llm", "vision", "detector", "ocr", "reranker"}
    for st in roles.values():
        assert {"ok", "path", "sha256", "detail"} <= set(st)
    assert roles["embedder"]["ok"] and len(roles["embedder"]["sha256"]) == 64
    threads = out["threads"]  # type: ignore[index]
    assert threads["llm"] >= 1 and threads["embedder"] + (threads["detector"] if threads["overlap"] else 0) \
        <= threads["physical"] <= threads["cpus"]

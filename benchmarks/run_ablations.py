"""Run ``mfr-tui eval`` on the dev set for each ablation, writing benchmarks/out/eval_<ablation>.json, then
regenerate the README's Results section.

    python benchmarks/run_ablations.py --data-dir DIR [--ablation default --ablation no-tiers ...]
        [-- extra mfr-tui eval arguments, e.g. --source parsee --limit 40 --retrieval-only]

Ablations that this build cannot run (a missing setting or model role) are reported and skipped. Runs resume:
questions already in an ablation's JSON are kept (``--resume``), so an interrupted suite picks up where it was.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from common import EVAL, OUT, ROOT


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1 :]
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data-dir", required=True, help="library to evaluate in (documents are ingested there)")
    ap.add_argument("--qa", type=Path, default=EVAL / "dev.jsonl")
    ap.add_argument("--ablation", action="append", help="ablations to run (default: all)")
    ap.add_argument("--no-readme", action="store_true", help="do not regenerate the README section")
    ap.add_argument("--suffix", default="", help="appended to the output names (eval_<ablation><suffix>.json)")
    args = ap.parse_args(argv)

    from mfr_eval.evaluate import ABLATIONS

    names = args.ablation or list(ABLATIONS)
    status = {}
    for name in names:
        out = OUT / f"eval_{name}{args.suffix}.json"
        cmd = [sys.executable, "-m", "mfr_tui.cli", "--data-dir", args.data_dir, "eval", str(args.qa),
               "--ablation", name, "--out", str(out), "--resume", *extra]
        print("$ " + " ".join(cmd), flush=True)
        rc = subprocess.call(cmd, cwd=ROOT)
        status[name] = rc
        if rc == 2:
            print(f"  {name}: not available in this build (see the message above); skipped", flush=True)
    print("ablations: " + ", ".join(f"{n} rc={rc}" for n, rc in status.items()))
    if not args.no_readme:
        subprocess.call([sys.executable, str(ROOT / "scripts" / "results_to_readme.py")], cwd=ROOT)
    return 0 if all(rc in (0, 2) for rc in status.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())

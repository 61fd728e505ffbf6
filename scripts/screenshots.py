"""Regenerate screenshots/*.svg from real app states, driven by Pilot against the fake engine.

    python scripts/screenshots.py [--out screenshots] [--size 100x30]

Nothing touches the user's data: the fake engine stores nothing and the states write no file.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fakes_engine import SHOWN_DATA_DIR, STATES, FakeEngine  # noqa: E402

from engine.settings import Settings  # noqa: E402
from mfr_tui.app import MfrApp  # noqa: E402


async def shoot(name: str, out: Path, size: tuple[int, int]) -> Path:
    settings = Settings(data_dir=SHOWN_DATA_DIR)
    app = MfrApp(settings, engine=FakeEngine(settings))
    async with app.run_test(size=size) as pilot:
        await STATES[name](pilot)
        await pilot.pause(0.1)
        return Path(app.save_screenshot(f"{name}.svg", str(out)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    parser.add_argument("--size", default="100x30", help="terminal size, WIDTHxHEIGHT")
    parser.add_argument("names", nargs="*", default=list(STATES), help=f"states ({', '.join(STATES)})")
    args = parser.parse_args()
    w, h = (int(x) for x in args.size.split("x"))
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.names:
        print(asyncio.run(shoot(name, args.out, (w, h))))


if __name__ == "__main__":
    main()

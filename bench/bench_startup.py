"""Start-up: what importing the engine costs, and the ``chinchon`` command
against a bare ``python -c pass`` (issue #10: at most 4x).

    .venv/bin/python bench/bench_startup.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 15
WEB = ("flask", "werkzeug", "jinja2", "sqlalchemy", "alembic", "wtforms", "babel", "flask_limiter", "limits")
CHINCHON = str(Path(sys.executable).parent / "chinchon")


def median_seconds(command: list[str]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    probe = "import sys, time; t = time.perf_counter(); import companion.rules; "
    probe += "print((time.perf_counter() - t) * 1000); "
    probe += f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({WEB!r})))"
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout.split("\n")
    print(f"import companion.rules: {float(out[0]):.1f} ms, web modules loaded: {out[1]}")
    bare = median_seconds([sys.executable, "-c", "pass"])
    cli = median_seconds([CHINCHON, "close", "11c", "11e", "11b", "5o", "6o", "7o", "3c", "12e"])
    print(
        f"python -c pass: {bare * 1000:.0f} ms; chinchon close: {cli * 1000:.0f} ms; ratio {cli / bare:.1f}x (target <= 4x)"
    )


if __name__ == "__main__":
    main()

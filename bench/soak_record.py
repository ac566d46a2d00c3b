"""Soak the match record: the stateful model test of tests/services/test_record_model.py
for longer than ``make test`` runs it.

    .venv/bin/python bench/soak_record.py --examples 500 --steps 80 --seed 1
    TEST_DATABASE_URL=postgresql+psycopg://... .venv/bin/python bench/soak_record.py

Prints the examples run, the steps taken, the time, and the failure (the
shrunk program of steps, unless ``--no-shrink``).  Exit status 1 on a failure.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from hypothesis import Phase, seed  # noqa: E402
from hypothesis.stateful import run_state_machine_as_test  # noqa: E402

from companion import create_app  # noqa: E402
from companion.extensions import db  # noqa: E402
from tests.services import test_record_model as model  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=200, help="random programs to run (default 200)")
    parser.add_argument("--steps", type=int, default=80, help="steps per program at most (default 80)")
    parser.add_argument("--seed", type=int, default=None, help="a seed, to run the same programs again")
    parser.add_argument("--no-shrink", action="store_true", help="report the first failure as found")
    parser.add_argument("--database", default=os.environ.get("TEST_DATABASE_URL"), help="default: a fresh SQLite file")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        url = args.database or f"sqlite:///{os.path.join(tmp, 'soak.sqlite')}"
        app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "soak"})
        counts = {"examples": 0, "steps": 0}

        class Counted(model.RecordMachine):
            def __init__(self) -> None:
                counts["examples"] += 1
                super().__init__()

            # The invariant runs once after the start and once after every step.
            @model.invariant()
            def the_record_replays(self):
                counts["steps"] += 1
                super().the_record_replays()

        factory = Counted if args.seed is None else seed(args.seed)(Counted)
        extra = {"database": None}
        if args.no_shrink:
            extra["phases"] = [Phase.explicit, Phase.generate]
        started = time.monotonic()
        failure = None
        with app.app_context():
            db.create_all()
            try:
                run_state_machine_as_test(
                    factory, settings=model.machine_settings(examples=args.examples, steps=args.steps, **extra)
                )
            except Exception:  # report whatever broke, with the program hypothesis printed above
                failure = traceback.format_exc()
            finally:
                db.session.remove()
                db.drop_all()
                db.engine.dispose()
        elapsed = time.monotonic() - started
        print(
            f"examples run: {counts['examples']}, steps: {counts['steps'] - counts['examples']}, "
            f"time: {elapsed:.1f} s, seed: {args.seed}, database: {url.split('@')[-1]}"
        )
        for (step, outcome), n in sorted(model.STATS.items()):
            print(f"  {step:<45} {outcome:<16} {n:>7}")
        if failure:
            print("FAILURE:\n" + failure)
            return 1
        print("no failure")
        return 0


if __name__ == "__main__":
    sys.exit(main())

"""Server time to render the forms that offer every house rule (issue #23):
the new table, the digital game and the group, in two languages.

    .venv/bin/python bench/bench_forms.py [--runs 50]

Prints the median milliseconds per GET (in-process, Flask's test client) and
the page's size in bytes.
"""

from __future__ import annotations

import argparse
import statistics
import time

from companion import create_app
from companion.extensions import db

PAGES = ("/tables/new", "/play/new", "/groups/new")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=50)
    runs = parser.parse_args().runs
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "bench"})
    with app.app_context():
        db.create_all()
    client = app.test_client()
    print(f"{'page':14} {'lang':5} {'median ms':>10} {'bytes':>8}")
    for lang in ("en", "es_AR"):
        client.set_cookie("lang", lang)
        for path in PAGES:
            size = len(client.get(path).get_data())  # warm: templates compiled, caches filled
            times = []
            for _ in range(runs):
                start = time.perf_counter()
                client.get(path)
                times.append(time.perf_counter() - start)
            print(f"{path:14} {lang:5} {statistics.median(times) * 1000:10.1f} {size:8}")


if __name__ == "__main__":
    main()

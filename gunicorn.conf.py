"""gunicorn reads this file from the directory it starts in (README, production)."""

import gc

#: Requests a worker answers before it counts as warm (templates compiled,
#: statement and catalogue caches filled).
WARM_AFTER = 50


def post_worker_init(worker):
    """The app is loaded: keep its long-lived objects out of the collector's
    full passes, which otherwise walk all of them every few requests."""
    gc.freeze()
    worker.answered = 0


def post_request(worker, req, environ, resp):
    """Once warm, freeze again: the caches filled by the first requests
    (some 160 ms a full pass under a 64-table dashboard, 25 ms once frozen:
    bench/bench_tournament.py) join the frozen objects."""
    worker.answered = getattr(worker, "answered", 0) + 1
    if worker.answered == WARM_AFTER:
        gc.freeze()

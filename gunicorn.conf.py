"""gunicorn reads this file from the directory it starts in (README, production).

The master forks every worker, at start and at each reload (SIGHUP, a new
release).  It holds the third-party libraries the app imports, loaded once
here, so a worker forked at a reload serves within a fraction of a second:
gunicorn stops the old workers as soon as the new ones are forked, and
requests wait in the socket's queue until a new one is ready.  It never
holds the app's own code (the logger class, ``web/gunicorn_logger.py``,
needs the standard library only): each worker imports the release it runs,
so a reload serves the new code whole, never old modules beside new ones.

The master stays single-threaded when it forks: no control socket (its
asyncio thread is stopped and started around every fork; we do not use
``gunicornc``, and its default path is shared by every gunicorn on the
machine).  No ``gc.freeze()`` hooks (under reloads they multiplied worker
crashes, #37).

The collector runs less often than Python's default (``GC_THRESHOLDS``, set
here and inherited by every worker).  With the default, a young collection
every 700 allocations promoted the objects a page was still using (the ORM's
rows, a template's context) into the oldest generation; every few seconds
one worker then walked its whole heap, 100-300 ms in which both its threads
stood still: the club night's slowest walls and dashboards.  At 20 000
those objects are freed before a collection sees them, and the full
collections stop (``bench/club_night.py --tournament``; the README has the
figures).
"""

import gc
import importlib

control_socket_disable = True

#: What every worker imports before the app's own modules (0.9 s of a
#: worker's 1.1 s start on the benchmark machine).
LIBRARIES = (
    "flask",
    "flask_babel",
    "flask_compress",
    "flask_limiter",
    "flask_migrate",
    "flask_sqlalchemy",
    "flask_wtf",
    "jinja2",
    "psycopg",
    "redis",
    "segno",
    "sqlalchemy.orm",
    "wtforms",
)
for _name in LIBRARIES:
    importlib.import_module(_name)

#: The collector's thresholds (Python's: 700, 10, 10), for the master and every worker it forks.
GC_THRESHOLDS = (20_000, 20, 20)
gc.set_threshold(*GC_THRESHOLDS)

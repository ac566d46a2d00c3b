"""One phone following a scoreboard, timed from a process of its own.

    python bench/probe.py http://127.0.0.1:8000/t/<link> 60   # poll for 60 s, print JSON

``bench/club_night.py`` runs it beside the load generator: locust answers
every phone from one process, so under a heavy night its own event loop adds
to the times it measures.  This probe polls like a phone (``?since=``, every
0.5 s, one kept-alive connection) with the standard library and no other
work, so the server's share of a poll's time can be told from the client's.
Prints ``{"204": [ms, ...], "200": [ms, ...]}``.
"""

from __future__ import annotations

import http.client
import json
import re
import sys
import time
from urllib.parse import urlsplit

SINCE = re.compile(r'id="board" hx-get="[^"]*since=(\d+)')


def main(url: str, seconds: float) -> None:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    times: dict[str, list[float]] = {"204": [], "200": []}
    since = ""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        began = time.perf_counter()
        connection.request("GET", parts.path + (f"?since={since}" if since else ""))
        response = connection.getresponse()
        body = response.read().decode()
        took = (time.perf_counter() - began) * 1000
        if response.status == 200 and (found := SINCE.search(body)):
            if since:
                times["200"].append(took)
            since = found[1]
        elif response.status == 204:
            times["204"].append(took)
        time.sleep(max(0.0, 0.5 - took / 1000))
    print(json.dumps(times))


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]))

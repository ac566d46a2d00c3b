"""Every text answer compressed, brotli or gzip as ``Accept-Encoding`` asks.

Pages, htmx fragments, JSON, the service worker and the manifest are
compressed per answer by Flask-Compress (brotli at a fast level: a page is a
few milliseconds of work); refusals (4xx), which it leaves alone, here.  Static files never change under their hashed URL,
so each is compressed once, at the slowest and smallest level, the first time
it is asked for, and that copy is served from then on (derived from the file
on disk: every worker may hold its own, nothing to keep in step).
"""

from __future__ import annotations

import gzip
from functools import lru_cache
from pathlib import Path

import brotli
from flask import Flask, Response, request
from flask_compress import Compress

#: Text types worth compressing; images other than SVG are compressed already.
MIMETYPES = [
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "image/svg+xml",
    "text/csv",
    "text/plain",
]

compress = Compress()
#: Ours first when the client weighs them alike; a q of 0 refuses one.
ENCODINGS = ["br", "gzip"]


def init_app(app: Flask) -> None:
    """Register after every other ``after_request`` hook has been (so the
    answer is complete when it is compressed)."""
    app.config.setdefault("COMPRESS_ALGORITHM", ENCODINGS)
    app.config.setdefault("COMPRESS_MIMETYPES", MIMETYPES)
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    app.config.setdefault("COMPRESS_LEVEL", 6)
    app.config.setdefault("COMPRESS_MIN_SIZE", 300)

    @app.after_request
    def refusals(response: Response) -> Response:
        """Flask-Compress leaves non-2xx answers alone; a refused form's page
        (400, 409, 429: the whole form again, ready to send) is as large as
        the form.  Runs after Flask-Compress (registered before it)."""
        if (
            400 <= response.status_code < 500
            and response.mimetype in MIMETYPES
            and "Content-Encoding" not in response.headers
            and not response.direct_passthrough
            and not response.is_streamed
        ):
            encoding = request.accept_encodings.best_match(ENCODINGS)
            data = response.get_data()
            if encoding is not None and len(data) >= app.config["COMPRESS_MIN_SIZE"]:
                if encoding == "br":
                    packed = brotli.compress(data, quality=app.config["COMPRESS_BR_LEVEL"])
                else:
                    packed = gzip.compress(data, compresslevel=app.config["COMPRESS_LEVEL"], mtime=0)
                response.set_data(packed)
                response.headers["Content-Encoding"] = encoding
            response.vary.add("Accept-Encoding")
        return response

    compress.init_app(app)
    folder = Path(app.static_folder or "")

    @app.after_request
    def precompressed_static(response: Response) -> Response:
        """Runs before Flask-Compress (hooks run last-registered first), which
        leaves an answer alone once it has a Content-Encoding."""
        if (
            request.endpoint != "static"
            or response.status_code != 200
            or response.mimetype not in MIMETYPES
            or "Range" in request.headers
        ):
            return response
        encoding = request.accept_encodings.best_match(ENCODINGS)
        if encoding is None:
            return response
        path = (folder / (request.view_args or {}).get("filename", "")).resolve()
        body = compressed(str(path), path.stat().st_mtime_ns, encoding)
        response.close()  # the file it was about to stream
        response.direct_passthrough = False
        response.set_data(body)
        response.headers["Content-Encoding"] = encoding
        response.vary.add("Accept-Encoding")
        return response


@lru_cache(maxsize=64)
def compressed(path: str, _mtime: int, encoding: str) -> bytes:
    """The file at ``path`` compressed at the best level (kept per file version)."""
    data = Path(path).read_bytes()
    if encoding == "br":
        return brotli.compress(data, quality=11)
    return gzip.compress(data, compresslevel=9, mtime=0)

"""QR codes of links, as standalone SVG files."""

from __future__ import annotations

import io

import segno
from flask import Response


def qr_response(url: str) -> Response:
    """The QR code of ``url`` as an SVG file with its namespace: an inline
    fragment (no ``xmlns``) shows as its alt text in an ``<img>``."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=5, dark="#000", light="#fff", xmldecl=False)
    return Response(out.getvalue(), mimetype="image/svg+xml")

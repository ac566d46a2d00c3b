"""Chinchón companion: a table companion web app over a pure-Python rules engine.

The package stays light so that ``import companion.rules`` (the engine, the
``chinchon`` command, the computer players) loads no web library; the web
app is built by :func:`create_app` in :mod:`companion.app`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the web app (``flask --app companion``, ``gunicorn 'companion:create_app()'``)."""
    from .app import create_app as build

    return build(test_config)

"""Errors raised by the rules engine.

Every error is a ``ValueError`` that knows which input field it is about (a
JSON path such as ``cards[2]`` or ``rules.jokers``), so any front end can put
the message next to the right field.  ``code`` and ``params`` let a front end
translate the sentence instead of showing the English ``str(error)``.
"""

from __future__ import annotations

from typing import Any


class ChinchonError(ValueError):
    """Bad input for the engine: ``field`` names it, ``str(self)`` explains it."""

    code = "error"
    #: Further problems found at once with the same input, each at its own
    #: field (a form names every mistake together, not one per try).
    also: tuple[ChinchonError, ...] = ()

    def __init__(self, message: str, field: str = "", **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.params = params

    def at(self, field: str) -> ChinchonError:
        """The same error, reported against another field path."""
        return type(self)(self.message, field, **self.params)


class CardError(ChinchonError):
    """A card token that is unknown, not in the deck or used too often."""

    code = "card"


class CountError(ChinchonError):
    """A hand or card list with the wrong number of cards or players."""

    code = "count"


class RulesError(ChinchonError):
    """An unknown preset or option, or a bad option value."""

    code = "rules"


class MatchError(ChinchonError):
    """A match event that breaks the rules (out player scoring, late re-entry...)."""

    code = "match"

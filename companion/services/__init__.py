"""The match record: the only code that writes, Flask-free.

Every write is one service call inside :func:`companion.services.unit.transaction`
(submission id, rules, version claim); a refusal is a coded
:class:`~companion.services.unit.ServiceError` that ``companion/web/messages.py`` words.
What may happen next at a table is decided in one place, :mod:`.nextstep`.
"""

from . import summary  # noqa: F401  (registers the tables' summaries with the unit of work)

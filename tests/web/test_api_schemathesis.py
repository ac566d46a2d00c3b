"""Schemathesis, driven by the API's own OpenAPI document (issue #18).

Every operation the document lists is called with the documented examples,
with the schema's boundary values (coverage phase) and with generated bodies
both valid and invalid (fuzzing phase).  Each answer must not be a 5xx, must
match the document (status, content type, headers, schema), every invalid
body must be refused, and every 400 must be the ``{error, field}`` shape with
a sentence and the path of the bad input.  Shapes it ever found are kept as
plain tests in ``test_api_hostile.py``.

Bounded for a small shared machine: ``SCHEMATHESIS_MAX_EXAMPLES`` (default 60)
examples per operation in the fuzzing phase; deterministic, so a failure is
reproducible.
"""

from __future__ import annotations

import os

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import Config
from schemathesis.checks import CheckContext
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from companion import create_app
from companion.api.openapi import ENDPOINTS

MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "60"))

CONFIG = Config.from_dict(
    {
        "seed": 2026,
        "generation": {"mode": "all", "max-examples": MAX_EXAMPLES, "deterministic": True, "allow-x00": True},
        "phases": {
            "examples": {"enabled": True},
            "coverage": {"enabled": True},
            "fuzzing": {"enabled": True},
            "stateful": {"enabled": False},
        },
    }
)


def _app():
    """The app under test, built at import: schemathesis needs the document
    to generate the tests.  The API stores nothing; the database is the
    run's own (PostgreSQL when ``TEST_DATABASE_URL`` names it)."""
    url = os.environ.get("TEST_DATABASE_URL") or "sqlite://"
    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "WTF_CSRF_ENABLED": True})


schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", _app(), config=CONFIG)


def bad_input_is_a_sentence_at_a_field(ctx: CheckContext, response, case) -> bool | None:
    """A 400 names the bad input's path and says what is wrong in a sentence."""
    if response.status_code != 400:
        return None
    data = response.json()
    assert isinstance(data, dict) and set(data) == {"error", "field"}, data
    assert isinstance(data["field"], str) and data["field"], f"400 without a field: {data}"
    error = data["error"]
    assert isinstance(error, str) and 10 <= len(error) <= 300 and error.rstrip(")").endswith("."), error
    return True


def never_a_server_error(ctx: CheckContext, response, case) -> bool | None:
    assert response.status_code < 500, f"{response.status_code}: {response.text[:500]}"
    return True


CHECKS = [
    never_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
    bad_input_is_a_sentence_at_a_field,
]


def test_every_operation_is_fuzzed():
    operations = {(op.method.lower(), op.path) for op in (r.ok() for r in schema.get_all_operations())}
    assert operations == {(e.method, e.path) for e in ENDPOINTS}


@schema.parametrize()
@settings(deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_keeps_its_contract(case):
    # Over WSGI nothing decodes a compressed body (an HTTP client would):
    # ask for it plain.  tests/web/test_compression.py covers the encodings.
    case.call_and_validate(checks=CHECKS, headers={"Accept-Encoding": "identity"})

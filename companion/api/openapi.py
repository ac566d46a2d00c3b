"""The API's published contract: an OpenAPI 3.1 document built from data.

The document is made from :data:`ENDPOINTS` (one :class:`Endpoint` per
operation, each with its example) and from the engine's option table
(``companion.rules.variants.OPTIONS``), never written by hand: a new rules
option or a new endpoint appears in it without touching this module's code.

Adding an endpoint (say ``POST /api/v1/advice`` in ``companion/api/advice.py``)
is one call next to its view::

    from .openapi import Endpoint, Example, add

    add(Endpoint("post", "/advice", "advice", "Advice for a hand", "…",
                 request=obj({"rules": ref("Rules"), "cards": cards(8, 8)}, required=["cards"]),
                 response=obj({...}),
                 example=Example(request={...}, response={...})))

and the document, the docs page, the example test and the schemathesis run
all pick it up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rules import PRESETS
from ..rules.variants import OPTIONS, Option
from .http import API_VERSION

#: A card token as the API accepts it (SPEC §1): canonical (``12c``), suit
#: symbols (``12♥``), letters for the ace and courts (``Rc``), the joker;
#: case-insensitive, surrounding spaces ignored.  Published in the OpenAPI
#: document and checked here before the engine parses the card, so the
#: document and the API accept exactly the same strings.
CARD_PATTERN = (
    r"^[ \t\r\n]*(\*|[Jj][Oo][Kk][Ee][Rr]|[Jj][Kk]|[Cc][Oo][Mm][Oo][Dd][IiÍí][Nn]"
    r"|([0-9]{1,2}|[AaJjBbSsQqDdCcKkRr])[OoCcEeBb♦♢♥♡♠♤♣♧])[ \t\r\n]*$"
)

#: The canonical card token every answer uses (SPEC §1).
CARD_OUT_PATTERN = r"^(\*|(1[0-3]|[1-9])[oceb])$"
JSON = "application/json"


@dataclass(frozen=True, slots=True)
class Example:
    """One request and the exact answer the API gives to it (checked by a test)."""

    request: dict[str, Any] | None
    response: Any
    summary: str = ""


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One operation of the API, as the document publishes it."""

    method: str  # "get" or "post"
    path: str  # under /api/v1, e.g. "/melds"
    operation_id: str
    summary: str
    description: str
    response: dict[str, Any]  # JSON Schema of the 200 answer
    request: dict[str, Any] | None = None  # JSON Schema of the body (POST)
    example: Example | None = None
    etag: bool = False  # answers carry an ETag and honour If-None-Match (304)


#: Every operation, in the order the docs list them.
ENDPOINTS: list[Endpoint] = []


def add(endpoint: Endpoint) -> Endpoint:
    """Publish one more operation (its view is registered on the blueprint as usual)."""
    if any(e.method == endpoint.method and e.path == endpoint.path for e in ENDPOINTS):
        raise ValueError(f"{endpoint.method.upper()} {endpoint.path} is already published")
    ENDPOINTS.append(endpoint)
    return endpoint


# -- schema helpers (also for endpoint modules) ------------------------------------
def ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema, or null (an optional field given as null counts as absent)."""
    return {"anyOf": [schema, {"type": "null"}]}


def obj(properties: dict[str, Any], required: list[str] | None = None, closed: bool = False) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    if closed:
        schema["additionalProperties"] = False
    return schema


def cards(low: int, high: int, description: str = "") -> dict[str, Any]:
    """A list of ``low``–``high`` input card tokens."""
    schema: dict[str, Any] = {"type": "array", "items": ref("Card"), "minItems": low, "maxItems": high}
    if description:
        schema["description"] = description
    return schema


def cards_out() -> dict[str, Any]:
    return {"type": "array", "items": ref("CardOut")}


def melds_out() -> dict[str, Any]:
    return {"type": "array", "items": cards_out(), "description": "Each meld's cards, canonical tokens."}


def strings() -> dict[str, Any]:
    return {"type": "array", "items": {"type": "string"}}


# -- the rules options, from the engine's table ---------------------------------------
def _bounded(kind: str, option: Option) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": kind}
    if option.low is not None:
        schema["minimum"] = option.low
    if option.high is not None:
        schema["maximum"] = option.high
    return schema


def option_schema(option: Option, *, resolved: bool = False) -> dict[str, Any]:
    """The JSON Schema of one option: as a request may give it, or (``resolved``)
    as ``/presets`` answers it."""
    variants: list[dict[str, Any]]
    match option.kind:
        case "bool":
            variants = [{"type": "boolean"}]
        case "choice":
            variants = [{"type": "string", "enum": list(option.words)}]
        case "int":
            variants = [_bounded("integer", option)]
            if option.words:
                variants.append({"type": "string", "enum": list(option.words)})
        case "cards":
            variants = [{"type": "array", "items": ref("CardOut" if resolved else "Card"), "maxItems": option.high}]
        case "ints":
            low, high = option.length
            variants = [{"type": "array", "items": _bounded("integer", option), "minItems": low, "maxItems": high}]
        case "money":
            variants = [_bounded("number", option)]
            if not resolved:
                variants.append({"type": "string", "pattern": option.pattern})
        case _:  # pragma: no cover - a new kind must be taught here
            raise ValueError(f"no schema for option kind {option.kind!r}")
    if option.nullable or not resolved:
        variants.append({"type": "null"})
    schema: dict[str, Any] = variants[0] if len(variants) == 1 else {"anyOf": variants}
    null_means = "null means no limit" if option.nullable else "null keeps the preset's value"
    text = f"{option.doc} Takes {option.expected()}."
    schema["description"] = text if resolved else f"{text} ({null_means}.)"
    return schema


def rules_schema() -> dict[str, Any]:
    properties: dict[str, Any] = {
        "preset": {
            "anyOf": [{"type": "string", "enum": list(PRESETS)}, {"type": "null"}],
            "description": "The preset the options override (null or absent: classic).",
        }
    }
    properties |= {name: option_schema(option) for name, option in OPTIONS.items()}
    schema = obj(properties, closed=True)
    schema["description"] = (
        'A preset and overrides, e.g. {"preset": "classic", "jokers": 2}. Unknown options are a 400.'
    )
    return schema


def resolved_rules_schema() -> dict[str, Any]:
    properties = {name: option_schema(option, resolved=True) for name, option in OPTIONS.items()}
    return obj(properties, required=list(OPTIONS), closed=True)


# -- the document ----------------------------------------------------------------------
def _components() -> dict[str, Any]:
    return {
        "schemas": {
            "Card": {
                "type": "string",
                "pattern": CARD_PATTERN,
                "description": "A card: rank and suit letter (o c e b) or symbol (♦ ♥ ♠ ♣), letters A J/B/S Q/D/C "
                "K/R for the ace and courts, * for a joker; case and surrounding spaces are ignored.",
                "examples": ["5o", "12c", "R♥", "*"],
            },
            "CardOut": {
                "type": "string",
                "pattern": CARD_OUT_PATTERN,
                "description": "A canonical card token: rank 1–13 and suit letter o c e b, or * for a joker.",
            },
            "Rules": nullable(rules_schema()),
            "ResolvedRules": resolved_rules_schema(),
            "Error": {
                "type": "object",
                "properties": {
                    "error": {"type": "string", "minLength": 1, "description": "What is wrong, in one sentence."},
                    "field": {
                        "type": "string",
                        "description": 'The path of the bad input, e.g. "cards[2]", "rules.jokers", "events[1]", '
                        '"body"; empty when no one field is at fault.',
                    },
                },
                "required": ["error", "field"],
                "additionalProperties": False,
            },
        },
        "headers": {
            "X-API-Version": {
                "description": "The API contract's version.",
                "required": True,
                "schema": {"type": "string", "const": API_VERSION},
            },
            "ETag": {
                "description": "A strong validator; send it back as If-None-Match.",
                "required": True,
                "schema": {"type": "string"},
            },
        },
        "responses": {
            "BadInput": _error("Bad input: the sentence says why, the field says where."),
            "TooLarge": _error("The body is over the size limit (MAX_CONTENT_LENGTH, 64 KiB by default)."),
            "TooMany": _error("Over the rate limit (RATE_LIMIT_API, 120 a minute by default); retry later."),
        },
    }


def _error(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "headers": {"X-API-Version": {"$ref": "#/components/headers/X-API-Version"}},
        "content": {JSON: {"schema": ref("Error")}},
    }


def _operation(endpoint: Endpoint) -> dict[str, Any]:
    version = {"X-API-Version": {"$ref": "#/components/headers/X-API-Version"}}
    ok: dict[str, Any] = {
        "description": "The engine's answer.",
        "headers": version | ({"ETag": {"$ref": "#/components/headers/ETag"}} if endpoint.etag else {}),
        "content": {JSON: {"schema": endpoint.response}},
    }
    operation: dict[str, Any] = {
        "operationId": endpoint.operation_id,
        "summary": endpoint.summary,
        "description": endpoint.description,
        "responses": {"200": ok},
    }
    example = endpoint.example
    if example is not None:
        ok["content"][JSON]["examples"] = {"example": {"summary": example.summary, "value": example.response}}
    if endpoint.request is not None:
        body: dict[str, Any] = {"schema": endpoint.request}
        if example is not None and example.request is not None:
            body["examples"] = {"example": {"summary": example.summary, "value": example.request}}
        operation["requestBody"] = {"required": True, "content": {JSON: body}}
        operation["responses"]["400"] = {"$ref": "#/components/responses/BadInput"}
        operation["responses"]["413"] = {"$ref": "#/components/responses/TooLarge"}
    if endpoint.etag:
        operation["parameters"] = [
            {
                "name": "If-None-Match",
                "in": "header",
                "required": False,
                "schema": {"type": "string"},
                "description": "The ETag of an earlier answer: 304 if nothing changed.",
            }
        ]
        operation["responses"]["304"] = {"description": "Not modified since the ETag given.", "headers": version}
    operation["responses"]["429"] = {"$ref": "#/components/responses/TooMany"}
    return operation


DESCRIPTION = """\
Stateless referee for the card game Chinchón: it stores nothing and needs no
login or CSRF token.  Cards in answers are canonical tokens (`5o`, `12c`, `*`).

Every bad input answers **400** with `{"error": sentence, "field": path}`; a
body over the size limit answers **413** and too many requests **429**, in the
same shape.  Answers are `application/json; charset=utf-8` and carry
`X-API-Version`.  Browsers on other sites may call the API only from the
origins the server's `API_CORS_ORIGINS` setting names (none by default).
"""


def document() -> dict[str, Any]:
    """The whole OpenAPI 3.1 document."""
    paths: dict[str, Any] = {}
    for endpoint in ENDPOINTS:
        paths.setdefault(endpoint.path, {})[endpoint.method] = _operation(endpoint)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Chinchon referee API",  # plain ASCII: client generators make a package name of it
            "version": API_VERSION,
            "description": DESCRIPTION,
        },
        "servers": [{"url": "/api/v1"}],
        "paths": paths,
        "components": _components(),
    }

"""Routes serving the contract: the OpenAPI document and its readable page.

The page is rendered on the server from the same document (no script, no
CDN), so what people read is what machines get.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask import Response, render_template, url_for

from . import bp, contract, examples  # noqa: F401  (contract publishes the endpoints)
from .http import cached_json
from .openapi import document

NAMES = {"Card": "card", "CardOut": "card", "Rules": "rules object", "ResolvedRules": "rules object"}


def describe(schema: dict[str, Any]) -> str:
    """A short reading of a JSON Schema: "list of 1–8 card", "integer 0–7 or null"."""
    if "$ref" in schema:
        return NAMES.get(schema["$ref"].rsplit("/", 1)[1], "object")
    if "anyOf" in schema or "oneOf" in schema:
        return " or ".join(dict.fromkeys(describe(s) for s in schema.get("anyOf", schema.get("oneOf", []))))
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(describe({**schema, "type": k}) for k in kind)
    if "enum" in schema:
        return " | ".join(json.dumps(v, ensure_ascii=False) for v in schema["enum"])
    if kind == "array":
        low, high = schema.get("minItems"), schema.get("maxItems")
        count = f"{low}–{high} " if low is not None and high is not None else f"up to {high} " if high else ""
        item = describe(schema.get("items", {}))
        return f"list of {count}{item}s" if item in ("card", "string", "integer") else f"list of {count}{item}"
    if kind in ("integer", "number") and ("minimum" in schema or "maximum" in schema):
        return f"{kind} {schema.get('minimum', '…')}–{schema.get('maximum', '…')}"
    if kind == "string" and "pattern" in schema:
        return "text"
    if kind == "object" and "properties" in schema:
        return "{" + ", ".join(schema["properties"]) + "}"
    return str(kind or "any")


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    type: str
    required: bool
    description: str


@dataclass(frozen=True, slots=True)
class Operation:
    method: str
    path: str
    anchor: str
    summary: str
    description: str
    fields: list[Field]
    example: str
    request: str | None
    response: str
    statuses: list[str]


def pretty(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


def operations(spec: dict[str, Any]) -> list[Operation]:
    base = spec["servers"][0]["url"]
    out = []
    for path, item in spec["paths"].items():
        for method, op in item.items():
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            schema = body.get("schema", {})
            required = set(schema.get("required", []))
            fields = [
                Field(name, describe(s), name in required, s.get("description", ""))
                for name, s in schema.get("properties", {}).items()
            ]
            answer = op["responses"]["200"]["content"]["application/json"]["examples"]["example"]
            out.append(
                Operation(
                    method=method.upper(),
                    path=base + path,
                    anchor=op["operationId"],
                    summary=op["summary"],
                    description=op["description"],
                    fields=fields,
                    example=answer["summary"],
                    request=pretty(body["examples"]["example"]["value"]) if "examples" in body else None,
                    response=pretty(answer["value"]),
                    statuses=sorted(op["responses"]),
                )
            )
    return out


@bp.get("/openapi.json")
def openapi_json() -> Response:
    return cached_json(document())


@bp.get("/docs")
def docs() -> str:
    spec = document()
    rules = spec["components"]["schemas"]["Rules"]["anyOf"][0]["properties"]
    options = [(name, describe(s), s.get("description", "")) for name, s in rules.items()]
    error = examples.ERROR
    return render_template(
        "api/docs.html",
        spec=spec,
        operations=operations(spec),
        options=options,
        error_request=f"POST {url_for('api.melds')}\n{pretty(error.request)}",
        rules_example=json.dumps({"preset": "classic", "jokers": 2}),
        error_answer=pretty(error.response),
    )

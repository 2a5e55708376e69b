"""The OpenAPI 3.1 document, built from the route table and the pydantic models.

Every route carries a `Doc` keyed by its name; `build` refuses a route without
one, so an undocumented operation fails start-up and the test suite, not a user.
Security, the required scope and the `Idempotency-Key` header come from the
route's declared policy (`service.routing`), the same one the middleware enforce.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel
from starlette.routing import BaseRoute, Route

from service.routing import Access, Policy, Replay, declared

PROBLEM = "application/problem+json"


@dataclass(frozen=True)
class Param:
    name: str
    where: str = "query"
    schema: Mapping[str, Any] = field(default_factory=lambda: {"type": "string"})
    description: str = ""
    required: bool = False


@dataclass(frozen=True)
class Doc:
    summary: str
    tag: str
    description: str = ""
    body: type[BaseModel] | Mapping[str, Any] | None = None
    body_media_types: tuple[str, ...] = ("application/json",)
    responses: Mapping[int, type[BaseModel] | Mapping[str, Any] | str | None] = field(
        default_factory=dict
    )
    params: tuple[Param, ...] = ()
    errors: tuple[int, ...] = ()


LIMIT = Param("limit", schema={"type": "integer", "minimum": 1, "maximum": 500, "default": 50})
CURSOR = Param("cursor", description="`next_cursor` of the previous page")
PAGING = (LIMIT, CURSOR)
COMMON_ERRORS = (400, 401, 403, 429, 503)
_PATH_PARAM = re.compile(r"\{([a-z_]+)(?::[a-z]+)?\}")


class UndocumentedRoute(RuntimeError):
    pass


class _Schemas:
    def __init__(self) -> None:
        self.components: dict[str, Any] = {"Problem": _problem_schema()}

    def ref(self, model: type[BaseModel] | Mapping[str, Any]) -> Mapping[str, Any]:
        if not isinstance(model, type):
            return model
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
        self.components.update(schema.pop("$defs", {}))
        self.components[model.__name__] = schema
        return {"$ref": f"#/components/schemas/{model.__name__}"}


def build(
    routes: Iterable[BaseRoute], docs: Mapping[str, Doc], info: Mapping[str, Any]
) -> dict[str, Any]:
    schemas = _Schemas()
    paths: dict[str, dict[str, Any]] = {}
    for route in routes:
        if not isinstance(route, Route) or not route.include_in_schema:
            continue
        doc = docs.get(route.name)
        if doc is None:
            raise UndocumentedRoute(f"route {route.name} ({route.path}) has no OpenAPI Doc")
        path = _PATH_PARAM.sub(r"{\1}", route.path)
        for method in sorted((route.methods or set()) - {"HEAD"}):
            paths.setdefault(path, {})[method.lower()] = _operation(
                route, declared(route), doc, schemas
            )
    return {
        "openapi": "3.1.0",
        "info": dict(info),
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {
            "schemas": schemas.components,
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "dgs_…"}
            },
        },
    }


def _operation(route: Route, policy: Policy, doc: Doc, schemas: _Schemas) -> dict[str, Any]:
    op: dict[str, Any] = {"operationId": route.name, "summary": doc.summary, "tags": [doc.tag]}
    if doc.description:
        op["description"] = doc.description
    params = [
        {
            "name": name,
            "in": "path",
            "required": True,
            "schema": {"type": "string"},
            "description": "percent-encoded as one path segment",
        }
        for name in _PATH_PARAM.findall(route.path)
    ]
    params += [
        {
            "name": p.name,
            "in": p.where,
            "required": p.required,
            "schema": dict(p.schema),
            **({"description": p.description} if p.description else {}),
        }
        for p in doc.params
    ]
    if policy.replay is Replay.KEPT:
        params.append(
            {
                "name": "Idempotency-Key",
                "in": "header",
                "required": False,
                "schema": {"type": "string", "minLength": 1, "maxLength": 255},
                "description": "a repeat with the same key and body within 24 h gets the first "
                "answer again (409 idempotency_key_in_use while it runs; 422 "
                "idempotency_key_reused with another body)",
            }
        )
    if params:
        op["parameters"] = params
    if doc.body is not None:
        schema = schemas.ref(doc.body)
        op["requestBody"] = {
            "required": True,
            "content": {m: {"schema": schema} for m in doc.body_media_types},
        }
    op["responses"] = {str(s): _response(r, schemas) for s, r in doc.responses.items()}
    secured = policy.access is Access.TOKEN
    errors = set(doc.errors) | (set(COMMON_ERRORS) if secured else set())
    for status in sorted(errors):
        op["responses"].setdefault(
            str(status),
            {
                "description": "problem details",
                "content": {PROBLEM: {"schema": {"$ref": "#/components/schemas/Problem"}}},
            },
        )
    if secured:
        op["security"] = [{"bearer": []}]
        op["x-required-scope"] = policy.needs.label
    else:
        op["security"] = []
    return op


def _response(
    spec: type[BaseModel] | Mapping[str, Any] | str | None, schemas: _Schemas
) -> dict[str, Any]:
    if spec is None:
        return {"description": "no content"}
    if isinstance(spec, str):
        return {"description": spec}
    return {
        "description": "success",
        "content": {"application/json": {"schema": schemas.ref(spec)}},
    }


def _problem_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["type", "title", "status", "code", "request_id"],
        "properties": {
            "type": {"type": "string"},
            "title": {"type": "string"},
            "status": {"type": "integer"},
            "detail": {"type": "string"},
            "instance": {"type": "string"},
            "code": {"type": "string"},
            "request_id": {"type": "string"},
            "errors": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "loc": {"type": "array", "items": {"type": ["string", "integer"]}},
                        "msg": {"type": "string"},
                        "type": {"type": "string"},
                    },
                },
            },
        },
    }

"""The OpenAPI 3.1 document, built from the route table and the pydantic models.

Every route carries a `Doc` keyed by its name; `build` refuses a route without
one, so an undocumented operation fails start-up and the test suite, not a user.
Security, the required scope and the `Idempotency-Key` header come from the
route's declared policy (`service.routing`), the same one the middleware enforce.
Bounds and defaults that are configured (a lineage read's `depth`, a page's `limit`,
a query body's `max_depth`) are written `Configured("max_lineage_depth")`, in a
parameter here or through a model's `ConfiguredMaximum` (`service.models.configured`),
and filled from the app's `Limits` when the document is built, so it states what this
deployment enforces.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel
from starlette.routing import BaseRoute, Route

from service.ids import ID_REFUSED_CATEGORIES, MAX_ID_LENGTH, character_class
from service.models.common import ASSET_ID_MARK, DATASET_ID_PART_MARK
from service.models.configured import Configured as Configured
from service.models.datasets import MAX_DATASET_PART
from service.models.teams import SLUG_PATTERN
from service.routing import Access, Policy, Replay, declared
from service.settings import Limits

PROBLEM = "application/problem+json"


def configured_integer(maximum: str, default: str) -> dict[str, Any]:
    """An integer parameter from 1 to the configured `maximum`, absent `default`: what
    `Params.integer(name, limits.<default>, 1, limits.<maximum>)` reads."""
    return {
        "type": "integer",
        "minimum": 1,
        "maximum": Configured(maximum),
        "default": Configured(default),
    }


@dataclass(frozen=True)
class Param:
    name: str
    where: str = "query"
    # `Params.text` refuses longer values (422); a parameter read otherwise says so.
    schema: Mapping[str, Any] = field(default_factory=lambda: {"type": "string", "maxLength": 1024})
    description: str = ""
    required: bool = False


@dataclass(frozen=True)
class MergePatch:
    """A JSON Merge Patch (RFC 7396) of `model`: any of its fields; null clears one
    that has a default, and removes a key of a map."""

    model: type[BaseModel]


@dataclass(frozen=True)
class Content:
    """A success answer in other media types than JSON, or in several: each media type
    with its schema as written, and the headers it carries, each with a description."""

    description: str
    media: Mapping[str, Mapping[str, Any]]
    headers: Mapping[str, str] = field(default_factory=dict)

    def rendered(self) -> dict[str, Any]:
        answer: dict[str, Any] = {
            "description": self.description,
            "content": {media: {"schema": dict(schema)} for media, schema in self.media.items()},
        }
        if self.headers:
            answer["headers"] = {
                name: {"description": text, "schema": {"type": "string"}}
                for name, text in self.headers.items()
            }
        return answer


@dataclass(frozen=True)
class Doc:
    summary: str
    tag: str
    description: str = ""
    body: type[BaseModel] | MergePatch | Mapping[str, Any] | None = None
    body_media_types: tuple[str, ...] = ("application/json",)
    responses: Mapping[int, type[BaseModel] | Mapping[str, Any] | Content | str | None] = field(
        default_factory=dict
    )
    params: tuple[Param, ...] = ()
    errors: tuple[int, ...] = ()


LIMIT = Param("limit", schema=configured_integer("max_page_size", "default_page_size"))
# URL-safe base64 without padding (`service.domain.cursor`), at most what `Paging` reads.
CURSOR_SCHEMA = {"type": "string", "pattern": "^[A-Za-z0-9_-]{0,4096}$"}  # empty: the first
CURSOR = Param(
    "cursor",
    schema=CURSOR_SCHEMA,
    description="`next_cursor` of the previous page, as given (400 invalid_cursor otherwise)",
)
PAGING = (LIMIT, CURSOR)
ASSET_ID = {"$ref": "#/components/schemas/AssetId"}
DATASET_ID_PART = {"$ref": "#/components/schemas/DatasetIdPart"}
MULTIPART = "multipart/form-data"
# An upload as a form (`service.api.uploads`): the document is the `file` field.
UPLOAD = {
    "type": "object",
    "required": ["file"],
    "properties": {
        "file": {
            "type": "string",
            "format": "binary",
            "description": "the JSON document (optionally gzip)",
        }
    },
}
COMMON_ERRORS = (400, 401, 403, 429, 503)
# What any request with a body can be refused for before its handler reads it.
BODY_ERRORS = (413, 415, 422)
_PATH_PARAM = re.compile(r"\{([a-z_]+)(?::[a-z]+)?\}")


class UndocumentedRoute(RuntimeError):
    pass


class _Schemas:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.components: dict[str, Any] = {
            "Problem": _problem_schema(),
            "DomainForbidden": _domain_forbidden_schema(),
            "AssetId": asset_id_schema(),
            "DatasetIdPart": dataset_id_part_schema(),
        }

    def ref(self, model: type[BaseModel] | MergePatch | Mapping[str, Any]) -> Mapping[str, Any]:
        if isinstance(model, MergePatch):
            return self._patch(model.model)
        if not isinstance(model, type):
            return self.configured(model)
        schema = _shared_ids(model.model_json_schema(ref_template="#/components/schemas/{model}"))
        schema = self.configured(schema)  # a body's configured bounds (`ConfiguredMaximum`)
        self.components.update(schema.pop("$defs", {}))
        self.components[model.__name__] = schema
        return {"$ref": f"#/components/schemas/{model.__name__}"}

    def configured(self, schema: Mapping[str, Any]) -> dict[str, Any]:
        """`schema` with each `Configured` number replaced by this app's value."""
        return {key: _filled(value, self.limits) for key, value in schema.items()}

    def _patch(self, model: type[BaseModel]) -> Mapping[str, Any]:
        self.ref(model)
        whole = self.components[model.__name__]
        required = set(whole.get("required", ()))
        properties = {}
        for name, schema in whole["properties"].items():
            schema = {k: v for k, v in schema.items() if k != "default"}  # absent keeps, not resets
            if isinstance(schema.get("additionalProperties"), dict):  # a map: null removes a key
                schema = {
                    **schema,
                    "additionalProperties": _or_null(schema["additionalProperties"]),
                }
            properties[name] = schema if name in required else _or_null(schema)
        name = f"{model.__name__}Patch"
        self.components[name] = {
            "type": "object",
            "properties": properties,
            "additionalProperties": False,
            "description": f"JSON Merge Patch of {model.__name__}",
        }
        return {"$ref": f"#/components/schemas/{name}"}


def _filled(value: Any, limits: Limits) -> Any:
    if isinstance(value, Configured):
        return getattr(limits, value.field)
    if isinstance(value, Mapping):
        return {key: _filled(item, limits) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_filled(item, limits) for item in value]
    return value


def _or_null(schema: Mapping[str, Any]) -> dict[str, Any]:
    options = schema.get("anyOf")
    if isinstance(options, list) and {"type": "null"} in options:
        return dict(schema)
    annotations = {k: schema[k] for k in ("title", "description") if k in schema}
    rest = {k: v for k, v in schema.items() if k not in annotations}
    return {**annotations, "anyOf": [rest, {"type": "null"}]}


def build(
    routes: Iterable[BaseRoute], docs: Mapping[str, Doc], info: Mapping[str, Any], limits: Limits
) -> dict[str, Any]:
    """The document of `routes`, its configured numbers those of `limits`."""
    schemas = _Schemas(limits)
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


# Path parameters whose values follow a rule of their own (422 naming the parameter
# otherwise): teams and domains are named by slugs.
_SLUG_PARAMETERS = ("team_id", "domain_id")


def _path_schema(name: str) -> dict[str, Any]:
    if name == "asset_id":
        return ASSET_ID
    if name in _SLUG_PARAMETERS:
        return {"type": "string", "pattern": SLUG_PATTERN}
    return {"type": "string", "minLength": 1}


def _operation(route: Route, policy: Policy, doc: Doc, schemas: _Schemas) -> dict[str, Any]:
    op: dict[str, Any] = {"operationId": route.name, "summary": doc.summary, "tags": [doc.tag]}
    if doc.description:
        op["description"] = doc.description
    params = [
        {
            "name": name,
            "in": "path",
            "required": True,
            "schema": _path_schema(name),
            "description": "percent-encoded as one path segment",
        }
        for name in _PATH_PARAM.findall(route.path)
    ]
    params += [
        {
            "name": p.name,
            "in": p.where,
            "required": p.required,
            "schema": schemas.configured(p.schema),
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
                "schema": {"type": "string", "pattern": "^[\\x21-\\x7e]{1,255}$"},
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
            "content": {
                m: {"schema": UPLOAD if m == MULTIPART else schema} for m in doc.body_media_types
            },
        }
    op["responses"] = {str(s): _response(r, schemas) for s, r in doc.responses.items()}
    secured = policy.access is Access.TOKEN
    errors = set(doc.errors) | (set(COMMON_ERRORS) if secured else set())
    if doc.body is not None:
        errors |= set(BODY_ERRORS)
    if policy.replay is Replay.KEPT:
        errors |= {409, 422}  # the key in use, or reused with another body
    if params:
        errors.add(422)  # a parameter out of its schema
    for status in sorted(errors):
        op["responses"].setdefault(
            str(status),
            {
                "description": "problem details",
                "content": {PROBLEM: {"schema": {"$ref": "#/components/schemas/Problem"}}},
            },
        )
    if policy.per_domain:
        op["responses"]["403"] = DOMAIN_FORBIDDEN
    if secured:
        op["security"] = [{"bearer": []}]
        op["x-required-scope"] = policy.needs.label
    else:
        op["security"] = []
    return op


def _response(
    spec: type[BaseModel] | Mapping[str, Any] | Content | str | None, schemas: _Schemas
) -> dict[str, Any]:
    if spec is None:
        return {"description": "no content"}
    if isinstance(spec, Content):
        return spec.rendered()
    if isinstance(spec, str):
        return {"description": spec}
    return {
        "description": "success",
        "content": {"application/json": {"schema": schemas.ref(spec)}},
    }


DOMAIN_FORBIDDEN = {
    "description": "`insufficient_scope`, or `domain_forbidden`: the request touches assets "
    "the caller may not write (in a domain where their role is below editor, or outside "
    "every domain while their global role is below editor) or, for an edge, a source it may "
    "not read, or a write that would move an asset into such a domain (its new tags or dbt "
    "project placing it there; the destination is listed) or, for a domain's rules, take "
    "assets from where the caller may not take them (`errors` names each `rules[i]`); "
    "`assets` lists the first 100 with their `domain` (null: outside every domain, or a "
    "private domain the caller may not read), `assets_count` counts them all, and nothing "
    "was written",
    "content": {PROBLEM: {"schema": {"$ref": "#/components/schemas/DomainForbidden"}}},
}


def _domain_forbidden_schema() -> dict[str, Any]:
    return {
        "allOf": [
            {"$ref": "#/components/schemas/Problem"},
            {
                "type": "object",
                "properties": {
                    "assets": {
                        "type": "array",
                        "maxItems": 100,
                        "items": {
                            "type": "object",
                            "required": ["id", "domain"],
                            "properties": {
                                "id": {"type": "string"},
                                "domain": {"type": ["string", "null"]},
                            },
                        },
                    },
                    "assets_count": {"type": "integer", "minimum": 1},
                },
            },
        ]
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


def _shared_ids(schema: Any) -> Any:
    """Every asset id a model marks (`AssetId`, and the OpenLineage datasets' id parts)
    as a reference to its one component."""
    if isinstance(schema, dict):
        if schema.get(ASSET_ID_MARK):
            return dict(ASSET_ID)
        if schema.get(DATASET_ID_PART_MARK):
            return dict(DATASET_ID_PART)
        return {key: _shared_ids(value) for key, value in schema.items()}
    if isinstance(schema, list):
        return [_shared_ids(value) for value in schema]
    return schema


def asset_id_schema() -> dict[str, Any]:
    """`service.ids.id_problem` as a schema: 1 to 512 characters, none of them
    whitespace, control, format, surrogate, private-use or unassigned."""
    return {
        "type": "string",
        "minLength": 1,
        "maxLength": MAX_ID_LENGTH,
        "pattern": f"^[{_allowed_class()}]+$",
        "description": "Unicode NFC (another spelling of the same text names the same asset)",
    }


def dataset_id_part_schema() -> dict[str, Any]:
    """An OpenLineage dataset's `namespace` or `name`: the two joined by `/` are its
    asset id, so each holds an id's characters, and one part can be at most the
    id's length less the slash and one character of the other."""
    return {
        **asset_id_schema(),
        "maxLength": MAX_DATASET_PART,
        "description": (
            "`namespace/name` is the dataset's asset id: the characters an asset id may"
            f" hold, at most {MAX_ID_LENGTH} together (in Unicode NFC)"
        ),
    }


@functools.cache
def _allowed_class() -> str:
    """The characters an id may hold, as ranges for a regex character class, for the
    Unicode version this Python's `unicodedata` knows (the one the rule reads).
    Listed rather than negated: generators enumerate a class's ranges, and the
    refused set (unassigned and private-use planes) is seven times larger."""
    return character_class(lambda category: category not in ID_REFUSED_CATEGORIES)

"""The verbs every versioned resource shares (assets, policies, quality rules), with
their routes and their OpenAPI text: GET answers the ETag, and 304 when If-None-Match
names it (or is `*`); PUT, PATCH and DELETE take If-Match (400 when it is no list of
entity tags, 412 when it names another version) and every write answers the new ETag.
One implementation, so the three cannot drift; what a write means (an asset's merges,
a policy's audit, a rule's asset) stays in each resource's store.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.domain.access.scopes import Scope
from service.domain.preconditions import IF_MATCH_PATTERN, Expected, etag, not_modified
from service.errors import validation_error
from service.graph import Graph
from service.http import (
    JSON,
    MERGE_PATCH_JSON,
    json_response,
    path_param,
    quote_segment,
    read_json,
    read_merge_patch,
)
from service.models.validation import validate
from service.openapi import Doc, MergePatch, Param
from service.routing import Route, bearer
from service.settings import Limits

IF_MATCH = Param(
    "If-Match",
    where="header",
    schema={"type": "string", "pattern": IF_MATCH_PATTERN},
    description='`"<version>"` from the ETag (or a list of them), or `*`: 412 if the '
    "current version is not among them, 400 if the header is no list of entity tags",
)
# Left a plain string on purpose: a header that is no list of entity tags is no
# condition at all (the item is answered), so no value of it is refused.
IF_NONE_MATCH = Param(
    "If-None-Match",
    where="header",
    schema={"type": "string"},
    description="the ETag of a copy held, or `*`: 304 without a body if it is current "
    "(weak comparison; a list may name several)",
)


class Item(Protocol):
    """A versioned resource as answered: its id and the version its ETag carries."""

    @property
    def id(self) -> str: ...

    @property
    def version(self) -> int: ...


V = TypeVar("V", bound=Item)
F = TypeVar("F", bound=BaseModel)
Get = Callable[[Graph, str], Awaitable[V]]
# PUT answers the item and whether it was created (201) rather than replaced (200).
# (A generic alias takes its variables in order of appearance: Put[F, V].)
Put = Callable[[Graph, str, F, Expected | None, str], Awaitable[tuple[V, bool]]]
Patch = Callable[[Graph, str, dict[str, Any], Expected | None, str], Awaitable[V]]
Delete = Callable[[Graph, str, Expected | None, str], Awaitable[None]]
# Holds a write's document (a PUT body, a PATCH document) to what the deployment's
# limits allow, raising a 422 at the field; the models know no configured number.
WithinLimits = Callable[[Limits, Mapping[str, Any]], None]
# Refuses the caller one item by id before anything is read or written (an asset in a
# domain where the caller may not write: 403; in a private one it may not read: 404).
Guard = Callable[[Request, str], Awaitable[None]]
# Refuses a write by what it makes of the item, once its body is read and before anything
# is written: the PUT body (a model) or the PATCH document (a merge patch, a dict). An
# asset the change would move into a domain where the caller may not write: 403.
ChangeGuard = Callable[[Request, str, Any], Awaitable[None]]


def _unlimited(limits: Limits, document: Mapping[str, Any]) -> None:
    """No field of the resource is bounded by configuration."""


def never_creates(
    replace: Callable[[Graph, str, F, Expected | None, str], Awaitable[V]],
) -> Put[F, V]:
    """PUT where the service makes the ids: it replaces (200) or finds nothing (404)."""

    async def put(
        graph: Graph, item_id: str, fields: F, expected: Expected | None, actor: str
    ) -> tuple[V, bool]:
        return await replace(graph, item_id, fields, expected, actor), False

    return put


@dataclass(frozen=True)
class Text:
    summary: str
    description: str = ""


@dataclass(frozen=True)
class Versioned(Generic[V, F]):
    """One versioned resource: where its items live, what a write may carry, and the
    store functions behind the four verbs."""

    base: str  # "/api/v1/policies"
    param: str  # the path parameter naming one item
    name: str  # operation ids: get_<name>, put_<name>, patch_<name>, delete_<name>
    tag: str
    model: type[BaseModel]  # what GET answers
    fields: type[F]  # what a merge patch may name
    replace: type[F]  # the PUT body: the fields, and the read-only ones sent back as read
    get: Get[V]
    put: Put[F, V]
    patch: Patch[V]
    delete: Delete
    converter: str = ""  # ":path" where an id may hold a slash
    patch_also: tuple[str, ...] = ()  # keys a patch may repeat as read
    put_creates: bool = False
    write_errors: tuple[int, ...] = ()  # beyond 404, 412, 415 and 422
    within_limits: WithinLimits = _unlimited
    read_guard: Guard | None = None
    write_guard: Guard | None = None  # set: the writes are checked per domain
    put_guard: Guard | None = None  # PUT's check before its body, in write_guard's place
    change_guard: ChangeGuard | None = None

    @property
    def path(self) -> str:
        return f"{self.base}/{{{self.param}{self.converter}}}"

    def answer(self, item: V, created: bool = False) -> Response:
        """An item with its ETag; a new one (201) with its Location too."""
        headers = {"ETag": etag(item.version)}
        if created:
            headers["Location"] = f"{self.base}/{quote_segment(item.id)}"
        return json_response(item, status=201 if created else 200, headers=headers)

    async def _guarded(self, request: Request, guard: Guard | None) -> str:
        item_id = path_param(request, self.param)
        if guard is not None:
            await guard(request, item_id)
        return item_id

    async def read_one(self, request: Request) -> Response:
        item_id = await self._guarded(request, self.read_guard)
        item = await self.get(deps.graph(request), item_id)
        if not_modified(request.headers.get("if-none-match"), item.version):
            return Response(status_code=304, headers={"ETag": etag(item.version)})
        return self.answer(item)

    async def put_one(self, request: Request) -> Response:
        item_id = await self._guarded(request, self.put_guard or self.write_guard)
        expected = deps.if_match(request)
        document = await read_json(request)
        body = validate(self.replace, document)
        if getattr(body, "id", None) not in (None, item_id):
            raise validation_error(("body", "id"), "id in the body differs from the id in the path")
        self.within_limits(deps.settings(request).limits, document)
        if self.change_guard is not None:
            await self.change_guard(request, item_id, body)
        item, created = await self.put(
            deps.graph(request), item_id, body, expected, deps.actor(request)
        )
        return self.answer(item, created)

    async def patch_one(self, request: Request) -> Response:
        item_id = await self._guarded(request, self.write_guard)
        expected = deps.if_match(request)
        document = await read_merge_patch(request, self.fields, also=self.patch_also)
        self.within_limits(deps.settings(request).limits, document)
        if self.change_guard is not None:
            await self.change_guard(request, item_id, document)
        item = await self.patch(
            deps.graph(request), item_id, document, expected, deps.actor(request)
        )
        return self.answer(item)

    async def delete_one(self, request: Request) -> Response:
        item_id = await self._guarded(request, self.write_guard)
        expected = deps.if_match(request)
        await self.delete(deps.graph(request), item_id, expected, deps.actor(request))
        return Response(status_code=204)

    def routes(self) -> list[Route]:
        verbs = (
            ("GET", "get", self.read_one, Scope.READ),
            ("PUT", "put", self.put_one, Scope.WRITE),
            ("PATCH", "patch", self.patch_one, Scope.WRITE),
            ("DELETE", "delete", self.delete_one, Scope.WRITE),
        )
        return [
            Route(
                self.path,
                handler,
                methods=[method],
                name=f"{verb}_{self.name}",
                policy=bearer(
                    scope, per_domain=self.write_guard is not None and scope is Scope.WRITE
                ),
            )
            for method, verb, handler, scope in verbs
        ]

    def docs(self, get: Text, put: Text, patch: Text, delete: Text) -> dict[str, Doc]:
        """The four operations' documents; what they share is said here once."""
        writes = (404, 412, 415, 422, *self.write_errors)
        put_answers: dict[int, Any] = {
            200: self.model,
            **({201: self.model} if self.put_creates else {}),
        }
        return {
            f"get_{self.name}": Doc(
                get.summary,
                self.tag,
                description=get.description,
                params=(IF_NONE_MATCH,),
                responses={200: self.model, 304: "not modified: If-None-Match names the ETag"},
                errors=(404,),
            ),
            f"put_{self.name}": Doc(
                put.summary,
                self.tag,
                description=put.description,
                body=self.replace,
                params=(IF_MATCH,),
                responses=put_answers,
                errors=writes,
            ),
            f"patch_{self.name}": Doc(
                patch.summary,
                self.tag,
                description=patch.description,
                body=MergePatch(self.fields),
                body_media_types=(MERGE_PATCH_JSON, JSON),
                params=(IF_MATCH,),
                responses={200: self.model},
                errors=writes,
            ),
            f"delete_{self.name}": Doc(
                delete.summary,
                self.tag,
                description=delete.description,
                params=(IF_MATCH,),
                responses={204: "deleted"},
                errors=(404, 412),
            ),
        }

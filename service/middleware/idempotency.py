"""`Idempotency-Key` on POST: a repeat with the same key and body within 24 h gets
the first answer again and the work is not done twice (docs/api/README.md, Retries
and idempotency).

Only on routes whose policy says `Replay.KEPT`: an answer that holds a secret
shown once, or a POST that only reads, is never kept (`service.routing`). Keys are
scoped to the calling token. A repeat while the first is still running gets 409
`idempotency_key_in_use`; the same key with another body 422
`idempotency_key_reused`. Answers of 5xx are not kept, so a retry redoes the work.

The body must be fingerprinted before the work starts (a reused key is refused
before anything is done), so it is read first: hashed as it arrives and spooled to a
temporary file past `SPOOL_IN_MEMORY_BYTES`, then handed on in chunks. The spool is
also left in the request's state (`SPOOLED_BODY`), so an upload handler reads that file
instead of spooling the body a second time. A 200 MB dbt manifest sent with a key thus
costs disk once, not memory: the handler's streaming parse keeps its bound.
"""

from __future__ import annotations

import hashlib
import re
import tempfile
from typing import IO, Any

import orjson
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service import state
from service.driver_errors import from_driver_error
from service.errors import Conflict, ServiceError, Unprocessable, validation_error
from service.http import CLIENT_CLOSED_REQUEST, problem_response
from service.routing import Replay, policy_of
from service.store import idempotency as store

HEADER = "idempotency-key"
_KEY = re.compile(r"^[\x21-\x7e]{1,255}$")
KEPT_HEADERS = ("content-type", "location", "etag")
SPOOL_IN_MEMORY_BYTES = 1024 * 1024
REPLAY_CHUNK_BYTES = 256 * 1024
# The request state's key for the spooled body (a binary file at its start).
SPOOLED_BODY = "spooled_body"


class IdempotencyMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = Headers(scope=scope).get(HEADER) if scope["type"] == "http" else None
        principal = scope.get("state", {}).get("principal")
        if (
            key is None
            or scope["method"] != "POST"
            or principal is None
            or policy_of(scope).replay is not Replay.KEPT
        ):
            await self.app(scope, receive, send)
            return
        try:
            await self._handle(scope, receive, send, key, principal.token_id)
        except ServiceError as exc:
            await problem_response(exc, scope)(scope, receive, send)

    async def _handle(
        self, scope: Scope, receive: Receive, send: Send, key: str, owner: str
    ) -> None:
        if not _KEY.match(key):
            raise validation_error(
                ("header", "Idempotency-Key"), "must be 1-255 visible ASCII characters"
            )
        with _SpooledBody(scope) as body:
            if not await body.read(receive):
                # Gone before its body arrived: nothing is claimed or done, so a retry
                # with the whole body is a first request, not a reused key.
                await Response(status_code=CLIENT_CLOSED_REQUEST)(scope, receive, send)
                return
            scope.setdefault("state", {})[SPOOLED_BODY] = body.file
            graph = state.in_scope(scope).graph
            scope_key = f"{owner}:{key}"
            claim = await _db(store.claim(graph, scope_key, body.digest))
            if not claim.fresh:
                await _answer_repeat(claim, body.digest, send)
                return
            captured = _Captured()
            try:
                await self.app(scope, body.replay, captured.send)
            except BaseException:
                await _db(store.release(graph, scope_key))
                raise
        if captured.status >= 500:
            await _db(store.release(graph, scope_key))
        else:
            await _db(
                store.complete(
                    graph, scope_key, captured.status, captured.body, captured.headers_json()
                )
            )
        await captured.flush(send)


async def _answer_repeat(claim: store.Claim, digest: str, send: Send) -> None:
    if claim.request_hash != digest:
        raise Unprocessable(
            "This Idempotency-Key was used with a different request.", code="idempotency_key_reused"
        )
    if claim.state != "done" or claim.status is None:
        raise Conflict(
            "A request with this Idempotency-Key is still being processed.",
            code="idempotency_key_in_use",
            headers={"Retry-After": "1"},
        )
    headers = [(k.encode(), v.encode()) for k, v in orjson.loads(claim.headers_json or "[]")]
    headers.append((b"idempotent-replayed", b"true"))
    await send({"type": "http.response.start", "status": claim.status, "headers": headers})
    await send({"type": "http.response.body", "body": claim.body or b""})


async def _db(awaitable: Any) -> Any:
    try:
        return await awaitable
    except Exception as exc:
        mapped = from_driver_error(exc)
        if mapped is None:
            raise
        raise mapped from exc


class _SpooledBody:
    """A request's body, read to its end: its fingerprint (SHA-256 of path, query and
    body, NUL-separated) and the body itself, kept in memory up to
    `SPOOL_IN_MEMORY_BYTES` and in a temporary file beyond, deleted on exit."""

    def __init__(self, scope: Scope) -> None:
        self._hash = hashlib.sha256(scope["path"].encode())
        self._hash.update(b"\0" + scope.get("query_string", b"") + b"\0")
        self._spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY_BYTES)  # noqa: SIM115 (closed by __exit__)
        self._replayed = False

    def __enter__(self) -> _SpooledBody:
        return self

    def __exit__(self, *exc: object) -> None:
        self._spool.close()

    @property
    def file(self) -> IO[bytes]:
        return self._spool

    @property
    def digest(self) -> str:
        return self._hash.hexdigest()

    async def read(self, receive: Receive) -> bool:
        """Whether the body arrived whole (False: the client left first)."""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return False
            if message["type"] == "http.request":
                chunk = message.get("body", b"")
                self._hash.update(chunk)
                self._spool.write(chunk)
                if not message.get("more_body", False):
                    self._spool.seek(0)
                    return True

    async def replay(self) -> Message:
        """The ASGI `receive` the route gets: the body again, in chunks."""
        if self._replayed:
            return {"type": "http.disconnect"}
        chunk = self._spool.read(REPLAY_CHUNK_BYTES)
        more = len(chunk) == REPLAY_CHUNK_BYTES
        self._replayed = not more
        return {"type": "http.request", "body": chunk, "more_body": more}


class _Captured:
    def __init__(self) -> None:
        self.status = 500
        self.headers: list[tuple[bytes, bytes]] = []
        self.chunks: list[bytes] = []

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            self.headers = list(message.get("headers", []))
        elif message["type"] == "http.response.body":
            self.chunks.append(message.get("body", b""))

    @property
    def body(self) -> bytes:
        return b"".join(self.chunks)

    def headers_json(self) -> str:
        kept = [
            (k.decode(), v.decode()) for k, v in self.headers if k.decode().lower() in KEPT_HEADERS
        ]
        return orjson.dumps(kept).decode()

    async def flush(self, send: Send) -> None:
        await send({"type": "http.response.start", "status": self.status, "headers": self.headers})
        await send({"type": "http.response.body", "body": self.body})

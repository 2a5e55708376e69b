"""The thinnest HTTP service that gives a traversal's answer: a bare ASGI app under
uvicorn (uvloop and httptools, as the service is), the async driver, the service's
own statement with the caller's token re-checked in it, the service's
`assemble_page` and orjson. No framework, routing, middleware, token cache, logs or metrics.

`bench.lineage` times it beside the service and the raw driver. Against the raw
driver it shows what any Python HTTP service in front of Neo4j pays on the machine
(the HTTP hop, the async driver, writing JSON); the service against it shows what
the service's own machinery costs on top. Only `GET /api/v1/lineage/{id}/upstream`
and `/downstream` with `depth` are answered, and only for the benchmark's ids."""

from __future__ import annotations

import contextlib
import hashlib
import os
import socket
import sys
from typing import Any

import neo4j
import orjson

from bench.common import LeanClient, app_process
from service import clock, cypher
from service.domain.lineage_pages import After, Walk, assemble_page, page_params
from service.domain.redaction import NOT_SHOWN
from service.settings import Limits
from tests.support.neo4j_server import Neo4jTarget

LIMIT: int = Limits.model_fields["default_lineage_nodes"].default  # as the service
PREFIX = "/api/v1/lineage/"
JSON = [(b"content-type", b"application/json")]


class ThinApp:
    def __init__(self, uri: str, username: str, password: str) -> None:
        self._connect = (uri, (username, password))
        self._driver: neo4j.AsyncDriver | None = None
        self._traverse = cypher.load()["lineage.traverse"]

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            status, body = await self._answer(scope)
            headers = [*JSON, (b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})

    async def _lifespan(self, receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                uri, auth = self._connect
                self._driver = neo4j.AsyncGraphDatabase.driver(
                    uri, auth=auth, notifications_min_severity="OFF"
                )
                await send({"type": "lifespan.startup.complete"})
            else:
                if self._driver is not None:
                    await self._driver.close()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _answer(self, scope: dict[str, Any]) -> tuple[int, bytes]:
        asset, _, direction = scope["path"].removeprefix(PREFIX).rpartition("/")
        query = dict(part.split("=", 1) for part in scope["query_string"].decode().split("&"))
        depth = int(query["depth"])
        token = dict(scope["headers"]).get(b"authorization", b"").removeprefix(b"Bearer ")
        assert self._driver is not None
        async with self._driver.session(default_access_mode=neo4j.READ_ACCESS) as session:
            result = await session.run(
                self._traverse.statement({"depth": depth}),
                id=asset,
                downstream=direction == "downstream",
                upstream=direction == "upstream",
                now=clock.now_iso(),
                **page_params(LIMIT, token_hash=hashlib.sha256(token).hexdigest()),
            )
            row = await result.single(strict=True)
        if not row["authorised"]:
            return 401, b'{"title":"Unauthorized"}'
        if row["root"] is None:
            return 404, b'{"title":"Not Found"}'
        pending = {"downstream": row["pending_down"], "upstream": row["pending_up"]}
        hidden = {"downstream": row["hidden_down"], "upstream": row["hidden_up"]}
        walk = Walk(asset, direction, depth)
        page = assemble_page(
            walk, row["root"], After(), row["nodes"], row["edges"], pending, hidden
        )
        document = {
            "root": asset,
            "direction": direction,
            "depth": depth,
            # the admin token reads everything: no stand-ins, only the walk's own keys dropped
            "nodes": [{k: v for k, v in n.items() if k not in NOT_SHOWN} for n in page.nodes],
            "edges": page.edges,
            "truncated": page.more,
            "next_cursor": None,
            "remaining": page.remaining,
            "hidden": page.hidden,
            "capped": [],
            "redacted": 0,
        }
        return 200, orjson.dumps(document)


def thin_service(target: Neo4jTarget, token: str) -> contextlib.AbstractContextManager[LeanClient]:
    """A keep-alive connection, with `token`, to the thin service in its own process."""
    credentials = {"THIN_URI": target.uri, "THIN_USER": target.username}
    return app_process("bench.thin", token, {**credentials, "THIN_PASSWORD": target.password})


def serve(fd: int) -> None:
    """Serve the app on an inherited TCP socket, as `bench.floor` does."""
    import uvicorn

    app = ThinApp(os.environ["THIN_URI"], os.environ["THIN_USER"], os.environ["THIN_PASSWORD"])
    config = uvicorn.Config(
        app, loop="uvloop", http="httptools", log_level="warning", access_log=False
    )
    uvicorn.Server(config).run(sockets=[socket.socket(fileno=fd)])


if __name__ == "__main__":
    serve(int(sys.argv[1]))

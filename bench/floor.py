"""The floor under any HTTP service: the smallest ASGI app, served by uvicorn (uvloop
and httptools, as the service is), answering `{}` with no work at all. A benchmark
times a request to it beside each request to the service, in the same run, so that a
ratio can be read against what the HTTP hop alone costs on that machine."""

from __future__ import annotations

import contextlib
import sys
from typing import Any

from bench.common import LeanClient, app_process


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    headers = [(b"content-type", b"application/json"), (b"content-length", b"2")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b"{}"})


def bare_http() -> contextlib.AbstractContextManager[LeanClient]:
    """A keep-alive connection to the bare app in its own process."""
    return app_process("bench.floor")


def serve(fd: int) -> None:
    """Serve `app` on an inherited TCP socket as `governance serve --fd` does. Not
    uvicorn's own `--fd`, which takes every such socket for a Unix one and so leaves
    Nagle's algorithm on: a 40 ms stall per response against delayed ACKs."""
    import socket

    import uvicorn

    config = uvicorn.Config(
        app, loop="uvloop", http="httptools", log_level="warning", access_log=False
    )
    uvicorn.Server(config).run(sockets=[socket.socket(fileno=fd)])


if __name__ == "__main__":
    serve(int(sys.argv[1]))

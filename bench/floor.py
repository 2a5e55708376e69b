"""The floor under any HTTP service: the smallest ASGI app, served by uvicorn (uvloop
and httptools, as the service is), answering `{}` with no work at all. A benchmark
times a request to it beside each request to the service, in the same run, so that a
ratio can be read against what the HTTP hop alone costs on that machine."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

from bench.common import ROOT, LeanClient
from tests.support.server import loopback_listener


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    headers = [(b"content-type", b"application/json"), (b"content-length", b"2")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b"{}"})


@contextlib.contextmanager
def bare_http() -> Iterator[LeanClient]:
    """A keep-alive connection to the bare app in its own process. The socket listens
    before the process starts, so the first request waits in its backlog: no polling."""
    listener = loopback_listener()
    fd = listener.fileno()
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.floor", str(fd)], cwd=ROOT, pass_fds=(fd,)
    )
    try:
        port = listener.getsockname()[1]
        with LeanClient(f"http://127.0.0.1:{port}", "") as client:
            yield client
    finally:
        process.terminate()
        process.wait(30)
        listener.close()


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

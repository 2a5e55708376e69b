"""The real HTTP stack for tests: the app under uvicorn on a loopback port."""

from __future__ import annotations

import socket
import threading
import time

import httpx
import uvicorn
from starlette.applications import Starlette


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LiveServer:
    def __init__(self, app: Starlette) -> None:
        self.port = free_port()
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="on",
            server_header=False,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, ready: bool = True, timeout: float = 60.0) -> LiveServer:
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("test server did not start")
            time.sleep(0.02)
        if ready:
            self.wait_ready(deadline)
        return self

    def wait_ready(self, deadline: float) -> None:
        while httpx.get(self.url + "/readyz").status_code != 200:
            if time.monotonic() > deadline:
                raise RuntimeError("test server never became ready")
            time.sleep(0.1)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)

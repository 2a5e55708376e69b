"""The real HTTP stack for tests: the app under uvicorn on a loopback port.

The listening socket is bound here, to port 0, before uvicorn starts: the kernel
picks a free port and nobody else can take it between choosing and binding.
"""

from __future__ import annotations

import socket
import ssl
import threading
from typing import Any

import httpx
import uvicorn
from starlette.applications import Starlette

from service.server_protocol import UVICORN_HTTP
from service.settings import Limits
from service.state import AppState, among
from tests.support.waiting import eventually

# How long a test's client waits for an answer. The service bounds every request
# itself (each transaction by its deadline, answering 503 `neo4j_busy` past it; the
# longest a single API request may run is an ingest transaction's) and its answer is
# what a test checks. A shorter read timeout would be a timing assertion in disguise:
# on a busy machine a sound 10,000-edge bulk took past 30 s and failed as a client
# timeout, with the service still well inside its own deadline. A hang still fails.
ANSWER_WITHIN = httpx.Timeout(10.0, read=Limits.model_fields["ingest_timeout_s"].default + 30)


# httpx makes a new SSL context for every client made without one, loading the CA
# bundle each time: about 30 ms of CPU, and the suite makes thousands of clients (three
# per test for the token fixtures alone, more for readiness polls). Test clients speak
# plain HTTP to loopback, so they share one context, made once.
SHARED_TLS = ssl.create_default_context()


def local_client(**options: Any) -> httpx.Client:
    """An httpx client for a test server: `ANSWER_WITHIN` unless told, `SHARED_TLS`."""
    return httpx.Client(verify=SHARED_TLS, **{"timeout": ANSWER_WITHIN, **options})


def loopback_listener() -> socket.socket:
    """A listening TCP socket on 127.0.0.1, on a port the kernel chose."""
    return socket.create_server(("127.0.0.1", 0))


def answers(url: str, path: str = "/readyz") -> bool:
    """Whether the service at `url` answers 200 on `path` (readiness by default)."""
    with local_client(timeout=2) as client:
        return client.get(url + path).status_code == 200


class LiveServer:
    def __init__(self, app: Starlette) -> None:
        self._socket = loopback_listener()
        self.port: int = self._socket.getsockname()[1]
        config = uvicorn.Config(
            app, log_level="warning", lifespan="on", server_header=False, http=UVICORN_HTTP
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._socket]}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def app_state(self) -> AppState:
        """What the app's lifespan made (the graph, the event broker, ...), for tests
        that wait on the service's own progress."""
        return among(self._server.lifespan.state)

    def start(self, timeout: float = 60.0) -> LiveServer:
        """Start serving and return once the service is ready."""
        self._thread.start()
        eventually(
            self._ready,
            timeout=timeout,
            what=f"test server on {self.url} ready",
            retry_on=(httpx.TransportError,),
        )
        return self

    def _ready(self) -> bool:
        if not self._thread.is_alive():
            raise RuntimeError("test server stopped while starting (see its log above)")
        return answers(self.url)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._socket.close()

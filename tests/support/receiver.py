"""A webhook receiver on loopback that records what it gets and answers from a script."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.support.server import free_port


@dataclass(frozen=True)
class Received:
    headers: dict[str, str]
    body: bytes


class Receiver:
    def __init__(
        self, answers: list[tuple[int, dict[str, str]]] | None = None, port: int | None = None
    ) -> None:
        self.port = port or free_port()
        self.received: list[Received] = []
        self.answers = list(answers or [])
        self.default = (200, {})
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                with receiver._lock:
                    receiver.received.append(
                        Received({k.lower(): v for k, v in self.headers.items()}, body)
                    )
                    status, headers = (
                        receiver.answers.pop(0) if receiver.answers else receiver.default
                    )
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("content-length", "13")
                self.end_headers()
                self.wfile.write(b"receiver-body")

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def __enter__(self) -> Receiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def wait_for(self, count: int, timeout: float = 15) -> list[Received]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if len(self.received) >= count:
                    return list(self.received)
            time.sleep(0.05)
        raise AssertionError(f"expected {count} deliveries, got {len(self.received)}")

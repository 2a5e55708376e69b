"""A webhook receiver on loopback that records what it gets and answers from a script."""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Received:
    headers: dict[str, str]
    body: bytes


def reserved_port() -> socket.socket:
    """A loopback port that is ours but not listening: connecting to it is refused
    until a Receiver is given it (`Receiver(on=...)`) and listens there."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    return sock


class Receiver:
    def __init__(
        self,
        answers: list[tuple[int, dict[str, str]]] | None = None,
        on: socket.socket | None = None,
    ) -> None:
        self.received: list[Received] = []
        self.answers = list(answers or [])
        self.default: tuple[int, dict[str, str]] = (200, {})
        self._arrived = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                with receiver._arrived:
                    receiver.received.append(
                        Received({k.lower(): v for k, v in self.headers.items()}, body)
                    )
                    receiver._arrived.notify_all()
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

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler, bind_and_activate=on is None)
        if on is not None:
            self._server.socket.close()
            self._server.socket = on
            self._server.server_address = on.getsockname()
            self._server.server_activate()
        self.port: int = self._server.server_address[1]
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
        """The first `count` deliveries or more, as soon as they have arrived."""
        with self._arrived:
            if not self._arrived.wait_for(lambda: len(self.received) >= count, timeout):
                raise AssertionError(
                    f"expected {count} deliveries within {timeout:g}s, got {len(self.received)}"
                )
            return list(self.received)

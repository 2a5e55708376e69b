"""Webhook receivers on loopback that misbehave the way real ones do: a black hole
accepts every connection and never answers, so each attempt to it lasts the whole
delivery timeout; a clocked receiver answers at once, with a status the test may
change, and notes when each request arrived."""

from __future__ import annotations

import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class BlackHole:
    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0), backlog=512)
        self.port: int = self._listener.getsockname()[1]
        self._held: list[socket.socket] = []
        self._accepted = threading.Condition()
        self._thread = threading.Thread(target=self._accept, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:  # the listener was shut down
                return
            with self._accepted:
                self._held.append(connection)
                self._accepted.notify_all()

    @property
    def connections(self) -> int:
        """Connections accepted so far (each held open, unanswered, until the end)."""
        with self._accepted:
            return len(self._held)

    def wait_for(self, count: int, timeout: float = 15) -> None:
        """Until `count` connections have been accepted."""
        with self._accepted:
            if not self._accepted.wait_for(lambda: len(self._held) >= count, timeout):
                raise AssertionError(
                    f"expected {count} connections within {timeout:g}s, got {len(self._held)}"
                )

    def __enter__(self) -> BlackHole:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._listener.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept()
        self._listener.close()
        self._thread.join(5)
        with self._accepted:
            for connection in self._held:
                connection.close()


class ClockedReceiver:
    def __init__(self, status: int) -> None:
        self.status = status
        self.arrivals: list[float] = []  # time.monotonic() of each request
        self._arrived = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length", 0)))
                with receiver._arrived:
                    receiver.arrivals.append(time.monotonic())
                    receiver._arrived.notify_all()
                    status = receiver.status
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port: int = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def wait_for(self, count: int, timeout: float = 15) -> list[float]:
        """When the first `count` requests (or more) arrived, once they have."""
        with self._arrived:
            if not self._arrived.wait_for(lambda: len(self.arrivals) >= count, timeout):
                raise AssertionError(
                    f"expected {count} requests within {timeout:g}s, got {len(self.arrivals)}"
                )
            return list(self.arrivals)

    def __enter__(self) -> ClockedReceiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

"""Loopback helpers for the live tests: a webhook receiver, a TCP proxy that can cut
its connections, and a reader that takes an event stream off the test's thread so
that every wait has a deadline. Everything listens on 127.0.0.1, port 0."""

from __future__ import annotations

import contextlib
import queue
import socket
import threading
import time
from collections.abc import Callable, Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

WAIT_S = 30.0


class Receiver:
    """An HTTP server that answers 204 to every POST and keeps (headers, body)."""

    def __init__(self) -> None:
        received: queue.Queue[tuple[dict[str, str], bytes]] = queue.Queue()
        self.received = received

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                received.put((dict(self.headers.items()), body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/hook"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def next(self, timeout: float = WAIT_S) -> tuple[dict[str, str], bytes]:
        return self.received.get(timeout=timeout)


class Proxy:
    """Forwards each connection to ``target``; ``cut()`` breaks every open one.
    ``heads`` holds the first bytes each client sent (its request line and headers)."""

    def __init__(self, host: str, port: int) -> None:
        self._target = (host, port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self.heads: list[bytes] = []
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self._listener.close()
        self.cut()

    def cut(self) -> None:
        with self._lock:
            sockets, self._open = self._open, []
        for sock in sockets:
            _close(sock)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self._target)
            with self._lock:
                self._open += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, False), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, from_client: bool) -> None:
        try:
            while data := source.recv(65536):
                if from_client:
                    with self._lock:
                        self.heads.append(data)
                    from_client = False
                sink.sendall(data)
        except OSError:
            pass
        finally:
            _close(source)
            _close(sink)


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


class Feed:
    """Iterates ``events`` on a thread; ``take`` waits for a matching event, with a deadline."""

    _END = object()

    def __init__(self, events: Iterable[Any]) -> None:
        self._queue: queue.Queue[Any] = queue.Queue()
        self._thread = threading.Thread(target=self._run, args=(events,), daemon=True)
        self._thread.start()

    def _run(self, events: Iterable[Any]) -> None:
        try:
            for event in events:
                self._queue.put(event)
        except Exception as exc:
            self._queue.put(exc)
        self._queue.put(self._END)

    def take(self, wanted: Callable[[Any], bool], timeout: float = WAIT_S) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            item = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            if isinstance(item, Exception):
                raise item
            if item is self._END:
                raise AssertionError("the event stream ended")
            if wanted(item):
                return item

    def join(self, timeout: float = WAIT_S) -> None:
        self._thread.join(timeout)
        assert not self._thread.is_alive(), "the event stream did not stop"

"""A webhook receiver on loopback that dedupes by event id (the `webhook-id` header),
as receivers are told to, and counts the duplicates it dropped. It can answer slowly,
and it can start on a port that refused connections until then (down at first)."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import orjson


class DedupingReceiver:
    def __init__(self, on: socket.socket, delay_s: float = 0.0) -> None:
        self.by_event: Counter[str] = Counter()
        self.subjects: dict[str, str] = {}  # event id -> the asset id it is about
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                if delay_s:
                    time.sleep(delay_s)  # a slow receiver: the delivery is in flight longer
                event_id = self.headers.get("webhook-id", "")
                subject = str(orjson.loads(body).get("data", {}).get("id", ""))
                with receiver._lock:
                    receiver.by_event[event_id] += 1
                    receiver.subjects[event_id] = subject
                # The sender may be gone (killed mid-delivery): the delivery still counts.
                with contextlib.suppress(OSError):
                    self.send_response(200)
                    self.send_header("content-length", "2")
                    self.end_headers()
                    self.wfile.write(b"ok")

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(on.getsockname(), Handler, bind_and_activate=False)
        self._server.socket.close()
        self._server.socket = on  # bound, not listening: connecting is refused until entered
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> DedupingReceiver:
        if not self._thread.is_alive():
            self._server.server_activate()
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._thread.is_alive():  # shutdown() waits for a loop that never ran otherwise
            self._server.shutdown()
        self._server.server_close()

    def delivered(self) -> set[str]:
        """The asset ids some delivery was about."""
        with self._lock:
            return set(self.subjects.values())

    def duplicates(self) -> int:
        """Deliveries beyond the first of each event id."""
        with self._lock:
            return sum(n - 1 for n in self.by_event.values())

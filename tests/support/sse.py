"""A Server-Sent Events reader for tests: reads a real stream in a thread and
hands frames over a queue, so a test can wait for one with a timeout."""

from __future__ import annotations

import contextlib
import queue
import socket
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson

from tests.support.server import local_client


@dataclass
class Frame:
    id: str | None = None
    event: str | None = None
    data: Any = None
    comments: list[str] = field(default_factory=list)


def frames_of(lines: Iterable[str]) -> Iterator[Frame]:
    """The frames of an event stream's lines (without their line ends), each as its
    blank line ends it; a frame of neither id, event nor comment is skipped."""
    frame = Frame()
    for line in lines:
        if line == "":
            if frame.id or frame.event or frame.comments:
                yield frame
            frame = Frame()
        elif line.startswith(":"):
            frame.comments.append(line[1:].strip())
        else:
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "id":
                frame.id = value
            elif name == "event":
                frame.event = value
            elif name == "data":
                frame.data = orjson.loads(value)


class SseReader:
    def __init__(
        self,
        url: str,
        token: str | None,
        headers: dict[str, str] | None = None,
        params: dict[str, str] | None = None,
    ) -> None:
        self._client = local_client(timeout=httpx.Timeout(5, read=None))
        self._request = self._client.build_request(
            "GET",
            url,
            params=params,
            # No token: the dashboard's stream, with the session cookie in `headers`.
            headers={**({"Authorization": f"Bearer {token}"} if token else {}), **(headers or {})},
        )
        self.frames: queue.Queue[Frame | None] = queue.Queue()  # None: the stream ended
        self.status: int | None = None
        self.failure: Exception | None = None  # why the stream broke off, if it did
        self._socket: socket.socket | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)

    def __enter__(self) -> SseReader:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        """Hang up, as a browser leaving the page does. Closing the client alone would
        not: the socket stays open while the reading thread is blocked in `recv` on it
        (Linux releases it when that call returns), so the service would see the reader
        only at its next heartbeat. Shutting the socket down ends the call and sends
        the FIN at once."""
        if self._socket is not None:
            with contextlib.suppress(OSError):  # the service closed it first
                self._socket.shutdown(socket.SHUT_RDWR)
        self._client.close()
        self._thread.join(5)

    def _read(self) -> None:
        response = None
        try:
            response = self._client.send(self._request, stream=True)
            self._socket = response.extensions["network_stream"].get_extra_info("socket")
            self.status = response.status_code
            self._ready.set()
            for frame in frames_of(response.iter_lines()):
                self.frames.put(frame)
        except (httpx.HTTPError, RuntimeError) as failure:
            self.failure = failure
        finally:
            if response is not None:
                response.close()
            self._ready.set()
            self.frames.put(None)

    def next_event(self, timeout: float = 10) -> Frame:
        """The next frame with an event, skipping comments; fails on close or timeout."""
        while True:
            frame = self.frames.get(timeout=timeout)
            if frame is None:
                raise AssertionError("stream closed")
            if frame.event:
                return frame

    def events(self, count: int, timeout: float = 10) -> list[Frame]:
        return [self.next_event(timeout) for _ in range(count)]

    def wait_closed(self, timeout: float = 10) -> None:
        while True:
            frame = self.frames.get(timeout=timeout)
            if frame is None:
                return

    def next_comment(self, timeout: float = 10) -> str:
        while True:
            frame = self.frames.get(timeout=timeout)
            if frame is None:
                raise AssertionError("stream closed")
            if frame.comments and not frame.event:
                return frame.comments[-1]

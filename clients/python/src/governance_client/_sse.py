"""Reading Server-Sent Events line by line, as the HTML standard describes it.

The parser is pure: it takes the lines of a stream (without their line endings)
and hands back each complete message. Comments (``: keepalive``) and messages
without data are skipped; ``retry:`` changes how long to wait before
reconnecting; ``id:`` is remembered as the position to resume from.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Message:
    event: str
    data: str
    id: str | None


@dataclass(frozen=True)
class StreamConnection:
    """What an event stream's ``on_connect`` is told each time it connects:
    ``reconnect`` is False for the first connection and True for every later one;
    ``last_event_id`` is the ``seq`` it resumed after (sent as ``Last-Event-ID``),
    None when it started from the present."""

    reconnect: bool
    last_event_id: int | None


class SSEParser:
    def __init__(self) -> None:
        self.last_id: str | None = None
        self.retry_ms: int | None = None
        self._event = ""
        self._data: list[str] = []

    def feed(self, line: str) -> Message | None:
        """Take one line; a blank line ends a message, which is returned."""
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self.last_id = value
        elif name == "retry" and value.isdigit():
            self.retry_ms = int(value)
        return None

    def reset(self) -> None:
        """Forget a message cut short by a dropped connection (its id stays)."""
        self._event = ""
        self._data = []

    def _dispatch(self) -> Message | None:
        data, event = self._data, self._event
        self.reset()
        if not data:
            return None
        return Message(event=event or "message", data="\n".join(data), id=self.last_id)

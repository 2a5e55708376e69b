"""The HTTP/1.1 protocol `governance serve` runs: uvicorn's httptools protocol, with
every `Upgrade` header taken out of a request's head before the parser reads it, and
the app's event streams ended when the server begins to stop.

The service upgrades to nothing (it has no WebSocket or HTTP/2 endpoint), and a
server may ignore an upgrade offer and answer the request as it is (RFC 9110 §7.8).
httptools cannot: it stops parsing at the end of the head of any request that offers
one, so the body is lost and the request reaches the handler empty. A stock JDK
`HttpClient` offers `Upgrade: h2c` on every `http://` request, so each of its POSTs
was answered 400 "The request body is empty" (uvicorn issue #2722). uvicorn's pure
Python h11 protocol reads such a body, but parses every request more slowly; this
keeps the fast parser and costs one substring search per request head.

One case is left as it was: a request pipelined behind another in the same read
(its head arrives while the parser is inside the first) reaches the parser as sent.
Clients do not pipeline POSTs; the JDK, browsers and curl do not pipeline at all.

On SIGTERM uvicorn stops accepting, asks each connection to finish its response, and
waits for them up to its graceful-shutdown timeout before it cancels what is left.
An event stream never finishes by itself, so each open one held the stop for the whole
timeout and was then cancelled, logged as an error with its traceback. The app hears
of the stop only after that (its lifespan ends last), so the protocol tells it: the
first connection asked to finish closes the broker's streams, which end as finished
responses and whose readers reconnect with Last-Event-ID.
"""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from service import state

# A request head longer than this is handed to the parser as it is (uvicorn's own
# limit for a head under h11 is 16 KiB; httptools has none).
MAX_HEAD_BYTES = 64 * 1024
END_OF_HEAD = b"\r\n\r\n"


def without_upgrade(head: bytes) -> bytes:
    """A request head (up to and including the CRLF that ends its last header line)
    with its `Upgrade` header lines removed; the head itself when it has none."""
    if b"upgrade:" not in head.lower():
        return head
    lines = head.split(b"\r\n")
    return b"\r\n".join(line for line in lines if line[:8].lower() != b"upgrade:")


class UpgradeIgnoringProtocol(HttpToolsProtocol):
    """Reads the head of each request before the parser does, to take `Upgrade` out.

    Between requests (at the start, and after each message completes) incoming bytes
    are held until the head is whole; once the parser has begun a message, bytes go
    straight to it, so bodies stream as before."""

    _between_messages = True
    _held = b""

    def data_received(self, data: bytes) -> None:
        if not self._between_messages:
            super().data_received(data)
            return
        data = self._held + data if self._held else data
        end = data.find(END_OF_HEAD)
        if end < 0 and len(data) < MAX_HEAD_BYTES:
            self._held = data
            self._unset_keepalive_if_required()  # a head is arriving: not idle
            return
        self._held = b""
        if end >= 0:
            data = without_upgrade(data[: end + 2]) + data[end + 2 :]
        super().data_received(data)

    def on_message_begin(self) -> None:
        self._between_messages = False
        super().on_message_begin()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._between_messages = True

    def shutdown(self) -> None:
        made = self.app_state.get(state.KEY)  # absent if the lifespan never started
        if isinstance(made, state.AppState):
            made.broker.close()
        super().shutdown()


# What uvicorn's `http` option takes: `governance serve` and the tests' servers alike.
UVICORN_HTTP = f"{__name__}:{UpgradeIgnoringProtocol.__name__}"

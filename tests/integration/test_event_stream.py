"""The live event stream: SSE with resume, filters, heartbeats, bounded buffers,
revocation, and several service processes on one Neo4j."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator

import httpx
import neo4j
import pytest

from service.app import create_app
from service.events.broker import Broker
from service.settings import EventSettings, Settings
from tests.conftest import Tokens, make_tokens
from tests.support.metrics import scrape
from tests.support.progress import newest_event
from tests.support.server import LiveServer
from tests.support.sse import SseReader
from tests.support.waiting import eventually
from tests.support.writes import post_asset


def test_live_events_arrive_as_server_sent_events(
    live: LiveServer, tokens: Tokens, writer: httpx.Client
) -> None:
    with SseReader(live.url + "/api/v1/events/stream", tokens.read) as stream:
        assert stream.status == 200
        post_asset(writer, "a")
        frame = stream.next_event()
    assert frame.event == "asset.created"
    assert frame.data["type"] == "asset.created" and frame.data["data"]["id"] == "a"
    assert frame.id == str(frame.data["seq"])


def test_resume_after_a_dropped_connection_loses_and_doubles_nothing(
    live: LiveServer, tokens: Tokens, writer: httpx.Client
) -> None:
    url = live.url + "/api/v1/events/stream"
    with SseReader(url, tokens.read, params={"types": "asset.*"}) as stream:
        post_asset(writer, "a0")
        post_asset(writer, "a1")
        seen = stream.events(2)
    for i in range(2, 6):  # written while nobody listens
        post_asset(writer, f"a{i}")
    with SseReader(
        url, tokens.read, headers={"Last-Event-ID": seen[-1].id or ""}, params={"types": "asset.*"}
    ) as stream:
        missed = stream.events(4)
        post_asset(writer, "a6")
        live_one = stream.next_event()
    ids = [f.data["data"]["id"] for f in [*seen, *missed, live_one]]
    assert ids == [f"a{i}" for i in range(7)]
    seqs = [int(f.id or 0) for f in [*seen, *missed, live_one]]
    assert seqs == sorted(set(seqs))


def test_types_filter_the_stream(live: LiveServer, tokens: Tokens, writer: httpx.Client) -> None:
    with SseReader(
        live.url + "/api/v1/events/stream", tokens.read, params={"types": "lineage.edge.created"}
    ) as stream:
        post_asset(writer, "x")
        writer.post("/lineage", json={"source": "x", "target": "y"})
        frame = stream.next_event()
    assert frame.event == "lineage.edge.created"


def test_bad_stream_parameters_are_422(live: LiveServer, tokens: Tokens) -> None:
    url = live.url + "/api/v1/events/stream"
    headers = {"Authorization": f"Bearer {tokens.read}"}
    bad_type = httpx.get(url, params={"types": "nope"}, headers=headers)
    assert bad_type.status_code == 422
    for bad in ("abc", str(2**63)):  # past what Neo4j holds: no 500 from the replay
        bad_id = httpx.get(url, headers={**headers, "Last-Event-ID": bad})
        assert bad_id.status_code == 422 and bad_id.json()["errors"][0]["loc"] == [
            "header",
            "Last-Event-ID",
        ]
    assert httpx.get(url).status_code == 401
    assert httpx.get(url, params={"access_token": tokens.read}).status_code == 401


def test_a_revoked_tokens_stream_closes(
    live: LiveServer, tokens: Tokens, admin: httpx.Client
) -> None:
    made = admin.post("/tokens", json={"name": "stream", "scopes": ["read"]}).json()
    with SseReader(live.url + "/api/v1/events/stream", made["token"]) as stream:
        assert stream.status == 200
        admin.delete(f"/tokens/{made['id']}")
        stream.wait_closed(timeout=10)


@pytest.fixture
def tuned_server(
    make_settings: Callable[..., Settings], clean: None
) -> Iterator[tuple[LiveServer, Settings]]:
    settings = make_settings(
        events=EventSettings(poll_interval_s=0.05, heartbeat_s=0.3, subscriber_buffer=5)
    )
    server = LiveServer(create_app(settings)).start()
    yield server, settings
    server.stop()


def test_heartbeats_keep_an_idle_stream_open(tuned_server: tuple[LiveServer, Settings]) -> None:
    server, settings = tuned_server
    token = make_tokens(settings, hb=["read"])["hb"]
    with SseReader(server.url + "/api/v1/events/stream", token) as stream:
        assert stream.next_comment(timeout=5) == "connected"
        assert stream.next_comment(timeout=5) == "keepalive"


def test_a_reader_that_hangs_up_is_let_go_at_once(
    make_settings: Callable[..., Settings], clean: None
) -> None:
    """Hanging up ends the stream then, not at the service's next heartbeat (a minute
    here), so the subscription is freed at once (a test reader that had not really
    hung up once kept its stream open into `governance serve`'s shutdown)."""
    settings = make_settings(events=EventSettings(poll_interval_s=0.25, heartbeat_s=60))
    server = LiveServer(create_app(settings)).start()

    def streams() -> float:
        return scrape(server).value("governance_sse_subscribers")

    try:
        token = make_tokens(settings, leaving=["read"])["leaving"]
        with SseReader(server.url + "/api/v1/events/stream", token) as stream:
            assert stream.next_comment(timeout=10) == "connected"
            assert streams() == 1
        # Well inside the heartbeat's minute, which the old reader waited for.
        eventually(lambda: streams() == 0, timeout=30, what="the stream ended at the hang-up")
    finally:
        server.stop()


EVENTS = 200


def test_a_reader_that_falls_behind_is_disconnected(
    tuned_server: tuple[LiveServer, Settings], driver: neo4j.Driver
) -> None:
    """The buffer is 5 events. A reader that stops reading while 12 MB of events are
    produced fills the socket buffers (a few MB), then its 5-event buffer; the server
    drops the subscription and ends the response instead of buffering more. Draining
    the socket afterwards reaches the end of the stream before the last event."""
    server, settings = tuned_server
    made = make_tokens(settings, slow=["write"])
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        request = f"GET /api/v1/events/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {made['slow']}\r\n\r\n"
        sock.sendall(request.encode())
        assert b"200 OK" in sock.recv(1024)
        headers = {"Authorization": f"Bearer {made['slow']}"}
        with httpx.Client(base_url=server.url + "/api/v1", headers=headers) as client:
            for i in range(EVENTS):
                post_asset(client, f"big{i}", description="x" * 60_000)
        follower: Broker = server.app_state.broker
        newest = newest_event(driver)
        eventually(lambda: follower.last_seq >= newest, what="the follower passed the last events")
        sock.settimeout(10)
        received = _read_to_end(sock, timeout=30)
    delivered = received.count(b"event: asset.created")
    assert 0 < delivered < EVENTS, delivered


def _read_to_end(sock: socket.socket, timeout: float) -> bytes:
    """Everything the server sends until it closes the connection."""
    chunks: list[bytes] = []

    def closed() -> bool:
        chunks.append(sock.recv(1 << 20))
        return not chunks[-1]

    eventually(closed, timeout=timeout, interval=0, what="the server ended the stream")
    return b"".join(chunks)


def test_an_event_written_through_one_process_reaches_a_stream_on_another(
    make_settings: Callable[..., Settings], live: LiveServer, tokens: Tokens, writer: httpx.Client
) -> None:
    other = LiveServer(create_app(make_settings())).start()
    try:
        with SseReader(other.url + "/api/v1/events/stream", tokens.read) as stream:
            post_asset(writer, "cross")
            frame = stream.next_event()
        assert frame.data["data"]["id"] == "cross"
    finally:
        other.stop()

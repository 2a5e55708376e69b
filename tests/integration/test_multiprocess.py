"""Two worker processes on one port (`governance serve --workers 2 --fd`), against a
real Neo4j: what a client may rely on whichever process its connection reaches.

A connection goes to whichever worker accepts it first, so the tests find out which
one holds it (from /proc: the worker whose open files include the server end) and
send each request through the worker they mean.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.conftest import Tokens
from tests.support import procfs
from tests.support.metrics import Scrape
from tests.support.neo4j_server import Neo4jTarget
from tests.support.process import LOGS, SECRET_KEY
from tests.support.receiver import Receiver
from tests.support.server import loopback_listener
from tests.support.sse import Frame, frames_of
from tests.support.waiting import eventually

ROOT = Path(__file__).resolve().parents[2]
API = "/api/v1"
QUICK = {
    "GOVERNANCE_EVENT_POLL_INTERVAL": "0.05",
    "GOVERNANCE_SSE_HEARTBEAT": "1",
    "GOVERNANCE_WEBHOOK_ALLOW_PRIVATE": "true",
    "GOVERNANCE_WEBHOOK_POLL_INTERVAL": "0.1",
    "GOVERNANCE_WEBHOOK_RETRY_SCHEDULE": "0.2,0.4,0.8",
    "GOVERNANCE_POLICY_DEBOUNCE": "0.1",
    "GOVERNANCE_POLICY_MAX_DELAY": "1",
    "GOVERNANCE_LOG_FORMAT": "text",
}


class Response:
    def __init__(self, raw: http.client.HTTPResponse) -> None:
        self.status = raw.status
        self.headers = {k.lower(): v for k, v in raw.getheaders()}
        self.body = raw.read()

    def json(self) -> Any:
        return orjson.loads(self.body)


class Workers:
    """`governance serve --workers 2 --fd` on a loopback port bound here."""

    def __init__(self, target: Neo4jTarget, extra_env: dict[str, str], log: Path) -> None:
        self.env = {
            "GOVERNANCE_SECRET_KEY": SECRET_KEY,
            **os.environ,
            "NEO4J_URI": target.uri,
            "NEO4J_USERNAME": target.username,
            "NEO4J_PASSWORD": target.password,
            "NEO4J_DATABASE": target.database,
            **QUICK,
            **extra_env,
        }
        self.log = log
        self.port = 0
        self.pids: tuple[int, int] = (0, 0)
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Workers:
        listener = loopback_listener()
        self.port = listener.getsockname()[1]
        fd = listener.fileno()
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "service", "serve", "--workers", "2", "--fd", str(fd)],
                env=self.env,
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
                pass_fds=(fd,),
            )
        listener.close()  # the supervisor and its workers have their own copies
        try:
            first, second = eventually(self._two_workers_answer, timeout=120, what="two workers")
        except BaseException:
            self.stop()
            raise
        self.pids = (first, second)
        return self

    def _two_workers_answer(self) -> list[int]:
        assert self.process is not None and self.process.poll() is None, self.log.read_text()
        seen: set[int] = set()
        for _ in range(40):
            pid, connection = self._any_connection()
            connection.close()
            if pid is not None:
                seen.add(pid)
            if len(seen) == 2:
                return sorted(seen)
        raise AssertionError(f"only {seen} answered so far")

    def _any_connection(self) -> tuple[int | None, http.client.HTTPConnection]:
        """A new kept-alive connection that answered `/readyz` 200, and its worker."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request("GET", "/readyz")
            ready = Response(connection.getresponse()).status == 200
        except OSError as exc:
            connection.close()
            raise AssertionError(f"not answering yet: {exc}") from exc
        assert self.process is not None and connection.sock is not None
        holder = procfs.holders(procfs.children(self.process.pid), self.port).get(
            connection.sock.getsockname()[1]
        )
        return (holder if ready else None), connection

    def replacement_for(self, dead: int) -> int:
        """The worker the supervisor started in place of `dead`, once both answer."""
        survivor = next(pid for pid in self.pids if pid != dead)

        def both_answer_without_the_dead() -> list[int]:
            answering = self._two_workers_answer()
            assert dead not in answering, f"{dead} still answers"
            return answering

        answering = eventually(both_answer_without_the_dead, timeout=120, what="a new worker")
        (new,) = set(answering) - {survivor}
        self.pids = (survivor, new)
        return new

    def connection(self, pid: int) -> http.client.HTTPConnection:
        """A kept-alive connection held by the worker `pid`."""
        for _ in range(200):
            holder, connection = self._any_connection()
            if holder == pid:
                return connection
            connection.close()
        raise AssertionError(f"200 connections and none reached worker {pid}")

    def call(
        self,
        pid: int,
        method: str,
        path: str,
        token: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Response:
        """One request through the worker `pid`."""
        connection = self.connection(pid)
        sent = {"Authorization": f"Bearer {token}", **(headers or {})}
        payload = None if body is None else orjson.dumps(body)
        if payload is not None:
            sent["Content-Type"] = "application/json"
        try:
            connection.request(method, API + path, body=payload, headers=sent)
            return Response(connection.getresponse())
        finally:
            connection.close()

    def stream(self, pid: int, token: str, last_event_id: str | None = None) -> Stream:
        headers = {"Authorization": f"Bearer {token}"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        return Stream(self.connection(pid), headers)

    def stop(self) -> None:
        """SIGTERM to the supervisor: every worker finishes its lifespan, all exit 0."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
            raise
        assert status == 0, self.log.read_text()[-4000:]
        assert not any(Path(f"/proc/{pid}").exists() for pid in self.pids)


class Stream:
    """A live event stream on one chosen connection, read by a thread."""

    def __init__(self, connection: http.client.HTTPConnection, headers: dict[str, str]) -> None:
        self.connection = connection
        connection.request("GET", API + "/events/stream", headers=headers)
        self.response = connection.getresponse()
        self.status = self.response.status
        self.frames: queue.Queue[Frame | None] = queue.Queue()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        lines = (line.decode().rstrip("\r\n") for line in iter(self.response.readline, b""))
        try:
            for frame in frames_of(lines):
                if frame.event:  # events only, not keep-alive comments
                    self.frames.put(frame)
        except (OSError, ValueError, http.client.HTTPException):
            pass  # closed by `close`
        finally:
            self.frames.put(None)

    def events(self, count: int, timeout: float = 20) -> list[Frame]:
        taken: list[Frame] = []
        for _ in range(count):
            frame = self.frames.get(timeout=timeout)
            assert frame is not None, f"the stream ended after {len(taken)} of {count} events"
            taken.append(frame)
        return taken

    def close(self) -> None:
        sock = self.connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):  # already reset when its worker died
                sock.shutdown(socket.SHUT_RDWR)  # the reader's next read ends
        self._thread.join(10)
        self.connection.close()

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@pytest.fixture(scope="module")
def workers(neo4j_target: Neo4jTarget) -> Iterator[Workers]:
    """Both workers take part in webhook dispatch and policy evaluation."""
    env = {"GOVERNANCE_WEBHOOK_DISPATCH": "true", "GOVERNANCE_POLICY_EVALUATION": "true"}
    server = Workers(neo4j_target, env, LOGS / "multiprocess.log").start()
    yield server
    server.stop()


def _asset(asset_id: str, **extra: Any) -> dict[str, Any]:
    return {"id": asset_id, "name": asset_id, "type": "table", **extra}


def _replay(workers: Workers, pid: int, token: str, types: str) -> list[dict[str, Any]]:
    response = workers.call(pid, "GET", f"/events?types={types}&limit=500", token)
    assert response.status == 200, response.body
    items: list[dict[str, Any]] = response.json()["items"]
    return items


# -- live streams ----------------------------------------------------------------------


def test_a_stream_on_one_worker_sees_writes_through_both(workers: Workers, tokens: Tokens) -> None:
    a, b = workers.pids
    with workers.stream(a, tokens.read) as stream:
        assert stream.status == 200
        for i, pid in enumerate([b, a, b, b, a]):
            created = workers.call(pid, "POST", "/assets", tokens.write, _asset(f"s{i}"))
            assert created.status == 201, created.body
        frames = stream.events(5)
    assert [f.data["data"]["id"] for f in frames] == [f"s{i}" for i in range(5)]
    seqs = [int(f.id or 0) for f in frames]
    assert seqs == sorted(seqs) and len(set(seqs)) == 5


def test_a_stream_resumes_on_the_other_worker_with_nothing_lost_or_doubled(
    workers: Workers, tokens: Tokens
) -> None:
    a, b = workers.pids
    with workers.stream(a, tokens.read) as first:
        for i in range(2):
            workers.call(b, "POST", "/assets", tokens.write, _asset(f"r{i}"))
        seen = first.events(2)
    for i in range(2, 5):  # while no stream is open
        workers.call(a if i % 2 else b, "POST", "/assets", tokens.write, _asset(f"r{i}"))
    with workers.stream(b, tokens.read, last_event_id=seen[-1].id) as resumed:
        workers.call(a, "POST", "/assets", tokens.write, _asset("r5"))
        rest = resumed.events(4)
    ids = [f.data["data"]["id"] for f in seen + rest]
    assert ids == [f"r{i}" for i in range(6)]
    assert [int(f.id or 0) for f in rest] == sorted({int(f.id or 0) for f in rest})


# -- webhooks --------------------------------------------------------------------------


def _delivered(workers: Workers, pid: int, token: str, hook: str, count: int) -> list[Any]:
    log: list[dict[str, Any]] = workers.call(
        pid, "GET", f"/webhooks/{hook}/deliveries?limit=100", token
    ).json()["items"]
    assert len(log) == count and all(d["state"] == "delivered" for d in log), log
    return log


def _scrape(workers: Workers, pid: int) -> Scrape:
    """`/metrics` as the worker `pid` answers it."""
    connection = workers.connection(pid)
    try:
        connection.request("GET", "/metrics")
        answer = Response(connection.getresponse())
    finally:
        connection.close()
    assert answer.status == 200, answer.body
    return Scrape(answer.body.decode())


def _delivered_counted(workers: Workers, pid: int) -> float:
    """`governance_webhook_deliveries_total{outcome="delivered"}` as `pid` answers it."""
    return _scrape(workers, pid).value("governance_webhook_deliveries_total", outcome="delivered")


def test_each_event_reaches_a_webhook_once_though_both_workers_dispatch(
    workers: Workers, tokens: Tokens
) -> None:
    a, b = workers.pids
    before = {pid: _delivered_counted(workers, pid) for pid in workers.pids}
    with Receiver() as receiver:
        hook = workers.call(
            a,
            "POST",
            "/webhooks",
            tokens.admin,
            {"url": receiver.url, "types": ["asset.created"]},
        ).json()
        for i in range(10):
            workers.call(b if i % 2 else a, "POST", "/assets", tokens.write, _asset(f"w{i}"))
        log = eventually(lambda: _delivered(workers, b, tokens.admin, hook["id"], 10), timeout=60)
        received = list(receiver.received)
    assert all(d["attempts"] == 1 for d in log)
    ids = sorted(orjson.loads(r.body)["data"]["id"] for r in received)
    assert ids == sorted(f"w{i}" for i in range(10))  # each once, none twice
    assert len({r.headers["webhook-id"] for r in received}) == 10

    # Whichever worker answers the scrape counts every worker's attempts, each once
    # (a sender counts an attempt just after recording it: the last may lag a moment).
    def sent() -> dict[int, float]:
        return {pid: _delivered_counted(workers, pid) - before[pid] for pid in workers.pids}

    eventually(lambda: sent() == {a: 10, b: 10}, timeout=10, what="10 deliveries counted")
    assert sent() == {a: 10, b: 10}


# -- policy evaluation -----------------------------------------------------------------


def _violations(workers: Workers, pid: int, token: str, policy: str) -> list[str]:
    response = workers.call(pid, "GET", f"/policies/{policy}/violations", token)
    return sorted(v["asset_id"] for v in response.json()["violations"])


def test_background_evaluation_opens_and_resolves_each_violation_once(
    workers: Workers, tokens: Tokens
) -> None:
    a, b = workers.pids
    policy = workers.call(
        a,
        "POST",
        "/policies",
        tokens.admin,
        {"name": "tables have owners", "kind": "require_owner", "selector": {"type": "table"}},
    ).json()["id"]
    for i in range(4):
        workers.call(b if i % 2 else a, "POST", "/assets", tokens.write, _asset(f"p{i}"))
    expected = [f"p{i}" for i in range(4)]
    eventually(lambda: _violations(workers, a, tokens.read, policy) == expected, timeout=30)
    fixed = workers.call(
        b,
        "PATCH",
        "/assets/p0",
        tokens.write,
        {"owners": ["team"]},
        {"Content-Type": "application/merge-patch+json"},
    )
    assert fixed.status == 200, fixed.body
    eventually(lambda: _violations(workers, b, tokens.read, policy) == expected[1:], timeout=30)
    # One more change, evaluated after the resolution: a round that ran twice would
    # have opened or resolved something twice by the time this one shows.
    workers.call(a, "POST", "/assets", tokens.write, _asset("p9"))
    eventually(
        lambda: _violations(workers, a, tokens.read, policy) == [*expected[1:], "p9"], timeout=30
    )
    opened = _replay(workers, b, tokens.read, "policy.violation.opened")
    resolved = _replay(workers, a, tokens.read, "policy.violation.resolved")
    assert sorted(e["data"]["asset_id"] for e in opened) == [*expected, "p9"]
    assert [e["data"]["asset_id"] for e in resolved] == ["p0"]


# -- metrics ---------------------------------------------------------------------------

REQUESTS = "governance_http_requests_total"
READ_ASSET = {"method": "GET", "route": "/api/v1/assets/{asset_id:path}", "status": "200"}


def test_a_scrape_through_either_worker_counts_the_requests_of_both(
    workers: Workers, tokens: Tokens
) -> None:
    a, b = workers.pids
    workers.call(a, "POST", "/assets", tokens.write, _asset("m1"))
    before = {pid: _scrape(workers, pid).value(REQUESTS, **READ_ASSET) for pid in workers.pids}
    for pid in (a, a, a, b, b):
        assert workers.call(pid, "GET", "/assets/m1", tokens.read).status == 200

    def counted() -> dict[int, float]:
        """Each worker's scrape, less what it said before. A request is counted just
        after its answer is sent, so the other worker may be a moment behind."""
        return {
            pid: _scrape(workers, pid).value(REQUESTS, **READ_ASSET) - before[pid]
            for pid in workers.pids
        }

    eventually(lambda: counted() == {a: 5, b: 5}, timeout=10, what="5 requests in each scrape")
    found = _scrape(workers, b)
    route = {"method": "GET", "route": READ_ASSET["route"]}  # any status
    latency = found.value("governance_http_request_duration_seconds_count", **route)
    assert latency == found.value(REQUESTS, **route)  # histograms are added up alike
    assert "process_resident_memory_bytes" not in found.text  # one process's, left out


def test_live_streams_on_both_workers_are_counted_once_each(
    workers: Workers, tokens: Tokens
) -> None:
    a, b = workers.pids

    def streams(pid: int) -> float:
        return _scrape(workers, pid).value("governance_sse_subscribers")

    assert streams(a) == streams(b) == 0
    with workers.stream(a, tokens.read) as first, workers.stream(b, tokens.read) as second:
        assert first.status == second.status == 200
        eventually(lambda: streams(a) == streams(b) == 2, timeout=10, what="two streams")
    eventually(lambda: streams(b) == 0, timeout=10, what="no stream once both closed")


def test_a_killed_workers_streams_stop_counting_once_it_is_replaced(
    neo4j_target: Neo4jTarget, tokens: Tokens, tmp_path: Path
) -> None:
    """A worker that stops cleanly removes its live count itself; a killed one cannot,
    so its replacement does when it starts."""
    env = {"GOVERNANCE_WEBHOOK_DISPATCH": "false", "GOVERNANCE_POLICY_EVALUATION": "false"}
    server = Workers(neo4j_target, env, tmp_path / "serve.log").start()
    try:
        doomed, survivor = server.pids

        def streams() -> float:
            return _scrape(server, survivor).value("governance_sse_subscribers")

        with server.stream(doomed, tokens.read) as stream:
            assert stream.status == 200
            eventually(lambda: streams() == 1, timeout=10, what="the stream counted")
            os.kill(doomed, signal.SIGKILL)
            server.replacement_for(doomed)
        eventually(lambda: streams() == 0, timeout=10, what="the dead worker's stream gone")
    finally:
        server.stop()


def test_the_shared_metrics_directory_goes_when_the_workers_stop(
    neo4j_target: Neo4jTarget, tmp_path: Path
) -> None:
    env = {"GOVERNANCE_WEBHOOK_DISPATCH": "false", "GOVERNANCE_POLICY_EVALUATION": "false"}
    server = Workers(neo4j_target, env, tmp_path / "serve.log").start()
    try:
        shared = {procfs.environment(pid)["PROMETHEUS_MULTIPROC_DIR"] for pid in server.pids}
        (directory,) = shared  # both workers write to one directory
        assert any(Path(directory).glob("*.db"))
    finally:
        server.stop()
    assert not Path(directory).exists()


# -- idempotency and rate limits -------------------------------------------------------


def test_an_idempotent_retry_on_the_other_worker_gets_the_first_answer(
    workers: Workers, tokens: Tokens
) -> None:
    a, b = workers.pids
    key = {"Idempotency-Key": "create-i1"}
    first = workers.call(a, "POST", "/assets", tokens.write, _asset("i1"), key)
    again = workers.call(b, "POST", "/assets", tokens.write, _asset("i1"), key)
    assert (first.status, again.status) == (201, 201)
    assert again.body == first.body and again.headers.get("idempotent-replayed") == "true"
    other = workers.call(b, "POST", "/assets", tokens.write, _asset("i1", platform="x"), key)
    assert other.status == 422 and other.json()["code"] == "idempotency_key_reused"
    created = _replay(workers, a, tokens.read, "asset.created")
    assert [e["data"]["id"] for e in created] == ["i1"]


def test_rate_limits_are_counted_by_each_worker_on_its_own(
    neo4j_target: Neo4jTarget, tokens: Tokens, tmp_path: Path
) -> None:
    """Documented: N processes allow a token N times the configured rate."""
    env = {
        "GOVERNANCE_RATE_LIMIT_BURST": "3",
        "GOVERNANCE_RATE_LIMIT_PER_SECOND": "0.01",
        "GOVERNANCE_WEBHOOK_DISPATCH": "false",
        "GOVERNANCE_POLICY_EVALUATION": "false",
    }
    server = Workers(neo4j_target, env, tmp_path / "serve.log").start()
    try:
        statuses = {
            pid: [server.call(pid, "GET", "/assets", tokens.read).status for _ in range(4)]
            for pid in server.pids
        }
    finally:
        server.stop()
    assert statuses == {pid: [200, 200, 200, 429] for pid in server.pids}

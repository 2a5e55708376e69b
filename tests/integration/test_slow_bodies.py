"""A request body that stops arriving is 408 `body_timeout` after the body timeout
(the connection is not held forever) and writes nothing; a normal upload still
works under the same timeout; gzip uploads inflate at most N at a time."""

from __future__ import annotations

import gzip
import json
import socket
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from service.app import create_app
from service.settings import Settings
from tests.conftest import Tokens, client_for
from tests.support.dbt_fixtures import NEWEST, manifest_path
from tests.support.server import LiveServer

RUN_RESULTS = Path(__file__).resolve().parents[1] / "fixtures" / "dbt_quality"


@pytest.fixture(scope="module")
def strict(make_settings: Callable[..., Settings]) -> Iterator[LiveServer]:
    """A server with a 1 s body timeout that inflates one gzip upload at a time."""
    base = make_settings()
    limits = base.limits.model_copy(
        update={"body_timeout_s": 1.0, "max_concurrent_inflations": 1, "inflation_wait_s": 60.0}
    )
    server = LiveServer(create_app(base.model_copy(update={"limits": limits}))).start()
    yield server
    server.stop()


def _read_response(sock: socket.socket) -> bytes:
    received = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return received
        received += chunk


def test_a_stalled_body_is_408_and_writes_nothing(strict: LiveServer, tokens: Tokens) -> None:
    body = json.dumps({"id": "slow.asset", "name": "slow", "type": "table"}).encode()
    head = (
        "POST /api/v1/assets HTTP/1.1\r\n"
        f"Host: 127.0.0.1:{strict.port}\r\n"
        f"Authorization: Bearer {tokens.admin}\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", strict.port), timeout=10) as sock:
        sock.sendall(head + body[: len(body) // 2])  # then stall
        answer = _read_response(sock)  # the server closes the connection after answering
    elapsed = time.monotonic() - started
    status, _, rest = answer.partition(b"\r\n")
    assert status == b"HTTP/1.1 408 Request Timeout", answer
    headers, _, payload = rest.partition(b"\r\n\r\n")
    assert b"content-type: application/problem+json" in headers.lower()
    assert json.loads(payload)["code"] == "body_timeout"
    assert 0.9 <= elapsed < 8
    with client_for(strict, tokens.admin) as admin:
        assert admin.get("/assets/slow.asset").status_code == 404


def test_a_normal_large_upload_still_works(strict: LiveServer, tokens: Tokens) -> None:
    raw = gzip.decompress(manifest_path(NEWEST).read_bytes())
    with client_for(strict, tokens.write) as writer:
        response = writer.post(
            "/lineage/manifest",
            content=raw,
            timeout=120,
            headers={"content-type": "application/json"},
        )
    assert response.status_code == 200, response.text
    assert response.json()["assets"]["created"] > 0


def test_concurrent_gzip_uploads_inflate_one_at_a_time(strict: LiveServer, tokens: Tokens) -> None:
    zipped = gzip.compress((RUN_RESULTS / "run_results_passing.json").read_bytes())

    def upload(_: int) -> httpx.Response:
        with client_for(strict, tokens.write) as writer:
            return writer.post(
                "/quality/results/dbt",
                content=zipped,
                headers={"Content-Type": "application/json", "Content-Encoding": "gzip"},
            )

    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(upload, range(4)))
    assert [a.status_code for a in answers] == [200] * 4, [a.text for a in answers]
    budget = strict.app_state.inflation
    assert budget.peak == 1 and budget.running == 0

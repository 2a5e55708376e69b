"""A client that goes away while sending its body is not a server error: the request
is counted as 499 (the client closed the request), nothing is logged as unhandled,
and nothing is written. (Found by the soak harness: a client whose connection broke
mid-upload left a 500 and an error traceback per request.)"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator

import httpx
import pytest

from service.app import create_app
from service.settings import Settings
from tests.conftest import Tokens, client_for
from tests.support.server import LiveServer
from tests.support.waiting import eventually


@pytest.fixture
def server(make_settings: Callable[..., Settings], tokens: Tokens) -> Iterator[LiveServer]:
    live = LiveServer(create_app(make_settings())).start()
    yield live
    live.stop()


def _answered(server: LiveServer, status: str) -> float:
    text = httpx.get(server.url + "/metrics").text
    total = 0.0
    for line in text.splitlines():
        if (
            line.startswith("governance_http_requests_total{")
            and 'route="/api/v1/assets"' in line
            and f'status="{status}"' in line
        ):
            total += float(line.rsplit(" ", 1)[1])
    return total


def test_a_client_gone_mid_body_is_499_not_500(
    server: LiveServer, tokens: Tokens, caplog: pytest.LogCaptureFixture
) -> None:
    body = json.dumps({"id": "gone.asset", "name": "gone", "type": "table"}).encode()
    head = (
        "POST /api/v1/assets HTTP/1.1\r\n"
        f"Host: 127.0.0.1:{server.port}\r\n"
        f"Authorization: Bearer {tokens.admin}\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(head + body[: len(body) // 2])
    # the socket is closed: the server reads a disconnect where the rest of the body was due

    assert eventually(lambda: _answered(server, "499"), timeout=10) == 1
    assert _answered(server, "500") == 0
    assert not [r for r in caplog.records if r.getMessage() == "unhandled error"]
    with client_for(server, tokens.admin) as admin:
        assert admin.get("/assets/gone.asset").status_code == 404

"""A request that offers an upgrade (`Upgrade: h2c`, as a stock JDK `HttpClient` does
on every `http://` request) is answered as the plain HTTP/1.1 request it also is,
body included: the service upgrades to nothing."""

from __future__ import annotations

import http.client
import json
import shutil
import socket
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.conftest import Tokens
from tests.support.server import LiveServer

# The head a JDK 17 `HttpClient` sends for a POST on http:// (its defaults: HTTP/2
# offered by upgrade), with our token added.
JDK_HEAD = (
    "POST /api/v1/assets HTTP/1.1\r\n"
    "Connection: Upgrade, HTTP2-Settings\r\n"
    "Content-Length: {length}\r\n"
    "Host: 127.0.0.1:{port}\r\n"
    "HTTP2-Settings: AAEAAEAAAAIAAAABAAMAAABkAAQBAAAAAAUAAEAA\r\n"
    "Upgrade: h2c\r\n"
    "User-Agent: Java-http-client/17.0.15\r\n"
    "Authorization: Bearer {token}\r\n"
    "Content-Type: application/json\r\n"
    "\r\n"
)


def _request(live: LiveServer, token: str, asset_id: str) -> tuple[bytes, bytes]:
    body = json.dumps({"id": asset_id, "name": asset_id, "type": "table"}).encode()
    head = JDK_HEAD.format(length=len(body), port=live.port, token=token).encode()
    return head, body


def _answer(connection: socket.socket) -> tuple[int, dict[str, str], bytes]:
    response = http.client.HTTPResponse(connection)
    response.begin()
    return response.status, dict(response.getheaders()), response.read()


def test_a_body_sent_with_the_head_in_one_write_reaches_the_handler(
    live: LiveServer, tokens: Tokens, admin: httpx.Client
) -> None:
    head, body = _request(live, tokens.admin, "upgrade_one_write")
    with socket.create_connection(("127.0.0.1", live.port), timeout=30) as connection:
        connection.sendall(head + body)
        status, _, answer = _answer(connection)
    assert status == 201, answer
    assert admin.get("/assets/upgrade_one_write").json()["name"] == "upgrade_one_write"


def test_a_head_split_across_writes_then_the_body_and_a_second_request_on_the_connection(
    live: LiveServer, tokens: Tokens, admin: httpx.Client
) -> None:
    with socket.create_connection(("127.0.0.1", live.port), timeout=30) as connection:
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for asset_id in ("upgrade_split_first", "upgrade_split_second"):
            head, body = _request(live, tokens.admin, asset_id)
            cut = head.index(b"Upgrade:") + 3  # inside the very header taken out
            for piece in (head[:cut], head[cut:], body[:5], body[5:]):
                connection.sendall(piece)
            status, headers, answer = _answer(connection)
            assert status == 201, answer
            assert headers.get("connection") != "close"
    listed = admin.get("/assets", params={"q": "upgrade_split"}).json()["items"]
    assert sorted(a["id"] for a in listed) == ["upgrade_split_first", "upgrade_split_second"]


JDK_PROGRAM = """
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public class Post {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create(args[0]))
            .header("Authorization", "Bearer " + args[1])
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(args[2]))
            .build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        System.out.println(response.statusCode() + " " + response.version());
    }
}
"""


@pytest.mark.skipif(shutil.which("java") is None, reason="no JDK on PATH")
def test_a_stock_jdk_http_client_creates_an_asset(
    live: LiveServer, tokens: Tokens, admin: httpx.Client, tmp_path: Path
) -> None:
    program = tmp_path / "Post.java"
    program.write_text(JDK_PROGRAM)
    body = json.dumps({"id": "upgrade_jdk", "name": "from the JDK", "type": "table"})
    ran = subprocess.run(
        ["java", str(program), f"{live.url}/api/v1/assets", tokens.admin, body],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["201", "HTTP_1_1"]
    assert admin.get("/assets/upgrade_jdk").json()["name"] == "from the JDK"

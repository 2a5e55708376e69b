"""Logs: `governance serve` writes JSON lines when its output is not a terminal, one
access line per request with the route template and who called by id, and never
a secret: a realistic session (tokens made through the API, the CLI and the
dashboard, used, revoked and forged; passwords right and wrong; a webhook secret;
the metrics token) leaves none of them anywhere in the log."""

from __future__ import annotations

import io
import logging
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import orjson
import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from starlette.testclient import TestClient

from service import logs
from service.domain.access import tokens as token_format
from service.middleware.access_log import AccessLogMiddleware
from service.middleware.request_id import RequestIdMiddleware
from service.settings import Settings
from tests.support.dashboard import create_token_in_dashboard, hidden_fields, new_token_in
from tests.support.dashboard import submit_login as sign_in
from tests.support.neo4j_server import Neo4jTarget
from tests.support.process import ServiceProcess

RAW_ID = "s3://lake/raw/observed-events.parquet"
ACCESS_FIELDS = {
    "ts",
    "level",
    "logger",
    "msg",
    "request_id",
    "method",
    "route",
    "status",
    "duration_ms",
    "token_id",
    "user_id",
    "client",
}


class Session:
    """Clients of one service that count the requests they send and remember every
    secret they see or make, to look for them in the log afterwards."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.sent = 0
        self.secrets: set[str] = set()
        self._clients: list[httpx.Client] = []

    def api(self, token: str | None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self._client(self.url + "/api/v1", headers)

    def browser(self) -> httpx.Client:
        return self._client(self.url, {})

    def _client(self, base_url: str, headers: dict[str, str]) -> httpx.Client:
        client = httpx.Client(
            base_url=base_url,
            headers=headers,
            timeout=30,
            follow_redirects=False,
            event_hooks={"request": [self._count], "response": [self._cookies]},
        )
        self._clients.append(client)
        return client

    def _count(self, request: httpx.Request) -> None:
        self.sent += 1

    def _cookies(self, response: httpx.Response) -> None:
        for header in response.headers.get_list("set-cookie"):
            value = header.split(";", 1)[0].partition("=")[2].strip('"')
            if value:
                self.secrets.add(value)

    def close(self) -> None:
        for client in self._clients:
            client.close()


@pytest.fixture
def served(neo4j_target: Neo4jTarget, clean: None, tmp_path: Path) -> Iterator[ServiceProcess]:
    env = {
        "GOVERNANCE_ADMIN_PASSWORD": secrets.token_urlsafe(16),
        "GOVERNANCE_METRICS_TOKEN": secrets.token_urlsafe(16),
        "GOVERNANCE_LOG_LEVEL": "debug",  # the most lines, the most chances to leak
        "GOVERNANCE_LOG_FORMAT": "",  # auto: the log is a file, so JSON
        "GOVERNANCE_WEBHOOK_ALLOW_PRIVATE": "true",
        "GOVERNANCE_WEBHOOK_DISPATCH": "false",
    }
    with ServiceProcess(neo4j_target, env, log_path=tmp_path / "service.log") as service:
        yield service.start()


def _lines(service: ServiceProcess) -> list[dict[str, Any]]:
    text = service.log_path.read_text(encoding="utf-8")
    parsed = []
    for line in text.splitlines():
        record = orjson.loads(line)  # every line, uvicorn's included, is one JSON object
        assert {"ts", "level", "logger", "msg"} <= record.keys(), line
        parsed.append(record)
    return parsed


def _made(answer: httpx.Response, status: int = 201) -> dict[str, Any]:
    found: dict[str, Any] = _answered(answer, status).json()
    return found


def _answered(answer: httpx.Response, status: int = 201) -> httpx.Response:
    assert answer.status_code == status, answer.text
    return answer


def _realistic_session(service: ServiceProcess, session: Session) -> dict[str, Any]:
    """Tokens and passwords made, used and refused; returns what the log must show."""
    env = service.env
    keep = session.secrets
    keep.update(env[name] for name in ("GOVERNANCE_ADMIN_PASSWORD", "GOVERNANCE_METRICS_TOKEN"))
    if len(env["NEO4J_PASSWORD"]) >= 12:  # a distinctive one; testcontainers' is "password"
        keep.add(env["NEO4J_PASSWORD"])
    bootstrap = service.admin_token("bootstrap")
    admin = session.api(bootstrap)
    ci = _made(admin.post("/tokens", json={"name": "ci", "scopes": ["write"]}))
    dana_password = secrets.token_urlsafe(12)
    dana = _made(
        admin.post("/users", json={"username": "dana", "password": dana_password, "role": "editor"})
    )
    hook = _made(admin.post("/webhooks", json={"url": "http://127.0.0.1:9/hook"}))
    keep.update({bootstrap, ci["token"], dana_password, hook["secret"]})

    writer = session.api(ci["token"])
    _made(writer.post("/assets", json={"id": RAW_ID, "name": "events", "type": "file"}))
    traced = writer.get(f"/assets/{quote(RAW_ID, safe='')}", headers={"X-Request-ID": "trace-7"})
    _made(traced, 200)

    wrong = f"wrong-{secrets.token_urlsafe(12)}"
    page = session.browser()
    assert sign_in(page, "admin", wrong).status_code == 200
    assert sign_in(page, "admin", env["GOVERNANCE_ADMIN_PASSWORD"]).status_code == 303
    keep.update({wrong, hidden_fields(page.get("/settings/tokens").text)["csrf_token"]})
    keep.add(new_token_in(_answered(create_token_in_dashboard(page, "from-page", "read")).text))
    dana_page = session.browser()
    assert sign_in(dana_page, "dana", dana_password).status_code == 303
    dana_secret = new_token_in(
        _answered(create_token_in_dashboard(dana_page, "dana's", "write")).text
    )
    keep.add(dana_secret)
    _made(session.api(dana_secret).get("/assets"), 200)
    tokens = _made(admin.get("/tokens", params={"limit": 500}), 200)["items"]
    dana_token = next(t["id"] for t in tokens if t["name"] == "dana's")

    forged, unknown = "dgs_forged-token", token_format.generate()
    keep.update({forged, unknown})
    for refused in (None, forged, unknown):
        assert session.api(refused).get("/assets").status_code == 401
    assert admin.delete(f"/tokens/{ci['id']}").status_code == 204
    assert writer.get("/assets").status_code == 401  # revoked
    scraper = session.browser()
    assert scraper.get("/metrics").status_code == 401
    metrics_token = env["GOVERNANCE_METRICS_TOKEN"]
    ok = scraper.get("/metrics", headers={"Authorization": f"Bearer {metrics_token}"})
    assert ok.status_code == 200
    return {"ci": ci["id"], "dana": dana["id"], "dana_token": dana_token}


def test_a_served_process_logs_json_lines_and_never_a_secret(served: ServiceProcess) -> None:
    session = Session(served.url)
    try:
        ids = _realistic_session(served, session)
    finally:
        session.close()
    served.stop()  # every line written and flushed
    text = served.log_path.read_text(encoding="utf-8")
    leaked = sorted(s for s in session.secrets if s in text)
    assert leaked == [], f"{len(leaked)} secrets in the log"
    for word in ("bearer ", "authorization", "cookie"):
        assert word not in text.lower()
    assert "lake" not in text  # raw paths never appear: the route template does

    lines = _lines(served)
    access = [line for line in lines if line["logger"] == "service.access"]
    assert all(set(line) == ACCESS_FIELDS for line in access)
    assert not [line for line in lines if line["logger"] == "uvicorn.access"]
    uvicorn = [line["msg"] for line in lines if line["logger"] == "uvicorn.error"]
    assert "Application startup complete." in uvicorn
    # One line per request: the session's own, plus the readiness polls of the start.
    assert len([a for a in access if a["route"] != "/readyz"]) == session.sent
    assert len({a["request_id"] for a in access}) == len(access)

    def one(**fields: Any) -> dict[str, Any]:
        found = [a for a in access if fields.items() <= a.items()]
        assert len(found) == 1, (fields, found)
        return found[0]

    traced = one(request_id="trace-7")
    assert traced["route"] == "/api/v1/assets/{asset_id:path}" and traced["status"] == 200
    assert traced["token_id"] == ids["ci"] and traced["method"] == "GET"
    assert traced["client"] == "127.0.0.1" and traced["duration_ms"] > 0
    dana = one(token_id=ids["dana_token"], route="/api/v1/assets")
    assert dana["user_id"] == ids["dana"] and dana["status"] == 200
    revoked = [a for a in access if a["route"] == "/api/v1/assets" and a["status"] == 401]
    assert len(revoked) == 4 and all(a["token_id"] is None for a in revoked)
    signed_in = [a for a in access if a["route"] == "/login" and a["status"] == 303]
    assert len(signed_in) == 2 and all(a["token_id"] is None for a in signed_in)


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    """`logs.configure` onto a buffer; the logging set-up before it is put back after."""
    root = logging.getLogger()
    names = ("service", "uvicorn", "uvicorn.error", "uvicorn.asgi", "uvicorn.access")
    saved = (root.handlers[:], root.level, {n: logging.getLogger(n).__dict__.copy() for n in names})
    buffer = io.StringIO()
    yield buffer
    root.handlers[:] = saved[0]
    root.setLevel(saved[1])
    for name, state in saved[2].items():
        logging.getLogger(name).__dict__.update(state)
    logging.captureWarnings(False)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_auto_is_text_on_a_terminal_and_json_anywhere_else() -> None:
    assert logs.resolve("auto", Terminal()) == "text"
    assert logs.resolve("auto", io.StringIO()) == "json"
    assert logs.resolve("json", Terminal()) == "json"
    assert logs.resolve("text", io.StringIO()) == "text"
    assert Settings.from_env({"GOVERNANCE_LOG_FORMAT": "JSON"}).observability.log_format == "json"
    with pytest.raises(ValueError, match="GOVERNANCE_LOG_FORMAT"):
        Settings.from_env({"GOVERNANCE_LOG_FORMAT": "yaml"})
    with pytest.raises(ValueError, match="GOVERNANCE_LOG_LEVEL"):
        Settings.from_env({"GOVERNANCE_LOG_LEVEL": "loud"})


def test_the_local_neo4j_download_is_visible(captured: io.StringIO) -> None:
    logs.configure("auto", "info", captured)
    download = "downloading Neo4j %s server jars with Maven (about 125 MB, once)"
    logging.getLogger("service.localdb.runtime").info(download, "5.26.0")
    logging.getLogger("service.localdb.server").debug("not at level info")
    [line] = [orjson.loads(text) for text in captured.getvalue().splitlines()]
    assert line["logger"] == "service.localdb.runtime" and line["level"] == "info"
    assert line["msg"] == download % "5.26.0"


def test_libraries_log_warnings_only_and_uvicorns_access_log_is_off(
    captured: io.StringIO,
) -> None:
    logs.configure("json", "debug", captured)
    logging.getLogger("neo4j").debug("a driver's debug line")
    logging.getLogger("neo4j").warning("a driver's warning")
    logging.getLogger("uvicorn.access").info("uvicorn's own access line")
    logging.getLogger("uvicorn.error").debug("uvicorn at debug")
    logging.getLogger("service.graph").debug("ours at debug")
    said = [orjson.loads(text)["msg"] for text in captured.getvalue().splitlines()]
    assert said == ["a driver's warning", "uvicorn at debug", "ours at debug"]


def test_a_line_logged_during_a_request_carries_its_id(captured: io.StringIO) -> None:
    logs.configure("json", "info", captured)
    handling = logs.request_id.set("req-42")
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        logging.getLogger("service.app").exception("unhandled error")
    finally:
        logs.request_id.reset(handling)
    logging.getLogger("service.app").info("after the request")
    first, second = (orjson.loads(text) for text in captured.getvalue().splitlines())
    assert first["request_id"] == "req-42" and first["level"] == "error"
    assert "RuntimeError: boom" in first["exc"]  # the traceback inside the one line
    assert "request_id" not in second


def test_text_lines_are_for_people(captured: io.StringIO) -> None:
    logs.configure("text", "info", captured)
    fields = {"route": "/api/v1/assets", "status": 200, "token_id": None, "client": "127.0.0.1"}
    logging.getLogger("service.access").info("GET /api/v1/assets 200", extra={"fields": fields})
    line = captured.getvalue().rstrip("\n")
    assert line.endswith(
        " INFO    service.access: GET /api/v1/assets 200 "
        "route=/api/v1/assets status=200 token_id=- client=127.0.0.1"
    )
    assert line[:4].isdigit() and line[23] == "Z"


def test_a_failed_request_is_logged_with_the_id_its_client_was_given(
    captured: io.StringIO,
) -> None:
    async def boom(request: Request) -> Response:
        raise RuntimeError("boom")

    async def unexpected(request: Request, exc: Exception) -> Response:
        logging.getLogger("service.app").error("unhandled error", exc_info=exc)
        return PlainTextResponse(request.state.request_id, status_code=500)

    app = Starlette(
        routes=[Route("/boom/{item}", boom)],
        middleware=[Middleware(RequestIdMiddleware), Middleware(AccessLogMiddleware)],
        exception_handlers={Exception: unexpected},
    )
    logs.configure("json", "info", captured)
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/boom/secret-looking-id")
    assert answer.status_code == 500
    access, error = (orjson.loads(text) for text in captured.getvalue().splitlines())
    assert access["logger"] == "service.access" and access["status"] == 500
    assert access["route"] == "/boom/{item}"
    assert error["msg"] == "unhandled error" and "RuntimeError: boom" in error["exc"]
    assert access["request_id"] == error["request_id"] == answer.text
    assert "secret-looking-id" not in captured.getvalue()

"""The `governance` console command, run as a user runs it: a separate process, against
the test Neo4j (database commands) or a live service (`ingest`).

A failure is one line on standard error and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import gzip
import http.client
import http.server
import re
import signal
import socket
import subprocess
import threading
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import orjson
import pytest

from service.app import openapi_document
from service.domain.access import tokens as token_format
from service.settings import Limits, Settings
from tests.conftest import Tokens
from tests.support import procfs
from tests.support.cli import COMMAND, cli_env, governance, one_error_line, run_cli
from tests.support.dbt_fixtures import OWN
from tests.support.neo4j_server import Neo4jTarget
from tests.support.server import LiveServer, answers
from tests.support.sse import SseReader
from tests.support.waiting import eventually

ROOT = Path(__file__).resolve().parents[2]
DBT = ROOT / "tests" / "fixtures" / "dbt_quality"
PG = "postgres://db:5432"


def _ingest(live: LiveServer, token: str, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli("ingest", *args, "--url", live.url, "--token", token, env=cli_env())


# -- database commands ---------------------------------------------------------------


def test_token_create_prints_a_working_token(
    neo4j_target: Neo4jTarget, live: LiveServer, clean: None
) -> None:
    result = governance(neo4j_target, "token", "create", "--name", "me", "--scope", "admin")
    assert result.returncode == 0, result.stderr
    token = result.stdout.strip()
    assert token_format.is_well_formed(token)
    headers = {"Authorization": f"Bearer {token}"}
    created = httpx.post(
        live.url + "/api/v1/assets",
        headers=headers,
        json={"id": "cli.asset", "name": "n", "type": "table"},
    )
    assert created.status_code == 201
    assert httpx.get(live.url + "/api/v1/tokens", headers=headers).status_code == 200


def test_user_create_reads_the_password_from_stdin_and_refuses_a_second_one(
    neo4j_target: Neo4jTarget, live: LiveServer, clean: None
) -> None:
    args = ("user", "create", "--username", "ada", "--role", "editor", "--password-stdin")
    made = run_cli(*args, env=cli_env(neo4j_target), stdin="a long enough password\n")
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith("created ada (editor)")
    again = run_cli(*args, env=cli_env(neo4j_target), stdin="a long enough password\n")
    assert "ada" in one_error_line(again)


def test_user_commands_refuse_a_weak_password_naming_the_rule(
    neo4j_target: Neo4jTarget, live: LiveServer, clean: None
) -> None:
    args = ("user", "create", "--username", "ada", "--role", "editor", "--password-stdin")
    weak = run_cli(*args, env=cli_env(neo4j_target), stdin="ada-lovelace-1815\n")
    assert one_error_line(weak) == ("governance: The password must not contain the username.")
    made = run_cli(*args, env=cli_env(neo4j_target), stdin="a long enough password\n")
    assert made.returncode == 0, made.stderr
    reset = ("user", "set-password", "--username", "ada", "--password-stdin")
    common = run_cli(*reset, env=cli_env(neo4j_target), stdin="qwerty123456\n")
    assert one_error_line(common) == (
        "governance: The password is one of the most common passwords."
    )


def test_token_create_refuses_a_name_with_bidi_characters(neo4j_target: Neo4jTarget) -> None:
    result = governance(neo4j_target, "token", "create", "--name", "ci\u202e", "--scope", "read")
    assert "invisible format characters (U+202E)" in one_error_line(result)


def test_database_commands_say_when_neo4j_is_unreachable(neo4j_target: Neo4jTarget) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
    nowhere = cli_env(neo4j_target, NEO4J_URI=f"bolt://127.0.0.1:{port}")
    for args in (
        ("token", "create", "--name", "me", "--scope", "read"),
        ("user", "set-password", "--username", "ada", "--password-stdin"),
    ):
        line = one_error_line(run_cli(*args, env=nowhere, stdin="a long enough password\n"))
        assert line == (
            f"governance: cannot reach Neo4j at bolt://127.0.0.1:{port} (connection refused); "
            "is it running? (NEO4J_URI)"
        )


def test_database_commands_say_when_neo4j_refuses_the_password(neo4j_target: Neo4jTarget) -> None:
    wrong = cli_env(neo4j_target, NEO4J_PASSWORD="not-the-password")
    line = one_error_line(run_cli("token", "create", "--name", "me", "--scope", "read", env=wrong))
    assert "Neo4j refused the user name or password" in line


# -- the command line itself ---------------------------------------------------------


def test_version_is_the_package_version() -> None:
    from service import __version__

    result = run_cli("--version", env=cli_env())
    assert (result.returncode, result.stdout.strip()) == (0, f"governance {__version__}")


def test_bad_arguments_fail_clearly(neo4j_target: Neo4jTarget) -> None:
    result = governance(neo4j_target, "token", "create", "--name", "me", "--scope", "root")
    assert result.returncode == 2 and "invalid choice" in result.stderr
    alone = governance(neo4j_target)
    assert alone.returncode == 2 and alone.stderr.startswith("usage: governance [-h]")
    workers = governance(neo4j_target, "serve", "--workers", "0")
    assert workers.returncode == 2 and "must be 1 or more" in workers.stderr
    batch = run_cli("ingest", "openlineage", "x", "--batch-size", "10001", env=cli_env())
    assert batch.returncode == 2 and "at most 10,000" in batch.stderr


@pytest.mark.parametrize(
    ("group", "commands"),
    [
        ("token", "{create}"),
        ("user", "{create,set-password}"),
        ("neo4j", "{start,stop,status}"),
        ("ingest", "{manifest,run-results,openlineage,sql}"),
    ],
)
def test_a_command_group_alone_prints_its_own_help(group: str, commands: str) -> None:
    result = run_cli(group, env=cli_env())
    assert result.returncode == 2
    assert result.stderr.startswith(f"usage: governance {group} [-h] {commands}")
    assert result.stdout == ""


def test_openapi_prints_the_services_document_without_a_database(live: LiveServer) -> None:
    result = run_cli("openapi", env=cli_env(NEO4J_URI="bolt://127.0.0.1:1"))
    assert result.returncode == 0, result.stderr
    printed = orjson.loads(result.stdout)
    assert printed == httpx.get(live.url + "/api/v1/openapi.json").json()
    assert printed == openapi_document(Limits())


# -- ingest: dbt artifacts -----------------------------------------------------------


def test_ingest_manifest_then_run_results_summarises_what_changed(
    live: LiveServer, tokens: Tokens, writer: httpx.Client
) -> None:
    manifest = _ingest(live, tokens.write, "manifest", str(DBT / "manifest.json"))
    assert manifest.returncode == 0, manifest.stderr
    assert manifest.stderr == ""  # no progress display off a terminal
    rules = writer.get("/quality/rules", params={"limit": 500}).json()["items"]
    assets = writer.get("/assets", params={"limit": 500}).json()["items"]
    head, *rest = manifest.stdout.splitlines()
    assert head.startswith(f"{DBT / 'manifest.json'}: dbt project ")
    assert f"  assets          {len(assets)} created, 0 updated, 0 merged" in rest
    assert f"  quality rules   {len(rules)} created, 0 updated, 0 removed" in rest

    results = _ingest(live, tokens.write, "run-results", str(DBT / "run_results_failing.json"))
    assert results.returncode == 0, results.stderr
    failing = writer.get("/quality/rules", params={"status": "failing", "limit": 500}).json()
    names = sorted(rule["id"] for rule in failing["items"])
    assert names
    summary = results.stdout
    assert "test results recorded" in summary.splitlines()[0]
    assert f"  turned failing  {names[0]}" in summary


def test_ingest_json_prints_the_services_answer_one_line_per_path(
    live: LiveServer, tokens: Tokens
) -> None:
    v11, v12 = OWN / "manifest_v11_dbt1.7.20.json.gz", OWN / "manifest_v12_dbt1.11.16.json.gz"
    result = _ingest(live, tokens.write, "manifest", str(v11), str(v12), "--json")
    assert result.returncode == 0, result.stderr
    first, second = (orjson.loads(line) for line in result.stdout.splitlines())
    assert first["project"] == second["project"] == "corner_shop"
    assert first["assets"]["created"] > 0
    assert second["assets"]["created"] == 0  # the same project again: updated, not created


@pytest.mark.parametrize(
    ("kind", "content", "expected"),
    [
        # not JSON at all: refused here, before it is sent
        ("run-results", "id,status\n1,pass\n", "not a JSON object, so not a dbt run-results file"),
        # JSON, but not a manifest: the service's 422
        (
            "manifest",
            '{"metadata": {"dbt_schema_version": "https://example.com/v99.json"}}',
            "422 Not a dbt manifest this service can read",
        ),
    ],
)
def test_a_dbt_file_that_is_not_one_is_one_line(
    live: LiveServer, tokens: Tokens, tmp_path: Path, kind: str, content: str, expected: str
) -> None:
    path = tmp_path / "artifact.json"
    path.write_text(content)
    line = one_error_line(_ingest(live, tokens.write, kind, str(path)))
    assert line.startswith(f"governance: {path}: {expected}")


# -- ingest: OpenLineage -------------------------------------------------------------


def _event(job: str, source: str, target: str) -> dict[str, Any]:
    return {
        "eventType": "COMPLETE",
        "eventTime": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        "producer": "https://example.com/producer",
        "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
        "run": {"runId": str(uuid.uuid4())},
        "job": {"namespace": "airflow", "name": job},
        "inputs": [{"namespace": PG, "name": source}],
        "outputs": [{"namespace": PG, "name": target}],
    }


def _chain(count: int) -> list[dict[str, Any]]:
    """`count` jobs, each reading table i and writing table i+1."""
    return [_event(f"job{i}", f"t{i}", f"t{i + 1}") for i in range(count)]


def _ndjson(events: list[dict[str, Any]]) -> bytes:
    return b"".join(orjson.dumps(event) + b"\n" for event in events)


def _edges(writer: httpx.Client) -> int:
    found = writer.get(f"/lineage/{quote(PG + '/t0', safe='')}/downstream", params={"depth": 50})
    assert found.status_code == 200, found.text
    return len(found.json()["edges"])


def test_ingest_openlineage_sends_ndjson_arrays_and_gzip_in_batches(
    live: LiveServer, tokens: Tokens, writer: httpx.Client, tmp_path: Path
) -> None:
    events = _chain(25)
    ndjson, array = tmp_path / "events.ndjson", tmp_path / "more.json.gz"
    ndjson.write_bytes(_ndjson(events[:20]).replace(b"\n", b"\n\n", 1))  # a blank line is fine
    array.write_bytes(gzip.compress(orjson.dumps(events[20:])))
    result = _ingest(
        live, tokens.write, "openlineage", str(ndjson), str(array), "--batch-size", "8"
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert f"{ndjson}: 20 run events in 3 requests (20 COMPLETE, 20 runs)" in lines
    assert f"{array}: 5 run events in 1 request (5 COMPLETE, 5 runs)" in lines
    assert "  lineage edges   20 created, 0 existing" in lines
    assert _edges(writer) == 25

    again = _ingest(live, tokens.write, "openlineage", str(ndjson), "--json")
    assert again.returncode == 0, again.stderr
    answer = orjson.loads(again.stdout)
    assert (answer["received"], answer["edges"]) == (20, {"created": 0, "existing": 20})


def test_a_batch_over_the_services_body_limit_is_halved_until_it_fits(
    make_settings: Callable[..., Settings], tokens: Tokens, writer: httpx.Client, tmp_path: Path
) -> None:
    events = _chain(40)
    one = len(orjson.dumps(events[0]))
    small = make_settings(limits=Limits(max_body_bytes=one * 12))
    server = LiveServer(_app(small)).start()
    try:
        path = tmp_path / "events.ndjson"
        path.write_bytes(_ndjson(events))
        result = _ingest(server, tokens.write, "openlineage", str(path))
    finally:
        server.stop()
    assert result.returncode == 0, result.stderr
    # 40 and 20 events are refused, halves of 10 fit: 4 requests answered
    assert result.stdout.startswith(f"{path}: 40 run events in 4 requests")
    assert _edges(writer) == 40


def _app(settings: Settings) -> Any:
    from service.app import create_app

    return create_app(settings)


def test_ingest_openlineage_sends_at_most_ten_thousand_events_per_request(
    live: LiveServer, tokens: Tokens, tmp_path: Path
) -> None:
    start = _event("big", "a", "b") | {"eventType": "START", "inputs": [], "outputs": []}
    events = [start | {"run": {"runId": str(uuid.uuid4())}} for _ in range(10_001)]
    path = tmp_path / "many.ndjson"
    path.write_bytes(_ndjson(events))
    result = _ingest(live, tokens.write, "openlineage", str(path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"{path}: 10,001 run events in 2 requests (0 COMPLETE, ")


def test_an_invalid_event_is_named_by_its_line_in_the_file(
    live: LiveServer, tokens: Tokens, writer: httpx.Client, tmp_path: Path
) -> None:
    events = _chain(12)
    del events[10]["eventTime"]
    path = tmp_path / "events.ndjson"
    path.write_bytes(_ndjson(events))
    line = one_error_line(
        _ingest(live, tokens.write, "openlineage", str(path), "--batch-size", "5")
    )
    assert line == (
        f"governance: {path}: 422 Invalid OpenLineage run event (line 11, eventTime: Field required)"
    )
    assert _edges(writer) == 10  # the batches before the bad one were written


# -- ingest: every failure is one line -----------------------------------------------


def test_a_missing_file_fails_before_anything_is_sent(
    live: LiveServer, tokens: Tokens, writer: httpx.Client, tmp_path: Path
) -> None:
    good = tmp_path / "good.ndjson"
    good.write_bytes(_ndjson(_chain(1)))
    missing = tmp_path / "missing.ndjson"
    line = one_error_line(_ingest(live, tokens.write, "openlineage", str(good), str(missing)))
    assert line == f"governance: cannot read {missing}: No such file or directory"
    line = one_error_line(
        _ingest(live, tokens.write, "manifest", str(DBT / "manifest.json"), str(missing))
    )
    assert line == f"governance: cannot read {missing}: No such file or directory"
    assert writer.get("/assets").json()["items"] == []


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b'{"eventType": "START"}\n{"eventType": \n', "line 2: not JSON (unexpected end of data"),
        (b"[1, 2", "not JSON (unexpected end of data"),
        (b"[1, 2]", "item 0: a run event is a JSON object, not int"),
        (b"\n\n", "holds no run events"),
        (b"\x1f\x8b\x08broken", "not a readable gzip file"),
    ],
)
def test_an_unreadable_openlineage_file_is_one_line(
    live: LiveServer, tokens: Tokens, tmp_path: Path, content: bytes, expected: str
) -> None:
    path = tmp_path / "events.json"
    path.write_bytes(content)
    line = one_error_line(_ingest(live, tokens.write, "openlineage", str(path)))
    assert line.startswith(f"governance: {path}")
    assert expected in line


def test_token_problems_are_the_services_answer_in_one_line(
    live: LiveServer, tokens: Tokens
) -> None:
    manifest = str(DBT / "manifest.json")
    unknown = one_error_line(_ingest(live, "dgs_not_a_real_token", "manifest", manifest))
    assert unknown.startswith(f"governance: {manifest}: 401 ")
    assert unknown.endswith("(check --token or GOVERNANCE_TOKEN)")
    reader = one_error_line(_ingest(live, tokens.read, "manifest", manifest))
    assert reader.startswith(f"governance: {manifest}: 403 ")
    assert "write" in reader
    missing = run_cli("ingest", "manifest", manifest, "--url", live.url, env=cli_env())
    assert (
        one_error_line(missing) == "governance: an API token is needed: --token or GOVERNANCE_TOKEN"
    )


def test_url_and_token_come_from_the_environment(live: LiveServer, tokens: Tokens) -> None:
    env = cli_env(GOVERNANCE_URL=live.url + "/api/v1", GOVERNANCE_TOKEN=tokens.write)
    result = run_cli("ingest", "manifest", str(DBT / "manifest.json"), env=env)
    assert result.returncode == 0, result.stderr


def test_a_refused_connection_is_one_line(tokens: Tokens) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    result = run_cli(
        "ingest",
        "manifest",
        str(DBT / "manifest.json"),
        "--url",
        url,
        "--token",
        "t",
        env=cli_env(),
    )
    assert one_error_line(result) == (
        f"governance: cannot reach {url}/api/v1/lineage/manifest (connection refused); "
        "is the service running? (--url)"
    )


class _NotTheService(http.server.BaseHTTPRequestHandler):
    """A web server that is not this service: an HTML page, or a proxy's 502."""

    status = 200

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        page = b"<html>hello</html>"
        self.send_response(self.status)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (200, "the answer is not JSON; is --url this service?"),
        (502, "the service answered 502 Bad Gateway"),
    ],
)
def test_an_answer_from_something_else_is_one_line(status: int, expected: str) -> None:
    handler = type("Handler", (_NotTheService,), {"status": status})
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as other:
        thread = threading.Thread(target=other.serve_forever, daemon=True)
        thread.start()
        url = f"http://127.0.0.1:{other.server_address[1]}"
        path = str(DBT / "manifest.json")
        result = run_cli("ingest", "manifest", path, "--url", url, "--token", "t", env=cli_env())
        other.shutdown()
    assert one_error_line(result).endswith(f"{path}: {expected}")


@pytest.fixture(params=["foreground", "background"])
def session_sigint(request: pytest.FixtureRequest) -> Iterator[None]:
    """This test session's own SIGINT disposition: as a terminal gives it, or ignored, as a
    non-interactive shell gives a command it starts with `&` (and as a process inherits
    it). The command's answer to Ctrl+C must not depend on how the tests were started."""
    wanted = signal.default_int_handler if request.param == "foreground" else signal.SIG_IGN
    before = signal.signal(signal.SIGINT, wanted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _sigint_at_its_default() -> None:
    """Between fork and exec: SIGINT as a shell leaves it for a foreground command. An
    ignored signal stays ignored across exec, and Python then installs no handler that
    raises KeyboardInterrupt; a command started from a session that ignores SIGINT
    (started in the background) would never see the Ctrl+C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_ends_the_command_with_status_130(tokens: Tokens, session_sigint: None) -> None:
    """The service is a socket that takes the upload and never answers; the command is
    started as a user's shell starts it in the foreground, where Ctrl+C reaches it."""
    with socket.create_server(("127.0.0.1", 0)) as silent:
        silent.settimeout(60)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        path = str(DBT / "manifest.json")
        with subprocess.Popen(
            [*COMMAND, "ingest", "manifest", path, "--url", url, "--token", "t"],
            env=cli_env(),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=_sigint_at_its_default,  # signal.signal only: nothing that locks
        ) as process:
            try:
                connection, _ = silent.accept()
                with connection:
                    assert connection.recv(4).startswith(b"POST")  # waiting for the answer
                    process.send_signal(signal.SIGINT)
                    _, stderr = process.communicate(timeout=60)
            finally:
                # Nothing once it has ended. A command that has not is not left running
                # with its pipes open (their finalizers would fail a later test).
                process.kill()
    assert (process.returncode, stderr) == (130, "governance: interrupted\n")


# -- serve --workers -----------------------------------------------------------------


def test_serve_on_a_taken_port_is_one_line(neo4j_target: Neo4jTarget) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = governance(neo4j_target, "serve", "--port", str(port))
    assert one_error_line(result) == (
        f"governance: cannot listen on 127.0.0.1:{port}: Address already in use"
    )


def _serve_two_workers(neo4j_target: Neo4jTarget, log: Path) -> subprocess.Popen[bytes]:
    """`governance serve --workers 2` on a port of uvicorn's choosing, its output in `log`."""
    env = cli_env(neo4j_target, GOVERNANCE_WEBHOOK_DISPATCH="false", GOVERNANCE_LOG_FORMAT="text")
    with log.open("wb") as out:
        return subprocess.Popen(
            [*COMMAND, "serve", "--workers", "2", "--port", "0"],
            env=env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def _announced_port(log: Path) -> int:
    """The port uvicorn bound for `--port 0`, from its start-up line (0 until then)."""
    found = re.search(rb"Uvicorn running on http://127\.0\.0\.1:(\d+)", log.read_bytes())
    return int(found.group(1)) if found else 0


def _get(connection: http.client.HTTPConnection, path: str) -> int:
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    return response.status


def _one_connection_per_process(
    server: int, port: int, opened: list[http.client.HTTPConnection]
) -> dict[int, http.client.HTTPConnection]:
    """Open one more kept-alive connection, answered 200 by whichever worker took it;
    once two workers hold one, a connection to each, by process id."""
    assert len(opened) < 200, "every connection went to one process"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    opened.append(connection)
    assert _get(connection, "/readyz") == 200
    holders = procfs.holders(procfs.children(server), port)
    by_pid = {
        holders[c.sock.getsockname()[1]]: c
        for c in opened
        if c.sock is not None and c.sock.getsockname()[1] in holders
    }
    assert len(by_pid) >= 2, f"only {set(by_pid)} hold connections so far"
    return by_pid


def test_serve_workers_are_processes_sharing_one_port(
    neo4j_target: Neo4jTarget, tokens: Tokens, tmp_path: Path
) -> None:
    """Two worker processes each answer requests and run their own lifespan (ready
    means their schema step ran); a write through either reaches a live stream held
    by one of them, through the event log in Neo4j. Stopped with SIGTERM, all end."""
    log = tmp_path / "serve.log"
    server = _serve_two_workers(neo4j_target, log)
    opened: list[http.client.HTTPConnection] = []
    try:
        port = eventually(lambda: _announced_port(log), timeout=60, what="uvicorn's port")
        url = f"http://127.0.0.1:{port}"
        eventually(lambda: answers(url), timeout=60, retry_on=(httpx.TransportError,))
        by_pid = eventually(
            lambda: _one_connection_per_process(server.pid, port, opened), timeout=60
        )
        with SseReader(url + "/api/v1/events/stream", tokens.read) as stream:
            assert stream.status == 200
            for pid, connection in by_pid.items():
                body = orjson.dumps({"id": f"from.{pid}", "name": "n", "type": "table"})
                headers = {
                    "Authorization": f"Bearer {tokens.write}",
                    "Content-Type": "application/json",
                }
                connection.request("POST", "/api/v1/assets", body=body, headers=headers)
                response = connection.getresponse()
                assert (response.status, response.read()[:0]) == (201, b"")
            frames = stream.events(len(by_pid), timeout=30)
        assert {f.data["data"]["id"] for f in frames} == {f"from.{pid}" for pid in by_pid}
    finally:
        for connection in opened:
            connection.close()
        server.send_signal(signal.SIGTERM)
        status = server.wait(60)
    assert status == 0, log.read_text()
    assert not any(Path(f"/proc/{pid}").exists() for pid in by_pid)
    assert b"Traceback" not in log.read_bytes()


def test_serve_ends_open_event_streams_when_stopped(
    neo4j_target: Neo4jTarget, tokens: Tokens, tmp_path: Path
) -> None:
    """SIGTERM while a reader holds an event stream: the stream ends as a finished
    response (its reader reconnects to another process and resumes), instead of being
    cut off after the shutdown's grace period with an error in the log."""
    log = tmp_path / "serve.log"
    server = _serve_two_workers(neo4j_target, log)
    try:
        port = eventually(lambda: _announced_port(log), timeout=60, what="uvicorn's port")
        url = f"http://127.0.0.1:{port}"
        eventually(lambda: answers(url), timeout=60, retry_on=(httpx.TransportError,))
        with SseReader(url + "/api/v1/events/stream", tokens.read) as stream:
            assert stream.next_comment() == "connected"
            server.send_signal(signal.SIGTERM)
            stream.wait_closed(timeout=60)
            assert stream.failure is None, f"the stream broke off: {stream.failure!r}"
    finally:
        server.send_signal(signal.SIGTERM)
        status = server.wait(60)
    assert status == 0, log.read_text()
    assert not re.search(rb"ERROR|Traceback|Cancel", log.read_bytes()), log.read_text()


def test_ingest_sql_sends_a_script_and_prints_what_it_did(
    live: LiveServer, tokens: Tokens, reader: httpx.Client, tmp_path: Path
) -> None:
    script = tmp_path / "nightly_marts.sql"
    script.write_text(
        "insert into mart.revenue select customer_id, sum(amount) as revenue "
        "from raw.orders group by customer_id;\nselect broken from;\n"
    )
    result = _ingest(
        live,
        tokens.write,
        "sql",
        str(script),
        "--dialect",
        "postgres",
        "--namespace",
        "postgres://db",
        "--default-database",
        "shop",
    )
    assert result.returncode == 0, result.stderr
    assert "2 statements as sql:nightly_marts" in result.stdout
    assert "1 with lineage" in result.stdout and "1 failed" in result.stdout
    assert "statement 1:" in result.stdout
    edges = reader.get("/lineage/edges", params={"origin": "sql:nightly_marts"}).json()["items"]
    assert [(e["source"], e["target"]) for e in edges] == [
        ("postgres://db:5432/shop.raw.orders", "postgres://db:5432/shop.mart.revenue")
    ]

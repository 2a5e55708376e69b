"""One manifest pipeline for the API, the dashboard and the CLI: a body spooled once
and streamed (never read whole by whoever received it), edges that count only what was
written, and a transaction timeout taken from the settings."""

from __future__ import annotations

import base64
import gzip
import json
import os
import tracemalloc
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import neo4j
import pytest

from service.app import create_app
from service.cli import main as cli_main
from service.settings import Limits, Settings
from service.store.spool import SPOOL_BYTES
from tests.conftest import Tokens, client_for
from tests.support.dashboard import make_user, page_csrf, sign_in
from tests.support.dbt_fixtures import NEWEST, manifest
from tests.support.server import LiveServer
from tests.support.waiting import eventually

SOURCE, TARGET = "model.race.a", "model.race.b"
RACE = {
    "metadata": {
        "dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v12.json",
        "project_name": "race",
        "dbt_version": "1.8.0",
    },
    "nodes": {
        SOURCE: {"resource_type": "model", "name": "a", "depends_on": {"nodes": []}},
        TARGET: {"resource_type": "model", "name": "b", "depends_on": {"nodes": [SOURCE]}},
    },
}


def upload(client: httpx.Client, document: Any, **headers: str) -> httpx.Response:
    return client.post(
        "/lineage/manifest",
        content=json.dumps(document),
        headers={"content-type": "application/json", **headers},
        timeout=120,
    )


def _blocked_transactions(driver: neo4j.Driver) -> int:
    records, _, _ = driver.execute_query(
        "SHOW TRANSACTIONS YIELD status WHERE status STARTS WITH 'Blocked' RETURN count(*) AS n"
    )
    return int(records[0]["n"])


def test_an_asset_deleted_while_a_manifest_writes_its_edge_is_made_anew_not_miscounted(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    """Another transaction deletes the edge's target and holds its lock while the upload
    writes the edge; the upload waits, then finds the target gone. It must not count as
    existing an edge it could not write: the target is made anew as a placeholder, the
    edge written and counted, and the summary says what happened."""
    assert upload(writer, RACE).json()["edges"]["created"] == 1
    driver.execute_query("MATCH (:Asset {id: $s})-[r:LINEAGE]->() DELETE r", s=SOURCE)
    with driver.session() as session, session.begin_transaction() as deleter:
        deleter.run("MATCH (a:Asset {id: $id}) DETACH DELETE a", id=TARGET).consume()
        with ThreadPoolExecutor(max_workers=1) as pool:
            answer = pool.submit(upload, writer, RACE)
            eventually(lambda: _blocked_transactions(driver) == 1, what="the upload waiting")
            deleter.commit()
            written = answer.result(timeout=60)
    assert written.status_code == 200, written.text
    summary = written.json()
    assert summary["edges"] == {"created": 1, "existing": 0, "removed": 0}
    assert any("deleted while it was being written" in w for w in summary["warnings"])
    edges = writer.get("/lineage/edges", params={"source": SOURCE}).json()["items"]
    assert [(e["source"], e["target"]) for e in edges] == [(SOURCE, TARGET)]
    assert writer.get(f"/assets/{TARGET}").json()["placeholder"] is True
    again = upload(writer, RACE).json()
    assert again["assets"]["created"] == 1 and again["edges"]["existing"] == 1
    assert writer.get(f"/assets/{TARGET}").json().get("placeholder") is not True


@pytest.fixture
def impatient(make_settings: Callable[..., Settings], clean: None) -> Iterator[LiveServer]:
    limits = Limits(manifest_timeout_s=1.0)
    server = LiveServer(create_app(make_settings(limits=limits))).start()
    yield server
    server.stop()


def test_an_upload_blocked_past_the_manifest_timeout_is_503(
    impatient: LiveServer, writer: httpx.Client, tokens: Tokens, driver: neo4j.Driver
) -> None:
    """GOVERNANCE_MANIFEST_TIMEOUT bounds each transaction of the upload: one waiting
    on a lock held past it is 503 `neo4j_busy`, not a request hanging for minutes."""
    assert upload(writer, RACE).status_code == 200
    driver.execute_query("MATCH ()-[r:LINEAGE]->() DELETE r")
    with client_for(impatient, tokens.write) as api:
        with driver.session() as session, session.begin_transaction() as holder:
            holder.run("MATCH (a:Asset {id: $id}) SET a.held = true", id=TARGET).consume()
            blocked = api.post(
                "/lineage/manifest",
                content=json.dumps(RACE),
                headers={"content-type": "application/json"},
                timeout=30,
            )
            holder.rollback()
        assert blocked.status_code == 503, blocked.text
        assert blocked.json()["code"] == "neo4j_busy"


def test_a_keyed_upload_past_the_spool_is_written_once_and_replayed(
    writer: httpx.Client,
) -> None:
    """The idempotency middleware's spool is the upload's: plain and gzip bodies past
    the in-memory part read whole, and a repeat is the first answer."""
    document = manifest(NEWEST)
    document["macros"] = {f"macro.x.m{i}": {"macro_sql": "x" * 1000} for i in range(6000)}
    raw = json.dumps(document).encode()
    assert len(raw) > SPOOL_BYTES
    first = upload(writer, document, **{"idempotency-key": "plain"})
    assert first.status_code == 200, first.text
    assert first.json()["assets"]["created"] > 0
    repeat = upload(writer, document, **{"idempotency-key": "plain"})
    assert repeat.json() == first.json() and repeat.headers["idempotent-replayed"] == "true"
    zipped = writer.post(
        "/lineage/manifest",
        content=gzip.compress(raw),
        headers={
            "content-type": "application/json",
            "content-encoding": "gzip",
            "idempotency-key": "gzip",
        },
        timeout=120,
    )
    assert zipped.status_code == 200, zipped.text
    assert zipped.json()["assets"] == {"created": 0, "updated": 0, "merged": 0}


def _large_manifest(path: Path, megabytes: int) -> int:
    """A real manifest with `megabytes` MB of macros that gzip cannot shrink much, as
    many small ones (what the streaming parser drops as it goes); its size on disk."""
    document = manifest(NEWEST)
    text = base64.b64encode(os.urandom(megabytes * 1024 * 1024 * 3 // 4)).decode()
    document["macros"] = {
        f"macro.x.m{i}": {"macro_sql": text[i : i + 1024]} for i in range(0, len(text), 1024)
    }
    raw = json.dumps(document).encode()
    path.write_bytes(gzip.compress(raw, 1) if path.suffix == ".gz" else raw)
    return path.stat().st_size


def _peak_while(work: Callable[[], Any]) -> tuple[Any, int]:
    """What `work` returned, and the most memory Python held for it at once (this
    process: the test's client and the live server alike)."""
    tracemalloc.start()
    try:
        return work(), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_dashboard_streams_a_large_gzip_manifest_instead_of_reading_it_whole(
    live: LiveServer, admin: httpx.Client, tmp_path: Path
) -> None:
    path = tmp_path / "manifest.json.gz"
    size = _large_manifest(path, 24)
    assert size > 16 * 1024 * 1024
    make_user(admin, "ingester", "editor")
    with sign_in(live, "ingester") as browser:
        csrf = page_csrf(browser, "/ingest")

        def send() -> httpx.Response:
            with path.open("rb") as file:
                return browser.post(
                    "/ingest",
                    data={"csrf_token": csrf, "namespace": ""},
                    files={"file": (path.name, file, "application/gzip")},
                    timeout=300,
                )

        page, peak = _peak_while(send)
    assert page.status_code == 200, page.text[:2000]
    assert 'data-testid="ingest-summary"' in page.text and "corner_shop" in page.text
    assert peak < size // 2, f"{peak:,} bytes held for a {size:,}-byte upload"


def test_the_cli_streams_a_large_manifest_instead_of_reading_it_whole(
    live: LiveServer, tokens: Tokens, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "manifest.json"
    size = _large_manifest(path, 40)
    args = ["ingest", "manifest", str(path), "--url", live.url, "--token", tokens.write, "--json"]
    code, peak = _peak_while(lambda: cli_main(args))
    assert code == 0
    assert json.loads(capsys.readouterr().out)["project"] == "corner_shop"
    assert peak < size // 2, f"{peak:,} bytes held for a {size:,}-byte file"

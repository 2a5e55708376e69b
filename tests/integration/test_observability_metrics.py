"""/metrics: every family the service exports appears, and moves when its thing
happens: requests, named Cypher statements, Neo4j errors, the outbox and its
consumers, live streams, webhook deliveries, policy evaluation, refused
credentials and ingestion. Label values stay bounded: no id ever becomes one."""

from __future__ import annotations

import gzip
import re
import socket
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import orjson
import pytest
from prometheus_client import generate_latest
from pydantic import SecretStr
from starlette.testclient import TestClient

from service.app import create_app
from service.domain.access import tokens as token_format
from service.events.policy_evaluator import PolicyEvaluator
from service.graph import Graph
from service.metrics import Metrics
from service.settings import Observability, Settings
from tests.conftest import EVALUATING, WEBHOOKS_FOR_TESTS, Tokens, client_for
from tests.support.dashboard import browser, submit_login
from tests.support.graphs import on_a_graph
from tests.support.metrics import Scrape, scrape
from tests.support.receiver import Receiver
from tests.support.server import LiveServer
from tests.support.sse import SseReader
from tests.support.waiting import eventually
from tests.support.writes import post_asset

DBT = Path(__file__).resolve().parents[1] / "fixtures" / "dbt_quality"
DOCS = Path(__file__).resolve().parents[2] / "docs"


def grows(server: LiveServer, name: str, before: float, **labels: str) -> Callable[[], bool]:
    return lambda: scrape(server).value(name, **labels) > before


@pytest.fixture(scope="module")
def observed(make_settings: Callable[..., Settings]) -> Iterator[LiveServer]:
    """This module's service; it dispatches webhooks and evaluates policies, so their
    series move too."""
    hooks = WEBHOOKS_FOR_TESTS.model_copy(update={"dispatch": True})
    server = LiveServer(create_app(make_settings(webhooks=hooks, policies=EVALUATING))).start()
    yield server
    server.stop()


@pytest.fixture
def writer(observed: LiveServer, tokens: Tokens) -> Iterator[httpx.Client]:
    with client_for(observed, tokens.write) as client:
        yield client


@pytest.fixture
def admin(observed: LiveServer, tokens: Tokens) -> Iterator[httpx.Client]:
    with client_for(observed, tokens.admin) as client:
        yield client


def test_process_and_garbage_collector_series_are_exported(observed: LiveServer) -> None:
    found = scrape(observed)
    for family in ("process_cpu_seconds", "process_resident_memory_bytes", "python_gc_collections"):
        assert family in found.families
    assert found.value("python_info") == 1


def test_requests_are_counted_by_route_template_never_by_raw_path(
    observed: LiveServer, writer: httpx.Client
) -> None:
    route = "/api/v1/assets/{asset_id:path}"
    before = scrape(observed).value("governance_http_requests_total", route=route, status="404")
    raw_id = f"s3://lake/raw/{uuid.uuid4().hex}.parquet"
    assert writer.get(f"/assets/{quote(raw_id, safe='')}").status_code == 404
    after = scrape(observed)
    assert after.value("governance_http_requests_total", route=route, status="404") == before + 1
    assert after.value("governance_http_request_duration_seconds_count", route=route) >= 1
    assert raw_id.rsplit("/", 1)[1] not in after.text


def test_every_named_statement_is_timed(observed: LiveServer, writer: httpx.Client) -> None:
    name = "governance_neo4j_statement_duration_seconds_count"
    before = scrape(observed).value(name, statement="events.append_many")
    post_asset(writer, "timed.asset")
    after = scrape(observed)
    assert after.value(name, statement="events.append_many") == before + 1
    statements = after.label_values(name, "statement")
    assert "tokens.by_hash" in statements  # every API request's token look-up
    assert any(s.startswith("schema.") for s in statements)  # start-up, too
    assert all("." in s for s in statements)  # names of cypher/ files, nothing else


def test_neo4j_errors_are_counted_by_kind(observed: LiveServer, admin: httpx.Client) -> None:
    labels = {"kind": "unmapped", "error": "Neo.ClientError.Statement.SyntaxError"}
    before = scrape(observed).value("governance_neo4j_errors_total", **labels)
    refused = admin.post("/query/cypher", json={"query": "MATCH (n) RETURN nosuchfunction(n)"})
    assert refused.status_code == 422, refused.text
    assert scrape(observed).value("governance_neo4j_errors_total", **labels) == before + 1


def test_an_unreachable_neo4j_is_counted_and_metrics_still_answer(
    make_settings: Callable[..., Settings],
) -> None:
    with socket.socket() as closed:  # bound, never listening: connections are refused
        closed.bind(("127.0.0.1", 0))
        uri = f"bolt://127.0.0.1:{closed.getsockname()[1]}"
        app = create_app(make_settings(neo4j_uri=uri))
        with TestClient(app) as client:
            headers = {"Authorization": f"Bearer {token_format.generate()}"}
            assert client.get("/api/v1/assets", headers=headers).status_code == 503
            answer = client.get("/metrics")
    assert answer.status_code == 200
    found = Scrape(answer.text)
    assert found.value("governance_neo4j_errors_total", kind="neo4j_unavailable") >= 1


def test_outbox_lag_falls_to_zero_once_each_consumer_catches_up(
    observed: LiveServer, writer: httpx.Client
) -> None:
    newest = scrape(observed).value("governance_outbox_newest_seq")
    post_asset(writer, "outbox.asset")
    eventually(grows(observed, "governance_outbox_newest_seq", newest), what="newest seq moves")

    def caught_up() -> bool:
        found = scrape(observed)
        top = found.value("governance_outbox_newest_seq")
        consumers = ("sse", "webhooks", "policies")
        seqs = [found.value("governance_outbox_consumer_seq", consumer=c) for c in consumers]
        lags = [found.value("governance_outbox_lag_events", consumer=c) for c in consumers]
        return seqs == [top] * 3 and lags == [0] * 3

    eventually(caught_up, timeout=20, what="every outbox consumer at the newest event")


def test_live_streams_are_counted_while_open(observed: LiveServer, tokens: Tokens) -> None:
    def subscribers() -> float:
        return scrape(observed).value("governance_sse_subscribers")

    assert subscribers() == 0
    with SseReader(observed.url + "/api/v1/events/stream", tokens.read) as stream:
        assert stream.status == 200
        eventually(lambda: subscribers() == 1, what="one subscriber")
    eventually(lambda: subscribers() == 0, what="no subscriber once the stream closed")


def test_webhook_deliveries_by_outcome_with_their_lag(
    observed: LiveServer, admin: httpx.Client, writer: httpx.Client
) -> None:
    before = scrape(observed)
    with Receiver([(500, {})]) as receiver:
        hook = admin.post("/webhooks", json={"url": receiver.url, "types": ["asset.*"]})
        assert hook.status_code == 201, hook.text
        post_asset(writer, "hooked.asset")
        eventually(lambda: len(receiver.received) == 2, timeout=20, what="a retry delivered")

    def counted() -> bool:
        found = scrape(observed)
        name = "governance_webhook_deliveries_total"
        retried = found.value(name, outcome="retrying") - before.value(name, outcome="retrying")
        done = found.value(name, outcome="delivered") - before.value(name, outcome="delivered")
        lag = found.value("governance_webhook_delivery_lag_seconds_count")
        return (
            retried == 1
            and done == 1
            and lag >= before.value("governance_webhook_delivery_lag_seconds_count") + 2
        )

    eventually(counted, what="one retry and one delivery counted, each with its lag")
    assert admin.delete(f"/webhooks/{hook.json()['id']}").status_code == 204


def test_background_policy_evaluation_is_timed(
    make_settings: Callable[..., Settings], writer: httpx.Client
) -> None:
    """The evaluator that holds the lease times each policy. Which test service holds
    it is not this test's to choose, so it runs one evaluator itself."""
    for name in ("owners", "descriptions"):
        kind = "require_owner" if name == "owners" else "require_description"
        made = writer.post("/policies", json={"name": name, "kind": kind})
        assert made.status_code == 201, made.text
    settings, metrics = make_settings(), Metrics()

    async def evaluate(graph: Graph) -> None:
        await PolicyEvaluator(graph, settings.policies, 5, metrics).evaluate_all()

    on_a_graph(settings, evaluate, metrics)
    found = Scrape(generate_latest(metrics.registry).decode())
    assert found.value("governance_policy_evaluation_duration_seconds_count") == 2
    assert found.value("governance_policy_evaluation_duration_seconds_sum") > 0


def test_refused_credentials_are_counted_by_reason(
    observed: LiveServer, tokens: Tokens, writer: httpx.Client
) -> None:
    name = "governance_auth_failures_total"
    before = scrape(observed)
    with client_for(observed, None) as anonymous:
        assert anonymous.get("/assets").status_code == 401
    with client_for(observed, "dgs_not_a_token") as forged:
        assert forged.get("/assets").status_code == 401
    with client_for(observed, tokens.read) as reader:
        answer = reader.post("/assets", json={"id": "x", "name": "n", "type": "table"})
        assert answer.status_code == 403
    with browser(observed) as page:
        for _ in range(6):  # five wrong passwords a minute per username, then 429
            answer = submit_login(page, "nobody", "wrong-password")
        assert answer.status_code == 429
    after = scrape(observed)
    moved = {
        (channel, reason): after.value(name, channel=channel, reason=reason)
        - before.value(name, channel=channel, reason=reason)
        for channel, reason in (
            ("api", "missing_token"),
            ("api", "invalid_token"),
            ("api", "insufficient_scope"),
            ("dashboard", "wrong_password"),
            ("dashboard", "too_many_failures"),
        )
    }
    assert moved == {
        ("api", "missing_token"): 1,
        ("api", "invalid_token"): 1,
        ("api", "insufficient_scope"): 1,
        ("dashboard", "wrong_password"): 5,
        ("dashboard", "too_many_failures"): 1,
    }


def test_ingestion_sizes_and_times_by_kind(observed: LiveServer, writer: httpx.Client) -> None:
    before = scrape(observed)
    edges = [{"source": f"raw.{n}", "target": f"mart.{n}"} for n in range(50)]
    assert writer.post("/lineage/bulk", json=edges).status_code == 200
    run = {
        "eventType": "COMPLETE",
        "eventTime": "2026-11-24T10:00:00Z",
        "producer": "https://example.com/producer",
        "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
        "run": {"runId": str(uuid.uuid4())},
        "job": {"namespace": "airflow", "name": "etl"},
        "inputs": [{"namespace": "pg", "name": "public.raw"}],
        "outputs": [{"namespace": "pg", "name": "public.clean"}],
    }
    assert writer.post("/lineage/openlineage", json=run).status_code in (200, 201)
    manifest = gzip.compress((DBT / "manifest.json").read_bytes())
    zipped = {"content-type": "application/json", "content-encoding": "gzip"}
    uploaded = writer.post("/lineage/manifest", content=manifest, headers=zipped, timeout=120)
    assert uploaded.status_code == 200, uploaded.text
    results = (DBT / "run_results_passing.json").read_bytes()
    recorded = writer.post(
        "/quality/results/dbt", content=results, headers={"content-type": "application/json"}
    )
    assert recorded.status_code == 200, recorded.text
    assert writer.post("/lineage/bulk", json={"not": "a list"}).status_code == 422
    after = scrape(observed)

    def moved(name: str, **labels: str) -> float:
        return after.value(name, **labels) - before.value(name, **labels)

    sent = {"manifest": len(manifest), "dbt_results": len(results)}
    for kind in ("bulk_edges", "openlineage", "manifest", "dbt_results"):
        assert moved("governance_ingest_duration_seconds_count", kind=kind, outcome="ok") == 1
        assert moved("governance_ingest_request_bytes_count", kind=kind) >= 1
        if kind in sent:
            assert moved("governance_ingest_request_bytes_sum", kind=kind) == sent[kind]
    rejected = moved(
        "governance_ingest_duration_seconds_count", kind="bulk_edges", outcome="rejected"
    )
    assert rejected == 1


def test_metrics_can_require_their_own_token(make_settings: Callable[..., Settings]) -> None:
    secret = f"scrape-{uuid.uuid4().hex}"
    settings = make_settings(observability=Observability(metrics_token=SecretStr(secret)))
    server = LiveServer(create_app(settings)).start()
    try:
        url = server.url + "/metrics"
        missing = httpx.get(url)
        assert missing.status_code == 401
        assert missing.headers["content-type"] == "application/problem+json"
        assert missing.headers["www-authenticate"] == 'Bearer realm="metrics"'
        wrong = httpx.get(url, headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401 and wrong.json()["code"] == "invalid_token"
        found = scrape(server, secret)
        assert found.value("governance_auth_failures_total", channel="metrics") == 2
    finally:
        server.stop()


def test_metrics_are_open_by_default(observed: LiveServer) -> None:
    assert httpx.get(observed.url + "/metrics").status_code == 200


SUFFIXES = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum"), "gauge": ("",)}
SERIES = re.compile(r"\b(?:governance|process|python)_[a-z0-9_]+\b")
# Drawn as their difference, governance_outbox_lag_events.
UNDRAWN = {"governance_outbox_newest_seq", "governance_outbox_consumer_seq"}


def test_the_grafana_dashboard_draws_only_series_the_service_exports() -> None:
    exported = {
        metric.name + suffix
        for metric in Metrics().registry.collect()
        for suffix in SUFFIXES.get(metric.type, ("",))
    }
    dashboard = orjson.loads((DOCS / "grafana-dashboard.json").read_bytes())
    panels = [p for p in dashboard["panels"] if p["type"] != "row"]
    assert len({p["id"] for p in dashboard["panels"]}) == len(dashboard["panels"])
    drawn = {name for p in panels for t in p["targets"] for name in SERIES.findall(t["expr"])}
    assert drawn - exported == set()
    families = {m.name for m in Metrics().registry.collect() if m.name.startswith("governance_")}
    families -= UNDRAWN
    assert {name.removesuffix("_total") for name in families} <= {
        re.sub(r"_(bucket|count|sum|total)$", "", name) for name in drawn
    }, "every governance_* family has a panel"

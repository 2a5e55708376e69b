"""One Neo4j and one live service per test session; the graph is cleared per test."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import httpx
import neo4j
import pytest
from cryptography.fernet import Fernet
from pydantic import SecretStr

from service import cypher
from service.app import create_app
from service.graph import Graph
from service.localdb.runtime import SERVER_MAIN_CLASS
from service.models.tokens import TokenCreate
from service.settings import EventSettings, PolicySettings, RateLimit, Settings, WebhookSettings
from service.store import tokens as token_store
from tests.support import procfs
from tests.support.neo4j_server import Neo4jTarget, neo4j_for_tests
from tests.support.server import LiveServer

# The event counter and the dispatcher's lease (with its cursor) survive: sequence
# numbers only ever rise, and the dispatcher never skips events, across tests too.
CLEAR_GRAPH = "MATCH (n) WHERE NOT n:EventCounter AND NOT n:Lease DETACH DELETE n"


# Test servers do not dispatch webhooks unless a test says so, so that the
# webhook tests know which process delivers.
# Background evaluation reacts within a fraction of a second, so tests can wait for it.
# Background evaluation is off in test servers unless a test asks for it: an evaluator
# racing a test's explicit `POST /policies/evaluate` would open its violations first.
POLICIES_FOR_TESTS = PolicySettings(evaluate=False, debounce_s=0.1, max_delay_s=1.0)
EVALUATING = POLICIES_FOR_TESTS.model_copy(update={"evaluate": True})
# Test servers seal webhook secrets with a key of this session's own.
TEST_SECRET_KEY = Fernet.generate_key().decode()
WEBHOOKS_FOR_TESTS = WebhookSettings(
    dispatch=False,
    allow_private=True,
    timeout_s=5.0,
    retry_schedule=(0.2, 0.4, 0.8, 1.6),
    poll_interval_s=0.1,
    lease_ttl_s=2.0,
    secret_keys=(SecretStr(TEST_SECRET_KEY),),
)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """After every fixture's teardown, no child of this process is left running or
    unreaped: whatever a test or fixture starts, it stops and waits for. (Such a child
    makes Popen warn when it is collected, in a later test or at exit.) The local Neo4j
    that GOVERNANCE_KEEP_TEST_NEO4J keeps running is the one child allowed."""
    if not sys.platform.startswith("linux"):
        return
    kept = os.environ.get("GOVERNANCE_KEEP_TEST_NEO4J")
    left = [procfs.describe(pid) for pid in sorted(procfs.children(os.getpid()))]
    left = [line for line in left if not (kept and f" {SERVER_MAIN_CLASS} " in f" {line} ")]
    if left:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_sep("=", "child processes left behind by the session", red=True)
            for line in left:
                reporter.write_line(line, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session")
def neo4j_target() -> Iterator[Neo4jTarget]:
    with neo4j_for_tests() as target:
        yield target


@pytest.fixture(scope="session")
def driver(neo4j_target: Neo4jTarget) -> Iterator[neo4j.Driver]:
    with neo4j.GraphDatabase.driver(
        neo4j_target.uri, auth=(neo4j_target.username, neo4j_target.password)
    ) as drv:
        drv.verify_connectivity()
        yield drv


@pytest.fixture(scope="session")
def make_settings(neo4j_target: Neo4jTarget) -> Callable[..., Settings]:
    def make(**overrides: object) -> Settings:
        base = Settings(
            neo4j_uri=neo4j_target.uri,
            neo4j_username=neo4j_target.username,
            neo4j_password=SecretStr(neo4j_target.password),
            neo4j_database=neo4j_target.database,
            rate_limit=RateLimit(per_second=1000, burst=2000, auth_failures_per_minute=100_000),
            events=EventSettings(poll_interval_s=0.05, heartbeat_s=1.0),
            webhooks=WEBHOOKS_FOR_TESTS,
            policies=POLICIES_FOR_TESTS,
        )
        return base.model_copy(update=overrides)

    return make


@pytest.fixture(scope="session")
def live(make_settings: Callable[..., Settings]) -> Iterator[LiveServer]:
    server = LiveServer(create_app(make_settings())).start()
    yield server
    server.stop()


@dataclass(frozen=True)
class Tokens:
    admin: str
    write: str
    read: str


def make_tokens(settings: Settings, **scopes: list[str]) -> dict[str, str]:
    """Tokens made straight in the database, as `governance token create` does."""

    async def create() -> dict[str, str]:
        graph = Graph.connect(settings, cypher.load(), settings.neo4j_uri or "")
        try:
            made = {}
            for name, wanted in scopes.items():
                body = TokenCreate(name=name, scopes=wanted)  # type: ignore[arg-type]
                made[name] = (await token_store.create(graph, body, created_by="tests")).token
            return made
        finally:
            await graph.close()

    # In a worker thread: Playwright's sync API keeps an event loop running in this one.
    with ThreadPoolExecutor(max_workers=1) as worker:
        return worker.submit(asyncio.run, create()).result()


@pytest.fixture
def clean(driver: neo4j.Driver) -> None:
    driver.execute_query(CLEAR_GRAPH)


@pytest.fixture
def tokens(clean: None, make_settings: Callable[..., Settings]) -> Tokens:
    made = make_tokens(make_settings(), admin=["admin"], write=["write"], read=["read"])
    return Tokens(**made)


def client_for(live: LiveServer, token: str | None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.Client(base_url=live.url + "/api/v1", headers=headers, timeout=30)


@pytest.fixture
def admin(live: LiveServer, tokens: Tokens) -> Iterator[httpx.Client]:
    with client_for(live, tokens.admin) as client:
        yield client


@pytest.fixture
def writer(live: LiveServer, tokens: Tokens) -> Iterator[httpx.Client]:
    with client_for(live, tokens.write) as client:
        yield client


@pytest.fixture
def reader(live: LiveServer, tokens: Tokens) -> Iterator[httpx.Client]:
    with client_for(live, tokens.read) as client:
        yield client


@pytest.fixture
def anonymous(live: LiveServer, clean: None) -> Iterator[httpx.Client]:
    with client_for(live, None) as client:
        yield client

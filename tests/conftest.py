"""One Neo4j and one live service per test session; the graph is cleared per test."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import neo4j
import pytest
from argon2 import PasswordHasher
from hypothesis import settings as hypothesis_settings
from pydantic import SecretStr

from service.app import create_app
from service.domain.access import passwords
from service.localdb.runtime import SERVER_MAIN_CLASS
from service.settings import EventSettings, PolicySettings, RateLimit, Settings, WebhookSettings
from tests.support import procfs
from tests.support.identity_provider import IdentityProvider
from tests.support.keys import TEST_SECRET_KEY
from tests.support.neo4j_server import Neo4jTarget, neo4j_for_tests
from tests.support.schema import apply_schema
from tests.support.server import LiveServer, local_client
from tests.support.tokens import TokenMaker
from tests.support.warm_up import warm_plans

# No per-example deadline (Hypothesis's default is 200 ms): what the property tests
# assert is never a timing, and on a loaded machine (`make test` warms Neo4j beside the
# unit tests) a pure function can miss it, which Hypothesis reports as a failure.
hypothesis_settings.register_profile("suite", deadline=None)
hypothesis_settings.load_profile("suite")

# Argon2id as cheap as it goes (one pass over 8 KiB, one lane) for the services a test
# session runs in its own process. At the service's cost (3 passes over 64 MiB, four
# lanes) every user a test makes and every sign-in costs 0.2 s of CPU (0.6-1.8 s of wall
# time on a busy 2-core machine): most of the time of the sign-in tests, and no test is
# about that cost. The hash stays argon2id, made and verified by the service's own code;
# `production_password_hashing` gives a test the real parameters (services run as
# processes, `governance serve` and the CLI, always have them).
CHEAP_PASSWORD_HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)

# The event counter and the dispatcher's lease (with its cursor) survive: sequence
# numbers only ever rise, and the dispatcher never skips events, across tests too. So
# do the marks of data migrations that ran (an empty graph has nothing to backfill):
# a server a test starts skips them instead of writing in the background beside it.
CLEAR_GRAPH = (
    "MATCH (n) WHERE NOT n:EventCounter AND NOT n:Lease AND NOT n:Migration DETACH DELETE n"
)


# Each test server looks at the outbox as often as a deployed one does (0.25 s): at
# 0.05 s an idle server's polls alone kept Neo4j 12% busy, all session long.
EVENTS_FOR_TESTS = EventSettings(poll_interval_s=0.25, heartbeat_s=1.0)

# Test servers do not dispatch webhooks unless a test says so, so that the
# webhook tests know which process delivers.
# Background evaluation reacts within a fraction of a second, so tests can wait for it.
# Background evaluation is off in test servers unless a test asks for it: an evaluator
# racing a test's explicit `POST /policies/evaluate` would open its violations first.
POLICIES_FOR_TESTS = PolicySettings(evaluate=False, debounce_s=0.1, max_delay_s=1.0)
EVALUATING = POLICIES_FOR_TESTS.model_copy(update={"evaluate": True})
WEBHOOKS_FOR_TESTS = WebhookSettings(
    dispatch=False,
    allow_private=True,
    timeout_s=5.0,
    retry_schedule=(0.2, 0.4, 0.8, 1.6),
    poll_interval_s=0.1,
    lease_ttl_s=2.0,
    secret_keys=(SecretStr(TEST_SECRET_KEY),),
)


# What the xdist workers left behind, as their controller hears it.
WORKERS_LEFT = pytest.StashKey[list[str]]()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """After every fixture's teardown, no child of this process is left running or
    unreaped: whatever a test or fixture starts, it stops and waits for. (Such a child
    makes Popen warn when it is collected, in a later test or at exit.) The local Neo4j
    that GOVERNANCE_KEEP_TEST_NEO4J keeps running is the one child allowed. An xdist
    worker hands its list to the controller (`pytest_testnodedown`), which fails the run."""
    if not sys.platform.startswith("linux"):
        return
    kept = os.environ.get("GOVERNANCE_KEEP_TEST_NEO4J")
    left = [procfs.describe(pid) for pid in sorted(procfs.children(os.getpid()))]
    left = [line for line in left if not (kept and f" {SERVER_MAIN_CLASS} " in f" {line} ")]
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["children_left"] = left
        return
    from_workers: list[str] = session.config.stash.get(WORKERS_LEFT, [])
    left += from_workers
    if left:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_sep("=", "child processes left behind by the session", red=True)
            for line in left:
                reporter.write_line(line, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """An xdist worker finished: keep what it left running, for `pytest_sessionfinish`."""
    left = getattr(node, "workeroutput", {}).get("children_left", [])
    worker = node.gateway.id
    node.config.stash.setdefault(WORKERS_LEFT, []).extend(f"{worker}: {line}" for line in left)


@pytest.fixture(scope="session", autouse=True)
def _cheap_password_hashing() -> Iterator[None]:
    """`CHEAP_PASSWORD_HASHER` for the whole session, in this process."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(passwords, "_HASHER", CHEAP_PASSWORD_HASHER)
        yield


@pytest.fixture
def production_password_hashing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The service's own Argon2 parameters, for a test about them."""
    monkeypatch.setattr(passwords, "_HASHER", PasswordHasher())


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


def settings_for(target: Neo4jTarget, **overrides: object) -> Settings:
    """A test server's settings on `target`, with `overrides`."""
    base = Settings(
        neo4j_uri=target.uri,
        neo4j_username=target.username,
        neo4j_password=SecretStr(target.password),
        neo4j_database=target.database,
        rate_limit=RateLimit(per_second=1000, burst=2000, auth_failures_per_minute=100_000),
        events=EVENTS_FOR_TESTS,
        webhooks=WEBHOOKS_FOR_TESTS,
        policies=POLICIES_FOR_TESTS,
    )
    return base.model_copy(update=overrides)


def prepare_database(target: Neo4jTarget) -> None:
    """The schema in place and the everyday plans made (`warm_plans`), on an empty graph."""
    apply_schema(settings_for(target))
    warm_plans(settings_for(target), CLEAR_GRAPH)


@pytest.fixture(scope="session")
def make_settings(neo4j_target: Neo4jTarget) -> Callable[..., Settings]:
    def make(**overrides: object) -> Settings:
        return settings_for(neo4j_target, **overrides)

    prepare_database(neo4j_target)
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
    with TokenMaker(settings) as maker:
        return maker.make(**scopes)


@pytest.fixture(scope="session")
def token_maker(make_settings: Callable[..., Settings]) -> Iterator[TokenMaker]:
    with TokenMaker(make_settings()) as maker:
        yield maker


@pytest.fixture
def clean(driver: neo4j.Driver) -> None:
    driver.execute_query(CLEAR_GRAPH)


@pytest.fixture
def tokens(clean: None, token_maker: TokenMaker) -> Tokens:
    made = token_maker.make(admin=["admin"], write=["write"], read=["read"])
    return Tokens(**made)


def client_for(live: LiveServer, token: str | None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return local_client(base_url=live.url + "/api/v1", headers=headers)


@pytest.fixture
def client_of(live: LiveServer) -> Iterator[Callable[[str], httpx.Client]]:
    """A client holding a given token, for tests with callers of their own; each one
    made is closed after the test."""
    opened: list[httpx.Client] = []

    def make(token: str) -> httpx.Client:
        client = client_for(live, token)
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.close()


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


@pytest.fixture(scope="module")
def oidc_provider(tmp_path_factory: pytest.TempPathFactory) -> Iterator[IdentityProvider]:
    """A real OpenID provider process for the single sign-on tests (its users: none yet)."""
    started = IdentityProvider(tmp_path_factory.mktemp("provider")).start()
    yield started
    started.stop()


@pytest.fixture(scope="module")
def sso_live(
    oidc_provider: IdentityProvider, make_settings: Callable[..., Settings]
) -> Iterator[LiveServer]:
    """The service with single sign-on through `oidc_provider`, local passwords on."""
    server = LiveServer(create_app(make_settings(sso=oidc_provider.settings()))).start()
    yield server
    server.stop()

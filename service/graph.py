"""The Neo4j driver's lifetime and the few helpers that run named queries.

One async driver per process. Reads go through read transactions (so a cluster
routes them to followers), writes through managed write transactions whose
functions the driver may retry, so they must be idempotent. The retry window is
short on purpose: when Neo4j is down a client should get a 503 in seconds, not
after the driver's default 30 s of retries.

An `Observer` (the app's metrics) is told how long each named statement took and
sees every exception that leaves a Neo4j call; each call's time is charged to the
request being served (`service.request_clock`, for its `Server-Timing` header).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import neo4j
from neo4j import AsyncDriver, AsyncGraphDatabase, AsyncManagedTransaction, AsyncResult, Record

from service import request_clock
from service.cypher import Queries
from service.driver_errors import ENTITY_NOT_FOUND, ConcurrentChange
from service.settings import Settings

T = TypeVar("T")


class Observer(Protocol):
    """Told how long each named statement took and which exceptions left a Neo4j call
    (`service.metrics.Metrics` is one)."""

    def statement(self, name: str, seconds: float) -> None: ...

    def driver_error(self, exc: Exception) -> None: ...


class Unobserved:
    def statement(self, name: str, seconds: float) -> None:
        pass

    def driver_error(self, exc: Exception) -> None:
        pass


async def _records(observer: Observer, name: str, running: Awaitable[AsyncResult]) -> list[Record]:
    """Every record of a statement, timed from sending it to reading its last record."""
    started = time.perf_counter()
    try:
        result = await running
        return [record async for record in result]
    finally:
        observer.statement(name, time.perf_counter() - started)


# Identity another transaction took a moment ago: a dataset two writers resolved at
# once, an alias two merges made, or an asset version number two writers recorded.
# Started again, the loser finds the holder (the version, and records the next).
_RACED_IDENTITY = ("dataset_key", "AssetAlias", "AssetVersion")


@contextlib.contextmanager
def retry_when_deleted_under_it() -> Iterator[None]:
    """A node deleted by another transaction between finding and reading it fails the
    statement (EntityNotFound), which the driver does not retry: ask it to. So does a
    dataset or alias that a concurrent writer claimed first (their unique constraints)."""
    try:
        yield
    except neo4j.exceptions.Neo4jError as exc:
        if exc.code == ENTITY_NOT_FOUND:
            raise ConcurrentChange("an entity was deleted by another transaction") from exc
        if isinstance(exc, neo4j.exceptions.ConstraintError) and any(
            mark in (exc.message or "") for mark in _RACED_IDENTITY
        ):
            raise ConcurrentChange("a dataset was claimed by another transaction") from exc
        raise


@dataclass
class Tx:
    """A transaction that runs named statements only."""

    _tx: AsyncManagedTransaction
    _queries: Queries
    _observer: Observer
    _last: dict[str, list[Any]] = field(default_factory=dict)

    async def run(
        self, name: str, bounds: Mapping[str, int] | None = None, /, **params: Any
    ) -> list[Record]:
        query = self._queries[name]
        sent = query.bind(params)
        return await _records(self._observer, name, self._tx.run(query.statement(bounds), sent))

    def run_last(self, name: str, items: list[Any]) -> None:
        """Queue `items` for the statement `name`, run once with all of them (as
        `$items`) after the transaction's work, just before its commit: a lock that
        statement takes is held for the commit only, not for the whole change."""
        self._queries[name].check_params({"items": items})
        self._last.setdefault(name, []).extend(items)

    async def finish(self) -> None:
        for name, items in self._last.items():
            await self.run(name, items=items)
        self._last.clear()


@dataclass
class Reader:
    """Read statements run auto-commit in one session. Neo4j transactions are read
    committed, so wrapping reads in a transaction buys no consistency, while the
    async driver pays a BEGIN and a COMMIT round trip for it (about doubling the
    cost of a small read)."""

    _session: neo4j.AsyncSession
    _queries: Queries
    _timeout_s: float
    _observer: Observer

    async def run(
        self, name: str, bounds: Mapping[str, int] | None = None, /, **params: Any
    ) -> list[Record]:
        query = self._queries[name]
        sent = query.bind(params)
        statement = neo4j.Query(query.statement(bounds), timeout=self._timeout_s)
        return await _records(self._observer, name, self._session.run(statement, sent))


class Graph:
    def __init__(
        self,
        driver: AsyncDriver,
        queries: Queries,
        database: str,
        timeout_s: float,
        observer: Observer | None = None,
    ) -> None:
        self.driver = driver
        self.queries = queries
        self.database = database
        self.timeout_s = timeout_s
        self.observer = observer or Unobserved()

    @classmethod
    def connect(
        cls, settings: Settings, queries: Queries, uri: str, observer: Observer | None = None
    ) -> Graph:
        driver = AsyncGraphDatabase.driver(
            uri,
            auth=(settings.neo4j_username, settings.neo4j_password.get_secret_value()),
            connection_timeout=settings.neo4j_connect_timeout_s,
            connection_acquisition_timeout=settings.neo4j_connect_timeout_s,
            max_transaction_retry_time=settings.neo4j_connect_timeout_s,
            liveness_check_timeout=30.0,
            user_agent="governance-service",
            notifications_min_severity="OFF",
        )
        return cls(
            driver, queries, settings.neo4j_database, settings.limits.query_timeout_s, observer
        )

    async def close(self) -> None:
        await self.driver.close()

    @contextlib.contextmanager
    def _observed(self) -> Iterator[None]:
        """Whatever leaves a Neo4j call is shown to the observer (it counts driver errors),
        and the call's time, retries included, is charged to the request being served."""
        started = time.perf_counter()
        try:
            yield
        except Exception as exc:
            self.observer.driver_error(exc)
            raise
        finally:
            request_clock.charge_database(time.perf_counter() - started)

    def _session(self, mode: str) -> neo4j.AsyncSession:
        return self.driver.session(
            database=self.database,
            default_access_mode=mode,
            bookmark_manager=self.driver.execute_query_bookmark_manager,
        )

    async def read_session(self, work: Callable[[Reader], Awaitable[T]]) -> T:
        """Run read statements in one session; a connection that went stale (Neo4j
        restarted, a cluster member left) is retried once on a fresh one, and so is a
        read that found a node another transaction deleted before it was read."""
        with self._observed():
            for attempt in (1, 2):
                try:
                    async with self._session(neo4j.READ_ACCESS) as session:
                        reader = Reader(session, self.queries, self.timeout_s, self.observer)
                        with retry_when_deleted_under_it():
                            return await work(reader)
                except (
                    neo4j.exceptions.SessionExpired,
                    neo4j.exceptions.ServiceUnavailable,
                    ConcurrentChange,
                ):
                    if attempt == 2:
                        raise
        raise AssertionError("unreachable")

    async def read_unit(self, work: Callable[[neo4j.AsyncTransaction], Awaitable[T]]) -> T:
        """A READ transaction with the query timeout, for the two kinds of statement that
        are not named files: the query compiler's (`service.domain.query`) and an
        admin's guarded Cypher (`POST /query/cypher`). Neo4j refuses a write in it.
        It is rolled back, never committed: a read has nothing to commit, and rows the
        caller left unread are discarded instead of streamed. A stale connection is
        retried once, as in `read_session`, but only while beginning the transaction
        (the driver sends BEGIN and waits for its answer): once `work` has started, a
        lost connection may be Neo4j failing under that very query (out of memory, a
        timeout), and running it a second time would only do that again."""
        with self._observed():
            for attempt in (1, 2):
                started = False
                try:
                    async with self._session(neo4j.READ_ACCESS) as session:
                        tx = await session.begin_transaction(timeout=self.timeout_s)
                        started = True
                        try:
                            return await work(tx)
                        finally:
                            await tx.close()
                except (neo4j.exceptions.SessionExpired, neo4j.exceptions.ServiceUnavailable):
                    if started or attempt == 2:
                        raise
        raise AssertionError("unreachable")

    async def write_tx(
        self, work: Callable[[Tx], Awaitable[T]], timeout_s: float | None = None
    ) -> T:
        """`timeout_s` overrides the query timeout for the rare large write (ingestion)."""
        with self._observed():
            async with self._session(neo4j.WRITE_ACCESS) as session:
                return await session.execute_write(self._unit(work, timeout_s))

    async def read(
        self, query: str, bounds: Mapping[str, int] | None = None, /, **params: Any
    ) -> list[Record]:
        return await self.read_session(lambda reader: reader.run(query, bounds, **params))

    async def write(
        self, query: str, bounds: Mapping[str, int] | None = None, /, **params: Any
    ) -> list[Record]:
        return await self.write_tx(lambda tx: tx.run(query, bounds, **params))

    def _unit(
        self, work: Callable[[Tx], Awaitable[T]], timeout_s: float | None = None
    ) -> Callable[[AsyncManagedTransaction], Awaitable[T]]:
        queries, observer = self.queries, self.observer

        @neo4j.unit_of_work(timeout=timeout_s or self.timeout_s)
        async def run(tx: AsyncManagedTransaction) -> T:
            unit = Tx(tx, queries, observer)
            with retry_when_deleted_under_it():
                result = await work(unit)
                await unit.finish()
            return result

        return run

    async def apply_schema(self) -> None:
        """Run every `schema.*` statement in name order; each is `IF NOT EXISTS`."""
        for name in sorted(n for n in self.queries if n.startswith("schema.")):
            with self._observed():
                async with self._session(neo4j.WRITE_ACCESS) as session:
                    running = session.run(self.queries[name].statement())
                    await _records(self.observer, name, running)

    async def ping(self) -> None:
        await self.read("meta.ping")

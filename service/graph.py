"""The Neo4j driver's lifetime and the few helpers that run named queries.

One async driver per process. Reads go through read transactions (so a cluster
routes them to followers), writes through managed write transactions whose
functions the driver may retry, so they must be idempotent. The retry window is
short on purpose: when Neo4j is down a client should get a 503 in seconds, not
after the driver's default 30 s of retries.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import neo4j
from neo4j import AsyncDriver, AsyncGraphDatabase, AsyncManagedTransaction, Record

from service.cypher import Queries
from service.settings import Settings

T = TypeVar("T")


@dataclass
class Tx:
    """A transaction that runs named statements only."""

    _tx: AsyncManagedTransaction
    _queries: Queries

    async def run(
        self, name: str, bounds: Mapping[str, int] | None = None, /, **params: Any
    ) -> list[Record]:
        query = self._queries[name]
        query.check_params(params)
        result = await self._tx.run(query.statement(bounds), params)
        return [record async for record in result]


@dataclass
class Reader:
    """Read statements run auto-commit in one session. Neo4j transactions are read
    committed, so wrapping reads in a transaction buys no consistency, while the
    async driver pays a BEGIN and a COMMIT round trip for it (about doubling the
    cost of a small read)."""

    _session: neo4j.AsyncSession
    _queries: Queries
    _timeout_s: float

    async def run(
        self, name: str, bounds: Mapping[str, int] | None = None, /, **params: Any
    ) -> list[Record]:
        query = self._queries[name]
        query.check_params(params)
        statement = neo4j.Query(query.statement(bounds), timeout=self._timeout_s)
        result = await self._session.run(statement, params)
        return [record async for record in result]


class Graph:
    def __init__(
        self, driver: AsyncDriver, queries: Queries, database: str, timeout_s: float
    ) -> None:
        self.driver = driver
        self.queries = queries
        self.database = database
        self.timeout_s = timeout_s

    @classmethod
    def connect(cls, settings: Settings, queries: Queries, uri: str) -> Graph:
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
        return cls(driver, queries, settings.neo4j_database, settings.limits.query_timeout_s)

    async def close(self) -> None:
        await self.driver.close()

    def _session(self, mode: str) -> neo4j.AsyncSession:
        return self.driver.session(
            database=self.database,
            default_access_mode=mode,
            bookmark_manager=self.driver.execute_query_bookmark_manager,
        )

    async def read_session(self, work: Callable[[Reader], Awaitable[T]]) -> T:
        """Run read statements in one session; a connection that went stale (Neo4j
        restarted, a cluster member left) is retried once on a fresh one."""
        for attempt in (1, 2):
            try:
                async with self._session(neo4j.READ_ACCESS) as session:
                    return await work(Reader(session, self.queries, self.timeout_s))
            except (neo4j.exceptions.SessionExpired, neo4j.exceptions.ServiceUnavailable):
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def read_unit(self, work: Callable[[neo4j.AsyncTransaction], Awaitable[T]]) -> T:
        """A READ transaction with the query timeout, for the two kinds of statement that
        are not named files: the query compiler's (`service.domain.query`) and an
        admin's guarded Cypher (`POST /query/cypher`). Neo4j refuses a write in it.
        It is rolled back, never committed: a read has nothing to commit, and rows the
        caller left unread are discarded instead of streamed. A stale connection is
        retried once, as in `read_session`."""
        for attempt in (1, 2):
            try:
                async with self._session(neo4j.READ_ACCESS) as session:
                    tx = await session.begin_transaction(timeout=self.timeout_s)
                    try:
                        return await work(tx)
                    finally:
                        await tx.close()
            except (neo4j.exceptions.SessionExpired, neo4j.exceptions.ServiceUnavailable):
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def write_tx(
        self, work: Callable[[Tx], Awaitable[T]], timeout_s: float | None = None
    ) -> T:
        """`timeout_s` overrides the query timeout for the rare large write (ingestion)."""
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
        queries = self.queries

        @neo4j.unit_of_work(timeout=timeout_s or self.timeout_s)
        async def run(tx: AsyncManagedTransaction) -> T:
            return await work(Tx(tx, queries))

        return run

    async def apply_schema(self) -> None:
        """Run every `schema.*` statement in name order; each is `IF NOT EXISTS`."""
        for name in sorted(n for n in self.queries if n.startswith("schema.")):
            async with self._session(neo4j.WRITE_ACCESS) as session:
                result = await session.run(self.queries[name].statement())
                await result.consume()

    async def ping(self) -> None:
        await self.read("meta.ping")

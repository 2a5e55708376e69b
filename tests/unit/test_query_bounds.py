"""The /query/cypher size guard (`service.domain.query.bounds`) on query text and a
plan that calls range(), and `Graph.read_unit`'s retry, which never runs a query twice.
(Real plans and Neo4j: tests/integration/test_query_memory.py.)"""

from __future__ import annotations

import asyncio
from typing import Any

import neo4j
import pytest

from service.domain.query.bounds import MAX_RANGE, size_refusal
from service.graph import Graph

CALLS_RANGE = {"operatorType": "Projection@neo4j", "args": {"Details": "range($a, $b) AS r"}}
NO_RANGE = {"operatorType": "Projection@neo4j", "args": {"Details": "$autostring_0 AS s"}}


@pytest.mark.parametrize(
    "query",
    [
        "RETURN range(1, 100000) AS r",
        "RETURN range(100000, 1, -1) AS r",
        "RETURN range(0, 10, 2) AS r, RANGE (1, 3) AS q",
        "UNWIND range(1, 10000000000) AS i RETURN i",
        "unwind range(1, $n) as i return i",
        "RETURN [x IN range(1, 1000) | range(1, 1000)] AS square",
        "RETURN 'range(1, 1000000000)' + toString(range(1, 2)) AS s",
        "RETURN range(1, 2) AS r /* range(1, 1000000000) */ // range(0, $n)",
    ],
)
def test_small_literal_ranges_pass(query: str) -> None:
    assert size_refusal(query, CALLS_RANGE) is None


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ("RETURN range(0, 100000) AS r", f"100,001 values, more than {MAX_RANGE:,}"),
        ("RETURN size([x IN range(1, 50000000) | x]) AS n", "50,000,000 values"),
        ("RETURN reduce(a = [], x IN range(1, $n) | a + [x]) AS n", "literal bounds"),
        ("RETURN range(1, 10, $step) AS r", "literal bounds"),
        ("RETURN [x IN range(1, 1000) | range(1, 10000)] AS t", "10,000,000 values"),
        ("UNWIND [x IN range(1, 200000) | x] AS y RETURN y", "200,000 values"),
        ("RETURN `range`(1, 200000) AS r", "200,000 values"),
        ("RETURN fn.call() AS r", "cannot be read"),
    ],
)
def test_unbounded_or_huge_ranges_are_refused(query: str, reason: str) -> None:
    refused = size_refusal(query, CALLS_RANGE)
    assert refused is not None and reason in refused


def test_a_plan_without_range_is_not_inspected() -> None:
    assert size_refusal("RETURN 'range(1, 1000000000)' AS s", NO_RANGE) is None
    assert size_refusal("RETURN 1", None) is None


class _Session:
    def __init__(self, begin_fails: list[Exception]) -> None:
        self.begin_fails = begin_fails

    async def __aenter__(self) -> _Session:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def begin_transaction(self, timeout: float) -> Any:
        if self.begin_fails:
            raise self.begin_fails.pop()
        return _Tx()


class _Tx:
    async def close(self) -> None:
        return None


class _Driver:
    execute_query_bookmark_manager = None

    def __init__(self, begin_fails: list[Exception]) -> None:
        self.begin_fails = begin_fails

    def session(self, **config: Any) -> _Session:
        return _Session(self.begin_fails)


def _graph(begin_fails: list[Exception]) -> Graph:
    return Graph(_Driver(begin_fails), {}, "neo4j", 1.0)  # type: ignore[arg-type]


def test_a_lost_connection_while_a_query_runs_is_not_run_again() -> None:
    runs = []

    async def work(tx: Any) -> None:
        runs.append(tx)
        raise neo4j.exceptions.ServiceUnavailable("Neo4j went away")

    with pytest.raises(neo4j.exceptions.ServiceUnavailable):
        asyncio.run(_graph([]).read_unit(work))
    assert len(runs) == 1


def test_a_stale_connection_at_begin_is_retried_once() -> None:
    async def work(tx: Any) -> str:
        return "ok"

    stale: list[Exception] = [neo4j.exceptions.SessionExpired("stale")]
    assert asyncio.run(_graph(stale).read_unit(work)) == "ok"
    twice: list[Exception] = [
        neo4j.exceptions.SessionExpired("s"),
        neo4j.exceptions.SessionExpired("t"),
    ]
    with pytest.raises(neo4j.exceptions.SessionExpired):
        asyncio.run(_graph(twice).read_unit(work))

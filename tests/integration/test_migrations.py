"""A data migration runs once per database: the mark it leaves makes later starts skip
it, and one cut short leaves no mark, so the next start runs it again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import neo4j
import pytest

from service.graph import Graph
from service.settings import Settings
from service.store import migrations
from tests.support.graphs import on_a_graph


def forget(driver: neo4j.Driver, name: str) -> None:
    driver.execute_query("MATCH (m:Migration {name: $name}) DELETE m", name=name)


def test_a_migration_that_ended_is_skipped_at_the_next_start(
    driver: neo4j.Driver, make_settings: Callable[..., Settings]
) -> None:
    forget(driver, "test.once")
    runs: list[str] = []

    async def work(graph: Graph) -> int:
        runs.append("ran")
        return 7

    def once(graph: Graph) -> Any:
        return migrations.once(graph, "test.once", work)

    assert on_a_graph(make_settings(), once) == 7
    assert on_a_graph(make_settings(), once) is None
    assert runs == ["ran"]
    marks = driver.execute_query(
        "MATCH (m:Migration {name: 'test.once'}) RETURN m.done_at AS done_at"
    ).records
    assert len(marks) == 1 and marks[0]["done_at"]
    forget(driver, "test.once")


def test_a_migration_cut_short_leaves_no_mark_and_runs_again(
    driver: neo4j.Driver, make_settings: Callable[..., Settings]
) -> None:
    forget(driver, "test.cut")

    async def fails(graph: Graph) -> int:
        raise RuntimeError("Neo4j went away")

    async def works(graph: Graph) -> int:
        return 3

    with pytest.raises(RuntimeError):
        on_a_graph(make_settings(), lambda graph: migrations.once(graph, "test.cut", fails))
    assert on_a_graph(make_settings(), lambda graph: migrations.once(graph, "test.cut", works)) == 3
    forget(driver, "test.cut")

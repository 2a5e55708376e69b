"""The index of writers' edge sets, without a database: which writers keep one, and
that a batch costs one statement for them and none for `api`."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from service.domain import origins
from service.store import edge_sets


class _RecordingTx:
    def __init__(self) -> None:
        self.runs: list[tuple[str, dict[str, Any]]] = []

    async def run(self, name: str, **params: Any) -> list[dict[str, Any]]:
        self.runs.append((name, params))
        return [{"indexed": len(params["targets"])}]


def _index(origin: str, edges: list[dict[str, Any]], columns: list[dict[str, Any]]) -> Any:
    tx = _RecordingTx()
    asyncio.run(edge_sets.index(tx, origin, edges, columns))  # type: ignore[arg-type]
    return tx.runs


@pytest.mark.parametrize(
    ("origin", "owns"),
    [
        ("api", False),
        ("sql:query-log", False),
        ("sync:crm", True),
        ("dbt:shop", True),
        ("openlineage:airflow/etl.orders", True),
        ("apis", True),
    ],
)
def test_only_writers_that_may_replace_their_set_keep_an_index(origin: str, owns: bool) -> None:
    assert origins.owns_set(origin) is owns


def test_a_batch_of_an_api_write_runs_no_extra_statement() -> None:
    assert _index("api", [{"source": "a", "target": "b"}], []) == []
    assert _index("sql:log", [{"source": "a", "target": "b"}], []) == []


def test_a_batch_is_indexed_in_one_statement_over_its_distinct_targets() -> None:
    edges = [{"source": "a", "target": "c"}, {"source": "b", "target": "c"}]
    columns = [{"source": "a", "target": "d", "source_key": "a\nx", "target_key": "d\nx"}]

    runs = _index("sync:crm", edges, columns)

    assert runs == [("lineage.index_origin_targets", {"origin": "sync:crm", "targets": ["c", "d"]})]


def test_an_empty_batch_runs_no_statement() -> None:
    assert _index("sync:crm", [], []) == []

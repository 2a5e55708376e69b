"""Each edge history carries where its last run of back-to-back intervals began and
where it ends, in epoch milliseconds (`run_since_ms`, `last_until_ms`): an as_of walk
decides most edges by them without reading the interval arrays, so every write path
keeps them equal to what the arrays say, and a data migration fills them in on
histories written before (and drops the instant strings earlier versions kept)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import httpx
import neo4j

from service import clock
from service.domain.history import OPEN, instant_ms
from service.settings import Settings
from service.store import history
from tests.support.graphs import on_a_graph
from tests.support.history import EDGE_FROM_BEFORE_HISTORY

HISTORIES = (
    "MATCH (s:AssetTrail)-[w:LINEAGE_WAS]->(t:AssetTrail) "
    "RETURN s.id AS source, t.id AS target, w.since AS since, w.until AS until, "
    "w.run_since_ms AS run_since_ms, w.last_since_ms AS last_since_ms,"
    " w.last_until_ms AS last_until_ms ORDER BY source, target"
)


def edge(client: httpx.Client, body: dict[str, Any]) -> None:
    answer = client.post("/lineage", json=body)
    assert answer.status_code in (200, 201), answer.text


def moment() -> str:
    """An instant after everything done so far and before anything done next."""
    now = clock.now_iso()
    while clock.now_iso() == now:
        pass
    return now


def expected_run(since: list[str], until: list[str]) -> tuple[int, int, int]:
    """(run_since_ms, last_since_ms, last_until_ms) as the arrays define them."""
    start = len(since) - 1
    while start > 0 and until[start - 1] == since[start]:
        start -= 1
    return instant_ms(since[start]), instant_ms(since[-1]), instant_ms(until[-1])


def histories(driver: neo4j.Driver) -> dict[tuple[str, str], dict[str, Any]]:
    return {(r["source"], r["target"]): r.data() for r in driver.execute_query(HISTORIES).records}


def whole_histories(driver: neo4j.Driver) -> dict[tuple[str, str], dict[str, Any]]:
    """Every property of each history, to show a migration leaves nothing else behind."""
    query = (
        "MATCH (s:AssetTrail)-[w:LINEAGE_WAS]->(t:AssetTrail)"
        " RETURN s.id AS source, t.id AS target, properties(w) AS h"
    )
    return {(r["source"], r["target"]): r["h"] for r in driver.execute_query(query).records}


def assert_runs_follow_the_arrays(driver: neo4j.Driver) -> None:
    found = histories(driver)
    assert found
    for pair, h in found.items():
        run_ = (h["run_since_ms"], h["last_since_ms"], h["last_until_ms"])
        assert run_ == expected_run(h["since"], h["until"]), pair


def nodes_as_of(client: httpx.Client, root: str, at: str) -> list[str]:
    answer = client.get(f"/lineage/{root}/downstream", params={"as_of": at})
    assert answer.status_code == 200, answer.text
    return sorted(n["id"] for n in answer.json()["nodes"])


def test_every_write_keeps_the_last_run_equal_to_the_intervals(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    edge(writer, {"source": "a", "target": "b"})
    first = moment()
    # a changed transformation closes one interval and opens the next back to back
    body = {"source": "a", "target": "b", "transformation": "v2"}
    edge(writer, body)
    assert_runs_follow_the_arrays(driver)
    h = histories(driver)[("a", "b")]
    assert h["run_since_ms"] == instant_ms(h["since"][0])

    assert writer.delete("/lineage/edges", params={"source": "a", "target": "b"}).status_code == 204
    gone = moment()
    assert_runs_follow_the_arrays(driver)
    assert writer.post("/lineage/bulk", json=[{"source": "a", "target": "b"}]).status_code == 200
    h = histories(driver)[("a", "b")]
    assert_runs_follow_the_arrays(driver)
    assert len(h["since"]) == 3 and h["run_since_ms"] == instant_ms(h["since"][2])  # after the gap

    # instants in the run, in the gap and before it: the gappy part is read from the arrays
    assert nodes_as_of(writer, "a", moment()) == ["a", "b"]
    assert nodes_as_of(writer, "a", gone) == ["a"]
    assert nodes_as_of(writer, "a", first) == ["a", "b"]


def test_an_asset_deletion_and_a_bulk_replace_keep_the_runs(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    rows = [{"source": "x", "target": "y"}, {"source": "x", "target": "z"}]
    assert writer.post("/lineage/bulk?origin=sync", json=rows).status_code == 200
    replaced = writer.post("/lineage/bulk?origin=sync&replace=true", json=rows[:1])
    assert replaced.status_code == 200, replaced.text
    assert writer.delete("/assets/y").status_code == 204
    assert_runs_follow_the_arrays(driver)
    assert all(h["last_until_ms"] != instant_ms(OPEN) for h in histories(driver).values())


def test_the_backfill_and_retention_keep_the_runs(
    writer: httpx.Client, driver: neo4j.Driver, make_settings: Callable[..., Settings]
) -> None:
    driver.execute_query(EDGE_FROM_BEFORE_HISTORY)
    assert on_a_graph(make_settings(), history.backfill) == 1
    backfilled = histories(driver)[("old.src", "old.dst")]
    assert backfilled["run_since_ms"] == instant_ms("2024-02-01T00:00:00.000Z")
    assert_runs_follow_the_arrays(driver)

    for transformation in ("v1", "v2"):
        body = {"source": "old.src", "target": "old.dst", "transformation": transformation}
        edge(writer, body)
    gone = writer.delete("/lineage/edges", params={"source": "old.src", "target": "old.dst"})
    assert gone.status_code == 204
    edge(writer, body)
    later = clock.now() + timedelta(days=2)
    kept = histories(driver)[("old.src", "old.dst")]
    assert len(kept["since"]) == 4  # the backfilled one, v1, v2, and after the gap
    # a day's retention two days on forgets every closed interval: only the open run stays
    on_a_graph(make_settings(), lambda graph: history.prune(graph, timedelta(days=1), later))
    pruned = histories(driver)[("old.src", "old.dst")]
    assert pruned["since"] == kept["since"][-1:]
    assert_runs_follow_the_arrays(driver)


def test_the_migration_fills_the_runs_of_histories_written_before_them(
    writer: httpx.Client, driver: neo4j.Driver, make_settings: Callable[..., Settings]
) -> None:
    edge(writer, {"source": "m", "target": "n"})
    edge(writer, {"source": "n", "target": "o"})
    open_ = moment()
    assert writer.delete("/lineage/edges", params={"source": "n", "target": "o"}).status_code == 204
    edge(writer, {"source": "n", "target": "o"})
    assert writer.delete("/lineage/edges", params={"source": "n", "target": "o"}).status_code == 204
    gap = moment()
    edge(writer, {"source": "n", "target": "o"})
    now = moment()
    written = whole_histories(driver)
    answers = {at: nodes_as_of(writer, "m", at) for at in (open_, gap, now)}
    # the shapes earlier versions left: arrays without their summary (m>n), and the
    # summary's instants as strings (n>o)
    driver.execute_query(
        "MATCH ()-[w:LINEAGE_WAS]->()"
        " REMOVE w.run_since_ms, w.last_since_ms, w.last_until_ms, w.prev_since_ms, w.prev_until_ms"
    )
    driver.execute_query(
        "MATCH (:AssetTrail {id: 'n'})-[w:LINEAGE_WAS]->()"
        " SET w.run_since = w.since[0], w.last_since = w.since[-1], w.last_until = w.until[-1],"
        " w.prev_since = w.since[-2], w.prev_until = w.until[-2]"
    )
    assert whole_histories(driver) != written
    assert {at: nodes_as_of(writer, "m", at) for at in answers} == answers

    assert on_a_graph(make_settings(), history.fill_instants) == len(written)
    assert whole_histories(driver) == written
    assert on_a_graph(make_settings(), history.fill_instants) == 0
    assert answers == {open_: ["m", "n", "o"], gap: ["m", "n"], now: ["m", "n", "o"]}
    assert {at: nodes_as_of(writer, "m", at) for at in answers} == answers

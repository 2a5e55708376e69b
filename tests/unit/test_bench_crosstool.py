"""The cross-tool benchmark's pure parts: events the service reads as intended, the two
graph shapes, the busy asset it merges, the statements sqlglot is asked about, and
ratios that read the right way round."""

from typing import Any

import sqlglot

from bench.crosstool import (
    PLAIN,
    STITCHED,
    MergeCopy,
    Pairs,
    asset_rows,
    db_hits,
    ol_event,
    query_of,
    spent,
    statement_totals,
)
from service.domain.openlineage import parse_events, plan_events


def test_events_plan_two_edges_and_five_column_mappings_each() -> None:
    events = [ol_event("postgres://new.bench:5432", "bench-new", n) for n in range(10)]
    plan = plan_events(parse_events(events, 100), 10_000)
    assert plan.complete == 10 and not plan.warnings
    assert sum(len(rows) for rows in plan.edges.values()) == 20
    assert sum(len(rows) for rows in plan.columns.values()) == 50
    assert len(plan.schemas) == 10  # every output's schema facet
    outputs = {f"analytics.derived.t{n:06d}" for n in range(10)}
    assert outputs <= {d.name for d in plan.datasets}


def test_later_events_read_earlier_outputs() -> None:
    event = ol_event("postgres://x:5432", "j", 10)
    assert [i["name"] for i in event["inputs"]] == [
        "analytics.raw.s0010",
        "analytics.derived.t000007",
    ]


def test_stitched_assets_hold_datasets_and_some_have_former_ids() -> None:
    names = [f"l01.t{i:06d}" for i in range(20)]
    stitched, plain = asset_rows(STITCHED, names, "now"), asset_rows(PLAIN, names, "now")
    assert all(
        r["dataset_key"] == f"{r['dataset_namespace']}\n{r['dataset_name']}" for r in stitched
    )
    assert stitched[0]["dataset_name"] == "analytics.l01.t000000"
    assert [r["aliases"] for r in stitched if "aliases" in r] == [
        ["a.legacy.l01.t000000"],
        ["a.legacy.l01.t000010"],
    ]
    assert not any("dataset_key" in r or "aliases" in r for r in plain)
    assert {r["id"][2:] for r in stitched} == {r["id"][2:] for r in plain} == set(names)


def test_the_busy_asset_has_ten_thousand_edges_and_two_thousand_mappings() -> None:
    copy = MergeCopy("m0.")
    moved, kept = copy.edges()
    assert len(moved) == 10_000 and len(kept) == 1_000
    assert sum(copy.source in edge for edge in moved) == 10_000
    mappings = copy.mappings()
    assert len(mappings) == len(set(map(tuple, mappings))) == 2_000
    keys = {key for _, _, key in copy.columns()}
    assert {key for mapping in mappings for key in mapping} <= keys
    assert len(set(copy.assets())) == 10_002


def test_query_of_finds_what_a_statement_writes_or_yields() -> None:
    insert = sqlglot.parse_one("INSERT INTO t SELECT a, b AS c FROM s", dialect="postgres")
    create = sqlglot.parse_one("CREATE TABLE t AS SELECT a FROM s UNION SELECT a FROM u")
    found = [query_of(insert), query_of(create), query_of(sqlglot.parse_one("SELECT 1 AS x"))]
    assert [q.named_selects if q else None for q in found] == [["a", "c"], ["a"], ["x"]]
    assert query_of(sqlglot.parse_one("UPDATE t SET a = 1")) is None
    assert query_of(sqlglot.parse_one("DROP TABLE t")) is None


def test_pairs_ratio_is_throughput_new_over_old() -> None:
    slower_new = Pairs(old=[1.0, 1.0, 1.0], new=[2.0, 2.0, 1.0])
    assert slower_new.ratio == 0.5  # median old 1.0 / median new 2.0
    assert slower_new.pair_median == 0.5  # median of 0.5, 0.5, 1.0
    assert Pairs(old=[1.0, 3.0], new=[2.0, 2.0]).total_ratio == 1.0


def test_statement_seconds_come_from_the_histogram_sums() -> None:
    page = "\n".join(
        [
            "# HELP governance_neo4j_statement_duration_seconds Time to run ...",
            'governance_neo4j_statement_duration_seconds_bucket{le="0.1",statement="a.b"} 3.0',
            'governance_neo4j_statement_duration_seconds_sum{statement="a.b"} 1.5',
            'governance_neo4j_statement_duration_seconds_count{statement="a.b"} 4.0',
            'governance_neo4j_statement_duration_seconds_sum{statement="c.d"} 0.25',
        ]
    )
    totals = statement_totals(page)
    assert totals == {"a.b": 1.5, "c.d": 0.25}
    assert spent({"a.b": 0.5}, totals, 2) == {"a.b": 0.5, "c.d": 0.125}


def test_db_hits_add_up_the_whole_plan() -> None:
    plan: dict[str, Any] = {"dbHits": 2, "children": [{"dbHits": 3}, {"children": [{"dbHits": 5}]}]}
    assert db_hits(plan) == 10
    assert db_hits(None) == 0

"""Deciding created / updated / unchanged for a manifest, without a database."""

import dataclasses
import gzip
from typing import Any

import pytest

from service.domain.dbt_manifest import DbtAsset, DbtColumn, DbtRule
from service.domain.decompress import Corrupt, TooLarge, gunzip
from service.domain.manifest_plan import plan_assets, plan_rules

NOW = "2026-11-21T00:00:00.000Z"


def asset(asset_id: str = "model.p.a", **over: Any) -> DbtAsset:
    made = DbtAsset(
        id=asset_id,
        name="a",
        type="model",
        platform="duckdb",
        description=None,
        owners=(),
        tags=("Daily",),
        columns=(DbtColumn("id", "int", None, ()),),
        properties={"schema": "main"},
    )
    return dataclasses.replace(made, **over)


def test_new_assets_are_created_then_unchanged_then_updated() -> None:
    first = plan_assets([asset()], {}, NOW)
    assert (first.created, first.updated, len(first.rows)) == (1, 0, 1)
    stored = first.rows[0]["props"]
    assert stored["tags"] == ["daily"] and stored["version"] == 1
    again = plan_assets([asset()], {"model.p.a": stored}, NOW)
    assert (again.created, again.updated, again.rows) == (0, 0, [])
    changed = plan_assets(
        [asset(description="new")], {"model.p.a": stored}, "2026-11-22T00:00:00.000Z"
    )
    assert changed.updated == 1 and changed.rows[0]["props"]["version"] == 2
    assert changed.rows[0]["props"]["created_at"] == NOW


def test_placeholders_are_claimed_and_bad_assets_skipped_with_a_warning() -> None:
    placeholder = {
        "id": "model.p.a",
        "name": "model.p.a",
        "type": "unknown",
        "placeholder": True,
        "version": 1,
        "created_at": NOW,
        "updated_at": NOW,
    }
    assert plan_assets([asset()], {"model.p.a": placeholder}, NOW).created == 1
    plan = plan_assets([asset("source.p.has space"), asset(tags=("x" * 65, "ok"))], {}, NOW)
    assert plan.created == 1 and len(plan.warnings) == 2
    assert plan.rows[0]["props"]["tags"] == ["ok"]


def test_rules_keep_their_run_status_and_skip_missing_assets() -> None:
    rule = DbtRule("test.p.nn", "model.p.a", "id", "not_null_a_id", "not_null", {}, "error")
    first = plan_rules([rule], {}, {"model.p.a"}, "dbt:p", NOW)
    stored = {**first.rows[0]["props"], "status": "failing", "last_result": '{"status": "fail"}'}
    again = plan_rules([rule], {"test.p.nn": stored}, {"model.p.a"}, "dbt:p", NOW)
    assert again.rows == [] and again.created == 0
    moved = plan_rules([rule], {}, set(), "dbt:p", NOW)
    assert moved.rows == [] and "not ingested" in moved.warnings[0]


def test_gunzip_refuses_bombs_and_damage() -> None:
    assert gunzip(gzip.compress(b"{}"), 10) == b"{}"
    with pytest.raises(TooLarge):
        gunzip(gzip.compress(b" " * 10_000_000), 1_000_000)
    with pytest.raises(Corrupt):
        gunzip(gzip.compress(b"{}" * 1000)[:20], 10_000)
    with pytest.raises(Corrupt):
        gunzip(b"\x1f\x8bnot gzip at all", 10_000)


def test_batches_are_bounded_by_rows_and_by_bytes() -> None:
    from service.store.manifest import BATCH_BYTES, BATCH_ROWS, batches

    assert [len(b) for b in batches(list(range(12_001)))] == [BATCH_ROWS, BATCH_ROWS, 2_001]
    big = [BATCH_BYTES // 3] * 7
    sizes = [len(b) for b in batches(big, size=lambda n: n)]
    assert sizes == [3, 3, 1]
    assert list(batches([])) == []
    assert [len(b) for b in batches([BATCH_BYTES * 2, 1], size=lambda n: n)] == [1, 1]

"""What a manifest upload does when another asset holds one of its tables: pure
decisions over the holders the store read (service.domain.dbt.identity)."""

from __future__ import annotations

import pytest

from service.domain.datasets import DatasetNameError, normalise
from service.domain.dbt.contents import DbtAsset
from service.domain.dbt.identity import HolderInfo, decide, upload_namespace

NS = "snowflake://acme-prod"


def asset(asset_id: str, type_: str) -> DbtAsset:
    return DbtAsset(asset_id, asset_id, type_, "snowflake", None, (), (), (), {})


def test_a_model_takes_over_placeholders_and_sources_and_conflicts_with_models() -> None:
    assets = {a.id: a for a in (asset("model.p.a", "model"), asset("model.p.b", "model"))}
    refs = {"model.p.a": normalise(NS, "db.s.a"), "model.p.b": normalise(NS, "db.s.b")}
    holders = {
        refs["model.p.a"].key: HolderInfo("snowflake://acme-prod/DB.S.A", True, True),
        refs["model.p.b"].key: HolderInfo("model.other.b", False, False),
    }
    decision = decide(assets, refs, holders, {})
    assert decision.redirects == {}
    assert [(a, h) for a, h, _ in decision.conflicts] == [("model.p.b", "model.other.b")]
    holders[refs["model.p.b"].key] = HolderInfo("source.other.raw.b", False, True)
    assert decide(assets, refs, holders, {}).conflicts == []


def test_a_source_whose_table_another_asset_holds_becomes_its_alias() -> None:
    assets = {"source.p.raw.a": asset("source.p.raw.a", "source")}
    refs = {"source.p.raw.a": normalise(NS, "db.s.a")}
    for holder in (HolderInfo("model.q.a", False, False), HolderInfo("source.q.a", False, True)):
        decision = decide(assets, refs, {refs["source.p.raw.a"].key: holder}, {})
        assert decision.redirects == {"source.p.raw.a": holder.id} and not decision.conflicts
    placeholder = HolderInfo("snowflake://acme-prod/DB.S.A", True, True)
    assert decide(assets, refs, {refs["source.p.raw.a"].key: placeholder}, {}).redirects == {}


def test_within_one_manifest_the_model_keeps_the_table_its_source_names() -> None:
    assets = {a.id: a for a in (asset("source.p.raw.a", "source"), asset("model.p.a", "model"))}
    same = normalise(NS, "db.s.a")
    decision = decide(assets, {"source.p.raw.a": same, "model.p.a": same}, {}, {"x": "y"})
    assert decision.redirects == {"x": "y", "source.p.raw.a": "model.p.a"}


def test_the_upload_namespace_is_given_else_configured_for_the_adapter() -> None:
    configured = (("postgres", "postgres://db"), ("snowflake", "SNOWFLAKE://acme-prod/"))
    assert upload_namespace("postgres://given", "snowflake", configured) == "postgres://given:5432"
    assert upload_namespace(None, "Snowflake", configured) == NS
    assert upload_namespace(None, "duckdb", configured) is None
    with pytest.raises(DatasetNameError):
        upload_namespace(":nothing", None, ())

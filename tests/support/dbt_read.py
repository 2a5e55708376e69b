"""The dbt manifests the reader's tests name (ours by schema, public ones by file name)
and what the reader makes of each, parsed once per session."""

from __future__ import annotations

from functools import cache
from typing import Any

from service.domain.dbt_manifest import DbtAsset, ManifestContents, read_manifest
from tests.support.dbt_fixtures import PARSE_ONLY, SCHEMAS, load, manifest, public, shared_manifest

JAFFLE_V4 = "gen_jaffle_shop_v4_dbt1.0.9_duckdb.json"
JAFFLE_V7 = "gen_jaffle_shop_v7_dbt1.3.8_duckdb.json"
JAFFLE_V12 = "gen_jaffle_shop_v12_dbt1.8.10_duckdb.json"
JAFFLE_NEW = "gen_jaffle_shop_new_v12_dbt1.11.16_duckdb.json"
MATTERMOST = "gen_mattermost_analytics_v12_dbt1.11.16_snowflake.json.gz"
PUBLIC_NAMES = (JAFFLE_V4, JAFFLE_V7, JAFFLE_V12, JAFFLE_NEW, MATTERMOST)
OURS = (*SCHEMAS, PARSE_ONLY)


def fresh(name: str) -> Any:
    """A fresh parse, for tests that change the document."""
    return manifest(name) if name in OURS else load(public(name))


def document(name: str) -> Any:
    return shared_manifest(name) if name in OURS else fresh(name)


@cache
def contents(name: str) -> ManifestContents:
    return read_manifest(document(name))


def assets(name: str) -> dict[str, DbtAsset]:
    return {a.id: a for a in contents(name).assets}


def rule(name: str, rule_id: str) -> Any:
    return next(r for r in contents(name).rules if r.id == rule_id)

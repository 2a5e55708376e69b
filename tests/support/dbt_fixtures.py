"""The dbt artifacts the tests read, and the one switch for the public-project suite.

Our own artifacts live in tests/fixtures/dbt_versions: one small dbt project
(`corner_shop`) built by a dbt-core release of every manifest schema from v4 to v12,
each manifest with the run_results.json of the same build (see the README there).

Manifests of public dbt projects (larger, shaped by other people) may sit beside the
checkout (PUBLIC). Tests that only make sense on them are marked `public_manifests`;
where that folder is missing they are skipped with a plain reason, so a clone on its
own runs everything else.
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

OWN = Path(__file__).resolve().parents[1] / "fixtures" / "dbt_versions"
PUBLIC = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "dbt"

public_manifests = pytest.mark.skipif(
    not PUBLIC.is_dir(),
    reason="../shared/fixtures/dbt is not there: the public-project manifest suite did not run",
)

# Manifest schema -> the dbt-core release that wrote our fixture of it.
RELEASES = {
    "v4": "1.0.9",
    "v5": "1.1.6",
    "v6": "1.2.7",
    "v7": "1.3.8",
    "v8": "1.4.10",
    "v9": "1.5.12",
    "v10": "1.6.19",
    "v11": "1.7.20",
    "v12": "1.11.16",
}
SCHEMAS = tuple(RELEASES)
NEWEST = "v12"
PARSE_ONLY = "v12 parse only"  # the v12 project as `dbt parse` alone writes it

PROJECT = "corner_shop"
LINEAGE_TYPES = frozenset({"model", "seed", "snapshot", "source", "exposure"})


def manifest_path(schema: str) -> Path:
    if schema == PARSE_ONLY:
        return OWN / f"manifest_{NEWEST}_dbt{RELEASES[NEWEST]}_parse_only.json.gz"
    return OWN / f"manifest_{schema}_dbt{RELEASES[schema]}.json.gz"


def run_results_path(schema: str) -> Path:
    return OWN / f"run_results_dbt{RELEASES[schema]}.json.gz"


def json_bytes(path: Path) -> bytes:
    """The JSON text of a fixture, unpacked when the file is gzip-compressed."""
    raw = path.read_bytes()
    return gzip.decompress(raw) if path.name.endswith(".gz") else raw


def load(path: Path) -> Any:
    """A fresh parse, for tests that change the document."""
    return json.loads(json_bytes(path))


def manifest(schema: str) -> dict[str, Any]:
    """A fresh parse of our manifest of `schema` (or PARSE_ONLY)."""
    return dict(load(manifest_path(schema)))


@cache
def shared_manifest(schema: str) -> Any:
    """One parse per session, for tests that only read it."""
    return manifest(schema)


def public(name: str) -> Path:
    return PUBLIC / name


def prefix(uid: str) -> str:
    return uid.split(".", 1)[0]


def lineage_pairs(document: dict[str, Any]) -> set[tuple[str, str]]:
    """The (parent, child) pairs of `parent_map` whose two ends are lineage assets: what
    a manifest says its lineage is, independent of the code under test."""
    return {
        (parent, child)
        for child, parents in document["parent_map"].items()
        for parent in parents
        if prefix(parent) in LINEAGE_TYPES and prefix(child) in LINEAGE_TYPES
    }

"""read_manifest: a parsed dbt manifest.json -> assets, lineage edges and quality rules."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from typing import Any

from service.domain.dbt.access import (
    Warnings,
    fail,
    obj,
    opt_bool,
    opt_obj,
    str_keys,
    text,
)
from service.domain.dbt.assets import (
    NODE_ASSET_TYPES,
    Context,
    build_asset,
    compiled_sql,
    owner_values,
    parents,
    transformation,
)
from service.domain.dbt.column_lineage import SqlNode, read_column_lineage
from service.domain.dbt.contents import (
    ColumnLineage,
    DbtAsset,
    DbtEdge,
    DbtRule,
    Loc,
    ManifestContents,
)
from service.domain.dbt.rules import Catalog, build_rule

OLDEST, NEWEST = 4, 12
SECTIONS = ("nodes", "sources", "exposures")
SQL_TYPES = frozenset({"model", "snapshot", "analysis"})
LINEAGE_TYPES = frozenset({*NODE_ASSET_TYPES, "source", "exposure"})
DEFAULT_PROJECT = "default"
_SCHEMA = re.compile(r"/dbt/([A-Za-z_-]+)/v(\d{1,6})(?:\.json)?/?$")

Entry = tuple[str, str, dict[str, Any], Loc]  # (type, unique_id, node, loc)


def read_manifest(
    document: Any, project: str | None = None, column_lineage: bool = True
) -> ManifestContents:
    """Read a dbt manifest (schema v4 to v12, later ones of the same shape best-effort).

    Assets: every enabled model, seed, snapshot and analysis of `nodes`, every
    source and every exposure. Edges: each `depends_on.nodes` entry of an asset
    that is itself an asset, parent -> child, so edges to and from analyses are
    included (on top of the model/seed/snapshot/source/exposure lineage).
    Rules: every enabled data test attached to an ingested asset.
    Column lineage (unless `column_lineage` is False): derived from the compiled SQL
    of models, snapshots and analyses with sqlglot, about 10-50 ms per such node.

    The project is `project`, else `metadata.project_name` (dbt 1.6+), else the
    package whose MD5 is `metadata.project_id` (dbt sets it so), else the package
    owning most assets, else "default" — each fallback with a warning.

    Raises ManifestError (with `loc`) when the document is not an object, has no
    `nodes` object, declares another dbt artifact, or holds a value of the wrong
    JSON type in a field that is read; free-form owners in `meta`, unknown
    severities, unresolvable tests and unknown versions are warnings. Unknown keys
    are always accepted; the document is never modified.
    """
    root = obj(document, ())
    metadata = opt_obj(root, "metadata", ())
    warnings = Warnings()
    schema_version = _schema_version(metadata, warnings)
    if root.get("nodes") is None:
        fail(("nodes",), "is required: a dbt manifest has a `nodes` object")
    disabled, skipped = _disabled(root)
    entries, index, skipped_now = _entries(root, disabled, warnings)
    name = _project(project, metadata, entries, warnings)
    ctx = Context(
        project=name,
        platform=text(metadata, "adapter_type", ("metadata",)),
        group_owners=_group_owners(root, warnings),
        warnings=warnings,
    )
    asset_entries = [e for e in entries if e[0] in LINEAGE_TYPES]
    assets = tuple(build_asset(kind, uid, node, loc, ctx) for kind, uid, node, loc in asset_entries)
    asset_ids = {asset.id for asset in assets}
    catalog = Catalog(assets=asset_ids, nodes=index, disabled=disabled)
    rules = _rules(entries, catalog, warnings)
    tests = sum(1 for e in entries if e[0] == "test")
    return ManifestContents(
        project=name,
        dbt_version=text(metadata, "dbt_version", ("metadata",)),
        schema_version=schema_version,
        adapter=ctx.platform,
        assets=assets,
        edges=_edges(asset_entries, asset_ids, index, disabled, warnings),
        rules=rules,
        skipped=skipped + skipped_now + tests - len(rules),
        warnings=warnings.result(),
        column_lineage=_column_lineage(asset_entries, assets, ctx.platform)
        if column_lineage
        else ColumnLineage(),
    )


def _schema_version(metadata: dict[str, Any], warnings: Warnings) -> str | None:
    raw = text(metadata, "dbt_schema_version", ("metadata",))
    if raw is None:
        warnings.add("metadata.dbt_schema_version is missing; read best-effort")
        return None
    match = _SCHEMA.search(raw.strip())
    if match is None:
        warnings.add(f"unrecognised metadata.dbt_schema_version {raw[:200]!r}; read best-effort")
        return None
    artifact, number = match.group(1), int(match.group(2))
    if artifact != "manifest":
        fail(("metadata", "dbt_schema_version"), f"names a dbt {artifact} file, not a manifest")
    if not OLDEST <= number <= NEWEST:
        warnings.add(
            f"manifest schema v{number} is outside the known v{OLDEST}-v{NEWEST}; read best-effort"
        )
    return f"v{number}"


def _disabled(root: dict[str, Any]) -> tuple[set[str], int]:
    """Ids in the top-level `disabled` map, and how many node versions it holds."""
    value = root.get("disabled")
    if value is None:
        return set(), 0
    if isinstance(value, list):  # before v4 it was a plain list of nodes
        ids = {
            n["unique_id"]
            for n in value
            if isinstance(n, dict) and isinstance(n.get("unique_id"), str)
        }
        return ids, len(value)
    mapping = obj(value, ("disabled",))
    str_keys(mapping, ("disabled",))
    count = 0
    for uid, versions in mapping.items():
        if not isinstance(versions, list):
            fail(("disabled", uid), "must be a list of nodes")
        count += len(versions)
    return set(mapping), count


def _entries(
    root: dict[str, Any], disabled: set[str], warnings: Warnings
) -> tuple[list[Entry], dict[str, dict[str, Any]], int]:
    """Enabled assets and tests, in document order; the index of every enabled node; the
    number of entries skipped. Ids of disabled entries are added to `disabled`."""
    entries: list[Entry] = []
    index: dict[str, dict[str, Any]] = {}
    skipped = 0
    for section in SECTIONS:
        mapping = opt_obj(root, section, ())
        str_keys(mapping, (section,))
        for uid, value in mapping.items():
            loc: Loc = (section, uid)
            node = obj(value, loc)
            kind = _kind(section, uid, node, loc)
            config = opt_obj(node, "config", loc)
            if opt_bool(config, "enabled", (*loc, "config")) is False:
                disabled.add(uid)
                skipped += 1
            elif uid in index:
                warnings.add(f"{section} > {uid}: the id is used twice; the second one is skipped")
                skipped += 1
            else:
                index[uid] = node
                if kind in LINEAGE_TYPES or kind == "test":
                    entries.append((kind, uid, node, loc))
                else:
                    skipped += 1
    return entries, index, skipped


def _kind(section: str, uid: str, node: dict[str, Any], loc: Loc) -> str:
    if section == "sources":
        return "source"
    if section == "exposures":
        return "exposure"
    kind = text(node, "resource_type", loc) or uid.split(".", 1)[0]
    return kind if kind in NODE_ASSET_TYPES or kind == "test" else f"other:{kind}"


def _project(
    given: str | None, metadata: dict[str, Any], entries: list[Entry], warnings: Warnings
) -> str:
    if given:
        return given
    named = text(metadata, "project_name", ("metadata",))
    if named:
        return named
    packages = Counter(_package(uid, node) for kind, uid, node, _ in entries)
    project_id = text(metadata, "project_id", ("metadata",))
    for package in packages:
        if (
            package
            and project_id == hashlib.md5(package.encode(), usedforsecurity=False).hexdigest()
        ):
            return package
    owning = Counter(_package(u, n) for k, u, n, _ in entries if k in LINEAGE_TYPES)
    owning.pop("", None)
    if owning:
        package = owning.most_common(1)[0][0]
        warnings.add(f"the manifest does not name its project; using {package!r}, the main package")
        return package
    warnings.add(f"the manifest does not name its project; using {DEFAULT_PROJECT!r}")
    return DEFAULT_PROJECT


def _package(uid: str, node: dict[str, Any]) -> str:
    package = node.get("package_name")
    if isinstance(package, str):
        return package
    parts = uid.split(".")
    return parts[1] if len(parts) > 2 else ""


def _group_owners(root: dict[str, Any], warnings: Warnings) -> dict[str, tuple[str, ...]]:
    """Group name -> its owner (dbt 1.5+ `groups`), for the nodes of that group."""
    groups = opt_obj(root, "groups", ())
    str_keys(groups, ("groups",))
    owners: dict[str, tuple[str, ...]] = {}
    for uid, value in groups.items():
        loc: Loc = ("groups", uid)
        group = obj(value, loc)
        name = text(group, "name", loc) or uid.rsplit(".", 1)[-1]
        found = owner_values(group.get("owner"), (*loc, "owner"), warnings)
        owners.setdefault(name, tuple(found))
    return owners


def _edges(
    entries: list[Entry],
    asset_ids: set[str],
    index: dict[str, dict[str, Any]],
    disabled: set[str],
    warnings: Warnings,
) -> tuple[DbtEdge, ...]:
    edges: dict[tuple[str, str], DbtEdge] = {}
    dangling: list[str] = []
    for _, uid, node, loc in entries:
        code = transformation(node, loc)
        for parent in parents(node, loc):
            if parent == uid:
                warnings.add(
                    f"{' > '.join(map(str, loc))} > depends_on: depends on itself; ignored"
                )
            elif parent in asset_ids:
                edges.setdefault((parent, uid), DbtEdge(parent, uid, code))
            elif parent not in index and parent not in disabled and _lineage_id(parent):
                dangling.append(parent)
    if dangling:
        warnings.add(
            f"{len(dangling)} dependencies name nodes missing from the manifest "
            f"(first: {dangling[0][:200]}); no edges were made for them"
        )
    return tuple(edges.values())


def _column_lineage(
    entries: list[Entry], assets: tuple[DbtAsset, ...], adapter: str | None
) -> ColumnLineage:
    """Column edges from the compiled SQL of models, snapshots and analyses, towards the
    ingested assets they depend on."""
    asset_ids = {a.id for a in assets}
    nodes: list[SqlNode] = []
    without_sql = 0
    for kind, uid, node, loc in entries:
        if kind not in SQL_TYPES or uid not in asset_ids:
            continue
        sql = compiled_sql(node, loc)
        if sql is None:
            if kind == "model":
                without_sql += 1
            continue
        deps = tuple(p for p in dict.fromkeys(parents(node, loc)) if p in asset_ids and p != uid)
        nodes.append(SqlNode(uid, sql, deps))
    return read_column_lineage(assets, nodes, adapter, without_sql)


def _lineage_id(uid: str) -> bool:
    return uid.split(".", 1)[0] in LINEAGE_TYPES


def _rules(entries: list[Entry], catalog: Catalog, warnings: Warnings) -> tuple[DbtRule, ...]:
    rules = (
        build_rule(uid, node, loc, catalog, warnings)
        for k, uid, node, loc in entries
        if k == "test"
    )
    return tuple(rule for rule in rules if rule is not None)

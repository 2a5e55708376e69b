"""One dbt data test -> one DbtRule (a quality rule of origin dbt), attached to the asset
it tests."""

from __future__ import annotations

import re
from collections.abc import Container, Mapping
from dataclasses import dataclass
from typing import Any

from service.domain.dbt.access import Warnings, json_copy, opt_obj, opt_str, text
from service.domain.dbt.assets import parents
from service.domain.dbt.contents import DbtRule, Loc

BUILTIN_TESTS = frozenset({"not_null", "unique", "accepted_values", "relationships"})
SEVERITIES = frozenset({"warn", "error"})
_NOT_PARAMS = ("model", "column_name")
_CALL = re.compile(r"\b(ref|source)\s*\(([^()]*)\)")
_VERSION = re.compile(r"""\b(?:v|version)\s*=\s*(['"]?)([\w.-]+)\1""")
_QUOTED = re.compile(r"""(['"])(.*?)\1""")
_MAX_REF_TEXT = 10_000


@dataclass(frozen=True)
class Catalog:
    """What a test is resolved against."""

    assets: Container[str]  # ids of the ingested assets
    nodes: Mapping[str, dict[str, Any]]  # every enabled entry of nodes, sources, exposures
    disabled: Container[str]  # ids in the top-level `disabled` map or with enabled: false


@dataclass(frozen=True)
class Reference:
    """`ref('pkg', 'name', v=2)` or `source('src', 'table')` as written in test kwargs."""

    kind: str
    args: tuple[str, ...]
    version: str | None

    def names(self, node: dict[str, Any]) -> bool:
        name = node.get("name")
        if self.kind == "source":
            return self.args == (node.get("source_name"), name)
        if not self.args or self.args[-1] != name:
            return False
        if len(self.args) > 1 and node.get("package_name") != self.args[0]:
            return False
        return self.version is None or str(node.get("version")) == self.version


def parse_reference(value: Any) -> Reference | None:
    if not isinstance(value, str) or len(value) > _MAX_REF_TEXT:
        return None
    call = _CALL.search(value)
    if call is None:
        return None
    version = _VERSION.search(call.group(2))
    positional = _VERSION.sub("", call.group(2))
    args = tuple(quoted[1] for quoted in _QUOTED.findall(positional))
    return Reference(call.group(1), args, version.group(2) if version else None)


def build_rule(
    uid: str, node: dict[str, Any], loc: Loc, catalog: Catalog, warnings: Warnings
) -> DbtRule | None:
    """The rule, or None (with a warning) when the tested asset is unknown or not ingested."""
    meta = opt_obj(node, "test_metadata", loc)
    mloc = (*loc, "test_metadata")
    kwargs = opt_obj(meta, "kwargs", mloc)
    test_name = text(meta, "name", mloc)
    namespace = text(meta, "namespace", mloc)
    deps = list(dict.fromkeys(parents(node, loc)))
    target = _tested_asset(node, loc, test_name, kwargs, deps, catalog)
    if target is None:
        warnings.add(f"test {uid}: cannot tell which asset it tests; skipped")
        return None
    if target not in catalog.assets:
        warnings.add(
            f"test {uid}: tests {target}, which is {_why_absent(target, catalog)}; skipped"
        )
        return None
    name = text(node, "name", loc) or uid
    builtin = test_name in BUILTIN_TESTS and namespace in (None, "dbt")
    params = _params(kwargs, (*mloc, "kwargs"), name, test_name, namespace, builtin)
    if test_name == "relationships":
        to = _find(parse_reference(kwargs.get("to")), deps, catalog)
        if to is not None and to in catalog.assets:
            params["to_asset_id"] = to
    ingested = [d for d in deps if d in catalog.assets]
    if not builtin and len(ingested) > 1:
        params["depends_on"] = ingested
    column = text(node, "column_name", loc) or _kwarg_column(kwargs)
    return DbtRule(
        id=uid,
        asset_id=target,
        column=column,
        name=name,
        type=test_name if builtin and test_name else "custom",
        params=params,
        severity=_severity(uid, node, loc, warnings),
    )


def _tested_asset(
    node: dict[str, Any],
    loc: Loc,
    test_name: str | None,
    kwargs: dict[str, Any],
    deps: list[str],
    catalog: Catalog,
) -> str | None:
    """`attached_node` (dbt 1.5+); else the dependency the `model` kwarg names, leaving out a
    relationships test's `to`; else the first ingested dependency (singular tests)."""
    attached = text(node, "attached_node", loc)
    if attached:
        return attached
    candidates = deps
    if test_name == "relationships":
        to = parse_reference(kwargs.get("to"))
        rest = [d for d in deps if not _names(to, d, catalog)]
        candidates = rest or deps  # a self-referencing relationship keeps its one table
    model = parse_reference(kwargs.get("model"))
    named = [d for d in candidates if _names(model, d, catalog)]
    if len(named) == 1:
        return named[0]
    ingested = [d for d in candidates if d in catalog.assets]
    pick = ingested or candidates
    return pick[0] if pick else None


def _names(ref: Reference | None, uid: str, catalog: Catalog) -> bool:
    node = catalog.nodes.get(uid)
    return ref is not None and node is not None and ref.names(node)


def _find(ref: Reference | None, deps: list[str], catalog: Catalog) -> str | None:
    return next((d for d in deps if _names(ref, d, catalog)), None)


def _why_absent(target: str, catalog: Catalog) -> str:
    if target in catalog.disabled:
        return "disabled"
    if target in catalog.nodes:
        return f"a {target.split('.', 1)[0]}, not an ingested asset"
    return "not in the manifest"


def _params(
    kwargs: dict[str, Any],
    loc: Loc,
    name: str,
    test_name: str | None,
    namespace: str | None,
    builtin: bool,
) -> dict[str, Any]:
    """The test's arguments minus `model` and `column_name`; custom tests also get
    `test_name` (`namespace.name` for package tests, the node name for singular ones)."""
    params: dict[str, Any] = json_copy(
        {k: v for k, v in kwargs.items() if k not in _NOT_PARAMS}, loc
    )
    if not builtin:
        generic = f"{namespace}.{test_name}" if namespace and test_name else test_name
        params["test_name"] = generic or name
    return params


def _kwarg_column(kwargs: dict[str, Any]) -> str | None:
    column = kwargs.get("column_name")
    return column if isinstance(column, str) and column.strip() else None


def _severity(uid: str, node: dict[str, Any], loc: Loc, warnings: Warnings) -> str:
    config = opt_obj(node, "config", loc)
    raw = opt_str(config, "severity", (*loc, "config"))
    if raw is None:
        return "error"
    severity = raw.strip().lower()
    if severity not in SEVERITIES:
        warnings.add(f"test {uid}: unknown severity {raw[:40]!r}, read as 'error'")
        return "error"
    return severity

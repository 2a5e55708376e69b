"""read_manifest on hand-made manifests: owners, disabled nodes, versions, projects, errors,
and random damage to real manifests written by dbt (only ManifestError or a sound result
may come out)."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from service.domain.dbt_manifest import ManifestContents, ManifestError, read_manifest
from tests.support import dbt_fixtures as fixtures

SCHEMA = "https://schemas.getdbt.com/dbt/manifest/v{}.json"


def model(name: str, *deps: str, **fields: Any) -> dict[str, Any]:
    return {
        "unique_id": f"model.shop.{name}",
        "resource_type": "model",
        "name": name,
        "package_name": "shop",
        "depends_on": {"nodes": list(deps), "macros": []},
        "config": {"enabled": True, "materialized": "view"},
        "raw_code": f"select 1 as {name}",
        **fields,
    }


def data_test(name: str, attached: str | None, *deps: str, **fields: Any) -> dict[str, Any]:
    return {
        "unique_id": f"test.shop.{name}",
        "resource_type": "test",
        "name": name,
        "package_name": "shop",
        "attached_node": attached,
        "depends_on": {"nodes": list(deps)},
        "config": {"severity": "ERROR"},
        **fields,
    }


def manifest(*nodes: dict[str, Any], version: int = 12, **top: Any) -> dict[str, Any]:
    return {
        "metadata": {
            "dbt_schema_version": SCHEMA.format(version),
            "dbt_version": "1.11.0",
            "project_name": "shop",
            "adapter_type": "postgres",
        },
        "nodes": {n["unique_id"]: n for n in nodes},
        **top,
    }


def read(doc: Any, **kwargs: Any) -> ManifestContents:
    return read_manifest(doc, **kwargs)


# ---- owners, groups, tags ---------------------------------------------------------------


def test_owners_come_from_meta_config_meta_and_the_group() -> None:
    doc = manifest(
        model(
            "a", meta={"owner": "ann@x.io"}, config={"meta": {"owner": ["bob@x.io", "ann@x.io"]}}
        ),
        model("b", meta={"owner": {"name": "Team B", "email": None}}),
        model("c", group="finance"),
        model("d", config={"group": "finance", "meta": {"owner": 42}}),
        groups={"group.shop.finance": {"name": "finance", "owner": {"email": "fin@x.io"}}},
    )
    got = {a.name: a.owners for a in read(doc).assets}
    assert got == {
        "a": ("ann@x.io", "bob@x.io"),
        "b": ("Team B",),
        "c": ("fin@x.io",),
        "d": ("fin@x.io",),
    }
    assert read(doc).warnings == (
        "nodes > model.shop.d > config > meta > owner: "
        "an owner must be a string, a list or an object; ignored",
    )


def test_tags_of_node_and_config_are_merged_in_order() -> None:
    doc = manifest(model("a", tags=["pii", "Daily"], config={"tags": ["daily", "pii", "x"]}))
    assert read(doc).assets[0].tags == ("pii", "Daily", "daily", "x")


def test_columns_carry_name_type_description_and_tags() -> None:
    columns = {
        "id": {"name": "id", "data_type": "bigint", "description": "key", "tags": ["pk"]},
        "Email": {"data_type": None, "description": "", "config": {"tags": ["pii"]}},
    }
    (asset,) = read(manifest(model("a", columns=columns))).assets
    assert [(c.name, c.type, c.description, c.tags) for c in asset.columns] == [
        ("id", "bigint", "key", ("pk",)),
        ("Email", None, None, ("pii",)),
    ]


def test_versioned_models_keep_their_version() -> None:
    doc = manifest(model("dim", unique_id="model.shop.dim.v2", version=2))
    (asset,) = read(doc).assets
    assert (asset.id, asset.name, asset.properties["version"]) == ("model.shop.dim.v2", "dim", 2)


# ---- what is skipped ---------------------------------------------------------------------


def test_disabled_nodes_and_their_tests_are_skipped_with_a_warning() -> None:
    off = model("off", config={"enabled": False})
    doc = manifest(
        model("a"),
        off,
        model("b", "model.shop.a", "model.shop.off", "model.shop.gone"),
        data_test("t_on_off", "model.shop.off", "model.shop.off"),
        data_test("t_on_old", "model.shop.old", "model.shop.old"),
        {"unique_id": "operation.shop.hook", "resource_type": "operation", "name": "hook"},
        disabled={"model.shop.old": [model("old"), model("old")]},
    )
    got = read(doc)
    assert [a.id for a in got.assets] == ["model.shop.a", "model.shop.b"]
    assert [(e.source, e.target) for e in got.edges] == [("model.shop.a", "model.shop.b")]
    assert got.rules == ()
    assert got.skipped == 1 + 2 + 2 + 1  # enabled:false, 2 disabled versions, 2 tests, operation
    assert got.warnings == (
        "test test.shop.t_on_off: tests model.shop.off, which is disabled; skipped",
        "test test.shop.t_on_old: tests model.shop.old, which is disabled; skipped",
        "1 dependencies name nodes missing from the manifest (first: model.shop.gone); "
        "no edges were made for them",
    )


def test_edges_through_tests_metrics_and_operations_are_not_lineage() -> None:
    doc = manifest(
        model("a"),
        model("b", "model.shop.a", "metric.shop.m", "test.shop.t", "model.shop.a"),
        data_test("t", "model.shop.a", "model.shop.a"),
        exposures={
            "exposure.shop.dash": {
                "name": "dash",
                "depends_on": {"nodes": ["model.shop.b", "metric.shop.m"]},
                "owner": {"email": "ceo@x.io", "name": "CEO"},
                "type": "dashboard",
            }
        },
        metrics={"metric.shop.m": {"depends_on": {"nodes": ["model.shop.a"]}}},
    )
    got = read(doc)
    assert [(e.source, e.target, e.transformation) for e in got.edges] == [
        ("model.shop.a", "model.shop.b", "select 1 as b"),
        ("model.shop.b", "exposure.shop.dash", None),
    ]
    assert got.warnings == ()
    assert got.assets[-1].owners == ("ceo@x.io",)


def test_compiled_code_wins_over_raw_and_blank_code_counts_as_none() -> None:
    doc = manifest(
        model("a"),
        model("b", "model.shop.a", compiled_code="select 1", raw_code="{{ x }}"),
        model("c", "model.shop.a", compiled_code="", raw_code="  "),
        model("d", "model.shop.a", compiled_sql="select 2", raw_code=None, raw_sql="{{ y }}"),
    )
    assert [e.transformation for e in read(doc).edges] == ["select 1", None, "select 2"]


def test_self_dependencies_are_dropped_with_a_warning() -> None:
    got = read(manifest(model("a", "model.shop.a")))
    assert got.edges == ()
    assert got.warnings == ("nodes > model.shop.a > depends_on: depends on itself; ignored",)


# ---- tests -> rules -----------------------------------------------------------------------


def generic(
    name: str,
    kwargs: dict[str, Any],
    *deps: str,
    namespace: str | None = None,
    uid: str | None = None,
) -> dict[str, Any]:
    node = data_test(uid or name, None, *deps)
    node["test_metadata"] = {"name": name, "kwargs": kwargs, "namespace": namespace}
    return node


def test_tests_without_attached_node_are_resolved_from_their_model_kwarg() -> None:
    where = "{{ get_where_subquery(%s) }}"
    doc = manifest(
        model("orders"),
        model("customers"),
        model("employees"),
        model("dim", unique_id="model.shop.dim.v1", version=1),
        model("dim", unique_id="model.shop.dim.v2", version=2),
        generic(
            "relationships",
            {"to": "ref('customers')", "field": "id", "column_name": "customer_id",
             "model": where % "ref('orders')"},
            "model.shop.customers", "model.shop.orders",
            uid="fk",
        ),
        generic(
            "not_null",
            {"column_name": "id", "model": where % "ref('shop', 'customers')"},
            "model.shop.orders", "model.shop.customers",
        ),
        generic(
            "relationships",
            {"to": "ref('employees')", "field": "id", "column_name": "manager_id",
             "model": where % "ref('employees')"},
            "model.shop.employees",
            uid="self_fk",
        ),
        generic(
            "unique",
            {"column_name": "id", "model": where % "ref('dim', v=2)"},
            "model.shop.dim.v1", "model.shop.dim.v2",
        ),
        generic(
            "accepted_values",
            {"values": ["a"], "column_name": "kind", "model": where % "source('raw', 't')"},
            "model.shop.orders", "source.shop.raw.t",
        ),
        sources={"source.shop.raw.t": {"name": "t", "source_name": "raw"}},
    )  # fmt: skip
    rules = {r.id: r for r in read(doc).rules}
    assert rules["test.shop.fk"].asset_id == "model.shop.orders"
    assert rules["test.shop.fk"].params["to_asset_id"] == "model.shop.customers"
    assert rules["test.shop.self_fk"].asset_id == "model.shop.employees"
    assert rules["test.shop.self_fk"].params["to_asset_id"] == "model.shop.employees"
    assert rules["test.shop.not_null"].asset_id == "model.shop.customers"
    assert rules["test.shop.not_null"].column == "id"
    assert rules["test.shop.unique"].asset_id == "model.shop.dim.v2"
    assert rules["test.shop.accepted_values"].asset_id == "source.shop.raw.t"


def test_relationship_to_resolves_the_child_when_kwargs_name_no_model() -> None:
    doc = manifest(
        model("orders"),
        model("customers"),
        generic(
            "relationships",
            {"to": "ref('customers')", "field": "id", "column_name": "customer_id"},
            "model.shop.customers", "model.shop.orders",
        ),
    )  # fmt: skip
    (rule,) = read(doc).rules
    assert rule.asset_id == "model.shop.orders"


def test_package_tests_named_like_builtins_are_custom() -> None:
    doc = manifest(
        model("a"),
        generic("unique", {"column_name": "x"}, "model.shop.a", namespace="my_pkg"),
        generic("accepted_range", {"min_value": 0, "column_name": "x"}, "model.shop.a", namespace="dbt_utils"),
    )  # fmt: skip
    assert [(r.type, r.params) for r in read(doc).rules] == [
        ("custom", {"test_name": "my_pkg.unique"}),
        ("custom", {"min_value": 0, "test_name": "dbt_utils.accepted_range"}),
    ]


@pytest.mark.parametrize(
    ("raw", "severity", "warned"),
    [("ERROR", "error", False), ("warn", "warn", False), (" Warn ", "warn", False),
     (None, "error", False), ("fatal", "error", True)],
)  # fmt: skip
def test_severity(raw: str | None, severity: str, warned: bool) -> None:
    node = data_test("t", "model.shop.a", "model.shop.a", config={"severity": raw})
    got = read(manifest(model("a"), node))
    assert got.rules[0].severity == severity
    assert bool(got.warnings) is warned


def test_column_comes_from_the_node_or_the_kwargs() -> None:
    a = generic("not_null", {"column_name": "x"}, "model.shop.a")
    b = generic("unique", {"column_name": "y"}, "model.shop.a") | {"column_name": None}
    c = generic("accepted_values", {"column_name": "z", "values": [1]}, "model.shop.a")
    c["column_name"] = "lower(z)"
    assert [r.column for r in read(manifest(model("a"), a, b, c)).rules] == ["x", "y", "lower(z)"]


# ---- versions and project names ----------------------------------------------------------


def test_newer_and_older_schema_versions_are_read_with_a_warning() -> None:
    for version in (3, 13):
        got = read(manifest(model("a"), version=version))
        assert got.schema_version == f"v{version}"
        assert len(got.assets) == 1
        assert got.warnings == (
            f"manifest schema v{version} is outside the known v4-v12; read best-effort",
        )


def test_missing_or_odd_schema_version_is_a_warning() -> None:
    doc = manifest(model("a"))
    del doc["metadata"]["dbt_schema_version"]
    assert read(doc).schema_version is None
    assert read(doc).warnings == ("metadata.dbt_schema_version is missing; read best-effort",)
    doc["metadata"]["dbt_schema_version"] = "manifest twelve"
    assert read(doc).schema_version is None
    assert "unrecognised" in read(doc).warnings[0]


def test_another_dbt_artifact_is_refused() -> None:
    doc = manifest(model("a"))
    doc["metadata"]["dbt_schema_version"] = "https://schemas.getdbt.com/dbt/catalog/v1.json"
    with pytest.raises(ManifestError) as caught:
        read(doc)
    assert caught.value.loc == ("metadata", "dbt_schema_version")
    assert "catalog" in caught.value.msg


def test_project_falls_back_to_the_main_package_then_to_default() -> None:
    doc = manifest(model("a"), model("b"), model("c", unique_id="model.dep.c", package_name="dep"))
    del doc["metadata"]["project_name"]
    got = read(doc)
    assert got.project == "shop"
    assert got.warnings == (
        "the manifest does not name its project; using 'shop', the main package",
    )
    # dbt writes md5(project name) as project_id: it picks the root even when outnumbered
    doc["metadata"]["project_id"] = hashlib.md5(b"dep", usedforsecurity=False).hexdigest()
    assert (read(doc).project, read(doc).warnings) == ("dep", ())
    doc["metadata"]["project_id"] = hashlib.md5(b"", usedforsecurity=False).hexdigest()
    assert read(doc).project == "shop"
    assert read({"nodes": {}}).project == "default"
    assert read({"nodes": {}}, project="mine").project == "mine"


def test_an_empty_manifest_is_valid() -> None:
    got = read(manifest())
    assert (got.assets, got.edges, got.rules, got.skipped) == ((), (), (), 0)


# ---- errors ---------------------------------------------------------------------------


def broken(path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    doc = manifest(
        model("a", columns={"id": {"name": "id"}}),
        model("b", "model.shop.a"),
        data_test("t", "model.shop.a", "model.shop.a", test_metadata={"name": "x", "kwargs": {}}),
        sources={"source.shop.raw.t": {"name": "t", "source_name": "raw"}},
        disabled={},
    )
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


A = ("nodes", "model.shop.a")
T = ("nodes", "test.shop.t")
ERRORS = [
    (("metadata",), [], ("metadata",)),
    (("metadata", "adapter_type"), 3, ("metadata", "adapter_type")),
    (("metadata", "project_name"), ["shop"], ("metadata", "project_name")),
    (("nodes",), [], ("nodes",)),
    (("nodes",), "{}", ("nodes",)),
    ((*A,), "model", A),
    ((*A, "depends_on"), ["model.shop.x"], (*A, "depends_on")),
    ((*A, "depends_on", "nodes"), "model.shop.x", (*A, "depends_on", "nodes")),
    ((*A, "depends_on", "nodes"), [None], (*A, "depends_on", "nodes", 0)),
    ((*A, "tags"), "pii", (*A, "tags")),
    ((*A, "tags"), ["ok", 1], (*A, "tags", 1)),
    ((*A, "columns"), [{"name": "id"}], (*A, "columns")),
    ((*A, "columns", "id"), "id", (*A, "columns", "id")),
    ((*A, "columns", "id", "data_type"), 5, (*A, "columns", "id", "data_type")),
    ((*A, "config"), "view", (*A, "config")),
    ((*A, "config", "enabled"), "no", (*A, "config", "enabled")),
    ((*A, "config", "materialized"), {"x": 1}, (*A, "config", "materialized")),
    ((*A, "meta"), "owner", (*A, "meta")),
    ((*A, "name"), 7, (*A, "name")),
    ((*A, "description"), False, (*A, "description")),
    ((*A, "raw_code"), ["select"], (*A, "raw_code")),
    ((*A, "resource_type"), None, None),  # falls back to the unique_id prefix
    ((*T, "test_metadata"), "x", (*T, "test_metadata")),
    ((*T, "test_metadata", "kwargs"), [], (*T, "test_metadata", "kwargs")),
    ((*T, "test_metadata", "kwargs"), {"v": float("nan")}, (*T, "test_metadata", "kwargs", "v")),
    ((*T, "test_metadata", "kwargs"), {"v": [{"w": {1, 2}}]}, (*T, "test_metadata", "kwargs", "v", 0, "w")),
    ((*T, "config", "severity"), 2, (*T, "config", "severity")),
    ((*T, "attached_node"), ["model.shop.a"], (*T, "attached_node")),
    (("sources",), [], ("sources",)),
    (("sources", "source.shop.raw.t"), None, ("sources", "source.shop.raw.t")),
    (("sources", "source.shop.raw.t", "source_name"), 1, ("sources", "source.shop.raw.t", "source_name")),
    (("exposures",), "x", ("exposures",)),
    (("disabled",), "x", ("disabled",)),
    (("disabled",), {"model.shop.z": {}}, ("disabled", "model.shop.z")),
    (("groups",), {"group.shop.g": "g"}, ("groups", "group.shop.g")),
]  # fmt: skip


@pytest.mark.parametrize(("path", "value", "loc"), ERRORS)
def test_wrong_shapes_are_manifest_errors_with_their_location(
    path: tuple[str | int, ...], value: Any, loc: tuple[str | int, ...] | None
) -> None:
    doc = broken(path, value)
    if loc is None:
        read(doc)
        return
    with pytest.raises(ManifestError) as caught:
        read(doc)
    assert caught.value.loc == loc
    assert str(caught.value).startswith(" > ".join(map(str, loc)) + ": ")
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    "doc", [None, [], "manifest", 3, True, {}, {"nodes": None}, {"metadata": {}}]
)
def test_what_is_not_a_manifest(doc: Any) -> None:
    with pytest.raises(ManifestError) as caught:
        read(doc)
    assert caught.value.loc in ((), ("nodes",))


def test_deeply_nested_test_arguments_do_not_overflow_the_stack() -> None:
    deep: Any = "bottom"
    for _ in range(5_000):
        deep = [deep]
    node = data_test(
        "t", "model.shop.a", "model.shop.a", test_metadata={"name": "x", "kwargs": {"v": deep}}
    )
    # Too deep to be stored as JSON text (orjson writes 254 levels): refused, not a 500.
    with pytest.raises(ManifestError, match="nested deeper than 200 levels") as caught:
        read(manifest(model("a"), node))
    assert caught.value.loc == ("nodes", "test.shop.t", "test_metadata", "kwargs")
    shallow: Any = "bottom"
    for _ in range(150):
        shallow = [shallow]
    node["test_metadata"]["kwargs"]["v"] = shallow
    (rule,) = read(manifest(model("a"), node)).rules
    assert rule.params["v"] == shallow and rule.params["v"] is not shallow


@pytest.mark.parametrize(
    ("owner", "owners", "warned"),
    [
        (None, (), False),
        (1, (), True),
        (2.5, (), True),
        (True, (), True),
        ([], (), False),
        ([[["x"]]], (), False),
        ([1, "a@x.io"], ("a@x.io",), True),
        ({}, (), False),
        ({"email": 3, "name": "N"}, ("N",), False),
        ({"email": "e@x.io"}, ("e@x.io",), False),
        ("plain", ("plain",), False),
    ],
)
def test_free_form_owners_of_any_shape_are_never_fatal(
    owner: Any, owners: tuple[str, ...], warned: bool
) -> None:
    """What can be read as an owner is kept; a value of the wrong kind is left out with a
    warning naming where it was; nothing stops the upload."""
    got = read(manifest(model("a", meta={"owner": owner})))
    assert [a.owners for a in got.assets] == [owners]
    assert any("meta > owner" in w for w in got.warnings) is warned


# ---- random damage ---------------------------------------------------------------------

SECTIONS = {"nodes": 8, "sources": 3, "metadata": 1, "exposures": 1, "disabled": 1, "groups": 1}
WORDS = ["", " ", "x", "ERROR", "warn", "model.corner_shop.orders", "source.corner_shop.ext.stores",
         "test.corner_shop.x", "ref('orders')", "source('ext', 'stores')", "relationships",
         "https://schemas.getdbt.com/dbt/manifest/v99.json", "https://schemas.getdbt.com/dbt/catalog/v1.json"]  # fmt: skip
KEYS = [
    "name",
    "nodes",
    "owner",
    "email",
    "tags",
    "enabled",
    "config",
    "meta",
    "kwargs",
    "to",
    "model",
]


def random_json(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(9 if depth < 3 else 7)
    if pick == 0:
        return None
    if pick == 1:
        return rng.random() < 0.5
    if pick == 2:
        return rng.randint(-3, 3)
    if pick == 3:
        return rng.uniform(-1e3, 1e3)
    if pick in (4, 5, 6):
        return rng.choice(WORDS)
    if pick == 7:
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(KEYS): random_json(rng, depth + 1) for _ in range(rng.randrange(4))}


def damage(doc: dict[str, Any], rng: random.Random) -> Iterator[None]:
    """Replace (or delete) one value on a random path; restore it afterwards.

    Paths go mostly into entries of nodes and sources (at least down to a field),
    sometimes stop at a section or an entry as a whole."""
    keys = [k for k in SECTIONS if k in doc] or list(doc)
    if not keys:
        yield
        return
    container: Any = doc
    key: Any = rng.choices(keys, [SECTIONS.get(k, 1) for k in keys])[0]
    depth, least = 0, rng.choice([0, 1, 2, 2, 2, 2])
    while isinstance(child := container[key], dict | list) and child:
        if depth >= least and rng.random() < 0.4:
            break
        container, depth = child, depth + 1
        key = rng.choice(list(child)) if isinstance(child, dict) else rng.randrange(len(child))
    old = container[key]
    if isinstance(container, dict) and rng.random() < 0.15:
        del container[key]
    else:
        container[key] = random_json(rng)
    yield
    container[key] = old


def check_location(doc: Any, loc: tuple[str | int, ...]) -> None:
    """Every step of the loc but the last exists: the error points into the document."""
    assert all(isinstance(part, str | int) for part in loc)
    target = doc
    for part in loc[:-1]:
        target = target[part]


def check_sound(got: ManifestContents) -> None:
    ids = {a.id for a in got.assets}
    assert len(ids) == len(got.assets)
    assert all(e.source in ids and e.target in ids and e.source != e.target for e in got.edges)
    assert len({(e.source, e.target) for e in got.edges}) == len(got.edges)
    assert all(r.asset_id in ids and r.severity in ("warn", "error") for r in got.rules)
    assert all(isinstance(o, str) and o for a in got.assets for o in a.owners)
    assert all(isinstance(t, str) for a in got.assets for t in a.tags)
    json.dumps([r.params for r in got.rules], allow_nan=False)
    assert got.skipped >= 0 and isinstance(got.project, str) and got.project


@pytest.mark.parametrize(
    ("schema", "seed"), [(fixtures.NEWEST, s) for s in range(4)] + [("v4", s) for s in range(2)]
)
def test_random_damage_gives_manifest_error_or_a_sound_result(schema: str, seed: int) -> None:
    doc = fixtures.manifest(schema)
    pristine = copy.deepcopy(doc)
    rng = random.Random(seed)
    outcomes = {"ok": 0, "error": 0}
    for _ in range(1000):
        edits = [damage(doc, rng) for _ in range(rng.randint(1, 3))]
        for edit in edits:
            next(edit)
        try:
            got = read_manifest(doc)
        except ManifestError as exc:
            outcomes["error"] += 1
            check_location(doc, exc.loc)
        else:
            outcomes["ok"] += 1
            check_sound(got)
        for edit in reversed(edits):
            next(edit, None)
    assert doc == pristine
    assert outcomes["ok"] > 200 and outcomes["error"] > 200, outcomes


def test_any_field_of_any_kind_of_entry_may_be_damaged() -> None:
    """Every kind of entry a real manifest holds, each field of two of each kind."""
    doc = fixtures.manifest(fixtures.NEWEST)
    rng = random.Random(7)
    kinds: dict[str, list[tuple[str, str]]] = {}
    for section in ("nodes", "sources", "exposures"):
        for uid, node in doc[section].items():
            kinds.setdefault(node["resource_type"], []).append((section, uid))
    assert set(kinds) == {
        "model", "seed", "snapshot", "analysis", "operation", "test", "source", "exposure"
    }  # fmt: skip
    reads = 0
    for entries in kinds.values():
        for section, uid in rng.sample(entries, min(2, len(entries))):
            node = doc[section][uid]
            for key in list(node):
                old = node[key]
                node[key] = random_json(rng)
                try:
                    check_sound(read_manifest(doc))
                except ManifestError as exc:
                    check_location(doc, exc.loc)
                node[key] = old
                reads += 1
    assert reads > 300

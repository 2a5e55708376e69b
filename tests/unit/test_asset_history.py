"""What a version says it changed, from two snapshots (no database)."""

from __future__ import annotations

from typing import Any

import orjson

from service.domain.asset_history import changes, versions


def snapshot(version: int = 1, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "asset_id": "orders",
        "version": version,
        "at": f"2026-01-0{version}T00:00:00.000Z",
        "actor": "token:tok_1",
        "deleted": False,
        "name": "orders",
        "type": "table",
        "placeholder": False,
        "owners": [],
        "tags": [],
    }
    columns = fields.pop("columns", None)
    if columns is not None:
        base["columns_json"] = orjson.dumps(columns).decode()
    return {**base, **fields}


def as_tuples(found: list[Any]) -> list[tuple[Any, ...]]:
    return [(c.field, c.column, c.change, c.from_, c.to) for c in found]


def test_the_first_version_sets_every_field_with_a_value_from_null() -> None:
    first = snapshot(owners=["ana"], platform="postgres", columns=[{"name": "id", "type": "int"}])
    assert as_tuples(changes(None, first)) == [
        ("placeholder", None, "set", None, False),
        ("name", None, "set", None, "orders"),
        ("type", None, "set", None, "table"),
        ("platform", None, "set", None, "postgres"),
        ("owners", None, "set", None, ["ana"]),
        ("columns", "id", "added", None, {"name": "id", "type": "int"}),
    ]


def test_an_unchanged_snapshot_has_no_changes_and_empty_lists_equal_none() -> None:
    before = snapshot(columns=[{"name": "id", "type": "int"}])
    after = {**snapshot(2, columns=[{"name": "id", "type": "int"}]), "owners": None}
    assert changes(before, after) == []


def test_fields_properties_and_the_dataset_name_their_old_and_new_values() -> None:
    old: dict[str, Any] = {"prop.tier": "gold", "prop.rows": 3, "description": "old"}
    before = snapshot(**old)
    after = snapshot(
        2,
        **{
            "prop.tier": "silver",
            "prop.certified": True,
            "dataset_key": "pg\norders",
            "dataset_namespace": "pg",
            "dataset_name": "orders",
        },
    )
    assert as_tuples(changes(before, after)) == [
        ("description", None, "set", "old", None),
        ("dataset", None, "set", None, {"namespace": "pg", "name": "orders"}),
        ("properties.certified", None, "set", None, True),
        ("properties.tier", None, "set", "gold", "silver"),
        ("properties.rows", None, "set", 3, None),
    ]


def test_columns_are_added_removed_retyped_or_changed_by_name() -> None:
    before = snapshot(
        columns=[
            {"name": "id", "type": "int"},
            {"name": "amount", "type": "numeric"},
            {"name": "note", "type": "text"},
        ]
    )
    after = snapshot(
        2,
        columns=[
            {"name": "placed_at", "type": "timestamp"},
            {"name": "id", "type": "bigint", "description": "key"},
            {"name": "note", "type": "text", "tags": ["pii"]},
        ],
    )
    assert [(c.column, c.change) for c in changes(before, after)] == [
        ("placed_at", "added"),
        ("id", "retyped"),
        ("note", "changed"),
        ("amount", "removed"),
    ]
    retyped = changes(before, after)[1]
    assert (retyped.from_["type"], retyped.to["type"]) == ("int", "bigint")


def test_a_deletion_reads_as_deleted_set_and_names_the_merge() -> None:
    live = snapshot(columns=[{"name": "id", "type": "int"}])
    gone = {**live, "version": 2, "deleted": True, "merged_into": "warehouse.orders"}
    assert as_tuples(changes(live, gone)) == [
        ("deleted", None, "set", False, True),
        ("merged_into", None, "set", None, "warehouse.orders"),
    ]


def test_versions_compare_each_with_the_next_older_and_the_last_with_nothing() -> None:
    page = [snapshot(3, name="c"), snapshot(2, name="b"), snapshot(1, name="a")]
    found = versions(page)
    assert [v.version for v in found] == [3, 2, 1]
    assert [(c.from_, c.to) for c in found[0].changes] == [("b", "c")]
    assert [(c.from_, c.to) for c in found[1].changes] == [("a", "b")]
    assert ("name", None, "set", None, "a") in as_tuples(found[2].changes)
    assert found[0].actor == "token:tok_1" and found[0].at == "2026-01-03T00:00:00.000Z"


def test_a_change_renders_from_and_to_under_their_own_names() -> None:
    (change,) = changes(snapshot(), snapshot(2, name="b"))
    assert change.model_dump(mode="json", by_alias=True) == {
        "field": "name",
        "column": None,
        "change": "set",
        "from": "orders",
        "to": "b",
    }

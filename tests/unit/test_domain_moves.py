"""Where a write would put an asset, and what a domain's new rules would take, as pure
rules: who may move an asset into a domain, who may take one from another, and what
the refusal names."""

from __future__ import annotations

from service.domain.access.domain_checks import (
    Held,
    Placed,
    claims,
    claims_forbidden,
    moved_into,
    refused,
)
from service.domain.access.principal import Principal
from service.domain.access.scopes import Scope
from service.domain.assets import patched, placing
from service.domain.domains import Rule, compile_rules
from service.models.assets import Asset

RULES = {
    "finance": [Rule("namespace", "fin."), Rule("tag", "finance")],
    "sales": [Rule("tag", "sales")],
    "work": [Rule("asset", "ops.jobs"), Rule("tag", "ops")],
}


def caller(role: str, **domain_roles: str) -> Principal:
    return Principal("tok_1", "t", Scope.ADMIN, "usr_1", role, domain_roles)


def test_a_move_is_refused_only_into_a_domain_where_the_caller_may_not_write() -> None:
    editor = caller("viewer", sales="editor")
    assert moved_into(editor, "a", Placed("sales"), ("sales",)) == []
    assert moved_into(editor, "a", Placed("work"), ("sales",)) == [("a", "work")]
    assert moved_into(editor, "a", Placed("finance", True), ("sales",)) == [("a", None)]
    assert moved_into(editor, "a", Placed(None), ("sales",)) == [("a", None)]
    # A write that does not move the asset is not refused for where it stays.
    assert moved_into(editor, "a", Placed("work"), ("work", "work")) == []
    assert moved_into(caller("editor"), "a", Placed(None), ("sales",)) == []
    assert moved_into(caller("admin"), "a", Placed("finance", True)) == []


def test_a_new_asset_placed_in_a_private_domain_is_refused_without_its_name() -> None:
    editor = caller("viewer", sales="editor")
    new = {"x": Placed("finance", True), "y": Placed("work")}
    assert refused(editor, ["x", "y"], [], {}, new) == [("x", None), ("y", "work")]


def test_the_placing_fields_of_a_patch_are_the_merged_ones() -> None:
    asset = Asset(
        id="a",
        name="a",
        type="table",
        tags=["sales"],
        properties={"dbt_project": "shop", "k": 1},
        created_at="2026-01-01T00:00:00Z",
        updated_at="2026-01-01T00:00:00Z",
        version=3,
    )
    assert placing("a", patched(asset, {"description": "d"})) == {
        "id": "a",
        "tags": ["sales"],
        "prop.dbt_project": "shop",
    }
    after = patched(asset, {"id": "a", "tags": ["ops"], "properties": {"dbt_project": None}})
    assert placing("a", after) == {"id": "a", "tags": ["ops"], "prop.dbt_project": None}


def _held(asset_id: str, domain: str | None, *tags: str, private: bool = False) -> Held:
    return Held({"id": asset_id, "tags": list(tags)}, Placed(domain, private))


def test_new_rules_may_not_take_assets_from_where_the_caller_is_not_admin() -> None:
    mine = [Rule("tag", "sales"), Rule("asset", "ops.jobs"), Rule("tag", "ops"), Rule("tag", "x")]
    proposed = compile_rules({**RULES, "sales": mine})
    assets = [
        _held("ops.jobs", "work", "ops"),  # the asset rule takes it (asset outranks tag)
        _held("ops.t", "work", "ops"),  # the tie of two tag rules goes to sales
        _held("fin.a", "finance", "ops", private=True),  # finance's namespace outranks
        _held("s.1", "sales", "sales"),  # already in sales
        _held("raw", None, "x"),  # outside every domain
    ]
    sam = caller("viewer", sales="admin")
    taken = claims(sam, "sales", mine, proposed, assets)
    assert {i: [h.node["id"] for h in hs] for i, hs in taken.items()} == {
        1: ["ops.jobs"],
        2: ["ops.t"],
        3: ["raw"],
    }
    both = caller("editor", sales="admin", work="admin")
    assert claims(both, "sales", mine, proposed, assets) == {}
    assert claims(caller("admin"), "sales", mine, proposed, assets) == {}
    editor_there = caller("viewer", sales="admin", work="editor")
    assert set(claims(editor_there, "sales", mine, proposed, assets)) == {1, 2, 3}


def test_a_refused_rule_names_its_field_and_hides_a_private_domain() -> None:
    mine = [Rule("asset", "fin.a"), Rule("asset", "ops.jobs")]
    proposed = compile_rules({**RULES, "sales": mine})
    assets = [_held("fin.a", "finance", private=True), _held("ops.jobs", "work")]
    sam = caller("viewer", sales="admin")
    error = claims_forbidden(sam, claims(sam, "sales", mine, proposed, assets))
    assert (error.status, error.code) == (403, "domain_forbidden")
    assert [e.loc for e in (error.errors or [])] == [("body", "rules", 0), ("body", "rules", 1)]
    assert "finance" not in str(error.errors) and "fin.a" not in str(error.extra)
    assert "the domain work" in (error.errors or [])[1].msg
    assert error.extra["assets"] == [
        {"id": "ops.jobs", "domain": "work"},
        {"id": "redacted:1", "domain": None},
    ]
    assert error.extra["assets_count"] == 2

"""Which domain an asset belongs to: rule kinds in precedence order, ties by domain id."""

from __future__ import annotations

from service.domain.domains import DomainRules, Rule, compile_rules, domain_for, placement


def rules(**by_domain: list[tuple[str, str]]) -> DomainRules:
    return compile_rules({d: [Rule(k, v) for k, v in rs] for d, rs in by_domain.items()})


def test_no_domain_places_no_asset() -> None:
    assert domain_for({"id": "a", "tags": ["x"]}, DomainRules()) is None
    assert placement({"id": "a"}, DomainRules()) == {}


def test_each_rule_kind_places_an_asset() -> None:
    r = rules(
        sales=[("asset", "warehouse.orders")],
        finance=[("dbt_project", "ledger")],
        ops=[("namespace", "postgres://ops/")],
        people=[("tag", "PII")],
    )
    assert domain_for({"id": "warehouse.orders"}, r) == "sales"
    assert domain_for({"id": "m", "prop.dbt_project": "ledger"}, r) == "finance"
    assert domain_for({"id": "postgres://ops/db.t"}, r) == "ops"
    assert domain_for({"id": "x", "tags": ["pii"]}, r) == "people"
    assert domain_for({"id": "x", "tags": ["other"], "prop.dbt_project": "else"}, r) is None


def test_an_explicit_rule_beats_a_project_which_beats_a_namespace_which_beats_a_tag() -> None:
    asset = {"id": "ns/orders", "tags": ["gold"], "prop.dbt_project": "shop"}
    by_tag = [("tag", "gold")]
    by_namespace = [("namespace", "ns/")]
    by_project = [("dbt_project", "shop")]
    by_id = [("asset", "ns/orders")]
    # Domain ids sort against the precedence, so only the kind can decide.
    assert domain_for(asset, rules(a=by_tag, b=by_namespace, c=by_project, d=by_id)) == "d"
    assert domain_for(asset, rules(a=by_tag, b=by_namespace, c=by_project)) == "c"
    assert domain_for(asset, rules(a=by_tag, b=by_namespace)) == "b"
    assert domain_for(asset, rules(a=by_tag)) == "a"


def test_within_one_kind_the_first_domain_id_wins() -> None:
    asset = {"id": "ns/deep/orders", "tags": ["b-tag", "a-tag"]}
    assert (
        domain_for(asset, rules(zeta=[("namespace", "ns/deep/")], alpha=[("namespace", "ns/")]))
        == "alpha"
    )
    assert domain_for(asset, rules(zeta=[("tag", "a-tag")], beta=[("tag", "b-tag")])) == "beta"
    assert domain_for({"id": "x"}, rules(m=[("asset", "x")], k=[("asset", "x")])) == "k"


def test_a_private_domain_marks_its_assets() -> None:
    r = compile_rules({"hr": [Rule("tag", "hr")], "ops": [Rule("tag", "ops")]}, private=["hr"])
    assert placement({"id": "a", "tags": ["hr"]}, r) == {"domain": "hr", "domain_private": True}
    assert placement({"id": "a", "tags": ["ops"]}, r) == {"domain": "ops"}


def test_a_namespace_rule_is_a_prefix_of_the_id_not_a_substring() -> None:
    r = rules(ops=[("namespace", "ops.")])
    assert domain_for({"id": "ops.table"}, r) == "ops"
    assert domain_for({"id": "warehouse.ops.table"}, r) is None

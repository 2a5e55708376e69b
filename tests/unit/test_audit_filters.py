"""Who sees the audit trail: type filters for readers below admin and for webhooks."""

from __future__ import annotations

from service.domain.event_types import AUDIT_TYPES, EVENT_TYPES, TypeFilter, parse_patterns


def _filter(*patterns: str) -> TypeFilter:
    types, problem = parse_patterns(list(patterns))
    assert problem is None
    return types


def test_audit_types_are_event_types_under_one_prefix() -> None:
    assert set(AUDIT_TYPES) <= set(EVENT_TYPES)
    assert all(t.startswith("audit.") for t in AUDIT_TYPES)
    assert _filter("audit.*").matches("audit.user.created")


def test_a_reader_below_admin_never_matches_an_audit_type_whatever_it_asks() -> None:
    for patterns in ((), ("*",), ("audit.*",), ("audit.user.created",)):
        hidden = _filter(*patterns).without_audit()
        assert not hidden.matches("audit.user.created")
    assert _filter("*").without_audit().matches("asset.created")


def test_a_webhook_gets_the_audit_trail_only_by_naming_it() -> None:
    assert not _filter("*").audit_opt_in().matches("audit.token.created")
    assert _filter("*").audit_opt_in().matches("token.created")
    assert _filter("audit.*").audit_opt_in().matches("audit.token.created")
    assert _filter("audit.token.*").audit_opt_in().matches("audit.token.revoked")
    assert _filter("asset.*", "audit.query.cypher").audit_opt_in().matches("audit.query.cypher")


def test_every_readers_view_is_one_map_with_the_same_keys() -> None:
    # One map whatever it holds: Neo4j plans a statement once per parameter types.
    admin = TypeFilter().view()
    patterns, _ = parse_patterns(["asset.*"])
    reader = patterns.for_reader(admin=False, user_id="u1").within(("d",))
    assert admin == {
        "any_type": True,
        "types": [],
        "prefixes": [],
        "hidden": [],
        "owned": [],
        "reader": None,
        "readable": None,
    }
    assert reader.view().keys() == admin.keys()
    assert reader.view()["prefixes"] == ["asset."] and reader.view()["readable"] == ["d"]

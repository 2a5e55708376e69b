"""Events about private assets as pure rules: what each event type names as its subject,
who sees an event placed in private domains, and mentioned assets as stand-ins."""

from __future__ import annotations

from typing import Any

import pytest

from service.domain.event_privacy import Subjects, redact_mentions, shows, subjects_of
from service.domain.event_types import TypeFilter


@pytest.mark.parametrize(
    ("event_type", "data", "expected"),
    [
        ("asset.created", {"id": "a", "name": "A"}, Subjects(assets=("a",))),
        ("asset.deleted", {"id": "a"}, Subjects(assets=("a",))),
        ("asset.merged", {"from": "a", "into": "b"}, Subjects(assets=("a", "b"))),
        ("lineage.edge.created", {"source": "a", "target": "b"}, Subjects(assets=("a", "b"))),
        ("lineage.edge.deleted", {"source": "a", "target": "a"}, Subjects(assets=("a",))),
        ("column.tag.lost", {"asset_id": "a", "tag": "pii"}, Subjects(assets=("a",))),
        ("quality.rule.created", {"id": "r", "asset_id": "a"}, Subjects(assets=("a",))),
        ("quality.result.recorded", {"rule_id": "r", "result": {}}, Subjects(rule="r")),
        (
            "quality.rule.failed",
            {"rule_id": "r", "asset_id": "a", "impact": {"downstream_ids": ["b", "c"]}},
            Subjects(assets=("a",), mentions=("b", "c")),
        ),
        ("quality.rule.recovered", {"asset_id": "a", "impact": None}, Subjects(assets=("a",))),
        (
            "policy.violation.opened",
            {"policy_id": "p", "asset_id": "a", "path": ["x", "a"]},
            Subjects(assets=("a",), mentions=("x", "a")),
        ),
        ("domain.updated", {"id": "finance", "private": True}, Subjects(domain="finance")),
        ("domain.deleted", {"id": "finance"}, Subjects(domain="finance")),
        (
            "domain.membership.changed",
            {"domain": "finance", "added": 1, "removed": 0},
            Subjects(domain="finance"),
        ),
        ("team.updated", {"id": "fin", "members": ["u"]}, Subjects()),
        ("lineage.bulk.ingested", {"received": 3, "created": 2}, Subjects()),
        ("asset.created", ["not", "a", "mapping"], Subjects()),
        ("lineage.edge.created", {"source": 7, "target": None}, Subjects()),
    ],
)
def test_each_event_type_names_its_subjects(event_type: str, data: Any, expected: Subjects) -> None:
    assert subjects_of(event_type, data) == expected


def test_a_reader_sees_an_event_only_with_a_role_in_every_private_domain_it_sits_in() -> None:
    assert shows(("finance",), ())
    assert shows(("finance",), ("finance",))
    assert not shows(("sales",), ("finance",))
    assert not shows(("finance",), ("finance", "hr"))  # an edge from hr into finance
    assert not shows((), ("finance",))
    assert shows(None, ("finance", "hr"))  # a global admin


def test_mentioned_assets_the_reader_may_not_read_become_numbered_stand_ins() -> None:
    data: dict[str, Any] = {
        "asset_id": "a",
        "impact": {"downstream_ids": ["b", "s1", "c", "s2"], "n": 4},
    }
    hidden = {"s1": "finance", "s2": "hr", "c": "sales"}
    shown = redact_mentions("quality.rule.failed", data, hidden, ("sales",))
    assert shown["impact"] == {"downstream_ids": ["b", "redacted:1", "c", "redacted:2"], "n": 4}
    assert data["impact"]["downstream_ids"] == ["b", "s1", "c", "s2"]  # the event is shared
    path = {"asset_id": "a", "path": ["s1", "x", "s1", "a"]}
    assert redact_mentions("policy.violation.opened", path, hidden, ())["path"] == [
        "redacted:1",
        "x",
        "redacted:1",
        "a",
    ]


def test_nothing_is_rewritten_for_a_reader_who_may_read_every_mention() -> None:
    data = {"asset_id": "a", "path": ["s1", "a"]}
    assert redact_mentions("policy.violation.opened", data, {"s1": "finance"}, None) is data
    assert redact_mentions("policy.violation.opened", data, {"s1": "finance"}, ("finance",)) is data
    assert redact_mentions("policy.violation.opened", data, {}, ()) is data


def test_a_type_filter_carries_the_readers_private_domains() -> None:
    base = TypeFilter().for_reader(False, "usr_1")
    assert base.readable is None
    narrowed = base.within(("finance",))
    assert narrowed.readable == ("finance",) and narrowed.hidden == base.hidden

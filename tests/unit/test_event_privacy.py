"""Events about private assets as pure rules: what each event type names as its subject,
who sees an event placed in private domains, and mentioned assets as stand-ins."""

from __future__ import annotations

from typing import Any

import pytest

from service.domain.event_privacy import (
    Subjects,
    hidden_owners,
    redact_mentions,
    shows,
    subjects_of,
)
from service.domain.event_types import TypeFilter
from service.domain.finding_privacy import WITHHELD, concealed, redact_finding


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
        (
            "policy.violation.opened",
            {"asset_id": "a", "path": ["x#c", "a#d"], "path_assets": ["x", "a"]},
            Subjects(assets=("a",), mentions=("x", "a")),
        ),
        (
            "column.tag.inherited",
            {"asset_id": "a", "columns": [{"column": "c", "from": {"asset": "x", "column": "d"}}]},
            Subjects(assets=("a",), mentions=("x",)),
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
    # readable ids first in their order, stand-ins after: no hidden id's sort place shows
    assert shown["impact"] == {"downstream_ids": ["b", "c", "redacted:1", "redacted:2"], "n": 4}
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


def test_owners_of_hidden_downstream_assets_only_are_kept_apart() -> None:
    places: list[list[str | None]] = [
        ["ann", None],
        ["bob", "finance"],
        ["ann", "finance"],
        ["cy", "hr"],
        ["cy", "sales"],
    ]
    assert hidden_owners(places) == [("bob", "finance"), ("cy", "hr"), ("cy", "sales")]
    data = {"asset_id": "a", "impact": {"downstream_ids": [], "owners": ["ann", "bob", "cy"]}}
    owners = {"bob": ("finance",), "cy": ("hr", "sales")}
    shown = redact_mentions("quality.rule.failed", data, {}, ("sales",), owners)
    assert shown["impact"]["owners"] == ["ann", "cy"]  # cy owns a readable sales asset
    assert redact_mentions("quality.rule.failed", data, {}, (), owners)["impact"]["owners"] == [
        "ann"
    ]
    assert redact_mentions("quality.rule.failed", data, {}, None, owners) is data


def test_a_tag_inherited_from_a_hidden_column_names_stand_ins() -> None:
    data = {
        "asset_id": "a",
        "tag": "pii",
        "columns": [
            {"column": "c1", "from": {"asset": "s", "column": "email"}},
            {"column": "c2", "from": {"asset": "v", "column": "x"}},
            {"column": "c3", "from": {"asset": "s", "column": "phone"}},
        ],
    }
    shown = redact_mentions("column.tag.inherited", data, {"s": "finance"}, ())
    assert [c["from"] for c in shown["columns"]] == [
        {"asset": "redacted:1", "column": "redacted:1"},
        {"asset": "v", "column": "x"},
        {"asset": "redacted:1", "column": "redacted:2"},
    ]
    assert [c["column"] for c in shown["columns"]] == ["c1", "c2", "c3"]


def test_a_findings_hidden_far_end_leaves_its_path_and_reason() -> None:
    data = {
        "asset_id": "a",
        "reason": "column c receives pii over 2 mapping(s), none of them masking, from s#email",
        "path": ["s#email", "m#email", "a#c"],
        "path_assets": ["s", "m", "a"],
        "far_end": "s#email",
    }
    shown = redact_mentions("policy.violation.opened", data, {"s": "finance"}, ())
    assert shown["path"] == ["redacted:1#redacted:1", "m#email", "a#c"]
    assert shown["path_assets"] == ["redacted:1", "m", "a"]
    assert shown["far_end"] == "redacted:1#redacted:1"
    assert shown["reason"] == (
        "column c receives pii over 2 mapping(s), none of them masking, from redacted:1#redacted:1"
    )
    # a hidden step in the middle: the reason names only the far end, and stays
    middle = redact_mentions("policy.violation.opened", data, {"m": "finance"}, ())
    assert middle["reason"] == data["reason"] and middle["path"][1] == "redacted:1#redacted:1"


def test_a_finding_written_before_its_far_end_was_kept_withholds_its_reason() -> None:
    data = {"asset_id": "a", "reason": "flows into s within 1 hop(s)", "path": ["a", "s"]}
    shown = redact_finding(data, {"s"})
    assert shown["path"] == ["a", "redacted:1"]
    assert shown["reason"] == WITHHELD
    assert concealed([["s", "finance"], ["t", "hr"]], ("hr",)) == {"s"}
    assert concealed([["s", "finance"]], None) == set()

"""Reconciling an evaluation with stored violations: the diff is the alerts."""

from __future__ import annotations

from service.domain.policies import Finding, reconcile, triggers_evaluation


def test_new_findings_open_and_missing_ones_resolve() -> None:
    stored = {
        "a": {"reason": "has no owner", "path": None, "opened_at": "2026-01-01T00:00:00.000Z"},
        "b": {"reason": "has no owner", "path": None, "opened_at": "2026-01-01T00:00:00.000Z"},
    }
    found = [Finding("b", "has no owner"), Finding("c", "has no owner")]
    diff = reconcile(stored, found, "2026-02-01T00:00:00.000Z")
    assert [f.asset_id for f in diff.opened] == ["c"]
    assert [f.asset_id for f in diff.resolved] == ["a"]
    assert [(f.asset_id, at) for f, at in diff.open] == [
        ("b", "2026-01-01T00:00:00.000Z"),
        ("c", "2026-02-01T00:00:00.000Z"),
    ]
    assert [f.asset_id for f, _ in diff.to_write] == ["c"]  # b is stored as it is


def test_a_new_reason_or_path_for_the_same_asset_is_not_an_alert() -> None:
    stored = {"d": {"reason": "lacks tag pii", "path": ["a", "d"], "opened_at": "t0"}}
    found = [Finding("d", "lacks tag pii", ("b", "c", "d"))]
    diff = reconcile(stored, found, "t1")
    assert diff.opened == [] and diff.resolved == []
    assert diff.open == [(Finding("d", "lacks tag pii", ("b", "c", "d")), "t0")]
    assert diff.to_write == diff.open  # rewritten in place, first seen time kept


def test_an_asset_found_twice_counts_once() -> None:
    diff = reconcile({}, [Finding("x", "r1"), Finding("x", "r2")], "t")
    assert [f.reason for f in diff.opened] == ["r1"]


def test_a_resolved_violation_keeps_its_path_for_the_event() -> None:
    stored = {"d": {"reason": "flows into p", "path": ["s", "d"], "opened_at": "t0"}}
    resolved = reconcile(stored, [], "t1").resolved[0]
    assert resolved.as_event("pol_1") == {
        "policy_id": "pol_1",
        "asset_id": "d",
        "reason": "flows into p",
        "path": ["s", "d"],
    }


def test_only_changes_that_can_alter_an_outcome_trigger_evaluation() -> None:
    for event_type in ("asset.updated", "lineage.bulk.ingested", "quality.rule.deleted"):
        assert triggers_evaluation(event_type)
    for event_type in (
        "policy.violation.opened",
        "quality.result.recorded",
        "quality.rule.failed",
        "token.created",
        "policy.deleted",
    ):
        assert not triggers_evaluation(event_type)


def test_a_record_keeps_its_hidden_path_assets_apart_from_the_finding() -> None:
    record = {
        "asset_id": "d",
        "reason": "flows within 1 hop(s) into s",
        "path": ["d", "s"],
        "path_assets": ["d", "s"],
        "far_end": "s",
        "hidden_ids": ["s"],
        "hidden_in": ["finance"],
        "opened_at": "t0",
    }
    stored = Finding.from_record(record)
    assert stored.hidden == (("s", "finance"),)
    # the same finding, found again without them: nothing to rewrite
    again = Finding("d", "flows within 1 hop(s) into s", ("d", "s"), ("d", "s"), "s")
    assert reconcile({"d": record}, [again], "t1").to_write == []
    # a record from before `path_assets` is rewritten once, silently
    old = {k: record[k] for k in ("reason", "path", "opened_at")}
    diff = reconcile({"d": old}, [again], "t1")
    assert diff.to_write == [(again, "t0")] and diff.opened == []
    resolved = reconcile({"d": record}, [], "t1").resolved[0]
    assert resolved.hidden == (("s", "finance"),)
    assert "hidden" not in str(resolved.as_event("pol_1"))

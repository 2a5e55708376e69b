"""Pure quality-rule semantics: params per type, and when a result is an alert."""

from __future__ import annotations

import pytest

from service.domain.quality import outcome, params_problems


@pytest.mark.parametrize(
    ("rule_type", "params", "loc"),
    [
        ("accepted_values", {}, ("values",)),
        ("accepted_values", {"values": "a"}, ("values",)),
        ("relationships", {"to": ""}, ("to",)),
        ("range", {}, ("min",)),
        ("range", {"min": True}, ("min",)),
        ("range", {"min": 2, "max": 1}, ("max",)),
        ("row_count", {"max": "10"}, ("max",)),
        ("freshness", {"max_age_hours": -1}, ("max_age_hours",)),
        ("freshness", {"max_age_hours": False}, ("max_age_hours",)),
    ],
)
def test_params_that_do_not_fit_the_type_are_named(
    rule_type: str, params: dict[str, object], loc: tuple[str, ...]
) -> None:
    assert [p[0] for p in params_problems(rule_type, params)] == [loc]


@pytest.mark.parametrize(
    ("rule_type", "params"),
    [
        ("not_null", {}),
        ("unique", {"anything": [1]}),
        ("custom", {"sql": "select 1"}),
        ("accepted_values", {"values": ["a", "b"]}),
        ("relationships", {"to": "ref('customers')", "field": "id"}),
        ("range", {"min": 0}),
        ("range", {"min": 0, "max": 0.5}),
        ("row_count", {"max": 10}),
        ("freshness", {"max_age_hours": 24}),
    ],
)
def test_params_that_fit(rule_type: str, params: dict[str, object]) -> None:
    assert params_problems(rule_type, params) == []


def _walk(statuses: list[str], enabled: bool = True) -> list[str | None]:
    alerting, alerts = False, []
    for status in statuses:
        change = outcome(status, enabled=enabled, alerting=alerting)
        alerting = change.alerting
        alerts.append(change.alert)
    return alerts


def test_a_failure_and_its_recovery_are_announced_once_each() -> None:
    assert _walk(["pass", "fail", "fail", "pass", "pass"]) == [
        None,
        "failed",
        None,
        "recovered",
        None,
    ]


def test_an_error_neither_announces_nor_forgets_a_failure() -> None:
    assert _walk(["fail", "error", "fail", "error", "pass"]) == [
        "failed",
        None,
        None,
        None,
        "recovered",
    ]
    assert _walk(["error", "pass"]) == [None, None]


def test_a_disabled_rule_is_silent_and_keeps_its_alert_state() -> None:
    assert _walk(["fail", "pass"], enabled=False) == [None, None]
    change = outcome("fail", enabled=False, alerting=False)
    assert change.status == "failing" and change.alerting is False

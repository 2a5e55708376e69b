"""Quality rule semantics that need no database: what each rule type's params must
hold, what status a result gives, and when a change of status is an alert."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

STATUS_OF_RESULT = {"pass": "passing", "fail": "failing", "error": "error"}
ALERT_STATUS = {"failed": "failing", "recovered": "passing"}
Problem = tuple[tuple[str, ...], str]


def params_problems(rule_type: str, params: dict[str, Any]) -> list[Problem]:
    """(loc inside `params`, message) for each problem; empty when the params fit the type.

    Types whose check lives outside the service (not_null, unique, custom) take any
    object; the others must carry what a runner needs to evaluate them.
    """
    if rule_type == "accepted_values":
        values = params.get("values")
        if not isinstance(values, list) or not values:
            return [(("values",), "accepted_values needs a non-empty list `values`")]
    elif rule_type == "relationships":
        if not isinstance(params.get("to"), str) or not params["to"]:
            return [(("to",), "relationships needs `to`: the referenced asset or relation")]
    elif rule_type in ("range", "row_count"):
        return _bounds_problems(rule_type, params)
    elif rule_type == "freshness":
        age = params.get("max_age_hours")
        if not (isinstance(age, int | float) and not isinstance(age, bool) and age > 0):
            return [(("max_age_hours",), "freshness needs `max_age_hours`, a positive number")]
    return []


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _bounds_problems(rule_type: str, params: dict[str, Any]) -> list[Problem]:
    low, high = params.get("min"), params.get("max")
    problems: list[Problem] = [
        ((key,), f"`{key}` must be a number")
        for key, value in (("min", low), ("max", high))
        if value is not None and not _number(value)
    ]
    if problems:
        return problems
    if low is None and high is None:
        return [(("min",), f"{rule_type} needs `min`, `max` or both")]
    if low is not None and high is not None and low > high:
        return [(("max",), "`max` is below `min`")]
    return []


@dataclass(frozen=True)
class Outcome:
    """What recording one result does to its rule."""

    status: str
    alerting: bool
    alert: str | None  # "failed", "recovered" or None


def outcome(result_status: str, *, enabled: bool, alerting: bool) -> Outcome:
    """An alert fires on entering failure and on the first pass after it, once each.

    `alerting` remembers that a failure was announced, so fail → error → fail does
    not announce twice and fail → error → pass still announces the recovery. A
    disabled rule keeps its history and status but raises no alerts.
    """
    status = STATUS_OF_RESULT[result_status]
    if not enabled:
        return Outcome(status, alerting, None)
    if status == "failing" and not alerting:
        return Outcome(status, True, "failed")
    if status == "passing" and alerting:
        return Outcome(status, False, "recovered")
    return Outcome(status, alerting, None)

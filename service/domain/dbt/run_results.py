"""A dbt `run_results.json` (schema v4 and later) read into test outcomes.

Only data tests (`test.` unique ids) say anything about quality rules; results for
models, seeds, snapshots and unit tests are counted and set aside. dbt's `warn`
means the test found failing rows under severity warn, so it is a failure here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from service import clock
from service.domain.dbt.access import fail, kind, obj, opt_obj, opt_str, text
from service.domain.dbt.contents import Loc

_SCHEMA = re.compile(r"/run-results/v(\d+)\.json$")
MIN_SCHEMA = 4
RESULT_OF_STATUS = {"pass": "pass", "success": "pass", "fail": "fail", "warn": "fail"}
ERROR_STATUSES = frozenset({"error", "runtime error"})
SKIPPED_STATUSES = frozenset({"skipped", "skip", "no-op"})


@dataclass(frozen=True)
class TestOutcome:
    unique_id: str
    status: str  # pass, fail or error
    failures: int | None
    message: str | None
    run_at: str


@dataclass
class RunResults:
    invocation_id: str | None
    received: int = 0
    skipped: int = 0
    ignored: int = 0
    tests: list[TestOutcome] = field(default_factory=list)


def read_run_results(document: Any) -> RunResults:
    """Every wrong shape raises ManifestError with the loc of the offending field."""
    root = obj(document, ())
    metadata = opt_obj(root, "metadata", ())
    _check_schema(metadata)
    generated_at = _time(metadata, "generated_at", ("metadata",)) or clock.now_iso()
    results = root.get("results")
    if not isinstance(results, list):
        fail(("results",), f"must be a list, not {kind(results)}")
    read = RunResults(invocation_id=text(metadata, "invocation_id", ("metadata",)))
    read.received = len(results)
    for index, item in enumerate(results):
        loc: Loc = ("results", index)
        entry = obj(item, loc)
        unique_id = text(entry, "unique_id", loc)
        status = opt_str(entry, "status", loc)
        if unique_id is None:
            fail((*loc, "unique_id"), "is required")
        if status is None:
            fail((*loc, "status"), "is required")
        if not unique_id.startswith("test."):
            read.ignored += 1
            continue
        outcome = _status(status.lower(), (*loc, "status"))
        if outcome is None:
            read.skipped += 1
            continue
        read.tests.append(
            TestOutcome(
                unique_id=unique_id,
                status=outcome,
                failures=_failures(entry, loc),
                message=opt_str(entry, "message", loc),
                run_at=_completed_at(entry, loc) or generated_at,
            )
        )
    return read


def _check_schema(metadata: dict[str, Any]) -> None:
    version = opt_str(metadata, "dbt_schema_version", ("metadata",))
    match = _SCHEMA.search(version or "")
    if match is None:
        fail(
            ("metadata", "dbt_schema_version"),
            "must name a dbt run-results schema (https://schemas.getdbt.com/dbt/run-results/vN.json)",
        )
    if int(match.group(1)) < MIN_SCHEMA:
        fail(
            ("metadata", "dbt_schema_version"),
            f"run-results v{match.group(1)} is older than v{MIN_SCHEMA} (dbt 1.0); "
            "re-run the tests with dbt 1.0 or later",
        )


def _status(status: str, loc: Loc) -> str | None:
    if status in RESULT_OF_STATUS:
        return RESULT_OF_STATUS[status]
    if status in ERROR_STATUSES:
        return "error"
    if status in SKIPPED_STATUSES:
        return None
    fail(loc, f"unknown test status {status!r}")


def _failures(entry: dict[str, Any], loc: Loc) -> int | None:
    value = entry.get("failures")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        fail((*loc, "failures"), f"must be an integer or null, not {kind(value)}")
    return value


def _completed_at(entry: dict[str, Any], loc: Loc) -> str | None:
    """When the test finished executing: the `execute` timing, else the last one."""
    timing = entry.get("timing")
    if timing is None:
        return None
    if not isinstance(timing, list):
        fail((*loc, "timing"), f"must be a list, not {kind(timing)}")
    moments = {}
    for i, step in enumerate(timing):
        step_loc = (*loc, "timing", i)
        step = obj(step, step_loc)
        moments[text(step, "name", step_loc)] = _time(step, "completed_at", step_loc)
    return moments.get("execute") or next((m for m in reversed(list(moments.values())) if m), None)


def _time(parent: dict[str, Any], key: str, loc: Loc) -> str | None:
    value = text(parent, key, loc)
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        fail((*loc, key), f"is not an ISO 8601 time: {value[:64]!r}")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=clock.now().tzinfo)
    try:
        return clock.format_time(moment)
    except OverflowError:  # e.g. 0001-01-01T00:00:00+01:00 is before year 1 in UTC
        fail((*loc, key), f"is outside the years 1 to 9999 in UTC: {value[:64]!r}")

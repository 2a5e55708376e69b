"""A `restricted_column_flow` violation stored before findings kept `path_assets` and
`far_end` names its steps as `asset#column` text only, which cannot be redacted step by
step, so readers without a role in a private domain on its path read it as stored. The
start-up migration `column_flow_findings` evaluates such policies again: the findings
take the current shape, an outsider then reads stand-ins, an admin the whole path, and
nothing is announced as opened or resolved."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import neo4j

from service.app import create_app
from service.graph import Graph
from service.settings import Settings
from service.store import finding_shape
from tests.support.graphs import on_a_graph
from tests.support.server import LiveServer
from tests.support.start_up import await_start_up_backfills
from tests.support.vault_ledger import (
    PRIVATE,
    Readers,
    readers,
    tagged,
    unleaked,
)

__all__ = ["readers", "tagged"]  # fixtures, used by name

# What a version that did not keep a finding's assets and far end left.
OLD_SHAPE = (
    "MATCH (v:Violation {policy_id: $id}) REMOVE v.path_assets, v.far_end, v.hidden_ids, "
    "v.hidden_in"
)


def column_flow_policy(admin: httpx.Client) -> str:
    """A `restricted_column_flow` policy over the public assets, evaluated: its one
    finding runs from the private ledger's tagged column into `open.stage`."""
    kind = "restricted_column_flow"
    policy = {"name": kind, "kind": kind, "selector": {"tags": ["public"]}}
    made = admin.post("/policies", json={**policy, "params": {"tag": "pii"}})
    assert made.status_code == 201, made.text
    assert admin.post("/policies/evaluate").status_code == 200
    return str(made.json()["id"])


def reshape_twice(make_settings: Callable[..., Settings]) -> tuple[int, int]:
    settings = make_settings()
    depth, timeout_s = settings.limits.max_lineage_depth, settings.policies.timeout_s

    async def twice(graph: Graph) -> tuple[int, int]:
        first = await finding_shape.reshape(graph, depth, timeout_s)
        return first, await finding_shape.reshape(graph, depth, timeout_s)

    return on_a_graph(settings, twice)


def violations(client: httpx.Client, policy_id: str) -> httpx.Response:
    answer = client.get(f"/policies/{policy_id}/violations")
    assert answer.status_code == 200, answer.text
    return answer


def alerts(client: httpx.Client) -> list[dict[str, Any]]:
    params: dict[str, str | int] = {"after": 0, "limit": 500, "types": "policy.violation.*"}
    answer = client.get("/events", params=params)
    assert answer.status_code == 200, answer.text
    return list(answer.json()["items"])


def test_old_column_flow_findings_take_the_shape_that_is_redacted(
    admin: httpx.Client,
    readers: Readers,
    tagged: None,
    driver: neo4j.Driver,
    make_settings: Callable[..., Settings],
) -> None:
    await_start_up_backfills(driver)
    policy_id = column_flow_policy(admin)
    whole = violations(admin, policy_id).json()["violations"]
    announced = alerts(admin)
    driver.execute_query(OLD_SHAPE, id=policy_id)
    (old,) = violations(readers.outsider, policy_id).json()["violations"]
    assert old["path_assets"] is None
    assert PRIVATE in old["reason"]  # the leak old findings had

    assert reshape_twice(make_settings) == (1, 0)
    (shown,) = unleaked(violations(readers.outsider, policy_id))["violations"]
    assert shown["path"] == ["redacted:1#redacted:1", "open.stage#email"]
    assert shown["path_assets"] == ["redacted:1", "open.stage"]
    assert shown["opened_at"] == whole[0]["opened_at"]
    assert violations(admin, policy_id).json()["violations"] == whole
    assert alerts(admin) == announced  # rewritten silently: nothing opened or resolved


def test_a_start_reshapes_old_findings_once_and_marks_it_done(
    admin: httpx.Client,
    readers: Readers,
    tagged: None,
    driver: neo4j.Driver,
    make_settings: Callable[..., Settings],
) -> None:
    await_start_up_backfills(driver)
    policy_id = column_flow_policy(admin)
    driver.execute_query(OLD_SHAPE, id=policy_id)
    driver.execute_query("MATCH (m:Migration {name: 'column_flow_findings'}) DELETE m")
    server = LiveServer(create_app(make_settings())).start()
    try:
        await_start_up_backfills(driver)
    finally:
        server.stop()
    (shown,) = unleaked(violations(readers.outsider, policy_id))["violations"]
    assert shown["path_assets"] == ["redacted:1", "open.stage"]

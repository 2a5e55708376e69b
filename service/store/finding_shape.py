"""Violations of `restricted_column_flow` stored before findings kept `path_assets` and
`far_end`: their path is `asset#column` text only, which cannot be redacted step by
step, so they were shown as stored until their policy's next evaluation. The start-up
migration `column_flow_findings` (`service.lifespan`, once per database) evaluates
those policies now, as `POST /policies/evaluate` would, which rewrites each such
violation in the current shape (and announces any finding that opened or resolved
since, as any evaluation does)."""

from __future__ import annotations

from service.graph import Graph
from service.store import policies

KIND = "restricted_column_flow"


async def reshape(graph: Graph, max_depth: int, timeout_s: float) -> int:
    """Evaluate every `restricted_column_flow` policy holding a violation of the old
    shape, each in its own transaction; how many it evaluated. Idempotent: an evaluated
    policy holds none of the old shape."""
    rows = await graph.read("policies.unshaped_findings", kind=KIND)
    evaluated = 0
    for row in rows:
        if await policies.evaluate(graph, str(row["id"]), max_depth, timeout_s) is not None:
            evaluated += 1
    return evaluated

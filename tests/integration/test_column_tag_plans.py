"""The statement that finds the assets a column tag rule may change walks column lineage
before the rule is written: guards that its plan stays a pruning breadth-first walk from
the tagged columns, never a path enumeration nor a scan of every node, whatever the
planner is later tempted to do."""

from __future__ import annotations

import neo4j

from service import cypher
from tests.support import plans


def _plan(driver: neo4j.Driver) -> list[str]:
    statement = cypher.load()["columns.rule_assets"].statement({})
    summary = driver.execute_query(
        "EXPLAIN " + statement, tag="pii", stops=["masking", "aggregation"]
    ).summary
    assert summary is not None and summary.plan is not None
    return plans.operators(summary.plan)


def test_the_column_tag_rule_walk_prunes_and_scans_no_node_it_need_not(
    driver: neo4j.Driver,
) -> None:
    operators = _plan(driver)
    walks = [op for op in operators if op.startswith("VarLengthExpand")]
    assert walks, operators
    assert all(op.startswith("VarLengthExpand(Pruning") for op in walks), operators
    assert "AllNodesScan" not in operators, operators
    assert not any(op.startswith("CartesianProduct") for op in operators), operators

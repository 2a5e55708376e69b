"""The five examples of the query guide (docs/api/query.md), verbatim: the integration
tests run each (tests/integration/test_query_api.py) and a unit test holds the guide to
them (tests/unit/test_readme_examples.py)."""

from __future__ import annotations

from typing import Any

EXAMPLE_DASHBOARDS: dict[str, Any] = {
    "start": {"ids": ["warehouse.orders"]},
    "traverse": {"direction": "downstream", "max_depth": 10, "where": {"type": "dashboard"}},
    "return": "nodes",
}
EXAMPLE_PII_FEEDING_LOOKER: dict[str, Any] = {
    "start": {"where": {"platform": "looker"}},
    "traverse": {
        "direction": "upstream",
        "max_depth": 50,
        "where": {"type": "table", "tags_any": ["pii"]},
    },
    "return": "nodes",
}
EXAMPLE_SHORTEST_PATH: dict[str, Any] = {
    "path": {"from": "warehouse.orders", "to": "dash.finance", "max_depth": 10},
    "return": "paths",
}
EXAMPLE_HOW_MANY_FED: dict[str, Any] = {
    "start": {"ids": ["src.orders"]},
    "traverse": {"direction": "downstream", "max_depth": 50},
    "return": "count",
}
EXAMPLE_ORPHANS: dict[str, Any] = {
    "start": {"where": {"has_upstream": False, "has_downstream": False}},
    "return": "nodes",
}

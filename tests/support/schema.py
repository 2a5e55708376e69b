"""The service's schema, applied to the test database when the session starts.

On a database just created (each pytest-xdist worker's own instance, on a fresh
clone), the constraints and indexes are built by whichever service starts first, on
a Neo4j that has only just started. Done here, once per session, that is part of
provisioning the database; every test server then finds the schema in place
(each statement is `IF NOT EXISTS`) and starts as quickly as on any later run.
"""

from __future__ import annotations

from service.graph import Graph
from service.settings import Settings
from tests.support.graphs import on_a_graph


def apply_schema(settings: Settings) -> None:
    on_a_graph(settings, Graph.apply_schema)

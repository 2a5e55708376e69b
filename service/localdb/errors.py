"""The single exception type of the local Neo4j tooling.

Callers (the CLI, test fixtures) catch one class and print its message; every
failure is phrased so the message alone says what went wrong and what to do.
"""


class LocalNeo4jError(RuntimeError):
    """Provisioning, starting, stopping or reaching a local Neo4j failed."""

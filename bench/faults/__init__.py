"""Fault injection: kill -9 Neo4j or the service, and a flaky network to Bolt, against
a ledger of what was acknowledged (python -m bench.faults; docs/reliability.md)."""

"""What `POST /query/cypher` lets run: a plain read, judged on Neo4j's own plan of the
query (EXPLAIN), never on its text, which has too many spellings to police.

- The plan's query type must be `r`. Every write (CREATE, MERGE, SET, DELETE, REMOVE,
  FOREACH, write procedures such as `db.createLabel`), schema change and system
  command (`SHOW DATABASES`, `SHOW USERS`, `dbms.*`) is `w`, `rw` or `s`.
- Some operators are typed `r` although they reach outside the graph or act on the
  server: LOAD CSV (files, URLs), SHOW and TERMINATE commands, administration commands,
  `CALL { } IN TRANSACTIONS`. None may appear, nor any operator run on `system`.
- A procedure must be on the allowlist: schema introspection only. `db.*` holds
  procedures that wait, clear caches or report on the server; plug-ins may add more.

Limits of this guard: a function call is not a plan operator, so plug-in functions
are not inspected (the service ships with none), and a read sees the whole database,
service bookkeeping included: the endpoint is for administrators.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

ALLOWED_PROCEDURES = frozenset(
    {
        "db.labels",
        "db.relationshipTypes",
        "db.propertyKeys",
        "db.schema.visualization",
        "db.schema.nodeTypeProperties",
        "db.schema.relTypeProperties",
    }
)
FORBIDDEN_OPERATORS = (
    "LoadCSV",
    "Show",
    "Terminate",
    "AdministrationCommand",
    "Transaction",
    "Create",
    "Drop",
    "Alter",
    "Assert",
    "Grant",
    "Deny",
    "Revoke",
)
_PROCEDURE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\(")


def refusal(query_type: str | None, plan: Mapping[str, Any] | None) -> str | None:
    """Why the query may not run, or None when it may."""
    if query_type != "r":
        return f"the query is not read-only (query type {query_type or 'unknown'!r})"
    if plan is None:
        return "Neo4j gave no plan for the query"
    for operator in _operators(plan):
        reason = _operator_refusal(operator)
        if reason:
            return reason
    return None


def _operators(plan: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """Every operator of the plan; a part that is not an operator (a plan of an unknown
    shape) is yielded as an empty one, which `_operator_refusal` refuses."""
    stack: list[Any] = [plan]
    while stack:
        operator = stack.pop()
        if not isinstance(operator, Mapping):
            yield {}
            continue
        yield operator
        children = operator.get("children") or []
        stack.extend(children if isinstance(children, list) else [None])


def _operator_refusal(operator: Mapping[str, Any]) -> str | None:
    if not operator:
        return "Neo4j gave a plan of an unknown shape"
    name, _, database = str(operator.get("operatorType", "")).partition("@")
    if database == "system":
        return "the query acts on the system database"
    if name == "ProcedureCall":
        args = operator.get("args")
        details = str(args.get("Details", "")) if isinstance(args, Mapping) else ""
        match = _PROCEDURE.match(details)
        procedure = match.group(1) if match else "(unknown)"
        if procedure not in ALLOWED_PROCEDURES:
            return f"procedure {procedure} is not allowed"
        return None
    if name.startswith(FORBIDDEN_OPERATORS):
        return f"{name} is not allowed"
    return None

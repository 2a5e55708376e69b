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

Secrets stay out of reach: the service's accounts (`User`: password hashes),
sessions (`Session`: session hashes, CSRF values), API tokens (`ApiToken`: token
hashes) and idempotency records (`IdempotencyRecord`: stored answers, a new token's
secret among them) and single sign-ons under way (`SignInFlow`: PKCE verifiers) are
never read.

- No operator may name one of those labels (a scan, a filter, a label expression,
  a count), nor a property only they hold (`password_hash`, `login_key`, `csrf`,
  `code_verifier`).
- Every node a query starts from must be found through a label: a scan of all nodes
  (`MATCH (n)`, `OPTIONAL MATCH (n)`, `MATCH (n:!Asset)`, `MATCH (n:$($label))`) or a
  seek by internal id could reach those nodes, and once a query holds a node, whole-
  node answers (`n`, `n{.*}`, `properties(n)`) and dynamic keys (`n[$k]`, `keys(n)`)
  leave nothing to police. Refusing the unlabelled start is the one rule that cannot
  be spelled around. Relationships are no way in: those nodes have none.

Limits of this guard: a function call is not a plan operator, so plug-in functions
are not inspected (the service ships with none); everything else in the database,
service bookkeeping included, is readable: the endpoint is for administrators.
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
# Labels of the nodes that hold secrets, and the properties only they hold.
SECRET_LABELS = ("User", "Session", "ApiToken", "IdempotencyRecord", "SignInFlow")
SECRET_PROPERTIES = ("password_hash", "login_key", "csrf", "code_verifier")
# A label in a label expression as Neo4j prints it (`n:User`, `n:Asset|User`, `(:User)`).
_SECRET_LABEL = re.compile(r"[:|&!]\s*`?(" + "|".join(SECRET_LABELS) + r")`?(?![A-Za-z0-9_])")
_SECRET_PROPERTY = re.compile(r"\.`?(" + "|".join(SECRET_PROPERTIES) + r")`?(?![A-Za-z0-9_])")
# Leaf operators that produce nodes without a label, and dynamic label expressions.
UNLABELLED_SOURCES = (
    "AllNodesScan",
    "PartitionedAllNodesScan",
    "NodeByIdSeek",
    "NodeByElementIdSeek",
)
_DYNAMIC_LABEL = re.compile(r":\s*\$(?:all|any)\(")


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
        match = _PROCEDURE.match(_details(operator))
        procedure = match.group(1) if match else "(unknown)"
        if procedure not in ALLOWED_PROCEDURES:
            return f"procedure {procedure} is not allowed"
        return None
    if name.startswith(FORBIDDEN_OPERATORS):
        return f"{name} is not allowed"
    return _secret_refusal(name, _details(operator))


def _details(operator: Mapping[str, Any]) -> str:
    args = operator.get("args")
    return str(args.get("Details", "")) if isinstance(args, Mapping) else ""


def _secret_refusal(name: str, details: str) -> str | None:
    """Why the operator could read the service's secrets (see the module's doc)."""
    if name in UNLABELLED_SOURCES or _DYNAMIC_LABEL.search(details):
        return (
            "a node pattern without a label (such as MATCH (n)) or found by internal id "
            "could reach the service's accounts, sessions and tokens; name a label, "
            "such as (n:Asset)"
        )
    label = _SECRET_LABEL.search(details)
    if label:
        return f"the label {label.group(1)} holds the service's secrets and cannot be read"
    found = _SECRET_PROPERTY.search(details)
    if found:
        return f"the property {found.group(1)} holds the service's secrets and cannot be read"
    return None

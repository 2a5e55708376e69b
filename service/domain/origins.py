"""Origins: the names of the writers that assert an edge, and which of them a caller
of the bulk endpoint may claim for its own edge set; pure, no I/O.

The service's own writers name themselves: `api` (edges written without an origin),
`dbt:<project>`, `openlineage:<job namespace>/<job name>` and `sql:<source>`. A bulk
request may name any other origin; with `replace=true` it withdraws that origin's
assertion from every edge the request leaves out, so an origin a writer of the
service owns is refused: a caller could otherwise retire a dbt project's or a job's
edges, or every edge posted without an origin.
"""

from __future__ import annotations

from service.models.common import has_controls

API = "api"
DBT_PREFIX = "dbt:"
OPENLINEAGE_PREFIX = "openlineage:"
SQL_PREFIX = "sql:"
RESERVED_PREFIXES = (DBT_PREFIX, OPENLINEAGE_PREFIX, SQL_PREFIX)
MAX_ORIGIN = 256
# Writers that never replace their set: `api` (no caller may name it) and `sql:`
# (its writer only adds), so their writes are not indexed for a replace.
UNOWNED = API
UNOWNED_PREFIXES = (SQL_PREFIX,)


def owns_set(origin: str) -> bool:
    """Whether `origin` may ever replace its edge set, so its writes are indexed by
    the assets they point into (`edge_sets`)."""
    return origin != UNOWNED and not origin.startswith(UNOWNED_PREFIXES)


def refusal(origin: str) -> tuple[str, str] | None:
    """Why a caller may not name `origin` (a message and an error type), or None; its
    length (at most MAX_ORIGIN) is checked where it is read. Reserved names are
    compared without case, so that `DBT:shop` cannot pass for a project's edges in a
    listing either."""
    if has_controls(origin):
        return "origin must not contain control characters", "control_characters"
    folded = origin.casefold()
    if folded == API:
        return f"{API!r} is the origin of edges written without one; name your own", "reserved"
    for prefix in RESERVED_PREFIXES:
        if folded.startswith(prefix):
            return f"origins starting with {prefix!r} belong to the service's writers", "reserved"
    return None

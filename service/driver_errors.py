"""Neo4j driver exceptions as the problems a client sees (`service.errors`).

Kept apart from `service.errors` so that the modules below the store (domain logic
and models) can raise the service's errors without importing the driver.
"""

from __future__ import annotations

from neo4j import exceptions as neo4j_errors

from service.errors import Conflict, ServiceError, Unavailable

NEO4J_RETRY_AFTER_S = 2


# A statement found a node or relationship that another transaction deleted before
# it could read it (Neo4j reads committed data, and takes no lock to read).
ENTITY_NOT_FOUND = "Neo.ClientError.Statement.EntityNotFound"


# Neo4j gave up on the transaction because of contention or time, and rolled it back.
# The driver reports some of these as ClientError (it will not retry a transaction
# that was stopped), but they are the database's state, not the client's mistake.
_BUSY_CODES = frozenset(
    {
        "Neo.ClientError.Transaction.TransactionTimedOut",
        "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration",
        "Neo.ClientError.Transaction.LockClientStopped",
        "Neo.TransientError.Transaction.LockClientStopped",
        "Neo.TransientError.Transaction.Terminated",
        # where no retry caught it (an admin's Cypher): a node deleted under the query
        ENTITY_NOT_FOUND,
    }
)


class ConcurrentChange(neo4j_errors.DriverError):
    """What a unit of work found was deleted under it by another transaction. The
    driver retries the unit from the start, as for a deadlock (the work is idempotent
    and the transaction wrote nothing); past its retry window this is 503."""

    def is_retryable(self) -> bool:
        return True


def from_driver_error(exc: Exception) -> ServiceError | None:
    """Map a Neo4j driver exception to what the client should see, or None if unknown."""
    if isinstance(exc, neo4j_errors.ConstraintError):
        return Conflict("The resource already exists.", code="already_exists")
    if isinstance(exc, ConcurrentChange) or (
        isinstance(exc, neo4j_errors.Neo4jError) and exc.code in _BUSY_CODES
    ):
        return Unavailable(
            code="neo4j_busy",
            headers={"Retry-After": str(NEO4J_RETRY_AFTER_S)},
        )
    # The service's own credentials refused (wrong password, or Neo4j's rate limit on
    # failed logins, which the driver reports as a ClientError): the database is
    # unusable to this process, which is no fault of the client.
    security = isinstance(exc, neo4j_errors.Neo4jError) and (exc.code or "").startswith(
        "Neo.ClientError.Security."
    )
    if security or isinstance(
        exc,
        neo4j_errors.ServiceUnavailable
        | neo4j_errors.SessionExpired
        | neo4j_errors.TransientError
        | neo4j_errors.AuthError
        | neo4j_errors.DriverError
        | ConnectionError
        | TimeoutError,
    ):
        return Unavailable(
            code="neo4j_unavailable", headers={"Retry-After": str(NEO4J_RETRY_AFTER_S)}
        )
    return None

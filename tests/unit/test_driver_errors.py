"""Which Neo4j failures the client sees as what: the database's state is a 503 with
Retry-After (or 409 for a constraint), never a 500."""

from __future__ import annotations

import neo4j.exceptions as neo4j_errors
import pytest

from service.driver_errors import ENTITY_NOT_FOUND, ConcurrentChange, from_driver_error
from service.graph import retry_when_deleted_under_it


def driver_error(code: str) -> neo4j_errors.Neo4jError:
    return neo4j_errors.Neo4jError._hydrate_neo4j(code=code, message="m")


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("Neo.ClientError.Security.AuthenticationRateLimit", "neo4j_unavailable"),
        ("Neo.ClientError.Security.Unauthorized", "neo4j_unavailable"),
        ("Neo.ClientError.Transaction.TransactionTimedOut", "neo4j_busy"),
        ("Neo.TransientError.Transaction.LockClientStopped", "neo4j_busy"),
        ("Neo.TransientError.Transaction.DeadlockDetected", "neo4j_unavailable"),
        (ENTITY_NOT_FOUND, "neo4j_busy"),
    ],
)
def test_the_databases_state_is_a_503_with_retry_after(code: str, expected: str) -> None:
    mapped = from_driver_error(driver_error(code))
    assert mapped is not None
    assert (mapped.status, mapped.code) == (503, expected)
    assert int(mapped.headers["Retry-After"]) >= 1


def test_a_constraint_is_a_conflict_and_a_syntax_error_is_not_mapped() -> None:
    constraint = from_driver_error(
        driver_error("Neo.ClientError.Schema.ConstraintValidationFailed")
    )
    assert constraint is not None and constraint.status == 409
    assert from_driver_error(driver_error("Neo.ClientError.Statement.SyntaxError")) is None


def test_an_entity_deleted_under_a_unit_of_work_asks_the_driver_to_retry_it() -> None:
    with pytest.raises(ConcurrentChange) as caught, retry_when_deleted_under_it():
        raise driver_error(ENTITY_NOT_FOUND)
    assert caught.value.is_retryable()
    with pytest.raises(neo4j_errors.Neo4jError) as other, retry_when_deleted_under_it():
        raise driver_error("Neo.ClientError.Statement.SyntaxError")
    assert not isinstance(other.value, ConcurrentChange)
    mapped = from_driver_error(caught.value)  # the retries ran out: contention
    assert mapped is not None and (mapped.status, mapped.code) == (503, "neo4j_busy")
    assert int(mapped.headers["Retry-After"]) >= 1


def test_a_dataset_or_alias_claimed_by_a_racing_writer_starts_the_unit_again() -> None:
    for message in (
        "Node(12) already exists with label `Asset` and property `dataset_key` = 'x'",
        "Node(13) already exists with label `AssetAlias` and property `id` = 'y'",
    ):
        raced = neo4j_errors.Neo4jError._hydrate_neo4j(
            code="Neo.ClientError.Schema.ConstraintValidationFailed", message=message
        )
        with pytest.raises(ConcurrentChange), retry_when_deleted_under_it():
            raise raced
    other = neo4j_errors.Neo4jError._hydrate_neo4j(
        code="Neo.ClientError.Schema.ConstraintValidationFailed",
        message="Node(14) already exists with label `Asset` and property `id` = 'z'",
    )
    with pytest.raises(neo4j_errors.ConstraintError), retry_when_deleted_under_it():
        raise other


def test_neo4j_failing_inside_a_callers_cypher_is_that_querys_422() -> None:
    from service.store.query import _failed_inside, _statement_error

    failed = _failed_inside(driver_error("Neo.DatabaseError.Statement.ExecutionFailed"))
    assert failed is not None and (failed.status, failed.code) == (422, "query_failed")
    assert _failed_inside(driver_error("Neo.DatabaseError.General.UnknownError")) is None
    admin = neo4j_errors.Neo4jError._hydrate_neo4j(
        code="Neo.ClientError.Statement.SyntaxError",
        message="The `USE` clause is not required for Administration Commands.",
    )
    refused = _statement_error(admin)
    assert refused is not None and refused.code == "forbidden_query"

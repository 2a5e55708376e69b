"""What a re-checking statement compares to tell that a remembered caller's roles
changed, and how its answer is read."""

from __future__ import annotations

import pytest

from service.domain.access.principal import StaleAccess, access_of
from service.domain.lineage_pages import Walk, check_root
from service.errors import ServiceError

WALK = Walk("a", "downstream", 3, None)


def test_the_role_comes_first_then_each_grant_sorted_as_the_statement_builds_it() -> None:
    grants = [("sales", "viewer"), ("finance", "admin"), ("finance", "editor")]
    assert access_of("viewer", grants) == (
        "viewer",
        "finance admin",
        "finance editor",
        "sales viewer",
    )
    assert access_of(None, []) == ("",)  # a token made without a user


def test_any_change_of_role_or_grant_changes_it() -> None:
    before = access_of("viewer", [("finance", "viewer")])
    assert access_of("admin", [("finance", "viewer")]) != before
    assert access_of("viewer", [("finance", "editor")]) != before
    assert access_of("viewer", []) != before
    assert access_of("viewer", [("finance", "viewer")]) == before


def test_a_statement_that_found_the_roles_changed_asks_for_a_fresh_look_up() -> None:
    with pytest.raises(StaleAccess):
        check_root(None, {"id": "a"}, WALK)
    with pytest.raises(ServiceError) as refused:
        check_root(False, {"id": "a"}, WALK)
    assert refused.value.status == 401
    check_root(True, {"id": "a"}, WALK)

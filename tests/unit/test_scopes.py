import pytest

from service.auth.principal import needs_token, required_scope
from service.auth.scopes import Scope, highest


@pytest.mark.parametrize(
    ("method", "path", "scope"),
    [
        ("GET", "/api/v1/assets", Scope.READ),
        ("GET", "/api/v1/lineage/x/upstream", Scope.READ),
        ("POST", "/api/v1/query", Scope.READ),
        ("POST", "/api/v1/assets", Scope.WRITE),
        ("PATCH", "/api/v1/assets/x", Scope.WRITE),
        ("DELETE", "/api/v1/assets/x", Scope.WRITE),
        ("POST", "/api/v1/lineage/bulk", Scope.WRITE),
        ("GET", "/api/v1/tokens", Scope.ADMIN),
        ("DELETE", "/api/v1/tokens/tok_1", Scope.ADMIN),
        ("GET", "/api/v1/webhooks/whk_1", Scope.ADMIN),
        ("GET", "/api/v1/users", Scope.ADMIN),
        ("POST", "/api/v1/query/cypher", Scope.ADMIN),
    ],
)
def test_required_scope_follows_the_documented_scopes(method: str, path: str, scope: Scope) -> None:
    assert required_scope(method, path) is scope


def test_only_service_info_and_openapi_are_public_under_the_api() -> None:
    assert not needs_token("GET", "/api/v1")
    assert not needs_token("GET", "/api/v1/openapi.json")
    assert not needs_token("GET", "/healthz")
    assert needs_token("POST", "/api/v1")
    assert needs_token("GET", "/api/v1/assets")
    assert needs_token("GET", "/api/v1/tokensx")


def test_a_higher_scope_includes_the_lower_ones() -> None:
    assert highest(["read", "admin"]) is Scope.ADMIN
    assert highest(["write"]) >= Scope.READ
    assert highest(["bogus"]) is None

from service.domain.access.scopes import Scope, highest


def test_a_higher_scope_includes_the_lower_ones() -> None:
    assert highest(["read", "admin"]) is Scope.ADMIN
    write = highest(["write"])
    assert write is not None and write >= Scope.READ
    assert highest(["bogus"]) is None

"""Per-domain roles as pure rules: who may read and write an asset given its domain,
what caps a token, and what a refusal lists."""

from __future__ import annotations

from service.domain.access import domain_rules
from service.domain.access.domain_checks import MAX_LISTED, Placed, forbidden, refused
from service.domain.access.principal import Principal
from service.domain.access.scopes import Scope, scopes_allowed_by


def caller(role: str, scope: Scope = Scope.WRITE, **domain_roles: str) -> Principal:
    return Principal("tok_1", "t", scope, "usr_1", role, domain_roles)


def test_outside_every_domain_the_global_role_decides() -> None:
    assert domain_rules.can_write(caller("editor"), None)
    assert not domain_rules.can_write(caller("viewer", sales="editor"), None)
    assert domain_rules.can_read(caller("viewer"), None, False)


def test_inside_a_domain_only_the_role_there_lets_a_caller_write() -> None:
    assert not domain_rules.can_write(caller("editor"), "sales")
    assert domain_rules.can_write(caller("viewer", sales="editor"), "sales")
    assert domain_rules.can_write(caller("viewer", sales="admin"), "sales")
    assert not domain_rules.can_write(caller("editor", sales="viewer"), "sales")
    assert not domain_rules.can_write(caller("viewer", sales="editor"), "finance")


def test_a_global_admin_writes_and_reads_everywhere() -> None:
    admin = caller("admin")
    assert domain_rules.can_write(admin, "finance")
    assert domain_rules.can_read(admin, "finance", True)
    assert domain_rules.sees_everything(admin)
    assert domain_rules.readable_private(admin) is None


def test_the_tokens_scope_caps_a_role_in_a_domain() -> None:
    assert not domain_rules.can_write(caller("viewer", Scope.READ, sales="admin"), "sales")


def test_a_private_domain_is_readable_only_with_a_role_in_it() -> None:
    assert not domain_rules.can_read(caller("editor"), "finance", True)
    assert domain_rules.can_read(caller("viewer", finance="viewer"), "finance", True)
    assert domain_rules.can_read(caller("viewer"), "sales", False)
    assert domain_rules.readable_private(caller("viewer", b="viewer", a="editor")) == ("a", "b")


def test_the_best_role_per_domain_and_anywhere() -> None:
    roles = domain_rules.best_roles(
        [("sales", "viewer"), ("sales", "editor"), ("fin", "viewer"), ("x", "owner")]
    )
    assert roles == {"sales": "editor", "fin": "viewer"}
    assert domain_rules.best_role_anywhere("viewer", roles) == "editor"
    assert domain_rules.best_role_anywhere("admin", roles) == "admin"
    assert domain_rules.best_role_anywhere("viewer", {}) == "viewer"


def test_routes_outside_domains_need_the_scope_of_the_global_role() -> None:
    viewer = caller("viewer", Scope.WRITE, sales="editor")
    assert viewer.global_scope is Scope.READ
    assert caller("admin", Scope.WRITE).global_scope is Scope.WRITE
    assert scopes_allowed_by(Scope.WRITE) == ["read", "write"]


def test_a_refusal_lists_writes_and_unreadable_sources_with_their_domains() -> None:
    placed = {
        "fin.a": Placed("finance", True),
        "sales.b": Placed("sales"),
        "raw": Placed(None),
    }
    editor = caller("viewer", sales="editor")
    listed = refused(editor, ["sales.b", "raw", "new"], ["fin.a", "sales.b"], placed)
    # fin.a's private domain is no more named than a read would name it
    assert listed == [("fin.a", None), ("new", None), ("raw", None)]
    placed_new = refused(editor, ["new"], [], placed, {"new": Placed("sales")})
    assert placed_new == []
    member = caller("viewer", finance="viewer")
    assert refused(member, [], ["fin.a"], {"fin.a": Placed("finance", True)}) == []
    assert refused(member, ["fin.a"], [], placed) == [("fin.a", "finance")]


def test_a_refusal_over_assets_the_service_found_shows_hidden_ones_as_stand_ins() -> None:
    placed = {
        "fin.z": Placed("finance", True),
        "fin.a": Placed("finance", True),
        "ops.q": Placed("ops"),
    }
    editor = caller("viewer", sales="editor")
    listed = refused(editor, ["fin.z", "ops.q", "fin.a"], [], placed, found_by_service=True)
    assert listed == [("ops.q", "ops"), ("redacted:1", None), ("redacted:2", None)]


def test_a_refusal_names_at_most_a_hundred_assets_and_counts_them_all() -> None:
    listed: list[tuple[str, str | None]] = [(f"a{i:03}", "sales") for i in range(150)]
    error = forbidden(listed)
    assert (error.status, error.code) == (403, "domain_forbidden")
    assert len(error.extra["assets"]) == MAX_LISTED
    assert error.extra["assets"][0] == {"id": "a000", "domain": "sales"}
    assert error.extra["assets_count"] == 150

"""Users through /api/v1: accounts whose current role caps every token they made."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import neo4j
import pytest
from argon2 import PasswordHasher

from service.settings import Settings
from tests.conftest import client_for
from tests.support.dashboard import PASSWORD, make_user, sign_in
from tests.support.server import LiveServer
from tests.support.tokens import token_of

ASSET = {"id": "users.test.asset", "name": "asset", "type": "table"}


@pytest.fixture
def user_token(make_settings: Callable[..., Settings]) -> Callable[[str, str], str]:
    return lambda user_id, scope: token_of(make_settings(), user_id, scope)


def test_a_created_user_is_answered_without_any_password(admin: httpx.Client) -> None:
    answer = admin.post(
        "/users",
        json={"username": "Ada", "password": PASSWORD, "role": "editor", "display_name": "Ada L."},
    )
    assert answer.status_code == 201
    user = answer.json()
    assert user["id"].startswith("usr_")
    assert answer.headers["location"] == f"/api/v1/users/{user['id']}"
    assert {"password", "password_hash"}.isdisjoint(user)
    assert (user["username"], user["role"], user["disabled"]) == ("Ada", "editor", False)
    assert user["last_sign_in_at"] is None
    assert admin.get(f"/users/{user['id']}").json() == user
    listed = admin.get("/users").json()["items"]
    assert [u["id"] for u in listed] == [user["id"]]
    assert PASSWORD not in admin.get("/users").text


def test_usernames_are_unique_ignoring_case(admin: httpx.Client) -> None:
    make_user(admin, "grace", "viewer")
    again = admin.post("/users", json={"username": "GRACE", "password": PASSWORD, "role": "admin"})
    assert again.status_code == 409
    assert again.json()["code"] == "already_exists"
    assert len(admin.get("/users").json()["items"]) == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"username": "shorty", "password": "eleven-char", "role": "viewer"}, "password"),
        ({"username": "big", "password": "x" * 257, "role": "viewer"}, "password"),
        ({"username": "has space", "password": PASSWORD, "role": "viewer"}, "username"),
        ({"username": "x" * 65, "password": PASSWORD, "role": "viewer"}, "username"),
        ({"username": "rooted", "password": PASSWORD, "role": "root"}, "role"),
        ({"username": "extra", "password": PASSWORD, "role": "viewer", "admin": True}, "admin"),
    ],
)
def test_an_invalid_user_is_refused_naming_the_field(
    admin: httpx.Client, body: dict[str, object], field: str
) -> None:
    answer = admin.post("/users", json=body)
    assert answer.status_code == 422
    assert ["body", field] in [e["loc"] for e in answer.json()["errors"]]
    assert admin.get("/users").json()["items"] == []


def test_only_admin_tokens_manage_users(
    reader: httpx.Client, writer: httpx.Client, admin: httpx.Client
) -> None:
    for client in (reader, writer):
        refused = client.get("/users")
        assert refused.status_code == 403
        assert 'scope="admin"' in refused.headers["www-authenticate"]
    assert admin.get("/users").status_code == 200


def test_the_last_enabled_admin_cannot_be_demoted_disabled_or_deleted(
    admin: httpx.Client,
) -> None:
    only = make_user(admin, "only-admin", "admin")
    path = f"/users/{only['id']}"
    for change in ({"role": "editor"}, {"disabled": True}):
        refused = admin.patch(path, json=change)
        assert refused.status_code == 409
        assert refused.json()["code"] == "last_admin"
    assert admin.delete(path).status_code == 409
    assert admin.get(path).json()["role"] == "admin"
    make_user(admin, "second-admin", "admin")
    assert admin.patch(path, json={"role": "editor"}).status_code == 200
    assert admin.delete(path).status_code == 204
    assert admin.get(path).status_code == 404


def test_a_merge_patch_clears_the_display_name_and_refuses_other_nulls(
    admin: httpx.Client,
) -> None:
    user = make_user(admin, "patchy", "viewer", display_name="Patchy")
    path = f"/users/{user['id']}"
    cleared = admin.patch(path, json={"display_name": None})
    assert cleared.status_code == 200
    assert cleared.json()["display_name"] is None
    for field in ("role", "disabled", "password"):
        refused = admin.patch(path, json={field: None})
        assert refused.status_code == 422
        assert refused.json()["errors"][0]["loc"] == ["body", field]
    assert admin.patch(path, json={"username": "renamed"}).status_code == 422
    assert admin.get(path).json()["username"] == "patchy"


def test_a_merge_patch_of_a_field_users_do_not_have_is_refused_and_changes_nothing(
    admin: httpx.Client, live: LiveServer
) -> None:
    """null removes a key in a merge patch, and the stored user has keys no patch may
    touch (its password hash, id, sign-in key): naming any of them, or a key that is
    no field at all, is refused like any unknown field."""
    user = make_user(admin, "untouchable", "viewer")
    path = f"/users/{user['id']}"
    for key in ("password_hash", "id", "login_key", "created_at", "", "nonsense"):
        for value in (None, "x"):
            refused = admin.patch(
                path, json={key: value}, headers={"Content-Type": "application/merge-patch+json"}
            )
            assert refused.status_code == 422, (key, value, refused.text)
            assert refused.json()["errors"][0]["loc"] == ["body", key]
    assert admin.get(path).json() == user
    with sign_in(live, "untouchable") as dashboard:  # the password hash is still there
        assert dashboard.get("/").status_code == 200


def test_a_users_token_follows_the_users_current_role(
    admin: httpx.Client, live: LiveServer, user_token: Callable[[str, str], str]
) -> None:
    make_user(admin, "keeper", "admin")  # so the user below may be demoted
    user = make_user(admin, "demotable", "admin")
    path = f"/users/{user['id']}"
    with client_for(live, user_token(user["id"], "admin")) as mine:
        assert mine.get("/users").status_code == 200
        assert admin.patch(path, json={"role": "editor"}).status_code == 200
        assert mine.get("/users").status_code == 403
        assert mine.post("/assets", json=ASSET).status_code == 201
        assert admin.patch(path, json={"role": "viewer"}).status_code == 200
        refused = mine.put(f"/assets/{ASSET['id']}", json=ASSET)
        assert refused.status_code == 403
        assert refused.json()["code"] == "insufficient_scope"
        assert mine.get(f"/assets/{ASSET['id']}").status_code == 200
        assert admin.patch(path, json={"role": "admin"}).status_code == 200
        assert mine.get("/users").status_code == 200


def test_a_promotion_never_raises_a_token_above_its_own_scopes(
    admin: httpx.Client, live: LiveServer, user_token: Callable[[str, str], str]
) -> None:
    user = make_user(admin, "promoted", "viewer")
    with client_for(live, user_token(user["id"], "read")) as mine:
        assert admin.patch(f"/users/{user['id']}", json={"role": "admin"}).status_code == 200
        assert mine.post("/assets", json=ASSET).status_code == 403


def test_disabling_or_deleting_a_user_makes_their_tokens_invalid(
    admin: httpx.Client, live: LiveServer, user_token: Callable[[str, str], str]
) -> None:
    user = make_user(admin, "leaving", "editor")
    path = f"/users/{user['id']}"
    with client_for(live, user_token(user["id"], "write")) as mine:
        assert mine.get("/assets").status_code == 200
        assert admin.patch(path, json={"disabled": True}).status_code == 200
        refused = mine.get("/assets")
        assert refused.status_code == 401
        assert 'error="invalid_token"' in refused.headers["www-authenticate"]
        assert admin.patch(path, json={"disabled": False}).status_code == 200
        assert mine.get("/assets").status_code == 200
        assert admin.delete(path).status_code == 204
        assert mine.get("/assets").status_code == 401


def test_me_names_the_token_and_its_user(
    admin: httpx.Client, live: LiveServer, user_token: Callable[[str, str], str]
) -> None:
    cli_made = admin.get("/me").json()
    assert cli_made["user"] is None
    assert cli_made["token"]["user_id"] is None
    assert "hash" not in cli_made["token"]
    user = make_user(admin, "curious", "viewer")
    with client_for(live, user_token(user["id"], "read")) as mine:
        me = mine.get("/me").json()
    assert me["user"]["id"] == user["id"]
    assert me["token"]["user_id"] == user["id"]
    assert me["token"]["scopes"] == ["read"]


def test_a_token_made_through_the_api_belongs_to_the_calling_user(
    admin: httpx.Client, live: LiveServer, user_token: Callable[[str, str], str]
) -> None:
    user = make_user(admin, "maker", "admin")
    with client_for(live, user_token(user["id"], "admin")) as mine:
        made = mine.post("/tokens", json={"name": "child", "scopes": ["read"]}).json()
    assert made["user_id"] == user["id"]
    assert admin.post("/tokens", json={"name": "cli", "scopes": ["read"]}).json()["user_id"] is None


def test_passwords_are_stored_as_argon2id_hashes_only(
    admin: httpx.Client, driver: neo4j.Driver
) -> None:
    user = make_user(admin, "hashed", "viewer")
    records, _, _ = driver.execute_query(
        "MATCH (u:User {id: $id}) RETURN properties(u) AS props", id=user["id"]
    )
    stored = records[0]["props"]
    assert stored["password_hash"].startswith("$argon2id$")
    assert PASSWORD not in str(stored)


@pytest.mark.usefixtures("production_password_hashing")
def test_a_hash_made_with_older_parameters_is_renewed_at_sign_in(
    admin: httpx.Client, driver: neo4j.Driver, live: LiveServer
) -> None:
    """Argon2's recommended parameters grow over time; a hash made with weaker ones is
    made again, with today's, the next time its password is given."""
    user = make_user(admin, "rehashed", "viewer")
    weak = PasswordHasher(time_cost=1, memory_cost=8 * 1024, parallelism=1).hash(PASSWORD)
    driver.execute_query(
        "MATCH (u:User {id: $id}) SET u.password_hash = $weak", id=user["id"], weak=weak
    )
    with sign_in(live, "rehashed"):
        pass
    records, _, _ = driver.execute_query(
        "MATCH (u:User {id: $id}) RETURN u.password_hash AS hash", id=user["id"]
    )
    renewed = records[0]["hash"]
    assert renewed != weak
    assert not PasswordHasher().check_needs_rehash(renewed)
    with sign_in(live, "rehashed"):  # the password still opens it
        pass


def test_the_openapi_document_describes_the_user_operations(anonymous: httpx.Client) -> None:
    paths = anonymous.get("/openapi.json").json()["paths"]
    assert paths["/api/v1/users"]["post"]["x-required-scope"] == "admin"
    assert paths["/api/v1/users/{user_id}"]["patch"]["x-required-scope"] == "admin"
    assert paths["/api/v1/me"]["get"]["x-required-scope"] == "read"

"""Single sign-on through a real OpenID provider process (zitadel/oidc's example
provider on loopback), driven without a browser: the service's button, the provider's
login form, the callback. The browser test (tests/e2e/test_sso.py) walks the same way
in Chromium."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from service.app import create_app
from service.settings import Settings
from tests.conftest import Tokens, client_for
from tests.support.dashboard import PASSWORD, browser, csrf_of, make_user, submit_login
from tests.support.identity_provider import IdentityProvider, ProviderUser, through_provider
from tests.support.server import LiveServer
from tests.support.tokens import TokenMaker

ALICE = ProviderUser(id="sub-alice", username="alice", name="Alice Liddell", groups=["gov-editors"])


@pytest.fixture
def admin_api(sso_live: LiveServer, tokens: Tokens) -> Iterator[httpx.Client]:
    """An admin token (made by the CLI, so no user), on a graph cleared for the test."""
    with client_for(sso_live, tokens.admin) as client:
        yield client


def users_named(admin_api: httpx.Client, username: str) -> list[dict[str, Any]]:
    answer = admin_api.get("/users", params={"limit": 500})
    assert answer.status_code == 200, answer.text
    return [user for user in answer.json()["items"] if user["username"] == username]


def test_a_first_sign_in_makes_the_user_with_the_role_its_group_maps_to(
    oidc_provider: IdentityProvider, sso_live: LiveServer, admin_api: httpx.Client
) -> None:
    oidc_provider.set_users([ALICE])
    with browser(sso_live) as visitor:
        answer = through_provider(visitor, "alice", ALICE.password, next_path="/assets")
        assert answer.status_code == 303, answer.text
        assert answer.headers["location"] == "/assets"
        assert visitor.get("/assets").status_code == 200
    [alice] = users_named(admin_api, "alice")
    assert (alice["role"], alice["display_name"], alice["disabled"]) == (
        "editor",
        "Alice Liddell",
        False,
    )
    assert alice["last_sign_in_at"] is not None


def test_a_later_sign_in_takes_the_role_from_the_groups_the_user_has_now(
    oidc_provider: IdentityProvider, sso_live: LiveServer, admin_api: httpx.Client
) -> None:
    oidc_provider.set_users([ALICE])
    with browser(sso_live) as visitor:
        assert through_provider(visitor, "alice", ALICE.password).status_code == 303
    [before] = users_named(admin_api, "alice")
    oidc_provider.set_users(
        [ProviderUser(**{**ALICE.__dict__, "groups": ["gov-viewers", "gov-admins"]})]
    )
    with browser(sso_live) as visitor:
        assert through_provider(visitor, "alice", ALICE.password).status_code == 303
        assert visitor.get("/settings/users").status_code == 200  # an admin page
    [after] = users_named(admin_api, "alice")
    assert (after["id"], before["role"], after["role"]) == (before["id"], "editor", "admin")


def test_a_user_in_no_mapped_group_is_refused_and_not_made(
    oidc_provider: IdentityProvider, sso_live: LiveServer, admin_api: httpx.Client
) -> None:
    oidc_provider.set_users([ProviderUser(id="sub-eve", username="eve", groups=["marketing"])])
    with browser(sso_live) as visitor:
        answer = through_provider(visitor, "eve", "provider-password")
        assert answer.status_code == 403
        assert "none of your groups gives you a role here" in answer.text
        assert visitor.get("/").status_code == 303  # still signed out
    assert users_named(admin_api, "eve") == []


def test_a_disabled_user_is_refused(
    oidc_provider: IdentityProvider, sso_live: LiveServer, admin_api: httpx.Client
) -> None:
    oidc_provider.set_users([ALICE])
    with browser(sso_live) as visitor:
        assert through_provider(visitor, "alice", ALICE.password).status_code == 303
    [alice] = users_named(admin_api, "alice")
    assert admin_api.patch(f"/users/{alice['id']}", json={"disabled": True}).status_code == 200
    with browser(sso_live) as visitor:
        answer = through_provider(visitor, "alice", ALICE.password)
        assert answer.status_code == 403
        assert "This account is disabled." in answer.text


def test_a_provider_user_is_linked_by_subject_never_to_a_local_account_of_that_name(
    oidc_provider: IdentityProvider, sso_live: LiveServer, admin_api: httpx.Client
) -> None:
    local = make_user(admin_api, "alice", "viewer")
    oidc_provider.set_users([ALICE])
    with browser(sso_live) as visitor:
        answer = through_provider(visitor, "alice", ALICE.password)
        assert answer.status_code == 409
        assert "taken by an account not linked to this provider" in answer.text
    assert [user["id"] for user in users_named(admin_api, "alice")] == [local["id"]]


def test_a_callback_whose_state_differs_from_the_browsers_is_400_and_opens_no_session(
    oidc_provider: IdentityProvider, sso_live: LiveServer, clean: None
) -> None:
    oidc_provider.set_users([ALICE])
    with browser(sso_live) as visitor:
        visitor.get("/auth/oidc/login")
        visitor.cookies.set("gov_oidc_state", "another-state", path="/auth/oidc")
        answer = through_provider(visitor, "alice", ALICE.password)
        assert answer.status_code == 400
        assert "did not start in this browser" in answer.text
        assert visitor.get("/").status_code == 303
    with browser(sso_live) as stranger:  # a callback link sent to someone else
        assert stranger.get("/auth/oidc/callback?state=x&code=y").status_code == 400


def test_a_callback_is_taken_once(
    oidc_provider: IdentityProvider, sso_live: LiveServer, clean: None
) -> None:
    oidc_provider.set_users([ALICE])
    with browser(sso_live) as visitor:
        answer = through_provider(visitor, "alice", ALICE.password)
        assert answer.status_code == 303
        callback = str(answer.request.url)
        state = answer.request.url.params["state"]
        visitor.cookies.set("gov_oidc_state", state, path="/auth/oidc")
        assert visitor.get(callback).status_code == 400


def test_signing_out_ends_the_session_here_and_at_the_provider(
    oidc_provider: IdentityProvider, sso_live: LiveServer, clean: None
) -> None:
    oidc_provider.set_users([ALICE])
    with browser(sso_live) as visitor:
        assert through_provider(visitor, "alice", ALICE.password).status_code == 303
        csrf = csrf_of(visitor.get("/").text)
        out = visitor.post("/logout", data={"csrf_token": csrf})
        assert (out.status_code, out.headers["location"]) == (303, "/auth/oidc/logout")
        onward = visitor.get("/auth/oidc/logout")
        ending = httpx.URL(onward.headers["location"])
        assert str(ending).startswith(oidc_provider.issuer + "end_session")
        assert ending.params["post_logout_redirect_uri"] == f"{sso_live.url}/login"
        back = httpx.get(ending, follow_redirects=False, timeout=10)
        assert back.headers["location"].startswith(f"{sso_live.url}/login")
        assert visitor.get("/").status_code == 303


def test_a_local_users_sign_out_stays_here(sso_live: LiveServer, admin_api: httpx.Client) -> None:
    make_user(admin_api, "carol", "viewer")
    with browser(sso_live) as visitor:
        assert submit_login(visitor, "carol", PASSWORD).status_code == 303
        out = visitor.post("/logout", data={"csrf_token": csrf_of(visitor.get("/").text)})
        assert (out.status_code, out.headers["location"]) == (303, "/login")


def test_the_sign_in_page_offers_the_provider_beside_the_password_form(
    sso_live: LiveServer,
) -> None:
    page = httpx.get(f"{sso_live.url}/login", timeout=10).text
    assert "Sign in with Test Provider" in page
    assert 'name="password"' in page


def test_with_local_passwords_off_only_the_provider_signs_in(
    oidc_provider: IdentityProvider,
    make_settings: Callable[..., Settings],
    token_maker: TokenMaker,
    clean: None,
) -> None:
    settings = make_settings(sso=oidc_provider.settings(local_passwords=False))
    server = LiveServer(create_app(settings)).start()
    try:
        with browser(server) as visitor:
            page = visitor.get("/login")
            assert "Sign in with Test Provider" in page.text
            assert 'name="password"' not in page.text
            refused = visitor.post("/login", data={"username": "admin", "password": PASSWORD})
            assert refused.status_code == 403
            assert "Password sign-in is turned off here" in refused.text
            assert refused.cookies == httpx.Cookies()
        with client_for(server, token_maker.make(admin=["admin"])["admin"]) as admin_api:
            make_user(admin_api, "dave", "editor")  # admins still manage users and tokens
            made = admin_api.post("/tokens", json={"name": "ci", "scopes": ["read"]})
            assert made.status_code == 201, made.text
    finally:
        server.stop()


def test_a_provider_that_does_not_answer_is_a_503_page_with_retry_after(
    oidc_provider: IdentityProvider, make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))  # bound, never listening: connections are refused
    issuer = f"http://127.0.0.1:{closed.getsockname()[1]}/"
    server = LiveServer(
        create_app(make_settings(sso=oidc_provider.settings(issuer=issuer)))
    ).start()
    try:
        answer = httpx.get(f"{server.url}/auth/oidc/login", timeout=30)
        assert answer.status_code == 503
        assert int(answer.headers["retry-after"]) > 0
        assert "cannot be reached" in answer.text
        assert "Sign in with Test Provider" in httpx.get(f"{server.url}/login", timeout=10).text
    finally:
        server.stop()
        closed.close()


def test_a_code_the_provider_will_not_exchange_is_a_400_page_and_makes_no_user(
    oidc_provider: IdentityProvider,
    make_settings: Callable[..., Settings],
    token_maker: TokenMaker,
    clean: None,
) -> None:
    """A wrong client secret: the provider refuses the token request (401)."""
    chosen = oidc_provider.settings(client_secret=SecretStr("not-the-secret"))
    server = LiveServer(create_app(make_settings(sso=chosen))).start()
    try:
        oidc_provider.set_users([ALICE])
        with browser(server) as visitor:
            answer = through_provider(visitor, "alice", ALICE.password)
            assert answer.status_code == 400
            assert "did not confirm you" in answer.text
            assert visitor.get("/").status_code == 303
        with client_for(server, token_maker.make(admin=["admin"])["admin"]) as admin_api:
            assert users_named(admin_api, "alice") == []
    finally:
        server.stop()


def test_a_state_or_form_token_in_any_script_is_refused_not_an_error(
    sso_live: LiveServer, clean: None
) -> None:
    with browser(sso_live) as visitor:
        visitor.cookies.set("gov_oidc_state", "etat", path="/auth/oidc")
        callback = visitor.get("/auth/oidc/callback", params={"state": "état", "code": "c"})
        assert callback.status_code == 400
        visitor.cookies.set("gov_login_csrf", "jeton", path="/login")
        form = {"csrf_token": "jéton", "username": "a", "password": "b"}
        assert visitor.post("/login", data=form).status_code == 403


def test_each_sign_in_makes_the_users_teams_follow_the_groups_claim(
    oidc_provider: IdentityProvider, sso_live: LiveServer, admin_api: httpx.Client
) -> None:
    """Teams listing `idp_groups` follow the claim; a team without them is left alone."""
    admin_api.put("/teams/editors", json={"idp_groups": ["gov-editors"]}).raise_for_status()
    admin_api.put("/teams/admins", json={"idp_groups": ["gov-admins"]}).raise_for_status()
    admin_api.put("/teams/by-hand", json={}).raise_for_status()
    oidc_provider.set_users([ALICE])
    with browser(sso_live) as visitor:
        assert through_provider(visitor, "alice", ALICE.password).status_code == 303
    [alice] = users_named(admin_api, "alice")
    admin_api.put(f"/teams/by-hand/members/{alice['id']}").raise_for_status()

    def teams_of_alice() -> list[str]:
        teams = admin_api.get("/teams").json()["items"]
        return [t["id"] for t in teams if alice["id"] in t["members"]]

    assert teams_of_alice() == ["by-hand", "editors"]
    oidc_provider.set_users([ProviderUser(**{**ALICE.__dict__, "groups": ["gov-admins"]})])
    with browser(sso_live) as visitor:
        assert through_provider(visitor, "alice", ALICE.password).status_code == 303
    assert teams_of_alice() == ["admins", "by-hand"]

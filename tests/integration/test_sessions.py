"""Dashboard sessions without a browser: sign-in, cookies, CSRF, throttling, and how
sessions end (sign-out, new password, disabled user). The cookie never opens /api/v1."""

from __future__ import annotations

import hashlib

import httpx
import neo4j

from service.dashboard.guard import CSRF_HEADER
from tests.support.cli import governance
from tests.support.dashboard import (
    PASSWORD,
    browser,
    create_token_in_dashboard,
    login_form,
    make_user,
    new_token_in,
    page_csrf,
    sign_in,
    submit_login,
)
from tests.support.neo4j_server import Neo4jTarget
from tests.support.server import LiveServer

WRONG = "Invalid username or password."


def session_count(driver: neo4j.Driver) -> int:
    records, _, _ = driver.execute_query("MATCH (s:Session) RETURN count(s) AS n")
    return int(records[0]["n"])


def token_count(driver: neo4j.Driver) -> int:
    records, _, _ = driver.execute_query("MATCH (t:ApiToken) RETURN count(t) AS n")
    return int(records[0]["n"])


def test_signed_out_pages_redirect_to_sign_in_with_the_way_back(
    live: LiveServer, clean: None
) -> None:
    with browser(live) as client:
        for path in ("/", "/assets?q=orders", "/settings/tokens", "/lineage/a%2Fb"):
            answer = client.get(path)
            assert answer.status_code == 303
            assert answer.headers["location"].startswith("/login?next=%2F")
        assert client.get("/assets?q=orders").headers["location"] == (
            "/login?next=%2Fassets%3Fq%3Dorders"
        )


def test_signing_in_sets_a_hardened_cookie_and_keeps_only_its_hash(
    live: LiveServer, admin: httpx.Client, driver: neo4j.Driver
) -> None:
    make_user(admin, "cookie-check", "viewer")
    with browser(live) as client:
        answer = submit_login(client, "cookie-check", PASSWORD, next_path="/quality")
        assert answer.status_code == 303
        assert answer.headers["location"] == "/quality"
        set_cookie = next(
            v for v in answer.headers.get_list("set-cookie") if v.startswith("gov_session=")
        )
        flags = {part.strip().lower() for part in set_cookie.split(";")}
        assert {"httponly", "samesite=lax", "path=/"} <= flags
        assert "secure" not in flags  # plain http; over https it is __Host- and Secure
        secret = client.cookies["gov_session"]
        records, _, _ = driver.execute_query("MATCH (s:Session) RETURN properties(s) AS p")
        stored = [r["p"] for r in records]
        assert [s["hash"] for s in stored] == [hashlib.sha256(secret.encode()).hexdigest()]
        assert secret not in str(stored)
        assert client.get("/quality").status_code == 200


def test_every_sign_in_makes_a_new_session(live: LiveServer, admin: httpx.Client) -> None:
    make_user(admin, "twice", "viewer")
    with sign_in(live, "twice") as first, sign_in(live, "twice") as second:
        assert first.cookies["gov_session"] != second.cookies["gov_session"]


def test_wrong_credentials_read_the_same_whether_or_not_the_user_exists(
    live: LiveServer, admin: httpx.Client, driver: neo4j.Driver
) -> None:
    make_user(admin, "exists", "viewer")
    answers = []
    with browser(live) as client:
        for username in ("exists", "does-not-exist"):
            answer = submit_login(client, username, "not-the-password!")
            assert answer.status_code == 200
            assert WRONG in answer.text
            assert "gov_session" not in client.cookies
            answers.append(answer.text.replace(username, "USER"))
    assert answers[0] == answers[1]  # the same page, but for the name typed in
    assert session_count(driver) == 0


def test_the_next_parameter_only_leads_to_this_site(live: LiveServer, admin: httpx.Client) -> None:
    make_user(admin, "wanderer", "viewer")
    for target in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
        with browser(live) as client:
            answer = submit_login(client, "wanderer", PASSWORD, next_path=target)
            assert answer.headers["location"] == "/"


def test_the_sign_in_form_needs_its_own_csrf_token(
    live: LiveServer, admin: httpx.Client, driver: neo4j.Driver
) -> None:
    make_user(admin, "forged", "viewer")
    with browser(live) as client:
        fields = login_form(client)
        forged = {**fields, "csrf_token": "not-the-token", "username": "forged"}
        answer = client.post("/login", data={**forged, "password": PASSWORD})
        assert answer.status_code == 403
    with httpx.Client(base_url=live.url) as stranger:  # no form cookie at all
        answer = stranger.post(
            "/login",
            data={"csrf_token": fields["csrf_token"], "username": "forged", "password": PASSWORD},
        )
        assert answer.status_code == 403
    assert session_count(driver) == 0


def test_repeated_failures_for_one_username_are_throttled(
    live: LiveServer, admin: httpx.Client
) -> None:
    make_user(admin, "guessed", "viewer")
    with browser(live) as client:
        for _ in range(5):
            assert WRONG in submit_login(client, "guessed", "wrong-password-0").text
        throttled = submit_login(client, "guessed", PASSWORD)
        assert throttled.status_code == 429
        assert int(throttled.headers["retry-after"]) >= 1
        assert "Too many failed sign-in attempts" in throttled.text
        assert "gov_session" not in client.cookies
    with sign_in(live, make_user(admin, "bystander", "viewer")["username"]) as other:
        assert other.get("/").status_code == 200


def test_a_post_without_the_sessions_csrf_token_changes_nothing(
    live: LiveServer, admin: httpx.Client, driver: neo4j.Driver
) -> None:
    make_user(admin, "csrf-target", "admin")
    before = token_count(driver)
    with sign_in(live, "csrf-target") as client:
        for data in ({}, {"csrf_token": "guess"}, {"csrf_token": "gu\u00e9ss"}):
            answer = client.post("/settings/tokens", data={**data, "name": "x", "scope": "read"})
            assert answer.status_code == 403
        # A header carrying a non-ASCII byte is a wrong token too, not a failure.
        odd = client.post(
            "/settings/tokens",
            data={"name": "x", "scope": "read"},
            headers={CSRF_HEADER.encode(): "gu\u00e9ss".encode("latin-1")},
        )
        assert odd.status_code == 403
        foreign = client.post(
            "/settings/tokens",
            data={"csrf_token": page_csrf(client), "name": "x", "scope": "read"},
            headers={"Origin": "https://evil.example"},
        )
        assert foreign.status_code == 403
    assert token_count(driver) == before


def test_signing_out_ends_the_session_on_the_server(
    live: LiveServer, admin: httpx.Client, driver: neo4j.Driver
) -> None:
    make_user(admin, "leaving", "viewer")
    with sign_in(live, "leaving") as client:
        secret = client.cookies["gov_session"]
        assert client.post("/logout", data={"csrf_token": "wrong"}).status_code == 403
        assert session_count(driver) == 1
        answer = client.post("/logout", data={"csrf_token": page_csrf(client, "/")})
        assert (answer.status_code, answer.headers["location"]) == (303, "/login")
    assert session_count(driver) == 0
    replay = httpx.get(live.url + "/", cookies={"gov_session": secret})
    assert replay.status_code == 303


def test_a_new_password_ends_sessions_but_not_tokens(live: LiveServer, admin: httpx.Client) -> None:
    user = make_user(admin, "rotating", "editor")
    with sign_in(live, "rotating") as client:
        token = new_token_in(create_token_in_dashboard(client, "keeps", "write").text)
        changed = admin.patch(f"/users/{user['id']}", json={"password": "a-brand-new-password"})
        assert changed.status_code == 200
        assert client.get("/").status_code == 303
    assert (
        httpx.get(live.url + "/api/v1/me", headers={"Authorization": f"Bearer {token}"}).status_code
        == 200
    )
    with browser(live) as client:
        assert WRONG in submit_login(client, "rotating", PASSWORD).text
        assert submit_login(client, "rotating", "a-brand-new-password").status_code == 303


def test_disabling_a_user_ends_their_sessions_and_refuses_sign_in(
    live: LiveServer, admin: httpx.Client
) -> None:
    user = make_user(admin, "disabled-later", "viewer")
    with sign_in(live, "disabled-later") as client:
        assert admin.patch(f"/users/{user['id']}", json={"disabled": True}).status_code == 200
        assert client.get("/").status_code == 303
    with browser(live) as client:
        assert WRONG in submit_login(client, "disabled-later", PASSWORD).text


def test_the_api_never_accepts_the_session_cookie(live: LiveServer, admin: httpx.Client) -> None:
    make_user(admin, "cookie-only", "admin")
    with sign_in(live, "cookie-only") as client:
        answer = client.get("/api/v1/assets")
        assert answer.status_code == 401
        assert answer.headers["content-type"].startswith("application/problem+json")


def test_page_scripts_read_json_with_the_session_only(
    live: LiveServer, admin: httpx.Client
) -> None:
    for edge in ({"source": "raw.a", "target": "mart.b"}, {"source": "mart.b", "target": "bi.c"}):
        assert admin.post("/lineage", json=edge).status_code == 201
    make_user(admin, "scripted", "viewer")
    with httpx.Client(base_url=live.url) as stranger:
        refused = stranger.get("/ui/lineage/mart.b")
        assert refused.status_code == 401
        assert refused.json()["code"] == "no_session"
    with sign_in(live, "scripted") as client:
        page_view = client.get("/ui/lineage/mart.b", params={"depth": 1}).json()
    api_view = admin.get("/lineage/mart.b", params={"depth": 1}).json()
    # The page's view is the API's traversal with what the graph draws beside it: each
    # node's dataset and each edge's writers, and the moment shown (now).
    assert (page_view.pop("as_of"), page_view.pop("compare")) == (None, None)
    assert [n.pop("dataset") for n in page_view["nodes"]] == [None, None, None]
    assert [e.pop("origins") for e in page_view["edges"]] == [["api"], ["api"]]
    assert page_view == api_view
    assert {n["id"] for n in page_view["nodes"]} == {"raw.a", "mart.b", "bi.c"}


def test_pages_forbid_framing_and_foreign_scripts(live: LiveServer, admin: httpx.Client) -> None:
    make_user(admin, "headers", "viewer")
    with sign_in(live, "headers") as client:
        for path in ("/", "/settings/tokens"):
            answer = client.get(path)
            csp = answer.headers["content-security-policy"]
            assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
            assert answer.headers["x-frame-options"] == "DENY"
            assert "<script>" not in answer.text and " onclick=" not in answer.text


def test_static_files_are_gzipped_and_pages_with_secrets_are_not(
    live: LiveServer, admin: httpx.Client
) -> None:
    make_user(admin, "zipped", "viewer")
    gzip_please = {"Accept-Encoding": "gzip"}
    with sign_in(live, "zipped") as client:
        script = client.get("/static/vendor/cytoscape.esm.min.mjs", headers=gzip_please)
        assert script.status_code == 200
        assert script.headers["content-encoding"] == "gzip"
        assert "export" in script.text  # decoded: the module as the browser runs it
        page = client.get("/settings/tokens", headers=gzip_please)
        assert "content-encoding" not in page.headers
        assert 'name="csrf_token"' in page.text


def test_roles_limit_what_the_settings_pages_allow(
    live: LiveServer, admin: httpx.Client, driver: neo4j.Driver
) -> None:
    make_user(admin, "a-viewer", "viewer")
    make_user(admin, "an-editor", "editor")
    with sign_in(live, "an-editor") as editor:
        token = new_token_in(create_token_in_dashboard(editor, "editors", "write").text)
        token_id = httpx.get(
            live.url + "/api/v1/me", headers={"Authorization": f"Bearer {token}"}
        ).json()["token"]["id"]
    before = token_count(driver)
    with sign_in(live, "a-viewer") as viewer:
        assert create_token_in_dashboard(viewer, "too-much", "write").status_code == 403
        assert viewer.get("/settings/users").status_code == 403
        assert viewer.get("/ingest").status_code == 403
        revoke = viewer.post(
            f"/settings/tokens/{token_id}/revoke", data={"csrf_token": page_csrf(viewer)}
        )
        assert revoke.status_code == 403
    assert token_count(driver) == before
    assert (
        httpx.get(live.url + "/api/v1/me", headers={"Authorization": f"Bearer {token}"}).status_code
        == 200
    )


def test_admins_manage_users_in_the_dashboard(live: LiveServer, admin: httpx.Client) -> None:
    me = make_user(admin, "boss", "admin")
    with sign_in(live, "boss") as client:
        csrf = page_csrf(client, "/settings/users")
        made = client.post(
            "/settings/users",
            data={"csrf_token": csrf, "username": "newbie", "password": PASSWORD, "role": "viewer"},
        )
        assert made.status_code == 201
        newbie = next(u for u in admin.get("/users").json()["items"] if u["username"] == "newbie")
        promote = client.post(
            f"/settings/users/{newbie['id']}",
            data={"csrf_token": csrf, "action": "role", "role": "editor"},
        )
        assert promote.status_code == 200
        assert admin.get(f"/users/{newbie['id']}").json()["role"] == "editor"
        last = client.post(
            f"/settings/users/{me['id']}", data={"csrf_token": csrf, "action": "disable"}
        )
        assert last.status_code == 409
        assert "last enabled admin" in last.text
        short = client.post(
            f"/settings/users/{newbie['id']}",
            data={"csrf_token": csrf, "action": "password", "password": "short"},
        )
        assert short.status_code == 422
    assert admin.get(f"/users/{me['id']}").json()["disabled"] is False


def test_the_cli_creates_users_and_recovers_passwords(
    neo4j_target: Neo4jTarget, live: LiveServer, clean: None
) -> None:
    made = governance(
        neo4j_target,
        "user",
        "create",
        "--username",
        "ops",
        "--role",
        "admin",
        "--password-stdin",
        stdin=PASSWORD + "\n",
    )
    assert made.returncode == 0, made.stderr
    with sign_in(live, "ops") as client:
        reset = governance(
            neo4j_target,
            "user",
            "set-password",
            "--username",
            "OPS",
            "--password-stdin",
            stdin="recovered-password-1\n",
        )
        assert reset.returncode == 0, reset.stderr
        assert client.get("/").status_code == 303
    with browser(live) as client:
        assert submit_login(client, "ops", "recovered-password-1").status_code == 303
    short = governance(
        neo4j_target,
        "user",
        "set-password",
        "--username",
        "ops",
        "--password-stdin",
        stdin="short\n",
    )
    assert short.returncode == 1
    assert "password" in short.stderr

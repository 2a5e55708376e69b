"""The security review's findings, each held through HTTP: what a demoted admin's open
stream stops sending, whose `token.*` events anyone sees, what guarded Cypher never
answers, which passwords and names are refused, how a malformed form is answered, that
problems are never sniffed, and when the session cookie is `Secure`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from service.app import create_app
from service.settings import Settings
from tests.conftest import client_for
from tests.support.dashboard import (
    PASSWORD,
    browser,
    create_token_in_dashboard,
    hidden_fields,
    make_user,
    new_token_in,
    page_csrf,
    sign_in,
    submit_login,
)
from tests.support.server import LiveServer
from tests.support.sse import Frame, SseReader
from tests.support.writes import post_asset

STREAM = "/api/v1/events/stream"


def _user_token(live: LiveServer, username: str, scope: str, name: str = "mine") -> str:
    """A token of `username`'s own, made through the dashboard as that user."""
    with sign_in(live, username) as dashboard:
        made = create_token_in_dashboard(dashboard, name, scope)
        assert made.status_code == 201, made.text
        return new_token_in(made.text)


def _second_admin(admin: httpx.Client) -> dict[str, Any]:
    """`ops`, an admin who can be demoted: another admin (`spare`) remains."""
    make_user(admin, "spare", "admin")
    return make_user(admin, "ops", "admin")


def _frames_until(stream: SseReader, asset_id: str) -> list[Frame]:
    """Every event up to and including the `asset.created` of `asset_id`."""
    seen = []
    while True:
        frame = stream.next_event()
        seen.append(frame)
        if frame.event == "asset.created" and frame.data["data"]["id"] == asset_id:
            return seen


def _events_until_closed(stream: SseReader) -> list[Frame]:
    seen = []
    while (frame := stream.frames.get(timeout=10)) is not None:
        if frame.event:
            seen.append(frame)
    return seen


def _types(frames: list[Frame]) -> list[str]:
    return [frame.event or "" for frame in frames]


# -- 1. a live stream whose reader stops being an admin sends no audit event ---------------


def test_a_demoted_admins_api_stream_sends_no_audit_event_after_the_demotion(
    live: LiveServer, admin: httpx.Client, writer: httpx.Client
) -> None:
    ops = _second_admin(admin)
    token = _user_token(live, "ops", "admin")
    with SseReader(live.url + STREAM, token) as stream:
        make_user(admin, "before", "viewer")
        post_asset(writer, "a.before")
        assert "audit.user.created" in _types(_frames_until(stream, "a.before"))
        demoted = admin.patch(
            f"/users/{ops['id']}",
            json={"role": "viewer"},
            headers={"Content-Type": "application/merge-patch+json"},
        )
        assert demoted.status_code == 200, demoted.text
        make_user(admin, "after", "viewer")  # audit.user.created, after the demotion
        post_asset(writer, "a.after")
        after = _frames_until(stream, "a.after")
    assert _types(after) == ["asset.created"]


def test_a_demoted_admins_dashboard_stream_sends_no_audit_event_after_the_demotion(
    live: LiveServer, admin: httpx.Client, writer: httpx.Client
) -> None:
    ops = _second_admin(admin)
    with sign_in(live, "ops") as dashboard:
        cookie = {"Cookie": f"gov_session={dashboard.cookies['gov_session']}"}
        with SseReader(live.url + "/ui/events/stream", None, headers=cookie) as stream:
            assert stream.status == 200
            make_user(admin, "before", "viewer")
            post_asset(writer, "a.before")
            assert "audit.user.created" in _types(_frames_until(stream, "a.before"))
            demoted = admin.patch(
                f"/users/{ops['id']}",
                json={"role": "editor"},
                headers={"Content-Type": "application/merge-patch+json"},
            )
            assert demoted.status_code == 200, demoted.text
            make_user(admin, "after", "viewer")
            post_asset(writer, "a.after")
            after = _frames_until(stream, "a.after")
    assert _types(after) == ["asset.created"]


def test_a_disabled_admins_stream_closes_without_the_audit_event_of_it(
    live: LiveServer, admin: httpx.Client
) -> None:
    ops = _second_admin(admin)
    token = _user_token(live, "ops", "admin")
    with SseReader(live.url + STREAM, token) as stream:
        disabled = admin.patch(
            f"/users/{ops['id']}",
            json={"disabled": True},
            headers={"Content-Type": "application/merge-patch+json"},
        )
        assert disabled.status_code == 200, disabled.text
        make_user(admin, "after", "viewer")
        sent = _events_until_closed(stream)
    assert [t for t in _types(sent) if t.startswith("audit.")] == []


# -- 2. token.* events: admins and the token's own user only -------------------------------


@pytest.fixture
def two_users_tokens(live: LiveServer, admin: httpx.Client) -> dict[str, str]:
    make_user(admin, "alice", "viewer")
    make_user(admin, "bob", "viewer")
    return {
        "alice": _user_token(live, "alice", "read", "alice-laptop"),
        "bob": _user_token(live, "bob", "read", "bob-laptop"),
    }


def _token_names(client: httpx.Client) -> list[str]:
    answer = client.get("/events", params={"types": "token.*"})
    assert answer.status_code == 200, answer.text
    return sorted(e["data"]["name"] for e in answer.json()["items"])


def test_the_event_log_shows_token_events_to_admins_and_their_own_user_only(
    live: LiveServer, admin: httpx.Client, reader: httpx.Client, two_users_tokens: dict[str, str]
) -> None:
    with client_for(live, two_users_tokens["alice"]) as alice:
        assert _token_names(alice) == ["alice-laptop"]
        everything = alice.get("/events").json()["items"]
    assert "bob-laptop" not in str(everything)
    assert {"alice-laptop", "bob-laptop"} <= set(_token_names(admin))
    assert _token_names(reader) == []  # a token of no user owns no token's events


def test_the_stream_shows_token_events_to_their_own_user_only(
    live: LiveServer, admin: httpx.Client, writer: httpx.Client
) -> None:
    make_user(admin, "alice", "viewer")
    make_user(admin, "bob", "viewer")
    alice_token = _user_token(live, "alice", "read", "first")
    with SseReader(live.url + STREAM, alice_token) as stream:
        _user_token(live, "bob", "read", "bobs")
        _user_token(live, "alice", "read", "second")
        post_asset(writer, "sync")
        seen = _frames_until(stream, "sync")
    names = [f.data["data"]["name"] for f in seen if f.event == "token.created"]
    assert names == ["second"]


def test_the_dashboard_shows_token_events_to_their_own_user_only(
    live: LiveServer, admin: httpx.Client, two_users_tokens: dict[str, str]
) -> None:
    with sign_in(live, "alice") as dashboard:
        for path in ("/events", "/"):
            page = dashboard.get(path)
            assert page.status_code == 200
            assert "bob-laptop" not in page.text
            assert "alice-laptop" in page.text or path == "/"
    make_user(admin, "root", "admin")
    with sign_in(live, "root") as dashboard:
        assert "bob-laptop" in dashboard.get("/events").text


# -- 3. guarded Cypher never answers the service's secrets ---------------------------------


@pytest.fixture
def secrets_in_graph(live: LiveServer, admin: httpx.Client) -> Iterator[None]:
    """A user with a password hash, a session and a token, and an idempotency record."""
    make_user(admin, "ada", "viewer")
    with sign_in(live, "ada"):
        kept = admin.post(
            "/assets",
            json={"id": "t.one", "name": "one", "type": "table"},
            headers={"Idempotency-Key": "k-1"},
        )
        assert kept.status_code == 201, kept.text
        yield


REFUSED = [
    "MATCH (u:User) RETURN u.password_hash",
    "MATCH (s:Session) RETURN s.csrf, s.hash",
    "MATCH (t:ApiToken) RETURN t.hash",
    "MATCH (r:IdempotencyRecord) RETURN r.body",
    "MATCH (n) RETURN n",
    "MATCH (n) RETURN properties(n)",
    "MATCH (n) RETURN n{.*}",
    "MATCH (n) UNWIND keys(n) AS k RETURN n[k]",
    "MATCH (n) WHERE 'User' IN labels(n) RETURN n[$key]",
    "OPTIONAL MATCH (n) RETURN n",
    "MATCH (n:!Asset) RETURN n",
    "MATCH (n:Asset|User) RETURN n",
    "MATCH (n:$($label)) RETURN n",
    "MATCH (n) WHERE elementId(n) = $key RETURN n",
    "MATCH (a:Asset) MATCH (n) WHERE n.id <> a.id RETURN n",
    "CALL { MATCH (u:User) RETURN u } RETURN u",
    "MATCH (a:Asset) RETURN a.password_hash",
    "MATCH (u:`User`) RETURN u",
    "RETURN COUNT { (u:User) } AS users",
]


@pytest.mark.parametrize("query", REFUSED)
def test_cypher_that_could_read_the_services_secrets_is_refused(
    admin: httpx.Client, secrets_in_graph: None, query: str
) -> None:
    answer = admin.post(
        "/query/cypher",
        json={"query": query, "parameters": {"key": "password_hash", "label": "User"}},
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == "forbidden_query"
    assert "$argon2" not in answer.text


def test_cypher_on_labelled_nodes_still_answers(
    admin: httpx.Client, secrets_in_graph: None
) -> None:
    for query in (
        "MATCH (a:Asset) RETURN a{.*} AS a, properties(a) AS p",
        "MATCH (n) RETURN count(n) AS nodes",
        "MATCH (a:Asset)-[r]-(b) RETURN a, r, b",
    ):
        answer = admin.post("/query/cypher", json={"query": query})
        assert answer.status_code == 200, (query, answer.text)
        assert "$argon2" not in answer.text
    rows = admin.post("/query/cypher", json={"query": "MATCH (a:Asset) RETURN a.id"}).json()
    assert rows["rows"] == [["t.one"]]


# -- 4. passwords ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("username", "password", "rule"),
    [
        ("ada", " " * 12, "whitespace"),
        ("ada", "eleven-char", "12 to 256"),
        ("ada", "x" * 257, "12 to 256"),
        ("ada", "my name is ADA, ok?", "username"),
        ("ada", "1qaz2wsx3edc", "common"),
        ("ada", "QWERTY123456", "common"),
    ],
)
def test_a_weak_password_is_refused_saying_which_rule(
    admin: httpx.Client, username: str, password: str, rule: str
) -> None:
    answer = admin.post(
        "/users", json={"username": username, "password": password, "role": "viewer"}
    )
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert body["code"] == "weak_password" and rule in body["detail"]
    assert body["errors"][0]["loc"] == ["body", "password"]
    assert admin.get("/users").json()["items"] == []


def test_a_password_change_is_held_to_the_same_rules(admin: httpx.Client) -> None:
    ada = make_user(admin, "ada", "viewer")
    patch = {"Content-Type": "application/merge-patch+json"}
    answer = admin.patch(f"/users/{ada['id']}", json={"password": "Ada-Ada-Ada-1"}, headers=patch)
    assert answer.status_code == 422 and answer.json()["code"] == "weak_password", answer.text
    ok = admin.patch(f"/users/{ada['id']}", json={"password": "a fine new phrase"}, headers=patch)
    assert ok.status_code == 200, ok.text


def test_the_dashboard_refuses_a_weak_password(live: LiveServer, admin: httpx.Client) -> None:
    make_user(admin, "root", "admin")
    with sign_in(live, "root") as dashboard:
        csrf = page_csrf(dashboard, "/settings/users")
        answer = dashboard.post(
            "/settings/users",
            data={"csrf_token": csrf, "username": "weak", "password": " " * 14, "role": "viewer"},
        )
    assert answer.status_code == 422
    assert answer.headers["content-type"].startswith("text/html")
    assert "The password must not be only whitespace." in answer.text
    assert [u["username"] for u in admin.get("/users").json()["items"]] == ["root"]


def test_a_weak_first_admin_password_stops_the_start(
    make_settings: Callable[..., Settings],
) -> None:
    from pydantic import SecretStr

    with pytest.raises(ValueError, match=r"GOVERNANCE_ADMIN_PASSWORD .* username"):
        create_app(make_settings(admin_password=SecretStr("admin-admin-admin")))


# -- 5. names refuse control and bidi characters -----------------------------------------------


@pytest.mark.parametrize(
    "bad", ["a\x00b", "evil\u202etxt.exe", "x\u2066y\u2069", "\u200fname", "a\u2028b"]
)
def test_token_and_display_names_refuse_control_and_bidi_characters(
    admin: httpx.Client, bad: str
) -> None:
    token = admin.post("/tokens", json={"name": bad, "scopes": ["read"]})
    assert token.status_code == 422, token.text
    assert token.json()["errors"][0]["loc"] == ["body", "name"]
    user = admin.post(
        "/users",
        json={"username": "ada", "password": PASSWORD, "role": "viewer", "display_name": bad},
    )
    assert user.status_code == 422, user.text
    assert user.json()["errors"][0]["loc"] == ["body", "display_name"]
    assert admin.get("/users").json()["items"] == []


def test_names_with_spaces_and_accents_are_kept(admin: httpx.Client) -> None:
    made = admin.post("/tokens", json={"name": "Zoë's CI token", "scopes": ["read"]})
    assert made.status_code == 201 and made.json()["name"] == "Zoë's CI token"


def test_the_dashboards_token_form_refuses_a_bidi_name(
    live: LiveServer, admin: httpx.Client
) -> None:
    make_user(admin, "ada", "viewer")
    with sign_in(live, "ada") as dashboard:
        answer = create_token_in_dashboard(dashboard, "pay\u202eroll", "read")
    assert answer.status_code == 422
    assert "invisible format characters" in answer.text


# -- 6. malformed forms, nosniff, the session cookie's Secure flag -----------------------------


def _multipart(parts: list[tuple[str, str | None]], boundary: str = "b0undary") -> bytes:
    lines = []
    for name, filename in parts:
        named = f'name="{name}"' + (f'; filename="{filename}"' if filename else "")
        lines += [f"--{boundary}", f"Content-Disposition: form-data; {named}", "", "{}"]
    return ("\r\n".join([*lines, f"--{boundary}--", ""])).encode()


MALFORMED: list[tuple[str, dict[str, str], bytes]] = [
    ("no boundary", {"Content-Type": "multipart/form-data"}, b"--x\r\n"),
    (
        "two files",
        {"Content-Type": "multipart/form-data; boundary=b0undary"},
        _multipart([("file", "a.json"), ("file", "b.json")]),
    ),
    (
        "too many fields",
        {"Content-Type": "multipart/form-data; boundary=b0undary"},
        _multipart([(f"f{i}", None) for i in range(2000)]),
    ),
    (
        "a part without a name",
        {"Content-Type": "multipart/form-data; boundary=b0undary"},
        b'--b0undary\r\nContent-Disposition: form-data; filename="a"\r\n\r\n{}\r\n--b0undary--\r\n',
    ),
]


@pytest.mark.parametrize(("what", "headers", "body"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_multipart_body_is_400_malformed_multipart(
    writer: httpx.Client, what: str, headers: dict[str, str], body: bytes
) -> None:
    answer = writer.post("/lineage/manifest", content=body, headers=headers)
    assert answer.status_code == 400, answer.text
    problem = answer.json()
    assert problem["code"] == "malformed_multipart"
    assert problem["title"] == "Malformed multipart body"
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_every_problem_is_marked_nosniff(
    live: LiveServer, anonymous: httpx.Client, admin: httpx.Client
) -> None:
    answers = [
        anonymous.get("/assets"),  # 401
        admin.get("/no/such/route"),  # 404
        admin.get("/assets/none-such"),  # 404 from a handler
        admin.post("/assets", json={"id": ""}),  # 422
        admin.post("/assets", content=b"{", headers={"Content-Type": "application/json"}),  # 400
        httpx.get(live.url + "/ui/events/stream"),  # 401 to a page's script
    ]
    for answer in answers:
        assert answer.headers["content-type"] == "application/problem+json", answer.text
        assert answer.headers["x-content-type-options"] == "nosniff", answer.status_code
    assert sorted({a.status_code for a in answers}) == [400, 401, 404, 422]


@pytest.fixture
def behind_tls_proxy(make_settings: Callable[..., Settings], clean: None) -> Iterator[LiveServer]:
    server = LiveServer(create_app(make_settings(session_cookie_secure="always"))).start()
    try:
        yield server
    finally:
        server.stop()


def _set_cookie(answer: httpx.Response, name: str) -> str:
    found = [v for v in answer.headers.get_list("set-cookie") if v.startswith(name + "=")]
    assert found, answer.headers
    return found[0]


def test_the_session_cookie_is_secure_behind_a_tls_proxy_when_configured(
    behind_tls_proxy: LiveServer, live: LiveServer, admin: httpx.Client
) -> None:
    make_user(admin, "ada", "viewer")
    with browser(behind_tls_proxy) as client:
        form = client.get("/login")
        login_csrf = _set_cookie(form, "gov_login_csrf")
        assert "Secure" in login_csrf
        # The browser sends Secure cookies over https, which the proxy turns into http.
        sent = {"Cookie": login_csrf.split(";", 1)[0]}
        fields = {**hidden_fields(form.text), "username": "ada", "password": PASSWORD}
        answer = client.post("/login", data=fields, headers=sent)
        assert answer.status_code == 303, answer.text
        cookie = _set_cookie(answer, "__Host-gov_session")
    assert "Secure" in cookie and "Path=/" in cookie and "HttpOnly" in cookie
    with browser(live) as client:  # auto, over plain http: not Secure
        cookie = _set_cookie(submit_login(client, "ada", PASSWORD), "gov_session")
    assert "Secure" not in cookie
